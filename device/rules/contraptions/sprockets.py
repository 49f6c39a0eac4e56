"""Contraptions on the sprockets (CT-5): one tapped and selected, scrapped, exiled or
reassembled onto another sprocket; one returned from exile, or a copy entering, goes to the
scrapyard."""

from __future__ import annotations

from random import Random

from device.catalog import load_catalog
from device.errors import IllegalCommand
from device.events import Event
from device.rules.contraptions.changes import changed
from device.rules.contraptions.commands import (
    CopyEnters,
    ExileContraption,
    ReassembleContraption,
    ScrapContraption,
    UnexileContraption,
)
from device.rules.contraptions.events import (
    ContraptionCopyScrapped,
    ContraptionExiled,
    ContraptionReassembled,
    ContraptionScrapped,
    ContraptionSelected,
    ContraptionUnexiled,
)
from device.rules.contraptions.queries import checked_sprocket, contraptions, name_of
from device.rules.contraptions.state import Assembled, ContraptionsState, Gone, Variant
from device.rules.registry import Rules
from device.rules.table import check_seat
from device.state import GameState
from device.text import Message, listing

RULES = Rules("contraptions.sprockets")


def tapped_on_table(
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


@RULES.applies(ContraptionSelected)
def _apply_selected(state: GameState, event: ContraptionSelected) -> GameState:
    ct = contraptions(state)
    found = next((a for a in ct.assembled if a.card == event.card and a.owner == event.owner), None)
    return changed(state, selected=found)


@RULES.describes(ContraptionSelected)
def _describe_selected(state: GameState, event: ContraptionSelected) -> Message:
    ct = contraptions(state)
    found = next((a for a in ct.assembled if a.card == event.card and a.owner == event.owner), None)
    return Message(
        "ct.selected",
        card=event.card,
        owner=name_of(state, event.owner),
        sprocket=found.sprocket if found else "?",
    )


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


def _take_off(
    ct: ContraptionsState, card: str, owner: int
) -> tuple[ContraptionsState, Assembled | None]:
    found = next((a for a in ct.assembled if a.card == card and a.owner == owner), None)
    if found is None:
        return ct, None
    rest = tuple(a for a in ct.assembled if a is not found)
    selected = None if ct.selected == found else ct.selected
    return ct.model_copy(update={"assembled": rest, "selected": selected}), found


@RULES.decides(ScrapContraption)
def _scrap(state: GameState, command: ScrapContraption, rng: Random) -> list[Event]:
    found = _find_assembled(state, command.card, command.owner)
    return [ContraptionScrapped(card=found.card, owner=found.owner)]


@RULES.applies(ContraptionScrapped)
def _apply_scrapped(state: GameState, event: ContraptionScrapped) -> GameState:
    ct, _ = _take_off(contraptions(state), event.card, event.owner)
    ct = ct.model_copy(
        update={"scrapyard": (*ct.scrapyard, Gone(card=event.card, owner=event.owner))}
    )
    return state.model_copy(update={"contraptions": ct})


@RULES.describes(ContraptionScrapped)
def _describe_scrapped(state: GameState, event: ContraptionScrapped) -> Message:
    return Message("ct.scrapped", card=event.card, owner=name_of(state, event.owner))


@RULES.decides(ExileContraption)
def _exile(state: GameState, command: ExileContraption, rng: Random) -> list[Event]:
    found = _find_assembled(state, command.card, command.owner)
    return [ContraptionExiled(card=found.card, owner=found.owner)]


@RULES.applies(ContraptionExiled)
def _apply_exiled(state: GameState, event: ContraptionExiled) -> GameState:
    ct, _ = _take_off(contraptions(state), event.card, event.owner)
    ct = ct.model_copy(update={"exile": (*ct.exile, Gone(card=event.card, owner=event.owner))})
    return state.model_copy(update={"contraptions": ct})


@RULES.describes(ContraptionExiled)
def _describe_exiled(state: GameState, event: ContraptionExiled) -> Message:
    return Message("ct.exiled", card=event.card)


@RULES.decides(ReassembleContraption)
def _reassemble(state: GameState, command: ReassembleContraption, rng: Random) -> list[Event]:
    sprocket = checked_sprocket(command.sprocket)
    assert sprocket is not None
    found = _find_assembled(state, command.card, command.owner)
    if found.sprocket == sprocket:
        raise IllegalCommand("ct.same_sprocket", card=found.card, sprocket=sprocket)
    return [
        ContraptionReassembled(
            card=found.card, owner=found.owner, start=found.sprocket, end=sprocket
        )
    ]


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


@RULES.applies(ContraptionUnexiled)
def _apply_unexiled(state: GameState, event: ContraptionUnexiled) -> GameState:
    ct = contraptions(state)
    gone = Gone(card=event.card, owner=event.owner)
    exile = list(ct.exile)
    if gone in exile:
        exile.remove(gone)
    return changed(state, exile=tuple(exile), scrapyard=(*ct.scrapyard, gone))


@RULES.describes(ContraptionUnexiled)
def _describe_unexiled(state: GameState, event: ContraptionUnexiled) -> Message:
    return Message("ct.unexiled", card=event.card, owner=name_of(state, event.owner))


@RULES.decides(CopyEnters)
def _copy(state: GameState, command: CopyEnters, rng: Random) -> list[Event]:
    contraptions(state)
    check_seat(state, command.owner)
    if command.card not in load_catalog().contraptions():
        raise IllegalCommand("ct.unknown_contraption", card=command.card)
    return [ContraptionCopyScrapped(card=command.card, owner=command.owner)]


@RULES.applies(ContraptionCopyScrapped)
def _apply_copy(state: GameState, event: ContraptionCopyScrapped) -> GameState:
    ct = contraptions(state)
    return changed(
        state, scrapyard=(*ct.scrapyard, Gone(card=event.card, owner=event.owner, is_copy=True))
    )


@RULES.describes(ContraptionCopyScrapped)
def _describe_copy(state: GameState, event: ContraptionCopyScrapped) -> Message:
    return Message("ct.copy", card=event.card, owner=name_of(state, event.owner))
