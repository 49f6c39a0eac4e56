"""Console commands for Conspiracy events and the Group Game Draft (SPEC section 5)."""

from __future__ import annotations

import csv
import io
import json
import math
from datetime import datetime
from pathlib import Path

from device.console.core import CommandTable, Console, command
from device.errors import IllegalCommand
from device.event_link import EventSession
from device.rules.conspiracy.play import (
    Standing,
    event_games,
    event_message,
    event_pods,
    group_active,
    standings,
    table_group,
    time_left,
)
from device.rules.conspiracy.tables import EventView, TableState
from device.rules.conspiracy.commands import (
    CallTime,
    FinishExtraTurns,
    LeaveGroup,
    PassGroupTurn,
    StartClock,
)
from device.state import GameState
from device.text import Message, Plural, Text, listing

TEXTS: dict[str, Text] = {
    "consp.export_type": "Export to a .csv or .json file; {path!r} is neither.",
    "consp.export_failed": "Cannot write {path}: {problem}.",
}
TEXTS.update(
    {
        # the event's pods, the groups, the standings, time and the export
        "console.consp.pod": "Pod {n}:",
        "console.consp.round": "Round {round}:",
        "console.consp.left": "{name} (left)",
        "console.consp.group": "  {group}: {seats}",
        "console.consp.group_done": "  {group}: {seats} — finished",
        "console.consp.standing": "{place}  {name}  ({groups}; {status})",
        "console.consp.then": "{first} → {then}",
        "console.consp.placed": "placed",
        "console.consp.playing": "playing",
        "console.consp.left_round": "left round {round}",
        "console.consp.minutes_left": Plural(
            "{n} minute(s) left in round {round}.", "{n} minute(s) left in round {round}."
        ),
        "console.consp.wrote": Plural(
            "Wrote {n} result(s) to {path}.", "Wrote {n} result(s) to {path}."
        ),
        # an event played across tables
        "console.consp.event_pod": "Event {event}, pod {pod}:",
        "console.consp.event_tables": "Event {event}, its tables:",
        "console.consp.offline": "{table} (offline)",
        "console.consp.gadgets": "{table} (gadgets {gadgets}; counted: {counts})",
        "console.consp.furthest": "the furthest",
        "console.consp.table_playing": "{table}: pod {pod}, {group} (round {round}): {players}",
        "console.consp.table_waiting": "{table}: waiting for round 2",
        "console.consp.table_done": "{table}: done",
    }
)


@command(
    "event",
    "event NAME PLAYER PLAYER… [OPTION=VALUE…]",
    "Start a Conspiracy event: split the players into pods (CJ-1) in the order given, and start one "
    "pod game per pod; each draws its groups at random (CJ-2). 'games' and 'load' switch pods.",
)
def _event(console: Console, args: list[str]) -> None:
    names = [a for a in args if "=" not in a]
    options = dict(a.split("=", 1) for a in args if "=" in a)
    if not names:
        raise console.usage("event")
    if len(names) < 4:  # the event's name and at least three players
        raise IllegalCommand("consp.too_few", count=len(names) - 1)
    event, players = names[0], names[1:]
    games = event_games(event, players, options)
    console.say(event_message(event, [len(game.players) for game in games]))
    for i, game in enumerate(games):
        console.say(Message("console.consp.pod", n=i + 1))
        console.execute(game)


@command(
    "groups",
    "groups",
    "The current round's groups in turn order, whose turn it is and who has left (CJ-3).",
)
def _groups(console: Console, args: list[str]) -> None:
    state = console.state
    consp = state.conspiracy
    if consp is None:
        raise IllegalCommand("consp.not_conspiracy")
    console.say(Message("console.consp.round", round=consp.round))
    for group in consp.groups:
        seats: list[str | Message] = []
        for seat in group.order:
            name = ("*" if seat == group_active(state, group) else "") + state.player(seat).name
            seats.append(Message("console.consp.left", name=name) if seat in group.gone else name)
        key = "console.consp.group_done" if group.done else "console.consp.group"
        console.say(Message(key, group=_group(group.label), seats=listing(seats, "text.list")))


def _group(name: str) -> Message:
    """A group's title (Group 1, Winners' group…) in the console's language."""
    return Message(f"consp.group.{name}")


def _status(row: Standing) -> Message:
    """A standing's status in the console's language."""
    if row.left_round is not None:
        return Message("console.consp.left_round", round=row.left_round)
    return Message(f"console.consp.{row.status}")


@command(
    "turn", "turn PLAYER", "It is now PLAYER's turn in their group (the groups play at once; CJ-5)."
)
def _turn(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("turn")
    console.execute(PassGroupTurn(seat=console.seat(args[0])))


@command(
    "out",
    "out PLAYER [PLAYER…]",
    "These players left their group's game at the same moment (CJ-4).",
)
def _out(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("out")
    console.execute(LeaveGroup(seats=tuple(console.seat(a) for a in args)))


# A pod's round clock (CJ-5) is read and started by the console's clock commands, every game's
# ``clock`` and ``time`` (device/console/clock.py): in a pod they mean the round's clock.


def round_clock(console: Console) -> None:
    """``clock`` in a pod: start the round's clock (CJ-5; time_limit= minutes, 75 by default)."""
    console.execute(StartClock(now=console.controller.clock()))


def round_time(console: Console) -> None:
    """``time`` in a pod: the minutes left in the round; when time is up, call time and start the
    extra turns (CJ-5)."""
    now = console.controller.clock()
    left = time_left(console.state, now)
    if left is not None and left > 0:
        console.say(
            Message(
                "console.consp.minutes_left",
                n=math.ceil(left / 60),
                round=console.state.conspiracy.round,  # type: ignore[union-attr]
            )
        )
        return
    console.execute(CallTime(now=now))


@command(
    "finish",
    "finish GROUP",
    "GROUP's extra turns are over: rank its players still in by life (CJ-5).",
)
def _finish(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("finish")
    console.execute(FinishExtraTurns(group=" ".join(args)))


def _session(console: Console) -> EventSession:
    if console.event is None:
        raise IllegalCommand("consp.net.no_broker")
    return console.event


def _view(console: Console) -> EventView | None:
    """The event across tables this gadget joined, when it has one and its draw has come."""
    session = console.event
    if session is None or not session.joined:
        return None
    view = session.view
    if view is None:
        raise IllegalCommand("consp.net.no_plan", event=session.joined)
    return view


@command(
    "host",
    "host NAME PLAYER PLAYER… [tables=TABLE,TABLE…] [OPTION=VALUE…]",
    "Organise a Conspiracy event played across tables: split the players into pods and draw the round-1 "
    "groups (CJ-1, CJ-2) for the tables connected to the broker (or those named), and publish the draw; each "
    "table's gadget then plays its group.",
)
def _host(console: Console, args: list[str]) -> None:
    session = _session(console)
    names = [a for a in args if "=" not in a]
    options = dict(a.split("=", 1) for a in args if "=" in a)
    tables = [t for t in options.pop("tables", "").split(",") if t]
    if not names:
        raise console.usage("host")
    if len(names) < 4:  # the event's name and at least three players
        raise IllegalCommand("consp.too_few", count=len(names) - 1)
    console.follow(session.host(names[0], names[1:], tables, options))


@command(
    "join",
    "join [EVENT]",
    "Join an event played across tables as this gadget's table (named in the configuration): it plays the "
    "groups the event gives it. Without EVENT: the event joined and what this table plays.",
)
def _join(console: Console, args: list[str]) -> None:
    session = _session(console)
    if args:
        console.follow(session.join(" ".join(args)))
        return
    if not session.joined:
        raise IllegalCommand("consp.net.no_event")
    view = _view(console)
    assert view is not None
    console.say(_table_line(session, view, view.table_state(session.table)))


@command(
    "round2",
    "round2 POD redraw|keep",
    "The organiser's ruling when round 1 of pod POD was corrected after its round 2 began: redraw round 2 from "
    "round 1 as corrected (only the groups whose players or seating change start anew), or keep round 2 as drawn.",
)
def _round2(console: Console, args: list[str]) -> None:
    session = _session(console)
    if len(args) != 2 or not args[0].isdigit() or args[1] not in ("redraw", "keep"):
        raise console.usage("round2")
    console.follow(session.rule(int(args[0]), args[1] == "redraw"))


@command(
    "move",
    "move POD GROUP TABLE",
    "The organiser's ruling: pod POD's group GROUP (1, 2, winners or losers), not begun yet, is played at TABLE, "
    "which plays nothing now, not at the table drawn.",
)
def _move(console: Console, args: list[str]) -> None:
    session = _session(console)
    if len(args) != 3 or not args[0].isdigit():
        raise console.usage("move")
    console.follow(session.move(int(args[0]), args[1].casefold(), args[2]))


@command(
    "count",
    "count TABLE [GADGET]",
    "The organiser's ruling at a table reported by more than one gadget: GADGET's accounts count; without "
    "GADGET, the account that went furthest (as before any ruling). 'tables' names the gadgets.",
)
def _count(console: Console, args: list[str]) -> None:
    session = _session(console)
    if len(args) not in (1, 2):
        raise console.usage("count")
    console.follow(session.count(args[0], args[1] if len(args) == 2 else ""))


@command(
    "roundclock",
    "roundclock 1|2",
    "The organiser starts round 1's (or 2's) clock for every table of the event it drew: each table's clock "
    "starts when it hears it, a group that starts later when its game does; this gadget announces ten minutes "
    "left and time up (CJ-5), and round 2's start, to every table.",
)
def _roundclock(console: Console, args: list[str]) -> None:
    session = _session(console)
    if len(args) != 1 or args[0] not in ("1", "2"):
        raise console.usage("roundclock")
    for result in session.start_clock(int(args[0])):
        console.show(result)


@command(
    "tables",
    "tables",
    "An event played across tables: the group each table plays, which wait or are done, "
    "and which are offline.",
)
def _tables(console: Console, args: list[str]) -> None:
    session = _session(console)
    view = _view(console)
    if view is None:
        raise IllegalCommand("consp.net.no_event")
    console.say(Message("console.consp.event_tables", event=view.plan.event))
    for table in view.tables():
        console.say(_table_line(session, view, table))


def _table_line(session: EventSession, view: EventView, table: TableState) -> Message:
    name: str | Message = table.table
    if not session.heard.online.get(
        table.table, table.table == session.table and session.connected
    ):
        name = Message("console.consp.offline", table=table.table)
    gadgets = session.heard.gadgets(table.table)
    if len(gadgets) > 1:
        ruled = view.plan.counts(table.table)
        name = Message(
            "console.consp.gadgets",
            table=name,
            gadgets=", ".join(gadgets),
            counts=ruled or Message("console.consp.furthest"),
        )
    playing = table.playing
    if playing is not None:
        return Message(
            "console.consp.table_playing",
            table=name,
            pod=playing.pod,
            round=playing.round,
            group=_group(playing.group),
            players=listing(list(playing.players), "text.list"),
        )
    return Message(
        "console.consp.table_waiting" if table.waiting else "console.consp.table_done", table=name
    )


def _event_rows(view: EventView) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for row in view.rows():
        found: dict[str, object] = {
            "event": view.plan.event,
            "pod": row.pod,
            "place": row.place,
            "player": row.name,
        }
        for index in range(2):
            group = row.groups[index] if index < len(row.groups) else ""
            at, into = row.left[index] if index < len(row.left) else (None, None)
            found |= {
                f"round{index + 1}": group,
                f"round{index + 1}_table": row.tables[index] if group else "",
                f"round{index + 1}_left_at": "" if at is None else local_time(at),
                f"round{index + 1}_left_after": "" if into is None else round(into / 60, 1),
            }
        rows.append(found | {"status": row.status, "rumble_picks": row.picks})
    return rows


def local_time(at: float) -> str:
    """A table's time stamp in this gadget's time zone, with its offset (2026-05-02T15:04:05+02:00)."""
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


def _rows(state: GameState, game: int | None) -> list[dict[str, object]]:
    return [
        {
            "event": state.options.get("event", ""),
            "pod": state.options.get("pod", 1),
            "game": game,
            "place": row.place,
            "player": row.name,
            "round1": row.groups[0] if row.groups else "",
            "round2": row.groups[1] if len(row.groups) > 1 else "",
            "status": row.status,
            "rumble_picks": state.conspiracy.picks[row.seat] if state.conspiracy else 0,
        }
        for row in standings(state)
    ]


@command(
    "standings",
    "standings",
    "Places so far: the winners' group first, then the losers' (CJ-3, CJ-4, CJ-5); "
    "at an event played across tables, every pod's.",
)
def _standings(console: Console, args: list[str]) -> None:
    view = _view(console)
    if view is None:
        for row in standings(console.state):
            _say_standing(console, row)
        return
    for index, pod_state in enumerate(view.pods):
        console.say(Message("console.consp.event_pod", event=view.plan.event, pod=index + 1))
        for row in standings(pod_state):
            _say_standing(console, row)


def _say_standing(console: Console, row: Standing) -> None:
    place = f"{row.place:>2}" if row.place is not None else " -"
    groups: str | Message = ""
    for name in row.groups:
        groups = (
            _group(name)
            if groups == ""
            else Message("console.consp.then", first=groups, then=_group(name))
        )
    console.say(
        Message(
            "console.consp.standing", place=place, name=row.name, groups=groups, status=_status(row)
        )
    )


@command(
    "export",
    "export FILE",
    "Write the results to FILE (.csv or .json): this pod, or every pod of its event.",
)
def _export(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("export")
    path = Path(args[0])
    view = _view(console)
    if view is not None:
        _write(console, path, view.plan.event, _event_rows(view))
        return
    state = console.state
    controller = console.controller
    rows = _rows(state, controller.game)
    event = state.options.get("event", "")
    if event and controller.game is not None and not table_group(state):
        saved = {info.id: controller.journal.state(info.id) for info in controller.games()}
        options = {
            game: other.options for game, other in saved.items() if other.conspiracy is not None
        }
        rows = []
        for game in event_pods(options, controller.game):
            rows += _rows(saved[game], game)
    _write(console, path, event, rows)


def _write(console: Console, path: Path, event: object, rows: list[dict[str, object]]) -> None:
    """The results as ``path``'s suffix says: a JSON object with the event's name, or a CSV table."""
    suffix = path.suffix.casefold()
    if suffix == ".json":
        text = json.dumps({"event": event, "results": rows}, ensure_ascii=False, indent=2)
    elif suffix == ".csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(
            buffer, fieldnames=list(rows[0]) if rows else ["player"], lineterminator="\n"
        )
        writer.writeheader()
        writer.writerows(rows)
        text = buffer.getvalue()
    else:
        raise IllegalCommand("consp.export_type", path=str(path))
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise IllegalCommand(
            "consp.export_failed", path=str(path), problem=error.strerror or str(error)
        ) from None
    console.say(Message("console.consp.wrote", n=len(rows), path=str(path)))


COMMANDS = CommandTable(
    (
        _event,
        _groups,
        _turn,
        _out,
        _finish,
        _standings,
        _export,
        _host,
        _join,
        _round2,
        _move,
        _count,
        _roundclock,
        _tables,
    ),
    texts="console.consp",
    english=TEXTS,
)
TEXTS.update(COMMANDS.help_texts())
