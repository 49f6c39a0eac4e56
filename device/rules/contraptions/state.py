"""The Contraptions module's part of the game state (SPEC section 2, CT-…).

Where every contraption card is: in a library (a player's own contraption deck, one of the five
faction libraries, or the shared deck), assembled on a sprocket, in a scrapyard or in exile.
A card is in exactly one of those places.  The CRANK! counters, the active player's upkeep and
the one assembly in progress are here too, so every screen shows the same pending choice and a
power cut loses none of it.
"""

import enum

from device.models import Model

SPROCKETS = (1, 2, 3)
FIRST_COUNTER = 3  # CT-2: the counter starts on sprocket 3, so its first move is 3 → 1
MIN_DECK = 15  # CT-1


class Variant(enum.StrEnum):
    """How contraptions come into play (the ``contraptions`` table option)."""

    BASE = "base"  # Unstable: each player's own deck (CT-1..CT-5)
    FACTIONS = "a"  # five shared faction libraries and an upkeep die (CT-A)
    RANDOM = "b"  # one shared deck, shared sprockets, the die decides everything (CT-B)
    PLANAR = "c"  # one shared deck, shared sprockets, paid assembly rolls (CT-C)

    @property
    def shared_sprockets(self) -> bool:
        return self in (Variant.RANDOM, Variant.PLANAR)

    @property
    def upkeep_die(self) -> bool:
        return self in (Variant.FACTIONS, Variant.RANDOM)


class Stage(enum.StrEnum):
    """Where the active player's contraption upkeep is."""

    ROLL = "roll"  # the upkeep die is due (A, B)
    ASSEMBLE = "assemble"  # the die said assemble; the assembly is not done yet (A, B)
    MOVE = "move"  # the CRANK! counter moves now (A: after the assembly, CT-A4)
    CRANK = "crank"  # the player picks which contraptions on the sprocket to crank
    DONE = "done"


class Library(Model):
    """A pile contraptions are assembled from.

    With virtual cards ``cards`` is in order, top first.  With physical cards the real pile
    decides the order, so ``cards`` only says what is in it; ``open`` marks a player's physical
    deck whose list nobody entered, where any contraption not elsewhere may be in it.
    """

    owner: int | None = None  # base: the player whose deck this is
    faction: int | None = None  # A: 1–5 (CT-A1)
    cards: tuple[str, ...] = ()
    open: bool = False


class Assembled(Model):
    card: str
    owner: int  # who assembled it (base: whose deck it came from)
    board: int | None  # whose sprockets it is on; None for the shared sprockets (B, C)
    sprocket: int


class Gone(Model):
    """A contraption in a scrapyard or in exile."""

    card: str
    owner: int
    is_copy: bool = False  # a copy that entered unassembled: not a card, only a note


class Upkeep(Model):
    """The contraption part of one upkeep: what the die said, where the counter went (CT-7)."""

    seat: int
    turn: int
    stage: Stage
    faces: tuple[int, ...] = ()  # the upkeep die (or dice)
    moved_from: int | None = None  # the CRANK! counter's move this upkeep
    moved_to: int | None = None
    sprocket: int | None = None  # the sprocket that cranks this turn
    cranked: tuple[str, ...] = ()  # in the order the player put their triggers on the stack


class Assembly(Model):
    """An assembly in progress: a die or a card said "assemble" and it is not finished.

    ``card`` is the revealed (virtual) or identified (physical) card waiting for its sprocket;
    ``highlight`` is the sprocket SELECT would put it on; ``looking`` is what a variant-C roll
    lets the player look at (virtual cards).
    """

    seat: int  # who assembles, and will own it
    board: int | None  # whose sprockets (None: shared)
    libraries: tuple[int, ...]  # indexes of the libraries it may come from
    remaining: int = 1  # assemblies left in this instruction (variant B assembles 1–3)
    mandatory: bool = False  # CT-A3: with 2 or 3 dice the player must assemble
    upkeep: bool = False  # part of the upkeep (A, B): finishing it moves the upkeep on
    card: str | None = None
    library: int | None = None  # where ``card`` is
    highlight: int = 1
    looking: tuple[str, ...] = ()
    sprocket: int | None = None  # physical: the sprocket named before the card was tapped


class ContraptionsState(Model):
    variant: Variant
    physical: bool = False  # real cards: the table reveals them, the gadget is told (CT-6)
    decline_to_scrapyard: bool = False  # CT-A2's table option
    dice: int = 1  # CT-A3's table option
    libraries: tuple[Library, ...]
    assembled: tuple[Assembled, ...] = ()
    scrapyard: tuple[Gone, ...] = ()
    exile: tuple[Gone, ...] = ()
    counters: tuple[int, ...] = ()  # per seat (base, A); one shared (C); none (B)
    upkeep: Upkeep | None = None
    assembly: Assembly | None = None
    selected: Assembled | None = None  # an assembled card tapped on the reader: scrap or reassemble
    rolls_turn: int = 0  # C: the turn the paid rolls below were made in
    rolls: int = 0  # C: paid assembly rolls so far that turn (CT-C2)
