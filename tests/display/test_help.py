"""The keys on screen (F1, H or the KEYS button): built from the kiosk's own keys and the keys of
the screens this game has, so a screen's key cannot be missing; in every language, at every
layout, at the layout's small type, in columns and pages rather than cut or shrunk."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest

from device.commands import NewGame
from display.i18n import Translator
from display.kiosk import Kiosk
from display.kiosk.inputs import KEYS
from display.render import HELP_KEYS, HELP_LAST
from display.screens.lineup import SCREENS
from display.targets import OffscreenTarget
from display.ui import NextHelpPage
from scenes import LANGUAGES, POD, SIZES, texts

MakeKiosk = Callable[..., Kiosk]
ALL_SIZES = (*SIZES, (1920, 1080))
THREE = ("Alice", "Юрий", "さくら")


def key(k: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))


def pages(k: Kiosk) -> list[tuple[list[str], list[str]]]:
    """Every page of the keys, (keys, descriptions), turned with →."""
    seen = []
    for page in range(k.ui.help_pages):
        if page:
            key(pygame.K_RIGHT)
            k.settle()
        k.redraw()
        seen.append((texts(k, "help.key"), texts(k, "help.line")))
    return seen


def opened(k: Kiosk) -> list[str]:
    """F1, then every key listed, page by page."""
    key(pygame.K_F1)
    k.settle()
    k.redraw()
    return [shown for keys, _ in pages(k) for shown in keys]


GAMES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "commander+planechase+contraptions": (("commander", "planechase", "contraptions"), THREE),
    "necromancer": (("necromancer",), THREE),
    "conspiracy": (("conspiracy",), POD),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_every_screen_key_of_the_game_is_listed(make_kiosk: MakeKiosk, game: str) -> None:
    formats, players = GAMES[game]
    k = make_kiosk((800, 480), "en")
    k.execute(NewGame(formats=formats, players=players, first=players[0]))
    screens = {
        "commander+planechase+contraptions": ["T", "P", "C", "D", "A", "L", "S", "F2"],
        "necromancer": ["T", "M", "D", "A", "L", "S", "F2"],
        "conspiracy": ["T", "G", "D", "A", "L", "S", "F2"],
    }[game]
    assert opened(k) == [
        "Space, R",
        "Enter, N",
        "Backspace, U",
        "Y",
        "Tab",
        "Shift+Tab",
        "Shift+Space",
        "Shift+Enter",
        "Shift+U",
        "↑ ↓ + −",
        "PgUp, PgDn",
        "← →",
        *screens,
        "Esc",
        "F1, H",
        "Ctrl+Q",
    ]
    # Each screen's key is there because the screen is: the list follows SCREENS.
    assert screens == [
        scr.key.upper() for scr in SCREENS.values() if scr.key and scr.shown(k.state, k.ui)
    ]


def test_no_game_lists_the_keys_that_work_without_one(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((1280, 720), "en")
    listed = opened(k)
    assert (
        "T" in listed
        and "F2" in listed
        and "S" in listed
        and "P" not in listed
        and "C" not in listed
    )
    assert "A" not in listed


#: How the help writes each key of the kiosk's key table (display/kiosk/inputs.py ``KEYS``).
PRINTED = {
    "space": "Space",
    "r": "R",
    "return": "Enter",
    "enter": "Enter",
    "n": "N",
    "backspace": "Backspace",
    "u": "U",
    "y": "Y",
    "tab": "Tab",
    "up": "↑",
    "down": "↓",
    "+": "+",
    "=": "+",
    "[+]": "+",
    "-": "−",
    "[-]": "−",
    "page up": "PgUp",
    "page down": "PgDn",
    "left": "←",
    "right": "→",
    "escape": "Esc",
    "f1": "F1",
    "h": "H",
}


def test_every_key_of_the_key_table_is_listed() -> None:
    tr = Translator("en")
    words = {
        word for keys, _ in (*HELP_KEYS, *HELP_LAST) for word in tr(keys).replace(",", " ").split()
    }
    missing = [pygame.key.name(k) for k in KEYS if PRINTED[pygame.key.name(k)] not in words]
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_hw4_the_keys_fit_every_layout_at_small_type(make_kiosk: MakeKiosk, language: str) -> None:
    """Every page at every layout: each key once, nothing cut, the type at ``Layout.small``."""
    k = make_kiosk((800, 480), language)
    k.execute(
        NewGame(formats=("commander", "planechase", "contraptions"), players=THREE, first=THREE[0])
    )
    key(pygame.K_F1)
    k.settle()
    problems = []
    for size in ALL_SIZES:
        k.retarget(OffscreenTarget(size))
        k.ui.help_page = 0
        k.redraw()
        lay = k.canvas.layout
        listed: list[str] = []
        for page in range(k.ui.help_pages):
            if page:
                key(pygame.K_RIGHT)
                k.settle()
            k.redraw()
            listed += texts(k, "help.key")
            for d in k.canvas.drawn:
                if d.role.startswith("help.") and (d.cut or d.size < lay.tiny):
                    problems.append(f"{size}: {d.role} {d.text!r}")
                if d.role in ("help.key", "help.line") and d.size != lay.small:
                    problems.append(f"{size}: {d.role} {d.text!r} at {d.size}, not {lay.small}")
            assert (texts(k, "help.page") != []) == (k.ui.help_pages > 1)
        assert len(listed) == len(set(listed)) == 23, (size, listed)
    assert problems == []
    assert k.fonts.missing == set()


def test_the_pages_turn_with_the_encoder_and_a_tap_and_close(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((320, 240), "pl")
    k.execute(NewGame(formats=("commander", "planechase"), players=THREE, first=THREE[0]))
    key(pygame.K_h)
    k.settle()
    k.redraw()
    total = k.ui.help_pages
    assert total > 1 and texts(k, "help.page") == [f"1/{total} · → lub dotyk: dalej"]
    first = texts(k, "help.key")
    key(pygame.K_UP)  # the encoder's clockwise turn: the next page
    k.settle()
    k.redraw()
    assert (
        texts(k, "help.page") == [f"2/{total} · → lub dotyk: dalej"]
        and texts(k, "help.key") != first
    )
    key(pygame.K_LEFT)
    k.settle()
    k.redraw()
    assert texts(k, "help.key") == first
    for page in range(2, total + 1):  # a tap on the keys: the next page …
        target = next(t for t in k.canvas.targets if t.action == NextHelpPage())
        x, y, w, h = target.rect
        pygame.event.post(
            pygame.event.Event(
                pygame.MOUSEBUTTONDOWN, pos=(x + w // 2, y + h // 2), button=1, touch=False
            )
        )
        k.settle()
        k.redraw()
        assert texts(k, "help.page") == [f"{page}/{total} · → lub dotyk: dalej"]
    target = next(t for t in k.canvas.targets if t.action == NextHelpPage())
    x, y, w, h = target.rect
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEBUTTONDOWN, pos=(x + w // 2, y + h // 2), button=1, touch=False
        )
    )
    k.settle()  # … and on the last, it closes
    k.redraw()
    assert not k.ui.help and texts(k, "help.key") == []
    assert k.state is not None and k.state.turn == 1  # nothing reached the game


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_with_a_key_says_what_it_shows_in_every_language(language: str) -> None:
    from display.i18n import table

    texts_of = table(language)
    assert [
        name
        for name, scr in SCREENS.items()
        if scr.key and f"ui.help.screen.{name}" not in texts_of
    ] == []
