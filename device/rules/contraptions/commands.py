"""Contraptions' commands: what a player asks for."""

from device.commands import Command


class SetContraptionDeck(Command):
    """CT-1: a player's own contraption deck (base rules); shuffled by the gadget if virtual."""

    seat: int
    cards: tuple[str, ...]


class RollContraptionDie(Command):
    """The upkeep die (A, B), or a paid assembly roll in the main phase (C)."""


class AssembleContraption(Command):
    """Assemble one contraption for ``seat`` (default: the active player).

    Finishes what the die asked for when an upkeep assembly is open (A: ``library`` picks among
    the libraries the die allows); otherwise a card said "assemble" (CT-3, CT-C3).  ``library``
    is a faction number 1–5 (variant A only); ``sprocket`` places the card at once.
    """

    seat: int | None = None
    library: int | None = None
    sprocket: int | None = None


class PlaceContraption(Command):
    """Put the revealed or identified card onto a sprocket (None: the highlighted one)."""

    sprocket: int | None = None


class HighlightSprocket(Command):
    """Move the sprocket choice for the waiting card by ``step`` (the encoder, a long SELECT)."""

    step: int = 1


class DeclineAssembly(Command):
    """Do not assemble (CT-A2: the card goes to the bottom of its library or the scrapyard).

    ``card`` names the declined card when the gadget cannot know it (physical cards).
    """

    card: str | None = None


class KeepLooked(Command):
    """CT-C2: assemble ``card`` of those looked at; ``top`` go back on top in this order (top
    first), the rest to the bottom."""

    card: str
    sprocket: int
    top: tuple[str, ...] = ()


class CrankContraptions(Command):
    """CT-4: crank these contraptions on the cranking sprocket, in this order (none is fine)."""

    cards: tuple[str, ...] = ()


class IdentifyContraption(Command):
    """A physical card was tapped or named (CT-6)."""

    card: str


class ScrapContraption(Command):
    """CT-5: an assembled contraption leaves the battlefield (not to exile): its owner's scrapyard.

    Without ``card``: the contraption last tapped on the reader.
    """

    card: str | None = None
    owner: int | None = None


class ExileContraption(Command):
    card: str | None = None
    owner: int | None = None


class ReassembleContraption(Command):
    """Move an assembled contraption to another sprocket (a card says "reassemble")."""

    sprocket: int
    card: str | None = None
    owner: int | None = None


class UnexileContraption(Command):
    """CT-5: an exiled contraption returns to the battlefield unassembled: the scrapyard."""

    card: str
    owner: int | None = None


class CopyEnters(Command):
    """CT-5: a copy of a contraption enters without being assembled (``owner`` controls it)."""

    card: str
    owner: int
