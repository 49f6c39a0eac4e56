"""Wizard's Duel's commands: what a player asks for."""

from typing import Literal

from device.commands import Command
from device.rules.wizards_duel.state import Face, Spell


class RollElementDice(Command):
    """Phase 1: roll hand dice.  No seat: the gadget rolls for everyone who still has to."""

    seat: int | None = None
    faces: tuple[Face, ...] | None = None  # the faces a physical roll showed


class GatherMana(Command):
    """Phase 1: set rolled dice aside into the mana pool and refill; none: take all back."""

    seat: int
    aside: tuple[Face, ...] = ()


class SetShieldDie(Command):
    seat: int
    face: Face


class DefineSpellCard(Command):
    seat: int
    name: str
    level: int | None = None
    spells: tuple[Spell, ...]


class PaySpell(Command):
    seat: int
    card: str
    spell: int | None = None  # 0-based; None: the only one that can take dice
    dice: tuple[Face, ...]


class LearnSpell(Command):
    seat: int
    slot: int  # 1-based market slot
    name: str
    level: int | None = None
    spells: tuple[Spell, ...]
    dice: tuple[Face, ...]


class PassIncantations(Command):
    seat: int | None = None  # None: everyone still incanting


class CastSpell(Command):
    seat: int
    card: str
    spell: int | None = None
    target: int | None = None
    chain_to: Literal["reserve", "pool"] = "reserve"


DefenceKind = Literal["none", "heal", "reserve", "counter", "drain"]


class Defend(Command):
    seat: int
    how: DefenceKind = "none"
    card: str | None = None
    spell: int | None = None
    count: int = 0
    dice: tuple[Face, ...] = ()


class PassCasting(Command):
    seat: int


class SacrificePower(Command):
    seat: int
    card: str


class DropOut(Command):
    seat: int


class DuelNext(Command):
    """The NEXT button in a duel: whatever moves the table on now."""
