"""The console as a real process: a three-player Commander game, kill -9 mid-game, resume.

This is the foundation's end-to-end check: ``aetherbox console`` in its own process, fed one
line at a time; every reply printed is an acknowledged change, so after SIGKILL the restarted
console must show the game exactly as the rules left it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import say


def console(db: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "display.cli", "console", "--db", str(db), "--seed", "5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.mark.slow
def test_commander_game_survives_kill_9_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "games" / "j.sqlite3"
    proc = console(db)
    try:
        assert say(proc, "new commander Alice Bob Carol first=Bob") == [
            "New game (Commander) for Alice, Bob, Carol, 40 life. Bob goes first."
        ]
        assert say(proc, "next") == ["Bob: main phase."]
        assert say(proc, "damage Alice 6 from Bob") == ["Alice: 40 → 34 life (from Bob)."]
        assert say(proc, "poison Carol +3 from Bob") == ["Carol: 0 → 3 poison (from Bob)."]
        assert say(proc, "commander Carol 12 from Bob", 2) == [
            "Carol took 12 commander damage from Bob's commander (12 of 21).",
            "Carol: 40 → 28 life (from Bob).",
        ]
        assert say(proc, "next") == ["Turn 2: Carol's upkeep."]
        assert say(proc, "concede Alice") == ["Alice has conceded."]
        assert say(proc, "undo") == ["Undone: Alice has conceded."]
        assert say(proc, "redo") == ["Redone: Alice has conceded."]
        assert say(proc, "life Carol -5 from Bob") == ["Carol: 28 → 23 life (from Bob)."]
        assert say(proc, "undo") == ["Undone: Carol: 28 → 23 life (from Bob)."]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL

    proc = console(db)
    try:
        assert say(proc, "show", 5) == [
            "Resumed game 1: Commander: Alice, Bob, Carol (turn 2).",
            "Turn 2: Carol's upkeep.",
            "  Alice: 34 life  (lost: conceded)",
            "  Bob: 40 life",
            "* Carol: 28 life  (3 poison; 12 from Bob's commander)",
        ]
        assert say(proc, "redo") == [
            "Redone: Carol: 28 → 23 life (from Bob)."
        ]  # the undo survived too
        assert say(proc, "commander Carol 9 from Bob", 3) == [
            "Carol took 9 commander damage from Bob's commander (21 of 21).",
            "Carol: 23 → 14 life (from Bob).",
            "Carol has lost: 21 combat damage from one commander.",
        ]
        assert say(proc, "") == [] or True
        doc = json.loads(say(proc, "state")[0])
        assert doc["outcome"] == {"winner": 1, "reason": "last player standing"}
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_hw5_a_second_console_through_a_symlink_is_refused(tmp_path: Path) -> None:
    """HW-5: the real console holds the journal; a second one opened through a symlink to it is
    refused with one clear line and exit status 1, and the first keeps its game."""
    db = tmp_path / "games" / "j.sqlite3"
    link = tmp_path / "link.sqlite3"
    proc = console(db)
    try:
        assert say(proc, "new duel Ola Ela first=Ola") == [
            "New game (Two-player game) for Ola, Ela, 20 life. Ola goes first."
        ]
        link.symlink_to(db)
        second = subprocess.run(
            [sys.executable, "-m", "display.cli", "console", "--db", str(link)],
            input="damage Ola 5\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1
        assert second.stdout == ""
        assert "Traceback" not in second.stderr
        assert f"another aetherbox is using this journal (process {proc.pid})" in second.stderr
        assert say(proc, "damage Ela 3") == ["Ela: 20 → 17 life."]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
