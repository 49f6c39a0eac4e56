"""``aetherbox firmware upload``: install the bridge firmware on a Raspberry Pi Pico.

The Pico must already run MicroPython (it then shows up as USB id 2E8A:0005).  The firmware's
files ship inside this package (``firmware_tools/bridge``); ``mpremote`` copies them to the
Pico's filesystem and resets it, after which it starts the bridge and says hello.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import TextIO

from device.config import Config
from device.errors import AetherboxError, DeviceNotFound
from drivers.rfid.ports import PortInfo, system_ports
from firmware_tools.cli import tool_main
from firmware_tools.bridge import FILES

PICO_MICROPYTHON = (0x2E8A, 0x0005)
INSTALL_HINT = "pip install mpremote (or pip install 'aetherbox[firmware]')"
NO_PICO = (
    "no Raspberry Pi Pico running MicroPython found (USB id 2E8A:0005). Put MicroPython on it "
    "first: hold BOOTSEL while plugging it in and copy the RP2040 .uf2 file from "
    "micropython.org to the RPI-RP2 drive. Then run this again, or give --port"
)


class MissingTool(AetherboxError, FileNotFoundError):
    """A program the command needs is not installed."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port", help="the Pico's serial port (default: found by its USB id 2E8A:0005)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the mpremote commands instead of running them"
    )


def main(argv: Sequence[str] | None = None) -> int:
    return tool_main(
        "aetherbox firmware upload",
        "Install the aetherbox bridge firmware on a Pico.",
        add_arguments,
        run,
        argv,
    )


def find_pico(ports: Sequence[PortInfo]) -> str | None:
    """The first (by name) serial port of a Pico running MicroPython."""
    for port in sorted(ports, key=lambda p: p.device):
        if (port.vid, port.pid) == PICO_MICROPYTHON:
            return port.device
    return None


def commands(mpremote: str, port: str, files: Sequence[Path]) -> list[list[str]]:
    """Copy every file to the root of the Pico's filesystem, then reset it so main.py runs."""
    return [
        [mpremote, "connect", port, "fs", "cp", *(str(path) for path in files), ":"],
        [mpremote, "connect", port, "reset"],
    ]


def run(args: argparse.Namespace, config: Config, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    mpremote = shutil.which("mpremote")
    port = args.port or find_pico(system_ports())
    if not args.dry_run:
        if mpremote is None:
            raise MissingTool(
                f"mpremote is not installed; it copies the firmware to the Pico: {INSTALL_HINT}"
            )
        if port is None:
            raise DeviceNotFound(NO_PICO)
    with ExitStack() as stack:
        folder = stack.enter_context(resources.as_file(resources.files("firmware_tools.bridge")))
        files = [folder / name for name in FILES]
        missing = [str(path) for path in files if not path.is_file()]
        if missing:
            raise DeviceNotFound(
                f"the firmware files are missing from this installation: {', '.join(missing)}"
            )
        steps = commands(mpremote or "mpremote", port or "auto", files)
        if args.dry_run:
            if mpremote is None:
                print(f"(mpremote is not installed: {INSTALL_HINT})", file=out)
            if port is None:
                print(
                    "(no Pico found; 'auto' lets mpremote pick the first board it finds)", file=out
                )
            for step in steps:
                print(shlex.join(step), file=out)
            return 0
        assert port is not None and mpremote is not None
        for step, doing in zip(steps, ("copying the firmware", "resetting the Pico")):
            print(f"$ {shlex.join(step)}", file=out, flush=True)
            result = subprocess.run(step, check=False)
            if result.returncode != 0:
                raise AetherboxError(
                    f"mpremote failed (exit status {result.returncode}) while {doing} on {port}; "
                    "close any program using the port (a serial monitor, aetherbox itself) and try again"
                )
    print(
        f"Bridge firmware installed on {port}. The Pico restarts and says hello; check it with: "
        f"aetherbox reader monitor --port {port}",
        file=out,
    )
    return 0
