"""``render``: the whole frame as a function of the game state and the UI state.

The frame is a header (turn and the game's day or night, whose upkeep or turn it is in big
letters, the game clock), the current screen, the status line (a refused command's reason, what
the last command did, the reader; two lines when one is not enough, and pages beyond that), and a
bar of touch buttons.
Rendering changes neither the game nor the UI state: what a frame laid out that the next input
needs (how many pages the keys overlay and the status line took at this screen size, the text
the status line showed, the room a steady screen keeps) is returned (``Drawn``) for the loop to
keep in the UI state.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Sequence

from msgspec import Struct
from msgspec.structs import replace

from device.inputs import Button
from device.rules import counters as marking
from device.rules.clock import clock_time, hours_minutes
from device.rules.colours import colour_of
from device.rules.table import winner_name
from device.rules.teams import turn_name
from device.state import GameState, Step
from device.rules.registry import outcome
from display import symbols, theme
from display.canvas import Canvas, Rect, joiners
from display.clocks import countdown
from display.fonts import Color
from display.i18n import Translator
from display.screens import Screen, View, home
from display.screens.lineup import SCREENS
from display.screens.table import LOOKS, played, portrait, shared_turn, stand_in
from display.status import (
    STATUS_LINES,
    STATUS_PAGE_SECONDS,
    Status,
    fonts_notice,
    status_since,
    status_text,
)
from display.ui import (
    Action,
    CloseMenu,
    CloseStatus,
    Drawn,
    Go,
    MenuButton,
    MoreButtons,
    NextHelpPage,
    OpenStatus,
    Press,
    Redo,
    ToggleHelp,
    UiState,
)


def clock_text(left: float, tr: Translator) -> str:
    if left <= 0:
        return tr("ui.clock_up")
    return tr("ui.clock", time=clock_time(left, countdown=True))


def headline(state: GameState | None, tr: Translator) -> str:
    if state is None:
        # The screen below says there is no game and how to start one: the header only names
        # the gadget, rather than saying the same words twice.
        return tr("ui.title")
    result = outcome(state)
    if result is not None:
        return (
            tr("ui.draw")
            if result.winner is None
            else tr("ui.winner", name=winner_name(state, result))
        )
    own = home(SCREENS.values(), state)
    text = own.headline(state, tr) if own is not None else None
    if text is not None:
        return text
    name = turn_name(state)
    return tr("ui.upkeep_of" if state.step is Step.UPKEEP else "ui.turn_of", name=name)


def _fits(canvas: Canvas, text: str, width: int, size: int, *, bold: bool = False) -> bool:
    return canvas.fonts.measure(text, size, bold)[0] <= width


#: Draws a symbol in a square of ``size`` pixels around a point (``display.symbols``).
Symbol = Callable[[Canvas, tuple[float, float], float, Color], None]


class Corner(Struct, frozen=True):
    """A line in a corner of the header: its text, the type size it wants, its colour and role,
    and a symbol before it."""

    text: str
    size: int
    color: Color
    role: str
    symbol: Symbol | None = None


def corners(
    canvas: Canvas, state: GameState, ui: UiState, tr: Translator, wall: float, shows_played: bool
) -> tuple[list[Corner], list[Corner]]:
    """The header's corners: at the left the turn and, where the screen shows it, the time
    played (a dial while the clock runs, two bars while it is paused); at the right the countdown
    and, when the turn order is reversed, that."""
    lay = canvas.layout
    side = canvas.width // 5
    left: list[Corner] = []
    right: list[Corner] = []
    own = home(SCREENS.values(), state)
    turn = own.turn_text(state, tr) if own is not None else None
    if turn is None:
        turn = tr("ui.turn", turn=state.turn)
    if turn:
        left.append(Corner(turn, lay.medium, theme.DIM, "header.turn"))
    seconds = played(state, ui, wall)
    if shows_played and seconds is not None and state.clock is not None:
        paused = state.clock.paused
        left.append(
            Corner(
                hours_minutes(seconds),
                lay.medium,
                theme.WARN if paused else theme.DIM,
                "header.played",
                symbols.pause if paused else symbols.clock_face,
            )
        )
    counting = countdown(state, wall)
    if counting is not None:
        text = clock_text(counting.left, tr)
        if not _fits(canvas, text, side - lay.margin, lay.tiny):
            text = clock_time(
                counting.left, countdown=True
            )  # the bare time where the words do not fit
        color = (
            theme.DIM
            if not counting.running
            else theme.ERROR
            if counting.left <= counting.warning
            else theme.TEXT
        )
        right.append(Corner(text, lay.medium, color, "header.clock"))
    if state.direction < 0:
        right.append(
            Corner(
                tr("ui.reversed"),
                lay.small,
                theme.WARN,
                "header.reversed",
                symbols.counter_clockwise,
            )
        )
    return left, right


def draw_corner(canvas: Canvas, lines: Sequence[Corner], height: int, *, right: bool) -> int:
    """``lines`` stacked in a corner of the header, each at the size it wants when alone, else
    all at one size that fits them in the header's height; returns how far from the screen's
    edge they reach."""
    lay, fonts = canvas.layout, canvas.fonts
    side = canvas.width // 5
    if not lines:
        return 0
    size = min(line.size for line in lines)
    while len(lines) > 1 and size > lay.tiny and len(lines) * fonts.line_height(size) > height:
        size -= 1
    step = height // len(lines)
    reach = 0
    for index, line in enumerate(lines):
        wanted = line.size if len(lines) == 1 else size
        y = step * index + step // 2
        icon = fonts.line_height(wanted) * 3 // 5 if line.symbol is not None else 0
        gap = lay.margin // 2 if icon else 0
        room = side - lay.margin - icon - gap
        if right:
            drawn = canvas.text(
                line.text,
                (canvas.width - lay.margin, y),
                wanted,
                line.color,
                anchor="midright",
                max_width=room,
                role=line.role,
                min_size=lay.tiny,
            )
            start = drawn.left - gap - icon
            reach = max(reach, canvas.width - start)
        else:
            start = lay.margin
            drawn = canvas.text(
                line.text,
                (start + icon + gap, y),
                wanted,
                line.color,
                anchor="midleft",
                max_width=room,
                role=line.role,
                min_size=lay.tiny,
            )
            reach = max(reach, drawn.right)
        if line.symbol is not None:
            line.symbol(canvas, (start + icon / 2, y), icon, line.color)
    return reach


def draw_header(
    canvas: Canvas,
    state: GameState | None,
    ui: UiState,
    tr: Translator,
    wall: float,
    shows_played: bool = False,
    turn: int = 0,
) -> int:
    """The header: the turn (and on the table the time played; a sun or moon when it is day or
    night) at the left, a countdown (and the turn order reversed) at the right, the headline
    between them, centred on the screen where it can be, else in the room left (smaller type,
    then two lines, before anything would be cut), and along its lower edge the colour of the
    player whose turn it is.  A touch on the time played pauses or resumes the game clock (UNDO
    held), where the header is a fingertip tall.  ``turn``: 180 turns it toward the far side of
    the table (the seats face their players, and the player whose turn it is sits there)."""
    lay, fonts = canvas.layout, canvas.fonts
    height = fonts.line_height(lay.big, True) + lay.margin
    shown = header_shows(canvas, state, ui, tr, wall, shows_played)
    key = ("header", canvas.width, height, turn, shown)
    if not canvas.replay(key):  # a header that did not change is as the last frame drew it
        with canvas.part(key), canvas.turned((0, 0, canvas.width, height), turn, theme.BG):
            _draw_header(canvas, shown, height)
    return height


class HeaderShows(Struct, frozen=True):
    """What the header shows: the colour along its lower edge (None: no game), its corners'
    lines, the game's day or night, and the headline in its colour."""

    edge: Color | None
    left: tuple[Corner, ...]
    right: tuple[Corner, ...]
    time: str | None
    headline: str
    color: Color


def header_shows(
    canvas: Canvas,
    state: GameState | None,
    ui: UiState,
    tr: Translator,
    wall: float,
    shows_played: bool,
) -> HeaderShows:
    if state is None:
        return HeaderShows(None, (), (), None, headline(state, tr), theme.TEXT)
    left, right = corners(canvas, state, ui, tr, wall, shows_played)
    playing = marking.games(state)
    # A Conspiracy pod whose groups each play their own game shows it on each group's seats.
    time = marking.counters(state).game(playing[0]).day_night if len(playing) == 1 else None
    return HeaderShows(
        theme.shade(colour_of(state.player(state.active))),
        tuple(left),
        tuple(right),
        None if time is None else time.value,
        headline(state, tr),
        theme.CURSOR,
    )


def _draw_header(canvas: Canvas, shown: HeaderShows, height: int) -> None:
    lay = canvas.layout
    canvas.box((0, 0, canvas.width, height), theme.PANEL, radius=0)
    used_left = used_right = 0
    if shown.edge is not None:
        # Under the header, the colour of the player whose turn it is.
        edge = max(2, lay.line * 2)
        canvas.box((0, height - edge, canvas.width, edge), shown.edge, radius=0)
        used_left = draw_corner(canvas, shown.left, height, right=False)
        used_right = draw_corner(canvas, shown.right, height, right=True)
        if (
            any(line.role == "header.played" for line in shown.left) and height >= lay.touch
        ):  # else UNDO held only
            canvas.target((0, 0, max(used_left, lay.touch), height), PAUSE)
        used_left = _draw_day_night(canvas, shown.time, used_left, height)
    _draw_headline(canvas, shown.headline, shown.color, height, used_left, used_right)


#: What a touch on the time played does: what UNDO held does, pause or resume the game clock.
PAUSE = Press(Button.UNDO, long=True)


def _draw_day_night(canvas: Canvas, time: str | None, left: int, height: int) -> int:
    """The game's day or night (``time``), a sun or a moon after the turn; returns where the
    corner now ends."""
    if time is None:
        return left
    lay = canvas.layout
    size = canvas.fonts.line_height(lay.medium) * 4 // 5
    x = left + lay.margin if left else lay.margin
    look = LOOKS[time]  # drawn as on a pod's seats
    assert look.icon is not None
    look.icon(canvas, (x + size / 2, height / 2), size, look.color)
    canvas.shape(time, (x, (height - size) // 2, size, size), "header.day_night")
    return x + size


def _draw_headline(
    canvas: Canvas, text: str, color: Color, height: int, used_left: int, used_right: int
) -> None:
    """The headline in the header's room between what the corners use: on one line as large as
    it fits (centred on the screen, else in the room between the corners), else on two lines."""
    lay, fonts = canvas.layout, canvas.fonts
    gap = lay.margin
    centred = canvas.width - 2 * (max(used_left, used_right) + gap)
    between = canvas.width - used_left - used_right - 2 * gap
    role = "header.headline"
    for size in range(lay.big, lay.tiny - 1, -1):
        for width, x in ((centred, canvas.width // 2), (between, used_left + gap + between // 2)):
            if width > 0 and _fits(canvas, text, width, size, bold=True):
                canvas.text(
                    text,
                    (x, height // 2),
                    size,
                    color,
                    anchor="center",
                    bold=True,
                    max_width=width,
                    role=role,
                    min_size=size,
                )
                return
    for size in range(lay.medium, lay.tiny - 1, -1):
        lines = canvas.wrapped(text, size, between, bold=True)
        step = fonts.line_height(size, True)
        if lines is not None and len(lines) <= 2 and len(lines) * step <= height:
            top = (height - len(lines) * step) // 2
            glue = joiners(text, lines)
            for index, line in enumerate(lines):
                canvas.text(
                    line,
                    (used_left + gap + between // 2, top + index * step + step // 2),
                    size,
                    color,
                    anchor="center",
                    bold=True,
                    max_width=between,
                    role=role,
                    min_size=size,
                    joiner=glue[index],
                )
            return
    canvas.text(
        text,
        (used_left + gap + between // 2, height // 2),
        lay.tiny,
        color,
        anchor="center",
        bold=True,
        max_width=between,
        role=role,
        min_size=lay.tiny,
    )


class StatusPlan(Struct, frozen=True):
    """How the status line is laid out this frame: the text's lines at ``size`` (of page
    ``page`` of ``pages``), the reader's label on line ``reader_at`` (right-aligned; -1: not on
    this page; ``len(lines)``: a line of its own), the line's ``height`` (the screen above gives
    it up while it is needed), the offer's chip width, and whether a tap shows the texts whole."""

    status: Status
    reader: str
    reader_color: Color
    size: int
    lines: tuple[str, ...]
    reader_at: int
    height: int
    page: int = 0
    pages: int = 1
    offer_w: int = 0
    tappable: bool = False  # a touch target (as tall as one): the offer, else the texts shown whole
    joiners: tuple[str | None, ...] = ()
    width: int = 0  # of the lines, from the left margin and the mark
    mark: Color | None = (
        None  # the colour of the player the messages are about, in a square before them
    )
    indent: int = 0  # the mark's room, left of the lines


def said_about(state: GameState | None, ui: UiState) -> Color | None:
    """The colour of the player the status line's messages name first (a life change's player,
    whose turn it is), or None: the messages name nobody, or something else is shown."""
    if state is None or not ui.said:
        return None
    seats = {p.name: p for p in state.players}
    for message in ui.said:
        for value in message.params.values():
            if isinstance(value, str) and value in seats:
                return theme.shade(colour_of(seats[value]))
    return None


def _status_lines(
    canvas: Canvas, text: str, reader: str, size: int, width: int
) -> tuple[list[str], int] | None:
    """``text`` on lines of ``width`` at ``size`` with the reader's label right of the first
    line, else of the last, else on a line of its own; None when a word is wider than a line."""
    fonts, lay = canvas.fonts, canvas.layout
    gap = lay.margin * 2
    reader_w = fonts.measure(reader, size)[0] if reader else 0
    if reader_w > width:
        return None
    if not text:
        return [], 0 if reader else -1
    one = canvas.measure(text, size)
    if one + (gap + reader_w if reader else 0) <= width:
        return [text], 0 if reader else -1
    lines = canvas.wrapped(text, size, width)
    if lines is None:
        return None
    if not reader:
        return lines, -1
    if canvas.measure(lines[-1], size) + gap + reader_w <= width:
        return lines, len(lines) - 1
    return lines, len(lines)


def _count(lines: list[str], reader_at: int) -> int:
    return max(1, len(lines) + (1 if lines and reader_at == len(lines) else 0))


def plan_status(
    canvas: Canvas,
    ui: UiState,
    tr: Translator,
    now: float,
    missing: Collection[str],
    mark: Color | None = None,
) -> StatusPlan:
    """The status line for this frame: the whole text on one line at ``small``, else at ``tiny``,
    else wrapped onto two lines (``small``, then ``tiny``); a longer text shows two lines at a
    time and turns its pages (numbered at the right), and a tap shows it whole.  No line is
    ever cut.  Its pages turn from when the text first showed (``UiState.status_seen``).
    Laid out when what it says changes, not every frame (``Canvas.planned``)."""
    status = status_text(ui, fonts_notice(canvas, tr, missing), now)
    reader = ui.words(ui.reader.text) if ui.reader is not None else ""
    reader_color = (
        theme.ERROR if ui.reader is not None and "disconn" in ui.reader.key else theme.DIM
    )
    mark = mark if status.role == "status.messages" else None
    key = ("status", status, reader, reader_color, mark)
    try:
        laid: tuple[StatusPlan, tuple[str, ...], tuple[str | None, ...]] | None = (
            canvas.planned.get(key)
        )
        keep = True
    except TypeError:  # an offer that cannot be a key: laid out every frame
        laid, keep = None, False
    if laid is None:
        laid = _lay_out_status(canvas, status, reader, reader_color, mark)
        if keep:
            canvas.planned.put(key, laid)
    plan, lines, glue = laid
    if plan.pages <= 1:
        return plan
    since = status_since(ui, status.text, now)
    page = int(max(0.0, now - since) // STATUS_PAGE_SECONDS) % plan.pages
    first = page * STATUS_LINES
    return replace(
        plan,
        lines=lines[first : first + STATUS_LINES],
        joiners=glue[first : first + STATUS_LINES],
        page=page,
    )


def _lay_out_status(
    canvas: Canvas, status: Status, reader: str, reader_color: Color, mark: Color | None
) -> tuple[StatusPlan, tuple[str, ...], tuple[str | None, ...]]:
    """:func:`plan_status`'s plan (its first page), with all the lines of a text that turns pages
    and what joins each to the one before."""
    lay, fonts = canvas.layout, canvas.fonts
    width = canvas.width - 2 * lay.margin
    indent = lay.small * 3 // 4 + lay.margin if mark is not None else 0
    width -= indent
    offer_w = 0
    if status.offer is not None and status.text:
        offer_w = max(
            lay.touch, fonts.measure(status.offer_label, lay.small, True)[0] + 2 * lay.margin
        )
        width -= offer_w + lay.margin

    def height(count: int, size: int) -> int:
        tall = count * fonts.line_height(size) + lay.margin // 2
        if count > 1 or offer_w:
            tall = max(tall, lay.touch)  # a touch target: the chip, or the tap that shows it all
        return max(lay.status, tall)

    arranged = {
        size: _status_lines(canvas, status.text, reader, size, width)
        for size in (lay.small, lay.tiny)
    }
    for size, most in (
        (lay.small, 1),
        (lay.tiny, 1),
        (lay.small, STATUS_LINES),
        (lay.tiny, STATUS_LINES),
    ):
        found = arranged[size]
        if found is None or _count(*found) > most:
            continue
        lines, reader_at = found
        count = _count(lines, reader_at)
        glue = tuple(joiners(status.text, lines)) if lines else ()
        plan = StatusPlan(
            status,
            reader,
            reader_color,
            size,
            tuple(lines),
            reader_at,
            height(count, size),
            offer_w=offer_w,
            tappable=bool(status.text) and (count > 1 or offer_w > 0),
            joiners=glue,
            width=width,
            mark=mark,
            indent=indent,
        )
        return plan, plan.lines, glue
    # Longer than two lines: two at a time, the page's number at the right, the reader's label
    # beside the first line of every page.
    text_w = width - fonts.measure("9/9", lay.tiny)[0] - lay.margin
    for size in (lay.small, lay.tiny):  # tiny only for a word (a long path) too wide at small
        wrap_w = max(
            text_w - (fonts.measure(reader, size)[0] + lay.margin * 2 if reader else 0), text_w // 2
        )
        lines = canvas.wrap(status.text, size, wrap_w)
        if all(canvas.measure(line, size) <= wrap_w for line in lines):
            break
    glue = tuple(joiners(status.text, lines))
    pages = -(-len(lines) // STATUS_LINES)
    plan = StatusPlan(
        status,
        reader,
        reader_color,
        size,
        tuple(lines[:STATUS_LINES]),
        0 if reader else -1,
        height(STATUS_LINES, size),
        page=0,
        pages=pages,
        offer_w=offer_w,
        tappable=True,
        joiners=glue[:STATUS_LINES],
        width=text_w,
        mark=mark,
        indent=indent,
    )
    return plan, tuple(lines), glue


def draw_status(canvas: Canvas, plan: StatusPlan, y: int) -> None:
    """The status line at ``y``: the text on its lines, the reader's label, the page's number,
    the offer's chip."""
    lay, fonts = canvas.layout, canvas.fonts
    status = plan.status
    if status.role == "status.error":
        canvas.box((0, y, canvas.width, plan.height), theme.ERROR_BG, radius=0)
    if plan.tappable:
        canvas.target(
            (0, y, canvas.width, plan.height),
            status.offer if status.offer is not None else OpenStatus(),
        )
    width = plan.width
    step = fonts.line_height(plan.size)
    count = max(1, len(plan.lines) + (1 if plan.reader_at == len(plan.lines) and plan.lines else 0))
    if plan.pages > 1:
        count = STATUS_LINES
    top = y + (plan.height - count * step) // 2
    left = lay.margin + plan.indent
    if plan.mark is not None:
        side = lay.small * 3 // 4
        canvas.box(
            (lay.margin, top + step // 2 - side // 2, side, side),
            plan.mark,
            radius=max(1, side // 4),
        )
    for index, line in enumerate(plan.lines):
        canvas.text(
            line,
            (left, top + index * step + step // 2),
            plan.size,
            status.color,
            anchor="midleft",
            max_width=width,
            role=status.role,
            min_size=plan.size,
            joiner=plan.joiners[index],
        )
    if plan.reader and plan.reader_at >= 0:
        canvas.text(
            plan.reader,
            (left + width, top + plan.reader_at * step + step // 2),
            plan.size,
            plan.reader_color,
            anchor="midright",
            max_width=width,
            role="status.reader",
            min_size=plan.size,
        )
    if plan.pages > 1:
        canvas.text(
            f"{plan.page + 1}/{plan.pages}",
            (left + plan.width + lay.margin, y + plan.height // 2),
            lay.tiny,
            theme.DIM,
            anchor="midleft",
            role="status.page",
            min_size=lay.tiny,
        )
    if plan.offer_w and status.offer is not None:
        rect = (
            canvas.width - lay.margin - plan.offer_w,
            y + (plan.height - lay.touch) // 2,
            plan.offer_w,
            lay.touch,
        )
        canvas.box(rect, theme.BUTTON_HI)
        canvas.text(
            status.offer_label,
            (rect[0] + rect[2] // 2, rect[1] + rect[3] // 2),
            lay.small,
            theme.TEXT,
            anchor="center",
            bold=True,
            max_width=rect[2] - lay.margin,
            role="status.offer",
            min_size=lay.small,
        )
        canvas.target(rect, status.offer)


def draw_status_open(canvas: Canvas, texts: Sequence[str], tr: Translator, bottom: int) -> None:
    """The status texts whole, over the screen, as large as they fit; a tap (or any button)
    closes them."""
    lay, fonts = canvas.layout, canvas.fonts
    rect = (lay.margin, lay.margin, canvas.width - 2 * lay.margin, bottom - 2 * lay.margin)
    canvas.target((0, 0, canvas.width, bottom), CloseStatus())
    canvas.box(rect, theme.PANEL_HI)
    x, y, w, h = rect
    inner_w = w - 2 * lay.margin
    hint = tr("ui.status.close")
    hint_h = len(canvas.wrap(hint, lay.tiny, inner_w)) * fonts.line_height(lay.tiny)
    room = h - 2 * lay.margin - hint_h - lay.margin
    text = "\n".join(texts)
    size = canvas.fit_paragraph(text, inner_w, room, lay.medium) or lay.tiny
    canvas.paragraph(
        text,
        (x + lay.margin, y + lay.margin, inner_w, room),
        size,
        theme.TEXT,
        role="status.open",
        min_size=size,
    )
    canvas.paragraph(
        hint,
        (x + lay.margin, y + h - lay.margin - hint_h, inner_w, hint_h),
        lay.tiny,
        theme.DIM,
        role="status.open.hint",
        min_size=lay.tiny,
        align="center",
    )


# --- the touch bar -------------------------------------------------------------------------


class BarButton(Struct, frozen=True):
    """A button of the touch bar: its label's text key, what it does, its drawing role."""

    key: str
    action: Action
    primary: bool = False

    @property
    def role(self) -> str:
        return f"bar.{self.key.rsplit('.', 1)[-1]}"


MORE = BarButton("ui.btn.more", MoreButtons())


def bar_buttons(state: GameState | None, ui: UiState) -> tuple[list[BarButton], int]:
    """The bar's buttons in order, and how many of the first are the gadget's actions (ROLL,
    NEXT, UNDO, redo), which stay in the bar; the screens' buttons and the keys may go into
    its menu."""
    buttons: list[BarButton] = []
    if state is not None and any(scr.offers_roll(state) for scr in SCREENS.values()):
        buttons.append(BarButton("ui.btn.roll", Press(Button.ROLL), primary=True))
    buttons.append(BarButton("ui.btn.next", Press(Button.NEXT), primary=True))
    if state is not None:  # with no game there is nothing to take back
        buttons.append(BarButton("ui.btn.undo", Press(Button.UNDO)))
        buttons.append(BarButton("ui.btn.redo", Redo()))
    actions = len(buttons)
    for name, scr in SCREENS.items():
        if scr.button and name != ui.screen and scr.shown(state, ui):
            buttons.append(BarButton(scr.button, Go(name)))
    buttons.append(BarButton("ui.btn.help", ToggleHelp()))
    return buttons, actions


class BarPlan(Struct, frozen=True):
    """The bar as laid out: the buttons shown and where, their labels' size, and the buttons
    its menu (the MORE button) holds."""

    shown: tuple[tuple[BarButton, Rect], ...]
    menu: tuple[BarButton, ...]
    size: int


def plan_bar(canvas: Canvas, state: GameState | None, ui: UiState, tr: Translator) -> BarPlan:
    """Every button in one row when their labels fit at ``small`` or smaller down to ``tiny``,
    each at least ``touch`` wide; otherwise the actions, as many screens' buttons as fit, and a
    MORE button whose menu holds the rest.  Labels are never cut; spare width is shared out."""
    buttons, actions = bar_buttons(state, ui)
    key = ("bar", tuple(buttons), actions, tr.language)
    try:
        found: BarPlan | None = canvas.planned.get(key)
    except TypeError:  # a button whose action cannot be a key: laid out every frame
        return _lay_out_bar(canvas, buttons, actions, tr)
    if found is None:
        found = canvas.planned.put(key, _lay_out_bar(canvas, buttons, actions, tr))
    return found


def _lay_out_bar(canvas: Canvas, buttons: list[BarButton], actions: int, tr: Translator) -> BarPlan:
    """:func:`plan_bar`'s plan for these buttons, the first ``actions`` of them the screen's own."""
    lay, fonts = canvas.layout, canvas.fonts
    gap = max(2, lay.margin // 2)
    pad = max(2, lay.margin)

    def widths(row: list[BarButton], size: int) -> list[int]:
        return [max(lay.touch, fonts.measure(tr(b.key), size, b.primary)[0] + 2 * pad) for b in row]

    def fits(row: list[BarButton], size: int) -> bool:
        return sum(widths(row, size)) + gap * (len(row) + 1) <= canvas.width

    sizes = range(lay.small, lay.tiny - 1, -1)
    row, menu, size = buttons, [], lay.tiny
    chosen = next((s for s in sizes if fits(buttons, s)), None)
    if chosen is not None:
        size = chosen
    else:
        # The actions and MORE at the largest size they fit, then as many screens as fit too;
        # on a screen too narrow even for that, actions go into the menu from the end.
        keep = actions
        while True:
            chosen = next((s for s in sizes if fits([*buttons[:keep], MORE], s)), None)
            if chosen is not None or keep <= 1:
                break
            keep -= 1
        size = chosen if chosen is not None else lay.tiny
        while keep < len(buttons) and fits([*buttons[: keep + 1], MORE], size):
            keep += 1
        row, menu = [*buttons[:keep], MORE], buttons[keep:]
    sizes_w = widths(row, size)
    spare = canvas.width - sum(sizes_w) - gap * (len(row) + 1)
    y = canvas.height - lay.bar
    x = gap
    shown: list[tuple[BarButton, Rect]] = []
    for index, (button, w) in enumerate(zip(row, sizes_w, strict=True)):
        w += max(0, spare) // len(row) + (1 if index < max(0, spare) % len(row) else 0)
        shown.append((button, (x, y + gap, w, lay.bar - 2 * gap)))
        x += w + gap
    return BarPlan(tuple(shown), tuple(menu), size)


def draw_button(
    canvas: Canvas,
    button: BarButton,
    rect: Rect,
    size: int,
    tr: Translator,
    action: Action,
    *,
    lit: bool = False,
) -> None:
    lay = canvas.layout
    canvas.box(rect, theme.BUTTON_HI if button.primary or lit else theme.BUTTON)
    canvas.text(
        tr(button.key),
        (rect[0] + rect[2] // 2, rect[1] + rect[3] // 2),
        size,
        theme.TEXT,
        anchor="center",
        bold=button.primary,
        max_width=rect[2] - 2 * max(1, lay.margin // 2),
        role=button.role,
        min_size=size,
    )
    canvas.target(rect, action)


def draw_bar(canvas: Canvas, plan: BarPlan, ui: UiState, tr: Translator) -> None:
    try:
        key = ("bar", plan, ui.menu, tr.language)
        if canvas.replay(key):  # the same buttons as the last frame's
            return
    except TypeError:  # a button whose action cannot be a key: drawn every frame
        key = None
    with canvas.part(key) if key is not None else contextlib.nullcontext():
        for button, rect in plan.shown:
            draw_button(
                canvas, button, rect, plan.size, tr, button.action, lit=button is MORE and ui.menu
            )


def draw_menu(canvas: Canvas, plan: BarPlan, tr: Translator) -> None:
    """The bar's menu, over the screen above the MORE button: a button a row (more columns
    where the rows run out of height), each a touch target tall; a tap elsewhere closes it."""
    lay, fonts = canvas.layout, canvas.fonts
    items = plan.menu
    bar_top = canvas.height - lay.bar
    canvas.target((0, 0, canvas.width, bar_top), CloseMenu())
    if not items:
        return
    gap = max(2, lay.margin // 2)
    pad = max(2, lay.margin)
    size = lay.small
    height = lay.bar - 2 * gap
    width = max(
        lay.touch * 2, *(fonts.measure(tr(b.key), size, b.primary)[0] + 2 * pad for b in items)
    )
    rows = max(1, min(len(items), (bar_top - gap) // (height + gap)))
    columns = -(-len(items) // rows)
    width = min(width, (canvas.width - gap * (columns + 1)) // columns)
    panel_w = columns * (width + gap) + gap
    panel_h = rows * (height + gap) + gap
    right = plan.shown[-1][1][0] + plan.shown[-1][1][2] + gap if plan.shown else canvas.width
    left = max(0, min(right, canvas.width) - panel_w)
    top = bar_top - panel_h
    canvas.box((left, top, panel_w, panel_h), theme.PANEL_HI)
    for index, button in enumerate(items):
        column, row = divmod(index, rows)
        rect = (
            left + gap + column * (width + gap),
            top + gap + row * (height + gap),
            width,
            height,
        )
        draw_button(canvas, button, rect, size, tr, MenuButton(button.action))


#: The gadget's own keys, as (what to press, what it does) text keys, in the README's order;
#: the screens' keys come after these, each from its screen (``Screen.key``), then ``HELP_LAST``.
HELP_KEYS = (
    ("ui.help.keys.roll", "ui.help.roll"),
    ("ui.help.keys.next", "ui.help.next"),
    ("ui.help.keys.undo", "ui.help.undo"),
    ("ui.help.keys.redo", "ui.help.redo"),
    ("ui.help.keys.select", "ui.help.select"),
    ("ui.help.keys.long_select", "ui.help.long_select"),
    ("ui.help.keys.long_roll", "ui.help.long_roll"),
    ("ui.help.keys.long_next", "ui.help.long_next"),
    ("ui.help.keys.long_undo", "ui.help.long_undo"),
    ("ui.help.keys.encoder", "ui.help.encoder"),
    ("ui.help.keys.encoder5", "ui.help.encoder5"),
    ("ui.help.keys.arrows", "ui.help.arrows"),
)
HELP_LAST = (
    ("ui.help.keys.back", "ui.help.back"),
    ("ui.help.keys.help", "ui.help.help"),
    ("ui.help.keys.quit", "ui.help.quit"),
)


def key_name(key: str) -> str:
    """A screen's key as printed on the keyboard: ``"f2"`` → ``F2``, ``"c"`` → ``C``."""
    return key.upper()


def help_entries(state: GameState | None, ui: UiState, tr: Translator) -> list[tuple[str, str]]:
    """Every key the kiosk answers to now, as (keys, what they do): the gadget's own, then the
    key of each screen this game has (so a new screen's key is listed by itself), then the
    touch screen's."""
    entries = [(tr(keys), tr(what)) for keys, what in HELP_KEYS]
    for name, scr in SCREENS.items():
        if scr.key and scr.shown(state, ui):
            what = f"ui.help.screen.{name}"
            entries.append((key_name(scr.key), tr(what) if tr.template(what) else tr(scr.button)))
    entries += [(tr(keys), tr(what)) for keys, what in HELP_LAST]
    entries.append(("", tr("ui.help.touch")))
    return entries


Placed = tuple[
    str, str, int, int, list[str]
]  # keys, what, column, y offset, the description's lines


def help_pages(
    canvas: Canvas, entries: list[tuple[str, str]], width: int, height: int
) -> tuple[list[list[Placed]], int, int]:
    """The entries laid out in columns (two where the screen is wide enough) and, when they
    still do not fit ``height``, on pages; returns the pages, the width of a column and of the
    keys in it.  Type stays at ``Layout.small``: the descriptions wrap, nothing shrinks."""
    lay, fonts = canvas.layout, canvas.fonts
    size = lay.small
    columns = 2 if canvas.width >= 640 else 1
    column_w = (width - (columns - 1) * lay.margin * 2) // columns
    keys_w = min(
        max(fonts.measure(keys, size, True)[0] for keys, _ in entries if keys), column_w * 2 // 5
    )
    step = fonts.line_height(size)
    gap = max(1, step // 8)
    pages: list[list[Placed]] = [[]]
    column, y = 0, 0
    for keys, what in entries:
        room = column_w - keys_w - lay.margin if keys else column_w
        lines = canvas.wrap(what, size, room)
        need = len(lines) * step
        if y and y + need > height:
            column, y = column + 1, 0
            if column == columns:
                pages.append([])
                column = 0
        pages[-1].append((keys, what, column, y, lines))
        y += need + gap
    return pages, column_w, keys_w


def draw_help(
    canvas: Canvas, state: GameState | None, ui: UiState, tr: Translator, top: int, bottom: int
) -> int:
    """The keys, over the screen: a page at a time where they do not fit (→, ↑ or a tap shows
    the next page; a tap on the last closes it).  Returns how many pages they took at this
    screen size, for the keys that turn them."""
    lay, fonts = canvas.layout, canvas.fonts
    rect = (
        lay.margin,
        top + lay.margin,
        canvas.width - 2 * lay.margin,
        bottom - top - 2 * lay.margin,
    )
    canvas.box(rect, theme.PANEL_HI)
    x, y, w, h = rect
    canvas.text(
        tr("ui.help.title"),
        (x + w // 2, y + lay.margin // 2),
        lay.medium,
        theme.CURSOR,
        anchor="midtop",
        bold=True,
        role="help.title",
    )
    body_top = y + lay.margin // 2 + fonts.line_height(lay.medium, True)
    inner_x, inner_w = x + lay.margin, w - 2 * lay.margin
    entries = help_entries(state, ui, tr)
    body_h = y + h - lay.margin // 2 - body_top
    pages, column_w, keys_w = help_pages(canvas, entries, inner_w, body_h)
    if len(pages) > 1:  # again, with a line kept for the page number
        pages, column_w, keys_w = help_pages(
            canvas, entries, inner_w, body_h - fonts.line_height(lay.tiny)
        )
    shown = min(ui.help_page, len(pages) - 1)
    step = fonts.line_height(lay.small)
    for keys, _, column, offset, lines in pages[shown]:
        left = inner_x + column * (column_w + lay.margin * 2)
        ly = body_top + offset
        if keys:
            canvas.text(
                keys,
                (left, ly),
                lay.small,
                theme.CURSOR,
                bold=True,
                max_width=keys_w,
                role="help.key",
                min_size=lay.small,
            )
            left += keys_w + lay.margin
        for line in lines:
            canvas.text(
                line,
                (left, ly),
                lay.small,
                theme.TEXT,
                role="help.line",
                max_width=column_w,
                min_size=lay.small,
            )
            ly += step
    if len(pages) > 1:
        canvas.text(
            tr("ui.help.page", page=shown + 1, pages=len(pages)),
            (x + w - lay.margin, y + h - lay.margin // 2),
            lay.tiny,
            theme.DIM,
            anchor="bottomright",
            max_width=inner_w,
            role="help.page",
            min_size=lay.tiny,
        )
    canvas.target(rect, NextHelpPage())
    return len(pages)


def header_turn(canvas: Canvas, state: GameState | None, current: Screen) -> int:
    """The header turns with the table's shared parts, on the table itself (not a format's own
    screen standing in for it)."""
    if state is None or current.name != "table" or stand_in(SCREENS.values(), state) is not None:
        return 0
    return shared_turn(state, portrait(canvas))


def render(
    canvas: Canvas, state: GameState | None, ui: UiState, tr: Translator, *, now: float, wall: float
) -> Drawn | None:
    """Draw the frame for ``state`` and ``ui`` on ``canvas`` (which records texts and targets),
    and return what it laid out that the UI state keeps (None: a screen that draws the whole
    picture, without a status line).

    The status line's height depends on its text, and a missing font's notice on the texts the
    screen drew: the frame is laid out with the notice the last frame had, and drawn once more
    in the rare frame where that changes the status line's height."""
    with canvas.frame():
        return _render(canvas, state, ui, tr, now, wall)


def _render(
    canvas: Canvas, state: GameState | None, ui: UiState, tr: Translator, now: float, wall: float
) -> Drawn | None:
    lay = canvas.layout
    whole = SCREENS.get(ui.screen)
    if whole is not None and whole.whole and whole.shown(state, ui):
        canvas.clear(theme.BG)
        whole.draw(
            View(
                state=state,
                ui=ui,
                canvas=canvas,
                tr=tr,
                now=now,
                wall=wall,
                top=0,
                bottom=canvas.height,
                screens=SCREENS,
            )
        )
        return None
    missing = set(canvas.fonts.shown_missing)
    mark = said_about(state, ui)
    for _ in range(2):
        canvas.clear(theme.BG)
        plan = plan_status(canvas, ui, tr, now, missing, mark)
        current = SCREENS.get(ui.screen)
        if current is None or not current.shown(state, ui):
            current = SCREENS["table"]
        top = draw_header(
            canvas, state, ui, tr, wall, current.shows_played, header_turn(canvas, state, current)
        )
        bottom = canvas.height - lay.bar - plan.height
        room = bottom
        if current.steady_status:
            # At least a line at the status line's own size: a short message drawn smaller
            # leaves the room it takes once it has gone.
            least = max(ui.status_floor, canvas.fonts.line_height(lay.small) + lay.margin // 2)
            room = min(bottom, canvas.height - lay.bar - least)
        view = View(
            state=state,
            ui=ui,
            canvas=canvas,
            tr=tr,
            now=now,
            wall=wall,
            top=top + lay.margin // 2,
            bottom=room - lay.margin // 2,
            screens=SCREENS,
        )
        current.draw(view)
        help_pages = None
        if ui.help:
            # Over the header too: the keys need the room.
            help_pages = draw_help(canvas, state, ui, tr, 0, bottom)
        drawn = plan_status(canvas, ui, tr, now, canvas.fonts.shown_missing, mark)
        if drawn.height == plan.height:
            break
        missing = set(canvas.fonts.shown_missing)
    draw_status(canvas, drawn, bottom)
    bar = plan_bar(canvas, state, ui, tr)
    draw_bar(canvas, bar, ui, tr)
    if ui.status_open:
        draw_status_open(canvas, ui.status_open, tr, canvas.height - lay.bar)
    if ui.menu:
        draw_menu(canvas, bar, tr)
    return Drawn(
        status=drawn.status.text,
        status_pages=drawn.pages,
        # A steady screen keeps the room its status line took since the last input.
        status_floor=canvas.height - lay.bar - room if current.steady_status else 0,
        help_pages=help_pages,
    )
