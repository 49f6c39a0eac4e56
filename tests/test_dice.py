"""Dice and coin in any game (``device.rules.dice``): a d6, a d20, NdM, a coin and a random player
still in the game, each a journaled change with its result in its event, undone like any change;
and the game's own draw of its starting player (TB-5) kept as its first throw."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.commands import Command, Concede, NewGame
from device.controller import Controller
from device.errors import IllegalCommand
from device.journal import Journal
from device.rules.dice import (
    CoinFlipped,
    DiceRolled,
    FlipCoin,
    PickPlayer,
    PlayerPicked,
    RollDice,
    describe_throw,
)
from device.game import GAME
from device.state_dice import KEPT, ThrowKind
from device.state_dice import DiceState
from helpers import refused, state

PLAYERS = ("Ala", "Ola", "Ewa")


def started(
    controller: Controller,
    *formats: str,
    players: tuple[str, ...] = PLAYERS,
    first: str | None = "Ala",
) -> None:
    controller.execute(NewGame(formats=formats, players=players, first=first))


def said(controller: Controller, command: Command) -> str:
    return " ".join(str(m) for m in controller.execute(command).messages)


# --- the results --------------------------------------------------------------------------------


def test_a_d20_is_said_with_who_rolled_it(controller: Controller) -> None:
    started(controller)
    result = controller.execute(RollDice(sides=20, seat=0))
    [event] = result.events
    assert isinstance(event, DiceRolled) and event.sides == 20 and len(event.faces) == 1
    assert [str(m) for m in result.messages] == [f"Ala rolled a d20: {event.faces[0]}."]
    last = state(controller).part(DiceState).last
    assert (
        last is not None
        and last.kind is ThrowKind.DICE
        and last.faces == event.faces
        and last.seat == 0
    )


def test_several_dice_are_said_with_their_sum(controller: Controller) -> None:
    started(controller)
    result = controller.execute(RollDice(count=3, sides=6))
    [event] = result.events
    assert isinstance(event, DiceRolled)
    faces = " + ".join(str(f) for f in event.faces)
    assert [str(m) for m in result.messages] == [f"3d6: {faces} = {sum(event.faces)}."]


def test_a_coin_says_its_side(controller: Controller) -> None:
    started(controller)
    sides = set()
    for _ in range(20):
        result = controller.execute(FlipCoin())
        [event] = result.events
        assert isinstance(event, CoinFlipped)
        assert [str(m) for m in result.messages] == [
            "Coin: heads." if event.heads else "Coin: tails."
        ]
        sides.add(event.heads)
    assert sides == {True, False}
    assert said(controller, FlipCoin(seat=1)) in (
        "Ola flipped a coin: heads.",
        "Ola flipped a coin: tails.",
    )


def test_a_random_player_is_one_still_in_the_game(controller: Controller) -> None:
    started(controller, players=("Ala", "Ola", "Ewa", "Iza"))
    controller.execute(Concede(seat=1))
    picked = set()
    for _ in range(40):
        result = controller.execute(PickPlayer())
        [event] = result.events
        assert isinstance(event, PlayerPicked)
        assert [str(m) for m in result.messages] == [
            f"Random player: {state(controller).player(event.seat).name}."
        ]
        picked.add(event.seat)
    assert picked == {0, 2, 3}


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (RollDice(count=0), "Roll 1 to 10 dice at a time; 0 asked for."),
        (RollDice(count=11), "Roll 1 to 10 dice at a time; 11 asked for."),
        (
            RollDice(sides=1),
            "A die has 2 to 100 sides (d4, d6, d8, d10, d12, d20, d100); 1 asked for.",
        ),
        (
            RollDice(sides=101),
            "A die has 2 to 100 sides (d4, d6, d8, d10, d12, d20, d100); 101 asked for.",
        ),
        (RollDice(seat=5), "There is no seat 5: this table has seats 0 to 2."),
        (FlipCoin(seat=-1), "There is no seat -1: this table has seats 0 to 2."),
    ],
)
def test_impossible_throws_are_refused_with_the_reason(
    controller: Controller, command: Command, reason: str
) -> None:
    started(controller)
    assert refused(controller, command) == reason


@pytest.mark.parametrize("command", [RollDice(), FlipCoin(), PickPlayer()])
def test_with_no_game_running_a_throw_is_refused_clearly(
    controller: Controller, command: Command
) -> None:
    assert refused(controller, command) == (
        "No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'."
    )


def test_a_game_that_is_over_throws_nothing(controller: Controller) -> None:
    started(controller, players=("Ala", "Ola"))
    controller.execute(Concede(seat=1))
    assert refused(controller, RollDice(sides=20)).startswith(
        "The game is over: Ala won (last player standing)."
    )


GAMES = [
    ("ffa",),
    ("duel",),
    ("commander",),
    ("commander", "planechase"),
    ("ffa", "contraptions"),
    ("necromancer",),
    ("conspiracy",),
    ("ggd",),
    ("wizards_duel",),
    ("commander", "two_headed_giant"),
]


@pytest.mark.parametrize("formats", GAMES, ids="+".join)
def test_every_format_has_the_dice(controller: Controller, formats: tuple[str, ...]) -> None:
    """Dice need no format: a life game, Planechase, Contraptions, a Conspiracy pod, a Wizard's
    Duel and Two-Headed Giant throw them alike, in any step."""
    players = (
        ("Ala", "Ola", "Ewa", "Iza")
        if "two_headed_giant" in formats or formats == ("ggd",)
        else (("Ala", "Ola") if formats == ("duel",) else PLAYERS)
    )
    started(controller, *formats, players=players)
    for command in (RollDice(sides=20), RollDice(count=2), FlipCoin(seat=1), PickPlayer()):
        controller.execute(command)
    dice = state(controller).dice
    assert dice is not None and dice.count == 4
    assert [t.kind for t in dice.throws] == [
        ThrowKind.DICE,
        ThrowKind.DICE,
        ThrowKind.COIN,
        ThrowKind.PLAYER,
    ]


# --- the journal: replay and undo ----------------------------------------------------------------


def test_lf4_undo_takes_a_throw_back_and_says_what_it_took(controller: Controller) -> None:
    started(controller)
    controller.execute(RollDice(sides=20))
    before = controller.state
    picked = said(controller, PickPlayer())
    result = controller.undo()
    assert [str(m) for m in result.messages] == [f"Undone: {picked}"]
    assert controller.state == before
    redone = controller.redo()
    assert [str(m) for m in redone.messages] == [f"Redone: {picked}"]


def test_a_throws_event_holds_its_result_for_the_journal() -> None:
    for event in (
        DiceRolled(sides=20, faces=(17,), seat=0),
        CoinFlipped(heads=True),
        PlayerPicked(seat=2),
    ):
        assert GAME.parse_event(event.model_dump_json()) == event


def test_the_state_keeps_the_last_throws_numbered_by_their_place_in_the_game(
    controller: Controller,
) -> None:
    started(controller)
    for _ in range(KEPT + 5):
        controller.execute(RollDice())
    dice = state(controller).dice
    assert dice is not None and dice.count == KEPT + 5
    assert [t.number for t in dice.throws] == list(range(6, KEPT + 6))


# --- TB-5: the draw of the starting player --------------------------------------------------------


def test_tb5_a_drawn_starting_player_is_the_games_first_throw(controller: Controller) -> None:
    started(controller, first=None)
    game = state(controller)
    assert game.dice is not None
    [draw] = game.dice.throws
    assert (
        draw.kind is ThrowKind.PLAYER
        and draw.first
        and draw.picked == game.starting_player == game.active
    )
    assert str(describe_throw(game, draw)) == f"Drawn to go first: {game.player(game.active).name}."


def test_tb5_a_starting_player_chosen_by_hand_is_no_throw(controller: Controller) -> None:
    started(controller, first="Ola")
    assert state(controller).dice is None


def test_tb6_a_drawn_first_team_is_named_as_a_team(controller: Controller) -> None:
    started(controller, "ffa", "two_headed_giant", players=("Ala", "Ola", "Ewa", "Iza"), first=None)
    game = state(controller)
    assert game.dice is not None and game.dice.last is not None
    team = {0: "Ala & Ola", 2: "Ewa & Iza"}[game.starting_player]
    assert str(describe_throw(game, game.dice.last)) == f"Drawn to go first: team {team}."


# --- invariants -----------------------------------------------------------------------------------

THROWS: st.SearchStrategy[Command | str] = st.one_of(
    st.builds(
        RollDice,
        count=st.integers(1, 10),
        sides=st.integers(2, 100),
        seat=st.none() | st.integers(0, 3),
    ),
    st.builds(FlipCoin, seat=st.none() | st.integers(0, 3)),
    st.just(PickPlayer()),
    st.builds(Concede, seat=st.integers(0, 3)),
    st.just("undo"),
    st.just("redo"),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(THROWS, max_size=30),
    seed=st.integers(0, 2**32),
    first=st.sampled_from([None, "A"]),
)
def test_results_stay_in_range_undo_restores_and_replay_equals_live(
    steps: list[Command | str], seed: int, first: str | None
) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        Journal(Path(folder) / "j.sqlite3", snapshot_every=4) as journal,
    ):
        controller = Controller(journal, rng=random.Random(seed))
        controller.execute(NewGame(players=("A", "B", "C", "D"), first=first))
        states = [controller.state]  # the state after each change still done, for undo to return to
        for step in steps:
            before = controller.state
            try:
                if step == "undo":
                    controller.undo()
                    states.pop()
                    assert controller.state == states[-1]
                    continue
                if step == "redo":
                    controller.redo()
                    states.append(controller.state)
                    continue
                assert isinstance(step, Command)
                result = controller.execute(step)
            except IllegalCommand:
                assert controller.state == before
                continue
            states.append(controller.state)
            for event in result.events:
                _in_range(event, before, step)
        game = controller.game
        assert game is not None
        assert journal.replay(game) == controller.state


def _in_range(event: object, before: object, step: Command) -> None:
    from device.state import GameState

    assert isinstance(before, GameState)
    if isinstance(event, DiceRolled):
        assert isinstance(step, RollDice)
        assert len(event.faces) == step.count and all(1 <= f <= step.sides for f in event.faces)
    elif isinstance(event, PlayerPicked):
        assert before.player(event.seat).in_game
