"""Table, players and turns: SPEC section 0 (TB-1..TB-5), through the controller and the rules."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from device.game import GAME
from device import game as rules
from device.commands import Advance, Concede, NewGame, PassTurn, ReverseTurnOrder, SkipTurns
from device.controller import Controller
from device.errors import IllegalCommand, UnknownName
from device.inputs import Button, ButtonPressed
from device.state import Step


def new(
    controller: Controller,
    *players: str,
    formats: tuple[str, ...] = ("commander",),
    first: str | None = "Alice",
) -> None:
    controller.execute(
        NewGame(formats=formats, players=players or ("Alice", "Bob", "Carol"), first=first)
    )


def turn_of(controller: Controller) -> tuple[int, str, str]:
    state = controller.state
    assert state is not None
    return state.turn, state.player(state.active).name, state.step.value


# --- TB-1 ------------------------------------------------------------------------------------


def test_tb1_two_to_ten_players_in_seat_order(controller: Controller) -> None:
    names = tuple(f"P{i}" for i in range(10))
    controller.execute(NewGame(players=names, first="P0"))
    assert controller.state is not None
    assert [(p.seat, p.name) for p in controller.state.players] == list(enumerate(names))


@pytest.mark.parametrize("count", [0, 1, 11])
def test_tb1_refuses_too_few_or_too_many_players(controller: Controller, count: int) -> None:
    with pytest.raises(IllegalCommand) as error:
        controller.execute(NewGame(players=tuple(f"P{i}" for i in range(count))))
    assert str(error.value) == f"A table has 2 to 10 players (TB-1); {count} given."
    assert controller.state is None


def test_tb1_names_must_differ(controller: Controller) -> None:
    with pytest.raises(IllegalCommand) as error:
        controller.execute(NewGame(players=("Ola", "ola")))
    assert str(error.value) == "Two players are called 'ola': give each player a different name."


def test_tb1_names_in_any_script(controller: Controller) -> None:
    controller.execute(NewGame(players=("Алиса", "ボブ", "Łukasz"), first="łukasz"))
    assert turn_of(controller) == (1, "Łukasz", "upkeep")


# --- TB-2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("formats", "life"),
    [((), 20), (("ffa",), 20), (("duel",), 20), (("commander",), 40), (("EDH",), 40)],
)
def test_tb2_starting_life_follows_the_base_format(
    controller: Controller, formats: tuple[str, ...], life: int
) -> None:
    controller.execute(NewGame(formats=formats, players=("A", "B")))
    assert controller.state is not None
    assert [p.life for p in controller.state.players] == [life, life]


def test_tb2_starting_life_is_configurable(controller: Controller) -> None:
    controller.execute(NewGame(formats=("commander",), players=("A", "B"), starting_life=30))
    assert controller.state is not None and controller.state.players[0].life == 30


def test_tb2_unknown_format_is_refused_with_the_known_ones(controller: Controller) -> None:
    with pytest.raises(UnknownName) as error:
        controller.execute(NewGame(formats=("comander",), players=("A", "B")))
    known = ", ".join(sorted(f.name for f in GAME.formats.all()))
    assert (
        str(error.value)
        == f"There is no format 'comander'. Known formats: {known}. Did you mean 'commander'?"
    )


def test_tb2_one_base_format_only(controller: Controller) -> None:
    with pytest.raises(IllegalCommand) as error:
        controller.execute(NewGame(formats=("commander", "duel"), players=("A", "B")))
    assert (
        str(error.value)
        == "Choose at most one base format: Commander and Two-player game are all base formats."
    )


def test_tb2_duel_is_for_two(controller: Controller) -> None:
    with pytest.raises(IllegalCommand) as error:
        controller.execute(NewGame(formats=("duel",), players=("A", "B", "C")))
    assert str(error.value) == "Two-player game is for 2 players; this table has 3."


def test_tb2_unknown_table_option_is_refused(controller: Controller) -> None:
    with pytest.raises(IllegalCommand) as error:
        controller.execute(NewGame(players=("A", "B"), options={"grand_melee": "on"}))
    assert (
        str(error.value)
        == "There is no table option 'grand_melee' for Free-for-all. Options here: seats_facing, turn_timer."
    )


# --- TB-3 ------------------------------------------------------------------------------------


def test_tb3_next_goes_upkeep_then_main_then_next_players_upkeep(controller: Controller) -> None:
    new(controller)
    assert turn_of(controller) == (1, "Alice", "upkeep")
    controller.execute(Advance())
    assert turn_of(controller) == (1, "Alice", "main")
    controller.execute(Advance())
    assert turn_of(controller) == (2, "Bob", "upkeep")


def test_tb3_next_button_advances_through_the_controller(controller: Controller) -> None:
    new(controller)
    result = controller.handle(ButtonPressed(Button.NEXT))
    assert result is not None and [str(m) for m in result.messages] == ["Alice: main phase."]
    result = controller.handle(ButtonPressed(Button.NEXT))
    assert result is not None and [str(m) for m in result.messages] == ["Turn 2: Bob's upkeep."]


def test_tb3_pass_skips_players_who_left(controller: Controller) -> None:
    new(controller, "Alice", "Bob", "Carol", "Dan")
    controller.execute(Concede(seat=1))
    controller.execute(PassTurn())
    assert turn_of(controller) == (2, "Carol", "upkeep")


def test_tb3_skipped_player_is_passed_over_once(controller: Controller) -> None:
    new(controller)
    controller.execute(SkipTurns(seat=1))
    result = controller.execute(PassTurn())
    assert [str(m) for m in result.messages] == ["Bob skips this turn.", "Turn 2: Carol's upkeep."]
    controller.execute(PassTurn())
    controller.execute(PassTurn())
    assert turn_of(controller) == (4, "Bob", "upkeep")


def test_tb3_only_skipped_players_left_still_ends(controller: Controller) -> None:
    new(controller, "Alice", "Bob")
    controller.execute(SkipTurns(seat=1, turns=2))
    result = controller.execute(PassTurn())
    assert [str(m) for m in result.messages] == ["Bob skips this turn.", "Turn 2: Alice's upkeep."]


def test_tb3_active_player_leaving_keeps_their_turn_until_next(controller: Controller) -> None:
    new(controller)
    controller.execute(Concede(seat=0))
    assert turn_of(controller) == (1, "Alice", "upkeep")
    controller.execute(Advance())
    controller.execute(Advance())
    assert turn_of(controller) == (2, "Bob", "upkeep")


# --- TB-4 ------------------------------------------------------------------------------------


def test_tb4_reversed_turn_order(controller: Controller) -> None:
    new(controller, "Alice", "Bob", "Carol", "Dan")
    result = controller.execute(ReverseTurnOrder())
    assert [str(m) for m in result.messages] == [
        "Turn order reversed: play now passes counter-clockwise."
    ]
    controller.execute(PassTurn())
    assert turn_of(controller) == (2, "Dan", "upkeep")
    controller.execute(ReverseTurnOrder())
    controller.execute(PassTurn())
    assert turn_of(controller) == (3, "Alice", "upkeep")


# --- TB-5 ------------------------------------------------------------------------------------


def test_tb5_first_player_set_by_hand(controller: Controller) -> None:
    result = controller.execute(NewGame(players=("Alice", "Bob", "Carol"), first="car"))
    assert turn_of(controller) == (1, "Carol", "upkeep")
    assert (
        str(result.messages[0])
        == "New game (Free-for-all) for Alice, Bob, Carol, 20 life. Carol goes first."
    )


def test_tb5_first_player_must_exist(controller: Controller) -> None:
    with pytest.raises(UnknownName) as error:
        controller.execute(NewGame(players=("Alice", "Bob"), first="Zed"))
    assert str(error.value) == "No player called 'Zed'. Players: Alice, Bob."


def test_tb5_random_first_player_is_fair_and_kept_in_the_event() -> None:
    rng = random.Random(2024)
    counts: Counter[int] = Counter()
    for _ in range(6000):
        (event,) = rules.decide(None, NewGame(players=("A", "B", "C", "D")), rng)
        state = rules.fold([event])
        counts[state.active] += 1
        assert event.starting_player_random  # type: ignore[attr-defined]
    # chi-square with 3 degrees of freedom, 1% critical value 11.34
    chi2 = sum((n - 1500) ** 2 / 1500 for n in counts.values())
    assert len(counts) == 4 and chi2 < 11.34


def test_tb5_production_rng_is_system_random(controller: Controller, journal_path: object) -> None:
    from device.controller import Controller as C

    plain = C(controller.journal)
    assert isinstance(plain.rng, random.SystemRandom)


def test_step_enum_values_are_the_documented_ones() -> None:
    assert [s.value for s in Step] == ["upkeep", "main"]


@pytest.mark.parametrize(
    ("word", "meant"),
    [
        ("comander", "commander"),
        ("COMMANDR", "commander"),
        ("dule", "duel"),
        ("plnechase", "planechase"),
        ("necromancr", "necromancer"),
        ("free-for-al", "free-for-all"),
        ("contraptons", "contraptions"),
        ("commander", None),
        ("edh", None),
        ("Ed", None),
        ("Duke", None),
        ("Del", None),
        ("Alice", None),
        ("Dan", None),
        ("Mandy", None),
        ("Ruel", None),
    ],
)
def test_tb2_a_slip_of_a_format_name_is_told_from_a_name(word: str, meant: str | None) -> None:
    from device.rules.registry import close_format

    assert close_format(word) == meant


@pytest.mark.parametrize(
    "name", sorted({f.name for f in GAME.formats.all()} - {"wizards_duel", "two_headed_giant"})
)
def test_tb2_the_start_message_names_each_format_once(controller: Controller, name: str) -> None:
    """A format whose title says "game" itself is not a "Two-player game game"."""
    from device.formats import title
    from device.rules.registry import find_format

    fmt = find_format(name)
    base = () if fmt.kind == "base" else ("ffa",)
    players = (
        ("A", "B", "C") if fmt.max_players > 2 else ("A", "B")
    )  # a pod needs three, a duel two
    result = controller.execute(NewGame(formats=(*base, name), players=players, first="A"))
    formats = " + ".join(str(title(find_format(n))) for n in (*base, name))
    life = controller.state.starting_life if controller.state is not None else 0
    assert (
        str(result.messages[0])
        == f"New game ({formats}) for {', '.join(players)}, {life} life. A goes first."
    )


def test_tb2_the_two_player_game_starts_in_plain_words(controller: Controller) -> None:
    result = controller.execute(NewGame(formats=("duel",), players=("Ola", "Ela")))
    assert (
        str(result.messages[0])
        == "New game (Two-player game) for Ola, Ela, 20 life. The gadget drew Ela to go first."
    )
