"""The aetherbox bridge line protocol, spoken by a microcontroller that reads tags for us.

A bridge (for example a Raspberry Pi Pico with an RC522, or any board with its own reader)
shows up as a serial port and talks in short ASCII lines.

Link
    115200 baud, 8N1.  Every line ends in ``\\n``; a ``\\r`` before it is allowed and ignored.
    Lines are at most 200 bytes; longer ones are thrown away.  Words are separated by one
    space.

Bridge to host
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
        whatever noise came before), so the bridge must ignore empty lines.

Anything else, either way, is ignored (the host counts such lines).
"""

from __future__ import annotations

from dataclasses import dataclass

from drivers.rfid.base import HEX_DIGITS, ParserStats

BAUDRATE = 115200
MAX_LINE = 200
HELLO_REQUEST = b"\nHELLO\n"
HELLO_WORD = "AETHERBOX-BRIDGE"
UID_BYTES = (4, 7, 10)


@dataclass(frozen=True, slots=True)
class Hello:
    """The bridge said hello."""

    firmware: str
    version: str


@dataclass(frozen=True, slots=True)
class Tag:
    """``TAG <uid>``: the tag is on the reader."""

    uid: str


@dataclass(frozen=True, slots=True)
class Gone:
    """``GONE <uid>``: the tag has left the reader."""

    uid: str


@dataclass(frozen=True, slots=True)
class BridgeError:
    """``ERR <text>``."""

    text: str


LineMessage = Hello | Tag | Gone | BridgeError


def tag_line(uid: str) -> bytes:
    """The line a bridge sends for ``uid`` (hex)."""
    return f"TAG {uid.upper()}\n".encode("ascii")


def _uid(word: str) -> str | None:
    raw = word.encode("ascii")
    if len(raw) // 2 not in UID_BYTES or len(raw) % 2 or not all(b in HEX_DIGITS for b in raw):
        return None
    return word.upper()


def parse_line(raw: bytes) -> LineMessage | None:
    """One line (without its ``\\n``) → its message, or ``None`` when it is not one of ours."""
    if len(raw) > MAX_LINE:
        return None
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return None
    if text.endswith("\r"):
        text = text[:-1]
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
        return Hello(parts[0], parts[1])
    return None


class LineParser:
    """Incremental parser for the bridge protocol.  ``stats.skipped`` counts ignored lines."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False  # inside a line already too long to be ours: drop to its end
        self._frames = 0
        self._skipped = 0

    @property
    def stats(self) -> ParserStats:
        return ParserStats(self._frames, 0, self._skipped)

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
                message = parse_line(bytes(buf))
                buf.clear()
                if message is None:
                    self._skipped += 1
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
