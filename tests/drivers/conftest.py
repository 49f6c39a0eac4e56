"""The driver tests' fixtures (the mock pins come from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device


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
