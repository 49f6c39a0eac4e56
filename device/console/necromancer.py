"""Console commands for Necromancer (SPEC section 4): who was responsible, solo turns, minions."""

from __future__ import annotations

from device.console.core import CommandTable, Console, command
from device.rules.necromancer.play import standing, status
from device.rules.necromancer.commands import Blame, SoloTurn
from device.state import GameState, Player
from device.text import Message, Text, fold, listing


@command(
    "blame",
    "blame PLAYER KILLER|nobody",
    "Put PLAYER's latest loss down to KILLER, or to nobody (self-inflicted or unknown); the minion "
    "outcome is settled again (NC-1).",
)
def _blame(console: Console, args: list[str]) -> None:
    if len(args) != 2:
        raise console.usage("blame")
    seat = console.seat(args[0])
    responsible = None if fold(args[1]) in ("nobody", "none", "no one") else console.seat(args[1])
    console.execute(Blame(seat=seat, responsible=responsible))


@command(
    "solo",
    "solo PLAYER",
    "A minion finished one of their three solo turns apart from the game (NC-3).",
)
def _solo(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("solo")
    console.execute(SoloTurn(seat=console.seat(args[0])))


@command(
    "minions",
    "minions",
    "Masters and minions: who never died, who serves whom, the solo turns left, and who can still win "
    "(only a player who never died: NC-4, NC-6).",
)
def _minions(console: Console, args: list[str]) -> None:
    state = console.state
    for player in state.players:
        console.say(status(state, player.seat))
    console.say_outcome(state)


def _show_standing(state: GameState, player: Player) -> tuple[list[str | Message], int]:
    """``show``: whose minion (or masterless), the solo turns left; the skipped turn that holds a
    minion's seat during them is those solo turns, not a turn the table skips (NC-3)."""
    if state.necromancer is None:
        return [], 0
    parts = standing(state, player.seat)
    return ([listing(parts, "text.list")] if parts else []), int(
        state.necromancer.seat(player.seat).held
    )


TEXTS: dict[str, Text] = {}
COMMANDS = CommandTable(
    (_blame, _solo, _minions),
    show_marks=(_show_standing,),
    texts="console.necro",
    english=TEXTS,
)
TEXTS.update(COMMANDS.help_texts())
