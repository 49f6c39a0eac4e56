"""The RFID reader and the event's broker at the console: ``aetherbox console --reader``, and
``aetherbox console`` with ``[event] broker`` configured.

Taps and the broker's messages are handled between typed lines on the game's one thread (see
``device.prompt``).  The reader and the link are opened by the caller's ``open_reader`` and
``open_event``, since device/ does not import the drivers: the ``aetherbox`` command passes in
the reader its ``--reader`` names and the link its configuration names.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol, TextIO

from msgspec.structs import replace

from device.console.core import Console, refusal
from device.controller import Result
from device.errors import IllegalCommand
from device.event_link import EventSession
from device.inputs import (
    BrokerMessage,
    BrokerStatus,
    BrokerTrouble,
    InputEvent,
    ReaderStatus,
    TagRead,
)
from device.prompt import LineSource, SignalledQueue, status_text
from device.text import Message


class TagReader(Protocol):
    """What the console needs of a reader, real or simulated: it puts its events on the queue
    it was opened with between ``start`` and ``stop``."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


#: Opens a reader that puts its events on the queue it is given.
OpenReader = Callable[[SignalledQueue], TagReader]
#: Opens the link to the event's broker on the queue it is given, in a session for the console.
OpenEvent = Callable[[Console, SignalledQueue], EventSession]


class ReaderConsole:
    """Shows reader events at the console: taps go through ``Controller.handle``."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._trouble: BrokerTrouble | None = None  # said once, not at each of the link's tries

    def handle(self, event: InputEvent) -> bool:
        say = self.console.say
        if isinstance(event, BrokerMessage | BrokerStatus):
            if isinstance(event, BrokerStatus) and event.connected:
                self._trouble = None
            self._broker(event)
        elif isinstance(event, BrokerTrouble):
            if event != self._trouble:
                self._trouble = event
                say(Message(event.key, broker=event.broker, ca=event.ca, reason=event.reason))
        elif isinstance(event, ReaderStatus):
            say(status_text(event))
        elif isinstance(event, TagRead):
            try:
                result = self.console.controller.handle(event)
            except IllegalCommand as error:
                say(refusal(error))
            else:
                if result is not None:
                    self._show(result)
        return False  # never stop waiting for the next typed line

    def _broker(self, event: BrokerMessage | BrokerStatus) -> None:
        """News from the event's broker; once it has said everything it holds, the lines that
        waited for that (the organiser's ``host``) run."""
        console = self.console
        if console.event is None:
            return
        console.follow(console.event.handle(event))
        if console.event.synced and console.pending:
            waiting, console.pending = console.pending, []
            for line in waiting:
                console.run_line(line)

    def _show(self, result: Result) -> None:
        for message in result.messages:
            self.console.say(Message("console.card_read", message=message))
        self.console.show(replace(result, messages=[]))

    def lines(self, source: LineSource, prompt: bool) -> Iterator[str]:
        while True:
            if prompt:
                self.console.out.write("> ")
                self.console.out.flush()
            line = source.next(self.handle)
            if not isinstance(line, str):
                return
            yield line


def run(
    console: Console,
    open_reader: OpenReader | None,
    lines: TextIO | Path,
    prompt: bool,
    open_event: OpenEvent | None = None,
) -> None:
    """Run the console with the reader ``open_reader`` opens and the event's broker
    ``open_event`` links to (either may be None) until the input (a stream, or a file of
    commands) ends or ``quit``."""
    with contextlib.ExitStack() as stack:
        if isinstance(lines, Path):
            try:
                lines = stack.enter_context(lines.open(encoding="utf-8"))
            except OSError as error:
                raise FileNotFoundError(f"cannot read {lines}: {error.strerror}") from error
        inputs = SignalledQueue()
        stack.callback(inputs.close)
        if open_reader is not None:
            reader = open_reader(inputs)
            reader.start()
            stack.callback(reader.stop)
        if open_event is not None:
            session = open_event(console, inputs)
            console.event = session
            session.start()
            stack.callback(session.stop)
        console.run(
            ReaderConsole(console).lines(LineSource(lines, inputs, announcer(console)), prompt)
        )


def announcer(console: Console) -> Callable[[], float | None]:
    """While the console waits for a line: the organiser's announcements that are due, said and
    sent; the seconds until the next one."""

    def due() -> float | None:
        session = console.event
        if session is None:
            return None
        console.follow(session.announce())
        at = session.deadline()
        return None if at is None else max(0.0, at - session.monotonic())

    return due
