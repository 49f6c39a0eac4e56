"""An event across tables at scale, as JSON: 32 simulated tables reporting to one mosquitto on
this machine, how long a table's change takes to reach the standings elsewhere, and what a
message costs the organiser at 4, 8, 16 and 32 tables.

    python tests/bench/event.py [DIR] [--tables 32] [--events 3] [--pace 1.0]

Every run works in a new folder of its own (in DIR when given, kept there — its name is in the
JSON as ``folder`` — else a temporary one): the tables' journals and the broker's store.  Needs
mosquitto (Debian package ``mosquitto``); it is started here on 127.0.0.1 with the shipped
configuration and ACL, as ``tests/mosquitto.py`` starts it for the tests, and stopped however
the run ends (a failure, Ctrl-C).  Without it only the figures by number of tables are given.

- **fold_per_message_ms**, first, in this process alone: the organiser's work for each report a
  table sends — its session reads the message (``handle``: the report kept, the event's news
  followed, the standings folded) and every player's row is made (``rows``), as its EVENT screen
  asks — at 4, 8, 16 and 32 tables (5 players a table, each group played to its end as below,
  the tables' reports arriving mixed), events played until at least 240 reports have come at
  each size (``samples``).  A report is folded into the fold before it, so the cost is flat.
- Each table is then a gadget as the kiosk runs one, without a screen, in a process of its own:
  its journal and controller, its ``EventSession`` with a real paho-mqtt link and its own login,
  and one thread — the game's — that handles what the link queues and the changes made at the
  table.  Every table folds every report it receives into the standings, as a table's EVENT
  screen needs.
- The organiser's gadget, in this process, draws an event of 5 players a table (pods of 10, two
  groups of 5 each: one group a table), publishes it, and every table joins.  Every table then
  plays its group to its end, a player leaving every 0.5–1.5 × ``--pace`` seconds at each table,
  all tables at once: round 1 (two leave each group), then round 2 (winners' groups of 6 and
  losers' of 4, to the last player), which each table is given as soon as its pod's round 1 is
  over.  That is 6 changes a table an event; ``--events`` events are played one after another.
- **latency_ms**: from a table's change (its thread starts the command: the journal's commit, the
  report made from the journal, published) to the moment the organiser's gadget has folded the
  report into the standings and they show that player gone.  Both ends read the system's
  monotonic clock (``perf_counter``), the same in every process.
- **fold_ms**: the organiser's work for each message it received (reports, and the tables'
  presence), as for ``fold_per_message_ms`` but with every table's process busy beside it.

The 33 gadgets share this machine's cores here, where each has its own Pi at an event: the
figures include that contention.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import queue
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the broker helper

from figures import percentile  # noqa: E402
from mosquitto import MISSING, Mosquitto  # noqa: E402

from device import game as rules
from device.controller import Controller  # noqa: E402
from device.event_link import ORGANISER, EventSession, report_topic  # noqa: E402
from device.events import Event  # noqa: E402
from device.inputs import BrokerMessage, BrokerStatus  # noqa: E402
from device.journal import Journal  # noqa: E402
from device.rules.conspiracy.commands import LeaveGroup  # noqa: E402
from device.rules.conspiracy.tables import (  # noqa: E402
    Assignment,
    EventPlan,
    PodFold,
    TableReport,
    game_key,
    table_game,
    table_report,
)
from drivers.broker import MqttLink  # noqa: E402

WAIT = 120.0
FOLD_TABLES = (4, 8, 16, 32)
FOLD_SAMPLES = 240  # reports folded at each number of tables, at least
PER_TABLE = 5  # pods of 10 (CJ-1), two groups of 5: one group a table in round 1

#: A change: (table, (pod, round, group), how many had left then, when it began).
Change = tuple[str, tuple[int, int, str], int, float]


class Gadget:
    """One simulated gadget; everything it does runs on its own thread (the journal's connection
    belongs to the thread that opened it, as on the kiosk)."""

    def __init__(self, name: str, folder: Path, port: int, password: str, join: str = "") -> None:
        self.name = name
        self.join = join
        self.inputs: queue.Queue[object] = queue.Queue()
        opened = threading.Event()
        self.thread = threading.Thread(
            target=self._run, args=(folder, port, password, opened), name=name, daemon=True
        )
        self.thread.start()
        assert opened.wait(WAIT)

    def _run(self, folder: Path, port: int, password: str, opened: threading.Event) -> None:
        journal = Journal(folder / f"{self.name}.sqlite3", backup_every=0)
        self.controller = Controller(journal, rng=random.Random(self.name))
        link = MqttLink(self.inputs, "127.0.0.1", port, self.name, password, reconnect=0.1)  # type: ignore[arg-type]
        self.session = EventSession(
            self.controller, link, self.name, broker=f"127.0.0.1:{port}", join=self.join
        )
        self.session.start()
        opened.set()
        while True:
            item = self.inputs.get()
            if item is None:
                self.session.stop()
                journal.close()
                return
            if isinstance(item, BrokerMessage | BrokerStatus):
                self.received(item)
            elif callable(item):
                item()

    def received(self, item: BrokerMessage | BrokerStatus) -> None:
        """A message from the broker (the organiser then looks at the standings)."""
        self.session.handle(item)

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
        self.seen: dict[
            tuple[str, tuple[int, int, str], int], float
        ] = {}  # a change, when the standings had it
        self.folds: list[float] = []
        self.looked: dict[
            int, PodFold
        ] = {}  # each pod as folded when its reports were last looked at
        super().__init__(name, folder, port, password)

    def received(self, item: BrokerMessage | BrokerStatus) -> None:
        start = time.perf_counter()
        self.session.handle(item)  # the report kept and folded into the standings
        view = self.session.view
        if view is None:
            return
        view.rows()
        now = time.perf_counter()
        self.folds.append((now - start) * 1000)
        for pod in view.folds:  # only the pods folded again can show a change
            if self.looked.get(pod.pod) is not pod:
                self.looked[pod.pod] = pod
                for report in filter(None, pod.reports):
                    for count in range(1, len(report.left) + 1):
                        self.seen.setdefault((report.table, report.key, count), now)


def table_process(name: str, folder: Path, port: int, password: str, pipe: Connection) -> None:
    """A table in a process of its own, doing what the benchmark asks through ``pipe``."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # terminated by the benchmark: it just ends
    table = Gadget(name, folder, port, password)
    while True:
        order = pipe.recv()
        if order[0] == "join":
            table.call(lambda event=order[1]: table.session.join(event))
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
        assert time.monotonic() < deadline, (
            f"{table.name} was never given its group of round {round_}"
        )
        time.sleep(0.02)
    assert isinstance(count, int)
    changes = []
    for seat in range(count // 2 if round_ == 1 else count - 1):
        time.sleep(rng.uniform(0.5, 1.5) * pace)
        changes.append(table.call(lambda s=seat: table.leave(s)))  # type: ignore[misc]
    return changes  # type: ignore[return-value]


def play_event(
    pipes: list[Connection],
    names: list[str],
    organiser: Organiser,
    event: str,
    rng: random.Random,
    pace: float,
) -> list[float]:
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
            [c for c in changes if c[:3] not in organiser.seen][:10]
        )
        time.sleep(0.01)
    return [(organiser.seen[(t, key, count)] - start) * 1000 for t, key, count, start in changes]


# --- the organiser's fold per message, by the number of tables ----------------------------------


class Unlinked:
    """A link to no broker: the replay hands the organiser's session its messages itself."""

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def publish(self, topic: str, payload: bytes) -> None:
        pass


def _group_reports(
    plan: EventPlan, assignment: Assignment, rng: random.Random
) -> list[TableReport]:
    """What a table reports of ``assignment``'s game as the live tables play it: once it starts,
    then after each player left, the first seated leaving first, to the group's end."""
    events = rules.decide(None, table_game(plan, assignment), rng)
    _, game = rules.play(None, events)
    kept: list[tuple[int, Event]] = [(0, e) for e in events]
    count = len(assignment.players)
    made = [table_report(plan, assignment.table, game, kept, {}, (1, 0))]
    for pos, seat in enumerate(range(count // 2 if assignment.round == 1 else count - 1), start=1):
        events = rules.decide(game, LeaveGroup(seats=(seat,)), rng)
        _, game = rules.play(game, events)
        kept += [(pos, e) for e in events]
        made.append(
            table_report(plan, assignment.table, game, kept, {pos: float(pos)}, (1, 0), head=pos)
        )
    return made


def _interleaved(accounts: list[list[TableReport]], rng: random.Random) -> list[TableReport]:
    """The groups' reports as they reach the organiser with every table playing at once: each
    group's in its own order, the groups' mixed at random."""
    waiting = [list(reversed(a)) for a in accounts if a]
    arrived = []
    while waiting:
        account = rng.choice(waiting)
        arrived.append(account.pop())
        if not account:
            waiting.remove(account)
    return arrived


def fold_times(folder: Path, tables: int, samples: int) -> dict[str, float]:
    """The organiser's work for each report from a table, at ``tables`` tables: the message read
    by its session (``handle``: kept, news followed), the standings folded (``view``) and every
    player's row made (``rows``), as the organiser's EVENT screen asks after each message.
    Events of ``PER_TABLE`` players a table are played until ``samples`` reports have come."""
    journal = Journal(folder / f"fold-{tables}.sqlite3", backup_every=0)
    session = EventSession(Controller(journal, rng=random.Random(tables)), Unlinked(), ORGANISER)
    names = [f"table{i}" for i in range(1, tables + 1)]
    players = [f"P{i:03d}" for i in range(PER_TABLE * tables)]
    rng = random.Random(tables)
    timings: list[float] = []
    revisions: dict[str, int] = {}
    number = 0
    while len(timings) < samples:
        number += 1
        session.host(f"Fold {number}", players, names, {})
        plan = session.plan
        view = session.view
        assert plan is not None and view is not None
        view.rows()  # the organiser's screen shows the draw before any report comes
        for round_ in (1, 2):
            groups = [a for a in view.groups if a.round == round_ and len(a.players) > 1]
            for report in _interleaved([_group_reports(plan, a, rng) for a in groups], rng):
                revisions[report.table] = revisions.get(report.table, 0) + 1
                report = report.model_copy(update={"revision": (number, revisions[report.table])})
                message = BrokerMessage(
                    report_topic(plan.event, report), report.model_dump_json().encode()
                )
                start = time.perf_counter()
                session.handle(message)
                view = session.view
                assert view is not None
                rows = view.rows()
                timings.append((time.perf_counter() - start) * 1000)
                assert view.report(next(a for a in view.groups if a.key == report.key)) == report
        assert view.finished and len(rows) == len(players)
    journal.close()
    return {
        "samples": len(timings),
        "median": round(statistics.median(timings), 3),
        "p99": round(percentile(timings, 0.99), 3),
    }


@contextmanager
def running(broker: Mosquitto) -> Iterator[Mosquitto]:
    """The broker started, and stopped whatever happens meanwhile (a failure, Ctrl-C)."""
    try:
        broker.start()
        yield broker
    finally:
        process = broker.process
        try:
            broker.stop()
        finally:
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()


def live(folder: Path, tables: int, events: int, pace: float) -> tuple[list[float], list[float]]:
    """``events`` events played at ``tables`` table processes through a mosquitto: every change's
    latency, and the organiser's fold after every message (milliseconds)."""
    fork = multiprocessing.get_context("fork")
    logins = {
        "organiser": "organiser-secret",
        **{f"table{i}": f"secret-{i}" for i in range(1, tables + 1)},
    }
    names = [name for name in logins if name != "organiser"]
    pipes: list[Connection] = []
    processes: list[multiprocessing.process.BaseProcess] = []
    organiser: Organiser | None = None
    with running(Mosquitto(folder / "broker", logins)) as broker:
        try:
            for name in names:
                ours, theirs = fork.Pipe()
                process = fork.Process(
                    target=table_process,
                    args=(name, folder, broker.port, logins[name], theirs),
                    daemon=True,
                )
                process.start()
                pipes.append(ours)
                processes.append(process)
            organiser = Organiser("organiser", folder, broker.port, logins["organiser"])
            rng = random.Random(1)
            latencies: list[float] = []
            for number in range(events):
                latencies += play_event(pipes, names, organiser, f"Bench {number + 1}", rng, pace)
            return latencies, organiser.folds
        finally:
            for pipe in pipes:
                with suppress(OSError):  # a table that died has no pipe left
                    pipe.send(("stop",))
            for process in processes:
                process.join(timeout=10)
                if process.is_alive():
                    process.terminate()
            if organiser is not None:
                organiser.stop()


def _interrupted(signum: int, frame: object) -> None:
    """A SIGTERM (``kill``, a cancelled job) ends the run as Ctrl-C does: everything is stopped."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("dir", nargs="?", type=Path)
    parser.add_argument("--tables", type=int, default=32)
    parser.add_argument("--events", type=int, default=3)
    parser.add_argument(
        "--pace", type=float, default=1.0, help="seconds between two changes at a table, on average"
    )
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupted)
    with tempfile.TemporaryDirectory() as scratch:
        if args.dir is not None:
            # A folder of its own in DIR for every run: the tables' journals of an earlier run
            # would resume its games.
            args.dir.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="event-", dir=args.dir or scratch))
        figures: dict[str, object] = {"folder": str(folder) if args.dir else None}
        figures["fold_per_message_ms"] = {
            str(n): fold_times(folder, n, FOLD_SAMPLES) for n in FOLD_TABLES
        }
        if MISSING:
            print(json.dumps({"skipped": MISSING, **figures}))
            return 0
        latencies, folds = live(folder, args.tables, args.events, args.pace)
    print(
        json.dumps(
            {
                "tables": args.tables,
                "players": PER_TABLE * args.tables,
                "events": args.events,
                "changes": len(latencies),
                "pace_s": args.pace,
                "latency_ms": {
                    "median": round(statistics.median(latencies), 2),
                    "p99": round(percentile(latencies, 0.99), 2),
                    "max": round(max(latencies), 2),
                },
                "fold_ms": {
                    "median": round(statistics.median(folds), 2),
                    "p99": round(percentile(folds, 0.99), 2),
                    "samples": len(folds),
                },
                **figures,
            }
        )
    )
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        sys.exit(main())
