"""One table floods the event's broker, as JSON: what another gadget pays for each message, how
long a real report takes to reach the organiser's standings meanwhile, and the gadget's memory.

    python tests/bench/flood.py [--held 1000 15000]

mosquitto is started here on 127.0.0.1 with the shipped configuration and ACL (as
``tests/mosquitto.py`` starts it for the tests) and stopped however the run ends.  The event is a
draw of 17 players at four tables, published by the organiser's login; the organiser's gadget
(its ``EventSession`` with a real paho-mqtt link, in this process, on a thread of its own as the
kiosk's loop) follows it.  Then ``table3``'s login floods: as fast as paho sends them (QoS 1,
retained), reports in every shape its ACL lets it write, in turn —

- its own group, each from another gadget, the ids going down (each one kept, the highest of
  the four kept let go, the standings folded anew: the dearest a message can be);
- its own group's topic in an event nobody drew (kept unread, a bounded few);
- a pod the draw does not have (let go at its topic);

until the broker holds each of ``--held`` (1,000, then 15,000 in all).  Meanwhile ``table2``'s
gadget reports its group again every 20 ms (a new revision of its account).

- **handle_ms**: the organiser's gadget's ``handle`` of each flood message (the message read or
  let go, the event's news followed), p50/p99 over the last 1,000 of each phase (at least 200),
  and by kind.  Each sample is checked to have done what it stands for: the gadget's account
  kept (four at most), the unread report kept only among its table's lowest 64, the odd pod's
  kept nowhere.
- **report_ms**: from ``table2``'s publish to the organiser's gadget having its new revision as
  the one that counts, during each phase.
- **rss_mb**: the process's resident memory after each phase (``/proc/self/status``; it holds
  this benchmark's own records of every message too), beside what the gadget holds (accounts,
  reports waiting and their bytes).
- **late_gadget**: a gadget that connects once 15,000 are held: every retained message reaches
  it (the broker's queue is bounded by bytes), the draw and ``table2``'s report among them, in
  how long, and what it then costs to handle ``table2``'s next report.
- **large**: one 250 kB message (under the broker's 256 kB packet limit: delivered, let go
  unread by its size) and one of 300 kB (the flooder is disconnected; nobody receives it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the broker helper

from event import Gadget  # noqa: E402
from figures import percentile  # noqa: E402
from helpers import played_report  # noqa: E402
from mosquitto import MISSING, Mosquitto  # noqa: E402

from device.event_link import WAITING_PER_TABLE, EventSession, plan_topic, report_topic  # noqa: E402
from device.inputs import BrokerMessage, BrokerStatus  # noqa: E402
from device.rules.conspiracy.tables import EventPlan, TableReport, furthest, plan_event  # noqa: E402

TABLES = ("table1", "table2", "table3", "table4")
LOGINS = {"organiser": "org-secret", "late": "late-secret", **{t: f"{t}-secret" for t in TABLES}}
PLAYERS = [f"P{i:02d}" for i in range(17)]
WAIT = 120.0
KINDS = ("account", "undrawn", "odd pod")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def group_report(plan: EventPlan, table: str, leave: int) -> TableReport:
    return played_report(plan, table, leave)


class Watcher(Gadget):
    """A gadget's session on a thread of its own (the 32-table bench's), timing each message it
    handles and checking what it made of it."""

    def __init__(self, folder: Path, login: str, port: int) -> None:
        self.login = login
        self.timed: list[tuple[str, float, float]] = []  # topic, handle seconds, when done
        self.checks: list[Callable[[EventSession, str], bool]] = []
        self.failed: list[str] = []
        self.on_message: Callable[[BrokerMessage, float], None] | None = None
        super().__init__(login, folder, port, LOGINS[login], join="Spring")

    def received(self, item: BrokerMessage | BrokerStatus) -> None:
        start = time.perf_counter()
        self.session.handle(item)
        done = time.perf_counter()
        if isinstance(item, BrokerMessage):
            self.timed.append((item.topic, done - start, done))
            for check in self.checks:
                if not check(self.session, item.topic):
                    self.failed.append(item.topic)
            if self.on_message is not None:
                self.on_message(item, done)


def flood_topics(plan: EventPlan, start: int, count: int) -> list[str]:
    mine = next(a for a in plan.groups if a.table == "table3")
    topics = []
    for n in range(start, start + count):
        kind = KINDS[n % 3]
        if kind == "account":
            topics.append(
                f"aetherbox/tables/table3/events/spring/{mine.pod}/1/{mine.group}/{0xFFFFFFF0 - n:08x}"
            )
        elif kind == "undrawn":
            topics.append(
                f"aetherbox/tables/table3/events/undrawn-{n:05d}/{mine.pod}/1/{mine.group}/0000abcd"
            )
        else:
            topics.append(f"aetherbox/tables/table3/events/spring/99/1/{mine.group}/{n:08x}")
    return topics


def kind_of(topic: str) -> str:
    return "undrawn" if "/undrawn-" in topic else "odd pod" if "/spring/99/" in topic else "account"


def checked(plan: EventPlan) -> Callable[[EventSession, str], bool]:
    """What handling a flood message must have done (see the module's docstring)."""
    mine = next(a for a in plan.groups if a.table == "table3")

    def check(session: EventSession, topic: str) -> bool:
        if not topic.startswith("aetherbox/tables/table3/"):
            return True
        accounts = session.heard.accounts.get(("table3", plan.id, mine.key), {})
        kind = kind_of(topic)
        if kind == "account":
            return len(accounts) <= 4 and topic.rsplit("/", 1)[1] in accounts
        if kind == "undrawn":
            return len(session.heard.waiting.get("table3", {})) <= WAITING_PER_TABLE
        return not any(key[2][0] == 99 for key in session.heard.accounts)

    return check


def flood(client: object, topics: list[str], payloads: Callable[[str], bytes]) -> None:
    infos = [client.publish(topic, payloads(topic), qos=1, retain=True) for topic in topics]  # type: ignore[attr-defined]
    for info in infos:
        info.wait_for_publish(WAIT)


def figures_of(samples: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in samples]
    return {
        "p50": round(statistics.median(ms), 3),
        "p99": round(percentile(ms, 0.99), 3),
        "samples": len(ms),
    }


def client(port: int, login: str, clients: list[object]) -> object:
    """A bare paho client logged in as ``login``, sending as fast as the broker takes it."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    made = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=login, protocol=mqtt.MQTTv5)
    made.username_pw_set(login, LOGINS[login])
    made.max_inflight_messages_set(100)
    made.max_queued_messages_set(0)
    made.connect("127.0.0.1", port)
    made.loop_start()
    clients.append(made)
    return made


def run(folder: Path, held: list[int]) -> dict[str, object]:
    broker = Mosquitto(folder / "broker", LOGINS)
    broker.start()
    out: dict[str, object] = {}
    watchers: list[Watcher] = []
    clients: list[object] = []
    try:
        plan = plan_event(
            "Spring", PLAYERS, TABLES, {"time_limit": "60"}, random.Random(7), "spring-1"
        )
        organiser = Watcher(folder, "organiser", broker.port)
        watchers.append(organiser)
        organiser.session.link.publish(plan_topic(plan.event), plan.model_dump_json().encode())
        deadline = time.monotonic() + WAIT
        while organiser.call(lambda: organiser.session.plan) is None:
            assert time.monotonic() < deadline, "the draw never came back"
            time.sleep(0.05)
        organiser.checks.append(checked(plan))

        flooder, table2 = (
            client(broker.port, "table3", clients),
            client(broker.port, "table2", clients),
        )
        # table2's account, reported again every 20 ms with a new revision, timed to the standings.
        base = group_report(plan, "table2", 1).model_copy(update={"gadget": "0000beef"})
        sent: dict[tuple[int, int], float] = {}
        reached: dict[tuple[int, int], float] = {}
        key = ("table2", plan.id, base.key)

        def arrived(message: BrokerMessage, done: float) -> None:
            if message.topic.startswith("aetherbox/tables/table2/"):
                counts = furthest(organiser.session.heard.accounts.get(key, {}).values())
                if (
                    counts is not None
                    and counts.revision in sent
                    and counts.revision not in reached
                ):
                    reached[counts.revision] = done

        organiser.on_message = arrived
        stop = threading.Event()
        revision = [0]

        def report_again() -> None:
            while not stop.is_set():
                revision[0] += 1
                made = base.model_copy(update={"revision": (1, revision[0])})
                sent[made.revision] = time.perf_counter()
                table2.publish(
                    report_topic(plan.event, made),
                    made.model_dump_json().encode(),
                    qos=1,  # type: ignore[attr-defined]
                    retain=True,
                )
                stop.wait(0.02)

        own = group_report(plan, "table3", 1)

        def payload(topic: str) -> bytes:
            gadget = topic.rsplit("/", 1)[1] if kind_of(topic) == "account" else "0000abcd"
            return (
                own.model_copy(update={"gadget": gadget, "revision": (1, int(gadget, 16) % 100000)})
                .model_dump_json()
                .encode()
            )

        phases: dict[str, object] = {}
        done = 0
        for count in held:
            timed_before = len(organiser.timed)
            reports_from = revision[0]
            ticker = threading.Thread(target=report_again, daemon=True)
            stop.clear()
            ticker.start()
            flood(flooder, flood_topics(plan, done, count - done), payload)
            done = count
            deadline = time.monotonic() + WAIT
            while sum(
                1
                for t, _, _ in organiser.timed[timed_before:]
                if t.startswith("aetherbox/tables/table3/")
            ) < count - (held[held.index(count) - 1] if held.index(count) else 0):
                assert time.monotonic() < deadline, "the flood never all arrived"
                time.sleep(0.05)
            stop.set()
            ticker.join()
            time.sleep(0.3)
            flood_samples = [
                (t, s)
                for t, s, _ in organiser.timed[timed_before:]
                if t.startswith("aetherbox/tables/table3/")
            ]
            last = flood_samples[-1000:]
            latencies = [reached[r] - sent[r] for r in sent if r[1] > reports_from and r in reached]
            phases[str(count)] = {
                "handle_ms": figures_of([s for _, s in last]),
                "handle_ms_by_kind": {
                    kind: figures_of([s for t, s in last if kind_of(t) == kind]) for kind in KINDS
                },
                "report_ms": figures_of(latencies)
                | {"sent": sum(1 for r in sent if r[1] > reports_from)},
                "rss_mb": rss_mb(),
                "held_by_gadget": organiser.call(
                    lambda: {
                        "accounts": sum(len(a) for a in organiser.session.heard.accounts.values()),
                        "waiting": sum(len(w) for w in organiser.session.heard.waiting.values()),
                        "waiting_bytes": sum(
                            len(p)
                            for w in organiser.session.heard.waiting.values()
                            for _, p in w.values()
                        ),
                    }
                ),
            }
        out["phases"] = phases
        out["checked"] = {
            "messages": len(organiser.timed),
            "failed": len(organiser.failed),
            "first_failures": organiser.failed[:3],
        }

        out["late_gadget"] = late_gadget(folder, broker, held[-1], key, watchers)
        out["large"] = large(organiser, flooder, broker)
    finally:
        for made in clients:
            made.loop_stop()  # type: ignore[attr-defined]
        for watcher in watchers:
            watcher.stop()
        time.sleep(0.3)
        broker.stop()
    return out


def late_gadget(
    folder: Path,
    broker: Mosquitto,
    held: int,
    key: tuple[str, str, tuple[int, int, str]],
    watchers: list[Watcher],
) -> dict[str, object]:
    """A gadget connecting after the flood: every retained message reaches it."""
    started = time.perf_counter()
    late = Watcher(folder, "late", broker.port)
    watchers.append(late)
    expected = held + 2  # the flood (every topic its own), the draw, table2's report
    deadline = time.monotonic() + WAIT
    while (
        sum(1 for t, _, _ in late.timed if "/events/" in t) < expected
        and time.monotonic() < deadline
    ):
        time.sleep(0.05)
    got = [t for t, _, _ in late.timed if "/events/" in t]
    has = late.call(
        lambda: (late.session.plan is not None, bool(late.session.heard.accounts.get(key)))
    )
    return {
        "retained_received": len(got),
        "retained_held": expected,
        "draw_and_table2_report": has,
        "all_in_s": round(late.timed[-1][2] - started, 2),
        "rss_mb_after": rss_mb(),
    }


def large(organiser: Watcher, flooder: object, broker: Mosquitto) -> dict[str, object]:
    """One message of 250 kB (delivered, let go by its size) and one of 300 kB (refused)."""
    before = len(organiser.timed)
    flooder.publish(
        "aetherbox/tables/table3/events/spring/1/1/1/0000ffff",
        b"x" * 250_000,
        qos=1,  # type: ignore[attr-defined]
        retain=True,
    ).wait_for_publish(WAIT)
    time.sleep(1.0)
    big = [(t, s) for t, s, _ in organiser.timed[before:] if t.endswith("/0000ffff")]
    flooder.publish(
        "aetherbox/tables/table3/events/spring/1/1/1/0000fffe", b"x" * 300_000, qos=1, retain=True
    )  # type: ignore[attr-defined]
    time.sleep(1.5)
    over = [t for t, _, _ in organiser.timed if t.endswith("/0000fffe")]
    return {
        "250kB_delivered": len(big) == 1,
        "250kB_handle_ms": round(big[0][1] * 1000, 3) if big else None,
        "250kB_kept": organiser.call(
            lambda: any("0000ffff" in a for a in organiser.session.heard.accounts.values())
        ),
        "300kB_delivered": bool(over),
        "300kB_sender_disconnected": "disconnected due to oversize packet" in broker.log(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--held", type=int, nargs="+", default=[1000, 15000])
    args = parser.parse_args(argv)
    if MISSING:
        print(json.dumps({"skipped": MISSING}))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(run(Path(folder), sorted(args.held))))
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        sys.exit(main())
