"""Facts about hardware, with no game meaning.

Drivers (GPIO buttons, the keyboard, touch, the RFID reader, the link to an event's broker) only
ever produce these immutable values and put them on the input queue; the controller, on the game's one thread, decides what
they mean given the state and the screen.
"""

from __future__ import annotations

import enum
import queue
from dataclasses import dataclass


class Button(enum.StrEnum):
    """The gadget's buttons.  Keyboard keys and touch targets stand in for the same names."""

    ROLL = "roll"  # the big table button
    NEXT = "next"  # pass the turn / advance
    UNDO = "undo"
    SELECT = "select"  # the rotary encoder's push


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    """A button went down and came up (or was held past ``hold_time``: ``long``).

    ``repeat`` counts auto-repeats of a held button (0 for the press itself).
    """

    button: Button
    long: bool = False
    repeat: int = 0


@dataclass(frozen=True, slots=True)
class EncoderTurned:
    """The rotary encoder moved ``steps`` detents; positive is clockwise."""

    steps: int


@dataclass(frozen=True, slots=True)
class TagRead:
    """A tag was placed on the reader.  ``uid`` is upper-case hex without separators.

    A tag held on the reader is one ``TagRead``; it is not repeated until it has been removed.
    """

    uid: str
    reader: str = ""


@dataclass(frozen=True, slots=True)
class TagRemoved:
    """The tag last read has been away from the reader for the presence timeout."""

    uid: str
    reader: str = ""


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    """The reader was found, lost, or could not be opened; ``detail`` is for the status line."""

    connected: bool
    port: str = ""
    protocol: str = ""
    detail: str = ""


@dataclass(frozen=True, slots=True)
class BrokerMessage:
    """A message came from the event's broker (an event across tables): its topic and bytes,
    as they arrived; what they mean is read on the game's thread."""

    topic: str
    payload: bytes
    retained: bool = False  # kept by the broker and sent on subscribing, not published just now


@dataclass(frozen=True, slots=True)
class BrokerStatus:
    """The link to the broker came up (``connected``), went down, or the broker refused to take
    a message on ``refused`` (a topic this gadget's login may not write); ``detail`` says why."""

    connected: bool
    detail: str = ""
    refused: str = ""


@dataclass(frozen=True, slots=True)
class BrokerTrouble:
    """The link cannot trust the broker it reached, or has nothing to trust it with: ``key`` is
    the text that says what to do (the event's certificate authority ``ca`` missing, or the
    broker's certificate not signed by it), ``reason`` TLS's own words, ``broker`` where."""

    key: str
    broker: str
    ca: str
    reason: str = ""


InputEvent = (
    ButtonPressed
    | EncoderTurned
    | TagRead
    | TagRemoved
    | ReaderStatus
    | BrokerMessage
    | BrokerStatus
    | BrokerTrouble
)

#: The queue drivers put input events on and the game's thread drains.
InputQueue = queue.Queue[InputEvent]


def normalise_uid(text: str) -> str:
    """``"04:a1:b2:c3"`` / ``"04-A1-B2-C3"`` / ``"04a1b2c3"`` → ``"04A1B2C3"``.

    Raises ``ValueError`` naming the text when it is not an even number of hex digits.
    """
    cleaned = "".join(ch for ch in text.strip() if ch not in ":- ")
    if not cleaned or len(cleaned) % 2 or any(ch not in "0123456789abcdefABCDEF" for ch in cleaned):
        raise ValueError(f"{text!r} is not a tag UID: expected hex bytes such as 04:A1:B2:C3")
    return cleaned.upper()
