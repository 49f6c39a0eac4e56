from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from device.controller import Controller
from device import text
from device.english import ENGLISH
from device.game import GAME
from device.journal import Journal
from helpers import Clock, Pty


# Messages are worded in the gadget's English, as ``display.cli`` has them worded.
text.speak(ENGLISH)  # also in the threads a test starts, which do not inherit the fixture's rules


@pytest.fixture(autouse=True)
def _the_gadgets_rules() -> Iterator[None]:
    """Every test runs as the gadget does (``display.cli``): with all of its rules in play, so a
    helper that asks the rules in play (a format by name, how a game ends) finds them.  A test of
    other rules builds its own ``Ruleset`` and plays through it."""
    with GAME.playing():
        yield


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reads or writes the real data or config directory."""
    monkeypatch.setenv("AETHERBOX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("AETHERBOX_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "games" / "aetherbox.sqlite3"


@pytest.fixture
def journal(journal_path: Path) -> Iterator[Journal]:
    with Journal(journal_path) as opened:
        yield opened


@pytest.fixture
def clock() -> Clock:
    """The controller's wall clock at ``T0``, moved by the test."""
    return Clock()


@pytest.fixture
def controller(journal_path: Path) -> Iterator[Controller]:
    journal = Journal(journal_path)
    try:
        yield Controller(journal, rng=random.Random(7))
    finally:
        journal.close()


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins, restoring the global pin factory afterwards."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def pty() -> Iterator[Pty]:
    """A pseudo-terminal standing in for a serial reader; closing it is an unplug."""
    pair = Pty()
    yield pair
    pair.close()
