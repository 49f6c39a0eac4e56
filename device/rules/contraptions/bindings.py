"""What Contraptions' buttons and cards mean (CT-6): ROLL rolls the contraption die, SELECT
places the waiting contraption, and a tapped contraption is assembled or selected."""

from __future__ import annotations

from device.catalog import Card, CardKind, load_catalog
from device.commands import Command
from device.inputs import Button, ButtonPressed
from device.rules.contraptions.commands import (
    HighlightSprocket,
    IdentifyContraption,
    PlaceContraption,
    RollContraptionDie,
)
from device.rules.contraptions.queries import current_upkeep
from device.rules.contraptions.state import Stage, Variant
from device.rules.registry import Expected, Rules
from device.state import GameState, Step

RULES = Rules("contraptions.bindings")


@RULES.on_button(Button.ROLL)
def _roll_button(state: GameState, press: ButtonPressed) -> Command | None:
    """ROLL rolls the upkeep's contraption die when one is due (A, B); in variant C without
    Planechase it pays for an assembly roll in the main phase."""
    ct = state.contraptions
    if ct is None or press.long:
        return None
    up = current_upkeep(state)
    if up is not None and up.stage is Stage.ROLL:
        return RollContraptionDie()
    if ct.variant is Variant.PLANAR and state.step is Step.MAIN and not state.has("planechase"):
        return RollContraptionDie()
    return None


@RULES.on_button(Button.SELECT)
def _select_button(state: GameState, press: ButtonPressed) -> Command | None:
    """SELECT places the waiting contraption on the highlighted sprocket; held, it moves the
    highlight on (the encoder does the same through the kiosk)."""
    ct = state.contraptions
    if ct is None or ct.assembly is None or ct.assembly.card is None:
        return None
    return HighlightSprocket(step=1) if press.long else PlaceContraption()


@RULES.expects_cards
def _contraption_cards(state: GameState) -> Expected | None:
    """A physical card means a contraption in a Contraptions game: so a name no contraption has
    is "no contraption"; the table waits for one while a physical deck's assembly waits for its
    card."""
    ct = state.contraptions
    if ct is None:
        return None
    assembling = ct.physical and ct.assembly is not None and ct.assembly.card is None
    return Expected(load_catalog().contraptions(), waiting=assembling)


@RULES.on_card
def _contraption_card(state: GameState, card: Card) -> Command | None:
    """A tapped or named contraption: assemble it, or offer to scrap or reassemble it."""
    ct = state.contraptions
    if ct is None:
        return None
    if card.kind is CardKind.CONTRAPTION:
        return IdentifyContraption(card=card.name)
    # A planar card is Planechase's business; say what is wrong only when nothing else claims it.
    waiting = ct.assembly is not None and ct.assembly.card is None and ct.physical
    return IdentifyContraption(card=card.name) if waiting and not state.has("planechase") else None
