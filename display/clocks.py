"""The clocks the header counts down, as queries on the game state: a Conspiracy pod's round or
the turn timer, and when the countdown shows its next second.  The frame draws them, and the
kiosk's loop wakes for them and sounds the turn timer running out.
"""

from __future__ import annotations

import math

from msgspec import Struct

from device.rules.clock import timed_turns
from device.rules.registry import outcome
from device.state import GameState
from display.screens import home
from display.screens.lineup import SCREENS

#: The countdown in the header turns red for its last seconds: a turn timer's last ten, a
#: Conspiracy round's last five minutes.
TURN_WARNING = 10.0
ROUND_WARNING = 300.0


class Countdown(Struct, frozen=True):
    """What the header counts down: seconds ``left`` (negative once the time is up), whether it
    is counting (a paused turn timer is not), and from how many seconds left it shows red."""

    left: float
    running: bool
    warning: float


def countdown(state: GameState | None, wall: float) -> Countdown | None:
    """The clock the header counts down: the game's home screen's own (a Conspiracy pod's
    round, CJ-5), else the turn timer of a game that is not over; None for neither."""
    if state is None:
        return None
    own = home(SCREENS.values(), state)
    if own is not None and own.own_clock:
        left = own.countdown(state, wall)
        return None if left is None else Countdown(left, True, ROUND_WARNING)
    left = turn_left(state, wall)
    return (
        None
        if left is None or state.clock is None
        else Countdown(left, not state.clock.paused, TURN_WARNING)
    )


def turn_left(state: GameState | None, wall: float) -> float | None:
    """Seconds left of the active player's turn on the turn timer (negative once the time is
    up), while a game that is not over has one."""
    if state is None or state.clock is None or not timed_turns(state) or outcome(state) is not None:
        return None
    return state.clock.turn_left(wall)


def clock_deadline(state: GameState | None, now: float, wall: float) -> float | None:
    """When the countdown in the header shows its next second, while it counts."""
    counting = countdown(state, wall)
    if counting is None or not counting.running or counting.left <= 0:
        return None
    fraction = counting.left - math.floor(counting.left)
    return now + (fraction if fraction > 0.001 else 1.0)
