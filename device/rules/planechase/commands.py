"""Planechase's commands: what a player asks for."""

from device.commands import Command


class RollPlanarDie(Command):
    """Roll the planar die: the special action (901.9) or, with ``free``, a roll an effect
    causes (Fractured Powerstone), which costs nothing and does not raise the cost."""

    seat: int | None = None  # None: the active player (special) or the planar controller (free)
    free: bool = False
    pip: int | None = (
        None  # the side a table's own die showed, 1–6 (1 chaos, 6 planeswalk); None: roll
    )


class Planeswalk(Command):
    """An effect says to planeswalk (the planar controller does)."""

    seat: int | None = None
    direction: str | None = None  # Eternities Map


class AcknowledgePhenomenon(Command):
    """The phenomenon has resolved: the planar controller planeswalks on (310.7)."""


class ChoosePlanar(Command):
    """Answer the pending choice: names of cards, 'top'/'bottom', or a map direction."""

    answer: tuple[str, ...]


class ChangePlaneCounters(Command):
    name: str | None = None  # None: the one face-up plane
    delta: int


class RevealPlanarCard(Command):
    """A physical planar card was turned over and tapped or named (PC-12)."""

    name: str


class ReturnPlanarCard(Command):
    name: str


class SetPlanarDeck(Command):
    """Replace a planar deck before the first roll: by names, or built from a source."""

    owner: int | None  # a seat; None for the communal deck
    names: tuple[str, ...] = ()
    source: str | None = None  # all, a set code
