"""The kiosk at an event played across tables (CJ-1..CJ-5): joining with a key, a touch or the
GPIO buttons, the group it is given, the standings and tables as the broker tells them, round 2
started when the pod's round 1 is over, the organiser's set-up publishing the draw, and an idle
kiosk that sleeps though it is linked to a broker."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hands import Hands, Wired
from scenes import texts
from conftest import CLOCK
from scenes_event import (
    BROKER,
    TABLES,
    WALL,
    corrected,
    drawn,
    hosting,
    linked,
    organising,
    reported,
)

from device.game import GAME
from device.event_link import ONLINE, EventSession, plan_topic, presence_topic, report_topic
from device.commands import NewGame
from device.inputs import BrokerMessage, Button
from device.rules.conspiracy.commands import LeaveGroup
from device.game import decide, play
from device.rules.conspiracy.tables import EventPlan, fold, table_game, table_report
from display.kiosk import Kiosk
from display.targets import OffscreenTarget
from display.screens.event import (
    CountGadget,
    EventForm,
    EventPane,
    EventScroll,
    JoinEvent,
    MoveGroup,
    RulingsScroll,
)
from display.screens.setup import rows
from display.ui import Focus, Go, Press, Turn
from device.notify import Watchdog
from drivers.broker import MemoryBroker
from test_app_retry import Recorder
from scenes_conspiracy import focus, setup_form

MakeKiosk = Callable[..., Kiosk]


def joined(k: Kiosk) -> tuple[MemoryBroker, EventPlan]:
    broker = linked(k)
    plan = drawn(broker)
    k.settle()
    return broker, plan


def mine(plan: EventPlan, round_: int = 1) -> tuple[str, ...]:
    view = fold(plan, [])
    return next(a.players for a in view.groups if a.table == "table2" and a.round == round_)


def test_cj1_a_table_joins_with_keys_and_plays_the_group_it_is_given(make_kiosk: MakeKiosk) -> None:
    """E shows the EVENT screen, which offers the event at the broker that gives this table a
    group; SELECT (Tab) joins: the group's game starts, seated as drawn, on the GROUPS screen."""
    k = make_kiosk((800, 480), "en")
    _, plan = joined(k)
    hands = Hands(k)
    hands.keys(pygame.K_e)
    assert k.ui.screen == "event"
    assert hands.says("event.heading") == ["This gadget is table table2 and is in no event yet"]
    assert hands.says("event.join") == ["Join Spring"]
    hands.keys(pygame.K_TAB)
    players = mine(plan)
    assert k.state is not None and tuple(p.name for p in k.state.players) == players
    assert k.ui.screen == "conspiracy"
    said = k.ui.messages
    assert said[:2] == [
        "Joined event Spring as table table2.",
        f"Event Spring: table table2 plays pod 1, group 2 (round 1): {', '.join(players)}.",
    ]
    assert texts(k, "consp.heading") == ["Spring · Pod 1 · Round 1 · clock not started (60 min)"]
    assert texts(k, "header.headline") == [f"{players[0]}'s turn"]  # the table's own turns
    hands.keys(pygame.K_e)
    assert hands.says("event.heading") == ["Spring · table2 plays pod 1, group 2, round 1"]


def test_cj3_the_standings_and_tables_by_touch_round_two_drawn_as_reports_come(
    make_kiosk: MakeKiosk,
) -> None:
    """A touch joins and switches the tabs; the standings show round 2's groups as soon as a
    pod's round 1 is over (other tables' reports), the tables what each plays, offline ones marked."""
    k = make_kiosk((800, 480), "en")
    broker, plan = joined(k)
    hands = Hands(k)
    k.dispatch(Go("event"))
    k.redraw()
    hands.touch(JoinEvent("Spring"))
    pod_two = [a for a in plan.groups if a.pod == 2]
    reported(broker, plan, pod_two[0], [(0,), (1,)])
    reported(broker, plan, pod_two[1], [(3,), (2,)])
    k.settle()
    k.dispatch(Go("event"))
    k.redraw()
    rows_shown = texts(k, "event.row")
    assert rows_shown[0] == "Pod 1: 9 players"
    hands.touch(EventScroll(1))
    hands.touch(EventPane("tables"))
    assert k.ui.state_of(EventForm).pane == "tables"
    tables = texts(k, "event.row")
    first = next(a for a in plan.groups if a.table == "table1")
    assert tables[0] == f"table1 (offline): pod 1, group 1, round 1: {', '.join(first.players)}"
    assert k.event is not None and k.event.view is not None
    winners = k.event.view.current("table3")
    assert winners is not None and winners.key == (2, 2, "winners")
    assert tables[2] == f"table3: pod 2, winners' group, round 2: {', '.join(winners.players)}"
    hands.touch(EventPane("standings"))
    k.dispatch(Turn(-10))
    k.redraw()
    assert texts(k, "event.row")[0] == "Pod 2: 8 players"
    assert all("→" in row for row in texts(k, "event.row")[1:])


@pytest.fixture
def wired(make_kiosk: MakeKiosk, mock_factory: MockFactory) -> Iterator[Wired]:
    kiosk = make_kiosk((480, 320), "ru")
    joined(kiosk)
    hands = Wired(kiosk, mock_factory)
    yield hands
    hands.buttons.close()


def test_hw1_the_gpio_buttons_join_scroll_and_switch_the_tabs(wired: Wired) -> None:
    """Hands on the GPIO buttons only: a gadget linked to a broker that has joined no event
    starts on the EVENT screen; SELECT joins the event offered, the encoder scrolls the
    standings, SELECT switches to the tables."""
    k = wired.kiosk
    assert k.ui.screen == "event"
    wired.press(Button.SELECT)
    assert k.state is not None and k.ui.screen == "conspiracy"
    k.dispatch(Go("event"))
    k.redraw()
    assert texts(k, "event.tab.standings") == ["Места"]
    wired.back(3)  # anticlockwise: down the list
    assert k.ui.state_of(EventForm).first == 3
    wired.press(Button.SELECT)
    assert k.ui.state_of(EventForm) == EventForm(pane="tables", first=0)
    k.redraw()
    assert texts(k, "event.row")[1].startswith("table2: под №1, группа 2, раунд 1: ")


def test_cj3_a_tables_group_over_and_its_pod_done_starts_round_two_here(
    make_kiosk: MakeKiosk,
) -> None:
    """This table's round-1 group ends with its last loss; the other group of its pod had
    reported its end: round 2 is drawn at once and this table's round-2 game starts."""
    k = make_kiosk((800, 480), "en")
    broker, plan = joined(k)
    k.join_event("Spring")
    other = next(a for a in plan.groups if a.pod == 1 and a.table != "table2")
    reported(broker, plan, other, [(0,), (1,)])
    k.settle()
    k.execute(LeaveGroup(seats=(0,)))
    k.execute(LeaveGroup(seats=(1,)))
    assert (
        k.state is not None
        and k.state.options["round"] == 2
        and k.state.options["group"] == "losers"
    )
    assert k.ui.screen == "conspiracy"
    said = k.ui.messages
    assert any(
        line.startswith("Event Spring, pod 1: round 1 is over; round 2: winners' group: ")
        for line in said
    )
    assert any(
        line.startswith("Event Spring: table table2 plays pod 1, losers' group (round 2): ")
        for line in said
    )
    # The losers' group played out here: the GROUPS screen places them in the pod (6th to 9th),
    # as the event does, not 1st to 4th as if the group were the pod.
    k.redraw()
    assert texts(k, "consp.place") == ["–"] * 9
    for seat in range(3):
        k.execute(LeaveGroup(seats=(seat,)))
    k.dispatch(Go("conspiracy"))
    k.redraw()
    assert texts(k, "consp.place") == ["6th", "7th", "8th", "9th", "–", "–", "–", "–", "–"]
    assert texts(k, "consp.standing")[:4] == [k.state.player(s).name for s in (3, 2, 1, 0)]


def test_cj1_cj2_the_organisers_set_up_publishes_the_draw_for_the_tables(
    make_kiosk: MakeKiosk,
) -> None:
    """On the organiser's gadget the Conspiracy set-up asks where the event is played; at the
    tables (the default) it is drawn here for the connected tables and published, and the EVENT
    screen shows it; 'this gadget' starts the pods here as before."""
    k = make_kiosk((800, 480), "en")
    broker = MemoryBroker()
    session = EventSession(
        k.controller, broker.link(k.inputs, "organiser"), "organiser", broker=BROKER
    )
    k.attach_event(session)
    session.start()
    for table in TABLES:
        broker.publish(table, presence_topic(table), ONLINE)
    k.settle()
    k.dispatch(Go("setup"))
    for _ in range(20):
        if setup_form(k).base == "conspiracy":
            break
        k.dispatch(Turn(1))
    form = setup_form(k)
    assert form.hosting and ("where", "") in rows(form)
    k.redraw()
    focus(k, "where")
    k.redraw()
    assert texts(k, "setup.value.where") == ["the tables at the broker"]
    focus(k, "count")
    k.dispatch(Turn(17 - setup_form(k).count))
    focus(k, "start")
    k.dispatch(Press(Button.NEXT))
    assert plan_topic("Conspiracy") in broker.retained
    assert k.ui.screen == "event" and k.state is None
    k.redraw()
    assert texts(k, "event.heading") == ["Conspiracy"]
    assert texts(k, "event.row")[0] == "Pod 1: 9 players"
    assert k.ui.messages[:2] == [
        "Event Conspiracy: 17 players in 2 pods: pod 1: 9 (4 + 5); pod 2: 8 (4 + 4).",
        "Event Conspiracy is at the broker, drawn for the tables table1, table2, table3, table4.",
    ]
    # The tables report both rounds; the final ranks come up on the EVENT screen wherever it was.
    plan = session.plan
    assert plan is not None
    for group in plan.groups:
        reported(broker, plan, group, [(seat,) for seat in range(len(group.players) // 2)])
    k.settle()
    k.dispatch(Go("table"))
    assert k.event is not None and k.event.view is not None
    for group in [a for a in k.event.view.groups if a.round == 2]:
        reported(broker, plan, group, [(seat,) for seat in range(len(group.players) - 1)])
    k.settle()
    assert (
        k.ui.screen == "event"
        and "Event Conspiracy is over: the final ranks are in." in k.ui.messages
    )
    k.redraw()
    assert texts(k, "event.heading") == ["Conspiracy · final ranks"]
    assert texts(k, "event.row")[1].startswith("1st ")


def test_the_setup_on_this_gadget_still_starts_the_pods_here(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    broker = MemoryBroker()
    session = EventSession(
        k.controller, broker.link(k.inputs, "organiser"), "organiser", broker=BROKER
    )
    k.attach_event(session)
    session.start()
    k.settle()
    k.dispatch(Go("setup"))
    for _ in range(20):
        if setup_form(k).base == "conspiracy":
            break
        k.dispatch(Turn(1))
    focus(k, "where")
    k.dispatch(Turn(1))
    assert setup_form(k).here
    focus(k, "start")
    k.dispatch(Press(Button.NEXT))
    assert (
        k.state is not None
        and k.state.options["pod"] == 1
        and broker.retained.keys() <= {presence_topic("organiser")}
    )


def test_without_a_broker_there_is_no_event_screen(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    hands = Hands(k)
    hands.keys(pygame.K_e)
    assert k.ui.screen == "table"
    assert "EVENT" not in texts(k, "bar.button")
    k.dispatch(Go("setup"))
    assert not setup_form(k).hosting


def test_an_idle_kiosk_at_a_broker_sleeps_and_news_wakes_it(make_kiosk: MakeKiosk) -> None:
    """The link's thread only queues what arrives: with nothing timed on screen the loop sleeps
    without a deadline; a message on the queue is handled at the next turn, and news shown."""
    now = [1000.0]
    k = make_kiosk((800, 480), "en", clock=lambda: now[0])
    broker, plan = joined(k)
    k.join_event("Spring")
    k.dispatch(Go("event"))
    now[0] += 60.0  # every status line has expired
    k.step(block=False)
    assert k.deadline() is None
    frames = k.frames
    other = next(a for a in plan.groups if a.pod == 2)
    reported(broker, plan, other, [(0,)])
    assert not k.inputs.empty()
    k.step(block=False)
    assert k.frames == frames + 1 and k.inputs.empty()


def test_news_from_the_broker_is_kept_while_the_screen_is_away(make_kiosk: MakeKiosk) -> None:
    """Presses made at a dark screen are dropped; the broker's messages are not (the event goes on)."""
    k = make_kiosk((800, 480), "en")
    broker = linked(k)
    plan = drawn(broker)
    k.inputs.put(BrokerMessage("aetherbox/elsewhere", b""))
    k.inputs.put(Press(Button.NEXT))
    assert k.drop_blind_inputs() == 1
    assert k.event is not None and k.event.heard.plans["spring"] == plan


def test_the_organisers_gadget_restarted_opens_on_the_event_it_follows(
    make_kiosk: MakeKiosk,
) -> None:
    """The organiser's gadget plays no table: started again (a power cut) it opens on the EVENT
    screen of the event it hosted, not on "No game running"."""
    k = make_kiosk((800, 480), "en")
    broker, session = hosting(k, [f"P{i:02d}" for i in range(17)], TABLES, {})
    k.dispatch(Go("table"))
    session.stop()
    restarted = Kiosk(
        k.controller,
        OffscreenTarget((800, 480)),
        language="en",
        fonts=k.fonts,
        clock=lambda: CLOCK,
        wall=lambda: WALL,
    )
    again = EventSession(
        k.controller, broker.link(restarted.inputs, "organiser"), "organiser", broker=BROKER
    )
    restarted.attach_event(again)
    again.start()
    restarted.settle()
    assert restarted.state is None and restarted.ui.screen == "event"
    restarted.redraw()
    assert texts(restarted, "event.heading") == ["Spring"]


def test_the_tables_tab_shows_each_tables_round_time_left(make_kiosk: MakeKiosk) -> None:
    """A table whose round clock runs shows its time left on the tables tab, and the screen
    wakes for the next second it shows."""
    k = make_kiosk((800, 480), "en")
    broker = linked(k)
    plan = drawn(broker)
    k.settle()
    k.dispatch(Go("event"))
    k.dispatch(Press(Button.SELECT))  # joined
    k.settle()
    group = next(a for a in plan.groups if a.table == "table3")
    events = decide(None, table_game(plan, group), random.Random(3))
    _, game = play(None, events)
    report = table_report(plan, "table3", game, [(0, e) for e in events], {0: WALL}, (1, 1), game=1)
    report = report.model_copy(update={"clock_started": WALL - 600.5})
    broker.publish("table3", report_topic(plan.event, report), report.model_dump_json().encode())
    k.settle()
    k.dispatch(Go("event"))
    k.dispatch(Focus(1))
    k.redraw()
    rows = texts(k, "event.row")
    row = next((t for t in rows if t.startswith("table3")), rows)
    assert isinstance(row, str) and row.endswith(" · 50:00 left"), (
        row
    )  # a 60-minute round, 10 min 0.5 s gone: counted up
    assert k.deadline() == pytest.approx(CLOCK + 0.5)


def test_a_brokers_backlog_is_handled_in_turns_that_feed_the_watchdog_and_draw(
    make_kiosk: MakeKiosk,
) -> None:
    """Thousands of messages queued at once (a table flooding its namespace, a backlog after a
    long time away): the loop handles them a slice at a time, feeding the watchdog and drawing
    between slices, and ends with all of them handled."""
    k = make_kiosk((480, 320), "en", clock=time.monotonic)
    broker = linked(k)
    plan = drawn(broker)
    k.settle()
    group = next(a for a in plan.groups if a.table == "table3")
    events = decide(None, table_game(plan, group), random.Random(3))
    _, game = play(None, events)
    report = table_report(plan, "table3", game, [(0, e) for e in events], {0: WALL}, (1, 1), game=1)
    flood = 20_000
    for index in range(flood):
        junk = report.model_copy(update={"group": f"g{index}", "revision": (1, index)})
        k.inputs.put(
            BrokerMessage(
                f"aetherbox/tables/table3/events/spring/9/9/g{index}",
                junk.model_dump_json().encode(),
            )
        )
    notifier = Recorder()
    k.watchdog = Watchdog(notifier, interval=0.1)
    turns = 0
    while not k.inputs.empty():
        k.step(block=False)
        turns += 1
        assert turns < 1000
    assert turns >= 3  # in slices, not in one go
    assert notifier.sent.count("WATCHDOG=1") >= 2
    # Every one was looked at and let go (a group no draw has): none kept, none read as a report.
    assert k.event is not None and not k.event.heard.accounts and not k.event.heard.waiting


@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
def test_cj3_the_organiser_rules_on_a_correction_after_round_two_began_on_the_event_screen(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    """A correction of round 1 after round 2 began: the organiser's EVENT screen says what round 2
    would become and which groups change; → chooses, SELECT rules (keep), a touch rules (redraw)
    once another correction asks again."""
    k = make_kiosk(size, "en")
    plan = corrected(k)
    hands = Hands(k)
    assert k.event is not None and k.event.view is not None
    pending = k.event.view.folds[0].pending
    assert pending
    said = hands.says("event.decide")
    assert len(said) == 1 and said[0].startswith(
        "Pod 1: round 1 was corrected after round 2 began. Corrected, round 2 "
        f"would be winners' group: {', '.join(pending[0].players)}; "
    )
    assert said[0].endswith("Changed: winners' group at table1, losers' group at table2.")
    assert hands.says("event.rule") in (["Redraw round 2", "Keep round 2"], ["Redraw", "Keep"])
    hands.keys(pygame.K_RIGHT)
    hands.keys(pygame.K_TAB)  # SELECT: keep round 2 as drawn
    ruling = k.event.plan.redraw(1) if k.event.plan is not None else None
    assert ruling is not None and ruling.groups != pending and ruling.basis == pending
    assert k.ui.messages[-1] == (
        "Event Spring, pod 1: the organiser keeps round 2 as drawn; the correction of round "
        "1 stays in the standings of round 1 only."
    )
    k.redraw()
    assert hands.says("event.decide") == [] and k.ui.screen == "event"
    assert texts(k, "event.row")[0] == "Pod 1: 9 players"  # the standings, once the ruling is made
    assert k.event.plan is not None and plan.id == k.event.plan.id


def test_cj3_a_tables_round_two_group_over_names_no_winner(make_kiosk: MakeKiosk) -> None:
    """A table's losers' group over: its last standing is fifth of the pod, not its winner, and
    the winners' group may end before the losers' began; so the header says the group is over,
    and the one who left is marked as having left the group, not lost."""
    k = make_kiosk((480, 320), "en")
    k.execute(
        NewGame(
            formats=("conspiracy",),
            players=("Gia", "Kai"),
            first="Gia",
            options={"event": "Spring", "pod": "1", "group": "losers", "round": "2"},
        )
    )
    said = k.execute(LeaveGroup(seats=(0,)))
    assert said is not None and [str(m) for m in said.messages][:1] == ["Gia leaves the group."]
    assert k.state is not None and GAME.outcome(k.state) is None
    k.dispatch(Go("table"))
    k.redraw()
    assert texts(k, "header.headline") == ["Losers' group is over"]


def test_the_organiser_moves_a_queued_group_and_names_whose_account_counts_by_touch(
    make_kiosk: MakeKiosk,
) -> None:
    """The organiser's rulings tab offers the queued group to the table with nothing left to play,
    and at the table two gadgets report as, which counts: a touch on a chip rules; the tables tab
    names the gadgets and which counts."""
    k = make_kiosk((800, 480), "en")
    organising(k)
    hands = Hands(k)
    assert k.event is not None and k.event.view is not None
    chips = hands.says("event.organise")
    assert chips == [
        "Pod 2, losers' group → table2",
        "table1: count 4f1c9a20",
        "table1: count b7e05d13",
        "table1: the furthest counts",
    ]
    hands.touch(EventPane("tables"))
    shown = texts(k, "event.row")
    assert shown[0].startswith("table1: pod 1, winners' group, round 2: ")
    assert shown[0].endswith(" · gadgets 4f1c9a20, b7e05d13, counted: the furthest")
    hands.touch(EventPane("rulings"))
    hands.touch(MoveGroup(2, "losers", "table2"))
    assert (
        k.ui.messages[-1]
        == "Event Spring, pod 2: the organiser moved losers' group to table table2."
    )
    assert k.event.view.round_two(2)[1].table == "table2"
    hands.touch(CountGadget("table1", "b7e05d13"))
    assert k.event.plan is not None and k.event.plan.counts("table1") == "b7e05d13"
    winners = k.event.view.round_two(1)[0]
    assert k.event.view.report(winners).gadget == "b7e05d13"  # type: ignore[union-attr]
    k.redraw()
    assert hands.says("event.organise")[:1] == ["table1: count 4f1c9a20"]  # nothing queued any more


def test_the_organisers_rulings_that_do_not_fit_scroll_into_view(make_kiosk: MakeKiosk) -> None:
    """At 320×240 two of the organiser's rulings fit: a touch on the marker brings the hidden
    ones into view, each still a touch away."""
    k = make_kiosk((320, 240), "en")
    organising(k)
    hands = Hands(k)
    first = hands.says("event.organise")
    assert first == ["Pod 2, losers' group → table2", "table1: count 4f1c9a20"]
    hands.touch(RulingsScroll(2))
    assert hands.says("event.organise") == ["table1: count b7e05d13", "table1: the furthest counts"]
    hands.touch(CountGadget("table1", "b7e05d13"))
    assert (
        k.event is not None
        and k.event.plan is not None
        and k.event.plan.counts("table1") == "b7e05d13"
    )
