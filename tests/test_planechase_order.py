"""Planechase's set-up, state checks and bindings run in the gadget's game in a fixed order: a
state check sees the events of those before it (players leaving before a new turn's markers
move, both before the planes that count), and the first binding that answers a press wins.  The
order comes from how its rules are taken in, so moving code between modules must not change it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from device.game import GAME
from device.inputs import Button

PLANECHASE = "device.rules.planechase."


def _planechase(fns: Iterable[Callable[..., Any]]) -> list[str]:
    named = (f"{fn.__module__}.{fn.__qualname__}" for fn in fns)
    return [name.removeprefix(PLANECHASE) for name in named if name.startswith(PLANECHASE)]


def test_set_up_order() -> None:
    assert _planechase(GAME.set_ups) == ["decks._set_up"]


def test_state_check_order() -> None:
    assert _planechase(GAME.state_checks) == [
        "leaving._leaving",
        "turns._turn_began",
        "planes._planes_that_count",
    ]


def test_binding_order() -> None:
    buttons = {b.name: _planechase(GAME.bindings.buttons[b]) for b in Button}
    assert {name: fns for name, fns in buttons.items() if fns} == {
        "ROLL": ["bindings._roll_button"],
        "NEXT": ["bindings._acknowledge_button"],
        "SELECT": ["bindings._acknowledge_button"],
    }
    assert _planechase(GAME.bindings.cards) == ["bindings._planar_card"]


def test_planechase_binds_before_the_parts_after_it() -> None:
    """ROLL, NEXT, SELECT and a card are Planechase's first: it comes before Contraptions and
    the Wizards' Duel in the game's parts."""
    for button in (Button.ROLL, Button.NEXT, Button.SELECT):
        assert GAME.bindings.buttons[button][0].__module__.startswith(PLANECHASE)
    assert GAME.bindings.cards[0].__module__.startswith(PLANECHASE)
