"""Where rules modules register what they decide, apply and describe.

Each rules module decorates its functions; ``device.rules`` imports every module once so the
registry is complete before the first command.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from random import Random
from typing import Any, TypeVar

from device.commands import Command
from device.events import Event
from device.state import GameState
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

DECIDERS: dict[type[Command], Decider] = {}
APPLIERS: dict[type[Event], Applier] = {}
DESCRIBERS: dict[type[Event], Describer] = {}
STATE_CHECKS: list[StateCheck] = []
SET_UPS: list[SetUp] = []


def decides(command: type[C]) -> Callable[[Callable[[GameState, C, Random], list[Event]]], Callable[[GameState, C, Random], list[Event]]]:
    def register(fn: Callable[[GameState, C, Random], list[Event]]) -> Callable[[GameState, C, Random], list[Event]]:
        if command in DECIDERS:
            raise TypeError(f"{command.__name__} already has a decider")
        DECIDERS[command] = fn
        return fn

    return register


def applies(event: type[E]) -> Callable[[Callable[[GameState, E], GameState]], Callable[[GameState, E], GameState]]:
    def register(fn: Callable[[GameState, E], GameState]) -> Callable[[GameState, E], GameState]:
        if event in APPLIERS:
            raise TypeError(f"{event.__name__} already has an applier")
        APPLIERS[event] = fn
        return fn

    return register


def describes(event: type[E]) -> Callable[[Callable[[GameState, E], Message]], Callable[[GameState, E], Message]]:
    def register(fn: Callable[[GameState, E], Message]) -> Callable[[GameState, E], Message]:
        DESCRIBERS[event] = fn
        return fn

    return register


def state_check(fn: StateCheck) -> StateCheck:
    STATE_CHECKS.append(fn)
    return fn


def set_up(fn: SetUp) -> SetUp:
    """Register a module's start-of-game step; it is called with the ``NewGame`` command."""
    SET_UPS.append(fn)
    return fn


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """``state`` after ``events`` of a game already started: what a rules module uses to see
    the state its earlier events make while it decides the next ones."""
    for event in events:
        state = APPLIERS[type(event)](state, event)
    return state
