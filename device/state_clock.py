"""The game clock and the turn timer, in any game: their part of the state.

The clock counts how long a game has been played, in seconds taken from the times the events
carry (the game's start, a turn passed); the state reads no clock.  While it runs, the time since
it last started counting adds to what it had counted before.  The turn timer measures the clock's
time since the turn began against ``timer`` seconds (docs/decisions/0018-game-clock.md).

A break at the table is not a change of the game: the journal keeps the table's breaks beside
the game's history, not in it (docs/decisions/0024-breaks-outside-the-history.md), and the state
read from the journal carries them (``breaks``).  The time played and the turn's time leave out
what the breaks cover.  What the events fold to (``counted``, ``since``, ``turn_mark``,
``turn_at``) never depends on the breaks, so undo, redo and a replay from any snapshot give the
same clock, whatever breaks were taken meanwhile.  Journals from before kept a pause as a change
(``since`` None while paused): such a pause still folds as it did.

The times the events carry, and the ``now`` the durations are read at, are the game's time
(``GameTime``, the one thing here that reads a clock, and only the clocks it is given): the wall
clock's when a game starts, the last time its journal knows when it is resumed (the time the
gadget was off is not played), and from there on advancing with the monotonic clock, so a wall
clock set forward or back (a Pi without a real-time clock that gets the time from the network
mid-game) moves none of the durations (docs/decisions/0027-durations-on-the-monotonic-clock.md).
"""

import time
from collections.abc import Callable

from device.models import Model


class Break(Model):
    """A break at the table: the clock stopped at ``began`` and ran again at ``ended`` (None: it
    is still stopped)."""

    began: float
    ended: float | None = None


class ClockState(Model):
    counted: float = 0.0  # seconds played before ``since``
    since: float | None = (
        None  # when the clock last started counting (wall seconds); None: paused by a change
    )
    turn_mark: float = 0.0  # the seconds counted (breaks aside) when the current turn began
    turn_at: float | None = (
        None  # when the current turn began (wall seconds); None: before this was kept
    )
    timer: int = 0  # seconds per turn; 0: no turn timer
    breaks: tuple[Break, ...] = ()  # the table's breaks, oldest first (kept beside the history)

    @classmethod
    def starting(cls, at: float, timer: int = 0) -> "ClockState":
        """A clock that starts counting at ``at``, with a turn timer of ``timer`` seconds."""
        return cls(since=at, turn_at=at, timer=timer)

    @property
    def paused(self) -> bool:
        """Stopped: by a break that goes on, or (a journal from before) by a pause kept as a change."""
        return self.since is None or self.on_break

    @property
    def latest(self) -> float | None:
        """The last time the clock itself knows (when it last started counting, when the turn
        began, when a break began or ended), or None for none."""
        times = [at for at in (self.since, self.turn_at) if at is not None]
        times += [at for b in self.breaks for at in (b.began, b.ended) if at is not None]
        return max(times, default=None)

    @property
    def on_break(self) -> bool:
        return bool(self.breaks) and self.breaks[-1].ended is None

    def counting(self, now: float) -> float:
        """Seconds counted at ``now`` from the events alone, breaks aside.  A wall clock set back
        (a Pi without a real-time clock, before it has the time from the network) never makes it
        count backwards."""
        if self.since is None:
            return self.counted
        return self.counted + max(0.0, now - self.since)

    def played(self, now: float) -> float:
        """Seconds played at ``now``: those counted, less the breaks'."""
        if self.since is None:
            return self.counted
        return self.counting(now) - self.on_breaks(self.since, now)

    def on_breaks(self, start: float, end: float) -> float:
        """Seconds from ``start`` to ``end`` that the breaks cover (each second once, should the
        breaks overlap after the wall clock was set back)."""
        spans = sorted((b.began, end if b.ended is None else b.ended) for b in self.breaks)
        covered, reach = 0.0, start
        for began, ended in spans:
            began, ended = max(began, reach), min(ended, end)
            if ended > began:
                covered += ended - began
                reach = ended
        return covered

    def turn_left(self, now: float) -> float | None:
        """Seconds left of the turn at ``now`` (negative once it has run out), or None without a
        turn timer."""
        if not self.timer:
            return None
        return self.timer - self.turn_played(now)

    def turn_played(self, now: float) -> float:
        """Seconds played since the current turn began."""
        counted = self.counting(now) - self.turn_mark
        if self.since is not None:
            # A turn that began before the clock last started counting began before any break:
            # a break is only ever taken on a clock that counts (a pause kept as a change is older).
            began = self.since if self.turn_at is None else max(self.turn_at, self.since)
            counted -= self.on_breaks(began, now)
        return max(0.0, counted)

    def paused_at(self, at: float) -> "ClockState":
        """A pause kept as a change (a journal from before breaks were kept apart)."""
        return self.model_copy(update={"counted": self.counting(at), "since": None})

    def resumed_at(self, at: float) -> "ClockState":
        return self.model_copy(update={"since": at})

    def break_began(self, at: float) -> "ClockState":
        return self.model_copy(update={"breaks": (*self.breaks, Break(began=at))})

    def break_ended(self, at: float) -> "ClockState":
        last = self.breaks[-1]
        return self.model_copy(
            update={"breaks": (*self.breaks[:-1], last.model_copy(update={"ended": at}))}
        )

    def with_breaks(self, breaks: tuple[Break, ...]) -> "ClockState":
        return self.model_copy(update={"breaks": breaks})

    def turn_began(self, at: float) -> "ClockState":
        """The clock as a new turn begins at ``at``: the turn timer starts again."""
        return self.model_copy(update={"turn_mark": self.counting(at), "turn_at": at})

    def timed(self, timer: int, at: float) -> "ClockState":
        """The clock with a turn timer of ``timer`` seconds from ``at`` on (0: none)."""
        return self.turn_began(at).model_copy(update={"timer": timer})


class GameTime:
    """The game's time: what the controller stamps on a command (``Timed.now``) and what the
    screens and the console count the time played, the turn timer and a Conspiracy round's clock
    against.  Wall-clock seconds from where it was last ``set`` (a game started: the wall clock;
    a game resumed: the last time its journal knows), advancing with the monotonic clock from
    there, so the wall clock set forward or back during a run moves none of the durations
    (docs/decisions/0027-durations-on-the-monotonic-clock.md).  Until it is set it starts on the
    wall clock at its first reading.  ``wall`` and ``monotonic`` are parameters so tests move
    time themselves."""

    def __init__(
        self, wall: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.wall = wall
        self.monotonic = monotonic
        self._base: tuple[float, float] | None = (
            None  # (the game's time, the monotonic clock's) when last set
        )

    def __call__(self) -> float:
        if self._base is None:
            self.set(self.wall())
        assert self._base is not None
        at, mark = self._base
        return at + max(0.0, self.monotonic() - mark)

    def set(self, at: float) -> None:
        """The game's time is ``at`` now, and advances with the monotonic clock from here."""
        self._base = (at, self.monotonic())
