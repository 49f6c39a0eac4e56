"""Sightings to taps: one TagRead per tag placed, one TagRemoved when it goes."""

from __future__ import annotations

from device.inputs import InputEvent, TagRead, TagRemoved


class Presence:
    """Tracks the one tag on the reader.

    Readers see a held tag over and over (the RDM6300 every 65 ms, the PN532 at every poll);
    a tag counts as gone when it has not been seen for ``timeout`` seconds, or at once when the
    reader says so.  Times are passed in, so this is deterministic under test.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.current: str | None = None
        self._reader = ""
        self._last_seen = 0.0

    def seen(self, uid: str, now: float, reader: str) -> list[InputEvent]:
        """``uid`` was read at ``now``."""
        events: list[InputEvent] = []
        if uid != self.current:
            events += self.clear()
            self.current = uid
            self._reader = reader
            events.append(TagRead(uid, reader=reader))
        self._last_seen = now
        return events

    def gone(self, uid: str) -> list[InputEvent]:
        """The reader reports ``uid`` left (ignored when it is not the tag on the reader)."""
        return self.clear() if uid == self.current else []

    def expire(self, now: float) -> list[InputEvent]:
        """The removal due by ``now``, if any."""
        if self.current is not None and now - self._last_seen >= self.timeout:
            return self.clear()
        return []

    def clear(self) -> list[InputEvent]:
        """Forget the tag (reader lost or stopped): its TagRemoved, if there was one."""
        if self.current is None:
            return []
        uid, self.current = self.current, None
        return [TagRemoved(uid, reader=self._reader)]
