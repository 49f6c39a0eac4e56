"""The drawing layer: everything a screen draws goes through a ``Canvas``.

Besides drawing on a pygame surface, the canvas keeps a record of every text it drew and
where (``Canvas.drawn``), and of the touch targets the screen laid out (``Canvas.targets``).
Tests read the record to check the facts a screen shows (the active player's name is in the
upkeep banner) rather than pixels alone; the kiosk uses the targets to turn a touch into an
action.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Literal

import pygame

from display.fonts import Color, Fonts
from display.layout import Layout

Anchor = Literal["topleft", "midtop", "topright", "midleft", "center", "midright", "bottomleft", "midbottom", "bottomright"]
Rect = tuple[int, int, int, int]


@dataclass(frozen=True)
class Drawn:
    """One text as drawn: what it said, where, how big, and the part of the screen it is in.
    ``cut`` says the text did not fit and lost its end (an ellipsis, or a paragraph's last
    lines); ``wanted`` is the size asked for, so a text shrunk to fit shows as ``size < wanted``."""

    text: str
    rect: Rect
    size: int
    role: str
    cut: bool = False
    wanted: int = 0


@dataclass(frozen=True)
class Target:
    rect: Rect
    action: Hashable


@dataclass
class Canvas:
    surface: pygame.Surface
    fonts: Fonts
    layout: Layout
    drawn: list[Drawn] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)

    @property
    def width(self) -> int:
        return int(self.surface.get_width())

    @property
    def height(self) -> int:
        return int(self.surface.get_height())

    def clear(self, color: Color) -> None:
        self.drawn.clear()
        self.targets.clear()
        self.surface.fill(color)

    def box(self, rect: Rect, color: Color, *, width: int = 0, radius: int | None = None) -> None:
        pygame.draw.rect(self.surface, color, pygame.Rect(rect), width, self.layout.radius if radius is None else radius)

    def line(self, start: tuple[int, int], end: tuple[int, int], color: Color, width: int = 1) -> None:
        pygame.draw.line(self.surface, color, start, end, width)

    def polygon(self, points: list[tuple[float, float]], color: Color, width: int = 0) -> None:
        pygame.draw.polygon(self.surface, color, points, width)

    def circle(self, center: tuple[int, int], radius: int, color: Color, width: int = 0) -> None:
        pygame.draw.circle(self.surface, color, center, radius, width)

    def target(self, rect: Rect, action: Hashable) -> None:
        """Make ``rect`` a touch target for ``action`` (later targets win where they overlap)."""
        self.targets.append(Target(rect, action))

    def hit(self, pos: tuple[int, int]) -> Hashable | None:
        for target in reversed(self.targets):
            if pygame.Rect(target.rect).collidepoint(pos):
                return target.action
        return None

    def fit(self, text: str, size: int, max_width: int | None, *, bold: bool = False, min_size: int | None = None) -> tuple[str, int]:
        """The text and size that fit ``max_width``: smaller type first, then an ellipsis (a
        cut text: the returned text is not ``text``)."""
        if max_width is None:
            return text, size
        floor = min_size if min_size is not None else max(self.layout.tiny, size * 3 // 5)
        current = size
        while current > floor and self.fonts.measure(text, current, bold)[0] > max_width:
            current = max(floor, current * 9 // 10)
        if self.fonts.measure(text, current, bold)[0] <= max_width:
            return text, current
        # The longest start that fits with its ellipsis, found by halving: a long status line
        # would otherwise be measured once per character it loses, every frame.
        low, high = 0, len(text) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.fonts.measure(text[:middle] + "…", current, bold)[0] <= max_width:
                low = middle
            else:
                high = middle - 1
        cut = text[:low]
        return (cut.rstrip() + "…") if cut else "", current

    def text(
        self,
        text: str,
        at: tuple[int, int],
        size: int,
        color: Color,
        *,
        anchor: Anchor = "topleft",
        bold: bool = False,
        max_width: int | None = None,
        role: str = "",
        min_size: int | None = None,
    ) -> pygame.Rect:
        """Draw one line; shrinks (then ellipsises) to ``max_width``.  Returns where it went."""
        shown, used = self.fit(text, size, max_width, bold=bold, min_size=min_size)
        image = self.fonts.render(shown, used, color, bold)
        rect = image.get_rect(**{anchor: at})
        self.surface.blit(image, rect)
        self.drawn.append(Drawn(shown, (rect.x, rect.y, rect.width, rect.height), used, role, cut=shown != text,
                                wanted=size))
        return rect

    def wrap(self, text: str, size: int, width: int, *, bold: bool = False) -> list[str]:
        """Lines of ``text`` that fit ``width``: breaks at spaces, and in CJK text also between
        any two characters (but not before closing punctuation)."""
        lines: list[str] = []
        for paragraph in text.split("\n"):
            current = ""
            for joiner, word in _breaks(paragraph):
                candidate = f"{current}{joiner}{word}" if current else word
                if self.fonts.measure(candidate, size, bold)[0] <= width or not current:
                    current = candidate
                else:
                    lines.append(current)
                    current = word
            lines.append(current)
        return lines

    def paragraph(
        self, text: str, rect: Rect, size: int, color: Color, *, role: str = "", bold: bool = False, min_size: int | None = None
    ) -> int:
        """Wrapped text in ``rect``, shrinking the type until it fits; returns the height used."""
        x, y, w, h = rect
        floor = min_size or self.layout.tiny
        current = size
        while True:
            lines = self.wrap(text, current, w, bold=bold)
            step = self.fonts.line_height(current, bold)
            if len(lines) * step <= h or current <= floor:
                break
            current = max(floor, current * 9 // 10)
        top = y
        fits = max(1, h // step) if lines else 0
        shown = lines[:fits]
        for index, line in enumerate(shown):
            if index == len(shown) - 1 and len(lines) > fits:
                # The rest does not fit: end the last line that does with an ellipsis, recorded as cut.
                self.text(line + " " + " ".join(lines[fits:]), (x, y), current, color, role=role, bold=bold, max_width=w,
                          min_size=current)
            else:
                self.text(line, (x, y), current, color, role=role, bold=bold, max_width=w, min_size=current)
            y += step
        return y - top


def _cjk(text: str) -> bool:
    return any(ord(ch) >= 0x3000 for ch in text)


#: Characters a CJK line may not start with: they stay with what they close or follow.
_NO_BREAK_BEFORE = frozenset("、。，．・：；？！）」』】〕〉》ー々ゝゞぁぃぅぇぉっゃゅょァィゥェォッャュョ)]},.:;!?")


def _breaks(paragraph: str) -> list[tuple[str, str]]:
    """The pieces a line may break between, each with what joins it to the one before: words
    between spaces (joined by a space), and in CJK text each character (joined by nothing)."""
    if not _cjk(paragraph):
        if " " not in paragraph:
            return [("", paragraph)]
        return [(" ", word) for word in paragraph.split(" ")]
    pieces: list[tuple[str, str]] = []
    joiner = ""
    for char in paragraph:
        if char == " ":
            joiner = " "
            continue
        glued = bool(pieces) and not joiner and (
            char in _NO_BREAK_BEFORE or (not _cjk(char) and not _cjk(pieces[-1][1][-1]))
        )
        if glued:
            pieces[-1] = (pieces[-1][0], pieces[-1][1] + char)
        else:
            pieces.append((joiner, char))
        joiner = ""
    return pieces
