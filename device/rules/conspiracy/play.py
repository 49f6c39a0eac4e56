"""Conspiracy events (SPEC section 5, CJ-1..CJ-8) and the Group Game Draft (CJ-7).

The model an organiser runs on one gadget:

- An event of N players is split into pods (``pod_sizes``, CJ-1); each pod is one saved game of
  the base format ``conspiracy``, with the pod's players (3–10).  A pod's set-up draws its round-1
  groups at random (CJ-2) and stores the draw in ``RoundStarted``.
- Each group plays as a normal game inside the pod's saved game: every player is in exactly one
  group per round, so life, poison and the who-dealt-what ledger are the core's.  Turns are kept
  per group (``PassGroupTurn``), because the groups play at the same time at different tables.
- Losses are recorded per group in the order they happen; losses in one command happened at the
  same moment (CJ-4).  A group of g plays round 1 until g // 2 players have left (4 → 2, as in
  the article; 3 → 1; 5 → 2).  Then round 2: everyone who stayed forms the winners' group,
  everyone who left the losers' group, seated at random; both play to the last player (CJ-3).
  Ranks: the winners' group first (last standing first, then in reverse order of leaving), then
  the losers' group the same way.
- The clock (CJ-5) is a parameter: commands carry the controller's time.  When time runs out each
  group gets one more lap from its active player; the players still in are then ranked by life.
- A Group Game Draft (base format ``ggd``) is one table that plays to the last player, with the
  Rumble rule (CJ-8); a pod may switch the Rumble rule on as a table option.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random

from device.commands import Command, NewGame
from device.errors import IllegalCommand
from device.events import Event, LifeChanged, PlayerLost, TurnPassed
from device.formats import Format, TableOption, title
from device.rules.conspiracy.commands import (
    CallTime,
    FinishExtraTurns,
    LeaveGroup,
    PassGroupTurn,
    StartClock,
)
from device.rules.conspiracy.events import (
    ClockStarted,
    GroupLeft,
    GroupRankedByLife,
    GroupTurnPassed,
    RoundStarted,
    RumblePickEarned,
    TimeCalled,
)
from device.rules.registry import Group, Rules
from device.rules.table import check_seat, round_from, start
from device.state import GameState, LossReason, Outcome
from device.rules.conspiracy.state import ConspiracyState, GroupRecord
from device.text import Message, Plural, Text, fold

RULES = Rules("conspiracy")

POD = RULES.format(
    # Two players only at one table of an event across tables (a round-2 group of 2, CJ-3); a
    # whole pod has at least POD_MIN, which its set-up checks.
    Format(
        "conspiracy",
        "Conspiracy pod",
        "base",
        starting_life=20,
        min_players=2,
        max_players=10,
        aliases=("conspiracy-pod",),
        # the groups play at several tables at once, their turns reported rather than passed
        # (the round has a clock of its own, CJ-5)
        turns=False,
    )
)
DRAFT = RULES.format(
    Format(
        "ggd",
        "Group Game Draft",
        "base",
        starting_life=20,
        min_players=3,
        max_players=6,
        aliases=("group-game-draft", "rumble"),
    )
)
RULES.option(TableOption("time_limit", POD.name, "minutes per round (CJ-5)", 75, low=60, high=90))
RULES.option(
    TableOption(
        "attack_left", POD.name, "players may attack only the player on their left (CJ-6)", False
    )
)
RULES.option(
    TableOption(
        "range_of_influence",
        POD.name,
        "range of influence (CJ-6): unlimited, or 1 (only neighbours)",
        "unlimited",
        choices=("unlimited", "1"),
    )
)
RULES.option(
    TableOption(
        "rumble", POD.name, "the Rumble rule: a sideboard pick per 20 life taken (CJ-8)", False
    )
)
RULES.option(TableOption("event", POD.name, "the event's name, shared by all its pods", ""))
RULES.option(TableOption("pod", POD.name, "this pod's number in the event", 1, low=1, high=99))
# An event played at several tables (``device.rules.conspiracy.tables``): each table's game is one
# group of one round, and these say which.
RULES.option(
    TableOption(
        "group",
        POD.name,
        "the group this table plays at an event across tables (set by the event)",
        "",
        choices=("1", "2", "winners", "losers"),
    )
)
RULES.option(
    TableOption(
        "round", POD.name, "the round this table's group plays (set by the event)", 1, low=1, high=2
    )
)

RUMBLE_STEP = 20  # CJ-8
POD_MIN = 3  # CJ-1: an event, and a pod, has at least 3 players
POD_MAX = 10  # CJ-1: at most 10 players draft at one table
POD_BEST = 8
POD_MIN_BESIDE_EIGHTS = 6  # a pod next to pods of 8 is split into two groups of at least 3

TEXTS: dict[str, Text] = {
    "consp.group.1": "Group 1",
    "consp.group.2": "Group 2",
    "consp.group.winners": "Winners' group",
    "consp.group.losers": "Losers' group",
    "consp.group.table": "The table",
    "consp.round1": "Round 1, groups drawn at random: {groups}. Sit in the order shown; the first "
    "named goes first. Each group plays until {leave} left. Time limit: {minutes}.{options}",
    "consp.round2": "Round 2: {groups}. Sit in the order shown; the first named goes first. Both "
    "groups play to the last player.",
    "consp.round1_table": "Round 1, drawn at random: {groups}. Sit in the order shown; the first named "
    "goes first. The group plays until {leave} left. Time limit: {minutes}.{options}",
    "consp.round2_table": "Round 2: {groups}. Sit in the order shown; the first named goes first. The "
    "group plays to the last player. Time limit: {minutes}.{options}",
    "consp.draft": "Group Game Draft for {count}: 4 packs each (the 4th passes to the right, like "
    "the 2nd); one table, free-for-all, every other player is your opponent; the first mulligan "
    "is free; the first player draws; 20 life; last one standing wins. Rumble rule: each 20 life "
    "your sources make opponents lose earns a sideboard card in the command zone, free to cast.",
    "consp.options": " Table options: {options}.",
    "consp.attack_left": "attack left only",
    "consp.range_one": "range of influence 1",
    "consp.rumble_on": "Rumble rule",
    "consp.left_r1": "{group}: {names} left ({count} of {target} for round 1).",
    "consp.done_r1": "{group}: {names} left; round 1 is over for this group: {stay} go to the "
    "winners' group.",
    "consp.left_place": "{group}: {names} left: {places}.",
    "consp.won_group": "{group}: {names} left: {places}. {winner} is last standing: {place}.",
    "consp.left_table": "{group}: {names} left.",
    "consp.won_table": "{group}: {names} left. {winner} is last standing: the group's game is over.",
    "consp.by_life": "{group}: the extra turns are over; ranked by life: {ranking}.",
    "consp.by_life_r1": "{group}: the extra turns are over; by life {stay} go to the winners' "
    "group, {go} to the losers' group.",
    "consp.turn": "{group}: {name}'s turn.",
    "consp.lap_turn": "{group}: {name}'s turn (extra turns after time).",
    "consp.clock": "Round {round}'s clock is running: {minutes}.",
    "consp.minutes": Plural("{n} minute", "{n} minutes"),
    "consp.time": "Time! Extra turns: in each group still playing, starting with the active "
    "player, one more lap until it is that player's turn again; then the players still in are "
    "ranked by life ({laps}).",
    "consp.lap_from": "{group} from {name}",
    "consp.lap_unknown": "{group}: say whose turn it is as turns pass, or end its extra turns after the lap",
    "consp.rumble": "Rumble: {name}'s sources have made opponents lose {total} life: pick {pick} — put "
    "a sideboard card into the command zone; it may be cast for free.",
    "consp.not_pod": "This is not a Conspiracy pod; start one with 'new conspiracy …'.",
    "consp.not_conspiracy": "This is not a Conspiracy game.",
    "consp.draft_turns": "A Group Game Draft is one table: pass the turn with 'next'.",
    "consp.table_turns": "This table plays one group of the event: pass the turn with 'next'.",
    "consp.player_left": "{name} has left {group}'s game already.",
    "consp.group_done": "{group} has finished round {round}; round {next} starts when every group "
    "has finished.",
    "consp.pod_done": "{group} has finished its game.",
    "consp.other_group": "{source} and {target} play in different groups.",
    "consp.clock_running": "Round {round}'s clock is running already.",
    "consp.no_clock": "The clock is not running: start it with 'clock' when the round begins.",
    "consp.not_yet": Plural(
        "Time is not up yet: {minutes} minute left.",
        "Time is not up yet: {minutes} minutes left.",
        "minutes",
    ),
    "consp.time_called": "Time has been called already in round {round}.",
    "consp.no_such_group": "There is no group {name!r} now; groups: {groups}.",
    "consp.time_first": "Time has not been called in round {round}: the players play on.",
    "consp.leave_count": "Name the players who left at the same time, each once.",
    "consp.already_out": "{name} has left already.",
    "consp.won_reason": "the pod's two rounds are over",
    # Pieces the messages above are built from, so each language joins and words them its way.
    "consp.in_group.1": "group 1",
    "consp.in_group.2": "group 2",
    "consp.in_group.winners": "winners' group",
    "consp.in_group.losers": "losers' group",
    "consp.in_group.table": "the table",
    "consp.seated": "{group}: {names}",
    "consp.leave_of": "{count} of {size}",
    "consp.placed": "{name} {place}",
    "consp.with_life": "{name} ({life})",
    "consp.nth.st": "{n}st",
    "consp.nth.nd": "{n}nd",
    "consp.nth.rd": "{n}rd",
    "consp.nth.th": "{n}th",
    "consp.comma": "{first}, {rest}",
    "consp.semicolon": "{first}; {rest}",
    "consp.or": "{first} or {rest}",
    "consp.and": "{first} and {last}",
}


# --- pods and groups (CJ-1) -----------------------------------------------------------------


def _even(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + 1] * extra + [base] * (parts - extra)


def pod_sizes(players: int) -> list[int]:
    """CJ-1: pod sizes for an event of ``players``, largest first.

    The fewest pods of at most 10; as many of them exactly 8 as possible, provided every other pod
    keeps 6–10 players; otherwise the players are split evenly (11 → 6, 5; 13 → 7, 6).  This
    reproduces the article's table for 3–17 and goes on the same way (18 → 10, 8; 21 → 8, 7, 6).
    """
    if players < POD_MIN:
        raise IllegalCommand("consp.too_few", count=players)
    count = math.ceil(players / POD_MAX)
    for eights in range(count, -1, -1):
        rest, others = players - POD_BEST * eights, count - eights
        if rest < 0:
            continue
        if others == 0:
            if rest == 0:
                return [POD_BEST] * eights
            continue
        sizes = _even(rest, others)
        if all(POD_MIN_BESIDE_EIGHTS <= s <= POD_MAX for s in sizes):
            return sorted([POD_BEST] * eights + sizes, reverse=True)
    return _even(players, count)


def group_sizes(pod: int) -> list[int]:
    """CJ-1: a pod of 3–5 is one group; larger pods are two groups of 3–5 (7 → 3 + 4)."""
    return [pod] if pod <= 5 else [pod // 2, pod - pod // 2]


def pods(names: list[str]) -> list[list[str]]:
    """The event's players in pods, filled in the order given (the organiser seats the draft)."""
    out: list[list[str]] = []
    at = 0
    for size in pod_sizes(len(names)):
        out.append(names[at : at + size])
        at += size
    return out


TEXTS.update(
    {
        "consp.too_few": "An event needs at least 3 players; {count} given.",
        "consp.event": Plural(
            "Event {event}: {count} player in {pods}: {split}.",
            "Event {event}: {count} players in {pods}: {split}.",
            "count",
        ),
        "consp.pods": Plural("{n} pod", "{n} pods"),
        "consp.pod_split": "pod {pod}: {size} ({groups})",
        "consp.plus": "{first} + {rest}",
        "consp.event_twice": "{name} is named twice in the event.",
    }
)

#: The table options an event sets on each of its pods (or tables); a set-up form does not ask for them.
EVENT_OPTIONS = ("event", "pod", "group", "round")


def table_group(state: GameState) -> str:
    """The group this game plays when it is one table of an event played across tables ("1",
    "winners" …), or "" for a whole pod on one gadget and for a Group Game Draft."""
    return str(state.options.get("group", "")) if state.has(POD.name) else ""


def group_active(state: GameState, group: GroupRecord) -> int | None:
    """Whose turn it is in ``group``: the table's active player where the group is the whole
    table's game (its turns pass with NEXT), else what the tables last reported."""
    if not table_group(state):
        return group.active
    # A player who left while it was their turn hands it on: the next one still in plays.
    return next(
        (seat for seat in round_from(state, state.active) if state.player(seat).in_game),
        state.active,
    )


def one_table(state: GameState) -> bool:
    """The game is played at one table, turns passing there with NEXT: a Group Game Draft, or one
    group of an event played across tables."""
    consp = state.conspiracy
    return consp is not None and (consp.draft or bool(table_group(state)))


def event_games(
    event: str,
    players: Sequence[str],
    options: Mapping[str, str] | None = None,
    modules: Sequence[str] = (),
) -> list[NewGame]:
    """CJ-1: the NewGame of each pod of an event, pod 1 first: the players split with ``pods`` in
    the order given, each pod a game of the base format ``conspiracy`` (with ``modules``, if any)
    with the event's name, its pod number and the event's table options.

    Every pod's players are checked before any game starts (names, the options), and a name may
    not be in two pods, so an event either starts whole or not at all.
    """
    seen: set[str] = set()
    for name in players:
        key = fold(" ".join(name.split()))
        if key and key in seen:
            raise IllegalCommand("consp.event_twice", name=name)
        seen.add(key)
    games = [
        NewGame(
            formats=(POD.name, *modules),
            players=tuple(pod),
            options={**(options or {}), "event": event, "pod": str(i + 1)},
        )
        for i, pod in enumerate(pods(list(players)))
    ]
    for game in games:
        start(game, Random(0))  # the table's own checks; raises before anything is kept
    return games


def event_message(event: str, split: Sequence[int]) -> Message:
    """What an event's start says: each pod's size and its round-1 groups (CJ-1)."""
    parts: list[str | Message] = [
        Message(
            "consp.pod_split",
            pod=i + 1,
            size=size,
            groups=joined([str(g) for g in group_sizes(size)], "consp.plus"),
        )
        for i, size in enumerate(split)
    ]
    return Message(
        "consp.event",
        event=event,
        count=sum(split),
        pods=Message("consp.pods", n=len(split)),
        split=joined(parts, "consp.semicolon"),
    )


def event_pods(games: Mapping[int, Mapping[str, object]], current: int) -> list[int]:
    """The saved games of ``current``'s event, pod 1 first, from each game's table options.

    An event's pods are started one after another, so its games are a run of game numbers that
    begins with pod 1; an event name used again later starts a run of its own.  A table's game at
    an event played across tables (its ``group`` set) is one group, not a pod: it stands alone.
    """
    mine = games.get(current)
    if mine is None or not mine.get("event") or mine.get("group"):
        return [current]
    runs: list[list[int]] = []
    for game in sorted(games):
        options = games[game]
        if options.get("event") != mine.get("event") or options.get("group"):
            continue
        pod = int(str(options.get("pod", 1)))
        if pod == 1 or not runs or pod != len(runs[-1]) + 1:
            runs.append([])
        runs[-1].append(game)
    return next((run for run in runs if current in run), [current])


# --- commands and events --------------------------------------------------------------------


# --- ranking (CJ-3, CJ-4, CJ-5) -------------------------------------------------------------


def _tiebreak(group: GroupRecord, seats: tuple[int, ...] | list[int]) -> list[int]:
    """CJ-4: of players who left together, the later seat in turn order ranks higher."""
    return sorted(seats, key=lambda s: -group.order.index(s))


def group_order(group: GroupRecord) -> list[int]:
    """The group's players best first, as far as known: those still in (by life after a time-out,
    else in seat order), then those who left, the latest first."""
    head = [s for s, _ in group.by_life] if group.by_life is not None else list(group.remaining)
    tail: list[int] = []
    for batch in reversed(group.left):
        tail += _tiebreak(group, batch)
    return head + tail


def round_one_split(group: GroupRecord) -> tuple[list[int], list[int]]:
    """Who of a finished round-1 group goes to the winners' and who to the losers' group.

    When more players left at one moment than the round needed, the tiebreak (CJ-4) decides which
    of them still go to the winners' group, so the groups keep the sizes the round was made for.
    """
    ranked = group_order(group)
    stay = len(group.order) - group.to_leave
    return ranked[:stay], ranked[stay:]


def ranking(state: GameState) -> list[int] | None:
    """The final ranking, best first, once every game of the last round is over."""
    consp = state.conspiracy
    if consp is None or not consp.groups or not all(g.done for g in consp.groups):
        return None
    if not consp.draft and consp.round < 2:
        return None
    return [seat for group in consp.groups for seat in group_order(group)]


@dataclass(frozen=True)
class Standing:
    place: int | None  # None while undecided
    seat: int
    name: str
    groups: tuple[str, ...]  # the player's group in each round
    status: str  # "placed", "playing" or "left round N", as the export writes it
    left_round: int | None = None  # the round they left in, while their place is not known yet


def standings(state: GameState) -> list[Standing]:
    """Everyone's standing now: places fixed so far, groups per round and what happened."""
    consp = state.conspiracy
    if consp is None:
        raise IllegalCommand("consp.not_conspiracy")
    placed: dict[int, int] = {}
    final = ranking(state)
    if final is not None:
        placed = {seat: i + 1 for i, seat in enumerate(final)}
    elif consp.draft or consp.round == 2:
        offset = 0
        for group in consp.groups:
            if group.done:
                placed.update({seat: offset + i + 1 for i, seat in enumerate(group_order(group))})
            bottom = offset + len(group.order)
            for batch in group.left:
                for seat in reversed(_tiebreak(group, batch)):
                    placed[seat] = bottom
                    bottom -= 1
            offset += len(group.order)
    rows = []
    for player in state.players:
        labels = tuple(g.label for groups in consp.rounds for g in groups if player.seat in g.order)
        current = consp.group_of(player.seat)
        gone = player.seat not in placed and current is not None and player.seat in current.gone
        left = consp.round if gone else None
        status = (
            "placed"
            if player.seat in placed
            else "playing"
            if left is None
            else f"left round {left}"
        )
        rows.append(
            Standing(placed.get(player.seat), player.seat, player.name, labels, status, left)
        )
    return sorted(rows, key=lambda r: (r.place is None, r.place or 0, r.seat))


def label(group: str) -> str:
    return str(Message(f"consp.group.{group}"))


def group_title(group: str) -> Message:
    """A group's name as a message, so each language names it its own way."""
    return Message(f"consp.group.{group}")


def nth(n: int) -> Message:
    """A place (1st, 2nd …) as a message: English picks the suffix, other languages the word."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return Message(f"consp.nth.{suffix}", n=n)


def joined(items: Sequence[str | Message], key: str) -> str | Message:
    """Items joined by the separator message ``key`` ("{first}, {rest}"), each language its own."""
    if not items:
        return ""
    head: str | Message = items[0]
    for item in items[1:]:
        head = Message(key, first=head, rest=item)
    return head


def listed(items: Sequence[str | Message]) -> str | Message:
    """ "A, B and C", as each language lists things."""
    if len(items) <= 1:
        return joined(items, "consp.comma")
    return Message("consp.and", first=joined(items[:-1], "consp.comma"), last=items[-1])


# --- helpers --------------------------------------------------------------------------------


def _consp(state: GameState) -> ConspiracyState:
    if state.conspiracy is None:
        raise IllegalCommand("consp.not_conspiracy")
    return state.conspiracy


def _pod(state: GameState) -> ConspiracyState:
    consp = _consp(state)
    if consp.draft:
        raise IllegalCommand("consp.draft_turns")
    return consp


def _names(state: GameState, seats: tuple[int, ...] | list[int]) -> str | Message:
    return listed([state.player(s).name for s in seats])


def _group_for(state: GameState, consp: ConspiracyState, seat: int) -> GroupRecord:
    group = consp.group_of(seat)
    assert group is not None  # every player of a pod is in one group per round
    if group.done:
        if consp.draft or consp.round == 2:
            raise IllegalCommand("consp.pod_done", group=group_title(group.label))
        raise IllegalCommand(
            "consp.group_done",
            group=group_title(group.label),
            round=consp.round,
            next=consp.round + 1,
        )
    return group


def round_seconds(options: Mapping[str, object]) -> int:
    """How long a round is by a game's (or an event's) options (CJ-5)."""
    return int(str(options.get("time_limit", 75))) * 60


def time_left(state: GameState, now: float) -> float | None:
    """Seconds left in the current round, None without a running clock (CJ-5)."""
    consp = state.conspiracy
    if consp is None or consp.clock_started is None:
        return None
    return consp.clock_started + round_seconds(state.options) - now


def draw_seating(groups: list[tuple[str, list[int], int]], rng: Random) -> tuple[GroupRecord, ...]:
    """Seat each group in a random order (CJ-2); the first seated goes first."""
    out = []
    for name, seats, to_leave in groups:
        order = list(seats)
        rng.shuffle(order)
        out.append(GroupRecord(label=name, order=tuple(order), to_leave=to_leave))
    return tuple(out)


# --- set-up and decisions -------------------------------------------------------------------


@RULES.set_up
def _begin(state: GameState, command: Command, rng: Random) -> list[Event]:
    count = len(state.players)
    if state.formats[0] == DRAFT.name:
        order = tuple((state.starting_player + i) % count for i in range(count))
        group = GroupRecord(
            label="table", order=order, to_leave=count - 1, active=state.starting_player
        )
        return [RoundStarted(round=1, groups=(group,), draft=True)]
    if state.formats[0] != POD.name:
        return []
    label = table_group(state)
    if not label and count < POD_MIN:
        raise IllegalCommand(
            "format.players", title=title(POD), low=POD_MIN, high=POD.max_players, count=count
        )
    if label:
        # One group of an event played across tables, seated as the event drew it: seat 0 first.
        round_ = int(state.options.get("round", 1))
        to_leave = count // 2 if round_ == 1 else count - 1
        group = GroupRecord(
            label=label, order=tuple(range(count)), to_leave=to_leave, active=state.starting_player
        )
        return [RoundStarted(round=round_, groups=(group,))]
    seats = list(range(count))
    rng.shuffle(seats)
    groups, at = [], 0
    for i, size in enumerate(group_sizes(count)):
        groups.append((str(i + 1), seats[at : at + size], size // 2))
        at += size
    return [RoundStarted(round=1, groups=draw_seating(groups, rng))]


@RULES.decides(PassGroupTurn)
def _turn(state: GameState, command: PassGroupTurn, rng: Random) -> list[Event]:
    consp = _pod(state)
    if table_group(state):
        raise IllegalCommand("consp.table_turns")
    player = check_seat(state, command.seat)
    group = _group_for(state, consp, command.seat)
    if command.seat in group.gone:
        raise IllegalCommand("consp.player_left", name=player.name, group=group_title(group.label))
    return [GroupTurnPassed(group=group.label, seat=command.seat)]


@RULES.decides(LeaveGroup)
def _leave(state: GameState, command: LeaveGroup, rng: Random) -> list[Event]:
    consp = _consp(state)
    if not command.seats or len(set(command.seats)) != len(command.seats):
        raise IllegalCommand("consp.leave_count")
    for seat in command.seats:
        player = check_seat(state, seat)
        group = _group_for(state, consp, seat)
        if seat in group.gone or not player.in_game:
            raise IllegalCommand("consp.already_out", name=player.name)
    # In a pod, out of the group's game, not of the event: after round 1 they play on in round
    # 2. A Group Game Draft is one game: out of it is lost.
    reason = LossReason.EFFECT if consp.draft else LossReason.LEFT
    return [PlayerLost(seat=seat, reason=reason) for seat in command.seats]


@RULES.decides(StartClock)
def _clock(state: GameState, command: StartClock, rng: Random) -> list[Event]:
    consp = _pod(state)
    if consp.clock_started is not None:
        raise IllegalCommand("consp.clock_running", round=consp.round)
    return [ClockStarted(at=command.now)]


@RULES.decides(CallTime)
def _call_time(state: GameState, command: CallTime, rng: Random) -> list[Event]:
    consp = _pod(state)
    left = time_left(state, command.now)
    if left is None:
        raise IllegalCommand("consp.no_clock")
    if consp.time_called is not None:
        raise IllegalCommand("consp.time_called", round=consp.round)
    if left > 0:
        raise IllegalCommand("consp.not_yet", minutes=math.ceil(left / 60))
    return [TimeCalled(at=command.now)]


@RULES.decides(FinishExtraTurns)
def _finish(state: GameState, command: FinishExtraTurns, rng: Random) -> list[Event]:
    consp = _pod(state)
    wanted = command.group.strip().casefold()
    matches = [
        g for g in consp.groups if g.label == wanted or label(g.label).casefold().startswith(wanted)
    ]
    if len(matches) != 1:
        raise IllegalCommand(
            "consp.no_such_group",
            name=command.group,
            groups=", ".join(g.label for g in consp.groups),
        )
    group = matches[0]
    if consp.time_called is None:
        raise IllegalCommand("consp.time_first", round=consp.round)
    if group.done:
        raise IllegalCommand("consp.pod_done", group=group_title(group.label))
    return [_by_life(state, group)]


def _by_life(state: GameState, group: GroupRecord) -> GroupRankedByLife:
    """CJ-5: higher life ranks higher; on equal life the later seat in turn order does."""
    still = sorted(group.remaining, key=lambda s: (-state.player(s).life, -group.order.index(s)))
    return GroupRankedByLife(
        group=group.label, ranking=tuple((s, state.player(s).life) for s in still)
    )


def _damage_check(state: GameState, seat: int, source: int | None) -> None:
    """Round games are separate: no damage across groups, none in a finished group's game."""
    consp = state.conspiracy
    if consp is None or consp.draft:
        return
    group = _group_for(state, consp, seat)
    if source is not None and source not in group.order:
        raise IllegalCommand(
            "consp.other_group", source=state.player(source).name, target=state.player(seat).name
        )


RULES.damage_check(_damage_check)


# --- state checks ---------------------------------------------------------------------------


@RULES.state_check
def _losses(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """Record who left which group, together if in one command (CJ-3, CJ-4); start round 2."""
    consp = state.conspiracy
    if consp is None:
        return []
    out: list[Event] = []
    batches: dict[str, list[int]] = {}
    for event in events:
        if isinstance(event, PlayerLost):
            group = consp.group_of(event.seat)
            if group is not None and not group.done and event.seat not in group.gone:
                batches.setdefault(group.label, []).append(event.seat)
    for name, seats in batches.items():
        out.append(GroupLeft(group=name, seats=tuple(seats)))
    after = state
    for event in out:
        after = _apply_left(after, event)  # type: ignore[arg-type]
    ended = any(isinstance(e, GroupLeft | GroupRankedByLife) for e in [*events, *out])
    following = after.conspiracy
    assert following is not None
    # A table's group at an event across tables: round 2 is drawn where every table's results meet.
    if (
        ended
        and not table_group(state)
        and not following.draft
        and following.round == 1
        and all(g.done for g in following.groups)
    ):
        out.append(round_two(following.groups, rng))
    return out


def round_two(groups: Sequence[GroupRecord], rng: Random, by_seat: bool = False) -> RoundStarted:
    """CJ-3: once every round-1 group of a pod is done, everyone who stayed forms the winners'
    group and everyone who left the losers' group, each seated at random.  ``by_seat``: shuffled
    from the pod's seat order rather than the order of leaving, so the draw depends on who goes
    where alone (an event across tables: a correction of who left first draws the same round 2)."""
    winners: list[int] = []
    losers: list[int] = []
    for group in groups:
        stay, go = round_one_split(group)
        winners += stay
        losers += go
    if by_seat:
        winners.sort()
        losers.sort()
    draw = draw_seating(
        [("winners", winners, len(winners) - 1), ("losers", losers, max(0, len(losers) - 1))], rng
    )
    return RoundStarted(round=2, groups=tuple(g for g in draw if g.order))


@RULES.state_check
def _laps(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """CJ-5: a group's extra lap ends when the turn comes back to who was active at time."""
    consp = state.conspiracy
    if consp is None or consp.time_called is None:
        return []
    out: list[Event] = []
    for event in events:
        if isinstance(event, GroupTurnPassed):
            group = next(g for g in consp.groups if g.label == event.group)
            if not group.done and group.lap_moved and event.seat == group.lap_from:
                out.append(_by_life(state, group))
    return out


@RULES.state_check
def _table_laps(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """CJ-5 at a table's group of an event across tables: its turns pass with NEXT, so once time
    is called each turn of the extra lap is the group's turn too, and the lap ends where it should."""
    consp = state.conspiracy
    if consp is None or consp.time_called is None or not table_group(state) or not consp.groups:
        return []
    group = consp.groups[0]
    if group.done or not any(isinstance(e, TurnPassed) for e in events):
        return []
    return [GroupTurnPassed(group=group.label, seat=state.active)]


def rumble_totals(state: GameState) -> list[int]:
    """CJ-8: life each seat's sources have made opponents lose over the whole game (LF-2)."""
    totals = [0] * len(state.players)
    for entry in state.ledger:
        if entry.source is not None and entry.source != entry.target:
            totals[entry.source] += entry.life_lost
    return totals


@RULES.state_check
def _rumble(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """CJ-8: a pick for every further 20 life a player's sources made opponents lose."""
    consp = state.conspiracy
    if consp is None or not (consp.draft or state.options.get("rumble") is True):
        return []
    if not any(isinstance(e, LifeChanged) for e in events):
        return []
    out: list[Event] = []
    for seat, total in enumerate(rumble_totals(state)):
        earned = (total - consp.rumble_base[seat]) // RUMBLE_STEP
        for pick in range(consp.picks[seat] + 1, earned + 1):
            out.append(
                RumblePickEarned(
                    seat=seat, pick=pick, total=consp.rumble_base[seat] + pick * RUMBLE_STEP
                )
            )
    return out


def _outcome(state: GameState) -> Outcome | None:
    final = ranking(state)
    if final is None or table_group(state):
        # A group's game at its table of an event ends with the group, not with a winner: the
        # pod's places come from every table's results (the losers' group's last standing is
        # fifth of eight, and the winners' group may end before the losers' group began).
        return None
    return Outcome(
        winner=final[0], reason=str(Message("consp.won_reason")), said=Message("consp.won_reason")
    )


RULES.outcome(POD.name, _outcome)


# --- what the table's shared rules ask of a pod ---------------------------------------------


@RULES.round_of
def _round(state: GameState) -> int | None:
    """A pod is played in two rounds (CJ-3): a saved one shows the round it reached; a Group
    Game Draft is one table, counted in turns."""
    consp = state.conspiracy
    return consp.round if consp is not None and not consp.draft else None


@RULES.groups
def _groups(state: GameState) -> tuple[Group, ...] | None:
    """A pod's groups each play a game of their own, with its own monarch, initiative and day or
    night (CJ-3); a draft is one table's game."""
    consp = state.conspiracy
    if consp is None or consp.draft:
        return None
    return tuple(
        Group(g.label, group_title(g.label), g.order, g.active, frozenset(g.gone))
        for g in consp.groups
    )


@RULES.starts_anew
def _second_round(event: Event) -> bool:
    """The second round seats new groups: new games, nothing held in the first carried over."""
    return isinstance(event, RoundStarted) and event.round > 1


# --- each event: what it does to the state (apply), and what it says (describe) ---------------


@RULES.applies(RoundStarted)
def _apply_round(state: GameState, event: RoundStarted) -> GameState:
    count = len(state.players)
    base = tuple(rumble_totals(state))
    consp = ConspiracyState(
        draft=event.draft,
        round=event.round,
        rounds=(*(state.conspiracy.rounds if state.conspiracy else ()), event.groups),
        rumble_base=base,
        picks=(0,) * count,
    )
    if event.round == 1:
        return state.model_copy(update={"conspiracy": consp})
    # A new round is a new game for everyone: fresh life and counters.
    players = tuple(
        p.model_copy(
            update={
                "life": state.starting_life,
                "poison": 0,
                "commander_damage": (),
                "lost": None,
                "skip_turns": 0,
            }
        )
        for p in state.players
    )
    return state.model_copy(update={"conspiracy": consp, "players": players})


@RULES.describes(RoundStarted)
def _describe_round(state: GameState, event: RoundStarted) -> Message:
    if event.draft:
        return Message("consp.draft", count=len(state.players))
    shown: list[str | Message] = [Message(key) for key in shown_options(state)]
    options = Message("consp.options", options=joined(shown, "consp.comma")) if shown else ""
    minutes = Message("consp.minutes", n=state.options.get("time_limit", 75))
    table = bool(table_group(state))
    if event.round == 2:
        if table:
            return Message(
                "consp.round2_table",
                groups=_seating(state, event.groups),
                minutes=minutes,
                options=options,
            )
        return Message("consp.round2", groups=_seating(state, event.groups))
    shares = sorted(
        {(g.to_leave, len(g.order)) for g in event.groups}, key=lambda s: f"{s[0]} of {s[1]}"
    )
    leave = joined([Message("consp.leave_of", count=c, size=n) for c, n in shares], "consp.or")
    key = "consp.round1_table" if table else "consp.round1"
    return Message(
        key, groups=_seating(state, event.groups), leave=leave, minutes=minutes, options=options
    )


def _apply_left(state: GameState, event: GroupLeft) -> GameState:
    consp = _consp(state)
    group = next(g for g in consp.groups if g.label == event.group)
    group = group.model_copy(update={"left": (*group.left, event.seats)})
    return state.model_copy(update={"conspiracy": consp.with_group(group)})


RULES.applies(GroupLeft)(_apply_left)


@RULES.applies(GroupTurnPassed)
def _apply_turn(state: GameState, event: GroupTurnPassed) -> GameState:
    consp = _consp(state)
    group = next(g for g in consp.groups if g.label == event.group)
    update: dict[str, object] = {"active": event.seat}
    if group.lap_from is not None and event.seat != group.lap_from:
        update["lap_moved"] = True
    return state.model_copy(
        update={"conspiracy": consp.with_group(group.model_copy(update=update))}
    )


@RULES.describes(GroupTurnPassed)
def _describe_turn(state: GameState, event: GroupTurnPassed) -> Message:
    consp = _consp(state)
    key = "consp.lap_turn" if consp.time_called is not None else "consp.turn"
    return Message(key, group=group_title(event.group), name=state.player(event.seat).name)


@RULES.applies(ClockStarted)
def _apply_clock(state: GameState, event: ClockStarted) -> GameState:
    return state.model_copy(
        update={"conspiracy": _consp(state).model_copy(update={"clock_started": event.at})}
    )


@RULES.describes(ClockStarted)
def _describe_clock(state: GameState, event: ClockStarted) -> Message:
    return Message(
        "consp.clock",
        round=_consp(state).round,
        minutes=Message("consp.minutes", n=state.options.get("time_limit", 75)),
    )


@RULES.applies(TimeCalled)
def _apply_time(state: GameState, event: TimeCalled) -> GameState:
    consp = _consp(state)
    for group in consp.groups:
        if not group.done:
            consp = consp.with_group(
                group.model_copy(
                    update={"lap_from": group_active(state, group), "lap_moved": False}
                )
            )
    return state.model_copy(
        update={"conspiracy": consp.model_copy(update={"time_called": event.at})}
    )


@RULES.describes(TimeCalled)
def _describe_time(state: GameState, event: TimeCalled) -> Message:
    laps: list[str | Message] = []
    for group in _consp(state).groups:
        if group.done:
            continue
        active = group_active(state, group)
        if active is None:
            laps.append(Message("consp.lap_unknown", group=group_title(group.label)))
        else:
            laps.append(
                Message(
                    "consp.lap_from", group=group_title(group.label), name=state.player(active).name
                )
            )
    return Message("consp.time", laps=joined(laps, "consp.semicolon"))


@RULES.applies(GroupRankedByLife)
def _apply_by_life(state: GameState, event: GroupRankedByLife) -> GameState:
    consp = _consp(state)
    group = next(g for g in consp.groups if g.label == event.group)
    group = group.model_copy(update={"by_life": event.ranking})
    return state.model_copy(update={"conspiracy": consp.with_group(group)})


@RULES.describes(GroupRankedByLife)
def _describe_by_life(state: GameState, event: GroupRankedByLife) -> Message:
    consp = _consp(state)
    title = group_title(event.group)
    if not consp.draft and consp.round == 1:
        group = next(g for g in consp.groups if g.label == event.group).model_copy(
            update={"by_life": event.ranking}
        )
        stay, go = round_one_split(group)
        return Message(
            "consp.by_life_r1", group=title, stay=_names(state, stay), go=_names(state, go)
        )
    ranking_text = joined(
        [
            Message("consp.with_life", name=state.player(s).name, life=life)
            for s, life in event.ranking
        ],
        "consp.comma",
    )
    return Message("consp.by_life", group=title, ranking=ranking_text)


@RULES.applies(RumblePickEarned)
def _apply_pick(state: GameState, event: RumblePickEarned) -> GameState:
    consp = _consp(state)
    picks = list(consp.picks)
    picks[event.seat] = max(picks[event.seat], event.pick)
    return state.model_copy(update={"conspiracy": consp.model_copy(update={"picks": tuple(picks)})})


@RULES.describes(RumblePickEarned)
def _describe_pick(state: GameState, event: RumblePickEarned) -> Message:
    return Message(
        "consp.rumble", name=state.player(event.seat).name, total=event.total, pick=event.pick
    )


# --- descriptions ---------------------------------------------------------------------------


def _seating(state: GameState, groups: tuple[GroupRecord, ...]) -> str | Message:
    return joined(
        [
            Message(
                "consp.seated",
                group=Message(f"consp.in_group.{g.label}"),
                names=joined([state.player(s).name for s in g.order], "consp.comma"),
            )
            for g in groups
        ],
        "consp.semicolon",
    )


def shown_options(state: GameState) -> list[str]:
    """CJ-6: the text keys of the table options in force that players must be told about."""
    keys = []
    if state.options.get("attack_left") is True:
        keys.append("consp.attack_left")
    if state.options.get("range_of_influence") == "1":
        keys.append("consp.range_one")
    if state.options.get("rumble") is True:
        keys.append("consp.rumble_on")
    return keys


@RULES.describes(GroupLeft)
def _describe_left(state: GameState, event: GroupLeft) -> Message:
    names = _names(state, event.seats)
    after = _apply_left(state, event).conspiracy
    assert after is not None
    group = next(g for g in after.groups if g.label == event.group)
    title = group_title(group.label)
    if not after.draft and after.round == 1:
        if group.done:
            stay, _ = round_one_split(group)
            return Message("consp.done_r1", group=title, names=names, stay=_names(state, stay))
        return Message(
            "consp.left_r1", group=title, names=names, count=len(group.gone), target=group.to_leave
        )
    if table_group(state):
        # One group of a pod: its places in the pod come from every table's results, not from here.
        if group.done and group.remaining:
            return Message(
                "consp.won_table",
                group=title,
                names=names,
                winner=state.player(group.remaining[0]).name,
            )
        return Message("consp.left_table", group=title, names=names)
    rows = {r.seat: r.place for r in standings(_apply_left(state, event))}
    ordered = list(reversed(_tiebreak(group, event.seats)))
    places = joined(
        [
            Message("consp.placed", name=state.player(s).name, place=nth(rows[s] or 0))
            for s in ordered
        ],
        "consp.comma",
    )
    if group.done and group.remaining:
        winner = group.remaining[0]
        return Message(
            "consp.won_group",
            group=title,
            names=names,
            places=places,
            winner=state.player(winner).name,
            place=nth(rows[winner] or 0),
        )
    return Message("consp.left_place", group=title, names=names, places=places)


RULES.says(TEXTS)
