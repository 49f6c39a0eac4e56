"""Contraptions' libraries (CT-1, CT-A1): the set-up that deals each player's deck, the five
faction libraries or the shared deck, and opens the first upkeep; a player's own deck and
whether it is legal."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from device.catalog import Faction, load_catalog
from device.commands import NewGame
from device.errors import IllegalCommand
from device.events import Event
from device.rules.contraptions.changes import changed
from device.rules.contraptions.commands import SetContraptionDeck
from device.rules.contraptions.crank import begin_upkeep
from device.rules.contraptions.events import ContraptionDeckSet, ContraptionsSetUp
from device.rules.contraptions.queries import contraptions, library_message, name_of
from device.rules.contraptions.state import (
    FIRST_COUNTER,
    MIN_DECK,
    ContraptionsState,
    Library,
    Variant,
)
from device.rules.registry import Rules
from device.rules.table import check_seat
from device.state import GameState
from device.text import Message, listing

RULES = Rules("contraptions.decks")

MODULE = "contraptions"
FACTION_LIBRARY_SIZE = 9  # CT-A1


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
    return [setup, *begin_upkeep(ready, state.active, state.turn)]


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


def _problems(problems: Sequence[Message]) -> str | Message:
    """A deck's problems, "A; B", each language with its own mark between them."""
    head: str | Message = ""
    for problem in problems:
        head = problem if head == "" else Message("ct.problems", first=head, rest=problem)
    return head


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


@RULES.applies(ContraptionDeckSet)
def _apply_deck(state: GameState, event: ContraptionDeckSet) -> GameState:
    ct = contraptions(state)
    libraries = list(ct.libraries)
    libraries[event.seat] = Library(owner=event.seat, cards=event.cards)
    return changed(state, libraries=tuple(libraries))


@RULES.describes(ContraptionDeckSet)
def _describe_deck(state: GameState, event: ContraptionDeckSet) -> Message:
    shuffled: Message | str = "" if contraptions(state).physical else Message("ct.virtual_shuffled")
    return Message(
        "ct.deck_set", name=name_of(state, event.seat), count=len(event.cards), shuffled=shuffled
    )
