"""A simulated reader that posts the same events as a real one, for laptops and tests."""

from __future__ import annotations

import threading

from device.inputs import InputEvent, InputQueue, ReaderStatus, TagRead, TagRemoved, normalise_uid


class FakeReader:
    """A reader driven by calls instead of radio.

    ``tap(uid)`` places a tag (it stays until ``remove``; tapping it again while it is there
    does nothing, as on a real reader), ``unplug()`` / ``replug()`` pull and reinsert the cable.
    Like a real reader it reports nothing before ``start()`` or after ``stop()``.
    """

    def __init__(self, events: InputQueue, *, port: str = "fake", protocol: str = "fake") -> None:
        self._events = events
        self.port = port
        self.protocol = protocol
        self._lock = threading.Lock()  # taps may come from a keyboard thread and a test at once
        self._running = False
        self._plugged = True
        self.current: str | None = None

    @property
    def connected(self) -> bool:
        return self._running and self._plugged

    def start(self) -> None:
        with self._lock:
            if not self._running:
                self._running = True
                if self._plugged:
                    self._status(True, "simulated reader")

    def stop(self) -> None:
        with self._lock:
            if self._running:
                self._lift()
                if self._plugged:
                    self._status(False, "stopped")
                self._running = False

    def tap(self, uid: str) -> None:
        """Place the tag ``uid`` (hex, separators allowed) on the reader."""
        uid = normalise_uid(uid)
        with self._lock:
            if self.connected and uid != self.current:
                self._lift()
                self.current = uid
                self._put(TagRead(uid, reader=self.protocol))

    def remove(self, uid: str | None = None) -> None:
        """Take the tag off (``uid``, if given, must be the one on the reader)."""
        with self._lock:
            if uid is None or self.current == normalise_uid(uid):
                self._lift()

    def unplug(self) -> None:
        with self._lock:
            if self.connected:
                self._lift()
                self._status(False, "unplugged")
            self._plugged = False

    def replug(self) -> None:
        with self._lock:
            if not self._plugged:
                self._plugged = True
                if self._running:
                    self._status(True, "simulated reader")

    def _lift(self) -> None:
        if self.current is not None:
            self._put(TagRemoved(self.current, reader=self.protocol))
            self.current = None

    def _status(self, connected: bool, detail: str) -> None:
        self._put(ReaderStatus(connected, self.port, self.protocol, detail))

    def _put(self, event: InputEvent) -> None:
        self._events.put(event)
