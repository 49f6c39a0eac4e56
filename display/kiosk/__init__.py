"""The kiosk's loop: sleep on input, act, redraw only what changed.

One thread owns the game and pygame: this loop.  It sleeps until the nearest deadline (a message
expiring, an animation frame, the game clock, a held key or touch) or forever, and wakes for
nothing else: on a desktop in SDL's own wait (:mod:`display.sdl`; pygame's ``event.wait`` wakes
every millisecond), elsewhere on the input queue (:mod:`display.kiosk.waking`), which on the
Pi's console the kernel's input devices wake too (:mod:`drivers.input_devices`).  A frame is
drawn only when the game state or the UI state changed.

If SDL reports the screen gone while the loop waits on it or presents a frame (a ``pygame.error``
from its event queue or ``flip``), the loop closes the target and, given ``reopen`` (the app's
:class:`display.targets.ScreenKeeper`), waits for it to come back; the game is untouched, and
presses made while the screen was dark are dropped, not played blind.

The rest of the kiosk is in the modules beside this one, each a part the loop holds:

- :mod:`~display.kiosk.inputs`: keys, text and the window's events, and the drivers' input
  events, as actions (and the keys that repeat);
- :mod:`~display.kiosk.touches`: touches and clicks on the canvas's targets, touches held;
- :mod:`~display.kiosk.actions`: what an action does;
- :mod:`~display.kiosk.results`: what a command did, said and played; refusals, announcements;
- :mod:`~display.kiosk.enrolment`: tags on the reader, and enrolling an unknown one;
- :mod:`~display.kiosk.events`: the event across tables and the players' page.
"""

from __future__ import annotations

import functools
import logging
import queue
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

import pygame

from device.catalog import Card
from device.commands import Command
from device.controller import Controller, Result
from device.errors import GameDamaged, IllegalCommand
from device.events import GameStarted
from device.games import SavedGame
from device.inputs import (
    BrokerMessage,
    BrokerStatus,
    BrokerTrouble,
    ButtonPressed,
    InputEvent,
    ReaderStatus,
    TagRemoved,
)
from device.journal import Txn
from device.notify import Watchdog
from device.state import GameState
from device.text import Message
from display import render as render_module
from display.canvas import Canvas
from display.clocks import clock_deadline, countdown
from display.fonts import Fonts
from display.i18n import Translator
from display.kiosk.actions import Actions
from display.kiosk.enrolment import Enrolment
from display.kiosk.events import Events
from display.kiosk.inputs import Inputs
from display.kiosk.results import Results
from display.kiosk.touches import MOUSE, Touches
from display.kiosk.waking import SDL_NO_INPUT, SDL_POLL, SDL_SLEEPS, WAKE, WakingQueue
from display.layout import choose
from display.rehearsal import Rehearsal
from display.screens import Screen, View
from display.screens.lineup import SCREENS
from display.sdl import sdl_wait, video_driver
from display.status import STATUS_PAGE_SECONDS, status_deadline
from display.targets import Target
from display.touch import Calibration
from display.ui import Action, UiState
from drivers.feedback import Feedback

if TYPE_CHECKING:  # an event across tables is loaded only when the configuration names one
    from device.event_link import EventSession
    from display.phone import Page

log = logging.getLogger(__name__)

#: The longest the loop handles queued inputs at a time before it turns (see ``Kiosk.drain``).
DRAIN_SECONDS = 0.05


P = ParamSpec("P")
R = TypeVar("R")


def plays(method: Callable[Concatenate[Kiosk, P], R]) -> Callable[Concatenate[Kiosk, P], R]:
    """The kiosk's work is done with its controller's rules in play (``device.rules.registry``):
    what a screen asks of the game (a format by name, how it ends) is asked of the rules the
    table plays, wherever the kiosk was built."""

    @functools.wraps(method)
    def playing(kiosk: Kiosk, *args: P.args, **kwargs: P.kwargs) -> R:
        with kiosk.controller.rules.playing():
            return method(kiosk, *args, **kwargs)

    return playing


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
        self._ui = UiState(language=language, fps=self.fps)
        self._canvas = self._make_canvas()
        self.rehearsal = Rehearsal()
        self.dirty = True
        self.frames = 0
        self._due: float | None = None  # the deadline the loop sleeps until
        self.results = Results(self)
        self.events = Events(self)
        self.enrolment = Enrolment(self)
        self.actions = Actions(self)
        self.translation = Inputs(self)
        self.touches = Touches(self)
        with controller.rules.playing():
            self.results.sync_game()
            self.results.refresh_last_change()
            self.results.timer_up(say=False)
        pygame.key.set_repeat()  # off: the kiosk repeats keys itself (display.kiosk.inputs)
        check = controller.journal.check
        if check is not None and isinstance(self.inputs, WakingQueue):
            # The check after start-up: act on its verdict at once.
            check.when_done(self.inputs.wake)

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

    @property
    def screens(self) -> Mapping[str, Screen]:
        return SCREENS

    @property
    def game(self) -> int | None:
        return self.controller.game

    def now(self) -> float:
        return self._clock()

    def wall(self) -> float:
        """The time the game's durations are counted at (see the class's docstring)."""
        return self._wall()

    def clock(self) -> float:
        return self.controller.clock()

    def history(self) -> list[Txn]:
        return self.controller.history()

    def go(self, screen: str) -> None:
        target = SCREENS.get(screen)
        if target is None or not target.shown(self.state, self._ui):
            return
        shown = self._ui.screen
        self.results.before(screen)
        if self._ui.screen != shown:
            return  # what was held back, made now, brought up a screen of its own: it asks first
        self._ui.screen = screen
        self._ui.help = False
        target.enter(self)
        self.dirty = True

    def execute(self, command: Command) -> Result | None:
        return self.results.run(lambda: self.controller.execute(command))

    def preview(self, command: Command) -> Result | None:
        try:
            return self.controller.preview(command)
        except IllegalCommand as error:
            self.refuse(error)
            return None

    def press(self, press: ButtonPressed) -> Result | None:
        return self.results.run(lambda: self.controller.press(press))

    def load(self, game: int) -> Result | None:
        return self.results.run(lambda: self.controller.load(game))

    def delete(self, game: int) -> Result | None:
        return self.results.run(lambda: self.controller.delete(game))

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

    def say(self, message: Message) -> None:
        self.results.say(message)

    def refuse(self, error: IllegalCommand) -> None:
        self.results.refuse(error)

    def announce(self, *messages: Message) -> None:
        self.results.announce(*messages)

    def show(self, result: Result) -> None:
        self.results.show(result)

    def calibrate(self, calibration: Calibration) -> None:
        self.touches.calibrate(calibration)

    def enrol(self, uid: str, card: Card) -> bool:
        return self.enrolment.enrol(uid, card)

    # --- an event across tables (display.kiosk.events) --------------------------------------

    @property
    def event(self) -> EventSession | None:
        """This gadget at an event across tables (its link to the broker), once one is attached."""
        return self.events.session

    @property
    def page(self) -> Page | None:
        """The players' page this gadget serves (``[event] page_port``), once one is attached."""
        return self.events.page

    def attach_event(self, session: EventSession) -> None:
        self.events.attach(session)

    def attach_page(self, page: Page) -> None:
        self.events.attach_page(page)

    def join_event(self, name: str) -> None:
        self.events.join(name)

    def host_event(self, name: str, players: Sequence[str], options: Mapping[str, str]) -> bool:
        return self.events.host(name, players, options)

    def rule_event(self, pod: int, redraw: bool) -> None:
        self.events.organise(lambda session: session.rule(pod, redraw))

    def move_group(self, pod: int, group: str, table: str) -> None:
        self.events.organise(lambda session: session.move(pod, group, table))

    def count_gadget(self, table: str, gadget: str) -> None:
        self.events.organise(lambda session: session.count(table, gadget))

    def start_round_clock(self, round: int) -> None:
        self.events.organise(lambda session: session.start_clock(round))

    # --- inputs -----------------------------------------------------------------------------

    @plays
    def dispatch(self, action: Action) -> None:
        self.actions.do(action)

    @plays
    def handle_input(self, event: InputEvent) -> None:
        self.translation.driver(event)

    @plays
    def handle_pygame(self, event: Any) -> None:
        self.translation.window(event)

    @plays
    def touch(self, pos: tuple[int, int], finger: Hashable = MOUSE) -> None:
        self.touches.touch(pos, finger)

    @plays
    def release(self, finger: Hashable = MOUSE) -> None:
        self.touches.release(finger)

    # --- the loop -------------------------------------------------------------------------

    @plays
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
        self.results.timer_up()  # at the countdown's last deadline, or after what the loop just did
        self.results.shown_now = False
        if self.dirty:
            self.redraw()
        self._due = self.deadline()
        if self._ui.quit:
            self.results.before(None)  # a change a screen holds back is made before the kiosk stops
        return not self._ui.quit

    @plays
    def run(self) -> int:
        """Run until quit (window closed, Ctrl+Q)."""
        self.redraw()
        while self.step():
            pass
        return 0

    @plays
    def settle(self, limit: int = 100) -> None:
        """Handle everything pending without sleeping (tests, scripts)."""
        for _ in range(limit):
            pending = pygame.event.peek() or not self.inputs.empty() or self.dirty
            if not pending:
                return
            self.step(block=False)

    def stop(self) -> None:
        """Quit at the next turn of the loop (SIGTERM from the service manager, say)."""
        self._ui.quit = True
        if isinstance(self.inputs, WakingQueue):
            self.inputs.wake()

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

    def idle(self) -> bool:
        """What the loop does when the frame is up and nothing waits, before it sleeps: act on the
        journal check's verdict, take a backup that was put off, and lay out what the next
        planeswalk will show (once for each plane).  True when the check found damage and the
        game was recovered: the loop draws that before it sleeps."""
        found = self.controller.idle()
        if found is not None:
            self.announce(found.message())
            self.results.sync_game()
            self.results.refresh_last_change()
            return True
        self.rehearsal.run(
            self._canvas, self.controller, self._ui, self.tr, now=self.now(), wall=self.wall()
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

    def deadline(self) -> float | None:
        """When the loop next has something to do by itself (a line expiring, an animation's
        frame, the clock's next second, a held key or touch), if ever."""
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
                self.wall(),
                0,
                self._canvas.height,
                SCREENS,
            )
            own = current.deadline(view)
            if own is not None:
                found.append(own)
        for due in (
            clock_deadline(self.state, now, self.wall()),
            status_deadline(self._ui, now),
            self.events.deadline(now),
        ):
            if due is not None:
                found.append(due)
        if self.watchdog is not None:
            found.append(now + self.watchdog.timeout(now))
        found += self.translation.deadlines() + self.touches.deadlines()
        return min(found) if found else None

    def _timeouts(self) -> None:
        self.translation.repeat()
        self.touches.hold()
        self.events.announce()
        if self._ui.expire(self.now()):
            self.dirty = True
        current = SCREENS.get(self._ui.screen)
        if current is not None and current.tick(self):
            self.dirty = True
        if countdown(self.state, self.wall()) is not None:
            self.dirty = True
        if self._ui.status_pages > 1:
            self.dirty = True  # the status line turns a page

    @plays
    def redraw(self) -> None:
        now = self.now()
        ui = self._ui
        ui.expire(now)
        current = SCREENS.get(ui.screen)
        if current is not None and not current.shown(self.state, ui):
            ui.screen = "table"
        drawn = render_module.render(
            self._canvas, self.state, ui, self.tr, now=now, wall=self.wall()
        )
        if drawn is not None:
            ui.laid_out(drawn, now)
        if ui.status_pages > 1:  # a long status text stays until its last page has been shown
            text, since = ui.status_seen
            ui.keep(text, since + ui.status_pages * STATUS_PAGE_SECONDS)
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

    def retarget(self, target: Target) -> None:
        """Draw on another target from now on (a screen swapped, a window resized)."""
        self.target = target
        self._canvas = self._make_canvas()
        self.rehearsal = Rehearsal()
        self.dirty = True

    def _make_canvas(self) -> Canvas:
        surface = self.target.surface
        return Canvas(
            surface, self.fonts, choose(*surface.get_size(), density=self.target.panel.density)
        )

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
        self.touches.forget()
        if dropped:
            log.warning(
                "display: %d press%s made while there was no screen dropped",
                dropped,
                "es" if dropped != 1 else "",
            )
        self.dirty = True
        return dropped
