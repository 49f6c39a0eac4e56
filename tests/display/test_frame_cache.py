"""The drawing layer keeps what it measured, rendered and laid out (``display.fonts.Lru``), so a
changed frame redoes only what changed.  These tests check that kept work looks exactly like
work done afresh, that the caches stay bounded through a long game, and that a changed text or
state is drawn, never an old one kept."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest

from device.commands import ChangeLife, NewGame
from device.inputs import Button, ButtonPressed
from display import fonts as fonts_module
from display.canvas import Canvas
from display.fonts import Fonts, Lru
from display.kiosk import Kiosk
from display.layout import choose
from display.screens.planechase import TUMBLE
from display.ui import Turn

from conftest import CLOCK
from scenes import PLAYERS, SCENES, shown, texts

MakeKiosk = Callable[..., Kiosk]

SAMPLES = (
    "Alice",
    "Юрий",
    "さくら",
    "Łukasz",
    "40",
    "-7",
    "Turn 12",
    "ダイス：1",
    "（注）テスト。",
    "Sample rules text for the tests: whenever you roll chaos, each player draws a card.",
    "Ход Юрия — планы: Тазим",
    "アリスのアップキープ",
    "Tura Łukasza · 3 żetony",
    "  ",
    "",
    "mixed さくら and Alice",
    "ПЛАНЫ",
    "9/9",
    "{T}: Add {G}{G}. {2}{U}, {T}: roll {CHAOS}.",
)
SIZES = (10, 15, 19, 26, 40, 68, 104)
COLORS = ((240, 236, 228), (255, 196, 64))


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


@pytest.fixture
def fresh() -> Callable[[], Fonts]:
    """A new ``Fonts``: nothing measured, rendered or laid out yet."""
    pygame.display.init()
    return lambda: Fonts(system=False)


def test_lru_keeps_the_most_recently_used() -> None:
    lru: Lru[int, str] = Lru(3)
    for n in range(3):
        lru.put(n, str(n))
    assert lru.get(0) == "0"  # 0 is now the most recent: 1 goes first
    lru.put(3, "3")
    assert len(lru) == 3
    assert lru.get(1) is None
    assert [lru.get(n) for n in (0, 2, 3)] == ["0", "2", "3"]


def test_rendered_text_is_the_same_pixels_as_rendered_afresh(
    fresh: Callable[[], Fonts], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text drawn from the cache — again, and after others pushed it out — matches a fresh
    ``Fonts`` drawing it once, for every script, size, weight and colour."""
    monkeypatch.setattr(fonts_module, "RENDERED_LIMIT", 16)
    monkeypatch.setattr(fonts_module, "MEASURED_LIMIT", 16)
    kept = fresh()
    cases = [(t, s, b, c) for t in SAMPLES for s in SIZES for b in (False, True) for c in COLORS]
    for _ in range(2):  # the second round hits entries kept, and re-renders those pushed out
        for text, size, bold, color in cases:
            kept.render(text, size, color, bold)
            kept.measure(text, size, bold)
    afresh = fresh()  # asked each case once: drawn and measured afresh
    for text, size, bold, color in cases:
        mine = kept.render(text, size, color, bold)
        theirs = afresh.render(text, size, color, bold)
        assert mine.get_size() == theirs.get_size(), (text, size, bold)
        assert pixels(mine) == pixels(theirs), (text, size, bold, color)
        assert kept.measure(text, size, bold) == afresh.measure(text, size, bold), (
            text,
            size,
            bold,
        )
        assert kept.ink(text, size, bold) == afresh.ink(text, size, bold), (text, size, bold)
    assert len(kept._rendered) <= 16 and len(kept._widths) <= 16 and len(kept._inks) <= 16


def test_fitting_and_wrapping_are_the_same_as_decided_afresh(fresh: Callable[[], Fonts]) -> None:
    """Shrink-to-fit, wrapping and a paragraph's size, asked again of one canvas, are what a
    new canvas with new fonts decides."""
    surface = pygame.Surface((800, 480))
    kept = Canvas(surface, fresh(), choose(800, 480))
    cases = [
        (t, w, s, b)
        for t in SAMPLES
        for w in (40, 90, 160, 300, 700)
        for s in (15, 26, 40)
        for b in (False, True)
    ]
    for text, width, size, bold in cases:
        kept.fit(text, size, width, bold=bold)
        kept.wrap(text, size, width, bold=bold)
        kept.fit_paragraph(text, width, 120, size, bold=bold)
    afresh = Canvas(surface, fresh(), choose(800, 480))
    for text, width, size, bold in cases:
        assert kept.fit(text, size, width, bold=bold) == afresh.fit(text, size, width, bold=bold)
        assert kept.wrap(text, size, width, bold=bold) == afresh.wrap(text, size, width, bold=bold)
        assert kept.fit_paragraph(text, width, 120, size, bold=bold) == afresh.fit_paragraph(
            text, width, 120, size, bold=bold
        )


def test_wrapped_lines_handed_out_are_the_callers_own(fresh: Callable[[], Fonts]) -> None:
    canvas = Canvas(pygame.Surface((800, 480)), fresh(), choose(800, 480))
    lines = canvas.wrap(SAMPLES[9], 19, 200)
    lines.append("changed by the caller")
    assert canvas.wrap(SAMPLES[9], 19, 200)[-1] != "changed by the caller"


@pytest.mark.parametrize("scene", ["table", "planechase", "adjust", "upkeep-plane", "help"])
@pytest.mark.parametrize("language", ["en", "ja", "ru"])
def test_a_frame_drawn_with_everything_kept_is_the_frame_drawn_afresh(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    """The screens drawn by a kiosk that has drawn many frames (its fonts shared with every
    test) are pixel for pixel those a kiosk with new fonts draws."""
    warm = shown(make_kiosk, scene, (800, 480), language)
    warm.redraw()
    cold = make_kiosk((800, 480), language)
    cold.fonts = Fonts(system=False)
    cold.retarget(cold.target)
    SCENES[scene](cold)
    cold.redraw()
    assert pixels(warm.canvas.surface) == pixels(cold.canvas.surface)
    assert warm.canvas.drawn == cold.canvas.drawn


def test_a_changed_life_total_is_drawn_not_the_one_before(make_kiosk: MakeKiosk) -> None:
    """Totals going down and back up (each text met before, and kept): each frame shows the
    total now, and differs from the frame before."""
    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0]))
    kiosk.redraw()
    for life in (39, 38, 39, 40, 38, 40):
        before = pixels(kiosk.canvas.surface)
        state = kiosk.state
        assert state is not None
        kiosk.execute(ChangeLife(seat=0, delta=life - state.player(0).life))
        kiosk.redraw()
        assert texts(kiosk, "seat0.life") == [str(life)]
        assert pixels(kiosk.canvas.surface) != before


def test_a_language_change_draws_the_new_words_as_a_new_kiosk_would(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "table", (800, 480), "en")
    english = texts(kiosk)
    kiosk.ui.language = "ja"  # as the setup screen's language field does
    kiosk.redraw()
    japanese = shown(make_kiosk, "table", (800, 480), "ja")
    assert texts(kiosk) != english
    assert pixels(kiosk.canvas.surface) == pixels(japanese.canvas.surface)


def test_a_new_screen_size_is_laid_out_afresh(make_kiosk: MakeKiosk) -> None:
    """A retarget (a resized window, a swapped panel) lays out the frame for the new size."""
    kiosk = shown(make_kiosk, "planechase", (800, 480), "en")
    kiosk.target.resize((480, 320))
    kiosk.retarget(kiosk.target)
    kiosk.redraw()
    small = shown(make_kiosk, "planechase", (480, 320), "en")
    assert pixels(kiosk.canvas.surface) == pixels(small.canvas.surface)


def test_a_long_game_keeps_the_caches_bounded(make_kiosk: MakeKiosk) -> None:
    """Hundreds of different totals: every cache stays within its limit, and each frame is the
    frame drawn by a kiosk with room to keep everything."""
    roomy = make_kiosk((800, 480), "en")
    roomy.fonts = Fonts(system=False)
    roomy.retarget(roomy.target)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fonts_module, "RENDERED_LIMIT", 40)
        patch.setattr(fonts_module, "MEASURED_LIMIT", 120)
        patch.setattr("display.canvas.LAID_OUT_LIMIT", 60)
        tight = make_kiosk((800, 480), "en")
        tight.fonts = Fonts(system=False)
        tight.retarget(tight.target)
    for kiosk in (tight, roomy):
        kiosk.execute(
            NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0], starting_life=999)
        )
    for step in range(120):
        for kiosk in (tight, roomy):
            kiosk.execute(ChangeLife(seat=step % 4, delta=-1 - step % 3))
            kiosk.redraw()
        if step % 10 == 0:
            assert pixels(tight.canvas.surface) == pixels(roomy.canvas.surface), step
    fonts, canvas = tight.fonts, tight.canvas
    assert len(fonts._rendered) <= 40 and len(fonts._widths) <= 120 and len(fonts._inks) <= 120
    assert (
        len(canvas._fitted) <= 60
        and len(canvas._wrapped) <= 60
        and len(canvas._paragraph_sizes) <= 60
    )
    assert (
        len(roomy.fonts._widths) > 120
    )  # the game did measure more texts than the tight limits keep
    state = tight.state
    assert state is not None
    assert [texts(tight, f"seat{seat}.life") for seat in range(4)] == [
        [str(p.life)] for p in state.players
    ]
    assert pixels(tight.canvas.surface) == pixels(roomy.canvas.surface)


def test_pc3_a_rolls_result_is_in_the_first_frame_and_a_press_during_the_tumble_is_handled_at_once(
    make_kiosk: MakeKiosk,
) -> None:
    """The die's tumble follows its result: the frame right after ROLL shows the face, and a
    press in the middle of the tumble is handled in the same turn of the loop."""
    now = [CLOCK]
    kiosk = make_kiosk((800, 480), "en", clock=lambda: now[0])
    SCENES["pc-start"](kiosk)
    kiosk.step(block=False)
    kiosk.inputs.put(ButtonPressed(Button.ROLL))
    kiosk.step(block=False)
    state = kiosk.state
    assert state is not None and state.planechase is not None and state.planechase.rolls
    face = state.planechase.rolls[-1].result.value
    assert texts(kiosk, "pc.die.face") == [kiosk.tr(f"ui.pc.die.{face}")]
    assert kiosk.ui.die is not None and kiosk.ui.die.until == CLOCK + TUMBLE
    now[0] = CLOCK + TUMBLE / 2
    frames = kiosk.frames
    kiosk.inputs.put(ButtonPressed(Button.NEXT))
    kiosk.step(block=True)  # an input waits: the loop does not sleep until the tumble's next frame
    assert kiosk.state is not None and kiosk.state.step != state.step
    assert kiosk.frames == frames + 1  # its frame is drawn now,
    assert (
        kiosk.ui.die is not None and now[0] < kiosk.ui.die.until
    )  # with the tumble still under way


def test_an_encoder_turn_on_the_adjust_screen_is_drawn(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "adjust", (800, 480), "en")
    before = pixels(kiosk.canvas.surface)
    kiosk.dispatch(Turn(-1))
    kiosk.redraw()
    assert pixels(kiosk.canvas.surface) != before


@pytest.mark.parametrize(
    "rect", [(10, 10, 380, 170), (0, 40, 800, 30), (799, 479, 1, 1), (5, 5, 0, 9), (-4, -4, 30, 30)]
)
def test_a_square_box_is_the_pixels_sdl_fills(rect: tuple[int, int, int, int]) -> None:
    """A square box is drawn the quick way (see ``Canvas.box``), pixel for pixel as SDL fills it."""
    pygame.display.init()
    canvas = Canvas(pygame.Surface((800, 480)), Fonts(system=False), choose(800, 480))
    canvas.surface.fill((9, 9, 9))
    canvas.box(rect, (200, 40, 60), radius=0)
    filled = pygame.Surface((800, 480))
    filled.fill((9, 9, 9))
    filled.fill((200, 40, 60), rect)
    assert pixels(canvas.surface) == pixels(filled)
