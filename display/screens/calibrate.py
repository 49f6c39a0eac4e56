"""Calibrating the touch screen: four crosses near the corners, then one in the centre that
checks the others (HW-4).

Resistive panels, the kind on 2.8- and 3.5-inch SPI screens, report where they are pressed in
their own units, often with an axis turned or swapped; the kiosk cannot know how they sit on the
panel until a player touches known points.  The screen shows one cross at a time over the whole
picture (no header, no bar); each touch goes to it as the device reported it (``Touched``), and
after the fifth the map from the device to the panel is worked out (:func:`display.touch.solve`,
from the corners) and checked against the centre's touch.  Touches that do not agree (a slip, a
finger's width off) start it again and say so; touches that do are kept (``Host.calibrate``) and
the table comes back.  UNDO or Esc leave the calibration as it was.  While it shows, the buttons
change nothing in the game.

It comes up by itself at start when a resistive touch screen is on the Pi's console and no
calibration was kept; key F3, or TOUCH in the touch bar (where the console has a touch screen),
brings it up again.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from device.inputs import Button
from device.state import GameState
from device.text import Message
from display import theme
from display.screens import Host, Screen, View
from display.touch import (
    CHECK_TOLERANCE,
    TARGETS,
    CalibrationError,
    Point,
    check_error,
    solve,
    to_panel,
)
from display.ui import Action, Back, Focus, Press, Redo, Tap, Touched, Turn, UiState

NAME = "calibrate"
#: A touch this soon after the last one is the same press bouncing on a resistive panel.
SETTLE = 0.35


class CalibrateForm(Struct, frozen=True):
    """The calibration under way: each touch so far as (device point, the panel point of its
    cross), when the last one came, and whether the last round's touches did not agree."""

    samples: tuple[tuple[Point, Point], ...] = ()
    last: float = -1e9
    again: bool = False


class Calibrate(Screen):
    name = NAME
    button = "ui.btn.touch"
    key = "f3"
    whole = True

    def shown(self, state: GameState | None, ui: UiState) -> bool:
        return bool(ui.touch_screen)

    def enter(self, host: Host) -> None:
        host.ui.put(CalibrateForm())

    def wants_raw_touch(self, ui: UiState) -> bool:
        return True

    def act(self, host: Host, action: Action) -> bool:
        form = host.ui.state_of(CalibrateForm)
        if isinstance(action, Touched):
            self._touched(host, form, action)
            return True
        if isinstance(action, Back) or isinstance(action, Press) and action.button is Button.UNDO:
            host.ui.drop(CalibrateForm)
            host.say(Message("ui.touch.kept"))
            host.go("table")
            return True
        # Nothing else changes the game while the crosses show; other screens' keys still leave.
        return isinstance(action, Press | Turn | Focus | Tap | Redo)

    def _touched(self, host: Host, form: CalibrateForm, touched: Touched) -> None:
        now = host.now()
        if now - form.last < SETTLE:
            return
        cross = to_panel(TARGETS[len(form.samples)], touched.rotate)
        samples = (*form.samples, (touched.device, cross))
        if len(samples) < len(TARGETS):
            host.ui.put(replace(form, samples=samples, last=now))
            return
        try:
            calibration = solve(samples[:-1])
            agrees = check_error(calibration, samples[-1][0], touched.rotate) <= CHECK_TOLERANCE
        except CalibrationError:
            agrees = False
        if not agrees:
            host.ui.put(CalibrateForm(last=now, again=True))
            return
        host.ui.drop(CalibrateForm)
        host.calibrate(calibration)
        host.go("table")

    def draw(self, view: View) -> None:
        canvas, tr, lay = view.canvas, view.tr, view.layout
        form = view.ui.state_of(CalibrateForm)
        width, height = canvas.width, canvas.height
        step = min(len(form.samples), len(TARGETS) - 1)
        x, y = (round(TARGETS[step][0] * width), round(TARGETS[step][1] * height))
        arm = max(lay.touch // 2, 8)
        thick = max(2, lay.line)
        canvas.line((x - arm, y), (x + arm, y), theme.CURSOR, thick)
        canvas.line((x, y - arm), (x, y + arm), theme.CURSOR, thick)
        canvas.circle((x, y), max(4, arm // 2), theme.CURSOR, thick)
        canvas.shape("touch.cross", (x - arm, y - arm, 2 * arm, 2 * arm), "touch.cross")
        # The words stand where no cross is: between the rows of corner crosses, or, while the
        # centre's cross shows, above it, with the way out under it.
        left, width_words = lay.margin, width - 2 * lay.margin
        leave = tr("ui.touch.leave")
        leave_h = canvas.fonts.line_height(lay.tiny) * 2
        if step < len(TARGETS) - 1:
            top, bottom = (
                round(0.15 * height) + arm + lay.margin,
                round(0.85 * height) - arm - lay.margin,
            )
            leave_rect = (left, bottom - leave_h, width_words, leave_h)
            bottom -= leave_h + lay.margin
        else:
            top, bottom = lay.margin, y - arm - lay.margin
            leave_rect = (left, y + arm + lay.margin, width_words, leave_h)
        title = canvas.text(
            tr("ui.touch.title"),
            (width // 2, top),
            lay.medium,
            theme.TEXT,
            anchor="midtop",
            bold=True,
            max_width=width_words,
            role="touch.title",
            min_size=lay.small,
        )
        top = title.bottom + lay.margin // 2
        words = (
            tr("ui.touch.again")
            if form.again
            else tr("ui.touch.tap", n=step + 1, total=len(TARGETS))
        )
        room = max(bottom - top, canvas.fonts.line_height(lay.tiny))
        size = canvas.fit_paragraph(words, width_words, room, lay.small) or lay.tiny
        canvas.paragraph(
            words,
            (left, top, width_words, room),
            size,
            theme.WARN if form.again else theme.TEXT,
            role="touch.words",
            align="center",
            min_size=size,
        )
        canvas.paragraph(leave, leave_rect, lay.tiny, theme.DIM, role="touch.leave", align="center")
