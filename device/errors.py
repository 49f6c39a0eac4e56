"""One exception root for aetherbox.

Every leaf also inherits the built-in exception it resembles, so callers who know nothing about
aetherbox can still catch ``ValueError`` or ``FileNotFoundError``.  Messages name the offending
value and say what to do next.  Game over and deck-legality problems are values, not exceptions.
"""

from __future__ import annotations

from typing import Any

from device.text import render


class AetherboxError(Exception):
    """Root of every error aetherbox raises on purpose."""


class IllegalCommand(AetherboxError, ValueError):
    """A command the rules refuse.  Nothing changed; the message tells the player why.

    ``key`` and ``params`` let a screen show the reason in the table's language; ``str(error)``
    is the English text.
    """

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(render(key, params))


class UnknownName(IllegalCommand):
    """A player, format, option or card name that matches nothing (or more than one thing)."""


class ConfigError(AetherboxError, ValueError):
    """The configuration file cannot be used as it is."""


class JournalError(AetherboxError):
    """The saved-games journal cannot be used.  The file is never overwritten.

    ``problem`` is what is wrong; ``advice``, what to do about the file when nobody recovers it
    (one named with ``--db``): ``device.recovery`` says the problem alone, having done that."""

    def __init__(self, path: object, problem: str, advice: str = "") -> None:
        self.path = path
        self.problem = problem
        self.advice = advice
        super().__init__(f"{path}: {problem}. {advice}" if advice else f"{path}: {problem}")


class JournalCorrupt(JournalError, ValueError):
    """The journal file is damaged or is not an aetherbox journal."""


class GameDamaged(JournalCorrupt):
    """One saved game's rows no longer say what they said (a checksum fails, an event cannot be
    read), in a file SQLite reads well: damage like any other when the game is played, but the
    list of saved games can still name that game, and it can be deleted."""


class JournalTooNew(JournalError, ValueError):
    """The journal was written by a newer aetherbox."""


class JournalLocked(JournalError, BlockingIOError):
    """Another process holds the journal."""


class JournalUnreadable(JournalError, PermissionError):
    """The journal or its directory cannot be read or written."""


class JournalIOFailure(JournalError, OSError):
    """The storage failed while writing.  Fatal: the process ends and its service restarts it.

    A failed commit is never retried: SQLite's state after a failed fsync is unknown.
    """


class DeviceNotFound(AetherboxError, FileNotFoundError):
    """A piece of hardware (serial port, screen, GPIO chip) is not there."""


class DeviceBusy(AetherboxError, BlockingIOError):
    """A piece of hardware is there but another program holds it."""


class DevicePermission(AetherboxError, PermissionError):
    """A piece of hardware is there but this user may not open it."""
