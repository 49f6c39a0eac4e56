"""Table, players and turns (SPEC section 0, TB-1..TB-5)."""

from __future__ import annotations

from random import Random

from device.commands import Advance, ChooseColour, NewGame, PassTurn, ReverseTurnOrder, SkipTurns
from device.errors import IllegalCommand, UnknownName
from device.events import (
    ColourChosen,
    Event,
    GameStarted,
    PlayerSpec,
    SkipScheduled,
    StepChanged,
    TurnOrderReversed,
    TurnPassed,
    TurnSkipped,
)
from device.formats import PLAIN_FORMATS, TableOption, titles
from device.text import Message, Plural, Text, fold, listing
from device.rules import colours
from device.rules.colours import colour_name, colour_of, find_colour, starting_colours
from device.rules.registry import (
    Beginning,
    Rules,
    find_format,
    in_play,
    outcome,
    resolve_setup,
)
from device.rules.teams import TWO_HEADED_GIANT, primary, team_name, team_of, teamed
from device.state import GameState, Outcome, Player, Step
from device.state_clock import ClockState
from device.state_dice import DiceState, Throw, ThrowKind

RULES = Rules("table")

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MAX_NAME = 24
MAX_LIFE = 9999
#: The table option that gives a game its turn timer (seconds per turn), declared with the game
#: clock in ``device.rules.clock``.
TURN_TIMER = "turn_timer"
#: The table option that turns each seat's tile on the kiosk toward its player, for a gadget
#: lying in the middle of the table (HW-4).  It changes nothing in the rules; a format with a
#: board of its own rather than the table's seats (``Format.seats``) is not offered it.
SEATS_FACING = "seats_facing"

RULES.option(
    TableOption(
        SEATS_FACING,
        RULES.name,
        "Seats face their players: each seat's tile turned toward its side of the table, "
        "for a gadget lying in the middle of it.",
        False,
        everywhere=True,
        seats=True,
    )
)

TEXTS: dict[str, Text] = {
    "table.players_count": "A table has 2 to 10 players (TB-1); {count} given.",
    "table.name_empty": "A player needs a name.",
    "table.name_long": Plural(
        "{name!r} is too long for the screen: at most {limit} character.",
        "{name!r} is too long for the screen: at most {limit} characters.",
        "limit",
    ),
    "table.name_twice": "Two players are called {name!r}: give each player a different name.",
    "table.life_range": "Starting life must be from 1 to {limit}; {life} given.",
    "table.no_player": "No player called {name!r}. Players: {players}.",
    "table.ambiguous_player": "{name!r} could be {matches}: type more of the name.",
    "table.no_seat": "There is no seat {seat}: this table has seats 0 to {last}.",
    "table.skip_range": "A player can skip 1 to 10 turns; {turns} given.",
    "table.skip_out": "{name} has left the game; there is no turn of theirs to skip.",
    # The formats in brackets, since a format's title may say "game" itself ("Two-player game").
    "table.started": "New game ({formats}) for {players}, {life} life. {first} goes first.",
    "table.started_random": "New game ({formats}) for {players}, {life} life. "
    "The gadget drew {first} to go first.",
    "table.started_teams": "New game ({formats}) for teams {players}, {life} life each. {first} go first.",
    "table.started_teams_random": "New game ({formats}) for teams {players}, {life} life each. "
    "The gadget drew {first} to go first.",
    "table.teams_even": "Two-Headed Giant is played by teams of two adjacent seats: {count} players make no "
    "teams of two. Seat an even number of players.",
    "table.main": "{name}: main phase.",
    "table.upkeep": "{name}: upkeep.",
    "table.turn": "Turn {turn}: {name}'s upkeep.",
    "table.skipped": "{name} skips this turn.",
    "table.skip_scheduled": Plural(
        "{name} will skip their next turn.", "{name} will skip their next {turns} turns.", "turns"
    ),
    "table.reversed_cw": "Turn order reversed: play now passes clockwise.",
    "table.reversed_ccw": "Turn order reversed: play now passes counter-clockwise.",
    "table.won": "{name} won ({reason})",
    "table.draw": "nobody won ({reason})",
    # why a game ended the usual way (Outcome.said)
    "table.reason.last_standing": "last player standing",
    "table.reason.everyone_left": "every player left the game",
}


def start(command: NewGame, rng: Random) -> GameStarted:
    names = [" ".join(name.split()) for name in command.players]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise IllegalCommand("table.players_count", count=len(names))
    seen: set[str] = set()
    for name in names:
        if not name:
            raise IllegalCommand("table.name_empty")
        check_fits(name, MAX_NAME)
        if fold(name) in seen:
            raise IllegalCommand("table.name_twice", name=name)
        seen.add(fold(name))
    setup = resolve_setup(command.formats, len(names), command.options)
    life = setup.base.starting_life if command.starting_life is None else command.starting_life
    teams = TWO_HEADED_GIANT in setup.names
    if teams and len(names) % 2:
        raise IllegalCommand("table.teams_even", count=len(names))
    if teams and command.starting_life is None:
        life = TEAM_LIFE.get(setup.base.name, 30)
    if not 1 <= life <= MAX_LIFE:
        raise IllegalCommand("table.life_range", life=life, limit=MAX_LIFE)
    if command.first is None:
        first, drawn = rng.randrange(len(names)), True
    else:
        first, drawn = _match_name(names, command.first), False
    if teams:  # 810.2: a team takes its turns together; its first seat (the primary player) leads
        first -= first % 2
    return GameStarted(
        formats=setup.names,
        options=setup.options,
        starting_life=life,
        players=tuple(
            PlayerSpec(name=name, colour=colour)
            for name, colour in zip(names, starting_colours(names, command.colours), strict=True)
        ),
        starting_player=first,
        starting_player_random=drawn,
        at=command.now,
    )


#: TB-6: a Two-Headed Giant team's shared starting life (810.4), by base format; Commander's is
#: the published Two-Headed Giant Commander figure (docs/decisions/two-headed-giant.md).
TEAM_LIFE = {"ffa": 30, "commander": 60}


def initial_state(event: GameStarted) -> GameState:
    players = tuple(
        Player(
            seat=seat,
            name=spec.name,
            life=event.starting_life,
            commanders=spec.commanders,
            colour=spec.colour,
        )
        for seat, spec in enumerate(event.players)
    )
    return GameState(
        formats=event.formats,
        options=event.options,
        starting_life=event.starting_life,
        players=players,
        starting_player=event.starting_player,
        active=event.starting_player,
        dice=_drawn(event),
        clock=_clock(event),
    )


def _clock(event: GameStarted) -> ClockState | None:
    """The game clock starts with the game, its turn timer as the table option says; a game
    started without a time (saved before the gadget kept one) has none until it is started."""
    if event.at is None:
        return None
    timer = event.options.get(TURN_TIMER, 0)
    return ClockState.starting(
        event.at, timer if isinstance(timer, int) and not isinstance(timer, bool) else 0
    )


def _drawn(event: GameStarted) -> DiceState | None:
    """TB-5: a starting player the gadget drew is the game's first throw, so the dice screen
    shows the draw like any random player."""
    if not event.starting_player_random:
        return None
    return DiceState().adding(
        Throw(number=1, kind=ThrowKind.PLAYER, picked=event.starting_player, first=True)
    )


def _match_name(names: list[str], text: str) -> int:
    """A seat from what someone typed: the exact name, or the one name that starts with it."""
    wanted = fold(text)
    exact = [seat for seat, name in enumerate(names) if fold(name) == wanted]
    if exact:
        return exact[0]
    starts = [seat for seat, name in enumerate(names) if wanted and fold(name).startswith(wanted)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise UnknownName(
            "table.ambiguous_player",
            name=text,
            matches=listing([names[s] for s in starts], "text.or"),
        )
    raise UnknownName("table.no_player", name=text, players=listing(names, "text.list"))


def find_player(state: GameState, text: str) -> int:
    """The seat of the player ``text`` names (case- and accent-insensitive, or a unique prefix)."""
    return _match_name([p.name for p in state.players], text)


def round_from(state: GameState, seat: int) -> list[int]:
    """Every seat once, in the current turn order, beginning with ``seat``."""
    count = len(state.players)
    return [(seat + state.direction * i) % count for i in range(count)]


def check_fits(name: str, limit: int) -> None:
    """Refuse a name the screen cannot show: longer than ``limit`` characters, or with one that
    does not print (a player's name, a commander's)."""
    if len(name) > limit or not name.isprintable():
        raise IllegalCommand("table.name_long", name=name, limit=limit)


def check_seat(state: GameState, seat: int) -> Player:
    if not 0 <= seat < len(state.players):
        raise IllegalCommand("table.no_seat", seat=seat, last=len(state.players) - 1)
    return state.players[seat]


def next_turn(state: GameState) -> tuple[list[int], int]:
    """Who is skipped and who plays next, in turn order (TB-3, TB-4).

    Players who left are passed over silently; players owed a skipped turn use it up.
    """
    if teamed(state):
        return _next_team(state)
    count = len(state.players)
    owed = {p.seat: p.skip_turns for p in state.players}
    skipped: list[int] = []
    seat = state.active
    # Each lap either finds a player or uses up at least one owed skip, so this ends.
    for _ in range(count * (sum(owed.values()) + 1) + 1):
        seat = (seat + state.direction) % count
        if not state.players[seat].in_game:
            continue
        if owed[seat] > 0:
            owed[seat] -= 1
            skipped.append(seat)
            continue
        return skipped, seat
    return skipped, state.active


def _next_team(state: GameState) -> tuple[list[int], int]:
    """TB-6 (810.2): the turn passes from team to team; the next team's primary player becomes
    the active player.  A team owed a skipped turn (by either member) uses it up."""
    count = len(state.players)
    owed = {p.seat: p.skip_turns for p in state.players}
    skipped: list[int] = []
    seat = team_of(state, state.active)[0]
    for _ in range(count * (sum(owed.values()) + 1) + 1):
        seat = (seat + 2 * state.direction) % count
        team = team_of(state, seat)
        if not any(state.players[s].in_game for s in team):
            continue
        owing = next((s for s in team if owed[s] > 0), None)
        if owing is not None:
            owed[owing] -= 1
            skipped.append(owing)
            continue
        return skipped, primary(state, team)
    return skipped, state.active


@RULES.decides(Advance)
def _advance(state: GameState, command: Advance, rng: Random) -> list[Event]:
    if state.step is Step.UPKEEP:
        return [StepChanged(step=Step.MAIN)]
    return _pass(state, PassTurn(now=command.now), rng)


@RULES.decides(PassTurn)
def _pass(state: GameState, command: PassTurn, rng: Random) -> list[Event]:
    in_play().check_pass(state)
    skipped, seat = next_turn(state)
    events: list[Event] = [TurnSkipped(seat=s) for s in skipped]
    events.append(TurnPassed(to=seat, turn=state.turn + 1, at=command.now))
    return events


@RULES.decides(ReverseTurnOrder)
def _reverse(state: GameState, command: ReverseTurnOrder, rng: Random) -> list[Event]:
    return [TurnOrderReversed(direction=-state.direction)]


@RULES.decides(SkipTurns)
def _skip(state: GameState, command: SkipTurns, rng: Random) -> list[Event]:
    player = check_seat(state, command.seat)
    if not 1 <= command.turns <= 10:
        raise IllegalCommand("table.skip_range", turns=command.turns)
    if not player.in_game:
        raise IllegalCommand("table.skip_out", name=player.name)
    return [SkipScheduled(seat=command.seat, turns=command.turns)]


@RULES.applies(StepChanged)
def _apply_step(state: GameState, event: StepChanged) -> GameState:
    return state.model_copy(update={"step": Step(event.step)})


@RULES.describes(StepChanged)
def _describe_step(state: GameState, event: StepChanged) -> Message:
    key = "table.main" if event.step == Step.MAIN else "table.upkeep"
    return Message(
        key,
        name=team_name(state, state.active) if teamed(state) else state.player(state.active).name,
    )


@RULES.applies(TurnPassed)
def _apply_turn(state: GameState, event: TurnPassed) -> GameState:
    clock = state.clock
    if clock is not None and event.at is not None:
        clock = clock.turn_began(event.at)  # the turn timer starts again with the new turn
    return state.model_copy(
        update={"active": event.to, "turn": event.turn, "step": Step.UPKEEP, "clock": clock}
    )


@RULES.describes(TurnPassed)
def _describe_turn(state: GameState, event: TurnPassed) -> Message:
    name = team_name(state, event.to) if teamed(state) else state.player(event.to).name
    return Message("table.turn", turn=event.turn, name=name)


@RULES.applies(TurnSkipped)
def _apply_skipped(state: GameState, event: TurnSkipped) -> GameState:
    player = state.player(event.seat)
    return state.with_player(
        player.model_copy(update={"skip_turns": max(0, player.skip_turns - 1)})
    )


@RULES.describes(TurnSkipped)
def _describe_skipped(state: GameState, event: TurnSkipped) -> Message:
    return Message("table.skipped", name=state.player(event.seat).name)


@RULES.applies(SkipScheduled)
def _apply_skip(state: GameState, event: SkipScheduled) -> GameState:
    player = state.player(event.seat)
    return state.with_player(
        player.model_copy(update={"skip_turns": player.skip_turns + event.turns})
    )


@RULES.describes(SkipScheduled)
def _describe_skip(state: GameState, event: SkipScheduled) -> Message:
    return Message("table.skip_scheduled", name=state.player(event.seat).name, turns=event.turns)


@RULES.applies(TurnOrderReversed)
def _apply_reverse(state: GameState, event: TurnOrderReversed) -> GameState:
    return state.model_copy(update={"direction": event.direction})


@RULES.describes(TurnOrderReversed)
def _describe_reverse(state: GameState, event: TurnOrderReversed) -> Message:
    return Message("table.reversed_cw" if event.direction > 0 else "table.reversed_ccw")


def describe_start(event: GameStarted) -> Message:
    names = [spec.name for spec in event.players]
    key = "table.started_random" if event.starting_player_random else "table.started"
    if TWO_HEADED_GIANT in event.formats:
        teams = [f"{names[seat]} & {names[seat + 1]}" for seat in range(0, len(names) - 1, 2)]
        key = (
            "table.started_teams_random" if event.starting_player_random else "table.started_teams"
        )
        return Message(
            key,
            formats=titles(find_format(name) for name in event.formats),
            players=listing(teams, "text.list"),
            life=event.starting_life,
            first=teams[event.starting_player // 2],
        )
    # A base format that counts something else words its own start.
    if f"{key}.{event.formats[0]}" in in_play().texts:
        key = f"{key}.{event.formats[0]}"
    return Message(
        key,
        formats=titles(find_format(name) for name in event.formats),
        players=listing(names, "text.list"),
        life=event.starting_life,
        first=names[event.starting_player],
    )


def describe_outcome(state: GameState) -> Message | None:
    result = outcome(state)
    if result is None:
        return None
    reason = result.said if result.said is not None else result.reason
    if result.winner is None:
        return Message("table.draw", reason=reason)
    return Message("table.won", name=winner_name(state, result), reason=reason)


def winner_name(state: GameState, result: Outcome) -> str:
    """Who won: a player, or in Two-Headed Giant the team ("Alice & Bob")."""
    assert result.winner is not None
    return team_name(state, result.winner) if result.team else state.player(result.winner).name


# --- a player's colour ----------------------------------------------------------------------------


@RULES.decides(ChooseColour)
def _choose_colour(state: GameState, command: ChooseColour, rng: Random) -> list[Event]:
    player = check_seat(state, command.seat)
    colour = find_colour(command.colour)
    if colour == colour_of(player):
        raise IllegalCommand("colours.same", name=player.name, colour=colour_name(colour))
    holder = next((p.seat for p in state.players if colour_of(p) == colour), None)
    return [ColourChosen(seat=command.seat, colour=colour, swapped=holder)]


@RULES.applies(ColourChosen)
def _apply_colour(state: GameState, event: ColourChosen) -> GameState:
    chooser = state.player(event.seat)
    if event.swapped is not None:
        state = state.with_player(
            state.player(event.swapped).model_copy(update={"colour": colour_of(chooser)})
        )
    return state.with_player(chooser.model_copy(update={"colour": event.colour}))


@RULES.describes(ColourChosen)
def _describe_colour(state: GameState, event: ColourChosen) -> Message:
    chooser = state.player(event.seat)
    if event.swapped is None:
        return Message("colours.chosen", name=chooser.name, colour=colour_name(event.colour))
    return Message(
        "colours.swapped",
        name=chooser.name,
        colour=colour_name(event.colour),
        other=state.player(event.swapped).name,
        previous=colour_name(colour_of(chooser)),
    )


RULES.says(TEXTS, colours.TEXTS)
RULES.begins(Beginning(start, initial_state, describe_start, describe_outcome))
for _plain in PLAIN_FORMATS:
    RULES.format(_plain)
