"""Dice and coin, in any game: a d6, a d20, any handful of dice a table needs, a coin, and a
player picked at random among those still in the game.

Every throw is a change like any other: its result is drawn from ``rng`` when it is decided and
kept in its event, so the journal replays it, UNDO takes it back (saying what it took back) and
the log says it ("Ala rolled a d20: 17.", "Coin: heads.", "Random player: Ola.").  No format
is needed and none is checked: a Planechase game, a Conspiracy pod and a Wizard's Duel roll a
d20 the same way.  The game's own draw of its starting player (TB-5) is kept as its first throw
by ``device.rules.table``.
"""

from __future__ import annotations

from random import Random
from typing import Literal

from device.commands import Command
from device.errors import IllegalCommand
from device.events import Event
from device.rules.registry import Rules
from device.rules.table import check_seat
from device.rules.teams import team_name, teamed
from device.state import GameState
from device.state_dice import DiceState, Throw, ThrowKind
from device.text import Message, Text

RULES = Rules("dice")

MAX_DICE = 10  # a handful: more than any card asks for at once
MAX_SIDES = 100  # d2 to d100

TEXTS: dict[str, Text] = {
    "dice.count": "Roll 1 to {limit} dice at a time; {count} asked for.",
    "dice.sides": "A die has 2 to {limit} sides (d4, d6, d8, d10, d12, d20, d100); {sides} asked for.",
    "dice.nobody": "Nobody is left in the game to pick.",
    "dice.rolled": "d{sides}: {value}.",
    "dice.rolled_by": "{name} rolled a d{sides}: {value}.",
    "dice.rolled_many": "{count}d{sides}: {faces} = {total}.",
    "dice.rolled_many_by": "{name} rolled {count}d{sides}: {faces} = {total}.",
    "dice.heads": "Coin: heads.",
    "dice.tails": "Coin: tails.",
    "dice.heads_by": "{name} flipped a coin: heads.",
    "dice.tails_by": "{name} flipped a coin: tails.",
    "dice.picked": "Random player: {name}.",
    "dice.first": "Drawn to go first: {name}.",
    "dice.first_team": "Drawn to go first: team {name}.",
}


# --- commands ------------------------------------------------------------------------------------


class RollDice(Command):
    """Roll ``count`` dice of ``sides`` sides; ``seat`` is who rolls (None: the table)."""

    count: int = 1
    sides: int = 6
    seat: int | None = None


class FlipCoin(Command):
    seat: int | None = None


class PickPlayer(Command):
    """Pick one of the players still in the game at random."""


# --- events --------------------------------------------------------------------------------------


class DiceRolled(Event):
    type: Literal["dice_rolled"] = "dice_rolled"
    sides: int
    faces: tuple[int, ...]
    seat: int | None = None


class CoinFlipped(Event):
    type: Literal["coin_flipped"] = "coin_flipped"
    heads: bool
    seat: int | None = None


class PlayerPicked(Event):
    type: Literal["player_picked"] = "player_picked"
    seat: int


#: The events of a throw, for screens that show them.
THROWN = (DiceRolled, CoinFlipped, PlayerPicked)


def _thrown(state: GameState, throw: Throw) -> GameState:
    return state.model_copy(update={"dice": (state.dice or DiceState()).adding(throw)})


def _roller(state: GameState, seat: int | None) -> None:
    if seat is not None:
        check_seat(state, seat)


def _name(state: GameState, seat: int) -> str:
    return state.player(seat).name


# --- rolling dice --------------------------------------------------------------------------------


@RULES.decides(RollDice)
def _roll(state: GameState, command: RollDice, rng: Random) -> list[Event]:
    if not 1 <= command.count <= MAX_DICE:
        raise IllegalCommand("dice.count", count=command.count, limit=MAX_DICE)
    if not 2 <= command.sides <= MAX_SIDES:
        raise IllegalCommand("dice.sides", sides=command.sides, limit=MAX_SIDES)
    _roller(state, command.seat)
    faces = tuple(rng.randint(1, command.sides) for _ in range(command.count))
    return [DiceRolled(sides=command.sides, faces=faces, seat=command.seat)]


def _rolled(event: DiceRolled) -> Throw:
    return Throw(
        number=0, kind=ThrowKind.DICE, seat=event.seat, sides=event.sides, faces=event.faces
    )


@RULES.applies(DiceRolled)
def _apply_roll(state: GameState, event: DiceRolled) -> GameState:
    return _thrown(state, _rolled(event))


@RULES.describes(DiceRolled)
def _describe_roll(state: GameState, event: DiceRolled) -> Message:
    return describe_throw(state, _rolled(event))


# --- a coin --------------------------------------------------------------------------------------


@RULES.decides(FlipCoin)
def _flip(state: GameState, command: FlipCoin, rng: Random) -> list[Event]:
    _roller(state, command.seat)
    return [CoinFlipped(heads=rng.randrange(2) == 1, seat=command.seat)]


def _flipped(event: CoinFlipped) -> Throw:
    return Throw(number=0, kind=ThrowKind.COIN, seat=event.seat, heads=event.heads)


@RULES.applies(CoinFlipped)
def _apply_flip(state: GameState, event: CoinFlipped) -> GameState:
    return _thrown(state, _flipped(event))


@RULES.describes(CoinFlipped)
def _describe_flip(state: GameState, event: CoinFlipped) -> Message:
    return describe_throw(state, _flipped(event))


# --- a random player -----------------------------------------------------------------------------


@RULES.decides(PickPlayer)
def _pick(state: GameState, command: PickPlayer, rng: Random) -> list[Event]:
    players = state.in_game()
    if not players:
        raise IllegalCommand("dice.nobody")
    return [PlayerPicked(seat=players[rng.randrange(len(players))].seat)]


def _picked(event: PlayerPicked) -> Throw:
    return Throw(number=0, kind=ThrowKind.PLAYER, picked=event.seat)


@RULES.applies(PlayerPicked)
def _apply_pick(state: GameState, event: PlayerPicked) -> GameState:
    return _thrown(state, _picked(event))


@RULES.describes(PlayerPicked)
def _describe_pick(state: GameState, event: PlayerPicked) -> Message:
    return describe_throw(state, _picked(event))


# --- what a throw said -----------------------------------------------------------------------------


def describe_throw(state: GameState, throw: Throw) -> Message:
    """What ``throw`` said, as the log says it: "Ala rolled a d20: 17.", "2d6: 3 + 5 = 8." (the
    sum reads the same in every language), "Coin: heads.", "Random player: Ola.", and the game's
    draw of its starting player ("Drawn to go first: Ola.", in Two-Headed Giant the team)."""
    by = {} if throw.seat is None else {"name": _name(state, throw.seat)}
    suffix = "" if throw.seat is None else "_by"
    if throw.kind is ThrowKind.DICE and len(throw.faces) == 1:
        return Message(f"dice.rolled{suffix}", sides=throw.sides, value=throw.faces[0], **by)
    if throw.kind is ThrowKind.DICE:
        return Message(
            f"dice.rolled_many{suffix}",
            count=len(throw.faces),
            sides=throw.sides,
            faces=" + ".join(str(face) for face in throw.faces),
            total=throw.total,
            **by,
        )
    if throw.kind is ThrowKind.COIN:
        return Message(("dice.heads" if throw.heads else "dice.tails") + suffix, **by)
    picked = throw.picked if throw.picked is not None else state.starting_player
    if throw.first and teamed(state):
        return Message("dice.first_team", name=team_name(state, picked))
    if throw.first:
        return Message("dice.first", name=_name(state, picked))
    return Message("dice.picked", name=_name(state, picked))


RULES.says(TEXTS)
