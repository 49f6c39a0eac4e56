"""HW-5: game state survives power cuts — simulated below SQLite, where a killed process cannot reach.

A SIGKILL (tests/test_crash.py) leaves the kernel's page cache intact, so it cannot tell a
durable commit from one that merely reached the cache.  Here the journal's real commit sequence
(``device.journal.Journal`` with its own pragmas, statements and transactions) runs over a virtual
file layer (an APSW VFS on top of SQLite's own unix VFS) that keeps track of what was synced.
At a random I/O operation the power goes: every operation from then on fails, and the files are
rewritten to what a disk could hold after a power loss, the way SQLite's own crash tests do it:

- each block written since the file's last sync is kept or dropped (reverted to its synced
  contents) at random, independently — writes reach the medium in any order, and partly;
- a file's size is the one it has now or the one it had at its last sync;
- directory entries created or removed since the directory was last synced (a new ``-wal``, a
  deleted one) are kept up to a random point and undone after it;
- a sector (4 KiB, what SQLite takes the device's sector to be) with a write in flight may be
  garbled whole, the bytes written long before the write included: an SD card rewrites a flash
  page to change part of it.  ``psow=0`` makes SQLite pad each commit to a sector boundary, so
  no later write shares a sector with a committed frame; a mutation control without it must lose;
- the ``-shm`` index is lost (it is rebuilt from the ``-wal`` on opening).

Then the journal is opened again with the ordinary ``sqlite3`` module and must hold every event
whose command was acknowledged (``Controller.execute`` returned), be intact, and replay to the
state it claims.  A negative control runs the same trials with ``synchronous=NORMAL`` or ``OFF``
and must lose acknowledged events, which shows the simulation can tell the difference.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from device.game import GAME
from device.commands import Advance, ChangeLife, ChangePoison, Command, NewGame, ReverseTurnOrder
from device.controller import Controller
from device.errors import IllegalCommand, JournalError
from device.journal import Journal

apsw = pytest.importorskip(
    "apsw", reason="the power-cut simulation needs APSW (pip install '.[test]')"
)

#: Cuts in the suite; AETHERBOX_POWERCUT_TRIALS=5000 for a longer trial (README, "Measuring").
TRIALS = int(os.environ.get("AETHERBOX_POWERCUT_TRIALS", "600"))
CONTROL_TRIALS = 150
BLOCK = 512  # the unit a write may be torn at: one sector
SECTOR = 4096  # what SQLite takes for the device's sector: a write may garble all of it (psow=0)
SNAPSHOT_EVERY = 8  # small, so snapshot rows are part of many commits


class PowerCut(Exception):
    """Raised inside the VFS once the power is gone."""


@dataclass
class FileState:
    durable: bytearray  # contents as of the last sync
    dirty: set[int] = field(default_factory=set)  # blocks written since then
    dir_sync_pending: bool = False  # SQLite syncs the directory at a new journal's first sync


@dataclass
class Disk:
    """What was written, what was synced, and when the power goes."""

    crash_at: int | None
    ops: int = 0
    crashed: bool = False
    files: dict[str, FileState] = field(default_factory=dict)
    dir_ops: list[tuple[str, str, bytes]] = field(default_factory=list)  # (op, path, durable bytes)

    def op(self) -> None:
        if self.crashed:
            raise apsw.IOError("the power is off")
        self.ops += 1
        if self.crash_at is not None and self.ops >= self.crash_at:
            self.crashed = True
            raise apsw.IOError("the power is off")

    def adopt(self, path: str) -> None:
        """A file that was on the disk, durably, before the trial."""
        self.files[path] = FileState(bytearray(Path(path).read_bytes()))

    def created(self, path: str, journal_like: bool) -> None:
        self.files[path] = FileState(bytearray(), dir_sync_pending=journal_like)
        self.dir_ops.append(("create", path, b""))

    def wrote(self, path: str, offset: int, length: int) -> None:
        state = self.files.setdefault(path, FileState(bytearray()))
        state.dirty.update(range(offset // BLOCK, (offset + length - 1) // BLOCK + 1))

    def truncated(self, path: str, size: int) -> None:
        state = self.files.setdefault(path, FileState(bytearray()))
        state.dirty.update(range(size // BLOCK, len(state.durable) // BLOCK + 1))

    def synced(self, path: str) -> None:
        state = self.files.setdefault(path, FileState(bytearray()))
        durable = state.durable
        fd = os.open(path, os.O_RDONLY)
        try:
            size = os.fstat(fd).st_size
            if len(durable) < size:
                durable.extend(bytes(size - len(durable)))
            for block in state.dirty:
                durable[block * BLOCK : (block + 1) * BLOCK] = os.pread(fd, BLOCK, block * BLOCK)
        finally:
            os.close(fd)
        del durable[size:]
        state.dirty.clear()
        if state.dir_sync_pending:
            state.dir_sync_pending = False
            self.dir_ops.clear()  # the directory's fsync makes every change to it durable

    def deleted(self, path: str, sync_dir: bool) -> None:
        state = self.files.pop(path, None)
        if sync_dir:
            self.dir_ops.clear()
        elif state is not None:
            self.dir_ops.append(("delete", path, bytes(state.durable)))

    def power_loss(self, rng: random.Random, directory: Path) -> None:
        """Rewrite the files on disk to one state the medium may be in after the cut."""
        for path, state in self.files.items():
            file = Path(path)
            if not file.exists():
                continue
            current = file.read_bytes()
            durable = state.durable
            size = rng.choice([len(current), len(durable)])
            image = bytearray(size)
            for start in range(0, size, BLOCK):
                end = min(start + BLOCK, size)
                now = current[start:end].ljust(end - start, b"\0")
                synced = durable[start:end].ljust(end - start, b"\0")
                if start // BLOCK in state.dirty:
                    image[start:end] = now if rng.random() < 0.5 else synced
                else:  # unchanged since the sync, or cut off by a truncation not yet synced
                    image[start:end] = now if end <= len(current) else synced
            for sector in sorted({block * BLOCK // SECTOR for block in state.dirty}):
                start, end = sector * SECTOR, min((sector + 1) * SECTOR, size)
                if (
                    start < end and rng.random() < 0.5
                ):  # the write in flight garbles its whole sector
                    image[start:end] = rng.randbytes(end - start)
            file.write_bytes(bytes(image))
        keep = rng.randint(0, len(self.dir_ops))
        for op, path, contents in reversed(self.dir_ops[keep:]):
            if op == "create":
                Path(path).unlink(missing_ok=True)
            else:
                Path(path).write_bytes(contents)
        for shm in directory.glob("*-shm"):
            shm.unlink()


class CrashFile(apsw.VFSFile):  # type: ignore[misc]
    def __init__(self, disk: Disk, vfs: str, name: Any, flags: list[int]) -> None:
        self.disk = disk
        self.path = name.filename() if isinstance(name, apsw.URIFilename) else str(name)
        existed = os.path.exists(self.path)
        super().__init__(vfs, name, flags)
        if not existed:
            journal_like = bool(flags[0] & (apsw.SQLITE_OPEN_WAL | apsw.SQLITE_OPEN_MAIN_JOURNAL))
            disk.created(self.path, journal_like)
        elif self.path not in disk.files and not self.path.endswith("-shm"):
            disk.adopt(self.path)

    def xWrite(self, data: bytes, offset: int) -> None:  # noqa: N802 - APSW's names
        self.disk.op()
        self.disk.wrote(self.path, offset, len(data))
        super().xWrite(data, offset)

    def xTruncate(self, size: int) -> None:  # noqa: N802
        self.disk.op()
        self.disk.truncated(self.path, size)
        super().xTruncate(size)

    def xSync(self, flags: int) -> None:  # noqa: N802
        # No real fsync: the simulation decides what reached the medium.
        self.disk.op()
        self.disk.synced(self.path)

    def xRead(self, amount: int, offset: int) -> bytes:  # noqa: N802
        if self.disk.crashed:
            raise apsw.IOError("the power is off")
        return super().xRead(amount, offset)  # type: ignore[no-any-return]


class CrashVFS(apsw.VFS):  # type: ignore[misc]
    def __init__(self, name: str) -> None:
        self.disk = Disk(crash_at=None)
        self.vfs_name = name
        super().__init__(name, base="")

    def xOpen(self, name: Any, flags: list[int]) -> CrashFile:  # noqa: N802
        self.disk.op()
        return CrashFile(self.disk, "", name, flags)

    def xDelete(self, filename: str, syncdir: bool) -> None:  # noqa: N802
        self.disk.op()
        self.disk.deleted(filename, syncdir)
        super().xDelete(filename, syncdir)


# --- the journal's statements over APSW ----------------------------------------------------------


def _as_sqlite3(error: Exception) -> sqlite3.Error:
    """The journal classifies sqlite3 errors by result code: give it one."""
    code = getattr(error, "result", None)
    name = type(error).__name__
    codes = {
        "IOError": 10,
        "CorruptError": 11,
        "NotADBError": 26,
        "FullError": 13,
        "BusyError": 5,
        "LockedError": 6,
        "CantOpenError": 14,
        "ReadOnlyError": 8,
    }
    converted = sqlite3.OperationalError(str(error))
    converted.sqlite_errorcode = code if isinstance(code, int) else codes.get(name, 1)
    return converted


class _Cursor:
    def __init__(self, rows: list[tuple[Any, ...]], lastrowid: int) -> None:
        self._rows = rows
        self.lastrowid = lastrowid

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._rows)


class ApswConnection:
    """The part of ``sqlite3.Connection`` the journal uses, over an APSW connection: the same SQL,
    in the same order, with the same transactions (the journal runs in autocommit mode and says
    BEGIN and COMMIT itself, which APSW passes straight to SQLite).

    ``synchronous`` replaces the journal's ``synchronous=FULL`` for the negative control only.
    """

    def __init__(self, conn: Any, synchronous: str) -> None:
        self._conn = conn
        self._synchronous = synchronous

    def execute(self, sql: str, args: Any = ()) -> _Cursor:
        if sql.strip().upper() == "PRAGMA SYNCHRONOUS=FULL":
            sql = f"PRAGMA synchronous={self._synchronous}"
        try:
            rows = [tuple(row) for row in self._conn.cursor().execute(sql, tuple(args))]
            return _Cursor(rows, self._conn.last_insert_rowid())
        except apsw.Error as error:
            raise _as_sqlite3(error) from error

    def executemany(self, sql: str, seq: Any) -> _Cursor:
        try:
            self._conn.cursor().executemany(sql, [tuple(args) for args in seq])
            return _Cursor([], self._conn.last_insert_rowid())
        except apsw.Error as error:
            raise _as_sqlite3(error) from error

    @property
    def in_transaction(self) -> bool:
        return bool(self._conn.in_transaction)

    def close(self) -> None:
        try:
            self._conn.close(True)
        except apsw.Error:
            pass  # after the power cut the final checkpoint fails, as it would


def connector(vfs: CrashVFS, synchronous: str, psow: bool = False) -> Any:
    """The journal's connections over ``vfs``; ``psow`` drops the journal's ``psow=0`` (the
    mutation control)."""

    def connect(uri: str, timeout: float) -> ApswConnection:
        if psow:
            assert "psow=0" in uri
            uri = uri.replace("psow=0", "psow=1")
        flags = apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE | apsw.SQLITE_OPEN_URI
        try:
            conn = apsw.Connection(uri, flags=flags, vfs=vfs.vfs_name)
        except apsw.Error as error:
            raise _as_sqlite3(error) from error
        conn.set_busy_timeout(int(timeout * 1000))
        return ApswConnection(conn, synchronous)

    return connect


# --- trials --------------------------------------------------------------------------------------


def _command(rng: random.Random) -> Command:
    roll = rng.random()
    if roll < 0.5:
        return ChangeLife(
            seat=rng.randrange(4), delta=rng.choice([-3, -2, -1, 1, 2]), source=rng.randrange(4)
        )
    if roll < 0.58:
        return ChangePoison(seat=rng.randrange(4), delta=1)
    if roll < 0.62:
        return ReverseTurnOrder()
    return Advance()


Ack = tuple[int, int, list[str]]  # game, position, events as JSON


def _play(
    path: Path,
    vfs: CrashVFS,
    synchronous: str,
    rng: random.Random,
    commands: int,
    psow: bool = False,
) -> list[Ack]:
    """Commands until the power goes (or all are done); what was acknowledged."""
    acked: list[Ack] = []
    restart_at = rng.randrange(commands) if rng.random() < 0.3 else -1
    journal: Journal | None = None
    try:
        journal = Journal(
            path,
            snapshot_every=SNAPSHOT_EVERY,
            backup_every=0,
            connect=connector(vfs, synchronous, psow),
        )
        controller = Controller(journal, rng=rng)
        for i in range(commands):
            if i == restart_at:  # a clean restart: checkpoint and remove the -wal, then reopen
                journal.close()
                journal = None
                journal = Journal(
                    path,
                    snapshot_every=SNAPSHOT_EVERY,
                    backup_every=0,
                    connect=connector(vfs, synchronous, psow),
                )
                controller = Controller(journal, rng=rng)
            over = controller.state is None or GAME.outcome(controller.state) is not None
            command = (
                NewGame(players=("A", "B", "C", "D"), starting_life=30, first="A")
                if over
                else _command(rng)
            )
            try:
                result = controller.execute(command)
            except IllegalCommand:
                continue
            game = controller.game or 0
            acked.append(
                (game, journal.game(game).head, [e.model_dump_json() for e in result.events])
            )
    except (JournalError, PowerCut):
        assert vfs.disk.crashed
    finally:
        if journal is not None:
            journal.close()
    return acked


@dataclass
class Verdict:
    lost: int = 0  # acknowledged commands missing after the cut
    damaged: bool = False


def _check(path: Path, acked: list[Ack]) -> Verdict:
    verdict = Verdict()
    try:
        journal = Journal(path, backup_every=0)
    except JournalError:
        return Verdict(lost=len(acked), damaged=True)
    with journal:
        if journal.integrity_check() != ["ok"]:
            return Verdict(lost=len(acked), damaged=True)
        kept: dict[tuple[int, int], list[str]] = {}
        for info in journal.games():
            for pos, event in journal.events(info.id, upto=info.tip):
                kept.setdefault((info.id, pos), []).append(event.model_dump_json())
            if journal.state(info.id) != journal.replay(info.id):
                verdict.damaged = True
        for game, pos, events in acked:
            if kept.get((game, pos)) != events:
                verdict.lost += 1
    return verdict


def _baseline(directory: Path) -> Path:
    """A journal with a game in progress, durably on disk: every trial starts from a copy."""
    path = directory / "base" / "aetherbox.sqlite3"
    with Journal(path, backup_every=0) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C", "D"), starting_life=30, first="A"))
        for _ in range(5):
            controller.execute(ChangeLife(seat=1, delta=-1, source=0))
    return path


def _trials(
    tmp_path: Path, synchronous: str, trials: int, seed: int, psow: bool = False
) -> tuple[list[Verdict], int]:
    logging.getLogger("aetherbox").setLevel(logging.CRITICAL)
    base = _baseline(tmp_path)
    vfs = CrashVFS(f"powercut-{synchronous.lower()}-{os.getpid()}")
    try:
        # One uncut run counts the I/O operations, so the cut can fall anywhere in a trial.
        work = tmp_path / "work"
        shutil.copytree(base.parent, work)
        vfs.disk = Disk(crash_at=None)
        _play(work / base.name, vfs, synchronous, random.Random(seed), 40, psow)
        total = vfs.disk.ops
        verdicts = []
        for trial in range(trials):
            rng = random.Random(seed * 100_003 + trial)
            shutil.rmtree(work)
            shutil.copytree(base.parent, work)
            path = work / base.name
            vfs.disk = Disk(crash_at=rng.randint(1, total))
            vfs.disk.adopt(str(path))
            acked = _play(path, vfs, synchronous, random.Random(rng.random()), 40, psow)
            if not vfs.disk.crashed:
                vfs.disk.crashed = True  # the cut comes after the last command
            (work / (base.name + ".lock")).unlink(missing_ok=True)
            vfs.disk.power_loss(rng, work)
            verdicts.append(_check(path, acked))
        return verdicts, total
    finally:
        vfs.unregister()


@pytest.mark.slow
def test_hw5_power_cut_loses_no_acknowledged_event(tmp_path: Path) -> None:
    """HW-5: 1,000 power cuts at random I/O operations, with torn and reordered unsynced writes:
    every acknowledged command is still in the journal, and nothing is damaged."""
    verdicts, total = _trials(tmp_path, "FULL", TRIALS, seed=1)
    assert total > 100  # the trials really span many writes and syncs
    lost = sum(v.lost for v in verdicts)
    damaged = sum(v.damaged for v in verdicts)
    assert (lost, damaged) == (0, 0)


@pytest.mark.slow
@pytest.mark.parametrize("synchronous", ["NORMAL", "OFF"])
def test_hw5_power_cut_control_without_full_sync_loses_events(
    tmp_path: Path, synchronous: str
) -> None:
    """HW-5 (negative control): the same cuts with synchronous=NORMAL or OFF lose acknowledged
    commands, so the test above can fail and its passing means something."""
    verdicts, _ = _trials(tmp_path, synchronous, CONTROL_TRIALS, seed=2)
    losing = sum(1 for v in verdicts if v.lost)
    assert losing >= CONTROL_TRIALS // 10, json.dumps([v.lost for v in verdicts])


@pytest.mark.slow
def test_hw5_power_cut_control_without_psow0_loses_events(tmp_path: Path) -> None:
    """HW-5 (mutation control): the same cuts, with sectors garbled whole, over a journal opened
    without ``psow=0`` lose acknowledged commands: a later write shares a sector with a committed
    frame.  The journal's ``psow=0`` is what the first test's passing proves."""
    verdicts, _ = _trials(tmp_path, "FULL", CONTROL_TRIALS, seed=3, psow=True)
    losing = sum(1 for v in verdicts if v.lost or v.damaged)
    assert losing >= CONTROL_TRIALS // 20, json.dumps([(v.lost, v.damaged) for v in verdicts])
