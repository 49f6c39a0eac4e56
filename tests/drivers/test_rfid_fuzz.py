"""HW-2 reader frames: random bytes, valid frames and garbled ones give no false card.

The fuzz itself is tests/reader_fuzz.py.  The suite feeds 50,000 random bytes per protocol;
``AETHERBOX_READER_FUZZ_BYTES=1000000`` (what ``python tests/bench/reader.py`` runs and prints)
feeds the full count.
"""

from __future__ import annotations

import os

import pytest
from reader_fuzz import PROTOCOLS, fuzz

RANDOM_BYTES = int(os.environ.get("AETHERBOX_READER_FUZZ_BYTES", "50000"))


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_hw2_fuzz_gives_no_false_card_and_every_held_tag_is_one_tap(protocol: str) -> None:
    figures = fuzz(protocol, RANDOM_BYTES)
    assert figures.random_bytes == RANDOM_BYTES
    assert figures.false_cards == 0
    assert figures.taps == figures.held  # one tap per hold, no second taps, none missed
    assert figures.valid_frames_through == figures.valid_frames
    assert min(figures.garbled.values()) > 100


@pytest.mark.parametrize("protocol", ["rdm6300", "id12", "pn532"])
def test_hw2_fuzz_garbled_frames_pass_weak_checksums_and_two_reads_stop_them(protocol: str) -> None:
    """The stream does hold garbled frames that the XOR or sum lets through: with one read
    counting, each of them would be a false card."""
    figures = fuzz(protocol, RANDOM_BYTES)
    assert figures.garbled_through_checksum > 0
    one_read = fuzz(protocol, RANDOM_BYTES, reads_to_confirm=1)
    assert one_read.false_cards == figures.garbled_through_checksum
    assert figures.false_cards == 0


def test_hw2_fuzz_no_garbled_bridge_line_passes_its_crc() -> None:
    figures = fuzz("line", RANDOM_BYTES, reads_to_confirm=1)
    assert figures.garbled_through_checksum == 0 and figures.false_cards == 0
    assert figures.taps == figures.held
