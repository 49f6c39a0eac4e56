"""The check of the whole journal after start-up gives way to presses (device.journal.Gate): while
the game's thread carries out a command the check waits, before the next row it reads, so a
press does not share the interpreter with it; it goes on once the command is kept, and however
the presses come it still finishes, its verdict the same (docs/decisions/0026)."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import device.journal
from device.rules.registry import Ruleset
import device.rules
from device.commands import ChangeLife, Command, NewGame, PassTurn
from device.controller import Controller
from device.journal import Check, Journal, Reader, backup_path
from device.recovery import open_journal, verify
from device.state import GameState

NOW = 1_750_000_000.0


def _command(i: int) -> Command:
    return PassTurn() if i % 4 == 0 else ChangeLife(seat=i % 4, delta=-1, source=(i + 1) % 4)


def _play(path: Path, changes: int) -> GameState:
    with Journal(path, backup_every=0) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C", "D"), starting_life=9999, first="A"))
        journal._db.execute("PRAGMA synchronous=OFF")  # building the game only
        for i in range(changes):
            controller.execute(_command(i))
        journal.backup()
        assert controller.state is not None
        return controller.state


class Held:
    """Holds the check after start-up at its first step (SQLite's integrity check) until
    ``go``: so that it is still running, at a known place, when the test presses."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.go = threading.Event()
        check = Reader.integrity_check

        def held(reader: Reader) -> list[str]:
            if threading.current_thread().name == "journal-check":
                assert self.go.wait(10)
            return check(reader)

        monkeypatch.setattr(Reader, "integrity_check", held)


def _given_way(check: Check) -> int:
    """How many times ``check`` has given way, once it has (or after 5 s)."""
    deadline = time.monotonic() + 5
    while check.gate.gave_way == 0 and time.monotonic() < deadline:
        time.sleep(0.005)
    return check.gate.gave_way


def _pressing(controller: Controller, during: Callable[[], None]) -> None:
    """A press whose command is being carried out while ``during`` runs (the controller's clock
    is read once the command is under way, before it is decided and kept)."""
    clock = controller.clock

    def meanwhile() -> float:
        during()
        return NOW

    controller.clock = meanwhile
    try:
        assert controller.execute(ChangeLife(seat=0, delta=-1)).events
    finally:
        controller.clock = clock


def test_the_check_waits_while_a_command_is_carried_out_and_finishes_after_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A press made while the check runs: the check stops at its next batch and waits until the
    command is kept, then goes on to its verdict (nothing damaged: the journal is kept)."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    _play(path, 150)
    held = Held(monkeypatch)
    journal, _ = open_journal(path, clock=lambda: NOW, defer_backups=True)
    controller = Controller(journal, clock=lambda: NOW)
    check = journal.check
    assert check is not None
    seen: list[tuple[bool, int]] = []

    def meanwhile() -> None:
        held.go.set()  # the check goes on: it would be done in milliseconds
        assert _given_way(check) == 1
        time.sleep(0.15)  # well within what the check may give way at its start (Gate.patience)
        seen.append((check.finished(), check.gate.gave_way))

    _pressing(controller, meanwhile)
    assert seen == [(False, 1)]  # it gave way at once, and was still waiting when the press ended
    assert check.wait(5) and check.error is None and check.gate.overran == 0
    assert (
        controller.idle(wait=True) is None
        and controller.journal is journal
        and journal.check is None
    )
    assert journal.game(1).head == 151 and journal.replay(1) == controller.state
    journal.close()


def test_a_command_that_holds_the_gate_long_does_not_hold_the_check_off(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The wait is bounded: a command carried out for longer than the check may give way (here,
    until the check's verdict is in) lets the check finish meanwhile, in about a second."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    _play(path, 150)
    held = Held(monkeypatch)
    journal, _ = open_journal(path, clock=lambda: NOW, defer_backups=True)
    controller = Controller(journal, clock=lambda: NOW)
    check = journal.check
    assert check is not None
    verdicts: list[bool] = []

    def meanwhile() -> None:
        held.go.set()
        verdicts.append(check.wait(5))

    started = time.monotonic()
    _pressing(controller, meanwhile)
    assert (
        verdicts == [True] and time.monotonic() - started < 2
    )  # Gate: 0.2 s / (1 - 0.8), then its share
    assert check.gate.overran >= 1 and check.error is None
    assert (
        controller.idle() is None and controller.journal is journal and journal.game(1).head == 151
    )
    journal.close()


def test_the_check_does_not_hold_the_write_ahead_log_while_it_replays(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check reads the game from a copy made at one moment: while it replays, nothing holds
    the journal's write-ahead log, which SQLite can then fold into the journal and write again
    from its start (a reader of the journal itself would make every commit meanwhile grow it)."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    _play(path, 150)
    held = Held(monkeypatch)
    journal, _ = open_journal(path, clock=lambda: NOW, defer_backups=True)
    controller = Controller(journal, clock=lambda: NOW)
    check = journal.check
    assert check is not None
    folded: list[tuple[int, int, int]] = []

    def meanwhile() -> None:
        held.go.set()
        assert _given_way(check) == 1  # mid-replay
        journal.set_meta("noted", "while the check replays")  # a commit after the check began
        folded.append(journal._db.execute("PRAGMA wal_checkpoint(FULL)").fetchone())

    _pressing(controller, meanwhile)
    assert folded[0][0] == 0 and folded[0][1] == folded[0][2] > 0  # not busy: every frame folded in
    assert check.wait(5) and check.error is None and controller.idle() is None
    journal.close()


def test_presses_back_to_back_cannot_starve_the_check(tmp_path: Path) -> None:
    """Commands one after another with nothing between them (the gate closed almost all the
    time): the check still gets through a batch between two, and finishes."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    _play(path, 300)
    journal, _ = open_journal(path, clock=lambda: NOW, defer_backups=True)
    controller = Controller(journal, clock=lambda: NOW)
    check = journal.check
    assert check is not None
    presses = 0
    while not check.finished() and presses < 3000:
        controller.execute(_command(presses))
        presses += 1
    assert check.wait(0) and check.error is None
    assert controller.idle() is None and controller.journal is journal
    journal.close()


def test_damage_found_by_a_check_that_gave_way_is_recovered_from_as_before(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check that waited for a press finds the damage all the same; the game is recovered
    from the backup exactly as when nothing was pressed, and the press after says so."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    state = _play(path, 150)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "UPDATE events SET body = replace(body, '\"delta\":-1', '\"delta\":-7') WHERE game = 1 AND pos = 2"
    )
    db.close()
    held = Held(monkeypatch)
    journal, _ = open_journal(path, clock=lambda: NOW, defer_backups=True)
    controller = Controller(journal, clock=lambda: NOW)
    check = journal.check
    assert check is not None

    def meanwhile() -> None:
        held.go.set()
        assert _given_way(check) == 1

    _pressing(controller, meanwhile)  # kept in the damaged journal, which recovery sets aside
    late = controller.idle(wait=True)
    assert late is not None and late.restored_from == backup_path(path)
    assert late.problem.startswith("event 0 of change 2 in game 1 does not match its checksum")
    assert controller.journal is not journal and controller.state == state
    refused = controller.execute(ChangeLife(seat=1, delta=-1))
    assert refused.messages == [late.message()] and refused.events == []
    controller.journal.close()


def test_the_check_looks_at_the_gate_between_a_few_rows_in_every_part(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every part of the check whose work grows with the game — reading the events, checking and
    parsing them, folding them, checking the changes' texts — looks at the gate after a few rows,
    so a press waits for one short batch, never a part of the check; what it does between two
    looks is the same for a game ten times as long."""
    work = {"now": 0}

    def counted(name: str, module: Any) -> None:
        original = getattr(module, name)

        def counting(*args: Any) -> Any:
            work["now"] += 1
            return original(*args)

        monkeypatch.setattr(module, name, counting)

    counted("row_crc", device.journal)  # each event's and each change's checksum
    counted("parse_event", Ruleset)  # each event read
    counted("_applied", Ruleset)  # each event folded
    longest = []
    for changes in (100, 1000):
        path = tmp_path / str(changes) / "aetherbox.sqlite3"
        _play(path, changes)
        stretches: list[int] = []

        def pause(stretches: list[int] = stretches) -> None:
            stretches.append(work["now"])
            work["now"] = 0

        reader = Reader.open(path)
        try:
            work["now"] = 0
            with reader.at_one_moment():
                verify(reader, pause)
        finally:
            reader.close()
        stretches.append(work["now"])
        assert len(stretches) > 2 * changes  # the events (more than one a change), the texts
        longest.append(max(stretches))
    # an event: its checksum, its parse, its fold (and, between two parts, the game's own row)
    assert longest[0] == longest[1] <= 4
