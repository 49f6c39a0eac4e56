"""The game clock and the turn timer, in any game: their part of the state.

The clock counts how long a game has been played, in wall-clock seconds taken from the times the
events carry (the game's start, a pause, a resume, a turn passed); nothing here reads a clock.
While it runs, the time since it last started counting adds to what it had counted before; a
pause stops that.  The turn timer measures the clock's time since the turn began against
``timer`` seconds, so a pause stops it too.  Time the gadget spent switched off counts as played
unless the clock was paused (docs/decisions/0018-game-clock.md).
"""

from device.models import Model


class ClockState(Model):
    counted: float = 0.0  # seconds played before ``since``
    since: float | None = None  # when the clock last started counting (wall seconds); None: paused
    turn_mark: float = 0.0  # the seconds played when the current turn began
    timer: int = 0  # seconds per turn; 0: no turn timer

    @classmethod
    def starting(cls, at: float, timer: int = 0) -> "ClockState":
        """A clock that starts counting at ``at``, with a turn timer of ``timer`` seconds."""
        return cls(since=at, timer=timer)

    @property
    def paused(self) -> bool:
        return self.since is None

    def played(self, now: float) -> float:
        """Seconds played at ``now``.  A wall clock set back (a Pi without a real-time clock,
        before it has the time from the network) never makes it count backwards."""
        if self.since is None:
            return self.counted
        return self.counted + max(0.0, now - self.since)

    def turn_left(self, now: float) -> float | None:
        """Seconds left of the turn at ``now`` (negative once it has run out), or None without a
        turn timer."""
        if not self.timer:
            return None
        return self.timer - max(0.0, self.played(now) - self.turn_mark)

    def paused_at(self, at: float) -> "ClockState":
        return self.model_copy(update={"counted": self.played(at), "since": None})

    def resumed_at(self, at: float) -> "ClockState":
        return self.model_copy(update={"since": at})

    def turn_began(self, at: float) -> "ClockState":
        """The clock as a new turn begins at ``at``: the turn timer starts again."""
        return self.model_copy(update={"turn_mark": self.played(at)})

    def timed(self, timer: int, at: float) -> "ClockState":
        """The clock with a turn timer of ``timer`` seconds from ``at`` on (0: none)."""
        return self.turn_began(at).model_copy(update={"timer": timer})
