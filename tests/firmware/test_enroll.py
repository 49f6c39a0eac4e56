"""HW-3 enrolment: tapping cards on a reader (a pty) builds the tag map."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from harness import Terminal
from helpers import Pty

from display import cli
from device.tagmap import TagMap
from drivers.rfid import rdm6300_frame
from drivers.rfid.line import gone_line, tag_line
from firmware_tools import enroll

EON_TAG = bytes.fromhex("0F002C6D8A")
TAZ_TAG = bytes.fromhex("0F002C6D8B")


def lines_of(path: Path) -> list[str]:
    return [
        line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("#")
    ]


def test_hw3_tap_search_confirm_writes_the_tag_map(
    terminal: Terminal, pty: Pty, tmp_path: Path
) -> None:
    """Tap a card, type the start of its name, confirm: the tag map file has the line."""
    tags = tmp_path / "tags.txt"
    terminal.start(
        lambda: enroll.main(["--port", pty.path, "--protocol", "rdm6300", "--tags", str(tags)])
    )
    terminal.expect(f"Tag map: {tags} (0 tags).")
    terminal.expect(f"reader connected: {pty.path} (rdm6300)")
    terminal.expect("Tap a card on the reader, or type its tag UID (an empty line ends): ")
    pty.send(rdm6300_frame(EON_TAG) * 3)  # held for a moment: still one tap
    terminal.expect("Tag 0F:00:2C:6D:8A read.")
    terminal.expect("Card name (type the start of it; an empty line skips this tag): ")
    terminal.type("eon")
    shown = terminal.expect("Pick a number, or type more of the name: ")
    assert "  1 The Eon Fog (plane)\n  2 Bowie Base One (plane)\n" in shown
    terminal.type("1")
    terminal.expect("Enrol tag 0F:00:2C:6D:8A as The Eon Fog (plane)? [Y/n] ")
    terminal.type("")
    terminal.expect("Enrolled: 0F:00:2C:6D:8A is The Eon Fog.")
    terminal.expect("Tap a card on the reader")
    pty.send(b"\x02garbage\x03" + rdm6300_frame(TAZ_TAG) * 2)
    terminal.expect("Tag 0F:00:2C:6D:8B read.")
    terminal.type("taz")  # one match: no list, straight to the question
    terminal.expect("Enrol tag 0F:00:2C:6D:8B as Tazeem (plane)? [Y/n] ")
    terminal.type("y")
    terminal.expect("Enrolled: 0F:00:2C:6D:8B is Tazeem.")
    terminal.expect("Tap a card")
    terminal.type("")
    terminal.expect(f"Done: 2 enrolled, 0 skipped; {tags} has 2 tags.")
    assert terminal.wait() == 0
    assert lines_of(tags) == ["0F:00:2C:6D:8A  The Eon Fog", "0F:00:2C:6D:8B  Tazeem"]
    assert TagMap(tags).lookup("0f002c6d8a") is not None


def test_hw3_retapping_an_enrolled_tag_says_what_it_is_and_offers_to_replace(
    terminal: Terminal, pty: Pty, tmp_path: Path
) -> None:
    tags = tmp_path / "tags.txt"
    TagMap(tags).add("0F002C6D8A", "The Eon Fog")
    terminal.start(
        lambda: enroll.main(["--port", pty.path, "--protocol", "rdm6300", "--tags", str(tags)])
    )
    terminal.expect("reader connected")
    terminal.expect("Tap a card")
    pty.send(rdm6300_frame(EON_TAG) * 2)  # a tag counts when two reads agree
    terminal.expect("Tag 0F:00:2C:6D:8A is already The Eon Fog. Replace it? [y/N] ")
    terminal.type("")
    terminal.expect("Kept: 0F:00:2C:6D:8A is The Eon Fog.")
    terminal.expect("Tap a card")
    terminal.type("0f:00:2c:6d:8a")  # typed instead of tapped: the same question
    terminal.expect("Tag 0F:00:2C:6D:8A is already The Eon Fog. Replace it? [y/N] ")
    terminal.type("y")
    terminal.expect("Card name")
    terminal.type("academy")
    terminal.expect("Enrol tag 0F:00:2C:6D:8A as Academy at Tolaria West (plane)? [Y/n] ")
    terminal.type("yes")
    terminal.expect("Enrolled: 0F:00:2C:6D:8A is Academy at Tolaria West.")
    terminal.end_input()
    terminal.expect(f"Done: 1 enrolled, 0 skipped; {tags} has 1 tags.")
    assert terminal.wait() == 0
    assert lines_of(tags) == ["0F:00:2C:6D:8A  Academy at Tolaria West"]


def test_hw3_deck_in_order_over_the_bridge_line_protocol(
    terminal: Terminal, pty: Pty, tmp_path: Path
) -> None:
    """--deck names each card in turn; the next tag tapped is that card.  A tag already
    enrolled as another card is only replaced when the person says so."""
    tags = tmp_path / "tags.txt"
    deck = tmp_path / "deck.txt"
    deck.write_text("# my planar deck\ntazeem\n\nThe Eon Fog\nauto-key\n", encoding="utf-8")
    terminal.start(
        lambda: enroll.main(
            ["--port", pty.path, "--protocol", "line", "--tags", str(tags), "--deck", str(deck)]
        )
    )
    terminal.expect(
        "Enrolling 3 cards in order. Tap each card when it is named; type s to skip one, or an empty line to stop."
    )
    terminal.expect(f"reader connected: {pty.path} (line)")
    terminal.expect("[1/3] Tap Tazeem: ")
    pty.send(tag_line("04A1B2C3D4E5F6") * 2)
    terminal.expect("Enrolled: 04:A1:B2:C3:D4:E5:F6 is Tazeem.")
    terminal.expect("[2/3] Tap The Eon Fog: ")
    pty.send(
        gone_line("04A1B2C3D4E5F6") + tag_line("04A1B2C3D4E5F6")
    )  # the same card again, by mistake
    terminal.expect(
        "Tag 04:A1:B2:C3:D4:E5:F6 is already Tazeem. Replace it with The Eon Fog? [y/N] "
    )
    terminal.type("n")
    terminal.expect("Kept: 04:A1:B2:C3:D4:E5:F6 is Tazeem. Tap another tag for The Eon Fog.")
    terminal.expect("[2/3] Tap The Eon Fog: ")
    pty.send(gone_line("04A1B2C3D4E5F6") + tag_line("04A1B2C3D4E5F7"))
    terminal.expect("Enrolled: 04:A1:B2:C3:D4:E5:F7 is The Eon Fog.")
    terminal.expect("[3/3] Tap Auto-Key: ")
    terminal.type("s")
    terminal.expect(f"Done: 2 enrolled, 1 skipped; {tags} has 2 tags.")
    assert terminal.wait() == 0
    assert lines_of(tags) == ["04:A1:B2:C3:D4:E5:F6  Tazeem", "04:A1:B2:C3:D4:E5:F7  The Eon Fog"]


def test_hw3_a_set_with_the_fake_reader_and_typed_uids(terminal: Terminal, tmp_path: Path) -> None:
    """--set OPC2 goes through the set in catalog order; an empty line stops early."""
    tags = tmp_path / "tags.txt"
    terminal.start(lambda: cli.main(["enroll", "--fake", "--set", "opc2", "--tags", str(tags)]))
    terminal.expect("Enrolling 40 cards in order.")
    terminal.expect("reader connected: fake (fake, simulated reader)")
    terminal.expect("[1/40] Tap Akoum: ")
    terminal.type("not a uid")
    terminal.expect(
        "'not a uid' is not a tag UID: expected hex bytes such as 04:A1:B2:C3; tap a card or type a tag UID."
    )
    terminal.type("AA-BB-CC-DD")
    terminal.expect("Enrolled: AA:BB:CC:DD is Akoum.")
    terminal.expect("[2/40] Tap Aretopolis: ")
    terminal.type("")
    terminal.expect(f"Done: 1 enrolled, 0 skipped; {tags} has 1 tags.")
    assert terminal.wait() == 0


def test_contraptions_and_all_planes_decks_are_the_catalog_in_order() -> None:
    from device.catalog import load_catalog

    catalog = load_catalog()
    parser = __import__("argparse").ArgumentParser()
    enroll.add_arguments(parser)
    assert enroll.deck_cards(parser.parse_args(["--contraptions"]), catalog) == list(
        catalog.contraptions()
    )
    assert enroll.deck_cards(parser.parse_args(["--all-planes"]), catalog) == list(catalog.planar())
    assert enroll.deck_cards(parser.parse_args([]), catalog) is None


def test_a_deck_list_with_unknown_names_is_refused_before_anything_is_enrolled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("Tazeem\nTazem\nNo Such Plane\n", encoding="utf-8")
    assert enroll.main(["--fake", "--deck", str(deck), "--tags", str(tmp_path / "t.txt")]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "aetherbox: error: the deck list has problems:",
        f"  {deck}:2: No plane, phenomenon or contraption is called 'Tazem'. Did you mean Tazeem? Check the spelling or type the start of the name.",
        f"  {deck}:3: No plane, phenomenon or contraption is called 'No Such Plane': check the spelling or type the start of the name.",
    ]
    assert not (tmp_path / "t.txt").exists()


def test_an_unknown_set_names_the_sets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert enroll.main(["--fake", "--set", "XYZ", "--tags", str(tmp_path / "t.txt")]) == 1
    assert capsys.readouterr().err == (
        "aetherbox: error: No planar cards in set 'XYZ'. Sets with planar cards: "
        "OHOP, OPCA, PHOP, MOC, OPC2, WHO, PUNK, PSSC.\n"
    )


def test_hw3_the_simulated_reader_is_reported_before_the_first_prompt_which_is_asked_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The simulated reader says it is connected as soon as it starts: that line comes before
    the first question rather than breaking into it, so the question is printed once.  (Input
    from a file is not echoed, so answers do not show; an empty line ends.)"""
    tags = tmp_path / "tags.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO("aa:bb:cc:dd\ntaz\n\n\n"))  # typed, not tapped
    assert cli.main(["enroll", "--fake", "--tags", str(tags)]) == 0
    tap = "Tap a card on the reader, or type its tag UID (an empty line ends): "
    assert capsys.readouterr().out.splitlines() == [
        f"Tag map: {tags} (0 tags).",
        "reader connected: fake (fake, simulated reader)",
        f"{tap}Card name (type the start of it; an empty line skips this tag): "
        "Enrol tag AA:BB:CC:DD as Tazeem (plane)? [Y/n] Enrolled: AA:BB:CC:DD is Tazeem.",
        f"{tap}Done: 1 enrolled, 0 skipped; {tags} has 1 tags.",  # the empty line typed, not echoed
    ]


def test_hw3_a_deck_with_the_simulated_reader_names_the_first_card_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tags = tmp_path / "tags.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["enroll", "--fake", "--set", "opc2", "--tags", str(tags)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"Tag map: {tags} (0 tags).",
        "Enrolling 40 cards in order. Tap each card when it is named; type s to skip one, or an empty line to stop.",
        "reader connected: fake (fake, simulated reader)",
        "[1/40] Tap Akoum: ",  # the input ended here: the summary starts a line of its own
        f"Done: 0 enrolled, 0 skipped; {tags} has 0 tags.",
    ]
