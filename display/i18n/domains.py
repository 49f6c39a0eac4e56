"""The kiosk's English texts by catalogue: one for the core and one per format, listed in
``DOMAINS``.  A format's English is written in its module here (Planechase's in
``display/i18n/planechase.py``), its translations are in
``device/translations/locale/<language>/LC_MESSAGES/<domain>.po``; the game core's messages are
written in ``device/`` (each module's ``TEXTS``, gathered by ``device.english``) and go to the same catalogues by their keys.

Which catalogue holds which keys is the catalogues' own list, ``device.translations.domains``
(``names`` and ``domain`` are that list's): a format's touch-bar button, help line and set-up rows
(``ui.btn.*``, ``ui.help.*``, ``ui.setup.*``) are written in its module but translated in
``core.po`` with the other buttons, help lines and rows.

A new format adds its module and one line to ``DOMAINS``; nothing here is filled by importing a
module.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct

from device.text import Text
from device.translations.domains import CORE, domain, names
from display.i18n import (
    clock,
    conspiracy,
    contraptions,
    counters,
    dice,
    en,
    formats,
    necromancer,
    planechase,
    wizards_duel,
)

__all__ = ["CORE", "DOMAINS", "Domain", "domain", "english", "names"]


class Domain(Struct, frozen=True):
    """One catalogue's kiosk English: its ``name`` (as in ``device.translations.domains``) and
    its modules' ``TEXTS``."""

    name: str
    english: tuple[Mapping[str, Text], ...]


#: The kiosk's English for every catalogue, in the catalogues' order: the core's first (the table,
#: set-up, help and options), then the formats, named like their packages in ``device/rules/`` and
#: screens in ``display/screens/``.
DOMAINS: tuple[Domain, ...] = (
    Domain(CORE, (en.TEXTS, formats.TEXTS)),
    Domain("dice", (dice.TEXTS,)),
    Domain("clock", (clock.TEXTS,)),
    Domain("counters", (counters.TEXTS,)),
    Domain("planechase", (planechase.TEXTS,)),
    Domain("contraptions", (contraptions.TEXTS,)),
    Domain("necromancer", (necromancer.TEXTS,)),
    Domain("conspiracy", (conspiracy.TEXTS,)),
    Domain("wizards_duel", (wizards_duel.TEXTS,)),
)


def english(domains: tuple[Domain, ...] = DOMAINS) -> dict[str, Text]:
    """The kiosk's own English texts, by key (not the core's); a name or a key given twice is
    refused, so two modules cannot word one text differently."""
    listed = [d.name for d in domains]
    if len(set(listed)) < len(listed):
        raise ValueError(f"a text domain is listed twice: {', '.join(listed)}")
    found: dict[str, Text] = {}
    where: dict[str, str] = {}
    for d in domains:
        for texts in d.english:
            for key, value in texts.items():
                if key in found:
                    raise ValueError(
                        f"text key {key!r} is written twice: in the {where[key]} and {d.name} texts"
                    )
                found[key] = value
                where[key] = d.name
    return found
