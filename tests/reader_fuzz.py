"""The reader fuzz: random bytes, valid frames and garbled ones through each protocol's real
parser and the reader's presence rule, counting false cards.

Used by tests/drivers/test_rfid_fuzz.py (a smaller count) and tests/bench/reader.py (10⁶
random bytes per protocol).

The stream is a series of holds: a tag from a pool of 16 is held on the reader for a few frames
(one every 65 ms for the EM4100 readers, 100 ms for the bridge and the PN532), some of them
garbled (one or two hex digits changed to other hex digits; for the PN532, one or two bytes
changed or two bits flipped), then two good frames; then the tag is lifted for longer than the
presence timeout.  Before every frame comes a burst of random bytes (0 to 64), until the random
bytes are spent.  A false card is a ``TagRead`` of a UID not in the pool.

For the bridge a burst ends in a newline: a line that noise runs into is lost, which is a missed
read, not a false card, and would make "every hold is read" untrue by construction.  For the
PN532 each poll is one command and its answer, with the burst before the ACK (the driver flushes
its input before each command, so noise between polls is never read); the last two polls of a
hold have no burst, since noise can cost an answer there.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from device.inputs import InputEvent, TagRead
from drivers.rfid import line, pn532
from drivers.rfid.em4100 import id12_frame, rdm6300_frame
from drivers.rfid.presence import Presence
from drivers.rfid.reader import PRESENCE_TIMEOUTS, READS_TO_CONFIRM, uid_parser

PROTOCOLS = ("rdm6300", "id12", "line", "pn532")
HEX = b"0123456789ABCDEF"
POOL = 16
MAX_BURST = 64
PERIODS = {"rdm6300": 0.065, "id12": 0.065, "line": 0.1, "pn532": 0.1}
GARBLINGS = ("one digit", "two digits", "two bits")


@dataclass
class Figures:
    """What one fuzz run fed and what came out."""

    protocol: str
    random_bytes: int = 0
    holds: int = 0
    valid_frames: int = 0
    valid_frames_through: int = 0  # parsed (polls answered) with the held tag's UID
    garbled: dict[str, int] = field(default_factory=dict)
    garbled_through_checksum: int = 0  # garbled frames the parser returned as some other UID
    taps: list[str] = field(default_factory=list)  # UIDs of the TagReads, in order
    held: list[str] = field(default_factory=list)  # UIDs of the holds, in order
    false_cards: int = 0

    def summary(self) -> dict[str, object]:
        return {
            "random_bytes": self.random_bytes,
            "holds": self.holds,
            "taps": len(self.taps),
            "taps_as_held": self.taps == self.held,
            "valid_frames": self.valid_frames,
            "valid_frames_through": self.valid_frames_through,
            "garbled_frames": dict(self.garbled),
            "garbled_through_checksum": self.garbled_through_checksum,
            "false_cards": self.false_cards,
        }


def _uids(rng: random.Random, protocol: str) -> list[bytes]:
    sizes = (5,) if protocol in ("rdm6300", "id12") else (4, 7, 10)
    return [rng.randbytes(rng.choice(sizes)) for _ in range(POOL)]


def _frame(protocol: str, uid: bytes) -> bytes:
    if protocol == "rdm6300":
        return rdm6300_frame(uid)
    if protocol == "id12":
        return id12_frame(uid)
    if protocol == "line":
        return line.tag_line(uid.hex())
    return pn532.in_list_response(uid)


def _garble(rng: random.Random, protocol: str, frame: bytes, how: str) -> bytes:
    out = bytearray(frame)
    if protocol == "pn532":
        body = range(5, len(frame) - 1)  # TFI, data and DCS
        if how == "two bits":
            for bit in rng.sample(range(8 * len(body)), 2):
                out[body[0] + bit // 8] ^= 1 << (bit % 8)
        else:
            for at in rng.sample(body, 1 if how == "one digit" else 2):
                out[at] = rng.choice([b for b in range(256) if b != frame[at]])
        return bytes(out)
    first = 4 if protocol == "line" else 1  # after "TAG " or STX: the UID's and checksum's digits
    digits = [i for i in range(first, len(frame)) if frame[i] in HEX]
    for at in rng.sample(digits, 1 if how == "one digit" else 2):
        out[at] = rng.choice([b for b in HEX if b != frame[at]])
    return bytes(out)


class _ScriptedPort:
    """A PN532 on the far side: each command written gets the next scripted answer."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock
        self.answer = b""
        self._pending = bytearray()

    def reset_input_buffer(self) -> None:
        self._pending.clear()

    def write(self, data: bytes) -> int:
        self._pending += self.answer
        self.answer = b""
        return len(data)

    @property
    def in_waiting(self) -> int:
        return len(self._pending)

    def read(self, size: int = 1) -> bytes:
        if not self._pending:
            self.clock[0] += 0.01  # the port's read timeout passes
            return b""
        data = bytes(self._pending[:size])
        del self._pending[:size]
        return data


def fuzz(
    protocol: str, random_bytes: int, seed: int = 6, reads_to_confirm: int | None = None
) -> Figures:
    """One run of ``random_bytes`` random bytes for ``protocol`` (one of ``PROTOCOLS``).

    ``reads_to_confirm`` overrides the reader's (``READS_TO_CONFIRM``), to show what the rule
    is worth."""
    rng = random.Random(f"{seed}-{protocol}")
    pool = _uids(rng, protocol)
    known = {uid.hex().upper() for uid in pool}
    timeout = PRESENCE_TIMEOUTS[protocol]
    period = PERIODS[protocol]
    confirm = READS_TO_CONFIRM[protocol] if reads_to_confirm is None else reads_to_confirm
    presence = Presence(timeout, confirm)
    kinds_here = [how for how in GARBLINGS if how != "two bits" or protocol == "pn532"]
    figures = Figures(protocol, garbled={how: 0 for how in kinds_here})
    events: list[InputEvent] = []
    clock = [0.0]
    parser = uid_parser(protocol) if protocol != "pn532" else None
    port = _ScriptedPort(clock)
    chip = pn532.Pn532(port, ack_timeout=0.05, response_timeout=0.05, clock=lambda: clock[0])

    def burst() -> bytes:
        size = min(rng.randint(0, MAX_BURST), random_bytes - figures.random_bytes)
        figures.random_bytes += size
        noise = rng.randbytes(size)
        return noise + b"\n" if protocol == "line" else noise

    def read(uid: str) -> None:
        events.extend(presence.seen(uid, now, protocol))

    now = 0.0
    while figures.random_bytes < random_bytes:
        tag = rng.choice(pool)
        held = tag.hex().upper()
        figures.holds += 1
        figures.held.append(held)
        good = _frame(protocol, tag)
        kinds = [rng.choice(("valid", *figures.garbled)) for _ in range(rng.randint(0, 4))]
        for number, kind in enumerate([*kinds, "valid", "valid"]):
            frame = good if kind == "valid" else _garble(rng, protocol, good, kind)
            if kind == "valid":
                figures.valid_frames += 1
            else:
                figures.garbled[kind] += 1
            last_two = number >= len(kinds)
            if parser is not None:
                uids = parser.feed(burst()) + parser.feed(frame)
            else:
                noise = b"" if last_two else burst()
                port.answer = noise + pn532.ACK + frame
                clock[0] = now
                result = chip.poll()
                uids = [result.uid] if result.uid is not None else []
            for uid in uids:
                if uid == held and kind == "valid":
                    figures.valid_frames_through += 1
                elif uid not in known:
                    figures.garbled_through_checksum += 1
                read(uid)
            events.extend(presence.expire(now))
            now += period
        now += timeout + period  # lifted
        events.extend(presence.expire(now))
    figures.taps = [e.uid for e in events if isinstance(e, TagRead)]
    figures.false_cards = sum(uid not in known for uid in figures.taps)
    return figures
