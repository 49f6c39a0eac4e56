"""Colours: light type on a dark table, one accent for "your turn", red only for trouble."""

from __future__ import annotations

BG = (16, 18, 26)
PANEL = (34, 38, 54)
PANEL_HI = (48, 54, 76)
ACTIVE = (28, 96, 64)
ACTIVE_EDGE = (90, 220, 140)
CURSOR = (250, 200, 60)
TEXT = (236, 236, 242)
DIM = (150, 156, 174)
FAINT = (96, 100, 116)
ERROR = (240, 90, 84)
ERROR_BG = (70, 22, 24)
WARN = (250, 180, 70)
LOST_BG = (30, 30, 34)
BANNER = (22, 60, 44)
ART = (26, 29, 42)  # an art box with no art yet
BADGE = (18, 20, 30)  # under a counter's number on a seat tile
BUTTON = (52, 58, 82)
BUTTON_HI = (70, 110, 170)
CHAOS = (200, 90, 220)
WALK = (90, 170, 250)

#: The mana symbols in rules text, in the colours printed symbols have (pale discs that read on
#: the dark table, dark type on them); black is the one dark disc, so it has a light rim.
#: "generic" is a number's, X's and the tap symbol's grey; "symbol" a notation the kiosk does not
#: know, drawn as a plain disc with its letters.
MANA = {
    "W": (248, 238, 196),
    "U": (150, 206, 246),
    "B": (58, 50, 54),
    "R": (246, 152, 120),
    "G": (132, 204, 150),
    "C": (206, 198, 194),
    "generic": (196, 190, 186),
    "symbol": (96, 100, 116),
}
MANA_RIM = (206, 198, 194)  # round the black disc and the untap symbol's

#: Each player colour's shade (device.rules.colours.COLOURS): bright enough to tell apart on the
#: dark table and from the cursor's and the active seat's edges, which are drawn round them.
PLAYER = {
    "red": (232, 72, 72),
    "blue": (66, 126, 240),
    "green": (64, 184, 88),
    "yellow": (236, 208, 64),
    "purple": (160, 100, 232),
    "orange": (244, 138, 48),
    "teal": (40, 188, 188),
    "pink": (240, 112, 184),
    "white": (236, 236, 236),
    "brown": (168, 110, 64),
}


def shade(colour: str) -> tuple[int, int, int]:
    """The shade of a player colour's name (an unknown name, from a newer journal: the text's)."""
    return PLAYER.get(colour, TEXT)


def _luminance(color: tuple[int, int, int]) -> float:
    """Relative luminance, as contrast ratios are reckoned (WCAG 2)."""
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in color]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ink_on(color: tuple[int, int, int]) -> tuple[int, int, int]:
    """Type that reads on ``color``: the table's dark or light type, whichever contrasts more."""
    back = _luminance(color) + 0.05
    dark, light = _luminance(BG) + 0.05, _luminance(TEXT) + 0.05
    return BG if back / dark >= light / back else TEXT


def faded(
    color: tuple[int, int, int], into: tuple[int, int, int], keep: float
) -> tuple[int, int, int]:
    """``color`` mixed into ``into``, ``keep`` of it kept (a player who left: their colour faded)."""
    r, g, b = (round(c * keep + d * (1 - keep)) for c, d in zip(color, into, strict=True))
    return r, g, b
