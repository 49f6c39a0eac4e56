"""SDL's own wait (display.sdl): found in the SDL pygame loaded, woken by an event posted from
another thread, and the event left for ``pygame.event.get()``."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pygame
import pytest

from display.sdl import loaded_sdl, sdl_wait

MAPS = """\
7f1c2a000000-7f1c2a100000 r-xp 00000000 08:01 1234  /venv/site-packages/pygame_ce.libs/libSDL2_mixer-2-6719e6f6.0.so.0.800.2
7f1c2b000000-7f1c2b100000 r-xp 00000000 08:01 1235  /venv/site-packages/pygame_ce.libs/libSDL2-2-50d19f93.0.so.0.3200.10
7f1c2c000000-7f1c2c100000 r-xp 00000000 08:01 1236  /usr/lib/aarch64-linux-gnu/libSDL2_ttf-2.0.so.0
"""


def test_the_sdl_library_is_told_from_its_companions(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    maps.write_text(MAPS)
    assert loaded_sdl(maps) == Path(
        "/venv/site-packages/pygame_ce.libs/libSDL2-2-50d19f93.0.so.0.3200.10"
    )
    maps.write_text(
        "55d0 r-xp 00000000 08:01 7  /usr/lib/aarch64-linux-gnu/libSDL2-2.0.so.0.3200.10\n"
    )
    assert loaded_sdl(maps) == Path("/usr/lib/aarch64-linux-gnu/libSDL2-2.0.so.0.3200.10")
    maps.write_text(MAPS.splitlines()[0])
    assert loaded_sdl(maps) is None
    assert loaded_sdl(tmp_path / "not-there") is None


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the library is found through /proc"
)
def test_sdls_wait_sleeps_and_an_event_posted_from_a_thread_wakes_it() -> None:
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    pygame.event.clear()
    wait = sdl_wait()
    assert wait is not None
    began = time.perf_counter()
    assert wait(0.05) is False
    assert time.perf_counter() - began >= 0.045
    wake = pygame.event.custom_type()
    threading.Timer(0.05, lambda: pygame.event.post(pygame.event.Event(wake, n=7))).start()
    began = time.perf_counter()
    assert wait(None) is True
    assert time.perf_counter() - began < 5
    assert [(e.type, e.n) for e in pygame.event.get() if e.type == wake] == [(wake, 7)]
