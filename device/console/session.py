"""``aetherbox console`` as a process: the journal opened (and recovered) for it, the game it
resumes, systemd's readiness and watchdog, and the lines it reads from a file, a terminal or a pipe.
The ``aetherbox`` command (``display.cli``) parses the command line and calls ``run_console``.
"""

from __future__ import annotations

import os
import random
import select
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TextIO

from device.config import Config
from device.console import TABLES, Console, reader
from device.console.core import MAX_LINE
from device.console.reader import OpenEvent, OpenReader
from device.controller import Controller
from device.event_link import EventSession, OpenLink
from device.games import title
from device.notify import Notifier, Watchdog
from device.prompt import SignalledQueue
from device.recovery import open_journal
from device.tagmap import TagMap
from device.text import Message
from device.translations import ConsoleTranslator


#: How much of a line is read, in bytes (or characters, from a text stream): enough to show
#: that a line is longer than ``MAX_LINE`` characters, whatever their encoding, while a longer
#: one is skipped to its end without being held.
READ_LIMIT = 4 * MAX_LINE + 4


def read_lines(stream: IO[bytes] | IO[str]) -> Iterator[str]:
    """The lines of ``stream`` for the console: UTF-8, with bytes that are not (a command file
    saved as cp1250) kept as lone surrogates for the console to refuse, as it refuses them typed;
    a line too long for the console read only as far as ``READ_LIMIT``, and a byte-order mark at
    the start (how some editors save UTF-8) left out."""
    start = True
    while True:
        raw = stream.readline(READ_LIMIT)
        if not raw:
            return
        line = raw if isinstance(raw, str) else raw.decode("utf-8", errors="surrogateescape")
        if start:
            line, start = line.removeprefix("\ufeff"), False
        if len(raw) == READ_LIMIT and not line.endswith("\n"):
            _skip_line(stream)
        yield line


def _skip_line(stream: IO[bytes] | IO[str]) -> None:
    """Read past the end of the current line."""
    while True:
        raw = stream.readline(READ_LIMIT)
        if not raw or raw[-1:] in ("\n", b"\n"):
            return


def typed_lines(stream: IO[bytes] | IO[str], prompt: bool, out: TextIO) -> Iterator[str]:
    lines = read_lines(stream)
    while True:
        if prompt:
            out.write("> ")
            out.flush()
        line = next(lines, None)
        if line is None:
            return
        yield line


def standard_input() -> IO[bytes] | IO[str]:
    """Standard input as bytes, so that the console (not the locale's decoder) decides what a
    line that is not UTF-8 means; a text stream put in its place (by a test) as it is."""
    stream: IO[bytes] | IO[str] = getattr(sys.stdin, "buffer", sys.stdin)
    return stream


def run_console(
    config: Config,
    db: Path | None,
    seed: int | None,
    file: Path | None,
    open_reader: OpenReader | None = None,
    language: str | None = None,
    open_link: OpenLink | None = None,
    first: str | None = None,
) -> int:
    """``aetherbox console``: play the journal ``db`` (default: the configured one) with the lines
    of ``file``, else of standard input, with the taps of the reader ``open_reader`` opens and
    the messages of the event's broker ``open_link`` links to, saying the game's messages in
    ``language`` (default: the configured one).  ``first`` is a line run before the others."""
    translator = ConsoleTranslator(
        language or config.language
    )  # an unknown one is refused before the journal opens
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    # Only aetherbox's own journal is moved aside when damaged; a file named with --db is the
    # user's, and is reported instead.
    # What a recovery did is logged as a warning, which the console's log shows on standard error.
    opened, _ = open_journal(db or config.journal_path(), recover=db is None, defer_backups=True)
    notifier = Notifier.from_environment()
    with opened as journal:
        controller = Controller(journal, rng=rng, config=config, tags=TagMap(config.tag_map_path()))
        console = Console(controller, sys.stdout, TABLES, translator)
        if controller.state is not None and controller.game is not None:
            console.say(
                Message(
                    "console.resumed",
                    id=controller.game,
                    title=title(controller.state),
                    turn=controller.state.turn,
                )
            )
        notifier.ready("journal checked")  # HW-5: systemd counts us started only now
        watchdog = Watchdog.from_environment(notifier)
        try:
            if open_link is not None:
                open_event = event_opener(config, open_link, first)
                reader.run(
                    console,
                    open_reader,
                    file or sys.stdin,
                    file is None and sys.stdin.isatty(),
                    open_event,
                )
            elif open_reader is not None:
                reader.run(
                    console, open_reader, file or sys.stdin, file is None and sys.stdin.isatty()
                )
            elif file is not None:
                try:
                    with file.open("rb") as stream:
                        console.run(watched(read_lines(stream), watchdog))
                except OSError as error:
                    raise FileNotFoundError(f"cannot read {file}: {error.strerror}") from error
            elif watchdog is not None:
                console.run(watched_fd(sys.stdin.fileno(), watchdog))
            else:
                console.run(typed_lines(standard_input(), sys.stdin.isatty(), sys.stdout))
        finally:
            notifier.stopping()
            notifier.close()
    return 0


def event_opener(config: Config, open_link: OpenLink, first: str | None) -> OpenEvent:
    """What links the console to the configured broker as its table; ``first`` (the organiser's
    ``host`` line) runs once the link is up."""

    def open_event(console: Console, inputs: SignalledQueue) -> EventSession:
        settings = config.event
        session = EventSession(
            console.controller,
            open_link(inputs),
            settings.table,
            broker=settings.address(),
            join=settings.join,
        )
        if first:
            console.pending.append(first)  # run once the broker has said what it holds
        return session

    return open_event


def watched(lines: Iterable[str], watchdog: Watchdog | None) -> Iterator[str]:
    for line in lines:
        if watchdog is not None:
            watchdog.tick(time.monotonic())
        yield line


def watched_fd(fd: int, watchdog: Watchdog) -> Iterator[str]:
    """Lines from ``fd``, pinging the watchdog while waiting for them and between commands, read
    as ``read_lines`` reads them.

    Reads the descriptor directly, because ``select`` cannot see lines a text stream buffered.
    """
    pending = b""
    skipping = False  # the rest of a line too long for the console
    start = True
    while True:
        while b"\n" not in pending:
            if len(pending) >= READ_LIMIT and not skipping:
                line, pending, skipping = pending[:READ_LIMIT], b"", True
                yield line.decode("utf-8", errors="surrogateescape")
            elif skipping:
                pending = b""
            watchdog.tick(time.monotonic())
            readable, _, _ = select.select(
                [fd], [], [], watchdog.timeout(time.monotonic()) or watchdog.period
            )
            if readable:
                chunk = os.read(fd, 65536)
                if not chunk:
                    if pending and not skipping:
                        yield _first(pending.decode("utf-8", errors="surrogateescape"), start)
                    return
                pending += chunk
        line, pending = pending.split(b"\n", 1)
        watchdog.tick(time.monotonic())
        if skipping:
            skipping = False
            continue
        yield _first(line.decode("utf-8", errors="surrogateescape"), start) + "\n"
        start = False


def _first(line: str, start: bool) -> str:
    """The first line without the byte-order mark some editors start UTF-8 with."""
    return line.removeprefix("\ufeff") if start else line
