"""One round clock for every table on the kiosk (CJ-5, docs/decisions/0032): the organiser's
EVENT screen offers to start a round's clock, SELECT or a touch starts it, its loop sleeps until
the next announcement is due and then sends it; a table's kiosk starts its game's clock when it
hears the start and shows the organiser's announcements on its status line."""

from __future__ import annotations

from collections.abc import Callable

from device.event_link import EventSession, News, news_topic, plan_topic
from device.inputs import Button
from device.rules.conspiracy.tables import EventPlan, RoundClock
from display.kiosk import Kiosk
from display.screens.event import StartClock
from display.ui import Go, Press
from drivers.broker import MemoryBroker
from hands import Hands
from scenes import texts
from scenes_event import SEVENTEEN, TABLES, WALL, drawn, hosting, linked

MakeKiosk = Callable[..., Kiosk]


def organiser(k: Kiosk, now: list[float]) -> tuple[MemoryBroker, EventSession]:
    """The organiser's kiosk, its session counting on the kiosk's own clock, with the event drawn."""
    broker, session = hosting(k, SEVENTEEN, TABLES, monotonic=lambda: now[0])
    assert session.plan is not None
    k.settle()
    k.dispatch(Go("event"))
    k.redraw()
    return broker, session


def test_cj5_select_on_the_organisers_chip_starts_round_ones_clock_and_the_loop_wakes_to_announce(
    make_kiosk: MakeKiosk,
) -> None:
    now = [1000.0]
    k = make_kiosk((480, 320), "en", clock=lambda: now[0])
    broker, session = organiser(k, now)
    assert texts(k, "event.clock") == ["Start round 1's clock at every table"]
    k.dispatch(Press(Button.SELECT))
    plan = session.plan
    assert plan is not None and plan.clocks == (RoundClock(round=1, at=WALL),)
    assert k.ui.messages == [
        "Event Spring: round 1's clock started for every table at 22:13 by this gadget's "
        "clock: 60 minutes."
    ]
    k.redraw()
    assert texts(k, "event.clock") == []  # round 2's once a pod has drawn it
    # Asleep until ten minutes before the round's end, by the kiosk's clock; then it announces.
    now[0] += 60.0  # the status line has expired
    k.step(block=False)
    assert k.deadline() == 1000.0 + 50 * 60
    now[0] += 49 * 60
    k.step(block=False)
    assert k.ui.messages == ["Event Spring, round 1: 10 minutes left."]
    assert not [topic for topic in broker.retained if topic.endswith("/news")]
    assert session.deadline() == 1000.0 + 60 * 60


def test_cj5_a_touch_on_the_chip_starts_the_clock(make_kiosk: MakeKiosk) -> None:
    now = [1000.0]
    k = make_kiosk((800, 480), "ja", clock=lambda: now[0])
    _, session = organiser(k, now)
    assert texts(k, "event.clock") == ["全卓で1回戦の時計を開始"]
    Hands(k).touch(StartClock(1))
    plan = session.plan
    assert plan is not None and [c.round for c in plan.clocks] == [1]


def started(broker: MemoryBroker, plan: EventPlan) -> EventPlan:
    clocked = plan.clocked(
        RoundClock(round=1, at=WALL - 3600)
    )  # the organiser's clock: not this table's
    broker.publish("organiser", plan_topic(plan.event), clocked.model_dump_json().encode())
    return clocked


def test_cj5_a_tables_kiosk_starts_its_clock_by_its_own_and_shows_the_organisers_announcement(
    make_kiosk: MakeKiosk,
) -> None:
    k = make_kiosk((800, 480), "pl")
    broker = linked(k)
    plan = drawn(broker)
    k.settle()
    k.join_event("Spring")
    k.settle()
    plan = started(broker, plan)
    k.settle()
    state = k.state
    assert (
        state is not None
        and state.conspiracy is not None
        and state.conspiracy.clock_started == WALL
    )
    assert k.ui.messages[0] == (
        "Wydarzenie Spring: organizator uruchomił zegar rundy 1; zegar tego stołu chodzi od teraz."
    )
    news = News(plan=plan.id, event=plan.event, round=1, kind="ten")
    for _ in range(2):  # once, however often it comes
        broker.publish(
            "organiser", news_topic(plan.event), news.model_dump_json().encode(), retain=False
        )
    k.settle()
    assert k.ui.messages == ["Wydarzenie Spring, runda 1: zostało 10 minut."]
    k.dispatch(Go("conspiracy"))
    k.redraw()
    assert "Wydarzenie Spring, runda 1: zostało 10 minut." in " ".join(texts(k, "status.messages"))
