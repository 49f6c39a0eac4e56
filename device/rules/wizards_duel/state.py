"""Wizard's Duel ("Pojedynek czarnoksiężnika", SPEC section 6): the module's part of the state.

The gadget does not know the game's spell cards.  Players describe each card once, the way it
is printed: its name, an optional level (0–2, for the chain reaction) and one or two spells,
each with a kind (offensive, area, healing), a strength and a school.  A card's cost is not
entered: the dice the player lays on it are the payment, and the gadget keeps exactly those
dice until the round ends.  That is all the rules need to track the game.

Element dice are identical; only a rolled die has a face.  A player's dice are counted in
piles (hand, reserve, set aside, removed from the game) or listed by face where the face still
matters (the mana pool, the dice on spells, the antimagic shield, the last roll).
"""

import enum

from device.models import Model


class Face(enum.StrEnum):
    """An element die's symbol, which is also a spell school (air's symbol is the whirlwind)."""

    MAGIC = "magic"
    FIRE = "fire"
    WATER = "water"
    EARTH = "earth"
    AIR = "air"


class SpellKind(enum.StrEnum):
    OFFENSIVE = "offensive"  # at one opponent, who may defend
    AREA = "area"  # at one opponent, who may defend; everyone else takes ``others``
    HEALING = "healing"  # on oneself, or as a defence that weakens an attack


class Spell(Model):
    """One spell on a card, as printed, plus the dice paid for it this round."""

    kind: SpellKind
    strength: int
    school: Face
    others: int = 0  # area spells: damage to each player other than the target and the caster
    dice: tuple[Face, ...] = ()  # paid this round (activated); stays until the round ends
    cast: bool = False  # used this round (cast, or spent as a healing defence)

    @property
    def ready(self) -> bool:
        """Activated and not used yet."""
        return bool(self.dice) and not self.cast


class SpellCard(Model):
    number: int  # unique per player, for events to refer to
    name: str
    level: int | None = None  # 0, 1 or 2 when the card has a level
    basic: bool = True  # one of the character's starting cards (learned cards are not)
    spells: tuple[Spell, ...]  # one or two

    @property
    def on_table(self) -> bool:
        """Played this round: dice lie on at least one of its spells."""
        return any(spell.dice for spell in self.spells)

    @property
    def turned(self) -> bool:
        """Turned sideways: every paid spell on it has been used."""
        return self.on_table and all(spell.cast for spell in self.spells if spell.dice)


class Wizard(Model):
    seat: int
    magic: int
    hand: int  # element dice in hand (their faces, once rolled, are in ``rolled``)
    reserve: int
    pool: tuple[Face, ...] = ()  # the mana pool
    rolled: tuple[Face, ...] | None = None  # this phase-1 turn's roll, until the player chooses
    chosen: bool = False  # has made this phase-1 turn's choice (or the final roll)
    shield: tuple[Face, ...] = ()  # antimagic shield dice, until the round ends
    aside: int = 0  # reserve dice used against attacks and dice spent on counterattacks
    removed: int = 0  # dice removed from the game (power drain); never come back
    cards: tuple[SpellCard, ...] = ()
    fatigue: int = 0  # fatigue damage taken over the game
    learned: bool = False  # learned a market spell this round
    passed: bool = False  # passed in phase 2 or phase 3 (done for that phase)
    turn_over: bool = False  # phase 3: this player's current turn is used up
    chain: int = -1  # chain reaction: level of the last spell in the running chain, -1 none
    falling: bool = False  # at 0 magic points, deciding on the power sacrifice
    drain_used: bool = False
    sacrifice_used: bool = False
    sacrificed_round: int | None = None  # untargetable and idle until this round ends
    hurt_by: int | None = None  # seat of the last player who took magic points from this one

    def card(self, number: int) -> SpellCard:
        for card in self.cards:
            if card.number == number:
                return card
        raise KeyError(number)

    def dice_on_cards(self) -> int:
        return sum(len(spell.dice) for card in self.cards for spell in card.spells)

    def total_dice(self) -> int:
        """Every die this player started with, wherever it is now."""
        return (
            self.hand
            + self.reserve
            + len(self.pool)
            + len(self.shield)
            + self.aside
            + self.removed
            + self.dice_on_cards()
        )


class Attack(Model):
    """A cast offensive or area spell waiting for its target's defence."""

    caster: int
    card: int
    spell: int
    target: int
    kind: SpellKind
    strength: int
    school: Face
    others: int = 0


class WizardsDuelState(Model):
    round: int = 1
    phase: int = 1  # 1 gathering mana, 2 incantations, 3 casting (4, clean-up, is instant)
    gather_turn: int = 1  # phase 1's simultaneous turn
    last_turn: bool = False  # phase 1: someone could not refill; this turn ends the phase
    last_roll: bool = False  # phase 1: everyone's last roll, straight into the mana pool
    starting: int  # seat of the starting player (phase 3 begins with them)
    to_move: int | None = None  # phase 3: whose turn it is to cast
    attack: Attack | None = None
    wizards: tuple[Wizard, ...]
    market: tuple[bool, ...]  # face-up spell cards by slot; False once learned this round
    deck: int  # face-down spell cards left
    discard: int = 0
    dropout_round: int | None = None  # the first round in which a player dropped out
    winners: tuple[int, ...] | None = None  # set when the game ends on points (WD-3, WD-4)
    end_reason: str = ""

    def wizard(self, seat: int) -> Wizard:
        return self.wizards[seat]

    def with_wizard(self, wizard: Wizard) -> "WizardsDuelState":
        wizards = list(self.wizards)
        wizards[wizard.seat] = wizard
        return self.model_copy(update={"wizards": tuple(wizards)})
