"""``aetherbox enroll``: build the tag map by tapping cards on the reader (HW-3).

Two ways to work:

- one card at a time: tap a card, find its name by typing the start of it, confirm; repeat;
- a whole deck in order (``--deck FILE``, ``--all-planes``, ``--set CODE``,
  ``--contraptions``): the tool names each card in turn ("tap Tazeem") and enrols the tag that
  is tapped next.

A tag that is already in the map says which card it is and is only changed if you say so.  A
tag UID may also be typed instead of tapped, which is how the tool is tried with ``--fake``
(no hardware) or used with a tag whose UID is printed on it.  Every change is written to the
tag map file at once (``device.tagmap``), so stopping half-way keeps what was done.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from device.catalog import Card, Catalog, load_catalog, name_key
from device.config import Config
from device.prompt import LineSource, SignalledQueue, status_text
from device.errors import ConfigError, UnknownName
from device.inputs import InputEvent, ReaderStatus, TagRead, normalise_uid
from device.tagmap import TagMap, format_uid
from firmware_tools.cli import tool_main
from firmware_tools.readers import open_reader

PROTOCOL_CHOICES = ("auto", "rdm6300", "id12", "pn532", "line")
SHOWN = 9  # search results listed at once: one digit picks one


def add_arguments(parser: argparse.ArgumentParser) -> None:
    reader = parser.add_argument_group("reader")
    reader.add_argument(
        "--port", help="serial port of the reader (default: configured, else found by USB id)"
    )
    reader.add_argument(
        "--protocol",
        choices=PROTOCOL_CHOICES,
        help="the reader's protocol (default: configured, else auto)",
    )
    reader.add_argument(
        "--fake", action="store_true", help="no reader: type tag UIDs instead of tapping"
    )
    parser.add_argument(
        "--tags", type=Path, help="tag map file to write (default: tags.txt in the data directory)"
    )
    deck = parser.add_mutually_exclusive_group()
    deck.add_argument(
        "--deck",
        type=Path,
        metavar="FILE",
        help="enrol the cards named in FILE (one per line), in order",
    )
    deck.add_argument(
        "--all-planes",
        action="store_true",
        help="enrol every plane and phenomenon, in catalog order",
    )
    deck.add_argument(
        "--set", metavar="CODE", help="enrol the planar cards of one set (e.g. OPC2), in order"
    )
    deck.add_argument(
        "--contraptions", action="store_true", help="enrol every contraption, in catalog order"
    )


def main(argv: Sequence[str] | None = None) -> int:
    return tool_main(
        "aetherbox enroll", "Tell aetherbox which card each RFID tag is.", add_arguments, run, argv
    )


def deck_cards(args: argparse.Namespace, catalog: Catalog) -> list[Card] | None:
    """The cards to enrol in order, or ``None`` for one card at a time."""
    if args.all_planes:
        return list(catalog.planar())
    if args.contraptions:
        return list(catalog.contraptions())
    if args.set:
        return list(catalog.in_set(args.set))
    if args.deck:
        return read_deck(args.deck, catalog)
    return None


def read_deck(path: Path, catalog: Catalog) -> list[Card]:
    """Card names, one per line (``#`` comments and blank lines skipped); every bad line is
    reported at once, with its number, before anything is enrolled."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise FileNotFoundError(f"cannot read the deck list {path}: {error.strerror}") from error
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text; save the deck list as UTF-8") from None
    cards: list[Card] = []
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        name = line.strip()
        if not name or name.startswith("#"):
            continue
        try:
            cards.append(catalog.find(name))
        except UnknownName as error:
            problems.append(f"{path}:{number}: {error}")
    if problems:
        raise ConfigError("the deck list has problems:\n  " + "\n  ".join(problems))
    if not cards:
        raise ConfigError(f"{path}: no card names in it; write one card name per line")
    return cards


class Session:
    """One enrolment session at a text prompt."""

    def __init__(self, tags: TagMap, source: LineSource, out: TextIO) -> None:
        self.tags = tags
        self.catalog = tags.catalog
        self.source = source
        self.out = out
        self.enrolled = 0
        self.skipped = 0
        self._prompt = ""  # the question on screen, put back after a status line

    # -- talking -----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def prompt(self, text: str) -> None:
        for status in self.source.statuses():
            self.say(status_text(status))
        self._prompt = text
        self.out.write(text)
        self.out.flush()

    def status(self, status: ReaderStatus) -> None:
        if self._prompt:
            self.out.write("\n")
        self.say(status_text(status))
        if self._prompt:
            self.out.write(self._prompt)
            self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """A typed answer; taps are ignored while a question is open.  ``None``: input ended."""
        self.prompt(prompt)
        answer = self.source.next(self._status_only)
        if answer is None:
            self._ended()
        self._prompt = ""
        return answer if isinstance(answer, str) else None

    def _ended(self) -> None:
        """Input ended at an open question: what follows starts on a line of its own."""
        if self._prompt:
            self.out.write("\n")
            self.out.flush()

    def yes(self, prompt: str, default: bool) -> bool:
        answer = self.ask(prompt + (" [Y/n] " if default else " [y/N] "))
        if answer is None:
            return False
        answer = answer.strip().casefold()
        return default if not answer else answer in ("y", "yes")

    def _status_only(self, event: InputEvent) -> bool:
        if isinstance(event, ReaderStatus):
            self.status(event)
        return False

    def _tap_or_status(self, event: InputEvent) -> bool:
        if isinstance(event, ReaderStatus):
            self.status(event)
            return False
        return isinstance(event, TagRead)

    def wait_for_tag(self, prompt: str) -> str | None:
        """The UID of the next tag tapped (or typed); ``""`` for an empty line, ``None`` at the
        end of input.  Other typed text is returned as it is, for the caller's commands."""
        self.prompt(prompt)
        while True:
            got = self.source.next(self._tap_or_status)
            if got is None:
                self._ended()
                self._prompt = ""
                return None
            if isinstance(got, TagRead):
                self._prompt = ""
                self.say(f"\nTag {format_uid(got.uid)} read.")
                return got.uid
            if isinstance(got, str):
                text = got.strip()
                try:
                    uid = (
                        normalise_uid(text)
                        if text and text.casefold() not in ("s", "skip")
                        else text
                    )
                except ValueError as error:
                    self.say(f"{error}; tap a card or type a tag UID.")
                    self.prompt(prompt)
                    continue
                self._prompt = ""
                return uid

    # -- choosing a card ---------------------------------------------------------------------

    def choose_card(self) -> Card | None:
        """Type-to-search over the catalog; ``None`` when the person gives up (empty line)."""
        prompt = "Card name (type the start of it; an empty line skips this tag): "
        found: tuple[Card, ...] = ()
        while True:
            text = self.ask(prompt)
            if text is None or not text.strip():
                return None
            typed = text.strip()
            if found and typed.isdigit():
                if 1 <= int(typed) <= len(found):
                    return found[int(typed) - 1]
                prompt = f"Pick a number from 1 to {len(found)}, or type more of the name: "
                continue
            found = self.catalog.search(typed, limit=SHOWN)
            if len(found) == 1 or (found and name_key(found[0].name) == name_key(typed)):
                return found[0]
            if not found:
                prompt = f"No card matches {typed!r}. Card name: "
                continue
            for number, card in enumerate(found, 1):
                self.say(f"  {number} {card.name} ({card.kind.value})")
            prompt = "Pick a number, or type more of the name: "

    def enrol(self, uid: str, card: Card) -> None:
        self.tags.add(uid, card)
        self.enrolled += 1
        self.say(f"Enrolled: {format_uid(uid)} is {card.name}.")

    # -- the two ways of working ---------------------------------------------------------------

    def one_by_one(self) -> None:
        prompt = "Tap a card on the reader, or type its tag UID (an empty line ends): "
        while True:
            uid = self.wait_for_tag(prompt)
            if not uid:
                return
            if uid.casefold() in ("s", "skip"):
                continue
            known = self.tags.lookup(uid)
            if known is not None and not self.yes(
                f"Tag {format_uid(uid)} is already {known.name}. Replace it?", default=False
            ):
                self.say(f"Kept: {format_uid(uid)} is {known.name}.")
                continue
            card = self.choose_card()
            if card is None:
                self.skipped += 1
                self.say("Skipped this tag.")
                continue
            if self.yes(
                f"Enrol tag {format_uid(uid)} as {card.name} ({card.kind.value})?", default=True
            ):
                self.enrol(uid, card)
            else:
                self.skipped += 1
                self.say("Not enrolled.")

    def deck(self, cards: list[Card]) -> None:
        self.say(
            f"Enrolling {len(cards)} cards in order. Tap each card when it is named; "
            "type s to skip one, or an empty line to stop."
        )
        for index, card in enumerate(cards, 1):
            while True:
                uid = self.wait_for_tag(f"[{index}/{len(cards)}] Tap {card.name}: ")
                if uid is None or uid == "":
                    return
                if uid.casefold() in ("s", "skip"):
                    self.skipped += 1
                    break
                known = self.tags.lookup(uid)
                if known is None:
                    self.enrol(uid, card)
                    break
                if known.name == card.name:
                    self.say(f"Tag {format_uid(uid)} is already {card.name}.")
                    break
                if self.yes(
                    f"Tag {format_uid(uid)} is already {known.name}. Replace it with {card.name}?",
                    default=False,
                ):
                    self.enrol(uid, card)
                    break
                self.say(
                    f"Kept: {format_uid(uid)} is {known.name}. Tap another tag for {card.name}."
                )

    def summary(self) -> None:
        self.say(
            f"Done: {self.enrolled} enrolled, {self.skipped} skipped; "
            f"{self.tags.path} has {len(self.tags)} tags."
        )


def run(
    args: argparse.Namespace, config: Config, stdin: TextIO | None = None, out: TextIO | None = None
) -> int:
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    catalog = load_catalog()
    cards = deck_cards(args, catalog)
    tags = TagMap(args.tags or config.tag_map_path(), catalog)
    for problem in tags.problems:
        print(f"aetherbox: warning: {problem}", file=sys.stderr)
    inputs = SignalledQueue()
    spec = "fake" if args.fake else (args.port or "auto")
    reader = open_reader(spec, config, inputs, protocol=args.protocol)
    session = Session(tags, LineSource(stdin, inputs), out)
    session.say(f"Tag map: {tags.path} ({len(tags)} tags).")
    reader.start()
    try:
        if cards is None:
            session.one_by_one()
        else:
            session.deck(cards)
    finally:
        reader.stop()
        inputs.close()
    session.summary()
    return 0
