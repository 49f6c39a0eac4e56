"""Where Planechase's cards go: the decks and the face-up cards after a card is turned over,
put on the bottom or taken back, which the appliers of several events share (701.22b, 901.3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from device.rules.planechase.events import planechase
from device.rules.planechase.state import CardRef, FaceUpCard, PlanarDeck, PlanechaseState
from device.state import GameState

MIN_DECK = 10  # 901.3
MAX_PHENOMENA = 2  # 901.3
COMMUNAL_MIN = 40  # 901.15a: at least min(40, 10 × players)
MAX_DECK = 300


def owner_key(pc: PlanechaseState, card: FaceUpCard) -> int | None:
    return None if pc.communal else card.owner


def updated(state: GameState, **changes: object) -> GameState:
    pc = planechase(state)
    return state.model_copy(update={"planechase": pc.model_copy(update=changes)})


def with_deck(
    pc: PlanechaseState, owner: int | None, cards: Sequence[CardRef]
) -> tuple[PlanarDeck, ...]:
    return tuple(
        d.model_copy(update={"cards": tuple(cards)}) if d.owner == owner else d for d in pc.decks
    )


def taken_from(pc: PlanechaseState, owner: int | None, name: str) -> tuple[PlanarDeck, ...]:
    """The decks after a card was turned over from ``owner``'s: a physical card taken from among
    those nobody has seen leaves one fewer unseen."""
    deck = pc.deck(owner)
    if deck is None:
        return pc.decks
    index = next((i for i, c in enumerate(deck.cards) if c.name == name), None)
    if (
        index is None and deck.physical and not deck.listed
    ):  # one of the cards it never saw, from above
        taken = deck.model_copy(update={"unseen": max(0, deck.unseen - 1)})
        return tuple(taken if d.owner == owner else d for d in pc.decks)
    if index is None:
        return pc.decks
    taken = deck.model_copy(
        update={
            "cards": deck.cards[:index] + deck.cards[index + 1 :],
            "unseen": deck.unseen - (index < deck.unseen),
        }
    )
    return tuple(taken if d.owner == owner else d for d in pc.decks)


def to_bottom(
    pc: PlanechaseState, owner: int | None, cards: Sequence[CardRef]
) -> tuple[PlanarDeck, ...]:
    """The decks after ``cards`` went to the bottom of ``owner``'s, in order (701.22b).  An
    unlisted physical deck keeps them too, and how many cards at least lie above them: a deck
    has ten cards or more (901.3), less those of it still face up."""
    deck = pc.deck(owner)
    if deck is None or not cards:
        return pc.decks
    if not deck.tracked and not deck.physical:
        return pc.decks
    below = (*deck.cards, *cards)
    unseen = deck.unseen
    if not deck.listed:
        face_up = sum(1 for c in pc.face_up if owner_key(pc, c) == owner)
        unseen = max(unseen, MIN_DECK - face_up - len(below))
    bottomed = deck.model_copy(update={"cards": below, "unseen": unseen})
    return tuple(bottomed if d.owner == owner else d for d in pc.decks)


def all_to_bottom(pc: PlanechaseState, away: Sequence[FaceUpCard]) -> PlanechaseState:
    """Every card of ``away`` to the bottom of its owner's deck, in order (``pc`` without them
    face up)."""
    owners: list[int | None] = []
    for card in away:
        if owner_key(pc, card) not in owners:
            owners.append(owner_key(pc, card))
    for owner in owners:
        cards = [CardRef(name=c.name, kind=c.kind) for c in away if owner_key(pc, c) == owner]
        pc = pc.model_copy(update={"decks": to_bottom(pc, owner, cards)})
    return pc


def removed(cards: Sequence[CardRef], names: Iterable[str]) -> list[CardRef]:
    left = list(cards)
    for name in names:
        for i, card in enumerate(left):
            if card.name == name:
                del left[i]
                break
    return left


def deck_cards(pc: PlanechaseState, owner: int | None) -> list[CardRef]:
    deck = pc.deck(owner)
    return list(deck.cards) if deck is not None else []


def face_up_card(pc: PlanechaseState, card: CardRef, deck: int | None, marker: int) -> FaceUpCard:
    return FaceUpCard(name=card.name, kind=card.kind, owner=deck, marker=marker)
