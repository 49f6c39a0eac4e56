"""Scenes of the counters a Commander table tracks, each reached through the kiosk's own inputs:
the seats with their badges (the monarch, the initiative, the city's blessing, energy, experience
and rad counters beside poison and commander damage) and the day or night in the header; the
upkeep banner's reminders; ten players on one table; and the adjust screen setting a counter and
day or night with the encoder and SELECT."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import ChangePoison, DealCommanderDamage, NewGame
from device.inputs import Button
from device.rules.counters import (
    BecomeMonarch,
    ChangeCounter,
    GainBlessing,
    MakeDayNight,
    TakeInitiative,
)
from device.state_counters import Counter, DayNight
from display.kiosk import Kiosk
from display.screens.table import PickSeat
from display.ui import Go, Press, Turn

#: Four players in four scripts, as the other scenes seat them.
PLAYERS = ("Alice", "Юрий", "さくら", "Łukasz")
#: Ten players, names in four scripts.
TEN = (*PLAYERS, "Ben", "Ольга", "はると", "Zofia", "Marek", "Ewa")


def scene_counters(k: Kiosk) -> None:
    """Юрий's main phase at night: さくら the monarch, Alice with the initiative, Łukasz with the
    city's blessing; energy, experience and rad counters beside poison and commander damage."""
    k.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[1]))
    k.dispatch(Press(Button.NEXT))
    k.execute(BecomeMonarch(seat=2))
    k.execute(TakeInitiative(seat=0))
    k.execute(GainBlessing(seat=3))
    k.execute(MakeDayNight(day_night=DayNight.NIGHT))
    k.execute(ChangeCounter(seat=0, counter=Counter.ENERGY, delta=3))
    k.execute(ChangeCounter(seat=1, counter=Counter.EXPERIENCE, delta=2))
    k.execute(ChangeCounter(seat=3, counter=Counter.RAD, delta=4))
    k.execute(ChangePoison(seat=0, delta=3, source=1))
    k.execute(DealCommanderDamage(seat=2, source=1, amount=7))


def scene_counters_upkeep(k: Kiosk) -> None:
    """Alice's upkeep by day: she is the monarch, has the initiative and two rad counters, and
    the banner reminds her what each asks of her turn."""
    k.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[1]))
    k.execute(MakeDayNight(day_night=DayNight.DAY))
    k.execute(BecomeMonarch(seat=0))
    k.execute(TakeInitiative(seat=0))
    k.execute(ChangeCounter(seat=0, counter=Counter.RAD, delta=2))
    k.execute(ChangeCounter(seat=2, counter=Counter.ENERGY, delta=5))
    k.dispatch(Press(Button.NEXT))  # Юрий's main phase
    k.dispatch(Press(Button.NEXT))  # Turn 2: さくら's upkeep
    k.dispatch(Press(Button.NEXT))
    k.dispatch(Press(Button.NEXT))  # Łukasz
    k.dispatch(Press(Button.NEXT))
    k.dispatch(Press(Button.NEXT))  # Alice's upkeep


def scene_counters_ten(k: Kiosk) -> None:
    """Ten players by day with every kind of badge somewhere, two on one seat's tile."""
    k.execute(NewGame(formats=("commander",), players=TEN, first=TEN[0]))
    k.dispatch(Press(Button.NEXT))
    k.execute(MakeDayNight(day_night=DayNight.DAY))
    k.execute(BecomeMonarch(seat=1))
    k.execute(TakeInitiative(seat=6))
    k.execute(GainBlessing(seat=1))
    k.execute(GainBlessing(seat=8))
    k.execute(ChangeCounter(seat=2, counter=Counter.ENERGY, delta=12))
    k.execute(ChangeCounter(seat=3, counter=Counter.EXPERIENCE, delta=3))
    k.execute(ChangeCounter(seat=9, counter=Counter.RAD, delta=6))
    k.execute(ChangeCounter(seat=9, counter=Counter.ENERGY, delta=2))
    k.execute(ChangePoison(seat=4, delta=5, source=0))
    k.execute(DealCommanderDamage(seat=1, source=0, amount=14))


def scene_adjust_energy(k: Kiosk) -> None:
    """The adjust screen, opened for Юрий's seat (highlighted by a touch, then key A): SELECT to the counter row, the encoder
    to Energy, SELECT past the source (energy has none) to the amount, two clicks up."""
    k.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0]))
    k.dispatch(Press(Button.NEXT))
    k.execute(ChangeCounter(seat=1, counter=Counter.ENERGY, delta=1))
    k.dispatch(PickSeat(1))  # highlights the seat
    k.dispatch(Go("adjust"))  # key A
    k.dispatch(Press(Button.SELECT))  # the player row
    k.dispatch(Press(Button.SELECT))  # the counter row
    k.dispatch(Turn(3))  # life → commander damage → poison → energy
    k.dispatch(Press(Button.SELECT))  # the amount
    k.dispatch(Turn(2))


def scene_adjust_night(k: Kiosk) -> None:
    """The adjust screen choosing the time of day: by day, the counter row turned back round to
    Day/night, which offers night."""
    k.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0]))
    k.dispatch(Press(Button.NEXT))
    k.execute(MakeDayNight(day_night=DayNight.DAY))
    k.dispatch(PickSeat(0))
    k.dispatch(Go("adjust"))  # key A
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Turn(-1))  # from life back round to the last: day or night


COUNTER_SCENES: dict[str, Callable[[Kiosk], None]] = {
    "counters": scene_counters,
    "counters-upkeep": scene_counters_upkeep,
    "counters-ten": scene_counters_ten,
    "adjust-energy": scene_adjust_energy,
    "adjust-night": scene_adjust_night,
}
