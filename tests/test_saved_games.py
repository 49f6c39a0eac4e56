"""Saved games: listing them in one wording, deleting one for good in one transaction, and the
journal's backups, checks and recovery agreeing with the deletion (docs/decisions/0019)."""

from __future__ import annotations

import logging
import random
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.commands import ChangeLife, NewGame, PassTurn, ReverseTurnOrder
from device.controller import Controller
from device.errors import IllegalCommand
from device.journal import Journal, backup_path
from device.recovery import open_journal, verify

NOW = 1_750_000_000.0
TABLES = ("games", "txns", "events", "snapshots")


def _controller(journal: Journal) -> Controller:
    return Controller(journal, rng=random.Random(3), clock=lambda: NOW)


def _two_games(journal: Journal, changes: int = 20) -> Controller:
    """Game 1 (Commander, some changes and snapshots), then game 2 (a duel), the one shown."""
    controller = _controller(journal)
    controller.execute(NewGame(formats=("commander",), players=("Ann", "Bo", "Cy"), first="Ann"))
    for i in range(changes):
        controller.execute(
            ChangeLife(seat=i % 3, delta=-1, source=(i + 1) % 3) if i % 4 else PassTurn()
        )
    controller.execute(NewGame(formats=("duel",), players=("Ola", "Ela"), first="Ola"))
    return controller


def _rows(path: Path, game: int) -> dict[str, int]:
    db = sqlite3.connect(path)
    try:
        return {
            table: db.execute(
                f"SELECT count(*) FROM {table} WHERE {'id' if table == 'games' else 'game'} = ?",
                (game,),
            ).fetchone()[0]
            for table in TABLES
        }
    finally:
        db.close()


def test_the_list_says_number_formats_players_turn_and_result(journal_path: Path) -> None:
    with Journal(journal_path, backup_every=0) as journal:
        controller = _two_games(journal)
        controller.execute(ChangeLife(seat=1, delta=-20, source=0))
        listed = controller.saved_games()
        assert [(s.id, str(s.title), str(s.progress), s.when(), s.damaged) for s in listed] == [
            (
                2,
                "Two-player game: Ola, Ela",
                "over: Ola won (last player standing)",
                listed[0].when(),
                False,
            ),
            (1, "Commander: Ann, Bo, Cy", "turn 6", listed[1].when(), False),
        ]
        assert (
            str(listed[1].line(shown=False))
            == f"    1  {listed[1].when()}  Commander: Ann, Bo, Cy  (turn 6)"
        )
        assert str(listed[0].line(shown=True)).startswith("*   2  ")


def test_a_duel_and_a_pod_count_rounds(journal_path: Path) -> None:
    with Journal(journal_path, backup_every=0) as journal:
        controller = _controller(journal)
        controller.execute(NewGame(formats=("wizards_duel",), players=("Ala", "Ola"), first="Ala"))
        controller.execute(
            NewGame(formats=("conspiracy",), players=("A", "B", "C", "D"), first="A")
        )
        assert [str(s.progress) for s in controller.saved_games()] == ["round 1", "round 1"]


def test_delete_removes_every_row_of_the_game_in_one_transaction(journal_path: Path) -> None:
    with Journal(journal_path, backup_every=0, snapshot_every=4) as journal:
        controller = _two_games(journal)
        shown = controller.state
        assert all(_rows(journal_path, 1).values())  # a game with changes and snapshots
        statements: list[str] = []
        journal._db.set_trace_callback(statements.append)
        result = controller.delete(1)
        journal._db.set_trace_callback(None)
        assert [m.key for m in result.messages] == ["games.deleted"]
        assert str(result.messages[0]) == "Deleted game 1: Commander: Ann, Bo, Cy."
        assert [s for s in statements if s in ("BEGIN IMMEDIATE", "COMMIT")] == [
            "BEGIN IMMEDIATE",
            "COMMIT",
        ]
        assert controller.game == 2 and controller.state == shown  # the game shown goes on
        assert [s.id for s in controller.saved_games()] == [2]
        assert journal.deleted() == {1: NOW}
        assert journal.integrity_check() == ["ok"]
        assert verify(journal) == (2, [])  # the whole journal's check: the game shown, replayed
    assert _rows(journal_path, 1) == dict.fromkeys(TABLES, 0)


def test_a_deleted_games_number_is_never_given_again(journal_path: Path) -> None:
    """SQLite would give the largest number again; a backup could then hold another game by it."""
    with Journal(journal_path, backup_every=0) as journal:
        controller = _two_games(journal, changes=2)
        controller.delete(2)
        controller.execute(NewGame(players=("Ann", "Bo"), first="Ann"))
        assert controller.game == 3
        assert [s.id for s in controller.saved_games()] == [3, 1]


def test_deleting_the_game_shown_leaves_none_shown_even_after_a_restart(journal_path: Path) -> None:
    with Journal(journal_path, backup_every=0) as journal:
        controller = _two_games(journal, changes=2)
        result = controller.delete(2)
        assert (
            str(result.messages[0])
            == "Deleted game 2: Two-player game: Ola, Ela. No game is running now."
        )
        assert (controller.game, controller.state, result.state) == (None, None, None)
        with pytest.raises(IllegalCommand, match="No game is running"):
            controller.undo()  # nothing to take back: a deletion is not a change of a game
    with Journal(journal_path, backup_every=0) as journal:
        controller = _controller(journal)
        assert (controller.game, controller.state) == (None, None)  # not the other saved game
        assert [s.id for s in controller.saved_games()] == [1]
        controller.load(1)
    with Journal(journal_path, backup_every=0) as journal:
        assert _controller(journal).game == 1


def test_deleting_a_game_there_is_not_is_refused(journal_path: Path) -> None:
    with Journal(journal_path, backup_every=0) as journal:
        controller = _two_games(journal, changes=2)
        for game in (3, 0):
            with pytest.raises(IllegalCommand) as refused:
                controller.delete(game)
            assert str(refused.value) == f"There is no saved game {game}; 'games' lists them."
        controller.delete(1)
        with pytest.raises(IllegalCommand, match="There is no saved game 1"):
            controller.delete(1)  # deleted already
        with pytest.raises(IllegalCommand, match="There is no saved game 1"):
            controller.load(1)


# --- backups and recovery ---------------------------------------------------------------------------


def test_hw5_a_deletion_is_followed_by_a_backup_without_the_game(journal_path: Path) -> None:
    with Journal(journal_path, backup_every=25) as journal:
        controller = _two_games(journal, changes=2)
        controller.delete(1)
        with Journal(backup_path(journal_path), backup_every=0) as copy:
            assert [info.id for info in copy.games()] == [2]
            assert copy.deleted() == {1: NOW}


def test_hw5_a_backup_older_than_a_deletion_is_not_taken_for_damage_and_is_made_again(
    journal_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The power went after a deletion and before the backup that follows it: the backup has a
    game the journal has not, which would otherwise mean the journal lost changes (a damaged
    write-ahead log), and the backup would be restored over it."""
    with Journal(journal_path, backup_every=0) as journal:
        _two_games(journal, changes=2)
        journal.backup()  # holds game 1
        _controller(journal).delete(1)
    journal, recovery = open_journal(journal_path, clock=lambda: NOW)
    try:
        assert recovery is None and not list(journal_path.parent.glob("*.damaged-*"))
        controller = _controller(journal)
        assert controller.idle(wait=True) is None  # the check's verdict: sound; then the backup due
        with Journal(backup_path(journal_path), backup_every=0) as copy:
            assert [info.id for info in copy.games()] == [2]
    finally:
        journal.close()


def _flip_an_event(path: Path, game: int) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    changed = db.execute(
        "UPDATE events SET body = replace(body, '\"delta\":-1', '\"delta\":-7') "
        "WHERE game = ? AND pos = (SELECT min(pos) FROM events WHERE game = ? AND body LIKE "
        "'%\"delta\":-1%')",
        (game, game),
    ).rowcount
    db.close()
    assert changed == 1


def test_hw5_a_restored_backup_does_not_bring_a_deleted_game_back(
    journal_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Damage found after a deletion whose backup never came: the backup is restored, and the
    games the damaged journal says were deleted are deleted from it again."""
    with Journal(journal_path, backup_every=0) as journal:
        controller = _two_games(journal)
        controller.load(1)
        journal.backup()  # holds both games, game 1 shown
        controller.delete(2)
    _flip_an_event(journal_path, 1)
    caplog.set_level(logging.WARNING, logger="aetherbox")  # another test may have quietened it
    journal, recovery = open_journal(journal_path, clock=lambda: NOW)
    try:
        controller = _controller(journal)
        recovery = recovery or controller.idle(wait=True)
        assert recovery is not None and recovery.restored_from == backup_path(journal_path)
        assert [info.id for info in journal.games()] == [1]
        assert journal.deleted() == {2: NOW}
        assert "game(s) 2, deleted after the backup was made, were deleted again" in caplog.text
    finally:
        journal.close()


# --- damaged games in the list ----------------------------------------------------------------------


def test_hw5_a_game_with_a_damaged_event_is_listed_as_damaged_and_can_be_deleted(
    journal_path: Path,
) -> None:
    """A flipped digit in an old game's event: the list names the game (by the title the journal
    keeps) as damaged rather than failing, the game shown goes on, and the damaged game can be
    deleted; nothing is restored from a backup for it."""
    with Journal(journal_path, backup_every=0) as journal:
        _two_games(journal)
    _flip_an_event(journal_path, 1)
    journal, recovery = open_journal(journal_path, clock=lambda: NOW)
    try:
        controller = _controller(journal)
        assert (
            recovery is None and controller.idle(wait=True) is None
        )  # the check reads game 2 only
        listed = controller.saved_games()
        assert [(s.id, str(s.title), str(s.progress), s.damaged) for s in listed] == [
            (2, "Two-player game: Ola, Ela", "turn 1", False),
            (1, "Commander: Ann, Bo, Cy", "damaged, cannot be played", True),
        ]
        result = controller.delete(1)
        assert str(result.messages[0]) == "Deleted game 1: Commander: Ann, Bo, Cy."
        assert [s.id for s in controller.saved_games()] == [2] and controller.game == 2
        assert not list(journal_path.parent.glob("*.damaged-*"))
    finally:
        journal.close()


def test_hw5_damaged_texts_and_a_damaged_title_still_list_and_delete(journal_path: Path) -> None:
    """A change's text (what the log says) and the game's stored title have no part in the list:
    bytes that are no longer UTF-8 in either never make it fail."""
    with Journal(journal_path, backup_every=0) as journal:
        _two_games(journal)
    db = sqlite3.connect(journal_path, isolation_level=None)
    db.execute("UPDATE txns SET summary = CAST(X'FF00FE' AS TEXT) WHERE game = 1 AND pos = 3")
    db.execute("UPDATE games SET title = CAST(X'436F6D6DFF' AS TEXT) WHERE id = 1")
    db.close()
    with Journal(journal_path, backup_every=0) as journal:
        controller = _controller(journal)
        assert [(s.id, str(s.title), s.damaged) for s in controller.saved_games()] == [
            (2, "Two-player game: Ola, Ela", False),
            (1, "Commander: Ann, Bo, Cy", False),
        ]
        assert journal.game(1).title == "Comm\ufffd"
        controller.delete(1)
        assert [s.id for s in controller.saved_games()] == [2]


def test_the_journal_of_version_2_gains_the_deleted_games(journal_path: Path) -> None:
    """A journal written before games could be deleted opens and can delete one."""
    with Journal(journal_path, backup_every=0) as journal:
        _two_games(journal, changes=2)
    db = sqlite3.connect(journal_path, isolation_level=None)
    db.execute("DROP TABLE deleted")
    db.execute("PRAGMA user_version=2")
    db.close()
    with Journal(journal_path, backup_every=0) as journal:
        assert journal.deleted() == {}
        _controller(journal).delete(1)
        assert journal.deleted() == {1: NOW}


# --- any order of playing, switching, undoing and deleting ------------------------------------------

STEPS = st.lists(
    st.one_of(
        st.just(("new", 0)),
        st.just(("change", 0)),
        st.just(("undo", 0)),
        st.just(("reverse", 0)),
        st.tuples(st.just("load"), st.integers(0, 5)),
        st.tuples(st.just("delete"), st.integers(0, 5)),
    ),
    max_size=25,
)


def _step(controller: Controller, kept: dict[int, object], step: tuple[str, int]) -> None:
    """One step of the table's; ``kept`` follows each saved game's state as the table left it."""
    kind, which = step
    games = sorted(kept)
    try:
        if kind == "new":
            controller.execute(NewGame(players=("A", "B", "C"), first="A"))
        elif kind == "change":
            controller.execute(ChangeLife(seat=1, delta=-1, source=0))
        elif kind == "reverse":
            controller.execute(ReverseTurnOrder())
        elif kind == "undo":
            controller.undo()
        elif games and kind == "load":
            controller.load(games[which % len(games)])
        elif games:
            gone = games[which % len(games)]
            controller.delete(gone)
            del kept[gone]
    except IllegalCommand:
        pass
    if controller.game is not None:
        kept[controller.game] = controller.state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS, snapshot_every=st.integers(1, 4))
def test_deleting_never_touches_another_game_and_never_gives_a_number_twice(
    steps: list[tuple[str, int]],
    snapshot_every: int,
) -> None:
    """Whatever is played, resumed, undone and deleted in between: every game left is as the
    table left it, from its snapshots and from every event alike, after a restart too; a new
    game's number was never another's; the file stays sound."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite3"
        kept: dict[int, object] = {}
        numbers: list[int] = []
        with Journal(path, backup_every=3, snapshot_every=snapshot_every) as journal:
            controller = _controller(journal)
            for step in steps:
                _step(controller, kept, step)
                if controller.game is not None and controller.game not in numbers:
                    numbers.append(controller.game)
            assert numbers == sorted(numbers)
            assert journal.integrity_check() == ["ok"]
        for copy in (path, backup_path(path)):
            if not copy.exists():
                continue
            with Journal(copy, backup_every=0) as journal:
                assert {info.id for info in journal.games()} == set(kept)
                for game, state in kept.items():
                    assert journal.state(game) == journal.replay(game) == state
