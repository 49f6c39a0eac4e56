"""What every console command stands on: the ``Console`` that runs lines, a command's ``Entry``,
the ``CommandTable`` a module of commands exposes, and the helpers that read arguments.

A module of commands declares each one with ``@command``, which makes the function an ``Entry``,
and lists its entries in its ``COMMANDS`` table; ``device.console`` names the tables in one list.
An illegal command prints ``refused: <reason>`` and changes nothing; the session goes on.
Every message is printed in the console's language (``device.translations.ConsoleTranslator``).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TextIO

from msgspec import Struct, field

from device import game as rules
from device.commands import Command
from device.controller import Controller, Result
from device.errors import IllegalCommand
from device.event_link import EventSession
from device.rules.table import find_player
from device.state import GameState, Player
from device.text import Message, Plural, Text
from device.translations import ConsoleTranslator

TEXTS: dict[str, Text] = {
    "console.unknown": "Unknown command {name!r}; 'help' lists the commands.",
    "console.usage": "Usage: {usage}",
    "console.not_number": "{text!r} is not a number.",
    "console.bad_quotes": "Cannot read that line: {problem}.",
    "console.quotes.open": "no closing quotation",
    "console.quotes.escape": "it ends with a backslash, and a backslash keeps the character after it",
    "console.line_long": Plural(
        "That line is too long: a command fits in {limit} character.",
        "That line is too long: a command fits in {limit} characters.",
        "limit",
    ),
    "console.card_long": Plural(
        "No card has a name that long ({length} character): type the name as printed (a unique start is enough).",
        "No card has a name that long ({length} characters): type the name as printed (a unique start is enough).",
        "length",
    ),
    "console.not_utf8": "That line is not UTF-8 text: save the command file as UTF-8 (or set the terminal to "
    "UTF-8) and type the line again.",
    "console.control": "That line holds a control character ({char}), which no command has: type it again "
    "without it.",
    "console.refused": "refused: {reason}",
    "console.game_over": "Game over: {result}.",
    "console.card_read": "card read: {message}",
}


#: The longest line the console reads, in characters.  The longest command anyone types is a
#: planar deck listed card by card: every plane and phenomenon of the catalog by its full name
#: makes a line of about 3,100 characters; a ten-player ``new`` with 24-character names and its
#: options is under 400, and a terminal's own line editor holds 4,096 bytes.  A longer line is
#: refused before it is split into words, since splitting and matching names take time in
#: proportion to the line (a line of a megabyte took half a minute).
MAX_LINE = 4096

#: The longest text the console looks up as a card's name, in characters: the longest printed
#: name has 141.  A longer text names no card, and matching it against every name in the
#: catalog to suggest a close one takes time in proportion to its length times theirs.
MAX_CARD_NAME = 150

#: What no typed command holds: control characters (a tab separates words like a space), and
#: what a line that is not UTF-8 was read as — a lone surrogate (``surrogateescape``, how
#: standard input and command files are decoded) or U+FFFD (how the reader's prompt decodes).
_UNREADABLE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff\ufffd]")


class Usage(IllegalCommand):
    """The line does not fit the command's usage."""


#: A command: it reads its arguments (the line's words after the command's name) and says or
#: executes what they mean through the console.
Run = Callable[["Console", list[str]], None]


class Entry(Struct, frozen=True):
    name: str
    usage: str
    help: str
    run: Run
    aliases: tuple[str, ...] = ()


def command(
    name: str, usage: str, help: str, aliases: tuple[str, ...] = ()
) -> Callable[[Run], Entry]:
    """Declare a console command: the decorated function becomes its ``Entry``, for its module's
    ``COMMANDS`` table."""

    def declare(run: Run) -> Entry:
        return Entry(name, usage, help, run, aliases)

    return declare


#: What a module adds to a player's line in ``show`` (a Necromancer minion's master and solo
#: turns), and how many of the player's skipped turns that already says (a seat held for solo
#: turns is not a turn the table skips).
ShowMarks = Callable[[GameState, Player], tuple[list[str | Message], int]]
#: What a module adds to ``show`` about the whole table, under the turn line (day or night).
ShowLines = Callable[[GameState], list[str | Message]]


class CommandTable(Struct, frozen=True):
    """Everything one module plugs into the console: its commands, in the order ``help`` lists
    them, and what it adds to ``show`` (to a player's line, and lines about the table).  ``texts``
    is how the keys of its commands' help start (``console.help.new``; a format's in its own
    catalogue, ``console.pc.help.roll``); ``english`` is the English of every key its module
    says (its ``TEXTS``, its commands' help among them)."""

    entries: tuple[Entry, ...]
    texts: str
    show_marks: tuple[ShowMarks, ...] = ()
    show_lines: tuple[ShowLines, ...] = ()
    english: Mapping[str, Text] = field(default_factory=dict)

    def help_key(self, entry: Entry) -> str:
        return f"{self.texts}.help.{entry.name}"

    def help_texts(self) -> dict[str, str]:
        """The English of its commands' help, by key: part of its module's ``TEXTS``."""
        return {self.help_key(entry): entry.help for entry in self.entries}


class Console:
    """Runs typed lines against ``controller`` with the commands of ``tables`` (``help`` lists
    them in that order), printing replies to ``out`` in the language of ``translator`` (English
    unless given)."""

    def __init__(
        self,
        controller: Controller,
        out: TextIO,
        tables: Sequence[CommandTable],
        translator: ConsoleTranslator | None = None,
    ) -> None:
        self.controller = controller
        self.out = out
        self.translator = translator if translator is not None else ConsoleTranslator()
        self.done = False
        #: This gadget at an event played across tables (its link to the broker), when it has one.
        self.event: EventSession | None = None
        #: Lines to run once the broker has said everything it holds (``EventSession.synced``).
        self.pending: list[str] = []
        self.entries = [entry for table in tables for entry in table.entries]
        self.show_marks = [marks for table in tables for marks in table.show_marks]
        self.show_lines = [lines for table in tables for lines in table.show_lines]
        self.help_keys = {
            entry.name: table.help_key(entry) for table in tables for entry in table.entries
        }
        self.commands: dict[str, Entry] = {}
        for entry in self.entries:
            for key in (entry.name, *entry.aliases):
                if key in self.commands:
                    raise ValueError(f"console command {key!r} is declared twice")
                self.commands[key] = entry

    # --- running ------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.run_line(line)
            self.controller.idle()  # the reply is out: now the journal's backup, if one is due
            if self.done:
                break

    def run_line(self, line: str) -> None:
        try:
            words = split(checked(line))
        except IllegalCommand as error:
            self.say(refusal(error))
            return
        if not words:
            return
        entry = self.commands.get(words[0].casefold())
        try:
            if entry is None:
                raise IllegalCommand("console.unknown", name=words[0])
            entry.run(self, words[1:])
        except IllegalCommand as error:
            self.say(refusal(error))
        if self.event is not None:
            self.follow(self.event.step())

    def follow(self, results: Sequence[Result]) -> None:
        """What the event across tables made of a change or of news from the broker."""
        for result in results:
            self.show(result)

    def text(self, said: str | Message) -> str:
        """What to print for ``said``: a message in the console's language, a string as it is."""
        return self.translator.message(said) if isinstance(said, Message) else said

    def help(self, entry: Entry) -> str:
        """What ``entry`` does, in the console's language (its usage is typed syntax: English)."""
        return self.text(Message(self.help_keys[entry.name]))

    def say(self, said: str | Message) -> None:
        print(self.text(said), file=self.out, flush=True)

    def show(self, result: Result) -> None:
        for message in result.messages:
            self.say(message)
        if result.state is not None and result.events:
            self.say_outcome(result.state)

    def say_outcome(self, state: GameState) -> None:
        """``Game over: …`` if the game has ended."""
        ended = rules.describe_outcome(state)
        if ended is not None:
            self.say(Message("console.game_over", result=ended))

    def execute(self, cmd: Command) -> None:
        self.show(self.controller.execute(cmd))

    # --- parsing helpers ----------------------------------------------------------------

    def usage(self, name: str) -> Usage:
        """The refusal of a line that does not fit command ``name``'s usage."""
        return Usage("console.usage", usage=self.commands[name].usage)

    @property
    def state(self) -> GameState:
        if self.controller.state is None:
            raise IllegalCommand("rules.no_game")
        return self.controller.state

    def seat(self, text: str) -> int:
        return find_player(self.state, text)

    def source(self, args: list[str], name: str) -> tuple[list[str], int | None]:
        """Split a trailing ``from NAME`` off the arguments of command ``name``."""
        lowered = [a.casefold() for a in args]
        if "from" not in lowered:
            return args, None
        at = lowered.index("from")
        if at != len(args) - 2:
            raise self.usage(name)
        return args[:at], self.seat(args[at + 1])


def reason(error: IllegalCommand) -> Message:
    """Why the rules refused a command, as a message."""
    return Message(error.key, **error.params)


def refusal(error: IllegalCommand) -> Message:
    """``refused: <reason>``."""
    return Message("console.refused", reason=reason(error))


def checked(line: str) -> str:
    """``line`` without its line ending, refused (``IllegalCommand``) when it is longer than
    ``MAX_LINE`` or holds what no command has: bytes that are not UTF-8, control characters."""
    text = line.removesuffix("\n").removesuffix("\r")
    if len(text) > MAX_LINE:
        raise IllegalCommand("console.line_long", limit=MAX_LINE)
    found = _UNREADABLE.search(text)
    if found is not None:
        char = found.group()
        if char == "\ufffd" or "\ud800" <= char <= "\udfff":
            raise IllegalCommand("console.not_utf8")
        raise IllegalCommand("console.control", char=f"U+{ord(char):04X}")
    return text


def split(line: str) -> list[str]:
    """A console line in words.  Only double quotes group words: apostrophes are part of card
    and player names ("Raven's Run", "D'Arcy"), and ``#`` starts a comment."""
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split = True
    lexer.quotes = '"'
    lexer.commenters = "#"
    try:
        return list(lexer)
    except (
        ValueError
    ) as error:  # shlex says why in English: the console says it in the player's language
        key = "console.quotes.open" if "quotation" in str(error) else "console.quotes.escape"
        raise IllegalCommand("console.bad_quotes", problem=Message(key)) from None


def card_text(text: str) -> str:
    """``text`` as typed for a card's name; refused when it is longer than any card's name."""
    length = len(" ".join(text.split()))
    if length > MAX_CARD_NAME:
        raise IllegalCommand("console.card_long", length=length)
    return text


def number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise IllegalCommand("console.not_number", text=text) from None
