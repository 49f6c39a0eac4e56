"""Assembling a contraption (CT-2, CT-3, CT-A2..A4, CT-C2): an assembly announced, the
library chosen, the top card revealed, the sprocket chosen and the card placed; the cards looked
at after an assembly roll; an assembly declined, refused while it is mandatory, or lapsing when
the turn passes."""

from __future__ import annotations

from random import Random
from typing import Literal

from device.errors import IllegalCommand
from device.events import Event
from device.rules.contraptions.changes import card_waiting, changed, upkeep_changed
from device.rules.contraptions.commands import (
    AssembleContraption,
    DeclineAssembly,
    HighlightSprocket,
    KeepLooked,
    PlaceContraption,
)
from device.rules.contraptions.events import (
    AssemblyDeclined,
    AssemblyExpected,
    AssemblyLibraryChosen,
    ContraptionAssembled,
    ContraptionRevealed,
    LibraryReordered,
    NothingAssembled,
    SprocketHighlighted,
)
from device.rules.contraptions.physical import check_in_libraries
from device.rules.contraptions.queries import (
    board_message,
    board_of,
    busy,
    checked_sprocket,
    contraptions,
    current_upkeep,
    job_banner,
    libraries_message,
    library_message,
    library_of,
    name_of,
    need_variant,
)
from device.rules.contraptions.state import (
    Assembled,
    Assembly,
    ContraptionsState,
    Gone,
    Library,
    Stage,
    Upkeep,
    Variant,
)
from device.rules.registry import Rules
from device.rules.table import check_seat
from device.state import GameState
from device.text import Message, listing

RULES = Rules("contraptions.assembly")


def _faction_index(ct: ContraptionsState, library: int | None) -> int | None:
    if library is None:
        return None
    need_variant(ct, Variant.FACTIONS)
    if not 1 <= library <= 5:
        raise IllegalCommand("ct.bad_library", library=library)
    return library - 1


@RULES.decides(AssembleContraption)
def _assemble(state: GameState, command: AssembleContraption, rng: Random) -> list[Event]:
    ct = contraptions(state)
    seat = state.active if command.seat is None else command.seat
    check_seat(state, seat)
    sprocket = checked_sprocket(command.sprocket)
    library = _faction_index(ct, command.library)
    job = ct.assembly
    if job is not None:
        if job.seat != seat or job.card is not None or job.looking:
            raise busy(state, job)
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


@RULES.applies(AssemblyExpected)
def _apply_expected(state: GameState, event: AssemblyExpected) -> GameState:
    job = Assembly(
        seat=event.seat, board=event.board, libraries=(event.library,), sprocket=event.sprocket
    )
    return changed(state, assembly=job)


@RULES.describes(AssemblyExpected)
def _describe_expected(state: GameState, event: AssemblyExpected) -> Message:
    key = "ct.expected_physical" if contraptions(state).physical else "ct.expected"
    return Message(
        key, name=name_of(state, event.seat), library=library_message(state, event.library)
    )


@RULES.applies(AssemblyLibraryChosen)
def _apply_chosen(state: GameState, event: AssemblyLibraryChosen) -> GameState:
    job = contraptions(state).assembly
    if job is None:
        return state
    return changed(
        state,
        assembly=job.model_copy(update={"libraries": (event.library,), "sprocket": event.sprocket}),
    )


@RULES.describes(AssemblyLibraryChosen)
def _describe_chosen(state: GameState, event: AssemblyLibraryChosen) -> Message:
    return Message(
        "ct.library_chosen",
        name=name_of(state, event.seat),
        library=library_message(state, event.library),
    )


def _library_update(
    ct: ContraptionsState, index: int, cards: tuple[str, ...]
) -> tuple[Library, ...]:
    libraries = list(ct.libraries)
    libraries[index] = libraries[index].model_copy(update={"cards": cards})
    return tuple(libraries)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    at = cards.index(card) if card in cards else -1
    return cards if at < 0 else cards[:at] + cards[at + 1 :]


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
        return None, upkeep_changed(state, stage=stage) or up
    return None, up


def reveal_if_one_way(state: GameState) -> list[Event]:
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


@RULES.applies(ContraptionRevealed)
def _apply_revealed(state: GameState, event: ContraptionRevealed) -> GameState:
    return card_waiting(state, event.library, event.card)


@RULES.describes(ContraptionRevealed)
def _describe_revealed(state: GameState, event: ContraptionRevealed) -> Message:
    return Message(
        "ct.revealed",
        name=name_of(state, event.seat),
        card=event.card,
        library=library_message(state, event.library),
    )


@RULES.applies(NothingAssembled)
def _apply_nothing(state: GameState, event: NothingAssembled) -> GameState:
    ct = contraptions(state)
    if ct.assembly is None:
        return state
    job, up = _finish_job(state, ct, ct.assembly.model_copy(update={"remaining": 1}))
    return changed(state, assembly=job, upkeep=up)


@RULES.describes(NothingAssembled)
def _describe_nothing(state: GameState, event: NothingAssembled) -> Message:
    job = contraptions(state).assembly
    indexes = (event.library,) if event.library is not None else (job.libraries if job else ())
    return Message("ct.nothing", library=libraries_message(state, indexes) if indexes else "")


@RULES.decides(PlaceContraption)
def _place(state: GameState, command: PlaceContraption, rng: Random) -> list[Event]:
    ct = contraptions(state)
    job = ct.assembly
    if job is None:
        raise IllegalCommand("ct.nothing_pending")
    if job.card is None or job.library is None:
        raise IllegalCommand("ct.no_card_yet", what=str(job_banner(state, job)))
    sprocket = checked_sprocket(command.sprocket) or job.highlight
    return [
        ContraptionAssembled(
            seat=job.seat, library=job.library, card=job.card, board=job.board, sprocket=sprocket
        )
    ]


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
        name=name_of(state, event.seat),
        card=event.card,
        board=board_message(event.board, state),
        sprocket=event.sprocket,
    )


@RULES.decides(HighlightSprocket)
def _highlight(state: GameState, command: HighlightSprocket, rng: Random) -> list[Event]:
    job = contraptions(state).assembly
    if job is None:
        raise IllegalCommand("ct.nothing_pending")
    if job.card is None:
        raise IllegalCommand("ct.no_card_yet", what=str(job_banner(state, job)))
    return [SprocketHighlighted(sprocket=(job.highlight - 1 + command.step) % 3 + 1)]


@RULES.applies(SprocketHighlighted)
def _apply_highlight(state: GameState, event: SprocketHighlighted) -> GameState:
    job = contraptions(state).assembly
    if job is None:
        return state
    return changed(state, assembly=job.model_copy(update={"highlight": event.sprocket}))


@RULES.describes(SprocketHighlighted)
def _describe_highlight(state: GameState, event: SprocketHighlighted) -> Message:
    job = contraptions(state).assembly
    return Message(
        "ct.highlight", sprocket=event.sprocket, card=job.card if job and job.card else "?"
    )


@RULES.decides(KeepLooked)
def _keep(state: GameState, command: KeepLooked, rng: Random) -> list[Event]:
    ct = contraptions(state)
    job = ct.assembly
    if job is None or not job.looking:
        raise IllegalCommand("ct.not_looking")
    sprocket = checked_sprocket(command.sprocket)
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


@RULES.applies(LibraryReordered)
def _apply_reordered(state: GameState, event: LibraryReordered) -> GameState:
    ct = contraptions(state)
    moved = set(event.top) | set(event.bottom)
    middle = tuple(c for c in ct.libraries[event.library].cards if c not in moved)
    return changed(
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


def lapse(state: GameState) -> list[Event]:
    ct = contraptions(state)
    if ct.assembly is None:
        return []
    return [_decline(state, ct.assembly, None, lapsed=True)]


@RULES.decides(DeclineAssembly)
def _decline_command(state: GameState, command: DeclineAssembly, rng: Random) -> list[Event]:
    ct = contraptions(state)
    job = ct.assembly
    if job is None:
        raise IllegalCommand("ct.nothing_pending")
    _refuse_unless_assembled(state, ct, job)
    named = None
    if command.card is not None and job.card is None:
        named = check_in_libraries(state, command.card, job)
    return [_decline(state, job, named)]


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
            upkeep_changed(
                state, stage=Stage.MOVE if ct.variant is Variant.FACTIONS else Stage.DONE
            )
            or up
        )
    return state.model_copy(
        update={"contraptions": ct.model_copy(update={"assembly": None, "upkeep": up})}
    )


@RULES.describes(AssemblyDeclined)
def _describe_declined(state: GameState, event: AssemblyDeclined) -> Message:
    name = name_of(state, event.seat)
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
