"""What the rules, the screen and the console ask of a Contraptions game, as pure functions
of the ``GameState`` (the screen's own views are in ``view``):

- ``contraptions(state)``: the game's part, refused with a hint when it has none;
- whose sprockets a seat assembles onto, its CRANK! counter, what is on a sprocket, the upkeep
  this turn, what a player controls and whether their machine runs (CT-4, CT-B3, CT-C1);
- the names of libraries and boards as messages, and what the next assembly roll costs (CT-C2);
- the words and refusals several deciders and describers share: the crank on offer, the banner
  of an assembly in progress, a sprocket out of range, a variant that is not played.
"""

from __future__ import annotations

from collections.abc import Sequence

from device.catalog import Faction
from device.errors import IllegalCommand
from device.rules.contraptions.state import (
    SPROCKETS,
    Assembled,
    Assembly,
    ContraptionsState,
    Upkeep,
    Variant,
)
from device.state import GameState
from device.text import Message, listing

FIRST_ROLL_COST = 2  # CT-C2: {2}, then {1} more for each further roll in the turn


def contraptions(state: GameState) -> ContraptionsState:
    if state.contraptions is None:
        raise IllegalCommand("ct.not_in_game")
    return state.contraptions


def board_of(ct: ContraptionsState, seat: int) -> int | None:
    """Whose sprockets ``seat`` assembles onto: their own, or the table's shared ones."""
    return None if ct.variant.shared_sprockets else seat


def counter_index(ct: ContraptionsState, seat: int) -> int | None:
    if ct.variant is Variant.RANDOM:
        return None
    return 0 if ct.variant is Variant.PLANAR else seat


def on_sprocket(ct: ContraptionsState, board: int | None, sprocket: int) -> tuple[Assembled, ...]:
    return tuple(a for a in ct.assembled if a.board == board and a.sprocket == sprocket)


def current_upkeep(state: GameState) -> Upkeep | None:
    """The active player's contraption upkeep this turn, if it has begun."""
    ct = state.contraptions
    if ct is None or ct.upkeep is None:
        return None
    up = ct.upkeep
    return up if up.turn == state.turn and up.seat == state.active else None


def controlled(state: GameState, seat: int) -> tuple[Assembled, ...]:
    """The assembled contraptions ``seat`` controls now.

    Base and A: those on their own sprockets.  B (CT-B3): those on the sprocket they cranked
    this turn, none otherwise.  C (CT-C1): the active player controls those on the sprocket the
    counter is on.
    """
    ct = state.contraptions
    if ct is None:
        return ()
    if ct.variant is Variant.RANDOM:
        up = current_upkeep(state)
        if up is None or up.seat != seat or up.sprocket is None:
            return ()
        return on_sprocket(ct, None, up.sprocket)
    if ct.variant is Variant.PLANAR:
        return on_sprocket(ct, None, ct.counters[0]) if seat == state.active else ()
    return tuple(a for a in ct.assembled if a.board == seat)


def machine_runs(ct: ContraptionsState, seat: int) -> bool:
    """CT-4 (base, A): the player controls an assembled contraption; CT-C1: any sprocket holds one."""
    if ct.variant is Variant.PLANAR:
        return bool(ct.assembled)
    return any(a.board == seat for a in ct.assembled)


def library_message(state: GameState, index: int) -> Message:
    ct = contraptions(state)
    library = ct.libraries[index]
    if library.owner is not None:
        return Message("ct.deck_of", name=state.player(library.owner).name)
    if library.faction is not None:
        return Message(
            "ct.faction_library", number=library.faction, faction=Faction(library.faction).label
        )
    return Message("ct.shared_deck")


def library_name(state: GameState, index: int) -> str:
    return str(library_message(state, index))


def libraries_message(state: GameState, indexes: Sequence[int]) -> Message:
    """ "A or B or C" as one message, so each language joins the names its own way."""
    if len(indexes) == 1:
        return library_message(state, indexes[0])
    return Message(
        "ct.or",
        first=library_message(state, indexes[0]),
        second=libraries_message(state, indexes[1:]),
    )


def board_message(board: int | None, state: GameState) -> Message:
    if board is None:
        return Message("ct.board_shared")
    return Message("ct.board_of", name=state.player(board).name)


def library_of(ct: ContraptionsState, seat: int) -> int:
    """The library a card-instructed assembly uses in base, B and C."""
    return seat if ct.variant is Variant.BASE else 0


def next_roll_cost(state: GameState) -> int | None:
    """CT-C2: what the next assembly roll costs this turn; None outside variant C."""
    ct = state.contraptions
    if ct is None or ct.variant is not Variant.PLANAR:
        return None
    done = ct.rolls if ct.rolls_turn == state.turn else 0
    return FIRST_ROLL_COST + done


def name_of(state: GameState, seat: int) -> str:
    return state.player(seat).name


def crank_offer(
    state: GameState, seat: int, board: int | None, sprocket: int, sentence: bool = False
) -> Message:
    cards = [a.card for a in on_sprocket(contraptions(state), board, sprocket)]
    if not cards:
        return Message(
            "ct.crank_empty_sentence" if sentence else "ct.crank_empty", sprocket=sprocket
        )
    return Message(
        "ct.crank_any",
        name=name_of(state, seat),
        cards=listing(cards, "text.list"),
        sprocket=sprocket,
    )


def job_banner(state: GameState, job: Assembly) -> Message:
    if job.card is not None:
        return Message("ct.banner.sprocket", card=job.card)
    if job.looking:
        return Message("ct.banner.look", count=len(job.looking))
    if len(job.libraries) > 1:
        return Message(
            "ct.banner.choose_library", libraries=libraries_message(state, job.libraries)
        )
    return Message("ct.banner.tap")


def busy(state: GameState, job: Assembly) -> IllegalCommand:
    return IllegalCommand("ct.busy", name=state.player(job.seat).name, what=job_banner(state, job))


def need_variant(ct: ContraptionsState, *variants: Variant) -> None:
    if ct.variant not in variants:
        needed = listing([Message(f"ct.variant_name.{v.value}") for v in variants], "text.or")
        raise IllegalCommand(
            "ct.no_variant", needed=needed, variant=Message(f"ct.variant.{ct.variant.value}")
        )


def checked_sprocket(value: int | None) -> int | None:
    if value is not None and value not in SPROCKETS:
        raise IllegalCommand("ct.bad_sprocket", sprocket=value)
    return value
