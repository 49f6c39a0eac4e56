"""Rules text for every plane and phenomenon, for the benchmarks that draw it.

Card data is imported by the user (``aetherbox catalog import``); none ships with the gadget,
so a benchmark that must see what a plane's text costs writes its own: each card gets a text of
its own, 180–320 characters in two or three sentences with card symbols, as planar cards read
(a static ability, then what rolling {CHAOS} does), put together from the sentences below by a
generator seeded with the card's name.  The same name always gets the same text.
"""

from __future__ import annotations

import random

from device.catalog import CardKind, load_catalog

STATIC = (
    "All creatures have flying and get +1/+0 as long as they attacked this turn.",
    "Whenever a player casts an instant or sorcery spell, that player may copy it. You may choose new targets for the copy.",
    "Creatures entering the battlefield enter with an additional +1/+1 counter on them for each land their controller controls.",
    "At the beginning of your upkeep, you may exile the top card of your library. Until end of turn, you may play that card.",
    "Spells cost {1} less to cast for each basic land type among lands their controller controls.",
    "Whenever a land enters the battlefield under your control, you gain 2 life and scry 1.",
    "Each creature with power 3 or greater can't block, and each player's maximum hand size is reduced by one.",
    "Players can't gain life. Whenever a creature dies, its controller loses 1 life and you draw a card.",
    "Green creature spells cost {G} less to cast, and creatures you control have trample while you control a Forest.",
    "{T}, Sacrifice a creature: Add {B}{B}{R}. Spend this mana only to cast spells with mana value 4 or greater.",
    "When you planeswalk to this plane, each player returns a creature card from their graveyard to the battlefield tapped.",
    "Artifacts and enchantments you control have hexproof. Whenever an opponent casts a spell, you may pay {2/U}: counter it.",
)
CHAOS = (
    "Whenever you roll {CHAOS}, untap all creatures you control. They gain haste until end of turn.",
    "Whenever you roll {CHAOS}, each player draws a card, then discards a card at random.",
    "Whenever you roll {CHAOS}, create a 2/2 green Wolf creature token for each opponent you have.",
    "Whenever you roll {CHAOS}, target player mills ten cards. You may put a land card from among them onto the battlefield.",
    "Whenever you roll {CHAOS}, destroy target artifact, creature or enchantment. Its controller scries 2.",
    "Whenever you roll {CHAOS}, put a +1/+1 counter on each creature you control and {W/P}: you gain 1 life.",
    "Whenever you roll {CHAOS}, exchange control of two target permanents that share a card type.",
    "Whenever you roll {CHAOS}, you may return target creature card with mana value 3 or less from your graveyard to your hand.",
)
PHENOMENON = (
    (
        "When you encounter this phenomenon, each player shuffles their hand and graveyard into their library, then draws "
        "seven cards. Then planeswalk away from this phenomenon."
    ),
    (
        "When you encounter this phenomenon, starting with you, each player may put a permanent card from their hand onto "
        "the battlefield. Then planeswalk away from this phenomenon."
    ),
)


def rules_text(name: str, phenomenon: bool = False) -> str:
    """The card ``name``'s text: its own, the same every time."""
    rng = random.Random(name)
    if phenomenon:
        return rng.choice(PHENOMENON)
    first, second = rng.sample(STATIC, 2) if rng.random() < 0.4 else (rng.choice(STATIC), "")
    return " ".join(part for part in (first, second, rng.choice(CHAOS)) if part)


def planar_cards() -> dict[str, bool]:
    """Every plane and phenomenon of the catalog, by name: whether it is a phenomenon."""
    return {
        card.name: card.kind is CardKind.PHENOMENON for card in load_catalog() if card.is_planar
    }
