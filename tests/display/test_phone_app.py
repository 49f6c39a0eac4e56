"""The players' page through the gadget's own start-up: ``aetherbox`` with ``[event] page_port``
serves it while the kiosk plays table2's group at an event (the broker an in-process one,
``drivers.broker.MemoryBroker``, in place of mosquitto); phones get what the EVENT screen shows,
live, and the screen's QR code is the page's address."""

from __future__ import annotations

import json
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from device.config import Config, EventConfig
from display.app import KioskOptions, open_kiosk
from display.kiosk import Kiosk
from display.ui import Focus, Go
from drivers.broker import MemoryBroker
from mosquitto import free_port
from scenes import texts
from scenes_event import drawn, reported


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> MemoryBroker:
    """The broker every link the gadget opens reaches."""
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    memory = MemoryBroker()
    monkeypatch.setattr(
        "drivers.broker.open_link",
        lambda inputs, host, port, login, password, ca=None: memory.link(inputs, login),
    )
    return memory


def gadget(tmp_path: Path, port: int, language: str = "ru") -> Iterator[Kiosk]:
    config = Config(
        event=EventConfig(
            broker="127.0.0.1", table="table2", password="x", join="Spring", page_port=port
        )
    )
    options = KioskOptions(
        db=tmp_path / "j.sqlite3", screenshots=tmp_path / "shots", language=language
    )
    with open_kiosk(config, options) as kiosk:
        yield kiosk


def next_event(stream: IO[bytes]) -> dict[str, object]:
    """The next snapshot the page's stream sends."""
    while True:
        line = stream.readline()
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            return json.loads(line[6:])  # type: ignore[no-any-return]


def test_cj3_a_gadget_with_a_page_port_serves_its_event_to_phones_live(
    tmp_path: Path, broker: MemoryBroker
) -> None:
    port = free_port()
    for kiosk in gadget(tmp_path, port):
        plan = drawn(broker)
        kiosk.settle()
        assert kiosk.state is not None  # it joined and plays table2's group
        base = f"http://127.0.0.1:{port}/"
        page = urllib.request.urlopen(base, timeout=5).read().decode()
        assert '<script src="page.js"' in page
        # No language asked for: the gadget's own.
        data = json.load(urllib.request.urlopen(base + "snapshot", timeout=5))
        assert data["lang"] == "ru" and data["title"] == "Spring"
        assert [pod["title"] for pod in data["pods"]] == ["Под №1: 9 игроков", "Под №2: 8 игроков"]
        assert [t["table"] for t in data["tables"]] == ["table1", "table2", "table3", "table4"]
        with urllib.request.urlopen(base + "events?lang=en", timeout=5) as stream:
            first = next_event(stream)
            assert first["lang"] == "en" and not first["seatings"][0]["groups"][2]["over"]
            # table3 reports its group over: the page's stream carries the news at once.
            pod_two = [a for a in plan.groups if a.pod == 2]
            reported(broker, plan, pod_two[0], [(0,), (2, 3)])
            kiosk.settle()
            news = next_event(stream)
        assert news["seatings"][0]["groups"][2] == {
            **first["seatings"][0]["groups"][2],
            "over": True,
        }
        # The EVENT screen's phones tab shows where the page is.
        kiosk.dispatch(Go("event"))
        kiosk.dispatch(Focus(1))
        kiosk.dispatch(Focus(1))
        kiosk.redraw()
        assert kiosk.page is not None and kiosk.page.url.endswith(f":{port}/")
        assert [s.name for s in kiosk.canvas.shapes if s.role == "event.page.qr"] == [
            f"qr:{kiosk.page.url.upper()}"
        ]
    with pytest.raises(OSError):  # stopped with the kiosk
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)


def test_a_page_port_in_use_is_said_and_the_table_plays_on(
    tmp_path: Path, broker: MemoryBroker
) -> None:
    with socket.socket() as taken:
        taken.bind(("", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for kiosk in gadget(tmp_path, port, language="en"):
            kiosk.redraw()
            said = " ".join(texts(kiosk, "status.messages"))
            assert (
                f"The players' page cannot be served on port {port}: Address already in use."
                in said
            )
            drawn(broker)
            kiosk.settle()
            assert kiosk.page is None and kiosk.state is not None
