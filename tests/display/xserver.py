"""A real X server for the kiosk's tests: Xvfb on a display of its own choosing (a local socket,
no TCP), and xdotool to press keys on it through the XTEST extension — the same path a USB
keyboard's presses take.  ``.ci/run`` installs both (Debian packages ``xvfb`` and ``xdotool``);
without them the tests that need them are skipped with that hint."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

HINT = "needs Xvfb and xdotool (Debian packages 'xvfb' and 'xdotool'; .ci/run installs them under CI=true)"


@dataclass
class XServer:
    display: str

    def env(self) -> dict[str, str]:
        """The environment for a program that should open its window on this server."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
        env.update(
            DISPLAY=self.display,
            SDL_VIDEODRIVER="x11",
            SDL_AUDIODRIVER="dummy",
            PYGAME_HIDE_SUPPORT_PROMPT="1",
        )
        return env

    def xdotool(self, *args: str, timeout: float = 20.0) -> str:
        done = subprocess.run(
            ["xdotool", *args], env=self.env(), capture_output=True, text=True, timeout=timeout
        )
        if done.returncode != 0:
            raise AssertionError(f"xdotool {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def window(self, pid: int, timeout: float = 30.0) -> str:
        """Wait for process ``pid``'s window to be mapped, and give it the keyboard."""
        found = self.xdotool(
            "search", "--sync", "--onlyvisible", "--pid", str(pid), timeout=timeout
        ).split()
        window = found[0]
        self.xdotool("windowfocus", "--sync", window)
        return window

    def press(self, keys: Sequence[str], hold: float = 0.12, gap: float = 0.15) -> None:
        """Press each key as a person does: down, held ``hold`` seconds, up, then ``gap`` seconds."""
        for key in keys:
            self.xdotool("keydown", key)
            time.sleep(hold)
            self.xdotool("keyup", key)
            time.sleep(gap)


@contextmanager
def running_xvfb(screen: str = "1024x768x24") -> Iterator[XServer]:
    """Xvfb on a display number of its own choosing, stopped on leaving (the benchmarks use it
    too).  Raises RuntimeError when it does not start."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp", "-noreset"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield XServer(f":{number}")
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture
def xserver() -> Iterator[XServer]:
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        pytest.skip(HINT)
    with running_xvfb() as server:
        yield server
