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
from typing import Any

from device.controller import Result
from device.events import Event
from device.inputs import Button
from device.rules.necromancer import Blame, LossReattributed, LossSettled, SoloTurn
from device.state import GameState, Player
from device.state_necromancer import SOLO_TURNS, Fate, NecromancerState, Phase
from display import theme, upkeep
from display.canvas import Rect
from display.i18n import Translator
from display.i18n import necromancer as _texts  # noqa: F401 - registers the screen's texts
from display.screens import Host, Screen, View, chip_step, screen
from display.screens.table import seat_badges
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


@seat_badges
def _seat_badges(view: View, state: GameState, player: Player) -> list[str]:
    if state.necromancer is None:
        return []
    return standing(view.tr, state, player.seat)


@upkeep.item
def _solo_upkeep(state: GameState, tr: Translator) -> list[str]:
    """NC-3: the minions playing solo turns apart from the game, each a reminder."""
    necro = state.necromancer
    if necro is None:
        return []
    return [
        tr("ui.necro.upkeep_solo", name=state.player(r.seat).name, number=r.solo_done + 1, total=SOLO_TURNS)
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


@screen
class Necromancer(Screen):
    name = NAME
    button = "ui.btn.necro"
    key = "m"

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.necromancer is not None

    def form(self, ui: Any) -> dict[str, Any]:
        found: dict[str, Any] = ui.forms.setdefault(self.name, {"ask": None, "pick": 0, "cursor": 0})
        return found

    # -- the question after a loss (NC-1) --------------------------------------------------

    def asking(self, state: GameState | None, form: dict[str, Any]) -> int | None:
        """The seat whose loss the screen asks about, while the rules still let it change."""
        seat = form.get("ask")
        if state is None or state.necromancer is None or seat is None:
            return None
        death = state.necromancer.last_death
        if death is None or death.seat != seat or state.necromancer.seat(seat).solo_done > 0:
            return None
        return int(seat)

    def follows(self, events: Sequence[Event]) -> bool:
        return any(isinstance(e, LossSettled) and e.fate is not Fate.CONCEDED for e in events)

    def after(self, host: Host, result: Result) -> None:
        form = self.form(host.ui)
        if any(isinstance(e, LossReattributed) for e in result.events):
            form["ask"] = None  # answered
            return
        settled = [e for e in result.events if isinstance(e, LossSettled) and e.fate is not Fate.CONCEDED]
        if settled and host.state is not None:
            latest = settled[-1]
            form["ask"] = latest.seat
            options = answers(host.state, latest.seat)
            form["pick"] = options.index(latest.responsible) if latest.responsible in options else len(options) - 1

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None or state.necromancer is None:
            return False
        form = self.form(host.ui)
        seat = self.asking(state, form)
        if seat is not None:
            return self._answer(host, state, form, seat, action)
        return self._solo(host, state, form, action)

    def _answer(self, host: Host, state: GameState, form: dict[str, Any], seat: int, action: Action) -> bool:
        options = answers(state, seat)
        pick = int(form.get("pick", 0)) % len(options)
        step = chip_step(action)
        if step is not None:
            form["pick"] = (pick + step) % len(options)
            return True
        chosen: int | None
        if isinstance(action, Tap) and action.kind == "necro.blame":
            chosen = None if action.value is None else int(action.value)
        elif isinstance(action, Press) and action.button in (Button.SELECT, Button.NEXT) and not action.long:
            chosen = options[pick]
        else:
            return False
        death = state.necromancer.last_death if state.necromancer is not None else None
        if death is not None and death.responsible == chosen:
            form["ask"] = None  # confirmed as recorded: nothing to settle again
            return True
        host.execute(Blame(seat=seat, responsible=chosen))
        return True

    def _solo(self, host: Host, state: GameState, form: dict[str, Any], action: Action) -> bool:
        assert state.necromancer is not None
        seats = soloing(state.necromancer)
        if isinstance(action, Tap) and action.kind == "necro.solo":
            host.execute(SoloTurn(seat=int(action.value)))
            return True
        if not seats:
            return False
        cursor = int(form.get("cursor", 0)) % len(seats)
        step = chip_step(action)
        if step is not None:
            form["cursor"] = (cursor + step) % len(seats)
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
        form = view.ui.forms.get(self.name, {})
        seat = self.asking(state, form) if isinstance(form, dict) else None
        if seat is not None:
            self._draw_question(view, state, seat, int(form.get("pick", 0)), area)
        else:
            self._draw_list(view, state, int(form.get("cursor", 0)) if isinstance(form, dict) else 0, area)

    def _draw_question(self, view: View, state: GameState, seat: int, pick: int, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        title = c.text(tr("ui.necro.ask", name=state.player(seat).name), (x + w // 2, y), lay.big, theme.CURSOR,
                       anchor="midtop", bold=True, max_width=w, role="necro.ask", min_size=lay.small)
        hint_h = c.fonts.line_height(lay.small)
        c.text(tr("ui.necro.ask_hint"), (x + w // 2, y + h), lay.small, theme.DIM, anchor="midbottom", max_width=w,
               role="necro.ask.hint", min_size=lay.tiny)
        options = answers(state, seat)
        pick %= len(options)
        top = title.bottom + lay.margin // 2
        room = y + h - hint_h - lay.margin // 2 - top
        one = c.fonts.line_height(lay.medium) + lay.margin
        cols = 1 if len(options) * one <= room else 2
        rows = (len(options) + cols - 1) // cols
        gap = max(2, lay.margin // 2)
        each_h = min(one, room // rows)
        each_w = (w - gap * (cols - 1)) // cols
        for index, answer in enumerate(options):
            col, row = index // rows, index % rows
            rect = (x + col * (each_w + gap), top + row * each_h, each_w, each_h - gap)
            selected = index == pick
            c.box(rect, theme.BUTTON_HI if selected else theme.BUTTON)
            if selected:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            label = tr("ui.necro.nobody") if answer is None else state.player(answer).name
            c.text(label, (rect[0] + rect[2] // 2, rect[1] + rect[3] // 2), lay.medium, theme.TEXT, anchor="center",
                   bold=selected, max_width=rect[2] - 2 * lay.margin, role="necro.answer", min_size=lay.tiny)
            c.target(rect, Tap("necro.blame", answer))

    def _draw_list(self, view: View, state: GameState, cursor: int, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        necro = state.necromancer
        assert necro is not None
        x, y, w, h = area
        title = c.text(tr("ui.necro.title"), (x, y), lay.medium, theme.CURSOR, bold=True, max_width=w,
                       role="necro.title")
        seats = soloing(necro)
        chosen = seats[cursor % len(seats)] if seats else None
        hint_h = c.fonts.line_height(lay.small) if chosen is not None else 0
        if chosen is not None:
            c.text(tr("ui.necro.solo_hint", name=state.player(chosen).name), (x + w // 2, y + h), lay.small, theme.DIM,
                   anchor="midbottom", max_width=w, role="necro.solo.hint", min_size=lay.tiny)
        top = title.bottom + lay.margin // 2
        count = len(state.players)
        gap = max(2, lay.margin // 2)
        each = (y + h - hint_h - gap - top) // count
        name_w = w // 4
        size = lay.medium if each >= c.fonts.line_height(lay.medium) * 2 else lay.small
        for player in state.players:
            record = necro.seat(player.seat)
            rect = (x, top + player.seat * each, w, each - gap)
            solo = record.phase is Phase.SOLO
            c.box(rect, theme.LOST_BG if record.out else theme.ACTIVE if solo else theme.PANEL)
            if player.seat == chosen:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            middle = rect[1] + rect[3] // 2
            color = theme.FAINT if record.out else theme.TEXT
            c.text(player.name, (x + lay.margin, middle), size, color, anchor="midleft", bold=True,
                   max_width=name_w - lay.margin, role="necro.name", min_size=lay.tiny)
            parts = standing(tr, state, player.seat)
            if record.deaths == 0 and not record.out:
                parts.insert(0, tr("ui.necro.never_died"))
            elif not record.minion and not record.out:
                parts.insert(0, tr("ui.necro.full"))
            minions = [state.player(r.seat).name for r in necro.seats if r.master == player.seat]
            if minions:
                parts.append(tr("ui.necro.minions", names=", ".join(minions)))
            c.text(" · ".join(parts), (x + name_w, middle), lay.small, theme.FAINT if record.out else theme.WARN if
                   record.minion else theme.TEXT, anchor="midleft", max_width=w - name_w - lay.margin,
                   role=f"necro.row{player.seat}", min_size=lay.tiny)
            if solo:
                c.target(rect, Tap("necro.solo", player.seat))
