"""HW-2 the serial reader: ports, held tags, garbage, unplugging and replugging, over real ptys."""

from __future__ import annotations

import errno
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

from device.errors import ConfigError, DeviceBusy, DeviceNotFound, DevicePermission
from device.inputs import InputEvent, ReaderStatus, TagRead, TagRemoved
from drivers.rfid import PortInfo, Reader, find_port, make_reader, open_serial
from drivers.rfid.em4100 import id12_frame, rdm6300_frame
from drivers.rfid.fake import FakeReader
from drivers.rfid.line import checked_line, gone_line, hello_line, tag_line
from drivers.rfid.ports import SerialPort
from drivers.rfid.presence import Presence
from drivers.rfid.reader import READS_TO_CONFIRM
from helpers import Pty

RDM_FRAME = b"\x020F002C6D8AC4\x03"


def fast(events: queue.Queue[InputEvent], **options: Any) -> Reader:
    """A reader with the short timeouts tests use."""
    return Reader(events, retry_interval=0.1, read_timeout=0.02, answer_timeout=0.1, **options)


def wait_for(
    events: queue.Queue[InputEvent], match: Callable[[InputEvent], bool], timeout: float = 2.0
) -> list[InputEvent]:
    """Events up to and including the first that matches; fails after ``timeout``."""
    seen: list[InputEvent] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"no matching event in {timeout} s; got {seen!r}")
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            continue
        seen.append(event)
        if match(event):
            return seen


def connected(event: InputEvent) -> bool:
    return isinstance(event, ReaderStatus) and event.connected


def disconnected(event: InputEvent) -> bool:
    return isinstance(event, ReaderStatus) and not event.connected


def quiet(events: queue.Queue[InputEvent], seconds: float) -> list[InputEvent]:
    time.sleep(seconds)
    found = []
    while not events.empty():
        found.append(events.get_nowait())
    return found


@pytest.fixture
def events() -> queue.Queue[InputEvent]:
    return queue.Queue()


@pytest.fixture
def started() -> Iterator[Callable[[Reader], Reader]]:
    readers: list[Reader] = []

    def start(reader: Reader) -> Reader:
        readers.append(reader)
        reader.start()
        return reader

    yield start
    for reader in readers:
        reader.stop()


# -- one tap per held tag ----------------------------------------------------------------------


def test_hw2_held_tag_on_pty_is_one_tag_read_then_one_tag_removed(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    started(fast(events, protocol="rdm6300", port=pty.path, presence_timeout=0.15))
    assert wait_for(events, connected)[-1] == ReaderStatus(True, pty.path, "rdm6300")
    for _ in range(15):  # the RDM6300 repeats about every 65 ms while the tag is held
        pty.send(RDM_FRAME)
        time.sleep(0.02)
    got = wait_for(events, lambda e: isinstance(e, TagRemoved), timeout=1.0)
    assert got == [TagRead("0F002C6D8A", "rdm6300"), TagRemoved("0F002C6D8A", "rdm6300")]
    assert quiet(events, 0.2) == []


def test_hw2_garbage_split_frames_and_bad_checksums_on_pty(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    reader = started(fast(events, protocol="id12", port=pty.path, presence_timeout=0.1))
    wait_for(events, connected)
    frame = id12_frame(bytes.fromhex("62E3086CED"))
    bad = frame.replace(b"08\r", b"09\r")
    pty.send(b"\xff\xfegarbage" + bad + frame[:5])
    time.sleep(0.05)
    pty.send(frame[5:] + frame + b"\x00\x02")  # held: the reader repeats the frame
    got = wait_for(events, lambda e: isinstance(e, TagRemoved), timeout=1.0)
    assert got == [TagRead("62E3086CED", "id12"), TagRemoved("62E3086CED", "id12")]
    assert reader.stats.bad_checksum == 1 and reader.stats.frames == 2


def test_hw2_a_different_tag_replaces_the_held_one(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    started(fast(events, protocol="rdm6300", port=pty.path, presence_timeout=0.2))
    wait_for(events, connected)
    other = rdm6300_frame(bytes.fromhex("0102030405"))
    pty.send(RDM_FRAME + RDM_FRAME + other + other)
    got = wait_for(events, lambda e: e == TagRead("0102030405", "rdm6300"), timeout=1.0)
    assert got == [
        TagRead("0F002C6D8A", "rdm6300"),
        TagRemoved("0F002C6D8A", "rdm6300"),
        TagRead("0102030405", "rdm6300"),
    ]


def test_hw2_one_read_is_not_a_card_two_agreeing_reads_are() -> None:
    presence = Presence(0.3, reads_to_confirm=2)
    assert presence.seen("0F002C6D8A", 0.0, "rdm6300") == []
    assert presence.seen("0F002C6D8A", 0.065, "rdm6300") == [TagRead("0F002C6D8A", "rdm6300")]
    assert presence.seen("0F002C6D8A", 0.13, "rdm6300") == []


def test_hw2_a_bad_frame_while_a_tag_is_held_is_neither_a_card_nor_a_second_tap() -> None:
    presence = Presence(0.3, reads_to_confirm=2)
    reads = ["0F002C6D8A", "0F002C6D8A", "1F102C6D8A", "0F002C6D8A", "1F102C6D8A", "0F002C6D8A"]
    events = [e for i, uid in enumerate(reads) for e in presence.seen(uid, i * 0.065, "rdm6300")]
    assert events == [TagRead("0F002C6D8A", "rdm6300")]
    assert presence.expire(5 * 0.065 + 0.3) == [TagRemoved("0F002C6D8A", "rdm6300")]


def test_hw2_a_new_tag_replaces_the_held_one_after_two_agreeing_reads() -> None:
    presence = Presence(0.3, reads_to_confirm=2)
    presence.seen("0F002C6D8A", 0.0, "pn532")
    presence.seen("0F002C6D8A", 0.1, "pn532")
    assert presence.seen("04A1B2C3", 0.2, "pn532") == []
    assert presence.seen("04A1B2C3", 0.3, "pn532") == [
        TagRemoved("0F002C6D8A", "pn532"),
        TagRead("04A1B2C3", "pn532"),
    ]


def test_hw2_reads_further_apart_than_the_timeout_do_not_agree() -> None:
    presence = Presence(0.3, reads_to_confirm=2)
    assert presence.seen("1F102C6D8A", 0.0, "id12") == []
    assert presence.seen("1F102C6D8A", 0.3, "id12") == []
    assert presence.seen("1F102C6D8A", 0.4, "id12") == [TagRead("1F102C6D8A", "id12")]


def test_hw2_two_reads_for_the_em4100_readers_and_the_pn532_one_for_the_crc_checked_bridge() -> (
    None
):
    assert READS_TO_CONFIRM == {"rdm6300": 2, "id12": 2, "rdm6300/id12": 2, "pn532": 2, "line": 1}
    assert Presence(0.6, READS_TO_CONFIRM["line"]).seen("04A1B2C3", 0.0, "line") == [
        TagRead("04A1B2C3", "line")
    ]


def test_hw2_checksum_passing_garbled_frame_on_pty_is_not_a_card_nor_a_second_tap(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    """1F102C6D8A is 0F002C6D8A with two hex digits changed and the same XOR (C4): what the
    RDM6300's checksum cannot tell from the real thing."""
    garbled = rdm6300_frame(bytes.fromhex("1F102C6D8A"))
    assert garbled[-3:] == RDM_FRAME[-3:] and sum(a != b for a, b in zip(garbled, RDM_FRAME)) == 2
    started(fast(events, protocol="rdm6300", port=pty.path, presence_timeout=0.15))
    wait_for(events, connected)
    for frame in (garbled, RDM_FRAME, RDM_FRAME, garbled, RDM_FRAME, RDM_FRAME):
        pty.send(frame)
        time.sleep(0.02)
    got = wait_for(events, lambda e: isinstance(e, TagRemoved), timeout=1.0)
    assert got == [TagRead("0F002C6D8A", "rdm6300"), TagRemoved("0F002C6D8A", "rdm6300")]
    assert quiet(events, 0.2) == []


# -- unplug and replug -----------------------------------------------------------------------


def test_hw2_unplug_is_reported_and_replug_reconnects_within_2_s(
    events: queue.Queue[InputEvent], tmp_path: Path, started: Callable[[Reader], Reader]
) -> None:
    """The port is a symlink, as udev makes one; closing the master pulls the cable."""
    first = Pty()
    link = tmp_path / "ttyRFID"
    link.symlink_to(first.path)
    started(fast(events, protocol="rdm6300", port=str(link), presence_timeout=5.0))
    wait_for(events, connected)
    first.send(RDM_FRAME * 2)
    wait_for(events, lambda e: isinstance(e, TagRead))

    first.close()
    got = wait_for(events, disconnected)
    # The held tag cannot be known to be there any more: it is removed before the status.
    assert got[0] == TagRemoved("0F002C6D8A", "rdm6300")
    assert isinstance(got[-1], ReaderStatus)
    assert got[-1].port == str(link) and got[-1].detail.startswith(f"{link}: ")
    # A few failed retries: no crash, no tags.  (Right after the hangup the kernel may let the
    # dying pty open once more, which shows as one more short connection.)
    assert not any(isinstance(e, TagRead) for e in quiet(events, 0.3))

    second = Pty()
    try:
        link.unlink()
        link.symlink_to(second.path)
        plugged = time.monotonic()
        wait_for(events, connected, timeout=2.0)
        assert time.monotonic() - plugged < 2.0
        second.send(RDM_FRAME * 2)
        assert wait_for(events, lambda e: isinstance(e, TagRead))[-1] == TagRead(
            "0F002C6D8A", "rdm6300"
        )
    finally:
        second.close()


def test_hw2_unplug_and_replug_over_loop_url(
    events: queue.Queue[InputEvent], started: Callable[[Reader], Reader]
) -> None:
    """pyserial's loop:// port: what the reader writes it reads back, and closing is unplugging."""
    ports: list[SerialPort] = []
    present = [True]

    def opener(url: str, baudrate: int, timeout: float) -> SerialPort:
        if not present[0]:
            raise DeviceNotFound(f"{url}: no such serial port")
        port = open_serial("loop://", baudrate, timeout)
        ports.append(port)
        return port

    reader = started(
        fast(events, protocol="line", port="loop://", opener=opener, presence_timeout=0.15)
    )
    wait_for(events, connected)
    ports[-1].write(tag_line("04A1B2C3D4E580"))
    got = wait_for(events, lambda e: isinstance(e, TagRead))
    assert got[-1] == TagRead("04A1B2C3D4E580", "line")
    ports[-1].write(gone_line("04A1B2C3D4E580"))
    assert wait_for(events, lambda e: isinstance(e, TagRemoved), timeout=0.1)

    present[0] = False
    ports[-1].close()
    wait_for(events, disconnected)
    missing = wait_for(events, disconnected)[-1]
    assert missing == ReaderStatus(False, "loop://", "line", "loop://: no such serial port")
    present[0] = True
    wait_for(events, connected, timeout=2.0)
    ports[-1].write(hello_line("pico-rc522", "1.1"))
    assert wait_for(events, lambda e: isinstance(e, ReaderStatus))[-1] == ReaderStatus(
        True, "loop://", "line", "pico-rc522 1.1"
    )
    assert reader.stats.skipped >= 1  # its own HELLO request, read back by the loop


def test_line_bridge_tag_without_gone_is_removed_after_the_timeout(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    started(fast(events, protocol="line", port=pty.path, presence_timeout=0.1))
    wait_for(events, connected)
    pty.send(tag_line("04A1B2C3").replace(b"\n", b"\r\n") + checked_line("ERR antenna"))
    got = wait_for(events, lambda e: isinstance(e, TagRemoved), timeout=1.0)
    assert got == [
        TagRead("04A1B2C3", "line"),
        ReaderStatus(True, pty.path, "line", "bridge error: antenna"),
        TagRemoved("04A1B2C3", "line"),
    ]


def test_hw2_a_bridge_without_checksums_is_told_to_update_and_its_tags_ignored(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    """Firmware 1.0 sent no CRC: one garbled digit would have been another card."""
    started(fast(events, protocol="line", port=pty.path, presence_timeout=0.1))
    wait_for(events, connected)
    pty.send(b"AETHERBOX-BRIDGE rc522-pico 1.0\r\n" + b"TAG 04A1B2C3\r\n" * 5)
    assert wait_for(events, lambda e: isinstance(e, ReaderStatus))[-1] == ReaderStatus(
        True,
        pty.path,
        "line",
        "rc522-pico 1.0 sends no checksums, so its tags are ignored; "
        "update the bridge with 'aetherbox firmware upload'",
    )
    assert quiet(events, 0.3) == []


# -- finding and opening the port ------------------------------------------------------------


def test_hw2_port_found_by_usb_id() -> None:
    ports = [
        PortInfo("/dev/ttyAMA0"),
        PortInfo("/dev/ttyUSB1", 0x1A86, 0x7523),
        PortInfo("/dev/ttyACM0", 0x2E8A, 0x000A),
        PortInfo("/dev/ttyUSB0", 0x1234, 0x5678),
    ]
    assert find_port(ports) == ("/dev/ttyACM0", "Raspberry Pi Pico")
    assert find_port(ports[:2]) == ("/dev/ttyUSB1", "CH340")
    assert find_port([PortInfo("/dev/ttyS0")]) is None


def test_hw2_reader_opens_the_found_port(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    listing = [PortInfo(pty.path, 0x10C4, 0xEA60)]
    started(fast(events, protocol="rdm6300", list_ports=lambda: listing))
    assert wait_for(events, connected)[-1] == ReaderStatus(True, pty.path, "rdm6300")


def test_hw2_no_reader_is_one_status_not_a_flood(
    events: queue.Queue[InputEvent], started: Callable[[Reader], Reader]
) -> None:
    started(fast(events, list_ports=lambda: []))
    time.sleep(0.5)  # about five retries
    assert quiet(events, 0) == [
        ReaderStatus(
            False,
            detail="no RFID reader found: plug one in, "
            "or set the reader's port in the configuration",
        )
    ]


def test_hw2_permission_denied_names_the_dialout_group(
    events: queue.Queue[InputEvent],
    started: Callable[[Reader], Reader],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(url: str, **_: object) -> None:
        # What pyserial raises for a port owned by root:dialout, mode 660.
        raise serial.SerialException(
            errno.EACCES, f"could not open port {url}: [Errno 13] Permission denied: {url!r}"
        )

    monkeypatch.setattr(serial, "serial_for_url", refuse)
    with pytest.raises(DevicePermission) as caught:
        open_serial("/dev/ttyUSB0", 9600, 0.1)
    assert str(caught.value) == (
        "/dev/ttyUSB0: permission denied; add this user to the 'dialout' group "
        "(sudo usermod -aG dialout $USER) and log in again"
    )
    assert isinstance(caught.value, PermissionError)

    started(fast(events, protocol="rdm6300", port="/dev/ttyUSB0"))
    status = wait_for(events, lambda e: isinstance(e, ReaderStatus))[-1]
    assert status == ReaderStatus(False, "/dev/ttyUSB0", "rdm6300", str(caught.value))


def test_port_in_use_by_another_reader_is_refused(pty: Pty) -> None:
    first = open_serial(pty.path, 9600, 0.1)
    try:
        with pytest.raises(DeviceBusy, match="in use by another program; is aetherbox"):
            open_serial(pty.path, 9600, 0.1)
    finally:
        first.close()


def test_missing_port_is_device_not_found_naming_the_path(tmp_path: Path) -> None:
    path = str(tmp_path / "ttyUSB9")
    with pytest.raises(DeviceNotFound, match="ttyUSB9: no such serial port; is the reader") as e:
        open_serial(path, 9600, 0.1)
    assert isinstance(e.value, FileNotFoundError)


def test_unknown_protocol_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="reader protocol 'rc522' is not known; use one of auto"):
        Reader(queue.Queue(), protocol="rc522")


def test_make_reader_picks_the_fake_or_the_real_reader() -> None:
    assert isinstance(make_reader(queue.Queue(), protocol="fake"), FakeReader)
    real = make_reader(queue.Queue(), protocol="pn532", port="/dev/ttyS0")
    assert isinstance(real, Reader) and real.protocol == "pn532"


# -- auto-detection and stopping ---------------------------------------------------------------


def test_hw2_auto_finds_a_bridge_by_its_hello(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    started(fast(events, protocol="auto", port=pty.path))
    asked = b""
    deadline = time.monotonic() + 2
    while b"HELLO\n" not in asked and time.monotonic() < deadline:
        try:
            asked += os.read(pty.master, 100)
        except OSError:  # EIO until the reader has opened its end
            time.sleep(0.01)
    pty.send(b"AETHERBOX-BRIDGE test 0.1\n")
    assert wait_for(events, connected)[-1].protocol == "line"  # type: ignore[union-attr]


def test_hw2_auto_falls_back_to_9600_and_learns_the_reader_from_its_frames(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    started(fast(events, protocol="auto", port=pty.path))
    assert wait_for(events, connected)[-1].protocol == "rdm6300/id12"  # type: ignore[union-attr]
    pty.send(id12_frame(bytes.fromhex("62E3086CED")) * 2)
    assert wait_for(events, lambda e: isinstance(e, TagRead)) == [
        ReaderStatus(True, pty.path, "id12"),
        TagRead("62E3086CED", "id12"),
    ]


def test_stop_ends_the_thread_promptly(events: queue.Queue[InputEvent], pty: Pty) -> None:
    reader = fast(events, protocol="rdm6300", port=pty.path)
    reader.start()
    wait_for(events, connected)
    began = time.monotonic()
    reader.stop()
    assert time.monotonic() - began < 0.5
    assert wait_for(events, disconnected)[-1].detail == "stopped"  # type: ignore[union-attr]


def _thread_wakes(name: str) -> int:
    """Context switches so far of this process's thread called ``name`` (Linux)."""
    thread = next(t for t in threading.enumerate() if t.name == name)
    status = Path(f"/proc/self/task/{thread.native_id}/status").read_text()
    return sum(int(line.split()[1]) for line in status.splitlines() if "ctxt_switches:" in line)


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="counts the thread's wakes in /proc"
)
def test_hw1_an_idle_reader_wakes_its_thread_about_once_a_second_and_a_tap_still_arrives_at_once(
    events: queue.Queue[InputEvent], pty: Pty, started: Callable[[Reader], Reader]
) -> None:
    started(fast(events, protocol="rdm6300", port=pty.path, presence_timeout=0.15))
    wait_for(events, connected)
    time.sleep(0.2)
    before = _thread_wakes("aetherbox-rfid")
    time.sleep(3.0)
    assert _thread_wakes("aetherbox-rfid") - before <= 6  # it read every 20 ms: 150
    began = time.monotonic()
    pty.send(RDM_FRAME)
    pty.send(RDM_FRAME)  # two agreeing reads make a card
    assert wait_for(events, lambda e: isinstance(e, TagRead))[-1] == TagRead(
        "0F002C6D8A", "rdm6300"
    )
    assert time.monotonic() - began < 0.5
    assert wait_for(
        events, lambda e: isinstance(e, TagRemoved), timeout=1.0
    )  # its removal is still timed
