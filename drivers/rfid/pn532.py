"""NXP PN532 over its HSU (UART) interface at 115200 baud.

Frames both ways are ``00 00 FF LEN LCS TFI DATA... DCS 00``: ``LEN`` counts ``TFI`` and the
data, ``LEN + LCS`` and ``TFI + DATA + DCS`` are 0 modulo 256, ``TFI`` is ``D4`` from the host
and ``D5`` from the PN532.  The PN532 acknowledges every command with the ACK frame
``00 00 FF 00 FF 00`` before it answers; ``00 00 FF FF 00 00`` (NACK) asks for a resend, and
``00 00 FF 01 FF 7F 81 00`` reports a syntax error.

The PN532 sleeps after power-up in HSU mode; a run of ``55 55 00 00 ...`` wakes it, and the
first command must be SAMConfiguration.  Extended frames (``LEN`` = ``FF FF``) are never needed
for tag UIDs and are skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from msgspec import Struct

from drivers.rfid.base import ParserStats

BAUDRATE = 115200
HOST_TFI = 0xD4
PN532_TFI = 0xD5
ERROR_TFI = 0x7F
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
# 0x55 0x55 then zeros: the PN532 needs a few milliseconds of line activity to wake (HSU).
WAKE_UP = b"\x55\x55" + bytes(16)

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

SAM_NORMAL_MODE = bytes([0x01, 0x14, 0x01])  # normal mode, 1 s virtual-card timeout, use IRQ
# RFConfiguration item 5 (retries): MxRtyATR, MxRtyPSL, MxRtyPassiveActivation.  The default
# passive-activation retry count is 0xFF, "forever": InListPassiveTarget would then never
# answer while no tag is there, so polling could not see a tag leave.
RF_RETRIES = bytes([0x05, 0xFF, 0x01, 0x02])
LIST_ONE_TYPE_A = bytes([0x01, 0x00])  # MaxTg = 1, BrTy = 106 kbps type A (ISO 14443-A)
UID_LENGTHS = (4, 7, 10)


def frame(tfi: int, data: bytes) -> bytes:
    """A normal information frame carrying ``tfi`` and ``data`` (at most 254 bytes)."""
    length = len(data) + 1
    if length > 0xFF - 1:
        raise ValueError(f"PN532 frame data too long for a normal frame: {len(data)} bytes")
    dcs = (-(tfi + sum(data))) & 0xFF
    return bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF, tfi]) + data + bytes([dcs, 0x00])


def command_frame(code: int, params: bytes = b"") -> bytes:
    """The frame the host sends for command ``code``."""
    return frame(HOST_TFI, bytes([code]) + params)


class Ack(Struct, frozen=True):
    """The ACK frame."""


class Nack(Struct, frozen=True):
    """The NACK frame."""


class Info(Struct, frozen=True):
    """An information frame: ``tfi`` and the data after it."""

    tfi: int
    data: bytes


Pn532Frame = Ack | Nack | Info


class Poll(Struct, frozen=True):
    """One InListPassiveTarget: did the PN532 answer, and with which tag (``None``: none)."""

    answered: bool
    uid: str | None = None


class FrameParser:
    """Incremental PN532 frame parser; never raises, resynchronises on the start code."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._frames = 0
        self._bad_checksum = 0
        self._skipped = 0

    @property
    def stats(self) -> ParserStats:
        return ParserStats(self._frames, self._bad_checksum, self._skipped)

    def feed(self, data: bytes) -> list[Pn532Frame]:
        buf = self._buffer
        buf += data
        frames: list[Pn532Frame] = []
        while True:
            start = buf.find(b"\x00\xff")
            if start < 0:
                # Keep a trailing 00: it may be the first half of a start code.
                keep = 1 if buf.endswith(b"\x00") else 0
                self._skipped += len(buf) - keep
                del buf[: len(buf) - keep]
                break
            if start:
                self._skipped += start
                del buf[:start]
            if len(buf) < 4:
                break
            length, lcs = buf[2], buf[3]
            if length == 0x00 and lcs == 0xFF:
                frames.append(Ack())
                del buf[:4]
                continue
            if length == 0xFF and lcs == 0x00:
                frames.append(Nack())
                del buf[:4]
                continue
            if length == 0 or (length + lcs) & 0xFF:
                self._skipped += 2
                del buf[:2]
                continue
            end = 4 + length + 1  # TFI and data, then DCS
            if len(buf) < end:
                break
            body = bytes(buf[4:end])
            if sum(body) & 0xFF:
                # The length may have been noise, and a real frame may start inside: drop only
                # the start code and look again.
                self._bad_checksum += 1
                del buf[:2]
                continue
            self._frames += 1
            frames.append(Info(body[0], body[1:-1]))
            del buf[:end]
        return frames


def target_uid(response: bytes) -> str | None:
    """The UID in an InListPassiveTarget (type A) response's data, or ``None``.

    ``response`` starts with the answer code 0x4B: ``4B NbTg Tg SENS_RES(2) SEL_RES
    NFCIDLength NFCID1...``.
    """
    if len(response) < 8 or response[0] != IN_LIST_PASSIVE_TARGET + 1 or response[1] < 1:
        return None
    size = response[6]
    if size not in UID_LENGTHS or len(response) < 7 + size:
        return None
    return response[7 : 7 + size].hex().upper()


def in_list_response(uid: bytes, sens_res: bytes = b"\x00\x44", sel_res: int = 0x00) -> bytes:
    """The frame a PN532 sends when it finds the type A tag ``uid`` (for fakes and tests)."""
    data = bytes([IN_LIST_PASSIVE_TARGET + 1, 1, 1]) + sens_res + bytes([sel_res, len(uid)]) + uid
    return frame(PN532_TFI, data)


class Pn532:
    """Talks to a PN532 through an open serial port (pyserial-like: ``read``, ``write``)."""

    def __init__(
        self,
        port: Any,
        *,
        ack_timeout: float = 0.1,
        response_timeout: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._port = port
        self._parser = FrameParser()
        self._ack_timeout = ack_timeout
        self._response_timeout = response_timeout
        self._clock = clock

    @property
    def stats(self) -> ParserStats:
        return self._parser.stats

    def command(self, code: int, params: bytes = b"", *, wake: bool = False) -> bytes | None:
        """Send a command; its response data (from the answer code on), or ``None``.

        ``None`` means no ACK, no answer in time, or an error frame.  Serial errors propagate.
        """
        # Stale frames (answers to a command that timed out) must not be taken for this one's.
        self._port.reset_input_buffer()
        self._parser = FrameParser()
        self._port.write((WAKE_UP if wake else b"") + command_frame(code, params))
        acked = False
        deadline = self._clock() + self._ack_timeout
        while self._clock() < deadline:
            data = self._port.read(max(1, self._port.in_waiting))
            for item in self._parser.feed(data):
                if isinstance(item, Ack) and not acked:
                    acked = True
                    deadline = self._clock() + self._response_timeout
                elif isinstance(item, Info) and item.tfi == ERROR_TFI:
                    return None
                elif acked and isinstance(item, Info) and item.tfi == PN532_TFI:
                    if item.data[:1] == bytes([code + 1]):
                        return item.data
        return None

    def firmware_version(self, *, wake: bool = False) -> bytes | None:
        """``IC Ver Rev Support`` (IC is 0x32 for a PN532), or ``None``."""
        data = self.command(GET_FIRMWARE_VERSION, wake=wake)
        return data[1:5] if data is not None and len(data) >= 5 else None

    def configure(self) -> bool:
        """Wake the PN532 and set it up for polling; ``False`` if it did not answer."""
        if self.command(SAM_CONFIGURATION, SAM_NORMAL_MODE, wake=True) is None:
            return False
        return self.command(RF_CONFIGURATION, RF_RETRIES) is not None

    def poll(self) -> Poll:
        """Look once for a type A tag."""
        data = self.command(IN_LIST_PASSIVE_TARGET, LIST_ONE_TYPE_A)
        return Poll(answered=False) if data is None else Poll(True, target_uid(data))
