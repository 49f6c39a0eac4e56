"""The controller: hardware inputs become the same commands as the console's (HW-1, HW-3)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from device.catalog import Card, load_catalog
from device.commands import ChangeLife, Command, NewGame
from device.game import PARTS
from device.rules.registry import Rules, Ruleset
from device.controller import Controller
from device.errors import IllegalCommand
from device.inputs import Button, ButtonPressed, EncoderTurned, ReaderStatus, TagRead
from device.journal import Journal
from device.state import GameState
from device.tagmap import TagMap
from helpers import Clock


def test_roll_without_planechase_is_refused(controller: Controller) -> None:
    controller.execute(NewGame(players=("A", "B"), first="A"))
    with pytest.raises(IllegalCommand) as error:
        controller.handle(ButtonPressed(Button.ROLL))
    assert str(error.value) == (
        "ROLL rolls the planar die, and this game has no Planechase; hold ROLL for dice and a coin."
    )


def test_held_or_repeating_next_does_not_pass_the_turn(controller: Controller) -> None:
    """NEXT held means nothing to the game (on the table it is the adjust screen's), never a pass;
    UNDO held is a break at the table (the game clock pauses), never an undo."""
    controller.execute(NewGame(players=("A", "B"), first="A"))
    assert controller.handle(ButtonPressed(Button.NEXT, long=True)) is None
    held = controller.handle(ButtonPressed(Button.UNDO, long=True))
    assert held is not None and [m.key for m in held.messages] == ["clock.paused"]
    assert controller.handle(ButtonPressed(Button.NEXT, repeat=2)) is None
    assert controller.state is not None and controller.state.step.value == "upkeep"


def test_screen_only_inputs_mean_nothing_to_the_game(controller: Controller) -> None:
    controller.execute(NewGame(players=("A", "B"), first="A"))
    assert controller.handle(EncoderTurned(3)) is None
    assert controller.handle(ReaderStatus(connected=False)) is None
    assert controller.handle(ButtonPressed(Button.SELECT)) is None


def test_a_module_binding_turns_a_button_into_its_command(
    controller: Controller, monkeypatch: pytest.MonkeyPatch
) -> None:
    def select_hurts(state: GameState, press: ButtonPressed) -> Command | None:
        return ChangeLife(seat=state.active, delta=-1)

    hurts = Rules("hurts")
    hurts.on_button(Button.SELECT)(select_hurts)  # asked first: its part is first in the list
    controller = Controller(controller.journal, rules=Ruleset((hurts, *PARTS)))
    controller.execute(NewGame(players=("A", "B"), first="B"))
    result = controller.handle(ButtonPressed(Button.SELECT))
    assert result is not None and [str(m) for m in result.messages] == ["B: 20 → 19 life."]


def test_tapped_tag_finds_its_card_and_its_binding(
    controller: Controller, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tags = TagMap(tmp_path / "tags.txt")
    tags.add("04:A1:B2:C3", "Tazeem")
    seen: list[Card] = []

    def planes_hurt(state: GameState, card: Card) -> Command | None:
        seen.append(card)
        return ChangeLife(seat=0, delta=-2) if card.kind.value == "plane" else None

    hurts = Rules("hurts")
    hurts.on_card(planes_hurt)
    controller = Controller(controller.journal, rules=Ruleset((hurts, *PARTS)))
    controller.tags = tags
    controller.execute(NewGame(players=("A", "B"), first="A"))
    result = controller.handle(TagRead("04A1B2C3"))
    assert result is not None and [str(m) for m in result.messages] == ["A: 20 → 18 life."]
    assert seen == [load_catalog().find("Tazeem")]
    unknown = controller.handle(TagRead("DEADBEEF"))
    assert unknown is not None and [str(m) for m in unknown.messages] == [
        "Unknown card (tag DE:AD:BE:EF): enrol it to use it."
    ]
    with pytest.raises(IllegalCommand) as error:
        controller.identify(load_catalog().find("Auto-Key"))
    assert str(error.value) == "Auto-Key (contraption) has no part in this game right now."


def test_tag_without_a_tag_map(controller: Controller) -> None:
    controller.execute(NewGame(players=("A", "B"), first="A"))
    result = controller.handle(TagRead("04A1B2C3"))
    assert result is not None
    assert [str(m) for m in result.messages] == [
        "Tag 04:A1:B2:C3 was read, but no tag map is set up: enrol your cards first."
    ]


def test_lf4_a_preview_says_what_a_change_would_do_and_keeps_nothing(
    controller: Controller,
) -> None:
    """A screen shows a change before making it (the table's pending life change): the preview
    says what it would say and the state it would leave, and neither the game nor the journal
    changes."""
    controller.execute(NewGame(players=("Ann", "Bob"), first="Ann"))
    history = controller.history()
    before = controller.state
    result = controller.preview(ChangeLife(seat=1, delta=-3, source=0))
    assert [str(m) for m in result.messages] == ["Bob: 20 → 17 life (from Ann)."]
    assert result.state is not None and result.state.player(1).life == 17
    assert controller.state == before and controller.history() == history
    assert (
        controller.last_change() is None
    )  # nothing for UNDO to take back: the game has only started


def test_lf4_a_preview_is_refused_as_the_change_would_be(controller: Controller) -> None:
    with pytest.raises(IllegalCommand) as error:
        controller.preview(ChangeLife(seat=0, delta=-1))
    assert (
        str(error.value)
        == "No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'."
    )
    controller.execute(NewGame(players=("Ann", "Bob"), first="Ann"))
    with pytest.raises(IllegalCommand) as error:
        controller.preview(ChangeLife(seat=1, delta=-1000))
    assert str(error.value) == "-1000 is out of range: change life by at most 999 at a time."


def test_lf4_undo_and_redo_keep_the_controllers_time(journal: Journal, clock: Clock) -> None:
    """Undo and redo are changes of the game like any other: the journal says the game was last
    played at the controller's clock's time, not the computer's."""
    controller = Controller(journal, rng=random.Random(7), clock=clock)
    controller.execute(NewGame(players=("Ann", "Bob"), first="Ann"))
    controller.execute(ChangeLife(seat=1, delta=-3, source=0))
    game = controller.game
    assert game is not None
    clock.now += 60
    controller.undo()
    assert journal.game(game).updated == clock.now
    clock.now += 90
    controller.redo()
    assert journal.game(game).updated == clock.now
