"""Wizard's Duel, "Pojedynek czarnoksiężnika" (SPEC section 6, WD-1..WD-4).

A round has four phases and its own idea of whose move it is, so the duel keeps its round,
phase and mover in ``GameState.wizards_duel`` rather than in the core's MTG-shaped turn and
step.  The core's ``active`` and ``turn`` follow along (the mover and the round) so anything
that shows "whose turn" still shows the right player.  A player who drops out is marked lost
with the core's ``PlayerLost`` (reason ``effect``), so "last player standing" ends the game as
in any format; an ending on points (magic lesson, the alternative ending) is kept in the
duel's state and ``device.state.outcome`` reports it.

Everything that follows from a command without a choice — the next phase-1 turn, the next
caster, the whole of phase 4, a player at 0 points dropping out — happens in state checks,
so it also follows a concession or an undo.

This module is the format's value: its declaration and table options, how a saved duel's round
and its end are read, and the parts it takes in, each the commands and events of one topic with
every event's apply and describe beside what makes it:

- ``board``: setting up the board (WD-1), and changing one wizard;
- ``dice``: phase 1, gathering mana, and the antimagic shield;
- ``cards``: the starting spell cards and phase 2, incantations;
- ``casting``: phase 3, casting, the chain reaction, defences and the damage they let through;
- ``magic``: magic points lost, gained or absorbed by a shield;
- ``ending``: dropping out and the power sacrifice;
- ``rounds``: the phases moving on by themselves, and phase 4, the clean-up;
- ``bindings``: what the NEXT and ROLL buttons mean.

What the screens and the console ask is in ``queries``, the English of it all in ``texts``.
"""

from __future__ import annotations

from device.formats import Format, TableOption
from device.rules.registry import Rules
from device.rules.wizards_duel import bindings, board, cards, casting, dice, ending, magic, rounds
from device.rules.wizards_duel.queries import NAME, option
from device.rules.wizards_duel.rounds import LESSON_ROUNDS
from device.rules.wizards_duel.texts import TEXTS
from device.state import GameState, Outcome, last_standing
from device.text import Message

RULES = Rules("wizards_duel")

RULES.format(
    Format(
        NAME,
        "Wizard's Duel",
        "base",
        starting_life=35,
        min_players=2,
        max_players=4,
        aliases=("pojedynek", "pojedynek czarnoksieznika", "duel of wizards"),
        excludes=frozenset({"planechase", "contraptions"}),
        tracks_life=False,
        # a duel moves in phases, two of them with everyone at once
        turns=False,
        seats=False,
    )
)
for _table_option in (
    TableOption(
        "chain_reaction",
        NAME,
        "Chain reaction: level 0, 1, 2 spells cast on consecutive turns give back 1, then 2 dice.",
        False,
    ),
    TableOption(
        "antimagic_shield",
        NAME,
        "Antimagic shield: in phase 1 a die may go onto the board as a shield against one school.",
        False,
    ),
    TableOption(
        "power_drain",
        NAME,
        "Power drain: once per game, as a defence, sacrifice a reserve die to deal 2 to everyone.",
        False,
    ),
    TableOption(
        "magic_lesson", NAME, "Magic lesson: 15 rounds; the most magic points then wins.", False
    ),
    TableOption(
        "power_sacrifice",
        NAME,
        "Power sacrifice: once per game, instead of dropping out, discard a basic "
        "spell card and come back with 10.",
        False,
    ),
    TableOption(
        "alt_ending",
        NAME,
        "Alternative ending: the game ends after the round that follows the round "
        "in which someone dropped out.",
        False,
    ),
    TableOption(
        "spell_deck", NAME, "Spell cards in the spell deck at the start.", 30, low=5, high=99
    ),
):
    RULES.option(_table_option)


# The parts in the order their set-up, state checks and bindings run: a player at 0 magic points
# drops out or starts falling before the phases move on.
RULES.include(board.RULES)
RULES.include(dice.RULES)
RULES.include(cards.RULES)
RULES.include(casting.RULES)
RULES.include(magic.RULES)
RULES.include(ending.RULES)
RULES.include(rounds.RULES)
RULES.include(bindings.RULES)


@RULES.round_of
def _round(state: GameState) -> int | None:
    """A duel is played in rounds: a saved one shows the round it reached."""
    return state.wizards_duel.round if state.wizards_duel is not None else None


def _outcome(state: GameState) -> Outcome | None:
    """WD-3, WD-4: the duel may end on points (Magic lesson, the alternative ending); otherwise the
    last wizard with magic points left wins."""
    duel = state.wizards_duel
    if duel is not None and duel.winners is not None:
        lesson = option(state, "magic_lesson") and duel.round >= LESSON_ROUNDS
        ending = Message("wd.outcome.lesson" if lesson else "wd.outcome.alt")
        points = duel.wizard(duel.winners[0]).magic
        key = "wd.outcome.most" if len(duel.winners) == 1 else "wd.outcome.tie"
        return Outcome(
            winner=duel.winners[0] if len(duel.winners) == 1 else None,
            reason=duel.end_reason,
            said=Message(key, points=points, ending=ending),
        )
    return last_standing(state)


RULES.outcome("wizards_duel", _outcome)

RULES.says(TEXTS)
