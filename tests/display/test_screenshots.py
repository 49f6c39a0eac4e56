"""Screenshots of every screen × layout × language, compared with reference images (HW-4).

Each scene is reached through the kiosk's own inputs (the controller, the journal, the reader's
events), drawn with the bundled fonts under SDL's dummy driver and compared with
``reference/<scene>-<size>-<language>.png`` with a tolerance: at most ``TOLERANCE`` of the
pixels may differ by more than ``THRESHOLD`` in a colour channel (different FreeType builds
antialias slightly differently).  On a difference the test saves reference | actual | difference
side by side and names the file.  Regenerate the references after an intended change with::

    AETHERBOX_UPDATE_SCREENSHOTS=1 python -m pytest tests/display/test_screenshots.py
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from display.kiosk import Kiosk
from display.targets import OffscreenTarget
from scenes import LANGUAGES, MORE_SIZES, SCENES, SIZES

REFERENCE = Path(__file__).parent / "reference"
THRESHOLD = 48
TOLERANCE = 0.004
UPDATE = os.environ.get("AETHERBOX_UPDATE_SCREENSHOTS") == "1"


def differing(actual: pygame.Surface, expected: pygame.Surface) -> tuple[float, pygame.Surface]:
    """The share of pixels that differ by more than ``THRESHOLD``, and a picture of them."""
    a = actual.convert(24)
    b = expected.convert(24)
    up = a.copy()
    up.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)  # max(a − b, 0)
    down = b.copy()
    down.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)  # max(b − a, 0)
    up.blit(down, (0, 0), special_flags=pygame.BLEND_RGB_ADD)  # |a − b| per channel
    same = pygame.mask.from_threshold(up, (0, 0, 0), (THRESHOLD, THRESHOLD, THRESHOLD, 255))
    total = a.get_width() * a.get_height()
    return (total - same.count()) / total, up


def side_by_side(
    expected: pygame.Surface, actual: pygame.Surface, diff: pygame.Surface
) -> pygame.Surface:
    w, h = actual.get_size()
    sheet = pygame.Surface((w * 3, h))
    sheet.blit(expected, (0, 0))
    sheet.blit(actual, (w, 0))
    sheet.blit(diff, (w * 2, 0))
    return sheet


def quantised(surface: pygame.Surface) -> pygame.Surface:
    """The frame as stored in a reference: SDL's fixed 8-bit palette (a third of the bytes of
    full colour; layout and text survive it)."""
    return surface.convert(8)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", list(SCENES))
def test_hw4_screen_matches_reference(
    scene: str,
    language: str,
    make_kiosk: Callable[..., Kiosk],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """HW-4: every screen, at every layout, in every language, looks as it did when reviewed
    (some scenes at 1920×1080 too: ``MORE_SIZES``).

    The scene is played once; the same game and screen state is then drawn at each size."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES[scene](kiosk)
    problems = []
    for size in (*SIZES, *MORE_SIZES.get(scene, ())):
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        actual = quantised(kiosk.target.surface)
        name = f"{scene}-{size[0]}x{size[1]}-{language}.png"
        reference = REFERENCE / name
        if UPDATE:
            REFERENCE.mkdir(exist_ok=True)
            pygame.image.save(actual, str(reference))
            continue
        if not reference.is_file():
            problems.append(
                f"no reference image {reference}; create it with AETHERBOX_UPDATE_SCREENSHOTS=1"
            )
            continue
        expected = pygame.image.load(str(reference))
        assert expected.get_size() == actual.get_size()
        share, diff = differing(actual, expected)
        if share > TOLERANCE:
            out = tmp_path_factory.mktemp("screenshot-diff") / name
            pygame.image.save(side_by_side(expected, actual, diff), str(out))
            problems.append(
                f"{name}: {share:.2%} of the pixels differ (allowed {TOLERANCE:.2%}); see {out}"
            )
    assert not problems, "\n".join(problems)


def test_comparison_sees_a_changed_life_total(make_kiosk: Callable[..., Kiosk]) -> None:
    """The tolerance is small enough that one changed number on screen fails the comparison."""
    kiosk = make_kiosk((800, 480), "en")
    SCENES["table"](kiosk)
    kiosk.redraw()
    before = kiosk.target.surface.copy()
    from device.commands import ChangeLife

    kiosk.execute(ChangeLife(seat=0, delta=-1))
    kiosk.ui.said = []  # only the life total differs
    kiosk.ui.error = None
    kiosk.redraw()
    share, _ = differing(kiosk.target.surface, before)
    assert share > TOLERANCE
