from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.controller import Controller
from device.journal import Journal


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
def controller(journal_path: Path) -> Iterator[Controller]:
    journal = Journal(journal_path)
    try:
        yield Controller(journal, rng=random.Random(7))
    finally:
        journal.close()

