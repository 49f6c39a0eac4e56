"""English: the kiosk's own texts for the table, the buttons, set-up, adjusting, enrolling and help
(translations: ``device/translations/locale/<language>/LC_MESSAGES/core.po``).  A format's screen has its
texts in ``display/i18n/<format>.py`` (``display.i18n.domains`` lists them).  Every other language
falls back to these, key by key."""

from device.text import Plural, Text

TEXTS: dict[str, Text] = {
    # table
    "ui.turn": "Turn {turn}",
    "ui.upkeep_of": "{name}'s upkeep",
    "ui.turn_of": "{name}'s turn",
    "ui.life": "life",
    "ui.poison": "poison {n}",
    "ui.commander": "cmd {n} ({name})",
    "ui.skips": "skips {n}",
    "ui.active": "active",
    "ui.reversed": "reversed",  # the turn order, beside a counter-clockwise arrow in the header
    "ui.lost.life": "lost: 0 life",
    "ui.lost.poison": "lost: 10 poison",
    "ui.lost.commander": "lost: 21 commander damage",
    "ui.lost.conceded": "conceded",
    "ui.lost.effect": "lost",
    "ui.lost.left": "left the group",
    "ui.lost.team": "lost with the team",
    "ui.lost.poison_team": "lost: 15 poison",
    "ui.lost_by": "{reason} (by {name})",
    "ui.clock": "{time} left",
    "ui.clock_up": "Time is up",
    "ui.winner": "{name} wins",
    "ui.draw": "Nobody wins",
    "ui.last": "Last: {what}",
    "ui.no_game": "No game running",
    "ui.no_game_hint": "NEXT (Enter) or NEW (F2): set up a game",
    "ui.title": "aetherbox",
    # the history screen
    "ui.history.tab.log": "Every change",
    "ui.history.tab.dealt": "Who dealt what",
    "ui.history.entry": "{number}. {text}",
    "ui.history.undone": "{text} (undone)",
    "ui.history.empty": "Nothing has happened in this game yet.",
    "ui.history.nothing_dealt": "Nobody has dealt damage or given life yet.",
    # the saved games (and the set-up's chip that opens them)
    "ui.games.title": "Saved games: {n}",
    "ui.games.row": "{number}. {title}",
    "ui.games.detail": "{when} · {progress}",
    "ui.games.playing": "{detail} · playing now",
    "ui.games.delete": "Delete",
    "ui.games.confirm": "Delete game {number} for good?",
    "ui.games.hint": "SELECT or a tap: resume · UNDO or Delete: delete",
    "ui.games.hint_confirm": "UNDO or Delete again: delete it · anything else keeps it",
    "ui.games.empty": "No saved games yet.",
    # buttons (touch and key hints)
    "ui.btn.roll": "ROLL",
    "ui.btn.next": "NEXT",
    "ui.btn.undo": "UNDO",
    "ui.btn.adjust": "LIFE",
    "ui.btn.table": "TABLE",
    "ui.btn.history": "LOG",
    "ui.btn.setup": "NEW",
    "ui.btn.help": "KEYS",
    "ui.btn.redo": "REDO",
    "ui.btn.more": "MORE",
    "ui.btn.touch": "TOUCH",
    # the encoder's push switch: not in the bar, but the hints name it as they name the others
    "ui.btn.select": "SELECT",
    # upkeep banner
    "ui.upkeep.title": "{name}: upkeep",
    "ui.upkeep.turn": "Turn {turn}",
    "ui.upkeep.untap": "Untap, upkeep triggers, draw a card",
    "ui.upkeep.skipped": "Skipped this turn: {names}",
    "ui.upkeep.next": "NEXT: main phase",
    # set-up
    "ui.setup.title": "New game",
    "ui.setup.format": "Format",
    "ui.setup.players": "Players",
    "ui.setup.player": "Seat {seat}",
    "ui.setup.first": "First player",
    "ui.setup.part.table": "Table",
    "ui.setup.random": "random",
    "ui.setup.language": "Language",
    "ui.setup.start": "Start the game",
    "ui.setup.on": "on",
    "ui.setup.off": "off",
    "ui.setup.default_name": "Player {n}",
    "ui.setup.hint": "←/→ or Tab: row · ↑/↓: change · Enter: start the game",
    "ui.setup.hint_name": "Type the player's name; Backspace erases · ↑/↓ or a tap on the square: colour · Enter: next row",
    "ui.setup.hint_event": "Type the event's name; Backspace erases · Enter: next row",
    "ui.setup.hint_commander": "Type the commander's name; a partner's goes on the row under it · Backspace "
    "erases · Enter: next row",
    "ui.setup.commander": "Commander",
    "ui.setup.partner": "Partner",
    "ui.setup.unnamed": "not named",
    "ui.setup.no_partner": "none",
    "ui.setup.editing": "typing a name",
    "ui.setup.options": "Table options",
    "ui.setup.module": "Module",
    # adjust
    "ui.adjust.title": "Adjust",
    "ui.adjust.player": "Player",
    "ui.adjust.counter": "Counter",
    "ui.adjust.from": "From",
    "ui.adjust.amount": "Amount",
    "ui.adjust.nobody": "nobody",
    "ui.adjust.life": "Life",
    "ui.adjust.poison": "Poison",
    "ui.adjust.commander": "Commander damage",
    "ui.adjust.tax": "Commander tax",
    "ui.adjust.names": "Commander names",
    "ui.adjust.which": "Commander",
    "ui.adjust.name": "Name",
    "ui.adjust.add_partner": "+ Partner",
    "ui.adjust.tax_preview": "{commander}: tax {before} → {after}",
    "ui.adjust.apply": "Apply",
    "ui.adjust.apply_short": "OK",
    "ui.adjust.cancel": "Cancel",
    "ui.adjust.preview": "{name}: {before} → {after}",
    "ui.adjust.undo_will": "UNDO takes back: {what}",
    "ui.adjust.nothing_to_undo": "UNDO: nothing to take back",
    "ui.adjust.timeout": "Not applied: the change was left unconfirmed.",
    "ui.adjust.hint": "←/→ field · ↑/↓ change · Tab next field · Enter applies",
    # reader and status
    "ui.reader.card": "card read: {name}",
    "ui.reader.unknown": "unknown card — enrol? (tag {uid})",
    "ui.reader.disconnected": "reader disconnected",
    "ui.reader.connected": "reader on {port}",
    "ui.status.close": "A tap or any button closes this",
    "ui.undone": "Undone: {what}",
    "ui.redone": "Redone: {what}",
    "ui.font_missing": "No font for {chars}: install fonts-noto-cjk (or set display.font)",
    "ui.font_bundled_missing": "Bundled font missing; using {font}",
    # calibrating the touch screen
    "ui.touch.title": "Touch calibration",
    "ui.touch.tap": "Touch the centre of the cross with a fingernail or a stylus ({n} of {total}).",
    "ui.touch.again": "Those touches did not line up. Once more: touch the centre of each cross.",
    "ui.touch.leave": "UNDO or Esc: leave it as it was",
    "ui.touch.done": "The touch screen is calibrated.",
    "ui.touch.not_kept": "The touch screen is calibrated until the gadget restarts: it could not be kept ({reason}).",
    "ui.touch.kept": "The touch calibration is as it was.",
    # what start-up left out, said until the next change (the details are the configuration's words)
    "ui.config_problem": "Check the configuration: {problem}",
    "ui.journal_unsaved": (
        "Games are not being saved ({problem}): this game is lost when the gadget stops. Fix the storage, "
        "then restart."
    ),
    "ui.journal_in_the_way": (
        "Games are not being saved: {path} is {kind} where the saved games belong. Move it aside, then "
        "restart: a new file of saved games is made there."
    ),
    "ui.journal_newer": (
        "Games are not being saved: they were written by a newer aetherbox. Update aetherbox, then restart; "
        "the saved games are left as they are."
    ),
    "ui.buttons_off": "The GPIO buttons are off ({reason}). The keys and the touch screen still play.",
    "ui.cues_off": "The buzzer and LED are off ({reason}).",
    "ui.tagmap.not_regular": "The tag map {path} is not a regular file: no tag is known from it until it is fixed.",
    "ui.tagmap.too_large": "The tag map {path} is larger than {kb} kB: no tag is known from it until it is fixed.",
    "ui.tagmap.unreadable": "The tag map {path} cannot be read ({reason}): no tag is known from it until it is fixed.",
    "ui.config_more": Plural(
        "…and {n} more problem with the configuration: see the log.",
        "…and {n} more problems with the configuration: see the log.",
    ),
    # enrolling an unknown tag on the spot
    "ui.enrol.offer": "SELECT: enrol",
    "ui.enrol.title": "Which card is tag {uid}?",
    "ui.enrol.all": "A–Z",
    "ui.enrol.cancel": "Cancel",
    "ui.enrol.confirm": "Enrol tag {uid} as {name}?",
    "ui.enrol.yes": "Enrol",
    "ui.enrol.back": "Back",
    "ui.enrol.hint": "↑/↓ card · ←/→ first letter · SELECT picks · hold SELECT: letters",
    "ui.enrol.hint_letters": "↑/↓ letter · SELECT adds it · UNDO erases · NEXT: the cards",
    "ui.enrol.done": "Tag {uid} is {name} from now on.",
    "ui.enrol.failed": "Cannot write the tag map {path} ({reason}); the tag stays unknown.",
    "ui.enrol.kind.plane": "plane",
    "ui.enrol.kind.phenomenon": "phenomenon",
    "ui.enrol.kind.contraption": "contraption",
    # help
    "ui.help.title": "Keys",
    "ui.help.keys.roll": "Space, R",
    "ui.help.roll": "ROLL: roll the die",
    "ui.help.keys.next": "Enter, N",
    "ui.help.next": "NEXT: main phase, pass the turn",
    "ui.help.keys.undo": "Backspace, U",
    "ui.help.undo": "UNDO the last change",
    "ui.help.keys.redo": "Y",
    "ui.help.redo": "redo what UNDO took back",
    "ui.help.keys.select": "Tab",
    "ui.help.select": "SELECT: next seat or field",
    "ui.help.keys.long_select": "Shift+Tab",
    "ui.help.long_select": "long SELECT: new game; on it, the saved games",
    "ui.help.keys.long_next": "Shift+Enter",
    "ui.help.long_next": "long NEXT on the table: adjust (poison, commander damage)",
    "ui.help.keys.encoder": "↑ ↓ + −",
    "ui.help.encoder": "the encoder: change by 1; on the table and the planes, the highlighted seat's life "
    "(after SELECT on the planes: the plane's counters)",
    "ui.help.keys.encoder5": "PgUp, PgDn",
    "ui.help.encoder5": "change by 5",
    "ui.help.keys.arrows": "← →",
    "ui.help.arrows": "previous / next seat or field",
    "ui.help.screen.table": "the table",
    "ui.help.screen.adjust": "adjust life, poison, commander damage and tax",
    "ui.help.screen.setup": "set up a new game",
    "ui.help.screen.history": "the game's history: every change, who dealt what",
    "ui.help.screen.games": "the saved games: resume or delete one",
    "ui.help.screen.calibrate": "calibrate the touch screen",
    "ui.help.keys.back": "Esc",
    "ui.help.back": "back to the table",
    "ui.help.keys.help": "F1, H",
    "ui.help.help": "these keys (again: close)",
    "ui.help.keys.quit": "Ctrl+Q",
    "ui.help.quit": "quit",
    "ui.help.page": "{page}/{pages} · → or a tap: next page",
    "ui.help.touch": "Touch: a seat's upper half +1, lower half −1, held ±10; the buttons below",
}

# How the screen words core messages that, at the console, name a console command: here they name
# the button, the chip or the set-up row that does it (README, "The kiosk screen").
TEXTS.update(
    {
        "rules.no_game": "No game is running: set one up with NEW.",
        "rules.game_over": "The game is over: {result}. UNDO to change that, or NEW for a new game.",
        "controller.no_such_game": "There is no saved game {game}.",
        "life.not_tracked": "{base} does not count life.",
        "life.which_commander": "{name} has {count} commanders ({commanders}): under “From”, pick the one that dealt "
        "the damage.",
        # The damage itself is in the log, in English; the screen says what happened to the games.
        "journal.recovered_backup": "The saved games were damaged and could not be read. The damaged file is kept as "
        "{damaged}. The games were restored from the backup made at {when}; changes after that are lost.",
        "journal.wal_damaged": "The saved games were damaged: the changes saved last could not be read. A copy of the "
        "damaged part is kept as {damaged}; the games resume from before the damage.",
        "journal.recovered_empty": "The saved games were damaged and could not be read, and there is no usable backup. "
        "The damaged file is kept as {damaged}; starting with no saved games.",
    }
)
