"""Necromancer's commands: what a player asks for."""

from device.commands import Command


class Blame(Command):
    """Set who was responsible for the latest loss (NC-1): a player, or nobody (None)."""

    seat: int
    responsible: int | None = None


class SoloTurn(Command):
    """A minion finished one of their three solo turns (NC-3)."""

    seat: int
