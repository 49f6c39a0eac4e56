"""Conspiracy events played across tables (SPEC section 5): one group of one round at its own
table (CJ-3..CJ-5), the organiser's draw (CJ-1, CJ-2), the tables' reports and the standings
folded from them, in any order and with any repeats."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device import game as rules
from device.commands import Advance, ChangeLife, NewGame
from device.controller import Controller
from device.events import Event
from device.journal import Journal
from device.rules.conspiracy.play import group_sizes, pod_sizes
from device.rules.conspiracy.commands import CallTime, LeaveGroup, PassGroupTurn, StartClock
from device.rules.conspiracy.tables import (
    Assignment,
    EventPlan,
    EventView,
    Redraw,
    TableReport,
    fold,
    furthest,
    plan_event,
    table_game,
    table_report,
)
from device.state import GameState
from device.rules.conspiracy.state import ConspiracyState
from helpers import refused, state

PLAYERS = [f"P{i:02d}" for i in range(17)]
TABLES = ["table1", "table2", "table3", "table4"]


def texts(controller: Controller, command: object) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]  # type: ignore[arg-type]


def table(
    controller: Controller,
    players: tuple[str, ...],
    group: str = "2",
    round_: int = 1,
    **options: str,
) -> list[str]:
    return texts(
        controller,
        NewGame(
            formats=("conspiracy",),
            players=players,
            first=players[0],
            options={
                "event": "Spring",
                "pod": "1",
                "group": group,
                "round": str(round_),
                **options,
            },
        ),
    )


# --- one group at its own table ------------------------------------------------------------------


def test_cj3_a_tables_group_is_seated_as_drawn_and_plays_until_half_have_left(
    journal_path: Path,
) -> None:
    """CJ-3: a table's round-1 group keeps the event's seating (the first named goes first) and
    is over once g // 2 have left; round 2 is not started there (it is drawn where every table's
    results meet)."""
    with Journal(journal_path) as journal:
        c = Controller(journal, rng=random.Random(1))
        said = table(c, ("Ann", "Ben", "Cid", "Dan"))
        assert said[1] == (
            "Round 1, drawn at random: group 2: Ann, Ben, Cid, Dan. Sit in the order shown; the "
            "first named goes first. The group plays until 2 of 4 left. Time limit: 75 minutes."
        )
        consp = state(c).conspiracy
        assert consp is not None and [g.order for g in consp.groups] == [(0, 1, 2, 3)]
        assert texts(c, LeaveGroup(seats=(1,))) == [
            "Ben leaves the group.",
            "Group 2: Ben left (1 of 2 for round 1).",
        ]
        assert texts(c, LeaveGroup(seats=(3,))) == [
            "Dan leaves the group.",
            "Group 2: Dan left; round 1 is over for this group: Ann and Cid go to the winners' group.",
        ]
        consp = state(c).conspiracy
        assert (
            consp is not None
            and consp.round == 1
            and len(consp.rounds) == 1
            and consp.groups[0].done
        )
        assert refused(c, LeaveGroup(seats=(0,))) == (
            "Group 2 has finished round 1; round 2 starts when every group has finished."
        )


def test_cj3_a_round_two_group_of_two_plays_at_its_table_but_a_pod_needs_three(
    journal_path: Path,
) -> None:
    """CJ-1, CJ-3: a pod of 4 sends two players to each round-2 group, so a table's game may have
    two players; a whole pod still needs three."""
    with Journal(journal_path) as journal:
        c = Controller(journal, rng=random.Random(1))
        assert table(c, ("Ann", "Ben"), group="losers", round_=2)[1] == (
            "Round 2: losers' group: Ann, Ben. Sit in the order shown; the first named goes first. The group plays "
            "to the last player. Time limit: 75 minutes."
        )
        assert texts(c, LeaveGroup(seats=(0,)))[-1] == (
            "Losers' group: Ann left. Ben is last standing: the group's game is over."
        )
        pod = NewGame(formats=("conspiracy",), players=("Ann", "Ben"))
        with pytest.raises(Exception) as error:
            c.execute(pod)
        assert str(error.value) == "Conspiracy pod is for 3–10 players; this table has 2."


def test_cj5_a_tables_turns_pass_with_next_and_its_extra_lap_ends_back_at_the_active_player(
    journal_path: Path,
) -> None:
    """CJ-5: at a table's group the turn passes with NEXT (naming whose turn it is is refused);
    after time each turn is the lap's, and the lap ends when the turn is back where it was."""
    with Journal(journal_path) as journal:
        now = [0.0]
        c = Controller(journal, rng=random.Random(1), clock=lambda: now[0])
        table(c, ("Ann", "Ben", "Cid", "Dan"))
        assert (
            refused(c, PassGroupTurn(seat=1))
            == "This table plays one group of the event: pass the turn with 'next'."
        )
        c.execute(StartClock(now=0.0))
        c.execute(ChangeLife(seat=2, delta=-5))
        c.execute(Advance())
        assert texts(c, Advance()) == ["Turn 2: Ben's upkeep."]  # no group turn before time
        assert texts(c, CallTime(now=75 * 60.0))[0].endswith("ranked by life (Group 2 from Ben).")
        lap = [line for _ in range(8) for line in texts(c, Advance())]
        assert lap == [
            "Ben: main phase.",
            "Turn 3: Cid's upkeep.",
            "Group 2: Cid's turn (extra turns after time).",
            "Cid: main phase.",
            "Turn 4: Dan's upkeep.",
            "Group 2: Dan's turn (extra turns after time).",
            "Dan: main phase.",
            "Turn 5: Ann's upkeep.",
            "Group 2: Ann's turn (extra turns after time).",
            "Ann: main phase.",
            "Turn 6: Ben's upkeep.",
            "Group 2: Ben's turn (extra turns after time).",
            "Group 2: the extra turns are over; by life Dan and Ben go to the winners' group, Ann and Cid to the "
            "losers' group.",
        ]


def test_cj5_a_player_who_left_on_their_turn_hands_the_lap_to_the_next(journal_path: Path) -> None:
    """CJ-5: time called while the active player has just left: the lap starts with the next
    player still in, and ends when the turn comes back to them."""
    with Journal(journal_path) as journal:
        c = Controller(journal, rng=random.Random(1))
        table(c, ("Ann", "Ben", "Cid", "Dan", "Eve"))
        c.execute(StartClock(now=0.0))
        c.execute(LeaveGroup(seats=(0,)))
        assert texts(c, CallTime(now=99999.0))[0].endswith("(Group 2 from Ben).")
        lines = [line for _ in range(10) for line in texts(c, Advance())]
        turns = [
            line.split(":")[1].split("'")[0].strip()
            for line in lines
            if line.endswith("(extra turns after time).")
        ]
        assert turns == ["Ben", "Cid", "Dan", "Eve", "Ben"]
        back = [
            i
            for i, line in enumerate(lines)
            if line == "Group 2: Ben's turn (extra turns after time)."
        ][-1]
        assert lines[back + 1].startswith("Group 2: the extra turns are over")


# --- the organiser's draw (CJ-1, CJ-2) -------------------------------------------------------------


def test_cj1_cj2_the_draw_gives_every_round_one_group_a_table() -> None:
    """CJ-1, CJ-2: 17 players in pods of 9 and 8, each pod's groups drawn by its own set-up; one
    table per group, and each pod's round 2 at its round-1 tables."""
    plan = plan_event("Spring", PLAYERS, TABLES, {"time_limit": "60"}, random.Random(3), "id1")
    assert [len(pod) for pod in plan.pods] == pod_sizes(17)
    assert [(a.pod, a.group, len(a.players), a.table) for a in plan.groups] == [
        (1, "1", 4, "table1"),
        (1, "2", 5, "table2"),
        (2, "1", 4, "table3"),
        (2, "2", 4, "table4"),
    ]
    assert plan.round2_tables == (("table1", "table2"), ("table3", "table4"))
    for index, pod in enumerate(plan.pods):
        seated = [name for a in plan.groups if a.pod == index + 1 for name in a.players]
        assert sorted(seated) == sorted(pod)  # every player in one group
    game = table_game(plan, plan.groups[1])
    assert game.players == plan.groups[1].players and game.first == plan.groups[1].players[0]
    assert game.options == {
        "time_limit": "60",
        "event": "Spring",
        "pod": "1",
        "round": "1",
        "group": "2",
    }


def test_cj1_fewer_tables_than_groups_play_them_one_after_another() -> None:
    plan = plan_event("Spring", PLAYERS, ["a", "b"], {}, random.Random(3), "id1")
    assert [a.table for a in plan.groups] == ["a", "b", "a", "b"]
    single = plan_event("Small", PLAYERS[:5], ["a", "b"], {}, random.Random(3), "id2")
    assert [a.table for a in single.groups] == ["a"] and single.round2_tables == (("a", "a"),)


@pytest.mark.parametrize(
    ("tables", "said"),
    [
        ([], "An event across tables needs at least one table to play at."),
        (["table 1"], "'table 1' cannot name a table: use 1 to 32 letters, digits, '-' or '_'."),
        (["t1", "T1"], "Table 'T1' is named twice."),
    ],
)
def test_cj1_tables_are_named_plainly_and_once(tables: list[str], said: str) -> None:
    with pytest.raises(Exception) as error:
        plan_event("Spring", PLAYERS, tables, {}, random.Random(3), "id1")
    assert str(error.value) == said


def test_cj1_the_draw_refuses_what_an_event_on_one_gadget_refuses() -> None:
    with pytest.raises(Exception) as error:
        plan_event("Spring", ["Ann", "Ben", "Ann", "Dan"], TABLES, {}, random.Random(3), "id1")
    assert str(error.value) == "Ann is named twice in the event."


# --- reports and the fold ------------------------------------------------------------------------


def played(
    plan: EventPlan,
    assignment: Assignment,
    order: list[list[int]],
    revision: int,
    rng: random.Random,
    table: str | None = None,
    draw: tuple[Assignment, ...] = (),
) -> TableReport:
    """A table's report after its group's players left in ``order`` (seats; a list is one moment)."""
    events = rules.decide(None, table_game(plan, assignment), rng)
    _, game = rules.play(None, events)
    kept: list[tuple[int, Event]] = [(0, e) for e in events]
    for pos, seats in enumerate(order, start=1):
        try:
            events = rules.decide(game, LeaveGroup(seats=tuple(seats)), rng)
        except Exception:
            break
        _, game = rules.play(game, events)
        kept += [(pos, e) for e in events]
    times = {pos: 1000.0 + pos for pos in range(len(order) + 1)}
    return table_report(
        plan,
        table or assignment.table,
        game,
        kept,
        times,
        (1, revision),
        game=1,
        head=len(order),
        draw=draw,
    )


def leave_in_seat_order(assignment: Assignment) -> list[list[int]]:
    count = len(assignment.players)
    return [[seat] for seat in range(count // 2 if assignment.round == 1 else count - 1)]


def event_played(plan: EventPlan, rng: random.Random) -> list[TableReport]:
    """Every group of the event played to its end, round 2 drawn from round 1's reports."""
    reports = [played(plan, a, leave_in_seat_order(a), 1, rng) for a in plan.groups]
    view = fold(plan, reports)
    reports += [
        played(plan, a, leave_in_seat_order(a), 2, rng, draw=view.round_two(a.pod))
        for a in view.groups
        if a.round == 2 and len(a.players) > 1
    ]
    return reports


def test_cj3_cj4_the_fold_ranks_every_pod_as_a_pod_game_would() -> None:
    """CJ-3, CJ-4: round 2 appears once every round-1 group of a pod is done, and the pods' final
    places are those of the pod's game: winners' group first, last standing first."""
    rng = random.Random(5)
    plan = plan_event("Spring", PLAYERS, TABLES, {}, rng, "id1")
    first = [played(plan, a, leave_in_seat_order(a), 1, rng) for a in plan.groups]
    assert [a.round for a in fold(plan, first[:3]).groups] == [
        1,
        1,
        1,
        1,
        2,
        2,
    ]  # pod 1 done, pod 2 not
    view = fold(plan, event_played(plan, rng))
    assert view.finished
    rows = view.rows()
    assert [(r.pod, r.place) for r in rows] == [(1, p) for p in range(1, 10)] + [
        (2, p) for p in range(1, 9)
    ]
    winners = next(a for a in view.groups if a.key == (1, 2, "winners"))
    # Everyone left in seat order: the last seat is last standing, then the others from the back.
    assert [r.name for r in rows[:5]] == list(reversed(winners.players))
    assert [r.tables for r in rows if r.name == winners.players[0]] == [
        (next(a.table for a in plan.groups if winners.players[0] in a.players), "table1")
    ]
    assert {t.table: (t.playing, t.finished) for t in view.tables()} == {
        t: (None, True) for t in TABLES
    }


def test_cj4_players_who_left_together_are_one_report_entry_at_one_journal_change() -> None:
    rng = random.Random(2)
    plan = plan_event("Spring", PLAYERS, TABLES, {}, rng, "id1")
    report = played(plan, plan.groups[1], [[0, 3]], 1, rng)
    assert [(b.players, b.pos, b.at) for b in report.left] == [
        ((plan.groups[1].players[0], plan.groups[1].players[3]), 1, 1001.0)
    ]
    assert report.done


def test_a_newer_report_corrects_an_older_one_and_stale_or_foreign_ones_change_nothing() -> None:
    """An undo at a table is a newer report without what was undone; an older report arriving
    late, a repeat, or a report of a group from a table that does not play it count for nothing."""
    rng = random.Random(4)
    plan = plan_event("Spring", PLAYERS, TABLES, {}, rng, "id1")
    group = plan.groups[0]
    wrong = played(plan, group, [[0], [1]], 1, rng)
    corrected = played(plan, group, [[2], [1]], 2, rng)
    view = fold(plan, [corrected, wrong, wrong])
    assert view.report(group) == corrected
    record = view.pods[0].part(ConspiracyState).groups[0]
    assert [plan.pods[0][s] for batch in record.left for s in batch] == [
        group.players[2],
        group.players[1],
    ]
    foreign = played(plan, group, [[3], [2]], 9, rng, table="table2")
    assert fold(plan, [corrected, foreign]).report(group) == corrected
    other_plan = played(plan, group, [[3], [2]], 9, rng).model_copy(update={"plan": "earlier"})
    assert fold(plan, [corrected, other_plan]).report(group) == corrected


def standings_of(plan: EventPlan, reports: list[TableReport]) -> object:
    view = fold(plan, reports)
    return (
        [(r.pod, r.place, r.name, r.groups, r.status, r.picks) for r in view.rows()],
        view.groups,
        [t for t in view.tables()],
    )


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=9, max_value=24))
def test_the_standings_are_the_same_for_any_order_and_any_repeats_of_the_reports(
    rnd: random.Random, count: int
) -> None:
    """Whatever order the reports arrive in, with repeats and with the older reports of each
    group among them, the standings are the same."""
    players = [f"P{i:02d}" for i in range(count)]
    tables = [f"t{i}" for i in range(1 + rnd.randrange(6))]
    plan = plan_event("Fuzz", players, tables, {}, random.Random(rnd.getrandbits(32)), "fz")
    rng = random.Random(rnd.getrandbits(32))
    early = [played(plan, a, [[0]], 1, rng) for a in plan.groups]  # an early account of each group
    final = event_played(plan, rng)
    final = [r.model_copy(update={"revision": (1, 10 + r.revision[1])}) for r in final]
    expected = standings_of(plan, final)
    mixed = early + final + rnd.sample(final, k=min(len(final), 5))
    rnd.shuffle(mixed)
    assert standings_of(plan, mixed) == expected
    assert fold(plan, mixed).finished
    # Folded as a gadget folds them, one message at a time from the fold before: the same.
    view = None
    for count in range(1, len(mixed) + 1):
        view = fold(plan, mixed[:count], view)
    assert (
        view is not None
        and view.rows() == fold(plan, mixed).rows()
        and view.groups == fold(plan, mixed).groups
    )


def everything(view: EventView) -> object:
    """All a gadget's screens and console take from a fold."""
    return (
        view.groups,
        dict(view.reports),
        view.pods,
        view.rows(),
        view.tables(),
        view.finished,
        [view.done(a) for a in view.groups],
        [view.current(t) for t in view.plan.tables],
    )


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=9, max_value=30))
def test_folding_the_reports_one_message_at_a_time_is_folding_them_all_from_scratch(
    rnd: random.Random, count: int
) -> None:
    """A gadget folds each message into the fold before it (only the pods with news are folded
    again): whatever comes, in any order — repeats, stale reports after newer ones, corrections
    (an undo), round 2's reports before round 1 is over there, reports of another event or of a
    group from a table that does not play it — it has the fold of every report from scratch."""
    players = [f"P{i:02d}" for i in range(count)]
    tables = [f"t{i}" for i in range(1 + rnd.randrange(8))]
    plan = plan_event("Fuzz", players, tables, {}, random.Random(rnd.getrandbits(32)), "fz")
    rng = random.Random(rnd.getrandbits(32))
    final = event_played(plan, rng)
    final = [r.model_copy(update={"revision": (2, 10 + r.revision[1])}) for r in final]
    early = [played(plan, a, [[0]], 1, rng) for a in plan.groups]
    undone = [
        r.model_copy(update={"revision": (2, 30), "left": r.left[:1], "done": False})
        for r in rnd.sample(final, k=2)
    ]
    redone = [r.model_copy(update={"revision": (2, 40)}) for r in undone]
    # Two accounts of one group with one revision (a table restored from an old backup): any
    # order of arrival keeps the same one.
    twins = [r.model_copy(update={"left": (), "done": False}) for r in redone]
    group = plan.groups[0]
    strays = [
        played(plan, group, [[1]], 50, rng, table=f"x{rnd.randrange(3)}"),
        played(plan, group, [[1]], 50, rng).model_copy(update={"plan": "earlier"}),
    ]
    pool = early + final + undone + redone + twins + strays
    arrived = [*pool, *(rnd.choice(pool) for _ in range(rnd.randrange(len(pool))))]
    rnd.shuffle(arrived)
    view = fold(plan, [])
    newest: dict[tuple[str, tuple[int, int, str], str], TableReport] = {}
    for seen, report in enumerate(arrived, start=1):
        before = view
        view = fold(plan, [report], view)
        assert (
            everything(view)
            == everything(fold(plan, arrived[:seen]))
            == everything(fold(plan, reversed(arrived[:seen])))
        )
        # A pod the message is not about is taken as it was, not folded again.
        assert all(
            now is then
            for now, then in zip(view.folds, before.folds, strict=True)
            if now.pod != report.pod
        )
        # Each group counts its own table's newest account of it, if that is about its players.
        slot = (report.plan, report.key, report.table)
        held = newest.get(slot)
        if held is None or (report.revision, report.model_dump_json()) > (
            held.revision,
            held.model_dump_json(),
        ):
            newest[slot] = report
        for group in view.groups:
            counted = newest.get((plan.id, group.key, group.table))
            assert view.report(group) == (
                counted if counted is not None and counted.fits(group) else None
            )
    # Folded in two batches, split anywhere: the same again.
    split = rnd.randrange(len(arrived) + 1)
    assert everything(fold(plan, arrived[split:], fold(plan, arrived[:split]))) == everything(view)


def test_a_repeated_stale_or_stray_report_leaves_the_fold_as_it_was() -> None:
    """Nothing is folded again for a message with no news; news of one pod leaves the others."""
    rng = random.Random(7)
    plan = plan_event("Spring", PLAYERS, TABLES, {}, rng, "id1")
    group = plan.groups[0]
    old = played(plan, group, [[0]], 1, rng)
    new = played(plan, group, [[0], [1]], 2, rng)
    view = fold(plan, [new])
    for stale in (
        new,
        old,
        new.model_copy(update={"plan": "earlier"}),
        new.model_copy(update={"pod": 9}),
    ):
        assert fold(plan, [stale], view) is view
    first = fold(plan, [old])
    second = fold(plan, [new], first)
    assert second.folds[0] is not first.folds[0] and second.folds[1] is first.folds[1]
    assert second.report(group) == new


def test_the_group_sizes_an_event_draws_are_the_pods_groups() -> None:
    for count in (9, 11, 17, 32):
        plan = plan_event(
            "Sizes", [f"P{i:02d}" for i in range(count)], TABLES, {}, random.Random(count), "s"
        )
        assert [len(a.players) for a in plan.groups] == [
            g for size in pod_sizes(count) for g in group_sizes(size)
        ]


def test_a_report_is_made_from_a_tables_game_only() -> None:
    plan = plan_event("Spring", PLAYERS, TABLES, {}, random.Random(3), "id1")
    game: GameState = rules.play(
        None, rules.decide(None, NewGame(players=("A", "B")), random.Random(1))
    )[1]
    with pytest.raises(ValueError):
        table_report(plan, "table1", game, [], {}, (1, 1))


def test_cj5_cj8_a_tables_clock_time_ranking_by_life_and_rumble_picks_reach_the_standings() -> None:
    """CJ-5, CJ-8: a table that ran out of time reports its clock, the call of time and its
    ranking by life, and the fold splits its group by them; Rumble picks are counted per player
    over the event."""
    rng = random.Random(6)
    plan = plan_event("Spring", PLAYERS, TABLES, {"rumble": "on"}, rng, "id1")
    group = plan.groups[0]
    events = rules.decide(None, table_game(plan, group), rng)
    _, game = rules.play(None, events)
    kept: list[tuple[int, Event]] = [(0, e) for e in events]
    steps = [StartClock(now=0.0), ChangeLife(seat=1, delta=-20, source=2), CallTime(now=75 * 60.0)]
    steps += [Advance()] * 12
    for pos, step in enumerate(steps, start=1):
        try:
            events = rules.decide(game, step, rng)
        except Exception:
            continue
        _, game = rules.play(game, events)
        kept += [(pos, e) for e in events]
    report = table_report(plan, group.table, game, kept, {}, (1, 1))
    assert report.clock_started == 0.0 and report.time_called == 75 * 60.0
    assert report.by_life is not None and report.done
    assert report.picks[2] == 1  # 20 life from seat 2's sources: one pick
    view = fold(plan, [report])
    rows = {row.name: row for row in view.rows()}
    assert rows[group.players[2]].picks == 1
    assert rows[group.players[1]].status == "left round 1"  # lost to life at 0
    winners = [name for name, _ in report.by_life[:1]]
    assert all(rows[name].status == "playing" for name in winners)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=9, max_value=20))
def test_with_two_gadgets_as_one_table_the_furthest_account_counts_in_any_order(
    rnd: random.Random, count: int
) -> None:
    """A spare and the original both report a table's groups (each gadget's own account
    corrected over time): for each group the furthest of the two gadgets' newest accounts counts,
    whatever order the reports arrive in and however they are folded."""
    players = [f"P{i:02d}" for i in range(count)]
    tables = [f"t{i}" for i in range(1 + rnd.randrange(3))]
    plan = plan_event("Twins", players, tables, {}, random.Random(rnd.getrandbits(32)), "tw")
    rng = random.Random(rnd.getrandbits(32))
    reports: list[TableReport] = []
    for gadget in ("original", "spare"):
        early = [played(plan, a, [[0]], 1, rng) for a in plan.groups]
        later = event_played(plan, rng) if rnd.random() < 0.5 else early
        for revision, batch in enumerate(
            (early, later, rnd.sample(early, k=len(early) // 2)), start=1
        ):
            reports += [
                r.model_copy(update={"gadget": gadget, "revision": (revision, rnd.randrange(9))})
                for r in batch
            ]
    newest: dict[tuple[str, tuple[int, int, str]], TableReport] = {}
    for report in sorted(reports, key=lambda r: (r.revision, r.model_dump_json())):
        newest[(report.gadget, report.key)] = report
    expected = {
        a.key: furthest(r for (g, k), r in newest.items() if k == a.key and r.fits(a))
        for a in plan.groups
    }
    rnd.shuffle(reports)
    view = fold(plan, reports)
    assert {a.key: view.report(a) for a in plan.groups} == expected
    one_by_one = None
    for index in range(len(reports)):
        one_by_one = fold(plan, reports[index : index + 1], one_by_one)
    assert one_by_one is not None and everything(one_by_one) == everything(view)


def test_cj3_round_two_stays_as_begun_after_a_correction_of_round_one_in_any_order_until_ruled() -> (
    None
):
    """A round-1 report corrected after round 2 began (another player left) does not redraw
    round 2 by itself, whatever order the reports arrive in: round 2 stays as its reports say it
    was begun, and the draw the correction gives waits for the organiser (``pending``). Ruled,
    round 2 is that draw, and a round-2 game of a group that changed no longer counts."""
    rng = random.Random(8)
    plan = plan_event("Spring", PLAYERS[:8], TABLES[:2], {}, rng, "id1")
    first = [played(plan, a, [[0], [1]], 1, rng) for a in plan.groups]
    begun = fold(plan, first).round_two(1)
    second = [played(plan, a, [[0]], 1, rng, draw=begun) for a in begun]
    corrected = played(plan, plan.groups[0], [[0], [2]], 2, rng)
    everything = [*first, *second, corrected]
    for seed in range(12):
        random.Random(seed).shuffle(everything)
        view = fold(plan, everything)
        assert view.round_two(1) == begun
        assert [view.report(a) for a in begun] == second
        pending = view.folds[0].pending
        assert pending is not None and pending != begun and len(pending) == 2
    ruled = plan.ruled(Redraw(pod=1, groups=pending, basis=pending))
    view = fold(ruled, everything)
    assert view.round_two(1) == pending and view.folds[0].pending is None
    assert [view.report(a) for a in pending] == [
        None,
        None,
    ]  # both groups changed: their games start anew
    kept = fold(plan.ruled(Redraw(pod=1, groups=begun, basis=pending)), everything)
    assert kept.round_two(1) == begun and kept.folds[0].pending is None
