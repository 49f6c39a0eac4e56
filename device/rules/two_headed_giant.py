"""Two-Headed Giant as a table format (TB-6; Comprehensive Rules 810).

Teams of two adjacent seats (1+2, 3+4, …) take their turns together, share one life total (30;
60 in Two-Headed Giant Commander) and their poison counters (fifteen lose), and win and lose
together.  The parts live where they act: ``teams`` says who is on which team, ``table`` passes the
turn from team to team and sets the shared starting life, ``life`` applies a change to the team's
total and counts its poison and commander damage; this module declares the format, makes a team
lose together and ends the game when one team is left.  Planechase reads the teams for 901.12
(PC-9).
"""

from __future__ import annotations

from random import Random

from device.events import Event, PlayerLost
from device.formats import Format
from device.rules.registry import Rules
from device.rules.teams import TWO_HEADED_GIANT, primary, teamed, teammate, teams
from device.state import GameState, LossReason, Outcome
from device.text import Message, Text

RULES = Rules("two_headed_giant")

TEXTS: dict[str, Text] = {
    "two_headed_giant.reason.last_team": "last team standing",
}

FORMAT = RULES.format(
    Format(
        TWO_HEADED_GIANT,
        "Two-Headed Giant",
        "module",
        min_players=4,
        aliases=("2hg", "thg", "two-headed-giant"),
        requires_base=frozenset({"ffa", "commander"}),
        excludes=frozenset({"contraptions"}),
    )
)


@RULES.state_check
def _team_loses_together(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """810.8a: players win and lose only as a team: when one player of a team loses (or
    concedes), their teammate loses too."""
    if not teamed(state):
        return []
    out: list[Event] = []
    for event in events:
        if isinstance(event, PlayerLost):
            mate = state.player(teammate(state, event.seat))
            if mate.in_game and all(
                not (isinstance(e, PlayerLost) and e.seat == mate.seat) for e in out
            ):
                out.append(PlayerLost(seat=mate.seat, reason=LossReason.TEAM, source=event.source))
    return out


def _outcome(state: GameState) -> Outcome | None:
    """The last team with a player in the game wins; no team left is a draw."""
    left = [team for team in teams(state) if any(state.player(s).in_game for s in team)]
    if len(left) == 1:
        team = left[0]
        return Outcome(
            winner=primary(state, team),
            team=team,
            reason="last team standing",
            said=Message("two_headed_giant.reason.last_team"),
        )
    if not left:
        return Outcome(
            winner=None,
            reason="every player left the game",
            said=Message("table.reason.everyone_left"),
        )
    return None


RULES.outcome(TWO_HEADED_GIANT, _outcome)

RULES.says(TEXTS)
