"""The kiosk's texts in English, Russian, Japanese and Polish.

Keys are the same kind of keys as ``device.text``: the kiosk's own texts are ``ui.*`` and live
in ``display/i18n/<language>.py``; the game core's messages (``table.*``, ``life.*``,
``controller.*`` …) are translated in the same files under the core's keys.  A key missing in a
language falls back to English: first this package's English, then the core's own English
(``device.text.EN``), so a new rules module's messages show in English until translated.
Card names are never translated: they stay as printed.

A module that adds a screen adds its texts with :func:`register` (English, plus whatever
languages it has).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device import text as core_text
from device.text import Message
from display.i18n import en, ja, pl, ru

LANGUAGES: tuple[str, ...] = ("en", "ru", "ja", "pl")
#: Each language by its own name.  Japanese is written in kana: the bundled font subset holds the
#: kanji the texts use, and 日 is not one of them (display/typefaces/subset.py reads these names
#: too, so after the next rebuild of the subsets this can be 日本語).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ru": "Русский", "ja": "にほんご", "pl": "Polski"}

_TABLES: dict[str, dict[str, str]] = {
    "en": dict(en.TEXTS),
    "ru": dict(ru.TEXTS),
    "ja": dict(ja.TEXTS),
    "pl": dict(pl.TEXTS),
}


def register(language: str, texts: Mapping[str, str]) -> None:
    """Add texts for ``language``; a key may be given once per language."""
    if language not in _TABLES:
        raise ValueError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
    table = _TABLES[language]
    for key, value in texts.items():
        if key in table and table[key] != value:
            raise ValueError(f"text key {key!r} registered twice for {language!r}")
        table[key] = value


def table(language: str) -> Mapping[str, str]:
    return _TABLES[language]


def _format(template: str, params: Mapping[str, Any]) -> str:
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return f"{template} {dict(params)!r}"


class Translator:
    """Texts in one language, with the English fallback described above."""

    def __init__(self, language: str = "en") -> None:
        if language not in _TABLES:
            raise ValueError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
        self.language = language

    def template(self, key: str) -> str | None:
        for source in (_TABLES[self.language], _TABLES["en"], core_text.EN):
            found = source.get(key)
            if found is not None:
                return found
        return None

    def __call__(self, key: str, **params: Any) -> str:
        template = self.template(key)
        if template is None:
            return f"{key} {params!r}" if params else key
        return _format(template, params)

    def message(self, message: Message) -> str:
        """A core message (``device.text.Message``) in this language."""
        params = {k: self.message(v) if isinstance(v, Message) else v for k, v in message.params.items()}
        return self(message.key, **params)

    def error(self, key: str, params: Mapping[str, Any]) -> str:
        """An ``IllegalCommand``'s reason in this language."""
        return self.message(Message(key, **params))
