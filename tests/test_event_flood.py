"""CJ-1..CJ-5 at a broker one table floods: a login may write only under its own name, but there
it may write thousands of retained reports.  A gadget lets go, before it reads them, the reports
that cannot count (a group the draw does not give that table, a gadget past the few kept, a
report larger than any report); keeps a bounded few of an event not drawn yet, unread, until its
draw comes; and whatever the order of arrival, every gadget keeps the same accounts and folds the
same standings."""

from __future__ import annotations

import logging
import queue
import random
from pathlib import Path

import pytest

from device.controller import Controller
from device.event_link import (
    GADGETS_PER_GROUP,
    WAITING_PER_TABLE,
    EventSession,
    plan_topic,
    report_topic,
)
from device.inputs import BrokerMessage, InputEvent
from device.journal import Journal
from device.rules.conspiracy.tables import EventPlan, TableReport, plan_event
from drivers.broker import MemoryBroker
from helpers import played_report

TABLES = ("table1", "table2", "table3", "table4")
PLAYERS = [f"P{i:02d}" for i in range(17)]
WALL = 1_700_000_000.0


def session(folder: Path, table: str = "organiser") -> EventSession:
    journal = Journal(folder / f"{table}-{random.random()}.sqlite3")
    inputs: queue.Queue[InputEvent] = queue.Queue()
    return EventSession(
        Controller(journal, rng=random.Random(1)),
        MemoryBroker().link(inputs, table),
        table,
        broker="memory",
        join="Spring",
        gadget="ffffffff",
    )


def drawn() -> EventPlan:
    return plan_event("Spring", PLAYERS, TABLES, {"time_limit": "60"}, random.Random(7), "spring-1")


def report(
    plan: EventPlan, table: str, leave: int, gadget: str, revision: tuple[int, int] = (1, 1)
) -> TableReport:
    """``table``'s round-1 group with its first ``leave`` seated players out, as ``gadget`` tells it."""
    return played_report(plan, table, leave, gadget, revision, at=WALL)


def message(plan: EventPlan, made: TableReport) -> BrokerMessage:
    return BrokerMessage(
        report_topic(plan.event, made), made.model_dump_json().encode(), retained=True
    )


def plan_message(plan: EventPlan) -> BrokerMessage:
    return BrokerMessage(plan_topic(plan.event), plan.model_dump_json().encode(), retained=True)


def standings(gadget: EventSession) -> list[tuple[int, int | None, str, str]]:
    view = gadget.view
    assert view is not None
    return [(row.pod, row.place, row.name, row.status) for row in view.rows()]


def test_cj3_past_a_few_gadgets_a_group_keeps_the_lowest_ids_in_any_order_of_arrival(
    tmp_path: Path,
) -> None:
    """Seven gadgets report table2's group, the three with the highest ids further than the
    rest: every gadget keeps the same four — the lowest ids — and folds the same standings,
    whichever order they came in."""
    plan = drawn()
    gadgets = [f"{n:08x}" for n in (7, 3, 11, 5, 2, 13, 17)]
    accounts = [
        report(plan, "table2", leave, gadget)
        for leave, gadget in zip((0, 1, 2, 1, 0, 2, 2), gadgets)
    ]
    seen = []
    for order in range(6):
        mixed = accounts[:]
        random.Random(order).shuffle(mixed)
        gadget = session(tmp_path)
        gadget.handle(plan_message(plan))
        for made in mixed:
            gadget.handle(message(plan, made))
        kept = gadget.heard.accounts[("table2", plan.id, accounts[0].key)]
        seen.append((sorted(kept), standings(gadget)))
    assert (
        seen[0][0]
        == sorted(gadgets)[:GADGETS_PER_GROUP]
        == ["00000002", "00000003", "00000005", "00000007"]
    )
    assert all(each == seen[0] for each in seen)
    # The account that counts is the furthest of the four kept (one out), not a dropped one's two.
    assert sum(1 for _, _, _, status in seen[0][1] if status.startswith("left")) == 1


def test_cj1_reports_that_cannot_count_are_let_go_before_they_are_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A group its table does not play, a pod or round the draw has not, a table not at the
    event, a report larger than any: nothing kept, and nothing read (a payload that is no JSON
    would be logged as unreadable, were it read)."""
    plan = drawn()
    gadget = session(tmp_path)
    gadget.handle(plan_message(plan))
    mine = next(a for a in plan.groups if a.table == "table2")
    other = next(a for a in plan.groups if a.table == "table3")
    junk = [
        f"aetherbox/tables/table2/events/spring/{other.pod}/1/{other.group}/00000001",  # table3's group
        "aetherbox/tables/table2/events/spring/9/1/1/00000001",  # no pod 9
        f"aetherbox/tables/table2/events/spring/{mine.pod}/3/{mine.group}/00000001",  # no round 3
        f"aetherbox/tables/table2/events/spring/{mine.pod}/1/g7/00000001",  # no such group
        "aetherbox/tables/table9/events/spring/1/1/1/00000001",  # no table9 at the event
        f"aetherbox/tables/table2/events/spring/0x{mine.pod}/1/{mine.group}/00000001",  # not a number
    ]
    with caplog.at_level(logging.WARNING, logger="aetherbox.event"):
        for topic in junk:
            gadget.handle(BrokerMessage(topic, b"{not json", retained=True))
        big = report(plan, "table2", 1, "00000001").model_dump_json().encode()
        gadget.handle(
            BrokerMessage(
                report_topic(plan.event, report(plan, "table2", 1, "00000001")),
                big + b" " * 20_000,
                retained=True,
            )
        )
    assert not gadget.heard.accounts and not caplog.records
    # A report whose topic names another gadget, pod or group than it says is no gadget's own.
    made = report(plan, "table2", 1, "00000001")
    gadget.handle(
        BrokerMessage(
            report_topic(plan.event, made.model_copy(update={"gadget": "00000002"})),
            made.model_dump_json().encode(),
            retained=True,
        )
    )
    assert not gadget.heard.accounts
    gadget.handle(message(plan, made))
    assert list(gadget.heard.accounts) == [("table2", plan.id, mine.key)]


def test_cj1_a_report_before_its_draw_waits_unread_and_counts_when_the_draw_comes(
    tmp_path: Path,
) -> None:
    """The broker sends what it holds in its own order: a table's report may come before the
    draw it is of. It waits, unread, and the standings have it as soon as the draw comes — the
    same as when the draw came first."""
    plan = drawn()
    made = report(plan, "table3", 2, "00000001")
    late, early = session(tmp_path), session(tmp_path)
    late.handle(message(plan, made))
    assert late.view is None and list(late.heard.waiting["table3"]) == [
        report_topic(plan.event, made)
    ]
    late.handle(plan_message(plan))
    early.handle(plan_message(plan))
    early.handle(message(plan, made))
    assert not late.heard.waiting["table3"]
    assert standings(late) == standings(early)
    assert any(status.startswith("left") for _, _, _, status in standings(late))


def test_cj1_a_table_writing_under_many_events_names_holds_a_bounded_share(tmp_path: Path) -> None:
    """Reports of events nobody drew wait, a table's lowest topics only; a report taken off the
    broker (empty) stops waiting."""
    gadget = session(tmp_path)
    topics = [f"aetherbox/tables/table4/events/junk-{n:05d}/1/1/1/00000001" for n in range(3_000)]
    for topic in reversed(topics):
        gadget.handle(BrokerMessage(topic, b"{}", retained=True))
    assert sorted(gadget.heard.waiting["table4"]) == topics[:WAITING_PER_TABLE]
    gadget.handle(BrokerMessage(topics[0], b"", retained=True))
    assert topics[0] not in gadget.heard.waiting["table4"]
