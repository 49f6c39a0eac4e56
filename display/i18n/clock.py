"""The game clock and the turn timer on the kiosk: the screen's English texts (``ui.clock.*``),
and the rules' messages the screen words its own way (naming a button where the console names a
command).  The rules' messages (``clock.*``) are in ``device/rules/clock.py``; the translations
in ``device/translations/locale/<language>/LC_MESSAGES/clock.po`` (the help lines and the set-up
screen's heading in ``core.po`` with the others).
"""

from __future__ import annotations

from device.text import Text

TEXTS: dict[str, Text] = {
    "ui.help.keys.long_undo": "Shift+U",
    "ui.help.long_undo": "hold UNDO (or touch the time played): pause or resume the game clock",
    "ui.setup.part.clock": "Clock",
    "ui.clock.timer_up": "Time is up for {name}'s turn ({time}).",
    "clock.not_started": "This game's clock has not started: hold UNDO to start it.",
}
