"""Players' colours: each player has one, told apart on the seats, the messages and the upkeep.

A colour is a name from ``COLOURS`` (the screens draw each in their own shade; the console says
its name).  A new game gives each seat the colour of its place in ``COLOURS`` unless the players
chose theirs at set-up; two players never share one.  Choosing a colour another player has gives
that player yours, so every choice works at a full table of ten.  Choosing is a change like any
other (``device.rules.table`` decides it): saved, undoable, in the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from device.errors import IllegalCommand, UnknownName
from device.state import Player
from device.text import Message, Text, fold, listing

#: Every colour a player can have, in the order seats are given them: the most unlike first.
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "teal", "pink", "white", "brown")

TEXTS: dict[str, Text] = {
    "colours.unknown": "{colour!r} is not a colour here: choose one of {colours}.",
    "colours.twice": "{first} and {second} both chose {colour}: give each player a different colour.",
    "colours.count": "{count} colours for {players} players: give one colour per player, in seat order.",
    "colours.chosen": "{name}'s colour is now {colour}.",
    "colours.swapped": "{name}'s colour is now {colour}; {other} takes {previous}.",
    "colours.same": "{name}'s colour is {colour} already.",
    **{f"colour.{name}": name for name in COLOURS},
}


def by_seat(seat: int) -> str:
    """The colour a seat has unless its player chose another."""
    return COLOURS[seat % len(COLOURS)]


def colour_of(player: Player) -> str:
    """``player``'s colour (a game saved before colours existed has each seat's)."""
    return player.colour or by_seat(player.seat)


def colour_name(colour: str) -> Message:
    return Message(f"colour.{colour}")


def find_colour(text: str) -> str:
    """The colour ``text`` names (a unique start is enough: ``pu`` for purple)."""
    wanted = fold(text.strip())
    matches = [c for c in COLOURS if c == wanted]
    if not matches and wanted:
        matches = [c for c in COLOURS if c.startswith(wanted)]
    if len(matches) != 1:
        raise UnknownName(
            "colours.unknown",
            colour=text,
            colours=listing([colour_name(c) for c in COLOURS], "text.or"),
        )
    return matches[0]


def starting_colours(names: Sequence[str], chosen: Sequence[str]) -> tuple[str, ...]:
    """Each seat's colour for a new game: the ones chosen (in seat order; "" for a seat's own), the
    rest by seat.  Refuses an unknown colour and two players with one."""
    if len(chosen) > len(names):
        raise IllegalCommand("colours.count", count=len(chosen), players=len(names))
    picked = [find_colour(c) if c else "" for c in chosen] + [""] * (len(names) - len(chosen))
    taken: dict[str, int] = {}
    for seat, colour in enumerate(picked):
        if colour and taken.setdefault(colour, seat) != seat:
            raise IllegalCommand(
                "colours.twice",
                first=names[taken[colour]],
                second=names[seat],
                colour=colour_name(colour),
            )
    return filled(picked)


def filled(picked: Sequence[str]) -> tuple[str, ...]:
    """A colour for each seat of ``picked`` (its chosen colours, "" for a seat's own, none twice):
    a seat left to its own keeps it unless someone chose it, and then takes the first colour that
    is neither chosen nor another seat's own."""
    taken = {c for c in picked if c}
    kept = {
        by_seat(seat)
        for seat, colour in enumerate(picked)
        if not colour and by_seat(seat) not in taken
    }
    free = iter(c for c in COLOURS if c not in taken and c not in kept)
    return tuple(
        colour or (by_seat(seat) if by_seat(seat) in kept else next(free))
        for seat, colour in enumerate(picked)
    )


def turned(colours: Sequence[str], seat: int, steps: int) -> tuple[str, ...]:
    """``colours`` (one per seat, none twice) with ``seat``'s colour moved ``steps`` along
    ``COLOURS``; the seat that had the new colour takes the old one (the set-up's encoder)."""
    old = colours[seat]
    new = COLOURS[(COLOURS.index(old) + steps) % len(COLOURS)]
    return tuple(
        new if index == seat else old if colour == new else colour
        for index, colour in enumerate(colours)
    )
