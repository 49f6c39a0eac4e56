"""The code's shape: imports point one way, no module imports itself round a circle, no
function is too branched to read (ARCHITECTURE.md, STYLE.md)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("device", "display", "drivers", "firmware_tools")
#: The highest cyclomatic complexity a function may have (ruff's C901).
MAX_COMPLEXITY = 12


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
    }


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, module: str, known: set[str]) -> set[str]:
    """The project's modules that ``module`` imports anywhere in its code (at the top or inside a
    function), without those only for type checkers."""
    found: set[str] = set()
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(_known_prefix(alias.name, known) for alias in node.names)
        elif _imports_by_string(node):
            # ``importlib.import_module("device.x")`` is an import too: an edge the circle check
            # must see, not one hidden in a string
            assert isinstance(node, ast.Call) and isinstance(node.args[0], ast.Constant)
            found.add(_known_prefix(str(node.args[0].value), known))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                # ``from package import module`` imports the module
                found.add(_known_prefix(f"{base}.{alias.name}", known))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard("")
    found.discard(module)
    return found


def _imports_by_string(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call) or not node.args:
        return False
    called = node.func
    name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
    return name in {"import_module", "__import__"} and isinstance(node.args[0], ast.Constant)


def test_an_import_by_string_is_an_import() -> None:
    """A module named in a string and imported by ``importlib`` counts, circles and all."""
    code = "import importlib\nx = importlib.import_module('device.rules')\n"
    tree = ast.parse(code)
    calls = [node for node in ast.walk(tree) if _imports_by_string(node)]
    assert len(calls) == 1


def test_no_module_is_imported_by_its_name_as_a_string() -> None:
    """Every import is written as one (ARCHITECTURE.md): the lists that build the gadget name
    their modules, so a reader and the circle check see every edge."""
    by_string = [
        name
        for name, path in _modules().items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if _imports_by_string(node)
    ]
    assert by_string == []


def _known_prefix(name: str, known: set[str]) -> str:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return ""


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path, name, known) for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return groups


def test_no_import_circles() -> None:
    assert _circles(_graph()) == []


def test_the_core_imports_nothing_above_it() -> None:
    """device is the lowest floor: display, drivers and firmware_tools use it, never the reverse."""
    upward = {
        (name, other)
        for name, imports in _graph().items()
        if name.split(".")[0] == "device"
        for other in imports
        if other.split(".")[0] != "device"
    }
    assert upward == set()


def test_no_private_name_is_imported_from_another_module() -> None:
    """A leading underscore says "only this module uses it": another module needing it is a sign
    the name should be public (or the code should live elsewhere)."""
    known = set(_modules())
    private = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
                continue
            if _known_prefix(node.module, known) == "":
                continue
            hidden = [
                part
                for part in node.module.split(".")
                if part.startswith("_") and not part.startswith("__")
            ]
            names = [
                alias.name
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
            if hidden or names:
                private.append(
                    f"{name}: from {node.module} import {', '.join(a.name for a in node.names)}"
                )
    assert private == []


def test_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_function_is_too_complex() -> None:
    """Nor an unused import: in the packages and in the tests alike."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: pip install '.[test]' installs it")
    result = subprocess.run(
        [
            ruff,
            "check",
            "--no-cache",
            "--isolated",
            "--select",
            "C901,F401",
            "--output-format",
            "concise",
            "--config",
            f"lint.mccabe.max-complexity={MAX_COMPLEXITY}",
            *PACKAGES,
            "tests",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_file_is_formatted() -> None:
    """Every Python file is as ``ruff format`` writes it (line length and the rest in
    pyproject.toml), so a change's diff shows what changed, never how someone spaced it."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed: pip install '.[test]' installs it")
    result = subprocess.run(
        [ruff, "format", "--no-cache", "--check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
