"""WD-3, dropping out: a wizard at 0 magic points drops out, or with WD-4's power sacrifice
starts falling and chooses between sacrificing a basic card and dropping out."""

from __future__ import annotations

from random import Random

from device.errors import IllegalCommand
from device.events import Event, PlayerLost
from device.rules.registry import Rules
from device.rules.wizards_duel.board import update_wizard
from device.rules.wizards_duel.commands import DropOut, SacrificePower
from device.rules.wizards_duel.events import PowerSacrificed, WizardDroppedOut, WizardFalling
from device.rules.wizards_duel.queries import (
    duel_of,
    find_card,
    in_game,
    need_option,
    option,
    playing_wizard,
)
from device.state import GameState, LossReason
from device.text import Message

RULES = Rules("wizards_duel.ending")


SACRIFICE_POINTS = 10  # WD-4 power sacrifice


@RULES.state_check
def _drop_outs(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """A player at 0 magic points drops out (WD-3), unless the power sacrifice may save them."""
    duel = state.wizards_duel
    if duel is None:
        return []
    found: list[Event] = []
    for event in events:
        if isinstance(event, PlayerLost) and duel.winners is None:
            found.append(WizardDroppedOut(seat=event.seat, round=duel.round))
    for wizard in duel.wizards:
        if not in_game(state, wizard.seat) or wizard.falling or wizard.magic > 0:
            continue
        if option(state, "power_sacrifice") and not wizard.sacrifice_used:
            found.append(WizardFalling(seat=wizard.seat))
        else:
            found.append(
                PlayerLost(seat=wizard.seat, reason=LossReason.EFFECT, source=wizard.hurt_by)
            )
    return found


@RULES.applies(WizardFalling)
def _apply_falling(state: GameState, event: WizardFalling) -> GameState:
    return update_wizard(state, event.seat, falling=True)


@RULES.describes(WizardFalling)
def _describe_falling(state: GameState, event: WizardFalling) -> Message:
    return Message("wd.falling", name=state.player(event.seat).name)


@RULES.applies(WizardDroppedOut)
def _apply_dropped_out(state: GameState, event: WizardDroppedOut) -> GameState:
    duel = duel_of(state)
    if duel.dropout_round is not None:
        return state
    return state.model_copy(
        update={"wizards_duel": duel.model_copy(update={"dropout_round": event.round})}
    )


@RULES.describes(WizardDroppedOut)
def _describe_dropped_out(state: GameState, event: WizardDroppedOut) -> Message:
    name = state.player(event.seat).name
    duel = duel_of(state)
    if option(state, "alt_ending") and duel.dropout_round is None:
        return Message("wd.dropped_out_alt", name=name, round=event.round, last=event.round + 1)
    return Message("wd.dropped_out", name=name, round=event.round)


@RULES.decides(SacrificePower)
def _sacrifice(state: GameState, command: SacrificePower, rng: Random) -> list[Event]:
    wizard = playing_wizard(state, command.seat)
    name = state.player(command.seat).name
    need_option(state, "power_sacrifice")
    if not wizard.falling:
        raise IllegalCommand("wd.not_falling", name=name)
    card = find_card(wizard, command.card, name)
    if not card.basic:
        raise IllegalCommand("wd.sacrifice_basic", card=card.name)
    if card.on_table:
        raise IllegalCommand("wd.sacrifice_played", card=card.name)
    return [PowerSacrificed(seat=command.seat, card=card.number)]


@RULES.applies(PowerSacrificed)
def _apply_sacrificed(state: GameState, event: PowerSacrificed) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    return update_wizard(
        state,
        event.seat,
        cards=tuple(c for c in wizard.cards if c.number != event.card),
        magic=SACRIFICE_POINTS,
        falling=False,
        sacrifice_used=True,
        sacrificed_round=duel.round,
        shield=(),
        aside=wizard.aside + len(wizard.shield),
    )


@RULES.describes(PowerSacrificed)
def _describe_sacrificed(state: GameState, event: PowerSacrificed) -> Message:
    card = duel_of(state).wizard(event.seat).card(event.card)
    return Message("wd.sacrificed", name=state.player(event.seat).name, card=card.name)


@RULES.decides(DropOut)
def _dropout(state: GameState, command: DropOut, rng: Random) -> list[Event]:
    wizard = playing_wizard(state, command.seat)
    if not wizard.falling:
        raise IllegalCommand("wd.not_falling", name=state.player(command.seat).name)
    return [PlayerLost(seat=command.seat, reason=LossReason.EFFECT, source=wizard.hurt_by)]
