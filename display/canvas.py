"""The drawing layer: everything a screen draws goes through a ``Canvas``.

Besides drawing on a pygame surface, the canvas keeps a record of every text it drew and
where (``Canvas.drawn``), of the pictures it placed (``Canvas.pictures``), of the symbols that
carry a meaning without a word (``Canvas.shapes``: the monarch's crown on a seat), and of the
touch targets the screen laid out (``Canvas.targets``).  Tests read the record to check the facts a
screen shows (the active player's name is in the upkeep banner) rather than pixels alone; the
kiosk uses the targets to turn a touch into an action.

A frame drawn in ``Canvas.frame`` is first written down, each drawing call as a value, then
compared with the frame the surface shows: only the parts whose calls changed are drawn again
(a press that changes one seat's life total redraws that seat and the status line, not the
table).  Outside a frame each call draws at once.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import re
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Literal

from msgspec import Struct, field
from msgspec.structs import replace
import pygame

from display import symbols
from display.fonts import MEASURED_LIMIT, Color, Fonts, Lru
from display.layout import Layout

Anchor = Literal[
    "topleft",
    "midtop",
    "topright",
    "midleft",
    "center",
    "midright",
    "bottomleft",
    "midbottom",
    "bottomright",
]
Rect = tuple[int, int, int, int]

#: How many choices of wrapping and shrink-to-fit a canvas keeps (each a few small strings).
LAID_OUT_LIMIT = 4096
#: How many card symbols a canvas keeps drawn (a symbol at a size, in a colour).
SYMBOLS_LIMIT = 256
#: The size a piece of text is measured at to guess, for every size, how much of it fits a line.
_GUESS_SIZE = 48
#: What a card symbol is in the text recorded in ``Canvas.drawn``.
SYMBOL_MARK = "\ufffc"
#: More changed places than this in a frame are drawn again as one area around them all.
_AREAS_LIMIT = 24

#: Tests set this: a part is always drawn, and drawing otherwise than the last frame's part under
#: the same key fails (a key that leaves out something the drawing depends on).
CHECK_PARTS = False

#: A drawing call as a value: ``(kind, bounds, *arguments)``, ``bounds`` the rectangle no pixel
#: it draws is outside of.  Two equal calls draw the same pixels on the same pixels below.
Op = tuple[Any, ...]
_FILL, _ROUNDED, _SQUARE, _LINE, _POLYGON, _CIRCLE, _BLIT, _TURNED = range(8)
#: A part of a frame (``Canvas.part``): its calls, texts, touch targets, pictures and symbols.
_Part = tuple[
    tuple[Op, ...],
    tuple["Drawn", ...],
    tuple["Target", ...],
    tuple["Placed", ...],
    tuple["Placed", ...],
]


class Drawn(Struct, frozen=True):
    """One text as drawn: what it said, where, how big, and the part of the screen it is in.
    ``cut`` says the text did not fit and lost its end (an ellipsis, or a paragraph's last
    lines); ``wanted`` is the size asked for, so a text shrunk to fit shows as ``size < wanted``.
    ``joiner`` is set on the second and later lines of a wrapped text: what joins the line to the
    one before it (a space, nothing in CJK text, a line break), so a reader can put the whole text
    back together; None on a text's first line.  A card symbol drawn in the text is
    ``SYMBOL_MARK`` in ``text``; ``symbols`` has their notations in order ("T", "G"), and
    ``Canvas.shapes`` what they mean and where."""

    text: str
    rect: Rect
    size: int
    role: str
    cut: bool = False
    wanted: int = 0
    joiner: str | None = None
    symbols: tuple[str, ...] = ()

    @property
    def written(self) -> str:
        """The text as it was written: its card symbols in their notation ("{T}: Add {G}.")."""
        if not self.symbols:
            return self.text
        notations = iter(self.symbols)
        return "".join(f"{{{next(notations)}}}" if ch == SYMBOL_MARK else ch for ch in self.text)


class Placed(Struct, frozen=True):
    """A picture as drawn: whose (a card's name) and where; or a symbol, by what it means."""

    name: str
    rect: Rect
    role: str


class Target(Struct, frozen=True):
    """A touch target: ``action`` when touched; ``held``, if any, when the touch stays down for
    the kiosk's hold time (a seat's half: ±1 touched, ±10 held)."""

    rect: Rect
    action: Hashable
    held: Hashable | None = None


class Canvas(Struct):
    surface: pygame.Surface
    fonts: Fonts
    layout: Layout
    drawn: list[Drawn] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    pictures: list[Placed] = field(default_factory=list)
    shapes: list[Placed] = field(default_factory=list)
    # Where a text's lines break and what size fits it depend only on the text, the room, the
    # sizes allowed and the fonts (fixed for a canvas): decided once, not every frame.
    _fitted: Lru[tuple[str, int, int, bool, int], tuple[str, int]] = field(
        default_factory=lambda: Lru(LAID_OUT_LIMIT)
    )
    _wrapped: Lru[tuple[str, int, int, bool], tuple[str, ...]] = field(
        default_factory=lambda: Lru(LAID_OUT_LIMIT)
    )
    _paragraph_sizes: Lru[tuple[str, int, int, int, int, bool], tuple[int | None]] = field(
        default_factory=lambda: Lru(LAID_OUT_LIMIT)
    )
    #: What a screen decided about laying out its parts with these fonts (a seat tile's plan),
    #: under a key that holds everything the decision depends on.
    planned: Lru[Hashable, Any] = field(default_factory=lambda: Lru(LAID_OUT_LIMIT // 8))
    _coded_widths: Lru[tuple[str, int, bool], int] = field(
        default_factory=lambda: Lru(MEASURED_LIMIT)
    )
    _piece_widths: Lru[tuple[str, bool], tuple[float, ...]] = field(
        default_factory=lambda: Lru(LAID_OUT_LIMIT // 8)
    )
    _advances: dict[bool, dict[str, float]] = field(
        default_factory=lambda: {False: {}, True: {}}
    )  # at _GUESS_SIZE
    _symbols: Lru[tuple[str, int, Color], pygame.Surface] = field(
        default_factory=lambda: Lru(SYMBOLS_LIMIT)
    )
    _symbol_sizes: dict[tuple[int, bool], tuple[int, int, int]] = field(default_factory=dict)
    # The calls of the frame being drawn (``frame``, or a turned part's), else None: drawn at once.
    _ops: list[Op] | None = None
    # The size drawn in while a turned part is written down (``turned``), else None: the surface's.
    _room: tuple[int, int] | None = None
    # What ``_shown_on`` shows: the calls of the last frame drawn on it.
    _shown: list[Op] = field(default_factory=list)
    _shown_on: pygame.Surface | None = None
    _shown_size: tuple[int, int] = (0, 0)
    # The parts drawn in the last frame (``part``) by their keys, and those of the frame being drawn.
    _parts: dict[Hashable, _Part] = field(default_factory=dict)
    _parts_next: dict[Hashable, _Part] = field(default_factory=dict)
    _checked: dict[Hashable, Any] = field(
        default_factory=dict
    )  # every part drawn, with CHECK_PARTS

    @property
    def width(self) -> int:
        return self._room[0] if self._room is not None else int(self.surface.get_width())

    @property
    def height(self) -> int:
        return self._room[1] if self._room is not None else int(self.surface.get_height())

    def clear(self, color: Color) -> None:
        self.drawn.clear()
        self.targets.clear()
        self.pictures.clear()
        self.shapes.clear()
        self.fonts.shown_missing.clear()
        if self._ops is not None:
            self._ops.clear()  # all of it is covered: nothing before this shows
        self._draw((_FILL, (0, 0, self.width, self.height), color))

    @contextlib.contextmanager
    def frame(self) -> Iterator[None]:
        """Draw a frame that starts with ``clear``: its calls are written down, and at the end
        only what differs from the frame the surface shows is drawn again, clipped to the places
        that changed.  A frame that raises draws nothing; the surface keeps the last one."""
        if self._ops is not None:
            yield
            return
        ops: list[Op] = []
        self._ops = ops
        try:
            yield
        finally:
            self._ops = None
            self._parts, self._parts_next = self._parts_next, {}
        self._show(ops)

    def forget(self) -> None:
        """The surface's pixels are no longer the last frame's (a window uncovered): the next
        frame draws all of it."""
        self._shown_on = None

    def replay(self, key: Hashable) -> bool:
        """Put in this frame the part the last frame drew under ``key`` (see ``part``): its
        drawing, texts, pictures, symbols and touch targets, as drawing it again would.  False
        where there is none (or outside a frame): then draw it, in ``part``."""
        if self._ops is None or self._room is not None or CHECK_PARTS:
            return False
        found = self._parts.get(key)
        if found is None:
            return False
        ops, drawn, targets, pictures, shapes = found
        self._ops += ops
        self.drawn += drawn
        self.targets += targets
        self.pictures += pictures
        self.shapes += shapes
        self._parts_next[key] = found
        return True

    @contextlib.contextmanager
    def part(self, key: Hashable) -> Iterator[None]:
        """Draw a part of the frame that the next frame may ``replay`` instead of drawing: its
        ``key`` holds everything its drawing depends on besides this canvas's fonts and layout
        (a seat's name, total, badges, size and place).  A part that lacks a character in every
        font is not kept (its notice depends on the whole frame)."""
        if self._ops is None or self._room is not None:
            yield
            return
        lists = (self._ops, self.drawn, self.targets, self.pictures, self.shapes)
        marks = [len(items) for items in lists]
        missing = len(self.fonts.shown_missing)
        yield
        if missing or self.fonts.shown_missing:
            return
        drawn = tuple(tuple(items[mark:]) for items, mark in zip(lists, marks, strict=True))
        if CHECK_PARTS:
            # Against every part drawn under the key on this canvas, not the last frame's only.
            seen = self._checked.setdefault(key, drawn)
            if seen != drawn and _comparable(seen) != _comparable(drawn):
                raise AssertionError(f"a part drew otherwise under the same key: {key!r}")
        self._parts_next[key] = drawn  # type: ignore[assignment]

    def _draw(self, op: Op) -> None:
        if self._ops is not None:
            self._ops.append(op)
        else:
            _execute(self.surface, op)

    def _show(self, ops: list[Op]) -> None:
        surface = self.surface
        whole = pygame.Rect(0, 0, *surface.get_size())
        old = self._shown if self._shown_on is surface and self._shown_size == whole.size else None
        if old is None or not ops or ops[0][0] != _FILL or ops[0][1] != tuple(whole):
            areas = [whole]  # nothing to compare with, or a frame that does not cover the surface
        else:
            areas = _areas(_changed(old, ops), whole)
        if areas:
            bounds = [op[1] for op in ops]
            for area in areas:
                surface.set_clip(area)
                for index in area.collidelistall(bounds):
                    _execute(surface, ops[index])
            surface.set_clip(None)
        self._shown, self._shown_on, self._shown_size = ops, surface, whole.size

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """Draw on a picture of its own that nobody sees, then put everything back: the screen's
        picture, the record of what it shows (texts, pictures, symbols, touch targets) and the
        characters it lacks.  What is learnt meanwhile (where lines break, what size fits, texts
        drawn) is kept, so a frame drawn aside makes a later real one of the same texts quick."""
        screen = self.surface
        kept = (self.drawn, self.targets, self.pictures, self.shapes, set(self.fonts.shown_missing))
        shown = (self._shown, self._shown_on, self._shown_size, self._parts)
        self.surface = pygame.Surface(screen.get_size(), 0, screen)
        self.drawn, self.targets, self.pictures, self.shapes = [], [], [], []
        try:
            yield
        finally:
            self.surface = screen
            self._shown, self._shown_on, self._shown_size, self._parts = shown
            self.drawn, self.targets, self.pictures, self.shapes, missing = kept
            self.fonts.shown_missing.clear()
            self.fonts.shown_missing.update(missing)

    def box(self, rect: Rect, color: Color, *, width: int = 0, radius: int | None = None) -> None:
        radius = self.layout.radius if radius is None else radius
        rect = tuple(rect)  # type: ignore[assignment]
        if radius <= 0 and width == 0 and rect[0] == 0 and rect[2] == self.width:
            self._draw((_FILL, rect, color))  # whole rows: one stretch of memory
        elif radius <= 0:
            self._draw((_SQUARE, rect, color, width))
        else:
            self._draw((_ROUNDED, rect, color, width, radius))

    def line(
        self, start: tuple[int, int], end: tuple[int, int], color: Color, width: int = 1
    ) -> None:
        start, end = tuple(start), tuple(end)  # type: ignore[assignment]
        self._draw((_LINE, _around((start, end), width), color, start, end, width))

    def polygon(self, points: list[tuple[float, float]], color: Color, width: int = 0) -> None:
        corners = tuple(tuple(point) for point in points)
        self._draw((_POLYGON, _around(corners, width), color, corners, width))

    def circle(self, center: tuple[int, int], radius: int, color: Color, width: int = 0) -> None:
        center = tuple(center)  # type: ignore[assignment]
        x, y = center
        self._draw(
            (
                _CIRCLE,
                _around(((x - radius, y - radius), (x + radius, y + radius)), 1),
                color,
                center,
                radius,
                width,
            )
        )

    def blit(self, image: pygame.Surface, at: tuple[int, int], flags: int = 0) -> None:
        """Put ``image`` (one that is not changed afterwards) with its top left corner at ``at``."""
        self._draw(
            (_BLIT, (int(at[0]), int(at[1]), image.get_width(), image.get_height()), image, flags)
        )

    def picture(self, image: pygame.Surface, at: tuple[int, int], name: str, role: str) -> None:
        """Blit a picture (a card's, already its size) with its top left corner at ``at``."""
        self.blit(image, at)
        self.pictures.append(
            Placed(name, (at[0], at[1], image.get_width(), image.get_height()), role)
        )

    def shape(self, meaning: str, rect: Rect, role: str) -> None:
        """Record that a symbol meaning ``meaning`` (drawn with the shapes above) is at ``rect``."""
        self.shapes.append(Placed(meaning, rect, role))

    def target(self, rect: Rect, action: Hashable, *, held: Hashable | None = None) -> None:
        """Make ``rect`` a touch target for ``action``, and for ``held`` when the touch is held
        (later targets win where they overlap)."""
        self.targets.append(Target(rect, action, held))

    def touched(self, pos: tuple[int, int]) -> Target | None:
        """The target a touch at ``pos`` is on, if any."""
        for target in reversed(self.targets):
            if pygame.Rect(target.rect).collidepoint(pos):
                return target
        return None

    def hit(self, pos: tuple[int, int]) -> Hashable | None:
        target = self.touched(pos)
        return target.action if target is not None else None

    @contextlib.contextmanager
    def turned(self, rect: Rect, degrees: int, behind: Color) -> Iterator[Rect]:
        """Draw in ``rect`` turned clockwise by ``degrees`` (0, 90, 180, 270): a seat tile that
        faces a player across the table.  Yields the rectangle to draw in, in a picture of its
        own (width and height swapped for a quarter turn) that starts filled with ``behind``;
        the picture is then turned onto the screen, and what was recorded meanwhile (texts,
        pictures, symbols, touch targets) is moved to where it shows, so a touch on the turned
        tile finds its own target."""
        turn = degrees % 360
        if turn == 0:
            yield rect
            return
        x, y, w, h = rect
        quarter = turn in (90, 270)
        own = (h, w) if quarter else (w, h)
        outer, room = self._ops, self._room
        self._ops, self._room = [], own
        marks = (len(self.drawn), len(self.pictures), len(self.shapes), len(self.targets))
        try:
            yield (0, 0, *own)
            inside = tuple(self._ops)
        finally:
            self._ops, self._room = outer, room
        self._draw((_TURNED, tuple(rect), turn, tuple(behind), own, inside))

        def moved(r: Rect) -> Rect:
            u, v, rw, rh = r
            lw, lh = own
            if turn == 90:
                u, v, rw, rh = lh - v - rh, u, rh, rw
            elif turn == 180:
                u, v = lw - u - rw, lh - v - rh
            else:
                u, v, rw, rh = v, lw - u - rw, rh, rw
            return (x + u, y + v, rw, rh)

        first_drawn, first_picture, first_shape, first_target = marks
        self.drawn[first_drawn:] = [
            replace(d, rect=moved(d.rect)) for d in self.drawn[first_drawn:]
        ]
        self.pictures[first_picture:] = [
            replace(p, rect=moved(p.rect)) for p in self.pictures[first_picture:]
        ]
        self.shapes[first_shape:] = [
            replace(p, rect=moved(p.rect)) for p in self.shapes[first_shape:]
        ]
        self.targets[first_target:] = [
            replace(t, rect=moved(t.rect)) for t in self.targets[first_target:]
        ]

    def fit(
        self,
        text: str,
        size: int,
        max_width: int | None,
        *,
        bold: bool = False,
        min_size: int | None = None,
    ) -> tuple[str, int]:
        """The text and size that fit ``max_width``: smaller type first, then an ellipsis (a
        cut text: the returned text is not ``text``)."""
        if max_width is None:
            return text, size
        floor = min_size if min_size is not None else max(self.layout.tiny, size * 3 // 5)
        key = (text, size, max_width, bold, floor)
        found = self._fitted.get(key)
        if found is None:
            found = self._fitted.put(key, self._fit(text, size, max_width, bold, floor))
        return found

    def _fit(self, text: str, size: int, max_width: int, bold: bool, floor: int) -> tuple[str, int]:
        coded = encode(text)
        measure = self.fonts.measure if coded is text else self._measure_coded
        current = size
        while current > floor and measure(coded, current, bold)[0] > max_width:
            current = max(floor, current * 9 // 10)
        if measure(coded, current, bold)[0] <= max_width:
            return text, current
        # The longest start that fits with its ellipsis, found by halving: a long status line
        # would otherwise be measured once per character it loses, every frame.
        low, high = 0, len(coded) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if measure(coded[:middle] + "…", current, bold)[0] <= max_width:
                low = middle
            else:
                high = middle - 1
        cut = coded[:low].rstrip() + "…" if low else ""
        return (cut if coded is text else decode(cut)), current

    def measure(self, text: str, size: int, *, bold: bool = False) -> int:
        """How wide ``text`` is drawn at ``size``, card symbols included."""
        coded = encode(text)
        return (self.fonts.measure if coded is text else self._measure_coded)(coded, size, bold)[0]

    def _measure_coded(self, coded: str, size: int, bold: bool = False) -> tuple[int, int]:
        """:meth:`Fonts.measure` of a text with card symbols in it (as :func:`encode` writes them):
        its pieces of text and its symbols, as :meth:`_draw_coded` puts them side by side."""
        key = (coded, size, bold)
        found = self._coded_widths.get(key)
        if found is None:
            width = 0
            advance = self._symbol_size(size, bold)[1]
            for part in _SYMBOL_CHAR.split(coded):
                if part in _TOKENS:
                    width += advance
                elif part:
                    width += self.fonts.measure(part, size, bold)[0]
            found = self._coded_widths.put(key, width)
        return found, self.fonts.line_height(size, bold)

    def _symbol_size(self, size: int, bold: bool) -> tuple[int, int, int]:
        """A card symbol's size in text at ``size``: its diameter (a little over the capitals'
        height), the room it takes in the line, and its middle's height from the line's top (the
        capitals' middle)."""
        key = (size, bold)
        found = self._symbol_sizes.get(key)
        if found is None:
            top, height = self.fonts.ink("H", size, bold)
            diameter = max(5, round(height * 1.12))
            found = self._symbol_sizes[key] = (
                diameter,
                diameter + max(1, round(size * 0.1)),
                round(top + height / 2),
            )
        return found

    def _symbol_image(self, token: str, diameter: int, color: Color) -> pygame.Surface:
        """The card symbol ``{token}`` ``diameter`` pixels across, with premultiplied alpha: drawn
        four times as large and scaled down, so its edges are smooth."""
        key = (token, diameter, color)
        found = self._symbols.get(key)
        if found is None:
            big = diameter * 4
            sketch = Canvas(pygame.Surface((big, big), pygame.SRCALPHA), self.fonts, self.layout)
            symbols.card_symbol(sketch, token, (big / 2, big / 2), big, color)
            scaled = pygame.transform.smoothscale(
                sketch.surface.premul_alpha(), (diameter, diameter)
            )
            found = self._symbols.put(key, scaled)
        return found

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
        joiner: str | None = None,
        ink: bool = False,
    ) -> pygame.Rect:
        """Draw one line; shrinks (then ellipsises) to ``max_width``.  Returns where it went.
        ``joiner``: this line continues the text drawn before it in ``role`` (see ``Drawn``).
        ``ink``: what is recorded and returned is where the ink is, not the whole line: a life
        total fills its tile with its digits, and the line's empty top and foot (transparent)
        may reach over the name above it."""
        shown, used = self.fit(text, size, max_width, bold=bold, min_size=min_size)
        coded = encode(shown)
        notations: tuple[str, ...] = ()
        if coded is shown:
            image = self.fonts.render(shown, used, color, bold)
            self.fonts.check(shown, bold)
            rect = image.get_rect(**{anchor: at})
            self.blit(image, rect.topleft)
            plain = recorded = shown
        else:
            rect, plain = self._draw_coded(coded, at, used, color, anchor, bold, role)
            recorded = _SYMBOL_CHAR.sub(
                lambda m: SYMBOL_MARK if m.group() in _TOKENS else m.group(), coded
            )
            notations = tuple(_TOKENS[ch] for ch in coded if ch in _TOKENS)
        if ink:
            top, height = self.fonts.ink(plain, used, bold)
            rect = pygame.Rect(rect.x, rect.y + top, rect.width, height)
        self.drawn.append(
            Drawn(
                recorded,
                (rect.x, rect.y, rect.width, rect.height),
                used,
                role,
                cut=shown != text,
                wanted=size,
                joiner=joiner,
                symbols=notations,
            )
        )
        return rect

    def _draw_coded(
        self,
        coded: str,
        at: tuple[int, int],
        size: int,
        color: Color,
        anchor: Anchor,
        bold: bool,
        role: str,
    ) -> tuple[pygame.Rect, str]:
        """One line with card symbols in it (as :func:`encode` writes them): its text in pieces,
        each symbol on the capitals' middle; returns where the line went and its text without
        the symbols."""
        width, height = self._measure_coded(coded, size, bold)
        rect = pygame.Rect(0, 0, max(1, width), height)
        setattr(rect, anchor, at)
        diameter, advance, middle = self._symbol_size(size, bold)
        x = rect.x
        plain = []
        for part in _SYMBOL_CHAR.split(coded):
            token = _TOKENS.get(part)
            if token is not None:
                left, top = x + (advance - diameter) // 2, rect.y + middle - diameter // 2
                self.blit(
                    self._symbol_image(token, diameter, color),
                    (left, top),
                    pygame.BLEND_PREMULTIPLIED,
                )
                self.shape(
                    symbols.card_meaning(token) or token, (left, top, diameter, diameter), role
                )
                x += advance
            elif part:
                self.fonts.check(part, bold)
                self.blit(self.fonts.render(part, size, color, bold), (x, rect.y))
                x += self.fonts.measure(part, size, bold)[0]
                plain.append(part)
        return rect, "".join(plain)

    def wrap(self, text: str, size: int, width: int, *, bold: bool = False) -> list[str]:
        """Lines of ``text`` that fit ``width``: breaks at spaces, and between any two CJK
        characters (never before a closing mark such as 、 or 。)."""
        key = (text, size, width, bold)
        found = self._wrapped.get(key)
        if found is None:
            found = self._wrapped.put(key, tuple(self._wrap(text, size, width, bold)))
        return list(found)

    def _wrap(self, text: str, size: int, width: int, bold: bool) -> list[str]:
        coded = encode(text)
        if coded is not text:
            return [
                decode(line)
                for line in self._wrap_coded(coded, size, width, bold, self._measure_coded)
            ]
        return self._wrap_coded(text, size, width, bold, self.fonts.measure)

    def _wrap_coded(
        self,
        text: str,
        size: int,
        width: int,
        bold: bool,
        measure: Callable[[str, int, bool], tuple[int, int]],
    ) -> list[str]:
        """Each line takes as many pieces as fit, the first piece that does not fit starts the
        next line, and a piece wider than a line breaks into its parts.  How many fit is guessed
        from the pieces' widths (measured once, at one size, for every size and width) and then
        settled by measuring the line with them and with one more, so a paragraph costs a few
        measurements a line, not one a piece on an ever longer line."""
        lines: list[str] = []
        for paragraph in text.split("\n"):
            start = len(lines)
            current = ""
            pieces = list(_phrases(paragraph))
            guesses = list(self._guesses(paragraph, bold))
            at = 0
            while at < len(pieces):
                if current:
                    taken = self._fitting(current, pieces, guesses, at, size, width, bold, measure)
                    if taken:
                        current += "".join(
                            joiner + token for joiner, token in pieces[at : at + taken]
                        )
                        at += taken
                        continue
                # The piece starts a line: one wider than a line breaks into script runs, then
                # characters (a Japanese phrase; a word without them stays whole).
                joiner, token = pieces[at]
                parts = (
                    _words(token)
                    if len(token) > 1 and measure(token, size, bold)[0] > width
                    else []
                )
                if len(parts) == 1:
                    parts = _tokens(token)
                if len(parts) > 1:
                    parts[0] = (joiner, parts[0][1])
                    pieces[at : at + 1] = parts
                    guesses[at : at + 1] = [self._guess(j + t, bold) for j, t in parts]
                    continue
                if current:
                    lines.append(current)
                current = token
                at += 1
            lines.append(current)
            if len(lines) - start >= 2:
                lines[-2:] = _no_orphan(lines[-2], lines[-1])
        return lines

    def _guesses(self, paragraph: str, bold: bool) -> tuple[float, ...]:
        """About how wide each of the paragraph's pieces is with what joins it, at
        ``_GUESS_SIZE``: the sum of its characters' advances (kerning and ink left out)."""
        key = (paragraph, bold)
        found = self._piece_widths.get(key)
        if found is None:
            found = self._piece_widths.put(
                key, tuple(self._guess(j + t, bold) for j, t in _phrases(paragraph))
            )
        return found

    def _guess(self, piece: str, bold: bool) -> float:
        advances = self._advances[bold]
        width = 0.0
        for char in piece:
            advance = advances.get(char)
            if advance is None:
                if char in _TOKENS:
                    advance = self._symbol_size(_GUESS_SIZE, bold)[1]
                else:
                    advance = self.fonts.advance(char, _GUESS_SIZE, bold)
                advances[char] = advance
            width += advance
        return width

    def _fitting(
        self,
        line: str,
        pieces: list[tuple[str, str]],
        guesses: list[float],
        at: int,
        size: int,
        width: int,
        bold: bool,
        measure: Callable[[str, int, bool], tuple[int, int]],
    ) -> int:
        """How many of ``pieces`` from ``at`` on fit after ``line`` within ``width``: the most
        that do (a line's width only grows as pieces join it)."""

        def fits(count: int) -> bool:
            added = "".join(joiner + token for joiner, token in pieces[at : at + count])
            return measure(line + added, size, bold)[0] <= width

        room = (width - measure(line, size, bold)[0]) * _GUESS_SIZE / size
        count = 0
        for guess in itertools.islice(guesses, at, None):
            room -= guess
            if room < 0:
                break
            count += 1
        if count and not fits(count):
            count -= 1
            while count and not fits(count):
                count -= 1
            return count
        while at + count < len(pieces) and fits(count + 1):
            count += 1
        return count

    def wrapped(self, text: str, size: int, width: int, *, bold: bool = False) -> list[str] | None:
        """The lines of ``text`` wrapped to ``width`` at ``size``, or None when a word alone is
        wider than ``width`` (it could only be cut)."""
        lines = self.wrap(text, size, width, bold=bold)
        if any(self.measure(line, size, bold=bold) > width for line in lines):
            return None
        return lines

    def fit_paragraph(
        self,
        text: str,
        width: int,
        height: int,
        size: int,
        *,
        min_size: int | None = None,
        bold: bool = False,
    ) -> int | None:
        """The largest size from ``size`` down to ``min_size`` (the layout's ``tiny``) at which
        ``text`` wraps into ``width`` × ``height`` whole, or None if it fits at none."""
        floor = self.layout.tiny if min_size is None else min_size
        key = (text, width, height, size, floor, bold)
        found = self._paragraph_sizes.get(key)
        if found is None:
            found = self._paragraph_sizes.put(
                key, (self._fit_paragraph(text, width, height, size, floor, bold),)
            )
        return found[0]

    def _fit_paragraph(
        self, text: str, width: int, height: int, size: int, floor: int, bold: bool
    ) -> int | None:
        def fits(current: int) -> bool:
            lines = self.wrapped(text, current, width, bold=bold)
            return (
                lines is not None and len(lines) * self.fonts.line_height(current, bold) <= height
            )

        return _largest(fits, floor, size, self._size_guess(text, width, height, size, bold))

    def _size_guess(self, text: str, width: int, height: int, size: int, bold: bool) -> int:
        """The size at which ``text`` would about fill ``width`` × ``height``: its lines' total
        length and their height both grow with the size."""
        length = sum(sum(self._guesses(p, bold)) for p in encode(text).split("\n"))
        line = self.fonts.line_height(_GUESS_SIZE, bold)
        # At size s: about length·s/G / width lines (and a ragged edge), each line·s/G high.
        room = width * height * _GUESS_SIZE * _GUESS_SIZE / (1.15 * length * line + 1)
        return min(size, int(room**0.5))

    def paragraph(
        self,
        text: str,
        rect: Rect,
        size: int,
        color: Color,
        *,
        role: str = "",
        bold: bool = False,
        min_size: int | None = None,
        align: Literal["left", "center"] = "left",
    ) -> int:
        """Wrapped text in ``rect``, shrinking the type until it fits; returns the height used.
        What still does not fit at ``min_size`` ends in an ellipsis (recorded as cut)."""
        x, y, w, h = rect
        floor = min_size or self.layout.tiny
        current = size
        while True:
            lines = self.wrap(text, current, w, bold=bold)
            step = self.fonts.line_height(current, bold)
            if len(lines) * step <= h or current <= floor:
                break
            current = max(floor, current * 9 // 10)
        glue = joiners(text, lines)
        top = y
        fits = max(1, h // step) if lines else 0
        shown = lines[:fits]
        anchor: Anchor = "midtop" if align == "center" else "topleft"
        at_x = x + w // 2 if align == "center" else x
        for index, line in enumerate(shown):
            joiner = glue[index]
            if index == len(shown) - 1 and len(lines) > fits:
                # The rest does not fit: end the last line that does with an ellipsis, recorded as cut.
                rest = line + "".join(
                    (j or "") + part for j, part in zip(glue[fits:], lines[fits:], strict=True)
                )
                self.text(
                    rest,
                    (at_x, y),
                    current,
                    color,
                    role=role,
                    bold=bold,
                    max_width=w,
                    min_size=current,
                    joiner=joiner,
                    anchor=anchor,
                )
            else:
                self.text(
                    line,
                    (at_x, y),
                    current,
                    color,
                    role=role,
                    bold=bold,
                    max_width=w,
                    min_size=current,
                    joiner=joiner,
                    anchor=anchor,
                )
            y += step
        return y - top


#: Card symbols in Scryfall's notation: "{T}", "{G}", "{2/W}", "{CHAOS}".
_NOTATION = re.compile(r"\{([^{}\s]{1,8})\}")
#: Unicode's private use area: where :func:`encode` writes a card symbol as one character.
_PRIVATE_FIRST, _PRIVATE_LAST = 0xE000, 0xF8FF
_SYMBOL_CHAR = re.compile("([\ue000-\uf8ff])")
_CHARS: dict[str, str] = {}  # a symbol's notation (without braces) → its character
_TOKENS: dict[str, str] = {}  # and back


def _execute(surface: pygame.Surface, op: Op) -> None:
    """Draw one call on ``surface``."""
    kind, bounds = op[0], op[1]
    if kind == _FILL:
        area = surface.get_clip().clip(bounds)
        if area.width == surface.get_width():
            surface.fill(op[2], area)  # whole rows: one stretch of memory
        else:
            pygame.draw.rect(surface, op[2], area, 0, 1, 0, 0, 0, 0)  # see _SQUARE
    elif kind == _BLIT:
        surface.blit(op[2], bounds[:2], None, op[3])
    elif kind == _SQUARE:
        # A rounded box whose corners are all square: the same pixels as a plain one, and several
        # times quicker than SDL's fill of part of the rows, row by row.
        pygame.draw.rect(surface, op[2], bounds, op[3], 1, 0, 0, 0, 0)
    elif kind == _ROUNDED:
        pygame.draw.rect(surface, op[2], bounds, op[3], op[4])
    elif kind == _LINE:
        pygame.draw.line(surface, op[2], op[3], op[4], op[5])
    elif kind == _POLYGON:
        pygame.draw.polygon(surface, op[2], op[3], op[4])
    elif kind == _CIRCLE:
        pygame.draw.circle(surface, op[2], op[3], op[4], op[5])
    else:
        # A turned part: its background, then each of its calls turned onto the surface where it
        # shows (a text's picture turned), as drawing it upright and turning the picture would.
        _, _, turn, behind, own, inside = op
        _execute(surface, (_FILL, bounds, behind))
        turning = _Turning(turn, own, bounds)
        for part in inside:
            _execute(surface, turning.op(part))


class _Turning:
    """Where a call drawn upright in a picture of size ``own`` goes once the picture is turned
    clockwise by ``turn`` and put at ``at``'s corner."""

    def __init__(self, turn: int, own: tuple[int, int], at: Rect) -> None:
        self.turn, self.own, self.x, self.y = turn, own, at[0], at[1]

    def rect(self, rect: Rect) -> Rect:
        u, v, w, h = rect
        lw, lh = self.own
        if self.turn == 90:
            u, v, w, h = lh - v - h, u, h, w
        elif self.turn == 180:
            u, v = lw - u - w, lh - v - h
        else:
            u, v, w, h = v, lw - u - w, h, w
        return (self.x + u, self.y + v, w, h)

    def point(self, point: tuple[float, float]) -> tuple[float, float]:
        """A pixel's place (its index, not its corner: a pixel turns onto a pixel)."""
        u, v = point
        lw, lh = self.own
        if self.turn == 90:
            u, v = lh - 1 - v, u
        elif self.turn == 180:
            u, v = lw - 1 - u, lh - 1 - v
        else:
            u, v = v, lw - 1 - u
        return (self.x + u, self.y + v)

    def op(self, op: Op) -> Op:
        kind = op[0]
        if kind in (_FILL, _SQUARE, _ROUNDED):
            return (kind, self.rect(op[1]), *op[2:])
        if kind == _BLIT:
            return (kind, self.rect(op[1]), _turned_image(op[2], self.turn), op[3])
        if kind == _LINE:
            start, end = self.point(op[3]), self.point(op[4])
            return (kind, _around((start, end), op[5]), op[2], start, end, op[5])
        if kind == _POLYGON:
            corners = tuple(self.point(p) for p in op[3])
            return (kind, _around(corners, op[4]), op[2], corners, op[4])
        if kind == _CIRCLE:
            return (kind, self.rect(op[1]), op[2], self.point(op[3]), *op[4:])
        return (kind, self.rect(op[1]), (op[2] + self.turn) % 360, *op[3:])


@functools.lru_cache(maxsize=512)
def _turned_image(image: pygame.Surface, turn: int) -> pygame.Surface:
    """``image`` turned clockwise by ``turn`` degrees (kept: a turned seat's texts are the same
    from frame to frame)."""
    return pygame.transform.rotate(image, -turn)


def _comparable(value: Any) -> Any:
    """``value`` (a part, a call) with each picture in it as its size and pixels: the same text
    drawn again may be a new picture of it."""
    if isinstance(value, pygame.Surface):
        return (value.get_size(), pygame.image.tobytes(value, "RGBA"))
    if isinstance(value, tuple):
        return tuple(_comparable(item) for item in value)
    return value


def _around(points: tuple[tuple[float, float], ...], width: int) -> Rect:
    """A rectangle no pixel of a line ``width`` wide through ``points`` falls outside of."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    reach = max(1, width) + 1
    left, top = math.floor(min(xs)) - reach, math.floor(min(ys)) - reach
    return (left, top, math.ceil(max(xs)) + reach - left + 1, math.ceil(max(ys)) + reach - top + 1)


def _changed(old: list[Op], new: list[Op]) -> list[Rect]:
    """Where the pixels of frame ``new`` may differ from those of ``old``: around every call
    of either that the other does not have in the same order.  The calls both frames begin and
    end with are the same; between them, calls at the same place are paired when there are as
    many on each side, and a pair that differs is changed."""
    count = min(len(old), len(new))
    start = 0
    while start < count and old[start] == new[start]:
        start += 1
    end = 0
    while end < count - start and old[-1 - end] == new[-1 - end]:
        end += 1
    before, after = old[start : len(old) - end], new[start : len(new) - end]
    if len(before) == len(after):
        return [
            bounds for was, now in zip(before, after) if was != now for bounds in (was[1], now[1])
        ]
    # As many calls more or fewer (a line added to a list): each call of the new frame is paired
    # with the next equal one of the old, in order; what is left unpaired on either side changed.
    places: dict[Op, list[int]] = {}
    for index in range(len(before) - 1, -1, -1):
        places.setdefault(before[index], []).append(index)
    changed: list[Rect] = []
    at = 0
    for now in after:
        found = places.get(now)
        while found and found[-1] < at:
            found.pop()
        if not found:
            changed.append(now[1])
            continue
        index = found.pop()
        changed += [op[1] for op in before[at:index]]
        at = index + 1
    changed += [op[1] for op in before[at:]]
    return changed


def _areas(changed: list[Rect], whole: pygame.Rect) -> list[pygame.Rect]:
    """The places to draw again: the changed rectangles on the surface, those that touch joined."""
    areas: list[pygame.Rect] = []
    for bounds in changed:
        area = whole.clip(bounds)
        if not area.width or not area.height:
            continue
        touching = area.collidelist(areas)
        while touching >= 0:
            area.union_ip(areas.pop(touching))
            touching = area.collidelist(areas)
        areas.append(area)
    if len(areas) > _AREAS_LIMIT:
        return [areas[0].unionall(areas[1:])]
    return areas


def encode(text: str) -> str:
    """``text`` with each card symbol it writes in Scryfall's notation as one private-use
    character (the same character for the same symbol); ``text`` itself when it has none.
    A notation that is not a symbol (:func:`display.symbols.card_meaning`) stays as it is, and
    so does a text that has private-use characters of its own (it would not come back whole)."""
    if "{" not in text or _SYMBOL_CHAR.search(text):
        return text
    coded = _NOTATION.sub(_symbol_char, text)
    return text if coded == text else coded


def decode(coded: str) -> str:
    """The text :func:`encode` made ``coded`` from."""
    return _SYMBOL_CHAR.sub(
        lambda m: f"{{{_TOKENS[m.group()]}}}" if m.group() in _TOKENS else m.group(), coded
    )


def _symbol_char(match: re.Match[str]) -> str:
    token = match.group(1)
    found = _CHARS.get(token)
    if found is None:
        if symbols.card_meaning(token) is None or len(_CHARS) > _PRIVATE_LAST - _PRIVATE_FIRST:
            return match.group()
        found = _CHARS[token] = chr(_PRIVATE_FIRST + len(_CHARS))
        _TOKENS[found] = token
    return found


def _largest(fits: Callable[[int], bool], low: int, high: int, guess: int) -> int | None:
    """The largest size from ``low`` to ``high`` that ``fits`` (smaller type takes no more
    room), or None: tried at ``guess`` first, then in steps that double, then by halving."""
    if low > high:
        return None
    guess = max(low, min(high, guess))
    found: int | None = None
    step = 1
    if fits(guess):
        found, low = guess, guess + 1
        while low <= high:
            tried = min(high, found + step)
            if not fits(tried):
                high = tried - 1
                break
            found, low, step = tried, tried + 1, step * 2
    else:
        high = guess - 1
        while low <= high:
            tried = max(low, guess - step)
            if fits(tried):
                found, low = tried, tried + 1
                break
            high, step = tried - 1, step * 2
    while low <= high:
        middle = (low + high + 1) // 2
        if fits(middle):
            found, low = middle, middle + 1
        else:
            high = middle - 1
    return found


def joiners(text: str, lines: list[str]) -> list[str | None]:
    """What joins each wrapped line of ``text`` to the line before it (None for the first)."""
    found: list[str | None] = [None]
    at = len(lines[0]) if lines else 0
    for line in lines[1:]:
        gap = ""
        while at < len(text) and not text.startswith(line, at) and text[at] in " \n":
            gap += text[at]
            at += 1
        found.append(gap)
        at += len(line)
    return found


#: Marks a line may not start with (Japanese line breaking); they stay with what comes before.
NO_LINE_START = frozenset(
    "、。，．・：；？！）」』】〕〉》ー々ゝゞ…ぁぃぅぇぉっゃゅょァィゥェォッャュョ:;,.!?)]}"
)
#: Marks a line may not end with: an opening bracket stays with what comes after it.
NO_LINE_END = frozenset("（「『【〔〈《([{")


def _no_orphan(before: str, last: str) -> list[str]:
    """A paragraph's last two lines, with the line before giving its last CJK character to a last
    line that would hold a single CJK character ("…を押" / "す" becomes "…を" / "押す"): a
    Japanese paragraph does not end on a lone kana."""
    ending = _tokens(last)
    ahead = _tokens(before)
    if len(ending) != 1 or ending[0][0] or not _is_cjk(ending[0][1][0]) or len(ahead) < 3:
        return [before, last]
    joiner, token = ahead[-1]
    if joiner or not _is_cjk(token[0]):
        return [before, last]
    return [before[: len(before) - len(token)], token + last]


def _is_cjk(ch: str) -> bool:
    """Whether ``ch`` is a CJK character or mark (a card symbol, in the private use area, is not)."""
    return ch >= "\u3000" and not "\ue000" <= ch <= "\uf8ff"


def _tokens(paragraph: str) -> list[tuple[str, str]]:
    """``paragraph`` as (joiner, piece) pairs a line may break between: words separated by
    spaces, and each CJK character on its own."""
    return [(j, t) for j, t, _ in _pieces(paragraph)]


def _pieces(paragraph: str) -> list[tuple[str, str, int]]:
    """:func:`_tokens`, each with where its piece starts in ``paragraph``."""
    tokens: list[list[str]] = []
    starts: list[int] = []
    joiner = ""
    latin = False  # the last piece is a run of non-CJK characters that a space has not ended
    for at, ch in enumerate(paragraph):
        if ch == " ":
            joiner, latin = " ", False
            continue
        cjk = _is_cjk(ch)  # a card symbol (private use) is a letter of its word
        opened = bool(tokens) and tokens[-1][1][-1] in NO_LINE_END
        if tokens and not joiner and (ch in NO_LINE_START or (latin and not cjk) or opened):
            tokens[-1][1] += ch
        else:
            tokens.append([joiner, ch])
            starts.append(at)
        joiner, latin = "", not cjk
    return [(j, t, start) for (j, t), start in zip(tokens, starts, strict=True)]


@functools.lru_cache(maxsize=256)
def _phrases(paragraph: str) -> tuple[tuple[str, str], ...]:
    """The pieces a line of Japanese breaks between: its phrases (BudouX's, as a Japanese
    typesetter breaks: 統率者ダメージを / 受けた, never 統率者ダ / メージ), and elsewhere the
    pieces of :func:`_tokens`.  A phrase wider than a line is broken by :meth:`Canvas._wrap`."""
    pieces = _pieces(paragraph)
    if not any(_script(ch) != "other" for ch in paragraph):
        return tuple((j, t) for j, t, _ in pieces)
    # A phrase that starts inside a piece (after a mark the piece keeps, as in 次へ：) starts at the
    # piece after it.
    starts = [start for _, _, start in pieces]
    bounds = {
        next((s for s in starts if s >= b), len(paragraph)) for b in _phrase_starts(paragraph)
    }
    merged: list[list[str]] = []
    for joiner, token, start in pieces:
        if merged and not joiner and start not in bounds:
            merged[-1][1] += token
        else:
            merged.append([joiner, token])
    return tuple((j, t) for j, t in merged)


def _script(piece: str) -> str:
    """The Japanese script a piece begins in (kana, kanji), or "other"."""
    ch = piece[0]
    if "\u30a0" <= ch <= "\u30ff":
        return "katakana"
    if "\u3040" <= ch <= "\u309f":
        return "hiragana"
    if "\u4e00" <= ch <= "\u9fff":
        return "kanji"
    return "other"


def _words(phrase: str) -> list[tuple[str, str]]:
    """A phrase too wide for a line, in the pieces a line may break between before it breaks
    inside a word: runs of one script (メイン・フェイズ, Tazeem—, 次元：)."""
    words: list[list[str]] = []
    last = ""
    for joiner, piece in _tokens(phrase):
        script = _script(piece)
        if words and not joiner and script == last:
            words[-1][1] += piece
        else:
            words.append([joiner, piece])
        last = script
    return [(j, w) for j, w in words]


def _phrase_starts(paragraph: str) -> list[int]:
    """Where BudouX's phrases of ``paragraph`` start."""
    starts, at = [], 0
    for phrase in _japanese().parse(paragraph):
        starts.append(at)
        at += len(phrase)
    return starts


@functools.cache
def _japanese() -> Any:
    import budoux  # loaded at the first Japanese text wrapped: a kiosk in another language never needs it

    return budoux.load_default_japanese_parser()
