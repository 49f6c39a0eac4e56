"""Necromancer / Minion EDH (SPEC section 4): the module's part of the state.

Every seat has a ``NecroSeat``: whether the player has ever died, whose minion they are, whether
they are out for good, and where they are in the three solo turns a minion plays apart from the
game.  Masters and minions form a forest: each minion has at most one master and nobody is their
own master, however far up the chain one looks (the rules keep it that way, NC-5).
"""

import enum

from device.models import Model

RESPAWN_LIFE = 30  # TB-2, NC-2
SOLO_TURNS = 3  # NC-3


class Phase(enum.StrEnum):
    """Where a player stands towards the game (NC-3)."""

    IN = "in"  # a member of the game
    SOLO = "solo"  # phased out, playing the three solo turns
    WAITING = "waiting"  # solo turns done; phases in when their seat's turn comes up


class Fate(enum.StrEnum):
    """What a loss made of the player (NC-1, NC-5, NC-6)."""

    MINION = "minion"  # came back as the responsible player's minion
    MASTERLESS = "masterless"  # came back as nobody's minion
    OUT = "out"  # killed by their own master: out for good
    CONCEDED = "conceded"  # conceded: out for good


class NecroSeat(Model):
    seat: int
    deaths: int = 0  # times this player has lost (NC-6: never died = 0)
    minion: bool = False  # a minion can never win (NC-4); masterless minions have no master
    master: int | None = None
    out: bool = False  # left for good (killed by their master, or conceded)
    phase: Phase = Phase.IN
    solo_done: int = 0  # solo turns played since the last respawn
    held: bool = False  # the seat is held out of the table's turn order (one skipped turn armed)
    killed_by: int | None = None  # who was responsible for the last loss (None: nobody)
    fate: Fate | None = None  # what the last loss made of them

    @property
    def can_win(self) -> bool:
        """NC-4, NC-6: only a player who never died can win, so never a minion, and not one who
        made their master lose and regained full status either: the game ends, and is won, when
        one player who never died is left (docs/decisions/0004-necromancer-winning.md)."""
        return self.deaths == 0 and not self.minion and not self.out


class DeathRecord(Model):
    """The latest loss, kept so the table can say who was really responsible (``blame``).

    ``before`` is every seat's record before the loss was settled, and ``life``/``poison``/
    ``commander_damage`` the loser's counters at the moment they lost, so a correction can
    settle the loss again from the very same position.
    """

    seat: int
    reason: str  # the core's LossReason value
    turn: int
    responsible: int | None
    before: tuple[NecroSeat, ...]
    life: int
    poison: int
    commander_damage: tuple[tuple[int, int, int], ...] = ()  # (source, commander, amount)
    skip_turns: int = 0
    freed: int | None = None  # the minion that regained full status by it
    orphans: tuple[int, ...] = ()  # minions it left without a master


class NecromancerState(Model):
    seats: tuple[NecroSeat, ...]
    last_death: DeathRecord | None = None

    def seat(self, seat: int) -> NecroSeat:
        return self.seats[seat]

    def with_seat(self, record: NecroSeat) -> "NecromancerState":
        seats = list(self.seats)
        seats[record.seat] = record
        return self.model_copy(update={"seats": tuple(seats)})

    def masters_of(self, seat: int) -> list[int]:
        """The chain of masters above ``seat``, nearest first."""
        chain: list[int] = []
        current = self.seats[seat].master
        while current is not None and current not in chain and current != seat:
            chain.append(current)
            current = self.seats[current].master
        return chain
