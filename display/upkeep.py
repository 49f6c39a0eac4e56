"""What the active player must do at the start of their turn: the upkeep banner's items.

Each module registers a function that returns its items for the current state (already in the
table's language), e.g. Contraptions: "Crank sprocket 2: Boomflinger"; Planechase: "Chaotic
Aether: blanks count as chaos".  Items show in the order the modules were imported.

A module may add details under the items with :func:`detail`: a title and a longer text the
banner shows as large as its room allows (Planechase: a face-up plane's rules text).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Detail:
    title: str
    text: str
    role: str = "banner.detail"  # the title's role in the drawing record; the text's is role + ".text"


UpkeepDetail = Callable[[GameState, Translator], list[Detail]]
DETAILS: list[UpkeepDetail] = []


def detail(fn: UpkeepDetail) -> UpkeepDetail:
    DETAILS.append(fn)
    return fn


def details(state: GameState, tr: Translator) -> list[Detail]:
    found: list[Detail] = []
    for fn in DETAILS:
        found += fn(state, tr)
    return found


@item
def _turn_structure(state: GameState, tr: Translator) -> list[str]:
    return [tr("ui.upkeep.untap")]
