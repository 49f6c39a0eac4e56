"""Drawing never writes UI state (ARCHITECTURE.md: the display is a function of state): a
frame of each screenshot scene, drawn at every size, leaves the UI state as it found it, and
keeps or drops no screen's own state.  What a frame lays out that inputs need it returns, and the loop keeps."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest
from msgspec.structs import replace

from display.kiosk import Kiosk
from display.render import render
from display.targets import OffscreenTarget
from display.ui import UiState
from scenes import SCENES, SIZES


class Untouchable(dict[type, object]):
    """Screens' states that drawing may read but never keep or drop (a kept value equal to the
    one before is a write all the same)."""

    def __setitem__(self, kind: type, value: object) -> None:
        raise AssertionError(f"drawing kept a {kind.__name__}")

    def __delitem__(self, kind: type) -> None:
        raise AssertionError(f"drawing dropped the {kind.__name__}")

    def pop(self, kind: type, *default: object) -> object:
        raise AssertionError(f"drawing dropped the {kind.__name__}")


def snapshot(ui: UiState) -> UiState:
    """``ui`` as it is now, kept apart from what may change in place later (screens' own states
    are frozen values, so a copy of the mapping that holds them keeps them)."""
    return replace(
        ui,
        said=list(ui.said),
        last_change=list(ui.last_change),
        screen_states=dict(ui.screen_states),
        die=replace(ui.die) if ui.die is not None else None,
    )


def changed(before: UiState, after: UiState) -> list[str]:
    """The UI state's fields, and screens' states, that differ."""
    fields = [
        name
        for name in msgspec.structs.fields(UiState)
        if getattr(before, name.name) != getattr(after, name.name)
    ]
    return [
        *(f.name for f in fields if f.name != "screen_states"),
        *(
            kind.__name__
            for kind in {*before.screen_states, *after.screen_states}
            if before.screen_states.get(kind) != after.screen_states.get(kind)
        ),
    ]


@pytest.mark.parametrize("scene", list(SCENES))
def test_drawing_a_scene_leaves_the_ui_state_as_it_was(
    scene: str, make_kiosk: Callable[..., Kiosk]
) -> None:
    kiosk = make_kiosk(SIZES[0], "en")
    SCENES[scene](kiosk)
    for size in SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()  # the loop's own frame first: what it keeps from a frame is kept now
        before = snapshot(kiosk.ui)
        ui = replace(kiosk.ui, screen_states=Untouchable(kiosk.ui.screen_states))
        with kiosk.controller.rules.playing():
            render(kiosk.canvas, kiosk.state, ui, kiosk.tr, now=kiosk.now(), wall=kiosk.wall())
        assert changed(before, ui) == [], f"drawing {scene} at {size}"
