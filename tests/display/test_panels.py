"""HW-4 on the panels a gadget is built with, at their real density: a 3.5-inch 480×320 SPI
panel, the 7-inch 800×480 touch display, and the 7-inch Touch Display 2 (720×1280 portrait)
turned to landscape.  The layout knows the panel's pixels per millimetre
(``display.targets.density``), and the touch targets every screen shares — the touch bar's
buttons and its menu's — are a fingertip (9 mm) tall and wide on each, in every scene and
language, and the bar's words stay whole.  The 2.8-inch 320×240 panel keeps its own layout
(``display.layout.FINGERTIP_HEIGHT``): its screens stay whole, and no text is cut there."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest
from msgspec.structs import replace
from scenes import LANGUAGES, SCENES

from display.kiosk import Kiosk
from display.layout import TOUCH_MM, choose
from display.targets import PANELS, OffscreenTarget, Rotated, density
from display.ui import MenuButton, MoreButtons

#: (panel size in pixels as the kernel gives it, turn): the panels the README sets up.
PANELS_BUILT = (((480, 320), 0), ((800, 480), 0), ((720, 1280), 90))


def fingertip(size: tuple[int, int]) -> float:
    """9 mm in pixels on the panel of ``size``."""
    return TOUCH_MM * math.hypot(*size) / (PANELS[size] * 25.4)


def too_small(kiosk: Kiosk, size: tuple[int, int], top: int) -> list[str]:
    """The touch targets from ``top`` down that are less than a fingertip either way."""
    least = fingertip(size) - 0.5
    return [
        f"{t.action!r}: {t.rect[2]}×{t.rect[3]} px"
        for t in kiosk.canvas.targets
        if t.rect[1] >= top and min(t.rect[2], t.rect[3]) < least
    ]


def test_hw4_the_panels_known_by_their_pixels_have_their_real_density() -> None:
    assert density((480, 320)) == pytest.approx(6.49, abs=0.01)  # the 3.5-inch panel: 6.5 px/mm
    assert density((320, 240)) == pytest.approx(5.62, abs=0.01)
    assert density((720, 1280)) == pytest.approx(8.26, abs=0.01)
    assert density((1920, 1080)) is None  # a monitor: its pixels do not say its size
    assert density((720, 1280), diagonal=5.0) == pytest.approx(
        11.56, abs=0.01
    )  # the 5-inch Touch Display 2
    assert density((480, 320), millimetres=(74, 49)) == pytest.approx(6.5, abs=0.05)
    assert choose(480, 320, density((480, 320))).touch == 59
    assert choose(480, 320).touch == 36  # a window on a desktop keeps its layout
    small = choose(
        320, 240, density((320, 240))
    )  # the 2.8-inch panel keeps its sizes, knowing its density
    assert replace(small, density=None) == choose(320, 240) and small.density == density((320, 240))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", list(SCENES))
def test_hw4_the_touch_bar_and_its_menu_take_a_fingertip_on_every_panel(
    scene: str, language: str, make_kiosk: Callable[..., Kiosk]
) -> None:
    kiosk = make_kiosk((320, 240), language)
    SCENES[scene](kiosk)
    found = []
    for size, turn in PANELS_BUILT:
        panel = OffscreenTarget(size, diagonal=PANELS[size])
        kiosk.retarget(Rotated(panel, turn) if turn else panel)
        kiosk.ui.menu = False
        kiosk.redraw()
        bar_top = kiosk.canvas.height - kiosk.canvas.layout.bar
        found += [f"{size[0]}x{size[1]} bar: {p}" for p in too_small(kiosk, size, bar_top)]
        found += [
            f"{size[0]}x{size[1]}: {d.text!r} ({d.role}) cut" for d in kiosk.canvas.drawn if d.cut
        ]
        if any(t.action == MoreButtons() for t in kiosk.canvas.targets):
            kiosk.ui.menu = True
            kiosk.redraw()
            items = [t for t in kiosk.canvas.targets if isinstance(t.action, MenuButton)]
            assert items
            found += [
                f"{size[0]}x{size[1]} menu: {t.action!r} {t.rect[2]}×{t.rect[3]} px"
                for t in items
                if min(t.rect[2], t.rect[3]) < fingertip(size) - 0.5
            ]
            kiosk.ui.menu = False
    assert not found, "\n".join(found)


def test_lf1_the_adjust_screen_on_a_3_5_inch_panel_shows_the_rows_round_the_focused_field(
    make_kiosk: Callable[..., Kiosk],
) -> None:
    """Five fingertip rows do not fit a 3.5-inch panel: the rows round the focused field show,
    SELECT brings the next ones, and NEXT applies from any of them — one change, said."""
    from device.inputs import Button
    from display.ui import Press

    kiosk = make_kiosk((480, 320), "en")
    SCENES["adjust"](kiosk)  # Alice −3, the amount focused
    kiosk.retarget(OffscreenTarget((480, 320), diagonal=3.5))
    kiosk.redraw()
    roles = {d.role for d in kiosk.canvas.drawn}
    assert "adjust.label.amount" in roles and "adjust.apply" in roles
    assert "adjust.label.player" not in roles
    kiosk.dispatch(Press(Button.SELECT))  # on round to the player row
    kiosk.redraw()
    roles = {d.role for d in kiosk.canvas.drawn}
    assert "adjust.label.player" in roles and "adjust.label.amount" not in roles
    life = kiosk.state.player(0).life  # type: ignore[union-attr]
    kiosk.dispatch(Press(Button.NEXT))
    assert kiosk.state.player(0).life == life - 3  # type: ignore[union-attr]
    assert kiosk.ui.screen == "table"
