"""The translations as gettext catalogues (display/i18n/locale/): up to date with the English,
complete in every language, with the English parameters, and texts with a count taking the
form each language's CLDR plural rule asks for (Russian and Polish: three forms)."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from device.text import Message, Plural
from display.i18n import LANGUAGES, Translator, catalogs, source
from display.i18n.__main__ import main as update_main

TRANSLATED = LANGUAGES[1:]
COUNTS = (0, 1, 2, 5, 11, 21, 22, 25)


def fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0].split("!")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.fixture(scope="module")
def english() -> dict[str, object]:
    return dict(catalogs.sources())


def entries(path: Path) -> list[tuple[object, ...]]:
    with path.open("rb") as stream:
        catalog = read_po(stream)
    return [(m.context, m.id, m.string or "", m.fuzzy) for m in catalog if m.id]


@pytest.mark.parametrize("name", catalogs.domains())
def test_the_templates_hold_every_english_text(name: str, english: dict[str, object]) -> None:
    """A changed English text without ``python -m display.i18n`` would never reach a translator."""
    made = catalogs.template(name, english)  # type: ignore[arg-type]
    assert entries(catalogs.pot_path(name)) == [(m.context, m.id, m.string or "", m.fuzzy) for m in made if m.id]


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", catalogs.domains())
def test_every_text_is_translated_and_confirmed(language: str, name: str, english: dict[str, object]) -> None:
    path = catalogs.po_path(language, name)
    merged = catalogs.merge(language, name, english, read_po(path.open("rb")))  # type: ignore[arg-type]
    assert entries(path) == [(m.context, m.id, m.string or "", m.fuzzy) for m in merged if m.id], (
        f"{path} is not up to date: run python -m display.i18n"
    )
    waiting = [m.context for m in merged if m.id and (m.fuzzy or not all(
        m.string if isinstance(m.string, tuple) else (m.string,)))]
    assert waiting == [], f"{language}: untranslated or fuzzy in {name}.po"


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_take_the_english_parameters(language: str) -> None:
    """A translation that invents a {param} would show a raw template, one that drops one loses
    a fact.  A form for one thing may leave the count out ("жетон" for 1); together the forms
    use every parameter."""
    wrong = {}
    for key, text in catalogs.load(language).texts.items():
        english = source(key)
        assert english is not None, f"{language}: {key!r} translates nothing"
        wanted = fields(english.other) | fields(english.one) if isinstance(english, Plural) else fields(english)
        forms = text if isinstance(text, tuple) else (text,)
        found = [fields(form) for form in forms]
        if any(not f <= wanted for f in found) or set().union(*found) != wanted:
            wrong[key] = (sorted(wanted), [sorted(f) for f in found])
    assert wrong == {}


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["0 counters", "1 counter", "2 counters", "5 counters", "11 counters", "21 counters", "22 counters",
            "25 counters"]),
    ("ru", ["0 жетонов", "1 жетон", "2 жетона", "5 жетонов", "11 жетонов", "21 жетон", "22 жетона", "25 жетонов"]),
    ("pl", ["0 znaczników", "1 znacznik", "2 znaczniki", "5 znaczników", "11 znaczników", "21 znaczników",
            "22 znaczniki", "25 znaczników"]),
    ("ja", [f"カウンター {n} 個" for n in COUNTS]),
])
def test_plural_forms_follow_the_language(language: str, expected: list[str]) -> None:
    tr = Translator(language)
    assert [tr("ui.pc.counters", n=n) for n in COUNTS] == expected


@pytest.mark.parametrize("language", ("ru", "pl"))
def test_every_text_with_a_count_has_the_languages_three_forms(language: str) -> None:
    """Russian and Polish say 1, 2 and 5 things three ways: every plural text gives all three,
    and they differ (a form copied three times is a translation that was not done)."""
    tr = Translator(language)
    lazy = []
    for key, text in catalogs.load(language).texts.items():
        english = source(key)
        if isinstance(english, Plural):
            assert isinstance(text, tuple) and len(text) == 3, key
            shown = {tr(key, **{english.n: n}).replace(str(n), "#") for n in (1, 2, 5)}
            if len(shown) < 2:
                lazy.append(key)
    assert lazy == []


def test_a_parameter_that_is_a_message_is_put_in_the_language_too() -> None:
    message = Message("controller.undid", what=Message("ui.pc.counters", n=3))
    assert Translator("ru").message(message) == "Отменено: 3 жетона"
    assert Translator("en").message(message) == "Undone: 3 counters"


def test_a_damaged_catalogue_shows_english_and_is_logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    for name in catalogs.domains():
        target = tmp_path / "ru" / "LC_MESSAGES" / f"{name}.po"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(catalogs.po_path("ru", name).read_bytes())
    broken = tmp_path / "ru" / "LC_MESSAGES" / "planechase.po"
    broken.write_bytes(b'msgid "\n\xff\xfe unterminated')
    monkeypatch.setattr(catalogs, "LOCALE", tmp_path)
    catalogs.load.cache_clear()
    try:
        tr = Translator("ru")
        assert tr("ui.pc.counters", n=2) == "2 counters"  # that catalogue: English
        assert tr("ui.btn.next") == "ДАЛЕЕ"  # the others still translate
        assert "planechase.po" in caplog.text
    finally:
        catalogs.load.cache_clear()


def test_the_update_command_changes_nothing_when_all_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    assert update_main([]) == 0
    assert capsys.readouterr().out == ""
