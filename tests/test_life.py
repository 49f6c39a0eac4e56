"""Life and loss: SPEC section 3 (LF-1..LF-4), through the controller and the rules."""

from __future__ import annotations

import pytest

from device.game import GAME
from device.commands import (
    Advance,
    ChangeLife,
    ChangePoison,
    Command,
    Concede,
    DealCommanderDamage,
    Lose,
    NameCommanders,
    NewGame,
    SetLife,
)
from device.controller import Controller
from device.errors import IllegalCommand
from device.inputs import Button, ButtonPressed
from device.rules.life import dealt
from device.state import LossReason
from helpers import state

ALICE, BOB, CAROL = 0, 1, 2


def start(controller: Controller, formats: tuple[str, ...] = ("commander",)) -> None:
    controller.execute(NewGame(formats=formats, players=("Alice", "Bob", "Carol"), first="Alice"))


def texts(controller: Controller, command: object) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]  # type: ignore[arg-type]


# --- LF-1 ------------------------------------------------------------------------------------


def test_lf1_zero_life_loses(controller: Controller) -> None:
    start(controller, ("ffa",))
    assert texts(controller, ChangeLife(seat=BOB, delta=-20, source=ALICE)) == [
        "Bob: 20 → 0 life (from Alice).",
        "Bob has lost: 0 or less life.",
    ]
    lost = state(controller).player(BOB).lost
    assert lost is not None and (lost.reason, lost.source, lost.turn) == (LossReason.LIFE, ALICE, 1)


def test_lf1_ten_poison_loses(controller: Controller) -> None:
    start(controller)
    controller.execute(ChangePoison(seat=CAROL, delta=9, source=BOB))
    assert state(controller).player(CAROL).lost is None
    assert texts(controller, ChangePoison(seat=CAROL, delta=1, source=BOB)) == [
        "Carol: 9 → 10 poison (from Bob).",
        "Carol has lost: 10 poison counters.",
    ]


def test_lf1_21_from_one_commander_loses_but_not_from_two(controller: Controller) -> None:
    start(controller)
    controller.execute(NameCommanders(seat=BOB, commanders=("Tymna", "Thrasios")))
    controller.execute(DealCommanderDamage(seat=ALICE, source=BOB, commander=0, amount=15))
    controller.execute(DealCommanderDamage(seat=ALICE, source=BOB, commander=1, amount=15))
    alice = state(controller).player(ALICE)
    assert alice.lost is None and alice.life == 10  # partners are separate sources
    assert texts(
        controller, DealCommanderDamage(seat=ALICE, source=BOB, commander=0, amount=6)
    ) == [
        "Alice took 6 commander damage from Tymna (21 of 21).",
        "Alice: 10 → 4 life (from Bob).",
        "Alice has lost: 21 combat damage from one commander.",
    ]


def test_lf1_partner_must_be_named_when_there_are_two(controller: Controller) -> None:
    start(controller)
    controller.execute(NameCommanders(seat=BOB, commanders=("Tymna", "Thrasios")))
    with pytest.raises(IllegalCommand) as error:
        controller.execute(DealCommanderDamage(seat=ALICE, source=BOB, amount=3))
    assert str(error.value) == (
        "Bob has 2 commanders (Tymna and Thrasios): say which one dealt the damage, e.g. 'from Bob/Tymna'."
    )


@pytest.mark.parametrize(
    ("commanders", "example"),
    [
        (
            ("Kraum, Ludevic's Opus", "Tymna the Weaver"),
            "from Bob/Kraum",
        ),  # one word the console takes
        (("Tymna the Weaver", "Tymna, Second"), "from Bob/1"),
    ],  # a word both start with: the number
)
def test_lf1_which_partner_example_is_one_the_console_takes(
    controller: Controller, commanders: tuple[str, str], example: str
) -> None:
    start(controller)
    controller.execute(NameCommanders(seat=BOB, commanders=commanders))
    with pytest.raises(IllegalCommand) as error:
        controller.execute(DealCommanderDamage(seat=ALICE, source=BOB, amount=3))
    assert str(error.value).endswith(f"e.g. '{example}'.")


def test_lf1_commander_names_are_kept_tidy(controller: Controller) -> None:
    """Whatever the way in, a name keeps single spaces and nothing stray at its ends."""
    start(controller)
    controller.execute(NameCommanders(seat=BOB, commanders=(" Tymna, ", "Kraum ,  Ludevic's Opus")))
    assert state(controller).player(BOB).commanders == ("Tymna", "Kraum, Ludevic's Opus")


def test_lf1_commander_damage_only_in_commander_games(controller: Controller) -> None:
    start(controller, ("ffa",))
    with pytest.raises(IllegalCommand) as error:
        controller.execute(DealCommanderDamage(seat=ALICE, source=BOB, amount=3))
    assert (
        str(error.value)
        == "Commander damage is tracked only in Commander games; this game is Free-for-all."
    )


def test_lf1_a_player_who_lost_takes_no_more_changes(controller: Controller) -> None:
    start(controller)
    controller.execute(Concede(seat=CAROL))
    with pytest.raises(IllegalCommand) as error:
        controller.execute(ChangeLife(seat=CAROL, delta=-3))
    assert (
        str(error.value)
        == "Carol has already lost (conceded); undo that first if it was a mistake."
    )


def test_lf1_last_player_standing_wins_and_the_game_refuses_more(controller: Controller) -> None:
    start(controller)
    controller.execute(Concede(seat=CAROL))
    controller.execute(Lose(seat=BOB, source=ALICE))
    result = GAME.outcome(state(controller))
    assert result is not None and result.winner == ALICE
    with pytest.raises(IllegalCommand) as error:
        controller.execute(Advance())
    assert str(error.value) == (
        "The game is over: Alice won (last player standing). Undo to change that, or start a new game with 'new'."
    )


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (ChangeLife(seat=ALICE, delta=0), "Nothing to change: the amount is 0."),
        (
            ChangeLife(seat=ALICE, delta=-1000),
            "-1000 is out of range: change life by at most 999 at a time.",
        ),
        (SetLife(seat=ALICE, life=40), "Alice already has 40 life."),
        (SetLife(seat=ALICE, life=10000), "Life can be set from -9999 to 9999; 10000 given."),
        (ChangePoison(seat=ALICE, delta=-1), "Alice has 0 poison counters; 1 cannot be removed."),
        (
            DealCommanderDamage(seat=ALICE, source=BOB, amount=0),
            "Commander damage is from 1 to 999 at a time; 0 given.",
        ),
        (ChangeLife(seat=7, delta=-1), "There is no seat 7: this table has seats 0 to 2."),
        (
            ChangeLife(seat=ALICE, delta=-1, source=9),
            "There is no seat 9: this table has seats 0 to 2.",
        ),
        (
            NameCommanders(seat=BOB, commanders=("A", "B", "C")),
            "A player has one or two commanders (partners); 3 given.",
        ),
    ],
)
def test_lf1_out_of_range_numbers_are_refused_and_change_nothing(
    controller: Controller, command: object, message: str
) -> None:
    start(controller)
    before = state(controller)
    head = controller.journal.game(controller.game or 0).head
    with pytest.raises(IllegalCommand) as error:
        controller.execute(command)  # type: ignore[arg-type]
    assert str(error.value) == message
    assert state(controller) == before
    assert controller.journal.game(controller.game or 0).head == head


# --- LF-2 ------------------------------------------------------------------------------------


def test_lf2_every_change_records_its_source_and_who_dealt_what_is_queryable(
    controller: Controller,
) -> None:
    start(controller)
    controller.execute(ChangeLife(seat=BOB, delta=-5, source=ALICE))
    controller.execute(ChangeLife(seat=BOB, delta=-2, source=ALICE))
    controller.execute(ChangeLife(seat=BOB, delta=3, source=BOB))
    controller.execute(ChangeLife(seat=CAROL, delta=-1))
    controller.execute(DealCommanderDamage(seat=CAROL, source=BOB, amount=4))
    controller.execute(ChangePoison(seat=ALICE, delta=2, source=CAROL))
    table = [
        (e.source, e.target, e.life_lost, e.life_gained, e.poison) for e in dealt(state(controller))
    ]
    assert table == [
        (None, CAROL, 1, 0, 0),
        (ALICE, BOB, 7, 0, 0),
        (BOB, BOB, 0, 3, 0),
        (BOB, CAROL, 4, 0, 0),
        (CAROL, ALICE, 0, 0, 2),
    ]


def test_lf2_the_loss_remembers_who_was_responsible(controller: Controller) -> None:
    start(controller)
    controller.execute(ChangeLife(seat=CAROL, delta=-39, source=ALICE))
    controller.execute(ChangeLife(seat=CAROL, delta=-1, source=BOB))
    lost = state(controller).player(CAROL).lost
    assert lost is not None and lost.source == BOB


# --- LF-3 ------------------------------------------------------------------------------------


def test_lf3_concede_at_any_time_even_out_of_turn(controller: Controller) -> None:
    start(controller)
    assert texts(controller, Concede(seat=CAROL)) == ["Carol has conceded."]
    lost = state(controller).player(CAROL).lost
    assert lost is not None and lost.reason is LossReason.CONCEDED


# --- LF-4 ------------------------------------------------------------------------------------


def test_lf4_undo_restores_life_and_the_loss(controller: Controller) -> None:
    start(controller)
    before = state(controller)
    controller.execute(DealCommanderDamage(seat=ALICE, source=BOB, amount=21))
    result = controller.undo()
    assert [str(m) for m in result.messages] == [
        "Undone: Alice took 21 commander damage from Bob's commander (21 of 21). "
        "Alice: 40 → 19 life (from Bob). Alice has lost: 21 combat damage from one commander."
    ]
    assert state(controller) == before
    controller.redo()
    assert state(controller).player(ALICE).lost is not None


def test_lf4_undo_button_and_nothing_to_undo(controller: Controller) -> None:
    start(controller)
    controller.execute(ChangeLife(seat=ALICE, delta=-1))
    controller.handle(ButtonPressed(Button.UNDO))
    assert state(controller).player(ALICE).life == 40
    with pytest.raises(IllegalCommand) as error:
        controller.handle(ButtonPressed(Button.UNDO))
    assert str(error.value) == "Nothing to undo: this is the start of the game."


def test_lf4_history_log_keeps_every_change_and_marks_undone_ones(controller: Controller) -> None:
    start(controller)
    controller.execute(ChangeLife(seat=ALICE, delta=-1))
    controller.execute(ChangeLife(seat=BOB, delta=-2))
    controller.undo()
    log = [(t.pos, " ".join(str(m) for m in t.messages()), t.undone) for t in controller.history()]
    assert log == [
        (0, "New game (Commander) for Alice, Bob, Carol, 40 life. Alice goes first.", False),
        (1, "Alice: 40 → 39 life.", False),
        (2, "Bob: 40 → 38 life.", True),
    ]
    controller.execute(ChangeLife(seat=CAROL, delta=-3))  # a new change drops what was undone
    assert [t.pos for t in controller.history()] == [0, 1, 2]
    assert controller.history()[-1].messages()[0].params["name"] == "Carol"
    with pytest.raises(IllegalCommand, match="Nothing to redo"):
        controller.redo()


@pytest.mark.parametrize(
    "command",
    [
        ChangeLife(seat=0, delta=-3, source=2),
        ChangePoison(seat=0, delta=1, source=2),
        DealCommanderDamage(seat=0, source=2, amount=5),
    ],
)
def test_lf2_a_player_who_has_left_deals_no_more_damage(
    controller: Controller, command: Command
) -> None:
    """LF-2 (CR 800.4a): Carol conceded, and everything she owned left with her: damage, poison
    or commander damage "from Carol" is refused with the reason, and nothing is recorded."""
    controller.execute(
        NewGame(formats=("commander",), players=("Alice", "Bob", "Carol"), first="Alice")
    )
    controller.execute(Concede(seat=2))
    before = controller.state
    with pytest.raises(IllegalCommand) as refused:
        controller.execute(command)
    assert str(refused.value) == (
        "Carol has left the game (conceded): nothing of theirs deals damage or changes "
        "life any more. Undo the loss first if it was a mistake."
    )
    assert controller.state == before


def test_lf1_partners_need_two_different_names(controller: Controller) -> None:
    """LF-1: two partners are two sources; one name given twice would make them one."""
    start(controller)
    with pytest.raises(
        IllegalCommand, match="Bob's partners need two different names; 'Tymna' is given twice."
    ):
        controller.execute(NameCommanders(seat=BOB, commanders=("Tymna", "tymna ")))
    assert state(controller).player(BOB).commanders == ()
