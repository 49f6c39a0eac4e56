"""Planechase's events, and what both the planar deck (``device.rules.planechase``) and the
Eternities Map (``device.rules.planechase.eternities``) need to decide and describe them."""

from collections.abc import Sequence
from typing import Literal

from device.errors import IllegalCommand
from device.events import Event
from device.rules.plane_abilities import DAMAGE_ON_LEAVING, PLANESWALK_AT
from device.state import GameState
from device.rules.planechase.state import (
    Awaiting,
    CardRef,
    ChoiceKind,
    DieFace,
    FaceUpCard,
    MapCell,
    OwnRoll,
    PendingChoice,
    PlanarDeck,
    PlanechaseState,
)
from device.text import Message

# --- events -----------------------------------------------------------------------------------


class PlanarDecksDealt(Event):
    """The planar decks, shuffled (the order is the random outcome), and the table's options."""

    type: Literal["planar_decks_dealt"] = "planar_decks_dealt"
    plain_d6: bool = False
    communal: bool = False
    two_headed_giant: bool = False
    grand_melee: bool = False
    eternities_map: bool = False
    source: str = "all"
    decks: tuple[PlanarDeck, ...]
    markers: tuple[int, ...] = ()


class PlanarCardSkipped(Event):
    """A phenomenon turned over while a plane was needed goes to the bottom (901.5)."""

    type: Literal["planar_card_skipped"] = "planar_card_skipped"
    deck: int | None
    card: CardRef
    starting: bool = True


class PlaneTurnedOver(Event):
    """A card turned face up without planeswalking away from anything: the starting plane
    (901.5), a physical card tapped, or the top card after an owner left (901.10)."""

    type: Literal["plane_turned_over"] = "plane_turned_over"
    seat: int
    deck: int | None
    card: CardRef
    marker: int = 0
    starting: bool = False


class PlanarDieRolled(Event):
    type: Literal["planar_die_rolled"] = "planar_die_rolled"
    seat: int
    pip: int
    face: DieFace
    result: DieFace
    cost: int
    special: bool
    chaos: tuple[str, ...] = ()  # the planes whose chaos ability triggered


class Planeswalked(Event):
    """701.22b: every face-up card (of this marker) to the bottom of its owner's deck, then the
    top card(s) of the planeswalker's deck face up.  ``bottom`` are revealed cards put on the
    bottom after (Spatial Merging).  With a physical deck ``to`` is empty and ``wait`` says how
    many planes the gadget waits for."""

    type: Literal["planeswalked"] = "planeswalked"
    seat: int
    deck: int | None
    marker: int = 0
    away: tuple[str, ...]
    to: tuple[CardRef, ...] = ()
    bottom: tuple[CardRef, ...] = ()
    wait: int = 0
    cause: str = "die"


class ChaosBlanksBegan(Event):
    type: Literal["chaos_blanks_began"] = "chaos_blanks_began"


class PlanarCardsRevealed(Event):
    """Cards revealed off the top of a deck for a choice (Interplanar Tunnel, Stairs to Infinity,
    Pools of Becoming)."""

    type: Literal["planar_cards_revealed"] = "planar_cards_revealed"
    seat: int
    deck: int | None
    kind: ChoiceKind
    cards: tuple[CardRef, ...]
    source: str


class PlanarChoiceMade(Event):
    type: Literal["planar_choice_made"] = "planar_choice_made"
    seat: int
    top: tuple[CardRef, ...] = ()
    bottom: tuple[CardRef, ...] = ()  # in the order they go under


class PlanarChoiceOffered(Event):
    type: Literal["planar_choice_offered"] = "planar_choice_offered"
    choice: PendingChoice


class PlaneCountersChanged(Event):
    type: Literal["plane_counters_changed"] = "plane_counters_changed"
    name: str
    delta: int
    ability: str = (
        ""  # the plane's own ability that put it there (``plane_abilities``); "": a player
    )


class PlanarControllerChanged(Event):
    type: Literal["planar_controller_changed"] = "planar_controller_changed"
    seat: int | None  # None: the active player again
    # Grand Melee: the marker whose planes ``seat`` controls until the turn ends, its holder having
    # left (901.6, 807.4c); None: the one planar controller of the game.
    marker: int | None = None


class PlanarCardsLeft(Event):
    """901.10: a player left; every planar card they own leaves with them."""

    type: Literal["planar_cards_left"] = "planar_cards_left"
    seat: int
    face_up: tuple[str, ...] = ()


class TurnMarkerPassed(Event):
    type: Literal["turn_marker_passed"] = "turn_marker_passed"
    marker: int
    seat: int


class TurnMarkerRemoved(Event):
    type: Literal["turn_marker_removed"] = "turn_marker_removed"
    marker: int
    seat: int


class PlanarTurnBegan(Event):
    """A new turn: roll costs start again, the active player is the planar controller again,
    Grand Melee markers move."""

    type: Literal["planar_turn_began"] = "planar_turn_began"
    markers: tuple[int, ...] = ()


class PlanarDieAwaited(Event):
    """A table that rolls its own die is rolling it: the gadget waits for the face (PC-1)."""

    type: Literal["planar_die_awaited"] = "planar_die_awaited"
    roll: OwnRoll


class PlanarCardAwaited(Event):
    type: Literal["planar_card_awaited"] = "planar_card_awaited"
    awaiting: Awaiting


class PlanarCardReturned(Event):
    """A physical card tapped by mistake goes back into its deck; the gadget waits again."""

    type: Literal["planar_card_returned"] = "planar_card_returned"
    name: str
    awaiting: Awaiting


class MapMoved(Event):
    """Eternities Map: the table moved to (x, y); far planes were shuffled into the deck and new
    ones dealt around.  The deck's new order (a shuffle) is inside the event."""

    type: Literal["map_moved"] = "map_moved"
    seat: int
    x: int
    y: int
    hellride: bool
    arrived: CardRef
    cells: tuple[MapCell, ...]
    deck: tuple[CardRef, ...]
    collected: tuple[str, ...] = ()
    dealt: tuple[str, ...] = ()


# --- what the deck and the map share ---------------------------------------------------------


def planechase(state: GameState) -> PlanechaseState:
    if state.planechase is None:
        raise IllegalCommand("planechase.not_in_game")
    return state.planechase


def joined(items: Sequence[str | Message], key: str = "planechase.list") -> str | Message:
    """Names or phrases joined by the words of ``key`` (a list, "and", "or") in the reader's
    language; a single item stays itself."""
    if not items:
        return Message("planechase.nothing")
    if len(items) == 1:
        return items[0]
    return Message(key, first=items[0], rest=joined(items[1:], key))


def with_leaving_notes(
    message: Message, away: Sequence[FaceUpCard], threshold: bool = False
) -> Message:
    """``message`` and what the planes left do as they go (PC-11): Mount Keralia's damage, with
    the amount, and the count that made Aretopolis planeswalk."""
    notes: list[str | Message] = []
    for card in away:
        limit = PLANESWALK_AT.get(card.name)
        if threshold and limit is not None and card.counters >= limit:
            notes.append(Message("planechase.extra_threshold", plane=card.name, n=card.counters))
        if card.name in DAMAGE_ON_LEAVING and card.counters:
            notes.append(Message("planechase.extra_leaving", plane=card.name, n=card.counters))
    return (
        Message("planechase.then", first=message, rest=joined(notes, "planechase.then"))
        if notes
        else message
    )
