"""What the screen remembers that is not the game: the screen shown, cursors, forms, the status
line, animations.  Actions are what inputs mean to the screen, before they mean anything to the
game.

Only the kiosk's loop changes a ``UiState``; ``render`` reads it, and returns what a frame laid
out that inputs need (``Drawn``) for the loop to keep.  An animation or a message
that expires is a deadline here, so the loop knows when to wake and redraw.
"""

from __future__ import annotations

from typing import TypeVar

from msgspec import Struct, field

from device.inputs import ButtonPressed
from device.text import Message
from display.i18n import Translator


# --- actions: inputs as the screen sees them ------------------------------------------------


#: A button: GPIO, a key standing in for it, or its touch button.  It is the input event itself,
#: so a press from the queue reaches the screen and then the controller as the same object.
Press = ButtonPressed


class Turn(Struct, frozen=True):
    """The encoder (or ↑/↓, +/−, PgUp/PgDn) moved ``steps``."""

    steps: int


class Focus(Struct, frozen=True):
    """←/→: the previous or next seat or field."""

    delta: int


class Go(Struct, frozen=True):
    """Show another screen by its registered name."""

    screen: str


class Tap(Struct, frozen=True):
    """A touch target's own action: each kind is a subclass carrying what it needs (the table's
    ``LifeStep(2, -1)``: a seat's lower half), declared beside the screen that draws and handles
    it; those of the frame around every screen are below."""


class OpenStatus(Tap, frozen=True):
    """The status line: its texts shown whole, over the screen."""


class CloseStatus(Tap, frozen=True):
    """The status texts shown whole: closed."""


class MoreButtons(Tap, frozen=True):
    """The touch bar's last button: the menu of the buttons it had no room for."""


class CloseMenu(Tap, frozen=True):
    """Outside the touch bar's menu: closed."""


class MenuButton(Tap, frozen=True):
    """One of the touch bar's menu's buttons: its ``action``."""

    action: Action


class NextHelpPage(Tap, frozen=True):
    """The keys overlay: its next page (the last closes it)."""


class EnrolTag(Tap, frozen=True):
    """The status line's offer for an unknown tag: the enrol screen for ``uid``."""

    uid: str


class Type(Struct, frozen=True):
    """Typed text (names at set-up)."""

    text: str


class Erase(Struct, frozen=True):
    pass


class Back(Struct, frozen=True):
    pass


class ToggleHelp(Struct, frozen=True):
    pass


class Redo(Struct, frozen=True):
    pass


class Quit(Struct, frozen=True):
    pass


class Touched(Struct, frozen=True):
    """A touch as the touch device reported it, before calibration (fractions of its range), on
    a picture turned ``rotate`` degrees: for a screen that asks for raw touches (calibrating)."""

    device: tuple[float, float]
    rotate: int = 0


Action = Press | Turn | Focus | Go | Tap | Type | Erase | Back | ToggleHelp | Redo | Quit | Touched


# --- timed lines ----------------------------------------------------------------------------


class Line(Struct):
    """A status text shown until ``until`` (monotonic seconds; None: until replaced).  A
    message is worded when it is drawn, in the screen's language then (``UiState.words``).

    ``offer`` is what the status line offers while it shows this text (an unknown tag: enrol
    it): a chip labelled ``offer_label`` beside the text does it when touched, and so does
    SELECT."""

    text: str | Message
    until: float | None = None
    key: str = ""
    offer: Action | None = None
    offer_label: str | Message = ""

    def live(self, now: float) -> bool:
        return self.until is None or now < self.until


class DieRoll(Struct):
    """The planar die's last result, shown at once; ``until`` ends its short tumble; at
    ``back`` the table comes back by itself, unless the roll left something to answer there or
    a player went on using the Planechase screen (then None)."""

    face: str  # "blank", "chaos", "planeswalk"
    started: float
    until: float
    seq: int = 0
    back: float | None = None


class Drawn(Struct, frozen=True):
    """What a frame laid out that the UI state keeps for the inputs and the frames after it: the
    status line's text and how many pages it took, the room a steady screen keeps for the status
    line (``Screen.steady_status``), and how many pages the keys overlay took (None: not shown)."""

    status: str
    status_pages: int
    status_floor: int
    help_pages: int | None = None


S = TypeVar("S")


class UiState(Struct):
    language: str = "en"
    screen: str = "table"
    fps: int = 20  # animation frames per second
    help: bool = False
    help_page: int = 0  # the keys' page shown
    help_pages: int = 1  # how many pages the keys took when last drawn (the screen's size decides)
    cursor: int | None = None  # the highlighted seat on the table; None: the active player
    error: Line | None = None
    said: list[Message] = field(default_factory=list)  # what the last command said
    messages_until: float | None = None
    reader: Line | None = None  # reader connection, persistent while disconnected
    card: Line | None = None  # "card read: X" or an unknown tag's enrol offer, briefly
    status_seen: tuple[str, float] = (
        "",
        0.0,
    )  # the status text last drawn, and since when (its pages)
    status_pages: int = (
        1  # how many pages that text took when last drawn (the screen's size decides)
    )
    #: The status line's room on a steady screen since the last input: a message timing out
    #: leaves it, so the screen's chips do not move under a finger (``Screen.steady_status``).
    status_floor: int = 0
    status_open: tuple[
        str, ...
    ] = ()  # the status texts shown whole over the screen (a tap opened them)
    menu: bool = False  # the touch bar's menu of the buttons it had no room for is open
    die: DieRoll | None = None
    last_change: list[Message] = field(default_factory=list)  # what UNDO would take back
    last_change_at: float | None = (
        None  # when that change was made (wall clock): a finished game's clock stops there
    )
    timer_called: tuple[int | None, int] | None = (
        None  # the (game, turn) whose turn timer ran out and was said
    )
    #: A touch screen on the Pi's console whose touches can be calibrated: "" none seen,
    #: "touch" one, "resistive" one that reports pressure (an SPI panel's, which needs calibrating).
    touch_screen: str = ""
    # Each screen's own state (cursors, picks, forms): one frozen dataclass per screen, kept by its
    # type, so reading it back is typed (``state_of``) and changing it is a new value (``put``).
    screen_states: dict[type, object] = field(default_factory=dict)
    quit: bool = False

    def kept(self, kind: type[S]) -> S | None:
        """The screen state of type ``kind`` kept now, if any."""
        found = self.screen_states.get(kind)
        return found if isinstance(found, kind) else None

    def state_of(self, kind: type[S]) -> S:
        """The screen state of type ``kind`` kept now, else a fresh one (not kept until ``put``)."""
        found = self.kept(kind)
        return kind() if found is None else found

    def put(self, state: S) -> S:
        """Keep ``state`` as its screen's state from now on (in place of the one before)."""
        self.screen_states[type(state)] = state
        return state

    def drop(self, kind: type) -> None:
        """Forget the screen state of type ``kind`` (the screen starts afresh)."""
        self.screen_states.pop(kind, None)

    # What is said is kept as messages and worded when drawn, so switching the language changes
    # every text on the screen at once.

    def words(self, text: str | Message) -> str:
        """A text in the screen's language now."""
        return Translator(self.language).message(text) if isinstance(text, Message) else text

    @property
    def messages(self) -> list[str]:
        """What the last command said, in the screen's language now."""
        tr = Translator(self.language)
        return [tr.message(m) for m in self.said]

    def deadlines(self) -> list[float]:
        found = [
            line.until
            for line in (self.error, self.card, self.reader)
            if line is not None and line.until is not None
        ]
        if self.messages_until is not None:
            found.append(self.messages_until)
        if self.die is not None and self.die.until > self.die.started:
            found.append(self.die.until)
        return found

    def keep(self, text: str, until: float) -> None:
        """Keep the status text ``text`` (a refusal, a card line or the messages) shown until
        ``until`` at least: a text that turns pages stays until its last page has been shown."""
        for line in (self.error, self.card):
            if line is not None and self.words(line.text) == text:
                if line.until is not None and line.until < until:
                    line.until = until
                return
        if self.messages and " ".join(self.messages) == text and self.messages_until is not None:
            self.messages_until = max(self.messages_until, until)

    def laid_out(self, drawn: Drawn, now: float) -> None:
        """Keep what the frame drawn at ``now`` laid out (``Drawn``)."""
        if self.status_seen[0] != drawn.status:
            self.status_seen = (drawn.status, now)
        self.status_pages = drawn.status_pages
        self.status_floor = drawn.status_floor
        if drawn.help_pages is not None:
            self.help_pages = drawn.help_pages
            self.help_page = min(self.help_page, drawn.help_pages - 1)

    def expire(self, now: float) -> bool:
        """Drop what has timed out; True if anything on screen changes."""
        changed = False
        for name in ("error", "card", "reader"):
            line = getattr(self, name)
            if line is not None and not line.live(now):
                setattr(self, name, None)
                changed = True
        if self.messages_until is not None and now >= self.messages_until:
            self.said, self.messages_until = [], None
            changed = True
        if self.die is not None and now >= self.die.until and self.die.until > self.die.started:
            self.die.until = self.die.started  # the tumble is over; the face stays
            changed = True
        return changed
