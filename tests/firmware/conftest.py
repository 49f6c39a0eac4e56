"""Fixtures for the reader-side tools: a scripted terminal (the pty comes from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from harness import Terminal


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[Terminal]:
    term = Terminal(monkeypatch)
    yield term
    term.close()
