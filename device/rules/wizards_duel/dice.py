"""WD-2 phase 1, gathering mana: rolling the element dice, setting dice aside into the mana pool
and drawing from the reserve, and WD-4's antimagic shield."""

from __future__ import annotations

from random import Random

from device.errors import IllegalCommand
from device.events import Event
from device.rules.registry import Rules
from device.rules.wizards_duel.commands import GatherMana, RollElementDice, SetShieldDie
from device.rules.wizards_duel.events import ElementDiceRolled, ManaGathered, ShieldDieSet
from device.rules.wizards_duel.magic import Batch
from device.rules.wizards_duel.queries import (
    HAND,
    duel_of,
    faces_text,
    in_phase,
    need_option,
    players_in,
    playing_wizard,
    seat_names,
    sorted_faces,
    take,
    waiting_to_choose,
)
from device.rules.wizards_duel.state import Face, Wizard
from device.state import GameState
from device.text import Message

RULES = Rules("wizards_duel.dice")


@RULES.decides(RollElementDice)
def roll(state: GameState, command: RollElementDice, rng: Random) -> list[Event]:
    duel = in_phase(state, 1, "roll")
    if command.seat is None:
        if command.faces is not None:
            raise IllegalCommand(
                "wd.roll_count",
                name="?",
                hand=HAND,
                count=Message("wd.faces", n=len(command.faces)),
            )
        seats = [w.seat for w in players_in(state) if w.rolled is None and not w.chosen]
        if not seats:
            raise IllegalCommand(
                "wd.nothing_to_roll", names=seat_names(state, waiting_to_choose(state))
            )
    else:
        wizard = playing_wizard(state, command.seat)
        name = state.player(command.seat).name
        if wizard.rolled is not None:
            raise IllegalCommand("wd.rolled_already", name=name, faces=faces_text(wizard.rolled))
        if wizard.chosen:
            raise IllegalCommand("wd.chosen_already", name=name)
        if command.faces is not None and len(command.faces) != wizard.hand:
            raise IllegalCommand(
                "wd.roll_count",
                name=name,
                hand=wizard.hand,
                count=Message("wd.faces", n=len(command.faces)),
            )
        seats = [command.seat]
    events: list[Event] = []
    faces = list(Face)
    for seat in seats:
        hand = duel.wizard(seat).hand
        if command.faces is not None:
            rolled, physical = command.faces, True
        else:
            rolled, physical = tuple(faces[rng.randrange(len(faces))] for _ in range(hand)), False
        events.append(
            ElementDiceRolled(seat=seat, faces=rolled, physical=physical, last=duel.last_roll)
        )
    return events


@RULES.applies(ElementDiceRolled)
def _apply_rolled(state: GameState, event: ElementDiceRolled) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    if event.last:
        wizard = wizard.model_copy(
            update={"pool": wizard.pool + event.faces, "hand": 0, "chosen": True}
        )
    else:
        wizard = wizard.model_copy(update={"rolled": event.faces})
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(ElementDiceRolled)
def _describe_rolled(state: GameState, event: ElementDiceRolled) -> Message:
    key = "wd.rolled_last" if event.last else "wd.rolled"
    return Message(key, name=state.player(event.seat).name, faces=faces_text(event.faces))


def _rolled(state: GameState, seat: int, action: str) -> tuple[Wizard, tuple[Face, ...]]:
    duel = in_phase(state, 1, action)
    wizard = playing_wizard(state, seat)
    name = state.player(seat).name
    if wizard.chosen:
        raise IllegalCommand("wd.chosen_already", name=name)
    if duel.last_roll or wizard.rolled is None:
        raise IllegalCommand("wd.not_rolled", name=name)
    return wizard, wizard.rolled


@RULES.decides(GatherMana)
def _gather(state: GameState, command: GatherMana, rng: Random) -> list[Event]:
    wizard, rolled = _rolled(state, command.seat, "gather")
    name = state.player(command.seat).name
    if take(rolled, command.aside) is None:
        raise IllegalCommand(
            "wd.not_in_roll", name=name, faces=faces_text(command.aside), rolled=faces_text(rolled)
        )
    # Taking every die back draws nothing, even with a hand smaller than 5 after a shield.
    need = HAND - (len(rolled) - len(command.aside)) if command.aside else 0
    drawn = min(need, wizard.reserve)
    events: list[Event] = [
        ManaGathered(seat=command.seat, aside=command.aside, drawn=drawn, missing=need - drawn)
    ]
    if need > drawn:
        batch = Batch(state)
        batch.add(*events)
        batch.hurt(command.seat, need - drawn, "refill", None)
        return batch.events
    return events


@RULES.applies(ManaGathered)
def _apply_gathered(state: GameState, event: ManaGathered) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    wizard = wizard.model_copy(
        update={
            "pool": wizard.pool + event.aside,
            "hand": wizard.hand - len(event.aside) + event.drawn,
            "reserve": wizard.reserve - event.drawn,
            "rolled": None,
            "chosen": True,
        }
    )
    duel = duel.with_wizard(wizard)
    if event.missing:
        duel = duel.model_copy(update={"last_turn": True})
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(ManaGathered)
def _describe_gathered(state: GameState, event: ManaGathered) -> Message:
    name = state.player(event.seat).name
    if not event.aside:
        return Message("wd.took_back", name=name, count=duel_of(state).wizard(event.seat).hand)
    if event.missing:
        return Message(
            "wd.gathered_short",
            name=name,
            faces=faces_text(event.aside),
            drawn=event.drawn,
            missing=event.missing,
        )
    return Message("wd.gathered", name=name, faces=faces_text(event.aside), drawn=event.drawn)


@RULES.decides(SetShieldDie)
def _shield(state: GameState, command: SetShieldDie, rng: Random) -> list[Event]:
    wizard, rolled = _rolled(state, command.seat, "shield")
    need_option(state, "antimagic_shield")
    name = state.player(command.seat).name
    if command.face not in rolled:
        raise IllegalCommand(
            "wd.not_in_roll",
            name=name,
            faces=faces_text((command.face,)),
            rolled=faces_text(rolled),
        )
    if command.face is Face.AIR:
        raise IllegalCommand("wd.shield_air")
    if len(set(wizard.shield) | {command.face}) > 2:
        raise IllegalCommand(
            "wd.shield_symbols", name=name, shield=faces_text(sorted_faces(set(wizard.shield)))
        )
    return [ShieldDieSet(seat=command.seat, face=command.face)]


@RULES.applies(ShieldDieSet)
def _apply_shield(state: GameState, event: ShieldDieSet) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    wizard = wizard.model_copy(
        update={
            "hand": wizard.hand - 1,
            "shield": wizard.shield + (event.face,),
            "rolled": None,
            "chosen": True,
        }
    )
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(ShieldDieSet)
def _describe_shield(state: GameState, event: ShieldDieSet) -> Message:
    shield = duel_of(state).wizard(event.seat).shield + (event.face,)
    return Message(
        "wd.shield_set",
        name=state.player(event.seat).name,
        face=Message(f"wd.face.{event.face.value}"),
        shield=faces_text(sorted_faces(shield)),
    )
