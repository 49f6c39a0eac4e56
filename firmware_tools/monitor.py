"""``aetherbox reader monitor``: what a reader sends, byte for byte, and which reader it is.

For someone who has just soldered a reader: it finds the port, works out the protocol and baud
rate (at 115200 it asks for a PN532's firmware version, then for a bridge's hello; otherwise it
listens at 9600 for RDM6300 / ID-12 frames), then prints every frame as hex with what it means,
checksum errors and skipped bytes included, and a summary with the counts.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from device.config import Config
from device.errors import DeviceNotFound
from drivers.rfid import line, pn532
from drivers.rfid.em4100 import Em4100Parser
from drivers.rfid.ports import SerialPort, find_port, open_serial, system_ports
from firmware_tools.cli import tool_main

EM4100_BAUD = 9600
FAST_BAUD = 115200
READ_TIMEOUT = 0.05
ANSWER_TIMEOUT = 0.3
PN532_POLL_INTERVAL = 0.2
_SIZES = {"rdm6300": 14, "id12": 16}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", help="serial port (default: configured, else found by USB id)")
    parser.add_argument(
        "--seconds", type=float, metavar="N", help="stop after N seconds (default: at Ctrl-C)"
    )
    parser.add_argument(
        "--raw", action="store_true", help="only print the bytes as they arrive; no detection"
    )
    parser.add_argument(
        "--baud",
        type=int,
        choices=(EM4100_BAUD, FAST_BAUD),
        help=f"baud rate for --raw (default {EM4100_BAUD})",
    )


def main(argv: Sequence[str] | None = None) -> int:
    return tool_main(
        "aetherbox reader monitor",
        "Show what an RFID reader sends and detect its protocol.",
        add_arguments,
        run,
        argv,
    )


def hex_bytes(data: bytes) -> str:
    return " ".join(f"{byte:02X}" for byte in data)


class Counts:
    def __init__(self) -> None:
        self.frames = 0
        self.bad_checksum = 0
        self.skipped = 0
        self.tags: collections.Counter[str] = collections.Counter()


class Monitor:
    def __init__(
        self, port: SerialPort, out: TextIO, clock: Callable[[], float], until: float | None
    ) -> None:
        self.port = port
        self.out = out
        self.clock = clock
        self.start = clock()
        self.until = until
        self.counts = Counts()
        self.leftover = b""

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show(self, data: bytes, meaning: str) -> None:
        self.say(f"{self.clock() - self.start:8.3f}  {hex_bytes(data)}  {meaning}")

    def running(self) -> bool:
        return self.until is None or self.clock() - self.start < self.until

    def read(self) -> bytes:
        data = self.port.read(1)
        if data:
            waiting = self.port.in_waiting
            if waiting:
                data += self.port.read(waiting)
        return data

    # -- detection -----------------------------------------------------------------------------

    def detect(self) -> str:
        """``pn532``, ``line`` or ``em4100`` (the last one is a guess until a frame arrives)."""
        self.port.baudrate = FAST_BAUD
        self.out.write(f"{FAST_BAUD} baud: asking for a PN532 (GetFirmwareVersion)... ")
        chip = pn532.Pn532(self.port, ack_timeout=ANSWER_TIMEOUT, response_timeout=ANSWER_TIMEOUT)
        version = chip.firmware_version(wake=True)
        if version is not None:
            self.say(f"PN532 answered: IC 0x{version[0]:02X}, firmware {version[1]}.{version[2]}.")
            return "pn532"
        self.say("no answer.")
        self.out.write(f"{FAST_BAUD} baud: asking for a bridge (HELLO)... ")
        self.port.reset_input_buffer()
        self.port.write(line.HELLO_REQUEST)
        parser = line.LineParser()
        seen = bytearray()
        deadline = self.clock() + ANSWER_TIMEOUT
        while self.clock() < deadline:
            data = self.read()
            seen += data
            for message in parser.feed_messages(data):
                if isinstance(message, line.Hello):
                    old = (
                        ""
                        if message.checked
                        else " It sends no checksums, so the gadget ignores its tags: update it with 'aetherbox firmware upload'."
                    )
                    self.say(f"bridge answered: {message.firmware} {message.version}.{old}")
                    # Lines that came with the hello are shown, not lost.
                    end = seen.find(b"\n", seen.find(line.HELLO_WORD.encode()))
                    self.leftover = bytes(seen[end + 1 :])
                    return "line"
        self.say("no answer.")
        self.port.baudrate = EM4100_BAUD
        self.say(
            f"{EM4100_BAUD} baud: listening for RDM6300 / ID-12 frames; hold a tag on the reader."
        )
        return "em4100"

    # -- listening -----------------------------------------------------------------------------

    def em4100(self) -> str:
        parser = Em4100Parser()
        pending = bytearray()
        reported_skipped = 0
        protocols: set[str] = set()
        while self.running():
            data = self.read()
            if not data:
                reported_skipped = self._skipped(
                    pending, parser.stats.skipped - reported_skipped, reported_skipped
                )
                continue
            for byte in data:
                before = parser.stats
                pending.append(byte)
                uids = parser.feed(bytes([byte]))
                after = parser.stats
                if after.frames == before.frames and after.bad_checksum == before.bad_checksum:
                    continue
                garbage = after.skipped - reported_skipped
                reported_skipped = self._skipped(pending, garbage, reported_skipped)
                if uids:
                    name = parser.last_protocols[0]
                    protocols.add(name)
                    self.counts.frames += 1
                    self.counts.tags[uids[0]] += 1
                    self.show(bytes(pending), f"{name.upper()} tag {uids[0]}")
                else:
                    self.counts.bad_checksum += 1
                    digits = bytes(pending[1:13]).decode("ascii", "replace")
                    self.show(
                        bytes(pending),
                        f"checksum error: {digits[:10]} should XOR to {_xor(digits[:10])}, frame says {digits[10:12]}",
                    )
                pending.clear()
        self._skipped(pending, parser.stats.skipped - reported_skipped, reported_skipped)
        return "/".join(sorted(protocols)) or "rdm6300/id12"

    def _skipped(self, pending: bytearray, count: int, reported: int) -> int:
        if count > 0:
            self.show(
                bytes(pending[:count]),
                f"skipped {count} byte{'s' if count != 1 else ''} (not part of a frame)",
            )
            self.counts.skipped += count
            del pending[:count]
        return reported + max(count, 0)

    def lines(self) -> str:
        buffer = bytearray(self.leftover)
        while self.running():
            data = self.read()
            buffer += data
            while b"\n" in buffer:
                raw, _, rest = bytes(buffer).partition(b"\n")
                buffer = bytearray(rest)
                message = line.check_line(raw)
                if message is None:
                    self.counts.skipped += 1
                    self.show(raw + b"\n", "not a bridge line (ignored)")
                    continue
                if isinstance(message, line.BadChecksum):
                    self.counts.bad_checksum += 1
                    should = f"{line.crc16(message.text.encode('ascii')):04X}"
                    self.show(
                        raw + b"\n",
                        f"checksum error: CRC should be {should}, line says {message.crc}",
                    )
                    continue
                self.counts.frames += 1
                if isinstance(message, line.Tag):
                    self.counts.tags[message.uid] += 1
                    meaning = f"TAG {message.uid}"
                elif isinstance(message, line.Gone):
                    meaning = f"GONE {message.uid}"
                elif isinstance(message, line.Hello):
                    meaning = f"hello from {message.firmware} {message.version}"
                    if not message.checked:
                        meaning += " (no checksums: update it with 'aetherbox firmware upload')"
                else:
                    meaning = f"bridge error: {message.text}"
                self.show(raw + b"\n", meaning)
        return "line"

    def pn532(self) -> str:
        chip = pn532.Pn532(self.port, ack_timeout=ANSWER_TIMEOUT, response_timeout=ANSWER_TIMEOUT)
        if not chip.configure():
            self.say(
                "the PN532 did not accept its configuration (SAMConfiguration / RFConfiguration)"
            )
            return "pn532"
        self.say("PN532 ready; polling for type A tags.")
        current: str | None = None
        silent = 0
        while self.running():
            result = chip.poll()
            if not result.answered:
                silent += 1
                self.counts.skipped += 1
            else:
                self.counts.frames += 1
            if result.uid != current and result.answered:
                if result.uid is not None:
                    self.counts.tags[result.uid] += 1
                    self.show(bytes.fromhex(result.uid), f"PN532 tag {result.uid} on the reader")
                elif current is not None:
                    self.show(b"", f"tag {current} left")
                current = result.uid
            time.sleep(PN532_POLL_INTERVAL)
        self.counts.bad_checksum = chip.stats.bad_checksum
        if silent:
            self.say(f"{silent} polls went unanswered.")
        return "pn532"

    def raw(self) -> None:
        while self.running():
            data = self.read()
            if data:
                self.counts.frames += 1
                text = "".join(chr(b) if 32 <= b < 127 else "." for b in data)
                self.show(data, repr(text))

    def summary(self, protocol: str, baud: int) -> None:
        counts = self.counts
        self.say(
            f"Summary: {protocol} at {baud} baud; {counts.frames} frames, "
            f"{counts.bad_checksum} checksum errors, {counts.skipped} skipped."
        )
        if counts.tags:
            self.say("Tags seen: " + ", ".join(f"{uid} ({n})" for uid, n in counts.tags.items()))
        elif protocol == "rdm6300/id12":
            self.say(
                "No frames: check the reader's TX to the adapter's RX, its 5 V supply, and hold a "
                "125 kHz (EM4100) tag flat on the coil."
            )


def _xor(digits: str) -> str:
    try:
        data = bytes.fromhex(digits)
    except ValueError:
        return "?"
    result = 0
    for byte in data:
        result ^= byte
    return f"{result:02X}"


def run(args: argparse.Namespace, config: Config, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    path = args.port or config.reader.port
    if path is None:
        found = find_port(system_ports())
        if found is None:
            raise DeviceNotFound("no RFID reader found by its USB id: plug one in, or give --port")
        path, chip = found
        print(f"Port: {path} ({chip})", file=out, flush=True)
    else:
        print(f"Port: {path}", file=out, flush=True)
    baud = args.baud or EM4100_BAUD
    port = open_serial(path, baud if args.raw else FAST_BAUD, READ_TIMEOUT)
    monitor = Monitor(port, out, time.monotonic, args.seconds)
    protocol = "raw"
    try:
        if args.raw:
            monitor.say(f"{baud} baud: every byte as it arrives.")
            monitor.raw()
        else:
            detected = monitor.detect()
            baud = port.baudrate
            if detected == "pn532":
                protocol = monitor.pn532()
            elif detected == "line":
                protocol = monitor.lines()
            else:
                protocol = monitor.em4100()
    except KeyboardInterrupt:
        pass
    finally:
        port.close()
    monitor.summary(protocol, baud)
    return 0
