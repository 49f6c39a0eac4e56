"""Console commands for dice and coin, in any game: ``d6``, ``d20``, ``throw 3d8``, ``coin`` and
``random`` (a player picked at random).  Each is a change like any other: saved, undoable, in the
log.  (Wizard's Duel's ``dice`` rolls its element dice, so the general roll is ``throw``.)"""

from __future__ import annotations

import re

from device.console.core import CommandTable, Console, command, number
from device.errors import IllegalCommand
from device.rules.dice import FlipCoin, PickPlayer, RollDice
from device.text import Text

TEXTS: dict[str, Text] = {
    "console.dice.notation": "{text!r} is not dice: write how many and their sides, e.g. 2d6, d20 or 3d8.",
}

_NOTATION = re.compile(r"(\d*)d(\d+)")


def _roll(console: Console, args: list[str], sides: int, name: str) -> None:
    """``dN [COUNT] [PLAYER]``: COUNT dice of ``sides`` sides, rolled by PLAYER (or the table)."""
    count = 1
    if args and args[0].lstrip("+-").isdigit():
        count = number(args[0])
        args = args[1:]
    if len(args) > 1:
        raise console.usage(name)
    seat = console.seat(args[0]) if args else None
    console.execute(RollDice(count=count, sides=sides, seat=seat))


@command(
    "d6", "d6 [N] [PLAYER]", "Roll a six-sided die, or N of them (1 to 10); PLAYER is who rolls."
)
def _d6(console: Console, args: list[str]) -> None:
    _roll(console, args, 6, "d6")


@command(
    "d20",
    "d20 [N] [PLAYER]",
    "Roll a twenty-sided die, or N of them (1 to 10); PLAYER is who rolls.",
)
def _d20(console: Console, args: list[str]) -> None:
    _roll(console, args, 20, "d20")


@command(
    "throw",
    "throw NdM [PLAYER]",
    "Roll N dice of M sides (2d6, d8, 3d10, d100: 1 to 10 dice of 2 to 100 sides); PLAYER is who rolls.",
)
def _throw(console: Console, args: list[str]) -> None:
    if len(args) not in (1, 2):
        raise console.usage("throw")
    found = _NOTATION.fullmatch(args[0].casefold())
    if found is None:
        raise IllegalCommand("console.dice.notation", text=args[0])
    count = int(found[1]) if found[1] else 1
    seat = console.seat(args[1]) if len(args) == 2 else None
    console.execute(RollDice(count=count, sides=int(found[2]), seat=seat))


@command("coin", "coin [PLAYER]", "Flip a coin: heads or tails; PLAYER is who flips.")
def _coin(console: Console, args: list[str]) -> None:
    if len(args) > 1:
        raise console.usage("coin")
    console.execute(FlipCoin(seat=console.seat(args[0]) if args else None))


@command("random", "random", "Pick one of the players still in the game at random.")
def _random(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("random")
    console.execute(PickPlayer())


COMMANDS = CommandTable((_d6, _d20, _throw, _coin, _random), texts="console.dice", english=TEXTS)
TEXTS.update(COMMANDS.help_texts())
