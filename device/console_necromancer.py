"""Console commands for Necromancer (SPEC section 4): who was responsible, solo turns, minions."""

from __future__ import annotations

from device.console import Console, _usage, command
from device.text import fold
from device.rules.necromancer import Blame, SoloTurn, status


@command(
    "blame",
    "blame PLAYER KILLER|nobody",
    "Put PLAYER's latest loss down to KILLER, or to nobody (self-inflicted or unknown); the minion "
    "outcome is settled again (NC-1).",
)
def _blame(console: Console, args: list[str]) -> None:
    if len(args) != 2:
        raise _usage("blame")
    seat = console.seat(args[0])
    responsible = None if fold(args[1]) in ("nobody", "none", "no one") else console.seat(args[1])
    console.execute(Blame(seat=seat, responsible=responsible))


@command("solo", "solo PLAYER", "A minion finished one of their three solo turns apart from the game (NC-3).")
def _solo(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise _usage("solo")
    console.execute(SoloTurn(seat=console.seat(args[0])))


@command("minions", "minions", "Masters and minions: who never died, who serves whom, who can still win (NC-4).")
def _minions(console: Console, args: list[str]) -> None:
    state = console.state
    for player in state.players:
        console.say(status(state, player.seat))
