"""The saved games: every game the journal keeps, the one played last first, to resume one or
delete one for good.

Each row says what the console's ``games`` says (``device.games``): the game's number, formats
and players, when it was last played and how far it got (the turn or round, the result once it
is over); the game being played is green and says so, and a game whose events are damaged is
listed under the title the journal keeps, to be deleted.  ↑/↓ (the encoder) move the cursor and
the rows scroll with it, markers at the right saying how many are hidden above and below (a touch
on one scrolls).  SELECT or NEXT resumes the cursor's game, on the table; a touch on a row moves
the cursor there, and a touch on the cursor's row resumes it.

Deleting takes two presses of the same control: UNDO (Backspace) or a touch on the Delete chip
of the cursor's row asks "Delete game 3 for good?" on that row, and the same again within
``CONFIRM`` seconds deletes it; anything else in between — another button, a turn, a touch
elsewhere, the time running out — only keeps the game, so one stray press never deletes one.
Deleting the game being played goes to the set-up, its players kept on the form for the table's
next game.

Reached with key S from any screen, and from the set-up screen (its "Saved games" chip, or a long
SELECT there: the GPIO buttons' way, long SELECT twice from anywhere); no touch-bar button
(docs/decisions/0019).  The list is read from the journal when the screen is shown and after each
change while it is, never per frame.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from device.controller import Result
from device.games import SavedGame
from device.inputs import Button
from device.text import Message
from display import theme
from display.canvas import Rect
from display.chips import chip_label, draw_chip, inset, marker_width, scroll_markers
from display.i18n import Translator
from display.screens import Host, Screen, View, chip_step
from display.screens.setup import remember_players, window
from display.ui import Action, Back, Press, Tap

NAME = "games"
CONFIRM = 10.0  # seconds a delete waits for its second press


class GameRow(Tap, frozen=True):
    """A saved game's row: the cursor to it, and resumed when it was there already."""

    index: int


class DeleteGame(Tap, frozen=True):
    """A saved game's delete chip: asks first, deletes at the second touch."""

    index: int


class GamesScroll(Tap, frozen=True):
    """A scroll marker: the cursor to game ``index``."""

    index: int


class GamesView(Struct, frozen=True):
    """What the screen remembers: the games as last read and the one being played then, the
    cursor's place in them, and the game whose deletion waits for its second press (and until
    when)."""

    games: tuple[SavedGame, ...] = ()
    shown: int | None = None
    cursor: int = 0
    armed: int | None = None
    until: float = 0.0


class Row(Struct, frozen=True):
    """A game's row as drawn: its words, its detail line and the detail's colour."""

    title: str
    detail: str
    color: tuple[int, int, int]


def row(saved: SavedGame, form: GamesView, tr: Translator) -> Row:
    """A game's row in the screen's language: "3. Commander: Alice, Bob" over "2025-06-01 21:30 ·
    turn 4"; while its deletion waits for the second press, the question instead."""
    title = tr("ui.games.row", number=saved.id, title=_said(saved.title, tr))
    if saved.id == form.armed:
        return Row(title, tr("ui.games.confirm", number=saved.id), theme.ERROR)
    detail = tr("ui.games.detail", when=saved.when(), progress=tr.message(saved.progress))
    if saved.id == form.shown:
        detail = tr("ui.games.playing", detail=detail)
    return Row(title, detail, theme.WARN if saved.damaged else theme.DIM)


def _said(text: str | Message, tr: Translator) -> str:
    return tr.message(text) if isinstance(text, Message) else text


class Games(Screen):
    name = NAME
    key = "s"

    def enter(self, host: Host) -> None:
        self._read(host, None)

    def after(self, host: Host, result: Result) -> None:
        if host.ui.screen == NAME:
            view = host.ui.state_of(GamesView)
            self._read(host, view.games[view.cursor].id if view.games else None, view.cursor)

    @staticmethod
    def _read(host: Host, at: int | None, place: int | None = None) -> None:
        """The games from the journal, the cursor on game ``at``; when it is gone (deleted), at
        ``place`` in the list (the next game); else on the game being played, or the first."""
        games = tuple(host.saved_games())
        numbers = [saved.id for saved in games]
        if at in numbers:
            cursor = numbers.index(at)
        elif place is not None:
            cursor = max(0, min(len(numbers) - 1, place))
        else:
            cursor = numbers.index(host.game) if host.game in numbers else 0
        host.ui.put(GamesView(games=games, shown=host.game, cursor=cursor))

    def deadline(self, view: View) -> float | None:
        kept = view.ui.kept(GamesView)
        return kept.until if kept is not None and kept.armed is not None else None

    def tick(self, host: Host) -> bool:
        view = host.ui.state_of(GamesView)
        if view.armed is None or host.now() < view.until:
            return False
        host.ui.put(replace(view, armed=None))  # not confirmed in time: the game stays
        return True

    # -- acting -----------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        view = host.ui.state_of(GamesView)
        if view.armed is not None:
            return self._confirming(host, view, action)
        steps = chip_step(action)
        if steps is not None:
            host.ui.put(replace(view, cursor=max(0, min(len(view.games) - 1, view.cursor + steps))))
            return True
        if isinstance(action, GameRow | DeleteGame | GamesScroll):
            picked = action.index == view.cursor
            view = host.ui.put(replace(view, cursor=action.index))
            if isinstance(action, GameRow) and picked:
                self._resume(host, view)  # a touch on another game only moves the cursor there
            elif isinstance(action, DeleteGame):
                self._arm(host, view)
            return True
        if (
            isinstance(action, Press)
            and not action.long
            and action.button in (Button.SELECT, Button.NEXT)
        ):
            self._resume(host, view)
            return True
        if isinstance(action, Press) and action.button is Button.UNDO:
            self._arm(host, view)  # on this screen UNDO deletes: the first press asks
            return True
        if isinstance(action, Back):
            host.go("table" if host.state is not None else "setup")
            return True
        return False

    def _confirming(self, host: Host, view: GamesView, action: Action) -> bool:
        """The second press: the same control deletes; anything else only keeps the game."""
        host.ui.put(replace(view, armed=None))
        undo = isinstance(action, Press) and action.button is Button.UNDO
        chip = isinstance(action, DeleteGame) and view.games[action.index].id == view.armed
        if undo or chip:
            self._delete(host, view)
        return True

    @staticmethod
    def _arm(host: Host, view: GamesView) -> None:
        if view.games:
            host.ui.put(replace(view, armed=view.games[view.cursor].id, until=host.now() + CONFIRM))

    @staticmethod
    def _resume(host: Host, view: GamesView) -> None:
        if not view.games:
            host.go("setup")  # nothing to resume: a new game
            return
        game = view.games[view.cursor].id
        if game == host.game or host.load(game) is not None:
            host.go("table")

    @staticmethod
    def _delete(host: Host, view: GamesView) -> None:
        game = view.armed
        if game is None:
            return
        if game == host.game:
            remember_players(host)  # the table's players stay on the set-up form
        if host.delete(game) is not None and host.game is None:
            host.go(
                "setup"
            )  # the game being played is gone (not when damage was recovered from instead)

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        form = view.ui.state_of(GamesView)
        x, width = lay.margin, c.width - 2 * lay.margin
        c.text(
            tr("ui.games.title", n=len(form.games)),
            (x, view.top),
            lay.medium,
            theme.CURSOR,
            bold=True,
            max_width=width,
            role="games.title",
            min_size=lay.tiny,
        )
        top = view.top + c.fonts.line_height(lay.medium, True) + max(2, lay.margin // 2)
        asking = form.armed is not None
        hint = tr("ui.games.hint_confirm" if asking else "ui.games.hint")
        step = c.fonts.line_height(lay.tiny)
        lines = max(1, min(2, len(c.wrap(hint, lay.tiny, width))))
        hint_top = view.bottom - lines * step
        c.paragraph(
            hint,
            (x, hint_top, width, lines * step),
            lay.tiny,
            theme.ERROR if asking else theme.DIM,
            role="games.hint",
            min_size=lay.tiny,
        )
        area = (x, top, width, hint_top - max(2, lay.margin // 2) - top)
        if not form.games:
            c.paragraph(
                tr("ui.games.empty"),
                area,
                lay.small,
                theme.DIM,
                role="games.empty",
                min_size=lay.small,
            )
            return
        self._draw_rows(view, form, area)

    def _draw_rows(self, view: View, form: GamesView, area: Rect) -> None:
        """The rows round the cursor, each whole, as many as fit; markers at the right say how
        many are hidden above and below (a touch on one scrolls)."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        gap = max(2, lay.margin // 2)
        rows = [row(saved, form, tr) for saved in form.games]
        # Only the cursor's row has its Delete chip: the other rows' words get the whole width.
        chip_w = max(
            lay.touch, c.fonts.measure(tr("ui.games.delete"), lay.small, True)[0] + 2 * lay.margin
        )

        def room(index: int, width: int) -> int:
            return width - 2 * lay.margin - (chip_w if index == form.cursor else 0)

        def heights(width: int) -> list[int]:
            return [
                self._height(view, found, room(index, width)) + gap
                for index, found in enumerate(rows)
            ]

        side = 0
        first, last = window(heights(w), form.cursor, h + gap)
        if first > 0 or last < len(rows):
            side = marker_width(view) + gap
            first, last = window(heights(w - side), form.cursor, h + gap)
        row_w = w - side
        top = y
        for index in range(first, last):
            height = self._height(view, rows[index], room(index, row_w))
            self._draw_row(
                view, form, index, rows[index], (x, top, row_w, height), room(index, row_w)
            )
            top += height + gap
        if side:
            column = (x + row_w + gap, y, side - gap, h)
            scroll_markers(
                view,
                column,
                first,
                len(rows) - last,
                "games.more",
                (
                    GamesScroll(max(0, first - 1)),
                    GamesScroll(min(len(rows) - 1, last)),
                ),
            )

    @staticmethod
    def _height(view: View, found: Row, width: int) -> int:
        """A row's height: its title and detail wrapped whole in ``width``, at least a fingertip."""
        c, lay = view.canvas, view.layout
        title = len(c.wrap(found.title, lay.small, width, bold=True)) * c.fonts.line_height(
            lay.small, True
        )
        detail = len(c.wrap(found.detail, lay.tiny, width)) * c.fonts.line_height(lay.tiny)
        return max(lay.touch, title + detail + lay.margin)

    @staticmethod
    def _draw_row(
        view: View, form: GamesView, index: int, found: Row, rect: Rect, text_w: int
    ) -> None:
        """One game: its words at the left (a touch there moves the cursor to it, or resumes it
        when it is the cursor's); on the cursor's row the Delete chip at the right.  The game
        being played is green, the one asking to be deleted red."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = rect
        saved = form.games[index]
        armed = saved.id == form.armed
        c.box(
            rect,
            theme.ERROR_BG if armed else theme.ACTIVE if saved.id == form.shown else theme.PANEL,
        )
        words_w = text_w + 2 * lay.margin
        c.target((x, y, words_w, h), GameRow(index))
        title_h = len(c.wrap(found.title, lay.small, text_w, bold=True)) * c.fonts.line_height(
            lay.small, True
        )
        detail_h = len(c.wrap(found.detail, lay.tiny, text_w)) * c.fonts.line_height(lay.tiny)
        top = y + (h - title_h - detail_h) // 2
        c.paragraph(
            found.title,
            (x + lay.margin, top, text_w, title_h),
            lay.small,
            theme.TEXT,
            role=f"games.row{index}",
            bold=True,
            min_size=lay.small,
        )
        c.paragraph(
            found.detail,
            (x + lay.margin, top + title_h, text_w, detail_h),
            lay.tiny,
            found.color,
            role=f"games.detail{index}",
            min_size=lay.tiny,
        )
        if index != form.cursor:
            return
        chip = (x + words_w, y, w - words_w, h)
        if armed:  # the chip a second touch deletes with: red, as the row
            c.box(inset(chip), theme.ERROR)
            chip_label(view, chip, tr("ui.games.delete"), f"games.delete{index}", bold=True)
        else:
            draw_chip(view, chip, tr("ui.games.delete"), False, False, f"games.delete{index}")
        c.target(chip, DeleteGame(index))
        c.box(rect, theme.CURSOR, width=max(2, lay.line))
