"""What every frame parser shares: its counters and the interface the reader drives."""

from __future__ import annotations

from typing import Protocol

from msgspec import Struct


class ParserStats(Struct, frozen=True):
    """Counters since the parser was made.

    ``frames``: well-formed frames with a good checksum.  ``bad_checksum``: well-formed frames
    whose checksum did not match (dropped).  ``skipped``: bytes (or, for the line protocol,
    lines) thrown away while looking for the start of a frame.
    """

    frames: int = 0
    bad_checksum: int = 0
    skipped: int = 0


class UidParser(Protocol):
    """An incremental parser for a reader that only ever reports tag UIDs.

    ``feed`` takes whatever bytes arrived, in any split, and returns the UIDs (upper-case hex)
    of the frames completed by them.  It never raises; garbage is skipped and counted.
    """

    @property
    def stats(self) -> ParserStats: ...

    def feed(self, data: bytes) -> list[str]: ...


HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")
