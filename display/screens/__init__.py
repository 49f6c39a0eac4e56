"""Screens: what a screen is, and what every screen is given.

A screen is a class with a ``name``; the kiosk shows one at a time, and every screen it has is
listed, in order, in ``display/screens/lineup.py`` (none registers itself when imported).
``draw(view)`` draws it from the game state and the UI state (through ``view.canvas``, which
records texts and touch targets) and changes nothing; ``act(host, action)`` handles an action
meant for it and returns True, or returns False to let the kiosk's common handling (ROLL, NEXT,
UNDO go to the controller; ``Go`` switches screens) take it.

A screen also carries what its format plugs into the rest of the kiosk, and the kiosk asks every
listed screen, in order: the home of a base format (``base``) words the header of its games and
may be their table (``is_table``); a module's screen adds to the table (upkeep items and details,
a seat's badges, the strip under the seats) and names the buzzer's cues for its events.  The
shared parts ask the screens too, so none of them names a format: whether the touch bar offers
ROLL (``offers_roll``), which cards a tag may be enrolled as (``tag_kinds``), what a set-up
starts when the format is an event's (``gathering``), and what to lay out ahead while the kiosk
waits (``ahead_key``, ``ahead``).

Adding a screen (say for Contraptions)::

    # display/screens/contraptions.py
    from display.screens import Screen, View

    class Contraptions(Screen):
        name = "contraptions"
        button = "ui.btn.contraptions"   # its button in the touch bar (a text key), or "" for none
        key = "c"                        # the key that shows it, or "" for none

        def available(self, state):     # shown (and in the bar) only in games with the module
            return state is not None and state.has("contraptions")

        def upkeep_items(self, state, tr):   # the upkeep banner's lines in games with the module
            return [tr("ui.ct.item.crank", ...)] if state.contraptions is not None else []

        def draw(self, view):
            view.canvas.text(view.tr("ui.ct.title"), (view.layout.margin, view.top), view.layout.big, TEXT)

then put one in ``SCREENS`` in ``display/screens/lineup.py`` (its place there is its place in the
touch bar), write its texts in its format's module in ``display/i18n/`` (named in ``DOMAINS`` in
``display/i18n/domains.py``; with ``ui.help.screen.<name>``: what its key shows, for the keys
overlay, which lists every available screen's key by itself), and
screenshot tests by adding its scenes to ``SCENES`` in ``tests/display/scenes.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from msgspec import Struct, field

from device.catalog import Card, CardKind
from device.commands import Command
from device.controller import Result
from device.errors import IllegalCommand
from device.events import Event, GameStarted
from device.games import SavedGame
from device.inputs import Button, ButtonPressed
from device.journal import Txn
from device.state import GameState, Player
from device.text import Message
from display.canvas import Canvas
from display.i18n import Translator
from display.layout import Layout
from display.touch import Calibration
from display.ui import Action, DieRoll, Focus, Turn, UiState
from drivers.feedback import Cue


class View(Struct):
    """What a screen draws from.  ``top``/``bottom`` bound the screen's own area (between the
    header and the status line)."""

    state: GameState | None
    ui: UiState
    canvas: Canvas
    tr: Translator
    now: float  # monotonic seconds, for animations and timed lines
    wall: float  # wall-clock seconds, for the game clock
    top: int
    bottom: int
    screens: Mapping[
        str, Screen
    ]  # every screen, in the kiosk's order (the table asks them what they add)
    #: What this frame worked out once and asks again (a seat's badges, when its tile is planned
    #: and when it is drawn): the state and the screen's state cannot change within a frame.
    memo: dict[Hashable, Any] = field(default_factory=dict)

    @property
    def layout(self) -> Layout:
        return self.canvas.layout


class Host(Protocol):
    """What a screen may ask of the kiosk when it acts (all on the loop's thread)."""

    @property
    def state(self) -> GameState | None: ...

    @property
    def ui(self) -> UiState: ...

    @property
    def tr(self) -> Translator: ...

    def execute(self, command: Command) -> Result | None:
        """Run a command through the controller; a refusal is shown and returns None."""

    def preview(self, command: Command) -> Result | None:
        """What ``command`` would do now, without doing it; a refusal is shown and returns None."""

    def say(self, message: Message) -> None:
        """Say ``message`` on the status line, as a command's result is said."""

    def press(self, press: ButtonPressed) -> Result | None: ...

    def load(self, game: int) -> Result | None:
        """Show another saved game (its number in the journal); a refusal is shown."""

    @property
    def game(self) -> int | None:
        """The number of the saved game shown."""

    def games(self) -> dict[int, GameStarted]:
        """Every saved game by number, as it started: formats, players, table options; the game
        played last first.  A game whose start cannot be read is left out."""

    def saved_games(self) -> list[SavedGame]:
        """Every saved game as it is listed (formats, players, how far it got), the game played
        last first: read from the journal, so a screen keeps what it read."""

    def saved_count(self) -> int:
        """How many saved games there are (one read of the journal, however long the games)."""

    def delete(self, game: int) -> Result | None:
        """Delete saved game ``game`` for good (the game shown too: then none is); a refusal is
        shown and returns None."""

    def clock(self) -> float:
        """The controller's wall clock: what commands that carry the time ("now") take."""

    def refuse(self, error: IllegalCommand) -> None:
        """Show why something was refused (as ``execute`` does for the controller's refusals)."""

    def go(self, screen: str) -> None: ...

    def calibrate(self, calibration: Calibration) -> None:
        """Take touches through ``calibration`` from now on, keep it for the next start, and say
        so (or that it could not be kept)."""

    def enrol(self, uid: str, card: Card) -> bool:
        """Enrol tag ``uid`` as ``card`` in the tag map, then act on the tap as if the card had
        been known; False (the reason shown) when the tag map cannot be written."""

    def history(self) -> list[Txn]: ...

    def join_event(self, name: str) -> None:
        """Join the event ``name`` at the broker as this gadget's table (what follows is shown)."""

    def host_event(self, name: str, players: Sequence[str], options: Mapping[str, str]) -> bool:
        """Draw and publish an event for the tables at the broker (the organiser's gadget);
        False (the reason shown) when it cannot: no broker, not the organiser, no table."""

    def rule_event(self, pod: int, redraw: bool) -> None:
        """The organiser's ruling on a correction of pod ``pod``'s round 1 after round 2 began:
        round 2 drawn again from the corrected round 1, or kept (the reason shown if refused)."""

    def move_group(self, pod: int, group: str, table: str) -> None:
        """The organiser's ruling: a group not begun yet is played at ``table`` (refused with the
        reason shown)."""

    def count_gadget(self, table: str, gadget: str) -> None:
        """The organiser's ruling: at ``table``, ``gadget``'s accounts count ("": the furthest)."""

    def start_round_clock(self, round: int) -> None:
        """The organiser starts round ``round``'s clock for every table of the event it drew
        (the reason shown if refused)."""

    def now(self) -> float: ...

    @property
    def screens(self) -> Mapping[str, Screen]:
        """Every screen by name, in the kiosk's order."""


class Detail(Struct, frozen=True):
    """A title and a longer text under the upkeep banner's items, shown as large as the banner's
    room allows (Planechase: a face-up plane's rules text)."""

    title: str
    text: str
    role: str = (
        "banner.detail"  # the title's role in the drawing record; the text's is role + ".text"
    )
    #: A card whose picture, when the card data has one, shows small beside the title (where
    #: the banner has the room); ``landscape``: a planar card, printed sideways.
    picture: str = ""
    landscape: bool = False


class Strip(Struct, frozen=True):
    """A line under the seats outside the upkeep banner (Planechase: the face-up planes);
    tapping it shows the screen ``go``."""

    text: str
    role: str
    go: str = ""
    #: A card whose picture, when the card data has one, shows small beside the text (where the
    #: strip has the room); ``landscape``: a planar card, printed sideways.
    picture: str = ""
    landscape: bool = False
    #: What the card does that the table needs at a glance (a plane's chaos ability), beside the
    #: text where the strip has the room to show it whole.
    detail: str = ""


class Gathering(Protocol):
    """A base format whose set-up starts a whole event rather than one game (Conspiracy's pods,
    CJ-1): the set-up asks for the event's name and its players and leaves the rest to this."""

    @property
    def fewest(self) -> int:
        """How few players an event has."""

    @property
    def options(self) -> Sequence[str]:
        """The table options the event sets itself: the set-up neither shows nor hands them on."""

    def split(self, players: int) -> list[int]:
        """How ``players`` are split between the event's games, largest first."""

    def entered(self, started: Mapping[int, GameStarted], game: int) -> tuple[list[str], str]:
        """The players of the event saved game ``game`` belongs to, every game's in order, and
        the event's name ("" if it had none)."""

    def start(
        self,
        host: Host,
        event: str,
        players: Sequence[str],
        options: Mapping[str, str],
        modules: Sequence[str],
    ) -> None:
        """Start every game of event ``event`` (the reason shown if refused) and show it."""


class Ahead(Struct, frozen=True):
    """A command's result a screen expects to show soon, for the kiosk to lay out ahead while it
    waits (``display.rehearsal``): what it is, for the log ("the next planeswalk"), the screens
    that show it in order, the die as they would show it, and when what the result said stops
    showing (monotonic seconds)."""

    what: str
    result: Result
    screens: tuple[str, ...]
    die: DieRoll | None
    said_until: float


class Screen:
    name: ClassVar[str] = ""
    button: ClassVar[str] = ""  # text key of its touch-bar button; "" = not in the bar
    key: ClassVar[str] = ""  # keyboard key that shows it
    #: A button whose long press shows it from any screen (and, on it, goes back to the table),
    #: before the screen shown acts on the press: the one way to it for hands on the GPIO buttons.
    held: ClassVar[Button | None] = None
    #: The base format this screen is the home of: in its games the header asks this screen for
    #: the headline (``headline``), the corner's turn text (``turn_text``) and, with
    #: ``own_clock``, the clock it counts down (``countdown``) in place of the turn timer.  ""
    #: for none.
    base: ClassVar[str] = ""
    own_clock: ClassVar[bool] = False
    #: While this screen shows, the header shows how long the game has been played (the table),
    #: and a touch on that clock pauses or resumes it.
    shows_played: ClassVar[bool] = False
    #: The screen draws the whole picture: no header, status line or touch bar (the touch
    #: calibration's crosses stand at fixed places on it).
    whole: ClassVar[bool] = False
    #: In a game of ``base`` the table draws and acts through this screen (a Wizard's Duel counts
    #: magic points and dice, not life).
    is_table: ClassVar[bool] = False
    #: Until the next input, the screen keeps the room the status line took, so its chips stay
    #: where they are when a message times out (a tap on its way lands on its chip).
    steady_status: ClassVar[bool] = False

    def available(self, state: GameState | None) -> bool:
        return True

    def shown(self, state: GameState | None, ui: UiState) -> bool:
        """Whether the kiosk offers this screen now (its key, its button, showing it): where it
        is ``available`` in the game shown, unless what it shows is not the game's (the event
        across tables a gadget linked to a broker is in)."""
        return self.available(state)

    def enter(self, host: Host) -> None:
        """Called when the screen is shown."""

    def draw(self, view: View) -> None:
        raise NotImplementedError

    def act(self, host: Host, action: Action) -> bool:
        return False

    def deadline(self, view: View) -> float | None:
        """When this screen next needs the loop to wake (monotonic seconds), if ever."""
        return None

    def tick(self, host: Host) -> bool:
        """Called when a deadline passes; True if the screen changed (an animation frame)."""
        return False

    def wants_text(self, ui: UiState) -> bool:
        """True while typed keys are text for this screen rather than shortcuts."""
        return False

    def wants_raw_touch(self, ui: UiState) -> bool:
        """True while touches go to this screen as the device reported them (``Touched``), not
        to the canvas's touch targets (calibrating the touch screen)."""
        return False

    def after(self, host: Host, result: Result) -> None:
        """Called after every command that went through (whichever screen is showing)."""

    def before(self, host: Host, going: str | None) -> None:
        """Called before a command runs (``going`` None) or a screen comes up (``going``: its
        name), whichever screen is showing: a change a screen shows but holds back (the table's
        pending life change) is made now, or handed to the screen coming up, so nothing happens
        ahead of it."""

    def follows(self, events: Sequence[Event]) -> bool:
        """True if the screen should come up when a command caused ``events`` (a die roll
        brings up the Planechase screen, a new turn the table)."""
        return False

    def cue(self, event: Event) -> Cue | None:
        """The buzzer and LED's cue for an event of this screen's format (Planechase: a
        planeswalk chimes, a chaos roll beeps and flashes), if it calls for one."""
        return None

    # What the home of a base format (``base``) words in the header of its games.

    def headline(self, state: GameState, tr: Translator) -> str | None:
        """The header's headline (whose move it is); None: the table's, whose turn or upkeep."""
        return None

    def turn_text(self, state: GameState, tr: Translator) -> str | None:
        """What the header's corner says instead of the turn counter ("" for nothing); None:
        the turn counter."""
        return None

    def countdown(self, state: GameState, wall: float) -> float | None:
        """With ``own_clock``: seconds left on the game's own clock (a Conspiracy pod's round),
        or None while it is not running; the header counts it down instead of a turn timer."""
        return None

    # What a screen adds to the table, asked of every screen in the kiosk's order (a module's
    # screen adds something in games with the module).

    def upkeep_items(self, state: GameState, tr: Translator) -> list[str]:
        """What the active player must do in their upkeep, for the banner (already in the
        table's language): Contraptions "Crank sprocket 2: Boomflinger"."""
        return []

    def upkeep_details(self, state: GameState, tr: Translator) -> list[Detail]:
        """Details under the banner's items (Planechase: a face-up plane's rules text)."""
        return []

    def seat_badges(self, view: View, state: GameState, player: Player) -> list[str]:
        """What a seat's tile says under the name (Necromancer: "minion of Alice · solo 1/3")."""
        return []

    def table_strips(self, state: GameState, tr: Translator) -> list[Strip]:
        """The strip under the seats, outside the upkeep banner (Planechase: the face-up planes)."""
        return []

    # What the shared parts of the kiosk ask every screen, so that none of them names a format.

    def offers_roll(self, state: GameState) -> bool:
        """ROLL means something in this game (Planechase: the planar die), so the touch bar
        offers it first."""
        return False

    def tag_kinds(self, state: GameState) -> frozenset[CardKind]:
        """The kinds of card this screen's format plays with in this game, which a tag tapped
        unknown is likely to be (Planechase: planes and phenomena); empty for none."""
        return frozenset()

    def gathering(self, base: str) -> Gathering | None:
        """What a set-up of base format ``base`` starts when that is an event of this screen's
        format rather than one game (Conspiracy: a pod's event); None otherwise."""
        return None

    def ahead_key(self, state: GameState) -> Hashable:
        """What in ``state`` decides the result ``ahead`` lays out (Planechase: the next plane):
        the kiosk lays it out again only when this changes.  None: nothing to lay out."""
        return None

    def ahead(
        self, preview: Callable[[Command], Result], state: GameState, ui: UiState, now: float
    ) -> Ahead | None:
        """A result this screen expects to show soon (``preview`` tries a command without
        keeping it and raises ``IllegalCommand`` if the rules refuse it); None if none is known."""
        return None


def sends(command: Command) -> Callable[[Host, object], None]:
    """What picking a chip that asks the rules for ``command`` does (the chip carries it): send
    it, whatever the screen's own state."""

    def pick(host: Host, form: object) -> None:
        host.execute(command)

    return pick


def chip_step(action: Action) -> int | None:
    """How far a list's cursor moves for ``action``: the encoder (↑/↓) or ←/→, the same way on
    every screen — a clockwise turn (↑) and → go to the next item.  None for other actions."""
    if isinstance(action, Turn):
        return action.steps
    if isinstance(action, Focus):
        return action.delta
    return None


def chip_window(count: int, cursor: int, fit: int) -> range:
    """The chips of a list of ``count`` shown when only ``fit`` fit: a window that keeps the
    cursor's chip in view (the list scrolls as the cursor moves)."""
    if count <= fit:
        return range(count)
    start = min(max(0, cursor - (fit - 1) // 2), count - fit)
    return range(start, start + fit)


def home(screens: Iterable[Screen], state: GameState | None) -> Screen | None:
    """The screen that is the home of the game's base format (``Screen.base``), if one is."""
    if state is None or not state.formats:
        return None
    return next((scr for scr in screens if scr.base == state.formats[0]), None)


T = TypeVar("T")


def cycle(values: Sequence[T], current: T, steps: int) -> T:
    """The value ``steps`` on from ``current`` in ``values``, round the end (from the first if
    ``current`` is not one of them): what turning the encoder does to a choice."""
    index = list(values).index(current) if current in values else 0
    return values[(index + steps) % len(values)]
