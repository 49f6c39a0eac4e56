"""Planechase invariants (PC-4..PC-12): planar cards are conserved through any sequence of rolls,
planeswalks, phenomena, choices, leavings and undos, and replaying the journal equals the live
state."""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.game import GAME
from device.catalog import load_catalog
from device.commands import Advance, Command, Concede, NewGame, PassTurn
from device.controller import Controller
from device.errors import IllegalCommand
from device.journal import Journal
from device.rules.planechase.queries import planar_controllers
from device.rules.planechase.commands import (
    AcknowledgePhenomenon,
    ChangePlaneCounters,
    ChoosePlanar,
    Planeswalk,
    ReturnPlanarCard,
    RevealPlanarCard,
    RollPlanarDie,
    SetPlanarDeck,
)
from device.state import GameState

SEATS = st.integers(0, 3)
COMMANDS: st.SearchStrategy[Command | str] = st.one_of(
    st.just(Advance()),
    st.just(PassTurn()),
    st.builds(RollPlanarDie, seat=st.none() | SEATS, free=st.booleans()),
    st.just(Planeswalk()),
    st.just(AcknowledgePhenomenon()),
    st.builds(
        ChoosePlanar,
        answer=st.sampled_from([("top",), ("bottom",), ("north",), ("ne",), ("east",)]),
    ),
    st.just("choose-first"),
    st.builds(ChangePlaneCounters, delta=st.integers(-1, 2)),
    st.builds(Concede, seat=SEATS),
    st.just("undo"),
    st.just("redo"),
)
OPTIONS = st.sampled_from(
    [
        {},
        {"communal_deck": "on"},
        {"communal_deck": "on", "eternities_map": "on"},
        {"2hg": ""},  # the Two-Headed Giant table format (TB-6), not an option
        {"planar_deck": "opc2"},
        {"grand_melee": "on"},
        {"grand_melee": "on", "turn_markers": "2"},
    ]
)


def _cards(state: GameState) -> Counter[tuple[int | None, str]]:
    """Every planar card by (owner, name), wherever it is."""
    pc = state.planechase
    assert pc is not None
    seen: Counter[tuple[int | None, str]] = Counter()
    for deck in pc.decks:
        seen.update((deck.owner, c.name) for c in deck.cards)
    seen.update((None if pc.communal else c.owner, c.name) for c in pc.face_up)
    if pc.choice is not None:
        seen.update((pc.choice.deck, c.name) for c in pc.choice.cards)
    if pc.map is not None:
        seen.update((None, c.name) for c in pc.map.cells)
    return seen


def _step(controller: Controller, step: Command | str) -> None:
    try:
        if step == "undo":
            controller.undo()
        elif step == "redo":
            controller.redo()
        elif step == "choose-first":
            state = controller.state
            assert state is not None and state.planechase is not None
            choice = state.planechase.choice
            if choice is not None and choice.cards:
                planes = [c.name for c in choice.cards if c.kind.value == "plane"] or [
                    choice.cards[0].name
                ]
                answer = (
                    tuple(c.name for c in choice.cards)
                    if choice.kind.value == "pools_of_becoming"
                    else (planes[0],)
                )
                controller.execute(ChoosePlanar(answer=answer))
        else:
            assert isinstance(step, Command)
            controller.execute(step)
    except IllegalCommand:
        pass


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(COMMANDS, max_size=40), seed=st.integers(0, 2**32), options=OPTIONS)
def test_pc_planar_cards_are_conserved_and_replay_equals_live(
    steps: list[Command | str], seed: int, options: dict[str, str]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.sqlite3"
        with Journal(path, snapshot_every=5) as journal:
            controller = Controller(journal, rng=random.Random(seed))
            formats = ("ffa", "2hg", "planechase") if "2hg" in options else ("ffa", "planechase")
            options = {k: v for k, v in options.items() if k != "2hg"}
            controller.execute(
                NewGame(formats=formats, players=("A", "B", "C", "D"), options=options)
            )
            assert controller.state is not None
            start = _cards(controller.state)
            assert all(n == 1 for n in start.values())
            for step in steps:
                _step(controller, step)
                state = controller.state
                assert state is not None
                now = _cards(state)
                assert all(n == 1 for n in now.values()), "a planar card is duplicated"
                gone = {owner for owner in range(4) if not state.player(owner).in_game}
                assert set(now) == {key for key in start if key[0] not in gone}, (
                    "a planar card was lost"
                )
                pc = state.planechase
                assert pc is not None
                assert (pc.encounter is None) or any(c.name == pc.encounter for c in pc.face_up)
                if (
                    GAME.outcome(state) is None
                ):  # 901.6, 901.12b: the planar controller is a player in the game
                    assert all(state.player(seat).in_game for seat in planar_controllers(state))
            game = controller.game
            assert game is not None
            assert journal.replay(game) == controller.state


PLANES = [c.name for c in load_catalog().planes()]
LISTS = {0: ["Morphic Tide", *PLANES[:9]], 1: PLANES[9:19], 2: ["Spatial Merging", *PLANES[19:28]]}
TAPPED = st.sampled_from(sorted({name for names in LISTS.values() for name in names}))
PHYSICAL: st.SearchStrategy[Command | str] = st.one_of(
    st.just(Advance()),
    st.just(PassTurn()),
    st.builds(RollPlanarDie, seat=st.none(), pip=st.sampled_from([1, 2, 6, 6])),
    st.just(Planeswalk()),
    st.just(AcknowledgePhenomenon()),
    st.builds(RevealPlanarCard, name=TAPPED),
    st.builds(RevealPlanarCard, name=TAPPED),
    st.builds(ReturnPlanarCard, name=TAPPED),
    st.builds(Concede, seat=st.integers(0, 2)),
    st.just("undo"),
    st.just("redo"),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(PHYSICAL, max_size=60))
def test_pc12_701_22b_a_listed_physical_deck_is_always_a_permutation_of_its_cards(
    steps: list[Command | str],
) -> None:
    """PC-6, PC-12 (701.22b): whatever cards are tapped (right or wrong), returned, rolled for,
    conceded and undone, each listed physical deck with its face-up cards holds exactly the
    cards it was listed with, its unseen cards are among them, and replay equals live state."""
    with (
        tempfile.TemporaryDirectory() as folder,
        Journal(Path(folder) / "j.sqlite3", snapshot_every=5) as journal,
    ):
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(
            NewGame(
                formats=("ffa", "planechase"),
                players=("A", "B", "C"),
                first="A",
                options={"planar_deck": "physical"},
            )
        )
        for owner, names in LISTS.items():
            controller.execute(SetPlanarDeck(owner=owner, names=tuple(names)))
        for step in steps:
            _step(controller, step)
            state = controller.state
            assert state is not None and state.planechase is not None
            pc = state.planechase
            for owner, names in LISTS.items():
                deck = pc.deck(owner)
                if not state.player(owner).in_game:
                    assert deck is None
                    continue
                assert deck is not None
                if not deck.listed:
                    continue  # undo took the listing back
                held = [c.name for c in deck.cards] + [
                    c.name for c in pc.face_up if c.owner == owner
                ]
                assert sorted(held) == sorted(names), (
                    "a listed physical deck is not a permutation of its cards"
                )
                assert 0 <= deck.unseen <= len(deck.cards)
            if GAME.outcome(state) is None:
                assert all(state.player(seat).in_game for seat in planar_controllers(state))
        game = controller.game
        assert game is not None
        assert journal.replay(game) == controller.state
