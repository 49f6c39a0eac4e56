"""The English of what Planechase's rules say."""

from __future__ import annotations

from device.text import Plural, Text

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
