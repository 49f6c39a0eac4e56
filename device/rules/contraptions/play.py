"""Contraptions (SPEC section 2): the Unstable rules CT-1..CT-6 and house variants A, B and C.

The gadget is the CRANK! counter and the bookkeeper of where every contraption is.  It records
that contraptions were cranked, in the order the player chose; the players resolve their
abilities.  The upkeep runs as a small machine kept in the state (``Upkeep.stage``), driven by
state checks, so the same rule fires whether the upkeep began with a new game, a NEXT press or
an undo followed by a redo:

- base rules and variant C: when a turn begins the counter moves at once if the machine runs;
- variants A and B: the upkeep opens with the contraption die (ROLL); in A the counter moves
  after the assembly the die asked for (CT-A4), in B the die names the sprocket (CT-B2).

The game's first upkeep is opened by the module's set-up step, since no ``TurnPassed`` starts
it; later ones by the state check that sees ``TurnPassed``.

Choices the rules leave to players are pending parts of the state (``ContraptionsState.assembly``
and an upkeep in its CRANK stage) that a command resolves; a choice still open when the turn
passes lapses (an assembly is declined, a crank is skipped).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from random import Random
from typing import Literal

from device.catalog import Card, CardKind, Faction, card_kind, load_catalog
from device.commands import Command, NewGame
from device.errors import IllegalCommand
from device.events import Event, TurnPassed
from device.formats import Format, TableOption
from device.inputs import Button, ButtonPressed
from device.rules.contraptions.commands import (
    AssembleContraption,
    CopyEnters,
    CrankContraptions,
    DeclineAssembly,
    ExileContraption,
    HighlightSprocket,
    IdentifyContraption,
    KeepLooked,
    PlaceContraption,
    ReassembleContraption,
    RollContraptionDie,
    ScrapContraption,
    SetContraptionDeck,
    UnexileContraption,
)
from device.rules.contraptions.events import (
    AssemblyDeclined,
    AssemblyExpected,
    AssemblyLibraryChosen,
    ContraptionAssembled,
    ContraptionCopyScrapped,
    ContraptionDeckSet,
    ContraptionDieRolled,
    ContraptionExiled,
    ContraptionIdentified,
    ContraptionReassembled,
    ContraptionRevealed,
    ContraptionScrapped,
    ContraptionSelected,
    ContraptionUnexiled,
    ContraptionUpkeepBegan,
    ContraptionsCranked,
    ContraptionsSetUp,
    CrankCounterMoved,
    CrankCounterStayed,
    LibraryReordered,
    NothingAssembled,
    SprocketHighlighted,
)
from device.rules.registry import Expected, Rules, apply_events
from device.rules.table import check_seat
from device.state import GameState, Step
from device.rules.contraptions.state import (
    FIRST_COUNTER,
    MIN_DECK,
    SPROCKETS,
    Assembled,
    Assembly,
    ContraptionsState,
    Gone,
    Library,
    Stage,
    Upkeep,
    Variant,
)
from device.text import Message, Plural, Text, listing

RULES = Rules("contraptions")

MODULE = "contraptions"
FACTION_LIBRARY_SIZE = 9  # CT-A1
FIRST_ROLL_COST = 2  # CT-C2: {2}, then {1} more for each further roll in the turn

RULES.format(Format(MODULE, "Contraptions", "module", aliases=("contraption", "ct")))
RULES.option(
    TableOption(
        "contraptions",
        MODULE,
        "How contraptions come into play: base (each player's own deck, Unstable rules), "
        "a (five faction libraries and an upkeep die), b (shared deck, the die decides), "
        "c (shared deck, paid assembly rolls).",
        "base",
        choices=("base", "a", "b", "c"),
    )
)
RULES.option(
    TableOption(
        "declined",
        MODULE,
        "Variant A: a contraption a player cannot or will not assemble goes to the bottom of its "
        "library, or to their scrapyard.",
        "bottom",
        choices=("bottom", "scrapyard"),
    )
)
RULES.option(
    TableOption(
        "faction_dice",
        MODULE,
        "Variant A: roll 1, 2 or 3 faction dice and use one; with 2 or 3 assembling is mandatory.",
        1,
        low=1,
        high=3,
    )
)
RULES.option(
    TableOption(
        "contraption_cards",
        MODULE,
        "virtual: the gadget keeps and shuffles the contraption decks; physical: real cards are "
        "revealed at the table and tapped on the reader (or named with 'card').",
        "virtual",
        choices=("virtual", "physical"),
    )
)

TEXTS: dict[str, Text] = {
    "ct.not_in_game": "This game has no Contraptions; start one with e.g. 'new commander+contraptions A B C'.",
    "ct.no_variant": "That is only for Contraptions {needed}; this game plays {variant}.",
    "ct.bad_sprocket": "There are sprockets 1, 2 and 3; {sprocket} given.",
    "ct.bad_library": "Faction libraries are numbered 1 to 5; {library} given.",
    "ct.which_library": "Say which faction library to assemble from (1–5).",
    "ct.library_not_allowed": "The die allows {allowed}; {library} is not one of them.",
    "ct.busy": "{name} is assembling already: {what}",
    "ct.nothing_pending": "No assembly is in progress.",
    "ct.no_card_yet": "No contraption is waiting for a sprocket: {what}",
    "ct.card_waiting": "{card} is waiting for a sprocket: place it or decline it first.",
    "ct.must_assemble": Plural(
        "With {dice} faction die assembling is mandatory (CT-A3): assemble from {allowed}.",
        "With {dice} faction dice assembling is mandatory (CT-A3): assemble from {allowed}.",
        "dice",
    ),
    "ct.not_looking": "No assembly roll is being looked at.",
    "ct.not_looked": "{card} is not among the cards being looked at: {looking}.",
    "ct.kept_on_top": "{card} cannot both be assembled and go back on top.",
    "ct.top_twice": "{card} is named twice.",
    "ct.roll_not_now": "The contraption die is rolled at the start of an upkeep, once: {why}",
    "ct.rolled_already": "{name} rolled it this upkeep already ({faces}).",
    "ct.not_upkeep_roll": "{name}'s upkeep has no contraption die to roll now.",
    "ct.roll_main_only": "An assembly roll is paid for in the active player's main phase (CT-C2); "
    "press NEXT to reach {name}'s main phase.",
    "ct.roll_upkeep_first": "Roll the contraption die for {name}'s upkeep first.",
    "ct.no_crank_now": "Nothing to crank now: contraptions crank at the beginning of an upkeep, "
    "on the sprocket the CRANK! counter moves to.",
    "ct.not_on_sprocket": "{card} is not a contraption {name} can crank on sprocket {sprocket}; "
    "there: {there}.",
    "ct.crank_twice": "{card} is named twice; each contraption cranks once.",
    "ct.not_contraption": "{card} is a {kind}, not a contraption.",
    "ct.unknown_contraption": "{card!r} is not a contraption the gadget knows.",
    "ct.not_assembled": "{card} is not assembled{whose}.",
    "ct.ambiguous_owner": "{card} is assembled for {owners}: say whose.",
    "ct.same_sprocket": "{card} is on sprocket {sprocket} already; reassemble it onto another one.",
    "ct.not_exiled": "{card} is not in exile{whose}.",
    "ct.already_assembled": "{card} is assembled already ({owner}'s, sprocket {sprocket}), so it is not the "
    "revealed card: tap the card you revealed.",
    "ct.in_scrapyard": "{card} is in {owner}'s scrapyard: nothing brings a contraption back from there.",
    "ct.in_exile": "{card} is in exile; a contraption returned from exile goes to the scrapyard ('unexile').",
    "ct.not_in_library": "{card} cannot be the revealed card: it is not in {library}.",
    "ct.in_other_library": "{card} is in {where}, not in {library}.",
    "ct.virtual_deck": "This game uses the gadget's virtual contraption decks: 'assemble' reveals the "
    "top card. Tap only an assembled contraption, to scrap or reassemble it.",
    "ct.deck_base_only": "Only the base Contraptions rules use a deck per player; variant {variant} "
    "shares its contraptions.",
    "ct.deck_in_use": "{name} has assembled from their deck already; a deck is set before the first assembly.",
    "ct.deck_illegal": "{name}'s contraption deck is not legal: {problems}.",
    "ct.deck_small": Plural(
        "it has {count} card, at least {minimum} are needed",
        "it has {count} cards, at least {minimum} are needed",
        "count",
    ),
    "ct.deck_twice": Plural(
        "{card} is in it {count} time, but no two may share a name",
        "{card} is in it {count} times, but no two may share a name",
        "count",
    ),
    "ct.deck_unknown": "{card!r} is not a contraption",
    # events
    "ct.set_up": "Contraptions ({variant}, {cards} cards): {libraries}.",
    "ct.deck_set": Plural(
        "{name}'s contraption deck: {count} card{shuffled}.",
        "{name}'s contraption deck: {count} cards{shuffled}.",
        "count",
    ),
    "ct.upkeep": "{name}'s upkeep: roll the contraption die (ROLL).",
    "ct.moved": "{name}'s CRANK! counter moves {start} → {end}: {crank}",
    "ct.moved_shared": "The CRANK! counter moves {start} → {end}: {crank}",
    "ct.crank_any": "{name} may crank any of {cards} on sprocket {sprocket}.",
    "ct.crank_empty": "sprocket {sprocket} is empty, nothing cranks.",
    "ct.crank_empty_sentence": "Sprocket {sprocket} is empty, nothing cranks.",
    "ct.stayed": "{name} controls no assembled contraption: the machine stops, the CRANK! counter stays on {at}.",
    "ct.rolled_a": "{name} rolls {dice}: {faces}; {then}",
    "ct.rolled_b_crank": "{name} rolls {face}: crank sprocket {face}. {then}",
    "ct.rolled_b_assemble": "{name} rolls {face}: assemble {count}.",
    "ct.rolled_c": "{name} pays {{{cost}}} for assembly roll {number} this turn and rolls {face}: {then}",
    "ct.look": Plural(
        "look at the top card: {cards}.", "look at the top {count}: {cards}.", "count"
    ),
    "ct.look_physical": "look at the top {face} of the shared deck and tap the one to assemble.",
    "ct.look_empty": "the shared deck is empty, nothing to look at.",
    "ct.assemble_from": "assemble from {libraries}.",
    "ct.expected": "{name} assembles from {library}.",
    "ct.expected_physical": "{name} assembles: tap or name the revealed card from {library}.",
    "ct.library_chosen": "{name} assembles from {library}.",
    "ct.revealed": "{name} reveals {card} from {library}: choose its sprocket.",
    "ct.identified": "{card} for {name}: choose its sprocket.",
    "ct.assembled": "{name} assembles {card} onto {board} sprocket {sprocket}.",
    "ct.nothing": "Nothing to assemble: {library} is empty.",
    "ct.declined_bottom": "{name} does not assemble {card}: it goes to the bottom of {library}.",
    "ct.declined_scrapyard": "{name} does not assemble {card}: it goes to their scrapyard.",
    "ct.declined": "{name} assembles nothing.",
    "ct.lapsed": "The turn passed: {name}'s unfinished assembly lapses.",
    "ct.reordered": "{top} back on top of the shared deck, {bottom} at the bottom.",
    "ct.reordered_bottom": "Nothing back on top of the shared deck, {bottom} at the bottom.",
    "ct.reordered_top": "{top} back on top of the shared deck, nothing at the bottom.",
    "ct.highlight": "Sprocket {sprocket} is chosen for {card}.",
    "ct.cranked": "{name} cranks {cards} (sprocket {sprocket}); their abilities trigger in that order.",
    "ct.cranked_none": "{name} cranks nothing on sprocket {sprocket}.",
    "ct.selected": "{card} ({owner}'s, sprocket {sprocket}): scrap it, or reassemble it onto another sprocket.",
    "ct.scrapped": "{card} goes to {owner}'s scrapyard.",
    "ct.exiled": "{card} is exiled.",
    "ct.reassembled": "{card} is reassembled: sprocket {start} → {end}.",
    "ct.unexiled": "{card} returns from exile without being assembled: it goes to {owner}'s scrapyard.",
    "ct.copy": "A copy of {card} enters without being assembled: it goes to {owner}'s scrapyard "
    "(a copy that is not a contraption goes to the graveyard).",
    # labels
    "ct.deck_of": "{name}'s contraption deck",
    "ct.faction_library": "library {number} ({faction})",
    "ct.shared_deck": "the shared contraption deck",
    "ct.board_of": "{name}'s",
    "ct.board_shared": "the shared",
    "ct.variant.base": "base rules",
    "ct.variant.a": "variant A, faction dice",
    "ct.variant.b": "variant B, full random",
    "ct.variant.c": "variant C, planar-style",
    # a variant as a list of them names it ("variant A, variant B or variant C")
    "ct.variant_name.a": "variant A",
    "ct.variant_name.b": "variant B",
    "ct.variant_name.c": "variant C",
    "ct.virtual_shuffled": ", shuffled",
    "ct.cards.physical": "physical",
    "ct.cards.virtual": "virtual",
    "ct.die_one": "the faction die",
    "ct.dice_n": Plural("{count} faction die", "{count} faction dice", "count"),
    "ct.or": "{first} or {second}",
    "ct.problems": "{first}; {rest}",
    "ct.whose": " for {name}",
    "ct.library_count": "{library} ({count})",
    "ct.nothing_there": "nothing",
    "ct.nothing_selected": "No contraption was tapped: tap an assembled contraption first.",
    # the upkeep banner (CT-7)
    "ct.banner.roll": "Roll the contraption die",
    "ct.banner.choose_library": "Assemble from {libraries}",
    "ct.banner.tap": "Tap the contraption to assemble",
    "ct.banner.sprocket": "Choose a sprocket for {card}",
    "ct.banner.look": Plural("Assemble the top card", "Assemble one of the top {count}", "count"),
    "ct.banner.crank": "Crank sprocket {sprocket}",
    "ct.banner.stopped": "Machine stopped: no assembled contraption",
    "ct.banner.roll_cost": "Assembly roll: {{{cost}}}",
}


# --- commands ----------------------------------------------------------------------------------


# --- events ------------------------------------------------------------------------------------


# --- reading the state -------------------------------------------------------------------------


def contraptions(state: GameState) -> ContraptionsState:
    if state.contraptions is None:
        raise IllegalCommand("ct.not_in_game")
    return state.contraptions


def board_of(ct: ContraptionsState, seat: int) -> int | None:
    """Whose sprockets ``seat`` assembles onto: their own, or the table's shared ones."""
    return None if ct.variant.shared_sprockets else seat


def counter_index(ct: ContraptionsState, seat: int) -> int | None:
    if ct.variant is Variant.RANDOM:
        return None
    return 0 if ct.variant is Variant.PLANAR else seat


def on_sprocket(ct: ContraptionsState, board: int | None, sprocket: int) -> tuple[Assembled, ...]:
    return tuple(a for a in ct.assembled if a.board == board and a.sprocket == sprocket)


def current_upkeep(state: GameState) -> Upkeep | None:
    """The active player's contraption upkeep this turn, if it has begun."""
    ct = state.contraptions
    if ct is None or ct.upkeep is None:
        return None
    up = ct.upkeep
    return up if up.turn == state.turn and up.seat == state.active else None


def controlled(state: GameState, seat: int) -> tuple[Assembled, ...]:
    """The assembled contraptions ``seat`` controls now.

    Base and A: those on their own sprockets.  B (CT-B3): those on the sprocket they cranked
    this turn, none otherwise.  C (CT-C1): the active player controls those on the sprocket the
    counter is on.
    """
    ct = state.contraptions
    if ct is None:
        return ()
    if ct.variant is Variant.RANDOM:
        up = current_upkeep(state)
        if up is None or up.seat != seat or up.sprocket is None:
            return ()
        return on_sprocket(ct, None, up.sprocket)
    if ct.variant is Variant.PLANAR:
        return on_sprocket(ct, None, ct.counters[0]) if seat == state.active else ()
    return tuple(a for a in ct.assembled if a.board == seat)


def machine_runs(ct: ContraptionsState, seat: int) -> bool:
    """CT-4 (base, A): the player controls an assembled contraption; CT-C1: any sprocket holds one."""
    if ct.variant is Variant.PLANAR:
        return bool(ct.assembled)
    return any(a.board == seat for a in ct.assembled)


def library_message(state: GameState, index: int) -> Message:
    ct = contraptions(state)
    library = ct.libraries[index]
    if library.owner is not None:
        return Message("ct.deck_of", name=state.player(library.owner).name)
    if library.faction is not None:
        return Message(
            "ct.faction_library", number=library.faction, faction=Faction(library.faction).label
        )
    return Message("ct.shared_deck")


def library_name(state: GameState, index: int) -> str:
    return str(library_message(state, index))


def _problems(problems: Sequence[Message]) -> str | Message:
    """A deck's problems, "A; B", each language with its own mark between them."""
    head: str | Message = ""
    for problem in problems:
        head = problem if head == "" else Message("ct.problems", first=head, rest=problem)
    return head


def libraries_message(state: GameState, indexes: Sequence[int]) -> Message:
    """ "A or B or C" as one message, so each language joins the names its own way."""
    if len(indexes) == 1:
        return library_message(state, indexes[0])
    return Message(
        "ct.or",
        first=library_message(state, indexes[0]),
        second=libraries_message(state, indexes[1:]),
    )


def board_message(board: int | None, state: GameState) -> Message:
    if board is None:
        return Message("ct.board_shared")
    return Message("ct.board_of", name=state.player(board).name)


def library_of(ct: ContraptionsState, seat: int) -> int:
    """The library a card-instructed assembly uses in base, B and C."""
    return seat if ct.variant is Variant.BASE else 0


def next_roll_cost(state: GameState) -> int | None:
    """CT-C2: what the next assembly roll costs this turn; None outside variant C."""
    ct = state.contraptions
    if ct is None or ct.variant is not Variant.PLANAR:
        return None
    done = ct.rolls if ct.rolls_turn == state.turn else 0
    return FIRST_ROLL_COST + done


# --- deck legality (CT-1) ----------------------------------------------------------------------


def deck_problems(cards: Sequence[str]) -> tuple[Message, ...]:
    """Why a contraption deck is not legal, as messages; empty when it is."""
    known = set(load_catalog().contraptions().names)
    problems: list[Message] = []
    if len(cards) < MIN_DECK:
        problems.append(Message("ct.deck_small", count=len(cards), minimum=MIN_DECK))
    seen: dict[str, int] = {}
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
    for card, count in seen.items():
        if card not in known:
            problems.append(Message("ct.deck_unknown", card=card))
        elif count > 1:
            problems.append(Message("ct.deck_twice", card=card, count=count))
    return tuple(problems)


# --- set-up and the upkeep machine -------------------------------------------------------------


def _option(state: GameState, name: str, default: str | int | bool) -> str | int | bool:
    return state.options.get(name, default)


@RULES.set_up
def _set_up(state: GameState, command: NewGame, rng: Random) -> list[Event]:
    if not state.has(MODULE):
        return []
    variant = Variant(str(_option(state, "contraptions", "base")))
    physical = _option(state, "contraption_cards", "virtual") == "physical"
    catalog = load_catalog().contraptions()
    libraries: list[Library] = []
    if variant is Variant.BASE:
        for player in state.players:
            if physical:
                libraries.append(Library(owner=player.seat, open=True))
            else:
                # Until a player enters their own list, the gadget deals them a legal deck.
                libraries.append(
                    Library(
                        owner=player.seat, cards=tuple(rng.sample(list(catalog.names), MIN_DECK))
                    )
                )
    elif variant is Variant.FACTIONS:
        for faction in Faction:
            cards = list(catalog.by_faction(faction).names)
            if not physical:
                rng.shuffle(cards)
            libraries.append(Library(faction=int(faction), cards=tuple(cards)))
    else:
        cards = list(catalog.names)
        if not physical:
            rng.shuffle(cards)
        libraries.append(Library(cards=tuple(cards)))
    if variant is Variant.RANDOM:
        counters: tuple[int, ...] = ()
    elif variant is Variant.PLANAR:
        counters = (FIRST_COUNTER,)
    else:
        counters = tuple(FIRST_COUNTER for _ in state.players)
    setup = ContraptionsSetUp(
        variant=variant,
        physical=physical,
        decline_to_scrapyard=_option(state, "declined", "bottom") == "scrapyard",
        dice=int(_option(state, "faction_dice", 1)),
        libraries=tuple(libraries),
        counters=counters,
    )
    ready = _apply_set_up(state, setup)
    return [setup, *_begin_upkeep(ready, state.active, state.turn)]


def _begin_upkeep(state: GameState, seat: int, turn: int) -> list[Event]:
    ct = contraptions(state)
    if ct.variant.upkeep_die:
        return [ContraptionUpkeepBegan(seat=seat, turn=turn)]
    return _move_counter(state, seat, turn)


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


@RULES.state_check
def _contraption_upkeep(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    ct = state.contraptions
    if ct is None:
        return []
    for event in events:
        if isinstance(event, TurnPassed):
            lapsed = _lapse(state)
            after = apply_events(state, lapsed)
            return lapsed + _begin_upkeep(after, event.to, event.turn)
    up = current_upkeep(state)
    if ct.variant is Variant.FACTIONS and up is not None and up.stage is Stage.MOVE:
        moved = _move_counter(state, up.seat, up.turn)
        index = counter_index(ct, up.seat)
        assert index is not None
        return moved or [CrankCounterStayed(seat=up.seat, turn=up.turn, at=ct.counters[index])]
    return _reveal_if_one_way(state)


def _reveal_if_one_way(state: GameState) -> list[Event]:
    """With virtual cards, reveal the top card as soon as only one library can give it."""
    ct = contraptions(state)
    job = ct.assembly
    if job is None or job.card is not None or job.looking:
        return []
    stocked = [i for i in job.libraries if ct.libraries[i].cards or ct.libraries[i].open]
    if not stocked:
        return [
            NothingAssembled(
                seat=job.seat, library=job.libraries[0] if len(job.libraries) == 1 else None
            )
        ]
    if ct.physical or len(job.libraries) > 1:
        return []
    index = job.libraries[0]
    top = ct.libraries[index].cards[0]
    if job.sprocket is not None:
        return [
            ContraptionAssembled(
                seat=job.seat, library=index, card=top, board=job.board, sprocket=job.sprocket
            )
        ]
    return [ContraptionRevealed(seat=job.seat, library=index, card=top)]


def _lapse(state: GameState) -> list[Event]:
    ct = contraptions(state)
    if ct.assembly is None:
        return []
    return [_decline(state, ct.assembly, None, lapsed=True)]


def _decline(
    state: GameState, job: Assembly, named: str | None, lapsed: bool = False
) -> AssemblyDeclined:
    """CT-A2: a faction card not assembled goes to the bottom (or the scrapyard); elsewhere the
    declined cards simply stay where they are."""
    ct = contraptions(state)
    card = job.card or named
    library = job.library
    if ct.variant is not Variant.FACTIONS:
        return AssemblyDeclined(seat=job.seat, lapsed=lapsed)
    if (
        card is None
        and len(job.libraries) == 1
        and not ct.physical
        and ct.libraries[job.libraries[0]].cards
    ):
        library = job.libraries[0]
        card = ct.libraries[library].cards[0]
    if card is not None and library is None:
        library = next((i for i in job.libraries if card in ct.libraries[i].cards), None)
    if card is None or library is None:
        return AssemblyDeclined(seat=job.seat, lapsed=lapsed)
    to: Literal["bottom", "scrapyard"] = "scrapyard" if ct.decline_to_scrapyard else "bottom"
    return AssemblyDeclined(seat=job.seat, library=library, card=card, to=to, lapsed=lapsed)


# --- deciders ----------------------------------------------------------------------------------


def _sprocket(value: int | None) -> int | None:
    if value is not None and value not in SPROCKETS:
        raise IllegalCommand("ct.bad_sprocket", sprocket=value)
    return value


def _busy(state: GameState, job: Assembly) -> IllegalCommand:
    return IllegalCommand("ct.busy", name=state.player(job.seat).name, what=job_banner(state, job))


def _need_variant(ct: ContraptionsState, *variants: Variant) -> None:
    if ct.variant not in variants:
        needed = listing([Message(f"ct.variant_name.{v.value}") for v in variants], "text.or")
        raise IllegalCommand(
            "ct.no_variant", needed=needed, variant=Message(f"ct.variant.{ct.variant.value}")
        )


def _faction_index(ct: ContraptionsState, library: int | None) -> int | None:
    if library is None:
        return None
    _need_variant(ct, Variant.FACTIONS)
    if not 1 <= library <= 5:
        raise IllegalCommand("ct.bad_library", library=library)
    return library - 1


@RULES.decides(SetContraptionDeck)
def _set_deck(state: GameState, command: SetContraptionDeck, rng: Random) -> list[Event]:
    ct = contraptions(state)
    player = check_seat(state, command.seat)
    if ct.variant is not Variant.BASE:
        raise IllegalCommand("ct.deck_base_only", variant=ct.variant.value.upper())
    used = [a for a in ct.assembled if a.owner == command.seat] + [
        g for g in (*ct.scrapyard, *ct.exile) if g.owner == command.seat and not g.is_copy
    ]
    if used or (ct.assembly is not None and ct.assembly.seat == command.seat):
        raise IllegalCommand("ct.deck_in_use", name=player.name)
    problems = deck_problems(command.cards)
    if problems:
        raise IllegalCommand("ct.deck_illegal", name=player.name, problems=_problems(problems))
    cards = list(command.cards)
    if not ct.physical:
        rng.shuffle(cards)
    return [ContraptionDeckSet(seat=command.seat, cards=tuple(cards))]


@RULES.decides(RollContraptionDie)
def _roll(state: GameState, command: RollContraptionDie, rng: Random) -> list[Event]:
    ct = contraptions(state)
    seat = state.active
    name = state.player(seat).name
    if ct.variant is Variant.BASE:
        _need_variant(ct, Variant.FACTIONS, Variant.RANDOM, Variant.PLANAR)
    if ct.variant is Variant.PLANAR:
        if state.step is not Step.MAIN:
            raise IllegalCommand("ct.roll_main_only", name=name)
        if ct.assembly is not None:
            raise _busy(state, ct.assembly)
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


def _allowed_libraries(faces: Iterable[int]) -> tuple[int, ...]:
    """CT-A2: a face 1–5 names its faction's library, a 6 lets the player pick any."""
    chosen: set[int] = set()
    for face in faces:
        chosen.update(range(5) if face == 6 else (face - 1,))
    return tuple(sorted(chosen))


@RULES.decides(AssembleContraption)
def _assemble(state: GameState, command: AssembleContraption, rng: Random) -> list[Event]:
    ct = contraptions(state)
    seat = state.active if command.seat is None else command.seat
    check_seat(state, seat)
    sprocket = _sprocket(command.sprocket)
    library = _faction_index(ct, command.library)
    job = ct.assembly
    if job is not None:
        if job.seat != seat or job.card is not None or job.looking:
            raise _busy(state, job)
        if library is None:
            if len(job.libraries) > 1:
                raise IllegalCommand("ct.which_library")
            library = job.libraries[0]
        if library not in job.libraries:
            raise IllegalCommand(
                "ct.library_not_allowed",
                allowed=libraries_message(state, job.libraries),
                library=library_message(state, library),
            )
        return [AssemblyLibraryChosen(seat=seat, library=library, sprocket=sprocket)]
    up = current_upkeep(state)
    if up is not None and up.stage is Stage.ROLL and seat == up.seat:
        raise IllegalCommand("ct.roll_upkeep_first", name=state.player(seat).name)
    if ct.variant is Variant.FACTIONS and library is None:
        raise IllegalCommand("ct.which_library")
    index = library if library is not None else library_of(ct, seat)
    return [AssemblyExpected(seat=seat, board=board_of(ct, seat), library=index, sprocket=sprocket)]


@RULES.decides(PlaceContraption)
def _place(state: GameState, command: PlaceContraption, rng: Random) -> list[Event]:
    ct = contraptions(state)
    job = ct.assembly
    if job is None:
        raise IllegalCommand("ct.nothing_pending")
    if job.card is None or job.library is None:
        raise IllegalCommand("ct.no_card_yet", what=str(job_banner(state, job)))
    sprocket = _sprocket(command.sprocket) or job.highlight
    return [
        ContraptionAssembled(
            seat=job.seat, library=job.library, card=job.card, board=job.board, sprocket=sprocket
        )
    ]


@RULES.decides(HighlightSprocket)
def _highlight(state: GameState, command: HighlightSprocket, rng: Random) -> list[Event]:
    job = contraptions(state).assembly
    if job is None:
        raise IllegalCommand("ct.nothing_pending")
    if job.card is None:
        raise IllegalCommand("ct.no_card_yet", what=str(job_banner(state, job)))
    return [SprocketHighlighted(sprocket=(job.highlight - 1 + command.step) % 3 + 1)]


def _refuse_unless_assembled(state: GameState, ct: ContraptionsState, job: Assembly) -> None:
    """CT-A3: a mandatory assembly that a library can still give is refused any way out."""
    stocked = [i for i in job.libraries if ct.libraries[i].cards]
    if job.mandatory and stocked:
        raise IllegalCommand(
            "ct.must_assemble", dice=ct.dice, allowed=libraries_message(state, stocked)
        )


def _mandatory_assembly_done(state: GameState) -> None:
    """CT-A3: with two or three faction dice the assembly must be made before the turn passes;
    NEXT and 'pass' say what is still required instead of letting it lapse."""
    ct = state.contraptions
    job = ct.assembly if ct is not None else None
    if ct is None or job is None or not job.mandatory:
        return
    if job.card is not None:
        raise IllegalCommand("ct.card_waiting", card=job.card)
    _refuse_unless_assembled(state, ct, job)


RULES.pass_check(_mandatory_assembly_done)


@RULES.decides(DeclineAssembly)
def _decline_command(state: GameState, command: DeclineAssembly, rng: Random) -> list[Event]:
    ct = contraptions(state)
    job = ct.assembly
    if job is None:
        raise IllegalCommand("ct.nothing_pending")
    _refuse_unless_assembled(state, ct, job)
    named = None
    if command.card is not None and job.card is None:
        named = _check_in_libraries(state, command.card, job)
    return [_decline(state, job, named)]


@RULES.decides(KeepLooked)
def _keep(state: GameState, command: KeepLooked, rng: Random) -> list[Event]:
    ct = contraptions(state)
    job = ct.assembly
    if job is None or not job.looking:
        raise IllegalCommand("ct.not_looking")
    sprocket = _sprocket(command.sprocket)
    assert sprocket is not None
    looking = listing(job.looking, "text.list")
    for card in (command.card, *command.top):
        if card not in job.looking:
            raise IllegalCommand("ct.not_looked", card=card, looking=looking)
    if command.card in command.top:
        raise IllegalCommand("ct.kept_on_top", card=command.card)
    for card in command.top:
        if command.top.count(card) > 1:
            raise IllegalCommand("ct.top_twice", card=card)
    index = job.libraries[0]
    rest = tuple(c for c in job.looking if c != command.card and c not in command.top)
    events: list[Event] = [
        ContraptionAssembled(
            seat=job.seat, library=index, card=command.card, board=job.board, sprocket=sprocket
        )
    ]
    if len(job.looking) > 1:
        events.append(LibraryReordered(library=index, top=command.top, bottom=rest))
    return events


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


def _check_in_libraries(state: GameState, card: str, job: Assembly) -> str:
    """``card`` may be the one revealed for ``job``: it sits in one of the libraries allowed."""
    ct = contraptions(state)
    if card not in load_catalog().contraptions():
        raise IllegalCommand("ct.unknown_contraption", card=card)
    for index in job.libraries:
        library = ct.libraries[index]
        if card in library.cards or (library.open and not _out(ct, card, library.owner)):
            return card
    allowed = libraries_message(state, job.libraries)
    for index, library in enumerate(ct.libraries):
        if card in library.cards:
            raise IllegalCommand(
                "ct.in_other_library",
                card=card,
                where=library_message(state, index),
                library=allowed,
            )
    raise IllegalCommand("ct.not_in_library", card=card, library=allowed)


def _out(ct: ContraptionsState, card: str, owner: int | None) -> bool:
    """Whether ``card`` (of ``owner``'s deck) is on a sprocket, in a scrapyard or in exile."""
    places = [(a.card, a.owner) for a in ct.assembled]
    places += [(g.card, g.owner) for g in (*ct.scrapyard, *ct.exile) if not g.is_copy]
    return any(name == card and (owner is None or seat == owner) for name, seat in places)


@RULES.decides(IdentifyContraption)
def _identify(state: GameState, command: IdentifyContraption, rng: Random) -> list[Event]:
    ct = contraptions(state)
    card = command.card
    known = _contraption_card_named(card)
    job = ct.assembly
    waiting_for = job.seat if job is not None and job.card is None and not job.looking else None
    selected = _tapped_on_table(state, card, waiting_for)
    if selected is not None:
        return [selected]
    seat = state.active if waiting_for is None else waiting_for
    _check_not_gone(state, card, seat if ct.variant is Variant.BASE else None)
    if not ct.physical:
        raise IllegalCommand("ct.virtual_deck")
    if job is not None and waiting_for is None:
        raise _busy(state, job)
    if job is None:
        job = _assembly_told_by_card(state, known, seat)
    _check_in_libraries(state, card, job)
    index = next((i for i in job.libraries if card in ct.libraries[i].cards), job.libraries[0])
    events: list[Event] = []
    if ct.assembly is None:
        events.append(AssemblyExpected(seat=seat, board=job.board, library=index))
    if job.sprocket is not None:
        events.append(
            ContraptionAssembled(
                seat=seat, library=index, card=card, board=job.board, sprocket=job.sprocket
            )
        )
    else:
        events.append(ContraptionIdentified(seat=seat, library=index, card=card))
    return events


def _contraption_card_named(card: str) -> Card:
    known = load_catalog().get(card)
    if known is None:
        raise IllegalCommand("ct.unknown_contraption", card=card)
    if known.kind is not CardKind.CONTRAPTION:
        raise IllegalCommand("ct.not_contraption", card=card, kind=card_kind(known.kind))
    return known


def _tapped_on_table(
    state: GameState, card: str, waiting_for: int | None
) -> ContraptionSelected | None:
    """A tap of an assembled contraption selects it, unless it is the one being assembled for."""
    ct = contraptions(state)
    on_table = [a for a in ct.assembled if a.card == card]
    if waiting_for is not None and ct.variant is Variant.BASE:
        # In base games two players may own the same contraption; a tap while one of them
        # assembles is about their deck.
        on_table = [a for a in on_table if a.owner == waiting_for]
    if not on_table:
        return None
    if waiting_for is not None and len(on_table) == 1:
        there = on_table[0]
        raise IllegalCommand(
            "ct.already_assembled",
            card=card,
            owner=state.player(there.owner).name,
            sprocket=there.sprocket,
        )
    if len(on_table) > 1:
        owners = listing([state.player(a.owner).name for a in on_table])
        raise IllegalCommand("ct.ambiguous_owner", card=card, owners=owners)
    return ContraptionSelected(card=card, owner=on_table[0].owner)


def _check_not_gone(state: GameState, card: str, owner: int | None) -> None:
    """A scrapped or exiled contraption cannot be assembled (``owner`` None: anyone's)."""
    ct = contraptions(state)
    for gone in ct.scrapyard:
        if gone.card == card and not gone.is_copy and (owner is None or gone.owner == owner):
            raise IllegalCommand("ct.in_scrapyard", card=card, owner=state.player(gone.owner).name)
    if any(g.card == card and (owner is None or g.owner == owner) for g in ct.exile):
        raise IllegalCommand("ct.in_exile", card=card)


def _assembly_told_by_card(state: GameState, known: Card, seat: int) -> Assembly:
    """No assembly was announced: the tap itself says a card told the active player to assemble."""
    ct = contraptions(state)
    up = current_upkeep(state)
    if up is not None and up.stage is Stage.ROLL:
        raise IllegalCommand("ct.roll_upkeep_first", name=state.player(up.seat).name)
    if ct.variant is Variant.FACTIONS:
        faction = known.faction_number
        assert faction is not None
        return Assembly(seat=seat, board=board_of(ct, seat), libraries=(faction - 1,))
    return Assembly(seat=seat, board=board_of(ct, seat), libraries=(library_of(ct, seat),))


def _find_assembled(state: GameState, card: str | None, owner: int | None) -> Assembled:
    ct = contraptions(state)
    if card is None:
        if ct.selected is None or ct.selected not in ct.assembled:
            raise IllegalCommand("ct.nothing_selected")
        return ct.selected
    if owner is not None:
        check_seat(state, owner)
    found = [a for a in ct.assembled if a.card == card and (owner is None or a.owner == owner)]
    if not found:
        whose = "" if owner is None else Message("ct.whose", name=state.player(owner).name)
        raise IllegalCommand("ct.not_assembled", card=card, whose=whose)
    if len(found) > 1:
        raise IllegalCommand(
            "ct.ambiguous_owner",
            card=card,
            owners=listing([state.player(a.owner).name for a in found]),
        )
    return found[0]


@RULES.decides(ScrapContraption)
def _scrap(state: GameState, command: ScrapContraption, rng: Random) -> list[Event]:
    found = _find_assembled(state, command.card, command.owner)
    return [ContraptionScrapped(card=found.card, owner=found.owner)]


@RULES.decides(ExileContraption)
def _exile(state: GameState, command: ExileContraption, rng: Random) -> list[Event]:
    found = _find_assembled(state, command.card, command.owner)
    return [ContraptionExiled(card=found.card, owner=found.owner)]


@RULES.decides(ReassembleContraption)
def _reassemble(state: GameState, command: ReassembleContraption, rng: Random) -> list[Event]:
    sprocket = _sprocket(command.sprocket)
    assert sprocket is not None
    found = _find_assembled(state, command.card, command.owner)
    if found.sprocket == sprocket:
        raise IllegalCommand("ct.same_sprocket", card=found.card, sprocket=sprocket)
    return [
        ContraptionReassembled(
            card=found.card, owner=found.owner, start=found.sprocket, end=sprocket
        )
    ]


@RULES.decides(UnexileContraption)
def _unexile(state: GameState, command: UnexileContraption, rng: Random) -> list[Event]:
    ct = contraptions(state)
    if command.owner is not None:
        check_seat(state, command.owner)
    found = [
        g
        for g in ct.exile
        if g.card == command.card and (command.owner is None or g.owner == command.owner)
    ]
    if not found:
        whose = (
            ""
            if command.owner is None
            else Message("ct.whose", name=state.player(command.owner).name)
        )
        raise IllegalCommand("ct.not_exiled", card=command.card, whose=whose)
    if len(found) > 1:
        raise IllegalCommand(
            "ct.ambiguous_owner",
            card=command.card,
            owners=listing([state.player(g.owner).name for g in found]),
        )
    return [ContraptionUnexiled(card=found[0].card, owner=found[0].owner)]


@RULES.decides(CopyEnters)
def _copy(state: GameState, command: CopyEnters, rng: Random) -> list[Event]:
    contraptions(state)
    check_seat(state, command.owner)
    if command.card not in load_catalog().contraptions():
        raise IllegalCommand("ct.unknown_contraption", card=command.card)
    return [ContraptionCopyScrapped(card=command.card, owner=command.owner)]


# --- each event: what it does to the state (apply), and what it says (describe) ---------------


def _ct_update(state: GameState, **changes: object) -> GameState:
    ct = contraptions(state)
    return state.model_copy(update={"contraptions": ct.model_copy(update=changes)})


def _library_update(
    ct: ContraptionsState, index: int, cards: tuple[str, ...]
) -> tuple[Library, ...]:
    libraries = list(ct.libraries)
    libraries[index] = libraries[index].model_copy(update={"cards": cards})
    return tuple(libraries)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    at = cards.index(card) if card in cards else -1
    return cards if at < 0 else cards[:at] + cards[at + 1 :]


def _upkeep_update(state: GameState, **changes: object) -> Upkeep | None:
    up = current_upkeep(state)
    return None if up is None else up.model_copy(update=changes)


def _finish_job(
    state: GameState, ct: ContraptionsState, job: Assembly
) -> tuple[Assembly | None, Upkeep | None]:
    """One assembly of ``job`` is done (or declined): what is left, and where the upkeep is."""
    up = ct.upkeep
    left = job.remaining - 1
    if left > 0:
        return job.model_copy(
            update={"remaining": left, "card": None, "library": None, "highlight": 1}
        ), up
    if job.upkeep:
        stage = Stage.MOVE if ct.variant is Variant.FACTIONS else Stage.DONE
        return None, _upkeep_update(state, stage=stage) or up
    return None, up


@RULES.applies(ContraptionsSetUp)
def _apply_set_up(state: GameState, event: ContraptionsSetUp) -> GameState:
    ct = ContraptionsState(
        variant=event.variant,
        physical=event.physical,
        decline_to_scrapyard=event.decline_to_scrapyard,
        dice=event.dice,
        libraries=event.libraries,
        counters=event.counters,
    )
    return state.model_copy(update={"contraptions": ct})


@RULES.describes(ContraptionsSetUp)
def _describe_set_up(state: GameState, event: ContraptionsSetUp) -> Message:
    after = _apply_set_up(state, event)
    libraries: list[str | Message] = []
    for index, library in enumerate(event.libraries):
        count = "?" if library.open else str(len(library.cards))
        libraries.append(
            Message("ct.library_count", library=library_message(after, index), count=count)
        )
    return Message(
        "ct.set_up",
        variant=Message(f"ct.variant.{event.variant.value}"),
        cards=Message("ct.cards.physical" if event.physical else "ct.cards.virtual"),
        libraries=listing(libraries, "text.list"),
    )


@RULES.applies(ContraptionDeckSet)
def _apply_deck(state: GameState, event: ContraptionDeckSet) -> GameState:
    ct = contraptions(state)
    libraries = list(ct.libraries)
    libraries[event.seat] = Library(owner=event.seat, cards=event.cards)
    return _ct_update(state, libraries=tuple(libraries))


@RULES.describes(ContraptionDeckSet)
def _describe_deck(state: GameState, event: ContraptionDeckSet) -> Message:
    shuffled: Message | str = "" if contraptions(state).physical else Message("ct.virtual_shuffled")
    return Message(
        "ct.deck_set", name=_name(state, event.seat), count=len(event.cards), shuffled=shuffled
    )


@RULES.applies(ContraptionUpkeepBegan)
def _apply_began(state: GameState, event: ContraptionUpkeepBegan) -> GameState:
    return _ct_update(state, upkeep=Upkeep(seat=event.seat, turn=event.turn, stage=Stage.ROLL))


@RULES.describes(ContraptionUpkeepBegan)
def _describe_began(state: GameState, event: ContraptionUpkeepBegan) -> Message:
    return Message("ct.upkeep", name=_name(state, event.seat))


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
    return _ct_update(state, counters=tuple(counters), upkeep=up)


@RULES.describes(CrankCounterMoved)
def _describe_moved(state: GameState, event: CrankCounterMoved) -> Message:
    crank = _crank_offer(state, event.seat, event.board, event.end)
    if event.board is None:
        return Message("ct.moved_shared", start=event.start, end=event.end, crank=crank)
    return Message(
        "ct.moved", name=_name(state, event.seat), start=event.start, end=event.end, crank=crank
    )


@RULES.applies(CrankCounterStayed)
def _apply_stayed(state: GameState, event: CrankCounterStayed) -> GameState:
    return _ct_update(state, upkeep=_upkeep_update(state, stage=Stage.DONE))


@RULES.describes(CrankCounterStayed)
def _describe_stayed(state: GameState, event: CrankCounterStayed) -> Message:
    return Message("ct.stayed", name=_name(state, event.seat), at=event.at)


@RULES.applies(ContraptionDieRolled)
def _apply_rolled(state: GameState, event: ContraptionDieRolled) -> GameState:
    ct = contraptions(state)
    board = board_of(ct, event.seat)
    if ct.variant is Variant.PLANAR:
        rolls = ct.rolls + 1 if ct.rolls_turn == event.turn else 1
        deck = ct.libraries[0]
        job = Assembly(seat=event.seat, board=board, libraries=(0,), looking=event.looking)
        empty = not deck.cards
        return _ct_update(
            state, rolls=rolls, rolls_turn=event.turn, assembly=None if empty else job
        )
    if ct.variant is Variant.FACTIONS:
        job = Assembly(
            seat=event.seat,
            board=board,
            libraries=_allowed_libraries(event.faces),
            mandatory=len(event.faces) > 1,
            upkeep=True,
        )
        return _ct_update(
            state,
            assembly=job,
            upkeep=_upkeep_update(state, faces=event.faces, stage=Stage.ASSEMBLE),
        )
    face = event.faces[0]
    if face <= 3:
        stage = Stage.CRANK if on_sprocket(ct, None, face) else Stage.DONE
        return _ct_update(
            state, upkeep=_upkeep_update(state, faces=event.faces, stage=stage, sprocket=face)
        )
    job = Assembly(seat=event.seat, board=None, libraries=(0,), remaining=face - 3, upkeep=True)
    return _ct_update(
        state, assembly=job, upkeep=_upkeep_update(state, faces=event.faces, stage=Stage.ASSEMBLE)
    )


@RULES.describes(ContraptionDieRolled)
def _describe_rolled(state: GameState, event: ContraptionDieRolled) -> Message:
    ct = contraptions(state)
    name = _name(state, event.seat)
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
        offer = _crank_offer(state, event.seat, None, face, sentence=True)
        return Message("ct.rolled_b_crank", name=name, face=face, then=offer)
    return Message("ct.rolled_b_assemble", name=name, face=face, count=face - 3)


@RULES.applies(AssemblyExpected)
def _apply_expected(state: GameState, event: AssemblyExpected) -> GameState:
    job = Assembly(
        seat=event.seat, board=event.board, libraries=(event.library,), sprocket=event.sprocket
    )
    return _ct_update(state, assembly=job)


@RULES.describes(AssemblyExpected)
def _describe_expected(state: GameState, event: AssemblyExpected) -> Message:
    key = "ct.expected_physical" if contraptions(state).physical else "ct.expected"
    return Message(
        key, name=_name(state, event.seat), library=library_message(state, event.library)
    )


@RULES.applies(AssemblyLibraryChosen)
def _apply_chosen(state: GameState, event: AssemblyLibraryChosen) -> GameState:
    job = contraptions(state).assembly
    if job is None:
        return state
    return _ct_update(
        state,
        assembly=job.model_copy(update={"libraries": (event.library,), "sprocket": event.sprocket}),
    )


@RULES.describes(AssemblyLibraryChosen)
def _describe_chosen(state: GameState, event: AssemblyLibraryChosen) -> Message:
    return Message(
        "ct.library_chosen",
        name=_name(state, event.seat),
        library=library_message(state, event.library),
    )


def _apply_card_waiting(state: GameState, library: int, card: str) -> GameState:
    job = contraptions(state).assembly
    if job is None:
        return state
    return _ct_update(state, assembly=job.model_copy(update={"card": card, "library": library}))


@RULES.applies(ContraptionRevealed)
def _apply_revealed(state: GameState, event: ContraptionRevealed) -> GameState:
    return _apply_card_waiting(state, event.library, event.card)


@RULES.describes(ContraptionRevealed)
def _describe_revealed(state: GameState, event: ContraptionRevealed) -> Message:
    return Message(
        "ct.revealed",
        name=_name(state, event.seat),
        card=event.card,
        library=library_message(state, event.library),
    )


@RULES.applies(ContraptionIdentified)
def _apply_identified(state: GameState, event: ContraptionIdentified) -> GameState:
    return _apply_card_waiting(state, event.library, event.card)


@RULES.describes(ContraptionIdentified)
def _describe_identified(state: GameState, event: ContraptionIdentified) -> Message:
    return Message("ct.identified", name=_name(state, event.seat), card=event.card)


@RULES.applies(ContraptionAssembled)
def _apply_assembled(state: GameState, event: ContraptionAssembled) -> GameState:
    ct = contraptions(state)
    libraries = _library_update(
        ct, event.library, _without(ct.libraries[event.library].cards, event.card)
    )
    placed = Assembled(
        card=event.card, owner=event.seat, board=event.board, sprocket=event.sprocket
    )
    ct = ct.model_copy(update={"libraries": libraries, "assembled": (*ct.assembled, placed)})
    job, up = (None, ct.upkeep) if ct.assembly is None else _finish_job(state, ct, ct.assembly)
    return state.model_copy(
        update={"contraptions": ct.model_copy(update={"assembly": job, "upkeep": up})}
    )


@RULES.describes(ContraptionAssembled)
def _describe_assembled(state: GameState, event: ContraptionAssembled) -> Message:
    return Message(
        "ct.assembled",
        name=_name(state, event.seat),
        card=event.card,
        board=board_message(event.board, state),
        sprocket=event.sprocket,
    )


@RULES.applies(NothingAssembled)
def _apply_nothing(state: GameState, event: NothingAssembled) -> GameState:
    ct = contraptions(state)
    if ct.assembly is None:
        return state
    job, up = _finish_job(state, ct, ct.assembly.model_copy(update={"remaining": 1}))
    return _ct_update(state, assembly=job, upkeep=up)


@RULES.describes(NothingAssembled)
def _describe_nothing(state: GameState, event: NothingAssembled) -> Message:
    job = contraptions(state).assembly
    indexes = (event.library,) if event.library is not None else (job.libraries if job else ())
    return Message("ct.nothing", library=libraries_message(state, indexes) if indexes else "")


@RULES.applies(AssemblyDeclined)
def _apply_declined(state: GameState, event: AssemblyDeclined) -> GameState:
    ct = contraptions(state)
    if event.card is not None and event.library is not None and event.to != "stays":
        cards = _without(ct.libraries[event.library].cards, event.card)
        if event.to == "bottom":
            cards = (*cards, event.card)
        ct = ct.model_copy(update={"libraries": _library_update(ct, event.library, cards)})
        if event.to == "scrapyard":
            ct = ct.model_copy(
                update={"scrapyard": (*ct.scrapyard, Gone(card=event.card, owner=event.seat))}
            )
    up = ct.upkeep
    job = ct.assembly
    if job is not None and job.upkeep and not event.lapsed:
        up = (
            _upkeep_update(
                state, stage=Stage.MOVE if ct.variant is Variant.FACTIONS else Stage.DONE
            )
            or up
        )
    return state.model_copy(
        update={"contraptions": ct.model_copy(update={"assembly": None, "upkeep": up})}
    )


@RULES.describes(AssemblyDeclined)
def _describe_declined(state: GameState, event: AssemblyDeclined) -> Message:
    name = _name(state, event.seat)
    if event.lapsed and event.to == "stays":
        return Message("ct.lapsed", name=name)
    if event.card is not None and event.library is not None and event.to == "bottom":
        return Message(
            "ct.declined_bottom",
            name=name,
            card=event.card,
            library=library_message(state, event.library),
        )
    if event.card is not None and event.to == "scrapyard":
        return Message("ct.declined_scrapyard", name=name, card=event.card)
    return Message("ct.declined", name=name)


@RULES.applies(LibraryReordered)
def _apply_reordered(state: GameState, event: LibraryReordered) -> GameState:
    ct = contraptions(state)
    moved = set(event.top) | set(event.bottom)
    middle = tuple(c for c in ct.libraries[event.library].cards if c not in moved)
    return _ct_update(
        state, libraries=_library_update(ct, event.library, event.top + middle + event.bottom)
    )


@RULES.describes(LibraryReordered)
def _describe_reordered(state: GameState, event: LibraryReordered) -> Message:
    top, bottom = listing(event.top, "text.list"), listing(event.bottom, "text.list")
    if not event.top:
        return Message("ct.reordered_bottom", bottom=bottom)
    if not event.bottom:
        return Message("ct.reordered_top", top=top)
    return Message("ct.reordered", top=top, bottom=bottom)


@RULES.applies(SprocketHighlighted)
def _apply_highlight(state: GameState, event: SprocketHighlighted) -> GameState:
    job = contraptions(state).assembly
    if job is None:
        return state
    return _ct_update(state, assembly=job.model_copy(update={"highlight": event.sprocket}))


@RULES.describes(SprocketHighlighted)
def _describe_highlight(state: GameState, event: SprocketHighlighted) -> Message:
    job = contraptions(state).assembly
    return Message(
        "ct.highlight", sprocket=event.sprocket, card=job.card if job and job.card else "?"
    )


@RULES.applies(ContraptionsCranked)
def _apply_cranked(state: GameState, event: ContraptionsCranked) -> GameState:
    return _ct_update(state, upkeep=_upkeep_update(state, stage=Stage.DONE, cranked=event.cards))


@RULES.describes(ContraptionsCranked)
def _describe_cranked(state: GameState, event: ContraptionsCranked) -> Message:
    name = _name(state, event.seat)
    if not event.cards:
        return Message("ct.cranked_none", name=name, sprocket=event.sprocket)
    return Message("ct.cranked", name=name, cards=", ".join(event.cards), sprocket=event.sprocket)


@RULES.applies(ContraptionSelected)
def _apply_selected(state: GameState, event: ContraptionSelected) -> GameState:
    ct = contraptions(state)
    found = next((a for a in ct.assembled if a.card == event.card and a.owner == event.owner), None)
    return _ct_update(state, selected=found)


@RULES.describes(ContraptionSelected)
def _describe_selected(state: GameState, event: ContraptionSelected) -> Message:
    ct = contraptions(state)
    found = next((a for a in ct.assembled if a.card == event.card and a.owner == event.owner), None)
    return Message(
        "ct.selected",
        card=event.card,
        owner=_name(state, event.owner),
        sprocket=found.sprocket if found else "?",
    )


def _take_off(
    ct: ContraptionsState, card: str, owner: int
) -> tuple[ContraptionsState, Assembled | None]:
    found = next((a for a in ct.assembled if a.card == card and a.owner == owner), None)
    if found is None:
        return ct, None
    rest = tuple(a for a in ct.assembled if a is not found)
    selected = None if ct.selected == found else ct.selected
    return ct.model_copy(update={"assembled": rest, "selected": selected}), found


@RULES.applies(ContraptionScrapped)
def _apply_scrapped(state: GameState, event: ContraptionScrapped) -> GameState:
    ct, _ = _take_off(contraptions(state), event.card, event.owner)
    ct = ct.model_copy(
        update={"scrapyard": (*ct.scrapyard, Gone(card=event.card, owner=event.owner))}
    )
    return state.model_copy(update={"contraptions": ct})


@RULES.describes(ContraptionScrapped)
def _describe_scrapped(state: GameState, event: ContraptionScrapped) -> Message:
    return Message("ct.scrapped", card=event.card, owner=_name(state, event.owner))


@RULES.applies(ContraptionExiled)
def _apply_exiled(state: GameState, event: ContraptionExiled) -> GameState:
    ct, _ = _take_off(contraptions(state), event.card, event.owner)
    ct = ct.model_copy(update={"exile": (*ct.exile, Gone(card=event.card, owner=event.owner))})
    return state.model_copy(update={"contraptions": ct})


@RULES.describes(ContraptionExiled)
def _describe_exiled(state: GameState, event: ContraptionExiled) -> Message:
    return Message("ct.exiled", card=event.card)


@RULES.applies(ContraptionReassembled)
def _apply_reassembled(state: GameState, event: ContraptionReassembled) -> GameState:
    ct, found = _take_off(contraptions(state), event.card, event.owner)
    if found is None:
        return state
    moved = found.model_copy(update={"sprocket": event.end})
    selected = moved if contraptions(state).selected == found else ct.selected
    return state.model_copy(
        update={
            "contraptions": ct.model_copy(
                update={"assembled": (*ct.assembled, moved), "selected": selected}
            )
        }
    )


@RULES.describes(ContraptionReassembled)
def _describe_reassembled(state: GameState, event: ContraptionReassembled) -> Message:
    return Message("ct.reassembled", card=event.card, start=event.start, end=event.end)


@RULES.applies(ContraptionUnexiled)
def _apply_unexiled(state: GameState, event: ContraptionUnexiled) -> GameState:
    ct = contraptions(state)
    gone = Gone(card=event.card, owner=event.owner)
    exile = list(ct.exile)
    if gone in exile:
        exile.remove(gone)
    return _ct_update(state, exile=tuple(exile), scrapyard=(*ct.scrapyard, gone))


@RULES.describes(ContraptionUnexiled)
def _describe_unexiled(state: GameState, event: ContraptionUnexiled) -> Message:
    return Message("ct.unexiled", card=event.card, owner=_name(state, event.owner))


@RULES.applies(ContraptionCopyScrapped)
def _apply_copy(state: GameState, event: ContraptionCopyScrapped) -> GameState:
    ct = contraptions(state)
    return _ct_update(
        state, scrapyard=(*ct.scrapyard, Gone(card=event.card, owner=event.owner, is_copy=True))
    )


@RULES.describes(ContraptionCopyScrapped)
def _describe_copy(state: GameState, event: ContraptionCopyScrapped) -> Message:
    return Message("ct.copy", card=event.card, owner=_name(state, event.owner))


# --- words the descriptions share ---------------------------------------------------------------


def _name(state: GameState, seat: int) -> str:
    return state.player(seat).name


def _crank_offer(
    state: GameState, seat: int, board: int | None, sprocket: int, sentence: bool = False
) -> Message:
    cards = [a.card for a in on_sprocket(contraptions(state), board, sprocket)]
    if not cards:
        return Message(
            "ct.crank_empty_sentence" if sentence else "ct.crank_empty", sprocket=sprocket
        )
    return Message(
        "ct.crank_any",
        name=_name(state, seat),
        cards=listing(cards, "text.list"),
        sprocket=sprocket,
    )


# --- what the screen shows (CT-7) --------------------------------------------------------------


def job_banner(state: GameState, job: Assembly) -> Message:
    if job.card is not None:
        return Message("ct.banner.sprocket", card=job.card)
    if job.looking:
        return Message("ct.banner.look", count=len(job.looking))
    if len(job.libraries) > 1:
        return Message(
            "ct.banner.choose_library", libraries=libraries_message(state, job.libraries)
        )
    return Message("ct.banner.tap")


# --- buttons and cards (CT-6) ------------------------------------------------------------------


@RULES.on_button(Button.ROLL)
def _roll_button(state: GameState, press: ButtonPressed) -> Command | None:
    """ROLL rolls the upkeep's contraption die when one is due (A, B); in variant C without
    Planechase it pays for an assembly roll in the main phase."""
    ct = state.contraptions
    if ct is None or press.long:
        return None
    up = current_upkeep(state)
    if up is not None and up.stage is Stage.ROLL:
        return RollContraptionDie()
    if ct.variant is Variant.PLANAR and state.step is Step.MAIN and not state.has("planechase"):
        return RollContraptionDie()
    return None


@RULES.on_button(Button.SELECT)
def _select_button(state: GameState, press: ButtonPressed) -> Command | None:
    """SELECT places the waiting contraption on the highlighted sprocket; held, it moves the
    highlight on (the encoder does the same through the kiosk)."""
    ct = state.contraptions
    if ct is None or ct.assembly is None or ct.assembly.card is None:
        return None
    return HighlightSprocket(step=1) if press.long else PlaceContraption()


@RULES.expects_cards
def _contraption_cards(state: GameState) -> Expected | None:
    """A physical card means a contraption in a Contraptions game: so a name no contraption has
    is "no contraption"; the table waits for one while a physical deck's assembly waits for its
    card."""
    ct = state.contraptions
    if ct is None:
        return None
    assembling = ct.physical and ct.assembly is not None and ct.assembly.card is None
    return Expected(load_catalog().contraptions(), waiting=assembling)


@RULES.on_card
def _contraption_card(state: GameState, card: Card) -> Command | None:
    """A tapped or named contraption: assemble it, or offer to scrap or reassemble it."""
    ct = state.contraptions
    if ct is None:
        return None
    if card.kind is CardKind.CONTRAPTION:
        return IdentifyContraption(card=card.name)
    # A planar card is Planechase's business; say what is wrong only when nothing else claims it.
    waiting = ct.assembly is not None and ct.assembly.card is None and ct.physical
    return IdentifyContraption(card=card.name) if waiting and not state.has("planechase") else None


RULES.says(TEXTS)
