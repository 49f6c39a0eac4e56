"""The saved games as the table sees them: what the console's ``games`` lists and the kiosk's
saved-games screen shows, worded once here for both.

A saved game is named by its number, its formats and its players ("Commander: Alice, Bob,
Carol"), how far it got (the turn, or the round where its format counts rounds; the result once
it is over) and when it was last played.  Everything but the time is a message, so each
screen says it in its own language; the time is written the same way in every language.

A game whose events are damaged (``GameDamaged``) is still listed, under the title the journal
keeps for it and marked as damaged, so that it can be deleted: the list never fails for one bad
game.  Damage to the file itself is the journal's to report, as for any read.
"""

from __future__ import annotations

import time

from msgspec import Struct

from device.errors import GameDamaged, JournalTooNew
from device.formats import titles
from device.journal import GameInfo, Reader
from device.game import describe_outcome
from device.state import GameState
from device.text import Message, Text, listing
from device.rules.registry import find_format, round_of

TEXTS: dict[str, Text] = {
    "games.title": "{formats}: {players}",
    "games.turn": "turn {turn}",
    "games.round": "round {round}",
    "games.over": "over: {result}",
    "games.damaged": "damaged, cannot be played",
    # the console's line: * marks the game shown
    "games.line": "{mark} {id}  {when}  {title}  ({progress})",
    "games.deleted": "Deleted game {game}: {title}.",
    "games.deleted_shown": "Deleted game {game}: {title}. No game is running now.",
}

#: How the time a game was last played is written, in every language: numbers only.
WHEN = "%Y-%m-%d %H:%M"


class SavedGame(Struct, frozen=True):
    """One saved game as it is listed: its number, when it was last played (epoch seconds), its
    title and how far it got, as messages; ``damaged`` when its events cannot be read."""

    id: int
    updated: float
    title: str | Message
    progress: Message
    damaged: bool = False

    def when(self) -> str:
        """When the game was last played, in local time."""
        return time.strftime(WHEN, time.localtime(self.updated))

    def line(self, shown: bool) -> Message:
        """The console's line for the game; ``shown``: the game being played now (``*``)."""
        return Message(
            "games.line",
            mark="*" if shown else " ",
            id=f"{self.id:3d}",
            when=self.when(),
            title=self.title,
            progress=self.progress,
        )


def title(state: GameState) -> Message:
    """A game's formats and players: "Commander + Planechase: Alice, Bob, Carol"."""
    return Message(
        "games.title",
        formats=titles(find_format(name) for name in state.formats),
        players=listing([player.name for player in state.players], "text.list"),
    )


def progress(state: GameState) -> Message:
    """How far a game got: its turn, or its round where its format counts rounds (it says so in
    its rules: ``round_of``), or its result once it is over."""
    result = describe_outcome(state)
    if result is not None:
        return Message("games.over", result=result)
    played = round_of(state)
    if played is not None:
        return Message("games.round", round=played)
    return Message("games.turn", turn=state.turn)


def saved_game(reader: Reader, info: GameInfo) -> SavedGame:
    """``info``'s game as it is listed, read from its newest snapshot and the events after it."""
    try:
        state = reader.state(info.id)
    except (GameDamaged, JournalTooNew):
        # Listed under the title the journal keeps (in the language it was started in), so the
        # table can tell which game it is and delete it.
        return SavedGame(info.id, info.updated, info.title, Message("games.damaged"), damaged=True)
    return SavedGame(info.id, info.updated, title(state), progress(state))


def saved_games(reader: Reader) -> list[SavedGame]:
    """Every saved game, the one played last first."""
    return [saved_game(reader, info) for info in reader.games()]
