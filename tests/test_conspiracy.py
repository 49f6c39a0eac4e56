"""Conspiracy events and the Group Game Draft: SPEC section 5 (CJ-1..CJ-8)."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path


from device.game import GAME
from device.commands import ChangeLife, Command, Lose, NewGame, SetLife
from device.console import TABLES, Console
from device.controller import Controller
from device.journal import Journal
from device.rules.conspiracy.play import (
    event_games,
    event_pods,
    group_sizes,
    pod_sizes,
    ranking,
    standings,
)
from device.rules.conspiracy.commands import (
    CallTime,
    FinishExtraTurns,
    LeaveGroup,
    PassGroupTurn,
    StartClock,
)
from device.rules.conspiracy.state import ConspiracyState, GroupRecord
from helpers import refused, state

EIGHT = ("Ann", "Ben", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal")


def consp(controller: Controller) -> ConspiracyState:
    value = state(controller).conspiracy
    assert value is not None
    return value


def texts(controller: Controller, command: Command) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]


def pod(controller: Controller, players: tuple[str, ...] = EIGHT, **options: str) -> list[str]:
    return texts(
        controller,
        NewGame(formats=("conspiracy",), players=players, first=players[0], options=options),
    )


def group(controller: Controller, name: str) -> GroupRecord:
    return next(g for g in consp(controller).groups if g.label == name)


def names(controller: Controller, seats: tuple[int, ...] | list[int]) -> list[str]:
    return [state(controller).player(s).name for s in seats]


def play_round_one(controller: Controller) -> None:
    """Two players leave each group, one at a time, the first seated first."""
    for label in ("1", "2"):
        order = group(controller, label).order
        controller.execute(LeaveGroup(seats=(order[0],)))
        controller.execute(LeaveGroup(seats=(order[1],)))


# --- CJ-1 ------------------------------------------------------------------------------------

ARTICLE = {
    3: [[3]],
    4: [[4]],
    5: [[5]],
    6: [[3, 3]],
    7: [[3, 4]],
    8: [[4, 4]],
    9: [[4, 5]],
    10: [[5, 5]],
    11: [[3, 3], [5]],
    12: [[3, 3], [3, 3]],
    13: [[3, 4], [3, 3]],
    14: [[4, 4], [3, 3]],
    15: [[4, 4], [3, 4]],
    16: [[4, 4], [4, 4]],
    17: [[4, 5], [4, 4]],
}


def test_cj1_pods_and_groups_follow_the_articles_table() -> None:
    """CJ-1: the article's table for 3–17 players, exactly."""
    for players, expected in ARTICLE.items():
        assert [group_sizes(p) for p in pod_sizes(players)] == expected, players


def test_cj1_beyond_17_as_many_pods_of_8_as_possible_none_over_10() -> None:
    """CJ-1: the documented rule beyond 17."""
    assert pod_sizes(18) == [10, 8]
    assert pod_sizes(21) == [8, 7, 6]
    assert pod_sizes(24) == [8, 8, 8]
    assert pod_sizes(25) == [9, 8, 8]
    for players in range(3, 120):
        sizes = pod_sizes(players)
        assert sum(sizes) == players and max(sizes) <= 10
        assert all(3 <= g <= 5 for size in sizes for g in group_sizes(size))


def test_cj1_event_starts_one_pod_game_per_pod(journal_path: Path) -> None:
    """CJ-1: 'event' splits 17 players into pods of 9 and 8, each its own saved game."""
    out = io.StringIO()
    players = " ".join(f"P{i:02d}" for i in range(17))
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(5))
        Console(controller, out, TABLES).run_line(f"event Friday {players}")
        games = sorted(controller.games(), key=lambda g: g.id)
        assert [len(journal.state(g.id).players) for g in games] == [9, 8]
        assert [journal.state(g.id).options["pod"] for g in games] == [1, 2]
    assert (
        out.getvalue().splitlines()[0]
        == "Event Friday: 17 players in 2 pods: pod 1: 9 (4 + 5); pod 2: 8 (4 + 4)."
    )


def test_cj1_an_event_of_two_says_it_needs_three_players(journal_path: Path) -> None:
    """CJ-1: 'event X A B' is refused with the reason (an event needs at least 3 players), not
    only the usage line; nothing starts."""
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        out = io.StringIO()
        Console(controller, out, TABLES).run_line("event X A B")
        assert out.getvalue().splitlines() == [
            "refused: An event needs at least 3 players; 2 given."
        ]
        assert controller.state is None


def test_cj1_event_games_are_the_pods_the_console_and_the_kiosk_start() -> None:
    """CJ-1: one function turns an event into its pods' NewGames (the console's 'event' and the
    kiosk's set-up screen both run it): pods in the order given, the event's name and pod number."""
    players = [f"P{i:02d}" for i in range(11)]
    games = event_games("Friday", players, {"time_limit": "60"})
    assert [g.players for g in games] == [tuple(players[:6]), tuple(players[6:])]
    assert [g.formats for g in games] == [("conspiracy",), ("conspiracy",)]
    assert [g.options for g in games] == [
        {"time_limit": "60", "event": "Friday", "pod": "1"},
        {"time_limit": "60", "event": "Friday", "pod": "2"},
    ]
    assert event_games("Friday", players[:4], modules=("planechase",))[0].formats == (
        "conspiracy",
        "planechase",
    )


def test_cj1_an_event_is_checked_whole_before_any_pod_starts(journal_path: Path) -> None:
    """CJ-1: a name twice (even in different pods), or a bad name in the last pod, starts nothing."""
    out = io.StringIO()
    players = [f"P{i:02d}" for i in range(10)]
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(5))
        console = Console(controller, out, TABLES)
        console.run_line("event Friday " + " ".join([*players, "p03"]))
        console.run_line("event Friday " + " ".join([*players, "X" * 30]))
        assert controller.games() == []
    assert out.getvalue().splitlines() == [
        "refused: p03 is named twice in the event.",
        f"refused: {'X' * 30!r} is too long for the screen: at most 24 characters.",
    ]


def test_cj1_the_pods_of_an_event_are_its_own_run_of_games() -> None:
    """CJ-1: an event's pods are the games started together for it, pod 1 first; another game, a
    single pod without an event and a later event of the same name are not among them."""
    games = {
        1: {"event": "Kyoto", "pod": 1},
        2: {"event": "Kyoto", "pod": 2},
        3: {},
        4: {"event": "Kyoto", "pod": 1},
        5: {"event": "Osaka", "pod": 1},
        6: {"event": "Kyoto", "pod": 2},
        7: {"event": "", "pod": 1},
    }
    assert event_pods(games, 2) == [1, 2]
    assert event_pods(games, 6) == [4, 6]
    assert event_pods(games, 5) == [5]
    assert event_pods(games, 7) == [7]
    assert event_pods(games, 3) == [3]


# --- CJ-2 ------------------------------------------------------------------------------------


def test_cj2_groups_are_drawn_at_random_shown_and_stored(controller: Controller) -> None:
    """CJ-2: a fair random draw, kept in the journal (replay gives the same groups)."""
    lines = pod(controller)
    groups = consp(controller).groups
    assert sorted(s for g in groups for s in g.order) == list(range(8))
    assert [len(g.order) for g in groups] == [4, 4]
    shown = "; ".join(f"group {g.label}: {', '.join(names(controller, g.order))}" for g in groups)
    assert lines[1] == (
        f"Round 1, groups drawn at random: {shown}. Sit in the order shown; the first named goes "
        "first. Each group plays until 2 of 4 left. Time limit: 75 minutes."
    )
    assert controller.game is not None
    assert controller.journal.replay(controller.game) == controller.state
    draws = set()
    for seed in range(30):
        with Journal(Path(str(controller.journal.path) + f".{seed}")) as other:
            second = Controller(other, rng=random.Random(seed))
            second.execute(NewGame(formats=("conspiracy",), players=EIGHT, first="Ann"))
            assert second.state is not None and second.state.conspiracy is not None
            draws.add(frozenset(second.state.conspiracy.groups[0].order))
    assert len(draws) > 10


# --- CJ-3 ------------------------------------------------------------------------------------


def test_cj3_eight_player_pod_two_rounds_and_ranking(controller: Controller) -> None:
    """CJ-3: round 1 until two leave each group; winners' group ranks 1–4, losers' 5–8."""
    pod(controller)
    g1, g2 = group(controller, "1").order, group(controller, "2").order
    lines = texts(controller, LeaveGroup(seats=(g1[0],)))
    assert lines[-1] == f"Group 1: {names(controller, [g1[0]])[0]} left (1 of 2 for round 1)."
    lines = texts(controller, ChangeLife(seat=g1[1], delta=-20, source=g1[2]))
    assert lines[-1] == (
        f"Group 1: {names(controller, [g1[1]])[0]} left; round 1 is over for this group: "
        f"{' and '.join(names(controller, [g1[2], g1[3]]))} go to the winners' group."
    )
    assert refused(controller, ChangeLife(seat=g1[2], delta=-1, source=g1[3])) == (
        "Group 1 has finished round 1; round 2 starts when every group has finished."
    )
    controller.execute(LeaveGroup(seats=(g2[3],)))
    lines = texts(controller, LeaveGroup(seats=(g2[2],)))
    assert lines[-1].startswith("Round 2: winners' group: ")
    winners, losers = group(controller, "winners"), group(controller, "losers")
    assert set(winners.order) == {g1[2], g1[3], g2[0], g2[1]}
    assert set(losers.order) == {g1[0], g1[1], g2[2], g2[3]}
    assert all(p.life == 20 and p.lost is None for p in state(controller).players)
    w, lo = winners.order, losers.order
    for seat in (w[0], w[1], w[2]):
        controller.execute(LeaveGroup(seats=(seat,)))
    assert GAME.outcome(state(controller)) is None
    controller.execute(LeaveGroup(seats=(lo[3],)))
    controller.execute(LeaveGroup(seats=(lo[2],)))
    lines = texts(controller, LeaveGroup(seats=(lo[1],)))
    assert lines[-1] == (
        f"Losers' group: {names(controller, [lo[1]])[0]} left: {names(controller, [lo[1]])[0]} 6th. "
        f"{names(controller, [lo[0]])[0]} is last standing: 5th."
    )
    assert ranking(state(controller)) == [w[3], w[2], w[1], w[0], lo[0], lo[1], lo[2], lo[3]]
    result = GAME.outcome(state(controller))
    assert result is not None and result.winner == w[3]


def test_cj3_other_pod_sizes_have_the_same_shape(controller: Controller) -> None:
    """CJ-3 generalised: a group of g loses g // 2 in round 1 (7 → 3 + 4 → 1 + 2 leave)."""
    pod(controller, EIGHT[:7])
    assert sorted(len(g.order) for g in consp(controller).groups) == [3, 4]
    assert sorted(g.to_leave for g in consp(controller).groups) == [1, 2]
    for g in list(consp(controller).groups):
        for seat in g.order[: g.to_leave]:
            controller.execute(LeaveGroup(seats=(seat,)))
    assert [len(g.order) for g in consp(controller).groups] == [4, 3]


def test_cj3_a_three_player_pod_ends_with_a_duel(controller: Controller) -> None:
    """CJ-3 generalised: 3 players: one leaves in round 1, the other two duel; ranks 1–3."""
    pod(controller, EIGHT[:3])
    order = consp(controller).groups[0].order
    controller.execute(LeaveGroup(seats=(order[0],)))
    assert [len(g.order) for g in consp(controller).groups] == [2, 1]
    duel = group(controller, "winners").order
    controller.execute(LeaveGroup(seats=(duel[1],)))
    assert ranking(state(controller)) == [duel[0], duel[1], order[0]]


# --- CJ-4 ------------------------------------------------------------------------------------


def test_cj4_simultaneous_losses_the_later_seat_ranks_higher(controller: Controller) -> None:
    """CJ-4, the article's example: order A→B→C→D, C and D lose together: D ranks above C."""
    pod(controller)
    play_round_one(controller)
    a, b, c, d = group(controller, "winners").order
    controller.execute(LeaveGroup(seats=(c, d)))
    assert texts(controller, LeaveGroup(seats=(b,)))[-1] == (
        f"Winners' group: {names(controller, [b])[0]} left: {names(controller, [b])[0]} 2nd. "
        f"{names(controller, [a])[0]} is last standing: 1st."
    )
    places = {row.seat: row.place for row in standings(state(controller))}
    assert [places[a], places[b], places[c], places[d]] == [1, 2, 4, 3]


def test_cj4_in_round_one_the_tiebreak_decides_who_still_goes_to_the_winners(
    controller: Controller,
) -> None:
    """CJ-3 + CJ-4: three leave at once where two were needed: the later seat goes through."""
    pod(controller)
    o = group(controller, "1").order
    controller.execute(LeaveGroup(seats=(o[0],)))
    controller.execute(LeaveGroup(seats=(o[1], o[2])))
    assert group(controller, "1").done
    controller.execute(LeaveGroup(seats=group(controller, "2").order[:2]))
    assert {o[2], o[3]} <= set(group(controller, "winners").order)
    assert {o[0], o[1]} <= set(group(controller, "losers").order)


# --- CJ-5 ------------------------------------------------------------------------------------


def test_cj5_time_limit_extra_lap_then_life_ranking(controller: Controller) -> None:
    """CJ-5, the article's example: lives A 21, B 4, C 10, D 10 → A, D, C, B."""
    pod(controller, time_limit="60")
    play_round_one(controller)
    a, b, c, d = group(controller, "winners").order
    for seat, life in ((a, 21), (b, 4), (c, 10), (d, 10)):
        controller.execute(SetLife(seat=seat, life=life))
    assert (
        refused(controller, CallTime(now=100.0))
        == "The clock is not running: start it with 'clock' when the round begins."
    )
    controller.execute(StartClock(now=1000.0))
    controller.execute(PassGroupTurn(seat=c))
    assert (
        refused(controller, CallTime(now=1000.0 + 59 * 60)) == "Time is not up yet: 1 minute left."
    )
    lines = texts(controller, CallTime(now=1000.0 + 60 * 60))
    assert lines == [
        "Time! Extra turns: in each group still playing, starting with the active player, one more lap "
        "until it is that player's turn again; then the players still in are ranked by life "
        f"(Winners' group from {names(controller, [c])[0]}; Losers' group: say whose turn it is as turns "
        "pass, or end its extra turns after the lap).",
    ]
    controller.execute(PassGroupTurn(seat=d))
    controller.execute(PassGroupTurn(seat=a))
    controller.execute(PassGroupTurn(seat=b))
    lines = texts(controller, PassGroupTurn(seat=c))
    n = dict(zip((a, b, c, d), names(controller, [a, b, c, d]), strict=True))
    assert lines[-1] == (
        f"Winners' group: the extra turns are over; ranked by life: {n[a]} (21), {n[d]} (10), {n[c]} (10), {n[b]} (4)."
    )
    controller.execute(FinishExtraTurns(group="losers"))
    final = ranking(state(controller)) or []
    assert final[:4] == [a, d, c, b]


def test_cj5_time_limit_is_a_table_option_from_60_to_90(controller: Controller) -> None:
    """CJ-5: configurable 60–90 minutes; anything else is refused with what is allowed."""
    assert refused(
        controller, NewGame(formats=("conspiracy",), players=EIGHT, options={"time_limit": "45"})
    ) == ("Table option 'time_limit' cannot be '45': a whole number from 60 to 90.")


# --- CJ-6, CJ-7 ------------------------------------------------------------------------------


def test_cj6_optional_rules_are_shown_to_the_players(controller: Controller) -> None:
    """CJ-6: 'attack left only' and 'range of influence 1' are table options, shown at the start."""
    lines = pod(controller, attack_left="on", range_of_influence="1")
    assert lines[1].endswith(
        "Time limit: 75 minutes. Table options: attack left only, range of influence 1."
    )
    assert state(controller).options["attack_left"] is True


def test_cj7_group_game_draft_set_up(controller: Controller) -> None:
    """CJ-7: 3–6 players, one table, 20 life, the set-up rules shown; last one standing wins."""
    lines = texts(controller, NewGame(formats=("ggd",), players=("A", "B", "C", "D"), first="A"))
    assert lines == [
        "New game (Group Game Draft) for A, B, C, D, 20 life. A goes first.",
        "Group Game Draft for 4: 4 packs each (the 4th passes to the right, like the 2nd); one table, "
        "free-for-all, every other player is your opponent; the first mulligan is free; the first player "
        "draws; 20 life; last one standing wins. Rumble rule: each 20 life your sources make opponents "
        "lose earns a sideboard card in the command zone, free to cast.",
    ]
    assert refused(controller, NewGame(formats=("ggd",), players=tuple("ABCDEFG"))) == (
        "Group Game Draft is for 3–6 players; this table has 7."
    )
    controller.execute(Lose(seat=2))
    controller.execute(LeaveGroup(seats=(1, 3)))
    assert ranking(state(controller)) == [0, 3, 1, 2]
    result = GAME.outcome(state(controller))
    assert result is not None and result.winner == 0


# --- CJ-8 ------------------------------------------------------------------------------------


def test_cj8_rumble_pick_at_every_20_life_taken_from_opponents(controller: Controller) -> None:
    """CJ-8: counted from the ledger; each 20 (20, 40, …) announces one pick, own life loss does not count."""
    controller.execute(NewGame(formats=("ggd",), players=("A", "B", "C"), first="A"))
    controller.execute(ChangeLife(seat=1, delta=-15, source=0))
    controller.execute(ChangeLife(seat=0, delta=-10, source=0))
    assert texts(controller, ChangeLife(seat=2, delta=-6, source=0)) == [
        "C: 20 → 14 life (from A).",
        "Rumble: A's sources have made opponents lose 20 life: pick 1 — put a sideboard card into the "
        "command zone; it may be cast for free.",
    ]
    controller.execute(ChangeLife(seat=1, delta=5, source=1))
    assert texts(controller, ChangeLife(seat=1, delta=-8, source=0)) == ["B: 10 → 2 life (from A)."]
    lines = texts(controller, ChangeLife(seat=2, delta=-11, source=0))
    assert lines[-1].startswith("Rumble: A's sources have made opponents lose 40 life: pick 2")
    assert consp(controller).picks == (2, 0, 0)


def test_cj8_rumble_is_off_in_a_pod_unless_switched_on(controller: Controller) -> None:
    """CJ-8: a pod game counts picks only with rumble=on."""
    pod(controller)
    g = group(controller, "1").order
    assert len(texts(controller, ChangeLife(seat=g[1], delta=-19, source=g[0]))) == 1
    assert consp(controller).picks == (0,) * 8


# --- a whole event at the console, undoing every step ---------------------------------------


def test_cj_full_eight_player_event_at_the_console_with_undo_at_every_step(
    journal_path: Path, tmp_path: Path
) -> None:
    """CJ-1..CJ-8 through the console; every change is undone and redone; results exported."""
    out = io.StringIO()
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(11), clock=lambda: 5000.0)
        console = Console(controller, out, TABLES)

        def run(line: str) -> None:
            before = controller.state
            console.run_line(line)
            after = controller.state
            if after != before and not line.startswith(("new", "event")):
                console.run_line("undo")
                assert controller.state == before
                console.run_line("redo")
                assert controller.state == after

        run("event Spring " + " ".join(EIGHT) + " rumble=on")
        g1, g2 = (group(controller, "1").order, group(controller, "2").order)
        n = [state(controller).player(s).name for s in range(8)]
        run(f"damage {n[g1[0]]} 20 from {n[g1[1]]}")
        run(f"out {n[g1[2]]}")
        run(f"out {n[g2[0]]} {n[g2[1]]}")
        run("groups")
        w = group(controller, "winners").order
        lo = group(controller, "losers").order
        run("clock")
        run(f"turn {n[w[0]]}")
        run(f"out {n[w[1]]}")
        run(f"lose {n[w[2]]}")
        run(f"concede {n[w[3]]}")
        run(f"out {n[lo[0]]} {n[lo[1]]} {n[lo[2]]}")
        run("standings")
        csv_path, json_path = tmp_path / "r.csv", tmp_path / "r.json"
        run(f"export {csv_path}")
        run(f"export {json_path}")
        run(f"export {tmp_path / 'r.txt'}")
    text = out.getvalue().splitlines()
    assert "Game over: " + n[w[0]] + " won (the pod's two rounds are over)." in text
    assert any(line.startswith("Rumble: ") for line in text)
    standing = [line for line in text if line[:2].strip().isdigit()]
    assert [line.split()[1] for line in standing] == [
        n[s] for s in (w[0], w[3], w[2], w[1], lo[3], lo[2], lo[1], lo[0])
    ]
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    assert [(r["place"], r["player"]) for r in rows][:2] == [("1", n[w[0]]), ("2", n[w[3]])]
    assert rows[0]["event"] == "Spring" and rows[0]["round2"] == "winners"
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert data["event"] == "Spring" and len(data["results"]) == 8
    assert f"refused: Export to a .csv or .json file; '{tmp_path / 'r.txt'}' is neither." in text
