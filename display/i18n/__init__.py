"""The kiosk's texts in English, Russian, Japanese and Polish.

Keys are the same kind of keys as ``device.text``: the kiosk's own texts are ``ui.*``; the game
core's messages (``table.*``, ``life.*``, ``controller.*`` …) keep the core's keys.  English is
written in code — the core's in its rules modules, the kiosk's in ``display/i18n/en.py`` and one
module per format, ``display/i18n/<format>.py``, listed in ``display.i18n.domains.DOMAINS`` — and
every other language is a gettext catalogue per domain, compiled (``device.translations``,
which the console uses too; ``device.translations.catalogs`` says where they are and how to update
them).  A text with a count (``device.text.Plural``) takes
the form the language's CLDR plural rule chooses.  A key not translated (or marked fuzzy) shows in
English.  Card names are never translated: they stay as printed.

A kiosk text registered under a core key is how the screen words that message: the console says
"… or name it with 'card NAME'", the screen names the button instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from device.english import ENGLISH
from device import translations
from device.text import Plural, Text
from device.translations import LANGUAGE_NAMES, LANGUAGES
from device.translations.catalogs import load as load_catalogues
from display.i18n import domains

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "Translator", "english", "source", "table"]

#: The kiosk's own English texts, by key: every module of ``domains.DOMAINS`` (checked here, at
#: start-up, for a key written twice).
_ENGLISH: dict[str, Text] = domains.english()


def english() -> Mapping[str, Text]:
    """The kiosk's own English texts (not the core's)."""
    return _ENGLISH


def source(key: str) -> Text | None:
    """The English of ``key`` as the kiosk shows it: its own wording, else the core's."""
    found = _ENGLISH.get(key)
    return found if found is not None else translations.source(key)


def table(language: str) -> Mapping[str, str | tuple[str, ...]]:
    """``language``'s texts by key: English as written, else the catalogues' translations."""
    translations.check(language)
    if language == "en":
        return {
            **{k: _plain(v) for k, v in ENGLISH.every().items()},
            **{k: _plain(v) for k, v in _ENGLISH.items()},
        }
    return load_catalogues(language).texts


def _plain(entry: Text) -> str:
    return entry.other if isinstance(entry, Plural) else entry


class Translator(translations.Translator):
    """Texts in one language as the screen words them (its own English first), with the English
    fallback described above."""

    def source(self, key: str) -> Text | None:
        return source(key)
