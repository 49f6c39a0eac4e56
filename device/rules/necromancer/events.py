"""Necromancer's events: what happened, in the past tense."""

from typing import Literal

from device.events import Event
from device.rules.necromancer.state import Fate


class NecromancerBegan(Event):
    type: Literal["necromancer_began"] = "necromancer_began"
    players: int


class LossSettled(Event):
    """What a loss made of the loser (NC-1, NC-5, NC-6)."""

    type: Literal["necro_loss_settled"] = "necro_loss_settled"
    seat: int
    responsible: int | None
    fate: Fate
    freed: int | None = None  # a minion who made their master lose and regains full status
    orphans: tuple[int, ...] = ()  # minions left without a master because theirs is out for good


class LossReattributed(Event):
    """The table put the latest loss down to someone else: it is settled again from scratch."""

    type: Literal["necro_loss_reattributed"] = "necro_loss_reattributed"
    seat: int
    responsible: int | None


class SoloTurnPlayed(Event):
    type: Literal["necro_solo_turn_played"] = "necro_solo_turn_played"
    seat: int
    number: int


class SeatHeld(Event):
    """A minion on solo turns: their seat is passed over again at the next lap (NC-3)."""

    type: Literal["necro_seat_held"] = "necro_seat_held"
    seat: int


class MinionPhasedIn(Event):
    type: Literal["necro_minion_phased_in"] = "necro_minion_phased_in"
    seat: int
