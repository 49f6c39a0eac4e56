"""The table: every seat with life, poison and commander damage, who has lost and why, and the
upkeep banner at the start of each turn (SPEC TB-3, LF-1)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from device.events import Event, GameStarted, TurnPassed
from device.inputs import Button
from device.state import GameState, Player, Step
from display import theme, upkeep
from display.canvas import Rect
from display.screens import SCREENS, Host, Screen, View, screen
from display.ui import Action, Focus, Go, Press, Tap, Turn, UiState


def seat_rects(count: int, area: Rect, gap: int) -> list[Rect]:
    """Tiles around the table, clockwise: the top row left to right, the bottom row right to left."""
    x, y, w, h = area
    if count <= 0:
        return []
    cols = max(1, (count + 1) // 2)
    rows = 1 if count == 1 else 2
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


def loss_text(view: View, state: GameState, player: Player) -> str:
    assert player.lost is not None
    reason = view.tr(f"ui.lost.{player.lost.reason.value}")
    source = player.lost.source
    if source is not None and source != player.seat and player.lost.reason.value not in ("conceded",):
        return view.tr("ui.lost_by", reason=reason, name=state.player(source).name)
    return reason


def details(view: View, state: GameState, player: Player) -> list[str]:
    """The small line under a life total: poison, commander damage, skipped turns (non-zero only)."""
    parts: list[str] = []
    if player.poison:
        parts.append(view.tr("ui.poison", n=player.poison))
    for entry in sorted(player.commander_damage, key=lambda e: -e.amount):
        if entry.amount:
            owner = state.player(entry.source)
            name = owner.commanders[entry.commander] if entry.commander < len(owner.commanders) else owner.name
            parts.append(view.tr("ui.commander", n=entry.amount, name=name))
    if player.skip_turns:
        parts.append(view.tr("ui.skips", n=player.skip_turns))
    return parts


#: What a module adds under a seat's name (already in the table's language), e.g. Necromancer's
#: "minion of Alice · solo 1/3": ``fn(view, state, player) -> list[str]``, in import order.
SeatBadges = Callable[[View, GameState, Player], list[str]]
SEAT_BADGES: list[SeatBadges] = []


def seat_badges(fn: SeatBadges) -> SeatBadges:
    SEAT_BADGES.append(fn)
    return fn


def draw_seat(view: View, state: GameState, player: Player, rect: Rect, cursor: bool) -> None:
    c, lay = view.canvas, view.layout
    x, y, w, h = rect
    active = player.seat == state.active and player.in_game
    background = theme.LOST_BG if not player.in_game else theme.ACTIVE if active else theme.PANEL
    c.box(rect, background)
    if active:
        c.box(rect, theme.ACTIVE_EDGE, width=max(2, lay.line * 2))
    if cursor:
        c.box(rect, theme.CURSOR, width=max(2, lay.line * 2))
    pad = lay.margin
    name_color = theme.TEXT if player.in_game else theme.FAINT
    name_size = lay.medium
    c.text(player.name, (x + w // 2, y + pad // 2), name_size, name_color, anchor="midtop", bold=active,
           max_width=w - 2 * pad, role=f"seat{player.seat}.name")
    life_color = theme.TEXT if player.in_game else theme.FAINT
    name_h = view.canvas.fonts.line_height(name_size)
    badges = [b for fn in SEAT_BADGES for b in fn(view, state, player)]
    if badges:
        c.text(" · ".join(badges), (x + w // 2, y + pad // 2 + name_h), lay.small, theme.CURSOR, anchor="midtop",
               max_width=w - 2 * pad, role=f"seat{player.seat}.badges", min_size=lay.tiny)
        name_h += view.canvas.fonts.line_height(lay.small)
    lines = details(view, state, player)
    foot = view.canvas.fonts.line_height(lay.small) if (lines or not player.in_game) else 0
    life_size = min(lay.huge, max(lay.medium, (h - name_h - foot - pad) * 9 // 10))
    middle = y + pad // 2 + name_h + (h - name_h - foot - pad // 2) // 2
    c.text(str(player.life), (x + w // 2, middle), life_size, life_color, anchor="center", bold=True,
           max_width=w - 2 * pad, role=f"seat{player.seat}.life")
    if not player.in_game:
        c.text(loss_text(view, state, player), (x + w // 2, y + h - pad // 2), lay.small, theme.ERROR,
               anchor="midbottom", max_width=w - 2 * pad, role=f"seat{player.seat}.lost")
    elif lines:
        c.text(" · ".join(lines), (x + w // 2, y + h - pad // 2), lay.small, theme.WARN, anchor="midbottom",
               max_width=w - 2 * pad, role=f"seat{player.seat}.details")
    c.target(rect, Tap("seat", player.seat))


def draw_banner(view: View, state: GameState, area: Rect) -> None:
    """The upkeep banner: whose upkeep it is and what they must do now."""
    c, lay, tr = view.canvas, view.layout, view.tr
    x, y, w, h = area
    items = upkeep.items(state, tr)
    line_h = c.fonts.line_height(lay.medium)
    title_h = c.fonts.line_height(lay.big, True)
    needed = title_h + line_h * (len(items) + 1) + lay.margin * 3
    height = min(h, needed)
    rect = (x, y + (h - height) // 2, w, height)
    c.box(rect, theme.BANNER)
    c.box(rect, theme.ACTIVE_EDGE, width=max(2, lay.line))
    bx, by, bw, _ = rect
    name = state.player(state.active).name
    c.text(tr("ui.upkeep.title", name=name), (bx + bw // 2, by + lay.margin), lay.big, theme.TEXT, anchor="midtop",
           bold=True, max_width=bw - 2 * lay.margin, role="banner.title")
    ty = by + lay.margin + title_h
    for entry in items:
        c.text("• " + entry, (bx + 2 * lay.margin, ty), lay.medium, theme.TEXT, max_width=bw - 4 * lay.margin,
               role="banner.item")
        ty += line_h
    c.text(tr("ui.upkeep.next"), (bx + bw // 2, ty + lay.margin // 2), lay.medium, theme.ACTIVE_EDGE,
           anchor="midtop", bold=True, max_width=bw - 2 * lay.margin, role="banner.next")
    c.target(rect, Tap("banner"))


#: Base formats whose table is a screen of their own (Wizard's Duel counts magic points and dice,
#: not life): format name → that screen's name.  The table draws and acts through it.
STAND_INS: dict[str, str] = {}


def stand_in(state: GameState | None) -> Screen | None:
    if state is None or not state.formats or state.formats[0] not in STAND_INS:
        return None
    return SCREENS.get(STAND_INS[state.formats[0]])


@screen
class Table(Screen):
    name = "table"
    button = "ui.btn.table"
    key = "t"

    def form(self, ui: UiState) -> dict[str, int]:
        found: dict[str, int] = ui.forms.setdefault(self.name, {"banner_hidden": -1})
        return found

    def draw(self, view: View) -> None:
        state, c, lay = view.state, view.canvas, view.layout
        area = (lay.margin, view.top, c.width - 2 * lay.margin, view.bottom - view.top)
        if state is None:
            c.text(view.tr("ui.no_game"), (c.width // 2, view.top + (view.bottom - view.top) // 3), lay.big, theme.TEXT,
                   anchor="center", bold=True, max_width=c.width - 2 * lay.margin, role="nogame")
            c.text(view.tr("ui.no_game_hint"), (c.width // 2, view.top + (view.bottom - view.top) * 2 // 3), lay.medium,
                   theme.DIM, anchor="center", max_width=c.width - 2 * lay.margin, role="nogame.hint")
            c.target(area, Go("setup"))
            return
        other = stand_in(state)
        if other is not None:
            other.draw(view)
            return
        cursor = view.ui.cursor
        for player, rect in zip(state.players, seat_rects(len(state.players), area, lay.margin), strict=True):
            draw_seat(view, state, player, rect, cursor == player.seat)
        if state.step is Step.UPKEEP and self.form(view.ui)["banner_hidden"] != state.turn and _in_progress(state):
            inset = lay.margin * 3
            draw_banner(view, state, (area[0] + inset, area[1] + lay.margin, area[2] - 2 * inset, area[3] - 2 * lay.margin))

    def follows(self, events: Sequence[Event]) -> bool:
        return any(isinstance(e, TurnPassed | GameStarted) for e in events)

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None:
            return False
        other = stand_in(state)
        if other is not None:
            return other.act(host, action)
        count = len(state.players)
        if isinstance(action, Tap) and action.kind == "banner":
            self.form(host.ui)["banner_hidden"] = state.turn
            return True
        if isinstance(action, Tap) and action.kind == "seat":
            host.ui.cursor = int(action.value)
            host.go("adjust")
            return True
        if isinstance(action, Focus):
            start = state.active if host.ui.cursor is None else host.ui.cursor
            host.ui.cursor = (start + action.delta) % count
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            start = state.active if host.ui.cursor is None else host.ui.cursor
            host.ui.cursor = (start + 1) % count
            return True
        if isinstance(action, Turn):
            # Turning the encoder on the table starts adjusting the highlighted seat's life.
            host.go("adjust")
            from display.screens import SCREENS

            return SCREENS["adjust"].act(host, action)
        return False


def _in_progress(state: GameState) -> bool:
    return len(state.in_game()) > 1
