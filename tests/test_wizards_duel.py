"""Wizard's Duel (SPEC section 6, WD-1..WD-4), through the console and the controller."""

from __future__ import annotations

import io

import pytest

from device.game import GAME
from device.commands import ChangeLife, Concede, NewGame
from device.console import TABLES, Console
from device.controller import Controller
from device.errors import IllegalCommand
from device.events import GameStarted
from device.inputs import Button, ButtonPressed
from device.rules.wizards_duel.events import DuelSetUp, ElementDiceRolled
from device.rules.wizards_duel.state import Face, WizardsDuelState
from helpers import state

ALA, OLA, EWA = 0, 1, 2

CARDS = [
    'spell Ala "Kula ognia" attack 4 fire level=0',
    "spell Ala Leczenie heal 3 earth level=1",
    "spell Ala Burza attack 2 air + area 3/1 water level=2",
    'spell Ola "Lodowy pocisk" attack 5 water',
    "spell Ola Regeneracja heal 4 earth",
    "spell Ola Trzesienie area 3/2 earth",
]

# Phase 1 of round 1: Ola runs out of reserve dice on turn 2 (3 short: 3 damage), Ala keeps 3.
PHASE_1 = [
    "dice Ala fire fire earth earth air",
    "dice Ola water water earth earth magic",
    "aside Ala fire fire earth earth",
    "aside Ola water water earth earth magic",
    "dice Ala fire air air magic water",
    "dice Ola water fire fire earth magic",
    "aside Ala",
    "aside Ola water fire fire earth magic",
    "dice Ala air magic magic fire water",
    "dice Ola earth water",
]


def run(controller: Controller, *lines: str) -> list[str]:
    out = io.StringIO()
    console = Console(controller, out, TABLES)
    for line in lines:
        console.run_line(line)
    return out.getvalue().splitlines()


def duel(controller: Controller) -> WizardsDuelState:
    found = state(controller).wizards_duel
    assert found is not None
    return found


def start(controller: Controller, *options: str, players: str = "Ala Ola") -> None:
    run(controller, f"new pojedynek {players} first=Ala {' '.join(options)}", *CARDS)


def to_phase_2(controller: Controller, *options: str) -> None:
    start(controller, *options)
    run(controller, *PHASE_1)
    assert duel(controller).phase == 2


def to_phase_3(controller: Controller, *options: str) -> None:
    to_phase_2(controller, *options)
    run(
        controller,
        "play Ala kula fire fire",
        "play Ala Burza/2 magic water",
        "play Ala Leczenie earth earth",
        "play Ola lod water water",
        "play Ola Reg earth earth",
        "play Ola Trz earth",
        "ready",
    )
    assert duel(controller).phase == 3


def refused(controller: Controller, line: str) -> str:
    """The refusal of ``line``, checking it changed nothing."""
    before = state(controller)
    [reply] = run(controller, line)
    assert state(controller) == before
    assert reply.startswith("refused: ")
    return reply.removeprefix("refused: ")


# --- WD-1 set-up --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "reserve", "market", "deck"),
    [("A B", 7, 3, 27), ("A B C", 7, 4, 26), ("A B C D", 6, 5, 25)],
)
def test_wd1_set_up_by_player_count(
    controller: Controller, players: str, reserve: int, market: int, deck: int
) -> None:
    """WD-1: 35 magic points, 5 dice in hand, 7/7/6 in reserve, players + 1 market cards."""
    out = run(controller, f"new wizards_duel {players} first=B")
    count = len(players.split())
    assert out[1] == (
        f"Wizard's Duel: 35 magic points each, 5 element dice in hand and {reserve} in reserve; "
        f"{market} spell cards in the market, {deck} in the deck. B is the starting player."
    )
    found = duel(controller)
    assert [(w.magic, w.hand, w.reserve) for w in found.wizards] == [(35, 5, reserve)] * count
    assert (found.market, found.deck, found.starting, found.round, found.phase) == (
        (True,) * market,
        deck,
        1,
        1,
        1,
    )


def test_wd1_random_starting_player_is_drawn_and_kept_in_the_event(controller: Controller) -> None:
    """WD-1, TB-5: without first=, the gadget draws the starting player; the draw is in the event."""
    result = controller.execute(NewGame(formats=("pojedynek",), players=("Ala", "Ola", "Ewa")))
    started, set_up = result.events[0], result.events[1]
    assert isinstance(started, GameStarted) and isinstance(set_up, DuelSetUp)
    assert started.starting_player_random
    assert duel(controller).starting == started.starting_player == state(controller).active


def test_wd1_two_to_four_players_and_played_alone(controller: Controller) -> None:
    """WD-1: the article's table is for 2 to 4 players; the duel is not combined with MTG modules."""
    assert run(controller, "new pojedynek A B C D E") == [
        "refused: Wizard's Duel is for 2–4 players; this table has 5."
    ]
    with pytest.raises(IllegalCommand, match="cannot be played together"):
        controller.execute(NewGame(formats=("wizards_duel", "planechase"), players=("A", "B")))


def test_wd1_spell_cards_are_described_once(controller: Controller) -> None:
    """WD-1: each character starts with 3 spell cards; the players describe them as printed."""
    start(controller)
    assert refused(controller, "spell Ala Czwarta attack 1 fire") == (
        "Ala has described 3 starting spell cards already; more cards come from the market."
    )
    assert refused(controller, "spell Ola regeneracja heal 1 earth") == (
        "Ola already has a spell card called 'regeneracja'."
    )
    assert refused(controller, "spell Ola X heal 2/1 earth") == (
        "Only an area spell hurts the other players; give healing spells no second number."
    )
    assert refused(controller, "spell Ola X boom 2 earth") == (
        "'boom' is not a kind of spell: offensive, area or healing (or atak, obszar, leczenie)."
    )
    card = duel(controller).wizard(ALA).card(3)
    assert (card.name, card.level, [s.kind.value for s in card.spells], card.spells[1].others) == (
        "Burza",
        2,
        ["offensive", "area"],
        1,
    )


# --- WD-2 phase 1 -------------------------------------------------------------------------


def test_wd2_phase1_gadget_rolls_with_the_injected_rng_and_stores_the_faces(
    controller: Controller,
) -> None:
    """WD-2: the gadget's roll is random, fair among the symbols, and kept in the event."""
    start(controller)
    result = controller.press(ButtonPressed(Button.ROLL))
    assert result is not None
    rolls = [e for e in result.events if isinstance(e, ElementDiceRolled)]
    assert [(e.seat, len(e.faces), e.physical) for e in rolls] == [(ALA, 5, False), (OLA, 5, False)]
    assert [str(m) for m in result.messages] == [
        f"{name} rolled {' '.join(f.value for f in e.faces)}."
        for name, e in zip(("Ala", "Ola"), rolls, strict=True)
    ]
    assert duel(controller).wizard(OLA).rolled == rolls[1].faces
    assert (
        refused(controller, "dice")
        == "Everyone has rolled; waiting for Ala, Ola to set dice aside."
    )


def test_wd2_phase1_physical_dice_aside_and_refill(controller: Controller) -> None:
    """WD-2: set rolled dice aside into the mana pool, take the rest back, refill to 5 from the reserve;
    or take all 5 back drawing nothing; the next turn starts when everyone has chosen."""
    start(controller)
    assert run(
        controller,
        "dice Ala f f w a m",
        "dice Ola magia ogień woda ziemia powietrze",
        "aside Ala fire fire",
        "aside Ola",
    ) == [
        "Ala rolled fire fire water air magic.",
        "Ola rolled magic fire water earth air.",
        "Ala put fire fire in the mana pool and drew 2 from the reserve.",
        "Ola took all 5 dice back.",
        "Phase 1, turn 2: everyone rolls.",
    ]
    ala, ola = duel(controller).wizards
    assert (ala.hand, ala.reserve, ala.pool, ala.rolled) == (5, 5, (Face.FIRE, Face.FIRE), None)
    assert (ola.hand, ola.reserve, ola.pool) == (5, 7, ())


def test_wd2_phase1_refusals(controller: Controller) -> None:
    """WD-2: only rolled dice go aside, a roll is the hand's size, one roll and one choice a turn."""
    start(controller)
    assert refused(controller, "aside Ala fire") == "Ala has not rolled yet: 'dice Ala' first."
    assert refused(controller, "dice Ala fire fire") == "Ala rolls 5 dice; 2 faces given."
    assert refused(controller, "dice Ala fire fire fire fire smoke") == (
        "'smoke' is not a die face: magic, fire, water, earth, air (or magia, ogień, woda, ziemia, powietrze)."
    )
    run(controller, "dice Ala fire fire water air magic")
    assert (
        refused(controller, "dice Ala")
        == "Ala has rolled this turn already: fire fire water air magic."
    )
    assert (
        refused(controller, "aside Ala earth")
        == "Ala did not roll earth; the roll shows fire fire water air magic."
    )
    assert refused(controller, "play Ala kula fire") == (
        "Laying dice on a spell belongs to phase 2 (incantations); the table is in phase 1 (gathering mana)."
    )
    run(controller, "aside Ala", "dice Ola")
    assert (
        refused(controller, "aside Ala")
        == "Ala has made this turn's choice already; the others are still choosing."
    )
    assert (
        refused(controller, "next")
        == "Waiting for Ola to set their dice aside ('aside PLAYER [FACE…]')."
    )


def test_wd2_phase1_ending_turn_damage_and_last_roll(controller: Controller) -> None:
    """WD-2: a player who cannot refill takes what is left and 1 damage per missing die; then everyone
    rolls a last time straight into the mana pool; unused reserve dice stay in the reserve."""
    start(controller)
    out = run(controller, *PHASE_1)
    assert out[7:] == [
        "Ala took all 5 dice back.",
        "Ola put water fire fire earth magic in the mana pool but could draw only 2: 3 dice short. "
        "This turn ends phase 1.",
        "Ola: 35 → 32 magic points (3 dice short of a full hand).",
        "Phase 1 ends: everyone rolls a last time; those dice go to the mana pool.",
        "Ala rolled air magic magic fire water into the mana pool.",
        "Ola rolled earth water into the mana pool.",
        "Phase 2: incantations. Lay mana-pool dice on spells, learn at most one market spell, then pass.",
    ]
    ala, ola = duel(controller).wizards
    assert (ala.magic, ala.hand, ala.reserve, len(ala.pool)) == (35, 0, 3, 9)
    assert (ola.magic, ola.hand, ola.reserve, len(ola.pool)) == (32, 0, 0, 12)


# --- WD-2 phase 2 -------------------------------------------------------------------------


def test_wd2_phase2_incantations(controller: Controller) -> None:
    """WD-2: play a card with its dice (one spell of a two-spell card), add the second spell later,
    assigned dice stay; dice come from the mana pool; everyone passes → phase 3."""
    to_phase_2(controller)
    assert (
        refused(controller, "play Ala Burza air")
        == "Burza has two spells: say which, e.g. 'Burza/1' or 'Burza/2'."
    )
    assert run(controller, "play Ala Burza/1 air", "play Ala Burza magic water") == [
        "Ala laid air on Burza/1.",
        "Ala laid magic water on Burza/2.",
    ]
    assert refused(controller, "play Ala Burza/2 fire") == (
        "Burza's spell 2 has its dice already; dice stay until the round ends."
    )
    assert refused(controller, "play Ala kula water water") == (
        "Ala's mana pool has no water water; it holds magic fire fire fire earth earth."
    )
    assert refused(controller, "play Ala nic fire") == (
        "Ala has no spell card 'nic'; their cards: Kula ognia, Leczenie, Burza."
    )
    assert run(controller, "ready Ala", "ready Ola") == [
        "Ala is done with incantations.",
        "Ola is done with incantations.",
        "Phase 3: casting, from Ala.",
        "Ala's turn to cast.",
    ]


def test_wd2_phase2_learning_one_market_spell_first_come(controller: Controller) -> None:
    """WD-2: learn at most one market spell a round, laying its full cost at once; whoever does it
    first gets the card."""
    to_phase_2(controller)
    assert run(controller, 'learn Ola 2 "Zwoj blyskawic" attack 6 air with water water earth') == [
        "Ola learned market card 2 as Zwoj blyskawic (offensive 6 air), paying water water earth."
    ]
    assert (
        refused(controller, "learn Ala 2 Inny heal 2 fire with fire")
        == "Market card 2 was learned already this round."
    )
    assert refused(controller, "learn Ola 1 Drugi heal 2 fire with fire") == (
        "Ola has learned a spell this round already (one per round)."
    )
    assert refused(controller, "learn Ala 4 Inny heal 2 fire with fire") == (
        "There is no market card 4: the market has cards 1 to 3."
    )
    card = duel(controller).wizard(OLA).cards[-1]
    assert (card.basic, card.spells[0].dice, card.spells[0].ready) == (
        False,
        (Face.WATER, Face.WATER, Face.EARTH),
        True,
    )
    assert duel(controller).market == (True, False, True)


# --- WD-2 phase 3 -------------------------------------------------------------------------


def test_wd2_phase3_healing_goes_on_the_caster_and_ends_the_turn(controller: Controller) -> None:
    to_phase_3(controller)
    assert refused(controller, "cast Ola lod at Ala") == "It is Ala's turn to cast."
    assert (
        refused(controller, "cast Ala Leczenie at Ola") == "Healing spells go on the caster only."
    )
    assert run(controller, "cast Ala Leczenie") == [
        "Ala casts Leczenie (healing 3).",
        "Ala: 35 → 38 magic points (healing).",
        "Ola's turn to cast.",
    ]


def test_wd2_phase3_defence_by_healing_spell_loses_the_excess(controller: Controller) -> None:
    """WD-2 (a): an unused healing spell weakens the attack by its strength; excess healing is lost."""
    to_phase_3(controller)
    assert (
        refused(controller, "cast Ala kula") == "Say whom the offensive spell targets: 'at PLAYER'."
    )
    assert (
        refused(controller, "cast Ala kula at Ala")
        == "An offensive spell targets an opponent, not the caster."
    )
    assert run(controller, "cast Ala kula at Ola") == [
        "Ala casts Kula ognia (offensive 4, fire) at Ola. Ola may defend."
    ]
    assert refused(controller, "cast Ola lod at Ala") == (
        "Ola must first answer Ala's Kula ognia: 'defend Ola none|heal|reserve|counter|drain'."
    )
    assert run(controller, "defend Ola heal reg") == [
        "Ola weakens the attack with Regeneracja (healing 4).",
        "Ola's turn to cast.",
    ]
    assert duel(controller).wizard(OLA).magic == 32


def test_wd2_phase3_defence_by_reserve_dice_costs_fatigue(controller: Controller) -> None:
    """WD-2 (b): reserve dice weaken the attack one for one, up to its strength; they are set aside
    and the defender takes 1 fatigue damage."""
    to_phase_3(controller)
    run(controller, "cast Ala Leczenie")
    run(controller, "cast Ola lod at Ala")
    assert (
        refused(controller, "defend Ala reserve 4")
        == "Ala may weaken the attack with 1 to 3 reserve dice; 4 given."
    )
    assert run(controller, "defend Ala reserve 3") == [
        "Ala weakens the attack with 3 reserve dice (set aside).",
        "Ala: 38 → 36 magic points (Ola's spell).",
        "Ala: 36 → 35 magic points (fatigue).",
        "Ala's turn to cast.",
    ]
    ala = duel(controller).wizard(ALA)
    assert (ala.reserve, ala.aside, ala.fatigue) == (0, 3, 1)


def test_wd2_phase3_counterattack_is_unavoidable(controller: Controller) -> None:
    """WD-2 (c): the defender spends unused mana-pool dice as direct damage to the attacker."""
    to_phase_3(controller)
    run(controller, "cast Ala Leczenie")
    run(controller, "cast Ola lod at Ala")
    assert run(controller, "defend Ala counter fire magic") == [
        "Ala counterattacks with 2 mana-pool dice.",
        "Ola: 32 → 30 magic points (counterattack by Ala).",
        "Ala: 38 → 33 magic points (Ola's spell).",
        "Ala's turn to cast.",
    ]


def test_wd2_phase3_area_spell_only_the_target_defends(controller: Controller) -> None:
    """WD-2: with an area spell only the target may defend; the others take the listed damage."""
    start(controller, players="Ala Ola Ewa")
    run(
        controller,
        "dice Ala f f f f f",
        "dice Ola f f f f f",
        "dice Ewa m m m m m",
        "aside Ala f f f f f",
        "aside Ola f f f f f",
        "aside Ewa m m m m m",
        "dice Ala f f f f f",
        "dice Ola e e e e e",
        "dice Ewa m m m m m",
        "aside Ala f f f",
        "aside Ola",
        "aside Ewa",
        "dice Ala w w w w",
        "dice Ola",
        "dice Ewa",
    )
    # Ala has no spell to cast, so casting starts with Ola.
    assert run(controller, "play Ola Trz f f", "ready")[-1] == "Ola's turn to cast."
    assert run(controller, "cast Ola Trz at Ala", "defend Ala counter fire fire") == [
        "Ola casts Trzesienie (area 3/2, earth) at Ala. Ala may defend.",
        "Ala counterattacks with 2 mana-pool dice.",
        "Ola: 35 → 33 magic points (counterattack by Ala).",
        "Ala: 34 → 31 magic points (Ola's area spell).",
        "Ewa: 35 → 33 magic points (Ola's area spell).",
        "Phase 4: clean-up.",
        "Ola: 33 → 35 magic points (dice left in the reserve).",
        "Ewa: 33 → 35 magic points (dice left in the reserve).",
        "Dice and spell cards back to the players; new reserves and hands of 5.",
        "Market: 4 cards to the discard pile, 4 new cards face up.",
        "Round 2, phase 1: gathering mana. Ala is the starting player. Everyone rolls.",
    ]


def test_wd2_phase3_two_spell_card_turns_after_both_one_per_turn(controller: Controller) -> None:
    """WD-2: a card with both spells paid turns sideways only after both are used, one per turn."""
    to_phase_2(controller)
    run(controller, "play Ala Burza/1 air", "play Ala Burza/2 magic water", "ready")
    assert run(controller, "cast Ala Burza/2 at Ola", "next") == [
        "Ala casts Burza/2 (area 3/1, water) at Ola. Ola may defend.",
        "Ola does not defend.",
        "Ola: 32 → 29 magic points (Ala's area spell).",
        "Ala's turn to cast.",
    ]
    assert not duel(controller).wizard(ALA).card(3).turned
    assert (
        run(controller, "cast Ala Burza at Ola", "next")[0]
        == "Ala casts Burza/1 (offensive 2, air) at Ola. Ola may defend."
    )
    assert duel(controller).phase == 1  # Ala's spells were all cast: phase 3 ended, phase 4 ran


# --- WD-2 phase 4 -------------------------------------------------------------------------


def test_wd2_phase4_clean_up(controller: Controller) -> None:
    """WD-2: reserve dice become magic points, unused mana gives nothing, everything goes back,
    the market is refreshed and the fewest magic points start the next round."""
    to_phase_3(controller)
    assert run(controller, "cast Ala kula at Ola", "next", "hold Ola", "hold Ala") == [
        "Ala casts Kula ognia (offensive 4, fire) at Ola. Ola may defend.",
        "Ola does not defend.",
        "Ola: 32 → 28 magic points (Ala's spell).",
        "Ola's turn to cast.",
        "Ola passes.",
        "Ala's turn to cast.",
        "Ala passes.",
        "Phase 4: clean-up.",
        "Ala: 35 → 38 magic points (dice left in the reserve).",
        "Dice and spell cards back to the players; new reserves and hands of 5.",
        "Market: 3 cards to the discard pile, 3 new cards face up.",
        "Round 2, phase 1: gathering mana. Ola is the starting player. Everyone rolls.",
    ]
    found = duel(controller)
    assert [(w.magic, w.hand, w.reserve, w.pool, w.aside) for w in found.wizards] == [
        (38, 5, 7, (), 0),
        (28, 5, 7, (), 0),
    ]
    assert not any(card.on_table for w in found.wizards for card in w.cards)
    assert (found.round, found.phase, found.starting, found.deck, found.discard) == (
        2,
        1,
        OLA,
        24,
        3,
    )
    assert state(controller).active == OLA


def test_wd2_phase4_market_reshuffles_the_discard(controller: Controller) -> None:
    """WD-2: when the spell deck runs out, the discard pile is shuffled into a new deck."""
    to_phase_2(controller, "spell_deck=5")
    assert duel(controller).deck == 2
    out = run(controller, "ready", "next", "next")
    assert (
        "Market: 3 cards to the discard pile; the deck ran out, so 3 discarded cards were shuffled into a new "
        "deck; 3 new cards face up." in out
    )
    assert (duel(controller).deck, duel(controller).discard) == (2, 0)


def test_wd2_phase4_starting_player_tie_keeps_turn_order(controller: Controller) -> None:
    """WD-2 phase 4: on equal fewest points the current starting player (then turn order) starts."""
    start(controller, players="Ala Ola Ewa")
    run(controller, "dice", "aside Ala", "aside Ola", "aside Ewa")
    run(
        controller,
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola",
        "aside Ola",
        "dice Ewa",
        "aside Ewa",
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola",
        "aside Ola",
        "dice Ewa",
        "aside Ewa",
        "dice",
    )
    assert duel(controller).wizard(ALA).magic == 32
    run(controller, "ready", "next", "next", "next")
    # Ala 32 + 0; Ola and Ewa 35 + 7: Ala has the fewest.
    assert duel(controller).starting == ALA


# --- WD-3 end -----------------------------------------------------------------------------


def test_wd3_last_player_with_magic_points_wins(controller: Controller) -> None:
    """WD-3: a player at 0 drops out (the core's PlayerLost, reason effect); the last one left wins."""
    to_phase_2(controller)
    run(controller, "learn Ala 1 Zaglada attack 40 fire with fire fire", "ready")
    out = run(controller, "cast Ala Zaglada at Ola", "next")
    assert out[-4:] == [
        "Ola: 32 → 0 magic points (Ala's spell).",
        "Ola has lost the game.",
        "Ola dropped out in round 1.",
        "Game over: Ala won (last player standing).",
    ]
    lost = state(controller).player(OLA).lost
    assert lost is not None and (lost.reason.value, lost.source) == ("effect", ALA)
    assert run(controller, "wizards")[-1] == "Game over: Ala won (last player standing)."


def test_wd3_alternative_ending_after_the_following_round(controller: Controller) -> None:
    """WD-3: with the alternative ending, the game ends after the round that follows the round in
    which someone dropped out; the most magic points win."""
    start(controller, "alt_ending=on", players="Ala Ola Ewa")
    run(controller, "concede Ewa")
    assert duel(controller).dropout_round == 1
    run(controller, "dice", "aside Ala", "aside Ola")
    run(
        controller,
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola",
        "aside Ola",
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola",
        "aside Ola",
        "dice",
        "ready",
    )
    assert (duel(controller).round, GAME.outcome(state(controller))) == (2, None)
    run(controller, "dice", "aside Ala", "aside Ola")
    out = run(
        controller,
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola",
        "aside Ola",
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola",
        "aside Ola",
        "dice",
        "ready",
    )
    assert out[-2:] == [
        "Ola wins with 49 magic points (the round after a player dropped out is over).",
        "Game over: Ola won (most magic points (49), alternative ending).",
    ]


# --- WD-4 optional rules --------------------------------------------------------------------


def test_wd4_chain_reaction(controller: Controller) -> None:
    """WD-4 chain reaction: level 0, then 1, then 2 on consecutive turns give back 1, then 2 dice
    (all to the pool or all to the reserve); a broken chain gives nothing."""
    to_phase_2(controller, "chain_reaction=on")
    run(
        controller,
        "play Ala kula fire",
        "play Ala Leczenie earth earth",
        "play Ala Burza/1 air magic",
        "play Ola Lod water",
        "play Ola Trz earth",
        "ready",
    )
    assert run(
        controller,
        "cast Ala kula at Ola",
        "next",
        "cast Ola lod at Ala",
        "next",
        "cast Ala Leczenie to pool",
        "cast Ola Trz at Ala",
        "next",
        "cast Ala Burza at Ola",
    ) == [
        "Ala casts Kula ognia (offensive 4, fire) at Ola. Ola may defend.",
        "Ola does not defend.",
        "Ola: 32 → 28 magic points (Ala's spell).",
        "Ola's turn to cast.",
        "Ola casts Lodowy pocisk (offensive 5, water) at Ala. Ala may defend.",
        "Ala does not defend.",
        "Ala: 35 → 30 magic points (Ola's spell).",
        "Ala's turn to cast.",
        "Ala casts Leczenie (healing 3).",
        "Chain reaction: Ala takes 1 die off Leczenie back to the mana pool.",
        "Ala: 30 → 33 magic points (healing).",
        "Ola's turn to cast.",
        "Ola casts Trzesienie (area 3/2, earth) at Ala. Ala may defend.",
        "Ala does not defend.",
        "Ala: 33 → 30 magic points (Ola's area spell).",
        "Ala's turn to cast.",
        "Ala casts Burza/1 (offensive 2, air) at Ola. Ola may defend.",
        "Chain reaction: Ala takes 2 dice off Burza back to the reserve.",
    ]
    ala = duel(controller).wizard(ALA)
    assert (ala.reserve, ala.card(3).spells[0].dice, ala.card(2).spells[0].dice) == (
        5,
        (),
        (Face.EARTH,),
    )


def test_wd4_chain_reaction_off_or_broken_gives_nothing(controller: Controller) -> None:
    to_phase_2(controller)
    run(controller, "play Ala kula fire", "play Ala Leczenie earth earth", "ready")
    out = run(controller, "cast Ala kula at Ola", "next", "cast Ala Leczenie")
    assert not any(line.startswith("Chain reaction") for line in out)


def test_wd4_antimagic_shield(controller: Controller) -> None:
    """WD-4 antimagic shield: one die per phase-1 turn onto the board (not air, at most two symbols),
    the rest back without refilling; it absorbs damage and healing of its school, one point per die,
    but not counterattacks."""
    start(controller, "antimagic_shield=on")
    assert refused(controller, "shield Ala fire") == "Ala has not rolled yet: 'dice Ala' first."
    run(controller, "dice Ala air earth water fire fire")
    assert (
        refused(controller, "shield Ala air")
        == "A die showing air (the whirlwind) cannot go into a shield."
    )
    assert run(controller, "shield Ala water") == [
        "Ala set a die showing water into the antimagic shield (water)."
    ]
    assert duel(controller).wizard(ALA).hand == 4
    run(controller, "dice Ola", "aside Ola", "dice Ala earth water fire fire", "shield Ala earth")
    run(controller, "dice Ola", "aside Ola", "dice Ala fire fire magic")
    assert (
        refused(controller, "shield Ala magic")
        == "Ala's shield holds water earth already; a shield has at most two symbols."
    )
    run(
        controller,
        "aside Ala fire fire magic",
        "dice Ola f f f f f",
        "aside Ola f f f f f",
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola m m m m m",
        "aside Ola m m m m m",
        "dice",
    )
    assert duel(controller).phase == 2
    run(controller, "play Ala Leczenie fire", "play Ola Lod fire", "play Ola Trz fire", "ready")
    assert run(
        controller, "cast Ala Leczenie", "cast Ola Lod at Ala", "defend Ala counter fire"
    ) == [
        "Ala casts Leczenie (healing 3).",
        "Ala's antimagic shield absorbs 1 (earth).",
        "Ala: 32 → 34 magic points (healing).",
        "Ola's turn to cast.",
        "Ola casts Lodowy pocisk (offensive 5, water) at Ala. Ala may defend.",
        "Ala counterattacks with 1 mana-pool die.",
        "Ola: 32 → 31 magic points (counterattack by Ala).",
        "Ala's antimagic shield absorbs 1 (water).",
        "Ala: 34 → 30 magic points (Ola's spell).",
        "Ola's turn to cast.",
    ]


def test_wd4_shield_needs_the_option(controller: Controller) -> None:
    start(controller)
    run(controller, "dice Ala fire fire fire fire fire")
    assert refused(controller, "shield Ala fire") == (
        "antimagic_shield is not a rule at this table; start the game with antimagic_shield=on to use it."
    )


def test_wd4_power_drain(controller: Controller) -> None:
    """WD-4 power drain: once per game, as the defence, a reserve die leaves the game, everyone else
    takes 2 unavoidable damage and the drainer gains 1 per player hit; the attack still lands."""
    start(controller, "power_drain=on", players="Ala Ola Ewa")
    run(
        controller,
        "dice",
        "aside Ala",
        "aside Ola",
        "aside Ewa",
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola f f f f f",
        "aside Ola f f f f f",
        "dice Ewa",
        "aside Ewa",
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola f f f f f",
        "aside Ola f f f f f",
        "dice Ewa",
        "aside Ewa",
        "dice",
    )
    run(controller, "play Ola lod f f", "play Ola trz f", "ready")
    assert run(controller, "cast Ola lod at Ewa", "defend Ewa drain") == [
        "Ola casts Lodowy pocisk (offensive 5, water) at Ewa. Ewa may defend.",
        "Ewa drains power: one reserve die leaves the game.",
        "Ewa: 35 → 30 magic points (Ola's spell).",
        "Ala: 32 → 30 magic points (power drain by Ewa).",
        "Ola: 32 → 30 magic points (power drain by Ewa).",
        "Ewa: 30 → 32 magic points (drained power).",
        "Ola's turn to cast.",
    ]
    ewa = duel(controller).wizard(EWA)
    assert (ewa.removed, ewa.reserve, ewa.drain_used, ewa.total_dice()) == (1, 6, True, 12)
    run(controller, "cast Ola trz at Ewa")
    assert (
        refused(controller, "defend Ewa drain")
        == "Ewa has used the power drain already (once per game)."
    )


def test_wd4_magic_lesson(controller: Controller) -> None:
    """WD-4 magic lesson: after 15 rounds the most magic points win."""
    start(controller, "magic_lesson=on")
    for _ in range(15):
        assert GAME.outcome(state(controller)) is None
        # Ala comes up one die short each round (1 damage); Ola keeps her 7 reserve dice (+7).
        run(
            controller,
            "dice Ala f f f f f",
            "aside Ala f f f f f",
            "dice Ola",
            "aside Ola",
            "dice Ala f f f f f",
            "aside Ala f f",
            "dice Ola",
            "aside Ola",
            "dice Ala f f f f f",
            "aside Ala f",
            "dice Ola",
            "aside Ola",
            "dice",
            "ready",
        )
    result = GAME.outcome(state(controller))
    assert [w.magic for w in duel(controller).wizards] == [20, 140]
    assert result is not None and result.winner == OLA
    assert result.reason == "most magic points (140), magic lesson over"


def test_wd4_power_sacrifice(controller: Controller) -> None:
    """WD-4 power sacrifice: instead of dropping out, discard a basic card not played this round and
    come back with 10; untargetable, no casting and no phase-4 gain this round; shield lost; area
    spells still hit."""
    to_phase_2(controller, "power_sacrifice=on")
    run(
        controller,
        "learn Ala 1 Zaglada attack 40 fire with fire",
        "play Ola Lod water",
        "play Ola Reg earth",
        "ready",
    )
    assert run(controller, "cast Ala Zaglada at Ola", "next") == [
        "Ala casts Zaglada (offensive 40, fire) at Ola. Ola may defend.",
        "Ola does not defend.",
        "Ola: 32 → 0 magic points (Ala's spell).",
        "Ola is at 0 magic points: 'sacrifice Ola CARD' to come back with 10 (once per game), or 'dropout Ola'.",
    ]
    assert refused(controller, "next") == (
        "Ola must first choose: 'sacrifice PLAYER CARD' (power sacrifice) or 'dropout PLAYER'."
    )
    assert (
        refused(controller, "sacrifice Ola Lod")
        == "Lodowy pocisk was played this round; sacrifice a basic spell card that was not."
    )
    # Ola may not cast this round and Ala has nothing left: phase 4, with no gain for Ola.
    assert run(controller, "sacrifice Ola Trz") == [
        "Ola sacrifices Trzesienie and comes back with 10 magic points; untargetable until the round ends.",
        "Phase 4: clean-up.",
        "Ala: 35 → 38 magic points (dice left in the reserve).",
        "Dice and spell cards back to the players; new reserves and hands of 5.",
        "Market: 2 cards to the discard pile, 3 new cards face up.",
        "Round 2, phase 1: gathering mana. Ola is the starting player. Everyone rolls.",
    ]
    assert duel(controller).wizard(OLA).sacrifice_used
    assert duel(controller).wizard(OLA).magic == 10
    assert [c.name for c in duel(controller).wizard(OLA).cards] == ["Lodowy pocisk", "Regeneracja"]


def test_wd4_power_sacrifice_only_once_then_drop_out(controller: Controller) -> None:
    to_phase_2(controller, "power_sacrifice=on")
    run(
        controller,
        "learn Ala 1 Zaglada attack 40 fire with fire",
        "ready",
        "cast Ala Zaglada at Ola",
        "next",
    )
    assert run(controller, "dropout Ola")[-1] == "Game over: Ala won (last player standing)."


def test_wd4_untargetable_after_sacrifice(controller: Controller) -> None:
    start(controller, "power_sacrifice=on", players="Ala Ola Ewa")
    run(
        controller,
        "dice",
        "aside Ala",
        "aside Ola",
        "aside Ewa",
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola",
        "aside Ola",
        "dice Ewa",
        "aside Ewa",
        "dice Ala f f f f f",
        "aside Ala f f f f f",
        "dice Ola",
        "aside Ola",
        "dice Ewa",
        "aside Ewa",
        "dice",
    )
    run(
        controller,
        "learn Ala 1 Zaglada attack 40 fire with fire",
        "play Ala kula fire",
        "play Ola Trz f",
        "ready",
        "cast Ala Zaglada at Ola",
        "next",
        "sacrifice Ola Lod",
    )
    assert duel(controller).wizard(OLA).sacrificed_round == 1
    assert duel(controller).to_move == ALA  # Ola may not cast, Ewa has nothing: Ala again
    assert refused(controller, "cast Ala kula at Ola") == (
        "Ola sacrificed their power this round and cannot be targeted until it ends."
    )


# --- buttons -------------------------------------------------------------------------------


def test_wd2_next_button_moves_the_table_on(controller: Controller) -> None:
    """WD-2: NEXT rolls in phase 1, ends incantations in phase 2, takes an attack undefended or
    passes in phase 3."""
    to_phase_2(controller)
    run(controller, "play Ala kula fire")
    result = controller.press(ButtonPressed(Button.NEXT))
    assert result is not None and [str(m) for m in result.messages][-2:] == [
        "Phase 3: casting, from Ala.",
        "Ala's turn to cast.",
    ]
    held = controller.press(
        ButtonPressed(Button.UNDO, long=True)
    )  # a break: the game clock, not the duel
    assert held is not None and [m.key for m in held.messages] == ["clock.paused"]


# --- a whole game at the console -----------------------------------------------------------

WHOLE_GAME = [
    "new pojedynek Ala Ola first=Ala",
    *CARDS,
    *PHASE_1,
    "play Ala kula fire fire",
    "play Ala Burza/1 air",
    "play Ala Burza/2 magic water",
    'learn Ola 2 "Zwoj blyskawic" attack 6 air with water water earth',
    "play Ola lod water water",
    "play Ola Reg earth earth",
    "ready Ola",
    "ready Ala",
    "cast Ala kula at Ola",
    "defend Ola heal Regeneracja",
    "cast Ola lod at Ala",
    "defend Ala counter fire",
    "cast Ala Burza/2 at Ola",
    "next",
    "cast Ola Zwoj at Ala",
    "defend Ala reserve 1",
    "cast Ala Burza at Ola",
    "defend Ola counter magic magic",
    # round 2: Ala learns a big spell and finishes Ola
    "dice Ala f f f f f",
    "dice Ola",
    "aside Ala f f f f f",
    "aside Ola",
    "dice Ala f f f f f",
    "dice Ola",
    "aside Ala f f f f f",
    "aside Ola",
    "dice",
    "learn Ala 1 Zaglada attack 40 fire with fire fire fire",
    "ready",
    "cast Ala Zaglada at Ola",
    "defend Ola none",
]


def test_wd_full_game_at_the_console_with_undo_at_every_step(controller: Controller) -> None:
    """WD-1..WD-3, LF-4: a whole duel typed at the console; every step can be undone and redone."""
    out: list[str] = []
    for line in WHOLE_GAME:
        before = controller.state
        reply = run(controller, line)
        assert not any(r.startswith("refused") for r in reply), (line, reply)
        out += reply
        after = controller.state
        if before is not None:
            assert run(controller, "undo")[0].startswith("Undone: ")
            assert controller.state == before
            assert run(controller, "redo")[0].startswith("Redone: ")
            assert controller.state == after
    assert out[-5:] == [
        "Ola does not defend.",
        "Ola: 26 → 0 magic points (Ala's spell).",
        "Ola has lost the game.",
        "Ola dropped out in round 2.",
        "Game over: Ala won (last player standing).",
    ]
    assert run(controller, "next") == [
        "refused: The game is over: Ala won (last player standing). Undo to change that, or start a new game with 'new'."
    ]


def test_wd_life_commands_are_refused_because_the_duel_counts_magic_points(
    controller: Controller,
) -> None:
    """WD-1: magic points, not MTG life; a concession still works."""
    controller.execute(NewGame(formats=("wizards_duel",), players=("Ala", "Ola"), first="Ala"))
    with pytest.raises(IllegalCommand) as error:
        controller.execute(ChangeLife(seat=1, delta=-3, source=0))
    assert str(error.value) == "Wizard's Duel does not count life; 'help' lists its own commands."
    controller.execute(Concede(seat=1))
    assert controller.state is not None and controller.state.players[1].lost is not None
