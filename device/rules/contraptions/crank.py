"""The CRANK! counter and cranking (CT-4, CT-B2, CT-C1): the upkeep machine kept in the
state (``Upkeep.stage``) and the state check that drives it, so the same rule fires whether the
upkeep began with a new game, a NEXT press or an undo followed by a redo; the counter moving on
while the machine runs; and the contraptions a player cranks on its sprocket."""

from __future__ import annotations

from random import Random

from device.errors import IllegalCommand
from device.events import Event, TurnPassed
from device.rules.contraptions.assembly import lapse, reveal_if_one_way
from device.rules.contraptions.changes import changed, upkeep_changed
from device.rules.contraptions.commands import CrankContraptions
from device.rules.contraptions.events import (
    ContraptionsCranked,
    ContraptionUpkeepBegan,
    CrankCounterMoved,
    CrankCounterStayed,
)
from device.rules.contraptions.queries import (
    board_of,
    contraptions,
    counter_index,
    crank_offer,
    current_upkeep,
    machine_runs,
    name_of,
    on_sprocket,
)
from device.rules.contraptions.state import Stage, Upkeep, Variant
from device.rules.registry import Rules, apply_events
from device.state import GameState
from device.text import Message, listing

RULES = Rules("contraptions.crank")


def begin_upkeep(state: GameState, seat: int, turn: int) -> list[Event]:
    ct = contraptions(state)
    if ct.variant.upkeep_die:
        return [ContraptionUpkeepBegan(seat=seat, turn=turn)]
    return _move_counter(state, seat, turn)


@RULES.applies(ContraptionUpkeepBegan)
def _apply_began(state: GameState, event: ContraptionUpkeepBegan) -> GameState:
    return changed(state, upkeep=Upkeep(seat=event.seat, turn=event.turn, stage=Stage.ROLL))


@RULES.describes(ContraptionUpkeepBegan)
def _describe_began(state: GameState, event: ContraptionUpkeepBegan) -> Message:
    return Message("ct.upkeep", name=name_of(state, event.seat))


def _move_counter(state: GameState, seat: int, turn: int) -> list[Event]:
    """CT-4 / CT-C1: the counter moves to the next sprocket only while the machine runs."""
    ct = contraptions(state)
    index = counter_index(ct, seat)
    if index is None or not machine_runs(ct, seat):
        return []
    start = ct.counters[index]
    return [
        CrankCounterMoved(
            seat=seat, turn=turn, board=board_of(ct, seat), start=start, end=start % 3 + 1
        )
    ]


@RULES.applies(CrankCounterMoved)
def _apply_moved(state: GameState, event: CrankCounterMoved) -> GameState:
    ct = contraptions(state)
    counters = list(ct.counters)
    counters[0 if event.board is None else event.board] = event.end
    up = (
        ct.upkeep
        if ct.upkeep is not None and (ct.upkeep.seat, ct.upkeep.turn) == (event.seat, event.turn)
        else None
    )
    up = up or Upkeep(seat=event.seat, turn=event.turn, stage=Stage.MOVE)
    stage = Stage.CRANK if on_sprocket(ct, event.board, event.end) else Stage.DONE
    up = up.model_copy(
        update={
            "stage": stage,
            "moved_from": event.start,
            "moved_to": event.end,
            "sprocket": event.end,
        }
    )
    return changed(state, counters=tuple(counters), upkeep=up)


@RULES.describes(CrankCounterMoved)
def _describe_moved(state: GameState, event: CrankCounterMoved) -> Message:
    crank = crank_offer(state, event.seat, event.board, event.end)
    if event.board is None:
        return Message("ct.moved_shared", start=event.start, end=event.end, crank=crank)
    return Message(
        "ct.moved", name=name_of(state, event.seat), start=event.start, end=event.end, crank=crank
    )


@RULES.state_check
def _contraption_upkeep(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    ct = state.contraptions
    if ct is None:
        return []
    for event in events:
        if isinstance(event, TurnPassed):
            lapsed = lapse(state)
            after = apply_events(state, lapsed)
            return lapsed + begin_upkeep(after, event.to, event.turn)
    up = current_upkeep(state)
    if ct.variant is Variant.FACTIONS and up is not None and up.stage is Stage.MOVE:
        moved = _move_counter(state, up.seat, up.turn)
        index = counter_index(ct, up.seat)
        assert index is not None
        return moved or [CrankCounterStayed(seat=up.seat, turn=up.turn, at=ct.counters[index])]
    return reveal_if_one_way(state)


@RULES.applies(CrankCounterStayed)
def _apply_stayed(state: GameState, event: CrankCounterStayed) -> GameState:
    return changed(state, upkeep=upkeep_changed(state, stage=Stage.DONE))


@RULES.describes(CrankCounterStayed)
def _describe_stayed(state: GameState, event: CrankCounterStayed) -> Message:
    return Message("ct.stayed", name=name_of(state, event.seat), at=event.at)


@RULES.decides(CrankContraptions)
def _crank(state: GameState, command: CrankContraptions, rng: Random) -> list[Event]:
    ct = contraptions(state)
    up = current_upkeep(state)
    if up is None or up.stage is not Stage.CRANK or up.sprocket is None:
        raise IllegalCommand("ct.no_crank_now")
    board = board_of(ct, up.seat)
    there = [a.card for a in on_sprocket(ct, board, up.sprocket)]
    for card in command.cards:
        if card not in there:
            raise IllegalCommand(
                "ct.not_on_sprocket",
                card=card,
                name=state.player(up.seat).name,
                sprocket=up.sprocket,
                there=listing(there, "text.list") or Message("ct.nothing_there"),
            )
        if command.cards.count(card) > 1:
            raise IllegalCommand("ct.crank_twice", card=card)
    return [ContraptionsCranked(seat=up.seat, sprocket=up.sprocket, cards=command.cards)]


@RULES.applies(ContraptionsCranked)
def _apply_cranked(state: GameState, event: ContraptionsCranked) -> GameState:
    return changed(state, upkeep=upkeep_changed(state, stage=Stage.DONE, cranked=event.cards))


@RULES.describes(ContraptionsCranked)
def _describe_cranked(state: GameState, event: ContraptionsCranked) -> Message:
    name = name_of(state, event.seat)
    if not event.cards:
        return Message("ct.cranked_none", name=name, sprocket=event.sprocket)
    return Message("ct.cranked", name=name, cards=", ".join(event.cards), sprocket=event.sprocket)
