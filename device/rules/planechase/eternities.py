"""The Eternities Map variant of Planechase (PC-14).

Source: "The Eternities Map", a feature article on magicthegathering.com, July 19, 2010
(http://www.wizards.com/Magic/Magazine/Article.aspx?x=mtg/daily/feature/100, archived at
https://web.archive.org/web/20160521171632/http://magic.wizards.com/en/articles/archive/feature/eternities-map-2010-07-19),
the variant players brought to Planechase 2012 and that today's web apps offer.  Its rules:

1. One communal deck of planes; the starting plane sits in the middle of a square grid and the
   four planes next to it (north, east, south, west) are dealt face up.
2. When a player rolls the planeswalker symbol, instead of turning over a random plane the table
   moves one step in one of the four cardinal directions; the active player chooses the
   direction after the roll.
3. Whenever the table moves to a new plane, first every plane more than three steps away
   (counting steps along the grid) is collected and shuffled into the deck; the rest stay; then
   planes are dealt into the blanks next to the new plane.
4. Instead of a cardinal step a player may "hellride" diagonally, if and only if that spot is
   still unknown (no card there); the top card of the deck is dealt there and the table moves
   onto it.
5. Counters stay on planes until the planes leave the map.

The article predates phenomena.  The gadget deals only planes onto the map (a phenomenon
dealt there goes to the bottom of the deck and the next card is dealt), so a phenomenon is met
only by hellriding onto an unknown spot, where the top card of the deck is turned over whatever
it is: that is hellriding's phenomenon risk.  After it resolves, the planar controller
planeswalks as usual (the next card is turned over on the same spot).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Literal

from device.errors import IllegalCommand
from device.events import Event
from device.rules.planechase.events import (
    MapMoved,
    PlanarChoiceOffered,
    PlaneCountersChanged,
    joined,
    planechase,
    with_leaving_notes,
)
from device.rules.registry import Rules
from device.state import GameState
from device.rules.planechase.piles import updated, with_deck
from device.rules.planechase.state import (
    CardRef,
    ChoiceKind,
    EternitiesMap,
    FaceUpCard,
    MapCell,
    PendingChoice,
    PlanarKind,
    Visit,
)
from device.text import Message, Text

RULES = Rules("eternities")

REACH = 3  # planes more than three steps away are shuffled back (rule 3)

STEPS: dict[str, tuple[int, int]] = {
    "north": (0, 1),
    "east": (1, 0),
    "south": (0, -1),
    "west": (-1, 0),
    "north-east": (1, 1),
    "south-east": (1, -1),
    "south-west": (-1, -1),
    "north-west": (-1, 1),
}
_ALIASES = {
    "n": "north",
    "e": "east",
    "s": "south",
    "w": "west",
    "ne": "north-east",
    "se": "south-east",
    "sw": "south-west",
    "nw": "north-west",
    "northeast": "north-east",
    "southeast": "south-east",
    "southwest": "south-west",
    "northwest": "north-west",
}

TEXTS: dict[str, Text] = {
    "eternities.unknown_direction": "{text!r} is not a direction: {choices}.",
    "eternities.no_plane_there": "There is no plane to the {direction}: choose {choices}.",
    "eternities.hellride_known": "Hellriding goes only to unknown spots, and {name} is face up "
    "to the {direction}: choose {choices}.",
    "eternities.moved": "{name} planeswalks {direction} to {to}.{extra}",
    "eternities.hellrode": "{name} hellrides {direction} to {to}.{extra}",
    "eternities.collected": " Shuffled back into the deck: {cards}.",
    # the directions as the screen words them (the console takes the English words)
    "eternities.dir.north": "north",
    "eternities.dir.east": "east",
    "eternities.dir.south": "south",
    "eternities.dir.west": "west",
    "eternities.dir.north-east": "north-east",
    "eternities.dir.south-east": "south-east",
    "eternities.dir.south-west": "south-west",
    "eternities.dir.north-west": "north-west",
    "eternities.dealt": " Dealt: {cards}.",
    "eternities.phenomenon": " A phenomenon! Resolve it, then press NEXT.",
    "eternities.map_dealt": "The Eternities Map: {cards} around {plane}.",
}


class MapDealt(Event):
    """The start of an Eternities Map game: the four planes next to the starting plane."""

    type: Literal["map_dealt"] = "map_dealt"
    cells: tuple[MapCell, ...]
    deck: tuple[CardRef, ...]


def parse_direction(text: str) -> str | None:
    word = text.strip().casefold().replace(" ", "-").replace("_", "-")
    word = _ALIASES.get(word, word)
    return word if word in STEPS else None


def _cell(cells: Sequence[MapCell], x: int, y: int) -> MapCell | None:
    return next((c for c in cells if c.x == x and c.y == y), None)


def direction_word(direction: str) -> Message:
    """A direction of ``STEPS`` as a word the reader's language has."""
    return Message(f"eternities.dir.{direction}")


def directions(state: GameState) -> list[str]:
    """The legal moves now: cardinal steps onto planes, diagonal hellrides onto unknown spots."""
    pc = planechase(state)
    if pc.map is None:
        return []
    legal = []
    for name, (dx, dy) in STEPS.items():
        there = _cell(pc.map.cells, pc.map.x + dx, pc.map.y + dy)
        diagonal = bool(dx and dy)
        if (there is None) if diagonal else (there is not None):
            legal.append(name)
    return legal


def _deal(
    deck: list[CardRef], spots: Sequence[tuple[int, int]]
) -> tuple[list[MapCell], list[CardRef]]:
    """Deal planes into ``spots``; a phenomenon goes to the bottom and the next card is dealt."""
    cells: list[MapCell] = []
    for x, y in spots:
        for _ in range(len(deck)):
            card = deck.pop(0)
            if card.kind is PlanarKind.PLANE:
                cells.append(MapCell(x=x, y=y, name=card.name, kind=card.kind))
                break
            deck.append(card)
    return cells, deck


def _around(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in STEPS.values() if not (dx and dy)]


def deal_start(state: GameState) -> list[Event]:
    pc = planechase(state)
    deck = pc.deck(None)
    if pc.map is None or deck is None:
        return []
    cells, rest = _deal(list(deck.cards), _around(0, 0))
    return [MapDealt(cells=tuple(cells), deck=tuple(rest))]


def offer_direction(state: GameState, seat: int) -> PlanarChoiceOffered:
    """Rule 2: the planeswalk waits for the player to choose a direction."""
    return PlanarChoiceOffered(
        choice=PendingChoice(kind=ChoiceKind.DIRECTION, seat=seat, deck=None)
    )


def move(state: GameState, seat: int, text: str, rng: Random) -> list[Event]:
    """Rules 2–4: step or hellride, collect far planes into the deck, deal around."""
    pc = planechase(state)
    board = pc.map
    deck_state = pc.deck(None)
    if board is None or deck_state is None:
        raise IllegalCommand("planechase.direction_no_map")
    legal = directions(state)
    choices = joined([direction_word(d) for d in legal])
    direction = parse_direction(text)
    if direction is None:
        raise IllegalCommand("eternities.unknown_direction", text=text, choices=choices)
    word = direction_word(direction)
    dx, dy = STEPS[direction]
    x, y = board.x + dx, board.y + dy
    there = _cell(board.cells, x, y)
    hellride = bool(dx and dy)
    if hellride and there is not None:
        raise IllegalCommand(
            "eternities.hellride_known", name=there.name, direction=word, choices=choices
        )
    if not hellride and there is None:
        raise IllegalCommand("eternities.no_plane_there", direction=word, choices=choices)
    deck = list(deck_state.cards)
    cells = [c for c in board.cells if c is not there]
    current = list(pc.face_up)
    if current:  # the plane left behind stays on the map with its counters (rule 5)
        first = current[0]
        cells.append(
            MapCell(x=board.x, y=board.y, name=first.name, kind=first.kind, counters=first.counters)
        )
        deck += [CardRef(name=c.name, kind=c.kind) for c in current[1:]]
    if hellride:
        if not deck:
            raise IllegalCommand("eternities.no_plane_there", direction=word, choices=choices)
        arrived = deck.pop(0)
        counters = 0
    else:
        assert there is not None
        arrived = CardRef(name=there.name, kind=there.kind)
        counters = there.counters
    far = [c for c in cells if abs(c.x - x) + abs(c.y - y) > REACH]
    cells = [c for c in cells if c not in far]
    deck += [CardRef(name=c.name, kind=c.kind) for c in far]
    if far:
        rng.shuffle(deck)
    empty = [spot for spot in _around(x, y) if _cell(cells, *spot) is None]
    dealt, deck = _deal(deck, empty)
    moved = MapMoved(
        seat=seat,
        x=x,
        y=y,
        hellride=hellride,
        arrived=arrived,
        cells=tuple(cells + dealt),
        deck=tuple(deck),
        collected=tuple(c.name for c in far),
        dealt=tuple(c.name for c in dealt),
    )
    events: list[Event] = [moved]
    if counters:
        events.append(PlaneCountersChanged(name=arrived.name, delta=counters))
    return events


@RULES.applies(MapMoved)
def _apply_map_moved(state: GameState, event: MapMoved) -> GameState:
    pc = planechase(state)
    visit = Visit(
        turn=state.turn, seat=event.seat, name=event.arrived.name, kind=event.arrived.kind
    )
    away_planes = any(c.kind is PlanarKind.PLANE for c in pc.face_up)
    encounter = event.arrived.name if event.arrived.kind is PlanarKind.PHENOMENON else None
    return updated(
        state,
        face_up=(FaceUpCard(name=event.arrived.name, kind=event.arrived.kind, owner=None),),
        map=EternitiesMap(x=event.x, y=event.y, cells=event.cells),
        decks=with_deck(pc, None, event.deck),
        visited=(*pc.visited, visit),
        choice=None,
        encounter=encounter,
        chaos_blanks=pc.chaos_blanks and not away_planes,
    )


@RULES.describes(MapMoved)
def describe_move(state: GameState, event: MapMoved) -> Message:
    board = planechase(state).map
    ox, oy = (board.x, board.y) if board is not None else (0, 0)
    dx, dy = event.x - ox, event.y - oy
    step = next((name for name, step in STEPS.items() if step == (dx, dy)), None)
    direction: str | Message = direction_word(step) if step is not None else ""
    extras: list[str | Message] = []
    if event.collected:
        extras.append(Message("eternities.collected", cards=joined(event.collected)))
    if event.dealt:
        extras.append(Message("eternities.dealt", cards=joined(event.dealt)))
    if event.arrived.kind is PlanarKind.PHENOMENON:
        extras.append(Message("eternities.phenomenon"))
    extra = joined(extras, "planechase.then") if extras else ""
    key = "eternities.hellrode" if event.hellride else "eternities.moved"
    message = Message(
        key,
        name=state.player(event.seat).name,
        direction=direction,
        to=event.arrived.name,
        extra=extra,
    )
    return with_leaving_notes(message, planechase(state).face_up)


@RULES.applies(MapDealt)
def _apply_map_dealt(state: GameState, event: MapDealt) -> GameState:
    pc = planechase(state)
    board = pc.map
    if board is None:
        return state
    decks = tuple(
        d.model_copy(update={"cards": event.deck}) if d.owner is None else d for d in pc.decks
    )
    new = pc.model_copy(
        update={"map": board.model_copy(update={"cells": event.cells}), "decks": decks}
    )
    return state.model_copy(update={"planechase": new})


@RULES.describes(MapDealt)
def _describe_map_dealt(state: GameState, event: MapDealt) -> Message:
    plane = planechase(state).face_up[0].name if planechase(state).face_up else ""
    return Message("eternities.map_dealt", cards=joined([c.name for c in event.cells]), plane=plane)


RULES.says(TEXTS)
