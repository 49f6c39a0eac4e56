"""A QR code drawn with the canvas, so it is sharp at every size and on every target.

The code itself is segno's (pure Python, maintained, ISO/IEC 18004); this module only lays its
modules out in whole pixels, inside the white quiet zone of four modules the standard asks for,
since the table's background is dark and a phone's camera needs light round the code.
"""

from __future__ import annotations

from functools import lru_cache

from display.canvas import Canvas, Rect

QUIET = 4  # modules of light margin on each side (ISO/IEC 18004)
DARK, LIGHT = (0, 0, 0), (255, 255, 255)


@lru_cache(maxsize=8)
def modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``text`` as rows of modules, True for dark: the smallest version that
    holds it with at least error correction M (a screen may be smudged or in glare)."""
    import segno

    code = segno.make_qr(text, error="m")
    return tuple(tuple(bool(cell) for cell in row) for row in code.matrix)


def side(count: int, room: int) -> int:
    """A module's size in pixels for a code of ``count`` modules a side in ``room`` pixels: whole
    pixels, so every module is the same size; 0 if it cannot be drawn that small."""
    return room // (count + 2 * QUIET)


def draw(
    canvas: Canvas, matrix: tuple[tuple[bool, ...], ...], at: tuple[int, int], pixel: int
) -> Rect:
    """``matrix`` with its quiet zone from ``at`` (top left), ``pixel`` pixels a module; the
    rectangle it took.  Runs of dark modules in a row are one box each (fewer drawing calls)."""
    x, y = at
    whole = (len(matrix) + 2 * QUIET) * pixel
    canvas.box((x, y, whole, whole), LIGHT, radius=0)
    left, top = x + QUIET * pixel, y + QUIET * pixel
    for r, row in enumerate(matrix):
        start = None
        for c, dark in enumerate((*row, False)):
            if dark and start is None:
                start = c
            elif not dark and start is not None:
                canvas.box(
                    (left + start * pixel, top + r * pixel, (c - start) * pixel, pixel),
                    DARK,
                    radius=0,
                )
                start = None
    return (x, y, whole, whole)
