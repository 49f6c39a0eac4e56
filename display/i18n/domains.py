"""Where the kiosk's texts live: one gettext catalogue ("domain") for the core and one per format,
listed in ``DOMAINS``.  A format's English is written in its module here (Planechase's in
``display/i18n/planechase.py``), its translations are in
``display/i18n/locale/<language>/LC_MESSAGES/<domain>.po``; the game core's messages are written
in ``device/`` (``device.text.register``) and go to the same catalogues by their keys.

A key belongs to the first format whose ``keys`` it starts with, else to the core: a format's
touch-bar button, help line and set-up rows (``ui.btn.*``, ``ui.help.*``, ``ui.setup.*``) are
written in its module but translated in ``core.po`` with the other buttons, help lines and rows.

A new format adds its module and one line to ``DOMAINS``; nothing here is filled by importing a
module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from device.text import Text
from display.i18n import conspiracy, contraptions, en, formats, necromancer, planechase, wizards_duel

CORE = "core"


@dataclass(frozen=True)
class Domain:
    """One catalogue: its ``name`` (``locale/<language>/LC_MESSAGES/<name>.po``), the kiosk's
    English for it (``english``: its modules' ``TEXTS``) and how the keys it holds start (the
    core's messages for the format as well as the kiosk's; the core's domain holds the rest)."""

    name: str
    english: tuple[Mapping[str, Text], ...]
    keys: tuple[str, ...] = ()


#: Every catalogue of the kiosk's texts: the core's first (the table, set-up, help and options),
#: then the formats, named like their packages in ``device/rules/`` and screens in ``display/screens/``.
DOMAINS: tuple[Domain, ...] = (
    Domain(CORE, (en.TEXTS, formats.TEXTS)),
    Domain("planechase", (planechase.TEXTS,), ("planechase.", "eternities.", "ui.pc.", "console.pc.")),
    Domain("contraptions", (contraptions.TEXTS,), ("ct.", "ui.ct.")),
    Domain("necromancer", (necromancer.TEXTS,), ("necro.", "ui.necro.")),
    Domain("conspiracy", (conspiracy.TEXTS,), ("consp.", "ui.consp.")),
    Domain("wizards_duel", (wizards_duel.TEXTS,),
           ("wd.", "wdc.", "ui.wd.", "table.started.wizards_duel", "table.started_random.wizards_duel")),
)


def names(domains: tuple[Domain, ...] = DOMAINS) -> tuple[str, ...]:
    return tuple(d.name for d in domains)


def domain(key: str, domains: tuple[Domain, ...] = DOMAINS) -> str:
    """The catalogue ``key`` is translated in."""
    for found in domains:
        if found.keys and key.startswith(found.keys):
            return found.name
    return CORE


def english(domains: tuple[Domain, ...] = DOMAINS) -> dict[str, Text]:
    """The kiosk's own English texts, by key (not the core's); a name or a key given twice is
    refused, so two modules cannot word one text differently."""
    if len(set(names(domains))) < len(domains):
        raise ValueError(f"a text domain is listed twice: {', '.join(names(domains))}")
    found: dict[str, Text] = {}
    where: dict[str, str] = {}
    for d in domains:
        for texts in d.english:
            for key, value in texts.items():
                if key in found:
                    raise ValueError(f"text key {key!r} is written twice: in the {where[key]} and {d.name} texts")
                found[key] = value
                where[key] = d.name
    return found
