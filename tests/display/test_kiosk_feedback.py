"""Issue 6: the buzzer and LED through the kiosk — a planeswalk chimes, a chaos roll beeps and
flashes, a blank is silent (PC-3).  The outputs are gpiozero's mock pins; the die's face
comes from a seeded RNG, and each test checks the rolled face before listening."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from device.commands import NewGame
from device.config import Config
from device.inputs import Button, ButtonPressed
from device.rules.planechase.events import PlanarDieRolled, Planeswalked
from device.rules.planechase.state import DieFace
from display.app import KioskOptions, feedback_pins, open_kiosk
from display.kiosk import Kiosk
from display.kiosk.results import cues
from drivers.feedback import Cue, FakeFeedback, GpioFeedback, open_feedback
from drivers.gpio import GpioConfig
from scenes import PLAYERS

MakeKiosk = Callable[..., Kiosk]
WIRED = {"buzzer": 18, "led": 23}


def seed_for(face: DieFace) -> int:
    """The first seed whose first planar die roll shows ``face`` (the die reads ``randrange(6)``)."""
    pip = {DieFace.CHAOS: 1, DieFace.PLANESWALK: 6, DieFace.BLANK: 3}[face]
    return next(s for s in range(1000) if random.Random(s).randrange(6) + 1 == pip)


def rolled(kiosk: Kiosk, face: DieFace) -> list[Any]:
    """Start a Commander + Planechase game, pass to the main phase and press ROLL with the die
    seeded to show ``face``; returns the roll's events."""
    kiosk.execute(NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0]))
    kiosk.handle_input(ButtonPressed(Button.NEXT))
    kiosk.controller.rng = random.Random(seed_for(face))
    result = kiosk.press(ButtonPressed(Button.ROLL))
    assert result is not None
    roll = next(e for e in result.events if isinstance(e, PlanarDieRolled))
    assert roll.result is face
    return list(result.events)


def went_high(pin: Any, timeout: float = 2.0) -> bool:
    """Whether the pin was driven high (the blink runs on gpiozero's thread)."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        if any(state.state for state in pin.states):
            return True
        time.sleep(0.002)
    return False


@pytest.fixture
def wired(make_kiosk: MakeKiosk, mock_factory: MockFactory) -> Kiosk:
    kiosk = make_kiosk()
    kiosk.feedback = open_feedback(
        feedback_pins(GpioConfig.model_validate(WIRED), WIRED), backend="gpio"
    )
    assert isinstance(kiosk.feedback, GpioFeedback)
    return kiosk


def test_pc3_a_chaos_roll_beeps_the_buzzer_and_flashes_the_led(
    wired: Kiosk, mock_factory: MockFactory
) -> None:
    """PC-3: the die came up chaos: the buzzer (GPIO18) beeps and the LED (GPIO23) flashes."""
    try:
        rolled(wired, DieFace.CHAOS)
        assert went_high(mock_factory.pin(23))
        assert went_high(mock_factory.pin(18))
    finally:
        assert wired.feedback is not None
        wired.feedback.close()


def test_pc3_a_planeswalk_plays_the_chime_and_leaves_the_led_dark(
    wired: Kiosk, mock_factory: MockFactory
) -> None:
    """PC-3: the die came up planeswalk and the table planeswalked: the buzzer chimes; the LED
    is chaos's alone."""
    try:
        events = rolled(wired, DieFace.PLANESWALK)
        assert any(isinstance(e, Planeswalked) for e in events)
        assert went_high(mock_factory.pin(18))
        assert not any(state.state for state in mock_factory.pin(23).states)
    finally:
        assert wired.feedback is not None
        wired.feedback.close()


def test_pc3_a_blank_plays_nothing(wired: Kiosk, mock_factory: MockFactory) -> None:
    try:
        rolled(wired, DieFace.BLANK)
        time.sleep(0.05)  # a cue would have started by now: blinks begin at once
        assert not any(state.state for state in mock_factory.pin(18).states)
        assert not any(state.state for state in mock_factory.pin(23).states)
    finally:
        assert wired.feedback is not None
        wired.feedback.close()


def test_undoing_a_planeswalk_is_silent(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk()
    kiosk.feedback = fake = FakeFeedback()
    rolled(kiosk, DieFace.PLANESWALK)
    assert fake.played == [Cue.PLANESWALK]
    kiosk.handle_input(ButtonPressed(Button.UNDO))
    assert fake.played == [Cue.PLANESWALK]


def test_cues_follow_the_events_each_once() -> None:
    chaos = PlanarDieRolled(
        seat=0, pip=1, face=DieFace.CHAOS, result=DieFace.CHAOS, cost=0, special=False
    )
    blank = PlanarDieRolled(
        seat=0, pip=3, face=DieFace.BLANK, result=DieFace.BLANK, cost=0, special=False
    )
    aether = PlanarDieRolled(
        seat=0, pip=3, face=DieFace.BLANK, result=DieFace.CHAOS, cost=0, special=False
    )
    walk = Planeswalked(seat=0, deck=0, away=("Tazeem",))
    assert cues([blank]) == []
    assert cues([aether]) == [Cue.CHAOS]  # Chaotic Aether: the blank counts as chaos
    assert cues([chaos, walk, walk]) == [Cue.CHAOS, Cue.PLANESWALK]


def test_a_buzzer_that_fails_does_not_stop_the_game(
    make_kiosk: MakeKiosk, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken(FakeFeedback):
        def play(self, cue: Cue) -> None:
            raise OSError("GPIO18: I/O error")

    kiosk = make_kiosk()
    kiosk.feedback = Broken()
    rolled(kiosk, DieFace.PLANESWALK)
    rolled(kiosk, DieFace.CHAOS)
    assert [r.getMessage() for r in caplog.records if "feedback" in r.getMessage()] == [
        "feedback: cannot play 'planeswalk' (GPIO18: I/O error); the game goes on without it"
    ]


def test_absent_pins_are_off(mock_factory: MockFactory) -> None:
    """``[gpio]`` without ``buzzer``/``led``: nothing is driven, whatever the wiring defaults."""
    pins = feedback_pins(GpioConfig(), {})
    assert (pins.buzzer, pins.led) == (None, None)
    with GpioFeedback(pins) as feedback:
        feedback.play(Cue.CHAOS)
        time.sleep(0.02)
    assert not any(state.state for state in mock_factory.pin(18).states)
    only_led = feedback_pins(GpioConfig.model_validate({"led": 24}), {"led": 24})
    assert (only_led.buzzer, only_led.led) == (None, 24)


def test_the_kiosks_fake_buttons_come_with_fake_feedback(tmp_path: Path) -> None:
    """``--buttons fake`` (and ``--screenshots``): the cues are recorded, no pin is touched."""
    options = KioskOptions(
        db=tmp_path / "j.sqlite3", buttons="fake", screenshots=tmp_path / "shots", seed=1
    )
    with open_kiosk(Config(gpio=WIRED), options) as kiosk:
        assert isinstance(kiosk.feedback, FakeFeedback)
        rolled(kiosk, DieFace.CHAOS)
        assert kiosk.feedback.played == [Cue.CHAOS]
    assert kiosk.feedback.closed
