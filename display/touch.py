"""Where a touch lands on the picture: the panel's turn (``[display] rotate``) and a touch
calibration, for touch screens whose coordinates do not match their panel.

Three frames of reference, each with (0, 0) at the top left and (1, 1) at the bottom right:

- **device**: what the kernel's input device reports, over its axes' range (SDL's finger events);
  a mouse's position over the space it spans (``Panel.mouse_space``);
- **panel**: the panel as it is mounted, before the kiosk turns the picture;
- **canvas**: the picture the kiosk draws, upright; in pixels once scaled by its size.

Device to panel is the identity, unless the touch screen was calibrated: then an affine map
(:class:`Calibration`), which takes in a resistive panel's offsets, its scale, its axes swapped or
inverted.  Panel to canvas is the turn.  A calibration is made in the panel's frame, so it holds
whatever the turn, and it applies only where input comes from the kernel's devices (the Pi's
console); a desktop maps its own pointers.

The calibration is kept in the data directory (``touch.json``), written atomically; a file that
cannot be read is said once and ignored, never fatal.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from msgspec import Struct

from display.targets import Panel

log = logging.getLogger(__name__)

Point = tuple[float, float]

#: Where the calibration's crosses stand, on the canvas (its fractions): four corners well
#: inside the edge, where resistive panels are least linear, then the centre as a check.
TARGETS: Final[tuple[Point, ...]] = (
    (0.15, 0.15),
    (0.85, 0.15),
    (0.85, 0.85),
    (0.15, 0.85),
    (0.5, 0.5),
)
#: How far the check's touch may land from the centre's cross, as a fraction of the panel's
#: diagonal (about 4 mm on a 3.5-inch panel): farther, the touches did not agree and it is done again.
CHECK_TOLERANCE: Final = 0.045
FILE_NAME: Final = "touch.json"


def to_panel(point: Point, rotate: int) -> Point:
    """A canvas point (fractions) on the panel, for a picture turned clockwise by ``rotate``."""
    s, t = point
    if rotate == 90:
        return (1 - t, s)
    if rotate == 180:
        return (1 - s, 1 - t)
    if rotate == 270:
        return (t, 1 - s)
    return (s, t)


def to_canvas(point: Point, rotate: int) -> Point:
    """A panel point (fractions) on the canvas: :func:`to_panel` undone."""
    u, v = point
    if rotate == 90:
        return (v, 1 - u)
    if rotate == 180:
        return (1 - u, 1 - v)
    if rotate == 270:
        return (1 - v, u)
    return (u, v)


class Calibration(Struct, frozen=True):
    """The affine map from a touch device's frame to the panel's:
    ``panel = (a·x + b·y + c, d·x + e·y + f)``."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 0.0
    e: float = 1.0
    f: float = 0.0

    def __call__(self, point: Point) -> Point:
        x, y = point
        return (self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f)


class CalibrationError(ValueError):
    """The touches cannot make a calibration: too few, or in a line (the same spot touched twice)."""


def _solve3(m: Sequence[Sequence[float]], r: Sequence[float]) -> tuple[float, float, float]:
    """The solution of a 3×3 linear system (Cramer's rule); raises when it has none."""

    def det(k: Sequence[Sequence[float]]) -> float:
        return (
            k[0][0] * (k[1][1] * k[2][2] - k[1][2] * k[2][1])
            - k[0][1] * (k[1][0] * k[2][2] - k[1][2] * k[2][0])
            + k[0][2] * (k[1][0] * k[2][1] - k[1][1] * k[2][0])
        )

    whole = det(m)
    if abs(whole) < 1e-12:
        raise CalibrationError("the touches lie on one line")
    solution = []
    for column in range(3):
        replaced = [[r[row] if c == column else m[row][c] for c in range(3)] for row in range(3)]
        solution.append(det(replaced) / whole)
    return solution[0], solution[1], solution[2]


def solve(samples: Sequence[tuple[Point, Point]]) -> Calibration:
    """The calibration that best takes each sample's device point to its panel point (least
    squares over three or more samples)."""
    if len(samples) < 3:
        raise CalibrationError(f"{len(samples)} touches: a calibration needs at least 3")
    sxx = sxy = syy = sx = sy = 0.0
    rows_u = [0.0, 0.0, 0.0]
    rows_v = [0.0, 0.0, 0.0]
    for (x, y), (u, v) in samples:
        sxx, sxy, syy, sx, sy = sxx + x * x, sxy + x * y, syy + y * y, sx + x, sy + y
        for i, term in enumerate((x, y, 1.0)):
            rows_u[i] += term * u
            rows_v[i] += term * v
    normal = ((sxx, sxy, sx), (sxy, syy, sy), (sx, sy, float(len(samples))))
    a, b, c = _solve3(normal, rows_u)
    d, e, f = _solve3(normal, rows_v)
    calibration = Calibration(a, b, c, d, e, f)
    if not all(math.isfinite(v) for v in (a, b, c, d, e, f)) or abs(a * e - b * d) < 1e-6:
        raise CalibrationError("the touches do not span the panel")
    return calibration


class PointerMap(Struct, frozen=True):
    """How SDL's pointer positions on a target land on the canvas: :class:`Panel`, the
    canvas's size and the calibration in use (None: device and panel agree)."""

    panel: Panel
    canvas: tuple[int, int]
    calibration: Calibration | None = None

    def device_mouse(self, pos: tuple[int, int]) -> Point:
        """A mouse position in the device's frame (fractions of the space it spans)."""
        width, height = self.panel.mouse_space
        return (pos[0] / max(1, width), pos[1] / max(1, height))

    def on_panel(self, device: Point) -> Point:
        """A device point on the panel: calibrated where input is the kernel's own."""
        if self.calibration is not None and self.panel.console:
            return self.calibration(device)
        return device

    def canvas_pixel(self, device: Point) -> tuple[int, int]:
        """A device point as a pixel of the canvas (clamped to it)."""
        s, t = to_canvas(self.on_panel(device), self.panel.rotate)
        width, height = self.canvas
        return (min(width - 1, max(0, int(s * width))), min(height - 1, max(0, int(t * height))))

    def mouse(self, pos: tuple[int, int]) -> tuple[int, int]:
        return self.canvas_pixel(self.device_mouse(pos))

    def finger(self, x: float, y: float) -> tuple[int, int]:
        return self.canvas_pixel((x, y))


def check_error(calibration: Calibration, device: Point, rotate: int) -> float:
    """How far (a fraction of the panel's diagonal) the touch at ``device`` lands from the check's
    cross, the last of :data:`TARGETS`."""
    u, v = calibration(device)
    want_u, want_v = to_panel(TARGETS[-1], rotate)
    return math.hypot(u - want_u, v - want_v) / math.sqrt(2)


def load(directory: Path) -> Calibration | None:
    """The calibration kept in ``directory``, or None (none made, or unreadable: said once)."""
    path = directory / FILE_NAME
    try:
        data = json.loads(path.read_bytes())
        calibration = Calibration(*(float(data["map"][i]) for i in range(6)))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        log.warning(
            "touch: %s cannot be read (%s); touches are taken as the panel reports them: calibrate again",
            path,
            error,
        )
        return None
    if not all(
        math.isfinite(v)
        for v in (
            calibration.a,
            calibration.b,
            calibration.c,
            calibration.d,
            calibration.e,
            calibration.f,
        )
    ):
        log.warning(
            "touch: %s holds no usable calibration; touches are taken as the panel reports them",
            path,
        )
        return None
    return calibration


def save(directory: Path, calibration: Calibration) -> Path:
    """Keep ``calibration`` in ``directory`` (a new file put in place in one step); raises
    OSError when it cannot be written."""
    path = directory / FILE_NAME
    partial = path.with_name(path.name + ".partial")
    values = [
        calibration.a,
        calibration.b,
        calibration.c,
        calibration.d,
        calibration.e,
        calibration.f,
    ]
    directory.mkdir(parents=True, exist_ok=True)
    with open(partial, "w", encoding="utf-8") as file:
        json.dump(
            {
                "map": values,
                "note": "aetherbox touch calibration: device -> panel, x' = a x + b y + c",
            },
            file,
        )
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)
    return path
