"""Planechase at the console (PC-1..PC-14): every command as a user types it, and the issue's two
end-to-end games, with undo and redo after every step."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.catalog import load_catalog
from device.console import Console
from device.controller import Controller
from device.journal import Journal
from tests.test_planechase import Scripted

P = [c.name for c in load_catalog().planes() if "'" not in c.name]  # quotes are shell-like at the console


class Table:
    """A console session whose die lands where the test says and whose shuffles keep order."""

    def __init__(self, journal: Journal) -> None:
        self.rng = Scripted()
        self.controller = Controller(journal, rng=self.rng)
        self.out = io.StringIO()
        self.console = Console(self.controller, self.out)

    def run(self, line: str, *pips: int, undo: bool = True) -> list[str]:
        """Run a line; then undo it and redo it, checking both give the states they should."""
        before = self.controller.state
        self.rng.pips = list(pips)
        start = self.out.tell()
        self.console.run_line(line)
        self.out.seek(start)
        lines = self.out.read().splitlines()
        after = self.controller.state
        if undo and after != before and before is not None:
            self.console.run_line("undo")
            assert self.controller.state == before
            self.console.run_line("redo")
            assert self.controller.state == after
            self.out.seek(0, io.SEEK_END)
        return lines


@pytest.fixture
def table(journal_path: Path) -> Iterator[Table]:
    with Journal(journal_path) as journal:
        yield Table(journal)


def test_pc_console_four_player_game_with_per_player_decks(table: Table) -> None:
    """The issue's done-when, part 1: four players, each with their own planar deck."""
    assert table.run("new ffa+planechase Alice Bob Carol Dan first=Alice", undo=False)[:2] == [
        "New Free-for-all + Planechase game for Alice, Bob, Carol, Dan, 20 life. Alice goes first.",
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
    assert table.run("freeroll", 5) == ["Alice rolled a blank (an effect's roll, free): nothing happens."]
    assert table.run("roll", 6) == ["Alice rolled PLANESWALK (cost 2).", f"Alice planeswalks away from {P[0]} to {P[1]}."]
    assert table.run("roll Bob") == ["refused: Only Alice may roll the planar die now, as the special action (901.9); "
                                     "Bob may not."]
    assert table.run("next") == ["Turn 2: Bob's upkeep.", "Planar die: the first roll this turn is free."]
    table.run("next")
    assert table.run("roll", 6) == ["Bob rolled PLANESWALK (free).", f"Bob planeswalks away from {P[1]} to {P[10]}."]
    assert table.run("counters +3") == [f"{P[10]}: 0 → 3 counters."]
    assert table.run("concede Alice") == ["Alice has conceded.", "Alice's planar cards leave the game with them."]
    assert table.run("concede Bob") == [
        "Bob has conceded.",
        "Carol becomes the planar controller.",
        f"Bob's planar cards leave the game with them, including face-up {P[10]}.",
        f"Carol planeswalks to {P[20]}.",
    ]
    out = table.run("planes")
    assert out[:3] == [f"Face up: {P[20]} (plane)", "Planar controller: Carol", "Carol's planar deck: 9 card(s)"]
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
    cards = [P[0], "Chaotic Aether", P[1], "Spatial Merging", "Time Distortion", P[2], P[3],
             "Interplanar Tunnel", *P[4:30]]
    assert table.run("deck communal " + ", ".join(cards))[-1] == f"Starting plane: {P[0]} (communal deck)."
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
    assert table.run("odds 1")[0] == "Next roll: planeswalk 1/6, chaos 5/6, blank 0 (blanks count as chaos)."
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
    assert table.run("roll", 1) == [f"Alice rolled CHAOS (cost 4): the chaos abilities of {P[2]} and {P[3]} trigger."]
    assert table.run("planeswalk") == [
        f"Alice planeswalks away from {P[2]}, {P[3]} to Interplanar Tunnel. Alice encounters Interplanar Tunnel: "
        "resolve it, then press NEXT."
    ]
    assert table.run("next") == [
        f"Interplanar Tunnel reveals {P[4]}, {P[5]}, {P[6]}, {P[7]}, {P[8]}: Alice, choose the plane to put on "
        "top ('choose NAME')."
    ]
    assert table.run("next") == ["refused: Alice must choose first (choose the plane to put on top: "
                                 f"{P[4]}, {P[5]}, {P[6]}, {P[7]}, {P[8]})."]
    assert table.run("choose Time Distortion")[0].startswith("refused: 'Time Distortion' is not one of the choices")
    assert table.run(f"choose {P[7]}") == [
        f"Alice puts {P[7]} on top and {P[4]}, {P[5]}, {P[6]}, {P[8]} on the bottom.",
        f"Alice planeswalks away from Interplanar Tunnel to {P[7]}.",
    ]
    assert table.run("next") == ["Turn 2: Bob's upkeep.", "Planar die: the first roll this turn is free."]
    out = table.run("planes")
    assert out[0] == f"Face up: {P[7]} (plane)"
    assert out[-2] == (f"Visited: {P[0]}, Chaotic Aether, {P[1]}, Spatial Merging, {P[2]}, {P[3]}, "
                       f"Interplanar Tunnel, {P[7]}")


def test_pc_console_help_and_options(table: Table) -> None:
    assert table.run("new ffa+planechase Ola Ela first=Ola grand_melee=on", undo=False) == [
        "refused: Grand Melee with 2 turn markers needs at least 4 players; this table has 2."
    ]
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
    out = table.run("new ffa+planechase Alice Bob first=Alice planar_deck=physical communal_deck=on", undo=False)
    assert out[1] == "Planar deck: one communal deck of physical cards."


def test_pc4_a_deck_lists_printed_names_with_commas(table: Table) -> None:
    """PC-4: "The Drum, Mining Facility" and "Fblthp: Completely, Utterly, Totally Lost" are one
    card each in a comma-separated deck list, typed in any case; a unique start ("the drum")
    still names a card, and the deck has exactly the ten cards listed."""
    table.run("new ffa+planechase Alice Bob first=Alice", undo=False)
    others = [n for n in P if "," not in n and not n.startswith(("The Drum", "Fblthp"))][:8]
    line = "deck Alice The Drum, Mining Facility, fblthp: completely, utterly, totally lost, " + ", ".join(others)
    out = table.run(line)
    assert not any(text.startswith("refused") for text in out), out
    deck = table.controller.state.planechase.deck(0)  # type: ignore[union-attr]
    names = {c.name for c in deck.cards} | {c.name for c in table.controller.state.planechase.face_up}  # type: ignore[union-attr]
    assert {"The Drum, Mining Facility", "Fblthp: Completely, Utterly, Totally Lost", *others} == names
    assert load_catalog().planar().split("the drum, " + others[0]) == ("the drum", others[0])


def test_pc10_planes_names_every_marker_holder_and_never_one_who_left(table: Table) -> None:
    """PC-10 (901.14): in Grand Melee 'planes' names each turn marker's holder as a planar
    controller; when A1 concedes, B2 takes A1's marker and A1 is named no more."""
    table.run("new ffa+planechase A1 B2 C3 D4 E5 F6 G7 H8 first=A1 grand_melee=on", undo=False)
    assert "Planar controllers: A1, E5" in table.run("planes")
    table.run("concede A1")
    assert "Planar controllers: B2, E5" in table.run("planes")
