"""Set-up: players and seats, the base format and modules, table options, who goes first and
the screen's language (TB-1, TB-2, TB-5).  Modules and their table options come from the
registries in ``device.formats``, so a new module's options appear here by themselves: after
the players, grouped under a heading per format (the base format's first, then the modules in
the order they are listed), each in the order its module declares them, with a translated
label, value and help (``display/i18n/formats.py``).

Every row is at least ``Layout.touch`` high, so a finger hits it.  The rows scroll with the
cursor; arrows in a gutter on the right say that rows are hidden above or below.  Under the
rows, the focused row's help (an option's, or what the keys do) wraps onto up to three lines.

Rows are changed with the encoder (↑/↓) and moved between with SELECT/Tab or ←/→; names are
typed on a keyboard.  A seat nobody typed a name for shows its default name ("Player 3", in the
screen's language) dimmed, as a hint: the first character typed replaces it, erasing every
character brings it back, and a seat left so starts the game with that name.  NEXT (Enter)
starts the game — except on a name row, where it moves to the next row.

In a game whose format has commanders (Commander, Necromancer) each seat's name row is followed
by its commander's row and, once a commander is typed, a row for a partner (a background): typed
like the names, refused while typed as the rules refuse a name too long for the screen (the
console's ``commanders`` says the same), and named with the game's start in one step.  A seat
left without a commander has one, unnamed ("Alice's commander"), and can be named during play on
the adjust screen.

When a game exists (resumed at start, running or just finished), opening the screen fills the
form from it — base format, modules, table options, the players in their seats (an event's
players, every pod in order) — so a playgroup's next game needs no typing; who goes first is
drawn again.  What was changed on the form is kept until another game is shown.  With no game
shown (a kiosk whose last game was deleted) the form is filled from the game played last, and a
game deleted while it was shown leaves its players on the form.

With saved games, a chip beside the title opens the saved games (``display.screens.games``);
a long SELECT does the same (the GPIO buttons' way there: a long SELECT opens the set-up, a
second one the saved games).

With the base format Conspiracy (a pod; not the Group Game Draft, which is one table) the form
starts an *event*: it asks for the event's name (typed; the translated default without a
keyboard) and up to ``EVENT_MAX`` players, shows the pod split as the count changes, and leaves
out who goes first (each group's first player is drawn) and the options the event sets itself
(event, pod).  Starting it runs what the console's ``event`` runs (pods per CJ-1, one pod game
each), then shows pod 1 on the Conspiracy screen with every pod's players.  The form asks the
screens which base starts an event and how (``Screen.gathering``: the Conspiracy screen's
``PodEvent``), so this module names no format.
On the organiser's gadget at an event's broker (its login is the organiser's) a row asks where it
is played: at the tables at the broker (the default: drawn here and published, as the console's
``host`` does, then the EVENT screen shows it) or on this gadget as above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msgspec import Struct, field
from msgspec.structs import replace

from device.commands import NewGame
from device.errors import IllegalCommand
from device.formats import Format, TableOption
from device.rules.life import MAX_COMMANDER_NAME, MAX_COMMANDERS
from device.inputs import Button
from device.rules.colours import filled, turned
from device.rules.table import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS, check_fits
from device.rules.registry import formats, options_for
from display import theme
from display.i18n import LANGUAGE_NAMES, LANGUAGES, Translator
from display.chips import draw_chip
from display.screens import Gathering, Host, Screen, View, cycle
from display.screens.dice import NAME as DICE
from display.screens.event import NAME as EVENT
from display.screens.event import EventInfo
from display.ui import Action, Back, Erase, Focus, Press, Tap, Turn, Type, UiState


class SetupRow(Tap, frozen=True):
    """A row of the form: focused, or changed when it was focused already."""

    row: int


class SeatColour(Tap, frozen=True):
    """A seat's colour square: the next colour."""

    seat: int


class SavedGames(Tap, frozen=True):
    """The saved games' button: that screen."""


class SetupForm(Struct, frozen=True):
    """The set-up being filled in.  Its mappings are replaced whole, never changed in place."""

    base: str = "commander"
    modules: Mapping[str, bool] = field(default_factory=dict)
    count: int = 4
    names: tuple[str, ...] = ()  # what was typed per seat; "": nothing (the hint)
    first: int | None = None  # None: the gadget draws (TB-5)
    options: Mapping[str, str | int | bool] = field(default_factory=dict)
    row: int = 0
    event: str = ""  # the event's name as typed; "": nothing (the default is the hint)
    game: int | None = None  # the saved game the form was last filled from
    hosting: bool = (
        False  # the gadget is the organiser's at an event's broker: events may go to the tables
    )
    here: bool = False  # … but this one is played on this gadget, as without a broker
    saved: int = (
        0  # how many saved games there are (the chip that opens them), as of showing the form
    )
    colours: tuple[str, ...] = ()  # per seat as chosen; a seat beyond them has its own
    # Per seat, its commander and partner as typed ("": none); a seat beyond them has none typed.
    commanders: tuple[tuple[str, ...], ...] = ()
    #: The event the base format starts (asked of the screens whenever the base changes); None:
    #: the base starts one game.
    gathering: Gathering | None = None

    def commander(self, seat: int, index: int) -> str:
        """What was typed for the seat's commander (index 0) or partner (1)."""
        typed = self.commanders[seat] if seat < len(self.commanders) else ()
        return typed[index] if index < len(typed) else ""

    def with_commander(self, seat: int, index: int, text: str) -> SetupForm:
        rows = list(self.commanders) + [()] * (seat + 1 - len(self.commanders))
        names = list(rows[seat]) + [""] * (MAX_COMMANDERS - len(rows[seat]))
        names[index] = text
        rows[seat] = tuple(names)
        return replace(self, commanders=tuple(rows))

    def named_commanders(self) -> tuple[tuple[str, ...], ...]:
        """Each seat's commanders as the game will have them: what was typed, single-spaced (a
        seat with none typed: its one commander, unnamed)."""
        if not commander_game(self):
            return ()
        return tuple(
            tuple(
                name
                for name in (
                    " ".join(self.commander(seat, i).split()) for i in range(MAX_COMMANDERS)
                )
                if name
            )
            for seat in range(self.count)
        )

    def seat_colours(self) -> tuple[str, ...]:
        """Each seat's colour, the chosen ones kept (device.rules.colours)."""
        return filled([*self.colours[: self.count], *[""] * (self.count - len(self.colours))])

    def chosen(self) -> list[str]:
        return [self.base, *(m.name for m in modules() if self.modules.get(m.name))]

    def name(self, seat: int, tr: Translator) -> str:
        """The seat's name as the game will have it: typed, else the translated hint."""
        typed = " ".join(self.names[seat].split()) if seat < len(self.names) else ""
        return typed or placeholder(seat, tr)

    def event_name(self, tr: Translator) -> str:
        return " ".join(self.event.split()) or tr("ui.setup.event_default")


def placeholder(seat: int, tr: Translator) -> str:
    """A seat's default name, shown as a hint while nothing is typed: "Player 1"."""
    return tr("ui.setup.default_name", n=seat + 1)


#: The saved games' screen (``display.screens.games``, which imports this module for
#: ``remember_players``).
GAMES = "games"

#: The most players an event started here may have: four full pods of 8, the size of a large
#: draft night.  Every player is a row of the form (walked with the encoder, one name each), so
#: the bound keeps that list walkable; the console's ``event`` has no such bound.
EVENT_MAX = 32


def commander_game(form: SetupForm) -> bool:
    """The base format has commanders (the rules count their damage and tax): the form names them."""
    return any(f.commander_damage for f in bases() if f.name == form.base)


def is_event(form: SetupForm) -> bool:
    """The base chosen starts a whole event (a Conspiracy pod, CJ-1)."""
    return form.gathering is not None


def event_options(form: SetupForm) -> Sequence[str]:
    """The table options the form's event sets itself (none outside an event)."""
    return form.gathering.options if form.gathering is not None else ()


def gathering(screens: Mapping[str, Screen], base: str) -> Gathering | None:
    """The event a set-up of ``base`` starts, as the screen of its format declares it."""
    return next((g for scr in screens.values() if (g := scr.gathering(base)) is not None), None)


def with_base(form: SetupForm, screens: Mapping[str, Screen], base: str) -> SetupForm:
    return replace(form, base=base, gathering=gathering(screens, base))


def split(form: SetupForm) -> list[int]:
    """How the form's players are split between its event's games."""
    return form.gathering.split(form.count) if form.gathering is not None else [form.count]


def player_limits(form: SetupForm) -> tuple[int, int]:
    if form.gathering is not None:
        return form.gathering.fewest, EVENT_MAX
    return MIN_PLAYERS, MAX_PLAYERS


def bases() -> list[Format]:
    return [f for f in formats() if f.kind == "base"]


def modules() -> list[Format]:
    return [f for f in formats() if f.kind == "module"]


def option_groups(form: SetupForm) -> list[tuple[str, list[str]]]:
    """The table options the form shows, under whose heading: the base format's, then each
    chosen module's in the order modules are listed, each in its module's own order; then the
    options of every game (the clock's turn timer), under the part that declares them."""
    event = is_event(form)
    chosen = [f for f in bases() if f.name == form.base] + [
        m for m in modules() if form.modules.get(m.name)
    ]
    available = options_for(form.chosen())
    groups: dict[str, list[str]] = {fmt.name: [] for fmt in chosen}
    for option in available.values():
        if not (event and option.name in event_options(form)):
            groups.setdefault(option.module, []).append(option.name)
    return [(owner, names) for owner, names in groups.items() if names]


def rows(form: SetupForm) -> list[tuple[str, str]]:
    """(kind, key) per row, top to bottom: the rows the cursor walks (headings are not rows)."""
    event = is_event(form)
    found: list[tuple[str, str]] = [("base", "")]
    found += [("module", m.name) for m in modules()]
    if event:
        found.append(("event", ""))
        if form.hosting:
            found.append(("where", ""))
    found.append(("count", ""))
    commanders = commander_game(form)
    for seat in range(form.count):
        found.append(("name", str(seat)))
        if commanders:
            found.append(("commander", f"{seat}.0"))
            if form.commander(seat, 0).strip() or form.commander(seat, 1).strip():
                found.append(("commander", f"{seat}.1"))
    if not event:
        found.append(("first", ""))
    found += [("option", name) for _, names in option_groups(form) for name in names]
    found.append(("language", ""))
    found.append(("start", ""))
    return found


#: The rows that take typed text, and so show a caret and a hint.
TEXT_ROWS = ("name", "event", "commander")


def seat_commander(key: str) -> tuple[int, int]:
    """The seat and index (0 commander, 1 partner) of a commander row's key ("2.1")."""
    seat, _, index = key.partition(".")
    return int(seat), int(index)


def typed_text(form: SetupForm, kind: str, key: str) -> str:
    """What was typed on a text row."""
    if kind == "event":
        return form.event
    if kind == "commander":
        return form.commander(*seat_commander(key))
    return form.names[int(key)] if int(key) < len(form.names) else ""


def typed(form: SetupForm, kind: str, key: str) -> bool:
    """Whether a text row holds typed text (else its hint shows)."""
    return bool(typed_text(form, kind, key).strip())


def fill_from_game(form: SetupForm, host: Host, game: int) -> SetupForm:
    """The form as saved game ``game`` was set up: its formats, table options and players (a
    pod's event: every pod's players in order, and the event's name).  A player whose name was a
    seat's default in any language is a seat nobody typed for: it shows the hint again."""
    started = host.games()
    if game not in started:
        return form
    first = started[game]
    bases_known = {f.name for f in bases()}
    base = first.formats[0] if first.formats and first.formats[0] in bases_known else form.base
    form = replace(
        with_base(form, host.screens, base),
        modules={m.name: m.name in first.formats[1:] for m in modules()},
    )
    players = [p.name for p in first.players]
    event = ""
    if form.gathering is not None:
        players, event = form.gathering.entered(started, game)
    defaults = {
        tr("ui.setup.default_name", n=seat + 1): seat
        for tr in map(Translator, LANGUAGES)
        for seat in range(EVENT_MAX)
    }
    form = replace(
        form,
        names=tuple(
            "" if defaults.get(name) == seat else name for seat, name in enumerate(players)
        ),
        colours=() if is_event(form) else tuple(p.colour for p in first.players),
    )
    low, high = player_limits(form)
    available = options_for(form.chosen())
    state = host.state if host.game == game else None
    return replace(
        form,
        commanders=tuple(p.commanders for p in state.players) if state is not None else (),
        count=min(high, max(low, len(players))),
        event=""
        if event in {Translator(language)("ui.setup.event_default") for language in LANGUAGES}
        else event,
        options={
            name: value
            for name, value in first.options.items()
            if name in available
            and name not in event_options(form)
            and value != available[name].default
        },
        first=None,
        row=0,
        game=game,
    )


def remember_players(host: Host) -> None:
    """Fill the form from the game shown, unless it was filled from that game already (and
    changed since, maybe): what opening the screen does, and what deleting the game shown does
    first, so the table's players stay on the form when the game is gone."""
    form = host.ui.state_of(SetupForm)
    game = host.game
    if game is None and form.game is None:
        game = next(iter(host.games()), None)  # nothing shown yet: the game played last
    if game is not None and game != form.game:
        host.ui.put(fill_from_game(form, host, game))


def option_value(option: TableOption, form: SetupForm) -> str | int | bool:
    return form.options.get(option.name, option.default)


def format_title(fmt: Format, tr: Translator) -> str:
    """The format's title in the screen's language (its declared title until translated)."""
    return tr(f"format.title.{fmt.name}") if tr.template(f"format.title.{fmt.name}") else fmt.title


def option_label(option: TableOption, tr: Translator, part: str = "") -> str:
    """An option's label (``part=""``) or its help (``part=".help"``) in the screen's language."""
    key = f"option.{option.name}{part}"
    if tr.template(key):
        return tr(key)
    return option.help if part else option.name.replace("_", " ").capitalize()


def option_text(option: TableOption, value: str | int | bool, tr: Translator) -> str:
    """How a value of ``option`` reads: on or off, a choice's translated name, else the value."""
    if isinstance(value, bool):
        return tr("ui.setup.on" if value else "ui.setup.off")
    key = f"option.{option.name}.value.{value}"
    return tr(key) if tr.template(key) else str(value)


#: The most lines the help under the rows takes.  The texts are written to need two at most on
#: the smallest screen (the set-up screen's test holds them to it); a third is a longer
#: translation's room, so it wraps rather than being cut.
HELP_LINES = 3


def window(heights: list[int], cursor: int, space: int) -> tuple[int, int]:
    """The items ``[start, end)`` to draw in ``space`` pixels: the cursor's item whole and about
    in the middle, as many others as fit whole around it."""
    start, end = cursor, cursor + 1
    used = heights[cursor]
    above = (space - used) // 2
    while start > 0 and sum(heights[start - 1 : cursor]) <= above:
        start -= 1
    used = sum(heights[start:end])
    while end < len(heights) and used + heights[end] <= space:
        used += heights[end]
        end += 1
    while start > 0 and used + heights[start - 1] <= space:
        start -= 1
        used += heights[start]
    return start, end


def _counted(form: SetupForm, count: int) -> SetupForm:
    """``form`` for ``count`` players, within its format's limits (a first player past them is
    forgotten: the gadget draws)."""
    low, high = player_limits(form)
    count = min(high, max(low, count))
    first = None if form.first is not None and form.first >= count else form.first
    return replace(form, count=count, first=first)


def _optioned(form: SetupForm, key: str, steps: int) -> SetupForm:
    """``form`` with table option ``key`` turned ``steps`` (a switch flips)."""
    option = options_for(form.chosen())[key]
    value = option_value(option, form)
    if isinstance(option.default, bool):
        changed: str | int | bool = not bool(value)
    elif isinstance(option.default, int):
        low = option.low if option.low is not None else 0
        high = option.high if option.high is not None else 99
        changed = min(high, max(low, int(value) + steps * option.step))
    elif option.choices:
        changed = cycle(list(option.choices), str(value), steps)
    else:
        return form
    return replace(form, options={**form.options, key: changed})


class Setup(Screen):
    name = "setup"
    button = "ui.btn.setup"
    key = "f2"

    def form(self, ui: UiState) -> SetupForm:
        """The form as it is now: the one kept, with every module listed, whether this gadget
        hosts events as the event screen last learnt, a name for every seat an event can have
        and the cursor on one of its rows.  Reading it keeps nothing (drawing reads it); acting
        on it keeps what it made."""
        form = ui.state_of(SetupForm)
        if any(m.name not in form.modules for m in modules()):
            form = replace(form, modules={**{m.name: False for m in modules()}, **form.modules})
        info = ui.kept(EventInfo)
        hosting = info is not None and info.hosting
        if form.hosting != hosting:
            form = replace(form, hosting=hosting)
        form = self._names(form)
        table = rows(form)
        return form if form.row < len(table) else replace(form, row=len(table) - 1)

    def wants_text(self, ui: UiState) -> bool:
        form = self.form(ui)
        return rows(form)[form.row][0] in TEXT_ROWS

    @staticmethod
    def _names(form: SetupForm) -> SetupForm:
        """``form`` with a name (typed or not) for every seat an event can have."""
        if len(form.names) >= EVENT_MAX:
            return form
        return replace(form, names=form.names + ("",) * (EVENT_MAX - len(form.names)))

    def enter(self, host: Host) -> None:
        remember_players(host)
        host.ui.put(replace(self.form(host.ui), saved=host.saved_count()))

    def act(self, host: Host, action: Action) -> bool:
        form = host.ui.put(self.form(host.ui))
        table = rows(form)
        kind, key = table[form.row]
        if isinstance(action, Focus | Press) and self._selected(host, form, len(table), action):
            return True
        if isinstance(action, SavedGames):
            host.go(GAMES)
            return True
        if isinstance(action, Turn):
            host.ui.put(self._change(host, form, kind, key, action.steps))
            return True
        if isinstance(action, Type | Erase) and kind in TEXT_ROWS:
            try:
                host.ui.put(self._edit(form, kind, key, action))
            except (
                IllegalCommand
            ) as error:  # the name would be refused at the start: said now, where it is typed
                host.refuse(error)
            return True
        if isinstance(action, Press) and action.button is Button.NEXT:
            if kind in TEXT_ROWS:
                host.ui.put(replace(form, row=form.row + 1))
                return True
            return self._start(host, form)
        if isinstance(action, SeatColour):
            host.ui.put(replace(form, colours=turned(form.seat_colours(), action.seat, 1)))
            return True
        if isinstance(action, SetupRow):
            return self._tap(host, form, table, action.row)
        if isinstance(action, Back):
            if host.state is not None:
                host.go("table")
            return True
        return isinstance(action, (Type, Erase))  # typed keys never leak into shortcuts here

    def _tap(self, host: Host, form: SetupForm, table: list[tuple[str, str]], row: int) -> bool:
        """A touch on a row: the focused one changes, the start row starts."""
        if row == form.row and table[row][0] not in (*TEXT_ROWS, "start"):
            form = self._change(host, form, *table[row], 1)
        form = host.ui.put(replace(form, row=row))
        if table[row][0] == "start":
            return self._start(host, form)
        return True

    @staticmethod
    def _selected(host: Host, form: SetupForm, count: int, action: Focus | Press) -> bool:
        """←/→ and SELECT move between the rows; a long SELECT opens the saved games.  True when
        ``action`` was one of those."""
        if isinstance(action, Focus):
            host.ui.put(replace(form, row=(form.row + action.delta) % count))
        elif action.button is not Button.SELECT:
            return False
        elif action.long:
            host.go(GAMES)
        else:
            host.ui.put(replace(form, row=(form.row + 1) % count))
        return True

    @staticmethod
    def _edit(form: SetupForm, kind: str, key: str, action: Type | Erase) -> SetupForm:
        """A key typed or erased on a seat's name, a commander's or the event's.  A player's or
        commander's name longer than a game takes is refused as starting the game would refuse
        it (the text stays as it was)."""
        text = typed_text(form, kind, key)
        limit = MAX_COMMANDER_NAME if kind == "commander" else MAX_NAME
        if isinstance(action, Type):
            longer = text + "".join(ch for ch in action.text if ch.isprintable())
            if kind != "event":
                check_fits(" ".join(longer.split()), limit)
            text = longer[:limit]
        else:
            text = text[:-1]
        if kind == "commander":
            return form.with_commander(*seat_commander(key), text)
        if kind == "name":
            seat = int(key)
            return replace(form, names=(*form.names[:seat], text, *form.names[seat + 1 :]))
        return replace(form, event=text)

    def _change(self, host: Host, form: SetupForm, kind: str, key: str, steps: int) -> SetupForm:
        """``form`` with row ``(kind, key)`` turned ``steps`` (the language row changes the screen's)."""
        if kind == "base":
            base = cycle([f.name for f in bases()], form.base, steps)
            return _counted(with_base(form, host.screens, base), form.count)
        if kind == "module":
            return replace(form, modules={**form.modules, key: not form.modules.get(key, False)})
        if kind == "count":
            return _counted(form, form.count + steps)
        if kind == "first":
            choices: list[int | None] = [None, *range(form.count)]
            index = choices.index(form.first) if form.first in choices else 0
            return replace(form, first=choices[(index + steps) % len(choices)])
        if kind == "option":
            return _optioned(form, key, steps)
        if kind == "where":
            return replace(form, here=not form.here)
        if kind == "language":
            host.ui.language = cycle(list(LANGUAGES), host.ui.language, steps)
        if kind == "name":
            return replace(form, colours=turned(form.seat_colours(), int(key), steps))
        return form

    def _start(self, host: Host, form: SetupForm) -> bool:
        names = [form.name(seat, host.tr) for seat in range(form.count)]
        available = options_for(form.chosen())
        options: dict[str, str] = {}
        for name, value in form.options.items():
            option = available.get(name)
            if option is None or value == option.default:
                continue
            options[name] = ("on" if value else "off") if isinstance(value, bool) else str(value)
        if form.gathering is not None:
            return self._start_event(host, form, form.gathering, names, options)
        command = NewGame(
            formats=tuple(form.chosen()),
            players=tuple(names),
            first=names[form.first] if form.first is not None else None,
            options=options,
            colours=form.seat_colours(),
            commanders=form.named_commanders(),
        )
        if host.execute(command) is not None:
            host.ui.cursor = None
            if (
                host.ui.screen != DICE
            ):  # the first player's draw shows first; it goes on to the table itself
                host.go("table")
        return True

    def _start_event(
        self,
        host: Host,
        form: SetupForm,
        event: Gathering,
        names: list[str],
        options: dict[str, str],
    ) -> bool:
        """CJ-1: the event's games, started here or, on the organiser's gadget at a broker, drawn
        and published for the tables there (CJ-2), whose EVENT screen then shows it."""
        name = form.event_name(host.tr)
        handed = {k: v for k, v in options.items() if k not in event.options}
        if form.hosting and not form.here:
            if host.host_event(name, names, handed):
                host.go(EVENT)
            return True
        event.start(host, name, names, handed, form.chosen()[1:])
        return True

    # -- drawing --------------------------------------------------------------------------

    def _value(self, view: View, form: SetupForm, kind: str, key: str) -> str:
        tr = view.tr
        if kind == "base":
            return next(format_title(f, tr) for f in bases() if f.name == form.base)
        if kind == "module":
            return tr("ui.setup.on" if form.modules.get(key) else "ui.setup.off")
        if kind == "count":
            if is_event(form):
                return tr(
                    "ui.setup.event_count",
                    count=form.count,
                    pods=" + ".join(str(size) for size in split(form)),
                )
            return str(form.count)
        if kind == "name":
            return form.name(int(key), tr)
        if kind == "event":
            return form.event_name(tr)
        if kind == "commander":
            seat, index = seat_commander(key)
            typed_name = " ".join(form.commander(seat, index).split())
            return typed_name or tr("ui.setup.no_partner" if index else "ui.setup.unnamed")
        if kind == "first":
            return tr("ui.setup.random") if form.first is None else form.name(form.first, tr)
        if kind == "option":
            option = options_for(form.chosen())[key]
            return option_text(option, option_value(option, form), tr)
        if kind == "language":
            return LANGUAGE_NAMES[view.ui.language]
        if kind == "where":
            return tr("ui.setup.where.here" if form.here else "ui.setup.where.tables")
        return ""

    def _label(self, view: View, kind: str, key: str) -> str:
        tr = view.tr
        if kind == "module":
            return next(format_title(f, tr) for f in modules() if f.name == key)
        if kind == "name":
            return tr("ui.setup.player", seat=int(key) + 1)
        if kind == "commander":
            return tr("ui.setup.partner" if seat_commander(key)[1] else "ui.setup.commander")
        if kind == "option":
            return option_label(options_for(self.form(view.ui).chosen())[key], tr)
        labels = {
            "base": "ui.setup.format",
            "count": "ui.setup.players",
            "first": "ui.setup.first",
            "language": "ui.setup.language",
            "start": "ui.setup.start",
            "event": "ui.setup.event",
            "where": "ui.setup.where",
        }
        if kind == "start" and is_event(self.form(view.ui)):
            return tr("ui.setup.start_event")
        return tr(labels[kind])

    def _help(self, view: View, form: SetupForm, kind: str, key: str) -> str:
        """What the focused row does: an option's help, or the keys for this kind of row."""
        if kind == "option":
            return option_label(options_for(form.chosen())[key], view.tr, ".help")
        if kind in TEXT_ROWS:
            return view.tr(f"ui.setup.hint_{kind}")
        return view.tr("ui.setup.hint")

    def draw(self, view: View) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        form = self.form(view.ui)
        table = rows(form)
        x0, width = lay.margin, c.width - 2 * lay.margin
        top = self._draw_title(view, form, x0, width)

        # The help under the rows: the focused row's, wrapped; its room stays the same as the
        # cursor moves (two lines, or three while a longer help shows), so the rows keep still.
        focus_kind, focus_key = table[form.row]
        hint = self._help(view, form, focus_kind, focus_key)
        step = c.fonts.line_height(lay.tiny)
        lines = max(2, min(HELP_LINES, len(c.wrap(hint, lay.tiny, width))))
        help_top = view.bottom - lines * step

        # The rows, with a heading over each format's options (and over every game's, the part's).
        options = options_for(form.chosen())
        titles = {f.name: format_title(f, tr) for f in formats()}
        titles.update(
            {o.module: tr(f"ui.setup.part.{o.module}") for o in options.values() if o.everywhere}
        )
        items: list[tuple[str, str, int]] = []  # (kind, key, row); a heading's row is -1
        owner = ""
        for index, (kind, key) in enumerate(table):
            if kind == "option" and options[key].module != owner:
                owner = options[key].module
                items.append(("heading", owner, -1))
            items.append((kind, key, index))
        gap = 2
        row_h = max(lay.touch + gap, int(c.fonts.line_height(lay.small) * 1.35))
        heading_h = c.fonts.line_height(lay.tiny, True) + lay.margin
        heights = [heading_h if kind == "heading" else row_h for kind, _, _ in items]
        cursor = next(i for i, item in enumerate(items) if item[2] == form.row)
        space = help_top - lay.margin // 2 - top
        first, last = window(heights, cursor, space)
        if items[last - 1][0] == "heading":
            last -= 1  # a heading is shown with its first option, never alone at the bottom
        row_w = width
        if first > 0 or last < len(items):
            gutter = c.fonts.measure("↓", lay.small, True)[0] + lay.margin
            row_w = width - gutter
            self._scroll_marks(
                view, (x0 + row_w, top, gutter, sum(heights[first:last])), first, last, len(items)
            )
        label_w = row_w * 2 // 5
        y = top
        for kind, key, index in items[first:last]:
            if kind == "heading":
                c.text(
                    titles.get(key, key),
                    (x0 + lay.margin, y + heading_h - lay.margin // 2),
                    lay.tiny,
                    theme.CURSOR,
                    anchor="bottomleft",
                    bold=True,
                    max_width=row_w - lay.margin,
                    role="setup.heading",
                )
                y += heading_h
                continue
            rect = (x0, y, row_w, row_h - gap)
            focused = index == form.row
            if kind == "start":
                c.box(rect, theme.ACTIVE)
            if focused:
                c.box(rect, theme.PANEL_HI)
                c.box(rect, theme.CURSOR, width=max(1, lay.line))
            middle = y + (row_h - gap) // 2
            label = self._label(view, kind, key)
            if kind == "start":
                c.text(
                    label,
                    (x0 + row_w // 2, middle),
                    lay.small,
                    theme.TEXT,
                    anchor="center",
                    bold=True,
                    max_width=row_w - 2 * lay.margin,
                    role="setup.start",
                )
            else:
                indent = lay.margin * (3 if kind == "commander" else 1)  # under its player's name
                c.text(
                    label,
                    (x0 + indent, middle),
                    lay.small,
                    theme.DIM,
                    anchor="midleft",
                    max_width=label_w - indent,
                    role=f"setup.label.{kind}",
                )
                room = row_w - label_w - lay.margin
                swatch = kind == "name" and not is_event(form)
                if swatch:
                    room -= rect[3] + lay.margin
                self._draw_value(view, form, kind, key, (x0 + label_w, middle), room, focused)
            c.target(rect, SetupRow(index))
            if kind == "name" and not is_event(form):
                self._draw_colour(view, form, int(key), rect)
            y += row_h
        # Right under the last row shown (the rows fill their room but for less than a row).
        help_y = min(help_top, y + lay.margin // 2)
        c.paragraph(
            hint,
            (x0, help_y, width, lines * step),
            lay.tiny,
            theme.DIM,
            role="setup.hint",
            min_size=lay.tiny,
        )

    @staticmethod
    def _draw_title(view: View, form: SetupForm, x0: int, width: int) -> int:
        """The title and, with saved games, the chip that opens them at its right (the line a
        fingertip tall then); returns where the rows start."""
        c, lay, tr = view.canvas, view.layout, view.tr
        title = tr("ui.setup.title")
        if not form.saved:
            c.text(
                title,
                (x0, view.top),
                lay.medium,
                theme.CURSOR,
                bold=True,
                max_width=width,
                role="setup.title",
            )
            return view.top + c.fonts.line_height(lay.medium, True)
        label = tr("ui.games.title", n=form.saved)
        title_w = min(c.fonts.measure(title, lay.medium, True)[0], width // 2)
        chip_w = min(
            max(lay.touch, c.fonts.measure(label, lay.small, True)[0] + 2 * lay.margin),
            width - title_w - lay.margin,
        )
        height = max(lay.touch, c.fonts.line_height(lay.medium, True))
        c.text(
            title,
            (x0, view.top + height // 2),
            lay.medium,
            theme.CURSOR,
            anchor="midleft",
            bold=True,
            max_width=width - chip_w - lay.margin,
            role="setup.title",
        )
        rect = (x0 + width - chip_w, view.top, chip_w, lay.touch)
        draw_chip(view, rect, label, False, False, "setup.games")
        c.target(rect, SavedGames())
        return view.top + height + max(2, lay.margin // 2)

    def _draw_value(
        self,
        view: View,
        form: SetupForm,
        kind: str,
        key: str,
        at: tuple[int, int],
        room: int,
        focused: bool,
    ) -> None:
        """A row's value at ``at``, in ``room``; on a focused name or event row, with the caret
        (before the dimmed default while nothing is typed)."""
        c, lay = view.canvas, view.layout
        value = self._value(view, form, kind, key)
        text_row = kind in TEXT_ROWS
        if text_row and not typed(form, kind, key):
            # Nothing typed: the default is a hint, dimmed, after the caret when focused.
            if focused:
                caret = c.text(
                    "_",
                    at,
                    lay.small,
                    theme.TEXT,
                    anchor="midleft",
                    bold=True,
                    role=f"setup.caret.{kind}",
                )
                at, room = (caret.right, at[1]), room - caret.width
            c.text(
                value,
                at,
                lay.small,
                theme.DIM,
                anchor="midleft",
                max_width=room,
                role=f"setup.placeholder.{kind}",
            )
            return
        if focused and text_row:
            value += "_"
        c.text(
            value,
            at,
            lay.small,
            theme.TEXT,
            anchor="midleft",
            bold=focused,
            max_width=room,
            role=f"setup.value.{kind}",
        )

    @staticmethod
    def _draw_colour(
        view: View, form: SetupForm, seat: int, row: tuple[int, int, int, int]
    ) -> None:
        """The seat's colour at the right of its name row, as large as the row is tall: a tap
        (or the encoder on the row) gives it the next colour."""
        c, lay = view.canvas, view.layout
        x, y, w, h = row
        inset = max(2, lay.margin // 2)
        side = h - 2 * inset
        rect = (x + w - inset - side, y + inset, side, side)
        c.box(rect, theme.shade(form.seat_colours()[seat]))
        c.target((x + w - h, y, h, h), SeatColour(seat))

    @staticmethod
    def _scroll_marks(
        view: View, rect: tuple[int, int, int, int], first: int, last: int, total: int
    ) -> None:
        """Arrows at the top and bottom of the gutter while rows are hidden above or below, and
        between them a bar showing which part of the list is on screen."""
        c, lay = view.canvas, view.layout
        x, y, w, h = rect
        arrow_h = c.fonts.line_height(lay.small, True)
        middle = x + w // 2
        if first > 0:
            c.text(
                "↑",
                (middle, y),
                lay.small,
                theme.CURSOR,
                anchor="midtop",
                bold=True,
                role="setup.more.up",
            )
        if last < total:
            c.text(
                "↓",
                (middle, y + h),
                lay.small,
                theme.CURSOR,
                anchor="midbottom",
                bold=True,
                role="setup.more.down",
            )
        track_top, track_h = y + arrow_h, max(1, h - 2 * arrow_h)
        thick = max(2, lay.line * 2)
        c.box((middle - thick // 2, track_top, thick, track_h), theme.PANEL, radius=thick // 2)
        thumb_top = track_top + track_h * first // total
        thumb_h = max(thick, track_h * (last - first) // total)
        c.box((middle - thick // 2, thumb_top, thick, thumb_h), theme.DIM, radius=thick // 2)
