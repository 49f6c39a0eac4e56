"""HW-2: typed lines and reader events at one prompt (``device.prompt``): a tap is handled
between two lines, and a reader's status reads as one line."""

from __future__ import annotations

import io
import os
import time

from device.inputs import ReaderStatus, TagRead
from device.prompt import LineSource, SignalledQueue, status_text


def test_line_source_hands_over_events_between_lines() -> None:
    """A tap that arrives while waiting is handled at once; typed lines come whole."""
    inputs = SignalledQueue()
    read_end, write_end = os.pipe()
    stream = os.fdopen(read_end, "r", encoding="utf-8")
    try:
        source = LineSource(stream, inputs)
        handled: list[object] = []
        inputs.put(ReaderStatus(True, "p", "rdm6300"))
        inputs.put(TagRead("AB"))
        os.write(write_end, "first\r\nsecond wi".encode())
        assert source.next(lambda e: handled.append(e) or False) == "first"
        assert handled == [ReaderStatus(True, "p", "rdm6300"), TagRead("AB")]
        inputs.put(TagRead("CD"))
        assert source.next(lambda e: isinstance(e, TagRead)) == TagRead("CD")
        os.write(write_end, "thout end".encode())
        os.close(write_end)
        write_end = -1
        assert source.next(lambda e: False) == "second without end"
        assert source.next(lambda e: False) is None
    finally:
        stream.close()
        if write_end >= 0:
            os.close(write_end)
        inputs.close()


def test_line_source_wakes_when_its_timer_is_due_while_no_line_comes() -> None:
    """Waiting for a line, the timer (the organiser's announcements) runs when it said it would
    be due, with nothing typed, and the wait goes on until the line."""
    inputs = SignalledQueue()
    read_end, write_end = os.pipe()
    stream = os.fdopen(read_end, "r", encoding="utf-8")
    calls: list[float] = []

    def timer() -> float | None:
        calls.append(time.monotonic())
        if len(calls) == 3:
            os.write(write_end, b"after\n")
            return None
        return 0.05

    try:
        source = LineSource(stream, inputs, timer)
        assert source.next(lambda e: False) == "after"
        assert len(calls) == 3 and calls[2] - calls[0] >= 0.09  # it slept between, nothing typed
    finally:
        stream.close()
        os.close(write_end)
        inputs.close()


def test_line_source_over_a_stream_without_a_descriptor() -> None:
    inputs = SignalledQueue()
    try:
        source = LineSource(io.StringIO("one\ntwo"), inputs)
        inputs.put(TagRead("AB"))
        seen: list[object] = []
        assert source.next(lambda e: seen.append(e) or False) == "one"
        assert seen == [TagRead("AB")]
        assert source.next(lambda e: False) == "two"
        assert source.next(lambda e: False) is None
    finally:
        inputs.close()


def test_status_lines() -> None:
    assert status_text(ReaderStatus(True, "/dev/ttyACM0", "line", "rc522-pico 1.0")) == (
        "reader connected: /dev/ttyACM0 (line, rc522-pico 1.0)"
    )
    assert (
        status_text(ReaderStatus(False, "", "", "no RFID reader found"))
        == "reader disconnected: no RFID reader found"
    )
