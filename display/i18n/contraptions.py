"""Contraptions on the kiosk: the screen's English texts (``ui.ct.*``).  The rules' messages
(``ct.*``) are in ``device/rules/contraptions/``; the translations in
``device/translations/locale/<language>/LC_MESSAGES/contraptions.po`` (the touch-bar button and the help
line in ``core.po`` with the others).  Card names and faction watermarks stay as printed
(English).
"""

from __future__ import annotations

from device.text import Text

TEXTS: dict[str, Text] = {
    "ui.ct.factions": "Faction libraries, top card:",
    "ui.ct.faction_top": "{number} ({count}): {card}",
    "ui.btn.contraptions": "GEARS",
    "ui.help.screen.contraptions": "Contraptions: sprockets and the CRANK! counter",
    "ui.ct.board_of": "{name}'s sprockets",
    "ui.ct.board_shared": "Shared sprockets",
    "ui.ct.move": "CRANK! {start} → {end}",
    "ui.ct.counter": "CRANK! on {sprocket}",
    "ui.ct.no_counter": "No counter: the die cranks",
    "ui.ct.no_counter.short": "No counter",
    "ui.ct.empty": "empty",
    "ui.ct.here": "→ {card}",
    "ui.ct.die": "Die: {faces}",
    "ui.ct.die.library": "assemble from library {libraries}",
    "ui.ct.die.crank": "crank sprocket {sprocket}",
    "ui.ct.die.assemble": "assemble {count}",
    "ui.ct.revealed": "{name} reveals:",
    "ui.ct.place_hint": "↑/↓ sprocket · SELECT: onto {sprocket} · or tap a sprocket",
    "ui.ct.decline": "Don't assemble",
    "ui.ct.assemble": "A card says: assemble",
    "ui.ct.assemble_who": "Who assembles?",
    "ui.ct.assemble_for": "{name} assembles",
    "ui.ct.back": "Back",
    "ui.ct.manage": "A contraption leaves or moves",
    "ui.ct.manage_which": "Which contraption?",
    "ui.ct.manage_card": "{card} ({name}, sprocket {sprocket})",
    "ui.ct.manage_card.short": "{card} ({name}, {sprocket})",
    "ui.ct.exile": "Exile it",
    "ui.ct.choose_library": "assemble from:",
    "ui.ct.look_hint": "First the card to assemble, then any to put back on top; the rest go to the bottom",
    "ui.ct.look.keep": "▶ {card}",
    "ui.ct.look.top": "top {n}: {card}",
    "ui.ct.onto": "Onto sprocket {sprocket}",
    "ui.ct.crank_title": "{name}: crank sprocket {sprocket}",
    "ui.ct.crank_hint": "SELECT adds to the order (again: removes) · last: confirm",
    "ui.ct.crank_go": "Crank them ({count})",
    "ui.ct.crank_none": "Crank nothing",
    "ui.ct.cranked": "Cranked: {cards}",
    "ui.ct.cranked_none": "Nothing cranked this upkeep",
    "ui.ct.roll": "ROLL the contraption die",
    "ui.ct.roll_paid": "ROLL: assembly roll ({{{cost}}})",
    "ui.ct.selected": "{name}'s, on sprocket {sprocket}",
    "ui.ct.scrap": "Scrap it",
    "ui.ct.move_to": "Reassemble onto {sprocket}",
    "ui.ct.scrapyard": "Scrapyard: {count}",
    "ui.ct.scrapyard_shared": "Scrapyards: {count}",
    "ui.ct.library": "{library}: {count}",
    "ui.ct.faction_chip": "{number}. {faction} ({count})",
    "ui.ct.library_physical": "{library}: real cards",
    "ui.ct.item.moved": "CRANK! counter {start} → {end}",
    "ui.ct.item.crank": "Crank sprocket {sprocket}: {cards}",
    # core messages that name a console command, as the screen words them
    "ct.in_exile": "{card} is in exile; a contraption returned from exile goes to the scrapyard.",
    "ct.expected_physical": "{name} assembles: tap the revealed card from {library}.",
    "ct.not_in_game": "This game has no Contraptions: set up a game with them (NEW).",
    "ct.virtual_deck": "This game uses the gadget's virtual contraption decks: the gadget reveals the top card "
    "itself. Tap only an assembled contraption, to scrap or reassemble it.",
    "ct.which_library": "Choose the faction library to assemble from (1–5).",
}
