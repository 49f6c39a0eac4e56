"""English texts of the messages the game core produces, by key.

Rules raise ``IllegalCommand(key, **params)`` and describe events as ``(key, params)``; the
console prints the English text from here, and the kiosk looks the same key up in the table's
language and falls back to this English text.  Keys are stable: screens and translations use them.

A text with a count is a :class:`Plural`: its English singular and plural and the parameter that
counts.  Each translation has as many forms as its language needs (Russian and Polish three,
Japanese one), chosen by the language's CLDR plural rule (``device.translations``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Plural:
    """An English text that depends on a count: ``one`` when the parameter ``n`` names is 1,
    else ``other`` (both may be the same words: English "mana" does not change, Russian does)."""

    one: str
    other: str
    n: str = "n"

    def choose(self, params: Mapping[str, Any]) -> str:
        return self.one if count(params.get(self.n)) == 1 else self.other


def count(value: Any) -> int:
    """A count parameter as an integer (a value that is not a number counts as 0)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    try:
        return int(str(value))
    except ValueError:
        return 0


Text = str | Plural


@dataclass(frozen=True)
class Source:
    """Where the English of the keys starting with ``keys`` is written: ``read`` gives the
    mappings (each module's ``TEXTS``) when one of those keys is first looked up."""

    keys: tuple[str, ...]
    read: Callable[[], Iterable[Mapping[str, Text]]]


class English:
    """The English of every key, gathered from ``sources`` in their order, each read only when a
    key it holds is first looked up (the kiosk never needs the console's, and never pays for
    importing it).  A key written twice, differently, is refused when its source is read."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self.sources = tuple(sources)
        self._texts: dict[str, Text] = {}
        # Which sources are read; a source is marked before it is read, so a module that looks
        # a text up while it is being imported does not read it again.
        self._read = [False] * len(self.sources)

    def get(self, key: str) -> Text | None:
        """The English of ``key``, or None for a key no source writes."""
        found = self._texts.get(key)
        if found is None:
            for index, source in enumerate(self.sources):
                if not self._read[index] and key.startswith(source.keys):
                    self._read_source(index)
            found = self._texts.get(key)
        return found

    def every(self) -> Mapping[str, Text]:
        """Every text of every source, by key."""
        for index in range(len(self.sources)):
            if not self._read[index]:
                self._read_source(index)
        return self._texts

    def _read_source(self, index: int) -> None:
        self._read[index] = True
        for texts in self.sources[index].read():
            for key, text in texts.items():
                if self._texts.get(key, text) != text:
                    raise ValueError(f"text key {key!r} is written twice, differently")
                self._texts[key] = text


#: The English that ``str(message)`` words messages in, given by the program at its start
#: (``speak``): the gadget's own (``device.english.ENGLISH``), which this module cannot import —
#: it is gathered from the modules above it.  Until then a message shows its key.
_spoken: English = English(())


def speak(english: English) -> None:
    """Word messages in ``english`` from now on, in this process."""
    global _spoken
    _spoken = english


def english(key: str) -> Text | None:
    """The English of ``key`` in what this process speaks, or None for a key no module writes."""
    return _spoken.get(key)


def every_text() -> Mapping[str, Text]:
    """Every text this process speaks, by key."""
    return _spoken.every()


def fold(text: str) -> str:
    """Case- and accent-insensitive form of a name, for matching what people type: "Łukasz",
    "lukasz" and "LUKASZ" fold alike, and so do "edh" and "EDH"."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.casefold().replace("_", " ").replace("-", " ").split())


def render(key: str, params: Mapping[str, Any]) -> str:
    """The English text for ``key`` with ``params`` filled in (a parameter that is a message in
    English too); unknown keys show themselves."""
    entry = english(key)
    if entry is None:
        return f"{key} {dict(params)!r}" if params else key
    template = entry.choose(params) if isinstance(entry, Plural) else entry
    return fill(template, {k: str(v) if isinstance(v, Message) else v for k, v in params.items()})


def fill(template: str, params: Mapping[str, Any]) -> str:
    """``template`` with ``params`` filled in; a template that does not fit its parameters (a
    damaged or outdated translation) shows itself and them rather than failing."""
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return f"{template} {dict(params)!r}"


class Message:
    """A text to show, as a key and its parameters, so each screen can use its own language."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return render(self.key, self.params)

    def __repr__(self) -> str:
        return f"Message({self.key!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.key, self.params) == (other.key, other.params)

    def __hash__(self) -> int:
        return hash(self.key)

    def to_json(self) -> dict[str, Any]:
        # A param may itself be a message (a word or phrase each language words its own way).
        params = {k: v.to_json() if isinstance(v, Message) else v for k, v in self.params.items()}
        return {"key": self.key, "params": params, "text": str(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        params = {
            k: cls.from_json(v) if isinstance(v, dict) and {"key", "params"} <= v.keys() else v
            for k, v in data["params"].items()
        }
        return cls(data["key"], **params)


# Lists and runs of sentences: each language joins them its own way (a Japanese list is joined
# with "、", its sentences without a space), so the words and marks between items are texts too.
TEXTS: dict[str, Text] = {
    "text.list": "{first}, {rest}",
    "text.and": "{first} and {last}",
    "text.or": "{first} or {last}",
    "text.sentences": "{first} {rest}",
}


def listing(items: Sequence[str | Message], last: str = "text.and") -> str | Message:
    """ "A, B and C" (``last="text.or"``: "A, B or C"; ``last="text.list"``: "A, B, C") as one
    message; one item is itself, none is an empty string."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    head = _joined("text.list", items[:-1])
    if last == "text.list":
        return Message(last, first=head, rest=items[-1])
    return Message(last, first=head, last=items[-1])


def _joined(key: str, items: Sequence[str | Message]) -> str | Message:
    """``items`` joined by ``key`` ("{first}, {rest}": the same whichever way it groups), as a
    balanced tree: a long game's hundreds of rolls or changes nest a few levels deep, not one
    level an item, which would overflow Python's recursion when the message is worded."""
    if len(items) == 1:
        return items[0]
    middle = len(items) // 2
    return Message(key, first=_joined(key, items[:middle]), rest=_joined(key, items[middle:]))


def sentences(items: Sequence[str | Message]) -> str | Message:
    """Sentences one after another, as one message (what an undone change had said)."""
    if not items:
        return ""
    return _joined("text.sentences", items)
