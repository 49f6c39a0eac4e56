"""The bridge firmware: MicroPython for a Raspberry Pi Pico with an RC522 reader.

These files run on the Pico, copied to the root of its filesystem (``aetherbox firmware
upload``); ``mfrc522`` and ``link`` also import under CPython for the tests.  ``main`` only
runs on the Pico: it imports ``machine``.
"""

#: The files that make up the firmware, in the order they are copied: ``main.py`` last, so an
#: upload cut short never leaves a ``main.py`` that imports a module that is not there yet.
FILES = ("mfrc522.py", "link.py", "main.py")
