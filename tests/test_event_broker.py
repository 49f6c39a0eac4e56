"""A 17-player Conspiracy event across four gadget processes and a real mosquitto (CJ-1..CJ-5),
from the organiser's ``aetherbox event host`` to the final ranks, through the faults an event
meets: a table offline for half a round, the broker restarted mid-round, a message repeated and
one stale one published again, and a table trying to write another table's results.  Nothing is
lost and nothing counted twice: the organiser's export has every player once, placed as the
tables played it."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mosquitto import MISSING, Cable, Mosquitto

pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING or "mosquitto is installed")

PLAYERS = [f"P{i:02d}" for i in range(17)]
LOGINS = {
    "organiser": "org-secret",
    "watcher": "watch-secret",
    **{f"table{i}": f"secret-{i}" for i in range(1, 5)},
}
ASSIGNED = re.compile(
    r"^Event Spring: table (table\d) plays pod (\d), (?:group (\d)|(winners'|losers') group) "
    r"\(round (\d)\): (.*)\.$"
)
WAIT = 30.0


class Gadget:
    """``aetherbox console`` (or ``event host``) in its own process; its output lines collected
    by a thread, waited for with a timeout."""

    def __init__(self, folder: Path, login: str, port: int, args: list[str]) -> None:
        self.login = login
        config = folder / f"{login}.toml"
        config.write_text(
            f'[event]\nbroker = "127.0.0.1"\nport = {port}\ntable = "{login}"\npassword = "{LOGINS[login]}"\n'
            + ('join = "Spring"\n' if login != "organiser" else ""),
            encoding="utf-8",
        )
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "AETHERBOX_DATA_DIR": str(folder / f"{login}-data"),
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "display.cli",
                *args[:1],
                *args[1:],
                "--config",
                str(config),
                "--db",
                str(folder / f"{login}.sqlite3"),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.lines: list[str] = []
        self._news: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))
            self._news.put(line)

    def wait(self, wanted: Callable[[str], bool] | str, after: int = 0) -> str:
        """The first line from ``after`` on that is (or satisfies) ``wanted``."""
        test = (lambda line: line == wanted) if isinstance(wanted, str) else wanted
        deadline = time.monotonic() + WAIT
        while True:
            for line in self.lines[after:]:
                if test(line):
                    return line
            left = deadline - time.monotonic()
            if left <= 0 or self.process.poll() is not None:
                raise AssertionError(
                    f"{self.login} never said {wanted!r}; it said:\n"
                    + "\n".join(self.lines)
                    + "\n"
                    + (
                        self.process.stderr.read()
                        if self.process.poll() is not None and self.process.stderr
                        else ""
                    )
                )
            try:
                self._news.get(timeout=min(left, 0.2))
            except queue.Empty:
                pass

    def say(self, line: str, expect: Callable[[str], bool] | str) -> str:
        start = len(self.lines)
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.wait(expect, start)

    def ask(self, line: str, count: int) -> list[str]:
        """Send ``line``; the ``count`` lines it answers."""
        start = len(self.lines)
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        deadline = time.monotonic() + WAIT
        while len(self.lines) < start + count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.lines[start : start + count]

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Watcher:
    """The test's own paho clients: one logged in as ``watcher`` that keeps every report it sees,
    and, for each message a misbehaving network or table would send, one logged in as that table
    for as long as it takes (the broker has one connection per login: the table's own gadget is
    off it meanwhile, and connects again by itself)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.seen: list[tuple[str, bytes]] = []
        self.client = self._client(
            "watcher", lambda c, u, f, reason, p: c.subscribe("aetherbox/tables/#", qos=1)
        )
        self.client.on_message = lambda c, u, m: self.seen.append((m.topic, bytes(m.payload)))
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    @staticmethod
    def _client(login: str, connected: Callable[..., None]) -> Any:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"test-{login}", protocol=mqtt.MQTTv5
        )
        client.username_pw_set(login, LOGINS[login])
        client.on_connect = connected
        client.reconnect_delay_set(0.2, 1)
        return client

    def publish(self, login: str, messages: list[tuple[str, bytes]]) -> list[object]:
        """Send ``messages`` as ``login`` (QoS 1, retained); the broker's answers."""
        answers: dict[int, object] = {}
        up = threading.Event()
        client = self._client(login, lambda c, u, f, reason, p: up.set())
        client.on_publish = lambda c, u, mid, reason, p: answers.__setitem__(mid, reason)
        client.connect("127.0.0.1", self.port)
        client.loop_start()
        try:
            assert up.wait(WAIT)
            mids = [
                client.publish(topic, payload, qos=1, retain=True).mid
                for topic, payload in messages
            ]
            deadline = time.monotonic() + WAIT
            while not all(mid in answers for mid in mids) and time.monotonic() < deadline:
                time.sleep(0.02)
            return [answers[mid] for mid in mids]
        finally:
            client.disconnect()
            client.loop_stop()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def group_line(line: str) -> tuple[str, int, str, int, list[str]] | None:
    match = ASSIGNED.match(line)
    if match is None:
        return None
    table, pod, number, named, round_, players = match.groups()
    return table, int(pod), number or named.rstrip("'"), int(round_), players.split(", ")


def until(gadget: Gadget, line: str, wanted: Callable[[str], bool]) -> None:
    """Ask ``line`` again until an answer is ``wanted`` (news the gadget does not announce)."""
    deadline = time.monotonic() + WAIT
    while not any(wanted(answer) for answer in gadget.ask(line, 5)):
        assert time.monotonic() < deadline, f"{gadget.login} never answered {line!r} as wanted"
        time.sleep(0.1)


def out_one(table: Gadget, name: str) -> None:
    table.say(f"out {name}", lambda line: line.startswith(f"{name} leaves the group"))


@dataclass
class Event:
    """The broker, the four tables (table1's network through a cable that will fail), the
    organiser and the test's own client, and what the tables were given to play."""

    tmp_path: Path
    broker: Mosquitto
    cable: Cable
    tables: list[Gadget]
    organiser: Gadget
    watcher: Watcher
    groups: dict[str, list[str]] = field(default_factory=dict)  # round 1, per table
    second: dict[str, tuple[str, int, str, int, list[str]]] = field(default_factory=dict)  # round 2

    def assigned(self) -> None:
        """The organiser's set-up: pods (CJ-1) and groups (CJ-2), drawn for the four connected tables."""
        self.organiser.wait(
            "Event Spring: 17 players in 2 pods: pod 1: 9 (4 + 5); pod 2: 8 (4 + 4)."
        )
        self.organiser.wait(
            "Event Spring is at the broker, drawn for the tables table1, table2, table3, table4."
        )
        for table in self.tables:
            found = group_line(table.wait(lambda line: group_line(line) is not None))
            assert found is not None and found[0] == table.login and found[3] == 1
            self.groups[table.login] = found[4]
        assert sorted(n for names in self.groups.values() for n in names) == PLAYERS

    def round_one_through_faults(self) -> None:
        """Round 1: table1 loses its network before any of its group leaves (half a round
        offline); the broker restarts in the middle of table2's round."""
        tables, groups, organiser = self.tables, self.groups, self.organiser
        self.cable.cut()
        until(
            organiser,
            "tables",
            lambda line: line.startswith("table1 (offline): pod 1, Group 1 (round 1)"),
        )
        for name in groups["table1"][:2]:
            out_one(tables[0], name)
        out_one(tables[1], groups["table2"][0])
        self.broker.stop()
        out_one(tables[1], groups["table2"][1])  # recorded while there is no broker at all
        out_one(tables[2], groups["table3"][0])
        self.broker.start()
        for table in tables[1:]:
            table.wait(f"Connected to the event's broker at 127.0.0.1:{self.broker.port}.", after=1)
        out_one(tables[2], groups["table3"][1])
        for name in groups["table4"][:2]:
            out_one(tables[3], name)
        # Pod 2's round 1 is over (tables 3 and 4): its round 2 is drawn everywhere; pod 1's waits for table1.
        organiser.wait(
            lambda line: line.startswith("Event Spring, pod 2: round 1 is over; round 2: ")
        )
        assert not any(
            line.startswith("Event Spring, pod 1: round 1 is over") for line in organiser.lines
        )
        self.cable.mend()
        tables[0].wait(f"Connected to the event's broker at 127.0.0.1:{self.cable.port}.", after=1)
        organiser.wait(
            lambda line: line.startswith("Event Spring, pod 1: round 1 is over; round 2: ")
        )

    def round_two_given(self) -> None:
        """CJ-3: every table is given its round-2 group; those who left round 1 are the losers'."""
        for table in self.tables:
            found = group_line(
                table.wait(lambda line: (g := group_line(line)) is not None and g[3] == 2)
            )
            assert found is not None
            self.second[table.login] = found
        assert {t: (g[1], g[2]) for t, g in self.second.items()} == {
            "table1": (1, "winners"),
            "table2": (1, "losers"),
            "table3": (2, "winners"),
            "table4": (2, "losers"),
        }
        assert (
            len(self.second["table1"][4]) == 5 and len(self.second["table2"][4]) == 4
        )  # pod 1: 2 + 3 stay
        first_left = {name for t in self.tables for name in self.groups[t.login][:2]}
        assert set(self.second["table2"][4] + self.second["table4"][4]) == first_left

    def repeated_stale_and_forged(self) -> None:
        """table3's older report published again, then its newest twice, then the older once
        more; then a table writing another's results.  The standings do not move."""
        organiser, watcher = self.organiser, self.watcher
        before = organiser.ask("standings", 19)
        topic = next(
            seen
            for seen, _ in watcher.seen[:]
            if seen.startswith("aetherbox/tables/table3/events/spring/2/1/1/")
        )
        mine = [payload for seen, payload in watcher.seen[:] if seen == topic]
        assert len(mine) >= 3
        answers = watcher.publish(
            "table3", [(topic, payload) for payload in (mine[1], mine[-1], mine[-1], mine[1])]
        )
        assert not any(answer.is_failure for answer in answers)  # type: ignore[attr-defined]
        time.sleep(0.5)
        assert organiser.ask("standings", 19) == before
        # table3 (back on the broker) has sent its newest account again: what the broker keeps is
        # not the stale one (numbered anew, above what the broker held).
        newest = json.loads(mine[-1])
        deadline = time.monotonic() + WAIT
        while True:
            kept = json.loads([p for seen, p in watcher.seen[:] if seen == topic][-1])
            if kept["revision"] >= newest["revision"] and {**kept, "revision": 0} == {
                **newest,
                "revision": 0,
            }:
                break
            assert time.monotonic() < deadline
            time.sleep(0.05)
        forged = json.loads(mine[-1])
        forged["left"] = []
        (refused,) = watcher.publish(
            "table3", [(topic.replace("/table3/", "/table1/"), json.dumps(forged).encode())]
        )
        assert refused.is_failure and str(refused) == "Not authorized"  # type: ignore[attr-defined]
        assert organiser.ask("standings", 19) == before

    def round_two_played(self) -> dict[int, list[str]]:
        """Everyone leaves in seat order but the last seated; the places that makes, per pod."""
        expected: dict[int, list[str]] = {1: [], 2: []}
        for login in ("table1", "table2", "table3", "table4"):
            _, pod, _, _, seated = self.second[login]
            table = self.tables[int(login[-1]) - 1]
            for name in seated[:-1]:
                out_one(table, name)
            expected[pod] += [
                seated[-1],
                *reversed(seated[:-1]),
            ]  # winners' group first, then losers'
        self.organiser.wait("Event Spring is over: the final ranks are in.")
        return expected


def test_cj1_to_cj5_a_17_player_event_across_four_gadgets_and_mosquitto_through_its_faults(
    tmp_path: Path,
) -> None:
    broker = Mosquitto(tmp_path / "broker", LOGINS)
    broker.start()
    cable = Cable(broker.port)  # table1's network, which will fail
    gadgets: list[Gadget] = []
    watcher: Watcher | None = None
    try:
        tables = [
            Gadget(tmp_path, f"table{i}", cable.port if i == 1 else broker.port, ["console"])
            for i in range(1, 5)
        ]
        gadgets += tables
        for table in tables:
            table.wait(
                f"Connected to the event's broker at 127.0.0.1:{cable.port if table.login == 'table1' else broker.port}."
            )
        watcher = Watcher(broker.port)
        organiser = Gadget(
            tmp_path, "organiser", broker.port, ["event", "host", "Spring", *PLAYERS, "--seed", "7"]
        )
        gadgets.append(organiser)
        event = Event(tmp_path, broker, cable, tables, organiser, watcher)
        event.assigned()
        event.round_one_through_faults()
        event.round_two_given()
        event.repeated_stale_and_forged()
        expected = event.round_two_played()
        results = tmp_path / "results.json"
        organiser.say(f"export {results}", f"Wrote 17 result(s) to {results}.")
        exported = json.loads(results.read_text(encoding="utf-8"))["results"]
        assert [(row["pod"], row["place"], row["player"], row["status"]) for row in exported] == [
            (pod, place, name, "placed")
            for pod in (1, 2)
            for place, name in enumerate(expected[pod], start=1)
        ]
        assert sorted(row["player"] for row in exported) == PLAYERS  # everyone once
        # Any table shows the same standings as the organiser, once the last report reached it.
        tables[3].wait("Event Spring is over: the final ranks are in.")
        assert tables[3].ask("standings", 19) == organiser.ask("standings", 19)
    finally:
        if watcher is not None:
            watcher.close()
        for gadget in gadgets:
            gadget.close()
        cable.close()
        broker.stop()
