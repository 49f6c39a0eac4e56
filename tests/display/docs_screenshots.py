"""Write the README's screenshots: python tests/display/docs_screenshots.py [DIR]

The main screens at 800×480 in English, Russian, Japanese and Polish, from the same scenes the screenshot tests
draw (bundled fonts, SDL's dummy driver), into ``docs/screenshots/``; and the Planechase screen with a plane's
picture in English (the stand-in picture the tests draw: no card art ships with the gadget), the EVENT screen's
three tabs, the organiser's ruling on a correction and its chip that starts a round's clock in English; and the
players' page as a phone shows it, in headless chromium (where it is installed).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["TZ"] = "UTC"  # as the tests draw the saved games' times
time.tzset()
sys.path[:0] = [
    str(Path(__file__).resolve().parents[2]),
    str(Path(__file__).parent),
]  # this checkout's code; the scenes

import pygame  # noqa: E402

from device.controller import Controller  # noqa: E402
from device.journal import Journal  # noqa: E402
from device.tagmap import TagMap  # noqa: E402
from display import cardtext  # noqa: E402
from display.fonts import Fonts  # noqa: E402
from display.kiosk import Kiosk  # noqa: E402
from display.targets import OffscreenTarget  # noqa: E402
from scenes import SCENES  # noqa: E402

SHOWN = (
    "table",
    "life",
    "counters",
    "upkeep",
    "planechase",
    "adjust",
    "dice",
    "history",
    "games",
    "setup",
    "clock",
)
LANGUAGES = ("en", "ru", "ja", "pl")
#: One language only: (scene, language) by the screenshot's name.
ALSO = {
    "planechase-art-en": ("pc-art", "en"),
    "event-en": ("event", "en"),
    "event-tables-en": ("event-tables", "en"),
    "event-decide-en": ("event-decide", "en"),
    "event-phones-en": ("event-phones", "en"),
    "event-organise-en": ("event-organise", "en"),
    "event-clock-en": ("event-clock", "en"),
}


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    fonts = Fonts(system=False)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        (data / "tags.txt").write_text("04A1B2C3  Tazeem\n", encoding="utf-8")
        cardtext.configure(data, imported=False)
        shots = {
            f"{scene}-{language}": (scene, language) for language in LANGUAGES for scene in SHOWN
        }
        for name, (scene, language) in {**shots, **ALSO}.items():
            cardtext.configure(data, imported=False)  # a scene with pictures points elsewhere
            with Journal(data / name / "j.sqlite3") as journal:
                controller = Controller(
                    journal,
                    rng=random.Random(7),
                    tags=TagMap(data / "tags.txt"),
                    clock=lambda: 1.7e9,
                )
                kiosk = Kiosk(
                    controller,
                    OffscreenTarget((800, 480)),
                    language=language,
                    fonts=fonts,
                    clock=lambda: 1000.0,
                    wall=lambda: 1.7e9,
                )
                SCENES[scene](kiosk)
                kiosk.redraw()
                path = out / f"{name}.png"
                pygame.image.save(kiosk.target.surface, str(path))
                print(path)
        cardtext.configure(None)
    phone_page(out / "phone-page-en.png")
    return 0


def phone_page(path: Path) -> None:
    """The players' page of the event the tests play, served by the gadget's own server and shown
    in a phone-sized headless chromium (412×915 CSS pixels at twice the density)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the browser
    from browser import MISSING, chromium
    from device.translations import LANGUAGES
    from display.phone import snapshots
    from drivers.page import PageServer
    from phone_event import WALL, event, info_of

    if MISSING:
        print(f"{path}: not made: {MISSING}")
        return
    server = PageServer(0, host="127.0.0.1", language="en", languages=LANGUAGES)
    server.start()
    try:
        _, view = event()
        server.show(snapshots(info_of(view), WALL))
        with chromium(412, 915, scale=2) as browser:
            browser.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": 412, "height": 915, "deviceScaleFactor": 2, "mobile": True},
            )
            browser.get(f"http://127.0.0.1:{server.port}/")
            for _ in range(200):
                if browser.execute_script(
                    "return document.querySelectorAll('#tables li').length > 0"
                ):
                    break
                time.sleep(0.02)
            browser.save_screenshot(str(path))
    finally:
        server.stop()
    print(path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
