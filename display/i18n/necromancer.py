"""Necromancer on the kiosk: the screen's English texts (``ui.necro.*``).  The rules' messages
(``necro.*``) are in ``device/rules/necromancer/``; the translations in
``device/translations/locale/<language>/LC_MESSAGES/necromancer.po`` (the touch-bar button and the help
line in ``core.po`` with the others).
"""

from __future__ import annotations

from device.text import Text

TEXTS: dict[str, Text] = {
    "ui.btn.necro": "MINIONS",
    "ui.help.screen.necromancer": "Necromancer: masters and minions",
    "ui.necro.title": "Masters and minions",
    "ui.necro.never_died": "never died",
    "ui.necro.full": "full status",
    "ui.necro.minion_of": "minion of {name}",
    "ui.necro.masterless": "masterless minion",
    "ui.necro.out": "out for good",
    "ui.necro.solo": "solo {done}/{total}",
    "ui.necro.waiting": "phases in at their turn",
    "ui.necro.can_win": "can win",
    "ui.necro.cannot_win": "can't win",
    "ui.necro.minions": "minions: {names}",
    "ui.necro.ask": "Who made {name} lose?",
    "ui.necro.nobody": "Nobody (self-inflicted or unknown)",
    "ui.necro.nobody.short": "Nobody",
    "ui.necro.ask_hint": "↑/↓ choose · SELECT confirms",
    "ui.necro.solo_hint": "SELECT: {name} finished a solo turn",
    "ui.necro.upkeep_solo": "{name}: solo turn {number} of {total}, apart from the game",
    # a core message that names a console command, as the screen words it
    "necro.not_necromancer": "This is not a Necromancer game: set one up with NEW.",
}
