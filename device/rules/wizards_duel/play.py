"""Wizard's Duel, "Pojedynek czarnoksiężnika" (SPEC section 6, WD-1..WD-4).

A round has four phases and its own idea of whose move it is, so the duel keeps its round,
phase and mover in ``GameState.wizards_duel`` rather than in the core's MTG-shaped turn and
step.  The core's ``active`` and ``turn`` follow along (the mover and the round) so anything
that shows "whose turn" still shows the right player.  A player who drops out is marked lost
with the core's ``PlayerLost`` (reason ``effect``), so "last player standing" ends the game as
in any format; an ending on points (magic lesson, the alternative ending) is kept in the
duel's state and ``device.state.outcome`` reports it.

Everything that follows from a command without a choice — the next phase-1 turn, the next
caster, the whole of phase 4, a player at 0 points dropping out — happens in state checks,
so it also follows a concession or an undo.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from random import Random

from device.commands import Command, NewGame
from device.errors import IllegalCommand
from device.events import Event, PlayerLost
from device.formats import Format, TableOption
from device.text import Message, Plural, Text, fold
from device.inputs import Button, ButtonPressed
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
from device.rules.wizards_duel.events import (
    AttackDefended,
    CastingPassed,
    CastingTurn,
    Cause,
    ChainDiceReturned,
    DuelEnded,
    DuelSetUp,
    ElementDiceRolled,
    GatherTurnStarted,
    IncantationsPassed,
    LastRollCalled,
    MagicChanged,
    ManaGathered,
    MarketRefreshed,
    PhaseStarted,
    PowerSacrificed,
    RoundCleanedUp,
    RoundStarted,
    ShieldAbsorbed,
    ShieldDieSet,
    SpellCardDefined,
    SpellCast,
    SpellLearned,
    SpellPaid,
    WizardDroppedOut,
    WizardFalling,
)
from device.rules.registry import Rules, apply_events, outcome
from device.rules.table import check_seat, round_from
from device.state import GameState, LossReason, Outcome, last_standing
from device.rules.wizards_duel.state import (
    Attack,
    Face,
    Spell,
    SpellCard,
    SpellKind,
    Wizard,
    WizardsDuelState,
)

RULES = Rules("wizards_duel")

NAME = "wizards_duel"
HAND = 5  # WD-1: element dice in hand
BASIC_CARDS = 3  # each character's starting spell cards (the article)
SACRIFICE_POINTS = 10  # WD-4 power sacrifice
DRAIN_DAMAGE = 2  # WD-4 power drain
LESSON_ROUNDS = 15  # WD-4 magic lesson
MAX_STRENGTH = 99
MAX_CARD_NAME = 32

RULES.format(
    Format(
        NAME,
        "Wizard's Duel",
        "base",
        starting_life=35,
        min_players=2,
        max_players=4,
        aliases=("pojedynek", "pojedynek czarnoksieznika", "duel of wizards"),
        excludes=frozenset({"planechase", "contraptions"}),
        tracks_life=False,
        # a duel moves in phases, two of them with everyone at once
        turns=False,
        seats=False,
    )
)
for _table_option in (
    TableOption(
        "chain_reaction",
        NAME,
        "Chain reaction: level 0, 1, 2 spells cast on consecutive turns give back 1, then 2 dice.",
        False,
    ),
    TableOption(
        "antimagic_shield",
        NAME,
        "Antimagic shield: in phase 1 a die may go onto the board as a shield against one school.",
        False,
    ),
    TableOption(
        "power_drain",
        NAME,
        "Power drain: once per game, as a defence, sacrifice a reserve die to deal 2 to everyone.",
        False,
    ),
    TableOption(
        "magic_lesson", NAME, "Magic lesson: 15 rounds; the most magic points then wins.", False
    ),
    TableOption(
        "power_sacrifice",
        NAME,
        "Power sacrifice: once per game, instead of dropping out, discard a basic "
        "spell card and come back with 10.",
        False,
    ),
    TableOption(
        "alt_ending",
        NAME,
        "Alternative ending: the game ends after the round that follows the round "
        "in which someone dropped out.",
        False,
    ),
    TableOption(
        "spell_deck", NAME, "Spell cards in the spell deck at the start.", 30, low=5, high=99
    ),
):
    RULES.option(_table_option)

TEXTS: dict[str, Text] = {
    "wd.not_duel": "That is a Wizard's Duel command, and this game is not a Wizard's Duel.",
    "wd.phase.1": "phase 1 (gathering mana)",
    "wd.phase.2": "phase 2 (incantations)",
    "wd.phase.3": "phase 3 (casting)",
    "wd.wrong_phase": "{action} belongs to {needed}; the table is in {phase}.",
    "wd.action.roll": "Rolling element dice",
    "wd.action.gather": "Setting dice aside",
    "wd.action.shield": "Raising an antimagic shield",
    "wd.action.pay": "Laying dice on a spell",
    "wd.action.learn": "Learning a spell",
    "wd.action.ready": "Passing on incantations",
    "wd.action.cast": "Casting a spell",
    "wd.action.hold": "Passing on casting",
    "wd.out": "{name} is out of the duel.",
    "wd.falling_wait": "{names} must first choose: 'sacrifice PLAYER CARD' (power sacrifice) or "
    "'dropout PLAYER'.",
    "wd.attack_wait": "{target} must first answer {caster}'s {spell}: 'defend {target} none|heal|reserve|"
    "counter|drain'.",
    "wd.option_off": "{option} is not a rule at this table; start the game with {option}=on to use it.",
    "wd.nothing_to_roll": "Everyone has rolled; waiting for {names} to set dice aside.",
    "wd.rolled_already": "{name} has rolled this turn already: {faces}.",
    "wd.chosen_already": "{name} has made this turn's choice already; the others are still choosing.",
    "wd.roll_count": Plural(
        "{name} rolls {hand} die; {count} given.",
        "{name} rolls {hand} dice; {count} given.",
        "hand",
    ),
    "wd.not_rolled": "{name} has not rolled yet: 'dice {name}' first.",
    "wd.not_in_roll": "{name} did not roll {faces}; the roll shows {rolled}.",
    "wd.not_in_pool": "{name}'s mana pool has no {faces}; it holds {pool}.",
    "wd.no_dice": "Name the dice to lay down, e.g. 'fire fire water'.",
    "wd.shield_air": "A die showing air (the whirlwind) cannot go into a shield.",
    "wd.shield_symbols": "{name}'s shield holds {shield} already; a shield has at most two symbols.",
    "wd.card_name": "Give the spell card a name of 1 to {limit} characters.",
    "wd.card_twice": "{name} already has a spell card called {card!r}.",
    "wd.card_spells": "A spell card has one or two spells; {count} given.",
    "wd.strength": "A spell's strength is from 1 to {limit}; {strength} given.",
    "wd.others": "Only an area spell hurts the other players; give {kind} spells no second number.",
    "wd.level": "A card's level is 0, 1 or 2; {level} given.",
    "wd.basic_cards": Plural(
        "{name} has described {count} starting spell card already; more cards come from the market.",
        "{name} has described {count} starting spell cards already; more cards come from the market.",
        "count",
    ),
    "wd.no_card": "{name} has no spell card {card!r}; their cards: {cards}.",
    "wd.ambiguous_card": "{card!r} could be {matches}: type more of the name.",
    "wd.which_spell": "{card} has two spells: say which, e.g. '{card}/1' or '{card}/2'.",
    # one spell of a card with two, as the console names it (the kiosk words it its own way)
    "wd.spell_of": "{card}/{n}",
    "wd.no_spell": "{card} has no spell number {number}.",
    "wd.spell_paid": "{card}'s spell {number} has its dice already; dice stay until the round ends.",
    "wd.passed": "{name} has passed for this phase.",
    "wd.learned_already": "{name} has learned a spell this round already (one per round).",
    "wd.no_slot": "There is no market card {slot}: the market has cards 1 to {count}.",
    "wd.slot_taken": "Market card {slot} was learned already this round.",
    "wd.nobody_ready": "Everyone has passed already.",
    "wd.not_your_turn": "It is {name}'s turn to cast.",
    "wd.spell_used": "{card}'s spell {number} is not ready: it has no dice or was used this round.",
    "wd.nothing_ready": "{name} has no activated spell left on {card}.",
    "wd.heal_self": "Healing spells go on the caster only.",
    "wd.need_target": "Say whom the {kind} spell targets: 'at PLAYER'.",
    "wd.target_self": "An offensive spell targets an opponent, not the caster.",
    "wd.untargetable": "{name} sacrificed their power this round and cannot be targeted until it ends.",
    "wd.no_attack": "Nobody is attacking {name} now.",
    "wd.not_healing": "{card} spell {number} is not a healing spell.",
    "wd.reserve_range": Plural(
        "{name} may weaken the attack with 1 to {most} reserve die; {count} given.",
        "{name} may weaken the attack with 1 to {most} reserve dice; {count} given.",
        "most",
    ),
    "wd.drain_used": "{name} has used the power drain already (once per game).",
    "wd.no_reserve": "{name} has no reserve die to sacrifice.",
    "wd.not_falling": "{name} is not dropping out: power sacrifice is only instead of dropping out.",
    "wd.sacrifice_played": "{card} was played this round; sacrifice a basic spell card that was not.",
    "wd.sacrifice_basic": "{card} is a learned card; sacrifice one of the character's basic spell cards.",
    "wd.waiting_choices": "Waiting for {names} to set their dice aside ('aside PLAYER [FACE…]').",
    # event descriptions
    "wd.set_up": "Wizard's Duel: {magic} magic points each, {hand} element dice in hand and {reserve} in "
    "reserve; {market} spell cards in the market, {deck} in the deck. {first} is the starting player.",
    "wd.round": "Round {round}, phase 1: gathering mana. {name} is the starting player. Everyone rolls.",
    "wd.gather_turn": "Phase 1, turn {turn}: everyone rolls.",
    "wd.last_roll": "Phase 1 ends: everyone rolls a last time; those dice go to the mana pool.",
    "wd.phase_2": "Phase 2: incantations. Lay mana-pool dice on spells, learn at most one market spell, then pass.",
    "wd.phase_3": "Phase 3: casting, from {name}.",
    "wd.phase_4": "Phase 4: clean-up.",
    "wd.rolled": "{name} rolled {faces}.",
    "wd.rolled_last": "{name} rolled {faces} into the mana pool.",
    "wd.took_back": Plural(
        "{name} took the {count} die back.", "{name} took all {count} dice back.", "count"
    ),
    "wd.gathered": "{name} put {faces} in the mana pool and drew {drawn} from the reserve.",
    "wd.gathered_short": Plural(
        "{name} put {faces} in the mana pool but could draw only {drawn}: {missing} die short. This turn ends "
        "phase 1.",
        "{name} put {faces} in the mana pool but could draw only {drawn}: {missing} dice short. This turn ends "
        "phase 1.",
        "missing",
    ),
    "wd.shield_set": "{name} set a die showing {face} into the antimagic shield ({shield}).",
    "wd.card_defined": "{name}'s spell card {card}: {spells}.",
    "wd.paid": "{name} laid {faces} on {card}.",
    "wd.learned": "{name} learned market card {slot} as {card} ({spells}), paying {faces}.",
    "wd.ready": "{name} is done with incantations.",
    "wd.casting_turn": "{name}'s turn to cast.",
    "wd.cast_heal": "{name} casts {card} (healing {strength}).",
    "wd.cast_attack": "{name} casts {card} ({kind} {strength}, {school}) at {target}. {target} may defend.",
    "wd.chain": Plural(
        "Chain reaction: {name} takes {count} die off {card} back to the {to}.",
        "Chain reaction: {name} takes {count} dice off {card} back to the {to}.",
        "count",
    ),
    "wd.defend.none": "{name} does not defend.",
    "wd.defend.heal": "{name} weakens the attack with {card} (healing {strength}).",
    "wd.defend.reserve": Plural(
        "{name} weakens the attack with {count} reserve die (set aside).",
        "{name} weakens the attack with {count} reserve dice (set aside).",
        "count",
    ),
    "wd.defend.counter": Plural(
        "{name} counterattacks with {count} mana-pool die.",
        "{name} counterattacks with {count} mana-pool dice.",
        "count",
    ),
    "wd.defend.drain": "{name} drains power: one reserve die leaves the game.",
    "wd.hold": "{name} passes.",
    "wd.magic.spell": Plural(
        "{name}: {before} → {after} magic point ({source}'s spell).",
        "{name}: {before} → {after} magic points ({source}'s spell).",
        "after",
    ),
    "wd.magic.area": Plural(
        "{name}: {before} → {after} magic point ({source}'s area spell).",
        "{name}: {before} → {after} magic points ({source}'s area spell).",
        "after",
    ),
    "wd.magic.counter": Plural(
        "{name}: {before} → {after} magic point (counterattack by {source}).",
        "{name}: {before} → {after} magic points (counterattack by {source}).",
        "after",
    ),
    "wd.magic.fatigue": Plural(
        "{name}: {before} → {after} magic point (fatigue).",
        "{name}: {before} → {after} magic points (fatigue).",
        "after",
    ),
    "wd.magic.refill": Plural(
        "{name}: {before} → {after} magic point ({amount} of a full hand).",
        "{name}: {before} → {after} magic points ({amount} of a full hand).",
        "after",
    ),
    "wd.magic.drain": Plural(
        "{name}: {before} → {after} magic point (power drain by {source}).",
        "{name}: {before} → {after} magic points (power drain by {source}).",
        "after",
    ),
    "wd.magic.drained": Plural(
        "{name}: {before} → {after} magic point (drained power).",
        "{name}: {before} → {after} magic points (drained power).",
        "after",
    ),
    "wd.magic.heal": Plural(
        "{name}: {before} → {after} magic point (healing).",
        "{name}: {before} → {after} magic points (healing).",
        "after",
    ),
    "wd.magic.reserve": Plural(
        "{name}: {before} → {after} magic point (dice left in the reserve).",
        "{name}: {before} → {after} magic points (dice left in the reserve).",
        "after",
    ),
    "wd.absorbed": "{name}'s antimagic shield absorbs {amount} ({school}).",
    "wd.falling": "{name} is at 0 magic points: 'sacrifice {name} CARD' to come back with 10 (once per "
    "game), or 'dropout {name}'.",
    "wd.sacrificed": "{name} sacrifices {card} and comes back with 10 magic points; untargetable until the "
    "round ends.",
    "wd.dropped_out": "{name} dropped out in round {round}.",
    "wd.dropped_out_alt": "{name} dropped out in round {round}: the game ends after round {last}.",
    "wd.cleaned_up": "Dice and spell cards back to the players; new reserves and hands of 5.",
    "wd.market": Plural(
        "Market: {discarded} card to the discard pile, {drawn}.",
        "Market: {discarded} cards to the discard pile, {drawn}.",
        "discarded",
    ),
    "wd.market_reshuffled": Plural(
        "Market: {discarded} card to the discard pile; the deck ran out, so {reshuffled}; {drawn}.",
        "Market: {discarded} cards to the discard pile; the deck ran out, so {reshuffled}; {drawn}.",
        "discarded",
    ),
    "wd.dice_short": Plural("{n} die short", "{n} dice short"),
    "wd.faces": Plural("{n} face", "{n} faces"),
    "wd.market_drawn": Plural("{n} new card face up", "{n} new cards face up"),
    "wd.market_reshuffled_cards": Plural(
        "{n} discarded card was shuffled into a new deck",
        "{n} discarded cards were shuffled into a new deck",
    ),
    "wd.ended_win": Plural(
        "{name} wins with {points} magic point ({reason}).",
        "{name} wins with {points} magic points ({reason}).",
        "points",
    ),
    "wd.ended_tie": Plural(
        "{names} tie with {points} magic point ({reason}).",
        "{names} tie with {points} magic points ({reason}).",
        "points",
    ),
    "wd.reason.lesson": Plural(
        "the magic lesson's {rounds} round is over",
        "the magic lesson's {rounds} rounds are over",
        "rounds",
    ),
    "wd.reason.alt": "the round after a player dropped out is over",
    # why the duel ended on points, as the game's result (Outcome.said)
    "wd.outcome.most": "most magic points ({points}), {ending}",
    "wd.outcome.tie": Plural(
        "tie on {points} magic point, {ending}", "tie on {points} magic points, {ending}", "points"
    ),
    "wd.outcome.lesson": "magic lesson over",
    "wd.outcome.alt": "alternative ending",
    # words that go into the texts above, so each language places and inflects its own
    "wd.face.magic": "magic",
    "wd.face.fire": "fire",
    "wd.face.water": "water",
    "wd.face.earth": "earth",
    "wd.face.air": "air",
    "wd.dice": "{first} {rest}",
    "wd.dice.none": "nothing",
    "wd.kind.offensive": "offensive",
    "wd.kind.area": "area",
    "wd.kind.healing": "healing",
    "wd.spell.offensive": "offensive {strength} {school}",
    "wd.spell.area": "area {strength}/{others} {school}",
    "wd.spell.healing": "healing {strength} {school}",
    "wd.spells": "{first} + {second}",
    "wd.to.pool": "mana pool",
    "wd.to.reserve": "reserve",
    "wd.nobody": "nobody",
    "wd.no_cards_yet": "none yet",
    # the core's start message, counting magic points rather than life
    "table.started.wizards_duel": Plural(
        "New Wizard's Duel for {players}, {life} magic point each. {first} goes first.",
        "New Wizard's Duel for {players}, {life} magic points each. {first} goes first.",
        "life",
    ),
    "table.started_random.wizards_duel": Plural(
        "New Wizard's Duel for {players}, {life} magic point each. The gadget drew {first} to go first.",
        "New Wizard's Duel for {players}, {life} magic points each. The gadget drew {first} to go first.",
        "life",
    ),
}


# --- commands -----------------------------------------------------------------------------


# --- events -------------------------------------------------------------------------------


# --- helpers ------------------------------------------------------------------------------


def duel_of(state: GameState) -> WizardsDuelState:
    if state.wizards_duel is None:
        raise IllegalCommand("wd.not_duel")
    return state.wizards_duel


def faces_text(faces: Iterable[Face]) -> Message:
    """Dice by face, as a message each language words its own way (a chain of face names)."""
    listed = list(faces)
    if not listed:
        return Message("wd.dice.none")
    text = Message(f"wd.face.{listed[-1].value}")
    for face in reversed(listed[:-1]):
        text = Message("wd.dice", first=Message(f"wd.face.{face.value}"), rest=text)
    return text


def _option(state: GameState, name: str) -> bool:
    return bool(state.options.get(name, False))


def _need_option(state: GameState, name: str) -> None:
    if not _option(state, name):
        raise IllegalCommand("wd.option_off", option=name, label=Message(f"option.{name}"))


def _in_game(state: GameState, seat: int) -> bool:
    return state.player(seat).in_game


def _names(state: GameState, seats: Iterable[int]) -> str:
    return ", ".join(state.player(seat).name for seat in seats)


def _players_in(state: GameState) -> list[Wizard]:
    duel = duel_of(state)
    return [w for w in duel.wizards if _in_game(state, w.seat)]


def _wizard(state: GameState, seat: int) -> Wizard:
    player = check_seat(state, seat)
    if not player.in_game:
        raise IllegalCommand("wd.out", name=player.name)
    return duel_of(state).wizard(seat)


def _not_waiting(state: GameState) -> None:
    """Refuse while a falling player must decide or an attack waits for its defence."""
    falling = [w.seat for w in _players_in(state) if w.falling]
    if falling:
        raise IllegalCommand("wd.falling_wait", names=_names(state, falling))
    attack = duel_of(state).attack
    if attack is not None:
        raise IllegalCommand(
            "wd.attack_wait",
            target=state.player(attack.target).name,
            caster=state.player(attack.caster).name,
            spell=duel_of(state).wizard(attack.caster).card(attack.card).name,
        )


def _phase(state: GameState, phase: int, action: str) -> WizardsDuelState:
    duel = duel_of(state)
    _not_waiting(state)
    if duel.phase != phase:
        raise IllegalCommand(
            "wd.wrong_phase",
            action=Message(f"wd.action.{action}"),
            needed=Message(f"wd.phase.{phase}"),
            phase=Message(f"wd.phase.{duel.phase}"),
        )
    return duel


def _take(have: Iterable[Face], want: Iterable[Face]) -> tuple[Face, ...] | None:
    """``have`` without ``want`` (as multisets), or None if ``want`` is not all there."""
    left = Counter(have)
    for face in want:
        if left[face] <= 0:
            return None
        left[face] -= 1
    return tuple(face for face in Face for _ in range(left[face]))


def _sorted(faces: Iterable[Face]) -> tuple[Face, ...]:
    order = list(Face)
    return tuple(sorted(faces, key=order.index))


def find_card(wizard: Wizard, name: str, owner: str) -> SpellCard:
    wanted = fold(name)
    exact = [c for c in wizard.cards if fold(c.name) == wanted]
    if exact:
        return exact[0]
    starts = [c for c in wizard.cards if wanted and fold(c.name).startswith(wanted)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise IllegalCommand(
            "wd.ambiguous_card", card=name, matches=", ".join(c.name for c in starts)
        )
    raise IllegalCommand(
        "wd.no_card",
        name=owner,
        card=name,
        cards=", ".join(c.name for c in wizard.cards) or Message("wd.no_cards_yet"),
    )


def _spell_index(card: SpellCard, number: int | None, usable: list[int]) -> int:
    """The spell a command means: the one given, or the only usable one."""
    if number is not None:
        if not 0 <= number < len(card.spells):
            raise IllegalCommand("wd.no_spell", card=card.name, number=number + 1)
        return number
    if len(card.spells) == 1:
        return 0
    if len(usable) == 1:
        return usable[0]
    raise IllegalCommand("wd.which_spell", card=card.name)


def spell_name(card: SpellCard, index: int) -> str | Message:
    """A spell by its card: the card's name, and which of its two spells when it has two."""
    return (
        card.name if len(card.spells) == 1 else Message("wd.spell_of", card=card.name, n=index + 1)
    )


def spell_text(spell: Spell) -> Message:
    return Message(
        f"wd.spell.{spell.kind.value}",
        strength=spell.strength,
        others=spell.others,
        school=Message(f"wd.face.{spell.school.value}"),
    )


def spells_text(spells: Iterable[Spell]) -> Message:
    parts = [spell_text(spell) for spell in spells]
    if len(parts) == 1:
        return parts[0]
    return Message(
        "wd.spells",
        first=parts[0],
        second=Message("wd.spells", first=parts[1], second=parts[2])
        if len(parts) > 2
        else parts[1],
    )


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


def _fresh(spells: tuple[Spell, ...]) -> tuple[Spell, ...]:
    return tuple(spell.model_copy(update={"dice": (), "cast": False}) for spell in spells)


def _next_number(wizard: Wizard) -> int:
    return max((c.number for c in wizard.cards), default=0) + 1


class _Batch:
    """Events decided one after another, each seeing the state the earlier ones made."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    @property
    def duel(self) -> WizardsDuelState:
        return duel_of(self.state)

    def add(self, *events: Event) -> None:
        self.events += events
        self.state = apply_events(self.state, events)

    def hurt(
        self, seat: int, amount: int, cause: Cause, source: int | None, school: Face | None = None
    ) -> None:
        """Take up to ``amount`` magic points from a player; a shield of ``school`` absorbs first."""
        wizard = self.duel.wizard(seat)
        if amount <= 0 or not _in_game(self.state, seat):
            return
        absorbed = min(amount, wizard.shield.count(school)) if school is not None else 0
        if absorbed:
            self.add(ShieldAbsorbed(seat=seat, amount=absorbed, school=school))
        lost = min(amount - absorbed, wizard.magic)
        if lost:
            self.add(MagicChanged(seat=seat, delta=-lost, cause=cause, source=source))

    def heal(self, seat: int, amount: int, cause: Cause, school: Face | None = None) -> None:
        wizard = self.duel.wizard(seat)
        absorbed = min(amount, wizard.shield.count(school)) if school is not None else 0
        if absorbed:
            self.add(ShieldAbsorbed(seat=seat, amount=absorbed, school=school))
        if amount - absorbed > 0:
            self.add(MagicChanged(seat=seat, delta=amount - absorbed, cause=cause))


# --- WD-1 set-up --------------------------------------------------------------------------


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


# --- WD-2 phase 1: gathering mana ---------------------------------------------------------


def _waiting_to_choose(state: GameState) -> list[int]:
    return [w.seat for w in _players_in(state) if not w.chosen]


@RULES.decides(RollElementDice)
def _roll(state: GameState, command: RollElementDice, rng: Random) -> list[Event]:
    duel = _phase(state, 1, "roll")
    if command.seat is None:
        if command.faces is not None:
            raise IllegalCommand(
                "wd.roll_count",
                name="?",
                hand=HAND,
                count=Message("wd.faces", n=len(command.faces)),
            )
        seats = [w.seat for w in _players_in(state) if w.rolled is None and not w.chosen]
        if not seats:
            raise IllegalCommand(
                "wd.nothing_to_roll", names=_names(state, _waiting_to_choose(state))
            )
    else:
        wizard = _wizard(state, command.seat)
        name = state.player(command.seat).name
        if wizard.rolled is not None:
            raise IllegalCommand("wd.rolled_already", name=name, faces=faces_text(wizard.rolled))
        if wizard.chosen:
            raise IllegalCommand("wd.chosen_already", name=name)
        if command.faces is not None and len(command.faces) != wizard.hand:
            raise IllegalCommand(
                "wd.roll_count",
                name=name,
                hand=wizard.hand,
                count=Message("wd.faces", n=len(command.faces)),
            )
        seats = [command.seat]
    events: list[Event] = []
    faces = list(Face)
    for seat in seats:
        hand = duel.wizard(seat).hand
        if command.faces is not None:
            rolled, physical = command.faces, True
        else:
            rolled, physical = tuple(faces[rng.randrange(len(faces))] for _ in range(hand)), False
        events.append(
            ElementDiceRolled(seat=seat, faces=rolled, physical=physical, last=duel.last_roll)
        )
    return events


def _rolled(state: GameState, seat: int, action: str) -> tuple[Wizard, tuple[Face, ...]]:
    duel = _phase(state, 1, action)
    wizard = _wizard(state, seat)
    name = state.player(seat).name
    if wizard.chosen:
        raise IllegalCommand("wd.chosen_already", name=name)
    if duel.last_roll or wizard.rolled is None:
        raise IllegalCommand("wd.not_rolled", name=name)
    return wizard, wizard.rolled


@RULES.decides(GatherMana)
def _gather(state: GameState, command: GatherMana, rng: Random) -> list[Event]:
    wizard, rolled = _rolled(state, command.seat, "gather")
    name = state.player(command.seat).name
    if _take(rolled, command.aside) is None:
        raise IllegalCommand(
            "wd.not_in_roll", name=name, faces=faces_text(command.aside), rolled=faces_text(rolled)
        )
    # Taking every die back draws nothing, even with a hand smaller than 5 after a shield.
    need = HAND - (len(rolled) - len(command.aside)) if command.aside else 0
    drawn = min(need, wizard.reserve)
    events: list[Event] = [
        ManaGathered(seat=command.seat, aside=command.aside, drawn=drawn, missing=need - drawn)
    ]
    if need > drawn:
        batch = _Batch(state)
        batch.add(*events)
        batch.hurt(command.seat, need - drawn, "refill", None)
        return batch.events
    return events


@RULES.decides(SetShieldDie)
def _shield(state: GameState, command: SetShieldDie, rng: Random) -> list[Event]:
    wizard, rolled = _rolled(state, command.seat, "shield")
    _need_option(state, "antimagic_shield")
    name = state.player(command.seat).name
    if command.face not in rolled:
        raise IllegalCommand(
            "wd.not_in_roll",
            name=name,
            faces=faces_text((command.face,)),
            rolled=faces_text(rolled),
        )
    if command.face is Face.AIR:
        raise IllegalCommand("wd.shield_air")
    if len(set(wizard.shield) | {command.face}) > 2:
        raise IllegalCommand(
            "wd.shield_symbols", name=name, shield=faces_text(_sorted(set(wizard.shield)))
        )
    return [ShieldDieSet(seat=command.seat, face=command.face)]


@RULES.applies(ElementDiceRolled)
def _apply_rolled(state: GameState, event: ElementDiceRolled) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    if event.last:
        wizard = wizard.model_copy(
            update={"pool": wizard.pool + event.faces, "hand": 0, "chosen": True}
        )
    else:
        wizard = wizard.model_copy(update={"rolled": event.faces})
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(ElementDiceRolled)
def _describe_rolled(state: GameState, event: ElementDiceRolled) -> Message:
    key = "wd.rolled_last" if event.last else "wd.rolled"
    return Message(key, name=state.player(event.seat).name, faces=faces_text(event.faces))


@RULES.applies(ManaGathered)
def _apply_gathered(state: GameState, event: ManaGathered) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    wizard = wizard.model_copy(
        update={
            "pool": wizard.pool + event.aside,
            "hand": wizard.hand - len(event.aside) + event.drawn,
            "reserve": wizard.reserve - event.drawn,
            "rolled": None,
            "chosen": True,
        }
    )
    duel = duel.with_wizard(wizard)
    if event.missing:
        duel = duel.model_copy(update={"last_turn": True})
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(ManaGathered)
def _describe_gathered(state: GameState, event: ManaGathered) -> Message:
    name = state.player(event.seat).name
    if not event.aside:
        return Message("wd.took_back", name=name, count=duel_of(state).wizard(event.seat).hand)
    if event.missing:
        return Message(
            "wd.gathered_short",
            name=name,
            faces=faces_text(event.aside),
            drawn=event.drawn,
            missing=event.missing,
        )
    return Message("wd.gathered", name=name, faces=faces_text(event.aside), drawn=event.drawn)


@RULES.applies(ShieldDieSet)
def _apply_shield(state: GameState, event: ShieldDieSet) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    wizard = wizard.model_copy(
        update={
            "hand": wizard.hand - 1,
            "shield": wizard.shield + (event.face,),
            "rolled": None,
            "chosen": True,
        }
    )
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(ShieldDieSet)
def _describe_shield(state: GameState, event: ShieldDieSet) -> Message:
    shield = duel_of(state).wizard(event.seat).shield + (event.face,)
    return Message(
        "wd.shield_set",
        name=state.player(event.seat).name,
        face=Message(f"wd.face.{event.face.value}"),
        shield=faces_text(_sorted(shield)),
    )


@RULES.applies(GatherTurnStarted)
def _apply_gather_turn(state: GameState, event: GatherTurnStarted) -> GameState:
    duel = duel_of(state)
    wizards = tuple(w.model_copy(update={"chosen": False, "rolled": None}) for w in duel.wizards)
    return state.model_copy(
        update={
            "wizards_duel": duel.model_copy(update={"wizards": wizards, "gather_turn": event.turn})
        }
    )


@RULES.describes(GatherTurnStarted)
def _describe_gather_turn(state: GameState, event: GatherTurnStarted) -> Message:
    return Message("wd.gather_turn", turn=event.turn)


@RULES.applies(LastRollCalled)
def _apply_last_roll(state: GameState, event: LastRollCalled) -> GameState:
    duel = duel_of(state)
    # A player with no dice in hand has nothing to roll.
    wizards = tuple(
        w.model_copy(update={"chosen": w.hand == 0, "rolled": None}) for w in duel.wizards
    )
    return state.model_copy(
        update={"wizards_duel": duel.model_copy(update={"wizards": wizards, "last_roll": True})}
    )


@RULES.describes(LastRollCalled)
def _describe_last_roll(state: GameState, event: LastRollCalled) -> Message:
    return Message("wd.last_roll")


# --- WD-2 phase 2: incantations -----------------------------------------------------------


def basic_cards(wizard: Wizard) -> int:
    """Starting cards described (a sacrificed one still counts: it was one of the three)."""
    return sum(1 for card in wizard.cards if card.basic) + (1 if wizard.sacrifice_used else 0)


@RULES.decides(DefineSpellCard)
def _define(state: GameState, command: DefineSpellCard, rng: Random) -> list[Event]:
    wizard = _wizard(state, command.seat)
    owner = state.player(command.seat).name
    name = _check_card(wizard, owner, command.name, command.level, command.spells)
    if basic_cards(wizard) >= BASIC_CARDS:
        raise IllegalCommand("wd.basic_cards", name=owner, count=BASIC_CARDS)
    card = SpellCard(
        number=_next_number(wizard),
        name=name,
        level=command.level,
        basic=True,
        spells=_fresh(command.spells),
    )
    return [SpellCardDefined(seat=command.seat, card=card)]


def _incanting(state: GameState, seat: int, action: str) -> Wizard:
    _phase(state, 2, action)
    wizard = _wizard(state, seat)
    if wizard.passed:
        raise IllegalCommand("wd.passed", name=state.player(seat).name)
    return wizard


def _check_pool(state: GameState, wizard: Wizard, dice: tuple[Face, ...]) -> None:
    if not dice:
        raise IllegalCommand("wd.no_dice")
    if _take(wizard.pool, dice) is None:
        raise IllegalCommand(
            "wd.not_in_pool",
            name=state.player(wizard.seat).name,
            faces=faces_text(dice),
            pool=faces_text(_sorted(wizard.pool)),
        )


@RULES.decides(PaySpell)
def _pay(state: GameState, command: PaySpell, rng: Random) -> list[Event]:
    wizard = _incanting(state, command.seat, "pay")
    card = find_card(wizard, command.card, state.player(command.seat).name)
    unpaid = [i for i, spell in enumerate(card.spells) if not spell.dice]
    # A card put down fresh takes dice on one of its spells; the other one later (the article).
    index = _spell_index(card, command.spell, unpaid if card.on_table else [])
    if card.spells[index].dice:
        raise IllegalCommand("wd.spell_paid", card=card.name, number=index + 1)
    _check_pool(state, wizard, command.dice)
    return [SpellPaid(seat=command.seat, card=card.number, spell=index, dice=command.dice)]


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
    _check_pool(state, wizard, command.dice)
    spells = _fresh(command.spells)
    # The full cost goes down at once, on the spell learned: it is activated for this round.
    spells = (spells[0].model_copy(update={"dice": command.dice}), *spells[1:])
    card = SpellCard(
        number=_next_number(wizard), name=name, level=command.level, basic=False, spells=spells
    )
    return [SpellLearned(seat=command.seat, slot=command.slot - 1, card=card)]


@RULES.decides(PassIncantations)
def _ready(state: GameState, command: PassIncantations, rng: Random) -> list[Event]:
    _phase(state, 2, "ready")
    if command.seat is not None:
        _incanting(state, command.seat, "ready")
        return [IncantationsPassed(seat=command.seat)]
    seats = [w.seat for w in _players_in(state) if not w.passed]
    if not seats:
        raise IllegalCommand("wd.nobody_ready")
    return [IncantationsPassed(seat=seat) for seat in seats]


def _replace_card(wizard: Wizard, card: SpellCard) -> Wizard:
    return wizard.model_copy(
        update={"cards": tuple(card if c.number == card.number else c for c in wizard.cards)}
    )


def _with_spell(card: SpellCard, index: int, **changes: object) -> SpellCard:
    spells = list(card.spells)
    spells[index] = spells[index].model_copy(update=changes)
    return card.model_copy(update={"spells": tuple(spells)})


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


@RULES.applies(SpellPaid)
def _apply_paid(state: GameState, event: SpellPaid) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    card = _with_spell(wizard.card(event.card), event.spell, dice=event.dice)
    wizard = _replace_card(wizard, card).model_copy(
        update={"pool": _take(wizard.pool, event.dice) or ()}
    )
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(SpellPaid)
def _describe_paid(state: GameState, event: SpellPaid) -> Message:
    card = duel_of(state).wizard(event.seat).card(event.card)
    label = spell_name(card, event.spell)
    return Message(
        "wd.paid", name=state.player(event.seat).name, faces=faces_text(event.dice), card=label
    )


@RULES.applies(SpellLearned)
def _apply_learned(state: GameState, event: SpellLearned) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    paid = event.card.spells[0].dice
    wizard = wizard.model_copy(
        update={
            "cards": wizard.cards + (event.card,),
            "pool": _take(wizard.pool, paid) or (),
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


@RULES.applies(IncantationsPassed)
def _apply_ready(state: GameState, event: IncantationsPassed) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat).model_copy(update={"passed": True})
    return state.model_copy(update={"wizards_duel": duel.with_wizard(wizard)})


@RULES.describes(IncantationsPassed)
def _describe_ready(state: GameState, event: IncantationsPassed) -> Message:
    return Message("wd.ready", name=state.player(event.seat).name)


# --- WD-2 phase 3: casting ----------------------------------------------------------------


def _untargetable(duel: WizardsDuelState, seat: int) -> bool:
    return duel.wizard(seat).sacrificed_round == duel.round


def may_cast(state: GameState, seat: int) -> bool:
    """Whether a player still takes casting turns this phase."""
    duel = duel_of(state)
    wizard = duel.wizard(seat)
    return (
        _in_game(state, seat)
        and not wizard.passed
        and not _untargetable(duel, seat)
        and any(spell.ready for card in wizard.cards for spell in card.spells)
    )


def _next_caster(state: GameState) -> int | None:
    """Phase 3 goes round the table from the starting player; the mover goes last in the lap."""
    duel = duel_of(state)
    if duel.to_move is None:
        order = round_from(state, duel.starting)
    else:
        after = round_from(state, duel.to_move)
        order = [*after[1:], after[0]]
    return next((seat for seat in order if may_cast(state, seat)), None)


@RULES.decides(CastSpell)
def _cast(state: GameState, command: CastSpell, rng: Random) -> list[Event]:
    duel = _phase(state, 3, "cast")
    wizard = _wizard(state, command.seat)
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
    index = _spell_index(card, command.spell, ready)
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
        _wizard(state, target)
        if target == command.seat:
            raise IllegalCommand("wd.target_self")
        if _untargetable(duel, target):
            raise IllegalCommand("wd.untargetable", name=state.player(target).name)
    batch = _Batch(state)
    batch.add(SpellCast(seat=command.seat, card=card.number, spell=index, target=target))
    if _option(state, "chain_reaction"):
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


@RULES.decides(Defend)
def _defend(state: GameState, command: Defend, rng: Random) -> list[Event]:
    duel = duel_of(state)
    falling = [w.seat for w in _players_in(state) if w.falling]
    if falling:
        raise IllegalCommand("wd.falling_wait", names=_names(state, falling))
    wizard = _wizard(state, command.seat)
    attack = duel.attack
    if attack is None or attack.target != command.seat:
        raise IllegalCommand("wd.no_attack", name=state.player(command.seat).name)
    event = AttackDefended(seat=command.seat, how=command.how)
    way = _DEFENCES.get(command.how)
    damage, event = way(state, command, wizard, attack, event) if way else (attack.strength, event)
    batch = _Batch(state)
    batch.add(event)
    if command.how == "counter":
        batch.hurt(attack.caster, len(command.dice), "counter", command.seat)
    kind: Cause = "area" if attack.kind is SpellKind.AREA else "spell"
    batch.hurt(command.seat, damage, kind, attack.caster, attack.school)
    if command.how == "reserve":
        batch.hurt(command.seat, 1, "fatigue", None)
    if attack.kind is SpellKind.AREA:
        for other in _players_in(state):
            if other.seat not in (attack.caster, attack.target):
                batch.hurt(other.seat, attack.others, "area", attack.caster, attack.school)
    if command.how == "drain":
        _drain(state, batch, command.seat)
    return batch.events


#: A defence checks that it may be made and says how much of the attack still hurts, and what the
#: event records of it; "none" takes the attack whole.
Defence = Callable[[GameState, Defend, Wizard, Attack, AttackDefended], tuple[int, AttackDefended]]


def _defend_heal(
    state: GameState, command: Defend, wizard: Wizard, attack: Attack, event: AttackDefended
) -> tuple[int, AttackDefended]:
    card = find_card(wizard, command.card or "", state.player(command.seat).name)
    ready = [i for i, s in enumerate(card.spells) if s.ready and s.kind is SpellKind.HEALING]
    index = _spell_index(card, command.spell, ready)
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
    _check_pool(state, wizard, command.dice)
    return attack.strength, event.model_copy(
        update={"dice": command.dice, "count": len(command.dice)}
    )


def _defend_drain(
    state: GameState, command: Defend, wizard: Wizard, attack: Attack, event: AttackDefended
) -> tuple[int, AttackDefended]:
    _need_option(state, "power_drain")
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


def _drain(state: GameState, batch: _Batch, seat: int) -> None:
    """Power drain: DRAIN_DAMAGE to every other wizard who still has magic points, and a point
    back to the drainer for each of them."""
    hit = 0
    for other in _players_in(state):
        if other.seat != seat and batch.duel.wizard(other.seat).magic > 0:
            batch.hurt(other.seat, DRAIN_DAMAGE, "drain", seat)
            hit += 1
    if hit:
        batch.add(MagicChanged(seat=seat, delta=hit, cause="drained"))


@RULES.decides(PassCasting)
def _hold(state: GameState, command: PassCasting, rng: Random) -> list[Event]:
    duel = _phase(state, 3, "hold")
    _wizard(state, command.seat)
    if duel.to_move != command.seat:
        raise IllegalCommand(
            "wd.not_your_turn",
            name=state.player(duel.to_move).name
            if duel.to_move is not None
            else Message("wd.nobody"),
        )
    return [CastingPassed(seat=command.seat)]


def _update(state: GameState, seat: int, **changes: object) -> GameState:
    duel = duel_of(state)
    return state.model_copy(
        update={"wizards_duel": duel.with_wizard(duel.wizard(seat).model_copy(update=changes))}
    )


@RULES.applies(CastingTurn)
def _apply_casting_turn(state: GameState, event: CastingTurn) -> GameState:
    duel = duel_of(state).model_copy(update={"to_move": event.seat})
    state = state.model_copy(update={"wizards_duel": duel, "active": event.seat})
    return _update(state, event.seat, turn_over=False)


@RULES.describes(CastingTurn)
def _describe_casting_turn(state: GameState, event: CastingTurn) -> Message:
    return Message("wd.casting_turn", name=state.player(event.seat).name)


@RULES.applies(SpellCast)
def _apply_cast(state: GameState, event: SpellCast) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    card = wizard.card(event.card)
    spell = card.spells[event.spell]
    wizard = _replace_card(wizard, _with_spell(card, event.spell, cast=True))
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


@RULES.applies(ChainDiceReturned)
def _apply_chain(state: GameState, event: ChainDiceReturned) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    card = wizard.card(event.card)
    dice = card.spells[event.spell].dice
    back, kept = dice[: event.count], dice[event.count :]
    wizard = _replace_card(wizard, _with_spell(card, event.spell, dice=kept))
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


@RULES.applies(AttackDefended)
def _apply_defended(state: GameState, event: AttackDefended) -> GameState:
    duel = duel_of(state)
    attack = duel.attack
    wizard = duel.wizard(event.seat)
    if event.how == "heal" and event.card is not None and event.spell is not None:
        wizard = _replace_card(wizard, _with_spell(wizard.card(event.card), event.spell, cast=True))
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
                "pool": _take(wizard.pool, event.dice) or (),
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


@RULES.applies(CastingPassed)
def _apply_hold(state: GameState, event: CastingPassed) -> GameState:
    return _update(state, event.seat, passed=True, turn_over=True, chain=-1)


@RULES.describes(CastingPassed)
def _describe_hold(state: GameState, event: CastingPassed) -> Message:
    return Message("wd.hold", name=state.player(event.seat).name)


# --- magic points, dropping out, power sacrifice --------------------------------------------


@RULES.applies(MagicChanged)
def _apply_magic(state: GameState, event: MagicChanged) -> GameState:
    wizard = duel_of(state).wizard(event.seat)
    changes: dict[str, object] = {"magic": max(0, wizard.magic + event.delta)}
    # Fatigue comes with an attack: the attacker stays the one responsible.
    if event.delta < 0 and event.cause != "fatigue":
        changes["hurt_by"] = event.source
    return _update(state, event.seat, **changes)


@RULES.describes(MagicChanged)
def _describe_magic(state: GameState, event: MagicChanged) -> Message:
    wizard = duel_of(state).wizard(event.seat)
    source = state.player(event.source).name if event.source is not None else ""
    # A hand refilled short counts dice, the change itself magic points: one count each.
    amount: int | Message = abs(event.delta)
    if event.cause == "refill":
        amount = Message("wd.dice_short", n=abs(event.delta))
    return Message(
        f"wd.magic.{event.cause}",
        name=state.player(event.seat).name,
        before=wizard.magic,
        after=max(0, wizard.magic + event.delta),
        amount=amount,
        source=source,
    )


@RULES.applies(ShieldAbsorbed)
def _apply_absorbed(state: GameState, event: ShieldAbsorbed) -> GameState:
    return state


@RULES.describes(ShieldAbsorbed)
def _describe_absorbed(state: GameState, event: ShieldAbsorbed) -> Message:
    return Message(
        "wd.absorbed",
        name=state.player(event.seat).name,
        amount=event.amount,
        school=Message(f"wd.face.{event.school.value}"),
    )


@RULES.state_check
def _drop_outs(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """A player at 0 magic points drops out (WD-3), unless the power sacrifice may save them."""
    duel = state.wizards_duel
    if duel is None:
        return []
    found: list[Event] = []
    for event in events:
        if isinstance(event, PlayerLost) and duel.winners is None:
            found.append(WizardDroppedOut(seat=event.seat, round=duel.round))
    for wizard in duel.wizards:
        if not _in_game(state, wizard.seat) or wizard.falling or wizard.magic > 0:
            continue
        if _option(state, "power_sacrifice") and not wizard.sacrifice_used:
            found.append(WizardFalling(seat=wizard.seat))
        else:
            found.append(
                PlayerLost(seat=wizard.seat, reason=LossReason.EFFECT, source=wizard.hurt_by)
            )
    return found


@RULES.decides(SacrificePower)
def _sacrifice(state: GameState, command: SacrificePower, rng: Random) -> list[Event]:
    wizard = _wizard(state, command.seat)
    name = state.player(command.seat).name
    _need_option(state, "power_sacrifice")
    if not wizard.falling:
        raise IllegalCommand("wd.not_falling", name=name)
    card = find_card(wizard, command.card, name)
    if not card.basic:
        raise IllegalCommand("wd.sacrifice_basic", card=card.name)
    if card.on_table:
        raise IllegalCommand("wd.sacrifice_played", card=card.name)
    return [PowerSacrificed(seat=command.seat, card=card.number)]


@RULES.decides(DropOut)
def _dropout(state: GameState, command: DropOut, rng: Random) -> list[Event]:
    wizard = _wizard(state, command.seat)
    if not wizard.falling:
        raise IllegalCommand("wd.not_falling", name=state.player(command.seat).name)
    return [PlayerLost(seat=command.seat, reason=LossReason.EFFECT, source=wizard.hurt_by)]


@RULES.applies(WizardFalling)
def _apply_falling(state: GameState, event: WizardFalling) -> GameState:
    return _update(state, event.seat, falling=True)


@RULES.describes(WizardFalling)
def _describe_falling(state: GameState, event: WizardFalling) -> Message:
    return Message("wd.falling", name=state.player(event.seat).name)


@RULES.applies(PowerSacrificed)
def _apply_sacrificed(state: GameState, event: PowerSacrificed) -> GameState:
    duel = duel_of(state)
    wizard = duel.wizard(event.seat)
    return _update(
        state,
        event.seat,
        cards=tuple(c for c in wizard.cards if c.number != event.card),
        magic=SACRIFICE_POINTS,
        falling=False,
        sacrifice_used=True,
        sacrificed_round=duel.round,
        shield=(),
        aside=wizard.aside + len(wizard.shield),
    )


@RULES.describes(PowerSacrificed)
def _describe_sacrificed(state: GameState, event: PowerSacrificed) -> Message:
    card = duel_of(state).wizard(event.seat).card(event.card)
    return Message("wd.sacrificed", name=state.player(event.seat).name, card=card.name)


@RULES.applies(WizardDroppedOut)
def _apply_dropped_out(state: GameState, event: WizardDroppedOut) -> GameState:
    duel = duel_of(state)
    if duel.dropout_round is not None:
        return state
    return state.model_copy(
        update={"wizards_duel": duel.model_copy(update={"dropout_round": event.round})}
    )


@RULES.describes(WizardDroppedOut)
def _describe_dropped_out(state: GameState, event: WizardDroppedOut) -> Message:
    name = state.player(event.seat).name
    duel = duel_of(state)
    if _option(state, "alt_ending") and duel.dropout_round is None:
        return Message("wd.dropped_out_alt", name=name, round=event.round, last=event.round + 1)
    return Message("wd.dropped_out", name=name, round=event.round)


# --- phases moving on by themselves, and phase 4: clean-up ----------------------------------


@RULES.state_check
def _progress(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    duel = state.wizards_duel
    if duel is None or outcome(state) is not None:
        return []
    players = _players_in(state)
    # A player at 0 drops out or starts falling in this same settling round; wait for that.
    if any(w.falling or w.magic <= 0 for w in players) or duel.attack is not None:
        return []
    if duel.phase == 1 and all(w.chosen for w in players):
        if duel.last_roll:
            return [PhaseStarted(phase=2)]
        if duel.last_turn:
            return [LastRollCalled()]
        return [GatherTurnStarted(turn=duel.gather_turn + 1)]
    if duel.phase == 2 and all(w.passed for w in players):
        return [PhaseStarted(phase=3)]
    if duel.phase == 3:
        mover = duel.to_move
        if mover is not None and may_cast(state, mover) and not duel.wizard(mover).turn_over:
            return []
        following = _next_caster(state)
        if following is None:
            return clean_up(state)
        return [CastingTurn(seat=following)]
    return []


def starting_player(state: GameState) -> int:
    """WD-2 phase 4: the fewest magic points starts.  The article does not say who starts on a
    tie; the gadget keeps turn order from the current starting player, so they keep it if tied."""
    duel = duel_of(state)
    count = len(state.players)
    order = [(duel.starting + i) % count for i in range(count)]
    order = [seat for seat in order if _in_game(state, seat)]
    fewest = min(duel.wizard(seat).magic for seat in order)
    return next(seat for seat in order if duel.wizard(seat).magic == fewest)


def clean_up(state: GameState) -> list[Event]:
    """Phase 4, all at once: reserve dice become magic points, everything goes back, the market
    is refreshed, the next round starts (or the game ends on points)."""
    batch = _Batch(state)
    batch.add(PhaseStarted(phase=4))
    duel = batch.duel
    for wizard in _players_in(state):
        if wizard.reserve and not _untargetable(duel, wizard.seat):
            batch.add(MagicChanged(seat=wizard.seat, delta=wizard.reserve, cause="reserve"))
    batch.add(RoundCleanedUp())
    duel = batch.duel
    slots = len(_players_in(state)) + 1
    discarded = sum(duel.market)
    discard = duel.discard + discarded
    from_deck = min(slots, duel.deck)
    reshuffled = discard if from_deck < slots else 0
    drawn = from_deck + min(slots - from_deck, reshuffled)
    batch.add(MarketRefreshed(discarded=discarded, drawn=drawn, reshuffled=reshuffled))
    lesson = _option(state, "magic_lesson") and duel.round >= LESSON_ROUNDS
    alternative = (
        _option(state, "alt_ending")
        and duel.dropout_round is not None
        and duel.round > duel.dropout_round
    )
    if lesson or alternative:
        players = _players_in(batch.state)
        best = max(w.magic for w in players)
        winners = tuple(w.seat for w in players if w.magic == best)
        batch.add(DuelEnded(winners=winners, points=best, reason="lesson" if lesson else "alt"))
    else:
        batch.add(RoundStarted(round=duel.round + 1, starting=starting_player(batch.state)))
    return batch.events


@RULES.applies(PhaseStarted)
def _apply_phase(state: GameState, event: PhaseStarted) -> GameState:
    duel = duel_of(state)
    wizards = tuple(
        w.model_copy(update={"passed": False, "turn_over": False}) for w in duel.wizards
    )
    duel = duel.model_copy(update={"phase": event.phase, "wizards": wizards, "to_move": None})
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(PhaseStarted)
def _describe_phase(state: GameState, event: PhaseStarted) -> Message:
    if event.phase == 3:
        return Message("wd.phase_3", name=state.player(duel_of(state).starting).name)
    return Message(f"wd.phase_{event.phase}")


@RULES.applies(RoundCleanedUp)
def _apply_cleaned_up(state: GameState, event: RoundCleanedUp) -> GameState:
    duel = duel_of(state)
    wizards = []
    for wizard in duel.wizards:
        dice = wizard.total_dice() - wizard.removed
        cards = tuple(c.model_copy(update={"spells": _fresh(c.spells)}) for c in wizard.cards)
        wizards.append(
            wizard.model_copy(
                update={
                    "hand": min(HAND, dice),
                    "reserve": dice - min(HAND, dice),
                    "pool": (),
                    "rolled": None,
                    "chosen": False,
                    "shield": (),
                    "aside": 0,
                    "cards": cards,
                    "learned": False,
                    "passed": False,
                    "turn_over": False,
                    "chain": -1,
                }
            )
        )
    return state.model_copy(
        update={"wizards_duel": duel.model_copy(update={"wizards": tuple(wizards)})}
    )


@RULES.describes(RoundCleanedUp)
def _describe_cleaned_up(state: GameState, event: RoundCleanedUp) -> Message:
    return Message("wd.cleaned_up")


@RULES.applies(MarketRefreshed)
def _apply_market(state: GameState, event: MarketRefreshed) -> GameState:
    duel = duel_of(state)
    deck, discard = duel.deck, duel.discard + event.discarded
    from_deck = min(event.drawn, deck)
    deck -= from_deck
    if event.reshuffled:
        deck, discard = deck + event.reshuffled, discard - event.reshuffled
    deck -= event.drawn - from_deck
    duel = duel.model_copy(
        update={"deck": deck, "discard": discard, "market": (True,) * event.drawn}
    )
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(MarketRefreshed)
def _describe_market(state: GameState, event: MarketRefreshed) -> Message:
    key = "wd.market_reshuffled" if event.reshuffled else "wd.market"
    return Message(
        key,
        discarded=event.discarded,
        drawn=Message("wd.market_drawn", n=event.drawn),
        reshuffled=Message("wd.market_reshuffled_cards", n=event.reshuffled),
    )


@RULES.applies(RoundStarted)
def _apply_round(state: GameState, event: RoundStarted) -> GameState:
    duel = duel_of(state).model_copy(
        update={
            "round": event.round,
            "phase": 1,
            "gather_turn": 1,
            "last_turn": False,
            "last_roll": False,
            "starting": event.starting,
            "to_move": None,
        }
    )
    return state.model_copy(
        update={"wizards_duel": duel, "active": event.starting, "turn": event.round}
    )


@RULES.describes(RoundStarted)
def _describe_round(state: GameState, event: RoundStarted) -> Message:
    return Message("wd.round", round=event.round, name=state.player(event.starting).name)


@RULES.applies(DuelEnded)
def _apply_ended(state: GameState, event: DuelEnded) -> GameState:
    duel = duel_of(state)
    if len(event.winners) == 1:
        reason = f"most magic points ({event.points})"
    else:
        reason = f"tie on {event.points} magic points"
    reason += ", magic lesson over" if event.reason == "lesson" else ", alternative ending"
    duel = duel.model_copy(update={"winners": event.winners, "end_reason": reason})
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(DuelEnded)
def _describe_ended(state: GameState, event: DuelEnded) -> Message:
    reason = Message(f"wd.reason.{event.reason}", rounds=LESSON_ROUNDS)
    if len(event.winners) == 1:
        return Message(
            "wd.ended_win",
            name=state.player(event.winners[0]).name,
            points=event.points,
            reason=reason,
        )
    return Message(
        "wd.ended_tie", names=_names(state, event.winners), points=event.points, reason=reason
    )


# --- the NEXT and ROLL buttons --------------------------------------------------------------


@RULES.decides(DuelNext)
def _next(state: GameState, command: DuelNext, rng: Random) -> list[Event]:
    """NEXT moves the table on: the target takes an attack undefended, the mover passes, phase 2
    ends for everyone still incanting, phase 1 rolls for whoever has not rolled."""
    duel = duel_of(state)
    falling = [w.seat for w in _players_in(state) if w.falling]
    if falling:
        raise IllegalCommand("wd.falling_wait", names=_names(state, falling))
    if duel.attack is not None:
        return _defend(state, Defend(seat=duel.attack.target), rng)
    if duel.phase == 1:
        if any(w.rolled is None and not w.chosen for w in _players_in(state)):
            return _roll(state, RollElementDice(), rng)
        raise IllegalCommand("wd.waiting_choices", names=_names(state, _waiting_to_choose(state)))
    if duel.phase == 2:
        return _ready(state, PassIncantations(), rng)
    return _hold(
        state, PassCasting(seat=duel.to_move if duel.to_move is not None else duel.starting), rng
    )


@RULES.on_button(Button.NEXT)
def _next_button(state: GameState, press: ButtonPressed) -> Command | None:
    if state.wizards_duel is None or press.long:
        return None
    return DuelNext()


@RULES.round_of
def _round(state: GameState) -> int | None:
    """A duel is played in rounds: a saved one shows the round it reached."""
    return state.wizards_duel.round if state.wizards_duel is not None else None


@RULES.on_button(Button.ROLL)
def _roll_button(state: GameState, press: ButtonPressed) -> Command | None:
    if state.wizards_duel is None:
        return None
    return RollElementDice()


def _outcome(state: GameState) -> Outcome | None:
    """WD-3, WD-4: the duel may end on points (Magic lesson, the alternative ending); otherwise the
    last wizard with magic points left wins."""
    duel = state.wizards_duel
    if duel is not None and duel.winners is not None:
        lesson = _option(state, "magic_lesson") and duel.round >= LESSON_ROUNDS
        ending = Message("wd.outcome.lesson" if lesson else "wd.outcome.alt")
        points = duel.wizard(duel.winners[0]).magic
        key = "wd.outcome.most" if len(duel.winners) == 1 else "wd.outcome.tie"
        return Outcome(
            winner=duel.winners[0] if len(duel.winners) == 1 else None,
            reason=duel.end_reason,
            said=Message(key, points=points, ending=ending),
        )
    return last_standing(state)


RULES.outcome("wizards_duel", _outcome)

RULES.says(TEXTS)
