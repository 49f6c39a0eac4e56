"""HW-4: seats that face their players, for a gadget lying in the middle of the table.  The
table option ``seats_facing`` turns the far row's tiles upside down and the tiles at the ends a
quarter turn; a touch on a turned tile does what it does on an upright one, read from its
player's side; the header, the upkeep banner and the plane strip turn toward the far side while
the player whose turn it is sits there."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest
from scenes import PLAYERS, TEN, drawn
from test_table_life import click

from device.commands import ChangePoison, NewGame
from device.inputs import Button
from display.canvas import Canvas
from display.kiosk import Kiosk
from display.layout import choose
from display.screens.table import LifeStep, facing_seats, facing_turns
from display.targets import PANELS, OffscreenTarget, density
from display.ui import Press

MakeKiosk = Callable[..., Kiosk]

FACING = {"seats_facing": "on"}


def game(
    kiosk: Kiosk,
    players: tuple[str, ...],
    first: int = 0,
    formats: tuple[str, ...] = ("commander",),
) -> None:
    kiosk.execute(NewGame(formats=formats, players=players, first=players[first], options=FACING))
    kiosk.dispatch(Press(Button.NEXT))  # the main phase: no upkeep banner
    assert kiosk.state is not None and kiosk.state.options["seats_facing"] is True
    kiosk.redraw()


def centre(rect: tuple[int, int, int, int]) -> tuple[float, float]:
    return rect[0] + rect[2] / 2, rect[1] + rect[3] / 2


def test_hw4_turned_drawing_is_the_upright_drawing_turned_and_recorded_where_it_shows(
    make_kiosk: MakeKiosk,
) -> None:
    """``Canvas.turned``: what is drawn in a turned rectangle is, pixel for pixel, the same drawing
    made upright and turned; its texts and touch targets are recorded where they show."""
    kiosk = make_kiosk((480, 320), "en")
    fonts, layout = kiosk.canvas.fonts, kiosk.canvas.layout
    for turn in (90, 180, 270):
        upright = Canvas(pygame.Surface((120, 60)), fonts, layout)
        upright.clear((0, 0, 0))
        upright.text("40", (10, 5), 30, (255, 255, 255), role="t")
        upright.target((0, 0, 120, 30), "upper")
        screen = Canvas(pygame.Surface((300, 200)), fonts, layout)
        screen.clear((0, 0, 0))
        rect = (50, 20, 60, 120) if turn % 180 else (50, 20, 120, 60)
        with screen.turned(rect, turn, (0, 0, 0)) as own:
            assert own == (0, 0, 120, 60)
            screen.text("40", (10, 5), 30, (255, 255, 255), role="t")
            screen.target((0, 0, 120, 30), "upper")
        expected = pygame.transform.rotate(upright.surface, -turn)
        shown = screen.surface.subsurface(pygame.Rect(rect))
        assert all(
            shown.get_at((x, y)) == expected.get_at((x, y))
            for x in range(rect[2])
            for y in range(rect[3])
        ), turn
        (text,) = [d for d in screen.drawn if d.role == "t"]
        ink = [
            (x, y) for x in range(rect[2]) for y in range(rect[3]) if shown.get_at((x, y))[0] > 128
        ]
        assert pygame.Rect(text.rect).contains(
            pygame.Rect(
                rect[0] + min(x for x, _ in ink),
                rect[1] + min(y for _, y in ink),
                max(x for x, _ in ink) - min(x for x, _ in ink) + 1,
                max(y for _, y in ink) - min(y for _, y in ink) + 1,
            )
        ), turn
        (target,) = screen.targets
        # The tile's upper half is the half away from the screen's edge its player sits at.
        edge = {90: "left", 180: "top", 270: "right"}[turn]
        tx, ty, _, _ = target.rect
        assert {
            "left": tx == rect[0] + rect[2] // 2,
            "top": ty == rect[1] + rect[3] // 2,
            "right": tx == rect[0],
        }[edge], (turn, target.rect)


@pytest.mark.parametrize("size", [(800, 480), (480, 800)], ids=["landscape", "portrait"])
@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 10])
def test_hw4_each_seat_faces_its_side_of_the_table(
    make_kiosk: MakeKiosk, count: int, size: tuple[int, int]
) -> None:
    """The far row's names are below their totals on the screen (upside down, toward the far
    edge), the near row's above them, the ends' beside them on the side away from their edge;
    seats go round clockwise from the far row's left.  On a portrait screen the long edges are
    its sides: the rows run down them, the ends are at its top and bottom."""
    players = (PLAYERS + TEN)[:count] if count <= 4 else TEN[:count]
    kiosk = make_kiosk(size, "en")
    game(kiosk, players)
    tall = size[1] > size[0]
    turns = facing_turns(count, portrait=tall)
    for seat, turn in enumerate(turns):
        (name,) = drawn(kiosk, f"seat{seat}.name")
        (life,) = drawn(kiosk, f"seat{seat}.life")
        (nx, ny), (lx, ly) = centre(name.rect), centre(life.rect)
        if turn == 0:
            assert ny < ly, seat
        elif turn == 180:
            assert ny > ly, seat
        elif turn == 90:  # the left end: its player reads it from the left edge
            assert nx > lx, seat
        else:
            assert nx < lx, seat
        assert name.text == players[seat]
    if tall:  # the far row down the right edge, top to bottom; the near row up the left one
        far = [
            centre(drawn(kiosk, f"seat{s}.life")[0].rect)[::-1]
            for s, t in enumerate(turns)
            if t == 270
        ]
        near = [
            centre(drawn(kiosk, f"seat{s}.life")[0].rect)[::-1]
            for s, t in enumerate(turns)
            if t == 90
        ]
    else:
        far = [
            centre(drawn(kiosk, f"seat{s}.life")[0].rect) for s, t in enumerate(turns) if t == 180
        ]
        near = [
            centre(drawn(kiosk, f"seat{s}.life")[0].rect) for s, t in enumerate(turns) if t == 0
        ]
    assert far == sorted(far), "the far row runs clockwise"
    assert near == sorted(near, reverse=True), "the near row runs clockwise"


def test_hw4_a_touch_on_a_turned_seat_gains_on_its_players_upper_half(
    make_kiosk: MakeKiosk,
) -> None:
    """The far seat's upper half, as its player sees it, is the lower half on the screen: a click
    there gains a life; the left end's is its right half."""
    kiosk = make_kiosk((800, 480), "en")
    game(kiosk, PLAYERS)
    turns = facing_seats(4, (0, 0, 800, 400), 8, 0.2).turns
    far, left = turns.index(180), turns.index(90)
    for seat in (far, left):
        gain = next(t.rect for t in kiosk.canvas.targets if t.action == LifeStep(seat, 1))
        lose = next(t.rect for t in kiosk.canvas.targets if t.action == LifeStep(seat, -1))
        if seat == far:
            assert gain[1] > lose[1]
        else:
            assert gain[0] > lose[0]
        before = kiosk.state.player(seat).life
        click(kiosk, (int(centre(gain)[0]), int(centre(gain)[1])))
        kiosk.redraw()
        assert [d.text for d in drawn(kiosk, f"seat{seat}.life")] == [str(before + 1)]


def header_edge(kiosk: Kiosk) -> str:
    """Where the header's stripe in the colour of the player whose turn it is runs: "top" when
    the header is turned toward the far side, else "bottom"."""
    surface = kiosk.canvas.surface
    column = [surface.get_at((2, y))[:3] for y in range(kiosk.canvas.height // 4)]
    panel = column[len(column) // 8]
    top = column[0] != panel
    return "top" if top else "bottom"


def test_hw4_the_header_and_plane_turn_to_the_far_side_on_its_players_turns(
    make_kiosk: MakeKiosk,
) -> None:
    """The header and the plane strip are upside down on the far row's turns, upright on the
    near row's: read from the side of the player whose turn it is."""
    kiosk = make_kiosk((800, 480), "en")
    game(kiosk, PLAYERS, first=0, formats=("commander", "planechase"))
    turns = facing_seats(4, (0, 0, 800, 400), 8, 0.2).turns
    assert turns[0] == 180
    (headline,) = drawn(kiosk, "header.headline")
    (plane,) = drawn(kiosk, "table.plane")
    assert header_edge(kiosk) == "top"
    upside_down_header = headline.rect
    while turns[kiosk.state.active] != 0:
        kiosk.dispatch(Press(Button.NEXT))
        kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert header_edge(kiosk) == "bottom"
    (headline,) = drawn(kiosk, "header.headline")
    (upright_plane,) = drawn(kiosk, "table.plane")
    assert headline.rect != upside_down_header
    # The plane's name sits at the strip's left end upright, at its right end turned round.
    assert centre(plane.rect)[0] > centre(upright_plane.rect)[0]


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
def test_hw4_facing_seats_keep_four_players_totals_readable(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    """With the seats turned, four players' digits stay at least 7 mm on the 2.8-inch and 3.5-inch
    panels and 9 mm from 7 inches, badges included; the shortest picks the widest ends."""
    kiosk = make_kiosk((800, 480), "en")
    game(kiosk, PLAYERS)
    kiosk.execute(ChangePoison(seat=2, delta=3, source=1))
    kiosk.retarget(OffscreenTarget(size, diagonal=PANELS.get(size)))
    kiosk.redraw()
    per_mm = density(size)
    assert per_mm is not None and choose(*size).tiny > 0
    ink = kiosk.canvas.fonts.ink
    heights = [ink("0123456789", drawn(kiosk, f"seat{s}.life")[0].size, True)[1] for s in range(4)]
    least = 9.0 if size == (800, 480) else 7.0
    assert min(heights) / per_mm >= least, (size, heights)
