"""A break at the table is kept beside the game's history, not in it: UNDO takes back the last
change of the game and leaves the clock paused or running as it was; REDO, a restart, a replay, a
backup and a recovery keep the breaks; the time played and the turn timer leave out exactly the
time the breaks covered.  A journal from before, which kept a pause as a change, replays as it
did; a damaged break row is left out with a warning, and the game plays on
(docs/decisions/0024-breaks-outside-the-history.md)."""

from __future__ import annotations

import io
import json
import logging
import random
import sqlite3
import tempfile
from pathlib import Path

import pytest
from helpers import T0, Clock, play_step, refused, state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device import game as rules
from device.commands import Advance, ChangeLife, NewGame, PassTurn
from device.console import TABLES, Console
from device.controller import Controller, Result
from device.journal import Journal, Reader, backup_path, row_crc
from device.recovery import open_journal
from device.rules.clock import (
    GameClockPaused,
    GameClockResumed,
    PauseGameClock,
    ResumeGameClock,
    SetTurnTimer,
    StartGameClock,
)
from device.state_clock import Break
from device.state_clock import ClockState
from test_clock import PLAYERS, STEP, played, step, table, turn_left


def paused(controller: Controller) -> bool:
    found = state(controller).clock
    assert found is not None
    return found.paused


def said(result: Result) -> str:
    """What a change said, as UNDO and REDO say it again (the words are the life rules')."""
    return " ".join(str(m) for m in result.messages)


def life(controller: Controller, seat: int) -> int:
    return state(controller).players[seat].life


# --- UNDO and REDO leave a break be ---------------------------------------------------------------


def test_undo_after_a_pause_takes_back_the_life_change_and_the_clock_stays_paused(
    journal: Journal, clock: Clock
) -> None:
    """The table changed a life total, then paused for a break; someone notices the change was a
    mistake and presses UNDO: the change is taken back, the break goes on."""
    controller = table(journal, clock)
    clock.now += 60
    change = said(controller.execute(ChangeLife(seat=1, delta=-3)))
    clock.now += 60
    controller.execute(PauseGameClock())
    clock.now += 300
    assert [str(m) for m in controller.undo().messages] == [f"Undone: {change}"]
    assert life(controller, 1) == 20 and paused(controller) and played(controller, clock) == 120
    assert [str(m) for m in controller.redo().messages] == [f"Redone: {change}"]
    assert life(controller, 1) == 17 and paused(controller) and played(controller, clock) == 120
    clock.now += 100
    assert [str(m) for m in controller.execute(ResumeGameClock()).messages] == [
        "Game clock running again: 0:02:00 played."
    ]
    clock.now += 30
    assert played(controller, clock) == 150
    controller.undo()  # the life change again, not the resume
    assert life(controller, 1) == 20 and not paused(controller) and played(controller, clock) == 150


def test_a_break_is_said_but_is_no_row_of_the_history_and_nothing_undo_would_take_back(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    clock.now += 10
    controller.execute(ChangeLife(seat=0, delta=2))
    change = controller.last_change()
    assert [str(m) for m in controller.execute(PauseGameClock()).messages] == [
        "Game clock paused: 0:00:10 played."
    ]
    assert controller.last_change() == change
    assert [txn.pos for txn in controller.history()] == [0, 1]
    assert (
        refused(controller, PauseGameClock()) == "The game clock is paused already: 0:00:10 played."
    )


def test_the_turn_timer_leaves_out_the_breaks_across_undo_of_the_turn_passed(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock, turn_timer="90")
    clock.now += 10
    controller.execute(PassTurn())  # Ola's turn from T0 + 10
    clock.now += 10
    controller.execute(PauseGameClock())
    clock.now += 100
    controller.execute(ResumeGameClock())
    clock.now += 10
    controller.execute(ChangeLife(seat=2, delta=-1))
    clock.now += 10
    assert turn_left(controller, clock) == 90 - 30 and played(controller, clock) == 40
    controller.undo()
    assert turn_left(controller, clock) == 60
    controller.undo()  # the turn passed: Ala's turn again, since the start, the break left out
    assert state(controller).active == 0 and turn_left(controller, clock) == 90 - 40
    controller.redo()
    assert state(controller).active == 1 and turn_left(controller, clock) == 60


def test_a_turn_passed_and_a_timer_set_during_a_break_count_from_its_end(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    clock.now += 20
    controller.execute(PauseGameClock())
    clock.now += 50
    controller.execute(SetTurnTimer(seconds=60))
    clock.now += 50
    controller.execute(Advance())
    assert turn_left(controller, clock) == 60
    clock.now += 50
    controller.execute(ResumeGameClock())
    clock.now += 15
    assert turn_left(controller, clock) == 45 and played(controller, clock) == 35


def test_a_clock_never_counts_back_when_the_wall_clock_was_set_back_during_a_break(
    journal: Journal, clock: Clock
) -> None:
    """A Pi without a real-time clock: breaks whose times overlap count each second once."""
    controller = table(journal, clock)
    clock.now += 100
    controller.execute(PauseGameClock())
    clock.now += 50
    controller.execute(ResumeGameClock())
    clock.now -= 40  # the wall clock set back
    controller.execute(PauseGameClock())
    clock.now += 60
    controller.execute(ResumeGameClock())
    assert played(controller, clock) == 100
    clock.now += 5
    assert played(controller, clock) == 105


# --- a restart, a replay, a backup ---------------------------------------------------------------------


def test_a_break_survives_a_restart_and_undo_after_it_still_leaves_it_be(
    journal_path: Path, clock: Clock
) -> None:
    with Journal(journal_path) as journal:
        controller = table(journal, clock, turn_timer="120")
        clock.now += 30
        change = said(controller.execute(ChangeLife(seat=0, delta=-5)))
        clock.now += 30
        controller.execute(PauseGameClock())
        live = controller.state
    clock.now += 3 * 3600  # the gadget was off for three hours, the clock paused
    with Journal(journal_path) as journal:
        controller = Controller(journal, clock=clock)
        assert controller.state == live and journal.replay(controller.game or 0) == live
        assert (
            paused(controller)
            and played(controller, clock) == 60
            and turn_left(controller, clock) == 60
        )
        controller.undo()
        assert life(controller, 0) == 20 and paused(controller) and played(controller, clock) == 60
        controller.execute(ResumeGameClock())
    clock.now += 600  # off again, the clock running: the time off counts
    with Journal(journal_path) as journal:
        controller = Controller(journal, clock=clock)
        assert played(controller, clock) == 660 and turn_left(controller, clock) == 120 - 660
        redone = controller.redo()
        assert [str(m) for m in redone.messages] == [f"Redone: {change}"]
        assert played(controller, clock) == 660


def test_a_snapshot_keeps_no_break_and_a_state_from_any_snapshot_has_them_all(
    journal_path: Path, clock: Clock
) -> None:
    with Journal(journal_path, snapshot_every=2) as journal:
        controller = table(journal, clock)
        clock.now += 5
        controller.execute(PauseGameClock())
        for seat in range(4):
            clock.now += 5
            controller.execute(ChangeLife(seat=seat % 3, delta=-1))
        game = controller.game or 0
        bodies = [
            row[0]
            for row in journal._db.execute("SELECT body FROM snapshots WHERE game = ?", (game,))
        ]
        assert len(bodies) == 2 and all(
            json.loads(body)["clock"]["breaks"] == [] for body in bodies
        )
        assert journal.state(game) == journal.replay(game) == controller.state
        assert state(controller).part(ClockState).breaks == (Break(began=T0 + 5),)


def test_the_backup_carries_the_breaks_and_a_recovery_from_it_keeps_them(
    tmp_path: Path, clock: Clock
) -> None:
    path = tmp_path / "games" / "aetherbox.sqlite3"
    with Journal(path) as journal:
        controller = table(journal, clock)
        clock.now += 40
        controller.execute(PauseGameClock())
        clock.now += 100
        controller.execute(ResumeGameClock())
    reader = Reader.open(backup_path(path))
    try:
        assert reader.breaks(1) == (Break(began=T0 + 40, ended=T0 + 140),)
    finally:
        reader.close()
    data = bytearray(path.read_bytes())
    data[0:16] = b"this is no db!!\0"
    path.write_bytes(bytes(data))
    journal, recovery = open_journal(path, clock=clock)
    try:
        assert recovery is not None and recovery.restored_from == backup_path(path)
        clock.now += 10
        controller = Controller(journal, clock=clock)
        assert controller.idle(wait=True) is None and played(controller, clock) == 50
    finally:
        journal.close()


def test_deleting_a_game_deletes_its_breaks(journal: Journal, clock: Clock) -> None:
    controller = table(journal, clock)
    controller.execute(PauseGameClock())
    controller.delete(1)
    assert journal._db.execute("SELECT count(*) FROM breaks").fetchone()[0] == 0


# --- at the console --------------------------------------------------------------------------------


def test_at_the_console_undo_after_pause_takes_back_the_life_change(
    journal: Journal, clock: Clock
) -> None:
    out = io.StringIO()
    console = Console(Controller(journal, rng=random.Random(3), clock=clock), out, TABLES)

    def run(*lines: str, wait: float = 0) -> list[str]:
        clock.now += wait
        start = out.tell()
        for line in lines:
            console.run_line(line)
        out.seek(start)
        said = out.read().splitlines()
        out.seek(0, io.SEEK_END)
        return said

    run("new Ala Ola first=Ala")
    (change,) = run("life Ola -4", wait=30)
    assert run("pause", wait=30) == ["Game clock paused: 0:01:00 played."]
    assert run("undo", "time", "redo", "time", wait=900) == [
        f"Undone: {change}",
        "Played: 0:01:00; the clock is paused.",
        f"Redone: {change}",
        "Played: 0:01:00; the clock is paused.",
    ]
    assert run("resume", "time", wait=60) == [
        "Game clock running again: 0:01:00 played.",
        "Played: 0:01:00.",
    ]
    assert run("undo", "undo", wait=5) == [
        f"Undone: {change}",
        "refused: Nothing to undo: this is the start of the game.",
    ]
    assert run("time") == ["Played: 0:01:05."]


# --- a journal from before ---------------------------------------------------------------------------


def _as_written_before(path: Path) -> None:
    """Make the journal at ``path`` one the version before wrote: no table of breaks, and
    snapshots of a clock that did not keep when its turn began."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TABLE breaks")
    for game, pos, schema, body in db.execute(
        "SELECT game, pos, schema, body FROM snapshots"
    ).fetchall():
        kept = json.loads(body)
        if kept["clock"] is not None:
            del kept["clock"]["turn_at"], kept["clock"]["breaks"]
        old = json.dumps(kept)
        db.execute(
            "UPDATE snapshots SET body = ?, crc = ? WHERE game = ? AND pos = ?",
            (old, row_crc(game, pos, schema, old), game, pos),
        )
    db.execute("PRAGMA user_version=3")
    db.close()


def _keep_as_before(
    journal: Journal, controller: Controller, event: GameClockPaused | GameClockResumed
) -> None:
    """A pause or resume kept as a change, as the version before kept it."""
    game = controller.game or 0
    messages, after = rules.play(journal.state(game), [event])
    command = {
        "type": "PauseGameClock" if isinstance(event, GameClockPaused) else "ResumeGameClock",
        "now": event.at,
    }
    journal.append(game, [event], command, messages, after, event.at)


def test_a_journal_from_before_with_pauses_kept_as_changes_replays_exactly(
    journal_path: Path, clock: Clock
) -> None:
    with Journal(journal_path, snapshot_every=2) as journal:
        controller = table(journal, clock, turn_timer="300")
        clock.now += 100
        _keep_as_before(journal, controller, GameClockPaused(at=clock.now))
        clock.now += 500
        _keep_as_before(journal, controller, GameClockResumed(at=clock.now))
        controller = Controller(journal, clock=clock)
        clock.now += 20
        controller.execute(ChangeLife(seat=0, delta=-1))
        before = journal.replay(controller.game or 0)
    _as_written_before(journal_path)
    clock.now += 10
    with Journal(journal_path, snapshot_every=2) as journal:
        assert journal._db.execute("PRAGMA user_version").fetchone()[0] == 4
        controller = Controller(journal, clock=clock)
        # From its snapshot, the clock does not know when the turn began (nor needs to: the turn
        # began before any break); from the start it does.
        assert journal.replay(1) == before
        assert controller.state == before.model_copy(
            update={"clock": before.clock.model_copy(update={"turn_at": None})}
        )  # type: ignore[union-attr]
        assert played(controller, clock) == 130 and turn_left(controller, clock) == 170
        assert [str(m) for txn in controller.history() for m in txn.messages()][1:3] == [
            "Game clock paused: 0:01:40 played.",
            "Game clock running again: 0:01:40 played.",
        ]
        # A break now, then the changes kept before taken back: the break stays, the old pause
        # and resume come and go with the history.
        controller.execute(PauseGameClock())
        clock.now += 60
        controller.execute(ResumeGameClock())
        clock.now += 10
        assert played(controller, clock) == 140 and turn_left(controller, clock) == 160
        controller.undo()
        assert played(controller, clock) == 140
        assert [str(m) for m in controller.undo().messages] == [
            "Undone: Game clock running again: 0:01:40 played."
        ]
        assert paused(controller) and played(controller, clock) == 100
        controller.redo()
        assert played(controller, clock) == 140
        controller.undo()
        # A clock a pause kept as a change stopped resumes with a change, as it was paused.
        assert [str(m) for m in controller.execute(ResumeGameClock()).messages] == [
            "Game clock running again: 0:01:40 played."
        ]
        assert (
            controller.last_change() is not None
            and controller.last_change().command["type"] == "ResumeGameClock"
        )  # type: ignore[union-attr]
        clock.now += 7
        assert played(controller, clock) == 107
        live = controller.state
    with Journal(journal_path) as journal:
        assert Controller(journal).state == live == journal.replay(1)


# --- damage --------------------------------------------------------------------------------------------


def test_a_damaged_break_row_is_left_out_with_a_warning_and_the_game_plays_on(
    tmp_path: Path, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games" / "aetherbox.sqlite3"
    with Journal(path) as journal:
        controller = table(journal, clock)
        clock.now += 100
        controller.execute(PauseGameClock())
        clock.now += 50
        controller.execute(ResumeGameClock())
        clock.now += 10
        controller.execute(PauseGameClock())
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("UPDATE breaks SET began = began - 1000 WHERE idx = 1")  # a flipped digit
    db.execute("UPDATE breaks SET ended = 'x', crc = NULL WHERE idx = 2")
    db.close()
    clock.now += 40
    caplog.set_level(logging.WARNING, logger="aetherbox.journal")
    journal, recovery = open_journal(path, clock=clock)
    try:
        controller = Controller(journal, clock=clock)
        assert (
            recovery is None and controller.idle(wait=True) is None
        )  # the check's verdict: no damage
        assert journal.breaks(1) == ()
        assert (
            not paused(controller) and played(controller, clock) == 200
        )  # both breaks count as played
        warned = [r.getMessage() for r in caplog.records if "break" in r.getMessage()]
        assert any("break 1 of game 1 is damaged and left out" in line for line in warned)
        assert any("break 2 of game 1 is damaged and left out" in line for line in warned)
        controller.execute(PauseGameClock())  # a new break beside the damaged rows
        clock.now += 30
        controller.execute(ResumeGameClock())
        assert journal.breaks(1) == (Break(began=T0 + 200, ended=T0 + 230),)
        assert played(controller, clock) == 200
    finally:
        journal.close()


def test_ending_a_break_whose_row_was_damaged_meanwhile_reads_the_journal_again(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    clock.now += 10
    controller.execute(PauseGameClock())
    journal._db.execute("UPDATE breaks SET began = 5.0")
    clock.now += 10
    controller.execute(ResumeGameClock())
    assert not paused(controller) and played(controller, clock) == 20


# --- any mix of changes, undo, redo and breaks -----------------------------------------------------------

STEPS = st.lists(STEP, max_size=30)


def _covered(breaks: list[list[float]], start: float, end: float) -> float:
    """Seconds of [start, end] the breaks cover (none overlap: the test's clock only goes on)."""
    return sum(max(0.0, min(b[1] if len(b) > 1 else end, end) - max(b[0], start)) for b in breaks)


def _turn_began(journal: Journal, game: int) -> float:
    """When the turn in effect began: the last turn passed, timer set or start in effect."""
    began = T0
    for _, event in journal.events(game):
        if event.type in ("game_started", "turn_passed", "turn_timer_set"):
            at = getattr(event, "at", None)
            began = began if at is None else at
    return began


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS, snapshot_every=st.integers(1, 6))
def test_played_is_wall_time_less_the_breaks_and_undo_redo_never_touch_a_break(
    steps: list[tuple[float, str, int]], snapshot_every: int
) -> None:
    clock = Clock()
    breaks: list[
        list[float]
    ] = []  # the test's own account of the breaks: [began] or [began, ended]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite3"
        with Journal(path, snapshot_every=snapshot_every) as journal:
            controller = table(journal, clock, turn_timer="90")
            game = controller.game or 0
            for wait, kind, number in steps:
                clock.now += wait
                was = (paused(controller), played(controller, clock))
                taken = play_step(controller, step(kind, number))
                if taken and kind == "pause":
                    breaks.append([clock.now])
                elif taken and kind == "resume":
                    breaks[-1].append(clock.now)
                if kind in ("undo", "redo"):
                    assert (paused(controller), played(controller, clock)) == was
                assert paused(controller) == bool(breaks and len(breaks[-1]) == 1)
                assert played(controller, clock) == pytest.approx(
                    clock.now - T0 - _covered(breaks, T0, clock.now)
                )
                timer = state(controller).part(ClockState).timer
                if timer:
                    began = _turn_began(journal, game)
                    expected = timer - (clock.now - began - _covered(breaks, began, clock.now))
                    assert turn_left(controller, clock) == pytest.approx(expected)
            live = state(controller)
            assert journal.replay(game) == live == journal.state(game)
        with Journal(path, snapshot_every=snapshot_every) as journal:
            assert Controller(journal, clock=clock).state == live


def test_a_clock_started_again_after_its_start_was_undone_runs_whatever_break_was_left(
    journal: Journal, clock: Clock
) -> None:
    """A game saved before the clock: its clock started, a break, the start taken back, the
    clock started again — the new clock runs, and the states read and kept agree."""
    events = rules.decide(None, NewGame(players=PLAYERS, first="Ala"), random.Random(1))
    journal.create_game(
        events, {"type": "NewGame"}, rules.play(None, events)[0], "Free-for-all", T0
    )
    controller = Controller(journal, clock=clock)
    clock.now += 10
    controller.execute(StartGameClock())
    clock.now += 10
    controller.execute(PauseGameClock())
    clock.now += 10
    controller.undo()
    assert state(controller).clock is None
    assert (
        refused(controller, PauseGameClock())
        == "This game's clock has not started: start it with 'clock'."
    )
    clock.now += 10
    controller.execute(StartGameClock())
    assert not paused(controller)
    clock.now += 25
    assert played(controller, clock) == 25
    assert controller.state == journal.state(1) == journal.replay(1)
    assert journal.breaks(1) == (Break(began=T0 + 20, ended=T0 + 40),)
