"""Opening the journal at start-up, and recovering from a damaged one (HW-5).

A journal the storage damaged (an SD card's flipped bits, a file cut short) is detected when it
is opened — SQLite's integrity check, the file's identity, and a full read of the game that
resumes — and then:

1. the damaged file, with its ``-wal``, is renamed aside with a timestamp
   (``aetherbox.sqlite3.damaged-20250601-213005``) and never written again, so nothing in it is
   lost for good;
2. the newest backup (``aetherbox.sqlite3.bak``, see ``Journal.backup``) is checked and copied
   into place, and the game resumes from it;
3. without a usable backup the gadget starts with an empty journal.

Either way the caller gets a ``Recovery`` that says what happened, with a message key for the
screen.  Errors that are not damage (locked, unreadable, written by a newer aetherbox) are raised
as before: moving such a file aside would not help and could hide the real problem.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import JournalCorrupt, JournalError
from device.journal import Journal, backup_path
from device.text import Message, register

log = logging.getLogger("aetherbox.recovery")

register(
    {
        "journal.recovered_backup": (
            "The saved games were damaged and could not be read ({problem}). The damaged file is "
            "kept as {damaged}. The games were restored from the backup made at {when}; changes "
            "after that are lost."
        ),
        "journal.recovered_empty": (
            "The saved games were damaged and could not be read ({problem}), and there is no usable "
            "backup. The damaged file is kept as {damaged}; starting with no saved games."
        ),
    }
)


@dataclass(frozen=True)
class Recovery:
    """What start-up did about a damaged journal."""

    problem: str
    damaged: Path  # where the damaged journal now is
    restored_from: Path | None  # the backup used, or None when starting empty
    backup_time: float | None

    def message(self) -> Message:
        if self.restored_from is None:
            return Message("journal.recovered_empty", problem=self.problem, damaged=str(self.damaged))
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.backup_time or 0))
        return Message(
            "journal.recovered_backup", problem=self.problem, damaged=str(self.damaged), when=when
        )


def verify(journal: Journal) -> None:
    """SQLite's full integrity check (the journal's own check at opening is the quick one), then
    what start-up will show: the game that resumes, from its snapshot and from every event.
    Raises ``JournalCorrupt`` for anything damaged."""
    try:
        problems = journal.integrity_check()
        if problems != ["ok"]:
            raise JournalCorrupt(journal.path, f"the integrity check failed: {'; '.join(problems[:3])}")
        game = journal.last_game()
        if game is not None:
            journal.state(game)
            journal.replay(game)
            repaired = journal.repair_texts(game)
            if repaired:
                log.warning("%s: %d damaged change text(s) of game %d were written again from the game's events",
                            journal.path, repaired, game)
    except JournalError as error:
        raise _as_damage(error) from error
    except Exception as error:
        # Rows that read well but do not make a game (a missing game, events out of order, a seat
        # that is not there) can only come from damage: the rules never wrote them.
        raise JournalCorrupt(
            journal.path, f"the last game cannot be replayed ({type(error).__name__}: {error})"
        ) from error


def _as_damage(error: JournalError) -> JournalError:
    if type(error) is not JournalError:  # locked, unreadable, failing storage, too new
        return error
    # SQLite refused a query this version always runs ("no such column"): the schema's text
    # itself is damaged.
    return JournalCorrupt(error.path, str(error).removeprefix(f"{error.path}: "))


def _open_checked(path: Path, options: dict[str, Any]) -> Journal:
    try:
        journal = Journal(path, **options)
    except JournalError as error:
        raise _as_damage(error) from error
    except UnicodeDecodeError as error:
        # SQLite's message quotes the damaged schema text, which Python cannot decode.
        raise JournalCorrupt(path, f"its schema is damaged ({error.reason})") from error
    try:
        verify(journal)
    except BaseException:
        journal.backup_every = 0  # never replace a good backup with a copy of a damaged journal
        journal.close()
        raise
    return journal


def move_aside(path: Path, now: float) -> Path:
    """Rename the journal and its ``-wal`` to ``<name>.damaged-<time>``; the new name."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    count = 1
    while target.exists():
        count += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{count}")
    # The -wal goes first: a journal found without its -wal would look older, never newer.
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            if suffix == "-shm":
                side.unlink()  # only an index of the -wal, rebuilt on opening
            else:
                os.replace(side, target.with_name(target.name + suffix))
    if path.exists():
        os.replace(path, target)
    return target


def _restore(backup: Path, path: Path) -> None:
    partial = path.with_name(path.name + ".restoring")
    shutil.copyfile(backup, partial)
    fd = os.open(partial, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)


def behind_backup(journal: Journal) -> str | None:
    """Why the journal is older than its own backup, if it is: a game the backup has and it has
    not, or fewer changes kept.  Only damage does that (a write-ahead log cut short at a damaged
    frame): the backup is a copy of this journal from the past."""
    backup = backup_path(journal.path)
    if not backup.exists():
        return None
    try:
        db = sqlite3.connect(f"file:{urllib.parse.quote(str(backup.absolute()))}?mode=ro", uri=True)
        try:
            kept = {int(game): int(tip) for game, tip in db.execute("SELECT id, tip FROM games")}
        finally:
            db.close()
    except sqlite3.Error:
        return None  # an unreadable backup says nothing about the journal
    ours = journal.heads()
    for game, tip in sorted(kept.items()):
        if ours.get(game, -1) < tip:
            have = ours.get(game)
            return (f"the backup has change {tip} of game {game}, the journal {'no such game' if have is None else f'only {have}'}"
                    " (its write-ahead log was cut short)")
    return None


def open_journal(
    path: Path, *, recover: bool = True, clock: Callable[[], float] = time.time, **options: Any
) -> tuple[Journal, Recovery | None]:
    """Open and check the journal at ``path``; with ``recover``, replace a damaged one by its
    backup (or an empty journal) as described above.  ``options`` go to ``Journal``."""
    try:
        journal = _open_checked(path, options)
        behind = behind_backup(journal) if recover else None
        if behind is None:
            return journal, None
        journal.backup_every = 0  # its backup is the newer copy: keep it
        journal.close()
        raise JournalCorrupt(path, behind)
    except JournalCorrupt as error:
        if not recover:
            raise
        problem = str(error).removeprefix(f"{path}: ")
        log.error("%s: the journal is damaged: %s", path, problem)
    damaged = move_aside(path, clock())
    backup = backup_path(path)
    if backup.exists():
        backup_time = backup.stat().st_mtime
        try:
            _restore(backup, path)
            journal = _open_checked(path, options)
        except (JournalCorrupt, OSError) as error:
            log.error("%s: the backup %s cannot be used either: %s", path, backup, error)
            # The copy is ours, but keep it beside the damaged file rather than delete evidence.
            if path.exists():
                move_aside(path, clock())
        else:
            recovery = Recovery(problem, damaged, backup, backup_time)
            log.warning("%s", recovery.message())
            return journal, recovery
    journal = Journal(path, **options)
    recovery = Recovery(problem, damaged, None, None)
    log.warning("%s", recovery.message())
    return journal, recovery
