"""Enrolling a tag on the spot: an unknown tag was tapped, and the table says which card it is
(HW-3, PC-12, CT-6).

The status line offers it when the reader reads a tag the tag map does not know (a tap on the
offer, or SELECT).  The screen lists the cards that make sense in this game — planes and
phenomena with Planechase, contraptions with Contraptions, every card otherwise — in
alphabetical order, narrowed by the first letters of the name:

- ↑/↓ (the encoder) walk the list; SELECT (or NEXT, or a touch) picks the card, then asks to
  confirm: SELECT or NEXT enrols, UNDO goes back to the list;
- ←/→ change the first letter (the last letter chosen) to the next one any card has;
- holding SELECT puts the encoder on the letters: turning it shows the cards under each letter
  in turn, SELECT adds the letter and goes on to the next one, NEXT adds it and goes back to
  the cards, holding SELECT again goes back without it; UNDO takes the last letter off;
- touch the letters, the ⌫ chip, a card; a keyboard may type the letters.

UNDO with no letter chosen, Esc or Cancel leave everything as it was.  Confirming writes the tag
map the way ``aetherbox enroll`` does (``TagMap.add``) and the tap is then acted on as if the card
had been known (``Host.enrol``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Literal

from msgspec import Struct
from msgspec.structs import replace

from device.catalog import Card, CardKind, load_catalog, name_key
from device.inputs import Button
from device.state import GameState
from device.tagmap import format_uid
from display import theme
from display.canvas import Rect
from display.chips import scroll_markers
from display.i18n import Translator
from display.screens import Host, Screen, View, chip_window
from display.ui import Action, Back, Erase, Focus, Press, Redo, Tap, Turn, Type, UiState

NAME = "enrol"
Mode = Literal["cards", "letters", "confirm"]


class EnrolCancel(Tap, frozen=True):
    """Cancel: the tag stays unknown, and the screen before comes back."""


class AddLetter(Tap, frozen=True):
    """A letter of the keyboard: added to the name's first letters."""

    letter: str


class EraseLetter(Tap, frozen=True):
    """The last letter typed: taken off."""


class LetterPage(Tap, frozen=True):
    """The letters offered: from letter ``index`` on."""

    index: int


class PickCard(Tap, frozen=True):
    """A card in the list: the one the tag is (asked to confirm)."""

    index: int


class CardScroll(Tap, frozen=True):
    """A scroll marker beside the cards: the cursor to card ``index``."""

    index: int


class EnrolYes(Tap, frozen=True):
    """Yes: the tag is that card."""


class EnrolBack(Tap, frozen=True):
    """Back to the cards: not that one."""


class EnrolForm(Struct, frozen=True):
    """The enrolment under way: the tag, the screen to go back to, the letters chosen, the
    highlighted card and letter, what the encoder moves, the card to confirm."""

    uid: str
    back: str = "table"
    prefix: str = ""
    cursor: int = 0
    letter: int = 0
    mode: Mode = "cards"
    picked: str = ""
    yes: bool = True  # confirming: the highlighted chip is Enrol (else Back)


def kinds(screens: Mapping[str, Screen], state: GameState | None) -> frozenset[CardKind]:
    """The kinds of card a tag may be enrolled as in this game: those of the one format whose
    screen says it plays with cards of its own (``Screen.tag_kinds``), else every kind (no such
    format, or several: the tag may be any of their cards or another)."""
    own = [
        found for scr in screens.values() if state is not None and (found := scr.tag_kinds(state))
    ]
    return own[0] if len(own) == 1 else frozenset(CardKind)


@cache
def _cards(allowed: frozenset[CardKind]) -> tuple[tuple[str, Card], ...]:
    """(the name's letters, the card) of every card of those kinds, alphabetical."""
    found = [(name_key(card.name), card) for card in load_catalog() if card.kind in allowed]
    return tuple(sorted(found, key=lambda pair: (pair[0], pair[1].name)))


def matching(allowed: frozenset[CardKind], prefix: str) -> list[Card]:
    """The cards of the ``allowed`` kinds whose name starts with ``prefix``, in order."""
    return [card for key, card in _cards(allowed) if key.startswith(prefix)]


def next_letters(allowed: frozenset[CardKind], prefix: str) -> list[str]:
    """The letters that follow ``prefix`` in some card's name, in order."""
    return sorted(
        {
            key[len(prefix)]
            for key, _ in _cards(allowed)
            if key.startswith(prefix) and len(key) > len(prefix)
        }
    )


def shown_prefix(allowed: frozenset[CardKind], form: EnrolForm) -> str:
    """The letters the list is narrowed by: the chosen ones, and while the encoder is on the
    letters, the highlighted one too."""
    if form.mode == "letters":
        letters = next_letters(allowed, form.prefix)
        if letters:
            return form.prefix + letters[form.letter % len(letters)]
    return form.prefix


def kind_label(tr: Translator, card: Card) -> str:
    return tr(f"ui.enrol.kind.{card.kind.value}")


class Enrol(Screen):
    name = NAME

    def form(self, ui: UiState) -> EnrolForm | None:
        return ui.kept(EnrolForm)

    def enter(self, host: Host) -> None:
        if self.form(host.ui) is None:
            host.go("table")  # nothing to enrol: only an unknown tag opens this screen

    def wants_text(self, ui: UiState) -> bool:
        return True  # letters typed narrow the list; no key may change the game meanwhile

    # -- acting -------------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        form = self.form(host.ui)
        if form is None:
            return False
        allowed = kinds(host.screens, host.state)
        if form.mode == "confirm":
            return self._confirm(host, form, action)
        if isinstance(action, Back) or isinstance(action, EnrolCancel):
            self._cancel(host, form)
            return True
        if isinstance(action, Redo):
            return True  # the game stays as it is while a tag is being enrolled
        if isinstance(action, Tap):
            return self._tap(host, form, action)
        if isinstance(action, Type):
            for letter in name_key(action.text):
                form = self._add(allowed, form, letter)
            host.ui.put(form)
            return True
        if isinstance(action, Erase):
            host.ui.put(self._erase(form))
            return True
        if isinstance(action, Press):
            return self._press(host, form, action)
        if isinstance(action, Turn | Focus):
            host.ui.put(self._move(allowed, form, action))
            return True
        return False

    def _move(
        self, allowed: frozenset[CardKind], form: EnrolForm, action: Turn | Focus
    ) -> EnrolForm:
        """The encoder walks what it is on (the letters or the cards); ←/→ change the last letter."""
        steps = action.steps if isinstance(action, Turn) else action.delta
        if form.mode == "letters":
            return replace(form, letter=form.letter + steps)
        if isinstance(action, Focus):
            return self._step_letter(allowed, form, steps)
        count = len(matching(allowed, form.prefix))
        return replace(form, cursor=(form.cursor + steps) % max(1, count))

    def _press(self, host: Host, form: EnrolForm, press: Press) -> bool:
        allowed = kinds(host.screens, host.state)
        if press.button is Button.SELECT and press.long:
            host.ui.put(
                replace(form, mode="cards" if form.mode == "letters" else "letters", letter=0)
            )
        elif form.mode == "letters" and press.button in (Button.SELECT, Button.NEXT):
            letters = next_letters(allowed, form.prefix)
            if letters:
                form = self._add(allowed, form, letters[form.letter % len(letters)])
            if press.button is Button.NEXT or not next_letters(allowed, form.prefix):
                form = replace(form, mode="cards")
            host.ui.put(form)
        elif press.button in (Button.SELECT, Button.NEXT):
            found = matching(allowed, form.prefix)
            if found:
                host.ui.put(self._pick(form, found[form.cursor % len(found)]))
        elif press.button is Button.UNDO:
            if form.prefix:
                host.ui.put(self._erase(form))
            elif form.mode == "letters":
                host.ui.put(replace(form, mode="cards"))
            else:
                self._cancel(host, form)
        return True  # ROLL does nothing here: the game waits while a tag is enrolled

    def _tap(self, host: Host, form: EnrolForm, tap: Tap) -> bool:
        allowed = kinds(host.screens, host.state)
        match tap:
            case AddLetter(letter):
                host.ui.put(self._add(allowed, replace(form, mode="cards"), letter))
            case EraseLetter():
                host.ui.put(self._erase(form))
            case LetterPage(index):
                host.ui.put(replace(form, letter=index))
            case CardScroll(index):
                host.ui.put(replace(form, cursor=index))
            case PickCard(index):
                found = matching(allowed, form.prefix)
                if 0 <= index < len(found):
                    host.ui.put(self._pick(form, found[index]))
            case _:
                return False
        return True

    def _confirm(self, host: Host, form: EnrolForm, action: Action) -> bool:
        yes = (
            isinstance(action, Press)
            and (
                action.button is Button.NEXT
                or action.button is Button.SELECT
                and not action.long
                and form.yes
            )
            or isinstance(action, EnrolYes)
        )
        back = (
            isinstance(action, Press)
            and (
                action.button is Button.UNDO
                or action.button is Button.SELECT
                and not action.long
                and not form.yes
            )
            or isinstance(action, Back)
            or isinstance(action, EnrolBack)
        )
        if yes:
            card = load_catalog().get(form.picked)
            if card is not None and host.enrol(form.uid, card):
                host.ui.drop(EnrolForm)
                if host.ui.screen == NAME:  # the card's command brought up no screen of its own
                    host.go(form.back)
            return True
        if back:
            host.ui.put(replace(form, mode="cards"))
            return True
        if isinstance(action, Turn | Focus):
            host.ui.put(replace(form, yes=not form.yes))
            return True
        if isinstance(action, EnrolCancel):
            self._cancel(host, form)
            return True
        return isinstance(action, Press | Redo | Type | Erase)

    def _cancel(self, host: Host, form: EnrolForm) -> None:
        host.ui.drop(EnrolForm)
        host.go(form.back)

    @staticmethod
    def _pick(form: EnrolForm, card: Card) -> EnrolForm:
        return replace(form, picked=card.name, mode="confirm", yes=True)

    @staticmethod
    def _add(allowed: frozenset[CardKind], form: EnrolForm, letter: str) -> EnrolForm:
        if letter in next_letters(allowed, form.prefix):
            return replace(form, prefix=form.prefix + letter, cursor=0, letter=0)
        return form

    @staticmethod
    def _erase(form: EnrolForm) -> EnrolForm:
        return replace(form, prefix=form.prefix[:-1], cursor=0, letter=0)

    @staticmethod
    def _step_letter(allowed: frozenset[CardKind], form: EnrolForm, steps: int) -> EnrolForm:
        """←/→: the last letter chosen becomes the next (previous) one any card has there; with
        one letter the list of every card is a step of the round too."""
        start = form.prefix[:-1]
        choices: list[str] = next_letters(allowed, start)
        if not start:
            choices = ["", *choices]
        current = form.prefix[-1:] if form.prefix else ""
        index = choices.index(current) if current in choices else 0
        return replace(
            form, prefix=start + choices[(index + steps) % len(choices)], cursor=0, letter=0
        )

    # -- drawing ------------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        form = self.form(view.ui)
        if form is None:
            return
        c, lay, tr = view.canvas, view.layout, view.tr
        area: Rect = (lay.margin, view.top, c.width - 2 * lay.margin, view.bottom - view.top)
        if form.mode == "confirm":
            self._draw_confirm(view, form, area)
            return
        x, y, w, h = area
        row = lay.touch
        gap = max(2, lay.margin // 2)
        cancel = tr("ui.enrol.cancel")
        cancel_w = max(lay.touch, c.fonts.measure(cancel, lay.small, True)[0] + 2 * lay.margin)
        # The title has a row of its own (with Cancel) where two cards still fit below it.
        titled = h >= 4 * row + 3 * gap
        top = y
        letters_w = w
        if titled:
            title = tr("ui.enrol.title", uid=format_uid(form.uid))
            title_w = w - cancel_w - lay.margin
            size = c.fit_paragraph(title, title_w, row, lay.medium, bold=True)
            if size is not None:
                lines = c.wrapped(title, size, title_w, bold=True) or [title]
                tall = len(lines) * c.fonts.line_height(size, True)
                c.paragraph(
                    title,
                    (x, y + (row - tall) // 2, title_w, tall),
                    size,
                    theme.TEXT,
                    role="enrol.title",
                    bold=True,
                    min_size=size,
                )
            top += row + gap
        else:
            letters_w -= cancel_w + gap
        cancel_rect = (x + w - cancel_w, y, cancel_w, row)
        c.box(cancel_rect, theme.BUTTON)
        c.text(
            cancel,
            (cancel_rect[0] + cancel_w // 2, y + row // 2),
            lay.small,
            theme.TEXT,
            anchor="center",
            bold=True,
            max_width=cancel_w - lay.margin,
            role="enrol.cancel",
            min_size=lay.small,
        )
        c.target(cancel_rect, EnrolCancel())
        self._draw_letters(view, form, (x, top, letters_w, row))
        top += row + gap
        self._draw_list(view, form, (x, top, w, y + h - top))

    def _draw_letters(self, view: View, form: EnrolForm, rect: Rect) -> None:
        """The letters chosen (A–Z before any), ⌫, and the letters that may follow, scrolled
        round the highlighted one; outlined while the encoder is on them."""
        c, lay, tr = view.canvas, view.layout, view.tr
        allowed = kinds(view.screens, view.state)
        x, y, w, h = rect
        gap = max(2, lay.margin // 2)
        chosen = shown_prefix(allowed, form).upper()
        label = chosen or tr("ui.enrol.all")
        label_w = max(lay.touch, c.fonts.measure(label, lay.medium, True)[0] + 2 * lay.margin)
        c.box((x, y, label_w, h), theme.PANEL_HI if form.mode == "letters" else theme.PANEL)
        if form.mode == "letters":
            c.box((x, y, label_w, h), theme.CURSOR, width=max(2, lay.line))
        c.text(
            label,
            (x + label_w // 2, y + h // 2),
            lay.medium,
            theme.CURSOR if chosen else theme.DIM,
            anchor="center",
            bold=True,
            role="enrol.prefix",
            min_size=lay.medium,
        )
        left = x + label_w + gap
        if form.prefix:
            erase = (left, y, lay.touch, h)
            c.box(erase, theme.BUTTON)
            _erase_symbol(view, erase)
            c.target(erase, EraseLetter())
            left += lay.touch + gap
        letters = next_letters(allowed, form.prefix)
        if not letters:
            return
        chip = lay.touch
        fit = max(1, (x + w - left + gap) // (chip + gap))
        cursor = form.letter % len(letters)
        window = range(len(letters))
        arrows = len(letters) > fit
        if arrows:
            fit = max(1, (x + w - left - 2 * (chip * 2 // 3 + gap) + gap) // (chip + gap))
            window = chip_window(len(letters), cursor, fit)
            self._letter_arrow(
                view,
                (left, y, chip * 2 // 3, h),
                "left",
                window.start - 1 if window.start else None,
                len(letters),
            )
            left += chip * 2 // 3 + gap
        for index in window:
            letter = letters[index]
            cell = (left, y, chip, h)
            lit = form.mode == "letters" and index == cursor
            c.box(cell, theme.BUTTON_HI if lit else theme.BUTTON)
            if lit:
                c.box(cell, theme.CURSOR, width=max(2, lay.line))
            c.text(
                letter.upper(),
                (left + chip // 2, y + h // 2),
                lay.medium,
                theme.TEXT,
                anchor="center",
                bold=True,
                role="enrol.letter",
                min_size=lay.medium,
            )
            c.target(cell, AddLetter(letter))
            left += chip + gap
        if arrows:
            self._letter_arrow(
                view,
                (left, y, chip * 2 // 3, h),
                "right",
                window.stop if window.stop < len(letters) else None,
                len(letters),
            )

    def _letter_arrow(
        self,
        view: View,
        cell: Rect,
        direction: Literal["left", "right"],
        to: int | None,
        count: int,
    ) -> None:
        """A marker that letters are hidden that way; a touch brings the next one into view."""
        from display import symbols

        if to is None:
            return
        c = view.canvas
        c.box(cell, theme.PANEL_HI)
        x, y, w, h = cell
        symbols.arrow(c, (x + w / 2, y + h / 2), max(6, w * 3 // 5), theme.CURSOR, direction)
        c.target(cell, LetterPage(to % count))

    def _draw_list(self, view: View, form: EnrolForm, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        allowed = kinds(view.screens, view.state)
        found = matching(allowed, shown_prefix(allowed, form))
        row = lay.touch
        gap = max(2, lay.margin // 2)
        hint = tr("ui.enrol.hint_letters" if form.mode == "letters" else "ui.enrol.hint")
        hint_lines = c.wrapped(hint, lay.tiny, w)
        hint_h = len(hint_lines) * c.fonts.line_height(lay.tiny) if hint_lines else 0
        fit = max(1, (h + gap) // (row + gap))
        if hint_lines and (h - hint_h - lay.margin // 2 + gap) // (row + gap) >= min(2, len(found)):
            fit = max(1, (h - hint_h - lay.margin // 2 + gap) // (row + gap))
            c.paragraph(
                hint,
                (x, y + h - hint_h, w, hint_h),
                lay.tiny,
                theme.DIM,
                role="enrol.hint",
                min_size=lay.tiny,
            )
        cursor = form.cursor % max(1, len(found))
        window = chip_window(len(found), cursor, fit)
        markers = len(window) < len(found)
        list_w = w - (lay.touch + gap if markers else 0)
        for slot, index in enumerate(window):
            card = found[index]
            rect = (x, y + slot * (row + gap), list_w, row)
            lit = index == cursor and form.mode == "cards"
            c.box(rect, theme.BUTTON_HI if lit else theme.BUTTON)
            if lit:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            _draw_card_row(view, card, rect)
            c.target(rect, PickCard(index))
        if markers:
            column = (x + w - lay.touch, y, lay.touch, len(window) * (row + gap) - gap)
            scroll_markers(
                view,
                column,
                window.start,
                len(found) - window.stop,
                "enrol.more",
                (
                    CardScroll(window.start - 1),
                    CardScroll(window.stop % len(found)),
                ),
            )

    def _draw_confirm(self, view: View, form: EnrolForm, area: Rect) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, h = area
        card = load_catalog().get(form.picked)
        gap = max(2, lay.margin // 2)
        row = lay.touch
        question = tr("ui.enrol.confirm", uid=format_uid(form.uid), name=form.picked)
        kind = kind_label(tr, card) if card is not None else ""
        kind_h = c.fonts.line_height(lay.small)
        room = h - row - gap - kind_h
        size = c.fit_paragraph(question, w, room, lay.big, bold=True) or lay.tiny
        tall = c.paragraph(
            question,
            (x, y, w, room),
            size,
            theme.TEXT,
            role="enrol.confirm",
            bold=True,
            min_size=size,
            align="center",
        )
        if kind:
            c.text(
                kind,
                (x + w // 2, y + tall),
                lay.small,
                theme.DIM,
                anchor="midtop",
                max_width=w,
                role="enrol.kind",
                min_size=lay.small,
            )
        half = (w - gap) // 2
        answers: tuple[tuple[str, str, Tap, bool], ...] = (
            ("ui.enrol.yes", "enrol.yes", EnrolYes(), form.yes),
            ("ui.enrol.back", "enrol.back", EnrolBack(), not form.yes),
        )
        for index, (key, role, tap, lit) in enumerate(answers):
            rect = (x + index * (half + gap), y + h - row, half, row)
            c.box(rect, theme.BUTTON_HI if lit else theme.BUTTON)
            if lit:
                c.box(rect, theme.CURSOR, width=max(2, lay.line))
            c.text(
                tr(key),
                (rect[0] + half // 2, rect[1] + row // 2),
                lay.medium,
                theme.TEXT,
                anchor="center",
                bold=lit,
                max_width=half - lay.margin,
                role=role,
                min_size=lay.small,
            )
            c.target(rect, tap)


def _draw_card_row(view: View, card: Card, rect: Rect) -> None:
    """A card's name as large as fits its row (on two lines if it must), and its kind where
    there is room beside it."""
    c, lay, tr = view.canvas, view.layout, view.tr
    x, y, w, h = rect
    pad = lay.margin
    inner = w - 2 * pad
    kind = kind_label(tr, card)
    kind_w = c.fonts.measure(kind, lay.tiny)[0] + pad
    for size in (lay.medium, lay.small, lay.tiny):
        name_w = c.fonts.measure(card.name, size)[0]
        if name_w + kind_w <= inner:
            c.text(
                card.name,
                (x + pad, y + h // 2),
                size,
                theme.TEXT,
                anchor="midleft",
                role="enrol.card",
                min_size=size,
            )
            c.text(
                kind,
                (x + w - pad, y + h // 2),
                lay.tiny,
                theme.DIM,
                anchor="midright",
                role="enrol.card.kind",
                min_size=lay.tiny,
            )
            return
    size = c.fit_paragraph(card.name, inner, h, lay.small) or lay.tiny
    lines = c.wrapped(card.name, size, inner) or [card.name]
    tall = len(lines) * c.fonts.line_height(size)
    c.paragraph(
        card.name,
        (x + pad, y + (h - tall) // 2, inner, tall),
        size,
        theme.TEXT,
        role="enrol.card",
        min_size=size,
    )


def _erase_symbol(view: View, cell: Rect) -> None:
    """⌫ drawn with shapes (the bundled fonts lack it): a key pointing left with a cross."""
    c = view.canvas
    x, y, w, h = cell
    s = min(w, h) * 0.5
    cx, cy = x + w / 2, y + h / 2
    left, right, top, bottom = cx - s * 0.6, cx + s * 0.6, cy - s * 0.4, cy + s * 0.4
    c.polygon(
        [
            (left, cy),
            (left + s * 0.35, top),
            (right, top),
            (right, bottom),
            (left + s * 0.35, bottom),
        ],
        theme.TEXT,
    )
    k = s * 0.17
    mx = cx + s * 0.12
    width = max(2, round(s * 0.1))
    c.line((round(mx - k), round(cy - k)), (round(mx + k), round(cy + k)), theme.BUTTON, width)
    c.line((round(mx - k), round(cy + k)), (round(mx + k), round(cy - k)), theme.BUTTON, width)
