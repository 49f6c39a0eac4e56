"""The English of every key the gadget says, gathered from the lists that name each part.

Each module writes the English of what it says beside the code that says it (its ``TEXTS``);
this module finds them through the same lists the gadget is built from — the rules' parts
(``device.game.PARTS``, each part's texts in its ``Rules`` value) and the console's command
tables (``device.console.TABLES``) — and a list of the modules outside them.  It sits on top of
``device``: nothing below it imports it, and the program gives it to ``device.text.speak`` at its
start.  A source is read when a key it holds is first looked up: the card-data import's, the
fetch's and the console's only for keys that start as theirs do, so the kiosk never imports them.
"""

from __future__ import annotations

from collections.abc import Mapping

from device.text import English, Source, Text


def _game() -> list[Mapping[str, Text]]:
    from device import catalog, controller, event_link, formats, games, recovery, text
    from device.game import GAME
    from device.rules.conspiracy import tables
    from device.rules.contraptions import view

    loose = (text, formats, catalog, recovery, controller, games, event_link, tables, view)
    return [GAME.texts, *(module.TEXTS for module in loose)]


def _config() -> list[Mapping[str, Text]]:
    from device import config

    return [config.TEXTS]


def _card_text() -> list[Mapping[str, Text]]:
    from device import cardtext

    return [cardtext.TEXTS]


def _fetch() -> list[Mapping[str, Text]]:
    from device import scryfall

    return [scryfall.TEXTS]


def _console() -> list[Mapping[str, Text]]:
    from device.console import TABLES, core

    return [core.TEXTS, *(table.english for table in TABLES)]


#: Where the English of each key is written, by how the key starts: the game's own texts (every
#: key), then the configuration's, the card data's, the fetch's and the console's.  A module with
#: ``TEXTS`` that no source reads is a test's failure, not a text that shows its key.
SOURCES: tuple[Source, ...] = (
    Source(("",), _game),
    Source(("config.",), _config),
    Source(("cardtext.",), _card_text),
    Source(("cardtext.fetch.",), _fetch),
    Source(("console.", "wdc.", "consp.export_"), _console),
)

#: The gadget's English.
ENGLISH = English(SOURCES)
