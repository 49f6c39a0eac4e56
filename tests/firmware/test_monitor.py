"""HW-2 reader monitor: protocol and baud detection, frames in hex with their meaning, counts."""

from __future__ import annotations

import os
import re
import select
import threading
from collections.abc import Callable, Iterator

import pytest
from harness import Terminal
from helpers import Pty

from drivers.rfid import id12_frame, rdm6300_frame
from drivers.rfid.line import crc16, gone_line, hello_line, tag_line
from drivers.rfid.pn532 import Ack, FrameParser, Info, frame
from firmware_tools import monitor

EM_TAG = bytes.fromhex("0F002C6D8A")


def body(screen: str) -> list[str]:
    """The screen's lines with the timestamps taken off."""
    return [re.sub(r"^ +\d+\.\d{3}  ", "", line) for line in screen.splitlines()]


class Responder:
    """Plays a device on the pty's master: ``answer(bytes received so far) -> reply``."""

    def __init__(self, pty: Pty, answer: Callable[[bytes], bytes]) -> None:
        self.pty = pty
        self.answer = answer
        self.received = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if not select.select([self.pty.master], [], [], 0.02)[0]:
                continue
            try:
                data = os.read(self.pty.master, 256)
            except OSError:
                self._stop.wait(0.01)
                continue
            self.received += data
            reply = self.answer(data)
            if reply:
                os.write(self.pty.master, reply)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)


@pytest.fixture
def responders() -> Iterator[list[Responder]]:
    made: list[Responder] = []
    yield made
    for responder in made:
        responder.close()


def test_hw2_rdm6300_frames_garbage_and_a_bad_checksum(terminal: Terminal, pty: Pty) -> None:
    """Nothing answers at 115200, so it listens at 9600 and names each frame it sees."""
    terminal.start(lambda: monitor.main(["--port", pty.path, "--seconds", "1.5"]))
    terminal.expect("9600 baud: listening for RDM6300 / ID-12 frames; hold a tag on the reader.\n")
    bad = bytearray(rdm6300_frame(EM_TAG))
    bad[11:13] = b"00"
    pty.send(b"junk" + rdm6300_frame(EM_TAG) + bytes(bad) + id12_frame(EM_TAG))
    assert terminal.wait() == 0
    screen = terminal.screen.text
    assert body(screen) == [
        f"Port: {pty.path}",
        "115200 baud: asking for a PN532 (GetFirmwareVersion)... no answer.",
        "115200 baud: asking for a bridge (HELLO)... no answer.",
        "9600 baud: listening for RDM6300 / ID-12 frames; hold a tag on the reader.",
        "6A 75 6E 6B  skipped 4 bytes (not part of a frame)",
        "02 30 46 30 30 32 43 36 44 38 41 43 34 03  RDM6300 tag 0F002C6D8A",
        "02 30 46 30 30 32 43 36 44 38 41 30 30 03  checksum error: 0F002C6D8A should XOR to C4, frame says 00",
        "02 30 46 30 30 32 43 36 44 38 41 43 34 0D 0A 03  ID12 tag 0F002C6D8A",
        "Summary: id12/rdm6300 at 9600 baud; 2 frames, 1 checksum errors, 4 skipped.",
        "Tags seen: 0F002C6D8A (2)",
    ]


def test_hw2_a_silent_port_gets_a_wiring_hint(pty: Pty, capsys: pytest.CaptureFixture[str]) -> None:
    assert monitor.main(["--port", pty.path, "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == [
        "Summary: rdm6300/id12 at 9600 baud; 0 frames, 0 checksum errors, 0 skipped.",
        "No frames: check the reader's TX to the adapter's RX, its 5 V supply, and hold a 125 kHz "
        "(EM4100) tag flat on the coil.",
    ]


def test_hw2_bridge_answers_hello_and_its_lines_are_decoded(
    pty: Pty, responders: list[Responder], capsys: pytest.CaptureFixture[str]
) -> None:
    tag = tag_line("04A1B2C3D4E5F6")
    garbled = tag.replace(b"E5", b"E6")

    def bridge(data: bytes) -> bytes:
        if b"HELLO" in data:
            return (
                hello_line("rc522-pico", "1.1")
                + tag.replace(b"\n", b"\r\n")
                + b"noise\n"
                + garbled
                + gone_line("04A1B2C3D4E5F6")
            )
        return b""

    responders.append(Responder(pty, bridge))
    assert monitor.main(["--port", pty.path, "--seconds", "0.8"]) == 0
    lines = body(capsys.readouterr().out)
    assert lines[1:3] == [
        "115200 baud: asking for a PN532 (GetFirmwareVersion)... no answer.",
        "115200 baud: asking for a bridge (HELLO)... bridge answered: rc522-pico 1.1.",
    ]
    assert lines[3:] == [
        "54 41 47 20 30 34 41 31 42 32 43 33 44 34 45 35 46 36 20 2A 34 30 38 44 0D 0A  TAG 04A1B2C3D4E5F6",
        "6E 6F 69 73 65 0A  not a bridge line (ignored)",
        "54 41 47 20 30 34 41 31 42 32 43 33 44 34 45 36 46 36 20 2A 34 30 38 44 0A  "
        f"checksum error: CRC should be {crc16(b'TAG 04A1B2C3D4E6F6'):04X}, line says 408D",
        "47 4F 4E 45 20 30 34 41 31 42 32 43 33 44 34 45 35 46 36 20 2A "
        + " ".join(f"{b:02X}" for b in gone_line("04A1B2C3D4E5F6")[-5:])
        + "  GONE 04A1B2C3D4E5F6",
        "Summary: line at 115200 baud; 2 frames, 1 checksum errors, 1 skipped.",
        "Tags seen: 04A1B2C3D4E5F6 (1)",
    ]


def test_hw2_monitor_says_a_bridge_without_checksums_needs_new_firmware(
    pty: Pty, responders: list[Responder], capsys: pytest.CaptureFixture[str]
) -> None:
    def bridge(data: bytes) -> bytes:
        return (
            b"AETHERBOX-BRIDGE rc522-pico 1.0\r\nTAG 04A1B2C3D4E5F6\r\n"
            if b"HELLO" in data
            else b""
        )

    responders.append(Responder(pty, bridge))
    assert monitor.main(["--port", pty.path, "--seconds", "0.5"]) == 0
    lines = body(capsys.readouterr().out)
    assert lines[2] == (
        "115200 baud: asking for a bridge (HELLO)... bridge answered: rc522-pico 1.0. It sends no "
        "checksums, so the gadget ignores its tags: update it with 'aetherbox firmware upload'."
    )
    assert lines[3:5] == [
        "54 41 47 20 30 34 41 31 42 32 43 33 44 34 45 35 46 36 0D 0A  not a bridge line (ignored)",
        "Summary: line at 115200 baud; 0 frames, 0 checksum errors, 1 skipped.",
    ]


def test_hw2_pn532_answers_its_firmware_version_and_reports_a_tag(
    pty: Pty, responders: list[Responder], capsys: pytest.CaptureFixture[str]
) -> None:
    parser = FrameParser()

    def chip(data: bytes) -> bytes:
        reply = b""
        for item in parser.feed(data):
            if isinstance(item, Ack) or not isinstance(item, Info) or item.tfi != 0xD4:
                continue
            code = item.data[0]
            answer = {
                0x02: b"\x03\x32\x01\x06\x07",
                0x4A: b"\x4b\x01\x01\x00\x44\x00\x07\x04\xa1\xb2\xc3\xd4\xe5\xf6",
            }.get(code, bytes([code + 1]))
            reply += b"\x00\x00\xff\x00\xff\x00" + frame(0xD5, answer)
        return reply

    responders.append(Responder(pty, chip))
    assert monitor.main(["--port", pty.path, "--seconds", "0.6"]) == 0
    lines = body(capsys.readouterr().out)
    assert lines[1:] == [
        "115200 baud: asking for a PN532 (GetFirmwareVersion)... PN532 answered: IC 0x32, firmware 1.6.",
        "PN532 ready; polling for type A tags.",
        "04 A1 B2 C3 D4 E5 F6  PN532 tag 04A1B2C3D4E5F6 on the reader",
        lines[-2],
        "Tags seen: 04A1B2C3D4E5F6 (1)",
    ]
    assert re.fullmatch(
        r"Summary: pn532 at 115200 baud; \d+ frames, 0 checksum errors, 0 skipped\.", lines[-2]
    )


def test_raw_prints_every_byte(terminal: Terminal, pty: Pty) -> None:
    terminal.start(lambda: monitor.main(["--port", pty.path, "--raw", "--seconds", "0.6"]))
    terminal.expect("9600 baud: every byte as it arrives.\n")
    pty.send(b"\x02AB\xff")
    assert terminal.wait() == 0
    assert body(terminal.screen.text)[2:] == [
        "02 41 42 FF  '.AB.'",
        "Summary: raw at 9600 baud; 1 frames, 0 checksum errors, 0 skipped.",
    ]


def test_no_reader_found_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(monitor, "system_ports", lambda: [])
    assert monitor.main(["--seconds", "0.1"]) == 1
    assert capsys.readouterr().err == (
        "aetherbox: error: no RFID reader found by its USB id: plug one in, or give --port\n"
    )
