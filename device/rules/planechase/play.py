"""Planechase (SPEC section 1, PC-1..PC-14; Comprehensive Rules 901, 309, 310, 701.22).

The planar die, its roll costs, the planar decks (per player, communal, virtual or physical),
planeswalking, phenomena, the planar controller and players leaving, Two-Headed Giant and Grand
Melee, the cards that change the die or the deck, and the Eternities Map.  This module is the
format's value: its declaration and table options, and the parts it takes in, each the commands
and events of one topic with every event's apply and describe beside what makes it:

- ``decks``: dealing the planar decks and the starting planes, choosing a deck, physical cards;
- ``die``: rolling the planar die;
- ``walk``: planeswalking, phenomena and the choices cards leave to a player;
- ``planes``: counters on planes and the planes whose text counts;
- ``leaving``: players leaving, the planar controller passing on;
- ``turns``: a new turn, and Grand Melee's turn markers;
- ``bindings``: what buttons and cards mean;
- ``eternities``: the Eternities Map.

What a screen shows is in ``queries``, the English of it all in ``texts``, and what several
appliers share (where cards go) in ``piles``.
"""

from __future__ import annotations

from device.formats import Format, TableOption
from device.rules.plane_abilities import (
    ARETOPOLIS,
    KILNSPIRE_DISTRICT,
    MOUNT_KERALIA,
    NAAR_ISLE,
    STAIRS_TO_INFINITY,
)
from device.rules.planechase import bindings, decks, die, leaving, planes, turns, walk
from device.rules.planechase.decks import DECK_SOURCES
from device.rules.planechase.die import POOLS_OF_BECOMING
from device.rules.planechase.eternities import RULES as MAP_RULES
from device.rules.planechase.texts import TEXTS
from device.rules.planechase.walk import (
    CHAOTIC_AETHER,
    INTERPLANAR_TUNNEL,
    SPATIAL_MERGING,
    TIME_DISTORTION,
)
from device.rules.registry import Rules

RULES = Rules("planechase")

#: The cards the gadget automates, and how (README lists the same).
AUTOMATED = {
    CHAOTIC_AETHER: "blanks count as chaos until someone planeswalks away from a plane",
    INTERPLANAR_TUNNEL: "reveals until five planes; the planar controller chooses the one to put on top",
    SPATIAL_MERGING: "reveals until two planes and planeswalks to both; chaos triggers each once",
    TIME_DISTORTION: "reverses the turn order",
    STAIRS_TO_INFINITY: "chaos reveals the top card; keep it on top or put it on the bottom",
    POOLS_OF_BECOMING: "chaos reveals the top three, triggers their chaos abilities, you order them on the bottom",
    ARETOPOLIS: "scroll counters on arrival, at upkeep and on chaos; life gained; planeswalks at ten",
    NAAR_ISLE: "a flame counter each upkeep and that much damage to its controller",
    KILNSPIRE_DISTRICT: "a charge counter on arrival and each main phase; says the red mana it makes",
    MOUNT_KERALIA: "a pressure counter each end step; says the damage it deals when left",
}

RULES.format(
    Format("planechase", "Planechase", "module", starting_life=20, aliases=("pc", "planar"))
)
RULES.option(
    TableOption(
        "plain_d6", "planechase", "Roll a plain d6: 1 is chaos, 6 is planeswalk (PC-1).", False
    )
)
RULES.option(
    TableOption(
        "own_die",
        "planechase",
        "The table rolls its own die and enters the face it showed (PC-1).",
        False,
    )
)
RULES.option(
    TableOption(
        "communal_deck", "planechase", "One communal planar deck for the table (901.15).", False
    )
)
RULES.option(
    TableOption(
        "grand_melee", "planechase", "Several planes face up, one per turn marker (901.14).", False
    )
)
RULES.option(
    TableOption(
        "turn_markers",
        "planechase",
        "Grand Melee turn markers; 0 = one per four players.",
        0,
        low=0,
        high=5,
    )
)
RULES.option(
    TableOption(
        "eternities_map",
        "planechase",
        "The Eternities Map variant (needs the communal deck).",
        False,
    )
)
RULES.option(
    TableOption(
        "planar_deck",
        "planechase",
        "Where planar decks come from: all cards, a set, or physical cards.",
        "all",
        choices=DECK_SOURCES,
    )
)
RULES.option(
    TableOption(
        "planar_deck_size",
        "planechase",
        "Cards in each player's virtual planar deck.",
        10,
        low=10,
        high=60,
    )
)


# The parts in the order their set-up, state checks and bindings run: players leave before a new
# turn moves the markers, and both before the planes that count see the state they leave.
RULES.include(decks.RULES)
RULES.include(die.RULES)
RULES.include(walk.RULES)
RULES.include(leaving.RULES)
RULES.include(turns.RULES)
RULES.include(planes.RULES)
RULES.include(bindings.RULES)
RULES.include(MAP_RULES)  # the Eternities Map (PC-14) is Planechase's, kept in a module of its own

RULES.says(TEXTS)
