"""The translations as gettext catalogues (device/translations/locale/): up to date with the English,
complete in every language, with the English parameters, and texts with a count taking the
form each language's CLDR plural rule asks for (Russian and Polish: three forms)."""

from __future__ import annotations

import string
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.text import Message, Plural
from device.translations import authoring
from device.translations import catalogs as device_catalogs
from display.i18n import LANGUAGES, Translator, catalogs, domains, source
from display.i18n.__main__ import main as update_main

TRANSLATED = LANGUAGES[1:]
COUNTS = (0, 1, 2, 5, 11, 21, 22, 25)


def fields(template: str) -> set[str]:
    return {
        name.split(".")[0].split("[")[0].split("!")[0]
        for _, name, _, _ in string.Formatter().parse(template)
        if name
    }


@pytest.fixture(scope="module")
def english() -> dict[str, object]:
    return dict(catalogs.sources())


def entries(path: Path) -> list[tuple[object, ...]]:
    with path.open("rb") as stream:
        catalog = read_po(stream)
    return [(m.context, m.id, m.string or "", m.fuzzy) for m in catalog if m.id]


@pytest.mark.parametrize("name", domains.names())
def test_the_templates_hold_every_english_text(name: str, english: dict[str, object]) -> None:
    """A changed English text without ``python -m display.i18n`` would never reach a translator."""
    made = catalogs.template(name, english)  # type: ignore[arg-type]
    assert entries(catalogs.pot_path(name)) == [
        (m.context, m.id, m.string or "", m.fuzzy) for m in made if m.id
    ]


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", domains.names())
def test_every_text_is_translated_and_confirmed(
    language: str, name: str, english: dict[str, object]
) -> None:
    path = catalogs.po_path(language, name)
    merged = catalogs.merge(language, name, english, read_po(path.open("rb")))  # type: ignore[arg-type]
    assert entries(path) == [(m.context, m.id, m.string or "", m.fuzzy) for m in merged if m.id], (
        f"{path} is not up to date: run python -m display.i18n"
    )
    waiting = [
        m.context
        for m in merged
        if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else (m.string,)))
    ]
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
        wanted = (
            fields(english.other) | fields(english.one)
            if isinstance(english, Plural)
            else fields(english)
        )
        forms = text if isinstance(text, tuple) else (text,)
        found = [fields(form) for form in forms]
        if any(not f <= wanted for f in found) or set().union(*found) != wanted:
            wrong[key] = (sorted(wanted), [sorted(f) for f in found])
    assert wrong == {}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            [
                "0 counters",
                "1 counter",
                "2 counters",
                "5 counters",
                "11 counters",
                "21 counters",
                "22 counters",
                "25 counters",
            ],
        ),
        (
            "ru",
            [
                "0 жетонов",
                "1 жетон",
                "2 жетона",
                "5 жетонов",
                "11 жетонов",
                "21 жетон",
                "22 жетона",
                "25 жетонов",
            ],
        ),
        (
            "pl",
            [
                "0 znaczników",
                "1 znacznik",
                "2 znaczniki",
                "5 znaczników",
                "11 znaczników",
                "21 znaczników",
                "22 znaczniki",
                "25 znaczników",
            ],
        ),
        ("ja", [f"カウンター{n}個" for n in COUNTS]),
    ],
)
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


def _copy_catalogues(target: Path, language: str) -> Path:
    for name in domains.names():
        path = target / language / "LC_MESSAGES" / f"{name}.mo"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(catalogs.mo_path(language, name).read_bytes())
    return target / language / "LC_MESSAGES"


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: b'msgid "\n\xff\xfe unterminated', id="not-compiled"),
        pytest.param(lambda data: data[: len(data) // 2], id="cut-short"),
        pytest.param(lambda data: data[:12], id="header-only"),
        pytest.param(lambda data: data[:-200] + b"\xff" * 200, id="bad-utf8-at-the-end"),
        pytest.param(None, id="missing"),
    ],
)
def test_a_damaged_catalogue_shows_english_and_is_logged(
    damage: Callable[[bytes], bytes] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    broken = _copy_catalogues(tmp_path, "ru") / "planechase.mo"
    if damage is None:
        broken.unlink()
    else:
        broken.write_bytes(damage(broken.read_bytes()))
    monkeypatch.setattr(
        device_catalogs, "LOCALE", tmp_path
    )  # where the console and the kiosk read them
    catalogs.load.cache_clear()
    try:
        tr = Translator("ru")
        assert tr("ui.pc.counters", n=2) == "2 counters"  # that catalogue: English
        assert tr("ui.btn.next") == "ДАЛЕЕ"  # the others still translate
        assert "planechase.mo" in caplog.text
    finally:
        catalogs.load.cache_clear()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    flips=st.lists(
        st.tuples(st.integers(min_value=0), st.integers(min_value=1, max_value=255)),
        min_size=1,
        max_size=8,
    )
)
def test_flipped_bytes_in_a_catalogue_never_stop_the_gadget(
    flips: list[tuple[int, int]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An SD card's damage in a compiled catalogue: whatever it reads, every text is still worded
    (in Russian or in English), never an exception."""
    folder = _copy_catalogues(tmp_path / str(len(list(tmp_path.iterdir()))), "ru")
    target = folder / "core.mo"
    data = bytearray(target.read_bytes())
    for at, mask in flips:
        data[at % len(data)] ^= mask
    target.write_bytes(bytes(data))
    monkeypatch.setattr(device_catalogs, "LOCALE", folder.parents[1])
    catalogs.load.cache_clear()
    try:
        tr = Translator("ru")
        for key in ("ui.btn.next", "controller.undid", "ui.pc.counters"):
            assert isinstance(tr(key, n=3, what="x"), str)
    finally:
        catalogs.load.cache_clear()


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", domains.names())
def test_the_compiled_catalogues_say_what_the_po_files_say(language: str, name: str) -> None:
    """The gadget reads the .mo files: one left behind after a .po was edited would show the old
    wording on the table."""
    assert catalogs.same_texts(
        catalogs.mo_path(language, name), catalogs.compile_po(language, name)
    ), (
        f"{catalogs.mo_path(language, name)} is not compiled from its .po: run python -m display.i18n"
    )


def test_a_compiled_catalogue_reads_in_either_byte_order() -> None:
    """GNU gettext writes a .mo in the byte order of the machine that compiled it."""
    little = catalogs.compile_po("pl", "core")
    count, originals, translations = struct.unpack_from("<3I", little, 8)
    big = bytearray(little)
    struct.pack_into(">5I", big, 0, *struct.unpack_from("<5I", little))
    for table in (originals, translations):
        for i in range(count):
            struct.pack_into(
                ">2I", big, table + 8 * i, *struct.unpack_from("<2I", little, table + 8 * i)
            )
    assert device_catalogs.read_mo(bytes(big)) == device_catalogs.read_mo(little)


def test_reading_the_translations_needs_no_babel() -> None:
    """Babel writes the catalogues; the gadget reads them compiled, with the standard library."""
    code = (
        "import sys; import device.translations, display.i18n; display.i18n.Translator('ru')('ui.btn.next'); "
        "print('babel' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


def test_a_changed_english_text_keeps_its_translation_fuzzy_with_the_old_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, english: dict[str, object]
) -> None:
    """What a translator sees after a long English text changed: the old translation, marked
    fuzzy, and the English it was made from (``#| msgid``), read back whole however long."""
    key = "cardtext.images_need_folder"
    target = tmp_path / "ru" / "LC_MESSAGES" / "core.po"
    target.parent.mkdir(parents=True)
    target.write_bytes(catalogs.po_path("ru", "core").read_bytes())
    for name in domains.names():
        (tmp_path / f"{name}.pot").write_bytes(catalogs.pot_path(name).read_bytes())
    translated = Translator("ru").translated(key)
    monkeypatch.setattr(device_catalogs, "LOCALE", tmp_path)
    old = str(english[key])
    assert len(old) > 100
    changed = {k: v for k, v in english.items() if not k.startswith("ui.") or k in ("ui.btn.next",)}
    changed[key] = old + " Then restart the kiosk."
    for other in ("", "controller.undid"):  # then another text changes: the file is written again
        if other:
            changed[other] = str(changed[other]) + "!"
        authoring.update(["ru"], changed)  # type: ignore[arg-type]
        text = target.read_text(encoding="utf-8")
        assert text.count(f'#| msgid "{old}"\n') == 1
        with target.open("rb") as stream:
            entry = next(m for m in read_po(stream) if m.context == key)
        assert entry.fuzzy and entry.id == changed[key] and entry.string == translated


def test_the_update_command_changes_nothing_when_all_is_current(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert update_main([]) == 0
    assert capsys.readouterr().out == ""


def forms(one: str, few: str, many: str, language: str) -> list[str]:
    """``one``/``few``/``many`` (with ``#`` for the count) at every count in ``COUNTS``, as the
    language's CLDR rule picks them; Japanese and English give ``many`` and ``one`` only."""
    rule = catalogs.load(language).plural if language != "en" else (lambda n: int(n != 1) * 2)
    picked = {0: one, 1: few, 2: many} if language in ("ru", "pl") else {0: many, 1: many, 2: many}
    if language == "en":
        picked = {0: one, 2: many}
    return [picked[rule(n)].replace("#", str(n)) for n in COUNTS]


REPRESENTATIVE = {
    # a Planechase roll count and its mana
    ("ui.pc.odds_k_short", "k"): {
        "en": ("# roll: 50%, # mana", "", "# rolls: 50%, # mana"),
        "ru": ("# бросок: 50%, # мана", "# броска: 50%, # маны", "# бросков: 50%, # маны"),
        "pl": ("# rzut: 50%, # mana", "# rzuty: 50%, # many", "# rzutów: 50%, # many"),
        "ja": ("", "", "#回：50%、#マナ"),
    },
    # a card count
    ("planechase.deck_line", "count"): {
        "en": ("Ann # card", "", "Ann # cards"),
        "ru": ("Ann — # карта", "Ann — # карты", "Ann — # карт"),
        "pl": ("Ann – # karta", "Ann – # karty", "Ann – # kart"),
        "ja": ("", "", "Ann #枚"),
    },
    # poison counters
    ("life.poison_below", "poison"): {
        "en": (
            "Ann has # poison counter; 99 cannot be removed.",
            "",
            "Ann has # poison counters; 99 cannot be removed.",
        ),
        "ru": (
            "У игрока Ann # жетон яда; снять 99 нельзя.",
            "У игрока Ann # жетона яда; снять 99 нельзя.",
            "У игрока Ann # жетонов яда; снять 99 нельзя.",
        ),
        "pl": (
            "Ann ma # znacznik trucizny; nie można zdjąć 99.",
            "Ann ma # znaczniki trucizny; nie można zdjąć 99.",
            "Ann ma # znaczników trucizny; nie można zdjąć 99.",
        ),
        "ja": ("", "", "Annの毒カウンターは#個です。99個は取り除けません。"),
    },
    # Wizard's Duel dice
    ("wd.defend.reserve", "count"): {
        "en": (
            "Ann weakens the attack with # reserve die (set aside).",
            "",
            "Ann weakens the attack with # reserve dice (set aside).",
        ),
        "ru": (
            "Ann ослабляет атаку # кубиком резерва (он откладывается).",
            "Ann ослабляет атаку # кубиками резерва (они откладываются).",
            "Ann ослабляет атаку # кубиками резерва (они откладываются).",
        ),
        "pl": (
            "Ann osłabia atak # kością rezerwy, odłożoną na bok.",
            "Ann osłabia atak # kośćmi rezerwy, odłożonymi na bok.",
            "Ann osłabia atak # kośćmi rezerwy, odłożonymi na bok.",
        ),
        "ja": ("", "", "Annは予備ダイス#個で攻撃を弱めます（脇に置きます）。"),
    },
    # the longest name a player may have
    ("table.name_long", "limit"): {
        "en": (
            "'Ann' is too long for the screen: at most # character.",
            "",
            "'Ann' is too long for the screen: at most # characters.",
        ),
        "ru": (
            "'Ann' слишком длинное: не больше # символа.",
            "'Ann' слишком длинное: не больше # символов.",
            "'Ann' слишком длинное: не больше # символов.",
        ),
        "pl": (
            "'Ann' jest za długie: najwyżej # znak.",
            "'Ann' jest za długie: najwyżej # znaki.",
            "'Ann' jest za długie: najwyżej # znaków.",
        ),
        "ja": ("", "", "'Ann'は長すぎます：#文字までです。"),
    },
    # a Conspiracy round's minutes
    ("consp.not_yet", "minutes"): {
        "en": ("Time is not up yet: # minute left.", "", "Time is not up yet: # minutes left."),
        "ru": (
            "Время ещё не вышло: осталась # минута.",
            "Время ещё не вышло: осталось # минуты.",
            "Время ещё не вышло: осталось # минут.",
        ),
        "pl": (
            "Czas jeszcze nie minął: została # minuta.",
            "Czas jeszcze nie minął: zostały # minuty.",
            "Czas jeszcze nie minął: zostało # minut.",
        ),
        "ja": ("", "", "まだ時間切れではありません：残り#分。"),
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("key", "count"), list(REPRESENTATIVE))
def test_counts_agree_with_their_nouns(language: str, key: str, count: str) -> None:
    """A card count, poison counters, rolls and their mana, dice, minutes: every language says
    0, 1, 2, 5, 11, 21, 22 and 25 of them the way its speakers do (Russian 1, 21 бросок; 2, 22
    броска; 0, 5, 11, 25 бросков; Polish 1 rzut; 2, 22 rzuty; 0, 5, 11, 21, 25 rzutów)."""
    tr = Translator(language)
    extra = {"name": "Ann", "owner": "Ann", "remove": 99, "p": 50}
    shown = [tr(key, **extra, **{count: n}, mana=Message("ui.pc.mana", n=n)) for n in COUNTS]
    assert shown == forms(*REPRESENTATIVE[(key, count)][language], language)
