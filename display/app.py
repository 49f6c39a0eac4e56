"""``aetherbox`` / ``aetherbox kiosk``: the gadget — journal, controller, screen and inputs.

Everything is opened and checked here, at start-up, and said once in the log: the journal,
the display target, the fonts, the GPIO buttons (or the keyboard standing in for them), the
buzzer and LED, the RFID reader when one is configured, and the link to an event's broker when
``[event]`` names one (it connects in the background, again and again while the broker is
away).  Then the kiosk's loop runs until it is closed.

Under systemd (``$NOTIFY_SOCKET`` set: the service) a missing screen is waited for instead of
ending the program, because a restart could not do better and the journal says why only once.
READY goes out once the journal is checked and the screen has had its first try: it does not
wait for a screen that is not there, so systemd's start timeout does not turn an unplugged HDMI
cable into a restart loop; the watchdog is pinged while it waits and STATUS= says what it waits
for.  At a keyboard (no ``$NOTIFY_SOCKET``) no screen is an error that says what to do instead.
"""

from __future__ import annotations

import logging
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from device.config import Config
from device.text import Message

if TYPE_CHECKING:
    from device.controller import Controller
    from device.event_link import EventSession
    from device.journal import Journal
    from device.tagmap import TagMap
    from display.kiosk import Kiosk
    from display.kiosk.waking import WakingQueue
    from display.targets import ScreenKeeper, Target
    from drivers.feedback import Feedback
    from drivers.gpio import ButtonSource, GpioConfig

log = logging.getLogger(__name__)


class KioskOptions(Struct, frozen=True):
    db: Path | None = None
    seed: int | None = None
    size: tuple[int, int] | None = None
    fullscreen: bool | None = None
    fb: Path | None = None
    rotate: int | None = None  # None: the configuration's
    screenshots: Path | None = None
    language: str | None = None
    reader: str | None = None  # "auto", "fake" or a port; None: only when [reader] names one
    buttons: str | None = None  # "auto", "gpio", "fake"; None: the configuration's
    frames: int | None = None  # stop after this many frames (scripts, smoke tests)
    wait_for_screen: bool | None = (
        None  # None: under systemd ($NOTIFY_SOCKET), see the module's note
    )
    #: What loading the configuration left out and why (``device.config.Loaded.warnings``): the
    #: screen says it too, where the owner who made the typo looks.
    config_warnings: tuple[str | Message, ...] = ()


def _reader_spec(options: KioskOptions, config: Config) -> str | None:
    if options.reader is not None:
        return options.reader
    # A reader counts as configured when [reader] says where or what it is.
    if config.reader.port is not None or config.reader.protocol != "auto":
        return "fake" if config.reader.protocol == "fake" else "auto"
    return None


def feedback_pins(gpio: GpioConfig, table: dict[str, object]) -> GpioConfig:
    """The buzzer and LED are fitted only when ``[gpio]`` names their pins: a cue driving a pin
    nobody wired (or wired to something else) must not happen by default."""
    return gpio.model_copy(
        update={
            name: getattr(gpio, name) if table.get(name) is not None else None
            for name in ("buzzer", "led")
        }
    )


def open_hands(
    table: dict[str, Any], inputs: WakingQueue, backend: str
) -> tuple[ButtonSource, Feedback, list[Message]]:
    """The GPIO buttons, buzzer and LED as ``[gpio]`` (``table``) says, started, and what to tell
    the table.  Whatever of them fails is said and left out, and the table plays on without it
    (the keys and touch still play): a bad key is left at its default, two settings on one pin
    leave the second at its default or off (``drivers.gpio.one_pin_each``); settings that cannot
    go together, a pin in use or a GPIO library that cannot open the chip leave the buttons off —
    never a kiosk that stops at every start."""
    from device.config import lenient
    from drivers.feedback import FakeFeedback, open_feedback
    from drivers.gpio import FakeButtons, GpioConfig, one_pin_each, open_buttons

    said: list[Message] = []
    # No buzzer or LED unless the file names their pins: their default pins are free for buttons.
    fitted = {"buzzer": None, "led": None, **table}
    gpio, warnings, used = lenient(GpioConfig, fitted, "[gpio]")
    if gpio is None:
        used, moved = one_pin_each(used)
        gpio, more, used = lenient(GpioConfig, used, "[gpio]")
        warnings += [Message("config.problem", where="[gpio]", reason=m) for m in moved]
        if gpio is not None:
            warnings = [
                w
                for w in warnings
                if w.params.get("reason") is None
                or getattr(w.params["reason"], "key", "") != "config.pin.shared"
            ]
        else:
            warnings += [w for w in more if w not in warnings]
    for warning in warnings:
        log.warning("configuration: %s", warning)
    buttons: ButtonSource | None = None
    feedback: Feedback = FakeFeedback()
    if gpio is None:
        said += config_said(tuple(warnings[:-1]))
        said.append(Message("ui.buttons_off", reason=warnings[-1]))
    else:
        said += config_said(tuple(warnings))
        try:
            buttons = open_buttons(gpio, inputs, backend=backend)  # type: ignore[arg-type]
            buttons.start()
        except (
            Exception
        ) as error:  # any GPIO library's error (RuntimeError, lgpio.error, OSError): keys only
            log.warning("buttons: %s; the keys and touch still play", error)
            said.append(Message("ui.buttons_off", reason=str(error)))
            buttons = None
        try:
            feedback = open_feedback(feedback_pins(gpio, used), backend=backend)  # type: ignore[arg-type]
        except Exception as error:  # the same, for the buzzer and LED: the cues are silent
            log.warning("buzzer and LED: %s; the cues are silent", error)
            said.append(Message("ui.cues_off", reason=str(error)))
    if buttons is None:
        buttons = FakeButtons(inputs)
        buttons.start()
    return buttons, feedback, said


#: How many of the configuration's problems the status line shows; the log has them all.
SHOWN_PROBLEMS = 3


def config_said(warnings: tuple[str | Message, ...]) -> list[Message]:
    """The configuration's problems for the status line: the first few, then how many more."""
    said = [Message("ui.config_problem", problem=w) for w in warnings[:SHOWN_PROBLEMS]]
    if len(warnings) > SHOWN_PROBLEMS:
        said.append(Message("ui.config_more", n=len(warnings) - SHOWN_PROBLEMS))
    return said


def tag_map_said(tags: TagMap) -> list[Message]:
    """What the table must know of a tag map that could not be read at all (a FIFO, a device, a
    file larger than any tag map, no permission): the tags it holds are unknown until it is
    fixed.  (Its lines' own problems are the log's: the enrolment screen shows the tags.)"""
    from device.config import NotRegular, TooLarge

    error = tags.unreadable
    if error is None:
        return []
    path = str(tags.path)
    if isinstance(error, NotRegular):
        return [Message("ui.tagmap.not_regular", path=path)]
    if isinstance(error, TooLarge):
        return [Message("ui.tagmap.too_large", path=path, kb=error.kb)]
    return [Message("ui.tagmap.unreadable", path=path, reason=error.strerror or str(error))]


class Stopping:
    """Where a stop request (SIGTERM from the service manager, Ctrl+C) goes, whatever the kiosk is
    doing when it comes: starting (the journal being opened, the first try at the screen) or
    waiting for a screen, it is abandoned at once; once the loop runs, the loop finishes what it
    is doing and ends (a life change the table shows is made first).  ``keeper`` and ``kiosk``
    are set as they are made."""

    def __init__(self) -> None:
        self.keeper: ScreenKeeper | None = None
        self.kiosk: Kiosk | None = None
        self.running = False  # the loop runs: it ends itself
        self.requested = threading.Event()

    def handler(self, number: int, _frame: object) -> None:
        """The signal handler, on the main thread between two of its instructions: before the
        loop runs, end the start-up where it is (:class:`display.targets.Stopped`)."""
        from display.targets import Stopped

        self.requested.set()
        if not self.running:
            raise Stopped(f"stopped by {signal.Signals(number).name}")

    def request(self) -> None:
        """Stop, from the relay thread: end a wait for the screen, end the loop."""
        self.requested.set()
        if self.keeper is not None:
            self.keeper.stop()
        if self.kiosk is not None:
            self.kiosk.stop()


@contextmanager
def stopping_on_signals(stopping: Stopping) -> Iterator[None]:
    """SIGTERM (the service manager) and SIGINT (Ctrl+C) stop the kiosk (:class:`Stopping`),
    wherever it sleeps.  The kernel hands a signal to any of the process's threads, and Python
    runs its handler on the main thread only between two of its instructions — not while the
    loop sleeps in SDL or on its queue (SDL installs no handlers of its own: see
    ``display/__init__.py``).  So the signal's number also goes down a pipe
    (``signal.set_wakeup_fd``) to a thread that stops the loop and wakes it, which works
    whichever thread took the signal; waking is done there, never in the handler, because the
    handler may run while the main thread holds the lock that waking takes."""
    read, write = os.pipe()
    os.set_blocking(write, False)  # set_wakeup_fd's end must not block a handler

    def relay() -> None:
        while os.read(read, 64):
            stopping.request()

    previous = {
        number: signal.signal(number, stopping.handler)
        for number in (signal.SIGTERM, signal.SIGINT)
    }
    old_fd = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    thread = threading.Thread(target=relay, name="signals", daemon=True)
    thread.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(old_fd)
        for number, handler in previous.items():
            signal.signal(number, handler)
        os.close(write)  # the relay reads the end and returns
        thread.join(timeout=5)
        os.close(read)


def _watch_input_devices(inputs: WakingQueue, stack: ExitStack) -> bool:
    """On SDL drivers that read the kernel's input devices only when asked (KMS/DRM on the Pi's
    console), a thread blocking on those devices wakes the loop (:mod:`drivers.input_devices`);
    True when it runs.  Desktops wake the loop through SDL, headless targets have no keys."""
    from display.kiosk.waking import SDL_NO_INPUT, SDL_POLL, SDL_SLEEPS
    from display.sdl import video_driver
    from drivers.input_devices import InputDeviceWatcher, WatchError

    driver = video_driver()
    if driver in SDL_SLEEPS or driver in SDL_NO_INPUT:
        return False
    watcher = InputDeviceWatcher(inputs.wake)
    try:
        watcher.start()
    except WatchError as error:
        watcher.close()
        log.warning(
            "input: cannot watch the input devices (%s); looking for keys and touches every %g s instead",
            error,
            SDL_POLL,
        )
        return False
    stack.callback(watcher.close)
    return True


def _find_touch_screen(kiosk: Kiosk) -> None:
    """On the Pi's console, look for a touch screen among the input devices: the touch bar then
    offers its calibration, and a resistive one that was never calibrated is calibrated first."""
    from display.screens.calibrate import NAME as CALIBRATE
    from drivers.input_devices import touch_screens

    if not kiosk.target.panel.console:
        return
    found = touch_screens()
    if not found:
        return
    kinds = set(found.values())
    kiosk.ui.touch_screen = "resistive" if "resistive" in kinds else "touch"
    log.info("touch: %s", ", ".join(f"{name} ({kind})" for name, kind in found.items()))
    if kiosk.calibration is None and kiosk.ui.touch_screen == "resistive":
        log.info("touch: a resistive touch screen with no calibration kept: calibrating it first")
        kiosk.go(CALIBRATE)


#: The exit status that asks the service manager for a new start (sysexits' EX_TEMPFAIL).
RESTART = 75


def run_kiosk(config: Config, options: KioskOptions) -> int:
    from display.targets import ScreenBarred, Stopped

    stopping = Stopping()
    try:
        with stopping_on_signals(stopping), open_kiosk(config, options, stopping=stopping) as kiosk:
            stopping.running = True
            if stopping.requested.is_set():
                return 0
            if options.frames is not None:
                kiosk.redraw()
                while kiosk.frames < options.frames and kiosk.step():
                    pass
                return 0
            return kiosk.run()
    except Stopped as stopped:
        log.info("kiosk: %s", stopped)
        return 0
    except ScreenBarred as barred:
        log.warning("display: %s", barred)
        return RESTART


def open_event(config: Config, controller: Controller, inputs: WakingQueue) -> EventSession:
    """This gadget at the broker ``[event]`` names, its link putting what arrives on ``inputs``;
    paho-mqtt loads here, only on a gadget configured for events across tables."""
    from device.event_link import EventSession
    from drivers.broker import open_link

    settings = config.event
    assert settings.broker is not None
    ca = settings.ca_file()
    link = open_link(
        inputs,
        settings.broker,
        settings.port,
        settings.table,
        settings.password,
        str(ca) if ca is not None else None,
    )
    log.info(
        "event: broker %s as table %s%s",
        settings.address(),
        settings.table,
        f", in TLS trusting {ca}" if ca is not None else "",
    )
    return EventSession(
        controller, link, settings.table, broker=settings.address(), join=settings.join
    )


def open_page(config: Config, kiosk: Kiosk, stack: ExitStack) -> list[Message]:
    """The players' page on ``[event] page_port`` for phones on the venue's network (aiohttp loads
    here, only when it is configured); what the table must be told if it cannot be served: the
    table plays on without it."""
    from device.translations import LANGUAGES
    from drivers.page import PageError, PageServer, page_url

    port = config.event.page_port
    assert port is not None
    server = PageServer(
        port,
        language=kiosk.ui.language,
        languages=LANGUAGES,
        url=page_url(port, config.event.broker),
    )
    try:
        server.start()
    except PageError as error:
        log.warning("page: port %d: %s; the players' page is off", port, error.strerror or error)
        return [Message("ui.consp.page.off", port=port, reason=error.strerror or str(error))]
    stack.callback(server.stop)
    kiosk.attach_page(server)
    return []


#: Where a journal goes when the data folder cannot take one: memory-backed folders first (a
#: full or read-only card leaves them writable), the system's temporary folder last.
UNSAVED_FOLDERS = (Path("/dev/shm"), None)


def open_games(
    config: Config, options: KioskOptions, stack: ExitStack
) -> tuple[Journal, list[Message]]:
    """The saved games, opened (and recovered from damage) for the kiosk; with what the table
    must be told.  When the data folder cannot hold them (read-only, full, something else in the
    journal's place, written by a newer aetherbox) the table still plays, on a journal in memory,
    and says that nothing is saved and what to do: a kiosk that left would only be started again
    to leave again.  The saved games that can still be read (a card turned read-only) are copied
    into it, so the game resumes where it was.  A file named with ``--db`` is the user's own: its
    problem is reported as before."""
    import shutil
    import tempfile

    from device.errors import JournalError, JournalLocked, JournalTooNew
    from device.journal import JournalInTheWay
    from device.recovery import open_journal

    path = options.db or config.journal_path()
    try:
        journal, recovery = open_journal(path, recover=options.db is None, defer_backups=True)
    except (JournalError, OSError) as error:
        if options.db is not None or isinstance(error, JournalLocked):
            raise  # the user's own file, or another aetherbox playing it
        problem = error.problem if isinstance(error, JournalError) else f"{error.strerror or error}"
        log.error("saved games: %s; games played now are not saved", problem.rstrip("."))
        for parent in UNSAVED_FOLDERS:
            try:
                folder = Path(tempfile.mkdtemp(prefix="aetherbox-unsaved-", dir=parent))
                break
            except OSError:
                continue
        else:
            raise
        stack.callback(shutil.rmtree, folder, ignore_errors=True)
        readable = not isinstance(error, (JournalInTheWay, JournalTooNew))
        journal = stack.enter_context(_unsaved_journal(path, folder, copy=readable))
        if isinstance(error, JournalInTheWay):
            said = Message("ui.journal_in_the_way", path=str(error.where), kind=error.kind)
        elif isinstance(error, JournalTooNew):
            said = Message("ui.journal_newer")
        else:
            said = Message("ui.journal_unsaved", problem=problem.rstrip("."))
        return journal, [said]
    stack.enter_context(journal)
    return journal, [recovery.message()] if recovery is not None else []


def _unsaved_journal(path: Path, folder: Path, *, copy: bool) -> Journal:
    """A journal in ``folder`` for the games played while the saved ones cannot be written: with
    ``copy``, a copy of the saved games at ``path`` (and its write-ahead log, which holds the last
    changes) when they can be read and opened, else empty."""
    import shutil
    import stat

    from device.errors import JournalError
    from device.journal import JOURNAL_NAME, Journal

    target = folder / JOURNAL_NAME
    if copy:
        try:
            if stat.S_ISREG(os.stat(path).st_mode):
                shutil.copyfile(path, target)
                wal = path.with_name(path.name + "-wal")
                if wal.is_file():
                    shutil.copyfile(wal, target.with_name(target.name + "-wal"))
                return Journal(target, backup_every=0, defer_backups=True)
        except (JournalError, OSError) as error:
            log.warning(
                "saved games: they cannot be read either (%s); the table starts with none", error
            )
        for name in (
            target,
            target.with_name(target.name + "-wal"),
            target.with_name(target.name + "-shm"),
        ):
            name.unlink(missing_ok=True)
    return Journal(target, backup_every=0, defer_backups=True)


@contextmanager
def open_kiosk(
    config: Config,
    options: KioskOptions,
    *,
    opener: Callable[[], Target] | None = None,
    sleep: Callable[[float], object] | None = None,
    clock: Callable[[], float] = time.monotonic,
    stopping: Stopping | None = None,
) -> Iterator[Kiosk]:
    """The kiosk with everything opened, READY sent; closed (STOPPING sent) on leaving.

    ``opener`` makes one attempt at the display target (default: the configured one);
    ``sleep`` and ``clock`` time the waits for a missing screen (tests pass fakes; by default
    the wait ends at once on a stop); ``stopping`` is told of the screen's keeper and the kiosk
    as they are made.
    """
    import pygame  # noqa: F401 - fail here, clearly, if pygame is missing

    from device.controller import Controller
    from device.notify import Notifier, Watchdog
    from device.tagmap import TagMap
    from display import cardtext
    from display.fonts import Fonts
    from display.kiosk import Kiosk
    from display.kiosk.waking import WakingQueue
    from display.layout import parse_size
    from display.targets import FB_CHECKS, KMS_CHECKS, ScreenKeeper, barred_screen, open_target
    from display.touch import load as load_calibration

    display = config.display
    size = options.size or (parse_size(display.size) if display.size else None)
    fullscreen = display.fullscreen if options.fullscreen is None else options.fullscreen
    fb = options.fb or display.fb
    rotate = display.rotate if options.rotate is None else options.rotate
    rng = random.Random(options.seed) if options.seed is not None else random.SystemRandom()
    cardtext.configure(config.resolved_data_dir())
    notifier = Notifier.from_environment()
    watchdog = Watchdog.from_environment(notifier)
    wait = options.wait_for_screen
    if wait is None:
        wait = notifier.enabled and options.screenshots is None
    with ExitStack() as stack:
        journal, said = open_games(config, options, stack)
        tags = TagMap(config.tag_map_path())
        said += tag_map_said(tags)
        controller = Controller(journal, rng=rng, config=config, tags=tags)
        attempt = opener or (
            lambda: open_target(
                size=size,
                fullscreen=fullscreen,
                fb=fb,
                screenshots=options.screenshots,
                rotate=rotate,
                diagonal=display.diagonal,
            )
        )
        keeper = ScreenKeeper(
            attempt,
            checks=FB_CHECKS if fb is not None else KMS_CHECKS,
            sleep=sleep,
            clock=clock,
            watchdog=watchdog,
            barred=barred_screen if wait and fb is None and options.screenshots is None else None,
        )
        if stopping is not None:
            stopping.keeper = keeper
            if stopping.requested.is_set():
                keeper.stop()
        inputs = WakingQueue()
        backend = "fake" if options.screenshots else (options.buttons or display.buttons)
        buttons, feedback, notices = open_hands(config.gpio, inputs, backend)
        stack.callback(buttons.close)
        stack.callback(feedback.close)
        spec = _reader_spec(options, config)
        if spec is not None:
            from drivers.rfid import make_reader

            settings = config.reader
            extra = (
                {"presence_timeout": settings.presence_timeout}
                if settings.presence_timeout is not None
                else {}
            )
            reader = make_reader(
                inputs,
                protocol="fake" if spec == "fake" else settings.protocol,
                port=settings.port if spec in ("auto", "fake") else spec,
                **extra,
            )
            reader.start()
            stack.callback(reader.stop)
        stack.callback(notifier.close)
        stack.callback(notifier.stopping)  # first thing on leaving, whatever state it leaves in
        if wait:
            target = keeper.first()
            notifier.ready(
                "kiosk running"
                if target is not None
                else f"waiting for the screen: {keeper.problem}"
            )
            keeper.notifier = notifier  # STATUS= from now on, after READY's own
            if target is None:
                target = keeper.open()
        else:
            target = attempt()
            notifier.ready("kiosk running")
        watched = _watch_input_devices(inputs, stack)
        made: list[Kiosk] = []
        stack.callback(
            lambda: (made[0].target if made else target).close()
        )  # the kiosk may have reopened it
        fonts = Fonts(configured=display.font)
        data_dir = config.resolved_data_dir()
        kiosk = Kiosk(
            controller,
            target,
            language=options.language or config.language,
            inputs=inputs,
            fonts=fonts,
            fps=display.fps,
            watchdog=watchdog,
            feedback=feedback,
            reopen=keeper.reopen if wait else None,
            input_watched=watched,
            calibration=load_calibration(data_dir),
            calibration_dir=data_dir,
        )
        _find_touch_screen(kiosk)
        made.append(kiosk)
        if stopping is not None:
            stopping.kiosk = kiosk
        if config.event.broker is not None:
            kiosk.attach_event(open_event(config, controller, inputs))
            assert kiosk.event is not None
            kiosk.event.start()  # the link's thread connects (again and again while the broker is away)
            stack.callback(kiosk.event.stop)
            if config.event.page_port is not None:
                notices += open_page(config, kiosk, stack)
        notices[:0] = [*said, *config_said(options.config_warnings)]
        if notices:
            kiosk.announce(*notices)  # said on the screen too, not only in the log
        if keeper.waited:
            kiosk.drop_blind_inputs()
        yield kiosk
