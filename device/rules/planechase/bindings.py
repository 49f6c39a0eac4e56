"""What Planechase's buttons and cards mean (PC-7, PC-12).

Phenomena: NEXT or SELECT acknowledges a phenomenon being encountered (``ack`` at the console);
ROLL is refused meanwhile, so a press meant for the die never resolves one.
"""

from __future__ import annotations

from device.catalog import Card
from device.commands import Command
from device.inputs import Button, ButtonPressed
from device.rules.planechase.commands import (
    AcknowledgePhenomenon,
    ChoosePlanar,
    RevealPlanarCard,
    RollPlanarDie,
)
from device.catalog import load_catalog
from device.rules.registry import Expected, Rules
from device.state import GameState

RULES = Rules("planechase.bindings")


@RULES.on_button(Button.ROLL)
def _roll_button(state: GameState, press: ButtonPressed) -> Command | None:
    """ROLL: the active player's special-action roll (refused with a reason outside the main
    phase or while something waits)."""
    if state.planechase is None or press.long:
        return None
    return RollPlanarDie()


@RULES.on_button(Button.NEXT)
@RULES.on_button(Button.SELECT)
def _acknowledge_button(state: GameState, press: ButtonPressed) -> Command | None:
    """NEXT or SELECT acknowledges a phenomenon being encountered (PC-7); while a choice or a
    physical card is awaited they are refused with what to do, rather than passing the turn."""
    pc = state.planechase
    if pc is None:
        return None
    if pc.choice is not None or pc.awaiting is not None:
        return ChoosePlanar(
            answer=()
        )  # refused with what the table must do first, not a turn passed
    return AcknowledgePhenomenon() if pc.encounter is not None else None


@RULES.on_card
def _planar_card(state: GameState, card: Card) -> Command | None:
    """A tapped or named planar card reveals the card the gadget waits for (PC-12)."""
    if state.planechase is None or not card.is_planar:
        return None
    return RevealPlanarCard(name=card.name)


@RULES.expects_cards
def _planar_cards(state: GameState) -> Expected | None:
    """A physical card means a planar card in a Planechase game: so a name no planar card has is
    "no plane or phenomenon"; the table waits for one while a card is to be turned over."""
    pc = state.planechase
    if pc is None:
        return None
    return Expected(load_catalog().planar(), waiting=pc.awaiting is not None)
