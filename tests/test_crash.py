"""Power-cut safety against a killed process: SIGKILL at random moments never loses an
acknowledged event nor damages the journal.

A child process plays random commands and reports each one after ``execute`` returns (that is,
after COMMIT); the parent kills it with SIGKILL at a random moment, then opens the journal,
checks its integrity and finds every acknowledged event, in order.  (A killed process keeps the
page cache, so this proves the commit sequence, not the disk's fsync; see docs/decisions.)
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from device.game import GAME
from device.commands import Advance, ChangeLife, ChangePoison, Command, NewGame, ReverseTurnOrder
from device.controller import Controller
from device.errors import IllegalCommand
from device.journal import Journal

#: Kills in the suite; AETHERBOX_CRASH_TRIALS=1000 for a longer trial (README, "Measuring").
TRIALS = int(os.environ.get("AETHERBOX_CRASH_TRIALS", "100"))


def _commands(rng: random.Random) -> Command:
    roll = rng.random()
    if roll < 0.4:
        return ChangeLife(
            seat=rng.randrange(4), delta=rng.choice([-3, -2, -1, 1, 2]), source=rng.randrange(4)
        )
    if roll < 0.5:
        return ChangePoison(
            seat=rng.randrange(4), delta=1
        )  # games end now and then: a new one starts
    if roll < 0.55:
        return ReverseTurnOrder()
    return Advance()


def _child(path: Path, seed: int, ack: int) -> None:
    rng = random.Random(seed)
    with Journal(path, snapshot_every=16) as journal:
        controller = Controller(journal, rng=rng)
        while True:
            over = controller.state is None or GAME.outcome(controller.state) is not None
            command = (
                NewGame(players=("A", "B", "C", "D"), starting_life=99, first="A")
                if over
                else _commands(rng)
            )
            try:
                result = controller.execute(command)
            except IllegalCommand:
                continue
            game = controller.game or 0
            line = (
                json.dumps(
                    [game, journal.game(game).head, [e.model_dump_json() for e in result.events]]
                )
                + "\n"
            )
            os.write(ack, line.encode())


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _check(
    journal: Journal, acknowledged: dict[tuple[int, int], list[str]], trial: int, only: int | None
) -> None:
    """Every acknowledged change of the game ``only`` (or of every game) is kept, in order."""
    kept: dict[tuple[int, int], list[str]] = {}
    for info in journal.games():
        if only is not None and info.id != only:
            continue
        positions = []
        for pos, event in journal.events(info.id):
            kept.setdefault((info.id, pos), []).append(event.model_dump_json())
            positions.append(pos)
        assert sorted(set(positions)) == list(range(info.head + 1)), (
            "changes are kept in order, without gaps"
        )
        assert journal.state(info.id) == journal.replay(info.id)
    for key, events in acknowledged.items():
        if only is None or key[0] == only:
            assert kept.get(key) == events, (
                f"trial {trial}: acknowledged change {key} is missing or different"
            )


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path: Path) -> None:
    path = tmp_path / "games" / "crash.sqlite3"
    rng = random.Random(20261122)
    acknowledged: dict[tuple[int, int], list[str]] = {}
    kills_after_ack = 0
    for trial in range(TRIALS):
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: play until killed
            os.close(read_end)
            try:
                _child(path, trial, write_end)
            finally:
                os._exit(3)
        os.close(write_end)
        time.sleep(rng.uniform(0.0, 0.12))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status), f"trial {trial}: the child ended by itself (status {status})"
        lines = _read_all(read_end).decode().splitlines()
        os.close(read_end)
        # A line cut by the kill was never acknowledged in full: ignore it.
        for line in lines:
            try:
                game, pos, events = json.loads(line)
            except json.JSONDecodeError:
                continue
            acknowledged[game, pos] = events
        kills_after_ack += bool(lines)

        with Journal(path) as journal:
            assert journal.integrity_check() == ["ok"]
            last = journal.last_game()
            _check(journal, acknowledged, trial, only=last)
    with Journal(path) as journal:
        _check(journal, acknowledged, TRIALS, only=None)
    assert len(acknowledged) > TRIALS  # the children got real work done between kills
    assert kills_after_ack > TRIALS // 2
