"""Scenes of a Commander table's commanders, each reached through the kiosk's own inputs: the
set-up naming each seat's commander (and a partner), the adjust screen counting a partner's
commander tax and renaming a commander, and the seats with their tax badges (CR 903.8)."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import CastCommander, DealCommanderDamage, NewGame
from device.inputs import Button
from display.kiosk import Kiosk
from display.screens.adjust import AddAmount, PickCommander, PickCounter
from display.screens.setup import SetupForm, rows
from display.ui import Erase, Focus, Go, Press, Turn, Type

#: Four players in four scripts, as the other scenes seat them.
PLAYERS = ("Alice", "Юрий", "さくら", "Łukasz")
#: Alice plays partners, Юрий one commander, the others leave theirs unnamed.
COMMANDERS = (("Tymna the Weaver", "Kraum, Ludevic's Opus"), ("Atraxa, Praetors' Voice",), (), ())


def focus(k: Kiosk, kind: str, key: str) -> None:
    """→ (SELECT) until the set-up's row has the focus."""
    wanted = rows(k.ui.state_of(SetupForm)).index((kind, key))
    while k.ui.state_of(SetupForm).row != wanted:
        k.dispatch(Focus(1))


def scene_setup_commanders(k: Kiosk) -> None:
    """The set-up of a Commander game: Alice's commander and partner typed, Юрий's commander
    being typed (the caret on it)."""
    k.dispatch(Go("setup"))
    for seat, name in enumerate(PLAYERS[:2]):
        focus(k, "name", str(seat))
        k.dispatch(Type(name))
        for index, commander in enumerate(COMMANDERS[seat]):
            focus(k, "commander", f"{seat}.{index}")
            k.dispatch(Type(commander))
    focus(k, "commander", "1.0")


def commander_game(k: Kiosk) -> None:
    """Alice's main phase; she has cast Tymna twice and Kraum once, Юрий Atraxa once, and Atraxa
    has hit さくら for 6."""
    k.execute(
        NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0], commanders=COMMANDERS)
    )
    k.dispatch(Press(Button.NEXT))
    k.execute(CastCommander(seat=0, commander=0, amount=2))
    k.execute(CastCommander(seat=0, commander=1))
    k.execute(CastCommander(seat=1))
    k.execute(DealCommanderDamage(seat=2, source=1, amount=6))


def scene_table_tax(k: Kiosk) -> None:
    commander_game(k)
    k.dispatch(Go("table"))


def scene_adjust_tax(k: Kiosk) -> None:
    """The adjust screen on Alice's commander tax: Kraum chosen, one more cast ({2} → {4})."""
    commander_game(k)
    k.dispatch(Go("adjust"))
    k.dispatch(PickCounter("tax"))
    k.dispatch(PickCommander(1))
    k.dispatch(AddAmount(1))


def scene_adjust_names(k: Kiosk) -> None:
    """The adjust screen renaming Alice's partner: Kraum erased, Thrasios typed."""
    commander_game(k)
    k.dispatch(Go("adjust"))
    k.dispatch(PickCounter("names"))
    k.dispatch(PickCommander(1))
    for _ in COMMANDERS[0][1]:
        k.dispatch(Erase())
    k.dispatch(Type("Thrasios, Triton Hero"))
    k.dispatch(Turn(0))


COMMANDER_SCENES: dict[str, Callable[[Kiosk], None]] = {
    "setup-commanders": scene_setup_commanders,
    "table-tax": scene_table_tax,
    "adjust-tax": scene_adjust_tax,
    "adjust-names": scene_adjust_names,
}
