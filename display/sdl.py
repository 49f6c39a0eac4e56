"""SDL's own blocking wait, which pygame does not offer.

``pygame.event.wait(timeout)`` is pygame-ce's re-implementation of SDL's wait: it pumps and then
sleeps one millisecond, round and round, so an idle kiosk on a desktop woke about 900 times a
second.  SDL itself (2.0.16 and newer) really sleeps on the window system's connection with the
X11, Wayland, Windows and Cocoa video drivers, and ``SDL_PushEvent`` from another thread (what
``pygame.event.post`` calls, and so :class:`display.kiosk.waking.WakingQueue`) wakes it.  So the kiosk
calls ``SDL_WaitEventTimeout(NULL, ms)`` in the very SDL library pygame loaded: with a NULL event
it only waits until one is there and leaves it queued, for ``pygame.event.get()`` to take with
pygame's own translation of it.

The library is found among those the process has mapped (``/proc/self/maps``): pygame-ce's
wheels carry SDL under a mangled name, a distribution's pygame uses the system's.  Where it is not
found (not Linux, no SDL loaded) :func:`sdl_wait` returns None and the caller falls back to
pygame's wait.
"""

from __future__ import annotations

import ctypes
import logging
import math
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

log = logging.getLogger(__name__)

#: ``libSDL2-2.0.so.0`` from a distribution, ``libSDL2-2-50d19f93.0.so.0.3200.10`` in a wheel;
#: not SDL2_mixer, SDL2_ttf or SDL2_image.
_SDL_LIBRARY = re.compile(r"^libSDL2(-2[.-][^/]*)?\.so[^/]*$")
_FOREVER = -1
_LONGEST_MS = 2**31 - 1


def video_driver() -> str:
    """The SDL video driver in use ("x11", "kmsdrm", …), in lower case whatever SDL calls it (its
    KMS/DRM driver names itself "KMSDRM"); "dummy" before SDL's video starts."""
    import pygame

    return str(pygame.display.get_driver()).lower() if pygame.display.get_init() else "dummy"


def loaded_sdl(maps: Path = Path("/proc/self/maps")) -> Path | None:
    """The SDL 2 library this process has loaded, or None."""
    try:
        lines = maps.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and _SDL_LIBRARY.match(Path(fields[5]).name):
            return Path(fields[5])
    return None


@cache
def sdl_wait() -> Callable[[float | None], bool] | None:
    """``wait(seconds)``: sleep in SDL until an event is queued (True) or ``seconds`` pass
    (False; None: no limit).  None when SDL's own wait cannot be reached."""
    path = loaded_sdl()
    if path is None:
        log.debug("display: SDL's library not found among the loaded ones; waiting through pygame")
        return None
    try:
        library = ctypes.CDLL(str(path))
        function = library.SDL_WaitEventTimeout
    except (OSError, AttributeError) as error:
        log.debug(
            "display: cannot use SDL_WaitEventTimeout in %s (%s); waiting through pygame",
            path,
            error,
        )
        return None
    function.argtypes = [ctypes.c_void_p, ctypes.c_int]
    function.restype = ctypes.c_int

    def wait(seconds: float | None) -> bool:
        ms = _FOREVER if seconds is None else min(_LONGEST_MS, max(1, math.ceil(seconds * 1000)))
        return bool(function(None, ms))  # ctypes lets go of the GIL while SDL sleeps

    return wait
