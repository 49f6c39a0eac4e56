"""The rules are a value: one explicit list of parts, a game's rules built from the parts handed
in (``Ruleset``), nothing filled by an import."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

import device.rules
from device.catalog import load_catalog
from device.commands import Command, Concede, NewGame, PassTurn
from device.games import progress
from device.rules.conspiracy.events import RoundStarted
from device.rules.counters import BecomeMonarch
from device.rules.necromancer.events import LossSettled
from device.rules.planechase.commands import RollPlanarDie
from device.controller import Controller
from device.errors import IllegalCommand
from device.events import GameStarted, StepChanged
from device.journal import Journal
from device.game import GAME, PARTS
from device.rules.conspiracy import play as conspiracy
from device.rules.planechase import play as planechase
from device.rules.wizards_duel import play as wizards_duel
from device.rules import counters, life, table
from device.rules.registry import Rules, Ruleset
from device.state import GameState
from device.rules.necromancer.state import Fate
from device.text import Message


def _modules() -> list[str]:
    return [info.name for info in pkgutil.walk_packages(device.rules.__path__, "device.rules.")]


def test_every_rules_value_is_in_the_list() -> None:
    listed = {id(part) for part in PARTS}
    for name in _modules():
        value = getattr(importlib.import_module(name), "RULES", None)
        if isinstance(value, Rules) and id(value) not in listed:
            # a part kept in a module of its own is taken in by its format's value
            assert any(value.appliers.items() <= part.appliers.items() for part in PARTS), (
                f"{name}.RULES is neither in device.game.PARTS nor taken in by a part listed there"
            )


def test_the_rules_are_the_parts_together() -> None:
    assert GAME.deciders == {c: fn for part in PARTS for c, fn in part.deciders.items()}
    assert GAME.appliers == {e: fn for part in PARTS for e, fn in part.appliers.items()}
    assert len(GAME.state_checks) == sum(len(part.state_checks) for part in PARTS)


def test_building_twice_is_the_same_value() -> None:
    again = Ruleset(PARTS)
    assert again == GAME and hash(again) == hash(GAME)
    assert again.state_checks == GAME.state_checks  # not doubled: nothing is kept outside the value
    assert again.bindings.buttons == GAME.bindings.buttons
    assert again.formats.all() == GAME.formats.all()


def test_importing_the_rules_fills_no_table() -> None:
    """Naming a format outside any game's rules is an error that says so, in a fresh interpreter
    that has imported every rules module: no import made a table of formats."""
    script = (
        "import device.game, device.formats, device.rules.registry as r\n"
        "try:\n    r.find_format('planechase')\n"
        "except RuntimeError as error:\n    print(error)\n"
        "print(device.game.GAME.formats.find('planechase').title)\n"
    )
    root = Path(__file__).resolve().parent.parent
    said = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert said[0].startswith("no rules are in play")
    assert said[1] == "Planechase"


def test_a_game_from_a_subset_of_the_parts(tmp_path: Path) -> None:
    """A table that plays only the table and life: its formats are theirs, Planechase is unknown
    to it, and its journal reads its games back with its rules."""
    rules = Ruleset((table.RULES, life.RULES))
    with Journal(tmp_path / "j.sqlite") as journal:
        controller = Controller(journal, rng=Random(1), rules=rules)
        with pytest.raises(IllegalCommand) as refused:
            controller.execute(NewGame(formats=("planechase",), players=("Ann", "Bo")))
        assert str(refused.value) == (
            "There is no format 'planechase'. Known formats: commander, duel, ffa."
        )
        result = controller.execute(NewGame(formats=("duel",), players=("Ann", "Bo")))
        assert [type(e) for e in result.events] == [GameStarted]  # no dice, clock nor counters
        with pytest.raises(IllegalCommand, match="does not know how to do 'RollPlanarDie'"):
            controller.execute(RollPlanarDie())
        controller.execute(PassTurn())
        assert journal.replay(controller.game or 0) == controller.state
    assert sorted(f.name for f in rules.formats.all()) == ["commander", "duel", "ffa"]
    assert Ruleset((table.RULES, life.RULES, planechase.RULES)).formats.find("planechase")


def test_rules_without_the_table_are_refused() -> None:
    with pytest.raises(TypeError, match="says how a game begins"):
        Ruleset((life.RULES,))


def test_a_second_decider_for_one_command_is_refused() -> None:
    class Nudge(Command):
        pass

    first, second = Rules("first"), Rules("second")

    @first.decides(Nudge)
    def _one(state: GameState, command: Nudge, rng: Random) -> list[StepChanged]:
        return []

    with pytest.raises(TypeError, match="Nudge already has a decider in first"):
        first.decides(Nudge)(_one)
    second.decides(Nudge)(_one)
    with pytest.raises(TypeError, match="Nudge has a second decider in second"):
        Ruleset((table.RULES, first, second))


def test_a_part_listed_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="listed twice"):
        Ruleset((table.RULES, Rules("same"), Rules("same")))


def test_two_events_with_one_type_name_are_refused() -> None:
    from typing import Literal

    from device.events import Event

    class Twin(Event):
        type: Literal["step_changed"] = "step_changed"

    part = Rules("twins")
    part.applies(Twin)(lambda state, event: state)
    with pytest.raises(TypeError, match="event type 'step_changed' is used by StepChanged already"):
        Ruleset((*PARTS, part))


def test_the_journal_reads_every_applied_event_and_the_start() -> None:
    assert set(GAME.event_types.values()) == {GameStarted, *GAME.appliers}
    assert GAME.parse_event(b'{"type": "step_changed", "step": "main"}') == StepChanged(step="main")


def _bases_timed(rules: Ruleset) -> set[str]:
    """The base formats a game of which is offered the turn timer."""
    return {
        fmt.name
        for fmt in rules.formats.all()
        if fmt.kind == "base" and "turn_timer" in rules.formats.options_for([fmt.name])
    }


def test_tb2_the_turn_timer_leaves_out_the_formats_without_turns() -> None:
    """The turn timer is offered with every base format but those that say their players do not
    pass the turn one at a time (``Format.turns``): a game without Wizard's Duel in its rules has
    it with every format its rules know but a Conspiracy pod, and without either with all."""
    bases = {fmt.name for fmt in GAME.formats.all() if fmt.kind == "base"}
    assert _bases_timed(GAME) == bases - {"wizards_duel", "conspiracy"}
    without_duel = Ruleset(tuple(part for part in PARTS if part is not wizards_duel.RULES))
    assert "wizards_duel" not in _bases_timed(without_duel)
    assert _bases_timed(without_duel) == bases - {"wizards_duel", "conspiracy"}
    neither = Ruleset(
        tuple(part for part in PARTS if part not in (wizards_duel.RULES, conspiracy.RULES))
    )
    assert _bases_timed(neither) == {
        fmt.name for fmt in neither.formats.all() if fmt.kind == "base"
    }
    assert not GAME.formats.take_turns(["wizards_duel"])
    assert GAME.formats.take_turns(["commander", "planechase"])


# --- what the shared modules ask of the formats in play -----------------------------------------


def _started(rules: Ruleset, *formats: str, players: tuple[str, ...] = ("Ann", "Bob")) -> GameState:
    return rules.carry_out(
        None, NewGame(formats=formats, players=players, first="Ann"), Random(1)
    ).state


def test_tb3_a_saved_game_shows_the_round_its_formats_rules_count() -> None:
    """How far a saved game got is its turn, unless a format of its rules says it counts rounds
    (``round_of``): the table's rules alone count turns, a part of the game's may count rounds."""
    assert GAME.round_of(_started(GAME, "wizards_duel")) == 1
    assert GAME.round_of(_started(GAME, "commander")) is None
    rounds = Rules("rounds")
    rounds.round_of(lambda state: state.turn * 10 if state.turn > 1 else None)
    rules = Ruleset((table.RULES, life.RULES, rounds))
    state = _started(rules, "duel")
    with rules.playing():
        assert progress(state) == Message("games.turn", turn=1)
        state = rules.carry_out(state, PassTurn(), Random(1)).state
        assert progress(state) == Message("games.round", round=20)
    assert Ruleset((table.RULES, life.RULES)).round_of(state) is None


def test_nc3_the_monarchy_passes_over_a_seat_a_format_says_is_apart() -> None:
    """The counters ask the formats in play who is apart from the game for now (a Necromancer
    minion on solo turns): the monarch leaving crowns the next player who is not."""
    apart = Rules("apart")
    apart.apart(lambda state, seat: seat == 1)
    for rules, crowned in (
        (Ruleset((table.RULES, life.RULES, counters.RULES)), 1),
        (Ruleset((table.RULES, life.RULES, counters.RULES, apart)), 2),
    ):
        state = _started(rules, "ffa", players=("Ann", "Bob", "Cid"))
        state = rules.carry_out(state, BecomeMonarch(seat=0), Random(1)).state
        state = rules.carry_out(state, Concede(seat=0), Random(1)).state
        with rules.playing():
            assert counters.marks(state, 1).monarch == crowned


def test_nc1_cj3_who_comes_back_anew_and_which_events_begin_new_games() -> None:
    """A Necromancer player coming back as a minion comes back anew, and a pod's second round
    begins new games: each format says so of its events, and rules without it say neither."""
    back = LossSettled(seat=2, responsible=0, fate=Fate.MINION)
    second = RoundStarted(round=2, groups=())
    assert GAME.comes_back(back) == 2
    assert GAME.comes_back(back.model_copy(update={"fate": Fate.OUT})) is None
    assert GAME.starts_anew(second) and not GAME.starts_anew(second.model_copy(update={"round": 1}))
    bare = Ruleset((table.RULES, life.RULES, counters.RULES))
    assert bare.comes_back(back) is None and not bare.starts_anew(second)


def test_cj3_a_pods_groups_are_the_games_played_at_once() -> None:
    pod = _started(GAME, "conspiracy", players=("Ann", "A2", "A3", "B1", "B2", "B3"))
    groups = GAME.groups(pod)
    assert groups is not None and [g.label for g in groups] == ["1", "2"]
    assert groups[0].title == Message("consp.group.1")
    assert GAME.groups(_started(GAME, "commander")) is None


def test_pc12_ct6_a_card_means_what_the_formats_in_the_game_expect() -> None:
    """A tap or a ``card`` line means a card of the one format with cards in the game (planar
    cards, contraptions), or of the one that waits for a card; with none of them, any card."""
    catalog = load_catalog()
    assert GAME.expected_cards(_started(GAME, "commander")) is None
    assert GAME.expected_cards(_started(GAME, "commander", "planechase")) is catalog.planar()
    assert GAME.expected_cards(_started(GAME, "commander", "contraptions")) is (
        catalog.contraptions()
    )
    assert GAME.expected_cards(_started(GAME, "commander", "planechase", "contraptions")) is None


def test_a_games_part_of_a_format_is_typed_where_the_field_is_optional() -> None:
    from device.rules.planechase.state import PlanechaseState

    with GAME.playing():
        planar = GAME.fold(
            GAME.decide(None, NewGame(formats=("planechase",), players=("A", "B")), Random(1))
        )
        duel = GAME.fold(
            GAME.decide(None, NewGame(formats=("duel",), players=("A", "B")), Random(1))
        )
    assert planar.part(PlanechaseState) is planar.planechase
    with pytest.raises(
        ValueError, match=r"this game has no PlanechaseState: its formats are \('duel',\)"
    ):
        duel.part(PlanechaseState)


def test_hw4_seats_facing_is_offered_where_the_table_shows_seats() -> None:
    """A format with a board of its own (``Format.seats``: Wizard's Duel) is not offered the
    option that turns the seats; every other base format is, in any game's rules."""
    bases = {fmt.name for fmt in GAME.formats.all() if fmt.kind == "base"}
    offered = {name for name in bases if "seats_facing" in GAME.formats.options_for([name])}
    assert offered == bases - {"wizards_duel"}
    without_duel = Ruleset(tuple(part for part in PARTS if part is not wizards_duel.RULES))
    assert all(
        "seats_facing" in without_duel.formats.options_for([fmt.name])
        for fmt in without_duel.formats.all()
        if fmt.kind == "base"
    )
