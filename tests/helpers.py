"""Small helpers the tests share: the current state, a refusal that changed nothing, and a
pseudo-terminal standing in for a serial reader."""

from __future__ import annotations

import os

import pytest

from device.commands import Command
from device.controller import Controller
from device.errors import IllegalCommand
from device.state import GameState


def state(controller: Controller) -> GameState:
    assert controller.state is not None
    return controller.state


def play_step(controller: Controller, step: Command | str) -> None:
    """One generated step: a command, or "undo" / "redo"; a refusal is part of the game."""
    try:
        if step == "undo":
            controller.undo()
        elif step == "redo":
            controller.redo()
        else:
            assert isinstance(step, Command)
            controller.execute(step)
    except IllegalCommand:
        pass


def refused(controller: Controller, command: Command) -> str:
    """The reason ``command`` is refused; asserts the refusal changed nothing."""
    before = controller.state
    with pytest.raises(IllegalCommand) as error:
        controller.execute(command)
    assert controller.state == before
    return str(error.value)


class Pty:
    """A pseudo-terminal pair; the reader opens ``path``, the test plays the reader module."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)  # the reader opens it by path, like a real port

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        if self.master >= 0:
            os.close(self.master)
            self.master = -1
