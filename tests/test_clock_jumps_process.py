"""The real console process, its wall clock set mid-game as a Pi without a real-time clock sets
it: from 1970 to now, years ahead, back to 1970, then killed and started again with the clock
set.  The time played and the turn timer follow the monotonic clock within the run and the
journal across the restart (docs/decisions/0027-durations-on-the-monotonic-clock.md).

The process is ``aetherbox console`` as the gadget runs it (its own controller and clocks); only
``time.time`` is shifted, by the seconds in a file the test rewrites — the wall clock being set,
while the monotonic clock runs on."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers import say

YEARS = 55 * 365 * 24 * 3600.0

SHIFTED = """
import runpy, sys, time
from pathlib import Path

offset = Path(sys.argv.pop(1))
real = time.time

def shifted():
    try:
        return real() + float(offset.read_text())
    except (OSError, ValueError):
        return real()

time.time = shifted
runpy.run_module("display.cli", run_name="__main__", alter_sys=True)
"""


def console(db: Path, offset: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", SHIFTED, str(offset), "console", "--db", str(db), "--seed", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def set_wall(offset: Path, wall: float | None) -> None:
    """The process's wall clock reads ``wall`` now (None: the machine's own)."""
    offset.write_text("0" if wall is None else repr(wall - time.time()))


def times(proc: subprocess.Popen[str]) -> tuple[int, int]:
    """The seconds played and the seconds left of the turn, as ``time`` says them."""
    played, turn = say(proc, "time", 2)
    found = re.fullmatch(r"Played: 0:00:(\d\d)\.", played)
    left = re.fullmatch(r"Ala's turn: (9|10):(\d\d) left of 10:00\.", turn)
    assert found is not None and left is not None, (played, turn)
    return int(found.group(1)), 60 * int(left.group(1)) + int(left.group(2))


def test_the_real_console_keeps_its_durations_through_clock_jumps_and_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games" / "j.sqlite3"
    offset = tmp_path / "offset"
    set_wall(offset, 41.0)  # 1970, 41 seconds after the boot
    proc = console(db, offset)
    try:
        assert say(proc, "new commander Ala Ola first=Ala turn_timer=600") == [
            "New game (Commander) for Ala, Ola, 40 life. Ala goes first."
        ]
        before = times(proc)
        for wall in (
            None,
            time.time() + YEARS,
            41.0,
        ):  # the network's time, years ahead, 1970 again
            set_wall(offset, wall)
            played, left = times(proc)
            assert before[0] <= played <= before[0] + 20 and before[1] - 20 <= left <= before[1]
        assert say(proc, "next") == ["Ala: main phase."]
        last = times(proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    for wall in (None, 41.0):  # started again with the clock set; and after a reboot at 1970
        set_wall(offset, wall)
        proc = console(db, offset)
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline() == "Resumed game 1: Commander: Ala, Ola (turn 1).\n"
            played, left = times(proc)
            assert last[0] - 20 <= played <= last[0] + 20 and last[1] - 20 <= left <= last[1] + 20
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        assert "Traceback" not in (proc.stderr.read() if proc.stderr is not None else "")
