"""HW-2 bridge firmware: the MFRC522 driver reads full type A UIDs, against a register model."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fake_rc522 import FakeRC522, Field, Tag, TagState

from firmware_tools.bridge import FILES, mfrc522
from firmware_tools.bridge.mfrc522 import (
    MFRC522,
    BadFrame,
    Collision,
    RC522Error,
    assemble_uid,
    crc_a,
)

UID4 = bytes.fromhex("DEADBEEF")
UID7 = bytes.fromhex("04A1B2C3D4E5F6")
UID10 = bytes.fromhex("08112233445566778899")


def chip_with(*tags: Tag) -> tuple[MFRC522, FakeRC522]:
    fake = FakeRC522(Field(list(tags)))
    chip = MFRC522(fake, fake.cs)
    assert chip.init() == 0x92
    return chip, fake


def test_crc_a_matches_the_standard_halt_frame() -> None:
    """ISO 14443-3: HLTA is 50 00 with CRC_A 57 CD; an empty CRC is the preset 63 63."""
    assert crc_a(b"\x50\x00") == b"\x57\xcd"
    assert crc_a(b"") == b"\x63\x63"


def test_init_resets_and_switches_the_antenna_on() -> None:
    fake = FakeRC522()
    chip = MFRC522(fake, fake.cs)
    assert not fake.antenna_on
    assert chip.init() == 0x92
    assert fake.antenna_on
    assert fake.regs[0x2A] == 0x80 and fake.regs[0x2B] == 0xA9  # the 25 ms no-answer timer
    assert fake.regs[0x15] == 0x40  # 100 % ASK


def test_no_chip_on_the_bus_is_a_clear_error() -> None:
    fake = FakeRC522(present=False)
    with pytest.raises(RC522Error, match="did not finish its reset"):
        MFRC522(fake, fake.cs).init()


def test_a_chip_reading_zero_is_not_an_rc522() -> None:
    fake = FakeRC522(version=0x00)
    with pytest.raises(RC522Error, match=r"version register reads 0x00"):
        MFRC522(fake, fake.cs).init()


def test_hw2_four_byte_uid_in_one_cascade_level() -> None:
    tag = Tag(UID4)
    chip, fake = chip_with(tag)
    assert chip.read_uid() == UID4
    assert fake.frames[0] == b"\x52"  # WUPA, 7 bits
    assert fake.frames[1] == b"\x93\x20"
    assert fake.frames[2][:2] == b"\x93\x70" and fake.frames[2][2:6] == UID4
    assert fake.frames[3] == b"\x50\x00\x57\xcd"  # then HLTA
    assert len(fake.frames) == 4
    assert tag.state is TagState.HALT


def test_hw2_seven_byte_uid_through_two_cascade_levels() -> None:
    """Level 1 answers 88 + the first three bytes and a SAK with the cascade bit; level 2 the rest."""
    chip, fake = chip_with(Tag(UID7, sak=0x00, atqa=b"\x44\x00"))
    assert chip.read_uid() == UID7
    sent = [frame[:2] for frame in fake.frames]
    assert sent == [b"\x52", b"\x93\x20", b"\x93\x70", b"\x95\x20", b"\x95\x70", b"\x50\x00"]
    assert fake.frames[2][2:6] == b"\x88\x04\xa1\xb2"
    assert fake.frames[4][2:6] == UID7[3:]


def test_ten_byte_uid_through_three_cascade_levels() -> None:
    chip, _ = chip_with(Tag(UID10))
    assert chip.read_uid() == UID10


def test_hw2_a_held_tag_is_read_again_at_every_poll() -> None:
    """WUPA wakes the tag the last poll halted, so a tag that stays is seen each time."""
    chip, _ = chip_with(Tag(UID7))
    assert [chip.read_uid() for _ in range(3)] == [UID7, UID7, UID7]


def test_no_tag_is_none() -> None:
    chip, fake = chip_with()
    assert chip.read_uid() is None
    assert fake.frames == [b"\x52"]


def test_antenna_off_means_no_tag() -> None:
    fake = FakeRC522(Field([Tag(UID4)]))
    chip = MFRC522(fake, fake.cs)
    assert chip.read_uid() is None  # never initialised: the field is off


def test_two_tags_are_a_collision() -> None:
    chip, _ = chip_with(Tag(UID4), Tag(bytes.fromhex("11223344")))
    with pytest.raises(Collision):
        chip.read_uid()


def test_a_bad_bcc_is_a_bad_frame() -> None:
    chip, _ = chip_with(Tag(UID4, corrupt_bcc=True))
    with pytest.raises(BadFrame, match="BCC"):
        chip.read_uid()


def test_assemble_uid_drops_the_cascade_tags() -> None:
    assert assemble_uid([b"\x88\x04\xa1\xb2", b"\xc3\xd4\xe5\xf6"]) == UID7
    assert assemble_uid([UID4]) == UID4
    with pytest.raises(BadFrame, match="cascade tag"):
        assemble_uid([b"\x01\x02\x03\x04", b"\x05\x06\x07\x08"])


def test_spi_address_bytes_follow_the_datasheet() -> None:
    """Write: 0AAAAAA0, then data; read: 1AAAAAA0, then 00 clocks the value out."""
    sent: list[bytes] = []

    class Recorder:
        def write(self, data: bytes) -> None:
            sent.append(bytes(data))

        def readinto(self, buf: bytearray, write: int = 0) -> None:
            sent.append(bytes([write]) * len(buf))
            buf[:] = b"\x5a" * len(buf)

    selects: list[int] = []
    chip = MFRC522(Recorder(), selects.append)
    chip.write(mfrc522.COMMAND, 0x0F)
    assert chip.read(mfrc522.VERSION) == 0x5A
    assert sent == [b"\x02\x0f", b"\xee", b"\x00"]
    assert selects == [1, 0, 1, 0, 1]


def test_firmware_files_use_only_what_micropython_has() -> None:
    """The files run on the Pico: no annotations, no dataclasses, no typing, only these imports."""
    folder = Path(mfrc522.__file__).parent
    allowed = {"machine", "select", "sys", "time", "link", "mfrc522"}
    for name in FILES:
        tree = ast.parse((folder / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert {a.name for a in node.names} <= allowed, name
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module in allowed, (name, node.module)
            assert not isinstance(node, ast.AnnAssign), name
            if isinstance(node, ast.FunctionDef):
                assert node.returns is None, (name, node.name)
                assert all(arg.annotation is None for arg in node.args.args), (name, node.name)
