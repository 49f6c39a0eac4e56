"""HW-2 bridge firmware: the line protocol it speaks, checked against the host's own parser."""

from __future__ import annotations

import os
import queue
import threading
import time

from fake_rc522 import FakeRC522, Field, Tag

from device.inputs import InputEvent, ReaderStatus, TagRead, TagRemoved
from drivers.rfid import Reader
from drivers.rfid.line import (
    Gone,
    Hello,
    LineParser,
    Tag as TagMessage,
    crc16 as line_crc16,
    parse_line,
    tag_line as line_tag,
)
from firmware_tools.bridge import link
from firmware_tools.bridge.link import HELLO, Bridge, Commands, Presence, checked, hello_line, run
from firmware_tools.bridge.mfrc522 import MFRC522

UID4 = bytes.fromhex("DEADBEEF")
UID7 = bytes.fromhex("04A1B2C3D4E5F6")


class Clock:
    """ticks_ms / sleep_ms that advance made-up time."""

    def __init__(self) -> None:
        self.now = 0

    def ticks_ms(self) -> int:
        return self.now

    def sleep_ms(self, ms: int) -> None:
        self.now += ms


def bridge_on(fake: FakeRC522) -> tuple[Bridge, list[str]]:
    out: list[str] = []
    return Bridge(MFRC522(fake, fake.cs), out.append), out


def test_hw2_hello_line_is_what_the_host_expects() -> None:
    assert hello_line() == HELLO + " *EFA8\n"
    assert parse_line(hello_line().encode()[:-1]) == Hello("rc522-pico", "1.1", checked=True)


def test_hw2_firmware_crc_is_the_hosts_crc16_ibm_sdlc() -> None:
    """Two implementations (the Pico cannot import the driver): same check value, same CRC of
    every line the bridge can send."""
    assert link.crc16(b"123456789") == 0x906E
    for uid in (UID4, UID7, bytes(range(10)), bytes([0xFF] * 10)):
        assert link.tag_line(uid).encode() == line_tag(uid.hex())
        assert link.crc16(b"GONE " + uid.hex().upper().encode()) == line_crc16(
            b"GONE " + uid.hex().upper().encode()
        )
    assert checked("ERR x") == "ERR x *%04X\n" % line_crc16(b"ERR x")


def test_hw2_every_line_the_bridge_writes_carries_a_crc_the_host_accepts() -> None:
    field = Field([Tag(UID4), Tag(UID7)])
    bridge, out = bridge_on(FakeRC522(field))
    bridge.start()
    bridge.poll()  # two tags: ERR
    field.tags.pop()
    for _ in range(3):
        bridge.poll()
    field.tags.clear()
    bridge.poll()
    bridge.poll()
    assert {text.split(" ")[0] for text in out} == {"AETHERBOX-BRIDGE", "ERR", "TAG", "GONE"}
    parser = LineParser()
    for text in out:
        assert text.endswith("\n") and text[-7:-5] == " *"
        assert len(parser.feed_messages(text.encode())) == 1
    assert parser.stats.bad_checksum == 0 and parser.stats.skipped == 0


def test_hw2_a_line_garbled_on_the_way_from_the_bridge_is_dropped_by_the_host() -> None:
    field = Field([Tag(UID7)])
    bridge, out = bridge_on(FakeRC522(field))
    bridge.start()
    bridge.poll()
    sent = out[-1].encode()
    garbled = sent.replace(b"04A1", b"04B1")
    parser = LineParser()
    assert parser.feed(garbled + sent) == ["04A1B2C3D4E5F6"]
    assert parser.stats.bad_checksum == 1


def test_hw2_tag_repeats_while_held_then_gone() -> None:
    """TAG at every poll (every 100 ms, inside the promised 250 ms), GONE after it leaves."""
    field = Field()
    bridge, out = bridge_on(FakeRC522(field))
    bridge.start()
    tag = field.place(Tag(UID7))
    for _ in range(3):
        bridge.poll()
    field.lift(tag)
    bridge.poll()
    assert out == [hello_line()] + [checked("TAG 04A1B2C3D4E5F6")] * 3
    bridge.poll()
    assert out[-1] == checked("GONE 04A1B2C3D4E5F6")
    bridge.poll()
    assert len(out) == 5
    assert link.POLL_MS * 2 < 250


def test_one_missed_poll_is_not_a_removal() -> None:
    presence = Presence(misses_to_leave=2)
    assert presence.update(UID4) == [checked("TAG DEADBEEF")]
    assert presence.update(None) == []
    assert presence.update(UID4) == [checked("TAG DEADBEEF")]
    assert presence.update(None) == []
    assert presence.update(None) == [checked("GONE DEADBEEF")]


def test_a_new_tag_replaces_the_old_one_with_a_gone_first() -> None:
    presence = Presence()
    presence.update(UID4)
    assert presence.update(UID7) == [checked("GONE DEADBEEF"), checked("TAG 04A1B2C3D4E5F6")]


def test_hw2_hello_on_request_even_after_noise() -> None:
    bridge, out = bridge_on(FakeRC522())
    bridge.start()
    bridge.on_input(b"\x55\x55\x00\x00garbage")  # a PN532 wake-up from the host's detection
    bridge.on_input(b"\nHEL")
    bridge.on_input(b"LO\n\n")
    assert out == [hello_line(), hello_line()]


def test_overlong_input_lines_are_ignored() -> None:
    commands = Commands()
    assert commands.feed(b"X" * 300 + b"HELLO\n") == []
    assert commands.feed(b"HELLO\r\n") == ["HELLO"]


def test_two_tags_report_one_error_not_a_flood() -> None:
    field = Field([Tag(UID4), Tag(UID7)])
    bridge, out = bridge_on(FakeRC522(field))
    bridge.start()
    for _ in range(5):
        bridge.poll()
    assert out[1:] == [checked("ERR more than one tag on the reader; take all but one off")]
    field.tags.pop()
    # The tag left READY by the collision goes back to IDLE at the next WUPA; the one after
    # that reads it.
    bridge.poll()
    bridge.poll()
    assert out[1:] == [
        checked("ERR more than one tag on the reader; take all but one off"),
        checked("TAG DEADBEEF"),
    ]


def test_missing_chip_says_err_and_retries_each_second() -> None:
    fake = FakeRC522(Field([Tag(UID4)]), present=False)
    bridge, out = bridge_on(fake)
    clock = Clock()
    run(bridge, lambda: b"", clock.ticks_ms, lambda a, b: a - b, clock.sleep_ms, loops=5)
    assert out == [
        hello_line(),
        checked(
            "ERR RC522 not answering (the RC522 did not finish its reset); check its wiring and 3.3 V"
        ),
    ]
    fake.present = True  # the loose wire is pushed back in
    run(bridge, lambda: b"", clock.ticks_ms, lambda a, b: a - b, clock.sleep_ms, loops=12)
    assert out[-1] == checked("TAG DEADBEEF")


def test_run_polls_every_100_ms_and_answers_hello() -> None:
    field = Field([Tag(UID4)])
    bridge, out = bridge_on(FakeRC522(field))
    clock = Clock()
    inputs = iter([b"", b"\nHELLO\n"])
    run(
        bridge,
        lambda: next(inputs, b""),
        clock.ticks_ms,
        lambda a, b: a - b,
        clock.sleep_ms,
        loops=3,
    )
    assert clock.now == 300
    assert out == [
        hello_line(),
        checked("TAG DEADBEEF"),
        hello_line(),
        checked("TAG DEADBEEF"),
        checked("TAG DEADBEEF"),
    ]


def test_every_line_the_bridge_writes_parses_on_the_host() -> None:
    field = Field()
    bridge, out = bridge_on(FakeRC522(field))
    bridge.start()
    tag = field.place(Tag(UID7))
    bridge.poll()
    field.lift(tag)
    bridge.poll()
    bridge.poll()
    messages = LineParser().feed_messages("".join(out).encode())
    assert messages == [
        Hello("rc522-pico", "1.1"),
        TagMessage("04A1B2C3D4E5F6"),
        Gone("04A1B2C3D4E5F6"),
    ]


def test_hw2_bridge_over_a_pty_is_one_tap_for_the_host_reader() -> None:
    """The firmware's loop on one end of a pty, the gadget's Reader (auto-detecting) on the other."""
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    events: queue.Queue[InputEvent] = queue.Queue()
    reader = Reader(
        events,
        protocol="auto",
        port=path,
        retry_interval=0.1,
        read_timeout=0.02,
        answer_timeout=0.3,
    )
    field = Field()
    stop = threading.Event()
    received = bytearray()

    def read_input() -> bytes:
        import select

        data = b""
        try:
            while select.select([master], [], [], 0)[0]:
                data += os.read(master, 256)
        except OSError:
            pass  # EIO while the host has not opened its end yet
        received.extend(data)
        return data

    def write(text: str) -> None:
        os.write(master, text.encode())

    def firmware() -> None:
        fake = FakeRC522(field)
        bridge = Bridge(MFRC522(fake, fake.cs), write)
        loops = 0
        bridge.start()
        while not stop.is_set() and loops < 200:
            data = read_input()
            if data:
                bridge.on_input(data)
            bridge.poll()
            time.sleep(0.02)
            loops += 1

    thread = threading.Thread(target=firmware, daemon=True)
    reader.start()
    thread.start()
    try:
        seen: list[InputEvent] = []
        deadline = time.monotonic() + 3
        while not any(isinstance(e, ReaderStatus) and e.protocol == "line" for e in seen):
            assert time.monotonic() < deadline, seen
            seen.append(events.get(timeout=3))
        tag = field.place(Tag(UID7))
        time.sleep(0.3)  # about 15 TAG lines
        field.lift(tag)
        time.sleep(0.2)
        while not events.empty():
            seen.append(events.get_nowait())
        taps = [e for e in seen if isinstance(e, TagRead | TagRemoved)]
        assert taps == [TagRead("04A1B2C3D4E5F6", "line"), TagRemoved("04A1B2C3D4E5F6", "line")]
        assert b"HELLO" in received
    finally:
        stop.set()
        reader.stop()
        thread.join(2)
        os.close(master)
