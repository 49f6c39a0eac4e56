"""The kiosk benchmark's press figures (tests/bench/kiosk.py) are taken as its docstring says: a
tap's clock starts at the pin's release, so the debounce wait is in the figure, on a line of its
own; the budget is one 60 Hz frame + the flush's median; planeswalks are timed without and with
every plane's rules text (by default the bench's own, from tests/planetext.py), imported from a
card-data file through the project's own import."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from device.catalog import CardKind, load_catalog
from drivers.debounce import DEFAULT_WINDOW

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from kiosk import FRAME_60HZ_MS, Frame, _shows

ROOT = Path(__file__).resolve().parents[2]


def test_press_figures_start_at_the_act_and_planeswalks_are_timed_with_text(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tests" / "bench" / "kiosk.py"),
            "--samples",
            "2",
            "--planeswalks",
            "2",
            "--presses-only",
            str(tmp_path),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (
        abs(report["budget_ms"] - (report["flush_ms"]["median"] + FRAME_60HZ_MS)) <= 0.011
    )  # both rounded
    presses = report["press_to_frame_ms"]
    for tap in ("ROLL tap", "NEXT tap"):
        figures = presses[tap]
        # the release must hold for the debounce window before the tap is known
        assert figures["release_to_event"]["median"] >= DEFAULT_WINDOW * 1000
        assert (
            figures["total"]["median"]
            >= figures["release_to_event"]["median"] + figures["event_to_frame"]["median"] - 1
        )
        assert figures["total"]["samples"] == 2
    for key in ("ROLL key (Space)", "NEXT key (Enter)"):
        assert set(presses[key]) == {"key_to_event", "event_to_frame", "total"}
    assert set(presses["life −1 made"]) == {"total"}
    walks = report["ROLL_planeswalked_ms"]
    planes = sum(card.kind is CardKind.PLANE for card in load_catalog())
    assert f"communal deck of {planes} planes, every one with its rules text" in walks["how"]
    for series in ("without text", "with text"):
        assert walks[series]["total"]["samples"] == 2
        assert walks[series]["release_to_event"]["median"] >= DEFAULT_WINDOW * 1000


def frame(*texts: str) -> Frame:
    return Frame(0.0, 0.0, 1, 1, {}, None, ("Tazeem",), texts)


def test_a_planeswalk_frame_counts_only_if_it_drew_the_plane_and_its_text() -> None:
    text = "Creatures can't block.\nWhenever chaos ensues, draw a card for each land you control."
    assert _shows(frame("Tazeem", "Whenever chaos ensues, draw a card for each…"), "Tazeem", text)
    assert _shows(
        frame("Tazeem", "Creatures can't block.\nWhenever chaos ensues, draw a card for each land"),
        "Tazeem",
        text,
    )
    assert _shows(frame("Tazeem"), "Tazeem", None)
    assert not _shows(frame("Tazeem"), "Tazeem", text)  # the name without its text
    assert not _shows(
        frame("Bant", "Creatures can't block."), "Tazeem", text
    )  # the text, another name
    assert not _shows(
        frame("Tazeem", "Whenever chaos ensues, put a divinity counter…"), "Tazeem", text
    )
