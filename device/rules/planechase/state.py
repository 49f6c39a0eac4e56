"""Planechase's part of the game state (SPEC section 1, PC-1..PC-14).

Everything the screen shows about Planechase is here, as plain data:

- ``face_up``: the face-up planes (and a phenomenon being encountered), each with its owner,
  its counters and, in Grand Melee, the turn marker whose holder controls it;
- ``encounter``: the name of the phenomenon that has been turned over and waits to be
  acknowledged (PC-7), else ``None``;
- ``choice``: a pending choice (Interplanar Tunnel, Stairs to Infinity, Pools of Becoming, an
  Eternities Map direction) with the revealed cards, else ``None``;
- ``own_roll``: a table that rolls its own die is rolling it; the gadget waits for the face;
- ``awaiting``: with physical planar decks, who must turn over a card (and how many planes are
  wanted), else ``None``;
- ``rolls``: every roll of the game with its face, what it counted as, its cost and whether it
  was the special action; ``next_cost[seat]`` is the mana the seat's next special-action roll
  costs this turn;
- ``chaos_blanks``: blanks count as chaos (Chaotic Aether) until someone planeswalks away from
  a plane;
- ``visited``: the planes and phenomena turned face up, in order;
- ``decks``: every planar deck, top first.  A listed physical deck holds what is in it: the cards
  not yet turned over, then those put on the bottom in the order they went there.

The pure helpers a screen needs (``next_roll_cost``, ``odds``, ``chaos_planes``, …) live in
``device.rules.planechase.queries``; they take the whole ``GameState``.
"""

import enum

from device.models import Model


class DieFace(enum.StrEnum):
    PLANESWALK = "planeswalk"
    CHAOS = "chaos"
    BLANK = "blank"


class PlanarKind(enum.StrEnum):
    PLANE = "plane"
    PHENOMENON = "phenomenon"


class CardRef(Model):
    """A planar card named in an event, with its kind (so folding never needs the catalog)."""

    name: str
    kind: PlanarKind


class PlanarDeck(Model):
    owner: int | None  # a seat; None for the single communal deck (901.15)
    # Top first.  A listed physical deck holds the cards that are in it: those never turned over in
    # the order they were listed (the players shuffled them), then what went to the bottom, in order.
    # An unlisted one holds only what the gadget saw go to its bottom, in order (under cards it
    # never saw, which come up first).
    cards: tuple[CardRef, ...] = ()
    physical: bool = False
    listed: bool = (
        True  # a physical deck whose cards the gadget was told; False: any card it never saw goes
    )
    # A listed physical deck: how many cards on top are in an order nobody has seen.  An unlisted
    # one: at least how many cards lie above ``cards`` (901.3: a deck has ten cards or more).
    unseen: int = 0

    @property
    def next_card(self) -> CardRef | None:
        """The card that comes up next when the gadget knows it: a virtual deck's top, or a
        physical deck's once every card in it has been turned over (PC-6: in the order they went
        to the bottom)."""
        if not self.tracked or not self.cards or self.unseen > 0:
            return None
        return self.cards[0]

    @property
    def tracked(self) -> bool:
        """The gadget knows which cards are in this deck (virtual, or physical and listed)."""
        return not self.physical or self.listed


class FaceUpCard(Model):
    name: str
    kind: PlanarKind
    owner: int | None  # None: the communal deck's (its owner is the planar controller, 901.15b)
    marker: int = 0  # Grand Melee: index into ``markers`` of the turn marker that controls it
    counters: int = 0  # counters on a face-up plane; they go away with it (PC-11)


class Roll(Model):
    turn: int
    seat: int
    pip: int  # the side that landed, 1–6 (on a planar die 1 = chaos, 6 = planeswalker)
    face: DieFace  # what that side shows
    result: DieFace  # what it counted as (a blank is chaos under Chaotic Aether)
    cost: int  # mana paid: 0 for the first special action and for every effect roll
    special: bool  # the special action (901.9) rather than a roll an effect caused


class Visit(Model):
    turn: int
    seat: int  # who turned it over
    name: str
    kind: PlanarKind


class ChoiceKind(enum.StrEnum):
    TUNNEL = "interplanar_tunnel"  # choose the plane to put on top; the rest go to the bottom
    STAIRS = "stairs_to_infinity"  # keep the revealed card on top or put it on the bottom
    POOLS = "pools_of_becoming"  # order the three revealed cards on the bottom
    DIRECTION = "direction"  # Eternities Map: where to planeswalk


class PendingChoice(Model):
    kind: ChoiceKind
    seat: int  # who chooses
    deck: int | None  # whose planar deck the cards came from (None: communal)
    cards: tuple[CardRef, ...] = ()  # revealed cards, off the deck while the choice waits
    source: str = ""  # the plane or phenomenon that asks


class Awaiting(Model):
    """Physical decks: the gadget waits for someone to turn over a card and tap or name it."""

    seat: int
    deck: int | None
    planes: int = 1  # how many plane cards are still wanted (Spatial Merging wants two)
    merging: bool = False  # Spatial Merging: revealed phenomena go to the bottom, not encountered
    starting: bool = False  # the starting-plane procedure: phenomena go to the bottom (901.5)
    marker: int = 0


class OwnRoll(Model):
    """The table rolls its own die (PC-1): who rolls, and whether an effect caused the roll."""

    seat: int
    free: bool = False  # an effect's roll: no cost, and the next special action costs no more


class MapCell(Model):
    x: int
    y: int
    name: str
    kind: PlanarKind
    counters: int = 0


class EternitiesMap(Model):
    """The Eternities Map (PC-14): the face-up planes around the current one on a grid."""

    x: int = 0  # where the table is now
    y: int = 0
    cells: tuple[MapCell, ...] = ()  # every card on the map except the current plane


class PlanechaseState(Model):
    plain_d6: bool = False  # a plain d6 stands in: 1 = chaos, 6 = planeswalk (PC-1)
    communal: bool = False  # one communal planar deck (901.15)
    two_headed_giant: bool = False  # teams of two adjacent seats (901.12)
    grand_melee: bool = False  # one face-up plane per turn marker (901.14)
    eternities_map: bool = False
    source: str = "all"  # where virtual decks come from: all, a set code, or physical
    decks: tuple[PlanarDeck, ...] = ()
    face_up: tuple[FaceUpCard, ...] = ()
    markers: tuple[int, ...] = ()  # seats holding turn markers; () unless Grand Melee
    controller: int | None = (
        None  # set when a planar controller left (901.6); else the active player
    )
    # Grand Melee, per marker: who stands in as planar controller of its planes after its holder
    # left during their turn (901.6); the marker itself moves on when the turn ends (807.4c).
    stand_ins: tuple[int | None, ...] = ()
    encounter: str | None = None
    choice: PendingChoice | None = None
    awaiting: Awaiting | None = None
    own_roll: OwnRoll | None = (
        None  # the table is rolling its own die: the face it shows is awaited
    )
    chaos_blanks: bool = False
    next_cost: tuple[int, ...] = ()  # per seat: the mana the next special-action roll costs
    rolls: tuple[Roll, ...] = ()
    visited: tuple[Visit, ...] = ()
    map: EternitiesMap | None = None

    def deck(self, owner: int | None) -> PlanarDeck | None:
        for deck in self.decks:
            if deck.owner == owner:
                return deck
        return None
