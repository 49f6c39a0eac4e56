"""Writing the catalogues (``python -m display.i18n``): the templates and every language's
catalogue hold every text as the kiosk shows it, the core's messages and the kiosk's own.

The catalogues, and reading them, are in ``device.translations.catalogs`` (the console reads them
too), writing them in ``device.translations.authoring``; this module adds what only the kiosk knows, its English (``sources``), and re-exports the
rest so that the kiosk's code and tests have one place to look.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from device.english import ENGLISH
from device.text import Text
from device.translations import console_key
from device.translations.authoring import compile_po, merge, same_texts, template
from device.translations.authoring import update as update_texts
from device.translations.catalogs import LOCALE, Translations, load, mo_path, po_path, pot_path
from display.i18n import domains

__all__ = [
    "LOCALE",
    "Translations",
    "compile_po",
    "load",
    "merge",
    "mo_path",
    "po_path",
    "pot_path",
    "same_texts",
    "sources",
    "template",
    "update",
]


def sources() -> dict[str, Text]:
    """Every text key and its English, as the kiosk shows it (its own wording first), and the
    console's wording of each text the kiosk words its own way (``device.translations.console_key``)."""
    core = ENGLISH.every()
    kiosk = domains.english()
    console = {
        console_key(key): english
        for key, english in core.items()
        if key in kiosk and kiosk[key] != english
    }
    return {**core, **kiosk, **console}


def update(languages: Iterable[str]) -> list[Path]:
    """Bring the templates and ``languages``' catalogues up to date with ``sources()``; returns
    the files that changed."""
    return update_texts(languages, sources())
