"""Two-Headed Giant as a table format (TB-6; Comprehensive Rules 810), at the console as a table
plays it, with undo and redo after every step; with Planechase (PC-9, 901.12)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from device.journal import Journal
from device.state import GameState
from tests.test_planechase_console import Table


@pytest.fixture
def table(journal_path: Path) -> Iterator[Table]:
    with Journal(journal_path) as journal:
        yield Table(journal)


def state(table: Table) -> GameState:
    current = table.controller.state
    assert current is not None
    return current


def lives(table: Table) -> list[int]:
    return [p.life for p in state(table).players]


def test_tb6_teams_of_adjacent_seats_take_their_turns_together(table: Table) -> None:
    """TB-6 (810.2): the turn passes from team to team, not from player to player; the team's
    first seat is its primary player and leads; a reversed turn order reverses the teams; a
    skipped turn skips the team."""
    assert table.run("new 2hg Alice Bob Carol Dan Eve Fay first=Dan", undo=False) == [
        "New game (Free-for-all + Two-Headed Giant) for teams Alice & Bob, Carol & Dan, Eve & Fay, 30 life each. "
        "Carol & Dan go first."
    ]
    assert state(table).active == 2
    assert table.run("next") == ["Carol & Dan: main phase."]
    assert table.run("next") == ["Turn 2: Eve & Fay's upkeep."]
    assert table.run("pass") == ["Turn 3: Alice & Bob's upkeep."]
    table.run("reverse")
    assert table.run("pass") == ["Turn 4: Eve & Fay's upkeep."]
    table.run("skip Dan")
    assert table.run("pass") == ["Dan skips this turn.", "Turn 5: Alice & Bob's upkeep."]
    assert table.run("show")[:4] == [
        "Turn 5: Alice & Bob's upkeep, turn order reversed.",
        "Team Alice & Bob: 30 life",
        "Team Carol & Dan: 30 life",
        "Team Eve & Fay: 30 life",
    ]


def test_tb6_a_team_shares_one_life_total(table: Table) -> None:
    """TB-6 (810.4, 810.9): damage, loss and gain happen to a player and are applied to the team's
    shared total, 30 at the start; who did what to whom stays per player (LF-2)."""
    table.run("new ffa+2hg Alice Bob Carol Dan first=Alice", undo=False)
    assert table.run("damage Carol 7 from Alice") == ["Carol: 30 → 23 life (from Alice)."]
    assert lives(table) == [30, 30, 23, 23]
    table.run("damage Dan 3 from Bob")
    table.run("gain Carol 2")
    assert lives(table) == [30, 30, 22, 22]
    table.run("life Dan =10")
    assert lives(table) == [30, 30, 10, 10]
    assert table.run("dealt") == [
        "no one → Carol: 2 life gained",
        "no one → Dan: 12 life lost",
        "Alice → Carol: 7 life lost",
        "Bob → Dan: 3 life lost",
    ]


def test_tb6_two_headed_giant_commander_starts_at_60_and_counts_21_per_team(table: Table) -> None:
    """TB-6: Two-Headed Giant Commander: 60 shared life; 21 combat damage from one commander to
    the team (either player, added up) makes the team lose."""
    table.run("new commander+2hg Alice Bob Carol Dan first=Carol", undo=False)
    assert lives(table) == [60, 60, 60, 60]
    table.run("commander Alice 11 from Carol")
    out = table.run("commander Bob 10 from Carol")
    assert out[0] == "Bob took 10 commander damage from Carol's commander (21 of 21)."
    assert out[-3:] == [
        "Alice has lost: 21 combat damage from one commander.",
        "Bob has lost: 21 combat damage from one commander.",
        "Game over: Carol & Dan won (last team standing).",
    ]
    assert lives(table) == [39, 39, 60, 60]


def test_tb6_poison_counts_per_team_and_fifteen_lose(table: Table) -> None:
    """TB-6 (810.10): poison counters are the team's; ten do not lose, fifteen do."""
    table.run("new ffa+2hg Alice Bob Carol Dan first=Alice", undo=False)
    table.run("poison Carol +9 from Alice")
    out = table.run("poison Dan +1 from Bob")
    assert [p.poison for p in state(table).players] == [0, 0, 10, 10]
    assert not any("lost" in line for line in out)
    out = table.run("poison Dan +5 from Bob")
    assert out[1:] == [
        "Carol has lost: 15 poison counters on the team.",
        "Dan has lost: 15 poison counters on the team.",
        "Game over: Alice & Bob won (last team standing).",
    ]


def test_tb6_a_team_wins_and_loses_together(table: Table) -> None:
    """TB-6 (810.8a): a player who concedes takes their teammate out with them; the last team
    with a player left wins, and the outcome names the team."""
    table.run("new ffa+2hg Alice Bob Carol Dan Eve Fay first=Alice", undo=False)
    assert table.run("concede Dan") == ["Dan has conceded.", "Carol has lost with their team."]
    assert table.run("next") == ["Alice & Bob: main phase."]
    assert table.run("next") == ["Turn 2: Eve & Fay's upkeep."]  # Carol & Dan's turn is gone
    out = table.run("damage Eve 30 from Alice")
    assert out[-1] == "Game over: Alice & Bob won (last team standing)."
    from device.rules.registry import outcome

    result = outcome(state(table))
    assert result is not None and result.winner == 0 and result.team == (0, 1)
    assert table.run("damage Alice 1")[0].startswith("refused: The game is over: Alice & Bob won")


def test_tb6_needs_a_base_it_can_share_and_not_contraptions(table: Table) -> None:
    """TB-6: Two-Headed Giant goes with a free-for-all or Commander; it is not a base format of
    its own, a Wizard's Duel or Necromancer has no teams, and Contraptions' cranking is per player."""
    assert table.run("new necromancer+2hg A B C D", undo=False)[0].startswith(
        "refused: Two-Headed Giant needs one of these base formats: Commander or Free-for-all."
    )
    assert table.run("new ffa+2hg+contraptions A B C D", undo=False)[0] == (
        "refused: Two-Headed Giant and Contraptions cannot be played together."
    )


def test_tb6_pc9_two_headed_giant_commander_planechase_plays_to_its_end(table: Table) -> None:
    """TB-6 with PC-9 (901.12): the primary player of the active team is planar controller and
    both members may roll, each paying for their own rolls; when the planar controller's team
    leaves, the next team's primary player becomes planar controller; a whole game with undo."""
    table.run("new commander+2hg+planechase Alice Bob Carol Dan Eve Fay first=Alice", undo=False)
    from device.rules.planechase.queries import planar_controller

    table.run("next")
    assert table.run("roll Bob", 2) == ["Bob rolled a blank (free): nothing happens."]
    assert table.run("roll Alice", 3) == ["Alice rolled a blank (free): nothing happens."]
    assert table.run("roll Bob", 4) == ["Bob rolled a blank (cost 1): nothing happens."]
    assert table.run("roll Carol", 4)[0].startswith("refused: Only Alice or Bob may roll")
    assert table.run("roll Alice", 6)[0] == "Alice rolled PLANESWALK (cost 1)."
    assert planar_controller(state(table)) == 0
    table.run("next")  # Carol & Dan
    assert planar_controller(state(table)) == 2
    # Carol & Dan are beaten while they control the plane: Eve, the next team's primary, takes over.
    out = table.run("damage Dan 60 from Eve")
    assert "Eve becomes the planar controller." in out
    assert planar_controller(state(table)) == 4
    for _ in range(6):
        table.run("next")
    out = table.run("commander Alice 21 from Eve")
    assert out[-1] == "Game over: Eve & Fay won (last team standing)."
