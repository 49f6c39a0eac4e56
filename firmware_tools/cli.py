"""What the reader-side tools share: their ``main`` around a parser and a ``run`` function.

Each tool adds its options to a parser it is given, so the same options serve both
``aetherbox TOOL …`` (``display/cli.py`` nests the tool's parser) and the tool's own
``main(argv)``.  Errors print as ``aetherbox: error: …`` with exit status 1.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from device.config import Config, load
from device.errors import AetherboxError

Run = Callable[[argparse.Namespace, Config], int]


def tool_main(
    prog: str,
    description: str,
    add_arguments: Callable[[argparse.ArgumentParser], None],
    run: Run,
    argv: Sequence[str] | None,
) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "--config", type=Path, help="configuration file (default: ~/.config/aetherbox/config.toml)"
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    add_arguments(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.WARNING,
        format="aetherbox: %(levelname)s: %(message)s",
    )
    loaded = load(args.config)
    for warning in loaded.warnings:
        print(f"aetherbox: warning: {warning}", file=sys.stderr)
    return guarded(run, args, loaded.config)


def guarded(run: Run, args: argparse.Namespace, config: Config) -> int:
    """``run``, with aetherbox's errors printed for a person rather than as a traceback."""
    try:
        return run(args, config)
    except (AetherboxError, OSError) as error:
        print(f"aetherbox: error: {error}", file=sys.stderr)
        if getattr(args, "debug", False):
            raise
        return 1
    except KeyboardInterrupt:
        return 130
