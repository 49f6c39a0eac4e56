"""Chips and lists of them, as every screen draws them: a fingertip tall, their words on two lines
before they would be cut, and a window round the cursor with scroll markers (an arrow and how
many are hidden on that side, drawn with shapes) when a list is longer than its room.

``chip_text`` / ``chip_fits`` say how a label fits a chip, ``draw_chip`` draws one, ``chip_row``
draws a row of them (the adjust screen's fields), ``chip_grid`` rows and columns (a screen's choices),
``scroll_markers`` the markers beside a column and ``marker`` one marker cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from msgspec import Struct

from display import symbols, theme
from display.canvas import Rect
from display.screens import View, chip_window
from display.ui import Tap

Direction = Literal["up", "down", "left", "right"]


def inset(rect: Rect) -> Rect:
    """A target's box drawn a pixel inside it, so targets can touch and still look apart."""
    x, y, w, h = rect
    return (x + 1, y + 1, w - 2, h - 2)


def chip_text(
    view: View,
    text: str,
    width: int,
    height: int,
    *,
    bold: bool = False,
    largest: int | None = None,
) -> tuple[int, list[str]]:
    """The size and lines ``text`` takes on a chip ``width`` × ``height``: one line from
    ``largest`` (the layout's ``small``) down to ``tiny``, else two lines.  Decided once for the
    canvas (its fonts and layout are fixed), not every frame."""
    key = ("chip", text, width, height, bold, largest)
    found = view.canvas.planned.get(key)
    if found is None:
        found = view.canvas.planned.put(key, _chip_text(view, text, width, height, bold, largest))
    return found[0], list(found[1])


def _chip_text(
    view: View, text: str, width: int, height: int, bold: bool, largest: int | None
) -> tuple[int, tuple[str, ...]]:
    c, lay = view.canvas, view.layout
    top = largest or lay.small
    for lines_wanted in (1, 2):
        for size in range(top, lay.tiny - 1, -1):
            lines = c.wrapped(text, size, width, bold=bold)
            if (
                lines is not None
                and len(lines) <= lines_wanted
                and len(lines) * c.fonts.line_height(size, bold) <= height
            ):
                return size, tuple(lines)
    return lay.tiny, (text,)


def chip_fits(
    view: View, text: str, width: int, height: int, *, largest: int | None = None
) -> bool:
    """True if ``text`` fits a chip ``width`` × ``height`` whole (bold: as the chosen chip shows it)."""
    key = ("chip fits", text, width, height, largest)
    found = view.canvas.planned.get(key)
    if found is None:
        c = view.canvas
        size, lines = chip_text(view, text, width, height, bold=True, largest=largest)
        found = view.canvas.planned.put(
            key,
            all(c.measure(line, size, bold=True) <= width for line in lines)
            and (len(lines) * c.fonts.line_height(size, True) <= height),
        )
    return found


def chip_label(
    view: View,
    rect: Rect,
    text: str,
    role: str,
    *,
    bold: bool = False,
    align: Literal["left", "center"] = "center",
    largest: int | None = None,
    color: tuple[int, int, int] = theme.TEXT,
) -> None:
    """A chip's words in ``rect``: one line, or two before they would be cut, centred in height."""
    c, lay = view.canvas, view.layout
    x, y, w, h = rect
    inner = w - lay.margin if align == "center" else w - 2 * lay.margin
    size, lines = chip_text(view, text, inner, h - 2, bold=bold, largest=largest)
    block = len(lines) * c.fonts.line_height(size, bold)
    left = x + (w - inner) // 2
    c.paragraph(
        text,
        (left, y + (h - block) // 2, inner, block),
        size,
        color,
        role=role,
        bold=bold,
        min_size=size,
        align=align,
    )


def draw_chip(
    view: View,
    rect: Rect,
    text: str,
    selected: bool,
    cursor: bool,
    role: str,
    *,
    align: Literal["left", "center"] = "center",
    largest: int | None = None,
) -> None:
    """A chip: marked (chosen) chips lighter, the cursor's framed, its words bold when chosen."""
    c, lay = view.canvas, view.layout
    c.box(inset(rect), theme.BUTTON_HI if selected else theme.BUTTON)
    if cursor:
        c.box(inset(rect), theme.CURSOR, width=max(2, lay.line))
    chip_label(view, rect, text, role, bold=selected or cursor, align=align, largest=largest)


def draw_tabs(
    view: View,
    at: tuple[int, int],
    width: int,
    panes: Sequence[str],
    shown: str,
    texts: str,
    role: str,
    tap: Callable[[str], Tap],
) -> int:
    """A row of tabs a finger tall across ``width`` from ``at``, one per pane (worded by the text
    key ``texts.<pane>``), the one ``shown`` marked; a touch on one is ``tap(pane)``.  Returns
    the tabs' height."""
    x, y = at
    gap = max(2, view.layout.margin // 2)
    tab_w = (width - gap * (len(panes) - 1)) // len(panes)
    for index, pane in enumerate(panes):
        rect = (x + index * (tab_w + gap), y, tab_w, view.layout.touch)
        draw_chip(
            view, rect, view.tr(f"{texts}.{pane}"), pane == shown, False, f"{role}.tab.{pane}"
        )
        view.canvas.target(rect, tap(pane))
    return view.layout.touch


def marker_width(view: View) -> int:
    """How wide a scroll marker is: three quarters of a fingertip, or two digits and some air."""
    lay = view.layout
    return max(lay.touch * 3 // 4, view.canvas.fonts.measure("99", lay.tiny, True)[0] + lay.margin)


def marker(
    view: View, cell: Rect, count: int, direction: Direction, role: str, tap: Tap | None
) -> None:
    """One scroll marker: an arrow pointing where ``count`` chips are hidden, and the number."""
    c, lay = view.canvas, view.layout
    x, y, w, h = cell
    c.box(cell, theme.PANEL_HI)
    if tap is not None:
        c.target(cell, tap)
    if direction in ("left", "right"):
        arrow = max(6, min(w, h) * 2 // 5)
        symbols.arrow(c, (x + w / 2, y + h * 0.32), arrow, theme.CURSOR, direction)
        c.text(
            str(count),
            (x + w // 2, y + h * 55 // 100),
            lay.tiny,
            theme.CURSOR,
            anchor="midtop",
            bold=True,
            role=role,
            min_size=lay.tiny,
        )
        return
    # The arrow towards the hidden chips, the number on the side of the list.
    arrow = max(6, min(w, lay.touch) * 2 // 5)
    up = direction == "up"
    symbols.arrow(c, (x + w / 2, y + h * (0.28 if up else 0.72)), arrow, theme.CURSOR, direction)
    c.text(
        str(count),
        (x + w // 2, y + h * (45 if up else 55) // 100),
        lay.tiny,
        theme.CURSOR,
        anchor="midtop" if up else "midbottom",
        bold=True,
        role=role,
        min_size=lay.tiny,
    )


def scroll_markers(
    view: View,
    column: Rect,
    before: int,
    after: int,
    role: str,
    taps: tuple[Tap, Tap] | None = None,
) -> None:
    """How many chips are hidden above and below a scrolled list: a marker at each end of
    ``column`` (side by side when the column is only one chip tall); with ``taps``, touching a
    marker brings the next hidden chip into view."""
    lay = view.layout
    x, y, w, h = column
    cell_h = lay.touch
    if before > 0 and after > 0 and h < 2 * lay.touch:
        half = w // 2
        marker(view, (x, y, half, h), before, "up", role, taps[0] if taps else None)
        marker(view, (x + half, y, w - half, h), after, "down", role, taps[1] if taps else None)
        return
    if before > 0:
        marker(view, (x, y, w, cell_h), before, "up", role, taps[0] if taps else None)
    if after > 0:
        marker(view, (x, y + h - cell_h, w, cell_h), after, "down", role, taps[1] if taps else None)


class Chip(Struct, frozen=True):
    """A chip of a list: its words, what touching it does, whether it is marked (chosen, in an
    order)."""

    label: str
    tap: Tap
    marked: bool = False
    short: str = ""  # fewer words, where the label does not fit its chip
    role: str = ""  # its own role in the drawing record (else the list's)

    def words(self) -> tuple[str, ...]:
        return (self.label, self.short) if self.short else (self.label,)


def grid_columns(
    view: View,
    area: Rect,
    chips: Sequence[Chip],
    columns: Sequence[int],
    *,
    chip_h: int | None = None,
    largest: int | None = None,
    align: Literal["left", "center"] = "left",
) -> tuple[int, bool]:
    """How many columns a grid of ``chips`` takes in ``area``: the fewest of
    ``columns`` that shows every chip with its words whole (then True), else the most whose
    chips still hold their words, for a window that scrolls (then False).  Decided once for the
    canvas per area and words (a planar deck's two hundred names), not every frame."""
    key = (
        "grid",
        area[2:],
        tuple(chip.words() for chip in chips),
        tuple(columns),
        chip_h,
        largest,
        align,
    )
    found = view.canvas.planned.get(key)
    if found is None:
        found = view.canvas.planned.put(
            key, _grid_columns(view, area, chips, columns, chip_h, largest, align)
        )
    return found


def _grid_columns(
    view: View,
    area: Rect,
    chips: Sequence[Chip],
    columns: Sequence[int],
    chip_h: int | None,
    largest: int | None,
    align: Literal["left", "center"],
) -> tuple[int, bool]:
    lay = view.layout
    _, _, w, h = area
    gap = max(2, lay.margin // 2)
    height = max(lay.touch, chip_h or lay.touch)
    rows = max(1, (h + gap) // (height + gap))
    inner = -(lay.margin if align == "center" else 2 * lay.margin)

    def words_fit(cols: int, side: int) -> bool:
        chip_w = (w - side - gap * (cols - 1)) // cols
        return chip_w + inner > 0 and all(
            any(
                chip_fits(view, t, chip_w + inner, height - 2, largest=largest)
                for t in chip.words()
            )
            for chip in chips
        )

    for cols in sorted(columns):
        if -(-len(chips) // cols) <= rows and words_fit(cols, 0):
            return cols, True
    side = marker_width(view) + gap
    fitting = [cols for cols in sorted(columns) if words_fit(cols, side)]
    return (fitting[-1] if fitting else min(columns)), False


def chip_grid(
    view: View,
    area: Rect,
    chips: Sequence[Chip],
    cursor: int | None,
    role: str,
    scroll: Callable[[int], Tap],
    *,
    columns: Sequence[int] = (1,),
    align: Literal["left", "center"] = "left",
    largest: int | None = None,
    chip_h: int | None = None,
    pointed: bool = True,
) -> range:
    """Chips in ``area`` in rows, left to right, each ``Layout.touch`` tall (or ``chip_h``), in
    the fewest of ``columns`` that shows them all; when they do not all fit, a window of rows
    round ``cursor`` with scroll markers on the right saying how many are hidden above and below
    (``role + ".more"``), where touching a marker sends ``scroll(index)`` for the next hidden
    chip; ``pointed`` False: ``cursor`` only keeps its chip in view, drawn as any other (chips a
    touch picks, where the keys act on something else).  Returns the chips shown."""
    lay = view.layout
    x, y, w, h = area
    if not chips:
        return range(0)
    gap = max(2, lay.margin // 2)
    height = max(lay.touch, chip_h or lay.touch)
    cols, whole = grid_columns(
        view, area, chips, columns, chip_h=chip_h, largest=largest, align=align
    )
    fit = max(1, (h + gap) // (height + gap))
    total = -(-len(chips) // cols)
    rows = chip_window(total, (0 if cursor is None else cursor) // cols, fit)
    shown = range(rows.start * cols, min(len(chips), rows.stop * cols))
    side = 0 if whole else marker_width(view) + gap
    chip_w = (w - side - gap * (cols - 1)) // cols
    # One type size for the whole grid: the largest at which every label shown fits its chip.
    inner = chip_w - (lay.margin if align == "center" else 2 * lay.margin)
    words = {
        index: next(
            (
                t
                for t in chips[index].words()
                if chip_fits(view, t, inner, height - 2, largest=largest)
            ),
            chips[index].words()[-1],
        )
        for index in shown
    }
    common = min(
        chip_text(view, words[index], inner, height - 2, bold=True, largest=largest)[0]
        for index in shown
    )
    for slot, index in enumerate(shown):
        chip = chips[index]
        rect = (
            x + (slot % cols) * (chip_w + gap),
            y + (slot // cols) * (height + gap),
            chip_w,
            height,
        )
        at = pointed and index == cursor  # unpointed: the cursor only says which chips are in view
        draw_chip(
            view,
            rect,
            words[index],
            chip.marked or at,
            at,
            chip.role or role,
            align=align,
            largest=common,
        )
        view.canvas.target(rect, chip.tap)
    if side:
        column = (x + w - side + gap, y, side - gap, len(rows) * (height + gap) - gap)
        scroll_markers(
            view,
            column,
            shown.start,
            len(chips) - shown.stop,
            f"{role}.more",
            (scroll(shown.start - 1), scroll(shown.stop)),
        )
    return shown


def grid_height(view: View, count: int, columns: int, chip_h: int | None = None) -> int:
    """How tall a grid of ``count`` chips in ``columns`` columns is, all shown."""
    lay = view.layout
    gap = max(2, lay.margin // 2)
    height = max(lay.touch, chip_h or lay.touch)
    rows = -(-count // max(1, columns))
    return rows * (height + gap) - gap if rows else 0


def chip_fit(
    view: View, texts: list[str], selected: int, width: int, height: int, gap: int
) -> tuple[range, int]:
    """Which chips of a row are shown (all, or a window round the selected one) and how wide the
    scroll markers at its ends are (0: none)."""
    pad = view.layout.margin

    def fits(count: int, marker_w: int, shown: range) -> bool:
        chip_w = (width - 2 * marker_w - gap * (count - 1)) // count
        return chip_w > 0 and all(
            chip_fits(view, texts[i], chip_w - pad, height - 2) for i in shown
        )

    if fits(len(texts), 0, range(len(texts))):
        return range(len(texts)), 0
    marker_w = marker_width(view)
    for count in range(len(texts) - 1, 0, -1):
        shown = chip_window(len(texts), selected, count)
        if fits(count, marker_w, shown):
            return shown, marker_w
    return chip_window(len(texts), selected, 1), marker_w


def chip_row(
    view: View,
    area: Rect,
    chips: Sequence[Chip],
    selected: int,
    cursor: int | None,
    role: str,
    *,
    proportional: bool = False,
) -> range:
    """A row of chips sharing ``area``'s width (equally, or with ``proportional`` in proportion to
    their words): all of them, or a window round ``selected`` with a marker at each end saying how
    many are hidden on that side (``role + ".more"``); touching a marker does what touching the
    nearest hidden chip does.  Returns the chips shown."""
    lay = view.layout
    x, y, w, h = area
    if not chips:
        return range(0)
    gap = max(2, lay.margin // 2)
    widths = (
        shared_widths(view, [chip.label for chip in chips], w, h, gap) if proportional else None
    )
    if widths is not None:
        shown, side = range(len(chips)), 0
    else:
        shown, side = chip_fit(view, [chip.label for chip in chips], selected, w, h, gap)
        chip_w = (w - 2 * side - gap * (len(shown) - 1)) // len(shown)
        widths = [chip_w] * len(shown)
    cx = x + side
    for slot, index in enumerate(shown):
        chip = chips[index]
        rect: Rect = (cx, y, widths[slot], h)
        draw_chip(view, rect, chip.label, chip.marked, index == cursor, chip.role or role)
        view.canvas.target(rect, chip.tap)
        cx += widths[slot] + gap
    if side:
        ends: tuple[tuple[int, Direction, int, Tap | None], ...] = (
            (shown.start, "left", x, chips[shown.start - 1].tap if shown.start else None),
            (
                len(chips) - shown.stop,
                "right",
                x + w - side + gap,
                chips[shown.stop].tap if shown.stop < len(chips) else None,
            ),
        )
        for count, direction, at, nearest in ends:
            if nearest is None:
                continue
            marker(view, (at, y, side - gap, h), count, direction, f"{role}.more", nearest)
    return shown


def shared_widths(
    view: View, texts: list[str], width: int, height: int, gap: int
) -> list[int] | None:
    """Widths for a row of chips with ``texts`` that share ``width`` in proportion to their words
    on one line, if every chip then holds its words (on two lines where one is too narrow)."""
    lay = view.layout
    pad = lay.margin
    room = width - gap * (len(texts) - 1)
    natural = [view.canvas.measure(t, lay.small, bold=True) + 2 * pad for t in texts]
    total = sum(natural)
    if room <= 0:
        return None
    if total <= room:
        spare = (room - total) // len(texts)
        widths = [n + spare for n in natural]
    else:
        widths = [max(1, room * n // total) for n in natural]
    if all(chip_fits(view, t, w - pad, height - 2) for t, w in zip(texts, widths, strict=True)):
        return widths
    return None


def wrap_fit(
    view: View,
    text: str,
    width: int,
    largest: int,
    *,
    smallest: int | None = None,
    lines: int = 2,
    bold: bool = False,
) -> tuple[int, list[str]] | None:
    """The largest size from ``largest`` down to ``smallest`` (the layout's ``tiny``) at which
    ``text`` wraps into ``width`` in at most ``lines`` lines, and those lines; None if none."""
    c = view.canvas
    floor = view.layout.tiny if smallest is None else smallest
    for size in range(largest, floor - 1, -1):
        wrapped = c.wrapped(text, size, width, bold=bold)
        if wrapped is not None and len(wrapped) <= lines:
            return size, wrapped
    return None


def block(
    view: View,
    text: str,
    at: tuple[int, int],
    width: int,
    fitted: tuple[int, list[str]],
    color: tuple[int, int, int],
    role: str,
    *,
    bold: bool = False,
    align: Literal["left", "center"] = "left",
) -> int:
    """``text`` drawn as ``wrap_fit`` fitted it, from ``at``; returns the height used."""
    c = view.canvas
    size, lines = fitted
    height = len(lines) * c.fonts.line_height(size, bold)
    c.paragraph(
        text,
        (at[0], at[1], width, height),
        size,
        color,
        role=role,
        bold=bold,
        min_size=size,
        align=align,
    )
    return height
