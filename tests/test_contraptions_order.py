"""Contraptions' set-up, state check, pass check and bindings run in the gadget's game in a
fixed order: its set-up opens the first upkeep after the formats before it have dealt, its state
check sees their events, and the first binding that answers a press or a card wins (Planechase's
before Contraptions', Contraptions' before the Wizards' Duel's).  The order comes from how its
rules are taken in, so moving code between modules must not change it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from device.game import GAME
from device.inputs import Button

CONTRAPTIONS = "device.rules.contraptions."
PLANECHASE = "device.rules.planechase."
WIZARDS_DUEL = "device.rules.wizards_duel."


def _contraptions(fns: Iterable[Callable[..., Any]]) -> list[str]:
    named = (f"{fn.__module__}.{fn.__qualname__}" for fn in fns)
    return [name.removeprefix(CONTRAPTIONS) for name in named if name.startswith(CONTRAPTIONS)]


def _formats(fns: Iterable[Callable[..., Any]]) -> list[str]:
    """Which of the three module formats each function belongs to, in order."""
    order = []
    for fn in fns:
        for prefix in (PLANECHASE, CONTRAPTIONS, WIZARDS_DUEL):
            if fn.__module__.startswith(prefix):
                order.append(prefix)
    return order


def test_set_up_order() -> None:
    assert _contraptions(GAME.set_ups) == ["decks._set_up"]


def test_state_check_order() -> None:
    assert _contraptions(GAME.state_checks) == ["crank._contraption_upkeep"]


def test_pass_and_damage_check_order() -> None:
    assert _contraptions(GAME.pass_checks) == ["assembly._mandatory_assembly_done"]
    assert _contraptions(GAME.damage_checks) == []


def test_binding_order() -> None:
    buttons = {b.name: _contraptions(GAME.bindings.buttons[b]) for b in Button}
    assert {name: fns for name, fns in buttons.items() if fns} == {
        "ROLL": ["bindings._roll_button"],
        "SELECT": ["bindings._select_button"],
    }
    assert _contraptions(GAME.bindings.cards) == ["bindings._contraption_card"]
    assert _contraptions(GAME.card_wants) == ["bindings._contraption_cards"]


def test_contraptions_between_planechase_and_the_wizards_duel() -> None:
    """Contraptions comes after Planechase and before the Wizards' Duel in the game's parts, so
    its set-up, state check and bindings run between theirs."""
    everyone = [PLANECHASE, CONTRAPTIONS, WIZARDS_DUEL]
    for fns, expected in (
        (GAME.set_ups, everyone),
        (GAME.state_checks, everyone),
        (GAME.bindings.buttons[Button.ROLL], everyone),
        (GAME.bindings.buttons[Button.SELECT], [PLANECHASE, CONTRAPTIONS]),
        (GAME.bindings.cards, [PLANECHASE, CONTRAPTIONS]),
        (GAME.card_wants, [PLANECHASE, CONTRAPTIONS]),
    ):
        order = _formats(fns)
        assert [p for i, p in enumerate(order) if i == 0 or order[i - 1] != p] == expected
