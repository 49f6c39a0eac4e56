"""Console commands for the counters Commander tables track, in any game that counts life:
``monarch``, ``initiative``, ``day``, ``night``, ``energy``, ``experience``, ``rad`` and
``blessing``; ``show`` lists them.  Each change is saved, undoable and in the log."""

from __future__ import annotations

from device.console.core import CommandTable, Console, command, number
from device.rules.counters import (
    BecomeMonarch,
    ChangeCounter,
    GainBlessing,
    MakeDayNight,
    TakeInitiative,
    counters,
    game_title,
    games,
    marks,
)
from device.state import GameState, Player
from device.state_counters import Counter, DayNight
from device.text import Message, Plural, Text, fold

TEXTS: dict[str, Text] = {
    # show: a player's marks, and the table's day or night
    "console.counters.show.monarch": "monarch",
    "console.counters.show.initiative": "the initiative",
    "console.counters.show.blessing": "the city's blessing",
    "console.counters.show.energy": Plural("{n} energy", "{n} energy"),
    "console.counters.show.experience": Plural("{n} experience", "{n} experience"),
    "console.counters.show.rad": Plural("{n} rad", "{n} rad"),
    "console.counters.show.day": "It is day.",
    "console.counters.show.night": "It is night.",
    "console.counters.show.day_in": "{group}: it is day.",
    "console.counters.show.night_in": "{group}: it is night.",
}

NONE = ("none", "nobody", "no one")


def _holder(console: Console, args: list[str], name: str) -> tuple[int | None, int | None]:
    """``NAME PLAYER`` (who takes it) or ``NAME none [PLAYER]`` (nobody, in PLAYER's group)."""
    if args and fold(args[0]) in NONE and len(args) <= 2:
        return None, console.seat(args[1]) if len(args) == 2 else None
    if len(args) != 1:
        raise console.usage(name)
    return console.seat(args[0]), None


@command(
    "monarch",
    "monarch PLAYER|none [PLAYER]",
    "PLAYER becomes the monarch (at most one; they draw a card at their end step). 'none' takes it back: "
    "in a Conspiracy pod name a player of the group. When the monarch leaves the game, the active player "
    "becomes the monarch.",
)
def _monarch(console: Console, args: list[str]) -> None:
    seat, group_of = _holder(console, args, "monarch")
    console.execute(BecomeMonarch(seat=seat, group_of=group_of))


@command(
    "initiative",
    "initiative PLAYER|none [PLAYER]",
    "PLAYER takes the initiative and ventures into Undercity (again, if they have it). 'none' takes it back, "
    "as for the monarch. When its holder leaves the game, the active player takes it.",
)
def _initiative(console: Console, args: list[str]) -> None:
    seat, group_of = _holder(console, args, "initiative")
    console.execute(TakeInitiative(seat=seat, group_of=group_of))


def _time(console: Console, args: list[str], day_night: DayNight) -> None:
    if len(args) > 1:
        raise console.usage(day_night.value)
    console.execute(
        MakeDayNight(day_night=day_night, group_of=console.seat(args[0]) if args else None)
    )


@command("day", "day [PLAYER]", "It becomes day; in a Conspiracy pod, in PLAYER's group.")
def _day(console: Console, args: list[str]) -> None:
    _time(console, args, DayNight.DAY)


@command("night", "night [PLAYER]", "It becomes night; in a Conspiracy pod, in PLAYER's group.")
def _night(console: Console, args: list[str]) -> None:
    _time(console, args, DayNight.NIGHT)


def _count(console: Console, args: list[str], counter: Counter) -> None:
    if len(args) != 2:
        raise console.usage(counter.value)
    console.execute(
        ChangeCounter(seat=console.seat(args[0]), counter=counter, delta=number(args[1]))
    )


@command("energy", "energy PLAYER +N|-N", "PLAYER gets (+N) or pays (-N) energy counters.")
def _energy(console: Console, args: list[str]) -> None:
    _count(console, args, Counter.ENERGY)


@command(
    "experience", "experience PLAYER +N|-N", "PLAYER gets (+N) or loses (-N) experience counters."
)
def _experience(console: Console, args: list[str]) -> None:
    _count(console, args, Counter.EXPERIENCE)


@command(
    "rad",
    "rad PLAYER +N|-N",
    "PLAYER gets (+N) or loses (-N) rad counters; at their main phase they mill that many.",
)
def _rad(console: Console, args: list[str]) -> None:
    _count(console, args, Counter.RAD)


@command(
    "blessing", "blessing PLAYER", "PLAYER gets the city's blessing, for the rest of the game."
)
def _blessing(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("blessing")
    console.execute(GainBlessing(seat=console.seat(args[0])))


def _show_marks(state: GameState, player: Player) -> tuple[list[str | Message], int]:
    """``show``: the monarch, the initiative, the city's blessing and the counters of a player
    still in the game."""
    if state.counters is None or not player.in_game:
        return [], 0
    found: list[str | Message] = []
    marked = marks(state, player.seat)
    if marked.monarch == player.seat:
        found.append(Message("console.counters.show.monarch"))
    if marked.initiative == player.seat:
        found.append(Message("console.counters.show.initiative"))
    mine = counters(state).player(player.seat)
    if mine.blessing:
        found.append(Message("console.counters.show.blessing"))
    for counter in Counter:
        if mine.count(counter):
            found.append(Message(f"console.counters.show.{counter.value}", n=mine.count(counter)))
    return found, 0


def _show_time(state: GameState) -> list[str | Message]:
    """``show``: whether it is day or night (in a pod, in each group where it is either)."""
    if state.counters is None:
        return []
    playing = games(state)
    lines: list[str | Message] = []
    for game in playing:
        time = counters(state).game(game).day_night
        if time is None:
            continue
        group = game_title(state, game)
        if group is not None and len(playing) > 1:
            lines.append(Message(f"console.counters.show.{time.value}_in", group=group))
        else:
            lines.append(Message(f"console.counters.show.{time.value}"))
    return lines


COMMANDS = CommandTable(
    (_monarch, _initiative, _day, _night, _energy, _experience, _rad, _blessing),
    texts="console.counters",
    show_marks=(_show_marks,),
    show_lines=(_show_time,),
    english=TEXTS,
)
TEXTS.update(COMMANDS.help_texts())
