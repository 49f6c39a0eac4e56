"""Planechase (SPEC section 1, PC-1..PC-14; Comprehensive Rules 901, 309, 310, 701.22).

The planar die, its roll costs, the planar decks (per player, communal, virtual or physical),
planeswalking, phenomena, the planar controller and players leaving, Two-Headed Giant and Grand
Melee, the cards that change the die or the deck, and the Eternities Map
(``device.rules.planechase.eternities``).

What a screen shows, as pure functions of the ``GameState``:

- ``next_roll_cost(state, seat)``: the mana ``seat``'s next special-action roll costs (PC-2);
- ``may_roll(state, seat)``: whether ``seat`` may take the special action now;
- ``odds(state)``: the chance of planeswalk, chaos and blank on the next roll (PC-13);
- ``chance_to_planeswalk(k)`` = 1 − (5/6)^k and ``cost_of_rolls(k, first=0)`` = the mana of k
  special-action rolls in a turn (k(k−1)/2 from the first);
- ``planar_controller(state)`` and ``planar_controllers(state)`` (Grand Melee: one per marker);
- ``chaos_planes(state, seat)``: the face-up planes whose chaos ability a chaos roll triggers;
- ``deck_problems(cards, players, communal)``: what makes a planar deck illegal, as messages.

Decisions a newcomer might question:

- Two-Headed Giant: a planeswalk rolled by either member of the active team is made by the
  roller, from their own deck (901.8: the planeswalking ability is controlled by the player
  whose roll caused it; PC-3), though the team's primary player stays the planar controller.
  A team leaves together: once both its players are out, the primary player of the next team
  becomes planar controller if the leaving team had it (901.12b), then the team's cards leave.
- Grand Melee: the gadget keeps turn markers in ``PlanechaseState.markers``: one for each full
  four players (CR 807.4a), or as many as ``turn_markers`` says while there are two players for
  each. Markers start four seats apart from the starting player (807.4b); when the turn passes,
  the first marker follows the active player and every other marker moves to the next seat in
  turn order that is in the game and holds no marker. Each marker holder is a planar controller
  with their own face-up plane, may roll in the main phase, and planeswalks only away from the
  planes of their marker. A marker holder who leaves during their turn keeps the marker until
  the turn ends, when the player to their left takes it (807.4c); meanwhile that player stands
  in as planar controller of its planes (901.6) but does not roll. If the holder's leaving
  lowers the number of markers, their marker is removed at once and its planes go to the bottom
  without anyone planeswalking (901.14b); if a player without a marker leaves and lowers it,
  the marker nearest to their right goes when the turn ends (807.4d) — never the first, which
  is the table's own turn.
- A physical deck's card put on the bottom comes back only after the cards above it
  (701.22b); tapping it before is refused, for a listed deck and an unlisted one alike (the
  gadget remembers what it saw go under, and that a deck has ten cards or more, 901.3).
- Phenomena: NEXT or SELECT acknowledges a phenomenon being encountered (``ack`` at the
  console); ROLL is refused meanwhile, so a press meant for the die never resolves one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from random import Random

from device.catalog import Card, CardKind, load_catalog
from device.commands import Command, NewGame
from device.errors import IllegalCommand
from device.events import Event, LifeChanged, PlayerLost, StepChanged, TurnOrderReversed, TurnPassed
from device.formats import Format, TableOption
from device.inputs import Button, ButtonPressed
from device.rules.planechase.commands import (
    AcknowledgePhenomenon,
    ChangePlaneCounters,
    ChoosePlanar,
    Planeswalk,
    ReturnPlanarCard,
    RevealPlanarCard,
    RollPlanarDie,
    SetPlanarDeck,
)
from device.rules.planechase.events import (
    ChaosBlanksBegan,
    MapMoved,
    PlanarCardAwaited,
    PlanarCardReturned,
    PlanarCardSkipped,
    PlanarCardsLeft,
    PlanarCardsRevealed,
    PlanarChoiceMade,
    PlanarChoiceOffered,
    PlanarControllerChanged,
    PlanarDecksDealt,
    PlanarDieAwaited,
    PlanarDieRolled,
    PlanarTurnBegan,
    PlaneCountersChanged,
    PlaneTurnedOver,
    Planeswalked,
    TurnMarkerPassed,
    TurnMarkerRemoved,
    joined,
    planechase,
    with_leaving_notes,
)
from device.rules.planechase.eternities import RULES as MAP_RULES
from device.rules.planechase.eternities import (
    deal_start,
    describe_move,
    direction_word,
    directions,
    move,
    offer_direction,
)
from device.rules.plane_abilities import (
    ARETOPOLIS,
    DRAW_ON_ROLL,
    KILNSPIRE_DISTRICT,
    MOUNT_KERALIA,
    NAAR_ISLE,
    PLANESWALK_AT,
    STAIRS_TO_INFINITY,
    Moment,
    abilities_at,
)
from device.rules.teams import primary, team_of, teamed
from device.rules.registry import Expected, Rules, apply_events, find_format
from device.rules.table import check_seat
from device.state import GameState, Step
from device.rules.planechase.state import (
    Awaiting,
    OwnRoll,
    CardRef,
    ChoiceKind,
    DieFace,
    EternitiesMap,
    FaceUpCard,
    PendingChoice,
    PlanarDeck,
    PlanarKind,
    PlanechaseState,
    Roll,
    Visit,
)
from device.text import Message, Plural, Text

RULES = Rules("planechase")

MIN_DECK = 10  # 901.3
MAX_PHENOMENA = 2  # 901.3
COMMUNAL_MIN = 40  # 901.15a: at least min(40, 10 × players)
MAX_DECK = 300
TUNNEL_PLANES = 5  # Interplanar Tunnel reveals until five planes
PLAYERS_PER_MARKER = 4  # Grand Melee: one turn marker for each full four players (CR 807.4a)
POOLS_CARDS = 3  # Pools of Becoming reveals the top three

CHAOTIC_AETHER = "Chaotic Aether"
INTERPLANAR_TUNNEL = "Interplanar Tunnel"
SPATIAL_MERGING = "Spatial Merging"
TIME_DISTORTION = "Time Distortion"
POOLS_OF_BECOMING = "Pools of Becoming"

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

DECK_SOURCES = ("all", "ohop", "phop", "opc2", "opca", "moc", "who", "punk", "pssc", "physical")

TEXTS: dict[str, Text] = {
    "planechase.not_in_game": "This game has no Planechase: start one with 'new ffa+planechase …'.",
    "planechase.not_main": "{name} may roll the planar die only in their main phase: press NEXT "
    "to end the upkeep first.",
    "planechase.not_roller": "Only {who} may roll the planar die now, as the special action "
    "(901.9); {name} may not.",
    "planechase.no_roller": "Nobody may roll the planar die for the rest of this turn: the players whose turn it "
    "is have left the game, so {name} may not. Press NEXT to pass the turn.",
    "planechase.resolve_phenomenon": "{name} is being encountered: press NEXT (or 'ack') to "
    "resolve it first.",
    "planechase.choice_waiting": "{name} must choose first ({what}).",
    "planechase.awaiting_card": "Waiting for {name} to turn over the top card of {deck}: tap it "
    "on the reader or name it with 'card NAME'.",
    "planechase.awaiting_next": "Waiting for {name} to turn over the top card of {deck} ({card} "
    "comes up next): tap it on the reader or name it with 'card NAME'.",
    "planechase.awaiting_planes": "Waiting for {name} to turn over cards from {deck} until "
    "{planes}: tap each on the reader or name it with 'card NAME'.",
    "planechase.planes_count": Plural("a plane", "{n} planes", "n"),
    "planechase.no_encounter": "No phenomenon is waiting to be acknowledged.",
    "planechase.no_choice": "Nothing is waiting for a choice.",
    "planechase.bad_choice": "{text!r} is not one of the choices: {choices}.",
    "planechase.choose_tunnel": "choose the plane to put on top: {choices}",
    "planechase.choose_stairs": "choose 'top' or 'bottom' for {card}",
    "planechase.choose_pools": "put {choices} on the bottom in the order you choose, e.g. "
    "'choose {first}'",
    "planechase.choose_direction": "choose where to planeswalk: {choices}",
    "planechase.not_plane": "{name} is not a face-up plane; face up: {face_up}.",
    "planechase.which_plane": "Several planes are face up ({face_up}): say which one.",
    "planechase.no_plane": "No plane is face up.",
    "planechase.counters_below": Plural(
        "{name} has {counters} counter; {remove} cannot be removed.",
        "{name} has {counters} counters; {remove} cannot be removed.",
        "counters",
    ),
    "planechase.counters_zero": "Nothing to change: the amount is 0.",
    "planechase.deck_locked": "Planar decks can be changed only before the first roll and "
    "planeswalk; undo back to the start or start a new game.",
    "planechase.deck_illegal": "That planar deck is not legal: {problems}.",
    "planechase.problems": "{first}; {rest}",
    "planechase.deck_small": Plural(
        "it has {count} card, it needs at least {minimum}",
        "it has {count} cards, it needs at least {minimum}",
        "count",
    ),
    "planechase.deck_phenomena": Plural(
        "it has {count} phenomenon, at most {maximum} are allowed",
        "it has {count} phenomena, at most {maximum} are allowed",
        "count",
    ),
    "planechase.deck_duplicate": Plural(
        "{name} is in it {count} time (each card needs a different English name)",
        "{name} is in it {count} times (each card needs a different English name)",
        "count",
    ),
    "planechase.deck_not_planar": "{name} is not a plane or phenomenon",
    "planechase.deck_size_short": Plural(
        "the set {source} makes a deck of at most {count} card (at most two phenomena), not {size}",
        "the set {source} makes a deck of at most {count} cards (at most two phenomena), not {size}",
        "count",
    ),
    "planechase.deck_empty_source": Plural(
        "the set {source} has only {count} planar card",
        "the set {source} has only {count} planar cards",
        "count",
    ),
    "planechase.communal_owner": "This game uses one communal planar deck: set it with "
    "'deck communal …'.",
    "planechase.not_communal": "This game gives each player a planar deck; name the player "
    "instead of 'communal'.",
    "planechase.option_combo": "Planechase options {a} and {b} cannot be used together.",
    "planechase.option_needs": "The Planechase option {a} needs {b}.",
    "planechase.two_headed_option": "Two-Headed Giant with {b} is not a Planechase variant the rules "
    "describe: choose one of them.",
    "planechase.grand_melee_players": Plural(
        "Grand Melee with {markers} needs at least {needed} player; this table has {count}.",
        "Grand Melee with {markers} needs at least {needed} players; this table has {count}.",
        "needed",
    ),
    "planechase.markers": Plural("{n} turn marker", "{n} turn markers"),
    "planechase.grand_melee_few": Plural(
        "Grand Melee has one turn marker for each full four players (807.4a), so {count} player has none: "
        "seat at least {needed} players, or set turn_markers.",
        "Grand Melee has one turn marker for each full four players (807.4a), so {count} players have none: "
        "seat at least {needed} players, or set turn_markers.",
        "count",
    ),
    "planechase.markers_dealt": " Grand Melee: {markers}, one for each full four players (807.4a), held by "
    "{holders}.",
    "planechase.markers_dealt_chosen": " Grand Melee: {markers}, as the table chose, held by {holders}.",
    "planechase.virtual_deck": "This game's planar decks are virtual: the gadget turns the "
    "cards over itself, so {name} needs no tapping. Use a physical deck with "
    "'planar_deck=physical'.",
    "planechase.not_waiting": "The gadget is not waiting for a planar card; {name} {why}",
    "planechase.why_face_up": "is already face up.",
    "planechase.why_idle": "is not expected now: roll the die (ROLL) to planeswalk first.",
    "planechase.card_face_up": "{name} is already face up: turn over the next card of {deck} "
    "and tap that one.",
    "planechase.card_not_in_deck": "{name} is not in {deck}: tap the card you turned over from "
    "{deck}, or fix the list with 'deck'.",
    "planechase.card_on_bottom": "{name} went to the bottom of {deck} and comes back only after the cards "
    "above it: turn over the top card of {deck} and tap that one.",
    "planechase.card_not_next": "{name} is not the top card of {deck}: {card} is (cards put on the bottom come "
    "back in the order they went there). Tap {card}.",
    "planechase.card_elsewhere": "{name} was revealed already and waits for a choice: tap the "
    "card you turned over.",
    "planechase.return_not_physical": "Only cards from physical decks can be returned; "
    "use undo instead.",
    "planechase.return_not_face_up": "{name} is not face up; face up: {face_up}.",
    "planechase.no_direction_here": "Planeswalking on the Eternities Map needs a direction: "
    "{choices}.",
    "planechase.direction_no_map": "Directions are for the Eternities Map; this game has none.",
    "planechase.nothing": "(nothing)",
    # lists of names and phrases: each language joins them its own way
    "planechase.list": "{first}, {rest}",
    "planechase.and": "{first} and {rest}",
    "planechase.or": "{first} or {rest}",
    "planechase.then": "{first}{rest}",
    # events
    "planechase.decks_dealt": "Planar decks: {decks}.",
    "planechase.deck_line": Plural("{owner} {count} card", "{owner} {count} cards", "count"),
    "planechase.deck_line_physical": Plural(
        "{owner} {count} card (physical)", "{owner} {count} cards (physical)", "count"
    ),
    "planechase.deck_line_own": "{owner}: own physical deck",
    "planechase.decks_physical": "Planar decks: each player's own, as physical cards.",
    "planechase.decks_physical_communal": "Planar deck: one communal deck of physical cards.",
    "planechase.communal": "communal deck",
    "planechase.skipped_start": "{name} is a phenomenon: it goes to the bottom of {deck} "
    "(nothing triggers while the starting plane is found).",
    "planechase.starting_plane": "Starting plane: {name} ({owner}).",
    "planechase.turned_over": "{seat} turns over {name}.",
    "planechase.own_roll": "{name} rolls the table's planar die: say what it showed ('roll "
    "planeswalk', 'roll chaos' or 'roll blank').",
    "planechase.own_roll_d6": "{name} rolls the table's d6: say what it showed ('roll 1' to 'roll 6'; "
    "1 is chaos, 6 is planeswalk).",
    "planechase.bad_pip": "A die has sides 1 to 6, not {pip}.",
    "planechase.rolled_blank": "{name} rolled a blank{cost}: nothing happens.",
    "planechase.rolled_chaos": "{name} rolled CHAOS{cost}: {planes}'s chaos ability triggers.",
    "planechase.rolled_chaos_many": "{name} rolled CHAOS{cost}: the chaos abilities of {planes} trigger.",
    "planechase.rolled_blank_chaos_many": "{name} rolled a blank{cost}, which counts as CHAOS "
    "(Chaotic Aether): the chaos abilities of {planes} trigger.",
    "planechase.rolled_chaos_none": "{name} rolled CHAOS{cost}, but no plane is face up.",
    "planechase.rolled_blank_chaos": "{name} rolled a blank{cost}, which counts as CHAOS "
    "(Chaotic Aether): {planes}'s chaos ability triggers.",
    "planechase.rolled_planeswalk": "{name} rolled PLANESWALK{cost}.",
    "planechase.cost_free": " (free)",
    "planechase.cost_paid": " (cost {cost})",
    "planechase.cost_effect": " (an effect's roll, free)",
    "planechase.planeswalked": "{name} planeswalks away from {away} to {to}.{extra}",
    "planechase.planeswalked_start": "{name} planeswalks to {to}.{extra}",
    "planechase.planeswalked_physical": "{name} planeswalks away from {away}: turn over the "
    "top card of {deck} and tap it.",
    "planechase.planeswalked_physical_next": "{name} planeswalks away from {away}: turn over the "
    "top card of {deck} ({card} comes up next) and tap it.",
    "planechase.planeswalked_physical_two": "{name} planeswalks away from {away}: turn over "
    "cards from {deck} until two planes and tap each.",
    "planechase.extra_bottom": " Revealed and put on the bottom: {cards}.",
    "planechase.extra_threshold": Plural(
        " {plane} had {n} scroll counter on it.", " {plane} had {n} scroll counters on it.", "n"
    ),
    "planechase.extra_leaving": " {plane} deals {n} damage to each creature and each planeswalker.",
    "planechase.extra_draw_on_roll": " {name} draws a card ({plane}).",
    "planechase.ability.scroll_life": Plural(
        "{plane}: {before} → {after} scroll counter; {name} gains {after} life.",
        "{plane}: {before} → {after} scroll counters; {name} gains {after} life.",
        "after",
    ),
    "planechase.ability.scroll_draw": Plural(
        "{plane}: {before} → {after} scroll counter; {name} draws a card.",
        "{plane}: {before} → {after} scroll counters; {name} draws {after} cards.",
        "after",
    ),
    "planechase.ability.flame": Plural(
        "{plane}: {before} → {after} flame counter; it deals {after} damage to {name}.",
        "{plane}: {before} → {after} flame counters; it deals {after} damage to {name}.",
        "after",
    ),
    "planechase.ability.charge": Plural(
        "{plane}: {before} → {after} charge counter; {name} adds one red mana.",
        "{plane}: {before} → {after} charge counters; {name} adds {after} red mana.",
        "after",
    ),
    "planechase.ability.pressure": Plural(
        "{plane}: {before} → {after} pressure counter at the end of the turn.",
        "{plane}: {before} → {after} pressure counters at the end of the turn.",
        "after",
    ),
    "planechase.extra_encounter": " {name} encounters {phenomenon}: resolve it, then press NEXT.",
    "planechase.encounter": "{name} encounters {phenomenon}: resolve it, then press NEXT.",
    "planechase.deck_empty": "{deck} is empty: no card to turn over.",
    "planechase.chaos_blanks": "Chaotic Aether: blanks count as chaos until someone "
    "planeswalks away from a plane.",
    "planechase.revealed_tunnel": "Interplanar Tunnel reveals {cards}: {name}, choose the "
    "plane to put on top ('choose NAME').",
    "planechase.revealed_stairs": "Stairs to Infinity reveals {cards}: {name}, keep it on top "
    "or put it on the bottom ('choose top' or 'choose bottom').",
    "planechase.revealed_pools": "Pools of Becoming reveals {cards}; their chaos abilities "
    "trigger: {name}, order them on the bottom ('choose A, B, C').",
    "planechase.choice_made": "{name} puts {top} on top and {bottom} on the bottom.",
    "planechase.choice_top": "{name} keeps {top} on top.",
    "planechase.choice_bottom": "{name} puts {bottom} on the bottom.",
    "planechase.then_list": "{first}, then {rest}",
    "planechase.direction_offered": "{name}, choose where to planeswalk: {choices}.",
    "planechase.counters": Plural(
        "{name}: {before} → {after} counter.", "{name}: {before} → {after} counters.", "after"
    ),
    "planechase.controller": "{name} becomes the planar controller.",
    "planechase.controller_stand_in": "{name} becomes the planar controller of {old}'s planes and takes {old}'s "
    "turn marker when this turn ends.",
    "planechase.controller_active": "The planar controller is the active player again.",
    "planechase.cards_left": "{name}'s planar cards leave the game with them{face_up}.",
    "planechase.cards_left_face_up": ", including face-up {cards}",
    "planechase.marker_passed": "{name} takes {old}'s turn marker and its planes.",
    "planechase.marker_removed": "{name}'s turn marker is removed; {cards} go to the bottom "
    "without anyone planeswalking.",
    "planechase.marker_removed_none": "{name}'s turn marker is removed.",
    "planechase.marker_removed_one": "{name}'s turn marker is removed; {cards} goes to the bottom "
    "without anyone planeswalking.",
    "planechase.cost_reset": "Planar die: the first roll this turn is free.",
    "planechase.card_skipped": "{name} is a phenomenon: put it on the bottom of {deck} and turn "
    "over the next card.",
    "planechase.card_returned": "{name} goes back into {deck}: turn over the right card and tap it.",
    "planechase.awaiting": "Turn over the top card of {deck} and tap it on the reader.",
    "planechase.deck_of": "{name}'s planar deck",
    "planechase.the_communal_deck": "the communal planar deck",
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


# --- pure helpers for the screen ------------------------------------------------------------------


def planar_controller(state: GameState) -> int:
    """901.6: the active player (2HG: the primary player of the active team), unless the
    designation moved because the planar controller left."""
    pc = planechase(state)
    if pc.controller is not None:
        return pc.controller
    if pc.two_headed_giant:
        return primary(state, team_of(state, state.active))
    return state.active


def planar_controllers(state: GameState) -> tuple[int, ...]:
    """Every planar controller: Grand Melee's marker holders, or whoever stands in for a holder
    who left during their turn (901.6); else the one planar controller."""
    pc = planechase(state)
    if not pc.grand_melee:
        return (planar_controller(state),)
    stand_ins = pc.stand_ins + (None,) * (len(pc.markers) - len(pc.stand_ins))
    return tuple(
        holder if stand_in is None else stand_in for holder, stand_in in zip(pc.markers, stand_ins)
    )


def marker_of(state: GameState, seat: int) -> int:
    """Grand Melee: the turn marker whose planes ``seat`` controls (0 when none)."""
    pc = planechase(state)
    controllers = planar_controllers(state)
    return controllers.index(seat) if pc.grand_melee and seat in controllers else 0


def may_roll(state: GameState, seat: int) -> bool:
    """PC-2: the active player (2HG: each member of the active team; Grand Melee: each marker
    holder) in the main phase."""
    pc = planechase(state)
    if state.step is not Step.MAIN or not state.player(seat).in_game:
        return False
    if pc.grand_melee:
        return seat in pc.markers
    if pc.two_headed_giant:
        return seat in team_of(state, state.active)
    return seat == state.active


def next_roll_cost(state: GameState, seat: int) -> int:
    """PC-2: the mana the seat's next special-action roll costs this turn."""
    pc = planechase(state)
    return pc.next_cost[seat] if seat < len(pc.next_cost) else 0


@dataclass(frozen=True)
class Odds:
    planeswalk: Fraction
    chaos: Fraction
    blank: Fraction


def odds(state: GameState) -> Odds:
    """PC-13: the next roll's odds (5/6 chaos while blanks count as chaos)."""
    if planechase(state).chaos_blanks:
        return Odds(Fraction(1, 6), Fraction(5, 6), Fraction(0))
    return Odds(Fraction(1, 6), Fraction(1, 6), Fraction(4, 6))


def chance_to_planeswalk(rolls: int) -> Fraction:
    """PC-13: P(at least one planeswalk in ``rolls`` rolls) = 1 − (5/6)^k."""
    return 1 - Fraction(5, 6) ** max(0, rolls)


def cost_of_rolls(rolls: int, first: int = 0) -> int:
    """PC-13: the mana of ``rolls`` special-action rolls when the next costs ``first``
    (from the start of a turn: k(k−1)/2)."""
    return sum(first + i for i in range(max(0, rolls)))


def chaos_planes(state: GameState, seat: int) -> tuple[str, ...]:
    """The face-up planes whose chaos ability a chaos roll by ``seat`` triggers: each face-up
    plane once (309.7, 901.9b); in Grand Melee the planes of the roller's marker."""
    pc = planechase(state)
    marker = marker_of(state, seat)
    return tuple(
        c.name
        for c in pc.face_up
        if c.kind is PlanarKind.PLANE and (not pc.grand_melee or c.marker == marker)
    )


def deck_problems(cards: Sequence[Card], players: int, communal: bool) -> list[Message]:
    """PC-4: every reason a planar deck is illegal (empty when it is legal), as messages."""
    problems: list[Message] = []
    minimum = min(COMMUNAL_MIN, MIN_DECK * players) if communal else MIN_DECK
    maximum = MAX_PHENOMENA * players if communal else MAX_PHENOMENA
    if len(cards) < minimum:
        problems.append(Message("planechase.deck_small", count=len(cards), minimum=minimum))
    phenomena = sum(1 for c in cards if c.kind is CardKind.PHENOMENON)
    if phenomena > maximum:
        problems.append(Message("planechase.deck_phenomena", count=phenomena, maximum=maximum))
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.name] = counts.get(card.name, 0) + 1
    for name, count in counts.items():
        if count > 1:
            problems.append(Message("planechase.deck_duplicate", name=name, count=count))
    for card in cards:
        if not card.is_planar:
            problems.append(Message("planechase.deck_not_planar", name=card.name))
    return problems


# --- small internals ------------------------------------------------------------------------------


def ref(card: Card) -> CardRef:
    return CardRef(name=card.name, kind=PlanarKind(card.kind.value))


def deck_owner(pc: PlanechaseState, seat: int) -> int | None:
    return None if pc.communal else seat


def deck_label(state: GameState, owner: int | None) -> Message:
    if owner is None:
        return Message("planechase.the_communal_deck")
    return Message("planechase.deck_of", name=state.player(owner).name)


def _card_names(cards: Iterable[str | CardRef]) -> Iterable[str]:
    return (c if isinstance(c, str) else c.name for c in cards)


def _names(cards: Iterable[str | CardRef]) -> str | Message:
    return joined([c if isinstance(c, str) else c.name for c in cards])


def _shuffled(cards: Sequence[CardRef], rng: Random) -> tuple[CardRef, ...]:
    order = list(cards)
    rng.shuffle(order)
    return tuple(order)


def _ready(state: GameState) -> PlanechaseState:
    """Refuse while the table must first resolve a phenomenon, a choice or a card to turn over."""
    pc = planechase(state)
    if pc.own_roll is not None:
        prompt = own_roll_prompt(state)
        raise IllegalCommand(prompt.key, **prompt.params)
    if pc.choice is not None:
        raise IllegalCommand(
            "planechase.choice_waiting",
            name=state.player(pc.choice.seat).name,
            what=choice_prompt(state),
        )
    if pc.encounter is not None:
        raise IllegalCommand("planechase.resolve_phenomenon", name=pc.encounter)
    if pc.awaiting is not None:
        prompt = awaiting_prompt(state)
        raise IllegalCommand(prompt.key, **prompt.params)
    return pc


def own_roll_prompt(state: GameState) -> Message:
    """What a table rolling its own die is asked: the face it showed (PC-1)."""
    pc = planechase(state)
    assert pc.own_roll is not None
    name = state.player(pc.own_roll.seat).name
    return Message("planechase.own_roll_d6" if pc.plain_d6 else "planechase.own_roll", name=name)


def awaiting_prompt(state: GameState) -> Message:
    """Who must turn over which card, naming it when the gadget knows the deck's order (PC-6)."""
    pc = planechase(state)
    waiting = pc.awaiting
    assert waiting is not None
    who, label = state.player(waiting.seat).name, deck_label(state, waiting.deck)
    if waiting.merging or waiting.starting:
        planes = Message("planechase.planes_count", n=waiting.planes)
        return Message("planechase.awaiting_planes", name=who, deck=label, planes=planes)
    deck = pc.deck(waiting.deck)
    card = deck.next_card if deck is not None else None
    if card is not None:
        return Message("planechase.awaiting_next", name=who, deck=label, card=card.name)
    return Message("planechase.awaiting_card", name=who, deck=label)


def awaited_cards(state: GameState) -> list[str]:
    """The cards a player may turn over for the awaited deck, the one expected next first: a
    listed deck's cards in its order, else every planar card not face up (PC-12: pick it on
    screen)."""
    pc = planechase(state)
    if pc.awaiting is None:
        return []
    deck = pc.deck(pc.awaiting.deck)
    if deck is not None and deck.physical and deck.listed:
        return [c.name for c in deck.cards if may_come_up(deck, c.name)]
    if deck is not None and deck.tracked:
        return [c.name for c in deck.cards]
    face_up = {c.name for c in pc.face_up}
    barred = (
        {c.name for c in deck.cards if not may_come_up(deck, c.name)} if deck is not None else set()
    )
    return sorted(
        (c.name for c in load_catalog().planar() if c.name not in face_up | barred),
        key=str.casefold,
    )


def choice_prompt(state: GameState) -> Message:
    """What the pending choice asks, for the screen and refusals."""
    choice = planechase(state).choice
    if choice is None:
        return Message("planechase.no_choice")
    if choice.kind is ChoiceKind.TUNNEL:
        planes = [c.name for c in choice.cards if c.kind is PlanarKind.PLANE]
        return Message("planechase.choose_tunnel", choices=joined(planes))
    if choice.kind is ChoiceKind.STAIRS:
        return Message("planechase.choose_stairs", card=_names(choice.cards))
    if choice.kind is ChoiceKind.POOLS:
        names = [c.name for c in choice.cards]
        return Message("planechase.choose_pools", choices=joined(names), first=", ".join(names))

    return Message(
        "planechase.choose_direction",
        choices=joined([direction_word(d) for d in directions(state)]),
    )


# --- set-up ---------------------------------------------------------------------------------------


def _source_cards(source: str) -> list[Card]:
    """The cards a deck is dealt from: every planar card but the playtest ones for ``all`` (they
    come only when their set is named), every one the reader may meet for ``physical``."""
    catalog = load_catalog().planar()
    if source == "all":
        return [card for card in catalog if not card.is_playtest]
    if source == "physical":
        return list(catalog)
    return list(catalog.in_set(source))


def build_virtual(
    source: str, players: int, communal: bool, size: int, rng: Random
) -> tuple[list[Card], list[Message]]:
    """A legal random planar deck from ``source`` (PC-12): for one player ``size`` cards with at
    most two phenomena; communal: every plane of the source and up to 2 × players phenomena."""
    pool = _source_cards(source)
    rng.shuffle(pool)
    planes = [c for c in pool if c.kind is CardKind.PLANE]
    phenomena = [c for c in pool if c.kind is CardKind.PHENOMENON]
    if communal:
        cards = planes + phenomena[: MAX_PHENOMENA * players]
    else:
        cards = []
        allowed = MAX_PHENOMENA
        for card in pool:
            if len(cards) == size:
                break
            if card.kind is CardKind.PHENOMENON:
                if allowed == 0:
                    continue
                allowed -= 1
            cards.append(card)
    problems = deck_problems(cards, players, communal)
    if problems and len(pool) < (COMMUNAL_MIN if communal else size):
        problems = [Message("planechase.deck_empty_source", source=source.upper(), count=len(pool))]
    elif (
        not communal and len(cards) < size
    ):  # asked for more than the source gives: say so, not a smaller deck
        problems = [
            Message(
                "planechase.deck_size_short", source=source.upper(), count=len(cards), size=size
            )
        ]
    rng.shuffle(cards)
    return cards, problems


def _illegal(problems: list[Message]) -> IllegalCommand:
    return IllegalCommand(
        "planechase.deck_illegal", problems=joined(problems, "planechase.problems")
    )


def _validate_options(state: GameState) -> None:
    o = state.options
    count = len(state.players)
    for option in ("grand_melee", "communal_deck"):
        if teamed(state) and o.get(option):
            raise IllegalCommand("planechase.two_headed_option", b=option)
    if o.get("eternities_map") and not o.get("communal_deck"):
        raise IllegalCommand("planechase.option_needs", a="eternities_map", b="communal_deck=on")
    if o.get("eternities_map") and (o.get("grand_melee") or o.get("planar_deck") == "physical"):
        other = "grand_melee" if o.get("grand_melee") else "planar_deck=physical"
        raise IllegalCommand("planechase.option_combo", a="eternities_map", b=other)
    if o.get("turn_markers") and not o.get("grand_melee"):
        raise IllegalCommand("planechase.option_needs", a="turn_markers", b="grand_melee=on")
    if o.get("grand_melee"):
        chosen = _chosen_markers(state)
        if chosen and count < 2 * chosen:
            raise IllegalCommand(
                "planechase.grand_melee_players",
                markers=Message("planechase.markers", n=chosen),
                needed=2 * chosen,
                count=count,
            )
        if not chosen and count < PLAYERS_PER_MARKER:
            raise IllegalCommand(
                "planechase.grand_melee_few", count=count, needed=PLAYERS_PER_MARKER
            )


def marker_seats(starting: int, players: int, markers: int) -> tuple[int, ...]:
    """Where the turn markers start (CR 807.4b): the starting player has the first, the player
    four seats to the left of the one before (the fifth player) the next, and so on.  A table
    with fewer than four players a marker (a smaller Grand Melee, or ``turn_markers`` set
    higher) spreads them as evenly as its seats allow."""
    if 4 * markers <= players:
        return tuple((starting + 4 * i) % players for i in range(markers))
    return tuple((starting + round(i * players / markers)) % players for i in range(markers))


def _chosen_markers(state: GameState) -> int:
    """The number of turn markers the table set with ``turn_markers``; 0: as the rules say."""
    wanted = state.options.get("turn_markers", 0)
    return wanted if isinstance(wanted, int) and not isinstance(wanted, bool) else 0


def allowed_markers(state: GameState, players: int) -> int:
    """How many turn markers ``players`` players keep: one for each full four (CR 807.4a), or
    the number the table chose while there are two players for each; always at least one."""
    chosen = _chosen_markers(state)
    if chosen:
        return max(1, min(chosen, players // 2))
    return max(1, players // PLAYERS_PER_MARKER)


def _marker_count(state: GameState) -> int:
    return allowed_markers(state, len(state.players))


def _deal(
    state: GameState, rng: Random, keep: dict[int | None, PlanarDeck] | None = None
) -> PlanarDecksDealt:
    o = state.options
    source = str(o.get("planar_deck", "all"))
    communal = bool(o.get("communal_deck"))
    physical = source == "physical"
    count = len(state.players)
    size_option = o.get("planar_deck_size", MIN_DECK)
    size = size_option if isinstance(size_option, int) else MIN_DECK
    owners: list[int | None] = [None] if communal else [p.seat for p in state.players]
    decks: list[PlanarDeck] = []
    for owner in owners:
        if keep is not None and owner in keep:
            decks.append(keep[owner])
            continue
        if physical:
            decks.append(PlanarDeck(owner=owner, physical=True, listed=False))
            continue
        cards, problems = build_virtual(source, count, communal, size, rng)
        if problems:
            raise _illegal(problems)
        decks.append(PlanarDeck(owner=owner, cards=tuple(ref(c) for c in cards)))
    markers: tuple[int, ...] = ()
    if o.get("grand_melee"):
        markers = marker_seats(state.starting_player, count, _marker_count(state))
    return PlanarDecksDealt(
        plain_d6=bool(o.get("plain_d6")),
        communal=communal,
        two_headed_giant=teamed(state),
        grand_melee=bool(o.get("grand_melee")),
        eternities_map=bool(o.get("eternities_map")),
        source=source,
        decks=tuple(decks),
        markers=markers,
    )


def starting_planes(state: GameState) -> list[Event]:
    """901.5 / 901.14a: the starting player (Grand Melee: each marker holder) turns over cards
    until a plane; phenomena go to the bottom and nothing triggers."""
    pc = planechase(state)
    events: list[Event] = []
    seats = pc.markers if pc.grand_melee else (state.starting_player,)
    for marker, seat in enumerate(seats):
        owner = deck_owner(pc, seat)
        deck = pc.deck(owner)
        if deck is None:
            continue
        if deck.physical:
            events.append(
                PlanarCardAwaited(
                    awaiting=Awaiting(seat=seat, deck=owner, starting=True, marker=marker)
                )
            )
            break  # physical: one card at a time; the next marker's start follows its tap
        for card in deck.cards:
            if card.kind is PlanarKind.PLANE:
                events.append(
                    PlaneTurnedOver(seat=seat, deck=owner, card=card, marker=marker, starting=True)
                )
                break
            events.append(PlanarCardSkipped(deck=owner, card=card))
    if pc.eternities_map and events:
        events += deal_start(apply_events(state, events))
    return events


@RULES.set_up
def _set_up(state: GameState, command: NewGame, rng: Random) -> list[Event]:
    if not state.has("planechase"):
        return []
    _validate_options(state)
    dealt = _deal(state, rng)
    return [dealt, *starting_planes(apply_events(state, [dealt]))]


# --- the die --------------------------------------------------------------------------------------


#: A side of the planar die that shows each face, for a table entering its own die's face (PC-1).
PIP_OF: dict[DieFace, int] = {DieFace.PLANESWALK: 6, DieFace.CHAOS: 1, DieFace.BLANK: 2}


def face_of(pip: int) -> DieFace:
    """PC-1: the planar die's chaos side is 1 and its planeswalker side 6 (a plain d6 the same)."""
    return DieFace.CHAOS if pip == 1 else DieFace.PLANESWALK if pip == 6 else DieFace.BLANK


def pip_label(state: GameState, roll: Roll) -> str:
    """What the die shows, as the table's die prints it: PL/CH/blank or the d6 number."""
    if planechase(state).plain_d6:
        return str(roll.pip)
    return {DieFace.PLANESWALK: "PL", DieFace.CHAOS: "CH", DieFace.BLANK: "blank"}[roll.face]


@RULES.decides(RollPlanarDie)
def _roll(state: GameState, command: RollPlanarDie, rng: Random) -> list[Event]:
    pc = planechase(state)
    if command.pip is not None and not 1 <= command.pip <= 6:
        raise IllegalCommand("planechase.bad_pip", pip=command.pip)
    if pc.own_roll is not None:
        if command.pip is None:
            raise IllegalCommand(own_roll_prompt(state).key, **own_roll_prompt(state).params)
        if command.seat is None or command.seat == pc.own_roll.seat:
            # The face the table's die showed, for the roll the gadget is waiting on.
            command = command.model_copy(
                update={"seat": pc.own_roll.seat, "free": pc.own_roll.free}
            )
            state = _set(state, own_roll=None)
    pc = _ready(state)
    if command.free:
        seat = planar_controller(state) if command.seat is None else command.seat
        check_seat(state, seat)
        cost = 0
    else:
        seat = state.active if command.seat is None else command.seat
        player = check_seat(state, seat)
        if state.step is not Step.MAIN:
            raise IllegalCommand("planechase.not_main", name=player.name)
        if not may_roll(state, seat):
            rollers = _rollers(state)
            if not rollers:  # the players whose turn it is have left: the turn goes on without them
                raise IllegalCommand("planechase.no_roller", name=player.name)
            who = joined([state.player(s).name for s in rollers], "planechase.or")
            raise IllegalCommand("planechase.not_roller", who=who, name=player.name)
        cost = next_roll_cost(state, seat)
    if command.pip is None and state.options.get("own_die"):
        return [PlanarDieAwaited(roll=OwnRoll(seat=seat, free=command.free))]
    pip = rng.randrange(6) + 1 if command.pip is None else command.pip
    face = face_of(pip)
    result = DieFace.CHAOS if face is DieFace.BLANK and pc.chaos_blanks else face
    chaos = chaos_planes(state, seat) if result is DieFace.CHAOS else ()
    rolled = PlanarDieRolled(
        seat=seat,
        pip=pip,
        face=face,
        result=result,
        cost=cost,
        special=not command.free,
        chaos=chaos,
    )
    events: list[Event] = [rolled]
    if result is DieFace.PLANESWALK:
        events += _planeswalk_or_offer(state, seat, "die", rng)
    elif result is DieFace.CHAOS:
        events += _chaos_reveals(state, seat, chaos)
    return events


def _rollers(state: GameState) -> list[int]:
    return [
        p.seat
        for p in state.in_game()
        if may_roll(state.model_copy(update={"step": Step.MAIN}), p.seat)
    ]


def _chaos_reveals(state: GameState, seat: int, planes: tuple[str, ...]) -> list[Event]:
    """Planes whose chaos ability looks at the top of the planar deck (PC-11)."""
    pc = planechase(state)
    controller = planar_controllers(state)[marker_of(state, seat)]
    owner = deck_owner(pc, controller)
    deck = pc.deck(owner)
    if deck is None or deck.physical or not deck.cards:
        return []
    for plane in planes:
        if plane == STAIRS_TO_INFINITY:
            return [
                PlanarCardsRevealed(
                    seat=controller,
                    deck=owner,
                    kind=ChoiceKind.STAIRS,
                    cards=deck.cards[:1],
                    source=plane,
                )
            ]
        if plane == POOLS_OF_BECOMING:
            return [
                PlanarCardsRevealed(
                    seat=controller,
                    deck=owner,
                    kind=ChoiceKind.POOLS,
                    cards=deck.cards[:POOLS_CARDS],
                    source=plane,
                )
            ]
    return []


# --- planeswalking --------------------------------------------------------------------------------


def _planeswalk_or_offer(state: GameState, seat: int, cause: str, rng: Random) -> list[Event]:
    pc = planechase(state)
    walker = planar_controllers(state)[marker_of(state, seat)]
    if cause == "die" and pc.two_headed_giant:
        walker = seat  # 901.8: the planeswalking ability is the roller's, so they planeswalk (PC-3)
    if pc.map is not None and pc.encounter is None:
        return [offer_direction(state, walker)]
    return [planeswalk(state, walker, cause)]


def planeswalk(state: GameState, seat: int, cause: str, planes_wanted: int = 0) -> Planeswalked:
    """701.22b: the face-up cards (of the seat's marker) go to the bottom of their owners' decks,
    then the seat turns over the top card of their deck; with ``planes_wanted`` (Spatial
    Merging) cards are revealed until that many planes, the rest go to the bottom."""
    pc = planechase(state)
    marker = marker_of(state, seat)
    away = [c for c in pc.face_up if not pc.grand_melee or c.marker == marker]
    owner = deck_owner(pc, seat)
    deck = pc.deck(owner)
    if deck is None:
        return Planeswalked(
            seat=seat, deck=owner, marker=marker, away=tuple(c.name for c in away), cause=cause
        )
    if deck.physical:
        return Planeswalked(
            seat=seat,
            deck=owner,
            marker=marker,
            away=tuple(c.name for c in away),
            wait=max(1, planes_wanted),
            cause=cause,
        )
    cards = list(deck.cards) + [
        CardRef(name=c.name, kind=c.kind) for c in away if _owner_key(pc, c) == owner
    ]
    to: list[CardRef] = []
    bottom: list[CardRef] = []
    if planes_wanted:
        for card in cards:
            if len(to) == planes_wanted:
                break
            (to if card.kind is PlanarKind.PLANE else bottom).append(card)
    elif cards:
        to.append(cards[0])
    return Planeswalked(
        seat=seat,
        deck=owner,
        marker=marker,
        away=tuple(c.name for c in away),
        to=tuple(to),
        bottom=tuple(bottom),
        cause=cause,
    )


def _owner_key(pc: PlanechaseState, card: FaceUpCard) -> int | None:
    return None if pc.communal else card.owner


@RULES.decides(Planeswalk)
def _planeswalk(state: GameState, command: Planeswalk, rng: Random) -> list[Event]:
    waiting = planechase(state).choice
    if (
        command.direction is not None
        and waiting is not None
        and waiting.kind is ChoiceKind.DIRECTION
    ):
        # PC-14: a planeswalk that names a direction answers the map's question of where to go.
        return _choose(state, ChoosePlanar(answer=(command.direction,)), rng)
    pc = _ready(state)
    seat = planar_controller(state) if command.seat is None else command.seat
    check_seat(state, seat)
    if pc.grand_melee and seat not in planar_controllers(state):
        seat = planar_controller(state)
    if command.direction is not None:
        if pc.map is None:
            raise IllegalCommand("planechase.direction_no_map")

        return move(state, seat, command.direction, rng)
    return _planeswalk_or_offer(state, seat, "effect", rng)


@RULES.decides(AcknowledgePhenomenon)
def _acknowledge(state: GameState, command: AcknowledgePhenomenon, rng: Random) -> list[Event]:
    pc = planechase(state)
    if pc.choice is not None:
        raise IllegalCommand(
            "planechase.choice_waiting",
            name=state.player(pc.choice.seat).name,
            what=choice_prompt(state),
        )
    if pc.encounter is None:
        raise IllegalCommand("planechase.no_encounter")
    card = next(c for c in pc.face_up if c.name == pc.encounter)
    seat = planar_controllers(state)[card.marker] if pc.grand_melee else planar_controller(state)
    deck = pc.deck(deck_owner(pc, seat))
    virtual = deck is not None and not deck.physical
    name = pc.encounter
    if name == CHAOTIC_AETHER:
        first: list[Event] = [ChaosBlanksBegan()]
        return first + [planeswalk(apply_events(state, first), seat, "phenomenon")]
    if name == TIME_DISTORTION:
        first = [TurnOrderReversed(direction=-state.direction)]
        return first + [planeswalk(apply_events(state, first), seat, "phenomenon")]
    if name == SPATIAL_MERGING:
        return [planeswalk(state, seat, "phenomenon", planes_wanted=2)]
    if name == INTERPLANAR_TUNNEL and virtual and deck is not None:
        revealed: list[CardRef] = []
        for c in deck.cards:
            if sum(1 for r in revealed if r.kind is PlanarKind.PLANE) == TUNNEL_PLANES:
                break
            revealed.append(c)
        if any(c.kind is PlanarKind.PLANE for c in revealed):
            return [
                PlanarCardsRevealed(
                    seat=seat,
                    deck=deck.owner,
                    kind=ChoiceKind.TUNNEL,
                    cards=tuple(revealed),
                    source=name,
                )
            ]
    return [planeswalk(state, seat, "phenomenon")]


@RULES.decides(ChoosePlanar)
def _choose(state: GameState, command: ChoosePlanar, rng: Random) -> list[Event]:
    pc = planechase(state)
    choice = pc.choice
    if choice is None:
        if not command.answer:
            _ready(state)
        raise IllegalCommand("planechase.no_choice")
    answer = [" ".join(a.split()) for a in command.answer if a.strip()]
    if not answer:
        _ready(state)  # raises: says what is waiting
    if choice.kind is ChoiceKind.DIRECTION:
        if len(answer) != 1:
            raise IllegalCommand(
                "planechase.bad_choice", text=" ".join(answer), choices=choice_prompt(state)
            )
        return move(state, choice.seat, answer[0], rng)
    if choice.kind is ChoiceKind.STAIRS:
        word = answer[0].casefold() if len(answer) == 1 else ""
        if word not in ("top", "bottom", "keep"):
            raise IllegalCommand(
                "planechase.bad_choice", text=" ".join(answer), choices="top, bottom"
            )
        cards = choice.cards
        return [
            PlanarChoiceMade(
                seat=choice.seat,
                top=cards if word != "bottom" else (),
                bottom=cards if word == "bottom" else (),
            )
        ]
    picked = [_pick(choice.cards, text) for text in answer]
    if choice.kind is ChoiceKind.TUNNEL:
        planes = [c for c in choice.cards if c.kind is PlanarKind.PLANE]
        if len(picked) != 1 or picked[0].kind is not PlanarKind.PLANE:
            raise IllegalCommand(
                "planechase.bad_choice", text=", ".join(answer), choices=_names(planes)
            )
        rest = _shuffled(
            [c for c in choice.cards if c != picked[0]], rng
        )  # random order (the card says so)
        made = PlanarChoiceMade(seat=choice.seat, top=(picked[0],), bottom=rest)
        return [made, planeswalk(apply_events(state, [made]), choice.seat, "phenomenon")]
    # Pools of Becoming: the order on the bottom
    if sorted(c.name for c in picked) != sorted(c.name for c in choice.cards):
        raise IllegalCommand(
            "planechase.bad_choice", text=", ".join(answer), choices=_names(choice.cards)
        )
    return [PlanarChoiceMade(seat=choice.seat, bottom=tuple(picked))]


def _pick(cards: Sequence[CardRef], text: str) -> CardRef:
    from device.catalog import name_key

    key = name_key(text)
    exact = [c for c in cards if name_key(c.name) == key]
    starts = [c for c in cards if key and name_key(c.name).startswith(key)]
    found = exact or starts
    if len(found) != 1:
        raise IllegalCommand("planechase.bad_choice", text=text, choices=_names(cards))
    return found[0]


@RULES.decides(ChangePlaneCounters)
def _counters(state: GameState, command: ChangePlaneCounters, rng: Random) -> list[Event]:
    pc = planechase(state)
    planes = [c for c in pc.face_up if c.kind is PlanarKind.PLANE]
    face_up = _names(c.name for c in pc.face_up)
    if command.name is None:
        if not planes:
            raise IllegalCommand("planechase.no_plane")
        if len(planes) > 1:
            raise IllegalCommand("planechase.which_plane", face_up=face_up)
        card = planes[0]
    else:
        card = _pick_face_up(planes, command.name, face_up)
    if command.delta == 0:
        raise IllegalCommand("planechase.counters_zero")
    if card.counters + command.delta < 0:
        raise IllegalCommand(
            "planechase.counters_below",
            name=card.name,
            counters=card.counters,
            remove=-command.delta,
        )
    return [PlaneCountersChanged(name=card.name, delta=command.delta)]


def _pick_face_up(cards: Sequence[FaceUpCard], text: str, face_up: str | Message) -> FaceUpCard:
    from device.catalog import name_key

    key = name_key(text)
    found = [c for c in cards if name_key(c.name) == key] or [
        c for c in cards if key and name_key(c.name).startswith(key)
    ]
    if len(found) != 1:
        raise IllegalCommand("planechase.not_plane", name=text, face_up=face_up)
    return found[0]


# --- physical decks -------------------------------------------------------------------------------


@RULES.decides(RevealPlanarCard)
def _reveal(state: GameState, command: RevealPlanarCard, rng: Random) -> list[Event]:
    pc = planechase(state)
    card = load_catalog().find(command.name)
    waiting = pc.awaiting
    if waiting is None:
        if not any(d.physical for d in pc.decks):
            raise IllegalCommand("planechase.virtual_deck", name=card.name)
        face_up = any(c.name == card.name for c in pc.face_up)
        why = "planechase.why_face_up" if face_up else "planechase.why_idle"
        raise IllegalCommand("planechase.not_waiting", name=card.name, why=Message(why))
    label = deck_label(state, waiting.deck)
    if any(c.name == card.name and _owner_key(pc, c) == waiting.deck for c in pc.face_up):
        raise IllegalCommand("planechase.card_face_up", name=card.name, deck=label)
    deck = pc.deck(waiting.deck)
    if deck is not None and deck.listed and all(c.name != card.name for c in deck.cards):
        raise IllegalCommand("planechase.card_not_in_deck", name=card.name, deck=label)
    if not card.is_planar:
        raise IllegalCommand("planechase.card_not_in_deck", name=card.name, deck=label)
    if deck is not None and deck.physical:
        _check_comes_up(deck, card.name, label)
    if card.kind is CardKind.PHENOMENON and (
        waiting.starting or waiting.merging or waiting.planes > 1
    ):
        # 901.5 and Spatial Merging: a phenomenon revealed on the way goes to the bottom, unencountered
        return [PlanarCardSkipped(deck=waiting.deck, card=ref(card), starting=waiting.starting)]
    events: list[Event] = [
        PlaneTurnedOver(
            seat=waiting.seat,
            deck=waiting.deck,
            card=ref(card),
            marker=waiting.marker,
            starting=waiting.starting,
        )
    ]
    if waiting.starting and pc.grand_melee and waiting.marker + 1 < len(pc.markers):
        nxt = waiting.marker + 1
        seat = pc.markers[nxt]
        events.append(
            PlanarCardAwaited(
                awaiting=Awaiting(seat=seat, deck=deck_owner(pc, seat), starting=True, marker=nxt)
            )
        )
    return events


def may_come_up(deck: PlanarDeck, name: str) -> bool:
    """Whether the card called ``name`` can be the top card of the physical ``deck`` (701.22b):
    a card put on the bottom comes back only once every card above it has been turned over, so
    it is never the next card right after it went there; once every card of a listed deck has
    been seen, only the one that went to the bottom longest ago can come up."""
    index = next((i for i, c in enumerate(deck.cards) if c.name == name), None)
    if index is None:
        return not deck.listed  # an unlisted deck: a card the gadget never saw go to its bottom
    if deck.listed and index < deck.unseen:
        return True
    return deck.unseen == 0 and index == 0


def _check_comes_up(deck: PlanarDeck, name: str, label: Message) -> None:
    if may_come_up(deck, name):
        return
    if deck.listed and deck.unseen == 0:
        raise IllegalCommand(
            "planechase.card_not_next", name=name, deck=label, card=deck.cards[0].name
        )
    raise IllegalCommand("planechase.card_on_bottom", name=name, deck=label)


@RULES.decides(ReturnPlanarCard)
def _return(state: GameState, command: ReturnPlanarCard, rng: Random) -> list[Event]:
    pc = planechase(state)
    face_up = _names(c.name for c in pc.face_up)
    card = _pick_face_up(pc.face_up, command.name, face_up)
    deck = pc.deck(_owner_key(pc, card))
    if deck is None or not deck.physical:
        raise IllegalCommand("planechase.return_not_physical")
    seat = planar_controllers(state)[card.marker] if pc.grand_melee else planar_controller(state)
    starting = not pc.rolls and len(pc.visited) <= len(planar_controllers(state))
    waiting = pc.awaiting
    planes = 1 if waiting is None else waiting.planes + (card.kind is PlanarKind.PLANE)
    merged = [c for c in pc.face_up if c.kind is PlanarKind.PLANE and c.marker == card.marker]
    merging = planes > 1 or (waiting.merging if waiting is not None else len(merged) > 1)
    awaiting = Awaiting(
        seat=seat,
        deck=deck.owner,
        planes=planes,
        merging=merging,
        starting=starting,
        marker=card.marker,
    )
    return [PlanarCardReturned(name=card.name, awaiting=awaiting)]


@RULES.decides(SetPlanarDeck)
def _set_deck(state: GameState, command: SetPlanarDeck, rng: Random) -> list[Event]:
    pc = planechase(state)
    starts = len(planar_controllers(state))
    if pc.rolls or len(pc.visited) > starts or pc.encounter is not None or pc.choice is not None:
        raise IllegalCommand("planechase.deck_locked")
    if pc.communal and command.owner is not None:
        raise IllegalCommand("planechase.communal_owner")
    if not pc.communal and command.owner is None:
        raise IllegalCommand("planechase.not_communal")
    if command.owner is not None:
        check_seat(state, command.owner)
    players = len(state.players)
    physical = pc.source == "physical"
    if command.names:
        catalog = load_catalog().planar()
        cards = [catalog.find(name) for name in command.names]
        problems = deck_problems(cards, players, pc.communal)
        if problems:
            raise _illegal(problems)
        if not physical:
            rng.shuffle(cards)
        refs = tuple(ref(c) for c in cards)
        new = PlanarDeck(
            owner=command.owner,
            cards=refs,
            physical=physical,
            listed=True,
            unseen=len(refs) if physical else 0,
        )
    else:
        source = (command.source or "all").casefold()
        cards, problems = build_virtual(source, players, pc.communal, MIN_DECK, rng)
        if problems:
            raise _illegal(problems)
        new = PlanarDeck(owner=command.owner, cards=tuple(ref(c) for c in cards))
    keep: dict[int | None, PlanarDeck] = {}
    for deck in pc.decks:
        if deck.owner == command.owner:
            continue
        back = [
            CardRef(name=c.name, kind=c.kind) for c in pc.face_up if _owner_key(pc, c) == deck.owner
        ]
        # back on top, where the starting plane came from, so the other decks keep their order
        cards_back = tuple(back) + deck.cards if deck.tracked else deck.cards
        unseen = deck.unseen + len(back) if deck.physical and deck.listed else 0
        keep[deck.owner] = deck.model_copy(update={"cards": cards_back, "unseen": unseen})
    dealt = _deal(state, rng, keep=keep | {command.owner: new})
    dealt = dealt.model_copy(update={"markers": pc.markers})
    return [dealt, *starting_planes(apply_events(state, [dealt]))]


# --- the planar controller and leaving the game ------------------------------------------------------


def _next_staying(state: GameState, seat: int, leaving: set[int]) -> int | None:
    count = len(state.players)
    for step in range(1, count + 1):
        other = (seat + step * state.direction) % count
        if state.player(other).in_game and other not in leaving:
            return other
    return None


@RULES.state_check
def _leaving(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """901.6, 901.10, 901.12b, 901.14b: when players leave (PC-8)."""
    pc = state.planechase
    if pc is None:
        return []
    gone = [e.seat for e in events if isinstance(e, PlayerLost)]
    if not gone:
        return []
    if pc.two_headed_giant:
        return _teams_leaving(state, gone)
    leaving = set(gone)
    out: list[Event] = []
    current = state
    for seat in gone:
        step: list[Event] = []
        if pc.grand_melee:
            step = _marker_leaving(current, seat, leaving)
        elif seat == planar_controller(current):
            new = _next_staying(current, seat, leaving)
            step = [PlanarControllerChanged(seat=new)] if new is not None else []
        out += step
        current = apply_events(current, step)
        step = _cards_leave(current, seat)
        out += step
        current = apply_events(current, step)
    return out


def _teams_leaving(state: GameState, gone: list[int]) -> list[Event]:
    """901.12b: a Two-Headed Giant team leaves together (810.8a).  Once both its players are out,
    if the planar controller is one of them the primary player of the next team in turn order
    becomes planar controller first; then the team's cards leave, and if a face-up card went with
    them the planar controller turns over the top card of their own deck (901.10)."""
    out: list[Event] = []
    current = state
    done: set[tuple[int, int]] = set()
    for seat in gone:
        team = team_of(current, seat)
        if team in done or any(current.player(s).in_game for s in team):
            continue  # the teammate leaves with them in the same breath; the team's cards go then
        done.add(team)
        if planar_controller(current) in team:
            new = _next_team_primary(current, team)
            step: list[Event] = [PlanarControllerChanged(seat=new)] if new is not None else []
            out += step
            current = apply_events(current, step)
        for member in team:
            step = _cards_leave(current, member)
            out += step
            current = apply_events(current, step)
    return out


def _next_team_primary(state: GameState, team: tuple[int, int]) -> int | None:
    count = len(state.players)
    for step in range(1, count // 2 + 1):
        other = team_of(state, (team[0] + 2 * step * state.direction) % count)
        staying = [s for s in other if state.player(s).in_game]
        if staying and other != team:
            return primary(state, other)
    return None


def _marker_leaving(state: GameState, seat: int, leaving: set[int]) -> list[Event]:
    """Grand Melee: a planar controller leaves.  If that lowers the number of turn markers the
    table keeps (807.4a), their marker is removed and its planes go to the bottom with nobody
    planeswalking (901.14b); otherwise the next player stands in as planar controller of its
    planes (901.6) and takes the marker itself when this turn ends (807.4c)."""
    pc = planechase(state)
    controllers = planar_controllers(state)
    if seat not in controllers:
        return []
    marker = controllers.index(seat)
    holder = pc.markers[marker] == seat
    fewer = allowed_markers(state, len(state.in_game())) < len(pc.markers)
    if holder and marker > 0 and fewer:
        return [TurnMarkerRemoved(marker=marker, seat=seat)]
    taker = _next_free(state, seat, leaving)
    return [PlanarControllerChanged(seat=taker, marker=marker)] if taker is not None else []


def _cards_leave(state: GameState, seat: int) -> list[Event]:
    """901.10: every planar card ``seat`` owns leaves with them; if a face-up one did, its
    planar controller turns over the top card of their own planar deck at once."""
    pc = planechase(state)
    owned = tuple(c.name for c in pc.face_up if c.owner == seat)
    if pc.communal or (pc.deck(seat) is None and not owned):
        return []
    markers_hit = {c.marker for c in pc.face_up if c.owner == seat}
    out: list[Event] = [PlanarCardsLeft(seat=seat, face_up=owned)]
    current = apply_events(state, out)
    for marker in sorted(markers_hit):
        pc = planechase(current)
        if pc.grand_melee and marker >= len(pc.markers):
            continue
        controller = (
            planar_controllers(current)[marker] if pc.grand_melee else planar_controller(current)
        )
        if not current.player(controller).in_game:
            continue
        turned = _turn_over_top(current, controller, marker)
        out += turned
        current = apply_events(current, turned)
    return out


def _turn_over_top(state: GameState, seat: int, marker: int) -> list[Event]:
    """901.10: the planar controller turns the top card of their planar deck face up at once."""
    pc = planechase(state)
    owner = deck_owner(pc, seat)
    deck = pc.deck(owner)
    if deck is None:
        return []
    if deck.physical:
        return [PlanarCardAwaited(awaiting=Awaiting(seat=seat, deck=owner, marker=marker))]
    if not deck.cards:
        return []
    return [
        Planeswalked(
            seat=seat, deck=owner, marker=marker, away=(), to=deck.cards[:1], cause="owner_left"
        )
    ]


def _next_free(state: GameState, seat: int, leaving: set[int]) -> int | None:
    """The next player in turn order who stays and controls no planes yet."""
    controllers = planar_controllers(state)
    count = len(state.players)
    for step in range(1, count + 1):
        other = (seat + step * state.direction) % count
        if state.player(other).in_game and other not in leaving and other not in controllers:
            return other
    return None


def _markers_fewer(state: GameState) -> list[Event]:
    """807.4d: when players left and the table keeps fewer turn markers (807.4a), a marker is
    removed between turns: the one nearest to the right of a player who left (the lower number if
    several could go), its planes to the bottom with nobody planeswalking.  The first marker is
    the table's own turn and stays."""
    out: list[Event] = []
    current = state
    gone = [p for p in state.players if p.lost is not None]
    recent = [p.seat for p in gone if p.lost is not None and p.lost.turn >= state.turn - 1]
    departed = recent or [p.seat for p in gone]
    count = len(state.players)
    while True:
        pc = planechase(current)
        if len(pc.markers) <= allowed_markers(current, len(current.in_game())):
            return out
        candidates: list[int] = []
        for seat in departed:
            for step in range(1, count):
                right = (seat - step * current.direction) % count
                if right in pc.markers[1:]:
                    candidates.append(pc.markers.index(right, 1))
                    break
        if not candidates:
            return out
        marker = min(candidates)
        step_events: list[Event] = [TurnMarkerRemoved(marker=marker, seat=pc.markers[marker])]
        out += step_events
        current = apply_events(current, step_events)


@RULES.state_check
def _turn_began(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """PC-2: roll costs start again each turn; 901.6: the active player is planar controller.
    Grand Melee: a marker goes, if the table keeps fewer (807.4d); the first follows the active
    player, each other one moves to the next player in turn order — the one standing in for a
    holder who left during the turn takes theirs (807.4c)."""
    pc = state.planechase
    if pc is None or not any(isinstance(e, TurnPassed) for e in events):
        return []
    markers: tuple[int, ...] = ()
    out: list[Event] = []
    if pc.grand_melee:
        out = _markers_fewer(state)
        current = apply_events(state, out)
        pc = planechase(current)
        stand_ins = pc.stand_ins + (None,) * (len(pc.markers) - len(pc.stand_ins))
        moved = [current.active]
        for seat, stand_in in zip(pc.markers[1:], stand_ins[1:]):
            if stand_in is not None and current.player(stand_in).in_game and stand_in not in moved:
                moved.append(stand_in)
                continue
            nxt = seat
            for _ in range(len(current.players)):
                nxt = (nxt + current.direction) % len(current.players)
                if current.player(nxt).in_game and nxt not in moved:
                    break
            moved.append(nxt)
        markers = tuple(moved)
    return [*out, PlanarTurnBegan(markers=markers)]


# --- planes that count (PC-11) ------------------------------------------------------------------------


def controller_of(state: GameState, card: FaceUpCard) -> int:
    """Who controls a face-up card: its turn marker's holder (or who stands in for them) in Grand
    Melee, else the planar controller."""
    pc = planechase(state)
    if pc.grand_melee and card.marker < len(pc.markers):
        return planar_controllers(state)[card.marker]
    return planar_controller(state)


def _moments(state: GameState, events: list[Event]) -> list[tuple[Moment, FaceUpCard]]:
    """The moments in ``events`` at which a face-up plane's text counts, with that plane."""
    pc = planechase(state)
    planes = [c for c in pc.face_up if c.kind is PlanarKind.PLANE]
    # "Your upkeep / main phase / end step": the turn's player controls marker 0's planes.
    turn_planes = [c for c in planes if not pc.grand_melee or c.marker == 0]
    found: list[tuple[Moment, FaceUpCard]] = []
    for event in events:
        arrived: tuple[str, ...] = ()
        if isinstance(event, TurnPassed):
            found += [("end", c) for c in turn_planes] + [("upkeep", c) for c in turn_planes]
        elif isinstance(event, StepChanged) and event.step == Step.MAIN.value:
            found += [("main", c) for c in turn_planes]
        elif isinstance(event, Planeswalked) and event.cause != "owner_left":
            arrived = tuple(c.name for c in event.to)
        elif isinstance(event, PlaneTurnedOver) and not event.starting:
            arrived = (event.card.name,)
        elif isinstance(event, PlaneTurnedOver) and _first_upkeep(state, event):
            # 901.5: the starting plane is face up before the first turn, so its "at the beginning
            # of your upkeep" triggers in turn 1 (turned over on the reader during that upkeep too).
            found += [("upkeep", c) for c in turn_planes if c.name == event.card.name]
        elif isinstance(event, MapMoved):
            arrived = (event.arrived.name,)
        elif isinstance(event, PlanarDieRolled) and event.result is DieFace.CHAOS:
            found += [("chaos", c) for c in planes if c.name in event.chaos]
        found += [("arrive", c) for c in planes if c.name in arrived]
    return found


def _first_upkeep(state: GameState, event: PlaneTurnedOver) -> bool:
    """A starting plane turned face up for the first turn's player while that upkeep lasts."""
    pc = planechase(state)
    return (
        event.starting
        and state.turn == 1
        and state.step is Step.UPKEEP
        and not pc.rolls
        and (not pc.grand_melee or event.marker == 0)
    )


@RULES.state_check
def _planes_that_count(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """PC-11: a plane's counters when its text adds them, the life they change, and a planeswalk
    when a plane reaches the count its text names (``plane_abilities``)."""
    pc = state.planechase
    if pc is None:
        return []
    out: list[Event] = []
    tracks_life = find_format(state.formats[0]).tracks_life
    for moment, card in _moments(state, events):
        for ability in abilities_at(card.name, moment):
            out.append(PlaneCountersChanged(name=card.name, delta=1, ability=ability.does))
            seat = controller_of(state, card)
            if ability.life and tracks_life and state.player(seat).in_game:
                count = card.counters + sum(
                    1 for e in out if isinstance(e, PlaneCountersChanged) and e.name == card.name
                )
                out.append(LifeChanged(seat=seat, delta=ability.life * count))
    if out or pc.encounter is not None or pc.choice is not None or pc.awaiting is not None:
        return out
    changed = {e.name for e in events if isinstance(e, PlaneCountersChanged)}
    for card in pc.face_up:
        limit = PLANESWALK_AT.get(card.name)
        if card.name in changed and limit is not None and card.counters >= limit:
            return _planeswalk_or_offer(state, controller_of(state, card), "threshold", rng)
    return out


# --- each event: what it does to the state (apply), and what it says (describe) ---------------


def _set(state: GameState, **changes: object) -> GameState:
    pc = planechase(state)
    return state.model_copy(update={"planechase": pc.model_copy(update=changes)})


def _with_deck(
    pc: PlanechaseState, owner: int | None, cards: Sequence[CardRef]
) -> tuple[PlanarDeck, ...]:
    return tuple(
        d.model_copy(update={"cards": tuple(cards)}) if d.owner == owner else d for d in pc.decks
    )


def _taken(pc: PlanechaseState, owner: int | None, name: str) -> tuple[PlanarDeck, ...]:
    """The decks after a card was turned over from ``owner``'s: a physical card taken from among
    those nobody has seen leaves one fewer unseen."""
    deck = pc.deck(owner)
    if deck is None:
        return pc.decks
    index = next((i for i, c in enumerate(deck.cards) if c.name == name), None)
    if (
        index is None and deck.physical and not deck.listed
    ):  # one of the cards it never saw, from above
        taken = deck.model_copy(update={"unseen": max(0, deck.unseen - 1)})
        return tuple(taken if d.owner == owner else d for d in pc.decks)
    if index is None:
        return pc.decks
    taken = deck.model_copy(
        update={
            "cards": deck.cards[:index] + deck.cards[index + 1 :],
            "unseen": deck.unseen - (index < deck.unseen),
        }
    )
    return tuple(taken if d.owner == owner else d for d in pc.decks)


def _to_bottom(
    pc: PlanechaseState, owner: int | None, cards: Sequence[CardRef]
) -> tuple[PlanarDeck, ...]:
    """The decks after ``cards`` went to the bottom of ``owner``'s, in order (701.22b).  An
    unlisted physical deck keeps them too, and how many cards at least lie above them: a deck
    has ten cards or more (901.3), less those of it still face up."""
    deck = pc.deck(owner)
    if deck is None or not cards:
        return pc.decks
    if not deck.tracked and not deck.physical:
        return pc.decks
    below = (*deck.cards, *cards)
    unseen = deck.unseen
    if not deck.listed:
        face_up = sum(1 for c in pc.face_up if _owner_key(pc, c) == owner)
        unseen = max(unseen, MIN_DECK - face_up - len(below))
    bottomed = deck.model_copy(update={"cards": below, "unseen": unseen})
    return tuple(bottomed if d.owner == owner else d for d in pc.decks)


def _all_to_bottom(pc: PlanechaseState, away: Sequence[FaceUpCard]) -> PlanechaseState:
    """Every card of ``away`` to the bottom of its owner's deck, in order (``pc`` without them
    face up)."""
    owners: list[int | None] = []
    for card in away:
        if _owner_key(pc, card) not in owners:
            owners.append(_owner_key(pc, card))
    for owner in owners:
        cards = [CardRef(name=c.name, kind=c.kind) for c in away if _owner_key(pc, c) == owner]
        pc = pc.model_copy(update={"decks": _to_bottom(pc, owner, cards)})
    return pc


def _remove(cards: Sequence[CardRef], names: Iterable[str]) -> list[CardRef]:
    left = list(cards)
    for name in names:
        for i, card in enumerate(left):
            if card.name == name:
                del left[i]
                break
    return left


def _deck_cards(pc: PlanechaseState, owner: int | None) -> list[CardRef]:
    deck = pc.deck(owner)
    return list(deck.cards) if deck is not None else []


@RULES.applies(PlanarDecksDealt)
def _apply_dealt(state: GameState, event: PlanarDecksDealt) -> GameState:
    pc = PlanechaseState(
        plain_d6=event.plain_d6,
        communal=event.communal,
        two_headed_giant=event.two_headed_giant,
        grand_melee=event.grand_melee,
        eternities_map=event.eternities_map,
        source=event.source,
        decks=event.decks,
        markers=event.markers,
        next_cost=tuple(0 for _ in state.players),
        map=EternitiesMap() if event.eternities_map else None,
    )
    return state.model_copy(update={"planechase": pc})


@RULES.describes(PlanarDecksDealt)
def _describe_dealt(state: GameState, event: PlanarDecksDealt) -> Message:
    # Physical decks nobody listed: the gadget knows whose they are, not how many cards they hold.
    unlisted = [deck.physical and not deck.listed for deck in event.decks]
    if event.decks and all(unlisted):
        communal = len(event.decks) == 1 and event.decks[0].owner is None
        key = "planechase.decks_physical_communal" if communal else "planechase.decks_physical"
        return _with_markers(state, event, Message(key))
    lines: list[str | Message] = []
    for deck, own in zip(event.decks, unlisted, strict=True):
        if own:
            lines.append(Message("planechase.deck_line_own", owner=_who(state, deck.owner)))
            continue
        key = "planechase.deck_line_physical" if deck.physical else "planechase.deck_line"
        lines.append(Message(key, owner=_who(state, deck.owner), count=len(deck.cards)))
    return _with_markers(state, event, Message("planechase.decks_dealt", decks=joined(lines)))


def _with_markers(state: GameState, event: PlanarDecksDealt, message: Message) -> Message:
    """Grand Melee: how many turn markers the table has and who holds them (807.4a, 807.4b)."""
    if not event.grand_melee or not event.markers:
        return message
    key = (
        "planechase.markers_dealt_chosen" if _chosen_markers(state) else "planechase.markers_dealt"
    )
    holders = joined([state.player(seat).name for seat in event.markers], "planechase.and")
    return Message(
        "planechase.then",
        first=message,
        rest=Message(
            key, markers=Message("planechase.markers", n=len(event.markers)), holders=holders
        ),
    )


@RULES.applies(PlanarCardSkipped)
def _apply_skipped(state: GameState, event: PlanarCardSkipped) -> GameState:
    pc = planechase(state)
    deck = pc.deck(event.deck)
    if deck is None or not (deck.tracked or deck.physical):
        return state
    pc = pc.model_copy(update={"decks": _taken(pc, event.deck, event.card.name)})
    return _set(state, decks=_to_bottom(pc, event.deck, [event.card]))


@RULES.describes(PlanarCardSkipped)
def _describe_skipped(state: GameState, event: PlanarCardSkipped) -> Message:
    key = "planechase.skipped_start" if event.starting else "planechase.card_skipped"
    return Message(key, name=event.card.name, deck=deck_label(state, event.deck))


def _face_up(pc: PlanechaseState, card: CardRef, deck: int | None, marker: int) -> FaceUpCard:
    return FaceUpCard(name=card.name, kind=card.kind, owner=deck, marker=marker)


@RULES.applies(PlaneTurnedOver)
def _apply_turned(state: GameState, event: PlaneTurnedOver) -> GameState:
    pc = planechase(state)
    decks = _taken(pc, event.deck, event.card.name)
    visit = Visit(turn=state.turn, seat=event.seat, name=event.card.name, kind=event.card.kind)
    awaiting = pc.awaiting
    if awaiting is not None:
        left = awaiting.planes - (event.card.kind is PlanarKind.PLANE or awaiting.planes == 1)
        awaiting = awaiting.model_copy(update={"planes": left}) if left > 0 else None
    encounter = pc.encounter
    if event.card.kind is PlanarKind.PHENOMENON and not event.starting:
        encounter = event.card.name
    return _set(
        state,
        decks=decks,
        face_up=(*pc.face_up, _face_up(pc, event.card, event.deck, event.marker)),
        visited=(*pc.visited, visit),
        awaiting=awaiting,
        encounter=encounter,
    )


@RULES.describes(PlaneTurnedOver)
def _describe_turned(state: GameState, event: PlaneTurnedOver) -> Message:
    if event.starting:
        return Message(
            "planechase.starting_plane", name=event.card.name, owner=_who(state, event.deck)
        )
    if event.card.kind is PlanarKind.PHENOMENON:
        return Message(
            "planechase.encounter", name=state.player(event.seat).name, phenomenon=event.card.name
        )
    return Message(
        "planechase.turned_over", seat=state.player(event.seat).name, name=event.card.name
    )


@RULES.applies(PlanarDieRolled)
def _apply_rolled(state: GameState, event: PlanarDieRolled) -> GameState:
    pc = planechase(state)
    roll = Roll(
        turn=state.turn,
        seat=event.seat,
        pip=event.pip,
        face=event.face,
        result=event.result,
        cost=event.cost,
        special=event.special,
    )
    costs = list(pc.next_cost) or [0] * len(state.players)
    if event.special:
        costs[event.seat] = event.cost + 1
    return _set(state, rolls=(*pc.rolls, roll), next_cost=tuple(costs), own_roll=None)


@RULES.describes(PlanarDieRolled)
def _describe_rolled(state: GameState, event: PlanarDieRolled) -> Message:
    if not event.special:
        cost = Message("planechase.cost_effect")
    elif event.cost == 0:
        cost = Message("planechase.cost_free")
    else:
        cost = Message("planechase.cost_paid", cost=event.cost)
    name = state.player(event.seat).name
    planes = joined(event.chaos, "planechase.and")
    message = _roll_message(state, event, name, cost, planes)
    pc = planechase(state)
    draws = [
        c.name
        for c in pc.face_up
        if c.name in DRAW_ON_ROLL and controller_of(state, c) == event.seat
    ]
    if draws:
        note = Message(
            "planechase.extra_draw_on_roll", name=name, plane=joined(draws, "planechase.and")
        )
        return Message("planechase.then", first=message, rest=note)
    return message


@RULES.applies(PlanarDieAwaited)
def _apply_die_awaited(state: GameState, event: PlanarDieAwaited) -> GameState:
    return _set(state, own_roll=event.roll)


@RULES.describes(PlanarDieAwaited)
def _describe_die_awaited(state: GameState, event: PlanarDieAwaited) -> Message:
    name = state.player(event.roll.seat).name
    return Message(
        "planechase.own_roll_d6" if planechase(state).plain_d6 else "planechase.own_roll", name=name
    )


@RULES.applies(Planeswalked)
def _apply_planeswalked(state: GameState, event: Planeswalked) -> GameState:
    pc = planechase(state)
    away = [
        c
        for c in pc.face_up
        if c.name in event.away and (not pc.grand_melee or c.marker == event.marker)
    ]
    staying = tuple(c for c in pc.face_up if c not in away)
    pc = _all_to_bottom(pc.model_copy(update={"face_up": staying}), away)  # 701.22b
    cards = _remove(
        _deck_cards(pc, event.deck), [c.name for c in (*event.to, *event.bottom)]
    ) + list(event.bottom)
    deck = pc.deck(event.deck)
    if deck is not None and not deck.physical:
        pc = pc.model_copy(update={"decks": _with_deck(pc, event.deck, cards)})
    face_up = (*staying, *(_face_up(pc, c, event.deck, event.marker) for c in event.to))
    visits = tuple(
        Visit(turn=state.turn, seat=event.seat, name=c.name, kind=c.kind) for c in event.to
    )
    encounter = next((c.name for c in event.to if c.kind is PlanarKind.PHENOMENON), None)
    chaos_blanks = pc.chaos_blanks and not any(c.kind is PlanarKind.PLANE for c in away)
    awaiting = (
        Awaiting(
            seat=event.seat,
            deck=event.deck,
            planes=event.wait,
            merging=event.wait > 1,
            marker=event.marker,
        )
        if event.wait
        else None
    )
    return state.model_copy(
        update={
            "planechase": pc.model_copy(
                update={
                    "face_up": face_up,
                    "visited": (*pc.visited, *visits),
                    "encounter": encounter,
                    "chaos_blanks": chaos_blanks,
                    "awaiting": awaiting,
                }
            )
        }
    )


@RULES.describes(Planeswalked)
def _describe_planeswalked(state: GameState, event: Planeswalked) -> Message:
    message = _planeswalk_message(state, event)
    pc = planechase(state)
    away = [
        c
        for c in pc.face_up
        if c.name in event.away and (not pc.grand_melee or c.marker == event.marker)
    ]
    return with_leaving_notes(message, away, threshold=event.cause == "threshold")


@RULES.applies(ChaosBlanksBegan)
def _apply_chaos_blanks(state: GameState, event: ChaosBlanksBegan) -> GameState:
    return _set(state, chaos_blanks=True)


@RULES.describes(ChaosBlanksBegan)
def _describe_chaos_blanks(state: GameState, event: ChaosBlanksBegan) -> Message:
    return Message("planechase.chaos_blanks")


@RULES.applies(PlanarCardsRevealed)
def _apply_revealed(state: GameState, event: PlanarCardsRevealed) -> GameState:
    pc = planechase(state)
    cards = _remove(_deck_cards(pc, event.deck), [c.name for c in event.cards])
    choice = PendingChoice(
        kind=event.kind, seat=event.seat, deck=event.deck, cards=event.cards, source=event.source
    )
    return _set(state, decks=_with_deck(pc, event.deck, cards), choice=choice)


@RULES.describes(PlanarCardsRevealed)
def _describe_revealed(state: GameState, event: PlanarCardsRevealed) -> Message:
    key = {
        ChoiceKind.TUNNEL: "planechase.revealed_tunnel",
        ChoiceKind.STAIRS: "planechase.revealed_stairs",
        ChoiceKind.POOLS: "planechase.revealed_pools",
        ChoiceKind.DIRECTION: "planechase.revealed_tunnel",
    }[event.kind]
    return Message(key, cards=_names(event.cards), name=state.player(event.seat).name)


@RULES.applies(PlanarChoiceMade)
def _apply_choice(state: GameState, event: PlanarChoiceMade) -> GameState:
    pc = planechase(state)
    if pc.choice is None:
        return state
    owner = pc.choice.deck
    cards = [*event.top, *_deck_cards(pc, owner), *event.bottom]
    return _set(state, decks=_with_deck(pc, owner, cards), choice=None)


@RULES.describes(PlanarChoiceMade)
def _describe_choice(state: GameState, event: PlanarChoiceMade) -> Message:
    name = state.player(event.seat).name
    if not event.bottom:
        return Message("planechase.choice_top", name=name, top=_names(event.top))
    if not event.top:
        return Message(
            "planechase.choice_bottom",
            name=name,
            bottom=joined(list(_card_names(event.bottom)), "planechase.then_list"),
        )
    return Message(
        "planechase.choice_made", name=name, top=_names(event.top), bottom=_names(event.bottom)
    )


@RULES.applies(PlanarChoiceOffered)
def _apply_offered(state: GameState, event: PlanarChoiceOffered) -> GameState:
    return _set(state, choice=event.choice)


@RULES.describes(PlanarChoiceOffered)
def _describe_offered(state: GameState, event: PlanarChoiceOffered) -> Message:
    after = _set(state, choice=event.choice)
    prompt = choice_prompt(after)
    return Message(
        "planechase.direction_offered",
        name=state.player(event.choice.seat).name,
        choices=prompt.params.get("choices", ""),
    )


@RULES.applies(PlaneCountersChanged)
def _apply_counters(state: GameState, event: PlaneCountersChanged) -> GameState:
    pc = planechase(state)
    face_up = tuple(
        c.model_copy(update={"counters": c.counters + event.delta}) if c.name == event.name else c
        for c in pc.face_up
    )
    return _set(state, face_up=face_up)


@RULES.describes(PlaneCountersChanged)
def _describe_counters(state: GameState, event: PlaneCountersChanged) -> Message:
    card = next(c for c in planechase(state).face_up if c.name == event.name)
    before, after = card.counters, card.counters + event.delta
    if event.ability:
        name = state.player(controller_of(state, card)).name
        return Message(
            f"planechase.ability.{event.ability}",
            plane=event.name,
            before=before,
            after=after,
            name=name,
        )
    return Message("planechase.counters", name=event.name, before=before, after=after)


@RULES.applies(PlanarControllerChanged)
def _apply_controller(state: GameState, event: PlanarControllerChanged) -> GameState:
    pc = planechase(state)
    if event.marker is None:
        return _set(state, controller=event.seat)
    stand_ins = list(pc.stand_ins + (None,) * (len(pc.markers) - len(pc.stand_ins)))
    if event.marker < len(stand_ins):
        stand_ins[event.marker] = event.seat
    return _set(state, stand_ins=tuple(stand_ins))


@RULES.describes(PlanarControllerChanged)
def _describe_controller(state: GameState, event: PlanarControllerChanged) -> Message:
    if event.seat is None:
        return Message("planechase.controller_active")
    pc = planechase(state)
    if event.marker is not None and event.marker < len(pc.markers):
        holder = state.player(pc.markers[event.marker]).name
        return Message(
            "planechase.controller_stand_in", name=state.player(event.seat).name, old=holder
        )
    return Message("planechase.controller", name=state.player(event.seat).name)


@RULES.applies(PlanarCardsLeft)
def _apply_left(state: GameState, event: PlanarCardsLeft) -> GameState:
    pc = planechase(state)
    left = [c for c in pc.face_up if c.owner == event.seat]
    choice = pc.choice if pc.choice is None or pc.choice.deck != event.seat else None
    awaiting = pc.awaiting if pc.awaiting is None or pc.awaiting.deck != event.seat else None
    encounter = pc.encounter if all(c.name != pc.encounter for c in left) else None
    chaos_blanks = pc.chaos_blanks and not any(c.kind is PlanarKind.PLANE for c in left)
    return _set(
        state,
        decks=tuple(d for d in pc.decks if d.owner != event.seat),
        face_up=tuple(c for c in pc.face_up if c.owner != event.seat),
        choice=choice,
        awaiting=awaiting,
        encounter=encounter,
        chaos_blanks=chaos_blanks,
    )


@RULES.describes(PlanarCardsLeft)
def _describe_left(state: GameState, event: PlanarCardsLeft) -> Message:
    face_up = (
        Message("planechase.cards_left_face_up", cards=_names(event.face_up))
        if event.face_up
        else ""
    )
    return Message("planechase.cards_left", name=state.player(event.seat).name, face_up=face_up)


@RULES.applies(TurnMarkerPassed)
def _apply_marker_passed(state: GameState, event: TurnMarkerPassed) -> GameState:
    pc = planechase(state)
    markers = tuple(event.seat if i == event.marker else s for i, s in enumerate(pc.markers))
    return _set(state, markers=markers)


@RULES.describes(TurnMarkerPassed)
def _describe_marker_passed(state: GameState, event: TurnMarkerPassed) -> Message:
    old = planechase(state).markers[event.marker]
    return Message(
        "planechase.marker_passed", name=state.player(event.seat).name, old=state.player(old).name
    )


@RULES.applies(TurnMarkerRemoved)
def _apply_marker_removed(state: GameState, event: TurnMarkerRemoved) -> GameState:
    pc = planechase(state)
    away = [c for c in pc.face_up if c.marker == event.marker]
    # 901.14b: to the bottom of the owners' decks; nobody planeswalks
    decks = _all_to_bottom(
        pc.model_copy(update={"face_up": tuple(c for c in pc.face_up if c not in away)}), away
    ).decks
    face_up = tuple(
        c.model_copy(update={"marker": c.marker - (c.marker > event.marker)})
        for c in pc.face_up
        if c not in away
    )
    markers = tuple(s for i, s in enumerate(pc.markers) if i != event.marker)
    stand_ins = tuple(s for i, s in enumerate(pc.stand_ins) if i != event.marker)
    encounter = pc.encounter if all(c.name != pc.encounter for c in away) else None
    awaiting = pc.awaiting
    if awaiting is not None and pc.grand_melee:
        if awaiting.marker == event.marker:
            awaiting = None  # nobody turns a card over for a marker that is gone
        elif awaiting.marker > event.marker:
            awaiting = awaiting.model_copy(update={"marker": awaiting.marker - 1})
    return _set(
        state,
        decks=decks,
        face_up=face_up,
        markers=markers,
        stand_ins=stand_ins,
        encounter=encounter,
        awaiting=awaiting,
    )


@RULES.describes(TurnMarkerRemoved)
def _describe_marker_removed(state: GameState, event: TurnMarkerRemoved) -> Message:
    cards = [c.name for c in planechase(state).face_up if c.marker == event.marker]
    if not cards:
        return Message("planechase.marker_removed_none", name=state.player(event.seat).name)
    key = "planechase.marker_removed_one" if len(cards) == 1 else "planechase.marker_removed"
    return Message(key, name=state.player(event.seat).name, cards=_names(cards))


@RULES.applies(PlanarTurnBegan)
def _apply_turn_began(state: GameState, event: PlanarTurnBegan) -> GameState:
    pc = planechase(state)
    return _set(
        state,
        next_cost=tuple(0 for _ in state.players),
        controller=None,
        own_roll=None,
        markers=event.markers if pc.grand_melee else pc.markers,
        stand_ins=(),
    )


@RULES.describes(PlanarTurnBegan)
def _describe_turn_began(state: GameState, event: PlanarTurnBegan) -> Message:
    return Message("planechase.cost_reset")


@RULES.applies(PlanarCardAwaited)
def _apply_awaited(state: GameState, event: PlanarCardAwaited) -> GameState:
    return _set(state, awaiting=event.awaiting)


@RULES.describes(PlanarCardAwaited)
def _describe_awaited(state: GameState, event: PlanarCardAwaited) -> Message:
    return Message("planechase.awaiting", deck=deck_label(state, event.awaiting.deck))


@RULES.applies(PlanarCardReturned)
def _apply_returned(state: GameState, event: PlanarCardReturned) -> GameState:
    pc = planechase(state)
    back = [c for c in pc.face_up if c.name == event.name]
    decks = pc.decks
    for card in back[:1]:  # the card goes back on top of the deck it came from
        deck = pc.deck(_owner_key(pc, card))
        if deck is not None and deck.tracked:
            top = deck.model_copy(
                update={
                    "cards": (CardRef(name=card.name, kind=card.kind), *deck.cards),
                    "unseen": deck.unseen + deck.physical,
                }
            )
            decks = tuple(top if d.owner == deck.owner else d for d in pc.decks)
        elif (
            deck is not None and deck.physical
        ):  # unlisted: one more card above those it saw go under
            top = deck.model_copy(update={"unseen": deck.unseen + 1})
            decks = tuple(top if d.owner == deck.owner else d for d in pc.decks)
    face_up = tuple(c for c in pc.face_up if c.name != event.name)
    visited = list(pc.visited)
    for i in range(len(visited) - 1, -1, -1):
        if visited[i].name == event.name:
            del visited[i]
            break
    encounter = None if pc.encounter == event.name else pc.encounter
    return _set(
        state,
        decks=decks,
        face_up=face_up,
        visited=tuple(visited),
        awaiting=event.awaiting,
        encounter=encounter,
    )


@RULES.describes(PlanarCardReturned)
def _describe_returned(state: GameState, event: PlanarCardReturned) -> Message:
    return Message(
        "planechase.card_returned", name=event.name, deck=deck_label(state, event.awaiting.deck)
    )


@RULES.applies(MapMoved)
def _apply_map_moved(state: GameState, event: MapMoved) -> GameState:
    pc = planechase(state)
    visit = Visit(
        turn=state.turn, seat=event.seat, name=event.arrived.name, kind=event.arrived.kind
    )
    away_planes = any(c.kind is PlanarKind.PLANE for c in pc.face_up)
    encounter = event.arrived.name if event.arrived.kind is PlanarKind.PHENOMENON else None
    return _set(
        state,
        face_up=(FaceUpCard(name=event.arrived.name, kind=event.arrived.kind, owner=None),),
        map=EternitiesMap(x=event.x, y=event.y, cells=event.cells),
        decks=_with_deck(pc, None, event.deck),
        visited=(*pc.visited, visit),
        choice=None,
        encounter=encounter,
        chaos_blanks=pc.chaos_blanks and not away_planes,
    )


@RULES.describes(MapMoved)
def _describe_map_moved(state: GameState, event: MapMoved) -> Message:

    return describe_move(state, event)


# --- words the descriptions share ---------------------------------------------------------------


def _who(state: GameState, seat: int | None) -> str | Message:
    return Message("planechase.communal") if seat is None else state.player(seat).name


def _roll_message(
    state: GameState, event: PlanarDieRolled, name: str, cost: Message, planes: str | Message
) -> Message:
    if event.result is DieFace.PLANESWALK:
        return Message("planechase.rolled_planeswalk", name=name, cost=cost)
    if event.result is DieFace.CHAOS and not event.chaos:
        return Message("planechase.rolled_chaos_none", name=name, cost=cost)
    many = (
        "_many" if len(event.chaos) > 1 else ""
    )  # "X's ability triggers", "the abilities of X and Y trigger"
    if event.result is DieFace.CHAOS and event.face is DieFace.BLANK:
        return Message(f"planechase.rolled_blank_chaos{many}", name=name, cost=cost, planes=planes)
    if event.result is DieFace.CHAOS:
        return Message(f"planechase.rolled_chaos{many}", name=name, cost=cost, planes=planes)
    return Message("planechase.rolled_blank", name=name, cost=cost)


def _planeswalk_message(state: GameState, event: Planeswalked) -> Message:
    name = state.player(event.seat).name
    away = joined(list(event.away), "planechase.and")
    if event.wait:
        label = deck_label(state, event.deck)
        if event.wait > 1:
            return Message("planechase.planeswalked_physical_two", name=name, away=away, deck=label)
        deck = planechase(_apply_planeswalked(state, event)).deck(event.deck)
        card = deck.next_card if deck is not None else None
        if card is not None:
            return Message(
                "planechase.planeswalked_physical_next",
                name=name,
                away=away,
                deck=label,
                card=card.name,
            )
        return Message("planechase.planeswalked_physical", name=name, away=away, deck=label)
    if not event.to:
        return Message("planechase.deck_empty", deck=deck_label(state, event.deck))
    phenomenon = next((c.name for c in event.to if c.kind is PlanarKind.PHENOMENON), None)
    extras: list[str | Message] = []
    if event.bottom:
        extras.append(Message("planechase.extra_bottom", cards=_names(event.bottom)))
    if phenomenon is not None:
        extras.append(Message("planechase.extra_encounter", name=name, phenomenon=phenomenon))
    extra = joined(extras, "planechase.then") if extras else ""
    key = "planechase.planeswalked" if event.away else "planechase.planeswalked_start"
    return Message(
        key,
        name=name,
        away=away,
        to=joined([c.name for c in event.to], "planechase.and"),
        extra=extra,
    )


# --- bindings ------------------------------------------------------------------------------------


@RULES.on_button(Button.ROLL)
def _roll_button(state: GameState, press: ButtonPressed) -> Command | None:
    """ROLL: the active player's special-action roll (refused with a reason outside the main
    phase or while something waits)."""
    if state.planechase is None or press.long:
        return None
    return RollPlanarDie()


@RULES.on_button(Button.NEXT)
@RULES.on_button(Button.SELECT)
def _acknowledge_button(state: GameState, press: ButtonPressed) -> Command | None:
    """NEXT or SELECT acknowledges a phenomenon being encountered (PC-7); while a choice or a
    physical card is awaited they are refused with what to do, rather than passing the turn."""
    pc = state.planechase
    if pc is None:
        return None
    if pc.choice is not None or pc.awaiting is not None:
        return ChoosePlanar(
            answer=()
        )  # refused with what the table must do first, not a turn passed
    return AcknowledgePhenomenon() if pc.encounter is not None else None


@RULES.expects_cards
def _planar_cards(state: GameState) -> Expected | None:
    """A physical card means a planar card in a Planechase game: so a name no planar card has is
    "no plane or phenomenon"; the table waits for one while a card is to be turned over."""
    pc = state.planechase
    if pc is None:
        return None
    return Expected(load_catalog().planar(), waiting=pc.awaiting is not None)


@RULES.on_card
def _planar_card(state: GameState, card: Card) -> Command | None:
    """A tapped or named planar card reveals the card the gadget waits for (PC-12)."""
    if state.planechase is None or not card.is_planar:
        return None
    return RevealPlanarCard(name=card.name)


RULES.include(MAP_RULES)  # the Eternities Map (PC-14) is Planechase's, kept in a module of its own

RULES.says(TEXTS)
