"""Dice and coin, in any game: their part of the state.

The table's last throws, newest last: dice with every face, a coin's side, a player picked at
random, and the game's own draw of its starting player (TB-5), which ``game_started`` holds and
the state keeps as the first throw, so the screen shows it like any other.  Only the last
``KEPT`` throws are kept (the log has every one); ``count`` numbers them by their place in the
game.
"""

import enum

from device.models import Model

KEPT = 12  # throws the state keeps: more than any screen lists


class ThrowKind(enum.StrEnum):
    DICE = "dice"  # one or more dice of ``sides`` sides
    COIN = "coin"
    PLAYER = "player"  # a player picked at random among those still in the game


class Throw(Model):
    """One throw and its result.  ``seat`` is who threw (None: the table); for a player picked,
    ``picked`` is their seat."""

    number: int  # its place among the game's throws, from 1
    kind: ThrowKind
    seat: int | None = None
    sides: int = 0  # dice: the sides of each die
    faces: tuple[int, ...] = ()  # dice: what each die shows
    heads: bool | None = None  # coin
    picked: int | None = None  # player
    first: bool = False  # the game's draw of its starting player (TB-5)

    @property
    def total(self) -> int:
        return sum(self.faces)


class DiceState(Model):
    count: int = 0  # throws made this game
    throws: tuple[Throw, ...] = ()  # the last ``KEPT``, newest last

    @property
    def last(self) -> Throw | None:
        return self.throws[-1] if self.throws else None

    def adding(self, throw: Throw) -> "DiceState":
        """This state with ``throw`` made (numbered next), the oldest dropped beyond ``KEPT``."""
        numbered = throw.model_copy(update={"number": self.count + 1})
        return DiceState(count=self.count + 1, throws=(*self.throws, numbered)[-KEPT:])
