"""ARCHITECTURE, "One direction of flow": imports only point down.  device/ imports neither the
screen, the drivers nor the reader tools; the console's modules import the console's core, and
only the package's ``__init__`` (and the session that runs it) the list of command tables; the
``aetherbox`` command's entry point is the composition root above them all."""

from __future__ import annotations

import ast
import importlib
import io
import tomllib
from pathlib import Path

import pytest

import device
from device.console import TABLES, Console
from device.console import table as console_table
from device.controller import Controller

ROOT = Path(__file__).resolve().parents[1]
DEVICE = Path(device.__file__).parent
CONSOLE = DEVICE / "console"
ABOVE_DEVICE = {"display", "drivers", "firmware_tools"}


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top, inside functions or for annotations only."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_device_imports_nothing_above_it() -> None:
    files = sorted(DEVICE.rglob("*.py"))
    assert CONSOLE / "core.py" in files
    for path in files:
        above = {name for name in _imported(path) if name.split(".")[0] in ABOVE_DEVICE}
        assert not above, f"{path.relative_to(ROOT)} imports {sorted(above)}"


@pytest.mark.parametrize(
    "module",
    [
        "core",
        "table",
        "planechase",
        "contraptions",
        "necromancer",
        "conspiracy",
        "wizards_duel",
        "reader",
    ],
)
def test_console_modules_import_only_the_core(module: str) -> None:
    """No circle: a module of commands takes the core, and the package's list takes the modules."""
    console = sorted(
        name for name in _imported(CONSOLE / f"{module}.py") if name.startswith("device.console")
    )
    if module == "core":
        assert console == []
    else:
        assert all(name.startswith("device.console.core") for name in console), (
            f"{module}.py imports {console}"
        )


def test_a_command_named_twice_is_refused_at_start(controller: Controller) -> None:
    with pytest.raises(ValueError, match="console command 'new' is declared twice"):
        Console(controller, io.StringIO(), (*TABLES, console_table.COMMANDS))


def test_the_aetherbox_command_starts_at_the_top() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "scripts"
    ]
    module, _, function = scripts["aetherbox"].partition(":")
    assert module.split(".")[0] == "display"
    assert callable(getattr(importlib.import_module(module), function))
