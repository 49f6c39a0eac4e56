"""Results and announcements: what a command did, said on the status line, followed by the
screen it concerns, and played on the buzzer and LED (``feedback``: a planeswalk chimes, a chaos
roll beeps and flashes); a refusal's reason; what the table must know before it plays on; the
turn timer running out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from device.controller import Result
from device.errors import IllegalCommand
from device.events import Event
from device.rules.clock import clock_time
from device.rules.teams import turn_name
from device.text import Message
from display.clocks import turn_left
from display.screens.life import PendingLife
from display.screens.lineup import SCREENS
from display.ui import Line
from drivers.feedback import Cue

if TYPE_CHECKING:
    from display.kiosk import Kiosk

log = logging.getLogger(__name__)

ERROR_SECONDS = 8.0
MESSAGE_SECONDS = 12.0
CARD_SECONDS = 6.0


def cues(events: Sequence[Event]) -> list[Cue]:
    """The cues a command's events call for, in order, each once, as the screens of their
    formats name them (``Screen.cue``: Planechase chimes at a planeswalk, beeps at chaos).
    Undo and redo carry no events, so taking a roll back is silent."""
    found: list[Cue] = []
    for event in events:
        for scr in SCREENS.values():
            cue = scr.cue(event)
            if cue is not None and cue not in found:
                found.append(cue)
    return found


class Results:
    """What the kiosk says and shows after a command, a refusal or news."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.game: int | None = None  # the saved game whose results are shown
        self.shown_now = False  # a command's result was shown in this turn of the loop
        self.feedback_failed = False

    def before(self, going: str | None) -> None:
        """Before a command or another screen: what a screen holds back is made (or handed to
        the screen ``going`` to) first — the table's pending life change (``Screen.before``)."""
        for scr in SCREENS.values():
            scr.before(self.kiosk, going)

    def run(self, work: Callable[[], Result | None]) -> Result | None:
        """Do ``work`` (a command through the controller) and show what it did or why not."""
        kiosk = self.kiosk
        kiosk.dirty = True
        self.before(None)
        try:
            result = work()
        except IllegalCommand as error:
            self.refuse(error)
            return None
        if result is not None:
            self.show(result)
        kiosk.events.step()  # the change reported; a group over may start the next
        return result

    def say(self, message: Message) -> None:
        ui = self.kiosk.ui
        ui.error = None
        ui.said = [message]
        ui.messages_until = self.kiosk.now() + MESSAGE_SECONDS
        self.kiosk.dirty = True

    def refuse(self, error: IllegalCommand) -> None:
        """A refused command: its reason, in the table's language, on the status line."""
        self.kiosk.ui.error = Line(
            Message(error.key, **error.params), self.kiosk.now() + ERROR_SECONDS, error.key
        )
        self.kiosk.dirty = True

    def announce(self, *messages: Message) -> None:
        """What the table must know before it plays on (the saved games were recovered from
        damage, a part of the configuration left out): on the status line until the next change
        replaces it."""
        self.kiosk.ui.said = list(messages)
        self.kiosk.ui.messages_until = None
        self.kiosk.dirty = True

    def show(self, result: Result) -> None:
        kiosk, ui = self.kiosk, self.kiosk.ui
        self.shown_now = True
        ui.error = None
        ui.card = None  # what the command did is the news now
        ui.said = list(result.messages)
        ui.messages_until = kiosk.now() + MESSAGE_SECONDS
        self.sync_game()
        self.refresh_last_change()
        self.follow(result.events)
        for scr in SCREENS.values():
            scr.after(kiosk, result)
        self.play(cues(result.events))
        kiosk.dirty = True

    def timer_up(self, say: bool = True) -> None:
        """The turn timer has run out: the status line says so and the buzzer sounds, once a turn
        (the turn goes on until the table passes it).  Without ``say`` (at start-up) a timer that
        ran out before is only noted, so a restart does not sound it again."""
        kiosk, ui = self.kiosk, self.kiosk.ui
        state = kiosk.state
        left = turn_left(state, kiosk.wall())
        if state is None or state.clock is None or left is None or left > 0:
            return
        called = (kiosk.controller.game, state.turn)
        if ui.timer_called == called:
            return
        ui.timer_called = called
        if not say:
            return
        up = Message("ui.clock.timer_up", name=turn_name(state), time=clock_time(state.clock.timer))
        # Beside what a command just said (an UNDO that brought the time back), else on its own.
        ui.said = [*ui.said, up] if self.shown_now else [up]
        ui.messages_until = kiosk.now() + MESSAGE_SECONDS
        self.play([Cue.TIME_UP])
        kiosk.dirty = True

    def play(self, found: Sequence[Cue]) -> None:
        feedback = self.kiosk.feedback
        if feedback is None:
            return
        for cue in found:
            try:
                feedback.play(cue)
            except Exception as error:  # a dead buzzer is no reason to stop the game
                if not self.feedback_failed:
                    log.warning(
                        "feedback: cannot play %r (%s); the game goes on without it",
                        cue.value,
                        error,
                    )
                self.feedback_failed = True

    def follow(self, events: Sequence[Event]) -> None:
        """The screen that follows what a command did comes up (a die roll: Planechase)."""
        kiosk, ui = self.kiosk, self.kiosk.ui
        if not events or ui.screen == "setup" and kiosk.state is None:
            return
        for name, scr in SCREENS.items():
            if name != ui.screen and scr.shown(kiosk.state, ui) and scr.follows(events):
                kiosk.go(name)
                return

    def sync_game(self) -> None:
        game = self.kiosk.controller.game
        if game != self.game:
            self.game = game
            self.kiosk.ui.cursor = None
            # A change shown for the game before is no change to this one.
            self.kiosk.ui.drop(PendingLife)

    def refresh_last_change(self) -> None:
        last = self.kiosk.controller.last_change()
        self.kiosk.ui.last_change = last.messages() if last is not None else []
        self.kiosk.ui.last_change_at = last.at if last is not None else None
