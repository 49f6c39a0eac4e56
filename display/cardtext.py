"""Rules text of a card for the screens, when the user has imported card data (HW-3).

Card names and types ship with the gadget (``device.catalog``); rules text comes from a
card-data file the user imports with ``aetherbox catalog import FILE`` (``device.cardtext``).
Screens ask one question — :func:`rules_text`: "the rules text of this card name, if known" —
and show the name and type only when the answer is ``None``.

Sources are tried in order: the functions in ``PROVIDERS`` (tests put sample text there), then
``device.cardtext`` in the data directory given to :func:`configure`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

Provider = Callable[[str], str | None]
PROVIDERS: list[Provider] = []

_data_dir: Path | None = None
_imported = True  # look in device.cardtext's store; off in tests that want no card data


def configure(data_dir: Path | None, *, imported: bool = True) -> None:
    """Where imported card data lives (the gadget's data directory); ``imported=False`` uses
    registered providers only."""
    global _data_dir, _imported
    _data_dir = data_dir
    _imported = imported


def rules_text(name: str) -> str | None:
    """The rules text of the card called ``name`` (English, as printed), or ``None``."""
    for fn in PROVIDERS:
        found = fn(name)
        if found:
            return found
    if not _imported or _data_dir is None:
        return None
    from device import cardtext

    card = cardtext.rules_text(name, _data_dir)
    return card.text if card is not None and card.text else None
