"""Planechase: the face-up plane(s) large, the planar die, the next roll's cost and the odds,
the roll log and the planes visited (PC-2, PC-3, PC-7, PC-12, PC-13).

A plane shows its name, type and counters, its art and its rules text as large as the rest of
the panel holds.  Without a picture (no card data, or card data without pictures) the art is a
neutral frame in a box beside the text or the name.  With one (``aetherbox catalog fetch``, or an
import with ``--images``) the picture is turned to read landscape, planar cards being printed
sideways, and shown large beside the name, type and counters with the rules text the whole width
under it, as large as leaves the text at its size without a picture or at ``medium``
(``large_art_layout``); where that would be no larger than the box (a small panel, a long text,
two planes at once) the picture goes in the box, and the rest of the card is as without it.  The die shows its face —
the planeswalker symbol, the chaos symbol, a blank, or a plain d6's pips — drawn with shapes, and
says so before anyone has rolled.  The next roll's cost is a generic mana symbol.  The roll log
lists as many rolls as fit, newest first, each numbered by its place in the game's log.

The die's result is drawn in the first frame after the roll; the short tumble around it is
decoration with a deadline (``TUMBLE`` seconds at the configured frame rate) and never delays
it.  A phenomenon being encountered, a pending choice (Interplanar Tunnel, Stairs to Infinity,
Pools of Becoming, an Eternities Map direction) and a physical card the gadget waits for take
the place of the planes until they are dealt with: ↑/↓ or ←/→ pick, SELECT/NEXT confirm; a list
longer than the panel scrolls with the cursor and says how many answers are above and below.  An
awaited physical card is tapped on the reader or picked from its deck's cards, the one expected
next first; only SELECT (or a tap) picks it, so NEXT still says what is awaited.
Elsewhere the encoder changes life as on the table, which comes back with the change showing;
SELECT, or a touch on the plane's name and counters, gives it to the face-up plane's counters
(↓ does nothing when there are none) until SELECT again or the screen is left.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction

from msgspec import Struct
from msgspec.structs import replace

from device.catalog import CardKind, load_catalog
from device.commands import Command
from device.controller import Result
from device.errors import IllegalCommand
from device.events import Event
from device.inputs import Button
from device.rules.planechase.events import (
    PlanarCardAwaited,
    PlanarCardsRevealed,
    PlanarChoiceOffered,
    PlanarDieAwaited,
    PlanarDieRolled,
    PlaneTurnedOver,
    Planeswalked,
)
from device.rules.planechase.die import PIP_OF, face_of
from device.rules.planechase.queries import (
    awaited_cards,
    awaiting_prompt,
    chance_to_planeswalk,
    own_roll_prompt,
    cost_of_rolls,
    next_roll_cost,
    odds,
    planar_controller,
)
from device.rules.planechase.commands import (
    ChangePlaneCounters,
    ChoosePlanar,
    Planeswalk,
    RevealPlanarCard,
    RollPlanarDie,
)
from device.state import GameState, Step
from device.rules.planechase.state import (
    ChoiceKind,
    DieFace,
    FaceUpCard,
    PlanarKind,
    PlanechaseState,
)
from device.text import Message
from device.rules.registry import outcome
from display import cardtext, symbols, theme
from display.canvas import Canvas, Rect
from display.chips import scroll_markers
from display.i18n import Translator
from display.screens import Ahead, Detail, Host, Screen, Strip, View, chip_step, chip_window
from display.screens.life import step
from display.ui import Action, DieRoll, Press, Tap, Turn, UiState
from drivers.feedback import Cue

TUMBLE = 0.6  # seconds of die animation after a roll
#: Seconds the die's result (and a new plane) stays up after its tumble before the table, with
#: the life totals, comes back by itself.
RESULT_SHOWN = 5.0
LOOKAHEAD = 3  # PC-13: "k rolls" line


def _frac(value: Fraction) -> str:
    return (
        f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    )


FACES = tuple(face.value for face in PIP_OF)  # the faces a table's own planar die may show


def picking_face(state: GameState) -> bool:
    """The table rolls its own die and the gadget waits for the face it showed (PC-1)."""
    pc = state.planechase
    return pc is not None and pc.own_roll is not None


def picking_card(state: GameState) -> bool:
    """A physical card is awaited and nothing else comes first: the chips offer the deck's cards."""
    pc = state.planechase
    return pc is not None and pc.choice is None and pc.encounter is None and pc.awaiting is not None


def settled(state: GameState) -> bool:
    """Nothing on the Planechase screen waits for the table: no choice, no encounter, no die
    face or card to say."""
    pc = state.planechase
    return (
        pc is not None
        and pc.choice is None
        and pc.encounter is None
        and pc.awaiting is None
        and not picking_face(state)
        and not picking_card(state)
    )


def choice_options(state: GameState) -> list[str]:
    """The answers the pending choice accepts, one per chip; for an awaited physical card, the
    cards it can be, the one expected next first (PC-12: tap it, or pick it on screen)."""
    pc = state.planechase
    if pc is not None and picking_face(state):
        return [str(n) for n in range(1, 7)] if pc.plain_d6 else list(FACES)
    if picking_card(state):
        return awaited_cards(state)
    if pc is None or pc.choice is None:
        return []
    choice = pc.choice
    if choice.kind is ChoiceKind.STAIRS:
        return ["top", "bottom"]
    if choice.kind is ChoiceKind.DIRECTION:
        from device.rules.planechase.eternities import directions

        return directions(state)
    if choice.kind is ChoiceKind.TUNNEL:
        return [c.name for c in choice.cards if c.kind is PlanarKind.PLANE]
    return [c.name for c in choice.cards]


def choice_question(state: GameState, tr: Translator) -> str:
    """What the pending choice asks, short: its answers are on the chips."""
    pc = state.planechase
    if picking_face(state):
        return tr.message(own_roll_prompt(state))
    if picking_card(state):
        return tr.message(awaiting_prompt(state))
    assert pc is not None and pc.choice is not None
    choice = pc.choice
    who = state.player(choice.seat).name
    card = choice.cards[0].name if choice.cards else ""
    return tr(f"ui.pc.ask.{choice.kind.value}", name=who, card=card)


def choice_label(state: GameState, tr: Translator, option: str) -> str:
    """A chip's words: card names as printed, 'top'/'bottom' and map directions translated."""
    pc = state.planechase
    if picking_face(state):
        if option in FACES:
            return tr(f"ui.pc.die.{option}")
        face = face_of(int(option))
        return option if face is DieFace.BLANK else f"{option} · {tr(f'ui.pc.die.{face.value}')}"
    if picking_card(state):
        return option
    assert pc is not None and pc.choice is not None
    if pc.choice.kind is ChoiceKind.STAIRS:
        return tr(f"ui.pc.stairs.{option}")
    if pc.choice.kind is ChoiceKind.DIRECTION:
        from device.rules.planechase.eternities import direction_word

        return tr.message(direction_word(option))
    return option


def type_line(tr: Translator, card: FaceUpCard) -> str:
    if card.kind is PlanarKind.PHENOMENON:
        return tr("ui.pc.phenomenon")
    found = load_catalog().get(card.name)
    world = found.planar_type if found is not None and found.planar_type else ""
    return f"{tr('ui.pc.plane')} — {world}" if world else tr("ui.pc.plane")


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


def _planechase_details(state: GameState, tr: Translator) -> list[Detail]:
    """The face-up planes' rules text in the upkeep banner, when card data has it."""
    pc = state.planechase
    if pc is None:
        return []
    found: list[Detail] = []
    for card in pc.face_up:
        text = cardtext.rules_text(card.name)
        if text:
            found.append(
                Detail(
                    title=_with_counters(tr, card),
                    text=text,
                    role="banner.plane",
                    picture=card.name,
                    landscape=True,
                )
            )
    return found


def _planechase_strip(state: GameState, tr: Translator) -> list[Strip]:
    """The face-up planes (and a phenomenon being encountered) under the seats."""
    pc = state.planechase
    if pc is None:
        return []
    return [
        Strip(
            text=_with_counters(tr, card),
            role="table.plane",
            go="planechase",
            picture=card.name,
            landscape=True,
            detail=chaos_ability(cardtext.rules_text(card.name) or "")
            if len(pc.face_up) == 1
            else "",
        )
        for card in pc.face_up
    ]


def chaos_ability(text: str) -> str:
    """The line of a plane's rules text that a chaos roll triggers ("Whenever chaos ensues, …",
    older printings "Whenever you roll {CHAOS}, …"), or ""."""
    for line in text.splitlines():
        if "chaos" in line.casefold():
            return line.strip()
    return ""


def _cue(event: Event) -> Cue | None:
    """A planar die that came up chaos (after Chaotic Aether's blanks-as-chaos) beeps and
    flashes; any planeswalk, by die or otherwise, chimes."""
    if isinstance(event, PlanarDieRolled) and event.result is DieFace.CHAOS:
        return Cue.CHAOS
    if isinstance(event, Planeswalked):
        return Cue.PLANESWALK
    return None


def _with_counters(tr: Translator, card: FaceUpCard) -> str:
    return f"{card.name} · {tr('ui.pc.counters', n=card.counters)}" if card.counters else card.name


def planeswalk(preview: Callable[[Command], Result], state: GameState) -> Result | None:
    """What a planeswalk would do now, if it turns over a card that is not face up now (with a
    physical deck nobody listed, the next card is not known): the active player's roll that
    shows the planeswalker symbol, else an effect's planeswalk (outside the main phase)."""
    if state.planechase is None:
        return None
    now_up = {card.name for card in state.planechase.face_up}
    result = None
    for command in (RollPlanarDie(pip=6), Planeswalk()):
        try:
            result = preview(command)
            break
        except IllegalCommand:
            continue
    after = result.state if result is not None else None
    if result is None or after is None or after.planechase is None:
        return None
    return result if any(card.name not in now_up for card in after.planechase.face_up) else None


class PlanechasePick(Struct, frozen=True):
    """What the Planechase screen remembers while a choice is open: the chip the cursor is on,
    and the pools chosen so far, in order (a choice of pools is answered once all are)."""

    pick: int = 0
    order: tuple[str, ...] = ()


class PlaneCounters(Struct, frozen=True):
    """The face-up plane whose counters the encoder changes on the Planechase screen: SELECT or
    a touch on its counters picks them, SELECT again (or leaving the screen) gives the encoder
    back to life."""

    name: str = ""


class ShowCounters(Tap, frozen=True):
    """A touch on the face-up plane's counters: the encoder changes them (``PlaneCounters``),
    or is life again."""


class PlanarOption(Tap, frozen=True):
    """One of the choice's options (a die's face, a card awaited, an answer)."""

    option: str


class PlanarScroll(Tap, frozen=True):
    """A scroll marker beside the options: the next hidden one (``index``)."""

    index: int


def counting(ui: UiState, state: GameState) -> bool:
    """Whether the encoder changes the counters of the one face-up plane (not life)."""
    kept = ui.kept(PlaneCounters)
    pc = state.planechase
    return (
        kept is not None
        and pc is not None
        and [c.name for c in pc.face_up if c.kind is PlanarKind.PLANE] == [kept.name]
    )


class Planechase(Screen):
    name = "planechase"
    button = "ui.btn.planes"
    key = "p"
    upkeep_items = staticmethod(_planechase_upkeep)
    upkeep_details = staticmethod(_planechase_details)
    table_strips = staticmethod(_planechase_strip)
    cue = staticmethod(_cue)

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.planechase is not None

    def offers_roll(self, state: GameState) -> bool:
        return state.has("planechase")  # the planar die

    def tag_kinds(self, state: GameState) -> frozenset[CardKind]:
        planar = frozenset({CardKind.PLANE, CardKind.PHENOMENON})
        return planar if state.has("planechase") else frozenset()

    # A plane's rules text is the longest text the kiosk draws, and the next plane is known
    # before anyone rolls: the kiosk lays out a planeswalk's frames ahead (display.rehearsal).

    def ahead_key(self, state: GameState) -> Hashable:
        pc = state.planechase
        if pc is None:
            return None
        return (
            state.turn,
            tuple((deck.owner, deck.cards[:1]) for deck in pc.decks),
            tuple(card.name for card in pc.face_up),
        )

    def ahead(
        self, preview: Callable[[Command], Result], state: GameState, ui: UiState, now: float
    ) -> Ahead | None:
        """The next planeswalk: the die's result, then the table it goes back to."""
        result = planeswalk(preview, state)
        if result is None:
            return None
        rolled = any(isinstance(event, PlanarDieRolled) for event in result.events)
        die = (
            DieRoll(
                face="planeswalk", started=now, until=now + TUMBLE, back=now + TUMBLE + RESULT_SHOWN
            )
            if rolled
            else ui.die
        )
        return Ahead("the next planeswalk", result, (self.name, "table"), die, now + RESULT_SHOWN)

    def follows(self, events: Sequence[Event]) -> bool:
        shown = (
            PlanarDieRolled,
            PlanarDieAwaited,
            Planeswalked,
            PlanarChoiceOffered,
            PlanarCardsRevealed,
            PlanarCardAwaited,
        )
        return any(isinstance(e, shown) for e in events) or any(
            isinstance(e, PlaneTurnedOver) and not e.starting for e in events
        )

    def after(self, host: Host, result: Result) -> None:
        """Start the die's tumble when a roll happened; its face shows at once regardless."""
        rolled = [e for e in result.events if isinstance(e, PlanarDieRolled)]
        if rolled:
            now = host.now()
            previous = host.ui.die.seq if host.ui.die is not None else 0
            host.ui.die = DieRoll(
                face=rolled[-1].result.value,
                started=now,
                until=now + TUMBLE,
                seq=previous + 1,
                back=now + TUMBLE + RESULT_SHOWN,
            )
        if host.ui.kept(PlanechasePick) is not None:
            host.ui.put(PlanechasePick())

    def deadline(self, view: View) -> float | None:
        die = view.ui.die
        if die is None:
            return None
        back = (
            die.back
            if die.back is not None and view.state is not None and settled(view.state)
            else None
        )
        if die.until <= die.started or view.now >= die.until:
            return back
        # Frames fall on a fixed grid from the roll, so a late wake-up never shifts the rest.
        fps = max(1, view.ui.fps)
        frame = math.floor((view.now - die.started) * fps + 1e-9) + 1
        return min(die.started + frame / fps, die.until)

    def tick(self, host: Host) -> bool:
        die = host.ui.die
        if die is None:
            return False
        if die.back is not None and host.now() >= die.back:
            die.back = None
            if host.state is not None and settled(host.state) and host.ui.screen == self.name:
                host.go("table")
                return True
        return die.until > die.started

    # -- acting ---------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None or state.planechase is None:
            return False
        if host.ui.die is not None:
            host.ui.die.back = None  # a player is using this screen: it stays
        pc = state.planechase
        if pc.choice is not None or picking_face(state) or picking_card(state):
            return self._choose(host, state, action)
        if pc.encounter is not None or pc.awaiting is not None:
            return False
        planes = [c for c in pc.face_up if c.kind is PlanarKind.PLANE]
        plane = planes[0] if len(planes) == 1 else None
        picked = (
            isinstance(action, Press)
            and action.button is Button.SELECT
            and not action.long
            or isinstance(action, ShowCounters)
        )
        if plane is not None and picked:
            if counting(host.ui, state):
                host.ui.drop(PlaneCounters)
            else:
                host.ui.put(PlaneCounters(plane.name))
            return True
        if not isinstance(action, Turn):
            return False
        if plane is not None and counting(host.ui, state):
            # Only what can be done: ↓ takes off at most the counters there are, and none at 0.
            delta = max(action.steps, -plane.counters)
            if delta:
                host.execute(ChangePlaneCounters(name=plane.name, delta=delta))
            return True
        # The encoder is life here as on the table: the table comes back with the change showing.
        host.go("table")
        if host.ui.screen == "table":
            step(host, state.active if host.ui.cursor is None else host.ui.cursor, action.steps)
        return True

    def before(self, host: Host, going: str | None) -> None:
        if going is not None:
            host.ui.drop(PlaneCounters)  # the encoder is life again once the screen is left

    def _choose(self, host: Host, state: GameState, action: Action) -> bool:
        options = choice_options(state)
        form = host.ui.put(host.ui.state_of(PlanechasePick))
        pick = form.pick % max(1, len(options))
        # NEXT confirms a choice; an awaited card is picked with SELECT only, so NEXT still says
        # what is awaited rather than turning over whatever the cursor is on.
        # The table's own die: ROLL (again) or SELECT says the face; NEXT may still pass the turn.
        if picking_face(state):
            confirm: tuple[Button, ...] = (Button.SELECT, Button.ROLL)
        elif picking_card(state):
            confirm = (Button.SELECT,)
        else:
            confirm = (Button.SELECT, Button.NEXT)
        step = chip_step(action)
        if step is not None:
            host.ui.put(replace(form, pick=(pick + step) % max(1, len(options))))
            return True
        if isinstance(action, PlanarScroll):
            # A scroll marker: the next hidden chip.
            host.ui.put(replace(form, pick=action.index % max(1, len(options))))
            return True
        chosen: str | None = None
        if isinstance(action, PlanarOption):
            chosen = action.option
        elif isinstance(action, Press) and action.button in confirm and options:
            chosen = options[pick]
        if chosen is None:
            return False
        self._answer(host, state, options, chosen)
        return True

    def _answer(self, host: Host, state: GameState, options: list[str], chosen: str) -> None:
        """``chosen`` is the die's face, the card awaited or the answer to the choice; a choice of
        pools is answered once every pool is chosen, in the order they were."""
        if picking_face(state):
            host.execute(
                RollPlanarDie(pip=int(chosen) if chosen.isdigit() else PIP_OF[DieFace(chosen)])
            )
            return
        if picking_card(state):
            host.execute(RevealPlanarCard(name=chosen))
            return
        choice = state.planechase.choice if state.planechase is not None else None
        if choice is None or choice.kind is not ChoiceKind.POOLS:
            host.execute(ChoosePlanar(answer=(chosen,)))
            return
        form = host.ui.state_of(PlanechasePick)
        order = form.order if chosen in form.order else (*form.order, chosen)
        if len(order) < len(options):
            host.ui.put(replace(form, order=order))
            return
        host.ui.put(replace(form, order=()))
        host.execute(ChoosePlanar(answer=tuple(order)))

    # -- drawing --------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None and state.planechase is not None
        pc = state.planechase
        c, lay = view.canvas, view.layout
        height = view.bottom - view.top
        side_w = c.width * 9 // 20
        left: Rect = (lay.margin, view.top, c.width - side_w - 2 * lay.margin, height)
        right: Rect = (c.width - side_w, view.top, side_w - lay.margin, height)
        if pc.choice is not None or picking_face(state) or picking_card(state):
            self._draw_choice(view, state, left)
        elif pc.encounter is not None:
            self._draw_encounter(view, state, pc.encounter, left)
        else:
            self._draw_planes(view, pc, left)
        self._draw_die(view, state, pc, right)

    def _draw_planes(self, view: View, pc: PlanechaseState, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        cards = list(pc.face_up)
        if not cards:
            c.paragraph(
                tr("ui.pc.none"), area, lay.medium, theme.DIM, role="pc.none", align="center"
            )
            return
        x, y, w, h = area
        each = (h - lay.margin * (len(cards) - 1)) // len(cards)
        for index, card in enumerate(cards):
            draw_card(
                view, card, (x, y + index * (each + lay.margin), w, each), solo=len(cards) == 1
            )

    def _draw_encounter(self, view: View, state: GameState, name: str, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        card = (
            next((f for f in state.planechase.face_up if f.name == name), None)
            if state.planechase
            else None
        )
        card = card or FaceUpCard(name=name, kind=PlanarKind.PHENOMENON, owner=None)
        x, y, w, h = area
        text = tr("ui.pc.resolve")
        size = (
            c.fit_paragraph(
                text, w, c.fonts.line_height(lay.medium, True) * 2, lay.medium, bold=True
            )
            or lay.tiny
        )
        lines = c.wrapped(text, size, w, bold=True) or [text]
        foot = len(lines) * c.fonts.line_height(size, True) + lay.margin // 2
        draw_card(view, card, (x, y, w, h - foot), solo=True)
        c.paragraph(
            text,
            (x, y + h - foot + lay.margin // 2, w, foot),
            size,
            theme.CHAOS,
            role="pc.resolve",
            bold=True,
            min_size=size,
            align="center",
        )

    def _draw_choice(self, view: View, state: GameState, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        pc = state.planechase
        assert pc is not None
        options = choice_options(state)
        form = view.ui.state_of(PlanechasePick)
        pick = form.pick % max(1, len(options))
        order = form.order
        # The card that asks, then the question: the answers are the chips below, not words.
        top = y
        prompt = choice_question(state, tr)
        chip_h = lay.touch
        source = pc.choice.source if pc.choice is not None else ""
        source_h = c.fonts.line_height(lay.medium, True) if source else 0
        if (
            source
            and c.fit_paragraph(prompt, w, y + h - top - source_h - chip_h - lay.margin, lay.medium)
            is None
        ):
            source = ""  # a small panel: the question whole before the card's name (the status line has it)
        if source:
            r = c.text(
                source,
                (x, top),
                lay.medium,
                theme.CHAOS,
                bold=True,
                max_width=w,
                role="pc.choice.source",
                min_size=lay.tiny,
            )
            top = r.bottom
        room = (y + h - top) - chip_h - lay.margin  # at least one chip stays
        size = c.fit_paragraph(prompt, w, room, lay.medium) or lay.tiny
        top += (
            c.paragraph(
                prompt,
                (x, top, w, max(room, c.fonts.line_height(size))),
                size,
                theme.TEXT,
                role="pc.choice.prompt",
                min_size=size,
            )
            + lay.margin // 2
        )
        if not options:
            return
        gap = max(2, lay.margin // 2)
        fit = max(1, (y + h - top + gap) // (chip_h + gap))
        shown = chip_window(len(options), pick, fit)
        marker_w = 0
        if len(shown) < len(options):
            marker_w = lay.touch
        label_w = w - marker_w - (gap if marker_w else 0)
        for row, index in enumerate(shown):
            option = options[index]
            rect = (x, top + row * (chip_h + gap), label_w, chip_h)
            selected = index == pick
            c.box(rect, theme.BUTTON_HI if selected else theme.BUTTON)
            if selected:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            label = choice_label(state, tr, option)
            if option in order:
                label = f"{order.index(option) + 1}. {label}"
            c.text(
                label,
                (rect[0] + lay.margin, rect[1] + chip_h // 2),
                lay.medium,
                theme.TEXT,
                anchor="midleft",
                bold=selected,
                max_width=label_w - 2 * lay.margin,
                role="pc.choice.option",
                min_size=lay.tiny,
            )
            c.target(rect, PlanarOption(option))
        if marker_w:
            column = (x + w - marker_w, top, marker_w, len(shown) * (chip_h + gap) - gap)
            scroll_markers(
                view,
                column,
                shown.start,
                len(options) - shown.stop,
                "pc.choice.more",
                (PlanarScroll(shown.start - 1), PlanarScroll(shown.stop)),
            )

    def _draw_die(self, view: View, state: GameState, pc: PlanechaseState, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        c.box(area, theme.PANEL)
        pad = lay.margin
        inner = w - 2 * pad
        # The die, showing its face, and what it came up as.
        die_size = min(inner * 2 // 5, h // 4)
        cx, cy = x + pad + die_size // 2, y + pad + die_size // 2
        last = pc.rolls[-1] if pc.rolls else None
        angle = 0.0
        die = view.ui.die
        if die is not None and die.until > die.started and view.now < die.until:
            progress = (view.now - die.started) / (die.until - die.started)
            angle = math.sin(progress * math.pi * 3) * 25 * (1 - progress)
        tx = x + pad * 2 + die_size
        tw = x + w - tx - pad
        if last is None:
            symbols.die(c, (cx, cy), die_size, theme.PANEL, edge=theme.FAINT)
            text = tr("ui.pc.not_rolled")
            size = c.fit_paragraph(text, tw, die_size, lay.medium) or lay.tiny
            lines = c.wrapped(text, size, tw) or [text]
            # Beside the die, centred on it; as tall as its lines need where the die is smaller.
            block = len(lines) * c.fonts.line_height(size)
            c.paragraph(
                text,
                (tx, max(y + pad, cy - block // 2), tw, max(block, die_size)),
                size,
                theme.DIM,
                role="pc.die.none",
                min_size=size,
            )
        else:
            color = FACE_COLORS[last.result]
            symbols.die(c, (cx, cy), die_size, theme.PANEL_HI, angle, edge=color)
            face_at = (float(cx), float(cy))
            if pc.plain_d6:
                symbols.pips(c, face_at, die_size * 0.8, last.pip, color, angle)
            elif last.face is DieFace.PLANESWALK:
                symbols.planeswalker(c, face_at, die_size * 0.72, color, angle)
            elif last.face is DieFace.CHAOS:
                symbols.chaos(c, face_at, die_size * 0.72, color, angle)
            face_text = tr(f"ui.pc.die.{last.result.value}")
            size = max(
                lay.tiny, min(lay.medium, _widest(view, face_text, tw, lay.medium, bold=True))
            )
            c.text(
                face_text,
                (tx, cy - pad // 4),
                size,
                color if last.result is not DieFace.BLANK else theme.TEXT,
                anchor="bottomleft",
                bold=True,
                max_width=tw,
                role="pc.die.face",
                min_size=lay.tiny,
            )
            c.text(
                state.player(last.seat).name,
                (tx, cy + pad // 4),
                lay.small,
                theme.DIM,
                anchor="topleft",
                max_width=tw,
                role="pc.die.roller",
                min_size=lay.tiny,
            )
        ty = y + pad + die_size + pad
        if (
            outcome(state) is None
        ):  # once the game is decided nobody rolls again: the logs take the room
            ty = self._draw_cost_and_odds(view, state, (x, y, w, h), ty)
        ty += pad // 2
        self._draw_logs(view, state, pc, (x + pad, ty, inner, y + h - pad - ty))

    def _draw_cost_and_odds(self, view: View, state: GameState, area: Rect, ty: int) -> int:
        """The next roll's cost and the odds under the die from ``ty``; returns where they end."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        pad = lay.margin
        inner = w - 2 * pad
        # The next roll's cost, the number the table acts on (PC-2): a generic mana symbol.
        roller = state.active if state.step is Step.MAIN else planar_controller(state)
        ty += draw_cost(view, (x + pad, ty, inner), next_roll_cost(state, roller)) + pad // 2
        # The odds (PC-13): in words where they fit, else in the shorter words; wrapped, never cut.
        chances = odds(state)
        percent = round(float(chance_to_planeswalk(LOOKAHEAD)) * 100)
        mana = cost_of_rolls(LOOKAHEAD, next_roll_cost(state, roller))
        odds_lines = [
            (
                (
                    tr("ui.pc.odds", chaos=_frac(chances.chaos)),
                    tr("ui.pc.odds_short", chaos=_frac(chances.chaos)),
                ),
                theme.TEXT,
                "pc.odds",
            ),
            (
                (
                    tr("ui.pc.odds_k", k=LOOKAHEAD, p=percent, mana=Message("ui.pc.mana", n=mana)),
                    tr(
                        "ui.pc.odds_k_short",
                        k=LOOKAHEAD,
                        p=percent,
                        mana=Message("ui.pc.mana", n=mana),
                    ),
                ),
                theme.DIM,
                "pc.odds_k",
            ),
        ]
        for (full, short), tone, role in odds_lines:
            room = y + h - pad - ty
            one = c.fonts.line_height(lay.tiny) * (2 if c.height >= 480 else 1)
            words = next(
                (t for t in (full, short) if c.fit_paragraph(t, inner, one, lay.small) is not None),
                short,
            )
            fitted = c.fit_paragraph(words, inner, room, lay.small)
            if fitted is None:
                break
            ty += c.paragraph(
                words, (x + pad, ty, inner, room), fitted, tone, role=role, min_size=fitted
            )
        return ty

    def _draw_logs(self, view: View, state: GameState, pc: PlanechaseState, area: Rect) -> None:
        """The roll log and the planes visited (PC-13), newest first, as many as fit; each roll
        numbered by its place in the game's log."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        size = lay.small if h >= c.fonts.line_height(lay.small) * 12 else lay.tiny
        line_h = c.fonts.line_height(size)
        room = h // line_h
        rolls = list(reversed(list(enumerate(pc.rolls, start=1))))
        visited = list(reversed(pc.visited))
        if room < 2 or not (rolls or visited):
            return
        # The rolls first (a third of a long list is kept for the planes visited); the planes
        # visited get what is left.
        reserve = min(len(visited), (room - 2) // 3) if rolls and visited and room >= 8 else 0
        show_rolls = max(0, min(len(rolls), room - 1 - (reserve + 1 if reserve else 0)))
        left = room - (1 + show_rolls if show_rolls else 0)
        show_visits = min(len(visited), left - 1) if left >= 2 else 0
        ty = y
        if show_rolls:
            c.text(
                tr("ui.pc.log"),
                (x, ty),
                size,
                theme.DIM,
                bold=True,
                max_width=w,
                role="pc.log.title",
                min_size=size,
            )
            ty += line_h
            for number, roll in rolls[:show_rolls]:
                face = tr(f"ui.pc.die.{roll.result.value}")
                paid = f" ({roll.cost})" if roll.cost else ""
                text = (
                    tr("ui.pc.log_line", n=number, name=state.player(roll.seat).name, face=face)
                    + paid
                )
                c.text(
                    text,
                    (x, ty),
                    size,
                    FACE_COLORS[roll.result] if roll.result is not DieFace.BLANK else theme.TEXT,
                    max_width=w,
                    role="pc.log",
                    min_size=lay.tiny,
                )
                ty += line_h
        if show_visits:
            c.text(
                tr("ui.pc.visited"),
                (x, ty),
                size,
                theme.DIM,
                bold=True,
                max_width=w,
                role="pc.visited.title",
                min_size=size,
            )
            ty += line_h
            for visit in visited[:show_visits]:
                c.text(
                    visit.name,
                    (x, ty),
                    size,
                    theme.TEXT,
                    max_width=w,
                    role="pc.visited",
                    min_size=lay.tiny,
                )
                ty += line_h


FACE_COLORS: dict[DieFace, tuple[int, int, int]] = {
    DieFace.PLANESWALK: theme.WALK,
    DieFace.CHAOS: theme.CHAOS,
    DieFace.BLANK: theme.DIM,
}
MANA = (204, 196, 190)  # the generic mana symbol's grey
MANA_TEXT = (24, 22, 20)


def _widest(view: View, text: str, width: int, size: int, *, bold: bool = False) -> int:
    """The largest size up to ``size`` at which ``text`` fits ``width`` on one line."""
    fonts = view.canvas.fonts
    while size > 1 and fonts.measure(text, size, bold)[0] > width:
        size -= 1
    return size


def draw_cost(view: View, area: tuple[int, int, int], cost: int) -> int:
    """ "Next roll" and its cost: the number in a generic mana symbol, as cards print it, or
    "free"; returns the height used."""
    c, lay, tr = view.canvas, view.layout, view.tr
    x, y, w = area
    label = tr("ui.pc.next_roll")
    gap = lay.margin
    if cost:
        diameter = c.fonts.line_height(lay.big, True)
        value_w = diameter
    else:
        free = tr("ui.pc.free")
        free_size = max(lay.tiny, min(lay.big, _widest(view, free, w, lay.big, bold=True)))
        diameter = c.fonts.line_height(free_size, True)
        value_w = c.fonts.measure(free, free_size, True)[0]
    label_w = w - value_w - gap
    size = c.fit_paragraph(label, label_w, diameter, lay.medium) if label_w > 0 else None
    if size is not None:  # the label beside the value
        lines = c.wrapped(label, size, label_w) or [label]
        label_h = len(lines) * c.fonts.line_height(size)
        c.paragraph(
            label,
            (x, y + (diameter - label_h) // 2, label_w, label_h),
            size,
            theme.TEXT,
            role="pc.cost.label",
            min_size=size,
        )
        vx = x + max(c.fonts.measure(line, size)[0] for line in lines) + gap
        height = diameter
        vy = y
    else:  # the label over the value
        size = c.fit_paragraph(label, w, c.fonts.line_height(lay.small) * 2, lay.small) or lay.tiny
        height = c.paragraph(
            label,
            (x, y, w, c.fonts.line_height(size) * 2),
            size,
            theme.TEXT,
            role="pc.cost.label",
            min_size=size,
        )
        vx, vy = x, y + height
        height += diameter
    if cost:
        radius = diameter // 2
        c.circle((vx + radius, vy + radius), radius, MANA)
        number = str(cost)
        number_size = _widest(view, number, diameter * 4 // 5, lay.big * 3 // 4, bold=True)
        c.text(
            number,
            (vx + radius, vy + radius),
            number_size,
            MANA_TEXT,
            anchor="center",
            bold=True,
            role="pc.cost",
            min_size=number_size,
        )
    else:
        c.text(
            free,
            (vx, vy + diameter // 2),
            free_size,
            theme.CURSOR,
            anchor="midleft",
            bold=True,
            role="pc.cost",
            min_size=free_size,
        )
    return height


# --- a planar card on screen -----------------------------------------------------------------

ART_RATIO = 0.72  # height over width of the art box: planar cards are landscape
#: With a picture, the most of the card's width the art may take beside the name and type lines.
ART_WIDEST = 0.6


def draw_art(c: Canvas, rect: Rect, card: FaceUpCard) -> None:
    """The card's picture, whole, as large as ``rect`` holds and centred in it; without one a
    neutral frame filling it with the planar symbol faintly in it."""
    x, y, w, h = rect
    if w <= 0 or h <= 0:
        return
    found = cardtext.picture_size(card.name, landscape=True)
    if found is not None:
        scale = min(w / found[0], h / found[1])
        size = (max(1, round(found[0] * scale)), max(1, round(found[1] * scale)))
        art = cardtext.picture(card.name, size, landscape=True)
        if art is not None:
            c.picture(
                art, (x + (w - size[0]) // 2, y + (h - size[1]) // 2), card.name, "pc.plane.art"
            )
            return
    c.box(rect, theme.ART)
    c.box(rect, theme.PANEL_HI, width=max(1, c.layout.line))
    mark = symbols.chaos if card.kind is PlanarKind.PHENOMENON else symbols.planeswalker
    mark(c, (x + w / 2, y + h / 2), min(w, h) * 0.6, theme.PANEL_HI)


class CardLayout(Struct, frozen=True):
    """A planar card's parts on screen: the name's size and lines, the type line, the art box and
    the rules text's box and size (None: no text, or it does not fit)."""

    name_size: int
    name_lines: int
    header: Rect  # the name and type lines
    art: Rect
    text: Rect
    text_size: int | None


def _header(view: View, card: FaceUpCard, width: int, solo: bool) -> tuple[int, int, int]:
    """The name's size and lines, and the height of the name, type and counters lines."""
    c, lay = view.canvas, view.layout
    big = lay.big if solo else lay.medium
    size = _widest(view, card.name, width, big, bold=True)
    lines = 1
    if size < lay.medium:
        size = c.fit_paragraph(
            card.name,
            width,
            c.fonts.line_height(lay.medium, True) * 2,
            lay.medium,
            min_size=lay.small,
            bold=True,
        ) or max(lay.tiny, size)
        lines = len(c.wrapped(card.name, size, width, bold=True) or [card.name])
    height = (
        lines * c.fonts.line_height(size, True) + c.fonts.line_height(lay.small) + lay.margin // 2
    )
    if counters_shown(view, card):
        height += c.fonts.line_height(lay.medium, True)
    return size, lines, height


def counters_shown(view: View, card: FaceUpCard) -> bool:
    """A plane's counters have a line of their own when it has some, or while the encoder
    changes them (none yet: "0 counters")."""
    return (
        bool(card.counters)
        or view.state is not None
        and counting(view.ui, view.state)
        and (view.ui.state_of(PlaneCounters).name == card.name)
    )


def card_layout(view: View, card: FaceUpCard, rect: Rect, *, solo: bool) -> CardLayout:
    """Where a planar card's parts go in ``rect``: the art's box beside the text or beside the
    name, whichever leaves the rules text larger; with a picture, the art as large beside the
    name as the room under it leaves the text readable (``large_art_layout``), where that is
    larger than the box."""
    plain = boxed_layout(view, card, rect, solo=solo)
    if cardtext.picture_size(card.name, landscape=True) is None:
        return plain
    large = large_art_layout(view, card, rect, solo=solo, plain=plain)
    if large is None or large.art[2] * large.art[3] <= plain.art[2] * plain.art[3]:
        return plain
    return large


def boxed_layout(view: View, card: FaceUpCard, rect: Rect, *, solo: bool) -> CardLayout:
    """The art's box beside the text or beside the name, whichever leaves the rules text larger
    (the same with a picture in the box or without)."""
    c, lay = view.canvas, view.layout
    x, y, w, h = rect
    pad = lay.margin
    inner = w - 2 * pad
    text = cardtext.rules_text(card.name) or ""
    cap = lay.big if solo else lay.medium
    candidates: list[CardLayout] = []
    # The art in a column right of the text.
    name_size, name_lines, head_h = _header(view, card, inner, solo)
    body_y = y + pad // 2 + head_h
    body_h = y + h - pad - body_y
    art_w = inner * 2 // 5
    art = (x + w - pad - art_w, body_y, art_w, min(body_h, round(art_w * ART_RATIO)))
    box = (x + pad, body_y, inner - art_w - pad, body_h)
    candidates.append(
        CardLayout(
            name_size,
            name_lines,
            (x + pad, y + pad // 2, inner, head_h),
            art,
            box,
            c.fit_paragraph(text, box[2], box[3], cap) if text else None,
        )
    )
    # The art beside the name and type lines, the text the whole width under them.
    first = _header(view, card, inner * 3 // 5, solo)
    words = type_line(view.tr, card)
    art_h = max(first[2], c.fonts.line_height(lay.big, True))
    art_w = min(inner * 2 // 5 - pad, round(art_h / ART_RATIO))
    body_y = y + pad // 2 + art_h + pad // 2
    box = (x + pad, body_y, inner, y + h - pad - body_y)
    name_size, name_lines, head_h = _header(view, card, inner - art_w - pad, solo)
    art = (x + w - pad - art_w, y + pad // 2 + pad // 2, art_w, art_h - pad // 2)
    if (
        c.fonts.measure(words, lay.tiny)[0] <= inner - art_w - pad
    ):  # the type line must fit beside the art
        candidates.append(
            CardLayout(
                name_size,
                name_lines,
                (x + pad, y + pad // 2, inner - art_w - pad, head_h),
                art,
                box,
                c.fit_paragraph(text, box[2], box[3], cap) if text else None,
            )
        )
    if not text:
        return candidates[0]
    return max(candidates, key=lambda k: ((k.text_size or 0), k.art[2] * k.art[3]))


def large_art_layout(
    view: View, card: FaceUpCard, rect: Rect, *, solo: bool, plain: CardLayout
) -> CardLayout | None:
    """The picture top right and the name, type and counters beside it, the rules text the whole
    width under both.  The picture is as large as leaves the text its size in the ``plain``
    layout (``medium`` where that is larger), the type line and counters their size beside it,
    and at most ``ART_WIDEST`` of the width; the name must keep its size too (or ``medium``).
    None when the card has no rules text or that leaves no room for a picture."""
    c, lay = view.canvas, view.layout
    text = cardtext.rules_text(card.name)
    if not text or plain.text_size is None:
        return None
    x, y, w, h = rect
    pad = lay.margin
    inner = w - 2 * pad
    least = min(plain.text_size, lay.medium)
    text_h = len(c.wrapped(text, least, inner) or [text]) * c.fonts.line_height(least)
    # Never at the cost of the type line or the counters: the art leaves them their size.
    counters = view.tr("ui.pc.counters", n=card.counters) if card.counters else ""
    needs = max(
        c.fonts.measure(type_line(view.tr, card), lay.small)[0],
        c.fonts.measure(counters, lay.medium, True)[0] if counters else 0,
    )
    art_w = min(
        round(inner * ART_WIDEST),
        int((h - 2 * pad - pad // 2 - text_h) / ART_RATIO),
        inner - pad - needs,
    )
    art_h = int(art_w * ART_RATIO)
    beside = inner - art_w - pad
    if art_w <= 0:
        return None
    name_size, name_lines, head_h = _header(view, card, beside, solo)
    if head_h > art_h or name_size < min(plain.name_size, lay.medium):  # nor of the name
        return None
    art = (x + w - pad - art_w, y + pad, art_w, art_h)
    box = (x + pad, y + pad + art_h + pad // 2, inner, y + h - pad - (y + pad + art_h + pad // 2))
    size = c.fit_paragraph(text, box[2], box[3], lay.big if solo else lay.medium, min_size=least)
    if size is None:
        return None
    return CardLayout(
        name_size, name_lines, (x + pad, y + pad // 2, beside, head_h), art, box, size
    )


def draw_card(view: View, card: FaceUpCard, rect: Rect, *, solo: bool) -> None:
    """A face-up plane or phenomenon: name, type and counters, its art (the picture, when card
    data has one, else a box for it), the rules text as large as it fits (or how to get it)."""
    c = view.canvas
    shown = counters_shown(view, card)
    ringed = shown and view.state is not None and counting(view.ui, view.state)
    key = (
        "planar card",
        rect,
        solo,
        card.name,
        card.kind,
        card.owner,
        card.marker,
        card.counters,
        shown,
        ringed,
        view.tr.language,
        cardtext.rules_text(card.name),
        cardtext.card_image(card.name),
        cardtext.generation(),
    )
    if not c.replay(key):  # the card as the last frame drew it
        with c.part(key):
            _draw_card(view, card, rect, solo, shown, ringed)


def _draw_card(
    view: View, card: FaceUpCard, rect: Rect, solo: bool, counters: bool, ringed: bool
) -> None:
    c, lay, tr = view.canvas, view.layout, view.tr
    phenomenon = card.kind is PlanarKind.PHENOMENON
    c.box(rect, theme.PANEL)
    c.box(rect, theme.CHAOS if phenomenon else theme.WALK, width=max(2, lay.line))
    plan = card_layout(view, card, rect, solo=solo)
    hx, hy, hw, _ = plan.header
    hy += c.paragraph(
        card.name,
        (hx, hy, hw, plan.name_lines * c.fonts.line_height(plan.name_size, True)),
        plan.name_size,
        theme.TEXT,
        role="pc.plane.name",
        bold=True,
        min_size=plan.name_size,
    )
    kind = c.text(
        type_line(tr, card),
        (hx, hy),
        lay.small,
        theme.DIM,
        max_width=hw,
        role="pc.plane.type",
        min_size=lay.tiny,
    )
    if counters:  # counters are something players act on: a line of their own
        line = c.text(
            tr("ui.pc.counters", n=card.counters),
            (hx, kind.bottom),
            lay.medium,
            theme.CURSOR,
            bold=True,
            max_width=hw,
            role="pc.plane.counters",
            min_size=lay.tiny,
        )
        if ringed:  # the encoder's: ringed as a cursor is
            ring = line.inflate(lay.margin, lay.line * 2)
            c.box((ring.x, ring.y, ring.width, ring.height), theme.CURSOR, width=max(1, lay.line))
    if card.kind is PlanarKind.PLANE:
        top = plan.header[1]
        c.target(
            (hx, top, hw, kind.bottom + c.fonts.line_height(lay.medium, True) - top), ShowCounters()
        )
    draw_art(c, plan.art, card)
    text = cardtext.rules_text(card.name)
    if text and plan.text_size is not None:
        c.paragraph(
            text,
            plan.text,
            plan.text_size,
            theme.TEXT,
            role="pc.plane.text",
            min_size=plan.text_size,
        )
    elif not text:
        hint = tr("ui.pc.no_text")
        x, y, w, h = plan.text
        size = c.fit_paragraph(hint, w, h, lay.small)
        if size is not None:
            c.paragraph(hint, plan.text, size, theme.FAINT, role="pc.plane.hint", min_size=size)
