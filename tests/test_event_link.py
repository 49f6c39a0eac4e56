"""An event across tables at the console, through an in-process broker with the shipped ACL's
rule (``drivers.broker.MemoryBroker``): the organiser hosts, tables join and play their groups,
reports flow, and the faults — a table offline, an undo, a stale or repeated report, a table
writing for another — leave the standings right.  ``tests/test_event_broker.py`` plays the same
through a real mosquitto and separate processes."""

from __future__ import annotations

import io
import json
import queue
import random
import time
from pathlib import Path

import pytest

from device.console import TABLES, Console
from device.controller import Controller
from device.event_link import EventSession, event_key, plan_topic, read_topic, report_topic
from device.inputs import BrokerMessage, InputEvent
from device.journal import Journal
from device.rules.conspiracy.tables import TableReport, fold
from drivers.broker import MemoryBroker, MemoryLink, matches, may_write

PLAYERS = " ".join(f"P{i:02d}" for i in range(17))


class Gadget:
    """A gadget at the console with its link to the in-process broker; ``pump`` hands it what
    arrived, as its loop would between typed lines."""

    def __init__(
        self, broker: MemoryBroker, folder: Path, name: str, seed: int, clock: list[float]
    ) -> None:
        self.name = name
        self.inputs: queue.Queue[InputEvent] = queue.Queue()
        self.journal = Journal(folder / f"{name}.sqlite3")
        self.controller = Controller(self.journal, rng=random.Random(seed), clock=lambda: clock[0])
        self.out = io.StringIO()
        self.console = Console(self.controller, self.out, TABLES)
        self.link: MemoryLink = broker.link(self.inputs, name)
        self.session = EventSession(
            self.controller, self.link, name, broker="memory", monotonic=lambda: clock[0]
        )
        self.console.event = self.session
        self.session.start()
        self.pump()

    def pump(self) -> list[str]:
        start = self.out.tell()
        while True:
            try:
                event = self.inputs.get_nowait()
            except queue.Empty:
                break
            self.console.follow(self.session.handle(event))
        return self._since(start)

    def line(self, text: str) -> list[str]:
        start = self.out.tell()
        self.console.run_line(text)
        return self._since(start)

    def _since(self, start: int) -> list[str]:
        self.out.seek(start)
        said = self.out.read().splitlines()
        self.out.seek(0, io.SEEK_END)
        return said

    def players(self) -> list[str]:
        assert self.controller.state is not None
        return [p.name for p in self.controller.state.players]

    def close(self) -> None:
        self.session.stop()
        self.journal.close()


class Event:
    def __init__(self, tmp_path: Path, count: int = 4) -> None:
        self.clock = [1_700_000_000.0]
        self.broker = MemoryBroker()
        self.tables = [
            Gadget(self.broker, tmp_path, f"table{i}", i, self.clock) for i in range(1, count + 1)
        ]
        self.organiser = Gadget(self.broker, tmp_path, "organiser", 99, self.clock)

    def pump(self) -> None:
        for _ in range(4):
            for gadget in (*self.tables, self.organiser):
                gadget.pump()

    def close(self) -> None:
        for gadget in (*self.tables, self.organiser):
            gadget.close()


@pytest.fixture
def event(tmp_path: Path) -> Event:
    made = Event(tmp_path)
    yield made  # type: ignore[misc]
    made.close()


def start(event: Event) -> list[str]:
    said = event.organiser.line(f"host Spring {PLAYERS} time_limit=60")
    for table in event.tables:
        table.line("join Spring")
    event.pump()
    return said


def round_one(event: Event) -> None:
    """Each round-1 group: its first seated players leave, one at a time."""
    for table in event.tables:
        names = table.players()
        for name in names[: len(names) // 2]:
            table.line(f"out {name}")
    event.pump()


def round_two(event: Event) -> None:
    for table in event.tables:
        names = table.players()
        for name in names[:-1]:
            table.line(f"out {name}")
    event.pump()


def test_cj1_cj2_the_organiser_hosts_and_each_table_is_given_its_group(event: Event) -> None:
    """CJ-1, CJ-2: the organiser's draw goes to the tables connected to the broker; each table
    that joins starts its group's game, seated as drawn, and says which group it plays."""
    said = start(event)
    assert said[:2] == [
        "Event Spring: 17 players in 2 pods: pod 1: 9 (4 + 5); pod 2: 8 (4 + 4).",
        "Event Spring is at the broker, drawn for the tables table1, table2, table3, table4.",
    ]
    assert [line.split(":")[0] for line in said[2:6]] == [
        "Pod 1, Group 1",
        "Pod 1, Group 2",
        "Pod 2, Group 1",
        "Pod 2, Group 2",
    ]
    assert said[6] == "Following event Spring."
    plan = event.organiser.session.plan
    assert plan is not None
    for table, group in zip(event.tables, plan.groups, strict=True):
        state = table.controller.state
        assert state is not None and tuple(table.players()) == group.players
        assert state.options["group"] == group.group and state.options["time_limit"] == 60
        assert table.out.getvalue().splitlines()[-3] == (
            f"Event Spring: table {table.name} plays pod {group.pod}, group {group.group} (round 1): "
            f"{', '.join(group.players)}."
        )
    assert event.organiser.line("tables")[1:] == [
        f"{g.table}: pod {g.pod}, Group {g.group} (round 1): {', '.join(g.players)}"
        for g in plan.groups
    ]


def test_cj3_round_two_is_drawn_on_every_gadget_once_a_pods_round_one_is_over(event: Event) -> None:
    """CJ-3: as soon as both round-1 groups of a pod have reported their end, every gadget shows
    the pod's round 2, and the tables of that pod start it."""
    start(event)
    round_one(event)
    plan = event.organiser.session.plan
    view = event.organiser.session.view
    assert plan is not None and view is not None
    second = [a for a in view.groups if a.round == 2]
    assert [(a.pod, a.group, a.table) for a in second] == [
        (1, "winners", "table1"),
        (1, "losers", "table2"),
        (2, "winners", "table3"),
        (2, "losers", "table4"),
    ]
    for table, group in zip(event.tables, second, strict=True):
        assert tuple(table.players()) == group.players
    news = [
        line
        for line in event.organiser.out.getvalue().splitlines()
        if "round 1 is over; round 2" in line
    ]
    assert len(news) == 2 and news[0].startswith(
        "Event Spring, pod 1: round 1 is over; round 2: winners' group: "
    )


def test_cj3_the_final_ranks_after_both_rounds_and_the_export_covers_the_event(
    event: Event, tmp_path: Path
) -> None:
    start(event)
    round_one(event)
    round_two(event)
    view = event.organiser.session.view
    assert view is not None and view.finished
    assert (
        "Event Spring is over: the final ranks are in."
        in event.organiser.out.getvalue().splitlines()
    )
    lines = event.organiser.line("standings")
    assert lines[0] == "Event Spring, pod 1:" and lines[10] == "Event Spring, pod 2:"
    winners = next(a for a in view.groups if a.key == (1, 2, "winners"))
    assert (
        lines[1]
        == f" 1  {winners.players[-1]}  (Group {_round1(view, winners.players[-1])} → Winners' group; placed)"
    )
    assert event.organiser.line(f"export {tmp_path / 'results.json'}") == [
        f"Wrote 17 result(s) to {tmp_path / 'results.json'}."
    ]
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["event"] == "Spring" and len(results["results"]) == 17
    first = results["results"][0]
    assert {
        k: first[k] for k in ("pod", "place", "player", "round2", "round2_table", "status")
    } == {
        "pod": 1,
        "place": 1,
        "player": winners.players[-1],
        "round2": "winners",
        "round2_table": "table1",
        "status": "placed",
    }
    assert [(r["pod"], r["place"]) for r in results["results"]] == [
        (1, p) for p in range(1, 10)
    ] + [(2, p) for p in range(1, 9)]
    # Every table sees the same ranks.
    assert event.tables[2].line("standings") == lines


def _round1(view: object, name: str) -> str:
    return next(a.group for a in view.groups if a.round == 1 and name in a.players)  # type: ignore[attr-defined]


def test_a_table_offline_plays_on_and_catches_up(event: Event) -> None:
    """A table that loses the network keeps playing on its journal; others see nothing of it
    until it is back, then everything, once."""
    start(event)
    table = event.tables[0]
    table.link.cut()
    event.pump()
    assert (
        event.organiser.line("tables")[1]
        == f"table1 (offline): pod 1, Group 1 (round 1): {_listed(table.players())}"
    )
    names = table.players()
    assert table.line(f"out {names[0]}")[0] == f"{names[0]} leaves the group."
    event.pump()
    view = event.organiser.session.view
    assert view is not None and view.report(view.plan.groups[0]) is not None
    assert view.report(view.plan.groups[0]).left == ()  # type: ignore[union-attr]
    table.link.mend()
    event.pump()
    view = event.organiser.session.view
    assert view is not None
    report = view.report(view.plan.groups[0])
    assert report is not None and [b.players for b in report.left] == [(names[0],)]
    assert event.organiser.line("tables")[1].startswith("table1: pod 1")


def _listed(names: list[str]) -> str:
    return ", ".join(names)


def test_an_undo_at_a_table_is_a_correction_not_a_second_result(event: Event) -> None:
    start(event)
    table = event.tables[1]
    names = table.players()
    table.line(f"out {names[0]}")
    table.line(f"out {names[1]}")  # the group of 5 is over: two have left
    event.pump()
    view = event.organiser.session.view
    assert view is not None and view.done(view.plan.groups[1])
    table.line("undo")
    table.line(f"out {names[2]}")
    event.pump()
    view = event.organiser.session.view
    assert view is not None
    report = view.report(view.plan.groups[1])
    assert report is not None and [b.players for b in report.left] == [(names[0],), (names[2],)]
    rows = {r.name: r.status for r in view.rows()}
    assert (rows[names[1]], rows[names[2]]) == ("playing", "left round 1")


def test_a_repeated_or_stale_report_changes_nothing(event: Event) -> None:
    """The same report twice, or an older one after a newer, leaves the standings as they were."""
    start(event)
    table = event.tables[0]
    names = table.players()
    topic_of = [t for t in event.broker.retained if t.startswith("aetherbox/tables/table1/events/")]
    table.line(f"out {names[0]}")
    old = event.broker.retained[topic_of[0]]
    table.line(f"out {names[1]}")
    event.pump()
    before = event.organiser.line("standings")
    new = event.broker.retained[topic_of[0]]
    for payload in (new, old, new, old):
        event.broker.publish("table1", topic_of[0], payload)
    event.pump()
    assert event.organiser.line("standings") == before
    assert (
        TableReport.model_validate_json(old).revision
        < TableReport.model_validate_json(new).revision
    )
    # The table has sent its newest account again: a gadget that connects now is given that one.
    assert event.broker.retained[topic_of[0]] == new


def test_every_gadget_folds_each_message_into_the_standings_as_a_fold_of_all_it_heard(
    event: Event,
) -> None:
    """A gadget folds each report into its last fold, so a message costs the same at 4 tables as
    at 32: after every message, each gadget's standings are those folded from scratch from every
    report it has heard, through an undo, a stale copy sent again and both rounds."""

    def pump_and_check() -> None:
        for _ in range(4):
            for gadget in (*event.tables, event.organiser):
                while not gadget.inputs.empty():
                    gadget.console.follow(gadget.session.handle(gadget.inputs.get_nowait()))
                    view = gadget.session.view
                    assert view is not None
                    heard = list(gadget.session.heard.everything(view.plan.id))
                    scratch = fold(view.plan, heard)
                    assert (
                        view.groups,
                        view.reports,
                        view.pods,
                        view.rows(),
                        view.tables(),
                        view.finished,
                    ) == (
                        scratch.groups,
                        scratch.reports,
                        scratch.pods,
                        scratch.rows(),
                        scratch.tables(),
                        scratch.finished,
                    )

    start(event)
    table = event.tables[1]
    names = table.players()
    topic = next(
        t for t in event.broker.retained if t.startswith("aetherbox/tables/table2/events/")
    )
    table.line(f"out {names[0]}")
    old = event.broker.retained[topic]
    table.line(f"out {names[1]}")
    table.line("undo")
    pump_and_check()
    event.broker.publish("table2", topic, old)
    pump_and_check()
    for table in event.tables:
        for name in table.players()[: len(table.players()) // 2]:
            table.line(f"out {name}")
            pump_and_check()
    assert (
        event.organiser.session.view is not None and len(event.organiser.session.view.groups) == 8
    )
    for table in event.tables:
        for name in table.players()[:-1]:
            table.line(f"out {name}")
            pump_and_check()
    assert event.organiser.session.view.finished


def test_a_table_cannot_write_another_tables_results(event: Event) -> None:
    """The broker refuses a table's message under another table's name; a report under its own
    name about another table's group counts for nothing."""
    start(event)
    victim = event.tables[0]
    names = victim.players()
    victim.line(f"out {names[0]}")
    event.pump()
    before = event.organiser.line("standings")
    topic = next(
        t for t in event.broker.retained if t.startswith("aetherbox/tables/table1/events/")
    )
    forged = TableReport.model_validate_json(event.broker.retained[topic])
    forged = forged.model_copy(update={"revision": (forged.revision[0] + 5, 1), "left": ()})
    event.tables[1].link.publish(topic, forged.model_dump_json().encode())
    assert event.tables[1].pump() == [
        f"The broker refused a message on {topic}: this gadget's login may not write there."
    ]
    own = topic.replace("/table1/", "/table2/")
    event.tables[1].link.publish(own, forged.model_dump_json().encode())
    event.pump()
    assert event.organiser.line("standings") == before
    assert ("table2", topic) in event.broker.refusals


def test_a_restarted_table_rejoins_and_resumes_its_game(event: Event, tmp_path: Path) -> None:
    """After a power cut the table's gadget rejoins the event it had joined and resumes its
    group's game (not a new one); its reports number on after those already sent."""
    start(event)
    table = event.tables[2]
    names = table.players()
    table.line(f"out {names[0]}")
    game = table.controller.game
    sent = event.broker.retained[next(t for t in event.broker.retained if "/table3/events/" in t)]
    table.close()
    again = Gadget(event.broker, tmp_path, "table3", 3, event.clock)
    event.tables[2] = again
    event.pump()
    assert again.session.joined == "Spring" and again.controller.game == game
    again.line(f"out {names[1]}")
    event.pump()
    latest = TableReport.model_validate_json(
        event.broker.retained[next(t for t in event.broker.retained if "/table3/events/" in t)]
    )
    assert latest.revision > TableReport.model_validate_json(sent).revision
    view = event.organiser.session.view
    assert view is not None and view.done(view.plan.groups[2])


def test_a_table_restarted_without_network_plays_on_and_reports_once_the_draw_is_back(
    event: Event, tmp_path: Path
) -> None:
    """A power cut, and the network still down when the gadget comes back: it resumes its game
    from the journal, knows its event (the draw it kept) and plays on; once the broker is back,
    what it played meanwhile goes out."""
    start(event)
    table = event.tables[3]
    names = table.players()
    table.close()
    again = Gadget.__new__(Gadget)  # the same gadget, started while its network is down
    again.name, again.inputs, again.out = "table4", queue.Queue(), io.StringIO()
    again.journal = Journal(tmp_path / "table4.sqlite3")
    again.controller = Controller(again.journal, rng=random.Random(4), clock=lambda: event.clock[0])
    again.console = Console(again.controller, again.out, TABLES)
    again.link = event.broker.link(again.inputs, "table4")
    again.link.cut()
    again.session = EventSession(again.controller, again.link, "table4", broker="memory")
    again.console.event = again.session
    again.session.start()
    event.tables[3] = again
    # The draw was kept in the journal: the table knows its event and its group while offline.
    assert again.session.plan is not None and again.session.plan == event.organiser.session.plan
    assert any(
        line.startswith("table4") and ", ".join(names) in line for line in again.line("tables")
    )
    assert again.line(f"out {names[0]}")[0] == f"{names[0]} leaves the group."
    event.pump()
    view = event.organiser.session.view
    assert view is not None and view.report(view.plan.groups[3]).left == ()  # type: ignore[union-attr]
    again.link.mend()
    event.pump()
    view = event.organiser.session.view
    assert view is not None
    assert [b.players for b in view.report(view.plan.groups[3]).left] == [(names[0],)]  # type: ignore[union-attr]


def test_hosting_needs_a_broker_tables_and_the_organisers_login(tmp_path: Path) -> None:
    out = io.StringIO()
    with Journal(tmp_path / "j.sqlite3") as journal:
        console = Console(Controller(journal, rng=random.Random(1)), out, TABLES)
        console.run_line(f"host Spring {PLAYERS}")
        console.run_line("tables")
    assert (
        out.getvalue().splitlines()
        == [
            "refused: No broker is set up: name it and this gadget's table under [event] in the configuration "
            "(broker = …, table = …).",
        ]
        * 2
    )
    lonely = Event(tmp_path / "lonely", count=0)
    try:
        assert lonely.organiser.line(f"host Spring {PLAYERS}") == [
            "refused: No table is connected to the broker: start the tables' gadgets, or name the tables with "
            "tables=…."
        ]
        assert lonely.organiser.line("host X A B") == [
            "refused: An event needs at least 3 players; 2 given."
        ]
    finally:
        lonely.close()


def test_a_table_may_not_publish_an_events_draw(event: Event) -> None:
    """Only the organiser's login hosts (the broker would refuse a table's draw as well)."""
    assert event.tables[0].line(f"host Spring {PLAYERS}") == [
        "refused: Only the organiser's login (organiser) may host an event; this gadget logs in as table table1."
    ]
    event.tables[0].link.publish(plan_topic("Spring"), b"{}")
    assert event.tables[0].pump() == [
        "The broker refused a message on aetherbox/events/spring/plan: this gadget's login may not write there."
    ]
    assert "aetherbox/events/spring/plan" not in event.broker.retained


def test_a_joined_table_waits_for_the_draw_and_a_gadget_not_in_it_is_told(tmp_path: Path) -> None:
    made = Event(tmp_path, count=2)
    try:
        assert made.tables[0].line("join Spring") == [
            "Joined event Spring as table table1.",
            "Event Spring: waiting for the organiser's draw from the broker.",
        ]
        made.organiser.line("host Spring Ann Ben Cid Dan Eve Fay tables=table2")
        made.pump()
        assert (
            made.tables[0].out.getvalue().splitlines()[-1]
            == "Event Spring has no table table1; its tables: table2."
        )
        assert made.tables[1].line("join") == [
            "refused: This gadget has joined no event: 'join NAME' joins one."
        ]
        made.tables[1].line("join spring")
        made.pump()
        state = made.tables[1].controller.state
        assert (
            state is not None and state.options["group"] == "1"
        )  # pod of 6: 3 + 3, both at table2
        assert made.tables[1].line("join")[0].startswith("table2: pod 1, Group 1 (round 1): ")
    finally:
        made.close()


def test_topics_are_read_back_as_they_are_written() -> None:
    assert event_key("Spring Cup — Łódź") == "spring-cup-łodz"
    assert event_key("a/b+c#") == "a-b-c"
    assert plan_topic("Spring Cup") == "aetherbox/events/spring-cup/plan"
    report = TableReport(
        plan="x", table="t1", pod=2, round=1, group="1", players=("A", "B"), revision=(1, 1)
    )
    topic = report_topic("Spring", report)
    assert topic == "aetherbox/tables/t1/events/spring/2/1/1"
    assert read_topic(topic) is not None and read_topic(topic).table == "t1"  # type: ignore[union-attr]
    assert read_topic("aetherbox/elsewhere") is None
    assert matches("aetherbox/#", topic) and not matches("aetherbox/+/plan", topic)
    assert (
        may_write("t1", topic) and not may_write("t2", topic) and not may_write("organiser", topic)
    )
    assert may_write("organiser", plan_topic("Spring")) and not may_write(
        "t1", plan_topic("Spring")
    )


def test_an_event_taken_off_the_broker_is_no_longer_offered(tmp_path: Path) -> None:
    made = Event(tmp_path, count=1)
    try:
        made.organiser.line("host Spring Ann Ben Cid Dan tables=table1")
        made.pump()
        assert [p.event for p in made.tables[0].session.offered()] == ["Spring"]
        made.broker.publish("organiser", plan_topic("Spring"), b"")
        made.pump()
        assert made.tables[0].session.offered() == []
    finally:
        made.close()


def test_a_message_that_cannot_be_read_is_left_out(event: Event) -> None:
    start(event)
    before = event.organiser.line("standings")
    for payload in (b"{", b'{"plan": 1}', "ü".encode()):
        event.organiser.console.follow(
            event.organiser.session.handle(
                BrokerMessage("aetherbox/tables/table1/events/spring/1/1/1", payload)
            )
        )
        event.organiser.console.follow(
            event.organiser.session.handle(BrokerMessage("aetherbox/events/spring/plan", payload))
        )
    assert event.organiser.line("standings") == before


def test_the_broker_has_said_all_it_held_once_this_gadgets_presence_comes_back_live(
    tmp_path: Path,
) -> None:
    """What waits for the broker's news (the organiser's ``host`` line) runs once the gadget's
    own presence, published after it subscribed, comes back — not on a stale copy the broker kept."""
    with Journal(tmp_path / "j.sqlite3") as journal:
        inputs: queue.Queue[InputEvent] = queue.Queue()
        session = EventSession(
            Controller(journal, rng=random.Random(1)),
            MemoryBroker().link(inputs, "organiser"),
            "organiser",
        )
        session.handle(BrokerMessage("aetherbox/tables/organiser/status", b"online", retained=True))
        assert not session.synced
        session.handle(BrokerMessage("aetherbox/tables/table1/status", b"online"))
        assert not session.synced and session.tables_online() == ["table1"]
        session.handle(BrokerMessage("aetherbox/tables/organiser/status", b"online"))
        assert session.synced


def _spare(event: Event, tmp_path: Path, login: str) -> Gadget:
    """A second gadget logging in as ``login``: a spare started with a copy of the table's
    configuration, its own journal (another gadget)."""
    folder = tmp_path / f"spare-{login}"
    folder.mkdir()
    spare = Gadget(event.broker, folder, login, 50, event.clock)
    return spare


def test_a_spare_with_a_tables_login_and_an_empty_game_hides_nothing_and_is_told(
    event: Event, tmp_path: Path
) -> None:
    """A spare logs in as table1 after table1 played its group to its end: table1's result still
    counts, and the spare, table1 and the organiser each say that two gadgets play as table1."""
    start(event)
    table = event.tables[0]
    names = table.players()
    for name in names[: len(names) // 2]:
        table.line(f"out {name}")
    event.pump()
    view = event.organiser.session.view
    assert view is not None and view.done(view.plan.groups[0])
    spare = _spare(event, tmp_path, "table1")
    spare.line("join Spring")
    event.pump()
    assert spare.session.gadget != table.session.gadget
    said = spare.out.getvalue()
    assert f"Another gadget ({table.session.gadget}) plays as table table1 too" in said, said
    assert spare.controller.state is None  # nothing to play: table1's group is over
    view = event.organiser.session.view
    assert view is not None and view.done(view.plan.groups[0])
    report = view.report(view.plan.groups[0])
    assert report is not None and report.gadget == table.session.gadget
    spare.line(
        "new duel A B"
    )  # the spare plays something else, as table1: it reports nothing of it
    event.pump()
    assert event.organiser.session.view.done(view.plan.groups[0])  # type: ignore[union-attr]
    spare.close()


def test_the_original_back_after_a_spare_finished_its_group_undoes_nothing(
    event: Event, tmp_path: Path
) -> None:
    """table2 loses its network with one player out; a spare logged in as table2 plays the group
    to its end; table2 comes back and sends its account again: the spare's finished group still
    counts, and table2 says its account of the group no longer does."""
    start(event)
    table = event.tables[1]
    names = table.players()
    table.line(f"out {names[0]}")
    event.pump()
    table.link.cut()
    spare = _spare(event, tmp_path, "table2")
    spare.line("join Spring")
    event.pump()
    spare.pump()
    assert spare.players() == names  # the spare was given the same group, and started its game
    for name in names[: len(names) // 2]:
        spare.line(f"out {name}")
    event.pump()
    view = event.organiser.session.view
    assert view is not None and view.done(view.plan.groups[1])
    table.link.mend()
    said: list[str] = []
    for _ in range(3):
        event.pump()
        said += table.pump()
    view = event.organiser.session.view
    assert view is not None and view.done(view.plan.groups[1])
    rows = {r.name: r.status for r in view.rows()}
    assert all(rows[name] == "left round 1" for name in names[: len(names) // 2])
    told = table.out.getvalue()
    assert "another gadget's account of it went further and counts" in told, said
    assert f"Another gadget ({spare.session.gadget}) plays as table table2 too" in told
    assert (
        f"Table table2 reports from more than one gadget ({', '.join(sorted([table.session.gadget, spare.session.gadget]))})"
        in event.organiser.out.getvalue()
    )
    spare.close()


def test_a_table_restored_from_an_old_backup_numbers_its_reports_above_the_brokers(
    event: Event, tmp_path: Path
) -> None:
    """A table's journal comes back from an old backup (its session number behind), on a Pi
    whose clock is a day behind: once the broker has said what it holds, the table numbers its
    reports above them, so its correction counts."""
    start(event)
    table = event.tables[2]
    names = table.players()
    table.line(f"out {names[0]}")
    table.line(f"out {names[1]}")
    event.pump()
    held = TableReport.model_validate_json(
        event.broker.retained[next(t for t in event.broker.retained if "/table3/events/" in t)]
    )
    gadget = table.session.gadget
    table.close()
    journal = Journal(tmp_path / "table3.sqlite3")
    journal.set_meta("event.session", "0")  # as the backup had it
    journal.close()
    event.clock[0] -= 86_400
    again = Gadget(event.broker, tmp_path, "table3", 3, event.clock)
    event.tables[2] = again
    event.pump()
    assert again.session.gadget == gadget and again.session.session > held.revision[0]
    again.line("undo")  # names[1] did not leave after all
    event.pump()
    view = event.organiser.session.view
    assert view is not None
    report = view.report(view.plan.groups[2])
    assert report is not None and [b.players for b in report.left] == [(names[0],)]


def test_a_damaged_draw_in_the_journal_is_left_for_the_brokers(
    event: Event, tmp_path: Path
) -> None:
    """The draw kept in the journal cannot be read (a flipped byte): the table starts without
    it, and has it again from the broker."""
    start(event)
    table = event.tables[0]
    table.close()
    journal = Journal(tmp_path / "table1.sqlite3")
    kept = journal.meta("event.draw")
    assert kept is not None and '"event":"Spring"' in kept
    journal.set_meta("event.draw", kept[: len(kept) // 2])
    journal.close()
    again = Gadget(event.broker, tmp_path, "table1", 1, event.clock)
    event.tables[0] = again
    event.pump()
    assert again.session.plan == event.organiser.session.plan


def test_the_export_gives_each_round_its_time_in_local_time_and_into_the_tables_round_clock(
    event: Event, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each round's leaving apart (not the last group's only), in the exporting gadget's time
    zone with its offset, and as minutes into that table's own round clock, which a table whose
    clock is a day behind still gets right."""
    monkeypatch.setenv("TZ", "Europe/Warsaw")
    time.tzset()
    try:
        start(event)
        behind = [event.clock[0] - 86_400.0]
        table1 = event.tables[0]
        table1.controller.clock = lambda: behind[0]  # a Pi without a real-time clock, offline
        for table in event.tables:
            table.line("clock")
        event.clock[0] += 600.0
        behind[0] += 600.0
        round_one(event)
        event.clock[0] += 300.0
        behind[0] += 300.0
        round_two(event)
        event.organiser.line(f"export {tmp_path / 'results.json'}")
    finally:
        monkeypatch.undo()
        time.tzset()
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    first_out = event.tables[0].session.view.plan.groups[0].players[0]  # type: ignore[union-attr]
    row = next(r for r in results if r["player"] == first_out)
    assert row["round1_table"] == "table1" and row["round1_left_after"] == 10.0
    assert row["round1_left_at"] == "2023-11-13T23:23:20+01:00"  # table1's clock, a day behind
    second = [r for r in results if r["round2_left_at"]]
    assert len(second) == 17 - 4 and all(r["round2_left_at"].endswith("+01:00") for r in second)
    assert {r["round2_left_after"] for r in second} == {""}  # no round-2 clock was started
    assert set(row) == {
        "event",
        "pod",
        "place",
        "player",
        "round1",
        "round1_table",
        "round1_left_at",
        "round1_left_after",
        "round2",
        "round2_table",
        "round2_left_at",
        "round2_left_after",
        "status",
        "rumble_picks",
    }
