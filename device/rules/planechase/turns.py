"""A new turn in Planechase (PC-2, 901.6) and Grand Melee's turn markers (CR 807.4).

The gadget keeps turn markers in ``PlanechaseState.markers``: one for each full four players
(807.4a), or as many as ``turn_markers`` says while there are two players for each.  Markers
start four seats apart from the starting player (807.4b); when the turn passes, the first marker
follows the active player and every other marker moves to the next seat in turn order that is in
the game and holds no marker.  Each marker holder is a planar controller with their own face-up
plane, may roll in the main phase, and planeswalks only away from the planes of their marker.
If a player without a marker leaves and that lowers the number of markers, the marker nearest to
their right goes when the turn ends (807.4d) — never the first, which is the table's own turn.
A holder who leaves is ``leaving``'s.
"""

from __future__ import annotations

from random import Random

from device.events import Event, TurnPassed
from device.rules.planechase.events import (
    PlanarTurnBegan,
    TurnMarkerPassed,
    TurnMarkerRemoved,
    planechase,
)
from device.rules.planechase.piles import updated
from device.rules.registry import Rules, apply_events
from device.state import GameState
from device.text import Message

RULES = Rules("planechase.turns")

PLAYERS_PER_MARKER = 4  # Grand Melee: one turn marker for each full four players (CR 807.4a)


def marker_seats(starting: int, players: int, markers: int) -> tuple[int, ...]:
    """Where the turn markers start (CR 807.4b): the starting player has the first, the player
    four seats to the left of the one before (the fifth player) the next, and so on.  A table
    with fewer than four players a marker (a smaller Grand Melee, or ``turn_markers`` set
    higher) spreads them as evenly as its seats allow."""
    if 4 * markers <= players:
        return tuple((starting + 4 * i) % players for i in range(markers))
    return tuple((starting + round(i * players / markers)) % players for i in range(markers))


def chosen_markers(state: GameState) -> int:
    """The number of turn markers the table set with ``turn_markers``; 0: as the rules say."""
    wanted = state.options.get("turn_markers", 0)
    return wanted if isinstance(wanted, int) and not isinstance(wanted, bool) else 0


def allowed_markers(state: GameState, players: int) -> int:
    """How many turn markers ``players`` players keep: one for each full four (CR 807.4a), or
    the number the table chose while there are two players for each; always at least one."""
    chosen = chosen_markers(state)
    if chosen:
        return max(1, min(chosen, players // 2))
    return max(1, players // PLAYERS_PER_MARKER)


# --- a new turn ---


@RULES.state_check
def _turn_began(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """PC-2: roll costs start again each turn; 901.6: the active player is planar controller.
    Grand Melee: a marker goes, if the table keeps fewer (807.4d); the first follows the active
    player, each other one moves to the next player in turn order — the one standing in for a
    holder who left during the turn takes theirs (807.4c)."""
    pc = state.planechase
    if pc is None or not any(isinstance(e, TurnPassed) for e in events):
        return []
    markers: tuple[int, ...] = ()
    out: list[Event] = []
    if pc.grand_melee:
        out = _markers_fewer(state)
        current = apply_events(state, out)
        pc = planechase(current)
        stand_ins = pc.stand_ins + (None,) * (len(pc.markers) - len(pc.stand_ins))
        moved = [current.active]
        for seat, stand_in in zip(pc.markers[1:], stand_ins[1:]):
            if stand_in is not None and current.player(stand_in).in_game and stand_in not in moved:
                moved.append(stand_in)
                continue
            nxt = seat
            for _ in range(len(current.players)):
                nxt = (nxt + current.direction) % len(current.players)
                if current.player(nxt).in_game and nxt not in moved:
                    break
            moved.append(nxt)
        markers = tuple(moved)
    return [*out, PlanarTurnBegan(markers=markers)]


def _markers_fewer(state: GameState) -> list[Event]:
    """807.4d: when players left and the table keeps fewer turn markers (807.4a), a marker is
    removed between turns: the one nearest to the right of a player who left (the lower number if
    several could go), its planes to the bottom with nobody planeswalking.  The first marker is
    the table's own turn and stays."""
    out: list[Event] = []
    current = state
    gone = [p for p in state.players if p.lost is not None]
    recent = [p.seat for p in gone if p.lost is not None and p.lost.turn >= state.turn - 1]
    departed = recent or [p.seat for p in gone]
    count = len(state.players)
    while True:
        pc = planechase(current)
        if len(pc.markers) <= allowed_markers(current, len(current.in_game())):
            return out
        candidates: list[int] = []
        for seat in departed:
            for step in range(1, count):
                right = (seat - step * current.direction) % count
                if right in pc.markers[1:]:
                    candidates.append(pc.markers.index(right, 1))
                    break
        if not candidates:
            return out
        marker = min(candidates)
        step_events: list[Event] = [TurnMarkerRemoved(marker=marker, seat=pc.markers[marker])]
        out += step_events
        current = apply_events(current, step_events)


@RULES.applies(PlanarTurnBegan)
def _apply_turn_began(state: GameState, event: PlanarTurnBegan) -> GameState:
    pc = planechase(state)
    return updated(
        state,
        next_cost=tuple(0 for _ in state.players),
        controller=None,
        own_roll=None,
        markers=event.markers if pc.grand_melee else pc.markers,
        stand_ins=(),
    )


@RULES.describes(PlanarTurnBegan)
def _describe_turn_began(state: GameState, event: PlanarTurnBegan) -> Message:
    return Message("planechase.cost_reset")


@RULES.applies(TurnMarkerPassed)
def _apply_marker_passed(state: GameState, event: TurnMarkerPassed) -> GameState:
    pc = planechase(state)
    markers = tuple(event.seat if i == event.marker else s for i, s in enumerate(pc.markers))
    return updated(state, markers=markers)


@RULES.describes(TurnMarkerPassed)
def _describe_marker_passed(state: GameState, event: TurnMarkerPassed) -> Message:
    old = planechase(state).markers[event.marker]
    return Message(
        "planechase.marker_passed", name=state.player(event.seat).name, old=state.player(old).name
    )
