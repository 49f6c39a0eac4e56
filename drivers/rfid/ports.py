"""Finding and opening the reader's serial port, with OS errors turned into aetherbox's own."""

from __future__ import annotations

import errno
from collections.abc import Callable, Iterable
from typing import Protocol, cast

from msgspec import Struct

from device.errors import DeviceBusy, DeviceNotFound, DevicePermission

#: USB-serial bridges that cheap readers and microcontroller bridges use: (VID, PID) → name.
KNOWN_USB_IDS: dict[tuple[int, int], str] = {
    (0x1A86, 0x7523): "CH340",
    (0x10C4, 0xEA60): "CP210x",
    (0x0403, 0x6001): "FT232",
    (0x067B, 0x2303): "PL2303",
    (0x2E8A, 0x0005): "Raspberry Pi Pico (MicroPython)",
    (0x2E8A, 0x000A): "Raspberry Pi Pico",
}

SERIAL_GROUP = "dialout"  # owner group of /dev/ttyUSB*, /dev/ttyACM*, /dev/serial0 on Debian


class PortInfo(Struct, frozen=True):
    """What ``find_port`` needs to know about a serial port."""

    device: str
    vid: int | None = None
    pid: int | None = None


class SerialPort(Protocol):
    """The part of ``serial.Serial`` the reader uses."""

    baudrate: int

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


#: Opens ``url`` at ``baudrate`` with read timeout ``timeout``; raises DeviceNotFound/Permission.
Opener = Callable[[str, int, float], SerialPort]


def system_ports() -> list[PortInfo]:
    """The serial ports the system has now (pyserial's ``list_ports``)."""
    from serial.tools import list_ports

    return [PortInfo(p.device, p.vid, p.pid) for p in list_ports.comports()]


def find_port(ports: Iterable[PortInfo]) -> tuple[str, str] | None:
    """The first port (by device name) behind a known USB-serial chip, and the chip's name."""
    for port in sorted(ports, key=lambda p: p.device):
        if port.vid is not None and port.pid is not None:
            name = KNOWN_USB_IDS.get((port.vid, port.pid))
            if name is not None:
                return port.device, name
    return None


def permission_message(path: str) -> str:
    return (
        f"{path}: permission denied; add this user to the {SERIAL_GROUP!r} group "
        f"(sudo usermod -aG {SERIAL_GROUP} $USER) and log in again"
    )


def open_serial(url: str, baudrate: int, timeout: float) -> SerialPort:
    """Open a port path or pyserial URL (``loop://``, ``socket://``...) for reading.

    The port is locked (``flock``) so a second program cannot share it.  Raises
    ``DevicePermission`` when the user may not open it, ``DeviceBusy`` when another program
    holds it and ``DeviceNotFound`` for any other failure, each naming the path.
    """
    import serial

    try:
        # Exclusive: two programs reading one port would each get half of every frame.
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout, exclusive=True)
    except (OSError, serial.SerialException, ValueError) as error:
        code = getattr(error, "errno", None)
        if code in (errno.EACCES, errno.EPERM):
            raise DevicePermission(permission_message(url)) from error
        if code in (errno.EAGAIN, errno.EBUSY):
            message = f"{url}: in use by another program; is aetherbox already running?"
            raise DeviceBusy(message) from error
        if code == errno.ENOENT:
            message = f"{url}: no such serial port; is the reader plugged in?"
            raise DeviceNotFound(message) from error
        raise DeviceNotFound(f"{url}: cannot open the serial port: {error}") from error
    return cast(SerialPort, port)
