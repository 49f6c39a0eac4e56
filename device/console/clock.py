"""Console commands for the game clock and the turn timer, in any game: ``time`` says how long
the game has been played and what is left of the turn, ``pause`` and ``resume`` stop and restart
the clock for a break, ``timer`` sets the turn timer, and ``clock`` starts a clock the game lacks
(a game saved before the gadget kept one) or else says the time.

In a Conspiracy pod ``clock`` and ``time`` keep their meaning for the round's clock (CJ-5):
``clock`` starts the round's clock and ``time`` says the minutes left in the round, calling time
once it is up; ``time`` then says the game's time as well.  (The round's clock is the event's: a
pause of the pod's game clock does not stop it; docs/decisions/0018-game-clock.md.)
"""

from __future__ import annotations

import re

from device.console.conspiracy import round_clock, round_time
from device.console.core import CommandTable, Console, command
from device.errors import IllegalCommand
from device.rules.clock import (
    PauseGameClock,
    ResumeGameClock,
    SetTurnTimer,
    StartGameClock,
    clock_time,
    played_time,
    timed_turns,
)
from device.rules.teams import turn_name
from device.state import GameState
from device.text import Message, Text
from device.rules.registry import in_play, outcome

TEXTS: dict[str, Text] = {
    "console.clock.played": "Played: {time}.",
    "console.clock.played_paused": "Played: {time}; the clock is paused.",
    "console.clock.played_over": "Played: {time}; the game is over.",
    "console.clock.none": "This game has no game clock: 'clock' starts one.",
    "console.clock.turn_left": "{name}'s turn: {left} left of {timer}.",
    "console.clock.turn_up": "{name}'s turn: the time is up ({timer}).",
    "console.clock.not_timer": "{text!r} is not a turn timer: give seconds (90), minutes and seconds (1:30), or off.",
}

_MINUTES = re.compile(r"(\d+):([0-5]\d)")


def _pod(state: GameState) -> bool:
    """A game played in groups at once (a Conspiracy pod), whose ``clock`` and ``time`` are the
    round's (a game at one table, a Group Game Draft too, has the game's clock)."""
    return in_play().groups(state) is not None


def say_time(console: Console) -> None:
    """How long the game has been played (to its last change, once it is over) and, with a turn
    timer, what is left of the turn."""
    state = console.state
    clock = state.clock
    if clock is None:
        console.say(Message("console.clock.none"))
        return
    now = console.controller.clock()
    over = outcome(state) is not None
    if over:
        last = console.controller.last_change()
        now = min(now, last.at) if last is not None else now
    key = "played_over" if over else "played_paused" if clock.paused else "played"
    console.say(Message(f"console.clock.{key}", time=played_time(clock.played(now))))
    left = clock.turn_left(now)
    if left is None or over or not timed_turns(state):
        return
    timer = clock_time(clock.timer)
    name = turn_name(state)
    if left > 0:
        console.say(
            Message(
                "console.clock.turn_left",
                name=name,
                left=clock_time(left, countdown=True),
                timer=timer,
            )
        )
    else:
        console.say(Message("console.clock.turn_up", name=name, timer=timer))


@command(
    "time",
    "time",
    "How long the game has been played and, with a turn timer, what is left of the turn. In a Conspiracy pod "
    "first the minutes left in the round; once the round's time is up, this calls time and starts the extra "
    "turns (CJ-5).",
)
def _time(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("time")
    if _pod(console.state):
        round_time(console)
    say_time(console)


@command(
    "clock",
    "clock",
    "Start the game clock of a game saved without one (a new game's starts by itself), or say the time. In a "
    "Conspiracy pod: start the round's clock (CJ-5; time_limit= minutes, 75 by default).",
)
def _clock(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("clock")
    state = console.state
    if _pod(state):
        round_clock(console)
    elif state.clock is None:
        console.execute(StartGameClock())
    else:
        say_time(console)


@command(
    "pause",
    "pause",
    "Pause the game clock and the turn timer: a break at the table (UNDO held does the same).",
)
def _pause(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("pause")
    console.execute(PauseGameClock())


@command("resume", "resume", "Start the paused game clock and turn timer again.")
def _resume(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("resume")
    console.execute(ResumeGameClock())


def seconds(text: str) -> int:
    """A turn timer as typed: seconds (``90``), minutes and seconds (``1:30``), or ``off``."""
    word = text.strip().casefold()
    if word in ("off", "none"):
        return 0
    if word.isdigit():
        return int(word)
    found = _MINUTES.fullmatch(word)
    if found is None:
        raise IllegalCommand("console.clock.not_timer", text=text)
    return int(found[1]) * 60 + int(found[2])


@command(
    "timer",
    "timer SECONDS|M:SS|off",
    "Give each turn SECONDS (or M:SS) on the turn timer from now on, or none (off); the table option "
    "turn_timer= sets it at the start. The timer starts again when the turn passes and stops while the clock "
    "is paused; it never passes the turn itself.",
)
def _timer(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("timer")
    console.execute(SetTurnTimer(seconds=seconds(args[0])))


COMMANDS = CommandTable(
    (_time, _clock, _pause, _resume, _timer), texts="console.clock", english=TEXTS
)
TEXTS.update(COMMANDS.help_texts())
