"""The game clock and the turn timer on the table, each scene reached through the kiosk's own
inputs (NEXT, UNDO held, the controller's commands) at times the scene chooses: the controller's
wall clock is set before each command, and the kiosk's stays at ``WALL``."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import ChangeLife, ChangePoison, DealCommanderDamage, NewGame, ReverseTurnOrder
from device.inputs import Button
from display.kiosk import Kiosk
from display.ui import Press

#: Four players in four scripts, as the other scenes seat them.
CLOCK_PLAYERS = ("Alice", "Юрий", "さくら", "Łukasz")
#: The kiosk's wall clock in the scenes (``make_kiosk``'s).
WALL = 1.7e9


def at(k: Kiosk, before: float) -> None:
    """The controller's wall clock ``before`` seconds before the kiosk's: what the next
    commands carry."""
    k.controller.clock = lambda: WALL - before


def game(k: Kiosk, turn_passed: float) -> None:
    """A Commander game with a 90-second turn timer, started 1:05:30 before the kiosk's clock;
    Юрий's turn began ``turn_passed`` seconds before it and is in its main phase."""
    at(k, 65 * 60 + 30)
    k.execute(
        NewGame(
            formats=("commander",),
            players=CLOCK_PLAYERS,
            first=CLOCK_PLAYERS[0],
            options={"turn_timer": "90"},
        )
    )
    k.execute(ChangeLife(seat=2, delta=-6, source=0))
    k.execute(DealCommanderDamage(seat=3, source=0, amount=5))
    k.execute(ChangePoison(seat=0, delta=2, source=3))
    at(k, turn_passed)
    for _ in range(3):  # Alice's main phase, Юрий's upkeep, then his main phase
        k.dispatch(Press(Button.NEXT))


def scene_clock(k: Kiosk) -> None:
    """1:05 played; Юрий's turn has 42 of its 90 seconds left."""
    game(k, 48)


def scene_clock_paused(k: Kiosk) -> None:
    """A break at the table: UNDO held pauses the game clock (two bars) and the turn timer (its
    time dimmed), with the turn order reversed beside it in the header."""
    game(k, 48)
    at(k, 30)
    k.execute(ReverseTurnOrder())
    at(k, 20)
    k.dispatch(Press(Button.UNDO, long=True))


def scene_clock_up(k: Kiosk) -> None:
    """Юрий's 90 seconds ran out ten seconds ago: the header says time is up, in red, and the
    status line says whose; the turn goes on until the table passes it."""
    game(k, 100)
    k.settle()  # the loop notices the time is up


CLOCK_SCENES: dict[str, Callable[[Kiosk], None]] = {
    "clock": scene_clock,
    "clock-paused": scene_clock_paused,
    "clock-up": scene_clock_up,
}
