"""HW-5: the service stops within a second in every state — starting, waiting for a screen that
is not there, drawing, and just after READY while the check of a long journal runs — and says
STOPPING to systemd.  The real process, as the unit runs it (``$NOTIFY_SOCKET`` set), told to stop
with SIGTERM as ``systemctl stop`` does; the time is from the signal to the process's end."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.commands import ChangeLife, NewGame, PassTurn
from device.controller import Controller
from device.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
#: What a stop may take: systemd's stop is over when the process is gone.
WITHIN = 1.0


class Service:
    """``aetherbox kiosk`` started as the unit starts it, with a notify socket of the test's."""

    def __init__(self, tmp_path: Path, *args: str) -> None:
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        path = tmp_path / "notify"
        self.notify.bind(str(path))
        env = {
            **os.environ,
            "NOTIFY_SOCKET": str(path),
            "WATCHDOG_USEC": "30000000",
            "PYTHONPATH": str(ROOT),
            "AETHERBOX_DATA_DIR": str(tmp_path / "data"),
            "SDL_VIDEODRIVER": "kmsdrm",
        }
        env.pop("WATCHDOG_PID", None)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "display.cli",
                "--config",
                "/dev/null",
                "kiosk",
                "--buttons",
                "fake",
                *args,
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
        )
        self.said: list[str] = []

    def wait_for(self, start: str, timeout: float = 60) -> str:
        """The first message from the service that starts with ``start``."""
        self.notify.settimeout(timeout)
        while True:
            message = self.notify.recv(4096).decode()
            self.said.append(message)
            if message.startswith(start):
                return message

    def stop(self) -> float:
        """SIGTERM, then the seconds until the process is gone."""
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)
        took = time.monotonic() - began
        self.notify.settimeout(0.5)
        try:
            while True:
                self.said.append(self.notify.recv(4096).decode())
        except (TimeoutError, BlockingIOError):
            pass
        return took

    def close(self) -> str:
        if self.process.poll() is None:
            self.process.kill()
        _, err = self.process.communicate()
        self.notify.close()
        return err


@pytest.fixture
def service(tmp_path: Path) -> Iterator[list[Service]]:
    started: list[Service] = []
    yield started
    for one in started:
        one.close()


def test_hw5_a_stop_while_waiting_for_the_screen_takes_under_a_second(
    tmp_path: Path, service: list[Service]
) -> None:
    """An SPI panel whose overlay is missing: the kiosk waits and tries again; a stop ends the
    wait at once (SDL catches no signal of its own to sit on)."""
    one = Service(tmp_path, "--fb", str(tmp_path / "no-fb9"))
    service.append(one)
    assert one.wait_for("READY=1").startswith("READY=1\nSTATUS=waiting for the screen:")
    time.sleep(1.5)  # into the pause between two attempts
    took = one.stop()
    err = one.close()
    assert took < WITHIN, err
    assert one.process.returncode == 0, err
    assert "STOPPING=1" in one.said and "Traceback" not in err


def test_hw5_a_stop_while_drawing_takes_under_a_second(
    tmp_path: Path, service: list[Service]
) -> None:
    one = Service(tmp_path, "--screenshots", str(tmp_path / "shots"), "--size", "480x320")
    service.append(one)
    assert one.wait_for("READY=1") == "READY=1\nSTATUS=kiosk running"
    deadline = time.monotonic() + 30
    while not (tmp_path / "shots" / "frame-0001.png").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    took = one.stop()
    err = one.close()
    assert took < WITHIN, err
    assert one.process.returncode == 0, err
    assert "STOPPING=1" in one.said and "Traceback" not in err


def long_game(path: Path, changes: int) -> None:
    """A four-player game of ``changes`` changes (built without syncing each, for speed)."""
    journal = Journal(path, backup_every=0)
    try:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C", "D"), starting_life=9999, first="A"))
        journal._db.execute("PRAGMA synchronous=OFF")
        for i in range(changes):
            controller.execute(
                PassTurn() if i % 4 == 0 else ChangeLife(seat=i % 4, delta=-1, source=(i + 1) % 4)
            )
        journal._db.execute("PRAGMA synchronous=FULL")
    finally:
        journal.close()


def test_hw5_a_stop_while_a_long_journal_is_checked_takes_under_a_second(
    tmp_path: Path, service: list[Service]
) -> None:
    """READY goes out before the whole journal is checked; a stop then does not wait for the
    check's verdict (nor back up a journal that has none)."""
    journal = tmp_path / "data" / "games" / "aetherbox.sqlite3"
    journal.parent.mkdir(parents=True)
    long_game(journal, 12_000)
    one = Service(tmp_path, "--screenshots", str(tmp_path / "shots"), "--size", "480x320")
    service.append(one)
    one.wait_for("READY=1")
    took = one.stop()
    err = one.close()
    assert took < WITHIN, err
    assert one.process.returncode == 0, err
    assert "Traceback" not in err


@pytest.mark.parametrize("after", [0.05, 0.2, 0.4])
def test_hw5_a_stop_while_starting_takes_under_a_second(
    tmp_path: Path, service: list[Service], after: float
) -> None:
    """Told to stop while it imports, opens the journal or tries the screen for the first time."""
    one = Service(tmp_path, "--fb", str(tmp_path / "no-fb9"))
    service.append(one)
    time.sleep(after)
    took = one.stop()
    err = one.close()
    assert took < WITHIN, err
    assert one.process.returncode in (0, -signal.SIGTERM), err
    assert "Traceback" not in err
