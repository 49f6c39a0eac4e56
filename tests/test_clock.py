"""The game clock and the turn timer in any game (``device.rules.clock``): the clock starts with
the game and counts the time played from the times the events carry; a break pauses and
resumes it, kept beside the game's history and never taken back by UNDO (tests/test_clock_breaks.py);
the turn timer starts again when the turn passes and stops with the clock.  Time is a parameter: the controller's clock goes into
the command, then into the event; the rules never read one."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.commands import Advance, ChangeLife, Command, NewGame, PassTurn
from device.controller import Controller
from device.errors import IllegalCommand
from device.inputs import Button, ButtonPressed
from device.journal import Journal
from device.game import decide, fold, play
from device.rules.clock import (
    GameClockPaused,
    GameClockResumed,
    PauseGameClock,
    ResumeGameClock,
    SetTurnTimer,
    StartGameClock,
    clock_time,
    hours_minutes,
)
from device.game import GAME
from device.state_clock import Break, ClockState
from helpers import T0, Clock, play_step, refused, state

PLAYERS = ("Ala", "Ola", "Ewa")


def table(journal: Journal, clock: Clock, *formats: str, **options: str) -> Controller:
    controller = Controller(journal, rng=random.Random(3), clock=clock)
    controller.execute(NewGame(formats=formats, players=PLAYERS, first="Ala", options=options))
    return controller


def said(controller: Controller, command: Command) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]


def played(controller: Controller, clock: Clock) -> float:
    found = state(controller).clock
    assert found is not None
    return found.played(clock.now)


def turn_left(controller: Controller, clock: Clock) -> float | None:
    found = state(controller).clock
    assert found is not None
    return found.turn_left(clock.now)


# --- the game clock ---------------------------------------------------------------------------


def test_the_clock_starts_with_the_game_at_the_time_the_command_carries(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    clock.now += 125.5
    assert played(controller, clock) == 125.5
    assert (
        clock_time(played(controller, clock)) == "2:05"
        and hours_minutes(played(controller, clock)) == "0:02"
    )
    started = journal.events(controller.game or 0, upto=0)[0][1]
    assert started.at == T0  # type: ignore[attr-defined]


def test_a_break_pauses_and_resumes_the_clock_said_and_kept_out_of_the_games_history(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    clock.now += 600
    assert said(controller, PauseGameClock()) == ["Game clock paused: 0:10:00 played."]
    clock.now += 900  # the break
    assert played(controller, clock) == 600
    assert said(controller, ResumeGameClock()) == ["Game clock running again: 0:10:00 played."]
    clock.now += 30
    assert played(controller, clock) == 630
    assert [txn.pos for txn in controller.history()] == [0] and controller.last_change() is None
    assert journal.breaks(controller.game or 0) == (Break(began=T0 + 600, ended=T0 + 1500),)


def test_pausing_twice_resuming_a_running_clock_and_starting_one_twice_are_refused(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    clock.now += 75
    assert refused(controller, ResumeGameClock()) == "The game clock is not paused: 0:01:15 played."
    assert (
        refused(controller, StartGameClock())
        == "The game clock is running already: 0:01:15 played."
    )
    controller.execute(PauseGameClock())
    clock.now += 3600
    assert (
        refused(controller, PauseGameClock()) == "The game clock is paused already: 0:01:15 played."
    )


def test_a_game_saved_before_the_clock_has_none_until_it_is_started(clock: Clock) -> None:
    """A game started without a time (as the gadget saved them before it kept a clock) has no
    clock; starting one counts from then, with the table's turn timer."""
    events = decide(
        None, NewGame(players=PLAYERS, first="Ala", options={"turn_timer": "60"}), random.Random(1)
    )
    old = fold(events)
    assert old.clock is None
    with pytest.raises(IllegalCommand) as error:
        decide(old, PauseGameClock(now=T0), random.Random(1))
    assert str(error.value) == "This game's clock has not started: start it with 'clock'."
    messages, started = play(old, decide(old, StartGameClock(now=T0 + 10), random.Random(1)))
    assert started.clock == ClockState(since=T0 + 10, turn_at=T0 + 10, timer=60)
    assert [str(m) for m in messages] == ["Game clock started."]


def test_the_rules_never_read_a_clock_a_command_without_its_time_is_an_error(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    with pytest.raises(ValueError, match="PauseGameClock needs the time it was given"):
        decide(state(controller), PauseGameClock(), random.Random(1))


def test_undo_held_pauses_and_resumes_the_clock_and_undoes_nothing(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    clock.now += 61
    held = controller.press(ButtonPressed(Button.UNDO, long=True))
    assert held is not None and [str(m) for m in held.messages] == [
        "Game clock paused: 0:01:01 played."
    ]
    clock.now += 5
    held = controller.press(ButtonPressed(Button.UNDO, long=True))
    assert held is not None and [str(m) for m in held.messages] == [
        "Game clock running again: 0:01:01 played."
    ]
    assert (state(controller).turn, state(controller).step.value) == (1, "upkeep")


# --- undo and the journal ----------------------------------------------------------------------


def test_undo_leaves_a_pause_be_there_being_nothing_else_to_take_back(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock)
    clock.now += 100
    controller.execute(PauseGameClock())
    clock.now += 50
    assert (
        refused(controller, PauseGameClock()) == "The game clock is paused already: 0:01:40 played."
    )
    with pytest.raises(IllegalCommand, match="Nothing to undo: this is the start of the game."):
        controller.undo()
    assert played(controller, clock) == 100 and state(controller).part(ClockState).paused


def test_a_paused_clock_stays_paused_across_a_restart_and_a_running_one_counts_its_clock(
    journal_path: Path, clock: Clock
) -> None:
    """With a clock the caller gives (the gadget's own, ``GameTime``, does not count the time it
    was off: decision 0027), a restart keeps a paused clock paused and a running one counting."""
    with Journal(journal_path) as journal:
        controller = table(journal, clock)
        clock.now += 300
        controller.execute(PauseGameClock())
    clock.now += 7200  # two hours on the given clock between the two openings
    with Journal(journal_path) as journal:
        controller = Controller(journal, clock=clock)
        assert played(controller, clock) == 300 and state(controller).part(ClockState).paused
        controller.execute(ResumeGameClock())
    clock.now += 3600  # an hour more, the game clock running
    with Journal(journal_path) as journal:
        assert played(Controller(journal, clock=clock), clock) == 300 + 3600


def test_the_clocks_events_read_back_from_the_journal() -> None:
    assert GAME.parse_event('{"type": "clock_paused", "at": 12.5}') == GameClockPaused(at=12.5)
    assert GAME.parse_event('{"type": "clock_resumed", "at": 13.5}') == GameClockResumed(at=13.5)


# --- the turn timer ----------------------------------------------------------------------------


def test_the_turn_timer_starts_again_when_the_turn_passes(journal: Journal, clock: Clock) -> None:
    controller = table(journal, clock, turn_timer="90")
    clock.now += 100
    assert turn_left(controller, clock) == -10  # Ala's time is up; the turn is still hers
    assert state(controller).active == 0
    controller.execute(Advance())
    controller.execute(Advance())  # Ola's upkeep
    clock.now += 30
    assert turn_left(controller, clock) == 60
    controller.execute(ChangeLife(seat=0, delta=-3))  # nothing but a turn passing restarts it
    clock.now += 10
    assert turn_left(controller, clock) == 50


def test_a_pause_stops_the_turn_timer_and_a_turn_passed_in_the_break_starts_after_it(
    journal: Journal, clock: Clock
) -> None:
    controller = table(journal, clock, turn_timer="60")
    clock.now += 20
    controller.execute(PauseGameClock())
    clock.now += 500
    assert turn_left(controller, clock) == 40
    controller.execute(PassTurn())  # during the break
    clock.now += 100
    assert turn_left(controller, clock) == 60
    controller.execute(ResumeGameClock())
    clock.now += 15
    assert turn_left(controller, clock) == 45


def test_the_turn_timer_is_set_during_the_game_from_now_on(journal: Journal, clock: Clock) -> None:
    controller = table(journal, clock)
    assert turn_left(controller, clock) is None
    clock.now += 40
    assert said(controller, SetTurnTimer(seconds=150)) == ["Turn timer: 2:30 a turn, from now."]
    clock.now += 50
    assert turn_left(controller, clock) == 100
    assert (
        refused(controller, SetTurnTimer(seconds=150)) == "The turn timer is 2:30 a turn already."
    )
    assert refused(controller, SetTurnTimer(seconds=3601)) == (
        "A turn timer is 1 to 3600 seconds a turn, or 0 for none; 3601 asked for."
    )
    assert said(controller, SetTurnTimer(seconds=0)) == ["Turn timer off."]
    assert refused(controller, SetTurnTimer(seconds=0)) == "This game has no turn timer already."


def test_the_turn_timer_is_a_table_option_of_games_whose_turns_pass_one_at_a_time(
    journal: Journal, clock: Clock
) -> None:
    controller = Controller(journal, clock=clock)
    assert refused(
        controller,
        NewGame(formats=("wizards_duel",), players=PLAYERS, options={"turn_timer": "60"}),
    ) == (
        "There is no table option 'turn_timer' for Wizard's Duel. Options here: alt_ending, antimagic_shield, "
        "chain_reaction, magic_lesson, power_drain, power_sacrifice, spell_deck."
    )
    assert refused(
        controller, NewGame(formats=("commander",), players=PLAYERS, options={"turn_timer": "soon"})
    ) == ("Table option 'turn_timer' cannot be 'soon': a whole number from 0 to 3600.")
    controller.execute(NewGame(formats=("wizards_duel",), players=PLAYERS))
    assert refused(controller, SetTurnTimer(seconds=60)) == (
        "Wizard's Duel has no turn timer: its players do not pass the turn one at a time at one table."
    )
    controller.execute(
        NewGame(
            formats=("ffa", "two_headed_giant"),
            players=("A", "B", "C", "D"),
            options={"turn_timer": "45"},
        )
    )
    assert state(controller).clock == ClockState(since=T0, turn_at=T0, timer=45)


# --- invariants ----------------------------------------------------------------------------------

#: One generated step of a game: the seconds before it, what it is, and a number it may use.
STEP = st.tuples(
    st.floats(min_value=0, max_value=400, allow_nan=False),  # seconds before the step
    st.sampled_from(["pause", "resume", "advance", "pass", "timer", "undo", "redo", "life"]),
    st.integers(min_value=0, max_value=200),
)
STEPS = st.lists(STEP, max_size=25)


def step(kind: str, number: int) -> Command | str:
    """A generated step as ``play_step`` takes it: "undo" or "redo", or the command ``kind`` names."""
    if kind in ("undo", "redo"):
        return kind
    commands: dict[str, Command] = {
        "pause": PauseGameClock(),
        "resume": ResumeGameClock(),
        "advance": Advance(),
        "pass": PassTurn(),
        "timer": SetTurnTimer(seconds=number),
        "life": ChangeLife(seat=number % 3, delta=-1),
    }
    return commands[kind]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS, snapshot_every=st.integers(1, 6))
def test_replay_equals_live_undo_restores_and_the_clock_never_runs_backwards(
    steps: list[tuple[float, str, int]], snapshot_every: int
) -> None:
    clock = Clock()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite3"
        with Journal(path, snapshot_every=snapshot_every) as journal:
            controller = table(journal, clock, turn_timer="90")
            for wait, kind, number in steps:
                clock.now += wait
                before = state(controller)
                seen = played(controller, clock)
                play_step(controller, step(kind, number))
                # Time played never goes back: a break is not a change undo or redo could take back.
                assert played(controller, clock) >= seen
                left = turn_left(controller, clock)
                timer = state(controller).part(ClockState).timer
                assert left is None or left <= timer
                if kind not in ("undo", "redo", "pause", "resume") and state(controller) != before:
                    controller.undo()
                    assert state(controller) == before
                    controller.redo()
            live = state(controller)
            game = controller.game
            assert game is not None and journal.replay(game) == live
        with Journal(path, snapshot_every=snapshot_every) as journal:
            assert Controller(journal, clock=clock).state == live
