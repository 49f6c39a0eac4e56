"""Conspiracy events (SPEC section 5): the module's part of the state.

A Conspiracy *pod* is one saved game: its players are the pod (3–10, who drafted together),
and it holds both rounds of its group games (CJ-3).  Every player sits in exactly one group per
round, so the core's one life total per player is their life in their current group game.
A Group Game Draft (CJ-7) is one table, kept as a single group that plays to the last player.
"""

from device.models import Model


class GroupRecord(Model):
    """One group game of a round: who sits where and who has left, in order (CJ-3, CJ-4)."""

    label: str  # "1", "2" in round 1; "winners", "losers" in round 2; "table" in a draft
    order: tuple[int, ...]  # seats in turn order; order[0] took the group's first turn
    to_leave: int  # the group's game is over once this many have left
    left: tuple[tuple[int, ...], ...] = ()  # seats that left together, one tuple per moment
    active: int | None = None  # whose turn it is in this group, when the table says so
    lap_from: int | None = None  # the active player when time was called (CJ-5)
    lap_moved: bool = False  # the turn has gone on from ``lap_from`` since time was called
    by_life: tuple[tuple[int, int], ...] | None = None  # (seat, life) best first, after a time-out

    @property
    def gone(self) -> tuple[int, ...]:
        return tuple(seat for batch in self.left for seat in batch)

    @property
    def remaining(self) -> tuple[int, ...]:
        gone = set(self.gone)
        return tuple(seat for seat in self.order if seat not in gone)

    @property
    def done(self) -> bool:
        return self.by_life is not None or len(self.gone) >= self.to_leave


class ConspiracyState(Model):
    draft: bool = False  # a Group Game Draft (one table) rather than a pod with two rounds
    round: int = 1
    rounds: tuple[tuple[GroupRecord, ...], ...] = ()  # every round so far; the last is current
    clock_started: float | None = None  # when the current round's clock started (seconds)
    time_called: float | None = None
    rumble_base: tuple[int, ...] = ()  # life each seat's sources had taken when the round began
    picks: tuple[int, ...] = ()  # Rumble picks earned in the current game, by seat (CJ-8)

    @property
    def groups(self) -> tuple[GroupRecord, ...]:
        return self.rounds[-1] if self.rounds else ()

    def group_of(self, seat: int) -> GroupRecord | None:
        for group in self.groups:
            if seat in group.order:
                return group
        return None

    def with_group(self, group: GroupRecord) -> "ConspiracyState":
        current = tuple(group if g.label == group.label else g for g in self.groups)
        return self.model_copy(update={"rounds": (*self.rounds[:-1], current)})
