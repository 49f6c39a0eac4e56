"""Planechase at the console (PC-1..PC-14): every command as a user types it, and the issue's two
end-to-end games, with undo and redo after every step."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from device.catalog import load_catalog
from device.journal import Journal
from device.rules.planechase.state import PlanechaseState
from tests.helpers import ConsoleTable
from tests.test_planechase import Scripted

P = [
    c.name for c in load_catalog().planes() if "'" not in c.name
]  # quotes are shell-like at the console


class Table(ConsoleTable):
    """A console session whose die lands where the test says and whose shuffles keep order."""

    rng: Scripted

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal, Scripted())

    def run(self, line: str, *pips: int, undo: bool = True) -> list[str]:
        """Run a line with the die landing on ``pips``; then undo and redo it."""
        self.rng.pips = list(pips)
        return super().run(line, undo=undo)


@pytest.fixture
def table(journal_path: Path) -> Iterator[Table]:
    with Journal(journal_path) as journal:
        yield Table(journal)


def test_pc_console_four_player_game_with_per_player_decks(table: Table) -> None:
    """The issue's done-when, part 1: four players, each with their own planar deck."""
    assert table.run("new ffa+planechase Alice Bob Carol Dan first=Alice", undo=False)[:2] == [
        "New game (Free-for-all + Planechase) for Alice, Bob, Carol, Dan, 20 life. Alice goes first.",
        "Planar decks: Alice 10 cards, Bob 10 cards, Carol 10 cards, Dan 10 cards.",
    ]
    assert table.run("deck Alice " + ", ".join(["Morphic Tide", *P[:9]]))[-2:] == [
        "Morphic Tide is a phenomenon: it goes to the bottom of Alice's planar deck (nothing triggers while the "
        "starting plane is found).",
        f"Starting plane: {P[0]} (Alice).",
    ]
    table.run("deck Bob " + ", ".join(P[10:19] + ["Reality Shaping"]))
    table.run("deck Carol " + ", ".join(P[20:30]))
    table.run("deck Dan set=OPC2")
    assert table.run("roll", 3) == [
        "refused: Alice may roll the planar die only in their main phase: press NEXT to end the upkeep first."
    ]
    assert table.run("next") == ["Alice: main phase."]
    assert table.run("roll", 1) == [f"Alice rolled CHAOS (free): {P[0]}'s chaos ability triggers."]
    assert table.run("roll", 4) == ["Alice rolled a blank (cost 1): nothing happens."]
    assert table.run("freeroll", 5) == [
        "Alice rolled a blank (an effect's roll, free): nothing happens."
    ]
    assert table.run("roll", 6) == [
        "Alice rolled PLANESWALK (cost 2).",
        f"Alice planeswalks away from {P[0]} to {P[1]}.",
    ]
    assert table.run("roll Bob") == [
        "refused: Only Alice may roll the planar die now, as the special action (901.9); "
        "Bob may not."
    ]
    assert table.run("next") == [
        "Turn 2: Bob's upkeep.",
        "Planar die: the first roll this turn is free.",
    ]
    table.run("next")
    assert table.run("roll", 6) == [
        "Bob rolled PLANESWALK (free).",
        f"Bob planeswalks away from {P[1]} to {P[10]}.",
    ]
    assert table.run("counters +3") == [f"{P[10]}: 0 → 3 counters."]
    assert table.run("concede Alice") == [
        "Alice has conceded.",
        "Alice's planar cards leave the game with them.",
    ]
    assert table.run("concede Bob") == [
        "Bob has conceded.",
        "Carol becomes the planar controller.",
        f"Bob's planar cards leave the game with them, including face-up {P[10]}.",
        f"Carol planeswalks to {P[20]}.",
    ]
    out = table.run("planes")
    assert out[:3] == [
        f"Face up: {P[20]} (plane)",
        "Planar controller: Carol",
        "Carol's planar deck: 9 card(s)",
    ]
    assert out[-2] == f"Visited: {P[0]}, {P[1]}, {P[10]}, {P[20]}"
    assert out[-1] == "Rolls: Alice CH, Alice blank (1), Alice blank (effect), Alice PL (2), Bob PL"
    assert table.run("odds 2") == [
        "Next roll: planeswalk 1/6, chaos 1/6, blank 2/3.",
        "Bob's next roll costs 1.",
        "1 roll(s): 16.7% to planeswalk at least once, costing 1.",
        "2 roll(s): 30.6% to planeswalk at least once, costing 3.",
    ]


def test_pc_console_communal_deck_with_aether_merging_and_tunnel(table: Table) -> None:
    """The issue's done-when, part 2: a communal deck with Chaotic Aether, Spatial Merging and
    Interplanar Tunnel, played exactly as the rules say."""
    table.run("new ffa+planechase Alice Bob Carol first=Alice communal_deck=on", undo=False)
    cards = [
        P[0],
        "Chaotic Aether",
        P[1],
        "Spatial Merging",
        "Time Distortion",
        P[2],
        P[3],
        "Interplanar Tunnel",
        *P[4:30],
    ]
    assert (
        table.run("deck communal " + ", ".join(cards))[-1]
        == f"Starting plane: {P[0]} (communal deck)."
    )
    assert table.run("deck communal " + ", ".join(P[:12])) == [
        "refused: That planar deck is not legal: it has 12 cards, it needs at least 30."
    ]
    table.run("next")
    assert table.run("roll", 6) == [
        "Alice rolled PLANESWALK (free).",
        f"Alice planeswalks away from {P[0]} to Chaotic Aether. Alice encounters Chaotic Aether: resolve it, "
        "then press NEXT.",
    ]
    assert table.run("roll", 2) == [
        "refused: Chaotic Aether is being encountered: press NEXT (or 'ack') to resolve it first."
    ]
    assert table.run("next") == [
        "Chaotic Aether: blanks count as chaos until someone planeswalks away from a plane.",
        f"Alice planeswalks away from Chaotic Aether to {P[1]}.",
    ]
    assert table.run("roll", 4) == [
        f"Alice rolled a blank (cost 1), which counts as CHAOS (Chaotic Aether): {P[1]}'s chaos ability triggers."
    ]
    assert (
        table.run("odds 1")[0]
        == "Next roll: planeswalk 1/6, chaos 5/6, blank 0 (blanks count as chaos)."
    )
    assert table.run("roll", 6) == [
        "Alice rolled PLANESWALK (cost 2).",
        f"Alice planeswalks away from {P[1]} to Spatial Merging. Alice encounters Spatial Merging: resolve it, "
        "then press NEXT.",
    ]
    assert table.run("ack") == [
        f"Alice planeswalks away from Spatial Merging to {P[2]} and {P[3]}. Revealed and put on the bottom: "
        "Time Distortion."
    ]
    assert table.run("roll", 3) == ["Alice rolled a blank (cost 3): nothing happens."]
    assert table.run("roll", 1) == [
        f"Alice rolled CHAOS (cost 4): the chaos abilities of {P[2]} and {P[3]} trigger."
    ]
    assert table.run("planeswalk") == [
        f"Alice planeswalks away from {P[2]} and {P[3]} to Interplanar Tunnel. Alice encounters Interplanar Tunnel: "
        "resolve it, then press NEXT."
    ]
    assert table.run("next") == [
        f"Interplanar Tunnel reveals {P[4]}, {P[5]}, {P[6]}, {P[7]}, {P[8]}: Alice, choose the plane to put on "
        "top ('choose NAME')."
    ]
    assert table.run("next") == [
        "refused: Alice must choose first (choose the plane to put on top: "
        f"{P[4]}, {P[5]}, {P[6]}, {P[7]}, {P[8]})."
    ]
    assert table.run("choose Time Distortion")[0].startswith(
        "refused: 'Time Distortion' is not one of the choices"
    )
    assert table.run(f"choose {P[7]}") == [
        f"Alice puts {P[7]} on top and {P[4]}, {P[5]}, {P[6]}, {P[8]} on the bottom.",
        f"Alice planeswalks away from Interplanar Tunnel to {P[7]}.",
    ]
    assert table.run("next") == [
        "Turn 2: Bob's upkeep.",
        "Planar die: the first roll this turn is free.",
    ]
    out = table.run("planes")
    assert out[0] == f"Face up: {P[7]} (plane)"
    assert out[-2] == (
        f"Visited: {P[0]}, Chaotic Aether, {P[1]}, Spatial Merging, {P[2]}, {P[3]}, "
        f"Interplanar Tunnel, {P[7]}"
    )


def test_pc_console_help_and_options(table: Table) -> None:
    assert table.run("new ffa+planechase Ola Ela first=Ola grand_melee=on", undo=False) == [
        "refused: Grand Melee has one turn marker for each full four players (807.4a), so 2 players have none: "
        "seat at least 4 players, or set turn_markers."
    ]
    assert table.run(
        "new ffa+planechase Ola Ela first=Ola grand_melee=on turn_markers=2", undo=False
    ) == ["refused: Grand Melee with 2 turn markers needs at least 4 players; this table has 2."]
    table.run("new ffa+planechase Ola Ela Ula Ala first=Ola grand_melee=on", undo=False)
    out = table.run("options")
    assert "grand_melee=True: Several planes face up, one per turn marker (901.14)." in out
    assert "plain_d6=False: Roll a plain d6: 1 is chaos, 6 is planeswalk (PC-1)." in out
    assert table.run("new ffa+planechase Ola Ela first=Ola planar_deck=xyz", undo=False) == [
        "refused: Table option 'planar_deck' cannot be 'xyz': one of all, ohop, phop, opc2, opca, moc, who, punk, "
        "pssc, physical."
    ]


def test_pc12_physical_decks_are_described_as_what_the_gadget_knows(table: Table) -> None:
    """PC-12: with physical decks nobody listed, the gadget knows whose deck each is, not how many
    cards it holds: it says so rather than printing a count it does not have."""
    out = table.run("new ffa+planechase Alice Bob first=Alice planar_deck=physical", undo=False)
    assert out[1] == "Planar decks: each player's own, as physical cards."
    assert not any("?" in line for line in out)
    listed = table.run("deck Alice " + ", ".join(P[:10]))
    assert listed[0] == "Planar decks: Alice 10 cards (physical), Bob: own physical deck."
    table.run("card " + P[0])
    planes = table.run("planes")
    assert "Alice's planar deck: 9 card(s)" in planes
    assert "Bob's planar deck: physical cards, not listed to the gadget" in planes
    assert not any("?" in line for line in planes)


def test_pc12_a_communal_physical_deck_is_one_deck(table: Table) -> None:
    out = table.run(
        "new ffa+planechase Alice Bob first=Alice planar_deck=physical communal_deck=on", undo=False
    )
    assert out[1] == "Planar deck: one communal deck of physical cards."


def test_pc4_a_deck_lists_printed_names_with_commas(table: Table) -> None:
    """PC-4: "The Drum, Mining Facility" and "Fblthp: Completely, Utterly, Totally Lost" are one
    card each in a comma-separated deck list, typed in any case; a unique start ("the drum")
    still names a card, and the deck has exactly the ten cards listed."""
    table.run("new ffa+planechase Alice Bob first=Alice", undo=False)
    others = [n for n in P if "," not in n and not n.startswith(("The Drum", "Fblthp"))][:8]
    line = (
        "deck Alice The Drum, Mining Facility, fblthp: completely, utterly, totally lost, "
        + ", ".join(others)
    )
    out = table.run(line)
    assert not any(text.startswith("refused") for text in out), out
    deck = table.controller.state.part(PlanechaseState).deck(0)
    names = {c.name for c in deck.cards} | {
        c.name for c in table.controller.state.planechase.face_up
    }  # type: ignore[union-attr]
    assert {
        "The Drum, Mining Facility",
        "Fblthp: Completely, Utterly, Totally Lost",
        *others,
    } == names
    assert load_catalog().planar().split("the drum, " + others[0]) == ("the drum", others[0])


def test_pc10_planes_names_every_marker_holder_and_never_one_who_left(table: Table) -> None:
    """PC-10 (901.14): in Grand Melee 'planes' names each turn marker's holder as a planar
    controller; when A1 concedes, B2 takes A1's marker and A1 is named no more."""
    table.run("new ffa+planechase A1 B2 C3 D4 E5 F6 G7 H8 first=A1 grand_melee=on", undo=False)
    assert "Planar controllers: A1, E5" in table.run("planes")
    table.run("concede A1")
    assert "Planar controllers: B2, E5" in table.run("planes")


def _physical_game(table: Table, lists: dict[str, list[str]], communal: bool) -> None:
    names = " ".join(lists) if not communal else "Alice Bob"
    option = " communal_deck=on" if communal else ""
    table.run(f"new ffa+planechase {names} first=Alice planar_deck=physical{option}", undo=False)
    for owner, cards in lists.items():
        table.run(f"deck {owner} " + ", ".join(cards))


def _turn_over(
    table: Table,
    shuffled: dict[int | None, list[str]],
    seen: dict[int | None, list[str]],
    wrong: bool = False,
) -> str:
    """The awaited player turns over their deck's top card: while some cards have never been seen
    the top is whatever the players' shuffle put there; after that the gadget names it, and it is
    the card that went to the bottom longest ago (PC-6).  With ``wrong`` the player first taps the
    card that went to the bottom last, which cannot be the top card (701.22b), and is refused."""
    state = table.controller.state
    assert (
        state is not None and state.planechase is not None and state.planechase.awaiting is not None
    )
    owner = state.planechase.awaiting.deck
    deck = state.planechase.deck(owner)
    assert deck is not None
    if shuffled[owner]:
        card = shuffled[owner].pop(0)
        assert deck.next_card is None
    else:
        card = seen[owner].pop(0)
        assert deck.next_card is not None and deck.next_card.name == card
        assert f"({card} comes up next)" in " ".join(table.run("planes"))
    if wrong and seen[owner] and seen[owner][-1] != card:
        mistake = seen[owner][-1]
        refusal = table.run(f"card {mistake}")
        assert refusal and refusal[0].startswith(f"refused: {mistake} "), refusal
        expected = (
            "is not the top card of " if deck.next_card is not None else "went to the bottom of "
        )
        assert expected in refusal[0] and table.controller.state == state, refusal
    out = table.run(f"card {card}")
    assert not any(line.startswith("refused") for line in out), out
    return card


def _play_rounds(
    table: Table,
    lists: dict[str, list[str]],
    communal: bool,
    rounds: int,
    seed: int,
    wrong: bool = False,
) -> None:
    """Turn after turn, the active player rolls the planeswalker face and turns over their deck's
    next card; a phenomenon is encountered, acknowledged, and the walk goes on; until every deck
    has gone round ``rounds`` times."""
    import random

    players = ["Alice", "Bob"] if communal else list(lists)
    owners: list[int | None] = [None] if communal else list(range(len(players)))
    decks = {o: lists[players[o] if o is not None else "communal"] for o in owners}
    shuffled = {o: random.Random(seed + (o or 0)).sample(decks[o], len(decks[o])) for o in owners}
    seen: dict[int | None, list[str]] = {o: [] for o in owners}
    turned: dict[int | None, list[str]] = {o: [] for o in owners}
    state = table.controller.state
    assert state is not None and state.planechase is not None
    # The starting plane (901.5): phenomena turned over go to the bottom, nothing triggers.
    while state.planechase.awaiting is not None:
        card = _turn_over(table, shuffled, seen)
        kind = load_catalog().find(card).kind.value
        (seen[None if communal else 0].append(card) if kind == "phenomenon" else None)
        turned[None if communal else 0].append(card)
        state = table.controller.state
        assert state is not None and state.planechase is not None
    while any(len(turned[o]) < rounds * len(decks[o]) for o in owners):
        table.run("next")  # to the main phase
        roller = state.active
        owner = None if communal else roller
        away = [(None if communal else c.owner, c.name) for c in state.planechase.face_up]
        out = table.run("roll", 6)
        assert any("planeswalks away from" in line for line in out), out
        for home, name in away:  # 701.22b: to the bottom of its owner's deck, in order
            seen[home].append(name)
        state = table.controller.state
        assert state is not None and state.planechase is not None
        while state.planechase.awaiting is not None or state.planechase.encounter is not None:
            if state.planechase.encounter is not None:
                encountered = state.planechase.encounter
                table.run("ack")
                seen[owner].append(encountered)
            else:
                turned[owner].append(_turn_over(table, shuffled, seen, wrong))
            state = table.controller.state
            assert state is not None and state.planechase is not None
        table.run("next")  # pass the turn
        state = table.controller.state
        assert state is not None and state.planechase is not None
    for owner in owners:
        for name in decks[owner]:
            assert turned[owner].count(name) >= rounds, (name, turned[owner])


def test_pc6_pc12_physical_decks_go_round_twice_and_come_up_in_order(table: Table) -> None:
    """PC-6, PC-12: each player's listed physical deck, with a phenomenon in it, goes round twice:
    a card planeswalked away from goes to the bottom of its owner's deck and comes up again in the
    order it went there, and the gadget names the card that comes up next once it knows it."""
    lists = {"Alice": ["Morphic Tide", *P[:9]], "Bob": ["Reality Shaping", *P[9:18]]}
    _physical_game(table, lists, communal=False)
    _play_rounds(table, lists, communal=False, rounds=2, seed=3)


def test_pc6_701_22b_listed_physical_decks_go_round_twice_refusing_wrong_cards(
    table: Table,
) -> None:
    """PC-6, PC-12 (701.22b): as above, but before every card the player first taps the card that
    went to the bottom last: while unseen cards remain it is refused as on the bottom, once the
    deck has gone round as not the top card (naming the one that is); the record stays right
    and each deck still comes up in order, twice round."""
    lists = {"Alice": ["Morphic Tide", *P[:9]], "Bob": ["Reality Shaping", *P[9:18]]}
    _physical_game(table, lists, communal=False)
    _play_rounds(table, lists, communal=False, rounds=2, seed=11, wrong=True)


def test_pc6_701_22b_unlisted_physical_decks_go_round_twice_refusing_wrong_cards(
    table: Table,
) -> None:
    """PC-6, PC-12 (701.22b, 901.3) with decks the gadget was never told: each player turns over
    their real deck's top card turn after turn until it has gone round twice.  Re-tapping the
    plane just planeswalked away from is refused every time (a deck has ten cards or more), and
    so is a card that went under before another still waiting to come back; undo takes back
    every step."""
    import random

    table.run("new ffa+planechase Alice Bob first=Alice planar_deck=physical", undo=False)
    real = {0: random.Random(7).sample(P[:10], 10), 1: random.Random(8).sample(P[10:20], 10)}
    turned = {0: 0, 1: 0}
    went_under: dict[int, set[str]] = {0: set(), 1: set()}

    def turn_over(seat: int) -> None:
        card = real[seat].pop(0)
        assert not table.run(f"card {card}")[0].startswith("refused"), card
        turned[seat] += 1

    turn_over(0)
    while min(turned.values()) < 20:
        state = table.controller.state
        assert state is not None and state.planechase is not None
        seat = state.active
        name = state.player(seat).name
        table.run("next")
        for _ in range(2):  # away from the other player's plane, then from their own
            state = table.controller.state
            assert state is not None and state.planechase is not None
            away = [(c.owner, c.name) for c in state.planechase.face_up]
            table.run("roll", 6)
            for owner, card in away:
                assert owner is not None
                real[owner].append(card)
                went_under[owner].add(card)
            mine = [card for owner, card in away if owner == seat]
            if mine and mine[0] != real[seat][0]:  # the plane just left, tapped again by mistake
                assert table.run(f"card {mine[0]}") == [
                    (
                        f"refused: {mine[0]} went to the bottom of {name}'s planar deck and comes back only after the "
                        f"cards above it: turn over the top card of {name}'s planar deck and tap that one."
                    )
                ]
            under = [card for card in real[seat] if card in went_under[seat]]
            if (
                len(under) > 1 and under[1] != real[seat][0]
            ):  # under another card still to come back
                assert table.run(f"card {under[1]}")[0].startswith(
                    f"refused: {under[1]} went to the bottom of"
                )
            turn_over(seat)
        table.run("next")


def test_pc6_pc12_a_communal_physical_deck_goes_round_twice(table: Table) -> None:
    """PC-6, PC-12 with the communal deck (901.15): twenty cards, two phenomena, twice round."""
    lists = {"communal": ["Morphic Tide", "Reality Shaping", *P[:18]]}
    _physical_game(table, lists, communal=True)
    _play_rounds(table, lists, communal=True, rounds=2, seed=5)


def test_pc12_a_card_returned_by_mistake_goes_back_on_top(table: Table) -> None:
    """PC-12: a card tapped by mistake and returned is back in its deck, on top: it can be turned
    over again later, and once every card has been seen it is named as the next one."""
    lists = {"Alice": P[:10], "Bob": P[10:20]}
    _physical_game(table, lists, communal=False)
    table.run(f"card {P[0]}")
    table.run("next")
    table.run("roll", 6)
    table.run(f"card {P[5]}")
    assert table.run(f"return {P[5]}") == [
        f"{P[5]} goes back into Alice's planar deck: turn over the right card and tap it."
    ]
    state = table.controller.state
    assert state is not None and state.planechase is not None
    deck = state.planechase.deck(0)
    assert deck is not None and deck.cards[0].name == P[5] and len(deck.cards) == 10
    for name in P[1:10]:
        table.run(f"card {name}")
        table.run("planeswalk")
    state = table.controller.state
    assert state is not None and state.planechase is not None
    deck = state.planechase.deck(0)
    assert deck is not None and deck.next_card is not None and deck.next_card.name == P[0]


def test_pc11_spatial_merging_with_physical_cards_reveals_until_two_planes(table: Table) -> None:
    """PC-11, Spatial Merging with real cards: the player reveals until two planes; a phenomenon
    revealed between them goes to the bottom and is not encountered, the second plane is asked for,
    and both planes end face up; the next planeswalk leaves both."""
    lists = {"Alice": ["Spatial Merging", "Morphic Tide", *P[:8]], "Bob": P[8:18]}
    _physical_game(table, lists, communal=False)
    table.run(f"card {P[0]}")
    table.run("next")
    table.run("roll", 6)
    assert table.run("card Spatial Merging") == [
        "Alice encounters Spatial Merging: resolve it, then press NEXT."
    ]
    out = table.run("ack")
    assert out == [
        "Alice planeswalks away from Spatial Merging: turn over cards from Alice's planar deck until two planes and "
        "tap each."
    ]
    table.run(f"card {P[1]}")
    assert "until a plane" in " ".join(table.run("planes"))
    out = table.run("card Morphic Tide")
    assert out and "Morphic Tide" in out[0] and "bottom" in out[0], out
    state = table.controller.state
    assert state is not None and state.planechase is not None
    assert state.planechase.encounter is None and state.planechase.awaiting is not None
    table.run(f"card {P[2]}")
    state = table.controller.state
    assert state is not None and state.planechase is not None
    assert [c.name for c in state.planechase.face_up] == [P[1], P[2]]
    assert state.planechase.awaiting is None and state.planechase.encounter is None
    deck = state.planechase.deck(0)
    assert deck is not None and [c.name for c in deck.cards[-3:]] == [
        P[0],
        "Spatial Merging",
        "Morphic Tide",
    ]
    out = table.run("roll", 6)
    assert out[-1].startswith(
        f"Alice planeswalks away from {P[1]} and {P[2]}: turn over the top card"
    ), out


def test_pc1_a_table_rolling_its_own_die_enters_the_face_it_showed(table: Table) -> None:
    """PC-1: with the table's own die a bare 'roll' waits for the face; the face entered then
    counts as a roll of the gadget's own would: the cost rises, chaos triggers, a planeswalk
    planeswalks, the log says so; an effect's roll stays free. Undo and redo at every step."""
    table.run("new ffa+planechase Alice Bob first=Alice own_die=on", undo=False)
    table.run("next")
    assert table.run("roll") == [
        "Alice rolls the table's planar die: say what it showed ('roll planeswalk', 'roll chaos' or 'roll blank')."
    ]
    assert table.run("planeswalk")[0].startswith("refused: Alice rolls the table's planar die")
    assert table.run("roll blank") == ["Alice rolled a blank (free): nothing happens."]
    table.run("roll")
    plane = table.controller.state.part(PlanechaseState).face_up[0].name
    assert table.run("roll chaos") == [
        f"Alice rolled CHAOS (cost 1): {plane}'s chaos ability triggers."
    ]
    assert "Next roll costs: Alice 2, Bob 0" in table.run("planes")
    assert table.run("roll 7") == ["refused: A die has sides 1 to 6, not 7."]
    assert table.run("freeroll pw")[0] == "Alice rolled PLANESWALK (an effect's roll, free)."
    assert "Next roll costs: Alice 2, Bob 0" in table.run("planes")
    table.run("roll")
    assert (
        table.run("next")[0] == "Turn 2: Bob's upkeep."
    )  # the table changed its mind: the wait ends
    rolls = table.controller.state.part(PlanechaseState).rolls
    assert [(r.pip, r.result.value, r.cost, r.special) for r in rolls] == [
        (2, "blank", 0, True),
        (1, "chaos", 1, True),
        (6, "planeswalk", 0, False),
    ]


def test_pc1_a_plain_d6_of_the_tables_own_is_entered_by_number(table: Table) -> None:
    """PC-1: a plain d6: 1 is chaos, 6 planeswalk, 2–5 blank; 'blank' is not a side it has."""
    table.run("new ffa+planechase Alice Bob first=Alice own_die=on plain_d6=on", undo=False)
    table.run("next")
    assert table.run("roll")[0].startswith(
        "Alice rolls the table's d6: say what it showed ('roll 1' to 'roll 6'"
    )
    assert table.run("roll blank") == [
        "refused: A plain d6 has no blank side: say the number it showed, 2 to 5 are blanks."
    ]
    assert table.run("roll 4") == ["Alice rolled a blank (free): nothing happens."]
    assert table.controller.state.part(PlanechaseState).rolls[-1].pip == 4


def test_pc1_any_table_may_enter_a_face_without_the_option(table: Table) -> None:
    """PC-1: 'roll chaos' enters the face even when the gadget rolls by default."""
    table.run("new ffa+planechase Alice Bob first=Alice", undo=False)
    table.run("next")
    table.run("roll chaos")
    assert table.controller.state.part(PlanechaseState).rolls[-1].pip == 1


def _counting_game(table: Table, first: str) -> None:
    """Alice's physical deck with the counting planes; the starting plane is ``first``."""
    names = [
        "Aretopolis",
        "Naar Isle",
        "Kilnspire District",
        "Mount Keralia",
        "Stairs to Infinity",
        *P[:5],
    ]
    table.run("new ffa+planechase Alice Bob first=Alice planar_deck=physical", undo=False)
    table.run("deck Alice " + ", ".join(names))
    table.run("deck Bob " + ", ".join(P[10:20]))
    table.run(f"card {first}")


def _walk_to(table: Table, name: str) -> list[str]:
    """The planar controller planeswalks (an effect says so) and turns over ``name``."""
    table.run("planeswalk")
    return table.run(f"card {name}")


def test_pc11_aretopolis_counts_scrolls_gains_life_and_planeswalks_at_ten(table: Table) -> None:
    """PC-11, Aretopolis: a scroll counter when planeswalked to and at each upkeep, then its
    controller gains that much life; on chaos a counter and that many cards drawn; at ten or more
    counters the planar controller planeswalks at once, and the log says why."""
    _counting_game(table, P[0])
    assert _walk_to(table, "Aretopolis") == [
        "Alice turns over Aretopolis.",
        "Aretopolis: 0 → 1 scroll counter; Alice gains 1 life.",
        "Alice: 20 → 21 life.",
    ]
    table.run("next")
    assert table.run("roll chaos") == [
        "Alice rolled CHAOS (free): Aretopolis's chaos ability triggers.",
        "Aretopolis: 1 → 2 scroll counters; Alice draws 2 cards.",
    ]
    assert table.run("next")[-2:] == [
        "Aretopolis: 2 → 3 scroll counters; Bob gains 3 life.",
        "Bob: 20 → 23 life.",
    ]
    table.run("counters +6")  # the table counts a card of its own that adds scrolls
    out = table.run("next")  # Bob's main phase: nothing counts
    assert not any("scroll" in line for line in out)
    out = table.run("next")  # Alice's upkeep: the tenth scroll counter
    assert out[-3:] == [
        "Aretopolis: 9 → 10 scroll counters; Alice gains 10 life.",
        "Alice: 21 → 31 life.",
        "Alice planeswalks away from Aretopolis: turn over the top card of Alice's planar deck and tap it. "
        "Aretopolis had 10 scroll counters on it.",
    ]
    state = table.controller.state
    assert state is not None and state.planechase is not None and state.planechase.face_up == ()


def test_pc11_aretopolis_at_ten_by_hand_planeswalks_too(table: Table) -> None:
    """PC-11: 'When Aretopolis has ten or more scroll counters on it' counts counters put there
    by hand as well."""
    _counting_game(
        table, "Aretopolis"
    )  # the starting plane's first scroll counter at Alice's first upkeep
    assert table.run("counters +8")[-1] == "Aretopolis: 1 → 9 counters."
    assert table.run("counters +1")[-1].startswith("Alice planeswalks away from Aretopolis")


def test_pc11_naar_isle_burns_its_controller_each_upkeep(table: Table) -> None:
    """PC-11, Naar Isle: at its controller's upkeep a flame counter, then that much damage to
    them; the damage counts like any life loss, to the end of the game.  As the starting plane
    it is face up before the first turn (901.5), so Alice takes the first damage in turn 1."""
    _counting_game(table, "Naar Isle")
    state = table.controller.state
    assert state is not None and [p.life for p in state.players] == [19, 20]
    assert table.run("next") == ["Alice: main phase."]
    lines = table.run("next")
    assert lines[-2:] == [
        "Naar Isle: 1 → 2 flame counters; it deals 2 damage to Bob.",
        "Bob: 20 → 18 life.",
    ]
    for _ in range(4):
        table.run("next")
        table.run("next")
    state = table.controller.state
    assert state is not None
    # Alice 19 → 16 → 11 (counters 3 and 5), Bob 18 → 14 → 8 (4 and 6)
    assert [p.life for p in state.players] == [11, 8]
    table.run("life Bob =6")
    table.run("next")
    table.run("next")  # Alice's upkeep: 7 flame
    table.run("next")
    out = table.run("next")
    assert out[2:5] == [
        "Naar Isle: 7 → 8 flame counters; it deals 8 damage to Bob.",
        "Bob: 6 → -2 life.",
        "Bob has lost: 0 or less life.",
    ]
    assert out[-1] == "Game over: Alice won (last player standing)."


def test_pc11_kilnspire_district_counts_charge_on_arrival_and_each_main_phase(table: Table) -> None:
    """PC-11, Kilnspire District: a charge counter when planeswalked to and at each precombat main
    phase, and the red mana it adds is said."""
    _counting_game(table, P[0])
    assert _walk_to(table, "Kilnspire District")[-1] == (
        "Kilnspire District: 0 → 1 charge counter; Alice adds one red mana."
    )
    assert table.run("next") == [
        "Alice: main phase.",
        "Kilnspire District: 1 → 2 charge counters; Alice adds 2 red mana.",
    ]
    table.run("next")
    assert (
        table.run("next")[-1] == "Kilnspire District: 2 → 3 charge counters; Bob adds 3 red mana."
    )


def test_pc11_mount_keralia_says_its_damage_when_left(table: Table) -> None:
    """PC-11, Mount Keralia: a pressure counter at each end of turn; when the table planeswalks
    away from it, the log says how much damage it deals to each creature and planeswalker."""
    _counting_game(table, "Mount Keralia")
    table.run("next")
    assert table.run("next")[-1] == "Mount Keralia: 0 → 1 pressure counter at the end of the turn."
    table.run("next")
    table.run("next")
    table.run("next")
    assert table.run("roll pw")[-1] == (
        "Alice planeswalks away from Mount Keralia: turn over the top card of Alice's planar deck and tap it. "
        "Mount Keralia deals 2 damage to each creature and each planeswalker."
    )


def test_pc11_stairs_to_infinity_draws_on_every_roll(table: Table) -> None:
    """PC-11, Stairs to Infinity: 'Whenever you roll the planar die, draw a card' — every roll
    its controller makes, of any face, special or not, says so."""
    _counting_game(table, "Stairs to Infinity")
    table.run("next")
    assert table.run("roll blank") == [
        "Alice rolled a blank (free): nothing happens. Alice draws a card (Stairs to Infinity)."
    ]
    assert table.run("freeroll chaos")[0].endswith("Alice draws a card (Stairs to Infinity).")
    assert (
        table.run("roll pw")[0]
        == "Alice rolled PLANESWALK (cost 1). Alice draws a card (Stairs to Infinity)."
    )


def test_pc6_pc12_tapped_tags_take_physical_decks_round_twice(table: Table, tmp_path: Path) -> None:
    """PC-6, PC-12 with the reader: every card carries an enrolled tag; the players tap the real
    card they turn over, turn after turn, until both decks have gone round twice; a tag of a card
    from the other deck is refused with what to do, and undo takes back any tap."""
    from device.errors import IllegalCommand
    from device.inputs import TagRead
    from device.tagmap import TagMap

    tags = TagMap(tmp_path / "tags.txt")
    decks = {"Alice": ["Morphic Tide", *P[:9]], "Bob": P[9:19]}
    uid = {name: f"04A1B2{index:04X}" for index, name in enumerate(decks["Alice"] + decks["Bob"])}
    for name, tag in uid.items():
        tags.add(tag, name)
    table.controller.tags = tags
    _physical_game(table, decks, communal=False)

    def tap(name: str) -> list[str]:
        before = table.controller.state
        result = table.controller.handle(TagRead(uid[name]))
        assert result is not None
        lines = [str(m) for m in result.messages]
        table.controller.undo()
        assert table.controller.state == before
        table.controller.redo()
        return lines

    assert tap(P[0]) == [f"Starting plane: {P[0]} (Alice)."]
    order = {"Alice": [n for n in decks["Alice"] if n != P[0]], "Bob": list(decks["Bob"])}
    turned = {"Alice": 1, "Bob": 0}
    while min(turned.values()) < 2 * 10:
        state = table.controller.state
        assert state is not None and state.planechase is not None
        player = state.player(state.active).name
        table.run("next")
        away = [
            (state.player(c.owner).name if c.owner is not None else "", c.name)
            for c in state.planechase.face_up
        ]
        table.run("roll", 6)
        for owner, name in away:
            order[owner].append(name)
        nxt = order[player].pop(0)
        if turned[player] == 11:  # once: a card of the other deck is tapped by mistake
            other = "Bob" if player == "Alice" else "Alice"
            wrong = next(n for n in decks[other] if n != nxt)
            with pytest.raises(IllegalCommand, match=f"{wrong} is not in {player}'s planar deck"):
                table.controller.handle(TagRead(uid[wrong]))
        lines = tap(nxt)
        turned[player] += 1
        if nxt == "Morphic Tide":
            assert lines == [f"{player} encounters Morphic Tide: resolve it, then press NEXT."]
            table.run("ack")
            order[player].append("Morphic Tide")
            nxt = order[player].pop(0)
            tap(nxt)
            turned[player] += 1
        table.run("next")


def _controller_line(table: Table) -> str:
    return next(line for line in table.run("planes") if line.startswith("Planar controller"))


def test_pc9_901_12b_two_headed_giant_teams_leave_on_their_own_turn_and_on_others(
    table: Table,
) -> None:
    """PC-8, PC-9 (901.8, 901.10, 901.12b) as a table plays it: four teams, each player's own
    deck.  Bob rolls and planeswalks from his own deck; Alice & Bob leave on their own turn, so
    Carol (the next team's primary player) becomes planar controller and turns over her top card;
    later Carol & Dan leave on Eve & Fay's turn with Carol's plane still face up, and Eve, the
    planar controller, turns over her top card.  Every step is undone and redone."""
    table.run("new ffa+2hg+planechase Alice Bob Carol Dan Eve Fay Gus Hal first=Alice", undo=False)
    names = ["Alice", "Bob", "Carol", "Dan", "Eve", "Fay", "Gus", "Hal"]
    for seat, player in enumerate(names):
        table.run(f"deck {player} " + ", ".join(P[10 * seat : 10 * seat + 10]))
    table.run("next")
    assert table.run("roll Bob", 6) == [
        "Bob rolled PLANESWALK (free).",
        f"Bob planeswalks away from {P[0]} to {P[10]}.",
    ]
    assert _controller_line(table) == "Planar controller: Alice"
    assert table.run("concede Alice") == [
        "Alice has conceded.",
        "Bob has lost with their team.",
        "Carol becomes the planar controller.",
        "Alice's planar cards leave the game with them.",
        f"Bob's planar cards leave the game with them, including face-up {P[10]}.",
        f"Carol planeswalks to {P[20]}.",
    ]
    assert _controller_line(table) == "Planar controller: Carol"
    assert table.run("roll chaos")[0].startswith(
        "refused: Nobody may roll the planar die for the rest of this turn"
    )
    assert table.run("next") == [
        "Turn 2: Carol & Dan's upkeep.",
        "Planar die: the first roll this turn is free.",
    ]
    table.run("next")
    assert table.run("roll Dan", 1) == [
        f"Dan rolled CHAOS (free): {P[20]}'s chaos ability triggers."
    ]
    table.run("next")
    table.run("next")  # Eve & Fay's main phase, Carol's plane still face up
    assert _controller_line(table) == "Planar controller: Eve"
    assert table.run("concede Dan") == [
        "Dan has conceded.",
        "Carol has lost with their team.",
        f"Carol's planar cards leave the game with them, including face-up {P[20]}.",
        f"Eve planeswalks to {P[40]}.",
        "Dan's planar cards leave the game with them.",
    ]
    assert table.run("roll Fay", 6) == [
        "Fay rolled PLANESWALK (free).",
        f"Fay planeswalks away from {P[40]} to {P[50]}.",
    ]
    assert table.run("concede Eve")[-1] == "Game over: Gus & Hal won (last team standing)."


def test_pc10_807_4c_a_ten_player_grand_melee_where_holders_leave_on_their_turns(
    table: Table,
) -> None:
    """PC-10 (807.4a, 807.4c, 901.6, 901.14b) as a table plays it: ten players, two markers
    (one for each full four).  E5 leaves during the turn: F6 stands in as planar controller of
    E5's planes and plays the next turn with that marker; then B2 leaves during their turn with
    the first marker and C3 stands in, then plays the next turn; then, with eight players left,
    G7 leaving takes the count to one marker, and G7's goes at once.  Every step is undone and redone."""
    players = ["A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "I9", "J10"]
    out = table.run(
        "new ffa+planechase " + " ".join(players) + " first=A1 grand_melee=on", undo=False
    )
    assert out[1].endswith(
        " Grand Melee: 2 turn markers, one for each full four players (807.4a), held by A1 and E5."
    )
    table.run("next")
    assert "Planar controllers: A1, E5" in table.run("planes")
    out = table.run("concede E5")
    assert (
        out[1]
        == "F6 becomes the planar controller of E5's planes and takes E5's turn marker when this turn ends."
    )
    assert "Planar controllers: A1, F6" in table.run("planes")
    assert table.run("roll F6", 2)[0].startswith("refused: Only A1 may roll the planar die now")
    table.run("next")  # turn 2: B2 and F6 hold the markers
    assert "Planar controllers: B2, F6" in table.run("planes")
    table.run("next")
    assert table.run("roll F6", 2) == ["F6 rolled a blank (free): nothing happens."]
    out = table.run("concede B2")
    assert (
        out[1]
        == "C3 becomes the planar controller of B2's planes and takes B2's turn marker when this turn ends."
    )
    assert "Planar controllers: C3, F6" in table.run("planes")
    assert table.run("next")[0] == "Turn 3: C3's upkeep."
    assert "Planar controllers: C3, G7" in table.run("planes")
    out = table.run(
        "concede G7"
    )  # seven players keep one marker (807.4a): G7's goes at once (901.14b)
    assert out[1].startswith("G7's turn marker is removed; ") and out[1].endswith(
        " without anyone planeswalking."
    )
    state = table.controller.state
    assert state is not None and state.planechase is not None
    assert state.planechase.markers == (2,) and [c.marker for c in state.planechase.face_up] == [0]
    assert table.run("next")[0] == "C3: main phase."
    assert table.run("next")[0] == "Turn 4: D4's upkeep."
    assert table.controller.state is not None and table.controller.state.planechase is not None
    assert table.controller.state.planechase.markers == (3,)
