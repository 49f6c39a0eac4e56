"""Table options as the set-up screen shows them, in English (translations:
``device/translations/locale/<language>/LC_MESSAGES/core.po``).

Keys: ``option.<option>`` (the option's label), ``option.<option>.help`` (what it does, shown under
the rows for the focused option: short enough for two lines on the smallest screen) and
``option.<option>.value.<value>`` (how a value of a choice reads; a value without one shows as it
is, a number or a set code).  Format titles (``format.title.<format>``) are the core's texts: the
rules take them from the declarations (``Format.title``), since messages name formats too.  The English labels,
help and values are here, so a new option shows its name and its declared help until it gets them.
"""

from __future__ import annotations

from device.game import PARTS
from device.text import Text


def _declared() -> dict[str, Text]:
    """Every option's name and declared help, for an option ``EN`` has no wording for yet."""
    texts: dict[str, Text] = {}
    for option in (option for part in PARTS for option in part.options):
        texts[f"option.{option.name}"] = option.name.replace("_", " ").capitalize()
        texts[f"option.{option.name}.help"] = option.help
    return texts


EN: dict[str, str] = {
    "option.seats_facing": "Seats face players",
    "option.seats_facing.help": "Each seat turned toward its player, for a gadget lying in the middle of the table.",
    "option.turn_timer": "Turn timer (s)",
    "option.turn_timer.help": "Seconds a turn, counted down for the active player; it never passes the turn.",
    "option.turn_timer.value.0": "off",
    "option.time_limit": "Round time (min)",
    "option.time_limit.help": "Minutes per round before the extra turns (CJ-5).",
    "option.attack_left": "Attack left only",
    "option.attack_left.help": "Players may attack only the player on their left (CJ-6).",
    "option.range_of_influence": "Range of influence",
    "option.range_of_influence.help": "How far a player's spells and attacks reach (CJ-6).",
    "option.range_of_influence.value.unlimited": "unlimited",
    "option.range_of_influence.value.1": "1 (neighbours only)",
    "option.rumble": "Rumble rule",
    "option.rumble.help": "A sideboard pick for every 20 life your sources take from opponents (CJ-8).",
    "option.event": "Event name",
    "option.event.help": "The event's name, shared by all its pods.",
    "option.pod": "Pod",
    "option.pod.help": "This pod's number in the event.",
    "option.group": "Group",
    "option.group.help": "The group this table plays at an event across tables (the event sets it).",
    "option.group.value.1": "group 1",
    "option.group.value.2": "group 2",
    "option.group.value.winners": "winners' group",
    "option.group.value.losers": "losers' group",
    "option.round": "Round",
    "option.round.help": "The round this table's group plays at an event across tables (the event sets it).",
    "option.chain_reaction": "Chain reaction",
    "option.chain_reaction.help": "Level 0, 1, 2 spells cast on consecutive turns give back 1, then 2 dice.",
    "option.antimagic_shield": "Antimagic shield",
    "option.antimagic_shield.help": "In phase 1 a die may go onto the board as a shield against one school.",
    "option.power_drain": "Power drain",
    "option.power_drain.help": "Once per game, as a defence: sacrifice a reserve die to deal 2 to everyone.",
    "option.magic_lesson": "Magic lesson",
    "option.magic_lesson.help": "15 rounds; the most magic points then wins.",
    "option.power_sacrifice": "Power sacrifice",
    "option.power_sacrifice.help": "Once per game, instead of dropping out: discard a basic spell card and come "
    "back with 10.",
    "option.alt_ending": "Alternative ending",
    "option.alt_ending.help": "The game ends after the round that follows a drop-out.",
    "option.spell_deck": "Spell deck",
    "option.spell_deck.help": "Spell cards in the spell deck at the start.",
    "option.own_die": "Own die",
    "option.own_die.help": "The table rolls its own die and picks the face it showed (PC-1).",
    "option.plain_d6": "Plain d6",
    "option.plain_d6.help": "The table rolls a plain d6: 1 is chaos, 6 is planeswalk (PC-1).",
    "option.communal_deck": "Communal deck",
    "option.communal_deck.help": "One planar deck for the whole table (901.15).",
    "option.grand_melee": "Grand Melee",
    "option.grand_melee.help": "Several planes face up, one per turn marker (901.14).",
    "option.turn_markers": "Turn markers",
    "option.turn_markers.help": "How many turn markers Grand Melee uses.",
    "option.turn_markers.value.0": "auto (1 per 4 players)",
    "option.eternities_map": "Eternities Map",
    "option.eternities_map.help": "Planes laid out on a grid around the current one; needs the communal deck.",
    "option.planar_deck": "Planar decks",
    "option.planar_deck.help": "Where the planar decks come from: every card, one set, or real cards.",
    "option.planar_deck.value.all": "all cards",
    "option.planar_deck.value.ohop": "set OHOP",
    "option.planar_deck.value.phop": "set PHOP",
    "option.planar_deck.value.opc2": "set OPC2",
    "option.planar_deck.value.opca": "set OPCA",
    "option.planar_deck.value.moc": "set MOC",
    "option.planar_deck.value.who": "set WHO",
    "option.planar_deck.value.punk": "set PUNK",
    "option.planar_deck.value.pssc": "set PSSC",
    "option.planar_deck.value.physical": "real cards",
    "option.planar_deck_size": "Deck size",
    "option.planar_deck_size.help": "Cards in each player's virtual planar deck.",
    "option.contraptions": "Variant",
    "option.contraptions.help": "How contraptions come into play: the Unstable rules or a house variant.",
    "option.contraptions.value.base": "Unstable (own decks)",
    "option.contraptions.value.a": "A: faction dice",
    "option.contraptions.value.b": "B: shared deck, die decides",
    "option.contraptions.value.c": "C: shared deck, paid rolls",
    "option.declined": "Declined card",
    "option.declined.help": "Variant A: where a contraption that is not assembled goes.",
    "option.declined.value.bottom": "library's bottom",
    "option.declined.value.scrapyard": "scrapyard",
    "option.faction_dice": "Faction dice",
    "option.faction_dice.help": "Variant A: roll 1–3 faction dice and use one; with 2 or 3 assembling is mandatory.",
    "option.contraption_cards": "Contraption cards",
    "option.contraption_cards.help": "Virtual decks the gadget shuffles, or real cards tapped on the reader.",
    "option.contraption_cards.value.virtual": "virtual",
    "option.contraption_cards.value.physical": "real cards",
}


#: The set-up screen's option texts: the ones written here, else the declared ones.
TEXTS: dict[str, Text] = {**_declared(), **EN}
