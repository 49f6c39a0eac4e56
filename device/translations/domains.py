"""Which catalogue ("domain") holds which texts: one for the core and one per format, listed in
``DOMAINS``.  A key belongs to the first format whose ``keys`` it starts with, else to the core:
a format's touch-bar button, help line and set-up rows (``ui.btn.*``, ``ui.help.*``,
``ui.setup.*``) are translated in ``core.po`` with the other buttons, help lines and rows.

The English comes from where each text is shown: the rules' messages from ``device/``
(each module's ``TEXTS``, gathered by ``device.english``), the kiosk's own from ``display/i18n/`` (whose list names the same
catalogues).  A new format adds one line here; nothing is filled by importing a module.
"""

from __future__ import annotations

from msgspec import Struct

CORE = "core"


class Domain(Struct, frozen=True):
    """One catalogue: its ``name`` (``locale/<language>/LC_MESSAGES/<name>.po``) and how the keys
    it holds start (the core's holds the rest)."""

    name: str
    keys: tuple[str, ...] = ()


#: Every catalogue: the core's first (the table, set-up, help and options), then the formats,
#: named like their packages in ``device/rules/``.
DOMAINS: tuple[Domain, ...] = (
    Domain(CORE),
    Domain("dice", ("dice.", "ui.dice.", "console.dice.")),
    Domain("clock", ("clock.", "ui.clock.", "console.clock.")),
    Domain("counters", ("counters.", "ui.counters.", "console.counters.")),
    Domain("planechase", ("planechase.", "eternities.", "ui.pc.", "console.pc.")),
    Domain("contraptions", ("ct.", "ui.ct.", "console.ct.")),
    Domain("necromancer", ("necro.", "ui.necro.", "console.necro.")),
    Domain("conspiracy", ("consp.", "ui.consp.", "console.consp.")),
    Domain(
        "wizards_duel",
        (
            "wd.",
            "wdc.",
            "console.wd.",
            "ui.wd.",
            "table.started.wizards_duel",
            "table.started_random.wizards_duel",
        ),
    ),
)


def names(domains: tuple[Domain, ...] = DOMAINS) -> tuple[str, ...]:
    return tuple(d.name for d in domains)


def domain(key: str, domains: tuple[Domain, ...] = DOMAINS) -> str:
    """The catalogue ``key`` is translated in."""
    for found in domains:
        if found.keys and key.startswith(found.keys):
            return found.name
    return CORE
