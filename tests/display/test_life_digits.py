"""TB-1, HW-4: life totals read across the table.  The digits' height is measured from what
the drawing layer recorded (a life total is recorded by its ink) and turned into millimetres on
the panel it is drawn on: the 2.8-inch 320×240 and 3.5-inch 480×320 SPI panels, the 7-inch
800×480 display, the Touch Display 2 (720×1280, turned), and a monitor (pixels only)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from scenes import PLAYERS, TEN

from device.commands import ChangePoison, DealCommanderDamage, NewGame
from device.inputs import Button
from display.kiosk import Kiosk
from display.screens.life import pending
from display.targets import PANELS, OffscreenTarget, Rotated, density
from display.ui import Focus, Press, Turn

#: (size as the kernel gives it, turn)
SCREENS = (((320, 240), 0), ((480, 320), 0), ((800, 480), 0), ((720, 1280), 90), ((1920, 1080), 0))
#: The least digit height, in millimetres, with four players in the main phase, by panel.
FOUR_PLAYERS_MM = {(320, 240): 9.0, (480, 320): 9.0, (800, 480): 15.0, (720, 1280): 15.0}
TEN_PLAYERS_MM = 5.0


def main_phase(k: Kiosk, players: tuple[str, ...]) -> None:
    k.execute(NewGame(formats=("commander",), players=players, first=players[1]))
    k.dispatch(Press(Button.NEXT))
    k.execute(DealCommanderDamage(seat=2, source=1, amount=7))
    k.execute(ChangePoison(seat=0, delta=3, source=1))


def upkeep(k: Kiosk, players: tuple[str, ...]) -> None:
    k.execute(NewGame(formats=("commander",), players=players, first=players[1]))


def heights(kiosk: Kiosk, size: tuple[int, int], turn: int) -> dict[str, int]:
    """Each seat's life digits' height in pixels on the panel of ``size``: the ink of all ten
    digits at the size drawn (a 7 and a 3 differ by a pixel of overshoot)."""
    panel = OffscreenTarget(size, diagonal=PANELS.get(size))
    kiosk.retarget(Rotated(panel, turn) if turn else panel)
    kiosk.redraw()
    ink = kiosk.canvas.fonts.ink
    lives = [d for d in kiosk.canvas.drawn if d.role.endswith(".life")]
    assert all(
        d.rect[3] <= ink("0123456789", d.size, True)[1] for d in lives
    )  # recorded by the ink
    return {d.role: ink("0123456789", d.size, True)[1] for d in lives}


@pytest.mark.parametrize("players", [PLAYERS, TEN], ids=["four", "ten"])
@pytest.mark.parametrize(("size", "turn"), SCREENS[:4])
def test_tb1_totals_read_across_the_table(
    size: tuple[int, int], turn: int, players: tuple[str, ...], make_kiosk: Callable[..., Kiosk]
) -> None:
    """Four players: 9 mm digits on the small panels, 15 mm from 7 inches; ten: 5 mm at least."""
    kiosk = make_kiosk((800, 480), "en")
    main_phase(kiosk, players)
    found = heights(kiosk, size, turn)
    per_mm = density(size)
    assert per_mm is not None and len(found) == len(players)
    least = FOUR_PLAYERS_MM[size] if len(players) == 4 else TEN_PLAYERS_MM
    assert min(found.values()) / per_mm >= least, (size, found)


@pytest.mark.parametrize("players", [PLAYERS, TEN], ids=["four", "ten"])
def test_tb1_a_pending_change_never_makes_a_total_smaller(
    players: tuple[str, ...], make_kiosk: Callable[..., Kiosk]
) -> None:
    """The encoder turning on a seat with badges (poison) and without: its total stays as large
    as before the turn, on every screen; the change is still shown (its badge)."""
    for seat, back in ((0, -1), (3, 2)):  # Alice (poison), Łukasz (none)
        kiosk = make_kiosk((800, 480), "en")
        main_phase(kiosk, players)
        before = {screen: heights(kiosk, *screen) for screen in SCREENS}
        kiosk.dispatch(Focus(back))
        kiosk.dispatch(Turn(-3))
        change = pending(kiosk.ui)
        assert change is not None and change.seat == seat
        for screen in SCREENS:
            after = heights(kiosk, *screen)
            assert after[f"seat{seat}.life"] >= before[screen][f"seat{seat}.life"], (screen, seat)
            assert any(
                d.role == f"seat{seat}.pending" and d.text == "−3" for d in kiosk.canvas.drawn
            ), (screen, seat)


@pytest.mark.parametrize("players", [PLAYERS, TEN], ids=["four", "ten"])
def test_tb1_totals_in_the_main_phase_no_smaller_than_in_the_upkeep(
    players: tuple[str, ...], make_kiosk: Callable[..., Kiosk]
) -> None:
    kiosk = make_kiosk((800, 480), "en")
    upkeep(kiosk, players)
    during = {screen: min(heights(kiosk, *screen).values()) for screen in SCREENS}
    kiosk.dispatch(Press(Button.NEXT))
    for screen in SCREENS:
        assert min(heights(kiosk, *screen).values()) >= during[screen], screen


@pytest.mark.parametrize(("size", "turn"), SCREENS[:4])
def test_tb1_totals_read_across_the_table_beside_the_plane(
    size: tuple[int, int], turn: int, make_kiosk: Callable[..., Kiosk]
) -> None:
    """A Planechase game: the plane's strip under the seats (its name, and its chaos ability
    where the card's text is known) leaves four players' digits at the panel's goal, 7 mm on the
    2.8-inch panel; the strip is drawn."""
    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[1]))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.execute(DealCommanderDamage(seat=2, source=1, amount=7))
    kiosk.execute(ChangePoison(seat=0, delta=3, source=1))
    found = heights(kiosk, size, turn)
    assert [d.role for d in kiosk.canvas.drawn if d.role == "table.plane"] == ["table.plane"]
    per_mm = density(size)
    assert per_mm is not None
    least = 7.0 if size == (320, 240) else FOUR_PLAYERS_MM[size]
    assert min(found.values()) / per_mm >= least, (size, found)
