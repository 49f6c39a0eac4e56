"""Small helpers the tests share: the current state, a refusal that changed nothing, a console
session that undoes and redoes every line, a wall clock in the test's hands, a
pseudo-terminal standing in for a serial reader, and a table's report of its group at an event."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from device import game as rules
from device.commands import Command
from device.console import TABLES, Console
from device.controller import Controller
from device.journal import Journal
from device.errors import IllegalCommand
from device.rules.conspiracy.commands import LeaveGroup
from device.rules.conspiracy.tables import EventPlan, TableReport, table_game, table_report
from device.state import GameState

#: A wall-clock time for the controller's clock in the tests (November 2023).
T0 = 1_700_000_000.0


class ConsoleTable:
    """A console session as a table plays it: each line is run, then undone and redone, and must
    land on the states it should (LF-4: undo restores, redo puts back)."""

    def __init__(self, journal: Journal, rng: random.Random) -> None:
        self.rng = rng
        self.controller = Controller(journal, rng=rng)
        self.out = io.StringIO()
        self.console = Console(self.controller, self.out, TABLES)

    def run(self, line: str, undo: bool = True) -> list[str]:
        """Run a line; then undo it and redo it, checking both give the states they should."""
        before = self.controller.state
        start = self.out.tell()
        self.console.run_line(line)
        self.out.seek(start)
        lines = self.out.read().splitlines()
        after = self.controller.state
        if undo and after != before and before is not None:
            self.console.run_line("undo")
            assert self.controller.state == before
            self.console.run_line("redo")
            assert self.controller.state == after
            self.out.seek(0, io.SEEK_END)
        return lines


def state(controller: Controller) -> GameState:
    assert controller.state is not None
    return controller.state


def play_step(controller: Controller, step: Command | str) -> bool:
    """One generated step: a command, or "undo" / "redo"; a refusal is part of the game.  Whether
    the step was taken (not refused)."""
    try:
        if step == "undo":
            controller.undo()
        elif step == "redo":
            controller.redo()
        else:
            assert isinstance(step, Command)
            controller.execute(step)
    except IllegalCommand:
        return False
    return True


def refused(controller: Controller, command: Command) -> str:
    """The reason ``command`` is refused; asserts the refusal changed nothing."""
    before = controller.state
    with pytest.raises(IllegalCommand) as error:
        controller.execute(command)
    assert controller.state == before
    return str(error.value)


class Clock:
    """The controller's wall clock, in the test's hands: it reads ``now``, which the test moves."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Pty:
    """A pseudo-terminal pair; the reader opens ``path``, the test plays the reader module."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)  # the reader opens it by path, like a real port

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


def undo_all_and_redo(controller: Controller, fresh: object, final: object) -> None:
    """LF-4: undo every change of the game (its state is ``fresh`` again), then redo them all
    (``final`` again)."""
    done = 0
    while True:
        try:
            controller.undo()
        except IllegalCommand:
            break
        done += 1
    assert controller.state == fresh
    for _ in range(done):
        controller.redo()
    assert controller.state == final


def fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte; the file that fills it."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError:
                continue
    finally:
        os.close(fd)
    return filler


def say(proc: subprocess.Popen[str], line: str, replies: int = 1) -> list[str]:
    """Type ``line`` into a console process; its next ``replies`` lines."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return [proc.stdout.readline().rstrip("\n") for _ in range(replies)]


ROOT = Path(__file__).resolve().parents[1]


def run_kiosk(
    folder: Path, config: Path, *, frames: int = 1, buttons: str | None = "fake", **env: str
) -> subprocess.CompletedProcess[str]:
    """``aetherbox kiosk`` as the service runs it, on SDL's dummy driver, with ``config``: its
    first ``frames`` frames saved in ``folder/shots``, then it exits; what it did and said."""
    environment = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT), **env}
    environment.pop("NOTIFY_SOCKET", None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "display.cli",
            "--config",
            str(config),
            "kiosk",
            "--screenshots",
            str(folder / "shots"),
            "--frames",
            str(frames),
            *(["--buttons", buttons] if buttons else []),
        ],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=folder,
        check=False,
    )


def played_report(
    plan: EventPlan,
    table: str,
    leave: int,
    gadget: str = "",
    revision: tuple[int, int] = (1, 1),
    at: float = 1.7e9,
) -> TableReport:
    """``table``'s round-1 group of ``plan`` as its gadget reports it once its first ``leave``
    seated players left, one at a time (at ``at`` + 1 s, + 2 s …), told by ``gadget``."""
    group = next(a for a in plan.groups if a.table == table)
    rng = random.Random(3)
    events = rules.decide(None, table_game(plan, group), rng)
    _, game = rules.play(None, events)
    kept = [(0, e) for e in events]
    for pos in range(1, leave + 1):
        more = rules.decide(game, LeaveGroup(seats=(pos - 1,)), rng)
        _, game = rules.play(game, more)
        kept += [(pos, e) for e in more]
    assert game is not None
    made = table_report(
        plan,
        table,
        game,
        kept,
        {pos: at + pos for pos in range(leave + 1)},
        revision,
        game=1,
        head=leave,
    )
    return made.model_copy(update={"gadget": gadget})
