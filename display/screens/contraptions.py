"""Contraptions (CT-6, CT-7): the active player's sprockets (or the table's shared ones) with what
is assembled on each, where the CRANK! counter is and where it moved this upkeep, the upkeep die,
and the one thing the rules wait for, with the inputs that settle it:

- a revealed (or tapped) card waiting for its sprocket: the encoder or ↑/↓ (or a long SELECT)
  move the highlighted sprocket, SELECT puts the card there, a tap on a sprocket puts it on that
  one (``HighlightSprocket`` / ``PlaceContraption``);
- a crank choice: ↑/↓ walk the contraptions on the cranking sprocket, SELECT adds one to the
  order (again: takes it out), the last chip cranks them in that order (none is fine);
- variant A's library choice and variant C's looked-at cards: chips, walked and picked the same
  way (C: first the card to assemble, then any to keep on top, then its sprocket);
- a die due (A, B) or variant C's paid roll: a ROLL chip besides the ROLL button;
- nothing pending: an "Assemble" chip for when a card says "assemble" (CT-3, CT-C3): it asks who
  assembles (the active player first: another player's card may do it on any turn), in variant A
  from which faction library, then reveals the top card for its sprocket as above (or, with real
  cards, waits for the card to be tapped); and a chip (or a touch on a sprocket) for when an
  assembled contraption leaves the battlefield or moves: pick it, then scrap, exile or reassemble
  it (CT-5) — what a tap of the real card offers, for virtual decks too.

Everything goes to the controller as commands; the chips' cursor and a crank order being put
together are the only things kept on the screen (``ContraptionsForm``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from msgspec import Struct
from msgspec.structs import replace

from device.catalog import CardKind, Faction
from device.controller import Result
from device.events import Event
from device.inputs import Button
from device.rules.contraptions.queries import (
    current_upkeep,
    job_banner,
    library_message,
    next_roll_cost,
    on_sprocket,
)
from device.rules.contraptions.commands import (
    AssembleContraption,
    CrankContraptions,
    DeclineAssembly,
    ExileContraption,
    HighlightSprocket,
    KeepLooked,
    PlaceContraption,
    ReassembleContraption,
    RollContraptionDie,
    ScrapContraption,
)
from device.rules.contraptions.events import (
    AssemblyExpected,
    AssemblyLibraryChosen,
    ContraptionDieRolled,
    ContraptionIdentified,
    ContraptionRevealed,
    ContraptionSelected,
    ContraptionUpkeepBegan,
    CrankCounterMoved,
)
from device.rules.contraptions.view import UpkeepView, upkeep_view
from device.rules.table import round_from
from device.state import GameState, Step
from device.rules.contraptions.state import (
    SPROCKETS,
    Assembled,
    Assembly,
    ContraptionsState,
    Stage,
    Variant,
)
from device.text import Message
from display import theme
from display.canvas import Rect
from display.chips import Chip, block, chip_grid, grid_columns, grid_height, wrap_fit
from display.i18n import Translator
from display.screens import Host, Screen, View, chip_step, sends
from display.ui import Action, Press, Tap

NAME = "contraptions"


# --- the upkeep banner (CT-7) ------------------------------------------------------------------


def _contraptions_upkeep(state: GameState, tr: Translator) -> list[str]:
    view = upkeep_view(state)
    if view is None:
        return []
    items: list[str] = []
    if view.moved_from is not None and view.moved_to is not None:
        items.append(tr("ui.ct.item.moved", start=view.moved_from, end=view.moved_to))
    for message in view.banner:
        if message.key == "ct.banner.crank":
            items.append(
                tr("ui.ct.item.crank", sprocket=view.sprocket, cards=", ".join(view.cranking))
            )
        else:
            items.append(tr.message(message))
    return items


# --- what the pending choice offers ------------------------------------------------------------


class SprocketTap(Tap, frozen=True):
    """A sprocket on the board: the contraption placed there, or those on it to manage."""

    sprocket: int


class PickOption(Tap, frozen=True):
    """One of the options' chips."""

    index: int


class OptionScroll(Tap, frozen=True):
    """A scroll marker beside the chips: the next hidden option (``index``)."""

    index: int


class ContraptionsForm(Struct, frozen=True):
    """What the Contraptions screen remembers: the chip the cursor is on, a crank order and a
    look's picks being put together, and what is being decided on screen (an assembly, for
    whom, the contraptions to manage, the one picked)."""

    pick: int = 0
    order: tuple[str, ...] = ()  # the contraptions to crank, in order
    keep: str | None = None  # looking: the card kept
    top: tuple[str, ...] = ()  # looking: the cards put back on top, in order
    assemble: bool = False
    assembler: int | None = None
    manage: int | None = None  # 0: every assembled contraption, 1–3: those on that sprocket
    card: tuple[str, int] | None = (
        None  # (card, owner): the one picked to scrap, exile or reassemble
    )


#: What picking a chip does: a command, or a change to the screen's form (put on the host's UI).
Pick = Callable[[Host, ContraptionsForm], None]


class Option(Struct, frozen=True):
    """One chip: its label, whether it is marked (chosen, in the order), and what picking it does."""

    label: str
    pick: Pick
    marked: bool = False
    short: str = ""  # fewer words for a narrow chip


def _toggled(names: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(name for name in names if name != card) if card in names else (*names, card)


def library_text(tr: Translator, state: GameState, index: int) -> str:
    return tr.message(library_message(state, index))


def mode(state: GameState, form: ContraptionsForm) -> str:
    """What the screen waits for now, most urgent first."""
    ct = state.contraptions
    if ct is None:
        return "idle"
    job = ct.assembly
    up = current_upkeep(state)
    if job is not None:
        if job.card is not None:
            return "place"
        if job.looking:
            return "look"
        if len(job.libraries) > 1:
            return "library"
        return "tap"
    if up is not None and up.stage is Stage.CRANK:
        return "crank"
    if up is not None and up.stage is Stage.ROLL:
        return "roll"
    if form.assemble:
        return "assemble"
    if _picked(ct, form) is not None:
        return "card"
    if form.manage is not None:
        return "manage"
    if ct.variant is Variant.PLANAR and state.step is Step.MAIN:
        return "paid"
    return "idle"


def _crank_order(card: str) -> Pick:
    def pick(host: Host, form: ContraptionsForm) -> None:
        host.ui.put(replace(form, order=_toggled(form.order, card)))

    return pick


def _crank(host: Host, form: ContraptionsForm) -> None:
    host.execute(CrankContraptions(cards=form.order))


def _look_card(card: str) -> Pick:
    def pick(host: Host, form: ContraptionsForm) -> None:
        if form.keep is None:
            host.ui.put(replace(form, keep=card))
        elif form.keep == card:
            host.ui.put(replace(form, keep=None))
        else:
            host.ui.put(replace(form, top=_toggled(form.top, card)))

    return pick


def _keep(sprocket: int) -> Pick:
    def pick(host: Host, form: ContraptionsForm) -> None:
        if form.keep is not None:
            host.execute(KeepLooked(card=form.keep, sprocket=sprocket, top=form.top))

    return pick


def _open_assembly(host: Host, form: ContraptionsForm) -> None:
    host.ui.put(replace(form, assemble=True, assembler=None, pick=0))


def _close(host: Host, form: ContraptionsForm) -> None:
    """Back to where nothing is being decided."""
    host.ui.put(replace(form, assemble=False, assembler=None, manage=None, card=None, pick=0))


def _manage(sprocket: int) -> Pick:
    def pick(host: Host, form: ContraptionsForm) -> None:
        host.ui.put(replace(form, manage=sprocket, card=None, pick=0))

    return pick


def _pick_card(placed: Assembled) -> Pick:
    def pick(host: Host, form: ContraptionsForm) -> None:
        host.ui.put(replace(form, card=(placed.card, placed.owner), pick=0))

    return pick


def _picked(ct: ContraptionsState, form: ContraptionsForm) -> Assembled | None:
    """The assembled contraption picked on screen, while it is still assembled."""
    if form.card is None:
        return None
    card, owner = form.card
    return next((a for a in ct.assembled if a.card == card and a.owner == owner), None)


def managed(state: GameState, sprocket: int) -> list[Assembled]:
    """The assembled contraptions offered to pick (on ``sprocket``, or 0: all): the shown board's
    first, sprocket by sprocket, then the other players' boards in turn order."""
    ct = state.contraptions
    assert ct is not None
    boards = [None] if ct.variant.shared_sprockets else assemblers(state)
    return [
        placed
        for board in boards
        for number in SPROCKETS
        if sprocket in (0, number)
        for placed in on_sprocket(ct, board, number)
    ]


def _assembler(seat: int, factions: bool) -> Pick:
    def pick(host: Host, form: ContraptionsForm) -> None:
        if factions:  # CT-A1: the faction library is the next question
            host.ui.put(replace(form, assembler=seat, pick=0))
        else:
            host.execute(AssembleContraption(seat=seat))

    return pick


def assemblers(state: GameState) -> list[int]:
    """Who may be told to assemble: the players still in, the active player first, then in turn
    order."""
    return [seat for seat in round_from(state, state.active) if state.player(seat).in_game]


def _assemble_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    seat = form.assembler
    found: list[Option] = []
    if seat is not None:
        for index, library in enumerate(ct.libraries):
            assert library.faction is not None
            label = tr(
                "ui.ct.faction_chip",
                number=library.faction,
                faction=Faction(library.faction).label,
                count=len(library.cards),
            )
            found.append(Option(label, sends(AssembleContraption(seat=seat, library=index + 1))))
    else:
        factions = ct.variant is Variant.FACTIONS
        for player in assemblers(state):
            found.append(
                Option(
                    tr("ui.ct.assemble_for", name=state.player(player).name),
                    _assembler(player, factions),
                )
            )
    found.append(Option(tr("ui.ct.back"), _close))
    return found


def _manage_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    found: list[Option] = []
    placed = _picked(ct, form)
    if placed is not None:
        found.append(
            Option(tr("ui.ct.scrap"), sends(ScrapContraption(card=placed.card, owner=placed.owner)))
        )
        found.append(
            Option(tr("ui.ct.exile"), sends(ExileContraption(card=placed.card, owner=placed.owner)))
        )
        for sprocket in SPROCKETS:
            if sprocket != placed.sprocket:
                command = ReassembleContraption(
                    sprocket=sprocket, card=placed.card, owner=placed.owner
                )
                found.append(Option(tr("ui.ct.move_to", sprocket=sprocket), sends(command)))
    else:
        for placed in managed(state, form.manage or 0):
            name = state.player(placed.owner).name
            label = tr("ui.ct.manage_card", card=placed.card, name=name, sprocket=placed.sprocket)
            short = tr(
                "ui.ct.manage_card.short", card=placed.card, name=name, sprocket=placed.sprocket
            )
            found.append(Option(label, _pick_card(placed), short=short))
    found.append(Option(tr("ui.ct.back"), _close))
    return found


def _decline_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    return [Option(tr("ui.ct.decline"), sends(DeclineAssembly()))]


def _library_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    job = ct.assembly
    assert job is not None  # mode() asks for a library only during an assembly
    found: list[Option] = []
    for index in job.libraries:
        library = ct.libraries[index]
        if library.faction is not None:
            label = tr(
                "ui.ct.faction_chip",
                number=library.faction,
                faction=Faction(library.faction).label,
                count=len(library.cards),
            )
        else:
            label = tr(
                "ui.ct.library", library=library_text(tr, state, index), count=len(library.cards)
            )
        found.append(Option(label, sends(AssembleContraption(library=index + 1))))
    return found + _decline_options(state, ct, form, tr)


def _look_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    job = ct.assembly
    assert job is not None  # mode() looks at cards only during an assembly
    keep, top = form.keep, form.top
    found: list[Option] = []
    for card in job.looking:
        label = card
        if card == keep:
            label = tr("ui.ct.look.keep", card=card)
        elif card in top:
            label = tr("ui.ct.look.top", n=top.index(card) + 1, card=card)
        found.append(Option(label, _look_card(card), marked=card == keep or card in top))
    if keep is not None:
        found += [
            Option(tr("ui.ct.onto", sprocket=sprocket), _keep(sprocket)) for sprocket in SPROCKETS
        ]
    return found


def _crank_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    up = current_upkeep(state)
    assert up is not None and up.sprocket is not None
    order = form.order
    found: list[Option] = []
    for placed in on_sprocket(ct, _board(ct, state.active), up.sprocket):
        card = placed.card
        label = f"{order.index(card) + 1}. {card}" if card in order else card
        found.append(Option(label, _crank_order(card), marked=card in order))
    go = tr("ui.ct.crank_go", count=len(order)) if order else tr("ui.ct.crank_none")
    found.append(Option(go, _crank))
    return found


def _roll_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    return [Option(tr("ui.ct.roll"), sends(RollContraptionDie()))]


def _idle_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    found = [Option(tr("ui.ct.assemble"), _open_assembly)]
    if ct.assembled:
        found.append(Option(tr("ui.ct.manage"), _manage(0)))
    return found


def _paid_options(
    state: GameState, ct: ContraptionsState, form: ContraptionsForm, tr: Translator
) -> list[Option]:
    paid = Option(tr("ui.ct.roll_paid", cost=next_roll_cost(state)), sends(RollContraptionDie()))
    return [paid, *_idle_options(state, ct, form, tr)]


#: The chips of each of mode()'s answers.
_OPTIONS: dict[
    str, Callable[[GameState, ContraptionsState, ContraptionsForm, Translator], list[Option]]
] = {
    "place": _decline_options,
    "tap": _decline_options,
    "library": _library_options,
    "look": _look_options,
    "crank": _crank_options,
    "roll": _roll_options,
    "assemble": _assemble_options,
    "manage": _manage_options,
    "card": _manage_options,
    "paid": _paid_options,
    "idle": _idle_options,
}


def options(state: GameState, form: ContraptionsForm, tr: Translator) -> list[Option]:
    """The chips for the pending choice, in the order the encoder walks them."""
    ct = state.contraptions
    if ct is None:
        return []
    return _OPTIONS[mode(state, form)](state, ct, form, tr)


def _board(ct: ContraptionsState, seat: int) -> int | None:
    return None if ct.variant.shared_sprockets else seat


class Contraptions(Screen):
    name = NAME
    button = "ui.btn.contraptions"
    key = "c"
    upkeep_items = staticmethod(_contraptions_upkeep)

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.contraptions is not None

    def tag_kinds(self, state: GameState) -> frozenset[CardKind]:
        own = frozenset({CardKind.CONTRAPTION})
        return own if state.has("contraptions") else frozenset()

    def follows(self, events: Sequence[Event]) -> bool:
        """The die, a revealed or tapped card, a library to choose and the counter's move
        (CT-7) need the table's eyes here."""
        shown = (
            ContraptionUpkeepBegan,
            ContraptionDieRolled,
            ContraptionRevealed,
            ContraptionIdentified,
            AssemblyExpected,
            AssemblyLibraryChosen,
            ContraptionSelected,
            CrankCounterMoved,
        )
        return any(isinstance(e, shown) for e in events)

    def after(self, host: Host, result: Result) -> None:
        card: tuple[str, int] | None = None
        for event in result.events:
            if isinstance(event, ContraptionSelected):  # a tapped card that is assembled already
                card = (event.card, event.owner)
        host.ui.put(ContraptionsForm(card=card))
        # A new turn is also claimed by the table; the upkeep's contraption part is shown here,
        # with the banner's items, when the turn begins with something to do or see.
        if (
            host.ui.screen != self.name
            and self.available(host.state)
            and self.follows(result.events)
        ):
            host.go(self.name)

    # -- acting ---------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None or state.contraptions is None:
            return False
        form = host.ui.put(host.ui.state_of(ContraptionsForm))
        kind = mode(state, form)
        if kind == "place":
            return self._place(host, action)
        if isinstance(action, SprocketTap) and kind in ("idle", "paid", "manage", "card"):
            ct = state.contraptions
            sprocket = action.sprocket
            if on_sprocket(ct, _board(ct, _shown(state, ct, form).seat), sprocket):
                _manage(sprocket)(host, form)
            return True
        chips = options(state, form, host.tr)
        if isinstance(action, OptionScroll):
            # A scroll marker: the next hidden chip.
            host.ui.put(replace(form, pick=action.index % max(1, len(chips))))
            return True
        if isinstance(action, PickOption):
            index = action.index
            if 0 <= index < len(chips):
                chips[index].pick(host, host.ui.put(replace(form, pick=index)))
            return True
        if not chips:
            return False
        pick = form.pick % len(chips)
        step = chip_step(action)
        if step is not None:
            host.ui.put(replace(form, pick=(pick + step) % len(chips)))
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            chips[pick].pick(host, form)
            return True
        return False

    def _place(self, host: Host, action: Action) -> bool:
        step = chip_step(action)
        if step is not None:
            host.execute(HighlightSprocket(step=step))
            return True
        if isinstance(action, Press) and action.button is Button.SELECT:
            if action.long:
                host.execute(HighlightSprocket(step=1))
            else:
                host.press(action)  # the binding: PlaceContraption()
            return True
        if isinstance(action, SprocketTap):
            host.execute(PlaceContraption(sprocket=action.sprocket))
            return True
        if isinstance(action, PickOption):
            host.execute(DeclineAssembly())
            return True
        return False

    # -- drawing --------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None and state.contraptions is not None
        ct = state.contraptions
        c, lay = view.canvas, view.layout
        info = _shown(state, ct, view.ui.state_of(ContraptionsForm))
        x, y = lay.margin, view.top
        w, h = c.width - 2 * lay.margin, view.bottom - view.top
        moving = info.moved_from is not None and info.moved_to is not None
        head_h = c.fonts.line_height(lay.big if moving else lay.medium, True)
        self._draw_head(view, state, ct, info, (x, y, w, head_h))
        body_y = y + head_h + lay.margin // 2
        body_h = y + h - body_y
        side_w = w * 9 // 20
        rows: Rect = (x, body_y, w - side_w - lay.margin, body_h)
        side: Rect = (x + w - side_w, body_y, side_w, body_h)
        self._draw_sprockets(view, state, ct, info, rows)
        self._draw_side(view, state, ct, info, side)

    def _draw_head(
        self, view: View, state: GameState, ct: ContraptionsState, info: UpkeepView, area: Rect
    ) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        title = (
            tr("ui.ct.board_shared")
            if ct.variant.shared_sprockets
            else tr("ui.ct.board_of", name=info.name)
        )
        if info.moved_from is not None and info.moved_to is not None:
            words, color, role = (
                [tr("ui.ct.move", start=info.moved_from, end=info.moved_to)],
                theme.CURSOR,
                "ct.move",
            )
        elif info.counter is not None:
            words, color, role = (
                [tr("ui.ct.counter", sprocket=info.counter)],
                theme.DIM,
                "ct.counter",
            )
        else:
            words, color, role = (
                [tr("ui.ct.no_counter"), tr("ui.ct.no_counter.short")],
                theme.DIM,
                "ct.counter",
            )
        size = lay.big if role == "ct.move" else lay.medium
        bold = role == "ct.move"
        # The counter is what the table acts on: it keeps its room, the title takes the rest.
        text, used = one_line(view, words, w * 11 // 20, size, lay.small, bold=bold)
        right = c.text(
            text,
            (x + w, y + h // 2),
            used,
            color,
            anchor="midright",
            bold=bold,
            max_width=w * 11 // 20,
            role=role,
            min_size=lay.small,
        )
        c.text(
            title,
            (x, y + h // 2),
            lay.medium,
            theme.TEXT,
            anchor="midleft",
            bold=True,
            max_width=right.left - lay.margin - x,
            role="ct.title",
            min_size=lay.tiny,
        )

    def _draw_sprockets(
        self, view: View, state: GameState, ct: ContraptionsState, info: UpkeepView, area: Rect
    ) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        gap = max(2, lay.margin // 2)
        row_h = (h - 2 * gap) // 3
        job = ct.assembly
        placing = job is not None and job.card is not None
        order = view.ui.state_of(ContraptionsForm).order
        board = _board(ct, info.seat)
        label_w = c.fonts.measure("CRANK!", lay.tiny, True)[0] + lay.margin
        for index, sprocket in enumerate(SPROCKETS):
            rect = (x, y + index * (row_h + gap), w, row_h)
            cranks = info.sprocket == sprocket
            c.box(rect, theme.ACTIVE if cranks else theme.PANEL)
            if cranks:
                c.box(rect, theme.ACTIVE_EDGE, width=max(2, lay.line))
            highlighted = placing and job is not None and job.highlight == sprocket
            if highlighted:
                c.box(rect, theme.CURSOR, width=max(3, lay.line * 2))
            rx, ry, rw, rh = rect
            # The sprocket's number, and the counter under it when it sits here.
            number_size = min(lay.big, max(lay.small, rh * 3 // 5))
            counter_here = info.counter == sprocket
            cy = ry + rh // 2 - (c.fonts.line_height(lay.tiny) // 2 if counter_here else 0)
            c.text(
                str(sprocket),
                (rx + lay.margin + label_w // 2, cy),
                number_size,
                theme.TEXT,
                anchor="center",
                bold=True,
                role=f"ct.sprocket{sprocket}.number",
            )
            if counter_here:
                c.text(
                    "CRANK!",
                    (rx + lay.margin + label_w // 2, ry + rh - gap),
                    lay.tiny,
                    theme.CURSOR,
                    anchor="midbottom",
                    bold=True,
                    role="ct.counter_at",
                    max_width=label_w,
                )
            names = [a.card for a in on_sprocket(ct, board, sprocket)]
            tx = rx + 2 * lay.margin + label_w
            tw = rx + rw - lay.margin - tx
            lines: list[tuple[str, tuple[int, int, int], str]] = []
            if highlighted and job is not None and job.card is not None:
                lines.append((tr("ui.ct.here", card=job.card), theme.CURSOR, "ct.highlight"))
            for card in names:
                label = f"{order.index(card) + 1}. {card}" if cranks and card in order else card
                if cranks and card in info.cranked:
                    label = f"✓ {card}"
                lines.append((label, theme.TEXT, f"ct.sprocket{sprocket}.card"))
            if not lines:
                lines.append((tr("ui.ct.empty"), theme.FAINT, f"ct.sprocket{sprocket}.empty"))
            self._draw_lines(
                view, lines, (tx, ry + gap, tw, rh - 2 * gap), cranks, f"ct.sprocket{sprocket}.more"
            )
            c.target(rect, SprocketTap(sprocket))

    def _draw_lines(
        self,
        view: View,
        lines: list[tuple[str, tuple[int, int, int], str]],
        area: Rect,
        cranks: bool,
        more: str,
    ) -> None:
        """One name after another, each on a line or wrapped on two, as big as fits; what does not
        fit even at the smallest size is counted on a last line ("+2")."""
        c, lay = view.canvas, view.layout
        x, y, w, h = area
        largest = lay.medium if cranks else lay.small

        def plan(size: int, count: int) -> list[list[str]] | None:
            found = []
            for text, _, _ in lines[:count]:
                wrapped = c.wrapped(text, size, w, bold=cranks)
                if wrapped is None or len(wrapped) > 2:
                    return None
                found.append(wrapped)
            return found

        step = c.fonts.line_height(lay.tiny, cranks)
        shown: list[list[str]] = []
        size = lay.tiny
        for count in range(len(lines), 0, -1):
            tail = 1 if count < len(lines) else 0  # the line that counts the rest
            for candidate in range(largest, lay.tiny - 1, -1):
                wrapped = plan(candidate, count)
                step = c.fonts.line_height(candidate, cranks)
                if wrapped is not None and (sum(map(len, wrapped)) + tail) * step <= h:
                    shown, size = wrapped, candidate
                    break
            if shown:
                break
        if not shown:  # not even one name: the first, cut to its line
            shown, size = [[lines[0][0]]], lay.tiny
        step = c.fonts.line_height(size, cranks)
        rest = len(lines) - len(shown)
        top = y + (h - step * (sum(map(len, shown)) + (1 if rest else 0))) // 2
        for (text, color, role), name_lines in zip(lines, shown, strict=False):
            height = len(name_lines) * step
            c.paragraph(
                text, (x, top, w, height), size, color, role=role, bold=cranks, min_size=size
            )
            top += height
        if rest:
            c.text(f"+{rest}", (x, top), size, theme.DIM, bold=True, role=more, min_size=size)

    def _draw_side(
        self, view: View, state: GameState, ct: ContraptionsState, info: UpkeepView, area: Rect
    ) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        c.box(area, theme.PANEL)
        pad = lay.margin
        gap = max(2, lay.margin // 2)
        ix, iw = x + pad, w - 2 * pad
        top, bottom = y + pad // 2, y + h - pad // 2
        form = view.ui.state_of(ContraptionsForm)
        kind = mode(state, form)
        chips = options(state, form, tr)
        items = [
            Chip(chip.label, PickOption(index), chip.marked, chip.short)
            for index, chip in enumerate(chips)
        ]
        parts = self._heading(view, state, ct, info, kind)
        news = kind in ("idle", "paid")
        # The chips keep room for three of them (every one, with nothing to decide); the heading's
        # hints and details give way first, the largest type shrinks next.
        wanted = len(chips) if news else min(len(chips), 3)
        fitted = [part.fit(view, iw) for part in parts]

        def capacity(room: int) -> int:
            if room < lay.touch:
                return 0
            cols, whole = grid_columns(view, (ix, 0, iw, room), items, COLUMNS, largest=lay.medium)
            return len(chips) if whole else cols * max(1, (room + gap) // (lay.touch + gap))

        def used() -> int:
            return sum(
                f[1] + part.after for part, f in zip(parts, fitted, strict=True) if f is not None
            )

        while capacity(bottom - top - used()) < wanted:
            drop = [i for i, part in enumerate(parts) if part.drop and fitted[i] is not None]
            shrink = [
                i
                for i, part in enumerate(parts)
                if fitted[i] is not None and part.shrunk is not None
            ]
            if drop:
                fitted[max(drop, key=lambda i: parts[i].drop)] = None
            elif shrink:
                i = shrink[0]
                parts[i] = parts[i].smaller()
                fitted[i] = parts[i].fit(view, iw)
            else:
                break
        ty = top
        for part, fit in zip(parts, fitted, strict=True):
            if fit is None:
                continue
            block(view, part.text, (ix, ty), iw, fit[0], part.color, part.role, bold=part.bold)
            ty += fit[1] + part.after
        if not chips:
            return
        if news:
            # Nothing to decide: the chips at the bottom, the table's news above them.
            cols, _ = grid_columns(
                view, (ix, 0, iw, bottom - ty), items, COLUMNS, largest=lay.medium
            )
            grid_h = min(grid_height(view, len(chips), cols), max(lay.touch, bottom - ty))
            self._draw_idle(view, state, ct, (ix, ty, iw, bottom - grid_h - gap - ty))
            ty = bottom - grid_h
        pick = form.pick % len(chips)
        cursor = None if kind == "place" else pick
        chip_grid(
            view,
            (ix, ty, iw, bottom - ty),
            items,
            cursor,
            "ct.option",
            OptionScroll,
            columns=COLUMNS,
            largest=lay.medium,
        )

    def _die_meaning(
        self, tr: Translator, state: GameState, ct: ContraptionsState, info: UpkeepView
    ) -> str:
        face = info.faces[0]
        if ct.variant is Variant.RANDOM:
            return (
                tr("ui.ct.die.crank", sprocket=face)
                if face <= 3
                else tr("ui.ct.die.assemble", count=face - 3)
            )
        if ct.variant is Variant.FACTIONS:
            numbers = sorted({n for f in info.faces for n in (range(1, 6) if f == 6 else (f,))})
            return tr("ui.ct.die.library", libraries=", ".join(str(n) for n in numbers))
        return ""

    def _heading(
        self, view: View, state: GameState, ct: ContraptionsState, info: UpkeepView, kind: str
    ) -> list[Part]:
        """What the side panel says above the chips: the die and what it means, then the pending
        choice's heading and its hint."""
        lay = view.layout
        parts = self._die_parts(view, state, ct, info)
        if parts:
            parts[-1] = replace(parts[-1], after=lay.margin // 2)
        parts += self._task_parts(view, state, ct, kind)
        if parts:
            parts[-1] = replace(parts[-1], after=max(parts[-1].after, lay.margin // 2))
        return parts

    def _die_parts(
        self, view: View, state: GameState, ct: ContraptionsState, info: UpkeepView
    ) -> list[Part]:
        lay, tr = view.layout, view.tr
        if not info.faces:
            return []
        faces = " · ".join(str(f) for f in info.faces)
        parts = [
            Part(
                tr("ui.ct.die", faces=faces),
                lay.big,
                lay.medium,
                theme.WALK,
                "ct.die",
                bold=True,
                lines=1,
                shrunk=lay.small,
            )
        ]
        up = current_upkeep(state)
        meaning = (
            self._die_meaning(tr, state, ct, info)
            if up is not None and up.stage is not Stage.DONE
            else ""
        )
        if meaning:
            parts.append(Part(meaning, lay.small, lay.tiny, theme.DIM, "ct.die.meaning", drop=2))
        return parts

    def _task_parts(
        self, view: View, state: GameState, ct: ContraptionsState, kind: str
    ) -> list[Part]:
        """The pending choice's heading and its hint (which gives way first, ``drop=3``)."""
        lay, tr = view.layout, view.tr
        job = ct.assembly
        who = state.player(job.seat).name if job is not None else ""
        hint = 3
        parts: list[Part] = []
        if kind == "place" and job is not None and job.card is not None:
            parts.append(
                Part(
                    tr("ui.ct.revealed", name=who),
                    lay.small,
                    lay.tiny,
                    theme.DIM,
                    "ct.task",
                    drop=1,
                )
            )
            parts.append(
                Part(
                    job.card,
                    lay.big,
                    lay.small,
                    theme.CURSOR,
                    "ct.card",
                    bold=True,
                    shrunk=lay.tiny,
                )
            )
            parts.append(
                Part(
                    tr("ui.ct.place_hint", sprocket=job.highlight),
                    lay.tiny,
                    lay.tiny,
                    theme.TEXT,
                    "ct.hint",
                    drop=hint,
                )
            )
        elif kind in ("look", "library", "tap") and job is not None:
            parts.append(
                Part(
                    f"{who}: {tr.message(_job_message(state, job))}",
                    lay.small,
                    lay.tiny,
                    theme.TEXT,
                    "ct.task",
                    bold=True,
                    lines=3,
                )
            )
            if kind == "tap":
                parts.append(
                    Part(
                        library_text(tr, state, job.libraries[0]),
                        lay.small,
                        lay.tiny,
                        theme.DIM,
                        "ct.library",
                        drop=1,
                    )
                )
            if kind == "look":
                parts.append(
                    Part(tr("ui.ct.look_hint"), lay.tiny, lay.tiny, theme.DIM, "ct.hint", drop=hint)
                )
        elif kind == "crank":
            up = current_upkeep(state)
            assert up is not None
            parts.append(
                Part(
                    tr("ui.ct.crank_title", name=state.player(up.seat).name, sprocket=up.sprocket),
                    lay.small,
                    lay.tiny,
                    theme.TEXT,
                    "ct.task",
                    bold=True,
                    lines=3,
                )
            )
            parts.append(
                Part(tr("ui.ct.crank_hint"), lay.tiny, lay.tiny, theme.DIM, "ct.hint", drop=hint)
            )
        elif kind == "roll":
            parts.append(
                Part(
                    tr.message(Message("ct.banner.roll")),
                    lay.medium,
                    lay.tiny,
                    theme.TEXT,
                    "ct.task",
                    bold=True,
                    lines=3,
                    shrunk=lay.small,
                )
            )
        elif kind == "assemble":
            seat = view.ui.state_of(ContraptionsForm).assembler
            text = (
                f"{state.player(seat).name}: {tr('ui.ct.choose_library')}"
                if seat is not None
                else tr("ui.ct.assemble_who")
            )
            parts.append(Part(text, lay.small, lay.tiny, theme.TEXT, "ct.task", bold=True, lines=3))
        elif kind == "manage":
            parts.append(
                Part(
                    tr("ui.ct.manage_which"),
                    lay.small,
                    lay.tiny,
                    theme.TEXT,
                    "ct.task",
                    bold=True,
                    lines=3,
                )
            )
        elif kind == "paid":
            parts.append(
                Part(
                    tr.message(Message("ct.banner.roll_cost", cost=next_roll_cost(state))),
                    lay.medium,
                    lay.tiny,
                    theme.CURSOR,
                    "ct.task",
                    bold=True,
                    lines=3,
                    shrunk=lay.small,
                )
            )
        elif kind == "card":
            # Tapped on the reader or picked on screen: its name, then whose it is and where.
            chosen = _picked(ct, view.ui.state_of(ContraptionsForm))
            assert chosen is not None
            parts.append(
                Part(
                    chosen.card,
                    lay.medium,
                    lay.tiny,
                    theme.CURSOR,
                    "ct.card",
                    bold=True,
                    shrunk=lay.small,
                )
            )
            parts.append(
                Part(
                    tr(
                        "ui.ct.selected",
                        name=state.player(chosen.owner).name,
                        sprocket=chosen.sprocket,
                    ),
                    lay.small,
                    lay.tiny,
                    theme.TEXT,
                    "ct.task",
                    lines=3,
                )
            )
        return parts

    def _draw_idle(self, view: View, state: GameState, ct: ContraptionsState, area: Rect) -> None:
        """Nothing to decide: what was cranked, the stopped machine, the libraries, the scrapyard
        — as many as the room holds, each whole (on two lines where one is too narrow)."""
        c, lay = view.canvas, view.layout
        x, ty, w, h = area
        lines = self._idle_lines(view.tr, state, ct)
        bottom = ty + h
        # One size for every line, the largest at which they all fit; else the first ones at the
        # smallest, as many as fit.
        size = lay.tiny
        for candidate in range(lay.small, lay.tiny - 1, -1):
            wrapped = [c.wrapped(text, candidate, w) for text, _, _ in lines]
            if (
                all(x is not None and len(x) <= 2 for x in wrapped)
                and sum(len(x or []) for x in wrapped) * c.fonts.line_height(candidate) <= h
            ):
                size = candidate
                break
        for index, (text, color, role) in enumerate(lines):
            fitted = wrap_fit(view, text, w, size, smallest=size)
            if fitted is None or ty + len(fitted[1]) * c.fonts.line_height(size) > bottom:
                break
            if role == "ct.libraries" and index + 1 < len(lines):
                # A heading only with at least one of its lines under it.
                following = wrap_fit(view, lines[index + 1][0], w, size, smallest=size)
                if (
                    following is None
                    or ty + (len(fitted[1]) + len(following[1])) * c.fonts.line_height(size)
                    > bottom
                ):
                    break
            ty += block(view, text, (x, ty), w, fitted, color, role)

    def _idle_lines(
        self, tr: Translator, state: GameState, ct: ContraptionsState
    ) -> list[tuple[str, tuple[int, int, int], str]]:
        """The table's news, each with its colour and role, in the order shown: the last give way
        first where the room is short."""
        up = current_upkeep(state)
        lines: list[tuple[str, tuple[int, int, int], str]] = []
        if up is not None and up.stage is Stage.DONE and up.sprocket is not None:
            if up.cranked:
                lines.append(
                    (tr("ui.ct.cranked", cards=", ".join(up.cranked)), theme.TEXT, "ct.cranked")
                )
            else:
                lines.append((tr("ui.ct.cranked_none"), theme.DIM, "ct.cranked"))
        info = upkeep_view(state)
        if info is not None and any(m.key == "ct.banner.stopped" for m in info.banner):
            lines.append((tr.message(Message("ct.banner.stopped")), theme.WARN, "ct.stopped"))
        seat = state.active
        scrapped = sum(
            1
            for g in ct.scrapyard
            if (ct.variant.shared_sprockets or g.owner == seat) and not g.is_copy
        )
        key = "ui.ct.scrapyard_shared" if ct.variant.shared_sprockets else "ui.ct.scrapyard"
        lines.append((tr(key, count=scrapped), theme.TEXT, "ct.scrapyard"))
        if ct.variant is Variant.FACTIONS and not ct.physical:
            # The faction libraries lie face up (CT-A1): their top cards are the table's news.
            lines.append((tr("ui.ct.factions"), theme.DIM, "ct.libraries"))
            for library in ct.libraries:
                top = library.cards[0] if library.cards else tr("ui.ct.empty")
                text = tr(
                    "ui.ct.faction_top", number=library.faction, count=len(library.cards), card=top
                )
                lines.append((text, theme.TEXT, "ct.library"))
            return lines
        for index, library in enumerate(ct.libraries):
            if library.owner is not None and library.owner != seat:
                continue
            name = library_text(tr, state, index)
            if library.open:
                text = tr("ui.ct.library_physical", library=name)
            else:
                text = tr("ui.ct.library", library=name, count=len(library.cards))
            lines.append((text, theme.DIM, "ct.library"))
        return lines


#: The side panel's chips in one column, or two where that shows them all.
COLUMNS = (1, 2)


class Part(Struct, frozen=True):
    """A line of the side panel's heading: wrapped on up to ``lines`` lines, from ``largest`` down
    to ``smallest``; ``drop`` > 0: it gives way to the chips (the highest first); ``shrunk``: the
    smaller ``largest`` it takes before anything else gives way."""

    text: str
    largest: int
    smallest: int
    color: tuple[int, int, int]
    role: str
    bold: bool = False
    lines: int = 2
    drop: int = 0
    shrunk: int | None = None
    after: int = 0

    def fit(self, view: View, width: int) -> tuple[tuple[int, list[str]], int] | None:
        """How it fits ``width`` and how tall it is; where it fits at none of its sizes, its first
        line as small as allowed (the canvas records it as cut)."""
        fitted = wrap_fit(
            view,
            self.text,
            width,
            self.largest,
            smallest=self.smallest,
            lines=self.lines,
            bold=self.bold,
        )
        if fitted is None:
            fitted = wrap_fit(
                view,
                self.text,
                width,
                self.smallest,
                smallest=self.smallest,
                lines=99,
                bold=self.bold,
            )
            if fitted is None:
                fitted = (self.smallest, [self.text])
        return fitted, len(fitted[1]) * view.canvas.fonts.line_height(fitted[0], self.bold)

    def smaller(self) -> Part:
        assert self.shrunk is not None
        return replace(
            self, largest=self.shrunk, smallest=min(self.smallest, self.shrunk), shrunk=None
        )


def one_line(
    view: View, words: Sequence[str], width: int, largest: int, smallest: int, *, bold: bool = False
) -> tuple[str, int]:
    """The first of ``words`` (longest first) that fits ``width`` on one line, and its size."""
    canvas = view.canvas
    for text in words:
        for size in range(largest, smallest - 1, -1):
            if canvas.measure(text, size, bold=bold) <= width:
                return text, size
    return words[-1], smallest


def _shown(state: GameState, ct: ContraptionsState, form: ContraptionsForm) -> UpkeepView:
    """Whose sprockets the screen shows: the active player's, or, while another player assembles
    (a card told them to, on someone else's turn) or another player's contraption is picked,
    that player's, with their own counter."""
    info = upkeep_view(state)
    assert info is not None
    job = ct.assembly
    picked = _picked(ct, form)
    seat = info.seat
    if job is not None:
        seat = job.seat
    elif picked is not None and picked.board is not None:
        seat = picked.board
    if ct.variant.shared_sprockets or seat == info.seat:
        return info
    counter = ct.counters[seat] if seat < len(ct.counters) else None
    # The rules' view is a standard-library dataclass (the rules import nothing but it and pydantic).
    return dataclasses.replace(
        info,
        seat=seat,
        name=state.player(seat).name,
        counter=counter,
        moved_from=None,
        moved_to=None,
        sprocket=None,
        cranking=(),
        cranked=(),
        faces=(),
        banner=(),
    )


def _job_message(state: GameState, job: Assembly) -> Message:
    """The banner's words for an assembly, with the library names as messages to translate."""
    message = job_banner(state, job)
    if message.key == "ct.banner.choose_library":
        return Message("ui.ct.choose_library")
    return message
