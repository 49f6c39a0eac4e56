"""The game clock and the turn timer, in any game.

The game clock starts with the game (``game_started`` says when) and counts how long it has been
played; a break at the table pauses it and resumes it (``PauseGameClock``, ``ResumeGameClock``).
A break is not a change of the game: UNDO takes back the last change and leaves the clock as it
is.  The rules decide a break and say it (``BreakBegan``, ``BreakEnded``), and the controller
keeps it beside the game's history, not in it (docs/decisions/0024-breaks-outside-the-history.md).
A journal from before kept a pause and a resume as changes (``GameClockPaused``,
``GameClockResumed``): they replay as they did, and resuming a clock such a pause stopped is a
change again.  A game saved before the gadget kept a clock starts one with ``StartGameClock``.  The turn timer is a table option (``turn_timer``,
seconds per turn) or set during the game (``SetTurnTimer``): it counts the clock's time since the
turn began, starts again when the turn passes, and stops while the clock is paused.  It never
passes the turn by itself: the table does, and the screen says when the time is up.

Every time here comes from the command (the controller stamps its clock's time on it: ``Timed``)
and goes into the event, so the journal replays the clock exactly; nothing here reads a clock.
The state's part is ``device.state_clock.ClockState``.  A Conspiracy pod's round clock (CJ-5) is
its own and counts the event's time; decision 0018 says how the two relate.
"""

from __future__ import annotations

import math
from random import Random
from typing import Literal

from device.commands import Command, Timed
from device.errors import IllegalCommand
from device.events import Event
from device.formats import TableOption, titles
from device.inputs import Button, ButtonPressed
from device.rules.registry import Rules, find_format, in_play
from device.rules.table import TURN_TIMER
from device.state import GameState
from device.state_clock import ClockState
from device.text import Message, Text

RULES = Rules("clock")

TIMER_MAX = 60 * 60  # an hour a turn: longer is no timer

RULES.option(
    TableOption(
        TURN_TIMER,
        RULES.name,
        "seconds per turn, counted down for the active player (0: no turn timer)",
        0,
        low=0,
        high=TIMER_MAX,
        step=30,
        everywhere=True,
        # not in a game whose players do not pass the turn one at a time (``Format.turns``)
        times_turns=True,
    )
)

TEXTS: dict[str, Text] = {
    "clock.started": "Game clock started.",
    "clock.paused": "Game clock paused: {time} played.",
    "clock.resumed": "Game clock running again: {time} played.",
    "clock.timer": "Turn timer: {time} a turn, from now.",
    "clock.timer_off": "Turn timer off.",
    "clock.not_started": "This game's clock has not started: start it with 'clock'.",
    "clock.running": "The game clock is running already: {time} played.",
    "clock.already_paused": "The game clock is paused already: {time} played.",
    "clock.not_paused": "The game clock is not paused: {time} played.",
    "clock.no_turns": "{formats} has no turn timer: its players do not pass the turn one at a time at one table.",
    "clock.timer_range": "A turn timer is 1 to {limit} seconds a turn, or 0 for none; {seconds} asked for.",
    "clock.timer_same": "The turn timer is {time} a turn already.",
    "clock.no_timer": "This game has no turn timer already.",
}


# --- commands ------------------------------------------------------------------------------------


class StartGameClock(Timed):
    """Start the clock of a game that has none (one saved before the gadget kept a clock)."""


class PauseGameClock(Timed):
    """A break at the table: the game clock and the turn timer stop."""


class ResumeGameClock(Timed):
    pass


class SetTurnTimer(Timed):
    """A turn timer of ``seconds`` a turn from now on (0: none)."""

    seconds: int


# --- events --------------------------------------------------------------------------------------


class GameClockStarted(Event):
    type: Literal["clock_started"] = "clock_started"
    at: float
    timer: int = 0


class GameClockPaused(Event):
    """A pause kept as a change, by a journal from before breaks were kept apart (never decided now)."""

    type: Literal["clock_paused"] = "clock_paused"
    at: float


class GameClockResumed(Event):
    """A resume kept as a change: of a clock a pause kept as a change stopped."""

    type: Literal["clock_resumed"] = "clock_resumed"
    at: float


class BreakBegan(Event):
    """A break at the table began: kept beside the game's history (``Journal.begin_break``),
    never as one of its changes."""

    type: Literal["clock_break_began"] = "clock_break_began"
    at: float


class BreakEnded(Event):
    """The break ended: the clock runs again (``Journal.end_break``)."""

    type: Literal["clock_break_ended"] = "clock_break_ended"
    at: float


#: The events of a break: the controller keeps them beside the history, not in it.
BREAKS = (BreakBegan, BreakEnded)


def is_break(events: list[Event]) -> bool:
    """Whether ``events`` are a break's (the rules decide a break's event alone)."""
    return bool(events) and all(isinstance(event, BREAKS) for event in events)


class TurnTimerSet(Event):
    type: Literal["turn_timer_set"] = "turn_timer_set"
    seconds: int
    at: float


# --- the time, as a clock shows it -----------------------------------------------------------------


def clock_time(seconds: float, *, countdown: bool = False) -> str:
    """Seconds as a clock shows them: m:ss, or h:mm:ss from an hour on.  A countdown shows a
    second that has begun as a whole one (it reads 0:00 only when the time is up); a clock
    counting up shows the seconds gone."""
    whole = max(0, math.ceil(seconds) if countdown else math.floor(seconds))
    if whole >= 3600:
        return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
    return f"{whole // 60}:{whole % 60:02d}"


def hours_minutes(seconds: float) -> str:
    """Time played to the minute, h:mm (0:42, 1:05): what the table's header shows."""
    minutes = max(0, math.floor(seconds)) // 60
    return f"{minutes // 60}:{minutes % 60:02d}"


def timed_turns(state: GameState) -> bool:
    """Whether the game's turns may have a timer: not where a format says its players do not
    pass the turn one at a time (``Format.turns``)."""
    return in_play().formats.take_turns(state.formats)


def _at(command: Timed) -> float:
    if command.now is None:
        raise ValueError(f"{type(command).__name__} needs the time it was given (now)")
    return command.now


def _clock(state: GameState) -> ClockState:
    if state.clock is None:
        raise IllegalCommand("clock.not_started")
    return state.clock


def played_time(seconds: float) -> str:
    """Time played as messages say it, h:mm:ss (0:01:32): the header's h:mm with the seconds
    after it, so that "1:32" on the header and in a message never mean two different times."""
    whole = max(0, math.floor(seconds))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _played(clock: ClockState, at: float) -> str:
    return played_time(clock.played(at))


# --- starting, pausing and resuming the clock ------------------------------------------------------


@RULES.decides(StartGameClock)
def _start(state: GameState, command: StartGameClock, rng: Random) -> list[Event]:
    at = _at(command)
    if state.clock is not None:
        raise IllegalCommand("clock.running", time=_played(state.clock, at))
    timer = state.options.get(TURN_TIMER, 0)
    return [
        GameClockStarted(
            at=at, timer=timer if isinstance(timer, int) and not isinstance(timer, bool) else 0
        )
    ]


@RULES.applies(GameClockStarted)
def _apply_start(state: GameState, event: GameClockStarted) -> GameState:
    return state.model_copy(update={"clock": ClockState.starting(event.at, event.timer)})


@RULES.describes(GameClockStarted)
def _describe_start(state: GameState, event: GameClockStarted) -> Message:
    return Message("clock.started")


@RULES.decides(PauseGameClock)
def _pause(state: GameState, command: PauseGameClock, rng: Random) -> list[Event]:
    at = _at(command)
    clock = _clock(state)
    if clock.paused:
        raise IllegalCommand("clock.already_paused", time=_played(clock, at))
    return [BreakBegan(at=at)]


@RULES.applies(BreakBegan)
def _apply_break(state: GameState, event: BreakBegan) -> GameState:
    return state.model_copy(update={"clock": _clock(state).break_began(event.at)})


@RULES.describes(BreakBegan)
def _describe_break(state: GameState, event: BreakBegan) -> Message:
    return Message("clock.paused", time=_played(_clock(state), event.at))


@RULES.applies(GameClockPaused)
def _apply_pause(state: GameState, event: GameClockPaused) -> GameState:
    return state.model_copy(update={"clock": _clock(state).paused_at(event.at)})


@RULES.describes(GameClockPaused)
def _describe_pause(state: GameState, event: GameClockPaused) -> Message:
    return Message("clock.paused", time=_played(_clock(state), event.at))


@RULES.decides(ResumeGameClock)
def _resume(state: GameState, command: ResumeGameClock, rng: Random) -> list[Event]:
    at = _at(command)
    clock = _clock(state)
    if not clock.paused:
        raise IllegalCommand("clock.not_paused", time=_played(clock, at))
    return [BreakEnded(at=at)] if clock.on_break else [GameClockResumed(at=at)]


@RULES.applies(BreakEnded)
def _apply_break_end(state: GameState, event: BreakEnded) -> GameState:
    return state.model_copy(update={"clock": _clock(state).break_ended(event.at)})


@RULES.describes(BreakEnded)
def _describe_break_end(state: GameState, event: BreakEnded) -> Message:
    return Message("clock.resumed", time=_played(_clock(state), event.at))


@RULES.applies(GameClockResumed)
def _apply_resume(state: GameState, event: GameClockResumed) -> GameState:
    return state.model_copy(update={"clock": _clock(state).resumed_at(event.at)})


@RULES.describes(GameClockResumed)
def _describe_resume(state: GameState, event: GameClockResumed) -> Message:
    return Message("clock.resumed", time=_played(_clock(state), event.at))


# --- the turn timer ----------------------------------------------------------------------------------


@RULES.decides(SetTurnTimer)
def _set_timer(state: GameState, command: SetTurnTimer, rng: Random) -> list[Event]:
    at = _at(command)
    if not timed_turns(state):
        raise IllegalCommand(
            "clock.no_turns", formats=titles(find_format(name) for name in state.formats)
        )
    clock = _clock(state)
    if not 0 <= command.seconds <= TIMER_MAX:
        raise IllegalCommand("clock.timer_range", seconds=command.seconds, limit=TIMER_MAX)
    if command.seconds == clock.timer:
        if not command.seconds:
            raise IllegalCommand("clock.no_timer")
        raise IllegalCommand("clock.timer_same", time=clock_time(command.seconds))
    return [TurnTimerSet(seconds=command.seconds, at=at)]


@RULES.applies(TurnTimerSet)
def _apply_timer(state: GameState, event: TurnTimerSet) -> GameState:
    return state.model_copy(update={"clock": _clock(state).timed(event.seconds, event.at)})


@RULES.describes(TurnTimerSet)
def _describe_timer(state: GameState, event: TurnTimerSet) -> Message:
    if not event.seconds:
        return Message("clock.timer_off")
    return Message("clock.timer", time=clock_time(event.seconds))


# --- UNDO held: a break at the table ---------------------------------------------------------------


@RULES.on_button(Button.UNDO)
def _undo_held(state: GameState, press: ButtonPressed) -> Command | None:
    """UNDO held pauses the game clock, or resumes it (or starts a clock the game lacks); a short
    UNDO takes back the last change.  (NEXT held is the adjust screen's, on the table.)"""
    if not press.long:
        return None
    if state.clock is None:
        return StartGameClock()
    return ResumeGameClock() if state.clock.paused else PauseGameClock()


RULES.says(TEXTS)
