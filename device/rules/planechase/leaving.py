"""Players leaving a Planechase game (PC-8; 901.6, 901.10, 901.12b, 901.14b): the planar controller
passing on, their cards leaving with them, and Grand Melee's markers.

Two-Headed Giant: a team leaves together.  Once both its players are out, the primary player of
the next team becomes planar controller if the leaving team had it (901.12b), then the team's
cards leave.

Grand Melee: a marker holder who leaves during their turn keeps the marker until the turn ends,
when the player to their left takes it (807.4c); meanwhile that player stands in as planar
controller of its planes (901.6) but does not roll.  If the holder's leaving lowers the number
of markers, their marker is removed at once and its planes go to the bottom without anyone
planeswalking (901.14b).
"""

from __future__ import annotations

from random import Random

from device.events import Event, PlayerLost
from device.rules.planechase.events import (
    PlanarCardAwaited,
    PlanarCardsLeft,
    PlanarControllerChanged,
    Planeswalked,
    TurnMarkerRemoved,
    planechase,
)
from device.rules.planechase.piles import all_to_bottom, updated
from device.rules.planechase.queries import (
    deck_owner,
    names_of,
    planar_controller,
    planar_controllers,
)
from device.rules.planechase.state import Awaiting, PlanarKind
from device.rules.planechase.turns import allowed_markers
from device.rules.registry import Rules, apply_events
from device.rules.teams import primary, team_of
from device.state import GameState
from device.text import Message

RULES = Rules("planechase.leaving")


@RULES.state_check
def _leaving(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """901.6, 901.10, 901.12b, 901.14b: when players leave (PC-8)."""
    pc = state.planechase
    if pc is None:
        return []
    gone = [e.seat for e in events if isinstance(e, PlayerLost)]
    if not gone:
        return []
    if pc.two_headed_giant:
        return _teams_leaving(state, gone)
    leaving = set(gone)
    out: list[Event] = []
    current = state
    for seat in gone:
        step: list[Event] = []
        if pc.grand_melee:
            step = _marker_leaving(current, seat, leaving)
        elif seat == planar_controller(current):
            new = _next_staying(current, seat, leaving)
            step = [PlanarControllerChanged(seat=new)] if new is not None else []
        out += step
        current = apply_events(current, step)
        step = _cards_leave(current, seat)
        out += step
        current = apply_events(current, step)
    return out


def _next_staying(state: GameState, seat: int, leaving: set[int]) -> int | None:
    count = len(state.players)
    for step in range(1, count + 1):
        other = (seat + step * state.direction) % count
        if state.player(other).in_game and other not in leaving:
            return other
    return None


def _teams_leaving(state: GameState, gone: list[int]) -> list[Event]:
    """901.12b: a Two-Headed Giant team leaves together (810.8a).  Once both its players are out,
    if the planar controller is one of them the primary player of the next team in turn order
    becomes planar controller first; then the team's cards leave, and if a face-up card went with
    them the planar controller turns over the top card of their own deck (901.10)."""
    out: list[Event] = []
    current = state
    done: set[tuple[int, int]] = set()
    for seat in gone:
        team = team_of(current, seat)
        if team in done or any(current.player(s).in_game for s in team):
            continue  # the teammate leaves with them in the same breath; the team's cards go then
        done.add(team)
        if planar_controller(current) in team:
            new = _next_team_primary(current, team)
            step: list[Event] = [PlanarControllerChanged(seat=new)] if new is not None else []
            out += step
            current = apply_events(current, step)
        for member in team:
            step = _cards_leave(current, member)
            out += step
            current = apply_events(current, step)
    return out


def _next_team_primary(state: GameState, team: tuple[int, int]) -> int | None:
    count = len(state.players)
    for step in range(1, count // 2 + 1):
        other = team_of(state, (team[0] + 2 * step * state.direction) % count)
        staying = [s for s in other if state.player(s).in_game]
        if staying and other != team:
            return primary(state, other)
    return None


@RULES.applies(PlanarControllerChanged)
def _apply_controller(state: GameState, event: PlanarControllerChanged) -> GameState:
    pc = planechase(state)
    if event.marker is None:
        return updated(state, controller=event.seat)
    stand_ins = list(pc.stand_ins + (None,) * (len(pc.markers) - len(pc.stand_ins)))
    if event.marker < len(stand_ins):
        stand_ins[event.marker] = event.seat
    return updated(state, stand_ins=tuple(stand_ins))


@RULES.describes(PlanarControllerChanged)
def _describe_controller(state: GameState, event: PlanarControllerChanged) -> Message:
    if event.seat is None:
        return Message("planechase.controller_active")
    pc = planechase(state)
    if event.marker is not None and event.marker < len(pc.markers):
        holder = state.player(pc.markers[event.marker]).name
        return Message(
            "planechase.controller_stand_in", name=state.player(event.seat).name, old=holder
        )
    return Message("planechase.controller", name=state.player(event.seat).name)


def _marker_leaving(state: GameState, seat: int, leaving: set[int]) -> list[Event]:
    """Grand Melee: a planar controller leaves.  If that lowers the number of turn markers the
    table keeps (807.4a), their marker is removed and its planes go to the bottom with nobody
    planeswalking (901.14b); otherwise the next player stands in as planar controller of its
    planes (901.6) and takes the marker itself when this turn ends (807.4c)."""
    pc = planechase(state)
    controllers = planar_controllers(state)
    if seat not in controllers:
        return []
    marker = controllers.index(seat)
    holder = pc.markers[marker] == seat
    fewer = allowed_markers(state, len(state.in_game())) < len(pc.markers)
    if holder and marker > 0 and fewer:
        return [TurnMarkerRemoved(marker=marker, seat=seat)]
    taker = _next_free(state, seat, leaving)
    return [PlanarControllerChanged(seat=taker, marker=marker)] if taker is not None else []


def _next_free(state: GameState, seat: int, leaving: set[int]) -> int | None:
    """The next player in turn order who stays and controls no planes yet."""
    controllers = planar_controllers(state)
    count = len(state.players)
    for step in range(1, count + 1):
        other = (seat + step * state.direction) % count
        if state.player(other).in_game and other not in leaving and other not in controllers:
            return other
    return None


@RULES.applies(TurnMarkerRemoved)
def _apply_marker_removed(state: GameState, event: TurnMarkerRemoved) -> GameState:
    pc = planechase(state)
    away = [c for c in pc.face_up if c.marker == event.marker]
    # 901.14b: to the bottom of the owners' decks; nobody planeswalks
    decks = all_to_bottom(
        pc.model_copy(update={"face_up": tuple(c for c in pc.face_up if c not in away)}), away
    ).decks
    face_up = tuple(
        c.model_copy(update={"marker": c.marker - (c.marker > event.marker)})
        for c in pc.face_up
        if c not in away
    )
    markers = tuple(s for i, s in enumerate(pc.markers) if i != event.marker)
    stand_ins = tuple(s for i, s in enumerate(pc.stand_ins) if i != event.marker)
    encounter = pc.encounter if all(c.name != pc.encounter for c in away) else None
    awaiting = pc.awaiting
    if awaiting is not None and pc.grand_melee:
        if awaiting.marker == event.marker:
            awaiting = None  # nobody turns a card over for a marker that is gone
        elif awaiting.marker > event.marker:
            awaiting = awaiting.model_copy(update={"marker": awaiting.marker - 1})
    return updated(
        state,
        decks=decks,
        face_up=face_up,
        markers=markers,
        stand_ins=stand_ins,
        encounter=encounter,
        awaiting=awaiting,
    )


@RULES.describes(TurnMarkerRemoved)
def _describe_marker_removed(state: GameState, event: TurnMarkerRemoved) -> Message:
    cards = [c.name for c in planechase(state).face_up if c.marker == event.marker]
    if not cards:
        return Message("planechase.marker_removed_none", name=state.player(event.seat).name)
    key = "planechase.marker_removed_one" if len(cards) == 1 else "planechase.marker_removed"
    return Message(key, name=state.player(event.seat).name, cards=names_of(cards))


def _cards_leave(state: GameState, seat: int) -> list[Event]:
    """901.10: every planar card ``seat`` owns leaves with them; if a face-up one did, its
    planar controller turns over the top card of their own planar deck at once."""
    pc = planechase(state)
    owned = tuple(c.name for c in pc.face_up if c.owner == seat)
    if pc.communal or (pc.deck(seat) is None and not owned):
        return []
    markers_hit = {c.marker for c in pc.face_up if c.owner == seat}
    out: list[Event] = [PlanarCardsLeft(seat=seat, face_up=owned)]
    current = apply_events(state, out)
    for marker in sorted(markers_hit):
        pc = planechase(current)
        if pc.grand_melee and marker >= len(pc.markers):
            continue
        controller = (
            planar_controllers(current)[marker] if pc.grand_melee else planar_controller(current)
        )
        if not current.player(controller).in_game:
            continue
        turned = _turn_over_top(current, controller, marker)
        out += turned
        current = apply_events(current, turned)
    return out


def _turn_over_top(state: GameState, seat: int, marker: int) -> list[Event]:
    """901.10: the planar controller turns the top card of their planar deck face up at once."""
    pc = planechase(state)
    owner = deck_owner(pc, seat)
    deck = pc.deck(owner)
    if deck is None:
        return []
    if deck.physical:
        return [PlanarCardAwaited(awaiting=Awaiting(seat=seat, deck=owner, marker=marker))]
    if not deck.cards:
        return []
    return [
        Planeswalked(
            seat=seat, deck=owner, marker=marker, away=(), to=deck.cards[:1], cause="owner_left"
        )
    ]


@RULES.applies(PlanarCardsLeft)
def _apply_left(state: GameState, event: PlanarCardsLeft) -> GameState:
    pc = planechase(state)
    left = [c for c in pc.face_up if c.owner == event.seat]
    choice = pc.choice if pc.choice is None or pc.choice.deck != event.seat else None
    awaiting = pc.awaiting if pc.awaiting is None or pc.awaiting.deck != event.seat else None
    encounter = pc.encounter if all(c.name != pc.encounter for c in left) else None
    chaos_blanks = pc.chaos_blanks and not any(c.kind is PlanarKind.PLANE for c in left)
    return updated(
        state,
        decks=tuple(d for d in pc.decks if d.owner != event.seat),
        face_up=tuple(c for c in pc.face_up if c.owner != event.seat),
        choice=choice,
        awaiting=awaiting,
        encounter=encounter,
        chaos_blanks=chaos_blanks,
    )


@RULES.describes(PlanarCardsLeft)
def _describe_left(state: GameState, event: PlanarCardsLeft) -> Message:
    face_up = (
        Message("planechase.cards_left_face_up", cards=names_of(event.face_up))
        if event.face_up
        else ""
    )
    return Message("planechase.cards_left", name=state.player(event.seat).name, face_up=face_up)
