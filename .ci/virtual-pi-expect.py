"""What the kiosk should show and record for the presses .ci/virtual-pi makes in the virtual Pi.

Run by .ci/virtual-pi inside the arm64 root, with the installed venv's Python, so the expected
frames come from the same code, pygame-ce, SDL and fonts as the service's:

    python virtual-pi-expect.py --db GAMES/aetherbox.sqlite3 --size 800x480 [--touch-screen KIND] --out DIR STEP...

It opens the kiosk on a copy of the game's journal (off screen) and runs the steps in order.
``--touch-screen`` says what the kiosk on the machine's console finds among its input devices
(the virtual tablet: ``touch``), which the touch bar shows (its TOUCH button, the calibration);
off screen the kiosk looks for none.  The steps:

    frame:NAME     the frame as it stands, to DIR/NAME.ppm (what the host compares) and NAME.png
    targets:NAME   the touch targets of that frame, to DIR/NAME.json ([x, y, w, h], kind, value)
    key:QCODE      a key pressed and released (QEMU's key names: ret, down, backspace, …)
    tap:X,Y        a touch at pixel X,Y, let go at once

The kiosk is then closed as the service's is by SIGTERM, so a life change still shown is made.
Not part of the test suite; see docs/virtual-pi.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import pygame

from device.config import load
from display.app import KioskOptions, open_kiosk
from display.kiosk import Kiosk

#: QEMU's key names (QMP send-key's qcodes) as pygame's keys.
KEYS: dict[str, int] = {
    "ret": pygame.K_RETURN,
    "down": pygame.K_DOWN,
    "up": pygame.K_UP,
    "left": pygame.K_LEFT,
    "right": pygame.K_RIGHT,
    "backspace": pygame.K_BACKSPACE,
    "tab": pygame.K_TAB,
    "esc": pygame.K_ESCAPE,
    "pgdn": pygame.K_PAGEDOWN,
    "pgup": pygame.K_PAGEUP,
}


def save_frame(kiosk: Kiosk, out: Path, name: str) -> None:
    surface = kiosk.target.surface
    width, height = surface.get_size()
    pixels = pygame.image.tobytes(surface, "RGB")
    (out / f"{name}.ppm").write_bytes(b"P6\n%d %d\n255\n" % (width, height) + pixels)
    pygame.image.save(surface, str(out / f"{name}.png"))


def jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [jsonable(item) for item in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def save_targets(kiosk: Kiosk, out: Path, name: str) -> None:
    targets = [
        {
            "rect": list(target.rect),
            "kind": getattr(target.action, "kind", None),
            "value": jsonable(getattr(target.action, "value", None)),
            "action": repr(target.action),
        }
        for target in kiosk.canvas.targets
    ]
    (out / f"{name}.json").write_text(json.dumps(targets, indent=1) + "\n")


def post_key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0))


def post_tap(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))


def run(db: Path, size: tuple[int, int], out: Path, steps: list[str], touch_screen: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    config = load(None).config
    options = KioskOptions(db=db, size=size, screenshots=out / "frames", buttons="fake")
    with open_kiosk(config, options) as kiosk:
        if touch_screen:
            kiosk.ui.touch_screen = touch_screen
        kiosk.redraw()
        kiosk.settle()
        for step in steps:
            what, _, argument = step.partition(":")
            if what == "frame":
                kiosk.settle()
                save_frame(kiosk, out, argument)
            elif what == "targets":
                kiosk.settle()
                save_targets(kiosk, out, argument)
            elif what == "key":
                post_key(KEYS[argument])
                kiosk.settle()
            elif what == "tap":
                x, y = (int(v) for v in argument.split(","))
                post_tap((x, y))
                kiosk.settle()
            else:
                raise SystemExit(f"virtual-pi-expect: unknown step {step!r}")
        kiosk.stop()
        kiosk.step(block=False)  # as after SIGTERM: a change a screen holds back is made


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db", type=Path, required=True, help="a copy of the journal (it is written to)"
    )
    parser.add_argument("--size", required=True, metavar="WxH")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--touch-screen",
        default="",
        metavar="KIND",
        help="the touch screen the console's kiosk finds: touch or resistive (default: none)",
    )
    parser.add_argument("steps", nargs="*", metavar="STEP")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.split("x"))
    run(args.db, (width, height), args.out, args.steps, args.touch_screen)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
