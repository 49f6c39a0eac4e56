"""Card pictures on the kiosk (HW-3, HW-4, PC-12): the face-up plane's picture large on the
Planechase screen, small beside its name in the upkeep banner and the table's strip; decoded and
scaled once; a file that cannot be shown logged once and the card drawn as without a picture.

The pictures are drawn by ``scenes_art`` and stored with ``device.cardtext``'s own import code."""

from __future__ import annotations

import logging
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest
from scenes import LANGUAGES, SAMPLE_TEXT, SCENES, SIZES, assert_readable, drawn, texts
from scenes_art import (
    NORMAL,
    landscape_card,
    plane_art,
    play_pc_art,
    save_picture,
    sideways,
    store_cards,
    with_pictures,
)
from test_readable import ALL_SIZES, overlap

from device.rules.planechase.state import FaceUpCard, PlanarKind
from display import cardtext, theme
from display.canvas import Rect
from display.kiosk import Kiosk
from display.layout import choose
from display.screens.table import HideBanner
from display.targets import OffscreenTarget
from display.ui import Go

MakeKiosk = Callable[..., Kiosk]

#: The die panel's texts: what the picture may never cost.
DIE = ("pc.die.", "pc.cost", "pc.odds", "pc.log", "pc.visited")


@pytest.fixture(autouse=True)
def _fresh_pictures() -> Iterator[None]:
    cardtext.clear_cache()
    yield
    cardtext.clear_cache()


def frame(kiosk: Kiosk) -> bytes:
    return pygame.image.tobytes(kiosk.target.surface, "RGB")


def pictures(kiosk: Kiosk, role: str | None = None) -> list[Rect]:
    return [p.rect for p in kiosk.canvas.pictures if role is None or p.role == role]


def record(kiosk: Kiosk, prefixes: tuple[str, ...]) -> list[tuple[str, Rect, int]]:
    return [(d.text, d.rect, d.size) for d in kiosk.canvas.drawn if d.role.startswith(prefixes)]


def card_panel(kiosk: Kiosk) -> pygame.Rect:
    """Where the plane's panel is: from its name down, left of the die's panel (which starts at
    11/20 of the width)."""
    lay = kiosk.canvas.layout
    name = drawn(kiosk, "pc.plane.name")[0].rect
    return pygame.Rect(
        lay.margin,
        name[1] - lay.margin,
        kiosk.canvas.width * 11 // 20 - 2 * lay.margin,
        kiosk.canvas.height,
    )


# --- display.cardtext: the stored picture, turned, decoded once ------------------------------


def test_hw3_card_image_is_the_stored_picture(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk()
    data = with_pictures(kiosk)
    found = cardtext.card_image("tazeem")
    assert found is not None and found.is_file() and found.is_relative_to(data / "cardtext")
    assert cardtext.card_image("Agyrem") is None  # not in the card data
    cardtext.configure(data, imported=False)
    assert cardtext.card_image("Tazeem") is None


def test_hw3_a_planar_cards_picture_is_turned_to_read_landscape(make_kiosk: MakeKiosk) -> None:
    """Scryfall's planes are portrait pictures of a card on its side: a quarter turn clockwise
    puts the printed card the right way up (its sun top left), and a landscape picture stays."""
    kiosk = make_kiosk()
    with_pictures(kiosk)
    assert cardtext.picture_size("Tazeem") == NORMAL
    assert cardtext.picture_size("Tazeem", landscape=True) == NORMAL[::-1]
    upright = landscape_card(plane_art)
    turned = cardtext.picture("Tazeem", upright.get_size(), landscape=True)
    assert turned is not None and turned.get_size() == upright.get_size()
    sun = (26 + 628 // 7, 68 + 250 // 4)  # where landscape_card draws the sun
    assert turned.get_at(sun)[:3] == upright.get_at(sun)[:3] == (255, 236, 120)
    store_cards(
        kiosk.controller.journal.path.parent / "data",
        {
            "Tazeem": (
                SAMPLE_TEXT,
                save_picture(kiosk.controller.journal.path.parent / "wide.png", upright),
            )
        },
    )
    assert cardtext.picture_size("Tazeem", landscape=True) == upright.get_size()


def test_a_picture_is_decoded_once_and_scaled_once_per_size(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Frames only blit it: the file is read and decoded the first time a screen asks for it,
    and scaled once for each size it is drawn at, however many frames change."""
    loads: list[object] = []
    scales: list[tuple[int, int]] = []
    load, smoothscale = pygame.image.load, pygame.transform.smoothscale
    monkeypatch.setattr(pygame.image, "load", lambda *a: loads.append(a) or load(*a))
    monkeypatch.setattr(
        pygame.transform,
        "smoothscale",
        lambda s, size, *a: scales.append(size) or smoothscale(s, size, *a),
    )
    kiosk = make_kiosk((800, 480))
    SCENES["pc-art"](kiosk)
    from display.ui import Press
    from device.inputs import Button

    for _ in range(5):
        kiosk.redraw()
        kiosk.dispatch(Press(Button.ROLL))  # a changed frame: the die, the log, the cost
        kiosk.redraw()
        kiosk.dispatch(Press(Button.UNDO))
    first = len(scales)
    for size in ((800, 480), (1280, 720), (800, 480)):
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
    assert len(loads) == 1
    assert first == 1 and len(scales) == 2  # 800×480 once, 1280×720 once, 800×480 kept


def _png(tmp: Path) -> bytes:
    return save_picture(tmp / "good.png", sideways(landscape_card(plane_art))).read_bytes()


def _jpeg(tmp: Path) -> bytes:
    return save_picture(tmp / "good.jpg", sideways(landscape_card(plane_art))).read_bytes()


def _flipped(data: bytes, start: int, count: int = 64) -> bytes:
    return (
        data[:start] + bytes(b ^ 0xFF for b in data[start : start + count]) + data[start + count :]
    )


def _claims(width: int, height: int) -> bytes:
    """A PNG whose header (with a good checksum) claims ``width`` × ``height`` pixels."""
    ihdr = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = b"IDAT" + zlib.compress(b"\0" * 64)

    def chunk(body: bytes) -> bytes:
        return struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))

    return b"\x89PNG\r\n\x1a\n" + chunk(ihdr) + chunk(idat) + chunk(b"IEND")


DAMAGE: dict[str, Callable[[Path, Path], None]] = {
    "a PNG cut short": lambda tmp, to: to.write_bytes(_png(tmp)[: len(_png(tmp)) // 2]),
    "a JPEG cut short": lambda tmp, to: to.write_bytes(_jpeg(tmp)[: len(_jpeg(tmp)) // 2]),
    "a PNG with flipped bytes": lambda tmp, to: to.write_bytes(
        _flipped(_png(tmp), len(_png(tmp)) // 2)
    ),
    "a JPEG with flipped bytes in its header": lambda tmp, to: to.write_bytes(
        _flipped(_jpeg(tmp), 2, 40)
    ),
    "not a picture": lambda tmp, to: to.write_text("<html>Not Found</html>", encoding="utf-8"),
    "an empty file": lambda tmp, to: to.write_bytes(b""),
    "a missing file": lambda tmp, to: to.unlink(),
    "a PNG claiming 50000 × 50000 pixels": lambda tmp, to: to.write_bytes(_claims(50000, 50000)),
    "a file over the size limit": lambda tmp, to: _oversized(to),
}


def _oversized(to: Path) -> None:
    from device.cardtext import MAX_IMAGE

    with to.open("wb") as file:  # sparse: nothing is written past the signature
        file.write(b"\x89PNG\r\n\x1a\n")
        file.truncate(MAX_IMAGE + 1024)


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_hw3_a_picture_that_cannot_be_shown_is_logged_once_and_the_card_shown_without_it(
    make_kiosk: MakeKiosk,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    damage: str,
) -> None:
    """A damaged, cut-short, missing or huge picture never stops the kiosk: one warning names the
    file, and every frame is the one the card data without pictures draws (the huge ones are
    refused before anything is decoded)."""
    loads: list[object] = []
    load = pygame.image.load
    monkeypatch.setattr(pygame.image, "load", lambda *a: loads.append(a) or load(*a))
    kiosk = make_kiosk((800, 480))
    with_pictures(kiosk)
    stored = cardtext.card_image("Tazeem")
    assert stored is not None
    DAMAGE[damage](tmp_path, stored)
    with caplog.at_level(logging.WARNING, logger="display.cardtext"):
        SCENES["planechase"](kiosk)
        shown = []
        for size in SIZES:
            kiosk.retarget(OffscreenTarget(size))
            kiosk.redraw()
            kiosk.redraw()
            assert pictures(kiosk) == [], size
            shown.append(frame(kiosk))
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and str(stored) in warnings[0] and "'Tazeem'" in warnings[0], warnings
    if "claiming" in damage or "limit" in damage:
        assert loads == []
    plain = make_kiosk((800, 480))
    with_pictures(plain, pictures=False)  # the card data read from now on
    SCENES["planechase"](plain)
    for size, pixels in zip(SIZES, shown, strict=True):
        plain.retarget(OffscreenTarget(size))
        plain.redraw()
        assert frame(plain) == pixels, size


def test_hw3_flipped_bytes_in_a_jpegs_picture_data_never_stop_the_kiosk(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """A JPEG carries no checksum: with its structure whole, damage inside the picture data
    decodes to damaged pixels rather than an error; the screen is drawn either way."""
    kiosk = make_kiosk((800, 480))
    with_pictures(kiosk)
    stored = cardtext.card_image("Tazeem")
    assert stored is not None
    good = _jpeg(tmp_path)
    stored.write_bytes(_flipped(good, len(good) * 2 // 3))
    SCENES["planechase"](kiosk)
    kiosk.redraw()
    assert texts(kiosk, "pc.plane.name") == ["Tazeem"]


def test_dimensions_are_read_from_every_format_the_import_accepts(tmp_path: Path) -> None:
    """PNG, JPEG, GIF, BMP and WebP headers say their size without decoding; cut short, nothing."""
    surface = pygame.Surface((37, 23))
    for suffix in ("png", "jpg", "bmp", "tga"):
        path = tmp_path / f"p.{suffix}"
        pygame.image.save(surface, str(path))
        data = path.read_bytes()
        if suffix == "tga":
            assert cardtext.dimensions(data) is None  # not a format a card picture comes in
            continue
        assert cardtext.dimensions(data) == (37, 23), suffix
        assert cardtext.dimensions(data[:12]) is None, suffix
    assert cardtext.dimensions(b"GIF89a" + struct.pack("<HH", 37, 23)) == (37, 23)
    # WebP: the lossy frame header (size, frame tag, start code), the lossless one, the extended one.
    lossy = b"RIFF\0\0\0\0WEBPVP8 \0\0\0\0" + b"\0\0\0\x9d\x01\x2a" + struct.pack("<HH", 37, 23)
    assert cardtext.dimensions(lossy) == (37, 23)
    lossless = b"RIFF\0\0\0\0WEBPVP8L\0\0\0\0\x2f" + struct.pack("<I", 36 | (22 << 14))
    assert cardtext.dimensions(lossless) == (37, 23)
    extended = (
        b"RIFF\0\0\0\0WEBPVP8X\0\0\0\0\0\0\0\0"
        + (36).to_bytes(3, "little")
        + (22).to_bytes(3, "little")
    )
    assert cardtext.dimensions(extended) == (37, 23)


# --- the Planechase screen ------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_pc12_the_planes_picture_is_large_and_costs_nothing_the_table_acts_on(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """PC-12: with a picture the plane is shown as the web apps show it, landscape and large from
    the 7-inch panel up (half as large again as the art box without one, or more: the type line
    and counters beside it keep their size in every language); the die panel is drawn exactly
    as without it; the name, type line and counters are whole and as large; the rules text whole,
    as large as without the picture or ``medium``; nothing overlaps, and the picture stays in the
    plane's panel."""
    plain = make_kiosk(SIZES[0], language)
    text_only = with_pictures(plain, pictures=False)
    play_pc_art(plain)
    kiosk = make_kiosk(SIZES[0], language)
    data = with_pictures(kiosk)
    play_pc_art(kiosk)
    for size in ALL_SIZES:
        cardtext.configure(text_only)
        plain.retarget(OffscreenTarget(size))
        plain.redraw()
        without = {d.role: d for d in plain.canvas.drawn}
        box = art_box(plain)
        cardtext.configure(data)
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        (art,) = pictures(kiosk, "pc.plane.art")
        assert record(kiosk, DIE) == record(plain, DIE), size
        for role in ("pc.plane.name", "pc.plane.type", "pc.plane.counters"):
            (shown,) = drawn(kiosk, role)
            assert not shown.cut and shown.size >= min(without[role].size, choose(*size).medium), (
                size,
                role,
            )
        text = drawn(kiosk, "pc.plane.text")
        assert " ".join(texts(kiosk, "pc.plane.text")) == SAMPLE_TEXT
        assert text[0].size >= min(without["pc.plane.text"].size, choose(*size).medium), size
        assert art[2] > art[3] and card_panel(kiosk).contains(pygame.Rect(art)), (size, art)
        if size[1] >= 480:
            assert art[2] * art[3] >= 1.4 * box[2] * box[3], (size, art, box)
            assert abs(art[2] / art[3] - NORMAL[1] / NORMAL[0]) < 0.02, (
                size,
                art,
            )  # the whole card, uncropped
        for d in kiosk.canvas.drawn:
            assert not overlap(art, d.rect), (size, d)


def art_box(kiosk: Kiosk) -> Rect:
    """The art's box in a frame without a picture: the neutral frame's fill."""
    mask = pygame.mask.from_threshold(kiosk.target.surface, theme.ART, (1, 1, 1, 255))
    box = max(mask.get_bounding_rects(), key=lambda r: r.width * r.height)
    return (box.x, box.y, box.width, box.height)


@pytest.mark.parametrize("language", LANGUAGES)
def test_hw4_where_the_art_cannot_be_large_the_picture_takes_the_box(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """HW-4 on the 320×240 panel: the picture, whole and landscape, goes into the box the layout
    keeps for the art; every text is where it was without it."""
    plain = make_kiosk((320, 240), language)
    with_pictures(plain, pictures=False)
    play_pc_art(plain)
    plain.redraw()
    before = [(d.text, d.rect, d.size) for d in plain.canvas.drawn]
    box = pygame.Rect(art_box(plain)).inflate(2, 2)  # with the box's edge
    kiosk = make_kiosk((320, 240), language)
    with_pictures(kiosk)
    play_pc_art(kiosk)
    kiosk.redraw()
    assert [(d.text, d.rect, d.size) for d in kiosk.canvas.drawn] == before
    (art,) = pictures(kiosk, "pc.plane.art")
    assert art[2] > art[3] and box.contains(pygame.Rect(art)), (art, box)


def _two_planes(kiosk: Kiosk) -> None:
    """Spatial Merging's two planes face up, both with pictures (PC-11)."""
    state = kiosk.controller.state
    assert state is not None and state.planechase is not None
    other = FaceUpCard(name="Interplanar Tunnel", kind=PlanarKind.PLANE, owner=0)
    pc = state.planechase.model_copy(update={"face_up": (*state.planechase.face_up, other)})
    kiosk.controller.state = state.model_copy(update={"planechase": pc})


@pytest.mark.parametrize("language", ["en", "ja"])
def test_pc11_two_planes_face_up_each_show_their_picture_clear_of_the_texts(
    make_kiosk: MakeKiosk, language: str
) -> None:
    kiosk = make_kiosk(SIZES[0], language)
    SCENES["pc-art"](kiosk)
    _two_planes(kiosk)
    for size in ALL_SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        assert_readable(kiosk, size)
        arts = pictures(kiosk, "pc.plane.art")
        assert len(arts) == 2 and not overlap(arts[0], arts[1]), size
        for art in arts:
            assert art[2] > art[3], (size, art)
            assert not any(overlap(art, d.rect) for d in kiosk.canvas.drawn), size


@pytest.mark.parametrize("language", LANGUAGES)
def test_hw4_a_long_rules_text_stays_whole_beside_a_picture(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """A plane's text three times the sample's: the picture never makes it cut or tiny, and it
    is shown wherever it is without the picture (not on the 320×240 panel, where it never fits)."""
    long = " ".join([SAMPLE_TEXT] * 3)
    monkeypatch.setattr(cardtext, "PROVIDERS", [lambda name: long if name == "Tazeem" else None])
    plain = make_kiosk(SIZES[0], language)
    text_only = with_pictures(plain, pictures=False)
    play_pc_art(plain)
    kiosk = make_kiosk(SIZES[0], language)
    data = with_pictures(kiosk)
    play_pc_art(kiosk)
    for size in ALL_SIZES:
        cardtext.configure(text_only)
        plain.retarget(OffscreenTarget(size))
        plain.redraw()
        cardtext.configure(data)
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        assert_readable(kiosk, size)
        assert texts(kiosk, "pc.plane.text") == texts(plain, "pc.plane.text"), size
        assert texts(kiosk, "pc.plane.text") == ([long] if size != (320, 240) else []), size
        (art,) = pictures(kiosk, "pc.plane.art")
        assert not any(overlap(art, d.rect) for d in kiosk.canvas.drawn), size


# --- the upkeep banner and the table's strip ------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_pc3_the_upkeep_banner_shows_the_planes_picture_beside_its_name(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """Where the banner shows the plane's rules text, its picture is beside the plane's name,
    small, inside the banner and clear of every text; every text of the banner and the seats is
    as large as without it."""
    plain = make_kiosk(SIZES[0], language)
    text_only = with_pictures(plain, pictures=False)
    SCENES["upkeep-plane"](plain)
    kiosk = make_kiosk(SIZES[0], language)
    data = with_pictures(kiosk)
    SCENES["upkeep-plane"](kiosk)
    for size in ALL_SIZES:
        cardtext.configure(text_only)
        plain.retarget(OffscreenTarget(size))
        plain.redraw()
        cardtext.configure(data)
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        assert [(d.role, d.size) for d in kiosk.canvas.drawn] == [
            (d.role, d.size) for d in plain.canvas.drawn
        ], size
        shown = pictures(kiosk, "banner.plane.picture")
        if not texts(kiosk, "banner.plane.text"):
            assert shown == [], size  # no room for the plane's text (320×240): no picture either
            continue
        (thumb,) = shown
        banner = next(t.rect for t in kiosk.canvas.targets if t.action == HideBanner())
        title = drawn(kiosk, "banner.plane")[0].rect
        assert pygame.Rect(banner).contains(pygame.Rect(thumb)), size
        assert thumb[2] > thumb[3] and thumb[0] + thumb[2] <= title[0], (size, thumb, title)
        assert thumb[1] < title[1] + title[3] and title[1] < thumb[1] + thumb[3], (
            size,
            thumb,
            title,
        )  # side by side
        assert not any(overlap(thumb, d.rect) for d in kiosk.canvas.drawn), size


@pytest.mark.parametrize("language", LANGUAGES)
def test_pc3_the_tables_strip_shows_the_planes_picture_beside_its_name(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """The plane's picture beside its name, and its chaos ability beside them, whole; on the
    2.8-inch panel the ability has the room the picture would take."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES["pc-table-art"](kiosk)
    for size in ALL_SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        (name,) = drawn(kiosk, "table.plane")
        ability = drawn(kiosk, "table.plane.chaos")
        assert ability and not any(d.cut for d in ability), size
        assert " ".join(d.text for d in ability).startswith("Sample rules text"), size
        if size == (320, 240):
            assert pictures(kiosk, "table.plane.picture") == [], size
            continue
        (thumb,) = pictures(kiosk, "table.plane.picture")
        strip = next(t.rect for t in kiosk.canvas.targets if t.action == Go("planechase"))
        assert name.text == "Tazeem" and name.size == choose(*size).medium and not name.cut, size
        assert pygame.Rect(strip).contains(pygame.Rect(thumb)) and thumb[2] > thumb[3], size
        assert thumb[0] + thumb[2] <= name.rect[0], size
        assert not any(overlap(thumb, d.rect) for d in kiosk.canvas.drawn), size
