"""The gadget's game, and the rules: pure functions from state and command to events, and from state and event to state.

``decide(state, command, rng)`` validates a command and returns the events it causes, or raises
``IllegalCommand`` with a reason the players understand; it never changes anything.
``apply(state, event)`` folds one event into a new state; it never fails and never draws a random
number — dice results are inside the events, so replaying a journal replays the game.

A game's rules are a value, ``Ruleset(parts)``, built from the parts handed to it; ``PARTS`` lists
every part the gadget has and ``GAME`` is the rules of them all, which the gadget plays.  The
functions below are ``GAME``'s, for the callers that play the gadget's whole game.

Nothing here imports pygame, gpiozero, pyserial or sqlite3 (a test checks it).
"""

from __future__ import annotations

from device.rules import clock, counters, dice, life, table, two_headed_giant
from device.rules.conspiracy import play as conspiracy
from device.rules.contraptions import play as contraptions
from device.rules.necromancer import play as necromancer
from device.rules.planechase import play as planechase
from device.rules.wizards_duel import play as wizards_duel
from device.rules.registry import Rules, Ruleset

#: Every part of the rules, in the order their set-ups, state checks and bindings run: the table
#: and life first, then the dice and the clock every game has and the counters every life game
#: has, then each format.  A format is in the gadget's game when it is in this list.
PARTS: tuple[Rules, ...] = (
    table.RULES,
    life.RULES,
    dice.RULES,
    clock.RULES,
    counters.RULES,
    necromancer.RULES,
    conspiracy.RULES,
    planechase.RULES,
    contraptions.RULES,
    wizards_duel.RULES,
    two_headed_giant.RULES,
)

#: The gadget's game: the rules of every part.
GAME = Ruleset(PARTS)

decide = GAME.decide
apply = GAME.apply
fold = GAME.fold
describe = GAME.describe
play = GAME.play
describe_outcome = GAME.describe_outcome
