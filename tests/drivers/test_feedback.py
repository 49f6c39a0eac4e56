"""The buzzer and LED cues through gpiozero's mock output pins, and the recording fake."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from gpiozero import LED, Buzzer
from gpiozero.pins.mock import MockFactory

from device.errors import ConfigError
from drivers.feedback import (
    DEFAULT_PATTERNS,
    Blink,
    Cue,
    CuePattern,
    FakeFeedback,
    Feedback,
    GpioFeedback,
    open_feedback,
)
from drivers.gpio import GpioConfig

QUICK = {
    Cue.PLANESWALK: CuePattern(buzzer=Blink(0.004, 0.004, 2)),
    Cue.CHAOS: CuePattern(buzzer=Blink(0.01, 0.0, 1), led=Blink(0.003, 0.003, 4)),
}


def levels(pin: Any, count: int, timeout: float = 2.0) -> list[bool]:
    """The pin's level history once it has ``count`` entries (the blink runs on a thread)."""
    give_up = time.monotonic() + timeout
    while len(pin.states) < count and time.monotonic() < give_up:
        time.sleep(0.002)
    time.sleep(0.02)  # long enough for a stray extra change to show up
    return [bool(state.state) for state in pin.states]


def test_planeswalk_plays_a_two_beep_chime_on_the_buzzer_only(mock_factory: MockFactory) -> None:
    with GpioFeedback(GpioConfig(), patterns=QUICK) as feedback:
        feedback.play(Cue.PLANESWALK)
        assert levels(mock_factory.pin(18), 5) == [False, True, False, True, False]
        assert levels(mock_factory.pin(23), 1) == [False]


def test_chaos_beeps_and_flashes(mock_factory: MockFactory) -> None:
    with GpioFeedback(GpioConfig(), patterns=QUICK) as feedback:
        feedback.play(Cue.CHAOS)
        assert levels(mock_factory.pin(18), 3) == [False, True, False]
        assert levels(mock_factory.pin(23), 9) == [False] + [True, False] * 4


def test_default_chime_timing(mock_factory: MockFactory) -> None:
    chime = DEFAULT_PATTERNS[Cue.PLANESWALK].buzzer
    assert chime == Blink(0.06, 0.06, 2)
    with GpioFeedback(GpioConfig()) as feedback:
        feedback.play(Cue.PLANESWALK)
        states = mock_factory.pin(18).states
        assert levels(mock_factory.pin(18), 5) == [False, True, False, True, False]
        first_beep = states[2].timestamp  # time from going high to going low
        assert 0.05 <= first_beep <= 0.5


def test_unfitted_outputs_are_skipped(mock_factory: MockFactory) -> None:
    with GpioFeedback(GpioConfig(buzzer=None), patterns=QUICK) as feedback:
        feedback.play(Cue.PLANESWALK)
        feedback.play(Cue.CHAOS)
        assert levels(mock_factory.pin(23), 9) == [False] + [True, False] * 4
    Buzzer(18).close()  # never claimed


def test_close_releases_the_pins(mock_factory: MockFactory) -> None:
    feedback = GpioFeedback(GpioConfig(), patterns=QUICK)
    feedback.close()
    feedback.close()
    Buzzer(18).close()
    LED(23).close()
    with pytest.raises(RuntimeError) as info:
        feedback.play(Cue.CHAOS)
    assert str(info.value) == "cannot play 'chaos': GpioFeedback is closed"


def test_buzzer_pin_missing_on_this_board_is_named(mock_factory: MockFactory) -> None:
    old_pi = MockFactory(revision="0002")
    with pytest.raises(ConfigError) as info:
        GpioFeedback(GpioConfig(select=None, buzzer=13), pin_factory=old_pi)
    assert str(info.value) == (
        "buzzer = 13: this board has no such pin; choose another pin for buzzer"
    )


def test_fake_feedback_records_what_was_played() -> None:
    fake = FakeFeedback()
    feedback: Feedback = fake
    feedback.play(Cue.PLANESWALK)
    feedback.play(Cue.CHAOS)
    feedback.close()
    assert fake.played == [Cue.PLANESWALK, Cue.CHAOS]
    with pytest.raises(RuntimeError) as info:
        feedback.play(Cue.CHAOS)
    assert str(info.value) == "cannot play 'chaos': FakeFeedback is closed"


@pytest.mark.usefixtures("no_pin_factory")
def test_auto_feedback_without_gpio_is_silent_and_says_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="drivers.feedback"):
        feedback = open_feedback(GpioConfig())
    assert isinstance(feedback, FakeFeedback)
    assert caplog.messages == [
        "GPIO buzzer and LED unavailable, cues will be silent: no GPIO pins (BadPinFactory: Unable to find "
        "pin factory 'nosuchfactory'); on a Raspberry Pi install lgpio from the OS: sudo apt install python3-lgpio, "
        "and run aetherbox from the system's Python or a venv made with "
        "'python3 -m venv --system-site-packages' (systemd/install.sh does both)"
    ]


def test_open_feedback_backends(mock_factory: MockFactory) -> None:
    real = open_feedback(GpioConfig())
    try:
        assert isinstance(real, GpioFeedback)
    finally:
        real.close()
    assert isinstance(open_feedback(GpioConfig(buzzer=None, led=None)), FakeFeedback)
    assert isinstance(open_feedback(GpioConfig(), backend="fake"), FakeFeedback)
    with pytest.raises(ValueError) as info:
        open_feedback(GpioConfig(), backend="pwm")  # type: ignore[arg-type]
    assert str(info.value) == "unknown feedback backend 'pwm': use 'auto', 'gpio' or 'fake'"


def test_blink_must_be_playable() -> None:
    with pytest.raises(ValueError) as info:
        Blink(0.0, 0.1, 2)
    assert str(info.value) == (
        "a blink needs on_time > 0, off_time >= 0 and n >= 1, "
        "not Blink(on_time=0.0, off_time=0.1, n=2)"
    )
