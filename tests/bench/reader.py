"""Figures for the RFID reader: parse rates, the frame fuzz (false cards), tag-to-event latency
over a pty, reconnect time.

Run as ``python tests/bench/reader.py``; prints one JSON object.
"""

from __future__ import annotations

import json
import os
import queue
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from figures import percentile  # noqa: E402
from reader_fuzz import PROTOCOLS, fuzz  # noqa: E402

from device.inputs import InputEvent, ReaderStatus, TagRead  # noqa: E402
from drivers.rfid import line, pn532  # noqa: E402
from drivers.rfid.em4100 import id12_frame, rdm6300_frame  # noqa: E402
from drivers.rfid.reader import Reader, uid_parser  # noqa: E402

RANDOM_BYTES = 10**6
FRAMES = 20_000
TAPS = 200


def parse_rates(rng: random.Random) -> dict[str, Any]:
    """Frames/s through each parser, fed in 64-byte reads, and its speed on random bytes."""
    uids = [rng.randbytes(5) for _ in range(64)]
    picks = [uids[i % 64] for i in range(FRAMES)]
    streams: dict[str, tuple[bytes, Callable[[], Any]]] = {
        "rdm6300": (b"".join(map(rdm6300_frame, picks)), lambda: uid_parser("rdm6300")),
        "id12": (b"".join(map(id12_frame, picks)), lambda: uid_parser("id12")),
        "line": (
            b"".join(line.tag_line(u.hex() + "04A1") for u in picks),  # 7-byte UIDs
            lambda: uid_parser("line"),
        ),
        "pn532": (b"".join(pn532.in_list_response(u[:4]) for u in picks), pn532.FrameParser),
    }
    noise = rng.randbytes(RANDOM_BYTES)
    result: dict[str, Any] = {}
    for name, (stream, make) in streams.items():
        parser = make()
        began = time.perf_counter()
        count = sum(len(parser.feed(stream[i : i + 64])) for i in range(0, len(stream), 64))
        frames_s = count / (time.perf_counter() - began)
        parser = make()
        began = time.perf_counter()
        for i in range(0, RANDOM_BYTES, 64):
            parser.feed(noise[i : i + 64])
        noise_s = time.perf_counter() - began
        result[name] = {
            "frames": count,
            "frames_per_s": round(frames_s),
            "random_1e6_bytes_s": round(noise_s, 3),
            "random_bytes_per_s": round(RANDOM_BYTES / noise_s),
        }
    return result


def frame_fuzz() -> dict[str, Any]:
    """10⁶ random bytes per protocol with held tags' frames, good and garbled, in between:
    false cards with the reader's rule, and with every single read counting."""
    result: dict[str, Any] = {}
    for protocol in PROTOCOLS:
        figures = fuzz(protocol, RANDOM_BYTES).summary()
        figures["false_cards_if_one_read_counted"] = fuzz(
            protocol, RANDOM_BYTES, reads_to_confirm=1
        ).false_cards
        result[protocol] = figures
    return result


def next_event(events: queue.Queue[InputEvent], kind: type, timeout: float = 5.0) -> InputEvent:
    deadline = time.monotonic() + timeout
    while True:
        event = events.get(timeout=max(0.0, deadline - time.monotonic()))
        if isinstance(event, kind):
            return event


def tap_latency() -> dict[str, float]:
    """Frame written to a pty master → TagRead on the queue (RDM6300 framing, 9600 baud pty)."""
    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    events: queue.Queue[InputEvent] = queue.Queue()
    reader = Reader(events, protocol="rdm6300", port=path, presence_timeout=0.02, read_timeout=0.05)
    reader.start()
    try:
        next_event(events, ReaderStatus)
        samples = []
        for i in range(TAPS):
            frame = rdm6300_frame(i.to_bytes(5, "big"))
            began = time.perf_counter()
            # Two frames back to back: a tag counts when two reads agree.  On a real RDM6300 the
            # second comes 65 ms after the first, which this figure does not include.
            os.write(master, frame * 2)
            next_event(events, TagRead)
            samples.append((time.perf_counter() - began) * 1000)
            time.sleep(0.03)  # let the presence timeout lapse so the next tap is a new one
    finally:
        reader.stop()
        os.close(master)
    samples.sort()
    return {
        "taps": TAPS,
        "median_ms": round(statistics.median(samples), 3),
        "p99_ms": round(percentile(samples, 0.99), 3),
        "max_ms": round(samples[-1], 3),
    }


def reconnect_time(retry_interval: float = 0.5, rounds: int = 5) -> dict[str, Any]:
    """Unplug (close the pty master), replug (a new pty behind the same symlink): seconds to
    connected again."""
    events: queue.Queue[InputEvent] = queue.Queue()
    with tempfile.TemporaryDirectory() as tmp:
        link = Path(tmp) / "ttyRFID"
        master, slave = os.openpty()
        link.symlink_to(os.ttyname(slave))
        os.close(slave)
        reader = Reader(events, protocol="rdm6300", port=str(link), retry_interval=retry_interval)
        reader.start()
        times = []
        try:
            assert next_event(events, ReaderStatus).connected  # type: ignore[union-attr]
            for _ in range(rounds):
                os.close(master)
                while next_event(events, ReaderStatus).connected:  # type: ignore[union-attr]
                    pass
                master, slave = os.openpty()
                link.unlink()
                link.symlink_to(os.ttyname(slave))
                os.close(slave)
                began = time.perf_counter()
                while not next_event(events, ReaderStatus).connected:  # type: ignore[union-attr]
                    pass
                times.append(time.perf_counter() - began)
        finally:
            reader.stop()
            os.close(master)
    return {
        "retry_interval_s": retry_interval,
        "rounds": rounds,
        "median_s": round(statistics.median(times), 3),
        "max_s": round(max(times), 3),
    }


def main() -> int:
    rng = random.Random(2024)
    figures = {
        "parse": parse_rates(rng),
        "frame_fuzz_1e6_random_bytes": frame_fuzz(),
        "tag_to_event_latency_pty": tap_latency(),
        "reconnect_after_unplug": reconnect_time(),
    }
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    from display.cli import playing_the_gadget

    with playing_the_gadget():
        raise SystemExit(main())
