"""What one part of the rules plugs into a game, as one value, and the tables assembled from them.

Each rules module declares ``RULES = Rules("planechase", …)`` and decorates its functions with
that value's methods (``@RULES.decides(RollPlanarDie)``), so everything the module adds — formats
and table options, deciders, appliers, describers, state checks, set-up, what buttons and cards
mean, how its games end, what it forbids the core — is found in one place.  Importing a module
fills nothing but its own value: ``device.rules.PARTS`` lists the values and ``assemble`` builds
the tables below from that list, once, in the list's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from random import Random
from typing import Annotated, Any, TypeVar, Union

from pydantic import Field, TypeAdapter

from device.bindings import BUTTONS, CARDS, ButtonBinding, CardBinding
from device.commands import Command
from device.events import Event, GameStarted
from device.formats import Format, TableOption, add_format, add_option
from device.inputs import Button
from device.state import OUTCOME_RULES, GameState, Outcome
from device.text import Message

C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)

Decider = Callable[[GameState, Any, Random], list[Event]]
Applier = Callable[[GameState, Any], GameState]
Describer = Callable[[GameState, Any], Message]
#: A state check looks at the state after a command's events (and those events) and returns
#: further events the rules make happen at once, like a player at 0 life losing, a CRANK!
#: counter moving when a turn begins, or a new planar controller when one leaves.  Any random
#: outcome it needs comes from ``rng`` and goes into its events.
StateCheck = Callable[[GameState, list[Event], Random], list[Event]]
#: A set-up step runs once when a game starts, after ``game_started``: a module deals its
#: decks, shuffles, places its counters (with ``rng``), as events.
SetUp = Callable[[GameState, Any, Random], list[Event]]
#: Rules that forbid some damage, e.g. a minion's to their master (NC-7).  A check gets the
#: state, the damaged player's seat and the source, and raises ``IllegalCommand`` to refuse.
DamageCheck = Callable[[GameState, int, int | None], None]
#: Rules that keep the turn from passing while something mandatory waits (a Contraptions
#: assembly with two or three faction dice, CT-A3).  A check gets the state and raises
#: ``IllegalCommand`` with what the table must do first.
PassCheck = Callable[[GameState], None]
#: How a base or table format's games end when not by "last player standing" (Necromancer: the
#: last player who never died, NC-6; a Conspiracy pod: both rounds played, CJ-3).
OutcomeRule = Callable[[GameState], Outcome | None]


@dataclass
class Rules:
    """Everything one rules module adds to the game."""

    name: str
    formats: list[Format] = field(default_factory=list)
    options: list[TableOption] = field(default_factory=list)
    deciders: dict[type[Command], Decider] = field(default_factory=dict)
    appliers: dict[type[Event], Applier] = field(default_factory=dict)
    describers: dict[type[Event], Describer] = field(default_factory=dict)
    state_checks: list[StateCheck] = field(default_factory=list)
    set_ups: list[SetUp] = field(default_factory=list)
    damage_checks: list[DamageCheck] = field(default_factory=list)
    pass_checks: list[PassCheck] = field(default_factory=list)
    outcomes: dict[str, OutcomeRule] = field(default_factory=dict)
    buttons: list[tuple[Button, ButtonBinding]] = field(default_factory=list)
    cards: list[CardBinding] = field(default_factory=list)

    def include(self, other: Rules) -> None:
        """Take in what ``other`` declares: a part of a format kept in a module of its own (the
        Eternities Map's moves are Planechase's)."""
        _merge(self.deciders, other.deciders, "decider", other.name)
        _merge(self.appliers, other.appliers, "applier", other.name)
        self.describers.update(other.describers)
        self.formats += other.formats
        self.options += other.options
        self.state_checks += other.state_checks
        self.set_ups += other.set_ups
        self.damage_checks += other.damage_checks
        self.pass_checks += other.pass_checks
        self.buttons += other.buttons
        self.cards += other.cards
        self.outcomes.update(other.outcomes)

    # --- declarations -----------------------------------------------------------------------

    def format(self, fmt: Format) -> Format:
        self.formats.append(fmt)
        return fmt

    def option(self, option: TableOption) -> TableOption:
        self.options.append(option)
        return option

    def outcome(self, fmt: str, rule: OutcomeRule) -> OutcomeRule:
        self.outcomes[fmt] = rule
        return rule

    # --- decorators -------------------------------------------------------------------------

    def decides(
        self, command: type[C]
    ) -> Callable[
        [Callable[[GameState, C, Random], list[Event]]],
        Callable[[GameState, C, Random], list[Event]],
    ]:
        def add(
            fn: Callable[[GameState, C, Random], list[Event]],
        ) -> Callable[[GameState, C, Random], list[Event]]:
            if command in self.deciders:
                raise TypeError(f"{command.__name__} already has a decider in {self.name}")
            self.deciders[command] = fn
            return fn

        return add

    def applies(
        self, event: type[E]
    ) -> Callable[[Callable[[GameState, E], GameState]], Callable[[GameState, E], GameState]]:
        def add(fn: Callable[[GameState, E], GameState]) -> Callable[[GameState, E], GameState]:
            if event in self.appliers:
                raise TypeError(f"{event.__name__} already has an applier in {self.name}")
            self.appliers[event] = fn
            return fn

        return add

    def describes(
        self, event: type[E]
    ) -> Callable[[Callable[[GameState, E], Message]], Callable[[GameState, E], Message]]:
        def add(fn: Callable[[GameState, E], Message]) -> Callable[[GameState, E], Message]:
            self.describers[event] = fn
            return fn

        return add

    def state_check(self, fn: StateCheck) -> StateCheck:
        self.state_checks.append(fn)
        return fn

    def set_up(self, fn: SetUp) -> SetUp:
        """A start-of-game step; it is called with the ``NewGame`` command."""
        self.set_ups.append(fn)
        return fn

    def damage_check(self, fn: DamageCheck) -> DamageCheck:
        self.damage_checks.append(fn)
        return fn

    def pass_check(self, fn: PassCheck) -> PassCheck:
        self.pass_checks.append(fn)
        return fn

    def on_button(self, button: Button) -> Callable[[ButtonBinding], ButtonBinding]:
        def add(fn: ButtonBinding) -> ButtonBinding:
            self.buttons.append((button, fn))
            return fn

        return add

    def on_card(self, fn: CardBinding) -> CardBinding:
        self.cards.append(fn)
        return fn


# --- the tables, assembled from ``device.rules.PARTS`` ------------------------------------------

DECIDERS: dict[type[Command], Decider] = {}
APPLIERS: dict[type[Event], Applier] = {}
DESCRIBERS: dict[type[Event], Describer] = {}
STATE_CHECKS: list[StateCheck] = []
SET_UPS: list[SetUp] = []
DAMAGE_CHECKS: list[DamageCheck] = []
PASS_CHECKS: list[PassCheck] = []
#: Every event a journal may hold, by its ``type`` name: ``game_started`` and each event a part applies.
EVENT_TYPES: dict[str, type[Event]] = {}


def assemble(parts: Sequence[Rules]) -> None:
    """Build every table from ``parts``, in their order (the order set-ups, state checks and
    bindings run in).  Two parts deciding one command or applying one event is refused before
    anything is built."""
    names = [part.name for part in parts]
    if len(set(names)) != len(names):
        raise TypeError(f"a rules part is listed twice: {names}")
    game = Rules("game")
    for part in parts:
        game.include(part)
    named = _named((GameStarted, *game.appliers))
    DECIDERS.update(game.deciders)
    APPLIERS.update(game.appliers)
    EVENT_TYPES.update(named)
    _event_adapter.cache_clear()
    DESCRIBERS.update(game.describers)
    STATE_CHECKS.extend(game.state_checks)
    SET_UPS.extend(game.set_ups)
    DAMAGE_CHECKS.extend(game.damage_checks)
    PASS_CHECKS.extend(game.pass_checks)
    OUTCOME_RULES.update(game.outcomes)
    for fmt in game.formats:
        add_format(fmt)
    for option in game.options:
        add_option(option)
    for button, binding in game.buttons:
        BUTTONS[button].append(binding)
    CARDS.extend(game.cards)


def _named(events: Iterable[type[Event]]) -> dict[str, type[Event]]:
    """``events`` by their ``type`` literal, which each must have, and no two alike."""
    named: dict[str, type[Event]] = {}
    for event in events:
        name = event.model_fields["type"].default
        if not isinstance(name, str):
            raise TypeError(f"{event.__name__} needs a type literal with a default")
        if name in named:
            raise TypeError(f"event type {name!r} is used by {named[name].__name__} already")
        named[name] = event
    return named


@cache
def _event_adapter() -> TypeAdapter[Event]:
    union: Any = Union[tuple(EVENT_TYPES.values())]  # noqa: UP007 - built at run time from the parts
    adapter: TypeAdapter[Event] = TypeAdapter(Annotated[union, Field(discriminator="type")])
    return adapter


def parse_event(body: str | bytes) -> Event:
    """One event from its journal JSON.  Raises ``pydantic.ValidationError`` if it is not one."""
    return _event_adapter().validate_json(body)


def _merge(table: dict[Any, Any], entries: dict[Any, Any], what: str, part: str) -> None:
    for key, value in entries.items():
        if key in table:
            raise TypeError(f"{key.__name__} has a second {what} in {part}")
        table[key] = value


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """``state`` after ``events`` of a game already started: what a rules module uses to see
    the state its earlier events make while it decides the next ones."""
    for event in events:
        state = APPLIERS[type(event)](state, event)
    return state
