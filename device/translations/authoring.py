"""Writing the catalogues: what a developer runs after changing English texts (through
``python -m display.i18n``, which knows the kiosk's English as well as the core's), and what a
translator's tools do.  ``device.translations.catalogs`` says where the files are and how the
gadget reads them; this module needs Babel, which the gadget does not need to read them.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog, Message as Entry
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, unescape, write_po

from device.text import Plural, Text
from device.translations import domains
from device.translations.catalogs import mo_path, po_path, pot_path, read_mo
from device.translations.domains import domain

PROJECT = "aetherbox"


def _ids(english: Text) -> str | tuple[str, str]:
    return (english.one, english.other) if isinstance(english, Plural) else english


def _flags(english: Text) -> set[str]:
    texts = (english.one, english.other) if isinstance(english, Plural) else (english,)
    return {"python-brace-format"} if any("{" in t for t in texts) else set()


def _catalog(language: str | None, name: str, created: datetime | None) -> Catalog:
    header = (
        f"# {PROJECT}: the {name} texts"
        + (f" in {language}" if language else ", the template")
        + "."
    )
    from device import __version__

    catalog = Catalog(
        locale=language,
        domain=name,
        project=PROJECT,
        version=__version__,
        copyright_holder=PROJECT,
        msgid_bugs_address="",
        last_translator=f"{PROJECT} translators",
        language_team=f"{PROJECT} translators",
        charset="utf-8",
        fuzzy=False,
        header_comment=header,
    )
    catalog.creation_date = created or datetime.now(timezone.utc)
    catalog.revision_date = catalog.creation_date
    return catalog


def _read(path: Path) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as stream:
        return read_po(stream, ignore_obsolete=True)


#: Lines are never wrapped.  Not ``width=0``: Babel then still wraps comments at 76 characters,
#: which cuts a long ``#| msgid`` (the English a fuzzy translation was made from) into lines it
#: cannot read back, and the translator would lose what changed.
_NO_WRAP = 1 << 20


def _render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(
        out, catalog, width=_NO_WRAP, omit_header=False, include_previous=True, sort_output=False
    )
    return out.getvalue()


def _same(a: Catalog | None, b: Catalog) -> bool:
    def entries(c: Catalog) -> list[tuple[object, ...]]:
        return [
            (m.context, m.id, m.string or "", m.fuzzy, m.previous_id, sorted(m.flags))
            for m in c
            if m.id
        ]

    return a is not None and entries(a) == entries(b)


def template(name: str, english: Mapping[str, Text], created: datetime | None = None) -> Catalog:
    catalog = _catalog(None, name, created)
    for key in sorted(k for k in english if domain(k) == name):
        catalog.add(_ids(english[key]), context=key, flags=_flags(english[key]))
    return catalog


def merge(
    language: str,
    name: str,
    english: Mapping[str, Text],
    old: Catalog | None,
    created: datetime | None = None,
) -> Catalog:
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
                previous_id = _previous(kept)
            if kept.id != ids and any(string if isinstance(string, tuple) else (string,)):
                flags.add("fuzzy")  # the English changed: the translation waits for a translator
                previous_id = kept.id
        catalog[ids] = Entry(ids, string, flags=flags, context=key, previous_id=previous_id)
    return catalog


def _previous(entry: Entry) -> str | tuple[str, ...]:
    """The English a fuzzy translation was made from (its ``#| msgid``): Babel writes it but reads
    it back only as a comment, so it is taken from there."""
    if entry.previous_id:
        return tuple(entry.previous_id) if len(entry.previous_id) > 1 else entry.previous_id[0]
    found: dict[str, str] = {}
    for comment in entry.user_comments:
        for keyword in ("msgid", "msgid_plural"):
            if comment.startswith(f"| {keyword} "):
                found[keyword] = unescape(comment[len(keyword) + 3 :])
    if "msgid" not in found:
        return ()
    return (found["msgid"], found["msgid_plural"]) if "msgid_plural" in found else found["msgid"]


def _reshape(string: object, plural: bool, forms: int) -> str | tuple[str, ...]:
    strings = (
        tuple(str(s or "") for s in string)
        if isinstance(string, tuple | list)
        else (str(string or ""),)
    )
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
            fresh = compile_po(language, name)
            if not same_texts(mo_path(language, name), fresh):
                mo_path(language, name).write_bytes(fresh)
                changed.append(mo_path(language, name))
    return changed


def compile_po(language: str, name: str) -> bytes:
    """``language``'s catalogue for ``name``, compiled from its ``.po`` without the fuzzy entries."""
    with po_path(language, name).open("rb") as stream:
        catalog = read_po(stream, locale=language, domain=name, ignore_obsolete=True)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def same_texts(path: Path, compiled: bytes) -> bool:
    """Whether the compiled catalogue at ``path`` says what ``compiled`` says: the same entries and
    plural rule (the header's dates and Babel's version change no text)."""
    try:
        on_disk, headers = read_mo(path.read_bytes())
    except (OSError, ValueError):
        return False
    entries, fresh_headers = read_mo(compiled)
    return (on_disk, headers.get("plural-forms")) == (entries, fresh_headers.get("plural-forms"))


def _created(catalog: Catalog | None) -> datetime | None:
    created = catalog.creation_date if catalog is not None else None
    return created if isinstance(created, datetime) else None


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_render(catalog))
