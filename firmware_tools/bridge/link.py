"""The bridge's side of the aetherbox line protocol, over USB serial.

The protocol is defined in ``drivers/rfid/line.py`` (and the README): a hello line
``AETHERBOX-BRIDGE <firmware> <version>`` at start and on ``HELLO``; ``TAG <uid>`` repeated
while a tag stays; ``GONE <uid>`` when it leaves; ``ERR <text>`` for trouble.  Every line ends
in `` *<crc>``, the CRC-16/IBM-SDLC of its text in four upper-case hex digits, so the host can
tell a line garbled on the way from a card.

Nothing here touches hardware: ``Bridge`` is given a reader (``read_uid()`` → bytes or
``None``, ``init()``) and a ``write(text)`` function, and ``run`` is given the input poll, the
clock and the sleep, so the tests run all of it under CPython.  MicroPython subset only.
"""

try:
    from . import mfrc522  # inside the aetherbox package (the tests, the upload tool)
except (ImportError, ValueError):
    import mfrc522  # on the Pico every file sits at the root of its filesystem

FIRMWARE = "rc522-pico"
VERSION = "1.1"  # 1.1: every line carries its CRC
HELLO = "AETHERBOX-BRIDGE " + FIRMWARE + " " + VERSION
MAX_LINE = 200
#: One poll every 100 ms, so a held tag's TAG line repeats well inside the 250 ms the protocol
#: promises.
POLL_MS = 100
#: Polls in a row without the tag before GONE: one missed poll is often just the tag being
#: moved on the antenna, and 2 x 100 ms is still quicker than a person lifts a card.
MISSES_TO_LEAVE = 2
#: Empty polls in a row after which a reported problem counts as over (and is said again if it
#: comes back).
QUIET_TO_FORGET_ERROR = 5
#: While the chip is not answering, how often to try to set it up again.
RETRY_MS = 1000


def crc16(data):
    """CRC-16/IBM-SDLC (X-25, ISO 14443 CRC_B): preset 0xFFFF, reflected 0x1021, inverted.
    ``b"123456789"`` gives 0x906E."""
    return mfrc522.crc_ccitt(data, 0xFFFF) ^ 0xFFFF


def checked(text):
    """``text`` as a line on the wire: `` *`` and its CRC in four hex digits, then ``\\n``."""
    return text + " *%04X\n" % crc16(text.encode())


def hello_line():
    return checked(HELLO)


def uid_hex(uid):
    """``b"\\x04\\xa1"`` → ``"04A1"``: upper-case hex, no separators."""
    return "".join("%02X" % byte for byte in uid)


def tag_line(uid):
    return checked("TAG " + uid_hex(uid))


def gone_line(uid):
    return checked("GONE " + uid_hex(uid))


def err_line(text):
    return checked("ERR " + text)


class Presence:
    """Poll results → lines: a TAG line at every poll that sees the tag, GONE once it left."""

    def __init__(self, misses_to_leave=MISSES_TO_LEAVE):
        self.misses_to_leave = misses_to_leave
        self.current = None
        self._misses = 0

    def update(self, uid):
        """The lines for one poll that saw ``uid`` (bytes) or no tag (``None``)."""
        lines = []
        if uid is None:
            if self.current is not None:
                self._misses += 1
                if self._misses >= self.misses_to_leave:
                    lines.append(gone_line(self.current))
                    self.current = None
            return lines
        if self.current is not None and uid != self.current:
            lines.append(gone_line(self.current))
        self.current = uid
        self._misses = 0
        lines.append(tag_line(uid))
        return lines

    def clear(self):
        """Forget the tag (the chip was lost): its GONE line, if there was one."""
        if self.current is None:
            return []
        uid, self.current = self.current, None
        return [gone_line(uid)]


class Commands:
    """Bytes from the host → the commands on the lines they complete (only ``HELLO`` is one)."""

    def __init__(self):
        self._buffer = bytearray()
        self._overlong = False

    def feed(self, data):
        found = []
        for byte in data:
            if byte == 0x0A:
                if not self._overlong:
                    text = bytes(self._buffer).strip()
                    if text == b"HELLO":
                        found.append("HELLO")
                self._buffer = bytearray()
                self._overlong = False
            elif not self._overlong:
                self._buffer.append(byte)
                if len(self._buffer) > MAX_LINE:
                    self._overlong = True
                    self._buffer = bytearray()
        return found


class Bridge:
    """The bridge's behaviour between hardware and the USB line."""

    def __init__(self, reader, write, misses_to_leave=MISSES_TO_LEAVE):
        self.reader = reader
        self.write = write
        self.presence = Presence(misses_to_leave)
        self.commands = Commands()
        self.ready = False
        self._error = None
        self._quiet = 0

    def start(self):
        """Say hello, then set up the chip."""
        self.write(hello_line())
        self.setup()

    def setup(self):
        """Try to set up the chip; ``True`` when it answered."""
        try:
            self.reader.init()
        except Exception as error:  # noqa: BLE001 - any failure means "check the wiring"
            self._report("RC522 not answering (" + str(error) + "); check its wiring and 3.3 V")
            self.ready = False
            return False
        self.ready = True
        self._error = None
        return True

    def on_input(self, data):
        for command in self.commands.feed(data):
            if command == "HELLO":
                self.write(hello_line())

    def poll(self):
        """Look for a tag once and say what changed."""
        if not self.ready:
            return
        try:
            uid = self.reader.read_uid()
        except mfrc522.Collision:
            # Picking one of two cards would be a guess; the player can lift one.
            self._report("more than one tag on the reader; take all but one off")
            self._quiet = 0
            uid = None
        except mfrc522.BadFrame:
            uid = None  # a tag half in the field; the next poll will see it properly
        except mfrc522.RC522Error as error:
            self._report("RC522 not answering (" + str(error) + "); check its wiring and 3.3 V")
            self.ready = False
            for line in self.presence.clear():
                self.write(line)
            return
        if uid is not None:
            self._error = None
            self._quiet = 0
        elif self._error is not None:
            # Colliding tags answer only every other poll (a WUPA sends a READY tag back to
            # IDLE), so one empty poll does not mean the problem went away.
            self._quiet += 1
            if self._quiet >= QUIET_TO_FORGET_ERROR:
                self._error = None
                self._quiet = 0
        for line in self.presence.update(uid):
            self.write(line)

    def _report(self, text):
        # Once per problem, not at every poll: the host shows it on a status line.
        if text != self._error:
            self._error = text
            self.write(err_line(text))


def run(bridge, read_input, ticks_ms, ticks_diff, sleep_ms, loops=None):
    """The bridge's main loop: host input, one poll, then sleep out the rest of the period.

    ``read_input()`` returns the bytes the host has sent (``b""`` for none) without blocking.
    ``loops`` bounds the loop for tests; the firmware runs forever.
    """
    bridge.start()
    last_setup = ticks_ms()
    done = 0
    while loops is None or done < loops:
        started = ticks_ms()
        data = read_input()
        if data:
            bridge.on_input(data)
        if bridge.ready:
            bridge.poll()
        elif ticks_diff(started, last_setup) >= RETRY_MS:
            last_setup = started
            bridge.setup()
        spent = ticks_diff(ticks_ms(), started)
        if spent < POLL_MS:
            sleep_ms(POLL_MS - spent)
        done += 1
