"""A frame is drawn over the one before it, again only where its drawing changed
(``Canvas.frame``), and puts back the parts the last frame drew alike without drawing them
(``Canvas.part``): after every press, encoder turn and touch it must show the very pixels, and
record the very texts and touch targets, that the same frame drawn on a blank surface does."""

from __future__ import annotations

import random
from collections.abc import Callable

import pygame
import pytest

from device.commands import ChangePoison, NewGame
from device.inputs import Button
from display import canvas as canvas_module
from display import render
from display.canvas import Canvas
from display.kiosk import Kiosk
from display.ui import Back, Focus, Go, Press, ToggleHelp, Turn

from scenes import SCENES

MakeKiosk = Callable[..., Kiosk]

#: Scenes in groups, so a failure names a few; each group plays in one test.
GROUPS = 6


def drawn_afresh(kiosk: Kiosk) -> Canvas:
    """The frame the kiosk shows now, drawn on a blank surface by a canvas of its own."""
    shown = kiosk.canvas
    fresh = Canvas(
        pygame.Surface(shown.surface.get_size(), 0, shown.surface), shown.fonts, shown.layout
    )
    render.render(fresh, kiosk.state, kiosk.ui, kiosk.tr, now=kiosk.now(), wall=kiosk._wall())  # noqa: SLF001 - the kiosk's own wall clock
    return fresh


def an_action(kiosk: Kiosk, rng: random.Random) -> object:
    """What a player might do next: a button, the encoder, a touch on something the frame shows,
    the keys overlay, back."""
    roll = rng.random()
    if roll < 0.4:
        return Press(rng.choice(list(Button)), long=rng.random() < 0.15)
    if roll < 0.6:
        return Turn(rng.choice((-5, -1, 1, 2, 5)))
    if roll < 0.9 and kiosk.canvas.targets:
        target = rng.choice(kiosk.canvas.targets)
        return target.action
    return rng.choice((ToggleHelp(), Back()))


@pytest.mark.parametrize("group", range(GROUPS))
def test_every_frame_drawn_over_the_last_shows_what_a_blank_surface_shows(
    make_kiosk: MakeKiosk, group: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(canvas_module, "CHECK_PARTS", False)  # parts put back, as on the gadget
    names = sorted(SCENES)[group::GROUPS]
    for index, name in enumerate(names):
        size = ((480, 320), (800, 480), (320, 240))[index % 3]
        kiosk = make_kiosk(size, ("en", "ja", "ru", "pl")[index % 4])
        SCENES[name](kiosk)
        kiosk.redraw()
        rng = random.Random(name)
        for step in range(10):
            action = an_action(kiosk, rng)
            kiosk.dispatch(action)  # type: ignore[arg-type]
            kiosk.redraw()
            fresh = drawn_afresh(kiosk)
            shown = kiosk.canvas
            said = (name, size, step, action)
            assert pygame.image.tobytes(shown.surface, "RGB") == pygame.image.tobytes(
                fresh.surface, "RGB"
            ), said
            assert (shown.drawn, shown.targets, shown.pictures, shown.shapes) == (
                fresh.drawn,
                fresh.targets,
                fresh.pictures,
                fresh.shapes,
            ), said


def facing(count: int) -> Callable[[Kiosk], None]:
    """A Commander game of ``count`` with the seats facing their players."""

    def start(kiosk: Kiosk) -> None:
        players = ("Alice", "Юрий", "さくら", "Łukasz", "Kai", "Gia")[:count]
        kiosk.execute(
            NewGame(
                formats=("commander",),
                players=players,
                first=players[0],
                options={"seats_facing": "on"},
            )
        )
        kiosk.execute(ChangePoison(seat=1, delta=2, source=0))

    return start


ROUNDS: dict[str, Callable[[Kiosk], None]] = {
    **{
        name: SCENES[name]
        for name in (
            "table",
            "two-headed-giant",
            "necro-table",
            "pc-table",
            "upkeep-six",
            "planechase",
            "pc-art",
        )
    },
    "facing-4": facing(4),
    "facing-6": facing(6),
}


@pytest.mark.parametrize("scene", list(ROUNDS))
def test_a_part_drawn_again_under_its_key_draws_alike_through_two_rounds(
    make_kiosk: MakeKiosk, scene: str
) -> None:
    """Every seat drawn through two rounds of turns, with life (on the Planechase screen: the
    plane's counters) changed by the encoder, a change pending, then made, and the cursor moved:
    each drawing of a part under a key already
    drawn must be the same drawing (``CHECK_PARTS``: a key that leaves out what the seat shows,
    whose turn it is, a pending change, the cursor, fails here)."""
    assert canvas_module.CHECK_PARTS
    kiosk = make_kiosk((480, 320), "en")
    ROUNDS[scene](kiosk)
    kiosk.redraw()
    rng = random.Random(scene)
    state = kiosk.state
    assert state is not None
    first, turn = state.active, state.turn
    planechase = kiosk.ui.screen == "planechase"
    counted = 0
    for _ in range(60):
        if planechase:  # SELECT picks the plane's counters for the encoder, and puts them back
            kiosk.dispatch(Go("planechase"))
            actions = [
                Press(Button.SELECT),
                Turn(rng.choice((-1, 1, 2))),
                Press(Button.SELECT),
                Press(Button.NEXT),
            ]
        else:
            actions = [
                Turn(rng.choice((-2, 1, 3))),
                Focus(1),
                Press(Button.SELECT),
                Press(Button.NEXT),
            ]
        for action in actions:
            kiosk.dispatch(action)
            kiosk.redraw()
            pc = kiosk.state.planechase if kiosk.state is not None else None
            counted = max(
                [counted, *(card.counters for card in pc.face_up)] if pc is not None else [counted]
            )
        state = kiosk.state
        assert state is not None
        if state.turn >= turn + 2 * len(state.players):
            break
    assert state.turn >= turn + 2 * len(state.players) - 1, (scene, state.turn)
    assert first is not None
    assert counted or not planechase, "the plane's counters never changed"


def test_a_frame_that_fails_draws_nothing_and_the_next_draws_right(make_kiosk: MakeKiosk) -> None:
    """A screen that raises halfway through its frame leaves the surface showing the last frame,
    and the frame after it is whole."""
    kiosk = make_kiosk((480, 320), "en")
    SCENES["table"](kiosk)
    kiosk.redraw()
    before = pygame.image.tobytes(kiosk.canvas.surface, "RGB")
    canvas = kiosk.canvas
    with pytest.raises(RuntimeError), canvas.frame():
        canvas.clear((255, 0, 0))
        canvas.box((0, 0, 100, 100), (0, 255, 0))
        raise RuntimeError("a screen's fault")
    assert pygame.image.tobytes(canvas.surface, "RGB") == before
    kiosk.dispatch(Turn(3))
    kiosk.redraw()
    assert pygame.image.tobytes(canvas.surface, "RGB") == pygame.image.tobytes(
        drawn_afresh(kiosk).surface, "RGB"
    )


def test_an_uncovered_window_is_drawn_whole(make_kiosk: MakeKiosk) -> None:
    """SDL says the window was uncovered (its pixels may be lost): the next frame draws all of
    it, not only what changed."""
    kiosk = make_kiosk((480, 320), "en")
    SCENES["table"](kiosk)
    kiosk.redraw()
    kiosk.canvas.surface.fill((255, 0, 255))  # what a covered window may come back as
    kiosk.redraw()
    assert pygame.image.tobytes(kiosk.canvas.surface, "RGB") != pygame.image.tobytes(
        drawn_afresh(kiosk).surface, "RGB"
    )
    kiosk.handle_pygame(pygame.event.Event(pygame.WINDOWEXPOSED))
    kiosk.redraw()
    assert pygame.image.tobytes(kiosk.canvas.surface, "RGB") == pygame.image.tobytes(
        drawn_afresh(kiosk).surface, "RGB"
    )
