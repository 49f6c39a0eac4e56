"""Frame figures.  Run: python tests/bench/frame.py [--samples N] [--others]

Prints JSON: how long ``display.render.render`` takes to draw a frame whose state changed, on a
real ``Canvas`` over an SDL dummy-driver surface, for the table (a life total changed), the
Planechase screen after a roll (the die's result, the roll log, the cost), the same with the
plane's picture (card data with pictures; decoded and scaled in the untimed first frame) and the
adjust screen (the encoder turned), the table with its seats facing their players (each tile
drawn turned; a life total changed), at 800×480, 480×320 and 1920×1080, in English and Japanese:
median and 99th percentile in milliseconds over ``--samples`` frames (200 by default, at least
200).

Each sample changes the game or the UI state through the kiosk's own path (a command executed,
a button press or an encoder turn dispatched), then times one ``render`` call, which draws again
only where the frame changed (``Canvas.frame``); the drawn pixels are compared with the frame
before, and a sample that drew the same pixels stops the run.

``turned_present_ms``: what ``[display] rotate`` adds to each frame — ``Rotated.present`` turning
the drawn picture onto the panel (the Touch Display 2's 720×1280 turned 90°, a 3.5-inch
480×320 panel turned 180°); each sample checks the panel shows the picture's corner turned.

``planeswalk_ms``: a roll that shows the planeswalker symbol (``RollPlanarDie(pip=6)``, as a
table that rolls its own die enters it), from ``Kiosk.execute`` to the frame drawn, in a
Planechase game of four players with their own decks: with rules text for every plane and
phenomenon (``tests/planetext.py``; each planeswalk's text is new to the process, so nothing of
it was laid out by an earlier sample) and without card data, side by side, at 320×240,
480×320, 800×480 and 1920×1080 in English and Japanese; median, p99 and the slowest of
``--samples`` planeswalks, and the ratio of the medians.  Between samples, untimed, the loop's
idle work runs as it does before the kiosk sleeps (``Kiosk.idle``: it lays out what the next
planeswalk shows); a phenomenon is resolved, and the turn passes every fifth roll.  Each sample
checks the frame names the plane turned over.  ``rules text, not laid out ahead`` is the same
without that idle work: what laying out a plane's text costs the frame that first shows it.

``--others`` adds every other screenshot scene at 800×480 in English: the median of drawing
the scene's frame again (``others_ms``; the state does not change, so text is measured and
rendered as in the frame before) and its first frame on a fresh kiosk (``others_first_ms``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

HERE = Path(__file__).resolve().parent
sys.path[:0] = [
    str(HERE.parents[1]),
    str(HERE.parent / "display"),
    str(HERE.parent),
]  # this checkout's code; the scenes

import pygame  # noqa: E402
from figures import percentile  # noqa: E402

from device.commands import Advance, ChangeLife, ChangePoison, NewGame  # noqa: E402
from device.controller import Controller  # noqa: E402
from device.inputs import Button  # noqa: E402
from device.journal import Journal  # noqa: E402
from device.rules.planechase.commands import AcknowledgePhenomenon, RollPlanarDie  # noqa: E402
from device.tagmap import TagMap  # noqa: E402
from display import cardtext  # noqa: E402
from display import render as render_module  # noqa: E402
from display.fonts import Fonts  # noqa: E402
from display.kiosk import Kiosk  # noqa: E402
from display.targets import OffscreenTarget, Rotated  # noqa: E402
from display.ui import Press, Turn  # noqa: E402
from planetext import planar_cards, rules_text  # noqa: E402
from scenes import PLAYERS, SAMPLE_TEXT, SCENES  # noqa: E402

SIZES = ((800, 480), (480, 320), (1920, 1080))
PLANESWALK_SIZES = ((320, 240), (480, 320), (800, 480), (1920, 1080))
LANGUAGES = ("en", "ja")
CLOCK = 1000.0


@contextmanager
def kiosks(directory: Path) -> Iterator[Callable[[tuple[int, int], str], Kiosk]]:
    """``make(size, language)``: a kiosk on a fresh journal, with the card data the screenshot
    scenes use (the plane Tazeem has rules text, and its tag is enrolled)."""
    journals: list[Journal] = []
    fonts = Fonts()
    cardtext.configure(directory, imported=False)

    def sample_text(name: str) -> str | None:
        return SAMPLE_TEXT if name == "Tazeem" else None

    cardtext.PROVIDERS.append(sample_text)
    (directory / "tags.txt").write_text("04A1B2C3  Tazeem\n", encoding="utf-8")

    def make(size: tuple[int, int], language: str) -> Kiosk:
        journal = Journal(directory / f"j{len(journals)}" / "aetherbox.sqlite3")
        journals.append(journal)
        controller = Controller(journal, rng=random.Random(7), tags=TagMap(directory / "tags.txt"))
        return Kiosk(
            controller,
            OffscreenTarget(size),
            language=language,
            fonts=fonts,
            clock=lambda: CLOCK,
            wall=lambda: 1.7e9,
        )

    try:
        yield make
    finally:
        for journal in journals:
            journal.close()
        cardtext.PROVIDERS.remove(sample_text)
        cardtext.configure(None)


def draw(kiosk: Kiosk) -> float:
    """One frame through ``render``, as the kiosk's redraw draws it; seconds it took."""
    start = time.perf_counter()
    render_module.render(kiosk.canvas, kiosk.state, kiosk.ui, kiosk.tr, now=kiosk.now(), wall=1.7e9)
    return time.perf_counter() - start


def pixels(kiosk: Kiosk) -> bytes:
    return pygame.image.tobytes(kiosk.canvas.surface, "RGB")


# --- what changes between samples ---------------------------------------------------------


def table_change(kiosk: Kiosk, rng: random.Random) -> Callable[[int], None]:
    SCENES["table"](kiosk)
    return life_walk(kiosk, rng)


def life_walk(kiosk: Kiosk, rng: random.Random) -> Callable[[int], None]:
    """A life total changed each frame, on a seat still in the game."""

    def change(sample: int) -> None:
        state = kiosk.state
        assert state is not None
        seat = rng.choice([p.seat for p in state.players if p.in_game])
        life = state.player(seat).life
        delta = rng.choice((1, 2, 3, 5)) * (1 if life < 30 else -1)  # a walk that stays in the game
        kiosk.execute(ChangeLife(seat=seat, delta=delta))

    return change


def facing_change(kiosk: Kiosk, rng: random.Random) -> Callable[[int], None]:
    """The table with its seats facing their players (each tile drawn turned), a life total
    changed each frame."""
    players = ("Alice", "Юрий", "さくら", "Łukasz")
    kiosk.execute(
        NewGame(
            formats=("commander",),
            players=players,
            first=players[0],
            options={"seats_facing": "on"},
        )
    )
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.execute(ChangePoison(seat=2, delta=3, source=1))
    return life_walk(kiosk, rng)


def planechase_change(
    kiosk: Kiosk, rng: random.Random, scene: str = "planechase"
) -> Callable[[int], None]:
    """A roll, then UNDO before the next one (so the cost stays what a turn's rolls cost): every
    timed frame is a roll's result, each with a fresh result from the die."""
    SCENES[scene](kiosk)

    def change(sample: int) -> None:
        if sample:
            kiosk.dispatch(Press(Button.UNDO))
            draw(kiosk)  # the frame the undo shows, untimed: the timed one changes from it
        kiosk.dispatch(Press(Button.ROLL))

    return change


def adjust_change(kiosk: Kiosk, rng: random.Random) -> Callable[[int], None]:
    SCENES["adjust"](kiosk)
    amount = [0]

    def change(sample: int) -> None:
        step = rng.choice((-1, 1, 2, -2, 5, -5))
        if amount[0] + step == 0 or abs(amount[0] + step) > 30:
            step = -step
        amount[0] += step
        kiosk.dispatch(Turn(step))

    return change


def planechase_art_change(kiosk: Kiosk, rng: random.Random) -> Callable[[int], None]:
    """The same with card data that has the plane's picture (the screenshot scene ``pc-art``):
    the picture drawn large beside the plane's name in every frame."""
    return planechase_change(kiosk, rng, "pc-art")


#: The art scene points the kiosk at card data with pictures from then on: it comes last.
CHANGES: dict[str, Callable[[Kiosk, random.Random], Callable[[int], None]]] = {
    "table": table_change,
    "planechase": planechase_change,
    "adjust": adjust_change,
    "table, seats facing": facing_change,
    "planechase with its picture": planechase_art_change,
}


def changed_frames(
    make: Callable[[tuple[int, int], str], Kiosk],
    screen: str,
    size: tuple[int, int],
    language: str,
    samples: int,
) -> dict[str, float]:
    kiosk = make(size, language)
    change = CHANGES[screen](kiosk, random.Random(11))
    draw(kiosk)
    times: list[float] = []
    for sample in range(samples):
        change(sample)
        if screen == "adjust":
            assert kiosk.ui.screen == "adjust", kiosk.ui.screen
        before = pixels(kiosk)  # the last frame drawn, still on the surface
        elapsed = draw(kiosk)
        if pixels(kiosk) == before:
            raise SystemExit(
                f"frame.py: sample {sample} of {screen} {size} {language} drew the frame before it"
            )
        times.append(elapsed * 1000)
    return {"median": round(statistics.median(times), 3), "p99": round(percentile(times, 0.99), 3)}


def planeswalk_frames(
    make: Callable[[tuple[int, int], str], Kiosk],
    size: tuple[int, int],
    language: str,
    samples: int,
    text: bool,
    ahead: bool = True,
) -> dict[str, float]:
    """``planeswalk_ms`` for one size and language, with or without card text, with or without
    the idle work that lays out the next planeswalk ahead (see the docstring)."""
    visit = [0]
    planar = planar_cards()

    def provider(name: str) -> str | None:
        return rules_text(f"{name} #{visit[0]}", planar[name]) if text and name in planar else None

    cardtext.PROVIDERS.insert(0, provider)
    try:
        kiosk = make(size, language)
        kiosk.execute(
            NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0])
        )
        kiosk.execute(Advance())  # the main phase: the die may be rolled
        draw(kiosk)
        times: list[float] = []
        for sample in range(samples):
            state = kiosk.state
            assert state is not None and state.planechase is not None
            if state.planechase.encounter:
                kiosk.execute(AcknowledgePhenomenon())
                draw(kiosk)
            if sample % 5 == 4:  # a new turn: the cost of a roll starts again
                while kiosk.state is not None and kiosk.state.active == state.active:
                    kiosk.execute(Advance())
                kiosk.execute(Advance())
                draw(kiosk)
            visit[0] += 1
            if ahead:
                kiosk.idle()  # as the loop does before it sleeps
            kiosk.execute(RollPlanarDie(pip=6))
            times.append(draw(kiosk) * 1000)
            after = kiosk.state
            assert after is not None and after.planechase is not None
            shown = [card.name for card in after.planechase.face_up]
            drawn = [line.text.rstrip("…").rstrip() for line in kiosk.canvas.drawn]
            if not any(
                len(line) >= 3 and name.startswith(line) for name in shown for line in drawn
            ):
                raise SystemExit(
                    f"frame.py: planeswalk {sample} {size} {language} did not show {shown}"
                )
        return {
            "median": round(statistics.median(times), 3),
            "p99": round(percentile(times, 0.99), 3),
            "slowest": round(max(times), 3),
        }
    finally:
        cardtext.PROVIDERS.remove(provider)


def other_frames(
    make: Callable[[tuple[int, int], str], Kiosk], samples: int
) -> tuple[dict[str, float], dict[str, float]]:
    again: dict[str, float] = {}
    first: dict[str, float] = {}
    for name, scene in SCENES.items():
        kiosk = make((800, 480), "en")
        scene(kiosk)
        first[name] = round(draw(kiosk) * 1000, 3)
        again[name] = round(statistics.median(draw(kiosk) * 1000 for _ in range(samples)), 3)
    return again, first


def turned_present(size: tuple[int, int], degrees: int, samples: int) -> dict[str, float]:
    """``Rotated.present`` onto an offscreen panel of ``size``, each sample with the picture's
    top-left corner in another colour, checked where the turn puts it on the panel."""
    panel = OffscreenTarget(size)
    turned = Rotated(panel, degrees)
    width, height = size
    corner = {90: (width - 1, 0), 180: (width - 1, height - 1), 270: (0, height - 1)}[degrees]
    times: list[float] = []
    for sample in range(samples):
        colour = (sample % 200 + 30, 80, 160)
        turned.surface.fill((0, 0, 0))
        turned.surface.fill(colour, (0, 0, 4, 4))
        began = time.perf_counter()
        turned.present()
        times.append((time.perf_counter() - began) * 1000)
        if tuple(panel.surface.get_at(corner))[:3] != colour:
            raise SystemExit(
                f"frame.py: sample {sample} of the {degrees}° turn did not reach the panel's corner"
            )
    return {"median": round(statistics.median(times), 3), "p99": round(percentile(times, 0.99), 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--others", action="store_true")
    args = parser.parse_args(argv)
    if args.samples < 200:
        parser.error("--samples: at least 200, for a 99th percentile")
    pygame.display.init()
    figures: dict[str, object] = {"samples": args.samples}
    with tempfile.TemporaryDirectory() as directory, kiosks(Path(directory)) as make:
        changed: dict[str, dict[str, float]] = {}
        for screen in CHANGES:
            for width, height in SIZES:
                for language in LANGUAGES:
                    changed[f"{screen} {width}x{height} {language}"] = changed_frames(
                        make, screen, (width, height), language, args.samples
                    )
        figures["changed_frame_ms"] = changed
        walks: dict[str, dict[str, float]] = {}
        for width, height in PLANESWALK_SIZES:
            for language in LANGUAGES:
                plain = planeswalk_frames(make, (width, height), language, args.samples, text=False)
                texted = planeswalk_frames(make, (width, height), language, args.samples, text=True)
                unready = planeswalk_frames(
                    make, (width, height), language, args.samples, text=True, ahead=False
                )
                walks[f"{width}x{height} {language}"] = {
                    "rules text": texted,
                    "no card data": plain,
                    "rules text, not laid out ahead": unready,
                    "median ratio": round(texted["median"] / plain["median"], 2),
                }
        figures["planeswalk_ms"] = walks
        figures["turned_present_ms"] = {
            "720x1280 turned 90": turned_present((720, 1280), 90, args.samples),
            "480x320 turned 180": turned_present((480, 320), 180, args.samples),
        }
        if args.others:
            figures["others_ms"], figures["others_first_ms"] = other_frames(make, 50)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        raise SystemExit(main())
