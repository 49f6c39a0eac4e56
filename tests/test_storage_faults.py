"""Issue 32: storage that is full, read-only or not what it should be leaves a working journal or a
clear word — never a journal that must be restarted, a backup cut short, a log that grows.

A full disk is a state: the change it refuses (``JournalFull``, a refusal like the rules' own)
is not kept, every change acknowledged before it is, and writing resumes by itself when there is
room again.  Trials run on a real small tmpfs where this user may mount one (root), and on a
connection that answers "disk is full" where it may not.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.commands import ChangeLife, NewGame
from device.controller import Controller
from device.errors import IllegalCommand, JournalUnreadable
from device.journal import Journal, JournalFull, JournalInTheWay, backup_path
from device.recovery import open_journal
from device.text import render
from helpers import fill


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 2 MB file system that fills up (tmpfs); skipped where mounting is not allowed."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(
            f"cannot mount a small tmpfs here ({done.stderr.strip() or done.returncode}); "
            "the injected 'disk is full' trials cover the same logic"
        )
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def lives(path: Path) -> list[int]:
    with Journal(path, backup_every=0) as journal:
        game = journal.last_game()
        assert game is not None
        state = journal.state(game)
        return [p.life for p in state.players]


def test_a_full_disk_refuses_the_change_keeps_the_rest_and_resumes_by_itself(
    small_disk: Path,
) -> None:
    path = small_disk / "games" / "aetherbox.sqlite3"
    journal = Journal(path, backup_every=5)
    controller = Controller(journal)
    controller.execute(NewGame(players=("Ann", "Bob"), first="Ann"))
    acknowledged = 0
    for _ in range(5):
        controller.execute(ChangeLife(seat=1, delta=-1))
        acknowledged += 1
    filler = fill(small_disk)
    refused = 0
    for _ in range(200):  # until the pages SQLite still had room in are used up, then refused
        try:
            controller.execute(ChangeLife(seat=1, delta=-1))
            acknowledged += 1
        except JournalFull as error:
            refused += 1
            assert isinstance(error, IllegalCommand) and error.key == "journal.full"
            assert render(error.key, error.params).startswith(
                "The storage is full: this change was not saved."
            )
            if refused == 3:
                break
    assert refused == 3, "the disk never filled up"
    assert controller.state is not None and controller.state.players[1].life == 20 - acknowledged
    filler.unlink()  # room again: the next press just works
    controller.execute(ChangeLife(seat=1, delta=-1))
    acknowledged += 1
    journal.close()
    assert lives(path) == [20, 20 - acknowledged]
    assert not backup_path(path).with_name(backup_path(path).name + ".partial").exists()


def test_a_backup_with_no_room_leaves_no_partial_copy_and_still_empties_the_wal(
    small_disk: Path,
) -> None:
    path = small_disk / "games" / "aetherbox.sqlite3"
    journal = Journal(path, backup_every=0)
    controller = Controller(journal)
    controller.execute(NewGame(players=("Ann", "Bob"), first="Ann"))
    for _ in range(10):
        controller.execute(ChangeLife(seat=1, delta=-1))
    assert journal.backup() is not None
    for _ in range(10):
        controller.execute(ChangeLife(seat=1, delta=-1))
    wal = path.with_name(path.name + "-wal")
    assert wal.stat().st_size > 0
    # Room for the journal's few new pages, none for a copy of it: how a backup fails first.
    filler = fill(small_disk)
    room = path.stat().st_size // 2
    os.truncate(filler, filler.stat().st_size - room)
    try:
        assert journal.backup() is None
        assert not path.with_name(path.name + ".bak.partial").exists()
        assert wal.stat().st_size == 0  # folded into the journal, backup or none
    finally:
        filler.unlink()
        journal.close()
    assert lives(path) == [20, 0]


class FullDisk:
    """A connection that answers SQLite's "database or disk is full" to writes while ``full``."""

    def __init__(self) -> None:
        self.full = False

    def connect(self, uri: str, timeout: float) -> Any:
        disk = self
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=timeout)

        class Connection:
            def __getattr__(self, name: str) -> Any:
                return getattr(db, name)

            def execute(self, sql: str, args: Any = ()) -> sqlite3.Cursor:
                if disk.full and sql.split()[0].upper() in ("INSERT", "UPDATE", "DELETE", "COMMIT"):
                    raise sqlite3.OperationalError("database or disk is full")
                return db.execute(sql, args)

            def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
                if disk.full:
                    raise sqlite3.OperationalError("database or disk is full")
                return db.executemany(sql, rows)

            def backup(self, target: sqlite3.Connection, **kwargs: Any) -> None:
                if disk.full:
                    raise sqlite3.OperationalError("database or disk is full")
                db.backup(target, **kwargs)

            @property
            def in_transaction(self) -> bool:
                return db.in_transaction

        return Connection()


def test_an_injected_full_disk_is_refused_and_writing_resumes(tmp_path: Path) -> None:
    """The same as on the tmpfs, where none can be mounted: the change refused, nothing
    acknowledged lost, the next change after room returns kept, no partial backup."""
    disk = FullDisk()
    path = tmp_path / "aetherbox.sqlite3"
    journal = Journal(path, backup_every=3, connect=disk.connect)
    controller = Controller(journal)
    controller.execute(NewGame(players=("Ann", "Bob"), first="Ann"))
    controller.execute(ChangeLife(seat=1, delta=-2))
    disk.full = True
    for _ in range(3):
        with pytest.raises(JournalFull):
            controller.execute(ChangeLife(seat=1, delta=-5))
    assert controller.state is not None and controller.state.players[1].life == 18
    assert journal.backup() is None
    assert not path.with_name(path.name + ".bak.partial").exists()
    disk.full = False
    controller.execute(ChangeLife(seat=1, delta=-1))
    journal.close()
    assert lives(path) == [20, 17]


@pytest.mark.parametrize("fault", ["folder", "fifo", "dev-null", "lock a folder", "games a file"])
def test_something_in_the_journals_place_is_named_with_what_to_do(
    tmp_path: Path, fault: str
) -> None:
    """Not "restart to resume the game" (a restart meets it again): what is there, and that
    moving it aside is the cure."""
    path = tmp_path / "data" / "games" / "aetherbox.sqlite3"
    path.parent.mkdir(parents=True)
    where, kind = path, ""
    if fault == "folder":
        path.mkdir()
        kind = "a folder"
    elif fault == "fifo":
        os.mkfifo(path)
        kind = "a named pipe (FIFO)"
    elif fault == "dev-null":
        path.symlink_to("/dev/null")
        kind = "a device (/dev/null)"
    elif fault == "lock a folder":
        where = path.with_name(path.name + ".lock")
        where.mkdir()
        kind = "a folder"
    else:
        where = path.parent
        where.rmdir()
        where.write_text("x", encoding="utf-8")
        kind = "a file"
    with pytest.raises(JournalInTheWay) as raised:
        open_journal(path)
    assert isinstance(raised.value, JournalUnreadable)
    assert raised.value.where == where and str(raised.value.kind) == kind
    assert f"{where} is {kind} where aetherbox keeps its saved games: move it aside" in str(
        raised.value
    )
    assert "restart" not in str(raised.value)


def test_a_journal_and_backup_both_empty_are_said_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "aetherbox.sqlite3"
    path.write_bytes(b"")
    backup_path(path).write_bytes(b"")
    journal, recovery = open_journal(path, clock=lambda: 1_700_000_000.0)
    with journal:
        assert recovery is not None and journal.games() == []
        text = render(recovery.message().key, recovery.message().params)
    assert text.startswith(
        "The saved games and their backup were both found empty (0 bytes): nothing could be "
        "recovered. Both are kept, as "
    )
    kept = sorted(p.name for p in tmp_path.iterdir() if ".damaged-" in p.name)
    assert len(kept) == 2 and all((tmp_path / name).stat().st_size == 0 for name in kept)
    assert str(recovery.damaged) in text and str(recovery.empty_backup) in text


def test_an_empty_journal_without_a_backup_is_a_new_one_and_says_nothing(tmp_path: Path) -> None:
    """What the power leaves a moment after the first start: nothing to say."""
    path = tmp_path / "aetherbox.sqlite3"
    path.write_bytes(b"")
    journal, recovery = open_journal(path)
    journal.close()
    assert recovery is None
