"""Kiosk figures.  Run: python tests/bench/kiosk.py [--samples N] [--idle SECONDS] [DIR]

Prints JSON:

- ``latency_ms``: from an input put on the input queue (as the GPIO driver's thread puts a
  press) to the frame that shows its result being presented, for ROLL and NEXT at 800×480:
  median and 99th percentile.  It runs the real loop (``Kiosk.run``) on SDL's dummy video
  driver; the timings include the controller's journal COMMIT (fsync) — give DIR on the SD
  card to measure the card;
- ``idle_cpu_percent``: the process's CPU time over ``--idle`` seconds (30 by default) while
  the kiosk shows a game and nothing happens;
- ``cold_start_ms``: ``aetherbox kiosk --screenshots`` in a fresh interpreter, from starting the
  process to its first frame written;
- ``peak_rss_mb``: the benchmark process's peak resident memory (the kiosk, fonts, a game),
  and the cold-start process's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from figures import percentile  # noqa: E402

from device.commands import NewGame  # noqa: E402
from device.controller import Controller  # noqa: E402
from device.inputs import Button, ButtonPressed  # noqa: E402
from device.journal import Journal  # noqa: E402
from display.kiosk import Kiosk, WakingQueue  # noqa: E402
from display.screens.planechase import TUMBLE  # noqa: E402
from display.targets import OffscreenTarget  # noqa: E402
from display.ui import Quit  # noqa: E402


class Probe:
    """Counts inputs the loop has handled and stamps each presented frame with that count."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.handled = 0
        self.frames: list[tuple[float, int]] = []
        self.cond = threading.Condition()
        original = kiosk.handle_input

        def handle(event: object) -> None:
            original(event)  # type: ignore[arg-type]
            self.handled += 1

        kiosk.handle_input = handle  # type: ignore[method-assign]
        kiosk.on_present = self.presented

    def presented(self, when: float) -> None:
        with self.cond:
            self.frames.append((when, self.handled))
            self.cond.notify_all()

    def press(self, queue: WakingQueue, button: Button) -> float:
        """Put a press as a driver thread would; seconds until a frame showing it is presented."""
        with self.cond:
            wanted = self.handled + 1
            start = time.perf_counter()
            queue.put(ButtonPressed(button))
            while True:
                shown = [t for t, n in self.frames if n >= wanted and t >= start]
                if shown:
                    return shown[0] - start
                if not self.cond.wait(timeout=10):
                    raise RuntimeError(f"no frame showed {button} within 10 s")


def latencies(directory: Path, samples: int) -> tuple[dict[str, list[float]], Kiosk, Probe, Journal]:
    journal = Journal(directory / "kiosk-bench.sqlite3")
    controller = Controller(journal, rng=random.Random(1))
    controller.execute(NewGame(formats=("commander", "planechase"), players=("Ann", "Bob", "Cid", "Dee"), first="Ann"))
    queue = WakingQueue()
    kiosk = Kiosk(controller, OffscreenTarget((800, 480)), inputs=queue)
    probe = Probe(kiosk)
    results: dict[str, list[float]] = {"ROLL": [], "NEXT": []}
    errors: list[BaseException] = []

    def drive() -> None:
        try:
            time.sleep(0.2)
            while len(results["ROLL"]) < samples or len(results["NEXT"]) < samples:
                results["NEXT"].append(probe.press(queue, Button.NEXT))  # upkeep → main phase
                time.sleep(0.02)
                results["ROLL"].append(probe.press(queue, Button.ROLL))
                time.sleep(TUMBLE + 0.05)  # let the tumble finish: the next press starts clean
                results["NEXT"].append(probe.press(queue, Button.NEXT))  # pass the turn
                time.sleep(0.02)
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)

    thread = threading.Thread(target=drive, daemon=True)
    thread.start()
    kiosk.redraw()
    while thread.is_alive():
        kiosk.step()  # the real loop, one pass at a time so the benchmark can stop it
    if errors:
        raise errors[0]
    return results, kiosk, probe, journal


def idle_cpu(kiosk: Kiosk, seconds: float) -> float:
    """Process CPU time while the loop sleeps with a game on screen, in percent of one core."""
    stop = threading.Timer(seconds, lambda: kiosk.inputs.put(ButtonPressed(Button.SELECT, long=True)))
    kiosk.ui.messages_until = None
    cpu = time.process_time()
    wall = time.perf_counter()
    stop.start()
    frames = kiosk.frames
    while kiosk.step() and time.perf_counter() - wall < seconds:
        pass
    cpu_used = time.process_time() - cpu
    elapsed = time.perf_counter() - wall
    kiosk.dispatch(Quit())
    return 100 * cpu_used / elapsed, kiosk.frames - frames  # type: ignore[return-value]


def cold_start(directory: Path) -> tuple[float, float]:
    shots = directory / "cold-shots"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "AETHERBOX_DATA_DIR": str(directory / "cold-data")}
    start = time.time()
    subprocess.run(
        [sys.executable, "-m", "device.cli", "--config", os.devnull, "kiosk", "--screenshots", str(shots),
         "--frames", "1", "--db", str(directory / "cold.sqlite3"), "--buttons", "fake"],
        env=env, check=True, capture_output=True,
    )
    first = (shots / "frame-0001.png").stat().st_mtime
    child_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return (first - start) * 1000, child_rss


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", nargs="?", type=Path, help="where the journals go (default: a temporary directory)")
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--idle", type=float, default=30.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        directory = Path(tmp)
        results, kiosk, _, journal = latencies(directory, args.samples)
        idle, idle_frames = idle_cpu(kiosk, args.idle)  # type: ignore[misc]
        journal.close()
        cold_ms, child_rss = cold_start(directory)
        report = {
            "screen": "800x480",
            "video_driver": os.environ.get("SDL_VIDEODRIVER"),
            "latency_ms": {
                name: {"median": round(statistics.median(v) * 1000, 2), "p99": round(percentile(v, 0.99) * 1000, 2),
                       "samples": len(v)}
                for name, v in results.items()
            },
            "idle_cpu_percent": round(idle, 3),
            "idle_seconds": args.idle,
            "idle_frames": idle_frames,
            "cold_start_ms": round(cold_ms, 1),
            "peak_rss_mb": {
                "kiosk": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                "cold_start_process": round(child_rss, 1),
            },
        }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
