"""125 kHz EM4100 readers that send ASCII hex frames: RDM6300 / RDM630 and ID-12LA / ID-20LA.

Both run at 9600 8N1 and send ``STX, 10 hex digits (5 data bytes), 2 hex digits (XOR of the
5 data bytes), trailer``; the trailer is ``ETX`` on the RDM6300 and ``CR LF ETX`` on the ID-12LA.
The RDM6300 repeats the frame about every 65 ms while a tag is held.
"""

from __future__ import annotations

from drivers.rfid.base import HEX_DIGITS, ParserStats

STX = 0x02
ETX = 0x03
RDM6300_TRAILER = b"\x03"
ID12_TRAILER = b"\r\n\x03"
_DATA_DIGITS = 10
_HEX_END = 1 + _DATA_DIGITS + 2  # index just past the checksum digits


def xor_checksum(data: bytes) -> int:
    """XOR of the bytes, the checksum both readers send."""
    result = 0
    for byte in data:
        result ^= byte
    return result


def _frame(uid: bytes, trailer: bytes) -> bytes:
    if len(uid) != 5:
        raise ValueError(f"an EM4100 tag has 5 data bytes, not {len(uid)}: {uid.hex()!r}")
    text = uid.hex().upper() + f"{xor_checksum(uid):02X}"
    return bytes([STX]) + text.encode("ascii") + trailer


def rdm6300_frame(uid: bytes) -> bytes:
    """The 14 bytes an RDM6300 sends for the 5-byte tag ``uid``."""
    return _frame(uid, RDM6300_TRAILER)


def id12_frame(uid: bytes) -> bytes:
    """The 16 bytes an ID-12LA sends for the 5-byte tag ``uid``."""
    return _frame(uid, ID12_TRAILER)


class AsciiHexParser:
    """Incremental parser for STX-hex-checksum-trailer frames, with one or more trailers.

    After ``feed``, ``last_protocols`` names, per UID returned, which trailer matched
    (``names[i]`` for ``trailers[i]``); the auto-detecting reader uses it to tell an RDM6300
    from an ID-12 without knowing in advance.
    """

    def __init__(self, trailers: tuple[bytes, ...], names: tuple[str, ...]) -> None:
        self._trailers = trailers
        self._names = names
        self._buffer = bytearray()
        self._frames = 0
        self._bad_checksum = 0
        self._skipped = 0
        self.last_protocols: list[str] = []

    @property
    def stats(self) -> ParserStats:
        return ParserStats(self._frames, self._bad_checksum, self._skipped)

    def feed(self, data: bytes) -> list[str]:
        buf = self._buffer
        buf += data
        uids: list[str] = []
        self.last_protocols = []
        while True:
            start = buf.find(STX)
            if start < 0:
                self._skipped += len(buf)
                buf.clear()
                break
            if start:
                self._skipped += start
                del buf[:start]
            verdict = self._check(buf)
            if verdict is None:
                break  # the frame so far is plausible: wait for more bytes
            size, uid, name = verdict
            if size == 1:
                # Not a frame after all; drop only the STX so a real frame starting inside is kept.
                self._skipped += 1
            elif uid is None:
                self._bad_checksum += 1
            else:
                self._frames += 1
                uids.append(uid)
                self.last_protocols.append(name)
            del buf[:size]
        return uids

    def _check(self, buf: bytearray) -> tuple[int, str | None, str] | None:
        """``None``: need more bytes.  Else ``(bytes to drop, uid or None if bad sum, name)``."""
        upto = min(len(buf), _HEX_END)
        for i in range(1, upto):
            if buf[i] not in HEX_DIGITS:
                return 1, None, ""
        if len(buf) < _HEX_END:
            return None
        tail = bytes(buf[_HEX_END : _HEX_END + max(len(t) for t in self._trailers)])
        for trailer, name in zip(self._trailers, self._names):
            if tail[: len(trailer)] == trailer:
                # Hex digits and trailers contain no STX, so dropping the whole frame here
                # can never swallow the start of the next one.
                digits = bytes.fromhex(buf[1:_HEX_END].decode("ascii"))
                size = _HEX_END + len(trailer)
                if xor_checksum(digits[:5]) != digits[5]:
                    return size, None, name
                return size, digits[:5].hex().upper(), name
        if any(trailer.startswith(tail) for trailer in self._trailers):
            return None
        return 1, None, ""


class Rdm6300Parser(AsciiHexParser):
    """RDM6300 / RDM630 frames: ``STX, 10 hex, 2 hex XOR, ETX``."""

    def __init__(self) -> None:
        super().__init__((RDM6300_TRAILER,), ("rdm6300",))


class Id12Parser(AsciiHexParser):
    """ID-12LA / ID-20LA frames: ``STX, 10 hex, 2 hex XOR, CR, LF, ETX``."""

    def __init__(self) -> None:
        super().__init__((ID12_TRAILER,), ("id12",))


class Em4100Parser(AsciiHexParser):
    """Either framing, for a 9600-baud reader whose make is not known yet."""

    def __init__(self) -> None:
        super().__init__((RDM6300_TRAILER, ID12_TRAILER), ("rdm6300", "id12"))
