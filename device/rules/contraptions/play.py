"""Contraptions (SPEC section 2): the Unstable rules CT-1..CT-6 and house variants A, B and C.

The gadget is the CRANK! counter and the bookkeeper of where every contraption is.  It records
that contraptions were cranked, in the order the player chose; the players resolve their
abilities.  The upkeep runs as a small machine kept in the state (``Upkeep.stage``), driven by
state checks, so the same rule fires whether the upkeep began with a new game, a NEXT press or
an undo followed by a redo:

- base rules and variant C: when a turn begins the counter moves at once if the machine runs;
- variants A and B: the upkeep opens with the contraption die (ROLL); in A the counter moves
  after the assembly the die asked for (CT-A4), in B the die names the sprocket (CT-B2).

The game's first upkeep is opened by the set-up (``decks``), since no ``TurnPassed`` starts
it; later ones by the state check that sees ``TurnPassed``.

Choices the rules leave to players are pending parts of the state (``ContraptionsState.assembly``
and an upkeep in its CRANK stage) that a command resolves; a choice still open when the turn
passes lapses (an assembly is declined, a crank is skipped).

This module is the format's value: its declaration and table options, and the parts it takes
in, each the commands and events of one topic with every event's apply and describe beside what
makes it:

- ``decks``: the set-up, each player's deck and whether it is legal;
- ``crank``: the upkeep machine, the CRANK! counter and cranking;
- ``die``: the contraption die of variants A, B and C;
- ``assembly``: assembling, the cards looked at, declining and lapsing;
- ``physical``: physical contraption cards tapped or named;
- ``sprockets``: selecting, scrapping, exiling and reassembling, exile and copies to the
  scrapyard;
- ``bindings``: what buttons and cards mean.

What the rules, the screen and the console ask is in ``queries`` (the screen's views in
``view``), the English of it all in ``texts``, and what several appliers share in ``changes``.
"""

from __future__ import annotations

from device.formats import Format, TableOption
from device.rules.contraptions import assembly, bindings, crank, decks, die, physical, sprockets
from device.rules.contraptions.decks import MODULE
from device.rules.contraptions.texts import TEXTS
from device.rules.registry import Rules

RULES = Rules("contraptions")

RULES.format(Format(MODULE, "Contraptions", "module", aliases=("contraption", "ct")))
RULES.option(
    TableOption(
        "contraptions",
        MODULE,
        "How contraptions come into play: base (each player's own deck, Unstable rules), "
        "a (five faction libraries and an upkeep die), b (shared deck, the die decides), "
        "c (shared deck, paid assembly rolls).",
        "base",
        choices=("base", "a", "b", "c"),
    )
)
RULES.option(
    TableOption(
        "declined",
        MODULE,
        "Variant A: a contraption a player cannot or will not assemble goes to the bottom of its "
        "library, or to their scrapyard.",
        "bottom",
        choices=("bottom", "scrapyard"),
    )
)
RULES.option(
    TableOption(
        "faction_dice",
        MODULE,
        "Variant A: roll 1, 2 or 3 faction dice and use one; with 2 or 3 assembling is mandatory.",
        1,
        low=1,
        high=3,
    )
)
RULES.option(
    TableOption(
        "contraption_cards",
        MODULE,
        "virtual: the gadget keeps and shuffles the contraption decks; physical: real cards are "
        "revealed at the table and tapped on the reader (or named with 'card').",
        "virtual",
        choices=("virtual", "physical"),
    )
)


# The parts in the order their set-up, state check, pass check and bindings run.  Each kind has
# one of them apiece, so what this order decides is that all of them run after Planechase's and
# before the Wizards' Duel's (tests/test_contraptions_order.py).
RULES.include(decks.RULES)
RULES.include(crank.RULES)
RULES.include(die.RULES)
RULES.include(assembly.RULES)
RULES.include(physical.RULES)
RULES.include(sprockets.RULES)
RULES.include(bindings.RULES)

RULES.says(TEXTS)
