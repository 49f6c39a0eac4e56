"""How long a table's report takes to reach the players' page on a phone, as JSON.

    python tests/bench/phone_page.py [--reports 200]

The organiser's gadget runs here as the kiosk runs it: its real loop on this thread (SDL's dummy
video driver, 800×480, the EVENT screen drawn after every message), its ``EventSession`` on an
in-process broker (``drivers.broker.MemoryBroker``, so no network stack is timed but the page's
own) and the players' page served by ``drivers.page.PageServer`` on 127.0.0.1.  A headless
chromium (Debian's, through chromedriver) has the page open, as a phone would.

A thread standing in for table2 sends ``--reports`` reports of its group, one at a time, each a
newer account than the last: one player gone, then none (an undo), and so on.  Each is timed
from the moment the table hands it to the broker to the moment the page's standings show it:
a ``MutationObserver`` in the page notes the time (``Date.now()``, the same system clock as
``time.time()`` here) when the row of the player who left changes.  The path timed: the broker's
queue, the kiosk waking and folding the report, the EVENT screen redrawn, the snapshot handed to
the server, made in English on its thread and sent as a Server-Sent Event, and the page parsing
it and drawing the page again.  Needs chromium and chromium-driver.

- **idle_cpu_share**: then, with three more phones' streams open beside the browser's (one per
  language) and no news for ``--idle`` seconds, the processor time this process (the kiosk's loop,
  its session and the page's server) used, as a share of one core.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parents[1]), str(HERE.parent), str(HERE.parent / "display")]

import pygame  # noqa: E402

from browser import MISSING, chromium  # noqa: E402
from device.controller import Controller  # noqa: E402
from device.event_link import EventSession, report_topic  # noqa: E402
from device.journal import Journal  # noqa: E402
from device.translations import LANGUAGES  # noqa: E402
from display.fonts import Fonts  # noqa: E402
from display.kiosk import Kiosk  # noqa: E402
from display.targets import OffscreenTarget  # noqa: E402
from drivers.broker import MemoryBroker  # noqa: E402
from drivers.page import PageServer  # noqa: E402
from phone_event import played, table2  # noqa: E402
from scenes_event import drawn  # noqa: E402

#: Notes when the watched player's row in the standings changes, and what it says then.
OBSERVE = """
window.seen = [];
const watch = () => {
  const row = [...document.querySelectorAll('#standings tr')].find(r => r.children[1]?.textContent === arguments[0]);
  return row ? row.children[2].textContent : null;
};
let last = watch();
new MutationObserver(() => {
  const now = watch();
  if (now !== last) { last = now; window.seen.push([Date.now(), now]); }
}).observe(document.getElementById('standings'), {childList: true, subtree: true, characterData: true});
"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def idle_share(port: int, seconds: float) -> float:
    """The share of a core this process uses over ``seconds`` with no news and three more
    streams open (Russian, Japanese, Polish)."""
    import urllib.request

    streams = [
        urllib.request.urlopen(f"http://127.0.0.1:{port}/events?lang={lang}", timeout=5)
        for lang in ("ru", "ja", "pl")
    ]
    try:
        for stream in streams:
            while not stream.readline().startswith(b"data: "):
                pass
        cpu, wall = time.process_time(), time.monotonic()
        time.sleep(seconds)
        return (time.process_time() - cpu) / (time.monotonic() - wall)
    finally:
        for stream in streams:
            stream.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, default=200)
    parser.add_argument("--idle", type=float, default=10.0)
    args = parser.parse_args(argv)
    if MISSING:
        print(json.dumps({"skipped": MISSING}))
        return 1
    pygame.display.init()
    with tempfile.TemporaryDirectory() as folder, Journal(Path(folder) / "j.sqlite3") as journal:
        broker = MemoryBroker()
        controller = Controller(journal, rng=random.Random(1))
        kiosk = Kiosk(
            controller, OffscreenTarget((800, 480)), language="en", fonts=Fonts(system=False)
        )
        session = EventSession(
            controller,
            broker.link(kiosk.inputs, "organiser"),
            "organiser",
            broker="memory",
            join="Spring",
        )
        kiosk.attach_event(session)
        session.start()
        server = PageServer(0, host="127.0.0.1", languages=LANGUAGES)
        server.start()
        kiosk.attach_page(server)
        plan = drawn(broker)
        kiosk.settle()
        group = table2(plan)
        gone = group.players[1]
        latencies: list[float] = []
        idle: list[float] = []
        failed: list[BaseException] = []

        def table() -> None:
            try:
                with chromium() as browser:
                    browser.get(f"http://127.0.0.1:{server.port}/")
                    for _ in range(500):
                        if browser.execute_script(
                            "return document.querySelectorAll('#standings tr').length > 0"
                        ):
                            break
                        time.sleep(0.01)
                    browser.execute_script(OBSERVE, gone)
                    for n in range(args.reports):
                        report = played(plan, group, [(1,)] if n % 2 == 0 else [], revision=n + 2)
                        sent = time.time()
                        broker.publish(
                            "table2",
                            report_topic(plan.event, report),
                            report.model_dump_json().encode(),
                        )
                        while not (seen := browser.execute_script("return window.seen.splice(0)")):
                            time.sleep(0.001)
                        shown, text = seen[-1]
                        assert text.endswith("left in round 1") == (n % 2 == 0), text
                        latencies.append(shown - sent * 1000)
                    idle.append(idle_share(server.port, args.idle))
            except BaseException as error:
                failed.append(error)
            finally:
                kiosk.stop()

        worker = threading.Thread(target=table)
        worker.start()
        kiosk.run()
        worker.join()
        server.stop()
        session.stop()
        if failed:
            raise failed[0]
    print(
        json.dumps(
            {
                "reports": len(latencies),
                "idle_cpu_share": round(idle[0], 5),
                "report_to_page_ms": {
                    "median": round(statistics.median(latencies), 1),
                    "p99": round(percentile(latencies, 0.99), 1),
                    "max": round(max(latencies), 1),
                },
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        sys.exit(main())
