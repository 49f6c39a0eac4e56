"""PC-3 at the table: after ROLL the die's result shows on the Planechase screen, then the table,
with the life totals, comes back by itself — unless the roll left something to answer there or a
player went on using the screen.  Driven through the kiosk's loop with its own clock."""

from __future__ import annotations

from collections.abc import Callable

from conftest import CLOCK
from scenes import SCENES

from device.inputs import Button, ButtonPressed
from display.kiosk import Kiosk
from display.screens.planechase import RESULT_SHOWN, TUMBLE, settled
from display.ui import Go, Press

MakeKiosk = Callable[..., Kiosk]


def rolled(make_kiosk: MakeKiosk, now: list[float]) -> Kiosk:
    """The main phase on the table, then ROLL pressed, as a player does; a result that asks
    nothing more (the kiosk's seeded die)."""
    kiosk = make_kiosk((480, 320), "en", clock=lambda: now[0])
    SCENES["pc-start"](kiosk)
    kiosk.dispatch(Go("table"))
    kiosk.step(block=False)
    kiosk.inputs.put(ButtonPressed(Button.ROLL))
    kiosk.step(block=False)
    assert (
        kiosk.state is not None
        and kiosk.state.planechase is not None
        and kiosk.state.planechase.rolls
    )
    assert settled(kiosk.state), kiosk.state.planechase
    assert kiosk.ui.screen == "planechase"
    return kiosk


def test_pc3_the_table_comes_back_after_the_result_was_shown(make_kiosk: MakeKiosk) -> None:
    now = [CLOCK]
    kiosk = rolled(make_kiosk, now)
    back = CLOCK + TUMBLE + RESULT_SHOWN
    assert (
        kiosk.deadline() is not None and kiosk.deadline() <= back
    )  # the loop wakes for it: no polling
    now[0] = back - 0.01
    kiosk.step(block=False)
    assert kiosk.ui.screen == "planechase"
    now[0] = back
    assert kiosk.deadline() == back
    kiosk.step(block=False)
    assert kiosk.ui.screen == "table"
    assert (
        len([d for d in kiosk.canvas.drawn if d.role.endswith(".life")]) == 4
    )  # the totals are back
    assert kiosk.deadline() is None or kiosk.deadline() > back  # and nothing more is due for it


def test_pc3_a_player_using_the_planechase_screen_keeps_it(make_kiosk: MakeKiosk) -> None:
    now = [CLOCK]
    kiosk = rolled(make_kiosk, now)
    now[0] = CLOCK + 2
    kiosk.dispatch(Press(Button.SELECT))
    now[0] = CLOCK + TUMBLE + RESULT_SHOWN + 30
    kiosk.step(block=False)
    assert kiosk.ui.screen == "planechase"
