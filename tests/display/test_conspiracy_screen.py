"""The kiosk at a Conspiracy event: the pod's standings screen, the round's clock in the header,
the table options and Rumble picks, in every language (CJ-1..CJ-6, CJ-8)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from device.commands import ChangeLife, NewGame
from device.rules.conspiracy import LeaveGroup, StartClock
from device.state import outcome
from device.state_conspiracy import ConspiracyState
from display.kiosk import Kiosk
from display.screens.adjust import AdjustForm
from display.ui import Go, Tap
from scenes import POD, POD_CLOCK, SCENES, texts
from test_e2e import Player

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


# --- end to end, with the keys and the adjust screen ----------------------------------------------


def test_cj1_cj5_a_whole_pod_played_on_the_kiosk(make_kiosk: MakeKiosk, tmp_path: Path) -> None:
    """CJ-1..CJ-5: an 8-player pod started as the console's 'event' starts each pod; every loss is a
    life change entered on the adjust screen with its source; round 1 ends when two have left each
    group, round 2 is drawn and played to the end; UNDO takes a round's end and a loss back exactly,
    and the standings screen lists places 1–8 in order."""
    k = make_kiosk((800, 480), "en", screenshots=tmp_path / "shots")
    # The console's 'event Kyoto …' runs this NewGame for each pod; the kiosk has no event form.
    k.execute(NewGame(formats=("conspiracy",), players=POD, options={"event": "Kyoto", "pod": "1"}))
    p = Player(k)
    one, two = consp(k).groups
    assert (len(one.order), len(two.order), one.to_leave, two.to_leave) == (4, 4, 2, 2)

    def hit(target: int, source: int, fives: int) -> None:
        """A = adjust screen; touch the player, life, the source, −5 × fives, Apply."""
        p.keys(pygame.K_a)
        assert k.ui.screen == "adjust"
        form = k.ui.forms["adjust"]
        assert isinstance(form, AdjustForm)
        if form.seat != target:  # the form starts on the player adjusted last
            p.touch(Tap("adj.player", target))
        assert p.says("adjust.counter") == ["Life", "Poison"] and form.counter == "life"
        if form.source != source:  # a touch on the chip already chosen changes nothing on screen
            p.touch(Tap("adj.from", (source, 0)))
        for _ in range(fives):
            p.touch(Tap("adj.amount", -5))
        assert k.state is not None
        player = k.state.player(target)
        assert p.says("adjust.preview") == [f"{player.name}: {player.life} → {player.life - 5 * fives}"]
        p.touch(Tap("adj.apply"))

    # Round 1: the second seated knocks out the first, the third the second, in each group.
    hit(one.order[0], one.order[1], 4)
    out, by = names(k, (one.order[0], one.order[1]))
    assert k.ui.messages[-3:] == [f"{out}: 20 → 0 life (from {by}).", f"{out} has lost: 0 or less life.",
                                  f"Group 1: {out} left (1 of 2 for round 1)."]
    hit(one.order[1], one.order[2], 2)
    hit(one.order[1], one.order[2], 2)
    assert consp(k).groups[0].done and consp(k).round == 1
    hit(two.order[0], two.order[3], 4)
    before_end = k.state
    hit(two.order[1], two.order[2], 4)  # the round's last loss: round 2 is drawn at once
    after_end = k.state
    assert consp(k).round == 2
    winners, losers = consp(k).groups
    assert sorted(winners.order) == sorted((*one.order[2:], *two.order[2:]))
    assert sorted(losers.order) == sorted((*one.order[:2], *two.order[:2]))
    assert all(pl.life == 20 and pl.in_game for pl in k.state.players)  # type: ignore[union-attr]

    # UNDO takes the loss and the new round back as one step; Y brings both back.
    p.keys(pygame.K_u)
    assert k.state == before_end
    assert consp(k).round == 1
    p.keys(pygame.K_y)
    assert k.state == after_end

    # Round 2, winners' group: the last seated survives.
    hit(winners.order[0], winners.order[1], 4)
    before_loss = k.state
    hit(winners.order[1], winners.order[3], 4)
    p.keys(pygame.K_u)
    assert k.state == before_loss
    hit(winners.order[1], winners.order[2], 4)
    hit(winners.order[2], winners.order[3], 4)
    assert consp(k).groups[0].done

    # Losers' group: one loss on the adjust screen, then two at once (the console's 'out A B').
    hit(losers.order[0], losers.order[3], 4)
    k.execute(LeaveGroup(seats=(losers.order[1], losers.order[2])))
    state = k.state
    assert state is not None
    result = outcome(state)
    assert result is not None and result.winner == winners.order[3]
    a, b, last = names(k, losers.order[1:])
    assert k.ui.messages[-1] == f"Losers' group: {a} and {b} left: {a} 7th, {b} 6th. {last} is last standing: 5th."
    p.keys(pygame.K_g)
    assert k.ui.screen == "conspiracy"
    assert p.says("consp.place") == ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"]
    ranked = (
        winners.order[3], winners.order[2], winners.order[1], winners.order[0],
        losers.order[3], losers.order[2], losers.order[1], losers.order[0],
    )
    assert p.says("consp.standing") == names(k, ranked)
    assert p.says("consp.group.title") == ["Winners' group: finished", "Losers' group: finished"]
