"""The card catalog: every printed plane, phenomenon and contraption, by name and type (HW-3).

Names, types, factions and set codes are facts and ship with the package (``device/data/*.tsv``);
rules text and images do not.  ``load_catalog()`` reads the data once per process.

Names are matched loosely, because people type them on a small screen or by hand in a file:
case, accents, apostrophes, hyphens, other punctuation and extra spaces do not matter, so
"tazeem", "the eon fog", "ravens run" and "magerings" all name a card.  ``find`` wants one card
and says clearly when the text names none or several; ``search`` is for type-to-search and
returns a ranked list.

A catalog is an immutable value.  Its filters (``planes()``, ``in_set("OPC2")``, ``by_faction(3)``
…) return smaller catalogs, so a screen can search within, say, the planar cards only.  A name a
catalog does not know is refused in the words of what it holds: ``planar()`` says "No plane or
phenomenon is called 'Lightning Bolt'", ``contraptions()`` "No contraption is called …", and a
catalog of both names all three kinds — so a caller that expects one kind asks that view.
Iteration follows the data files' order (first printing, then collector number).
"""

from __future__ import annotations

import csv
import difflib
import enum
import io
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from importlib import resources

from device.errors import UnknownName
from device.models import Model
from device.text import Message, Plural, Text, fold, listing

TEXTS: dict[str, Text] = {
    "catalog.no_name": "No card name given: type the start of the card's name.",
    # A name the catalog does not know, worded by what the catalog holds: the gadget knows
    # planar cards and contraptions only, so "Lightning Bolt" is not "no card".
    "catalog.unknown_card": (
        "No plane, phenomenon or contraption is called {text!r}: check the spelling or type the "
        "start of the name."
    ),
    "catalog.unknown_card_suggest": (
        "No plane, phenomenon or contraption is called {text!r}. Did you mean {suggestions}? "
        "Check the spelling or type the start of the name."
    ),
    "catalog.unknown_planar": (
        "No plane or phenomenon is called {text!r}: check the spelling or type the start of the name."
    ),
    "catalog.unknown_planar_suggest": (
        "No plane or phenomenon is called {text!r}. Did you mean {suggestions}? "
        "Check the spelling or type the start of the name."
    ),
    "catalog.unknown_contraption": (
        "No contraption is called {text!r}: check the spelling or type the start of the name."
    ),
    "catalog.unknown_contraption_suggest": (
        "No contraption is called {text!r}. Did you mean {suggestions}? "
        "Check the spelling or type the start of the name."
    ),
    "catalog.ambiguous": Plural(
        "{text!r} could be {count} card: {names}. Type more of the name.",
        "{text!r} could be any of {count} cards: {names}. Type more of the name.",
        "count",
    ),
    "catalog.and_more": "{names} and {more} more",
    "catalog.unknown_set": "No planar cards in set {code!r}. Sets with planar cards: {sets}.",
    "catalog.unknown_faction": ("No contraption faction {faction!r}. Factions: {factions}."),
    # what a card is, in messages about a card that does not fit
    "catalog.kind.plane": "plane",
    "catalog.kind.phenomenon": "phenomenon",
    "catalog.kind.contraption": "contraption",
}

#: How many names an "ambiguous" message lists, and how many close matches it suggests.
AMBIGUOUS_SHOWN = 5
SUGGESTIONS = 3


class CardKind(enum.StrEnum):
    PLANE = "plane"
    PHENOMENON = "phenomenon"
    CONTRAPTION = "contraption"


def card_kind(kind: CardKind) -> Message:
    """What a card is, as a word each language says its own way ("plane", «измерение»)."""
    return Message(f"catalog.kind.{kind.value}")


_FACTION_LABELS = {
    1: "Order of the Widget",
    2: "Agents of S.N.E.A.K.",
    3: "League of Dastardly Doom",
    4: "Goblin Explosioneers",
    5: "Crossbreed Labs",
}


class Faction(enum.IntEnum):
    """A contraption's watermark.  The number is the library a faction die picks (CT-A1, CT-A2)."""

    ORDER_OF_THE_WIDGET = 1
    AGENTS_OF_SNEAK = 2
    LEAGUE_OF_DASTARDLY_DOOM = 3
    GOBLIN_EXPLOSIONEERS = 4
    CROSSBREED_LABS = 5

    @property
    def label(self) -> str:
        """The watermark's printed name, e.g. ``"Agents of S.N.E.A.K."``."""
        return _FACTION_LABELS[self.value]

    @classmethod
    def parse(cls, value: Faction | int | str) -> Faction:
        """A faction from its number (1–5), its name (loosely: "agents of sneak") or itself."""
        if isinstance(value, Faction):
            return value
        if isinstance(value, int):
            if value in _FACTION_LABELS:
                return cls(value)
        else:
            key = name_key(value)
            for number, label in _FACTION_LABELS.items():
                if key and (key == name_key(label) or key == str(number)):
                    return cls(number)
        raise UnknownName(
            "catalog.unknown_faction",
            faction=value,
            factions=", ".join(f"{n} {label}" for n, label in _FACTION_LABELS.items()),
        )


#: Sets of playtest cards: prototypes handed out at events, with rules still being tried.
PLAYTEST_SETS = frozenset({"PUNK"})


class Card(Model):
    """One card as the catalog knows it: facts only, no rules text."""

    name: str
    kind: CardKind
    #: The plane's world, e.g. "Dominaria"; ``None`` for phenomena and contraptions.
    planar_type: str | None = None
    faction: Faction | None = None
    set_code: str
    collector_number: str
    #: Every set the card was printed in, first printing first.
    printings: tuple[str, ...]

    @property
    def is_planar(self) -> bool:
        return self.kind is not CardKind.CONTRAPTION

    @property
    def is_playtest(self) -> bool:
        """Printed only as a playtest card (the Unknown Event cards): dealt into a random deck
        only from its own set, when asked for by name (``planar_deck=punk``)."""
        return all(code in PLAYTEST_SETS for code in self.printings)

    @property
    def faction_number(self) -> int | None:
        """1–5 for a contraption (CT-A1), ``None`` for planar cards."""
        return None if self.faction is None else int(self.faction)


# --- loose names -------------------------------------------------------------------------------

# Apostrophes vanish rather than split words, so "Raven's" is the one word "ravens".
_APOSTROPHES = str.maketrans("", "", "'\u2019\u2018`\u00b4\u02bc")
_NOT_WORD = re.compile(r"[^0-9a-z]+")


def normalise_name(text: str) -> str:
    """Lower-case ASCII-ish words separated by single spaces: ``"Li'l Giri"`` → ``"lil giri"``.

    Accents are dropped (NFKD, combining marks removed), case is folded, apostrophes are removed
    and every other run of punctuation or space becomes one space.
    """
    bare = fold(text.translate(_APOSTROPHES))
    # Folding can reintroduce an apostrophe-like or non-ASCII letter; the pattern turns anything
    # outside a-z0-9 into a separator so such letters never glue two words together.
    return _NOT_WORD.sub(" ", bare.translate(_APOSTROPHES)).strip()


def name_key(text: str) -> str:
    """The name with every separator removed, so "Il-Vec", "il vec" and "ilvec" compare equal."""
    return normalise_name(text).replace(" ", "")


# --- the catalog ---------------------------------------------------------------------------------


class Catalog:
    """An immutable, ordered set of cards with loose lookup and type-to-search."""

    __slots__ = ("_cards", "_by_name", "_keys", "_words", "_loose", "_unknown", "_views")

    def __init__(self, cards: Iterable[Card]) -> None:
        self._cards: tuple[Card, ...] = tuple(cards)
        self._by_name: dict[str, Card] = {}
        for card in self._cards:
            if card.name in self._by_name:
                raise ValueError(f"card {card.name!r} is in the catalog twice")
            self._by_name[card.name] = card
        self._loose = tuple(normalise_name(card.name) for card in self._cards)
        self._keys = tuple(loose.replace(" ", "") for loose in self._loose)
        self._words = tuple(tuple(loose.split()) for loose in self._loose)
        kinds = {card.kind for card in self._cards}
        # What "no card is called …" says: the kind of card this catalog holds.
        self._unknown = (
            "catalog.unknown_contraption"
            if kinds == {CardKind.CONTRAPTION}
            else "catalog.unknown_planar"
            if kinds and CardKind.CONTRAPTION not in kinds
            else "catalog.unknown_card"
        )
        self._views: dict[str, Catalog] = {}

    # container protocol

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Card):
            return self._by_name.get(item.name) == item
        return isinstance(item, str) and item in self._by_name

    def __repr__(self) -> str:
        return f"<Catalog of {len(self._cards)} cards>"

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(card.name for card in self._cards)

    # lookup

    def get(self, name: str) -> Card | None:
        """The card with exactly this English name, or ``None``."""
        return self._by_name.get(name)

    def find(self, text: str) -> Card:
        """The one card ``text`` names: exactly, loosely, by the start of its name, by the
        start of each of its words ("eon fog"), or by a piece of it ("magerings").

        The first of those ways that matches anything decides: one card is the answer, several
        are ambiguous even if a later way would single one out.

        Raises ``UnknownName`` (a ``ValueError``) when nothing matches — naming the kind of
        card this catalog holds and suggesting close spellings — or when several cards match
        equally well, listing some of them.  Messages quote the text as typed, trimmed and with
        single spaces.
        """
        exact = self._by_name.get(text)
        if exact is not None:
            return exact
        typed = " ".join(text.split())
        loose = normalise_name(text)
        if not loose:
            raise UnknownName("catalog.no_name", text=typed)
        for tier in self._tiers(loose):
            if len(tier) == 1:
                return self._cards[tier[0]]
            if tier:
                raise self._ambiguous(typed, tier)
        suggestions = self._suggest(loose)
        if suggestions:
            raise UnknownName(
                f"{self._unknown}_suggest", text=typed, suggestions=listing(suggestions, "text.or")
            )
        raise UnknownName(self._unknown, text=typed)

    def split(self, text: str) -> tuple[str, ...]:
        """A list of card names separated by commas, as players type it, where a printed name
        that has commas in it ("The Drum, Mining Facility"; "Fblthp: Completely, Utterly,
        Totally Lost") counts as one: this catalog's names with commas are matched first,
        longest first and ignoring case and spacing; the rest is split at the commas."""
        line = " ".join(text.split())
        folded = line.casefold()
        with_commas = sorted((n for n in self.names if "," in n), key=len, reverse=True)
        found: list[str] = []
        at = 0
        while at < len(line):
            if line[at] in ", ":
                at += 1
                continue
            name = next(
                (
                    n
                    for n in with_commas
                    if folded.startswith(n.casefold(), at)
                    and folded[at + len(n) : at + len(n) + 1] in ("", ",", " ")
                ),
                None,
            )
            if name is not None:
                found.append(name)
                at += len(name)
                continue
            end = line.find(",", at)
            end = len(line) if end < 0 else end
            found.append(line[at:end].strip())
            at = end
        return tuple(piece for piece in found if piece)

    def search(self, text: str, limit: int = 10) -> tuple[Card, ...]:
        """Cards for type-to-search, best first: the whole name, then names starting with the
        text, then names whose words start with the typed words, then names containing it.

        Within each rank, cards are in alphabetical order.  Empty text lists everything
        alphabetically.  At most ``limit`` cards.
        """
        ranked: list[int] = []
        seen: set[int] = set()
        for tier in self._tiers(normalise_name(text)):
            for index in sorted(tier, key=lambda i: (self._loose[i], self._cards[i].name)):
                if index not in seen:
                    seen.add(index)
                    ranked.append(index)
                    if len(ranked) >= limit:
                        return tuple(self._cards[i] for i in ranked)
        return tuple(self._cards[i] for i in ranked)

    def _tiers(self, loose: str) -> Iterator[list[int]]:
        """Indexes of matching cards, one list per way of matching, best way first."""
        key = loose.replace(" ", "")
        yield self._key_equal(key)
        yield self._key_prefix(key)
        yield self._word_prefix(loose)
        yield self._substring(key)

    def _key_equal(self, key: str) -> list[int]:
        return [i for i, k in enumerate(self._keys) if k == key]

    def _key_prefix(self, key: str) -> list[int]:
        return [i for i, k in enumerate(self._keys) if k.startswith(key)]

    def _word_prefix(self, loose: str) -> list[int]:
        typed = loose.split()
        if not typed:
            return []
        return [
            i
            for i, words in enumerate(self._words)
            if all(any(word.startswith(t) for word in words) for t in typed)
        ]

    def _substring(self, key: str) -> list[int]:
        return [i for i, k in enumerate(self._keys) if key in k]

    def _ambiguous(self, text: str, indexes: list[int]) -> UnknownName:
        names = sorted((self._cards[i].name for i in indexes), key=normalise_name)
        shown = listing(names[:AMBIGUOUS_SHOWN], "text.list")
        if len(names) > AMBIGUOUS_SHOWN:
            shown = Message("catalog.and_more", names=shown, more=len(names) - AMBIGUOUS_SHOWN)
        return UnknownName("catalog.ambiguous", text=text, count=len(names), names=shown)

    def _suggest(self, loose: str) -> list[str]:
        # Compare with the whole name and with its start, so a misspelt beginning of a long name
        # ("acadmy") still finds it.
        scored: list[tuple[float, str]] = []
        for card, name in zip(self._cards, self._loose):
            whole = difflib.SequenceMatcher(None, loose, name).ratio()
            start = difflib.SequenceMatcher(None, loose, name[: len(loose)]).ratio()
            score = max(whole, start)
            if score >= 0.75:
                scored.append((score, card.name))
        scored.sort(key=lambda item: (-item[0], normalise_name(item[1])))
        return [name for _, name in scored[:SUGGESTIONS]]

    # filters

    def _where(self, keep: Iterable[bool]) -> Catalog:
        return Catalog(card for card, kept in zip(self._cards, keep) if kept)

    def _view(self, name: str, keep: Callable[[Card], bool]) -> Catalog:
        # Kept, so a rules module can ask ``load_catalog().planar()`` for every name it checks.
        view = self._views.get(name)
        if view is None:
            view = self._views[name] = self._where(keep(card) for card in self._cards)
        return view

    def planar(self) -> Catalog:
        """Planes and phenomena (PC-12); a name it does not know is "no plane or phenomenon"."""
        return self._view("planar", lambda card: card.is_planar)

    def planes(self) -> Catalog:
        return self._where(card.kind is CardKind.PLANE for card in self._cards)

    def phenomena(self) -> Catalog:
        return self._where(card.kind is CardKind.PHENOMENON for card in self._cards)

    def contraptions(self) -> Catalog:
        """The contraptions (CT-1); a name it does not know is "no contraption"."""
        return self._view("contraptions", lambda card: card.kind is CardKind.CONTRAPTION)

    def sets(self) -> tuple[str, ...]:
        """Set codes with planar cards, in first-appearance order: the named sets a virtual
        planar deck can be built from (PC-12)."""
        codes: dict[str, None] = {}
        for card in self._cards:
            if card.is_planar:
                codes.update(dict.fromkeys(card.printings))
        return tuple(codes)

    def in_set(self, code: str) -> Catalog:
        """Planar cards printed in set ``code`` (any printing counts; the code is case-blind)."""
        wanted = code.strip().upper()
        subset = self._where(card.is_planar and wanted in card.printings for card in self._cards)
        if not subset:
            raise UnknownName("catalog.unknown_set", code=code, sets=", ".join(self.sets()))
        return subset

    def by_faction(self, faction: Faction | int | str) -> Catalog:
        """The contraptions of one faction, by ``Faction``, its number 1–5 or its name (CT-A1)."""
        wanted = Faction.parse(faction)
        return self._where(card.faction is wanted for card in self._cards)


# --- loading the shipped data ----------------------------------------------------------------------

_KINDS = {"Plane": CardKind.PLANE, "Phenomenon": CardKind.PHENOMENON}


def _rows(text: str, source: str, columns: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE)
    if tuple(reader.fieldnames or ()) != columns:
        raise ValueError(f"{source}: expected columns {columns}, found {reader.fieldnames}")
    for row in reader:
        if None in row.values() or None in row:
            raise ValueError(f"{source}:{reader.line_num}: expected {len(columns)} columns")
        yield reader.line_num, row


def parse_planes(text: str, source: str = "planes.tsv") -> tuple[Card, ...]:
    """Planar cards from the planes TSV (name, card_type, planar_type, set_code,
    collector_number, printings separated by ``;``)."""
    columns = ("name", "card_type", "planar_type", "set_code", "collector_number", "printings")
    cards = []
    for line, row in _rows(text, source, columns):
        kind = _KINDS.get(row["card_type"])
        if kind is None:
            raise ValueError(f"{source}:{line}: unknown card type {row['card_type']!r}")
        cards.append(
            Card(
                name=row["name"],
                kind=kind,
                planar_type=row["planar_type"] or None,
                set_code=row["set_code"],
                collector_number=row["collector_number"],
                printings=tuple(code for code in row["printings"].split(";") if code),
            )
        )
    return tuple(cards)


def parse_contraptions(text: str, source: str = "contraptions.tsv") -> tuple[Card, ...]:
    """Contraptions from the contraptions TSV (name, faction, set_code, collector_number)."""
    columns = ("name", "faction", "set_code", "collector_number")
    cards = []
    for line, row in _rows(text, source, columns):
        labels = {label: number for number, label in _FACTION_LABELS.items()}
        if row["faction"] not in labels:
            raise ValueError(f"{source}:{line}: unknown faction {row['faction']!r}")
        cards.append(
            Card(
                name=row["name"],
                kind=CardKind.CONTRAPTION,
                faction=Faction(labels[row["faction"]]),
                set_code=row["set_code"],
                collector_number=row["collector_number"],
                printings=(row["set_code"],),
            )
        )
    return tuple(cards)


@cache
def load_catalog() -> Catalog:
    """Every card the gadget knows, read from the package data once per process."""
    data = resources.files("device") / "data"
    planes = (data / "planes.tsv").read_text(encoding="utf-8")
    contraptions = (data / "contraptions.tsv").read_text(encoding="utf-8")
    return Catalog(parse_planes(planes) + parse_contraptions(contraptions))
