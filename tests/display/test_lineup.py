"""STYLE 4 for the screens: one explicit list (``display.screens.lineup``), checked at start-up,
and nothing registered by importing a module, so the screens' imports point one way only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import display
from display.screens.conspiracy import Conspiracy
from display.screens.lineup import SCREENS, lineup
from display.screens.table import Table

ROOT = Path(display.__file__).parent


def test_the_lineup_is_the_touch_bars_order() -> None:
    assert list(SCREENS) == ["table", "planechase", "contraptions", "necromancer", "conspiracy", "adjust", "setup",
                             "wizards_duel", "wd_card", "enrol"]


def test_a_screen_name_given_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="^screen name 'table' is taken by Table$"):
        lineup(Table(), Table())


def test_a_base_format_has_one_home() -> None:
    class Rounds(Conspiracy):
        name = "rounds"

    with pytest.raises(TypeError, match="^base format 'conspiracy' has a home already: Conspiracy$"):
        lineup(Conspiracy(), Rounds())


def _module(path: Path) -> str:
    parts = ["display", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    """The display modules a file imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known else node.module
                      for a in node.names}
    return found & known


def test_no_import_circle_runs_through_the_screens() -> None:
    """Render and the kiosk import the lineup, the lineup the screens, the screens what they
    are built from (``display.screens``, ``display.chips``, the table): never back up."""
    files = {_module(path): path for path in ROOT.rglob("*.py")}
    graph = {name: _imports(path, set(files)) - {name} for name, path in files.items()}

    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    circles = {name: sorted(m for m in reaches(name) if name in reaches(m))
               for name in graph if name.startswith(("display.screens", "display.chips", "display.render"))}
    assert {name: loop for name, loop in circles.items() if loop} == {}
