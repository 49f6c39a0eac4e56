"""What wakes the kiosk's loop: the input queue driver threads put on, and which SDL video
drivers let the loop sleep in SDL's own wait.

Driver threads (GPIO buttons, the RFID reader) put ``device.inputs`` values on a
:class:`WakingQueue`, which also posts a pygame user event so a loop sleeping in SDL wakes
(``pygame.event.post`` is thread-safe in pygame-ce 2; the old ``fastevent`` module is
deprecated).
"""

from __future__ import annotations

import queue
import threading

import pygame

from device.inputs import InputEvent

WAKE = pygame.event.custom_type()

#: SDL video drivers whose event wait really sleeps (SDL 2.0.16+).  With the others SDL's wait
#: polls every millisecond, so the loop sleeps on the input queue instead; where SDL still
#: delivers input (KMS/DRM: keyboards and touch screens through evdev) the kernel's input devices
#: wake it (``input_watched``), or, when they cannot be watched, it looks at SDL's events every
#: ``SDL_POLL`` seconds.
SDL_SLEEPS = frozenset({"x11", "wayland", "windows", "cocoa"})
SDL_NO_INPUT = frozenset({"dummy", "offscreen"})
SDL_POLL = 0.02


class WakingQueue(queue.Queue[InputEvent]):
    """The input queue: ``put`` from any thread, and the kiosk's loop wakes up — whether it sleeps
    in SDL (``pygame.event.wait``) or on :meth:`wait`."""

    def __init__(self) -> None:
        super().__init__()
        self._signal = threading.Event()

    def put(self, item: InputEvent, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        self.wake()

    def wake(self) -> None:
        """Wake the loop, wherever it sleeps; without an input of ours, this is a signal asking
        it to stop, or input waiting in SDL (the kernel's input devices on the Pi's console)."""
        self._signal.set()
        try:
            pygame.event.post(pygame.event.Event(WAKE))
        except pygame.error:
            pass  # video not up yet: the loop drains the queue when it starts

    def wait(self, timeout: float | None) -> None:
        """Sleep until something is put (or ``timeout`` seconds pass)."""
        self._signal.wait(timeout)
        self._signal.clear()
