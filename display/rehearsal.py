"""What the next planeswalk will show, laid out while the kiosk waits.

A plane's rules text is the longest text the kiosk draws, and the first frame that shows it
decides where its lines break and what size fits each place it goes (the Planechase screen, the
table's strip): a few milliseconds here, many times that on a Pi, all between the press and its
frame.  The next plane is known before anyone rolls: the planar deck lists its cards top first
(a virtual deck, or a physical one whose cards were listed).  So once a frame is up and nothing
waits, the kiosk draws, on a picture nobody sees (``Canvas.aside``), the Planechase screen and
the table as they would be after a planeswalk (``Controller.preview``: nothing is kept), and the
layouts it learns make the real frame quick.  It does this once for each next plane, screen size
and language: an idle kiosk stays asleep.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable

from msgspec.structs import replace

from device.controller import Controller, Result
from device.errors import IllegalCommand
from device.rules.planechase.commands import Planeswalk, RollPlanarDie
from device.rules.planechase.events import PlanarDieRolled
from display import render as render_module
from display.canvas import Canvas
from display.i18n import Translator
from display.screens.planechase import RESULT_SHOWN, TUMBLE
from display.ui import DieRoll, UiState

log = logging.getLogger(__name__)

#: The screens a planeswalk shows: the die's result, then the table it goes back to.
SCREENS = ("planechase", "table")


def planeswalk(controller: Controller) -> Result | None:
    """What a planeswalk would do now, if it turns over a card that is not face up now (with a
    physical deck nobody listed, the next card is not known): the active player's roll that
    shows the planeswalker symbol, else an effect's planeswalk (outside the main phase)."""
    state = controller.state
    if state is None or state.planechase is None:
        return None
    now_up = {card.name for card in state.planechase.face_up}
    result = None
    for command in (RollPlanarDie(pip=6), Planeswalk()):
        try:
            result = controller.preview(command)
            break
        except IllegalCommand:
            continue
    after = result.state if result is not None else None
    if result is None or after is None or after.planechase is None:
        return None
    return result if any(card.name not in now_up for card in after.planechase.face_up) else None


class Rehearsal:
    """Draws the next planeswalk's screens aside, once for each thing they depend on."""

    def __init__(self) -> None:
        self._done: Hashable = None
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
        """Draw what the next planeswalk shows, unless it was drawn already; whether it drew."""
        state = controller.state
        planechase = state.planechase if state is not None else None
        if state is None or planechase is None:
            return False
        key = (
            controller.game,
            state.turn,
            tuple((deck.owner, deck.cards[:1]) for deck in planechase.decks),
            tuple(card.name for card in planechase.face_up),
            canvas.surface.get_size(),
            ui.language,
        )
        if key == self._done:
            return False
        self._done = key
        result = planeswalk(controller)
        if result is None:
            return False
        rolled = any(isinstance(event, PlanarDieRolled) for event in result.events)
        die = (
            DieRoll(
                face="planeswalk", started=now, until=now + TUMBLE, back=now + TUMBLE + RESULT_SHOWN
            )
            if rolled
            else ui.die
        )
        for screen in SCREENS:
            # As the kiosk shows the result (``Kiosk.show``): what it said on the status line.
            shown = replace(
                ui,
                screen=screen,
                die=die,
                screen_states=dict(ui.screen_states),
                said=list(result.messages),
                messages_until=now + RESULT_SHOWN,
                error=None,
                card=None,
                status_open=(),
                menu=False,
                help=False,
            )
            try:
                with canvas.aside():
                    render_module.render(canvas, result.state, shown, tr, now=now, wall=wall)
            except Exception as error:  # noqa: BLE001 - only a head start: the real frame will say what is wrong
                log.warning(
                    "could not lay out the next planeswalk's %s screen ahead: %r", screen, error
                )
                return False
            self.drawn += 1
        return True
