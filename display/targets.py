"""Where frames go: a desktop window, the full screen through KMS/DRM, an SPI panel's frame
buffer (RGB565 or 32-bit), or PNG files.  Every target gives the kiosk a surface to draw on and
presents it; pygame's event queue is always initialised, because the loop sleeps on it.

The choice is made once, in :func:`open_target`, and said in the log.  ``rotate`` turns the
picture on the panel (:class:`Rotated`): the kiosk draws upright on a surface of the turned size,
and each target says, in its :class:`Panel`, how a touch or a click on the panel lands on
that picture.  Under the service a screen that is not there (yet) is waited for:
:class:`ScreenKeeper` tries again with a growing pause and says each change once.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import logging
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final, Protocol

from msgspec import Struct
import pygame

from device.errors import DeviceNotFound, DevicePermission
from device.notify import Notifier, Watchdog
from display.sdl import video_driver

log = logging.getLogger(__name__)

NO_SCREEN_HINT = (
    "no screen to draw on ({reason}): run it on the Pi's console or a desktop, or use "
    "'aetherbox kiosk --screenshots DIR' to write the frames as PNG files, or 'aetherbox console'"
)


HEADLESS_DRIVERS = ("offscreen", "dummy")
#: The turns a panel can be mounted at (``[display] rotate``), clockwise.
ROTATIONS: Final = (0, 90, 180, 270)


class Panel(Struct, frozen=True):
    """What a target draws on, as touch and the layout need it.  ``mouse_space``: the size SDL's
    mouse positions span (the window; on KMS/DRM the screen's mode; under the frame buffer's
    input-only video, SDL's own 1024×768).  ``rotate``: the picture turned clockwise on the panel
    by this many degrees.  ``console``: input comes from the kernel's input devices, whose
    coordinates a calibration may correct (a desktop maps its pointers itself).  ``density``:
    pixels per millimetre where the panel's size is known (:func:`density`), so touch targets
    can be a fingertip wide; None on a desktop's window."""

    mouse_space: tuple[int, int]
    rotate: int = 0
    console: bool = False
    density: float | None = None


#: The panels a gadget is built with, known by their size in pixels as the kernel gives it (an
#: SPI panel either way up), with their diagonal in inches: the 2.8- and 3.5-inch SPI panels,
#: the 7-inch DSI Touch Display and the usual 7-inch HDMI and DSI panels, and the Touch Display
#: 2 (720×1280, portrait).  ``[display] diagonal`` names any other (the 5-inch Touch Display 2
#: has the 7-inch one's pixels).
PANELS: Final = {
    (320, 240): 2.8,
    (240, 320): 2.8,
    (480, 320): 3.5,
    (320, 480): 3.5,
    (800, 480): 7.0,
    (1024, 600): 7.0,
    (720, 1280): 7.0,
}


def density(
    size: tuple[int, int],
    *,
    diagonal: float | None = None,
    millimetres: tuple[float, float] = (0, 0),
    known: bool = True,
) -> float | None:
    """Pixels per millimetre of a panel of ``size`` pixels: from its ``diagonal`` in inches when
    given, else from its size in millimetres when the driver gives one, else (``known``) from
    :data:`PANELS`; None when nothing says."""
    width, height = size
    if diagonal:
        return math.hypot(width, height) / (diagonal * 25.4)
    if millimetres[0] > 0 and millimetres[1] > 0:
        return math.hypot(width, height) / math.hypot(*millimetres)
    inches = PANELS.get(size) if known else None
    return math.hypot(width, height) / (inches * 25.4) if inches else None


class Target(Protocol):
    name: str

    @property
    def surface(self) -> pygame.Surface: ...

    @property
    def panel(self) -> Panel: ...

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
        return video_driver()
    return os.environ.get("SDL_VIDEODRIVER") or "SDL's choice"


#: How SDL is to put a window's pixels on the screen (its ``SDL_FRAMEBUFFER_ACCELERATION``), by
#: video driver.  On X11 the kiosk draws into the window's own pixels (MIT-SHM), not through an
#: OpenGL texture: where a desktop's OpenGL is Mesa's software renderer, that texture path loaded
#: LLVM and two renderer threads (a 150 MB kiosk instead of 57 MB) to show the same pixels.
#: KMS/DRM has no such pixels of its own, only the texture path, and SDL would pick its desktop
#: OpenGL renderer on the OpenGL ES context that the Pi's GPU driver (and Mesa's software one)
#: gives: the frames then stay black.  So there it is OpenGL ES 2, by name.
FRAMEBUFFER_ACCELERATION: Final = {"x11": "0", "kmsdrm": "opengles2"}
_NO_TEXTURE = ("0", "false", "software")


def console_driver() -> str | None:
    """The video driver for a Linux machine without a desktop (no ``$DISPLAY``, no
    ``$WAYLAND_DISPLAY``): KMS/DRM, asked for by name, so that SDL neither tries a desktop first
    (its Wayland attempt prints a line about ``XDG_RUNTIME_DIR``) nor falls back to drawing
    nowhere, and a failure is KMS/DRM's own (a missing library is then named)."""
    if (
        sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    ):
        return "kmsdrm"
    return None


def _init_video(driver: str | None) -> None:
    if driver:
        os.environ["SDL_VIDEODRIVER"] = driver
    try:
        pygame.display.init()
    except pygame.error as error:
        raise NoScreen(str(error) or "no video device") from error
    _choose_framebuffer(video_driver())


def _choose_framebuffer(driver: str) -> None:
    """Set SDL's framebuffer hint for ``driver`` (read when the window is made), unless the
    environment chose one that works there."""
    wanted = FRAMEBUFFER_ACCELERATION.get(driver)
    given = os.environ.get("SDL_FRAMEBUFFER_ACCELERATION")
    if wanted is None or given == wanted:
        return
    if given is None:
        os.environ["SDL_FRAMEBUFFER_ACCELERATION"] = wanted
    elif driver == "kmsdrm" and given.lower() in _NO_TEXTURE:
        log.warning(
            "display: SDL_FRAMEBUFFER_ACCELERATION=%s cannot draw on KMS/DRM (it has no window pixels of its "
            "own); using %s",
            given,
            wanted,
        )
        os.environ["SDL_FRAMEBUFFER_ACCELERATION"] = wanted


class WindowTarget:
    """A window on a desktop, or the whole screen (``fullscreen``; on a Pi without a desktop
    SDL draws through KMS/DRM)."""

    def __init__(
        self,
        size: tuple[int, int] | None,
        *,
        fullscreen: bool = False,
        driver: str | None = None,
        diagonal: float | None = None,
    ) -> None:
        _init_video(driver or (None if os.environ.get("SDL_VIDEODRIVER") else console_driver()))
        chosen = video_driver()
        if (
            chosen in HEADLESS_DRIVERS
            and (os.environ.get("SDL_VIDEODRIVER") or "").lower() != chosen
        ):
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
        self.name = (
            f"{chosen} {'full screen' if fullscreen else 'window'} {self._screen.get_size()}"
        )
        self._flags = flags
        self._console = chosen == "kmsdrm"
        self.diagonal = diagonal

    @property
    def surface(self) -> pygame.Surface:
        return self._screen

    @property
    def panel(self) -> Panel:
        size = self._screen.get_size()
        # A window on a desktop is no panel of the table, whatever its size; the console's screen may be.
        return Panel(
            size,
            console=self._console,
            density=density(size, diagonal=self.diagonal, known=self._console),
        )

    def present(self) -> bool:
        pygame.display.flip()
        return True

    def resize(self, size: tuple[int, int]) -> None:
        self._screen = pygame.display.get_surface() or pygame.display.set_mode(size, self._flags)

    def close(self) -> None:
        pygame.display.quit()


class OffscreenTarget:
    """Draws into memory; pygame's video runs on SDL's dummy driver just for its event queue."""

    def __init__(self, size: tuple[int, int], *, diagonal: float | None = None) -> None:
        _input_video(("dummy",))
        pygame.display.set_mode((1, 1))
        self._surface = pygame.Surface(size)
        self.name = f"offscreen {size}"
        self.presented = 0
        self.diagonal = diagonal  # the panel it stands for, when told

    @property
    def surface(self) -> pygame.Surface:
        return self._surface

    @property
    def panel(self) -> Panel:
        size = self._surface.get_size()
        return Panel(size, density=density(size, diagonal=self.diagonal, known=False))

    def present(self) -> bool:
        self.presented += 1
        return True

    def resize(self, size: tuple[int, int]) -> None:
        self._surface = pygame.Surface(size)

    def close(self) -> None:
        pygame.display.quit()


class ScreenshotTarget(OffscreenTarget):
    """Writes a PNG per changed frame: ``DIR/frame-0001.png``, … (docs, tests, headless runs)."""

    def __init__(
        self, size: tuple[int, int], directory: Path, *, diagonal: float | None = None
    ) -> None:
        super().__init__(size, diagonal=diagonal)
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except PermissionError as error:
            raise DevicePermission(
                f"{directory}: cannot create the screenshot directory ({error.strerror})"
            ) from error
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


def turned(size: tuple[int, int], degrees: int) -> tuple[int, int]:
    """The size of a picture of ``size`` turned by ``degrees``."""
    return (size[1], size[0]) if degrees in (90, 270) else size


class Rotated:
    """Another target's panel, mounted turned: the kiosk draws upright on :attr:`surface`, whose
    size is the panel's turned by ``degrees``, and each frame is turned clockwise onto the
    panel.  A 720×1280 portrait panel with ``rotate = 90`` is a 1280×720 table; 180 turns the
    picture upside down for a gadget read from the other side."""

    def __init__(self, inner: Target, degrees: int) -> None:
        if degrees not in ROTATIONS[1:]:
            raise ValueError(
                f"rotate: {degrees!r} is not a turn the panel can have: 90, 180 or 270"
            )
        self.inner = inner
        self.degrees = degrees
        self._surface = pygame.Surface(turned(inner.surface.get_size(), degrees))
        self.name = f"{inner.name} turned {degrees}°"

    @property
    def surface(self) -> pygame.Surface:
        return self._surface

    @property
    def panel(self) -> Panel:
        inner = self.inner.panel
        return Panel(
            inner.mouse_space, rotate=self.degrees, console=inner.console, density=inner.density
        )

    def present(self) -> bool:
        # pygame turns anticlockwise; quarter turns are exact copies of the pixels.
        self.inner.surface.blit(pygame.transform.rotate(self._surface, -self.degrees), (0, 0))
        return self.inner.present()

    def resize(self, size: tuple[int, int]) -> None:
        self.inner.resize(turned(size, self.degrees))
        self._surface = pygame.Surface(turned(self.inner.surface.get_size(), self.degrees))

    def close(self) -> None:
        self.inner.close()


# --------------------------------------------------------------------------------------------
# The Linux frame buffer (SPI panels; any /dev/fbN)

_FBIOGET_VSCREENINFO: Final = 0x4600
_FBIOGET_FSCREENINFO: Final = 0x4602
_KDSETMODE: Final = 0x4B3A
_KD_TEXT, _KD_GRAPHICS = 0, 1


class _Bitfield(ctypes.Structure):
    _fields_ = [
        ("offset", ctypes.c_uint32),
        ("length", ctypes.c_uint32),
        ("msb_right", ctypes.c_uint32),
    ]


class _VarScreenInfo(ctypes.Structure):
    """``struct fb_var_screeninfo`` (linux/fb.h)."""

    _fields_ = [
        *(
            (name, ctypes.c_uint32)
            for name in (
                "xres",
                "yres",
                "xres_virtual",
                "yres_virtual",
                "xoffset",
                "yoffset",
                "bits_per_pixel",
                "grayscale",
            )
        ),
        ("red", _Bitfield),
        ("green", _Bitfield),
        ("blue", _Bitfield),
        ("transp", _Bitfield),
        *(
            (name, ctypes.c_uint32)
            for name in (
                "nonstd",
                "activate",
                "height",
                "width",
                "accel_flags",
                "pixclock",
                "left_margin",
                "right_margin",
                "upper_margin",
                "lower_margin",
                "hsync_len",
                "vsync_len",
                "sync",
                "vmode",
                "rotate",
                "colorspace",
            )
        ),
        ("reserved", ctypes.c_uint32 * 4),
    ]


class _FixScreenInfo(ctypes.Structure):
    """``struct fb_fix_screeninfo`` (linux/fb.h)."""

    _fields_ = [
        ("id", ctypes.c_char * 16),
        ("smem_start", ctypes.c_ulong),
        ("smem_len", ctypes.c_uint32),
        ("type", ctypes.c_uint32),
        ("type_aux", ctypes.c_uint32),
        ("visual", ctypes.c_uint32),
        ("xpanstep", ctypes.c_uint16),
        ("ypanstep", ctypes.c_uint16),
        ("ywrapstep", ctypes.c_uint16),
        ("line_length", ctypes.c_uint32),
        ("mmio_start", ctypes.c_ulong),
        ("mmio_len", ctypes.c_uint32),
        ("accel", ctypes.c_uint32),
        ("capabilities", ctypes.c_uint16),
        ("reserved", ctypes.c_uint16 * 2),
    ]


#: Colour masks of a 16-bit RGB565 panel, what SPI panels' drivers (fbtft, tinydrm) expect.
RGB565_MASKS: Final = (0xF800, 0x07E0, 0x001F, 0)


class FramebufferInfo(Struct, frozen=True):
    """What a frame buffer takes: its visible size, bytes per row, bits per pixel, where its
    visible part starts (bytes), the colour masks of a pixel, and its size in millimetres when
    the driver knows it (else 0)."""

    size: tuple[int, int]
    stride: int
    bits: int
    offset: int = 0
    masks: tuple[int, int, int, int] = RGB565_MASKS
    millimetres: tuple[int, int] = (0, 0)


def _mask(field: _Bitfield) -> int:
    return ((1 << field.length) - 1) << field.offset if field.length else 0


def framebuffer_info(fd: int) -> FramebufferInfo:
    """The geometry of the open frame buffer ``fd``, from the kernel (raises OSError where the
    file is no frame buffer)."""
    var, fix = _VarScreenInfo(), _FixScreenInfo()
    fcntl.ioctl(fd, _FBIOGET_VSCREENINFO, var)
    fcntl.ioctl(fd, _FBIOGET_FSCREENINFO, fix)
    bits = int(var.bits_per_pixel)
    masks = (_mask(var.red), _mask(var.green), _mask(var.blue), 0)
    mm = (int(var.width), int(var.height))
    return FramebufferInfo(
        (int(var.xres), int(var.yres)),
        int(fix.line_length),
        bits,
        offset=int(var.yoffset) * int(fix.line_length) + int(var.xoffset) * bits // 8,
        masks=masks,
        millimetres=mm if all(0 < v < 10_000 for v in mm) else (0, 0),
    )


def packed_rows(
    surface: pygame.Surface, packed: pygame.Surface, stride: int | None = None
) -> bytes:
    """``surface`` in ``packed``'s pixel format (its size, bits and masks), as rows of ``stride``
    bytes (default: no padding)."""
    packed.blit(surface, (0, 0))
    width, height = packed.get_size()
    raw = packed.get_buffer().raw
    pitch = packed.get_pitch()
    row = width * packed.get_bytesize()
    stride = row if stride is None else stride
    if pitch == row == stride:
        return bytes(raw)
    pad = b"\0" * (stride - row)
    return b"".join(raw[y * pitch : y * pitch + row] + pad for y in range(height))


def rgb565(surface: pygame.Surface, stride: int | None = None) -> bytes:
    """The surface as little-endian RGB565 rows of ``stride`` bytes (what SPI panels' fbtft
    drivers expect)."""
    return packed_rows(surface, pygame.Surface(surface.get_size(), 0, 16, RGB565_MASKS), stride)


def _input_video(drivers: Sequence[str] = ("evdev", "dummy")) -> str:
    """Start SDL's video for input only, with the first of ``drivers`` that starts: its
    ``evdev`` driver draws nowhere but reads keyboards and touch screens from the kernel's input
    devices, as KMS/DRM does; the dummy driver reads nothing (the GPIO buttons and the reader
    still count).  Asked for by name: the service's ``SDL_VIDEODRIVER=kmsdrm`` would take the
    screen from a panel, or fail where there is none; SDL's video already running is kept."""
    if pygame.display.get_init():
        return video_driver()
    failed = ""
    asked = os.environ.get("SDL_VIDEODRIVER")
    for driver in drivers:
        os.environ["SDL_VIDEODRIVER"] = driver
        try:
            pygame.display.init()
        except pygame.error as error:
            failed = f"{driver}: {error}"
            continue
        finally:  # read by SDL at its start only; the environment stays as it was given
            if asked is None:
                del os.environ["SDL_VIDEODRIVER"]
            else:
                os.environ["SDL_VIDEODRIVER"] = asked
        if failed:
            log.warning(
                "display: SDL cannot read keys and touches beside the frame buffer (%s): only the buttons "
                "and the reader work",
                failed,
            )
        return driver
    raise NoScreen(failed)


def console_graphics(on: bool, fd: int = 0) -> bool:
    """Put the text console on ``fd`` (the service's tty1) into graphics mode, so the kernel
    does not draw its cursor and messages over a frame buffer the kiosk draws on, or back into
    text mode; False where ``fd`` is no virtual console (a terminal, a pipe).  systemd's
    ``TTYReset=`` puts it back in text mode after the service in any case."""
    try:
        fcntl.ioctl(fd, _KDSETMODE, _KD_GRAPHICS if on else _KD_TEXT)
    except OSError:
        return False
    return True


class FramebufferTarget:
    """A panel through the Linux frame buffer (an SPI panel's ``/dev/fb1``, or any ``/dev/fbN``):
    each frame is written in the panel's pixel format (RGB565 on SPI panels, 32 bits on others),
    its geometry read from the kernel.  ``size`` stands in for that where the file is no frame
    buffer (tests: a plain file of RGB565 rows).  Keys and touches come through SDL's input-only
    video (``evdev``)."""

    def __init__(
        self, device: Path, size: tuple[int, int] | None = None, *, diagonal: float | None = None
    ) -> None:
        self.driver = _input_video()
        self.diagonal = diagonal
        try:
            self._fb = open(device, "r+b", buffering=0)  # noqa: SIM115 - held for the kiosk's life
        except FileNotFoundError as error:
            raise DeviceNotFound(
                f"{device}: no such frame buffer; is the panel's overlay enabled?"
            ) from error
        except PermissionError as error:
            raise DevicePermission(
                f"{device}: permission denied; add this user to the 'video' group"
            ) from error
        except OSError as error:
            raise DeviceNotFound(f"{device}: cannot open it ({error.strerror})") from error
        try:
            info = self._geometry(device, size)
        except DeviceNotFound:
            self._fb.close()
            raise
        self.device = device
        self.info = info
        self._surface = pygame.Surface(info.size)
        self._packed = pygame.Surface(info.size, 0, info.bits, info.masks)
        self._graphics = console_graphics(True)
        self.presented = 0
        self.name = f"frame buffer {device} {info.size} {info.bits}-bit"

    def _geometry(self, device: Path, size: tuple[int, int] | None) -> FramebufferInfo:
        try:
            info = framebuffer_info(self._fb.fileno())
        except OSError as error:
            if size is None:
                raise DeviceNotFound(
                    f"{device}: cannot read its geometry ({error.strerror}); give --size WxH"
                ) from error
            return FramebufferInfo(size, size[0] * 2, 16)
        if info.bits not in (16, 32) or not all(info.masks[:3]):
            raise DeviceNotFound(
                f"{device}: {info.bits} bits per pixel; the kiosk writes 16-bit (RGB565) and 32-bit colour panels"
            )
        return info

    @property
    def surface(self) -> pygame.Surface:
        return self._surface

    @property
    def panel(self) -> Panel:
        sizes = pygame.display.get_desktop_sizes() if pygame.display.get_init() else []
        return Panel(
            sizes[0] if sizes else self.info.size,
            console=True,
            density=density(
                self.info.size, diagonal=self.diagonal, millimetres=self.info.millimetres
            ),
        )

    def present(self) -> bool:
        self._fb.seek(self.info.offset)
        self._fb.write(packed_rows(self._surface, self._packed, self.info.stride))
        self.presented += 1
        return True

    def resize(self, size: tuple[int, int]) -> None:
        pass  # a panel's size is its own

    def close(self) -> None:
        if self._graphics:
            console_graphics(False)
            self._graphics = False
        self._fb.close()
        pygame.display.quit()


def open_target(
    *,
    size: tuple[int, int] | None,
    fullscreen: bool,
    fb: Path | None,
    screenshots: Path | None,
    rotate: int = 0,
    diagonal: float | None = None,
) -> Target:
    """The one place the display target is chosen (and said).  ``size`` is the panel's (or the
    window's); ``rotate`` turns the picture on it clockwise (:class:`Rotated`); ``diagonal`` is
    the panel's in inches, where neither the driver nor :data:`PANELS` knows it."""
    target: Target
    if screenshots is not None:
        target = ScreenshotTarget(size or (800, 480), screenshots, diagonal=diagonal)
    elif fb is not None:
        target = FramebufferTarget(fb, size, diagonal=diagonal)
    else:
        target = WindowTarget(size, fullscreen=fullscreen, diagonal=diagonal)
    if rotate:
        target = Rotated(target, rotate)
    panel = target.panel
    log.info("display: %s%s", target.name, f", {panel.density:.1f} px/mm" if panel.density else "")
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
    ("libdrm.so.2", "libdrm2"),
    ("libgbm.so.1", "libgbm1"),
    ("libEGL.so.1", "libegl1"),
    ("libGLESv2.so.2", "libgles2"),
)
KMS_LIBRARY_CHECKS = (
    "SDL's KMS/DRM driver cannot load {files}: install them with "
    "'sudo apt-get install {packages} libgl1-mesa-dri' (systemd/install.sh does)"
)
#: SDL's words when the KMS/DRM driver does not start ("kmsdrm not available": no screen, or
#: libdrm/libgbm not loadable, alike) or its EGL/GLES libraries do not load (at set_mode).
_KMS_LOAD_ERRORS = (
    "kmsdrm not available",
    "could not load egl library",
    "could not initialize opengl / gles library",
)


def missing_kms_libraries(
    load: Callable[[str], object] = ctypes.CDLL,
) -> tuple[tuple[str, str], ...]:
    """Which of :data:`KMS_LIBRARIES` cannot be loaded here, as (file, Debian package)."""
    missing = []
    for file, package in KMS_LIBRARIES:
        try:
            load(file)
        except OSError:
            missing.append((file, package))
    return tuple(missing)


def screen_checks(
    reason: str, checks: str, *, missing: Callable[[], Sequence[tuple[str, str]]] | None = None
) -> str:
    """What to check when the screen cannot be opened for ``reason``: ``checks``, unless SDL's
    KMS/DRM driver failed to start and a library it loads is missing: then that, with the command
    that installs it (SDL says the same "kmsdrm not available" for both)."""
    if checks == KMS_CHECKS and reason.lower().startswith(_KMS_LOAD_ERRORS):
        absent = (missing or missing_kms_libraries)()
        if absent:
            return KMS_LIBRARY_CHECKS.format(
                files=", ".join(file for file, _ in absent),
                packages=" ".join(package for _, package in absent),
            )
    return checks


FB_CHECKS = (
    "check the panel's cable, its dtoverlay in /boot/firmware/config.txt and the 'video' group"
)

#: What a failed attempt may raise; anything else is a bug and ends the kiosk.
SCREEN_ERRORS: Final = (DeviceNotFound, DevicePermission, pygame.error)


class Stopped(Exception):
    """The kiosk was asked to stop (SIGTERM, Ctrl+C) before its loop ran, or while it waited for
    a screen: nothing is left to do but close what is open."""


class ScreenBarred(Exception):
    """A screen came after the service started, and the service's device list, drawn up at its
    start, bars it: only a new start of the service reaches it (``device``)."""

    def __init__(self, device: Path) -> None:
        super().__init__(
            f"{device} appeared after the service started (its driver loaded late) and the service's device "
            "list bars it: the service starts again to reach it"
        )
        self.device = device


def barred_screen(directory: Path = Path("/dev/dri")) -> Path | None:
    """A KMS/DRM device that is there but that this process is barred from by its device list
    (systemd's ``DeviceAllow=char-drm`` names the driver's major number as it stands when the
    service starts: a GPU driver loaded after that, as at a boot where the service comes first,
    stays barred).  The kernel answers such an open with EPERM, where file permissions answer
    EACCES; None when no device is barred."""
    try:
        cards = sorted(path for path in directory.iterdir() if path.name.startswith("card"))
    except OSError:
        return None
    for card in cards:
        try:
            os.close(os.open(card, os.O_RDWR | os.O_CLOEXEC | os.O_NONBLOCK))
        except PermissionError as error:
            if error.errno == errno.EPERM:
                return card
        except OSError:
            continue
    return None


def _reason(error: BaseException) -> str:
    if isinstance(error, NoScreen):
        return error.reason
    return str(error) or type(error).__name__


class ScreenKeeper:
    """Opens the display target and, while it cannot, waits and tries again.

    ``opener`` makes one attempt (e.g. :func:`open_target` with the configured size).  Between
    attempts it sleeps ``delays`` (the last one repeats) through ``sleep``, in slices short
    enough to keep pinging systemd's ``watchdog``; ``clock`` and ``sleep`` are parameters so
    tests wait no real time (by default it sleeps until :meth:`stop`, which ends any wait at
    once: :meth:`open` then raises :class:`Stopped`).  ``barred`` (under the service,
    :func:`barred_screen`) says whether a failed attempt met a screen the service's device list
    bars: then :class:`ScreenBarred` is raised, for the service to start again.  One log line (and one ``STATUS=`` to systemd) per change: the
    screen missing, missing for another reason, back again, lost while running — never one per
    attempt, so a Pi left without its screen does not fill the journal.
    """

    def __init__(
        self,
        opener: Callable[[], Target],
        *,
        checks: str = KMS_CHECKS,
        delays: Sequence[float] = RETRY_DELAYS,
        sleep: Callable[[float], object] | None = None,
        clock: Callable[[], float] = time.monotonic,
        watchdog: Watchdog | None = None,
        notifier: Notifier | None = None,
        barred: Callable[[], Path | None] | None = None,
    ) -> None:
        if not delays or min(delays) <= 0:
            raise ValueError(f"retry delays must be positive seconds, not {tuple(delays)!r}")
        self._opener = opener
        self.checks = checks
        self.delays = tuple(delays)
        self._stopped = threading.Event()
        self._sleep = sleep or self._stopped.wait
        self._barred = barred
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
            if self._stopped.is_set():
                raise Stopped("stopped while waiting for the screen")
            target = self.first()
            if target is not None:
                return target

    def stop(self) -> None:
        """End the wait for a screen at once (from any thread but a signal handler's)."""
        self._stopped.set()

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
        barred = self._barred() if self._barred is not None else None
        if barred is not None:
            raise ScreenBarred(barred) from error
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
            tries = (
                f"after {self.attempts} failed attempt{'s' if self.attempts != 1 else ''}"
                if self.attempts
                else "again"
            )
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
        while (left := end - self._clock()) > 0.001 and not self._stopped.is_set():
            if self.watchdog is not None:
                now = self._clock()
                self.watchdog.tick(now)
                left = min(left, max(self.watchdog.timeout(now), 0.001))
            self._sleep(left)
