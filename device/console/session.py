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
from typing import TextIO

from device.config import Config
from device.console import TABLES, Console, reader
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


def typed_lines(stream: TextIO, prompt: bool, out: TextIO) -> Iterator[str]:
    while True:
        if prompt:
            out.write("> ")
            out.flush()
        line = stream.readline()
        if not line:
            return
        yield line


def run_console(
    config: Config, db: Path | None, seed: int | None, file: Path | None, open_reader: OpenReader | None = None,
    language: str | None = None, open_link: OpenLink | None = None, first: str | None = None,
) -> int:
    """``aetherbox console``: play the journal ``db`` (default: the configured one) with the lines
    of ``file``, else of standard input, with the taps of the reader ``open_reader`` opens and
    the messages of the event's broker ``open_link`` links to, saying the game's messages in
    ``language`` (default: the configured one).  ``first`` is a line run before the others."""
    translator = ConsoleTranslator(language or config.language)  # an unknown one is refused before the journal opens
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
            console.say(Message("console.resumed", id=controller.game, title=title(controller.state),
                                turn=controller.state.turn))
        notifier.ready("journal checked")  # HW-5: systemd counts us started only now
        watchdog = Watchdog.from_environment(notifier)
        try:
            if open_link is not None:
                open_event = event_opener(config, open_link, first)
                reader.run(console, open_reader, file or sys.stdin, file is None and sys.stdin.isatty(), open_event)
            elif open_reader is not None:
                reader.run(console, open_reader, file or sys.stdin, file is None and sys.stdin.isatty())
            elif file is not None:
                try:
                    with file.open(encoding="utf-8") as stream:
                        console.run(watched(stream, watchdog))
                except OSError as error:
                    raise FileNotFoundError(f"cannot read {file}: {error.strerror}") from error
            elif watchdog is not None:
                console.run(watched_fd(sys.stdin.fileno(), watchdog))
            else:
                console.run(typed_lines(sys.stdin, sys.stdin.isatty(), sys.stdout))
        finally:
            notifier.stopping()
            notifier.close()
    return 0


def event_opener(config: Config, open_link: OpenLink, first: str | None) -> OpenEvent:
    """What links the console to the configured broker as its table; ``first`` (the organiser's
    ``host`` line) runs once the link is up."""

    def open_event(console: Console, inputs: SignalledQueue) -> EventSession:
        settings = config.event
        session = EventSession(console.controller, open_link(inputs), settings.table, broker=settings.address(),
                               join=settings.join)
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
    """Lines from ``fd``, pinging the watchdog while waiting for them and between commands.

    Reads the descriptor directly, because ``select`` cannot see lines a text stream buffered.
    """
    pending = b""
    while True:
        while b"\n" not in pending:
            watchdog.tick(time.monotonic())
            readable, _, _ = select.select([fd], [], [], watchdog.timeout(time.monotonic()) or watchdog.period)
            if readable:
                chunk = os.read(fd, 65536)
                if not chunk:
                    if pending:
                        yield pending.decode("utf-8", errors="replace")
                    return
                pending += chunk
        line, pending = pending.split(b"\n", 1)
        watchdog.tick(time.monotonic())
        yield line.decode("utf-8", errors="replace") + "\n"
