"""Contraptions invariants for any sequence of commands and undos (CT-1..CT-5, CT-A, CT-B, CT-C).

- every contraption card is in exactly one place: a library, a sprocket, a scrapyard or exile;
- the CRANK! counter only ever moves one step, 3 → 1 → 2 → 3, and (base, A) only for a player
  who controls an assembled contraption, (C) only while a sprocket holds one, (B) never.
"""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device import game as rules
from device.catalog import load_catalog
from device.commands import Advance, Command, NewGame, PassTurn
from device.controller import Controller
from device.errors import IllegalCommand
from device.journal import Journal
from device.rules.contraptions.queries import machine_runs
from device.rules.contraptions.commands import (
    AssembleContraption,
    CopyEnters,
    CrankContraptions,
    DeclineAssembly,
    ExileContraption,
    HighlightSprocket,
    IdentifyContraption,
    KeepLooked,
    PlaceContraption,
    ReassembleContraption,
    RollContraptionDie,
    ScrapContraption,
    UnexileContraption,
)
from device.rules.contraptions.events import CrankCounterMoved
from device.state import GameState
from helpers import play_step

NAMES = load_catalog().contraptions().names
CARDS = st.sampled_from(NAMES)
SEATS = st.integers(0, 2)
SPROCKET = st.integers(1, 3)

COMMANDS: st.SearchStrategy[Command] = st.one_of(
    st.just(Advance()),
    st.just(PassTurn()),
    st.just(RollContraptionDie()),
    st.builds(
        AssembleContraption,
        seat=st.none() | SEATS,
        library=st.none() | st.integers(1, 5),
        sprocket=st.none() | SPROCKET,
    ),
    st.builds(PlaceContraption, sprocket=st.none() | SPROCKET),
    st.builds(HighlightSprocket, step=st.integers(1, 2)),
    st.builds(DeclineAssembly, card=st.none() | CARDS),
    st.builds(
        KeepLooked, card=CARDS, sprocket=SPROCKET, top=st.lists(CARDS, max_size=2).map(tuple)
    ),
    st.builds(CrankContraptions, cards=st.lists(CARDS, max_size=2).map(tuple)),
    st.builds(IdentifyContraption, card=CARDS),
    st.builds(ScrapContraption, card=st.none() | CARDS, owner=st.none() | SEATS),
    st.builds(ExileContraption, card=st.none() | CARDS, owner=st.none() | SEATS),
    st.builds(
        ReassembleContraption, sprocket=SPROCKET, card=st.none() | CARDS, owner=st.none() | SEATS
    ),
    st.builds(UnexileContraption, card=CARDS, owner=st.none() | SEATS),
    st.builds(CopyEnters, card=CARDS, owner=SEATS),
)
# Favour the commands that move cards so short runs get somewhere.
GOOD = st.sampled_from(
    [
        RollContraptionDie(),
        PlaceContraption(),
        PlaceContraption(sprocket=2),
        AssembleContraption(sprocket=1),
        AssembleContraption(library=3),
        PassTurn(),
        Advance(),
        CrankContraptions(),
    ]
)
BUSY = st.one_of(GOOD, GOOD, GOOD, GOOD, GOOD, st.builds(IdentifyContraption, card=CARDS), COMMANDS)


def pick(state: GameState, n: int) -> Command:
    """A command that fits the state, chosen by ``n``: plays a game rather than mostly refusals."""
    ct = state.contraptions
    assert ct is not None
    n = (
        n * 2654435761 + 12345
    ) % 2**32  # Hypothesis likes small numbers; spread them over the menu
    on_table = list(ct.assembled)
    any_card = NAMES[n % len(NAMES)]
    in_library = [c for lib in ct.libraries for c in lib.cards] or [any_card]
    menu: list[Command] = [
        PassTurn(),
        Advance(),
        RollContraptionDie(),
        PlaceContraption(sprocket=n % 3 + 1),
        DeclineAssembly(),
        AssembleContraption(
            sprocket=(n // 3) % 3 + 1 if n % 2 else None,
            library=n % 5 + 1 if ct.variant.value == "a" else None,
        ),
        IdentifyContraption(card=in_library[n % len(in_library)]),
        CopyEnters(card=any_card, owner=n % 3),
    ]
    if on_table:
        target = on_table[n % len(on_table)]
        menu += [
            ScrapContraption(card=target.card, owner=target.owner),
            ExileContraption(card=target.card, owner=target.owner),
            ReassembleContraption(sprocket=n % 3 + 1, card=target.card, owner=target.owner),
            CrankContraptions(
                cards=tuple(a.card for a in on_table if a.sprocket == target.sprocket)[:2]
            ),
            IdentifyContraption(card=target.card),
        ]
    if ct.exile:
        menu.append(UnexileContraption(card=ct.exile[0].card, owner=ct.exile[0].owner))
    if ct.assembly is not None and ct.assembly.looking:
        looked = ct.assembly.looking
        menu.append(
            KeepLooked(
                card=looked[n % len(looked)],
                sprocket=n % 3 + 1,
                top=tuple(c for c in looked[:1] if c != looked[n % len(looked)]),
            )
        )
    return menu[n % len(menu)]


SETUPS = st.sampled_from(
    [
        {"contraptions": "base"},
        {"contraptions": "a"},
        {"contraptions": "a", "faction_dice": "3", "declined": "scrapyard"},
        {"contraptions": "b"},
        {"contraptions": "c"},
        {"contraptions": "base", "contraption_cards": "physical"},
        {"contraptions": "a", "contraption_cards": "physical"},
        {"contraptions": "c", "contraption_cards": "physical"},
    ]
)


def new_game(options: dict[str, str]) -> NewGame:
    return NewGame(
        formats=("ffa", "contraptions"), players=("A", "B", "C"), first="A", options=options
    )


def check_zones(state: GameState) -> None:
    """Each card of each deck (base: per owner; shared variants: the 45) is in exactly one place."""
    ct = state.contraptions
    assert ct is not None
    places: Counter[tuple[int | None, str]] = Counter()
    shared = ct.variant.value != "base"
    for library in ct.libraries:
        for card in library.cards:
            places[(None if shared else library.owner, card)] += 1
    for a in ct.assembled:
        places[(None if shared else a.owner, a.card)] += 1
    for g in (*ct.scrapyard, *ct.exile):
        if not g.is_copy:
            places[(None if shared else g.owner, g.card)] += 1
    assert all(count == 1 for count in places.values()), places.most_common(3)
    if shared and not any(lib.open for lib in ct.libraries):
        assert sorted(card for _, card in places) == sorted(NAMES)
    for library in ct.libraries:
        if not library.open and not shared:
            # a player's own deck never loses or gains a card except by assembling it
            assert len(set(library.cards)) == len(library.cards)
    assert all(1 <= c <= 3 for c in ct.counters)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=SETUPS,
    steps=st.lists(
        st.one_of(st.integers(0, 10**6), st.integers(0, 10**6), BUSY), min_size=10, max_size=60
    ),
    seed=st.integers(0, 2**32),
)
def test_every_contraption_is_in_one_place_and_the_counter_cycles(
    options: dict[str, str], steps: list[Command | int], seed: int
) -> None:
    rng = random.Random(seed)
    state = rules.fold(rules.decide(None, new_game(options), rng))
    check_zones(state)
    for step in steps:
        command = pick(state, step) if isinstance(step, int) else step
        try:
            events = rules.decide(state, command, rng)
        except IllegalCommand:
            continue
        for event in events:
            before = state
            state = rules.apply(state, event)
            if isinstance(event, CrankCounterMoved):
                ct = before.contraptions
                assert ct is not None and ct.variant.value != "b"
                index = 0 if event.board is None else event.board
                assert event.start == ct.counters[index] and event.end == event.start % 3 + 1
                assert machine_runs(ct, event.seat)
            elif before.contraptions is not None and state.contraptions is not None:
                assert before.contraptions.counters == state.contraptions.counters
        check_zones(state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=SETUPS,
    steps=st.lists(
        st.one_of(st.integers(0, 10**6), st.sampled_from(["undo", "redo"])), max_size=25
    ),
    seed=st.integers(0, 2**32),
)
def test_undo_and_redo_keep_every_contraption_in_one_place(
    options: dict[str, str], steps: list[int | str], seed: int
) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        Journal(Path(folder) / "j.sqlite3", snapshot_every=4) as journal,
    ):
        controller = Controller(journal, rng=random.Random(seed))
        controller.execute(new_game(options))
        fresh = controller.state
        for step in steps:
            assert controller.state is not None
            play_step(controller, step if isinstance(step, str) else pick(controller.state, step))
            assert controller.state is not None
            check_zones(controller.state)
        assert controller.game is not None and journal.replay(controller.game) == controller.state
        while True:
            try:
                controller.undo()
            except IllegalCommand:
                break
        assert controller.state == fresh
