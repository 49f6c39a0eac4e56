"""HW-2 the simulated reader posts what a real one would, so the gadget runs without hardware."""

from __future__ import annotations

import queue

from device.inputs import InputEvent, ReaderStatus, TagRead, TagRemoved
from drivers.rfid import FakeReader, Reader, TagReader


def drain(events: queue.Queue[InputEvent]) -> list[InputEvent]:
    found = []
    while not events.empty():
        found.append(events.get_nowait())
    return found


def test_hw2_fake_reader_held_tag_is_one_tap() -> None:
    events: queue.Queue[InputEvent] = queue.Queue()
    reader = FakeReader(events)
    reader.start()
    reader.tap("04:a1:b2:c3")
    reader.tap("04A1B2C3")  # still held
    reader.remove("04-A1-B2-C3")
    reader.remove()
    assert drain(events) == [
        ReaderStatus(True, "fake", "fake", "simulated reader"),
        TagRead("04A1B2C3", "fake"),
        TagRemoved("04A1B2C3", "fake"),
    ]


def test_hw2_fake_reader_unplug_and_replug() -> None:
    events: queue.Queue[InputEvent] = queue.Queue()
    reader = FakeReader(events)
    reader.start()
    reader.tap("0A0B0C0D")
    reader.unplug()
    reader.tap("01020304")  # nothing reads while unplugged
    reader.replug()
    reader.tap("01020304")
    reader.stop()
    assert drain(events)[1:] == [
        TagRead("0A0B0C0D", "fake"),
        TagRemoved("0A0B0C0D", "fake"),
        ReaderStatus(False, "fake", "fake", "unplugged"),
        ReaderStatus(True, "fake", "fake", "simulated reader"),
        TagRead("01020304", "fake"),
        TagRemoved("01020304", "fake"),
        ReaderStatus(False, "fake", "fake", "stopped"),
    ]


def test_fake_reader_is_silent_before_start() -> None:
    events: queue.Queue[InputEvent] = queue.Queue()
    FakeReader(events).tap("0A0B0C0D")
    assert drain(events) == []


def test_fake_and_real_reader_satisfy_the_same_protocol() -> None:
    readers: list[TagReader] = [FakeReader(queue.Queue()), Reader(queue.Queue())]
    for reader in readers:
        assert callable(reader.start) and callable(reader.stop)
