"""What buttons and identified cards mean in a game: small pure functions that modules register.

A binding looks at the state and the input and returns the command it means, or None when it
does not apply (the next binding is asked).  Rules modules declare theirs in their ``RULES``
value (Planechase binds ROLL in the main phase to the planar die; Contraptions binds a
contraption card to assembling it) and a game's rules (``Ruleset``) ask them in the order of its
parts, so the controller, the console's ``card`` command and the kiosk all share one meaning.
Bindings are pure: no I/O, like the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from device.catalog import Card
from device.commands import Command
from device.inputs import Button, ButtonPressed
from device.state import GameState

ButtonBinding = Callable[[GameState, ButtonPressed], Command | None]
CardBinding = Callable[[GameState, Card], Command | None]


class Bindings:
    """What the buttons and cards mean in a game's rules, asked in the order of the rules' parts
    (a value the rules build, ``Ruleset.bindings``)."""

    def __init__(
        self, buttons: Iterable[tuple[Button, ButtonBinding]], cards: Iterable[CardBinding]
    ) -> None:
        self.buttons: dict[Button, tuple[ButtonBinding, ...]] = {
            button: tuple(fn for bound, fn in buttons if bound is button) for button in Button
        }
        self.cards: tuple[CardBinding, ...] = tuple(cards)

    def button_command(self, state: GameState, press: ButtonPressed) -> Command | None:
        for binding in self.buttons[press.button]:
            command = binding(state, press)
            if command is not None:
                return command
        return None

    def card_command(self, state: GameState, card: Card) -> Command | None:
        for binding in self.cards:
            command = binding(state, card)
            if command is not None:
                return command
        return None
