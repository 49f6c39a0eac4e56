"""Input translation: what pygame's events and the drivers' input events mean as actions.

One press is one action, however slow a frame is.  pygame's own key repeat
(``pygame.key.set_repeat``) is a timer thread that keeps posting KEYDOWN events, which look
exactly like presses, from ``delay`` after a key went down until pygame *reads* the KEYUP; while
the loop is busy (a journal write on a slow SD card, a slow frame on a busy Pi) the release
waits unread in the window system's queue and one Enter becomes several NEXTs.  So the kiosk
turns pygame's repeat off and repeats only what may repeat — cursor moves and value changes
(``Turn``, ``Focus``) — itself: a held key is a deadline like any other, and it fires only after
the loop has read every pending event, so a key already released never repeats.  ROLL, NEXT,
UNDO, redo, SELECT and screen keys act once per press.

Keys (a laptop stands in for the gadget's buttons) — see ``KEYS`` and the README:

=====================  ==========================================================
Space or R             ROLL (the planar die) · Shift+Space: ROLL held (dice and coin; again: back)
Enter or N             NEXT (main phase / pass the turn; applies an adjustment; no game: set-up)
                       · Shift+Enter: NEXT held (on the table: the adjust screen)
Backspace or U         UNDO (shows what it took back; on the table, drops a pending life change) · Y redo
                       · Shift+Backspace: UNDO held (pause or resume the game clock)
Tab                    SELECT (next seat / next field; the status line's offer) · Shift+Tab: long SELECT
↑/↓, +/−, PgUp/PgDn    the encoder: change by 1 (PgUp/PgDn by 5); on the table, the highlighted seat's life
←/→                    previous / next seat or field
T, P, A, F2            the table, Planechase, adjust and set-up screens
S                      the saved games (UNDO twice there deletes the highlighted one)
M, G, C                the Necromancer, Conspiracy and Contraptions screens (in those games)
E                      an event across tables (on a gadget linked to its broker)
D                      dice, a coin and a random player
Esc                    back to the table · F1 or H: keys (→ or a tap: next page) · Ctrl+Q: quit
=====================  ==========================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from device.inputs import (
    BrokerMessage,
    BrokerStatus,
    BrokerTrouble,
    Button,
    ButtonPressed,
    EncoderTurned,
    InputEvent,
    ReaderStatus,
    TagRead,
)
from device.text import Message
from display.kiosk.results import CARD_SECONDS
from display.screens.lineup import SCREENS
from display.ui import (
    Action,
    Back,
    Erase,
    Focus,
    Go,
    Line,
    Press,
    Quit,
    Redo,
    ToggleHelp,
    Turn,
    Type,
)

if TYPE_CHECKING:
    from display.kiosk import Kiosk

#: Keys, documented in the README's "Keys" table.  Text screens (names at set-up) get letters
#: as text instead, so only keys that type nothing are global there.
KEYS: dict[int, Action] = {
    pygame.K_SPACE: Press(Button.ROLL),
    pygame.K_r: Press(Button.ROLL),
    pygame.K_RETURN: Press(Button.NEXT),
    pygame.K_KP_ENTER: Press(Button.NEXT),
    pygame.K_n: Press(Button.NEXT),
    pygame.K_BACKSPACE: Press(Button.UNDO),
    pygame.K_u: Press(Button.UNDO),
    pygame.K_y: Redo(),
    pygame.K_TAB: Press(Button.SELECT),
    pygame.K_UP: Turn(1),
    pygame.K_DOWN: Turn(-1),
    pygame.K_PLUS: Turn(1),
    pygame.K_EQUALS: Turn(1),
    pygame.K_KP_PLUS: Turn(1),
    pygame.K_MINUS: Turn(-1),
    pygame.K_KP_MINUS: Turn(-1),
    pygame.K_PAGEUP: Turn(5),
    pygame.K_PAGEDOWN: Turn(-5),
    pygame.K_LEFT: Focus(-1),
    pygame.K_RIGHT: Focus(1),
    pygame.K_ESCAPE: Back(),
    pygame.K_F1: ToggleHelp(),
    pygame.K_h: ToggleHelp(),
}
#: Held keys repeat after ``REPEAT_DELAY`` seconds, every ``REPEAT_INTERVAL`` seconds — only for
#: these actions (see the module's docstring).
REPEAT_DELAY = 0.4
REPEAT_INTERVAL = 0.06
REPEATS = (Turn, Focus)
#: Shift with a button's key is that button held (a long press).
HELD = {
    pygame.K_TAB: Button.SELECT,
    pygame.K_SPACE: Button.ROLL,
    pygame.K_r: Button.ROLL,
    pygame.K_RETURN: Button.NEXT,
    pygame.K_KP_ENTER: Button.NEXT,
    pygame.K_n: Button.NEXT,
    pygame.K_BACKSPACE: Button.UNDO,
    pygame.K_u: Button.UNDO,
}
#: The keys that stay keys while a screen takes typed text.
TYPING_KEYS = {
    pygame.K_RETURN,
    pygame.K_KP_ENTER,
    pygame.K_TAB,
    pygame.K_UP,
    pygame.K_DOWN,
    pygame.K_PAGEUP,
    pygame.K_PAGEDOWN,
    pygame.K_LEFT,
    pygame.K_RIGHT,
    pygame.K_ESCAPE,
    pygame.K_F1,
}
TOUCHES = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.FINGERDOWN, pygame.FINGERUP)


def key_action(key: int, mods: int, typing: bool) -> Action | None:
    """What a key pressed with ``mods`` means, while a screen takes typed text (``typing``) or
    not; None for a key that means nothing (a letter typed arrives as text)."""
    if key == pygame.K_q and mods & pygame.KMOD_CTRL:
        return Quit()
    if typing and key == pygame.K_BACKSPACE:
        return Erase()
    if typing and key not in TYPING_KEYS:
        return None
    if mods & pygame.KMOD_SHIFT and key in HELD:
        return Press(HELD[key], long=True)
    action = KEYS.get(key)
    if action is not None:
        return action
    name = pygame.key.name(key)
    return next(
        (Go(screen) for screen, scr in SCREENS.items() if scr.key and scr.key == name), None
    )


class Inputs:
    """Turns the window's events (keys, text, touches, the window itself) and the drivers'
    input events into the kiosk's actions; repeats the held keys that may repeat."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.held: dict[int, tuple[Action, float]] = {}  # key → (its action, when it repeats next)

    def typing(self) -> bool:
        current = SCREENS.get(self.kiosk.ui.screen)
        return current is not None and current.wants_text(self.kiosk.ui)

    def window(self, event: Any) -> None:
        """One of pygame's events."""
        kiosk, kind = self.kiosk, event.type
        if kind == pygame.QUIT:
            kiosk.ui.quit = True
        elif kind == pygame.KEYDOWN:
            self.key(event.key, event.mod)
        elif kind == pygame.KEYUP:
            self.held.pop(event.key, None)
        elif kind == pygame.WINDOWFOCUSLOST:
            self.held.clear()  # a release that happens elsewhere is never seen here
            kiosk.touches.forget()
        elif kind == pygame.TEXTINPUT:
            if self.typing():
                kiosk.dispatch(Type(event.text))
        elif kind in TOUCHES:
            kiosk.touches.event(event)
        elif kind in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            kiosk.target.resize(kiosk.target.surface.get_size())
            kiosk.retarget(kiosk.target)
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            kiosk.canvas.forget()  # what the window shows may be lost: the next frame draws it all
            kiosk.dirty = True

    def key(self, key: int, mods: int) -> None:
        action = key_action(key, mods, self.typing())
        if action is None:
            return
        if isinstance(action, REPEATS):
            self.held[key] = (action, self.kiosk.now() + REPEAT_DELAY)
        self.kiosk.dispatch(action)

    def repeat(self) -> bool:
        """Repeat the held cursor and value keys that are due, once each however late the loop is."""
        now = self.kiosk.now()
        fired = False
        for key, (action, due) in list(self.held.items()):
            if key in self.held and now >= due:
                self.held[key] = (action, now + REPEAT_INTERVAL)
                self.kiosk.dispatch(action)
                fired = True
        return fired

    def deadlines(self) -> list[float]:
        return [due for _, due in self.held.values()]

    def driver(self, event: InputEvent) -> None:
        """A driver's input event (GPIO button, encoder, reader, broker), on the loop's thread."""
        kiosk = self.kiosk
        if isinstance(event, ButtonPressed):
            # The kiosk's one filter for repeats: a held button's auto-repeats stop here, where
            # the drivers' events come in, so no screen and no command ever sees one (ROLL, NEXT
            # and UNDO act once per press; the kiosk repeats only cursor moves, itself).  The
            # press itself goes on as it came, to the screen and then the controller.
            if not event.repeat:
                kiosk.dispatch(event)
        elif isinstance(event, EncoderTurned):
            kiosk.dispatch(Turn(event.steps))
        elif isinstance(event, TagRead):
            kiosk.enrolment.read(event.uid)
        elif isinstance(event, BrokerMessage | BrokerStatus):
            kiosk.events.news(event)
        elif isinstance(event, BrokerTrouble):
            kiosk.events.trouble(event)
        elif isinstance(event, ReaderStatus):
            self.reader(event)

    def reader(self, event: ReaderStatus) -> None:
        ui = self.kiosk.ui
        if event.connected:
            ui.reader = Line(
                Message("ui.reader.connected", port=event.port),
                self.kiosk.now() + CARD_SECONDS,
                "connected",
            )
        else:
            ui.reader = Line(Message("ui.reader.disconnected"), None, "disconnected")
        self.kiosk.dirty = True
