"""Touch: where a finger or the mouse lands on the canvas, and touches held down.

A touch acts when the finger goes down (a mouse click is a touch).  A target may also have an
action for a held touch — a seat's half on the table: ±1 touched, ±10 held — which the loop does
once the finger has stayed down ``TOUCH_HOLD`` seconds: a deadline like a held key's, and a
finger lifted before it was only a touch.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import pygame
from msgspec import Struct

from device.text import Message
from display.screens.lineup import SCREENS
from display.touch import Calibration, PointerMap
from display.touch import save as save_calibration
from display.ui import Action, Touched

if TYPE_CHECKING:
    from display.kiosk import Kiosk

log = logging.getLogger(__name__)

#: Seconds a touch stays down to count as held (a seat's half: ±10 rather than ±1), about what
#: phones take for a long press, short of the GPIO buttons' ``hold_time``.
TOUCH_HOLD = 0.6
#: The mouse, as a finger: a click is a touch.
MOUSE = "mouse"


class Pressing(Struct, frozen=True):
    """A touch down on a target with a held action: which finger, the action, when it is due,
    and the screen it touched (the hold counts only there)."""

    finger: Hashable
    action: Action
    due: float
    screen: str


class Touches:
    """The kiosk's fingers: SDL's touch and mouse events as touches on the canvas's targets,
    the one touch held down, and the touch screen's calibration."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.pressing: Pressing | None = None  # a touch down on a target that has a held action

    def event(self, event: Any) -> None:
        """A finger or the mouse's left button, down or up.  SDL also synthesises a mouse event
        for each finger: it is skipped, the finger's own event has it."""
        kind = event.type
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if event.button != 1 or getattr(event, "touch", False):
                return
            if kind == pygame.MOUSEBUTTONDOWN:
                self.pointed(self.pointer.device_mouse(event.pos))
            else:
                self.release()
        elif kind == pygame.FINGERDOWN:
            self.pointed((event.x, event.y), (event.touch_id, event.finger_id))
        else:
            self.release((event.touch_id, event.finger_id))

    def pointed(self, device: tuple[float, float], finger: Hashable = MOUSE) -> None:
        """A finger or the mouse went down at ``device`` (the device's own frame): a touch where
        it lands on the canvas, or, for a screen that asks (calibrating), the raw point."""
        kiosk = self.kiosk
        current = SCREENS.get(kiosk.ui.screen)
        if current is not None and current.wants_raw_touch(kiosk.ui):
            kiosk.dispatch(Touched(device, kiosk.target.panel.rotate))
            return
        self.touch(self.pointer.canvas_pixel(device), finger)

    @property
    def pointer(self) -> PointerMap:
        canvas = self.kiosk.canvas
        return PointerMap(
            self.kiosk.target.panel, (canvas.width, canvas.height), self.kiosk.calibration
        )

    def touch(self, pos: tuple[int, int], finger: Hashable = MOUSE) -> None:
        """A touch (or a click) at ``pos``: its target's action at once; if the target has one for
        a held touch, that too once ``finger`` has stayed down ``TOUCH_HOLD`` seconds."""
        kiosk = self.kiosk
        target = kiosk.canvas.touched(pos)
        if target is None:
            return
        self.pressing = None
        if target.held is not None:
            self.pressing = Pressing(
                finger,
                target.held,  # type: ignore[arg-type]
                kiosk.now() + TOUCH_HOLD,
                kiosk.ui.screen,
            )
        kiosk.dispatch(target.action)  # type: ignore[arg-type]

    def release(self, finger: Hashable = MOUSE) -> None:
        """``finger`` came up: a touch let go before the hold time is only a touch."""
        if self.pressing is not None and self.pressing.finger == finger:
            self.pressing = None

    def forget(self) -> None:
        """Whatever finger is down will not be seen coming up (the window lost the focus, the
        screen went dark)."""
        self.pressing = None

    def hold(self) -> None:
        """A touch still down at its hold time: the held action, once, on the screen it touched."""
        pressing = self.pressing
        if pressing is None or self.kiosk.now() < pressing.due:
            return
        self.pressing = None
        if self.kiosk.ui.screen == pressing.screen:
            self.kiosk.dispatch(pressing.action)

    def deadlines(self) -> list[float]:
        return [] if self.pressing is None else [self.pressing.due]

    def calibrate(self, calibration: Calibration) -> None:
        """Take touches through ``calibration`` from now on, and keep it in the kiosk's
        ``calibration_dir`` for the next start (said when it cannot be)."""
        kiosk = self.kiosk
        kiosk.calibration = calibration
        directory = kiosk.calibration_dir
        if directory is None:
            kiosk.say(Message("ui.touch.done"))
            return
        try:
            path = save_calibration(directory, calibration)
        except OSError as error:
            log.warning("touch: the calibration cannot be kept in %s (%s)", directory, error)
            kiosk.say(Message("ui.touch.not_kept", reason=error.strerror or str(error)))
            return
        log.info("touch: calibrated, kept in %s: %s", path, calibration)
        kiosk.say(Message("ui.touch.done"))
