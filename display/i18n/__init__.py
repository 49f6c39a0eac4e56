"""The kiosk's texts in English, Russian, Japanese and Polish.

Keys are the same kind of keys as ``device.text``: the kiosk's own texts are ``ui.*``; the game
core's messages (``table.*``, ``life.*``, ``controller.*`` …) keep the core's keys.  English is
written in code — the core's in its rules modules, the kiosk's in ``display/i18n/en.py`` and one
module per format, ``display/i18n/<format>.py``, listed in ``display.i18n.domains.DOMAINS`` — and
every other language is a gettext catalogue per domain read with Babel (``display.i18n.catalogs``
says where they are and how to update them).  A text with a count (``device.text.Plural``) takes
the form the language's CLDR plural rule chooses.  A key not translated (or marked fuzzy) shows in
English.  Card names are never translated: they stay as printed.

A kiosk text registered under a core key is how the screen words that message: the console says
"… or name it with 'card NAME'", the screen names the button instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device import text as core_text
from device.text import Message, Plural, Text, count
from display.i18n import catalogs, domains

LANGUAGES: tuple[str, ...] = ("en", "ru", "ja", "pl")
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ru": "Русский", "ja": "日本語", "pl": "Polski"}

#: The kiosk's own English texts, by key: every module of ``domains.DOMAINS`` (checked here, at
#: start-up, for a key written twice).
_ENGLISH: dict[str, Text] = domains.english()


def english() -> Mapping[str, Text]:
    """The kiosk's own English texts (not the core's)."""
    return _ENGLISH


def source(key: str) -> Text | None:
    """The English of ``key`` as the kiosk shows it: its own wording, else the core's."""
    found = _ENGLISH.get(key)
    return found if found is not None else core_text.EN.get(key)


def table(language: str) -> Mapping[str, str | tuple[str, ...]]:
    """``language``'s texts by key: English as written, else the catalogues' translations."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
    if language == "en":
        return {**{k: _plain(v) for k, v in core_text.EN.items()}, **{k: _plain(v) for k, v in _ENGLISH.items()}}
    return catalogs.load(language).texts


def _plain(entry: Text) -> str:
    return entry.other if isinstance(entry, Plural) else entry


def _format(template: str, params: Mapping[str, Any]) -> str:
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return f"{template} {dict(params)!r}"


class Translator:
    """Texts in one language, with the English fallback described above."""

    def __init__(self, language: str = "en") -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
        self.language = language
        self._translations = catalogs.load(language)

    def template(self, key: str, params: Mapping[str, Any] | None = None) -> str | None:
        """The text of ``key`` before its parameters are filled in (for a text with a count, the
        form ``params`` call for), or None for an unknown key."""
        english = source(key)
        if english is None:
            return None
        translated = self._translations.texts.get(key)
        if isinstance(english, Plural):
            n = count((params or {}).get(english.n))
            if isinstance(translated, tuple):
                index = self._translations.plural(n)
                return translated[min(index, len(translated) - 1)]
            return english.choose(params or {})
        if isinstance(translated, str):
            return translated
        return english

    def __call__(self, key: str, **params: Any) -> str:
        """The text of ``key`` with ``params`` filled in; a parameter that is a message (a word or
        phrase each language words its own way) is put in this language first."""
        template = self.template(key, params)
        if template is None:
            return f"{key} {params!r}" if params else key
        return _format(template, {k: self.message(v) if isinstance(v, Message) else v for k, v in params.items()})

    def message(self, message: Message) -> str:
        """A core message (``device.text.Message``) in this language."""
        return self(message.key, **message.params)

    def error(self, key: str, params: Mapping[str, Any]) -> str:
        """An ``IllegalCommand``'s reason in this language."""
        return self.message(Message(key, **params))
