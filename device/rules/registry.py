"""What one part of the rules plugs into a game, as one value, and a game's rules built from them.

Each rules module declares ``RULES = Rules("planechase", …)`` and decorates its functions with
that value's methods (``@RULES.decides(RollPlanarDie)``), so everything the module adds — formats
and table options, deciders, appliers, describers, state checks, set-up, what buttons and cards
mean, how its games end, what it forbids the core, the English of what it says — is found in one
place.  Importing a module fills nothing but its own value: ``Ruleset(parts)`` builds a game's
rules from the parts handed to it (``device.game.PARTS`` lists every part), as a value of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from random import Random
from typing import Annotated, Any, TypeVar, Union

from pydantic import Field, TypeAdapter

from device.bindings import Bindings, ButtonBinding, CardBinding
from device.catalog import Catalog
from device.commands import Command, NewGame
from device.errors import IllegalCommand
from device.events import Event, GameStarted
from device.formats import Format, Formats, Setup, TableOption
from device.inputs import Button
from device.state import GameState, Outcome, last_standing
from device.text import Message, Text

TEXTS: dict[str, Text] = {
    "rules.no_game": "No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
    "rules.game_over": "The game is over: {result}. Undo to change that, or start a new game with 'new'.",
    "rules.unknown_command": "The gadget does not know how to do {command!r}.",
    "rules.event": "{type}",
}

C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)

Decider = Callable[[GameState, Any, Random], list[Event]]
Applier = Callable[[GameState, Any], GameState]
Describer = Callable[[GameState, Any], Message]
#: A state check looks at the state after a command's events (and those events) and returns
#: further events the rules make happen at once, like a player at 0 life losing, a CRANK!
#: counter moving when a turn begins, or a new planar controller when one leaves.  Any random
#: outcome it needs comes from ``rng`` and goes into its events.
StateCheck = Callable[[GameState, list[Event], Random], list[Event]]
#: A set-up step runs once when a game starts, after ``game_started``: a module deals its
#: decks, shuffles, places its counters (with ``rng``), as events.
SetUp = Callable[[GameState, Any, Random], list[Event]]
#: Rules that forbid some damage, e.g. a minion's to their master (NC-7).  A check gets the
#: state, the damaged player's seat and the source, and raises ``IllegalCommand`` to refuse.
DamageCheck = Callable[[GameState, int, int | None], None]
#: Rules that keep the turn from passing while something mandatory waits (a Contraptions
#: assembly with two or three faction dice, CT-A3).  A check gets the state and raises
#: ``IllegalCommand`` with what the table must do first.
PassCheck = Callable[[GameState], None]
#: How a base or table format's games end when not by "last player standing" (Necromancer: the
#: last player who never died, NC-6; a Conspiracy pod: both rounds played, CJ-3).
OutcomeRule = Callable[[GameState], Outcome | None]
#: The round a game of a format that counts rounds has reached (a Wizard's Duel, a Conspiracy
#: pod), or None where the game is not one of its or counts turns: what a saved game shows.
RoundOf = Callable[[GameState], int | None]


@dataclass(frozen=True)
class Group:
    """One of several games played at one table at the same time (a Conspiracy pod's group
    games): what the rules kept per game (the monarch, day or night) need to know of it."""

    #: The game's name in the events and the state ("1", "winners").
    label: str
    #: Its name as the players read it.
    title: Message
    #: Its seats in turn order.
    order: tuple[int, ...]
    #: Whose turn it is in it, when the table says so.
    active: int | None
    #: The seats that have left its game.
    gone: frozenset[int]


#: The games a format plays at one table at once, or None where the table plays one game.
Grouping = Callable[[GameState], tuple[Group, ...] | None]
#: Whether a seat still in the game is apart from it for now, holding nothing of it (a
#: Necromancer minion phased out for their solo turns, NC-3).
Apart = Callable[[GameState, int], bool]
#: The seat an event brings back into the game anew, without what they held (a Necromancer
#: player coming back as a minion, NC-1), or None.
Comeback = Callable[[Event], int | None]
#: Whether an event begins new games at the table, nothing held in the old ones carried over
#: (a Conspiracy pod's second round, CJ-3).
NewGames = Callable[[Event], bool]


@dataclass(frozen=True)
class Expected:
    """The cards a format's game can mean by a physical card, and whether the table waits for
    one of them now (a contraption to assemble, a planar card to turn over)."""

    cards: Catalog
    waiting: bool


#: The cards a game of a format can mean by a tap or a ``card`` line, or None where the game is
#: not one of its.
CardsExpected = Callable[[GameState], Expected | None]


@dataclass(frozen=True)
class Beginning:
    """How a game begins and how its end is worded: the table's, which every game has."""

    #: The event that starts a game of ``NewGame`` (names, seats, formats, who begins).
    start: Callable[[NewGame, Random], GameStarted]
    #: The first state, from that event.
    open: Callable[[GameStarted], GameState]
    describe: Callable[[GameStarted], Message]
    #: The result as the players read it, or None while the game goes on.
    describe_outcome: Callable[[GameState], Message | None]


@dataclass
class Rules:
    """Everything one rules module adds to the game."""

    name: str
    formats: list[Format] = field(default_factory=list)
    options: list[TableOption] = field(default_factory=list)
    deciders: dict[type[Command], Decider] = field(default_factory=dict)
    appliers: dict[type[Event], Applier] = field(default_factory=dict)
    describers: dict[type[Event], Describer] = field(default_factory=dict)
    state_checks: list[StateCheck] = field(default_factory=list)
    set_ups: list[SetUp] = field(default_factory=list)
    damage_checks: list[DamageCheck] = field(default_factory=list)
    pass_checks: list[PassCheck] = field(default_factory=list)
    outcomes: dict[str, OutcomeRule] = field(default_factory=dict)
    buttons: list[tuple[Button, ButtonBinding]] = field(default_factory=list)
    cards: list[CardBinding] = field(default_factory=list)
    texts: list[Mapping[str, Text]] = field(default_factory=list)
    rounds: list[RoundOf] = field(default_factory=list)
    groupings: list[Grouping] = field(default_factory=list)
    apart_checks: list[Apart] = field(default_factory=list)
    comebacks: list[Comeback] = field(default_factory=list)
    new_games: list[NewGames] = field(default_factory=list)
    card_wants: list[CardsExpected] = field(default_factory=list)
    beginning: Beginning | None = None

    def include(self, other: Rules) -> None:
        """Take in what ``other`` declares: a part of a format kept in a module of its own (the
        Eternities Map's moves are Planechase's)."""
        _merge(self.deciders, other.deciders, "decider", other.name)
        _merge(self.appliers, other.appliers, "applier", other.name)
        self.describers.update(other.describers)
        self.outcomes.update(other.outcomes)
        for declared in fields(self):  # every list of declarations: taken in, in order
            mine = getattr(self, declared.name)
            if isinstance(mine, list):
                mine += getattr(other, declared.name)
        if other.beginning is not None:
            if self.beginning is not None:
                raise TypeError(f"{other.name} begins a game, and another part does already")
            self.beginning = other.beginning

    # --- declarations -----------------------------------------------------------------------

    def format(self, fmt: Format) -> Format:
        self.formats.append(fmt)
        return fmt

    def option(self, option: TableOption) -> TableOption:
        self.options.append(option)
        return option

    def begins(self, beginning: Beginning) -> Beginning:
        self.beginning = beginning
        return beginning

    def says(self, *texts: Mapping[str, Text]) -> None:
        """The English of the keys this part's messages use (each module's ``TEXTS``; read when
        a game's rules are built, so a module may add to its mapping below this line)."""
        self.texts += texts

    def outcome(self, fmt: str, rule: OutcomeRule) -> OutcomeRule:
        self.outcomes[fmt] = rule
        return rule

    # --- decorators -------------------------------------------------------------------------

    def decides(
        self, command: type[C]
    ) -> Callable[
        [Callable[[GameState, C, Random], list[Event]]],
        Callable[[GameState, C, Random], list[Event]],
    ]:
        def add(
            fn: Callable[[GameState, C, Random], list[Event]],
        ) -> Callable[[GameState, C, Random], list[Event]]:
            if command in self.deciders:
                raise TypeError(f"{command.__name__} already has a decider in {self.name}")
            self.deciders[command] = fn
            return fn

        return add

    def applies(
        self, event: type[E]
    ) -> Callable[[Callable[[GameState, E], GameState]], Callable[[GameState, E], GameState]]:
        def add(fn: Callable[[GameState, E], GameState]) -> Callable[[GameState, E], GameState]:
            if event in self.appliers:
                raise TypeError(f"{event.__name__} already has an applier in {self.name}")
            self.appliers[event] = fn
            return fn

        return add

    def describes(
        self, event: type[E]
    ) -> Callable[[Callable[[GameState, E], Message]], Callable[[GameState, E], Message]]:
        def add(fn: Callable[[GameState, E], Message]) -> Callable[[GameState, E], Message]:
            self.describers[event] = fn
            return fn

        return add

    def state_check(self, fn: StateCheck) -> StateCheck:
        self.state_checks.append(fn)
        return fn

    def set_up(self, fn: SetUp) -> SetUp:
        """A start-of-game step; it is called with the ``NewGame`` command."""
        self.set_ups.append(fn)
        return fn

    def damage_check(self, fn: DamageCheck) -> DamageCheck:
        self.damage_checks.append(fn)
        return fn

    def pass_check(self, fn: PassCheck) -> PassCheck:
        self.pass_checks.append(fn)
        return fn

    def on_button(self, button: Button) -> Callable[[ButtonBinding], ButtonBinding]:
        def add(fn: ButtonBinding) -> ButtonBinding:
            self.buttons.append((button, fn))
            return fn

        return add

    def on_card(self, fn: CardBinding) -> CardBinding:
        self.cards.append(fn)
        return fn

    def round_of(self, fn: RoundOf) -> RoundOf:
        self.rounds.append(fn)
        return fn

    def groups(self, fn: Grouping) -> Grouping:
        self.groupings.append(fn)
        return fn

    def apart(self, fn: Apart) -> Apart:
        self.apart_checks.append(fn)
        return fn

    def comes_back(self, fn: Comeback) -> Comeback:
        self.comebacks.append(fn)
        return fn

    def starts_anew(self, fn: NewGames) -> NewGames:
        self.new_games.append(fn)
        return fn

    def expects_cards(self, fn: CardsExpected) -> CardsExpected:
        self.card_wants.append(fn)
        return fn


@dataclass
class Decision:
    """What a command does: its events, what each said (when asked) and the state after them."""

    events: list[Event]
    messages: list[Message]
    state: GameState


# --- a game's rules: one value built from the parts --------------------------------------------

#: The rules in play on this thread (or task): set while a ``Ruleset`` decides, applies or
#: describes, and by the program that plays one (``Ruleset.playing``), so a part's helper that
#: needs the whole game — folding the events it just made, a format's declaration, how a game
#: ends — asks the rules that called it, not a table filled when something was imported.
IN_PLAY: ContextVar[Ruleset] = ContextVar("rules_in_play")


def in_play() -> Ruleset:
    """The rules being played here; outside of them it is a programming error, said plainly."""
    try:
        return IN_PLAY.get()
    except LookupError:
        raise RuntimeError(
            "no rules are in play: build them (Ruleset(PARTS)) and call through them, "
            "or run this inside `with rules.playing():`"
        ) from None


class Ruleset:
    """A game's rules, built from ``parts`` in their order (the order set-ups, state checks and
    bindings run in).  Nothing outside the value changes: building one twice gives an equal
    value, and a game of a subset of the parts knows only their formats, commands and events.
    Two parts deciding one command or applying one event, or listed twice, are refused."""

    def __init__(self, parts: Sequence[Rules]) -> None:
        names = [part.name for part in parts]
        if len(set(names)) != len(names):
            raise TypeError(f"a rules part is listed twice: {names}")
        game = Rules("game")
        for part in parts:
            game.include(part)
        self.parts: tuple[Rules, ...] = tuple(parts)
        self.deciders: Mapping[type[Command], Decider] = dict(game.deciders)
        self.appliers: Mapping[type[Event], Applier] = dict(game.appliers)
        self.describers: Mapping[type[Event], Describer] = dict(game.describers)
        self.state_checks: tuple[StateCheck, ...] = tuple(game.state_checks)
        self.set_ups: tuple[SetUp, ...] = tuple(game.set_ups)
        self.damage_checks: tuple[DamageCheck, ...] = tuple(game.damage_checks)
        self.pass_checks: tuple[PassCheck, ...] = tuple(game.pass_checks)
        #: Every event a journal may hold, by its ``type`` name: ``game_started`` and each
        #: event a part applies.
        self.event_types: Mapping[str, type[Event]] = _named((GameStarted, *game.appliers))
        self.formats = Formats(game.formats, game.options)
        self.bindings = Bindings(game.buttons, game.cards)
        self.outcomes: Mapping[str, OutcomeRule] = dict(game.outcomes)
        self.rounds: tuple[RoundOf, ...] = tuple(game.rounds)
        self.groupings: tuple[Grouping, ...] = tuple(game.groupings)
        self.apart_checks: tuple[Apart, ...] = tuple(game.apart_checks)
        self.comebacks: tuple[Comeback, ...] = tuple(game.comebacks)
        self.new_games: tuple[NewGames, ...] = tuple(game.new_games)
        self.card_wants: tuple[CardsExpected, ...] = tuple(game.card_wants)
        #: The English of every key the parts say, with each format's title as its
        #: declaration words it (the set-up screen, the console's "games").
        self.texts: Mapping[str, Text] = _merged(
            [TEXTS, *game.texts, {f"format.title.{f.name}": f.title for f in self.formats.all()}]
        )
        if game.beginning is None:
            raise TypeError(f"no part of {names} says how a game begins (the table's rules)")
        self.beginning: Beginning = game.beginning
        self._adapter: TypeAdapter[Event] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and self.parts == other.parts

    def __hash__(self) -> int:
        return hash(tuple(part.name for part in self.parts))

    def __repr__(self) -> str:
        return f"Ruleset({', '.join(part.name for part in self.parts)})"

    @contextmanager
    def playing(self) -> Iterator[Ruleset]:
        """These rules are the ones in play inside the block (see ``IN_PLAY``)."""
        token = IN_PLAY.set(self)
        try:
            yield self
        finally:
            IN_PLAY.reset(token)

    # --- deciding and folding ---------------------------------------------------------------

    def decide(self, state: GameState | None, command: Command, rng: Random) -> list[Event]:
        """The events ``command`` causes in ``state`` (the state checks' after them); raises
        ``IllegalCommand`` if it may not."""
        return self._carry_out(state, command, rng, describe=False).events

    def carry_out(self, state: GameState | None, command: Command, rng: Random) -> Decision:
        """``decide`` and ``play`` in one pass: the events, what each did and the state after
        them, each event folded once."""
        return self._carry_out(state, command, rng, describe=True)

    def _carry_out(
        self, state: GameState | None, command: Command, rng: Random, describe: bool
    ) -> Decision:
        with self.playing():
            if isinstance(command, NewGame):
                return self._new_game(command, rng, describe)
            if state is None:
                raise IllegalCommand("rules.no_game")
            if self.outcome(state) is not None:
                raise IllegalCommand("rules.game_over", result=self.describe_outcome(state))
            decider = self.deciders.get(type(command))
            if decider is None:
                raise IllegalCommand("rules.unknown_command", command=type(command).__name__)
            return self._settled(state, list(decider(state, command, rng)), rng, describe)

    def _new_game(self, command: NewGame, rng: Random, describe: bool) -> Decision:
        started = self.beginning.start(command, rng)
        fresh = self.beginning.open(started)
        setup: list[Event] = []
        for step in self.set_ups:
            setup += step(self.apply_events(fresh, setup), command, rng)
        done = self._settled(fresh, setup, rng, describe) if setup else Decision([], [], fresh)
        said = [self.beginning.describe(started)] if describe else []
        return Decision([started, *done.events], said + done.messages, done.state)

    def _settled(
        self, state: GameState, events: list[Event], rng: Random, describe: bool
    ) -> Decision:
        """``events`` and those the state checks add after them, until they add nothing (a
        player at 0 life loses, …), each folded once."""
        done = Decision([], [], state)
        batch = events
        for checked in range(_CHECK_ROUNDS + 1):
            for event in batch:
                if describe:
                    done.messages.append(self.describe(done.state, event))
                done.state = self._applied(done.state, event)
            done.events += batch
            if checked == _CHECK_ROUNDS:
                break
            batch = [e for check in self.state_checks for e in check(done.state, batch, rng)]
            if not batch:
                break
        return done

    def apply_events(self, state: GameState, events: Iterable[Event]) -> GameState:
        """``state`` after ``events`` of a game already started."""
        with self.playing():
            for event in events:
                state = self._applied(state, event)
        return state

    def apply(self, state: GameState | None, event: Event) -> GameState:
        """``state`` after ``event``; ``game_started`` begins a game from nothing."""
        with self.playing():
            return self._applied(state, event)

    def fold(self, events: Iterable[Event], state: GameState | None = None) -> GameState:
        """The state after ``events``; without ``state`` the first event must be ``game_started``."""
        current = state
        with self.playing():
            for event in events:
                current = self._applied(current, event)
        if current is None:
            raise ValueError("no events to fold")
        return current

    def _applied(self, state: GameState | None, event: Event) -> GameState:
        """One event folded, with these rules already in play (the loops above enter them once,
        not once an event: a long game's journal folds thousands)."""
        if isinstance(event, GameStarted):
            return self.beginning.open(event)
        if state is None:
            raise ValueError(f"{event.type!r} cannot come before game_started")
        applier = self.appliers.get(type(event))
        if applier is None:
            raise ValueError(f"{event.type!r} is not an event of {self!r}")
        return applier(state, event)

    def describe(self, state: GameState | None, event: Event) -> Message:
        """What ``event`` did, for the log and the screen; ``state`` is the state before it."""
        if isinstance(event, GameStarted):
            return self.beginning.describe(event)
        describer = self.describers.get(type(event))
        if describer is None or state is None:
            return Message("rules.event", type=event.type)
        with self.playing():
            return describer(state, event)

    def play(
        self, state: GameState | None, events: Iterable[Event]
    ) -> tuple[list[Message], GameState]:
        """What each event did (described against the state before it) and the state after them
        all, in one pass; without ``state`` the first event must be ``game_started``."""
        messages = []
        with self.playing():
            for event in events:
                messages.append(self.describe(state, event))
                state = self._applied(state, event)
        if state is None:
            raise ValueError("no events to play")
        return messages, state

    def describe_outcome(self, state: GameState) -> Message | None:
        """The game's result as the players read it, or None while it goes on."""
        with self.playing():
            return self.beginning.describe_outcome(state)

    def check_damage(self, state: GameState, seat: int, source: int | None) -> None:
        """Refuse damage a part forbids (``IllegalCommand``)."""
        for check in self.damage_checks:
            check(state, seat, source)

    def check_pass(self, state: GameState) -> None:
        """Refuse passing the turn while a part waits for something (``IllegalCommand``)."""
        for check in self.pass_checks:
            check(state)

    def outcome(self, state: GameState) -> Outcome | None:
        """The game's result, or None while it goes on: the first of the game's formats with a
        rule of its own decides (the base format's, or a table format's such as Two-Headed
        Giant), else the last player standing wins."""
        rule = next((self.outcomes[n] for n in state.formats if n in self.outcomes), None)
        if rule is None:
            return last_standing(state)
        with self.playing():
            return rule(state)

    # --- what the parts declare of their games ---------------------------------------------

    def round_of(self, state: GameState) -> int | None:
        """The round the game has reached where its format counts rounds, else None."""
        return next((n for rule in self.rounds if (n := rule(state)) is not None), None)

    def groups(self, state: GameState) -> tuple[Group, ...] | None:
        """The games played at the table at once, or None where it plays one game."""
        return next((g for rule in self.groupings if (g := rule(state)) is not None), None)

    def apart(self, state: GameState, seat: int) -> bool:
        """Whether ``seat``, still in the game, is apart from it for now."""
        return any(check(state, seat) for check in self.apart_checks)

    def comes_back(self, event: Event) -> int | None:
        """The seat ``event`` brings back into the game anew, or None."""
        return next((s for rule in self.comebacks if (s := rule(event)) is not None), None)

    def starts_anew(self, event: Event) -> bool:
        """Whether ``event`` begins new games at the table."""
        return any(rule(event) for rule in self.new_games)

    def expected_cards(self, state: GameState) -> Catalog | None:
        """The cards a physical card can mean now: those of the one format the table waits for
        a card of, else those of the one format with cards in the game; None where any card
        may be meant (no such format, or two of them alike)."""
        wants = [want for rule in self.card_wants if (want := rule(state)) is not None]
        waiting = [want for want in wants if want.waiting]
        if len(waiting) == 1:
            return waiting[0].cards
        if len(wants) == 1:
            return wants[0].cards
        return None

    # --- the journal's events ---------------------------------------------------------------

    def parse_event(self, body: str | bytes) -> Event:
        """One event from its journal JSON.  Raises ``pydantic.ValidationError`` if it is not
        one of these rules' events."""
        if self._adapter is None:
            union: Any = Union[tuple(self.event_types.values())]  # noqa: UP007 - built from the parts
            self._adapter = TypeAdapter(Annotated[union, Field(discriminator="type")])
        return self._adapter.validate_json(body)


#: State checks settle in one or two rounds; the bound only stops a bad check looping.
_CHECK_ROUNDS = 8


def _named(events: Iterable[type[Event]]) -> dict[str, type[Event]]:
    """``events`` by their ``type`` literal, which each must have, and no two alike."""
    named: dict[str, type[Event]] = {}
    for event in events:
        name = event.model_fields["type"].default
        if not isinstance(name, str):
            raise TypeError(f"{event.__name__} needs a type literal with a default")
        if name in named:
            raise TypeError(f"event type {name!r} is used by {named[name].__name__} already")
        named[name] = event
    return named


def _merged(texts: Iterable[Mapping[str, Text]]) -> dict[str, Text]:
    merged: dict[str, Text] = {}
    for mapping in texts:
        for key, text in mapping.items():
            if merged.get(key, text) != text:
                raise ValueError(f"text key {key!r} is written twice, differently")
            merged[key] = text
    return merged


def _merge(table: dict[Any, Any], entries: dict[Any, Any], what: str, part: str) -> None:
    for key, value in entries.items():
        if key in table:
            raise TypeError(f"{key.__name__} has a second {what} in {part}")
        table[key] = value


# --- what a part asks of the rules in play --------------------------------------------------


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """``state`` after ``events`` of a game already started: what a rules module uses to see
    the state its earlier events make while it decides the next ones."""
    return in_play().apply_events(state, events)


def outcome(state: GameState) -> Outcome | None:
    """The game's result under the rules in play, or None while it goes on."""
    return in_play().outcome(state)


def round_of(state: GameState) -> int | None:
    """The round the game has reached under the rules in play, where its format counts rounds."""
    return in_play().round_of(state)


def find_format(name: str) -> Format:
    """The format of the rules in play called ``name`` (or one of its aliases)."""
    return in_play().formats.find(name)


def formats() -> tuple[Format, ...]:
    """Every format of the rules in play, in their parts' order."""
    return in_play().formats.all()


def options_for(module_names: Iterable[str]) -> dict[str, TableOption]:
    """The table options of a game of these formats, under the rules in play."""
    return in_play().formats.options_for(module_names)


def close_format(word: str) -> str | None:
    """The format name or alias of the rules in play that ``word`` looks like a slip of."""
    return in_play().formats.close(word)


def resolve_setup(names: Iterable[str], player_count: int, options: dict[str, str]) -> Setup:
    """Check a combination of formats and table options under the rules in play."""
    return in_play().formats.resolve(names, player_count, options)
