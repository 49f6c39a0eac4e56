"""Scenes with card pictures (HW-3): the Planechase screen, the upkeep banner and the table's
strip when the card data has a picture of the face-up plane or phenomenon.

The pictures are drawn here with pygame, as Scryfall's "normal" pictures of planar cards are:
488 × 680, the landscape card printed on its side (a quarter turn anticlockwise, so a quarter
turn clockwise reads it), with a name bar, the art (a sun top left, mountains, water) and a text
box; they are stored with ``device.cardtext``'s own import code, in a data directory beside the
kiosk's journal, so the screens find them as they would after ``aetherbox catalog fetch``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from device.cardtext import ImportReport, KnownCards, store
from device.catalog import load_catalog
from device.inputs import Button
from display import cardtext
from display.kiosk import Kiosk
from display.ui import Press, Turn

#: The size of Scryfall's "normal" picture: portrait, a planar card on its side.
NORMAL = (488, 680)
PHENOMENON_TEXT = (
    "Sample phenomenon text for the tests: reveal cards from the top of your planar deck until you "
    "reveal five planes."
)


def landscape_card(
    art: Callable[[pygame.Surface, pygame.Rect], None], size: tuple[int, int] = (680, 488)
) -> pygame.Surface:
    """A planar card as printed, the right way up: a black frame, a name bar, the art, the type
    line and a text box with lines standing in for words."""
    w, h = size
    card = pygame.Surface(size)
    card.fill((18, 18, 20))
    k = w / 680
    bar = pygame.Rect(round(26 * k), round(22 * k), round(628 * k), round(40 * k))
    pygame.draw.rect(card, (214, 204, 176), bar)
    pygame.draw.rect(
        card, (60, 50, 40), bar.inflate(-round(420 * k), -round(20 * k)).move(-round(200 * k), 0)
    )
    picture = pygame.Rect(bar.left, bar.bottom + round(6 * k), bar.width, round(250 * k))
    art(card, picture)
    type_bar = pygame.Rect(bar.left, picture.bottom + round(6 * k), bar.width, round(28 * k))
    pygame.draw.rect(card, (214, 204, 176), type_bar)
    box = pygame.Rect(
        bar.left, type_bar.bottom + round(6 * k), bar.width, h - type_bar.bottom - round(30 * k)
    )
    pygame.draw.rect(card, (236, 228, 206), box)
    for row in range(4):
        y = box.top + round((18 + row * 20) * k)
        pygame.draw.line(
            card,
            (120, 112, 100),
            (box.left + round(14 * k), y),
            (box.right - round((14 + 90 * (row % 2)) * k), y),
            max(1, round(6 * k)),
        )
    return card


def plane_art(card: pygame.Surface, rect: pygame.Rect) -> None:
    """A bright landscape: the sky, a sun top left, mountains and water (the worst ground for
    light text, which must stay readable on its band)."""
    card.fill((150, 200, 240), rect)
    pygame.draw.circle(
        card,
        (255, 236, 120),
        (rect.left + rect.width // 7, rect.top + rect.height // 4),
        rect.height // 7,
    )
    peaks = [
        (rect.left, rect.bottom - rect.height // 3),
        (rect.left + rect.width // 4, rect.top + rect.height // 3),
        (rect.left + rect.width // 2, rect.bottom - rect.height // 3),
        (rect.left + rect.width * 3 // 4, rect.top + rect.height // 5),
        (rect.right, rect.bottom - rect.height // 3),
        (rect.right, rect.bottom),
        (rect.left, rect.bottom),
    ]
    pygame.draw.polygon(card, (70, 130, 80), peaks)
    card.fill(
        (40, 90, 170),
        pygame.Rect(rect.left, rect.bottom - rect.height // 5, rect.width, rect.height // 5),
    )


def phenomenon_art(card: pygame.Surface, rect: pygame.Rect) -> None:
    """A purple swirl round the middle."""
    card.fill((40, 20, 60), rect)
    for ring in range(6, 0, -1):
        colour = (90 + ring * 25, 40 + ring * 10, 150 + ring * 15)
        pygame.draw.circle(card, colour, rect.center, rect.height * ring // 14)


def sideways(card: pygame.Surface) -> pygame.Surface:
    """The card as a portrait scan has it: a quarter turn anticlockwise."""
    return pygame.transform.rotate(card, 90)


def save_picture(path: Path, card: pygame.Surface) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(card, str(path))
    return path


def store_cards(data_dir: Path, cards: dict[str, tuple[str, Path | None]]) -> None:
    """Store rules text and pictures (``name: (text, picture)``) in ``data_dir`` the way
    ``aetherbox catalog import`` does, through its own report and store."""
    catalog = load_catalog()
    known = KnownCards(catalog)
    report = ImportReport("tests")
    for name, (text, _) in cards.items():
        found = catalog.get(name)
        assert found is not None, name
        kind = "Phenomenon" if found.kind.value == "phenomenon" else f"Plane — {found.planar_type}"
        report.take({"name": name, "type_line": kind, "oracle_text": text}, known)
    report.finish(catalog)
    store(
        report,
        {name: picture for name, (_, picture) in cards.items() if picture is not None},
        data_dir,
    )


def with_pictures(k: Kiosk, pictures: bool = True) -> Path:
    """Card data with pictures of Tazeem and Interplanar Tunnel (their text only, without
    ``pictures``), in a data directory beside the kiosk's journal, for the kiosk to read."""
    from scenes import SAMPLE_TEXT

    data = k.controller.journal.path.parent / "data"
    drawn = data.parent / "pictures"
    plane = (
        save_picture(drawn / "Tazeem.png", sideways(landscape_card(plane_art)))
        if pictures
        else None
    )
    phenomenon = (
        save_picture(drawn / "Interplanar Tunnel.png", sideways(landscape_card(phenomenon_art)))
        if pictures
        else None
    )
    store_cards(
        data, {"Tazeem": (SAMPLE_TEXT, plane), "Interplanar Tunnel": (PHENOMENON_TEXT, phenomenon)}
    )
    cardtext.configure(data)
    return data


def play_pc_art(k: Kiosk) -> None:
    """The Planechase screen after two rolls, two counters on the plane."""
    from scenes import scene_planechase

    scene_planechase(k)
    k.dispatch(Press(Button.SELECT))  # the encoder to the plane's counters,
    k.dispatch(Turn(2))  # two on it,
    k.dispatch(Press(Button.SELECT))  # and back to life


def scene_pc_art(k: Kiosk) -> None:
    """The Planechase screen with the plane's picture, two counters on it."""
    with_pictures(k)
    play_pc_art(k)


def scene_pc_art_encounter(k: Kiosk) -> None:
    """A phenomenon with its picture being encountered (PC-7)."""
    from scenes import scene_pc_encounter

    with_pictures(k)
    scene_pc_encounter(k)


def scene_upkeep_art(k: Kiosk) -> None:
    """The upkeep banner naming the plane, its picture beside the name."""
    from scenes import scene_upkeep_plane

    with_pictures(k)
    scene_upkeep_plane(k)


def scene_pc_table_art(k: Kiosk) -> None:
    """The table's strip naming the plane, its picture beside the name."""
    from scenes import scene_pc_table

    with_pictures(k)
    scene_pc_table(k)


ART_SCENES: dict[str, Callable[[Kiosk], None]] = {
    "pc-art": scene_pc_art,
    "pc-art-encounter": scene_pc_art_encounter,
    "upkeep-art": scene_upkeep_art,
    "pc-table-art": scene_pc_table_art,
}
