"""HW-1: buttons on GPIO through gpiozero; bounce must never roll twice; pins are configuration.

gpiozero's MockFactory stands in for the Pi; a fake clock makes the timing exact.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device, DigitalInputDevice
from gpiozero.pins.mock import MockFactory
from pydantic import ValidationError

from device.errors import ConfigError, DeviceNotFound, DevicePermission
from device.inputs import Button, ButtonPressed, EncoderTurned, InputEvent, InputQueue
from drivers import gpio
from drivers.gpio import (
    HEADER_GPIO,
    ButtonSource,
    FakeButtons,
    GpioButtons,
    GpioConfig,
    load_pin_factory,
    open_buttons,
    parse_pin,
    pin_errors,
)

MS = 0.001
ROLL = ButtonPressed(Button.ROLL)


class FakeClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Rig:
    """GpioButtons on mock pins, with a fake clock and polls where the timer thread would."""

    def __init__(self, factory: MockFactory, config: GpioConfig | None = None) -> None:
        self.factory = factory
        self.clock = FakeClock()
        self.events: InputQueue = queue.Queue()
        self.buttons = GpioButtons(
            config or GpioConfig(), self.events, clock=self.clock, timer=False
        )

    def pin(self, name: int | str) -> Any:
        return self.factory.pin(name)

    def wait(self, seconds: float) -> None:
        target = self.clock.now + seconds
        while (deadline := self.buttons.next_deadline()) is not None and deadline <= target:
            self.clock.now = max(self.clock.now, deadline)
            self.buttons.poll()
        self.clock.now = target
        self.buttons.poll()

    def bounce(self, pin: Any, gaps_ms: Iterable[float], *, first: str) -> None:
        """Drive ``pin`` low/high alternately, starting with ``first``, ``gaps_ms`` apart."""
        levels = [first, "high" if first == "low" else "low"]
        getattr(pin, f"drive_{first}")()
        for i, gap in enumerate(gaps_ms, start=1):
            self.wait(gap * MS)
            getattr(pin, f"drive_{levels[i % 2]}")()

    def drained(self) -> list[InputEvent]:
        out: list[InputEvent] = []
        while not self.events.empty():
            out.append(self.events.get_nowait())
        return out


@pytest.fixture
def rig(mock_factory: MockFactory) -> Iterator[Rig]:
    rig = Rig(mock_factory)
    rig.buttons.start()
    yield rig
    rig.buttons.close()


# -- presses through the pins ----------------------------------------------------------------


def test_hw1_bouncing_roll_press_is_one_press(rig: Rig) -> None:
    roll = rig.pin(17)
    rig.bounce(roll, [0.4, 1.5, 0.3, 2, 0.8, 3], first="low")  # ends low: pressed
    rig.wait(0.2)
    rig.bounce(roll, [0.5, 1, 2.5, 0.2], first="high")  # ends high: released
    rig.wait(1.0)
    assert rig.drained() == [ROLL]


def test_hw1_ten_bouncing_rolls_are_ten_rolls(rig: Rig) -> None:
    roll = rig.pin(17)
    for _ in range(10):
        rig.bounce(roll, [0.2, 1, 3, 0.5], first="low")
        rig.wait(0.1)
        rig.bounce(roll, [1, 0.7, 4, 2], first="high")
        rig.wait(0.1)
    assert rig.drained() == [ROLL] * 10


def test_hw1_glitch_on_the_roll_pin_is_no_press(rig: Rig) -> None:
    roll = rig.pin(17)
    rig.bounce(roll, [3, 1, 19], first="low")  # low for 19 ms at most
    rig.wait(2.0)
    assert rig.drained() == []


def test_hw1_press_that_bounces_then_stays_down_becomes_a_long_press(rig: Rig) -> None:
    roll = rig.pin(17)
    rig.bounce(roll, [1, 2, 1, 1], first="low")
    rig.wait(0.79)
    assert rig.drained() == []
    rig.wait(0.1)  # no further edge: the deadline alone reports it
    assert rig.drained() == [ButtonPressed(Button.ROLL, long=True)]
    roll.drive_high()
    rig.wait(1.0)
    assert rig.drained() == []


@pytest.mark.parametrize(
    ("pin", "button"),
    [(17, Button.ROLL), (27, Button.NEXT), (22, Button.UNDO), (13, Button.SELECT)],
)
def test_hw1_default_wiring_reports_each_button_by_name(rig: Rig, pin: int, button: Button) -> None:
    rig.pin(pin).drive_low()
    rig.wait(0.1)
    rig.pin(pin).drive_high()
    rig.wait(0.1)
    assert rig.drained() == [ButtonPressed(button)]


def test_hw1_pins_and_pull_are_configuration(mock_factory: MockFactory) -> None:
    config = GpioConfig(roll="board7", next="BCM24", pull_up=False, buzzer=None, led=None)
    rig = Rig(mock_factory, config)
    rig.buttons.start()
    try:
        rig.pin(4).drive_high()  # pulled down, so pressed reads high
        rig.wait(0.1)
        rig.pin(4).drive_low()
        rig.pin(24).drive_high()
        rig.wait(0.1)
        rig.pin(24).drive_low()
        rig.wait(0.1)
        assert rig.drained() == [ROLL, ButtonPressed(Button.NEXT)]
    finally:
        rig.buttons.close()


def test_external_resistors_with_active_state(mock_factory: MockFactory) -> None:
    mock_factory.pin(17).drive_high()  # the external pull-up
    rig = Rig(mock_factory, GpioConfig(active_state=False))
    rig.buttons.start()
    try:
        rig.pin(17).drive_low()
        rig.wait(0.1)
        rig.pin(17).drive_high()
        rig.wait(0.1)
        assert rig.drained() == [ROLL]
    finally:
        rig.buttons.close()


def test_hw1_button_held_at_start_is_not_a_press(mock_factory: MockFactory) -> None:
    mock_factory.pin(17).drive_low()
    rig = Rig(mock_factory)
    rig.buttons.start()
    try:
        rig.wait(2.0)
        rig.pin(17).drive_high()
        rig.wait(0.1)
        assert rig.drained() == []
    finally:
        rig.buttons.close()


def test_hw1_configured_button_auto_repeats(mock_factory: MockFactory) -> None:
    config = GpioConfig(repeat=["undo"], repeat_delay=0.5, repeat_interval=0.15)
    rig = Rig(mock_factory, config)
    rig.buttons.start()
    try:
        rig.bounce(rig.pin(22), [1, 1], first="low")
        rig.wait(0.03)
        assert rig.drained() == [ButtonPressed(Button.UNDO)]
        rig.wait(0.8)
        rig.pin(22).drive_high()
        rig.wait(0.5)
        assert rig.drained() == [ButtonPressed(Button.UNDO, repeat=n) for n in (1, 2, 3)]
    finally:
        rig.buttons.close()


def test_hw1_timer_thread_settles_presses_in_real_time(mock_factory: MockFactory) -> None:
    events: InputQueue = queue.Queue()
    config = GpioConfig(debounce=0.01, hold_time=0.15)
    with GpioButtons(config, events) as buttons:
        buttons.start()
        roll = mock_factory.pin(17)
        for level in ("low", "high", "low", "high", "low"):
            getattr(roll, f"drive_{level}")()
        # No further edge: only the timer thread can report the long press.
        assert events.get(timeout=2.0) == ButtonPressed(Button.ROLL, long=True)
        roll.drive_high()
        time.sleep(0.05)
        roll.drive_low()
        time.sleep(0.05)
        roll.drive_high()
        assert events.get(timeout=2.0) == ROLL
        time.sleep(0.05)
        assert events.empty()


def test_close_releases_the_pins_and_stops_reporting(mock_factory: MockFactory) -> None:
    rig = Rig(mock_factory)
    rig.buttons.start()
    rig.buttons.close()
    rig.buttons.close()
    rig.pin(17).drive_low()
    rig.wait(1.0)
    assert rig.drained() == []
    again = GpioButtons(GpioConfig(), rig.events, timer=False)
    again.close()
    with pytest.raises(RuntimeError) as info:
        rig.buttons.start()
    assert str(info.value) == "GpioButtons is closed; open a new one"


# -- errors at the gpiozero boundary ------------------------------------------------------------


def test_hw1_pin_missing_on_this_board_is_named(mock_factory: MockFactory) -> None:
    old_pi = MockFactory(revision="0002")  # the first Model B had GPIO21 where later ones have 27
    with pytest.raises(ConfigError) as info:
        GpioButtons(GpioConfig(), queue.Queue(), pin_factory=old_pi)
    assert str(info.value) == "next = 27: this board has no such pin; choose another pin for next"
    # ROLL, opened before NEXT failed, was released.
    DigitalInputDevice(17, pin_factory=old_pi).close()


def test_fixed_pull_up_pin_with_pull_down_is_named(mock_factory: MockFactory) -> None:
    with pytest.raises(ConfigError) as info:
        GpioButtons(GpioConfig(roll="GPIO2", pull_up=False), queue.Queue(), timer=False)
    assert str(info.value) == (
        "roll = 'GPIO2': the pin has a fixed pull-up resistor, so pull_up = false cannot work; "
        "choose another pin for roll or use the pull-up"
    )


def test_pin_in_use_is_named(mock_factory: MockFactory) -> None:
    with DigitalInputDevice(22):
        with pytest.raises(ConfigError) as info:
            GpioButtons(GpioConfig(), queue.Queue(), timer=False)
    assert str(info.value).startswith(
        "undo = 22: the pin is already in use (pin GPIO22 is already in use by "
    )
    assert str(info.value).endswith("); give each device its own pin")


@pytest.mark.usefixtures("no_pin_factory")
def test_no_gpio_is_device_not_found_saying_why() -> None:
    expected = (
        "no GPIO pins (BadPinFactory: Unable to find pin factory 'nosuchfactory'); on a Raspberry Pi "
        "install lgpio from the OS: sudo apt install python3-lgpio, "
        "and run aetherbox from the system's Python or a venv made with "
        "'python3 -m venv --system-site-packages' (systemd/install.sh does both)"
    )
    with pytest.raises(DeviceNotFound) as info:
        GpioButtons(GpioConfig(), queue.Queue())
    assert str(info.value) == expected
    with pytest.raises(DeviceNotFound):
        open_buttons(GpioConfig(), queue.Queue(), backend="gpio")


@pytest.mark.usefixtures("no_pin_factory")
def test_gpio_permission_problem_is_device_permission(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse() -> None:
        raise PermissionError(13, "Permission denied", "/dev/gpiochip0")

    monkeypatch.setattr(Device, "ensure_pin_factory", refuse)
    with pytest.raises(DevicePermission) as info:
        load_pin_factory()
    assert str(info.value) == (
        "GPIO is there but may not be opened (PermissionError: [Errno 13] Permission denied: "
        "'/dev/gpiochip0'): add this user to the 'gpio' group and log in again"
    )
    with pytest.raises(DevicePermission):
        open_buttons(GpioConfig(), queue.Queue(), backend="auto")


def test_os_errors_opening_a_pin_become_device_errors() -> None:
    with pytest.raises(DevicePermission) as denied:
        with pin_errors({"roll": 17}):
            raise PermissionError(13, "Permission denied", "/dev/gpiochip0")
    assert str(denied.value) == (
        "roll = 17: permission denied ([Errno 13] Permission denied: '/dev/gpiochip0'): "
        "add this user to the 'gpio' group and log in again"
    )
    with pytest.raises(DeviceNotFound) as missing:
        with pin_errors({"roll": 17}):
            raise FileNotFoundError(2, "No such file or directory", "/dev/gpiochip0")
    assert str(missing.value) == (
        "roll = 17: no GPIO to open it on ([Errno 2] No such file or directory: '/dev/gpiochip0')"
    )


# -- choosing the backend -------------------------------------------------------------------------


@pytest.mark.usefixtures("no_pin_factory")
def test_auto_backend_on_a_pi_without_gpio_falls_back_to_fake_buttons_in_one_warning_line(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A Raspberry Pi whose pins cannot be loaded (no lgpio, say): the keys stand in, and one
    line says why and what to install."""
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\0")
    monkeypatch.setattr(gpio, "MODEL_FILES", (tmp_path / "missing", model))
    with caplog.at_level(logging.DEBUG, logger="drivers.gpio"):
        source = open_buttons(GpioConfig(), queue.Queue())
    assert isinstance(source, FakeButtons)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "GPIO buttons unavailable on this Raspberry Pi 4 Model B Rev 1.4, using the keyboard: no GPIO pins "
        "(BadPinFactory: Unable to find pin factory 'nosuchfactory'); on a Raspberry Pi install lgpio from the OS: sudo apt install python3-lgpio, "
        "and run aetherbox from the system's Python or a venv made with "
        "'python3 -m venv --system-site-packages' (systemd/install.sh does both)"
    ]


@pytest.mark.usefixtures("no_pin_factory")
@pytest.mark.parametrize("model", [None, b"LENOVO ThinkPad\0"])
def test_auto_backend_off_a_pi_uses_the_keys_without_a_warning(
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    model: bytes | None,
) -> None:
    """``auto`` means GPIO on a Pi and keys elsewhere: a laptop is told nothing (a debug line)."""
    files = (tmp_path / "model",)
    if model is not None:
        files[0].write_bytes(model)
    monkeypatch.setattr(gpio, "MODEL_FILES", files)
    with caplog.at_level(logging.DEBUG, logger="drivers.gpio"):
        source = open_buttons(GpioConfig(), queue.Queue())
    assert isinstance(source, FakeButtons)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert caplog.records[-1].getMessage() == (
        "not a Raspberry Pi: keys stand in for the buttons (no GPIO pins (BadPinFactory: Unable to find pin "
        "factory 'nosuchfactory'); on a Raspberry Pi install lgpio from the OS: sudo apt install python3-lgpio, "
        "and run aetherbox from the system's Python or a venv made with "
        "'python3 -m venv --system-site-packages' (systemd/install.sh does both))"
    )


def test_auto_backend_with_gpio_uses_gpiozero(mock_factory: MockFactory) -> None:
    source = open_buttons(GpioConfig(), queue.Queue())
    try:
        assert isinstance(source, GpioButtons)
    finally:
        source.close()


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError) as info:
        open_buttons(GpioConfig(), queue.Queue(), backend="serial")  # type: ignore[arg-type]
    assert str(info.value) == "unknown button backend 'serial': use 'auto', 'gpio' or 'fake'"


def test_fake_buttons_post_what_the_hardware_would() -> None:
    events: InputQueue = queue.Queue()
    fake = FakeButtons(events)
    source: ButtonSource = fake
    with pytest.raises(RuntimeError) as info:
        fake.press(Button.ROLL)
    assert str(info.value) == (
        "FakeButtons is not running: call start() first (and not after close())"
    )
    source.start()
    fake.press(Button.ROLL)
    fake.press(Button.NEXT, long=True)
    fake.turn(-2)
    source.close()
    assert [events.get_nowait() for _ in range(3)] == [
        ROLL,
        ButtonPressed(Button.NEXT, long=True),
        EncoderTurned(-2),
    ]
    with pytest.raises(RuntimeError):
        fake.turn(1)


# -- configuration ------------------------------------------------------------------------------


def config_error(**settings: Any) -> tuple[tuple[int | str, ...], str]:
    with pytest.raises(ValidationError) as info:
        GpioConfig(**settings)
    [error] = info.value.errors()
    return error["loc"], error["msg"]


def test_default_wiring() -> None:
    config = GpioConfig()
    assert config.pins() == {
        "roll": 17, "next": 27, "undo": 22, "select": 13,
        "encoder_a": 5, "encoder_b": 6, "buzzer": 18, "led": 23,
    }  # fmt: skip
    assert config.button_pins() == {
        Button.ROLL: 17, Button.NEXT: 27, Button.UNDO: 22, Button.SELECT: 13,
    }  # fmt: skip
    assert config.pull_up is True and config.active_state is None
    with pytest.raises(ValidationError):
        config.roll = 4  # type: ignore[misc]


def test_pin_names_are_normalised() -> None:
    config = GpioConfig(roll="gpio4", next="17", undo=" bcm24 ", select="j8:36", led="BOARD40")
    assert (config.roll, config.next, config.undo, config.select, config.led) == (
        "GPIO4", 17, "BCM24", "J8:36", "BOARD40",
    )  # fmt: skip


def test_header_table_matches_gpiozero() -> None:
    board = MockFactory().board_info
    for position in range(1, 41):
        [(_, info)] = board.find_pin(f"BOARD{position}")
        gpio = info.name if info.name.startswith("GPIO") else None
        assert (f"GPIO{HEADER_GPIO[position]}" if position in HEADER_GPIO else None) == gpio


@pytest.mark.parametrize(
    ("settings", "loc", "message"),
    [
        (
            {"roll": "GPIO99"},
            ("roll",),
            "Value error, roll: 'GPIO99' is not a GPIO on the 40-pin header: use GPIO0 to GPIO27",
        ),
        (
            {"next": 40},
            ("next",),
            "Value error, next: 40 is not a GPIO on the 40-pin header: BCM numbers go from 0 to 27",
        ),
        (
            {"undo": "BOARD6"},
            ("undo",),
            "Value error, undo: 'BOARD6' is a power or ground pin, not a GPIO: "
            "choose a GPIO position such as 'BOARD11' (GPIO17)",
        ),
        (
            {"led": "BOARD41"},
            ("led",),
            "Value error, led: 'BOARD41' is not on the 40-pin header: positions go from 1 to 40",
        ),
        (
            {"buzzer": "PIN18"},
            ("buzzer",),
            "Value error, buzzer: 'PIN18' is not a pin: use a BCM number such as 17, "
            "or a name such as 'GPIO17', 'BCM17' or 'BOARD11'",
        ),
        (
            {"select": True},
            ("select",),
            "Value error, select: True is not a pin: use a BCM number such as 17, "
            "or a name such as 'GPIO17', 'BCM17' or 'BOARD11'",
        ),
        (
            {"roll": None},
            ("roll",),
            "Value error, roll: a pin is required: use a BCM number such as 17, "
            "or a name such as 'GPIO17', 'BCM17' or 'BOARD11'",
        ),
    ],
)
def test_unknown_pin_names_are_refused(
    settings: dict[str, Any], loc: tuple[str, ...], message: str
) -> None:
    assert config_error(**settings) == (loc, message)


def test_duplicate_pins_are_refused_naming_both_settings() -> None:
    assert config_error(undo="BOARD13") == (
        (),
        "Value error, next (27) and undo ('BOARD13') are both GPIO27: give each its own pin",
    )
    assert config_error(led=5) == (
        (),
        "Value error, encoder_a (5) and led (5) are both GPIO5: give each its own pin",
    )


def test_pull_and_active_state_rules() -> None:
    assert config_error(pull_up=True, active_state=True) == (
        (),
        "Value error, active_state: leave it unset when pull_up is True, because the pull "
        "decides which level is a press; remove pull_up to use external resistors",
    )
    assert config_error(pull_up=None) == (
        (),
        "Value error, active_state: with external resistors (no pull_up) say which level is a "
        "press: true for high, false for low",
    )
    external = GpioConfig(active_state=True)
    assert (external.pull_up, external.active_state) == (None, True)


def test_encoder_pins_go_together() -> None:
    assert config_error(encoder_b=None) == (
        (),
        "Value error, encoder_a and encoder_b go together: set both pins or neither",
    )


def test_timing_rules() -> None:
    assert config_error(hold_time=0.01) == (
        (),
        "Value error, hold_time: 0.01 s must be longer than the debounce window (0.02 s)",
    )
    assert config_error(debounce=0) == (("debounce",), "Input should be greater than 0")
    assert config_error(repeat=["roll", "jump"]) == (
        ("repeat", 1),
        "Input should be 'roll', 'next', 'undo' or 'select'",
    )
    assert config_error(rol=17) == (("rol",), "Extra inputs are not permitted")


def test_parse_pin_outside_a_config() -> None:
    assert parse_pin("Gpio17") == "GPIO17"
    with pytest.raises(ValueError) as info:
        parse_pin(3.5, "roll")
    assert str(info.value) == (
        "roll: 3.5 is not a pin: use a BCM number such as 17, "
        "or a name such as 'GPIO17', 'BCM17' or 'BOARD11'"
    )
