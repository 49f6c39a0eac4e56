"""Planechase: the face-up plane(s) large, the planar die, the next roll's cost and the odds,
the roll log and the planes visited (PC-2, PC-3, PC-7, PC-12, PC-13).

The die's result is drawn in the first frame after the roll; the short tumble around it is
decoration with a deadline (``TUMBLE`` seconds at the configured frame rate) and never delays
it.  A phenomenon being encountered, a pending choice (Interplanar Tunnel, Stairs to Infinity,
Pools of Becoming, an Eternities Map direction) and a physical card the gadget waits for take
the place of the planes until they are dealt with: ↑/↓ or ←/→ pick, SELECT/NEXT confirm.
Elsewhere ↑/↓ change the counters on the face-up plane.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from device.catalog import load_catalog
from device.controller import Result
from device.events import Event
from device.inputs import Button
from device.rules.planechase import (
    ChangePlaneCounters,
    ChoosePlanar,
    PlanarCardAwaited,
    PlanarChoiceOffered,
    PlanarCardsRevealed,
    PlanarDieRolled,
    PlaneTurnedOver,
    Planeswalked,
    chance_to_planeswalk,
    choice_prompt,
    cost_of_rolls,
    deck_label,
    next_roll_cost,
    odds,
    pip_label,
    planar_controller,
)
from device.state import GameState, Step
from device.state_planechase import ChoiceKind, DieFace, FaceUpCard, PlanarKind, PlanechaseState
from device.text import Message
from display import cardtext, theme, upkeep
from display.canvas import Canvas, Rect
from display.i18n import Translator
from display.i18n import planechase as _texts  # noqa: F401 - registers the Planechase texts
from display.screens import Host, Screen, View, chip_step, screen
from display.ui import Action, DieRoll, Focus, Press, Tap, Turn

TUMBLE = 0.6  # seconds of die animation after a roll
LOOKAHEAD = 3  # PC-13: "k rolls" line


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)


def choice_options(state: GameState) -> list[str]:
    """The answers the pending choice accepts, one per chip."""
    pc = state.planechase
    if pc is None or pc.choice is None:
        return []
    choice = pc.choice
    if choice.kind is ChoiceKind.STAIRS:
        return ["top", "bottom"]
    if choice.kind is ChoiceKind.DIRECTION:
        from device.rules.eternities import directions

        return directions(state)
    if choice.kind is ChoiceKind.TUNNEL:
        return [c.name for c in choice.cards if c.kind is PlanarKind.PLANE]
    return [c.name for c in choice.cards]


def type_line(tr: Translator, card: FaceUpCard) -> str:
    if card.kind is PlanarKind.PHENOMENON:
        return tr("ui.pc.phenomenon")
    found = load_catalog().get(card.name)
    world = found.planar_type if found is not None and found.planar_type else ""
    return f"{tr('ui.pc.plane')} — {world}" if world else tr("ui.pc.plane")


@upkeep.item
def _planechase_upkeep(state: GameState, tr: Translator) -> list[str]:
    pc = state.planechase
    if pc is None:
        return []
    items: list[str] = []
    planes = [c.name for c in pc.face_up if c.kind is PlanarKind.PLANE]
    if planes:
        items.append(tr("ui.pc.upkeep", plane=", ".join(planes)))
    if pc.chaos_blanks:
        items.append(tr("ui.pc.chaos_blanks"))
    return items


@screen
class Planechase(Screen):
    name = "planechase"
    button = "ui.btn.planes"
    key = "p"

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.planechase is not None

    def follows(self, events: Sequence[Event]) -> bool:
        shown = (PlanarDieRolled, Planeswalked, PlanarChoiceOffered, PlanarCardsRevealed, PlanarCardAwaited)
        return any(isinstance(e, shown) for e in events) or any(
            isinstance(e, PlaneTurnedOver) and not e.starting for e in events
        )

    def after(self, host: Host, result: Result) -> None:
        """Start the die's tumble when a roll happened; its face shows at once regardless."""
        rolled = [e for e in result.events if isinstance(e, PlanarDieRolled)]
        if rolled:
            now = host.now()
            previous = host.ui.die.seq if host.ui.die is not None else 0
            host.ui.die = DieRoll(face=rolled[-1].result.value, started=now, until=now + TUMBLE, seq=previous + 1)
        form = host.ui.forms.get(self.name)
        if isinstance(form, dict):
            form["pick"] = 0
            form["order"] = []

    def _form(self, host: Host) -> dict[str, object]:
        form = host.ui.forms.setdefault(self.name, {"pick": 0, "order": []})
        assert isinstance(form, dict)
        return form

    def deadline(self, view: View) -> float | None:
        die = view.ui.die
        if die is None or die.until <= die.started:
            return None
        # Frames fall on a fixed grid from the roll, so a late wake-up never shifts the rest.
        fps = max(1, view.ui.fps)
        frame = math.floor((view.now - die.started) * fps + 1e-9) + 1
        return min(die.started + frame / fps, die.until)

    def tick(self, host: Host) -> bool:
        die = host.ui.die
        return die is not None and die.until > die.started

    # -- acting ---------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None or state.planechase is None:
            return False
        pc = state.planechase
        if pc.choice is not None:
            return self._choose(host, state, action)
        if isinstance(action, Turn) and pc.encounter is None and pc.awaiting is None:
            planes = [c for c in pc.face_up if c.kind is PlanarKind.PLANE]
            if len(planes) == 1:
                host.execute(ChangePlaneCounters(name=planes[0].name, delta=action.steps))
                return True
        return False

    def _choose(self, host: Host, state: GameState, action: Action) -> bool:
        options = choice_options(state)
        form = self._form(host)
        pick = int(form.get("pick", 0)) % max(1, len(options))  # type: ignore[call-overload]
        order: list[str] = list(form.get("order", []))  # type: ignore[call-overload]
        pools = state.planechase is not None and state.planechase.choice is not None and state.planechase.choice.kind is ChoiceKind.POOLS
        step = chip_step(action)
        if step is not None:
            form["pick"] = (pick + step) % max(1, len(options))
            return True
        chosen: str | None = None
        if isinstance(action, Tap) and action.kind == "pc.choice":
            chosen = str(action.value)
        elif isinstance(action, Press) and action.button in (Button.SELECT, Button.NEXT) and options:
            chosen = options[pick]
        if chosen is None:
            return False
        if pools:
            if chosen not in order:
                order.append(chosen)
            form["order"] = order
            if len(order) < len(options):
                return True
            form["order"] = []
            host.execute(ChoosePlanar(answer=tuple(order)))
            return True
        host.execute(ChoosePlanar(answer=(chosen,)))
        return True

    # -- drawing --------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None and state.planechase is not None
        pc = state.planechase
        c, lay = view.canvas, view.layout
        height = view.bottom - view.top
        side_w = c.width * 2 // 5 if c.width >= c.height else c.width
        left: Rect = (lay.margin, view.top, c.width - side_w - 2 * lay.margin, height)
        right: Rect = (c.width - side_w, view.top, side_w - lay.margin, height)
        if pc.choice is not None:
            self._draw_choice(view, state, left)
        elif pc.encounter is not None:
            self._draw_encounter(view, state, pc.encounter, left)
        elif pc.awaiting is not None:
            self._draw_awaiting(view, state, left)
        else:
            self._draw_planes(view, pc, left)
        self._draw_die(view, state, pc, right)

    def _draw_planes(self, view: View, pc: PlanechaseState, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        cards = list(pc.face_up)
        if not cards:
            c.text(tr("ui.pc.none"), (area[0] + area[2] // 2, area[1] + area[3] // 2), lay.medium, theme.DIM,
                   anchor="center", max_width=area[2], role="pc.none")
            return
        x, y, w, h = area
        each = (h - lay.margin * (len(cards) - 1)) // len(cards)
        for index, card in enumerate(cards):
            self._draw_card(view, card, (x, y + index * (each + lay.margin), w, each), solo=len(cards) == 1)

    def _draw_card(self, view: View, card: FaceUpCard, rect: Rect, *, solo: bool) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = rect
        phenomenon = card.kind is PlanarKind.PHENOMENON
        c.box(rect, theme.PANEL)
        c.box(rect, theme.CHAOS if phenomenon else theme.WALK, width=max(2, lay.line))
        pad = lay.margin
        size = lay.big if solo else lay.medium
        name = c.text(card.name, (x + pad, y + pad // 2), size, theme.TEXT, bold=True, max_width=w - 2 * pad,
                      role="pc.plane.name", min_size=lay.small)
        ty = name.bottom
        line = type_line(tr, card)
        if card.counters:
            line += " · " + tr("ui.pc.counters", n=card.counters)
        kind = c.text(line, (x + pad, ty), lay.small, theme.DIM, max_width=w - 2 * pad, role="pc.plane.type")
        ty = kind.bottom + pad // 2
        text = cardtext.rules_text(card.name)
        room = y + h - pad - ty
        if text:
            c.paragraph(text, (x + pad, ty, w - 2 * pad, room), lay.small, theme.TEXT, role="pc.plane.text")
        elif room >= c.fonts.line_height(lay.tiny):
            c.text(tr("ui.pc.no_text"), (x + pad, y + h - pad // 2), lay.tiny, theme.FAINT, anchor="bottomleft",
                   max_width=w - 2 * pad, role="pc.plane.hint")

    def _draw_encounter(self, view: View, state: GameState, name: str, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        card = next((f for f in state.planechase.face_up if f.name == name), None) if state.planechase else None
        card = card or FaceUpCard(name=name, kind=PlanarKind.PHENOMENON, owner=None)
        x, y, w, h = area
        foot = c.fonts.line_height(lay.medium, True) + lay.margin
        self._draw_card(view, card, (x, y, w, h - foot), solo=True)
        c.text(tr("ui.pc.resolve"), (x + w // 2, y + h), lay.medium, theme.CHAOS, anchor="midbottom", bold=True,
               max_width=w, role="pc.resolve")

    def _draw_awaiting(self, view: View, state: GameState, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        pc = state.planechase
        assert pc is not None and pc.awaiting is not None
        text = tr.message(Message("planechase.awaiting_card", name=state.player(pc.awaiting.seat).name,
                                  deck=deck_label(state, pc.awaiting.deck)))
        c.box(area, theme.PANEL)
        x, y, w, h = area
        c.paragraph(text, (x + lay.margin, y + lay.margin, w - 2 * lay.margin, h - 2 * lay.margin), lay.medium,
                    theme.TEXT, role="pc.awaiting")

    def _draw_choice(self, view: View, state: GameState, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        prompt = tr.message(choice_prompt(state))
        pc = state.planechase
        assert pc is not None and pc.choice is not None
        who = state.player(pc.choice.seat).name
        used = c.paragraph(f"{who}: {prompt}", (x, y, w, h // 3), lay.small, theme.TEXT, role="pc.choice.prompt")
        options = choice_options(state)
        form = view.ui.forms.get(self.name, {})
        pick = int(form.get("pick", 0)) if isinstance(form, dict) else 0
        order = list(form.get("order", [])) if isinstance(form, dict) else []
        top = y + used + lay.margin
        if not options:
            return
        each = min(c.fonts.line_height(lay.medium) + lay.margin, (y + h - top) // len(options))
        for index, option in enumerate(options):
            rect = (x, top + index * each, w, each - max(2, lay.margin // 2))
            selected = index == pick % len(options)
            c.box(rect, theme.BUTTON_HI if selected else theme.BUTTON)
            if selected:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            label = option
            if option in order:
                label = f"{order.index(option) + 1}. {option}"
            c.text(label, (rect[0] + lay.margin, rect[1] + rect[3] // 2), lay.medium, theme.TEXT, anchor="midleft",
                   bold=selected, max_width=w - 2 * lay.margin, role="pc.choice.option", min_size=lay.tiny)
            c.target(rect, Tap("pc.choice", option))

    def _draw_die(self, view: View, state: GameState, pc: PlanechaseState, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        c.box(area, theme.PANEL)
        pad = lay.margin
        die_size = min(w // 2, h // 3)
        cx, cy = x + pad + die_size // 2, y + pad + die_size // 2
        last = pc.rolls[-1] if pc.rolls else None
        face = last.result if last is not None else None
        color = {DieFace.PLANESWALK: theme.WALK, DieFace.CHAOS: theme.CHAOS}.get(face, theme.PANEL_HI) if face else theme.PANEL_HI
        angle = 0.0
        die = view.ui.die
        if die is not None and die.until > die.started and view.now < die.until:
            progress = (view.now - die.started) / (die.until - die.started)
            angle = math.sin(progress * math.pi * 3) * 25 * (1 - progress)
        _square(c, (cx, cy), die_size, angle, color)
        label = pip_label(state, last) if last is not None else "?"
        if label == "blank":
            label = ""
        c.text(label, (cx, cy), lay.big, theme.TEXT, anchor="center", bold=True, max_width=die_size - pad, role="pc.die.pip")
        tx = x + pad * 2 + die_size
        tw = x + w - tx - pad
        if last is not None:
            face_text = tr(f"ui.pc.die.{last.result.value}")
            c.text(face_text, (tx, cy - pad // 2), lay.medium, color if face != DieFace.BLANK else theme.TEXT,
                   anchor="bottomleft", bold=True, max_width=tw, role="pc.die.face", min_size=lay.tiny)
            c.text(state.player(last.seat).name, (tx, cy + pad // 2), lay.small, theme.DIM, anchor="topleft",
                   max_width=tw, role="pc.die.roller")
        # The next roll's cost and the odds (PC-2, PC-13).
        ty = y + pad + die_size + pad
        roller = state.active if state.step is Step.MAIN else planar_controller(state)
        cost = next_roll_cost(state, roller)
        cost_text = tr("ui.pc.cost_free") if cost == 0 else tr("ui.pc.cost", cost=cost)
        r = c.text(cost_text, (x + pad, ty), lay.medium, theme.CURSOR, bold=True, max_width=w - 2 * pad, role="pc.cost",
                   min_size=lay.tiny)
        ty = r.bottom
        chances = odds(state)
        r = c.text(tr("ui.pc.odds", chaos=_frac(chances.chaos)), (x + pad, ty), lay.small, theme.TEXT,
                   max_width=w - 2 * pad, role="pc.odds", min_size=lay.tiny)
        ty = r.bottom
        percent = round(float(chance_to_planeswalk(LOOKAHEAD)) * 100)
        r = c.text(tr("ui.pc.odds_k", k=LOOKAHEAD, p=percent, mana=cost_of_rolls(LOOKAHEAD, cost)), (x + pad, ty),
                   lay.small, theme.DIM, max_width=w - 2 * pad, role="pc.odds_k", min_size=lay.tiny)
        ty = r.bottom + pad // 2
        # The roll log and the planes visited (PC-13), newest first, as many as fit.
        line_h = c.fonts.line_height(lay.tiny)
        room = (y + h - pad - ty) // line_h
        if room <= 0:
            return
        rolls = list(reversed(pc.rolls))
        visited = list(reversed(pc.visited))
        roll_lines = min(len(rolls), max(1, (room - 2) // 2)) if rolls else 0
        if rolls:
            c.text(tr("ui.pc.log"), (x + pad, ty), lay.tiny, theme.DIM, bold=True, max_width=w - 2 * pad, role="pc.log.title")
            ty += line_h
            for roll in rolls[:roll_lines]:
                cost_note = f" ({roll.cost})" if roll.cost else ""
                text = f"{roll.turn}. {state.player(roll.seat).name}: {tr(f'ui.pc.die.{roll.result.value}')}{cost_note}"
                c.text(text, (x + pad, ty), lay.tiny, theme.TEXT, max_width=w - 2 * pad, role="pc.log")
                ty += line_h
        left = (y + h - pad - ty) // line_h - 1
        if visited and left > 0:
            c.text(tr("ui.pc.visited"), (x + pad, ty), lay.tiny, theme.DIM, bold=True, max_width=w - 2 * pad,
                   role="pc.visited.title")
            ty += line_h
            for visit in visited[:left]:
                c.text(visit.name, (x + pad, ty), lay.tiny, theme.TEXT, max_width=w - 2 * pad, role="pc.visited")
                ty += line_h


def _square(c: Canvas, center: tuple[int, int], size: int, angle: float, color: tuple[int, int, int]) -> None:
    half = size / 2
    rad = math.radians(angle)
    points = []
    for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half)):
        points.append((center[0] + dx * math.cos(rad) - dy * math.sin(rad), center[1] + dx * math.sin(rad) + dy * math.cos(rad)))
    if angle == 0:
        c.box((int(center[0] - half), int(center[1] - half), size, size), color)
    else:
        c.polygon(points, color)
