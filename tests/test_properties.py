"""Invariants of the game core for any sequence of commands (LF-4 and the journal)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from helpers import play_step, undo_all_and_redo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.commands import (
    Advance,
    CastCommander,
    ChangeLife,
    ChangePoison,
    ChooseColour,
    Command,
    Concede,
    DealCommanderDamage,
    Lose,
    NameCommanders,
    NewGame,
    PassTurn,
    ReverseTurnOrder,
    SetLife,
    SkipTurns,
)
from device.controller import Controller
from device.errors import IllegalCommand
from device.journal import Journal
from device.rules.colours import COLOURS

SEATS = st.integers(min_value=0, max_value=3)
SOURCES = st.none() | SEATS
AMOUNTS = st.integers(min_value=-25, max_value=25)

COMMANDS: st.SearchStrategy[Command] = st.one_of(
    st.just(Advance()),
    st.just(PassTurn()),
    st.just(ReverseTurnOrder()),
    st.builds(SkipTurns, seat=SEATS, turns=st.integers(1, 2)),
    st.builds(ChangeLife, seat=SEATS, delta=AMOUNTS, source=SOURCES),
    st.builds(SetLife, seat=SEATS, life=st.integers(-5, 60), source=SOURCES),
    st.builds(ChangePoison, seat=SEATS, delta=st.integers(-3, 4), source=SOURCES),
    st.builds(
        DealCommanderDamage,
        seat=SEATS,
        source=SEATS,
        commander=st.none() | st.integers(0, 1),
        amount=st.integers(1, 12),
    ),
    st.builds(
        NameCommanders, seat=SEATS, commanders=st.sampled_from([("Tymna", "Thrasios"), ("Atraxa",)])
    ),
    st.builds(
        CastCommander,
        seat=SEATS,
        commander=st.none() | st.integers(0, 1),
        amount=st.integers(-2, 3),
    ),
    st.builds(Concede, seat=SEATS),
    st.builds(Lose, seat=SEATS, source=SOURCES),
    st.builds(ChooseColour, seat=SEATS, colour=st.sampled_from(COLOURS)),
)
STEPS = st.lists(st.one_of(COMMANDS, st.sampled_from(["undo", "redo"])), max_size=30)


def _run(controller: Controller, steps: list[Command | str]) -> None:
    for step in steps:
        play_step(controller, step)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS, seed=st.integers(0, 2**32), snapshot_every=st.integers(1, 8))
def test_replaying_the_journal_equals_the_live_state(
    steps: list[Command | str], seed: int, snapshot_every: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite3"
        with Journal(path, snapshot_every=snapshot_every) as journal:
            controller = Controller(journal, rng=random.Random(seed))
            controller.execute(NewGame(formats=("commander",), players=("A", "B", "C", "D")))
            _run(controller, steps)
            live = controller.state
            game = controller.game
            assert game is not None
            assert journal.replay(game) == live
        with Journal(path, snapshot_every=snapshot_every) as journal:
            assert Controller(journal).state == live


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS, seed=st.integers(0, 2**32))
def test_undo_then_redo_is_identity_and_undoing_everything_gives_the_new_game(
    steps: list[Command | str], seed: int
) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        Journal(Path(folder) / "j.sqlite3", snapshot_every=3) as journal,
    ):
        controller = Controller(journal, rng=random.Random(seed))
        controller.execute(NewGame(formats=("commander",), players=("A", "B", "C", "D")))
        fresh = controller.state
        _run(controller, steps)
        final = controller.state
        if controller.history()[-1].pos > 0 and not controller.history()[-1].undone:
            controller.undo()
            controller.redo()
            assert controller.state == final
        undo_all_and_redo(controller, fresh, final)


@settings(max_examples=200, deadline=None)
@given(steps=st.lists(COMMANDS, max_size=40), seed=st.integers(0, 2**32))
def test_state_stays_consistent(steps: list[Command], seed: int) -> None:
    """Pure rules only: the active seat is real, life and poison follow the ledger, losses stick."""
    from device import game as rules

    rng = random.Random(seed)
    state = rules.fold(
        rules.decide(None, NewGame(formats=("commander",), players=("A", "B", "C", "D")), rng)
    )
    for command in steps:
        try:
            events = rules.decide(state, command, rng)
        except IllegalCommand:
            continue
        before = state
        state = rules.fold(events, state)
        for old, new in zip(before.players, state.players):
            if old.lost is not None:
                assert new.lost == old.lost
        assert 0 <= state.active < 4
        assert all(p.poison >= 0 for p in state.players)
        for player in state.players:
            lost = sum(e.life_lost for e in state.ledger if e.target == player.seat)
            gained = sum(e.life_gained for e in state.ledger if e.target == player.seat)
            assert player.life == 40 - lost + gained
            assert player.poison == sum(e.poison for e in state.ledger if e.target == player.seat)
