"""The game's history on the kiosk (LF-4, LF-2): every change as it was said, undone ones marked,
and who dealt what to whom; reached by key L or the touch bar's LOG, scrolled with the encoder
(the GPIO one too), switched with ←/→, SELECT or a touch."""

from __future__ import annotations

import re
from collections.abc import Callable

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hands import Hands
from scenes import texts

from device.commands import ChangeLife, ChangePoison, NewGame, PassTurn
from device.inputs import Button, EncoderTurned
from display.kiosk import Kiosk
from display.screens.history import HistoryPane, HistoryScroll, HistoryView
from display.ui import Go, Press
from drivers.gpio import GpioButtons, GpioConfig

MakeKiosk = Callable[..., Kiosk]


def rows(kiosk: Kiosk) -> list[str]:
    """The rows in view, oldest first (a wrapped row put back together)."""
    found = []
    for d in kiosk.canvas.drawn:
        if d.role.startswith("history.row"):
            if d.joiner is not None and found and found[-1][0] == d.role:
                found[-1] = (d.role, found[-1][1] + d.joiner + d.text)
            else:
                found.append((d.role, d.text))
    return [re.sub(r"^\d+\. ", "", text) for _, text in found]


def played(kiosk: Kiosk, turns: int = 1) -> None:
    kiosk.execute(NewGame(formats=("commander",), players=("Ala", "Ola", "Ewa"), first="Ala"))
    for n in range(turns):
        kiosk.execute(ChangeLife(seat=1, delta=-1, source=0))
        kiosk.execute(PassTurn())
    kiosk.execute(ChangePoison(seat=2, delta=2, source=1))


def test_lf4_key_l_shows_every_change_with_the_newest_in_view(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    played(k)
    hands = Hands(k)
    hands.keys(pygame.K_l)
    assert k.ui.screen == "history"
    assert texts(k, "history.tab.log") == ["Every change"]
    assert rows(k) == [
        "New game (Commander) for Ala, Ola, Ewa, 40 life. Ala goes first.",
        "Ola: 40 → 39 life (from Ala).",
        "Turn 2: Ola's upkeep.",
        "Ewa: 0 → 2 poison (from Ola).",
    ]


def test_lf4_an_undo_on_the_history_is_marked_at_once_and_a_redo_clears_it(
    make_kiosk: MakeKiosk,
) -> None:
    k = make_kiosk((800, 480), "en")
    played(k)
    hands = Hands(k)
    hands.keys(pygame.K_l, pygame.K_BACKSPACE)
    assert rows(k)[-1] == "Ewa: 0 → 2 poison (from Ola). (undone)"
    hands.keys(pygame.K_y)
    assert rows(k)[-1] == "Ewa: 0 → 2 poison (from Ola)."


def test_lf2_the_second_tab_says_who_dealt_what_to_whom(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((480, 320), "en")
    played(k, turns=3)
    hands = Hands(k)
    hands.keys(pygame.K_l, pygame.K_RIGHT)
    assert k.ui.state_of(HistoryView).pane == "dealt"
    assert rows(k) == ["Ala → Ola: 3 life lost", "Ola → Ewa: 2 poison"]
    hands.keys(pygame.K_LEFT)
    assert k.ui.state_of(HistoryView).pane == "log"
    hands.touch(HistoryPane("dealt"))  # a touch on the tab
    assert k.ui.state_of(HistoryView).pane == "dealt"
    k.dispatch(Press(Button.SELECT))  # SELECT switches too
    k.redraw()
    assert k.ui.state_of(HistoryView).pane == "log"


def test_lf2_nothing_dealt_yet_says_so(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    k.execute(NewGame(formats=("commander",), players=("Ala", "Ola"), first="Ala"))
    hands = Hands(k)
    hands.touch(Go("history")) if any(
        t.action == Go("history") for t in k.canvas.targets
    ) else hands.keys(pygame.K_l)
    hands.keys(pygame.K_RIGHT)
    assert rows(k) == ["Nobody has dealt damage or given life yet."]


def test_the_touch_bar_has_a_log_button_in_a_game(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    played(k)
    hands = Hands(k)
    assert "LOG" in texts(k, "bar.*")
    hands.touch(Go("history"))
    assert k.ui.screen == "history"


@pytest.mark.parametrize("size", [(320, 240), (800, 480)])
def test_a_long_log_scrolls_with_the_encoder_and_the_markers(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    k = make_kiosk(size, "en")
    played(k, turns=20)
    hands = Hands(k)
    hands.keys(pygame.K_l)
    newest = rows(k)
    assert newest[-1] == "Ewa: 0 → 2 poison (from Ola)."
    assert texts(k, "history.more")  # rows hidden above: a marker says how many
    hidden = int(texts(k, "history.more")[0])
    assert hidden + len(newest) == 42  # the start, 20 life changes and 20 turns, the poison
    hands.keys(pygame.K_DOWN, pygame.K_DOWN)  # the encoder anticlockwise: older rows
    older = rows(k)
    assert older[-1] == newest[-3] and older != newest
    hands.touch(HistoryScroll(k.ui.state_of(HistoryView).last + 1))  # the lower marker: one newer
    assert rows(k)[-1] == newest[-2]
    for _ in range(60):
        hands.keys(pygame.K_DOWN)
    assert rows(k)[0].startswith("New game (Commander)")
    for _ in range(60):
        hands.keys(pygame.K_UP)
    assert rows(k) == newest


def test_hw1_the_gpio_encoder_scrolls_the_history(
    make_kiosk: MakeKiosk, mock_factory: MockFactory
) -> None:
    k = make_kiosk((480, 320), "en")
    played(k, turns=20)
    Hands(k).keys(pygame.K_l)
    newest = rows(k)
    buttons = GpioButtons(
        GpioConfig(), k.inputs, clock=lambda: 0.0, timer=False, pin_factory=mock_factory
    )
    buttons.start()
    try:
        k.inputs.put(EncoderTurned(-3))  # what the encoder's callback puts
        k.settle()
        assert rows(k)[-1] == newest[-4]
    finally:
        buttons.close()


@pytest.mark.parametrize(
    ("language", "undone", "lost"),
    [
        ("ru", "Ewa: яд 0 → 2 (источник: Ola). (отменено)", "Ala → Ola: потеряна 1 жизнь"),
        ("ja", "取り消し：", "Ala → Ola：ライフを1点失った"),
        ("pl", "(cofnięte)", "Ala → Ola: stracony 1 punkt życia"),
    ],
)
def test_the_history_in_the_tables_language(
    make_kiosk: MakeKiosk, language: str, undone: str, lost: str
) -> None:
    k = make_kiosk((800, 480), language)
    played(k)
    hands = Hands(k)
    hands.keys(pygame.K_l, pygame.K_BACKSPACE)
    assert undone in rows(k)[-1]
    hands.keys(pygame.K_RIGHT)
    assert rows(k)[0] == lost


def test_lf4_each_change_shows_the_time_it_was_made(make_kiosk: MakeKiosk) -> None:
    """The log's rows are timed, as the console's ``log`` is: the time of day beside each change,
    in a column of its own, the words unchanged."""
    import time

    wall = [1_750_000_000.0]
    k = make_kiosk((480, 320), "en", wall=lambda: wall[0])
    k.execute(NewGame(formats=("commander",), players=("Ala", "Ola", "Ewa"), first="Ala"))
    wall[0] += 25 * 60
    k.execute(ChangeLife(seat=1, delta=-1, source=0))
    wall[0] += 61 * 60
    k.execute(PassTurn())
    k.dispatch(Go("history"))
    k.redraw()
    made = [1_750_000_000.0 + minutes * 60 for minutes in (0, 25, 86)]
    assert texts(k, "history.time.*") == [time.strftime("%H:%M", time.localtime(at)) for at in made]
    assert rows(k) == [
        "New game (Commander) for Ala, Ola, Ewa, 40 life. Ala goes first.",
        "Ola: 40 → 39 life (from Ala).",
        "Turn 2: Ola's upkeep.",
    ]
    times = [d for d in k.canvas.drawn if d.role.startswith("history.time.")]
    words = [d for d in k.canvas.drawn if d.role.startswith("history.row")]
    assert max(d.rect[0] + d.rect[2] for d in times) < min(
        d.rect[0] for d in words
    )  # a column apart
