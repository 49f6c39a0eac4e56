"""What the screen shows about Contraptions (CT-7): pure functions of the state.

``upkeep_view`` is the active player's upkeep at a glance — the CRANK! counter's move, the
sprocket that cranks now and what is on it — plus the items of the upkeep banner, as messages
the kiosk translates by key.  ``boards`` is everyone's sprockets, for the table view.
"""

from __future__ import annotations

from dataclasses import dataclass

from device.rules.contraptions.queries import (
    job_banner,
    board_of,
    counter_index,
    current_upkeep,
    library_message,
    machine_runs,
    next_roll_cost,
    on_sprocket,
)
from device.state import GameState, Step
from device.rules.contraptions.state import SPROCKETS, Stage, Variant
from device.text import Message, Plural, Text

TEXTS: dict[str, Text] = {
    "ct.view.library_physical": "{library}: physical cards",
    "ct.view.library_cards": Plural("{library}: {n} card(s){top}", "{library}: {n} card(s){top}"),
    "ct.view.top": ", top: {card}",
}


@dataclass(frozen=True)
class UpkeepView:
    seat: int
    name: str
    counter: int | None  # where the CRANK! counter is now (None: variant B has none)
    moved_from: int | None  # the move this upkeep; None when it did not (yet) move
    moved_to: int | None
    sprocket: int | None  # the sprocket that cranks this turn
    cranking: tuple[str, ...]  # what is on it, for the player to crank
    cranked: tuple[str, ...]  # what they cranked, in their order
    faces: tuple[int, ...]  # the upkeep die (A, B)
    banner: tuple[Message, ...]


@dataclass(frozen=True)
class Board:
    """One set of sprockets: a player's (base, A) or the table's (B, C)."""

    seat: int | None
    title: str
    counter: int | None
    sprockets: tuple[tuple[str, ...], ...]  # sprockets 1, 2, 3


def upkeep_view(state: GameState) -> UpkeepView | None:
    """The active player's contraption upkeep, ready for the screen; None without Contraptions."""
    ct = state.contraptions
    if ct is None:
        return None
    seat = state.active
    up = current_upkeep(state)
    index = counter_index(ct, seat)
    counter = None if index is None else ct.counters[index]
    board = board_of(ct, seat)
    banner: list[Message] = []
    sprocket = up.sprocket if up is not None else None
    cranking = (
        tuple(a.card for a in on_sprocket(ct, board, sprocket)) if sprocket is not None else ()
    )
    if up is not None and up.stage is Stage.ROLL:
        banner.append(Message("ct.banner.roll"))
    job = ct.assembly
    if job is not None and job.seat == seat:
        banner.append(job_banner(state, job))
    if up is not None and up.stage is Stage.CRANK and sprocket is not None:
        banner.append(Message("ct.banner.crank", sprocket=sprocket))
    # In variant A the question is settled only after the upkeep assembly (CT-A4).
    if (
        ct.variant is not Variant.RANDOM
        and not machine_runs(ct, seat)
        and (up is None or up.stage is Stage.DONE)
    ):
        banner.append(Message("ct.banner.stopped"))
    cost = next_roll_cost(state)
    if cost is not None and state.step is Step.MAIN and job is None:
        banner.append(Message("ct.banner.roll_cost", cost=cost))
    return UpkeepView(
        seat=seat,
        name=state.player(seat).name,
        counter=counter,
        moved_from=up.moved_from if up else None,
        moved_to=up.moved_to if up else None,
        sprocket=sprocket,
        cranking=cranking,
        cranked=up.cranked if up else (),
        faces=up.faces if up else (),
        banner=tuple(banner),
    )


def boards(state: GameState) -> tuple[Board, ...]:
    """Every set of sprockets with what is assembled on it."""
    ct = state.contraptions
    if ct is None:
        return ()
    if ct.variant.shared_sprockets:
        counter = ct.counters[0] if ct.counters else None
        return (Board(None, "Shared sprockets", counter, _sprockets(state, None)),)
    return tuple(
        Board(p.seat, p.name, ct.counters[p.seat], _sprockets(state, p.seat)) for p in state.players
    )


def _sprockets(state: GameState, board: int | None) -> tuple[tuple[str, ...], ...]:
    ct = state.contraptions
    assert ct is not None
    return tuple(tuple(a.card for a in on_sprocket(ct, board, s)) for s in SPROCKETS)


def library_lines(state: GameState) -> tuple[Message, ...]:
    """Each library with its size and, when face up or revealed, what the players can see."""
    ct = state.contraptions
    if ct is None:
        return ()
    lines = []
    for index, library in enumerate(ct.libraries):
        name = library_message(state, index)
        if library.open:
            lines.append(Message("ct.view.library_physical", library=name))
            continue
        # Faction libraries lie face up (CT-A1): the top card is public.
        public = library.faction is not None and library.cards and not ct.physical
        top: str | Message = Message("ct.view.top", card=library.cards[0]) if public else ""
        lines.append(Message("ct.view.library_cards", library=name, n=len(library.cards), top=top))
    return tuple(lines)
