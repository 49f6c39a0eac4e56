from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from device.controller import Controller
from device.journal import Journal
from helpers import Clock, Pty


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
