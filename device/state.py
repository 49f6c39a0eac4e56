"""The game state: what the table looks like after every event so far.

State is immutable.  ``device.game.apply`` returns a new state for each event; nothing else
makes one.  ``GameState.model_dump(mode="json")`` is the documented shape behind the console's
``state`` command (see README, "The state JSON"); ``STATE_SCHEMA`` is its version and goes up
whenever that shape changes incompatibly.
"""

import enum
from typing import TypeVar

from pydantic import ConfigDict, Field

from device.models import Model
from device.rules.planechase.state import PlanechaseState
from device.rules.contraptions.state import ContraptionsState
from device.rules.wizards_duel.state import WizardsDuelState
from device.rules.necromancer.state import NecromancerState
from device.rules.conspiracy.state import ConspiracyState
from device.state_dice import DiceState
from device.state_clock import ClockState
from device.state_counters import CountersState
from device.text import Message

STATE_SCHEMA = 1


class Step(enum.StrEnum):
    """The part of a turn the gadget cares about."""

    UPKEEP = "upkeep"  # contraptions crank, upkeep dice
    MAIN = "main"  # planar die rolls


class LossReason(enum.StrEnum):
    LIFE = "life"  # 0 or less life
    POISON = "poison"  # 10 or more poison counters
    COMMANDER = "commander"  # 21 or more combat damage from one commander
    CONCEDED = "conceded"
    EFFECT = "effect"  # a card or other rule said so
    TEAM = "team"  # Two-Headed Giant: their teammate lost, and a team loses together (810.8a)
    LEFT = "left"  # a Conspiracy group's game: out of it, on to round 2 after round 1 (CJ-3)


class Loss(Model):
    reason: LossReason
    source: int | None = None  # seat of the player responsible, if any
    turn: int


class CommanderDamage(Model):
    """Combat damage a player has taken from one commander (partners are separate sources)."""

    source: int  # seat of the commander's owner
    commander: int  # index into that player's ``commanders``
    amount: int


class Player(Model):
    seat: int  # 0-based, clockwise; the default turn order follows seats
    name: str
    life: int
    poison: int = 0
    commanders: tuple[str, ...] = ()  # named commanders; none named = one commander
    commander_damage: tuple[CommanderDamage, ...] = ()
    # CR 903.8: how many times each of the player's commanders (by index, as ``commanders``) was
    # cast from the command zone; none cast is ``()`` (a game saved before the tax was counted).
    commander_casts: tuple[int, ...] = ()
    lost: Loss | None = None
    skip_turns: int = 0  # turns this player will skip when their seat comes up
    colour: str = ""  # a name from device.rules.colours.COLOURS; "": the seat's own

    @property
    def in_game(self) -> bool:
        return self.lost is None

    def casts(self, commander: int) -> int:
        """How many times commander ``commander`` was cast from the command zone this game."""
        return self.commander_casts[commander] if commander < len(self.commander_casts) else 0

    def commander_damage_from(self, source: int, commander: int) -> int:
        for entry in self.commander_damage:
            if entry.source == source and entry.commander == commander:
                return entry.amount
        return 0


class LedgerEntry(Model):
    """Running totals of what one source did to one player's life and poison (LF-2)."""

    source: int | None  # a seat, or None for "no player" (self-inflicted, unknown, the game)
    target: int
    life_lost: int = 0
    life_gained: int = 0
    poison: int = 0


PartT = TypeVar("PartT", bound=Model)


class GameState(Model):
    schema_version: int = STATE_SCHEMA
    formats: tuple[str, ...]  # the base format first, then modules
    options: dict[str, str | int | bool] = Field(default_factory=dict)
    starting_life: int
    players: tuple[Player, ...]
    starting_player: int
    active: int  # seat of the active player
    turn: int = 1
    step: Step = Step.UPKEEP
    direction: int = 1  # 1 clockwise, -1 after the turn order was reversed
    ledger: tuple[LedgerEntry, ...] = ()
    # Each module's part of the state, None when the module is not in the game (one line each).
    planechase: PlanechaseState | None = None
    contraptions: ContraptionsState | None = None
    wizards_duel: WizardsDuelState | None = None
    necromancer: NecromancerState | None = None
    conspiracy: ConspiracyState | None = None
    dice: DiceState | None = None  # dice, coin and random players, in any game (None: none thrown)
    clock: ClockState | None = (
        None  # the game clock and turn timer, in any game (None: not started)
    )
    counters: CountersState | None = (
        None  # monarch, initiative, day/night, player counters (None: none marked)
    )

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def in_game(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.in_game)

    def has(self, fmt: str) -> bool:
        return fmt in self.formats

    def part(self, kind: type[PartT]) -> PartT:
        """This game's state of one part (``state.part(PlanechaseState)``), where the caller
        knows the game has it: typed, where the field is optional.  A ``ValueError`` naming the
        part when the game has none (a programming error, not a player's)."""
        for value in self.__dict__.values():
            if isinstance(value, kind):
                return value
        raise ValueError(f"this game has no {kind.__name__}: its formats are {self.formats}")

    def with_player(self, player: Player) -> "GameState":
        players = list(self.players)
        players[player.seat] = player
        return self.model_copy(update={"players": tuple(players)})


class Outcome(Model):
    """The end of a game, as a value: a winner, or a draw when everyone left at once.

    ``reason`` is the English the console and its JSON give; ``said`` is the same reason as a
    message, so a screen says it in its language (it is not part of the JSON)."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    winner: int | None
    reason: str
    team: tuple[int, ...] = ()  # Two-Headed Giant: every seat of the winning team (TB-6)
    said: Message | None = Field(default=None, exclude=True)


def last_standing(state: GameState) -> Outcome | None:
    """The usual end: one player left in the game wins; nobody left is a draw."""
    remaining = state.in_game()
    if len(remaining) == 1:
        return Outcome(
            winner=remaining[0].seat,
            reason="last player standing",
            said=Message("table.reason.last_standing"),
        )
    if not remaining:
        return Outcome(
            winner=None,
            reason="every player left the game",
            said=Message("table.reason.everyone_left"),
        )
    return None
