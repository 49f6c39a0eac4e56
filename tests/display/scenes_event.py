"""Scenes of an event played across tables on the kiosk (CJ-1..CJ-5): this gadget is table2 at
an in-process broker (``drivers.broker.MemoryBroker``) where the organiser has drawn a 17-player
event; the other tables' reports come through the broker as they would from their gadgets."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from device import game as rules
from device.event_link import (
    ONLINE,
    OFFLINE,
    EventSession,
    News,
    news_topic,
    plan_topic,
    presence_topic,
    report_topic,
)
from device.events import Event as GameEvent
from device.inputs import Button
from device.rules.conspiracy.commands import LeaveGroup
from device.rules.conspiracy.tables import (
    Assignment,
    EventPlan,
    RoundClock,
    fold,
    plan_event,
    table_game,
    table_report,
)
from display.kiosk import Kiosk
from display.screens.event import EventPane
from display.ui import Focus, Go, Press, Turn
from drivers.broker import MemoryBroker

#: Seventeen players in four scripts: pods of 9 and 8 (CJ-1).
SEVENTEEN = (
    "Alice",
    "Юрий",
    "さくら",
    "Łukasz",
    "Ben",
    "Ольга",
    "はると",
    "Zofia",
    "Marek",
    "Аня",
    "ゆい",
    "Piotr",
    "Мария",
    "けんた",
    "Hanna",
    "Игорь",
    "みお",
)
TABLES = ("table1", "table2", "table3", "table4")
BROKER = "organiser.local:1883"
WALL = 1.7e9


def linked(k: Kiosk, table: str = "table2") -> MemoryBroker:
    """The kiosk as table ``table`` at a broker where the other tables are connected (table1 not)."""
    broker = MemoryBroker()
    session = EventSession(k.controller, broker.link(k.inputs, table), table, broker=BROKER)
    k.attach_event(session)
    session.start()
    for other in TABLES:
        if other != table:
            broker.publish(other, presence_topic(other), OFFLINE if other == "table1" else ONLINE)
    k.settle()
    return broker


def drawn(broker: MemoryBroker) -> EventPlan:
    """The organiser's draw of the event, published as the organiser's gadget publishes it."""
    plan = plan_event(
        "Spring", SEVENTEEN, TABLES, {"time_limit": "60"}, random.Random(7), "spring-1"
    )
    broker.publish("organiser", plan_topic(plan.event), plan.model_dump_json().encode())
    return plan


def reported(
    broker: MemoryBroker,
    plan: EventPlan,
    group: Assignment,
    leave: list[tuple[int, ...]],
    revision: tuple[int, int] | None = None,
    draw: tuple[Assignment, ...] = (),
    gadget: str = "",
) -> None:
    """``group``'s table reports its game after its players left in ``leave`` (seats; one tuple a
    moment); a round-2 group's report names the round 2 it was drawn in (``draw``)."""
    rng = random.Random(3)
    events = rules.decide(None, table_game(plan, group), rng)
    _, game = rules.play(None, events)
    kept: list[tuple[int, GameEvent]] = [(0, e) for e in events]
    for pos, seats in enumerate(leave, start=1):
        events = rules.decide(game, LeaveGroup(seats=seats), rng)
        _, game = rules.play(game, events)
        kept += [(pos, e) for e in events]
    report = table_report(
        plan,
        group.table,
        game,
        kept,
        {pos: WALL - 600 + 60 * pos for pos in range(len(leave) + 1)},
        revision or (1, len(leave) + 1),
        game=1,
        head=len(leave),
        draw=draw,
    )
    report = report.model_copy(update={"gadget": gadget})
    broker.publish(group.table, report_topic(plan.event, report), report.model_dump_json().encode())


def scene_event_join(k: Kiosk) -> None:
    """Before joining: the event at the broker that gives this table a group, offered."""
    broker = linked(k)
    drawn(broker)
    k.settle()
    k.dispatch(Go("event"))


def _played(k: Kiosk) -> None:
    """Joined (SELECT on the offer); pod 2's round 1 is over at tables 3 and 4 (round 2 drawn),
    table1 (offline) has not reported, and here one of this table's group has left."""
    broker = linked(k)
    plan = drawn(broker)
    k.settle()
    k.dispatch(Go("event"))
    k.dispatch(Press(Button.SELECT))
    k.settle()
    pod_two = [a for a in plan.groups if a.pod == 2]
    reported(broker, plan, pod_two[0], [(0,), (2, 3)])  # two at once: CJ-4
    reported(broker, plan, pod_two[1], [(1,), (0,)])
    k.settle()
    view = fold(plan, [])
    mine = next(a for a in view.groups if a.table == "table2")
    assert k.state is not None and tuple(p.name for p in k.state.players) == mine.players
    k.execute(LeaveGroup(seats=(1,)))
    k.settle()
    k.dispatch(Go("event"))


def scene_event(k: Kiosk) -> None:
    """The standings across pods, scrolled down to pod 2 (the encoder turned anticlockwise): its
    round-2 groups beside the round-1 ones, places not known yet."""
    _played(k)
    k.dispatch(Turn(-10))


def scene_event_tables(k: Kiosk) -> None:
    """The tables: what each plays now (pod 2's round 2 already), table1 offline."""
    _played(k)
    k.dispatch(Focus(1))


def hosting(
    k: Kiosk,
    players: tuple[str, ...] | list[str],
    tables: tuple[str, ...],
    options: dict[str, str] | None = None,
    monotonic: Callable[[], float] = time.monotonic,
) -> tuple[MemoryBroker, EventSession]:
    """The kiosk as the organiser's gadget at an in-process broker where ``tables`` are
    connected, having drawn the event Spring for ``players`` on its set-up screen's path (its
    round clocks counted on ``monotonic``)."""
    broker = MemoryBroker()
    session = EventSession(
        k.controller,
        broker.link(k.inputs, "organiser"),
        "organiser",
        broker=BROKER,
        monotonic=monotonic,
    )
    session.start()
    for table in tables:
        broker.publish(table, presence_topic(table), ONLINE)
    k.attach_event(session)
    k.settle()
    k.host_event("Spring", players, {"time_limit": "60"} if options is None else options)
    return broker, session


def corrected(k: Kiosk) -> EventPlan:
    """The organiser's gadget: pod 1's round 2 begun at table1 and table2, then table1 corrected
    its round-1 group (another player left second): the organiser is asked to rule."""
    broker, session = hosting(k, SEVENTEEN, TABLES)
    plan = session.plan
    assert plan is not None
    first, second = (a for a in plan.groups if a.pod == 1)
    reported(broker, plan, first, [(0,), (1,)])
    reported(broker, plan, second, [(0,), (1,)])
    k.settle()
    assert session.view is not None
    begun = session.view.round_two(1)
    for group in begun:
        reported(broker, plan, group, [], draw=begun)
    reported(broker, plan, first, [(0,), (2,)], revision=(2, 1))
    k.settle()
    k.dispatch(Go("event"))
    return plan


ELEVEN_AT_THREE = SEVENTEEN[:11]


def organising(k: Kiosk) -> EventPlan:
    """The organiser's gadget at an event of 11 at three tables: pod 1's losers' group is over at
    table2, pod 2's round 2 queues both its groups at table3 (its winners' group begun), and
    table1 reports from two gadgets (a spare started with its login)."""
    broker, session = hosting(k, ELEVEN_AT_THREE, TABLES[:3])
    plan = session.plan
    assert plan is not None
    for group in plan.groups:
        reported(
            broker,
            plan,
            group,
            [(seat,) for seat in range(len(group.players) // 2)],
            gadget="4f1c9a20" if group.table == "table1" else "",
        )
    k.settle()
    view = session.view
    assert view is not None
    winners1, losers1 = view.round_two(1)
    winners2, _ = view.round_two(2)
    reported(broker, plan, winners1, [(0,)], draw=view.round_two(1), gadget="4f1c9a20")
    reported(broker, plan, winners1, [], draw=view.round_two(1), gadget="b7e05d13")
    reported(
        broker,
        plan,
        losers1,
        [(seat,) for seat in range(len(losers1.players) - 1)],
        draw=view.round_two(1),
    )
    reported(broker, plan, winners2, [], draw=view.round_two(2))
    k.settle()
    k.dispatch(Go("event"))
    k.dispatch(EventPane("rulings"))
    return plan


def scene_event_organise(k: Kiosk) -> None:
    """The organiser's rulings tab: a queued group offered to the free table, and which of
    table1's two gadgets counts."""
    organising(k)


def scene_event_decide(k: Kiosk) -> None:
    """The organiser's EVENT screen after a correction of round 1 in round 2: what would change,
    redraw or keep."""
    corrected(k)


#: Where phones open the players' page in the scenes (the kiosk shows it; nothing is served).
PAGE_URL = "http://192.168.4.1:8080/"


def scene_event_phones(k: Kiosk) -> None:
    """The phones' tab of a gadget that serves the players' page: its QR code and address."""
    from drivers.page import PageServer

    k.attach_page(PageServer(8080, url=PAGE_URL))  # not started: the screen needs only its address
    _played(k)
    k.dispatch(Focus(1))
    k.dispatch(Focus(1))


def scene_event_clock(k: Kiosk) -> None:
    """The organiser's EVENT screen once the event is drawn: the chip that starts round 1's clock
    for every table, atop the standings."""
    hosting(k, SEVENTEEN, TABLES)
    k.settle()
    k.dispatch(Go("event"))


def scene_event_news(k: Kiosk) -> None:
    """Table2 playing its group: the organiser started round 1's clock (this table's runs from
    when it heard it), and its announcement of ten minutes left is on the status line."""
    broker = linked(k)
    plan = drawn(broker)
    k.settle()
    k.join_event("Spring")
    k.settle()
    clocked = plan.clocked(RoundClock(round=1, at=WALL - 3000))
    broker.publish("organiser", plan_topic(plan.event), clocked.model_dump_json().encode())
    k.settle()
    news = News(plan=plan.id, event=plan.event, round=1, kind="ten")
    broker.publish(
        "organiser", news_topic(plan.event), news.model_dump_json().encode(), retain=False
    )
    k.settle()
    k.dispatch(Go("conspiracy"))


EVENT_SCENES = {
    "event-join": scene_event_join,
    "event": scene_event,
    "event-tables": scene_event_tables,
    "event-decide": scene_event_decide,
    "event-organise": scene_event_organise,
    "event-phones": scene_event_phones,
    "event-clock": scene_event_clock,
    "event-news": scene_event_news,
}
