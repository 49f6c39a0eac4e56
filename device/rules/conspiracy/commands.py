"""Conspiracy's commands: what a player asks for."""

from device.commands import Command


class PassGroupTurn(Command):
    """It is now this player's turn in their group (the tables report it)."""

    seat: int


class LeaveGroup(Command):
    """These players left their groups' games at the same moment (a table reports it, CJ-4)."""

    seats: tuple[int, ...]


class StartClock(Command):
    now: float  # seconds, from the controller's clock


class CallTime(Command):
    now: float


class FinishExtraTurns(Command):
    """A group's extra lap is over: rank its players still in by life (CJ-5)."""

    group: str
