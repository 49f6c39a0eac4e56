"""A pty standing in for a serial reader, and a scripted terminal for the interactive tools."""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Callable

import pytest


class Screen(io.TextIOBase):
    """Standard output that a test can wait on."""

    def __init__(self) -> None:
        self.text = ""
        self.cursor = 0
        self._changed = threading.Condition()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        with self._changed:
            self.text += text
            self._changed.notify_all()
        return len(text)

    def expect(self, wanted: str, timeout: float = 5.0) -> str:
        """Wait until ``wanted`` appears after the cursor; returns the text up to its end."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                at = self.text.find(wanted, self.cursor)
                if at >= 0:
                    seen = self.text[self.cursor : at + len(wanted)]
                    self.cursor = at + len(wanted)
                    return seen
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(
                        f"never saw {wanted!r}; the screen after the cursor:\n{self.text[self.cursor :]}"
                    )
                self._changed.wait(left)


class Terminal:
    """Runs ``main`` on a thread with a pipe for standard input and a ``Screen`` for output."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self._monkeypatch = monkeypatch
        self.screen = Screen()
        read_end, self._keyboard = os.pipe()
        self.stdin = os.fdopen(read_end, "r", encoding="utf-8")
        self.status: int | None = None
        self._thread: threading.Thread | None = None

    def start(self, main: Callable[[], int]) -> None:
        self._monkeypatch.setattr(sys, "stdin", self.stdin)
        self._monkeypatch.setattr(sys, "stdout", self.screen)

        def target() -> None:
            self.status = main()

        self._thread = threading.Thread(target=target, daemon=True)
        self._thread.start()

    def expect(self, wanted: str, timeout: float = 5.0) -> str:
        return self.screen.expect(wanted, timeout)

    def type(self, line: str) -> None:
        os.write(self._keyboard, (line + "\n").encode())

    def end_input(self) -> None:
        if self._keyboard >= 0:
            os.close(self._keyboard)
            self._keyboard = -1

    def wait(self, timeout: float = 5.0) -> int | None:
        assert self._thread is not None
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"still running; screen:\n{self.screen.text}"
        return self.status

    def close(self) -> None:
        self.end_input()
        if self._thread is not None:
            self._thread.join(5)
        self.stdin.close()
