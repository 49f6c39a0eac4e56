"""``aetherbox console``: one command per line, driving the same controller as the buttons.

``TABLES`` lists the command tables of the console: the commands every game has (the table's,
then dice and coin, then the clock, then the counters every life game has), then each format's, in the order
``help`` lists them; the README's console reference is the same list.
Each module exposes its table as a value (``COMMANDS``); nothing registers itself on import.

    console = Console(controller, sys.stdout, TABLES)
    console.run(lines)
"""

from __future__ import annotations

from device.console import (
    clock,
    conspiracy,
    contraptions,
    counters,
    dice,
    necromancer,
    planechase,
    table,
    wizards_duel,
)
from device.console.core import CommandTable, Console, Entry, Usage

TABLES: tuple[CommandTable, ...] = (
    table.COMMANDS,
    dice.COMMANDS,
    clock.COMMANDS,
    counters.COMMANDS,
    contraptions.COMMANDS,
    planechase.COMMANDS,
    wizards_duel.COMMANDS,
    necromancer.COMMANDS,
    conspiracy.COMMANDS,
)


def entries() -> list[Entry]:
    """Each command once, in the order ``help`` lists them."""
    return [entry for commands in TABLES for entry in commands.entries]


__all__ = ["TABLES", "CommandTable", "Console", "Entry", "Usage", "entries"]
