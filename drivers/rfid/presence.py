"""Sightings to taps: one TagRead per tag placed, one TagRemoved when it goes."""

from __future__ import annotations

from device.inputs import InputEvent, TagRead, TagRemoved


class Presence:
    """Tracks the one tag on the reader.

    Readers see a held tag over and over (the RDM6300 every 65 ms, the PN532 at every poll);
    a tag counts as gone when it has not been seen for ``timeout`` seconds, or at once when the
    reader says so.  Times are passed in, so this is deterministic under test.

    ``reads_to_confirm``: how many reads in a row must give a UID other than the held one
    before it counts.  With 2, a garbled frame that passes a weak checksum is never a card,
    and one arriving while a tag is held is not a second tap of it either.  Reads further
    apart than ``timeout`` are not in a row.
    """

    def __init__(self, timeout: float, reads_to_confirm: int = 1) -> None:
        self.timeout = timeout
        self.reads_to_confirm = reads_to_confirm
        self.current: str | None = None
        self._reader = ""
        self._last_seen = 0.0
        self._candidate: str | None = None
        self._candidate_reads = 0
        self._candidate_at = 0.0

    def seen(self, uid: str, now: float, reader: str) -> list[InputEvent]:
        """``uid`` was read at ``now``."""
        events: list[InputEvent] = []
        if uid != self.current:
            if not self._confirmed(uid, now):
                return events
            events += self.clear()
            self.current = uid
            self._reader = reader
            events.append(TagRead(uid, reader=reader))
        self._candidate = None
        self._last_seen = now
        return events

    def _confirmed(self, uid: str, now: float) -> bool:
        if uid == self._candidate and now - self._candidate_at < self.timeout:
            self._candidate_reads += 1
        else:
            self._candidate, self._candidate_reads = uid, 1
        self._candidate_at = now
        return self._candidate_reads >= self.reads_to_confirm

    def gone(self, uid: str) -> list[InputEvent]:
        """The reader reports ``uid`` left (ignored when it is not the tag on the reader)."""
        return self.clear() if uid == self.current else []

    def due(self) -> float | None:
        """When the held tag counts as gone unless it is seen again; None with no tag held."""
        return None if self.current is None else self._last_seen + self.timeout

    def expire(self, now: float) -> list[InputEvent]:
        """The removal due by ``now``, if any."""
        if self.current is not None and now - self._last_seen >= self.timeout:
            return self.clear()
        return []

    def clear(self) -> list[InputEvent]:
        """Forget the tag (reader lost or stopped): its TagRemoved, if there was one."""
        self._candidate = None
        if self.current is None:
            return []
        uid, self.current = self.current, None
        return [TagRemoved(uid, reader=self._reader)]
