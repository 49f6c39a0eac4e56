"""The journal: durable settings, undo/redo that survive a restart, snapshots, and bad files."""

from __future__ import annotations

import os
import random
import sqlite3
from pathlib import Path

import pytest

from device.commands import ChangeLife, NewGame, PassTurn
from device.controller import Controller
from device.errors import (
    JournalCorrupt,
    JournalIOFailure,
    JournalLocked,
    JournalTooNew,
    JournalUnreadable,
)
from device.journal import SCHEMA, Journal, row_crc


def game(controller: Controller) -> None:
    controller.execute(
        NewGame(formats=("commander",), players=("Alice", "Bob", "Carol"), first="Alice")
    )


def test_durable_settings_on_every_connection(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        db = journal._db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.isolation_level is None
        assert not db.in_transaction


def test_one_transaction_per_command(journal_path: Path) -> None:
    statements: list[str] = []
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        journal._db.set_trace_callback(statements.append)
        controller.execute(ChangeLife(seat=0, delta=-3, source=1))
    begins = [s for s in statements if s.startswith("BEGIN")]
    assert begins == ["BEGIN IMMEDIATE"] and "COMMIT" in statements
    # after it only the closing backup's fold of the write-ahead log
    assert statements[statements.index("COMMIT") + 1 :] == ["PRAGMA wal_checkpoint(TRUNCATE)"]


def test_undo_and_redo_survive_a_restart(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        for i in range(5):
            controller.execute(ChangeLife(seat=i % 3, delta=-(i + 1)))
        controller.undo()
        controller.undo()
        undone_state = controller.state
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        assert controller.state == undone_state
        controller.redo()
        controller.redo()
        assert controller.state is not None
        assert [p.life for p in controller.state.players] == [40 - 1 - 4, 40 - 2 - 5, 40 - 3]


def test_snapshots_make_resume_short_and_equal_to_full_replay(journal_path: Path) -> None:
    with Journal(journal_path, snapshot_every=10) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        for i in range(35):
            controller.execute(ChangeLife(seat=i % 3, delta=-1) if i % 2 else PassTurn())
        snapshots = journal._db.execute("SELECT pos FROM snapshots ORDER BY pos").fetchall()
        assert snapshots == [(10,), (20,), (30,)]
        assert controller.game is not None
        assert journal.state(controller.game) == journal.replay(controller.game) == controller.state
        for _ in range(12):
            controller.undo()
        assert journal.state(controller.game) == journal.replay(controller.game)
        controller.execute(
            ChangeLife(seat=0, delta=-1)
        )  # drops the undone changes and their snapshots
        assert journal._db.execute("SELECT pos FROM snapshots ORDER BY pos").fetchall() == [
            (10,),
            (20,),
        ]


def test_a_broken_snapshot_is_skipped(journal_path: Path) -> None:
    with Journal(journal_path, snapshot_every=5) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        for _ in range(7):
            controller.execute(PassTurn())
        journal._db.execute("UPDATE snapshots SET body = '{\"broken\": true}'")
        assert controller.game is not None
        assert journal.state(controller.game) == controller.state


def test_several_saved_games_and_the_last_one_resumes(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        first = controller.game
        controller.execute(NewGame(players=("Ola", "Ela"), first="Ola"))
        second = controller.game
        assert [g.id for g in controller.games()] == [second, first]
        assert first is not None
        controller.load(first)
    with Journal(journal_path) as journal:
        controller = Controller(journal)
        assert controller.game == first
        assert controller.state is not None and controller.state.players[0].name == "Alice"


def test_not_a_database_is_reported_and_not_overwritten(journal_path: Path) -> None:
    journal_path.parent.mkdir(parents=True)
    junk = b"this is a shopping list, not a journal\n" * 200
    journal_path.write_bytes(junk)
    with pytest.raises(JournalCorrupt) as error:
        Journal(journal_path)
    assert str(error.value).startswith(
        f"{journal_path}: the journal is damaged or is not an aetherbox journal"
    )
    assert journal_path.read_bytes() == junk


def test_damaged_pages_are_reported_and_not_overwritten(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        for _ in range(200):
            controller.execute(PassTurn())
        journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(journal_path.read_bytes())
    for offset in range(4096, len(data), 4096):  # scribble over every page's header but the first
        data[offset : offset + 16] = b"\xff" * 16
    journal_path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt) as error:
        Journal(journal_path)
    assert str(journal_path) in str(error.value)
    assert journal_path.read_bytes() == bytes(data)


def test_other_sqlite_file_is_refused(journal_path: Path) -> None:
    journal_path.parent.mkdir(parents=True)
    db = sqlite3.connect(journal_path)
    db.execute("CREATE TABLE recipes (name TEXT)")
    db.commit()
    db.close()
    with pytest.raises(JournalCorrupt) as error:
        Journal(journal_path)
    assert str(error.value) == (
        f"{journal_path}: this SQLite file is not an aetherbox journal. It has not been changed; "
        "choose another file with --db."
    )


def test_newer_schema_is_refused(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        journal._db.execute(f"PRAGMA user_version={SCHEMA + 1}")
    with pytest.raises(JournalTooNew) as error:
        Journal(journal_path)
    assert (
        f"written by a newer aetherbox (journal version {SCHEMA + 1}, this one reads up to {SCHEMA})"
        in str(error.value)
    )
    assert isinstance(error.value, ValueError)


def test_newer_event_schema_is_refused(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        controller.execute(PassTurn())
        _rewrite_events(
            journal, "UPDATE events SET schema = 99 WHERE pos = 1"
        )  # as a newer aetherbox writes
    with pytest.raises(JournalTooNew) as error, Journal(journal_path) as journal:
        Controller(journal)
    assert "event version 99" in str(error.value)


def test_unreadable_event_names_its_place(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        controller.execute(PassTurn())
        _rewrite_events(
            journal, 'UPDATE events SET body = \'{"type": "turn_passed", "to": "x"}\' WHERE pos = 1'
        )
    with pytest.raises(JournalCorrupt) as error, Journal(journal_path) as journal:
        Controller(journal)
    assert "event 0 of change 1 in game 1 cannot be read" in str(error.value)


def _rewrite_events(journal: Journal, sql: str) -> None:
    """Change events the way a writer would: with their checksums made to match."""
    journal._db.execute(sql)
    for game, pos, idx, schema, body in journal._db.execute(
        "SELECT game, pos, idx, schema, body FROM events"
    ).fetchall():
        journal._db.execute(
            "UPDATE events SET crc = ? WHERE game = ? AND pos = ? AND idx = ?",
            (row_crc(game, pos, idx, schema, body), game, pos, idx),
        )


def test_hw5_a_flipped_digit_in_an_event_is_caught_by_its_checksum(journal_path: Path) -> None:
    """HW-5: "delta":-1 become -7 still parses and replays; its checksum no longer matches."""
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        controller.execute(ChangeLife(seat=0, delta=-1))
        journal._db.execute(
            "UPDATE events SET body = replace(body, '\"delta\":-1', '\"delta\":-7') WHERE pos = 1"
        )
    with pytest.raises(JournalCorrupt) as error, Journal(journal_path) as journal:
        Controller(journal)
    assert "event 0 of change 1 in game 1 does not match its checksum" in str(error.value)


def test_second_process_is_locked_out(journal_path: Path) -> None:
    with Journal(journal_path):
        with pytest.raises(JournalLocked) as error:
            Journal(journal_path)
    assert str(error.value) == (
        f"{journal_path}: another aetherbox is using this journal (process {os.getpid()}). Stop it first, "
        "or use another journal with --db."
    )


def test_hw5_a_second_writer_through_a_symlink_is_locked_out(
    journal_path: Path, tmp_path: Path
) -> None:
    """HW-5: one writer per journal file, however it is named: a symlink to the live journal
    finds the lock of the process that holds it."""
    link = tmp_path / "elsewhere" / "link.sqlite3"
    link.parent.mkdir()
    with Journal(journal_path) as journal:
        Controller(journal).execute(NewGame(players=("A", "B"), first="A"))
        link.symlink_to(journal_path)
        with pytest.raises(JournalLocked) as error:
            Journal(link)
    assert f"(process {os.getpid()})" in str(error.value)


def test_hw5_a_second_writer_through_a_hard_link_is_locked_out(
    journal_path: Path, tmp_path: Path
) -> None:
    """HW-5: a hard link has a name of its own but the same file: the journal's own lock refuses it."""
    link = tmp_path / "hard.sqlite3"
    with Journal(journal_path) as journal:
        Controller(journal).execute(NewGame(players=("A", "B"), first="A"))
        os.link(journal_path, link)
        with pytest.raises(JournalLocked) as error:
            Journal(link)
    assert str(error.value) == (
        f"{link}: another aetherbox is using this journal (under another name). Stop it first, or use another "
        "journal with --db."
    )
    with Journal(link) as again:  # once the first is closed, either name opens it
        assert again.last_game() is not None


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_directory_is_reported(tmp_path: Path) -> None:
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(JournalUnreadable):
            Journal(locked / "games" / "j.sqlite3")
    finally:
        locked.chmod(0o700)


def test_unwritable_file_is_reported(journal_path: Path, tmp_path: Path) -> None:
    # A directory where the file should be cannot be opened, even by root.
    journal_path.mkdir(parents=True)
    with pytest.raises(JournalUnreadable) as error:
        Journal(journal_path)
    assert "cannot read and write the journal" in str(error.value)
    assert isinstance(error.value, PermissionError)


class _FailingCommit:
    """Stands in for the connection and fails COMMIT the way a dying SD card does."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.commits = 0

    def execute(self, sql: str, *args: object) -> object:
        if sql == "COMMIT":
            self.commits += 1
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode = 10  # type: ignore[attr-defined]
            raise error
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


def test_failed_commit_is_fatal_and_never_retried(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        game(controller)
        before = controller.state
        failing = _FailingCommit(journal._db)
        journal._db = failing  # type: ignore[assignment]
        with pytest.raises(JournalIOFailure) as error:
            controller.execute(ChangeLife(seat=0, delta=-1))
        assert "the storage failed (disk I/O error) while saving a change" in str(error.value)
        assert controller.state == before  # nothing shown that was not kept
        with pytest.raises(JournalIOFailure):
            controller.execute(ChangeLife(seat=0, delta=-1))
        assert failing.commits == 1
        journal._db = failing.db
    with Journal(journal_path) as journal:
        assert Controller(journal).state == before


def test_opened_with_psow_off_and_quick_check_at_start(journal_path: Path) -> None:
    with Journal(journal_path):
        pass
    statements: list[str] = []
    opened: list[object] = []
    original = sqlite3.connect

    def traced(*args: object, **kwargs: object) -> sqlite3.Connection:
        opened.append(args[0])
        db = original(*args, **kwargs)  # type: ignore[arg-type]
        db.set_trace_callback(statements.append)
        return db

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sqlite3, "connect", traced)
        Journal(journal_path, backup_every=0).close()  # backups open a second connection
    assert opened == [f"file:{journal_path}?psow=0"]
    assert "PRAGMA quick_check" in statements
    assert statements.index("PRAGMA synchronous=FULL") < statements.index("PRAGMA quick_check")


def test_hw5_a_deferred_backup_waits_for_idle_and_comes_after_the_reply(journal_path: Path) -> None:
    """HW-5: with backups deferred (the kiosk and the console), the change that makes one due is
    saved and answered first; the whole-journal copy is taken when the caller is idle."""
    import io

    from device.console import TABLES, Console
    from device.journal import backup_path

    with Journal(journal_path, backup_every=2, defer_backups=True) as journal:
        out = io.StringIO()
        console = Console(Controller(journal, rng=random.Random(1)), out, TABLES)
        taken: list[str] = []
        real = journal.backup

        def backup() -> Path | None:
            taken.append(out.getvalue().splitlines()[-1])  # what had been answered by then
            return real()

        journal.backup = backup  # type: ignore[method-assign]
        console.run(["new duel Ola Ela first=Ola", "damage Ela 1", "damage Ela 2"])
        assert taken == [
            "New game (Two-player game) for Ola, Ela, 20 life. Ola goes first.",
            "Ela: 19 → 17 life.",
        ]
        assert journal.backup_if_due() is None  # nothing due any more
    with Journal(backup_path(journal_path), backup_every=0) as copy:
        assert copy.game(1).tip == 2


def test_one_changes_events_are_read_alone(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B"), first="A"))
        results = [
            controller.execute(ChangeLife(seat=1, delta=-2, source=0)),
            controller.execute(PassTurn()),
        ]
        game = controller.game
        assert game is not None
        read = journal.events_read
        assert journal.events_at(game, 2) == results[1].events
        assert journal.events_read - read == len(results[1].events)
        assert journal.events_at(game, 1) == results[0].events
        assert [e for p, e in journal.events(game) if p == 2] == results[1].events


def test_what_the_gadget_keeps_beside_its_games_survives_a_restart(journal_path: Path) -> None:
    """The event a gadget joined (and the like) is kept in the journal as durably as a change,
    and read back after a restart; None forgets it."""
    with Journal(journal_path) as journal:
        assert journal.meta("event.joined") is None
        journal.set_meta("event.joined", "Spring Cup")
        journal.set_meta("event.session", "7")
        journal.set_meta("event.session", None)
    with Journal(journal_path) as journal:
        assert (journal.meta("event.joined"), journal.meta("event.session")) == ("Spring Cup", None)
        assert journal.last_game() is None  # beside the games: no game's place changes
