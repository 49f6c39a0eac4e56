"""The header, the status line and the touch bar around every screen (HW-4, LF-4): no headline,
turn, clock, status text or button label is ever cut or drawn below the layout's ``tiny`` size, at any layout, in any
language; a long status text wraps onto a second line, turns pages beyond that (and every page
together is the whole text), and opens whole at a tap; the reader's label never squeezes a
refusal; the bar's buttons are a fingertip tall and wide, redo is one of them, and a MORE menu
holds the screens' buttons that do not fit."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from scenes import LANGUAGES, SCENES, SIZES, texts

from device.commands import ChangeLife, NewGame
from device.inputs import Button, ButtonPressed, ReaderStatus, TagRead
from display import render
from display.canvas import Drawn
from display.kiosk import Kiosk
from display.layout import choose
from display.screens.lineup import SCREENS
from display.status import STATUS_PAGE_SECONDS, status_now
from display.targets import OffscreenTarget
from display.ui import (
    CloseMenu,
    CloseStatus,
    Go,
    MenuButton,
    MoreButtons,
    OpenStatus,
    Press,
    Redo,
    ToggleHelp,
    Turn,
)

MakeKiosk = Callable[..., Kiosk]
ALL_SIZES = (*SIZES, (1920, 1080))
SHARED = ("header.", "status.", "bar.")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def shared(kiosk: Kiosk) -> list[Drawn]:
    return [d for d in kiosk.canvas.drawn if d.role.startswith(SHARED)]


def status_lines(kiosk: Kiosk, role: str) -> list[tuple[str | None, str]]:
    return [(d.joiner, d.written) for d in kiosk.canvas.drawn if d.role == role]


def touch(kiosk: Kiosk, action: object) -> None:
    target = next(t for t in reversed(kiosk.canvas.targets) if t.action == action)
    x, y, w, h = target.rect
    kiosk.touch((x + w // 2, y + h // 2))
    kiosk.redraw()


def bar_targets(kiosk: Kiosk) -> list[tuple[object, tuple[int, int, int, int]]]:
    bar_top = kiosk.canvas.height - kiosk.canvas.layout.bar
    return [(t.action, t.rect) for t in kiosk.canvas.targets if t.rect[1] >= bar_top]


def check_readable(kiosk: Kiosk, size: tuple[int, int], where: str) -> None:
    layout = choose(*size)
    for d in shared(kiosk):
        assert not d.cut, (where, size, d)
        assert d.size >= layout.tiny, (where, size, d)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", list(SCENES))
def test_hw4_the_status_line_and_the_bar_cut_nothing_in_any_scene(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    """Every scene, four languages, every layout and full HD: no header, status or bar text cut
    or below ``tiny``; a status text that turns pages shows the whole text over its pages; every bar
    button is at least ``touch`` tall and wide; every screen's button is in the bar or its
    menu, whose buttons are whole and a fingertip tall too."""
    clock = Clock()
    kiosk = make_kiosk(SIZES[0], language, clock=clock)
    SCENES[scene](kiosk)
    for size in ALL_SIZES:
        kiosk.retarget(OffscreenTarget(size))
        clock.now = 1000.0
        kiosk.ui.status_seen = ("", 0.0)
        kiosk.redraw()
        layout = choose(*size)
        check_readable(kiosk, size, "frame")
        status = status_now(kiosk.canvas, kiosk.ui, kiosk.tr, clock.now)
        pages = kiosk.ui.status_pages
        pieces = status_lines(kiosk, status.role)
        for page in range(1, pages):
            clock.now = kiosk.ui.status_seen[1] + page * STATUS_PAGE_SECONDS + 0.01
            kiosk.redraw()
            check_readable(kiosk, size, f"page {page + 1}")
            assert texts(kiosk, "status.page") == [f"{page + 1}/{pages}"]
            pieces += status_lines(kiosk, status.role)
        shown = "".join(
            (joiner or "") + text if index else text for index, (joiner, text) in enumerate(pieces)
        )
        assert shown == status.text, (size, pages)
        if kiosk.ui.reader is not None:
            assert texts(kiosk, "status.reader") == [kiosk.ui.words(kiosk.ui.reader.text)], size
        clock.now = 1000.0
        kiosk.redraw()
        buttons = bar_targets(kiosk)
        for action, rect in buttons:
            assert rect[3] >= layout.touch and rect[2] >= layout.touch, (size, action, rect)
        actions = {action for action, _ in buttons}
        undo = {Press(Button.UNDO), Redo()}
        assert Press(Button.NEXT) in actions, size
        assert undo <= actions if kiosk.state is not None else not undo & actions, (
            size
        )  # no game: nothing to undo
        if MoreButtons() in actions:
            touch(kiosk, MoreButtons())
            check_readable(kiosk, size, "menu")
            menu = [t for t in kiosk.canvas.targets if isinstance(t.action, MenuButton)]
            assert menu, size
            for target in menu:
                assert target.rect[3] >= layout.touch, (size, target)
            actions |= {t.action.action for t in menu}  # type: ignore[attr-defined]
            touch(kiosk, CloseMenu())
            assert not kiosk.ui.menu
        screens = {
            Go(name)
            for name, scr in SCREENS.items()
            if scr.button and name != kiosk.ui.screen and scr.shown(kiosk.state, kiosk.ui)
        }
        assert screens | {ToggleHelp()} <= actions, size


LONG_REFUSAL = (
    "This game's planar decks are virtual: the gadget turns the cards over itself, so Tazeem needs no "
    "tapping. For real cards, set up the game with “Planar decks: real cards”."
)


def refused_with_the_reader_gone(
    make_kiosk: MakeKiosk, size: tuple[int, int], clock: Clock | None = None
) -> Kiosk:
    kiosk = make_kiosk(size, "en", **({"clock": clock} if clock is not None else {}))
    kiosk.execute(
        NewGame(formats=("commander", "planechase"), players=("Alice", "Bob"), first="Alice")
    )
    kiosk.handle_input(ReaderStatus(False, "/dev/ttyUSB0", "rdm6300", "unplugged"))
    kiosk.handle_input(TagRead("04A1B2C3"))
    kiosk.redraw()
    return kiosk


@pytest.mark.parametrize("size", ALL_SIZES)
def test_hw4_the_readers_label_never_squeezes_a_refusal(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    """A refused tap while the reader is reported lost: the refusal is whole (wrapped, or over
    pages on the smallest panel) and the reader's label is whole beside or below it."""
    clock = Clock()
    kiosk = refused_with_the_reader_gone(make_kiosk, size, clock)
    pieces = status_lines(kiosk, "status.error")
    for page in range(1, kiosk.ui.status_pages):
        clock.now = kiosk.ui.status_seen[1] + page * STATUS_PAGE_SECONDS + 0.01
        kiosk.redraw()
        assert texts(kiosk, "status.reader") == ["reader disconnected"]
        pieces += status_lines(kiosk, "status.error")
    assert "".join((j or "") + t if i else t for i, (j, t) in enumerate(pieces)) == LONG_REFUSAL
    assert texts(kiosk, "status.reader") == ["reader disconnected"]
    assert not any(d.cut for d in shared(kiosk))


def test_hw4_a_long_status_text_turns_pages_and_stays_until_the_last(make_kiosk: MakeKiosk) -> None:
    """On a 320×240 panel the refusal takes three pages of two lines; the loop wakes for each
    page, and the refusal stays until its last page has been shown (longer than the usual 8 s)."""
    clock = Clock()
    kiosk = refused_with_the_reader_gone(make_kiosk, (320, 240), clock)
    pages = kiosk.ui.status_pages
    assert pages == 3 and texts(kiosk, "status.page") == ["1/3"]
    since = kiosk.ui.status_seen[1]
    seen = []
    for page in range(1, pages):
        flip = since + page * STATUS_PAGE_SECONDS
        while clock.now < flip:  # the loop's own deadlines, up to and including the page's turn
            due = kiosk.deadline()
            assert due is not None and due <= flip
            clock.now = due
            kiosk.step(block=False)
        seen.append(texts(kiosk, "status.page"))
    assert seen == [["2/3"], ["3/3"]]
    # The third page came at 8 s, when a refusal would have gone: it stays its four seconds.
    assert clock.now - kiosk.ui.status_seen[1] >= 8.0 and texts(kiosk, "status.error")
    clock.now = kiosk.deadline()  # type: ignore[assignment]
    kiosk.step(block=False)
    assert texts(kiosk, "status.error") == [] and texts(kiosk, "status.page") == []


def test_hw4_a_tap_on_the_status_line_shows_it_whole_and_a_tap_or_a_button_closes_it(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = refused_with_the_reader_gone(make_kiosk, (320, 240))
    touch(kiosk, OpenStatus())
    assert texts(kiosk, "status.open") == [LONG_REFUSAL + "\nreader disconnected"]
    assert texts(kiosk, "status.open.hint") == ["A tap or any button closes this"]
    assert not any(d.cut for d in kiosk.canvas.drawn if d.role.startswith("status.open"))
    state = kiosk.state
    touch(kiosk, CloseStatus())
    assert texts(kiosk, "status.open") == [] and kiosk.state == state and kiosk.ui.screen == "table"
    touch(kiosk, OpenStatus())
    kiosk.handle_input(ButtonPressed(Button.NEXT))  # closes it, and NEXT goes on
    kiosk.redraw()
    assert texts(kiosk, "status.open") == []
    assert kiosk.state is not None and kiosk.state.step.value == "main"


@pytest.mark.parametrize("size", ALL_SIZES)
def test_lf4_redo_from_the_touch_bar(make_kiosk: MakeKiosk, size: tuple[int, int]) -> None:
    """LF-4: UNDO and then redo, both from the touch bar (in the game with the most buttons):
    the change is back, and the status says so."""
    kiosk = make_kiosk(size, "en")
    kiosk.execute(
        NewGame(
            formats=("commander", "planechase", "contraptions"),
            players=("Ann", "Bob", "Cat"),
            first="Ann",
        )
    )
    kiosk.execute(ChangeLife(seat=1, delta=-5, source=0))
    kiosk.redraw()
    touch(kiosk, Press(Button.UNDO))
    assert kiosk.state.player(1).life == 40  # type: ignore[union-attr]
    assert texts(kiosk, "bar.redo") == ["REDO"]
    touch(kiosk, Redo())
    assert kiosk.state.player(1).life == 35  # type: ignore[union-attr]
    assert texts(kiosk, "status.messages") == ["Redone: Bob: 40 → 35 life (from Ann)."]


def test_hw4_the_more_menu_on_a_small_panel(make_kiosk: MakeKiosk) -> None:
    """A Commander game with Planechase and Contraptions on a 320×240 panel in Russian: the
    actions and what fits are in the bar, MORE holds the rest; a button in the menu does what
    it says and closes the menu; a tap beside the menu only closes it."""
    kiosk = make_kiosk((320, 240), "ru")
    kiosk.execute(
        NewGame(
            formats=("commander", "planechase", "contraptions"),
            players=("Аня", "Боря", "Вера"),
            first="Аня",
        )
    )
    kiosk.ui.said = []
    kiosk.redraw()
    assert texts(kiosk, "bar.*") == ["КУБИК", "ДАЛЕЕ", "ОТМЕНИТЬ", "ПОВТОРИТЬ", "ЕЩЁ"]
    touch(kiosk, MoreButtons())
    assert kiosk.ui.menu
    assert texts(kiosk, "bar.*")[5:] == [
        "ИЗМЕРЕНИЯ",
        "ШТУКОВИНЫ",
        "КОСТИ",
        "ЖИЗНЬ",
        "ЖУРНАЛ",
        "НОВАЯ",
        "СПРАВКА",
    ]
    state, history = kiosk.state, len(kiosk.history())
    x, y, w, h = next(t.rect for t in kiosk.canvas.targets if t.action == CloseMenu())
    kiosk.touch((x + 4, y + h // 2))  # beside the menu, which stands over the bar's right end
    kiosk.redraw()
    assert not kiosk.ui.menu and kiosk.ui.screen == "table" and kiosk.state == state
    assert len(kiosk.history()) == history
    touch(kiosk, MoreButtons())
    touch(kiosk, MenuButton(Go("contraptions")))
    assert kiosk.ui.screen == "contraptions" and not kiosk.ui.menu


def test_cj8_a_clock_whose_words_do_not_fit_shows_the_bare_time(make_kiosk: MakeKiosk) -> None:
    """CJ-8 on a 320×240 panel in Russian: "осталось 50:00" has no room beside the round's
    headline, so the corner shows "50:00"; on a larger screen the words are back."""
    clock = Clock()
    kiosk = make_kiosk((320, 240), "ru", clock=clock)
    SCENES["conspiracy"](kiosk)
    kiosk.redraw()
    assert texts(kiosk, "header.clock") == ["50:00"]
    kiosk.retarget(OffscreenTarget((800, 480)))
    kiosk.redraw()
    assert texts(kiosk, "header.clock") == ["осталось 50:00"]


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_hw4_a_long_headline_takes_two_lines_rather_than_an_ellipsis(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    """Wizard's Duel's phase headline is longer than the header at 320×240 and 480×320: it is
    drawn whole, on two lines where one does not hold it, never cut."""
    kiosk = make_kiosk(size, "en")
    SCENES["wd_gather"](kiosk)
    kiosk.redraw()
    lines = [d for d in kiosk.canvas.drawn if d.role == "header.headline"]
    assert "".join((d.joiner or "") + d.text for d in lines) == "Phase 1: everyone gathers mana"
    assert not any(d.cut for d in lines)


def test_the_status_line_and_the_bar_are_laid_out_when_they_change(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A frame whose status text and buttons are the ones the last frame had does not lay them
    out again (a life change redraws the table, not the status line); a new text or another
    screen's buttons are laid out afresh, and a text that turns pages still turns them."""
    laid: list[str] = []
    status, bar = render._lay_out_status, render._lay_out_bar

    def counting_status(canvas, shown, *args):  # type: ignore[no-untyped-def]
        laid.append(f"status {shown.text}")
        return status(canvas, shown, *args)

    def counting_bar(canvas, buttons, *args):  # type: ignore[no-untyped-def]
        laid.append(f"bar {len(buttons)}")
        return bar(canvas, buttons, *args)

    monkeypatch.setattr(render, "_lay_out_status", counting_status)
    monkeypatch.setattr(render, "_lay_out_bar", counting_bar)
    kiosk = make_kiosk((800, 480))
    kiosk.execute(NewGame(formats=("commander",), players=("Alice", "Bob", "Cleo"), first="Alice"))
    kiosk.redraw()
    first = len(laid)
    assert first >= 2
    for _ in range(5):
        kiosk.dispatch(Turn(-1))  # the encoder: a life change shows on the seat, nothing is said
        kiosk.redraw()
        assert texts(kiosk, "seat0.life") != ["40"]
    assert len(laid) == first, laid[first:]
    kiosk.execute(ChangeLife(seat=1, delta=-3))  # what the command said is new
    kiosk.redraw()
    assert [entry for entry in laid[first:] if entry.startswith("status")] == [
        f"status {kiosk.ui.messages[0]}"
    ]
