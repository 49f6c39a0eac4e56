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
from typing import TYPE_CHECKING

from msgspec import Struct

from device.config import Config
from device.errors import ConfigError

if TYPE_CHECKING:
    from device.controller import Controller
    from device.event_link import EventSession
    from display.kiosk import Kiosk, WakingQueue
    from display.targets import Target
    from drivers.gpio import GpioConfig

log = logging.getLogger(__name__)


class KioskOptions(Struct, frozen=True):
    db: Path | None = None
    seed: int | None = None
    size: tuple[int, int] | None = None
    fullscreen: bool | None = None
    fb: Path | None = None
    screenshots: Path | None = None
    language: str | None = None
    reader: str | None = None  # "auto", "fake" or a port; None: only when [reader] names one
    buttons: str | None = None  # "auto", "gpio", "fake"; None: the configuration's
    frames: int | None = None  # stop after this many frames (scripts, smoke tests)
    wait_for_screen: bool | None = None  # None: under systemd ($NOTIFY_SOCKET), see the module's note


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
    return gpio.model_copy(update={name: getattr(gpio, name) if name in table else None for name in ("buzzer", "led")})


@contextmanager
def stopping_on_signals(kiosk: Kiosk) -> Iterator[None]:
    """SIGTERM (the service manager) and SIGINT (Ctrl+C) end the kiosk cleanly, wherever its loop
    sleeps.  The kernel hands a signal to any of the process's threads, and Python runs its
    handler on the main thread only between two of its instructions — not while the loop sleeps
    in SDL or on its queue — and SDL's own handlers only note the signal for SDL's next look at
    its events.  So the signal's number also goes down a pipe (``signal.set_wakeup_fd``) to a
    thread that stops the loop and wakes it, which works whichever thread took the signal."""
    read, write = os.pipe()
    os.set_blocking(write, False)  # set_wakeup_fd's end must not block a handler

    def relay() -> None:
        while os.read(read, 64):
            kiosk.stop()

    previous = {number: signal.signal(number, lambda *_: kiosk.stop()) for number in (signal.SIGTERM, signal.SIGINT)}
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
    from display.kiosk import SDL_NO_INPUT, SDL_POLL, SDL_SLEEPS
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
        log.warning("input: cannot watch the input devices (%s); looking for keys and touches every %g s instead",
                    error, SDL_POLL)
        return False
    stack.callback(watcher.close)
    return True


def run_kiosk(config: Config, options: KioskOptions) -> int:
    with open_kiosk(config, options) as kiosk, stopping_on_signals(kiosk):
        if options.frames is not None:
            kiosk.redraw()
            while kiosk.frames < options.frames and kiosk.step():
                pass
            return 0
        return kiosk.run()


def open_event(config: Config, controller: Controller, inputs: WakingQueue) -> EventSession:
    """This gadget at the broker ``[event]`` names, its link putting what arrives on ``inputs``;
    paho-mqtt loads here, only on a gadget configured for events across tables."""
    from device.event_link import EventSession
    from drivers.broker import open_link

    settings = config.event
    assert settings.broker is not None
    link = open_link(inputs, settings.broker, settings.port, settings.table, settings.password)
    log.info("event: broker %s as table %s", settings.address(), settings.table)
    return EventSession(controller, link, settings.table, broker=settings.address(), join=settings.join)


@contextmanager
def open_kiosk(
    config: Config,
    options: KioskOptions,
    *,
    opener: Callable[[], Target] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[Kiosk]:
    """The kiosk with everything opened, READY sent; closed (STOPPING sent) on leaving.

    ``opener`` makes one attempt at the display target (default: the configured one);
    ``sleep`` and ``clock`` time the waits for a missing screen (tests pass fakes).
    """
    import pygame  # noqa: F401 - fail here, clearly, if pygame is missing

    from device.controller import Controller
    from device.notify import Notifier, Watchdog
    from device.recovery import open_journal
    from device.tagmap import TagMap
    from display import cardtext
    from display.fonts import Fonts
    from display.kiosk import Kiosk, WakingQueue
    from display.layout import parse_size
    from display.targets import FB_CHECKS, KMS_CHECKS, ScreenKeeper, open_target
    from drivers.feedback import open_feedback
    from drivers.gpio import GpioConfig, open_buttons

    display = config.display
    size = options.size or (parse_size(display.size) if display.size else None)
    fullscreen = display.fullscreen if options.fullscreen is None else options.fullscreen
    fb = options.fb or display.fb
    rng = random.Random(options.seed) if options.seed is not None else random.SystemRandom()
    try:
        gpio = GpioConfig.model_validate(config.gpio)
    except ValueError as error:
        raise ConfigError(f"[gpio]: {error}") from None
    cardtext.configure(config.resolved_data_dir())
    notifier = Notifier.from_environment()
    watchdog = Watchdog.from_environment(notifier)
    wait = options.wait_for_screen
    if wait is None:
        wait = notifier.enabled and options.screenshots is None
    opened, recovery = open_journal(options.db or config.journal_path(), recover=options.db is None, defer_backups=True)
    with ExitStack() as stack:
        journal = stack.enter_context(opened)
        controller = Controller(journal, rng=rng, config=config, tags=TagMap(config.tag_map_path()))
        attempt = opener or (lambda: open_target(size=size, fullscreen=fullscreen, fb=fb, screenshots=options.screenshots))
        keeper = ScreenKeeper(
            attempt, checks=FB_CHECKS if fb is not None else KMS_CHECKS, sleep=sleep, clock=clock,
            watchdog=watchdog,
        )
        inputs = WakingQueue()
        backend = "fake" if options.screenshots else (options.buttons or display.buttons)
        buttons = open_buttons(gpio, inputs, backend=backend)  # type: ignore[arg-type]
        buttons.start()
        stack.callback(buttons.close)
        feedback = open_feedback(feedback_pins(gpio, config.gpio), backend=backend)  # type: ignore[arg-type]
        stack.callback(feedback.close)
        spec = _reader_spec(options, config)
        if spec is not None:
            from drivers.rfid import make_reader

            settings = config.reader
            extra = {"presence_timeout": settings.presence_timeout} if settings.presence_timeout is not None else {}
            reader = make_reader(
                inputs, protocol="fake" if spec == "fake" else settings.protocol,
                port=settings.port if spec in ("auto", "fake") else spec, **extra,
            )
            reader.start()
            stack.callback(reader.stop)
        if wait:
            target = keeper.first()
            notifier.ready("kiosk running" if target is not None else f"waiting for the screen: {keeper.problem}")
            keeper.notifier = notifier  # STATUS= from now on, after READY's own
            if target is None:
                target = keeper.open()
        else:
            target = attempt()
            notifier.ready("kiosk running")
        watched = _watch_input_devices(inputs, stack)
        made: list[Kiosk] = []
        stack.callback(lambda: (made[0].target if made else target).close())  # the kiosk may have reopened it
        stack.callback(notifier.close)
        stack.callback(notifier.stopping)
        fonts = Fonts(configured=display.font)
        kiosk = Kiosk(
            controller, target, language=options.language or config.language, inputs=inputs, fonts=fonts,
            fps=display.fps, watchdog=watchdog, feedback=feedback, reopen=keeper.reopen if wait else None,
            input_watched=watched,
        )
        made.append(kiosk)
        if config.event.broker is not None:
            kiosk.attach_event(open_event(config, controller, inputs))
            assert kiosk.event is not None
            kiosk.event.start()  # the link's thread connects (again and again while the broker is away)
            stack.callback(kiosk.event.stop)
        if recovery is not None:
            kiosk.announce(recovery.message())  # said on the screen too, not only in the log
        if keeper.waited:
            kiosk.drop_blind_inputs()
        yield kiosk
