"""The counters Commander tables track, on the kiosk: the adjust screen's chips and previews and
the upkeep banner's reminders (``ui.counters.*``).  The rules' messages (``counters.*``) are in
``device/rules/counters.py``; the translations in
``device/translations/locale/<language>/LC_MESSAGES/counters.po``.
"""

from __future__ import annotations

from device.text import Plural, Text

TEXTS: dict[str, Text] = {
    # the adjust screen's counter chips
    "ui.counters.energy": "Energy",
    "ui.counters.experience": "Experience",
    "ui.counters.rad": "Rad",
    "ui.counters.monarch": "Monarch",
    "ui.counters.initiative": "Initiative",
    "ui.counters.blessing": "City's blessing",
    "ui.counters.day_night": "Day/night",
    # its amount row for day and night, and what applying does
    "ui.counters.time": "Time of day",
    "ui.counters.day": "Day",
    "ui.counters.night": "Night",
    "ui.counters.becomes_monarch": "{name} becomes the monarch",
    "ui.counters.is_monarch": "{name} is the monarch",
    "ui.counters.takes_initiative": "{name} takes the initiative",
    "ui.counters.gets_blessing": "{name} gets the city's blessing",
    "ui.counters.has_blessing": "{name} has the city's blessing",
    "ui.counters.becomes_day": "It becomes day",
    "ui.counters.becomes_night": "It becomes night",
    "ui.counters.is_day": "It is day",
    "ui.counters.is_night": "It is night",
    # the upkeep banner's reminders for the active player
    "ui.counters.item.initiative": "The initiative: venture into Undercity",
    "ui.counters.item.monarch": "Monarch: draw a card at the end step",
    "ui.counters.item.rad": Plural(
        "Rad: mill {n} card at the main phase; each nonland card costs 1 life and a rad counter",
        "Rad: mill {n} cards at the main phase; each nonland card costs 1 life and a rad counter",
    ),
    "ui.counters.item.rad_of": Plural(
        "Rad, {name}: mill {n} card at the main phase; each nonland card costs 1 life and a rad counter",
        "Rad, {name}: mill {n} cards at the main phase; each nonland card costs 1 life and a rad counter",
    ),
    "ui.counters.item.day": "Day: night comes if the last turn's player cast no spells",
    "ui.counters.item.night": "Night: day comes if the last turn's player cast two or more spells",
}
