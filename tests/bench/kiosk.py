"""Kiosk figures.  Run: python tests/bench/kiosk.py [--samples N] [--planeswalks N] [--card-text FILE]
[--presses-only] [--idle SECONDS] [--runs N] [DIR]

Prints JSON; every figure says how it was taken:

- ``press_to_frame_ms``: presses on the table, each from the player's act to
  ``pygame.display.flip()`` having returned for the first frame that shows its result, in a real
  window (X11, on an Xvfb the bench starts; SDL's dummy driver when there is no Xvfb, and it says
  so) at 800×480, through the real loop (``Kiosk.step``) with the journal's COMMIT (fsync) in DIR,
  without card text.  Each press is split where its input event is: the act to the event, the
  event to the frame, and the total.

  - ``ROLL tap``, ``NEXT tap``: the GPIO button as a player taps it — gpiozero's ``MockFactory``
    pin of the default wiring pulled low, held 80 ms, let go — read by the real
    ``drivers.gpio.GpioButtons`` with its own timer thread.  The clock starts at the release.
    ROLL, NEXT and UNDO also have a long press, so a tap is known only once the release has
    held for the debounce window (20 ms): ``release_to_event`` is that wait, to the
    ``ButtonPressed`` put on the input queue.
  - ``ROLL key (Space)``, ``NEXT key (Enter)``: a key pressed through the X server's XTEST
    extension (libXtst, from this process; the window has the keyboard) — or, with no X server or
    no libXtst, its events posted to SDL's queue, which ``how`` then says.  The clock starts as
    the key goes down; ``key_to_event`` runs to the loop reading its KEYDOWN (a key acts as it goes
    down: Shift with it is the long press).  The key is let go 80 ms after it went down.
  - ``life −1 shown``: the encoder's pins turned one detent anticlockwise (four edges 3 ms apart),
    from the last edge (``edge_to_event``: to the ``EncoderTurned`` on the queue) to the first
    frame whose highlighted seat shows −1 pending (nothing is written yet); ``life −1 made``: from
    the end of the pause (``display.screens.life.PAUSE`` after the turn, when the loop wakes for
    it) to the first frame after the change was committed — the wake-up, the COMMIT and the frame.

  Median and p99 over ``--samples`` of each (200 by default).  Each round: NEXT tapped (upkeep →
  main phase), the life change, ROLL tapped, ROLL by its key (a second roll that turn), NEXT by its
  key (the turn passes); the die's tumble after a roll is left to finish (its frames are not
  presses), NEXT answers a phenomenon or a plane's choice (not a sample), and each round waits out
  the pause.  Every sample is checked: the frame came after the input, the journal's newest change
  is the command the press stands for (a roll, a step or a pass, a life change of −1 — and none
  while the change shows), and a refused press fails the benchmark.
- ``flush_ms``: one small INSERT and COMMIT in DIR with the journal's settings (WAL,
  synchronous=FULL): the floor no press can go below.  ``budget_ms`` is fixed: one 60 Hz frame
  (16.7 ms) + the flush's median — a slow disk's p99 does not widen it.  ``within_budget`` judges
  a p99 against it: the total's, and the event-to-frame part's (the loop's own share: a tap's
  total always includes the 20 ms debounce window).
- ``ROLL_planeswalked_ms``: planeswalks, where a frame lays out a new plane.  ``--planeswalks``
  ROLL taps (200 by default) with a loaded die (the game's random source rolls planeswalk every
  time; shuffles stay random), each turn NEXT, ROLL, the tumble, NEXT, over a communal deck of
  planes; every sample checked: the roll is the journal's newest change, another plane is face
  up, and the frame drew its name (and, with text, the start of a line of its text).  Twice, the
  same deck and the same order: ``without text`` and ``with text``, the rules text of every plane
  in the deck imported from ``--card-text FILE`` (a Scryfall or MTGJSON export) through the
  project's own import (``device.cardtext.import_file``, what ``aetherbox catalog import`` runs)
  into a data directory in DIR; the deck is then every plane the file has text for.  No rules text
  ships with the gadget (only names and types): without a file, the bench writes an export that
  gives every plane and phenomenon a text of its own (``tests/planetext.py``, 180–320
  characters with card symbols, as planar cards read) and imports that.  Median, p99 and the
  slowest of each.  Beside them, the ROLLs of the press series
  above that turned over another plane (a sixth or so: median and slowest).
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

``--presses-only`` leaves out ``idle`` and ``cold_start_ms``.
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
sys.path[:0] = [
    str(ROOT),
    str(ROOT / "tests" / "display"),
    str(ROOT / "tests"),
]  # this checkout; the X server helper
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from activity import Activity
from figures import flush_times, percentile
from imports import compile_ours, importing, library_modules, python
from xserver import XServer, running_xvfb

from display.kiosk.waking import WakingQueue

FRAME_60HZ_MS = 1000 / 60
HOLD = 0.08  # a player's tap: the button held 80 ms, then let go
EDGE = 0.003  # a hand turning the encoder: its four edges 3 ms apart
#: The presses of the mixed series, each ``--samples`` times.
PRESSES = ("ROLL tap", "NEXT tap", "ROLL key", "NEXT key", "life −1 shown", "life −1 made")


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "median": _ms(statistics.median(values)),
        "p99": _ms(percentile(values, 0.99)),
        "samples": len(values),
    }


@dataclass(frozen=True)
class Sample:
    """One press, in seconds: ``wait`` from the player's act (a tap's release, a key going down,
    the encoder's last edge) to its input event — the ``ButtonPressed`` on the input queue, the
    ``KEYDOWN`` read by the loop — and ``frame`` from that event to the flipped frame; ``wait`` is
    None where the act has no event of its own (the end of the life change's pause)."""

    wait: float | None
    frame: float

    @property
    def total(self) -> float:
        return (self.wait or 0.0) + self.frame


def _split(samples: list[Sample], budget_ms: float, wait: str) -> dict[str, object]:
    """A press's figures: ``wait`` (its act to its input event: the debounce and the long-press
    decision for a tap), then the event to the frame, then the total; the total's p99 and the
    frame's part's are each judged against the budget."""
    total = _summary([s.total for s in samples])
    figures: dict[str, object] = {}
    if wait and all(s.wait is not None for s in samples):
        frame = _summary([s.frame for s in samples])
        figures[wait] = _summary([s.wait or 0.0 for s in samples])
        figures["event_to_frame"] = {**frame, "within_budget": frame["p99"] <= budget_ms}
    figures["total"] = {**total, "within_budget": total["p99"] <= budget_ms}
    return figures


@dataclass(frozen=True)
class Frame:
    """A presented frame: when it was flipped (``perf_counter``, and the kiosk's clock,
    ``time.monotonic``), how many inputs were handled by then, the journal's newest change, the
    life change the table showed pending (its amount and when it is due), if any, the face-up
    planes and the texts it drew (``Canvas.drawn``, card symbols in their notation)."""

    when: float
    monotonic: float
    handled: int
    pos: int
    command: dict[str, object]
    pending: tuple[int, float] | None
    planes: tuple[str, ...]
    texts: tuple[str, ...]


class StampedQueue(WakingQueue):
    """The kiosk's input queue, noting when each input was put on it (on the putting thread: the
    GPIO driver's timer thread for a tap, gpiozero's edge callback for the encoder)."""

    def __init__(self) -> None:
        super().__init__()
        self.stamps: list[float] = []

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        self.stamps.append(time.perf_counter())
        super().put(item, block, timeout)


class Probe:
    """Stamps each presented frame and each input (read on the loop's thread, which owns the
    journal): an input put on the queue when it is put, a key when the loop reads its KEYDOWN."""

    def __init__(self, kiosk: object, queue: StampedQueue) -> None:
        import pygame

        from display.kiosk import Kiosk

        assert isinstance(kiosk, Kiosk)
        self.kiosk = kiosk
        self.queue = queue
        self.handled = 0
        self.keys: list[float] = []
        self.frames: list[Frame] = []
        self.awaiting = False
        self.cond = threading.Condition()
        handle, handle_pygame = kiosk.handle_input, kiosk.handle_pygame

        def counted(event: object) -> None:
            handle(event)  # type: ignore[arg-type]
            with self.cond:
                self.handled += 1

        def keyed(event: Any) -> None:
            if event.type != pygame.KEYDOWN:
                handle_pygame(event)
                return
            read = time.perf_counter()
            handle_pygame(event)
            with self.cond:
                self.keys.append(read)
                self.handled += 1

        kiosk.handle_input = counted  # type: ignore[method-assign]
        kiosk.handle_pygame = keyed  # type: ignore[method-assign]
        kiosk.on_present = self.presented

    def presented(self, when: float) -> None:
        from display.screens.life import PendingLife

        last = self.kiosk.controller.last_change()
        state = self.kiosk.state
        change = self.kiosk.ui.kept(PendingLife)
        texts: list[str] = []
        last_of: dict[str, int] = {}
        for drawn in self.kiosk.canvas.drawn:  # a wrapped text's lines put back together
            if drawn.joiner is not None and drawn.role in last_of:
                texts[last_of[drawn.role]] += drawn.joiner + drawn.written
            else:
                last_of[drawn.role] = len(texts)
                texts.append(drawn.written)
        with self.cond:
            self.frames.append(
                Frame(
                    when,
                    time.monotonic(),
                    self.handled,
                    0 if last is None else last.pos,
                    {} if last is None else last.command,
                    None if change is None else (change.amount, change.due),
                    tuple(_planes(self.kiosk)),
                    tuple(texts),
                )
            )
            planechase = state.planechase if state is not None else None
            self.awaiting = bool(
                planechase and (planechase.encounter or planechase.choice or planechase.awaiting)
            )
            self.cond.notify_all()

    def act(self, act: Callable[[], float], key: bool = False) -> tuple[Sample, Frame]:
        """Do ``act`` as a player does (it returns when the act was complete: ``perf_counter``
        at a tap's release, a key going down, a turn's last edge); the sample up to the first
        frame flipped after its input was handled, and that frame."""
        stamps = self.keys if key else self.queue.stamps
        with self.cond:
            wanted = self.handled + 1
            seen = len(stamps)
        at = act()
        with self.cond:
            while True:
                shown = [f for f in self.frames if f.handled >= wanted and f.when >= at]
                if shown and len(stamps) > seen:
                    event = stamps[seen]
                    if event < at:
                        raise RuntimeError(
                            f"an input came {at - event:.4f} s before its act was complete"
                        )
                    return Sample(event - at, shown[0].when - event), shown[0]
                if not self.cond.wait(timeout=10):
                    raise RuntimeError("no frame showed the press within 10 s")

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


class Hands:
    """The gadget's buttons and encoder as the GPIO driver reads them — the real
    ``drivers.gpio.GpioButtons`` with its own timer thread and ``time.monotonic``, on gpiozero's
    ``MockFactory`` pins in the default wiring — and a player's hands on them."""

    def __init__(self, queue: StampedQueue) -> None:
        from gpiozero.pins.mock import MockFactory

        from drivers.gpio import GpioButtons, GpioConfig, pin_bcm

        self.config = GpioConfig()
        self.factory = MockFactory()
        self.buttons = GpioButtons(self.config, queue, pin_factory=self.factory)
        self.buttons.start()
        self._bcm = pin_bcm

    def pin(self, name: str) -> Any:
        return self.factory.pin(self._bcm(getattr(self.config, name)))

    def tap(self, button: str) -> Callable[[], float]:
        """Press, hold ``HOLD`` and let go (the switch pulls the pin low while pressed); the act
        is complete at the release."""

        def act() -> float:
            pin = self.pin(button)
            pin.drive_low()
            time.sleep(HOLD)
            at = time.perf_counter()
            pin.drive_high()
            return at

        return act

    def turn_down(self) -> float:
        """One detent anticlockwise (−1): B then A fall, B then A rise, ``EDGE`` apart; the
        detent is complete at the last edge."""
        a, b = self.pin("encoder_a"), self.pin("encoder_b")
        for pin, low in ((b, True), (a, True), (b, False)):
            pin.drive_low() if low else pin.drive_high()
            time.sleep(EDGE)
        at = time.perf_counter()
        a.drive_high()
        return at

    def close(self) -> None:
        self.buttons.close()
        self.factory.close()


class XKeys:
    """Keys pressed through the X server's XTEST extension (libXtst, what xdotool uses), from
    this process: the path a USB keyboard's presses take to the kiosk's window."""

    injected = "a real key press through X (XTEST) on the Xvfb the bench starts"

    def __init__(self, display: str) -> None:
        import ctypes
        import ctypes.util

        self._x11 = x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        self._xtst = xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XStringToKeysym.restype = ctypes.c_ulong
        x11.XStringToKeysym.argtypes = [ctypes.c_char_p]
        x11.XKeysymToKeycode.restype = ctypes.c_ubyte
        x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x11.XFlush.argtypes = [ctypes.c_void_p]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        xtst.XTestFakeKeyEvent.argtypes = [
            ctypes.c_void_p,
            ctypes.c_uint,
            ctypes.c_int,
            ctypes.c_ulong,
        ]
        self._display = x11.XOpenDisplay(display.encode())
        if not self._display:
            raise RuntimeError(f"cannot open the X display {display}")

    def _send(self, key: str, down: bool) -> float:
        code = self._x11.XKeysymToKeycode(self._display, self._x11.XStringToKeysym(key.encode()))
        at = time.perf_counter()
        self._xtst.XTestFakeKeyEvent(self._display, code, 1 if down else 0, 0)
        self._x11.XFlush(self._display)
        return at

    def down(self, key: str) -> float:
        return self._send(key, True)

    def up(self, key: str) -> None:
        self._send(key, False)

    def close(self) -> None:
        self._x11.XCloseDisplay(self._display)


class SdlKeys:
    """Where there is no X server: the key's events posted to SDL's queue (pygame's thread-safe
    ``event.post``) — not a key press through a window system, and labelled so."""

    injected = "SDL events posted to the loop's queue (no X server here: not a real key press)"

    def _post(self, key: str, kind: int) -> float:
        import pygame

        code = {"space": pygame.K_SPACE, "Return": pygame.K_RETURN}[key]
        at = time.perf_counter()
        pygame.event.post(pygame.event.Event(kind, key=code, mod=0, scancode=0, unicode=""))
        return at

    def down(self, key: str) -> float:
        import pygame

        return self._post(key, pygame.KEYDOWN)

    def up(self, key: str) -> None:
        import pygame

        self._post(key, pygame.KEYUP)

    def close(self) -> None:
        pass


def life_change(probe: Probe, hands: Hands, results: dict[str, list[Sample]]) -> None:
    """−1 on the encoder: shown pending at once with nothing written, then made after the pause
    (the kiosk's clock is ``time.monotonic``, and the frames are stamped with it too)."""
    before = probe.newest()
    sample, frame = probe.act(hands.turn_down)
    if frame.pos != before or frame.pending is None or frame.pending[0] != -1:
        raise RuntimeError(
            f"the encoder's −1 was not shown pending: change {frame.pos} after {before}, "
            f"{frame.pending} ({probe.kiosk.ui.error})"
        )
    results["life −1 shown"].append(sample)
    took, frame = probe.made(before, frame.pending[1])
    if (
        frame.pos != before + 1
        or frame.command.get("type") != "ChangeLife"
        or frame.command.get("delta") != -1
    ):
        raise RuntimeError(
            f"the pause made {frame.command}, not a life change of −1 ({probe.kiosk.ui.error})"
        )
    results["life −1 made"].append(Sample(None, took))


def _planes(kiosk: Any) -> list[str]:
    """The planes face up on the kiosk's table."""
    planechase = kiosk.state.planechase if kiosk.state is not None else None
    return [card.name for card in planechase.face_up] if planechase is not None else []


def _shows(frame: Frame, plane: str, text: str | None) -> bool:
    """The frame drew the plane's name and, given its rules text, one of its lines — the table's
    strip shows the chaos ability, perhaps cut short, the Planechase screen the whole text: at least
    its first 12 characters, as far as it was drawn, up to 40."""
    if not any(plane in drawn for drawn in frame.texts):
        return False
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    if not lines:
        return True
    for drawn in frame.texts:
        for shown in drawn.removesuffix("…").split("\n"):  # a paragraph a line of the text
            n = min(len(shown), 40)
            if n >= 12 and any(line[:n] == shown[:n] for line in lines):
                return True
    return False


def _rolled(command: dict[str, object]) -> bool:
    return command["type"] == "RollPlanarDie"


def _step_or_pass(command: dict[str, object]) -> bool:
    return command["type"] in ("Advance", "PassTurn")


class Table:
    """A game in a real window, driven through the real loop by a player's hands and keys."""

    def __init__(self, journal: Any, controller: Any, keys: XKeys | SdlKeys) -> None:
        from display.kiosk import Kiosk
        from display.targets import WindowTarget

        self.journal = journal
        self.queue = StampedQueue()
        self.kiosk = Kiosk(controller, WindowTarget((800, 480)), inputs=self.queue)
        self.probe = Probe(self.kiosk, self.queue)
        self.hands = Hands(self.queue)
        self.keys = keys

    def press(
        self,
        act: Callable[[], float],
        expect: Callable[[dict[str, object]], bool],
        what: str,
        key: bool = False,
    ) -> tuple[Sample, Frame]:
        """One press, checked: the journal's newest change is the command it stands for."""
        before = self.probe.newest()
        sample, frame = self.probe.act(act, key)
        if frame.pos != before + 1 or not expect(frame.command):
            raise RuntimeError(
                f"{what} did not do what it stands for: change {frame.pos} after {before}: "
                f"{frame.command} ({self.kiosk.ui.error})"
            )
        return sample, frame

    def key(
        self, name: str, expect: Callable[[dict[str, object]], bool], what: str
    ) -> tuple[Sample, Frame]:
        """A key pressed, held until ``HOLD`` after it went down (or its frame), and let go."""
        sample, frame = self.press(lambda: self.keys.down(name), expect, what, key=True)
        time.sleep(max(0.0, HOLD - sample.total))
        self.keys.up(name)
        return sample, frame

    def tumble(self) -> None:
        """The die's tumble ends (its frames are not presses), and NEXT answers a phenomenon or a
        plane's choice (not a sample either)."""
        from display.screens.planechase import TUMBLE

        time.sleep(TUMBLE + 0.05)
        for _ in range(5):
            if not self.probe.awaiting:
                return
            self.probe.act(self.hands.tap("next"))
        raise RuntimeError(f"the game still waits after five NEXTs: {self.kiosk.state}")

    def run(self, drive: Callable[[], None]) -> None:
        """The real loop on this thread, one pass at a time so the bench can stop it, while
        ``drive`` plays on another."""
        errors: list[BaseException] = []

        def driving() -> None:
            try:
                time.sleep(0.3)
                drive()
            except BaseException as error:  # noqa: BLE001 - reported by the main thread
                errors.append(error)
            finally:
                self.queue.wake()  # the loop below sees the drive has ended

        thread = threading.Thread(target=driving, daemon=True)
        thread.start()
        self.kiosk.redraw()
        while thread.is_alive():
            self.kiosk.step()
        self.hands.close()
        self.kiosk.target.close()
        self.journal.close()
        if errors:
            raise errors[0]


def _focus(keys: XKeys | SdlKeys, xserver: XServer | None) -> None:
    """Give the kiosk's window (this process's) the keyboard, when keys go through X."""
    if isinstance(keys, XKeys) and xserver is not None:
        xserver.window(os.getpid())


def latencies(
    directory: Path, samples: int, keys: XKeys | SdlKeys, xserver: XServer | None
) -> tuple[dict[str, list[Sample]], list[Sample]]:
    """Presses through the real loop into a real window, without card text; each checked (see
    the module's doc).  Returns the samples by press, and the ROLLs' that planeswalked."""
    from device.commands import NewGame
    from device.controller import Controller
    from device.journal import Journal
    from display import cardtext

    cardtext.configure(None)
    journal = Journal(directory / "kiosk-bench.sqlite3", defer_backups=True)
    controller = Controller(journal, rng=random.Random(1))
    controller.execute(
        NewGame(
            formats=("commander", "planechase"),
            players=("Ann", "Bob", "Cid", "Dee"),
            first="Ann",
            starting_life=9999,
        )
    )  # 200 life changes and nobody is out
    table = Table(journal, controller, keys)
    results: dict[str, list[Sample]] = {name: [] for name in PRESSES}
    planeswalked: list[Sample] = []  # ROLL's samples whose roll turned over another plane

    def roll(name: str, act: Callable[[], tuple[Sample, Frame]]) -> None:
        shown = _planes(table.kiosk)
        sample, frame = act()
        results[name].append(sample)
        if frame.planes != tuple(shown):
            planeswalked.append(sample)
        table.tumble()

    def drive() -> None:
        _focus(keys, xserver)
        while min(len(v) for v in results.values()) < samples:
            sample, _ = table.press(
                table.hands.tap("next"), _step_or_pass, "NEXT"
            )  # upkeep → main phase
            results["NEXT tap"].append(sample)
            life_change(table.probe, table.hands, results)
            roll("ROLL tap", lambda: table.press(table.hands.tap("roll"), _rolled, "ROLL"))
            roll(
                "ROLL key", lambda: table.key("space", _rolled, "Space")
            )  # a second roll this turn
            sample, _ = table.key("Return", _step_or_pass, "Enter")  # pass the turn
            results["NEXT key"].append(sample)

    table.run(drive)
    return results, planeswalked


class LoadedDie(random.Random):
    """A random source whose planar die always comes up planeswalk (the rules roll it with
    ``randrange(6)``); everything else — shuffles, choices — is as random as ``random.Random``."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        if start == 6 and stop is None:
            return 5
        return super().randrange(start, stop, step)


def card_text(directory: Path, source: Path) -> tuple[Path, list[str]]:
    """Import ``source`` (a Scryfall or MTGJSON export) with the project's own import, as
    ``aetherbox catalog import`` does, into a data directory; returns it and the planes whose
    rules text it holds."""
    from device.cardtext import import_file
    from device.catalog import CardKind, load_catalog

    data = directory / "card-data"
    report = import_file(source, data)
    planes = [
        card.name
        for card in load_catalog()
        if card.kind is CardKind.PLANE and card.name in report.cards
    ]
    return data, planes


def written_card_data(directory: Path) -> Path:
    """A Scryfall-shaped export giving every plane and phenomenon its own rules text
    (``tests/planetext.py``), for the planeswalks with text when no export is given."""
    from planetext import rules_text

    from device.catalog import CardKind, load_catalog

    cards = []
    for card in load_catalog():
        if card.is_planar:
            phenomenon = card.kind is CardKind.PHENOMENON
            kind = "Phenomenon" if phenomenon else f"Plane — {card.planar_type}"
            cards.append(
                {
                    "object": "card",
                    "lang": "en",
                    "name": card.name,
                    "type_line": kind,
                    "oracle_text": rules_text(card.name, phenomenon),
                }
            )
    path = directory / "written-card-data.json"
    path.write_text(json.dumps(cards), encoding="utf-8")
    return path


def planeswalks(
    directory: Path,
    count: int,
    planes: list[str],
    text: Path | None,
    keys: XKeys | SdlKeys,
    xserver: XServer | None,
) -> list[Sample]:
    """``count`` ROLL taps with a loaded die, each a planeswalk, through the real loop: a communal
    planar deck of ``planes``, with their rules text from the data directory ``text`` (None: no
    card text).  Each is checked: the roll is the journal's newest change, another plane is face
    up, and the frame drew its name and, with text, its text."""
    from device.commands import NewGame
    from device.controller import Controller
    from device.journal import Journal
    from device.rules.planechase.commands import SetPlanarDeck
    from display import cardtext

    cardtext.configure(text)
    name = "with-text" if text is not None else "without-text"
    journal = Journal(directory / f"planeswalks-{name}.sqlite3", defer_backups=True)
    controller = Controller(journal, rng=LoadedDie(1))
    controller.execute(
        NewGame(
            formats=("commander", "planechase"),
            players=("Ann", "Bob", "Cid", "Dee"),
            first="Ann",
            options={"communal_deck": "on"},
        )
    )
    controller.execute(SetPlanarDeck(owner=None, names=tuple(planes)))
    table = Table(journal, controller, keys)
    walked: list[Sample] = []

    def drive() -> None:
        while len(walked) < count:
            table.press(table.hands.tap("next"), _step_or_pass, "NEXT")  # upkeep → main phase
            before = _planes(table.kiosk)
            sample, frame = table.press(table.hands.tap("roll"), _rolled, "ROLL")
            arrived = [p for p in frame.planes if p not in before]
            if not arrived:
                raise RuntimeError(f"the loaded die's roll did not planeswalk: {frame.command}")
            plane = arrived[0]
            if not _shows(frame, plane, cardtext.rules_text(plane) if text is not None else None):
                raise RuntimeError(
                    f"the frame after the planeswalk to {plane} did not show it "
                    f"{'with its text' if text is not None else ''}: {frame.texts}"
                )
            walked.append(sample)
            table.tumble()
            table.press(table.hands.tap("next"), _step_or_pass, "NEXT")  # pass the turn

    table.run(drive)
    cardtext.configure(None)
    return walked


def _kiosk_env(data: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env.update(
        AETHERBOX_DATA_DIR=str(data),
        AETHERBOX_CONFIG=os.devnull,
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        **extra,
    )
    return env


def _seed_game(data: Path) -> None:
    from device.commands import NewGame
    from device.controller import Controller
    from device.journal import Journal, default_path

    with Journal(default_path(data)) as journal:
        Controller(journal, rng=random.Random(1)).execute(
            NewGame(
                formats=("commander", "planechase"),
                players=("Ann", "Bob", "Cid", "Dee"),
                first="Ann",
            )
        )


def _idle_process(
    args: list[str], env: dict[str, str], seconds: float, ready: Callable[[int], None]
) -> dict[str, float]:
    kiosk = subprocess.Popen(
        [sys.executable, "-m", "display.cli", "kiosk", "--buttons", "fake", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
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
    return {
        "wakes_per_s": round(used.wakes / seconds, 3),
        "cpu_percent": round(100 * used.cpu / seconds, 4),
        "peak_rss_mb": peak,
    }


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

    return _idle_process(
        ["--screenshots", str(shots)],
        _kiosk_env(data, SDL_VIDEODRIVER="dummy"),
        seconds,
        first_frame,
    )


def idle_console(directory: Path, seconds: float) -> dict[str, float]:
    """The loop as on the Pi's console: asleep on its queue, woken by the input devices' thread."""
    from device.commands import NewGame
    from device.controller import Controller
    from device.journal import Journal
    from display.kiosk import Kiosk
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
        controller.execute(
            NewGame(formats=("commander", "planechase"), players=("Ann", "Bob"), first="Ann")
        )
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
    return {
        "wakes_per_s": round(used.wakes / seconds, 3),
        "cpu_percent": round(100 * used.cpu / seconds, 4),
        "a key on an input device woke the loop": woke,
    }


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
            [
                sys.executable,
                "-m",
                "display.cli",
                "kiosk",
                "--screenshots",
                str(shots),
                "--frames",
                "1",
                "--buttons",
                "fake",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
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
    chromium = (
        shutil.which("chromium")
        or shutil.which("chromium-browser")
        or shutil.which("google-chrome")
    )
    if chromium is None:
        return {
            "peer": "chromium is not installed here; install it to print its figure beside ours"
        }
    page = directory / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    times = []
    for run in range(runs):
        shot = directory / f"chromium-{run}.png"
        profile = directory / f"chromium-profile-{run}"
        start = time.perf_counter()
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--window-size=800,480",
                f"--screenshot={shot}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        if not _complete_png(shot):
            raise RuntimeError("chromium wrote no screenshot")
        times.append(time.perf_counter() - start)
    return {
        "peer": f"{chromium} --headless --screenshot of a small local page: start to the PNG written",
        "median_ms": round(statistics.median(times) * 1000, 1),
    }


@contextmanager
def maybe_xvfb() -> Iterator[XServer | None]:
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        yield None
        return
    with running_xvfb("1024x768x24") as server:
        yield server


def _walks(samples: list[Sample], budget_ms: float) -> dict[str, object]:
    figures = _split(samples, budget_ms, "release_to_event")
    total = figures["total"]
    assert isinstance(total, dict)
    total["slowest"] = _ms(max(s.total for s in samples))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "dir", nargs="?", type=Path, help="where the journals go (default: a temporary directory)"
    )
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument(
        "--planeswalks", type=int, default=200, help="ROLLs in each planeswalk series"
    )
    parser.add_argument(
        "--card-text",
        type=Path,
        metavar="FILE",
        help="a card-data file (Scryfall or MTGJSON export) to import for the planeswalks with text "
        "(default: every planar card's text from tests/planetext.py)",
    )
    parser.add_argument(
        "--presses-only",
        action="store_true",
        help="the press figures alone: no idle, no cold start",
    )
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
        keys: XKeys | SdlKeys = SdlKeys()
        if xserver is not None:
            try:
                keys = XKeys(xserver.display)
            except OSError:  # no libXtst: the keys are posted to SDL instead, and it says so
                pass
        flush = [ms / 1000 for ms in flush_times(directory, max(200, args.samples))]
        budget = statistics.median(flush) * 1000 + FRAME_60HZ_MS
        presses, walked = latencies(directory, args.samples, keys, xserver)
        source = args.card_text or written_card_data(directory)
        text, planes = card_text(directory, source)
        whence = (
            "the card-data file"
            if args.card_text
            else "tests/planetext.py (no card data ships with the gadget)"
        )
        series: dict[str, object] = {
            "how": f"{args.planeswalks} ROLL taps with a loaded die (every roll planeswalks) over a communal deck of "
            f"{len(planes)} planes, every one with its rules text from {whence}",
        }
        if args.planeswalks:
            series["without text"] = _walks(
                planeswalks(directory, args.planeswalks, planes, None, keys, xserver), budget
            )
            series["with text"] = _walks(
                planeswalks(directory, args.planeswalks, planes, text, keys, xserver), budget
            )
        keys.close()
        series["in the mixed series (ROLL taps and keys, no text)"] = {
            "median": _ms(statistics.median(s.total for s in walked)) if walked else None,
            "slowest": _ms(max(s.total for s in walked)) if walked else None,
            "samples": len(walked),
        }
        report: dict[str, object] = {
            "screen": f"800x480, {window}",
            "flush_ms": _summary(flush),
            "budget_ms": round(budget, 2),
            "press_to_frame_ms": {
                "how": {
                    "tap": f"a GPIO button pressed, held {HOLD * 1000:.0f} ms and let go, from the release",
                    "key": f"{keys.injected}, from the key going down",
                    "life": "the encoder's −1 from the detent's last edge; made: from the end of the pause",
                },
                "ROLL tap": _split(presses["ROLL tap"], budget, "release_to_event"),
                "NEXT tap": _split(presses["NEXT tap"], budget, "release_to_event"),
                "ROLL key (Space)": _split(presses["ROLL key"], budget, "key_to_event"),
                "NEXT key (Enter)": _split(presses["NEXT key"], budget, "key_to_event"),
                "life −1 shown": _split(presses["life −1 shown"], budget, "edge_to_event"),
                "life −1 made": _split(presses["life −1 made"], budget, ""),
            },
            "ROLL_planeswalked_ms": series,
        }
        if not args.presses_only:
            idle: dict[str, object] = {}
            if xserver is not None:
                idle["x11"] = idle_x11(directory, xserver, args.idle)
            idle["dummy"] = idle_dummy(directory, args.idle)
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            idle["console"] = idle_console(directory, args.idle)
            cold = cold_start(directory, args.runs)
            floor = libraries_alone(args.runs)
            report.update(
                {
                    "idle_seconds": args.idle,
                    "idle": idle,
                    "cold_start_ms": {
                        "aetherbox kiosk --screenshots (first frame on disk)": round(
                            statistics.median(cold) * 1000, 1
                        ),
                        "the libraries' modules alone (start to exit)": round(
                            statistics.median(floor) * 1000, 1
                        ),
                        "runs": args.runs,
                        **chromium_first_paint(directory, args.runs),
                    },
                }
            )
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        sys.exit(main())
