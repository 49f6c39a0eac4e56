"""Messages (``device.text.Message``) in English, Russian, Japanese and Polish, for the console
and the kiosk alike.

English is written in the code (``device.text``); every other language is a gettext catalogue per
format, compiled (``device.translations.catalogs``; which catalogue holds which keys:
``device.translations.domains``).  A text with a count (``device.text.Plural``) takes the form
the language's CLDR plural rule chooses.  A key not translated (or marked fuzzy) shows in English.
Card names and players' names are never translated: they are parameters.

``Translator`` words the rules' English; the kiosk's translator (``display.i18n.Translator``)
words a message the way the screen shows it, from the same catalogues.  Where the screen words a
rules' message its own way (naming a button where the console names a command), the catalogue's
entry under the message's key translates the screen's English, and the console's English is
translated under ``<key>@console`` beside it (``console_key``); ``ConsoleTranslator`` reads that
one, and takes a translation only if it was made from the English the console prints.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from device import text
from device.text import Message, Plural, Text, count, fill
from device.translations import catalogs

LANGUAGES: tuple[str, ...] = ("en", "ru", "ja", "pl")
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "ru": "Русский", "ja": "日本語", "pl": "Polski"}


#: How the catalogues name the console's wording of a text the screen words its own way.
CONSOLE = "@console"


def console_key(key: str) -> str:
    """The catalogue key of the console's wording of ``key`` (see the module's text)."""
    return key + CONSOLE


def source(key: str) -> Text | None:
    """The rules' English of a catalogue key: a message's key, or ``console_key(key)``."""
    return text.english(key.removesuffix(CONSOLE))


def check(language: str) -> str:
    """``language`` if it is one the gadget speaks; else a ValueError naming the choices."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
    return language


#: How many texts a translator keeps said (each a key, its parameters and the text).
SAID_LIMIT = 4096


class Translator:
    """Texts in one language, with the English fallback described above."""

    def __init__(self, language: str = "en") -> None:
        self.language = check(language)
        self._translations = catalogs.load(language)
        # The texts said so far, by key and parameters: a screen says the same ones every frame.
        self._said: dict[Hashable, str] = {}

    def source(self, key: str) -> Text | None:
        """The English of ``key`` as this translator's reader sees it (here: the rules')."""
        return text.english(key)

    def translated(self, key: str) -> str | tuple[str, ...] | None:
        """The catalogues' translation of ``key`` (a tuple of forms for a text with a count)."""
        return self._translations.texts.get(key)

    def template(self, key: str, params: Mapping[str, Any] | None = None) -> str | None:
        """The text of ``key`` before its parameters are filled in (for a text with a count, the
        form ``params`` call for), or None for an unknown key."""
        english = self.source(key)
        if english is None:
            return None
        translated = self.translated(key)
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
        # Types too: 1 and 1.0 (and True) are equal keys but are written differently.
        said = (
            (key, *params.items(), *[type(value) for value in params.values()]) if params else key
        )
        try:
            found = self._said.get(said)
        except TypeError:  # a parameter that is no value (a list): said afresh
            return self._say(key, params)
        if found is None:
            if len(self._said) >= SAID_LIMIT:
                self._said.clear()
            found = self._said[said] = self._say(key, params)
        return found

    def _say(self, key: str, params: dict[str, Any]) -> str:
        template = self.template(key, params)
        if template is None:
            return f"{key} {params!r}" if params else key
        return fill(
            template,
            {k: self.message(v) if isinstance(v, Message) else v for k, v in params.items()},
        )

    def message(self, message: Message) -> str:
        """A message in this language."""
        return self(message.key, **message.params)

    def error(self, key: str, params: Mapping[str, Any]) -> str:
        """An ``IllegalCommand``'s reason in this language."""
        return self.message(Message(key, **params))


class ConsoleTranslator(Translator):
    """Texts in one language as the console words them: the rules' English, translated by the
    catalogues' entry made from that English (``<key>@console`` where the screen words the text
    its own way), else in English."""

    def translated(self, key: str) -> str | tuple[str, ...] | None:
        english = self.source(key)
        if english is None:
            return None
        said = english.one if isinstance(english, Plural) else english
        for found in (console_key(key), key):
            if self._translations.english.get(found) == said:
                return self._translations.texts.get(found)
        return None
