"""Fonts that render English, Russian, Polish and Japanese, with a fallback per character.

The kiosk draws with a bundled font first: subsets of Noto Sans CJK JP (SIL Open Font License,
``display/typefaces/OFL.txt``; ``display/typefaces/subset.py`` says where they came from and rebuilds
them).  They hold every character of the kiosk's own texts in the four languages, so a fresh
machine with no fonts at all renders the interface, and every machine renders it the same way
(the screenshot tests rely on that).  Text the bundled subset lacks — a player's name in kanji
the texts do not use, say — is drawn with the next font that has the character: a configured
``display.font``, then DejaVu Sans and Noto Sans CJK from the operating system, then pygame's
own font.  A character no font has is logged once, and said on the status line, with what to
install, for as long as a text that needs it is on the screen (``shown_missing``).

A changed frame draws mostly the texts the frame before drew, and measures them many times over
(shrinking a text to fit tries sizes, wrapping tries lines): what a text measures and looks like
at a size is kept (``Lru``), keyed by everything it depends on — the fonts never change once
chosen — so a frame costs the texts that are new in it.  The caches are bounded: a long game's
changing numbers push out what has gone unused longest, never what every frame draws.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from msgspec import Struct, field
import pygame
import pygame.freetype

log = logging.getLogger(__name__)

BUNDLED = Path(__file__).resolve().parent / "typefaces"
BUNDLED_FILES: dict[bool, tuple[Path, ...]] = {
    False: (BUNDLED / "NotoSans-Regular-subset.ttf", BUNDLED / "NotoSansCJKjp-Regular-subset.otf"),
    True: (BUNDLED / "NotoSans-Bold-subset.ttf", BUNDLED / "NotoSansCJKjp-Bold-subset.otf"),
}

#: Operating-system fonts tried after the bundled ones, per weight.
SYSTEM_FILES: dict[bool, tuple[str, ...]] = {
    False: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/System/Library/Fonts/Hiragino Sans GB.ttc",
        "C:/Windows/Fonts/msgothic.ttc",
    ),
    True: (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
    ),
}

#: How many rendered lines of text, and how many measured texts, are kept.  A frame draws a
#: few dozen texts and measures a few hundred (shrink-to-fit and wrapping try sizes and widths);
#: these keep several screens' worth, in every language, while a long game's changing numbers
#: push out only what has not been used for longest.
RENDERED_LIMIT = 512
MEASURED_LIMIT = 8192
Color = tuple[int, int, int]
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A mapping that keeps at most ``limit`` entries, dropping the least recently used."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> V:
        self._entries[key] = value
        self._entries.move_to_end(key)
        if len(self._entries) > self.limit:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class Fonts(Struct):
    """Font files in the order they are tried; text is measured and drawn run by run."""

    configured: Path | None = None
    system: bool = True
    notices: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (text key, params)
    missing: set[str] = field(default_factory=set)  # every character no font had, since start
    shown_missing: set[str] = field(
        default_factory=set
    )  # those in the texts drawn since the last frame began
    _chains: dict[bool, list[pygame.freetype.Font]] = field(default_factory=dict)
    _has: dict[tuple[int, str], bool] = field(default_factory=dict)
    _full_width: dict[int, bool] = field(
        default_factory=dict
    )  # id(font) → it sets CJK text in em boxes
    _chosen: dict[tuple[str, bool], pygame.freetype.Font | None] = field(
        default_factory=dict
    )  # (char, bold) → its font
    # Per weight: the characters some font has, and those the first font has (a text of only
    # these is one run), so a text's characters are looked up one by one only the first time.
    _drawable: dict[bool, set[str]] = field(default_factory=lambda: {False: set(), True: set()})
    _first_font: dict[bool, set[str]] = field(default_factory=lambda: {False: set(), True: set()})
    _heights: dict[tuple[int, bool], int] = field(
        default_factory=dict
    )  # (size, bold) → line height
    # The fonts never change once chosen, so what a text measures and looks like at a size is
    # fixed: (text, size, bold[, colour]) is the whole key.
    _rendered: Lru[tuple[str, int, bool, Color], pygame.Surface] = field(
        default_factory=lambda: Lru(RENDERED_LIMIT)
    )
    _widths: Lru[tuple[str, int, bool], tuple[int, str]] = field(
        default_factory=lambda: Lru(MEASURED_LIMIT)
    )
    _inks: Lru[tuple[str, int, bool], tuple[int, int]] = field(
        default_factory=lambda: Lru(MEASURED_LIMIT)
    )

    def __post_init__(self) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        for bold in (False, True):
            paths: list[Path | None] = []
            if self.configured is not None:
                if self.configured.is_file():
                    paths.append(self.configured)
                elif not bold:
                    self._notice("ui.font_bundled_missing", font=f"{self.configured} (not found)")
            bundled = [p for p in BUNDLED_FILES[bold] if p.is_file()]
            if len(bundled) < len(BUNDLED_FILES[bold]) and not bold:
                self._notice("ui.font_bundled_missing", font=self._describe_fallback())
            paths += bundled
            if self.system:
                paths += [Path(p) for p in SYSTEM_FILES[bold] if Path(p).is_file()]
            paths.append(None)  # pygame's own font: always there, Latin only
            chain = []
            for path in paths:
                try:
                    font = pygame.freetype.Font(str(path) if path is not None else None, 12)
                except (OSError, pygame.error) as error:
                    self._notice("ui.font_bundled_missing", font=f"{path} ({error})")
                    continue
                font.pad = False
                font.kerning = True
                chain.append(font)
            self._chains[bold] = chain

    def _describe_fallback(self) -> str:
        for name in SYSTEM_FILES[False]:
            if Path(name).is_file():
                return Path(name).name
        return "pygame's default font"

    def _lacks(self, char: str) -> None:
        if char not in self.missing:
            self.missing.add(char)
            log.warning("fonts: no font for %r: install fonts-noto-cjk (or set display.font)", char)

    def check(self, text: str, bold: bool = False) -> None:
        """Note the characters of ``text`` (drawn now) that no font has, for the status line."""
        if self._all_drawable(text, bold):
            return
        for char in text:
            if self._font_for(char, bold) is None:
                self._lacks(char)
                self.shown_missing.add(char)

    def has(self, char: str, bold: bool = False) -> bool:
        """Whether a font of the chain draws ``char`` (else it would be a box)."""
        return self._font_for(char, bold) is not None

    def _notice(self, key: str, **params: str) -> None:
        entry = (key, params)
        if entry not in self.notices:
            self.notices.append(entry)
            log.warning("fonts: %s %s", key, params)

    def chain(self, bold: bool = False) -> Sequence[str]:
        """The names of the fonts tried, in order."""
        return tuple(str(font.path) for font in self._chains[bold])

    def _font_for(self, char: str, bold: bool) -> pygame.freetype.Font | None:
        key = (char, bold)
        if key in self._chosen:
            return self._chosen[key]
        found = self._first_with(char, bold)
        self._chosen[key] = found
        if found is not None:
            self._drawable[bold].add(char)
            if found is self._chains[bold][0]:
                self._first_font[bold].add(char)
        return found

    def _all_drawable(self, text: str, bold: bool) -> bool:
        """Whether some font has every character of ``text`` (one pass in C once they are known)."""
        if self._drawable[bold].issuperset(text):
            return True
        return all(self._font_for(char, bold) is not None for char in text)

    def _first_with(self, char: str, bold: bool) -> pygame.freetype.Font | None:
        for index, font in enumerate(self._chains[bold]):
            key = (index * 2 + bold, char)
            has = self._has.get(key)
            if has is None:
                has = char.isspace() or font.get_metrics(char, size=12)[0] is not None
                self._has[key] = has
            if has:
                return font
        return None

    def runs(self, text: str, bold: bool = False) -> list[tuple[pygame.freetype.Font, str]]:
        """``text`` split into runs, each drawn by the first font in the chain that has it."""
        if text and self._first_font[bold].issuperset(text):  # the usual case, without a loop
            return [(self._chains[bold][0], text)]
        runs: list[tuple[pygame.freetype.Font, str]] = []
        for char in text:
            chosen = self._font_for(char, bold)
            if chosen is None:
                chosen = self._chains[bold][0]
                self._lacks(char)
            if runs and runs[-1][0] is chosen:
                runs[-1] = (chosen, runs[-1][1] + char)
            else:
                runs.append((chosen, char))
        return runs

    def advance(self, char: str, size: int, bold: bool = False) -> float:
        """How far ``char`` alone moves the pen at ``size`` (0 where no font has it)."""
        font = self._font_for(char, bold)
        metrics = font.get_metrics(char, size=size) if font is not None else [None]
        return float(metrics[0][4]) if metrics and metrics[0] is not None else 0.0

    def line_height(self, size: int, bold: bool = False) -> int:
        key = (size, bold)
        found = self._heights.get(key)
        if found is None:
            found = self._heights[key] = int(self._chains[bold][0].get_sized_height(size))
        return found

    def ascent(self, size: int, bold: bool = False) -> int:
        return int(self._chains[bold][0].get_sized_ascender(size))

    def measure(self, text: str, size: int, bold: bool = False) -> tuple[int, int]:
        """How far ``text`` moves the pen at ``size``, and the line's height."""
        key = (text, size, bold)
        found = self._widths.get(key)
        if found is None:
            width = 0
            for font, run in self.runs(text, bold):
                width += self._width(font, run, size)
            lacking = (
                ""
                if self._all_drawable(text, bold)
                else "".join(dict.fromkeys(ch for ch in text if self._font_for(ch, bold) is None))
            )
            found = self._widths.put(key, (width, lacking))
        else:
            for char in found[1]:  # noted as a fresh measurement notes it (the log says it once)
                self._lacks(char)
        return found[0], self.line_height(size, bold)

    def _in_em_boxes(self, font: pygame.freetype.Font) -> bool:
        """Whether ``font`` sets CJK text, where a full-width mark's room is part of it: the ink
        of "：" or "（" fills half its box, and measuring by ink would glue it to the next word
        ("ダイス :1" for "ダイス：1")."""
        found = self._full_width.get(id(font))
        if found is None:
            found = font.get_metrics("\uff1a", size=12)[0] is not None
            self._full_width[id(font)] = found
        return found

    def _width(self, font: pygame.freetype.Font, run: str, size: int) -> int:
        """How far a run moves the pen: by its ink for Latin and Cyrillic runs, by its boxes for a
        CJK run and for spaces."""
        if not run.strip() or self._in_em_boxes(font):
            return self._space(font, run, size)
        return int(font.get_rect(run, size=size).width)

    def ink(self, text: str, size: int, bold: bool = False) -> tuple[int, int]:
        """Where the ink of ``text`` is in its line: (top, height) in pixels from the line's top.
        Digits fill little more than half of a line; a big number is placed by its ink."""
        key = (text, size, bold)
        found = self._inks.get(key)
        if found is None:
            found = self._inks.put(key, self._ink(text, size, bold))
        return found

    def _ink(self, text: str, size: int, bold: bool) -> tuple[int, int]:
        ascent = self.ascent(size, bold)
        top, bottom = None, None
        for font, run in self.runs(text, bold):
            if not run.strip():
                continue
            rect = font.get_rect(run, size=size)
            run_top = ascent - int(rect.y)
            top = run_top if top is None else min(top, run_top)
            bottom = (
                run_top + int(rect.height)
                if bottom is None
                else max(bottom, run_top + int(rect.height))
            )
        if top is None or bottom is None:
            return 0, 0
        return top, bottom - top

    @staticmethod
    def _space(font: pygame.freetype.Font, run: str, size: int) -> int:
        metrics = font.get_metrics(run, size=size)
        return int(sum(m[4] for m in metrics if m is not None))

    def render(self, text: str, size: int, color: Color, bold: bool = False) -> pygame.Surface:
        """One line of antialiased text; runs from different fonts share one baseline."""
        key = (text, size, bold, color)
        cached = self._rendered.get(key)
        if cached is not None:
            return cached
        runs = self.runs(text, bold)
        ascent = self.ascent(size, bold)
        height = self.line_height(size, bold)
        width, _ = self.measure(text, size, bold)
        surface = pygame.Surface((max(1, width), max(1, height)), pygame.SRCALPHA)
        x = 0
        for font, run in runs:
            if run.strip():
                rect = font.get_rect(run, size=size)
                # A CJK run's ink starts where its first box puts it (an opening "（" is indented).
                left = rect.x if self._in_em_boxes(font) else 0
                font.render_to(surface, (x + left, ascent - rect.y), run, fgcolor=color, size=size)
            x += self._width(font, run, size)
        return self._rendered.put(key, surface)
