"""The table: every seat with life, poison and commander damage, the counters and designations
a Commander table tracks (the monarch, the initiative, the city's blessing, energy, experience and
rad counters), who has lost and why, and the upkeep banner at the start of each turn (SPEC TB-3,
LF-1).

The banner shares the screen with the seats — a column beside them on a landscape screen, a band
under them on a portrait one — so no life total is ever hidden and a change made during the
upkeep shows at once; tapping it hides it for the turn and the seats take the room back.  Outside
the banner a module may keep a strip under the seats (Planechase names the face-up planes).

Life changes at one touch (LF-4): the encoder changes the highlighted seat's life (the cursor's
seat, else the active player's), a touch on a seat's upper half adds one and on its lower half
takes one away (ten when held).  The seat shows the total it will have, in the cursor's colour,
and the change with whom it comes from as a badge, until it is made after a pause or before
anything else happens; ``display.screens.life`` says how.  NEXT held brings the adjust screen
(poison, commander damage, another source), which takes the change over."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from msgspec import Struct
from msgspec.structs import replace

from device.events import Event, GameStarted, TurnPassed
from device.inputs import Button
from device.rules import counters as marking
from device.rules.colours import colour_of
from device.rules.teams import team_of, teamed, turn_name
from device.state import GameState, Player, Step
from device.state_counters import Counter, DayNight
from device.rules.registry import outcome
from display import cardtext, symbols, theme
from display.canvas import Canvas, Rect
from display.canvas import joiners as line_joiners
from display.fonts import Color
from display.i18n import Translator
from display.layout import Layout
from display.screens import Detail, Host, Screen, Strip, View, home
from display.screens.life import HELD, commit, drop, pending, shown_on, step
from display.ui import Action, Focus, Go, Press, Tap, Turn, UiState


def seat_rects(count: int, area: Rect, gap: int, rows: int = 2) -> list[Rect]:
    """Tiles around the table, clockwise: the top row left to right, the bottom row right to left
    (``rows=1``: one row, left to right)."""
    x, y, w, h = area
    if count <= 0:
        return []
    rows = 1 if count == 1 else min(rows, 2)
    cols = count if rows == 1 else (count + 1) // 2
    tile_w = (w - gap * (cols - 1)) // cols
    tile_h = (h - gap * (rows - 1)) // rows
    rects: list[Rect] = []
    for seat in range(count):
        col: float
        if seat < cols:
            col, row = seat, 0
        else:
            bottom = count - cols
            offset = (cols - bottom) / 2  # centre a shorter bottom row
            col, row = offset + (bottom - 1 - (seat - cols)), 1
        rects.append((int(x + col * (tile_w + gap)), y + row * (tile_h + gap), tile_w, tile_h))
    return rects


class Seating(Struct, frozen=True):
    """Where each seat's tile is (in seat order) and how far it is turned clockwise to face its
    player: 0 for the near side of the screen, 180 for the far side, 90 and 270 for the ends."""

    rects: list[Rect]
    turns: list[int]


def _row(count: int, area: Rect, gap: int) -> list[Rect]:
    x, y, w, h = area
    tile_w = (w - gap * (count - 1)) // max(1, count)
    return [(x + i * (tile_w + gap), y, tile_w, h) for i in range(count)]


def facing_seats(count: int, area: Rect, gap: int, side: float, portrait: bool = False) -> Seating:
    """Seats that face their players around a gadget lying in the middle of the table: two
    players opposite each other (the far one's tile upside down); from three on, a row along each
    long edge and a tile at one end or both, turned a quarter, each ``side`` of the long edge, so
    an even number share the long edges.  Clockwise from the far row's left: the far row, the
    right end, the near row right to left, the left end.  On a ``portrait`` screen the long
    edges are its sides: the same table, turned a quarter clockwise."""
    if portrait:
        x, y, w, h = area
        flat = facing_seats(count, (0, 0, h, w), gap, side)
        # A point (u, v) of the table laid flat shows at (w - v, u) on the screen turned upright.
        rects = [(x + w - v - rh, y + u, rh, rw) for u, v, rw, rh in flat.rects]
        return Seating(rects, facing_turns(count, portrait=True))
    x, y, w, h = area
    if count <= 2:
        rects = (
            [(x, y, w, h)]
            if count == 1
            else [(x, y, w, (h - gap) // 2), (x, y + (h + gap) // 2, w, (h - gap) // 2)]
        )
        return Seating(rects, facing_turns(count))
    ends, far, near = _around(count)
    end_w = int(w * side)
    left = (x, y, end_w, h)
    right = (x + w - end_w, y, end_w, h)
    middle_x = x + end_w + gap
    middle_w = w - end_w - gap - (end_w + gap if ends == 2 else 0)
    row_h = (h - gap) // 2
    far_rects = _row(far, (middle_x, y, middle_w, row_h), gap)
    near_rects = list(reversed(_row(near, (middle_x, y + h - row_h, middle_w, row_h), gap)))
    rects = far_rects + ([right] if ends == 2 else []) + near_rects + [left]
    return Seating(rects, facing_turns(count))


def _around(count: int) -> tuple[int, int, int]:
    """How many of ``count`` (three or more) seats facing their players sit at the table's ends,
    along its far edge and along its near edge: an even number along the edges."""
    ends = 2 if count % 2 == 0 else 1
    along = count - ends
    return ends, (along + 1) // 2, along // 2


def facing_turns(count: int, *, portrait: bool = False) -> list[int]:
    """How far each of ``count`` seats facing their players is turned, in seat order
    (:func:`facing_seats`): a quarter more on a portrait screen."""
    if count <= 2:
        turns = [0] if count == 1 else [180, 0]
    else:
        ends, far, near = _around(count)
        turns = [180] * far + ([270] if ends == 2 else []) + [0] * near + [90]
    return [(turn + 90) % 360 for turn in turns] if portrait else turns


#: The share of the width a tile at the end of the table takes, tried in turn for the seats
#: that face their players.
END_SHARES = (0.2, 0.25, 0.3)


def seatings(
    count: int, area: Rect, gap: int, facing: bool, portrait: bool = False
) -> list[Seating]:
    """The arrangements of ``count`` seats in ``area`` worth trying, the usual first: two rows
    (or one), or around the edges when the seats face their players (on a ``portrait``
    screen, its sides the table's long edges)."""
    if facing:
        return [
            facing_seats(count, area, gap, share, portrait)
            for share in (END_SHARES if count > 2 else (0.0,))
        ]
    found = [Seating(seat_rects(count, area, gap), [0] * count)]
    if count > 2:
        found.append(Seating(seat_rects(count, area, gap, rows=1), [0] * count))
    return found


def own_rect(rect: Rect, turn: int) -> Rect:
    """A tile's rectangle as drawn in its own picture: its width and height swap for a quarter turn."""
    _, _, w, h = rect
    return (0, 0, h, w) if turn % 180 == 90 else (0, 0, w, h)


def loss_text(view: View, state: GameState, player: Player) -> str:
    assert player.lost is not None
    team = (
        "_team" if player.lost.reason.value == "poison" and teamed(state) else ""
    )  # TB-6: fifteen, not ten
    reason = view.tr(f"ui.lost.{player.lost.reason.value}{team}")
    source = player.lost.source
    if (
        source is not None
        and source != player.seat
        and player.lost.reason.value not in ("conceded",)
    ):
        return view.tr("ui.lost_by", reason=reason, name=state.player(source).name)
    return reason


BadgeKind = Literal[
    "monarch",
    "initiative",
    "blessing",
    "day",
    "night",
    "poison",
    "commander",
    "tax",
    "energy",
    "experience",
    "rad",
    "skips",
    "pending",
]


class Badge(Struct, frozen=True):
    """A counter or designation on a seat tile: the monarch, the initiative, the city's blessing
    (and, in a Conspiracy pod whose groups each play their own game, the group's day or night) as
    an icon alone; poison, commander damage (and from whose commander), energy, experience and
    rad counters with their number; skipped turns; a life change not made yet (and from whom).  The number is what a player acts on, so it
    is drawn at the layout's ``medium`` size at least; ``labels`` say whose commander, from the
    full name to the shortest start of it no other player's name shares (whose commander, or whose
    change), for tiles short of room."""

    kind: BadgeKind
    number: str
    labels: tuple[str, ...] = ()

    def label(self, brevity: int) -> str:
        return self.labels[min(brevity, len(self.labels) - 1)] if self.labels else ""


POISON = (120, 200, 90)
GOLD = (246, 200, 70)

Icon = Callable[[Canvas, tuple[float, float], float, Color], None]


class BadgeLook(Struct, frozen=True):
    """How a kind of badge is drawn: its icon (None: words only) in ``color`` (its number too)
    on ``box``, and its role in the drawing record (``seat2.poison``)."""

    icon: Icon | None
    color: Color
    role: str
    box: Color = theme.BADGE


COUNTED: dict[Counter, BadgeKind] = {
    Counter.ENERGY: "energy",
    Counter.EXPERIENCE: "experience",
    Counter.RAD: "rad",
}

LOOKS: dict[str, BadgeLook] = {
    # The monarch's crown is dark on gold, so it never reads as commander damage's crown.
    "monarch": BadgeLook(symbols.crown, theme.BADGE, "monarch", GOLD),
    "initiative": BadgeLook(symbols.flag, (245, 130, 80), "initiative"),
    "blessing": BadgeLook(symbols.city, (100, 215, 200), "blessing"),
    "day": BadgeLook(symbols.sun, GOLD, "day"),
    "night": BadgeLook(symbols.moon, (170, 190, 255), "night"),
    "poison": BadgeLook(symbols.droplet, POISON, "poison"),
    "commander": BadgeLook(symbols.crown, theme.WARN, "cmd"),
    "tax": BadgeLook(symbols.tax, theme.MANA["generic"], "tax"),  # a mana cost's grey
    "energy": BadgeLook(symbols.bolt, (120, 220, 255), "energy"),
    "experience": BadgeLook(symbols.star, (200, 160, 255), "experience"),
    "rad": BadgeLook(symbols.trefoil, (230, 225, 70), "rad"),
    "skips": BadgeLook(None, theme.DIM, "skips"),
    "pending": BadgeLook(None, theme.CURSOR, "pending"),  # a life change not made yet
}


def short_names(state: GameState, shortest: int = 3) -> dict[int, str]:
    """Each player's name cut to the shortest start no other player's name begins with (at least
    ``shortest`` letters, one fewer in Japanese), so a badge can say "Łuk" for Łukasz."""
    return dict(_short_names(tuple((p.seat, p.name) for p in state.players), shortest))


@functools.lru_cache(maxsize=64)
def _short_names(seated: tuple[tuple[int, str], ...], shortest: int) -> tuple[tuple[int, str], ...]:
    """:func:`short_names` of the table's names, worked out once (every badge of every frame asks)."""
    names = dict(seated)
    found: dict[int, str] = {}
    for seat, name in names.items():
        least = max(1, shortest - 1) if any(ord(ch) >= 0x3000 for ch in name) else shortest
        length = len(name)  # a name no longer than the shortest start is shown whole
        for length in range(min(least, len(name)), len(name) + 1):
            start = name[:length].rstrip()
            if not any(other.startswith(start) for s, other in names.items() if s != seat):
                break
        found[seat] = name[:length].rstrip() if len(name) > length else name
    return tuple(found.items())


def signed(amount: int) -> str:
    """A change as the screen writes it: "+3", "−3" (a minus sign, not a hyphen)."""
    return f"{amount:+d}".replace("-", "−")


def seat_life(view: View, state: GameState, player: Player) -> str:
    """The life total a seat shows: the one it will have once a pending change is made."""
    change = shown_on(view.ui, state, player.seat)
    return str(player.life + (change.amount if change is not None else 0))


def designation_badges(state: GameState, player: Player) -> list[Badge]:
    """The monarch, the initiative and the city's blessing; in a Conspiracy pod whose groups
    each play their own game, the day or night of the player's group (one game's shows in the
    header instead)."""
    if state.counters is None:
        return []
    found: list[Badge] = []
    marked = marking.marks(state, player.seat)
    if marked.monarch == player.seat:
        found.append(Badge("monarch", ""))
    if marked.initiative == player.seat:
        found.append(Badge("initiative", ""))
    if state.counters.player(player.seat).blessing:
        found.append(Badge("blessing", ""))
    if marked.day_night is not None and len(marking.games(state)) > 1:
        found.append(Badge("day" if marked.day_night is DayNight.DAY else "night", ""))
    return found


def counter_badges(view: View, state: GameState, player: Player) -> list[Badge]:
    """A pending life change (from whom), the designations (icons alone), then poison, commander
    damage (largest first, naming whose commander), commander tax (per commander, naming it when
    there are partners), energy, experience and rad counters and skipped turns: non-zero only."""
    key = ("counter_badges", id(state), player.seat)
    found = view.memo.get(key)
    if found is None:
        found = view.memo[key] = tuple(_counter_badges(view, state, player))
    return list(found)


def _counter_badges(view: View, state: GameState, player: Player) -> list[Badge]:
    found: list[Badge] = []
    shorter = [short_names(state, 3), short_names(state, 1)]
    change = shown_on(view.ui, state, player.seat)
    if change is not None:
        source = state.player(change.source) if change.source is not None else None
        labels = (
            (source.name, *(names[source.seat] for names in shorter)) if source is not None else ()
        )
        found.append(Badge("pending", signed(change.amount), labels))
    found += designation_badges(state, player)
    if player.poison:
        found.append(Badge("poison", str(player.poison)))
    for entry in sorted(player.commander_damage, key=lambda e: -e.amount):
        if entry.amount:
            owner = state.player(entry.source)
            named = entry.commander < len(owner.commanders)
            partner = f"/{entry.commander + 1}" if len(owner.commanders) > 1 else ""
            labels = (
                owner.commanders[entry.commander] if named else owner.name,
                *(names[owner.seat] + partner for names in shorter),
            )
            found.append(Badge("commander", str(entry.amount), labels))
    for index, casts in enumerate(
        player.commander_casts
    ):  # CR 903.8: what casting it costs more now
        if casts:
            partners = len(player.commanders) > 1
            found.append(
                Badge(
                    "tax",
                    str(2 * casts),
                    (
                        player.commanders[index],
                        player.commanders[index].split()[0].rstrip(","),
                        str(index + 1),
                    )
                    if partners
                    else (),
                )
            )
    if state.counters is not None:
        mine = state.counters.player(player.seat)
        found += [
            Badge(COUNTED[counter], str(mine.count(counter)))
            for counter in Counter
            if mine.count(counter)
        ]
    if player.skip_turns:
        found.append(Badge("skips", "", (view.tr("ui.skips", n=player.skip_turns),)))
    return found


# What the screens add to the table, each screen's in the kiosk's order (Screen.seat_badges,
# upkeep_items, upkeep_details, table_strips).


def seat_notes(view: View, state: GameState, player: Player) -> str:
    """What the screens add under a seat's name, on one line."""
    key = ("seat_notes", id(state), player.seat)
    found = view.memo.get(key)
    if found is None:
        found = view.memo[key] = " · ".join(
            b for scr in view.screens.values() for b in scr.seat_badges(view, state, player)
        )
    return str(found)


def upkeep_items(view: View, state: GameState) -> list[str]:
    return [item for scr in view.screens.values() for item in scr.upkeep_items(state, view.tr)]


def upkeep_details(view: View, state: GameState) -> list[Detail]:
    return [
        detail for scr in view.screens.values() for detail in scr.upkeep_details(state, view.tr)
    ]


def table_strips(view: View, state: GameState) -> list[Strip]:
    return [strip for scr in view.screens.values() for strip in scr.table_strips(state, view.tr)]


# --- a seat tile ---------------------------------------------------------------------------


#: How tall a life total's digits should be on a panel whose size is known, to be read from
#: the far side of a kitchen table (phone life counters show 15-25 mm).
LIFE_MM = 9.0
#: The least height of a life total's digits on a panel whose size is known, ten players at it.
CROWDED_MM = 5.0
DIGITS = "0123456789"


def life_goal(view: View) -> int:
    """The life total's type size a tile aims for: on a panel whose size is known, the size whose
    digits are :data:`LIFE_MM` tall; else two thirds of ``huge`` (45 px on an 800×480 window)."""
    lay = view.layout
    goal = lay.huge * 2 // 3
    if lay.density is None:
        return goal
    return max(goal, digits_of(view, LIFE_MM, lay.density))


def digits_of(view: View, mm: float, density: float) -> int:
    """The least bold type size whose digits are ``mm`` tall at ``density`` pixels a millimetre."""
    wanted = mm * density
    return _digits_at_least(
        view, wanted, math.floor(wanted * 100 / view.canvas.fonts.ink(DIGITS, 100, True)[1]) - 2
    )


def _digits_at_least(view: View, height: float, start: int) -> int:
    """The least bold type size from ``start`` up whose digits' ink is ``height`` pixels tall."""
    ink = view.canvas.fonts.ink
    size = max(1, start)
    while ink(DIGITS, size, True)[1] < height:
        size += 1
    return size


def life_floor(view: View) -> int:
    """The life total's type size below which a crowded tile's name goes to ``tiny`` to give the
    digits room: on a panel whose size is known, the size whose digits are :data:`CROWDED_MM`
    tall (ten players at a table); else ``medium``."""
    lay = view.layout
    if lay.density is None:
        return lay.medium
    return max(lay.medium, digits_of(view, CROWDED_MM, lay.density))


class TilePlan(Struct, frozen=True):
    """How one seat tile is laid out; ``life`` is the life total's type size."""

    name_size: int
    notes_size: int  # a module's badges and the loss line
    notes: int  # lines of a module's badges
    foot: int  # lines of the loss text
    brevity: int  # which of a badge's labels: 0 the full name, then shorter ones
    beside: bool  # badges in a column right of the life total (else in rows below it)
    badge_size: int
    life: int  # 0: no room for it (a player out of the game, whose loss is said instead)
    clipped: bool = False  # a badge is wider than the tile and loses the end of its name
    #: A pending life change is the one badge shown: with the others too, the life total would
    #: have been smaller than without the change; they come back once the change is made.
    pending_only: bool = False
    #: A pending life change is shown on the name's plate, for the moment instead of the name:
    #: below or beside the total, it would have made the total smaller.
    pending_on_plate: bool = False


def _label_size(lay: Layout, brevity: int) -> int:
    return lay.tiny if brevity >= 2 else lay.small


def _badge_metrics(view: View, badge: Badge, size: int, brevity: int) -> tuple[int, int]:
    c, lay = view.canvas, view.layout
    pad = max(2, lay.margin // 2)
    height = (
        c.fonts.line_height(size, True) * 4 // 5
    )  # the digits' ink and a little air, not a whole line
    icon = height * 7 // 10 if LOOKS[badge.kind].icon is not None else 0
    label = badge.label(brevity)
    width = pad * 2
    if icon:
        width += icon + (pad if badge.number or label else 0)
    if badge.number:
        width += c.fonts.measure(badge.number, size, True)[0]
    if label:
        width += (pad if badge.number else 0) + c.fonts.measure(label, _label_size(lay, brevity))[0]
    return width, height


def _flow(widths: list[int], width: int, gap: int) -> list[list[int]] | None:
    """Badges (by index) in rows no wider than ``width``; None if one alone is wider."""
    rows: list[list[int]] = []
    used = 0
    for index, w in enumerate(widths):
        if w > width:
            return None
        if rows and used + gap + w <= width:
            rows[-1].append(index)
            used += gap + w
        else:
            rows.append([index])
            used = w
    return rows


def _largest(fits: Callable[[int], bool], cap: int) -> int:
    """The largest size from 1 to ``cap`` that ``fits`` (1 if none does): what fits at a size
    fits at every smaller one."""
    low, high = 1, max(1, cap)
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if fits(mid) else (low, mid - 1)
    return low


def badge_size(view: View, life: int) -> int:
    """The type size of a tile's badges beside a life total at ``life``: their digits at least
    half as tall as the total's, so poison and commander damage read from where the total does
    (never under ``small``)."""
    half = (view.canvas.fonts.ink(DIGITS, life, True)[1] + 1) // 2
    return _digits_at_least(view, half, max(view.layout.small, life // 2))


def _note_lines(view: View, text: str, width: int) -> tuple[int, int]:
    """The size and number of lines a small wrapped note (a module's badges, the loss) takes."""
    c, lay = view.canvas, view.layout
    if not text:
        return lay.small, 0
    for size in (lay.small, lay.tiny):
        lines = c.wrapped(text, size, width)
        if lines is not None and len(lines) <= 2:
            return size, len(lines)
    lines = c.wrapped(text, lay.tiny, width)
    return lay.tiny, len(lines) if lines is not None else 1


def tile_plan(view: View, state: GameState, player: Player, rect: Rect) -> TilePlan:
    """The largest life total a tile can hold with its name, badges and notes: names at
    ``medium`` and commanders by full name unless that keeps the life total under the goal.

    A pending life change never makes the total smaller, read across the table while the encoder
    turns: its badge goes with the others if they leave the total as large as without it, else
    alone (the total it changes matters more than a moment's poison), else on the name's plate.
    The name keeps the size it has without the pending change, so it does not jump either."""
    badges = counter_badges(view, state, player) if player.in_game else []
    # A plan depends only on what the tile shows and its size: the same tile is planned once, not
    # every frame, nor again for each arrangement of the seats tried.
    key = (
        "seat",
        view.layout,
        rect[2],
        rect[3],
        seat_life(view, state, player),
        tuple(badges),
        seat_notes(view, state, player),
        loss_text(view, state, player) if not player.in_game else None,
    )
    found = view.canvas.planned.get(key)
    if not isinstance(found, TilePlan):
        found = view.canvas.planned.put(key, _planned(view, state, player, rect, badges))
    return found


def _planned(
    view: View, state: GameState, player: Player, rect: Rect, badges: list[Badge]
) -> TilePlan:
    if not badges or badges[0].kind != "pending":
        return _tile_plan(view, state, player, rect, badges)
    without = _tile_plan(view, state, player, rect, badges[1:])
    names = (without.name_size,)
    plan = _tile_plan(view, state, player, rect, badges, names)
    if plan.life >= without.life:
        return plan
    alone = _tile_plan(view, state, player, rect, badges[:1], names) if len(badges) > 1 else plan
    if alone.life >= without.life:
        return replace(alone, pending_only=True)
    return replace(without, pending_on_plate=True)


def tile_badges(view: View, state: GameState, player: Player, plan: TilePlan) -> list[Badge]:
    """The badges a tile planned as ``plan`` shows below or beside its total."""
    return _shown(counter_badges(view, state, player) if player.in_game else [], plan)


def _shown(badges: list[Badge], plan: TilePlan) -> list[Badge]:
    if plan.pending_on_plate:
        return badges[1:]
    return badges[:1] if plan.pending_only else badges


class _Room:
    """A tile's room for its life total and badges, below its name and notes: whether a total at
    a size fits with the badges (grown with it, ``badge_size``) in rows under it or in a column
    beside it."""

    def __init__(
        self, view: View, life: str, badges: list[Badge], rect: Rect, notes: tuple[int, int, int]
    ) -> None:
        lay = view.layout
        self.view, self.life, self.badges = view, life, badges
        self.pad = lay.margin
        self.inner = rect[2] - 2 * self.pad
        self.gap = max(2, lay.margin // 2)
        notes_size, _, foot = notes
        # Where the badges or the life end: above the loss text, if any.
        self.bottom = rect[3] - self.pad // 2 - foot * view.canvas.fonts.line_height(notes_size)

    def _life_fits(self, size: int, width: int, room: tuple[int, int]) -> bool:
        """The total's ink at ``size`` fits ``width`` and the rows ``room`` (top, bottom) when
        centred in them: the digits fill the room, and the line's empty top and foot may reach
        over the name or the badges (``Canvas.text`` with ``ink``)."""
        fonts = self.view.canvas.fonts
        return (
            fonts.measure(self.life, size, True)[0] <= width
            and fonts.ink(self.life, size, True)[1] <= room[1] - room[0]
        )

    def _metrics(self, size: int, brevity: int) -> list[tuple[int, int]]:
        return [
            _badge_metrics(self.view, b, badge_size(self.view, size), brevity) for b in self.badges
        ]

    def in_rows(self, top: int, brevity: int, one_a_row: bool = False) -> Callable[[int], bool]:
        def fits(size: int) -> bool:
            metrics = self._metrics(size, brevity)
            rows = (
                [[i] for i in range(len(metrics))]
                if one_a_row
                else _flow([m[0] for m in metrics], self.inner, self.gap)
            )
            if rows is None:
                return False
            if not rows:
                return self._life_fits(size, self.inner, (top, self.bottom - self.pad // 2))
            low = self.bottom - len(rows) * metrics[0][1] - len(rows) * self.gap
            return self._life_fits(size, self.inner, (top, low))

        return fits

    def in_column(self, top: int, brevity: int) -> Callable[[int], bool]:
        def fits(size: int) -> bool:
            metrics = self._metrics(size, brevity)
            column = max(m[0] for m in metrics)
            tall = sum(m[1] for m in metrics) + self.gap * (len(metrics) - 1)
            return (
                tall <= self.bottom - top
                and column < self.inner
                and self._life_fits(
                    size, self.inner - column - self.pad, (top, self.bottom - self.pad // 2)
                )
            )

        return fits


def _tile_plan(
    view: View,
    state: GameState,
    player: Player,
    rect: Rect,
    badges: list[Badge],
    names: tuple[int, ...] = (),
) -> TilePlan:
    """The best plan for ``badges``, the name at the first of ``names`` (default: medium, small,
    tiny) that lets the life total reach the goal, else at the one that makes it largest."""
    c, lay = view.canvas, view.layout
    inner = rect[2] - 2 * lay.margin
    notes_size, notes = _note_lines(view, seat_notes(view, state, player), inner)
    foot_size, foot = _note_lines(
        view, loss_text(view, state, player) if not player.in_game else "", inner
    )
    notes_size = min(notes_size, foot_size) if foot else notes_size
    room = _Room(view, seat_life(view, state, player), badges, rect, (notes_size, notes, foot))
    cap = lay.huge * 2
    goal = life_goal(view)
    best: TilePlan | None = None
    # Names no smaller than ``small`` (a name in ``tiny`` type is not read across the table),
    # unless that alone keeps a crowded tile's total at its floor (``life_floor``).  The badges
    # grow with the total (``badge_size``), so each arrangement is sized as a whole.
    floor = life_floor(view)
    # A badge's labels run from the full name to the shortest; one without any (a change from
    # nobody) is planned once, as a tile without labels is.
    brevities = range(
        max([1, *(len(b.labels) for b in badges if b.kind in ("commander", "pending", "tax"))])
    )
    for name_size in names or (lay.medium, lay.small, lay.tiny):
        if name_size == lay.tiny and not names and best is not None and best.life >= floor:
            break
        top = (
            lay.margin // 2
            + c.fonts.line_height(name_size)
            + notes * c.fonts.line_height(notes_size)
        )
        for brevity in brevities:
            arrangements = [(False, room.in_rows(top, brevity))] + (
                [(True, room.in_column(top, brevity))] if badges else []
            )
            for beside, fits in arrangements:
                option = _arranged(
                    view,
                    fits,
                    cap,
                    TilePlan(name_size, notes_size, notes, foot, brevity, beside, 0, 0),
                )
                if option is not None and (best is None or option.life > best.life):
                    best = option
            if best is not None and (best.life >= goal or not player.in_game):
                return _out_of_room(
                    view, player, best
                )  # a player out of the game keeps their name readable before their life
    if best is not None:
        return _out_of_room(view, player, best)
    # No badge fits the tile's width even with the shortest names (many players on a small
    # panel): one badge a row, the name clipped at the tile's edge, and the life total kept large.
    top = lay.margin // 2 + c.fonts.line_height(lay.tiny) + notes * c.fonts.line_height(notes_size)
    size = _largest(room.in_rows(top, 2, one_a_row=True), cap)
    return TilePlan(
        lay.tiny, notes_size, notes, foot, 2, False, badge_size(view, size), size, clipped=True
    )


def _arranged(view: View, fits: Callable[[int], bool], cap: int, plan: TilePlan) -> TilePlan | None:
    """``plan`` with the largest total (and its badges) that ``fits``; None if none does."""
    size = _largest(fits, cap)
    return replace(plan, life=size, badge_size=badge_size(view, size)) if fits(size) else None


def _out_of_room(view: View, player: Player, plan: TilePlan) -> TilePlan:
    """A player out of the game whose total has no room at ``tiny`` shows none (``life`` 0):
    the words under their name say why they left."""
    return replace(plan, life=0) if not player.in_game and plan.life < view.layout.tiny else plan


def draw_badge(
    view: View,
    badge: Badge,
    at: tuple[int, int],
    size: int,
    brevity: int,
    role: str,
    right: int | None = None,
) -> None:
    """One badge at ``at``; ``right`` clips it (and its label) where the tile ends."""
    c, lay = view.canvas, view.layout
    width, height = _badge_metrics(view, badge, size, brevity)
    if right is not None:
        width = min(width, right - at[0])
    x, y = at
    pad = max(2, lay.margin // 2)
    look = LOOKS[badge.kind]
    color = look.color
    c.box((x, y, width, height), look.box, radius=height // 3)
    if badge.kind == "pending":  # not made yet: ringed in the cursor's colour, as the seat is
        c.box((x, y, width, height), color, width=max(1, lay.line), radius=height // 3)
    middle = y + height // 2
    cx = x + pad
    if look.icon is not None:
        icon = height * 7 // 10
        look.icon(c, (cx + icon / 2, middle), icon, color)
        c.shape(
            badge.kind,
            (cx, middle - icon // 2, icon, icon),
            f"{role}.icon" if badge.number else role,
        )
        cx += icon + pad
    if badge.number:
        r = c.text(
            badge.number,
            (cx, middle),
            size,
            color,
            anchor="midleft",
            bold=True,
            role=role,
            ink=True,
        )
        cx = r.right + pad
    label = badge.label(brevity)
    if label:
        c.text(
            label,
            (cx, middle),
            _label_size(lay, brevity),
            theme.TEXT,
            anchor="midleft",
            role=f"{role}.from" if badge.kind in ("commander", "pending") else role,
            max_width=None if right is None else max(1, right - pad - cx),
            min_size=_label_size(lay, brevity),
        )


def draw_seat(
    view: View,
    state: GameState,
    player: Player,
    rect: Rect,
    cursor: bool,
    plan: TilePlan | None = None,
) -> None:
    """One seat: the name on top, a module's notes, the life total as large as the tile allows,
    and the counters as badges below it or beside it; a player who left shows why."""
    c, lay = view.canvas, view.layout
    plan = plan or tile_plan(view, state, player, rect)
    x, y, w, h = rect
    active = takes_the_turn(state, player)
    background = theme.LOST_BG if not player.in_game else theme.ACTIVE if active else theme.PANEL
    c.box(rect, background)
    pad = lay.margin
    inner = w - 2 * pad
    top = y + pad // 2 + c.fonts.line_height(plan.name_size)
    plate = name_plate(view, player, (x, y, w, top - y))
    if active:
        c.box(rect, theme.ACTIVE_EDGE, width=max(2, lay.line * 2))
    if cursor:
        c.box(rect, theme.CURSOR, width=max(2, lay.line * 2))
    seat = f"seat{player.seat}"
    color = theme.TEXT if player.in_game else theme.FAINT
    every = counter_badges(view, state, player) if player.in_game else []
    if plan.pending_on_plate:
        change = every[0]
        bw, bh = _badge_metrics(view, change, plan.name_size, 0)
        brevity = 0
        while bw > inner and brevity + 1 < max(1, len(change.labels)):
            brevity += 1
            bw, bh = _badge_metrics(view, change, plan.name_size, brevity)
        draw_badge(
            view,
            change,
            (x + max(pad // 2, (w - bw) // 2), y + max(0, (top - y - bh) // 2)),
            plan.name_size,
            brevity,
            f"{seat}.{_badge_role(change)}",
            right=x + w - pad // 2,
        )
    else:
        c.text(
            player.name,
            (x + w // 2, y + pad // 2),
            plan.name_size,
            plate,
            anchor="midtop",
            bold=active,
            max_width=inner,
            role=f"{seat}.name",
            min_size=lay.tiny,
        )
    notes = seat_notes(view, state, player)
    if plan.notes:
        height = plan.notes * c.fonts.line_height(plan.notes_size)
        c.paragraph(
            notes,
            (x + pad, top, inner, height),
            plan.notes_size,
            theme.CURSOR,
            role=f"{seat}.badges",
            min_size=plan.notes_size,
            align="center",
        )
        top += height
    bottom = y + h - pad // 2
    if plan.foot:
        height = plan.foot * c.fonts.line_height(plan.notes_size)
        bottom -= height
        c.paragraph(
            loss_text(view, state, player),
            (x + pad, bottom, inner, height),
            plan.notes_size,
            theme.ERROR,
            role=f"{seat}.lost",
            min_size=plan.notes_size,
            align="center",
        )
    life = seat_life(view, state, player)
    life_box = _draw_badges(view, seat, _shown(every, plan), plan, rect, (top, bottom), life)
    # The life total, placed by its ink: digits fill little more than half a line.
    lx, ly, lw, lh = life_box
    # A total a pending change will leave is in the cursor's colour until the change is made.
    shown = theme.CURSOR if shown_on(view.ui, state, player.seat) is not None else color
    if plan.life:
        ink_top, ink_h = c.fonts.ink(life, plan.life, True)
        line_top = ly + lh // 2 - ink_top - ink_h // 2
        c.text(
            life,
            (lx + lw // 2, line_top),
            plan.life,
            shown,
            anchor="midtop",
            bold=True,
            role=f"{seat}.life",
            min_size=plan.life,
            ink=True,
        )
    seat_targets(view, player.seat, rect)


def takes_the_turn(state: GameState, player: Player) -> bool:
    """Whether ``player``, in the game, takes the turn: TB-6, in Two-Headed Giant both players of
    the active team do."""
    turn = team_of(state, state.active) if teamed(state) else (state.active,)
    return player.seat in turn and player.in_game


def seat_key(
    view: View,
    state: GameState,
    player: Player,
    rect: Rect,
    turn: int,
    cursor: bool,
    plan: TilePlan,
) -> tuple[object, ...]:
    """Everything ``draw_seat`` draws a seat from, turned by ``turn`` in ``rect`` (``Canvas.part``)."""
    return (
        "seat",
        rect,
        turn,
        cursor,
        plan,
        player.seat,
        player.name,
        player.in_game,
        colour_of(player),
        takes_the_turn(state, player),
        seat_life(view, state, player),
        tuple(counter_badges(view, state, player)) if player.in_game else (),
        seat_notes(view, state, player),
        None if player.in_game else loss_text(view, state, player),
        shown_on(view.ui, state, player.seat) is not None,
    )


def _draw_badges(
    view: View,
    seat: str,
    badges: list[Badge],
    plan: TilePlan,
    rect: Rect,
    room: tuple[int, int],
    life: str,
) -> Rect:
    """A tile's badges in the room (top, bottom) left under its name and notes: in a column right
    of the life total, the pair centred, or in rows under it; returns the room the total has."""
    c, lay = view.canvas, view.layout
    x, _, w, _ = rect
    top, bottom = room
    pad = lay.margin
    inner = w - 2 * pad
    gap = max(2, lay.margin // 2)
    metrics = [_badge_metrics(view, b, plan.badge_size, plan.brevity) for b in badges]
    if not badges:
        return (x + pad, top, inner, bottom - pad // 2 - top)
    if plan.beside:
        column = max(m[0] for m in metrics)
        life_w = c.fonts.measure(life, plan.life, True)[0] if plan.life else 0
        left = x + pad + max(0, (inner - life_w - pad - column) // 2)
        tall = sum(m[1] for m in metrics) + gap * (len(metrics) - 1)
        by = top + (bottom - top - tall) // 2
        for badge, (_, bh) in zip(badges, metrics, strict=True):
            draw_badge(
                view,
                badge,
                (left + life_w + pad, by),
                plan.badge_size,
                plan.brevity,
                f"{seat}.{_badge_role(badge)}",
            )
            by += bh + gap
        return (left, top, life_w, bottom - pad // 2 - top)
    rows = (_flow([m[0] for m in metrics], inner, gap) if not plan.clipped else None) or [
        [i] for i in range(len(badges))
    ]
    row_h = metrics[0][1]
    by = bottom - len(rows) * row_h - (len(rows) - 1) * gap
    life_box = (x + pad, top, inner, by - gap - top)
    for row in rows:
        row_w = sum(metrics[i][0] for i in row) + gap * (len(row) - 1)
        bx = max(x + pad // 2, x + (w - row_w) // 2)
        for i in row:
            draw_badge(
                view,
                badges[i],
                (bx, by),
                plan.badge_size,
                plan.brevity,
                f"{seat}.{_badge_role(badges[i])}",
                right=x + w - pad // 2,
            )
            bx += metrics[i][0] + gap
        by += row_h + gap
    return life_box


class LifeStep(Tap, frozen=True):
    """A seat's half on the table: the upper gains a life (``sign`` +1), the lower loses one
    (−1); ``held``: the touch stayed down, ``HELD`` in all."""

    seat: int
    sign: int
    held: bool = False


class PickSeat(Tap, frozen=True):
    """A seat too small for its halves: the cursor goes to it."""

    seat: int


class HideBanner(Tap, frozen=True):
    """The upkeep banner: tapped away for this turn."""


def seat_targets(view: View, seat: int, rect: Rect) -> None:
    """The upper half of a seat gains life, the lower half loses it: one a touch, ``HELD``
    held.  Each half takes in the half-margin beside it (the gap between tiles is no one's); on
    a panel where a half would still be less than a finger tall, a touch on the seat only
    highlights it, for the encoder and the adjust screen."""
    c, lay = view.canvas, view.layout
    x, y, w, h = rect
    reach = lay.margin // 2
    upper = h // 2
    if min(upper, h - upper) + reach < lay.touch:
        c.target(rect, PickSeat(seat))
        return
    c.target((x, y - reach, w, upper + reach), LifeStep(seat, 1), held=LifeStep(seat, 1, held=True))
    c.target(
        (x, y + upper, w, h - upper + reach), LifeStep(seat, -1), held=LifeStep(seat, -1, held=True)
    )


def name_plate(view: View, player: Player, rect: Rect) -> Color:
    """The player's colour behind their name at the top of their seat (faded once they left);
    returns the colour their name reads in on it."""
    x, y, w, h = rect
    shade = theme.shade(colour_of(player))
    if not player.in_game:
        shade = theme.faded(shade, theme.LOST_BG, 0.35)
    # Rounded like the tile at the top, square where the rest of the tile meets it.
    view.canvas.box(rect, shade)
    view.canvas.box((x, y + h // 2, w, h - h // 2), shade, radius=0)
    return theme.ink_on(shade) if player.in_game else theme.DIM


def _badge_role(badge: Badge) -> str:
    return LOOKS[badge.kind].role


# --- the upkeep banner -----------------------------------------------------------------------


class PanelFit(Struct, frozen=True):
    """The type sizes that fit the upkeep banner's panel: its items and title at ``size``, the
    details' texts (a plane's rules text) at ``detail`` (None: left out, they do not fit);
    ``pictures``: how many lines of a detail's title its card's picture beside it is tall (0:
    none)."""

    size: int
    detail: int | None
    pictures: int = 0


def thumbnail(name: str, landscape: bool, height: int, widest: int) -> tuple[int, int] | None:
    """The size a card's picture is shown at ``height`` tall (smaller, to be at most ``widest``
    wide), or None when the card has no picture that can be shown."""
    found = cardtext.picture_size(name, landscape=landscape) if name else None
    if found is None or height <= 0:
        return None
    pw, ph = found
    width = round(height * pw / ph)
    if width > widest:
        width, height = widest, round(widest * ph / pw)
    return (width, height) if width > 0 and height > 0 else None


class DetailHead(Struct, frozen=True):
    """A detail's title in the banner: the picture's size beside it (None: no picture), the
    title's lines (None: a word wider than the room) and the height of both."""

    thumb: tuple[int, int] | None
    lines: list[str] | None
    height: int


def detail_head(view: View, detail: Detail, size: int, inner: int, pictures: int) -> DetailHead:
    """A detail's title at ``size`` in a banner ``inner`` wide; with ``pictures``, its card's
    picture that many title lines tall beside it (at most two fifths of the width)."""
    c, lay = view.canvas, view.layout
    step = c.fonts.line_height(size, True)
    thumb = (
        thumbnail(detail.picture, detail.landscape, step * pictures, inner * 2 // 5)
        if pictures
        else None
    )
    lines = c.wrapped(
        detail.title, size, inner - (thumb[0] + lay.margin // 2 if thumb else 0), bold=True
    )
    return DetailHead(thumb, lines, max(len(lines or []) * step, thumb[1] if thumb else 0))


def _bulleted(view: View, text: str, size: int, width: int) -> list[str] | None:
    indent = view.canvas.fonts.measure(BULLET, size)[0]
    return view.canvas.wrapped(text, size, width - indent)


BULLET = "• "


def fit_panel(view: View, state: GameState, rect: Rect) -> PanelFit | None:
    """The largest type that shows the whole banner in ``rect``, with the details' pictures
    beside their titles, two title lines tall or else one, where they leave every text as large
    as without them; None if nothing fits."""
    plain = _fit_panel(view, state, rect, 0)
    details = upkeep_details(view, state)
    if (
        plain is None
        or plain.detail is None
        or not any(thumbnail(d.picture, d.landscape, 1, 1) is not None for d in details)
    ):
        return plain
    for lines in (2, 1):
        shown = _fit_panel(view, state, rect, lines)
        if (
            shown is not None
            and shown.detail is not None
            and (shown.size, shown.detail) >= (plain.size, plain.detail)
        ):
            return shown
    return plain


def _fit_panel(view: View, state: GameState, rect: Rect, pictures: int) -> PanelFit | None:
    c, lay, tr = view.canvas, view.layout, view.tr
    _, _, w, h = rect
    pad = lay.margin
    inner = w - 2 * pad
    room = h - 2 * pad
    title = tr("ui.upkeep.title", name=turn_name(state))
    items = upkeep_items(view, state)
    details = upkeep_details(view, state)
    nxt = tr("ui.upkeep.next")
    found: list[PanelFit] = []
    for size in range(lay.medium, lay.tiny - 1, -1):
        parts = [c.wrapped(title, size, inner, bold=True), c.wrapped(nxt, size, inner, bold=True)]
        bullets = [_bulleted(view, item, size, inner) for item in items]
        if any(p is None for p in parts + bullets):
            continue
        lines = sum(len(p or []) for p in parts) + sum(len(b or []) for b in bullets)
        used = lines * c.fonts.line_height(size) + pad * 2
        if used > room:
            continue
        if not details:
            return PanelFit(size, None)
        heads = [detail_head(view, d, size, inner, pictures) for d in details]
        if any(head.lines is None for head in heads):
            found.append(PanelFit(size, None))
            continue
        text_room = room - used - pad - sum(head.height for head in heads) - pad // 2 * len(details)
        text_size = None
        for candidate in range(lay.medium, lay.tiny - 1, -1):
            wrapped = [c.wrapped(d.text, candidate, inner) for d in details]
            if (
                all(x is not None for x in wrapped)
                and sum(len(x or []) for x in wrapped) * c.fonts.line_height(candidate) <= text_room
            ):
                text_size = candidate
                break
        found.append(PanelFit(size, text_size, pictures))
    if not found:
        return None
    # The items and the plane's text as large as they can be together: neither dwarfs the other.
    with_text = [f for f in found if f.detail is not None]
    if with_text:
        return max(with_text, key=lambda f: (min(f.size, f.detail or 0), f.size))
    return found[0]


def draw_banner(view: View, state: GameState, rect: Rect, fit: PanelFit) -> None:
    """The upkeep banner beside the seats: whose upkeep it is, what they must do now, the plane
    and what it does, and that NEXT goes on to the main phase."""
    c, lay, tr = view.canvas, view.layout, view.tr
    x, y, w, h = rect
    pad = lay.margin
    inner = w - 2 * pad
    c.box(rect, theme.BANNER)
    c.box(rect, theme.ACTIVE_EDGE, width=max(2, lay.line))
    size = fit.size
    step = c.fonts.line_height(size)
    ty = y + pad
    title = tr("ui.upkeep.title", name=turn_name(state))
    title_h = len(c.wrapped(title, size, inner, bold=True) or [title]) * c.fonts.line_height(
        size, True
    )
    # The title on the colour of the player whose upkeep it is, as their seat's name is.
    ink = name_plate(view, state.player(state.active), (x, y, w, pad + title_h + pad // 2))
    c.box(rect, theme.ACTIVE_EDGE, width=max(2, lay.line))
    ty += c.paragraph(
        title,
        (x + pad, ty, inner, h),
        size,
        ink,
        role="banner.title",
        bold=True,
        min_size=size,
        align="center",
    )
    ty += pad // 2
    indent = c.fonts.measure(BULLET, size)[0]
    for item in upkeep_items(view, state):
        lines = _bulleted(view, item, size, inner) or [item]
        joiners = line_joiners(item, lines)
        for index, line in enumerate(lines):
            text = BULLET + line if index == 0 else line
            c.text(
                text,
                (x + pad + (0 if index == 0 else indent), ty),
                size,
                theme.TEXT,
                role="banner.item",
                min_size=size,
                joiner=joiners[index],
            )
            ty += step
    nxt = tr("ui.upkeep.next")
    next_lines = c.wrapped(nxt, size, inner, bold=True) or [nxt]
    next_h = len(next_lines) * c.fonts.line_height(size, True)
    if fit.detail is not None:
        ty += pad // 2
        for detail in upkeep_details(view, state):
            c.line((x + pad, ty), (x + w - pad, ty), theme.WALK, max(1, lay.line))
            ty += pad // 2
            head = detail_head(view, detail, size, inner, fit.pictures)
            image = (
                cardtext.picture(detail.picture, head.thumb, landscape=detail.landscape)
                if head.thumb
                else None
            )
            if head.thumb is not None and image is not None:
                c.picture(image, (x + pad, ty), detail.picture, f"{detail.role}.picture")
                beside = head.thumb[0] + pad // 2
                title_h = len(head.lines or []) * c.fonts.line_height(size, True)
                c.paragraph(
                    detail.title,
                    (x + pad + beside, ty + (head.height - title_h) // 2, inner - beside, title_h),
                    size,
                    theme.WALK,
                    role=detail.role,
                    bold=True,
                    min_size=size,
                )
                ty += head.height
            else:
                ty += c.paragraph(
                    detail.title,
                    (x + pad, ty, inner, h),
                    size,
                    theme.WALK,
                    role=detail.role,
                    bold=True,
                    min_size=size,
                )
            lines = c.wrapped(detail.text, fit.detail, inner) or []
            height = len(lines) * c.fonts.line_height(fit.detail)
            ty += c.paragraph(
                detail.text,
                (x + pad, ty, inner, height),
                fit.detail,
                theme.TEXT,
                role=f"{detail.role}.text",
                min_size=fit.detail,
            )
    c.paragraph(
        nxt,
        (x + pad, y + h - pad - next_h, inner, next_h),
        size,
        theme.ACTIVE_EDGE,
        role="banner.next",
        bold=True,
        min_size=size,
        align="center",
    )
    c.target(rect, HideBanner())


# --- where everything goes -------------------------------------------------------------------


class TableLayout(Struct, frozen=True):
    seats: list[Rect]
    plans: list[TilePlan]
    banner: Rect | None = None
    fit: PanelFit | None = None
    strip: Rect | None = None
    turns: list[int] = []  # each seat's tile turned clockwise (none: all upright)


#: The table option that turns each seat's tile toward its player (declared in
#: ``device.rules.table``, whose import from here would close a circle through the texts).
SEATS_FACING = "seats_facing"


def faces_players(state: GameState) -> bool:
    """The table option that turns each seat toward its player (``SEATS_FACING``)."""
    return bool(state.options.get(SEATS_FACING, False))


def portrait(canvas: Canvas) -> bool:
    """A screen taller than wide: seats facing their players have its sides as the long edges."""
    return canvas.height > canvas.width


def seat_turns(state: GameState, tall: bool = False) -> list[int]:
    """How far each seat's tile is turned (all upright unless the seats face their players; a
    ``tall`` screen turns them a quarter more)."""
    count = len(state.players)
    return facing_turns(count, portrait=tall) if faces_players(state) else [0] * count


def shared_turn(state: GameState, tall: bool = False) -> int:
    """How the parts of the table every player shares (the header, the upkeep banner, the plane
    strip) are turned: toward the far side while the player whose turn it is sits there (the
    top of the screen; on a ``tall`` screen only a player at its top end sits there)."""
    return 180 if seat_turns(state, tall)[state.active] == 180 else 0


def _seats(
    view: View, state: GameState, area: Rect
) -> tuple[list[Rect], list[TilePlan], list[int]]:
    """The arrangement whose smallest life total is largest, with no tile's words cut short (the
    usual one of those that tie): two rows or one, ends of one width or another.  Always the
    largest, so a phase with less to show never has smaller digits than one with more."""
    best: tuple[list[Rect], list[TilePlan], list[int]] | None = None
    best_key = (1, -1)
    for seating in seatings(
        len(state.players), area, view.layout.margin, faces_players(state), portrait(view.canvas)
    ):
        plans = [
            tile_plan(view, state, p, own_rect(r, t))
            for p, r, t in zip(state.players, seating.rects, seating.turns, strict=True)
        ]
        key = (
            -sum(p.clipped for p in plans),
            _smallest(state, plans),
        )  # no name cut short, then the digits
        if best is None or key > best_key:
            best, best_key = (seating.rects, plans, seating.turns), key
    assert best is not None
    return best


#: The share of the width the upkeep banner may take beside the seats: the first (then the next
#: narrower ones) that leaves every life total at its goal size, else the one that leaves them
#: largest; the widest only when nothing narrower holds the banner.
BANNER_SHARES = (0.4, 0.34, 0.3, 0.26, 0.5)


def table_layout(
    view: View, state: GameState, area: Rect, banner: bool, strips: list[Strip]
) -> TableLayout:
    """The seats, and beside them the upkeep banner (a column on the right of a landscape
    screen, a band under the seats on a portrait one) or the strip under them; nothing covers a
    seat.  A banner that says no more than the turn's steps gives way where it would leave a
    life total under the goal: the header says whose upkeep it is."""
    lay = view.layout
    x, y, w, h = area
    gap = lay.margin
    goal = life_goal(view)
    if banner:
        best: TableLayout | None = None
        best_key: tuple[int, bool, int, float] = (-len(state.players) - 1, False, -1, 0.0)
        details = bool(upkeep_details(view, state))
        first: TableLayout | None = None
        for share in BANNER_SHARES:
            if w >= h:
                side = int(w * share)
                panel: Rect = (x + w - side, y, side, h)
                seats: Rect = (x, y, w - side - gap, h)
            else:
                side = int(h * share)
                panel = (x, y + h - side, w, side)
                seats = (x, y, w, h - side - gap)
            fit = fit_panel(view, state, panel)
            if fit is None:
                continue
            rects, plans, turns = _seats(view, state, seats)
            smallest = _smallest(state, plans)
            clipped = sum(p.clipped for p in plans)
            found = TableLayout(rects, plans, panel, fit, turns=turns)
            # The plane's rules text in view where a banner that shows it exists; then the totals.
            shown = fit.detail is not None or not details
            readable = smallest >= goal and not clipped
            if readable and shown:
                return found
            if readable and first is None:
                first = found
            key = (
                -clipped,
                shown,
                smallest,
                -share,
            )  # a tie goes to the narrower banner: the seats need it more
            if key > best_key:
                best, best_key = found, key
        # No banner shows the text with readable totals: the first that keeps them readable.
        if first is not None and (best is None or best.fit is None or best.fit.detail is None):
            return first
        if best is not None and (details or len(upkeep_items(view, state)) > 1):
            return best
    if strips:
        return _with_strip(view, state, area, strips)
    rects, plans, turns = _seats(view, state, area)
    return TableLayout(rects, plans, turns=turns)


def _smallest(state: GameState, plans: list[TilePlan]) -> int:
    """The smallest life total of the players still in the game (all, once none is)."""
    return min(
        (p.life for p, player in zip(plans, state.players, strict=True) if player.in_game),
        default=min(p.life for p in plans),
    )


def _with_strip(view: View, state: GameState, area: Rect, strips: list[Strip]) -> TableLayout:
    """The seats over the strip, the strip as tall as a fingertip where the totals keep their
    goal size with it, else as short as what it says (its plane's chaos ability whole, then its
    name alone): the first height that keeps the totals readable and says the ability, else
    the first that keeps them readable, else the one that leaves them largest (the shortest of
    those)."""
    c, lay = view.canvas, view.layout
    x, y, w, h = area
    gap = lay.margin
    goal = life_goal(view)
    named = c.fonts.line_height(lay.medium, True) + lay.margin
    heights = sorted(
        {
            max(lay.touch, named),
            2 * c.fonts.line_height(lay.small) + lay.margin,
            2 * c.fonts.line_height(lay.tiny) + lay.margin,
            named,
            c.fonts.line_height(lay.small, True) + lay.margin // 2,
        },
        reverse=True,
    )
    best: TableLayout | None = None
    first: TableLayout | None = None
    least = -1
    for strip_h in heights:
        rects, plans, turns = _seats(view, state, (x, y, w, h - strip_h - gap))
        found = TableLayout(rects, plans, strip=(x, y + h - strip_h, w, strip_h), turns=turns)
        smallest = _smallest(state, plans)
        readable = smallest >= goal
        if readable and strip_detail_fits(view, strips, (x, y + h - strip_h, w, strip_h)):
            return found
        if readable and first is None:
            first = found
        if smallest >= least:  # a tie goes to the shorter strip: the seats need the room more
            best, least = found, smallest
    chosen = first or best
    assert chosen is not None
    return chosen


def _strip_size(
    view: View, strips: list[Strip], room: int, extra: list[int], height: int
) -> tuple[int, list[int]]:
    """The size the strip's texts fit ``room`` at (from ``medium`` down to ``tiny``, and no
    taller than the strip's ``height``), each text with ``extra`` pixels beside it, and their
    widths with it."""
    c, lay = view.canvas, view.layout
    gap = lay.margin * 2
    size = lay.medium
    while size > lay.tiny and c.fonts.line_height(size, True) > height:
        size -= 1
    widths = [
        c.fonts.measure(s.text, size, True)[0] + more for s, more in zip(strips, extra, strict=True)
    ]
    while size > lay.tiny and sum(widths) + gap * (len(strips) - 1) > room:
        size -= 1
        widths = [
            c.fonts.measure(s.text, size, True)[0] + more
            for s, more in zip(strips, extra, strict=True)
        ]
    return size, widths


def draw_strip(view: View, strips: list[Strip], rect: Rect) -> None:
    """The strips' texts side by side, centred; each with its card's picture beside it where the
    pictures leave the texts as large as without them."""
    c, lay = view.canvas, view.layout
    x, y, w, h = rect
    c.box(rect, theme.PANEL)
    gap = lay.margin * 2
    size, widths = _strip_size(view, strips, w - 2 * lay.margin, [0] * len(strips), h)
    thumbs = [thumbnail(s.picture, s.landscape, h - lay.margin, w // 3) for s in strips]
    if any(thumbs):
        extra = [t[0] + lay.margin // 2 if t else 0 for t in thumbs]
        with_pictures, wider = _strip_size(view, strips, w - 2 * lay.margin, extra, h)
        if (
            with_pictures == size
            and sum(wider) + gap * (len(strips) - 1) <= w - 2 * lay.margin
            and (
                _detail_room(view, strips, rect, extra[0]) is not None
                or not _detail_room(view, strips, rect)
            )
        ):
            widths = wider
        else:
            thumbs = [None] * len(strips)
    tx = x + max(lay.margin, (w - sum(widths) - gap * (len(strips) - 1)) // 2)
    if len(strips) == 1 and strips[0].detail:
        tx = x + lay.margin  # the name on the left, what the plane does in the rest
    for strip, width, thumb in zip(strips, widths, thumbs, strict=True):
        image = cardtext.picture(strip.picture, thumb, landscape=strip.landscape) if thumb else None
        start = tx
        if thumb is not None and image is not None:
            c.picture(image, (tx, y + (h - thumb[1]) // 2), strip.picture, f"{strip.role}.picture")
            tx += thumb[0] + lay.margin // 2
        drawn = c.text(
            strip.text,
            (tx, y + h // 2),
            size,
            theme.WALK,
            anchor="midleft",
            bold=True,
            role=strip.role,
            max_width=x + w - tx - lay.margin,
            min_size=lay.tiny,
        )
        if strip.detail and len(strips) == 1:
            _strip_detail(
                view, strip, (drawn.right + gap, y, x + w - lay.margin - drawn.right - gap, h)
            )
        tx = start + width + gap
    goes = [s.go for s in strips if s.go]
    if goes:
        c.target(rect, Go(goes[0]))


def _detail_room(view: View, strips: list[Strip], rect: Rect, extra: int = 0) -> int | None:
    """The size a lone strip's detail (its plane's chaos ability) fits at right of its name
    (``extra`` pixels of picture beside the name), or None: no detail, or no room for it whole."""
    c, lay = view.canvas, view.layout
    if len(strips) != 1 or not strips[0].detail:
        return None
    _, _, w, h = rect
    _, (width,) = _strip_size(view, strips, w - 2 * lay.margin, [extra], h)
    room = w - 2 * lay.margin - min(width, w - 2 * lay.margin) - 2 * lay.margin
    if room <= 0:
        return None
    return c.fit_paragraph(
        strips[0].detail, room, h - lay.margin // 2, lay.small, min_size=lay.tiny
    )


def strip_detail_fits(view: View, strips: list[Strip], rect: Rect) -> bool:
    """The strip in ``rect`` says its plane's chaos ability whole (or has none to say)."""
    return (
        not (len(strips) == 1 and strips[0].detail) or _detail_room(view, strips, rect) is not None
    )


def _strip_detail(view: View, strip: Strip, rect: Rect) -> None:
    """A strip's detail (the plane's chaos ability) in the room right of its text, whole (at
    ``small`` down to ``tiny``) or not at all: a cut sentence of rules would mislead the table."""
    c, lay = view.canvas, view.layout
    x, y, w, h = rect
    if w <= 0:
        return
    size = c.fit_paragraph(strip.detail, w, h - lay.margin // 2, lay.small, min_size=lay.tiny)
    if size is None:
        return
    lines = c.wrapped(strip.detail, size, w) or []
    used = len(lines) * c.fonts.line_height(size)
    c.paragraph(
        strip.detail,
        (x, y + (h - used) // 2, w, used),
        size,
        theme.TEXT,
        role=f"{strip.role}.chaos",
        min_size=size,
    )


def played(state: GameState | None, ui: UiState, wall: float) -> float | None:
    """Seconds the game has been played (the header shows them on the table), to its last
    change once it is over; None without a game clock."""
    if state is None or state.clock is None:
        return None
    if outcome(state) is not None and ui.last_change_at is not None:
        wall = min(wall, ui.last_change_at)
    return state.clock.played(wall)


def played_deadline(state: GameState | None, ui: UiState, now: float, wall: float) -> float | None:
    """When the time played, shown to the minute, reaches its next minute, while the clock runs."""
    seconds = played(state, ui, wall)
    if (
        seconds is None
        or state is None
        or state.clock is None
        or state.clock.paused
        or outcome(state) is not None
    ):
        return None
    return now + (60.0 - seconds % 60.0)


def stand_in(screens: Iterable[Screen], state: GameState | None) -> Screen | None:
    """The screen that is the table in this game (``Screen.is_table``), if one is."""
    own = home(screens, state)
    return own if own is not None and own.is_table else None


class TableState(Struct, frozen=True):
    """What the table remembers: the turn whose upkeep banner was tapped away (-1: none)."""

    banner_hidden: int = -1


class Table(Screen):
    name = "table"
    button = "ui.btn.table"
    key = "t"
    shows_played = True  # the header says how long the game has been played, to the minute

    def deadline(self, view: View) -> float | None:
        """The end of a pending life change's pause, and the next minute of the time played while
        the clock runs: an idle table wakes once a minute for it (the turn timer's seconds are the
        kiosk's, on every screen)."""
        change = pending(view.ui)
        found = [
            change.due if change is not None else None,
            played_deadline(view.state, view.ui, view.now, view.wall),
        ]
        other = stand_in(view.screens.values(), view.state)
        if other is not None:
            found.append(other.deadline(view))
        return min((due for due in found if due is not None), default=None)

    def tick(self, host: Host) -> bool:
        """A deadline passed: a pending change whose pause has run out is made; the time played
        has its next minute while the clock runs (or the stand-in's own deadline came)."""
        other = stand_in(host.screens.values(), host.state)
        changed = other.tick(host) if other is not None else False
        change = pending(host.ui)
        if change is not None and host.now() >= change.due:
            commit(host)
            changed = True
        clock = host.state.clock if host.state is not None else None
        return changed or clock is not None and not clock.paused

    def upkeep_items(self, state: GameState, tr: Translator) -> list[str]:
        # The turn's structure, ahead of what the modules add, with what the counters ask of it.
        return [tr("ui.upkeep.untap"), *reminders(state, tr)]

    def draw(self, view: View) -> None:
        state, c, lay = view.state, view.canvas, view.layout
        area = (lay.margin, view.top, c.width - 2 * lay.margin, view.bottom - view.top)
        if state is None:
            c.text(
                view.tr("ui.no_game"),
                (c.width // 2, view.top + (view.bottom - view.top) // 3),
                lay.big,
                theme.TEXT,
                anchor="center",
                bold=True,
                max_width=c.width - 2 * lay.margin,
                role="nogame",
            )
            c.text(
                view.tr("ui.no_game_hint"),
                (c.width // 2, view.top + (view.bottom - view.top) * 2 // 3),
                lay.medium,
                theme.DIM,
                anchor="center",
                max_width=c.width - 2 * lay.margin,
                role="nogame.hint",
            )
            c.target(area, Go("setup"))
            return
        other = stand_in(view.screens.values(), state)
        if other is not None:
            other.draw(view)
            return
        banner = (
            state.step is Step.UPKEEP
            and view.ui.state_of(TableState).banner_hidden != state.turn
            and _in_progress(state)
        )
        strips = table_strips(view, state)
        layout = table_layout(view, state, area, banner, strips)
        cursor = view.ui.cursor
        turns = layout.turns or [0] * len(state.players)
        for player, rect, plan, turn in zip(
            state.players, layout.seats, layout.plans, turns, strict=True
        ):
            key = seat_key(view, state, player, rect, turn, cursor == player.seat, plan)
            if c.replay(key):  # a seat the press left alone: as the last frame drew it
                continue
            with c.part(key), c.turned(rect, turn, theme.BG) as own:
                draw_seat(view, state, player, own, cursor == player.seat, plan)
        shared = shared_turn(state, portrait(c))
        if layout.banner is not None and layout.fit is not None:
            with c.turned(layout.banner, shared, theme.BG) as own:
                draw_banner(view, state, own, layout.fit)
        if layout.strip is not None:
            with c.turned(layout.strip, shared, theme.BG) as own:
                draw_strip(view, strips, own)

    def follows(self, events: Sequence[Event]) -> bool:
        return any(isinstance(e, TurnPassed | GameStarted) for e in events)

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None:
            return False
        other = stand_in(host.screens.values(), state)
        if other is not None:
            return other.act(host, action)
        if self._changes_life(host, state, action):
            return True
        if (
            isinstance(action, Press)
            and action.button is Button.UNDO
            and pending(host.ui) is not None
        ):
            drop(host)  # what UNDO takes back is the change shown, not yet made
            return True
        if isinstance(action, Press) and action.button is Button.NEXT and action.long:
            host.go("adjust")  # the full adjustment, for hands on the GPIO buttons
            return True
        if isinstance(action, Go) and action.screen == "adjust":
            return False  # the adjust screen takes a pending change over (``before``)
        # Anything else happens after the pending change is made: NEXT passes the turn with it
        # made, as it would once the pause had run out.  A change that brought up a screen of
        # its own (a loss that asks who did it) stops the action there.
        if not commit(host):
            return True
        return self._moves(host, state, action)

    @staticmethod
    def _changes_life(host: Host, state: GameState, action: Action) -> bool:
        """The encoder on the highlighted seat (the cursor, else the active player's), or a touch
        on a seat's half: the seat's pending life change."""
        if isinstance(action, Turn):
            step(host, state.active if host.ui.cursor is None else host.ui.cursor, action.steps)
            return True
        if isinstance(action, LifeStep):
            # A held touch counts ``HELD``: its first step was counted when it touched.
            step(host, action.seat, action.sign * (HELD - 1 if action.held else 1))
            return True
        return False

    @staticmethod
    def _moves(host: Host, state: GameState, action: Action) -> bool:
        """The cursor (←/→, SELECT, a touch on a seat too small for its halves) and the upkeep
        banner tapped away."""
        count = len(state.players)
        if isinstance(action, PickSeat):
            host.ui.cursor = action.seat
            return True
        if isinstance(action, HideBanner):
            host.ui.put(replace(host.ui.state_of(TableState), banner_hidden=state.turn))
            return True
        if isinstance(action, Focus):
            start = state.active if host.ui.cursor is None else host.ui.cursor
            host.ui.cursor = (start + action.delta) % count
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            start = state.active if host.ui.cursor is None else host.ui.cursor
            host.ui.cursor = (start + 1) % count
            return True
        return False

    def before(self, host: Host, going: str | None) -> None:
        if going != "adjust":
            commit(host)


def reminders(state: GameState, tr: Translator) -> list[str]:
    """What the counters ask of the active player's turn, in its order: day or night changes in
    the untap step, the initiative ventures in the upkeep, rad counters mill at the main phase,
    the monarch draws at the end step (in Two-Headed Giant, for either player of the team)."""
    if state.counters is None:
        return []
    turn = team_of(state, state.active) if teamed(state) else (state.active,)
    marked = marking.marks(state, state.active)
    found: list[str] = []
    if marked.day_night is not None:
        found.append(tr(f"ui.counters.item.{marked.day_night.value}"))
    if marked.initiative in turn:
        found.append(tr("ui.counters.item.initiative"))
    for seat in turn:
        rad = state.counters.player(seat).rad
        if rad and state.player(seat).in_game:
            found.append(
                tr("ui.counters.item.rad_of", name=state.player(seat).name, n=rad)
                if teamed(state)
                else tr("ui.counters.item.rad", n=rad)
            )
    if marked.monarch in turn:
        found.append(tr("ui.counters.item.monarch"))
    return found


def _in_progress(state: GameState) -> bool:
    return len(state.in_game()) > 1
