"""Wizard's Duel (SPEC section 6, WD-1, WD-2): a spell card described on the kiosk, as printed.

The gadget does not know the game's cards, so a player describes each one once: a starting card
(one of the character's three) at set-up or in phase 1, or a market card learned in phase 2 —
then the mana-pool dice that pay its full cost too.  The duel's table opens this form from its
chips ("Ala: new card (1/3)", "Market card 2"); saving sends ``DefineSpellCard`` or
``LearnSpell`` through the controller and goes back to the table, and a refusal shows the rules'
reason on the status line while the form stays open to be put right.

Rows, top to bottom: the name, the level (none, 0, 1, 2), the first spell's kind, strength,
school (and, for an area spell, the damage to everyone else), a second spell on or off (and its
fields), for a learned card one row per school in the mana pool (how many of those dice pay),
then save and cancel.  As on the set-up screen: SELECT (Tab) or ←/→ move between rows, the
encoder (↑/↓) changes the row's value, NEXT (Enter) saves (on the name row it moves on), a tap
picks a row and a second tap changes it, − and + change it by touch, Esc cancels.  On the name
row a keyboard types the name; the first letter typed replaces the suggested one ("Card 2": the
player's cards numbered), which stays when nobody types.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import Struct, field
from msgspec.structs import replace

from device.inputs import Button
from device.rules.wizards_duel.queries import (
    BASIC_CARDS,
    MAX_CARD_NAME,
    MAX_STRENGTH,
    basic_cards,
    faces_text,
    spells_text,
)
from device.rules.wizards_duel.commands import DefineSpellCard, LearnSpell
from device.state import GameState
from device.rules.wizards_duel.state import Face, Spell, SpellKind, Wizard
from device.text import Message
from device.rules.registry import outcome
from display import theme
from display.chips import block, chip_label, inset, marker_width, scroll_markers, wrap_fit
from display.i18n import Translator
from display.screens import Host, Screen, View, cycle
from display.ui import Action, Back, Erase, Focus, Line, Press, Tap, Turn, Type, UiState

NAME = "wd_card"
LEVELS: tuple[int | None, ...] = (None, 0, 1, 2)
KINDS = tuple(SpellKind)
SCHOOLS = tuple(Face)
ERROR_SECONDS = 8.0  # as long as the kiosk shows a refused command's reason

Row = tuple[str, str]  # (kind, key): key is the spell's index, or a school for a cost row


class CardRow(Tap, frozen=True):
    """A row of the card's form: picked, or changed when it was picked already."""

    row: int


class CardStep(Tap, frozen=True):
    """A row's − or +: the row changed by ``steps``."""

    row: int
    steps: int


class SpellDraft(Struct, frozen=True):
    kind: SpellKind = SpellKind.OFFENSIVE
    strength: int = 3
    school: Face = Face.MAGIC
    others: int = 1  # an area spell's damage to everyone else

    def spell(self) -> Spell:
        others = self.others if self.kind is SpellKind.AREA else 0
        return Spell(kind=self.kind, strength=self.strength, school=self.school, others=others)


class CardForm(Struct, frozen=True):
    """A spell card being described (a starting card, or a market card being learned)."""

    seat: int
    slot: int | None = None  # the market card being learned (1-based); None: a starting card
    name: str = ""
    suggested: bool = True  # the name is the suggestion: the first letter typed replaces it
    level: int | None = None
    spells: tuple[SpellDraft, ...] = (SpellDraft(), SpellDraft())
    second: bool = False
    # Dice of each school paying a learned card; replaced whole, never changed in place.
    cost: Mapping[Face, int] = field(default_factory=dict)
    row: int = 0

    def drafted(self) -> tuple[Spell, ...]:
        return tuple(draft.spell() for draft in self.spells[: 2 if self.second else 1])

    def dice(self, pool: tuple[Face, ...]) -> tuple[Face, ...]:
        return tuple(
            face for face in SCHOOLS for _ in range(min(self.cost.get(face, 0), pool.count(face)))
        )


def needs_cards(wizard: Wizard) -> bool:
    return basic_cards(wizard) < BASIC_CARDS


def suggested_name(tr: Translator, wizard: Wizard) -> str:
    """ "Card N", N the player's next card, past any name the player has already."""
    taken = {card.name.casefold() for card in wizard.cards}
    number = len(wizard.cards) + 1
    while tr("ui.wd.card.default_name", n=number).casefold() in taken:
        number += 1
    return tr("ui.wd.card.default_name", n=number)


def open_form(
    host: Host, seat: int, slot: int | None = None, picked: tuple[Face, ...] = ()
) -> None:
    """Show a fresh form for ``seat``'s next starting card, or for learning market card ``slot``
    (``picked``: the pool dice already picked on the table, as the suggested payment)."""
    state = host.state
    assert state is not None and state.wizards_duel is not None
    wizard = state.wizards_duel.wizard(seat)
    form = CardForm(
        seat=seat,
        slot=slot,
        name=suggested_name(host.tr, wizard),
        cost={face: picked.count(face) for face in SCHOOLS if face in picked},
    )
    host.ui.put(form)
    host.go(NAME)


def rows(form: CardForm, pool: tuple[Face, ...]) -> list[Row]:
    found: list[Row] = [("name", ""), ("level", "")]
    for index in range(2 if form.second else 1):
        key = str(index)
        found += [("kind", key), ("strength", key), ("school", key)]
        if form.spells[index].kind is SpellKind.AREA:
            found.append(("others", key))
        if index == 0:
            found.append(("second", ""))
    if form.slot is not None:
        found += [("cost", face.value) for face in SCHOOLS if face in pool]
    found += [("save", ""), ("cancel", "")]
    return found


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _changed(draft: SpellDraft, kind: str, steps: int) -> SpellDraft:
    """A spell's row ``kind`` turned ``steps``."""
    if kind == "kind":
        return replace(draft, kind=cycle(KINDS, draft.kind, steps))
    if kind == "strength":
        return replace(draft, strength=_clamp(draft.strength + steps, 1, MAX_STRENGTH))
    if kind == "school":
        return replace(draft, school=cycle(SCHOOLS, draft.school, steps))
    if kind == "others":
        return replace(draft, others=_clamp(draft.others + steps, 0, MAX_STRENGTH))
    return draft


class WizardsDuelCard(Screen):
    name = NAME
    button = ""  # opened from the duel's table, never from the touch bar
    key = ""

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.wizards_duel is not None and outcome(state) is None

    def form(self, ui: UiState) -> CardForm | None:
        return ui.kept(CardForm)

    def _pool(self, state: GameState | None, form: CardForm) -> tuple[Face, ...]:
        if state is None or state.wizards_duel is None or form.slot is None:
            return ()
        return state.wizards_duel.wizard(form.seat).pool

    def _rows(self, state: GameState | None, form: CardForm) -> tuple[CardForm, list[Row]]:
        """The form's rows, and the form with its cursor on one of them (kept only when an
        action changes it: drawing keeps nothing)."""
        table = rows(form, self._pool(state, form))
        return replace(form, row=_clamp(form.row, 0, len(table) - 1)), table

    def wants_text(self, ui: UiState) -> bool:
        form = self.form(ui)
        # Only the name row is ever first (index 0), whatever else the form shows.
        return form is not None and form.row == 0

    # -- acting -----------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        form = self.form(host.ui)
        if form is None:
            host.go("table")
            return True
        form, table = self._rows(host.state, form)
        kind, key = table[form.row]
        if isinstance(action, Focus):
            host.ui.put(replace(form, row=(form.row + action.delta) % len(table)))
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            if kind in ("save", "cancel"):
                self._finish(host, form, kind)
            else:
                host.ui.put(replace(form, row=(form.row + 1) % len(table)))
            return True
        if isinstance(action, Turn):
            host.ui.put(self._change(host.state, form, kind, key, action.steps))
            return True
        if isinstance(action, Type | Erase) and kind == "name":
            host.ui.put(self._edit_name(form, action))
            return True
        if isinstance(action, Press) and action.button is Button.NEXT:
            if kind == "name":
                host.ui.put(replace(form, row=form.row + 1))
            else:
                self._finish(host, form, "save")
            return True
        if isinstance(action, Tap):
            return self._tap(host, form, table, action)
        if isinstance(action, Back):
            self._finish(host, form, "cancel")
            return True
        return isinstance(action, (Type, Erase))  # typed keys never leak into shortcuts here

    @staticmethod
    def _edit_name(form: CardForm, action: Type | Erase) -> CardForm:
        """A key typed or erased on the name row: the first replaces the suggested name."""
        if isinstance(action, Erase):
            return replace(form, name="" if form.suggested else form.name[:-1], suggested=False)
        text = "".join(ch for ch in action.text if ch.isprintable())
        if text:
            return replace(
                form,
                name=(("" if form.suggested else form.name) + text)[:MAX_CARD_NAME],
                suggested=False,
            )
        return form

    def _tap(self, host: Host, form: CardForm, table: list[Row], tap: Tap) -> bool:
        """A touch on a row picks it, a second one changes it (save and cancel act at once); a
        touch on its − or + changes it."""
        if isinstance(tap, CardStep):
            row = tap.row
            if 0 <= row < len(table):
                host.ui.put(
                    self._change(host.state, replace(form, row=row), *table[row], tap.steps)
                )
            return True
        if not isinstance(tap, CardRow):
            return False
        row = tap.row
        if not 0 <= row < len(table):
            return True
        if table[row][0] in ("save", "cancel"):
            self._finish(host, host.ui.put(replace(form, row=row)), table[row][0])
            return True
        if row == form.row:
            form = self._change(host.state, form, *table[row], 1)
        host.ui.put(replace(form, row=row))
        return True

    def _change(
        self, state: GameState | None, form: CardForm, kind: str, key: str, steps: int
    ) -> CardForm:
        """``form`` with row ``(kind, key)`` turned ``steps``."""
        if kind == "level":
            return replace(form, level=cycle(LEVELS, form.level, steps))
        if kind == "second":
            return replace(form, second=not form.second)
        if kind == "cost":
            face = Face(key)
            count = _clamp(form.cost.get(face, 0) + steps, 0, self._pool(state, form).count(face))
            return replace(form, cost={**form.cost, face: count})
        if key not in ("0", "1"):
            return form
        index = int(key)
        draft = _changed(form.spells[index], kind, steps)
        return replace(
            form, spells=tuple(draft if i == index else d for i, d in enumerate(form.spells))
        )

    def _finish(self, host: Host, form: CardForm, kind: str) -> None:
        if kind == "cancel":
            host.ui.drop(CardForm)
            host.go("table")
            return
        name = " ".join(form.name.split())
        if form.slot is None:
            result = host.execute(
                DefineSpellCard(seat=form.seat, name=name, level=form.level, spells=form.drafted())
            )
        else:
            dice = form.dice(self._pool(host.state, form))
            if not dice:
                # The rules' own refusal names typed faces; on the kiosk the dice are picked here.
                host.ui.error = Line(
                    Message("ui.wd.card.no_cost"), host.now() + ERROR_SECONDS, "ui.wd.card.no_cost"
                )
                return
            result = host.execute(
                LearnSpell(
                    seat=form.seat,
                    slot=form.slot,
                    name=name,
                    level=form.level,
                    spells=form.drafted(),
                    dice=dice,
                )
            )
        if result is not None:
            host.ui.drop(CardForm)
            host.go("table")

    # -- drawing ----------------------------------------------------------------------------

    def _title(self, tr: Translator, state: GameState, form: CardForm) -> str:
        assert state.wizards_duel is not None
        player = state.player(form.seat).name
        if form.slot is not None:
            return tr("ui.wd.card.title_learn", name=player, slot=form.slot)
        wizard = state.wizards_duel.wizard(form.seat)
        return tr("ui.wd.card.title", name=player, n=basic_cards(wizard) + 1, total=BASIC_CARDS)

    def _label(self, tr: Translator, kind: str, key: str) -> str:
        if kind in ("kind", "strength", "school", "others"):
            return tr(f"ui.wd.card.{kind}", n=int(key) + 1)
        if kind == "cost":
            return tr("ui.wd.card.cost", school=tr(f"wd.face.{key}"))
        return tr(f"ui.wd.card.{kind}")

    def _value(
        self, tr: Translator, form: CardForm, pool: tuple[Face, ...], kind: str, key: str
    ) -> str:
        draft = form.spells[int(key)] if key in ("0", "1") else None
        if kind == "name":
            return form.name
        if kind == "level":
            return tr("ui.wd.card.no_level") if form.level is None else str(form.level)
        if kind == "second":
            return tr("ui.wd.card.yes" if form.second else "ui.wd.card.no")
        if draft is not None and kind == "kind":
            return tr(f"wd.kind.{draft.kind.value}")
        if draft is not None and kind == "strength":
            return str(draft.strength)
        if draft is not None and kind == "school":
            return tr(f"wd.face.{draft.school.value}")
        if draft is not None and kind == "others":
            return str(draft.others)
        if kind == "cost":
            face = Face(key)
            return tr(
                "ui.wd.card.cost_value",
                n=min(form.cost.get(face, 0), pool.count(face)),
                of=pool.count(face),
            )
        return ""

    def draw(self, view: View) -> None:
        state = view.state
        form = self.form(view.ui)
        if state is None or state.wizards_duel is None or form is None:
            return
        c, lay, tr = view.canvas, view.layout, view.tr
        pool = self._pool(state, form)
        form, table = self._rows(state, form)
        x0, width = lay.margin, c.width - 2 * lay.margin
        gap = max(2, lay.margin // 2)
        # The title, and the keys' hint beside it where the title leaves room for it whole.
        title = self._title(tr, state, form)
        fitted = wrap_fit(view, title, width, lay.medium, bold=True) or (lay.tiny, [title])
        top = view.top + block(
            view, title, (x0, view.top), width, fitted, theme.CURSOR, "wd.card.title", bold=True
        )
        top += max(0, lay.margin // 4)
        if len(fitted[1]) == 1:
            hint = tr("ui.wd.card.hint")
            room = width - c.fonts.measure(fitted[1][0], fitted[0], True)[0] - lay.margin
            if c.fonts.measure(hint, lay.tiny)[0] <= room:
                c.text(
                    hint,
                    (x0 + width, view.top + c.fonts.line_height(fitted[0], True) // 2),
                    lay.tiny,
                    theme.DIM,
                    anchor="midright",
                    role="wd.card.hint",
                    min_size=lay.tiny,
                )
        # The card as it will read in the log, so the whole description shows at a glance: in the
        # column of the save and cancel buttons where it fits there, else under the title.
        preview = f"{form.name or '…'}" + (f" [{form.level}]" if form.level is not None else "")
        preview += ": " + tr.message(spells_text(form.drafted()))
        if form.slot is not None:
            dice = form.dice(pool)
            preview += " · " + tr("ui.wd.card.paying", dice=tr.message(faces_text(dice)))
        fields = len(table) - 2
        buttons_w = max(width // 4, lay.touch * 2)
        rows_w = width - buttons_w - lay.margin
        column_x = x0 + width - buttons_w
        room = view.bottom - top
        beside = wrap_fit(view, preview, buttons_w, lay.small, lines=6)
        beside_h = len(beside[1]) * c.fonts.line_height(beside[0]) if beside is not None else room
        if beside is not None and beside_h + 2 * (lay.touch + gap) <= room:
            block(view, preview, (column_x, top), buttons_w, beside, theme.TEXT, "wd.card.preview")
            buttons_y = top + beside_h + gap
        else:
            across = (
                wrap_fit(view, preview, width, lay.small)
                or wrap_fit(view, preview, width, lay.tiny, lines=3)
                or (lay.tiny, [preview])
            )
            top += (
                block(view, preview, (x0, top), width, across, theme.TEXT, "wd.card.preview") + gap
            )
            room = view.bottom - top
            buttons_y = top
        # The card's rows, a fingertip tall, scroll with the highlight and say how many are hidden.
        visible = max(1, room // lay.touch)
        focus = min(form.row, fields - 1)
        first = min(max(0, focus - visible // 2), max(0, fields - visible))
        shown = range(first, min(fields, first + visible))
        side = 0 if len(shown) == fields else marker_width(view) + gap
        for slot, index in enumerate(shown):
            self._draw_row(
                view,
                form,
                pool,
                table[index],
                index,
                (x0, top + slot * lay.touch, rows_w - side, lay.touch),
            )
        if side:
            column = (x0 + rows_w - side + gap, top, side - gap, len(shown) * lay.touch)
            scroll_markers(
                view,
                column,
                shown.start,
                fields - shown.stop,
                "wd.card.more",
                (CardRow(shown.start - 1), CardRow(shown.stop)),
            )
        # Save and cancel in the right-hand column, so a finger always reaches them.
        button_h = max(lay.touch, min((view.bottom - buttons_y - gap) // 2, lay.touch * 2))
        for number, index in enumerate((fields, fields + 1)):
            kind = table[index][0]
            rect = (column_x, buttons_y + number * (button_h + gap), buttons_w, button_h)
            c.box(inset(rect), theme.ACTIVE if kind == "save" else theme.BUTTON)
            if index == form.row:
                c.box(inset(rect), theme.CURSOR, width=max(2, lay.line))
            label = tr(
                "ui.wd.card.learn"
                if kind == "save" and form.slot is not None
                else f"ui.wd.card.{kind}"
            )
            chip_label(view, rect, label, f"wd.card.{kind}", bold=index == form.row)
            c.target(rect, CardRow(index))

    def _draw_row(
        self,
        view: View,
        form: CardForm,
        pool: tuple[Face, ...],
        row: Row,
        index: int,
        rect: tuple[int, int, int, int],
    ) -> None:
        """A label, the value and, but for the name, − and + to touch."""
        c, lay, tr = view.canvas, view.layout, view.tr
        kind, key = row
        x0, y, width, row_h = rect
        focused = index == form.row
        if focused:
            c.box(inset(rect), theme.PANEL_HI)
            c.box(inset(rect), theme.CURSOR, width=max(1, lay.line))
        c.target(rect, CardRow(index))
        label = self._label(tr, kind, key)
        value = self._value(tr, form, pool, kind, key)
        if kind == "name" and focused:
            value += "_"
        right = x0 + width
        step_w = max(lay.touch, c.fonts.measure("+", lay.medium, True)[0] + 2 * lay.margin)
        columns = right - 2 * step_w  # every row's label and value in the same columns
        if kind != "name":
            # A number goes up or down by touch without tapping round its whole range.
            for sign, text in ((1, "+"), (-1, "−")):
                box = (right - step_w, y, step_w, row_h)
                c.box(inset(box), theme.BUTTON_HI if focused else theme.BUTTON)
                c.text(
                    text,
                    (box[0] + box[2] // 2, y + row_h // 2),
                    lay.medium,
                    theme.TEXT,
                    anchor="center",
                    bold=True,
                    role="wd.card.step",
                )
                c.target(box, CardStep(index, sign))
                right -= step_w
        color = theme.DIM if kind == "name" and form.suggested and not focused else theme.TEXT
        # The label and the value side by side; where the row is too narrow, the label over the
        # value (in fewer words, where it has them).
        inner = right - x0 - 2 * lay.margin
        label_w = (columns - x0 - 2 * lay.margin) * 9 // 20
        value_w = inner - label_w - lay.margin
        beside_label = next(
            (
                (size, lines)
                for size in range(lay.small, lay.tiny - 1, -1)
                if (lines := c.wrapped(label, size, label_w)) is not None
                and len(lines) <= 2
                and len(lines) * c.fonts.line_height(size) <= row_h
            ),
            None,
        )
        beside_value = wrap_fit(view, value, value_w, lay.small, lines=1, bold=focused)
        x = x0 + lay.margin
        if beside_label is not None and beside_value is not None:
            height = len(beside_label[1]) * c.fonts.line_height(beside_label[0])
            block(
                view,
                label,
                (x, y + (row_h - height) // 2),
                label_w,
                beside_label,
                theme.DIM,
                "wd.card.label",
            )
            height = c.fonts.line_height(beside_value[0], focused)
            block(
                view,
                value,
                (x + label_w + lay.margin, y + (row_h - height) // 2),
                value_w,
                beside_value,
                color,
                "wd.card.value",
                bold=focused,
            )
            return
        if kind == "others" and wrap_fit(view, label, inner, lay.small, lines=1) is None:
            label = tr("ui.wd.card.others.short", n=int(key) + 1)
        size = lay.tiny
        for candidate in range(lay.small, lay.tiny - 1, -1):
            if (
                c.fonts.line_height(candidate) + c.fonts.line_height(candidate, focused) <= row_h
                and c.fonts.measure(label, candidate)[0] <= inner
                and c.fonts.measure(value, candidate, focused)[0] <= inner
            ):
                size = candidate
                break
        line = c.fonts.line_height(size)
        top = y + (row_h - line - c.fonts.line_height(size, focused)) // 2
        c.text(
            label,
            (x, top),
            size,
            theme.DIM,
            max_width=inner,
            role="wd.card.label",
            min_size=lay.tiny,
        )
        c.text(
            value,
            (x, top + line),
            size,
            color,
            bold=focused,
            max_width=inner,
            role="wd.card.value",
            min_size=lay.tiny,
        )
