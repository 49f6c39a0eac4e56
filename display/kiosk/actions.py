"""What an action does: the keys overlay, the touch bar's menu and the status line's texts over
the screen take it first, then the screen shown, then what it means on every screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from device.inputs import Button
from display.screens.lineup import SCREENS
from display.status import offer, open_texts
from display.ui import (
    Action,
    Back,
    CloseMenu,
    CloseStatus,
    EnrolTag,
    Focus,
    Go,
    MenuButton,
    MoreButtons,
    NextHelpPage,
    OpenStatus,
    Press,
    Quit,
    Redo,
    ToggleHelp,
    Turn,
)

if TYPE_CHECKING:
    from display.kiosk import Kiosk


class Actions:
    """Acts on the kiosk's actions, whichever input they came from."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk

    def do(self, action: Action) -> None:
        """What an action does: the help overlay, then the screen, then the common meaning."""
        kiosk, ui = self.kiosk, self.kiosk.ui
        kiosk.dirty = True
        ui.status_floor = 0  # an input may move a steady screen's chips (a message gone makes room)
        if isinstance(action, ToggleHelp):
            ui.help = not ui.help
            ui.help_page = 0
            return
        if isinstance(action, Quit):
            ui.quit = True
            return
        if (ui.menu or ui.status_open) and self.closed_over(action):
            return
        if self.overlaid(action):
            return
        if ui.help and self.help_took(action):
            return
        if isinstance(action, EnrolTag):
            kiosk.enrolment.open(action.uid)
            return
        if isinstance(action, Press) and self.pressed(action):
            return
        current = SCREENS.get(ui.screen)
        if current is not None and current.shown(kiosk.state, ui) and current.act(kiosk, action):
            return
        self.common(action)

    def overlaid(self, action: Action) -> bool:
        """A tap that opens the touch bar's menu or shows the status texts whole."""
        ui = self.kiosk.ui
        if isinstance(action, MoreButtons):
            ui.menu = True
            return True
        if isinstance(action, OpenStatus):
            ui.status_open = open_texts(self.kiosk.canvas, ui, self.kiosk.tr, self.kiosk.now())
            return True
        return False

    def pressed(self, action: Press) -> bool:
        """A button that means something before the screen shown has a say: SELECT takes up what
        the status line offers (an unknown tag: enrol it), a long press of a screen's ``held``
        button shows that screen.  True when the press was spent on that."""
        if action.button is Button.SELECT and not action.long:
            offered = offer(self.kiosk.ui, self.kiosk.now())
            if offered is not None:
                self.kiosk.dispatch(offered)
                return True
        return action.long and self.showing_held(action.button)

    def showing_held(self, button: Button) -> bool:
        """A long press of a screen's ``held`` button shows that screen, or on it goes back to
        the table (ROLL held: the dice).  True when the press was spent on that."""
        kiosk = self.kiosk
        for name, scr in SCREENS.items():
            if scr.held is button and scr.shown(kiosk.state, kiosk.ui):
                kiosk.go("table" if kiosk.ui.screen == name else name)
                return True
        return False

    def closed_over(self, action: Action) -> bool:
        """The bar's menu and the status texts shown whole close at a tap (which does nothing
        else, unless it was on one of the menu's buttons) or at any other input, which then goes
        on.  True when ``action`` was spent on them."""
        ui = self.kiosk.ui
        ui.menu, ui.status_open = False, ()
        if isinstance(action, MenuButton):
            self.kiosk.dispatch(action.action)
            return True
        return isinstance(action, CloseMenu | MoreButtons | CloseStatus | Back)

    def help_took(self, action: Action) -> bool:
        """The keys over the screen: ←/→ or the encoder turn their pages, a tap on them shows the
        next page (and closes the last); anything else closes them and goes on, except BACK,
        which only closes them.  True when ``action`` was spent on them."""
        ui = self.kiosk.ui
        turn = (
            action.delta
            if isinstance(action, Focus)
            else action.steps
            if isinstance(action, Turn)
            else 0
        )
        if turn and ui.help_pages > 1:
            ui.help_page = (ui.help_page + turn) % ui.help_pages
            return True
        if isinstance(action, NextHelpPage):
            ui.help_page += 1
            if ui.help_page >= ui.help_pages:
                ui.help, ui.help_page = False, 0
            return True
        ui.help = False
        return isinstance(action, Back)

    def common(self, action: Action) -> None:
        """What an action means on every screen, once the screen shown has passed it by."""
        kiosk = self.kiosk
        if isinstance(action, Press):
            if (
                action.button is Button.SELECT
                and action.long
                or action.button is Button.NEXT
                and kiosk.state is None
            ):
                # With no game at all, NEXT has nothing to advance: it opens the set-up instead.
                kiosk.go("setup")
            else:
                # SELECT means something to the game only when a module binds it (a
                # phenomenon is acknowledged); otherwise the controller ignores it.
                kiosk.press(action)
        elif isinstance(action, Redo):
            kiosk.results.run(kiosk.controller.redo)
        elif isinstance(action, Go):
            kiosk.go(action.screen)
        elif isinstance(action, Back):
            kiosk.go("table")
