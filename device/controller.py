"""The controller: the one place where inputs and commands meet the rules and the journal.

Every way in — the console, the kiosk's keys and touches, the GPIO buttons, the reader — ends in
``Controller.execute`` (or ``undo`` / ``redo``), on the game's one thread:

    command → rules.decide → journal.append (COMMIT) → state = rules.fold → result

The state the screen sees changes only after the journal has committed, so whatever is shown
survives a power cut.  A break at the table (the clock paused, then resumed) is decided by the
rules like any command but kept beside the game's history (``Journal.begin_break``), not as a
change in it: UNDO takes back the last change of the game, never a pause
(docs/decisions/0024-breaks-outside-the-history.md).

Damage to the journal found after start-up — by the check of the whole journal that runs on its
own thread (``device.recovery``), or by a read while the game goes on — is recovered from here,
exactly as start-up would have: ``idle`` returns the ``Recovery``, and the next command is not
carried out but answered with what happened and the restored game, so nothing is decided on a
screen that no longer holds.  While that check runs, a command goes first: the check waits until
it is kept (``device.journal.Gate``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

from msgspec import Struct, field

from device.game import GAME
from device.catalog import Card, card_kind
from device.commands import Advance, Command, NewGame, Timed
from device.config import Config
from device.errors import IllegalCommand, JournalCorrupt, JournalError
from device.events import Event, GameStarted
from device.games import SavedGame, saved_game, saved_games, title
from device.inputs import Button, ButtonPressed, InputEvent, TagRead
from device.journal import GameInfo, Journal, Txn
from device.recovery import Recovery, confirm, recover_late, repair
from device.rules.clock import BreakBegan, BreakEnded, GameClockStarted, is_break
from device.state import GameState
from device.state_clock import GameTime
from device.tagmap import TagMap, format_uid
from device.text import Message, Text, sentences
from device.rules.registry import Ruleset

TEXTS: dict[str, Text] = {
    "controller.nothing_to_undo": "Nothing to undo: this is the start of the game.",
    "controller.nothing_to_redo": "Nothing to redo.",
    "controller.undid": "Undone: {what}",
    "controller.redid": "Redone: {what}",
    "controller.no_such_game": "There is no saved game {game}; 'games' lists them.",
    "controller.loaded": "Resumed game {game}: {title}.",
    "controller.roll_needs_planechase": "ROLL rolls the planar die, and this game has no Planechase; hold ROLL "
    "for dice and a coin.",
    "controller.card_not_expected": "{name} ({kind}) has no part in this game right now.",
    "controller.unknown_tag": "Unknown card (tag {uid}): enrol it to use it.",
    "controller.no_tag_map": "Tag {uid} was read, but no tag map is set up: enrol your cards first.",
}


T = TypeVar("T")


def command_json(command: Command) -> dict[str, Any]:
    return {"type": type(command).__name__, **command.model_dump(mode="json")}


class Result(Struct, frozen=True):
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
        clock: Callable[[], float] | None = None,
        tags: TagMap | None = None,
        rules: Ruleset = GAME,
    ) -> None:
        #: The rules this table plays; its journal reads and folds its games with them.
        self.rules = rules
        journal.rules = rules
        self.journal = journal
        self.tags = tags
        self.rng = rng if rng is not None else random.SystemRandom()
        self.config = config or Config()
        # The game's time (device.state_clock.GameTime) unless a test gives a clock of its own.
        self.clock: Callable[[], float] = clock if clock is not None else GameTime()
        self.game = journal.last_game()
        self.state: GameState | None = journal.state(self.game) if self.game is not None else None
        self._unsaid: list[
            Message
        ] = []  # what a recovery after start-up did, until a result says it
        self._unannounced: Recovery | None = (
            None  # that recovery, until idle() hands it to the screen
        )
        self._resume_time()

    # --- commands -----------------------------------------------------------------------

    def execute(self, command: Command) -> Result:
        """Decide, keep, then show.  Raises ``IllegalCommand`` and changes nothing if refused."""
        return self._changing(lambda: self._execute(command))

    def _execute(self, command: Command) -> Result:
        now = self._stamp(command)
        if isinstance(command, Timed) and command.now is None:
            command = command.model_copy(update={"now": now})  # the time its events will carry
        if isinstance(command, NewGame):
            command = self._with_configured_life(command)
        done = self.rules.carry_out(self.state, command, self.rng)
        events, messages, after = done.events, done.messages, done.state
        if isinstance(command, NewGame):
            started = events[0]
            assert isinstance(started, GameStarted)
            self.game = self.journal.create_game(
                events, command_json(command), messages, _title(started, self.rules), now
            )
            self._started_at(now)
        elif is_break(events):
            assert self.game is not None
            if not self._keep_break(self.game, events):
                after = self.journal.state(self.game)  # the journal's breaks are the truth
        else:
            assert self.game is not None
            if any(isinstance(event, GameClockStarted) for event in events):
                after = self._clock_started(self.game, after, now)
            self.journal.append(self.game, events, command_json(command), messages, after, now)
        self.state = after  # only now: the journal has committed
        return Result(messages, after, events)

    # --- the game's time (docs/decisions/0027-durations-on-the-monotonic-clock.md) ---------------

    def _stamp(self, command: Command) -> float:
        """The time ``command`` is given: the game's, but a new game starts on the wall clock."""
        if isinstance(command, NewGame) and isinstance(self.clock, GameTime):
            return self.clock.wall()
        return self.clock()

    def _started_at(self, now: float) -> None:
        """A new game was made at ``now`` (the wall clock's): its time goes on from there."""
        if isinstance(self.clock, GameTime):
            self.clock.set(now)

    def _resume_time(self) -> None:
        """The game shown was resumed (at start-up, or loaded): its time goes on from the last
        time its journal knows — its last change, the clock's last start, a break — whatever the
        wall clock says now.  The time it was not played (the gadget off, another game shown) is
        not played, and a wall clock set forward or back meanwhile changes nothing."""
        if not isinstance(self.clock, GameTime) or self.game is None:
            return
        try:
            last = self.journal.last_change(self.game)
        except JournalError:
            last = None  # damage is met, and said, where the screen reads the change; the clock's times serve
        times = [] if last is None else [last.at]
        if (
            self.state is not None
            and self.state.clock is not None
            and self.state.clock.latest is not None
        ):
            times.append(self.state.clock.latest)
        if times:
            self.clock.set(max(times))

    def _keep_break(self, game: int, events: list[Event]) -> bool:
        """Keep a break's events beside the history; whether the journal took each as the state
        had it (a break to end that the journal no longer reads, its row damaged, is not)."""
        kept = True
        for event in events:
            if isinstance(event, BreakBegan):
                self.journal.begin_break(game, event.at)
            elif isinstance(event, BreakEnded):
                kept = self.journal.end_break(game, event.at) and kept
        return kept

    def _clock_started(self, game: int, after: GameState, now: float) -> GameState:
        """A clock started in a game saved without one: a break left going on when an earlier
        start was undone ends as this one starts (the new clock runs), and the state after
        carries the game's breaks, as the journal will read it."""
        self.journal.end_break(game, now)
        if after.clock is None:
            return after
        return after.model_copy(
            update={"clock": after.clock.with_breaks(self.journal.breaks(game))}
        )

    def preview(self, command: Command) -> Result:
        """What ``command`` would do now — its events, what they would say and the state after
        them — without doing it: nothing is kept and the game is unchanged.  Raises
        ``IllegalCommand`` exactly as ``execute`` would.  A screen asks this of a change it
        shows before making it (the table's pending life change), so a change the rules would
        refuse is refused at the press that asked for it, not seconds later.

        Randomness comes from a throwaway generator: a previewed roll is not the roll ``execute``
        would make, and the game's own generator is not advanced."""
        with self._first():
            done = self.rules.carry_out(self.state, command, random.Random(0))
        return Result(done.messages, done.state, done.events)

    def _with_configured_life(self, command: NewGame) -> NewGame:
        if command.starting_life is not None:
            return command
        for name in command.formats:
            fmt = self.rules.formats.find(name)
            if fmt.kind == "base" and fmt.name in self.config.starting_life:
                return command.model_copy(
                    update={"starting_life": self.config.starting_life[fmt.name]}
                )
        if (
            not any(self.rules.formats.find(n).kind == "base" for n in command.formats)
            and "ffa" in self.config.starting_life
        ):
            return command.model_copy(update={"starting_life": self.config.starting_life["ffa"]})
        return command

    def idle(self, wait: bool = False) -> Recovery | None:
        """Nothing is waiting: act on the journal's check if its verdict is in (with ``wait``,
        wait for it), then do what the journal put off (a backup), off the input path.  Returns
        the recovery made since the last call — by the check's verdict, or by a read for the
        screen that met damage — for the screen to say at once; the next result says it too."""
        self._act_on_check(wait)
        self.journal.backup_if_due()
        found, self._unannounced = self._unannounced, None
        return found

    def _act_on_check(self, wait: bool = False) -> None:
        check = self.journal.check
        if check is None or not (check.wait() if wait else check.finished()):
            return
        self.journal.check = None
        if isinstance(check.error, JournalCorrupt):
            damage = confirm(self.journal, check.error)
            if damage is not None:
                self._recover(damage)
        elif check.error is not None:
            raise check.error  # locked, unreadable, failing storage: as start-up would have said it
        elif check.game is not None and check.damaged_texts:
            repair(self.journal, check.game, check.damaged_texts)

    def _recover(self, error: JournalCorrupt) -> None:
        self.journal, recovery = recover_late(self.journal, error, self.clock)
        self.game = self.journal.last_game()
        self.state = self.journal.state(self.game) if self.game is not None else None
        self._unsaid.append(recovery.message())
        self._unannounced = recovery

    def _changing(self, work: Callable[[], Result]) -> Result:
        """``work`` (a command, undo, redo, loading a game) on a journal not known to be damaged;
        after a recovery, only what the recovery did, and the restored game."""
        self._act_on_check()
        if not self._unsaid:
            try:
                with self._first():
                    return work()
            except JournalCorrupt as error:
                self._recover_or_raise(error)
        said, self._unsaid = self._unsaid, []
        return Result(said, self.state)

    def _first(self) -> AbstractContextManager[None]:
        """A press goes first: the check of the whole journal still running after start-up waits
        while it is carried out (``device.journal.Gate``)."""
        check = self.journal.check
        return check.gate.closed() if check is not None else nullcontext()

    def _reading(self, work: Callable[[], T]) -> T:
        """A read for the screen; damage it meets is recovered from, then it reads the restored
        journal (the next result says what happened)."""
        self._act_on_check()
        try:
            return work()
        except JournalCorrupt as error:
            self._recover_or_raise(error)
            return work()

    def _recover_or_raise(self, error: JournalCorrupt) -> None:
        """Damage met while playing: recovered from, unless the journal is the user's own file
        (``--db``), which is only reported."""
        if not self.journal.recoverable:
            raise error
        self._recover(error)

    def undo(self) -> Result:
        """LF-4: take back the last change, whatever it was; it can be redone."""
        return self._changing(self._undo)

    def _undo(self) -> Result:
        if self.game is None:
            raise IllegalCommand("rules.no_game")
        txn = self.journal.undo(self.game, self.clock())
        if txn is None:
            raise IllegalCommand("controller.nothing_to_undo")
        self.state = self.journal.state(self.game)
        return Result([Message("controller.undid", what=_summary(txn))], self.state)

    def redo(self) -> Result:
        return self._changing(self._redo)

    def _redo(self) -> Result:
        if self.game is None:
            raise IllegalCommand("rules.no_game")
        txn = self.journal.redo(self.game, self.clock())
        if txn is None:
            raise IllegalCommand("controller.nothing_to_redo")
        self.state = self.journal.state(self.game)
        return Result([Message("controller.redid", what=_summary(txn))], self.state)

    # --- saved games --------------------------------------------------------------------

    def games(self) -> list[GameInfo]:
        return self._reading(lambda: self.journal.games())

    def saved_games(self) -> list[SavedGame]:
        """Every saved game as it is listed (the console's ``games``, the kiosk's saved games),
        the one played last first."""
        return self._reading(lambda: saved_games(self.journal))

    def saved_game(self, game: int) -> SavedGame:
        """Saved game ``game`` as it is listed; refused when there is no such game."""
        return self._reading(lambda: saved_game(self.journal, self._info(game)))

    def _info(self, game: int) -> GameInfo:
        try:
            return self.journal.game(game)
        except KeyError:
            raise IllegalCommand("controller.no_such_game", game=game) from None

    def load(self, game: int) -> Result:
        return self._changing(lambda: self._load(game))

    def _load(self, game: int) -> Result:
        self._info(game)
        shown = self.game
        self.state = self.journal.state(game)
        self.game = game
        self.journal.set_last_game(game)
        if game != shown:
            self._resume_time()
        return Result(
            [Message("controller.loaded", game=game, title=title(self.state))], self.state
        )

    def delete(self, game: int) -> Result:
        """Delete saved game ``game`` for good (undo does not bring it back).  Deleting the game
        being played leaves no game running.  Refused when there is no such game."""
        # The check of the whole journal after start-up reads the resumed game on a thread of its
        # own: its verdict first, so a game is never deleted from under it or from a damaged file.
        self._act_on_check(wait=True)
        return self._changing(lambda: self._delete(game))

    def _delete(self, game: int) -> Result:
        listed = saved_game(self.journal, self._info(game))
        self.journal.delete_game(game, self.clock())
        if game != self.game:
            return Result([Message("games.deleted", game=game, title=listed.title)], self.state)
        self.game, self.state = None, None
        return Result([Message("games.deleted_shown", game=game, title=listed.title)], None)

    def history(self) -> list[Txn]:
        return self._reading(lambda: [] if self.game is None else self.journal.history(self.game))

    def last_change(self) -> Txn | None:
        """What UNDO would take back now (one row, however long the game)."""
        return self._reading(
            lambda: None if self.game is None else self.journal.last_change(self.game)
        )

    # --- hardware inputs ----------------------------------------------------------------

    def handle(self, event: InputEvent) -> Result | None:
        """What a hardware input means in the game; None for inputs only the screen uses, and for
        a held button's auto-repeats (ROLL, NEXT and UNDO act once per press).

        Raises ``IllegalCommand`` when the input means a command the rules refuse.
        """
        if isinstance(event, ButtonPressed):
            return None if event.repeat else self.press(event)
        if isinstance(event, TagRead):
            return self.tag(event.uid)
        return None

    def press(self, press: ButtonPressed) -> Result | None:
        """What a press means: the format's binding, else the table's (NEXT, UNDO).  Every press
        given here acts; a held button's auto-repeats are dropped where the drivers' events come
        in (``handle``, and the kiosk's own entry, before its screens)."""
        if self.state is not None:
            command = self.rules.bindings.button_command(self.state, press)
            if command is not None:
                return self.execute(command)
        if press.button is Button.NEXT and not press.long:
            return self.execute(Advance())
        if press.button is Button.UNDO:
            return self.undo()
        if press.button is Button.ROLL:
            raise IllegalCommand("controller.roll_needs_planechase")
        return None

    def tag(self, uid: str) -> Result:
        """A tag was tapped on the reader: the card it is, or an "unknown card" message."""
        if self.tags is None:
            return Result([Message("controller.no_tag_map", uid=format_uid(uid))], self.state)
        card = self.card_of(uid)
        if card is None:
            return Result([Message("controller.unknown_tag", uid=format_uid(uid))], self.state)
        return self.identify(card)

    def card_of(self, uid: str) -> Card | None:
        """The card tag ``uid`` is enrolled as: None for a tag not in the tag map, or no map."""
        return None if self.tags is None else self.tags.lookup(uid)

    def identify(self, card: Card) -> Result:
        """A physical card was tapped or named (PC-12, CT-6): do what it means now."""
        if self.state is None:
            raise IllegalCommand("rules.no_game")
        command = self.rules.bindings.card_command(self.state, card)
        if command is None:
            raise IllegalCommand(
                "controller.card_not_expected", name=card.name, kind=card_kind(card.kind)
            )
        return self.execute(command)


def _title(started: GameStarted, rules: Ruleset) -> str:
    formats = " + ".join(rules.formats.find(name).title for name in started.formats)
    return f"{formats}: {', '.join(p.name for p in started.players)}"


def _summary(txn: Txn) -> str | Message:
    """What a change had said, as messages, so each screen says it again in its own language."""
    return sentences(txn.messages())
