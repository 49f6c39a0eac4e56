"""HW-1: the rotary encoder (life and options) and its push switch, SELECT, on mock pins."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from device.errors import ConfigError
from device.inputs import Button, ButtonPressed, EncoderTurned, InputEvent, InputQueue
from drivers.gpio import GpioButtons, GpioConfig

# Each detent takes both contacts through a full cycle; pins idle high (pulled up, C to ground).
CLOCKWISE = [("a", "low"), ("b", "low"), ("a", "high"), ("b", "high")]
COUNTER_CLOCKWISE = [("b", "low"), ("a", "low"), ("b", "high"), ("a", "high")]


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


class Encoder:
    def __init__(self, factory: MockFactory, config: GpioConfig) -> None:
        self.pins = {"a": factory.pin(config.encoder_a), "b": factory.pin(config.encoder_b)}
        self.events: InputQueue = queue.Queue()
        self.clock = Clock()
        self.buttons = GpioButtons(config, self.events, clock=self.clock, timer=False)
        self.buttons.start()

    def drive(self, sequence: list[tuple[str, str]]) -> None:
        for contact, level in sequence:
            getattr(self.pins[contact], f"drive_{level}")()

    def drained(self) -> list[InputEvent]:
        out: list[InputEvent] = []
        while not self.events.empty():
            out.append(self.events.get_nowait())
        return out


@pytest.fixture
def encoder(mock_factory: MockFactory) -> Iterator[Encoder]:
    encoder = Encoder(mock_factory, GpioConfig())
    yield encoder
    encoder.buttons.close()


def test_hw1_encoder_clockwise_detents_are_positive_steps(encoder: Encoder) -> None:
    encoder.drive(CLOCKWISE * 3)
    assert encoder.drained() == [EncoderTurned(1)] * 3


def test_hw1_encoder_counter_clockwise_detents_are_negative_steps(encoder: Encoder) -> None:
    encoder.drive(COUNTER_CLOCKWISE * 2 + CLOCKWISE)
    assert encoder.drained() == [EncoderTurned(-1), EncoderTurned(-1), EncoderTurned(1)]


def test_hw1_encoder_contact_chatter_within_a_detent_is_one_step(encoder: Encoder) -> None:
    chatter = [
        ("a", "low"), ("a", "high"), ("a", "low"),
        ("b", "low"), ("b", "high"), ("b", "low"),
        ("a", "high"), ("a", "low"), ("a", "high"),
        ("b", "high"),
    ]  # fmt: skip
    encoder.drive(chatter)
    assert encoder.drained() == [EncoderTurned(1)]


def test_hw1_encoder_wiggle_without_a_detent_is_nothing(encoder: Encoder) -> None:
    encoder.drive([("a", "low"), ("a", "high")] * 5)
    encoder.drive([("a", "low"), ("b", "low"), ("b", "high"), ("a", "high")])  # half way and back
    assert encoder.drained() == []


def test_encoder_direction_is_configuration(mock_factory: MockFactory) -> None:
    config = GpioConfig(encoder_a="BOARD31", encoder_b="GPIO5", encoder_reverse=True)
    encoder = Encoder(mock_factory, config)
    try:
        assert encoder.pins["a"] is mock_factory.pin(6)
        encoder.drive(CLOCKWISE)
        assert encoder.drained() == [EncoderTurned(-1)]
    finally:
        encoder.buttons.close()


def test_hw1_encoder_push_is_a_debounced_select(
    encoder: Encoder, mock_factory: MockFactory
) -> None:
    push = mock_factory.pin(13)
    for level in ("low", "high", "low", "high", "low"):
        getattr(push, f"drive_{level}")()
        encoder.clock.now += 0.002
    encoder.drive(CLOCKWISE)  # turning while pushed is still a turn
    encoder.clock.now += 0.3
    encoder.buttons.poll()
    for level in ("high", "low", "high"):
        getattr(push, f"drive_{level}")()
        encoder.clock.now += 0.003
    encoder.clock.now += 0.1
    encoder.buttons.poll()
    assert encoder.drained() == [EncoderTurned(1), ButtonPressed(Button.SELECT)]


def test_no_encoder_fitted(mock_factory: MockFactory) -> None:
    config = GpioConfig(encoder_a=None, encoder_b=None)
    with GpioButtons(config, queue.Queue(), timer=False) as buttons:
        buttons.start()
    mock_factory.pin(5)  # free for anything else


def test_encoder_pin_missing_on_this_board_names_both_pins(mock_factory: MockFactory) -> None:
    old_pi = MockFactory(revision="0002")  # 26-pin header: no GPIO5, 6, 13 or 27
    config = GpioConfig(next=24, select=None, encoder_a=4, encoder_b=27)
    with pytest.raises(ConfigError) as info:
        GpioButtons(config, queue.Queue(), pin_factory=old_pi)
    assert str(info.value) == (
        "encoder_a = 4, encoder_b = 27: this board has no such pin (27 is not a valid pin name); "
        "choose another pin for encoder_a or encoder_b"
    )
