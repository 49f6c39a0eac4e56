"""Planechase: SPEC section 1 (PC-1..PC-14), through the controller, with exact messages.

Most tests use ``Scripted``: a ``random.Random`` whose shuffles keep the order given (so a deck
set with ``deck`` is in the listed order, top first) and whose die lands on the pips the test
names.  Fairness is checked separately with a seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, MutableSequence
from pathlib import Path
from typing import Any

import pytest

from device import game as rules
from device.commands import Advance, Concede, NewGame, PassTurn
from device.controller import Controller
from device.errors import IllegalCommand
from device.inputs import Button, ButtonPressed
from device.journal import Journal
from device.catalog import load_catalog
from device.rules.planechase.die import face_of
from device.rules.planechase.queries import (
    chance_to_planeswalk,
    cost_of_rolls,
    deck_problems,
    next_roll_cost,
    odds,
    planar_controller,
    planar_controllers,
)
from device.rules.planechase.commands import (
    AcknowledgePhenomenon,
    ChangePlaneCounters,
    ChoosePlanar,
    Planeswalk,
    ReturnPlanarCard,
    RollPlanarDie,
    SetPlanarDeck,
)
from device.state import GameState
from device.rules.planechase.state import DieFace, PlanechaseState
from helpers import refused

A, B, C, D = 0, 1, 2, 3
PLANES = [c.name for c in load_catalog().planes()]
P = PLANES  # shorthand: P[0] is "Academy at Tolaria West", …


class Scripted(random.Random):
    """Shuffles keep the order; the die lands on the scripted pips (1 chaos, 6 planeswalk)."""

    def __init__(self, pips: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.pips: list[int] = list(pips)

    def shuffle(self, x: MutableSequence[Any], *args: Any, **kwargs: Any) -> None:
        return None

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        if start == 6 and stop is None and self.pips:
            return self.pips.pop(0) - 1
        return 0


@pytest.fixture
def scripted(journal_path: Path) -> Iterator[tuple[Controller, Scripted]]:
    rng = Scripted()
    journal = Journal(journal_path)
    try:
        yield Controller(journal, rng=rng), rng
    finally:
        journal.close()


def start(
    controller: Controller,
    *players: str,
    formats: tuple[str, ...] = ("ffa", "planechase"),
    **options: str,
) -> list[str]:
    result = controller.execute(
        NewGame(
            formats=formats,
            players=players or ("Alice", "Bob", "Carol", "Dan"),
            first="Alice",
            options=options,
        )
    )
    return [str(m) for m in result.messages]


def say(controller: Controller, command: Any) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]


def pc(controller: Controller) -> PlanechaseState:
    assert controller.state is not None and controller.state.planechase is not None
    return controller.state.planechase


def st(controller: Controller) -> GameState:
    assert controller.state is not None
    return controller.state


def deck(controller: Controller, owner: int | None, *names: str) -> list[str]:
    return say(controller, SetPlanarDeck(owner=owner, names=names))


def names(cards: Iterable[Any]) -> list[str]:
    return [c.name for c in cards]


# --- PC-1 the die -----------------------------------------------------------------------------


def test_pc1_planar_die_faces_and_the_plain_d6_mapping() -> None:
    """PC-1: one planeswalker side, one chaos side, four blanks; a plain d6: 1 chaos, 6 planeswalk."""
    faces = [face_of(pip) for pip in range(1, 7)]
    assert faces.count(DieFace.PLANESWALK) == 1 and faces.count(DieFace.CHAOS) == 1
    assert faces.count(DieFace.BLANK) == 4
    assert face_of(1) is DieFace.CHAOS and face_of(6) is DieFace.PLANESWALK


def test_pc1_plain_d6_option_labels_the_roll_log(
    scripted: tuple[Controller, Scripted], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PC-1, PC-13: with plain_d6 the log shows the number rolled; the state keeps face and result."""
    controller, rng = scripted
    start(controller, plain_d6="on")
    assert pc(controller).plain_d6
    controller.execute(Advance())
    rng.pips = [3]
    controller.execute(RollPlanarDie())
    roll = pc(controller).rolls[-1]
    assert (roll.pip, roll.face, roll.result, roll.cost, roll.special) == (
        3,
        DieFace.BLANK,
        DieFace.BLANK,
        0,
        True,
    )
    from device.rules.planechase.die import pip_label

    assert pip_label(st(controller), roll) == "3"


def test_pc1_rolls_are_fair_chi_square() -> None:
    """PC-1: 60,000 rolls from a seeded generator pass a chi-square test at the 1% level."""
    rng = random.Random(20240601)
    state = rules.fold(
        rules.decide(
            None, NewGame(formats=("ffa", "planechase"), players=("A", "B"), first="A"), rng
        )
    )
    counts = [0] * 6
    for _ in range(60_000):
        event = rules.decide(state, RollPlanarDie(free=True), rng)[0]
        counts[event.pip - 1] += 1  # type: ignore[attr-defined]
    expected = 10_000
    chi2 = sum((n - expected) ** 2 / expected for n in counts)
    assert chi2 < 15.086  # 5 degrees of freedom, 1%


def test_pc1_production_rng_is_system_random(journal_path: Path) -> None:
    """PC-1: without a seed the gadget rolls with the operating system's secure source."""
    with Journal(journal_path) as journal:
        assert isinstance(Controller(journal).rng, random.SystemRandom)


# --- PC-2 roll costs ---------------------------------------------------------------------------


def test_pc2_kth_roll_costs_k_minus_1_and_effect_rolls_are_free(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-2: first roll free, then 1, 2 …; an effect's roll is free and does not raise the cost."""
    controller, rng = scripted
    start(controller)
    controller.execute(Advance())
    rng.pips = [2, 3, 4, 5]
    assert say(controller, RollPlanarDie()) == ["Alice rolled a blank (free): nothing happens."]
    assert next_roll_cost(st(controller), A) == 1
    assert say(controller, RollPlanarDie(free=True)) == [
        "Alice rolled a blank (an effect's roll, free): nothing happens."
    ]
    assert next_roll_cost(st(controller), A) == 1
    assert say(controller, RollPlanarDie()) == ["Alice rolled a blank (cost 1): nothing happens."]
    assert say(controller, RollPlanarDie()) == ["Alice rolled a blank (cost 2): nothing happens."]
    assert pc(controller).next_cost[A] == 3
    assert [r.cost for r in pc(controller).rolls] == [0, 0, 1, 2]


def test_pc2_only_the_active_player_in_the_main_phase(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-2: upkeep is refused with "press NEXT"; another player is refused in the main phase."""
    controller, rng = scripted
    start(controller)
    assert refused(controller, RollPlanarDie()) == (
        "Alice may roll the planar die only in their main phase: press NEXT to end the upkeep first."
    )
    controller.execute(Advance())
    assert refused(controller, RollPlanarDie(seat=B)) == (
        "Only Alice may roll the planar die now, as the special action (901.9); Bob may not."
    )


def test_pc2_cost_resets_when_the_turn_passes_not_when_planeswalking(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-2: a planeswalk keeps the count; passing the turn resets it for everyone."""
    controller, rng = scripted
    start(controller)
    controller.execute(Advance())
    rng.pips = [6, 2]
    controller.execute(RollPlanarDie())
    assert say(controller, RollPlanarDie()) == ["Alice rolled a blank (cost 1): nothing happens."]
    messages = say(controller, PassTurn())
    assert messages == ["Turn 2: Bob's upkeep.", "Planar die: the first roll this turn is free."]
    assert next_roll_cost(st(controller), A) == 0 and next_roll_cost(st(controller), B) == 0


def test_pc2_roll_button_binding(scripted: tuple[Controller, Scripted]) -> None:
    """PC-2: ROLL in the main phase is the active player's special-action roll."""
    controller, rng = scripted
    start(controller)
    with pytest.raises(IllegalCommand, match="press NEXT to end the upkeep first"):
        controller.press(ButtonPressed(Button.ROLL))
    controller.press(ButtonPressed(Button.NEXT))
    rng.pips = [4]
    result = controller.press(ButtonPressed(Button.ROLL))
    assert result is not None and [str(m) for m in result.messages] == [
        "Alice rolled a blank (free): nothing happens."
    ]


# --- PC-3 faces ---------------------------------------------------------------------------------


def test_pc3_chaos_triggers_the_face_up_plane_and_planeswalk_moves_on(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-3: CH triggers the plane's chaos ability; PL planeswalks the roller."""
    controller, rng = scripted
    start(controller)
    deck(controller, A, *P[:10])
    controller.execute(Advance())
    rng.pips = [1, 6]
    assert say(controller, RollPlanarDie()) == [
        f"Alice rolled CHAOS (free): {P[0]}'s chaos ability triggers."
    ]
    assert say(controller, RollPlanarDie()) == [
        "Alice rolled PLANESWALK (cost 1).",
        f"Alice planeswalks away from {P[0]} to {P[1]}.",
    ]


# --- PC-4 legality -------------------------------------------------------------------------------


def test_pc4_deck_problems_are_values_explaining_every_problem() -> None:
    """PC-4 (901.3): ≥ 10 cards, at most 2 phenomena, different names — each problem listed."""
    catalog = load_catalog()
    phen = list(catalog.phenomena())
    cards = [catalog.find(P[0]), catalog.find(P[0]), *phen[:3]]
    assert [str(m) for m in deck_problems(cards, 4, communal=False)] == [
        "it has 5 cards, it needs at least 10",
        "it has 3 phenomena, at most 2 are allowed",
        f"{P[0]} is in it 2 times (each card needs a different English name)",
    ]
    legal = [catalog.find(n) for n in P[:8]] + phen[:2]
    assert deck_problems(legal, 4, communal=False) == []


def test_pc4_communal_deck_limits_for_three_and_five_players() -> None:
    """PC-4 (901.15a): at least min(40, 10 × players) cards, at most 2 × players phenomena."""
    catalog = load_catalog()
    phen = list(catalog.phenomena())
    thirty = [catalog.find(n) for n in P[:30]]
    assert deck_problems(thirty, 3, communal=True) == []
    assert [str(m) for m in deck_problems(thirty[:29], 3, communal=True)] == [
        "it has 29 cards, it needs at least 30"
    ]
    assert [str(m) for m in deck_problems(thirty[:24] + phen[:7], 3, communal=True)] == [
        "it has 7 phenomena, at most 6 are allowed"
    ]
    forty = [catalog.find(n) for n in P[:40]]
    assert [str(m) for m in deck_problems(forty[:39], 5, communal=True)] == [
        "it has 39 cards, it needs at least 40"
    ]
    assert deck_problems(forty[:30] + phen[:10], 5, communal=True) == []
    assert [str(m) for m in deck_problems(forty[:29] + phen[:11], 5, communal=True)] == [
        "it has 11 phenomena, at most 10 are allowed"
    ]


def test_pc4_deck_command_refuses_an_illegal_deck_with_the_reasons(
    scripted: tuple[Controller, Scripted],
) -> None:
    controller, rng = scripted
    start(controller)
    assert refused(controller, SetPlanarDeck(owner=A, names=(P[0], P[0], "Chaotic Aether"))) == (
        "That planar deck is not legal: it has 3 cards, it needs at least 10; "
        f"{P[0]} is in it 2 times (each card needs a different English name)."
    )


# --- PC-5 start ------------------------------------------------------------------------------------


def test_pc5_starting_plane_with_phenomena_on_top(scripted: tuple[Controller, Scripted]) -> None:
    """PC-5 (901.5): phenomena on top go to the bottom, nothing triggers, until a plane."""
    controller, rng = scripted
    start(controller)
    messages = deck(controller, A, "Chaotic Aether", "Time Distortion", *P[:8])
    assert messages[1:] == [
        "Chaotic Aether is a phenomenon: it goes to the bottom of Alice's planar deck (nothing triggers while "
        "the starting plane is found).",
        "Time Distortion is a phenomenon: it goes to the bottom of Alice's planar deck (nothing triggers while "
        "the starting plane is found).",
        f"Starting plane: {P[0]} (Alice).",
    ]
    state = pc(controller)
    assert names(state.face_up) == [P[0]] and state.encounter is None and not state.chaos_blanks
    assert names(state.deck(A).cards) == [*P[1:8], "Chaotic Aether", "Time Distortion"]  # type: ignore[union-attr]
    assert st(controller).direction == 1


# --- PC-6 planeswalk -------------------------------------------------------------------------------


def test_pc6_planeswalk_returns_cards_to_their_owners_deck(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-6 (701.22b): the face-up plane goes under its OWNER's deck; the planeswalker turns
    over the top of their own deck."""
    controller, rng = scripted
    start(controller)
    deck(controller, A, *P[:10])
    deck(controller, B, *P[10:20])
    controller.execute(PassTurn())
    controller.execute(Advance())
    rng.pips = [6]
    assert say(controller, RollPlanarDie()) == [
        "Bob rolled PLANESWALK (free).",
        f"Bob planeswalks away from {P[0]} to {P[10]}.",
    ]
    assert names(pc(controller).deck(A).cards)[-1] == P[0]  # type: ignore[union-attr]
    assert names(pc(controller).deck(B).cards)[0] == P[11]  # type: ignore[union-attr]
    assert [v.name for v in pc(controller).visited] == [P[0], P[10]]


# --- PC-7 phenomena ---------------------------------------------------------------------------------


def test_pc7_phenomenon_is_shown_then_acknowledged_by_next(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-7: encounter → shown (pending) → NEXT acknowledges → the planar controller planeswalks."""
    controller, rng = scripted
    start(controller)
    deck(controller, A, P[0], "Mutual Epiphany", *P[1:9])
    controller.execute(Advance())
    rng.pips = [6]
    assert say(controller, RollPlanarDie()) == [
        "Alice rolled PLANESWALK (free).",
        f"Alice planeswalks away from {P[0]} to Mutual Epiphany. Alice encounters Mutual Epiphany: resolve it, "
        "then press NEXT.",
    ]
    assert pc(controller).encounter == "Mutual Epiphany"
    assert refused(controller, RollPlanarDie()) == (
        "Mutual Epiphany is being encountered: press NEXT (or 'ack') to resolve it first."
    )
    result = controller.press(ButtonPressed(Button.NEXT))
    assert result is not None
    assert [str(m) for m in result.messages] == [
        f"Alice planeswalks away from Mutual Epiphany to {P[1]}."
    ]
    assert pc(controller).encounter is None and st(controller).step.value == "main"
    assert (
        refused(controller, AcknowledgePhenomenon())
        == "No phenomenon is waiting to be acknowledged."
    )


# --- PC-8 planar controller and leaving ----------------------------------------------------------------


def test_pc8_controller_leaves_with_their_plane_face_up(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-8 (901.6, 901.10): the next staying player becomes planar controller first; the
    leaver's cards leave; the new controller turns over the top of their own deck at once."""
    controller, rng = scripted
    start(controller)
    deck(controller, A, *P[:10])
    deck(controller, B, *P[10:20])
    assert say(controller, Concede(seat=A)) == [
        "Alice has conceded.",
        "Bob becomes the planar controller.",
        f"Alice's planar cards leave the game with them, including face-up {P[0]}.",
        f"Bob planeswalks to {P[10]}.",
    ]
    state = pc(controller)
    assert planar_controller(st(controller)) == B and state.deck(A) is None
    assert names(state.face_up) == [P[10]]
    controller.execute(PassTurn())
    assert pc(controller).controller is None and planar_controller(st(controller)) == B
    controller.undo()
    controller.undo()
    assert names(pc(controller).face_up) == [P[0]] and pc(controller).deck(A) is not None


def test_pc8_a_non_owner_leaving_changes_nothing_face_up(
    scripted: tuple[Controller, Scripted],
) -> None:
    controller, rng = scripted
    start(controller)
    deck(controller, A, *P[:10])
    assert say(controller, Concede(seat=C)) == [
        "Carol has conceded.",
        "Carol's planar cards leave the game with them.",
    ]
    assert names(pc(controller).face_up) == [P[0]] and pc(controller).deck(C) is None


# --- PC-9 Two-Headed Giant ------------------------------------------------------------------------------


def test_pc9_two_headed_giant_cost_per_member(scripted: tuple[Controller, Scripted]) -> None:
    """PC-9 (901.12d): each member of the active team may roll; each one's cost counts their own rolls."""
    controller, rng = scripted
    start(controller, formats=("ffa", "2hg", "planechase"))
    controller.execute(Advance())
    rng.pips = [2, 3, 4, 5]
    assert say(controller, RollPlanarDie(seat=A)) == [
        "Alice rolled a blank (free): nothing happens."
    ]
    assert say(controller, RollPlanarDie(seat=B)) == ["Bob rolled a blank (free): nothing happens."]
    assert say(controller, RollPlanarDie(seat=B)) == [
        "Bob rolled a blank (cost 1): nothing happens."
    ]
    assert say(controller, RollPlanarDie(seat=A)) == [
        "Alice rolled a blank (cost 1): nothing happens."
    ]
    assert refused(controller, RollPlanarDie(seat=C)) == (
        "Only Alice or Bob may roll the planar die now, as the special action (901.9); Carol may not."
    )
    assert planar_controller(st(controller)) == A


def test_tb6_pc9_two_headed_giant_needs_teams_of_two(journal_path: Path) -> None:
    """TB-6: teams of two adjacent seats: five players make no teams, three are too few."""
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        with pytest.raises(
            IllegalCommand, match="5 players make no teams of two. Seat an even number of players."
        ):
            start(
                controller,
                "Alice",
                "Bob",
                "Carol",
                "Dan",
                "Eve",
                formats=("ffa", "2hg", "planechase"),
            )
        with pytest.raises(
            IllegalCommand, match="Two-Headed Giant is for 4–10 players; this table has 3"
        ):
            start(controller, "Alice", "Bob", "Carol", formats=("ffa", "2hg", "planechase"))
        with pytest.raises(
            IllegalCommand, match="Two-Headed Giant with grand_melee is not a Planechase variant"
        ):
            start(controller, formats=("ffa", "2hg", "planechase"), grand_melee="on")


def test_pc12_a_deck_larger_than_its_set_allows_is_refused_not_shrunk(journal_path: Path) -> None:
    """PC-4, PC-12: OPC2 with at most two phenomena makes a deck of 34 cards; asking for 40 is
    refused with that number rather than silently dealing 34, and 30 is dealt as asked."""
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        with pytest.raises(IllegalCommand) as refused:
            start(controller, planar_deck="opc2", planar_deck_size="40")
        assert str(refused.value) == (
            "That planar deck is not legal: the set OPC2 makes a deck of at most 34 cards "
            "(at most two phenomena), not 40."
        )
        assert controller.state is None
        start(controller, planar_deck="opc2", planar_deck_size="30")
        assert [len(d.cards) for d in pc(controller).decks] == [
            29,
            30,
            30,
            30,
        ]  # the starting plane is face up


# --- PC-10 Grand Melee ----------------------------------------------------------------------------------


def test_pc10_grand_melee_one_plane_per_turn_marker(scripted: tuple[Controller, Scripted]) -> None:
    """PC-10 (901.14): each marker holder sets a starting plane and planeswalks only their own."""
    controller, rng = scripted
    players = ("A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "I9", "J10")
    controller.execute(
        NewGame(
            formats=("ffa", "planechase"),
            players=players,
            first="A1",
            options={"grand_melee": "on"},
        )
    )
    state = pc(controller)
    assert state.markers == (0, 4)
    assert [(c.owner, c.marker) for c in state.face_up] == [(0, 0), (4, 1)]
    controller.execute(Advance())
    rng.pips = [6]
    first_e5 = state.face_up[1].name
    controller.execute(RollPlanarDie(seat=4))
    after = pc(controller)
    assert after.face_up[0].name == state.face_up[0].name and after.face_up[1].name != first_e5
    controller.execute(PassTurn())
    assert pc(controller).markers == (1, 5)
    messages = say(controller, Concede(seat=5))
    assert (
        messages[1]
        == "G7 becomes the planar controller of F6's planes and takes F6's turn marker when this turn ends."
    )
    assert pc(controller).markers == (1, 5) and planar_controllers(st(controller)) == (1, 6)


@pytest.mark.parametrize("count", range(4, 11))
def test_pc10_grand_melee_markers_go_to_every_fifth_player(
    controller: Controller, count: int
) -> None:
    """PC-10 (CR 807.4a, 807.4b): one turn marker for each full four players; the starting
    player has the first and the player four seats to their left (the fifth player) the second:
    at a table of ten, seats 3 and 7 when the third player starts, not 3 and 8.  Four to seven
    players have one marker, eight to ten two; `new` says so."""
    players = tuple(f"P{n}" for n in range(1, count + 1))
    result = controller.execute(
        NewGame(
            formats=("ffa", "planechase"),
            players=players,
            first="P3",
            options={"grand_melee": "on"},
        )
    )
    expected = (2, 6 % count) if count >= 8 else (2,)
    assert pc(controller).markers == expected
    assert [c.owner for c in pc(controller).face_up] == list(expected)
    said = [str(m) for m in result.messages][1]
    holders = " and ".join(players[seat] for seat in expected)
    markers = "2 turn markers" if count >= 8 else "1 turn marker"
    assert said.endswith(
        f" Grand Melee: {markers}, one for each full four players (807.4a), held by {holders}."
    )


def test_pc10_a_removed_turn_marker_names_its_plane_in_good_english(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-10 (901.14b): C3 holds the second of two markers the four players chose and concedes;
    three players cannot keep two markers, so C3's marker is removed and its one plane "goes" to the bottom."""
    controller, _ = scripted
    controller.execute(
        NewGame(
            formats=("ffa", "planechase"),
            players=("A1", "B2", "C3", "D4"),
            first="A1",
            options={"grand_melee": "on", "turn_markers": "2"},
        )
    )
    plane = pc(controller).face_up[1].name
    messages = say(controller, Concede(seat=2))
    assert (
        f"C3's turn marker is removed; {plane} goes to the bottom without anyone planeswalking."
        in messages
    )


# --- PC-11 special cards -----------------------------------------------------------------------------------


def _encounter(controller: Controller, rng: Scripted, phenomenon: str, rest: list[str]) -> None:
    start(controller)
    deck(controller, A, P[0], phenomenon, *rest)
    controller.execute(Advance())
    rng.pips = [6]
    controller.execute(RollPlanarDie())
    assert pc(controller).encounter == phenomenon


def test_pc11_chaotic_aether_blanks_are_chaos_until_a_plane_is_left(
    scripted: tuple[Controller, Scripted],
) -> None:
    controller, rng = scripted
    _encounter(controller, rng, "Chaotic Aether", P[1:9])
    assert say(controller, AcknowledgePhenomenon()) == [
        "Chaotic Aether: blanks count as chaos until someone planeswalks away from a plane.",
        f"Alice planeswalks away from Chaotic Aether to {P[1]}.",
    ]
    assert (
        pc(controller).chaos_blanks
        and odds(st(controller)).chaos == 5 * odds(st(controller)).planeswalk
    )
    rng.pips = [3]
    assert say(controller, RollPlanarDie()) == [
        f"Alice rolled a blank (cost 1), which counts as CHAOS (Chaotic Aether): {P[1]}'s chaos ability triggers."
    ]
    rng.pips = [6]
    controller.execute(RollPlanarDie())
    assert not pc(controller).chaos_blanks


def test_pc11_interplanar_tunnel_choice(scripted: tuple[Controller, Scripted]) -> None:
    controller, rng = scripted
    _encounter(controller, rng, "Interplanar Tunnel", [P[1], "Time Distortion", *P[2:8]])
    assert say(controller, AcknowledgePhenomenon()) == [
        f"Interplanar Tunnel reveals {P[1]}, Time Distortion, {P[2]}, {P[3]}, {P[4]}, {P[5]}: Alice, choose the "
        "plane to put on top ('choose NAME')."
    ]
    choice = pc(controller).choice
    assert choice is not None and choice.kind.value == "interplanar_tunnel"
    assert refused(controller, ChoosePlanar(answer=("Time Distortion",))).startswith(
        "'Time Distortion' is not one"
    )
    messages = say(controller, ChoosePlanar(answer=(P[4],)))
    assert messages[0] == (
        f"Alice puts {P[4]} on top and {P[1]}, Time Distortion, {P[2]}, {P[3]}, {P[5]} on the bottom."
    )
    assert messages[1] == f"Alice planeswalks away from Interplanar Tunnel to {P[4]}."
    assert names(pc(controller).deck(A).cards) == [  # type: ignore[union-attr]
        P[6],
        P[7],
        P[0],
        P[1],
        "Time Distortion",
        P[2],
        P[3],
        P[5],
        "Interplanar Tunnel",
    ]


def test_pc11_spatial_merging_two_planes_chaos_triggers_each_once(
    scripted: tuple[Controller, Scripted],
) -> None:
    controller, rng = scripted
    _encounter(controller, rng, "Spatial Merging", ["Time Distortion", P[1], P[2], *P[3:8]])
    assert say(controller, AcknowledgePhenomenon()) == [
        f"Alice planeswalks away from Spatial Merging to {P[1]} and {P[2]}. Revealed and put on the bottom: "
        "Time Distortion."
    ]
    assert names(pc(controller).face_up) == [P[1], P[2]]
    rng.pips = [1]
    assert say(controller, RollPlanarDie()) == [
        f"Alice rolled CHAOS (cost 1): the chaos abilities of {P[1]} and {P[2]} trigger."
    ]
    assert pc(controller).rolls[-1].result is DieFace.CHAOS
    rng.pips = [6]
    controller.execute(RollPlanarDie())
    assert names(pc(controller).face_up) == [P[3]]


def test_pc11_time_distortion_reverses_turn_order(scripted: tuple[Controller, Scripted]) -> None:
    controller, rng = scripted
    _encounter(controller, rng, "Time Distortion", P[1:9])
    assert say(controller, AcknowledgePhenomenon()) == [
        "Turn order reversed: play now passes counter-clockwise.",
        f"Alice planeswalks away from Time Distortion to {P[1]}.",
    ]
    assert say(controller, PassTurn())[0] == "Turn 2: Dan's upkeep."


def test_pc11_stairs_to_infinity_reveals_the_top_card(
    scripted: tuple[Controller, Scripted],
) -> None:
    controller, rng = scripted
    start(controller)
    deck(controller, A, "Stairs to Infinity", *P[:9])
    controller.execute(Advance())
    rng.pips = [1]
    assert say(controller, RollPlanarDie())[1] == (
        f"Stairs to Infinity reveals {P[0]}: Alice, keep it on top or put it on the bottom ('choose top' or "
        "'choose bottom')."
    )
    assert refused(controller, RollPlanarDie()).startswith("Alice must choose first")
    assert say(controller, ChoosePlanar(answer=("bottom",))) == [
        f"Alice puts {P[0]} on the bottom."
    ]
    assert names(pc(controller).deck(A).cards)[-1] == P[0]  # type: ignore[union-attr]
    controller.undo()
    assert say(controller, ChoosePlanar(answer=("top",))) == [f"Alice keeps {P[0]} on top."]


def test_pc11_pools_of_becoming_orders_three_on_the_bottom(
    scripted: tuple[Controller, Scripted],
) -> None:
    controller, rng = scripted
    start(controller)
    deck(controller, A, "Pools of Becoming", *P[:9])
    controller.execute(Advance())
    rng.pips = [1]
    assert say(controller, RollPlanarDie())[1].startswith(
        f"Pools of Becoming reveals {P[0]}, {P[1]}, {P[2]}"
    )
    assert say(controller, ChoosePlanar(answer=(P[2], P[0], P[1]))) == [
        f"Alice puts {P[2]}, then {P[0]}, then {P[1]} on the bottom."
    ]
    assert names(pc(controller).deck(A).cards)[-3:] == [P[2], P[0], P[1]]  # type: ignore[union-attr]


def test_pc11_counters_on_a_plane_go_away_with_it(scripted: tuple[Controller, Scripted]) -> None:
    controller, rng = scripted
    start(controller)
    deck(
        controller, A, "Aretopolis", *P[:9]
    )  # its first scroll counter at Alice's first upkeep (901.5)
    assert say(controller, ChangePlaneCounters(delta=2)) == ["Aretopolis: 1 → 3 counters."]
    assert refused(controller, ChangePlaneCounters(name="aret", delta=-4)) == (
        "Aretopolis has 3 counters; 4 cannot be removed."
    )
    controller.execute(Planeswalk())
    assert [c.counters for c in pc(controller).face_up] == [0]


# --- PC-12 virtual and physical decks ------------------------------------------------------------------


def test_pc12_virtual_deck_from_a_set(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(3))
        start(controller, planar_deck="opc2")
        for d in pc(controller).decks:
            cards = [load_catalog().find(c.name) for c in d.cards]
            assert all("OPC2" in card.printings for card in cards)
        assert sum(len(d.cards) for d in pc(controller).decks) + len(pc(controller).face_up) == 40


def test_pc12_random_decks_from_every_card_leave_playtest_cards_out_unless_asked_for(
    journal_path: Path,
) -> None:
    """A communal deck from ``all`` holds every plane but no playtest card (No Way Out
    (Playtest) and the other Unknown Event cards); ``punk`` asks for exactly those."""
    catalog = load_catalog()
    playtest = {card.name for card in catalog.planar() if card.is_playtest}
    assert "No Way Out (Playtest)" in playtest and len(playtest) == 46
    for seed in range(5):
        with Journal(journal_path.with_name(f"all{seed}.sqlite3")) as journal:
            controller = Controller(journal, rng=random.Random(seed))
            start(controller, communal_deck="true")
            dealt = {c.name for d in pc(controller).decks for c in d.cards} | {
                c.name for c in pc(controller).face_up
            }
            assert not dealt & playtest
            assert {
                c.name for c in catalog.planar().planes() if not c.is_playtest
            } <= dealt  # every plane
    with Journal(journal_path.with_name("punk.sqlite3")) as journal:
        controller = Controller(journal, rng=random.Random(1))
        start(controller, communal_deck="true", planar_deck="punk")
        dealt = {c.name for d in pc(controller).decks for c in d.cards} | {
            c.name for c in pc(controller).face_up
        }
        assert dealt <= playtest and "No Way Out (Playtest)" in dealt


def test_pc12_physical_deck_reveal_contradictions_return_and_undo(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-12: the gadget waits for the tapped card; contradictions get a message; 'return' corrects."""
    controller, rng = scripted
    start(controller, planar_deck="physical")
    assert pc(controller).awaiting is not None
    deck(controller, A, *P[:9], "Chaotic Aether")
    catalog = load_catalog()
    assert [str(m) for m in controller.identify(catalog.find("Chaotic Aether")).messages] == [
        "Chaotic Aether is a phenomenon: it goes to the bottom of Alice's planar deck (nothing triggers while the "
        "starting plane is found)."
    ]
    with pytest.raises(IllegalCommand, match=f"{P[20]} is not in Alice's planar deck"):
        controller.identify(catalog.find(P[20]))
    assert [str(m) for m in controller.identify(catalog.find(P[3])).messages] == [
        f"Starting plane: {P[3]} (Alice)."
    ]
    with pytest.raises(IllegalCommand, match="is already face up"):
        controller.identify(catalog.find(P[3]))
    assert say(controller, ReturnPlanarCard(name=P[3])) == [
        f"{P[3]} goes back into Alice's planar deck: turn over the right card and tap it."
    ]
    controller.identify(catalog.find(P[4]))
    controller.execute(Advance())
    rng.pips = [6]
    assert say(controller, RollPlanarDie())[1] == (
        f"Alice planeswalks away from {P[4]}: turn over the top card of Alice's planar deck and tap it."
    )
    controller.identify(catalog.find(P[4 + 1]))
    assert names(pc(controller).face_up) == [P[5]]
    controller.undo()
    assert pc(controller).awaiting is not None and pc(controller).face_up == ()


# --- PC-13 odds ---------------------------------------------------------------------------------------------


def test_pc13_odds_and_cumulative_costs() -> None:
    from fractions import Fraction

    assert chance_to_planeswalk(1) == Fraction(1, 6)
    assert chance_to_planeswalk(3) == 1 - Fraction(125, 216)
    assert [cost_of_rolls(k) for k in range(1, 6)] == [0, 1, 3, 6, 10]
    assert cost_of_rolls(2, first=2) == 5


# --- PC-14 the Eternities Map -------------------------------------------------------------------------------


def test_pc14_eternities_map_moves_and_hellrides(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        rng = Scripted()
        controller = Controller(journal, rng=rng)
        start(controller, communal_deck="on", eternities_map="on")
        board = pc(controller).map
        assert board is not None and len(board.cells) == 4
        assert {(c.x, c.y) for c in board.cells} == {(0, 1), (1, 0), (0, -1), (-1, 0)}
        controller.execute(Advance())
        rng.pips = [6]
        messages = say(controller, RollPlanarDie())
        assert messages[1].startswith(
            "Alice, choose where to planeswalk: north, east, south, west, north-east"
        )
        north = next(c.name for c in board.cells if (c.x, c.y) == (0, 1))
        assert say(controller, ChoosePlanar(answer=("n",)))[0].startswith(
            f"Alice planeswalks north to {north}."
        )
        board = pc(controller).map
        assert board is not None and (board.x, board.y) == (0, 1)
        with pytest.raises(IllegalCommand, match="Hellriding goes only to unknown spots"):
            controller.execute(Planeswalk(direction="se"))
        controller.execute(Planeswalk(direction="ne"))
        board = pc(controller).map
        assert board is not None and (board.x, board.y) == (1, 2)


def test_pc14_a_named_direction_answers_the_maps_question(journal_path: Path) -> None:
    """PC-14: after a bare planeswalk asks where to go, 'planeswalk e' answers it as 'choose e'
    does; undo takes the move back to the question."""
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=Scripted())
        start(controller, communal_deck="on", eternities_map="on")
        controller.execute(Advance())
        messages = say(controller, Planeswalk())
        assert messages[0].startswith("Alice, choose where to planeswalk: north, east")
        board = pc(controller).map
        assert board is not None
        east = next(c.name for c in board.cells if (c.x, c.y) == (1, 0))
        assert say(controller, Planeswalk(direction="e"))[0].startswith(
            f"Alice planeswalks east to {east}."
        )
        board = pc(controller).map
        assert board is not None and (board.x, board.y) == (1, 0) and pc(controller).choice is None
        controller.undo()
        assert pc(controller).choice is not None
        assert say(controller, ChoosePlanar(answer=("e",)))[0].startswith(
            f"Alice planeswalks east to {east}."
        )


def test_pc14_eternities_map_needs_the_communal_deck(journal_path: Path) -> None:
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        with pytest.raises(
            IllegalCommand, match="The Planechase option eternities_map needs communal_deck=on"
        ):
            start(controller, eternities_map="on")


# --- issue: players leaving, the first upkeep, a physical deck's order ----------------------------------


def test_pc6_701_22b_a_card_just_put_on_the_bottom_is_refused_listed_or_not(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-6, PC-12 (701.22b): the plane planeswalked away from goes to the bottom of a deck of ten
    cards or more, so it cannot be the next card turned over; re-tapping it is refused with why,
    whether the gadget was told the deck's cards or not, and the refusal changes nothing."""
    controller, rng = scripted
    start(controller, "Alice", "Bob", planar_deck="physical")
    deck(controller, A, *P[:10])
    catalog = load_catalog()
    controller.identify(catalog.find(P[0]))
    controller.execute(Advance())
    rng.pips = [6]
    controller.execute(RollPlanarDie())
    with pytest.raises(IllegalCommand) as error:
        controller.identify(catalog.find(P[0]))
    assert str(error.value) == (
        f"{P[0]} went to the bottom of Alice's planar deck and comes back only after the cards above it: turn over "
        "the top card of Alice's planar deck and tap that one."
    )
    controller.identify(catalog.find(P[1]))
    controller.execute(PassTurn())
    controller.execute(
        Advance()
    )  # Bob's deck was never listed: the gadget remembers what went under
    rng.pips = [6]
    controller.execute(RollPlanarDie())
    assert pc(controller).deck(B) is not None and pc(controller).deck(B).unseen == 0  # type: ignore[union-attr]
    controller.identify(catalog.find(P[20]))
    rng.pips = [6]
    controller.execute(RollPlanarDie())
    before = controller.state
    with pytest.raises(
        IllegalCommand, match=f"{P[20]} went to the bottom of Bob's planar deck and comes back only"
    ):
        controller.identify(catalog.find(P[20]))
    assert controller.state == before
    bob = pc(controller).deck(B)
    assert bob is not None and names(bob.cards) == [P[20]] and bob.unseen == 9


def test_pc5_901_5_the_starting_planes_upkeep_triggers_in_turn_1(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-5, PC-11 (901.5): the starting plane is face up before the first turn, so "at the
    beginning of your upkeep" triggers in turn 1: Aretopolis gets its first scroll counter and
    Alice gains 1 life; undo takes both back."""
    controller, rng = scripted
    start(controller, "Alice", "Bob")
    before = controller.state
    assert deck(controller, A, "Aretopolis", *P[:9])[-3:] == [
        "Starting plane: Aretopolis (Alice).",
        "Aretopolis: 0 → 1 scroll counter; Alice gains 1 life.",
        "Alice: 20 → 21 life.",
    ]
    assert st(controller).players[A].life == 21 and [
        c.counters for c in pc(controller).face_up
    ] == [1]
    controller.undo()
    assert controller.state == before
    controller.redo()
    assert say(controller, Advance()) == ["Alice: main phase."]
    assert say(controller, PassTurn())[-2:] == [
        "Aretopolis: 1 → 2 scroll counters; Bob gains 2 life.",
        "Bob: 20 → 22 life.",
    ]


def test_pc9_901_8_the_roller_planeswalks_from_their_own_deck(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-3, PC-9 (901.8): the planeswalking ability is controlled by the player whose roll caused
    it: when Bob rolls the planeswalker symbol, Bob planeswalks and his top card comes up, though
    Alice stays the planar controller."""
    controller, rng = scripted
    start(controller, formats=("ffa", "2hg", "planechase"))
    for seat in (A, B, C, D):
        deck(controller, seat, *P[10 * seat : 10 * seat + 10])
    controller.execute(Advance())
    rng.pips = [6]
    assert say(controller, RollPlanarDie(seat=B)) == [
        "Bob rolled PLANESWALK (free).",
        f"Bob planeswalks away from {P[0]} to {P[10]}.",
    ]
    assert [(c.name, c.owner) for c in pc(controller).face_up] == [(P[10], B)]
    assert planar_controller(st(controller)) == A
    assert names(pc(controller).deck(A).cards)[-1] == P[0]  # type: ignore[union-attr]


def test_pc9_901_12b_a_team_leaving_on_its_own_turn_hands_over_the_plane(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-8, PC-9 (901.12b, 901.10): Alice & Bob's turn, Bob's plane face up; Alice concedes and
    the team leaves.  Carol, the next team's primary player, becomes planar controller first;
    then the team's cards leave, and since a face-up plane went, Carol turns over her top card.
    Nobody rolls for the rest of the turn; then Carol & Dan play with Carol's plane."""
    controller, rng = scripted
    start(
        controller,
        "Alice",
        "Bob",
        "Carol",
        "Dan",
        "Eve",
        "Fay",
        formats=("ffa", "2hg", "planechase"),
    )
    for seat in range(6):
        deck(controller, seat, *P[10 * seat : 10 * seat + 10])
    controller.execute(Advance())
    rng.pips = [6]
    controller.execute(RollPlanarDie(seat=B))
    before = controller.state
    assert say(controller, Concede(seat=A)) == [
        "Alice has conceded.",
        "Bob has lost with their team.",
        "Carol becomes the planar controller.",
        "Alice's planar cards leave the game with them.",
        f"Bob's planar cards leave the game with them, including face-up {P[10]}.",
        f"Carol planeswalks to {P[20]}.",
    ]
    assert planar_controller(st(controller)) == C and names(pc(controller).face_up) == [P[20]]
    assert refused(controller, RollPlanarDie(seat=C)) == (
        "Nobody may roll the planar die for the rest of this turn: the players whose turn it is have left the game, "
        "so Carol may not. Press NEXT to pass the turn."
    )
    controller.undo()
    assert controller.state == before
    controller.redo()
    controller.execute(PassTurn())
    assert st(controller).active == C and planar_controller(st(controller)) == C
    # Eve & Fay leave on Carol & Dan's turn: their cards go, nothing face up was theirs
    assert say(controller, Concede(seat=5)) == [
        "Fay has conceded.",
        "Eve has lost with their team.",
        "Eve's planar cards leave the game with them.",
        "Fay's planar cards leave the game with them.",
    ]
    assert names(pc(controller).face_up) == [P[20]] and planar_controller(st(controller)) == C


def test_pc10_807_4c_a_holder_who_leaves_in_their_turn_passes_the_marker_when_it_ends(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-10 (807.4c, 901.6): E5 holds the second turn marker of ten players and concedes during
    the turn.  F6 stands in as planar controller of E5's plane at once (without rolling: it is not
    F6's turn), and takes the marker when the turn ends, to play the next turn with it; it does
    not move on a second time."""
    controller, rng = scripted
    players = ("A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "I9", "J10")
    controller.execute(
        NewGame(
            formats=("ffa", "planechase"),
            players=players,
            first="A1",
            options={"grand_melee": "on"},
        )
    )
    controller.execute(Advance())
    plane = pc(controller).face_up[1].name
    assert say(controller, Concede(seat=4)) == [
        "E5 has conceded.",
        "F6 becomes the planar controller of E5's planes and takes E5's turn marker when this turn ends.",
        f"E5's planar cards leave the game with them, including face-up {plane}.",
        f"F6 planeswalks to {pc(controller).face_up[1].name}.",
    ]
    assert pc(controller).markers == (0, 4) and planar_controllers(st(controller)) == (0, 5)
    assert refused(controller, RollPlanarDie(seat=5)).startswith(
        "Only A1 may roll the planar die now"
    )
    controller.execute(PassTurn())
    assert pc(controller).markers == (1, 5) and planar_controllers(st(controller)) == (1, 5)
    controller.execute(Advance())
    rng.pips = [2]
    assert say(controller, RollPlanarDie(seat=5)) == ["F6 rolled a blank (free): nothing happens."]
    controller.execute(PassTurn())
    assert pc(controller).markers == (2, 6)


def test_pc10_807_4a_807_4d_a_player_without_a_marker_leaving_removes_one_between_turns(
    scripted: tuple[Controller, Scripted],
) -> None:
    """PC-10 (807.4a, 807.4d, 901.14b): eight players keep two markers, seven only one.  When C3
    (no marker) concedes, the marker nearest to C3's right other than the first — E5's — is
    removed when the turn ends, its plane going to the bottom with nobody planeswalking."""
    controller, _ = scripted
    players = ("A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8")
    controller.execute(
        NewGame(
            formats=("ffa", "planechase"),
            players=players,
            first="A1",
            options={"grand_melee": "on"},
        )
    )
    plane = pc(controller).face_up[1].name
    assert say(controller, Concede(seat=2)) == [
        "C3 has conceded.",
        "C3's planar cards leave the game with them.",
    ]
    assert pc(controller).markers == (0, 4)
    out = say(controller, PassTurn())
    assert (
        f"E5's turn marker is removed; {plane} goes to the bottom without anyone planeswalking."
        in out
    )
    assert pc(controller).markers == (1,) and [c.marker for c in pc(controller).face_up] == [0]
    assert names(pc(controller).deck(4).cards)[-1] == plane  # type: ignore[union-attr]
