"""The aetherbox bridge line protocol, spoken by a microcontroller that reads tags for us.

A bridge (for example a Raspberry Pi Pico with an RC522, or any board with its own reader)
shows up as a serial port and talks in short ASCII lines.

Link
    115200 baud, 8N1.  Every line ends in ``\\n``; a ``\\r`` before it is allowed and ignored.
    Lines are at most 200 bytes; longer ones are thrown away.  Words are separated by one
    space.

Checksum
    Every line from the bridge ends in `` *<crc>``: a space, ``*`` and four upper-case hex
    digits, the CRC-16/IBM-SDLC (also called X-25 or CRC_B: polynomial 0x1021 reflected,
    preset 0xFFFF, output inverted; ``123456789`` gives ``906E``) of the line's ASCII text
    before the space, e.g. ``TAG 04A1B2C3D4E5F6 *408D``.  The host drops a line whose CRC
    does not match.  A line without one is only taken as a hello (``Hello.checked`` false:
    the firmware predates checksums and must be updated); anything else without a CRC is
    ignored, so a corrupted line never becomes a card.

Bridge to host (each line followed by its `` *<crc>``)
    ``AETHERBOX-BRIDGE <firmware-name> <version>``
        Hello.  Sent when the bridge starts and whenever the host asks for it.
    ``TAG <uid>``
        A tag is on the reader.  ``<uid>`` is the tag's full UID (4, 7 or 10 bytes) as
        upper-case hex without separators, e.g. ``TAG 04A1B2C3D4E5F6``.  While the tag stays,
        the bridge repeats the line at least every 250 ms (100 ms is a good choice); the host
        counts a tag that keeps repeating as one tap.
    ``GONE <uid>``
        Optional: the tag has left.  Without it the host decides a tag has left when its
        ``TAG`` lines stop for the presence timeout; with it the host knows at once.
    ``ERR <text>``
        Something went wrong on the bridge (reader chip not answering, ...); ``<text>`` is for
        a person and is shown on the status line.

Host to bridge
    ``HELLO``
        Asks for the hello line.  The host sends ``\\nHELLO\\n`` (the leading newline ends
        whatever noise came before), so the bridge must ignore empty lines.  It carries no
        CRC: a garbled request costs only a hello, and the host asks again when it reconnects.

Anything else, either way, is ignored (the host counts such lines).
"""

from __future__ import annotations

from msgspec import Struct

from drivers.rfid.base import HEX_DIGITS, ParserStats

BAUDRATE = 115200
MAX_LINE = 200
HELLO_REQUEST = b"\nHELLO\n"
HELLO_WORD = "AETHERBOX-BRIDGE"
UID_BYTES = (4, 7, 10)
CRC_MARK = " *"
_CRC_DIGITS = frozenset("0123456789ABCDEF")


def crc16(data: bytes) -> int:
    """CRC-16/IBM-SDLC (X-25, ISO 14443 CRC_B) of ``data``: ``b"123456789"`` gives 0x906E.

    The reflected CCITT polynomial rather than the plain one (CRC-16/CCITT-FALSE): on bridge
    lines of up to 10-byte UIDs the plain one lets one pair of changed hex digits through,
    this one none (tests/drivers/test_rfid_frames.py checks every pair).
    """
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


def checked_line(text: str) -> bytes:
    """``text`` as the bridge sends it: with its CRC and the newline."""
    raw = text.encode("ascii")
    return raw + f"{CRC_MARK}{crc16(raw):04X}\n".encode("ascii")


class Hello(Struct, frozen=True):
    """The bridge said hello."""

    firmware: str
    version: str
    checked: bool = True
    """False for a hello without a CRC: firmware from before checksums, whose tags are ignored."""


class Tag(Struct, frozen=True):
    """``TAG <uid>``: the tag is on the reader."""

    uid: str


class Gone(Struct, frozen=True):
    """``GONE <uid>``: the tag has left the reader."""

    uid: str


class BridgeError(Struct, frozen=True):
    """``ERR <text>``."""

    text: str


class BadChecksum(Struct, frozen=True):
    """A line whose CRC did not match its text (dropped; the monitor shows it)."""

    text: str
    crc: str


LineMessage = Hello | Tag | Gone | BridgeError


def tag_line(uid: str) -> bytes:
    """The line a bridge sends for ``uid`` (hex)."""
    return checked_line(f"TAG {uid.upper()}")


def gone_line(uid: str) -> bytes:
    """The line a bridge sends when ``uid`` (hex) leaves."""
    return checked_line(f"GONE {uid.upper()}")


def hello_line(firmware: str, version: str) -> bytes:
    """The hello line of ``firmware`` ``version``."""
    return checked_line(f"{HELLO_WORD} {firmware} {version}")


def _uid(word: str) -> str | None:
    raw = word.encode("ascii")
    if len(raw) // 2 not in UID_BYTES or len(raw) % 2 or not all(b in HEX_DIGITS for b in raw):
        return None
    return word.upper()


def check_line(raw: bytes) -> LineMessage | BadChecksum | None:
    """One line (without its ``\\n``) → its message, ``BadChecksum``, or ``None`` when it is
    not one of ours (a line without a CRC is one of ours only as a hello)."""
    if len(raw) > MAX_LINE:
        return None
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return None
    if text.endswith("\r"):
        text = text[:-1]
    body, mark, crc = text.rpartition(CRC_MARK)
    if not mark or len(crc) != 4 or not _CRC_DIGITS.issuperset(crc):
        message = _message(text)
        return message if isinstance(message, Hello) else None
    if crc16(body.encode("ascii")) != int(crc, 16):
        return BadChecksum(body, crc)
    message = _message(body)
    if isinstance(message, Hello):
        return Hello(message.firmware, message.version, checked=True)
    return message


def parse_line(raw: bytes) -> LineMessage | None:
    """One line (without its ``\\n``) → its message, or ``None`` when it is not one of ours or
    its CRC does not match."""
    message = check_line(raw)
    return None if isinstance(message, BadChecksum) else message


def _message(text: str) -> LineMessage | None:
    word, _, rest = text.partition(" ")
    if word == "ERR" and rest:
        return BridgeError(rest)
    parts = rest.split(" ")
    if word in ("TAG", "GONE") and len(parts) == 1:
        uid = _uid(parts[0])
        if uid is None:
            return None
        return Tag(uid) if word == "TAG" else Gone(uid)
    if word == HELLO_WORD and len(parts) == 2 and all(parts):
        return Hello(parts[0], parts[1], checked=False)
    return None


class LineParser:
    """Incremental parser for the bridge protocol.  ``stats.skipped`` counts ignored lines,
    ``stats.bad_checksum`` lines dropped for their CRC."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False  # inside a line already too long to be ours: drop to its end
        self._frames = 0
        self._bad_checksum = 0
        self._skipped = 0

    @property
    def stats(self) -> ParserStats:
        return ParserStats(self._frames, self._bad_checksum, self._skipped)

    def feed_messages(self, data: bytes) -> list[LineMessage]:
        """Feed bytes, get the messages of the lines they complete."""
        messages: list[LineMessage] = []
        buf = self._buffer
        start = 0
        while True:
            end = data.find(b"\n", start)
            if end < 0:
                break
            if self._overlong:
                self._overlong = False
                buf.clear()
                self._skipped += 1
            else:
                buf += data[start:end]
                message = check_line(bytes(buf))
                buf.clear()
                if message is None:
                    self._skipped += 1
                elif isinstance(message, BadChecksum):
                    self._bad_checksum += 1
                else:
                    self._frames += 1
                    messages.append(message)
            start = end + 1
        if not self._overlong:
            buf += data[start:]
            if len(buf) > MAX_LINE:
                self._overlong = True
                buf.clear()
        return messages

    def feed(self, data: bytes) -> list[str]:
        """Feed bytes, get the UIDs of the ``TAG`` lines they complete."""
        return [m.uid for m in self.feed_messages(data) if isinstance(m, Tag)]
