"""What the appliers of several Contraptions events share: the game's part changed, the
upkeep this turn changed, and a card waiting for its sprocket."""

from __future__ import annotations

from device.rules.contraptions.queries import contraptions, current_upkeep
from device.rules.contraptions.state import Upkeep
from device.state import GameState


def changed(state: GameState, **changes: object) -> GameState:
    ct = contraptions(state)
    return state.model_copy(update={"contraptions": ct.model_copy(update=changes)})


def upkeep_changed(state: GameState, **changes: object) -> Upkeep | None:
    up = current_upkeep(state)
    return None if up is None else up.model_copy(update=changes)


def card_waiting(state: GameState, library: int, card: str) -> GameState:
    job = contraptions(state).assembly
    if job is None:
        return state
    return changed(state, assembly=job.model_copy(update={"card": card, "library": library}))
