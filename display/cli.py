"""The ``aetherbox`` command: the one place that puts the packages together.

It sits on the top floor so that every import points down: the kiosk (``display.app``), the
console (``device.console.session``) with the reader ``--reader`` names, and the reader-side tools
(``firmware_tools``).  Each is imported only when its command runs, so ``aetherbox console`` does
not load pygame and the kiosk's start does not load the reader tools.

Errors print as ``aetherbox: error: …`` with a hint and exit with status 1; ``--debug`` shows
the traceback as well.
"""

from __future__ import annotations

from contextlib import contextmanager

import argparse
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, get_args

from device import text
from device.english import ENGLISH
from device.game import GAME
from device import __version__
from device.config import Config, Language, Loaded, in_use, load
from device.errors import AetherboxError, ConfigError

if TYPE_CHECKING:
    from device.cardtext import ImportReport
    from device.event_link import InputSink, Link, OpenLink
    from device.console.reader import OpenReader, TagReader
    from device.inputs import InputQueue


#: The kiosk's options, as ``aetherbox`` and ``aetherbox kiosk`` both take them: (flags, what
#: ``add_argument`` is given besides the flags).  ``aetherbox`` alone is the kiosk, so everything
#: the README lists for the kiosk works with or without the word ``kiosk``.
KIOSK_OPTIONS: tuple[tuple[tuple[str, ...], dict[str, object]], ...] = (
    (("--db",), {"type": Path, "help": "journal file (default: in the data directory)"}),
    (("--seed",), {"type": int, "help": "deterministic dice and draws, for demos and tests"}),
    (
        ("--size",),
        {"metavar": "WxH", "help": "screen or window size, e.g. 480x320 (default: the screen's)"},
    ),
    (("--fullscreen",), {"action": "store_true", "help": "the whole screen (KMS/DRM on a Pi)"}),
    (
        ("--fb",),
        {
            "type": Path,
            "metavar": "DEVICE",
            "help": "draw on an SPI panel's frame buffer, e.g. /dev/fb1",
        },
    ),
    (
        ("--rotate",),
        {
            "type": int,
            "choices": (0, 90, 180, 270),
            "metavar": "DEGREES",
            "help": "turn the picture clockwise on the panel: 0, 90, 180 or 270",
        },
    ),
    (
        ("--screenshots",),
        {
            "type": Path,
            "metavar": "DIR",
            "help": "write a PNG per changed frame instead of a screen",
        },
    ),
    (("--language",), {"choices": get_args(Language), "help": "the screen's language"}),
    (
        ("--reader",),
        {
            "nargs": "?",
            "const": "auto",
            "metavar": "PORT|auto|fake",
            "help": "read tags from the RFID reader",
        },
    ),
    (
        ("--buttons",),
        {"choices": ("auto", "gpio", "fake"), "help": "GPIO buttons, or keys only (fake)"},
    ),
    (("--frames",), {"type": int, "metavar": "N", "help": argparse.SUPPRESS}),
)
#: Where ``aetherbox`` keeps a kiosk option given before any command (``aetherbox --size …``):
#: apart from the same option given after a command, which argparse would let overwrite it.
_BEFORE = "before_"


def _add_kiosk_options(parser: argparse.ArgumentParser, *, before: bool) -> None:
    for flags, settings in KIOSK_OPTIONS:
        extra: dict[str, object] = (
            {"default": None, "dest": _BEFORE + flags[0][2:]}
            if before
            else {"default": argparse.SUPPRESS}
        )
        if before:
            extra["help"] = argparse.SUPPRESS  # listed once, under 'kiosk'; the usage line says so
        parser.add_argument(*flags, **{**settings, **extra})  # type: ignore[arg-type]


def _add_common(parser: argparse.ArgumentParser) -> None:
    """``--config`` and ``--debug`` after a command too (``aetherbox console --config PATH``);
    not given there, they leave what was given before the command."""
    parser.add_argument(
        "--config",
        type=Path,
        default=argparse.SUPPRESS,
        metavar="PATH",
        help="configuration file (default: ~/.config/aetherbox/config.toml)",
    )
    parser.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks"
    )


#: The commands of firmware_tools/.  Their options are added (and their modules, with the
#: reader's drivers, imported) only when the command line names one or asks for help, so the
#: kiosk's start does not pay for tools it does not run.
TOOLS = ("enroll", "reader", "firmware")


def wants_tools(argv: Sequence[str] | None) -> bool:
    words = sys.argv[1:] if argv is None else argv
    return any(word in TOOLS or word in ("-h", "--help") for word in words)


def build_parser(tools: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="aetherbox",
        description="A table gadget for casual Magic variants.",
        usage="%(prog)s [--config PATH] [--debug] [COMMAND] [options]",
        epilog="Without a command aetherbox is the kiosk and takes the kiosk's options: "
        "aetherbox --size 480x320 is aetherbox kiosk --size 480x320 (see aetherbox kiosk --help).",
    )
    parser.add_argument("--version", action="version", version=f"aetherbox {__version__}")
    parser.add_argument(
        "--config",
        type=Path,
        metavar="PATH",
        help="configuration file (default: ~/.config/aetherbox/config.toml)",
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    _add_kiosk_options(parser, before=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog="aetherbox")
    console = sub.add_parser("console", help="play through typed commands (one per line)")
    console.add_argument(
        "file", nargs="?", type=Path, help="read commands from FILE instead of standard input"
    )
    console.add_argument("--db", type=Path, help="journal file (default: in the data directory)")
    console.add_argument(
        "--seed", type=int, help="deterministic dice and draws, for scripts and tests"
    )
    console.add_argument(
        "--reader",
        nargs="?",
        const="auto",
        metavar="PORT|auto|fake",
        help="read tags from the RFID reader",
    )
    console.add_argument(
        "--language",
        choices=get_args(Language),
        help="the language of the game's messages (default: the configuration's, else English)",
    )
    event = sub.add_parser(
        "event", help="a Conspiracy event played across tables, through the broker"
    ).add_subparsers(dest="event_command", metavar="ACTION", required=True)
    host = event.add_parser(
        "host",
        help="draw an event for the tables connected to the broker and publish it, then go on as the console",
        usage="%(prog)s NAME PLAYER PLAYER... [tables=TABLE,TABLE...] [OPTION=VALUE...] [--db PATH] [--seed N]",
    )
    host.add_argument(
        "words", nargs="+", metavar="NAME PLAYER", help="the event's name, then its players"
    )
    host.add_argument("--db", type=Path, help="journal file (default: in the data directory)")
    host.add_argument("--seed", type=int, help="deterministic draws, for scripts and tests")
    host.add_argument("--language", choices=get_args(Language), help="the language of the messages")
    kiosk = sub.add_parser(
        "kiosk", help="the gadget's screen (the default): a window, the full screen or a panel"
    )
    _add_kiosk_options(kiosk, before=False)
    _add_tools(sub, full=tools)
    _add_catalog(sub)
    for command in _leaves(sub):
        _add_common(command)
    return parser


def _leaves(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> list[argparse.ArgumentParser]:
    """Every command's own parser (``reader monitor``'s, not ``reader``'s)."""
    found: list[argparse.ArgumentParser] = []
    for command in dict.fromkeys(sub.choices.values()):
        nested = [a for a in command._actions if isinstance(a, argparse._SubParsersAction)]
        found += _leaves(nested[0]) if nested else [command]
    return found


def kiosk_arguments(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> argparse.Namespace:
    """The kiosk's options from before and after the word ``kiosk``; given before another
    command they are refused, since that command would not use them."""
    given = {flags[0][2:]: getattr(args, _BEFORE + flags[0][2:]) for flags, _ in KIOSK_OPTIONS}
    if args.command not in (None, "kiosk"):
        stray = [name for name, value in given.items() if value is not None]
        if stray:
            parser.error(
                f"--{stray[0]} before {args.command!r} is a kiosk option: put the options of "
                f"{args.command!r} after it ('aetherbox {args.command} --help' lists them)"
            )
        return args
    for name, value in given.items():
        if getattr(args, name, None) is None:
            setattr(args, name, value)
    return args


def run_kiosk(config: Config, args: argparse.Namespace) -> int:
    from display.app import KioskOptions
    from display.app import run_kiosk as run
    from display.layout import parse_size

    try:
        size = parse_size(args.size) if getattr(args, "size", None) else None
    except ValueError as error:
        raise ConfigError(str(error)) from None
    options = KioskOptions(
        db=getattr(args, "db", None),
        seed=getattr(args, "seed", None),
        size=size,
        fullscreen=getattr(args, "fullscreen", None) or None,
        fb=getattr(args, "fb", None),
        rotate=getattr(args, "rotate", None),
        screenshots=getattr(args, "screenshots", None),
        language=getattr(args, "language", None),
        reader=getattr(args, "reader", None),
        buttons=getattr(args, "buttons", None),
        frames=getattr(args, "frames", None),
        config_warnings=tuple(getattr(args, "config_warnings", ())),
    )
    return run(config, options)


def _add_catalog(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    catalog = sub.add_parser(
        "catalog", help="the card catalog: import or download rules text and images"
    )
    actions = catalog.add_subparsers(dest="catalog_command", metavar="ACTION", required=True)
    card_import = actions.add_parser(
        "import",
        help="store the rules text of planes, phenomena and contraptions from a Scryfall or MTGJSON file",
    )
    card_import.add_argument(
        "card_file",
        metavar="FILE",
        help="a Scryfall bulk or MTGJSON file (.json or .json.gz); - for standard input",
    )
    card_import.add_argument(
        "--images",
        nargs="?",
        const=True,
        default=None,
        metavar="FOLDER",
        help="also store pictures: from FOLDER (one per card, named after it), else the file's local image paths",
    )
    fetch = actions.add_parser(
        "fetch",
        help="download the rules text and pictures of planes, phenomena and contraptions from Scryfall "
        "(online; run again to resume)",
    )
    fetch.add_argument("--no-images", action="store_true", help="the rules text only, no pictures")
    fetch.add_argument(
        "--api", metavar="URL", help="Scryfall's API (default: https://api.scryfall.com)"
    )
    fetch.add_argument("--quiet", action="store_true", help="no progress bar")


def run_catalog(config: Config, args: argparse.Namespace) -> int:
    if args.catalog_command == "fetch":
        return run_catalog_fetch(config, args.api, images=not args.no_images, quiet=args.quiet)
    return run_catalog_import(config, args.card_file, args.images)


def run_catalog_import(config: Config, file: str, images: str | bool | None) -> int:
    from device.cardtext import import_file

    folder = Path(images) if isinstance(images, str) else None
    source = sys.stdin.buffer if file == "-" else Path(file)
    report = import_file(
        source, config.resolved_data_dir(), images=images is not None, image_folder=folder
    )
    print_card_report(report, images is not None, "cardtext.not_in_file")
    return 0


def run_catalog_fetch(config: Config, api: str | None, *, images: bool, quiet: bool) -> int:
    from device import scryfall
    from device.text import Message

    bar = None if quiet else scryfall.ProgressBar(sys.stderr)
    try:
        try:
            report = scryfall.fetch(
                config.resolved_data_dir(), api=api or scryfall.API, images=images, progress=bar
            )
        finally:
            if bar is not None:
                bar.close()
    except KeyboardInterrupt:
        print(Message("cardtext.fetch.interrupted"), file=sys.stderr)
        return 130
    print_card_report(report, images, "cardtext.fetch.not_found")
    if images:
        print(Message("cardtext.fetch.downloaded", downloaded=report.downloaded, kept=report.kept))
    return 0


def print_card_report(report: ImportReport, images: bool, missing: str) -> None:
    """What an import or a fetch stored: the cards of each kind, the pictures, and (``missing``
    words it) the catalog's cards it did not find."""
    from device.text import Message, listing

    counts = {kind.value: count for kind, count in report.kinds.items()}
    print(
        Message(
            "cardtext.imported",
            cards=len(report.cards),
            planes=Message("cardtext.planes", n=counts.get("plane", 0)),
            phenomena=Message("cardtext.phenomena", n=counts.get("phenomenon", 0)),
            contraptions=Message("cardtext.contraptions", n=counts.get("contraption", 0)),
            source=report.source,
        )
    )
    if images:
        print(Message("cardtext.images", images=report.images))
    if report.missing:
        more = len(report.missing) - 5
        shown: str | Message = listing(report.missing[:5], "text.list")
        if more > 0:
            shown = Message("catalog.and_more", names=shown, more=more)
        print(Message(missing, count=len(report.missing), names=shown, source=report.source))


def _add_tools(sub: argparse._SubParsersAction[argparse.ArgumentParser], full: bool = True) -> None:
    """The reader-side tools of firmware_tools/, each adding its own options (with ``full``;
    without it only their names and help, see ``TOOLS``)."""
    enroll = sub.add_parser("enroll", help="tell aetherbox which card each RFID tag is")
    reader = sub.add_parser("reader", help="RFID reader tools").add_subparsers(
        dest="tool", metavar="TOOL", required=True
    )
    monitor = reader.add_parser("monitor", help="show what a reader sends; detect its protocol")
    firmware = sub.add_parser("firmware", help="bridge firmware tools").add_subparsers(
        dest="tool", metavar="TOOL", required=True
    )
    upload = firmware.add_parser("upload", help="install the bridge firmware on a Pico")
    if full:
        from firmware_tools import enroll as enrolling, monitor as monitoring, upload as uploading

        enrolling.add_arguments(enroll)
        monitoring.add_arguments(monitor)
        uploading.add_arguments(upload)


def run_console(config: Config, args: argparse.Namespace, first: str | None = None) -> int:
    from device.console.session import run_console as run

    spec = getattr(args, "reader", None)
    return run(
        config,
        getattr(args, "db", None),
        getattr(args, "seed", None),
        getattr(args, "file", None),
        None if spec is None else reader_opener(spec, config),
        getattr(args, "language", None),
        link_opener(config),
        first,
    )


def link_opener(config: Config) -> OpenLink | None:
    """What links to the configured broker (``[event] broker``), on the queue it is given; None
    without one.  paho-mqtt loads when the link opens."""
    settings = config.event
    if settings.broker is None:
        return None
    broker = settings.broker

    def open_link(inputs: InputSink) -> Link:
        from drivers.broker import open_link as open_configured

        ca = settings.ca_file()
        return open_configured(
            inputs,
            broker,
            settings.port,
            settings.table,
            settings.password,
            str(ca) if ca is not None else None,
        )

    return open_link


def run_event(config: Config, args: argparse.Namespace) -> int:
    """``aetherbox event host NAME PLAYER…``: the console, as the organiser, that hosts the event
    once the broker has said which tables are connected."""
    if config.event.broker is None:
        raise ConfigError(
            "no broker is set up: name it and this gadget's login under [event] in the configuration "
            '(broker = "…", table = "organiser", password = "…"); see the README, "Events across tables"'
        )
    # The console's quoting: double quotes group words, an apostrophe is part of a name.
    words = [
        f'"{word}"' if not word or any(ch.isspace() for ch in word) else word for word in args.words
    ]
    return run_console(config, args, first=" ".join(["host", *words]))


def reader_opener(spec: str, config: Config) -> OpenReader:
    """What opens the reader ``--reader SPEC`` names, on the queue the console gives it.  The
    reader's modules load when the console opens it, after the journal."""

    def open_reader(inputs: InputQueue) -> TagReader:
        from firmware_tools.readers import open_reader as open_named

        return open_named(spec, config, inputs)

    return open_reader


def run_tool(config: Config, args: argparse.Namespace) -> int:
    from firmware_tools import enroll, monitor, upload

    if args.command == "enroll":
        return enroll.run(args, config)
    return (monitor.run if args.command == "reader" else upload.run)(args, config)


def said_warnings(loaded: Loaded, args: argparse.Namespace) -> list[str]:
    """The configuration's problems as standard error says them: at the console, in the language
    it plays in (``--language``, else the configuration's); elsewhere in the log's English."""
    if args.command != "console":
        return list(loaded.warnings)
    from device.translations import ConsoleTranslator

    translator = ConsoleTranslator(getattr(args, "language", None) or loaded.config.language)
    return [translator.message(problem) for problem in loaded.problems]


def run_command(parser: argparse.ArgumentParser, args: argparse.Namespace, config: Config) -> int:
    if args.command in (None, "kiosk"):
        return run_kiosk(config, args)
    if args.command == "console":
        return run_console(config, args)
    if args.command == "event":
        return run_event(config, args)
    if args.command in TOOLS:
        return run_tool(config, args)
    if args.command == "catalog":
        return run_catalog(config, args)
    parser.error(f"unknown command {args.command!r}")


class _Said(logging.Formatter):
    """A log record as the command's own messages read: ``aetherbox: warning: …``."""

    def format(self, record: logging.LogRecord) -> str:
        return f"aetherbox: {record.levelname.lower()}: {super().format(record)}"


def main(argv: Sequence[str] | None = None) -> int:
    return _main(argv)[0]


def run() -> NoReturn:
    """The ``aetherbox`` command: :func:`main`, then out.  After the kiosk, which has closed its
    journal, its screen and its drivers itself, the interpreter's own teardown is skipped: it
    took about 60 % of a stop (60 ms of 100 here, far more on a Pi), and the service is to stop
    within a second."""
    status, kiosk = _main(None)
    if kiosk:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


def _main(argv: Sequence[str] | None) -> tuple[int, bool]:
    """The exit status, and whether the kiosk was what ran.  The gadget plays every part of the
    rules (``device.game.GAME``): its configuration, console and kiosk name formats by them;
    its messages are worded in its English (``device.english``)."""
    with playing_the_gadget():
        return _command(argv)


@contextmanager
def playing_the_gadget() -> Iterator[None]:
    """What a program that runs the gadget (the command, a benchmark, the tests) does first: it
    words messages in the gadget's English and plays every part of its rules."""
    text.speak(ENGLISH)
    with GAME.playing():
        yield


def _command(argv: Sequence[str] | None) -> tuple[int, bool]:
    parser = build_parser(tools=wants_tools(argv))
    args = kiosk_arguments(parser, parser.parse_args(argv))
    kiosk = args.command in (None, "kiosk")
    said_on_stderr = logging.StreamHandler()
    said_on_stderr.setFormatter(_Said())
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.WARNING, handlers=[said_on_stderr]
    )
    loaded = load(args.config)
    for warning in said_warnings(loaded, args):
        print(f"aetherbox: warning: {warning}", file=sys.stderr)
    if (
        loaded.path.exists()
    ):  # what a hand-edited file made of the settings, on record at every start
        said = logging.getLogger("aetherbox.config")
        said.setLevel(logging.INFO)
        said.info("configuration in use: %s", in_use(loaded))
    args.config_warnings = (
        loaded.problems
    )  # the kiosk says them on the screen too, in the table's language
    try:
        return run_command(parser, args, loaded.config), kiosk
    except (AetherboxError, OSError) as error:
        # A JournalIOFailure too: the service restarts us, and SQLite recovers the journal to its
        # last commit on reopening.
        print(f"aetherbox: error: {error}", file=sys.stderr)
        if args.debug:
            raise
        return 1, kiosk
    except KeyboardInterrupt:
        return 130, kiosk


if __name__ == "__main__":
    run()
