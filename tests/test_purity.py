"""STYLE 1: the rules import only the standard library and pydantic — never I/O libraries."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import device

FORBIDDEN = {
    "pygame",
    "gpiozero",
    "serial",
    "sqlite3",
    "display",
    "drivers",
    "firmware_tools",
    "socket",
    "threading",
}
ALLOWED_THIRD_PARTY = {"pydantic", "device"}
RULES = Path(device.__file__).parent / "rules"
# What the rules package may reach inside device/ (and, through it, what they import in turn).
CORE = [
    "commands.py",
    "events.py",
    "formats.py",
    "models.py",
    "state.py",
    "text.py",
    "errors.py",
    "catalog.py",
    "bindings.py",
    "inputs.py",
]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _core_files() -> list[Path]:
    here = Path(device.__file__).parent
    return [here / name for name in CORE] + sorted(here.glob("state_*.py"))


def test_rules_import_no_io_libraries() -> None:
    files = sorted(RULES.rglob("*.py")) + _core_files()
    assert len(files) > len(CORE)
    for path in files:
        if not path.exists():
            continue
        for name in _imports(path):
            assert name not in FORBIDDEN, f"{path.name} imports {name}"
            assert name in sys.stdlib_module_names or name in ALLOWED_THIRD_PARTY, (
                f"{path.name} imports {name}"
            )


def test_rules_device_imports_stay_in_the_core() -> None:
    # device.game is the rules of every part: an event across tables folds its tables' games by it
    allowed = {f"device.{path.stem}" for path in _core_files()} | {"device.rules", "device.game"}
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("device")
            ):
                assert any(node.module == a or node.module.startswith(a + ".") for a in allowed), (
                    f"{path.name} imports {node.module}, outside the pure core"
                )
