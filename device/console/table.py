"""The commands every game has: starting one, turns (TB-…), life and poison (LF-…), cards and tags,
undo and redo, the history, saved games, ``help`` and ``quit``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from device.catalog import Catalog, load_catalog
from device.commands import (
    CastCommander,
    ChangeLife,
    ChangePoison,
    ChooseColour,
    Concede,
    DealCommanderDamage,
    Lose,
    NameCommanders,
    NewGame,
    PassTurn,
    ReverseTurnOrder,
    SetLife,
    SkipTurns,
)
from device.console.core import CommandTable, Console, card_text, command, number
from device.controller import Controller
from device.errors import IllegalCommand, UnknownName
from device.rules.colours import colour_name, colour_of
from device.rules.life import commander_names, commander_tax, dealt_lines
from device.rules.teams import team_name, teamed, teams, turn_name
from device.state import STATE_SCHEMA, GameState, Step
from device.text import Message, Plural, Text, fold, sentences
from device.rules.registry import Ruleset, outcome

TEXTS: dict[str, Text] = {
    "console.life_sign": "Say +{n} (gain), -{n} (lose) or ={n} (set {name}'s life to {n}).",
    "console.positive": "'{command}' takes an amount above 0; {text!r} given. For the other way use '{other}'.",
    "console.no_commander": "{name} has no commander {text!r}; their commanders: {commanders}.",
    "console.count": "Say how many times, from 1 to 100; {text!r} given.",
    "console.bad_uid": "{problem}.",
    "console.skips": Plural("skips {n} turn", "skips {n} turns", "n"),
    "console.not_format": "{word!r} is not a format; did you mean {format!r}? To seat a player called "
    "{word}, start with a format: {line}.",
    # show: the turn line, each player's (and in Two-Headed Giant each team's) line and marks
    "console.show.upkeep": "Turn {turn}: {name}'s upkeep{reversed}.",
    "console.show.main": "Turn {turn}: {name}'s main phase{reversed}.",
    "console.show.reversed": ", turn order reversed",
    "console.show.player": "{mark} {name}: {life} life",
    "console.show.marked": "{line}  ({marks})",
    "console.show.more": "{first}; {rest}",
    "console.show.poison": Plural("{n} poison", "{n} poison"),
    "console.show.commander": "{n} from {commander}",
    "console.show.tax": "commander tax {tax}",
    "console.show.tax_of": "commander tax {tax} for {commander}",
    "console.show.lost": "lost: {reason}",
    "console.show.team": "Team {team}: {life} life",
    "console.show.team_poison": Plural(
        "Team {team}: {life} life, {n} poison", "Team {team}: {life} life, {n} poison"
    ),
    # dealt, log, deleting a game and the start-up line (device.console.session)
    "console.log.undone": "{text}  (undone)",
    "console.delete.ask": "Game {game}: {title} ({progress}). Deleting it cannot be undone; to delete it, type "
    "'delete {game} yes'.",
    "console.resumed": "Resumed game {id}: {title} (turn {turn}).",
    "console.colour.line": "{name}: {colour}",
}


@command(
    "new",
    "new [FORMAT[+MODULE…]] PLAYER PLAYER… [life=N] [first=NAME|random] [colours=C,C,…] [OPTION=VALUE…]",
    "Start a game (TB-1, TB-2, TB-5). Formats: ffa (20 life, the default), duel, commander (40); "
    "+2hg plays Two-Headed Giant, teams of two adjacent seats (TB-6). "
    "Without first=, the gadget draws the starting player at random. colours= gives the players' colours "
    "in seat order (a seat left out keeps its own). A first word that looks like a misspelt "
    "format is questioned; to seat a player called that, start with the format (new ffa comander Alice).",
)
def _new(console: Console, args: list[str]) -> None:
    formats: tuple[str, ...] = ()
    players: list[str] = []
    options: dict[str, str] = {}
    life: int | None = None
    first: str | None = None
    colours: tuple[str, ...] = ()
    for i, arg in enumerate(args):
        if "=" in arg:
            key, _, value = arg.partition("=")
            if key.casefold() == "life":
                life = number(value)
            elif key.casefold() == "first":
                first = None if value.casefold() == "random" else value
            elif key.casefold() in ("colours", "colors"):
                colours = tuple(c.strip() for c in value.split(","))
            else:
                options[key] = value
        elif i == 0 and _format_word(arg, args):
            formats = tuple(arg.split("+"))
        else:
            players.append(arg)
    console.execute(
        NewGame(
            formats=formats,
            players=tuple(players),
            starting_life=life,
            first=first,
            options=options,
            colours=colours,
        )
    )


def _format_word(word: str, args: list[str]) -> bool:
    """Whether the first word of ``new`` names the formats.  A word that is no format but looks
    like a slip of one ("comander") is questioned rather than seated as a player; so is a
    ``+`` combination with any format in it ("commander+planchase")."""
    from device.rules.registry import close_format, find_format

    parts = word.split("+")
    unknown = [part for part in parts if not _is_format(part, find_format)]
    if not unknown:
        return True
    if len(parts) > 1 and (len(unknown) < len(parts) or any(close_format(part) for part in parts)):
        for part in unknown:
            find_format(part)  # says there is no such format, and which one it may be
    meant = close_format(word)
    if meant is not None:
        line = " ".join(["new", "ffa", *(f'"{arg}"' if " " in arg else arg for arg in args)])
        raise IllegalCommand("console.not_format", word=word, format=meant, line=line)
    return False


def _is_format(name: str, find: Callable[[str], object]) -> bool:
    try:
        find(name)
    except IllegalCommand:
        return False
    return True


@command(
    "next",
    "next",
    "NEXT: from upkeep go to the main phase; from the main phase pass the turn (TB-3).",
    ("n",),
)
def _next(console: Console, args: list[str]) -> None:
    # The NEXT button's meaning, so a module that binds NEXT (Wizard's Duel) gets it here too.
    from device.inputs import Button, ButtonPressed

    result = console.controller.press(ButtonPressed(Button.NEXT))
    if result is not None:
        console.show(result)


@command("pass", "pass", "Pass the turn now to the next player in turn order (TB-3).")
def _pass(console: Console, args: list[str]) -> None:
    console.execute(PassTurn())


@command("reverse", "reverse", "Reverse the turn order (TB-4).")
def _reverse(console: Console, args: list[str]) -> None:
    console.execute(ReverseTurnOrder())


@command("skip", "skip PLAYER [N]", "PLAYER skips their next N turns (default 1) (TB-3).")
def _skip(console: Console, args: list[str]) -> None:
    if len(args) not in (1, 2):
        raise console.usage("skip")
    console.execute(
        SkipTurns(seat=console.seat(args[0]), turns=number(args[1]) if len(args) == 2 else 1)
    )


@command(
    "life",
    "life PLAYER +N|-N|=N [from SOURCE]",
    "Change a player's life by N, or set it to N, recording who caused it (LF-1, LF-2).",
    ("l",),
)
def _life(console: Console, args: list[str]) -> None:
    rest, source = console.source(args, "life")
    if len(rest) != 2:
        raise console.usage("life")
    seat = console.seat(rest[0])
    if rest[1].startswith("="):
        console.execute(SetLife(seat=seat, life=number(rest[1][1:]), source=source))
    elif rest[1].startswith(("+", "-")):
        console.execute(ChangeLife(seat=seat, delta=number(rest[1]), source=source))
    else:  # a bare number could mean gain it or set to it: ask
        raise IllegalCommand(
            "console.life_sign", n=number(rest[1]), name=console.state.player(seat).name
        )


def _amount(text: str, command: str, other: str) -> int:
    """The life points 'damage' and 'gain' take: a number above 0 (the other command does the
    other way)."""
    amount = number(text)
    if amount <= 0:
        raise IllegalCommand("console.positive", command=command, text=text, other=other)
    return amount


@command("damage", "damage PLAYER N [from SOURCE]", "PLAYER loses N life (LF-2).", ("dmg",))
def _damage(console: Console, args: list[str]) -> None:
    rest, source = console.source(args, "damage")
    if len(rest) != 2:
        raise console.usage("damage")
    console.execute(
        ChangeLife(
            seat=console.seat(rest[0]), delta=-_amount(rest[1], "damage", "gain"), source=source
        )
    )


@command("gain", "gain PLAYER N [from SOURCE]", "PLAYER gains N life (LF-2).")
def _gain(console: Console, args: list[str]) -> None:
    rest, source = console.source(args, "gain")
    if len(rest) != 2:
        raise console.usage("gain")
    console.execute(
        ChangeLife(
            seat=console.seat(rest[0]), delta=_amount(rest[1], "gain", "damage"), source=source
        )
    )


@command(
    "poison",
    "poison PLAYER +N|-N [from SOURCE]",
    "Add or remove poison counters; 10 loses (LF-1).",
    ("p",),
)
def _poison(console: Console, args: list[str]) -> None:
    rest, source = console.source(args, "poison")
    if len(rest) != 2:
        raise console.usage("poison")
    console.execute(ChangePoison(seat=console.seat(rest[0]), delta=number(rest[1]), source=source))


@command(
    "commander",
    "commander PLAYER N from SOURCE[/COMMANDER]",
    "PLAYER takes N combat damage from SOURCE's commander: life goes down by N and 21 from one "
    "commander loses (LF-1). Name which commander when SOURCE has partners.",
    ("cmd",),
)
def _commander(console: Console, args: list[str]) -> None:
    lowered = [a.casefold() for a in args]
    if len(args) != 4 or lowered[2] != "from":
        raise console.usage("commander")
    owner_text, _, which = args[3].partition("/")
    source = console.seat(owner_text)
    index = _which(console, source, which)
    console.execute(
        DealCommanderDamage(
            seat=console.seat(args[0]), source=source, commander=index, amount=number(args[1])
        )
    )


def _which(console: Console, seat: int, which: str) -> int | None:
    """The index of the commander of ``seat`` that ``which`` names: its number (1 or 2) or the
    start of its name; None when nothing is said (the rules ask which, if it matters)."""
    if not which:
        return None
    names = commander_names(console.state.player(seat))
    matches = [i for i, name in enumerate(names) if fold(name).startswith(fold(which))]
    if which.isdigit() and 1 <= int(which) <= len(names):
        return int(which) - 1
    if len(matches) == 1:
        return matches[0]
    raise IllegalCommand(
        "console.no_commander",
        name=console.state.player(seat).name,
        text=which,
        commanders=", ".join(names),
    )


@command(
    "commanders",
    "commanders PLAYER NAME [+ NAME]",
    "Name a player's commander, or both partners with + between them, so their damage is counted "
    "separately (LF-1). Commas are part of a name: commanders Bob Kraum, Ludevic's Opus + Tymna the Weaver.",
)
def _commanders(console: Console, args: list[str]) -> None:
    # "+" separates partners: printed names have commas ("Thrasios, Triton Hero"), spaces and
    # "&" ("Minsc & Boo, Timeless Heroes"), but no commander's name has a "+".
    if len(args) < 2:
        raise console.usage("commanders")
    console.execute(
        NameCommanders(seat=console.seat(args[0]), commanders=tuple(" ".join(args[1:]).split("+")))
    )


@command(
    "tax",
    "tax PLAYER [COMMANDER] [+N|-N]",
    "PLAYER cast their commander from the command zone: its commander tax goes up by 2 (CR 903.8). "
    "Name which one (its number or the start of its name) when PLAYER has partners: each has its own tax. "
    "-1 takes back a cast counted by mistake.",
)
def _tax(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("tax")
    seat = console.seat(args[0])
    rest, amount = args[1:], 1
    if rest and rest[-1][:1] in ("+", "-") and rest[-1][1:].isdigit():
        amount = number(rest[-1])
        rest = rest[:-1]
    console.execute(
        CastCommander(seat=seat, commander=_which(console, seat, " ".join(rest)), amount=amount)
    )


@command("concede", "concede PLAYER", "PLAYER concedes and leaves the game (LF-3).")
def _concede(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("concede")
    console.execute(Concede(seat=console.seat(args[0])))


@command(
    "lose",
    "lose PLAYER [from SOURCE]",
    "PLAYER loses to a card or rule the gadget does not count (LF-1).",
)
def _lose(console: Console, args: list[str]) -> None:
    rest, source = console.source(args, "lose")
    if len(rest) != 1:
        raise console.usage("lose")
    console.execute(Lose(seat=console.seat(rest[0]), source=source))


def _count(console: Console, args: list[str], name: str) -> int:
    if not args:
        return 1
    if len(args) > 1:
        raise console.usage(name)
    try:
        count = int(args[0])
    except ValueError:
        count = 0
    if not 1 <= count <= 100:
        raise IllegalCommand("console.count", text=args[0])
    return count


@command(
    "card",
    "card NAME",
    "A physical card was turned over or tapped: name it as printed (a unique start is enough) "
    "and the gadget does what tapping it on the reader would (PC-12, CT-6).",
)
def _card(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("card")
    text = card_text(" ".join(args))
    expected = expected_cards(console.controller.rules, console.controller.state)
    try:
        card = expected.find(text)
    except UnknownName as error:
        if not error.key.startswith("catalog.unknown_") or expected is load_catalog():
            raise
        # A card the game does not expect now is still named, so the bindings can say it has no
        # part here; a name no card has is refused in the words of what the game expects.
        try:
            card = load_catalog().find(text)
        except UnknownName:
            raise error from None
    console.show(console.controller.identify(card))


def expected_cards(rules: Ruleset, state: GameState | None) -> Catalog:
    """The cards a tap or a ``card`` line can mean now, as the game's formats say
    (``Ruleset.expected_cards``): what the table waits for, else the kinds its formats use — so
    "Lightning Bolt" is no card of theirs — else any card."""
    catalog = load_catalog()
    if state is None:
        return catalog
    expected = rules.expected_cards(state)
    return catalog if expected is None else expected


@command(
    "tag",
    "tag UID",
    "A tag was read: what the reader would report, for trying the tag map without a reader.",
)
def _tag(console: Console, args: list[str]) -> None:
    from device.inputs import normalise_uid

    if len(args) != 1:
        raise console.usage("tag")
    try:
        uid = normalise_uid(args[0])
    except ValueError as error:
        raise IllegalCommand("console.bad_uid", problem=str(error)) from None
    console.show(console.controller.tag(uid))


@command(
    "undo",
    "undo [N]",
    "Take back the last change (or the last N); it can be redone (LF-4).",
    ("u",),
)
def _undo(console: Console, args: list[str]) -> None:
    for _ in range(_count(console, args, "undo")):
        console.show(console.controller.undo())


@command("redo", "redo [N]", "Put back the last undone change (or N of them).")
def _redo(console: Console, args: list[str]) -> None:
    for _ in range(_count(console, args, "redo")):
        console.show(console.controller.redo())


@command(
    "colour",
    "colour [PLAYER COLOUR]",
    "Choose PLAYER's colour (its name, or a unique start of it: red, blue, green, yellow, purple, orange, teal, "
    "pink, white, brown); a player who had it takes PLAYER's. Without arguments, everyone's colour.",
    ("color",),
)
def _colour(console: Console, args: list[str]) -> None:
    state = console.state
    if not args:
        for player in state.players:
            console.say(
                Message(
                    "console.colour.line", name=player.name, colour=colour_name(colour_of(player))
                )
            )
        return
    if len(args) < 2:
        raise console.usage("colour")
    console.execute(ChooseColour(seat=console.seat(" ".join(args[:-1])), colour=args[-1]))


@command(
    "show", "show", "The table at a glance: turn, whose upkeep or turn it is, everyone's life."
)
def _show(console: Console, args: list[str]) -> None:
    state = console.state
    reversed_ = "" if state.direction > 0 else console.text(Message("console.show.reversed"))
    step = "console.show.upkeep" if state.step is Step.UPKEEP else "console.show.main"
    console.say(Message(step, turn=state.turn, name=turn_name(state), reversed=reversed_))
    for module_lines in console.show_lines:
        for line in module_lines(state):
            console.say(line)
    _show_teams(console, state)
    for player in state.players:
        marks: list[str | Message] = []
        if player.poison:
            marks.append(Message("console.show.poison", n=player.poison))
        for entry in player.commander_damage:
            owner = state.player(entry.source)
            commander: str | Message = (
                commander_names(owner)[entry.commander]
                if owner.commanders
                else Message("life.commander_label", owner=owner.name)
            )
            marks.append(Message("console.show.commander", n=entry.amount, commander=commander))
        for index, casts in enumerate(player.commander_casts):
            if casts:
                tax = commander_tax(player, index)
                marks.append(
                    Message("console.show.tax_of", tax=tax, commander=player.commanders[index])
                    if index < len(player.commanders)
                    else Message("console.show.tax", tax=tax)
                )
        skips = player.skip_turns
        for module in console.show_marks:
            more, explained = module(state, player)
            marks += more
            skips -= explained
        if skips > 0:
            marks.append(Message("console.skips", n=skips))
        if player.lost is not None:
            marks.append(
                Message("console.show.lost", reason=Message(f"life.why.{player.lost.reason.value}"))
            )
        pointer = "*" if player.seat == state.active else " "
        line = Message("console.show.player", mark=pointer, name=player.name, life=player.life)
        console.say(
            Message("console.show.marked", line=line, marks=_joined(marks)) if marks else line
        )
    console.say_outcome(state)


def _joined(marks: list[str | Message]) -> str | Message:
    """A player's marks, "A; B; C" (each language its own marks between them)."""
    head = marks[0]
    for mark in marks[1:]:
        head = Message("console.show.more", first=head, rest=mark)
    return head


def _show_teams(console: Console, state: GameState) -> None:
    """TB-6: in Two-Headed Giant each team's shared life and poison, once."""
    if not teamed(state):
        return
    for first, _ in teams(state):
        team = state.player(first)
        if team.poison:
            console.say(
                Message(
                    "console.show.team_poison",
                    team=team_name(state, first),
                    life=team.life,
                    n=team.poison,
                )
            )
        else:
            console.say(Message("console.show.team", team=team_name(state, first), life=team.life))


def state_json(controller: Controller) -> dict[str, object]:
    """The documented shape of ``state`` (README, "The state JSON")."""
    state = controller.state
    if state is None:
        return {"schema": STATE_SCHEMA, "game": None, "state": None, "outcome": None}
    result = outcome(state)
    return {
        "schema": STATE_SCHEMA,
        "game": controller.game,
        "state": state.model_dump(mode="json"),
        "outcome": None
        if result is None
        else result.model_dump(mode="json", exclude_defaults=True),
    }


@command("state", "state", "The whole state as JSON (a documented, versioned shape for scripts).")
def _state(console: Console, args: list[str]) -> None:
    console.say(json.dumps(state_json(console.controller), ensure_ascii=False, sort_keys=True))


@command(
    "log",
    "log [N]",
    "The game's history, oldest first (the last N changes); undone changes are marked (LF-4).",
)
def _log(console: Console, args: list[str]) -> None:
    history = console.controller.history()
    if args:
        history = history[-_count(console, args, "log") :]
    for txn in history:
        when = time.strftime("%H:%M:%S", time.localtime(txn.at))
        said = sentences(txn.messages())
        text = console.text(Message("console.log.undone", text=said) if txn.undone else said)
        console.say(f"{txn.pos:4d} {when}  {text}")


@command(
    "dealt",
    "dealt",
    "Who did how much to whom: life lost, life gained and poison by source (LF-2).",
)
def _dealt(console: Console, args: list[str]) -> None:
    for line in dealt_lines(console.state):
        console.say(line)


@command(
    "games",
    "games",
    "The saved games, the one played last first: number, when, formats and players, "
    "the turn or round, or the result; the current one is marked with *.",
)
def _games(console: Console, args: list[str]) -> None:
    for saved in console.controller.saved_games():
        console.say(saved.line(saved.id == console.controller.game))


#: The journal numbers games from 1 up, as SQLite keys: 64-bit integers.
LAST_GAME = 2**63 - 1


def game_number(text: str) -> int:
    """The saved game ``text`` numbers; a number no game can have is refused as no such game
    (before it reaches the journal, which cannot look up a number beyond 64 bits)."""
    game = number(text)
    if not 1 <= game <= LAST_GAME:
        raise IllegalCommand("controller.no_such_game", game=game)
    return game


@command("load", "load GAME", "Resume a saved game by its number from 'games'.")
def _load(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("load")
    console.show(console.controller.load(game_number(args[0])))


@command(
    "delete",
    "delete GAME [yes]",
    "Delete a saved game for good, by its number from 'games': 'delete GAME' says which game it is, "
    "'delete GAME yes' deletes it (undo cannot bring it back). Deleting the current game leaves no game running.",
)
def _delete(console: Console, args: list[str]) -> None:
    # A typed console has no second press: the confirmation is a word on the same line, so a
    # script can delete in one line and a slip of the keyboard cannot.
    if len(args) not in (1, 2) or len(args) == 2 and args[1].casefold() != "yes":
        raise console.usage("delete")
    game = game_number(args[0])
    if len(args) == 1:
        saved = console.controller.saved_game(game)
        console.say(
            Message("console.delete.ask", game=game, title=saved.title, progress=saved.progress)
        )
        return
    console.show(console.controller.delete(game))


@command("help", "help [COMMAND]", "List the commands, or explain one.", ("?",))
def _help(console: Console, args: list[str]) -> None:
    if args:
        entry = console.commands.get(args[0].casefold())
        if entry is None:
            raise IllegalCommand("console.unknown", name=args[0])
        console.say(f"{entry.usage}\n    {console.help(entry)}")
        return
    for entry in console.entries:
        console.say(f"{entry.usage:<46} {console.help(entry)}")


@command("quit", "quit", "End the session (the game is saved after every command).", ("exit",))
def _quit(console: Console, args: list[str]) -> None:
    console.done = True


COMMANDS = CommandTable(
    (
        _new,
        _next,
        _pass,
        _reverse,
        _skip,
        _life,
        _damage,
        _gain,
        _poison,
        _commander,
        _commanders,
        _tax,
        _concede,
        _lose,
        _card,
        _tag,
        _undo,
        _redo,
        _colour,
        _show,
        _state,
        _log,
        _dealt,
        _games,
        _load,
        _delete,
        _help,
        _quit,
    ),
    texts="console",
    english=TEXTS,
)
TEXTS.update(COMMANDS.help_texts())
