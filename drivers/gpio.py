"""The gadget's buttons and rotary encoder on the Raspberry Pi's GPIO pins, through gpiozero.

Default wiring (BCM numbers, physical header position in brackets); every switch connects its
pin to a ground pin and uses the Pi's internal pull-up, so a press reads low:

====================  ===============  =============================================
what                  pin              note
====================  ===============  =============================================
ROLL                  GPIO17 (11)      the big table button
NEXT                  GPIO27 (13)      pass the turn / advance
UNDO                  GPIO22 (15)
encoder A / B         GPIO5 / GPIO6    (29 / 31); the encoder's C pin to ground
SELECT                GPIO13 (33)      the encoder's push switch
buzzer                GPIO18 (12)      an *active* buzzer (it sounds when driven high)
LED                   GPIO23 (16)      through a resistor (e.g. 330 Ω) to ground
====================  ===============  =============================================

Ground pins near these: 9, 14, 20, 30, 34, 39.  Every pin is configuration (:class:`GpioConfig`):
a BCM number (``17``), a gpiozero name (``"GPIO17"``, ``"BCM17"``) or a header position
(``"BOARD11"``, ``"J8:11"``).

gpiozero's own ``bounce_time`` is not used: what it means differs between pin backends, and
its mock pins ignore it.  The callbacks of gpiozero's input devices only timestamp raw edges
and hand them to :mod:`drivers.debounce`; one timer thread settles levels at their deadlines.
Neither ever touches game state: they only put immutable :mod:`device.inputs` values on the
input queue, which the game's one thread drains.
"""

from __future__ import annotations

import logging
import re
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Final, Literal, Protocol, Self

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, model_validator

from device.config import Refused, shown
from device.errors import ConfigError, DeviceNotFound, DevicePermission
from device.inputs import Button, ButtonPressed, EncoderTurned, InputQueue
from device.text import Message
from drivers.debounce import DEFAULT_WINDOW, PressClassifier, PressTiming

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# Pin names

#: Header position -> BCM number on the 40-pin header (every Pi since the B+).  Positions not
#: listed are power or ground.
HEADER_GPIO: Final = MappingProxyType(
    {
        3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23,
        18: 24, 19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5,
        31: 6, 32: 12, 33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
    }
)  # fmt: skip

_HIGHEST_GPIO: Final = 27
_PIN_HELP: Final = "use a BCM number such as 17, or a name such as 'GPIO17', 'BCM17' or 'BOARD11'"
_NAMED = re.compile(r"(GPIO|BCM)(\d+)")
_HEADER = re.compile(r"(BOARD|J8:)(\d+)")


def _number(digits: str) -> int:
    """A pin's digits as a number; one too long for any pin (a 5,000-digit one would not even
    convert) is a number past every pin."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 3 else 1000


def parse_pin(value: object, key: str = "pin") -> int | str:
    """Check one pin setting; returns it in the form gpiozero expects.

    Numbers (``17`` or ``"17"``) become ``int``; names are upper-cased (``"gpio17"`` ->
    ``"GPIO17"``).  Raises ``ValueError`` (:class:`device.config.Refused`, in words each
    language can say) naming ``key`` and the value otherwise.
    """
    said = shown(value, 24)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise Refused("config.pin.not_a_pin", key, value=said)
    text = str(value).strip().upper()
    if text.isdecimal():
        if _number(text) > _HIGHEST_GPIO:
            raise Refused("config.pin.not_gpio", key, value=said, highest=_HIGHEST_GPIO)
        return int(text)
    if (named := _NAMED.fullmatch(text)) is not None:
        if _number(named[2]) > _HIGHEST_GPIO:
            raise Refused("config.pin.not_gpio_name", key, value=said, highest=_HIGHEST_GPIO)
        return text
    if (header := _HEADER.fullmatch(text)) is not None:
        if not 1 <= _number(header[2]) <= 40:
            raise Refused("config.pin.off_header", key, value=said)
        if int(header[2]) not in HEADER_GPIO:
            raise Refused("config.pin.power", key, value=said)
        return text
    raise Refused("config.pin.not_a_pin", key, value=said)


def pin_bcm(pin: int | str) -> int:
    """The BCM number of a pin accepted by :func:`parse_pin`."""
    text = str(pin).upper()
    if text.isdecimal():
        return int(text)
    if (named := _NAMED.fullmatch(text)) is not None:
        return int(named[2])
    if (header := _HEADER.fullmatch(text)) is not None:
        return HEADER_GPIO[int(header[2])]
    raise ValueError(f"{pin!r} is not a pin: {_PIN_HELP}")


def _required_pin(value: object, info: ValidationInfo) -> int | str:
    key = info.field_name or "pin"
    if value is None:
        raise Refused("config.pin.required", key)
    return parse_pin(value, key)


def _optional_pin(value: object, info: ValidationInfo) -> int | str | None:
    return None if value is None else parse_pin(value, info.field_name or "pin")


Pin = Annotated[int | str, BeforeValidator(_required_pin)]
OptionalPin = Annotated[int | str | None, BeforeValidator(_optional_pin)]


# --------------------------------------------------------------------------------------------
# Configuration


class GpioConfig(BaseModel):
    """Where the buttons, encoder, buzzer and LED are wired, and how presses are timed.

    ``None`` for a pin means "not fitted".  Switches use the internal pull-up by default
    (wired to ground, pressed reads low); ``pull_up = false`` uses the pull-down (wired to
    3V3).  For external resistors give ``active_state`` instead (``true``: pressed reads high)
    and leave ``pull_up`` out.  The encoder's A and B pins always use the pull-up.

    Buttons listed in ``repeat`` auto-repeat while held (for adjusting life without an
    encoder) instead of reporting a long press.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    roll: Pin = 17
    next: Pin = 27
    undo: OptionalPin = 22
    select: OptionalPin = 13
    encoder_a: OptionalPin = 5
    encoder_b: OptionalPin = 6
    encoder_reverse: bool = False
    buzzer: OptionalPin = 18
    led: OptionalPin = 23

    pull_up: bool | None = True
    active_state: bool | None = None

    debounce: float = Field(default=DEFAULT_WINDOW, gt=0, le=0.25)
    hold_time: float | None = Field(default=0.8, gt=0, le=10)
    repeat: frozenset[Button] = frozenset()
    repeat_delay: float = Field(default=0.5, gt=0, le=10)
    repeat_interval: float = Field(default=0.15, gt=0, le=5)

    @model_validator(mode="before")
    @classmethod
    def _external_resistors(cls, data: Any) -> Any:
        # TOML has no null, so giving active_state alone is how a config says "external
        # resistors"; gpiozero wants pull_up=None for that.
        if isinstance(data, dict) and "pull_up" not in data:
            if data.get("active_state") is not None:
                return {**data, "pull_up": None}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.pull_up is not None and self.active_state is not None:
            raise Refused("config.gpio.pull_and_state", pull=self.pull_up)
        if self.pull_up is None and self.active_state is None:
            raise Refused("config.gpio.state_needed")
        if (self.encoder_a is None) != (self.encoder_b is None):
            raise Refused("config.gpio.encoder_pair")
        for name, limit in (("hold_time", self.hold_time), ("repeat_delay", self.repeat_delay)):
            if limit is not None and limit <= self.debounce:
                raise Refused(
                    "config.gpio.after_debounce",
                    name=name,
                    limit=repr(limit),
                    debounce=repr(self.debounce),
                )
        seen: dict[int, str] = {}
        for key, pin in self.pins().items():
            bcm = pin_bcm(pin)
            if bcm in seen:
                other = seen[bcm]
                raise Refused(
                    "config.pin.shared",
                    first=other,
                    first_pin=repr(getattr(self, other)),
                    second=key,
                    second_pin=repr(pin),
                    bcm=bcm,
                )
            seen[bcm] = key
        return self

    def pins(self) -> dict[str, int | str]:
        """Every fitted pin by its setting's name."""
        names = ("roll", "next", "undo", "select", "encoder_a", "encoder_b", "buzzer", "led")
        return {name: pin for name in names if (pin := getattr(self, name)) is not None}

    def button_pins(self) -> dict[Button, int | str]:
        """The fitted buttons and their pins."""
        return {
            button: pin for button in Button if (pin := getattr(self, button.value)) is not None
        }

    def timing(self, button: Button) -> PressTiming:
        """How ``button``'s presses are classified."""
        if button in self.repeat:
            return PressTiming(
                window=self.debounce,
                hold_time=None,
                repeat_delay=self.repeat_delay,
                repeat_interval=self.repeat_interval,
            )
        return PressTiming(window=self.debounce, hold_time=self.hold_time)


#: The pin settings, in the order a pin two of them name is given: the first keeps it.
PIN_SETTINGS: Final = ("roll", "next", "undo", "select", "encoder_a", "encoder_b", "buzzer", "led")
#: The settings that must have a pin: they keep theirs first, ROLL before NEXT.
_REQUIRED: Final = ("roll", "next")
#: Pins driven as outputs: never moved to a default pin, which may be wired to something else.
_OUTPUTS: Final = frozenset({"buzzer", "led"})


def one_pin_each(table: Mapping[str, Any]) -> tuple[dict[str, Any], list[Message]]:
    """``table`` (``[gpio]``, each pin valid on its own) with every pin given to one setting
    only, and what was changed.  Of two settings on one pin, ROLL and then NEXT (which must
    have a pin) keep it first, then a setting the file gives over one left at its default, then
    the one earlier in :data:`PIN_SETTINGS`; the other goes back to its default pin when that one
    is free, else is left off (the encoder's two pins together).  So a slip of the soldering
    iron's owner costs one button, not all of them; a buzzer or LED is never moved to another
    pin, only left off.  A ROLL or NEXT with no free pin stays as it was: :class:`GpioConfig`
    then refuses the table, and the buttons are off."""
    used = dict(table)
    said: list[Message] = []

    def pin_of(name: str) -> int | str | None:
        value = used[name] if name in used else GpioConfig.model_fields[name].default
        try:
            return None if value is None else parse_pin(value, name)
        except ValueError:
            return None  # GpioConfig says what is wrong with it

    def drop(name: str) -> None:
        used[name] = None
        if name.startswith("encoder_"):
            used["encoder_a"] = used["encoder_b"] = None

    changed = True
    while changed:  # each round changes one setting, and only to its default or to none
        changed = False
        holder: dict[int, str] = {}
        for name in sorted(
            PIN_SETTINGS,
            key=lambda key: (
                key not in _REQUIRED,
                key not in _REQUIRED and key not in used,
                PIN_SETTINGS.index(key),
            ),
        ):
            pin = pin_of(name)
            if pin is None:
                continue
            bcm = pin_bcm(pin)
            first = holder.setdefault(bcm, name)
            if first == name:
                continue
            default = GpioConfig.model_fields[name].default
            free = (
                default is not None
                and pin_bcm(default) not in holder
                and all(
                    pin_bcm(other) != pin_bcm(default)
                    for key in PIN_SETTINGS
                    if key not in (name, first) and (other := pin_of(key)) is not None
                )
            )
            if name in used and name not in _OUTPUTS and free:
                del used[name]
                said.append(
                    Message(
                        "config.pin.kept_first",
                        first=first,
                        second=name,
                        bcm=bcm,
                        default=f"GPIO{pin_bcm(default)}",
                    )
                )
            elif name in _REQUIRED:
                return used, said
            else:
                drop(name)
                said.append(Message("config.pin.left_off", first=first, second=name, bcm=bcm))
            changed = True
            break
    return used, said


# --------------------------------------------------------------------------------------------
# gpiozero at the boundary

_PERMISSION_HINT: Final = "add this user to the 'gpio' group and log in again"
#: What installs lgpio on Raspberry Pi OS, bookworm and trixie alike: the OS's package, seen by a
#: venv made with --system-site-packages.  PyPI's lgpio has no wheel for trixie's Python 3.13,
#: where pip would try to build it with swig and fail.
LGPIO_HINT: Final = (
    "on a Raspberry Pi install lgpio from the OS: sudo apt install python3-lgpio, and run aetherbox "
    "from the system's Python or a venv made with 'python3 -m venv --system-site-packages' "
    "(systemd/install.sh does both)"
)


def lgpio_hint() -> str:
    """What to do when no pin factory loads: install lgpio, unless it is there and failed."""
    import importlib.util

    if importlib.util.find_spec("lgpio") is None:
        return LGPIO_HINT
    return (
        "lgpio is installed but could not open the GPIO chip: check that /dev/gpiochip0 exists and that the "
        "user is in the 'gpio' group"
    )


#: Where Linux names the board it runs on (the device tree's model, NUL-terminated).
MODEL_FILES: tuple[Path, ...] = (
    Path("/proc/device-tree/model"),
    Path("/sys/firmware/devicetree/base/model"),
)


def board_model() -> str | None:
    """The board's model as the device tree gives it ("Raspberry Pi 4 Model B Rev 1.4"), or
    None where there is none (a laptop)."""
    for path in MODEL_FILES:
        try:
            model = path.read_bytes().rstrip(b"\0").decode("utf-8", "replace").strip()
        except OSError:
            continue
        if model:
            return model
    return None


def on_raspberry_pi() -> bool:
    model = board_model()
    return model is not None and "Raspberry Pi" in model


def load_pin_factory() -> Any:
    """gpiozero's pin factory, loading the default one if none is set yet.

    Raises :class:`DevicePermission` when GPIO hardware is there but may not be opened, and
    :class:`DeviceNotFound` when no backend loads, e.g. on a laptop: one line, with the first
    backend's reason (every backend's reason is logged at debug level).
    """
    from gpiozero import Device
    from gpiozero.exc import PinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as exc:  # any backend failure means the same thing here: no GPIO
            reasons = [
                str(w.message).removeprefix("Falling back from ")
                for w in caught
                if issubclass(w.category, PinFactoryFallback)
            ] or [f"{type(exc).__name__}: {exc}"]
            detail = "; ".join(reasons)
            if isinstance(exc, PermissionError) or "ermission denied" in detail:
                raise DevicePermission(
                    f"GPIO is there but may not be opened ({detail}): {_PERMISSION_HINT}"
                ) from exc
            log.debug("gpiozero loaded no pin factory: %s", detail)
            raise DeviceNotFound(f"no GPIO pins ({reasons[0]}); {lgpio_hint()}") from exc
    for w in caught:
        log.info("gpiozero: %s", w.message)
    return Device.pin_factory


@contextmanager
def pin_errors(pins: Mapping[str, int | str]) -> Iterator[None]:
    """Turn gpiozero's and the OS's errors while opening ``pins`` into aetherbox's own.

    ``pins`` maps setting names to the pins being opened together, for the message.
    """
    from gpiozero.exc import (
        BadPinFactory,
        GPIOPinInUse,
        PinFixedPull,
        PinInvalidPin,
        PinInvalidPull,
        PinInvalidState,
        PinPWMUnsupported,
    )

    where = ", ".join(f"{key} = {pin!r}" for key, pin in pins.items())
    keys = " or ".join(pins)
    try:
        yield
    except PinInvalidPin as exc:
        which = f" ({exc})" if len(pins) > 1 else ""
        raise ConfigError(
            f"{where}: this board has no such pin{which}; choose another pin for {keys}"
        ) from exc
    except GPIOPinInUse as exc:
        raise ConfigError(
            f"{where}: the pin is already in use ({exc}); give each device its own pin"
        ) from exc
    except PinFixedPull as exc:
        raise ConfigError(
            f"{where}: the pin has a fixed pull-up resistor, so pull_up = false cannot work; "
            f"choose another pin for {keys} or use the pull-up"
        ) from exc
    except (PinInvalidPull, PinInvalidState, PinPWMUnsupported) as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    except PermissionError as exc:
        raise DevicePermission(f"{where}: permission denied ({exc}): {_PERMISSION_HINT}") from exc
    except (FileNotFoundError, BadPinFactory) as exc:
        raise DeviceNotFound(f"{where}: no GPIO to open it on ({exc})") from exc
    except (
        Exception
    ) as exc:  # a backend's own error (RPi.GPIO's RuntimeError, lgpio.error): no GPIO here
        raise DeviceNotFound(
            f"{where}: the GPIO library failed ({type(exc).__name__}: {exc}); {lgpio_hint()}"
        ) from exc


# --------------------------------------------------------------------------------------------
# Button sources


class ButtonSource(Protocol):
    """Something that puts :mod:`device.inputs` values on the input queue once started."""

    def start(self) -> None: ...

    def close(self) -> None: ...


class GpioButtons:
    """ROLL, NEXT, UNDO and SELECT buttons and the rotary encoder, through gpiozero.

    Pins are opened here, so wiring mistakes are reported at start-up; :meth:`start` attaches
    the callbacks and starts the timer thread.  ``clock`` is any monotonic clock in seconds.
    With ``timer=False`` no thread is started and the owner calls :meth:`poll` at
    :meth:`next_deadline` itself (tests do this with a fake clock).  ``pin_factory=None``
    uses gpiozero's ``Device.pin_factory`` (loading the default backend if needed).
    """

    def __init__(
        self,
        config: GpioConfig,
        events: InputQueue,
        *,
        clock: Callable[[], float] = time.monotonic,
        timer: bool = True,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import DigitalInputDevice, RotaryEncoder

        if pin_factory is None:
            load_pin_factory()
        self._config = config
        self._events = events
        self._clock = clock
        self._use_timer = timer
        self._cond = threading.Condition()
        self._classifiers: dict[Button, PressClassifier] = {}
        self._thread: threading.Thread | None = None
        self._started = False
        self._closed = False
        self._inputs: dict[Button, Any] = {}
        self._encoder: Any = None
        try:
            for button, pin in config.button_pins().items():
                with pin_errors({button.value: pin}):
                    self._inputs[button] = DigitalInputDevice(
                        pin,
                        pull_up=config.pull_up,
                        active_state=config.active_state,
                        bounce_time=None,
                        pin_factory=pin_factory,
                    )
            if config.encoder_a is not None and config.encoder_b is not None:
                with pin_errors({"encoder_a": config.encoder_a, "encoder_b": config.encoder_b}):
                    # max_steps=0: count without limit; only the callbacks matter here.
                    self._encoder = RotaryEncoder(
                        config.encoder_a,
                        config.encoder_b,
                        bounce_time=None,
                        max_steps=0,
                        pin_factory=pin_factory,
                    )
        except BaseException:
            self._release()
            raise

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def start(self) -> None:
        """Read the buttons' current levels and begin reporting presses and turns."""
        with self._cond:
            if self._closed:
                raise RuntimeError("GpioButtons is closed; open a new one")
            if self._started:
                raise RuntimeError("GpioButtons is already started")
            self._started = True
            for button, device in self._inputs.items():
                # Callbacks first, level second: an edge in between waits for the lock and
                # then repeats the level read, which the debouncer ignores; the other order
                # could lose it.
                device.when_activated = self._edge_callback(button, True)
                device.when_deactivated = self._edge_callback(button, False)
                # A button already held now (stuck, or leaned on at boot) is not a press.
                self._classifiers[button] = PressClassifier(
                    button, self._config.timing(button), pressed=bool(device.is_active)
                )
        if self._encoder is not None:
            step = -1 if self._config.encoder_reverse else 1
            self._encoder.when_rotated_clockwise = self._turn_callback(step)
            self._encoder.when_rotated_counter_clockwise = self._turn_callback(-step)
        if self._use_timer:
            self._thread = threading.Thread(target=self._run, name="aetherbox-buttons", daemon=True)
            self._thread.start()

    def poll(self, now: float | None = None) -> None:
        """Report every press that has become certain by ``now`` (default: the clock)."""
        with self._cond:
            self._poll_locked(self._clock() if now is None else now)

    def next_deadline(self) -> float | None:
        """When :meth:`poll` may next have something to report, on the ``clock``'s scale."""
        with self._cond:
            return self._next_deadline_locked()

    def close(self) -> None:
        """Stop reporting and release the pins.  Safe to call more than once."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._release()

    # -- inside: callbacks run on gpiozero's threads, the timer on its own ------------------

    def _edge_callback(self, button: Button, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            self._edge(button, pressed)

        return on_edge

    def _turn_callback(self, steps: int) -> Callable[[], None]:
        def on_turn() -> None:
            if not self._closed:
                self._events.put(EncoderTurned(steps))

        return on_turn

    def _edge(self, button: Button, pressed: bool) -> None:
        with self._cond:
            if self._closed:
                return
            # Read the clock under the lock so timestamps reach the debouncer in order.
            self._put(self._classifiers[button].edge(self._clock(), pressed))
            self._cond.notify()

    def _poll_locked(self, now: float) -> None:
        for classifier in self._classifiers.values():
            self._put(classifier.poll(now))

    def _next_deadline_locked(self) -> float | None:
        deadlines = [d for c in self._classifiers.values() if (d := c.next_deadline()) is not None]
        return min(deadlines, default=None)

    def _put(self, events: list[ButtonPressed]) -> None:
        for event in events:
            self._events.put(event)

    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                self._poll_locked(self._clock())
                deadline = self._next_deadline_locked()
                self._cond.wait(None if deadline is None else max(0.0, deadline - self._clock()))

    def _release(self) -> None:
        for device in self._inputs.values():
            device.close()  # also drops its callbacks
        self._inputs.clear()
        if self._encoder is not None:
            self._encoder.close()
            self._encoder = None


class FakeButtons:
    """Stands in for the GPIO buttons on a laptop and in tests.

    :meth:`press` and :meth:`turn` put on the queue exactly what the hardware would, so the
    keyboard, a test or a demo script can drive the gadget.
    """

    def __init__(self, events: InputQueue) -> None:
        self._events = events
        self._running = False
        self._closed = False

    @property
    def running(self) -> bool:
        return self._running

    def start(self) -> None:
        if self._closed:
            raise RuntimeError("FakeButtons is closed; open a new one")
        self._running = True

    def close(self) -> None:
        self._running = False
        self._closed = True

    def press(self, button: Button, *, long: bool = False, repeat: int = 0) -> None:
        self._post(ButtonPressed(button, long=long, repeat=repeat))

    def turn(self, steps: int) -> None:
        self._post(EncoderTurned(steps))

    def _post(self, event: ButtonPressed | EncoderTurned) -> None:
        if not self._running:
            raise RuntimeError(
                "FakeButtons is not running: call start() first (and not after close())"
            )
        self._events.put(event)


Backend = Literal["auto", "gpio", "fake"]


def open_buttons(
    config: GpioConfig, events: InputQueue, *, backend: Backend = "auto"
) -> ButtonSource:
    """The one place the button backend is chosen.

    ``"gpio"`` opens the pins or raises; ``"fake"`` returns :class:`FakeButtons`; ``"auto"``
    uses GPIO when gpiozero can load a pin factory and otherwise falls back to
    :class:`FakeButtons` (the keys).  That fallback is news only on a Raspberry Pi (the device
    tree's model says so), where it means a missing pin library: there it is one warning line;
    anywhere else keys are what ``"auto"`` means, and it is a debug line.  A GPIO that is there
    but may not be opened (:class:`DevicePermission`) is raised even in ``"auto"``: a gadget
    whose buttons silently do nothing is worse than one that says what to fix.
    """
    if backend == "fake":
        return FakeButtons(events)
    if backend == "gpio":
        return GpioButtons(config, events)
    if backend == "auto":
        try:
            load_pin_factory()
        except DeviceNotFound as exc:
            if on_raspberry_pi():
                log.warning(
                    "GPIO buttons unavailable on this %s, using the keyboard: %s",
                    board_model(),
                    exc,
                )
            else:
                log.debug("not a Raspberry Pi: keys stand in for the buttons (%s)", exc)
            return FakeButtons(events)
        return GpioButtons(config, events)
    raise ValueError(f"unknown button backend {backend!r}: use 'auto', 'gpio' or 'fake'")
