"""The kiosk's loop: sleep on input, act, redraw only what changed.

One thread owns the game and pygame: this loop.  Driver threads (GPIO buttons, the RFID
reader) put ``device.inputs`` values on a :class:`WakingQueue`, which also posts a pygame user
event so a loop sleeping in SDL wakes (``pygame.event.post`` is thread-safe in pygame-ce 2; the
old ``fastevent`` module is deprecated).  The loop sleeps until the nearest deadline (a message
expiring, an animation frame, the game clock) or forever, and wakes for nothing else: on a
desktop in SDL's own wait (:mod:`display.sdl`; pygame's ``event.wait`` wakes every millisecond),
elsewhere on the queue (``SDL_SLEEPS``), which on the Pi's console the kernel's input devices
wake too (:mod:`drivers.input_devices`).  A frame is drawn only when the game state or the UI
state changed.

If SDL reports the screen gone while the loop waits on it or presents a frame (a ``pygame.error``
from its event queue or ``flip``), the loop closes the target and, given ``reopen`` (the app's
:class:`display.targets.ScreenKeeper`), waits for it to come back; the game is untouched, and
presses made while the screen was dark are dropped, not played blind.  After each command the
buzzer and LED play their cue (``feedback``): a planeswalk chimes, a chaos roll beeps and flashes.

One press is one action, however slow a frame is.  pygame's own key repeat
(``pygame.key.set_repeat``) is a timer thread that keeps posting KEYDOWN events, which look
exactly like presses, from ``delay`` after a key went down until pygame *reads* the KEYUP; while
the loop is busy (a journal write on a slow SD card, a slow frame on a busy Pi) the release
waits unread in the window system's queue and one Enter becomes several NEXTs.  So the kiosk
turns pygame's repeat off and repeats only what may repeat — cursor moves and value changes
(``Turn``, ``Focus``) — itself: a held key is a deadline like any other, and it fires only after
the loop has read every pending event, so a key already released never repeats.  ROLL, NEXT,
UNDO, redo, SELECT and screen keys act once per press.

A touch acts when the finger goes down (a mouse click is a touch).  A target may also have an
action for a held touch — a seat's half on the table: ±1 touched, ±10 held — which the loop does
once the finger has stayed down ``TOUCH_HOLD`` seconds: a deadline like a held key's, and a
finger lifted before it was only a touch.

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

import logging
import queue
from pathlib import Path
import threading
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from msgspec import Struct
from msgspec.structs import replace
import pygame

from device.catalog import Card
from device.commands import Command
from device.controller import Controller, Result
from device.errors import GameDamaged, IllegalCommand
from device.events import Event, GameStarted
from device.games import SavedGame
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
    TagRemoved,
)
from device.journal import Txn
from device.notify import Watchdog
from device.rules.clock import clock_time
from device.rules.teams import turn_name
from device.state import GameState
from device.tagmap import format_uid
from device.text import Message
from display import render as render_module
from display.canvas import Canvas
from display.fonts import Fonts
from display.i18n import Translator
from display.layout import choose
from display.rehearsal import Rehearsal
from display.screens import Screen, View
from display.screens.conspiracy import NAME as CONSPIRACY
from display.screens.enrol import NAME as ENROL
from display.screens.enrol import EnrolForm
from display.screens.event import NAME as EVENT
from display.screens.event import EventInfo
from display.screens.life import PendingLife
from display.screens.lineup import SCREENS
from display.sdl import sdl_wait, video_driver
from display.targets import Target
from display.touch import Calibration, PointerMap
from display.touch import save as save_calibration
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
    Tap,
    ToggleHelp,
    Touched,
    Turn,
    Type,
    UiState,
)
from drivers.feedback import Cue, Feedback

if TYPE_CHECKING:  # an event across tables is loaded only when the configuration names one
    from device.event_link import EventSession
    from display.phone import Page

log = logging.getLogger(__name__)

WAKE = pygame.event.custom_type()
#: The longest the loop handles queued inputs at a time before it turns (see ``Kiosk.drain``).
DRAIN_SECONDS = 0.05
ERROR_SECONDS = 8.0
MESSAGE_SECONDS = 12.0
CARD_SECONDS = 6.0
ENROL_SECONDS = 20.0  # how long the status line offers to enrol an unknown tag
#: Seconds a touch stays down to count as held (a seat's half: ±10 rather than ±1), about what
#: phones take for a long press, short of the GPIO buttons' ``hold_time``.
TOUCH_HOLD = 0.6
#: The mouse, as a finger: a click is a touch.
MOUSE = "mouse"


class Pressing(Struct, frozen=True):
    """A touch down on a target with a held action: which finger, the action, when it is due,
    and the screen it touched (the hold counts only there)."""

    finger: Hashable
    action: Hashable
    due: float
    screen: str


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


class WakingQueue(queue.Queue[InputEvent]):
    """The input queue: ``put`` from any thread, and the kiosk's loop wakes up — whether it sleeps
    in SDL (``pygame.event.wait``) or on :meth:`wait`."""

    def __init__(self) -> None:
        super().__init__()
        self._signal = threading.Event()

    def put(self, item: InputEvent, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        self.wake()

    def wake(self) -> None:
        """Wake the loop, wherever it sleeps; without an input of ours, this is a signal asking
        it to stop, or input waiting in SDL (the kernel's input devices on the Pi's console)."""
        self._signal.set()
        try:
            pygame.event.post(pygame.event.Event(WAKE))
        except pygame.error:
            pass  # video not up yet: the loop drains the queue when it starts

    def wait(self, timeout: float | None) -> None:
        """Sleep until something is put (or ``timeout`` seconds pass)."""
        self._signal.wait(timeout)
        self._signal.clear()


#: SDL video drivers whose event wait really sleeps (SDL 2.0.16+).  With the others SDL's wait
#: polls every millisecond, so the loop sleeps on the input queue instead; where SDL still
#: delivers input (KMS/DRM: keyboards and touch screens through evdev) the kernel's input devices
#: wake it (``input_watched``), or, when they cannot be watched, it looks at SDL's events every
#: ``SDL_POLL`` seconds.
SDL_SLEEPS = frozenset({"x11", "wayland", "windows", "cocoa"})
SDL_NO_INPUT = frozenset({"dummy", "offscreen"})
SDL_POLL = 0.02


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
_HELD = {
    pygame.K_TAB: Button.SELECT,
    pygame.K_SPACE: Button.ROLL,
    pygame.K_r: Button.ROLL,
    pygame.K_RETURN: Button.NEXT,
    pygame.K_KP_ENTER: Button.NEXT,
    pygame.K_n: Button.NEXT,
    pygame.K_BACKSPACE: Button.UNDO,
    pygame.K_u: Button.UNDO,
}

_TYPING_KEYS = {
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


class Kiosk:
    """The screen and its inputs around one ``Controller``.

    ``clock`` (monotonic) and ``wall`` (epoch seconds) are parameters so tests control time;
    ``wall`` is the time the game's durations are counted at (the time played, the turn timer, a
    round's clock), and without it the controller's: the game's time, which a wall clock set
    forward or back does not move (docs/decisions/0027-durations-on-the-monotonic-clock.md).
    ``on_present(when)`` is called after each frame is shown (the benchmark measures latency).
    ``reopen(error)`` returns a new target once a lost screen can be opened again (without it a
    lost screen ends the loop with the error); ``feedback`` plays the buzzer and LED cues.
    ``input_watched``: something wakes ``inputs`` when SDL has input to read (see ``SDL_SLEEPS``).
    ``calibration``: the touch screen's (:mod:`display.touch`), where one was made, and
    ``calibration_dir`` where a new one is kept.
    """

    def __init__(
        self,
        controller: Controller,
        target: Target,
        *,
        language: str = "en",
        inputs: queue.Queue[InputEvent] | None = None,
        fonts: Fonts | None = None,
        fps: int = 20,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] | None = None,
        on_present: Callable[[float], None] | None = None,
        watchdog: Watchdog | None = None,
        feedback: Feedback | None = None,
        reopen: Callable[[BaseException], Target] | None = None,
        input_watched: bool = False,
        calibration: Calibration | None = None,
        calibration_dir: Path | None = None,
    ) -> None:
        self.controller = controller
        self.calibration = calibration
        self.calibration_dir = calibration_dir
        #: This gadget at an event across tables (its link to the broker), once one is attached.
        self.event: EventSession | None = None
        #: The players' page this gadget serves (``[event] page_port``), once one is attached.
        self.page: Page | None = None
        self.target = target
        self.inputs: queue.Queue[InputEvent] = inputs if inputs is not None else WakingQueue()
        self.fonts = fonts or Fonts()
        self.fps = max(1, fps)
        self._clock = clock
        self._wall = wall if wall is not None else self.clock
        self._translator: Translator | None = None
        self.on_present = on_present
        self.watchdog = watchdog
        self.feedback = feedback
        self.reopen = reopen
        self.input_watched = input_watched
        self.screen_losses = 0
        self._feedback_failed = False
        self._ui = UiState(language=language, fps=self.fps)
        self._canvas = self._make_canvas()
        self.rehearsal = Rehearsal()
        self.dirty = True
        self.frames = 0
        self._due: float | None = None  # the deadline the loop sleeps until
        self._game: int | None = None
        self._sync_game()
        self._refresh_last_change()
        self._shown_now = False  # a command's result was shown in this turn of the loop
        self._timer_up(say=False)
        self._held: dict[int, tuple[Action, float]] = {}  # key → (its action, when it repeats next)
        self._pressing: Pressing | None = None  # a touch down on a target that has a held action
        pygame.key.set_repeat()  # off: see the module's docstring
        check = controller.journal.check
        if check is not None and isinstance(self.inputs, WakingQueue):
            check.when_done(
                self.inputs.wake
            )  # the check after start-up: act on its verdict at once

    # --- the Host interface screens use --------------------------------------------------

    @property
    def state(self) -> GameState | None:
        return self.controller.state

    @property
    def ui(self) -> UiState:
        return self._ui

    @property
    def tr(self) -> Translator:
        """The table's language's texts: one translator while the language stays (it keeps
        the texts it has said)."""
        if self._translator is None or self._translator.language != self._ui.language:
            self._translator = Translator(self._ui.language)
        return self._translator

    @property
    def canvas(self) -> Canvas:
        return self._canvas

    def now(self) -> float:
        return self._clock()

    def history(self) -> list[Txn]:
        return self.controller.history()

    @property
    def screens(self) -> Mapping[str, Screen]:
        return SCREENS

    def go(self, screen: str) -> None:
        target = SCREENS.get(screen)
        if target is None or not target.shown(self.state, self._ui):
            return
        shown = self._ui.screen
        self._before(screen)
        if self._ui.screen != shown:
            return  # what was held back, made now, brought up a screen of its own: it asks first
        self._ui.screen = screen
        self._ui.help = False
        target.enter(self)
        self.dirty = True

    def execute(self, command: Command) -> Result | None:
        return self._run(lambda: self.controller.execute(command))

    def preview(self, command: Command) -> Result | None:
        try:
            return self.controller.preview(command)
        except IllegalCommand as error:
            self.refuse(error)
            return None

    def say(self, message: Message) -> None:
        self._ui.error = None
        self._ui.said = [message]
        self._ui.messages_until = self.now() + MESSAGE_SECONDS
        self.dirty = True

    def press(self, press: ButtonPressed) -> Result | None:
        return self._run(lambda: self.controller.press(press))

    def load(self, game: int) -> Result | None:
        return self._run(lambda: self.controller.load(game))

    @property
    def game(self) -> int | None:
        return self.controller.game

    def games(self) -> dict[int, GameStarted]:
        journal = self.controller.journal
        found: dict[int, GameStarted] = {}
        for info in self.controller.games():
            try:
                first = journal.events_at(info.id, 0)
            except GameDamaged:
                continue  # listed as damaged among the saved games; nothing to fill a form from
            found.update((info.id, event) for event in first if isinstance(event, GameStarted))
        return found

    def saved_games(self) -> list[SavedGame]:
        return self.controller.saved_games()

    def saved_count(self) -> int:
        return len(self.controller.games())

    def delete(self, game: int) -> Result | None:
        return self._run(lambda: self.controller.delete(game))

    def clock(self) -> float:
        return self.controller.clock()

    # --- results and refusals -------------------------------------------------------------

    def _before(self, going: str | None) -> None:
        """Before a command or another screen: what a screen holds back is made (or handed to
        the screen ``going`` to) first — the table's pending life change (``Screen.before``)."""
        for scr in SCREENS.values():
            scr.before(self, going)

    def _run(self, work: Callable[[], Result | None]) -> Result | None:
        self.dirty = True
        self._before(None)
        try:
            result = work()
        except IllegalCommand as error:
            self.refuse(error)
            return None
        if result is not None:
            self.show(result)
        if self.event is not None:
            self._with_event(
                self.event.step
            )  # the change reported; a group over may start the next
        return result

    # --- an event across tables ------------------------------------------------------------

    def attach_event(self, session: EventSession) -> None:
        """Take part in events across tables through ``session`` (its link puts the broker's
        messages on this kiosk's queue): the EVENT screen is shown from now on."""
        self.event = session
        self._refresh_event()
        if not session.joined:
            self.go(
                EVENT
            )  # the way in for hands on the buttons alone: SELECT joins the event offered
        elif self.state is None:
            self.go(EVENT)  # no game here (the organiser's gadget, restarted): the event it follows

    def attach_page(self, page: Page) -> None:
        """Serve the event on the players' page ``page`` too: it is handed every change the
        EVENT screen is, and the screen shows where phones open it."""
        self.page = page
        self._refresh_event()

    def join_event(self, name: str) -> None:
        session = self.event
        if session is not None:
            self._with_event(lambda: session.join(name))

    def rule_event(self, pod: int, redraw: bool) -> None:
        self._organise(lambda session: session.rule(pod, redraw))

    def move_group(self, pod: int, group: str, table: str) -> None:
        self._organise(lambda session: session.move(pod, group, table))

    def count_gadget(self, table: str, gadget: str) -> None:
        self._organise(lambda session: session.count(table, gadget))

    def _organise(self, ruling: Callable[[EventSession], Sequence[Result]]) -> None:
        """One of the organiser's rulings on the event (refused with the reason shown)."""
        session = self.event
        if session is None:
            return
        try:
            self._with_event(lambda: ruling(session))
        except IllegalCommand as error:
            self.refuse(error)

    def start_round_clock(self, round: int) -> None:
        self._organise(lambda session: session.start_clock(round))

    def host_event(self, name: str, players: Sequence[str], options: Mapping[str, str]) -> bool:
        session = self.event
        if session is None:
            self.refuse(IllegalCommand("consp.net.no_broker"))
            return False
        try:
            self._with_event(lambda: session.host(name, players, (), options))
        except IllegalCommand as error:
            self.refuse(error)
            return False
        return True

    def _with_event(self, work: Callable[[], Sequence[Result]]) -> None:
        """What the event made of news from the broker or of a change (``work``): said on the
        status line together; a game it started or resumed (this table's next group) is shown on
        its screen."""
        game = self.controller.game
        results = work()
        if results:
            merged = Result(
                [m for r in results for m in r.messages],
                self.controller.state,
                [e for r in results for e in r.events],
            )
            self.show(merged)
            self._refresh_event()
            if self.controller.game != game:
                self.go(CONSPIRACY)
            elif any(m.key == "consp.net.finished" for m in merged.messages):
                self.go(EVENT)  # the final ranks
            return
        self._refresh_event()

    def _refresh_event(self) -> None:
        if self.event is not None:
            page = self.page
            info = EventInfo.of(self.event, page=page.url if page is not None else "")
            if page is not None and info != self._ui.kept(
                EventInfo
            ):  # a life change is no news to phones
                from display.phone import snapshots

                page.show(snapshots(info, self._wall()))
            self._ui.put(info)
            self.dirty = True

    def refuse(self, error: IllegalCommand) -> None:
        """A refused command: its reason, in the table's language, on the status line."""
        self._ui.error = Line(
            Message(error.key, **error.params), self.now() + ERROR_SECONDS, error.key
        )
        self.dirty = True

    def announce(self, *messages: Message) -> None:
        """What the table must know before it plays on (the saved games were recovered from
        damage, a part of the configuration left out): on the status line until the next change
        replaces it."""
        self._ui.said = list(messages)
        self._ui.messages_until = None
        self.dirty = True

    def show(self, result: Result) -> None:
        self._shown_now = True
        self._ui.error = None
        self._ui.card = None  # what the command did is the news now
        self._ui.said = list(result.messages)
        self._ui.messages_until = self.now() + MESSAGE_SECONDS
        self._sync_game()
        self._refresh_last_change()
        self._follow(result.events)
        for scr in SCREENS.values():
            scr.after(self, result)
        self._play(cues(result.events))
        self.dirty = True

    def _timer_up(self, say: bool = True) -> None:
        """The turn timer has run out: the status line says so and the buzzer sounds, once a turn
        (the turn goes on until the table passes it).  Without ``say`` (at start-up) a timer that
        ran out before is only noted, so a restart does not sound it again."""
        state = self.state
        left = render_module.turn_left(state, self._wall())
        if state is None or state.clock is None or left is None or left > 0:
            return
        called = (self.controller.game, state.turn)
        if self._ui.timer_called == called:
            return
        self._ui.timer_called = called
        if not say:
            return
        up = Message("ui.clock.timer_up", name=turn_name(state), time=clock_time(state.clock.timer))
        # Beside what a command just said (an UNDO that brought the time back), else on its own.
        self._ui.said = [*self._ui.said, up] if self._shown_now else [up]
        self._ui.messages_until = self.now() + MESSAGE_SECONDS
        self._play([Cue.TIME_UP])
        self.dirty = True

    def _play(self, found: Sequence[Cue]) -> None:
        if self.feedback is None:
            return
        for cue in found:
            try:
                self.feedback.play(cue)
            except Exception as error:  # a dead buzzer is no reason to stop the game
                if not self._feedback_failed:
                    log.warning(
                        "feedback: cannot play %r (%s); the game goes on without it",
                        cue.value,
                        error,
                    )
                self._feedback_failed = True

    def _follow(self, events: Sequence[Event]) -> None:
        if not events or self._ui.screen == "setup" and self.state is None:
            return
        for name, scr in SCREENS.items():
            if name != self._ui.screen and scr.shown(self.state, self._ui) and scr.follows(events):
                self.go(name)
                return

    def _sync_game(self) -> None:
        game = self.controller.game
        if game != self._game:
            self._game = game
            self._ui.cursor = None
            self._ui.drop(
                PendingLife
            )  # a change shown for the game before is no change to this one

    def _open_status(self) -> None:
        """Show the status line's texts whole, over the screen (a tap on the status line)."""
        ui = self._ui
        status = render_module.status_now(self._canvas, ui, self.tr, self.now())
        reader = ui.words(ui.reader.text) if ui.reader is not None else ""
        ui.status_open = tuple(text for text in (status.text, reader) if text)

    def _refresh_last_change(self) -> None:
        last = self.controller.last_change()
        self._ui.last_change = last.messages() if last is not None else []
        self._ui.last_change_at = last.at if last is not None else None

    # --- inputs ---------------------------------------------------------------------------

    def dispatch(self, action: Action) -> None:
        """What an action does: the help overlay, then the screen, then the common meaning."""
        ui = self._ui
        self.dirty = True
        ui.status_floor = 0  # an input may move a steady screen's chips (a message gone makes room)
        if isinstance(action, ToggleHelp):
            ui.help = not ui.help
            ui.help_page = 0
            return
        if isinstance(action, Quit):
            ui.quit = True
            return
        if (ui.menu or ui.status_open) and self._closed_over(action):
            return
        if isinstance(action, Tap) and action.kind == "bar.more":
            ui.menu = True
            return
        if isinstance(action, Tap) and action.kind == "status":
            self._open_status()
            return
        if ui.help and self._help_took(action):
            return
        if isinstance(action, Tap) and action.kind == "enrol":
            self.open_enrol(str(action.value))
            return
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            offer = render_module.status_now(self._canvas, ui, self.tr, self.now()).offer
            if (
                offer is not None
            ):  # the status line offers something (an unknown tag): SELECT takes it up
                self.dispatch(offer)
                return
        if isinstance(action, Press) and action.long and self._showing_held(action.button):
            return
        current = SCREENS.get(ui.screen)
        if (
            current is not None
            and current.shown(self.state, self._ui)
            and current.act(self, action)
        ):
            return
        self._act_common(action)

    def _showing_held(self, button: Button) -> bool:
        """A long press of a screen's ``held`` button shows that screen, or on it goes back to
        the table (ROLL held: the dice).  True when the press was spent on that."""
        for name, scr in SCREENS.items():
            if scr.held is button and scr.shown(self.state, self._ui):
                self.go("table" if self._ui.screen == name else name)
                return True
        return False

    def _closed_over(self, action: Action) -> bool:
        """The bar's menu and the status texts shown whole close at a tap (which does nothing
        else, unless it was on one of the menu's buttons) or at any other input, which then goes
        on.  True when ``action`` was spent on them."""
        self._ui.menu, self._ui.status_open = False, ()
        if isinstance(action, Tap) and action.kind == "bar.menu":
            self.dispatch(action.value)
            return True
        closing = ("bar.menu.close", "bar.more", "status.close")
        return isinstance(action, Tap) and action.kind in closing or isinstance(action, Back)

    def _help_took(self, action: Action) -> bool:
        """The keys over the screen: ←/→ or the encoder turn their pages, a tap on them shows the
        next page (and closes the last); anything else closes them and goes on, except BACK,
        which only closes them.  True when ``action`` was spent on them."""
        ui = self._ui
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
        if isinstance(action, Tap) and action.kind == "help.page":
            ui.help_page += 1
            if ui.help_page >= ui.help_pages:
                ui.help, ui.help_page = False, 0
            return True
        ui.help = False
        return isinstance(action, Back)

    def _act_common(self, action: Action) -> None:
        """What an action means on every screen, once the screen shown has passed it by."""
        if isinstance(action, Press):
            if (
                action.button is Button.SELECT
                and action.long
                or action.button is Button.NEXT
                and self.state is None
            ):
                # With no game at all, NEXT has nothing to advance: it opens the set-up instead.
                self.go("setup")
            else:
                # SELECT means something to the game only when a module binds it (a
                # phenomenon is acknowledged); otherwise the controller ignores it.
                self.press(action)
        elif isinstance(action, Redo):
            self._run(self.controller.redo)
        elif isinstance(action, Go):
            self.go(action.screen)
        elif isinstance(action, Back):
            self.go("table")

    def handle_input(self, event: InputEvent) -> None:
        """A driver's input event (GPIO button, encoder, reader), on the loop's thread."""
        if isinstance(event, ButtonPressed):
            # The kiosk's one filter for repeats: a held button's auto-repeats stop here, where
            # the drivers' events come in, so no screen and no command ever sees one (ROLL, NEXT
            # and UNDO act once per press; the kiosk repeats only cursor moves, itself).  The
            # press itself goes on as it came, to the screen and then the controller.
            if event.repeat:
                return
            self.dispatch(event)
        elif isinstance(event, EncoderTurned):
            self.dispatch(Turn(event.steps))
        elif isinstance(event, TagRead):
            self._tag(event.uid)
        elif isinstance(event, BrokerMessage | BrokerStatus):
            if (
                isinstance(event, BrokerStatus)
                and event.connected
                and self._ui.error is not None
                and self._ui.error.key.startswith("consp.net.ca_")
            ):
                self._ui.error = None  # the broker was trusted after all
                self.dirty = True
            session = self.event
            if session is not None:
                self._with_event(lambda: session.handle(event))
        elif isinstance(event, BrokerTrouble):
            # Until something else is said: the link says it again at each try it makes.
            self._ui.error = Line(
                Message(event.key, broker=event.broker, ca=event.ca, reason=event.reason),
                None,
                event.key,
            )
            self.dirty = True
        elif isinstance(event, ReaderStatus):
            if event.connected:
                self._ui.reader = Line(
                    Message("ui.reader.connected", port=event.port),
                    self.now() + CARD_SECONDS,
                    "connected",
                )
            else:
                self._ui.reader = Line(Message("ui.reader.disconnected"), None, "disconnected")
            self.dirty = True

    def _tag(self, uid: str) -> None:
        """A tag on the reader: the card it is acts at once, and the status line says what it
        did; a tag nobody has enrolled is offered for enrolling on the spot."""
        self.dirty = True
        tags = self.controller.tags
        if tags is None:
            self._run(lambda: self.controller.tag(uid))
            return
        card = tags.lookup(uid)
        if card is not None:
            self.tapped(card)
            return
        form = self._ui.kept(EnrolForm)
        if self._ui.screen == ENROL and form is not None:
            self._ui.put(replace(form, uid=uid))  # enrolling already: this is the tag meant now
            return
        self._ui.card = Line(
            Message("ui.reader.unknown", uid=format_uid(uid)),
            self.now() + ENROL_SECONDS,
            "unknown",
            offer=Tap("enrol", uid),
            offer_label=Message("ui.enrol.offer"),
        )

    def tapped(self, card: Card, before: Sequence[Message] = ()) -> None:
        """A card tapped on the reader (or just enrolled): what it means in the game now.  The
        command's own messages are the status; the card's name shows only when it did nothing
        else.  ``before``: messages to show ahead of the command's."""
        result: Result | None = None
        if (
            self.state is not None or not before
        ):  # with no game, a card just enrolled is only enrolled
            result = self._run(lambda: self.controller.identify(card))
        if before:
            self._ui.said = [*before, *(self._ui.said if result is not None else [])]
            self._ui.messages_until = self.now() + MESSAGE_SECONDS
        elif result is not None and not result.messages:
            self._ui.card = Line(
                Message("ui.reader.card", name=card.name), self.now() + CARD_SECONDS, "card"
            )

    def calibrate(self, calibration: Calibration) -> None:
        """Take touches through ``calibration`` from now on, and keep it in ``calibration_dir``
        for the next start (said when it cannot be)."""
        self.calibration = calibration
        if self.calibration_dir is None:
            self.say(Message("ui.touch.done"))
            return
        try:
            path = save_calibration(self.calibration_dir, calibration)
        except OSError as error:
            log.warning(
                "touch: the calibration cannot be kept in %s (%s)", self.calibration_dir, error
            )
            self.say(Message("ui.touch.not_kept", reason=error.strerror or str(error)))
            return
        log.info("touch: calibrated, kept in %s: %s", path, calibration)
        self.say(Message("ui.touch.done"))

    def open_enrol(self, uid: str) -> None:
        """The enrol screen for tag ``uid``, coming back to the screen shown now."""
        self._ui.card = None  # the offer is taken up
        form = self._ui.kept(EnrolForm)
        back = form.back if self._ui.screen == ENROL and form is not None else self._ui.screen
        self._ui.put(EnrolForm(uid=uid, back=back))
        self.go(ENROL)

    def enrol(self, uid: str, card: Card) -> bool:
        """Write tag ``uid`` as ``card`` into the tag map (as ``aetherbox enroll`` does: at
        once, atomically), then act on the tap as if the card had been known."""
        tags = self.controller.tags
        if tags is None:
            return False
        try:
            card = tags.add(uid, card)
        except OSError as error:
            reason = error.strerror or str(error)
            self._ui.error = Line(
                Message("ui.enrol.failed", path=str(tags.path), reason=reason),
                self.now() + ERROR_SECONDS,
                "enrol.failed",
            )
            self.dirty = True
            return False
        log.info("reader: tag %s enrolled as %s in %s", format_uid(uid), card.name, tags.path)
        self.tapped(card, before=[Message("ui.enrol.done", uid=format_uid(uid), name=card.name)])
        self.dirty = True
        return True

    def handle_pygame(self, event: Any) -> None:
        kind = event.type
        if kind == pygame.QUIT:
            self._ui.quit = True
        elif kind == pygame.KEYDOWN:
            self._key(event)
        elif kind == pygame.KEYUP:
            self._held.pop(event.key, None)
        elif kind == pygame.WINDOWFOCUSLOST:
            self._held.clear()  # a release that happens elsewhere is never seen here
            self._pressing = None
        elif kind == pygame.TEXTINPUT:
            current = SCREENS.get(self._ui.screen)
            if current is not None and current.wants_text(self._ui):
                self.dispatch(Type(event.text))
        elif kind in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.FINGERDOWN,
            pygame.FINGERUP,
        ):
            self._touch_event(event)
        elif kind in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.target.resize(self.target.surface.get_size())
            self.retarget(self.target)
        elif kind in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self._canvas.forget()  # what the window shows may be lost: the next frame draws it all
            self.dirty = True

    def _touch_event(self, event: Any) -> None:
        """A finger or the mouse's left button, down or up.  SDL also synthesises a mouse event
        for each finger: it is skipped, the finger's own event has it."""
        kind = event.type
        if kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if event.button != 1 or getattr(event, "touch", False):
                return
            if kind == pygame.MOUSEBUTTONDOWN:
                self._pointed(self._pointer.device_mouse(event.pos))
            else:
                self.release()
        elif kind == pygame.FINGERDOWN:
            self._pointed((event.x, event.y), (event.touch_id, event.finger_id))
        else:
            self.release((event.touch_id, event.finger_id))

    def _pointed(self, device: tuple[float, float], finger: Hashable = MOUSE) -> None:
        """A finger or the mouse went down at ``device`` (the device's own frame): a touch where
        it lands on the canvas, or, for a screen that asks (calibrating), the raw point."""
        current = SCREENS.get(self._ui.screen)
        if current is not None and current.wants_raw_touch(self._ui):
            self.dispatch(Touched(device, self.target.panel.rotate))
            return
        self.touch(self._pointer.canvas_pixel(device), finger)

    @property
    def _pointer(self) -> PointerMap:
        return PointerMap(
            self.target.panel, (self._canvas.width, self._canvas.height), self.calibration
        )

    def _key(self, event: Any) -> None:
        mods = event.mod
        if event.key == pygame.K_q and mods & pygame.KMOD_CTRL:
            self.dispatch(Quit())
            return
        current = SCREENS.get(self._ui.screen)
        typing = current is not None and current.wants_text(self._ui)
        if typing and event.key == pygame.K_BACKSPACE:
            self.dispatch(Erase())
            return
        if typing and event.key not in _TYPING_KEYS:
            return  # letters arrive as TEXTINPUT
        if mods & pygame.KMOD_SHIFT and event.key in _HELD:
            self.dispatch(Press(_HELD[event.key], long=True))
            return
        action = KEYS.get(event.key)
        if action is None:
            name = pygame.key.name(event.key)
            for screen_name, scr in SCREENS.items():
                if scr.key and scr.key == name:
                    action = Go(screen_name)
                    break
        if action is not None:
            if isinstance(action, REPEATS):
                self._held[event.key] = (action, self.now() + REPEAT_DELAY)
            self.dispatch(action)

    def _repeat(self) -> bool:
        """Repeat the held cursor and value keys that are due, once each however late the loop is."""
        now = self.now()
        fired = False
        for key, (action, due) in list(self._held.items()):
            if key in self._held and now >= due:
                self._held[key] = (action, now + REPEAT_INTERVAL)
                self.dispatch(action)
                fired = True
        return fired

    def retarget(self, target: Target) -> None:
        """Draw on another target from now on (a screen swapped, a window resized)."""
        self.target = target
        self._canvas = self._make_canvas()
        self.rehearsal = Rehearsal()
        self.dirty = True

    def touch(self, pos: tuple[int, int], finger: Hashable = MOUSE) -> None:
        """A touch (or a click) at ``pos``: its target's action at once; if the target has one for
        a held touch, that too once ``finger`` has stayed down ``TOUCH_HOLD`` seconds."""
        target = self._canvas.touched(pos)
        if target is None:
            return
        self._pressing = None
        if target.held is not None:
            self._pressing = Pressing(finger, target.held, self.now() + TOUCH_HOLD, self._ui.screen)
        self.dispatch(target.action)  # type: ignore[arg-type]

    def release(self, finger: Hashable = MOUSE) -> None:
        """``finger`` came up: a touch let go before the hold time is only a touch."""
        if self._pressing is not None and self._pressing.finger == finger:
            self._pressing = None

    def _hold(self) -> None:
        """A touch still down at its hold time: the held action, once, on the screen it touched."""
        pressing = self._pressing
        if pressing is None or self.now() < pressing.due:
            return
        self._pressing = None
        if self._ui.screen == pressing.screen:
            self.dispatch(pressing.action)  # type: ignore[arg-type]

    # --- the loop -------------------------------------------------------------------------

    def _make_canvas(self) -> Canvas:
        surface = self.target.surface
        return Canvas(
            surface, self.fonts, choose(*surface.get_size(), density=self.target.panel.density)
        )

    def deadline(self) -> float | None:
        now = self.now()
        found = list(self._ui.deadlines())
        current = SCREENS.get(self._ui.screen)
        if current is not None and current.shown(self.state, self._ui):
            view = View(
                self.state,
                self._ui,
                self._canvas,
                self.tr,
                now,
                self._wall(),
                0,
                self._canvas.height,
                SCREENS,
            )
            own = current.deadline(view)
            if own is not None:
                found.append(own)
        clock = render_module.clock_deadline(self.state, now, self._wall())
        if clock is not None:
            found.append(clock)
        page = render_module.status_deadline(self._ui, now)
        if page is not None:
            found.append(page)
        announced = self.event.deadline() if self.event is not None else None
        if announced is not None and self.event is not None:
            # The session counts on its own monotonic clock: what is left of it, from now on ours.
            found.append(now + max(0.0, announced - self.event.monotonic()))
        if self.watchdog is not None:
            found.append(now + self.watchdog.timeout(now))
        found += [due for _, due in self._held.values()]
        if self._pressing is not None:
            found.append(self._pressing.due)
        return min(found) if found else None

    def _timeouts(self) -> None:
        self._repeat()
        self._hold()
        session = self.event
        due = session.deadline() if session is not None else None
        if session is not None and due is not None and due <= session.monotonic():
            self._with_event(session.announce)  # the organiser's announcements that are due
        now = self.now()
        if self._ui.expire(now):
            self.dirty = True
        current = SCREENS.get(self._ui.screen)
        if current is not None and current.tick(self):
            self.dirty = True
        if render_module.countdown(self.state, self._wall()) is not None:
            self.dirty = True
        if self._ui.status_pages > 1:
            self.dirty = True  # the status line turns a page

    def drain(self, budget: float = DRAIN_SECONDS) -> None:
        """Handle the inputs queued, for at most ``budget`` seconds of work: what is left (a
        broker's backlog of thousands of messages) waits for the loop's next turn, after the
        watchdog was fed, the keys looked at and the frame drawn."""
        stop = time.monotonic() + budget
        while True:
            try:
                event = self.inputs.get_nowait()
            except queue.Empty:
                return
            self.handle_input(event)
            if time.monotonic() >= stop:
                return

    def step(self, block: bool = True) -> bool:
        """One turn of the loop: sleep until an event or a deadline, handle everything
        pending, redraw if anything changed.  Returns False once the kiosk should quit."""
        due = self._due
        first: list[Any] = []
        try:
            if block and not self.dirty and not pygame.event.peek() and self.inputs.empty():
                if self.idle():
                    due = None  # draw it first
                else:
                    first = self._sleep(due)
            events = [*first, *pygame.event.get()]
        except pygame.error as error:
            if self.reopen is None:
                raise
            self._screen_lost(error)
            events = []
        if self.watchdog is not None:
            self.watchdog.tick(self.now())
        for event in events:
            if event.type != pygame.NOEVENT and event.type != WAKE:
                self.handle_pygame(event)
        self.drain()
        if due is not None and self.now() >= due:
            self._timeouts()
        self._timer_up()  # at the countdown's last deadline, or after what the loop just did
        self._shown_now = False
        if self.dirty:
            self.redraw()
        self._due = self.deadline()
        if self._ui.quit:
            self._before(None)  # a change a screen holds back is made before the kiosk stops
        return not self._ui.quit

    def idle(self) -> bool:
        """What the loop does when the frame is up and nothing waits, before it sleeps: act on the
        journal check's verdict, take a backup that was put off, and lay out what the next
        planeswalk will show (once for each plane).  True when the check found damage and the
        game was recovered: the loop draws that before it sleeps."""
        found = self.controller.idle()
        if found is not None:
            self.announce(found.message())
            self._sync_game()
            self._refresh_last_change()
            return True
        self.rehearsal.run(
            self._canvas, self.controller, self._ui, self.tr, now=self.now(), wall=self._wall()
        )
        return False

    def _sleep(self, due: float | None) -> list[Any]:
        """Sleep until an input, SDL's events (see ``SDL_SLEEPS``) or ``due``; returns the SDL
        event that woke it, if one did."""
        timeout = None if due is None else max(0.0, due - self.now())
        driver = video_driver()
        if driver in SDL_SLEEPS or not isinstance(self.inputs, WakingQueue):
            wait = sdl_wait()
            if wait is not None:
                wait(timeout)  # the event stays queued for pygame.event.get()
                return []
            # pygame.event.wait(0) waits without a time limit.
            first = pygame.event.wait(0 if timeout is None else max(1, int(timeout * 1000) + 1))
            return [] if first.type == pygame.NOEVENT else [first]
        if driver not in SDL_NO_INPUT and not self.input_watched:
            timeout = SDL_POLL if timeout is None else min(timeout, SDL_POLL)
        self.inputs.wait(timeout)
        return []

    def redraw(self) -> None:
        now = self.now()
        self._ui.expire(now)
        current = SCREENS.get(self._ui.screen)
        if current is not None and not current.shown(self.state, self._ui):
            self._ui.screen = "table"
        render_module.render(
            self._canvas, self.state, self._ui, self.tr, now=now, wall=self._wall()
        )
        if self._ui.status_pages > 1:  # a long status text stays until its last page has been shown
            text, since = self._ui.status_seen
            self._ui.keep(text, since + self._ui.status_pages * render_module.STATUS_PAGE_SECONDS)
        self.dirty = False
        self._due = self.deadline()
        try:
            shown = self.target.present()
        except pygame.error as error:
            if self.reopen is None:
                raise
            self._screen_lost(error)
            return
        if shown:
            self.frames += 1
            if self.on_present is not None:
                self.on_present(time.perf_counter())

    def _screen_lost(self, error: BaseException) -> None:
        assert self.reopen is not None
        self.screen_losses += 1
        try:
            self.target.close()
        except pygame.error:
            pass  # half gone already; the new target starts SDL's video afresh
        self.retarget(self.reopen(error))
        self.drop_blind_inputs()

    def drop_blind_inputs(self) -> int:
        """Forget the presses, turns and taps made while there was no screen (nobody saw what
        they would do); the reader's status still counts.  Returns how many were dropped."""
        dropped = 0
        while True:
            try:
                event = self.inputs.get_nowait()
            except queue.Empty:
                break
            if isinstance(event, ReaderStatus | BrokerMessage | BrokerStatus | BrokerTrouble):
                self.handle_input(event)  # news, not a press: the event goes on without a screen
                if self.watchdog is not None:
                    # A broker's backlog of thousands, met by a screen back after a long wait:
                    # handled in one go here, so the watchdog is fed as it goes.
                    self.watchdog.tick(self.now())
            elif not isinstance(event, TagRemoved):
                dropped += 1
        self._pressing = None
        if dropped:
            log.warning(
                "display: %d press%s made while there was no screen dropped",
                dropped,
                "es" if dropped != 1 else "",
            )
        self.dirty = True
        return dropped

    def stop(self) -> None:
        """Quit at the next turn of the loop (SIGTERM from the service manager, say)."""
        self._ui.quit = True
        if isinstance(self.inputs, WakingQueue):
            self.inputs.wake()

    def run(self) -> int:
        """Run until quit (window closed, Ctrl+Q)."""
        self.redraw()
        while self.step():
            pass
        return 0

    def settle(self, limit: int = 100) -> None:
        """Handle everything pending without sleeping (tests, scripts)."""
        for _ in range(limit):
            pending = pygame.event.peek() or not self.inputs.empty() or self.dirty
            if not pending:
                return
            self.step(block=False)
