"""One round clock for every table (CJ-5, docs/decisions/0032): the organiser starts a round's
clock, each table starts its game's clock by its own clock when it hears it (one a day behind
too), a table away gets it when back, a group that starts later starts its clock with its game,
and the organiser's gadget announces ten minutes left, time up and round 2's start to every
table once, when due.  Played at the console through the in-process broker, as
``tests/test_event_link.py`` plays the rest."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from device.console.reader import announcer
from test_event_link import Event, Gadget, start

DAY = 86_400.0


class Clocked(Event):
    """The event's gadgets, table2's clock a day behind the others (a Pi without the time)."""

    def __init__(self, tmp_path: Path, count: int = 4) -> None:
        super().__init__(tmp_path, count)
        self.behind = [self.clock[0] - DAY]
        if count > 1:
            self.tables[1].close()
            (tmp_path / "behind").mkdir()
            self.tables[1] = Gadget(self.broker, tmp_path / "behind", "table2", 2, self.behind)

    def advance(self, seconds: float) -> None:
        self.clock[0] += seconds
        self.behind[0] += seconds

    def announce(self) -> None:
        """The organiser's console waiting for a line: what is due goes out, then to every table."""
        announcer(self.organiser.console)()
        self.pump()


@pytest.fixture
def event(tmp_path: Path) -> Clocked:
    made = Clocked(tmp_path)
    yield made  # type: ignore[misc]
    made.close()


def clock_of(gadget: Gadget) -> float | None:
    state = gadget.controller.state
    assert state is not None and state.conspiracy is not None
    return state.conspiracy.clock_started


def said(gadget: Gadget, line: str) -> int:
    return gadget.out.getvalue().splitlines().count(line)


def test_cj5_the_organiser_starts_round_ones_clock_and_each_table_starts_its_own_by_its_clock(
    event: Clocked,
) -> None:
    start(event)
    assert [clock_of(t) for t in event.tables] == [None] * 4
    assert event.tables[0].line("roundclock 1") == [
        "refused: Only the gadget that drew event Spring may rule on its rounds."
    ]
    assert event.organiser.line("roundclock 2") == [
        "refused: No pod of event Spring has drawn its round 2 yet: "
        "start round 2's clock once one has."
    ]
    at = datetime.fromtimestamp(event.clock[0]).strftime("%H:%M")
    assert event.organiser.line("roundclock 1") == [
        f"Event Spring: round 1's clock started for every table at {at} by this gadget's clock: 60 minutes."
    ]
    event.advance(2)
    event.pump()
    # Each table's clock started when it heard it, by its own clock: table2's is a day behind.
    assert [clock_of(t) for t in event.tables] == [
        event.clock[0],
        event.behind[0],
        event.clock[0],
        event.clock[0],
    ]
    for table in event.tables:
        assert (
            said(
                table,
                "Event Spring: the organiser started round 1's clock; this table's clock runs from now.",
            )
            == 1
        )
        assert said(table, "Round 1's clock is running: 60 minutes.") == 1
    assert event.tables[1].line("time")[0] == "60 minute(s) left in round 1."
    assert event.organiser.line("roundclock 1") == [
        "refused: Round 1's clock of event Spring is running already."
    ]
    # The start is the table's own change: undone there, it stays undone.
    event.tables[0].line("undo")
    event.pump()
    assert clock_of(event.tables[0]) is None
    # Kept in the draw: the organiser's ruling is there for whoever reads the draw later.
    plan = event.tables[3].session.plan
    assert plan is not None and [c.round for c in plan.clocks] == [1]


def test_cj5_a_table_away_when_the_clock_started_starts_it_when_back(event: Clocked) -> None:
    start(event)
    away = event.tables[2]
    away.link.cut()
    event.pump()
    event.organiser.line("roundclock 1")
    event.pump()
    assert clock_of(away) is None
    event.advance(300)
    away.link.mend()
    event.pump()
    assert clock_of(away) == event.clock[0]
    assert (
        said(
            away,
            "Event Spring: the organiser started round 1's clock while this table was away; this "
            "table's clock runs from now.",
        )
        == 1
    )


def test_cj5_the_organisers_announcements_reach_every_table_once_when_due(event: Clocked) -> None:
    start(event)
    event.organiser.line("roundclock 1")
    event.pump()
    begun = event.clock[0]
    assert event.organiser.session.deadline() == begun + 50 * 60
    event.advance(50 * 60 - 1)
    event.announce()
    ten = "Event Spring, round 1: 10 minutes left."
    assert not any(said(g, ten) for g in (event.organiser, *event.tables))
    late = event.tables[3]
    late.link.cut()
    event.advance(1)
    event.announce()
    event.announce()
    for gadget in (event.organiser, *event.tables[:3]):
        assert said(gadget, ten) == 1, gadget.name
    assert said(late, ten) == 0
    late.link.mend()  # its session at the broker kept the announcement
    event.pump()
    assert said(late, ten) == 1
    assert event.organiser.session.deadline() == begun + 60 * 60
    event.advance(10 * 60)
    event.announce()
    up = (
        "Event Spring, round 1: time is up. Extra turns: one more lap from the active player, then rank by life "
        "(CJ-5)."
    )
    for gadget in (event.organiser, *event.tables):
        assert said(gadget, up) == 1, gadget.name
    assert event.organiser.session.deadline() is None
    # Announcements are news, not state: none is kept at the broker for a gadget that comes later.
    assert not [topic for topic in event.broker.retained if topic.endswith("/news")]


def test_cj5_round_two_starts_on_the_organisers_clock_at_every_table_whenever_its_game_starts(
    event: Clocked,
) -> None:
    """Pod 2's round 2 is drawn first: the organiser starts round 2's clock; pod 1's tables,
    whose round 1 ends later, start their round-2 clocks with their games."""
    start(event)
    event.organiser.line("roundclock 1")
    event.pump()
    for table in event.tables[2:]:  # pod 2's round 1
        names = table.players()
        for name in names[: len(names) // 2]:
            table.line(f"out {name}")
    event.pump()
    assert event.organiser.session.clock_to_start() == 2
    assert [clock_of(t) for t in event.tables[2:]] == [
        None,
        None,
    ]  # round 2 games, no round-2 clock yet
    event.advance(60)
    event.organiser.line("roundclock 2")
    event.pump()
    assert [clock_of(t) for t in event.tables[2:]] == [event.clock[0]] * 2
    starts = "Event Spring: round 2 starts: 60 minutes on the clock."
    for gadget in (event.organiser, *event.tables):
        assert said(gadget, starts) == 1, gadget.name
    assert event.organiser.session.clock_to_start() is None
    event.advance(600)
    for table in event.tables[:2]:  # pod 1's round 1, later
        names = table.players()
        for name in names[: len(names) // 2]:
            table.line(f"out {name}")
    event.pump()
    assert [clock_of(t) for t in event.tables[:2]] == [event.clock[0], event.behind[0]]
    assert (
        said(
            event.tables[0],
            "Event Spring: the organiser's clock of round 2 runs; this group's clock starts "
            "with its game.",
        )
        == 1
    )


def test_cj5_a_table_with_two_groups_starts_the_second_ones_clock_with_its_game(
    tmp_path: Path,
) -> None:
    event = Clocked(tmp_path, count=2)
    try:
        start(event)
        event.organiser.line("roundclock 1")
        event.pump()
        table = event.tables[0]
        first = table.controller.game
        assert clock_of(table) == event.clock[0]
        event.advance(900)
        names = table.players()
        for name in names[: len(names) // 2]:
            table.line(f"out {name}")
        event.pump()
        assert table.controller.game != first and clock_of(table) == event.clock[0]
    finally:
        event.close()


def test_cj5_the_organiser_restarted_mid_round_announces_on_and_repeats_nothing(
    event: Clocked, tmp_path: Path
) -> None:
    start(event)
    event.organiser.line("roundclock 1")
    event.pump()
    event.advance(50 * 60)
    event.announce()
    event.organiser.close()
    event.advance(5 * 60)
    event.organiser = Gadget(event.broker, tmp_path, "organiser", 99, event.clock)
    event.pump()
    assert event.organiser.session.deadline() == event.clock[0] + 5 * 60
    event.advance(5 * 60)
    event.announce()
    assert said(event.tables[0], "Event Spring, round 1: 10 minutes left.") == 1
    assert (
        said(
            event.tables[0],
            "Event Spring, round 1: time is up. Extra turns: one more lap from the active "
            "player, then rank by life (CJ-5).",
        )
        == 1
    )
