"""WD-1: setting up the board (magic points, dice in hand and in reserve, the market and the
spell deck), and what several appliers share: one wizard changed, one spell of a card changed,
a card's spells fresh again."""

from __future__ import annotations

from random import Random

from device.commands import NewGame
from device.events import Event
from device.rules.registry import Rules
from device.rules.wizards_duel.events import DuelSetUp
from device.rules.wizards_duel.queries import HAND, NAME, duel_of
from device.rules.wizards_duel.state import Spell, SpellCard, Wizard, WizardsDuelState
from device.state import GameState
from device.text import Message

RULES = Rules("wizards_duel.board")


def reserve_for(players: int) -> int:
    """WD-1: 7 reserve dice each with 2 or 3 players, 6 with 4."""
    return 6 if players >= 4 else 7


@RULES.set_up
def _set_up(state: GameState, command: NewGame, rng: Random) -> list[Event]:
    if not state.has(NAME):
        return []
    count = len(state.players)
    market = count + 1
    deck = int(state.options.get("spell_deck", 30))
    return [
        DuelSetUp(
            magic=state.starting_life,
            hand=HAND,
            reserve=reserve_for(count),
            market=market,
            deck=deck - market,
        )
    ]


@RULES.applies(DuelSetUp)
def _apply_set_up(state: GameState, event: DuelSetUp) -> GameState:
    wizards = tuple(
        Wizard(seat=p.seat, magic=event.magic, hand=event.hand, reserve=event.reserve)
        for p in state.players
    )
    duel = WizardsDuelState(
        starting=state.starting_player,
        wizards=wizards,
        market=(True,) * event.market,
        deck=event.deck,
    )
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(DuelSetUp)
def _describe_set_up(state: GameState, event: DuelSetUp) -> Message:
    return Message(
        "wd.set_up",
        magic=event.magic,
        hand=event.hand,
        reserve=event.reserve,
        market=event.market,
        deck=event.deck,
        first=state.player(state.starting_player).name,
    )


def update_wizard(state: GameState, seat: int, **changes: object) -> GameState:
    """``state`` with the wizard at ``seat`` changed: what most appliers do."""
    duel = duel_of(state)
    return state.model_copy(
        update={"wizards_duel": duel.with_wizard(duel.wizard(seat).model_copy(update=changes))}
    )


def fresh(spells: tuple[Spell, ...]) -> tuple[Spell, ...]:
    """Spells with no dice on them, not cast: a card new or back at the round's end."""
    return tuple(spell.model_copy(update={"dice": (), "cast": False}) for spell in spells)


def replace_card(wizard: Wizard, card: SpellCard) -> Wizard:
    """``wizard`` with ``card`` in place of the card of its number."""
    return wizard.model_copy(
        update={"cards": tuple(card if c.number == card.number else c for c in wizard.cards)}
    )


def with_spell(card: SpellCard, index: int, **changes: object) -> SpellCard:
    """``card`` with its spell ``index`` changed."""
    spells = list(card.spells)
    spells[index] = spells[index].model_copy(update=changes)
    return card.model_copy(update={"spells": tuple(spells)})
