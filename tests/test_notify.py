"""HW-5: systemd's notify protocol — READY once the journal is checked, watchdog pings from the loop.

systemd's side is played by a real AF_UNIX datagram socket in a temporary directory, which is
what systemd itself listens on.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.console.session import watched_fd
from device.journal import Journal
from device.notify import Notifier, Watchdog, watchdog_interval


class FakeSystemd:
    """The receiving end of ``$NOTIFY_SOCKET``: collects datagrams with the time they arrived."""

    def __init__(self, path: Path | bytes) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path) if isinstance(path, Path) else path)
        self.address = str(path) if isinstance(path, Path) else "@" + path[1:].decode()

    def receive(self, timeout: float = 5.0) -> str | None:
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(4096).decode()
        except TimeoutError:
            return None

    def drain(self, seconds: float) -> list[tuple[float, str]]:
        got = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            message = self.receive(left)
            if message is not None:
                got.append((time.monotonic(), message))
        return got

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path / "notify.sock")
    yield fake
    fake.close()


def test_hw5_ready_is_one_datagram_with_status(systemd: FakeSystemd) -> None:
    """HW-5: READY=1 (and a status line) reach the socket named in $NOTIFY_SOCKET."""
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": systemd.address})
    assert notifier.ready("journal checked")
    assert systemd.receive() == "READY=1\nSTATUS=journal checked"
    assert notifier.stopping()
    assert systemd.receive() == "STOPPING=1"
    notifier.close()


def test_hw5_abstract_socket_names_start_with_at(tmp_path: Path) -> None:
    """HW-5: systemd may name an abstract socket as "@name"; the datagram still arrives."""
    name = b"\0aetherbox-test-" + str(os.getpid()).encode() + tmp_path.name.encode()
    fake = FakeSystemd(name)
    try:
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": fake.address})
        assert notifier.ping()
        assert fake.receive() == "WATCHDOG=1"
    finally:
        fake.close()


def test_hw5_without_systemd_nothing_is_sent() -> None:
    """HW-5: outside systemd there is no socket; notifying is a no-op, and no watchdog exists."""
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    assert not notifier.ready()
    assert Watchdog.from_environment(notifier, {"WATCHDOG_USEC": "1000000"}) is None


def test_hw5_a_vanished_socket_does_not_stop_the_game(tmp_path: Path) -> None:
    """HW-5: if systemd's socket is gone, sending fails quietly (False), never raises."""
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": str(tmp_path / "gone.sock")})
    assert notifier.enabled
    assert not notifier.ready()


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 30.0),
        ({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": "4242"}, 0.5),
        ({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": "1"}, None),  # meant for another process
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({"WATCHDOG_USEC": "500000", "WATCHDOG_PID": "me"}, None),
        ({}, None),
    ],
)
def test_hw5_watchdog_usec_parsing(env: dict[str, str], expected: float | None) -> None:
    """HW-5: $WATCHDOG_USEC is microseconds; $WATCHDOG_PID must name this process."""
    assert watchdog_interval(env, pid=4242) == expected


def test_hw5_watchdog_pings_at_half_the_interval(systemd: FakeSystemd) -> None:
    """HW-5: with a 10 s watchdog, ticks ping at most every 5 s (on a driven clock)."""
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": systemd.address})
    watchdog = Watchdog.from_environment(notifier, {"WATCHDOG_USEC": "10000000"})
    assert watchdog is not None and watchdog.period == 5.0
    sent = [
        now
        for now in (100.0, 101.0, 104.9, 105.0, 106.0, 109.99, 110.0, 130.0)
        if watchdog.tick(now)
    ]
    assert sent == [100.0, 105.0, 110.0, 130.0]
    assert [systemd.receive(1) for _ in sent] == ["WATCHDOG=1"] * 4
    assert systemd.receive(0.05) is None
    assert watchdog.timeout(131.0) == 4.0


def test_hw5_a_stuck_loop_stops_pinging(systemd: FakeSystemd) -> None:
    """HW-5: pings come from the loop itself: while the console waits for input it keeps pinging;
    while a command is stuck (the loop does not come back for the next line) the pings stop."""
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": systemd.address})
    watchdog = Watchdog(notifier, 0.2)
    read_end, write_end = os.pipe()
    lines = watched_fd(read_end, watchdog)
    try:
        threading.Timer(0.5, os.write, (write_end, b"show\n")).start()
        assert next(lines) == "show\n"  # waited 0.5 s for it, pinging every 0.1 s
        waiting = systemd.drain(0.05)
        stuck = systemd.drain(0.6)  # the "command" takes 0.6 s: nobody calls the loop
        assert len(waiting) >= 4 and {m for _, m in waiting} == {"WATCHDOG=1"}
        assert stuck == []
        os.write(write_end, b"next\n")
        assert next(lines) == "next\n"  # the loop is back: it pings at once
        assert systemd.receive(0.5) == "WATCHDOG=1"
    finally:
        os.close(write_end)
        assert list(lines) == []
        os.close(read_end)


def _spawn_console(tmp_path: Path, systemd: FakeSystemd, *args: str) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "NOTIFY_SOCKET": systemd.address,
        "WATCHDOG_USEC": "300000",
        "AETHERBOX_DATA_DIR": str(tmp_path / "data"),
        "AETHERBOX_CONFIG": str(tmp_path / "none.toml"),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "display.cli", "console", *args],
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_hw5_console_is_ready_only_after_the_journal_is_checked(
    tmp_path: Path, systemd: FakeSystemd
) -> None:
    """HW-5: `aetherbox console` under systemd: READY=1 comes once the journal exists and passed
    its check; then the idle loop pings the watchdog; STOPPING=1 on a clean exit."""
    process = _spawn_console(tmp_path, systemd)
    try:
        ready = systemd.receive(20)
        assert ready == "READY=1\nSTATUS=journal checked"
        journal = tmp_path / "data" / "games" / "aetherbox.sqlite3"
        assert journal.exists()  # created and checked before READY
        pings = systemd.drain(0.6)
        assert len(pings) >= 3 and {m for _, m in pings} == {"WATCHDOG=1"}
        assert process.stdin is not None
        process.stdin.write("new A B first=A\nquit\n")
        process.stdin.close()
        assert process.wait(20) == 0
    finally:
        process.kill()
        process.wait()
    assert process.stdout is not None
    assert "A goes first" in process.stdout.read()
    after = [m for _, m in systemd.drain(0.2)]
    assert after[-1] == "STOPPING=1"


def test_hw5_no_ready_when_the_journal_cannot_be_used(tmp_path: Path, systemd: FakeSystemd) -> None:
    """HW-5: a journal held by another aetherbox is reported, and READY is never sent, so systemd
    counts the start as failed and restarts it."""
    with Journal(tmp_path / "data" / "games" / "aetherbox.sqlite3"):
        process = _spawn_console(tmp_path, systemd)
        _, err = process.communicate("", timeout=20)
    assert process.returncode == 1
    assert "another aetherbox is using this journal" in err
    assert systemd.drain(0.1) == []


def test_hw5_the_kiosk_loop_is_ready_after_the_journal_and_pings_while_idle(
    tmp_path: Path, systemd: FakeSystemd
) -> None:
    """HW-5: the kiosk (the process the service runs) sends READY once its journal is checked and
    then pings from its loop while it sleeps; SIGTERM ends it cleanly with STOPPING=1."""
    env = {
        **os.environ,
        "NOTIFY_SOCKET": systemd.address,
        "WATCHDOG_USEC": "300000",
        "AETHERBOX_DATA_DIR": str(tmp_path / "data"),
        "AETHERBOX_CONFIG": str(tmp_path / "none.toml"),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "display.cli",
            "kiosk",
            "--screenshots",
            str(tmp_path / "shots"),
            "--buttons",
            "fake",
        ],
        env=env,
        text=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        ready = systemd.receive(30)
        assert ready is not None and ready.startswith("READY=1")
        assert (tmp_path / "data" / "games" / "aetherbox.sqlite3").exists()
        pings = systemd.drain(0.9)
        assert len(pings) >= 4 and {m for _, m in pings} == {"WATCHDOG=1"}
        assert max(b - a for (a, _), (b, _) in zip(pings, pings[1:])) < 0.3
        process.terminate()
        process.wait(20)
    finally:
        process.kill()
        process.wait()
    assert "STOPPING=1" in [m for _, m in systemd.drain(0.3)]


def test_hw5_sigterm_stops_an_idle_kiosk_at_once(tmp_path: Path) -> None:
    """HW-5: `systemctl stop` sends SIGTERM; the kiosk ends cleanly even while it sleeps with no
    deadline (no watchdog), rather than waiting for systemd's SIGKILL."""
    env = {
        **os.environ,
        "AETHERBOX_DATA_DIR": str(tmp_path / "data"),
        "AETHERBOX_CONFIG": str(tmp_path / "none.toml"),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    env.pop("NOTIFY_SOCKET", None)
    env.pop("WATCHDOG_USEC", None)
    shots = tmp_path / "shots"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "display.cli",
            "kiosk",
            "--screenshots",
            str(shots),
            "--buttons",
            "fake",
        ],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while not any(shots.glob("*.png")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any(shots.glob("*.png")), "the kiosk drew no first frame"
        time.sleep(0.3)  # asleep now, with nothing due
        process.terminate()
        assert process.wait(5) == 0
    finally:
        process.kill()
        process.wait()
