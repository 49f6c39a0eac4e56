"""Typed lines and input events at one prompt: ``aetherbox console --reader`` and ``aetherbox enroll``.

Both read typed lines and reader events at the same time on one thread.  The reader's thread
only puts events on a ``SignalledQueue``, which also writes a byte to a pipe; ``LineSource``
waits with one ``select()`` on standard input and that pipe, so the game's thread sleeps until
a line is typed or a tag is tapped — no polling — and handles the tap between two lines.
"""

from __future__ import annotations

import codecs
import io
import os
import queue
import select
from collections.abc import Callable
from typing import TextIO

from device.inputs import InputEvent, ReaderStatus


class SignalledQueue(queue.Queue[InputEvent]):
    """An input queue that can be waited on with ``select()`` through ``fileno()``."""

    def __init__(self) -> None:
        super().__init__()
        self._read_end, self._write_end = os.pipe()
        os.set_blocking(self._read_end, False)
        os.set_blocking(self._write_end, False)

    def put(self, item: InputEvent, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        try:
            os.write(self._write_end, b"!")
        except (BlockingIOError, OSError):
            pass  # the pipe is full (already signalled) or closed (shutting down)

    def fileno(self) -> int:
        return self._read_end

    def drain(self) -> list[InputEvent]:
        """Everything queued now.  The signal is cleared first, so an event put meanwhile
        signals again rather than being left behind unseen."""
        try:
            while os.read(self._read_end, 512):
                pass
        except (BlockingIOError, OSError):
            pass
        items: list[InputEvent] = []
        while True:
            try:
                items.append(self.get_nowait())
            except queue.Empty:
                return items

    def close(self) -> None:
        for fd in (self._read_end, self._write_end):
            try:
                os.close(fd)
            except OSError:
                pass


#: Given an input event while waiting for a line: ``True`` ends the wait with that event.
EventHandler = Callable[[InputEvent], bool]
#: Does what is due while waiting for a line (an organiser's announcements) and returns the
#: seconds until more is, or None: the wait sleeps until then, not polling.
Timer = Callable[[], float | None]


class LineSource:
    """Typed lines, with the input events that arrive while waiting for them.

    ``next(handler)`` returns the next line (without its line ending), an event the handler
    chose to stop on, or ``None`` at the end of input.  A stream without a file descriptor
    (a script given as a file, a ``StringIO``) is read line by line, with the events that
    arrived meanwhile handled before each line.
    """

    def __init__(self, stream: TextIO, inputs: SignalledQueue, timer: Timer | None = None) -> None:
        self._stream = stream
        self._timer = timer
        self._inputs = inputs
        self._pending: list[InputEvent] = []
        try:
            self._fd: int | None = stream.fileno()
        except (AttributeError, io.UnsupportedOperation, ValueError):
            self._fd = None
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._text = ""
        self._eof = False

    def next(self, handler: EventHandler) -> str | InputEvent | None:
        while True:
            stop = self._events(handler, self._pending or self._inputs.drain())
            if stop is not None:
                return stop
            line = self._complete_line()
            if line is not None:
                return line
            if self._eof:
                return None
            if self._fd is None:
                text = self._stream.readline()
                if not text:
                    self._eof = True
                self._text += text
                continue
            wait = self._timer() if self._timer is not None else None
            ready, _, _ = select.select([self._fd, self._inputs.fileno()], [], [], wait)
            if self._fd in ready:
                data = os.read(self._fd, 4096)
                if not data:
                    self._eof = True
                    self._text += self._decoder.decode(b"", final=True)
                    if not self._text:
                        continue
                    self._text += "\n"
                else:
                    self._text += self._decoder.decode(data)

    def statuses(self) -> list[ReaderStatus]:
        """The reader statuses already waiting, taken out; other events stay for ``next``.

        A tool shows them this way before it asks its question: a reader that reported itself
        while the tool was starting (the simulated one does so at once) would otherwise
        interrupt the first prompt, which then had to be asked a second time."""
        waiting = self._pending + self._inputs.drain()
        self._pending = [event for event in waiting if not isinstance(event, ReaderStatus)]
        return [event for event in waiting if isinstance(event, ReaderStatus)]

    def _events(self, handler: EventHandler, events: list[InputEvent]) -> InputEvent | None:
        for index, event in enumerate(events):
            if handler(event):
                self._pending = events[index + 1 :]
                return event
        self._pending = []
        return None

    def _complete_line(self) -> str | None:
        if "\n" not in self._text:
            if self._eof and self._text:
                line, self._text = self._text, ""
                return line
            return None
        line, _, self._text = self._text.partition("\n")
        return line.removesuffix("\r")


def status_text(status: ReaderStatus) -> str:
    """A reader status for a status line: ``reader connected: /dev/ttyUSB0 (rdm6300)``."""
    if status.connected:
        what = ", ".join(part for part in (status.protocol, status.detail) if part)
        return f"reader connected: {status.port}" + (f" ({what})" if what else "")
    return f"reader disconnected: {status.detail or status.port or 'no reader'}"
