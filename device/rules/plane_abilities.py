"""Planes whose printed text makes the table count or act at a moment the gadget knows (PC-11).

The gadget keeps the counters on a face-up plane; for the planes below it also knows *when*
their text adds one and what the count then does, so nobody has to remember:

- **Aretopolis** — when you planeswalk to it and at the beginning of your upkeep: a scroll
  counter, then you gain life equal to the scroll counters (the gadget changes the life); whenever
  you roll chaos: a scroll counter, then draw that many cards (said); with ten or more scroll
  counters on it: planeswalk (the gadget does).
- **Naar Isle** — at the beginning of your upkeep: a flame counter, then it deals damage to you
  equal to the flame counters (the gadget changes the life).
- **Kilnspire District** — when you planeswalk to it and at the beginning of your precombat main
  phase: a charge counter, then add {R} for each (said).
- **Mount Keralia** — at the beginning of your end step (the gadget's turn passing): a pressure
  counter; when you planeswalk away from it, it deals that much damage to each creature and each
  planeswalker (said, with the amount).
- **Stairs to Infinity** — whenever you roll the planar die, draw a card (said with the roll).

"You" on a plane is its planar controller (the rulings of every plane card).  This module is only
data and small pure helpers; ``device.rules.planechase`` acts on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Moment = Literal["arrive", "upkeep", "main", "end", "chaos"]


@dataclass(frozen=True)
class Counting:
    """One of a plane's counter abilities: at ``moments`` a counter, then ``does`` (a text key
    suffix under ``planechase.ability.``; ``life`` says how the count changes the controller's life)."""

    moments: tuple[Moment, ...]
    does: str
    life: int = 0  # +1: gain life equal to the counters; -1: that much damage; 0: only said


ARETOPOLIS = "Aretopolis"
NAAR_ISLE = "Naar Isle"
KILNSPIRE_DISTRICT = "Kilnspire District"
MOUNT_KERALIA = "Mount Keralia"
STAIRS_TO_INFINITY = "Stairs to Infinity"

#: A plane's counter abilities, in the order its text lists them.
COUNTING: dict[str, tuple[Counting, ...]] = {
    ARETOPOLIS: (
        Counting(("arrive", "upkeep"), "scroll_life", life=1),
        Counting(("chaos",), "scroll_draw"),
    ),
    NAAR_ISLE: (Counting(("upkeep",), "flame", life=-1),),
    KILNSPIRE_DISTRICT: (Counting(("arrive", "main"), "charge"),),
    MOUNT_KERALIA: (Counting(("end",), "pressure"),),
}

#: "When [this plane] has N or more counters on it, planeswalk."
PLANESWALK_AT: dict[str, int] = {ARETOPOLIS: 10}

#: "When you planeswalk away from [this plane], it deals damage equal to its counters to …"
DAMAGE_ON_LEAVING: frozenset[str] = frozenset({MOUNT_KERALIA})

#: "Whenever you roll the planar die, draw a card."
DRAW_ON_ROLL: frozenset[str] = frozenset({STAIRS_TO_INFINITY})


def abilities_at(name: str, moment: Moment) -> tuple[Counting, ...]:
    """The counter abilities of the plane called ``name`` that trigger at ``moment``."""
    return tuple(a for a in COUNTING.get(name, ()) if moment in a.moments)
