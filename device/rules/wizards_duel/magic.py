"""Magic points: a batch of events decided one after another, whose hurting and healing make
the ``MagicChanged`` and ``ShieldAbsorbed`` events folded here."""

from __future__ import annotations

from device.events import Event
from device.rules.registry import Rules, apply_events
from device.rules.wizards_duel.board import update_wizard
from device.rules.wizards_duel.events import Cause, MagicChanged, ShieldAbsorbed
from device.rules.wizards_duel.queries import duel_of, in_game
from device.rules.wizards_duel.state import Face, WizardsDuelState
from device.state import GameState
from device.text import Message

RULES = Rules("wizards_duel.magic")


class Batch:
    """Events decided one after another, each seeing the state the earlier ones made."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    @property
    def duel(self) -> WizardsDuelState:
        return duel_of(self.state)

    def add(self, *events: Event) -> None:
        self.events += events
        self.state = apply_events(self.state, events)

    def hurt(
        self, seat: int, amount: int, cause: Cause, source: int | None, school: Face | None = None
    ) -> None:
        """Take up to ``amount`` magic points from a player; a shield of ``school`` absorbs first."""
        wizard = self.duel.wizard(seat)
        if amount <= 0 or not in_game(self.state, seat):
            return
        absorbed = min(amount, wizard.shield.count(school)) if school is not None else 0
        if absorbed:
            self.add(ShieldAbsorbed(seat=seat, amount=absorbed, school=school))
        lost = min(amount - absorbed, wizard.magic)
        if lost:
            self.add(MagicChanged(seat=seat, delta=-lost, cause=cause, source=source))

    def heal(self, seat: int, amount: int, cause: Cause, school: Face | None = None) -> None:
        wizard = self.duel.wizard(seat)
        absorbed = min(amount, wizard.shield.count(school)) if school is not None else 0
        if absorbed:
            self.add(ShieldAbsorbed(seat=seat, amount=absorbed, school=school))
        if amount - absorbed > 0:
            self.add(MagicChanged(seat=seat, delta=amount - absorbed, cause=cause))


@RULES.applies(MagicChanged)
def _apply_magic(state: GameState, event: MagicChanged) -> GameState:
    wizard = duel_of(state).wizard(event.seat)
    changes: dict[str, object] = {"magic": max(0, wizard.magic + event.delta)}
    # Fatigue comes with an attack: the attacker stays the one responsible.
    if event.delta < 0 and event.cause != "fatigue":
        changes["hurt_by"] = event.source
    return update_wizard(state, event.seat, **changes)


@RULES.describes(MagicChanged)
def _describe_magic(state: GameState, event: MagicChanged) -> Message:
    wizard = duel_of(state).wizard(event.seat)
    source = state.player(event.source).name if event.source is not None else ""
    # A hand refilled short counts dice, the change itself magic points: one count each.
    amount: int | Message = abs(event.delta)
    if event.cause == "refill":
        amount = Message("wd.dice_short", n=abs(event.delta))
    return Message(
        f"wd.magic.{event.cause}",
        name=state.player(event.seat).name,
        before=wizard.magic,
        after=max(0, wizard.magic + event.delta),
        amount=amount,
        source=source,
    )


@RULES.applies(ShieldAbsorbed)
def _apply_absorbed(state: GameState, event: ShieldAbsorbed) -> GameState:
    return state


@RULES.describes(ShieldAbsorbed)
def _describe_absorbed(state: GameState, event: ShieldAbsorbed) -> Message:
    return Message(
        "wd.absorbed",
        name=state.player(event.seat).name,
        amount=event.amount,
        school=Message(f"wd.face.{event.school.value}"),
    )
