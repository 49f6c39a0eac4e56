"""The organiser's announcements through a real mosquitto with the shipped configuration (CJ-5,
docs/decisions/0032): the organiser's login may publish on an event's news topic, a table
connected gets it at once, a table away gets it from its persistent session when it is back,
and a gadget that connects for the first time afterwards is not told of it (not retained)."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest

from device.event_link import news_topic, presence_topic
from device.inputs import BrokerMessage, InputEvent
from drivers.broker import MqttLink
from mosquitto import MISSING, Mosquitto

pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING or "mosquitto is installed")

LOGINS = {
    "organiser": "org-secret",
    "table1": "secret-1",
    "table2": "secret-2",
    "watcher": "watch-secret",
}
NEWS = news_topic("Spring")


def link(broker: Mosquitto, login: str) -> tuple[MqttLink, queue.Queue[InputEvent]]:
    inputs: queue.Queue[InputEvent] = queue.Queue()
    return MqttLink(inputs, "127.0.0.1", broker.port, login, LOGINS[login]), inputs


def until(
    inputs: queue.Queue[InputEvent], topic: str, payload: bytes | None = None, timeout: float = 3.0
) -> list[BrokerMessage]:
    """The messages that arrive until one on ``topic`` (with ``payload``) arrives live."""
    seen: list[BrokerMessage] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = inputs.get(timeout=0.05)
        except queue.Empty:
            continue
        if isinstance(item, BrokerMessage):
            seen.append(item)
            if item.topic == topic and not item.retained and payload in (None, item.payload):
                return seen
    raise AssertionError(f"nothing on {topic} within {timeout} s; heard {[m.topic for m in seen]}")


def test_cj5_an_announcement_reaches_a_table_connected_and_one_back_but_is_not_kept(
    tmp_path: Path,
) -> None:
    broker = Mosquitto(tmp_path / "broker", LOGINS)
    broker.start()
    away, away_in = link(broker, "table1")
    here, here_in = link(broker, "table2")
    organiser, organiser_in = link(broker, "organiser")
    links = [away, here, organiser]
    try:
        for each, inputs, login in (
            (away, away_in, "table1"),
            (here, here_in, "table2"),
            (organiser, organiser_in, "organiser"),
        ):
            each.start()
            until(inputs, presence_topic(login), b"online")
        away.stop()  # its session stays at the broker
        organiser.publish(NEWS, b'{"ten": 1}', retain=False)
        assert until(here_in, NEWS)[-1].payload == b'{"ten": 1}'
        back, back_in = link(broker, "table1")
        links.append(back)
        back.start()
        assert [m.payload for m in until(back_in, NEWS) if m.topic == NEWS] == [b'{"ten": 1}']
        watcher, watcher_in = link(broker, "watcher")
        links.append(watcher)
        watcher.start()
        heard = until(watcher_in, presence_topic("watcher"), b"online")
        assert not [m for m in heard if m.topic == NEWS]
    finally:
        for each in links:
            each.stop()
        broker.stop()
