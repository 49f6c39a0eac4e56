"""The rules: pure functions from state and command to events, and from state and event to state.

``decide(state, command, rng)`` validates a command and returns the events it causes, or raises
``IllegalCommand`` with a reason the players understand; it never changes anything.
``apply(state, event)`` folds one event into a new state; it never fails and never draws a random
number — dice results are inside the events, so replaying a journal replays the game.

Nothing here imports pygame, gpiozero, pyserial or sqlite3 (a test checks it).
"""

from __future__ import annotations

from collections.abc import Iterable
from random import Random

from device.commands import Command, NewGame
from device.errors import IllegalCommand
from device.events import Event, GameStarted
from device.formats import formats
from device.rules import (
    clock,
    conspiracy,
    contraptions,
    counters,
    dice,
    life,
    necromancer,
    planechase,
    table,
    two_headed_giant,
    wizards_duel,
)
from device.rules.registry import (
    APPLIERS,
    DECIDERS,
    DESCRIBERS,
    SET_UPS,
    STATE_CHECKS,
    Rules,
    assemble,
)
from device.state import GameState, outcome
from device.text import Message, Text

TEXTS: dict[str, Text] = {
    "rules.no_game": "No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
    "rules.game_over": "The game is over: {result}. Undo to change that, or start a new game with 'new'.",
    "rules.unknown_command": "The gadget does not know how to do {command!r}.",
    "rules.event": "{type}",
}

#: Every part of the rules, in the order their set-ups, state checks and bindings run: the table
#: and life first, then the dice and the clock every game has and the counters every life game
#: has, then each format.  A format is in the game's rules when it is in this list.
PARTS: tuple[Rules, ...] = (
    table.RULES,
    life.RULES,
    dice.RULES,
    clock.RULES,
    counters.RULES,
    necromancer.RULES,
    conspiracy.RULES,
    planechase.RULES,
    contraptions.RULES,
    wizards_duel.RULES,
    two_headed_giant.RULES,
)
assemble(PARTS)
# Each format's title, as its declaration words it (the set-up screen, the console's "games").
TEXTS.update({f"format.title.{fmt.name}": fmt.title for fmt in formats()})

_CHECK_ROUNDS = (
    8  # state checks settle in one or two rounds; the bound only stops a bad check looping
)


def start(command: NewGame, rng: Random) -> GameStarted:
    """The event that starts a game (TB-1, TB-2, TB-5)."""
    return table.start(command, rng)


def decide(state: GameState | None, command: Command, rng: Random) -> list[Event]:
    """The events ``command`` causes in ``state``; raises ``IllegalCommand`` if it may not."""
    if isinstance(command, NewGame):
        started = start(command, rng)
        fresh = table.initial_state(started)
        setup: list[Event] = []
        for step in SET_UPS:
            setup += step(fold(setup, fresh), command, rng)
        return [started, *setup, *_settle(fresh, setup, rng)] if setup else [started]
    if state is None:
        raise IllegalCommand("rules.no_game")
    result = outcome(state)
    if result is not None:
        raise IllegalCommand("rules.game_over", result=describe_outcome(state))
    decider = DECIDERS.get(type(command))
    if decider is None:
        raise IllegalCommand("rules.unknown_command", command=type(command).__name__)
    events = list(decider(state, command, rng))
    return events + _settle(state, events, rng)


def _settle(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """Run the state checks until they add nothing (a player at 0 life loses, …)."""
    after = fold(events, state)
    added: list[Event] = []
    batch = events
    for _ in range(_CHECK_ROUNDS):
        new = [e for check in STATE_CHECKS for e in check(after, batch, rng)]
        if not new:
            break
        added += new
        after = fold(new, after)
        batch = new
    return added


def apply(state: GameState | None, event: Event) -> GameState:
    if isinstance(event, GameStarted):
        return table.initial_state(event)
    if state is None:
        raise ValueError(f"{event.type!r} cannot come before game_started")
    return APPLIERS[type(event)](state, event)


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """The state after ``events``; without ``state`` the first event must be ``game_started``."""
    current = state
    for event in events:
        current = apply(current, event)
    if current is None:
        raise ValueError("no events to fold")
    return current


def describe(state: GameState | None, event: Event) -> Message:
    """What ``event`` did, for the log and the screen; ``state`` is the state before it."""
    if isinstance(event, GameStarted) or state is None:
        return (
            table.describe_start(event)
            if isinstance(event, GameStarted)
            else Message("rules.event", type=event.type)
        )
    describer = DESCRIBERS.get(type(event))
    return describer(state, event) if describer else Message("rules.event", type=event.type)


def play(state: GameState | None, events: Iterable[Event]) -> tuple[list[Message], GameState]:
    """What each event did (described against the state before it) and the state after them
    all, in one pass; without ``state`` the first event must be ``game_started``."""
    messages = []
    for event in events:
        messages.append(describe(state, event))
        state = apply(state, event)
    if state is None:
        raise ValueError("no events to play")
    return messages, state


def describe_outcome(state: GameState) -> Message | None:
    return table.describe_outcome(state)
