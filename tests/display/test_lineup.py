"""STYLE 4 for the screens: one explicit list (``display.screens.lineup``), checked at start-up,
and nothing registered by importing a module, so the screens' imports point one way only; and no
import circle anywhere in ``display/`` (the texts' list, ``display.i18n.domains``, included)."""

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
    assert list(SCREENS) == [
        "table",
        "planechase",
        "contraptions",
        "necromancer",
        "conspiracy",
        "event",
        "dice",
        "adjust",
        "history",
        "games",
        "setup",
        "wizards_duel",
        "wd_card",
        "enrol",
        "calibrate",
    ]


def test_a_screen_name_given_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="^screen name 'table' is taken by Table$"):
        lineup(Table(), Table())


def test_a_base_format_has_one_home() -> None:
    class Rounds(Conspiracy):
        name = "rounds"

    with pytest.raises(
        TypeError, match="^base format 'conspiracy' has a home already: Conspiracy$"
    ):
        lineup(Conspiracy(), Rounds())


def _module(path: Path) -> str:
    parts = ["display", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    """The display modules a file imports, at its top or inside a function (not the ones under
    ``if TYPE_CHECKING:``, which never run)."""
    found: set[str] = set()
    todo: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _type_checking(node.test):
            todo += node.orelse
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known else node.module
                for a in node.names
            }
        todo += ast.iter_child_nodes(node)
    return found & known


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _graph() -> dict[str, set[str]]:
    files = {_module(path): path for path in ROOT.rglob("*.py")}
    return {name: _imports(path, set(files)) - {name} for name, path in files.items()}


def _circles(graph: dict[str, set[str]], through: tuple[str, ...]) -> dict[str, list[str]]:
    """For each module whose name starts with one of ``through``: the modules it reaches that
    reach it back."""

    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    circles = {
        name: sorted(m for m in reaches(name) if name in reaches(m))
        for name in graph
        if name.startswith(through)
    }
    return {name: loop for name, loop in circles.items() if loop}


def test_no_import_circle_runs_through_the_screens() -> None:
    """Render and the kiosk import the lineup, the lineup the screens, the screens what they
    are built from (``display.screens``, ``display.chips``, the table): never back up."""
    assert _circles(_graph(), ("display.screens", "display.chips", "display.render")) == {}


def test_no_import_circle_runs_through_the_texts() -> None:
    """``display.i18n`` imports its catalogues and the texts' list, the list the text modules,
    the text modules only ``device.text``: the catalogues find the texts in the list, not by
    importing ``display.i18n`` or the screens."""
    graph = _graph()
    assert graph["display.i18n.catalogs"] & {"display.i18n", "display.render"} == set()
    assert _circles(graph, ("display.i18n",)) == {}


def test_no_import_circle_anywhere_in_display() -> None:
    assert _circles(_graph(), ("display",)) == {}


def test_the_walk_sees_imports_inside_functions_and_skips_type_checking(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import display.ui\nelse:\n"
        "    import display.chips\n\ndef f():\n    from display import i18n\n",
        encoding="utf-8",
    )
    assert _imports(module, {"display.ui", "display.chips", "display.i18n"}) == {
        "display.chips",
        "display.i18n",
    }
