"""Rebuild the bundled fonts: run after adding UI texts in a language with new characters.

Two families, both under the SIL Open Font License 1.1 (see OFL.txt), as packaged by Debian:

- ``NotoSans-{Regular,Bold}-subset.ttf``: Noto Sans (``fonts-noto-core`` 20201225, from
  https://github.com/notofonts/latin-greek-cyrillic): Latin, Latin-1, Latin Extended-A (Polish)
  and Cyrillic, whole blocks, so any English, Polish or Russian name renders;
- ``NotoSansCJKjp-{Regular,Bold}-subset.otf``: Noto Sans CJK JP (``fonts-noto-cjk`` 20220127,
  from https://github.com/googlefonts/noto-cjk): kana, CJK punctuation, arrows and the kanji the
  kiosk's texts use.

Needs fontTools (``pip install fonttools``), which the gadget itself does not::

    python display/typefaces/subset.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTO = Path("/usr/share/fonts/truetype/noto")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto")
LATIN = [(0x0020, 0x007E), (0x00A0, 0x017F), (0x0400, 0x045F), (0x2010, 0x2027), (0x2030, 0x203A), (0x20AC, 0x20AC)]
CJK = [
    (0x2190, 0x2193), (0x2212, 0x2212), (0x25A0, 0x25A1), (0x25CF, 0x25CF), (0x2713, 0x2713),
    (0x3000, 0x303F), (0x3040, 0x309F), (0x30A0, 0x30FF), (0xFF01, 0xFF5E),
]


def _chars(ranges: list[tuple[int, int]]) -> set[str]:
    return {chr(c) for low, high in ranges for c in range(low, high + 1)}


def texts() -> set[str]:
    sys.path.insert(0, str(HERE.parent.parent))
    import importlib
    import pkgutil

    from display import i18n
    from display.i18n import _TABLES

    # The modules' own translation files (display/i18n/<module>.py) register when imported.
    for info in pkgutil.iter_modules(i18n.__path__):
        importlib.import_module(f"display.i18n.{info.name}")

    names = set("".join(i18n.LANGUAGE_NAMES.values())) | set("日本語")
    return names | {ch for table in _TABLES.values() for value in table.values() for ch in value}


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

    used = texts()
    latin = _chars(LATIN)
    for weight in ("Regular", "Bold"):
        _subset(TTFont(str(NOTO / f"NotoSans-{weight}.ttf")), "".join(sorted(latin)), HERE / f"NotoSans-{weight}-subset.ttf")
        cjk = _chars(CJK) | {ch for ch in used if ch not in latin and ord(ch) >= 0x2000}
        font = TTCollection(str(NOTO_CJK / f"NotoSansCJK-{weight}.ttc")).fonts[0]  # Noto Sans CJK JP
        _subset(font, "".join(sorted(cjk)), HERE / f"NotoSansCJKjp-{weight}-subset.otf")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
