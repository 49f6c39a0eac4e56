"""Every screen of the kiosk, in one list (as python-chess lists its ``VARIANTS``).

The order is the touch bar's and the keys overlay's, the order screens claim a command's events
in (``Screen.follows``), and the order in which they add to the table (the upkeep banner's items
and details, a seat's badges, the strip under the seats) and name cues.  There is one instance
of each screen per kiosk process; what a screen remembers lives in ``UiState``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from display.screens import Screen
from display.screens.adjust import Adjust
from display.screens.calibrate import Calibrate
from display.screens.conspiracy import Conspiracy
from display.screens.contraptions import Contraptions
from display.screens.dice import Dice
from display.screens.enrol import Enrol
from display.screens.event import Event
from display.screens.games import Games
from display.screens.history import History
from display.screens.necromancer import Necromancer
from display.screens.planechase import Planechase
from display.screens.setup import Setup
from display.screens.table import Table
from display.screens.wizards_duel import WizardsDuel
from display.screens.wizards_duel_card import WizardsDuelCard


def lineup(*screens: Screen) -> Mapping[str, Screen]:
    """``screens`` by name, in order, checked once at start-up: every screen has a name no other
    has, and a base format has one home (``Screen.base``)."""
    found: dict[str, Screen] = {}
    homes: dict[str, Screen] = {}
    for scr in screens:
        if not scr.name:
            raise TypeError(f"{type(scr).__name__} needs a name")
        if scr.name in found:
            raise TypeError(
                f"screen name {scr.name!r} is taken by {type(found[scr.name]).__name__}"
            )
        if scr.base in homes:
            raise TypeError(
                f"base format {scr.base!r} has a home already: {type(homes[scr.base]).__name__}"
            )
        found[scr.name] = scr
        if scr.base:
            homes[scr.base] = scr
    return MappingProxyType(found)


SCREENS = lineup(
    Table(),
    Planechase(),
    Contraptions(),
    Necromancer(),
    Conspiracy(),
    Event(),
    Dice(),
    Adjust(),
    History(),
    Games(),
    Setup(),
    WizardsDuel(),
    WizardsDuelCard(),
    Enrol(),
    Calibrate(),
)
