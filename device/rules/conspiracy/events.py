"""Conspiracy's events: what happened, in the past tense."""

from typing import Literal

from device.events import Event
from device.rules.conspiracy.state import GroupRecord


class RoundStarted(Event):
    type: Literal["consp_round_started"] = "consp_round_started"
    round: int
    groups: tuple[GroupRecord, ...]
    draft: bool = False


class GroupLeft(Event):
    type: Literal["consp_group_left"] = "consp_group_left"
    group: str
    seats: tuple[int, ...]


class GroupTurnPassed(Event):
    type: Literal["consp_group_turn_passed"] = "consp_group_turn_passed"
    group: str
    seat: int


class ClockStarted(Event):
    type: Literal["consp_clock_started"] = "consp_clock_started"
    at: float


class TimeCalled(Event):
    type: Literal["consp_time_called"] = "consp_time_called"
    at: float


class GroupRankedByLife(Event):
    type: Literal["consp_group_ranked_by_life"] = "consp_group_ranked_by_life"
    group: str
    ranking: tuple[tuple[int, int], ...]  # (seat, life), best first


class RumblePickEarned(Event):
    type: Literal["consp_rumble_pick_earned"] = "consp_rumble_pick_earned"
    seat: int
    pick: int  # the how-many-th pick this is
    total: int  # life their sources had made opponents lose
