"""The kiosk in a Necromancer game: who was responsible for a loss, asked on screen; minions and
their masters on the table's seats and the Necromancer screen; solo turns (NC-1, NC-3..NC-6)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from device.commands import Concede, Lose, NewGame, PassTurn, SetLife
from device.inputs import Button
from device.rules.necromancer.commands import SoloTurn
from device.rules.necromancer.state import NecromancerState, Phase
from display.kiosk import Kiosk
from display.screens.necromancer import BlameTap, NecromancerAsk
from display.ui import Go, Press, Turn
from scenes import PLAYERS, SCENES, texts
from test_e2e import Player

MakeKiosk = Callable[..., Kiosk]


def necro(kiosk: Kiosk) -> NecromancerState:
    assert kiosk.state is not None and kiosk.state.necromancer is not None
    return kiosk.state.necromancer


def test_nc1_a_loss_brings_up_the_question_with_the_recorded_answer_picked(
    make_kiosk: MakeKiosk,
) -> None:
    """NC-1: the loser's screen asks who was responsible; the player the damage came from is picked."""
    k = make_kiosk((800, 480), "en")
    SCENES["necro-ask"](k)
    k.redraw()
    assert k.ui.screen == "necromancer"
    assert texts(k, "necro.ask") == ["Who made Юрий lose?"]
    assert texts(k, "necro.answer") == [
        "Alice",
        "さくら",
        "Łukasz",
        "Nobody (self-inflicted or unknown)",
    ]
    assert k.ui.state_of(NecromancerAsk).pick == 0  # Alice, whose damage it was
    assert necro(k).seat(1).master == 0


def test_nc1_another_answer_settles_the_loss_again_through_the_rules(make_kiosk: MakeKiosk) -> None:
    """NC-1: the encoder (↑) picks the next player, SELECT puts the loss down to them (the rules' Blame)."""
    k = make_kiosk((800, 480), "en")
    SCENES["necro-ask"](k)
    before = len(k.history())
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))
    assert len(k.history()) == before + 1
    assert necro(k).seat(1).master == 2
    assert k.ui.messages == [
        "Юрий's loss is now put down to さくら.",
        "Юрий comes back as さくら's minion at 30 life, after three solo turns apart from the game.",
    ]
    k.redraw()
    assert texts(k, "necro.ask") == []
    assert texts(k, "necro.row1") == ["minion of さくら · solo 0/3 · can't win"]


def test_nc1_a_touch_on_nobody_makes_a_masterless_minion(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((480, 320), "en")
    SCENES["necro-ask"](k)
    k.redraw()
    target = next(t for t in k.canvas.targets if t.action == BlameTap(None))
    x, y, w, h = target.rect
    k.touch((x + w // 2, y + h // 2))
    record = necro(k).seat(1)
    assert record.minion and record.master is None
    assert k.ui.messages[0] == "Юрий's loss is now put down to nobody."


def test_nc1_confirming_the_recorded_answer_changes_nothing(make_kiosk: MakeKiosk) -> None:
    """SELECT on the answer already recorded closes the question without a command."""
    k = make_kiosk((800, 480), "en")
    SCENES["necro-ask"](k)
    before = len(k.history())
    k.dispatch(Press(Button.NEXT))
    assert len(k.history()) == before
    assert k.ui.error is None
    k.redraw()
    assert texts(k, "necro.ask") == []
    assert texts(k, "necro.title") == ["Masters and minions"]


def test_nc1_the_question_is_gone_after_undoing_the_loss(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    SCENES["necro-ask"](k)
    k.dispatch(Press(Button.UNDO))
    assert necro(k).last_death is None
    k.dispatch(Go("necromancer"))
    k.redraw()
    assert texts(k, "necro.ask") == []


def test_nc4_a_minions_seat_names_their_master(make_kiosk: MakeKiosk) -> None:
    """NC-4: the table shows whose minion each player is, solo turns done and who can win."""
    k = make_kiosk((800, 480), "en")
    SCENES["necro-table"](k)
    k.redraw()
    assert texts(k, "seat0.badges") == ["can win"]
    assert texts(k, "seat1.badges") == ["minion of Alice · solo 1/3 · can't win"]
    assert texts(k, "seat2.badges") == ["masterless minion · solo 0/3 · can't win"]
    assert texts(k, "necro.row0") == []  # the table, not the Necromancer screen


def test_nc4_the_necromancer_screen_lists_masters_and_their_minions(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    SCENES["necromancer"](k)
    k.redraw()
    assert texts(k, "necro.name") == list(PLAYERS)
    assert texts(k, "necro.row0") == ["never died · can win · minions: Юрий"]
    assert texts(k, "necro.row1") == ["minion of Alice · solo 1/3 · can't win"]
    assert texts(k, "necro.row3") == ["never died · can win"]
    assert texts(k, "necro.solo.hint") == ["SELECT: Юрий finished a solo turn"]


def test_nc5_nc6_a_player_out_for_good_says_so(make_kiosk: MakeKiosk) -> None:
    """NC-6: a player who concedes is out for good, on the seat and on the screen."""
    k = make_kiosk((800, 480), "en")
    k.execute(NewGame(formats=("necromancer",), players=(*PLAYERS, "Bea"), first=PLAYERS[0]))
    k.execute(Concede(seat=3))
    assert k.ui.screen != "necromancer"  # nobody to blame for a concession
    k.redraw()
    assert texts(k, "seat3.badges") == ["out for good"]
    k.dispatch(Go("necromancer"))
    k.redraw()
    assert texts(k, "necro.row3") == ["out for good"]


def test_nc6_a_player_back_at_full_status_cannot_win_on_the_screen(make_kiosk: MakeKiosk) -> None:
    """NC-5, NC-6: Юрий made his master lose and has full status, but has died: the seat and the
    screen say he can't win, as the console's 'minions' does (only a player who never died can)."""
    k = make_kiosk((800, 480), "en")
    k.execute(NewGame(formats=("necromancer",), players=PLAYERS, first=PLAYERS[0]))
    k.execute(SetLife(seat=1, life=0, source=0))
    for _ in range(3):
        k.execute(SoloTurn(seat=1))
    k.execute(PassTurn())  # Юрий phases in
    k.execute(Lose(seat=0, source=1))
    k.dispatch(Press(Button.NEXT))  # it was Юрий, as recorded
    k.redraw()
    assert texts(k, "necro.row1") == ["full status · can't win · minions: Alice"]
    assert texts(k, "necro.row2") == ["never died · can win"]
    k.dispatch(Go("table"))
    k.redraw()
    assert texts(k, "seat1.badges") == ["can't win"]


def test_nc3_the_upkeep_banner_reminds_of_solo_turns(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    SCENES["necro-table"](k)
    k.dispatch(Press(Button.NEXT))  # Alice passes the turn: the two minions' seats are passed over
    k.redraw()
    assert texts(k, "header.headline") == ["Łukasz's upkeep"]
    assert texts(k, "banner.item")[1:] == [
        "• Юрий: solo turn 2 of 3, apart from the game",
        "• さくら: solo turn 1 of 3, apart from the game",
    ]


def test_nc_translated_prompt_and_messages(make_kiosk: MakeKiosk) -> None:
    """The question, the answers and the rules' messages in the table's language."""
    k = make_kiosk((1280, 720), "ru")
    SCENES["necro-ask"](k)
    k.redraw()
    assert texts(k, "necro.ask") == ["Выбывает: Юрий. Кто виноват?"]
    assert texts(k, "necro.answer")[-1] == "Никто (сам игрок или неизвестно)"
    assert k.ui.messages[-1] == (
        "Юрий возвращается миньоном игрока Alice с 30 жизни, сначала сыграв три "
        "хода отдельно от общей игры."
    )
    k.dispatch(Press(Button.NEXT))
    k.dispatch(Go("table"))
    k.redraw()
    assert texts(k, "seat1.badges") == ["миньон игрока Alice · соло 0/3 · не может победить"]
    ja = make_kiosk((800, 480), "ja")
    SCENES["necro-table"](ja)
    ja.redraw()
    assert texts(ja, "seat1.badges") == ["Aliceのミニオン · 単独1/3 · 勝利不可"]
    ja.execute(SetLife(seat=0, life=0, source=1))  # NC-4: a minion may not hurt their master
    assert ja.ui.error is not None
    assert (
        ja.ui.words(ja.ui.error.text)
        == "Юрийは単独ターン中でフェイズ・アウトしています。フェイズ・インするまで他のプレイヤーを傷つけられません。"
    )


def test_nc_end_to_end_loss_question_minion_solo_turns_and_back(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """NC-1, NC-3: with the documented keys only — Юрий is taken below 0 on the table, the
    kiosk asks who did it, the table says whose minion he is, three solo turns, and he is back."""
    k = make_kiosk((800, 480), "en", screenshots=tmp_path / "shots")
    k.execute(NewGame(formats=("necromancer",), players=PLAYERS, first=PLAYERS[0]))
    p = Player(k)
    p.keys(pygame.K_RETURN)  # Alice's main phase
    p.keys(pygame.K_RIGHT)  # Юрий's seat
    p.keys(pygame.K_DOWN)  # the encoder: Юрий's life, from Alice, shown at once
    p.keys(*[pygame.K_PAGEDOWN] * 8)
    assert k.ui.screen == "table"
    assert p.says("seat1.pending") == ["−41"] and p.says("seat1.life") == ["-1"]
    p.keys(pygame.K_RETURN)  # NEXT makes it first: Юрий loses, and the kiosk asks who did it
    assert k.ui.screen == "necromancer"
    assert k.state is not None and k.state.active == 0  # the question stopped NEXT: no turn passed
    assert p.says("necro.ask") == ["Who made Юрий lose?"]
    p.keys(pygame.K_UP)  # it was さくら, really
    p.keys(pygame.K_TAB)
    assert p.says("necro.row1") == ["minion of さくら · solo 0/3 · can't win"]
    p.keys(pygame.K_t)
    assert p.says("seat1.badges") == ["minion of さくら · solo 0/3 · can't win"]
    assert p.says("seat1.life") == ["30"]
    p.keys(pygame.K_m)
    for number in (1, 2):
        p.keys(pygame.K_TAB)
        assert p.says("status.messages") == [f"Юрий finished solo turn {number} of 3."]
    p.keys(pygame.K_TAB)
    assert p.says("status.messages") == [
        "Юрий finished their three solo turns and phases in when their seat's turn comes up."
    ]
    assert p.says("necro.row1") == ["minion of さくら · phases in at their turn · can't win"]
    assert necro(k).seat(1).phase is Phase.WAITING
    p.keys(pygame.K_RETURN)  # Alice passes the turn: Юрий's seat is next
    assert k.ui.screen == "table"
    assert p.says("header.headline") == ["Юрий's upkeep"]
    assert (
        "Юрий phases in and plays their 4th turn as a member of the game."
        in p.says("status.messages")[0]
    )
    assert p.says("seat1.badges") == ["minion of さくら · can't win"]
    assert necro(k).seat(1).phase is Phase.IN
