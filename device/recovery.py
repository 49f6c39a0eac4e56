"""Opening the journal at start-up, and recovering from a damaged one (HW-5).

A journal the storage damaged (an SD card's flipped bits, a file cut short) is detected in two
steps, so that resuming costs the same however long the game (docs/decisions/0010):

- at start-up, before the screen is up: the file's identity, its write-ahead log, the game that
  resumes (its head, its newest good snapshot and the events after it) and whether it is older
  than its own backup;
- right after, on a thread of its own while the game goes on (``Journal.check``): SQLite's full
  integrity check and a replay of every event of that game.  ``Controller.idle`` (and the next
  command) act on its verdict; until it is in, no backup is taken.

Damage found by either step is handled the same way:

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
import stat
import struct
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from msgspec import Struct

from device.errors import JournalCorrupt, JournalError
from device.journal import Check, Gate, Journal, Reader, backup_path, sync_folder
from device.text import Message, Text

log = logging.getLogger("aetherbox.recovery")

TEXTS: dict[str, Text] = {
    "journal.recovered_backup": (
        "The saved games were damaged and could not be read ({problem}). The damaged file is "
        "kept as {damaged}. The games were restored from the backup made at {when}; changes "
        "after that are lost."
    ),
    "journal.wal_damaged": (
        "The saved games were damaged ({problem}). A copy of the damaged part is kept as {damaged}; "
        "the games resume from before the damage."
    ),
    "journal.both_empty": (
        "The saved games and their backup were both found empty (0 bytes): nothing could be "
        "recovered. Both are kept, as {damaged} and {backup}; starting with no saved games."
    ),
    "journal.full": "The storage is full: this change was not saved. Free some space; saving resumes by itself.",
    "journal.kind.folder": "a folder",
    "journal.kind.file": "a file",
    "journal.kind.fifo": "a named pipe (FIFO)",
    "journal.kind.device": "a device ({device})",
    "journal.kind.other": "not a regular file",
    "journal.recovered_empty": (
        "The saved games were damaged and could not be read ({problem}), and there is no usable "
        "backup. The damaged file is kept as {damaged}; starting with no saved games."
    ),
}


class Recovery(Struct, frozen=True):
    """What start-up did about a damaged journal."""

    problem: str
    damaged: Path  # where the damaged journal now is
    restored_from: Path | None  # the backup used, or None when starting empty
    backup_time: float | None
    resumed: bool = False  # the journal itself resumed, without what a damaged write-ahead log held
    empty_backup: Path | None = None  # where an empty backup found with an empty journal was put

    def message(self) -> Message:
        if self.empty_backup is not None:
            return Message(
                "journal.both_empty", damaged=str(self.damaged), backup=str(self.empty_backup)
            )
        if self.resumed:
            return Message("journal.wal_damaged", problem=self.problem, damaged=str(self.damaged))
        if self.restored_from is None:
            return Message(
                "journal.recovered_empty", problem=self.problem, damaged=str(self.damaged)
            )
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.backup_time or 0))
        return Message(
            "journal.recovered_backup", problem=self.problem, damaged=str(self.damaged), when=when
        )


def verify(
    journal: Reader, pause: Callable[[], None] | None = None
) -> tuple[int | None, list[int]]:
    """SQLite's full integrity check, then the game that resumes, from its snapshot and from every
    event: that game and its changes whose text must be written again.  Raises ``JournalCorrupt``
    for anything damaged.  ``pause`` is called before each row read (``Reader.replay``)."""
    with _damage_as_corrupt(journal.path):
        _check_file(journal)
    return _check_game(journal, pause)


def _check_file(journal: Reader) -> None:
    problems = journal.integrity_check()
    if problems != ["ok"]:
        raise JournalCorrupt(journal.path, f"the integrity check failed: {'; '.join(problems[:3])}")


def _check_game(
    journal: Reader, pause: Callable[[], None] | None = None
) -> tuple[int | None, list[int]]:
    """The game that resumes, from its snapshot and from every event, as ``verify``."""
    game: int | None = None
    damaged: list[int] = []
    with _damage_as_corrupt(journal.path):
        game = journal.last_game()
        if game is not None:
            journal.state(game, pause)
            journal.replay(game, pause)
            damaged = journal.damaged_texts(game, pause)
    return game, damaged


def verify_resume(journal: Reader) -> None:
    """What start-up shows, and nothing whose cost grows with the game: the last game's head and
    its state from the newest good snapshot and the events after it.  Raises ``JournalCorrupt``."""
    with _damage_as_corrupt(journal.path):
        game = journal.last_game()
        if game is not None:
            journal.state(game)


@contextmanager
def _damage_as_corrupt(path: Path) -> Iterator[None]:
    try:
        yield
    except JournalError as error:
        raise _as_damage(error) from error
    except Exception as error:
        # Rows that read well but do not make a game (a missing game, events out of order, a seat
        # that is not there) can only come from damage: the rules never wrote them.
        raise JournalCorrupt(
            path, f"the last game cannot be replayed ({type(error).__name__}: {error})"
        ) from error


def repair(journal: Journal, game: int, positions: list[int] | None = None) -> int:
    """Write again the damaged change texts of ``game`` (those at ``positions``, if given)."""
    repaired = journal.repair_texts(game, positions)
    if repaired:
        log.warning(
            "%s: %d damaged change text(s) of game %d were written again from the game's events",
            journal.path,
            repaired,
            game,
        )
    return repaired


def _check_whole(path: Path, pause: Callable[[], None] | None = None) -> list[int]:
    """The check that runs after start-up, on its own thread and connections of its own: SQLite's
    integrity check of the file, then the game that resumes, read from a copy of it made at one
    moment (``Reader.copy``) with ``pause`` before each row (``Gate.through``: a press goes
    first)."""
    with _damage_as_corrupt(path):
        reader = Reader.open(path)
        try:
            _check_file(reader)
        finally:
            reader.close()
        copy = Reader.copy(path)
    try:
        return _check_game(copy, pause)[1]
    finally:
        copy.close()


def start_check(journal: Journal) -> None:
    """Check the whole of ``journal`` on a thread of its own (see the module's docstring); it
    gives way to the commands the game's thread carries out meanwhile (``Gate``)."""
    gate = Gate()
    journal.check = Check(
        journal.last_game(), lambda: _check_whole(journal.path, gate.through), gate
    )


def _as_damage(error: JournalError) -> JournalError:
    if type(error) is not JournalError:  # locked, unreadable, failing storage, too new
        return error
    # SQLite refused a query this version always runs ("no such column"): the schema's text
    # itself is damaged.
    return JournalCorrupt(error.path, error.problem, error.advice)


def _open_checked(path: Path, options: dict[str, Any], *, whole: bool = True) -> Journal:
    """The journal at ``path`` opened and checked: ``whole``, or only what start-up shows."""
    try:
        journal = Journal(path, **{**options, "quick_check": whole})
    except JournalError as error:
        raise _as_damage(error) from error
    except UnicodeDecodeError as error:
        # SQLite's message quotes the damaged schema text, which Python cannot decode.
        raise JournalCorrupt(path, f"its schema is damaged ({error.reason})") from error
    try:
        if whole:
            game, damaged = verify(journal)
            if game is not None:
                repair(journal, game, damaged)
        else:
            verify_resume(journal)
    except BaseException:
        journal.backup_every = 0  # never replace a good backup with a copy of a damaged journal
        journal.close()
        raise
    return journal


def _damaged_name(path: Path, now: float) -> Path:
    """``<name>.damaged-<time>``: where a damaged file (or a copy of it) is kept."""
    return path.with_name(
        f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now))}"
    )


def move_aside(path: Path, now: float) -> Path:
    """Rename the journal and its ``-wal`` to ``<name>.damaged-<time>``; the new name."""
    first = target = _damaged_name(path, now)
    count = 1
    while target.exists():
        count += 1
        target = first.with_name(f"{first.name}-{count}")
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


def _keep_wal(path: Path, now: float) -> Path:
    damaged = _damaged_name(path, now)
    target = damaged.with_name(damaged.name + "-wal")
    shutil.copyfile(path.with_name(path.name + "-wal"), target)
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
    sync_folder(
        path.parent
    )  # the damaged file's new name and the restored one, after a power cut too


_WAL_MAGIC = (0x377F0682, 0x377F0683)  # the write-ahead log's header: checksums little / big endian
_WAL_HEADER, _FRAME_HEADER = 32, 24


def _wal_sums(data: bytes, big: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's write-ahead log checksum (its file format, section 4.3) over ``data``."""
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(path: Path) -> int | None:
    """How many committed changes of ``path``'s write-ahead log lie beyond a damaged frame, which
    SQLite would drop without a word (it takes a bad checksum for the log's end); None when the log
    is whole or absent.  Frames of an older log (other salts) left after a reset are not counted."""
    wal = path.with_name(path.name + "-wal")
    try:
        data = wal.read_bytes()
    except OSError:
        return None
    if len(data) < _WAL_HEADER:
        return None
    magic, _, page_size, _, salt1, salt2, sum1, sum2 = struct.unpack(">8I", data[:_WAL_HEADER])
    if magic not in _WAL_MAGIC or page_size & (page_size - 1) or not 512 <= page_size <= 65536:
        return 0 if any(data) else None  # a header SQLite cannot use: whatever it held is lost
    big = magic & 1 == 1
    s0, s1 = _wal_sums(data[:24], big, 0, 0)
    if (s0, s1) != (sum1, sum2):
        return sum(1 for _ in _commits(data, page_size, salt1, salt2))
    at = _WAL_HEADER
    frame = _FRAME_HEADER + page_size
    while at + frame <= len(data):
        head = data[at : at + _FRAME_HEADER]
        _, commit, f1, f2, c1, c2 = struct.unpack(">6I", head)
        if (f1, f2) != (salt1, salt2):
            # The log's end, and an older log's frames after it (their salts differ in many bits) —
            # or this frame's salt took a flipped bit, and this log's frames go on after it.
            flipped = bin(f1 ^ salt1).count("1") + bin(f2 ^ salt2).count("1") == 1
            lost = sum(1 for _ in _commits(data[at:], page_size, salt1, salt2, start=0)) + (
                flipped and commit != 0
            )
            return lost or (0 if flipped else None)
        s0, s1 = _wal_sums(head[:8] + data[at + _FRAME_HEADER : at + frame], big, s0, s1)
        if (s0, s1) != (c1, c2):
            lost = sum(1 for _ in _commits(data[at:], page_size, salt1, salt2, start=0))
            return lost or None
        at += frame
    return None


def _commits(
    data: bytes, page_size: int, salt1: int, salt2: int, start: int = _WAL_HEADER
) -> Iterator[int]:
    """The commit frames of this log (its salts) in ``data`` from ``start``."""
    frame = _FRAME_HEADER + page_size
    for at in range(start, len(data) - frame + 1, frame):
        _, commit, f1, f2 = struct.unpack(">4I", data[at : at + 16])
        if (f1, f2) == (salt1, salt2) and commit:
            yield at


def behind_backup(journal: Journal) -> str | None:
    """Why the journal is older than its own backup, if it is: a game the backup has and it has
    not, or fewer changes kept.  Only damage does that (a write-ahead log cut short at a damaged
    frame): the backup is a copy of this journal from the past.

    A game the journal deleted (its tombstone) is not missing: the backup was made before the
    deletion (the power went before the backup that follows one).  That backup is due again, so
    that a later restore does not bring the game back."""
    backup = backup_path(journal.path)
    if not backup.exists():
        return None
    try:
        reader = Reader.open(backup)
        try:
            kept = reader.tips()
        finally:
            reader.close()
    except JournalError:
        return None  # an unreadable backup says nothing about the journal
    gone = journal.deleted()
    if gone.keys() & kept.keys():
        journal.back_up_soon()
    ours = {info.id: info.tip for info in journal.games()}
    for game, tip in sorted(kept.items()):
        if game not in gone and ours.get(game, -1) < tip:
            have = ours.get(game)
            return (
                f"the backup has change {tip} of game {game}, the journal {'no such game' if have is None else f'only {have}'}"
                " (its write-ahead log was cut short)"
            )
    return None


def open_journal(
    path: Path, *, recover: bool = True, clock: Callable[[], float] = time.time, **options: Any
) -> tuple[Journal, Recovery | None]:
    """Open and check the journal at ``path``; with ``recover``, replace a damaged one by its
    backup (or an empty journal) as described above.  ``options`` go to ``Journal``.

    With ``recover``, what grows with the game is checked on a thread after this returns
    (``Journal.check``); without it (a file the user named), everything is checked here."""
    if recover and _both_empty(path):
        return _set_aside_empty(path, options, clock)
    lost = wal_damage(path) if recover else None
    kept: Path | None = None
    if lost is not None:  # a copy of the damaged log, before SQLite reads it and drops what follows
        kept = _keep_wal(path, clock())
    try:
        journal = _open_checked(path, options, whole=not recover)
        behind = behind_backup(journal) if recover else None
        if behind is None:
            if recover:
                journal.recoverable = True
                start_check(journal)
            if kept is None:
                return journal, None
            what = (
                f"{lost} saved change(s) after the damage are lost"
                if lost
                else "the changes it held are lost"
            )
            recovery = Recovery(
                f"its write-ahead log is damaged: {what}", kept, None, None, resumed=True
            )
            log.warning("%s", recovery.message())
            return journal, recovery
        journal.backup_every = 0  # its backup is the newer copy: keep it
        journal.close()
        raise JournalCorrupt(path, behind)
    except JournalCorrupt as error:
        if not recover:
            raise
        problem = _problem(error)
        # Only a detail: what the recovery did, with this problem in it, is the warning after it.
        log.info("%s: the journal is damaged: %s", path, problem)
    return _recover(path, problem, options, clock)


def _both_empty(path: Path) -> bool:
    """The journal and its backup both regular files of 0 bytes, with no write-ahead log: what a
    file system that lost both files' contents leaves (aetherbox never writes an empty backup).
    An empty journal alone is one created a moment before the power went, and says nothing."""

    def empty(file: Path) -> bool:
        try:
            found = os.stat(file)
        except OSError:
            return False
        return stat.S_ISREG(found.st_mode) and found.st_size == 0

    wal = path.with_name(path.name + "-wal")
    return empty(path) and empty(backup_path(path)) and not (wal.exists() and wal.stat().st_size)


def _set_aside_empty(
    path: Path, options: dict[str, Any], clock: Callable[[], float]
) -> tuple[Journal, Recovery]:
    """Both empty: kept beside the new journal under their ``.damaged-<time>`` names, and said."""
    now = clock()
    damaged = move_aside(path, now)
    backup = backup_path(path)
    kept = _damaged_name(backup, now)
    count = 1
    while kept.exists():
        count += 1
        kept = kept.with_name(f"{_damaged_name(backup, now).name}-{count}")
    os.replace(backup, kept)
    sync_folder(path.parent)
    journal = Journal(path, **{**options, "quick_check": True})
    recovery = Recovery(
        "the journal and its backup are empty", damaged, None, None, empty_backup=kept
    )
    log.warning("%s", recovery.message())
    journal.recoverable = True
    return journal, recovery


def confirm(journal: Journal, verdict: JournalCorrupt) -> JournalCorrupt | None:
    """The check's verdict of damage, checked again from the file while the game's thread waits
    for it, so that no change comes in the meantime: the damage, or None when the journal reads
    whole after all.  Recovery sets aside the journal and goes back to the backup, losing what
    came after it, so it must not follow a verdict the file does not bear out."""
    try:
        damaged = _check_whole(journal.path)
    except JournalCorrupt as error:
        return error
    log.warning(
        "%s: the check after start-up found %s, but the journal reads whole: it is kept as it is",
        journal.path,
        _problem(verdict),
    )
    game = journal.last_game()
    if game is not None and damaged:
        repair(journal, game, damaged)
    return None


def recover_late(
    journal: Journal, error: JournalError, clock: Callable[[], float] = time.time
) -> tuple[Journal, Recovery]:
    """Damage found after start-up (by the check on its thread, or by a read while the game went
    on): closed without a backup, then handled exactly as damage found at start-up."""
    path = journal.path
    problem = _problem(_as_damage(error))
    log.info("%s: the journal is damaged: %s", path, problem)
    journal.check = None  # its verdict is in, or no longer matters: do not wait for it
    journal.backup_every = 0  # never replace a good backup with a copy of a damaged journal
    journal.close()
    recovered, recovery = _recover(path, problem, journal.options, clock)
    recovered.recoverable = True
    return recovered, recovery


def _problem(error: JournalError) -> str:
    """What ``error`` says was wrong, for the recovery's message: without the advice about the
    file, which the recovery has followed, and on one line (SQLite's integrity check writes several)."""
    return " ".join(error.problem.split()).rstrip(".")


def tombstones(path: Path) -> dict[int, float]:
    """The games a damaged journal says were deleted, as far as it can still be read (nothing
    when it cannot): a restored backup may be older than a deletion."""
    try:
        reader = Reader.open(path)
        try:
            return reader.deleted()
        finally:
            reader.close()
    except (JournalError, ValueError, TypeError) as error:
        # Expected of a file SQLite cannot open: the recovery's warning says it is damaged.
        log.info("%s: the deleted games cannot be read from the damaged journal: %s", path, error)
        return {}


def _recover(
    path: Path, problem: str, options: dict[str, Any], clock: Callable[[], float]
) -> tuple[Journal, Recovery]:
    gone = tombstones(path)
    damaged = move_aside(path, clock())
    backup = backup_path(path)
    if backup.exists():
        backup_time = backup.stat().st_mtime
        try:
            _restore(backup, path)
            # Checked whole before it is used: a damaged backup must not be restored again later.
            journal = _open_checked(path, options)
        except (JournalCorrupt, OSError) as error:
            # A detail: the recovery's warning says there was no usable backup.
            log.info("%s: the backup %s cannot be used either: %s", path, backup, error)
            # The copy is ours, but keep it beside the damaged file rather than delete evidence.
            if path.exists():
                move_aside(path, clock())
        else:
            again = journal.keep_deleted(gone) if gone else []
            if again:
                log.warning(
                    "%s: game(s) %s, deleted after the backup was made, were deleted again",
                    path,
                    ", ".join(map(str, again)),
                )
            recovery = Recovery(problem, damaged, backup, backup_time)
            log.warning("%s", recovery.message())
            return journal, recovery
    journal = Journal(path, **{**options, "quick_check": True})
    recovery = Recovery(problem, damaged, None, None)
    log.warning("%s", recovery.message())
    return journal, recovery
