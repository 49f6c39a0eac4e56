"""Planes that count (PC-11): counters on a face-up plane, put there by hand or by its text, the
life they change, and a planeswalk when a plane reaches the count its text names
(``device.rules.plane_abilities``)."""

from __future__ import annotations

from random import Random

from device.errors import IllegalCommand
from device.events import Event, LifeChanged, StepChanged, TurnPassed
from device.rules.plane_abilities import PLANESWALK_AT, Moment, abilities_at
from device.rules.planechase.commands import ChangePlaneCounters
from device.rules.planechase.events import (
    MapMoved,
    PlanarDieRolled,
    PlaneCountersChanged,
    Planeswalked,
    PlaneTurnedOver,
    planechase,
)
from device.rules.planechase.piles import updated
from device.rules.planechase.queries import controller_of, names_of, pick_face_up
from device.rules.planechase.state import DieFace, FaceUpCard, PlanarKind
from device.rules.planechase.walk import planeswalk_or_offer
from device.rules.registry import Rules, find_format
from device.state import GameState, Step
from device.text import Message

RULES = Rules("planechase.planes")


@RULES.decides(ChangePlaneCounters)
def _counters(state: GameState, command: ChangePlaneCounters, rng: Random) -> list[Event]:
    pc = planechase(state)
    planes = [c for c in pc.face_up if c.kind is PlanarKind.PLANE]
    face_up = names_of(c.name for c in pc.face_up)
    if command.name is None:
        if not planes:
            raise IllegalCommand("planechase.no_plane")
        if len(planes) > 1:
            raise IllegalCommand("planechase.which_plane", face_up=face_up)
        card = planes[0]
    else:
        card = pick_face_up(planes, command.name, face_up)
    if command.delta == 0:
        raise IllegalCommand("planechase.counters_zero")
    if card.counters + command.delta < 0:
        raise IllegalCommand(
            "planechase.counters_below",
            name=card.name,
            counters=card.counters,
            remove=-command.delta,
        )
    return [PlaneCountersChanged(name=card.name, delta=command.delta)]


@RULES.applies(PlaneCountersChanged)
def _apply_counters(state: GameState, event: PlaneCountersChanged) -> GameState:
    pc = planechase(state)
    face_up = tuple(
        c.model_copy(update={"counters": c.counters + event.delta}) if c.name == event.name else c
        for c in pc.face_up
    )
    return updated(state, face_up=face_up)


@RULES.describes(PlaneCountersChanged)
def _describe_counters(state: GameState, event: PlaneCountersChanged) -> Message:
    card = next(c for c in planechase(state).face_up if c.name == event.name)
    before, after = card.counters, card.counters + event.delta
    if event.ability:
        name = state.player(controller_of(state, card)).name
        return Message(
            f"planechase.ability.{event.ability}",
            plane=event.name,
            before=before,
            after=after,
            name=name,
        )
    return Message("planechase.counters", name=event.name, before=before, after=after)


@RULES.state_check
def _planes_that_count(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """PC-11: a plane's counters when its text adds them, the life they change, and a planeswalk
    when a plane reaches the count its text names (``plane_abilities``)."""
    pc = state.planechase
    if pc is None:
        return []
    out: list[Event] = []
    tracks_life = find_format(state.formats[0]).tracks_life
    for moment, card in _moments(state, events):
        for ability in abilities_at(card.name, moment):
            out.append(PlaneCountersChanged(name=card.name, delta=1, ability=ability.does))
            seat = controller_of(state, card)
            if ability.life and tracks_life and state.player(seat).in_game:
                count = card.counters + sum(
                    1 for e in out if isinstance(e, PlaneCountersChanged) and e.name == card.name
                )
                out.append(LifeChanged(seat=seat, delta=ability.life * count))
    if out or pc.encounter is not None or pc.choice is not None or pc.awaiting is not None:
        return out
    changed = {e.name for e in events if isinstance(e, PlaneCountersChanged)}
    for card in pc.face_up:
        limit = PLANESWALK_AT.get(card.name)
        if card.name in changed and limit is not None and card.counters >= limit:
            return planeswalk_or_offer(state, controller_of(state, card), "threshold", rng)
    return out


def _moments(state: GameState, events: list[Event]) -> list[tuple[Moment, FaceUpCard]]:
    """The moments in ``events`` at which a face-up plane's text counts, with that plane."""
    pc = planechase(state)
    planes = [c for c in pc.face_up if c.kind is PlanarKind.PLANE]
    # "Your upkeep / main phase / end step": the turn's player controls marker 0's planes.
    turn_planes = [c for c in planes if not pc.grand_melee or c.marker == 0]
    found: list[tuple[Moment, FaceUpCard]] = []
    for event in events:
        arrived: tuple[str, ...] = ()
        if isinstance(event, TurnPassed):
            found += [("end", c) for c in turn_planes] + [("upkeep", c) for c in turn_planes]
        elif isinstance(event, StepChanged) and event.step == Step.MAIN.value:
            found += [("main", c) for c in turn_planes]
        elif isinstance(event, Planeswalked) and event.cause != "owner_left":
            arrived = tuple(c.name for c in event.to)
        elif isinstance(event, PlaneTurnedOver) and not event.starting:
            arrived = (event.card.name,)
        elif isinstance(event, PlaneTurnedOver) and _first_upkeep(state, event):
            # 901.5: the starting plane is face up before the first turn, so its "at the beginning
            # of your upkeep" triggers in turn 1 (turned over on the reader during that upkeep too).
            found += [("upkeep", c) for c in turn_planes if c.name == event.card.name]
        elif isinstance(event, MapMoved):
            arrived = (event.arrived.name,)
        elif isinstance(event, PlanarDieRolled) and event.result is DieFace.CHAOS:
            found += [("chaos", c) for c in planes if c.name in event.chaos]
        found += [("arrive", c) for c in planes if c.name in arrived]
    return found


def _first_upkeep(state: GameState, event: PlaneTurnedOver) -> bool:
    """A starting plane turned face up for the first turn's player while that upkeep lasts."""
    pc = planechase(state)
    return (
        event.starting
        and state.turn == 1
        and state.step is Step.UPKEEP
        and not pc.rolls
        and (not pc.grand_melee or event.marker == 0)
    )
