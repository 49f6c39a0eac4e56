"""The journal: every game's events in one SQLite file, durable before anything is shown.

The journal is the truth; a game's state is the fold of its events.  Each command is one
transaction (``BEGIN IMMEDIATE`` … ``COMMIT``), and callers show its events only after
``append`` returns, so an event shown is an event kept.

Durability on an SD card that loses power:
- WAL mode with ``synchronous=FULL`` on every connection: a commit has reached the disk when
  COMMIT returns.
- ``psow=0`` in the URI: SD cards may damage bytes next to the ones written, so SQLite must not
  assume a sector write leaves its neighbours alone.
- ``isolation_level=None`` and explicit transactions: Python's implicit transactions (and the
  autocommit change of 3.12) would otherwise decide when we commit.
- A failed COMMIT is never retried: after a failed fsync nobody knows what is on the disk.  The
  journal refuses further writes and the caller ends the process; the service restarts it, and
  SQLite's recovery brings the file back to the last good commit.
- A full disk is not such a failure: SQLite found no room for the change before committing it
  and rolled it back, and every change committed before is on the disk.  That change is refused
  (``JournalFull``, a refusal the screens show like any other) and the next one is tried
  afresh: writing resumes by itself once there is room again.

Undo and redo move a game's ``head`` (the number of the last transaction in effect); a new
command after an undo drops the undone transactions.  Snapshots of the state every
``snapshot_every`` transactions let a long game resume without replaying everything; they are
a cache, and an unreadable one is skipped.

One connection, owned by the thread that opened it (sqlite3 checks this), and one writer per
file: the journal file itself is locked (``flock`` on its inode, so a symlink or a hard link to
it finds the lock too), and a lock file beside its real path says which process holds it.

Backups: at the start of a game, every ``backup_every`` commits, after a game is deleted and on
a clean close after a change, SQLite's backup API copies the journal to ``<name>.bak`` beside it
(checked, synced, then renamed over the old one), so a journal damaged by the storage can be
recovered (``device.recovery``).  While the check of the whole journal that follows start-up is
running (``Journal.check``), backups wait for its verdict: a copy of an unchecked journal could
replace the good backup with damage.  The check gives way to presses: it waits, before each row
it reads, while the game's thread carries out a command (``Gate``).  Closing does not wait for
that verdict (the service stops within a second): a journal closed before it is in is not backed
up on closing, and the check, which only reads, ends with the process.

A break at the table is kept beside a game's history, not in it (table ``breaks``, one row a
break, written in a transaction of its own): undo and redo move the head and leave the breaks
as they are, and the state read at any head carries them (docs/decisions/0024).  A break row
whose checksum fails is left out, with a warning: the time it covered counts as played.

Deleting a game removes its rows in one transaction and leaves a tombstone (``deleted``): its
number is never given to another game, and a backup made before the deletion is known to be
older, not newer, than the journal (docs/decisions/0019).
"""

from __future__ import annotations

import json
import logging
import math
import os
import sqlite3
import stat
import threading
import time
import urllib.parse
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from msgspec import Struct
from pydantic import ValidationError

from device.game import GAME
from device.errors import (
    GameDamaged,
    IllegalCommand,
    JournalCorrupt,
    JournalError,
    JournalIOFailure,
    JournalLocked,
    JournalTooNew,
    JournalUnreadable,
)
from device.events import EVENT_SCHEMA, Event, GameStarted
from device.rules.registry import Ruleset
from device.state import STATE_SCHEMA, GameState
from device.state_clock import Break
from device.text import Message

try:  # the lock file needs POSIX locks; elsewhere (Windows laptops) it is skipped
    import fcntl
except ImportError:  # pragma: no cover - not on the Pi
    fcntl = None  # type: ignore[assignment]

#: 2: every row carries a checksum of what it says (crc); 3: deleted games leave a tombstone; 4: the
#: table's breaks are kept beside the history.
SCHEMA = 4
APPLICATION_ID = 0x41455448  # "AETH": marks the file as an aetherbox journal
JOURNAL_NAME = "aetherbox.sqlite3"

T = TypeVar("T")

#: How many rows the check after start-up fetches at a time (it looks at its ``Gate`` before
#: each row it checks, parses and folds).
BATCH = 64

#: Opens the journal's database from its URI with a busy timeout; tests pass another one to run
#: the same commit sequence over a simulated disk.
Connector = Callable[[str, float], sqlite3.Connection]

log = logging.getLogger("aetherbox.journal")

_TABLES = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    head INTEGER NOT NULL,  -- last transaction in effect
    tip INTEGER NOT NULL,   -- last transaction kept (head < tip after an undo)
    crc INTEGER             -- of (id, head, tip), see row_crc
);
CREATE TABLE txns (
    game INTEGER NOT NULL REFERENCES games(id),
    pos INTEGER NOT NULL,
    at REAL NOT NULL,
    command TEXT NOT NULL,  -- the command, as JSON
    summary TEXT NOT NULL,  -- what it did, as JSON messages (key, params, English text)
    crc INTEGER,            -- of (game, pos, at, command, summary)
    PRIMARY KEY (game, pos)
) WITHOUT ROWID;
CREATE TABLE events (
    game INTEGER NOT NULL,
    pos INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    schema INTEGER NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER,            -- of (game, pos, idx, schema, body)
    PRIMARY KEY (game, pos, idx)
) WITHOUT ROWID;
CREATE TABLE snapshots (
    game INTEGER NOT NULL,
    pos INTEGER NOT NULL,
    schema INTEGER NOT NULL,
    body TEXT NOT NULL,
    crc INTEGER,            -- of (game, pos, schema, body)
    PRIMARY KEY (game, pos)
) WITHOUT ROWID;
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE deleted (
    game INTEGER PRIMARY KEY,  -- a deleted game's number, never given again
    at REAL NOT NULL,          -- when it was deleted
    crc INTEGER                -- of (game, at)
);
"""

#: The table's breaks (version 4 on): apart from the history, so undo never takes one back.
_BREAKS = """
CREATE TABLE IF NOT EXISTS breaks (
    game INTEGER NOT NULL,
    idx INTEGER NOT NULL,   -- 1, 2, … in the order the breaks were taken
    began REAL NOT NULL,    -- when the clock stopped (wall seconds)
    ended REAL,             -- when it ran again, NULL while the break goes on
    crc INTEGER,            -- of (game, idx, began, ended)
    PRIMARY KEY (game, idx)
) WITHOUT ROWID
"""

#: Journal version 1 had no checksums: opening one adds them (to what it holds then).
_MIGRATE_1 = """
ALTER TABLE games ADD COLUMN crc INTEGER;
ALTER TABLE txns ADD COLUMN crc INTEGER;
ALTER TABLE events ADD COLUMN crc INTEGER;
ALTER TABLE snapshots ADD COLUMN crc INTEGER
"""

#: Journal version 2 could not delete a game: opening one adds the table of tombstones.
_MIGRATE_2 = """
CREATE TABLE IF NOT EXISTS deleted (game INTEGER PRIMARY KEY, at REAL NOT NULL, crc INTEGER)
"""

#: Journal version 3 kept a pause of the clock as a change: opening one adds the table of breaks
#: (the pauses it kept as changes stay changes, and replay as they did).
_MIGRATE_3 = _BREAKS

#: What ``Reader.copy`` copies for the check after start-up: these tables whole, and the rows of
#: the game that resumes in these.
_COPIED_WHOLE = ("games", "meta", "deleted")
_COPIED_GAME = ("txns", "events", "snapshots", "breaks")

#: ``meta``'s ``last_game`` when no game is shown (the one shown was deleted).
NO_GAME = ""


def row_crc(*parts: object) -> int:
    """The checksum a row keeps of what it says (HW-5): a flipped bit or digit in a stored event,
    text or head no longer matches it.  SQLite checks its pages' structure, not their content."""
    return zlib.crc32("\x1f".join(repr(part) for part in parts).encode())


def _read_break(game: int, idx: object, began: object, ended: object, crc: object) -> Break | None:
    """A stored break, or None when its checksum or what it says shows damage."""
    if crc != row_crc(game, idx, began, ended):
        return None
    if not isinstance(began, float) or not (ended is None or isinstance(ended, float)):
        return None
    if not math.isfinite(began) or ended is not None and not math.isfinite(ended):
        return None
    return Break(began=began, ended=ended)


def _without_breaks(state: GameState) -> GameState:
    """What a snapshot keeps: the fold of the events alone (the breaks are read beside it)."""
    if state.clock is None or not state.clock.breaks:
        return state
    return state.model_copy(update={"clock": state.clock.with_breaks(())})


def _text_damaged(game: int, row: Sequence[Any]) -> bool:
    """Whether a ``txns`` row (pos, at, command, summary, crc) no longer matches its checksum."""
    return row[4] is not None and row[4] != row_crc(game, *row[:4])


# SQLite's primary result codes (the low byte of ``sqlite_errorcode``).
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = (
    3,
    5,
    6,
    8,
    10,
    11,
    13,
    14,
    26,
)


class GameInfo(Struct, frozen=True):
    id: int
    title: str
    created: float
    updated: float
    head: int
    tip: int


class Txn(Struct, frozen=True):
    """One command's worth of journal: what was asked and what it did."""

    pos: int
    at: float
    command: dict[str, Any]
    summary: list[dict[str, Any]]
    undone: bool  # after an undo, until redone or dropped

    def messages(self) -> list[Message]:
        return [Message.from_json(m) for m in self.summary]


def default_path(data_dir: Path) -> Path:
    """The journal lives in its own directory, because SQLite puts -wal and -shm files beside it."""
    return data_dir / "games" / JOURNAL_NAME


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def stored_text(data: bytes) -> str:
    """A text as the journal stored it.  A flipped bit can leave it no longer UTF-8: it is read
    with the damaged bytes replaced, so its row's checksum finds the damage (a change's text is
    then said again from its events) instead of the read failing before anything can judge it."""
    return data.decode("utf-8", "replace")


def _connect_sqlite3(uri: str, timeout: float) -> sqlite3.Connection:
    return sqlite3.connect(uri, uri=True, isolation_level=None, timeout=timeout)


def _fsync(path: Path, flags: int = os.O_RDONLY) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: Path) -> None:
    """Make the renames in ``folder`` outlast a power cut (POSIX only: elsewhere a folder cannot
    be opened)."""
    if fcntl is not None:
        _fsync(folder, os.O_RDONLY | os.O_DIRECTORY)


class JournalFull(JournalError, IllegalCommand):
    """The storage is full: the change was not kept (SQLite rolled it back), nothing kept before
    it is lost, and the next change is tried afresh.  A refusal, shown like the rules' own."""

    def __init__(self, path: object, problem: str) -> None:
        IllegalCommand.__init__(self, "journal.full")
        self.path, self.problem, self.advice = path, problem, ""


#: What a path that is not a regular file is, for saying what is in the way (``JournalInTheWay``).
def _kind(mode: int, real: Path) -> Message:
    if stat.S_ISDIR(mode):
        return Message("journal.kind.folder")
    if stat.S_ISFIFO(mode):
        return Message("journal.kind.fifo")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Message("journal.kind.device", device=str(real))
    if stat.S_ISREG(mode):
        return Message("journal.kind.file")
    return Message("journal.kind.other")


class JournalInTheWay(JournalUnreadable):
    """Where the journal, its folder or its lock file goes, something else is (a folder, a named
    pipe, a link to ``/dev/null``, a file where the folder goes): moving it aside is the cure,
    not restarting or fixing the storage.  ``where`` is that path, ``kind`` what it is."""

    def __init__(self, path: object, where: Path, kind: Message) -> None:
        self.where, self.kind = where, kind
        super().__init__(
            path,
            f"cannot read and write the journal: {where} is {kind} where aetherbox keeps its "
            "saved games: move it aside, "
            "and aetherbox starts anew there",
        )


def in_the_way(path: Path, want_folder: bool = False) -> JournalInTheWay | None:
    """What is in the way at ``path`` (followed through links), when it is not the regular file
    (or with ``want_folder``, the folder) aetherbox needs there; None when nothing is there or it
    is what is needed.  Opening a named pipe would wait for a writer: it is never opened."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode) if want_folder else stat.S_ISREG(mode):
        return None
    return JournalInTheWay(path, path, _kind(mode, Path(os.path.realpath(path))))


def _classify(error: sqlite3.Error, path: Path, doing: str) -> JournalError:
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    text = str(error)
    damaged = (
        "not a database" in text or "malformed" in text or "decode" in text
    )  # bad UTF-8 in a row
    if code == _NOTADB or code == _CORRUPT or damaged:
        return JournalCorrupt(
            path,
            f"the journal is damaged or is not an aetherbox journal ({text}) while {doing}",
            advice="It has not been changed: move it aside to start afresh, or keep it for recovery.",
        )
    if code in (_BUSY, _LOCKED) or "locked" in text:
        return JournalLocked(
            path, f"the journal is in use by another program ({text}) while {doing}."
        )
    if code in (_READONLY, _CANTOPEN, _PERM) or "readonly" in text or "unable to open" in text:
        return JournalUnreadable(
            path,
            f"cannot read and write the journal ({text}) while {doing}. Check that this user "
            "owns the file and its directory, or choose another place with --db.",
        )
    if code == _FULL or "disk is full" in text:
        return JournalFull(path, f"the storage is full ({text}) while {doing}")
    if code == _IOERR or "I/O" in text:
        return JournalIOFailure(
            path,
            f"the storage failed ({text}) while {doing}. Nothing after "
            "the last saved change was kept; restart to resume the game.",
        )
    return JournalError(path, f"{text} while {doing}")


class Reader:
    """Reading the saved games: what start-up, the screens and the check of the whole journal use.

    ``Journal`` is the one that writes; ``Reader.open`` reads the same file on a connection of its
    own (another thread's), takes no lock and cannot write.
    """

    path: Path
    _db: sqlite3.Connection
    #: Event and snapshot rows this reader has read so far: what the tests count to show that
    #: resuming costs the same however long the game.
    events_read = 0
    snapshots_read = 0
    #: Whether the file has the table of breaks (None: not looked yet; a journal always has it
    #: once opened, a backup read for its games may be older).
    _keeps_breaks: bool | None = None
    #: The damaged break rows already warned of: once each, not at every read.
    _warned_breaks: set[tuple[int, int]]

    #: The rules its games are read and folded with: the gadget's whole game, unless the
    #: controller that plays it plays others (``Controller(journal, rules=…)``).
    rules: Ruleset = GAME

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        db.text_factory = stored_text
        self._db = db
        self._warned_breaks = set()

    @classmethod
    def open(cls, path: Path | str) -> Reader:
        path = Path(path)
        uri = "file:" + urllib.parse.quote(str(path.absolute())) + "?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=True)
        except sqlite3.Error as error:
            raise _classify(error, path, "opening it to check it") from error
        return cls(path, db)

    @classmethod
    def copy(cls, path: Path | str) -> Reader:
        """What the check after start-up reads of the journal at ``path`` — the game that resumes
        (its rows in every table), the games' own rows, ``meta`` and the tombstones — copied into
        memory at one moment, by SQLite alone (the interpreter is free meanwhile).  The check then
        reads the copy for as long as it takes: a reader of the journal itself would hold its
        write-ahead log all that time, which makes every commit meanwhile grow the file instead of
        writing it again from its start.  Costs the memory of that game's rows."""
        path = Path(path)
        uri = "file:" + urllib.parse.quote(str(path.absolute())) + "?mode=ro"
        db = sqlite3.connect(
            "file::memory:", uri=True, isolation_level=None, check_same_thread=True
        )
        try:
            db.execute("ATTACH DATABASE ? AS journal", (uri,))
            db.execute("BEGIN")
            tables = dict(
                db.execute(
                    "SELECT name, sql FROM journal.sqlite_master WHERE type = 'table'"
                ).fetchall()
            )
            for name in (*_COPIED_WHOLE, *_COPIED_GAME):
                if name in tables:
                    db.execute(tables[name])
            for name in _COPIED_WHOLE:
                if name in tables:
                    db.execute(f"INSERT INTO main.{name} SELECT * FROM journal.{name}")
            game = cls(path, db).last_game()
            for name in _COPIED_GAME:
                if name in tables and game is not None:
                    db.execute(
                        f"INSERT INTO main.{name} SELECT * FROM journal.{name} WHERE game = ?",
                        (game,),
                    )
            db.execute("COMMIT")
            db.execute("DETACH DATABASE journal")
        except sqlite3.Error as error:
            db.close()
            raise _classify(error, path, "reading it") from error
        except BaseException:
            db.close()
            raise
        return cls(path, db)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def at_one_moment(self) -> Iterator[None]:
        """Every read inside reads the file as it was when the first one began: a check on its own
        thread must not take a change the game's thread commits between two of its reads (a head
        read before an undo, the events after it) for rows that do not make a game."""
        try:
            self._db.execute("BEGIN")
        except sqlite3.Error as error:
            raise _classify(error, self.path, "reading it") from error
        try:
            yield
        finally:
            if self._db.in_transaction:
                try:
                    self._db.execute("ROLLBACK")  # it only read
                except sqlite3.Error:
                    pass  # the connection is closed with it, ending the read

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as error:
            raise _classify(error, self.path, "reading it") from error

    def _rows(self, sql: str, args: Sequence[Any], pause: Callable[[], None]) -> Iterator[Any]:
        """The rows of ``sql`` one at a time, ``pause`` before each: what the check reads, so that
        whatever it does with a row (check it, parse it, fold it) is done before it looks at its
        gate again.  They are fetched ``BATCH`` at a time, never all at once: the check must not
        hold a whole game's rows, which would also make the collector's full passes long (nothing
        interrupts them)."""
        try:
            cursor = self._db.execute(sql, args)
        except sqlite3.Error as error:
            raise _classify(error, self.path, "reading it") from error
        while True:
            try:
                batch = cursor.fetchmany(BATCH)
            except sqlite3.Error as error:
                raise _classify(error, self.path, "reading it") from error
            if not batch:
                return
            for row in batch:
                pause()
                yield row

    # The title is read as bytes: it has no checksum, and a flipped byte that leaves it no longer
    # UTF-8 must not make the list of games unreadable (it is shown as it can be read).
    _GAME = "SELECT id, CAST(title AS BLOB), created, updated, head, tip, crc FROM games"

    def games(self) -> list[GameInfo]:
        """Every saved game, the one played last first."""
        rows = self._read(self._GAME + " ORDER BY updated DESC, id DESC")
        return [self._game_info(row) for row in rows]

    def tips(self) -> dict[int, int]:
        """Each game's last kept change, read as it is (a backup may predate the checksums)."""
        return {int(game): int(tip) for game, tip in self._read("SELECT id, tip FROM games")}

    def game(self, game: int) -> GameInfo:
        rows = self._read(self._GAME + " WHERE id = ?", (game,))
        if not rows:
            raise KeyError(game)
        return self._game_info(rows[0])

    def _game_info(self, row: Sequence[Any]) -> GameInfo:
        game, title, created, updated, head, tip, crc = row
        if crc is not None and crc != row_crc(game, head, tip) or not 0 <= head <= tip:
            raise JournalCorrupt(
                self.path,
                f"game {game}'s place in its history does not match its checksum",
                advice="It has not been changed: keep it for recovery.",
            )
        said = (
            bytes(title).decode("utf-8", errors="replace")
            if isinstance(title, bytes)
            else str(title)
        )
        return GameInfo(game, said, created, updated, head, tip)

    def last_game(self) -> int | None:
        """The game shown when the gadget stopped; None when none was (the one shown was deleted)."""
        rows = self._read("SELECT value FROM meta WHERE key = 'last_game'")
        if rows:
            return None if rows[0][0] == NO_GAME else int(rows[0][0])
        rows = self._read("SELECT id FROM games ORDER BY updated DESC, id DESC LIMIT 1")
        return int(rows[0][0]) if rows else None

    def meta(self, key: str) -> str | None:
        """A value the gadget keeps beside its games (``Journal.set_meta``), or None."""
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def deleted(self) -> dict[int, float]:
        """The deleted games' numbers and when each was deleted (a tombstone whose checksum fails
        is left out; a journal from before deleting, a backup say, has none)."""
        if not self._read(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'deleted'"
        ):
            return {}
        rows = self._read("SELECT game, at, crc FROM deleted")
        return {
            int(game): float(at)
            for game, at, crc in rows
            if crc is None or crc == row_crc(game, at)
        }

    _TXN = "SELECT pos, at, command, summary, crc FROM txns WHERE game = ?"

    def _txn(self, game: int, pos: int, *, undone: bool) -> Txn:
        rows = self._read(self._TXN + " AND pos = ?", (game, pos))
        row = rows[0] if rows else None
        if row is None:
            raise JournalCorrupt(
                self.path,
                f"change {pos} of game {game} is missing",
                advice="Keep the file for recovery.",
            )
        return self._read_txn(game, row, undone=undone)

    def _read_txn(self, game: int, row: Sequence[Any], *, undone: bool) -> Txn:
        """A stored change; one whose text the storage damaged is said again from its events,
        which the journal checks on their own (HW-5: what the gadget shows, never a traceback)."""
        kept = self._kept_txn(game, row, undone=undone)
        if kept is not None:
            return kept
        pos, at = row[0], row[1]
        # A detail, each time it is read: start-up's check finds the damage once, and the warning
        # is the repair's (device.recovery.repair).
        log.info(
            "%s: the text of change %s in game %s is damaged; it is said again from its events",
            self.path,
            pos,
            game,
        )
        return Txn(
            pos=pos,
            at=at,
            command={"damaged": True},
            summary=self._say_again(game, pos),
            undone=undone,
        )

    @staticmethod
    def _kept_txn(game: int, row: Sequence[Any], *, undone: bool) -> Txn | None:
        """The change as stored, or None when its checksum or its text shows damage."""
        if _text_damaged(game, row):
            return None
        pos, at, command, summary, _ = row
        try:
            said, done = json.loads(command), json.loads(summary)
            if isinstance(said, dict) and isinstance(done, list):
                txn = Txn(pos=pos, at=at, command=said, summary=done, undone=undone)
                txn.messages()  # every message must read, too
                return txn
        except (ValueError, TypeError, KeyError, AttributeError):
            pass
        return None

    def _say_again(self, game: int, pos: int) -> list[dict[str, Any]]:
        before = None if pos == 0 else self._fold(game, -1, pos - 1, None)
        events = [event for _, event in self._iter_events(game, pos - 1, pos)]
        messages, _ = self.rules.play(before, events)
        return [m.to_json() for m in messages]

    def last_change(self, game: int) -> Txn | None:
        """The last transaction in effect after the game's start, or None right after it."""
        head = self.game(game).head
        if head == 0:
            return None
        return self._txn(game, head, undone=False)

    def history(self, game: int) -> list[Txn]:
        """Every kept transaction, oldest first; the undone ones are marked."""
        head = self.game(game).head
        rows = self._read(self._TXN + " ORDER BY pos", (game,))
        return [self._read_txn(game, row, undone=row[0] > head) for row in rows]

    def state(self, game: int, pause: Callable[[], None] | None = None) -> GameState:
        """The game's state at its head: the newest good snapshot, then the events after it;
        ``pause`` as for ``replay``."""
        head = self.game(game).head
        base: GameState | None = None
        since = -1
        # Newest first, one at a time: the first good one ends the search, the rest stay unread.
        below = head + 1
        while base is None:
            rows = self._read(
                "SELECT pos, schema, body, crc FROM snapshots WHERE game = ? AND pos < ? ORDER BY pos DESC LIMIT 1",
                (game, below),
            )
            if not rows:
                break
            pos, schema, body, crc = rows[0]
            below = pos
            self.snapshots_read += 1
            if (
                schema != STATE_SCHEMA
                or crc is not None
                and crc != row_crc(game, pos, schema, body)
            ):
                continue
            try:
                base = GameState.model_validate_json(body)
            except ValidationError:
                continue  # a snapshot is only a cache: fold from further back
            since = pos
        return self._with_breaks(game, self._fold(game, since, head, base, pause))

    def replay(self, game: int, pause: Callable[[], None] | None = None) -> GameState:
        """The state from every event since the start, ignoring snapshots; ``pause`` is called
        before each event is read, checked and folded (the check on its own thread gives way to
        a press there, see ``Gate``)."""
        return self._with_breaks(game, self._fold(game, -1, self.game(game).head, None, pause))

    # --- breaks -------------------------------------------------------------------------

    def _with_breaks(self, game: int, state: GameState) -> GameState:
        """``state`` with the game's breaks on its clock: whatever the head, the breaks taken."""
        if state.clock is None:
            return state  # a clock started again after an undo counts from its own start
        return state.model_copy(update={"clock": state.clock.with_breaks(self.breaks(game))})

    def breaks(self, game: int) -> tuple[Break, ...]:
        """The breaks taken in ``game``, oldest first.  A row whose checksum fails (or that does
        not say a break) is left out with a warning: its time counts as played, and the game
        plays on."""
        return tuple(kept for _, kept in self._break_rows(game))

    def _break_rows(self, game: int) -> list[tuple[int, Break]]:
        if self._keeps_breaks is None:
            self._keeps_breaks = bool(
                self._read(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'breaks'"
                )
            )
        if not self._keeps_breaks:
            return []  # a journal from before (a backup read for its games) kept none apart
        rows = self._read(
            "SELECT idx, began, ended, crc FROM breaks WHERE game = ? ORDER BY idx", (game,)
        )
        kept = []
        for idx, began, ended, crc in rows:
            found = _read_break(game, idx, began, ended, crc)
            if found is not None:
                kept.append((int(idx), found))
            elif (game, idx) not in self._warned_breaks:
                self._warned_breaks.add((game, idx))
                log.warning(
                    "%s: break %s of game %s is damaged and left out: the time it covered counts as played",
                    self.path,
                    idx,
                    game,
                )
        return kept

    def events(self, game: int, upto: int | None = None) -> list[tuple[int, Event]]:
        """The events in effect (or up to ``upto``), with their transaction positions."""
        head = self.game(game).head if upto is None else upto
        return list(self._iter_events(game, -1, head))

    def events_at(self, game: int, pos: int) -> list[Event]:
        """The events of the change at ``pos`` alone (reading one change's rows, however long
        the game)."""
        return [event for _, event in self._iter_events(game, pos - 1, pos)]

    _EVENTS = "SELECT pos, idx, schema, body, crc FROM events WHERE game = ? AND pos > ? AND pos <= ? ORDER BY pos, idx"

    def _iter_events(self, game: int, after: int, upto: int) -> list[tuple[int, Event]]:
        return list(self._read_events(game, self._read(self._EVENTS, (game, after, upto))))

    def _read_events(self, game: int, rows: Iterable[Sequence[Any]]) -> Iterator[tuple[int, Event]]:
        for pos, idx, schema, body, crc in rows:
            self.events_read += 1
            if crc is not None and crc != row_crc(game, pos, idx, schema, body):
                raise GameDamaged(
                    self.path,
                    f"event {idx} of change {pos} in game {game} does not match its checksum",
                    advice="It has not been changed: keep it for recovery.",
                )
            if schema > EVENT_SCHEMA:
                raise JournalTooNew(
                    self.path,
                    f"game {game} has events written by a newer aetherbox (event version "
                    f"{schema}, this one reads up to {EVENT_SCHEMA}). Update aetherbox; the file has not been changed.",
                )
            try:
                event = self.rules.parse_event(body)
            except ValidationError as error:
                raise GameDamaged(
                    self.path,
                    f"event {idx} of change {pos} in game {game} cannot be read "
                    f"({error.error_count()} problem(s), first: {error.errors()[0]['msg']})",
                    advice="It has not been changed: keep it for recovery.",
                ) from error
            yield pos, event

    def _fold(
        self,
        game: int,
        after: int,
        upto: int,
        base: GameState | None,
        pause: Callable[[], None] | None = None,
    ) -> GameState:
        """The state after the events from ``after`` to ``upto``; with ``pause``, each event read,
        checked and folded in turn (``_rows``), else all read and checked first."""
        found = (
            self._iter_events(game, after, upto)
            if pause is None
            else self._read_events(game, self._rows(self._EVENTS, (game, after, upto), pause))
        )
        return self.rules.fold((event for _, event in found), base)

    def damaged_texts(self, game: int, pause: Callable[[], None] | None = None) -> list[int]:
        """The changes of ``game`` whose stored text no longer matches its checksum; ``pause``
        as for ``replay``."""
        rows = (
            self._read(self._TXN, (game,))
            if pause is None
            else self._rows(self._TXN, (game,), pause)
        )
        return [row[0] for row in rows if _text_damaged(game, row)]

    def integrity_check(self) -> list[str]:
        return [row[0] for row in self._read("PRAGMA integrity_check")]


class Gate:
    """Presses first: what the check after start-up looks at before each row it reads.

    The game's thread closes it while it carries out a command (``closed``: ``Controller.execute``,
    undo, redo, loading a game); the check, on its own thread, waits while it is closed
    (``through``).  Two threads running Python share one interpreter lock, and a thread that
    wants it back (after each SQLite call or fsync of a press) waits up to the switch interval,
    5 ms, each time: a press made while the check replayed took 25–60 ms instead of 1.  Waiting,
    the check leaves the interpreter to the press, which waits at most for the row the check
    was on.

    The wait is bounded, so the check finishes however the presses come: it gives way for at
    most ``patience`` seconds plus ``held`` of the time it has run (so it takes at most
    ``1 / (1 - held)`` times as long as alone, and a little more); when that is used up it works
    ``share`` seconds before it looks again.  Presses at a table, seconds apart, never use it up.
    """

    patience = 0.2
    held = 0.8
    share = 0.05

    def __init__(self) -> None:
        self._open = threading.Event()
        self._open.set()
        self._lock = threading.Lock()
        self._closed = 0  # closes not yet undone (a command inside a command)
        self._began = time.monotonic()
        self._waited = 0.0  # seconds the check has given way, in all
        self._own_until = 0.0  # the check does not look before this (time.monotonic)
        #: The times the check gave way to a press, and those it stopped waiting for one.
        self.gave_way = 0
        self.overran = 0

    @contextmanager
    def closed(self) -> Iterator[None]:
        """The game's thread: a command is carried out inside."""
        with self._lock:
            self._closed += 1
            self._open.clear()
        try:
            yield
        finally:
            with self._lock:
                self._closed -= 1
                if not self._closed:
                    self._open.set()

    def through(self) -> None:
        """The check's thread, before a row: on at once, or once the gate opens, or when it has
        given way as long as it may."""
        if self._open.is_set():
            return
        now = time.monotonic()
        if now < self._own_until:
            return
        self.gave_way += 1
        # waited + wait <= patience + held * (ran + wait)
        may = (self.patience + self.held * (now - self._began) - self._waited) / (1 - self.held)
        opened = may > 0 and self._open.wait(may)
        self._waited += time.monotonic() - now
        if not opened:
            self.overran += 1
            self._own_until = time.monotonic() + self.share


class Check:
    """A check of the whole journal that runs on a thread of its own while the game goes on
    (``device.recovery`` starts it after a constant-time start-up; ``Controller.idle`` acts on
    its verdict).  ``work`` raises ``JournalError`` for damage, or returns the changes of
    ``game`` whose text must be written again; it looks at ``gate`` before each row it reads,
    and the game's thread closes that while it carries out a command."""

    def __init__(
        self, game: int | None, work: Callable[[], list[int]], gate: Gate | None = None
    ) -> None:
        self.game = game
        self.gate = gate if gate is not None else Gate()
        self.error: Exception | None = None
        self.damaged_texts: list[int] = []
        self._work = work
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._thread = threading.Thread(target=self._run, name="journal-check", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.damaged_texts = self._work()
        except Exception as error:  # noqa: BLE001 - the verdict, for the game's thread to act on
            self.error = error
        finally:
            with self._lock:
                self._done.set()
                callbacks, self._callbacks = self._callbacks, []
            for callback in callbacks:
                callback()

    def when_done(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (from the check's thread, or now if the verdict is in) once the
        verdict is in: the kiosk wakes its loop with it, to act on the verdict at once."""
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def finished(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the verdict; whether it is in."""
        return self._done.wait(timeout)


class Journal(Reader):
    """The saved games.  Open it with ``Journal(path)``; close it (or use ``with``)."""

    def __init__(
        self,
        path: Path | str,
        *,
        snapshot_every: int = 64,
        timeout: float = 0.5,
        backup_every: int = 25,
        connect: Connector = _connect_sqlite3,
        defer_backups: bool = False,
        quick_check: bool = True,
    ) -> None:
        self.path = Path(path)
        self._warned_breaks = set()
        #: The check of the whole journal still running after start-up, if one is; backups wait
        #: for its verdict, so a damaged journal never replaces a good backup.
        self.check: Check | None = None
        #: Whether damage found while running may be recovered from like damage found at start
        #: (``device.recovery.open_journal`` with ``recover``: aetherbox's own journal).
        self.recoverable = False
        #: How to open this journal again (after recovery replaced its file).
        self.options: dict[str, Any] = {
            "snapshot_every": snapshot_every,
            "timeout": timeout,
            "backup_every": backup_every,
            "connect": connect,
            "defer_backups": defer_backups,
            "quick_check": quick_check,
        }
        self.snapshot_every = snapshot_every
        self.backup_every = backup_every  # 0: no backups at all
        # The kiosk and the console back up when they are idle (``backup_if_due``), not between a
        # press and the frame that shows it: a whole-journal copy takes seconds on an SD card.
        self.defer_backups = defer_backups
        self._backup_due = False
        self._changed = False  # a change was committed since the last backup (or since opening)
        self._connector = connect
        self._broken: JournalError | None = None
        self._lock_fd: int | None = None
        self._file_fd: int | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            for folder in (self.path.parent, *self.path.parent.parents):
                blocking = in_the_way(folder, want_folder=True)
                if blocking is not None and os.path.lexists(folder):
                    raise JournalInTheWay(self.path, folder, blocking.kind) from error
            raise JournalUnreadable(
                self.path, f"cannot create its directory: {error.strerror}"
            ) from error
        blocking = in_the_way(self.path)
        if blocking is not None:
            raise JournalInTheWay(self.path, self.path, blocking.kind)
        self._take_lock()
        try:
            self._db = self._connect(timeout)
        except BaseException:
            self._release_lock()
            raise
        try:
            self._check()
        except BaseException:
            self.backup_every = 0  # a journal that failed its check must not replace the backup
            self.close()
            raise

    # --- opening ------------------------------------------------------------------------

    def _take_lock(self) -> None:
        if fcntl is None:
            return
        real = Path(os.path.realpath(self.path))  # the same lock file however the path is given
        lock_path = real.with_name(real.name + ".lock")
        blocking = in_the_way(lock_path)
        if blocking is not None:
            raise JournalInTheWay(self.path, lock_path, blocking.kind)
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise JournalUnreadable(
                self.path, f"cannot create the lock file {lock_path}: {error.strerror}"
            ) from error
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder else ""
            raise JournalLocked(
                self.path,
                f"another aetherbox is using this journal{who}. Stop it first, or use "
                "another journal with --db.",
            ) from error
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._lock_fd = fd
        self._lock_file(real)

    def _lock_file(self, real: Path) -> None:
        """Lock the journal file's inode (a hard link has another name and the same inode).  The
        descriptor stays open until the database is closed: closing any descriptor of the file
        would drop SQLite's own POSIX locks on it."""
        try:
            fd = os.open(real, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            self._release_lock()
            raise JournalUnreadable(
                self.path,
                f"cannot read and write the journal ({error.strerror}) while opening it. Check that "
                "this user may write the file and its directory, or choose another file with --db.",
            ) from error
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(fd)
            self._release_lock()
            raise JournalLocked(
                self.path,
                "another aetherbox is using this journal (under another name). Stop it first, or "
                "use another journal with --db.",
            ) from error
        self._file_fd = fd

    def _release_lock(self) -> None:
        if self._file_fd is not None:
            os.close(self._file_fd)  # only after the database is closed (see _lock_file)
            self._file_fd = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the flock
            self._lock_fd = None

    def _connect(self, timeout: float) -> sqlite3.Connection:
        uri = "file:" + urllib.parse.quote(str(self.path.absolute())) + "?psow=0"
        try:
            db = self._connector(uri, timeout)
            db.text_factory = stored_text
        except sqlite3.Error as error:
            raise _classify(error, self.path, "opening it") from error
        try:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            db.execute("PRAGMA synchronous=FULL")
            if str(mode).lower() != "wal":
                raise JournalUnreadable(
                    self.path, f"SQLite would not use WAL mode here (got {mode!r})."
                )
        except sqlite3.Error as error:
            db.close()
            raise _classify(error, self.path, "opening it") from error
        except BaseException:
            db.close()
            raise
        return db

    def _check(self) -> None:
        db = self._db
        try:
            # A whole-file pass: ``device.recovery`` opens without it and checks on a thread.
            problems = (
                [row[0] for row in db.execute("PRAGMA quick_check")]
                if self.options["quick_check"]
                else ["ok"]
            )
            if problems != ["ok"]:
                raise JournalCorrupt(
                    self.path,
                    f"the integrity check failed: {'; '.join(problems[:3])}",
                    advice="It has not been changed: move it aside to start afresh, or keep it for recovery.",
                )
            version = db.execute("PRAGMA user_version").fetchone()[0]
            app = db.execute("PRAGMA application_id").fetchone()[0]
            tables = {
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        except sqlite3.Error as error:
            raise _classify(error, self.path, "checking it") from error
        if version == 0 and not tables:
            self._transaction(self._create, "creating it")
            return
        if app != APPLICATION_ID:
            raise JournalCorrupt(
                self.path,
                "this SQLite file is not an aetherbox journal",
                advice="It has not been changed; choose another file with --db.",
            )
        if version > SCHEMA:
            raise JournalTooNew(
                self.path,
                f"the journal was written by a newer aetherbox (journal version {version}, "
                f"this one reads up to {SCHEMA}). Update aetherbox; the file has not been changed.",
            )
        if version == 1:
            self._transaction(self._migrate_1, "adding checksums to it")
        if version <= 2:
            self._transaction(self._migrate_2, "adding the table of deleted games to it")
        if version <= 3:
            self._transaction(self._migrate_3, "adding the table of breaks to it")

    def _migrate_3(self) -> None:
        self._db.execute(_MIGRATE_3)
        self._db.execute(f"PRAGMA user_version={SCHEMA}")

    def _migrate_2(self) -> None:
        self._db.execute(_MIGRATE_2)
        self._db.execute("PRAGMA user_version=3")

    def _migrate_1(self) -> None:
        db = self._db
        for statement in _MIGRATE_1.split(";"):
            db.execute(statement)
        for game, head, tip in db.execute("SELECT id, head, tip FROM games").fetchall():
            db.execute("UPDATE games SET crc = ? WHERE id = ?", (row_crc(game, head, tip), game))
        for game, pos, at, command, summary in db.execute(
            "SELECT game, pos, at, command, summary FROM txns"
        ).fetchall():
            db.execute(
                "UPDATE txns SET crc = ? WHERE game = ? AND pos = ?",
                (row_crc(game, pos, at, command, summary), game, pos),
            )
        for game, pos, idx, schema, body in db.execute(
            "SELECT game, pos, idx, schema, body FROM events"
        ).fetchall():
            db.execute(
                "UPDATE events SET crc = ? WHERE game = ? AND pos = ? AND idx = ?",
                (row_crc(game, pos, idx, schema, body), game, pos, idx),
            )
        for game, pos, schema, body in db.execute(
            "SELECT game, pos, schema, body FROM snapshots"
        ).fetchall():
            db.execute(
                "UPDATE snapshots SET crc = ? WHERE game = ? AND pos = ?",
                (row_crc(game, pos, schema, body), game, pos),
            )
        db.execute("PRAGMA user_version=2")

    def _create(self) -> None:
        for statement in _TABLES.split(";"):
            if statement.strip():
                self._db.execute(statement)
        self._db.execute(_BREAKS)
        self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        self._db.execute(f"PRAGMA user_version={SCHEMA}")

    def close(self) -> None:
        try:
            if self.check is not None and (
                not self.check.finished() or self.check.error is not None
            ):
                self.backup_every = 0  # a backup only of a journal that passed its check
            if self.backup_every and self._broken is None and self._changed:
                self.backup()
            self._db.close()
        finally:
            self._release_lock()

    def backup(self) -> Path | None:
        """Copy the journal as of its last commit to ``<name>.bak``; None (and a log line) if that
        failed.  The old backup is replaced only by a copy that passed SQLite's check."""
        target = backup_path(self.path)
        partial = target.with_name(target.name + ".partial")
        try:
            partial.unlink(missing_ok=True)
            copy = sqlite3.connect(partial, isolation_level=None)
            try:
                self._db.backup(copy)
                # A rollback-journal file is one self-contained file: safe to rename.
                copy.execute("PRAGMA journal_mode=DELETE")
                problems = [row[0] for row in copy.execute("PRAGMA quick_check")]
            finally:
                copy.close()
            if problems != ["ok"]:
                raise sqlite3.DatabaseError(f"the copy failed its check: {'; '.join(problems[:3])}")
            _fsync(partial)
            os.replace(partial, target)
            self._changed = False
            sync_folder(target.parent)
        except (sqlite3.Error, OSError) as error:
            log.warning("%s: could not back up the journal to %s: %s", self.path, target, error)
            try:
                partial.unlink(missing_ok=True)  # a copy cut short (the storage full) is no backup
            except OSError as left:
                log.warning("%s: could not remove %s: %s", self.path, partial, left.strerror)
            made = None
        else:
            made = target
        self._checkpoint()
        return made

    def _checkpoint(self) -> None:
        """Keep the write-ahead log short, backup or none (the storage full leaves no room for
        one): SQLite takes a damaged frame for the end of the log, so everything after it would
        be lost without a word (HW-5).  Folding it into the journal needs no more room than
        the journal's own pages, and TRUNCATE leaves the log empty when no reader holds it."""
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as error:
            log.warning(
                "%s: could not fold the write-ahead log into the journal: %s", self.path, error
            )

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- transactions -------------------------------------------------------------------

    def _transaction(self, work: Callable[[], T], doing: str) -> T:
        if self._broken is not None:
            raise self._broken
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise _classify(error, self.path, doing) from error
        try:
            result = work()
            db.execute("COMMIT")
            self._changed = True
        except BaseException as error:
            if db.in_transaction:
                try:
                    db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            if isinstance(error, sqlite3.Error):
                failure = _classify(error, self.path, doing)
                if isinstance(failure, JournalIOFailure):
                    self._broken = failure  # never retry a failed commit
                raise failure from error
            raise
        return result

    # --- games --------------------------------------------------------------------------

    def create_game(
        self,
        events: Sequence[Event],
        command: dict[str, Any],
        summary: Sequence[Message],
        title: str,
        now: float | None = None,
    ) -> int:
        """A new game whose transaction 0 is ``events`` (``game_started`` and the modules' set-up);
        it becomes the last game."""
        if not events or not isinstance(events[0], GameStarted):
            raise ValueError("a game's first event is game_started")
        at = time.time() if now is None else now
        described = [m.to_json() for m in summary]

        def work() -> int:
            # A number no game has had: SQLite would give a deleted game's number (the largest
            # one's) to the next game, and a backup would then hold another game by that number.
            game = (
                int(
                    self._db.execute(
                        "SELECT max(coalesce((SELECT max(id) FROM games), 0), coalesce((SELECT max(game) FROM deleted), 0))"
                    ).fetchone()[0]
                )
                + 1
            )
            self._db.execute(
                "INSERT INTO games (id, title, created, updated, head, tip, crc) VALUES (?, ?, ?, ?, 0, 0, ?)",
                (game, title, at, at, row_crc(game, 0, 0)),
            )
            self._insert_txn(game, 0, at, command, described, events)
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('last_game', ?)", (str(game),))
            return game

        game = self._transaction(work, "starting a game")
        if self.backup_every:
            self._back_up_now_or_later()
        return game

    def _insert_txn(
        self,
        game: int,
        pos: int,
        at: float,
        command: dict[str, Any],
        summary: list[dict[str, Any]],
        events: Sequence[Event],
    ) -> None:
        said, done = (
            json.dumps(command, ensure_ascii=False),
            json.dumps(summary, ensure_ascii=False),
        )
        self._db.execute(
            "INSERT INTO txns (game, pos, at, command, summary, crc) VALUES (?, ?, ?, ?, ?, ?)",
            (game, pos, at, said, done, row_crc(game, pos, at, said, done)),
        )
        rows = []
        for idx, event in enumerate(events):
            body = event.model_dump_json()
            rows.append(
                (game, pos, idx, EVENT_SCHEMA, body, row_crc(game, pos, idx, EVENT_SCHEMA, body))
            )
        self._db.executemany(
            "INSERT INTO events (game, pos, idx, schema, body, crc) VALUES (?, ?, ?, ?, ?, ?)", rows
        )

    def _set_head(self, game: int, head: int, tip: int, at: float) -> None:
        self._db.execute(
            "UPDATE games SET head = ?, tip = ?, updated = ?, crc = ? WHERE id = ?",
            (head, tip, at, row_crc(game, head, tip), game),
        )

    def delete_game(self, game: int, now: float | None = None) -> GameInfo:
        """Delete ``game`` for good: every row it has, in one transaction, so a power cut leaves
        it whole or gone; its tombstone keeps its number from being given again.  When it was the
        last game shown, no game is.  A backup follows, as after a new game.  Raises ``KeyError``
        for a game there is not."""
        info = self.game(game)
        self.keep_deleted({game: time.time() if now is None else now})
        return info

    def keep_deleted(self, tombstones: dict[int, float]) -> list[int]:
        """Delete the games of ``tombstones`` (a game's number and when it was deleted) that are
        here, and keep every tombstone, in one transaction; the games deleted.  Recovery passes
        the tombstones of the journal it replaces, so a backup made before a deletion does not
        bring the game back."""
        if self.check is not None:
            # The check reads the game that resumed on its own connection: a game gone from
            # under it would look like damage.  It takes a moment; wait for its verdict.
            self.check.wait()

        def work() -> list[int]:
            db = self._db
            last = db.execute("SELECT value FROM meta WHERE key = 'last_game'").fetchone()
            gone = []
            for game, at in sorted(tombstones.items()):
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is not None:
                    for table in ("events", "snapshots", "txns", "breaks"):
                        db.execute(f"DELETE FROM {table} WHERE game = ?", (game,))  # noqa: S608
                    db.execute("DELETE FROM games WHERE id = ?", (game,))
                    gone.append(game)
                db.execute(
                    "INSERT OR REPLACE INTO deleted (game, at, crc) VALUES (?, ?, ?)",
                    (game, at, row_crc(game, at)),
                )
                if last is not None and last[0] == str(game):
                    db.execute("INSERT OR REPLACE INTO meta VALUES ('last_game', ?)", (NO_GAME,))
            return gone

        gone = self._transaction(work, "deleting a game")
        if gone and self.backup_every:
            self._back_up_now_or_later()
        return gone

    def set_last_game(self, game: int) -> None:
        self.game(game)
        self._transaction(
            lambda: self._db.execute(
                "INSERT OR REPLACE INTO meta VALUES ('last_game', ?)", (str(game),)
            ),
            "choosing a game",
        )

    def set_meta(self, key: str, value: str | None) -> None:
        """Keep ``value`` under ``key`` beside the games, as durably as a change (None: forget
        it): what a gadget must still know after a power cut that is no game's (the event it
        joined at the broker)."""

        def work() -> None:
            if value is None:
                self._db.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

        self._transaction(work, "keeping a setting")

    # --- commands -----------------------------------------------------------------------

    def append(
        self,
        game: int,
        events: Sequence[Event],
        command: dict[str, Any],
        summary: Sequence[Message],
        state_after: GameState,
        now: float | None = None,
    ) -> int:
        """Keep one command's events; returns its position.  Drops anything undone before it."""
        at = time.time() if now is None else now

        def work() -> int:
            head = self.game(game).head
            pos = head + 1
            for table in ("txns", "events", "snapshots"):
                self._db.execute(f"DELETE FROM {table} WHERE game = ? AND pos > ?", (game, head))  # noqa: S608
            self._insert_txn(game, pos, at, command, [m.to_json() for m in summary], events)
            if pos % self.snapshot_every == 0:
                body = _without_breaks(state_after).model_dump_json()
                self._db.execute(
                    "INSERT INTO snapshots (game, pos, schema, body, crc) VALUES (?, ?, ?, ?, ?)",
                    (game, pos, STATE_SCHEMA, body, row_crc(game, pos, STATE_SCHEMA, body)),
                )
            self._set_head(game, pos, pos, at)
            return pos

        pos = self._transaction(work, "saving a change")
        if self.backup_every and pos % self.backup_every == 0:
            self._back_up_now_or_later()
        return pos

    def begin_break(self, game: int, at: float) -> None:
        """Keep a break that began at ``at`` in ``game``: beside its history, in a transaction of
        its own, so undo and redo leave it be.  The rules decided it (the clock was running)."""

        def work() -> None:
            self.game(game)
            idx = (
                int(
                    self._db.execute(
                        "SELECT coalesce(max(idx), 0) FROM breaks WHERE game = ?", (game,)
                    ).fetchone()[0]
                )
                + 1
            )
            began = float(at)
            self._db.execute(
                "INSERT INTO breaks (game, idx, began, ended, crc) VALUES (?, ?, ?, NULL, ?)",
                (game, idx, began, row_crc(game, idx, began, None)),
            )

        self._transaction(work, "pausing the clock")

    def end_break(self, game: int, at: float) -> bool:
        """End ``game``'s break that goes on at ``at``; whether there was one (the last break
        read, as the state's clock has it)."""

        def work() -> bool:
            rows = self._break_rows(game)
            if not rows or rows[-1][1].ended is not None:
                return False
            idx, last = rows[-1]
            ended = float(at)
            self._db.execute(
                "UPDATE breaks SET ended = ?, crc = ? WHERE game = ? AND idx = ?",
                (ended, row_crc(game, idx, last.began, ended), game, idx),
            )
            return True

        return self._transaction(work, "resuming the clock")

    def _back_up_now_or_later(self) -> None:
        if self.defer_backups or self.check is not None:
            self._backup_due = True
        else:
            self.backup()

    def back_up_soon(self) -> None:
        """Make a backup due: taken when the caller is idle and the check's verdict is in."""
        if self.backup_every:
            self._backup_due = True

    def backup_if_due(self) -> Path | None:
        """The backup a change made due, taken now (the caller is idle); None if none was due."""
        if not self._backup_due or self._broken is not None or self.check is not None:
            return None
        self._backup_due = False
        return self.backup()

    def undo(self, game: int, now: float | None = None) -> Txn | None:
        """Take back the last transaction in effect; None if there is nothing to undo.  ``now``
        is when the game was last played from then on (the caller's clock, as for a change)."""
        at = time.time() if now is None else now

        def work() -> Txn | None:
            info = self.game(game)
            if info.head == 0:
                return None
            self._set_head(game, info.head - 1, info.tip, at)
            return self._txn(game, info.head, undone=True)

        return self._transaction(work, "undoing")

    def redo(self, game: int, now: float | None = None) -> Txn | None:
        """Put back the last undone transaction; None if there is nothing to redo.  ``now`` as
        for ``undo``."""
        at = time.time() if now is None else now

        def work() -> Txn | None:
            info = self.game(game)
            if info.head >= info.tip:
                return None
            pos = info.head + 1
            self._set_head(game, pos, info.tip, at)
            return self._txn(game, pos, undone=False)

        return self._transaction(work, "redoing")

    def repair_texts(self, game: int, positions: Sequence[int] | None = None) -> int:
        """Write again, from its events, the text of every change of ``game`` the storage damaged
        (or of those at ``positions``, found by a check); how many there were."""
        # The checksum alone tells a damaged row; a row kept from a journal without checksums, or
        # one whose damage predates them, is still said again when read.
        rows = (
            self._read(self._TXN, (game,))
            if positions is None
            else [
                row
                for pos in positions
                for row in self._read(self._TXN + " AND pos = ?", (game, pos))
            ]
        )
        damaged = [
            self._read_txn(game, row, undone=False) for row in rows if _text_damaged(game, row)
        ]

        def work() -> None:
            for txn in damaged:
                command, summary = (
                    json.dumps(txn.command),
                    json.dumps(txn.summary, ensure_ascii=False),
                )
                self._db.execute(
                    "UPDATE txns SET command = ?, summary = ?, crc = ? WHERE game = ? AND pos = ?",
                    (
                        command,
                        summary,
                        row_crc(game, txn.pos, txn.at, command, summary),
                        game,
                        txn.pos,
                    ),
                )

        if damaged:
            self._transaction(work, "repairing it")
        return len(damaged)
