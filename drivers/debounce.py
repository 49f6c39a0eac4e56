"""Contact debouncing and press classification, with time as a parameter.

A mechanical switch does not go cleanly from open to closed: for a few milliseconds after it is
pressed or released it chatters between the two.  A table gadget that rolls the planar die
twice because the ROLL button bounced is worse than one that misses a press, so a new level
counts only once it has *held* for the whole debounce window (a stable window).  A lockout
("ignore everything for 20 ms after the first edge") is not enough: the release bounces too,
and a lockout that has expired by then reads the release chatter as a fresh press.

Nothing here reads a clock or touches hardware.  Every method takes the time explicitly (any
monotonic seconds), so a driver can feed it timestamps from a GPIO callback and tests can feed
it made-up traces.  Because a level settles only when the window has passed, and no further edge
need arrive to say so, the owner must also call :meth:`Debouncer.poll` (or
:meth:`PressClassifier.poll`) at :meth:`~Debouncer.next_deadline`.

Neither class is thread-safe; the GPIO driver serialises calls with one lock.
"""

from __future__ import annotations

import math

from msgspec import Struct

from device.inputs import Button, ButtonPressed

#: Default stable window in seconds.  Typical tactile and arcade switches settle within 5-10 ms;
#: 20 ms leaves margin without making the button feel slow.
DEFAULT_WINDOW = 0.020


class Settled(Struct, frozen=True):
    """The debounced level changed to ``level``.

    ``since`` is when the contact reached that level and stayed there (the start of the stable
    run); the change was confirmed at ``since + window``.  Hold times are measured from
    ``since`` so that they match what the player did, not when the debouncer was sure of it.
    """

    level: bool
    since: float


class Debouncer:
    """A stable-window debouncer over ``(timestamp, level)`` samples.

    The debounced :attr:`level` becomes a new value only after the raw level has stayed at that
    value for at least ``window`` seconds.  Samples that repeat the current raw level are
    ignored, so callers may report levels rather than strict edges.  A timestamp earlier than
    one already seen is treated as equal to it: callbacks from different threads may read the
    clock in either order, and time must never run backwards inside the debouncer.
    """

    __slots__ = ("_last", "_raw", "_raw_since", "_settled", "_window")

    def __init__(self, window: float = DEFAULT_WINDOW, *, level: bool = False) -> None:
        if not window > 0:
            raise ValueError(
                f"debounce window must be a positive number of seconds, not {window!r}"
            )
        self._window = window
        self._settled = level
        self._raw = level
        self._raw_since = -math.inf
        self._last = -math.inf

    @property
    def window(self) -> float:
        return self._window

    @property
    def level(self) -> bool:
        """The debounced level."""
        return self._settled

    @property
    def raw(self) -> bool:
        """The last level reported, bounce and all."""
        return self._raw

    @property
    def pending_since(self) -> float | None:
        """When the raw level left the debounced one, if it has not settled or come back yet."""
        return self._raw_since if self._raw != self._settled else None

    def next_deadline(self) -> float | None:
        """When :meth:`poll` will settle the pending level, or ``None`` if nothing is pending."""
        return self._raw_since + self._window if self._raw != self._settled else None

    def poll(self, now: float) -> Settled | None:
        """Settle the pending level if it has held for the window by ``now``."""
        now = self._advance(now)
        # Compare against the deadline itself rather than ``now - since >= window``: the two
        # can disagree in the last bit, and poll(next_deadline()) must always settle.
        if self._raw != self._settled and now >= self._raw_since + self._window:
            self._settled = self._raw
            return Settled(self._raw, self._raw_since)
        return None

    def feed(self, t: float, level: bool) -> Settled | None:
        """Report the raw level at time ``t``.

        Returns the change that settled *before* this sample (the previous level had held for
        the window by ``t``), if any; the sample itself can only settle later.
        """
        settled = self.poll(t)
        t = self._last
        if level != self._raw:
            self._raw = level
            self._raw_since = t
        return settled

    def _advance(self, t: float) -> float:
        if t > self._last:
            self._last = t
        return self._last


class PressTiming(Struct, frozen=True):
    """How one button's presses are told apart.  All times are in seconds.

    With ``hold_time`` set, holding the button that long is one long press (reported as soon as
    the time passes, while still held) and releasing it afterwards reports nothing more; a
    shorter press is reported when it is released.  With ``repeat_delay`` set instead, the
    press is reported as soon as it settles and repeats every ``repeat_interval`` once it has
    been held for ``repeat_delay``; there are no long presses.  With neither, every press is
    reported on release, however long.
    """

    window: float = DEFAULT_WINDOW
    hold_time: float | None = 0.8
    repeat_delay: float | None = None
    repeat_interval: float = 0.15

    def __post_init__(self) -> None:
        if not self.window > 0:
            raise ValueError(f"window must be a positive number of seconds, not {self.window!r}")
        if self.hold_time is not None and self.repeat_delay is not None:
            raise ValueError(
                "a button either long-presses or auto-repeats: "
                "set hold_time=None to auto-repeat, or repeat_delay=None to long-press"
            )
        if self.hold_time is not None and not self.hold_time > self.window:
            raise ValueError(
                f"hold_time {self.hold_time!r} must be longer than the debounce window "
                f"{self.window!r}"
            )
        if self.repeat_delay is not None and not self.repeat_delay > self.window:
            raise ValueError(
                f"repeat_delay {self.repeat_delay!r} must be longer than the debounce window "
                f"{self.window!r}"
            )
        if not self.repeat_interval > 0:
            raise ValueError(
                "repeat_interval must be a positive number of seconds, "
                f"not {self.repeat_interval!r}"
            )


class PressClassifier:
    """Turns one button's raw levels into :class:`~device.inputs.ButtonPressed` values.

    ``pressed`` levels go in through :meth:`edge`; :meth:`poll` must also be called at
    :meth:`next_deadline`, because a press that bounces and then stays down, a long press and an
    auto-repeat all happen without any further edge.

    A timed event (long press, repeat) due at time *T* is reported only once the button is
    known to have been down through *T*: if a release is still inside its debounce window, the
    event waits for the release to settle (a real release before *T* cancels it) or to turn out
    to be a glitch (it fires then).  A button already down when the classifier is created
    reports nothing until it has been released and pressed again.
    """

    __slots__ = ("_button", "_debouncer", "_down_since", "_fired", "_timing")

    def __init__(
        self, button: Button, timing: PressTiming = PressTiming(), *, pressed: bool = False
    ) -> None:
        self._button = button
        self._timing = timing
        self._debouncer = Debouncer(timing.window, level=pressed)
        # Start of the current press, or None when up (or down since before we were created).
        self._down_since: float | None = None
        # Timed events reported in the current press: the long press (0 or 1) or repeats so far.
        self._fired = 0

    @property
    def button(self) -> Button:
        return self._button

    @property
    def timing(self) -> PressTiming:
        return self._timing

    @property
    def pressed(self) -> bool:
        """The debounced state of the button."""
        return self._debouncer.level

    def edge(self, t: float, pressed: bool) -> list[ButtonPressed]:
        """Report the raw contact level at time ``t``; returns what that time made certain."""
        events = self.poll(t)
        settled = self._debouncer.feed(t, pressed)
        if settled is not None:  # pragma: no cover - poll(t) has already settled anything due
            events.extend(self._on_settled(settled, t))
        return events

    def poll(self, now: float) -> list[ButtonPressed]:
        """Report everything that has become certain by ``now``."""
        events = self._fire_due(now)
        settled = self._debouncer.poll(now)
        if settled is not None:
            events.extend(self._on_settled(settled, now))
        return events

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`poll` may have something to report."""
        candidates = (self._debouncer.next_deadline(), self._fireable_at())
        return min((d for d in candidates if d is not None), default=None)

    def _on_settled(self, settled: Settled, now: float) -> list[ButtonPressed]:
        timing = self._timing
        if settled.level:
            self._down_since = settled.since
            self._fired = 0
            if timing.repeat_delay is not None:
                # Auto-repeating buttons answer at once: they adjust a number the player watches.
                return [ButtonPressed(self._button), *self._fire_due(now)]
            return self._fire_due(now)
        started, self._down_since = self._down_since, None
        if started is None or timing.repeat_delay is not None:
            return []
        if timing.hold_time is None or self._fired == 0:
            return [ButtonPressed(self._button)]
        return []

    def _next_timed(self) -> float | None:
        """When the next long press or repeat of the current press falls due."""
        if self._down_since is None:
            return None
        timing = self._timing
        if timing.repeat_delay is not None:
            return self._down_since + timing.repeat_delay + self._fired * timing.repeat_interval
        if timing.hold_time is not None and self._fired == 0:
            return self._down_since + timing.hold_time
        return None

    def _fireable_at(self) -> float | None:
        """The next timed event's time, unless it must wait for a pending release to settle."""
        due = self._next_timed()
        if due is None:
            return None
        release = self._debouncer.pending_since
        if release is not None and due > release:
            return None  # the debouncer's own deadline decides first
        return due

    def _fire_due(self, now: float) -> list[ButtonPressed]:
        events: list[ButtonPressed] = []
        while (due := self._fireable_at()) is not None and due <= now:
            self._fired += 1
            if self._timing.repeat_delay is not None:
                events.append(ButtonPressed(self._button, repeat=self._fired))
            else:
                events.append(ButtonPressed(self._button, long=True))
        return events
