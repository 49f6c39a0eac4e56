"""The kiosk plays its controller's rules, wherever it was built (decision 0034)."""

from __future__ import annotations

import contextvars
import random
from pathlib import Path

import pygame

from device.commands import NewGame
from device.controller import Controller
from device.journal import Journal
from device.rules import life, table
from device.rules.registry import Ruleset, formats, in_play
from display.fonts import Fonts
from display.kiosk import Kiosk
from display.targets import OffscreenTarget
from display.ui import Press
from device.inputs import Button


def test_a_kiosk_built_outside_the_program_plays_its_tables_rules(
    tmp_path: Path, fonts: Fonts
) -> None:
    """No rules are in play in a fresh context (as in a script that builds a kiosk itself): the
    kiosk still starts, draws and takes presses, asking the rules its table plays."""
    rules = Ruleset((table.RULES, life.RULES))
    seen: list[Ruleset] = []

    def play() -> None:
        with Journal(tmp_path / "j.sqlite3") as journal:
            controller = Controller(journal, rng=random.Random(3), rules=rules)
            controller.execute(NewGame(formats=("duel",), players=("Ann", "Bo"), first="Ann"))
            # A test before this one may have closed a kiosk, and with it SDL's video, which
            # the session's fonts fixture opened once.
            pygame.display.init()
            pygame.event.clear()
            kiosk = Kiosk(controller, OffscreenTarget((480, 320)), fonts=fonts)
            kiosk.redraw()
            kiosk.dispatch(Press(Button.NEXT))
            kiosk.settle()
            seen.append(kiosk.controller.rules)
            assert kiosk.frames >= 1

    contextvars.Context().run(play)
    assert seen == [rules]


def test_what_the_kiosk_asks_is_asked_of_its_rules(tmp_path: Path, fonts: Fonts) -> None:
    rules = Ruleset((table.RULES, life.RULES))
    asked: list[tuple[str, ...]] = []

    with Journal(tmp_path / "j.sqlite3") as journal:
        kiosk = Kiosk(Controller(journal, rules=rules), OffscreenTarget((480, 320)), fonts=fonts)
        original = kiosk.redraw.__wrapped__  # type: ignore[attr-defined]

        def redraw() -> None:
            asked.append(tuple(f.name for f in formats()))
            assert in_play() is rules
            original(kiosk)

        kiosk.redraw = redraw  # type: ignore[method-assign]
        kiosk.step(block=False)
    assert asked and asked[0] == ("ffa", "duel", "commander")
