"""RFID readers on a serial port (pyserial), and a simulated one.

``Reader`` is the real thing; ``FakeReader`` posts the same events from method calls.  Both put
``TagRead`` / ``TagRemoved`` / ``ReaderStatus`` on the input queue; ``make_reader`` picks one
by the configured protocol name.
"""

from __future__ import annotations

import logging
from typing import Any

from device.inputs import InputQueue
from drivers.rfid.base import ParserStats, UidParser
from drivers.rfid.em4100 import Em4100Parser, Id12Parser, Rdm6300Parser, id12_frame, rdm6300_frame
from drivers.rfid.fake import FakeReader
from drivers.rfid.line import LineParser
from drivers.rfid.pn532 import Pn532
from drivers.rfid.ports import KNOWN_USB_IDS, PortInfo, find_port, open_serial
from drivers.rfid.reader import PROTOCOLS, Reader, TagReader, uid_parser

__all__ = [
    "KNOWN_USB_IDS",
    "PROTOCOLS",
    "Em4100Parser",
    "FakeReader",
    "Id12Parser",
    "LineParser",
    "ParserStats",
    "Pn532",
    "PortInfo",
    "Rdm6300Parser",
    "Reader",
    "TagReader",
    "UidParser",
    "find_port",
    "id12_frame",
    "make_reader",
    "open_serial",
    "rdm6300_frame",
    "uid_parser",
]

log = logging.getLogger(__name__)


def make_reader(
    events: InputQueue, *, protocol: str = "auto", port: str | None = None, **options: Any
) -> TagReader:
    """The reader for the configured ``protocol``: ``"fake"`` or one of ``PROTOCOLS``.

    ``options`` go to ``Reader`` (timeouts).  Raises ``ConfigError`` for an unknown protocol.
    """
    if protocol == "fake":
        log.warning("RFID: using the simulated reader (protocol = 'fake'); no hardware is read")
        return FakeReader(events)
    log.info("RFID: %s reader on %s", protocol, port or "the first known USB-serial port")
    return Reader(events, protocol=protocol, port=port, **options)
