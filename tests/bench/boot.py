"""Start-up time under systemd's notify protocol: process start → READY=1, as JSON.

    python tests/bench/boot.py [DIR] [--runs N]

Starts `aetherbox console` the way the service starts the gadget (a fresh process, a
$NOTIFY_SOCKET to report to, the journal in DIR) and times the READY=1 datagram, for an empty
journal and for one with a long game to resume.  First frame: the kiosk's own start-up is not
timed here (it is measured once `aetherbox kiosk` sends READY after its first frame).
"""

from __future__ import annotations

import argparse
import json
import os
import random
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
        env = {**os.environ, "NOTIFY_SOCKET": address, "AETHERBOX_DATA_DIR": str(data),
               "AETHERBOX_CONFIG": str(data / "none.toml")}
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "device.cli", "console"], env=env,
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        try:
            while not sock.recv(4096).startswith(b"READY=1"):
                pass
            return time.perf_counter() - start
        finally:
            process.communicate(b"quit\n", timeout=30)
            sock.close()


def _long_game(data: Path, changes: int) -> None:
    from device.commands import ChangeLife, NewGame
    from device.controller import Controller
    from device.journal import Journal, default_path

    with Journal(default_path(data)) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C", "D"), starting_life=9999, first="A"))
        for i in range(changes):
            controller.execute(ChangeLife(seat=i % 4, delta=-1, source=(i + 1) % 4))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", type=Path, help="where to put the journal (default: a temporary folder)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        empty, resumed = Path(folder) / "empty", Path(folder) / "resumed"
        _long_game(resumed, 1000)
        figures = {}
        for name, data in (("empty_journal", empty), ("resume_1000_changes", resumed)):
            times = [_ready_time(data) for _ in range(args.runs)]
            figures[name] = {"start_to_ready_s": {"median": round(statistics.median(times), 4),
                                                  "max": round(max(times), 4)}}
    print(json.dumps({"program": "aetherbox console", "first_frame": None, "runs": args.runs, **figures}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
