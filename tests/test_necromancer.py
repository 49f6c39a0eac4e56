"""Necromancer / Minion EDH: SPEC section 4 (NC-1..NC-7), through the controller and the console."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ConsoleTable, play_step, refused, state
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.game import GAME
from device.commands import (
    ChangeLife,
    ChangePoison,
    Command,
    Concede,
    DealCommanderDamage,
    Lose,
    NewGame,
    PassTurn,
)
from device.console import TABLES, Console
from device.controller import Controller
from device.journal import Journal
from device.rules.necromancer.commands import Blame, SoloTurn
from device.state import GameState
from device.rules.necromancer.state import Fate, NecromancerState, Phase

A, B, C, D = 0, 1, 2, 3


def start(
    controller: Controller, players: tuple[str, ...] = ("Alice", "Bob", "Carol", "Dave")
) -> None:
    controller.execute(NewGame(formats=("necromancer",), players=players, first="Alice"))


def necro(controller: Controller) -> NecromancerState:
    value = state(controller).necromancer
    assert value is not None
    return value


def texts(controller: Controller, command: Command) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]


def kill(controller: Controller, seat: int, source: int | None) -> list[str]:
    return texts(
        controller, ChangeLife(seat=seat, delta=-state(controller).player(seat).life, source=source)
    )


def finish_solo(controller: Controller, seat: int) -> None:
    for _ in range(3):
        controller.execute(SoloTurn(seat=seat))


class Table(ConsoleTable):
    """A console session with undo and redo after every line, on a seeded die."""

    def __init__(self, journal: Journal) -> None:
        super().__init__(journal, random.Random(3))


@pytest.fixture
def table(journal_path: Path) -> Iterator[Table]:
    with Journal(journal_path) as journal:
        yield Table(journal)


def test_format_is_commander_life_with_commander_damage_and_an_alias(
    controller: Controller,
) -> None:
    """TB-2: Necromancer starts like Commander (40 life) and is also called Minion EDH."""
    controller.execute(NewGame(formats=("minion-edh",), players=("Alice", "Bob"), first="Alice"))
    assert state(controller).formats == ("necromancer",)
    assert [p.life for p in state(controller).players] == [40, 40]
    controller.execute(DealCommanderDamage(seat=B, source=A, amount=5))
    assert state(controller).player(B).commander_damage_from(A, 0) == 5


def test_nc1_loser_becomes_the_minion_of_the_player_responsible(controller: Controller) -> None:
    """NC-1: the loss's source is the killer; the loser becomes their minion."""
    start(controller)
    assert kill(controller, B, A) == [
        "Bob: 40 → 0 life (from Alice).",
        "Bob has lost: 0 or less life.",
        "Bob comes back as Alice's minion at 30 life, after three solo turns apart from the game.",
    ]
    bob = necro(controller).seat(B)
    assert (bob.minion, bob.master, bob.deaths, bob.fate, bob.killed_by) == (
        True,
        A,
        1,
        Fate.MINION,
        A,
    )


def test_nc1_self_inflicted_or_unknown_loss_makes_a_masterless_minion(
    controller: Controller,
) -> None:
    """NC-1: nobody responsible (own doing, or unknown) → a masterless minion."""
    start(controller)
    assert texts(controller, Lose(seat=C))[-1] == (
        "Carol comes back as a masterless minion at 30 life, after three solo turns apart from the game."
    )
    kill(controller, D, D)  # their own source
    assert necro(controller).seat(D).master is None and necro(controller).seat(D).minion


def test_nc1_blame_puts_the_latest_loss_down_to_someone_else(controller: Controller) -> None:
    """NC-1: the table can correct who was responsible; the outcome is settled again."""
    start(controller)
    controller.execute(ChangePoison(seat=C, delta=3, source=D))
    kill(controller, C, A)
    assert texts(controller, Blame(seat=C, responsible=B)) == [
        "Carol's loss is now put down to Bob.",
        "Carol comes back as Bob's minion at 30 life, after three solo turns apart from the game.",
    ]
    assert necro(controller).seat(C).master == B and necro(controller).seat(C).deaths == 1
    assert texts(controller, Blame(seat=C, responsible=None))[-1].startswith(
        "Carol comes back as a masterless"
    )
    assert (
        refused(controller, Blame(seat=C, responsible=None))
        == "Carol's loss is already put down to nobody."
    )
    assert refused(controller, Blame(seat=A, responsible=B)) == (
        "Only the latest loss can be put down to someone else, and that was Carol's; undo back to "
        "Alice's loss to change it."
    )
    controller.execute(SoloTurn(seat=C))
    assert refused(controller, Blame(seat=C, responsible=D)) == (
        "Carol has played a solo turn since; undo back to the loss to change who was responsible."
    )


def test_nc1_blame_can_turn_a_minion_into_out_for_good_and_back(controller: Controller) -> None:
    """NC-1 + NC-5: correcting the killer to the master puts the minion out, and back again."""
    start(controller)
    kill(controller, B, A)
    finish_solo(controller, B)
    controller.execute(PassTurn())  # Bob phases in
    kill(controller, B, C)
    assert necro(controller).seat(B).master == C
    assert texts(controller, Blame(seat=B, responsible=A)) == [
        "Bob's loss is now put down to Alice.",
        "Bob was killed by their master Alice and is out of the game for good.",
    ]
    assert state(controller).player(B).lost is not None and necro(controller).seat(B).out
    controller.execute(Blame(seat=B, responsible=C))
    assert state(controller).player(B).lost is None and necro(controller).seat(B).master == C


def test_nc2_respawn_at_30_clears_poison_and_commander_damage(controller: Controller) -> None:
    """NC-2, TB-2: the minion goes to 30 life with a clean slate."""
    start(controller)
    controller.execute(ChangePoison(seat=B, delta=4, source=C))
    controller.execute(DealCommanderDamage(seat=B, source=C, amount=20))
    kill(controller, B, A)
    bob = state(controller).player(B)
    assert (bob.life, bob.poison, bob.commander_damage, bob.lost) == (30, 0, (), None)


def test_nc3_three_solo_turns_hold_the_seat_then_the_minion_phases_in(
    controller: Controller,
) -> None:
    """NC-3: the seat is passed over until three solo turns are done; then the 4th turn is theirs."""
    start(controller)
    kill(controller, B, A)
    assert texts(controller, PassTurn()) == [
        "Bob skips this turn.",
        "Turn 2: Carol's upkeep.",
        "Bob is playing their solo turns (0 of 3 done); their seat is passed over.",
    ]
    assert texts(controller, SoloTurn(seat=B)) == ["Bob finished solo turn 1 of 3."]
    controller.execute(PassTurn())
    controller.execute(PassTurn())
    assert state(controller).active == A
    assert texts(controller, PassTurn())[0] == "Bob skips this turn."
    controller.execute(SoloTurn(seat=B))
    assert texts(controller, SoloTurn(seat=B)) == [
        "Bob finished their three solo turns and phases in when their seat's turn comes up."
    ]
    assert necro(controller).seat(B).phase is Phase.WAITING
    controller.execute(PassTurn())
    controller.execute(PassTurn())
    assert state(controller).active == A
    assert texts(controller, PassTurn()) == [
        "Turn 8: Bob's upkeep.",
        "Bob phases in and plays their 4th turn as a member of the game.",
    ]
    assert (
        necro(controller).seat(B).phase is Phase.IN and state(controller).player(B).skip_turns == 0
    )
    assert refused(controller, SoloTurn(seat=B)) == "Bob is not playing solo turns."


def test_nc3_show_says_whose_minion_and_how_many_solo_turns_are_left(table: Table) -> None:
    """NC-1, NC-3 at the console's ``show``: the minion's master (or masterless) and the solo turns
    still to play; the seat held for them is not a skipped turn, one the table skips still is."""
    table.run("new necromancer Alice Bob Carol Dave first=Alice", undo=False)
    table.run("damage Bob 40 from Alice")
    assert table.run("show") == [
        "Turn 1: Alice's upkeep.",
        "* Alice: 40 life",
        "  Bob: 30 life  (minion of Alice, 3 solo turns left)",
        "  Carol: 40 life",
        "  Dave: 40 life",
    ]
    table.run("solo Bob")
    assert table.run("pass")[:2] == ["Bob skips this turn.", "Turn 2: Carol's upkeep."]
    assert table.run("show")[2] == "  Bob: 30 life  (minion of Alice, 2 solo turns left)"
    table.run("solo Bob")
    table.run("skip Bob")  # a card makes Bob skip a turn of his own
    assert (
        table.run("show")[2] == "  Bob: 30 life  (minion of Alice, 1 solo turn left; skips 1 turn)"
    )
    table.run("solo Bob")
    table.run("skip Bob")
    assert table.run("show")[2] == (
        "  Bob: 30 life  (minion of Alice, phases in at their seat's turn; skips 2 turns)"
    )
    table.run("lose Dave")
    assert table.run("show")[4] == "  Dave: 30 life  (masterless minion, 3 solo turns left)"
    passes = [
        table.run("pass")[:2] for _ in range(5)
    ]  # Bob skips the two turns a card made him skip
    assert passes == [
        ["Dave skips this turn.", "Turn 3: Alice's upkeep."],
        ["Bob skips this turn.", "Turn 4: Carol's upkeep."],
        ["Dave skips this turn.", "Turn 5: Alice's upkeep."],
        ["Bob skips this turn.", "Turn 6: Carol's upkeep."],
        ["Dave skips this turn.", "Turn 7: Alice's upkeep."],
    ]
    assert table.run("pass") == [
        "Turn 8: Bob's upkeep.",
        "Bob phases in and plays their 4th turn as a member of the game.",
    ]
    assert table.run("show")[2] == "* Bob: 30 life  (minion of Alice)"


def test_nc3_a_minion_who_dies_again_on_solo_turns_has_their_seat_held_once(
    controller: Controller,
) -> None:
    """NC-3: a second respawn during the solo turns starts them again but holds the seat once, so
    after the three the minion phases in at their seat's turn, not a lap later."""
    start(controller)
    kill(controller, B, A)
    assert kill(controller, B, B)[-1] == (  # their own painland, on a solo turn
        "Bob comes back as a masterless minion at 30 life, after three solo turns apart from the game."
    )
    assert state(controller).player(B).skip_turns == 1
    finish_solo(controller, B)
    assert state(controller).player(B).skip_turns == 0
    assert texts(controller, PassTurn()) == [
        "Turn 2: Bob's upkeep.",
        "Bob phases in and plays their 4th turn as a member of the game.",
    ]


def test_nc3_a_minion_who_concedes_on_solo_turns_frees_their_seat(controller: Controller) -> None:
    """NC-3, NC-6: conceding during the solo turns leaves no skipped turn behind."""
    start(controller)
    kill(controller, B, A)
    controller.execute(Concede(seat=B))
    assert state(controller).player(B).skip_turns == 0 and necro(controller).seat(B).out


def test_nc4_minions_can_never_win_and_the_table_sees_it(controller: Controller) -> None:
    """NC-4: a minion cannot win; a player who never died can."""
    start(controller)
    kill(controller, B, A)
    assert not necro(controller).seat(B).can_win
    assert necro(controller).seat(A).can_win and necro(controller).seat(C).can_win


def test_nc5_minion_killed_by_their_master_is_out_for_good(controller: Controller) -> None:
    """NC-5: killed by the master → out; the seat stays out of the turn order."""
    start(controller)
    kill(controller, B, A)
    finish_solo(controller, B)
    for _ in range(4):
        controller.execute(PassTurn())
    assert (
        kill(controller, B, A)[-1]
        == "Bob was killed by their master Alice and is out of the game for good."
    )
    assert necro(controller).seat(B).out and state(controller).player(B).lost is not None
    assert [texts(controller, PassTurn())[0] for _ in range(3)] == [
        "Turn 6: Carol's upkeep.",
        "Turn 7: Dave's upkeep.",
        "Turn 8: Alice's upkeep.",
    ]


def test_nc5_minion_killed_by_another_player_changes_master(controller: Controller) -> None:
    """NC-5: killed by someone else → that player's minion."""
    start(controller)
    kill(controller, B, A)
    finish_solo(controller, B)
    controller.execute(PassTurn())
    controller.execute(PassTurn())
    kill(controller, B, C)
    assert necro(controller).seat(B).master == C and necro(controller).seat(B).deaths == 2


def test_nc5_minion_that_makes_their_master_lose_regains_full_status(
    controller: Controller,
) -> None:
    """NC-5: no longer a minion, and the old master becomes theirs; yet they have died, and only a
    player who never died wins (NC-6, docs/decisions/0004-necromancer-winning.md)."""
    start(controller)
    kill(controller, B, A)
    finish_solo(controller, B)
    controller.execute(PassTurn())  # Bob phases in
    assert texts(controller, Lose(seat=A, source=B))[-1] == (
        "Bob made their master Alice lose and regains full status; Alice comes back as Bob's minion "
        "at 30 life, after three solo turns apart from the game."
    )
    bob, alice = necro(controller).seat(B), necro(controller).seat(A)
    assert (bob.minion, bob.master, bob.can_win) == (False, None, False)
    assert (alice.minion, alice.master) == (True, B)


def test_nc6_last_player_who_never_died_wins(controller: Controller) -> None:
    """NC-6: the game ends when one never-died player is left, though minions are still playing."""
    start(controller)
    kill(controller, B, A)
    kill(controller, C, A)
    assert GAME.outcome(state(controller)) is None
    result = controller.execute(Lose(seat=D, source=A))
    ended = GAME.outcome(state(controller))
    assert ended is not None and (ended.winner, ended.reason) == (
        A,
        "the last player who never died",
    )
    assert len(state(controller).in_game()) == 4 and result.messages
    assert refused(controller, PassTurn()) == (
        "The game is over: Alice won (the last player who never died). Undo to change that, or start "
        "a new game with 'new'."
    )


def test_nc6_minions_says_can_win_of_exactly_the_players_the_outcome_may_name(table: Table) -> None:
    """NC-5, NC-6: a minion who makes their master lose has full status but has died; only the
    players who never died can win, 'minions' says so, and the outcome agrees when one is left."""
    table.run("new necromancer Alice Bob Carol Dave first=Alice", undo=False)
    table.run("damage Bob 40 from Alice")
    for _ in range(3):
        table.run("solo Bob")
    table.run("pass")  # Bob phases in
    assert table.run("lose Alice from Bob")[-1] == (
        "Bob made their master Alice lose and regains full status; Alice comes back as Bob's minion at 30 "
        "life, after three solo turns apart from the game."
    )
    assert table.run("show")[1:3] == [
        "  Alice: 30 life  (minion of Bob, 3 solo turns left)",
        "* Bob: 30 life  (full status)",
    ]
    assert table.run("minions") == [
        "Alice: minion of Bob, 3 solo turns left, can't win",
        "Bob: full status, can't win",
        "Carol: never died, can win",
        "Dave: never died, can win",
    ]
    table.run("pass")
    assert (
        table.run("damage Dave 40 from Carol")[-1]
        == "Game over: Carol won (the last player who never died)."
    )
    ended = GAME.outcome(state(table.controller))
    assert ended is not None and ended.winner == C
    assert table.run("minions") == [
        "Alice: minion of Bob, 3 solo turns left, can't win",
        "Bob: full status, can't win",
        "Carol: never died, won",
        "Dave: minion of Carol, 3 solo turns left, can't win",
        "Game over: Carol won (the last player who never died).",
    ]
    assert table.run("show")[-1] == "Game over: Carol won (the last player who never died)."


def test_nc6_a_player_who_concedes_leaves_for_good(controller: Controller) -> None:
    """NC-6: conceding is not a death that brings you back; their minions lose their master."""
    start(controller)
    kill(controller, B, A)
    assert texts(controller, Concede(seat=A)) == [
        "Alice has conceded.",
        "Alice conceded and is out of the game for good; Bob no longer has a master.",
    ]
    assert necro(controller).seat(A).out and state(controller).player(A).lost is not None
    assert necro(controller).seat(B).master is None


def test_nc5_nc6_minions_left_without_a_master_are_named_as_one_or_several(table: Table) -> None:
    """NC-5, NC-6: a master out for good leaves their minions masterless; several are named
    "Carol and Dave … have" (one "… has": test_nc6_a_player_who_concedes_leaves_for_good)."""
    table.run("new necromancer Alice Bob Carol Dave Eve first=Alice", undo=False)
    table.run("damage Bob 40 from Alice")
    for _ in range(3):
        table.run("solo Bob")
    assert (
        table.run("pass")[-1] == "Bob phases in and plays their 4th turn as a member of the game."
    )
    table.run("damage Carol 40 from Bob")
    table.run("damage Dave 40 from Bob")
    assert table.run("damage Bob 30 from Alice") == [
        "Bob: 30 → 0 life (from Alice).",
        "Bob has lost: 0 or less life.",
        "Bob was killed by their master Alice and is out of the game for good; Carol and Dave no longer have "
        "a master.",
    ]
    table.run("new necromancer Alice Bob Carol Dave Eve first=Alice", undo=False)
    table.run("damage Bob 40 from Alice")
    table.run("damage Carol 40 from Alice")
    table.run("damage Dave 40 from Eve")
    assert table.run("concede Alice") == [
        "Alice has conceded.",
        "Alice conceded and is out of the game for good; Bob and Carol no longer have a master.",
        "Game over: Eve won (the last player who never died).",
    ]


def test_nc7_minion_may_not_damage_their_master_but_the_master_may(controller: Controller) -> None:
    """NC-4, NC-7: refused with a reason, and nothing changes; the master may hurt the minion."""
    start(controller)
    kill(controller, B, A)
    finish_solo(controller, B)
    controller.execute(PassTurn())  # Bob phases in
    reason = "Bob is Alice's minion and can't deal damage to their master."
    assert refused(controller, ChangeLife(seat=A, delta=-3, source=B)) == reason
    assert refused(controller, DealCommanderDamage(seat=A, source=B, amount=3)) == reason
    assert refused(controller, ChangePoison(seat=A, delta=1, source=B)) == reason
    controller.execute(ChangeLife(seat=A, delta=2, source=B))  # life gain is not damage
    controller.execute(ChangeLife(seat=B, delta=-3, source=A))
    controller.execute(ChangeLife(seat=C, delta=-3, source=B))
    assert state(controller).player(B).life == 27


def test_nc7_minions_of_one_master_may_not_damage_each_other(controller: Controller) -> None:
    """NC-4, NC-7: fellow minions of one master are refused."""
    start(controller)
    kill(controller, B, A)
    kill(controller, C, A)
    finish_solo(controller, B)
    finish_solo(controller, C)
    controller.execute(PassTurn())
    controller.execute(PassTurn())
    assert refused(controller, ChangeLife(seat=C, delta=-1, source=B)) == (
        "Bob and Carol are both minions of Alice and can't damage each other."
    )


def test_nc7_nothing_crosses_the_phasing_line(controller: Controller) -> None:
    """NC-3, NC-7: a minion on solo turns neither takes nor deals damage to the others."""
    start(controller)
    kill(controller, B, A)
    assert refused(controller, ChangeLife(seat=B, delta=-1, source=C)) == (
        "Bob is phased out for their solo turns: nothing in the game can hurt them until they phase in."
    )
    controller.execute(
        ChangeLife(seat=B, delta=-1, source=B)
    )  # their own painland is their business


# --- invariants ------------------------------------------------------------------------------

SEATS = st.integers(min_value=0, max_value=3)
STEPS: st.SearchStrategy[Command | str] = st.one_of(
    st.builds(
        ChangeLife, seat=SEATS, delta=st.sampled_from([-45, -30, -10, 5]), source=st.none() | SEATS
    ),
    st.builds(Lose, seat=SEATS, source=st.none() | SEATS),
    st.builds(Concede, seat=SEATS),
    st.builds(SoloTurn, seat=SEATS),
    st.builds(Blame, seat=SEATS, responsible=st.none() | SEATS),
    st.just(PassTurn()),
    st.sampled_from(["undo", "redo"]),
)


def check_relations(game: GameState) -> None:
    necro = game.necromancer
    assert necro is not None
    for record in necro.seats:
        if record.master is not None:
            assert record.minion and record.master != record.seat
            assert not necro.seat(record.master).out
        assert len(necro.masters_of(record.seat)) < len(necro.seats)
        seen, current = {record.seat}, record.master
        while current is not None:  # no circle of masters
            assert current not in seen
            seen.add(current)
            current = necro.seat(current).master
        assert record.can_win == (record.deaths == 0 and not record.out)
        assert not (record.can_win and record.minion)
    # What 'minions' says can win is what decides the game: it goes on while two can.
    can = [p.seat for p in game.players if p.in_game and necro.seat(p.seat).can_win]
    ended = GAME.outcome(game)
    assert (ended is None) == (len(can) >= 2)
    if ended is not None:
        assert ended.winner == (can[0] if can else None)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(STEPS, max_size=25))
def test_nc_relations_stay_a_forest_and_minions_never_win(
    tmp_path: Path, steps: list[Command | str]
) -> None:
    """NC-1, NC-4, NC-5: whatever happens, masters and minions never form a circle."""
    with Journal(tmp_path / f"{random.random()}.sqlite3") as journal:
        controller = Controller(journal, rng=random.Random(1))
        start(controller)
        for step in steps:
            play_step(controller, step)
            check_relations(state(controller))
        assert journal.replay(controller.game or 0) == controller.state


# --- a whole game at the console, undoing every step ----------------------------------------

WHOLE_GAME = """\
new necromancer Alice Bob Carol Dave first=Alice
commanders Bob Tymna + Thrasios
damage Bob 40 from Alice
minions
damage Alice 1 from Bob
solo Bob
next
next
solo Bob
solo Bob
pass
pass
pass
commander Carol 21 from Bob/Tymna
blame Carol Dave
pass
poison Alice +10 from Bob
minions
pass
damage Dave 40 from Alice
"""


def test_nc_full_game_at_the_console_with_undo_at_every_step(journal_path: Path) -> None:
    """NC-1..NC-7 at the console; every step is undone and redone and lands on the same state."""
    out = io.StringIO()
    with Journal(journal_path) as journal:
        controller = Controller(journal, rng=random.Random(3))
        console = Console(controller, out, TABLES)
        for line in WHOLE_GAME.splitlines():
            before = controller.state
            console.run_line(line)
            after = controller.state
            if line.startswith(("minions", "new")) or after == before:
                continue
            console.run_line("undo")
            assert controller.state == before
            console.run_line("redo")
            assert controller.state == after
    lines = [
        line for line in out.getvalue().splitlines() if not line.startswith(("Undone", "Redone"))
    ]
    assert lines == [
        "New game (Necromancer) for Alice, Bob, Carol, Dave, 40 life. Alice goes first.",
        "Necromancer: whoever loses comes back at 30 life as the minion of the player responsible; the "
        "last player who never died wins.",
        "Bob's commanders: Tymna and Thrasios.",
        "Bob: 40 → 0 life (from Alice).",
        "Bob has lost: 0 or less life.",
        "Bob comes back as Alice's minion at 30 life, after three solo turns apart from the game.",
        "Alice: never died, can win",
        "Bob: minion of Alice, 3 solo turns left, can't win",
        "Carol: never died, can win",
        "Dave: never died, can win",
        "refused: Bob is phased out for their solo turns and can't hurt the other players until they phase in.",
        "Bob finished solo turn 1 of 3.",
        "Alice: main phase.",
        "Bob skips this turn.",
        "Turn 2: Carol's upkeep.",
        "Bob is playing their solo turns (1 of 3 done); their seat is passed over.",
        "Bob finished solo turn 2 of 3.",
        "Bob finished their three solo turns and phases in when their seat's turn comes up.",
        "Turn 3: Dave's upkeep.",
        "Turn 4: Alice's upkeep.",
        "Turn 5: Bob's upkeep.",
        "Bob phases in and plays their 4th turn as a member of the game.",
        "Carol took 21 commander damage from Tymna (21 of 21).",
        "Carol: 40 → 19 life (from Bob).",
        "Carol has lost: 21 combat damage from one commander.",
        "Carol comes back as Bob's minion at 30 life, after three solo turns apart from the game.",
        "Carol's loss is now put down to Dave.",
        "Carol comes back as Dave's minion at 30 life, after three solo turns apart from the game.",
        "Carol skips this turn.",
        "Turn 6: Dave's upkeep.",
        "Carol is playing their solo turns (0 of 3 done); their seat is passed over.",
        "refused: Bob is Alice's minion and can't deal damage to their master.",
        "Alice: never died, can win",
        "Bob: minion of Alice, can't win",
        "Carol: minion of Dave, 3 solo turns left, can't win",
        "Dave: never died, can win",
        "Turn 7: Alice's upkeep.",
        "Dave: 40 → 0 life (from Alice).",
        "Dave has lost: 0 or less life.",
        "Dave comes back as Alice's minion at 30 life, after three solo turns apart from the game.",
        "Game over: Alice won (the last player who never died).",
    ]
