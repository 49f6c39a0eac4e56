"""While the kiosk waits it lays out what the next planeswalk will show (``display.rehearsal``):
the frame a planeswalk draws then finds its plane's text laid out, and nothing a player sees,
touches or is told changes while it does."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

import pygame
import pytest

from device.commands import Advance, NewGame
from device.inputs import Button
from device.rules.planechase.commands import AcknowledgePhenomenon
from display import cardtext
from display import rehearsal as rehearsal_module
from display.canvas import Canvas
from display.kiosk import Kiosk
from display.ui import Press

from planetext import planar_cards, rules_text
from scenes import PLAYERS

MakeKiosk = Callable[..., Kiosk]


@pytest.fixture
def every_plane_has_text() -> Iterator[None]:
    """Card data with rules text of its own for every plane and phenomenon."""
    planar = planar_cards()

    def provider(name: str) -> str | None:
        return rules_text(name, planar[name]) if name in planar else None

    cardtext.PROVIDERS.insert(0, provider)
    yield
    cardtext.PROVIDERS.remove(provider)


def laid_out(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts wrapped afresh (not found laid out already) from now on."""
    wrapped: list[str] = []
    wrap = Canvas._wrap

    def counting(self: Canvas, text: str, size: int, width: int, bold: bool) -> list[str]:
        wrapped.append(text)
        return wrap(self, text, size, width, bold)

    monkeypatch.setattr(Canvas, "_wrap", counting)
    return wrapped


def planechase(
    make_kiosk: MakeKiosk, size: tuple[int, int] = (800, 480), language: str = "en", **options: str
) -> Kiosk:
    kiosk = make_kiosk(size, language)
    kiosk.execute(
        NewGame(
            formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0], options=options
        )
    )
    kiosk.execute(Advance())  # the main phase: the die may be rolled
    kiosk.redraw()
    return kiosk


def roll(kiosk: Kiosk) -> str:
    """ROLL as a player presses it, the frame it shows drawn; the die's face."""
    if (
        kiosk.state is not None
        and kiosk.state.planechase is not None
        and kiosk.state.planechase.encounter
    ):
        kiosk.execute(AcknowledgePhenomenon())
        kiosk.redraw()
        kiosk.idle()
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.redraw()
    assert kiosk.ui.die is not None
    return kiosk.ui.die.face


@pytest.mark.usefixtures("every_plane_has_text")
@pytest.mark.parametrize(
    ("size", "language"), [((800, 480), "en"), ((480, 320), "ja"), ((320, 240), "ru")]
)
def test_a_planeswalk_frame_finds_its_plane_text_laid_out(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], language: str
) -> None:
    kiosk = planechase(make_kiosk, size, language)
    walks = 0
    for _ in range(60):
        kiosk.idle()  # the frame is up and nothing waits
        wrapped = laid_out(monkeypatch)
        before = [card.name for card in kiosk.state.planechase.face_up]
        face = roll(kiosk)
        monkeypatch.undo()
        if face != "planeswalk":
            continue
        walks += 1
        shown = [card.name for card in kiosk.state.planechase.face_up]
        assert shown != before
        texts = {cardtext.rules_text(name) for name in shown}
        assert not texts & set(wrapped), f"{shown} laid out at the planeswalk's frame"
    assert walks >= 5


@pytest.mark.usefixtures("every_plane_has_text")
def test_laying_out_aside_changes_nothing_anyone_sees(make_kiosk: MakeKiosk) -> None:
    kiosk = planechase(make_kiosk)
    roll(kiosk)
    canvas = kiosk.canvas
    picture = pygame.image.tobytes(canvas.surface, "RGB")
    record = (list(canvas.drawn), list(canvas.targets), list(canvas.pictures), list(canvas.shapes))
    status = (kiosk.ui.screen, kiosk.ui.status_seen, kiosk.ui.status_pages, kiosk.ui.die)
    frames = kiosk.frames
    drawn = kiosk.rehearsal.drawn
    game = (kiosk.state, len(kiosk.controller.journal.history(kiosk.game)))
    assert kiosk.idle() is False
    assert kiosk.rehearsal.drawn > drawn  # it did draw aside
    assert pygame.image.tobytes(canvas.surface, "RGB") == picture
    assert (canvas.drawn, canvas.targets, canvas.pictures, canvas.shapes) == record
    assert (kiosk.ui.screen, kiosk.ui.status_seen, kiosk.ui.status_pages, kiosk.ui.die) == status
    assert kiosk.frames == frames and not kiosk.dirty
    assert (kiosk.state, len(kiosk.controller.journal.history(kiosk.game))) == game  # nothing kept


@pytest.mark.usefixtures("every_plane_has_text")
def test_an_idle_kiosk_lays_out_the_next_plane_once(make_kiosk: MakeKiosk) -> None:
    kiosk = planechase(make_kiosk)
    kiosk.idle()
    drawn = kiosk.rehearsal.drawn
    for _ in range(5):
        kiosk.idle()
    assert kiosk.rehearsal.drawn == drawn
    while roll(kiosk) != "planeswalk":
        kiosk.idle()
        drawn = kiosk.rehearsal.drawn
    kiosk.idle()
    assert kiosk.rehearsal.drawn > drawn  # a new next plane


@pytest.mark.usefixtures("every_plane_has_text")
def test_an_unlisted_physical_deck_has_no_next_plane_to_lay_out(make_kiosk: MakeKiosk) -> None:
    kiosk = planechase(make_kiosk, planar_deck="physical")
    kiosk.idle()
    assert kiosk.rehearsal.drawn == 0


@pytest.mark.usefixtures("every_plane_has_text")
def test_a_frame_that_cannot_be_drawn_aside_leaves_the_kiosk_playing(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    kiosk = planechase(make_kiosk)

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a screen that cannot draw this state")

    monkeypatch.setattr(rehearsal_module.render_module, "render", broken)
    with caplog.at_level(logging.WARNING):
        assert kiosk.idle() is False
    assert "next planeswalk" in caplog.text
    monkeypatch.undo()
    roll(kiosk)
    assert kiosk.frames >= 1
