"""Constant-time resume and flat appends (docs/decisions/0010): start-up reads the same rows
however long the game, an append does the same work, and the check of the whole journal that
runs after start-up finds damage start-up no longer looks for, and recovers from it as start-up
would.  Work is counted (rows read, events folded, SQLite's virtual-machine steps), not timed."""

from __future__ import annotations

import contextlib
import logging
import random
import sqlite3
import threading
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.commands import ChangeLife, Command, NewGame, PassTurn
from device.controller import Controller
from device.errors import JournalCorrupt
from device.journal import Check, Journal, Reader, backup_path
from device.recovery import open_journal, verify
from device.state import GameState
from helpers import play_step

NOW = 1_750_000_000.0


class Steps:
    """A connector that counts the SQLite virtual-machine steps of every statement."""

    def __init__(self) -> None:
        self.count = 0

    def _step(self) -> int:
        self.count += 1
        return 0  # go on

    def __call__(self, uri: str, timeout: float) -> sqlite3.Connection:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=timeout)
        db.set_progress_handler(self._step, 1)
        return db


def _command(i: int) -> Command:
    return PassTurn() if i % 4 == 0 else ChangeLife(seat=i % 4, delta=-1, source=(i + 1) % 4)


def _play(path: Path, changes: int) -> GameState:
    with Journal(path, backup_every=0) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C", "D"), starting_life=9999, first="A"))
        for i in range(changes):
            controller.execute(_command(i))
        journal.backup()
        assert controller.state is not None
        return controller.state


def _resume(path: Path) -> tuple[Controller, Steps]:
    steps = Steps()
    journal, recovery = open_journal(path, clock=lambda: NOW, connect=steps, defer_backups=True)
    assert recovery is None
    return Controller(journal, clock=lambda: NOW), steps


def test_resume_reads_the_same_rows_however_long_the_game(tmp_path: Path) -> None:
    """Start-up (open_journal, then the controller) of a game 30 times as long reads the same
    snapshot and event rows and runs the same SQLite steps: nothing before READY grows with it."""
    work = []
    for changes in (100, 100 + 64 * 30):  # the same distance from the last snapshot
        path = tmp_path / str(changes) / "aetherbox.sqlite3"
        state = _play(path, changes)
        controller, steps = _resume(path)
        journal = controller.journal
        assert controller.state == state
        work.append((journal.events_read, journal.snapshots_read, steps.count))
        assert controller.idle(wait=True) is None  # the check after READY: nothing found
        journal.close()
    assert work[0] == work[1]
    events, snapshots, _ = work[0]
    assert snapshots == 2 and 0 < events < 2 * 64  # twice: start-up's check and the controller


def test_an_append_does_the_same_work_however_long_the_game(tmp_path: Path) -> None:
    """The same 128 presses (two snapshots' worth) after 100 and after 2,020 changes: the same
    SQLite steps, and no event read back."""
    work = []
    for changes in (100, 100 + 64 * 30):
        path = tmp_path / str(changes) / "aetherbox.sqlite3"
        _play(path, changes)
        controller, steps = _resume(path)
        assert controller.idle(wait=True) is None
        journal = controller.journal
        before_steps, before_events = steps.count, journal.events_read
        for i in range(128):
            controller.execute(_command(i))
        work.append((steps.count - before_steps, journal.events_read - before_events))
        journal.backup_every = 0
        journal.close()
    assert work[0] == work[1]
    assert work[0][1] == 0


commands = st.lists(
    st.one_of(
        st.builds(
            ChangeLife,
            seat=st.integers(0, 2),
            delta=st.integers(-5, 5).filter(bool),
            source=st.none(),
        ),
        st.just(PassTurn()),
        st.just("undo"),
        st.just("redo"),
    ),
    max_size=40,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(commands)
def test_resume_equals_replay(tmp_path_factory: object, steps: list[object]) -> None:
    """Whatever was played, undone and redone, start-up resumes the live state, which is the fold
    of every event in effect (snapshots every 3 changes, so resumes start from one)."""
    folder = Path(tmp_path_factory.mktemp("game"))  # type: ignore[attr-defined]
    path = folder / "aetherbox.sqlite3"
    with Journal(path, snapshot_every=3, backup_every=0) as journal:
        live = Controller(journal, rng=random.Random(5))
        live.execute(NewGame(players=("A", "B", "C"), starting_life=20, first="A"))
        for step in steps:
            play_step(live, step)
        state = live.state
    journal, recovery = open_journal(path, clock=lambda: NOW, snapshot_every=3, backup_every=0)
    with journal:
        resumed = Controller(journal)
        assert recovery is None and resumed.idle(wait=True) is None
        assert resumed.state == state == journal.replay(1)


def _flip_digit_in_event(path: Path, pos: int) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        changed = db.execute(
            "UPDATE events SET body = replace(body, '\"delta\":-1', '\"delta\":-7') WHERE game = 1 AND pos = ?",
            (pos,),
        ).rowcount
        assert changed == 1
    finally:
        db.close()


def test_damage_before_the_last_snapshot_is_found_after_start_recovered_and_said(
    tmp_path: Path,
) -> None:
    """An event damaged long before the last snapshot is no part of what start-up reads, so the
    game resumes at once; the check after READY finds it, and the gadget then does what start-up
    does for damage: the file kept aside, the backup restored, the same message — and the next
    command is not carried out but answered with that message and the restored game."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    state = _play(path, 150)  # a backup of all 150 changes
    _flip_digit_in_event(path, 2)  # ChangeLife of change 2; snapshots at 64 and 128
    damaged_bytes = path.read_bytes()
    journal, recovery = open_journal(path, clock=lambda: NOW)
    controller = Controller(journal, clock=lambda: NOW)
    assert recovery is None and controller.state == state  # start-up did not read change 2
    late = controller.idle(wait=True)
    assert late is not None and late.restored_from == backup_path(path)
    assert late.damaged.read_bytes() == damaged_bytes
    assert late.problem.startswith("event 0 of change 2 in game 1 does not match its checksum")
    assert str(late.message()).startswith(
        f"The saved games were damaged and could not be read ({late.problem})."
    )
    assert controller.journal is not journal and controller.state == state
    refused = controller.execute(ChangeLife(seat=1, delta=-1))
    assert (
        refused.messages == [late.message()]
        and refused.events == []
        and controller.journal.game(1).head == 150
    )
    done = controller.execute(ChangeLife(seat=1, delta=-1))
    assert done.events and controller.journal.game(1).head == 151
    assert controller.journal.replay(1) == controller.state
    controller.journal.close()


def test_backups_wait_for_the_check(tmp_path: Path) -> None:
    """Until the check after start-up has passed, no backup is taken (it could copy damage over
    the good backup); the one made due is taken at the first idle moment after it passed."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    _play(path, 10)
    journal, _ = open_journal(path, clock=lambda: NOW, backup_every=5, defer_backups=True)
    controller = Controller(journal)
    assert controller.idle(wait=True) is None
    release = threading.Event()
    journal.check = Check(1, lambda: [] if release.wait(10) else [])  # a check still running
    for _ in range(5):
        controller.execute(ChangeLife(seat=0, delta=-1))
    controller.idle()
    with Journal(backup_path(path), backup_every=0) as copy:
        assert copy.game(1).head == 10  # not yet
    release.set()
    controller.idle(wait=True)
    assert journal.check is None
    with Journal(backup_path(path), backup_every=0) as copy:
        assert copy.game(1).head == 15
    journal.close()


def test_the_checks_verdict_is_announced_to_whoever_waits_for_it_once() -> None:
    """The kiosk sleeps until something happens; the check's verdict is such a thing."""
    go = threading.Event()
    calls: list[str] = []
    check = Check(None, lambda: [] if go.wait(5) else [])
    check.when_done(lambda: calls.append("before"))
    assert calls == []
    go.set()
    assert check.wait(5)
    check._thread.join(5)
    assert calls == ["before"]
    check.when_done(lambda: calls.append("after"))  # the verdict is in: at once
    assert calls == ["before", "after"]


def test_the_check_reads_the_journal_as_it_was_at_one_moment(tmp_path: Path) -> None:
    """HW-5: the check on its own thread reads while the game goes on.  A change the game's thread
    commits between two of its reads (here: the game it checks deleted after it read which game
    that is) must not look like rows that do not make a game — damage, which would set the
    journal aside.  Read at one moment, the check sees the file as it was when it began."""
    path = tmp_path / "aetherbox.sqlite3"
    verdicts: list[str] = []
    for at_one_moment in (False, True):
        if path.exists():
            path.unlink()
        _play(path, 5)
        journal = Journal(path, backup_every=0)
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)

        def meanwhile(sql: str) -> None:
            if "FROM snapshots" in sql and journal.games():
                journal.delete_game(1)  # the game's thread, between the check's reads

        db.set_trace_callback(meanwhile)
        reader = Reader(path, db)
        try:
            with reader.at_one_moment() if at_one_moment else contextlib.nullcontext():
                verify(reader)
            verdicts.append("whole")
        except JournalCorrupt as error:
            verdicts.append(error.problem)
        finally:
            reader.close()
            journal.close()
    assert verdicts == ["the last game cannot be replayed (ValueError: no events to fold)", "whole"]


def test_a_verdict_of_damage_the_file_does_not_bear_out_keeps_the_journal(
    tmp_path: Path, caplog: object
) -> None:
    """Recovery sets the journal aside and goes back to the backup, losing what came after it: a
    verdict of damage from the check is confirmed from the file first, and when the file reads
    whole, the journal, the game and every change in it are kept (and the verdict logged)."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    _play(path, 3)  # the backup holds 3 changes
    journal, _ = open_journal(path, clock=lambda: NOW, defer_backups=True)
    controller = Controller(journal, clock=lambda: NOW)
    assert controller.idle(wait=True) is None
    for _ in range(4):
        controller.execute(ChangeLife(seat=0, delta=-1))
    state = controller.state

    def false_verdict() -> list[int]:
        raise JournalCorrupt(path, "the last game cannot be replayed (KeyError: 1)")

    journal.check = Check(1, false_verdict)
    with caplog.at_level(logging.WARNING, logger="aetherbox.recovery"):  # type: ignore[attr-defined]
        assert controller.idle(wait=True) is None
    assert controller.journal is journal and controller.state == state and journal.game(1).head == 7
    assert sorted(p.name for p in path.parent.iterdir() if ".damaged" in p.name) == []
    assert (
        "the check after start-up found the last game cannot be replayed (KeyError: 1), but the journal "
        "reads whole: it is kept as it is" in caplog.text
    )  # type: ignore[attr-defined]
    assert controller.execute(ChangeLife(seat=0, delta=-1)).events and journal.game(1).head == 8
    journal.close()
    with Journal(backup_path(path), backup_every=0) as copy:
        assert copy.game(1).head == 8  # the clean close backed up the kept journal


def test_a_verdict_of_damage_the_file_bears_out_is_recovered_from(tmp_path: Path) -> None:
    """The same confirmation lets real damage through: an event damaged under a running check."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    _play(path, 3)
    journal, _ = open_journal(path, clock=lambda: NOW)
    controller = Controller(journal, clock=lambda: NOW)
    assert controller.idle(wait=True) is None
    _flip_digit_in_event(path, 2)
    journal.check = Check(1, lambda: (_ for _ in ()).throw(JournalCorrupt(path, "a first look")))
    late = controller.idle(wait=True)
    assert late is not None and late.problem.startswith(
        "event 0 of change 2 in game 1 does not match its checksum"
    )
    controller.journal.close()
