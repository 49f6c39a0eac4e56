"""Contraptions' events: what happened, in the past tense."""

from typing import Literal

from device.events import Event
from device.rules.contraptions.state import Library, Variant


class ContraptionsSetUp(Event):
    type: Literal["contraptions_set_up"] = "contraptions_set_up"
    variant: Variant
    physical: bool
    decline_to_scrapyard: bool
    dice: int
    libraries: tuple[Library, ...]  # virtual ones shuffled: the order is the random outcome
    counters: tuple[int, ...]


class ContraptionDeckSet(Event):
    type: Literal["contraption_deck_set"] = "contraption_deck_set"
    seat: int
    cards: tuple[str, ...]  # virtual: shuffled, top first


class ContraptionUpkeepBegan(Event):
    """A and B: the upkeep opens with the contraption die."""

    type: Literal["contraption_upkeep_began"] = "contraption_upkeep_began"
    seat: int
    turn: int


class CrankCounterMoved(Event):
    type: Literal["crank_counter_moved"] = "crank_counter_moved"
    seat: int
    turn: int
    board: int | None
    start: int
    end: int


class CrankCounterStayed(Event):
    """Variant A: after the upkeep assembly the player still controls no contraption."""

    type: Literal["crank_counter_stayed"] = "crank_counter_stayed"
    seat: int
    turn: int
    at: int


class ContraptionDieRolled(Event):
    type: Literal["contraption_die_rolled"] = "contraption_die_rolled"
    seat: int
    turn: int
    faces: tuple[int, ...]
    cost: int | None = None  # C: the generic mana paid for this roll
    looking: tuple[str, ...] = ()  # C, virtual: the top cards the player looks at


class AssemblyExpected(Event):
    """A card said "assemble" (CT-3, CT-C3)."""

    type: Literal["assembly_expected"] = "assembly_expected"
    seat: int
    board: int | None
    library: int
    sprocket: int | None = None


class AssemblyLibraryChosen(Event):
    type: Literal["assembly_library_chosen"] = "assembly_library_chosen"
    seat: int
    library: int
    sprocket: int | None = None


class ContraptionRevealed(Event):
    type: Literal["contraption_revealed"] = "contraption_revealed"
    seat: int
    library: int
    card: str


class ContraptionIdentified(Event):
    type: Literal["contraption_identified"] = "contraption_identified"
    seat: int
    library: int
    card: str


class ContraptionAssembled(Event):
    type: Literal["contraption_assembled"] = "contraption_assembled"
    seat: int
    library: int
    card: str
    board: int | None
    sprocket: int


class NothingAssembled(Event):
    """CT-3: assembling from an empty library does nothing (and is not a loss)."""

    type: Literal["nothing_assembled"] = "nothing_assembled"
    seat: int
    library: int | None


class AssemblyDeclined(Event):
    type: Literal["assembly_declined"] = "assembly_declined"
    seat: int
    library: int | None = None
    card: str | None = None
    to: Literal["bottom", "scrapyard", "stays"] = "stays"
    lapsed: bool = False


class LibraryReordered(Event):
    """CT-C2: after looking, some cards went back on top and the others to the bottom."""

    type: Literal["library_reordered"] = "library_reordered"
    library: int
    top: tuple[str, ...]  # top first
    bottom: tuple[str, ...]


class SprocketHighlighted(Event):
    type: Literal["sprocket_highlighted"] = "sprocket_highlighted"
    sprocket: int


class ContraptionsCranked(Event):
    type: Literal["contraptions_cranked"] = "contraptions_cranked"
    seat: int
    sprocket: int
    cards: tuple[str, ...]


class ContraptionSelected(Event):
    type: Literal["contraption_selected"] = "contraption_selected"
    card: str
    owner: int


class ContraptionScrapped(Event):
    type: Literal["contraption_scrapped"] = "contraption_scrapped"
    card: str
    owner: int


class ContraptionExiled(Event):
    type: Literal["contraption_exiled"] = "contraption_exiled"
    card: str
    owner: int


class ContraptionReassembled(Event):
    type: Literal["contraption_reassembled"] = "contraption_reassembled"
    card: str
    owner: int
    start: int
    end: int


class ContraptionUnexiled(Event):
    type: Literal["contraption_unexiled"] = "contraption_unexiled"
    card: str
    owner: int


class ContraptionCopyScrapped(Event):
    type: Literal["contraption_copy_scrapped"] = "contraption_copy_scrapped"
    card: str
    owner: int
