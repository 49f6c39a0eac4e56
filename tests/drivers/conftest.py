"""gpiozero's mock pins for the driver tests, restoring the global pin factory afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def no_pin_factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No pin factory can load: what a laptop without GPIO looks like to gpiozero."""
    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    try:
        yield
    finally:
        Device.pin_factory = saved
