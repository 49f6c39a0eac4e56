"""Wizard's Duel, "Pojedynek czarnoksiężnika" (SPEC section 6, WD-1..WD-4): the duel's table.

It stands in for the table screen when the base format is the duel: a duel counts magic points
and element dice, not life.  At the top, the phase banner: round, phase (1–4), what NEXT does
now and the market.  Then one tile per player: magic points large; hand, reserve, the last roll,
the mana pool, the shield, the dice set aside, each spell card with the dice on it, fatigue and
the once-per-game abilities used.  At the bottom, the choice in hand now, as a row of chips:

- phase 1, a player who rolled: the rolled dice (pick the ones to set aside), then "put them in
  the mana pool" or "take all back"; with the antimagic shield, one picked die may go to the shield;
- phase 1 before anyone rolls, while a player has fewer than three starting spell cards
  described: a chip per such player opens the card form (display/screens/wizards_duel_card.py);
- phase 2, the first player still incanting (←/→ on the player chip switches): mana-pool dice to
  pick, the spells they can go on, "market card N" (←/→ change N) to learn that card — the form
  describes it and the dice picked here are its suggested payment —, "new card" while the player
  has fewer than three starting cards, and "ready";
- phase 3, the caster: the activated spells, then the target if there is more than one, or "pass";
- an attack: the defender's options — none, a healing spell, reserve dice, a counterattack with
  mana-pool dice (←/→ change how many), the power drain;
- a player at 0 with the power sacrifice: a basic card to sacrifice, or drop out.

↑/↓ (the encoder) move between chips, ←/→ change the number on a chip, SELECT (Tab) or a tap
picks; NEXT does what the banner says (the rules' NEXT), ROLL rolls.  A learning refused by the
one-per-round rule says so at once, in the rules' words, before any describing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from msgspec import Struct, field
from msgspec.structs import replace

from device.controller import Result
from device.events import Event
from device.inputs import Button
from device.rules.wizards_duel.queries import (
    BASIC_CARDS,
    NAME,
    basic_cards,
    may_cast,
    spell_name,
    spell_text,
)
from device.rules.wizards_duel.commands import (
    CastSpell,
    Defend,
    DropOut,
    GatherMana,
    PassCasting,
    PassIncantations,
    PaySpell,
    SacrificePower,
    SetShieldDie,
)
from device.rules.table import round_from
from device.state import GameState
from device.rules.wizards_duel.state import (
    Face,
    Spell,
    SpellCard,
    SpellKind,
    Wizard,
    WizardsDuelState,
)
from device.text import Message
from device.rules.registry import outcome
from display import theme
from display.canvas import Rect
from display.chips import block, chip_fits, chip_label, inset, marker, marker_width, wrap_fit
from display.i18n import Translator
from display.screens import Host, Screen, View, sends
from display.screens.table import PickSeat, loss_text, seat_rects
from display.screens.wizards_duel_card import ERROR_SECONDS, needs_cards, open_form
from display.ui import Action, Focus, Line, Press, Tap, Turn, UiState


class DuelChip(Tap, frozen=True):
    """One of the choice's chips."""

    index: int


class DuelScroll(Tap, frozen=True):
    """A scroll marker beside the chips: the next hidden chip (``index``)."""

    index: int


#: The schools' colours, as on the dice and cards (magic violet, fire red, water blue, earth
#: green, air yellow), and the label colour that reads on each.
FACE_COLORS: dict[Face, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    Face.MAGIC: ((150, 80, 210), theme.TEXT),
    Face.FIRE: ((215, 70, 55), theme.TEXT),
    Face.WATER: ((55, 120, 225), theme.TEXT),
    Face.EARTH: ((70, 165, 80), theme.BG),
    Face.AIR: ((235, 205, 60), theme.BG),
}


# --- what is being decided now ---------------------------------------------------------------


class DuelForm(Struct, frozen=True):
    """The screen's own state: the decision on the table it belongs to, the highlighted chip, the
    dice picked, the numbers chosen with ←/→ (a market card, how many dice), a spell waiting for
    its target (card number, spell) and the player incanting."""

    context: tuple[object, ...] = ()
    pick: int = 0
    marked: tuple[int, ...] = ()
    numbers: Mapping[str, int] = field(
        default_factory=dict
    )  # replaced whole, never changed in place
    spell: tuple[int, int] | None = None
    seat: int | None = None


#: What picking a chip does, given the screen's state with the cursor on it: send a command to
#: the rules, or change the screen's own state (a die marked, the target asked next, a form shown).
Pick = Callable[[Host, DuelForm], None]
#: What ←/→ do on a chip with a number or a player to change: the screen's state one step on.
Shift = Callable[[DuelForm, int], DuelForm]


class Chip(Struct, frozen=True):
    """One choice on screen: its words (a die chip: its face, drawn as the die) and what picking
    it does; ←/→ change its ``number`` or player where it has ``shift``, else move along the row."""

    label: str
    pick: Pick
    face: Face | None = None
    marked: bool = False  # a die picked
    number: int | None = None
    shift: Shift | None = None


class Choice(Struct, frozen=True):
    seat: int  # who decides
    prompt: str
    chips: tuple[Chip, ...]


def _order(state: GameState, duel: WizardsDuelState) -> list[int]:
    """Seats in turn order from the starting player, still in the game."""
    return [seat for seat in round_from(state, duel.starting) if state.player(seat).in_game]


def current_form(ui: UiState, state: GameState) -> DuelForm:
    """The screen's own state, started afresh whenever the decision on the table changes: read
    without keeping anything (drawing reads it), kept when an action changes it."""
    duel = state.wizards_duel
    assert duel is not None
    context = (
        duel.round,
        duel.phase,
        duel.gather_turn,
        duel.last_roll,
        duel.to_move,
        duel.attack is not None,
        tuple(w.falling for w in duel.wizards),
        tuple(w.chosen for w in duel.wizards),
        tuple(w.passed for w in duel.wizards),
    )
    form = ui.state_of(DuelForm)
    return form if form.context == context else DuelForm(context=context)


# --- what picking a chip does ----------------------------------------------------------------


def _spell_waiting(spell: tuple[int, int] | None) -> Pick:
    """The spell whose target is asked next (card number, spell), or back to the spells: None."""

    def pick(host: Host, form: DuelForm) -> None:
        host.ui.put(replace(form, spell=spell, pick=0))

    return pick


def _toggle_die(index: int) -> Pick:
    def pick(host: Host, form: DuelForm) -> None:
        marked = form.marked
        toggled = tuple(i for i in marked if i != index) if index in marked else (*marked, index)
        host.ui.put(replace(form, marked=toggled))

    return pick


def _describe(seat: int, slot: int | None = None, picked: tuple[Face, ...] = ()) -> Pick:
    def pick(host: Host, form: DuelForm) -> None:
        open_form(host, seat, slot, picked)

    return pick


def _refuse(message: Message) -> Pick:
    """The rules' refusal, said at once: learning a second card in a round, before the player
    describes a whole card."""

    def pick(host: Host, form: DuelForm) -> None:
        host.ui.error = Line(message, host.now() + ERROR_SECONDS, message.key)

    return pick


def _shifted(shift: Shift) -> Pick:
    """Picking a chip that ←/→ change: one step on (the next player)."""

    def pick(host: Host, form: DuelForm) -> None:
        host.ui.put(shift(form, 1))

    return pick


def _other_player(state: GameState, duel: WizardsDuelState, seat: int) -> Shift:
    """←/→ on the player chip: the next or previous player still incanting."""

    def shift(form: DuelForm, delta: int) -> DuelForm:
        waiting = [s for s in _order(state, duel) if not duel.wizard(s).passed]
        if seat in waiting:
            return replace(
                form, seat=waiting[(waiting.index(seat) + delta) % len(waiting)], marked=()
            )
        return form

    return shift


def _number(key: str, low: int, high: int) -> Shift:
    def shift(form: DuelForm, delta: int) -> DuelForm:
        shown = max(low, min(high, form.numbers.get(key, high)))
        return replace(form, numbers={**form.numbers, key: max(low, min(high, shown + delta))})

    return shift


def _market_card(slots: list[int], slot: int) -> Shift:
    def shift(form: DuelForm, delta: int) -> DuelForm:
        return replace(
            form, numbers={**form.numbers, "learn": slots[(slots.index(slot) + delta) % len(slots)]}
        )

    return shift


def _pool_picked(wizard: Wizard, marked: Sequence[int]) -> tuple[Face, ...]:
    """The mana-pool dice picked, in the pool's order (a spell's payment, a card's suggested one)."""
    return tuple(wizard.pool[i] for i in sorted(marked) if i < len(wizard.pool))


def _dice(faces: Sequence[Face], marked: Sequence[int]) -> list[Chip]:
    return [Chip("", _toggle_die(i), face=face, marked=i in marked) for i, face in enumerate(faces)]


# --- what is being decided now ---------------------------------------------------------------


def spell_label(tr: Translator, card: SpellCard, index: int) -> str:
    """A spell on a chip: which one, in words ("Burza, spell 2", not the console's "Burza/2"), and
    what it does."""
    return f"{_spell_name(tr, card, index)}: {tr.message(spell_text(card.spells[index]))}"


def _spell_name(tr: Translator, card: SpellCard, index: int) -> str:
    name = spell_name(card, index)
    return name if isinstance(name, str) else tr.message(name)


def _falling_choice(state: GameState, tr: Translator, wizard: Wizard) -> Choice:
    seat = wizard.seat
    chips = [
        Chip(
            tr("ui.wd.chip.sacrifice", card=card.name),
            sends(SacrificePower(seat=seat, card=card.name)),
        )
        for card in wizard.cards
        if card.basic and not card.on_table
    ]
    chips.append(Chip(tr("ui.wd.chip.dropout"), sends(DropOut(seat=seat))))
    return Choice(seat, tr("ui.wd.ask.falling", name=state.player(seat).name), tuple(chips))


def _defence_choice(
    state: GameState, tr: Translator, duel: WizardsDuelState, form: DuelForm
) -> Choice:
    attack = duel.attack
    assert attack is not None
    seat = attack.target
    wizard = duel.wizard(seat)
    numbers = form.numbers
    chips = [Chip(tr("ui.wd.chip.no_defence"), sends(Defend(seat=seat, how="none")))]
    for card in wizard.cards:
        for index, spell in enumerate(card.spells):
            if spell.ready and spell.kind is SpellKind.HEALING:
                chips.append(
                    Chip(
                        spell_label(tr, card, index),
                        sends(Defend(seat=seat, how="heal", card=card.name, spell=index)),
                    )
                )
    most = min(attack.strength, wizard.reserve)
    if most >= 1:
        n = max(1, min(most, numbers.get("reserve", most)))
        chips.append(
            Chip(
                tr("ui.wd.chip.reserve", n=n),
                sends(Defend(seat=seat, how="reserve", count=n)),
                number=n,
                shift=_number("reserve", 1, most),
            )
        )
    if wizard.pool:
        n = max(1, min(len(wizard.pool), numbers.get("counter", len(wizard.pool))))
        chips.append(
            Chip(
                tr("ui.wd.chip.counter", n=n),
                sends(Defend(seat=seat, how="counter", dice=wizard.pool[:n])),
                number=n,
                shift=_number("counter", 1, len(wizard.pool)),
            )
        )
    if state.options.get("power_drain") and not wizard.drain_used and wizard.reserve >= 1:
        chips.append(Chip(tr("ui.wd.chip.drain"), sends(Defend(seat=seat, how="drain"))))
    caster = duel.wizard(attack.caster).card(attack.card)
    prompt = tr(
        "ui.wd.ask.defend",
        name=state.player(seat).name,
        caster=state.player(attack.caster).name,
        card=_spell_name(tr, caster, attack.spell),
        spell=tr.message(spell_text(caster.spells[attack.spell])),
    )
    return Choice(seat, prompt, tuple(chips))


def _gather_choice(state: GameState, tr: Translator, wizard: Wizard, form: DuelForm) -> Choice:
    assert wizard.rolled is not None
    seat = wizard.seat
    marked = form.marked
    chips = _dice(wizard.rolled, marked)
    picked = [wizard.rolled[i] for i in marked if i < len(wizard.rolled)]
    gather = sends(GatherMana(seat=seat, aside=tuple(wizard.rolled[i] for i in sorted(marked))))
    chips.append(
        Chip(
            tr("ui.wd.chip.gather", n=len(picked)) if picked else tr("ui.wd.chip.take_back"), gather
        )
    )
    if state.options.get("antimagic_shield") and len(picked) == 1 and picked[0] is not Face.AIR:
        chips.append(
            Chip(
                tr("ui.wd.chip.shield", face=tr(f"wd.face.{picked[0].value}")),
                sends(SetShieldDie(seat=seat, face=picked[0])),
            )
        )
    return Choice(seat, tr("ui.wd.ask.gather", name=state.player(seat).name), tuple(chips))


def _incantation_choice(
    state: GameState, tr: Translator, duel: WizardsDuelState, form: DuelForm
) -> Choice | None:
    waiting = [seat for seat in _order(state, duel) if not duel.wizard(seat).passed]
    if not waiting:
        return None
    seat = form.seat if form.seat in waiting else waiting[0]
    wizard = duel.wizard(seat)
    picked = _pool_picked(wizard, form.marked)
    switch = _other_player(state, duel, seat)
    chips = [
        Chip(tr("ui.wd.chip.player", name=state.player(seat).name), _shifted(switch), shift=switch)
    ]
    chips += _dice(wizard.pool, form.marked)
    for card in wizard.cards:
        for index, spell in enumerate(card.spells):
            if not spell.dice:
                chips.append(
                    Chip(
                        tr("ui.wd.chip.pay", spell=spell_label(tr, card, index)),
                        sends(PaySpell(seat=seat, card=card.name, spell=index, dice=picked)),
                    )
                )
    slots = _market_slots(duel)
    if slots and wizard.pool:
        slot = form.numbers.get("learn", slots[0])
        slot = slot if slot in slots else slots[0]
        # The rules' one-per-round refusal, said before the player describes a whole card.
        learn = (
            _refuse(Message("wd.learned_already", name=state.player(seat).name))
            if wizard.learned
            else _describe(seat, slot, picked)
        )
        several = len(slots) > 1
        chips.append(
            Chip(
                tr("ui.wd.chip.learn", slot=slot),
                learn,
                number=slot if several else None,
                shift=_market_card(slots, slot) if several else None,
            )
        )
    if needs_cards(wizard):
        chips.append(
            Chip(
                tr("ui.wd.chip.new_card", n=basic_cards(wizard), total=BASIC_CARDS), _describe(seat)
            )
        )
    chips.append(Chip(tr("ui.wd.chip.ready"), sends(PassIncantations(seat=seat))))
    prompt = tr("ui.wd.ask.incant", name=state.player(seat).name)
    if not wizard.cards:
        prompt = tr("ui.wd.ask.no_cards", name=state.player(seat).name)
    return Choice(seat, prompt, tuple(chips))


def _market_slots(duel: WizardsDuelState) -> list[int]:
    """The market cards still face up this round, 1-based."""
    return [i + 1 for i, up in enumerate(duel.market) if up]


def _describe_choice(state: GameState, tr: Translator, duel: WizardsDuelState) -> Choice | None:
    """Before the rolls: the players whose starting spell cards are not all described yet."""
    seats = [seat for seat in _order(state, duel) if needs_cards(duel.wizard(seat))]
    if not seats:
        return None
    chips = [
        Chip(
            tr(
                "ui.wd.chip.describe",
                name=state.player(seat).name,
                n=basic_cards(duel.wizard(seat)),
                total=BASIC_CARDS,
            ),
            _describe(seat),
        )
        for seat in seats
    ]
    return Choice(seats[0], tr("ui.wd.ask.describe", total=BASIC_CARDS), tuple(chips))


def _targets(state: GameState, duel: WizardsDuelState, caster: int) -> list[int]:
    return [
        seat
        for seat in _order(state, duel)
        if seat != caster and duel.wizard(seat).sacrificed_round != duel.round
    ]


def _cast(state: GameState, duel: WizardsDuelState, seat: int, card: SpellCard, index: int) -> Pick:
    """A spell chip: cast at once when it heals or has one target; else the target is asked next."""
    targets = _targets(state, duel, seat)
    if card.spells[index].kind is SpellKind.HEALING:
        return sends(CastSpell(seat=seat, card=card.name, spell=index))
    if len(targets) == 1:
        return sends(CastSpell(seat=seat, card=card.name, spell=index, target=targets[0]))
    return _spell_waiting((card.number, index))


def _casting_choice(
    state: GameState, tr: Translator, duel: WizardsDuelState, form: DuelForm
) -> Choice | None:
    mover = duel.to_move
    if mover is None:
        return None
    wizard = duel.wizard(mover)
    name = state.player(mover).name
    waiting = form.spell
    if waiting is not None:
        card = wizard.card(waiting[0])
        chips = [
            Chip(
                tr("ui.wd.chip.target", name=state.player(seat).name),
                sends(CastSpell(seat=mover, card=card.name, spell=waiting[1], target=seat)),
            )
            for seat in _targets(state, duel, mover)
        ]
        chips.append(Chip(tr("ui.wd.chip.back"), _spell_waiting(None)))
        return Choice(
            mover,
            tr("ui.wd.ask.target", name=name, spell=_spell_name(tr, card, waiting[1])),
            tuple(chips),
        )
    chips = [
        Chip(spell_label(tr, card, index), _cast(state, duel, mover, card, index))
        for card in wizard.cards
        for index, spell in enumerate(card.spells)
        if spell.ready
    ]
    chips.append(Chip(tr("ui.wd.chip.hold"), sends(PassCasting(seat=mover))))
    return Choice(mover, tr("ui.wd.ask.cast", name=name), tuple(chips))


def choice(state: GameState, tr: Translator, form: DuelForm) -> Choice | None:
    """What the table decides now, if the screen can offer it (None: NEXT or ROLL moves on)."""
    duel = state.wizards_duel
    if duel is None or outcome(state) is not None:
        return None
    falling = [seat for seat in _order(state, duel) if duel.wizard(seat).falling]
    if falling:
        return _falling_choice(state, tr, duel.wizard(falling[0]))
    if duel.attack is not None:
        return _defence_choice(state, tr, duel, form)
    if duel.phase == 1:
        rolled = [
            seat
            for seat in _order(state, duel)
            if duel.wizard(seat).rolled is not None and not duel.wizard(seat).chosen
        ]
        return (
            _gather_choice(state, tr, duel.wizard(rolled[0]), form)
            if rolled
            else _describe_choice(state, tr, duel)
        )
    if duel.phase == 2:
        return _incantation_choice(state, tr, duel, form)
    if duel.phase == 3:
        return _casting_choice(state, tr, duel, form)
    return None


def next_hint(state: GameState, tr: Translator) -> str:
    """What the NEXT button does now (the rules' NEXT binding, in words)."""
    duel = state.wizards_duel
    if duel is None or outcome(state) is not None:
        return ""

    def names(seats: list[int]) -> str:
        return ", ".join(state.player(s).name for s in seats)

    order = _order(state, duel)
    falling = [s for s in order if duel.wizard(s).falling]
    if falling:
        return tr("ui.wd.next.falling", names=names(falling))
    if duel.attack is not None:
        return tr("ui.wd.next.undefended", name=state.player(duel.attack.target).name)
    if duel.phase == 1:
        to_roll = [s for s in order if duel.wizard(s).rolled is None and not duel.wizard(s).chosen]
        if to_roll:
            key = "ui.wd.next.last_roll" if duel.last_roll else "ui.wd.next.roll"
            return tr(key, names=names(to_roll))
        return tr(
            "ui.wd.next.waiting", names=names([s for s in order if not duel.wizard(s).chosen])
        )
    if duel.phase == 2:
        return tr("ui.wd.next.ready", names=names([s for s in order if not duel.wizard(s).passed]))
    mover = duel.to_move if duel.to_move is not None else duel.starting
    return tr("ui.wd.next.pass", name=state.player(mover).name)


def mover_text(state: GameState, tr: Translator) -> str:
    """Whose move it is, for the header: the phase and the player(s) it waits for."""
    duel = state.wizards_duel
    if duel is None:
        return ""
    order = _order(state, duel)
    falling = [s for s in order if duel.wizard(s).falling]
    if falling:
        return tr("ui.wd.move.falling", name=state.player(falling[0]).name)
    if duel.attack is not None:
        return tr("ui.wd.move.defend", name=state.player(duel.attack.target).name)
    if duel.phase == 1:
        waiting = [s for s in order if not duel.wizard(s).chosen]
        if len(waiting) == 1:
            return tr("ui.wd.move.gather_one", name=state.player(waiting[0]).name)
        return tr("ui.wd.move.gather")
    if duel.phase == 2:
        waiting = [s for s in order if not duel.wizard(s).passed]
        if len(waiting) == 1:
            return tr("ui.wd.move.incant_one", name=state.player(waiting[0]).name)
        return tr("ui.wd.move.incant")
    mover = duel.to_move if duel.to_move is not None else duel.starting
    return tr("ui.wd.move.cast", name=state.player(mover).name)


# --- the screen ------------------------------------------------------------------------------


class WizardsDuel(Screen):
    name = NAME
    button = ""  # it is the table in a duel: the table's button and key show it
    key = ""
    base = NAME  # the header of a duel (whose move it is), and its table
    is_table = True
    headline = staticmethod(mover_text)
    # The duel counts rounds and phases, which its screen shows; the table's turn counter means nothing.
    turn_text = staticmethod(lambda state, tr: "")

    def available(self, state: GameState | None) -> bool:
        return state is not None and state.wizards_duel is not None

    def follows(self, events: Sequence[Event]) -> bool:
        return False  # the table follows a new game; it draws through this screen

    def after(self, host: Host, result: Result) -> None:
        form = host.ui.kept(DuelForm)
        if form is None:
            return
        state = host.state
        if state is not None and state.wizards_duel is not None:
            # Kept as the decision now on the table has it: a later decision that happens to
            # look the same starts afresh too.
            form = current_form(host.ui, state)
        host.ui.put(replace(form, marked=(), spell=None, pick=0))

    # -- acting -----------------------------------------------------------------------------

    def act(self, host: Host, action: Action) -> bool:
        state = host.state
        if state is None or state.wizards_duel is None:
            return False
        form = current_form(host.ui, state)
        current = choice(state, host.tr, form)
        if isinstance(action, PickSeat):
            return True  # magic points change only through the duel's own rules
        if current is None or not current.chips:
            return isinstance(action, Turn | Focus)
        chips = current.chips
        pick = form.pick % len(chips)
        if isinstance(action, Turn):
            host.ui.put(replace(form, pick=(pick + action.steps) % len(chips)))
            return True
        if isinstance(action, Focus):
            # ←/→: the highlighted chip's number or player, else the chip beside it.
            shift = chips[pick].shift
            moved = replace(form, pick=(pick + action.delta) % len(chips))
            host.ui.put(shift(form, action.delta) if shift is not None else moved)
            return True
        if isinstance(action, DuelScroll):
            # A scroll marker: the next hidden chip.
            host.ui.put(replace(form, pick=action.index % len(chips)))
            return True
        if isinstance(action, DuelChip):
            index = action.index
            if 0 <= index < len(chips):
                chips[index].pick(host, host.ui.put(replace(form, pick=index)))
            return True
        if isinstance(action, Press) and action.button is Button.SELECT and not action.long:
            chips[pick].pick(host, form)
            return True
        return False

    # -- drawing ----------------------------------------------------------------------------

    def draw(self, view: View) -> None:
        state = view.state
        assert state is not None and state.wizards_duel is not None
        duel = state.wizards_duel
        c, lay, tr = view.canvas, view.layout, view.tr
        x, w = lay.margin, c.width - 2 * lay.margin
        top = self._draw_banner(view, state, duel, (x, view.top, w, view.bottom - view.top))
        form = current_form(view.ui, state)
        current = choice(state, tr, form)
        bottom = view.bottom
        if current is not None:
            prompt = self._prompt(view, current.prompt, w)
            prompt_h = len(prompt[1]) * c.fonts.line_height(prompt[0])
            ask_y = view.bottom - lay.touch - lay.margin // 4 - prompt_h
            self._draw_choice(
                view, state, current, form, prompt, (x, ask_y, w, view.bottom - ask_y)
            )
            bottom = ask_y - lay.margin // 2
        area = (x, top, w, bottom - top)
        count = len(state.players)
        # Side by side while the tiles stay wide enough: tall tiles leave room for every spell card.
        # Two rows only while each row keeps room for a tile's first line (name and points).
        tile_w = (w - lay.margin * (count - 1)) // count
        first_line = c.fonts.line_height(lay.medium, True) + lay.margin
        rects = seat_rects(count, area, lay.margin)
        if tile_w >= lay.small * 10 or min(rect[3] for rect in rects) < first_line:
            rects = [
                (x + i * (tile_w + lay.margin), top, tile_w, bottom - top) for i in range(count)
            ]
        for player, rect in zip(state.players, rects, strict=True):
            self._draw_seat(view, state, duel, duel.wizard(player.seat), rect)

    def _prompt(self, view: View, text: str, width: int) -> tuple[int, list[str]]:
        lay = view.layout
        return (
            wrap_fit(view, text, width, lay.small)
            or wrap_fit(view, text, width, lay.tiny, lines=3)
            or (lay.tiny, [text])
        )

    def _draw_banner(self, view: View, state: GameState, duel: WizardsDuelState, area: Rect) -> int:
        """Round, phase and market on one line; what NEXT does (or who won) on the next."""
        c, lay, tr = view.canvas, view.layout, view.tr
        x, y, w, _ = area
        phase = tr(
            "ui.wd.phase", round=duel.round, phase=duel.phase, name=tr(f"ui.wd.phase.{duel.phase}")
        )
        market = tr("ui.wd.market", cards=sum(duel.market), deck=duel.deck)
        # The phase first; the market beside it where both fit, else under it.
        phase_w = c.fonts.measure(phase, lay.small, True)[0]
        market_w = c.fonts.measure(market, lay.small)[0]
        if phase_w + lay.margin + market_w <= w:
            c.text(market, (x + w, y), lay.small, theme.DIM, anchor="topright", role="wd.market")
            c.text(phase, (x, y), lay.small, theme.TEXT, bold=True, role="wd.phase")
            y += c.fonts.line_height(lay.small, True)
        else:
            y += self._lines(view, phase, (x, y, w), theme.TEXT, "wd.phase", bold=True)
            y += self._lines(view, market, (x, y, w), theme.DIM, "wd.market")
        result = outcome(state)
        if result is not None:
            text = self._result_text(state, duel, tr)
            fitted = wrap_fit(view, text, w, lay.medium, bold=True) or (lay.tiny, [text])
            y += block(
                view,
                text,
                (x, y),
                w,
                fitted,
                theme.ACTIVE_EDGE,
                "wd.winner",
                bold=True,
                align="center",
            )
        else:
            y += self._lines(
                view, next_hint(state, tr), (x, y, w), theme.CURSOR, "wd.next", bold=True
            )
        return y + lay.margin // 2

    def _lines(
        self,
        view: View,
        text: str,
        at: tuple[int, int, int],
        color: tuple[int, int, int],
        role: str,
        *,
        bold: bool = False,
    ) -> int:
        """Small type on one line, or two (smaller) rather than cut; returns the height used."""
        lay = view.layout
        x, y, w = at
        fitted = (
            wrap_fit(view, text, w, lay.small, bold=bold)
            or wrap_fit(view, text, w, lay.tiny, lines=3, bold=bold)
            or (lay.tiny, [text])
        )
        return block(view, text, (x, y), w, fitted, color, role, bold=bold)

    def _result_text(self, state: GameState, duel: WizardsDuelState, tr: Translator) -> str:
        result = outcome(state)
        assert result is not None
        if duel.winners is not None and len(duel.winners) > 1:
            names = ", ".join(state.player(s).name for s in duel.winners)
            return tr("ui.wd.tie", names=names, points=duel.wizard(duel.winners[0]).magic)
        if result.winner is None:
            return tr("ui.draw")
        return tr(
            "ui.wd.won",
            name=state.player(result.winner).name,
            points=duel.wizard(result.winner).magic,
        )

    def _draw_seat(
        self, view: View, state: GameState, duel: WizardsDuelState, wizard: Wizard, rect: Rect
    ) -> None:
        c, lay, tr = view.canvas, view.layout, view.tr
        player = state.player(wizard.seat)
        x, y, w, h = rect
        seat = wizard.seat
        moving = player.in_game and outcome(state) is None and self._moving(state, duel, seat)
        c.box(
            rect, theme.LOST_BG if not player.in_game else theme.ACTIVE if moving else theme.PANEL
        )
        if moving:
            c.box(rect, theme.ACTIVE_EDGE, width=max(2, lay.line * 2))
        pad = lay.margin
        inner = w - 2 * pad
        ty = self._draw_name_line(view, state, duel, wizard, rect, moving) + pad // 4
        line_h = c.fonts.line_height(lay.small)
        if not player.in_game:
            out = loss_text(view, state, player) if player.lost else ""
            fitted = wrap_fit(view, out, inner, lay.small) or (lay.tiny, [out])
            height = len(fitted[1]) * c.fonts.line_height(fitted[0])
            block(
                view,
                out,
                (x + pad, y + h - pad // 2 - height),
                inner,
                fitted,
                theme.ERROR,
                f"wd.seat{seat}.out",
                align="center",
            )
            return
        rows = self._seat_rows(tr, wizard)
        notes = self._seat_notes(tr, duel, wizard)
        note = " · ".join(notes)
        note_fit = wrap_fit(view, note, inner, lay.tiny) if notes else None
        foot = len(note_fit[1]) * c.fonts.line_height(note_fit[0]) if note_fit is not None else 0
        limit = y + h - pad // 2 - foot
        spells = [row for row in rows if row[2] == "spell"]
        # A wide tile puts the spell cards in a second column, so they show beside the dice.
        columns = [rows]
        if spells and inner >= lay.small * 24:
            columns = [[row for row in rows if row[2] != "spell"], spells]
        col_w = (inner - pad * (len(columns) - 1)) // len(columns)
        for number, column in enumerate(columns):
            cy = ty
            for text, dice, role in self._wrapped_rows(view, column, col_w):
                if cy + line_h > limit:
                    break
                self._row(
                    view,
                    text,
                    dice,
                    (x + pad + number * (col_w + pad), cy),
                    col_w,
                    f"wd.seat{seat}.{role}",
                )
                cy += line_h
        if note_fit is not None:
            block(
                view,
                note,
                (x + pad, y + h - pad // 4 - foot),
                inner,
                note_fit,
                theme.WARN,
                f"wd.seat{seat}.notes",
                align="center",
            )
        # No touch target: magic points change only through the duel's own rules.

    def _draw_name_line(
        self,
        view: View,
        state: GameState,
        duel: WizardsDuelState,
        wizard: Wizard,
        rect: Rect,
        moving: bool,
    ) -> int:
        """The tile's first line, and where it ends: the name on the left, the magic points on the
        right, and the words "magic points" beside the number where the name keeps its room."""
        c, lay, tr = view.canvas, view.layout, view.tr
        player = state.player(wizard.seat)
        x, y, w, h = rect
        seat = wizard.seat
        pad = lay.margin
        points_size = max(lay.medium, min(lay.big, h // 4))
        while points_size > lay.tiny and c.fonts.line_height(points_size, True) > h - pad // 2:
            points_size -= 1  # a short tile: the number stays inside it
        points = c.text(
            str(wizard.magic),
            (x + w - pad, y + pad // 2),
            points_size,
            theme.TEXT if player.in_game else theme.FAINT,
            anchor="topright",
            bold=True,
            role=f"wd.seat{seat}.magic",
        )
        dot = 0
        if seat == duel.starting and player.in_game:
            # The starting player (phase 3 begins with them; WD-2): a dot before the name.
            dot = max(3, lay.small // 4)
            c.circle(
                (x + pad + dot, y + pad // 2 + c.fonts.line_height(lay.medium) // 2),
                dot,
                theme.CURSOR,
            )
            dot = 2 * dot + pad // 2
        name_room = points.left - x - 2 * pad - dot
        words = tr("ui.wd.points")
        words_w = c.fonts.measure(words, lay.tiny)[0] + pad // 2
        name_size = next(
            (
                size
                for size in range(min(lay.medium, points_size), lay.tiny - 1, -1)
                if c.fonts.measure(player.name, size, moving)[0] <= name_room
            ),
            lay.tiny,
        )
        if c.fonts.measure(player.name, name_size, moving)[0] + words_w <= name_room:
            c.text(
                words,
                (points.left - pad // 2, points.bottom - pad // 2),
                lay.tiny,
                theme.DIM,
                anchor="bottomright",
                role=f"wd.seat{seat}.points_label",
            )
        c.text(
            player.name,
            (x + pad + dot, y + pad // 2),
            name_size,
            theme.TEXT if player.in_game else theme.FAINT,
            bold=moving,
            max_width=max(1, name_room),
            role=f"wd.seat{seat}.name",
            min_size=lay.tiny,
        )
        return points.bottom

    def _seat_rows(
        self, tr: Translator, wizard: Wizard
    ) -> list[tuple[str, tuple[Face, ...] | None, str]]:
        """A tile's rows, (text, dice, role): hand and reserve, the dice, then every spell."""
        counts = tr("ui.wd.counts", hand=wizard.hand, reserve=wizard.reserve)
        if wizard.aside:
            counts += " · " + tr("ui.wd.aside", n=wizard.aside)
        rows: list[tuple[str, tuple[Face, ...] | None, str]] = [(counts, None, "counts")]
        if wizard.rolled is not None:
            rows.append((tr("ui.wd.roll"), wizard.rolled, "roll"))
        rows.append((tr("ui.wd.pool"), wizard.pool, "pool"))
        if wizard.shield:
            rows.append((tr("ui.wd.shield"), wizard.shield, "shield"))
        rows += [
            (self._spell_row(tr, card, index, spell), spell.dice, "spell")
            for card in wizard.cards
            for index, spell in enumerate(card.spells)
        ]
        return rows

    @staticmethod
    def _seat_notes(tr: Translator, duel: WizardsDuelState, wizard: Wizard) -> list[str]:
        """What the tile's foot notes: fatigue, the player's state and the once-per-game abilities used."""
        notes = []
        if wizard.fatigue:
            notes.append(tr("ui.wd.fatigue", n=wizard.fatigue))
        if wizard.falling:
            notes.append(tr("ui.wd.falling"))
        if wizard.sacrificed_round == duel.round:
            notes.append(tr("ui.wd.untargetable"))
        if wizard.drain_used:
            notes.append(tr("ui.wd.drain_used"))
        if wizard.sacrifice_used:
            notes.append(tr("ui.wd.sacrifice_used"))
        if wizard.passed and duel.phase == 2:
            notes.append(tr("ui.wd.passed"))
        return notes

    def _moving(self, state: GameState, duel: WizardsDuelState, seat: int) -> bool:
        wizard = duel.wizard(seat)
        if wizard.falling:
            return True
        if duel.attack is not None:
            return duel.attack.target == seat
        if duel.phase == 1:
            return not wizard.chosen
        if duel.phase == 2:
            return not wizard.passed
        return duel.to_move == seat and may_cast(state, seat)

    def _spell_row(self, tr: Translator, card: SpellCard, index: int, spell: Spell) -> str:
        """The card's name (its level, which spell), and ✓ once cast; the spells' details are in
        the chips and the log, where there is room for them."""
        text = _spell_name(tr, card, index)
        if card.level is not None:
            text += f" [{card.level}]"
        if spell.cast:
            text += " ✓"
        return text

    def _wrapped_rows(
        self, view: View, rows: list[tuple[str, tuple[Face, ...] | None, str]], width: int
    ) -> list[tuple[str, tuple[Face, ...] | None, str]]:
        """The rows, a text without dice that is wider than a narrow tile even in tiny type
        (hand and reserve) on as many lines as it needs."""
        c, lay = view.canvas, view.layout
        found: list[tuple[str, tuple[Face, ...] | None, str]] = []
        for text, dice, role in rows:
            lines = (
                c.wrapped(text, lay.tiny, width)
                if dice is None and c.fonts.measure(text, lay.tiny)[0] > width
                else None
            )
            if lines:
                found.extend(
                    (line.rstrip(" ·・"), None, role) for line in lines
                )  # no separator left dangling
            else:
                found.append((text, dice, role))
        return found

    def _row(
        self,
        view: View,
        text: str,
        dice: tuple[Face, ...] | None,
        at: tuple[int, int],
        width: int,
        role: str,
    ) -> None:
        """A labelled line, with the dice drawn after the label as coloured school symbols: as
        many as fit, and how many more ("+3")."""
        c, lay = view.canvas, view.layout
        x, y = at
        line_h = c.fonts.line_height(lay.small)
        box = line_h - 2
        gap = lay.margin // 2
        if dice is None:
            size = next(
                (
                    s
                    for s in range(lay.small, lay.tiny - 1, -1)
                    if c.fonts.measure(text, s)[0] <= width
                ),
                lay.tiny,
            )
            c.text(text, (x, y), size, theme.TEXT, max_width=width, role=role, min_size=lay.tiny)
            return
        # The label keeps its words: smaller type before the dice take its room, then one die.
        least = (
            self._die_width(view, dice[0], box) + 2 if dice else c.fonts.measure("–", lay.small)[0]
        )
        size = next(
            (
                s
                for s in range(lay.small, lay.tiny - 1, -1)
                if c.fonts.measure(text, s)[0] + gap + least <= width
            ),
            lay.tiny,
        )
        r = c.text(
            text,
            (x, y + (line_h - c.fonts.line_height(size)) // 2),
            size,
            theme.TEXT if dice else theme.DIM,
            max_width=max(1, width - gap - least),
            role=role,
            min_size=lay.tiny,
        )
        if not dice:
            c.text("–", (r.right + gap, y), lay.small, theme.FAINT, role=role + ".none")
            return
        dx = r.right + gap
        room = x + width - dx
        sizes = [self._die_width(view, face, box) for face in dice]
        fit = len(dice)
        while fit and sum(sizes[:fit]) + 2 * (fit - 1) > room - (
            0 if fit == len(dice) else c.fonts.measure(f"+{len(dice)}", lay.tiny, True)[0] + 2
        ):
            fit -= 1
        for face, die_w in zip(dice[:fit], sizes, strict=False):
            self._die(view, face, (dx, y + 1, die_w, box), role + ".die")
            dx += die_w + 2
        if fit < len(dice):
            c.text(
                f"+{len(dice) - fit}",
                (dx, y + line_h // 2),
                lay.tiny,
                theme.DIM,
                anchor="midleft",
                bold=True,
                role=role + ".more",
                min_size=lay.tiny,
            )

    def _die_width(self, view: View, face: Face, height: int) -> int:
        """A die ``height`` tall is square, or wider where its school's letters need it (Вз)."""
        size = max(view.layout.tiny, height * 2 // 3)
        return max(
            height,
            view.canvas.fonts.measure(view.tr(f"ui.wd.face.{face.value}"), size, True)[0] + 4,
        )

    def _die(self, view: View, face: Face, rect: Rect, role: str, *, marked: bool = False) -> None:
        c, lay = view.canvas, view.layout
        color, ink = FACE_COLORS[face]
        c.box(rect, color, radius=max(2, rect[3] // 5))
        if marked:
            c.box(rect, theme.CURSOR, width=max(2, lay.line), radius=max(2, rect[3] // 5))
        c.text(
            view.tr(f"ui.wd.face.{face.value}"),
            (rect[0] + rect[2] // 2, rect[1] + rect[3] // 2),
            max(lay.tiny, rect[3] * 2 // 3),
            ink,
            anchor="center",
            bold=True,
            max_width=rect[2] - 2,
            role=role,
            min_size=lay.tiny,
        )

    def _draw_choice(
        self,
        view: View,
        state: GameState,
        current: Choice,
        form: DuelForm,
        prompt: tuple[int, list[str]],
        area: Rect,
    ) -> None:
        """The question, and its chips in a row a fingertip tall: as many as fit round the
        highlighted one, with markers at the ends saying how many are hidden on each side."""
        c, lay = view.canvas, view.layout
        x, y, w, h = area
        top = (
            y
            + block(view, current.prompt, (x, y), w, prompt, theme.TEXT, "wd.ask")
            + lay.margin // 4
        )
        chips = current.chips
        pick = form.pick % len(chips)
        chip_h = max(lay.touch, y + h - top)
        gap = max(2, lay.margin // 2)
        widths = [self._chip_width(view, chip, chip_h) for chip in chips]
        side = marker_width(view) + gap
        shown = _window(widths, pick, w, gap, side)
        left = side if shown.start > 0 else 0
        right = side if shown.stop < len(chips) else 0
        room = w - left - right - gap * (len(shown) - 1)
        # What is left of the row goes to the chips with words, so they need fewer lines.
        spare = max(0, room - sum(widths[i] for i in shown))
        worded = [i for i in shown if chips[i].face is None]
        cx = x + left
        for index in shown:
            chip = chips[index]
            cw = widths[index] + (spare // len(worded) if index in worded else 0)
            rect = (cx, top, cw, chip_h)
            selected = index == pick
            chosen = chip.marked
            c.box(inset(rect), theme.BUTTON_HI if selected else theme.BUTTON)
            if selected:
                c.box(inset(rect), theme.CURSOR, width=max(2, lay.line))
            if chip.face is not None:
                size = chip_h - 2 * gap
                self._die(
                    view,
                    chip.face,
                    (cx + gap, top + gap, self._die_width(view, chip.face, size), size),
                    "wd.chip.die",
                    marked=chosen,
                )
                if chosen:
                    c.text(
                        "✓",
                        (cx + cw - gap, top + chip_h // 2),
                        lay.small,
                        theme.CURSOR,
                        anchor="midright",
                        role="wd.chip.marked",
                    )
            else:
                chip_label(view, rect, self._chip_label(chip, selected), "wd.chip", bold=selected)
            c.target(rect, DuelChip(index))
            cx += cw + gap
        if left:
            marker(
                view,
                (x, top, side - gap, chip_h),
                shown.start,
                "left",
                "wd.chip.more",
                DuelScroll(shown.start - 1),
            )
        if right:
            marker(
                view,
                (x + w - side + gap, top, side - gap, chip_h),
                len(chips) - shown.stop,
                "right",
                "wd.chip.more",
                DuelScroll(shown.stop),
            )

    def _chip_label(self, chip: Chip, selected: bool) -> str:
        return f"← {chip.label} →" if chip.number is not None and selected else chip.label

    def _chip_width(self, view: View, chip: Chip, height: int) -> int:
        """A chip's width: a die and its tick, or its words on one line (a third of the row at
        most, the words then taking two lines)."""
        c, lay = view.canvas, view.layout
        if chip.face is not None:
            die = self._die_width(view, chip.face, height - 2 * max(2, lay.margin // 2))
            return die + c.fonts.measure("✓", lay.small)[0] + 2 * lay.margin
        label = f"← {chip.label} →" if chip.number is not None else chip.label
        whole = c.fonts.measure(label, lay.small, True)[0] + 2 * lay.margin
        if whole <= c.width // 3:
            return whole
        # Two lines: as narrow as lets the words wrap in two at a readable size.
        for width in range(c.width // 3, c.width // 2 + 1, max(1, lay.margin)):
            if chip_fits(view, label, width - lay.margin, height - 2):
                return width
        return c.width // 2


def _window(widths: list[int], pick: int, width: int, gap: int, side: int) -> range:
    """The chips of a row shown round ``pick``: all when they all fit, else as many as fit with
    room for a marker at each end that has chips hidden beyond it."""
    count = len(widths)

    def fits(start: int, stop: int) -> bool:
        markers = side * ((start > 0) + (stop < count))
        return sum(widths[start:stop]) + gap * (stop - start - 1) + markers <= width

    start, stop = pick, pick + 1
    grew = True
    while grew:  # a chip on each side in turn, so the highlighted one stays near the middle
        grew = False
        if start > 0 and fits(start - 1, stop):
            start -= 1
            grew = True
        if stop < count and fits(start, stop + 1):
            stop += 1
            grew = True
    return range(start, stop)
