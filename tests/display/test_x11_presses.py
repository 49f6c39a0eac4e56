"""One press, one action — however slow the machine (HW-1, HW-4, TB-3, LF-4).

The real kiosk process in a real X window (Xvfb), its every frame slowed to half a second as on
a busy Pi, is set up and played with real key presses (xdotool, through XTEST, held as long as
a finger holds a key).  Then the journal is read: it must hold exactly the changes the presses
asked for — a start is one game, an Enter is one NEXT, however long the frame after it took.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from device.journal import Journal
from xserver import XServer

SLOWED = Path(__file__).with_name("slowed_kiosk.py")
FRAME = 0.5  # seconds per frame: slower than the 0.4 s after which a held key used to repeat


def play(
    xserver: XServer, tmp_path: Path, keys: list[list[str]], *, settle: float = 1.5
) -> list[dict[str, object]]:
    """Start the slowed kiosk, press ``keys`` (groups with a pause after each), stop it, and
    return the commands its journal kept, oldest first (undone ones marked)."""
    db = tmp_path / "journal.sqlite3"
    env = xserver.env()
    env.update(
        AETHERBOX_DATA_DIR=str(tmp_path / "data"),
        AETHERBOX_CONFIG=str(tmp_path / "none.toml"),
        HOME=str(tmp_path),
    )
    kiosk = subprocess.Popen(
        [
            sys.executable,
            str(SLOWED),
            str(FRAME),
            "--db",
            str(db),
            "--size",
            "800x480",
            "--seed",
            "4",
            "--buttons",
            "fake",
            "--language",
            "en",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        xserver.window(kiosk.pid)
        time.sleep(2 * FRAME)
        for group in keys:
            xserver.press(group)
            time.sleep(settle)
    finally:
        kiosk.send_signal(signal.SIGTERM)
        output, _ = kiosk.communicate(timeout=30)
    assert kiosk.returncode == 0, output
    assert "Traceback" not in output, output
    with Journal(db) as journal:
        game = journal.last_game()
        assert game is not None, output
        return [{**txn.command, "undone": txn.undone} for txn in journal.history(game)]


def kinds(commands: list[dict[str, object]]) -> list[str]:
    return [f"{c['type']}{' (undone)' if c['undone'] else ''}" for c in commands]


def test_one_enter_starts_one_game_and_passes_no_turn(xserver: XServer, tmp_path: Path) -> None:
    commands = play(xserver, tmp_path, [["F2"], ["Return"]])
    assert kinds(commands) == ["NewGame"]


def test_a_commander_planechase_game_journals_exactly_the_presses(
    xserver: XServer, tmp_path: Path
) -> None:
    """Set up by keys (F2, → to Planechase, ↑ turns it on, Enter starts), then NEXT, ROLL twice,
    pass, NEXT, ↓ three times (3 life off the highlighted seat, shown) and Enter (the change is
    made, if the pause has not made it yet, and the turn passes: the same either way), UNDO, redo,
    NEXT."""
    commands = play(
        xserver,
        tmp_path,
        [
            ["F2"],
            ["Right", "Up"],
            ["Return"],
            ["Return"],
            ["space"],
            ["space"],
            ["Return"],
            ["Return"],
            ["Down", "Down", "Down"],
            ["Return"],
            ["BackSpace"],
            ["y"],
            ["Return"],
        ],
    )
    assert kinds(commands) == [
        "NewGame",
        "Advance",
        "RollPlanarDie",
        "RollPlanarDie",
        "Advance",
        "Advance",
        "ChangeLife",
        "Advance",
        "Advance",
    ]
    assert commands[0]["formats"] == ["commander", "planechase"]
    assert commands[6]["delta"] == -3
