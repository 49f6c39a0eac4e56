"""PC-12, CT-6, HW-2: ``aetherbox console --reader``: taps on a real (pty) reader reach the
controller between typed lines, and unplugging the reader mid-game loses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import Terminal
from helpers import Pty

from display import cli
from device.config import Config, load
from device.tagmap import TagMap
from drivers.rfid import rdm6300_frame

EON = bytes.fromhex("0F002C6D8A")
AUTO_KEY = bytes.fromhex("0F002C6D8B")
STRANGER = bytes.fromhex("0F002C6D8C")


@pytest.fixture
def enrolled(tmp_path: Path) -> Path:
    """A configuration naming the reader's protocol, and a tag map with a plane and a contraption."""
    config = tmp_path / "config.toml"  # where tests/conftest.py points AETHERBOX_CONFIG
    config.write_text('[reader]\nprotocol = "rdm6300"\npresence_timeout = 0.2\n', encoding="utf-8")
    tags = TagMap(load().config.tag_map_path())
    tags.add(EON.hex(), "The Eon Fog")
    tags.add(AUTO_KEY.hex(), "Auto-Key")
    return tmp_path / "journal.sqlite3"


def test_pc12_ct6_tapped_cards_go_through_the_controller(
    terminal: Terminal, pty: Pty, enrolled: Path
) -> None:
    """An enrolled plane or contraption tapped in a game without those modules is refused with
    the controller's reason; an unknown tag says to enrol it."""
    terminal.start(
        lambda: cli.main(["console", "--reader", pty.path, "--db", str(enrolled), "--seed", "1"])
    )
    terminal.expect(f"reader connected: {pty.path} (rdm6300)\n")
    terminal.type("new A B first=A")
    terminal.expect("New game (Free-for-all) for A, B, 20 life. A goes first.\n")
    pty.send(rdm6300_frame(EON) * 4)  # held: one tap
    terminal.expect("refused: The Eon Fog (plane) has no part in this game right now.\n")
    pty.send(rdm6300_frame(AUTO_KEY) * 2)  # a tag counts when two reads agree
    terminal.expect("refused: Auto-Key (contraption) has no part in this game right now.\n")
    pty.send(rdm6300_frame(STRANGER) * 2)
    terminal.expect("card read: Unknown card (tag 0F:00:2C:6D:8C): enrol it to use it.\n")
    terminal.type("life A -2")
    terminal.expect("A: 20 → 18 life.\n")
    terminal.end_input()
    assert terminal.wait() == 0
    assert terminal.screen.text.count("has no part") == 2  # the held tag was one tap


def test_hw2_unplug_and_replug_mid_game_loses_nothing(
    terminal: Terminal, enrolled: Path, tmp_path: Path
) -> None:
    """The port is a symlink, as udev makes one; closing the pty's master pulls the cable."""
    first, second = Pty(), Pty()
    link = tmp_path / "ttyREADER"
    link.symlink_to(first.path)
    try:
        terminal.start(
            lambda: cli.main(
                ["console", "--reader", str(link), "--db", str(enrolled), "--seed", "1"]
            )
        )
        terminal.expect(f"reader connected: {link} (rdm6300)\n")
        terminal.type("new A B first=A")
        terminal.expect("A goes first.\n")
        terminal.type("life B -5")
        terminal.expect("B: 20 → 15 life.\n")
        first.send(rdm6300_frame(EON) * 2)
        terminal.expect("refused: The Eon Fog (plane) has no part in this game right now.\n")
        first.close()  # unplugged, with the card still on it
        terminal.expect("reader disconnected: ")
        terminal.type("life A -1")  # the game goes on without the reader
        terminal.expect("A: 20 → 19 life.\n")
        link.unlink()
        link.symlink_to(second.path)  # plugged back in
        terminal.expect(f"reader connected: {link} (rdm6300)\n")
        second.send(rdm6300_frame(AUTO_KEY) * 2)
        terminal.expect("refused: Auto-Key (contraption) has no part in this game right now.\n")
        terminal.type("show")
        shown = terminal.expect("B: 15 life")
        assert "A: 19 life" in shown
        terminal.type("undo")
        terminal.expect("Undone: A: 20 → 19 life.\n")
        terminal.end_input()
        assert terminal.wait() == 0
    finally:
        first.close()
        second.close()


def test_console_with_the_fake_reader_says_it_is_simulated(
    terminal: Terminal, enrolled: Path
) -> None:
    terminal.start(lambda: cli.main(["console", "--reader", "fake", "--db", str(enrolled)]))
    terminal.expect("reader connected: fake (fake, simulated reader)\n")
    terminal.type("new A B first=A")
    terminal.type("tag 0f002c6d8a")  # the console's own way to name a tag still works
    terminal.expect("refused: The Eon Fog (plane) has no part in this game right now.\n")
    terminal.end_input()
    assert terminal.wait() == 0


def test_reader_configuration_defaults_and_bad_values(tmp_path: Path) -> None:
    assert Config().reader.protocol == "auto" and Config().reader.port is None
    path = tmp_path / "bad.toml"
    path.write_text('[reader]\nprotocol = "rdm9000"\n', encoding="utf-8")
    loaded = load(path)
    assert loaded.config.reader.protocol == "auto"
    assert len(loaded.warnings) == 1 and "'reader.protocol'" in loaded.warnings[0]


def test_ct6_tapping_an_enrolled_contraption_assembles_it(
    terminal: Terminal, pty: Pty, enrolled: Path
) -> None:
    """CT-6, HW-2: with physical contraption cards, the frame of an enrolled contraption written to
    the reader's port assembles it through the controller; a sprocket choice finishes it."""
    terminal.start(
        lambda: cli.main(["console", "--reader", pty.path, "--db", str(enrolled), "--seed", "1"])
    )
    terminal.expect(f"reader connected: {pty.path} (rdm6300)\n")
    terminal.type("new ffa+contraptions A B first=A contraption_cards=physical")
    terminal.expect("A goes first.\n")
    pty.send(rdm6300_frame(AUTO_KEY) * 3)  # held on the reader: one tap
    terminal.expect("Auto-Key for A: choose its sprocket.\n")
    terminal.type("sprocket 2")
    terminal.expect("A assembles Auto-Key onto A's sprocket 2.\n")
    terminal.type("state")
    state = terminal.expect("\n")
    terminal.end_input()
    assert terminal.wait() == 0
    assert '"Auto-Key"' in state
    assert terminal.screen.text.count("choose its sprocket") == 1
