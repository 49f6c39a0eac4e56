"""Rules text and pictures of a card for the screens, when the user has imported card data (HW-3).

Card names and types ship with the gadget (``device.catalog``); rules text and pictures come from
a card-data file the user imports with ``aetherbox catalog import FILE`` or downloads with
``aetherbox catalog fetch`` (``device.cardtext``).  Screens ask :func:`rules_text`: "the rules
text of this card name, if known", and show the name and type only when the answer is ``None``;
and :func:`picture`: "this card's picture at this size, if there is one".

Text sources are tried in order: the functions in ``PROVIDERS`` (tests put sample text there),
then ``device.cardtext`` in the data directory given to :func:`configure`.  Pictures come only
from that store (:func:`card_image`: the stored file's path).

A picture is read and decoded once, when a screen first asks for it, and kept; each size a
screen asks for is scaled from it once and kept too, so a frame only blits it.  Planar cards are
printed sideways: ``landscape=True`` turns a portrait picture (Scryfall's "normal" size is
488 × 680 with the plane on its side) a quarter turn clockwise, so it reads the right way up.
A file that cannot be shown — missing, cut short, damaged, not a picture, larger than the
import allows (``device.cardtext.MAX_IMAGE``) or with more than ``MAX_PIXELS`` pixels, which
could unpack to more memory than a Pi has — is logged once and the card is shown as without a
picture.  The store never rewrites a picture in place (an import or a fetch writes a new folder),
so a picture is known by its path.
"""

from __future__ import annotations

import io
import logging
import struct
from collections.abc import Callable
from pathlib import Path

import pygame

from display.fonts import Lru

log = logging.getLogger(__name__)

Provider = Callable[[str], str | None]
PROVIDERS: list[Provider] = []

_data_dir: Path | None = None
_imported = True  # look in device.cardtext's store; off in tests that want no card data

#: The most pixels a picture may have: sixteen times a card scan's (Scryfall's largest, "png",
#: is 745 × 1040).  Decoding needs four bytes a pixel, and a small compressed file can claim a
#: picture of gigabytes.
MAX_PIXELS = 4096 * 4096
#: Decoded pictures kept (the face-up planes, a phenomenon, a few more), and scaled ones (each at
#: the sizes the Planechase screen, the upkeep banner and the table's strip draw it).
DECODED_LIMIT = 8
SCALED_LIMIT = 32

Size = tuple[int, int]
_decoded: Lru[tuple[Path, bool], pygame.Surface] = Lru(DECODED_LIMIT)
_scaled: Lru[tuple[Path, bool, Size], pygame.Surface] = Lru(SCALED_LIMIT)
_unusable: set[Path] = set()  # said once in the log; shown as no picture from then on
_generation = 0  # counts the times the card data or the pictures kept were changed or forgotten


def generation() -> int:
    """A number that changes whenever the card data's place or the pictures kept change: a
    drawing made from them is kept under it (``Canvas.part``)."""
    return _generation


def configure(data_dir: Path | None, *, imported: bool = True) -> None:
    """Where imported card data lives (the gadget's data directory); ``imported=False`` uses
    registered providers only (and shows no pictures)."""
    global _data_dir, _imported, _generation
    _data_dir = data_dir
    _imported = imported
    _generation += 1


def rules_text(name: str) -> str | None:
    """The rules text of the card called ``name`` (English, as printed), or ``None``."""
    for fn in PROVIDERS:
        found = fn(name)
        if found:
            return found
    if not _imported or _data_dir is None:
        return None
    from device import cardtext

    card = cardtext.rules_text(name, _data_dir)
    return card.text if card is not None and card.text else None


def card_image(name: str) -> Path | None:
    """The stored picture of the card called ``name``, or ``None`` when the card data has none."""
    if not _imported or _data_dir is None:
        return None
    from device import cardtext

    card = cardtext.rules_text(name, _data_dir)
    return Path(card.image) if card is not None and card.image else None


def picture_size(name: str, *, landscape: bool = False) -> Size | None:
    """The size of the card's picture as shown (turned, with ``landscape``), or ``None`` when it
    has no picture that can be shown; decodes the picture the first time."""
    path = card_image(name)
    decoded = None if path is None else _original(path, name, landscape)
    return None if decoded is None else decoded.get_size()


def picture(name: str, size: Size, *, landscape: bool = False) -> pygame.Surface | None:
    """The card's picture exactly ``size``: scaled to cover it and cropped to its middle; scaled
    once per size and kept.  ``None`` when the card has no picture that can be shown."""
    width, height = size
    path = card_image(name)
    if path is None or width <= 0 or height <= 0:
        return None
    key = (path, landscape, size)
    found = _scaled.get(key)
    if found is not None:
        return found
    original = _original(path, name, landscape)
    if original is None:
        return None
    return _scaled.put(key, _cover(original, size))


def clear_cache() -> None:
    """Forget the pictures decoded and scaled, and the files found unusable."""
    global _generation
    _generation += 1
    _decoded.clear()
    _scaled.clear()
    _unusable.clear()


def _cover(original: pygame.Surface, size: Size) -> pygame.Surface:
    width, height = size
    ow, oh = original.get_size()
    scale = max(width / ow, height / oh)
    scaled = pygame.transform.smoothscale(
        original, (max(width, round(ow * scale)), max(height, round(oh * scale)))
    )
    left, top = (scaled.get_width() - width) // 2, (scaled.get_height() - height) // 2
    return scaled.subsurface(pygame.Rect(left, top, width, height)).copy()


def _original(path: Path, name: str, landscape: bool) -> pygame.Surface | None:
    """The picture in ``path`` decoded (and turned), kept; None if it cannot be shown."""
    if path in _unusable:
        return None
    found = _decoded.get((path, landscape))
    if found is not None:
        return found
    try:
        image = _decode(path)
    except (OSError, ValueError, MemoryError, pygame.error) as error:
        _unusable.add(path)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        log.warning(
            "%s: the picture of %r cannot be shown (%s); the card is shown without it. Import or "
            "fetch the card data again to replace it.",
            path,
            name,
            reason,
        )
        return None
    if landscape and image.get_height() > image.get_width():
        image = pygame.transform.rotate(image, -90)  # a quarter turn clockwise
    return _decoded.put((path, landscape), image)


def _decode(path: Path) -> pygame.Surface:
    """The picture in ``path``, checked before it is decoded; raises ``ValueError`` (or
    ``OSError``, ``pygame.error``) saying what is wrong."""
    from device.cardtext import MAX_IMAGE, is_picture

    with path.open("rb") as file:
        data = file.read(MAX_IMAGE + 1)
    if len(data) > MAX_IMAGE:
        raise ValueError(f"larger than {MAX_IMAGE >> 20} MB")
    if not is_picture(data[:16]):
        raise ValueError("not a PNG, JPEG, WebP, GIF or BMP picture")
    size = dimensions(data)
    if size is None:
        raise ValueError("its size cannot be read: the file is damaged")
    if size[0] * size[1] > MAX_PIXELS or 0 in size:
        raise ValueError(f"{size[0]} × {size[1]} pixels, more than a card picture has")
    if data.startswith(b"\xff\xd8") and b"\xff\xd9" not in data[-1024:]:
        # A JPEG cut short decodes without an error, grey below the cut: its end marker is missing.
        raise ValueError("the file is cut short")
    image = pygame.image.load(io.BytesIO(data), path.name)
    if image.get_flags() & pygame.SRCALPHA:
        return image
    return image.convert(32)  # the screen's pixel format: blitting it is a copy


#: JPEG markers that start a frame and say its size (SOF0–SOF15 but DHT, JPG and DAC).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def dimensions(data: bytes) -> Size | None:
    """(width, height) from a PNG, JPEG, GIF, BMP or WebP file's header, read without decoding
    it; ``None`` when the header is not one of those or is damaged."""
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            return _pair(">II", data[16:24])
        if data.startswith((b"GIF87a", b"GIF89a")):
            return _pair("<HH", data[6:10])
        if data.startswith(b"BM"):
            if struct.unpack("<I", data[14:18])[0] == 12:  # the old OS/2 header
                return _pair("<HH", data[18:22])
            width, height = _pair("<ii", data[18:26])
            return abs(width), abs(height)
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp(data)
        if data.startswith(b"\xff\xd8"):
            return _jpeg(data)
    except struct.error:  # the header is cut short
        return None
    return None


def _pair(layout: str, data: bytes) -> Size:
    first, second = struct.unpack(layout, data)
    return int(first), int(second)


def _webp(data: bytes) -> Size | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":
        width, height = _pair("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = struct.unpack("<I", data[21:25])[0]
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _jpeg(data: bytes) -> Size | None:
    """The frame size from a JPEG's first SOF marker, walking the segments before it."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in _SOF:
            height, width = _pair(">HH", data[at + 5 : at + 9])
            return width, height
        if marker == 0xDA or marker == 0xD9:  # the picture data or its end, and no frame before
            return None
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers without a length
            at += 2
            continue
        at += 2 + struct.unpack(">H", data[at + 2 : at + 4])[0]
    return None
