"""NXP MFRC522 (the "RC522" module) over SPI, reading ISO/IEC 14443 type A tag UIDs.

MicroPython firmware for the aetherbox bridge; it also runs under CPython, so the tests drive
it against a register-level model of the chip.  Kept to the language subset MicroPython
compiles: no annotations, no dataclasses, no typing.

SPI (datasheet 8.1.2): mode 0, MSB first, chip select low for one transfer.  The first byte
is the address byte ``R/W, A5..A0, 0`` (bit 7 set to read); a write sends the data bytes after
it, a read clocks out one byte per address sent and ends with ``00``.

``spi`` needs ``write(buf)`` and ``readinto(buf, write_byte)`` (``machine.SPI`` has both);
``cs`` is called with 0 or 1 (a ``machine.Pin`` is callable that way).
"""

# Registers (datasheet section 9).
COMMAND = 0x01
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
VERSION = 0x37

# Commands written to COMMAND (datasheet 10.3).
CMD_IDLE = 0x00
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F
POWER_DOWN = 0x10  # COMMAND bit 4: still waking up after a reset

# COM_IRQ bits.
IRQ_SET1 = 0x80
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_ERR = 0x02
IRQ_TIMER = 0x01

# ERROR bits.
ERR_BUFFER_OVERFLOW = 0x10
ERR_COLLISION = 0x08
ERR_PARITY = 0x02
ERR_PROTOCOL = 0x01

START_SEND = 0x80  # BIT_FRAMING bit 7
FLUSH_FIFO = 0x80  # FIFO_LEVEL bit 7
ANTENNA_ON = 0x03  # TX_CONTROL: drive both TX1 and TX2
FORCE_100_ASK = 0x40  # TX_ASK: type A needs 100 % ASK modulation
VALUES_AFTER_COLL = 0x80  # COLL bit 7: 0 clears the bits received after a collision

# Known VERSION values: 0x91 / 0x92 are NXP's v1.0 / v2.0; the others are common clones.
KNOWN_VERSIONS = (0x88, 0x91, 0x92, 0x12, 0xB2)

# ISO/IEC 14443-3 type A.
REQA = 0x26
WUPA = 0x52
HLTA = 0x50
SELECT_LEVELS = (0x93, 0x95, 0x97)  # SEL code for cascade levels 1, 2, 3
NVB_ANTICOLLISION = 0x20  # two bytes sent, nothing of the UID known yet
NVB_SELECT = 0x70  # seven bytes: SEL, NVB, four UID bytes, BCC
CASCADE_TAG = 0x88  # first byte of a level that is not the last
SAK_CASCADE = 0x04  # SAK bit 3: the UID is not complete yet

# A transceive is bounded by the chip's own timer (set to 25 ms in init); this bounds the wait
# for the chip itself, so a loose wire ends in an error instead of a hang.
MAX_IRQ_POLLS = 2000


class RC522Error(Exception):
    """The chip did not behave: not wired, not powered, or not an MFRC522."""


class NoTag(Exception):
    """No tag answered in time."""


class Collision(Exception):
    """More than one tag answered at once."""


class BadFrame(Exception):
    """A tag answered with a frame that failed its check (BCC, CRC, parity, length)."""


def crc_ccitt(data, preset):
    """The reflected CRC-16 with polynomial 0x1021 (0x8408 reflected) from ``preset``: the
    register behind ISO 14443's CRC_A and CRC_B (the bridge line's CRC-16/IBM-SDLC).  A bit loop
    rather than a table: frames are a few dozen bytes, and the Pico's RAM is better spent elsewhere."""
    crc = preset
    for byte in data:
        crc ^= byte
        for _ in range(8):
            if crc & 1:
                crc = (crc >> 1) ^ 0x8408
            else:
                crc >>= 1
    return crc


def crc_a(data):
    """CRC_A of ISO/IEC 14443-3 (preset 0x6363), low byte first."""
    crc = crc_ccitt(data, 0x6363)
    return bytes((crc & 0xFF, crc >> 8))


def bcc(data):
    """The block check character: XOR of the four UID bytes of one cascade level."""
    result = 0
    for byte in data:
        result ^= byte
    return result


def assemble_uid(levels):
    """The full UID from each cascade level's four bytes, in order.

    Every level but the last starts with the cascade tag, which is not part of the UID.
    """
    uid = bytearray()
    last = len(levels) - 1
    for index, level in enumerate(levels):
        if index < last:
            if level[0] != CASCADE_TAG:
                raise BadFrame("cascade level %d lacks the cascade tag" % (index + 1))
            uid.extend(level[1:4])
        else:
            uid.extend(level[0:4])
    return bytes(uid)


class MFRC522:
    """The chip: registers, the Transceive command, and type A tag activation."""

    def __init__(self, spi, cs):
        self._spi = spi
        self._cs = cs
        self._one = bytearray(1)
        cs(1)

    # -- registers ---------------------------------------------------------------------------

    def write(self, register, value):
        self._cs(0)
        try:
            self._spi.write(bytes(((register << 1) & 0x7E, value)))
        finally:
            self._cs(1)

    def write_fifo(self, data):
        """Every byte of ``data`` into the FIFO, in one transfer."""
        self._cs(0)
        try:
            self._spi.write(bytes(((FIFO_DATA << 1) & 0x7E,)) + bytes(data))
        finally:
            self._cs(1)

    def read(self, register):
        self._cs(0)
        try:
            self._spi.write(bytes((0x80 | ((register << 1) & 0x7E),)))
            self._spi.readinto(self._one, 0x00)
        finally:
            self._cs(1)
        return self._one[0]

    def set_bits(self, register, mask):
        self.write(register, self.read(register) | mask)

    def clear_bits(self, register, mask):
        self.write(register, self.read(register) & ~mask & 0xFF)

    # -- set-up ------------------------------------------------------------------------------

    def init(self):
        """Reset the chip and switch the antenna on; returns its VERSION byte.

        Raises ``RC522Error`` when nothing sensible answers (0x00 and 0xFF are what a bus with
        no chip on it reads).
        """
        self.write(COMMAND, CMD_SOFT_RESET)
        for _ in range(MAX_IRQ_POLLS):
            if not self.read(COMMAND) & POWER_DOWN:
                break
        else:
            raise RC522Error("the RC522 did not finish its reset")
        version = self.read(VERSION)
        if version in (0x00, 0xFF):
            raise RC522Error("no RC522 answers on SPI (version register reads 0x%02X)" % version)
        # Timer: 13.56 MHz / (2 * 0xA9 + 1) = about 40 kHz; 1000 ticks = 25 ms after each
        # transmission (TAuto), longer than any type A answer, so "no tag" is quick.
        self.write(T_MODE, 0x80)
        self.write(T_PRESCALER, 0xA9)
        self.write(T_RELOAD_H, 0x03)
        self.write(T_RELOAD_L, 0xE8)
        self.write(TX_ASK, FORCE_100_ASK)
        self.write(MODE, 0x3D)  # CRC preset 0x6363, as type A wants
        self.set_bits(TX_CONTROL, ANTENNA_ON)
        return version

    # -- talking to tags ---------------------------------------------------------------------

    def transceive(self, data, last_bits=0):
        """Send ``data`` (its last byte only ``last_bits`` bits long, 0 = all 8) and return the
        answer as ``(bytes, valid bits in the last byte, 0 = all 8)``.

        Raises ``NoTag``, ``Collision``, ``BadFrame`` or ``RC522Error``.
        """
        self.write(COMMAND, CMD_IDLE)
        self.write(COM_IRQ, 0x7F)  # Set1 = 0: clears every request bit
        self.write(FIFO_LEVEL, FLUSH_FIFO)
        self.write_fifo(data)
        self.write(BIT_FRAMING, last_bits & 0x07)
        self.write(COMMAND, CMD_TRANSCEIVE)
        self.set_bits(BIT_FRAMING, START_SEND)
        for _ in range(MAX_IRQ_POLLS):
            irq = self.read(COM_IRQ)
            if irq & (IRQ_RX | IRQ_IDLE | IRQ_ERR):
                break
            if irq & IRQ_TIMER:
                self.clear_bits(BIT_FRAMING, START_SEND)
                raise NoTag()
        else:
            self.clear_bits(BIT_FRAMING, START_SEND)
            raise RC522Error("the RC522 stopped answering during a transfer")
        self.clear_bits(BIT_FRAMING, START_SEND)
        error = self.read(ERROR)
        if error & ERR_COLLISION:
            raise Collision()
        if error & (ERR_BUFFER_OVERFLOW | ERR_PARITY | ERR_PROTOCOL):
            raise BadFrame("receive error 0x%02X" % error)
        if not irq & IRQ_RX:
            raise NoTag()
        count = self.read(FIFO_LEVEL) & 0x7F
        bits = self.read(CONTROL) & 0x07
        answer = bytes(self.read(FIFO_DATA) for _ in range(count))
        return answer, bits

    def request(self, wake=True):
        """REQA (tags that are idle) or WUPA (idle or halted): the 2-byte ATQA."""
        answer, bits = self.transceive(bytes((WUPA if wake else REQA,)), 7)
        if len(answer) != 2 or bits:
            raise BadFrame("ATQA of %d bytes" % len(answer))
        return answer

    def anticollision(self, level):
        """The four UID bytes of cascade ``level`` (0, 1, 2), checked against their BCC."""
        self.clear_bits(COLL, VALUES_AFTER_COLL)
        answer, bits = self.transceive(bytes((SELECT_LEVELS[level], NVB_ANTICOLLISION)))
        if len(answer) != 5 or bits:
            raise BadFrame("anticollision answer of %d bytes" % len(answer))
        if bcc(answer[:4]) != answer[4]:
            raise BadFrame("BCC does not match")
        return answer[:4]

    def select(self, level, part):
        """SELECT the tag whose cascade ``level`` bytes are ``part``; returns its SAK."""
        frame = bytes((SELECT_LEVELS[level], NVB_SELECT)) + bytes(part) + bytes((bcc(part),))
        answer, bits = self.transceive(frame + crc_a(frame))
        if len(answer) != 3 or bits:
            raise BadFrame("SAK of %d bytes" % len(answer))
        if crc_a(answer[:1]) != answer[1:3]:
            raise BadFrame("SAK CRC does not match")
        return answer[0]

    def halt(self):
        """HLTA: the tag goes quiet until the next WUPA.  It never answers, so no answer is
        what success looks like."""
        frame = bytes((HLTA, 0x00))
        try:
            self.transceive(frame + crc_a(frame))
        except NoTag:
            pass

    def read_uid(self):
        """The UID (4, 7 or 10 bytes) of the one tag in the field, or ``None`` when none is.

        WUPA rather than REQA wakes the tag this very function halted at its last call, which
        is how a tag that stays on the reader is seen again and again.  Raises ``Collision``
        when several tags are there, ``BadFrame`` when an answer was garbled.
        """
        levels = []
        try:
            self.request(wake=True)
            for level in range(len(SELECT_LEVELS)):
                part = self.anticollision(level)
                sak = self.select(level, part)
                levels.append(part)
                if not sak & SAK_CASCADE:
                    break
                if part[0] != CASCADE_TAG:
                    raise BadFrame("SAK says more UID follows but the cascade tag is missing")
            else:
                raise BadFrame("UID longer than three cascade levels")
        except NoTag:
            return None  # no tag, or it left half-way through
        uid = assemble_uid(levels)
        self.halt()
        return uid
