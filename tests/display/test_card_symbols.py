"""Card symbols in rules text: Scryfall's notation ("{T}: Add {G}{G}.") is drawn as the symbols
printed on cards — measured as wide as they are drawn, never broken from what they touch, and
recorded by meaning in ``Canvas.shapes``."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.commands import NewGame
from device.inputs import Button
from display import cardtext, theme
from display.canvas import SYMBOL_MARK, Canvas, decode, encode, joiners
from display.fonts import Fonts
from display.kiosk import Kiosk
from display.layout import choose
from display.symbols import card_meaning
from display.ui import Go, Press

from scenes import scene_planechase, scene_upkeep_plane, texts
from scenes_contraptions import CT_PLAYERS

MakeKiosk = Callable[..., Kiosk]

TAZEEM = (
    "{T}: Add {G}{G}. {2}{U}, {T}: Draw a card.\n"
    "Whenever you roll {CHAOS}, untap ({Q}) target land and pay {W/U}{2/W}{G/P}."
)


@pytest.fixture
def canvas(fonts: Fonts) -> Canvas:
    return Canvas(pygame.Surface((800, 480)), fonts, choose(800, 480))


def symbols_in(c: Canvas, role: str) -> list[str]:
    return [s.name for s in c.shapes if s.role == role]


@pytest.mark.parametrize(
    ("notation", "meaning"),
    [
        ("T", "tap"),
        ("Q", "untap"),
        ("E", "energy"),
        ("CHAOS", "chaos"),
        ("PW", "planeswalker"),
        ("G", "mana:G"),
        ("C", "mana:C"),
        ("S", "mana:S"),
        ("X", "mana:X"),
        ("2", "mana:2"),
        ("20", "mana:20"),
        ("½", "mana:½"),
        ("∞", "mana:∞"),
        ("W/U", "mana:W/U"),
        ("2/W", "mana:2/W"),
        ("G/P", "mana:G/P"),
        ("W/U/P", "mana:W/U/P"),
        ("HR", "mana:HR"),
        ("TK", "symbol:TK"),
        ("A", "symbol:A"),
        ("1000000", None),
        ("name", None),
        ("Supercalif", None),
    ],
)
def test_each_notation_has_its_meaning(notation: str, meaning: str | None) -> None:
    """A short notation the kiosk does not know is still a (plain) symbol; a long one, or one
    written in lower case like a forgotten placeholder, stays text."""
    assert card_meaning(notation) == meaning


def test_a_line_of_symbols_is_measured_as_wide_as_it_is_drawn(canvas: Canvas) -> None:
    """Wrapping measures a symbol by the room it is drawn in, not by its notation's letters: a
    line exactly as wide as its words and symbols stays one line, and is drawn in that width."""
    text = "{T}: Add {G}{G}{G}{W}{U}{B}{R}{C}."
    size = 26
    width = canvas.measure(text, size)
    assert width < canvas.fonts.measure(text, size)[0]  # narrower than the notation's letters
    assert canvas.wrap(text, size, width) == [text]
    assert canvas.wrapped(text, size, width) == [text]
    assert canvas.wrapped(text, size, width - 1) is not None  # narrower: it wraps, at the space
    assert canvas.fit_paragraph(text, width, canvas.fonts.line_height(size), size) == size
    canvas.paragraph(text, (10, 20, width, 100), size, theme.TEXT, role="rules", min_size=size)
    [line] = [d for d in canvas.drawn if d.role == "rules"]
    assert line.rect[2] == width and not line.cut
    assert symbols_in(canvas, "rules") == ["tap", *(f"mana:{m}" for m in "GGGWUBRC")]
    for shape in canvas.shapes:  # each symbol inside the line, left to right, none overlapping
        x, y, w, h = shape.rect
        assert (
            10 <= x
            and x + w <= 10 + width
            and line.rect[1] <= y
            and y + h <= line.rect[1] + line.rect[3]
        )
    lefts = [s.rect[0] for s in canvas.shapes]
    assert all(b >= a + canvas.shapes[0].rect[2] for a, b in itertools.pairwise(lefts))


@pytest.mark.parametrize(
    ("text", "run"),
    [
        (
            "Pay {2}{R}{R}{R}{R}: it deals {X} damage, where {X} is the number of lands you control.",
            "{2}{R}{R}{R}{R}:",
        ),
        ("{T}: Add {G}{G}{G}{G}{G}{G}{G}{G}{G}.", "{G}{G}{G}{G}{G}{G}{G}{G}{G}."),
        (
            "{T}：あなたのマナ・プールに{G}{G}{G}{G}を加える。その後、カードを1枚引く。",
            "{G}{G}{G}{G}",
        ),
        ("{T}: Добавьте {G}{G}{G}. Каждый игрок берёт карту.", "{G}{G}{G}."),
    ],
)
def test_a_run_of_symbols_never_breaks(canvas: Canvas, text: str, run: str) -> None:
    """At every width a line breaks at a space, or between Japanese phrases, but never inside a
    run of symbols ({G}{G}, {2}{R}) nor between a symbol and the mark after it ("{T}:"); a run
    wider than the line is kept whole (the paragraph then shrinks)."""
    for width in range(40, 600, 7):
        lines = canvas.wrap(text, 19, width)
        assert (
            "".join((j or "") + line for j, line in zip(joiners(text, lines), lines, strict=True))
            == text
        )
        assert any(run in line for line in lines), (width, lines)
        if text.startswith("{T}"):
            assert lines[0].startswith(("{T}:", "{T}：")), (width, lines)
        for line in lines:
            assert line.count("{") == line.count("}"), (width, lines)
            assert not line.startswith((":", "：", ".", ",")), (width, lines)


def test_symbols_are_recorded_as_shapes_and_not_as_braces(canvas: Canvas) -> None:
    """The drawing record has each symbol as a shape by meaning, at the capitals' middle of its
    line; the text recorded holds SYMBOL_MARK where it is, and its notation in ``symbols``."""
    canvas.text("{T}: Add {G}{G}. Roll {CHAOS}.", (20, 30), 26, theme.TEXT, role="line")
    [drawn] = canvas.drawn
    assert drawn.text == f"{SYMBOL_MARK}: Add {SYMBOL_MARK}{SYMBOL_MARK}. Roll {SYMBOL_MARK}."
    assert "{" not in drawn.text and "}" not in drawn.text
    assert drawn.symbols == ("T", "G", "G", "CHAOS")
    assert drawn.written == "{T}: Add {G}{G}. Roll {CHAOS}."
    assert symbols_in(canvas, "line") == ["tap", "mana:G", "mana:G", "chaos"]
    top, height = canvas.fonts.ink("H", 26)
    middle = drawn.rect[1] + top + height / 2
    for shape in canvas.shapes:
        _, y, _, h = shape.rect
        assert abs(y + h / 2 - middle) <= 1, shape
        assert height <= h <= height * 1.3, shape  # about the capitals' height


def test_a_mana_symbol_is_a_disc_in_its_colour(canvas: Canvas) -> None:
    """Pixels: {G} is a green disc, {U} a blue one, {T} a grey one, where the record says they
    are (above the letter or arrow in them); the text's colour is not theirs."""
    canvas.surface.fill(theme.BG)
    canvas.text("Add {G}{U}, {T}.", (20, 30), 40, theme.TEXT, role="line")
    expected = {"mana:G": theme.MANA["G"], "mana:U": theme.MANA["U"], "tap": theme.MANA["generic"]}
    for shape in canvas.shapes:
        x, y, w, h = shape.rect
        found = canvas.surface.get_at((x + w // 2, y + h // 6))[:3]
        assert all(abs(a - b) <= 24 for a, b in zip(found, expected[shape.name], strict=True)), (
            shape,
            found,
        )
        assert (
            canvas.surface.get_at((x + w // 2, y - 2))[:3] == theme.BG
        )  # the disc stays in its square


def test_notations_that_are_not_symbols_stay_text(canvas: Canvas) -> None:
    """An unknown short notation is a plain disc with its letters; a long or lower-case one is
    left as it is written."""
    canvas.text("Get a {TK}, {Supercalif} and {name}.", (0, 0), 19, theme.TEXT, role="line")
    [drawn] = canvas.drawn
    assert drawn.text == f"Get a {SYMBOL_MARK}, {{Supercalif}} and {{name}}."
    assert symbols_in(canvas, "line") == ["symbol:TK"]
    own = "\ue000 {T}"  # private-use characters of its own: the text could not be put back whole
    assert encode(own) is own
    shown, _ = canvas.fit(own, 19, canvas.fonts.measure(own, 19, False)[0] - 1, min_size=19)
    assert shown.startswith("\ue000") and shown.endswith("…"), shown  # not read as a symbol


def test_a_text_cut_to_fit_keeps_its_symbols_whole(canvas: Canvas) -> None:
    """Shrunk and then cut with an ellipsis, a line loses whole symbols, never half a notation."""
    text = "Pay {W/U}{W/U}{W/U}{W/U}{W/U}{W/U}{W/U}{W/U}{W/U}{W/U} to win the game."
    for width in range(60, 400, 11):
        shown, size = canvas.fit(text, 26, width)
        assert canvas.measure(shown, size) <= width
        assert shown == text or (
            shown.endswith("…") and shown.count("{") == shown.count("}") == shown.count("/")
        ), shown
    canvas.text(text, (0, 0), 26, theme.TEXT, role="line", max_width=150)
    [drawn] = canvas.drawn
    assert drawn.cut and drawn.rect[2] <= 150 and "{" not in drawn.text


def symbol_count(text: str) -> int:
    return sum(1 for ch in encode(text) if "\ue000" <= ch <= "\uf8ff")


NOTATIONS = st.sampled_from(["{T}", "{G}", "{2}", "{W/U}", "{CHAOS}", "{TK}", "{x}", "{", "}"])
PIECES = st.one_of(
    NOTATIONS, st.sampled_from(["Add", "card", "マナ", "を", "、", "хаос", " ", " ", ":", "\n"])
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pieces=st.lists(PIECES, max_size=24), width=st.integers(min_value=20, max_value=400))
def test_wrapping_with_symbols_loses_nothing(canvas: Canvas, pieces: list[str], width: int) -> None:
    """Any text, symbols or not: encoding is undone exactly, the lines hold every character but
    the spaces they break at, no symbol is broken, and a line wider than the room has no space
    to break at."""
    text = "".join(pieces)
    assert decode(encode(text)) == text
    lines = canvas.wrap(text, 15, width)
    assert re.sub(r"\s", "", "".join(lines)) == re.sub(
        r"\s", "", text
    )  # spaces at a break are its joiner
    assert sum(symbol_count(line) for line in lines) == symbol_count(text)  # no notation broken
    for line in lines:
        if (
            canvas.measure(line, 15) > width
        ):  # only a piece no space breaks (a run of symbols) is too wide
            assert " " not in line, (width, lines)


def test_the_planechase_screen_shows_a_planes_symbols(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the kiosk: a plane whose rules text has {T}, {G}{G}, {2}{U} and {CHAOS} shows them
    as symbols on the Planechase screen, in the upkeep banner and (its chaos line) on the
    table's plane strip, at the small panel's size and the 7-inch one's."""
    monkeypatch.setattr(cardtext, "PROVIDERS", [lambda name: TAZEEM if name == "Tazeem" else None])
    for size in ((480, 320), (800, 480)):
        kiosk = make_kiosk(size, "en")
        scene_planechase(kiosk)
        kiosk.dispatch(Go("planechase"))
        kiosk.redraw()
        assert " ".join(texts(kiosk, "pc.plane.text")).replace("\n", " ") == TAZEEM.replace(
            "\n", " "
        )
        assert symbols_in(kiosk.canvas, "pc.plane.text") == [
            "tap",
            "mana:G",
            "mana:G",
            "mana:2",
            "mana:U",
            "tap",
            "chaos",
            "untap",
            "mana:W/U",
            "mana:2/W",
            "mana:G/P",
        ]
        assert not any("{" in d.text for d in kiosk.canvas.drawn)
        kiosk.dispatch(Go("table"))
        kiosk.redraw()
        assert symbols_in(kiosk.canvas, "table.plane.chaos") == [
            "chaos",
            "untap",
            "mana:W/U",
            "mana:2/W",
            "mana:G/P",
        ]

        kiosk = make_kiosk(size, "en")
        scene_upkeep_plane(kiosk)
        kiosk.redraw()
        assert symbols_in(kiosk.canvas, "banner.plane.text")[:5] == [
            "tap",
            "mana:G",
            "mana:G",
            "mana:2",
            "mana:U",
        ]
        assert not any("{" in d.text for d in kiosk.canvas.drawn)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_kiosks_own_costs_show_the_mana_symbol(make_kiosk: MakeKiosk, language: str) -> None:
    """Contraptions' paid assembly roll says its cost as cards do ("Assembly roll: {2}"): the
    heading and the ROLL chip show the generic mana symbol, and the chip keeps its one line (its
    width reckoned with the symbol's, not the notation's)."""
    kiosk = make_kiosk((800, 480), language)
    kiosk.execute(
        NewGame(
            formats=("commander", "contraptions"),
            players=CT_PLAYERS,
            first="Alice",
            options={"contraptions": "c"},
        )
    )
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.dispatch(Go("contraptions"))
    kiosk.redraw()
    assert symbols_in(kiosk.canvas, "ct.task") == ["mana:2"]
    assert symbols_in(kiosk.canvas, "ct.option") == ["mana:2"]
    [chip] = [d for d in kiosk.canvas.drawn if d.role == "ct.option" and d.symbols]
    assert chip.joiner is None and not [
        d for d in kiosk.canvas.drawn if d.role == "ct.option" and d.joiner
    ]
    assert not any("{" in d.text for d in kiosk.canvas.drawn)
