"""Events: what happened, in the past tense.  The journal stores them; ``apply`` folds them.

Every event class has a ``type`` literal that names it in the journal's JSON; the events the
rules' parts apply, with ``game_started``, form one discriminated union (``device.rules.EVENTS``
and ``parse_event``).  Events hold every random outcome (dice, shuffles, a random first player),
so replaying a journal gives the same game.  A format's events live in its rules package.
"""

from typing import Literal

from pydantic import Field

from device.models import Model
from device.state import LossReason

#: Version of the events' JSON.  A journal holding a higher number was written by a newer
#: aetherbox; it is refused with a clear message rather than misread.
EVENT_SCHEMA = 1


class Event(Model):
    type: str


# --- table and turns (TB) -------------------------------------------------------------------


class PlayerSpec(Model):
    name: str
    commanders: tuple[str, ...] = ()
    colour: str = ""  # "": the seat's own (a game saved before colours existed)


class GameStarted(Event):
    type: Literal["game_started"] = "game_started"
    formats: tuple[str, ...]
    options: dict[str, str | int | bool] = Field(default_factory=dict)
    starting_life: int
    players: tuple[PlayerSpec, ...]
    starting_player: int
    starting_player_random: bool  # TB-5: drawn by the gadget rather than chosen
    at: float | None = None  # when the game started (wall seconds): the game clock starts then


class StepChanged(Event):
    type: Literal["step_changed"] = "step_changed"
    step: str


class TurnPassed(Event):
    type: Literal["turn_passed"] = "turn_passed"
    to: int
    turn: int
    at: float | None = None  # when the turn passed (wall seconds): the turn timer starts again then


class TurnSkipped(Event):
    """A player's seat came up but they skip this turn (a card told them to)."""

    type: Literal["turn_skipped"] = "turn_skipped"
    seat: int


class SkipScheduled(Event):
    type: Literal["skip_scheduled"] = "skip_scheduled"
    seat: int
    turns: int


class ColourChosen(Event):
    type: Literal["colour_chosen"] = "colour_chosen"
    seat: int
    colour: str
    swapped: int | None = None  # the seat that had the colour and takes the chooser's


class TurnOrderReversed(Event):
    type: Literal["turn_order_reversed"] = "turn_order_reversed"
    direction: int  # the new direction: 1 clockwise, -1 counter-clockwise


# --- life (LF) ------------------------------------------------------------------------------


class LifeChanged(Event):
    type: Literal["life_changed"] = "life_changed"
    seat: int
    delta: int
    source: int | None = None


class PoisonChanged(Event):
    type: Literal["poison_changed"] = "poison_changed"
    seat: int
    delta: int
    source: int | None = None


class CommanderDamageDealt(Event):
    type: Literal["commander_damage_dealt"] = "commander_damage_dealt"
    seat: int
    source: int
    commander: int
    amount: int


class CommandersNamed(Event):
    type: Literal["commanders_named"] = "commanders_named"
    seat: int
    commanders: tuple[str, ...]


class CommanderCast(Event):
    """Commander ``commander`` of the player at ``seat`` was cast from the command zone ``amount``
    more times (a negative amount: casts counted by mistake, taken back)."""

    type: Literal["commander_cast"] = "commander_cast"
    seat: int
    commander: int
    amount: int = 1


class PlayerLost(Event):
    type: Literal["player_lost"] = "player_lost"
    seat: int
    reason: LossReason
    source: int | None = None
