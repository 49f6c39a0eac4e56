"""What the NEXT and ROLL buttons mean in a Wizard's Duel, and the command NEXT sends."""

from __future__ import annotations

from random import Random

from device.commands import Command
from device.errors import IllegalCommand
from device.events import Event
from device.inputs import Button, ButtonPressed
from device.rules.registry import Rules
from device.rules.wizards_duel.cards import ready
from device.rules.wizards_duel.casting import defend, hold
from device.rules.wizards_duel.commands import (
    Defend,
    DuelNext,
    PassCasting,
    PassIncantations,
    RollElementDice,
)
from device.rules.wizards_duel.dice import roll
from device.rules.wizards_duel.queries import duel_of, players_in, seat_names, waiting_to_choose
from device.state import GameState

RULES = Rules("wizards_duel.bindings")


@RULES.decides(DuelNext)
def _next(state: GameState, command: DuelNext, rng: Random) -> list[Event]:
    """NEXT moves the table on: the target takes an attack undefended, the mover passes, phase 2
    ends for everyone still incanting, phase 1 rolls for whoever has not rolled."""
    duel = duel_of(state)
    falling = [w.seat for w in players_in(state) if w.falling]
    if falling:
        raise IllegalCommand("wd.falling_wait", names=seat_names(state, falling))
    if duel.attack is not None:
        return defend(state, Defend(seat=duel.attack.target), rng)
    if duel.phase == 1:
        if any(w.rolled is None and not w.chosen for w in players_in(state)):
            return roll(state, RollElementDice(), rng)
        raise IllegalCommand(
            "wd.waiting_choices", names=seat_names(state, waiting_to_choose(state))
        )
    if duel.phase == 2:
        return ready(state, PassIncantations(), rng)
    return hold(
        state, PassCasting(seat=duel.to_move if duel.to_move is not None else duel.starting), rng
    )


@RULES.on_button(Button.NEXT)
def _next_button(state: GameState, press: ButtonPressed) -> Command | None:
    if state.wizards_duel is None or press.long:
        return None
    return DuelNext()


@RULES.on_button(Button.ROLL)
def _roll_button(state: GameState, press: ButtonPressed) -> Command | None:
    if state.wizards_duel is None:
        return None
    return RollElementDice()
