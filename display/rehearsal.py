"""What the next frames will likely show, laid out while the kiosk waits.

A plane's rules text is the longest text the kiosk draws, and the first frame that shows it
decides where its lines break and what size fits each place it goes (the Planechase screen, the
table's strip): a few milliseconds here, many times that on a Pi, all between the press and its
frame.  The next plane is known before anyone rolls: the planar deck lists its cards top first
(a virtual deck, or a physical one whose cards were listed).  So once a frame is up and nothing
waits, the kiosk asks every screen what it expects to show next (``Screen.ahead``: for
Planechase, the result of a planeswalk and the table after it, through ``Controller.preview``,
so nothing is kept) and draws those frames on a picture nobody sees (``Canvas.aside``); the
layouts it learns make the real frame quick.  It does this once for each thing a screen says
the frames depend on (``Screen.ahead_key``: the next plane), screen size and language: an idle
kiosk stays asleep.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable

from msgspec.structs import replace

from device.controller import Controller
from display import render as render_module
from display.canvas import Canvas
from display.i18n import Translator
from display.screens import Ahead
from display.screens.lineup import SCREENS
from display.ui import UiState

log = logging.getLogger(__name__)


class Rehearsal:
    """Draws the frames the screens expect next aside, once for each thing they depend on."""

    def __init__(self) -> None:
        self._done: dict[str, Hashable] = {}  # per screen: what its frames were drawn for
        self.drawn = 0  # frames drawn aside, since start

    def run(
        self,
        canvas: Canvas,
        controller: Controller,
        ui: UiState,
        tr: Translator,
        *,
        now: float,
        wall: float,
    ) -> bool:
        """Draw what the screens expect next, unless it was drawn already; whether it drew."""
        state = controller.state
        if state is None:
            return False
        drew = False
        for name, scr in SCREENS.items():
            depends = scr.ahead_key(state)
            if depends is None:
                continue
            key = (controller.game, depends, canvas.surface.get_size(), ui.language)
            if key == self._done.get(name):
                continue
            self._done[name] = key
            ahead = scr.ahead(controller.preview, state, ui, now)
            if ahead is None:
                continue
            if not self._draw(canvas, ahead, ui, tr, now=now, wall=wall):
                return False
            drew = True
        return drew

    def _draw(
        self, canvas: Canvas, ahead: Ahead, ui: UiState, tr: Translator, *, now: float, wall: float
    ) -> bool:
        """Draw each screen that shows ``ahead`` aside; False (and a warning) if one cannot be."""
        for screen in ahead.screens:
            # As the kiosk shows the result (``Kiosk.show``): what it said on the status line.
            shown = replace(
                ui,
                screen=screen,
                die=ahead.die,
                screen_states=dict(ui.screen_states),
                said=list(ahead.result.messages),
                messages_until=ahead.said_until,
                error=None,
                card=None,
                status_open=(),
                menu=False,
                help=False,
            )
            try:
                with canvas.aside():
                    render_module.render(canvas, ahead.result.state, shown, tr, now=now, wall=wall)
            except Exception as error:  # noqa: BLE001 - only a head start: the real frame will say what is wrong
                log.warning("could not lay out %s's %s screen ahead: %r", ahead.what, screen, error)
                return False
            self.drawn += 1
        return True
