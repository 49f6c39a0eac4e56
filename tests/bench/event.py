"""An event across tables at scale, as JSON: 32 simulated tables reporting to one mosquitto on
this machine, and how long a table's change takes to reach the standings elsewhere.

    python tests/bench/event.py [DIR] [--tables 32] [--events 3] [--pace 1.0]

DIR holds the tables' journals and the broker's store (default: a temporary directory).  Needs
mosquitto (Debian package ``mosquitto``); it is started here on 127.0.0.1 with the shipped
configuration and ACL, as ``tests/mosquitto.py`` starts it for the tests.

- Each table is a gadget as the kiosk runs one, without a screen, in a process of its own: its
  journal and controller, its ``EventSession`` with a real paho-mqtt link and its own login, and
  one thread — the game's — that handles what the link queues and the changes made at the table.
  Every table folds every report it receives into the standings, as a table's EVENT screen needs.
- The organiser's gadget, in this process, draws an event of 5 players a table (pods of 10, two
  groups of 5 each: one group a table), publishes it, and every table joins.  Every table then
  plays its group to its end, a player leaving every 0.5–1.5 × ``--pace`` seconds at each table,
  all tables at once: round 1 (two leave each group), then round 2 (winners' groups of 6 and
  losers' of 4, to the last player), which each table is given as soon as its pod's round 1 is
  over.  That is 6 changes a table an event; ``--events`` events are played one after another.
- **latency**: from a table's change (its thread starts the command: the journal's commit, the
  report made from the journal, published) to the moment the organiser's gadget has folded the
  report into the standings and they show that player gone.  Both ends read the system's
  monotonic clock (``perf_counter``), the same in every process.
- **fold**: how long the organiser's fold of the whole event takes (the standings recomputed from
  every report received, then every player's row), for each message that changed them.

The 33 gadgets share this machine's cores here, where each has its own Pi at an event: the
figures include that contention.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the broker helper

from figures import percentile  # noqa: E402
from mosquitto import MISSING, Mosquitto  # noqa: E402

from device.controller import Controller  # noqa: E402
from device.event_link import EventSession  # noqa: E402
from device.inputs import BrokerMessage, BrokerStatus  # noqa: E402
from device.journal import Journal  # noqa: E402
from device.rules.conspiracy.commands import LeaveGroup  # noqa: E402
from device.rules.conspiracy.tables import game_key  # noqa: E402
from drivers.broker import MqttLink  # noqa: E402

WAIT = 120.0
PER_TABLE = 5  # pods of 10 (CJ-1), two groups of 5: one group a table in round 1

#: A change: (table, (pod, round, group), how many had left then, when it began).
Change = tuple[str, tuple[int, int, str], int, float]


class Gadget:
    """One simulated gadget; everything it does runs on its own thread (the journal's connection
    belongs to the thread that opened it, as on the kiosk)."""

    def __init__(self, name: str, folder: Path, port: int, password: str) -> None:
        self.name = name
        self.inputs: queue.Queue[object] = queue.Queue()
        opened = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(folder, port, password, opened), name=name, daemon=True)
        self.thread.start()
        assert opened.wait(WAIT)

    def _run(self, folder: Path, port: int, password: str, opened: threading.Event) -> None:
        journal = Journal(folder / f"{self.name}.sqlite3", backup_every=0)
        self.controller = Controller(journal, rng=random.Random(self.name))
        link = MqttLink(self.inputs, "127.0.0.1", port, self.name, password, reconnect=0.1)  # type: ignore[arg-type]
        self.session = EventSession(self.controller, link, self.name, broker=f"127.0.0.1:{port}")
        self.session.start()
        opened.set()
        while True:
            item = self.inputs.get()
            if item is None:
                self.session.stop()
                journal.close()
                return
            if isinstance(item, BrokerMessage | BrokerStatus):
                self.session.handle(item)
                self.news()
            elif callable(item):
                item()

    def news(self) -> None:
        """After a message from the broker (the organiser looks at the standings)."""

    def call(self, work: Callable[[], object]) -> object:
        """Run ``work`` on the gadget's thread and wait for what it returns."""
        done = threading.Event()
        answer: list[object] = []
        self.inputs.put(lambda: (answer.append(work()), done.set()))
        assert done.wait(WAIT)
        return answer[0]

    def stop(self) -> None:
        self.inputs.put(None)
        self.thread.join(timeout=10)

    # --- at a table ----------------------------------------------------------------------------

    def leave(self, seat: int) -> Change:
        """The benchmark's change at this table, on its thread: the player in ``seat`` leaves."""
        state = self.controller.state
        assert state is not None and state.conspiracy is not None
        start = time.perf_counter()
        key = game_key(state)
        assert key is not None
        after = self.controller.execute(LeaveGroup(seats=(seat,))).state
        self.session.step()  # reported; this table's next group may start
        assert after is not None and after.conspiracy is not None
        return (self.name, key, len(after.conspiracy.groups[0].left), start)

    def playing(self, round_: int) -> int | None:
        """How many players this table's group of ``round_`` has, once it plays it."""
        state = self.controller.state
        if state is None or state.conspiracy is None or state.options.get("round") != round_:
            return None
        return None if state.conspiracy.groups[0].done else len(state.players)


class Organiser(Gadget):
    """The organiser's gadget: it hosts the event and watches the standings."""

    def __init__(self, name: str, folder: Path, port: int, password: str) -> None:
        self.seen: dict[tuple[str, tuple[int, int, str], int], float] = {}  # a change, when the standings had it
        self.folds: list[float] = []
        super().__init__(name, folder, port, password)

    def news(self) -> None:
        start = time.perf_counter()
        view = self.session.view
        if view is None:
            return
        view.rows()
        now = time.perf_counter()
        self.folds.append((now - start) * 1000)
        for report in view.reports.values():
            for count in range(1, len(report.left) + 1):
                self.seen.setdefault((report.table, report.key, count), now)


def table_process(name: str, folder: Path, port: int, password: str, pipe: Connection) -> None:
    """A table in a process of its own, doing what the benchmark asks through ``pipe``."""
    table = Gadget(name, folder, port, password)
    while True:
        order = pipe.recv()
        if order[0] == "join":
            table.call(lambda: table.session.join(order[1]))
            pipe.send(None)
        elif order[0] == "play":
            pipe.send(_play(table, order[1], random.Random(order[2]), order[3]))
        else:
            table.stop()
            return


def _play(table: Gadget, round_: int, rng: random.Random, pace: float) -> list[Change]:
    """The table's group of ``round_`` to its end, the first seated leaving first."""
    deadline = time.monotonic() + WAIT
    while (count := table.call(lambda: table.playing(round_))) is None:
        assert time.monotonic() < deadline, f"{table.name} was never given its group of round {round_}"
        time.sleep(0.02)
    assert isinstance(count, int)
    changes = []
    for seat in range(count // 2 if round_ == 1 else count - 1):
        time.sleep(rng.uniform(0.5, 1.5) * pace)
        changes.append(table.call(lambda s=seat: table.leave(s)))  # type: ignore[misc]
    return changes  # type: ignore[return-value]


def play_event(pipes: list[Connection], names: list[str], organiser: Organiser, event: str, rng: random.Random,
               pace: float) -> list[float]:
    """One event played to its end; the latencies of its changes (milliseconds)."""
    players = [f"P{i:03d}" for i in range(PER_TABLE * len(names))]
    organiser.seen.clear()
    organiser.call(lambda: organiser.session.host(event, players, names, {}))
    for pipe in pipes:
        pipe.send(("join", event))
    for pipe in pipes:
        pipe.recv()
    changes: list[Change] = []
    for round_ in (1, 2):
        for pipe in pipes:
            pipe.send(("play", round_, rng.random(), pace))
        for pipe in pipes:
            changes += pipe.recv()
    deadline = time.monotonic() + WAIT
    while not all((t, key, count) in organiser.seen for t, key, count, _ in changes):
        assert time.monotonic() < deadline, "the standings never showed every change: " + repr(
            [c for c in changes if c[:3] not in organiser.seen][:10])
        time.sleep(0.01)
    return [(organiser.seen[(t, key, count)] - start) * 1000 for t, key, count, start in changes]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("dir", nargs="?", type=Path)
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--events", type=int, default=3)
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between two changes at a table, on average")
    args = parser.parse_args(argv)
    if MISSING:
        print(json.dumps({"skipped": MISSING}))
        return 0
    fork = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.dir or Path(scratch)
        logins = {"organiser": "organiser-secret", **{f"table{i}": f"secret-{i}" for i in range(1, args.tables + 1)}}
        broker = Mosquitto(folder / "broker", logins)
        broker.start()
        names = [name for name in logins if name != "organiser"]
        pipes: list[Connection] = []
        processes = []
        organiser: Organiser | None = None
        try:
            for name in names:
                ours, theirs = fork.Pipe()
                process = fork.Process(target=table_process, args=(name, folder, broker.port, logins[name], theirs),
                                       daemon=True)
                process.start()
                pipes.append(ours)
                processes.append(process)
            organiser = Organiser("organiser", folder, broker.port, logins["organiser"])
            rng = random.Random(1)
            latencies: list[float] = []
            for number in range(args.events):
                latencies += play_event(pipes, names, organiser, f"Bench {number + 1}", rng, args.pace)
        finally:
            for pipe in pipes:
                pipe.send(("stop",))
            for process in processes:
                process.join(timeout=10)
            if organiser is not None:
                organiser.stop()
            broker.stop()
    print(json.dumps({
        "tables": args.tables, "players": PER_TABLE * args.tables, "events": args.events, "changes": len(latencies),
        "pace_s": args.pace,
        "latency_ms": {"median": round(statistics.median(latencies), 2), "p99": round(percentile(latencies, 0.99), 2),
                       "max": round(max(latencies), 2)},
        "fold_ms": {"median": round(statistics.median(organiser.folds), 2),
                    "p99": round(percentile(organiser.folds, 0.99), 2)},
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
