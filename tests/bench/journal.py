"""Journal figures: resume time, append latency and the disk's flush latency, as JSON.

    python tests/bench/journal.py [DIR] [--sizes 100,1000,10000,100000] [--samples 300]

DIR is where the journals are written (default: a temporary directory); give a folder on the SD
card to measure the card, since a RAM-backed /tmp makes fsync nearly free.

- **resume**: what start-up does before READY, with the calls the app makes (``aetherbox console``
  and the kiosk, see ``device/console/session.py`` and ``display/app.py``), in this process:
  ``device.recovery.open_journal(path, defer_backups=True)`` (identity, write-ahead log, the
  resuming game's snapshot and the events after it, the comparison with the backup) then
  ``Controller(journal)`` and the game's row for the "Resumed game" line.  Each sample checks the
  resumed state equals the state when the game was closed.  Then, untimed in that figure: the
  check of the whole journal that runs after READY, until its verdict is acted on
  (``check_after_ready_ms``); each sample checks it found nothing.  The file is in the page
  cache, as it is on a running Pi after the first start; a cold start adds the card's reads.
- **append**: one command's whole path as a button press takes it — ``Controller.execute``
  (decide, INSERTs, COMMIT with fsync, fold) on a journal opened as the app opens it, presses
  back to back; ``Controller.idle()`` runs between samples, untimed, as the kiosk runs it before
  it sleeps (the check's verdict, the deferred backup).  Each sample checks the game's head moved
  by one and the command's events are in the journal.  The top-level figures are the presses
  after the check's verdict is in; ``while_checking`` the presses made while the check after
  READY still runs (each sample counted where it began), at least ``--samples`` of them: when a
  check ends before that many, the journal is closed and opened again for another check, up to
  50 times (``checks``; a game of 100 events is checked in milliseconds, and few presses land in
  them).  After each check as many presses are timed as during it, so that both sets come from
  the same minutes of a machine whose other work comes and goes.  ``p99_to_after_p99`` is the while-checking p99 over the after-check one; ``check_s``
  the median time from opening to the check's verdict while pressing, ``gave_way`` how often the
  check waited for a press and ``overran`` how often it stopped waiting (``device.journal.Gate``).
  The first press after each opening is in neither: it pays for the connection's first write,
  check or not (``first_press_ms``, median).
- **flush**: the floor a press cannot beat — one small row INSERTed and COMMITted with fsync
  (WAL, ``synchronous=FULL``) in the same directory.

Fixtures: a game of N events is played through ``Controller.execute`` with ``synchronous=OFF``
and no backups while it is built (speed only), then backed up once and closed.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from figures import flush_times, percentile

from device.commands import ChangeLife, Command, NewGame, PassTurn
from device.controller import Controller
from device.journal import Journal
from device.recovery import open_journal
from device.state import GameState


def command(i: int) -> Command:
    """The ``i``th press: a turn passed, or a life changed by one, up and down in turn, so that no
    player loses however many presses a run takes (on a RAM disk, tens of thousands)."""
    return (
        PassTurn()
        if i % 4 == 0
        else ChangeLife(seat=i % 4, delta=-1 if (i // 4) % 2 else 1, source=(i + 1) % 4)
    )


def build_game(path: Path, events: int) -> tuple[int, GameState]:
    """A four-player game of at least ``events`` events in a new journal at ``path``; how many
    events it has and its state."""
    journal = Journal(path, backup_every=0)
    try:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("A", "B", "C", "D"), starting_life=9999, first="A"))
        journal._db.execute(
            "PRAGMA synchronous=OFF"
        )  # building the fixture only; measured opens use FULL
        written, i = 1, 0
        while written < events:
            written += len(controller.execute(command(i)).events)
            i += 1
        journal._db.execute("PRAGMA synchronous=FULL")
        assert journal.backup() is not None  # the backup a real session leaves beside it
        assert controller.state is not None
        return written, controller.state
    finally:
        journal.close()


def _figures(values: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(values), 3),
        "p99_ms": round(percentile(values, 0.99), 3),
        "max_ms": round(max(values), 3),
    }


def resume(path: Path, expected: GameState, runs: int) -> dict[str, object]:
    opened: list[float] = []
    checked: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        journal, recovery = open_journal(path, defer_backups=True)
        controller = Controller(journal)
        assert controller.game is not None
        journal.game(controller.game)  # the "Resumed game" line
        ready = time.perf_counter()
        opened.append((ready - start) * 1000)
        assert recovery is None and controller.state == expected, (
            "the resumed game is not the one closed"
        )
        assert controller.idle(wait=True) is None, "the check after READY found damage"
        checked.append((time.perf_counter() - ready) * 1000)
        assert controller.journal is journal and journal.check is None
        journal.close()
    return {"runs": runs, "resume": _figures(opened), "check_after_ready": _figures(checked)}


def append(path: Path, samples: int, rounds: int = 50) -> dict[str, object]:
    """Presses back to back on the journal at ``path``, opened as the app opens it: at least
    ``samples`` of them while the check after READY runs (opening it again, for a new check, when
    one ends before that many, up to ``rounds`` times) and as many after each check's verdict as
    were made during that check, and ``samples`` in all: the two sets come from the same minutes
    of a machine whose other work comes and goes."""
    checking: list[float] = []
    timings: list[float] = []
    first: list[float] = []
    checks: list[float] = []
    gave_way = overran = 0
    i = 0
    for n in range(rounds):
        opened = time.perf_counter()
        journal, _ = open_journal(path, defer_backups=True)
        try:
            controller = Controller(journal, rng=random.Random(2))
            check = journal.check
            assert controller.game is not None and check is not None
            ended: list[float] = []
            check.when_done(lambda stamps=ended: stamps.append(time.perf_counter()))
            first.append(_press(controller, i))  # the connection's first write, check or not
            controller.idle()
            i += 1
            made_during = made_after = 0  # this round's presses
            while True:
                running = not check.finished()
                last = len(checking) >= samples or n == rounds - 1  # no other check to open
                if (
                    not running
                    and made_after >= made_during
                    and (not last or len(timings) >= samples)
                ):
                    break
                took = _press(controller, i)
                (checking if running else timings).append(took)
                made_during, made_after = (
                    (made_during + 1, made_after) if running else (made_during, made_after + 1)
                )
                controller.idle()
                i += 1
            check.wait()
            checks.append(ended[0] - opened)
            gave_way, overran = gave_way + check.gate.gave_way, overran + check.gate.overran
            controller.idle()
            assert controller.journal is journal and journal.check is None, "the check found damage"
        finally:
            journal.close()
        if len(checking) >= samples and len(timings) >= samples:
            break
    after = _figures(timings)
    during = _figures(checking) if checking else {}
    return {
        "samples": len(timings),
        **after,
        "while_checking": {
            "samples": len(checking),
            **during,
            **(
                {"p99_to_after_p99": round(during["p99_ms"] / after["p99_ms"], 2)} if during else {}
            ),
            "checks": len(checks),
            "check_s": round(statistics.median(checks), 2),
            "gave_way": gave_way,
            "overran": overran,
        },
        "first_press_ms": round(statistics.median(first), 3),
    }


def _press(controller: Controller, i: int) -> float:
    """One press's milliseconds, ``Controller.execute`` alone, checked to have been kept."""
    journal, game = controller.journal, controller.game
    assert game is not None
    head = journal.game(game).head
    start = time.perf_counter()
    result = controller.execute(command(i))
    took = (time.perf_counter() - start) * 1000
    assert journal.game(game).head == head + 1 and result.events, "the press was not kept"
    # only the new change's rows: reading the whole game here would evict the caches the next
    # sample's press would have warm on a real table
    assert journal.events_at(game, head + 1) == result.events
    return took


def flush(folder: Path, samples: int) -> dict[str, object]:
    return {"samples": samples, **_figures(flush_times(folder, samples))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "dir",
        nargs="?",
        type=Path,
        help="where to write the journals (default: a temporary folder)",
    )
    parser.add_argument(
        "--sizes", default="100,1000,10000,100000", help="game lengths in events, for resume"
    )
    parser.add_argument(
        "--append-sizes", default="100,10000,100000", help="game lengths in events, for append"
    )
    parser.add_argument(
        "--samples", type=int, default=300, help="appends per size (at least 200 for a p99)"
    )
    parser.add_argument("--runs", type=int, default=21, help="resumes per size")
    args = parser.parse_args(argv)
    sizes = sorted(
        {int(n) for n in args.sizes.split(",")} | {int(n) for n in args.append_sizes.split(",")}
    )
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        root = Path(folder)
        resumed, appended = [], []
        for size in sizes:
            path = root / f"game-{size}" / "aetherbox.sqlite3"
            built_at = time.perf_counter()
            events, state = build_game(path, size)
            built = time.perf_counter() - built_at
            if str(size) in args.sizes.split(","):
                resumed.append(
                    {
                        "events": events,
                        "file_mb": round(path.stat().st_size / 1e6, 2),
                        "built_s": round(built, 1),
                        **resume(path, state, args.runs),
                    }
                )
            if str(size) in args.append_sizes.split(","):
                appended.append({"events": events, **append(path, args.samples)})
        report = {
            "resume (open_journal + Controller, in process, warm page cache)": resumed,
            "append (Controller.execute, fsync on, after the check)": appended,
            "flush (one small fsync'd COMMIT)": flush(root, args.samples),
            "python": sys.version.split()[0],
            "sqlite": sqlite3.sqlite_version,
            "directory": str(root.parent),
        }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        sys.exit(main())
