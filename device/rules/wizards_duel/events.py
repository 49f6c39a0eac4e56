"""Wizard's Duel's events: what happened, in the past tense."""

from typing import Literal

from device.events import Event
from device.rules.wizards_duel.commands import DefenceKind
from device.rules.wizards_duel.state import Face, SpellCard


class DuelSetUp(Event):
    type: Literal["wd_set_up"] = "wd_set_up"
    magic: int
    hand: int
    reserve: int
    market: int
    deck: int


class ElementDiceRolled(Event):
    type: Literal["wd_dice_rolled"] = "wd_dice_rolled"
    seat: int
    faces: tuple[Face, ...]
    physical: bool  # entered from real dice rather than rolled by the gadget
    last: bool = False  # phase 1's last roll: straight into the mana pool


class ManaGathered(Event):
    type: Literal["wd_mana_gathered"] = "wd_mana_gathered"
    seat: int
    aside: tuple[Face, ...]
    drawn: int
    missing: int = 0


class ShieldDieSet(Event):
    type: Literal["wd_shield_die_set"] = "wd_shield_die_set"
    seat: int
    face: Face


class GatherTurnStarted(Event):
    type: Literal["wd_gather_turn"] = "wd_gather_turn"
    turn: int


class LastRollCalled(Event):
    type: Literal["wd_last_roll"] = "wd_last_roll"


class PhaseStarted(Event):
    type: Literal["wd_phase"] = "wd_phase"
    phase: int


class SpellCardDefined(Event):
    type: Literal["wd_card_defined"] = "wd_card_defined"
    seat: int
    card: SpellCard


class SpellPaid(Event):
    type: Literal["wd_spell_paid"] = "wd_spell_paid"
    seat: int
    card: int
    spell: int
    dice: tuple[Face, ...]


class SpellLearned(Event):
    type: Literal["wd_spell_learned"] = "wd_spell_learned"
    seat: int
    slot: int  # 0-based
    card: SpellCard  # with the payment on its first spell


class IncantationsPassed(Event):
    type: Literal["wd_incantations_passed"] = "wd_incantations_passed"
    seat: int


class CastingTurn(Event):
    type: Literal["wd_casting_turn"] = "wd_casting_turn"
    seat: int


class SpellCast(Event):
    type: Literal["wd_spell_cast"] = "wd_spell_cast"
    seat: int
    card: int
    spell: int
    target: int | None = None


class ChainDiceReturned(Event):
    type: Literal["wd_chain_returned"] = "wd_chain_returned"
    seat: int
    card: int
    spell: int
    count: int
    to: Literal["reserve", "pool"]


class AttackDefended(Event):
    type: Literal["wd_defended"] = "wd_defended"
    seat: int
    how: DefenceKind
    card: int | None = None
    spell: int | None = None
    count: int = 0
    dice: tuple[Face, ...] = ()


class CastingPassed(Event):
    type: Literal["wd_casting_passed"] = "wd_casting_passed"
    seat: int


Cause = Literal[
    "spell", "area", "counter", "fatigue", "refill", "drain", "drained", "heal", "reserve"
]


class MagicChanged(Event):
    type: Literal["wd_magic"] = "wd_magic"
    seat: int
    delta: int
    cause: Cause
    source: int | None = None


class ShieldAbsorbed(Event):
    type: Literal["wd_shield_absorbed"] = "wd_shield_absorbed"
    seat: int
    amount: int
    school: Face


class WizardFalling(Event):
    type: Literal["wd_falling"] = "wd_falling"
    seat: int


class PowerSacrificed(Event):
    type: Literal["wd_sacrificed"] = "wd_sacrificed"
    seat: int
    card: int


class WizardDroppedOut(Event):
    type: Literal["wd_dropped_out"] = "wd_dropped_out"
    seat: int
    round: int


class RoundCleanedUp(Event):
    type: Literal["wd_cleaned_up"] = "wd_cleaned_up"


class MarketRefreshed(Event):
    type: Literal["wd_market"] = "wd_market"
    discarded: int
    drawn: int
    reshuffled: int = (
        0  # discarded cards shuffled into a new deck (physical cards: no order to keep)
    )


class RoundStarted(Event):
    type: Literal["wd_round"] = "wd_round"
    round: int
    starting: int


class DuelEnded(Event):
    type: Literal["wd_ended"] = "wd_ended"
    winners: tuple[int, ...]
    points: int
    reason: Literal["lesson", "alt"]
