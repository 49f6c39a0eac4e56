"""What buttons and identified cards mean in a game: small pure functions that modules register.

A binding looks at the state and the input and returns the command it means, or None when it
does not apply (the next binding is asked).  Rules modules declare theirs in their ``RULES``
value (Planechase binds ROLL in the main phase to the planar die; Contraptions binds a
contraption card to assembling it) and ``device.rules`` adds them in the order of its list of
parts, so the controller, the console's ``card`` command and the kiosk all share one meaning.
Bindings are pure: no I/O, like the rules.
"""

from __future__ import annotations

from collections.abc import Callable

from device.catalog import Card
from device.commands import Command
from device.inputs import Button, ButtonPressed
from device.state import GameState

ButtonBinding = Callable[[GameState, ButtonPressed], Command | None]
CardBinding = Callable[[GameState, Card], Command | None]

BUTTONS: dict[Button, list[ButtonBinding]] = {button: [] for button in Button}
CARDS: list[CardBinding] = []


def button_command(state: GameState, press: ButtonPressed) -> Command | None:
    for binding in BUTTONS[press.button]:
        command = binding(state, press)
        if command is not None:
            return command
    return None


def card_command(state: GameState, card: Card) -> Command | None:
    for binding in CARDS:
        command = binding(state, card)
        if command is not None:
            return command
    return None
