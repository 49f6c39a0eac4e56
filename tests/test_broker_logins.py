"""The shipped broker configuration with ``drivers.broker.MqttLink``, through a real mosquitto:
one connection per login (no login can take another's session by naming its client id, and a
second gadget logging in as a table takes that table's connection), and no message larger than
an event sends."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest

from device.inputs import BrokerMessage, BrokerStatus, InputEvent
from drivers.broker import MqttLink
from mosquitto import MISSING, Mosquitto

pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING or "mosquitto is installed")

LOGINS = {"table1": "secret-1", "table2": "secret-2"}


def statuses(
    inputs: queue.Queue[InputEvent], quiet: float = 0.5, timeout: float = 10.0
) -> list[BrokerStatus]:
    """The link statuses that arrive until none has for ``quiet`` seconds (at most ``timeout``)."""
    found: list[BrokerStatus] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = inputs.get(timeout=quiet)
        except queue.Empty:
            if found:
                break
            continue
        if isinstance(item, BrokerStatus):
            found.append(item)
    return found


def link(broker: Mosquitto, login: str) -> tuple[MqttLink, queue.Queue[InputEvent]]:
    inputs: queue.Queue[InputEvent] = queue.Queue()
    return MqttLink(inputs, "127.0.0.1", broker.port, login, LOGINS[login]), inputs


def test_one_connection_per_login_and_no_login_takes_anothers_session(tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path / "broker", LOGINS)
    broker.start()
    table1, table1_in = link(broker, "table1")
    other, other_in = link(broker, "table2")
    other.client._client_id = b"aetherbox-table1"  # noqa: SLF001 - a gadget naming table1's client id
    spare, spare_in = link(broker, "table1")
    try:
        table1.start()
        assert [s.connected for s in statuses(table1_in)] == [True]
        # table2's login with table1's client id is table2 (the broker's client id is the login).
        other.start()
        assert [s.connected for s in statuses(other_in)] == [True]
        assert not statuses(table1_in, timeout=1.5)
        # A spare with table1's login takes table1's connection.
        spare.start()
        assert statuses(spare_in)[0].connected
        assert not statuses(table1_in)[0].connected
        assert "Client table1 already connected, closing old connection" in broker.log()
    finally:
        for each in (table1, other, spare):
            each.stop()
        broker.stop()


def test_a_message_larger_than_an_event_sends_never_reaches_the_broker(tmp_path: Path) -> None:
    """A table publishing 1 MB under its own name (the ACL allows the topic): the broker drops
    its connection and keeps none of it, nobody receives it, and the other tables' reports go on."""
    broker = Mosquitto(tmp_path / "broker", LOGINS)
    broker.start()
    table1, table1_in = link(broker, "table1")
    table2, table2_in = link(broker, "table2")
    try:
        for each, inputs in ((table1, table1_in), (table2, table2_in)):
            each.start()
            assert statuses(inputs)[0].connected
        table1.publish("aetherbox/tables/table1/events/spring/1/1/1/flood", b"x" * 1_000_000)
        table2.publish("aetherbox/tables/table2/events/spring/1/1/2/g2", b"y" * 2_000)
        heard = [
            m
            for m in drain(table2_in, 3.0)
            if isinstance(m, BrokerMessage) and "/events/" in m.topic
        ]
        assert [(m.topic.split("/")[2], len(m.payload)) for m in heard] == [("table2", 2_000)]
        assert "Client table1 disconnected due to oversize packet" in broker.log()
    finally:
        for each in (table1, table2):
            each.stop()
        broker.stop()


def drain(inputs: queue.Queue[InputEvent], seconds: float) -> list[InputEvent]:
    found: list[InputEvent] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            found.append(inputs.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            break
    return found


def test_two_gadgets_on_one_login_take_turns_not_twice_a_second(tmp_path: Path) -> None:
    """A spare started with table1's card beside table1 itself: each connection puts the other
    off, and paho reconnects in half a second, so the two used to swap the connection twice a
    second. A gadget that finds another's presence on its login when it connects says so and
    waits its turn (here 2.5–3 s, 30–60 s at a venue) before taking the login back; both keep
    reporting, each in its turn."""
    from device.controller import Controller
    from device.event_link import EventSession
    from device.journal import Journal

    broker = Mosquitto(tmp_path / "broker", LOGINS)
    broker.start()
    gadgets = []
    try:
        for name in ("original", "spare"):
            mqtt, inputs = link(broker, "table1")
            mqtt.reconnect, mqtt.reconnect_max = 0.5, 0.5
            mqtt.back_off(0)
            journal = Journal(tmp_path / name / "j.sqlite3")
            session = EventSession(
                Controller(journal), mqtt, "table1", broker="test", takeover=(2.5, 3.0)
            )
            gadgets.append((session, inputs, journal, []))
        said: dict[str, list[str]] = {"original": [], "spare": []}
        gadgets[0][0].start()
        time.sleep(0.5)
        gadgets[1][0].start()
        deadline = time.monotonic() + 4.0
        while time.monotonic() < deadline:
            for (session, inputs, _, off), name in zip(gadgets, said, strict=True):
                try:
                    item = inputs.get(timeout=0.02)
                except queue.Empty:
                    continue
                if isinstance(item, BrokerStatus) and not item.connected and session.connected:
                    off.append(time.monotonic())
                said[name] += [m.key for r in session.handle(item) for m in r.messages]
        puts_off = sum(len(g[3]) for g in gadgets)
        assert 1 <= puts_off <= 4, puts_off  # twice a second would be about 8
        assert "consp.net.taken" in said["original"] and "consp.net.taken" in said["spare"]
    finally:
        for session, _, journal, _ in gadgets:
            session.stop()
            journal.close()
        broker.stop()


def test_a_table_writes_only_the_two_shapes_a_gadget_writes(tmp_path: Path) -> None:
    """The shipped ACL: under its own name a table writes its presence and reports (event, pod,
    round, group, gadget) and nothing else — a topic of another shape is refused by the broker,
    said to the gadget, and never reaches the others; the in-process broker's rule is the same."""
    from drivers.broker import may_write

    broker = Mosquitto(tmp_path / "broker", LOGINS)
    broker.start()
    table1, table1_in = link(broker, "table1")
    table2, table2_in = link(broker, "table2")
    odd = [
        "aetherbox/tables/table1/flood/1",
        "aetherbox/tables/table1/events/spring/1/1/1/0000aaaa/more",
        "aetherbox/tables/table1/status/more",
        "aetherbox/tables/table1/events/spring",
    ]
    good = "aetherbox/tables/table1/events/spring/1/1/1/0000aaaa"
    try:
        for each, inputs in ((table1, table1_in), (table2, table2_in)):
            each.start()
            assert statuses(inputs)[0].connected
        for topic in odd:
            table1.publish(topic, b"{}")
        table1.publish(good, b"{}")
        refused: list[str] = []
        deadline = time.monotonic() + 10
        while len(refused) < len(odd) and time.monotonic() < deadline:
            refused += [s.refused for s in statuses(table1_in, timeout=1.0) if s.refused]
        assert sorted(refused) == sorted(odd)
        heard = [
            m.topic
            for m in drain(table2_in, 0.5)
            if isinstance(m, BrokerMessage)
            and m.topic.startswith("aetherbox/tables/table1/")
            and not m.topic.endswith("/status")
        ]
        assert heard == [good]
    finally:
        for each in (table1, table2):
            each.stop()
        broker.stop()
    assert [may_write("table1", topic) for topic in (*odd, good)] == [False] * len(odd) + [True]


def test_the_broker_writes_its_store_after_changes_not_while_idle(tmp_path: Path) -> None:
    """mosquitto 2.0 writes its whole store each time it saves: saved on a timer, an idle broker
    rewrote it every few seconds all evening (a flooded store of tens of MB, gigabytes an hour);
    saved after every change, a busy event wrote gigabytes. The shipped setting saves after every
    500 changes: nothing while idle, once after 500 messages, and when it stops."""
    broker = Mosquitto(tmp_path / "broker", LOGINS)
    broker.start()
    store = tmp_path / "broker" / "mosquitto.db"
    table1, table1_in = link(broker, "table1")

    def written() -> int | None:
        return store.stat().st_mtime_ns if store.exists() else None

    try:
        table1.start()
        assert statuses(table1_in)[0].connected
        for i in range(100):
            table1.publish(f"aetherbox/tables/table1/events/spring/1/1/1/{i:08x}", b"{}")
        time.sleep(1.0)
        assert written() is None  # 100 changes: nothing written yet
        for i in range(100, 520):
            table1.publish(f"aetherbox/tables/table1/events/spring/1/1/1/{i:08x}", b"{}")
        deadline = time.monotonic() + 5
        while written() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # the save seen begun, finished
        once = written()
        assert once is not None
        time.sleep(1.5)  # idle
        assert written() == once
    finally:
        table1.stop()
        broker.stop()
    assert written() != once  # and when it stops


def test_what_a_gadget_sent_just_before_it_stops_reaches_the_broker(tmp_path: Path) -> None:
    """An organiser hosts and quits at once (the console's Ctrl-D): the draw must be at the
    broker, not lost in paho's queue. A link stops once the broker has taken what was sent."""
    broker = Mosquitto(tmp_path / "broker", LOGINS)
    broker.start()
    table1, table1_in = link(broker, "table1")
    watcher, watcher_in = link(broker, "table2")
    try:
        table1.start()
        assert statuses(table1_in)[0].connected
        topics = [f"aetherbox/tables/table1/events/spring/1/1/1/{i:08x}" for i in range(300)]
        for topic in topics:
            table1.publish(topic, b"{}" * 500)
        table1.stop()
        watcher.start()
        heard = {
            m.topic for m in drain(watcher_in, 1.0) if isinstance(m, BrokerMessage) and m.retained
        }
        assert set(topics) <= heard
    finally:
        watcher.stop()
        broker.stop()
