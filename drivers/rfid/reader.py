"""The serial RFID reader: finds the port, speaks the reader's protocol, posts input events.

It runs on its own thread and only ever puts immutable ``device.inputs`` values on the input
queue.  Losing the port is normal (someone pulled the USB cable): the reader says so with a
``ReaderStatus`` and keeps trying to open it again, forever, a ``retry_interval`` apart.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from device.errors import ConfigError, DeviceBusy, DeviceNotFound, DevicePermission
from device.inputs import InputEvent, InputQueue, ReaderStatus
from drivers.rfid import line, pn532
from drivers.rfid.base import ParserStats, UidParser
from drivers.rfid.em4100 import AsciiHexParser, Em4100Parser, Id12Parser, Rdm6300Parser
from drivers.rfid.ports import Opener, PortInfo, SerialPort, find_port, open_serial, system_ports
from drivers.rfid.presence import Presence

log = logging.getLogger(__name__)

PROTOCOLS = ("auto", "rdm6300", "id12", "pn532", "line")
EM4100_BAUDRATE = 9600
#: How long a tag may go unseen before it counts as removed, per protocol.  The RDM6300 repeats
#: every 65 ms; the bridge promises a repeat at least every 250 ms; the PN532 is polled.
#: How long a streaming reader's read waits when no tag is held: what bounds the thread's wakes
#: (once a second) and, where the port cannot cut a read short, how long ``stop`` can take.
IDLE_READ = 1.0
PRESENCE_TIMEOUTS = {"rdm6300": 0.3, "id12": 0.3, "auto": 0.3, "pn532": 0.4, "line": 0.6}
#: Reads in a row that must agree before a UID counts.  The EM4100 readers' XOR and the PN532's
#: byte sum let some garbled frames through (one in 40 with two bad hex digits, one in 20 with
#: two flipped bits); a held tag is read again within 65 ms or one poll, so two agreeing reads
#: cost a tap little.  The bridge's CRC-16 catches every change of one or two digits.
READS_TO_CONFIRM = {"rdm6300": 2, "id12": 2, "rdm6300/id12": 2, "pn532": 2, "line": 1}
_UNANSWERED_POLLS = 3  # a PN532 that misses this many polls in a row is treated as lost
_NOT_FOUND = "no RFID reader found: plug one in, or set the reader's port in the configuration"


class TagReader(Protocol):
    """What the gadget needs from a reader, real or simulated."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


class Reader:
    """A serial RFID reader on its own thread.

    ``protocol`` is one of ``PROTOCOLS``; ``"auto"`` asks at 115200 baud for a PN532 or a
    bridge and otherwise listens at 9600 for RDM6300 or ID-12 frames.  ``port`` is a device
    path or pyserial URL; without it the first port behind a known USB-serial chip is used.
    ``answer_timeout`` bounds each wait for a PN532 or a bridge to answer.  ``opener`` and
    ``list_ports`` stand in for pyserial in tests.  Times are in seconds.
    """

    def __init__(
        self,
        events: InputQueue,
        *,
        protocol: str = "auto",
        port: str | None = None,
        presence_timeout: float | None = None,
        retry_interval: float = 1.0,  # a port not there (yet) is looked for once a second
        read_timeout: float = 0.05,
        idle_read: float = IDLE_READ,
        poll_interval: float = 0.1,
        answer_timeout: float = 0.3,
        opener: Opener = open_serial,
        list_ports: Callable[[], Sequence[PortInfo]] = system_ports,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if protocol not in PROTOCOLS:
            raise ConfigError(
                f"reader protocol {protocol!r} is not known; use one of {', '.join(PROTOCOLS)}"
            )
        self.protocol = protocol
        self.port = port
        self._events = events
        self._presence = Presence(
            PRESENCE_TIMEOUTS[protocol] if presence_timeout is None else presence_timeout
        )
        self._retry_interval = retry_interval
        self._read_timeout = read_timeout
        self._idle_read = max(idle_read, read_timeout)
        self._port: SerialPort | None = None  # the open port, for stop() to cut a read short
        self._poll_interval = poll_interval
        self._answer_timeout = answer_timeout
        self._opener = opener
        self._list_ports = list_ports
        self._clock = clock
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_status: ReaderStatus | None = None
        self._stats = ParserStats()
        self.connected = False

    @property
    def stats(self) -> ParserStats:
        """The counters of the current (or last) connection's parser."""
        return self._stats

    def start(self) -> None:
        """Start the reader thread (once)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="aetherbox-rfid", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread and close the port; returns within about ``timeout`` seconds."""
        self._stopping.set()
        cancel = getattr(self._port, "cancel_read", None)  # pyserial's ports on POSIX and Windows
        if cancel is not None:
            try:
                cancel()  # a read waiting for a tag ends now, not at its timeout
            except (OSError, ValueError):
                pass  # closed meanwhile
        if self._thread is not None:
            self._thread.join(timeout)

    # -- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._connection()
            except Exception as error:  # noqa: BLE001 - the reader must outlive any surprise
                log.exception("RFID reader failed")
                self._post_status(False, detail=f"reader failed: {error}")
            self._stopping.wait(self._retry_interval)

    def _post(self, events: Sequence[InputEvent]) -> None:
        for event in events:
            self._events.put(event)

    def _post_status(
        self, connected: bool, port: str = "", protocol: str = "", detail: str = ""
    ) -> None:
        self.connected = connected
        status = ReaderStatus(connected, port, protocol, detail)
        if status != self._last_status:  # retries repeat themselves; the status line need not
            self._last_status = status
            self._events.put(status)

    def _connection(self) -> None:
        """Find, open and read one port until it is lost or the reader is stopped."""
        import serial

        path = self.port
        if path is None:
            found = find_port(self._list_ports())
            if found is None:
                self._post_status(False, detail=_NOT_FOUND)
                return
            path = found[0]
        baudrate = EM4100_BAUDRATE if self.protocol in ("rdm6300", "id12") else line.BAUDRATE
        try:
            port = self._opener(path, baudrate, self._read_timeout)
        except (DeviceNotFound, DeviceBusy, DevicePermission) as error:
            self._post_status(False, path, self.protocol, str(error))
            return
        reason = "stopped"
        protocol = self.protocol
        self._port = port
        try:
            detected = self._prepare(port)
            if detected is None:
                self._post_status(False, path, self.protocol, _silent_message(path, self.protocol))
                return
            protocol = detected
            self._presence.reads_to_confirm = READS_TO_CONFIRM[protocol]
            self._post_status(True, path, protocol)
            reason = self._serve(port, path, protocol) or reason
        except (OSError, serial.SerialException) as error:
            reason = f"{path}: {error}"
        finally:
            self._port = None
            self._post(self._presence.clear())
            try:
                port.close()
            except (OSError, serial.SerialException):
                pass  # it is already gone
        if self.connected:
            self._post_status(False, path, protocol, reason)

    def _prepare(self, port: SerialPort) -> str | None:
        """The protocol to serve on ``port``; for ``auto`` this is the detection."""
        if self.protocol == "pn532":
            return "pn532" if self._pn532(port).configure() else None
        if self.protocol != "auto":
            return self.protocol
        return self._detect(port)

    def _pn532(self, port: SerialPort) -> pn532.Pn532:
        return pn532.Pn532(
            port,
            ack_timeout=self._answer_timeout,
            response_timeout=self._answer_timeout,
            clock=self._clock,
        )

    def _detect(self, port: SerialPort) -> str | None:
        port.baudrate = line.BAUDRATE
        chip = self._pn532(port)
        if chip.firmware_version(wake=True) is not None and chip.configure():
            return "pn532"
        port.reset_input_buffer()
        port.write(line.HELLO_REQUEST)
        parser = line.LineParser()
        deadline = self._clock() + self._answer_timeout
        while self._clock() < deadline and not self._stopping.is_set():
            if parser.feed_messages(self._read(port)):
                return "line"
        # RDM6300 and ID-12 readers only talk when a tag is there: listen for either.
        port.baudrate = EM4100_BAUDRATE
        return "rdm6300/id12"

    def _waiting_read(self, port: SerialPort) -> bytes:
        """A read that waits as long as nothing can be due: for a tag held, until its removal
        is due; with none, ``idle_read`` (a second) — so an idle reader wakes its thread once a
        second, not twenty times, while a tap still arrives the moment its bytes do."""
        due = self._presence.due()
        wait = (
            self._idle_read
            if due is None
            else min(self._idle_read, max(self._read_timeout, due - self._clock()))
        )
        if getattr(port, "timeout", wait) != wait:
            port.timeout = wait  # type: ignore[attr-defined]
        return self._read(port)

    def _read(self, port: SerialPort) -> bytes:
        # Blocks up to the port's timeout for the first byte, then takes what has arrived.
        data = port.read(1)
        if data:
            waiting = port.in_waiting
            if waiting:
                data += port.read(waiting)
        return data

    def _serve(self, port: SerialPort, path: str, protocol: str) -> str | None:
        if protocol == "pn532":
            return self._serve_pn532(port)
        if protocol == "line":
            return self._serve_line(port, path)
        parser: AsciiHexParser = {"rdm6300": Rdm6300Parser, "id12": Id12Parser}.get(
            protocol, Em4100Parser
        )()
        return self._serve_em4100(port, path, protocol, parser)

    def _serve_em4100(
        self, port: SerialPort, path: str, protocol: str, parser: AsciiHexParser
    ) -> str | None:
        while not self._stopping.is_set():
            data = self._waiting_read(port)
            now = self._clock()
            if data:
                uids = parser.feed(data)
                self._stats = parser.stats
                for uid, name in zip(uids, parser.last_protocols):
                    if name != protocol:  # auto-detection has just learnt which reader it is
                        protocol = name
                        self._post_status(True, path, protocol)
                    self._post(self._presence.seen(uid, now, name))
            self._post(self._presence.expire(now))
        return None

    def _serve_line(self, port: SerialPort, path: str) -> str | None:
        parser = line.LineParser()
        port.write(line.HELLO_REQUEST)
        while not self._stopping.is_set():
            data = self._waiting_read(port)
            now = self._clock()
            for message in parser.feed_messages(data) if data else []:
                if isinstance(message, line.Tag):
                    self._post(self._presence.seen(message.uid, now, "line"))
                elif isinstance(message, line.Gone):
                    self._post(self._presence.gone(message.uid))
                elif isinstance(message, line.Hello):
                    self._post_status(True, path, "line", _hello_detail(message))
                else:
                    self._post_status(True, path, "line", f"bridge error: {message.text}")
            self._stats = parser.stats
            self._post(self._presence.expire(now))
        return None

    def _serve_pn532(self, port: SerialPort) -> str | None:
        chip = self._pn532(port)
        missed = 0
        while not self._stopping.is_set():
            result = chip.poll()
            now = self._clock()
            self._stats = chip.stats
            if not result.answered:
                missed += 1
                if missed >= _UNANSWERED_POLLS:
                    return "the PN532 stopped answering"
            else:
                missed = 0
                if result.uid is not None:
                    self._post(self._presence.seen(result.uid, now, "pn532"))
            self._post(self._presence.expire(now))
            self._stopping.wait(self._poll_interval)
        return None


def _hello_detail(hello: line.Hello) -> str:
    if hello.checked:
        return f"{hello.firmware} {hello.version}"
    return (
        f"{hello.firmware} {hello.version} sends no checksums, so its tags are ignored; "
        "update the bridge with 'aetherbox firmware upload'"
    )


def _silent_message(path: str, protocol: str) -> str:
    if protocol == "pn532":
        return (
            f"{path}: no PN532 answered; check its wiring and that its mode switches "
            "select HSU (UART)"
        )
    return f"{path}: the reader did not answer"


def uid_parser(protocol: str) -> UidParser:
    """A fresh parser for a stream protocol: ``rdm6300``, ``id12`` or ``line``."""
    parsers: dict[str, Callable[[], UidParser]] = {
        "rdm6300": Rdm6300Parser,
        "id12": Id12Parser,
        "line": line.LineParser,
    }
    if protocol not in parsers:
        raise ConfigError(f"{protocol!r} has no stream parser; use one of {', '.join(parsers)}")
    return parsers[protocol]()
