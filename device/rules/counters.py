"""The counters and designations Commander tables track, in every game that counts life.

Per game (Comprehensive Rules, the sections "The Monarch", "The Initiative" and "Day and Night";
docs/decisions/0017-counters.md has their numbers): at most one monarch and at most one player
with the initiative; day or night, neither until an effect makes it one, then always one of them.
Per player: energy, experience and rad counters (122.1), never fewer than none, and the city's
blessing (702.131c), kept for the rest of the game once gained.  Each change is an event like
any other: journaled, said in the log, taken back by UNDO.

When the monarch or the player with the initiative leaves the game, the active player takes it at
the same moment; if the active player is leaving too (or the game has none), the next player in
turn order.  A state check does that whenever players lose or concede, in Two-Headed Giant
(where a team leaves together) and in any format, which says in its rules what the counters need
of it: the games it plays at the table at once, each with its own monarch, initiative and day or
night (``Group``), a seat apart from the game for now, who holds nothing meanwhile (``apart``),
a player who comes back anew, without counters or the city's blessing as with no poison
(``comes_back``), and an event that begins new games, nothing marked any more (``starts_anew``).
"""

from __future__ import annotations

from random import Random
from typing import Literal

from device.commands import Command
from device.errors import IllegalCommand
from device.events import Event, PlayerLost
from device.rules.life import alive, check_tracked
from device.rules.registry import Group, Rules, apply_events, in_play, outcome
from device.rules.table import check_seat, round_from
from device.rules.teams import primary, team_of, teamed, teammate
from device.state import GameState, LossReason
from device.state_counters import Counter, CountersState, DayNight, GameMarks, PlayerCounters
from device.text import Message, Plural, Text, listing

RULES = Rules("counters")

MAX_CHANGE = 999  # counters changed at once

TEXTS: dict[str, Text] = {
    "counters.monarch": "{name} becomes the monarch.",
    "counters.monarch_left": "{left} left the game, so {name} becomes the monarch.",
    "counters.monarch_none": "Nobody is the monarch now.",
    "counters.monarch_gone": "{left} left the game, and nobody is left to become the monarch.",
    "counters.initiative": "{name} takes the initiative: venture into Undercity.",
    "counters.initiative_left": "{left} left the game, so {name} takes the initiative: venture into Undercity.",
    "counters.initiative_none": "Nobody has the initiative now.",
    "counters.initiative_gone": "{left} left the game, and nobody is left to take the initiative.",
    "counters.day": "It becomes day.",
    "counters.night": "It becomes night.",
    "counters.day_in": "{group}: it becomes day.",
    "counters.night_in": "{group}: it becomes night.",
    "counters.energy": "{name}: {before} → {after} energy.",
    "counters.experience": "{name}: {before} → {after} experience.",
    "counters.rad": "{name}: {before} → {after} rad.",
    "counters.blessing": "{name} gets the city's blessing.",
    "counters.cleared": "{name} comes back without energy, experience or rad counters and without the city's blessing.",
    "counters.reset": "A new round is a new game: no monarch, no initiative, neither day nor night, no counters.",
    # refusals
    "counters.zero": "Nothing to change: the amount is 0.",
    "counters.range": "{amount} is out of range: change counters by at most {limit} at a time.",
    "counters.below.energy": Plural(
        "{name} has {have} energy counter; {remove} cannot be removed.",
        "{name} has {have} energy counters; {remove} cannot be removed.",
        "have",
    ),
    "counters.below.experience": Plural(
        "{name} has {have} experience counter; {remove} cannot be removed.",
        "{name} has {have} experience counters; {remove} cannot be removed.",
        "have",
    ),
    "counters.below.rad": Plural(
        "{name} has {have} rad counter; {remove} cannot be removed.",
        "{name} has {have} rad counters; {remove} cannot be removed.",
        "have",
    ),
    "counters.already_monarch": "{name} is already the monarch.",
    "counters.no_monarch": "Nobody is the monarch.",
    "counters.no_initiative": "Nobody has the initiative.",
    "counters.already_day": "It is already day.",
    "counters.already_night": "It is already night.",
    "counters.already_blessed": "{name} already has the city's blessing: once gained, it is kept for the rest of "
    "the game.",
    "counters.which_game": "Each group of the pod plays its own game: name a player of the group meant.",
    "counters.which_monarch": "Each group has its own monarch ({names}): name a player of the group that no "
    "longer has one.",
    "counters.which_initiative": "In more than one group a player has the initiative ({names}): name a player of "
    "the group where nobody has it any more.",
}


# --- commands ------------------------------------------------------------------------------------


class BecomeMonarch(Command):
    """``seat`` becomes the monarch; None: nobody is any more (a correction), in the game of
    ``group_of`` (a seat of one of the games played at once; needed when several have a
    monarch)."""

    seat: int | None
    group_of: int | None = None


class TakeInitiative(Command):
    """``seat`` takes the initiative (again, if they have it: they venture once more); None: nobody
    has it any more (a correction), in the game of ``group_of`` as for the monarch."""

    seat: int | None
    group_of: int | None = None


class MakeDayNight(Command):
    """It becomes day or night, in the game of ``group_of`` (a seat; needed where several games
    are played at once)."""

    day_night: DayNight
    group_of: int | None = None


class ChangeCounter(Command):
    seat: int
    counter: Counter
    delta: int


class GainBlessing(Command):
    seat: int


# --- events --------------------------------------------------------------------------------------


class MonarchChanged(Event):
    """``seat`` became the monarch of ``game`` (None: nobody is); ``left``: the monarch whose
    leaving the game made it so."""

    type: Literal["monarch_changed"] = "monarch_changed"
    seat: int | None
    game: str = ""
    left: int | None = None


class InitiativeChanged(Event):
    """``seat`` took the initiative in ``game`` (None: nobody has it); ``left`` as for the monarch."""

    type: Literal["initiative_changed"] = "initiative_changed"
    seat: int | None
    game: str = ""
    left: int | None = None


class DayNightChanged(Event):
    type: Literal["day_night_changed"] = "day_night_changed"
    day_night: DayNight
    game: str = ""


class CounterChanged(Event):
    type: Literal["player_counter_changed"] = "player_counter_changed"
    seat: int
    counter: Counter
    delta: int


class BlessingGained(Event):
    type: Literal["blessing_gained"] = "blessing_gained"
    seat: int


class PlayerCountersCleared(Event):
    """A player came back into the game anew: without counters or the city's blessing."""

    type: Literal["player_counters_cleared"] = "player_counters_cleared"
    seat: int


class CountersReset(Event):
    """New games began at the table: nothing is marked any more."""

    type: Literal["counters_reset"] = "counters_reset"


# --- whose game, who holds ---------------------------------------------------------------------


def counters(state: GameState) -> CountersState:
    """The table's counters, none marked before the first change."""
    return state.counters if state.counters is not None else CountersState.fresh(len(state.players))


def _group_of(groups: tuple[Group, ...], seat: int) -> Group | None:
    return next((group for group in groups if seat in group.order), None)


def _group(state: GameState, game: str) -> Group | None:
    """The game called ``game`` among those played at once; None for the table's own."""
    groups = in_play().groups(state) if game else None
    return next((g for g in groups if g.label == game), None) if groups is not None else None


def game_of(state: GameState, seat: int) -> str:
    """The game ``seat`` plays in: "" for the table, else the label of its group's game."""
    groups = in_play().groups(state)
    group = _group_of(groups, seat) if groups is not None else None
    return group.label if group is not None else ""


def games(state: GameState) -> list[str]:
    """The games being played now: the table's, or each of those played at once."""
    groups = in_play().groups(state)
    return [""] if groups is None else [group.label for group in groups]


def game_title(state: GameState, game: str) -> Message | None:
    """The name of ``game``, one of several played at once, as the players read it; None for
    the table's own."""
    group = _group(state, game)
    return group.title if group is not None else None


def marks(state: GameState, seat: int) -> GameMarks:
    """The designations of the game ``seat`` plays in."""
    return counters(state).game(game_of(state, seat))


def _active(state: GameState, game: str) -> int | None:
    """The active player of ``game``: the table's, or who its group says has the turn."""
    if not game or in_play().groups(state) is None:
        return state.active
    group = _group(state, game)
    return group.active if group is not None else None


def _order(state: GameState, game: str, start: int) -> list[int]:
    """Every seat of ``game`` once, in turn order from ``start``; in Two-Headed Giant each team by
    its primary player (810: a team takes its turn together, led by its primary player)."""
    if game and in_play().groups(state) is not None:
        group = _group(state, game)
        if group is None:
            return []
        at = group.order.index(start) if start in group.order else 0
        return [*group.order[at:], *group.order[:at]]
    seats = round_from(state, start)
    if not teamed(state):
        return seats
    found: list[int] = []
    for seat in seats:
        lead = primary(state, team_of(state, seat))
        if lead not in found:
            found.append(lead)
    return found


def _can_hold(state: GameState, seat: int, game: str) -> bool:
    """In ``game``, not gone from its group's, and not apart from it for now."""
    rules = in_play()
    player = state.player(seat)
    if not player.in_game or game_of(state, seat) != game:
        return False
    groups = rules.groups(state) if game else None
    if groups is not None:
        group = _group_of(groups, seat)
        if group is None or seat in group.gone:
            return False
    return not rules.apart(state, seat)


def successor(state: GameState, game: str, leaving: set[int], holder: int) -> int | None:
    """Who takes the monarchy or the initiative from ``holder`` leaving ``game`` with ``leaving``:
    the active player, else (leaving too, or no active player) the next player in turn order
    who stays; None when nobody can."""
    active = _active(state, game)
    start = active if active is not None else holder
    return next(
        (s for s in _order(state, game, start) if s not in leaving and _can_hold(state, s, game)),
        None,
    )


# --- deciding ------------------------------------------------------------------------------------


def _holder_game(
    state: GameState, group_of: int | None, holders: dict[str, int], which: str
) -> str:
    """The game whose monarch (or initiative) is taken back: ``group_of``'s, else the only one that has one."""
    if group_of is not None:
        check_seat(state, group_of)
        return game_of(state, group_of)
    if len(holders) > 1:
        names = listing([state.player(seat).name for seat in holders.values()])
        raise IllegalCommand(f"counters.which_{which}", names=names)
    return next(iter(holders), "")


def _taken_back(
    state: GameState, group_of: int | None, which: Literal["monarch", "initiative"]
) -> str:
    """The game whose monarch (or initiative) nobody holds from now on; refused when nobody does."""
    held = {m.game: seat for m in counters(state).games if (seat := getattr(m, which)) is not None}
    game = _holder_game(state, group_of, held, which)
    if getattr(counters(state).game(game), which) is None:
        raise IllegalCommand(f"counters.no_{which}")
    return game


@RULES.decides(BecomeMonarch)
def _monarch(state: GameState, command: BecomeMonarch, rng: Random) -> list[Event]:
    check_tracked(state)
    if command.seat is None:
        return [MonarchChanged(seat=None, game=_taken_back(state, command.group_of, "monarch"))]
    player = alive(state, command.seat)
    if marks(state, command.seat).monarch == command.seat:
        raise IllegalCommand("counters.already_monarch", name=player.name)
    return [MonarchChanged(seat=command.seat, game=game_of(state, command.seat))]


@RULES.decides(TakeInitiative)
def _initiative(state: GameState, command: TakeInitiative, rng: Random) -> list[Event]:
    check_tracked(state)
    if command.seat is None:
        return [
            InitiativeChanged(seat=None, game=_taken_back(state, command.group_of, "initiative"))
        ]
    alive(
        state, command.seat
    )  # taking it again is allowed: that player ventures once more (the initiative, .5)
    return [InitiativeChanged(seat=command.seat, game=game_of(state, command.seat))]


@RULES.decides(MakeDayNight)
def _day_night(state: GameState, command: MakeDayNight, rng: Random) -> list[Event]:
    check_tracked(state)
    if command.group_of is not None:
        check_seat(state, command.group_of)
        game = game_of(state, command.group_of)
    else:
        playing = games(state)
        if len(playing) > 1:
            raise IllegalCommand("counters.which_game")
        game = playing[0] if playing else ""
    if counters(state).game(game).day_night is command.day_night:
        raise IllegalCommand(f"counters.already_{command.day_night.value}")
    return [DayNightChanged(day_night=command.day_night, game=game)]


@RULES.decides(ChangeCounter)
def _change(state: GameState, command: ChangeCounter, rng: Random) -> list[Event]:
    player = alive(state, command.seat)
    if command.delta == 0:
        raise IllegalCommand("counters.zero")
    if abs(command.delta) > MAX_CHANGE:
        raise IllegalCommand("counters.range", amount=command.delta, limit=MAX_CHANGE)
    have = counters(state).player(command.seat).count(command.counter)
    if have + command.delta < 0:
        raise IllegalCommand(
            f"counters.below.{command.counter.value}",
            name=player.name,
            have=have,
            remove=-command.delta,
        )
    return [CounterChanged(seat=command.seat, counter=command.counter, delta=command.delta)]


@RULES.decides(GainBlessing)
def _bless(state: GameState, command: GainBlessing, rng: Random) -> list[Event]:
    player = alive(state, command.seat)
    if counters(state).player(command.seat).blessing:
        raise IllegalCommand("counters.already_blessed", name=player.name)
    return [BlessingGained(seat=command.seat)]


# --- what the rules make happen at once ------------------------------------------------------------


def _leaving(state: GameState, events: list[Event]) -> set[int]:
    """Who leaves the game with this batch: the losers and, in Two-Headed Giant, their teammates
    (810.8a: a team loses together; the format's own check makes that so a moment later)."""
    seats = {e.seat for e in events if isinstance(e, PlayerLost)}
    if teamed(state):
        seats |= {teammate(state, seat) for seat in seats}
    return seats


def _ends(state: GameState, leaving: set[int]) -> bool:
    """The game is over once ``leaving`` have left: nobody takes anything then."""
    more = [
        PlayerLost(seat=s, reason=LossReason.TEAM)
        for s in sorted(leaving)
        if state.player(s).in_game
    ]
    return outcome(apply_events(state, more) if more else state) is not None


def _departures(state: GameState, leaving: set[int]) -> list[Event]:
    """The monarchy and the initiative of a holder who leaves pass on (the monarch, .4; the initiative, .4)."""
    out: list[Event] = []
    for marked in counters(state).games:
        if marked.monarch in leaving:
            out.append(
                MonarchChanged(
                    seat=successor(state, marked.game, leaving, marked.monarch),
                    game=marked.game,
                    left=marked.monarch,
                )
            )
        if marked.initiative in leaving:
            out.append(
                InitiativeChanged(
                    seat=successor(state, marked.game, leaving, marked.initiative),
                    game=marked.game,
                    left=marked.initiative,
                )
            )
    return out


@RULES.state_check
def _settle(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """Designations pass on from a player who leaves; a player who comes back anew comes back
    without counters; new games begin without any."""
    table = state.counters
    if table is None:
        return []
    rules = in_play()
    out: list[Event] = []
    leaving = _leaving(state, events)
    if leaving and not _ends(state, leaving):
        out += _departures(state, leaving)
    for event in events:
        back = rules.comes_back(event)
        if back is not None and table.player(back).any:
            out.append(PlayerCountersCleared(seat=back))
        if rules.starts_anew(event) and (table.games or any(p.any for p in table.players)):
            out.append(CountersReset())
    return out


# --- each event: what it does to the state (apply), and what it says (describe) -------------------


def _with(state: GameState, table: CountersState) -> GameState:
    return state.model_copy(update={"counters": table})


def _name(state: GameState, seat: int | None) -> str:
    return state.player(seat).name if seat is not None else ""


@RULES.applies(MonarchChanged)
def _apply_monarch(state: GameState, event: MonarchChanged) -> GameState:
    table = counters(state)
    return _with(
        state, table.with_game(table.game(event.game).model_copy(update={"monarch": event.seat}))
    )


@RULES.describes(MonarchChanged)
def _describe_monarch(state: GameState, event: MonarchChanged) -> Message:
    return _handed(state, "monarch", event.seat, event.left)


def _handed(state: GameState, which: str, seat: int | None, left: int | None) -> Message:
    """Who became the monarch or took the initiative, and whose leaving made it so."""
    if seat is None:
        return (
            Message(f"counters.{which}_gone", left=_name(state, left))
            if left is not None
            else Message(f"counters.{which}_none")
        )
    if left is not None:
        return Message(f"counters.{which}_left", name=_name(state, seat), left=_name(state, left))
    return Message(f"counters.{which}", name=_name(state, seat))


@RULES.applies(InitiativeChanged)
def _apply_initiative(state: GameState, event: InitiativeChanged) -> GameState:
    table = counters(state)
    return _with(
        state, table.with_game(table.game(event.game).model_copy(update={"initiative": event.seat}))
    )


@RULES.describes(InitiativeChanged)
def _describe_initiative(state: GameState, event: InitiativeChanged) -> Message:
    return _handed(state, "initiative", event.seat, event.left)


@RULES.applies(DayNightChanged)
def _apply_day_night(state: GameState, event: DayNightChanged) -> GameState:
    table = counters(state)
    return _with(
        state,
        table.with_game(table.game(event.game).model_copy(update={"day_night": event.day_night})),
    )


@RULES.describes(DayNightChanged)
def _describe_day_night(state: GameState, event: DayNightChanged) -> Message:
    group = game_title(state, event.game)
    if group is not None and len(games(state)) > 1:
        return Message(f"counters.{event.day_night.value}_in", group=group)
    return Message(f"counters.{event.day_night.value}")


@RULES.applies(CounterChanged)
def _apply_counter(state: GameState, event: CounterChanged) -> GameState:
    table = counters(state)
    mine = table.player(event.seat)
    changed = mine.model_copy(update={event.counter.value: mine.count(event.counter) + event.delta})
    return _with(state, table.with_player(changed))


@RULES.describes(CounterChanged)
def _describe_counter(state: GameState, event: CounterChanged) -> Message:
    before = counters(state).player(event.seat).count(event.counter)
    return Message(
        f"counters.{event.counter.value}",
        name=_name(state, event.seat),
        before=before,
        after=before + event.delta,
    )


@RULES.applies(BlessingGained)
def _apply_blessing(state: GameState, event: BlessingGained) -> GameState:
    table = counters(state)
    return _with(
        state, table.with_player(table.player(event.seat).model_copy(update={"blessing": True}))
    )


@RULES.describes(BlessingGained)
def _describe_blessing(state: GameState, event: BlessingGained) -> Message:
    return Message("counters.blessing", name=_name(state, event.seat))


@RULES.applies(PlayerCountersCleared)
def _apply_cleared(state: GameState, event: PlayerCountersCleared) -> GameState:
    return _with(state, counters(state).with_player(PlayerCounters(seat=event.seat)))


@RULES.describes(PlayerCountersCleared)
def _describe_cleared(state: GameState, event: PlayerCountersCleared) -> Message:
    return Message("counters.cleared", name=_name(state, event.seat))


@RULES.applies(CountersReset)
def _apply_reset(state: GameState, event: CountersReset) -> GameState:
    return _with(state, CountersState.fresh(len(state.players)))


@RULES.describes(CountersReset)
def _describe_reset(state: GameState, event: CountersReset) -> Message:
    return Message("counters.reset")


RULES.says(TEXTS)
