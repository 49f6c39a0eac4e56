"""Physical contraption cards (CT-6): a card tapped on the reader or named with 'card' is the
one revealed for an assembly (or tells the active player to assemble), checked against the
libraries it may come from and the places it cannot."""

from __future__ import annotations

from random import Random

from device.catalog import Card, CardKind, card_kind, load_catalog
from device.errors import IllegalCommand
from device.events import Event
from device.rules.contraptions.changes import card_waiting
from device.rules.contraptions.commands import IdentifyContraption
from device.rules.contraptions.events import (
    AssemblyExpected,
    ContraptionAssembled,
    ContraptionIdentified,
)
from device.rules.contraptions.queries import (
    board_of,
    busy,
    contraptions,
    current_upkeep,
    libraries_message,
    library_message,
    library_of,
    name_of,
)
from device.rules.contraptions.sprockets import tapped_on_table
from device.rules.contraptions.state import Assembly, ContraptionsState, Stage, Variant
from device.rules.registry import Rules
from device.state import GameState
from device.text import Message

RULES = Rules("contraptions.physical")


def _contraption_card_named(card: str) -> Card:
    known = load_catalog().get(card)
    if known is None:
        raise IllegalCommand("ct.unknown_contraption", card=card)
    if known.kind is not CardKind.CONTRAPTION:
        raise IllegalCommand("ct.not_contraption", card=card, kind=card_kind(known.kind))
    return known


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


def check_in_libraries(state: GameState, card: str, job: Assembly) -> str:
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
    selected = tapped_on_table(state, card, waiting_for)
    if selected is not None:
        return [selected]
    seat = state.active if waiting_for is None else waiting_for
    _check_not_gone(state, card, seat if ct.variant is Variant.BASE else None)
    if not ct.physical:
        raise IllegalCommand("ct.virtual_deck")
    if job is not None and waiting_for is None:
        raise busy(state, job)
    if job is None:
        job = _assembly_told_by_card(state, known, seat)
    check_in_libraries(state, card, job)
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


@RULES.applies(ContraptionIdentified)
def _apply_identified(state: GameState, event: ContraptionIdentified) -> GameState:
    return card_waiting(state, event.library, event.card)


@RULES.describes(ContraptionIdentified)
def _describe_identified(state: GameState, event: ContraptionIdentified) -> Message:
    return Message("ct.identified", name=name_of(state, event.seat), card=event.card)
