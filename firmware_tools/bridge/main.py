"""aetherbox bridge firmware: a Raspberry Pi Pico (RP2040, MicroPython) with an RC522 on SPI0.

Wiring (Pico GPIO, physical pin in brackets → RC522 module pin):

    GP16 (21)  → MISO
    GP17 (22)  → SDA  (the chip select)
    GP18 (24)  → SCK
    GP19 (25)  → MOSI
    GP20 (26)  → RST
    3V3 (36)   → 3.3V    never 5 V: the RC522 is a 3.3 V part
    GND (23)   → GND
    IRQ is not connected.

It speaks the aetherbox line protocol over the Pico's USB serial port; see link.py.  Upload it
with ``aetherbox firmware upload``.  Ctrl-C on the USB serial port stops it (that is how
mpremote gets in to replace it).
"""

import select
import sys
import time

from machine import SPI, Pin

import link
import mfrc522

SPI_ID = 0
PIN_MISO = 16
PIN_CS = 17
PIN_SCK = 18
PIN_MOSI = 19
PIN_RST = 20
SPI_BAUDRATE = 1000000  # the RC522 allows 10 MHz; 1 MHz forgives long jumper wires


def main():
    reset = Pin(PIN_RST, Pin.OUT, value=0)
    time.sleep_ms(10)
    reset.value(1)  # a low-to-high edge on NRSTPD resets and wakes the chip
    time.sleep_ms(50)
    spi = SPI(
        SPI_ID,
        baudrate=SPI_BAUDRATE,
        polarity=0,
        phase=0,
        sck=Pin(PIN_SCK),
        mosi=Pin(PIN_MOSI),
        miso=Pin(PIN_MISO),
    )
    cs = Pin(PIN_CS, Pin.OUT, value=1)
    chip = mfrc522.MFRC522(spi, cs)

    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def read_input():
        data = b""
        while poller.poll(0):
            chunk = stdin.read(1)
            if not chunk:
                break
            data += chunk if isinstance(chunk, bytes) else chunk.encode()
        return data

    def write(text):
        sys.stdout.write(text)

    bridge = link.Bridge(chip, write)
    link.run(bridge, read_input, time.ticks_ms, time.ticks_diff, time.sleep_ms)


main()
