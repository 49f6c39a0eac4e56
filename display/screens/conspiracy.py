"""Conspiracy: the pod's standings (CJ-1..CJ-6, CJ-8).

A pod (or a Group Game Draft's one table) shows its event and pod number, the round, the table
options players must be told about (CJ-6), each group of the current round in seating order
(the first named took the first turn; whose turn it is highlighted; who left, numbered in the
order they left, players who left together sharing a number) and, beside them, the standings:
places 1–N as they become known, each player's group in each round, and the Rumble picks
earned (CJ-8).  The header's clock counts down the round's time limit once the round's clock is
started (CJ-5).
"""

from __future__ import annotations

from collections.abc import Sequence

from device.events import Event
from device.rules.conspiracy import (
    GroupLeft,
    GroupRankedByLife,
    group_title,
    RoundStarted,
    RumblePickEarned,
    TimeCalled,
    nth,
    shown_options,
    standings,
    time_left,
)
from device.state import GameState
from device.state_conspiracy import ConspiracyState, GroupRecord
from device.text import Message
from display import render, theme
from display.canvas import Rect
from display.i18n import Translator
from display.i18n import conspiracy as _texts  # noqa: F401 - registers the screen's texts
from display.screens import Screen, View, screen

NAME = "conspiracy"


def _round_clock(state: GameState, wall: float) -> float | None:
    """CJ-5: the header counts down the round's own clock, not the time since the game began."""
    return time_left(state, wall)


def _headline(state: GameState, tr: Translator) -> str:
    """A pod's groups take their turns at their own tables: the header names the round instead."""
    consp = state.conspiracy
    if consp is None or consp.draft:
        return tr("ui.turn_of", name=state.player(state.active).name)
    return tr("ui.consp.round", round=consp.round)


render.GAME_CLOCKS["conspiracy"] = _round_clock
render.HEADLINES["conspiracy"] = _headline


def heading(view: View, state: GameState, consp: ConspiracyState) -> str:
    tr = view.tr
    parts: list[str] = []
    event = state.options.get("event", "")
    if consp.draft:
        parts.append(tr("ui.consp.draft"))
    else:
        if event:
            parts.append(str(event))
        parts.append(tr("ui.consp.pod", pod=state.options.get("pod", 1)))
        parts.append(tr("ui.consp.round", round=consp.round))
        if consp.time_called is not None:
            parts.append(tr("ui.consp.extra_turns"))
        elif consp.clock_started is None:
            parts.append(tr("ui.consp.clock_off", minutes=state.options.get("time_limit", 75)))
    return " · ".join(parts)


def left_numbers(group: GroupRecord) -> dict[int, int]:
    """Who left the group, numbered in the order they left (together: the same number)."""
    return {seat: index + 1 for index, batch in enumerate(group.left) for seat in batch}


@screen
class Conspiracy(Screen):
    name = NAME
    button = "ui.btn.consp"
    key = "g"

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.conspiracy is not None

    def follows(self, events: Sequence[Event]) -> bool:
        shown = (GroupLeft, GroupRankedByLife, TimeCalled, RumblePickEarned)
        return any(isinstance(e, shown) for e in events) or any(
            isinstance(e, RoundStarted) and e.round > 1 for e in events
        )

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None and state.conspiracy is not None
        consp = state.conspiracy
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = lay.margin, view.top, c.width - 2 * lay.margin, view.bottom - view.top
        top = c.text(heading(view, state, consp), (x, y), lay.small, theme.DIM, max_width=w, role="consp.heading",
                     min_size=lay.tiny).bottom
        options = [tr.message(Message(key)) for key in shown_options(state)]
        if options:
            top = c.text(tr("ui.consp.options", options=" · ".join(options)), (x, top), lay.small, theme.WARN,
                         max_width=w, role="consp.options", min_size=lay.tiny).bottom
        top += lay.margin // 2
        side = w * 2 // 5
        groups: Rect = (x, top, w - side - lay.margin, y + h - top)
        ranks: Rect = (x + w - side, top, side, y + h - top)
        # One type size for both sides, the largest that fits the longer list.
        rows = max([len(state.players)] + [len(g.order) for g in consp.groups]) + 1
        size = self._row_size(view, rows, y + h - top - lay.margin)
        self._draw_groups(view, state, consp, groups, size)
        self._draw_standings(view, state, consp, ranks, size)

    def _row_size(self, view: View, rows: int, height: int) -> int:
        lay, fonts = view.layout, view.canvas.fonts
        for size in (lay.medium, lay.small, lay.tiny):
            if fonts.line_height(size) * rows <= height:
                return size
        return lay.tiny * 4 // 5

    def _draw_groups(self, view: View, state: GameState, consp: ConspiracyState, area: Rect, size: int) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        groups = consp.groups
        if not groups:
            return
        gap = lay.margin
        each = (w - gap * (len(groups) - 1)) // len(groups)
        line = c.fonts.line_height(size)
        for index, group in enumerate(groups):
            gx = x + index * (each + gap)
            c.box((gx, y, each, h), theme.PANEL)
            pad = lay.margin // 2 + 1
            title = tr.message(Message(f"consp.group.{group.label}"))
            if group.done:
                title = tr("ui.consp.finished", group=title)
            c.text(title, (gx + pad, y + pad), size, theme.CURSOR, bold=True, max_width=each - 2 * pad,
                   role="consp.group.title", min_size=lay.tiny * 4 // 5)
            gone = left_numbers(group)
            for row, seat in enumerate(group.order):
                ry = y + pad + line * (row + 1)
                active = seat == group.active and seat not in gone and not group.done
                if active:
                    c.box((gx + 1, ry, each - 2, line), theme.ACTIVE)
                name = f"{row + 1}. {state.player(seat).name}"
                out = seat in gone
                mark = tr("ui.consp.left_n", n=gone[seat]) if out else ""
                mark_w = c.fonts.measure(mark, size, False)[0] + pad if mark else 0
                c.text(name, (gx + pad, ry), size, theme.FAINT if out else theme.TEXT, bold=active,
                       max_width=each - 2 * pad - mark_w, role=f"consp.{group.label}.seat", min_size=lay.tiny * 4 // 5)
                if mark:
                    c.text(mark, (gx + each - pad, ry), size, theme.ERROR, anchor="topright",
                           role=f"consp.{group.label}.left")

    def _draw_standings(self, view: View, state: GameState, consp: ConspiracyState, area: Rect, size: int) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        c.box(area, theme.PANEL)
        pad = lay.margin // 2 + 1
        rows = standings(state)
        line = c.fonts.line_height(size)
        c.text(tr("ui.consp.standings"), (x + pad, y + pad), size, theme.CURSOR, bold=True, max_width=w - 2 * pad,
               role="consp.standings.title", min_size=lay.tiny * 4 // 5)
        place_w = c.fonts.measure(tr.message(nth(10)), size, True)[0] + pad
        for index, row in enumerate(rows):
            ry = y + pad + line * (index + 1)
            place = tr.message(nth(row.place)) if row.place is not None else "–"
            c.text(place, (x + pad, ry), size, theme.CURSOR if row.place == 1 else theme.TEXT, bold=True,
                   max_width=place_w, role="consp.place", min_size=lay.tiny * 4 // 5)
            picks = consp.picks[row.seat] if row.seat < len(consp.picks) else 0
            # Where the player came from: their round-1 group, once round 2 has regrouped everyone.
            note = tr.message(group_title(row.groups[0])) if len(row.groups) > 1 and size >= lay.small else ""
            note_w = min(c.fonts.measure(note, size, False)[0], (w - place_w) // 3) + pad if note else 0
            name = c.text(row.name, (x + pad + place_w, ry), size, theme.TEXT,
                          max_width=w - 2 * pad - place_w - note_w, role="consp.standing", min_size=lay.tiny * 4 // 5)
            if picks:
                c.text(tr("ui.consp.picks", n=picks), (name.right + pad, ry), size, theme.WARN,
                       max_width=max(1, x + w - pad - note_w - name.right - pad), role="consp.picks",
                       min_size=lay.tiny * 4 // 5)
            if note:
                c.text(note, (x + w - pad, ry), size, theme.DIM, anchor="topright", max_width=note_w - pad,
                       role="consp.standing.note", min_size=lay.tiny * 4 // 5)
