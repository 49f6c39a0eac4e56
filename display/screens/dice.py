"""Dice and coin, in any game: a d6, 2d6, a d20, a coin and a random player, thrown from a column
of chips, with the last throw large and the ones before it under it.

↑/↓ (the encoder) or ←/→ move between the chips; SELECT or ROLL (or a touch on a chip) throws.
The screen is key D, the DICE button, or ROLL held down (Shift+Space) from any screen; holding
ROLL on it goes back to the table.  The throws are the rules' (``device.rules.dice``): saved,
undone with UNDO, in the log.

The result is drawn in the first frame after the throw; the short tumble around it (the dice
turning, the coin spinning, the name's frame flickering) is decoration with a deadline, as the
planar die's is, and never delays it.

A game whose starting player the gadget drew (TB-5) opens on this screen for ``REVEAL`` seconds
with the draw large, then goes on to the table; any button or turn goes on at once (a button
then does what it does on the table), a touch on the draw too.  A Conspiracy pod's draw that
matters is its groups', which its own screen shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from msgspec import Struct
from msgspec.structs import replace

from device.commands import Command
from device.controller import Result
from device.events import Event, GameStarted
from device.inputs import Button
from device.rules.dice import THROWN, FlipCoin, PickPlayer, RollDice, describe_throw
from device.rules.teams import team_name, teamed
from device.state import GameState
from device.state_dice import Throw, ThrowKind
from display import symbols, theme
from display.canvas import Anchor, Rect
from display.chips import Chip, block, chip_grid, wrap_fit
from display.i18n import Translator
from display.screens import Host, Screen, View, chip_step
from display.ui import Action, Go, Press, Tap

NAME = "dice"
TUMBLE = 0.6  # seconds of animation after a throw
REVEAL = 4.0  # seconds the drawn starting player shows before the table
COIN = (214, 178, 72)
COIN_EDGE = (150, 118, 40)
COIN_TEXT = (40, 30, 8)


class DiceChip(Tap, frozen=True):
    """One of the choices' chips: that throw."""

    index: int


class DiceScroll(Tap, frozen=True):
    """A scroll marker beside the chips: the next hidden choice (``index``)."""

    index: int


class DiceReveal(Tap, frozen=True):
    """The draw shown over the screen: seen (the table comes up)."""


class Choice(Struct, frozen=True):
    """A chip: its words' key and what throwing it asks the rules for."""

    key: str
    command: Command
    params: tuple[tuple[str, int], ...] = ()

    def label(self, tr: Translator) -> str:
        return tr(self.key, **dict(self.params))


CHOICES: tuple[Choice, ...] = (
    Choice("ui.dice.die", RollDice(count=1, sides=6), (("sides", 6),)),
    Choice("ui.dice.dice", RollDice(count=2, sides=6), (("count", 2), ("sides", 6))),
    Choice("ui.dice.die", RollDice(count=1, sides=20), (("sides", 20),)),
    Choice("ui.dice.coin", FlipCoin()),
    Choice("ui.dice.player", PickPlayer()),
)


class DiceForm(Struct, frozen=True):
    """What the dice screen remembers: the chip the cursor is on, the tumble of the last throw
    (monotonic seconds), and until when a drawn starting player is shown before the table."""

    pick: int = 0
    started: float = 0.0
    until: float = 0.0
    reveal: float | None = None

    def tumbling(self, now: float) -> float | None:
        """How far the tumble is (0 to 1), or None when it is over."""
        if self.until <= self.started or now >= self.until:
            return None
        return max(0.0, (now - self.started) / (self.until - self.started))


def _drew_first(state: GameState | None, events: Sequence[Event]) -> bool:
    """The game just started with a starting player the gadget drew (TB-5), outside a Conspiracy
    pod (whose groups are its draw)."""
    drawn = any(isinstance(e, GameStarted) and e.starting_player_random for e in events)
    return drawn and state is not None and state.conspiracy is None


class Dice(Screen):
    name = NAME
    button = "ui.btn.dice"
    key = "d"
    held = Button.ROLL

    def available(self, state: GameState | None) -> bool:
        return state is not None

    def follows(self, events: Sequence[Event]) -> bool:
        return any(isinstance(e, THROWN) for e in events)

    def enter(self, host: Host) -> None:
        """A draw shown before and left another way (a card tapped brought up its screen) is not
        shown again."""
        form = host.ui.kept(DiceForm)
        if form is not None and form.reveal is not None:
            host.ui.put(replace(form, reveal=None))

    def after(self, host: Host, result: Result) -> None:
        """A throw starts the tumble; a drawn starting player is shown here first (the table
        has come up for the new game: this screen takes its place for ``REVEAL`` seconds)."""
        drew = _drew_first(host.state, result.events)
        if not drew and not any(isinstance(e, THROWN) for e in result.events):
            return
        if drew:
            host.go(NAME)
        now = host.now()
        form = host.ui.state_of(DiceForm)
        host.ui.put(
            replace(
                form,
                pick=0 if drew else form.pick,
                started=now,
                until=now + TUMBLE,
                reveal=now + REVEAL if drew else None,
            )
        )

    def deadline(self, view: View) -> float | None:
        form = view.ui.state_of(DiceForm)
        found: list[float] = []
        if form.tumbling(view.now) is not None:
            # Frames on a fixed grid from the throw, so a late wake-up never shifts the rest.
            fps = max(1, view.ui.fps)
            frame = math.floor((view.now - form.started) * fps + 1e-9) + 1
            found.append(min(form.started + frame / fps, form.until))
        if form.reveal is not None:
            found.append(form.reveal)
        return min(found) if found else None

    def tick(self, host: Host) -> bool:
        form = host.ui.state_of(DiceForm)
        now = host.now()
        if form.reveal is not None and now >= form.reveal:
            host.ui.put(replace(form, reveal=None))
            host.go("table")
            return True
        return form.until > form.started and now <= form.until + 1.0 / max(1, host.ui.fps)

    # -- acting ---------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        if host.state is None:
            return False
        form = host.ui.state_of(DiceForm)
        if form.reveal is not None and not (isinstance(action, DiceChip)):
            return self._leave_reveal(host, form, action)
        step = chip_step(action)
        if step is not None:
            host.ui.put(replace(form, pick=(form.pick + step) % len(CHOICES)))
            return True
        if isinstance(action, DiceScroll):
            host.ui.put(replace(form, pick=action.index % len(CHOICES)))
            return True
        if isinstance(action, DiceChip):
            index = action.index % len(CHOICES)
            host.ui.put(replace(form, pick=index, reveal=None))
            host.execute(CHOICES[index].command)
            return True
        if (
            isinstance(action, Press)
            and not action.long
            and action.button in (Button.SELECT, Button.ROLL)
        ):
            host.execute(CHOICES[form.pick % len(CHOICES)].command)
            return True
        return False

    @staticmethod
    def _leave_reveal(host: Host, form: DiceForm, action: Action) -> bool:
        """The draw was seen: the table comes up; a button then does what it does there (the
        first ROLL of a Wizard's Duel rolls its dice), a turn or a touch only goes on, and a
        screen asked for (a key, a bar button) comes up instead."""
        host.ui.put(replace(form, reveal=None))
        if isinstance(action, Go):
            return False
        host.go("table")
        return not isinstance(action, Press)

    # -- drawing --------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None
        c, lay, tr = view.canvas, view.layout, view.tr
        form = view.ui.state_of(DiceForm)
        x, top, w, h = (
            lay.margin,
            view.top + lay.margin // 2,
            c.width - 2 * lay.margin,
            view.bottom - view.top - lay.margin,
        )
        labels = [choice.label(tr) for choice in CHOICES]
        side = _column_width(view, labels, w)
        panel: Rect = (x, top, w - side - lay.margin, h)
        column: Rect = (x + w - side, top, side, h)
        self._draw_chips(view, form, labels, column)
        c.box(panel, theme.PANEL)
        if form.reveal is not None:
            c.target(panel, DiceReveal())
        last = state.dice.last if state.dice is not None else None
        pad = lay.margin
        inner: Rect = (panel[0] + pad, panel[1] + pad, panel[2] - 2 * pad, panel[3] - 2 * pad)
        if last is None:
            text = tr("ui.dice.none")
            size = c.fit_paragraph(text, inner[2], inner[3], lay.medium) or lay.tiny
            lines = len(c.wrap(text, size, inner[2]))
            drop = max(0, (inner[3] - lines * c.fonts.line_height(size)) // 2)
            c.paragraph(
                text,
                (inner[0], inner[1] + drop, inner[2], inner[3] - drop),
                size,
                theme.DIM,
                role="dice.none",
                min_size=size,
                align="center",
            )
            return
        used = self._draw_last(view, state, last, form, inner)
        self._draw_history(view, state, (inner[0], inner[1] + used, inner[2], inner[3] - used))

    def _draw_chips(self, view: View, form: DiceForm, labels: list[str], column: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = column
        hint = tr("ui.dice.hint")
        fitted = wrap_fit(view, hint, w, lay.tiny)
        gap = max(2, lay.margin // 2)
        chips_h = len(CHOICES) * (lay.touch + gap) - gap
        hint_h = len(fitted[1]) * c.fonts.line_height(fitted[0]) + lay.margin // 2 if fitted else 0
        room = h - hint_h if fitted and chips_h + hint_h <= h else h
        chips = [Chip(label, DiceChip(index)) for index, label in enumerate(labels)]
        chip_grid(
            view,
            (x, y, w, room),
            chips,
            form.pick % len(CHOICES),
            "dice.chip",
            DiceScroll,
            columns=(1, 2),
            align="center",
            largest=lay.medium,
        )
        if fitted and room < h:
            block(
                view,
                hint,
                (x, y + h - hint_h + lay.margin // 2),
                w,
                fitted,
                theme.DIM,
                "dice.hint",
                align="center",
            )

    def _draw_last(
        self, view: View, state: GameState, last: Throw, form: DiceForm, area: Rect
    ) -> int:
        """The last throw, large: what it was (and who threw), then its result; returns the
        height used, the rest is for the throws before it."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        caption = _caption(tr, state, last)
        size = max(lay.tiny, min(lay.medium, _widest(view, caption, w, lay.medium, bold=True)))
        head = c.text(
            caption,
            (x, y),
            size,
            theme.DIM,
            bold=True,
            max_width=w,
            role="dice.caption",
            min_size=lay.tiny,
        )
        y0 = head.bottom + lay.margin // 2
        # The result takes what a history of two lines leaves (all of it on a small panel).
        line = c.fonts.line_height(lay.small)
        keep = 3 * line if h - (y0 - y) > 9 * line else 0
        room = h - (y0 - y) - keep
        progress = form.tumbling(view.now)
        result: Rect = (x, y0, w, room)
        if last.kind is ThrowKind.DICE:
            _draw_dice(view, last, result, progress)
        elif last.kind is ThrowKind.COIN:
            _draw_coin(view, last, result, progress)
        else:
            _draw_player(view, state, last, result, progress)
        return (y0 - y) + room

    def _draw_history(self, view: View, state: GameState, area: Rect) -> None:
        """The throws before the last, newest first, as many as fit."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        dice = state.dice
        if dice is None:
            return
        earlier = list(reversed(dice.throws[:-1]))
        line = c.fonts.line_height(lay.small)
        rows = h // line - 1
        if rows < 1 or not earlier:
            return
        c.text(
            tr("ui.dice.history"),
            (x, y),
            lay.small,
            theme.DIM,
            bold=True,
            max_width=w,
            role="dice.history.title",
            min_size=lay.tiny,
        )
        for index, throw in enumerate(earlier[:rows]):
            text = tr("ui.dice.line", n=throw.number, text=tr.message(describe_throw(state, throw)))
            c.text(
                text,
                (x, y + (index + 1) * line),
                lay.small,
                theme.TEXT,
                max_width=w,
                role="dice.history",
                min_size=lay.tiny,
            )


def _column_width(view: View, labels: list[str], width: int) -> int:
    """How wide the chips' column is: its longest label on one line at ``medium``, between three
    and four tenths of ``width``; wider (up to nine twentieths) where a word would not fit a chip
    of two columns at ``tiny`` (a long "random player" on a small panel)."""
    c, lay = view.canvas, view.layout
    widest = max(c.fonts.measure(label, lay.medium, True)[0] for label in labels) + 3 * lay.margin
    side = min(max(widest, width * 3 // 10), width * 2 // 5)
    word = max(
        c.fonts.measure(part, lay.tiny, True)[0] for label in labels for part in label.split()
    )
    two = 2 * (word + lay.margin + 2) + max(2, lay.margin // 2)
    return max(side, min(two, width * 9 // 20))


def _caption(tr: Translator, state: GameState, throw: Throw) -> str:
    """What the throw was, and who threw: "2d6", "Ala rolled d20", "Coin", "Goes first"."""
    if throw.kind is ThrowKind.DICE:
        what = (
            tr("ui.dice.die", sides=throw.sides)
            if len(throw.faces) == 1
            else tr("ui.dice.dice", count=len(throw.faces), sides=throw.sides)
        )
        if throw.seat is None:
            return what
        return tr("ui.dice.rolled_by", name=state.player(throw.seat).name, dice=what)
    if throw.kind is ThrowKind.COIN:
        if throw.seat is None:
            return tr("ui.dice.coin")
        return tr("ui.dice.flipped_by", name=state.player(throw.seat).name)
    if throw.first:
        return tr("ui.dice.first_team" if teamed(state) else "ui.dice.first")
    return tr("ui.dice.picked")


def _widest(view: View, text: str, width: int, size: int, *, bold: bool = False) -> int:
    """The largest size up to ``size`` at which ``text`` fits ``width`` on one line."""
    fonts = view.canvas.fonts
    while size > 1 and fonts.measure(text, size, bold)[0] > width:
        size -= 1
    return size


def _wobble(progress: float | None, index: int = 0) -> float:
    """The tumble's turn in degrees: a swing from upright that dies down (each die of a throw
    at its own pace), none once it is over."""
    if progress is None:
        return 0.0
    return math.sin(progress * math.pi * (3 + 0.7 * index)) * 28 * (1 - progress)


def _draw_dice(view: View, throw: Throw, area: Rect, progress: float | None) -> None:
    """Each die with its face (a d6's pips, another die's number), and their total under them."""
    c, lay = view.canvas, view.layout
    x, y, w, h = area
    count = len(throw.faces)
    per_row = min(count, 5)
    rows = -(-count // per_row)
    # The total as large as leaves the dice half the room (else at ``big``).
    total_size = lay.huge if h - c.fonts.line_height(lay.huge, True) >= h // 2 else lay.big
    total_h = c.fonts.line_height(total_size, True) if count > 1 else 0
    gap = lay.margin * 2
    size = max(
        8,
        min(
            (w - gap * (per_row - 1)) // per_row,
            (h - total_h - gap * rows) // rows,
            h * (3 if count > 1 else 4) // 5,
        ),
    )
    block_w = per_row * size + (per_row - 1) * gap
    block_h = rows * size + (rows - 1) * gap + (gap + total_h if total_h else 0)
    left, top = x + (w - block_w) // 2, y + max(0, (h - block_h) // 2)
    for index, face in enumerate(throw.faces):
        row, col = divmod(index, per_row)
        center = (left + col * (size + gap) + size / 2, top + row * (size + gap) + size / 2)
        angle = _wobble(progress, index)
        if throw.sides == 6:
            symbols.die(c, center, size, theme.PANEL_HI, angle, edge=theme.CURSOR)
            symbols.pips(c, center, size * 0.8, face, theme.TEXT, angle)
        else:
            _polyhedron(view, center, size, angle)
            number = str(face)
            number_size = _widest(
                view, number, int(size * 0.62), max(lay.tiny, int(size * 0.45)), bold=True
            )
            c.text(
                number,
                (round(center[0]), round(center[1])),
                max(lay.tiny, number_size),
                theme.TEXT,
                anchor="center",
                bold=True,
                role="dice.face",
                min_size=lay.tiny,
            )
    if total_h:
        text = view.tr("ui.dice.total", total=throw.total)
        ty = top + rows * (size + gap)
        fit = max(lay.tiny, _widest(view, text, w, total_size, bold=True))
        c.text(
            text,
            (x + w // 2, ty),
            fit,
            theme.CURSOR,
            anchor="midtop",
            bold=True,
            role="dice.total",
            min_size=lay.tiny,
        )


def _polyhedron(view: View, center: tuple[float, float], size: float, angle: float) -> None:
    """A die with more faces than six, seen from above: a hexagon with its top face marked."""
    c = view.canvas
    radius = size / 2
    points = [
        (
            center[0] + radius * math.cos(math.radians(60 * k + 30 + angle)),
            center[1] + radius * math.sin(math.radians(60 * k + 30 + angle)),
        )
        for k in range(6)
    ]
    c.polygon(points, theme.PANEL_HI)
    c.polygon(points, theme.CURSOR, max(1, round(size * 0.04)))
    inner = [
        (
            center[0] + radius * 0.62 * math.cos(math.radians(120 * k - 90 + angle)),
            center[1] + radius * 0.62 * math.sin(math.radians(120 * k - 90 + angle)),
        )
        for k in range(3)
    ]
    c.polygon(inner, theme.FAINT, max(1, round(size * 0.025)))


def _draw_coin(view: View, throw: Throw, area: Rect, progress: float | None) -> None:
    """The coin, spinning while it tumbles, and its side in large words beside it (or under it)."""
    c, lay, tr = view.canvas, view.layout, view.tr
    x, y, w, h = area
    word = tr("ui.dice.heads" if throw.heads else "ui.dice.tails")
    diameter = max(8, min(h * 4 // 5, w * 2 // 5))
    word_size = _widest(view, word, w - diameter - 2 * lay.margin, lay.huge, bold=True)
    beside = (
        word_size >= lay.big
        or word_size >= lay.medium
        and h < 3 * c.fonts.line_height(lay.big, True)
    )
    if not beside:
        diameter = max(8, min(diameter, h - c.fonts.line_height(lay.big, True) - lay.margin))
        word_size = _widest(view, word, w, lay.huge, bold=True)
    word_size = max(lay.tiny, word_size)
    word_w = c.fonts.measure(word, word_size, True)[0]
    anchor: Anchor
    if beside:
        left = x + max(0, (w - diameter - 2 * lay.margin - word_w) // 2)
        center = (left + diameter / 2, y + h / 2)
        at, anchor = (round(left + diameter + 2 * lay.margin), round(y + h / 2)), "midleft"
    else:
        block_h = diameter + lay.margin + c.fonts.line_height(word_size, True)
        center = (x + w / 2, y + max(0, (h - block_h) // 2) + diameter / 2)
        at, anchor = (x + w // 2, round(center[1] + diameter / 2 + lay.margin)), "midtop"
    squash = 1.0 if progress is None else max(0.12, abs(math.cos(progress * math.pi * 3)))
    radius = diameter / 2
    ring = [
        (
            center[0] + radius * squash * math.cos(math.radians(a)),
            center[1] + radius * math.sin(math.radians(a)),
        )
        for a in range(0, 360, 10)
    ]
    c.polygon(ring, COIN)
    c.polygon(ring, COIN_EDGE, max(1, round(diameter * 0.05)))
    inner = [
        (
            center[0] + radius * 0.68 * squash * math.cos(math.radians(a)),
            center[1] + radius * 0.68 * math.sin(math.radians(a)),
        )
        for a in range(0, 360, 10)
    ]
    c.polygon(inner, COIN_EDGE, max(1, round(diameter * 0.025)))
    if throw.heads:
        symbols.crown(c, center, radius * 0.8 * squash, COIN_TEXT)
    c.text(
        word,
        at,
        word_size,
        theme.CURSOR,
        anchor=anchor,
        bold=True,
        role="dice.coin",
        min_size=lay.tiny,
    )


def _draw_player(
    view: View, state: GameState, throw: Throw, area: Rect, progress: float | None
) -> None:
    """The player picked (a drawn first player's team in Two-Headed Giant), as large as fits, in
    a frame that flickers while it tumbles."""
    c, lay = view.canvas, view.layout
    x, y, w, h = area
    seat = throw.picked if throw.picked is not None else state.starting_player
    name = team_name(state, seat) if throw.first and teamed(state) else state.player(seat).name
    pad = lay.margin * 2
    size = max(
        lay.tiny,
        min(_widest(view, name, w - 2 * pad, lay.huge, bold=True), max(lay.tiny, h - 2 * pad)),
    )
    line = c.fonts.line_height(size, True)
    box_h = min(h, line + 2 * pad)
    box: Rect = (x, y + (h - box_h) // 2, w, box_h)
    c.box(box, theme.PANEL_HI)
    flicker = progress is not None and int(progress * 9) % 2 == 1
    c.box(
        box, theme.TEXT if flicker else theme.CURSOR, width=max(2, lay.line * (3 if flicker else 2))
    )
    c.text(
        name,
        (x + w // 2, box[1] + box_h // 2),
        size,
        theme.CURSOR,
        anchor="center",
        bold=True,
        max_width=w - 2 * pad,
        role="dice.player",
        min_size=lay.tiny,
    )
