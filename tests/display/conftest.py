"""Fixtures for the kiosk's tests: SDL's dummy video driver, a kiosk around the real controller
(and its SQLite journal), the bundled fonts only (so every machine draws the same pixels), the
kiosk's clocks stopped at ``CLOCK`` and ``WALL`` and local time UTC; the scenes are in ``scenes.py``."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
# SDL would take SIGINT and SIGTERM for its own quit event, and the test run could not be stopped.
os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The saved games show when each was last played, in local time: UTC here, so every machine draws it alike.
os.environ["TZ"] = "UTC"

import time  # noqa: E402

time.tzset()

import random  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from device.controller import Controller  # noqa: E402
from device.journal import Journal  # noqa: E402
from device.tagmap import TagMap  # noqa: E402
from display import canvas as canvas_module  # noqa: E402
from display import cardtext  # noqa: E402
from display.fonts import Fonts  # noqa: E402
from display.kiosk import Kiosk  # noqa: E402
from display.targets import OffscreenTarget, ScreenshotTarget  # noqa: E402

from scenes import SAMPLE_TEXT  # noqa: E402
from xserver import xserver as xserver  # noqa: E402, F401 - the fixture for tests that need a real X server

CLOCK = 1000.0
WALL = 1.7e9  # the wall clock of the kiosk and its controller: the times commands and the game clock take


@pytest.fixture(scope="session")
def fonts() -> Fonts:
    pygame.display.init()
    return Fonts(system=False)


@pytest.fixture
def make_kiosk(tmp_path: Path, fonts: Fonts) -> Iterator[Callable[..., Kiosk]]:
    """``make_kiosk(size, language, screenshots=None, clock=…, wall=…)``: a kiosk on a fresh
    journal (its monotonic clock stopped at ``CLOCK`` unless ``clock`` is given; its wall clock,
    and its controller's, at ``WALL`` unless ``wall`` is)."""
    journals: list[Journal] = []
    cardtext.configure(tmp_path, imported=False)
    providers = cardtext.PROVIDERS
    providers.append(sample_text)
    (tmp_path / "tags.txt").write_text("04A1B2C3  Tazeem\n", encoding="utf-8")

    def make(
        size: tuple[int, int] = (800, 480),
        language: str = "en",
        screenshots: Path | None = None,
        clock: Callable[[], float] = lambda: CLOCK,
        wall: Callable[[], float] = lambda: WALL,
    ) -> Kiosk:
        journal = Journal(tmp_path / f"j{len(journals)}" / "aetherbox.sqlite3")
        journals.append(journal)
        controller = Controller(
            journal, rng=random.Random(7), tags=TagMap(tmp_path / "tags.txt"), clock=wall
        )
        target = (
            ScreenshotTarget(size, screenshots)
            if screenshots is not None
            else OffscreenTarget(size)
        )
        pygame.event.clear()
        fonts.missing.clear()
        fonts.notices.clear()
        return Kiosk(controller, target, language=language, fonts=fonts, clock=clock, wall=wall)

    yield make
    for journal in journals:
        journal.close()
    providers.remove(sample_text)
    cardtext.configure(None)


def sample_text(name: str) -> str | None:
    """Card data for the tests: one plane has (made-up) rules text."""
    return SAMPLE_TEXT if name == "Tazeem" else None


# A part of a frame a later frame may put back instead of drawing (``Canvas.part``) is drawn in
# every test, and drawing it otherwise under the same key fails the test.
canvas_module.CHECK_PARTS = True
