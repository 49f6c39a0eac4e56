"""The ``aetherbox`` command.

Errors print as ``aetherbox: error: …`` with a hint and exit with status 1; ``--debug`` shows
the traceback as well.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from device import __version__
from device.config import Config, load
from device.errors import AetherboxError, JournalIOFailure

log = logging.getLogger("aetherbox")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aetherbox", description="A table gadget for casual Magic variants.")
    parser.add_argument("--version", action="version", version=f"aetherbox {__version__}")
    parser.add_argument("--config", type=Path, help="configuration file (default: ~/.config/aetherbox/config.toml)")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    console = sub.add_parser("console", help="play through typed commands (one per line)")
    console.add_argument("file", nargs="?", type=Path, help="read commands from FILE instead of standard input")
    console.add_argument("--db", type=Path, help="journal file (default: in the data directory)")
    console.add_argument("--seed", type=int, help="deterministic dice and draws, for scripts and tests")
    return parser


def _lines(stream: TextIO, prompt: bool, out: TextIO) -> Iterator[str]:
    while True:
        if prompt:
            out.write("> ")
            out.flush()
        line = stream.readline()
        if not line:
            return
        yield line


def run_console(config: Config, db: Path | None, seed: int | None, file: Path | None) -> int:
    from device.console import Console
    from device.controller import Controller
    from device.journal import Journal
    from device.tagmap import TagMap

    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    with Journal(db or config.journal_path()) as journal:
        controller = Controller(journal, rng=rng, config=config, tags=TagMap(config.tag_map_path()))
        console = Console(controller, sys.stdout)
        if controller.state is not None and controller.game is not None:
            info = journal.game(controller.game)
            console.say(f"Resumed game {info.id}: {info.title} (turn {controller.state.turn}).")
        if file is not None:
            try:
                with file.open(encoding="utf-8") as stream:
                    console.run(stream)
            except OSError as error:
                raise FileNotFoundError(f"cannot read {file}: {error.strerror}") from error
        else:
            console.run(_lines(sys.stdin, sys.stdin.isatty(), sys.stdout))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.WARNING, format="aetherbox: %(levelname)s: %(message)s")
    loaded = load(args.config)
    for warning in loaded.warnings:
        print(f"aetherbox: warning: {warning}", file=sys.stderr)
    try:
        if args.command in (None, "console"):
            return run_console(
                loaded.config, getattr(args, "db", None), getattr(args, "seed", None), getattr(args, "file", None)
            )
        parser.error(f"unknown command {args.command!r}")
    except JournalIOFailure as error:
        # The service restarts us; SQLite recovers the journal to its last commit on reopening.
        print(f"aetherbox: error: {error}", file=sys.stderr)
        if args.debug:
            raise
        return 1
    except (AetherboxError, OSError) as error:
        print(f"aetherbox: error: {error}", file=sys.stderr)
        if args.debug:
            raise
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
