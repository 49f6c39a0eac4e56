"""``aetherbox`` / ``aetherbox kiosk``: the gadget — journal, controller, screen and inputs.

Everything is opened and checked here, at start-up, and said once in the log: the journal,
the display target, the fonts, the GPIO buttons (or the keyboard standing in for them) and the
RFID reader when one is configured.  Then the kiosk's loop runs until it is closed.
"""

from __future__ import annotations

import logging
import random
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from device.config import Config
from device.errors import ConfigError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class KioskOptions:
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


def _reader_spec(options: KioskOptions, config: Config) -> str | None:
    if options.reader is not None:
        return options.reader
    # A reader counts as configured when [reader] says where or what it is.
    if config.reader.port is not None or config.reader.protocol != "auto":
        return "fake" if config.reader.protocol == "fake" else "auto"
    return None


def run_kiosk(config: Config, options: KioskOptions) -> int:
    import pygame  # noqa: F401 - fail here, clearly, if pygame is missing

    from device.controller import Controller
    from device.notify import Notifier, Watchdog
    from device.recovery import open_journal
    from device.tagmap import TagMap
    from display import cardtext
    from display.fonts import Fonts
    from display.kiosk import Kiosk, WakingQueue
    from display.layout import parse_size
    from display.targets import open_target
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
    opened, recovery = open_journal(options.db or config.journal_path(), recover=options.db is None)
    with ExitStack() as stack:
        journal = stack.enter_context(opened)
        if recovery is not None:
            log.warning("%s", recovery.message())
        controller = Controller(journal, rng=rng, config=config, tags=TagMap(config.tag_map_path()))
        target = open_target(size=size, fullscreen=fullscreen, fb=fb, screenshots=options.screenshots)
        stack.callback(target.close)
        inputs = WakingQueue()
        backend = options.buttons or display.buttons
        buttons = open_buttons(gpio, inputs, backend="fake" if options.screenshots else backend)  # type: ignore[arg-type]
        buttons.start()
        stack.callback(buttons.close)
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
        fonts = Fonts(configured=display.font)
        kiosk = Kiosk(
            controller, target, language=options.language or config.language, inputs=inputs, fonts=fonts,
            fps=display.fps, watchdog=Watchdog.from_environment(notifier),
        )
        notifier.ready("kiosk running")
        stack.callback(notifier.close)
        stack.callback(notifier.stopping)
        if options.frames is not None:
            kiosk.redraw()
            while kiosk.frames < options.frames and kiosk.step():
                pass
            return 0
        return kiosk.run()
    return 0
