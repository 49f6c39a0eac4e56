"""STYLE 4 for the kiosk's texts: one explicit list of catalogues (``display.i18n.domains.DOMAINS``)
naming each format's English module and its .po domain, checked at start-up; no module adds texts
by being imported."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import display
from device.translations.catalogs import LOCALE
from display import i18n
from display.i18n import catalogs, domains, planechase
from display.i18n.domains import DOMAINS, Domain

ROOT = Path(display.__file__).parent
TEXT_MODULES = sorted(
    p.stem
    for p in (ROOT / "i18n").glob("*.py")
    if "TEXTS" in p.read_text(encoding="utf-8") and p.stem not in ("__init__", "domains")
)


def test_the_list_is_the_core_then_one_domain_per_format() -> None:
    assert domains.names() == (
        "core",
        "dice",
        "clock",
        "counters",
        "planechase",
        "contraptions",
        "necromancer",
        "conspiracy",
        "wizards_duel",
    )


def test_the_kiosks_english_has_one_entry_per_catalogue_in_the_catalogues_order() -> None:
    """The kiosk's list names the catalogues that ``device.translations.domains`` lists."""
    assert tuple(d.name for d in DOMAINS) == domains.names()


@pytest.mark.parametrize("name", TEXT_MODULES)
def test_every_text_module_is_in_the_list(name: str) -> None:
    """A module left out of the list would never show its texts."""
    texts = importlib.import_module(f"display.i18n.{name}").TEXTS
    assert any(english is texts for d in DOMAINS for english in d.english)


@pytest.mark.parametrize("found", DOMAINS[1:], ids=lambda d: d.name)
def test_a_formats_english_is_its_module_and_its_translations_its_po(found: Domain) -> None:
    module = importlib.import_module(f"display.i18n.{found.name}")
    assert found.english == (module.TEXTS,)
    assert catalogs.po_path("ru", found.name) == LOCALE / "ru" / "LC_MESSAGES" / f"{found.name}.po"
    assert {
        domains.domain(key)
        for key in module.TEXTS
        if not key.startswith(("ui.btn.", "ui.help.", "ui.setup."))
    } == {found.name}


def test_planechase_texts_are_in_planechase() -> None:
    assert i18n.source("ui.pc.title") == planechase.TEXTS["ui.pc.title"] == "Planechase"
    assert domains.domain("ui.pc.title") == "planechase"
    assert domains.domain("ui.btn.planes") == "core"


def test_a_key_written_twice_is_refused() -> None:
    twice = (Domain("core", ({"ui.a": "A"},)), Domain("planechase", ({"ui.a": "B"},)))
    with pytest.raises(
        ValueError, match="^text key 'ui.a' is written twice: in the core and planechase texts$"
    ):
        domains.english(twice)


def test_a_domain_listed_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="^a text domain is listed twice: core, core$"):
        domains.english((Domain("core", ()), Domain("core", ())))


def test_no_module_imports_a_text_module_but_the_list() -> None:
    """The texts come in through the list; a screen importing one for its side effect (or a text
    module registering itself) is what the list replaced."""
    texts = {f"display.i18n.{name}" for name in TEXT_MODULES}
    importers = set()
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "display.i18n":
                named = {f"display.i18n.{a.name}" for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                named = {node.module or ""}
            elif isinstance(node, ast.Import):
                named = {a.name for a in node.names}
            else:
                continue
            if named & texts:
                importers.add(path.relative_to(ROOT).as_posix())
    assert importers == {"i18n/domains.py"}
