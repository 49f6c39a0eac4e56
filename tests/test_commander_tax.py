"""Commander tax (CR 903.8): a commander cast from the command zone costs {2} more for each time
it was cast from there before; partners keep separate taxes (CR 702.124).  Through the
controller, as the console and the kiosk drive it."""

from __future__ import annotations

import json

import pytest
from helpers import refused, state
from hypothesis import given, settings
from hypothesis import strategies as st

from device.commands import CastCommander, Concede, NameCommanders, NewGame
from device.controller import Controller
from device.errors import IllegalCommand
from device.events import CommanderCast
from device.game import fold, play
from device.rules.life import commander_tax
from device.state import GameState, Player

ALICE, BOB, CAROL = 0, 1, 2


def start(
    controller: Controller,
    formats: tuple[str, ...] = ("commander",),
    commanders: tuple[tuple[str, ...], ...] = (),
) -> None:
    controller.execute(
        NewGame(
            formats=formats, players=("Alice", "Bob", "Carol"), first="Alice", commanders=commanders
        )
    )


def said(controller: Controller, command: CastCommander) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]


def test_cr903_8_each_earlier_cast_adds_two(controller: Controller) -> None:
    start(controller)
    assert commander_tax(state(controller).player(BOB), 0) == 0
    assert said(controller, CastCommander(seat=BOB)) == [
        "Bob's commander was cast from the command zone: commander tax 0 → 2."
    ]
    assert said(controller, CastCommander(seat=BOB, amount=2)) == [
        "Bob's commander was cast from the command zone 2 times: commander tax 2 → 6."
    ]
    bob = state(controller).player(BOB)
    assert (bob.casts(0), commander_tax(bob, 0)) == (3, 6)
    assert commander_tax(state(controller).player(ALICE), 0) == 0


def test_cr903_8_partners_have_separate_taxes(controller: Controller) -> None:
    start(controller)
    controller.execute(
        NameCommanders(seat=BOB, commanders=("Tymna the Weaver", "Kraum, Ludevic's Opus"))
    )
    assert said(controller, CastCommander(seat=BOB, commander=1)) == [
        "Kraum, Ludevic's Opus was cast from the command zone: commander tax 0 → 2."
    ]
    controller.execute(CastCommander(seat=BOB, commander=1))
    controller.execute(CastCommander(seat=BOB, commander=0))
    bob = state(controller).player(BOB)
    assert [commander_tax(bob, i) for i in (0, 1)] == [2, 4]


def test_cr903_8_partners_must_say_which_was_cast(controller: Controller) -> None:
    start(controller)
    controller.execute(
        NameCommanders(seat=BOB, commanders=("Tymna the Weaver", "Kraum, Ludevic's Opus"))
    )
    assert refused(controller, CastCommander(seat=BOB)) == (
        "Bob has 2 commanders (Tymna the Weaver and Kraum, Ludevic's Opus): say which one was cast, "
        "e.g. 'tax Bob Tymna'."
    )
    assert refused(controller, CastCommander(seat=BOB, commander=2)) == (
        "Bob has no commander number 2; their commanders: Tymna the Weaver and Kraum, Ludevic's Opus."
    )


def test_cr903_8_a_miscounted_cast_is_taken_back_but_never_below_none(
    controller: Controller,
) -> None:
    start(controller)
    controller.execute(CastCommander(seat=BOB, amount=2))
    assert said(controller, CastCommander(seat=BOB, amount=-1)) == [
        "Bob's commander: 1 cast from the command zone taken back, commander tax 4 → 2."
    ]
    assert refused(controller, CastCommander(seat=BOB, amount=-2)) == (
        "Bob's commander has been cast from the command zone 1 time; 2 cannot be taken back."
    )
    assert (
        refused(controller, CastCommander(seat=BOB, amount=0))
        == "Nothing to change: the amount is 0."
    )
    assert refused(controller, CastCommander(seat=BOB, amount=99)) == (
        "A commander is counted as cast at most 99 times; 100 is too many."
    )


def test_cr903_8_undo_takes_a_cast_back(controller: Controller) -> None:
    start(controller)
    before = state(controller)
    controller.execute(CastCommander(seat=CAROL))
    controller.undo()
    assert state(controller) == before
    controller.redo()
    assert state(controller).player(CAROL).casts(0) == 1


@pytest.mark.parametrize(
    ("formats", "title"),
    [
        (("ffa",), "Free-for-all"),
        (("ggd",), "Group Game Draft"),
        (("wizards_duel",), "Wizard's Duel"),
    ],
)
def test_cr903_8_tax_only_in_commander_games(
    controller: Controller, formats: tuple[str, ...], title: str
) -> None:
    start(controller, formats)
    assert refused(controller, CastCommander(seat=ALICE)) == (
        f"Commander tax is counted only in Commander games; this game is {title}."
    )


@pytest.mark.parametrize(
    "formats", [("necromancer",), ("commander", "two_headed_giant"), ("commander", "planechase")]
)
def test_cr903_8_tax_in_every_commander_game(
    controller: Controller, formats: tuple[str, ...]
) -> None:
    controller.execute(
        NewGame(formats=formats, players=("Alice", "Bob", "Carol", "Dan"), first="Alice")
    )
    controller.execute(CastCommander(seat=BOB))
    assert commander_tax(state(controller).player(BOB), 0) == 2


def test_cr903_8_a_player_who_left_casts_nothing(controller: Controller) -> None:
    start(controller)
    controller.execute(Concede(seat=CAROL))
    assert refused(controller, CastCommander(seat=CAROL)) == (
        "Carol has already lost (conceded); undo that first if it was a mistake."
    )


def test_cr903_8_a_cast_partner_is_not_dropped_by_renaming(controller: Controller) -> None:
    """Naming one commander where two were named drops the partner, unless it was cast: its tax
    would vanish with it."""
    start(controller)
    controller.execute(NameCommanders(seat=BOB, commanders=("Tymna", "Kraum")))
    controller.execute(CastCommander(seat=BOB, commander=1))
    assert refused(controller, NameCommanders(seat=BOB, commanders=("Tymna",))) == (
        "Bob's commander 'Kraum' has been cast from the command zone already; take those casts back before "
        "removing it."
    )
    controller.execute(
        NameCommanders(seat=BOB, commanders=("Thrasios", "Kraum"))
    )  # renaming keeps the count
    assert state(controller).player(BOB).casts(1) == 1


def test_lf1_commanders_named_at_the_start_in_one_step_with_it(controller: Controller) -> None:
    result = controller.execute(
        NewGame(
            formats=("commander",),
            players=("Alice", "Bob", "Carol"),
            first="Alice",
            commanders=(("Atraxa, Praetors' Voice",), (), (" Tymna, ", "Kraum")),
        )
    )
    assert [str(m) for m in result.messages][1:] == [
        "Alice's commander: Atraxa, Praetors' Voice.",
        "Carol's commanders: Tymna and Kraum.",
    ]
    assert [p.commanders for p in state(controller).players] == [
        ("Atraxa, Praetors' Voice",),
        (),
        ("Tymna", "Kraum"),
    ]
    assert len(controller.history()) == 1  # part of the start, not a change of its own to undo


@pytest.mark.parametrize(
    ("formats", "commanders", "reason"),
    [
        (
            ("ffa",),
            (("Atraxa",),),
            "Commander damage is tracked only in Commander games; this game is Free-for-all.",
        ),
        (
            ("commander",),
            (("A" * 33,),),
            f"{'A' * 33!r} is too long for the screen: at most 32 characters.",
        ),
        (
            ("commander",),
            (("Tymna", "Tymna"),),
            "Alice's partners need two different names; 'Tymna' is given twice.",
        ),
        (
            ("commander",),
            ((), (), (), ("Atraxa",)),
            "Commanders are named for 4 seats, but the table has 3 players.",
        ),
    ],
)
def test_lf1_commanders_named_at_the_start_are_refused_as_at_the_console(
    controller: Controller,
    formats: tuple[str, ...],
    commanders: tuple[tuple[str, ...], ...],
    reason: str,
) -> None:
    with pytest.raises(IllegalCommand) as error:
        start(controller, formats, commanders)
    assert str(error.value) == reason
    assert controller.state is None


def test_lf1_a_commander_name_longer_than_the_screen_takes_is_refused(
    controller: Controller,
) -> None:
    start(controller)
    longest = "Asmoranomardicadaistinaculdacar!"  # 32: taken
    controller.execute(NameCommanders(seat=BOB, commanders=(longest,)))
    assert refused(controller, NameCommanders(seat=BOB, commanders=(longest + "s",))) == (
        f"{longest + 's'!r} is too long for the screen: at most 32 characters."
    )


def test_cr903_8_a_game_saved_before_the_tax_loads_with_none_cast() -> None:
    """A journal's state and events written before the field existed read with no casts."""
    player = json.loads(Player(seat=0, name="Alice", life=40).model_dump_json())
    del player["commander_casts"]
    assert Player.model_validate(player).commander_casts == ()
    assert (
        CommanderCast.model_validate_json(
            '{"type": "commander_cast", "seat": 1, "commander": 0}'
        ).amount
        == 1
    )


@settings(max_examples=40, deadline=None)
@given(
    steps=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(-3, 4)), max_size=25)
)
def test_cr903_8_the_tax_is_two_per_cast_counted_and_replays_exactly(
    steps: list[tuple[int, int, int]],
) -> None:
    """Whatever is cast and taken back, each commander's tax is {2} times its casts (never below
    none), and folding the events again gives the same state."""
    from random import Random

    from device.game import decide

    rng = Random(5)
    events = decide(
        None,
        NewGame(
            formats=("commander",),
            players=("A", "B", "C"),
            first="A",
            commanders=((), ("Tymna", "Kraum"), ()),
        ),
        rng,
    )
    current: GameState = fold(events)
    counts = {(seat, index): 0 for seat in range(3) for index in range(2)}
    for seat, index, amount in steps:
        try:
            new = decide(current, CastCommander(seat=seat, commander=index, amount=amount), rng)
        except IllegalCommand:
            continue
        events += new
        current = fold(new, current)
        counts[seat, index] += amount
    for (seat, index), count in counts.items():
        player = current.player(seat)
        assert (
            count >= 0
            and player.casts(index) == count
            and commander_tax(player, index) == 2 * count
        )
    assert fold(events) == current
    assert play(None, events)[1] == current
