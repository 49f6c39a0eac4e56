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

At one table of an event played across tables the game is that table's group alone: the header
names whose turn it is (turns pass with NEXT) and the standings beside the group are the pod's as
every table's reports give them (the EVENT screen's, ``display/screens/event.py``).

Commands that carry the time take the controller's wall clock (``Host.clock``), as the console's
do.  The marked players, the cursor and the event's pods (read from the saved games when the
screen is shown or the game changes) are kept in ``ConspiracyForm``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from msgspec import Struct, field
from msgspec.structs import replace

from device.commands import Command
from device.controller import Result
from device.events import Event, GameStarted
from device.inputs import Button
from device.errors import IllegalCommand
from device.rules.conspiracy.play import (
    EVENT_OPTIONS,
    POD,
    POD_MIN,
    event_message,
    event_games as start_games,
    event_pods,
    pod_sizes,
    group_active,
    group_sizes,
    group_title,
    nth,
    one_table,
    shown_options,
    standings,
    table_group,
    time_left,
)
from device.rules.conspiracy.commands import (
    CallTime,
    FinishExtraTurns,
    LeaveGroup,
    PassGroupTurn,
    StartClock,
)
from device.rules.conspiracy.events import (
    GroupLeft,
    GroupRankedByLife,
    RoundStarted,
    RumblePickEarned,
    TimeCalled,
)
from device.state import GameState
from device.rules.conspiracy.state import ConspiracyState, GroupRecord
from device.text import Message
from device.rules.registry import outcome
from display import symbols, theme
from display.canvas import Rect
from display.chips import Chip, block, chip_row, inset, marker_width, scroll_markers, wrap_fit
from display.i18n import Translator
from display.screens import Gathering, Host, Screen, View, chip_step, chip_window, sends
from display.screens.event import EventInfo
from display.ui import Action, Press, Tap

NAME = "conspiracy"


def _round_clock(state: GameState, wall: float) -> float | None:
    """CJ-5: the header counts down the round's own clock, not the time since the game began;
    nothing once the game is over (the pod placed, or a table's group of an event done)."""
    consp = state.conspiracy
    if (
        outcome(state) is not None
        or consp is not None
        and consp.groups
        and all(g.done for g in consp.groups)
    ):
        return None
    return time_left(state, wall)


def _headline(state: GameState, tr: Translator) -> str:
    """A pod's groups take their turns at their own tables: the header names the round instead."""
    consp = state.conspiracy
    if consp is not None and table_group(state) and consp.groups and consp.groups[0].done:
        # A table's group over: no winner here (the pod's places come from every table's results).
        return tr("ui.consp.group_over", group=tr.message(group_title(consp.groups[0].label)))
    if consp is None or one_table(state):
        return tr("ui.turn_of", name=state.player(state.active).name)
    return tr("ui.consp.round", round=consp.round)


def _turn(state: GameState, tr: Translator) -> str:
    """A pod's groups each count their own turns: the header's corner stays empty (a Group Game
    Draft, or a group at its own table of an event across tables, is one table and counts its turns)."""
    return tr("ui.turn", turn=state.turn) if state.conspiracy is None or one_table(state) else ""


# --- the event's pods (CJ-1) -------------------------------------------------------------------


class PodGame(Struct, frozen=True):
    """One pod of the shown game's event: its saved game, number and players in seat order."""

    game: int
    pod: int
    players: tuple[str, ...]


def event_games(started: Mapping[int, GameStarted], current: int | None) -> list[PodGame]:
    """The pods of ``current``'s event, pod 1 first (just ``current`` outside an event)."""
    if current is None or current not in started:
        return []
    options = {
        game: first.options for game, first in started.items() if first.formats[:1] == (POD.name,)
    }
    found = event_pods(options, current) if current in options else [current]
    return [
        PodGame(
            game,
            int(str(started[game].options.get("pod", 1))),
            tuple(p.name for p in started[game].players),
        )
        for game in found
    ]


class ConspiracyForm(Struct, frozen=True):
    """What the Conspiracy screen remembers: the item the cursor is on, the players marked (in
    the order they were), whether the event's pods are shown, the pods as last read and the game
    they were read for, and how far each group's list is scrolled (a new dict when it changes)."""

    cursor: int = 0
    chosen: tuple[int, ...] = ()
    overview: bool = False
    pods: tuple[PodGame, ...] = ()
    game: int | None = None
    rows: Mapping[str, int] = field(default_factory=dict)


def _refresh(host: Host, form: ConspiracyForm) -> ConspiracyForm:
    """Read the event's pods again and forget marks made in another game."""
    if form.game != host.game:
        form = replace(form, chosen=(), cursor=0, rows={})
    return host.ui.put(
        replace(form, game=host.game, pods=tuple(event_games(host.games(), host.game)))
    )


def show_event(host: Host) -> None:
    """An event has just started: show its pods (who plays in which, the group sizes)."""
    host.ui.put(replace(host.ui.state_of(ConspiracyForm), overview=True, cursor=0, chosen=()))
    host.go(NAME)


class PodEvent:
    """What the set-up starts with the base format Conspiracy (a pod; not the Group Game Draft,
    which is one table): a whole event, its players split into pods of one game each (CJ-1)."""

    fewest = POD_MIN
    options = EVENT_OPTIONS

    def split(self, players: int) -> list[int]:
        return pod_sizes(players)

    def entered(self, started: Mapping[int, GameStarted], game: int) -> tuple[list[str], str]:
        players = [name for pod in event_games(started, game) for name in pod.players]
        return players, str(started[game].options.get("event", ""))

    def start(
        self,
        host: Host,
        event: str,
        players: Sequence[str],
        options: Mapping[str, str],
        modules: Sequence[str],
    ) -> None:
        """Every pod's game, as the console's ``event`` starts them; then pod 1 is shown."""
        try:
            games = start_games(event, players, options, modules)
        except IllegalCommand as error:
            host.refuse(error)
            return
        first: int | None = None
        opening: list[Message] = []
        for game in games:
            result = host.execute(game)
            if result is None:
                return
            if first is None:
                # Who goes first at the table means nothing in a pod: each group's first is drawn.
                first = host.game
                opening = [m for m in result.messages if not m.key.startswith("table.started")]
        if first is not None and host.game != first and host.load(first) is None:
            return
        host.ui.cursor = None
        # The pod split first, then what pod 1's draw says (where everyone sits).
        host.ui.said = [event_message(event, [len(g.players) for g in games]), *opening]
        show_event(host)


POD_EVENT = PodEvent()


def overview(form: ConspiracyForm) -> bool:
    return form.overview and len(form.pods) > 1


# --- what the cursor walks ---------------------------------------------------------------------


#: What picking an item does, given the screen's state with the cursor on it.
Pick = Callable[[Host, ConspiracyForm], None]


def _mark(seat: int) -> Pick:
    """A player's row: marked, or no longer (the players to act on, in the order marked)."""

    def pick(host: Host, form: ConspiracyForm) -> None:
        chosen = form.chosen
        host.ui.put(
            replace(
                form,
                chosen=tuple(s for s in chosen if s != seat) if seat in chosen else (*chosen, seat),
            )
        )

    return pick


def _show(game: int) -> Pick:
    """A pod's chip: that pod's game on the screen (its journal loaded)."""

    def pick(host: Host, form: ConspiracyForm) -> None:
        host.ui.put(replace(form, overview=False))
        if game != host.game and host.load(game) is not None:
            # Loading the pod's game refreshed the form (``after``): the cursor starts afresh.
            host.ui.put(replace(host.ui.state_of(ConspiracyForm), cursor=0))

    return pick


def _pods(host: Host, form: ConspiracyForm) -> None:
    host.ui.put(replace(form, overview=True, cursor=0))


def _timed(command: Callable[[float], Command]) -> Pick:
    """A chip whose command carries the time it was picked (the clock started, time called)."""

    def pick(host: Host, form: ConspiracyForm) -> None:
        host.execute(command(host.clock()))

    return pick


class PickItem(Tap, frozen=True):
    """A player's row or a chip (an ``Item``, named by its kind and value): what it does."""

    kind: str
    value: int | tuple[int, ...] | None


class GroupScroll(Tap, frozen=True):
    """A scroll marker beside a group's rows: the group ``group`` scrolled to ``row``."""

    group: str
    row: int


class Item(Struct, frozen=True):
    """A player's row (``seat``) or a chip, and what SELECT or a touch does with it; ``kind`` and
    ``value`` name it (a touch names the item it was drawn for)."""

    kind: str  # seat, turn, out, clock, time, finish, next_pod, pods, show
    value: Any
    label: str
    pick: Pick

    # The same item drawn again has a new ``pick``: equal items are the same kind, value and label.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Item) and (self.kind, self.value, self.label) == (
            other.kind,
            other.value,
            other.label,
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.value, self.label))


def playing(consp: ConspiracyState) -> list[int]:
    """The players who may still be marked: in a group still playing, not out, in seating order."""
    return [s for g in consp.groups if not g.done for s in g.order if s not in g.gone]


def items(state: GameState, form: ConspiracyForm, tr: Translator) -> list[Item]:
    """Everything the cursor walks, in order: the players, then the chips."""
    consp = state.conspiracy
    if consp is None:
        return []
    pods = form.pods
    if overview(form):
        return [
            Item("show", p.game, tr("ui.consp.show_pod", pod=p.pod), _show(p.game)) for p in pods
        ]
    seats = playing(consp)
    found = [Item("seat", s, "", _mark(s)) for s in seats]
    chosen = [s for s in form.chosen if s in seats]
    names = [state.player(s).name for s in chosen]
    if len(chosen) == 1 and not one_table(state):
        found.append(
            Item(
                "turn",
                chosen[0],
                tr("ui.consp.do_turn", name=names[0]),
                sends(PassGroupTurn(seat=chosen[0])),
            )
        )
    if chosen:
        leave = (
            tr("ui.consp.do_out", name=names[0])
            if len(chosen) == 1
            else tr("ui.consp.do_out_together", names=", ".join(names))
        )
        found.append(Item("out", tuple(chosen), leave, sends(LeaveGroup(seats=tuple(chosen)))))
    if not consp.draft:
        if consp.clock_started is None:
            found.append(
                Item(
                    "clock",
                    None,
                    tr("ui.consp.do_clock", minutes=state.options.get("time_limit", 75)),
                    _timed(lambda now: StartClock(now=now)),
                )
            )
        elif consp.time_called is None:
            found.append(
                Item("time", None, tr("ui.consp.do_time"), _timed(lambda now: CallTime(now=now)))
            )
        else:
            for group in consp.groups:
                if not group.done:
                    title = tr.message(group_title(group.label))
                    found.append(
                        Item(
                            "finish",
                            group.label,
                            tr("ui.consp.do_finish", group=title),
                            sends(FinishExtraTurns(group=group.label)),
                        )
                    )
    if len(pods) > 1:
        current = next((i for i, p in enumerate(pods) if p.game == form.game), 0)
        following = pods[(current + 1) % len(pods)]
        found.append(
            Item(
                "next_pod",
                following.game,
                tr("ui.consp.show_pod", pod=following.pod),
                _show(following.game),
            )
        )
        found.append(Item("pods", None, tr("ui.consp.do_pods"), _pods))
    return found


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
        pods = view.ui.state_of(ConspiracyForm).pods
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


class Placing(Struct, frozen=True):
    """A row of the standings beside the groups: a place (None while undecided), a player, their
    Rumble picks, and their round-1 group once round 2 has regrouped everyone ("" before)."""

    place: int | None
    name: str
    picks: int
    came_from: str


def placings(view: View, state: GameState, consp: ConspiracyState) -> list[Placing]:
    """The standings the screen shows: a pod's own; at one table of an event across tables, the
    places of the table's pod as every table's reports give them (the EVENT screen's), since a
    group alone cannot place anyone in its pod — without those reports, none yet."""
    if not table_group(state):
        return [
            Placing(
                row.place,
                row.name,
                consp.picks[row.seat] if row.seat < len(consp.picks) else 0,
                row.groups[0] if len(row.groups) > 1 else "",
            )
            for row in standings(state)
        ]
    info = view.ui.kept(EventInfo)
    event = info.view if info is not None else None
    if event is None or event.plan.event != state.options.get("event"):
        return [
            Placing(
                None,
                player.name,
                consp.picks[player.seat] if player.seat < len(consp.picks) else 0,
                "",
            )
            for player in state.players
        ]
    pod = int(state.options.get("pod", 1))
    return [
        Placing(row.place, row.name, row.picks, row.groups[0] if len(row.groups) > 1 else "")
        for row in event.rows()
        if row.pod == pod
    ]


#: Groups whose titles have a shorter wording for narrow columns.
SHORT_TITLES = ("winners", "losers")


class Conspiracy(Screen):
    name = NAME
    button = "ui.btn.consp"
    key = "g"
    base = NAME  # the header of a Conspiracy game: the round, and its own clock
    own_clock = True
    steady_status = True  # its seats are chips a touch picks: they stay put when a message goes
    headline = staticmethod(_headline)
    turn_text = staticmethod(_turn)
    countdown = staticmethod(_round_clock)

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.conspiracy is not None

    def gathering(self, base: str) -> Gathering | None:
        return POD_EVENT if base == POD.name else None

    def follows(self, events: Sequence[Event]) -> bool:
        shown = (GroupLeft, GroupRankedByLife, TimeCalled, RumblePickEarned)
        return any(isinstance(e, shown) for e in events) or any(
            isinstance(e, RoundStarted) and e.round > 1 for e in events
        )

    def enter(self, host: Host) -> None:
        _refresh(host, host.ui.state_of(ConspiracyForm))

    def after(self, host: Host, result: Result) -> None:
        if not self.available(host.state):
            return
        form = host.ui.put(host.ui.state_of(ConspiracyForm))
        if result.events:
            form = host.ui.put(replace(form, chosen=()))  # what the marks were for has happened
        if form.game != host.game or any(isinstance(e, GameStarted) for e in result.events):
            _refresh(host, form)

    # -- acting ---------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None or state.conspiracy is None:
            return False
        form = host.ui.put(host.ui.state_of(ConspiracyForm))
        if form.game != host.game:
            form = _refresh(host, form)
        found = items(state, form, host.tr)
        if isinstance(action, GroupScroll):
            # A scroll marker: the group's next hidden row comes into view.
            host.ui.put(replace(form, rows={**form.rows, action.group: max(0, action.row)}))
            return True
        if isinstance(action, PickItem):
            for index, item in enumerate(found):
                if (item.kind, item.value) == (action.kind, action.value):
                    item.pick(host, host.ui.put(replace(form, cursor=index)))
                    return True
            return True  # a row or chip from a frame drawn before the last change
        if not found:
            return False
        cursor = form.cursor % len(found)
        step = chip_step(action)
        if step is not None:
            moved = (cursor + step) % len(found)
            host.ui.put(self._follow(state, replace(form, cursor=moved), found[moved]))
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            found[cursor].pick(host, host.ui.put(replace(form, cursor=cursor)))
            return True
        return False

    def _follow(self, state: GameState, form: ConspiracyForm, item: Item) -> ConspiracyForm:
        """The cursor moved onto ``item``: a player's group scrolls to show them."""
        consp = state.conspiracy
        if item.kind != "seat" or consp is None:
            return form
        for group in consp.groups:
            if item.value in group.order:
                form = replace(
                    form, rows={**form.rows, group.label: list(group.order).index(item.value)}
                )
        return form

    # -- drawing --------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None and state.conspiracy is not None
        consp = state.conspiracy
        c, lay, tr = view.canvas, view.layout, view.tr
        form = view.ui.state_of(ConspiracyForm)
        x, y, w, h = lay.margin, view.top, c.width - 2 * lay.margin, view.bottom - view.top
        gap = max(2, lay.margin // 2)
        top = y + self._lines(
            view, heading(view, state, consp), (x, y, w), theme.DIM, "consp.heading"
        )
        options = [tr.message(Message(key)) for key in shown_options(state)]
        if options:
            top += self._lines(
                view,
                tr("ui.consp.options", options=" · ".join(options)),
                (x, top, w),
                theme.WARN,
                "consp.options",
            )
        top += lay.margin // 2
        walk = items(state, form, tr)
        cursor = form.cursor % len(walk) if walk else -1
        current = walk[cursor] if walk else None
        if overview(form):
            hint = tr("ui.consp.pods_hint")
            fitted = wrap_fit(view, hint, w, lay.tiny)
            bottom = y + h
            pods = list(form.pods)
            if fitted is not None:
                hint_h = len(fitted[1]) * c.fonts.line_height(fitted[0])
                # The hint is for whoever holds the gadget: it gives way before the pods get short.
                rows = (len(pods) + 1) // 2 if len(pods) > 1 else 1
                if (bottom - hint_h - gap - top) // max(1, rows) >= 2 * lay.touch:
                    block(
                        view,
                        hint,
                        (x, bottom - hint_h),
                        w,
                        fitted,
                        theme.DIM,
                        "consp.pods.hint",
                        align="center",
                    )
                    bottom -= hint_h + gap
            self._draw_pods(view, pods, form.game, current, (x, top, w, bottom - top))
            return
        chips = [item for item in walk if item.kind != "seat"]
        bottom = y + h
        if chips:
            # The chips in one row along the bottom, a fingertip tall; more than fit scroll with
            # the cursor, with markers saying how many are hidden on each side.
            pointed = next((i for i, item in enumerate(chips) if item == current), None)
            row = [
                Chip(
                    item.label,
                    PickItem(item.kind, item.value),
                    i == pointed,
                    role=f"consp.chip.{item.kind}",
                )
                for i, item in enumerate(chips)
            ]
            chip_row(
                view,
                (x, bottom - lay.touch, w, lay.touch),
                row,
                pointed or 0,
                pointed,
                "consp.chip",
                proportional=True,
            )
            bottom -= lay.touch + gap
        side = w * 2 // 5
        groups: Rect = (x, top, w - side - lay.margin, bottom - top)
        ranks: Rect = (x + w - side, top, side, bottom - top)
        chosen = list(form.chosen)
        pointed_seat = current.value if current is not None and current.kind == "seat" else None
        self._draw_groups(view, state, consp, groups, chosen, pointed_seat, dict(form.rows))
        self._draw_standings(view, state, consp, ranks)

    def _lines(
        self,
        view: View,
        text: str,
        at: tuple[int, int, int],
        color: tuple[int, int, int],
        role: str,
    ) -> int:
        """A line of small type, wrapped on two (or more, smaller) rather than cut; its height."""
        lay = view.layout
        x, y, w = at
        fitted = (
            wrap_fit(view, text, w, lay.small)
            or wrap_fit(view, text, w, lay.tiny, lines=4)
            or (lay.tiny, [text])
        )
        return block(view, text, (x, y), w, fitted, color, role)

    def _draw_pods(
        self, view: View, pods: list[PodGame], shown: object, current: Item | None, area: Rect
    ) -> None:
        """CJ-1, CJ-2: every pod of the event, its players and its round-1 group sizes."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        cols = 1 if len(pods) == 1 else 2 if len(pods) <= 4 else 3
        rows = (len(pods) + cols - 1) // cols
        gap = max(2, lay.margin // 2)
        each_w, each_h = (w - gap * (cols - 1)) // cols, (h - gap * (rows - 1)) // rows
        pad = lay.margin // 2 + 1
        for index, pod in enumerate(pods):
            rect = (
                x + (index % cols) * (each_w + gap),
                y + (index // cols) * (each_h + gap),
                each_w,
                each_h,
            )
            c.box(rect, theme.ACTIVE if pod.game == shown else theme.PANEL)
            if current is not None and current.kind == "show" and current.value == pod.game:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            groups = " + ".join(str(g) for g in group_sizes(len(pod.players)))
            title = tr("ui.consp.pod_title", pod=pod.pod, count=len(pod.players), groups=groups)
            fitted = wrap_fit(view, title, each_w - 2 * pad, lay.small, bold=True) or (
                lay.tiny,
                [title],
            )
            ty = (
                rect[1]
                + pad
                + block(
                    view,
                    title,
                    (rect[0] + pad, rect[1] + pad),
                    each_w - 2 * pad,
                    fitted,
                    theme.CURSOR,
                    "consp.pod.title",
                    bold=True,
                )
            )
            c.paragraph(
                ", ".join(pod.players),
                (rect[0] + pad, ty, each_w - 2 * pad, rect[1] + each_h - pad - ty),
                lay.small,
                theme.TEXT,
                role="consp.pod.players",
                min_size=lay.tiny,
            )
            c.target(rect, PickItem("show", pod.game))

    def _draw_groups(
        self,
        view: View,
        state: GameState,
        consp: ConspiracyState,
        area: Rect,
        chosen: list[int],
        pointed: object,
        focus: dict[str, int],
    ) -> None:
        """Each group of the round in a column, in seating order: a row a fingertip tall for each
        player; more than fit show a window (round the cursor, or what a marker brought into view)
        with markers saying how many are above and below."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        groups = consp.groups
        if not groups:
            return
        gap = lay.margin
        step = 0  # the rows touch; each is drawn a pixel inside its target
        each = (w - gap * (len(groups) - 1)) // len(groups)
        pad = lay.margin // 2 + 1
        for index, group in enumerate(groups):
            gx = x + index * (each + gap)
            c.box((gx, y, each, h), theme.PANEL)
            titles = [tr.message(Message(f"consp.group.{group.label}"))]
            if group.label in SHORT_TITLES:
                titles.append(tr(f"ui.consp.group.{group.label}.short"))
            if group.done:
                titles = [tr("ui.consp.finished", group=title) for title in titles]
            # The whole title on one line, else the shorter one, else the whole on two lines.
            title = next(
                (
                    t
                    for t in titles
                    if wrap_fit(view, t, each - 2 * pad, lay.small, lines=1, bold=True)
                ),
                titles[0],
            )
            fitted = wrap_fit(view, title, each - 2 * pad, lay.small, bold=True) or (
                lay.tiny,
                [title],
            )
            rows_top = (
                y
                + pad
                + block(
                    view,
                    title,
                    (gx + pad, y + pad),
                    each - 2 * pad,
                    fitted,
                    theme.CURSOR,
                    "consp.group.title",
                    bold=True,
                )
            )
            gone = left_numbers(group)
            order = list(group.order)
            fit = max(1, (y + h - pad - rows_top + step) // (lay.touch + step))
            # A wide column (a pod's only group) holds its rows side by side where one run is too short.
            subs = max(1, min(-(-len(order) // fit), each // (lay.small * 10)))
            here = order.index(pointed) if pointed in order else None
            turn = group_active(state, group)
            active = order.index(turn) if turn in order else 0
            shown = chip_window(
                len(order), focus.get(group.label, here if here is not None else active), fit * subs
            )
            marker = 0 if len(shown) == len(order) else marker_width(view) + max(1, lay.margin // 4)
            sub_w = (each - 2 - marker - gap * (subs - 1)) // subs
            for slot, row in enumerate(shown):
                seat = order[row]
                ry = rows_top + (slot % fit) * (lay.touch + step)
                row_rect = (gx + 1 + (slot // fit) * (sub_w + gap), ry, sub_w, lay.touch)
                playing = seat == turn and seat not in gone and not group.done
                if seat in chosen:
                    c.box(inset(row_rect), theme.BUTTON_HI)
                elif playing:
                    c.box(inset(row_rect), theme.ACTIVE)
                if seat == pointed:
                    c.box(inset(row_rect), theme.CURSOR, width=max(1, lay.line))
                out = seat in gone
                mark = tr("ui.consp.left_n", n=gone[seat]) if out else ""
                name = f"{row + 1}. {state.player(seat).name}"
                self._seat_row(
                    view, name, mark, row_rect, playing or seat in chosen, out, group.label
                )
                if not out and not group.done:
                    c.target(row_rect, PickItem("seat", seat))
            if marker:
                column = (
                    gx + each - marker - 1,
                    rows_top,
                    marker - step,
                    min(fit, len(shown)) * (lay.touch + step) - step,
                )
                scroll_markers(
                    view,
                    column,
                    shown.start,
                    len(order) - shown.stop,
                    "consp.group.more",
                    (
                        GroupScroll(group.label, shown.start - 1),
                        GroupScroll(group.label, shown.stop),
                    ),
                )

    def _seat_row(
        self, view: View, name: str, mark: str, rect: Rect, bold: bool, out: bool, label: str
    ) -> None:
        """A player's row: the seat number and name, and who left in which order ("out 1") at the
        right end, or under the name where the row is too narrow for both."""
        c, lay = view.canvas, view.layout
        x, y, w, h = rect
        pad = lay.margin // 2 + 1
        inner = w - 2 * pad
        tone = theme.FAINT if out else theme.TEXT

        def mark_w(size: int) -> int:
            return c.fonts.measure(mark, size)[0] + pad if mark else 0

        largest = lay.medium if c.fonts.line_height(lay.medium) <= h else lay.small
        for size in range(largest, lay.tiny - 1, -1):
            if c.fonts.measure(name, size, bold)[0] + mark_w(size) <= inner:
                c.text(
                    name,
                    (x + pad, y + h // 2),
                    size,
                    tone,
                    anchor="midleft",
                    bold=bold,
                    role=f"consp.{label}.seat",
                    min_size=size,
                )
                if mark:
                    c.text(
                        mark,
                        (x + w - pad, y + h // 2),
                        size,
                        theme.ERROR,
                        anchor="midright",
                        role=f"consp.{label}.left",
                        min_size=size,
                    )
                return
        size = lay.tiny
        for candidate in range(lay.small, lay.tiny - 1, -1):
            if (
                2 * c.fonts.line_height(candidate) <= h
                and c.fonts.measure(name, candidate, bold)[0] <= inner
                and c.fonts.measure(mark, candidate)[0] <= inner
            ):
                size = candidate
                break
        line = c.fonts.line_height(size)
        top = y + (h - 2 * line) // 2
        c.text(
            name,
            (x + pad, top),
            size,
            tone,
            bold=bold,
            max_width=inner,
            role=f"consp.{label}.seat",
            min_size=lay.tiny,
        )
        if mark:
            c.text(
                mark,
                (x + w - pad, top + line),
                size,
                theme.ERROR,
                anchor="topright",
                max_width=inner,
                role=f"consp.{label}.left",
                min_size=lay.tiny,
            )

    def _draw_standings(
        self, view: View, state: GameState, consp: ConspiracyState, area: Rect
    ) -> None:
        """Places 1–N as they become known, then the players still without one (those with Rumble
        picks first), as large as they all fit; on a small screen as many as fit, and how many
        more are below (they are all still playing, in the groups)."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        c.box(area, theme.PANEL)
        pad = lay.margin // 2 + 1
        found = placings(view, state, consp)
        rows = [
            row
            for _, row in sorted(
                enumerate(found),
                key=lambda pair: (
                    pair[1].place is None,
                    pair[1].place is None and not pair[1].picks,
                    pair[0],
                ),
            )
        ]
        size = next(
            (
                s
                for s in (lay.medium, lay.small, lay.tiny)
                if c.fonts.line_height(s) * (len(rows) + 1) <= h - 2 * pad
            ),
            lay.tiny,
        )
        line = c.fonts.line_height(size)
        room = max(1, (h - 2 * pad) // line - 1)
        shown = rows if len(rows) <= room else rows[: max(0, room - 1)]
        c.text(
            tr("ui.consp.standings"),
            (x + pad, y + pad),
            size,
            theme.CURSOR,
            bold=True,
            max_width=w - 2 * pad,
            role="consp.standings.title",
            min_size=lay.tiny,
        )
        place_w = (
            max(c.fonts.measure(tr.message(nth(n)), size, True)[0] for n in range(1, len(rows) + 1))
            + pad
        )
        for index, row in enumerate(shown):
            ry = y + pad + line * (index + 1)
            place = tr.message(nth(row.place)) if row.place is not None else "–"
            c.text(
                place,
                (x + pad, ry),
                size,
                theme.CURSOR if row.place == 1 else theme.TEXT,
                bold=True,
                max_width=place_w,
                role="consp.place",
                min_size=lay.tiny,
            )
            extra = tr("ui.consp.picks", n=row.picks) if row.picks else ""
            extra_w = c.fonts.measure(extra, size)[0] + pad if extra else 0
            # Where the player came from: their round-1 group, once round 2 has regrouped everyone,
            # where the row has room for it whole.
            note = tr.message(group_title(row.came_from)) if row.came_from else ""
            note_w = c.fonts.measure(note, size)[0] + pad if note else 0
            name_w = c.fonts.measure(row.name, size)[0]
            if note and pad + place_w + name_w + pad + extra_w + note_w > w - pad:
                note, note_w = "", 0
            name = c.text(
                row.name,
                (x + pad + place_w, ry),
                size,
                theme.TEXT,
                max_width=w - 2 * pad - place_w - note_w - extra_w,
                role="consp.standing",
                min_size=lay.tiny,
            )
            if extra:
                c.text(
                    extra,
                    (name.right + pad, ry),
                    size,
                    theme.WARN,
                    role="consp.picks",
                    min_size=lay.tiny,
                )
            if note:
                c.text(
                    note,
                    (x + w - pad, ry),
                    size,
                    theme.DIM,
                    anchor="topright",
                    role="consp.standing.note",
                    min_size=lay.tiny,
                )
        hidden = len(rows) - len(shown)
        if hidden:
            ry = y + pad + line * (len(shown) + 1)
            arrow = line * 3 // 5
            symbols.arrow(c, (x + pad + arrow / 2, ry + line / 2), arrow, theme.DIM, "down")
            c.text(
                str(hidden),
                (x + pad + arrow + pad, ry),
                size,
                theme.DIM,
                bold=True,
                role="consp.standing.more",
                min_size=lay.tiny,
            )
