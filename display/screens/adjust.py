"""Adjusting life, poison and commander damage, with who caused it (LF-1, LF-2, LF-4), and the
counters a Commander table tracks.

Four fields — player, counter, from whom, amount — changed with the encoder (↑/↓), moved
between with SELECT (Tab) or ←/→, applied with NEXT (Enter) or the Apply button.  The amount
starts at 0 and collects turns, so "-7 from Bob" is one change and one undo.  Beyond life,
poison and commander damage the counter row offers energy, experience and rad counters (an
amount, from nobody), the monarch, the initiative and the city's blessing (for the player
chosen: no amount), and day or night (the amount row picks which; in a Conspiracy pod, in the
chosen player's group); SELECT and ←/→ move only between the rows that matter.  The bottom line
says what UNDO would take back.  An adjustment left unconfirmed for ``IDLE`` seconds is
dropped (and the status line says so), so a bumped encoder never changes a life total by itself.

It comes up with key A, the LIFE button, or NEXT held on the table, for the highlighted seat; a
life change pending on the table (``display.screens.life``) comes along, not yet made, with the
counter field chosen: one turn up makes it commander damage, NEXT applies it.

In a Commander game the counter row has two more entries.  *Commander tax* (CR 903.8), right
after commander damage, counts the chosen player's casts from the command zone: the third row picks the
commander (partners have their own tax), the amount adds casts (+1: cast once more) or takes back
miscounted ones (−1), and the preview says the tax before and after; one change, one undo.
*Commander names*, the row's last entry, renames the player's commanders during play: the third row picks the commander
or the partner (an empty partner row adds one), typed keys edit its name on the fourth (as on the
set-up, and refused while typed when too long, as the rules refuse it), erasing a partner's name
removes the partner, and applying names them all at once.

Every chip and button is at least ``Layout.touch`` tall.  A chip's words wrap to two lines before
they would be cut, and a row with more chips than fit (ten players on a small panel) shows a
window round the chosen one, with arrows at its ends saying how many are hidden on each side.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from device.commands import (
    CastCommander,
    ChangeLife,
    ChangePoison,
    Command,
    DealCommanderDamage,
    NameCommanders,
)
from device.errors import IllegalCommand
from device.inputs import Button
from device.rules.life import (
    MAX_COMMANDER_NAME,
    MAX_COMMANDERS,
    TAX,
    commander_names,
    commander_tax,
    tidy_commander,
)
from device.rules.table import check_fits
from device.rules.counters import (
    BecomeMonarch,
    ChangeCounter,
    GainBlessing,
    MakeDayNight,
    TakeInitiative,
    games,
    marks,
)
from device.rules.counters import counters as marked
from device.state import GameState
from device.state_counters import Counter, DayNight
from device.text import Message, listing, sentences
from device.rules.registry import find_format
from display import theme
from display.chips import Chip, chip_fits, chip_label, chip_row, chip_text, inset
from display.screens import Host, Screen, View, cycle
from display.screens.life import default_source, sources, take
from display.ui import Action, Back, Erase, Focus, Line, Press, Tap, Turn, Type, UiState

IDLE = 30.0
FIELDS = ("player", "counter", "from", "amount")
BIG_STEP = 5
#: What the counter row offers beyond life, poison and commander damage: counters a player has
#: (an amount, from nobody), a player's designations (the player row says whose) and the game's
#: day or night (the amount row says which).
COUNTED = tuple(counter.value for counter in Counter)
MARKS = ("monarch", "initiative", "blessing")
DAY_NIGHT = "day_night"
#: The Commander game's own entries: the tax of a commander (casts, an amount), and its name (typed).
TAX_COUNTER = "tax"
NAMES = "names"


class PickPlayer(Tap, frozen=True):
    """A player's chip: the seat changed."""

    seat: int


class PickCounter(Tap, frozen=True):
    """A counter's chip (life, poison, commander damage, ...): the counter changed."""

    name: str


class SetDayNight(Tap, frozen=True):
    """Day or night's chip."""

    time: DayNight


class PickCommander(Tap, frozen=True):
    """Which of a player's commanders (partners): commander ``index``."""

    index: int


class PickSource(Tap, frozen=True):
    """Commander damage's source: seat ``source``'s commander ``commander``."""

    source: int | None
    commander: int


class AddAmount(Tap, frozen=True):
    """An amount's step chip (−5, −1, +1, +5): the amount changed by ``steps``."""

    steps: int


class ApplyChange(Tap, frozen=True):
    """Apply: the change made."""


class CancelChange(Tap, frozen=True):
    """Cancel: nothing changed."""


class AdjustForm(Struct, frozen=True):
    """The adjustment being made (kept while the adjust screen is up): for whom, which counter,
    from whom, by how much, the field the encoder changes, and when it was last touched."""

    seat: int
    counter: str = "life"
    source: int | None = None
    commander: int = 0
    amount: int = 0
    field: int = 3  # the amount: turning the encoder right away changes it
    touched: float = 0.0
    day_night: DayNight = DayNight.DAY  # what it becomes, for the counter "day_night"
    names: tuple[str, ...] = ()  # the player's commanders as being typed, for the counter "names"


def counters(state: GameState) -> list[str]:
    """What the counter row offers, in its order: commander damage (where the format counts it)
    right after life, so a life change brought from the table becomes commander damage with one
    turn up, the usual reason to bring it here; then commander tax; the commanders' names last
    (renaming is rare), one turn down from life."""
    commanders = find_format(state.formats[0]).commander_damage
    commander = ["commander", TAX_COUNTER] if commanders else []
    return [
        "life",
        *commander,
        "poison",
        *COUNTED,
        *MARKS,
        DAY_NIGHT,
        *([NAMES] if commanders else []),
    ]


def fields(state: GameState, counter: str) -> tuple[int, ...]:
    """The rows (indexes into ``FIELDS``) that matter for ``counter``: the cursor moves among
    these only, and the others are left empty."""
    if counter in COUNTED:
        return (0, 1, 3)
    if counter in MARKS:
        return (0, 1)
    if (
        counter == DAY_NIGHT
    ):  # the player row says whose group, where groups play games of their own
        return (0, 1, 3) if len(games(state)) > 1 else (1, 3)
    return (0, 1, 2, 3)


def moved(state: GameState, form: AdjustForm, delta: int) -> AdjustForm:
    """``form`` with the cursor ``delta`` rows on, among the rows that matter."""
    rows = fields(state, form.counter)
    if form.field in rows:
        return replace(form, field=rows[(rows.index(form.field) + delta) % len(rows)])
    after = [row for row in rows if (row > form.field if delta > 0 else row < form.field)]
    return replace(
        form,
        field=(after[0] if delta > 0 else after[-1]) if after else rows[0 if delta > 0 else -1],
    )


def source_label(
    view: View, state: GameState, source: int | None, commander: int, counter: str
) -> str:
    if source is None:
        return view.tr("ui.adjust.nobody")
    owner = state.player(source)
    if counter == "commander" and len(owner.commanders) > 1:
        return f"{owner.commanders[commander]} ({owner.name})"  # names only: the same in every language
    return owner.name


def typed_names(form: AdjustForm) -> tuple[str, ...]:
    """The commanders as typed, tidied as the rules keep them; an empty row names none."""
    return tuple(name for name in (tidy_commander(n) for n in form.names) if name)


def command_for(form: AdjustForm) -> Command | None:
    marking = _marking(form)
    if marking is not None:
        return marking
    if form.counter == NAMES:
        names = typed_names(form)
        return NameCommanders(seat=form.seat, commanders=names) if names else None
    if form.amount == 0:
        return None
    if form.counter == TAX_COUNTER:
        return CastCommander(seat=form.seat, commander=form.commander, amount=form.amount)
    if form.counter in COUNTED:
        return ChangeCounter(seat=form.seat, counter=Counter(form.counter), delta=form.amount)
    if form.counter == "life":
        return ChangeLife(seat=form.seat, delta=form.amount, source=form.source)
    if form.counter == "poison":
        return ChangePoison(seat=form.seat, delta=form.amount, source=form.source)
    if form.source is None:
        return None
    return DealCommanderDamage(
        seat=form.seat, source=form.source, commander=form.commander, amount=form.amount
    )


def _marking(form: AdjustForm) -> Command | None:
    """The command of a designation, or of day or night: no amount to it."""
    if form.counter == "monarch":
        return BecomeMonarch(seat=form.seat)
    if form.counter == "initiative":
        return TakeInitiative(seat=form.seat)
    if form.counter == "blessing":
        return GainBlessing(seat=form.seat)
    if form.counter == DAY_NIGHT:
        return MakeDayNight(day_night=form.day_night, group_of=form.seat)
    return None


def with_counter(state: GameState, form: AdjustForm, counter: str) -> AdjustForm:
    """``form`` adjusting ``counter``: commander damage only adds; day or night starts on the one
    it is not; the cursor stays on its row if that row matters, else goes to the counter row."""
    amount = (
        abs(form.amount)
        if counter == "commander"
        else 0
        if counter in (TAX_COUNTER, NAMES)
        else form.amount
    )
    current = marks(state, form.seat).day_night
    day_night = DayNight.NIGHT if current is DayNight.DAY else DayNight.DAY
    form = replace(form, counter=counter, amount=amount, day_night=day_night)
    return form if form.field in fields(state, counter) else replace(form, field=1)


def commanders_of(state: GameState, form: AdjustForm) -> AdjustForm:
    """``form`` on the chosen player's first commander, their names as the game has them."""
    names = state.player(form.seat).commanders
    return replace(form, commander=0, names=(*names, *[""] * (MAX_COMMANDERS - len(names))))


def commander_choices(state: GameState, form: AdjustForm) -> int:
    """How many commanders the third row offers: the player's, and for naming, a partner too."""
    return (
        MAX_COMMANDERS if form.counter == NAMES else len(commander_names(state.player(form.seat)))
    )


def counter_label(counter: str) -> str:
    """The text key of a counter row chip."""
    if counter in ("life", "poison", "commander", TAX_COUNTER, NAMES):
        return f"ui.adjust.{counter}"
    return f"ui.counters.{counter}"


def marking_preview(view: View, state: GameState, form: AdjustForm) -> str:
    """What applying a designation, or day or night, does (or that it is so already)."""
    name = state.player(form.seat).name
    marked_now = marks(state, form.seat)
    if form.counter == "monarch":
        return view.tr(
            "ui.counters.is_monarch"
            if marked_now.monarch == form.seat
            else "ui.counters.becomes_monarch",
            name=name,
        )
    if form.counter == "initiative":
        return view.tr("ui.counters.takes_initiative", name=name)
    if form.counter == "blessing":
        blessed = marked(state).player(form.seat).blessing
        return view.tr(
            "ui.counters.has_blessing" if blessed else "ui.counters.gets_blessing", name=name
        )
    already = marked_now.day_night is form.day_night
    return view.tr(f"ui.counters.{'is' if already else 'becomes'}_{form.day_night.value}")


class Adjust(Screen):
    name = "adjust"
    button = "ui.btn.adjust"
    key = "a"

    def available(self, state: GameState | None) -> bool:
        # Formats that count something else (Wizard's Duel's magic points) have their own screens.
        return state is not None and find_format(state.formats[0]).tracks_life

    def form(self, ui: UiState, state: GameState) -> AdjustForm:
        form = ui.kept(AdjustForm)
        if form is None or form.seat >= len(state.players):
            form = ui.put(
                self._default_source(
                    state, AdjustForm(seat=state.active if ui.cursor is None else ui.cursor)
                )
            )
        return form

    @staticmethod
    def _default_source(state: GameState, form: AdjustForm) -> AdjustForm:
        if form.counter in (TAX_COUNTER, NAMES):  # the player's own commanders: nobody else's
            return commanders_of(state, replace(form, source=None))
        source, commander = default_source(state, form.seat, form.counter)
        return replace(form, source=source, commander=commander)

    def wants_text(self, ui: UiState) -> bool:
        form = ui.kept(AdjustForm)
        return form is not None and form.counter == NAMES

    def enter(self, host: Host) -> None:
        state = host.state
        if state is None:
            return
        host.ui.drop(AdjustForm)
        form = self.form(host.ui, state)
        handed = take(host.ui)
        if handed is not None:
            # The table's pending change goes on here, as it was: the encoder now turns the
            # counter (commander damage, poison) — the usual reason to come here with it.
            form = replace(
                form,
                seat=handed.seat,
                amount=handed.amount,
                source=handed.source,
                commander=0,
                field=1,
            )
        host.ui.put(replace(form, touched=host.now()))

    def deadline(self, view: View) -> float | None:
        form = view.ui.kept(AdjustForm)
        return form.touched + IDLE if form is not None else None

    # -- acting ---------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None:
            return False
        form = self.form(host.ui, state)
        now = host.now()
        if now - form.touched >= IDLE:
            return self._timeout(host)
        form = host.ui.put(replace(form, touched=now))
        if isinstance(action, Turn):
            host.ui.put(self._change(state, form, FIELDS[form.field], action.steps))
            return True
        if isinstance(action, Focus):
            host.ui.put(moved(state, form, action.delta))
            return True
        if isinstance(action, Press) and action.button is Button.SELECT:
            if action.long:
                return self._close(host)
            host.ui.put(moved(state, form, 1))
            return True
        if isinstance(action, Press) and action.button is Button.NEXT:
            return self._apply(host, form)
        if isinstance(action, Back):
            return self._close(host)
        if isinstance(action, Tap):
            return self._tap(host, state, form, action)
        if isinstance(action, Type | Erase) and form.counter == NAMES:
            try:
                host.ui.put(self._edit(form, action))
            except (
                IllegalCommand
            ) as error:  # the name would be refused when applied: said now, where it is typed
                host.refuse(error)
            return True
        return False

    @staticmethod
    def _edit(form: AdjustForm, action: Type | Erase) -> AdjustForm:
        """A key typed or erased on the chosen commander's name (the row of its text focused)."""
        text = form.names[form.commander]
        if isinstance(action, Type):
            longer = text + "".join(ch for ch in action.text if ch.isprintable())
            check_fits(tidy_commander(longer), MAX_COMMANDER_NAME)
            text = longer
        else:
            text = text[:-1]
        names = (*form.names[: form.commander], text, *form.names[form.commander + 1 :])
        return replace(form, names=names, field=3)

    def tick(self, host: Host) -> bool:
        """The kiosk calls this at the deadline: drop an unconfirmed change."""
        form = host.ui.kept(AdjustForm)
        if form is not None and host.now() - form.touched >= IDLE:
            return self._timeout(host)
        return False

    def _timeout(self, host: Host) -> bool:
        form = host.ui.kept(AdjustForm)
        if form is not None and form.amount:
            host.ui.card = Line(Message("ui.adjust.timeout"), host.now() + 8)
        return self._close(host)

    def _close(self, host: Host) -> bool:
        host.ui.drop(AdjustForm)
        host.go("table")
        return True

    def _apply(self, host: Host, form: AdjustForm) -> bool:
        command = command_for(form)
        state = host.state
        unchanged = (
            state is not None
            and form.counter == NAMES
            and typed_names(form) == state.player(form.seat).commanders
        )
        if command is None or unchanged:
            return self._close(host)
        if host.execute(command) is not None:
            host.ui.cursor = form.seat
            if host.ui.screen != self.name:
                # The change brought up another screen (a Necromancer loss asks who did it): stay there.
                host.ui.drop(AdjustForm)
                return True
            self._close(host)
        return True

    def _change(self, state: GameState, form: AdjustForm, field: str, steps: int) -> AdjustForm:
        """``form`` with ``field`` turned ``steps``."""
        if field == "player":
            return self._seat(state, form, (form.seat + steps) % len(state.players))
        if field == "counter":
            return self._default_source(
                state, with_counter(state, form, cycle(counters(state), form.counter, steps))
            )
        if field == "from" and form.counter in (TAX_COUNTER, NAMES):
            return replace(
                form, commander=(form.commander + steps) % commander_choices(state, form)
            )
        if field == "from":
            froms = sources(state, form.seat, form.counter)
            if not froms:
                return form
            pair = (form.source, form.commander)
            current = froms.index(pair) if pair in froms else 0
            source, commander = froms[(current + steps) % len(froms)]
            return replace(form, source=source, commander=commander)
        if form.counter == DAY_NIGHT:
            return replace(form, day_night=cycle(tuple(DayNight), form.day_night, steps))
        if form.counter == NAMES:  # a name is typed, not turned
            return form
        amount = form.amount + steps
        return replace(form, amount=max(0, amount) if form.counter == "commander" else amount)

    def _seat(self, state: GameState, form: AdjustForm, seat: int) -> AdjustForm:
        form = replace(form, seat=seat)
        if form.counter in ("commander", TAX_COUNTER, NAMES) or form.source == form.seat:
            return self._default_source(state, form)
        return form

    def _tap(self, host: Host, state: GameState, form: AdjustForm, tap: Tap) -> bool:
        match tap:
            case PickPlayer(seat):
                host.ui.put(self._seat(state, form, seat))
            case PickCounter(name):
                host.ui.put(self._default_source(state, with_counter(state, form, name)))
            case SetDayNight(time):
                host.ui.put(replace(form, day_night=time, field=3))
            case PickCommander(index):
                host.ui.put(replace(form, commander=index, field=2))
            case PickSource(source, commander):
                host.ui.put(replace(form, source=source, commander=commander))
            case AddAmount(steps):
                host.ui.put(self._change(state, replace(form, field=3), "amount", steps))
            case ApplyChange():
                return self._apply(host, form)
            case CancelChange():
                return self._close(host)
            case _:
                return False
        return True

    # -- drawing --------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None
        form = self.form(view.ui, state)
        c, lay, tr = view.canvas, view.layout, view.tr
        x0, width = lay.margin, c.width - 2 * lay.margin
        height = view.bottom - view.top
        # Five rows of touch targets (the chips, the amount, apply/cancel) at least ``touch`` tall;
        # the line saying what UNDO takes back goes under them where there is room for it.
        undo_h = c.fonts.line_height(lay.small)
        rows = 5
        show_undo = height - rows * lay.touch >= undo_h
        # On a panel too small for five fingertip rows (a 2.8- or 3.5-inch one), the rows round
        # the focused field show, and SELECT or ←/→ bring the others (NEXT applies from any row).
        fit = max(1, min(rows, height // lay.touch))
        first = min(max(0, form.field - fit + 2), rows - fit) if fit < rows else 0
        row_h = max(lay.touch, (height - (undo_h if show_undo else 0)) // fit)
        label_w = width // 5
        area_x, area_w = x0 + label_w, width - label_w

        def shown(row: int) -> bool:
            return first <= row < first + fit

        def top_of(row: int) -> int:
            return view.top + (row - first) * row_h

        def label(row: int, key: str = "") -> None:
            ry = top_of(row)
            focused = form.field == row
            text = tr(key or f"ui.adjust.{FIELDS[row]}")
            size, lines = chip_text(view, text, label_w - lay.margin, row_h, bold=focused)
            block = len(lines) * c.fonts.line_height(size, focused)
            c.paragraph(
                text,
                (x0, ry + (row_h - block) // 2, label_w - lay.margin, block),
                size,
                theme.CURSOR if focused else theme.DIM,
                role=f"adjust.label.{FIELDS[row]}",
                bold=focused,
                min_size=size,
            )

        def chips(
            row: int, items: list[tuple[str, Tap, bool]], role: str = "", key: str = ""
        ) -> None:
            if not shown(row):
                return
            label(row, key)
            if not items:
                return
            focused = form.field == row
            selected = next((i for i, item in enumerate(items) if item[2]), 0)
            chip_row(
                view,
                (area_x, top_of(row), area_w, row_h),
                [Chip(text, tap, chosen) for text, tap, chosen in items],
                selected,
                selected if focused else None,
                role or f"adjust.{FIELDS[row]}",
            )

        rows_used = fields(state, form.counter)
        chips(0, [(p.name, PickPlayer(p.seat), p.seat == form.seat) for p in state.players])
        chips(
            1,
            [
                (tr(counter_label(name)), PickCounter(name), name == form.counter)
                for name in counters(state)
            ],
        )
        if 2 in rows_used:
            chips(2, *self._third_row(view, state, form))
        if form.counter == DAY_NIGHT:
            chips(
                3,
                [
                    (
                        tr(f"ui.counters.{time.value}"),
                        SetDayNight(time),
                        time is form.day_night,
                    )
                    for time in DayNight
                ],
                "adjust.day_night",
                "ui.counters.time",
            )
        elif 3 in rows_used and shown(3):
            naming = form.counter == NAMES  # the name typed, else the amount
            label(3, "ui.adjust.name" if naming else "")
            (self._name_field if naming else self._amount)(
                view, form, (area_x, top_of(3), area_w, row_h)
            )
        if shown(4):
            self._apply_row(view, state, form, (x0, top_of(4), width, row_h))
        if show_undo:
            self._undo_line(view, (x0, top_of(5), width, view.bottom - top_of(5)))

    def _third_row(
        self, view: View, state: GameState, form: AdjustForm
    ) -> tuple[list[tuple[str, Tap, bool]], str, str]:
        """The third row's chips, role and label: the player's own commanders (their tax, their
        names), else whom the change comes from."""
        if form.counter in (TAX_COUNTER, NAMES):
            return (
                [
                    (
                        self._which_label(view, state, form, i),
                        PickCommander(i),
                        i == form.commander,
                    )
                    for i in range(commander_choices(state, form))
                ],
                "adjust.which",
                "ui.adjust.which",
            )
        return (
            [
                (
                    source_label(view, state, s, k, form.counter),
                    PickSource(s, k),
                    (s, k) == (form.source, form.commander),
                )
                for s, k in sources(state, form.seat, form.counter)
            ],
            "",
            "",
        )

    @staticmethod
    def _which_label(view: View, state: GameState, form: AdjustForm, index: int) -> str:
        """A commander's chip on the third row: its name (as typed, when naming), else what
        stands for it ("Alice's commander"; an empty partner: "+ Partner")."""
        player = state.player(form.seat)
        if form.counter == NAMES:
            typed = " ".join(form.names[index].split())
            return typed or view.tr("ui.adjust.add_partner" if index else "ui.setup.commander")
        if index < len(player.commanders):
            return player.commanders[index]
        return view.tr("life.commander_label", owner=player.name)

    def _name_field(self, view: View, form: AdjustForm, rect: tuple[int, int, int, int]) -> None:
        """The chosen commander's name as typed, with the caret (a dimmed hint while empty)."""
        c, lay = view.canvas, view.layout
        x, y, w, h = rect
        c.box(inset(rect), theme.PANEL_HI)
        if form.field == 3:
            c.box(inset(rect), theme.CURSOR, width=max(2, lay.line))
        pad = lay.margin
        at = (x + pad, y + h // 2)
        room = w - 2 * pad
        text = (
            " ".join(form.names[form.commander].split())
            if form.names[form.commander].strip()
            else ""
        )
        caret = c.text(
            f"{text}_",
            at,
            lay.small,
            theme.TEXT,
            anchor="midleft",
            bold=True,
            max_width=room,
            role="adjust.name",
        )
        if not text:
            hint = view.tr("ui.setup.no_partner" if form.commander else "ui.setup.unnamed")
            c.text(
                hint,
                (caret.right, at[1]),
                lay.small,
                theme.DIM,
                anchor="midleft",
                max_width=max(1, room - caret.width),
                role="adjust.name.hint",
            )

    def _apply_row(
        self, view: View, state: GameState, form: AdjustForm, rect: tuple[int, int, int, int]
    ) -> None:
        """The preview, Apply and Cancel."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x0, ry, width, row_h = rect
        gap = max(2, lay.margin // 2)
        bw = width // 5 - gap
        preview_w = width - 2 * (bw + gap) - lay.margin
        preview = self._preview(view, state, form)
        size, lines = chip_text(view, preview, preview_w, row_h, bold=True, largest=lay.medium)
        block = len(lines) * c.fonts.line_height(size, True)
        c.paragraph(
            preview,
            (x0, ry + (row_h - block) // 2, preview_w, block),
            size,
            theme.TEXT,
            role="adjust.preview",
            bold=True,
            min_size=size,
        )
        apply_rect = (x0 + width - 2 * bw - gap, ry, bw, row_h)
        cancel_rect = (x0 + width - bw, ry, bw, row_h)
        c.box(inset(apply_rect), theme.ACTIVE)
        words = tr("ui.adjust.apply")
        if not chip_fits(view, words, bw - lay.margin, row_h - 2):
            words = tr("ui.adjust.apply_short")  # "OK" where "Применить" does not fit
        chip_label(view, apply_rect, words, "adjust.apply", bold=True)
        c.target(apply_rect, ApplyChange())
        c.box(inset(cancel_rect), theme.BUTTON)
        chip_label(view, cancel_rect, tr("ui.adjust.cancel"), "adjust.cancel")
        c.target(cancel_rect, CancelChange())

    def _undo_line(self, view: View, rect: tuple[int, int, int, int]) -> None:
        """What UNDO would take back: the whole change, else its first part (what was done,
        without what followed from it), else nothing: the line is never cut."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x0, ry, width, room = rect
        undo = view.ui.last_change
        texts = (
            [
                tr("ui.adjust.undo_will", what=sentences(undo)),
                tr("ui.adjust.undo_will", what=sentences(undo[:1])),
            ]
            if undo
            else [tr("ui.adjust.nothing_to_undo")]
        )
        for text in texts:
            fitted = c.fit_paragraph(text, width, room, lay.small)
            if fitted is not None:
                c.paragraph(
                    text,
                    (x0, ry, width, room),
                    fitted,
                    theme.DIM,
                    role="adjust.undo",
                    min_size=fitted,
                )
                break

    def _amount(self, view: View, form: AdjustForm, rect: tuple[int, int, int, int]) -> None:
        """The amount row: −5 −1 [amount] +1 +5."""
        c, lay = view.canvas, view.layout
        area_x, ry, area_w, row_h = rect
        gap = max(2, lay.margin // 2)
        cell = (area_w - gap * 4) // 6
        for step, pos in zip((-BIG_STEP, -1, 1, BIG_STEP), (0, 1, 4, 5), strict=True):
            box = (area_x + pos * (cell + gap), ry, cell, row_h)
            c.box(inset(box), theme.BUTTON)
            c.text(
                f"{step:+d}".replace("-", "−"),
                (box[0] + cell // 2, ry + row_h // 2),
                lay.medium,
                theme.TEXT,
                anchor="center",
                max_width=cell - gap,
                role="adjust.step",
                min_size=lay.tiny,
            )
            c.target(box, AddAmount(step))
        amount_rect = (area_x + 2 * (cell + gap), ry, 2 * cell + gap, row_h)
        if form.field == 3:
            c.box(inset(amount_rect), theme.CURSOR, width=max(2, lay.line))
        amount = f"{form.amount:+d}".replace("-", "−") if form.amount else "0"
        c.text(
            amount,
            (amount_rect[0] + amount_rect[2] // 2, ry + row_h // 2),
            lay.big,
            theme.CURSOR,
            anchor="center",
            bold=True,
            max_width=amount_rect[2] - gap,
            role="adjust.amount",
            min_size=lay.medium,
        )

    def _preview(self, view: View, state: GameState, form: AdjustForm) -> str:
        player = state.player(form.seat)
        if form.counter in (*MARKS, DAY_NIGHT):
            return marking_preview(view, state, form)
        if form.counter == TAX_COUNTER:
            before = commander_tax(player, form.commander)
            return view.tr(
                "ui.adjust.tax_preview",
                commander=self._which_label(view, state, form, form.commander),
                before=before,
                after=max(0, before + TAX * form.amount),
            )
        if form.counter == NAMES:
            names = typed_names(form)
            if not names:
                return player.name
            return view.tr.message(
                Message(
                    "life.commanders_named",
                    name=player.name,
                    commanders=listing(names, "text.and"),
                    n=len(names),
                )
            )
        if form.counter in COUNTED:
            before = marked(state).player(form.seat).count(Counter(form.counter))
            return view.tr(
                "ui.adjust.preview", name=player.name, before=before, after=before + form.amount
            )
        if form.counter == "poison":
            before, after = player.poison, player.poison + form.amount
        elif form.counter == "commander":
            if form.source is None:
                return player.name
            taken = player.commander_damage_from(form.source, form.commander)
            return view.tr(
                "ui.adjust.preview",
                name=player.name,
                before=f"{taken}/21",
                after=f"{taken + form.amount}/21",
            )
        else:
            before, after = player.life, player.life + form.amount
        return view.tr("ui.adjust.preview", name=player.name, before=before, after=after)
