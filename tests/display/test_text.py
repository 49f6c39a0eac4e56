"""The kiosk's languages and fonts: English, Russian, Japanese and Polish strings, the core's
messages translated by key with an English fallback, bundled fonts that draw every UI string,
and a clear message when a character has no font."""

from __future__ import annotations


from collections.abc import Callable
from pathlib import Path

import pytest

# Every module that registers texts the screen may show, so the checks below see them all.
import device.cardtext  # noqa: F401
import device.console  # noqa: F401
import device.controller  # noqa: F401
import device.recovery  # noqa: F401
import device.scryfall  # noqa: F401
from device import text as core_text
from device.text import Message
from display import cardtext
from display.fonts import BUNDLED, Fonts
from display.i18n import LANGUAGES, Translator, table
from display.kiosk import Kiosk


def test_core_messages_fall_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    tr = Translator("ru")
    assert (
        tr.message(Message("life.changed", name="Аня", before=20, after=17))
        == "Аня: жизнь 20 → 17."
    )
    assert tr.message(Message("controller.undid", what="x")) == "Отменено: x"
    # A key no translation has yet shows in English, never as a key.
    monkeypatch.setitem(core_text.every_text(), "test.untranslated", "Only in English")  # type: ignore[arg-type]
    assert "test.untranslated" not in table("ru")
    assert tr("test.untranslated") == "Only in English"


@pytest.mark.parametrize("language", LANGUAGES)
def test_bundled_fonts_draw_every_ui_text(language: str, fonts: Fonts) -> None:
    """The bundled subsets hold every character of the kiosk's texts: a fresh machine with no
    fonts at all still draws the whole interface (re-run display/typefaces/subset.py otherwise)."""
    bundled = Fonts(system=False)
    chars = {ch for text in table(language).values() for ch in text}
    for ch in sorted(chars):
        bundled.runs(ch)
    assert bundled.missing == set()
    assert all(Path(name).parent == BUNDLED for name in bundled.chain()[:2])


def test_bundled_fonts_come_with_their_licence() -> None:
    licence = (BUNDLED / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert (
        "NotoSansCJKjp-Regular-subset.otf" in licence and "NotoSans-Regular-subset.ttf" in licence
    )


def test_a_character_no_font_has_is_reported_once_with_the_fix(
    fonts: Fonts, caplog: pytest.LogCaptureFixture
) -> None:
    bundled = Fonts(system=False)
    bundled.render("龘丂 Bob", 20, (255, 255, 255))  # two kanji outside JIS X 0208, so not bundled
    bundled.render("龘", 20, (255, 255, 255))
    assert bundled.missing == {"龘", "丂"}
    assert caplog.text.count("no font for") == 2
    assert Translator("en")("ui.font_missing", chars="龘丂") == (
        "No font for 龘丂: install fonts-noto-cjk (or set display.font)"
    )


def test_every_kanji_a_japanese_keyboard_offers_for_a_name_is_bundled(fonts: Fonts) -> None:
    """The 6,355 kanji of JIS X 0208, in both weights: names like 健太 or 翔 draw on a fresh
    machine without the system's CJK fonts."""
    bundled = Fonts(system=False)
    kanji = set()
    for row in range(0xB0, 0xF5):
        for cell in range(0xA1, 0xFF):
            try:
                kanji.add(bytes((row, cell)).decode("euc_jp"))
            except UnicodeDecodeError:
                pass
    assert len(kanji) == 6355
    assert [
        ch for ch in sorted(kanji) if not (bundled.has(ch) and bundled.has(ch, bold=True))
    ] == []
    bundled.render("健太 翔 漢字 龍", 20, (255, 255, 255), bold=True)
    assert bundled.missing == set()


def test_a_missing_configured_font_is_said_and_the_bundled_one_used(
    tmp_path: Path, fonts: Fonts
) -> None:
    chosen = Fonts(configured=tmp_path / "nope.ttf", system=False)
    assert chosen.notices[0][0] == "ui.font_bundled_missing"
    assert str(tmp_path / "nope.ttf") in chosen.notices[0][1]["font"]
    assert Path(chosen.chain()[0]).parent == BUNDLED


def test_system_fonts_extend_the_bundled_ones(fonts: Fonts) -> None:
    """With the operating system's fonts, a name in kanji the UI does not use still draws."""
    system = Fonts(system=True)
    installed = [name for name in system.chain() if name != "None" and Path(name).parent != BUNDLED]
    if not any(
        "NotoSansCJK" in name or "Hiragino" in name or "msgothic" in name for name in installed
    ):
        pytest.skip("no CJK font installed on this machine (the bundled subset does not count)")
    system.render("漢字", 20, (255, 255, 255))
    assert system.missing == set()


def test_card_text_comes_from_imported_card_data(tmp_path: Path) -> None:
    """HW-3: ``aetherbox catalog import`` stores rules text; the screens read it by name."""
    import json

    from device.cardtext import clear_cache, import_file

    data = tmp_path / "cards.json"
    data.write_text(
        json.dumps(
            [
                {
                    "object": "card",
                    "id": "0",
                    "lang": "en",
                    "name": "Tazeem",
                    "layout": "planar",
                    "type_line": "Plane — Zendikar",
                    "oracle_text": "Sample text.",
                    "legalities": {},
                }
            ]
        ),
        encoding="utf-8",
    )
    import_file(data, tmp_path / "data")
    clear_cache()
    try:
        cardtext.configure(tmp_path / "data")
        assert cardtext.rules_text("Tazeem") == "Sample text."
        assert cardtext.rules_text("Agyrem") is None
    finally:
        cardtext.configure(None)


def test_the_bundled_fonts_draw_every_text_and_card_name() -> None:
    """Every text in every language, the language names and every card name in the catalog draw
    with the bundled fonts alone: no box where a character should be."""
    from device.catalog import load_catalog
    from device.text import Plural
    from display.i18n import LANGUAGE_NAMES, catalogs

    bundled = Fonts(system=False)
    shown: list[str] = [*LANGUAGE_NAMES.values(), *(card.name for card in load_catalog())]
    for entry in catalogs.sources().values():
        shown += [entry.one, entry.other] if isinstance(entry, Plural) else [entry]
    for language in LANGUAGES[1:]:
        for text in catalogs.load(language).texts.values():
            shown += list(text) if isinstance(text, tuple) else [text]
    for text in shown:
        bundled.check(text)
        bundled.check(text, bold=True)
    assert bundled.missing == set()


def test_the_missing_font_notice_lasts_as_long_as_its_cause(
    make_kiosk: Callable[..., Kiosk],
) -> None:
    """A name with a character no font has: the status line says what to install while the name
    is on the screen, and says nothing of it once a game without it is shown."""
    from device.commands import NewGame
    from scenes import texts

    kiosk = make_kiosk((800, 480), "en")
    kiosk.fonts.system = False
    kiosk.execute(NewGame(formats=("ffa",), players=("龘", "Bob"), first="Bob"))
    kiosk.ui.said = []
    kiosk.redraw()
    notice = texts(kiosk, "status.font")
    assert notice == ["No font for U+9F98: install fonts-noto-cjk (or set display.font)"]
    assert [
        char for char in "".join(notice) if not kiosk.fonts.has(char)
    ] == []  # the notice draws no box itself
    kiosk.execute(NewGame(formats=("ffa",), players=("Ann", "Bob"), first="Bob"))
    kiosk.ui.said = []
    kiosk.redraw()
    assert texts(kiosk, "status.font") == []


def test_the_missing_font_notice_shows_a_character_a_font_has_itself() -> None:
    """A character only the bold face lacks is named as the status line can draw it: itself, with
    its code point; one no face has, by its code point alone."""
    from display.status import drawable

    class BoldLacks(Fonts):
        def has(self, char: str, bold: bool = False) -> bool:
            return not bold and char != "漢"

    fonts = BoldLacks(system=False)
    assert (drawable(fonts, "é"), drawable(fonts, "漢")) == ("é (U+00E9)", "U+6F22")


@pytest.mark.parametrize("text", ["解決したら「次へ」を押す", "Enterで次へ進む。"])
def test_a_japanese_paragraph_does_not_end_on_a_lone_character(
    make_kiosk: Callable[..., Kiosk], text: str
) -> None:
    """Where the last character alone would go onto a line of its own, the line before gives it
    one more: "…を押" / "す" is drawn "…を" / "押す"; the lines still make the whole text."""
    kiosk = make_kiosk((800, 480), "ja")
    canvas, size = kiosk.canvas, kiosk.canvas.layout.small
    last = text[-2:] if text.endswith("。") else text[-1:]
    width = canvas.fonts.measure(text[: len(text) - len(last)], size)[0]
    lines = canvas.wrap(text, size, width)
    assert "".join(lines) == text
    assert len(lines) == 2 and len(lines[-1]) > len(last)
    assert all(canvas.fonts.measure(line, size)[0] <= width for line in lines)


@pytest.mark.parametrize(
    "text", ["統率者ダメージ（合計7/21）", "「次へ」を押す", "ライフ40 → 33（Юрийから）"]
)
def test_a_japanese_line_never_ends_on_an_opening_bracket(
    make_kiosk: Callable[..., Kiosk], text: str
) -> None:
    """An opening bracket goes to the next line with what it opens, at every width the text
    can wrap to: "…ダメージ（" / "合計7/21）" would leave the bracket alone at the line's end."""
    kiosk = make_kiosk((800, 480), "ja")
    canvas, size = kiosk.canvas, kiosk.canvas.layout.small
    whole = canvas.fonts.measure(text, size)[0]
    for width in range(whole // 4, whole + 1):
        lines = canvas.wrap(text, size, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert not any(line.endswith(("（", "「", "(")) for line in lines[:-1]), (width, lines)


#: Japanese texts the kiosk shows, with words that were broken inside (統率者ダ/メージ, エネ/ルギー,
#: アップキー/プ) when a line could break between any two characters.
PHRASED = (
    "さくらはAliceの統率者から7点の統率者ダメージを受けた（合計7/21）。さくら：ライフ40 → 33（Aliceから）。",
    "Юрийはエネルギーカウンターを2個得た（合計5）。",
    "Юрийのアップキープ：アンタップ、アップキープの誘発、ドロー。次へ：メイン・フェイズ",
)


@pytest.mark.parametrize("text", PHRASED)
def test_japanese_wraps_between_phrases(make_kiosk: Callable[..., Kiosk], text: str) -> None:
    """A Japanese line breaks where a phrase ends (BudouX's phrases, as a typesetter breaks them),
    at every width the text wraps to, unless a phrase alone is wider than the line; the lines
    still make the whole text."""
    import budoux

    from display.canvas import NO_LINE_START

    phrases = budoux.load_default_japanese_parser().parse(text)
    ends, end = set(), 0
    for phrase in phrases:
        end += len(phrase)
        after = end
        ends.add(after)
        while (
            after < len(text) and text[after] in NO_LINE_START
        ):  # a mark no line starts with stays before
            after += 1
            ends.add(after)
    kiosk = make_kiosk((800, 480), "ja")
    canvas, size = kiosk.canvas, kiosk.canvas.layout.small
    widest = max(canvas.fonts.measure(phrase.strip(), size)[0] for phrase in phrases)
    whole = canvas.fonts.measure(text, size)[0]
    for width in range(widest, whole + 1, 3):
        lines = canvas.wrap(text, size, width)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        at = 0
        for line in lines[:-1]:
            at = text.index(line, at) + len(line)
            assert at in ends or text[at : at + 1] == " ", (
                width,
                lines,
            )  # a phrase's end, or a space
