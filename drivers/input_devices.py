"""The kernel's input devices (``/dev/input/event*``) as the kiosk's wake-up on the Pi's console.

On the Pi's console (SDL's KMS/DRM video driver) SDL reads keyboards and touch screens itself,
through the kernel's input devices: it applies the console's keymap (a Cyrillic layout types
Cyrillic names), the touch screen's calibration and hot-plugging.  But it reads them only when
the loop asks (pumps), and SDL's own wait has no way to sleep on them there: it pumps every
millisecond.  So the kiosk sleeps on its input queue, and :class:`InputDeviceWatcher` is the
thread that wakes it: it blocks (epoll) on its own open file of every input device — the kernel
gives each open file its own copy of every event — reads and drops its copy when one arrives,
and wakes the loop, which then lets SDL read SDL's copy.  An idle kiosk then wakes only for its
own deadlines.

New devices are seen through inotify on ``/dev/input`` (a keyboard plugged in mid-game); a
device unplugged reads ENODEV and is closed.  Nothing here interprets input: the meaning of a
key stays where it is for a desktop's keyboard, in the kiosk.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import logging
import os
import select
import selectors
import threading
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

INPUT_DIR = Path("/dev/input")
_IN_ATTRIB, _IN_CREATE, _IN_DELETE, _IN_MOVED_TO = 0x4, 0x100, 0x200, 0x80
_IN_NONBLOCK, _IN_CLOEXEC = os.O_NONBLOCK, os.O_CLOEXEC
_READ = 4096
FALLBACK = 0.02  # seconds between wakes if watching fails: how often the loop looked before


# What an input device can report (linux/input-event-codes.h), read with EVIOCGBIT.
_EV_KEY, _EV_ABS = 0x01, 0x03
_ABS_X, _ABS_Y, _ABS_PRESSURE, _ABS_MT_POSITION_X = 0x00, 0x01, 0x18, 0x35
_BTN_LEFT, _BTN_TOOL_PEN, _BTN_TOOL_FINGER, _BTN_TOUCH = 0x110, 0x140, 0x145, 0x14A
_KEY_BYTES, _ABS_BYTES = (0x2FF + 8) // 8, (0x3F + 8) // 8


def _eviocg(number: int, length: int) -> int:
    """``_IOC(_IOC_READ, 'E', number, length)``: an evdev ioctl that reads ``length`` bytes."""
    return (2 << 30) | (length << 16) | (ord("E") << 8) | number


def _bits(fd: int, kind: int, length: int) -> bytes:
    buffer = bytearray(length)
    fcntl.ioctl(fd, _eviocg(0x20 + kind, length), buffer)
    return bytes(buffer)


def _has(bits: bytes, code: int) -> bool:
    return code // 8 < len(bits) and bool(bits[code // 8] >> (code % 8) & 1)


def pointing_kind(keys: bytes, axes: bytes) -> str:
    """What a device with these key and axis bits is to the kiosk: "resistive" (a touch screen
    that reports pressure with one contact: an SPI panel's ADS7846 and its kin, which need
    calibrating), "touch" (another touch screen, or an absolute pointer such as a tablet), or ""
    (a keyboard, a mouse, a touchpad: nothing to calibrate)."""
    if not (_has(axes, _ABS_X) and _has(axes, _ABS_Y)) or _has(keys, _BTN_TOOL_FINGER):
        return ""
    if not (_has(keys, _BTN_TOUCH) or _has(keys, _BTN_LEFT) or _has(keys, _BTN_TOOL_PEN)):
        return ""
    if _has(keys, _BTN_TOUCH) and _has(axes, _ABS_PRESSURE) and not _has(axes, _ABS_MT_POSITION_X):
        return "resistive"
    return "touch"


def touch_screens(directory: Path = INPUT_DIR) -> dict[str, str]:
    """The touch screens (and absolute pointers) among the input devices: device name → its
    :func:`pointing_kind`.  Devices that cannot be read are left out."""
    found: dict[str, str] = {}
    try:
        names = sorted(
            entry.name for entry in os.scandir(directory) if entry.name.startswith("event")
        )
    except OSError:
        return found
    for name in names:
        try:
            fd = os.open(directory / name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            kind = pointing_kind(_bits(fd, _EV_KEY, _KEY_BYTES), _bits(fd, _EV_ABS, _ABS_BYTES))
            label = bytearray(256)
            fcntl.ioctl(fd, _eviocg(0x06, len(label)), label)
        except OSError:
            continue
        finally:
            os.close(fd)
        if kind:
            found[bytes(label).split(b"\0", 1)[0].decode("utf-8", "replace") or name] = kind
    return found


class WatchError(OSError):
    """The input devices cannot be watched (no inotify, no such directory)."""


def _inotify(directory: Path) -> int:
    """An inotify descriptor watching ``directory`` for devices coming, going and changing mode."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        init, add = libc.inotify_init1, libc.inotify_add_watch
    except (OSError, AttributeError) as error:
        raise WatchError(f"no inotify here ({error})") from error
    fd = int(init(_IN_NONBLOCK | _IN_CLOEXEC))
    if fd < 0:
        code = ctypes.get_errno()
        raise WatchError(code, f"inotify_init1: {os.strerror(code)}")
    mask = _IN_CREATE | _IN_DELETE | _IN_ATTRIB | _IN_MOVED_TO
    if int(add(fd, bytes(directory), mask)) < 0:
        code = ctypes.get_errno()
        os.close(fd)
        raise WatchError(code, f"{directory}: {os.strerror(code)}")
    return fd


class InputDeviceWatcher:
    """Calls ``wake()`` (from its own thread) whenever a kernel input device in ``directory`` has
    input, or a device comes or goes.  ``start()`` raises :class:`WatchError` when the directory
    cannot be watched; devices it may not read are said once in the log (the ``input`` group)."""

    def __init__(self, wake: Callable[[], None], directory: Path = INPUT_DIR) -> None:
        self._wake = wake
        self.directory = directory
        self._selector = selectors.DefaultSelector()
        self._devices: dict[str, int] = {}  # node name → our open file
        self._refused: set[str] = set()
        self._stop_r, self._stop_w = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
        self._notify: int | None = None
        self._thread: threading.Thread | None = None
        self.wakes = 0

    @property
    def devices(self) -> list[str]:
        """The device nodes watched now."""
        return sorted(self._devices)

    def start(self) -> None:
        self._notify = _inotify(self.directory)
        self._selector.register(self._notify, selectors.EVENT_READ, "notify")
        self._selector.register(self._stop_r, selectors.EVENT_READ, "stop")
        self._scan(say=True)
        log.info(
            "input: waking on %d input device%s in %s",
            len(self._devices),
            "" if len(self._devices) == 1 else "s",
            self.directory,
        )
        self._thread = threading.Thread(target=self._run, name="input-devices", daemon=True)
        self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            os.write(self._stop_w, b"x")
            self._thread.join(timeout=5)
            self._thread = None
        for fd in self._devices.values():
            os.close(fd)
        self._devices.clear()
        if self._notify is not None:
            os.close(self._notify)
            self._notify = None
        self._selector.close()
        for fd in (self._stop_r, self._stop_w):
            os.close(fd)

    def _scan(self, say: bool = False) -> None:
        """Open the event nodes not watched yet; forget those gone.  A node refused at start is
        said (a node just created is refused until udev has given it its group: not news)."""
        try:
            names = {
                entry.name for entry in os.scandir(self.directory) if entry.name.startswith("event")
            }
        except OSError as error:
            log.warning("input: cannot list %s (%s)", self.directory, error.strerror)
            names = set()
        for name in set(self._devices) - names:
            self._forget(name)
        for name in sorted(names - set(self._devices)):
            try:
                fd = os.open(self.directory / name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except PermissionError:
                if say and name not in self._refused:
                    self._refused.add(name)
                    log.warning(
                        "input: may not read %s: add the user to the 'input' group (until then its keys and "
                        "touches reach the kiosk only with the next other input)",
                        self.directory / name,
                    )
                continue
            except OSError:
                continue  # gone again already, or not a device
            self._refused.discard(name)
            self._devices[name] = fd
            self._selector.register(fd, selectors.EVENT_READ, name)

    def _forget(self, name: str) -> None:
        fd = self._devices.pop(name)
        self._selector.unregister(fd)
        os.close(fd)

    def _drain(self, fd: int) -> bool:
        """Read and drop what is there; False when the device is gone."""
        while True:
            try:
                if not os.read(fd, _READ):
                    return False
            except BlockingIOError:
                return True
            except OSError as error:
                if error.errno == errno.EINTR:
                    continue
                return False  # ENODEV: unplugged

    def _run(self) -> None:
        try:
            self._watch()
        except Exception:  # noqa: BLE001 - keys must still reach the game
            log.exception(
                "input: watching the input devices failed; waking the kiosk every %g s instead",
                FALLBACK,
            )
            while not select.select([self._stop_r], [], [], FALLBACK)[0]:
                self._wake()

    def _watch(self) -> None:
        while True:
            woke = False
            for key, _ in self._selector.select():
                if key.data == "stop":
                    return
                if key.data == "notify":
                    self._drain(key.fd)
                    self._scan()
                elif self._devices.get(key.data) != key.fd:
                    pass  # forgotten by a scan earlier in this batch (unplugged): its file is closed
                elif not self._drain(key.fd):
                    self._forget(str(key.data))
                woke = True
            if woke:
                self.wakes += 1
                self._wake()
