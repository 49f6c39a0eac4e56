"""The wall clock set forward or back mid-game moves none of the game's durations: the time
played, the turn timer and a Conspiracy round's clock count the game's time (``GameTime``), which
starts on the wall clock and advances with the monotonic clock, and across a restart goes on from
the last time the journal knows (docs/decisions/0027-durations-on-the-monotonic-clock.md).

A Raspberry Pi has no real-time clock: it boots at 1970 (or the time it last saved) and sets its
wall clock from the network mid-game.  Here both clocks are the test's: ``mono`` moves only when
time passes, ``wall`` moves with it and also jumps, as a clock being set does.  The console is
driven line by line, as a table types."""

from __future__ import annotations

import io
import os
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.commands import NewGame
from device.console import TABLES, Console
from device.controller import Controller
from device.journal import Journal
from device.rules.clock import PauseGameClock, ResumeGameClock
from device.rules.life import ChangeLife
from device.state_clock import GameTime
from device.translations import ConsoleTranslator

NOW = 1_760_000_000.0  # October 2025: a clock set from the network
BOOT = 37.5  # 1970: a Pi without a real-time clock, 37.5 seconds after it booted
YEARS = 55 * 365 * 24 * 3600.0
#: Sequences of steps, jumps, breaks, changes and restarts the property tries; a benchmark run
#: raises it (AETHERBOX_CLOCK_TRIALS=2000).
TRIALS = int(os.environ.get("AETHERBOX_CLOCK_TRIALS", "40"))


class Clocks:
    """A Pi's two clocks in the test's hands."""

    def __init__(self, wall: float, mono: float = 5000.0) -> None:
        self.wall = wall
        self.mono = mono

    def pass_(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds

    def set_wall(self, wall: float) -> None:
        """The wall clock set (from the network, by hand): the monotonic clock does not move."""
        self.wall = wall

    def game_time(self) -> GameTime:
        return GameTime(wall=lambda: self.wall, monotonic=lambda: self.mono)


class Table:
    """A console on a journal, on a Pi whose clocks the test holds."""

    def __init__(self, path: Path, clocks: Clocks) -> None:
        self.clocks = clocks
        self.journal = Journal(path)
        self.controller = Controller(self.journal, rng=random.Random(3), clock=clocks.game_time())
        self.out = io.StringIO()
        self.console = Console(self.controller, self.out, TABLES, ConsoleTranslator("en"))

    def run(self, *lines: str, wait: float = 0.0) -> list[str]:
        """``wait`` seconds pass, then the lines are typed; what the console printed."""
        self.clocks.pass_(wait)
        start = self.out.tell()
        for line in lines:
            self.console.run_line(line)
        self.out.seek(start)
        said = self.out.read().splitlines()
        self.out.seek(0, io.SEEK_END)
        return said

    def close(self) -> None:
        self.journal.close()


def test_the_pi_sets_its_clock_from_1970_to_now_mid_turn_and_nothing_moves(tmp_path: Path) -> None:
    clocks = Clocks(BOOT)
    table = Table(tmp_path / "j.sqlite3", clocks)
    table.run("new commander Ala Ola Ewa first=Ala turn_timer=90")
    assert table.run("time", wait=30) == ["Played: 0:00:30.", "Ala's turn: 1:00 left of 1:30."]
    clocks.set_wall(NOW)  # the network's time, 55 years on
    assert table.run("time") == ["Played: 0:00:30.", "Ala's turn: 1:00 left of 1:30."]
    assert table.run("time", wait=20) == ["Played: 0:00:50.", "Ala's turn: 0:40 left of 1:30."]
    assert table.run("next", "pause", wait=5) == [
        "Ala: main phase.",
        "Game clock paused: 0:00:55 played.",
    ]
    clocks.set_wall(BOOT)  # and back to 1970 during the break
    assert table.run("time", wait=600) == [
        "Played: 0:00:55; the clock is paused.",
        "Ala's turn: 0:35 left of 1:30.",
    ]
    assert table.run("resume", "time", wait=1) == [
        "Game clock running again: 0:00:55 played.",
        "Played: 0:00:55.",
        "Ala's turn: 0:35 left of 1:30.",
    ]
    clocks.set_wall(NOW + YEARS)  # forward again, far
    assert table.run("time", wait=34) == ["Played: 0:01:29.", "Ala's turn: 0:01 left of 1:30."]
    assert table.run("time", wait=1) == ["Played: 0:01:30.", "Ala's turn: the time is up (1:30)."]
    assert table.run("next", "time", wait=10) == [
        "Turn 2: Ola's upkeep.",
        "Played: 0:01:40.",
        "Ola's turn: 1:30 left of 1:30.",
    ]
    table.close()


def test_across_a_restart_the_durations_go_on_from_the_journal_whatever_the_wall_clock_says(
    tmp_path: Path,
) -> None:
    """The Pi rebooted at 1970, or its clock was set years on while it was off: the game goes on
    from its last change in the journal, the turn timer from where it stood."""
    path = tmp_path / "j.sqlite3"
    clocks = Clocks(NOW)
    table = Table(path, clocks)
    table.run("new commander Ala Ola first=Ala turn_timer=120")
    assert table.run("next", "life Ola -3", wait=40) == ["Ala: main phase.", "Ola: 40 → 37 life."]
    clocks.set_wall(BOOT)  # mid-game, back to 1970
    assert table.run("life Ola -2", wait=20) == [
        "Ola: 37 → 35 life."
    ]  # the journal's last change, at 1:00 played
    assert table.run("time", wait=15) == ["Played: 0:01:15.", "Ala's turn: 0:45 left of 2:00."]
    table.close()

    for wall in (
        BOOT,
        NOW,
        NOW + YEARS,
        NOW + 3600,
    ):  # a reboot at 1970, a clock set, far ahead, an hour off
        clocks = Clocks(wall, mono=12.0)  # the monotonic clock starts again with the boot
        table = Table(path, clocks)
        assert table.run("time") == ["Played: 0:01:00.", "Ala's turn: 1:00 left of 2:00."], wall
        assert table.run("time", wait=30) == [
            "Played: 0:01:30.",
            "Ala's turn: 0:30 left of 2:00.",
        ], wall
        table.close()


def test_a_break_across_a_restart_and_a_jump_ends_with_the_time_it_had(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    clocks = Clocks(BOOT)
    table = Table(path, clocks)
    table.run("new Ala Ola first=Ala")
    assert table.run("pause", wait=70) == ["Game clock paused: 0:01:10 played."]
    table.close()
    clocks = Clocks(NOW, mono=3.0)  # the next day, the clock set
    table = Table(path, clocks)
    assert table.run("time", wait=3600) == ["Played: 0:01:10; the clock is paused."]
    clocks.set_wall(BOOT)
    assert table.run("resume", wait=5) == ["Game clock running again: 0:01:10 played."]
    assert table.run("time", wait=50) == ["Played: 0:02:00."]
    table.close()


def test_a_new_game_starts_on_the_wall_clock_and_a_loaded_one_goes_on_from_its_journal(
    tmp_path: Path,
) -> None:
    """The change times the history shows are the wall clock's for a new game; loading another
    game goes on from its last change, the time it was not shown not played."""
    clocks = Clocks(NOW)
    table = Table(tmp_path / "j.sqlite3", clocks)
    table.run("new Ala Ola first=Ala")
    table.run("next", wait=100)
    assert table.run("time") == ["Played: 0:01:40."]
    clocks.set_wall(NOW + YEARS)
    assert table.run("new Ewa Ida first=Ewa", wait=10) == [
        "New game (Free-for-all) for Ewa, Ida, 20 life. Ewa goes first."
    ]
    last = table.controller.last_change()
    assert last is None and table.controller.journal.game(2).created == NOW + YEARS + 10
    assert table.run("time", wait=7) == ["Played: 0:00:07."]
    clocks.set_wall(BOOT)
    assert table.run("load 1", "time", wait=300) == [
        "Resumed game 1: Free-for-all: Ala, Ola.",
        "Played: 0:01:40.",
    ]
    assert table.run("load 1", "time", wait=5) == [
        "Resumed game 1: Free-for-all: Ala, Ola.",
        "Played: 0:01:45.",
    ]
    assert table.run("load 2", "time", wait=5) == [
        "Resumed game 2: Free-for-all: Ewa, Ida.",
        "Played: 0:00:00.",
    ]
    table.close()


def test_a_conspiracy_rounds_clock_moves_with_the_game_not_the_wall(tmp_path: Path) -> None:
    clocks = Clocks(BOOT)
    table = Table(tmp_path / "j.sqlite3", clocks)
    table.run("new conspiracy Ala Ola Ewa Ida time_limit=60")
    assert table.run("clock", wait=5) == ["Round 1's clock is running: 60 minutes."]
    assert table.run("time", wait=600) == ["50 minute(s) left in round 1.", "Played: 0:10:05."]
    clocks.set_wall(NOW)
    assert table.run("time", wait=60) == ["49 minute(s) left in round 1.", "Played: 0:11:05."]
    clocks.set_wall(BOOT)
    assert table.run("time", wait=60) == ["48 minute(s) left in round 1.", "Played: 0:12:05."]
    table.close()


def test_the_game_time_starts_on_the_wall_clock_and_then_follows_only_the_monotonic_one(
    tmp_path: Path,
) -> None:
    clocks = Clocks(NOW)
    game_time = clocks.game_time()
    assert game_time() == NOW
    clocks.pass_(2.5)
    clocks.set_wall(0.0)
    assert game_time() == NOW + 2.5
    game_time.set(100.0)
    clocks.pass_(1.0)
    clocks.set_wall(NOW + YEARS)
    assert game_time() == 101.0
    with Journal(tmp_path / "j.sqlite3") as journal:  # as the console and the kiosk make it
        assert isinstance(Controller(journal).clock, GameTime)


# --- any steps and jumps -----------------------------------------------------------------------------

STEP = st.floats(min_value=0.0, max_value=4000.0, allow_nan=False)
JUMP = st.one_of(
    st.floats(min_value=-3e9, max_value=3e9, allow_nan=False), st.sampled_from([-NOW, YEARS, 0.0])
)
ACTS = st.lists(
    st.one_of(
        st.tuples(st.just("pass"), STEP),
        st.tuples(st.just("jump"), JUMP),
        st.tuples(st.just("break"), st.just(0.0)),
        st.tuples(st.just("change"), st.just(0.0)),
        st.tuples(st.just("restart"), JUMP),
    ),
    max_size=25,
)


@settings(max_examples=TRIALS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.sampled_from([BOOT, NOW, NOW + YEARS]), acts=ACTS)
def test_the_time_played_is_the_monotonic_time_while_the_clock_runs_whatever_the_wall_clock_does(
    start: float, acts: list[tuple[str, float]]
) -> None:
    """For any steps of the monotonic clock, jumps of the wall clock, breaks, changes and
    restarts, the time played is the monotonic time while the clock ran, counted to the journal's
    last record at each restart; the turn's time is the same (the turn never passes here)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite3"
        clocks = Clocks(start)
        journal = Journal(path)
        controller = Controller(journal, rng=random.Random(1), clock=clocks.game_time())
        controller.execute(
            NewGame(players=("Ala", "Ola"), first="Ala", options={"turn_timer": "600"})
        )
        played = kept = 0.0
        paused = False
        try:
            for act, value in acts:
                if act == "pass":
                    clocks.pass_(value)
                    played += 0.0 if paused else value
                elif act == "jump":
                    clocks.set_wall(max(0.0, clocks.wall + value))
                elif act == "break":
                    controller.execute(ResumeGameClock() if paused else PauseGameClock())
                    paused, kept = not paused, played
                elif act == "change":
                    controller.execute(ChangeLife(seat=1, delta=-1))
                    kept = played
                else:  # the gadget restarts: its monotonic clock anew, its wall clock anywhere
                    journal.close()
                    clocks = Clocks(max(0.0, clocks.wall + value), mono=1.0)
                    journal = Journal(path)
                    controller = Controller(journal, rng=random.Random(1), clock=clocks.game_time())
                    played = kept
                state = controller.state
                assert state is not None and state.clock is not None
                now = controller.clock()
                assert abs(state.clock.played(now) - played) < 1e-3
                assert abs(state.clock.turn_played(now) - played) < 1e-3
                assert state.clock.paused == paused
        finally:
            journal.close()
