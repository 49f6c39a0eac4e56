"""Start-up time under systemd's notify protocol, as JSON.

    python tests/bench/boot.py [DIR] [--runs N]

Starts the gadget the way the service does (a fresh process, a $NOTIFY_SOCKET to report to, the
journal in DIR), for an empty journal and for one with a long game to resume (100,000 events,
built as ``tests/bench/journal.py`` builds its games), and times:

- ``aetherbox console``: process start → the READY=1 datagram;
- ``aetherbox kiosk --screenshots DIR`` on SDL's dummy video driver, in each language (a
  configuration file naming it): process start → READY=1 (the journal checked, the screen
  opened) and → the first frame, the moment ``frame-0001.png`` is complete on disk (the kiosk
  draws after READY: fonts, the translations, the first render).

The check of the whole journal runs after READY on its own thread (docs/decisions/0010), so it is
in neither figure.  Python compiles the modules on every start when PYTHONDONTWRITEBYTECODE is set
and nothing is compiled yet: run ``python -m compileall -q device display drivers`` first to time a
start as the Pi's installed package has it.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _ready_time(data: Path) -> float:
    with tempfile.TemporaryDirectory() as sockets:
        address = str(Path(sockets) / "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(address)
        sock.settimeout(60)
        env = {
            **os.environ,
            "NOTIFY_SOCKET": address,
            "AETHERBOX_DATA_DIR": str(data),
            "AETHERBOX_CONFIG": str(data / "none.toml"),
        }
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "display.cli", "console"],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
        )
        try:
            while not sock.recv(4096).startswith(b"READY=1"):
                pass
            return time.perf_counter() - start
        finally:
            process.communicate(b"quit\n", timeout=30)
            sock.close()


def _complete_png(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            file.seek(-8, os.SEEK_END)
            return file.read(8)[:4] == b"IEND"  # the last chunk's type, then its CRC
    except OSError:
        return False  # not there yet, or still shorter than a chunk


def _kiosk_times(data: Path, language: str) -> tuple[float, float]:
    """Seconds from starting ``aetherbox kiosk --screenshots`` in ``language`` to READY=1 and to
    its first frame."""
    with tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "aetherbox.toml"
        config.write_text(f'language = "{language}"\n', encoding="utf-8")
        address = str(Path(scratch) / "notify")
        shots = Path(scratch) / "shots"
        first = shots / "frame-0001.png"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(address)
        sock.setblocking(False)
        env = {
            **os.environ,
            "NOTIFY_SOCKET": address,
            "AETHERBOX_DATA_DIR": str(data),
            "AETHERBOX_CONFIG": str(config),
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        }
        start = time.perf_counter()
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
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        ready = frame = None
        try:
            give_up = start + 120
            while (ready is None or frame is None) and time.perf_counter() < give_up:
                if process.poll() is not None:
                    raise RuntimeError(
                        f"the kiosk ended early: {process.stderr.read().decode() if process.stderr else ''}"
                    )
                if ready is None:
                    try:
                        if sock.recv(4096).startswith(b"READY=1"):
                            ready = time.perf_counter() - start
                    except BlockingIOError:
                        pass
                if frame is None and _complete_png(first):
                    frame = time.perf_counter() - start
                time.sleep(0.001)
            if ready is None or frame is None:
                raise RuntimeError("no READY=1 or no first frame within two minutes")
            return ready, frame
        finally:
            process.terminate()  # SDL turns SIGTERM into a quit event: the kiosk closes cleanly
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
            sock.close()


def _figures(times: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(times), 4), "max": round(max(times), 4)}


def _long_game(data: Path, events: int) -> int:
    from journal import build_game  # tests/bench/journal.py, beside this script

    from device.journal import default_path

    return build_game(default_path(data), events)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "dir", nargs="?", type=Path, help="where to put the journal (default: a temporary folder)"
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--events", type=int, default=100_000, help="the long game's length in events"
    )
    parser.add_argument(
        "--languages", default="en,ru,ja,pl", help="the kiosk's languages, comma-separated"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        empty, resumed = Path(folder) / "empty", Path(folder) / "resumed"
        events = _long_game(resumed, args.events)
        console: dict[str, object] = {}
        kiosk: dict[str, dict[str, object]] = {}
        for name, data in (("empty_journal", empty), (f"resume_{events}_events", resumed)):
            times = [_ready_time(data) for _ in range(args.runs)]
            console[name] = {"start_to_ready_s": _figures(times)}
            kiosk[name] = {}
            for language in args.languages.split(","):
                pairs = [_kiosk_times(data, language) for _ in range(args.runs)]
                kiosk[name][language] = {
                    "start_to_ready_s": _figures([r for r, _ in pairs]),
                    "start_to_first_frame_s": _figures([f for _, f in pairs]),
                }
    report = {
        "runs": args.runs,
        "aetherbox console": console,
        "aetherbox kiosk --screenshots (SDL dummy driver, 800x480)": kiosk,
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        sys.exit(main())
