"""``render``: the whole frame as a function of the game state and the UI state.

The frame is a header (turn, whose upkeep or turn it is in big letters, the game clock), the
current screen, a one-line status (a refused command's reason, what the last command did, the
reader), and a bar of touch buttons.  Rendering never changes the game; of the UI state it
only records how many pages the keys overlay took at this screen size (``UiState.help_pages``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from device.inputs import Button
from device.state import GameState, Step, outcome
from display import theme
from display.canvas import Canvas
from display.i18n import Translator
from display.screens import SCREENS, View, load
from display.ui import Go, Press, Tap, ToggleHelp, UiState

#: Base formats whose turns are not MTG turns say whose move it is themselves (format → headline);
#: filled in by their screens, which ``load`` imports.
HEADLINES: dict[str, Callable[[GameState, Translator], str]] = {}
#: Base formats whose turn counter means nothing (a Conspiracy pod's groups each take their own
#: turns, a Wizard's Duel has rounds and phases): format → ``fn(state, tr) -> what the header's
#: corner says instead ("" for nothing)``; filled in the same way.
TURN_TEXTS: dict[str, Callable[[GameState, Translator], str]] = {}
#: Base formats whose games keep their own clock (a Conspiracy round's): format → ``fn(state,
#: wall) -> seconds left, or None while it is not running``; filled in the same way.
GAME_CLOCKS: dict[str, Callable[[GameState, float], float | None]] = {}

load()

TIME_LIMIT_OPTION = "time_limit"  # minutes; a table option, when a module or format offers it


def time_left(state: GameState | None, ui: UiState, wall: float) -> float | None:
    """Seconds left of the game's time limit, or None without a limit (or a known start)."""
    if state is None:
        return None
    if state.formats and state.formats[0] in GAME_CLOCKS:
        return GAME_CLOCKS[state.formats[0]](state, wall)
    if ui.game_started_at is None:
        return None
    limit = state.options.get(TIME_LIMIT_OPTION)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0:
        return None
    return limit * 60 - (wall - ui.game_started_at)


def clock_text(left: float, tr: Translator) -> str:
    if left <= 0:
        return tr("ui.clock_up")
    whole = math.ceil(left)
    return tr("ui.clock", time=f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}" if whole >= 3600 else f"{whole // 60}:{whole % 60:02d}")


def clock_deadline(state: GameState | None, ui: UiState, now: float, wall: float) -> float | None:
    left = time_left(state, ui, wall)
    if left is None or left <= 0:
        return None
    fraction = left - math.floor(left)
    return now + (fraction if fraction > 0.001 else 1.0)


def headline(state: GameState | None, tr: Translator) -> str:
    if state is None:
        # The screen below says there is no game and how to start one: the header only names
        # the gadget, rather than saying the same words twice.
        return tr("ui.title")
    result = outcome(state)
    if result is not None:
        return tr("ui.draw") if result.winner is None else tr("ui.winner", name=state.player(result.winner).name)
    if state.formats and state.formats[0] in HEADLINES:
        return HEADLINES[state.formats[0]](state, tr)
    name = state.player(state.active).name
    return tr("ui.upkeep_of" if state.step is Step.UPKEEP else "ui.turn_of", name=name)


def draw_header(canvas: Canvas, state: GameState | None, ui: UiState, tr: Translator, wall: float) -> int:
    lay = canvas.layout
    height = canvas.fonts.line_height(lay.big, True) + lay.margin
    canvas.box((0, 0, canvas.width, height), theme.PANEL, radius=0)
    side = canvas.width // 5
    if state is not None:
        own = TURN_TEXTS.get(state.formats[0]) if state.formats else None
        turn = own(state, tr) if own is not None else tr("ui.turn", turn=state.turn)
        if turn:
            canvas.text(turn, (lay.margin, height // 2), lay.medium, theme.DIM, anchor="midleft",
                        max_width=side - lay.margin, role="header.turn")
        left = time_left(state, ui, wall)
        if left is not None:
            canvas.text(clock_text(left, tr), (canvas.width - lay.margin, height // 2), lay.medium,
                        theme.ERROR if left <= 300 else theme.TEXT, anchor="midright", max_width=side - lay.margin,
                        role="header.clock")
        elif state.direction < 0:
            canvas.text(tr("ui.reversed"), (canvas.width - lay.margin, height // 2), lay.small, theme.WARN,
                        anchor="midright", max_width=side - lay.margin, role="header.reversed")
    canvas.text(headline(state, tr), (canvas.width // 2, height // 2), lay.big, theme.CURSOR if state else theme.TEXT,
                anchor="center", bold=True, max_width=canvas.width - 2 * side, role="header.headline",
                min_size=lay.medium)
    return height


def status_text(ui: UiState, fonts_notice: str, now: float) -> tuple[str, tuple[int, int, int], str]:
    """The status line's text, colour and role, by priority."""
    if ui.error is not None and ui.error.live(now):
        return ui.words(ui.error.text), theme.ERROR, "status.error"
    if ui.card is not None and ui.card.live(now):
        return ui.words(ui.card.text), theme.WARN, "status.card"
    if ui.messages:
        return " ".join(ui.messages), theme.TEXT, "status.messages"
    if fonts_notice:
        return fonts_notice, theme.WARN, "status.font"
    return "", theme.DIM, "status.empty"


def draw_status(canvas: Canvas, ui: UiState, tr: Translator, y: int, now: float) -> None:
    lay = canvas.layout
    fonts = canvas.fonts
    notices = fonts.notices
    if fonts.shown_missing:  # only while a text that needs the character is on the screen
        fonts_notice = tr("ui.font_missing", chars="".join(sorted(fonts.shown_missing)))
    else:
        fonts_notice = tr(notices[-1][0], **notices[-1][1]) if notices else ""
    text, color, role = status_text(ui, fonts_notice, now)
    if role == "status.error":
        canvas.box((0, y, canvas.width, lay.status), theme.ERROR_BG, radius=0)
    right = ""
    if ui.reader is not None:
        right = ui.words(ui.reader.text)
    right_w = 0
    if right:
        r = canvas.text(right, (canvas.width - lay.margin, y + lay.status // 2), lay.small, theme.ERROR if "disconn" in ui.reader.key else theme.DIM,  # type: ignore[union-attr]
                        anchor="midright", max_width=canvas.width // 3, role="status.reader")
        right_w = r.width + lay.margin
    if text:
        canvas.text(text, (lay.margin, y + lay.status // 2), lay.small, color, anchor="midleft",
                    max_width=canvas.width - 2 * lay.margin - right_w, role=role)


def bar_buttons(state: GameState | None, ui: UiState) -> list[tuple[str, object]]:
    buttons: list[tuple[str, object]] = []
    if state is not None and state.has("planechase"):
        buttons.append(("ui.btn.roll", Press(Button.ROLL)))
    buttons.append(("ui.btn.next", Press(Button.NEXT)))
    buttons.append(("ui.btn.undo", Press(Button.UNDO)))
    for name, scr in SCREENS.items():
        if scr.button and name != ui.screen and scr.available(state):
            buttons.append((scr.button, Go(name)))
    buttons.append(("ui.btn.help", ToggleHelp()))
    return buttons


def draw_bar(canvas: Canvas, state: GameState | None, ui: UiState, tr: Translator) -> None:
    lay = canvas.layout
    y = canvas.height - lay.bar
    buttons = bar_buttons(state, ui)
    gap = max(2, lay.margin // 2)
    width = (canvas.width - gap * (len(buttons) + 1)) // len(buttons)
    for index, (key, action) in enumerate(buttons):
        rect = (gap + index * (width + gap), y + gap, width, lay.bar - 2 * gap)
        primary = key in ("ui.btn.roll", "ui.btn.next")
        canvas.box(rect, theme.BUTTON_HI if primary else theme.BUTTON)
        canvas.text(tr(key), (rect[0] + width // 2, rect[1] + rect[3] // 2), lay.small, theme.TEXT, anchor="center",
                    bold=primary, max_width=width - gap * 2, role=f"bar.{key.rsplit('.', 1)[-1]}", min_size=lay.tiny * 4 // 5)
        canvas.target(rect, action)


#: The gadget's own keys, as (what to press, what it does) text keys, in the README's order;
#: the screens' keys come after these, each from its screen (``Screen.key``), then ``HELP_LAST``.
HELP_KEYS = (
    ("ui.help.keys.roll", "ui.help.roll"), ("ui.help.keys.next", "ui.help.next"),
    ("ui.help.keys.undo", "ui.help.undo"), ("ui.help.keys.redo", "ui.help.redo"),
    ("ui.help.keys.select", "ui.help.select"), ("ui.help.keys.long_select", "ui.help.long_select"),
    ("ui.help.keys.encoder", "ui.help.encoder"), ("ui.help.keys.encoder5", "ui.help.encoder5"),
    ("ui.help.keys.arrows", "ui.help.arrows"),
)
HELP_LAST = (("ui.help.keys.back", "ui.help.back"), ("ui.help.keys.help", "ui.help.help"),
             ("ui.help.keys.quit", "ui.help.quit"))


def key_name(key: str) -> str:
    """A screen's key as printed on the keyboard: ``"f2"`` → ``F2``, ``"c"`` → ``C``."""
    return key.upper()


def help_entries(state: GameState | None, tr: Translator) -> list[tuple[str, str]]:
    """Every key the kiosk answers to now, as (keys, what they do): the gadget's own, then the
    key of each screen this game has (so a new screen's key is listed by itself), then the
    touch screen's."""
    entries = [(tr(keys), tr(what)) for keys, what in HELP_KEYS]
    for name, scr in SCREENS.items():
        if scr.key and scr.available(state):
            what = f"ui.help.screen.{name}"
            entries.append((key_name(scr.key), tr(what) if tr.template(what) else tr(scr.button)))
    entries += [(tr(keys), tr(what)) for keys, what in HELP_LAST]
    entries.append(("", tr("ui.help.touch")))
    return entries


Placed = tuple[str, str, int, int, list[str]]  # keys, what, column, y offset, the description's lines


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
    keys_w = min(max(fonts.measure(keys, size, True)[0] for keys, _ in entries if keys), column_w * 2 // 5)
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


def draw_help(canvas: Canvas, state: GameState | None, ui: UiState, tr: Translator, top: int, bottom: int) -> None:
    """The keys, over the screen: a page at a time where they do not fit (→, ↑ or a tap shows
    the next page; a tap on the last closes it)."""
    lay, fonts = canvas.layout, canvas.fonts
    rect = (lay.margin, top + lay.margin, canvas.width - 2 * lay.margin, bottom - top - 2 * lay.margin)
    canvas.box(rect, theme.PANEL_HI)
    x, y, w, h = rect
    canvas.text(tr("ui.help.title"), (x + w // 2, y + lay.margin // 2), lay.medium, theme.CURSOR, anchor="midtop", bold=True,
                role="help.title")
    body_top = y + lay.margin // 2 + fonts.line_height(lay.medium, True)
    inner_x, inner_w = x + lay.margin, w - 2 * lay.margin
    entries = help_entries(state, tr)
    body_h = y + h - lay.margin // 2 - body_top
    pages, column_w, keys_w = help_pages(canvas, entries, inner_w, body_h)
    if len(pages) > 1:  # again, with a line kept for the page number
        pages, column_w, keys_w = help_pages(canvas, entries, inner_w, body_h - fonts.line_height(lay.tiny))
    # Drawing records how many pages this screen size needs, for the keys that turn them.
    ui.help_pages = len(pages)
    ui.help_page = min(ui.help_page, len(pages) - 1)
    step = fonts.line_height(lay.small)
    for keys, _, column, offset, lines in pages[ui.help_page]:
        left = inner_x + column * (column_w + lay.margin * 2)
        ly = body_top + offset
        if keys:
            canvas.text(keys, (left, ly), lay.small, theme.CURSOR, bold=True, max_width=keys_w, role="help.key",
                        min_size=lay.small)
            left += keys_w + lay.margin
        for line in lines:
            canvas.text(line, (left, ly), lay.small, theme.TEXT, role="help.line", max_width=column_w, min_size=lay.small)
            ly += step
    if len(pages) > 1:
        canvas.text(tr("ui.help.page", page=ui.help_page + 1, pages=len(pages)), (x + w - lay.margin, y + h - lay.margin // 2),
                    lay.tiny, theme.DIM, anchor="bottomright", max_width=inner_w, role="help.page", min_size=lay.tiny)
    canvas.target(rect, Tap("help.page"))


def render(canvas: Canvas, state: GameState | None, ui: UiState, tr: Translator, *, now: float, wall: float) -> None:
    """Draw the frame for ``state`` and ``ui`` on ``canvas`` (which records texts and targets)."""
    canvas.clear(theme.BG)
    top = draw_header(canvas, state, ui, tr, wall)
    bottom = canvas.height - canvas.layout.bar - canvas.layout.status
    current = SCREENS.get(ui.screen)
    if current is None or not current.available(state):
        current = SCREENS["table"]
    view = View(state=state, ui=ui, canvas=canvas, tr=tr, now=now, wall=wall, top=top + canvas.layout.margin // 2,
                bottom=bottom - canvas.layout.margin // 2)
    current.draw(view)
    if ui.help:
        draw_help(canvas, state, ui, tr, 0, bottom)  # over the header too: the keys need the room
    draw_status(canvas, ui, tr, bottom, now)
    draw_bar(canvas, state, ui, tr)
