"""Conspiracy: an event's pods, the pod's groups and standings, and the round's controls
(CJ-1..CJ-6, CJ-8).

A pod (or a Group Game Draft's one table) shows its event and pod number ("Pod 1 of 2"), the
round, the table options players must be told about (CJ-6), each group of the current round in
seating order (the first named took the first turn; whose turn it is highlighted; who left,
numbered in the order they left, players who left together sharing a number) and, beside them,
the standings: places 1–N as they become known, each player's group in each round, and the Rumble
picks earned (CJ-8).  The header's clock counts down the round's time limit once the round's
clock is started (CJ-5).

The organiser runs the round from here.  The encoder (↑/↓) or ←/→ walk a cursor over the players
still playing and then the chips under the groups; SELECT picks what the cursor is on, a touch
picks a row or chip directly:

- a player's row marks them (again: unmarks).  With one marked, the chip "NAME's turn" says whose
  turn it is in their group (``PassGroupTurn``); with one or more, "Out: …" records that they left
  their group's game at the same moment (``LeaveGroup``; the tiebreak of CJ-4 ranks them);
- "Start clock" starts the round's clock (``StartClock``); "Call time" calls it once the limit is
  reached (``CallTime``; before that the refusal says how long is left); after time each group
  still playing has "End extra turns: GROUP" (``FinishExtraTurns``: ranked by life, CJ-5);
- at an event with several pods, "Show pod N" shows the next pod's game and "All pods" lists
  every pod with its players and group sizes (CJ-1, CJ-2; shown by itself when an event starts
  from the set-up screen), where picking a pod shows its game.

Commands that carry the time take the controller's wall clock (``Host.clock``), as the console's
do.  The marked players, the cursor and the event's pods (read from the saved games when the
screen is shown or the game changes) are kept in ``UiState.forms["conspiracy"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from device.commands import Command
from device.controller import Result
from device.events import Event, GameStarted
from device.inputs import Button
from device.rules.conspiracy import (
    POD,
    CallTime,
    FinishExtraTurns,
    GroupLeft,
    GroupRankedByLife,
    LeaveGroup,
    PassGroupTurn,
    RoundStarted,
    RumblePickEarned,
    StartClock,
    TimeCalled,
    event_pods,
    group_sizes,
    group_title,
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
from display.screens import Host, Screen, View, chip_step, screen
from display.ui import Action, Press, Tap, UiState

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


def _turn(state: GameState, tr: Translator) -> str:
    """A pod's groups each count their own turns: the header's corner stays empty (a Group Game
    Draft is one table and counts its turns)."""
    consp = state.conspiracy
    return tr("ui.turn", turn=state.turn) if consp is None or consp.draft else ""


render.GAME_CLOCKS["conspiracy"] = _round_clock
render.HEADLINES["conspiracy"] = _headline
render.TURN_TEXTS["conspiracy"] = _turn


# --- the event's pods (CJ-1) -------------------------------------------------------------------


@dataclass(frozen=True)
class PodGame:
    """One pod of the shown game's event: its saved game, number and players in seat order."""

    game: int
    pod: int
    players: tuple[str, ...]


def event_games(started: dict[int, GameStarted], current: int | None) -> list[PodGame]:
    """The pods of ``current``'s event, pod 1 first (just ``current`` outside an event)."""
    if current is None or current not in started:
        return []
    options = {game: first.options for game, first in started.items() if first.formats[:1] == (POD.name,)}
    found = event_pods(options, current) if current in options else [current]
    return [
        PodGame(game, int(str(started[game].options.get("pod", 1))), tuple(p.name for p in started[game].players))
        for game in found
    ]


def _form(ui: UiState) -> dict[str, Any]:
    form: dict[str, Any] = ui.forms.setdefault(NAME, {})
    form.setdefault("cursor", 0)
    form.setdefault("chosen", [])
    form.setdefault("overview", False)
    form.setdefault("pods", [])
    form.setdefault("game", None)
    return form


def _pods(form: dict[str, Any]) -> list[PodGame]:
    return [p for p in form.get("pods", []) if isinstance(p, PodGame)]


def _refresh(host: Host, form: dict[str, Any]) -> None:
    """Read the event's pods again and forget marks made in another game."""
    if form.get("game") != host.game:
        form["chosen"], form["cursor"] = [], 0
    form["game"] = host.game
    form["pods"] = event_games(host.games(), host.game)


def show_event(host: Host) -> None:
    """An event has just started: show its pods (who plays in which, the group sizes)."""
    form = _form(host.ui)
    form["overview"], form["cursor"], form["chosen"] = True, 0, []
    host.go(NAME)


def overview(form: dict[str, Any]) -> bool:
    return bool(form.get("overview")) and len(_pods(form)) > 1


# --- what the cursor walks ---------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """A player's row (``seat``) or a chip: what SELECT or a touch does with it."""

    kind: str  # seat, turn, out, clock, time, finish, next_pod, pods, show
    value: Any = None
    label: str = ""


def playing(consp: ConspiracyState) -> list[int]:
    """The players who may still be marked: in a group still playing, not out, in seating order."""
    return [s for g in consp.groups if not g.done for s in g.order if s not in g.gone]


def items(state: GameState, form: dict[str, Any], tr: Translator) -> list[Item]:
    """Everything the cursor walks, in order: the players, then the chips."""
    consp = state.conspiracy
    if consp is None:
        return []
    pods = _pods(form)
    if overview(form):
        return [Item("show", p.game, tr("ui.consp.show_pod", pod=p.pod)) for p in pods]
    seats = playing(consp)
    found = [Item("seat", s) for s in seats]
    chosen = [s for s in form.get("chosen", []) if s in seats]
    names = [state.player(s).name for s in chosen]
    if len(chosen) == 1 and not consp.draft:
        found.append(Item("turn", chosen[0], tr("ui.consp.do_turn", name=names[0])))
    if len(chosen) == 1:
        found.append(Item("out", tuple(chosen), tr("ui.consp.do_out", name=names[0])))
    elif chosen:
        found.append(Item("out", tuple(chosen), tr("ui.consp.do_out_together", names=", ".join(names))))
    if not consp.draft:
        if consp.clock_started is None:
            found.append(Item("clock", None, tr("ui.consp.do_clock", minutes=state.options.get("time_limit", 75))))
        elif consp.time_called is None:
            found.append(Item("time", None, tr("ui.consp.do_time")))
        else:
            for group in consp.groups:
                if not group.done:
                    title = tr.message(group_title(group.label))
                    found.append(Item("finish", group.label, tr("ui.consp.do_finish", group=title)))
    if len(pods) > 1:
        current = next((i for i, p in enumerate(pods) if p.game == form.get("game")), 0)
        following = pods[(current + 1) % len(pods)]
        found.append(Item("next_pod", following.game, tr("ui.consp.show_pod", pod=following.pod)))
        found.append(Item("pods", None, tr("ui.consp.do_pods")))
    return found


def _command(item: Item, host: Host) -> Command | None:
    if item.kind == "turn":
        return PassGroupTurn(seat=int(item.value))
    if item.kind == "out":
        return LeaveGroup(seats=tuple(item.value))
    if item.kind == "clock":
        return StartClock(now=host.clock())
    if item.kind == "time":
        return CallTime(now=host.clock())
    if item.kind == "finish":
        return FinishExtraTurns(group=str(item.value))
    return None


def left_numbers(group: GroupRecord) -> dict[int, int]:
    """Who left the group, numbered in the order they left (together: the same number)."""
    return {seat: index + 1 for index, batch in enumerate(group.left) for seat in batch}


def heading(view: View, state: GameState, consp: ConspiracyState) -> str:
    tr = view.tr
    parts: list[str] = []
    event = state.options.get("event", "")
    if consp.draft:
        parts.append(tr("ui.consp.draft"))
    else:
        if event:
            parts.append(str(event))
        pods = _pods(view.ui.forms.get(NAME, {})) if isinstance(view.ui.forms.get(NAME), dict) else []
        pod = state.options.get("pod", 1)
        if len(pods) > 1:
            parts.append(tr("ui.consp.pod_of", pod=pod, count=len(pods)))
        else:
            parts.append(tr("ui.consp.pod", pod=pod))
        parts.append(tr("ui.consp.round", round=consp.round))
        if consp.time_called is not None:
            parts.append(tr("ui.consp.extra_turns"))
        elif consp.clock_started is None:
            parts.append(tr("ui.consp.clock_off", minutes=state.options.get("time_limit", 75)))
    return " · ".join(parts)


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

    def enter(self, host: Host) -> None:
        _refresh(host, _form(host.ui))

    def after(self, host: Host, result: Result) -> None:
        if not self.available(host.state):
            return
        form = _form(host.ui)
        if result.events:
            form["chosen"] = []  # what the marks were for has happened
        if form.get("game") != host.game or any(isinstance(e, GameStarted) for e in result.events):
            _refresh(host, form)

    # -- acting ---------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None or state.conspiracy is None:
            return False
        form = _form(host.ui)
        if form.get("game") != host.game:
            _refresh(host, form)
        found = items(state, form, host.tr)
        if isinstance(action, Tap) and action.kind == "consp.item":
            for index, item in enumerate(found):
                if (item.kind, item.value) == action.value:
                    form["cursor"] = index
                    self._pick(host, form, item)
                    return True
            return True  # a row or chip from a frame drawn before the last change
        if not found:
            return False
        cursor = int(form.get("cursor", 0)) % len(found)
        step = chip_step(action)
        if step is not None:
            form["cursor"] = (cursor + step) % len(found)
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            form["cursor"] = cursor
            self._pick(host, form, found[cursor])
            return True
        return False

    def _pick(self, host: Host, form: dict[str, Any], item: Item) -> None:
        if item.kind == "seat":
            chosen = list(form.get("chosen", []))
            form["chosen"] = [s for s in chosen if s != item.value] if item.value in chosen else [*chosen, item.value]
        elif item.kind in ("show", "next_pod"):
            form["overview"] = False
            if item.value != host.game and host.load(int(item.value)) is not None:
                form["cursor"] = 0
        elif item.kind == "pods":
            form["overview"], form["cursor"] = True, 0
        else:
            command = _command(item, host)
            if command is not None:
                host.execute(command)

    # -- drawing --------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None and state.conspiracy is not None
        consp = state.conspiracy
        c, lay, tr = view.canvas, view.layout, view.tr
        found_form = view.ui.forms.get(NAME)
        form: dict[str, Any] = found_form if isinstance(found_form, dict) else {}
        x, y, w, h = lay.margin, view.top, c.width - 2 * lay.margin, view.bottom - view.top
        top = c.text(heading(view, state, consp), (x, y), lay.small, theme.DIM, max_width=w, role="consp.heading",
                     min_size=lay.tiny).bottom
        options = [tr.message(Message(key)) for key in shown_options(state)]
        if options:
            top = c.text(tr("ui.consp.options", options=" · ".join(options)), (x, top), lay.small, theme.WARN,
                         max_width=w, role="consp.options", min_size=lay.tiny).bottom
        top += lay.margin // 2
        walk = items(state, form, tr)
        cursor = int(form.get("cursor", 0)) % len(walk) if walk else -1
        current = walk[cursor] if walk else None
        if overview(form):
            hint_h = c.fonts.line_height(lay.tiny)
            c.text(tr("ui.consp.pods_hint"), (x + w // 2, y + h), lay.tiny, theme.DIM, anchor="midbottom", max_width=w,
                   role="consp.pods.hint")
            self._draw_pods(view, _pods(form), form.get("game"), current, (x, top, w, y + h - hint_h - top - 2))
            return
        chips = [item for item in walk if item.kind != "seat"]
        bottom = self._draw_chips(view, chips, current, (x, top, w, y + h - top))
        side = w * 2 // 5
        groups: Rect = (x, top, w - side - lay.margin, bottom - top)
        ranks: Rect = (x + w - side, top, side, bottom - top)
        # One type size for both sides, the largest that fits the longer list.
        rows = max([len(state.players)] + [len(g.order) for g in consp.groups]) + 1
        size = self._row_size(view, rows, bottom - top - lay.margin)
        chosen = [s for s in form.get("chosen", []) if isinstance(s, int)]
        pointed = current.value if current is not None and current.kind == "seat" else None
        self._draw_groups(view, state, consp, groups, size, chosen, pointed)
        self._draw_standings(view, state, consp, ranks, size)

    def _draw_chips(self, view: View, chips: list[Item], current: Item | None, area: Rect) -> int:
        """The chips in rows along the bottom of ``area``; returns the top of the first row."""
        c, lay = view.canvas, view.layout
        x, y, w, h = area
        if not chips:
            return y + h
        gap = max(2, lay.margin // 2)
        pad = lay.margin
        size = lay.small
        while True:
            widths = [min(w, c.fonts.measure(chip.label, size, True)[0] + 2 * pad) for chip in chips]
            rows: list[list[int]] = [[]]
            used = 0
            for index, width in enumerate(widths):
                if rows[-1] and used + gap + width > w:
                    rows.append([])
                    used = 0
                used += (gap if rows[-1] else 0) + width
                rows[-1].append(index)
            if len(rows) <= 2 or size <= lay.tiny:
                break
            size = max(lay.tiny, size * 9 // 10)
        each = c.fonts.line_height(size) + lay.margin // 2 + 2
        first = y + h - len(rows) * (each + gap) + gap
        for row_index, row in enumerate(rows):
            # A row's chips share its width, each in proportion to its label.
            spare = (w - sum(widths[i] for i in row) - gap * (len(row) - 1)) // len(row)
            cx = x
            cy = first + row_index * (each + gap)
            for index in row:
                chip = chips[index]
                width = widths[index] + spare
                rect = (cx, cy, width, each)
                pointed = chip == current
                c.box(rect, theme.BUTTON_HI if pointed else theme.BUTTON)
                if pointed:
                    c.box(rect, theme.CURSOR, width=max(2, lay.line))
                c.text(chip.label, (cx + width // 2, cy + each // 2), size, theme.TEXT, anchor="center", bold=pointed,
                       max_width=width - lay.margin, role=f"consp.chip.{chip.kind}", min_size=lay.tiny * 4 // 5)
                c.target(rect, Tap("consp.item", (chip.kind, chip.value)))
                cx += width + gap
        return first - gap

    def _draw_pods(self, view: View, pods: list[PodGame], shown: object, current: Item | None, area: Rect) -> None:
        """CJ-1, CJ-2: every pod of the event, its players and its round-1 group sizes."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        cols = 1 if len(pods) == 1 else 2 if len(pods) <= 4 else 3
        rows = (len(pods) + cols - 1) // cols
        gap = max(2, lay.margin // 2)
        each_w, each_h = (w - gap * (cols - 1)) // cols, (h - gap * (rows - 1)) // rows
        pad = lay.margin // 2 + 1
        for index, pod in enumerate(pods):
            rect = (x + (index % cols) * (each_w + gap), y + (index // cols) * (each_h + gap), each_w, each_h)
            c.box(rect, theme.ACTIVE if pod.game == shown else theme.PANEL)
            if current is not None and current.kind == "show" and current.value == pod.game:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            groups = " + ".join(str(g) for g in group_sizes(len(pod.players)))
            title = c.text(tr("ui.consp.pod_title", pod=pod.pod, count=len(pod.players), groups=groups),
                           (rect[0] + pad, rect[1] + pad), lay.small, theme.CURSOR, bold=True,
                           max_width=each_w - 2 * pad, role="consp.pod.title", min_size=lay.tiny)
            c.paragraph(", ".join(pod.players), (rect[0] + pad, title.bottom, each_w - 2 * pad,
                        rect[1] + each_h - pad - title.bottom), lay.small, theme.TEXT, role="consp.pod.players",
                        min_size=lay.tiny * 4 // 5)
            c.target(rect, Tap("consp.item", ("show", pod.game)))

    def _row_size(self, view: View, rows: int, height: int) -> int:
        lay, fonts = view.layout, view.canvas.fonts
        for size in (lay.medium, lay.small, lay.tiny):
            if fonts.line_height(size) * rows <= height:
                return size
        return lay.tiny * 4 // 5

    def _draw_groups(self, view: View, state: GameState, consp: ConspiracyState, area: Rect, size: int,
                     chosen: list[int], pointed: object) -> None:
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
                row_rect = (gx + 1, ry, each - 2, line)
                active = seat == group.active and seat not in gone and not group.done
                if seat in chosen:
                    c.box(row_rect, theme.BUTTON_HI)
                elif active:
                    c.box(row_rect, theme.ACTIVE)
                if seat == pointed:
                    c.box(row_rect, theme.CURSOR, width=max(1, lay.line))
                name = f"{row + 1}. {state.player(seat).name}"
                out = seat in gone
                mark = tr("ui.consp.left_n", n=gone[seat]) if out else ""
                mark_w = c.fonts.measure(mark, size, False)[0] + pad if mark else 0
                c.text(name, (gx + pad, ry), size, theme.FAINT if out else theme.TEXT, bold=active or seat in chosen,
                       max_width=each - 2 * pad - mark_w, role=f"consp.{group.label}.seat", min_size=lay.tiny * 4 // 5)
                if mark:
                    c.text(mark, (gx + each - pad, ry), size, theme.ERROR, anchor="topright",
                           role=f"consp.{group.label}.left")
                if not out and not group.done:
                    c.target(row_rect, Tap("consp.item", ("seat", seat)))

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
