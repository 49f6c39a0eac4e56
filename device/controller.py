"""The controller: the one place where inputs and commands meet the rules and the journal.

Every way in — the console, the kiosk's keys and touches, the GPIO buttons, the reader — ends in
``Controller.execute`` (or ``undo`` / ``redo``), on the game's one thread:

    command → rules.decide → journal.append (COMMIT) → state = rules.fold → result

The state the screen sees changes only after the journal has committed, so whatever is shown
survives a power cut.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from device import rules
from device.commands import Advance, Command, NewGame
from device.config import Config
from device.errors import IllegalCommand
from device.events import Event, GameStarted
from device.formats import find_format
from device.inputs import Button, ButtonPressed, InputEvent
from device.journal import GameInfo, Journal, Txn
from device.state import GameState
from device.text import Message
from device.text import register as register_texts

register_texts(
    {
        "controller.nothing_to_undo": "Nothing to undo: this is the start of the game.",
        "controller.nothing_to_redo": "Nothing to redo.",
        "controller.undid": "Undone: {what}",
        "controller.redid": "Redone: {what}",
        "controller.no_such_game": "There is no saved game {game}; 'games' lists them.",
        "controller.loaded": "Resumed game {game}: {title}.",
        "controller.roll_needs_planechase": "ROLL rolls the planar die, and this game has no Planechase.",
    }
)


def command_json(command: Command) -> dict[str, Any]:
    return {"type": type(command).__name__, **command.model_dump(mode="json")}


@dataclass(frozen=True)
class Result:
    """What a command did: its messages (for the screen and the console) and the new state."""

    messages: list[Message]
    state: GameState | None
    events: list[Event] = field(default_factory=list)


class Controller:
    def __init__(
        self,
        journal: Journal,
        *,
        rng: random.Random | None = None,
        config: Config | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.journal = journal
        self.rng = rng if rng is not None else random.SystemRandom()
        self.config = config or Config()
        self.clock = clock
        self.game = journal.last_game()
        self.state: GameState | None = journal.state(self.game) if self.game is not None else None

    # --- commands -----------------------------------------------------------------------

    def execute(self, command: Command) -> Result:
        """Decide, keep, then show.  Raises ``IllegalCommand`` and changes nothing if refused."""
        if isinstance(command, NewGame):
            command = self._with_configured_life(command)
        events = rules.decide(self.state, command, self.rng)
        messages = rules.describe_all(self.state if not isinstance(command, NewGame) else None, events)
        after = rules.fold(events, None if isinstance(command, NewGame) else self.state)
        now = self.clock()
        if isinstance(command, NewGame):
            started = events[0]
            assert isinstance(started, GameStarted)
            self.game = self.journal.create_game(started, command_json(command), _title(started), now)
        else:
            assert self.game is not None
            self.journal.append(self.game, events, command_json(command), messages, after, now)
        self.state = after  # only now: the journal has committed
        return Result(messages, after, events)

    def _with_configured_life(self, command: NewGame) -> NewGame:
        if command.starting_life is not None:
            return command
        for name in command.formats:
            fmt = find_format(name)
            if fmt.kind == "base" and fmt.name in self.config.starting_life:
                return command.model_copy(update={"starting_life": self.config.starting_life[fmt.name]})
        if not any(find_format(n).kind == "base" for n in command.formats) and "ffa" in self.config.starting_life:
            return command.model_copy(update={"starting_life": self.config.starting_life["ffa"]})
        return command

    def undo(self) -> Result:
        """LF-4: take back the last change, whatever it was; it can be redone."""
        if self.game is None:
            raise IllegalCommand("rules.no_game")
        txn = self.journal.undo(self.game)
        if txn is None:
            raise IllegalCommand("controller.nothing_to_undo")
        self.state = self.journal.state(self.game)
        return Result([Message("controller.undid", what=_summary(txn))], self.state)

    def redo(self) -> Result:
        if self.game is None:
            raise IllegalCommand("rules.no_game")
        txn = self.journal.redo(self.game)
        if txn is None:
            raise IllegalCommand("controller.nothing_to_redo")
        self.state = self.journal.state(self.game)
        return Result([Message("controller.redid", what=_summary(txn))], self.state)

    # --- saved games --------------------------------------------------------------------

    def games(self) -> list[GameInfo]:
        return self.journal.games()

    def load(self, game: int) -> Result:
        try:
            info = self.journal.game(game)
        except KeyError:
            raise IllegalCommand("controller.no_such_game", game=game) from None
        self.state = self.journal.state(game)
        self.game = game
        self.journal.set_last_game(game)
        return Result([Message("controller.loaded", game=game, title=info.title)], self.state)

    def history(self) -> list[Txn]:
        return [] if self.game is None else self.journal.history(self.game)

    # --- hardware inputs ----------------------------------------------------------------

    def handle(self, event: InputEvent) -> Result | None:
        """What a button means in the game; None for inputs that only the screen uses."""
        if isinstance(event, ButtonPressed):
            if event.button is Button.NEXT and not event.long and event.repeat == 0:
                return self.execute(Advance())
            if event.button is Button.UNDO and event.repeat == 0:
                return self.undo()
            if event.button is Button.ROLL and event.repeat == 0:
                raise IllegalCommand("controller.roll_needs_planechase")
        return None


def _title(started: GameStarted) -> str:
    formats = " + ".join(find_format(name).title for name in started.formats)
    return f"{formats}: {', '.join(p.name for p in started.players)}"


def _summary(txn: Txn) -> str:
    return " ".join(str(message) for message in txn.messages())
