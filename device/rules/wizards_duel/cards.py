"""Spell cards: each character's starting cards, and WD-2 phase 2, incantations (laying
mana-pool dice on spells, learning a market card, passing)."""

from __future__ import annotations

from random import Random

from device.errors import IllegalCommand
from device.events import Event
from device.rules.registry import Rules
from device.rules.wizards_duel.board import fresh, replace_card, with_spell
from device.rules.wizards_duel.commands import (
    DefineSpellCard,
    LearnSpell,
    PassIncantations,
    PaySpell,
)
from device.rules.wizards_duel.events import (
    IncantationsPassed,
    SpellCardDefined,
    SpellLearned,
    SpellPaid,
)
from device.rules.wizards_duel.queries import (
    BASIC_CARDS,
    MAX_CARD_NAME,
    MAX_STRENGTH,
    basic_cards,
    check_pool,
    duel_of,
    faces_text,
    find_card,
    in_phase,
    players_in,
    playing_wizard,
    spell_index,
    spell_name,
    spells_text,
    take,
)
from device.rules.wizards_duel.state import Spell, SpellCard, SpellKind, Wizard
from device.state import GameState
from device.text import Message, fold

RULES = Rules("wizards_duel.cards")


def _check_card(
    wizard: Wizard, owner: str, name: str, level: int | None, spells: tuple[Spell, ...]
) -> str:
    clean = " ".join(name.split())
    if not clean or len(clean) > MAX_CARD_NAME or not clean.isprintable():
        raise IllegalCommand("wd.card_name", limit=MAX_CARD_NAME)
    if any(fold(c.name) == fold(clean) for c in wizard.cards):
        raise IllegalCommand("wd.card_twice", name=owner, card=clean)
    if not 1 <= len(spells) <= 2:
        raise IllegalCommand("wd.card_spells", count=len(spells))
    for spell in spells:
        if not 1 <= spell.strength <= MAX_STRENGTH:
            raise IllegalCommand("wd.strength", strength=spell.strength, limit=MAX_STRENGTH)
        if spell.kind is not SpellKind.AREA and spell.others:
            raise IllegalCommand("wd.others", kind=Message(f"wd.kind.{spell.kind.value}"))
        if not 0 <= spell.others <= MAX_STRENGTH:
            raise IllegalCommand("wd.strength", strength=spell.others, limit=MAX_STRENGTH)
    if level is not None and not 0 <= level <= 2:
        raise IllegalCommand("wd.level", level=level)
    return clean


def _next_number(wizard: Wizard) -> int:
    return max((c.number for c in wizard.cards), default=0) + 1


@RULES.decides(DefineSpellCard)
def _define(state: GameState, command: DefineSpellCard, rng: Random) -> list[Event]:
    wizard = playing_wizard(state, command.seat)
    owner = state.player(command.seat).name
    name = _check_card(wizard, owner, command.name, command.level, command.spells)
    if basic_cards(wizard) >= BASIC_CARDS:
        raise IllegalCommand("wd.basic_cards", name=owner, count=BASIC_CARDS)
    card = SpellCard(
        number=_next_number(wizard),
        name=name,
        level=command.level,
        basic=True,
        spells=fresh(command.spells),
    )
    return [SpellCardDefined(seat=command.seat, card=card)]


@RULES.applies(SpellCardDefined)
def _apply_defined(state: GameState, event: SpellCardDefined) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    wizard = wizard.model_copy(update={"cards": wizard.cards + (event.card,)})
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(SpellCardDefined)
def _describe_defined(state: GameState, event: SpellCardDefined) -> Message:
    return Message(
        "wd.card_defined",
        name=state.player(event.seat).name,
        card=event.card.name,
        spells=spells_text(event.card.spells),
    )


def _incanting(state: GameState, seat: int, action: str) -> Wizard:
    in_phase(state, 2, action)
    wizard = playing_wizard(state, seat)
    if wizard.passed:
        raise IllegalCommand("wd.passed", name=state.player(seat).name)
    return wizard


@RULES.decides(PaySpell)
def _pay(state: GameState, command: PaySpell, rng: Random) -> list[Event]:
    wizard = _incanting(state, command.seat, "pay")
    card = find_card(wizard, command.card, state.player(command.seat).name)
    unpaid = [i for i, spell in enumerate(card.spells) if not spell.dice]
    # A card put down fresh takes dice on one of its spells; the other one later (the article).
    index = spell_index(card, command.spell, unpaid if card.on_table else [])
    if card.spells[index].dice:
        raise IllegalCommand("wd.spell_paid", card=card.name, number=index + 1)
    check_pool(state, wizard, command.dice)
    return [SpellPaid(seat=command.seat, card=card.number, spell=index, dice=command.dice)]


@RULES.applies(SpellPaid)
def _apply_paid(state: GameState, event: SpellPaid) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    card = with_spell(wizard.card(event.card), event.spell, dice=event.dice)
    wizard = replace_card(wizard, card).model_copy(
        update={"pool": take(wizard.pool, event.dice) or ()}
    )
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(SpellPaid)
def _describe_paid(state: GameState, event: SpellPaid) -> Message:
    card = duel_of(state).wizard(event.seat).card(event.card)
    label = spell_name(card, event.spell)
    return Message(
        "wd.paid", name=state.player(event.seat).name, faces=faces_text(event.dice), card=label
    )


@RULES.decides(LearnSpell)
def _learn(state: GameState, command: LearnSpell, rng: Random) -> list[Event]:
    wizard = _incanting(state, command.seat, "learn")
    duel = duel_of(state)
    owner = state.player(command.seat).name
    if wizard.learned:
        raise IllegalCommand("wd.learned_already", name=owner)
    if not 1 <= command.slot <= len(duel.market):
        raise IllegalCommand("wd.no_slot", slot=command.slot, count=len(duel.market))
    if not duel.market[command.slot - 1]:
        raise IllegalCommand("wd.slot_taken", slot=command.slot)
    name = _check_card(wizard, owner, command.name, command.level, command.spells)
    check_pool(state, wizard, command.dice)
    spells = fresh(command.spells)
    # The full cost goes down at once, on the spell learned: it is activated for this round.
    spells = (spells[0].model_copy(update={"dice": command.dice}), *spells[1:])
    card = SpellCard(
        number=_next_number(wizard), name=name, level=command.level, basic=False, spells=spells
    )
    return [SpellLearned(seat=command.seat, slot=command.slot - 1, card=card)]


@RULES.applies(SpellLearned)
def _apply_learned(state: GameState, event: SpellLearned) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    paid = event.card.spells[0].dice
    wizard = wizard.model_copy(
        update={
            "cards": wizard.cards + (event.card,),
            "pool": take(wizard.pool, paid) or (),
            "learned": True,
        }
    )
    market = list(duel.market)
    market[event.slot] = False
    duel = duel.with_wizard(wizard).model_copy(update={"market": tuple(market)})
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(SpellLearned)
def _describe_learned(state: GameState, event: SpellLearned) -> Message:
    return Message(
        "wd.learned",
        name=state.player(event.seat).name,
        slot=event.slot + 1,
        card=event.card.name,
        spells=spells_text(event.card.spells),
        faces=faces_text(event.card.spells[0].dice),
    )


@RULES.decides(PassIncantations)
def ready(state: GameState, command: PassIncantations, rng: Random) -> list[Event]:
    in_phase(state, 2, "ready")
    if command.seat is not None:
        _incanting(state, command.seat, "ready")
        return [IncantationsPassed(seat=command.seat)]
    seats = [w.seat for w in players_in(state) if not w.passed]
    if not seats:
        raise IllegalCommand("wd.nobody_ready")
    return [IncantationsPassed(seat=seat) for seat in seats]


@RULES.applies(IncantationsPassed)
def _apply_ready(state: GameState, event: IncantationsPassed) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat).model_copy(update={"passed": True})
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(IncantationsPassed)
def _describe_ready(state: GameState, event: IncantationsPassed) -> Message:
    return Message("wd.ready", name=state.player(event.seat).name)
