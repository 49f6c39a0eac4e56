"""The kiosk at a Conspiracy event: an event started on the set-up screen, its pods, the pod's
standings screen, the round's controls (turns, simultaneous losses, the clock, time, the extra
lap), the round's clock in the header, the table options and Rumble picks, in every language
(CJ-1..CJ-6, CJ-8)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from device.game import GAME
from device.commands import ChangeLife, NewGame
from device.inputs import Button
from device.rules.conspiracy.commands import LeaveGroup, StartClock
from device.state import GameState
from device.rules.conspiracy.state import ConspiracyState
from display.kiosk import Kiosk
from display.screens.adjust import AddAmount, AdjustForm, ApplyChange, PickPlayer, PickSource
from display.screens.conspiracy import PickItem
from display.screens.setup import rows
from display.ui import Focus, Go, Press, Tap, Turn
from scenes import POD, POD_CLOCK, SCENES, drawn, texts
from scenes_conspiracy import ELEVEN, EVENT_CLOCK, focus, item, setup_form, start_event
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
    k.execute(
        NewGame(formats=("conspiracy",), players=POD, first=POD[0], options={"time_limit": "90"})
    )
    k.execute(StartClock(now=POD_CLOCK - 75 * 60))  # 85 minutes ago
    k.redraw()
    assert texts(k, "header.clock") == ["残り5:00"]
    k.execute(StartClock(now=POD_CLOCK))  # refused: it runs already
    assert (
        k.ui.error is not None
        and k.ui.words(k.ui.error.text) == "1回戦の時計はすでに動いています。"
    )


def test_cj6_cj8_options_and_rumble_picks_shown(make_kiosk: MakeKiosk) -> None:
    """CJ-6: the table options are shown; CJ-8: an earned pick is announced and kept in view."""
    k = make_kiosk((800, 480), "en")
    SCENES["conspiracy"](k)
    k.redraw()
    assert texts(k, "consp.options") == [
        "Options: attack left only · range of influence 1 · Rumble rule"
    ]
    winners = consp(k).groups[0]
    ben = names(k, (winners.order[1],))[0]
    assert texts(k, "consp.picks") == ["Rumble ×1"]
    row = texts(k, "consp.standing").index(ben)
    assert [d for d in k.canvas.drawn if d.role == "consp.picks"][0].rect[1] == [
        d for d in k.canvas.drawn if d.role == "consp.standing"
    ][row].rect[1]
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
    assert (
        k.ui.messages[-1]
        == f"負けグループ：{a}と{b}が離脱：{a}（7位）、{b}（6位）。最後まで残った{last}が5位です。"
    )


def test_cj_round_one_message_in_russian_and_polish(make_kiosk: MakeKiosk) -> None:
    for language, start in (
        ("ru", "Раунд 1, группы по жребию: группа 1: "),
        ("pl", "Runda 1, grupy wylosowane: grupa 1: "),
    ):
        k = make_kiosk((800, 480), language)
        k.execute(
            NewGame(
                formats=("conspiracy",), players=POD, first=POD[0], options={"attack_left": "on"}
            )
        )
        line = k.ui.messages[-1]
        assert line.startswith(start), line
        one = consp(k).groups[0]
        assert ", ".join(names(k, one.order)) in line
    assert line.endswith("Limit czasu: 75 minut. Zasady stołu: atak tylko w lewo.")


# --- an event started on the set-up screen, and its pods (CJ-1, CJ-2) ---------------------------


def pod_players(state: GameState | None) -> tuple[str, ...]:
    assert state is not None
    return tuple(p.name for p in state.players)


def tap(k: Kiosk, action: Tap) -> None:
    """A finger on the row or chip drawn for ``action`` (it must be on screen)."""
    k.redraw()
    target = next(t for t in k.canvas.targets if t.action == action)
    x, y, w, h = target.rect
    k.touch((x + w // 2, y + h // 2))


def test_cj1_eleven_players_started_on_the_setup_screen_are_pods_of_6_and_5(
    make_kiosk: MakeKiosk,
) -> None:
    """CJ-1, CJ-2: the set-up form with Conspiracy chosen asks for the event's name and up to 32
    players, shows the pod split as the count turns, and starts one pod game per pod as the
    console's 'event' does; pod 1 is shown, with every pod's players and group sizes on screen."""
    k = make_kiosk((800, 480), "en")
    k.dispatch(Go("setup"))
    while setup_form(k).base != "conspiracy":
        k.dispatch(Turn(1))
    # Who goes first is drawn per group, and the event sets its own name and pod numbers.
    assert [kind for kind, _ in rows(setup_form(k))].count("first") == 0
    assert ("option", "event") not in rows(setup_form(k)) and ("option", "pod") not in rows(
        setup_form(k)
    )
    focus(k, "count")
    k.dispatch(Turn(40))  # stops at the most the form lists
    k.redraw()
    assert texts(k, "setup.value.count") == ["32 (pods: 8 + 8 + 8 + 8)"]
    k.dispatch(Turn(11 - 32))
    k.redraw()
    assert texts(k, "setup.value.count") == ["11 (pods: 6 + 5)"]
    start_event(k, "Kyoto", ELEVEN)
    k.redraw()
    assert k.ui.screen == "conspiracy"
    assert k.ui.messages[0] == "Event Kyoto: 11 players in 2 pods: pod 1: 6 (3 + 3); pod 2: 5 (5)."
    assert k.ui.messages[1].startswith("Round 1, groups drawn at random: group 1: ")
    assert pod_players(k.state) == ELEVEN[:6]
    assert (
        k.state is not None and k.state.options["event"] == "Kyoto" and k.state.options["pod"] == 1
    )
    assert texts(k, "consp.heading") == [
        "Kyoto · Pod 1 of 2 · Round 1 · clock not started (75 min)"
    ]
    assert texts(k, "consp.pod.title") == ["Pod 1: 6 players (3 + 3)", "Pod 2: 5 players (5)"]
    panels: dict[int, list[str]] = {}
    for line in drawn(k, "consp.pod.players"):
        panels.setdefault(line.rect[0], []).append(line.text)
    assert [" ".join(lines) for lines in panels.values()] == [
        "Alice, Юрий, さくら, Łukasz, Ben, Ольга",
        "はると, Zofia, Marek, Аня, ゆい",
    ]
    assert texts(k, "consp.pods.hint") == [
        "Pick a pod to show its game: ↑/↓ and SELECT, or touch it."
    ]

    # Pod 2 picked with the encoder and SELECT: its game, one group of 5.
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))
    k.redraw()
    assert pod_players(k.state) == ELEVEN[6:]
    assert texts(k, "consp.heading") == [
        "Kyoto · Pod 2 of 2 · Round 1 · clock not started (75 min)"
    ]
    assert texts(k, "consp.group.title") == ["Group 1"]
    assert len(texts(k, "consp.1.seat")) == 5
    assert texts(k, "consp.chip.next_pod") == ["Show pod 1"]
    # "Show pod 1" (a touch) goes back; "All pods" lists them again, and a touch on one shows it.
    pod1, pod2 = _games(k, "Kyoto")
    tap(k, item("next_pod", pod1))
    assert pod_players(k.state) == ELEVEN[:6]
    k.redraw()
    assert texts(k, "consp.chip.next_pod") == ["Show pod 2"]
    tap(k, item("pods"))
    k.redraw()
    assert texts(k, "consp.pod.title") == ["Pod 1: 6 players (3 + 3)", "Pod 2: 5 players (5)"]
    tap(k, item("show", pod2))
    assert pod_players(k.state) == ELEVEN[6:]


def _games(k: Kiosk, event: str) -> list[int]:
    return sorted(g for g, first in k.games().items() if first.options.get("event") == event)


def test_cj1_only_the_pods_of_the_same_event_are_offered(make_kiosk: MakeKiosk) -> None:
    """CJ-1: another game, and an earlier event of the same name, are not among the pods."""
    k = make_kiosk((800, 480), "en")
    start_event(k, "Kyoto", 11)  # default names: Player 1 … Player 11
    k.execute(NewGame(formats=("commander",), players=("Ann", "Ben")))
    start_event(k, "Kyoto", 12)
    k.redraw()
    assert texts(k, "consp.pod.title") == ["Pod 1: 6 players (3 + 3)", "Pod 2: 6 players (3 + 3)"]
    games = _games(k, "Kyoto")
    assert len(games) == 4 and k.game == games[2]
    tap(k, item("show", games[3]))
    assert k.game == games[3]
    tap(k, item("next_pod", games[2]))
    assert k.game == games[2]


def test_cj1_an_event_with_a_name_twice_is_refused_whole(make_kiosk: MakeKiosk) -> None:
    """CJ-1: the event is checked before any pod starts: nothing is kept, the reason is shown."""
    k = make_kiosk((800, 480), "pl")
    start_event(k, "Kraków", ("Ala", "Ola", "Ewa", "Iza", "Ula", "Ela", "Ada", "Ola"))
    assert k.state is None and k.games() == {}
    assert (
        k.ui.error is not None
        and k.ui.words(k.ui.error.text) == "Imię Ola występuje w wydarzeniu dwa razy."
    )


def test_cj1_the_default_event_name_in_each_language(make_kiosk: MakeKiosk) -> None:
    """Without a keyboard the event keeps the form's default name, in the screen's language."""
    for language, name, heading in (
        ("ru", "Турнир", "Турнир · Под №1 · Раунд 1 · часы не запущены (75 мин)"),
        ("ja", "コンスピラシー大会", "コンスピラシー大会 · ポッド1 · 1回戦 · 時計は未開始（75分）"),
    ):
        k = make_kiosk((800, 480), language)
        start_event(k, None, 4)
        k.redraw()
        assert k.state is not None and k.state.options["event"] == name
        assert texts(k, "consp.heading") == [heading]


# --- the round's controls on the Conspiracy screen (CJ-3..CJ-5) --------------------------------


def test_cj4_several_players_out_at_once_picked_on_the_screen(make_kiosk: MakeKiosk) -> None:
    """CJ-4: players marked with the encoder and SELECT, then "Out together" records one moment."""
    k = make_kiosk((800, 480), "en")
    start_event(k, "Kyoto", POD)
    one, two = consp(k).groups
    # The cursor starts on group 1's first player; the encoder (↑) walks down the rows.
    k.dispatch(Turn(4))  # group 2's first player
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Focus(1))
    k.dispatch(Press(Button.SELECT))
    k.redraw()
    a, b = names(k, two.order[:2])
    assert texts(k, "consp.chip.out") == [f"Out together: {a}, {b}"]
    assert texts(k, "consp.chip.turn") == []  # a turn is one player's
    k.dispatch(Focus(1))
    k.dispatch(Press(Button.SELECT))  # a third marked…
    k.dispatch(Press(Button.SELECT))  # …and unmarked again
    k.redraw()
    assert texts(k, "consp.chip.out") == [f"Out together: {a}, {b}"]
    tap(k, item("out", tuple(two.order[:2])))
    c, d = names(k, two.order[2:])
    assert k.ui.messages[-1] == (
        f"Group 2: {a} and {b} left; round 1 is over for this group: {c} and {d} go to "
        "the winners' group."
    )
    k.redraw()
    assert texts(k, "consp.2.left") == ["out 1", "out 1"]
    assert texts(k, "consp.chip.out") == []  # the marks are spent
    # A finished group's players are no longer rows to pick.
    assert not any(t.action == item("seat", two.order[2]) for t in k.canvas.targets)
    assert any(t.action == item("seat", one.order[0]) for t in k.canvas.targets)


def test_cj5_clock_time_and_an_extra_lap_ranked_by_life_on_the_screen(
    make_kiosk: MakeKiosk,
) -> None:
    """CJ-5: "Start clock", "Call time" (refused with the minutes left until the limit), a turn said
    during the extra lap, "End extra turns" ranks the group's players still in by life."""
    k = make_kiosk((800, 480), "en")
    start_event(k, "Kyoto", ("Ann", "Ben", "Cid", "Dan"))
    k.redraw()
    (group,) = consp(k).groups
    assert texts(k, "consp.chip.clock") == ["Start clock (75 min)"]
    k.controller.clock = lambda: EVENT_CLOCK  # the wall clock commands carry
    tap(k, item("clock"))
    assert k.ui.messages[-1] == "Round 1's clock is running: 75 minutes."
    k.redraw()
    assert texts(k, "header.clock") == ["1:05:00 left"]
    assert texts(k, "consp.chip.time") == ["Call time"]
    tap(k, item("time"))
    assert (
        k.ui.error is not None
        and k.ui.words(k.ui.error.text) == "Time is not up yet: 75 minutes left."
    )
    # Whose turn: mark the second seated, then their chip.
    second, third = group.order[1], group.order[2]
    tap(k, item("seat", second))
    k.redraw()
    assert texts(k, "consp.chip.turn") == [f"{names(k, (second,))[0]}'s turn"]
    tap(k, item("turn", second))
    assert k.ui.messages[-1] == f"Group 1: {names(k, (second,))[0]}'s turn."
    k.execute(ChangeLife(seat=group.order[0], delta=-5))
    k.execute(ChangeLife(seat=third, delta=-5))
    k.controller.clock = lambda: EVENT_CLOCK + 75 * 60
    tap(k, item("time"))
    assert k.ui.messages[-1].startswith("Time! Extra turns:")
    assert k.ui.messages[-1].endswith(f"(Group 1 from {names(k, (second,))[0]}).")
    k.redraw()
    assert texts(k, "consp.chip.finish") == ["End extra turns: Group 1"]
    assert "extra turns" in texts(k, "consp.heading")[0]
    tap(k, item("seat", third))
    tap(k, item("turn", third))
    assert k.ui.messages[-1] == f"Group 1: {names(k, (third,))[0]}'s turn (extra turns after time)."
    tap(k, item("finish", "1"))
    ahead = [
        s for s in group.order if s not in (group.order[0], third)
    ]  # 20 life, the later seat first
    behind = [third, group.order[0]]
    ahead.sort(key=lambda s: -group.order.index(s))
    stay, go = names(k, tuple(ahead)), names(k, tuple(behind))
    assert k.ui.messages[-2] == (
        f"Group 1: the extra turns are over; by life {stay[0]} and {stay[1]} go to the "
        f"winners' group, {go[0]} and {go[1]} to the losers' group."
    )
    assert consp(k).round == 2
    k.redraw()
    assert texts(k, "consp.chip.clock") == ["Start clock (75 min)"]  # round 2 has its own clock


def test_cj_the_controls_read_in_russian_japanese_and_polish(make_kiosk: MakeKiosk) -> None:
    for language, out, clock, pods in (
        ("ru", "Выбывают вместе: ", "Запустить часы (75 мин)", "Все поды"),
        ("ja", "同時に離脱：", "時計を開始（75分）", "全ポッド"),
        ("pl", "Odpadają razem: ", "Uruchom zegar (75 min)", "Wszystkie pody"),
    ):
        k = make_kiosk((800, 480), language)
        start_event(k, None, 11)
        k.dispatch(Press(Button.SELECT))
        one, _ = consp(k).groups
        tap(k, item("seat", one.order[0]))
        tap(k, item("seat", one.order[1]))
        k.redraw()
        assert texts(k, "consp.chip.out") == [out + ", ".join(names(k, one.order[:2]))]
        assert texts(k, "consp.chip.clock") == [clock]
        assert texts(k, "consp.chip.pods") == [pods]


# --- end to end, with the keys and the adjust screen ----------------------------------------------


def event_by_keys(p: Player, k: Kiosk, name: str, players: tuple[str, ...]) -> None:
    """F2; ↑ turns the base format to Conspiracy; → to the event's name, typed; Enter goes on to
    the count, turned with ↑; → and each name typed; → to the start row and Enter."""
    p.keys(pygame.K_F2)
    while setup_form(k).base != "conspiracy":
        p.keys(pygame.K_UP)
    while rows(setup_form(k))[setup_form(k).row][0] != "event":
        p.keys(pygame.K_RIGHT)
    p.keys(*[pygame.K_BACKSPACE] * len(setup_form(k).event or ""), text=name)
    assert p.says("setup.value.event") == [f"{name}_"]
    p.keys(pygame.K_RETURN)
    for _ in range(len(players) - setup_form(k).count):
        p.keys(pygame.K_UP)
    for player in players:
        p.keys(pygame.K_RIGHT)
        seat = int(rows(setup_form(k))[setup_form(k).row][1])
        p.keys(*[pygame.K_BACKSPACE] * len(setup_form(k).names[seat]), text=player)
    while rows(setup_form(k))[setup_form(k).row][0] != "start":
        p.keys(pygame.K_RIGHT)
    assert p.says("setup.start") == ["Start the event"]
    p.keys(pygame.K_RETURN)


def test_cj1_cj5_a_whole_pod_played_on_the_kiosk(make_kiosk: MakeKiosk, tmp_path: Path) -> None:
    """CJ-1..CJ-5: an 8-player event started on the set-up screen with the keys (one pod, as the
    console's 'event' starts it); every loss is a life change entered on the adjust screen with its
    source, and a simultaneous loss is picked on the Conspiracy screen; round 1 ends when two have
    left each group, round 2 is drawn and played to the end; UNDO takes a round's end and a loss
    back exactly, and the standings screen lists places 1–8 in order."""
    k = make_kiosk((800, 480), "en", screenshots=tmp_path / "shots")
    p = Player(k)
    event_by_keys(p, k, "Kyoto", POD)
    assert k.ui.screen == "conspiracy"
    assert k.state is not None and k.state.options == {
        **k.state.options,
        "event": "Kyoto",
        "pod": 1,
    }
    assert p.says("consp.heading") == ["Kyoto · Pod 1 · Round 1 · clock not started (75 min)"]
    assert [pl.name for pl in k.state.players] == list(POD)
    one, two = consp(k).groups
    assert (len(one.order), len(two.order), one.to_leave, two.to_leave) == (4, 4, 2, 2)

    def hit(target: int, source: int, fives: int) -> None:
        """A = adjust screen; touch the player, life, the source, −5 × fives, Apply."""
        p.keys(pygame.K_a)
        assert k.ui.screen == "adjust"
        if k.ui.state_of(AdjustForm).seat != target:  # the form starts on the player adjusted last
            p.touch(PickPlayer(target))
        # No commander damage in a pod: the player's counters follow poison.
        assert (
            p.says("adjust.counter")[:3] == ["Life", "Poison", "Energy"]
            and k.ui.state_of(AdjustForm).counter == "life"
        )
        if (
            k.ui.state_of(AdjustForm).source != source
        ):  # a touch on the chip already chosen changes nothing on screen
            p.touch(PickSource(source, 0))
        for _ in range(fives):
            p.touch(AddAmount(-5))
        assert k.state is not None
        player = k.state.player(target)
        assert p.says("adjust.preview") == [
            f"{player.name}: {player.life} → {player.life - 5 * fives}"
        ]
        p.touch(ApplyChange())

    # Round 1: the second seated knocks out the first, the third the second, in each group.
    hit(one.order[0], one.order[1], 4)
    out, by = names(k, (one.order[0], one.order[1]))
    assert k.ui.messages[-3:] == [
        f"{out}: 20 → 0 life (from {by}).",
        f"{out} has lost: 0 or less life.",
        f"Group 1: {out} left (1 of 2 for round 1).",
    ]
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

    # Losers' group: one loss on the adjust screen, then two at once, marked on the Conspiracy
    # screen (a touch on each row) and recorded with the "Out together" chip.
    hit(losers.order[0], losers.order[3], 4)
    if k.ui.screen != "conspiracy":
        p.keys(pygame.K_g)
    p.touch(item("seat", losers.order[1]))
    p.touch(item("seat", losers.order[2]))
    p.touch(item("out", (losers.order[1], losers.order[2])))
    state = k.state
    assert state is not None
    result = GAME.outcome(state)
    assert result is not None and result.winner == winners.order[3]
    a, b, last = names(k, losers.order[1:])
    assert (
        k.ui.messages[-1]
        == f"Losers' group: {a} and {b} left: {a} 7th, {b} 6th. {last} is last standing: 5th."
    )
    assert k.ui.screen == "conspiracy"
    assert p.says("consp.place") == ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"]
    ranked = (
        winners.order[3],
        winners.order[2],
        winners.order[1],
        winners.order[0],
        losers.order[3],
        losers.order[2],
        losers.order[1],
        losers.order[0],
    )
    assert p.says("consp.standing") == names(k, ranked)
    assert p.says("consp.group.title") == ["Winners' group: finished", "Losers' group: finished"]


def test_cj5_the_round_clock_stops_counting_once_the_pod_is_placed(make_kiosk: MakeKiosk) -> None:
    """The header counts the round's time down while the pod plays, and shows nothing once the
    last group is over (not "56:31 left" after the event ended)."""
    k = make_kiosk((800, 480), "en")
    SCENES["conspiracy"](k)
    k.redraw()
    assert texts(k, "header.clock") and texts(k, "header.clock")[0].endswith("left")
    for _ in range(8):
        state = k.state
        assert state is not None and state.conspiracy is not None
        playing = [g for g in state.conspiracy.groups if not g.done]
        if not playing:
            break
        left = {s for batch in playing[0].left for s in batch}
        k.execute(LeaveGroup(seats=(next(s for s in playing[0].order if s not in left),)))
    state = k.state
    assert (
        state is not None
        and state.conspiracy is not None
        and all(g.done for g in state.conspiracy.groups)
    )
    k.redraw()
    assert texts(k, "header.clock") == []


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_groups_screens_chips_stay_put_when_a_message_times_out(
    make_kiosk: MakeKiosk, size: tuple[int, int], language: str
) -> None:
    """A two-line message on the status line, then none once it times out: the GROUPS screen's
    seats keep their places, so a touch on its way to one still lands on it (at 320×240 the
    status line went from two lines to one and every chip moved by a line)."""
    now = [1000.0]
    k = make_kiosk(size, language, clock=lambda: now[0])
    k.execute(NewGame(formats=("conspiracy",), players=POD, first=POD[0], options={"pod": "2"}))
    k.dispatch(Go("conspiracy"))
    k.execute(LeaveGroup(seats=(consp(k).groups[0].order[0],)))  # two lines of news
    k.redraw()
    assert len(k.ui.messages) >= 2
    tall = k.ui.status_floor

    def seats() -> list[tuple[object, tuple[int, int, int, int]]]:
        return [(t.action, t.rect) for t in k.canvas.targets if isinstance(t.action, PickItem)]

    before = seats()
    assert before
    now[0] += 60.0
    k.step(block=False)  # the loop wakes at the message's deadline: it times out
    k.redraw()
    assert k.ui.messages == []
    assert seats() == before
    lay = k.canvas.layout
    if (size, language) == (
        (320, 240),
        "ru",
    ):  # two lines of news there: before, a line's room went with it
        assert tall > k.canvas.fonts.line_height(lay.small) + lay.margin // 2
