"""The game's history on the kiosk (LF-4, LF-2): every change, oldest first, as it was said, with
the changes undone marked; and who dealt what to whom over the whole game.

Key L or the touch bar's LOG button shows it.  Two tabs at the top, the log and the damage:
←/→, SELECT or a touch on a tab switches.  ↑/↓ (the encoder) scroll, a clockwise turn (↑)
towards the newest, which is where the log opens; a marker at the side says how many rows are
above and below, and a touch on it brings the next one into view.  UNDO and REDO work here as
everywhere, and the log shows what they did at once.

The log is read from the journal when the screen is shown and after each change while it is
(``Host.history``), never per frame: a long game's history is read once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from msgspec import Struct
from msgspec.structs import replace

from device.controller import Result
from device.inputs import Button
from device.journal import Txn
from device.rules.life import dealt_lines
from device.state import GameState
from device.text import Message, sentences
from display import theme
from display.canvas import Rect
from display.chips import draw_tabs, marker_width, scroll_markers
from display.i18n import Translator
from display.screens import Host, Screen, View
from display.ui import Action, Focus, Press, Tap, Turn

NAME = "history"
LOG = "log"
DEALT = "dealt"
PANES = (LOG, DEALT)


class Entry(Struct, frozen=True):
    """One change of the game as the log shows it: its number, what it said, and whether it is
    undone (until redone or dropped)."""

    pos: int
    said: tuple[Message, ...]
    undone: bool
    at: float | None = None  # when it was made (the machine's clock then)

    @classmethod
    def of(cls, txn: Txn) -> Entry:
        return cls(txn.pos, tuple(txn.messages()), txn.undone, txn.at)


class HistoryPane(Tap, frozen=True):
    """A tab: that pane of the history."""

    pane: str


class HistoryScroll(Tap, frozen=True):
    """A scroll marker: the list shown down to change ``last``."""

    last: int


class HistoryView(Struct, frozen=True):
    """What the screen remembers: the game's changes as last read, the tab shown, and the last
    row in view (None: the newest)."""

    entries: tuple[Entry, ...] = ()
    pane: str = LOG
    last: int | None = None


class Row(Struct, frozen=True):
    text: str
    color: tuple[int, int, int]
    when: str = ""  # the time of day a change was made, beside it


def time_of_day(at: float | None) -> str:
    """``21:05``: when a change was made, as the console's log says it (to the minute here)."""
    return "" if at is None else time.strftime("%H:%M", time.localtime(at))


def log_row(entries: Sequence[Entry], index: int, tr: Translator) -> Row:
    """Row ``index`` of the log, worded when it is drawn: a long game's history is not worded
    whole every frame, only the rows in view."""
    if not entries:
        return Row(tr("ui.history.empty"), theme.DIM)
    entry = entries[index]
    said = sentences(list(entry.said))
    text = tr.message(said) if isinstance(said, Message) else said
    if entry.undone:
        text = tr("ui.history.undone", text=text)
    return Row(
        tr("ui.history.entry", number=entry.pos, text=text),
        theme.FAINT if entry.undone else theme.TEXT,
        time_of_day(entry.at),
    )


def dealt_rows(state: GameState, tr: Translator) -> list[Row]:
    """LF-2, as the console's ``dealt`` says it: each source and target, life lost and gained,
    poison."""
    rows = [Row(tr.message(line), theme.TEXT) for line in dealt_lines(state)]
    return rows or [Row(tr("ui.history.nothing_dealt"), theme.DIM)]


class History(Screen):
    name = NAME
    button = "ui.btn.history"
    key = "l"

    def available(self, state: GameState | None) -> bool:
        return state is not None

    def enter(self, host: Host) -> None:
        self._read(host, host.ui.state_of(HistoryView))

    def after(self, host: Host, result: Result) -> None:
        if host.ui.screen == NAME:
            self._read(host, host.ui.state_of(HistoryView))

    @staticmethod
    def _read(host: Host, view: HistoryView) -> None:
        """The game's changes from the journal, the newest in view (the log opens at the end)."""
        host.ui.put(
            replace(view, entries=tuple(Entry.of(txn) for txn in host.history()), last=None)
        )

    # -- acting -----------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None:
            return False
        view = host.ui.state_of(HistoryView)
        count = self._rows(view, state, host.tr)[0]
        if isinstance(action, HistoryPane):
            host.ui.put(replace(view, pane=action.pane, last=None))
            return True
        if (
            isinstance(action, Focus)
            or isinstance(action, Press)
            and action.button is Button.SELECT
            and not action.long
        ):
            host.ui.put(
                replace(view, pane=PANES[(PANES.index(view.pane) + 1) % len(PANES)], last=None)
            )
            return True
        if isinstance(action, Turn):
            last = count - 1 if view.last is None else view.last
            host.ui.put(replace(view, last=max(0, min(count - 1, last + action.steps))))
            return True
        if isinstance(action, HistoryScroll):
            host.ui.put(replace(view, last=max(0, min(count - 1, action.last))))
            return True
        return False

    @staticmethod
    def _rows(
        view: HistoryView, state: GameState, tr: Translator
    ) -> tuple[int, Callable[[int], Row]]:
        """How many rows the tab shown has, and row ``index`` of it."""
        if view.pane == LOG:
            entries = view.entries
            return max(1, len(entries)), lambda index: log_row(entries, index, tr)
        rows = dealt_rows(state, tr)  # a line a source and target: a few
        return len(rows), rows.__getitem__

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None
        c, lay, tr = view.canvas, view.layout, view.tr
        form = view.ui.state_of(HistoryView)
        x, y = lay.margin, view.top
        w, h = c.width - 2 * lay.margin, view.bottom - view.top
        top = (
            y
            + draw_tabs(view, (x, y), w, PANES, form.pane, "ui.history.tab", "history", HistoryPane)
            + lay.margin // 2
        )
        self._draw_rows(view, *self._rows(form, state, tr), form.last, (x, top, w, y + h - top))

    def _draw_rows(
        self, view: View, count: int, row: Callable[[int], Row], last: int | None, area: Rect
    ) -> None:
        """The rows that end with ``last`` (None: the newest), each wrapped whole, as many as fit
        above it; markers on the right say how many are hidden above and below."""
        c, lay = view.canvas, view.layout
        x, y, w, h = area
        gap = max(2, lay.margin // 2)
        size = lay.small
        step = c.fonts.line_height(size)
        end = count - 1 if last is None else max(0, min(count - 1, last))
        worded: dict[int, Row] = {}

        def at(index: int) -> Row:
            if index not in worded:
                worded[index] = row(index)
            return worded[index]

        # The times stand in a column of their own, left of the words, as wide as the newest row's
        # time (HH:MM; measured on a row in view, not by wording the whole history).
        newest = at(end).when if count else ""
        clock = c.fonts.measure(newest, size)[0] + 2 * gap if newest else 0

        def fitting(width: int) -> list[int]:
            """The rows shown (their indices, oldest first), ending at ``end``."""
            shown: list[int] = []
            used = 0
            for index in range(end, -1, -1):
                need = len(c.wrap(at(index).text, size, width - clock)) * step
                if shown and used + need > h:
                    break
                shown.insert(0, index)
                used += need + gap
            return shown

        shown = fitting(w)
        side = 0
        if len(shown) < count:
            side = marker_width(view) + gap
            shown = fitting(w - side)
        top = y
        for index in shown:
            found = at(index)
            lines = c.wrap(found.text, size, w - side - clock)
            height = min(len(lines) * step, y + h - top)
            if found.when:
                c.text(found.when, (x, top), size, theme.DIM, role=f"history.time.{index}")
            c.paragraph(
                found.text,
                (x + clock, top, w - side - clock, height),
                size,
                found.color,
                role=f"history.row{index}",
                min_size=size,
            )
            top += height + gap
        if side:
            column = (x + w - side + gap, y, side - gap, h)
            before, after = shown[0], count - 1 - shown[-1]
            scroll_markers(
                view,
                column,
                before,
                after,
                "history.more",
                (HistoryScroll(shown[-1] - 1), HistoryScroll(shown[-1] + 1)),
            )
