"""A register-level model of the MFRC522 on its SPI bus, with simulated ISO 14443 type A tags.

Enough of the chip for the bridge firmware's driver to run unchanged: the SPI address-byte
framing, soft reset, the 64-byte FIFO and FIFOLevelReg's flush, ComIrqReg's Set1 write
semantics, BitFramingReg's StartSend and TxLastBits, the Transceive command, ErrorReg /
CollReg on a collision, ControlReg's RxLastBits, the antenna switch — and tags that follow the
type A state machine (IDLE, READY, ACTIVE, HALT) through REQA/WUPA, anticollision and SELECT
at each cascade level (with the cascade tag 0x88), and HLTA.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from firmware_tools.bridge.mfrc522 import crc_a

COMMAND, COM_IRQ, DIV_IRQ, ERROR = 0x01, 0x04, 0x05, 0x06
FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, COLL = 0x09, 0x0A, 0x0C, 0x0D, 0x0E
TX_CONTROL, VERSION = 0x14, 0x37
TRANSCEIVE, SOFT_RESET = 0x0C, 0x0F


class TagState(enum.Enum):
    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass
class Tag:
    """A type A tag with a 4-, 7- or 10-byte UID."""

    uid: bytes
    sak: int = 0x08  # MIFARE Classic 1K; an Ultralight would be 0x00
    atqa: bytes = b"\x04\x00"
    state: TagState = TagState.IDLE
    level: int = 0  # the cascade level being resolved while READY
    corrupt_bcc: bool = False

    def levels(self) -> list[bytes]:
        """The four bytes sent at each cascade level."""
        uid = self.uid
        if len(uid) == 4:
            return [uid]
        if len(uid) == 7:
            return [b"\x88" + uid[:3], uid[3:]]
        return [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]

    def answer(self, frame: bytes, last_bits: int) -> bytes | None:
        """What the tag sends back for ``frame``, moving through its states; None: silence."""
        if last_bits == 7 and len(frame) == 1:
            if (
                frame[0] == 0x26
                and self.state is TagState.IDLE
                or frame[0] == 0x52
                and self.state
                in (
                    TagState.IDLE,
                    TagState.HALT,
                )
            ):
                self.state, self.level = TagState.READY, 0
                return self.atqa
            if self.state is not TagState.HALT:
                self.state = TagState.IDLE
            return None
        if self.state is TagState.READY and len(frame) == 2 and frame[0] in (0x93, 0x95, 0x97):
            if frame[1] == 0x20 and frame[0] == (0x93, 0x95, 0x97)[self.level]:
                part = self.levels()[self.level]
                bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
                return part + bytes([bcc ^ (0xFF if self.corrupt_bcc else 0)])
        if self.state is TagState.READY and len(frame) == 9 and frame[1] == 0x70:
            part = self.levels()[self.level]
            expected = bytes([(0x93, 0x95, 0x97)[self.level], 0x70]) + part
            expected += bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])
            if frame[:7] == expected and frame[7:] == crc_a(frame[:7]):
                last = self.level == len(self.levels()) - 1
                sak = self.sak if last else 0x04
                if last:
                    self.state = TagState.ACTIVE
                else:
                    self.level += 1
                return bytes([sak]) + crc_a(bytes([sak]))
            self.state = TagState.IDLE
            return None
        if self.state is TagState.ACTIVE and frame == b"\x50\x00" + crc_a(b"\x50\x00"):
            self.state = TagState.HALT
            return None
        # ISO 14443-3: anything unexpected sends the tag back to IDLE (or keeps it HALTed).
        if self.state is not TagState.HALT:
            self.state = TagState.IDLE
        return None


@dataclass
class Field:
    """The tags in the antenna's field."""

    tags: list[Tag] = field(default_factory=list)

    def place(self, tag: Tag) -> Tag:
        tag.state = TagState.IDLE
        self.tags.append(tag)
        return tag

    def lift(self, tag: Tag) -> None:
        self.tags.remove(tag)

    def exchange(self, frame: bytes, last_bits: int) -> tuple[bytes | None, int | None]:
        """(the answer, the first colliding bit position 1-based, or None)."""
        answers = [
            a for a in (tag.answer(frame, last_bits) for tag in list(self.tags)) if a is not None
        ]
        if not answers:
            return None, None
        first = answers[0]
        for other in answers[1:]:
            for i in range(min(len(first), len(other)) * 8):
                if (first[i // 8] >> (i % 8)) & 1 != (other[i // 8] >> (i % 8)) & 1:
                    return first, i + 1
        return first, None


class FakeRC522:
    """The chip on an SPI bus: ``write``/``readinto`` like ``machine.SPI``, ``cs`` like a Pin."""

    def __init__(
        self, field: Field | None = None, *, version: int = 0x92, present: bool = True
    ) -> None:
        self.field = field if field is not None else Field()
        self.version = version
        self.present = present  # False: nothing on the bus (MISO floats high)
        self.selected = False
        self.frames: list[bytes] = []  # every frame sent to the tags, for assertions
        self._transfer: list[int] = []
        self._reset()

    def _reset(self) -> None:
        self.regs = bytearray(0x40)
        self.regs[COMMAND] = 0x20
        self.regs[FIFO_LEVEL] = 0x00
        self.regs[CONTROL] = 0x10
        self.regs[TX_CONTROL] = 0x80  # antenna off after reset
        self.regs[VERSION] = self.version
        self.fifo: list[int] = []

    @property
    def antenna_on(self) -> bool:
        return self.regs[TX_CONTROL] & 0x03 == 0x03

    # -- the bus -----------------------------------------------------------------------------

    def cs(self, level: int) -> None:
        if not level:
            self.selected = True
            self._transfer = []
        else:
            self.selected = False

    def write(self, data: bytes) -> None:
        for byte in data:
            self._clock(byte)

    def readinto(self, buf: bytearray, write: int = 0x00) -> None:
        for i in range(len(buf)):
            buf[i] = self._clock(write)

    def _clock(self, mosi: int) -> int:
        """One byte each way; returns what the chip puts on MISO."""
        if not self.present:
            return 0xFF
        assert self.selected, "SPI transfer without chip select"
        self._transfer.append(mosi)
        first = self._transfer[0]
        assert first & 0x01 == 0, f"address byte {first:#04x} has bit 0 set"
        if len(self._transfer) == 1:
            return 0x00
        if first & 0x80:  # read: each byte sent is the next address, answered on the next byte
            previous = self._transfer[-2]
            return self._read((previous >> 1) & 0x3F)
        self._write((first >> 1) & 0x3F, mosi)
        return 0x00

    # -- registers ---------------------------------------------------------------------------

    def _read(self, reg: int) -> int:
        if reg == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == FIFO_LEVEL:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == FIFO_DATA:
            if len(self.fifo) < 64:
                self.fifo.append(value)
            else:
                self.regs[ERROR] |= 0x10
        elif reg == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~0x10 & 0xFF
        elif reg == COM_IRQ:
            mask = value & 0x7F
            if value & 0x80:
                self.regs[COM_IRQ] |= mask
            else:
                self.regs[COM_IRQ] &= ~mask & 0xFF
        elif reg == COMMAND:
            command = value & 0x0F
            if command == SOFT_RESET:
                self._reset()
                return
            self.regs[COMMAND] = value & 0x3F
        elif reg == BIT_FRAMING:
            self.regs[BIT_FRAMING] = value
            if value & 0x80 and self.regs[COMMAND] & 0x0F == TRANSCEIVE:
                self._transceive()
        elif reg in (VERSION, ERROR):
            pass  # read-only
        else:
            self.regs[reg] = value

    def _transceive(self) -> None:
        frame = bytes(self.fifo)
        self.fifo.clear()
        last_bits = self.regs[BIT_FRAMING] & 0x07
        self.frames.append(frame)
        self.regs[ERROR] = 0
        self.regs[COM_IRQ] |= 0x40  # TxIRq
        answer, collision = (
            self.field.exchange(frame, last_bits) if self.antenna_on else (None, None)
        )
        if answer is None:
            self.regs[COM_IRQ] |= 0x01  # the timer ran out: nobody answered
            return
        self.fifo = list(answer)
        self.regs[CONTROL] &= 0xF8  # every answer here ends on a whole byte
        self.regs[COM_IRQ] |= 0x20  # RxIRq
        if collision is not None:
            self.regs[ERROR] |= 0x08
            self.regs[COM_IRQ] |= 0x02
            self.regs[COLL] = (self.regs[COLL] & 0xE0) | (collision & 0x1F)
