"""The planar die (PC-1, PC-2, 901.9): a roll, its cost, a table rolling its own die, and the chaos
abilities that look at the top of the planar deck (PC-11)."""

from __future__ import annotations

from random import Random

from device.errors import IllegalCommand
from device.events import Event
from device.rules.plane_abilities import DRAW_ON_ROLL, STAIRS_TO_INFINITY
from device.rules.planechase.commands import RollPlanarDie
from device.rules.planechase.events import (
    PlanarCardsRevealed,
    PlanarDieAwaited,
    PlanarDieRolled,
    joined,
    planechase,
)
from device.rules.planechase.piles import updated
from device.rules.planechase.queries import (
    chaos_planes,
    controller_of,
    deck_owner,
    marker_of,
    may_roll,
    next_roll_cost,
    own_roll_prompt,
    planar_controller,
    planar_controllers,
    ready,
)
from device.rules.planechase.state import ChoiceKind, DieFace, OwnRoll, Roll
from device.rules.planechase.walk import planeswalk_or_offer
from device.rules.registry import Rules
from device.rules.table import check_seat
from device.state import GameState, Step
from device.text import Message

RULES = Rules("planechase.die")


#: A side of the planar die that shows each face, for a table entering its own die's face (PC-1).
PIP_OF: dict[DieFace, int] = {DieFace.PLANESWALK: 6, DieFace.CHAOS: 1, DieFace.BLANK: 2}


def face_of(pip: int) -> DieFace:
    """PC-1: the planar die's chaos side is 1 and its planeswalker side 6 (a plain d6 the same)."""
    return DieFace.CHAOS if pip == 1 else DieFace.PLANESWALK if pip == 6 else DieFace.BLANK


def pip_label(state: GameState, roll: Roll) -> str:
    """What the die shows, as the table's die prints it: PL/CH/blank or the d6 number."""
    if planechase(state).plain_d6:
        return str(roll.pip)
    return {DieFace.PLANESWALK: "PL", DieFace.CHAOS: "CH", DieFace.BLANK: "blank"}[roll.face]


@RULES.decides(RollPlanarDie)
def _roll(state: GameState, command: RollPlanarDie, rng: Random) -> list[Event]:
    pc = planechase(state)
    if command.pip is not None and not 1 <= command.pip <= 6:
        raise IllegalCommand("planechase.bad_pip", pip=command.pip)
    if pc.own_roll is not None:
        if command.pip is None:
            raise IllegalCommand(own_roll_prompt(state).key, **own_roll_prompt(state).params)
        if command.seat is None or command.seat == pc.own_roll.seat:
            # The face the table's die showed, for the roll the gadget is waiting on.
            command = command.model_copy(
                update={"seat": pc.own_roll.seat, "free": pc.own_roll.free}
            )
            state = updated(state, own_roll=None)
    pc = ready(state)
    if command.free:
        seat = planar_controller(state) if command.seat is None else command.seat
        check_seat(state, seat)
        cost = 0
    else:
        seat = state.active if command.seat is None else command.seat
        player = check_seat(state, seat)
        if state.step is not Step.MAIN:
            raise IllegalCommand("planechase.not_main", name=player.name)
        if not may_roll(state, seat):
            rollers = _rollers(state)
            if not rollers:  # the players whose turn it is have left: the turn goes on without them
                raise IllegalCommand("planechase.no_roller", name=player.name)
            who = joined([state.player(s).name for s in rollers], "planechase.or")
            raise IllegalCommand("planechase.not_roller", who=who, name=player.name)
        cost = next_roll_cost(state, seat)
    if command.pip is None and state.options.get("own_die"):
        return [PlanarDieAwaited(roll=OwnRoll(seat=seat, free=command.free))]
    pip = rng.randrange(6) + 1 if command.pip is None else command.pip
    face = face_of(pip)
    result = DieFace.CHAOS if face is DieFace.BLANK and pc.chaos_blanks else face
    chaos = chaos_planes(state, seat) if result is DieFace.CHAOS else ()
    rolled = PlanarDieRolled(
        seat=seat,
        pip=pip,
        face=face,
        result=result,
        cost=cost,
        special=not command.free,
        chaos=chaos,
    )
    events: list[Event] = [rolled]
    if result is DieFace.PLANESWALK:
        events += planeswalk_or_offer(state, seat, "die", rng)
    elif result is DieFace.CHAOS:
        events += _chaos_reveals(state, seat, chaos)
    return events


@RULES.applies(PlanarDieAwaited)
def _apply_die_awaited(state: GameState, event: PlanarDieAwaited) -> GameState:
    return updated(state, own_roll=event.roll)


@RULES.describes(PlanarDieAwaited)
def _describe_die_awaited(state: GameState, event: PlanarDieAwaited) -> Message:
    name = state.player(event.roll.seat).name
    return Message(
        "planechase.own_roll_d6" if planechase(state).plain_d6 else "planechase.own_roll", name=name
    )


def _rollers(state: GameState) -> list[int]:
    return [
        p.seat
        for p in state.in_game()
        if may_roll(state.model_copy(update={"step": Step.MAIN}), p.seat)
    ]


@RULES.applies(PlanarDieRolled)
def _apply_rolled(state: GameState, event: PlanarDieRolled) -> GameState:
    pc = planechase(state)
    roll = Roll(
        turn=state.turn,
        seat=event.seat,
        pip=event.pip,
        face=event.face,
        result=event.result,
        cost=event.cost,
        special=event.special,
    )
    costs = list(pc.next_cost) or [0] * len(state.players)
    if event.special:
        costs[event.seat] = event.cost + 1
    return updated(state, rolls=(*pc.rolls, roll), next_cost=tuple(costs), own_roll=None)


@RULES.describes(PlanarDieRolled)
def _describe_rolled(state: GameState, event: PlanarDieRolled) -> Message:
    if not event.special:
        cost = Message("planechase.cost_effect")
    elif event.cost == 0:
        cost = Message("planechase.cost_free")
    else:
        cost = Message("planechase.cost_paid", cost=event.cost)
    name = state.player(event.seat).name
    planes = joined(event.chaos, "planechase.and")
    message = _roll_message(state, event, name, cost, planes)
    pc = planechase(state)
    draws = [
        c.name
        for c in pc.face_up
        if c.name in DRAW_ON_ROLL and controller_of(state, c) == event.seat
    ]
    if draws:
        note = Message(
            "planechase.extra_draw_on_roll", name=name, plane=joined(draws, "planechase.and")
        )
        return Message("planechase.then", first=message, rest=note)
    return message


def _roll_message(
    state: GameState, event: PlanarDieRolled, name: str, cost: Message, planes: str | Message
) -> Message:
    if event.result is DieFace.PLANESWALK:
        return Message("planechase.rolled_planeswalk", name=name, cost=cost)
    if event.result is DieFace.CHAOS and not event.chaos:
        return Message("planechase.rolled_chaos_none", name=name, cost=cost)
    many = (
        "_many" if len(event.chaos) > 1 else ""
    )  # "X's ability triggers", "the abilities of X and Y trigger"
    if event.result is DieFace.CHAOS and event.face is DieFace.BLANK:
        return Message(f"planechase.rolled_blank_chaos{many}", name=name, cost=cost, planes=planes)
    if event.result is DieFace.CHAOS:
        return Message(f"planechase.rolled_chaos{many}", name=name, cost=cost, planes=planes)
    return Message("planechase.rolled_blank", name=name, cost=cost)


# --- chaos that reveals ---


POOLS_OF_BECOMING = "Pools of Becoming"
POOLS_CARDS = 3  # Pools of Becoming reveals the top three


def _chaos_reveals(state: GameState, seat: int, planes: tuple[str, ...]) -> list[Event]:
    """Planes whose chaos ability looks at the top of the planar deck (PC-11)."""
    pc = planechase(state)
    controller = planar_controllers(state)[marker_of(state, seat)]
    owner = deck_owner(pc, controller)
    deck = pc.deck(owner)
    if deck is None or deck.physical or not deck.cards:
        return []
    for plane in planes:
        if plane == STAIRS_TO_INFINITY:
            return [
                PlanarCardsRevealed(
                    seat=controller,
                    deck=owner,
                    kind=ChoiceKind.STAIRS,
                    cards=deck.cards[:1],
                    source=plane,
                )
            ]
        if plane == POOLS_OF_BECOMING:
            return [
                PlanarCardsRevealed(
                    seat=controller,
                    deck=owner,
                    kind=ChoiceKind.POOLS,
                    cards=deck.cards[:POOLS_CARDS],
                    source=plane,
                )
            ]
    return []
