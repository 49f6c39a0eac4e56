"""Layouts for the screen sizes the gadget meets: type sizes and spacing chosen by screen size.

320×240 and 480×320 are the common SPI panels, 800×480 the official Pi touch screen and the
usual HDMI panels, 1280×720 and up HDMI screens and laptop windows.  Bigger screens scale the
1280×720 layout.  ``touch`` is the smallest height a touch target may have: 46 px is about
9 mm on the official 7-inch 800×480 panel, what a fingertip needs; the small SPI panels (2.8–3.5
inch) are mostly worked with the buttons and encoder, and get as much as their height allows.  The key facts (whose turn, life totals, the plane) use ``huge`` and ``big``
type, to be read across a table.
"""

from __future__ import annotations

import math

from msgspec import Struct
from msgspec.structs import replace

Size = tuple[int, int]


class Layout(Struct, frozen=True):
    name: str
    width: int
    height: int
    huge: int  # life totals, the die
    big: int  # whose upkeep, the plane's name
    medium: int  # player names, headings
    small: int  # details: poison, commander damage, the status line
    tiny: int  # hints
    margin: int
    bar: int  # height of the touch button bar: a touch target and a half-margin above and below
    status: int  # height of the status line
    touch: int  # the smallest touch target's height: about 9 mm of finger on the usual panel
    radius: int = 6
    line: int = 2
    #: The panel's pixels per millimetre, when its size is known (``display.targets.density``).
    density: float | None = None

    @property
    def size(self) -> Size:
        return (self.width, self.height)

    def scaled(self, width: int, height: int) -> Layout:
        """This layout stretched to a bigger screen: type grows with the smaller ratio."""
        k = min(width / self.width, height / self.height)

        def s(v: int) -> int:
            return max(1, round(v * k))

        return Layout(
            name=f"{width}x{height}",
            width=width,
            height=height,
            huge=s(self.huge),
            big=s(self.big),
            medium=s(self.medium),
            small=s(self.small),
            tiny=s(self.tiny),
            margin=s(self.margin),
            bar=s(self.bar),
            status=s(self.status),
            touch=s(self.touch),
            radius=s(self.radius),
            line=s(self.line),
        )


LAYOUTS: tuple[Layout, ...] = (
    Layout(
        "320x240",
        320,
        240,
        huge=34,
        big=22,
        medium=15,
        small=12,
        tiny=10,
        margin=4,
        bar=34,
        status=16,
        touch=30,
        radius=4,
        line=1,
    ),
    Layout(
        "480x320",
        480,
        320,
        huge=46,
        big=28,
        medium=19,
        small=14,
        tiny=12,
        margin=6,
        bar=42,
        status=20,
        touch=36,
        radius=5,
    ),
    Layout(
        "800x480",
        800,
        480,
        huge=68,
        big=40,
        medium=26,
        small=19,
        tiny=15,
        margin=8,
        bar=54,
        status=28,
        touch=46,
        radius=8,
    ),
    Layout(
        "1280x720",
        1280,
        720,
        huge=104,
        big=60,
        medium=38,
        small=27,
        tiny=21,
        margin=12,
        bar=78,
        status=40,
        touch=66,
        radius=10,
        line=3,
    ),
)


#: A fingertip: the smallest a touch target may be on a panel whose size is known.
TOUCH_MM = 9.0
#: The shortest picture that has the room for fingertip targets: on a 2.8-inch 320×240 panel a
#: 9 mm touch bar (51 px of 240) leaves the screens too little to show their words whole; it
#: keeps its layout, worked mostly with the buttons and the encoder.
FINGERTIP_HEIGHT = 300


def choose(width: int, height: int, density: float | None = None) -> Layout:
    """The layout for a screen: the biggest that fits (scaled up beyond 1280×720).  With the
    panel's ``density`` (pixels per millimetre), touch targets and the touch bar grow to
    :data:`TOUCH_MM` where the layout's own are smaller (the 3.5-inch panel, the Touch
    Display 2's 1280×720 at 8 px/mm), on pictures at least :data:`FINGERTIP_HEIGHT` tall."""
    fitting = [layout for layout in LAYOUTS if layout.width <= width and layout.height <= height]
    best = fitting[-1] if fitting else LAYOUTS[0]
    if best.size != (width, height):
        best = (
            best.scaled(width, height)
            if best is LAYOUTS[-1]
            else replace(best, name=f"{width}x{height}", width=width, height=height)
        )
    if density is not None:
        best = replace(best, density=density)
    if density is not None and height >= FINGERTIP_HEIGHT:
        touch = math.ceil(TOUCH_MM * density)
        if touch > best.touch:
            best = replace(best, touch=touch, bar=best.bar + touch - best.touch)
    return best


def parse_size(text: str) -> Size:
    """``"800x480"`` → ``(800, 480)``; raises ``ValueError`` naming the text otherwise."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        width, height = (int(p) for p in parts)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a screen size: write it as WIDTHxHEIGHT, e.g. 800x480"
        ) from None
    if not (160 <= width <= 8192 and 120 <= height <= 8192):
        raise ValueError(
            f"{text!r} is not a screen size the kiosk can use: from 160x120 to 8192x8192"
        )
    return width, height
