"""The rules' parts: one explicit list, each part one value, nothing filled by an import."""

from __future__ import annotations

import importlib
import pkgutil
from random import Random

import pytest

import device.rules
from device.commands import PassTurn
from device.events import GameStarted, StepChanged
from device.rules import PARTS
from device.rules.registry import APPLIERS, DECIDERS, Rules, assemble
from device.state import GameState


def _modules() -> list[str]:
    return [info.name for info in pkgutil.walk_packages(device.rules.__path__, "device.rules.")]


def test_every_rules_value_is_in_the_list() -> None:
    listed = {id(part) for part in PARTS}
    for name in _modules():
        value = getattr(importlib.import_module(name), "RULES", None)
        if isinstance(value, Rules) and id(value) not in listed:
            # a part kept in a module of its own is taken in by its format's value
            assert any(value.appliers.items() <= part.appliers.items() for part in PARTS), (
                f"{name}.RULES is neither in device.rules.PARTS nor taken in by a part listed there"
            )


def test_the_tables_are_the_parts_together() -> None:
    assert DECIDERS == {command: fn for part in PARTS for command, fn in part.deciders.items()}
    assert APPLIERS == {event: fn for part in PARTS for event, fn in part.appliers.items()}


def test_a_second_decider_for_one_command_is_refused() -> None:
    first, second = Rules("first"), Rules("second")

    @first.decides(PassTurn)
    def _one(state: GameState, command: PassTurn, rng: Random) -> list[StepChanged]:
        return []

    with pytest.raises(TypeError, match="PassTurn already has a decider in first"):
        first.decides(PassTurn)(_one)
    second.decides(PassTurn)(_one)
    before = dict(DECIDERS)
    with pytest.raises(TypeError, match="PassTurn has a second decider in second"):
        assemble((first, second))
    assert DECIDERS == before  # refused before anything was built


def test_a_part_listed_twice_is_refused() -> None:
    with pytest.raises(TypeError, match="listed twice"):
        assemble((Rules("same"), Rules("same")))


def test_two_events_with_one_type_name_are_refused() -> None:
    from typing import Literal

    from device.events import Event

    class Twin(Event):
        type: Literal["step_changed"] = "step_changed"

    part = Rules("twins")
    part.applies(Twin)(lambda state, event: state)
    before = dict(APPLIERS)
    with pytest.raises(TypeError, match="event type 'step_changed' is used by StepChanged already"):
        assemble((*PARTS, part))
    assert APPLIERS == before


def test_the_journal_reads_every_applied_event_and_the_start() -> None:
    from device.rules.registry import EVENT_TYPES, parse_event

    assert set(EVENT_TYPES.values()) == {GameStarted, *APPLIERS}
    assert parse_event(b'{"type": "step_changed", "step": "main"}') == StepChanged(step="main")
