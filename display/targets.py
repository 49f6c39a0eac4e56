"""Where frames go: a desktop window, the full screen through KMS/DRM, an SPI panel's frame
buffer (RGB565), or PNG files.  Every target gives the kiosk a surface to draw on and presents
it; pygame's event queue is always initialised, because the loop sleeps on it.

The choice is made once, in :func:`open_target`, and said in the log.  Under the service a
screen that is not there (yet) is waited for: :class:`ScreenKeeper` tries again with a growing
pause and says each change once.
"""

from __future__ import annotations

import ctypes
import logging
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final, Protocol

from msgspec import Struct
import pygame

from device.errors import DeviceNotFound, DevicePermission
from device.notify import Notifier, Watchdog

log = logging.getLogger(__name__)

NO_SCREEN_HINT = (
    "no screen to draw on ({reason}): run it on the Pi's console or a desktop, or use "
    "'aetherbox kiosk --screenshots DIR' to write the frames as PNG files, or 'aetherbox console'"
)


HEADLESS_DRIVERS = ("offscreen", "dummy")


class Target(Protocol):
    name: str

    @property
    def surface(self) -> pygame.Surface: ...

    def present(self) -> bool:
        """Show the surface's current content; False if nothing was shown (an unchanged PNG)."""

    def resize(self, size: tuple[int, int]) -> None: ...

    def close(self) -> None: ...


class NoScreen(DeviceNotFound):
    """No screen to draw on.  ``reason`` is the short account (SDL's error, mostly); the message
    adds what to do instead at a keyboard."""

    def __init__(self, reason: str) -> None:
        super().__init__(NO_SCREEN_HINT.format(reason=reason))
        self.reason = reason


def sdl_driver() -> str:
    """The SDL video driver asked for, for log lines: ``$SDL_VIDEODRIVER`` or SDL's own pick."""
    if pygame.display.get_init():
        return str(pygame.display.get_driver())
    return os.environ.get("SDL_VIDEODRIVER") or "SDL's choice"


#: The kiosk draws into the window's own pixels (MIT-SHM on X11), not through an OpenGL texture:
#: where a desktop's OpenGL is Mesa's software renderer, that texture path loaded LLVM and two
#: renderer threads (a 150 MB kiosk instead of 57 MB) to show the same pixels.  SDL ignores the
#: setting where it has no such choice (KMS/DRM draws through OpenGL ES); the environment may
#: still set it.
FRAMEBUFFER_ACCELERATION = "0"


def _init_video(driver: str | None) -> None:
    if driver:
        os.environ["SDL_VIDEODRIVER"] = driver
    os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", FRAMEBUFFER_ACCELERATION)
    try:
        pygame.display.init()
    except pygame.error as error:
        raise NoScreen(str(error) or "no video device") from error


class WindowTarget:
    """A window on a desktop, or the whole screen (``fullscreen``; on a Pi without a desktop
    SDL draws through KMS/DRM)."""

    def __init__(self, size: tuple[int, int] | None, *, fullscreen: bool = False, driver: str | None = None) -> None:
        _init_video(driver)
        chosen = pygame.display.get_driver()
        if chosen in HEADLESS_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != chosen:
            # SDL falls back to drawing nowhere when it finds no screen; say so instead.
            pygame.display.quit()
            raise NoScreen("no desktop and no KMS/DRM display found")
        flags = 0
        if fullscreen:
            flags |= pygame.FULLSCREEN
            size = size or (0, 0)  # the screen's own mode
        else:
            flags |= pygame.RESIZABLE
            size = size or (800, 480)
        try:
            self._screen = pygame.display.set_mode(size, flags)
        except pygame.error as error:
            pygame.display.quit()  # the next attempt starts SDL's video afresh
            raise NoScreen(str(error)) from error
        pygame.display.set_caption("aetherbox")
        pygame.mouse.set_visible(not fullscreen)
        self.name = f"{pygame.display.get_driver()} {'full screen' if fullscreen else 'window'} {self._screen.get_size()}"
        self._flags = flags

    @property
    def surface(self) -> pygame.Surface:
        return self._screen

    def present(self) -> bool:
        pygame.display.flip()
        return True

    def resize(self, size: tuple[int, int]) -> None:
        self._screen = pygame.display.get_surface() or pygame.display.set_mode(size, self._flags)

    def close(self) -> None:
        pygame.display.quit()


class OffscreenTarget:
    """Draws into memory; pygame's video runs on SDL's dummy driver just for its event queue."""

    def __init__(self, size: tuple[int, int]) -> None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        _init_video(None)
        pygame.display.set_mode((1, 1))
        self._surface = pygame.Surface(size)
        self.name = f"offscreen {size}"
        self.presented = 0

    @property
    def surface(self) -> pygame.Surface:
        return self._surface

    def present(self) -> bool:
        self.presented += 1
        return True

    def resize(self, size: tuple[int, int]) -> None:
        self._surface = pygame.Surface(size)

    def close(self) -> None:
        pygame.display.quit()


class ScreenshotTarget(OffscreenTarget):
    """Writes a PNG per changed frame: ``DIR/frame-0001.png``, … (docs, tests, headless runs)."""

    def __init__(self, size: tuple[int, int], directory: Path) -> None:
        super().__init__(size)
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except PermissionError as error:
            raise DevicePermission(f"{directory}: cannot create the screenshot directory ({error.strerror})") from error
        self.directory = directory
        self.name = f"screenshots in {directory} {size}"
        self._last: bytes | None = None
        self.files: list[Path] = []

    def present(self) -> bool:
        data = pygame.image.tobytes(self._surface, "RGB")
        if data == self._last:
            return False
        self._last = data
        path = self.directory / f"frame-{len(self.files) + 1:04d}.png"
        pygame.image.save(self._surface, str(path))
        self.files.append(path)
        self.presented += 1
        return True


class FramebufferInfo(Struct, frozen=True):
    size: tuple[int, int]
    stride: int  # bytes per row
    bits: int


def framebuffer_info(device: Path) -> FramebufferInfo:
    """The panel's size and row length from sysfs (``/sys/class/graphics/fb1``)."""
    sys_dir = Path("/sys/class/graphics") / device.name
    try:
        width, height = (int(v) for v in (sys_dir / "virtual_size").read_text().strip().split(","))
        bits = int((sys_dir / "bits_per_pixel").read_text().strip())
        stride = int((sys_dir / "stride").read_text().strip())
    except (OSError, ValueError) as error:
        raise DeviceNotFound(f"{device}: cannot read its size from {sys_dir} ({error}); give --size WxH") from error
    return FramebufferInfo((width, height), stride, bits)


def rgb565(surface: pygame.Surface, stride: int | None = None) -> bytes:
    """The surface as little-endian RGB565 rows of ``stride`` bytes (what SPI panels' fbtft
    drivers expect)."""
    width, height = surface.get_size()
    packed = pygame.Surface((width, height), 0, 16, (0xF800, 0x07E0, 0x001F, 0))
    packed.blit(surface, (0, 0))
    raw = packed.get_buffer().raw
    pitch = packed.get_pitch()
    row = width * 2
    stride = row if stride is None else stride
    if pitch == row == stride:
        return bytes(raw)
    pad = b"\0" * (stride - row)
    return b"".join(raw[y * pitch : y * pitch + row] + pad for y in range(height))


class FramebufferTarget(OffscreenTarget):
    """An SPI panel through the Linux frame buffer (``/dev/fb1``): each frame is written as RGB565."""

    def __init__(self, device: Path, size: tuple[int, int] | None = None) -> None:
        info = framebuffer_info(device) if size is None else FramebufferInfo(size, size[0] * 2, 16)
        if info.bits != 16:
            raise DeviceNotFound(f"{device}: {info.bits} bits per pixel; the kiosk writes 16-bit RGB565 panels")
        super().__init__(info.size)
        self.device = device
        self.stride = info.stride
        try:
            self._fb = open(device, "r+b", buffering=0)  # noqa: SIM115 - held for the kiosk's life
        except FileNotFoundError as error:
            raise DeviceNotFound(f"{device}: no such frame buffer; is the panel's overlay enabled?") from error
        except PermissionError as error:
            raise DevicePermission(f"{device}: permission denied; add this user to the 'video' group") from error
        self.name = f"frame buffer {device} {info.size}"

    def present(self) -> bool:
        self._fb.seek(0)
        self._fb.write(rgb565(self._surface, self.stride))
        self.presented += 1
        return True

    def close(self) -> None:
        self._fb.close()
        super().close()


def open_target(
    *, size: tuple[int, int] | None, fullscreen: bool, fb: Path | None, screenshots: Path | None
) -> Target:
    """The one place the display target is chosen (and said)."""
    target: Target
    if screenshots is not None:
        target = ScreenshotTarget(size or (800, 480), screenshots)
    elif fb is not None:
        target = FramebufferTarget(fb, size)
    else:
        target = WindowTarget(size, fullscreen=fullscreen)
    log.info("display: %s", target.name)
    return target


#: Pauses between attempts to open a screen that is not there: short at first, for a screen
#: still waking up at boot, then every 30 s, so an unplugged cable costs nothing and the gadget
#: comes back at most half a minute after it is plugged in.
RETRY_DELAYS: Final = (1.0, 2.0, 5.0, 10.0, 20.0, 30.0)

KMS_CHECKS = (
    "check the HDMI cable and that the screen is on, 'dtoverlay=vc4-kms-v3d' in "
    "/boot/firmware/config.txt, and that the user is in the 'video' and 'render' groups"
)
#: The libraries SDL's KMS/DRM driver loads when it starts (pygame-ce's wheel has the driver but
#: not them), each with the Debian package that has it on bookworm and trixie.  Mesa's GPU driver
#: (libgl1-mesa-dri) is loaded through them, so it goes in the same command.
KMS_LIBRARIES: Final = (
    ("libdrm.so.2", "libdrm2"), ("libgbm.so.1", "libgbm1"), ("libEGL.so.1", "libegl1"), ("libGLESv2.so.2", "libgles2"),
)
KMS_LIBRARY_CHECKS = (
    "SDL's KMS/DRM driver cannot load {files}: install them with "
    "'sudo apt-get install {packages} libgl1-mesa-dri' (systemd/install.sh does)"
)
#: SDL's words when the KMS/DRM driver does not start ("kmsdrm not available": no screen, or
#: libdrm/libgbm not loadable, alike) or its EGL/GLES libraries do not load (at set_mode).
_KMS_LOAD_ERRORS = ("kmsdrm not available", "could not load egl library", "could not initialize opengl / gles library")


def missing_kms_libraries(load: Callable[[str], object] = ctypes.CDLL) -> tuple[tuple[str, str], ...]:
    """Which of :data:`KMS_LIBRARIES` cannot be loaded here, as (file, Debian package)."""
    missing = []
    for file, package in KMS_LIBRARIES:
        try:
            load(file)
        except OSError:
            missing.append((file, package))
    return tuple(missing)


def screen_checks(reason: str, checks: str, *, missing: Callable[[], Sequence[tuple[str, str]]] | None = None) -> str:
    """What to check when the screen cannot be opened for ``reason``: ``checks``, unless SDL's
    KMS/DRM driver failed to start and a library it loads is missing: then that, with the command
    that installs it (SDL says the same "kmsdrm not available" for both)."""
    if checks == KMS_CHECKS and reason.lower().startswith(_KMS_LOAD_ERRORS):
        absent = (missing or missing_kms_libraries)()
        if absent:
            return KMS_LIBRARY_CHECKS.format(
                files=", ".join(file for file, _ in absent), packages=" ".join(package for _, package in absent)
            )
    return checks


FB_CHECKS = "check the panel's cable, its dtoverlay in /boot/firmware/config.txt and the 'video' group"

#: What a failed attempt may raise; anything else is a bug and ends the kiosk.
SCREEN_ERRORS: Final = (DeviceNotFound, DevicePermission, pygame.error)


def _reason(error: BaseException) -> str:
    if isinstance(error, NoScreen):
        return error.reason
    return str(error) or type(error).__name__


class ScreenKeeper:
    """Opens the display target and, while it cannot, waits and tries again.

    ``opener`` makes one attempt (e.g. :func:`open_target` with the configured size).  Between
    attempts it sleeps ``delays`` (the last one repeats) through ``sleep``, in slices short
    enough to keep pinging systemd's ``watchdog``; ``clock`` and ``sleep`` are parameters so
    tests wait no real time.  One log line (and one ``STATUS=`` to systemd) per change: the
    screen missing, missing for another reason, back again, lost while running — never one per
    attempt, so a Pi left without its screen does not fill the journal.
    """

    def __init__(
        self,
        opener: Callable[[], Target],
        *,
        checks: str = KMS_CHECKS,
        delays: Sequence[float] = RETRY_DELAYS,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        watchdog: Watchdog | None = None,
        notifier: Notifier | None = None,
    ) -> None:
        if not delays or min(delays) <= 0:
            raise ValueError(f"retry delays must be positive seconds, not {tuple(delays)!r}")
        self._opener = opener
        self.checks = checks
        self.delays = tuple(delays)
        self._sleep = sleep
        self._clock = clock
        self.watchdog = watchdog
        self.notifier = notifier
        self.attempts = 0  # failed attempts since the screen was last open
        self.waited = False  # the last open() had to wait: what was pressed meanwhile was blind
        self._problem: str | None = None

    def first(self) -> Target | None:
        """One attempt: the target, or None (said once) when it cannot be opened yet."""
        try:
            target = self._opener()
        except SCREEN_ERRORS as error:
            self._failed(error)
            return None
        self._opened(target)
        return target

    def open(self) -> Target:
        """The target, once it opens; waits (and keeps the watchdog fed) as long as it takes."""
        self.waited = False
        while True:
            if self.attempts:  # the last attempt (maybe a :meth:`first`) failed: pause first
                self.waited = True
                self._wait(self.delays[min(self.attempts, len(self.delays)) - 1])
            target = self.first()
            if target is not None:
                return target

    def reopen(self, error: BaseException) -> Target:
        """The screen went away while the kiosk was drawing: say so, then :meth:`open` again."""
        self._problem = f"lost: {_reason(error)}"
        self._say(
            f"screen lost while running (SDL video driver {sdl_driver()!r}: {_reason(error)}); "
            f"the game is kept and the screen reopened when it can be: {self.checks}",
            "screen lost: reopening it",
        )
        target = self.open()
        self.waited = True
        return target

    @property
    def problem(self) -> str | None:
        """Why the screen is not open, or None when it is."""
        return self._problem

    def _failed(self, error: BaseException) -> None:
        self.attempts += 1
        reason = _reason(error)
        if reason == self._problem:
            return
        first = self._problem is None
        self._problem = reason
        self._say(
            f"{'no screen' if first else 'still no screen, now'} (SDL video driver {sdl_driver()!r}: {reason}); "
            f"trying again every {self.delays[0]:g} to {self.delays[-1]:g} s: {screen_checks(reason, self.checks)}",
            f"waiting for the screen: {reason}",
        )

    def _opened(self, target: Target) -> None:
        if self._problem is not None:
            tries = f"after {self.attempts} failed attempt{'s' if self.attempts != 1 else ''}" if self.attempts else "again"
            self._say(f"screen open {tries}: {target.name}", "kiosk running")
        self._problem = None
        self.attempts = 0

    def _say(self, line: str, status: str) -> None:
        log.warning("display: %s", line)
        if self.notifier is not None:
            self.notifier.status(status)

    def _wait(self, seconds: float) -> None:
        end = self._clock() + seconds
        # A millisecond short is close enough, and the margin keeps float rounding from spinning.
        while (left := end - self._clock()) > 0.001:
            if self.watchdog is not None:
                now = self._clock()
                self.watchdog.tick(now)
                left = min(left, max(self.watchdog.timeout(now), 0.001))
            self._sleep(left)
