"""The contraption die: the upkeep's roll in variant A (the faction dice name the libraries,
CT-A2, CT-A3) and B (the die names the sprocket or how many to assemble, CT-B2), and the paid
assembly roll of variant C (CT-C2)."""

from __future__ import annotations

from collections.abc import Iterable
from random import Random

from device.errors import IllegalCommand
from device.events import Event
from device.rules.contraptions.changes import changed, upkeep_changed
from device.rules.contraptions.commands import RollContraptionDie
from device.rules.contraptions.events import ContraptionDieRolled
from device.rules.contraptions.queries import (
    board_of,
    busy,
    contraptions,
    crank_offer,
    current_upkeep,
    libraries_message,
    name_of,
    need_variant,
    next_roll_cost,
    on_sprocket,
)
from device.rules.contraptions.state import Assembly, Stage, Variant
from device.rules.registry import Rules
from device.state import GameState, Step
from device.text import Message, listing

RULES = Rules("contraptions.die")


def _allowed_libraries(faces: Iterable[int]) -> tuple[int, ...]:
    """CT-A2: a face 1–5 names its faction's library, a 6 lets the player pick any."""
    chosen: set[int] = set()
    for face in faces:
        chosen.update(range(5) if face == 6 else (face - 1,))
    return tuple(sorted(chosen))


@RULES.decides(RollContraptionDie)
def _roll(state: GameState, command: RollContraptionDie, rng: Random) -> list[Event]:
    ct = contraptions(state)
    seat = state.active
    name = state.player(seat).name
    if ct.variant is Variant.BASE:
        need_variant(ct, Variant.FACTIONS, Variant.RANDOM, Variant.PLANAR)
    if ct.variant is Variant.PLANAR:
        if state.step is not Step.MAIN:
            raise IllegalCommand("ct.roll_main_only", name=name)
        if ct.assembly is not None:
            raise busy(state, ct.assembly)
        cost = next_roll_cost(state)
        face = rng.randint(1, 6)
        looking = () if ct.physical else ct.libraries[0].cards[:face]
        return [
            ContraptionDieRolled(
                seat=seat, turn=state.turn, faces=(face,), cost=cost, looking=looking
            )
        ]
    up = current_upkeep(state)
    if up is None:
        raise IllegalCommand("ct.roll_not_now", why=Message("ct.not_upkeep_roll", name=name))
    if up.stage is not Stage.ROLL:
        shown = listing([str(f) for f in up.faces], "text.list")
        raise IllegalCommand(
            "ct.roll_not_now", why=Message("ct.rolled_already", name=name, faces=shown)
        )
    count = ct.dice if ct.variant is Variant.FACTIONS else 1
    faces = tuple(rng.randint(1, 6) for _ in range(count))
    return [ContraptionDieRolled(seat=seat, turn=state.turn, faces=faces)]


@RULES.applies(ContraptionDieRolled)
def _apply_rolled(state: GameState, event: ContraptionDieRolled) -> GameState:
    ct = contraptions(state)
    board = board_of(ct, event.seat)
    if ct.variant is Variant.PLANAR:
        rolls = ct.rolls + 1 if ct.rolls_turn == event.turn else 1
        deck = ct.libraries[0]
        job = Assembly(seat=event.seat, board=board, libraries=(0,), looking=event.looking)
        empty = not deck.cards
        return changed(state, rolls=rolls, rolls_turn=event.turn, assembly=None if empty else job)
    if ct.variant is Variant.FACTIONS:
        job = Assembly(
            seat=event.seat,
            board=board,
            libraries=_allowed_libraries(event.faces),
            mandatory=len(event.faces) > 1,
            upkeep=True,
        )
        return changed(
            state,
            assembly=job,
            upkeep=upkeep_changed(state, faces=event.faces, stage=Stage.ASSEMBLE),
        )
    face = event.faces[0]
    if face <= 3:
        stage = Stage.CRANK if on_sprocket(ct, None, face) else Stage.DONE
        return changed(
            state, upkeep=upkeep_changed(state, faces=event.faces, stage=stage, sprocket=face)
        )
    job = Assembly(seat=event.seat, board=None, libraries=(0,), remaining=face - 3, upkeep=True)
    return changed(
        state, assembly=job, upkeep=upkeep_changed(state, faces=event.faces, stage=Stage.ASSEMBLE)
    )


@RULES.describes(ContraptionDieRolled)
def _describe_rolled(state: GameState, event: ContraptionDieRolled) -> Message:
    ct = contraptions(state)
    name = name_of(state, event.seat)
    after = _apply_rolled(state, event)
    face = event.faces[0]
    if ct.variant is Variant.PLANAR:
        number = contraptions(after).rolls
        if ct.physical:
            then = (
                Message("ct.look_physical", face=face)
                if ct.libraries[0].cards
                else Message("ct.look_empty")
            )
        elif event.looking:
            then = Message(
                "ct.look", count=len(event.looking), cards=listing(event.looking, "text.list")
            )
        else:
            then = Message("ct.look_empty")
        return Message(
            "ct.rolled_c", name=name, cost=event.cost, number=number, face=face, then=then
        )
    if ct.variant is Variant.FACTIONS:
        libraries = libraries_message(state, _allowed_libraries(event.faces))
        dice = (
            Message("ct.die_one")
            if len(event.faces) == 1
            else Message("ct.dice_n", count=len(event.faces))
        )
        return Message(
            "ct.rolled_a",
            name=name,
            dice=dice,
            faces=listing([str(f) for f in event.faces], "text.list"),
            then=Message("ct.assemble_from", libraries=libraries),
        )
    if face <= 3:
        offer = crank_offer(state, event.seat, None, face, sentence=True)
        return Message("ct.rolled_b_crank", name=name, face=face, then=offer)
    return Message("ct.rolled_b_assemble", name=name, face=face, count=face - 3)
