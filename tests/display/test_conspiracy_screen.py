"""The kiosk at a Conspiracy event: the pod's standings screen, the round's clock in the header,
the table options and Rumble picks, in every language (CJ-1..CJ-6, CJ-8)."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import ChangeLife, NewGame
from device.rules.conspiracy import LeaveGroup, StartClock
from device.state_conspiracy import ConspiracyState
from display.kiosk import Kiosk
from display.ui import Go
from scenes import POD, POD_CLOCK, SCENES, texts

MakeKiosk = Callable[..., Kiosk]


def consp(kiosk: Kiosk) -> ConspiracyState:
    assert kiosk.state is not None and kiosk.state.conspiracy is not None
    return kiosk.state.conspiracy


def names(kiosk: Kiosk, seats: tuple[int, ...]) -> list[str]:
    assert kiosk.state is not None
    return [kiosk.state.player(s).name for s in seats]


def test_cj2_round_one_groups_in_seating_order(make_kiosk: MakeKiosk) -> None:
    """CJ-1, CJ-2: a pod of 8 in two groups of 4, as drawn, the first to play first."""
    k = make_kiosk((800, 480), "en")
    k.execute(NewGame(formats=("conspiracy",), players=POD, first=POD[0], options={"pod": "2"}))
    k.dispatch(Go("conspiracy"))
    k.redraw()
    one, two = consp(k).groups
    assert texts(k, "consp.group.title") == ["Group 1", "Group 2"]
    assert texts(k, "consp.1.seat") == [f"{i + 1}. {n}" for i, n in enumerate(names(k, one.order))]
    assert texts(k, "consp.2.seat") == [f"{i + 1}. {n}" for i, n in enumerate(names(k, two.order))]
    assert texts(k, "consp.heading") == ["Pod 2 · Round 1 · clock not started (75 min)"]
    assert texts(k, "header.headline") == ["Round 1"]
    assert texts(k, "header.clock") == []  # the round's clock has not been started
    assert texts(k, "consp.options") == []
    assert texts(k, "consp.place") == ["–"] * 8


def test_cj3_cj4_who_left_in_order_and_the_ranks_in_order(make_kiosk: MakeKiosk) -> None:
    """CJ-3: players who left are numbered in the order they left (together: one number), and
    the standings list places 1–N in order as they become known."""
    k = make_kiosk((800, 480), "en")
    SCENES["conspiracy"](k)
    k.redraw()
    winners, losers = consp(k).groups
    assert texts(k, "consp.group.title") == ["Winners' group", "Losers' group"]
    assert texts(k, "consp.winners.left") == ["out 1"]
    assert texts(k, "consp.losers.left") == ["out 1"]
    shown = texts(k, "consp.place")
    assert shown == ["4th", "8th", "–", "–", "–", "–", "–", "–"]
    standing = texts(k, "consp.standing")
    assert standing[:2] == names(k, (winners.order[3], losers.order[0]))
    # Two more leave the losers' group at once: the later seat ranks higher (CJ-4).
    k.execute(LeaveGroup(seats=(losers.order[1], losers.order[2])))
    k.redraw()
    assert texts(k, "consp.place") == ["4th", "5th", "6th", "7th", "8th", "–", "–", "–"]
    assert texts(k, "consp.standing")[1:5] == names(
        k, (losers.order[3], losers.order[2], losers.order[1], losers.order[0])
    )
    assert texts(k, "consp.losers.left") == ["out 1", "out 2", "out 2"]
    assert texts(k, "consp.group.title")[1] == "Losers' group: finished"


def test_cj5_the_header_counts_down_the_rounds_clock(make_kiosk: MakeKiosk) -> None:
    """CJ-5: the header's clock is the round's (started with the round), not the game's age."""
    k = make_kiosk((800, 480), "en")
    SCENES["conspiracy"](k)
    k.redraw()
    assert texts(k, "header.clock") == ["50:00 left"]  # 60 minutes, started 10 minutes ago
    assert k.deadline() is not None  # the loop wakes to tick the clock


def test_cj5_round_one_clock_started_from_the_kiosk(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "ja")
    k.execute(NewGame(formats=("conspiracy",), players=POD, first=POD[0], options={"time_limit": "90"}))
    k.execute(StartClock(now=POD_CLOCK - 75 * 60))  # 85 minutes ago
    k.redraw()
    assert texts(k, "header.clock") == ["残り 5:00"]
    k.execute(StartClock(now=POD_CLOCK))  # refused: it runs already
    assert k.ui.error is not None and k.ui.error.text == "1回戦の時計はすでに動いています。"


def test_cj6_cj8_options_and_rumble_picks_shown(make_kiosk: MakeKiosk) -> None:
    """CJ-6: the table options are shown; CJ-8: an earned pick is announced and kept in view."""
    k = make_kiosk((800, 480), "en")
    SCENES["conspiracy"](k)
    k.redraw()
    assert texts(k, "consp.options") == ["Options: attack left only · range of influence 1 · Rumble rule"]
    winners = consp(k).groups[0]
    ben = names(k, (winners.order[1],))[0]
    assert texts(k, "consp.picks") == ["Rumble ×1"]
    row = texts(k, "consp.standing").index(ben)
    assert [d for d in k.canvas.drawn if d.role == "consp.picks"][0].rect[1] == [
        d for d in k.canvas.drawn if d.role == "consp.standing"][row].rect[1]
    k.execute(ChangeLife(seat=winners.order[2], delta=-20, source=winners.order[1]))
    assert k.ui.messages[-2] == (
        f"Rumble: {ben}'s sources have made opponents lose 40 life: pick 2 — put a sideboard card into "
        "the command zone; it may be cast for free."
    )


def test_cj_japanese_standings_and_messages(make_kiosk: MakeKiosk) -> None:
    """The screen and the rules' messages read in Japanese as the organisers word them."""
    k = make_kiosk((800, 480), "ja")
    SCENES["conspiracy"](k)
    k.redraw()
    assert texts(k, "consp.heading") == ["Kyoto · ポッド1 · 2回戦"]
    assert texts(k, "consp.group.title") == ["勝ちグループ", "負けグループ"]
    assert texts(k, "consp.options") == ["選択ルール：左側への攻撃 · 影響範囲＝1 · 無双ルール"]
    assert texts(k, "consp.place")[:2] == ["4位", "8位"]
    assert texts(k, "consp.winners.left") == ["離脱1"]
    losers = consp(k).groups[1]
    yuri = names(k, (losers.order[0],))[0]
    assert k.ui.messages[-1] == f"負けグループ：{yuri}が離脱：{yuri}（8位）。"
    k.execute(LeaveGroup(seats=(losers.order[1], losers.order[2])))
    a, b, last = names(k, (losers.order[1], losers.order[2], losers.order[3]))
    assert k.ui.messages[-1] == f"負けグループ：{a}と{b}が離脱：{a}（7位）、{b}（6位）。最後まで残った{last}が5位です。"


def test_cj_round_one_message_in_russian_and_polish(make_kiosk: MakeKiosk) -> None:
    for language, start in (("ru", "Раунд 1, группы по жребию: группа 1: "), ("pl", "Runda 1, grupy wylosowane: grupa 1: ")):
        k = make_kiosk((800, 480), language)
        k.execute(NewGame(formats=("conspiracy",), players=POD, first=POD[0], options={"attack_left": "on"}))
        line = k.ui.messages[-1]
        assert line.startswith(start), line
        one = consp(k).groups[0]
        assert ", ".join(names(k, one.order)) in line
    assert line.endswith("Limit czasu: 75 minut. Zasady stołu: atak tylko w lewo.")
