"""The Wizard's Duel's set-up, state checks and bindings run in the gadget's game in a fixed
order: a state check sees the events of those before it (a player at 0 drops out or starts
falling before the phases move on), and the first binding that answers a press wins.  The order
comes from how its rules are taken in, so moving code between modules must not change it; nor
may the outcome rule, how a saved duel's round is read, or the table options' order."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from device.game import GAME
from device.inputs import Button

DUEL = "device.rules.wizards_duel."


def _name(fn: Callable[..., Any]) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def _duel(fns: Iterable[Callable[..., Any]]) -> list[str]:
    named = (_name(fn) for fn in fns)
    return [name.removeprefix(DUEL) for name in named if name.startswith(DUEL)]


def test_set_up_order() -> None:
    assert _duel(GAME.set_ups) == ["board._set_up"]


def test_state_check_order() -> None:
    assert _duel(GAME.state_checks) == ["ending._drop_outs", "rounds._progress"]


def test_no_pass_or_damage_checks() -> None:
    """The duel counts magic points, not life: the core's checks of both are not its own."""
    assert _duel(GAME.pass_checks) == []
    assert _duel(GAME.damage_checks) == []


def test_binding_order() -> None:
    buttons = {b.name: _duel(GAME.bindings.buttons[b]) for b in Button}
    assert {name: fns for name, fns in buttons.items() if fns} == {
        "NEXT": ["bindings._next_button"],
        "ROLL": ["bindings._roll_button"],
    }
    assert _duel(GAME.bindings.cards) == []


def test_outcome_and_round() -> None:
    assert _name(GAME.outcomes["wizards_duel"]).removeprefix(DUEL) == "play._outcome"
    assert _duel(GAME.rounds) == ["play._round"]


def test_format_and_options() -> None:
    duel = GAME.formats.find("wizards_duel")
    assert (duel.title, duel.kind, duel.turns) == ("Wizard's Duel", "base", False)
    assert list(GAME.formats.options_for(["wizards_duel"])) == [
        "chain_reaction",
        "antimagic_shield",
        "power_drain",
        "magic_lesson",
        "power_sacrifice",
        "alt_ending",
        "spell_deck",
    ]
