"""An event played across tables on the kiosk (CJ-1..CJ-5): which event this gadget is in and the
group its table plays, the standings across pods and rounds, and which tables are still playing.

Shown (key E, the EVENT button) on a gadget linked to an event's broker (``[event]`` in the
configuration), with a game or without one: the organiser's gadget plays no table.  What it
shows is what the broker has said (``device.event_link.EventSession``), kept in ``EventInfo`` by
the kiosk after every message and change, so drawing reads no journal and no network.

- Before the gadget has joined an event, the events at the broker that give its table a group are
  chips: ↑/↓ (the encoder) or ←/→ move between them, SELECT or a touch joins one.
- Joined, two tabs: the standings (each pod's places as they become known, every player's group
  in each round — round 2's appear as soon as round 1 is over in their pod — and the Rumble picks)
  and the tables (the group each plays, with its players, or that it waits for round 2 or is
  done; offline ones marked).  ←/→, SELECT or a touch on a tab switches; ↑/↓ scroll, markers say
  how many rows are above and below, and a touch on one scrolls.
- On the organiser's gadget, a chip atop starts a round's clock for every table (round 1's until
  it runs, round 2's once a pod has drawn its round 2): a touch or SELECT starts it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from msgspec import Struct, field
from msgspec.structs import replace

from device.inputs import Button
from device.rules.clock import clock_time
from device.rules.conspiracy.play import group_title, joined, nth
from device.state import GameState
from device.text import Message
from display import qr, theme
from display.canvas import Rect
from display.chips import Chip, block, chip_grid, draw_tabs, marker_width, scroll_markers, wrap_fit
from display.i18n import Translator
from display.screens import Host, Screen, View, chip_step
from display.screens.history import Row
from display.ui import Action, Focus, Press, Tap, Turn, UiState

if TYPE_CHECKING:  # named for types only: a kiosk at no event never loads the link or its reports
    from device.event_link import EventSession
    from device.rules.conspiracy.tables import Assignment, EventView, Row as Standing, TableState

NAME = "event"
STANDINGS = "standings"
TABLES = "tables"
PHONES = "phones"
RULINGS = "rulings"
PANES = (STANDINGS, TABLES)


class EventPane(Tap, frozen=True):
    """A tab: that pane of the event."""

    pane: str


class EventScroll(Tap, frozen=True):
    """A scroll marker beside the list: the list from row ``first``."""

    first: int


class RulingsScroll(Tap, frozen=True):
    """A scroll marker beside the organiser's rulings: from ruling ``index``."""

    index: int


class MoveGroup(Tap, frozen=True):
    """The organiser's ruling: group ``group`` of pod ``pod`` is played at ``table``."""

    pod: int
    group: str
    table: str


class CountGadget(Tap, frozen=True):
    """The organiser's ruling: at ``table``, ``gadget``'s accounts count ("": the furthest)."""

    table: str
    gadget: str


class StartClock(Tap, frozen=True):
    """The organiser's chip: round ``round``'s clock starts for every table."""

    round: int


class Rule(Tap, frozen=True):
    """The organiser's ruling on a correction: round 2 drawn again (``redraw``) or kept."""

    redraw: bool


class JoinEvent(Tap, frozen=True):
    """An event offered: joined as this gadget's table."""

    name: str


class OfferScroll(Tap, frozen=True):
    """A scroll marker beside the events offered: the cursor to offer ``index``."""

    index: int


class EventInfo(Struct, frozen=True):
    """What the broker has said, as the screen shows it: this gadget's table and link, the event
    it joined and that event as the reports tell it, who is connected, and the events offered."""

    table: str
    broker: str
    connected: bool
    joined: str = ""
    view: EventView | None = None
    online: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))
    offered: tuple[str, ...] = ()
    hosting: bool = False  # this gadget is the event's organiser
    page: str = ""  # where phones open the players' page this gadget serves, if it serves one
    #: This table's groups where another gadget's account counts, not this one's, with that gadget.
    not_counted: tuple[tuple[Assignment, str], ...] = ()
    #: The tables more than one gadget reports as, with those gadgets.
    twins: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    clock_round: int = (
        0  # the round whose clock the organiser may start for every table now (0: none)
    )

    @classmethod
    def of(cls, session: EventSession, page: str = "") -> EventInfo:
        view = session.view
        tables = view.plan.tables if view is not None else ()
        twins = {t: tuple(g) for t in tables if len(g := session.heard.gadgets(t)) > 1}
        return cls(
            table=session.table,
            broker=session.broker,
            connected=session.connected,
            joined=session.joined,
            view=view,
            online=MappingProxyType(dict(session.heard.online)),
            offered=tuple(plan.event for plan in session.offered()),
            hosting=session.organiser,
            page=page,
            not_counted=tuple(session.not_counted()),
            twins=MappingProxyType(twins),
            clock_round=session.clock_to_start() or 0,
        )

    @property
    def panes(self) -> tuple[str, ...]:
        """The tabs: the organiser's rulings only on the gadget that drew the event while it has
        one to offer, the phones' one only where this gadget serves the players' page."""
        view = self.view
        rulings = self.hosting and view is not None and bool(self.twins or view.queued())
        return (*PANES, *((RULINGS,) if rulings else ()), *((PHONES,) if self.page else ()))

    def is_online(self, table: str) -> bool:
        return self.connected if table == self.table else self.online.get(table, False)


class EventForm(Struct, frozen=True):
    """What the screen remembers: the tab shown, the first row in view, the offer the cursor is
    on, and the organiser's choice on a correction (0: redraw round 2, 1: keep it)."""

    pane: str = STANDINGS
    first: int = 0
    cursor: int = 0
    choice: int = 0
    organise: int = 0  # the organiser's ruling chip in view, where they do not all fit


def deciding(info: EventInfo) -> tuple[int, tuple[Assignment, ...]] | None:
    """The organiser's gadget, and a pod whose round 1 was corrected after round 2 began: the
    pod and the round 2 its corrected round 1 draws, for the organiser to rule on."""
    view = info.view
    if view is None or not info.hosting:
        return None
    return next(((f.pod, f.pending) for f in view.folds if f.pending), None)


def notice_rows(info: EventInfo, view: EventView, tr: Translator) -> list[Row]:
    """Above either list: pods whose round 1 was corrected after round 2 began (round 2 goes on
    as drawn until the organiser rules; on whose screen they are asked about above the tabs),
    and this table's groups where another gadget's account counts, not this one's."""
    rows = (
        []
        if deciding(info)
        else [
            Row(tr("ui.consp.event.corrected", pod=f.pod), theme.WARN)
            for f in view.folds
            if f.pending is not None
        ]
    )
    return rows + [
        Row(
            tr(
                "ui.consp.event.not_counted",
                pod=a.pod,
                group=tr.message(in_group(a.group)),
                gadget=g,
            ),
            theme.WARN,
        )
        for a, g in info.not_counted
    ]


def organiser_chips(info: EventInfo, tr: Translator) -> list[Chip]:
    """The organiser's rulings the tables tab offers: a group queued behind another to a table
    that has nothing left to play, and at a table two gadgets report as, whose accounts count."""
    view = info.view
    if view is None or not info.hosting:
        return []
    chips = [
        Chip(
            tr("ui.consp.event.move", pod=a.pod, group=tr.message(in_group(a.group)), table=table),
            MoveGroup(a.pod, a.group, table),
        )
        for a, table in view.queued()
    ]
    for table, gadgets in info.twins.items():
        chips += [
            Chip(
                tr("ui.consp.event.count", table=table, gadget=g),
                CountGadget(table, g),
                marked=view.plan.counts(table) == g,
            )
            for g in gadgets
        ]
        chips.append(
            Chip(
                tr("ui.consp.event.count_furthest", table=table),
                CountGadget(table, ""),
                marked=not view.plan.counts(table),
            )
        )
    return chips


def standing_rows(view: EventView, tr: Translator) -> list[Row]:
    """Each pod's standings: a heading, then every player, places first (CJ-3)."""
    rows: list[Row] = []
    by_pod: dict[int, list[Standing]] = {}
    for row in view.rows():
        by_pod.setdefault(row.pod, []).append(row)
    for pod, found in by_pod.items():
        rows.append(Row(tr("ui.consp.event.pod", pod=pod, count=len(found)), theme.CURSOR))
        rows += [_standing(row, tr) for row in found]
    return rows


def _standing(row: Standing, tr: Translator) -> Row:
    place = tr.message(nth(row.place)) if row.place is not None else "–"
    groups = " → ".join(tr.message(group_title(g)) for g in row.groups)
    text = tr("ui.consp.event.standing", place=place, name=row.name, groups=groups)
    if row.left_round is not None:
        text = tr("ui.consp.event.left", text=text, round=row.left_round)
    if row.picks:
        text = tr("ui.consp.event.picks", text=text, picks=tr("ui.consp.picks", n=row.picks))
    return Row(text, theme.TEXT if row.place is not None else theme.DIM)


def table_rows(
    info: EventInfo, view: EventView, tr: Translator, wall: float | None = None
) -> list[Row]:
    """Every table: the group it plays, its players and (given the wall clock) the time its
    round has left, or that it waits or is done."""
    return [_table(info, view, table, tr, wall) for table in view.tables()]


def _table(
    info: EventInfo, view: EventView, table: TableState, tr: Translator, wall: float | None
) -> Row:
    name = (
        table.table
        if info.is_online(table.table)
        else tr("ui.consp.event.offline", table=table.table)
    )
    playing = table.playing
    if playing is not None:
        text = tr(
            "ui.consp.event.table_playing",
            table=name,
            pod=playing.pod,
            round=playing.round,
            group=tr.message(in_group(playing.group)),
            players=", ".join(playing.players),
        )
        left = view.time_left(playing, wall) if wall is not None else None
        if left is not None:
            clock = (
                tr("ui.clock", time=clock_time(left, countdown=True))
                if left > 0
                else tr("ui.clock_up")
            )
            text = f"{text} · {clock}"
    else:
        text = tr(
            "ui.consp.event.table_waiting" if table.waiting else "ui.consp.event.table_done",
            table=name,
        )
    gadgets = info.twins.get(table.table)
    if gadgets:
        counts = view.plan.counts(table.table) or tr("ui.consp.event.furthest")
        text = tr("ui.consp.event.gadgets", text=text, gadgets=", ".join(gadgets), counts=counts)
    color = (
        theme.CURSOR
        if table.table == info.table
        else theme.TEXT
        if playing is not None
        else theme.DIM
    )
    return Row(text, color)


def in_group(label: str) -> Message:
    """A group's name inside a sentence ("group 2", "winners' group")."""
    return Message(f"consp.in_group.{label}")


def heading(info: EventInfo, tr: Translator) -> str:
    """What the screen is about: the event and this table, or what it waits for."""
    view = info.view
    if not info.joined:
        parts = [tr("ui.consp.event.not_joined", table=info.table)]
    elif view is None:
        parts = [tr("ui.consp.event.waiting", event=info.joined)]
    else:
        parts = [view.plan.event]
        playing = view.current(info.table) if info.table in view.plan.tables else None
        if playing is not None:
            parts.append(
                tr(
                    "ui.consp.event.this_table",
                    table=info.table,
                    pod=playing.pod,
                    group=tr.message(in_group(playing.group)),
                    round=playing.round,
                )
            )
        elif info.table in view.plan.tables:
            parts.append(info.table)
        if view.finished:
            parts.append(tr("ui.consp.event.over"))
    if not info.connected:
        parts.append(tr("ui.consp.event.no_broker", broker=info.broker))
    return " · ".join(parts)


class Event(Screen):
    name = NAME
    button = "ui.btn.event"
    key = "e"
    steady_status = True  # its tabs and the organiser's choices stay put when a message goes

    def shown(self, state: GameState | None, ui: UiState) -> bool:
        return ui.kept(EventInfo) is not None

    # -- acting -----------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        info = host.ui.kept(EventInfo)
        if info is None:
            return False
        form = host.ui.state_of(EventForm)
        if info.view is None:
            return self._offers(host, info, form, action)
        ruling = deciding(info)
        if ruling is not None and self._rule(host, ruling[0], form, action):
            return True
        if (
            ruling is None
            and info.clock_round
            and self._start_clock(host, info.clock_round, action)
        ):
            return True
        if isinstance(action, EventPane):
            host.ui.put(replace(form, pane=action.pane, first=0))
            return True
        if isinstance(action, RulingsScroll):  # a scroll marker of the rulings
            host.ui.put(replace(form, organise=max(0, action.index)))
            return True
        if isinstance(action, MoveGroup):
            host.move_group(action.pod, action.group, action.table)
            return True
        if isinstance(action, CountGadget):
            host.count_gadget(action.table, action.gadget)
            return True
        if (
            isinstance(action, Focus)
            or isinstance(action, Press)
            and action.button is Button.SELECT
            and not action.long
        ):
            panes = info.panes
            shown = panes.index(form.pane) if form.pane in panes else 0
            host.ui.put(replace(form, pane=panes[(shown + 1) % len(panes)], first=0))
            return True
        count = len(self._rows(info, info.view, form, host.tr))
        if isinstance(action, Turn):
            # A clockwise turn (↑) goes up the list, towards the first places.
            host.ui.put(replace(form, first=max(0, min(count - 1, form.first - action.steps))))
            return True
        if isinstance(action, EventScroll):
            host.ui.put(replace(form, first=max(0, min(count - 1, action.first))))
            return True
        return False

    @staticmethod
    def _rule(host: Host, pod: int, form: EventForm, action: Action) -> bool:
        """The organiser's ruling on a correction: ←/→ choose, SELECT or a touch rules."""
        if isinstance(action, Rule):
            host.ui.put(replace(form, choice=0))
            host.rule_event(pod, action.redraw)
            return True
        if isinstance(action, Focus):
            host.ui.put(replace(form, choice=(form.choice + action.delta) % 2))
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            host.ui.put(replace(form, choice=0))
            host.rule_event(pod, form.choice == 0)
            return True
        return False

    @staticmethod
    def _start_clock(host: Host, round: int, action: Action) -> bool:
        """The organiser's chip: a touch or SELECT starts the round's clock for every table."""
        if isinstance(action, StartClock) or (
            isinstance(action, Press) and action.button is Button.SELECT and not action.long
        ):
            host.start_round_clock(round)
            return True
        return False

    @staticmethod
    def _offers(host: Host, info: EventInfo, form: EventForm, action: Action) -> bool:
        """Not in an event yet: the events offered, one of them to join."""
        if isinstance(action, JoinEvent):
            host.join_event(action.name)
            return True
        if not info.offered:
            return False
        if isinstance(action, OfferScroll):  # a scroll marker
            host.ui.put(replace(form, cursor=max(0, min(len(info.offered) - 1, action.index))))
            return True
        step = chip_step(action)
        if step is not None:
            host.ui.put(replace(form, cursor=(form.cursor + step) % len(info.offered)))
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            host.join_event(info.offered[form.cursor % len(info.offered)])
            return True
        return False

    @staticmethod
    def _rows(
        info: EventInfo, view: EventView, form: EventForm, tr: Translator, wall: float | None = None
    ) -> list[Row]:
        if form.pane in (PHONES, RULINGS):
            return []
        rows = (
            table_rows(info, view, tr, wall) if form.pane != STANDINGS else standing_rows(view, tr)
        )
        return notice_rows(info, view, tr) + rows

    def deadline(self, view: View) -> float | None:
        """On the tables tab, the next second a table's round clock shows."""
        info = view.ui.kept(EventInfo)
        if info is None or info.view is None or view.ui.state_of(EventForm).pane != TABLES:
            return None
        event = info.view
        lefts = [
            left
            for table in event.tables()
            if table.playing is not None
            and (left := event.time_left(table.playing, view.wall)) is not None
            and left > 0
        ]
        if not lefts:
            return None
        fraction = min(left - math.floor(left) for left in lefts)
        return view.now + (fraction if fraction > 0.001 else 1.0)

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        info = view.ui.kept(EventInfo)
        if info is None:
            return
        c, lay, tr = view.canvas, view.layout, view.tr
        form = view.ui.state_of(EventForm)
        x, y, w = lay.margin, view.top, c.width - 2 * lay.margin
        bottom = view.bottom
        event = info.view
        panes = info.panes
        pane = form.pane if form.pane in panes else STANDINGS
        top = y
        if event is None or pane != PHONES:
            # The phones' tab gives the heading's room to the code: the larger its modules, the
            # farther away a phone reads it.
            text = heading(info, tr)
            fitted = (
                wrap_fit(view, text, w, lay.small)
                or wrap_fit(view, text, w, lay.tiny, lines=3)
                or (lay.tiny, [text])
            )
            top += block(
                view,
                text,
                (x, y),
                w,
                fitted,
                theme.DIM if info.connected else theme.WARN,
                "event.heading",
            )
            top += lay.margin // 2
        if event is None:
            self._draw_offers(view, info, form, (x, top, w, bottom - top))
            return
        ruling = deciding(info)
        if ruling is not None:
            top = self._draw_ruling(view, event, ruling, form, (x, top, w, bottom - top))
            if bottom - top < lay.touch + 2 * c.fonts.line_height(lay.small):
                return  # a small panel: the ruling first, the lists once it is made
        elif info.clock_round:
            label = tr("ui.consp.event.start_clock", round=info.clock_round)
            chip_grid(
                view,
                (x, top, w, lay.touch),
                [
                    Chip(
                        label,
                        StartClock(info.clock_round),
                        short=tr("ui.consp.event.start_clock_short", round=info.clock_round),
                    )
                ],
                0,
                "event.clock",
                lambda index: StartClock(info.clock_round),
            )
            top += lay.touch + max(2, lay.margin // 2)
        top += draw_tabs(
            view, (x, top), w, panes, pane, "ui.consp.event.tab", "event", EventPane
        ) + max(2, lay.margin // 2)
        if pane == PHONES:
            draw_phones(view, info.page, (x, top, w, bottom - top))
            return
        if pane == RULINGS:
            # The organiser's rulings, a touch each; a marker brings those that do not fit.
            chips = organiser_chips(info, tr)
            chip_grid(
                view,
                (x, top, w, bottom - top),
                chips,
                min(form.organise, len(chips) - 1),
                "event.organise",
                RulingsScroll,
                columns=(1, 2),
                pointed=False,
            )
            return
        rows = self._rows(info, event, replace(form, pane=pane), tr, view.wall)
        draw_list(view, rows, min(form.first, len(rows) - 1), (x, top, w, bottom - top), "event")

    @staticmethod
    def _draw_ruling(
        view: View,
        event: EventView,
        ruling: tuple[int, tuple[Assignment, ...]],
        form: EventForm,
        area: Rect,
    ) -> int:
        """What a correction would change and the organiser's two choices, atop the screen; the
        top of what is left below."""
        lay, tr = view.layout, view.tr
        x, y, w, h = area
        pod, groups = ruling
        drawn = event.round_two(pod)
        # Each language joins the groups and the tables its own way ("; " / "／", ", " / "、").
        changed = joined(
            [
                Message("ui.consp.event.at_table", group=in_group(a.group), table=a.table)
                for a in groups
                if a not in drawn
            ],
            "consp.comma",
        )
        from device.rules.conspiracy.tables import seated  # an event's own: loaded only at one

        text = tr(
            "ui.consp.event.decide",
            pod=pod,
            groups=tr.message(seated(groups)),
            changed=tr.message(changed),
        )
        fitted = (
            wrap_fit(view, text, w, lay.small, lines=4)
            or wrap_fit(view, text, w, lay.tiny, lines=5)
            or (lay.tiny, [text])
        )
        y += block(view, text, (x, y), w, fitted, theme.WARN, "event.decide") + max(
            2, lay.margin // 3
        )
        chips = [
            Chip(
                tr("ui.consp.event.redraw"),
                Rule(True),
                short=tr("ui.consp.event.redraw_short"),
            ),
            Chip(
                tr("ui.consp.event.keep"),
                Rule(False),
                short=tr("ui.consp.event.keep_short"),
            ),
        ]
        chip_grid(
            view,
            (x, y, w, lay.touch),
            chips,
            form.choice % 2,
            "event.rule",
            lambda index: Rule(False),
            columns=(2,),
        )
        return y + lay.touch + max(2, lay.margin // 2)

    def _draw_offers(self, view: View, info: EventInfo, form: EventForm, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        if not info.offered:
            hint = tr("ui.consp.event.none_offered") if info.joined == "" else ""
            if hint:
                c.paragraph(
                    hint, (x, y, w, h), lay.small, theme.DIM, role="event.hint", min_size=lay.tiny
                )
            return
        cursor = form.cursor % len(info.offered)
        chips = [
            Chip(tr("ui.consp.event.join", event=name), JoinEvent(name)) for name in info.offered
        ]
        chip_grid(view, (x, y, w, h), chips, cursor, "event.join", OfferScroll)


def draw_phones(view: View, url: str, area: Rect) -> None:
    """The players' page: its QR code as large as the pane allows, and beside it (below it on a
    narrow screen) what it is and its address, for a phone that cannot scan."""
    c, lay, tr = view.canvas, view.layout, view.tr
    x, y, w, h = area
    # Upper case puts the address in the QR code's alphanumeric mode (a scheme and a host name
    # read the same in either case): a smaller code, so larger modules in the same room.
    matrix = qr.modules(url.upper())
    wide = w >= h * 3 // 2
    pixel = qr.side(len(matrix), min(h, w * 3 // 5) if wide else min(w, h * 2 // 3))
    if pixel < 1:
        c.paragraph(
            tr("ui.consp.page.address", url=url), area, lay.small, theme.TEXT, role="event.page.url"
        )
        return
    whole = (len(matrix) + 2 * qr.QUIET) * pixel
    drawn = qr.draw(c, matrix, (x, y) if wide else (x + (w - whole) // 2, y), pixel)
    c.shape(f"qr:{url.upper()}", drawn, "event.page.qr")
    text = (
        (x + whole + lay.margin, y, w - whole - lay.margin, h)
        if wide
        else (x, y + whole + lay.margin // 2, w, h - whole - lay.margin // 2)
    )
    tx, ty, tw, th = text
    url_line = tr("ui.consp.page.address", url=url)
    url_h = c.fonts.line_height(lay.small) * max(1, len(c.wrap(url_line, lay.small, tw)))
    used = c.paragraph(
        tr("ui.consp.page.scan"),
        (tx, ty, tw, max(0, th - url_h - lay.margin // 2)),
        lay.small,
        theme.TEXT,
        role="event.page.scan",
        min_size=lay.tiny,
    )
    c.paragraph(
        url_line,
        (tx, ty + used + lay.margin // 2, tw, url_h),
        lay.small,
        theme.CURSOR,
        role="event.page.url",
        min_size=lay.tiny,
    )


def draw_list(view: View, rows: list[Row], first: int, area: Rect, role: str) -> None:
    """``rows`` from ``first`` down, each wrapped whole, as many as fit; in two columns where
    the list does not fit one and every row fits half the width on one line (a wide screen's
    right half is not left empty); markers on the right say how many are hidden above and below,
    and a touch on one scrolls."""
    c, lay = view.canvas, view.layout
    x, y, w, h = area
    gap = max(2, lay.margin // 3)
    size = lay.small
    step = c.fonts.line_height(size)

    def fitting(width: int, count: int, start: int = first) -> list[list[int]]:
        columns: list[list[int]] = []
        index = max(0, start)
        for _ in range(count):
            shown: list[int] = []
            used = 0
            while index < len(rows):
                need = len(c.wrap(rows[index].text, size, width)) * step
                if shown and used + need > h:
                    break
                shown.append(index)
                used += need + gap
                index += 1
            columns.append(shown)
        return columns

    def half(room: int) -> int:
        return (room - lay.margin) // 2

    count, side = 1, 0
    columns = fitting(w, 1)
    if len(columns[0]) < len(rows):
        side = marker_width(view) + gap
        if all(len(c.wrap(row.text, size, half(w - side))) == 1 for row in rows):
            count = 2
        columns = fitting(half(w - side) if count == 2 else w - side, count)
        everything = fitting(half(w), count, 0) if count == 2 else []
        if sum(map(len, everything)) == len(rows):
            side, columns = 0, everything  # two columns hold them all, from the first: no markers
    width = half(w - side) if count == 2 else w - side
    for column, shown in enumerate(columns):
        top = y
        left = x + column * (width + lay.margin)
        for index in shown:
            row = rows[index]
            height = min(len(c.wrap(row.text, size, width)) * step, y + h - top)
            c.paragraph(
                row.text,
                (left, top, width, height),
                size,
                row.color,
                role=f"{role}.row",
                min_size=size,
            )
            top += height + gap
    listed = [index for column in columns for index in column]
    if side and listed:
        markers = (x + w - side + gap, y, side - gap, h)
        before, after = listed[0], len(rows) - 1 - listed[-1]
        scroll_markers(
            view,
            markers,
            before,
            after,
            f"{role}.more",
            (EventScroll(listed[0] - 1), EventScroll(listed[0] + 1)),
        )
