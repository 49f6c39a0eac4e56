"""Planechase on the kiosk: the screen's English texts (``ui.pc.*``).  The rules' messages
(``planechase.*``, ``eternities.*``) are in ``device/rules/planechase/``; the translations in
``device/translations/locale/<language>/LC_MESSAGES/planechase.po`` (the touch-bar button and the help
line, ``ui.btn.*`` and ``ui.help.*``, in ``core.po`` with the other buttons and help lines).
"""

from __future__ import annotations

from device.text import Plural, Text

TEXTS: dict[str, Text] = {
    "ui.btn.planes": "PLANES",
    "ui.help.screen.planechase": "Planechase: the plane, the die, the odds",
    "ui.pc.title": "Planechase",
    "ui.pc.odds": "Each roll: planeswalk 1/6 · chaos {chaos}",
    "ui.pc.odds_k": Plural(
        "{k} roll: {p}% to planeswalk, {mana}", "{k} rolls: {p}% to planeswalk, {mana}", "k"
    ),
    "ui.pc.odds_short": "planeswalk 1/6 · chaos {chaos}",
    "ui.pc.odds_k_short": Plural("{k} roll: {p}%, {mana}", "{k} rolls: {p}%, {mana}", "k"),
    "ui.pc.mana": Plural("{n} mana", "{n} mana", "n"),
    "ui.pc.die.blank": "Blank",
    "ui.pc.die.chaos": "Chaos",
    "ui.pc.die.planeswalk": "Planeswalk",
    "ui.pc.rolling": "Rolling…",
    "ui.pc.log": "Rolls",
    "ui.pc.visited": "Visited",
    "ui.pc.no_text": "No rules text yet: run 'aetherbox catalog fetch' while online",
    "ui.pc.phenomenon": "Phenomenon",
    "ui.pc.controller": "Planar controller: {name}",
    "ui.pc.deck": Plural(
        "{n} card left in the planar deck", "{n} cards left in the planar deck", "n"
    ),
    "ui.pc.none": "No plane is face up",
    "ui.pc.plane": "Plane",
    "ui.pc.counters": Plural("{n} counter", "{n} counters", "n"),
    "ui.pc.resolve": "Resolve it, then press NEXT",
    "ui.pc.upkeep": "Plane: {plane} — roll in your main phase",
    "ui.pc.chaos_blanks": "Chaotic Aether: blanks count as chaos",
    "ui.pc.not_rolled": "Not rolled yet",
    "ui.pc.next_roll": "Next roll",
    "ui.pc.free": "free",
    "ui.pc.log_line": "{n}. {name}: {face}",
    "ui.pc.ask.interplanar_tunnel": "{name}: choose the plane to put on top",
    "ui.pc.ask.stairs_to_infinity": "{name}: keep {card} on top, or put it on the bottom?",
    "ui.pc.ask.pools_of_becoming": "{name}: put these on the bottom one by one, in the order you want",
    "ui.pc.ask.direction": "{name}: where to planeswalk?",
    "ui.pc.stairs.top": "Keep it on top",
    "ui.pc.stairs.bottom": "Put it on the bottom",
    # core messages that name a console command, as the screen words them
    "planechase.not_in_game": "This game has no Planechase: set up a game with it (NEW).",
    "planechase.own_roll": "{name} rolls the table's planar die: pick the face it showed.",
    "planechase.own_roll_d6": "{name} rolls the table's d6: pick the number it showed (1 is chaos, 6 is "
    "planeswalk).",
    "planechase.awaiting_card": "Waiting for {name} to turn over the top card of {deck}: tap it on the reader or "
    "pick it below.",
    "planechase.awaiting_next": "Waiting for {name} to turn over the top card of {deck} ({card} comes up next): "
    "tap it on the reader or pick it below.",
    "planechase.awaiting_planes": "Waiting for {name} to turn over cards from {deck} until {planes}: tap each on "
    "the reader or pick it below.",
    "planechase.card_not_in_deck": "{name} is not in {deck}: tap the card you turned over from {deck}.",
    "planechase.choose_pools": "put {choices} on the bottom in the order you choose",
    "planechase.choose_stairs": "keep {card} on top or put it on the bottom",
    "planechase.communal_owner": "This game uses one communal planar deck.",
    "planechase.not_communal": "This game gives each player a planar deck.",
    "planechase.resolve_phenomenon": "{name} is being encountered: press NEXT to resolve it first.",
    "planechase.revealed_pools": "Pools of Becoming reveals {cards}; their chaos abilities trigger: {name}, order "
    "them on the bottom.",
    "planechase.revealed_stairs": "Stairs to Infinity reveals {cards}: {name}, keep it on top or put it on the bottom.",
    "planechase.revealed_tunnel": "Interplanar Tunnel reveals {cards}: {name}, choose the plane to put on top.",
    "planechase.virtual_deck": "This game's planar decks are virtual: the gadget turns the cards over itself, so "
    "{name} needs no tapping. For real cards, set up the game with “Planar decks: real cards”.",
}
