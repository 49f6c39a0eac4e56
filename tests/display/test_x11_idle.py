"""An idle kiosk sleeps (HW-1): the real kiosk process in a real X window (Xvfb) wakes at most
once a second while nothing happens — pygame's own wait woke it about 900 times a second — and
still takes a key press at once, and Ctrl+C and SIGTERM still end it cleanly."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from xserver import XServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from activity import Activity  # noqa: E402


def start(xserver: XServer, tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
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
            "-m",
            "display.cli",
            "kiosk",
            "--db",
            str(db),
            "--size",
            "480x320",
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
    xserver.window(kiosk.pid)
    return kiosk, db


def idle_wakes(pid: int, seconds: float) -> float:
    before = Activity.of(pid)
    time.sleep(seconds)
    return (Activity.of(pid) - before).wakes / seconds


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_an_idle_kiosk_sleeps_and_still_answers_at_once(
    xserver: XServer, tmp_path: Path, stop: signal.Signals
) -> None:
    kiosk, db = start(xserver, tmp_path)
    try:
        time.sleep(1.0)  # the first frames drawn, the start-up's backup taken
        assert idle_wakes(kiosk.pid, 3.0) <= 1.0
        xserver.press(["F2"])  # the set-up screen
        xserver.press(["Return"])  # starts the game it shows
        time.sleep(0.5)
        with closing(
            sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        ) as reader:  # it is locked for writers
            assert reader.execute("SELECT count(*) FROM games").fetchone() == (1,)
        assert idle_wakes(kiosk.pid, 3.0) <= 1.0  # a game on the table screen sleeps too
    finally:
        kiosk.send_signal(stop)
        output, _ = kiosk.communicate(timeout=10)
    assert kiosk.returncode == 0, output
    assert "Traceback" not in output, output
