"""What the active player must do at the start of their turn: the upkeep banner's items.

Each module registers a function that returns its items for the current state (already in the
table's language), e.g. Contraptions: "Crank sprocket 2: Boomflinger"; Planechase: "Chaotic
Aether: blanks count as chaos".  Items show in the order the modules were imported.
"""

from __future__ import annotations

from collections.abc import Callable

from device.state import GameState
from display.i18n import Translator

UpkeepItem = Callable[[GameState, Translator], list[str]]
ITEMS: list[UpkeepItem] = []


def item(fn: UpkeepItem) -> UpkeepItem:
    ITEMS.append(fn)
    return fn


def items(state: GameState, tr: Translator) -> list[str]:
    found: list[str] = []
    for fn in ITEMS:
        found += fn(state, tr)
    return found


@item
def _turn_structure(state: GameState, tr: Translator) -> list[str]:
    return [tr("ui.upkeep.untap")]
