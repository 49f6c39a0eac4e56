"""The game clock and the turn timer on the kiosk: the table's header says how long the game has
been played and counts the active player's turn down; the loop wakes once a minute for the one
and once a second for the other; the timer running out is said on the status line and sounded
on the buzzer, and passes nothing.  A break is UNDO held: on the keys (Shift+Backspace), a touch on
the time played and the GPIO button alike; a short UNDO takes back the last change of the game and
leaves the break be, and the break is kept across a restart.  Time is
the test's: the kiosk's clocks and its controller's move only when a test moves them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hands import Hands, Wired
from scenes import PLAYERS, SIZES, assert_readable, drawn, texts
from scenes_clock import scene_clock

from device.commands import NewGame
from device.controller import Controller
from device.inputs import Button
from device.journal import Journal
from display.kiosk import Kiosk
from display.render import PAUSE
from display.targets import OffscreenTarget
from display.ui import Go
from drivers.feedback import Cue, FakeFeedback

MakeKiosk = Callable[..., Kiosk]
WALL = 1.7e9


class Time:
    """The kiosk's two clocks, moved together: monotonic for its deadlines, the wall clock for
    the game clock (the controller's too)."""

    def __init__(self) -> None:
        self.mono = 1000.0
        self.wall = WALL

    def monotonic(self) -> float:
        return self.mono

    def now(self) -> float:
        return self.wall

    def pass_(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += seconds


@pytest.fixture
def time_() -> Time:
    return Time()


def kiosk_at(
    make_kiosk: MakeKiosk, time_: Time, size: tuple[int, int] = (800, 480), language: str = "en"
) -> Kiosk:
    kiosk = make_kiosk(size, language, clock=time_.monotonic, wall=time_.now)
    kiosk.feedback = FakeFeedback()
    return kiosk


def timed_game(kiosk: Kiosk, timer: int | None = 90) -> None:
    options = {"turn_timer": str(timer)} if timer else {}
    kiosk.execute(
        NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0], options=options)
    )
    kiosk.settle()


def wake_until(kiosk: Kiosk, time_: Time, until: float) -> int:
    """Run the idle loop as it would run: sleep to each deadline (time passes), wake, act and
    redraw, until ``until`` seconds have passed; returns how many times it woke."""
    end = time_.mono + until
    woke = 0
    while True:
        due = kiosk.deadline()
        if due is None or due > end:
            time_.pass_(end - time_.mono)
            return woke
        time_.pass_(max(0.0, due - time_.mono))
        kiosk.step(block=False)
        woke += 1


def played(kiosk: Kiosk) -> list[str]:
    kiosk.redraw()
    return texts(kiosk, "header.played")


def header_clock(kiosk: Kiosk) -> list[str]:
    kiosk.redraw()
    return texts(kiosk, "header.clock")


# --- what the table shows ------------------------------------------------------------------------


def test_the_table_shows_the_time_played_to_the_minute_and_other_screens_leave_it(
    make_kiosk: MakeKiosk, time_: Time
) -> None:
    kiosk = kiosk_at(make_kiosk, time_)
    timed_game(kiosk, None)
    assert played(kiosk) == ["0:00"]
    time_.pass_(65 * 60 + 59)
    assert played(kiosk) == ["1:05"]
    assert header_clock(kiosk) == []  # no turn timer: nothing counts down
    kiosk.dispatch(Go("history"))
    assert played(kiosk) == [] and texts(kiosk, "header.turn") == ["Turn 1"]


def test_an_idle_table_wakes_once_a_minute_and_a_turn_timer_once_a_second(
    make_kiosk: MakeKiosk, time_: Time
) -> None:
    """Issue 15: an idle kiosk wakes at most once a second, and without a turn timer once a
    minute, for the time played; a paused clock wakes it for nothing."""
    kiosk = kiosk_at(make_kiosk, time_)
    timed_game(kiosk, None)
    kiosk.ui.messages_until = None  # the start message would expire once; keep it
    assert wake_until(kiosk, time_, 3600) == 60
    assert played(kiosk) == ["1:00"]
    kiosk.dispatch(PAUSE)
    kiosk.ui.messages_until = None
    kiosk.settle()
    assert kiosk.deadline() is None and wake_until(kiosk, time_, 3600) == 0
    assert played(kiosk) == ["1:00"]

    kiosk = kiosk_at(make_kiosk, time_)
    timed_game(kiosk, 90)
    kiosk.ui.messages_until = None
    assert wake_until(kiosk, time_, 60) == 60  # each second of the countdown, no more
    assert header_clock(kiosk) == ["0:30 left"]


def test_the_turn_timer_runs_out_said_and_sounded_once_and_the_turn_goes_on(
    make_kiosk: MakeKiosk, time_: Time
) -> None:
    kiosk = kiosk_at(make_kiosk, time_)
    timed_game(kiosk)
    hands = Hands(kiosk)
    hands.keys(pygame.K_RETURN)  # Alice's main phase
    wake_until(kiosk, time_, 80.5)
    assert header_clock(kiosk) == ["0:10 left"]
    assert drawn(kiosk, "header.clock")[0].size == kiosk.canvas.layout.medium
    assert kiosk.feedback.played == []  # type: ignore[union-attr]
    wake_until(kiosk, time_, 9.5)  # the loop wakes at the very second it runs out
    assert header_clock(kiosk) == ["Time is up"]
    assert hands.says("status.messages") == ["Time is up for Alice's turn (1:30)."]
    assert kiosk.feedback.played == [Cue.TIME_UP]  # type: ignore[union-attr]
    assert (
        wake_until(kiosk, time_, 300) <= 6
    )  # nothing counts now: the minute, the message expiring
    assert kiosk.feedback.played == [Cue.TIME_UP]  # type: ignore[union-attr]
    assert kiosk.state is not None and (kiosk.state.active, kiosk.state.turn) == (0, 1)
    hands.keys(pygame.K_RETURN)  # the table passes the turn: Юрий's starts with the whole 1:30
    assert header_clock(kiosk) == ["1:30 left"] and hands.says("status.messages") == [
        "Turn 2: Юрий's upkeep."
    ]


@pytest.mark.parametrize(
    ("language", "left", "up", "said"),
    [
        ("ru", "осталось 0:42", "Время вышло", "Время хода игрока Юрий вышло (1:30)."),
        ("ja", "残り0:42", "時間切れ", "Юрийのターンの時間切れです（持ち時間1:30）。"),
        ("pl", "zostało 0:42", "Koniec czasu", "Koniec czasu tury gracza Юрий (1:30)."),
    ],
)
def test_the_clock_in_the_tables_language(
    make_kiosk: MakeKiosk, time_: Time, language: str, left: str, up: str, said: str
) -> None:
    kiosk = kiosk_at(make_kiosk, time_, language=language)
    scene_clock(kiosk)  # Юрий's turn began 48 seconds before the kiosk's wall clock
    assert header_clock(kiosk) == [left] and played(kiosk) == ["1:05"]
    wake_until(kiosk, time_, 42)
    assert header_clock(kiosk) == [up]
    assert texts(kiosk, "status.messages") == [said]


def test_the_header_keeps_its_clocks_readable_at_every_size(
    make_kiosk: MakeKiosk, time_: Time
) -> None:
    kiosk = kiosk_at(make_kiosk, time_, language="ru")
    scene_clock(kiosk)
    kiosk.controller.clock = time_.now  # the scene moved it back
    kiosk.dispatch(PAUSE)
    for size in SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        assert_readable(kiosk, size)
        assert texts(kiosk, "header.played") == ["1:05"]
        # The words where they fit, else the bare time (the 320×240 panel's corner).
        assert texts(kiosk, "header.clock") == (
            ["0:42"] if size == (320, 240) else ["осталось 0:42"]
        )


# --- a break: keys, touch, GPIO -------------------------------------------------------------------


def shift_backspace(kiosk: Kiosk) -> None:
    """UNDO held, on the keys."""
    pygame.event.post(
        pygame.event.Event(
            pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=pygame.KMOD_SHIFT, unicode=""
        )
    )
    kiosk.settle()


def test_shift_backspace_pauses_and_undo_then_takes_back_the_last_change_not_the_break(
    make_kiosk: MakeKiosk, time_: Time
) -> None:
    """A player changes a life total, the table pauses for a break, and someone notices the
    change was a mistake: UNDO takes it back, and the clock stays paused."""
    kiosk = kiosk_at(make_kiosk, time_)
    timed_game(kiosk)
    hands = Hands(kiosk)
    time_.pass_(30)
    hands.keys(pygame.K_RETURN)  # Alice's main phase
    hands.keys(pygame.K_DOWN)  # her life, one less: shown, then made after a moment
    wake_until(kiosk, time_, 2)
    assert kiosk.state is not None and kiosk.state.players[0].life == 39
    made = kiosk.controller.last_change()
    assert made is not None
    shift_backspace(kiosk)
    assert hands.says("status.messages") == ["Game clock paused: 0:00:32 played."]
    assert kiosk.state.clock is not None and kiosk.state.clock.paused
    assert kiosk.state.players[0].life == 39  # held UNDO took nothing back
    time_.pass_(600)
    assert played(kiosk) == ["0:00"] and header_clock(kiosk) == ["0:58 left"]
    hands.keys(pygame.K_BACKSPACE)  # UNDO: the life change, not the break
    assert hands.says("status.messages") == [f"Undone: {' '.join(map(str, made.messages()))}"]
    assert kiosk.state.players[0].life == 40 and kiosk.state.step.value == "main"
    assert (
        kiosk.state.clock.paused
        and played(kiosk) == ["0:00"]
        and header_clock(kiosk) == ["0:58 left"]
    )
    hands.keys(pygame.K_y)  # REDO: the change again, the break goes on
    assert kiosk.state.players[0].life == 39 and kiosk.state.clock.paused
    shift_backspace(kiosk)
    assert hands.says("status.messages") == ["Game clock running again: 0:00:32 played."]
    wake_until(kiosk, time_, 60)
    assert header_clock(kiosk) == ["Time is up"] and played(kiosk) == ["0:01"]
    assert kiosk.feedback.played == [Cue.TIME_UP]  # type: ignore[union-attr]


def test_a_touch_on_the_time_played_pauses_and_resumes(make_kiosk: MakeKiosk, time_: Time) -> None:
    kiosk = kiosk_at(make_kiosk, time_, size=(480, 320), language="pl")
    timed_game(kiosk)
    hands = Hands(kiosk)
    time_.pass_(65)
    hands.touch(PAUSE)
    assert hands.says("status.messages") == ["Zegar gry zatrzymany: grano 0:01:05."]
    hands.touch(PAUSE)
    assert hands.says("status.messages") == ["Zegar gry znów chodzi: grano 0:01:05."]
    target = next(t.rect for t in kiosk.canvas.targets if t.action == PAUSE)
    assert target[3] >= kiosk.canvas.layout.touch  # a fingertip's target


@pytest.fixture
def wired(make_kiosk: MakeKiosk, mock_factory: MockFactory, time_: Time) -> Iterator[Wired]:
    kiosk = kiosk_at(make_kiosk, time_, size=(320, 240), language="ja")
    timed_game(kiosk)
    hands = Wired(kiosk, mock_factory)
    yield hands
    hands.buttons.close()


def test_hw1_undo_held_on_the_gpio_button_is_a_break_a_short_undo_leaves_it_be(
    wired: Wired, time_: Time
) -> None:
    kiosk = wired.kiosk
    time_.pass_(42)
    wired.press(Button.UNDO, hold=1.0)  # past hold_time: a long press
    assert texts(kiosk, "status.messages") == [
        "ゲームの時計を一時停止しました：プレイ時間0:00:42。"
    ]
    assert kiosk.state is not None and kiosk.state.step.value == "upkeep"
    time_.pass_(300)
    wired.press(Button.UNDO, hold=1.0)
    assert texts(kiosk, "status.messages") == ["ゲームの時計を再開しました：プレイ時間0:00:42。"]
    wired.press(Button.UNDO, hold=1.0)  # a break again
    wired.press(Button.UNDO)  # nothing to take back: the game has had no change
    assert texts(kiosk, "status.error") == ["取り消すものはありません：ゲームの最初です。"]
    assert kiosk.state.clock is not None and kiosk.state.clock.paused  # the break goes on
    assert kiosk.state.step.value == "upkeep"


# --- a restart ---------------------------------------------------------------------------------------


def test_a_pause_and_a_timer_run_out_survive_a_restart_without_sounding_again(
    make_kiosk: MakeKiosk, time_: Time, tmp_path: Path
) -> None:
    kiosk = kiosk_at(make_kiosk, time_)
    timed_game(kiosk)
    wake_until(kiosk, time_, 100)
    assert kiosk.feedback.played == [Cue.TIME_UP]  # type: ignore[union-attr]
    kiosk.dispatch(PAUSE)
    path = kiosk.controller.journal.path
    kiosk.controller.journal.close()
    time_.pass_(7200)  # the gadget was off
    with Journal(path) as journal:
        again = Kiosk(
            Controller(journal, clock=time_.now),
            OffscreenTarget((800, 480)),
            fonts=kiosk.fonts,
            clock=time_.monotonic,
            wall=time_.now,
            feedback=FakeFeedback(),
        )
        again.redraw()
        assert texts(again, "header.played") == ["0:01"] and texts(again, "header.clock") == [
            "Time is up"
        ]
        assert again.deadline() is None
        again.dispatch(PAUSE)  # resumed; the time is still up, and was said before the restart
        again.settle()
        assert again.feedback.played == []  # type: ignore[union-attr]
        assert texts(again, "status.messages") == ["Game clock running again: 0:01:40 played."]
