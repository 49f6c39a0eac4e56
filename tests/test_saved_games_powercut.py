"""HW-5: a power cut while a saved game is deleted leaves it whole or gone, never half — over the
simulated disk of ``test_powercut`` (unsynced writes dropped, torn and reordered at the cut)."""

from __future__ import annotations

import logging
import random
import shutil
from pathlib import Path

import pytest

from device.commands import ChangeLife, NewGame, PassTurn
from device.controller import Controller
from device.errors import JournalError
from device.journal import Journal
from test_powercut import CrashVFS, Disk, PowerCut, connector

SNAPSHOT_EVERY = 4  # snapshot rows in the deleted game, as in a long one
TRIES = 4  # disks per cut: which unsynced writes survive is drawn anew each time


def _baseline(directory: Path) -> tuple[Path, list[str]]:
    """Game 1 with changes and snapshots, then game 2, shown; game 1's events as JSON."""
    path = directory / "base" / "aetherbox.sqlite3"
    with Journal(path, backup_every=0, snapshot_every=SNAPSHOT_EVERY) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C"), starting_life=30, first="A"))
        for i in range(10):
            controller.execute(ChangeLife(seat=1, delta=-1, source=0) if i % 3 else PassTurn())
        controller.execute(NewGame(players=("D", "E"), first="D"))
        events = [event.model_dump_json() for _, event in journal.events(1)]
    return path, events


def _delete(path: Path, vfs: CrashVFS) -> bool:
    """Open the journal and delete game 1 (and game 2, shown, after it); whether the first
    deletion was acknowledged before the power went."""
    acknowledged = False
    journal: Journal | None = None
    try:
        journal = Journal(
            path, backup_every=0, snapshot_every=SNAPSHOT_EVERY, connect=connector(vfs, "FULL")
        )
        controller = Controller(journal, rng=random.Random(2))
        controller.delete(1)
        acknowledged = True
        controller.delete(2)
    except (JournalError, PowerCut):
        assert vfs.disk.crashed
    finally:
        if journal is not None:
            journal.close()
    return acknowledged


def _verdict(path: Path, events: list[str], acknowledged: bool) -> str:
    with Journal(path, backup_every=0) as journal:
        assert journal.integrity_check() == ["ok"]
        games = {info.id for info in journal.games()}
        rows = {
            table: journal._db.execute(f"SELECT count(*) FROM {table} WHERE game = 1").fetchone()[0]
            for table in ("txns", "events", "snapshots")
        }
        if 1 in games:
            assert not acknowledged, "an acknowledged deletion came back"
            assert 1 not in journal.deleted()
            assert [event.model_dump_json() for _, event in journal.events(1)] == events
            assert journal.state(1) == journal.replay(1)
            return "whole"
        assert rows == {"txns": 0, "events": 0, "snapshots": 0}, rows
        assert 1 in journal.deleted()
        for game in games:
            assert journal.state(game) == journal.replay(game)
        return "gone"


def test_hw5_a_power_cut_while_deleting_leaves_the_game_whole_or_gone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The cut falls on every I/O operation of opening the journal and deleting two games, with
    the disk's unsynced writes kept, dropped or garbled at random (``TRIES`` disks a cut): the first game is
    all there (and was not reported deleted) or all gone with its tombstone, the file is sound,
    and the other game replays to the state its snapshots say."""
    caplog.set_level(
        logging.CRITICAL, logger="aetherbox"
    )  # each cut is logged: quiet, and restored after
    base, events = _baseline(tmp_path)
    vfs = CrashVFS(f"powercut-delete-{id(tmp_path)}")
    work = tmp_path / "work"
    try:
        shutil.copytree(base.parent, work)
        vfs.disk = Disk(crash_at=None)
        assert _delete(work / base.name, vfs)
        total = vfs.disk.ops
        seen: dict[str, int] = {}
        for trial in range(total * TRIES):
            crash_at, rng = trial // TRIES + 1, random.Random(trial)
            shutil.rmtree(work)
            shutil.copytree(base.parent, work)
            path = work / base.name
            vfs.disk = Disk(crash_at=crash_at)
            vfs.disk.adopt(str(path))
            acknowledged = _delete(path, vfs)
            vfs.disk.crashed = True
            (work / (base.name + ".lock")).unlink(missing_ok=True)
            vfs.disk.power_loss(rng, work)
            found = _verdict(path, events, acknowledged)
            seen[found] = seen.get(found, 0) + 1
    finally:
        vfs.unregister()
    assert total > 20 and seen.keys() == {"whole", "gone"}, (total, seen)
