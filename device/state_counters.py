"""The counters and designations a Commander table tracks: their part of the state.

Per game: who is the monarch, who has the initiative (at most one player each), and whether it
is day or night (neither until an effect makes it one; then always one of them).  Per player:
energy, experience and rad counters, and the city's blessing (kept for the rest of the game once
gained).  A table plays one game; a Conspiracy pod plays one game per group at a time, each with
its own monarch, initiative and day or night, so those are kept per game, by its ``game`` key
("" for the whole table, else the group's label; ``device.rules.counters.game_of``).
"""

import enum

from device.models import Model


class DayNight(enum.StrEnum):
    DAY = "day"
    NIGHT = "night"


class Counter(enum.StrEnum):
    """A kind of counter a player has (Comprehensive Rules 122.1)."""

    ENERGY = "energy"
    EXPERIENCE = "experience"
    RAD = "rad"


class GameMarks(Model):
    """The designations of one game at the table."""

    game: str = ""  # "" the whole table; a Conspiracy pod's group label
    monarch: int | None = None  # a seat
    initiative: int | None = None  # a seat
    day_night: DayNight | None = None  # None: neither, until an effect makes it day or night


class PlayerCounters(Model):
    seat: int
    energy: int = 0
    experience: int = 0
    rad: int = 0
    blessing: bool = False  # the city's blessing

    def count(self, counter: Counter) -> int:
        return int(getattr(self, counter.value))

    @property
    def any(self) -> bool:
        return bool(self.energy or self.experience or self.rad or self.blessing)


class CountersState(Model):
    games: tuple[GameMarks, ...] = ()  # only games with something marked, in the order first marked
    players: tuple[PlayerCounters, ...] = ()  # one per seat

    @classmethod
    def fresh(cls, players: int) -> "CountersState":
        return cls(players=tuple(PlayerCounters(seat=seat) for seat in range(players)))

    def game(self, key: str) -> GameMarks:
        return next((marks for marks in self.games if marks.game == key), GameMarks(game=key))

    def with_game(self, marks: GameMarks) -> "CountersState":
        others = [m for m in self.games if m.game != marks.game]
        kept = others if marks == GameMarks(game=marks.game) else [*others, marks]
        order = [m.game for m in self.games]
        kept.sort(key=lambda m: order.index(m.game) if m.game in order else len(order))
        return self.model_copy(update={"games": tuple(kept)})

    def player(self, seat: int) -> PlayerCounters:
        return self.players[seat] if seat < len(self.players) else PlayerCounters(seat=seat)

    def with_player(self, counters: PlayerCounters) -> "CountersState":
        players = list(self.players)
        players[counters.seat] = counters
        return self.model_copy(update={"players": tuple(players)})

    @property
    def monarchs(self) -> tuple[int, ...]:
        return tuple(m.monarch for m in self.games if m.monarch is not None)

    @property
    def initiatives(self) -> tuple[int, ...]:
        return tuple(m.initiative for m in self.games if m.initiative is not None)
