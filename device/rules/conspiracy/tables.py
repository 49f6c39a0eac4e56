"""A Conspiracy event played across tables (CJ-1..CJ-5, CJ-8): the organiser's plan, what each
table reports, and the standings folded from the reports.

The organiser draws the event once (``plan_event``): the pods (CJ-1), each pod's round-1 groups
seated at random (CJ-2: the very draw a pod's game makes) and the table that plays each group.
Every table plays its group as a game of its own (``table_game``: a ``conspiracy`` game whose
``group`` and ``round`` options say which) and reports it from its journal (``table_report``):
who left, at which change of its journal and when (several at one change left together, CJ-4),
the clock and the ranking by life after time (CJ-5), the Rumble picks (CJ-8).  A report is the
table's whole account of one group, numbered by its ``revision``: the newest replaces every
earlier one, so the same report received twice, or an old one after a newer, changes nothing,
and an undo at the table is a newer report without what was undone — a correction, never a
second result.

``fold`` is a pure function of the plan and the reports received, in any order and with any
repeats: each pod as one game (its groups, who left them and in which order), round 2 drawn from
the plan's seed as soon as every round-1 group of the pod is done — so every gadget draws the
same groups at once, without asking the organiser — and the standings ``device.rules.conspiracy``
ranks a pod with (CJ-3, CJ-4, CJ-5).  A pod is a function of its own reports alone, so a gadget
folds each message into the fold before it and only that report's pod is folded again: the work
of a message is the same at 4 tables as at 32, and the result that of folding everything anew.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from random import Random

from device.commands import NewGame
from device.errors import IllegalCommand
from device.events import Event
from device.models import Model
from device.game import decide
from device.rules.conspiracy.play import (
    POD,
    Standing,
    event_games,
    joined,
    ranking,
    round_seconds,
    round_two,
    standings,
    table_group,
)
from device.rules.conspiracy.events import GroupLeft, RoundStarted
from device.state import GameState, Player
from device.rules.conspiracy.state import ConspiracyState, GroupRecord
from device.text import Message, Text

TEXTS: dict[str, Text] = {
    "consp.net.no_tables": "An event across tables needs at least one table to play at.",
    "consp.net.table_name": "{name!r} cannot name a table: use 1 to 32 letters, digits, '-' or '_'.",
    "consp.net.table_twice": "Table {name!r} is named twice.",
}

#: A table's name is its login at the broker and part of its topics: plain letters, digits, - and _.
TABLE_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class Assignment(Model):
    """One group of one round of a pod, seated in order (the first named goes first), and the
    table that plays it."""

    pod: int
    round: int
    group: str  # "1", "2" in round 1; "winners", "losers" in round 2
    players: tuple[str, ...]
    table: str

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.pod, self.round, self.group)


class Redraw(Model):
    """The organiser's ruling on a pod whose round 1 was corrected after its round 2 had begun:
    round 2 is played in ``groups`` — the draw the corrected round 1 gives, or round 2 as it
    was begun — and ``basis`` is the draw round 1 gave when the organiser ruled, so a later
    correction that gives yet another draw asks again."""

    pod: int
    groups: tuple[Assignment, ...]
    basis: tuple[Assignment, ...]


class Moved(Model):
    """The organiser's ruling: a group not begun yet is played at another table (a free one),
    not the one drawn."""

    pod: int
    round: int
    group: str
    table: str

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.pod, self.round, self.group)


class Counted(Model):
    """The organiser's ruling: of the gadgets that report as ``table``, the accounts of
    ``gadget`` count (where it kept a game of the group), not the furthest."""

    table: str
    gadget: str


class RoundClock(Model):
    """The organiser started round ``round``'s clock for every table.  Each table starts its own
    game's clock when it hears this, by its own clock: ``at``, the organiser's clock then, is only
    shown, never compared with a table's (docs/decisions/0032-one-round-clock.md)."""

    round: int
    at: float


class EventPlan(Model):
    """What the organiser drew: the pods, the round-1 groups and their tables, and the tables each
    pod's round 2 is played at (winners' group, losers' group).  ``seed`` draws round 2's seating
    (CJ-3) wherever the results of round 1 meet; ``id`` tells this event's reports from those of
    an earlier event of the same name."""

    id: str
    event: str
    pods: tuple[tuple[str, ...], ...]
    tables: tuple[str, ...]
    options: dict[str, str] = {}
    seed: int
    groups: tuple[Assignment, ...]
    round2_tables: tuple[tuple[str, str], ...]
    redraws: tuple[Redraw, ...] = ()  # the organiser's rulings on corrections, at most one a pod
    moves: tuple[
        Moved, ...
    ] = ()  # groups the organiser moved to another table, at most one a group
    counted: tuple[
        Counted, ...
    ] = ()  # whose accounts count at a table with two gadgets, one a table
    clocks: tuple[
        RoundClock, ...
    ] = ()  # the rounds whose clock the organiser started, at most one each

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(name for pod in self.pods for name in pod)

    def round2_table(self, pod: int, group: str) -> str:
        """Where pod ``pod``'s round-2 ``group`` is played as drawn: the winners' group at the
        pod's first round-1 table, the losers' at its last."""
        tables = self.round2_tables[pod - 1]
        return tables[0] if group == "winners" else tables[1]

    def redraw(self, pod: int) -> Redraw | None:
        return next((r for r in self.redraws if r.pod == pod), None)

    def moved(self, assignment: Assignment) -> Assignment:
        """``assignment`` at the table the organiser moved it to, if it was moved."""
        move = next((m for m in self.moves if m.key == assignment.key), None)
        return assignment if move is None else assignment.model_copy(update={"table": move.table})

    def counts(self, table: str) -> str:
        """The gadget whose accounts count at ``table`` by the organiser's ruling ("": the furthest)."""
        return next((c.gadget for c in self.counted if c.table == table), "")

    def with_move(self, move: Moved) -> EventPlan:
        kept = tuple(m for m in self.moves if m.key != move.key)
        return self.model_copy(update={"moves": (*kept, move)})

    def with_count(self, table: str, gadget: str) -> EventPlan:
        kept = tuple(c for c in self.counted if c.table != table)
        return self.model_copy(
            update={"counted": (*kept, Counted(table=table, gadget=gadget)) if gadget else kept}
        )

    def ruled(self, ruling: Redraw) -> EventPlan:
        """This draw with the organiser's ruling on ``ruling.pod`` (in place of any earlier one)."""
        kept = tuple(r for r in self.redraws if r.pod != ruling.pod)
        return self.model_copy(
            update={"redraws": tuple(sorted((*kept, ruling), key=lambda r: r.pod))}
        )

    def clock(self, round: int) -> RoundClock | None:
        return next((c for c in self.clocks if c.round == round), None)

    def clocked(self, clock: RoundClock) -> EventPlan:
        """This draw with round ``clock.round``'s clock started; a round's clock starts once, so
        a second start (two of the organiser's screens at once) keeps the first."""
        if self.clock(clock.round) is not None:
            return self
        return self.model_copy(
            update={"clocks": tuple(sorted((*self.clocks, clock), key=lambda c: c.round))}
        )


#: "Ten minutes left" is announced this many seconds before a round's time is up.
TEN_MINUTES = 600


def announcements(plan: EventPlan, round: int) -> tuple[tuple[str, float], ...]:
    """CJ-5: the organiser's announcements of round ``round`` and when each is due, in seconds
    after the round's clock started; ten minutes left only in a round longer than that."""
    length = float(round_seconds(plan.options))
    said = [("start", 0.0)] if round == 2 else []
    if length > TEN_MINUTES:
        said.append(("ten", length - TEN_MINUTES))
    return (*said, ("up", length))


class Left(Model):
    """Players who left a group's game at one change of the table's journal (CJ-4: together)."""

    players: tuple[str, ...]
    pos: int  # the change in the table's journal that recorded it
    at: float  # when, by the table's clock (seconds since the epoch)


class TableReport(Model):
    """A table's whole account of one group's game, as its journal holds it now."""

    plan: str
    table: str
    pod: int
    round: int
    group: str
    players: tuple[str, ...]
    revision: tuple[int, int]  # later reports of a table have higher ones
    game: int = 0  # the table's saved game
    head: int = 0  # the last change in effect in that game's journal
    left: tuple[Left, ...] = ()
    clock_started: float | None = None
    time_called: float | None = None
    by_life: tuple[tuple[str, int], ...] | None = None  # after time (CJ-5), best first
    picks: tuple[int, ...] = ()  # Rumble picks earned, per player in seating order (CJ-8)
    done: bool = False
    gadget: str = ""  # the gadget that keeps the game (its own id): two may log in as one table
    #: Of a round-2 group: the pod's round 2 as drawn when the table played it, so every gadget
    #: knows which draw was begun even after a correction of round 1 would draw another.
    draw: tuple[Assignment, ...] = ()

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.pod, self.round, self.group)

    def fits(self, assignment: Assignment) -> bool:
        """Whether this is a report of ``assignment``'s game, from its own table, about its players."""
        if (self.key, self.players, self.table) != (
            assignment.key,
            assignment.players,
            assignment.table,
        ):
            return False
        named = {n for batch in self.left for n in batch.players} | {
            n for n, _ in self.by_life or ()
        }
        return named <= set(self.players) and len(self.picks) in (0, len(self.players))


# --- the organiser's draw (CJ-1, CJ-2) ------------------------------------------------------------


def check_tables(tables: Sequence[str]) -> tuple[str, ...]:
    if not tables:
        raise IllegalCommand("consp.net.no_tables")
    seen: set[str] = set()
    for name in tables:
        if not TABLE_NAME.match(name):
            raise IllegalCommand("consp.net.table_name", name=name)
        if name.casefold() in seen:
            raise IllegalCommand("consp.net.table_twice", name=name)
        seen.add(name.casefold())
    return tuple(tables)


def plan_event(
    event: str,
    players: Sequence[str],
    tables: Sequence[str],
    options: Mapping[str, str],
    rng: Random,
    plan_id: str,
) -> EventPlan:
    """CJ-1, CJ-2: the event's pods (as ``event_games`` splits them, with its checks), each pod's
    round-1 groups seated at random by the pod game's own set-up, and a table for each group:
    the groups in order, round the tables (a table given more than one group plays them one
    after the other).  Each pod's round 2 is played at the tables of its round 1."""
    tables = check_tables(tables)
    groups: list[Assignment] = []
    pods: list[tuple[str, ...]] = []
    round2: list[tuple[str, str]] = []
    for index, game in enumerate(event_games(event, players, options)):
        pod = index + 1
        pods.append(game.players)
        started = [e for e in decide(None, game, rng) if isinstance(e, RoundStarted)]
        mine: list[str] = []
        for record in started[0].groups:
            table = tables[len(groups) % len(tables)]
            mine.append(table)
            groups.append(
                Assignment(
                    pod=pod,
                    round=1,
                    group=record.label,
                    table=table,
                    players=tuple(game.players[seat] for seat in record.order),
                )
            )
        round2.append((mine[0], mine[-1] if len(mine) > 1 else mine[0]))
    return EventPlan(
        id=plan_id,
        event=event,
        pods=tuple(pods),
        tables=tables,
        options=dict(options),
        seed=rng.getrandbits(63),
        groups=tuple(groups),
        round2_tables=tuple(round2),
    )


def table_game(plan: EventPlan, assignment: Assignment) -> NewGame:
    """The game a table plays for ``assignment``: its players in their seats, the first seated
    going first, with the event's table options."""
    options = {
        **plan.options,
        "event": plan.event,
        "pod": str(assignment.pod),
        "round": str(assignment.round),
        "group": assignment.group,
    }
    return NewGame(
        formats=(POD.name,),
        players=assignment.players,
        first=assignment.players[0],
        options=options,
    )


def game_key(state: GameState) -> tuple[int, int, str] | None:
    """(pod, round, group) of a table's game at an event across tables; None for any other game."""
    group = table_group(state)
    if not group:
        return None
    return (int(state.options.get("pod", 1)), int(state.options.get("round", 1)), group)


# --- a table's report (from its journal) -------------------------------------------------------


def table_report(
    plan: EventPlan,
    table: str,
    state: GameState,
    events: Sequence[tuple[int, Event]],
    times: Mapping[int, float],
    revision: tuple[int, int],
    game: int = 0,
    head: int = 0,
    draw: tuple[Assignment, ...] = (),
) -> TableReport:
    """What a table reports of its game ``state``: ``events`` are the game's events in effect
    with the journal positions that hold them, ``times`` when each position was kept."""
    key = game_key(state)
    consp = state.conspiracy
    if key is None or consp is None or not consp.groups:
        raise ValueError("not a table's game at an event across tables")
    group = consp.groups[0]
    names = [p.name for p in state.players]
    # The group's leavings are its GroupLeft events, in the order they happened.
    positions = [pos for pos, event in events if isinstance(event, GroupLeft)]
    left = tuple(
        Left(players=tuple(names[s] for s in batch), pos=pos, at=times.get(pos, 0.0))
        for batch, pos in zip(group.left, positions, strict=False)
    )
    by_life = (
        tuple((names[s], life) for s, life in group.by_life) if group.by_life is not None else None
    )
    return TableReport(
        plan=plan.id,
        table=table,
        pod=key[0],
        round=key[1],
        group=key[2],
        players=tuple(names),
        revision=revision,
        game=game,
        head=head,
        left=left,
        clock_started=consp.clock_started,
        time_called=consp.time_called,
        by_life=by_life,
        picks=tuple(consp.picks),
        done=group.done,
        draw=draw if key[1] == 2 else (),
    )


def seated(groups: Iterable[Assignment]) -> str | Message:
    """Groups with their players in seating order, as a message: "winners' group: Ann, Ben;
    losers' group: …" (each language joins the groups its own way)."""
    return joined(
        [
            Message(
                "consp.seated",
                group=Message(f"consp.in_group.{a.group}"),
                names=", ".join(a.players),
            )
            for a in groups
        ],
        "consp.semicolon",
    )


def same_account(a: TableReport | None, b: TableReport | None) -> bool:
    """Whether two reports say the same (whatever their revisions): nothing new to publish."""
    if a is None or b is None:
        return a is b
    return a.model_copy(update={"revision": (0, 0)}) == b.model_copy(update={"revision": (0, 0)})


# --- the fold ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One player's standing in the event."""

    pod: int
    place: int | None  # in the pod (CJ-3); None while undecided
    name: str
    groups: tuple[str, ...]  # their group in each round so far
    tables: tuple[str, ...]  # the table of each of those groups
    status: str  # "placed", "playing" or "left round N"
    left_round: int | None
    picks: int  # Rumble picks over the event
    #: For each of their groups: when they left it by that table's clock (None: they did not),
    #: and how far into that table's round clock (None before it was started): tables' clocks
    #: may disagree, a table's clock with itself does not.
    left: tuple[tuple[float | None, float | None], ...] = ()


@dataclass(frozen=True)
class TableState:
    """What one table is doing: the group it plays now (or next), whether it waits for a round-2
    draw, or whether everything it plays is over."""

    table: str
    playing: Assignment | None
    waiting: bool
    finished: bool


def supersedes(report: TableReport, held: TableReport | None) -> bool:
    """Whether ``report`` replaces ``held``, the account kept of the same table's group from the
    same gadget: a higher revision does (a correction is a later account); of two of the same,
    the text decides, so any order of arrival keeps the same one (it is worked out only then:
    most groups have one report of each revision)."""
    if held is None:
        return True
    if report.revision != held.revision:
        return report.revision > held.revision
    return report.model_dump_json() > held.model_dump_json()


def progress(report: TableReport) -> tuple[bool, int, int]:
    """How far a group's game has gone by a report: over, how many players left, in how many
    changes."""
    return (report.done, sum(len(batch.players) for batch in report.left), len(report.left))


def furthest(accounts: Iterable[TableReport]) -> TableReport | None:
    """The account that counts of a table's group when more than one gadget kept a game of it
    (a spare started with the table's login, the original back): the one that has gone
    furthest, as a game is played forward; of two as far, the later revision, then the text.
    Each gadget's own account is its newest (``supersedes``), corrections included; so the
    choice depends on the accounts alone, not on the order they arrived in."""
    return max(accounts, key=lambda r: (progress(r), r.revision, r.model_dump_json()), default=None)


# The records and states below are built with ``model_construct``: every value comes from the
# plan and from reports already validated, and a fold runs after every message at an event (on a
# Pi, for every table's news), so they are not validated a second time.


def _record(
    assignment: Assignment, report: TableReport | None, seats: Mapping[str, int]
) -> GroupRecord:
    order = tuple(seats[name] for name in assignment.players)
    to_leave = len(order) // 2 if assignment.round == 1 else max(0, len(order) - 1)
    if report is None:
        return GroupRecord.model_construct(label=assignment.group, order=order, to_leave=to_leave)
    left = tuple(tuple(seats[name] for name in batch.players) for batch in report.left)
    by_life = (
        tuple((seats[n], life) for n, life in report.by_life)
        if report.by_life is not None
        else None
    )
    return GroupRecord.model_construct(
        label=assignment.group, order=order, to_leave=to_leave, left=left, by_life=by_life
    )


@lru_cache(maxsize=256)
def _players(names: tuple[str, ...]) -> tuple[Player, ...]:
    """A pod's players, made once for every fold of the event (they never change)."""
    return tuple(
        Player.model_construct(seat=seat, name=name, life=20) for seat, name in enumerate(names)
    )


def _pod_state(plan: EventPlan, pod: int, rounds: tuple[tuple[GroupRecord, ...], ...]) -> GameState:
    """A pod as one game, so the pod's ranking is the one a pod game on one gadget has."""
    names = plan.pods[pod - 1]
    consp = ConspiracyState.model_construct(
        round=len(rounds), rounds=rounds, picks=(0,) * len(names)
    )
    return GameState.model_construct(
        formats=(POD.name,),
        options={"event": plan.event, "pod": pod},
        starting_life=20,
        players=_players(names),
        starting_player=0,
        active=0,
        conspiracy=consp,
    )


#: Where a report is kept: its group (pod, round, group) and the table that sent it.
#: A group's key, the table that reports it and the gadget that keeps its game.
Slot = tuple[tuple[int, int, str], str, str]


@dataclass(frozen=True)
class PodFold:
    """One pod as folded: each table's newest report of each of its groups (from each gadget
    that kept a game of it), the groups known so far (round 2 once round 1 is over), the report
    counted for each (``furthest``), and the pod as one game.

    It is a function of the plan and ``latest`` alone, so a report about another pod leaves it
    as it is, and what is worked out from it (its standings) is worked out once."""

    pod: int
    latest: Mapping[Slot, TableReport]
    groups: tuple[Assignment, ...]
    reports: tuple[TableReport | None, ...]
    state: GameState
    #: A correction of round 1 after round 2 began, waiting for the organiser: the round 2 the
    #: corrected round 1 draws (empty while round 1 is being corrected, not over again); None
    #: when nothing waits.
    pending: tuple[Assignment, ...] | None = None

    def report(self, key: tuple[int, int, str]) -> TableReport | None:
        return next((r for a, r in zip(self.groups, self.reports) if a.key == key), None)

    @property
    def drawn(self) -> bool:
        """Round 2 is drawn: round 1 is over."""
        return self.groups[-1].round == 2

    @cached_property
    def finished(self) -> bool:
        """Both rounds are over: the pod's final places are known."""
        return ranking(self.state) is not None

    @cached_property
    def rows(self) -> tuple[Row, ...]:
        """Every player's standing in the pod, as a pod game ranks it."""
        played: dict[str, list[tuple[Assignment, TableReport | None]]] = {}
        for assignment, report in zip(self.groups, self.reports):
            for name in assignment.players:
                played.setdefault(name, []).append((assignment, report))
        return tuple(self._row(row, played.get(row.name, [])) for row in standings(self.state))

    def _row(self, row: Standing, mine: list[tuple[Assignment, TableReport | None]]) -> Row:
        picks = 0
        left: list[tuple[float | None, float | None]] = []
        for assignment, report in mine:
            at = (
                None
                if report is None
                else next((b.at for b in report.left if row.name in b.players), None)
            )
            started = None if report is None else report.clock_started
            left.append((at, at - started if at is not None and started is not None else None))
            if report is not None and report.picks:
                picks += report.picks[assignment.players.index(row.name)]
        return Row(
            pod=self.pod,
            place=row.place,
            name=row.name,
            groups=row.groups,
            tables=tuple(a.table for a, _ in mine),
            status=row.status,
            left_round=row.left_round,
            picks=picks,
            left=tuple(left),
        )


@dataclass(frozen=True)
class EventView:
    """The event as the reports received tell it, pod by pod (see ``fold``)."""

    plan: EventPlan
    #: Each pod as folded, pod 1 first; the next fold takes those without news as they are.
    folds: tuple[PodFold, ...]

    @cached_property
    def groups(self) -> tuple[Assignment, ...]:
        """Every group known so far: round 1's as drawn, then round 2's of each pod whose round 1
        is over (the order a table plays its groups in)."""
        return (*self.plan.groups, *(a for f in self.folds for a in f.groups if a.round == 2))

    @cached_property
    def reports(self) -> Mapping[tuple[int, int, str], TableReport]:
        """The report that counts for each group, by (pod, round, group)."""
        return {a.key: r for f in self.folds for a, r in zip(f.groups, f.reports) if r is not None}

    @cached_property
    def pods(self) -> tuple[GameState, ...]:
        """Each pod as one game (its groups and who left them), pod 1 first."""
        return tuple(f.state for f in self.folds)

    def report(self, assignment: Assignment) -> TableReport | None:
        return self.folds[assignment.pod - 1].report(assignment.key)

    def round_two(self, pod: int) -> tuple[Assignment, ...]:
        """A pod's round-2 groups in play (none before its round 1 is over)."""
        return tuple(a for a in self.folds[pod - 1].groups if a.round == 2)

    def done(self, assignment: Assignment) -> bool:
        """Whether a group's game is over (a group of one has nothing to play)."""
        pod = self.folds[assignment.pod - 1].state.conspiracy
        assert pod is not None
        if len(pod.rounds) < assignment.round:
            return False
        return next(g.done for g in pod.rounds[assignment.round - 1] if g.label == assignment.group)

    def time_left(self, assignment: Assignment, now: float) -> float | None:
        """Seconds left of the round at the table that plays ``assignment`` (negative once the
        time is up), by its report: None before its clock started, after time was called (the
        extra turns are counted at the table) and once the group is over."""
        report = self.report(assignment)
        if (
            report is None
            or report.clock_started is None
            or report.time_called is not None
            or self.done(assignment)
        ):
            return None
        return report.clock_started + round_seconds(self.plan.options) - now

    def assignments(self, table: str) -> list[Assignment]:
        """The groups ``table`` plays, in the order it plays them; a group of one plays nothing."""
        return [a for a in self.groups if a.table == table and len(a.players) > 1]

    def current(self, table: str) -> Assignment | None:
        """The group ``table`` plays now: its first group not over yet."""
        return next((a for a in self.assignments(table) if not self.done(a)), None)

    def table_state(self, table: str) -> TableState:
        playing = self.current(table)
        waiting = playing is None and any(
            table in self.plan.round2_tables[f.pod - 1] and not f.drawn for f in self.folds
        )
        return TableState(table, playing, waiting, playing is None and not waiting)

    def tables(self) -> list[TableState]:
        return [self.table_state(table) for table in self.plan.tables]

    def queued(self) -> list[tuple[Assignment, str]]:
        """Groups waiting behind another at their table, not begun, each with a table that has
        nothing left to play and could take it (the organiser may move it there)."""
        free = [t.table for t in self.tables() if t.finished]
        waiting = [
            a
            for t in self.plan.tables
            for a in self.assignments(t)[1:]
            if a != self.current(t) and not self.done(a) and self.report(a) is None
        ]
        return [(a, table) for a, table in zip(waiting, free)]

    @property
    def finished(self) -> bool:
        """Every pod's two rounds are over: the event's final ranks are known."""
        return all(f.finished for f in self.folds)

    def rows(self) -> list[Row]:
        """Every player's standing, pod by pod, each pod's as a pod game ranks it."""
        return [row for f in self.folds for row in f.rows]


def _drawn(
    plan: EventPlan, index: int, round_one: tuple[GroupRecord, ...]
) -> tuple[Assignment, ...]:
    """CJ-3: a pod's round 2 as its round 1 draws it, from the plan's seed (the same groups on
    every gadget), at the pod's round-2 tables (winners' group at the first)."""
    names = plan.pods[index]
    drawn = round_two(round_one, Random(f"{plan.seed}:{index + 1}"), by_seat=True)
    return tuple(
        Assignment(
            pod=index + 1,
            round=2,
            group=g.label,
            players=tuple(names[s] for s in g.order),
            table=plan.round2_table(index + 1, g.label),
        )
        for g in drawn.groups
    )


def _begun(pod: int, latest: Mapping[Slot, TableReport]) -> tuple[Assignment, ...] | None:
    """The round 2 a pod's tables have begun, as their round-2 reports carry it: the draw most
    of them name (of as many, the first by its text, so every gadget picks the same)."""
    draws: dict[tuple[Assignment, ...], int] = {}
    for (key, table, _), report in latest.items():
        if key[1] == 2 and any(
            a.key == key and a.table == table and a.players == report.players for a in report.draw
        ):
            draws[report.draw] = draws.get(report.draw, 0) + 1
    if not draws:
        return None
    return max(draws, key=lambda d: (draws[d], "".join(a.model_dump_json() for a in d)))


def _round_two(
    plan: EventPlan,
    pod: int,
    drawn: tuple[Assignment, ...] | None,
    latest: Mapping[Slot, TableReport],
) -> tuple[tuple[Assignment, ...] | None, tuple[Assignment, ...] | None]:
    """A pod's round 2 in play, and the correction waiting for the organiser (see ``PodFold``).

    Round 2 is the draw of round 1 as it stands, until the tables begin it; then it stays as
    begun, whatever a later correction of round 1 would draw, until the organiser rules
    (``Redraw``): a correction restarts no game by itself."""

    def moved(groups: tuple[Assignment, ...] | None) -> tuple[Assignment, ...] | None:
        # Every draw compared at the tables the organiser moved groups to.
        return groups if groups is None else tuple(plan.moved(a) for a in groups)

    drawn = moved(drawn)
    ruling = plan.redraw(pod)
    if ruling is not None:
        groups = moved(ruling.groups)
        return groups, None if drawn in (groups, moved(ruling.basis)) else drawn or ()
    begun = moved(_begun(pod, latest))
    if begun is None:
        return drawn, None
    return begun, None if drawn == begun else drawn or ()


def _fold_pod(plan: EventPlan, index: int, latest: Mapping[Slot, TableReport]) -> PodFold:
    """CJ-3 for one pod: its round-1 groups with what their tables reported, and once they are
    all done, round 2 drawn from the plan's seed (the same groups on every gadget) with its own;
    once begun, round 2 stays as begun until the organiser rules on a correction of round 1.
    A group's report is its own table's newest (the furthest of its gadgets'), if it is about
    the group's players."""
    pod = index + 1
    seats = {name: seat for seat, name in enumerate(plan.pods[index])}
    accounts: dict[tuple[tuple[int, int, str], str], list[TableReport]] = {}
    for (key, table, _), account in latest.items():
        accounts.setdefault((key, table), []).append(account)

    def counts(assignment: Assignment) -> TableReport | None:
        fitting = [
            r for r in accounts.get((assignment.key, assignment.table), ()) if r.fits(assignment)
        ]
        chosen = plan.counts(assignment.table)
        named = next((r for r in fitting if r.gadget == chosen), None) if chosen else None
        return named or furthest(fitting)

    def played(
        known: Sequence[Assignment],
    ) -> tuple[list[TableReport | None], tuple[GroupRecord, ...]]:
        reports = [counts(a) for a in known]
        return reports, tuple(_record(a, r, seats) for a, r in zip(known, reports))

    groups = [plan.moved(a) for a in plan.groups if a.pod == pod]
    counted, round_one = played(groups)
    rounds = [round_one]
    drawn = _drawn(plan, index, round_one) if all(g.done for g in round_one) else None
    second, pending = _round_two(plan, pod, drawn, latest)
    if second is not None:
        reports, records = played(second)
        groups += second
        counted += reports
        rounds.append(records)
    return PodFold(
        pod, latest, tuple(groups), tuple(counted), _pod_state(plan, pod, tuple(rounds)), pending
    )


def fold(
    plan: EventPlan, reports: Iterable[TableReport], previous: EventView | None = None
) -> EventView:
    """The event from the plan and the reports received, in any order, repeats and stale ones
    included: of each table's reports of a group from one gadget the newest replaces every
    earlier one (as the broker keeps only a topic's last, so a gadget that connects later folds
    the same); of two gadgets' accounts the furthest counts (``furthest``), if it fits the group
    (from the table that plays it, about its players).

    ``previous``, a fold of the same plan, is where ``reports`` are added to: they are the news
    since, and only the pods they are about are folded again, so a message costs the same however
    many tables play: ``fold(plan, b, fold(plan, a))`` is ``fold(plan, a + b)``."""
    base = (
        previous.folds
        if previous is not None and (previous.plan is plan or previous.plan == plan)
        else None
    )
    news: dict[int, dict[Slot, TableReport]] = {}
    for report in reports:
        if report.plan != plan.id or not 1 <= report.pod <= len(plan.pods):
            continue
        index = report.pod - 1
        slot = (report.key, report.table, report.gadget)
        latest = news.get(index)
        held = (latest if latest is not None else base[index].latest if base else {}).get(slot)
        if not supersedes(report, held):
            continue
        if latest is None:
            latest = news[index] = dict(base[index].latest) if base else {}
        latest[slot] = report
    if previous is not None and base is not None and not news:
        return previous  # nothing new: the same view, and nothing on a screen to draw again
    return EventView(
        plan,
        tuple(
            _fold_pod(plan, index, news[index])
            if index in news
            else base[index]
            if base
            else _fold_pod(plan, index, {})
            for index in range(len(plan.pods))
        ),
    )
