"""The screen speaks to players at a table, not at a command line: no text the kiosk can show,
in any language, tells them to type a console command; it names the button, the chip or the
set-up row instead (a kiosk text registered under the core message's key)."""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

import pytest

from device.text import Plural
from device.translations import CONSOLE
from display.i18n import LANGUAGES, catalogs, source

#: Texts only the console and the command line print, so their console words stay.  Nothing else
#: is allowed: a message the rules can raise is a message the screen can show.
CONSOLE_ONLY: dict[str, str] = {
    "console.": "the console's replies about the line typed at it (unknown command, bad quotes)",
    "console.pc.": "the console's `odds` command",
    "wdc.": "the console's Wizard's Duel commands and its `wizards` view",
    "cardtext.": "`aetherbox catalog import` and `aetherbox catalog fetch` print these on a computer or the "
    "Pi's command line: card text is imported or downloaded there, never on the kiosk",
}

#: Texts the screen shows that name a command for the Pi's command line, because only there can
#: it be done: the kiosk's service has no network, and card text is downloaded by that command.
COMMAND_LINE_STEP: dict[str, str] = {
    "ui.pc.no_text": "where a plane's rules text would be: the one step that brings it (aetherbox catalog fetch)",
}

#: Console command words, as a quoted word would ask players to type them.
COMMANDS = (
    "ack",
    "aside",
    "assemble",
    "at",
    "bottom",
    "card",
    "choose",
    "clock",
    "communal",
    "crank",
    "deck",
    "defend",
    "dice",
    "dropout",
    "finish",
    "from",
    "games",
    "help",
    "log",
    "new",
    "next",
    "out",
    "pause",
    "resume",
    "sacrifice",
    "scrap",
    "show",
    "state",
    "time",
    "timer",
    "top",
    "turn",
    "undo",
    "unexile",
)
QUOTES = "'\"«„「“‘"
#: The ``aetherbox`` command's own subcommands (``display/cli.py``): "aetherbox catalog fetch" asks
#: for the command line, "Update aetherbox and restart" (in any language) does not.
SUBCOMMANDS = (
    "console",
    "event",
    "kiosk",
    "catalog",
    "enroll",
    "reader",
    "monitor",
    "firmware",
    "upload",
)
CONSOLE_SYNTAX = re.compile(
    rf"[{QUOTES}]\s*(?:{'|'.join(COMMANDS)})\b|aetherbox (?:{'|'.join(SUBCOMMANDS)})\b"
    rf"|\b[a-z_]+=(?:on|off|physical|\w+)\b"
)


class Sample(dict[str, Any]):
    """Every parameter filled with a harmless word, so a text reads as the screen would show it."""

    def __missing__(self, key: str) -> str:
        return "X"


def filled(template: str) -> str:
    return string.Formatter().vformat(template, (), Sample())


def shown_texts() -> dict[tuple[str, str], list[str]]:
    """(key, language) → every form of the text the kiosk shows for it."""
    found: dict[tuple[str, str], list[str]] = {}
    for key in catalogs.sources():
        if key.startswith(tuple(CONSOLE_ONLY)) or key.endswith(CONSOLE) or key in COMMAND_LINE_STEP:
            continue  # (``<key>@console``: how the console words a text the screen words its own way)
        english = source(key)
        assert english is not None
        found[key, "en"] = (
            [english.one, english.other] if isinstance(english, Plural) else [english]
        )
        for language in LANGUAGES[1:]:
            text = catalogs.load(language).texts.get(key)
            if text is not None:
                found[key, language] = list(text) if isinstance(text, tuple) else [text]
    return found


def console_syntax(texts: Mapping[tuple[str, str], list[str]]) -> dict[str, list[str]]:
    said: dict[str, list[str]] = {}
    for (key, language), forms in texts.items():
        for form in forms:
            text = filled(form)
            if CONSOLE_SYNTAX.search(text):
                said.setdefault(f"{key} [{language}]", []).append(text)
    return said


def test_no_text_on_the_screen_asks_for_a_console_command() -> None:
    assert console_syntax(shown_texts()) == {}


@pytest.mark.parametrize(
    "text",
    [
        "Waiting for Ann: tap it on the reader or name it with 'card NAME'.",
        "press NEXT (or 'ack') to resolve it first",
        "Сначала нажмите ДАЛЕЕ (или «ack»).",
        "Zegar nie chodzi: uruchom go poleceniem „clock”.",
        "「new necromancer …」で開始してください。",
        "No rules text yet: aetherbox catalog import FILE",
        "Use a physical deck with 'planar_deck=physical'.",
        "start the game with power_drain=on to use it",
    ],
)
def test_the_check_knows_console_syntax_when_it_sees_it(text: str) -> None:
    assert console_syntax({("x", "en"): [text]}) != {}


@pytest.mark.parametrize(
    "text",
    [
        "This game has no Planechase: set up a game with it (NEW).",
        "Pick the mana-pool dice that pay the card's cost (the “Cost” rows).",
        "Karta zaklęcia gracza Ala — „Kula ognia”: atak 6, ogień.",
        "{0} could be any of 2 cards".format("'pin'"),
    ],
)
def test_quoted_names_and_buttons_are_not_console_syntax(text: str) -> None:
    assert console_syntax({("x", "en"): [text]}) == {}


def test_a_command_line_step_names_only_its_command() -> None:
    """The texts that name a command for the Pi's command line name that one, in every language,
    and ask for nothing else to be typed."""
    for key in COMMAND_LINE_STEP:
        for language in LANGUAGES:
            text = source(key) if language == "en" else catalogs.load(language).texts.get(key)
            assert isinstance(text, str) and "aetherbox catalog fetch" in text, (key, language)
            assert not CONSOLE_SYNTAX.search(text.replace("aetherbox catalog fetch", "")), (
                key,
                language,
            )
