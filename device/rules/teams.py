"""Teams of two adjacent seats, for Two-Headed Giant (TB-6; Comprehensive Rules 810).

Seats 1+2, 3+4, … (0+1, 2+3 counted from 0) are the teams; the first seat of a team is its
primary player (810.2; 901.12 for Planechase).  These small pure helpers are what the turn, life
and Planechase rules ask about teams; ``device.rules.two_headed_giant`` is the format itself.
"""

from __future__ import annotations

from device.state import GameState

TWO_HEADED_GIANT = "two_headed_giant"
TEAM_POISON_LIMIT = 15  # 810.10: a team with fifteen or more poison counters loses


def teamed(state: GameState) -> bool:
    """The table plays Two-Headed Giant: teams share a turn, a life total and poison."""
    return state.has(TWO_HEADED_GIANT)


def team_of(state: GameState, seat: int) -> tuple[int, int]:
    """The two seats of ``seat``'s team (1+2, 3+4, …)."""
    return (seat - seat % 2, seat - seat % 2 + 1)


def teammate(state: GameState, seat: int) -> int:
    first, second = team_of(state, seat)
    return second if seat == first else first


def primary(state: GameState, team: tuple[int, int]) -> int:
    """The team's primary player: the first seat, or the other if the first has left."""
    return (
        team[0] if state.player(team[0]).in_game or not state.player(team[1]).in_game else team[1]
    )


def teams(state: GameState) -> list[tuple[int, int]]:
    """Every team, in seat order."""
    return [(seat, seat + 1) for seat in range(0, len(state.players) - 1, 2)]


def team_name(state: GameState, seat: int) -> str:
    """A team as the table says it: "Alice & Bob" (names are never declined, so any language)."""
    first, second = team_of(state, seat)
    return f"{state.player(first).name} & {state.player(second).name}"


def turn_name(state: GameState) -> str:
    """Whose turn it is: the active player, or in Two-Headed Giant the active team."""
    return team_name(state, state.active) if teamed(state) else state.player(state.active).name
