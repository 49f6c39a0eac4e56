"""Sound and light cues: a buzzer chime when the table planeswalks, a beep and flash on chaos,
three beeps and flashes when a turn timer runs out.

Both outputs are optional (see :class:`drivers.gpio.GpioConfig`: ``buzzer`` and ``led``).  The
buzzer is an *active* one, which sounds at its own pitch whenever its pin is high, so a cue is a
rhythm of on and off times rather than a tune.  Cues play on gpiozero's background blink
threads: :meth:`Feedback.play` returns at once, and a new cue cuts off the one still playing.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, Protocol, Self

from msgspec import Struct

from device.errors import DeviceNotFound
from drivers.gpio import Backend, GpioConfig, load_pin_factory, pin_errors

log = logging.getLogger(__name__)


class Cue(enum.StrEnum):
    """Moments the table should hear or see, not only read."""

    PLANESWALK = "planeswalk"
    CHAOS = "chaos"
    TIME_UP = "time_up"  # the turn timer ran out


class Blink(Struct, frozen=True):
    """``n`` pulses of ``on_time`` seconds on and ``off_time`` seconds off; the output ends off."""

    on_time: float
    off_time: float
    n: int = 1

    def __post_init__(self) -> None:
        if not (self.on_time > 0 and self.off_time >= 0 and self.n >= 1):
            raise ValueError(f"a blink needs on_time > 0, off_time >= 0 and n >= 1, not {self!r}")

    @property
    def duration(self) -> float:
        return self.n * (self.on_time + self.off_time)


class CuePattern(Struct, frozen=True):
    """What each output does for one cue; ``None`` leaves that output alone."""

    buzzer: Blink | None = None
    led: Blink | None = None


#: Short enough not to talk over the table; distinct enough to tell apart without looking.
DEFAULT_PATTERNS: Final[Mapping[Cue, CuePattern]] = MappingProxyType(
    {
        Cue.PLANESWALK: CuePattern(buzzer=Blink(0.06, 0.06, 2)),
        Cue.CHAOS: CuePattern(buzzer=Blink(0.3, 0.0, 1), led=Blink(0.1, 0.1, 4)),
        Cue.TIME_UP: CuePattern(buzzer=Blink(0.15, 0.1, 3), led=Blink(0.15, 0.1, 3)),
    }
)


class Feedback(Protocol):
    """Plays cues on whatever outputs are fitted."""

    def play(self, cue: Cue) -> None: ...

    def close(self) -> None: ...


class GpioFeedback:
    """The buzzer and LED on GPIO pins, through gpiozero.  Unfitted outputs are skipped."""

    def __init__(
        self,
        config: GpioConfig,
        *,
        patterns: Mapping[Cue, CuePattern] = DEFAULT_PATTERNS,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import LED, Buzzer

        if pin_factory is None and (config.buzzer is not None or config.led is not None):
            load_pin_factory()
        self._patterns = MappingProxyType(dict(patterns))
        self._buzzer: Any = None
        self._led: Any = None
        self._closed = False
        try:
            if config.buzzer is not None:
                with pin_errors({"buzzer": config.buzzer}):
                    self._buzzer = Buzzer(config.buzzer, pin_factory=pin_factory)
            if config.led is not None:
                with pin_errors({"led": config.led}):
                    self._led = LED(config.led, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def play(self, cue: Cue) -> None:
        if self._closed:
            raise RuntimeError(f"cannot play {cue.value!r}: GpioFeedback is closed")
        pattern = self._patterns.get(cue, CuePattern())
        for device, blink in ((self._buzzer, pattern.buzzer), (self._led, pattern.led)):
            if device is not None and blink is not None:
                device.blink(
                    on_time=blink.on_time, off_time=blink.off_time, n=blink.n, background=True
                )

    def close(self) -> None:
        """Stop any cue and release the pins.  Safe to call more than once."""
        self._closed = True
        for device in (self._buzzer, self._led):
            if device is not None:
                device.close()
        self._buzzer = self._led = None


class FakeFeedback:
    """Records the cues played instead of playing them, for laptops and tests."""

    def __init__(self) -> None:
        self.played: list[Cue] = []
        self.closed = False

    def play(self, cue: Cue) -> None:
        if self.closed:
            raise RuntimeError(f"cannot play {cue.value!r}: FakeFeedback is closed")
        self.played.append(cue)

    def close(self) -> None:
        self.closed = True


def open_feedback(config: GpioConfig, *, backend: Backend = "auto") -> Feedback:
    """The one place the feedback backend is chosen; mirrors :func:`drivers.gpio.open_buttons`.

    ``"auto"`` falls back to :class:`FakeFeedback` (logging why) when there is no GPIO, or
    when neither a buzzer nor an LED is configured.
    """
    if backend == "fake":
        return FakeFeedback()
    if backend == "gpio":
        return GpioFeedback(config)
    if backend == "auto":
        if config.buzzer is None and config.led is None:
            return FakeFeedback()
        try:
            load_pin_factory()
        except DeviceNotFound as exc:
            log.warning("GPIO buzzer and LED unavailable, cues will be silent: %s", exc)
            return FakeFeedback()
        return GpioFeedback(config)
    raise ValueError(f"unknown feedback backend {backend!r}: use 'auto', 'gpio' or 'fake'")
