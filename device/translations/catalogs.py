"""The translations as gettext catalogues: what translators and their tools (Poedit, Weblate,
Lokalize, msgfmt) work with.

English is the source and lives beside the code that shows it: the game core's messages in the
rules modules (``TEXTS``, gathered by ``device.english``), the kiosk's own texts in ``display/i18n/en.py`` and one
module per format, ``display/i18n/<format>.py`` (a kiosk text under a core key is how the screen
words that message, e.g. naming a button where the console names a command).  The catalogues are
here, below both, because the console and the kiosk both read them; ``device.translations.domains``
says which catalogue holds which keys.  Every other language is a catalogue per format
("domain")::

    device/translations/locale/<domain>.pot                       the template: every key and its English
    device/translations/locale/<language>/LC_MESSAGES/<domain>.po   its translation
    device/translations/locale/<language>/LC_MESSAGES/<domain>.mo   the same, compiled: what the gadget reads

An entry's ``msgctxt`` is the text's key, its ``msgid`` the English, ``msgstr`` the translation;
a text with a count (``device.text.Plural``) has ``msgid_plural`` and one ``msgstr[i]`` per plural
form of the language, ordered and chosen by the ``Plural-Forms`` rule that Babel writes from the
Unicode CLDR (Russian and Polish: one, few, many; Japanese: one form for every number).

After changing English texts, run ``python -m display.i18n`` (it knows the kiosk's English as well
as the core's) to rewrite the templates
and merge them into every catalogue: a new key gets an empty entry, a key whose English changed
keeps its translation marked *fuzzy* (with the previous English) until a translator confirms it,
and a key that is gone is dropped; it also compiles each catalogue (``.mo``, GNU gettext's binary
form, without the fuzzy entries), which is what the console and the kiosk read: a compiled file is
read in a millisecond where parsing the ``.po`` files took tens of milliseconds of every start, and
reading it needs nothing but the standard library (``device.translations.authoring`` does the
writing, with Babel).  Poedit and ``msgfmt`` compile the same file.  The kiosk shows English for an
empty or fuzzy entry; the tests fail on either, on a template that is out of date, and on a compiled
catalogue that does not match its ``.po``.
"""

from __future__ import annotations

import gettext
import logging
import struct
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

from msgspec import Struct, field

from device.translations import domains

log = logging.getLogger(__name__)

LOCALE = Path(__file__).resolve().parent / "locale"


def po_path(language: str, name: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{name}.po"


def mo_path(language: str, name: str) -> Path:
    return po_path(language, name).with_suffix(".mo")


def pot_path(name: str) -> Path:
    return LOCALE / f"{name}.pot"


class Translations(Struct, frozen=True):
    """One language's translated texts by key (a tuple of forms for a text with a count), and
    its plural rule: a count → the index of the form to use; ``english`` is the English each
    translation was made from, by key (a text with a count: its singular)."""

    language: str
    texts: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    plural: Callable[[int], int] = lambda n: int(n != 1)
    forms: int = 2
    english: Mapping[str, str] = field(default_factory=dict)


@cache
def load(language: str) -> Translations:
    """Every compiled catalogue of ``language`` (English has none: it is the source).  A missing
    or damaged catalogue is logged and its texts show in English; nothing here stops the gadget."""
    if language == "en":
        return Translations("en")
    texts: dict[str, str | tuple[str, ...]] = {}
    english: dict[str, str] = {}
    plural_forms = ""
    for name in domains.names():
        path = mo_path(language, name)
        try:
            entries, headers = read_mo(path.read_bytes())
        except (OSError, ValueError) as error:
            log.warning(
                "translations: cannot read %s (%s); those texts show in English", path, error
            )
            continue
        plural_forms = headers.get("plural-forms", plural_forms)
        for key, (ids, strings) in entries.items():
            if all(strings):
                texts[key] = strings if len(ids) > 1 else strings[0]
                english[key] = ids[0]
    if not plural_forms:
        return Translations(language, texts, english=english)
    forms, plural = plural_rule(plural_forms)
    return Translations(language, texts, plural, forms, english)


#: The first four bytes of a compiled catalogue, read in the byte order it was written in.
_MAGIC = 0x950412DE


def read_mo(
    data: bytes,
) -> tuple[dict[str, tuple[tuple[str, ...], tuple[str, ...]]], dict[str, str]]:
    """The entries of a compiled catalogue (GNU gettext's ``.mo`` format, UTF-8) that have a key
    (``msgctxt``), as key → (English forms, translated forms), and its header's fields with
    lower-case names.  A file that is not one, or is cut short, raises ValueError."""
    if len(data) < 20:
        raise ValueError("too short to be a compiled catalogue")
    order = next((o for o in "<>" if struct.unpack_from(o + "I", data)[0] == _MAGIC), None)
    if order is None:
        raise ValueError("not a compiled catalogue")
    _, count, originals, translations = struct.unpack_from(order + "4I", data, 4)
    entries: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    headers: dict[str, str] = {}
    try:
        for i in range(count):
            original = _string(data, order, originals + 8 * i)
            translated = tuple(_string(data, order, translations + 8 * i).split("\0"))
            if not original:
                headers = _headers(translated[0])
            elif "\x04" in original:
                key, ids = original.split("\x04", 1)
                entries[key] = (tuple(ids.split("\0")), translated)
    except struct.error as error:
        raise ValueError(f"cut short ({error})") from None
    return entries, headers


def _string(data: bytes, order: str, at: int) -> str:
    length, offset = struct.unpack_from(order + "2I", data, at)
    if offset + length > len(data):
        raise ValueError("cut short")
    return data[offset : offset + length].decode("utf-8")


def _headers(text: str) -> dict[str, str]:
    pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {name.strip().lower(): value.strip() for name, value in pairs}


def plural_rule(plural_forms: str) -> tuple[int, Callable[[int], int]]:
    """How many forms a language has and which one a count takes, from a catalogue's
    ``Plural-Forms`` header (``nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : …);``)."""
    fields = dict(part.strip().split("=", 1) for part in plural_forms.split(";") if "=" in part)
    try:
        return int(fields["nplurals"]), gettext.c2py(fields["plural"])
    except (KeyError, ValueError) as error:
        raise ValueError(f"bad Plural-Forms {plural_forms!r}") from error
