"""Wizard's Duel invariants (WD-1..WD-4) under random play, on the pure rules."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from device.game import GAME
from device import game as rules
from device.commands import Command, NewGame
from device.errors import IllegalCommand
from device.rules.wizards_duel.commands import (
    CastSpell,
    Defend,
    DefineSpellCard,
    DropOut,
    DuelNext,
    GatherMana,
    LearnSpell,
    PassCasting,
    PassIncantations,
    PaySpell,
    RollElementDice,
    SacrificePower,
    SetShieldDie,
)
from device.state import GameState
from device.rules.wizards_duel.state import Face, Spell, SpellKind

OPTIONS = {
    "chain_reaction": "on",
    "antimagic_shield": "on",
    "power_drain": "on",
    "power_sacrifice": "on",
    "spell_deck": "6",
}
KINDS = list(SpellKind)


def _subset(data: st.DataObject, faces: tuple[Face, ...]) -> tuple[Face, ...]:
    return tuple(f for f in faces if data.draw(st.booleans()))


def _command(data: st.DataObject, state: GameState) -> Command:
    duel = state.wizards_duel
    assert duel is not None
    seats = [p.seat for p in state.players if p.in_game]
    seat = data.draw(st.sampled_from(seats))
    wizard = duel.wizard(seat)
    cards = [c.name for c in wizard.cards] or ["none"]
    spell = Spell(
        kind=data.draw(st.sampled_from(KINDS)),
        strength=data.draw(st.integers(1, 12)),
        school=data.draw(st.sampled_from(list(Face))),
    )
    choice = data.draw(st.integers(0, 13))
    if choice >= 7:
        return _later_command(data, state, choice, seat, cards)
    if choice == 0:
        return RollElementDice()
    if choice == 1:
        return GatherMana(seat=seat, aside=_subset(data, wizard.rolled or ()))
    if choice == 2:
        return SetShieldDie(
            seat=seat, face=data.draw(st.sampled_from(wizard.rolled or (Face.FIRE,)))
        )
    if choice == 3:
        return DefineSpellCard(
            seat=seat,
            name=f"c{len(wizard.cards)}",
            level=data.draw(st.sampled_from([None, 0, 1, 2])),
            spells=(spell,),
        )
    if choice == 4:
        return PaySpell(
            seat=seat, card=data.draw(st.sampled_from(cards)), dice=_subset(data, wizard.pool)
        )
    if choice == 5:
        return LearnSpell(
            seat=seat,
            slot=data.draw(st.integers(1, 4)),
            name=f"l{len(wizard.cards)}",
            level=data.draw(st.sampled_from([None, 1, 2])),
            spells=(spell,),
            dice=_subset(data, wizard.pool),
        )
    return PassIncantations()


def _later_command(
    data: st.DataObject, state: GameState, choice: int, seat: int, cards: list[str]
) -> Command:
    """Phase 3 on, a player falling, and the odd ones out (choices 7–13)."""
    duel = state.wizards_duel
    assert duel is not None
    seats = [p.seat for p in state.players if p.in_game]
    wizard = duel.wizard(seat)
    if choice == 7:
        mover = duel.to_move if duel.to_move is not None else seat
        mover_cards = [c.name for c in duel.wizard(mover).cards] or ["none"]
        return CastSpell(
            seat=mover,
            card=data.draw(st.sampled_from(mover_cards)),
            target=data.draw(st.sampled_from([s for s in seats if s != mover] or [mover])),
            chain_to=data.draw(st.sampled_from(["reserve", "pool"])),
        )
    if choice == 8:
        target = duel.attack.target if duel.attack is not None else seat
        defender = duel.wizard(target)
        how = data.draw(st.sampled_from(["none", "heal", "reserve", "counter", "drain"]))
        return Defend(
            seat=target,
            how=how,
            card=data.draw(st.sampled_from([c.name for c in defender.cards] or ["x"])),
            count=data.draw(st.integers(0, 4)),
            dice=_subset(data, defender.pool),
        )
    if choice == 9:
        return PassCasting(seat=duel.to_move if duel.to_move is not None else seat)
    if choice == 10:
        return SacrificePower(seat=seat, card=data.draw(st.sampled_from(cards)))
    if choice == 11:
        return DropOut(seat=seat)
    return DuelNext() if choice == 12 else GatherMana(seat=seat, aside=wizard.rolled or ())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 4), st.integers(0, 2**32))
def test_wd_dice_are_conserved_and_magic_never_goes_below_zero(
    data: st.DataObject, players: int, seed: int
) -> None:
    """WD-1..WD-4: every player's dice stay a fixed total across hand, reserve, mana pool, spells,
    shield, set-aside and removed; magic points are never below 0, and 0 means out (or deciding on
    the power sacrifice)."""
    rng = random.Random(seed)
    names = tuple("ABCD"[:players])
    state = rules.fold(
        rules.decide(None, NewGame(formats=("wizards_duel",), players=names, options=OPTIONS), rng)
    )
    dice = 5 + (6 if players == 4 else 7)
    reached = 1
    for _ in range(data.draw(st.integers(20, 160))):
        if GAME.outcome(state) is not None:
            break
        command = _command(data, state)
        try:
            events = rules.decide(state, command, rng)
        except IllegalCommand:
            continue
        state = rules.fold(events, state)
        duel = state.wizards_duel
        assert duel is not None
        reached = max(reached, 10 * duel.round + duel.phase)
        for wizard in duel.wizards:
            assert wizard.total_dice() == dice
            assert min(wizard.hand, wizard.reserve, wizard.aside) >= 0
            assert wizard.magic >= 0
            player = state.player(wizard.seat)
            if wizard.magic == 0:
                assert not player.in_game or wizard.falling
    event(f"reached round {reached // 10} phase {reached % 10}")
