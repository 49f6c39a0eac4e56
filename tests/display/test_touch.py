"""HW-4: touch on the panel as it is mounted — the picture turned by ``[display] rotate`` with
touch turned alike, and a resistive panel calibrated on the screen by touching five crosses.

The frames of reference are ``display.touch``'s: device (what the touch screen reports), panel,
canvas.  The calibration is played through the kiosk's loop with SDL's own finger events, as the
Pi's console delivers them, on a stand-in panel whose touch is turned and offset the way cheap
resistive panels are."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from hypothesis import given, strategies as st
from scenes import PLAYERS

from device.commands import NewGame
from device.inputs import Button
from display.kiosk import Kiosk
from display.screens.calibrate import SETTLE, CalibrateForm
from display.screens.life import PAUSE
from display.targets import OffscreenTarget, Rotated, Panel
from display.touch import (
    CHECK_TOLERANCE,
    TARGETS,
    Calibration,
    CalibrationError,
    PointerMap,
    load,
    save,
    solve,
    to_canvas,
    to_panel,
)
from display.screens.table import LifeStep
from display.ui import Press

MakeKiosk = Callable[..., Kiosk]
fraction = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ConsolePanel(OffscreenTarget):
    """A panel on the Pi's console: touches come from the kernel's device (calibration applies);
    ``rotate`` as its frame says."""

    @property
    def panel(self) -> Panel:
        return Panel(self.surface.get_size(), console=True)


#: How a cheap resistive panel's touch sits on its picture: axes swapped, one of them inverted,
#: and the touch's range a little inside and off the picture.
def miswired(panel: tuple[float, float]) -> tuple[float, float]:
    u, v = panel
    return (0.08 + 0.85 * v, 0.95 - 0.9 * u)


@given(fraction, fraction, st.sampled_from((0, 90, 180, 270)))
def test_hw4_turning_a_point_onto_the_panel_and_back_is_the_same_point(
    s: float, t: float, rotate: int
) -> None:
    back = to_canvas(to_panel((s, t), rotate), rotate)
    assert back == pytest.approx((s, t))


def test_hw4_a_quarter_turn_clockwise_puts_the_pictures_top_left_at_the_panels_top_right() -> None:
    assert to_panel((0.0, 0.0), 90) == (1.0, 0.0)
    assert to_panel((1.0, 0.0), 90) == (1.0, 1.0)
    assert to_panel((0.0, 0.0), 180) == (1.0, 1.0)
    assert to_panel((0.0, 0.0), 270) == (0.0, 1.0)


def test_hw4_the_rotated_target_draws_the_picture_turned_clockwise_on_the_panel() -> None:
    """A 720×1280 portrait panel (the Touch Display 2) with rotate = 90 is a 1280×720 table; the
    picture's top-left corner shows at the panel's top right."""
    panel = OffscreenTarget((720, 1280))
    turned = Rotated(panel, 90)
    assert turned.surface.get_size() == (1280, 720)
    turned.surface.fill((0, 0, 0))
    turned.surface.fill((255, 0, 0), (0, 0, 10, 10))
    assert turned.present()
    assert panel.surface.get_at((719, 0))[:3] == (255, 0, 0)
    assert panel.surface.get_at((0, 0))[:3] == (0, 0, 0)
    assert turned.panel.rotate == 90


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_hw4_a_touch_turns_with_the_picture(rotate: int) -> None:
    """A touch at the panel point under a canvas point lands on that canvas point, for a finger
    (device fractions) and for a mouse (pixels of the space it spans) alike."""
    canvas = (480, 320) if rotate in (0, 180) else (320, 480)
    panel = (480, 320)
    pointer = PointerMap(Panel(panel, rotate=rotate, console=True), canvas)
    where = (0.2, 0.75)
    u, v = to_panel(where, rotate)
    expected = (int(where[0] * canvas[0]), int(where[1] * canvas[1]))
    assert pointer.finger(u, v) == pytest.approx(expected, abs=1)
    assert pointer.mouse((round(u * panel[0]), round(v * panel[1]))) == pytest.approx(
        expected, abs=1
    )


def test_hw4_solve_finds_the_map_from_touches_that_agree() -> None:
    samples = [(miswired(p), p) for p in ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9))]
    calibration = solve(samples)
    for device, panel in samples:
        assert calibration(device) == pytest.approx(panel, abs=1e-9)
    assert calibration(miswired((0.5, 0.5))) == pytest.approx((0.5, 0.5), abs=1e-9)


def test_hw4_touches_on_one_spot_make_no_calibration() -> None:
    with pytest.raises(CalibrationError):
        solve([((0.5, 0.5), p) for p in ((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9))])
    with pytest.raises(CalibrationError):
        solve([((0.1, 0.1), (0.1, 0.1)), ((0.2, 0.2), (0.9, 0.9))])


def test_hw4_the_calibration_is_kept_and_a_damaged_file_is_said_and_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    calibration = Calibration(0.0, 1.1, -0.05, -1.0, 0.0, 1.02)
    path = save(tmp_path, calibration)
    assert json.loads(path.read_text())["map"] == [0.0, 1.1, -0.05, -1.0, 0.0, 1.02]
    assert load(tmp_path) == calibration
    assert load(tmp_path / "nowhere") is None
    for damage in (b'{"map": [1, 2]}', b"\x00\xff garbage", b'{"map": ["NaN", 0, 0, 0, 1, 0]}'):
        path.write_bytes(damage)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            assert load(tmp_path) is None
        assert any(
            "calibrate again" in r.getMessage() or "no usable" in r.getMessage()
            for r in caplog.records
        )


def calibrating_kiosk(
    make_kiosk: MakeKiosk, tmp_path: Path, rotate: int = 0
) -> tuple[Kiosk, Clock]:
    clock = Clock()
    kiosk = make_kiosk((480, 320), "en", clock=clock)
    panel = ConsolePanel((480, 320) if rotate in (0, 180) else (320, 480))
    kiosk.retarget(Rotated(panel, rotate) if rotate else panel)
    kiosk.calibration_dir = tmp_path / "data"
    kiosk.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0]))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.ui.touch_screen = "resistive"
    kiosk.redraw()
    return kiosk, clock


def finger_at(kiosk: Kiosk, clock: Clock, device: tuple[float, float]) -> None:
    """A stylus pressed and lifted at ``device`` (the touch screen's own fractions)."""
    clock.now += SETTLE + 0.1
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(
            pygame.event.Event(
                kind, x=device[0], y=device[1], touch_id=1, finger_id=0, dx=0, dy=0, pressure=1
            )
        )
    kiosk.settle()


def crosses(kiosk: Kiosk) -> list[tuple[int, int, int, int]]:
    return [shape.rect for shape in kiosk.canvas.shapes if shape.name == "touch.cross"]


@pytest.mark.parametrize("rotate", [0, 90])
def test_hw4_a_resistive_panel_is_calibrated_by_touching_five_crosses_then_touch_lands_where_it_should(
    make_kiosk: MakeKiosk, tmp_path: Path, rotate: int
) -> None:
    """The crosses show one at a time over the whole picture (no bar, no header); each touch is
    taken as the panel reported it; after the centre's check the map is kept in touch.json, the
    table comes back, and a touch on Юрий's upper half — reported the panel's miswired way —
    gives him one life."""
    kiosk, clock = calibrating_kiosk(make_kiosk, tmp_path, rotate)
    kiosk.go("calibrate")
    kiosk.redraw()
    assert kiosk.ui.screen == "calibrate"
    assert not [
        t for t in kiosk.canvas.targets
    ]  # the whole picture is the crosses': no bar to touch
    for index, canvas_point in enumerate(TARGETS):
        x, y, w, h = crosses(kiosk)[0]
        width, height = kiosk.canvas.width, kiosk.canvas.height
        assert (x + w // 2, y + h // 2) == (
            round(canvas_point[0] * width),
            round(canvas_point[1] * height),
        )
        assert f"({index + 1} of 5)" in " ".join(d.text for d in kiosk.canvas.drawn)
        finger_at(kiosk, clock, miswired(to_panel(canvas_point, rotate)))
    assert kiosk.ui.screen == "table"
    assert "The touch screen is calibrated." in kiosk.ui.messages
    kept = load(tmp_path / "data")
    assert kept is not None and kept == kiosk.calibration
    kiosk.redraw()
    life = kiosk.state.player(1).life  # type: ignore[union-attr]
    x, y, w, h = next(t.rect for t in kiosk.canvas.targets if t.action == LifeStep(1, 1))
    centre = ((x + w / 2) / kiosk.canvas.width, (y + h / 2) / kiosk.canvas.height)
    finger_at(kiosk, clock, miswired(to_panel(centre, rotate)))
    clock.now += PAUSE + 0.1  # the pause after which a life change the table shows is made
    kiosk.step(block=False)
    assert kiosk.state.player(1).life == life + 1  # type: ignore[union-attr]


def test_hw4_touches_that_do_not_line_up_start_the_calibration_again(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """A slip on the centre's check (a finger's width off): nothing is kept, the crosses start
    again and the screen says why."""
    kiosk, clock = calibrating_kiosk(make_kiosk, tmp_path)
    kiosk.go("calibrate")
    kiosk.redraw()
    for point in TARGETS[:-1]:
        finger_at(kiosk, clock, miswired(point))
    finger_at(kiosk, clock, miswired((0.5 + 2 * CHECK_TOLERANCE, 0.5 + 2 * CHECK_TOLERANCE)))
    assert kiosk.ui.screen == "calibrate"
    assert kiosk.calibration is None and load(tmp_path / "data") is None
    assert kiosk.ui.state_of(CalibrateForm).samples == ()
    assert "did not line up" in " ".join(d.text for d in kiosk.canvas.drawn)


def test_hw4_a_bouncing_press_is_one_touch_and_undo_leaves_the_calibration_as_it_was(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    kiosk, clock = calibrating_kiosk(make_kiosk, tmp_path)
    kiosk.calibration = before = Calibration(1.0, 0.0, 0.01, 0.0, 1.0, 0.0)
    kiosk.go("calibrate")
    kiosk.redraw()
    finger_at(kiosk, clock, miswired(TARGETS[0]))
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):  # the same press again, 50 ms later
        pygame.event.post(
            pygame.event.Event(kind, x=0.3, y=0.3, touch_id=1, finger_id=0, dx=0, dy=0, pressure=1)
        )
    clock.now += 0.05
    kiosk.settle()
    assert len(kiosk.ui.state_of(CalibrateForm).samples) == 1
    life = [p.life for p in kiosk.state.players]  # type: ignore[union-attr]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode=""))
    kiosk.settle()
    assert kiosk.ui.screen == "table" and kiosk.calibration == before
    assert "The touch calibration is as it was." in kiosk.ui.messages
    assert [p.life for p in kiosk.state.players] == life  # type: ignore[union-attr]
    assert len(kiosk.history()) == 2  # the game's start and NEXT: UNDO took nothing back


def test_hw4_a_desktop_window_takes_its_pointer_as_it_is(make_kiosk: MakeKiosk) -> None:
    """No calibration applies where the desktop maps its pointers (a window on a laptop)."""
    kiosk = make_kiosk((480, 320))
    kiosk.calibration = Calibration(0.0, 1.0, 0.0, 1.0, 0.0, 0.0)  # would swap the axes
    pointer = PointerMap(kiosk.target.panel, (480, 320), kiosk.calibration)
    assert pointer.mouse((100, 50)) == (100, 50)
