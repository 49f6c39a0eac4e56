"""Console commands for Conspiracy events and the Group Game Draft (SPEC section 5)."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

from device.console.core import CommandTable, Console, command
from device.errors import IllegalCommand
from device.rules.conspiracy import event_games, event_message, event_pods, label, standings, time_left
from device.rules.conspiracy.commands import (
    CallTime,
    FinishExtraTurns,
    LeaveGroup,
    PassGroupTurn,
    StartClock,
)
from device.state import GameState
from device.text import register as register_texts

register_texts(
    {
        "consp.export_type": "Export to a .csv or .json file; {path!r} is neither.",
        "consp.export_failed": "Cannot write {path}: {problem}.",
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
        console.say(f"Pod {i + 1}:")
        console.execute(game)


@command("groups", "groups", "The current round's groups in turn order, whose turn it is and who has left (CJ-3).")
def _groups(console: Console, args: list[str]) -> None:
    state = console.state
    consp = state.conspiracy
    if consp is None:
        raise IllegalCommand("consp.not_conspiracy")
    console.say(f"Round {consp.round}:")
    for group in consp.groups:
        seats = []
        for seat in group.order:
            mark = "*" if seat == group.active else ""
            out = " (left)" if seat in group.gone else ""
            seats.append(f"{mark}{state.player(seat).name}{out}")
        done = " — finished" if group.done else ""
        console.say(f"  {label(group.label)}: {', '.join(seats)}{done}")


@command("turn", "turn PLAYER", "It is now PLAYER's turn in their group (the groups play at once; CJ-5).")
def _turn(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("turn")
    console.execute(PassGroupTurn(seat=console.seat(args[0])))


@command("out", "out PLAYER [PLAYER…]", "These players left their group's game at the same moment (CJ-4).")
def _out(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("out")
    console.execute(LeaveGroup(seats=tuple(console.seat(a) for a in args)))


@command("clock", "clock", "Start the round's clock (CJ-5; time_limit= minutes, 75 by default).")
def _clock(console: Console, args: list[str]) -> None:
    console.execute(StartClock(now=console.controller.clock()))


@command("time", "time", "Minutes left in the round; when time is up, call time and start the extra turns (CJ-5).")
def _time(console: Console, args: list[str]) -> None:
    now = console.controller.clock()
    left = time_left(console.state, now)
    if left is not None and left > 0:
        console.say(f"{math.ceil(left / 60)} minute(s) left in round {console.state.conspiracy.round}.")  # type: ignore[union-attr]
        return
    console.execute(CallTime(now=now))


@command("finish", "finish GROUP", "GROUP's extra turns are over: rank its players still in by life (CJ-5).")
def _finish(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("finish")
    console.execute(FinishExtraTurns(group=" ".join(args)))


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


@command("standings", "standings", "Places so far: the winners' group first, then the losers' (CJ-3, CJ-4, CJ-5).")
def _standings(console: Console, args: list[str]) -> None:
    state = console.state
    for row in standings(state):
        place = f"{row.place:>2}" if row.place is not None else " -"
        console.say(f"{place}  {row.name}  ({' → '.join(label(g) for g in row.groups)}; {row.status})")


@command(
    "export",
    "export FILE",
    "Write the results to FILE (.csv or .json): this pod, or every pod of its event.",
)
def _export(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("export")
    path = Path(args[0])
    state = console.state
    controller = console.controller
    rows = _rows(state, controller.game)
    event = state.options.get("event", "")
    if event and controller.game is not None:
        saved = {info.id: controller.journal.state(info.id) for info in controller.games()}
        options = {game: other.options for game, other in saved.items() if other.conspiracy is not None}
        rows = []
        for game in event_pods(options, controller.game):
            rows += _rows(saved[game], game)
    suffix = path.suffix.casefold()
    if suffix == ".json":
        text = json.dumps({"event": event, "results": rows}, ensure_ascii=False, indent=2)
    elif suffix == ".csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["player"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        text = buffer.getvalue()
    else:
        raise IllegalCommand("consp.export_type", path=str(path))
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise IllegalCommand("consp.export_failed", path=str(path), problem=error.strerror or str(error)) from None
    console.say(f"Wrote {len(rows)} result(s) to {path}.")


COMMANDS = CommandTable((_event, _groups, _turn, _out, _clock, _time, _finish, _standings, _export))
