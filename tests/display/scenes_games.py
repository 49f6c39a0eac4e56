"""Saved-games scenes, each reached through the kiosk's own inputs: the list and the encoder, UNDO
asking to delete, and the set-up after the game being played was deleted.

The games are started at fixed times (the controller's clock), and the tests' local time is
UTC (``conftest.py``), so the times the list shows are the same on every machine."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import ChangeLife, NewGame, PassTurn
from device.inputs import Button
from display.kiosk import Kiosk
from display.ui import Focus, Go, Press, Turn

#: When the first saved game was started: two days before the kiosk's wall clock (1.7e9).
SAVED_AT = 1.7e9 - 2 * 86400
#: Players in four scripts, as the other scenes seat them; ten for a title that wraps.
PLAYERS = ("Alice", "Юрий", "さくら", "Łukasz")
TEN = (*PLAYERS, "Ben", "Ольга", "はると", "Zofia", "Marek", "Ewa")


def saved(k: Kiosk) -> None:
    """Five saved games, started an hour or more apart: ten players of Commander and Planechase
    (turn 3), a finished duel, a Wizard's Duel, a Conspiracy pod and, shown, a Commander game
    in its second turn."""
    now = [SAVED_AT]
    k.controller.clock = lambda: now[0]

    def later(hours: float) -> None:
        now[0] += hours * 3600

    k.execute(NewGame(formats=("commander", "planechase"), players=TEN, first=TEN[0]))
    k.execute(PassTurn())
    k.execute(PassTurn())
    later(20)
    k.execute(NewGame(formats=("duel",), players=("Ola", "Ela"), first="Ola"))
    k.execute(ChangeLife(seat=1, delta=-20, source=0))
    later(3)
    k.execute(NewGame(formats=("wizards_duel",), players=PLAYERS[:3], first=PLAYERS[0]))
    later(1.5)
    k.execute(
        NewGame(
            formats=("conspiracy",),
            players=("Ann", "Ben", "Cy", "Dee", "Eve", "Fay"),
            first="Ann",
            options={"event": "Kyoto"},
        )
    )
    later(24)
    k.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[1]))
    k.execute(PassTurn())


def scene_games(k: Kiosk) -> None:
    """The saved games, the game being played first and green, the cursor on it at first; the
    encoder moves the cursor to the Conspiracy pod below it."""
    saved(k)
    k.dispatch(Go("games"))
    k.dispatch(Turn(1))


def scene_games_delete(k: Kiosk) -> None:
    """UNDO on the saved games: the cursor's game (the Wizard's Duel) asks to be deleted for good."""
    saved(k)
    k.dispatch(Go("games"))
    k.dispatch(Turn(2))
    k.dispatch(Press(Button.UNDO))


def scene_setup_saved(k: Kiosk) -> None:
    """The game being played deleted (UNDO twice on it): no game runs, and the set-up holds its
    players (→ to the first seat), with the chip that opens the four saved games left."""
    saved(k)
    k.dispatch(Go("games"))
    k.dispatch(Press(Button.UNDO))
    k.dispatch(Press(Button.UNDO))
    k.dispatch(Focus(5))


GAMES_SCENES: dict[str, Callable[[Kiosk], None]] = {
    "games": scene_games,
    "games-delete": scene_games_delete,
    "setup-saved": scene_setup_saved,
}
