"""Dice and coin scenes, each reached through the kiosk's own inputs: ROLL held down, the key D,
the encoder, SELECT, ROLL and touches on the chips; and a new game whose first player the gadget
drew, which opens on the draw."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import NewGame
from device.inputs import Button
from display.kiosk import Kiosk
from display.screens.dice import DiceChip
from display.ui import Go, Press, Tap, Turn

#: Four players in four scripts, as the other scenes seat them.
DICE_PLAYERS = ("Alice", "Юрий", "さくら", "Łukasz")


def chip(index: int) -> Tap:
    """A touch on the dice screen's chip ``index`` (d6, 2d6, d20, coin, random player)."""
    return DiceChip(index)


def scene_dice(k: Kiosk) -> None:
    """A life game: ROLL held opens the dice; a d20 touched, the coin and a random player picked
    with the encoder and SELECT or ROLL, then 2d6: the dice large, the earlier throws under them."""
    k.execute(NewGame(formats=("commander",), players=DICE_PLAYERS, first=DICE_PLAYERS[0]))
    k.dispatch(Press(Button.ROLL, long=True))
    k.dispatch(chip(2))  # d20
    k.dispatch(Turn(1))  # the coin
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Turn(1))  # a random player
    k.dispatch(Press(Button.ROLL))
    k.dispatch(Turn(2))  # round to 2d6
    k.dispatch(Press(Button.SELECT))


def scene_dice_d20(k: Kiosk) -> None:
    """A Planechase game's main phase: on the dice screen ROLL throws the chip (a d20), not the
    planar die."""
    k.execute(
        NewGame(formats=("commander", "planechase"), players=DICE_PLAYERS, first=DICE_PLAYERS[0])
    )
    k.dispatch(Press(Button.NEXT))
    k.dispatch(Go("dice"))
    k.dispatch(Turn(2))
    k.dispatch(Press(Button.ROLL))


def scene_dice_coin(k: Kiosk) -> None:
    """A Wizard's Duel: the coin, touched."""
    k.execute(NewGame(formats=("wizards_duel",), players=DICE_PLAYERS[:3], first=DICE_PLAYERS[0]))
    k.dispatch(Go("dice"))
    k.dispatch(chip(3))


def scene_dice_first(k: Kiosk) -> None:
    """Two-Headed Giant with the first team drawn by the gadget (TB-5): the game opens on the draw."""
    k.execute(NewGame(formats=("commander", "two_headed_giant"), players=DICE_PLAYERS))


DICE_SCENES: dict[str, Callable[[Kiosk], None]] = {
    "dice": scene_dice,
    "dice-d20": scene_dice_d20,
    "dice-coin": scene_dice_coin,
    "dice-first": scene_dice_first,
}
