"""Dice and coin on the kiosk: the screen's English texts (``ui.dice.*``).  The rules' messages
(``dice.*``) are in ``device/rules/dice.py``; the translations in
``device/translations/locale/<language>/LC_MESSAGES/dice.po`` (the touch-bar button and the help
lines in ``core.po`` with the others).
"""

from __future__ import annotations

from device.text import Text

TEXTS: dict[str, Text] = {
    "ui.btn.dice": "DICE",
    "ui.help.screen.dice": "dice, a coin, a random player",
    "ui.help.keys.long_roll": "Shift+Space",
    "ui.help.long_roll": "hold ROLL: dice and coin (again: back)",
    # the chips
    "ui.dice.die": "d{sides}",
    "ui.dice.dice": "{count}d{sides}",
    "ui.dice.coin": "Coin",
    "ui.dice.player": "Random player",
    # the last throw, large
    "ui.dice.none": "Nothing thrown yet: pick a die, the coin or a random player.",
    "ui.dice.heads": "Heads",
    "ui.dice.tails": "Tails",
    "ui.dice.total": "= {total}",
    "ui.dice.picked": "Random player",
    "ui.dice.first": "Goes first",
    "ui.dice.first_team": "Go first",
    "ui.dice.rolled_by": "{name} rolled {dice}",
    "ui.dice.flipped_by": "{name} flipped the coin",
    # the throws before it
    "ui.dice.history": "Earlier",
    "ui.dice.line": "{n}. {text}",
    "ui.dice.hint": "↑/↓ choose · SELECT or ROLL throws",
}
