"""The scenes the screenshot and facts tests draw: one per screen, each reached through the
kiosk's own inputs (the controller, the journal, the reader's events), and helpers to read what
the drawing layer recorded."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import Advance, ChangePoison, Concede, DealCommanderDamage, NewGame
from device.inputs import Button, ReaderStatus, TagRead
from display.canvas import Drawn
from display.kiosk import Kiosk
from display.ui import Go, Press, ToggleHelp, Turn

SIZES = ((320, 240), (480, 320), (800, 480), (1280, 720))
LANGUAGES = ("en", "ru", "ja", "pl")
#: Names in four scripts, all drawn by the bundled fonts.
PLAYERS = ("Alice", "Юрий", "さくら", "Łukasz")
SAMPLE_TEXT = "Sample rules text for the tests: whenever you roll chaos, each player draws a card."


def texts(kiosk: Kiosk, role: str | None = None) -> list[str]:
    """The texts drawn in ``role`` (``"banner.*"``: every role under ``banner``), in order."""
    if role is None:
        return [d.text for d in kiosk.canvas.drawn]
    if role.endswith(".*"):
        return [d.text for d in kiosk.canvas.drawn if d.role.startswith(role[:-1])]
    return [d.text for d in kiosk.canvas.drawn if d.role == role]


def drawn(kiosk: Kiosk, role: str) -> list[Drawn]:
    return [d for d in kiosk.canvas.drawn if d.role == role]


# --- scenes: one per screen, each reached through the kiosk's own inputs ----------------------


def scene_setup(k: Kiosk) -> None:
    k.dispatch(Go("setup"))


def scene_table(k: Kiosk) -> None:
    k.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[1]))
    k.dispatch(Press(Button.NEXT))
    k.execute(DealCommanderDamage(seat=2, source=1, amount=7))
    k.execute(ChangePoison(seat=0, delta=3, source=1))
    k.execute(Concede(seat=3))
    k.dispatch(Press(Button.ROLL))  # refused: no Planechase in this game


def scene_upkeep(k: Kiosk) -> None:
    k.execute(NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0]))


def scene_adjust(k: Kiosk) -> None:
    scene_upkeep(k)
    k.dispatch(Press(Button.NEXT))
    k.dispatch(Turn(-3))  # the encoder on the table opens the adjustment


def scene_planechase(k: Kiosk) -> None:
    k.execute(
        NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0],
                options={"planar_deck": "physical"})
    )
    k.handle_input(TagRead("04A1B2C3"))  # the starting plane, tapped on the reader
    k.execute(Advance())
    k.dispatch(Press(Button.ROLL))
    k.dispatch(Press(Button.ROLL))


def scene_reader(k: Kiosk) -> None:
    scene_upkeep(k)
    k.dispatch(Press(Button.NEXT))
    k.handle_input(ReaderStatus(False, "/dev/ttyUSB0", "rdm6300", "unplugged"))
    k.handle_input(TagRead("DEADBEEF"))


def scene_help(k: Kiosk) -> None:
    scene_upkeep(k)
    k.dispatch(Press(Button.NEXT))
    k.dispatch(ToggleHelp())


SCENES: dict[str, Callable[[Kiosk], None]] = {
    "setup": scene_setup,
    "table": scene_table,
    "upkeep": scene_upkeep,
    "adjust": scene_adjust,
    "planechase": scene_planechase,
    "reader": scene_reader,
    "help": scene_help,
}
