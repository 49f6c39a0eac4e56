"""An event across tables as the players' page gets it, from a real fold: the organiser's draw of
17 players at four tables and real table reports, each built from a table's game as its gadget's
journal holds it."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from types import MappingProxyType

from device import game as rules
from device.events import Event as GameEvent
from device.rules.conspiracy.commands import LeaveGroup, StartClock
from device.rules.conspiracy.tables import (
    Assignment,
    EventPlan,
    EventView,
    TableReport,
    fold,
    plan_event,
    table_game,
    table_report,
)
from display.screens.event import EventInfo
from scenes_event import SEVENTEEN, TABLES

WALL = 1.7e9


def played(
    plan: EventPlan,
    group: Assignment,
    leave: Sequence[tuple[int, ...]],
    *,
    clock_at: float | None = None,
    revision: int = 1,
) -> TableReport:
    """``group``'s table's report after its players left in ``leave`` (seats; one tuple a change),
    its round clock started at ``clock_at``."""
    rng = random.Random(3)
    events = rules.decide(None, table_game(plan, group), rng)
    _, game = rules.play(None, events)
    kept: list[tuple[int, GameEvent]] = [(0, e) for e in events]
    commands: list[object] = ([StartClock(now=clock_at)] if clock_at is not None else []) + [
        LeaveGroup(seats=seats) for seats in leave
    ]
    for pos, command in enumerate(commands, start=1):
        events = rules.decide(game, command, rng)  # type: ignore[arg-type]
        _, game = rules.play(game, events)
        kept += [(pos, e) for e in events]
    times = {pos: WALL - 600 + 60 * pos for pos in range(len(commands) + 1)}
    return table_report(
        plan, group.table, game, kept, times, (1, revision), game=1, head=len(commands)
    )


def event(*news: Callable[[EventPlan], TableReport]) -> tuple[EventPlan, EventView]:
    """17 players at four tables: pod 2's round 1 over (its round 2 drawn), table2's clock running
    and one of its players gone; then the reports ``news`` make of the plan."""
    plan = plan_event(
        "Spring", SEVENTEEN, TABLES, {"time_limit": "60"}, random.Random(7), "spring-1"
    )
    pod_two = [a for a in plan.groups if a.pod == 2]
    reports = [
        played(plan, pod_two[0], [(0,), (2, 3)]),
        played(plan, pod_two[1], [(1,), (0,)]),
        played(plan, table2(plan), [(1,)], clock_at=WALL - 900),
    ]
    return plan, fold(plan, [*reports, *(made(plan) for made in news)])


def table2(plan: EventPlan) -> Assignment:
    return next(a for a in plan.groups if a.table == "table2")


def table2_over(plan: EventPlan) -> TableReport:
    """table2's next report: a second player gone, and its round-1 group with them (2 of 5 leave)."""
    return played(plan, table2(plan), [(1,), (2,)], clock_at=WALL - 900, revision=2)


def info_of(view: EventView, **more: object) -> EventInfo:
    online = MappingProxyType({"table1": False, "table2": True, "table3": True, "table4": True})
    return EventInfo(
        table="organiser",
        broker="127.0.0.1:1883",
        connected=True,
        joined="Spring",
        view=view,
        online=online,
        hosting=True,
        **more,
    )  # type: ignore[arg-type]
