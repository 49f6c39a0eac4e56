"""The counters Commander tables track (``device.rules.counters``): at most one monarch and one
player with the initiative, day or night once it is either, energy, experience and rad counters
never below none, the city's blessing kept for the game; and the monarchy and the initiative
passing on when their holder leaves the game (the active player, else the next in turn order),
in a free-for-all, Two-Headed Giant, Necromancer and a Conspiracy pod."""

from __future__ import annotations

import pytest

from device.commands import Command, Concede, Lose, NewGame, PassTurn, ReverseTurnOrder, SetLife
from device.controller import Controller
from device.rules.conspiracy.commands import LeaveGroup, PassGroupTurn
from device.rules.counters import (
    BecomeMonarch,
    ChangeCounter,
    CountersReset,
    GainBlessing,
    InitiativeChanged,
    MakeDayNight,
    MonarchChanged,
    PlayerCountersCleared,
    TakeInitiative,
    game_of,
    marks,
)
from device.game import GAME
from device.state_counters import Counter, DayNight
from device.rules.conspiracy.state import ConspiracyState
from device.state_counters import CountersState
from helpers import refused, state

PLAYERS = ("Ann", "Bob", "Cid", "Dee")


def started(
    controller: Controller, *formats: str, players: tuple[str, ...] = PLAYERS, first: str = "Ann"
) -> None:
    controller.execute(NewGame(formats=formats or ("commander",), players=players, first=first))


def said(controller: Controller, command: Command) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]


def monarch(controller: Controller, seat: int = 0) -> int | None:
    return marks(state(controller), seat).monarch


def initiative(controller: Controller, seat: int = 0) -> int | None:
    return marks(state(controller), seat).initiative


# --- one monarch, one initiative --------------------------------------------------------------------


def test_there_is_no_monarch_until_someone_becomes_it_then_only_one(controller: Controller) -> None:
    started(controller)
    assert state(controller).counters is None and monarch(controller) is None
    assert said(controller, BecomeMonarch(seat=1)) == ["Bob becomes the monarch."]
    assert said(controller, BecomeMonarch(seat=2)) == ["Cid becomes the monarch."]
    assert monarch(controller) == 2
    assert refused(controller, BecomeMonarch(seat=2)) == "Cid is already the monarch."


def test_the_monarch_taken_back_by_hand_leaves_nobody(controller: Controller) -> None:
    started(controller)
    assert refused(controller, BecomeMonarch(seat=None)) == "Nobody is the monarch."
    controller.execute(BecomeMonarch(seat=3))
    assert said(controller, BecomeMonarch(seat=None)) == ["Nobody is the monarch now."]
    assert monarch(controller) is None
    assert (
        state(controller).counters is not None and state(controller).part(CountersState).games == ()
    )


def test_taking_the_initiative_again_ventures_again(controller: Controller) -> None:
    started(controller)
    assert said(controller, TakeInitiative(seat=0)) == [
        "Ann takes the initiative: venture into Undercity."
    ]
    assert said(controller, TakeInitiative(seat=0)) == [
        "Ann takes the initiative: venture into Undercity."
    ]
    assert said(controller, TakeInitiative(seat=2)) == [
        "Cid takes the initiative: venture into Undercity."
    ]
    assert initiative(controller) == 2
    assert said(controller, TakeInitiative(seat=None)) == ["Nobody has the initiative now."]
    assert refused(controller, TakeInitiative(seat=None)) == "Nobody has the initiative."


# --- day and night ------------------------------------------------------------------------------------


def test_it_is_neither_day_nor_night_until_it_becomes_one_then_always_one(
    controller: Controller,
) -> None:
    started(controller)
    assert marks(state(controller), 0).day_night is None
    assert said(controller, MakeDayNight(day_night=DayNight.NIGHT)) == ["It becomes night."]
    assert refused(controller, MakeDayNight(day_night=DayNight.NIGHT)) == "It is already night."
    assert said(controller, MakeDayNight(day_night=DayNight.DAY)) == ["It becomes day."]
    assert refused(controller, MakeDayNight(day_night=DayNight.DAY)) == "It is already day."
    assert marks(state(controller), 3).day_night is DayNight.DAY


# --- counters a player has ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counter", "word"),
    [(Counter.ENERGY, "energy"), (Counter.EXPERIENCE, "experience"), (Counter.RAD, "rad")],
)
def test_a_players_counters_go_up_and_down_never_below_none(
    controller: Controller, counter: Counter, word: str
) -> None:
    started(controller)
    assert said(controller, ChangeCounter(seat=1, counter=counter, delta=3)) == [
        f"Bob: 0 → 3 {word}."
    ]
    assert said(controller, ChangeCounter(seat=1, counter=counter, delta=-2)) == [
        f"Bob: 3 → 1 {word}."
    ]
    assert refused(controller, ChangeCounter(seat=1, counter=counter, delta=-2)) == (
        f"Bob has 1 {word} counter; 2 cannot be removed."
    )
    controller.execute(ChangeCounter(seat=1, counter=counter, delta=1))
    assert refused(controller, ChangeCounter(seat=1, counter=counter, delta=-5)) == (
        f"Bob has 2 {word} counters; 5 cannot be removed."
    )
    assert (
        refused(controller, ChangeCounter(seat=1, counter=counter, delta=0))
        == "Nothing to change: the amount is 0."
    )
    assert refused(controller, ChangeCounter(seat=1, counter=counter, delta=1000)) == (
        "1000 is out of range: change counters by at most 999 at a time."
    )
    assert state(controller).part(CountersState).player(1).count(counter) == 2


def test_the_citys_blessing_is_gained_once_and_kept(controller: Controller) -> None:
    started(controller)
    assert said(controller, GainBlessing(seat=3)) == ["Dee gets the city's blessing."]
    assert refused(controller, GainBlessing(seat=3)) == (
        "Dee already has the city's blessing: once gained, it is kept for the rest of the game."
    )
    controller.execute(PassTurn())
    assert state(controller).part(CountersState).player(3).blessing


def test_a_player_who_left_gets_nothing_and_a_duel_of_wizards_counts_none(
    controller: Controller,
) -> None:
    started(controller)
    controller.execute(Concede(seat=1))
    reason = "Bob has already lost (conceded); undo that first if it was a mistake."
    assert refused(controller, BecomeMonarch(seat=1)) == reason
    assert refused(controller, TakeInitiative(seat=1)) == reason
    assert refused(controller, ChangeCounter(seat=1, counter=Counter.ENERGY, delta=1)) == reason
    assert refused(controller, GainBlessing(seat=1)) == reason
    assert (
        refused(controller, BecomeMonarch(seat=7))
        == "There is no seat 7: this table has seats 0 to 3."
    )
    controller.execute(NewGame(formats=("wizards_duel",), players=PLAYERS[:2], first="Ann"))
    tracked = "Wizard's Duel does not count life; 'help' lists its own commands."
    assert refused(controller, BecomeMonarch(seat=0)) == tracked
    assert refused(controller, MakeDayNight(day_night=DayNight.DAY)) == tracked
    assert refused(controller, ChangeCounter(seat=0, counter=Counter.RAD, delta=1)) == tracked


def test_every_change_is_a_journaled_event_that_reads_back(controller: Controller) -> None:
    started(controller)
    for command in (
        BecomeMonarch(seat=1),
        TakeInitiative(seat=2),
        MakeDayNight(day_night=DayNight.DAY),
        ChangeCounter(seat=0, counter=Counter.RAD, delta=2),
        GainBlessing(seat=3),
    ):
        for event in controller.execute(command).events:
            assert GAME.parse_event(event.model_dump_json()) == event
    assert controller.undo().messages[0].key == "controller.undid"
    assert not state(controller).part(CountersState).player(3).blessing


# --- leaving the game: the active player takes it, else the next in turn order -------------------------


def test_the_monarch_leaving_on_another_players_turn_crowns_the_active_player(
    controller: Controller,
) -> None:
    started(controller)
    controller.execute(BecomeMonarch(seat=2))
    controller.execute(TakeInitiative(seat=2))
    assert said(controller, Concede(seat=2)) == [
        "Cid has conceded.",
        "Cid left the game, so Ann becomes the monarch.",
        "Cid left the game, so Ann takes the initiative: venture into Undercity.",
    ]
    assert monarch(controller) == 0 and initiative(controller) == 0


def test_the_active_monarch_leaving_crowns_the_next_player_in_turn_order(
    controller: Controller,
) -> None:
    started(controller)
    controller.execute(BecomeMonarch(seat=0))
    assert said(controller, SetLife(seat=0, life=0, source=3)) == [
        "Ann: 40 → 0 life (from Dee).",
        "Ann has lost: 0 or less life.",
        "Ann left the game, so Bob becomes the monarch.",
    ]
    assert monarch(controller) == 1


def test_the_next_player_follows_the_turn_order_as_it_is_now(controller: Controller) -> None:
    started(controller)
    controller.execute(Concede(seat=3))
    controller.execute(ReverseTurnOrder())
    controller.execute(TakeInitiative(seat=0))
    controller.execute(Concede(seat=0))  # counter-clockwise from Ann: Dee has left, so Cid
    assert initiative(controller) == 2


def test_a_monarch_who_lost_with_the_game_over_passes_nothing_on(controller: Controller) -> None:
    started(controller, players=("Ann", "Bob"))
    controller.execute(BecomeMonarch(seat=1))
    result = controller.execute(Concede(seat=1))
    assert [type(e).__name__ for e in result.events] == ["PlayerLost"]


def test_tb6_a_team_leaves_together_and_the_active_teams_primary_player_is_crowned(
    controller: Controller,
) -> None:
    started(
        controller,
        "commander",
        "two_headed_giant",
        players=("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"),
    )
    controller.execute(BecomeMonarch(seat=3))
    assert said(controller, Concede(seat=3)) == [
        "Dee has conceded.",
        "Dee left the game, so Ann becomes the monarch.",
        "Cid has lost with their team.",
    ]
    controller.execute(TakeInitiative(seat=1))
    result = controller.execute(
        Concede(seat=1)
    )  # the active team leaves; the next team (Cid & Dee) has left: Eve
    assert initiative(controller) == 4
    assert [e for e in result.events if isinstance(e, InitiativeChanged)] == [
        InitiativeChanged(seat=4, game="", left=1)
    ]


def test_nc3_a_minion_apart_from_the_game_is_passed_over_and_comes_back_without_counters(
    controller: Controller,
) -> None:
    started(controller, "necromancer")
    controller.execute(ChangeCounter(seat=1, counter=Counter.ENERGY, delta=4))
    controller.execute(GainBlessing(seat=1))
    result = controller.execute(SetLife(seat=1, life=0, source=0))
    assert (
        "Bob comes back without energy, experience or rad counters and without the city's blessing."
        in [str(m) for m in result.messages]
    )
    assert any(isinstance(e, PlayerCountersCleared) for e in result.events)
    assert not state(controller).part(CountersState).player(1).any
    controller.execute(BecomeMonarch(seat=0))
    controller.execute(
        Lose(seat=0, source=3)
    )  # Ann, the active monarch, loses: Bob is on solo turns, so Cid
    assert monarch(controller) == 2


def test_cj_each_group_of_a_pod_has_its_own_monarch_and_day_and_a_new_round_has_none(
    controller: Controller,
) -> None:
    controller.execute(
        NewGame(
            formats=("conspiracy",),
            players=("A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"),
            first="A1",
        )
    )
    one, two = state(controller).part(ConspiracyState).groups
    controller.execute(BecomeMonarch(seat=one.order[0]))
    controller.execute(BecomeMonarch(seat=two.order[1]))
    assert marks(state(controller), one.order[2]).monarch == one.order[0]
    assert marks(state(controller), two.order[2]).monarch == two.order[1]
    assert refused(controller, MakeDayNight(day_night=DayNight.DAY)) == (
        "Each group of the pod plays its own game: name a player of the group meant."
    )
    assert said(controller, MakeDayNight(day_night=DayNight.DAY, group_of=two.order[0])) == [
        "Group 2: it becomes day."
    ]
    assert marks(state(controller), one.order[0]).day_night is None
    names = " and ".join(state(controller).player(s).name for s in (one.order[0], two.order[1]))
    assert refused(controller, BecomeMonarch(seat=None)) == (
        f"Each group has its own monarch ({names}): name a player of the group that no longer has one."
    )
    # The group's turn is the group's own: its monarch leaving crowns whose turn the table said it is.
    controller.execute(PassGroupTurn(seat=one.order[2]))
    controller.execute(LeaveGroup(seats=(one.order[0],)))
    assert monarch(controller, one.order[1]) == one.order[2]
    # No turn said in group 2: from its monarch on in the group's order.
    controller.execute(LeaveGroup(seats=(two.order[1],)))
    assert monarch(controller, two.order[0]) == two.order[2]
    assert game_of(state(controller), two.order[0]) == "2"
    controller.execute(LeaveGroup(seats=(one.order[3],)))
    result = controller.execute(LeaveGroup(seats=(two.order[3],)))  # round 1 over: new games
    assert any(isinstance(e, CountersReset) for e in result.events)
    assert (
        "A new round is a new game: no monarch, no initiative, neither day nor night, no counters."
        in [str(m) for m in result.messages]
    )
    assert state(controller).part(CountersState).games == ()


def test_the_monarchy_passing_on_is_part_of_the_loss_and_undone_with_it(
    controller: Controller,
) -> None:
    started(controller)
    controller.execute(BecomeMonarch(seat=1))
    result = controller.execute(Concede(seat=1))
    assert [type(e) for e in result.events][1:] == [MonarchChanged]
    controller.undo()
    assert monarch(controller) == 1 and state(controller).player(1).in_game
