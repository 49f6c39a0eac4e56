"""Symbols drawn with shapes rather than glyphs: the planar die's faces, the poison,
commander-damage and commander-tax icons, the icons of a player's counters and designations (a crown for the
monarch, a flag for the initiative, a stepped city for the city's blessing, a bolt for energy, a
star for experience, a trefoil for rad counters), the sun and moon of day and night, a generic
mana symbol, scroll arrows and the game clock's dial and pause; and the symbols of rules text in
Scryfall's notation (``{T}``, ``{G}``, ``{2/W}``, ``{CHAOS}``: :func:`card_meaning`,
:func:`card_symbol`), which the canvas draws in place of the notation.

The bundled fonts are subsets and lack most pictographs (▲, ☠, ♛ draw as boxes), and a shape
scales with the layout and needs no image file.  Every symbol is drawn in a square of ``size``
pixels around ``center``; the die faces can be turned by ``angle`` degrees (the die's tumble).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from display import theme
from display.fonts import Color

if (
    TYPE_CHECKING
):  # the canvas draws card symbols with the functions here, so it imports this module
    from display.canvas import Canvas

Point = tuple[float, float]

# The planeswalker symbol in a unit square (-1..1, y down): a tall middle blade, a blade curving
# out on each side, and the bowl they rise from.
_PW_MIDDLE: tuple[Point, ...] = (
    (0.0, -1.0),
    (0.17, -0.2),
    (0.12, 0.5),
    (0.0, 0.62),
    (-0.12, 0.5),
    (-0.17, -0.2),
)
_PW_LEFT: tuple[Point, ...] = (
    (-0.78, -0.62),
    (-0.42, -0.22),
    (-0.27, 0.2),
    (-0.3, 0.42),
    (-0.46, 0.3),
    (-0.6, -0.12),
)
_PW_BOWL: tuple[Point, ...] = (
    (-0.72, 0.28),
    (-0.48, 0.62),
    (-0.2, 0.8),
    (0.0, 0.84),
    (0.2, 0.8),
    (0.48, 0.62),
    (0.72, 0.28),
    (0.5, 0.42),
    (0.22, 0.56),
    (0.0, 0.6),
    (-0.22, 0.56),
    (-0.5, 0.42),
)


def _place(
    points: Sequence[Point], center: tuple[float, float], half: float, angle: float
) -> list[Point]:
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)
    cx, cy = center
    return [(cx + half * (x * cos - y * sin), cy + half * (x * sin + y * cos)) for x, y in points]


def planeswalker(
    c: Canvas, center: tuple[float, float], size: float, color: Color, angle: float = 0.0
) -> None:
    """The planeswalker symbol (the die's planeswalk face)."""
    half = size / 2
    right = tuple((-x, y) for x, y in _PW_LEFT)
    for shape in (_PW_MIDDLE, _PW_LEFT, right, _PW_BOWL):
        c.polygon(_place(shape, center, half, angle), color)


def chaos(
    c: Canvas, center: tuple[float, float], size: float, color: Color, angle: float = 0.0
) -> None:
    """The chaos symbol: a ring with six hooked blades turning one way (the die's chaos face)."""
    half = size / 2
    blades = 6
    for k in range(blades):
        turn = 360 / blades * k
        blade: list[Point] = []
        for step in range(7):  # the outer edge of the blade, hooking round
            t = step / 6
            a = math.radians(turn + t * 55)
            r = 0.42 + 0.58 * t
            blade.append((r * math.cos(a), r * math.sin(a)))
        for step in range(6, -1, -1):  # back along the inner edge
            t = step / 6
            a = math.radians(turn + 28 + t * 30)
            r = 0.42 + 0.3 * t
            blade.append((r * math.cos(a), r * math.sin(a)))
        c.polygon(_place(blade, center, half, angle), color)
    ring = max(2, round(size * 0.09))
    c.circle((round(center[0]), round(center[1])), max(1, round(half * 0.46)), color, ring)


def pips(
    c: Canvas,
    center: tuple[float, float],
    size: float,
    count: int,
    color: Color,
    angle: float = 0.0,
) -> None:
    """A plain d6's face: ``count`` pips in the usual places."""
    spots = {
        1: ((0, 0),),
        2: ((-1, -1), (1, 1)),
        3: ((-1, -1), (0, 0), (1, 1)),
        4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
        5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
        6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    }.get(count, ())
    half = size / 2
    for x, y in _place([(0.55 * sx, 0.55 * sy) for sx, sy in spots], center, half, angle):
        c.circle((round(x), round(y)), max(2, round(size * 0.1)), color)


def die(
    c: Canvas,
    center: tuple[float, float],
    size: float,
    fill: Color,
    angle: float = 0.0,
    edge: Color | None = None,
) -> None:
    """The die's body: a rounded-looking square turned by ``angle``."""
    corner = 0.82
    outline: list[Point] = []
    for quarter, (qx, qy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        for step in range(4):  # a quarter circle at each corner
            a = math.radians(90 * quarter + 30 * step)
            outline.append((qx * corner + 0.18 * math.cos(a), qy * corner + 0.18 * math.sin(a)))
    points = _place(outline, center, size / 2, angle)
    c.polygon(points, fill)
    if edge is not None:
        c.polygon(points, edge, max(1, round(size * 0.04)))


def droplet(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Poison: a drop."""
    cx, cy = center
    r = size * 0.32
    c.circle((round(cx), round(cy + size * 0.16)), max(1, round(r)), color)
    c.polygon(
        [
            (cx, cy - size * 0.5),
            (cx + r * 0.93, cy + size * 0.06),
            (cx - r * 0.93, cy + size * 0.06),
        ],
        color,
    )


def crown(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Commander damage: a crown."""
    cx, cy = center
    h = size / 2
    c.polygon(
        [
            (cx - h, cy + h * 0.6),
            (cx - h, cy - h * 0.55),
            (cx - h * 0.5, cy),
            (cx, cy - h * 0.85),
            (cx + h * 0.5, cy),
            (cx + h, cy - h * 0.55),
            (cx + h, cy + h * 0.6),
        ],
        color,
    )


def tax(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Commander tax: a mana symbol's ring with a plus in it (casting costs more).  The ring is
    thin and the plus clear of it, so the two read apart from 10 px up."""
    cx, cy = center
    r = size / 2
    c.circle((round(cx), round(cy)), max(2, round(r)), color, max(1, round(size * 0.1)))
    arm, bar = r * 0.55, max(1.0, size * 0.14) / 2
    c.polygon(
        [(cx - arm, cy - bar), (cx + arm, cy - bar), (cx + arm, cy + bar), (cx - arm, cy + bar)],
        color,
    )
    c.polygon(
        [(cx - bar, cy - arm), (cx + bar, cy - arm), (cx + bar, cy + arm), (cx - bar, cy + arm)],
        color,
    )


def arrow(
    c: Canvas,
    center: tuple[float, float],
    size: float,
    color: Color,
    direction: Literal["up", "down", "left", "right"],
) -> None:
    """A filled triangle pointing ``direction`` (scroll markers)."""
    cx, cy = center
    h = size / 2
    shape: dict[str, list[Point]] = {
        "up": [(cx, cy - h * 0.8), (cx + h, cy + h * 0.6), (cx - h, cy + h * 0.6)],
        "down": [(cx, cy + h * 0.8), (cx + h, cy - h * 0.6), (cx - h, cy - h * 0.6)],
        "left": [(cx - h * 0.8, cy), (cx + h * 0.6, cy - h), (cx + h * 0.6, cy + h)],
        "right": [(cx + h * 0.8, cy), (cx - h * 0.6, cy - h), (cx - h * 0.6, cy + h)],
    }
    c.polygon(shape[direction], color)


def clock_face(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """The game clock running: a dial with its two hands."""
    cx, cy = round(center[0]), round(center[1])
    r = max(2, round(size / 2))
    ring = max(1, round(size * 0.1))
    c.circle((cx, cy), r, color, ring)
    hand = max(1, round(size * 0.09))
    c.line((cx, cy), (cx, cy - round(r * 0.62)), color, hand)  # twelve o'clock
    c.line((cx, cy), (cx + round(r * 0.45), cy), color, hand)  # three o'clock


def pause(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """The game clock paused: two bars."""
    cx, cy = center
    h = size / 2
    bar = size * 0.28
    for left in (cx - h * 0.75, cx + h * 0.75 - bar):
        c.polygon(
            [(left, cy - h), (left + bar, cy - h), (left + bar, cy + h), (left, cy + h)], color
        )


def counter_clockwise(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """The turn order reversed: a ring of an arrow turning counter-clockwise."""
    cx, cy = center
    r = size * 0.38
    width = max(1, round(size * 0.12))
    # The ring from the top round the right side to the left (y grows downwards), open at the
    # top left where the head points down its way.
    points = [
        (cx + r * math.cos(math.radians(a)), cy - r * math.sin(math.radians(a)))
        for a in range(120, -181, -20)
    ]
    for start, end in zip(points, points[1:]):
        c.line((round(start[0]), round(start[1])), (round(end[0]), round(end[1])), color, width)
    tip = math.radians(120)
    tx, ty = cx + r * math.cos(tip), cy - r * math.sin(tip)
    h = size * 0.22
    c.polygon(
        [(tx - h * 1.1, ty - h * 0.2), (tx + h * 0.5, ty - h * 1.0), (tx + h * 0.5, ty + h * 0.7)],
        color,
    )


def _unit(
    c: Canvas, shape: Sequence[Point], center: tuple[float, float], size: float, color: Color
) -> None:
    """A shape given in a unit square (-1..1, y down), drawn ``size`` pixels across."""
    c.polygon(_place(shape, center, size / 2, 0.0), color)


_BOLT: tuple[Point, ...] = (
    (0.3, -1.0),
    (-0.6, 0.12),
    (-0.06, 0.12),
    (-0.32, 1.0),
    (0.6, -0.16),
    (0.06, -0.16),
)


def bolt(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Energy: a lightning bolt."""
    _unit(c, _BOLT, center, size, color)


def star(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Experience: a five-pointed star."""
    points = [
        (
            (1.0 if k % 2 == 0 else 0.45) * math.sin(math.radians(36 * k)),
            -(1.0 if k % 2 == 0 else 0.45) * math.cos(math.radians(36 * k)),
        )
        for k in range(10)
    ]
    _unit(c, points, (center[0], center[1] + size * 0.04), size, color)


def trefoil(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Rad counters: the radiation trefoil, three blades round a dot."""
    for middle in (-90.0, 30.0, 150.0):
        blade: list[Point] = []
        for step in range(7):
            a = math.radians(middle - 30 + 10 * step)
            blade.append((math.cos(a), math.sin(a)))
        for step in range(6, -1, -1):
            a = math.radians(middle - 30 + 10 * step)
            blade.append((0.34 * math.cos(a), 0.34 * math.sin(a)))
        _unit(c, blade, center, size, color)
    c.circle((round(center[0]), round(center[1])), max(1, round(size * 0.11)), color)


_FLAG: tuple[Point, ...] = ((-0.55, -0.95), (0.85, -0.55), (-0.55, -0.1))
_POLE: tuple[Point, ...] = ((-0.8, -1.0), (-0.55, -1.0), (-0.55, 1.0), (-0.8, 1.0))


def flag(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """The initiative: a pennant on its pole."""
    _unit(c, _POLE, center, size, color)
    _unit(c, _FLAG, center, size, color)


_CITY: tuple[Point, ...] = (
    (-1.0, 0.9),
    (-1.0, 0.45),
    (-0.7, 0.45),
    (-0.7, 0.0),
    (-0.4, 0.0),
    (-0.4, -0.45),
    (-0.15, -0.45),
    (-0.15, -0.9),
    (0.15, -0.9),
    (0.15, -0.45),
    (0.4, -0.45),
    (0.4, 0.0),
    (0.7, 0.0),
    (0.7, 0.45),
    (1.0, 0.45),
    (1.0, 0.9),
)


def city(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """The city's blessing: a stepped pyramid, the golden city's temple."""
    _unit(c, _CITY, center, size, color)


def sun(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Day: a disc with eight rays."""
    for k in range(8):
        a = math.radians(45 * k)
        side = math.radians(45 * k + 90)
        ray = [
            (
                0.62 * math.cos(a) + 0.13 * math.cos(side),
                0.62 * math.sin(a) + 0.13 * math.sin(side),
            ),
            (math.cos(a), math.sin(a)),
            (
                0.62 * math.cos(a) - 0.13 * math.cos(side),
                0.62 * math.sin(a) - 0.13 * math.sin(side),
            ),
        ]
        _unit(c, ray, center, size, color)
    c.circle((round(center[0]), round(center[1])), max(1, round(size * 0.24)), color)


def moon(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Night: a crescent, the outer edge of a disc less the disc that overlaps it."""
    inner_x, inner_r = (
        0.42,
        0.82,
    )  # the overlapping disc's centre (to the right, a little up) and radius
    # Where the two circles cross: x is the same for both, from the chord between them.
    x = (1 - inner_r**2 + inner_x**2) / (2 * inner_x)
    top = math.atan2(-math.sqrt(max(0.0, 1 - x * x)), x)
    points: list[Point] = []
    for step in range(25):  # the outer edge, round the left from the top crossing to the bottom one
        a = top - (2 * math.pi + 2 * top) * step / 24
        points.append((math.cos(a), math.sin(a)))
    inner_top = math.atan2(math.sin(top), math.cos(top) - inner_x)
    for step in range(25):  # back along the inner edge
        a = -inner_top + (2 * inner_top) * step / 24
        a = math.pi - a
        points.append((inner_x + inner_r * math.cos(a), inner_r * math.sin(a)))
    _unit(c, points, (center[0] - size * 0.05, center[1]), size, color)


# Card symbols: rules text writes them in Scryfall's notation, "{T}: Add {G}{G}."

#: Symbols with a name rather than a mana cost.
_NAMED = {"T": "tap", "Q": "untap", "E": "energy", "CHAOS": "chaos", "PW": "planeswalker"}
#: One-letter mana symbols: the five colours, colourless, snow, the variables, Phyrexian generic.
_MANA_LETTERS = frozenset("WUBRGCSXYZH½∞")
_HYBRID_PARTS = frozenset("WUBRGC")
_NUMBER = re.compile(r"[0-9]{1,3}")
#: A notation the kiosk does not know is drawn as a plain disc when it is short and written as card
#: symbols are (capitals, digits); anything else is left as text.
_SHORT = re.compile(r"[A-Z0-9½∞+\-/.]{1,3}")


def card_meaning(token: str) -> str | None:
    """What the card symbol ``{token}`` means: ``"tap"``, ``"untap"``, ``"energy"``, ``"chaos"``,
    ``"planeswalker"``, ``"mana:G"`` (any mana symbol: ``"mana:2"``, ``"mana:W/U"``,
    ``"mana:G/P"``), ``"symbol:TK"`` for a short notation not known here; None for a notation
    too long to draw as a symbol (it stays text)."""
    named = _NAMED.get(token)
    if named is not None:
        return named
    if _is_mana(token):
        return f"mana:{token}"
    if _SHORT.fullmatch(token):
        return f"symbol:{token}"
    return None


def _is_mana(token: str) -> bool:
    if token in _MANA_LETTERS or _NUMBER.fullmatch(token):
        return True
    if len(token) == 2 and token[0] == "H" and token[1] in _HYBRID_PARTS:  # half a coloured mana
        return True
    parts = token.split("/")
    if parts[-1] == "P":  # Phyrexian: one colour, or a hybrid of two
        return 2 <= len(parts) <= 3 and all(p in _HYBRID_PARTS for p in parts[:-1])
    return (
        len(parts) == 2
        and parts[1] in _HYBRID_PARTS
        and (parts[0] in _HYBRID_PARTS or parts[0] == "2")
    )


def card_symbol(
    c: Canvas, token: str, center: tuple[float, float], size: float, ink: Color
) -> None:
    """The card symbol ``{token}`` (one :func:`card_meaning` knows) in a square ``size`` across:
    a mana symbol as a disc in its colour with its letter or number, the tap and untap arrows,
    chaos, the planeswalker symbol and energy in ``ink`` (the text's colour)."""
    meaning = card_meaning(token) or f"symbol:{token}"
    kind, _, what = meaning.partition(":")
    if kind == "mana":
        _mana(c, what, center, size)
    elif kind == "tap" or kind == "untap":
        _tap(c, center, size, untap=kind == "untap")
    elif kind == "chaos":
        chaos(c, center, size, ink)
    elif kind == "planeswalker":
        planeswalker(c, center, size * 0.94, ink)
    elif kind == "energy":
        bolt(c, center, size * 0.9, ink)
    else:
        _disc(c, center, size, theme.MANA["symbol"])
        _letters(c, what, center, size, theme.ink_on(theme.MANA["symbol"]))


def _fill(part: str) -> Color:
    return theme.MANA.get(part, theme.MANA["generic"])


def _disc(c: Canvas, center: tuple[float, float], size: float, fill: Color) -> None:
    cx, cy = round(center[0]), round(center[1])
    radius = max(1, round(size / 2))
    c.circle((cx, cy), radius, fill)
    if fill == theme.MANA["B"]:  # a dark disc on the dark table: its rim shows where it is
        c.circle((cx, cy), radius, theme.MANA_RIM, max(1, round(size * 0.07)))


def _mana(c: Canvas, what: str, center: tuple[float, float], size: float) -> None:
    parts = what.split("/")
    phyrexian = parts[-1] == "P"
    if phyrexian:
        parts = parts[:-1]
    if len(what) == 2 and what[0] == "H":  # half a mana: the left half of its disc
        _half(c, center, size, _fill(what[1]), -90.0, 90.0)
        return
    if (
        len(parts) == 2
    ):  # hybrid: the first half top left, the second bottom right, split on the diagonal
        _disc(c, center, size, _fill(parts[1]))
        _half(c, center, size, _fill(parts[0]), 135.0, 315.0)
        if not phyrexian:
            offset = size * 0.2
            for part, sign in ((parts[0], -1), (parts[1], 1)):
                _letters(
                    c,
                    part,
                    (center[0] + sign * offset, center[1] + sign * offset),
                    size * 0.5,
                    theme.ink_on(_fill(part)),
                )
    else:
        _disc(c, center, size, _fill(parts[0]))
    ink = theme.ink_on(_fill(parts[-1]))
    if phyrexian or what == "H":
        _phyrexian(c, center, size, ink)
    elif len(parts) == 1:
        letter = parts[0]
        if letter == "S":
            _snowflake(c, center, size, ink)
        elif letter == "C":
            _unit(c, ((0.0, -0.58), (0.42, 0.0), (0.0, 0.58), (-0.42, 0.0)), center, size, ink)
        elif letter == "∞":
            for side in (-1, 1):
                c.circle(
                    (round(center[0] + side * size * 0.16), round(center[1])),
                    max(1, round(size * 0.15)),
                    ink,
                    max(1, round(size * 0.06)),
                )
        else:
            _letters(c, letter, center, size, ink)


def _half(
    c: Canvas, center: tuple[float, float], size: float, fill: Color, start: float, end: float
) -> None:
    """The part of the disc from ``start`` to ``end`` degrees (clockwise from three o'clock)."""
    steps = 24
    points: list[Point] = [
        (
            math.cos(math.radians(start + (end - start) * k / steps)),
            math.sin(math.radians(start + (end - start) * k / steps)),
        )
        for k in range(steps + 1)
    ]
    _unit(c, points, center, size, fill)


def _letters(c: Canvas, text: str, center: tuple[float, float], size: float, color: Color) -> None:
    """``text`` centred by its ink on ``center``, as large as fits a disc ``size`` across."""
    bold = all(c.fonts.has(ch, True) for ch in text)
    px = max(4, round(size * 0.74))
    room = size * (0.62 if len(text) == 1 else 0.8)
    while px > 4 and c.fonts.measure(text, px, bold)[0] > room:
        px = max(4, px * 9 // 10)
    image = c.fonts.render(text, px, color, bold)
    top, height = c.fonts.ink(text, px, bold)
    c.blit(image, (round(center[0] - image.get_width() / 2), round(center[1] - top - height / 2)))


def _tap(c: Canvas, center: tuple[float, float], size: float, *, untap: bool) -> None:
    """The tap symbol: a grey disc with a dark arrow turning clockwise; untap: a dark disc with a
    light arrow turning the other way."""
    fill = theme.MANA["B"] if untap else theme.MANA["generic"]
    _disc(c, center, size, fill)  # the untap symbol's dark disc gets its light rim there
    ink = theme.ink_on(fill)
    flip = -1.0 if untap else 1.0
    start, end = 150.0, 350.0  # from lower left, over the top, to the right
    radius, thick = 0.46, 0.17
    arc: list[Point] = []
    for k in range(13):
        a = math.radians(start + (end - start) * k / 12)
        arc.append(((radius + thick / 2) * math.cos(a), (radius + thick / 2) * math.sin(a) + 0.06))
    for k in range(12, -1, -1):
        a = math.radians(start + (end - start) * k / 12)
        arc.append(((radius - thick / 2) * math.cos(a), (radius - thick / 2) * math.sin(a) + 0.06))
    a = math.radians(end)
    px, py = radius * math.cos(a), radius * math.sin(a) + 0.06
    nx, ny = math.cos(a), math.sin(a)
    tx, ty = -math.sin(a), math.cos(a)
    head = [
        (px + nx * 0.26, py + ny * 0.26),
        (px + tx * 0.36, py + ty * 0.36),
        (px - nx * 0.26, py - ny * 0.26),
    ]
    for shape in (arc, head):
        _unit(c, [(flip * x, y) for x, y in shape], center, size, ink)


def _phyrexian(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """The Phyrexian mark: a ring with a bar through it."""
    c.circle(
        (round(center[0]), round(center[1])),
        max(1, round(size * 0.2)),
        color,
        max(1, round(size * 0.07)),
    )
    _unit(c, ((-0.06, -0.66), (0.06, -0.66), (0.06, 0.66), (-0.06, 0.66)), center, size, color)


def _snowflake(c: Canvas, center: tuple[float, float], size: float, color: Color) -> None:
    """Snow: three bars crossing."""
    for turn in (90.0, 30.0, 150.0):
        a = math.radians(turn)
        along, side = (math.cos(a), math.sin(a)), (-math.sin(a) * 0.07, math.cos(a) * 0.07)
        bar = [
            (along[0] * r + side[0] * s, along[1] * r + side[1] * s)
            for r, s in ((-0.64, -1), (0.64, -1), (0.64, 1), (-0.64, 1))
        ]
        _unit(c, bar, center, size, color)
