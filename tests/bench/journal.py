"""Journal figures: append latency and resume time.  Run: python tests/bench/journal.py [DIR]

Prints JSON.  Append latency is one command's full path (decide, COMMIT with fsync, fold), as a
button press takes it; resume is opening the journal and rebuilding the state of a game of N
events, with the default snapshots, and without them (a full replay) for comparison.  DIR
is where the journals are written (default: a temporary directory); give a folder on the SD card
to measure the card, since a RAM-backed /tmp makes fsync nearly free.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from figures import percentile

from device.commands import ChangeLife, Command, NewGame, PassTurn
from device.controller import Controller
from device.journal import Journal


def _command(i: int) -> Command:
    return PassTurn() if i % 4 == 0 else ChangeLife(seat=i % 4, delta=-1 if i % 3 else 1, source=(i + 1) % 4)


def append_latency(folder: Path, count: int = 500) -> dict[str, float]:
    with Journal(folder / "append.sqlite3") as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C", "D"), starting_life=9999, first="A"))
        timings = []
        for i in range(count):
            start = time.perf_counter()
            controller.execute(_command(i))
            timings.append((time.perf_counter() - start) * 1000)
    return {"count": count, "median_ms": round(statistics.median(timings), 3), "p99_ms": round(percentile(timings, 0.99), 3)}


def _build(path: Path, events: int) -> int:
    with Journal(path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C", "D"), starting_life=9999, first="A"))
        assert controller.game is not None
        journal._db.execute("PRAGMA synchronous=OFF")  # building the fixture only; measured opens use FULL
        written = 1
        i = 0
        while written < events:
            result = controller.execute(_command(i))
            written += len(result.events)
            i += 1
        return written


def resume(folder: Path, events: int) -> dict[str, float]:
    path = folder / f"resume-{events}.sqlite3"
    written = _build(path, events)
    start = time.perf_counter()
    with Journal(path) as journal:
        controller = Controller(journal)
        opened = time.perf_counter() - start
        assert controller.game is not None
        start = time.perf_counter()
        replayed = journal.replay(controller.game)
        full = time.perf_counter() - start
        assert replayed == controller.state
    return {"events": written, "resume_ms": round(opened * 1000, 2), "full_replay_ms": round(full * 1000, 2)}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    with tempfile.TemporaryDirectory(dir=args[0] if args else None) as folder:
        root = Path(folder)
        figures = {
            "append_latency": append_latency(root),
            "resume": [resume(root, n) for n in (100, 1_000, 10_000)],
            "python": sys.version.split()[0],
            "directory": str(root.parent),
        }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
