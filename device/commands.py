"""Commands: what someone asks the gadget to do.  ``device.game.decide`` turns one into events
or refuses it with ``IllegalCommand``.

Commands name players by seat; the console and the screen turn names and touches into seats.
Module commands live in their rules module and subclass ``Command`` the same way.
"""

from pydantic import Field

from device.models import Model


class Command(Model):
    """Base of every command."""


class Timed(Command):
    """A command that says when it was given: ``now``, wall-clock seconds.  The controller stamps
    its clock's time on one left without it, so the events it causes carry the time and the game
    clock and turn timer are folded from the journal like everything else (the rules never read a
    clock)."""

    now: float | None = None


class NewGame(Timed):
    formats: tuple[str, ...] = ()  # names or aliases; no base format means free-for-all
    players: tuple[str, ...]
    starting_life: int | None = None  # None: the base format's
    first: str | None = None  # a player's name; None: the gadget draws one (TB-5)
    options: dict[str, str] = Field(default_factory=dict)
    colours: tuple[str, ...] = ()  # per seat, in seat order; "" or none given: the seat's own
    # Per seat, in seat order: the player's commander and partner (Commander games); a seat with
    # none (or beyond them) names none, so the player has one unnamed commander.
    commanders: tuple[tuple[str, ...], ...] = ()


class Advance(Timed):
    """The NEXT button: upkeep → main; main → the next player's upkeep."""


class PassTurn(Timed):
    """Pass the turn now, from whatever step."""


class ReverseTurnOrder(Command):
    pass


class SkipTurns(Command):
    seat: int
    turns: int = 1


class ChooseColour(Command):
    seat: int
    colour: str  # a name from device.rules.colours.COLOURS, or a unique start of one


class ChangeLife(Command):
    seat: int
    delta: int
    source: int | None = None


class SetLife(Command):
    seat: int
    life: int
    source: int | None = None


class ChangePoison(Command):
    seat: int
    delta: int
    source: int | None = None


class DealCommanderDamage(Command):
    seat: int
    source: int
    commander: int | None = None  # index into the source's commanders; None if they have one
    amount: int


class NameCommanders(Command):
    seat: int
    commanders: tuple[str, ...]


class CastCommander(Command):
    """A player cast a commander from the command zone (CR 903.8: each earlier cast adds {2} to
    its cost); a negative ``amount`` takes back casts counted by mistake."""

    seat: int
    commander: int | None = None  # index into the player's commanders; None if they have one
    amount: int = 1


class Concede(Command):
    seat: int


class Lose(Command):
    """A player loses to a card or a rule the gadget does not track (e.g. drawing from an empty
    library)."""

    seat: int
    source: int | None = None
