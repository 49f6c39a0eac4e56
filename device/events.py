"""Events: what happened, in the past tense.  The journal stores them; ``apply`` folds them.

Every event class has a ``type`` literal that names it in the journal's JSON; all of them
together form one discriminated union (``parse_event``).  Events hold every random outcome
(dice, shuffles, a random first player), so replaying a journal gives the same game.  Module
events live in their rules module and register the same way, by subclassing ``Event``.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, Union

from pydantic import Field, TypeAdapter

from device.models import Model
from device.state import LossReason

#: Version of the events' JSON.  A journal holding a higher number was written by a newer
#: aetherbox; it is refused with a clear message rather than misread.
EVENT_SCHEMA = 1

_TYPES: dict[str, type[Event]] = {}


class Event(Model):
    type: str

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        name = cls.model_fields["type"].default
        if not isinstance(name, str):
            raise TypeError(f"{cls.__name__} needs a type literal with a default")
        if name in _TYPES and _TYPES[name] is not cls:
            raise TypeError(f"event type {name!r} is used by {_TYPES[name].__name__} already")
        _TYPES[name] = cls
        _adapter.cache_clear()


@cache
def _adapter() -> TypeAdapter[Event]:
    union: Any = Union[tuple(_TYPES.values())]  # noqa: UP007 - built at run time from the registry
    adapter: TypeAdapter[Event] = TypeAdapter(Annotated[union, Field(discriminator="type")])
    return adapter


def parse_event(body: str | bytes) -> Event:
    """One event from its journal JSON.  Raises ``pydantic.ValidationError`` if it is not one."""
    return _adapter().validate_json(body)


# --- table and turns (TB) -------------------------------------------------------------------


class PlayerSpec(Model):
    name: str
    commanders: tuple[str, ...] = ()


class GameStarted(Event):
    type: Literal["game_started"] = "game_started"
    formats: tuple[str, ...]
    options: dict[str, str | int | bool] = Field(default_factory=dict)
    starting_life: int
    players: tuple[PlayerSpec, ...]
    starting_player: int
    starting_player_random: bool  # TB-5: drawn by the gadget rather than chosen


class StepChanged(Event):
    type: Literal["step_changed"] = "step_changed"
    step: str


class TurnPassed(Event):
    type: Literal["turn_passed"] = "turn_passed"
    to: int
    turn: int


class TurnSkipped(Event):
    """A player's seat came up but they skip this turn (a card told them to)."""

    type: Literal["turn_skipped"] = "turn_skipped"
    seat: int


class SkipScheduled(Event):
    type: Literal["skip_scheduled"] = "skip_scheduled"
    seat: int
    turns: int


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


class PlayerLost(Event):
    type: Literal["player_lost"] = "player_lost"
    seat: int
    reason: LossReason
    source: int | None = None
