"""Rebuild the bundled fonts: run after adding UI texts in a language with new characters.

Two families, both under the SIL Open Font License 1.1 (see OFL.txt), as packaged by Debian:

- ``NotoSans-{Regular,Bold}-subset.ttf``: Noto Sans (``fonts-noto-core`` 20201225, from
  https://github.com/notofonts/latin-greek-cyrillic): Latin, Latin-1, Latin Extended-A (Polish)
  and Cyrillic, whole blocks, so any English, Polish or Russian name renders;
- ``NotoSansCJKjp-{Regular,Bold}-subset.otf``: Noto Sans CJK JP (``fonts-noto-cjk`` 20220127,
  from https://github.com/googlefonts/noto-cjk): kana, CJK punctuation, arrows, the kanji the
  kiosk's texts use and every kanji of JIS X 0208, so any Japanese name renders.

The characters come from everything the kiosk can show: every English text and every
catalogue's translation, the non-ASCII characters in the display code's own strings (arrows,
bullets, dashes), the language names and every card name in the catalog.  Needs fontTools
(``pip install fonttools``), which the gadget itself does not; FONTS is where the Noto files are
(default ``/usr/share/fonts``; ``apt-get download fonts-noto-core fonts-noto-cjk`` and
``dpkg -x`` them into a folder to build without installing them)::

    python display/typefaces/subset.py [FONTS]
"""

from __future__ import annotations

import io
import sys
import tokenize
from pathlib import Path

HERE = Path(__file__).resolve().parent
FONTS = Path("/usr/share/fonts")
LATIN = [
    (0x0020, 0x007E),
    (0x00A0, 0x017F),
    (0x0400, 0x045F),
    (0x2010, 0x2027),
    (0x2030, 0x203A),
    (0x20AC, 0x20AC),
]
CJK = [
    (0x2190, 0x2193),
    (0x2212, 0x2212),
    (0x25A0, 0x25A1),
    (0x25CF, 0x25CF),
    (0x2713, 0x2713),
    (0x3000, 0x303F),
    (0x3040, 0x309F),
    (0x30A0, 0x30FF),
    (0xFF01, 0xFF5E),
]


def _chars(ranges: list[tuple[int, int]]) -> set[str]:
    return {chr(c) for low, high in ranges for c in range(low, high + 1)}


def jis_kanji() -> set[str]:
    """The 6,355 kanji of JIS X 0208 (levels 1 and 2): what a Japanese keyboard's input method
    offers for names, so any name typed at a Japanese table renders without the system's fonts."""
    found = set()
    for row in range(0xB0, 0xF5):  # the kanji rows 16-84, as EUC-JP bytes
        for cell in range(0xA1, 0xFF):
            try:
                ch = bytes((row, cell)).decode("euc_jp")
            except UnicodeDecodeError:
                continue
            if "\u4e00" <= ch <= "\u9fff":
                found.add(ch)
    return found


def texts() -> set[str]:
    """Every character the kiosk's texts use: the English and every catalogue's translations."""
    sys.path.insert(0, str(HERE.parent.parent))
    from device.text import Plural
    from display import i18n
    from display.i18n import catalogs

    from device.catalog import load_catalog

    found = set("".join(i18n.LANGUAGE_NAMES.values()))
    found |= {ch for card in load_catalog() for ch in card.name}
    found |= code_strings(HERE.parent)
    for entry in catalogs.sources().values():
        found |= set(entry.one + entry.other if isinstance(entry, Plural) else entry)
    for language in i18n.LANGUAGES[1:]:
        for text in catalogs.load(language).texts.values():
            found |= set("".join(text) if isinstance(text, tuple) else text)
    return found


def code_strings(folder: Path) -> set[str]:
    """The non-ASCII characters of the string literals in ``folder``'s Python code."""
    found: set[str] = set()
    for path in folder.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING:
                found |= {ch for ch in token.string if ord(ch) > 0x7E}
    return found


def _subset(font: object, text: str, out: Path) -> None:
    from fontTools import subset

    options = subset.Options()
    options.layout_features = ["kern", "liga", "palt"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.save(str(out))  # type: ignore[attr-defined]
    print(f"{out.name}: {out.stat().st_size} bytes")


def main(argv: list[str]) -> int:
    from fontTools.ttLib import TTCollection, TTFont

    fonts = Path(argv[0]) if argv else FONTS
    noto, noto_cjk = fonts / "truetype" / "noto", fonts / "opentype" / "noto"
    used = texts()
    latin = _chars(LATIN)
    # Whole blocks for names people type; beyond them, what the texts use (a dash, an arrow, kana).
    latin |= {ch for ch in used if ord(ch) < 0x2000}
    for weight in ("Regular", "Bold"):
        _subset(
            TTFont(str(noto / f"NotoSans-{weight}.ttf")),
            "".join(sorted(latin)),
            HERE / f"NotoSans-{weight}-subset.ttf",
        )
        cjk = _chars(CJK) | jis_kanji() | {ch for ch in used if ch not in latin}
        font = TTCollection(str(noto_cjk / f"NotoSansCJK-{weight}.ttc")).fonts[
            0
        ]  # Noto Sans CJK JP
        _subset(font, "".join(sorted(cjk)), HERE / f"NotoSansCJKjp-{weight}-subset.otf")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
