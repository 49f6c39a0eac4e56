"""The saved games on the kiosk: listed as the console lists them, scrolled with the encoder,
resumed with SELECT, NEXT or a touch, deleted with two presses of UNDO or two touches of Delete
and never with one; reached with key S, the set-up's chip and a long SELECT there — by keys,
touches and the GPIO buttons on mock pins, through the kiosk's own loop."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hands import Hands
from scenes import LANGUAGES, SIZES, assert_readable, texts
from scenes_games import saved
from test_dice_screen import Wired

from device.commands import ChangeLife, NewGame
from device.controller import Controller
from device.inputs import Button, EncoderTurned
from display.kiosk import Kiosk
from display.screens.games import CONFIRM, DeleteGame, GameRow, GamesScroll, GamesView
from display.screens.setup import SavedGames, SetupForm
from display.targets import OffscreenTarget
from display.ui import Go, Press, Turn

MakeKiosk = Callable[..., Kiosk]


def listed(k: Kiosk) -> list[str]:
    """The rows in view: each game's title line, then its detail line (the time written WHEN)."""
    shown = []
    for index in range(len(k.ui.state_of(GamesView).games)):
        title = texts(k, f"games.row{index}")
        if title:
            detail = re.sub(
                r"\d{4}-\d\d-\d\d \d\d:\d\d", "WHEN", texts(k, f"games.detail{index}")[0]
            )
            shown.append(f"{title[0]} | {detail}")
    return shown


def numbers(k: Kiosk) -> list[int]:
    return [saved_game.id for saved_game in k.ui.state_of(GamesView).games]


def cursor(k: Kiosk) -> int:
    view = k.ui.state_of(GamesView)
    return view.games[view.cursor].id


def key(hands: Hands, k: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))
    hands.kiosk.settle()


@pytest.fixture
def five(make_kiosk: MakeKiosk) -> Kiosk:
    """A kiosk with the scenes' five saved games, game 5 being played, at 800×480."""
    k = make_kiosk((800, 480), "en")
    saved(k)
    return k


def test_key_s_lists_the_games_as_the_console_words_them(five: Kiosk) -> None:
    hands = Hands(five)
    hands.keys(pygame.K_s)
    assert five.ui.screen == "games"
    assert texts(five, "games.title") == ["Saved games: 5"]
    assert (
        numbers(five) == [5, 4, 3, 2, 1] and cursor(five) == 5
    )  # the cursor on the game being played
    assert listed(five)[:4] == [
        "5. Commander: Alice, Юрий, さくら, Łukasz | WHEN · turn 2 · playing now",
        "4. Conspiracy pod: Ann, Ben, Cy, Dee, Eve, Fay | WHEN · round 1",
        "3. Wizard's Duel: Alice, Юрий, さくら | WHEN · round 1",
        "2. Two-player game: Ola, Ela | WHEN · over: Ola won (last player standing)",
    ]
    console = five.controller.saved_games()
    assert [str(s.progress) for s in console] == [
        "turn 2",
        "round 1",
        "round 1",
        "over: Ola won (last player standing)",
        "turn 3",
    ]
    assert texts(five, "games.hint") == ["SELECT or a tap: resume · UNDO or Delete: delete"]
    assert (
        texts(five, "games.delete0") == ["Delete"] and texts(five, "games.delete1") == []
    )  # the cursor's row only


@pytest.mark.parametrize("size", SIZES)
def test_hw4_ten_and_more_games_scroll_with_the_encoder_at_every_size(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    k = make_kiosk(size, "en")
    for n in range(12):
        k.execute(NewGame(players=(f"P{n}", "Q"), first="Q"))
    hands = Hands(k)
    hands.keys(pygame.K_s)
    assert cursor(k) == 12
    hidden = [int(t) for t in texts(k, "games.more")]
    shown = len(listed(k))
    assert shown >= 2 and hidden == [12 - shown]  # only below: the cursor is at the top
    for _ in range(11):
        hands.keys(pygame.K_UP)  # a clockwise turn: the next game down the list
    assert cursor(k) == 1 and listed(k)[-1].startswith("1. Free-for-all: P0, Q")
    assert [int(t) for t in texts(k, "games.more")] == [12 - len(listed(k))]  # only above now
    assert_readable(k, size)
    hands.touch(GamesScroll(12 - len(listed(k)) - 1))  # the upper marker: one more into view
    assert cursor(k) == len(listed(k)) + 1


def test_hw1_the_gpio_encoder_and_buttons_list_resume_and_delete(
    five: Kiosk, mock_factory: MockFactory
) -> None:
    """Long SELECT opens the set-up, a second one the saved games; the encoder moves, UNDO twice
    deletes, SELECT resumes: the real GPIO driver on mock pins, feeding the kiosk's loop."""
    wired = Wired(five, mock_factory)
    try:
        wired.press(Button.SELECT, hold=1.0)
        assert five.ui.screen == "setup"
        wired.press(Button.SELECT, hold=1.0)
        assert five.ui.screen == "games"
        five.inputs.put(EncoderTurned(2))  # what the encoder's callback puts
        five.settle()
        assert cursor(five) == 3
        wired.press(Button.UNDO)
        assert five.ui.state_of(GamesView).armed == 3 and numbers(five) == [5, 4, 3, 2, 1]
        wired.press(Button.UNDO)
        assert (
            numbers(five) == [5, 4, 2, 1] and cursor(five) == 2
        )  # the next game under the deleted one
        wired.press(Button.SELECT)
        assert five.ui.screen == "table" and five.controller.game == 2
    finally:
        wired.buttons.close()


def test_select_next_and_a_touch_resume_a_game(five: Kiosk) -> None:
    hands = Hands(five)
    hands.keys(pygame.K_s, pygame.K_UP, pygame.K_UP, pygame.K_TAB)  # SELECT
    assert five.ui.screen == "table" and five.controller.game == 3
    assert five.ui.messages == ["Resumed game 3: Wizard's Duel: Alice, Юрий, さくら."]
    hands.keys(pygame.K_s)
    assert cursor(five) == 3
    hands.keys(pygame.K_UP, pygame.K_RETURN)  # NEXT
    assert five.controller.game == 2
    hands.keys(pygame.K_s)
    assert cursor(five) == 2
    hands.touch(GameRow(2))  # another game: a touch only moves the cursor there
    assert five.ui.screen == "games" and cursor(five) == 3
    hands.touch(GameRow(2))  # on the cursor's game: resumed
    assert five.ui.screen == "table" and five.controller.game == 3


def test_two_presses_of_undo_delete_and_anything_between_keeps_the_game(five: Kiosk) -> None:
    hands = Hands(five)
    hands.keys(pygame.K_s, pygame.K_UP)
    hands.keys(pygame.K_BACKSPACE)  # UNDO: asks
    assert (
        listed(five)[1]
        == "4. Conspiracy pod: Ann, Ben, Cy, Dee, Eve, Fay | Delete game 4 for good?"
    )
    assert texts(five, "games.hint") == ["UNDO or Delete again: delete it · anything else keeps it"]
    for other in (
        pygame.K_UP,
        pygame.K_TAB,
        pygame.K_RETURN,
        pygame.K_ESCAPE,
        pygame.K_y,
        pygame.K_SPACE,
    ):
        hands.keys(other)  # a turn, SELECT, NEXT, Esc, redo, ROLL: each only keeps the game
        assert five.ui.screen == "games" and five.ui.state_of(GamesView).armed is None, other
        assert numbers(five) == [5, 4, 3, 2, 1] and cursor(five) == 4 and five.controller.game == 5
        hands.keys(pygame.K_u)  # UNDO again: asks again
    hands.keys(pygame.K_u)
    assert numbers(five) == [5, 3, 2, 1] and five.controller.game == 5
    assert five.ui.messages == ["Deleted game 4: Conspiracy pod: Ann, Ben, Cy, Dee, Eve, Fay."]
    assert (
        five.controller.state is not None and five.controller.last_change() is not None
    )  # game 5 as it was


def test_two_touches_of_delete_delete_and_a_touch_elsewhere_keeps_the_game(five: Kiosk) -> None:
    hands = Hands(five)
    hands.keys(pygame.K_s)
    hands.touch(GameRow(2))  # the cursor onto game 3
    hands.touch(DeleteGame(2))
    assert five.ui.state_of(GamesView).armed == 3
    hands.touch(GameRow(2))  # a touch beside the red chip: kept, not resumed
    assert (
        five.ui.state_of(GamesView).armed is None
        and five.ui.screen == "games"
        and numbers(five)[2] == 3
    )
    hands.touch(DeleteGame(2))
    hands.touch(DeleteGame(2))
    assert numbers(five) == [5, 4, 2, 1]


def test_a_question_left_unanswered_lapses_without_polling(make_kiosk: MakeKiosk) -> None:
    now = [1000.0]
    k = make_kiosk((480, 320), "en", clock=lambda: now[0])
    saved(k)
    hands = Hands(k)
    hands.keys(pygame.K_s, pygame.K_BACKSPACE)
    assert k.deadline() == 1000.0 + CONFIRM  # the loop sleeps until then, and no longer
    now[0] += CONFIRM
    k.step(block=False)
    assert k.ui.state_of(GamesView).armed is None and texts(k, "games.hint")[0].startswith("SELECT")
    hands.keys(pygame.K_BACKSPACE)  # one press after the lapse only asks again
    assert numbers(k) == [5, 4, 3, 2, 1] and k.ui.state_of(GamesView).armed == 5


def test_deleting_the_game_being_played_goes_to_set_up_with_its_players(five: Kiosk) -> None:
    hands = Hands(five)
    hands.keys(pygame.K_s, pygame.K_BACKSPACE, pygame.K_BACKSPACE)
    assert five.ui.screen == "setup" and five.controller.game is None and five.state is None
    assert five.ui.messages == [
        "Deleted game 5: Commander: Alice, Юрий, さくら, Łukasz. No game is running now."
    ]
    form = five.ui.state_of(SetupForm)
    assert (form.base, form.count, form.names[:4]) == (
        "commander",
        4,
        ("Alice", "Юрий", "さくら", "Łukasz"),
    )
    assert texts(five, "setup.games") == ["Saved games: 4"]
    assert texts(five, "header.headline") == ["aetherbox"]
    hands.keys(pygame.K_RETURN)  # NEXT starts the table's next game with them
    assert five.controller.game == 6 and [p.name for p in five.state.players] == [
        "Alice",
        "Юрий",
        "さくら",
        "Łukasz",
    ]


def test_a_fresh_kiosk_with_no_game_shown_offers_the_last_games_players(
    make_kiosk: MakeKiosk,
) -> None:
    k = make_kiosk((800, 480), "en")
    saved(k)
    k.execute(ChangeLife(seat=1, delta=-1))
    k.controller.delete(5)  # at the console, say: no game is shown any more
    fresh = Kiosk(Controller(k.controller.journal), k.target, fonts=k.fonts, clock=lambda: 1000.0)
    hands = Hands(fresh)
    hands.keys(pygame.K_RETURN)  # with no game, NEXT opens the set-up
    form = fresh.ui.state_of(SetupForm)
    assert fresh.ui.screen == "setup" and form.game == 4  # the game played last
    assert (form.base, form.names[:6]) == ("conspiracy", ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay"))


def test_the_set_ups_chip_opens_the_saved_games_and_esc_comes_back(five: Kiosk) -> None:
    hands = Hands(five)
    hands.keys(pygame.K_F2)
    hands.touch(SavedGames())
    assert five.ui.screen == "games"
    hands.keys(pygame.K_ESCAPE)
    assert five.ui.screen == "table"  # a game is being played: back to it


def test_with_no_saved_game_the_set_up_has_no_chip_and_the_list_says_so(
    make_kiosk: MakeKiosk,
) -> None:
    k = make_kiosk((480, 320), "en")
    hands = Hands(k)
    hands.keys(pygame.K_F2)
    assert texts(k, "setup.games") == [] and texts(k, "setup.title") == ["New game"]
    key(hands, pygame.K_TAB, pygame.KMOD_SHIFT)  # a long SELECT
    assert k.ui.screen == "games" and texts(k, "games.empty") == ["No saved games yet."]
    hands.keys(pygame.K_BACKSPACE)  # nothing to delete
    hands.keys(pygame.K_RETURN)  # nothing to resume: a new game
    assert k.ui.screen == "setup"


def test_hw5_a_damaged_game_is_listed_and_deleted_on_the_kiosk(five: Kiosk) -> None:
    path = five.controller.journal.path
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(
        "UPDATE events SET body = replace(body, '\"Ola\"', '\"Olaf\"') WHERE game = 2 AND pos = 0"
    )
    db.close()
    hands = Hands(five)
    hands.keys(pygame.K_s)
    assert listed(five)[3] == "2. Two-player game: Ola, Ela | WHEN · damaged, cannot be played"
    hands.keys(pygame.K_UP, pygame.K_UP, pygame.K_UP, pygame.K_BACKSPACE, pygame.K_BACKSPACE)
    assert numbers(five) == [5, 4, 3, 1] and five.controller.game == 5
    hands.keys(
        pygame.K_F2
    )  # the set-up reads every game's start: the damaged one is gone, nothing fails
    assert texts(five, "setup.games") == ["Saved games: 4"]


@pytest.mark.parametrize(
    ("language", "title", "detail", "ask"),
    [
        (
            "ru",
            "2. Игра вдвоём: Ola, Ela",
            "окончена: победитель — Ola (последний оставшийся игрок)",
            "Удалить игру 2 навсегда?",
        ),
        (
            "ja",
            "2. 二人対戦：Ola、Ela",
            "終了：Olaの勝利（最後まで残ったプレイヤー）",
            "ゲーム2を完全に消しますか？",
        ),
        (
            "pl",
            "2. Gra dwuosobowa: Ola, Ela",
            "zakończona: wygrywa Ola (ostatni gracz w grze)",
            "Usunąć grę 2 na zawsze?",
        ),
    ],
)
def test_the_saved_games_in_the_tables_language(
    make_kiosk: MakeKiosk, language: str, title: str, detail: str, ask: str
) -> None:
    k = make_kiosk((800, 480), language)
    saved(k)
    hands = Hands(k)
    hands.keys(pygame.K_s, pygame.K_UP, pygame.K_UP, pygame.K_UP)
    assert f"{title} | WHEN · {detail}" in listed(k)
    hands.keys(pygame.K_BACKSPACE)
    assert f"{title} | {ask}" in listed(k)


@pytest.mark.parametrize("language", LANGUAGES)
def test_hw4_nothing_is_cut_at_any_size(make_kiosk: MakeKiosk, language: str) -> None:
    k = make_kiosk((800, 480), language)
    saved(k)
    k.dispatch(Go("games"))
    for armed in (False, True):
        if armed:
            k.dispatch(Press(Button.UNDO))
        for size in (*SIZES, (1920, 1080)):
            k.retarget(OffscreenTarget(size))
            k.redraw()
            assert_readable(k, size)
            assert listed(k)
    assert k.fonts.missing == set()


def test_turns_move_the_cursor_within_the_list(five: Kiosk) -> None:
    five.dispatch(Go("games"))
    five.dispatch(Turn(-3))
    assert cursor(five) == 5
    five.dispatch(Turn(40))
    assert cursor(five) == 1
