"""HW-2 the PN532 over HSU: a fake chip on the far side of a pty answers with real frames."""

from __future__ import annotations

import os
import queue
import select
import threading
import time
from collections.abc import Iterator

import pytest

from device.inputs import InputEvent, ReaderStatus, TagRead, TagRemoved
from test_rfid_reader import connected, disconnected, fast, wait_for

ACK = bytes.fromhex("0000ff00ff00")


def answer(data: bytes) -> bytes:
    """A PN532-to-host frame, built independently of the driver's encoder."""
    body = b"\xd5" + data
    return (
        bytes([0, 0, 0xFF, len(body), (256 - len(body)) % 256])
        + body
        + bytes([(256 - sum(body) % 256) % 256, 0])
    )


class FakePn532:
    """Reads host frames from a pty master, checks LCS and DCS, and answers like a PN532."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)
        self.tag: bytes | None = None
        self.sens_res = b"\x00\x44"
        self.commands: list[int] = []
        self.woken_before_first_command = False
        self.bad_frames = 0
        self.silent = False
        self._received = bytearray()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stopping.set()
        self._thread.join()
        os.close(self.master)

    def _run(self) -> None:
        while not self._stopping.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if not ready:
                continue
            try:
                self._received += os.read(self.master, 256)
            except OSError:  # EIO while nobody has the port open
                time.sleep(0.01)
                continue
            self._handle()

    def _handle(self) -> None:
        buf = self._received
        while (start := buf.find(b"\x00\x00\xff")) >= 0 and len(buf) >= start + 5:
            if not self.commands and b"\x55\x55" in buf[:start]:
                self.woken_before_first_command = True
            length, lcs = buf[start + 3], buf[start + 4]
            end = start + 5 + length + 1
            if (length + lcs) % 256:
                self.bad_frames += 1
                del buf[: start + 3]
                continue
            if len(buf) < end:
                return
            body = bytes(buf[start + 5 : end])
            del buf[:end]
            if sum(body) % 256 or body[0] != 0xD4:
                self.bad_frames += 1
                continue
            self.commands.append(body[1])
            if not self.silent:
                os.write(self.master, ACK + answer(self._response(body[1], body[2:-1])))

    def _response(self, code: int, params: bytes) -> bytes:
        if code == 0x02:
            return bytes([0x03, 0x32, 0x01, 0x06, 0x07])  # PN532 firmware 1.6
        if code == 0x4A:
            assert params == b"\x01\x00"  # one target, 106 kbps type A
            if self.tag is None:
                return b"\x4b\x00"
            return b"\x4b\x01\x01" + self.sens_res + bytes([0x00, len(self.tag)]) + self.tag
        return bytes([code + 1])  # SAMConfiguration, RFConfiguration: no data


@pytest.fixture
def chip() -> Iterator[FakePn532]:
    fake = FakePn532()
    yield fake
    fake.close()


@pytest.fixture
def events() -> queue.Queue[InputEvent]:
    return queue.Queue()


def test_hw2_pn532_7_byte_ntag_uid_is_one_read_and_one_removal(
    chip: FakePn532, events: queue.Queue[InputEvent]
) -> None:
    reader = fast(
        events, protocol="pn532", port=chip.path, poll_interval=0.02, presence_timeout=0.15
    )
    reader.start()
    try:
        assert wait_for(events, connected)[-1] == ReaderStatus(True, chip.path, "pn532")
        assert chip.woken_before_first_command
        assert chip.commands[:2] == [0x14, 0x32]  # SAMConfiguration first, then RF retries
        chip.tag = bytes.fromhex("04A1B2C3D4E580")
        assert wait_for(events, lambda e: isinstance(e, TagRead))[-1] == TagRead(
            "04A1B2C3D4E580", "pn532"
        )
        time.sleep(0.3)  # held: polled many times, still one read
        chip.tag = None
        assert wait_for(events, lambda e: isinstance(e, TagRemoved)) == [
            TagRemoved("04A1B2C3D4E580", "pn532")
        ]
        assert chip.commands.count(0x4A) > 10
        assert chip.bad_frames == 0
    finally:
        reader.stop()


def test_hw2_pn532_4_byte_uid(chip: FakePn532, events: queue.Queue[InputEvent]) -> None:
    chip.tag = bytes.fromhex("DEADBEEF")
    chip.sens_res = b"\x00\x04"
    reader = fast(events, protocol="pn532", port=chip.path, poll_interval=0.02)
    reader.start()
    try:
        got = wait_for(events, lambda e: isinstance(e, TagRead))
        assert got[-1] == TagRead("DEADBEEF", "pn532")
    finally:
        reader.stop()


def test_hw2_auto_detects_a_pn532_by_its_firmware_version(
    chip: FakePn532, events: queue.Queue[InputEvent]
) -> None:
    reader = fast(events, protocol="auto", port=chip.path, poll_interval=0.02)
    reader.start()
    try:
        assert wait_for(events, connected)[-1] == ReaderStatus(True, chip.path, "pn532")
        assert chip.commands[0] == 0x02
    finally:
        reader.stop()


def test_hw2_pn532_that_stops_answering_is_lost_then_found_again(
    chip: FakePn532, events: queue.Queue[InputEvent]
) -> None:
    reader = fast(events, protocol="pn532", port=chip.path, poll_interval=0.02)
    reader.start()
    try:
        wait_for(events, connected)
        chip.silent = True
        lost = wait_for(events, disconnected)[-1]
        assert lost == ReaderStatus(False, chip.path, "pn532", "the PN532 stopped answering")
        chip.silent = False
        wait_for(events, connected)
    finally:
        reader.stop()
