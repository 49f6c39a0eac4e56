"""A correction of round 1 after round 2 began, at an event across tables (CJ-3): round 2 goes
on as drawn, the organiser and the pod's tables are told, and the organiser rules — round 2
drawn again from the corrected round 1, where only the games whose players or seating change
start anew, or kept as it was begun.  Played at the console through the in-process broker, as
``tests/test_event_link.py`` plays the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.rules.conspiracy.tables import Assignment
from device.rules.conspiracy.state import ConspiracyState
from test_event_link import Event, Gadget, round_one, start


@pytest.fixture
def event(tmp_path: Path) -> Event:
    made = Event(tmp_path)
    yield made  # type: ignore[misc]
    made.close()


def round_two_of(gadget: Gadget, pod: int = 1) -> tuple[Assignment, ...]:
    view = gadget.session.view
    assert view is not None
    return view.round_two(pod)


def game_of(gadget: Gadget) -> tuple[int | None, list[str], list[int]]:
    state = gadget.controller.state
    assert state is not None
    return gadget.controller.game, [p.name for p in state.players], [p.life for p in state.players]


def begin_round_two(event: Event) -> tuple[list[str], tuple[Assignment, ...]]:
    """Both rounds 1 over, round 2 begun; at table2 (pod 1's losers' group) a life changes.
    Table1's round-1 group: its first two seated left. Returns that group's players and round 2."""
    start(event)
    first = event.tables[0].players()
    round_one(event)
    drawn = round_two_of(event.organiser)
    assert [a.table for a in drawn] == ["table1", "table2"]
    event.tables[1].line(f"life {event.tables[1].players()[0]} -3")
    event.pump()
    return first, drawn


def correct_table1(event: Event, first: list[str]) -> list[str]:
    """Table1 reopens its round-1 game and corrects who left second: not first[1] but first[2]."""
    table = event.tables[0]
    table.line("load 1")
    said = table.line("undo")
    event.pump()
    said += table.line(f"out {first[2]}")
    event.pump()
    return said


def test_cj3_a_correction_of_round_one_leaves_round_two_as_begun_until_the_organiser_rules(
    event: Event,
) -> None:
    first, drawn = begin_round_two(event)
    playing = game_of(event.tables[1])
    table1 = event.tables[0]
    table1.line("load 1")
    table1.line("undo")
    event.pump()
    # While table1 corrects, round 2 goes on as drawn: table2's game is untouched and reports on.
    assert round_two_of(event.organiser) == drawn
    assert game_of(event.tables[1]) == playing
    correcting = (
        "Event Spring, pod 1: round 1 is being corrected after round 2 began; round 2 goes on as drawn "
        "until the organiser decides."
    )
    for gadget in (event.organiser, event.tables[0], event.tables[1]):
        assert correcting in gadget.out.getvalue().splitlines(), gadget.name
    assert correcting not in event.tables[2].out.getvalue()  # pod 2's tables are not concerned
    table1.line(f"out {first[2]}")
    event.pump()
    corrected = round_two_of(event.organiser)
    assert corrected == drawn and round_two_of(event.tables[3]) == drawn
    assert game_of(event.tables[1]) == playing
    # Table1 is back at its round-2 game, as drawn.
    assert tuple(table1.players()) == drawn[0].players
    view = event.organiser.session.view
    assert view is not None
    pending = view.folds[0].pending
    assert (
        pending is not None
        and {first[2]} <= set(pending[1].players)
        and first[1] in pending[0].players
    )
    decide = [
        line for line in event.organiser.out.getvalue().splitlines() if "'round2 1 redraw'" in line
    ]
    assert len(decide) == 1 and decide[0].startswith(
        "Event Spring, pod 1: round 1 was corrected after round 2 began; corrected, round 2 would be winners' "
        f"group: {', '.join(pending[0].players)}; losers' group: {', '.join(pending[1].players)}. Changed: "
        "winners' group at table table1, losers' group at table table2."
    )
    assert any(
        line.startswith(
            "Event Spring, pod 1: round 1 was corrected after round 2 began; corrected, round 2 "
            "would be"
        )
        for line in event.tables[1].out.getvalue().splitlines()
    )


def test_cj3_redrawn_by_the_organiser_only_the_changed_groups_start_anew(event: Event) -> None:
    first, drawn = begin_round_two(event)
    correct_table1(event, first)
    view = event.organiser.session.view
    assert view is not None and view.folds[0].pending
    pending = view.folds[0].pending
    assert event.tables[0].line("round2 1 redraw") == [
        "refused: Only the gadget that drew event Spring may rule on its rounds."
    ]
    assert event.organiser.line("round2 2 redraw") == [
        "refused: Pod 2 of event Spring has no correction of round 1 waiting."
    ]
    said = event.organiser.line("round2 1 redraw")
    assert said[0].startswith(
        "Event Spring, pod 1: the organiser redrew round 2 after a correction of round 1: "
    )
    event.pump()
    for gadget in (event.organiser, *event.tables):
        assert round_two_of(gadget) == pending, gadget.name
    for table, group in zip(event.tables[:2], pending, strict=True):
        assert tuple(table.players()) == group.players
        assert game_of(table)[2] == [20] * len(group.players)  # a new game for a changed group
        lines = table.out.getvalue().splitlines()
        assert any(
            line.startswith("Event Spring, pod 1: the organiser redrew round 2") for line in lines
        )
    # Nobody else's game moved; the standings fold the groups as redrawn.
    view = event.tables[3].session.view
    assert view is not None and view.folds[0].pending is None
    assert {r.name: r.groups for r in view.rows() if r.pod == 1}[first[2]] == ("1", "losers")


def test_cj3_kept_by_the_organiser_round_two_plays_on_as_begun(event: Event) -> None:
    first, drawn = begin_round_two(event)
    playing = [game_of(t) for t in event.tables]
    correct_table1(event, first)
    assert event.organiser.line("round2 1 keep") == [
        "Event Spring, pod 1: the organiser keeps round 2 as drawn; the correction of round 1 stays in the "
        "standings of round 1 only."
    ]
    event.pump()
    assert [game_of(t) for t in event.tables] == playing
    for gadget in (event.organiser, *event.tables):
        view = gadget.session.view
        assert view is not None and view.round_two(1) == drawn and view.folds[0].pending is None, (
            gadget.name
        )
    # The organiser's ruling is kept in its draw: a restarted gadget folds the same.
    plan = event.tables[2].session.plan
    assert plan is not None and [r.pod for r in plan.redraws] == [1]


def test_cj3_a_correction_of_who_left_first_that_sends_the_same_players_on_changes_no_round_two(
    event: Event,
) -> None:
    """Round 2 is seated from who goes where alone: correcting the order two players left in
    (CJ-4 matters for their round-1 record, not for round 2's groups) asks nobody anything."""
    start(event)
    table2 = event.tables[1]
    names = table2.players()  # pod 1's group of 5: its first two seated leave
    round_one(event)
    drawn = round_two_of(event.organiser)
    playing = [game_of(t) for t in event.tables]
    table2.line("load 1")
    table2.line("undo")
    table2.line("undo")
    event.pump()
    table2.line(f"out {names[1]}")
    table2.line(f"out {names[0]}")
    event.pump()
    view = event.organiser.session.view
    assert view is not None and view.folds[0].pending is None and view.round_two(1) == drawn
    record = view.pods[0].part(ConspiracyState).rounds[0][1]
    assert [view.plan.pods[0][s] for batch in record.left for s in batch] == [names[1], names[0]]
    assert [game_of(t) for t in event.tables] == playing
    # Said while it was being corrected; nothing asks the organiser to rule once it is.
    assert not [line for line in event.organiser.out.getvalue().splitlines() if "round2 1" in line]


def test_the_organiser_moves_a_group_not_begun_to_a_free_table(tmp_path: Path) -> None:
    """An event of 11 (pods of 6 and 5) at three tables: pod 2's round 2 is two groups at table3,
    one after the other, while table2 is done. The organiser moves the second to table2, which
    starts it; a group begun, a busy table or an unknown group are refused with the reason."""
    event = Event(tmp_path, count=3)
    try:
        event.organiser.line("host Spring " + " ".join(f"P{i:02d}" for i in range(11)))
        for table in event.tables:
            table.line("join Spring")
        event.pump()
        view = event.organiser.session.view
        assert view is not None
        round_one(event)
        view = event.organiser.session.view
        assert view is not None
        second = view.round_two(2)
        assert [a.table for a in second] == ["table3", "table3"]
        table2 = event.tables[1]  # pod 1's losers' group: played to its end
        for name in table2.players()[:-1]:
            table2.line(f"out {name}")
        event.pump()
        view = event.organiser.session.view
        assert view is not None
        free = next(t.table for t in view.tables() if t.playing is None)
        assert free == "table2"
        queued = second[1]
        assert event.organiser.line(f"move 2 {second[0].group} {free}") == [
            "refused: Pod 2, winners' group has begun at table table3: only a group not begun moves."
        ]
        assert event.organiser.line("move 2 champions table1")[0].startswith(
            "refused: Pod 2 of event Spring has no group"
        )
        assert event.organiser.line(f"move 2 {queued.group} {free}") == [
            "Event Spring, pod 2: the organiser moved losers' group to table table2."
        ]
        event.pump()
        mover = next(t for t in event.tables if t.name == free)
        assert tuple(mover.players()) == queued.players
        for gadget in (event.organiser, *event.tables):
            view = gadget.session.view
            assert view is not None and view.round_two(2)[1].table == free, gadget.name
    finally:
        event.close()


def test_the_organiser_says_whose_account_counts_at_a_table_with_two_gadgets(
    tmp_path: Path,
) -> None:
    """A spare started with table1's login plays its group further than the original; the
    organiser names the original's gadget: its account counts, and the spare says why its own
    does not; 'count table1' gives it back to the furthest."""
    event = Event(tmp_path)
    try:
        start(event)
        spare = Gadget(event.broker, tmp_path / "spare", "table1", 42, event.clock)
        spare.line("join Spring")
        event.pump()
        spare.pump()
        names = spare.players()
        spare.line(f"out {names[0]}")
        event.pump()
        spare.pump()
        original = event.tables[0]
        view = event.organiser.session.view
        assert view is not None
        group = view.plan.groups[0]
        assert view.report(group).gadget == spare.session.gadget  # type: ignore[union-attr]
        assert event.organiser.line("count table1 nobody")[0].startswith(
            "refused: No gadget 'nobody' reports as table table1; those that do: "
        )
        assert event.organiser.line(f"count table1 {original.session.gadget}") == [
            f"At table table1, the organiser counts the accounts of gadget {original.session.gadget}."
        ]
        event.pump()
        spare.pump()
        view = event.organiser.session.view
        assert view is not None and view.report(group).gadget == original.session.gadget  # type: ignore[union-attr]
        assert (
            f"Table table1: this gadget's account of pod 1, group 1 does not count; gadget "
            f"{original.session.gadget}'s does."
        ) in spare.out.getvalue().splitlines()
        line = event.organiser.line("tables")[1]
        assert (
            line.startswith("table1 (gadgets ") and f"counted: {original.session.gadget})" in line
        )
        event.organiser.line("count table1")
        event.pump()
        view = event.organiser.session.view
        assert view is not None and view.report(group).gadget == spare.session.gadget  # type: ignore[union-attr]
    finally:
        spare.close()
        event.close()
