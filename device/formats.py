"""Formats and table options: declarations and how a name finds one (TB-2).

A game has exactly one *base* format, which decides starting life and which counters matter,
and any number of *modules* that add a part to the game (Planechase, Contraptions, …).  The
plain base formats are declared here and played by the table's rules; the others in their rules
module's ``RULES`` value.  ``Formats`` finds them by name among a game's rules (``Ruleset``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from device.errors import IllegalCommand, UnknownName
from device.text import Message, Text, fold, listing

TEXTS: dict[str, Text] = {
    "format.unknown": "There is no format {name!r}. Known formats: {known}.{hint}",
    "format.did_you_mean": " Did you mean {name!r}?",
    "format.no_base": "Choose at most one base format: {given} are all base formats.",
    "format.players": "{title} is for {low}–{high} players; this table has {count}.",
    "format.players_exactly": "{title} is for {low} players; this table has {count}.",
    "format.conflict": "{a} and {b} cannot be played together.",
    "format.requires": "{title} needs one of these base formats: {needed}.",
    "option.unknown": "There is no table option {name!r} for {formats}. Options here: {known}.",
    "option.bad_value": "Table option {name!r} cannot be {value!r}: {allowed}.",
    "format.plus": "{first} + {rest}",
}


@dataclass(frozen=True)
class Format:
    name: str
    title: str
    kind: Literal["base", "module"]
    starting_life: int = 20
    min_players: int = 2
    max_players: int = 10
    commander_damage: bool = False  # commander damage is tracked (Commander and its variants)
    tracks_life: bool = (
        True  # False where the game counts something else (Wizard's Duel: magic points)
    )
    aliases: tuple[str, ...] = ()
    excludes: frozenset[str] = frozenset()
    requires_base: frozenset[str] = frozenset()  # for modules: empty = any base
    #: False where the players do not pass the turn one at a time at one table (a Wizard's Duel
    #: moves in phases, a Conspiracy pod's groups play at several tables at once): such a game
    #: has no turn timer, and no option that times turns is offered with it.
    turns: bool = True
    #: False where the table's seats are not how the game is shown (a Wizard's Duel has a board
    #: of its own): no option about the seats is offered with it.
    seats: bool = True


@dataclass(frozen=True)
class TableOption:
    """A named switch or setting a module offers at game start.  ``module`` names the format
    that offers it, or, for an option of every game (``everywhere``: the clock's turn timer), the
    rules part that declares it; such an option is offered with any base format but those in
    ``unless``.  An option that ``times_turns`` is not offered with a format whose players do not
    take turns (``Format.turns``), nor one about the ``seats`` with a format that does not show
    them (``Format.seats``): the formats of a game's rules add those to its ``unless``."""

    name: str
    module: str
    help: str
    default: str | int | bool
    choices: tuple[str, ...] = ()  # for text options
    low: int | None = None  # for numbers
    high: int | None = None
    step: int = 1  # for numbers: how far one turn of the set-up screen's encoder moves it
    everywhere: bool = False
    unless: frozenset[str] = frozenset()
    times_turns: bool = False
    seats: bool = False

    def parse(self, text: str) -> str | int | bool:
        """The option's value from console or config text; refuses values it cannot take."""
        raw = text.strip()
        if isinstance(self.default, bool):
            lowered = raw.casefold()
            if lowered in {"1", "yes", "on", "true"}:
                return True
            if lowered in {"0", "no", "off", "false"}:
                return False
            raise IllegalCommand(
                "option.bad_value", name=self.name, value=text, allowed="use on or off"
            )
        if isinstance(self.default, int):
            try:
                number = int(raw)
            except ValueError:
                number = None
            if (
                number is None
                or (self.low is not None and number < self.low)
                or (self.high is not None and number > self.high)
            ):
                allowed = f"a whole number from {self.low} to {self.high}"
                raise IllegalCommand(
                    "option.bad_value", name=self.name, value=text, allowed=allowed
                )
            return number
        if self.choices and raw.casefold() not in self.choices:
            allowed = "one of " + ", ".join(self.choices)
            raise IllegalCommand("option.bad_value", name=self.name, value=text, allowed=allowed)
        return raw.casefold() if self.choices else raw


def title(fmt: Format) -> Message:
    """A format's title as a message, so a screen names it in its language ("Командир")."""
    return Message(f"format.title.{fmt.name}")


def titles(fmts: Iterable[Format]) -> str | Message:
    """Titles joined with "+", as a game's formats are named ("Commander + Planechase")."""
    head: str | Message = ""
    for fmt in fmts:
        head = title(fmt) if head == "" else Message("format.plus", first=head, rest=title(fmt))
    return head


#: How alike a word must be to a format's name or alias to be taken for a slip of it.  High, and
#: only for words of four letters or more, so players' names ("Ed", "Duke", "Del") stay names.
CLOSE_RATIO = 0.8
CLOSE_LENGTH = 4


@dataclass(frozen=True)
class Setup:
    base: Format
    modules: tuple[Format, ...]
    options: dict[str, str | int | bool]

    @property
    def names(self) -> tuple[str, ...]:
        return (self.base.name, *(m.name for m in self.modules))


class Formats:
    """The formats and table options of a game's rules, and how a name finds one: a value the
    rules build from their parts (``Ruleset.formats``), so a game knows only its parts' formats."""

    def __init__(self, formats: Iterable[Format], options: Iterable[TableOption]) -> None:
        self._by_key: dict[str, Format] = {}
        self._options: dict[str, TableOption] = {}
        for fmt in formats:
            for key in (fmt.name, *fmt.aliases):
                existing = self._by_key.get(fold(key))
                if existing is not None and existing != fmt:
                    raise ValueError(f"format name {key!r} is taken by {existing.name!r}")
                self._by_key[fold(key)] = fmt
        turnless = frozenset(fmt.name for fmt in self._by_key.values() if not fmt.turns)
        seatless = frozenset(fmt.name for fmt in self._by_key.values() if not fmt.seats)
        for option in options:
            if self._options.get(option.name, option) != option:
                raise ValueError(f"table option {option.name!r} declared twice")
            self._options[option.name] = option
        for name, option in self._options.items():
            left_out = (turnless if option.times_turns else frozenset()) | (
                seatless if option.seats else frozenset()
            )
            if left_out:
                self._options[name] = replace(option, unless=option.unless | left_out)

    def all(self) -> tuple[Format, ...]:
        """Every format, each once, in the order they were declared."""
        seen: dict[str, Format] = {}
        for fmt in self._by_key.values():
            seen.setdefault(fmt.name, fmt)
        return tuple(seen.values())

    def find(self, name: str) -> Format:
        """The format called ``name`` or one of its aliases; refuses an unknown name with the
        known ones and the closest."""
        fmt = self._by_key.get(fold(name))
        if fmt is None:
            known = sorted(f.name for f in self.all())
            close = difflib.get_close_matches(fold(name), known, n=1)
            hint = Message("format.did_you_mean", name=close[0]) if close else ""
            raise UnknownName("format.unknown", name=name, known=", ".join(known), hint=hint)
        return fmt

    def close(self, word: str) -> str | None:
        """The format name or alias (as spelt in the declaration) that ``word`` looks like a slip
        of — "comander" is "commander", "dule" is "duel" —, or None: a known name is no slip,
        and a word unlike every name is taken for what it says (a player's name, at the console)."""
        typed = fold(word)
        if len(typed) < CLOSE_LENGTH or typed in self._by_key:
            return None
        keys = [key for key in self._by_key if len(key) >= CLOSE_LENGTH]
        close = difflib.get_close_matches(typed, keys, n=1, cutoff=CLOSE_RATIO) or [
            key for key in keys if _swapped(typed, key)
        ]
        if not close:
            return None
        fmt = self._by_key[close[0]]
        return next(name for name in (fmt.name, *fmt.aliases) if fold(name) == close[0])

    def take_turns(self, names: Iterable[str]) -> bool:
        """Whether a game of these formats passes the turn one at a time (``Format.turns``)."""
        return all(self.find(name).turns for name in names)

    def options_for(self, module_names: Iterable[str]) -> dict[str, TableOption]:
        """The table options of a game of these formats: each format's own, and with a base
        format among them the options of every game that it does not leave out."""
        wanted = set(module_names)
        based = any(
            fmt.kind == "base"
            for name in wanted
            if (fmt := self._by_key.get(fold(name))) is not None
        )
        return {
            o.name: o
            for o in self._options.values()
            if o.module in wanted or o.everywhere and based and not o.unless & wanted
        }

    def resolve(self, names: Iterable[str], player_count: int, options: dict[str, str]) -> Setup:
        """Check a combination of formats and table options for a table of ``player_count``."""
        chosen: list[Format] = []
        for name in names:
            fmt = self.find(name)
            if fmt not in chosen:
                chosen.append(fmt)
        bases = [f for f in chosen if f.kind == "base"]
        if len(bases) > 1:
            raise IllegalCommand("format.no_base", given=listing([title(f) for f in bases]))
        base = bases[0] if bases else self.find("ffa")
        modules = tuple(f for f in chosen if f.kind == "module")
        for fmt in (base, *modules):
            if not fmt.min_players <= player_count <= fmt.max_players:
                raise IllegalCommand(
                    "format.players"
                    if fmt.min_players < fmt.max_players
                    else "format.players_exactly",
                    title=title(fmt),
                    low=fmt.min_players,
                    high=fmt.max_players,
                    count=player_count,
                )
            for other in (base, *modules):
                if other.name in fmt.excludes:
                    raise IllegalCommand("format.conflict", a=title(fmt), b=title(other))
            if fmt.requires_base and base.name not in fmt.requires_base:
                needed = listing(
                    [title(self.find(name)) for name in sorted(fmt.requires_base)], "text.or"
                )
                raise IllegalCommand("format.requires", title=title(fmt), needed=needed)
        available = self.options_for(f.name for f in (base, *modules))
        values: dict[str, str | int | bool] = {name: opt.default for name, opt in available.items()}
        for key, text in options.items():
            option = available.get(key.strip().casefold().replace("-", "_"))
            if option is None:
                raise UnknownName(
                    "option.unknown",
                    name=key,
                    formats=titles((base, *modules)),
                    known=", ".join(sorted(available)) or "none",
                )
            values[option.name] = option.parse(text)
        return Setup(base=base, modules=modules, options=values)


def _swapped(a: str, b: str) -> bool:
    """``a`` is ``b`` with two neighbouring letters swapped ("dule", "duel")."""
    if len(a) != len(b):
        return False
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and a[differ[0]] == b[differ[1]]
        and a[differ[1]] == b[differ[0]]
    )


#: The base formats that need no rules of their own beyond the table's and life's.
PLAIN_FORMATS = (
    Format(
        "ffa", "Free-for-all", "base", starting_life=20, aliases=("free-for-all", "multiplayer")
    ),
    Format(
        "duel",
        "Two-player game",
        "base",
        starting_life=20,
        max_players=2,
        aliases=("two-player", "1v1"),
    ),
    Format(
        "commander", "Commander", "base", starting_life=40, commander_damage=True, aliases=("edh",)
    ),
)
