"""Kiosk figures.  Run: python tests/bench/kiosk.py [--samples N] [--idle SECONDS] [--runs N] [DIR]

Prints JSON; every figure says how it was taken:

- ``press_to_frame_ms``: ROLL, NEXT and a life change of −1 on the table, each from the input
  event — the ``ButtonPressed``/``EncoderTurned`` the GPIO driver's thread puts on the input
  queue — to ``pygame.display.flip()`` having returned for the first frame that shows its result,
  in a real window (X11, on an Xvfb the bench starts; SDL's dummy driver when there is no Xvfb,
  and it says so) at 800×480, through the real loop (``Kiosk.step``) with the journal's COMMIT
  (fsync) in DIR.  The life change is two figures: ``life −1 shown`` from the encoder's −1 to the
  first frame whose highlighted seat shows it pending (nothing is written yet), and ``life −1
  made`` from the end of the pause (``display.screens.life.PAUSE`` after the turn, when the loop
  wakes for it) to the first frame after the change was committed — the wake-up, the COMMIT and
  the frame.  Median and p99 over ``--samples`` of each (200 by default); every sample is
  checked: the frame came after the input, the journal's newest change is the command the press
  stands for (a roll, a step or a pass, a life change of −1 — and none while the change shows),
  and a refused press fails the benchmark.  The die's tumble after a roll is left to finish (its
  frames are not presses), and each round waits out the pause.  ``ROLL_planeswalked_ms`` picks
  out of ROLL's samples those whose roll turned over another plane (a frame with a new plane's
  text): their median and the slowest.
- ``flush_ms``: one small INSERT and COMMIT in DIR with the journal's settings (WAL,
  synchronous=FULL): the floor no press can go below; ``budget_ms`` is its p99 + one 60 Hz frame.
- ``idle``: wake-ups per second (context switches of every thread) and CPU while the kiosk shows a
  game and nothing happens, for ``--idle`` seconds, per driver path: ``x11`` the real
  ``aetherbox kiosk`` process in an Xvfb window; ``dummy`` the real ``aetherbox kiosk
  --screenshots`` process; ``console`` the loop as on the Pi's console (it sleeps on its queue,
  and a thread blocking on the input devices wakes it) — KMS/DRM itself cannot run here, so FIFOs
  in a folder stand in for ``/dev/input``, and a write to one is checked to wake the loop.
- ``cold_start_ms``: ``aetherbox kiosk --screenshots`` in a fresh interpreter (the installed
  modules compiled, as pip leaves them), from starting the process to its first frame complete on
  disk, median of ``--runs``; beside it Chromium's start to a screenshot of a small local page
  (Planar Atlas is a web page; it cannot be loaded offline, and a small page paints no later) when
  ``chromium`` is installed — or that it is not.  And the floor under ours: a fresh interpreter
  that imports just the library modules the kiosk loads (``tests/bench/imports.py`` lists them)
  and exits, from start to its exit, median of ``--runs``.
- ``peak_rss_mb`` (under ``idle``): the real kiosk process's peak resident memory (VmHWM) with a
  game on screen.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "display")]  # this checkout first, then the X server helper
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from activity import Activity  # noqa: E402
from figures import flush_times, percentile  # noqa: E402
from imports import compile_ours, importing, library_modules, python  # noqa: E402
from xserver import XServer, running_xvfb  # noqa: E402

FRAME_60HZ_MS = 1000 / 60


def _summary(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values) * 1000, 2), "p99": round(percentile(values, 0.99) * 1000, 2),
            "samples": len(values)}


@dataclass(frozen=True)
class Frame:
    """A presented frame: when it was flipped (``perf_counter``, and the kiosk's clock,
    ``time.monotonic``), how many inputs were handled by then, the journal's newest change and
    the life change the table showed pending (its amount and when it is due), if any."""

    when: float
    monotonic: float
    handled: int
    pos: int
    command: dict[str, object]
    pending: tuple[int, float] | None


class Probe:
    """Stamps each presented frame (read on the loop's thread, which owns the journal)."""

    def __init__(self, kiosk: object) -> None:
        from display.kiosk import Kiosk

        assert isinstance(kiosk, Kiosk)
        self.kiosk = kiosk
        self.handled = 0
        self.frames: list[Frame] = []
        self.awaiting = False
        self.cond = threading.Condition()
        handle = kiosk.handle_input

        def counted(event: object) -> None:
            handle(event)  # type: ignore[arg-type]
            with self.cond:
                self.handled += 1

        kiosk.handle_input = counted  # type: ignore[method-assign]
        kiosk.on_present = self.presented

    def presented(self, when: float) -> None:
        from display.screens.life import PendingLife

        last = self.kiosk.controller.last_change()
        state = self.kiosk.state
        change = self.kiosk.ui.kept(PendingLife)
        with self.cond:
            self.frames.append(Frame(when, time.monotonic(), self.handled, 0 if last is None else last.pos,
                                     {} if last is None else last.command,
                                     None if change is None else (change.amount, change.due)))
            planechase = state.planechase if state is not None else None
            self.awaiting = bool(planechase and (planechase.encounter or planechase.choice or planechase.awaiting))
            self.cond.notify_all()

    def put(self, event: object) -> tuple[float, Frame]:
        """Put ``event`` as a driver thread does; seconds until a frame after it was flipped, and
        that frame."""
        queue = self.kiosk.inputs
        with self.cond:
            wanted = self.handled + 1
            start = time.perf_counter()
            queue.put(event)  # type: ignore[arg-type]
            while True:
                shown = [f for f in self.frames if f.handled >= wanted and f.when >= start]
                if shown:
                    return shown[0].when - start, shown[0]
                if not self.cond.wait(timeout=10):
                    raise RuntimeError(f"no frame showed {event} within 10 s")

    def newest(self) -> int:
        with self.cond:
            return self.frames[-1].pos

    def made(self, after: int, due: float) -> tuple[float, Frame]:
        """Wait for the first frame whose journal has a change past ``after`` (nothing is put:
        the loop wakes by itself); seconds from ``due`` (the kiosk's clock) to its flip, and the
        frame."""
        with self.cond:
            while True:
                shown = [f for f in self.frames if f.pos > after]
                if shown:
                    return shown[0].monotonic - due, shown[0]
                if not self.cond.wait(timeout=10):
                    raise RuntimeError("no frame showed the pending change made within 10 s")


def life_change(probe: Probe, results: dict[str, list[float]]) -> None:
    """−1 on the encoder: shown pending at once with nothing written, then made after the pause
    (the kiosk's clock is ``time.monotonic``, and the frames are stamped with it too)."""
    from device.inputs import EncoderTurned

    before = probe.newest()
    took, frame = probe.put(EncoderTurned(-1))
    if frame.pos != before or frame.pending is None or frame.pending[0] != -1:
        raise RuntimeError(f"the encoder's −1 was not shown pending: change {frame.pos} after {before}, "
                           f"{frame.pending} ({probe.kiosk.ui.error})")
    results["life −1 shown"].append(took)
    took, frame = probe.made(before, frame.pending[1])
    if frame.pos != before + 1 or frame.command.get("type") != "ChangeLife" or frame.command.get("delta") != -1:
        raise RuntimeError(f"the pause made {frame.command}, not a life change of −1 ({probe.kiosk.ui.error})")
    results["life −1 made"].append(took)


def _planes(kiosk: Any) -> list[str]:
    """The planes face up on the kiosk's table."""
    planechase = kiosk.state.planechase if kiosk.state is not None else None
    return [card.name for card in planechase.face_up] if planechase is not None else []


def latencies(directory: Path, samples: int) -> tuple[dict[str, list[float]], list[float]]:
    """Presses through the real loop into a real window; each checked (see the module's doc).
    Returns the samples by press, and ROLL's that planeswalked."""
    from device.commands import NewGame
    from device.controller import Controller
    from device.inputs import Button, ButtonPressed
    from device.journal import Journal
    from display.kiosk import Kiosk, WakingQueue
    from display.screens.planechase import TUMBLE
    from display.targets import WindowTarget

    journal = Journal(directory / "kiosk-bench.sqlite3", defer_backups=True)
    controller = Controller(journal, rng=random.Random(1))
    controller.execute(NewGame(formats=("commander", "planechase"), players=("Ann", "Bob", "Cid", "Dee"), first="Ann",
                               starting_life=9999))  # 200 life changes and nobody is out
    queue = WakingQueue()
    kiosk = Kiosk(controller, WindowTarget((800, 480)), inputs=queue)
    probe = Probe(kiosk)
    results: dict[str, list[float]] = {"ROLL": [], "NEXT": [], "life −1 shown": [], "life −1 made": []}
    errors: list[BaseException] = []

    planeswalked: list[float] = []  # ROLL's samples whose roll turned over another plane

    def press(name: str, event: object, expect: Callable[[dict[str, object]], bool]) -> None:
        before, shown = probe.newest(), _planes(kiosk)
        took, frame = probe.put(event)
        if frame.pos != before + 1 or not expect(frame.command):
            raise RuntimeError(f"{name} did not do what it stands for: change {frame.pos} after {before}: "
                               f"{frame.command} ({kiosk.ui.error})")
        results[name].append(took)
        if name == "ROLL" and _planes(kiosk) != shown:
            planeswalked.append(took)

    def step_or_pass(command: dict[str, object]) -> bool:
        return command["type"] in ("Advance", "PassTurn")

    def drive() -> None:
        try:
            time.sleep(0.3)
            while min(len(v) for v in results.values()) < samples:
                press("NEXT", ButtonPressed(Button.NEXT), step_or_pass)  # upkeep → main phase
                life_change(probe, results)
                press("ROLL", ButtonPressed(Button.ROLL), lambda c: c["type"] == "RollPlanarDie")
                time.sleep(TUMBLE + 0.05)  # the tumble ends: the next press starts clean
                for _ in range(5):  # a phenomenon or a plane's choice: NEXT goes on (not a sample)
                    if not probe.awaiting:
                        break
                    probe.put(ButtonPressed(Button.NEXT))
                else:
                    raise RuntimeError(f"the game still waits after five NEXTs: {kiosk.state}")
                press("NEXT", ButtonPressed(Button.NEXT), step_or_pass)  # pass the turn
        except BaseException as error:  # noqa: BLE001 - reported by the main thread
            errors.append(error)
        finally:
            queue.wake()  # the loop below sees the drive has ended

    thread = threading.Thread(target=drive, daemon=True)
    thread.start()
    kiosk.redraw()
    while thread.is_alive():
        kiosk.step()  # the real loop, one pass at a time so the benchmark can stop it
    kiosk.target.close()
    journal.close()
    if errors:
        raise errors[0]
    return results, planeswalked


def _kiosk_env(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env.update(AETHERBOX_DATA_DIR=str(data), AETHERBOX_CONFIG=os.devnull, SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1", **extra)
    return env


def _seed_game(data: Path) -> None:
    from device.commands import NewGame
    from device.controller import Controller
    from device.journal import Journal, default_path

    with Journal(default_path(data)) as journal:
        Controller(journal, rng=random.Random(1)).execute(
            NewGame(formats=("commander", "planechase"), players=("Ann", "Bob", "Cid", "Dee"), first="Ann"))


def _idle_process(args: list[str], env: dict[str, str], seconds: float, ready: Callable[[int], None]) -> dict[str, float]:
    kiosk = subprocess.Popen([sys.executable, "-m", "display.cli", "kiosk", "--buttons", "fake", *args], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        ready(kiosk.pid)
        time.sleep(14)  # the start message expires after 12 s: from then on nothing is timed
        before = Activity.of(kiosk.pid)
        time.sleep(seconds)
        used = Activity.of(kiosk.pid) - before
        peak = _peak_rss_mb(kiosk.pid)
    finally:
        kiosk.terminate()
        _, err = kiosk.communicate(timeout=30)
    if kiosk.returncode != 0:
        raise RuntimeError(f"the kiosk failed: {err}")
    return {"wakes_per_s": round(used.wakes / seconds, 3), "cpu_percent": round(100 * used.cpu / seconds, 4),
            "peak_rss_mb": peak}


def _peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError(f"no VmHWM for process {pid}")


def idle_x11(directory: Path, xserver: XServer, seconds: float) -> dict[str, float]:
    data = directory / "idle-x11"
    _seed_game(data)
    env = _kiosk_env(data, DISPLAY=xserver.display, SDL_VIDEODRIVER="x11")
    return _idle_process(["--size", "800x480"], env, seconds, lambda pid: xserver.window(pid))


def idle_dummy(directory: Path, seconds: float) -> dict[str, float]:
    data = directory / "idle-dummy"
    _seed_game(data)
    shots = directory / "idle-dummy-shots"

    def first_frame(_: int) -> None:
        while not (shots / "frame-0001.png").exists():
            time.sleep(0.05)

    return _idle_process(["--screenshots", str(shots)], _kiosk_env(data, SDL_VIDEODRIVER="dummy"), seconds, first_frame)


def idle_console(directory: Path, seconds: float) -> dict[str, float]:
    """The loop as on the Pi's console: asleep on its queue, woken by the input devices' thread."""
    from device.commands import NewGame
    from device.controller import Controller
    from device.journal import Journal
    from display.kiosk import Kiosk, WakingQueue
    from display.targets import OffscreenTarget
    from drivers.input_devices import InputDeviceWatcher

    devices = directory / "input"
    devices.mkdir()
    os.mkfifo(devices / "event0")
    keep = os.open(devices / "event0", os.O_RDONLY | os.O_NONBLOCK)
    keyboard = os.open(devices / "event0", os.O_WRONLY)
    queue = WakingQueue()
    watcher = InputDeviceWatcher(queue.wake, devices)
    watcher.start()
    with Journal(directory / "console.sqlite3") as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(formats=("commander", "planechase"), players=("Ann", "Bob"), first="Ann"))
        kiosk = Kiosk(controller, OffscreenTarget((800, 480)), inputs=queue, input_watched=True)
        kiosk.ui.messages_until = None
        kiosk.redraw()
        stop = threading.Event()
        loops = [0]

        def loop() -> None:
            while not stop.is_set():
                kiosk.step()
                loops[0] += 1

        thread = threading.Thread(target=loop)
        thread.start()
        time.sleep(1)
        before = Activity.of()
        time.sleep(seconds)
        used = Activity.of() - before
        turns = loops[0]
        os.write(keyboard, b"\0" * 72)  # a key on the console: the loop must wake
        give_up = time.monotonic() + 5
        while loops[0] == turns and time.monotonic() < give_up:
            time.sleep(0.01)
        woke = loops[0] > turns
        stop.set()
        kiosk.stop()
        thread.join()
        kiosk.target.close()
    watcher.close()
    for fd in (keep, keyboard):
        os.close(fd)
    return {"wakes_per_s": round(used.wakes / seconds, 3), "cpu_percent": round(100 * used.cpu / seconds, 4),
            "a key on an input device woke the loop": woke}


def _complete_png(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            file.seek(-8, os.SEEK_END)
            return file.read(8)[:4] == b"IEND"
    except OSError:
        return False


def cold_start(directory: Path, runs: int) -> list[float]:
    compile_ours()
    times = []
    for run in range(runs):
        shots = directory / f"cold-shots-{run}"
        env = _kiosk_env(directory / f"cold-data-{run}", SDL_VIDEODRIVER="dummy")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        first = shots / "frame-0001.png"
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "display.cli", "kiosk", "--screenshots", str(shots), "--frames", "1", "--buttons",
             "fake"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while not _complete_png(first):
            if process.poll() is not None and not _complete_png(first):
                raise RuntimeError("the kiosk ended without a first frame")
            time.sleep(0.001)
        times.append(time.perf_counter() - start)
        process.wait(30)
    return times


def libraries_alone(runs: int) -> list[float]:
    code = importing(library_modules())
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        python("-c", code)
        times.append(time.perf_counter() - start)
    return times


PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>planar die</title>
<style>body{background:#111;color:#eee;font:32px sans-serif;text-align:center}button{font-size:48px}</style>
</head><body><h1>Tazeem</h1><p>Whenever a land enters, draw a card.</p><button>ROLL</button></body></html>"""


def chromium_first_paint(directory: Path, runs: int) -> dict[str, object]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        return {"peer": "chromium is not installed here; install it to print its figure beside ours"}
    page = directory / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    times = []
    for run in range(runs):
        shot = directory / f"chromium-{run}.png"
        profile = directory / f"chromium-profile-{run}"
        start = time.perf_counter()
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}", "--window-size=800,480",
             f"--screenshot={shot}", page.as_uri()],
            check=True, capture_output=True, timeout=120)
        if not _complete_png(shot):
            raise RuntimeError("chromium wrote no screenshot")
        times.append(time.perf_counter() - start)
    return {"peer": f"{chromium} --headless --screenshot of a small local page: start to the PNG written",
            "median_ms": round(statistics.median(times) * 1000, 1)}


@contextmanager
def maybe_xvfb() -> Iterator[XServer | None]:
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        yield None
        return
    with running_xvfb("1024x768x24") as server:
        yield server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", nargs="?", type=Path, help="where the journals go (default: a temporary directory)")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--idle", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp, maybe_xvfb() as xserver:
        directory = Path(tmp)
        if xserver is not None:
            os.environ.update(DISPLAY=xserver.display, SDL_VIDEODRIVER="x11")
            window = f"X11 window on Xvfb {xserver.display}"
        else:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            window = "SDL's dummy driver (no Xvfb here: install xvfb and xdotool for a real window)"
        flush = [ms / 1000 for ms in flush_times(directory, max(200, args.samples))]
        presses, walked = latencies(directory, args.samples)
        budget = percentile(flush, 0.99) * 1000 + FRAME_60HZ_MS
        idle: dict[str, object] = {}
        if xserver is not None:
            idle["x11"] = idle_x11(directory, xserver, args.idle)
        idle["dummy"] = idle_dummy(directory, args.idle)
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        idle["console"] = idle_console(directory, args.idle)
        cold = cold_start(directory, args.runs)
        floor = libraries_alone(args.runs)
        report = {
            "screen": f"800x480, {window}",
            "flush_ms": _summary(flush),
            "budget_ms": round(budget, 2),
            "press_to_frame_ms": {
                name: {**_summary(v), "within_budget": percentile(v, 0.99) * 1000 <= budget} for name, v in presses.items()
            },
            # a sixth of the rolls or so: too few for a p99, so the slowest
            "ROLL_planeswalked_ms": {"median": round(statistics.median(walked) * 1000, 2) if walked else None,
                                     "slowest": round(max(walked) * 1000, 2) if walked else None,
                                     "samples": len(walked)},
            "idle_seconds": args.idle,
            "idle": idle,
            "cold_start_ms": {"aetherbox kiosk --screenshots (first frame on disk)": round(statistics.median(cold) * 1000, 1),
                              "the libraries' modules alone (start to exit)": round(statistics.median(floor) * 1000, 1),
                              "runs": args.runs, **chromium_first_paint(directory, args.runs)},
        }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
