"""The translations as gettext catalogues: what translators and their tools (Poedit, Weblate,
Lokalize, msgfmt) work with.

English is the source and lives beside the code that shows it: the game core's messages in the
rules modules (``device.text.register``), the kiosk's own texts in ``display/i18n/en.py`` and one
module per format, ``display/i18n/<format>.py`` (a kiosk text under a core key is how the screen
words that message, e.g. naming a button where the console names a command).  The catalogues are
here, below both, because the console and the kiosk both read them; ``device.translations.domains``
says which catalogue holds which keys.  Every other language is a catalogue per format
("domain")::

    device/translations/locale/<domain>.pot                       the template: every key and its English
    device/translations/locale/<language>/LC_MESSAGES/<domain>.po   its translation

An entry's ``msgctxt`` is the text's key, its ``msgid`` the English, ``msgstr`` the translation;
a text with a count (``device.text.Plural``) has ``msgid_plural`` and one ``msgstr[i]`` per plural
form of the language, ordered and chosen by the ``Plural-Forms`` rule that Babel writes from the
Unicode CLDR (Russian and Polish: one, few, many; Japanese: one form for every number).

After changing English texts, run ``python -m display.i18n`` (it knows the kiosk's English as well
as the core's) to rewrite the templates
and merge them into every catalogue: a new key gets an empty entry, a key whose English changed
keeps its translation marked *fuzzy* (with the previous English) until a translator confirms it,
and a key that is gone is dropped.  The kiosk shows English for an empty or fuzzy entry; the
tests fail on either, and on a template that is out of date.
"""

from __future__ import annotations

import gettext
import io
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message as Entry
from babel.messages.pofile import read_po, write_po

from device.text import Plural, Text
from device.translations import domains
from device.translations.domains import domain

log = logging.getLogger(__name__)

LOCALE = Path(__file__).resolve().parent / "locale"
PROJECT = "aetherbox"

def po_path(language: str, name: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{name}.po"


def pot_path(name: str) -> Path:
    return LOCALE / f"{name}.pot"


# --- reading: what the console and the kiosk do ----------------------------------------------------------


@dataclass(frozen=True)
class Translations:
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
    """Every catalogue of ``language`` (English has none: it is the source).  A missing or
    damaged catalogue is logged and its texts show in English; nothing here stops the gadget."""
    if language == "en":
        return Translations("en")
    texts: dict[str, str | tuple[str, ...]] = {}
    english: dict[str, str] = {}
    catalog: Catalog | None = None
    for name in domains.names():
        path = po_path(language, name)
        try:
            with path.open("rb") as stream:
                catalog = read_po(stream, locale=language, domain=name, ignore_obsolete=True)
        except (OSError, ValueError, SyntaxError) as error:
            log.warning("translations: cannot read %s (%s); those texts show in English", path, error)
            continue
        found = _translated(catalog)
        texts.update(found)
        english.update(_english(catalog, found))
    if catalog is None:
        return Translations(language, texts, english=english)
    return Translations(language, texts, _plural_rule(catalog.plural_expr), catalog.num_plurals, english)


def _translated(catalog: Catalog) -> dict[str, str | tuple[str, ...]]:
    found: dict[str, str | tuple[str, ...]] = {}
    for entry in catalog:
        if not entry.id or not entry.context or entry.fuzzy:
            continue
        if isinstance(entry.string, tuple | list):
            if all(entry.string):
                found[entry.context] = tuple(entry.string)
        elif entry.string:
            found[entry.context] = entry.string
    return found


def _english(catalog: Catalog, keys: Iterable[str]) -> dict[str, str]:
    made_from = {entry.context: entry.id for entry in catalog if entry.id and entry.context}
    return {key: ids[0] if isinstance(ids, tuple | list) else ids for key in keys if (ids := made_from.get(key))}


def _plural_rule(expression: str) -> Callable[[int], int]:
    return gettext.c2py(expression)


# --- writing: what a developer runs after changing English texts ---------------------------


def _ids(english: Text) -> str | tuple[str, str]:
    return (english.one, english.other) if isinstance(english, Plural) else english


def _flags(english: Text) -> set[str]:
    texts = (english.one, english.other) if isinstance(english, Plural) else (english,)
    return {"python-brace-format"} if any("{" in t for t in texts) else set()


def _catalog(language: str | None, name: str, created: datetime | None) -> Catalog:
    header = f"# {PROJECT}: the {name} texts" + (f" in {language}" if language else ", the template") + "."
    from device import __version__

    catalog = Catalog(locale=language, domain=name, project=PROJECT, version=__version__, copyright_holder=PROJECT,
                      msgid_bugs_address="", last_translator=f"{PROJECT} translators",
                      language_team=f"{PROJECT} translators", charset="utf-8", fuzzy=False, header_comment=header)
    catalog.creation_date = created or datetime.now(timezone.utc)
    catalog.revision_date = catalog.creation_date
    return catalog


def _read(path: Path) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as stream:
        return read_po(stream, ignore_obsolete=True)


def _render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=0, omit_header=False, include_previous=True, sort_output=False)
    return out.getvalue()


def _same(a: Catalog | None, b: Catalog) -> bool:
    def entries(c: Catalog) -> list[tuple[object, ...]]:
        return [(m.context, m.id, m.string or "", m.fuzzy, m.previous_id, sorted(m.flags)) for m in c if m.id]

    return a is not None and entries(a) == entries(b)


def template(name: str, english: Mapping[str, Text], created: datetime | None = None) -> Catalog:
    catalog = _catalog(None, name, created)
    for key in sorted(k for k in english if domain(k) == name):
        catalog.add(_ids(english[key]), context=key, flags=_flags(english[key]))
    return catalog


def merge(language: str, name: str, english: Mapping[str, Text], old: Catalog | None,
          created: datetime | None = None) -> Catalog:
    """``language``'s catalogue for ``name`` with the English of now, keeping what ``old`` had."""
    catalog = _catalog(language, name, created)
    if old is not None:
        catalog.header_comment = old.header_comment  # the translators' notes on terms stay
    forms = catalog.num_plurals
    previous = {entry.context: entry for entry in old or () if entry.id and entry.context}
    for key in sorted(k for k in english if domain(k) == name):
        ids = _ids(english[key])
        flags = _flags(english[key])
        kept = previous.get(key)
        string: str | tuple[str, ...] = ("",) * forms if isinstance(ids, tuple) else ""
        previous_id: str | tuple[str, ...] | list[str] = ()
        if kept is not None:
            string = _reshape(kept.string, isinstance(ids, tuple), forms)
            if kept.fuzzy:
                flags.add("fuzzy")
                previous_id = kept.previous_id
            if kept.id != ids and any(string if isinstance(string, tuple) else (string,)):
                flags.add("fuzzy")  # the English changed: the translation waits for a translator
                previous_id = kept.id
        catalog[ids] = Entry(ids, string, flags=flags, context=key, previous_id=previous_id)
    return catalog


def _reshape(string: object, plural: bool, forms: int) -> str | tuple[str, ...]:
    strings = tuple(str(s or "") for s in string) if isinstance(string, tuple | list) else (str(string or ""),)
    if not plural:
        return strings[0]
    if len(strings) == 1:
        return (strings[0], *("",) * (forms - 1)) if strings[0] else ("",) * forms
    return tuple((*strings, *("",) * forms)[:forms])


def update(languages: Iterable[str], english: Mapping[str, Text]) -> list[Path]:
    """Rewrite the templates for ``english`` (every key and its English, as the kiosk shows it)
    and merge them into each language's catalogues; returns the files that changed (a file whose
    entries are the same is left alone, dates and all)."""
    texts = english
    changed: list[Path] = []
    for name in domains.names():
        path = pot_path(name)
        old = _read(path)
        new = template(name, texts, _created(old))
        if not _same(old, new):
            new.creation_date = new.revision_date = datetime.now(timezone.utc)
            _write(path, new)
            changed.append(path)
        for language in languages:
            path = po_path(language, name)
            old = _read(path)
            new = merge(language, name, texts, old, _created(old))
            if not _same(old, new):
                new.revision_date = datetime.now(timezone.utc)
                _write(path, new)
                changed.append(path)
    return changed


def _created(catalog: Catalog | None) -> datetime | None:
    created = catalog.creation_date if catalog is not None else None
    return created if isinstance(created, datetime) else None


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_render(catalog))
