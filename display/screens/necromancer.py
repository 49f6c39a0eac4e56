"""Necromancer: masters and their minions, solo turns, and who was responsible for a loss (NC-1..NC-6).

When a player loses, the screen comes up and asks who made them lose: the player the loss was
recorded against is picked already; ↑/↓ (the encoder) or ←/→ pick another player or nobody, and
SELECT or NEXT confirms (a touch on an answer does both).  A different answer puts the loss down
to that player with the rules' ``Blame`` command, which settles it again.  Otherwise the screen
lists every player: never died or full status, whose minion, solo turns done, whether they can
still win, their own minions.  A minion playing their three solo turns is highlighted; SELECT (or
a touch on their row) records that they finished one.

The table's seats show the same standing in a line under the name, and the upkeep banner reminds
the table of every minion still playing solo turns.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct
from msgspec.structs import replace

from device.controller import Result
from device.events import Event
from device.inputs import Button
from device.rules.necromancer.commands import Blame, SoloTurn
from device.rules.necromancer.events import LossReattributed, LossSettled
from device.state import GameState, Player
from device.rules.necromancer.state import SOLO_TURNS, Fate, NecromancerState, Phase
from display import theme
from display.canvas import Rect
from display.chips import (
    Chip,
    block,
    chip_grid,
    grid_columns,
    marker_width,
    scroll_markers,
    wrap_fit,
)
from display.i18n import Translator
from display.screens import Host, Screen, View, chip_step, chip_window
from display.ui import Action, Press, Tap

NAME = "necromancer"


def standing(tr: Translator, state: GameState, seat: int) -> list[str]:
    """A player's standing in short phrases: whose minion, solo turns, can win (NC-3, NC-4)."""
    necro = state.necromancer
    assert necro is not None
    record = necro.seat(seat)
    if record.out:
        return [tr("ui.necro.out")]
    parts: list[str] = []
    if record.minion:
        if record.master is not None:
            parts.append(tr("ui.necro.minion_of", name=state.player(record.master).name))
        else:
            parts.append(tr("ui.necro.masterless"))
    if record.phase is Phase.SOLO:
        parts.append(tr("ui.necro.solo", done=record.solo_done, total=SOLO_TURNS))
    elif record.phase is Phase.WAITING:
        parts.append(tr("ui.necro.waiting"))
    parts.append(tr("ui.necro.can_win") if record.can_win else tr("ui.necro.cannot_win"))
    return parts


def _seat_badges(view: View, state: GameState, player: Player) -> list[str]:
    if state.necromancer is None:
        return []
    return standing(view.tr, state, player.seat)


def _solo_upkeep(state: GameState, tr: Translator) -> list[str]:
    """NC-3: the minions playing solo turns apart from the game, each a reminder."""
    necro = state.necromancer
    if necro is None:
        return []
    return [
        tr(
            "ui.necro.upkeep_solo",
            name=state.player(r.seat).name,
            number=r.solo_done + 1,
            total=SOLO_TURNS,
        )
        for r in necro.seats
        if r.phase is Phase.SOLO
    ]


def answers(state: GameState, seat: int) -> list[int | None]:
    """Who may be named responsible for ``seat``'s loss: every other player still in the game
    for good (a master), then nobody."""
    necro = state.necromancer
    assert necro is not None
    return [p.seat for p in state.players if p.seat != seat and not necro.seat(p.seat).out] + [None]


def soloing(necro: NecromancerState) -> list[int]:
    return [r.seat for r in necro.seats if r.phase is Phase.SOLO]


class BlameTap(Tap, frozen=True):
    """An answer's chip: the seat responsible for the loss (None: nobody)."""

    responsible: int | None


class AnswerScroll(Tap, frozen=True):
    """A scroll marker beside the answers: the next hidden one (``index``)."""

    index: int


class SoloTap(Tap, frozen=True):
    """A seat that may solo: its solo turn."""

    seat: int


class RowScroll(Tap, frozen=True):
    """A scroll marker beside the list: the list scrolled to ``row``."""

    row: int


class NecromancerAsk(Struct, frozen=True):
    """What the Necromancer screen remembers: the seat whose loss it asks about (NC-1) and the
    answer picked; on the list, the soloing seat the cursor is on and the row scrolled to (None:
    the chosen seat's)."""

    ask: int | None = None
    pick: int = 0
    cursor: int = 0
    row: int | None = None


class Necromancer(Screen):
    name = NAME
    button = "ui.btn.necro"
    key = "m"
    seat_badges = staticmethod(_seat_badges)
    upkeep_items = staticmethod(_solo_upkeep)

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.necromancer is not None

    # -- the question after a loss (NC-1) --------------------------------------------------

    def asking(self, state: GameState | None, form: NecromancerAsk) -> int | None:
        """The seat whose loss the screen asks about, while the rules still let it change."""
        seat = form.ask
        if state is None or state.necromancer is None or seat is None:
            return None
        death = state.necromancer.last_death
        if death is None or death.seat != seat or state.necromancer.seat(seat).solo_done > 0:
            return None
        return seat

    def follows(self, events: Sequence[Event]) -> bool:
        return any(isinstance(e, LossSettled) and e.fate is not Fate.CONCEDED for e in events)

    def after(self, host: Host, result: Result) -> None:
        form = host.ui.put(host.ui.state_of(NecromancerAsk))
        if any(isinstance(e, LossReattributed) for e in result.events):
            host.ui.put(replace(form, ask=None))  # answered
            return
        settled = [
            e for e in result.events if isinstance(e, LossSettled) and e.fate is not Fate.CONCEDED
        ]
        if settled and host.state is not None:
            latest = settled[-1]
            options = answers(host.state, latest.seat)
            pick = (
                options.index(latest.responsible)
                if latest.responsible in options
                else len(options) - 1
            )
            host.ui.put(replace(form, ask=latest.seat, pick=pick))

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None or state.necromancer is None:
            return False
        form = host.ui.put(host.ui.state_of(NecromancerAsk))
        seat = self.asking(state, form)
        if seat is not None:
            return self._answer(host, state, form, seat, action)
        return self._solo(host, state, form, action)

    def _answer(
        self, host: Host, state: GameState, form: NecromancerAsk, seat: int, action: Action
    ) -> bool:
        options = answers(state, seat)
        pick = form.pick % len(options)
        step = chip_step(action)
        if step is not None:
            host.ui.put(replace(form, pick=(pick + step) % len(options)))
            return True
        if isinstance(action, AnswerScroll):
            # A scroll marker: the next hidden answer.
            host.ui.put(replace(form, pick=action.index % len(options)))
            return True
        chosen: int | None
        if isinstance(action, BlameTap):
            chosen = action.responsible
        elif (
            isinstance(action, Press)
            and action.button in (Button.SELECT, Button.NEXT)
            and not action.long
        ):
            chosen = options[pick]
        else:
            return False
        death = state.necromancer.last_death if state.necromancer is not None else None
        if death is not None and death.responsible == chosen:
            host.ui.put(replace(form, ask=None))  # confirmed as recorded: nothing to settle again
            return True
        host.execute(Blame(seat=seat, responsible=chosen))
        return True

    def _solo(self, host: Host, state: GameState, form: NecromancerAsk, action: Action) -> bool:
        assert state.necromancer is not None
        seats = soloing(state.necromancer)
        count = len(state.players)
        if isinstance(action, SoloTap):
            host.execute(SoloTurn(seat=action.seat))
            return True
        if isinstance(action, RowScroll):
            # A scroll marker: the next hidden row.
            host.ui.put(replace(form, row=max(0, min(count - 1, action.row))))
            return True
        step = chip_step(action)
        if not seats:
            if step is not None:  # nobody to pick: the encoder scrolls a long list
                row = form.row if form.row is not None else 0
                host.ui.put(replace(form, row=max(0, min(count - 1, row + step))))
                return True
            return False
        cursor = form.cursor % len(seats)
        if step is not None:
            moved = (cursor + step) % len(seats)
            host.ui.put(
                replace(form, cursor=moved, row=seats[moved])
            )  # the list scrolls to the cursor
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            host.execute(SoloTurn(seat=seats[cursor]))
            return True
        return False

    # -- drawing --------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None and state.necromancer is not None
        c, lay = view.canvas, view.layout
        area: Rect = (lay.margin, view.top, c.width - 2 * lay.margin, view.bottom - view.top)
        form = view.ui.state_of(NecromancerAsk)
        seat = self.asking(state, form)
        if seat is not None:
            self._draw_question(view, state, seat, form.pick, area)
        else:
            self._draw_list(view, state, form, area)

    def _draw_question(
        self, view: View, state: GameState, seat: int, pick: int, area: Rect
    ) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        question = tr("ui.necro.ask", name=state.player(seat).name)
        fitted = (
            wrap_fit(view, question, w, lay.big, smallest=lay.small, bold=True)
            or wrap_fit(view, question, w, lay.small, lines=3, bold=True)
            or (lay.tiny, [question])
        )
        top = y + block(
            view, question, (x, y), w, fitted, theme.CURSOR, "necro.ask", bold=True, align="center"
        )
        hint = tr("ui.necro.ask_hint")
        hint_fit = wrap_fit(view, hint, w, lay.small)
        hint_h = len(hint_fit[1]) * c.fonts.line_height(hint_fit[0]) if hint_fit is not None else 0
        options = answers(state, seat)
        pick %= len(options)
        chips = [
            Chip(
                tr("ui.necro.nobody") if answer is None else state.player(answer).name,
                BlameTap(answer),
                short=tr("ui.necro.nobody.short") if answer is None else "",
            )
            for answer in options
        ]
        top += lay.margin // 2
        room = y + h - top
        # The hint (what the keys do) gives way when the answers would not all show without it.
        cols, whole = grid_columns(
            view,
            (x, top, w, room - hint_h - lay.margin // 2),
            chips,
            ANSWER_COLUMNS,
            align="center",
        )
        if hint_fit is not None and (
            whole
            or not grid_columns(view, (x, top, w, room), chips, ANSWER_COLUMNS, align="center")[1]
        ):
            room -= hint_h + lay.margin // 2
            block(
                view,
                hint,
                (x, y + h - hint_h),
                w,
                hint_fit,
                theme.DIM,
                "necro.ask.hint",
                align="center",
            )
        chip_grid(
            view,
            (x, top, w, room),
            chips,
            pick,
            "necro.answer",
            AnswerScroll,
            columns=ANSWER_COLUMNS,
            align="center",
            largest=lay.medium,
        )

    def _draw_list(self, view: View, state: GameState, form: NecromancerAsk, area: Rect) -> None:
        """Every player a row: the name, and their standing on one line or two; rows a fingertip
        tall where a solo turn is there to record.  More rows than fit: a window round the row
        in view (the cursor's), with markers saying how many are above and below."""
        c, lay, tr = view.canvas, view.layout, view.tr
        necro = state.necromancer
        assert necro is not None
        x, y, w, h = area
        title = c.text(
            tr("ui.necro.title"),
            (x, y),
            lay.medium,
            theme.CURSOR,
            bold=True,
            max_width=w,
            role="necro.title",
            min_size=lay.tiny,
        )
        seats = soloing(necro)
        cursor = form.cursor
        chosen = seats[cursor % len(seats)] if seats else None
        top = title.bottom + lay.margin // 2
        gap = max(2, lay.margin // 2)
        count = len(state.players)
        texts = [self._standing(tr, state, necro, player.seat) for player in state.players]
        name_w = w // 4
        marker_w = marker_width(view) + gap

        def plan(room: int) -> tuple[int, int, int, bool]:
            """The type size, row height and rows shown in ``room``, and whether they all show."""
            for scrolled in (False, True):
                text_w = w - name_w - lay.margin - (marker_w if scrolled else 0)
                for size in (lay.small, lay.tiny):
                    wrapped = [c.wrapped(t, size, text_w) for t in texts]
                    if any(lines is None or len(lines) > 2 for lines in wrapped):
                        continue
                    lines = max(len(lines or []) for lines in wrapped)
                    row_h = max(
                        lay.touch if seats else 0, lines * c.fonts.line_height(size) + gap * 2
                    )
                    fit = max(1, (room + gap) // (row_h + gap))
                    if fit >= count or scrolled:
                        return size, row_h, fit, fit >= count
            return (
                lay.tiny,
                max(lay.touch, 2 * c.fonts.line_height(lay.tiny) + 2 * gap),
                max(1, (room + gap) // (lay.touch + gap)),
                False,
            )

        hint = (
            tr("ui.necro.solo_hint", name=state.player(chosen).name) if chosen is not None else ""
        )
        hint_fit = wrap_fit(view, hint, w, lay.small) if hint else None
        hint_h = (
            len(hint_fit[1]) * c.fonts.line_height(hint_fit[0]) + gap if hint_fit is not None else 0
        )
        room = y + h - top
        size, row_h, fit, whole = plan(room - hint_h)
        if hint_fit is not None and (whole or not plan(room)[3]):
            room -= hint_h
            block(
                view,
                hint,
                (x, y + h - hint_h + gap),
                w,
                hint_fit,
                theme.DIM,
                "necro.solo.hint",
                align="center",
            )
        else:
            size, row_h, fit, whole = plan(room)
        focus = form.row if form.row is not None else chosen if chosen is not None else 0
        shown = chip_window(count, max(0, min(count - 1, focus)), fit)
        right = 0 if whole else marker_w
        name_size = lay.medium if row_h >= c.fonts.line_height(lay.medium) * 2 else size
        for slot, index in enumerate(shown):
            player = state.players[index]
            record = necro.seat(player.seat)
            rect = (x, top + slot * (row_h + gap), w - right, row_h)
            solo = record.phase is Phase.SOLO
            c.box(rect, theme.LOST_BG if record.out else theme.ACTIVE if solo else theme.PANEL)
            if player.seat == chosen:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            middle = rect[1] + rect[3] // 2
            color = theme.FAINT if record.out else theme.TEXT
            c.text(
                player.name,
                (x + lay.margin, middle),
                name_size,
                color,
                anchor="midleft",
                bold=True,
                max_width=name_w - lay.margin,
                role="necro.name",
                min_size=lay.tiny,
            )
            text_w = w - right - name_w - lay.margin
            lines = c.wrapped(texts[index], size, text_w) or [texts[index]]
            height = len(lines) * c.fonts.line_height(size)
            tone = theme.FAINT if record.out else theme.WARN if record.minion else theme.TEXT
            c.paragraph(
                texts[index],
                (x + name_w, middle - height // 2, text_w, height),
                size,
                tone,
                role=f"necro.row{player.seat}",
                min_size=size,
            )
            if solo:
                c.target(rect, SoloTap(player.seat))
        if right:
            column = (x + w - right + gap, top, right - gap, len(shown) * (row_h + gap) - gap)
            scroll_markers(
                view,
                column,
                shown.start,
                count - shown.stop,
                "necro.list.more",
                (RowScroll(shown.start - 1), RowScroll(shown.stop)),
            )

    def _standing(
        self, tr: Translator, state: GameState, necro: NecromancerState, seat: int
    ) -> str:
        record = necro.seat(seat)
        parts = standing(tr, state, seat)
        if record.deaths == 0 and not record.out:
            parts.insert(0, tr("ui.necro.never_died"))
        elif not record.minion and not record.out:
            parts.insert(0, tr("ui.necro.full"))
        minions = [state.player(r.seat).name for r in necro.seats if r.master == seat]
        if minions:
            parts.append(tr("ui.necro.minions", names=", ".join(minions)))
        return " · ".join(parts)


#: The answers in one column, or two or three where that shows them all.
ANSWER_COLUMNS = (1, 2, 3)
