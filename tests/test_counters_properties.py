"""Invariants of the counters Commander tables track, for any sequence of commands (LF-4): the
journal replays to the live state, undo takes back every change and redo puts it back, nobody
who left holds the monarchy or the initiative while the game goes on, and no counter is ever
below none — in a free-for-all, Two-Headed Giant and a Necromancer game."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from helpers import play_step, undo_all_and_redo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.game import GAME
from device.commands import (
    Advance,
    ChangeLife,
    Command,
    Concede,
    NewGame,
    PassTurn,
    ReverseTurnOrder,
    SetLife,
)
from device.controller import Controller
from device.journal import Journal
from device.rules.counters import (
    BecomeMonarch,
    ChangeCounter,
    GainBlessing,
    MakeDayNight,
    TakeInitiative,
    counters,
)
from device.state import GameState
from device.state_counters import Counter, DayNight

SEATS = st.integers(min_value=0, max_value=5)

COMMANDS: st.SearchStrategy[Command] = st.one_of(
    st.just(Advance()),
    st.just(PassTurn()),
    st.just(ReverseTurnOrder()),
    st.builds(BecomeMonarch, seat=st.none() | SEATS),
    st.builds(TakeInitiative, seat=st.none() | SEATS),
    st.builds(MakeDayNight, day_night=st.sampled_from(DayNight)),
    st.builds(
        ChangeCounter, seat=SEATS, counter=st.sampled_from(Counter), delta=st.integers(-4, 5)
    ),
    st.builds(GainBlessing, seat=SEATS),
    st.builds(Concede, seat=SEATS),
    st.builds(ChangeLife, seat=SEATS, delta=st.integers(-45, 5), source=st.none() | SEATS),
    st.builds(SetLife, seat=SEATS, life=st.integers(0, 3), source=st.none() | SEATS),
)
STEPS = st.lists(st.one_of(COMMANDS, st.sampled_from(["undo", "redo"])), max_size=30)
GAMES = st.sampled_from([("commander",), ("commander", "two_headed_giant"), ("necromancer",)])


def _holders_stay(state: GameState) -> None:
    """While the game goes on the monarch and the initiative are with players still in it, and
    counters are never below none."""
    table = counters(state)
    if GAME.outcome(state) is None:
        for seat in (*table.monarchs, *table.initiatives):
            assert state.player(seat).in_game, (seat, table)
    for mine in table.players:
        assert min(mine.energy, mine.experience, mine.rad) >= 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS, formats=GAMES, seed=st.integers(0, 2**32), snapshot_every=st.integers(1, 8))
def test_replaying_the_journal_equals_the_live_state(
    steps: list[Command | str], formats: tuple[str, ...], seed: int, snapshot_every: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite3"
        with Journal(path, snapshot_every=snapshot_every) as journal:
            controller = Controller(journal, rng=random.Random(seed))
            controller.execute(NewGame(formats=formats, players=("A", "B", "C", "D", "E", "F")))
            for step in steps:
                play_step(controller, step)
                assert controller.state is not None
                _holders_stay(controller.state)
            live = controller.state
            assert controller.game is not None and journal.replay(controller.game) == live
        with Journal(path, snapshot_every=snapshot_every) as journal:
            assert Controller(journal).state == live


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS, formats=GAMES, seed=st.integers(0, 2**32))
def test_undo_takes_every_change_back_and_redo_puts_it_back(
    steps: list[Command | str], formats: tuple[str, ...], seed: int
) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        Journal(Path(folder) / "j.sqlite3", snapshot_every=3) as journal,
    ):
        controller = Controller(journal, rng=random.Random(seed))
        controller.execute(NewGame(formats=formats, players=("A", "B", "C", "D", "E", "F")))
        fresh = controller.state
        for step in steps:
            play_step(controller, step)
        final = controller.state
        undo_all_and_redo(controller, fresh, final)
