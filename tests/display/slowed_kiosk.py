"""The real ``aetherbox kiosk`` process with every frame made slow, as on a busy Raspberry Pi:
``python slowed_kiosk.py SECONDS KIOSK-ARGS…`` (tests/display/test_x11_presses.py runs it on a
real X server)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from display.cli import main  # noqa: E402
from display.kiosk import Kiosk  # noqa: E402


def slowed(seconds: float) -> None:
    drawn = Kiosk.redraw

    def redraw(self: Kiosk) -> None:
        drawn(self)
        time.sleep(seconds)  # the loop reads no input meanwhile, as when a Pi is busy

    Kiosk.redraw = redraw  # type: ignore[method-assign]


if __name__ == "__main__":
    slowed(float(sys.argv[1]))
    sys.exit(main(["kiosk", *sys.argv[2:]]))
