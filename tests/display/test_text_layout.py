"""Text layout that costs what the text is long: a paragraph is wrapped with a few measurements a
line (not one a word on an ever longer line), and the size that fits a box is found in a few
tries (not one a size).  The lines and sizes are the ones a word-by-word layout gives."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display import canvas as canvas_module
from display.canvas import Canvas, _no_orphan, _phrases, _tokens, _words, encode, decode
from display.fonts import Fonts
from display.layout import choose

from planetext import rules_text

WORDS = (
    "Whenever",
    "you",
    "roll",
    "{CHAOS},",
    "untap",
    "all",
    "creatures.",
    "{T}:",
    "Add",
    "{G}{G}.",
    "Phyrexian",
    "{2/W}",
    "counter",
    "Юрий",
    "получает",
    "2",
    "жизни.",
    "Łukasz",
    "żetony",
    "さくらのアップキープ",
    "統率者ダメージを受けた",
    "（注）",
    "ダイス：1。",
    "Sixteencharacters",
    "Antidisestablishmentarianism",
    "—",
    "a",
    "+1/+1",
)


@pytest.fixture(scope="module")
def canvas() -> Iterator[Canvas]:
    pygame.display.init()
    yield Canvas(pygame.Surface((800, 480)), Fonts(system=False), choose(800, 480))


def word_by_word(c: Canvas, text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """Each piece joins the line if the line with it fits, else starts the next line (a piece
    wider than a line broken into its parts first): the layout the wrapping must match."""
    coded = encode(text)

    def measure(line: str) -> int:
        return c.measure(decode(line), size, bold=bold)

    lines: list[str] = []
    for paragraph in coded.split("\n"):
        start = len(lines)
        current = ""
        pieces = list(reversed(_phrases(paragraph)))
        while pieces:
            joiner, token = pieces.pop()
            if current and measure(f"{current}{joiner}{token}") <= width:
                current = f"{current}{joiner}{token}"
                continue
            parts = _words(token) if len(token) > 1 and measure(token) > width else []
            if len(parts) == 1:
                parts = _tokens(token)
            if len(parts) > 1:
                parts[0] = (joiner, parts[0][1])
                pieces.extend(reversed(parts))
                continue
            if current:
                lines.append(current)
            current = token
        lines.append(current)
        if len(lines) - start >= 2:
            lines[-2:] = _no_orphan(lines[-2], lines[-1])
    return [decode(line) for line in lines]


texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=40).flatmap(
    lambda words: st.lists(
        st.sampled_from((" ", " ", " ", "", "\n")), min_size=len(words), max_size=len(words)
    ).map(lambda gaps: "".join(w + g for w, g in zip(words, gaps, strict=True)).strip(" "))
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=texts, size=st.integers(8, 60), width=st.integers(12, 600), bold=st.booleans())
def test_lines_are_those_a_word_by_word_layout_gives(
    canvas: Canvas, text: str, size: int, width: int, bold: bool
) -> None:
    assert canvas.wrap(text, size, width, bold=bold) == word_by_word(
        canvas, text, size, width, bold
    )


@pytest.mark.parametrize(
    "name", ["Tazeem", "Chaotic Aether", "Sokenzan", "Naya", "Stairs to Infinity"]
)
@pytest.mark.parametrize("width", [90, 180, 300, 520])
def test_a_plane_text_wraps_as_word_by_word(canvas: Canvas, name: str, width: int) -> None:
    text = rules_text(name)
    for size in (9, 14, 19, 26):
        assert canvas.wrap(text, size, width) == word_by_word(canvas, text, size, width)


def characters_measured(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A counter of the characters measured afresh (not found in the cache) from now on."""
    counted = [0]
    width = Fonts._width

    def counting(self: Fonts, font: pygame.freetype.Font, run: str, size: int) -> int:
        counted[0] += len(run)
        return width(self, font, run, size)

    monkeypatch.setattr(Fonts, "_width", counting)
    return counted


SCRIPTS = {
    "en": "whenever you roll {CHAOS} untap all creatures you control, each player draws a card and scries 2.".split(),
    "ru": "когда вы бросаете кубик каждый игрок берёт карту, получает 2 жизни и теряет жетон яда.".split(),
    "ja": [
        "さくらの",
        "アップキープに",
        "統率者ダメージを",
        "受けた",
        "プレイヤーは",
        "カードを",
        "引く。",
        "次元を",
        "移動する。",
    ],
}


@pytest.mark.parametrize("script", SCRIPTS)
def test_wrapping_measures_a_long_paragraph_a_few_times_over(
    monkeypatch: pytest.MonkeyPatch, script: str
) -> None:
    """Four times the text costs about four times the measuring, not sixteen: each character is
    measured a few times (in its piece, in its line and with the next piece), however long the
    line it is on."""
    pygame.display.init()
    rng = random.Random(5)
    joiner = "" if script == "ja" else " "
    costs = []
    for words in (40, 160):
        c = Canvas(pygame.Surface((800, 480)), Fonts(system=False), choose(800, 480))
        text = joiner.join(rng.choice(SCRIPTS[script]) for _ in range(words))
        counted = characters_measured(monkeypatch)
        c.wrap(text, 16, 700)
        costs.append(counted[0] / len(text))
        monkeypatch.undo()
    assert costs[1] < 3, f"{costs[1]:.1f} measurements a character"
    assert costs[1] < costs[0] * 1.6, costs


def largest_by_scan(
    c: Canvas, text: str, width: int, height: int, size: int, floor: int
) -> int | None:
    for current in range(size, floor - 1, -1):
        lines = c.wrapped(text, current, width)
        if lines is not None and len(lines) * c.fonts.line_height(current) <= height:
            return current
    return None


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=texts, width=st.integers(20, 500), height=st.integers(10, 300), size=st.integers(8, 60))
def test_the_size_found_fits_and_one_larger_does_not(
    canvas: Canvas, text: str, width: int, height: int, size: int
) -> None:
    floor = min(size, canvas.layout.tiny)

    def fits(current: int) -> bool:
        lines = canvas.wrapped(text, current, width)
        return lines is not None and len(lines) * canvas.fonts.line_height(current) <= height

    found = canvas.fit_paragraph(text, width, height, size, min_size=floor)
    if found is None:
        assert not fits(floor)
    else:
        assert floor <= found <= size and fits(found)
        assert found == size or not fits(found + 1)


@pytest.mark.parametrize(
    "name", ["Tazeem", "Chaotic Aether", "Sokenzan", "Naya", "Stairs to Infinity"]
)
@pytest.mark.parametrize("box", [(120, 90), (220, 150), (360, 120), (480, 300), (900, 500)])
def test_a_plane_text_gets_the_size_a_scan_from_the_largest_finds(
    canvas: Canvas, name: str, box: tuple[int, int]
) -> None:
    text = rules_text(name)
    floor = canvas.layout.tiny
    assert canvas.fit_paragraph(text, *box, 60, min_size=floor) == largest_by_scan(
        canvas, text, *box, 60, floor
    )


def test_no_size_fits_below_a_floor_above_the_largest(canvas: Canvas) -> None:
    assert canvas.fit_paragraph("Tazeem", 400, 400, 12, min_size=14) is None
    assert canvas.fit_paragraph("Tazeem", 400, 400, 14, min_size=14) == 14


def test_the_size_is_found_in_a_few_wraps(monkeypatch: pytest.MonkeyPatch) -> None:
    """A size found by trying every size from the largest down wraps the text once a size; the
    guess from the text's length and the room, then doubling steps and halving, a handful."""
    pygame.display.init()
    c = Canvas(pygame.Surface((800, 480)), Fonts(system=False), choose(800, 480))
    tries: list[int] = []
    wrap: Callable[..., list[str]] = Canvas._wrap

    def counting(self: Canvas, text: str, size: int, width: int, bold: bool) -> list[str]:
        tries.append(size)
        return wrap(self, text, size, width, bold)

    monkeypatch.setattr(Canvas, "_wrap", counting)
    for name in ("Tazeem", "Naya", "Sokenzan", "Chaotic Aether", "Stairs to Infinity", "Agyrem"):
        tries.clear()
        assert c.fit_paragraph(rules_text(name), 300, 160, 80, min_size=8) is not None
        assert len(tries) <= 5, tries
    assert (
        canvas_module._GUESS_SIZE > 20
    )  # guesses are measured at a size where hinting moves little
