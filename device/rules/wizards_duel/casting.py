"""WD-2 phase 3, casting: spells cast, WD-4's chain reaction, an attack defended (healing,
reserve dice, a counterattack, WD-4's power drain) and the damage it deals, passing."""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from device.errors import IllegalCommand
from device.events import Event
from device.rules.registry import Rules
from device.rules.wizards_duel.board import replace_card, update_wizard, with_spell
from device.rules.wizards_duel.commands import CastSpell, Defend, PassCasting
from device.rules.wizards_duel.events import (
    AttackDefended,
    CastingPassed,
    Cause,
    ChainDiceReturned,
    MagicChanged,
    SpellCast,
)
from device.rules.wizards_duel.magic import Batch
from device.rules.wizards_duel.queries import (
    check_pool,
    duel_of,
    find_card,
    in_phase,
    need_option,
    option,
    players_in,
    playing_wizard,
    seat_names,
    spell_index,
    spell_name,
    take,
    untargetable,
)
from device.rules.wizards_duel.state import Attack, SpellCard, SpellKind, Wizard
from device.state import GameState
from device.text import Message

RULES = Rules("wizards_duel.casting")


DRAIN_DAMAGE = 2  # WD-4 power drain


def _chain_return(wizard: Wizard, card: SpellCard) -> int:
    """WD-4 chain reaction: a level-1 spell right after a level 0 gives back 1 die; a level 2 after
    that gives back 2.  Anything else starts a new chain (level 0) or breaks it."""
    if card.level is not None and card.level > 0 and wizard.chain == card.level - 1:
        return card.level
    return 0


def _next_chain(wizard: Wizard, card: SpellCard) -> int:
    if card.level == 0:
        return 0
    if card.level is not None and card.level > 0 and wizard.chain == card.level - 1:
        return card.level
    return -1


@RULES.decides(CastSpell)
def _cast(state: GameState, command: CastSpell, rng: Random) -> list[Event]:
    duel = in_phase(state, 3, "cast")
    wizard = playing_wizard(state, command.seat)
    if duel.to_move != command.seat:
        raise IllegalCommand(
            "wd.not_your_turn",
            name=state.player(duel.to_move).name
            if duel.to_move is not None
            else Message("wd.nobody"),
        )
    card = find_card(wizard, command.card, state.player(command.seat).name)
    ready = [i for i, spell in enumerate(card.spells) if spell.ready]
    if command.spell is None and not ready:
        raise IllegalCommand(
            "wd.nothing_ready", name=state.player(command.seat).name, card=card.name
        )
    index = spell_index(card, command.spell, ready)
    spell = card.spells[index]
    if not spell.ready:
        raise IllegalCommand("wd.spell_used", card=card.name, number=index + 1)
    target = command.target
    if spell.kind is SpellKind.HEALING:
        if target is not None and target != command.seat:
            raise IllegalCommand("wd.heal_self")
        target = None
    else:
        if target is None:
            raise IllegalCommand("wd.need_target", kind=Message(f"wd.kind.{spell.kind.value}"))
        playing_wizard(state, target)
        if target == command.seat:
            raise IllegalCommand("wd.target_self")
        if untargetable(duel, target):
            raise IllegalCommand("wd.untargetable", name=state.player(target).name)
    batch = Batch(state)
    batch.add(SpellCast(seat=command.seat, card=card.number, spell=index, target=target))
    if option(state, "chain_reaction"):
        back = _chain_return(wizard, card)
        if back:
            batch.add(
                ChainDiceReturned(
                    seat=command.seat,
                    card=card.number,
                    spell=index,
                    count=min(back, len(spell.dice)),
                    to=command.chain_to,
                )
            )
    if spell.kind is SpellKind.HEALING:
        batch.heal(command.seat, spell.strength, "heal", spell.school)
    return batch.events


@RULES.applies(ChainDiceReturned)
def _apply_chain(state: GameState, event: ChainDiceReturned) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    card = wizard.card(event.card)
    dice = card.spells[event.spell].dice
    back, kept = dice[: event.count], dice[event.count :]
    wizard = replace_card(wizard, with_spell(card, event.spell, dice=kept))
    if event.to == "pool":
        wizard = wizard.model_copy(update={"pool": wizard.pool + back})
    else:
        wizard = wizard.model_copy(update={"reserve": wizard.reserve + len(back)})
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(ChainDiceReturned)
def _describe_chain(state: GameState, event: ChainDiceReturned) -> Message:
    card = duel_of(state).wizard(event.seat).card(event.card)
    return Message(
        "wd.chain",
        name=state.player(event.seat).name,
        count=event.count,
        card=card.name,
        to=Message(f"wd.to.{event.to}"),
    )


@RULES.applies(SpellCast)
def _apply_cast(state: GameState, event: SpellCast) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    card = wizard.card(event.card)
    spell = card.spells[event.spell]
    wizard = replace_card(wizard, with_spell(card, event.spell, cast=True))
    wizard = wizard.model_copy(update={"chain": _next_chain(duel.wizard(event.seat), card)})
    if spell.kind is SpellKind.HEALING:
        wizard = wizard.model_copy(update={"turn_over": True})
        return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})
    attack = Attack(
        caster=event.seat,
        card=event.card,
        spell=event.spell,
        target=event.target or 0,
        kind=spell.kind,
        strength=spell.strength,
        school=spell.school,
        others=spell.others,
    )
    return state.model_copy(
        update={"wizards_duel": duel.with_wizard(wizard).model_copy(update={"attack": attack})}
    )


@RULES.describes(SpellCast)
def _describe_cast(state: GameState, event: SpellCast) -> Message:
    card = duel_of(state).wizard(event.seat).card(event.card)
    spell = card.spells[event.spell]
    label = spell_name(card, event.spell)
    name = state.player(event.seat).name
    if spell.kind is SpellKind.HEALING:
        return Message("wd.cast_heal", name=name, card=label, strength=spell.strength)
    strength = (
        f"{spell.strength}/{spell.others}" if spell.kind is SpellKind.AREA else str(spell.strength)
    )
    return Message(
        "wd.cast_attack",
        name=name,
        card=label,
        kind=Message(f"wd.kind.{spell.kind.value}"),
        strength=strength,
        school=Message(f"wd.face.{spell.school.value}"),
        target=state.player(event.target or 0).name,
    )


@RULES.decides(Defend)
def defend(state: GameState, command: Defend, rng: Random) -> list[Event]:
    duel = duel_of(state)
    falling = [w.seat for w in players_in(state) if w.falling]
    if falling:
        raise IllegalCommand("wd.falling_wait", names=seat_names(state, falling))
    wizard = playing_wizard(state, command.seat)
    attack = duel.attack
    if attack is None or attack.target != command.seat:
        raise IllegalCommand("wd.no_attack", name=state.player(command.seat).name)
    event = AttackDefended(seat=command.seat, how=command.how)
    way = _DEFENCES.get(command.how)
    damage, event = way(state, command, wizard, attack, event) if way else (attack.strength, event)
    batch = Batch(state)
    batch.add(event)
    if command.how == "counter":
        batch.hurt(attack.caster, len(command.dice), "counter", command.seat)
    kind: Cause = "area" if attack.kind is SpellKind.AREA else "spell"
    batch.hurt(command.seat, damage, kind, attack.caster, attack.school)
    if command.how == "reserve":
        batch.hurt(command.seat, 1, "fatigue", None)
    if attack.kind is SpellKind.AREA:
        for other in players_in(state):
            if other.seat not in (attack.caster, attack.target):
                batch.hurt(other.seat, attack.others, "area", attack.caster, attack.school)
    if command.how == "drain":
        _drain(state, batch, command.seat)
    return batch.events


@RULES.applies(AttackDefended)
def _apply_defended(state: GameState, event: AttackDefended) -> GameState:
    duel = duel_of(state)
    attack = duel.attack
    wizard = duel.wizard(event.seat)
    if event.how == "heal" and event.card is not None and event.spell is not None:
        wizard = replace_card(wizard, with_spell(wizard.card(event.card), event.spell, cast=True))
    elif event.how == "reserve":
        wizard = wizard.model_copy(
            update={
                "reserve": wizard.reserve - event.count,
                "aside": wizard.aside + event.count,
                "fatigue": wizard.fatigue + 1,
            }
        )
    elif event.how == "counter":
        wizard = wizard.model_copy(
            update={
                "pool": take(wizard.pool, event.dice) or (),
                "aside": wizard.aside + len(event.dice),
            }
        )
    elif event.how == "drain":
        wizard = wizard.model_copy(
            update={
                "reserve": wizard.reserve - 1,
                "removed": wizard.removed + 1,
                "drain_used": True,
            }
        )
    duel = duel.with_wizard(wizard).model_copy(update={"attack": None})
    if attack is not None:
        duel = duel.with_wizard(duel.wizard(attack.caster).model_copy(update={"turn_over": True}))
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(AttackDefended)
def _describe_defended(state: GameState, event: AttackDefended) -> Message:
    name = state.player(event.seat).name
    if event.how == "heal" and event.card is not None and event.spell is not None:
        card = duel_of(state).wizard(event.seat).card(event.card)
        return Message(
            "wd.defend.heal", name=name, card=card.name, strength=card.spells[event.spell].strength
        )
    return Message(f"wd.defend.{event.how}", name=name, count=event.count)


#: A defence checks that it may be made and says how much of the attack still hurts, and what the
#: event records of it; "none" takes the attack whole.
Defence = Callable[[GameState, Defend, Wizard, Attack, AttackDefended], tuple[int, AttackDefended]]


def _defend_heal(
    state: GameState, command: Defend, wizard: Wizard, attack: Attack, event: AttackDefended
) -> tuple[int, AttackDefended]:
    card = find_card(wizard, command.card or "", state.player(command.seat).name)
    ready = [i for i, s in enumerate(card.spells) if s.ready and s.kind is SpellKind.HEALING]
    index = spell_index(card, command.spell, ready)
    spell = card.spells[index]
    if spell.kind is not SpellKind.HEALING:
        raise IllegalCommand("wd.not_healing", card=card.name, number=index + 1)
    if not spell.ready:
        raise IllegalCommand("wd.spell_used", card=card.name, number=index + 1)
    # The healing does not heal: it weakens the attack, and any excess is lost.
    return max(0, attack.strength - spell.strength), event.model_copy(
        update={"card": card.number, "spell": index}
    )


def _defend_reserve(
    state: GameState, command: Defend, wizard: Wizard, attack: Attack, event: AttackDefended
) -> tuple[int, AttackDefended]:
    most = min(attack.strength, wizard.reserve)
    if not 1 <= command.count <= most:
        raise IllegalCommand(
            "wd.reserve_range", name=state.player(command.seat).name, most=most, count=command.count
        )
    return attack.strength - command.count, event.model_copy(update={"count": command.count})


def _defend_counter(
    state: GameState, command: Defend, wizard: Wizard, attack: Attack, event: AttackDefended
) -> tuple[int, AttackDefended]:
    check_pool(state, wizard, command.dice)
    return attack.strength, event.model_copy(
        update={"dice": command.dice, "count": len(command.dice)}
    )


def _defend_drain(
    state: GameState, command: Defend, wizard: Wizard, attack: Attack, event: AttackDefended
) -> tuple[int, AttackDefended]:
    need_option(state, "power_drain")
    name = state.player(command.seat).name
    if wizard.drain_used:
        raise IllegalCommand("wd.drain_used", name=name)
    if wizard.reserve < 1:
        raise IllegalCommand("wd.no_reserve", name=name)
    return attack.strength, event


_DEFENCES: dict[str, Defence] = {
    "heal": _defend_heal,
    "reserve": _defend_reserve,
    "counter": _defend_counter,
    "drain": _defend_drain,
}


def _drain(state: GameState, batch: Batch, seat: int) -> None:
    """Power drain: DRAIN_DAMAGE to every other wizard who still has magic points, and a point
    back to the drainer for each of them."""
    hit = 0
    for other in players_in(state):
        if other.seat != seat and batch.duel.wizard(other.seat).magic > 0:
            batch.hurt(other.seat, DRAIN_DAMAGE, "drain", seat)
            hit += 1
    if hit:
        batch.add(MagicChanged(seat=seat, delta=hit, cause="drained"))


@RULES.decides(PassCasting)
def hold(state: GameState, command: PassCasting, rng: Random) -> list[Event]:
    duel = in_phase(state, 3, "hold")
    playing_wizard(state, command.seat)
    if duel.to_move != command.seat:
        raise IllegalCommand(
            "wd.not_your_turn",
            name=state.player(duel.to_move).name
            if duel.to_move is not None
            else Message("wd.nobody"),
        )
    return [CastingPassed(seat=command.seat)]


@RULES.applies(CastingPassed)
def _apply_hold(state: GameState, event: CastingPassed) -> GameState:
    return update_wizard(state, event.seat, passed=True, turn_over=True, chain=-1)


@RULES.describes(CastingPassed)
def _describe_hold(state: GameState, event: CastingPassed) -> Message:
    return Message("wd.hold", name=state.player(event.seat).name)
