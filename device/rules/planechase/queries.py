"""What the screens, the console and the rules ask of a Planechase game, as pure functions of the
``GameState``:

- ``next_roll_cost(state, seat)``: the mana ``seat``'s next special-action roll costs (PC-2);
- ``may_roll(state, seat)``: whether ``seat`` may take the special action now;
- ``odds(state)``: the chance of planeswalk, chaos and blank on the next roll (PC-13);
- ``chance_to_planeswalk(k)`` = 1 − (5/6)^k and ``cost_of_rolls(k, first=0)`` = the mana of k
  special-action rolls in a turn (k(k−1)/2 from the first);
- ``planar_controller(state)`` and ``planar_controllers(state)`` (Grand Melee: one per marker);
- ``chaos_planes(state, seat)``: the face-up planes whose chaos ability a chaos roll triggers;
- ``deck_problems(cards, players, communal)``: what makes a planar deck illegal, as messages;
- the prompts for what the table must do before anything else (``ready`` refuses with them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from device.catalog import Card, CardKind, load_catalog
from device.errors import IllegalCommand
from device.rules.planechase.eternities import direction_word, directions
from device.rules.planechase.events import joined, planechase
from device.rules.planechase.piles import COMMUNAL_MIN, MAX_PHENOMENA, MIN_DECK
from device.rules.planechase.state import (
    CardRef,
    ChoiceKind,
    FaceUpCard,
    PlanarDeck,
    PlanarKind,
    PlanechaseState,
)
from device.rules.teams import primary, team_of
from device.state import GameState, Step
from device.text import Message


def planar_controller(state: GameState) -> int:
    """901.6: the active player (2HG: the primary player of the active team), unless the
    designation moved because the planar controller left."""
    pc = planechase(state)
    if pc.controller is not None:
        return pc.controller
    if pc.two_headed_giant:
        return primary(state, team_of(state, state.active))
    return state.active


def planar_controllers(state: GameState) -> tuple[int, ...]:
    """Every planar controller: Grand Melee's marker holders, or whoever stands in for a holder
    who left during their turn (901.6); else the one planar controller."""
    pc = planechase(state)
    if not pc.grand_melee:
        return (planar_controller(state),)
    stand_ins = pc.stand_ins + (None,) * (len(pc.markers) - len(pc.stand_ins))
    return tuple(
        holder if stand_in is None else stand_in for holder, stand_in in zip(pc.markers, stand_ins)
    )


def marker_of(state: GameState, seat: int) -> int:
    """Grand Melee: the turn marker whose planes ``seat`` controls (0 when none)."""
    pc = planechase(state)
    controllers = planar_controllers(state)
    return controllers.index(seat) if pc.grand_melee and seat in controllers else 0


def controller_of(state: GameState, card: FaceUpCard) -> int:
    """Who controls a face-up card: its turn marker's holder (or who stands in for them) in Grand
    Melee, else the planar controller."""
    pc = planechase(state)
    if pc.grand_melee and card.marker < len(pc.markers):
        return planar_controllers(state)[card.marker]
    return planar_controller(state)


def may_roll(state: GameState, seat: int) -> bool:
    """PC-2: the active player (2HG: each member of the active team; Grand Melee: each marker
    holder) in the main phase."""
    pc = planechase(state)
    if state.step is not Step.MAIN or not state.player(seat).in_game:
        return False
    if pc.grand_melee:
        return seat in pc.markers
    if pc.two_headed_giant:
        return seat in team_of(state, state.active)
    return seat == state.active


def next_roll_cost(state: GameState, seat: int) -> int:
    """PC-2: the mana the seat's next special-action roll costs this turn."""
    pc = planechase(state)
    return pc.next_cost[seat] if seat < len(pc.next_cost) else 0


@dataclass(frozen=True)
class Odds:
    planeswalk: Fraction
    chaos: Fraction
    blank: Fraction


def odds(state: GameState) -> Odds:
    """PC-13: the next roll's odds (5/6 chaos while blanks count as chaos)."""
    if planechase(state).chaos_blanks:
        return Odds(Fraction(1, 6), Fraction(5, 6), Fraction(0))
    return Odds(Fraction(1, 6), Fraction(1, 6), Fraction(4, 6))


def chance_to_planeswalk(rolls: int) -> Fraction:
    """PC-13: P(at least one planeswalk in ``rolls`` rolls) = 1 − (5/6)^k."""
    return 1 - Fraction(5, 6) ** max(0, rolls)


def cost_of_rolls(rolls: int, first: int = 0) -> int:
    """PC-13: the mana of ``rolls`` special-action rolls when the next costs ``first``
    (from the start of a turn: k(k−1)/2)."""
    return sum(first + i for i in range(max(0, rolls)))


def chaos_planes(state: GameState, seat: int) -> tuple[str, ...]:
    """The face-up planes whose chaos ability a chaos roll by ``seat`` triggers: each face-up
    plane once (309.7, 901.9b); in Grand Melee the planes of the roller's marker."""
    pc = planechase(state)
    marker = marker_of(state, seat)
    return tuple(
        c.name
        for c in pc.face_up
        if c.kind is PlanarKind.PLANE and (not pc.grand_melee or c.marker == marker)
    )


def deck_problems(cards: Sequence[Card], players: int, communal: bool) -> list[Message]:
    """PC-4: every reason a planar deck is illegal (empty when it is legal), as messages."""
    problems: list[Message] = []
    minimum = min(COMMUNAL_MIN, MIN_DECK * players) if communal else MIN_DECK
    maximum = MAX_PHENOMENA * players if communal else MAX_PHENOMENA
    if len(cards) < minimum:
        problems.append(Message("planechase.deck_small", count=len(cards), minimum=minimum))
    phenomena = sum(1 for c in cards if c.kind is CardKind.PHENOMENON)
    if phenomena > maximum:
        problems.append(Message("planechase.deck_phenomena", count=phenomena, maximum=maximum))
    counts: dict[str, int] = {}
    for card in cards:
        counts[card.name] = counts.get(card.name, 0) + 1
    for name, count in counts.items():
        if count > 1:
            problems.append(Message("planechase.deck_duplicate", name=name, count=count))
    for card in cards:
        if not card.is_planar:
            problems.append(Message("planechase.deck_not_planar", name=card.name))
    return problems


def deck_owner(pc: PlanechaseState, seat: int) -> int | None:
    return None if pc.communal else seat


def deck_label(state: GameState, owner: int | None) -> Message:
    if owner is None:
        return Message("planechase.the_communal_deck")
    return Message("planechase.deck_of", name=state.player(owner).name)


def names_of(cards: Iterable[str | CardRef]) -> str | Message:
    return joined([c if isinstance(c, str) else c.name for c in cards])


def may_come_up(deck: PlanarDeck, name: str) -> bool:
    """Whether the card called ``name`` can be the top card of the physical ``deck`` (701.22b):
    a card put on the bottom comes back only once every card above it has been turned over, so
    it is never the next card right after it went there; once every card of a listed deck has
    been seen, only the one that went to the bottom longest ago can come up."""
    index = next((i for i, c in enumerate(deck.cards) if c.name == name), None)
    if index is None:
        return not deck.listed  # an unlisted deck: a card the gadget never saw go to its bottom
    if deck.listed and index < deck.unseen:
        return True
    return deck.unseen == 0 and index == 0


def ready(state: GameState) -> PlanechaseState:
    """Refuse while the table must first resolve a phenomenon, a choice or a card to turn over."""
    pc = planechase(state)
    if pc.own_roll is not None:
        prompt = own_roll_prompt(state)
        raise IllegalCommand(prompt.key, **prompt.params)
    if pc.choice is not None:
        raise IllegalCommand(
            "planechase.choice_waiting",
            name=state.player(pc.choice.seat).name,
            what=choice_prompt(state),
        )
    if pc.encounter is not None:
        raise IllegalCommand("planechase.resolve_phenomenon", name=pc.encounter)
    if pc.awaiting is not None:
        prompt = awaiting_prompt(state)
        raise IllegalCommand(prompt.key, **prompt.params)
    return pc


def own_roll_prompt(state: GameState) -> Message:
    """What a table rolling its own die is asked: the face it showed (PC-1)."""
    pc = planechase(state)
    assert pc.own_roll is not None
    name = state.player(pc.own_roll.seat).name
    return Message("planechase.own_roll_d6" if pc.plain_d6 else "planechase.own_roll", name=name)


def awaiting_prompt(state: GameState) -> Message:
    """Who must turn over which card, naming it when the gadget knows the deck's order (PC-6)."""
    pc = planechase(state)
    waiting = pc.awaiting
    assert waiting is not None
    who, label = state.player(waiting.seat).name, deck_label(state, waiting.deck)
    if waiting.merging or waiting.starting:
        planes = Message("planechase.planes_count", n=waiting.planes)
        return Message("planechase.awaiting_planes", name=who, deck=label, planes=planes)
    deck = pc.deck(waiting.deck)
    card = deck.next_card if deck is not None else None
    if card is not None:
        return Message("planechase.awaiting_next", name=who, deck=label, card=card.name)
    return Message("planechase.awaiting_card", name=who, deck=label)


def awaited_cards(state: GameState) -> list[str]:
    """The cards a player may turn over for the awaited deck, the one expected next first: a
    listed deck's cards in its order, else every planar card not face up (PC-12: pick it on
    screen)."""
    pc = planechase(state)
    if pc.awaiting is None:
        return []
    deck = pc.deck(pc.awaiting.deck)
    if deck is not None and deck.physical and deck.listed:
        return [c.name for c in deck.cards if may_come_up(deck, c.name)]
    if deck is not None and deck.tracked:
        return [c.name for c in deck.cards]
    face_up = {c.name for c in pc.face_up}
    barred = (
        {c.name for c in deck.cards if not may_come_up(deck, c.name)} if deck is not None else set()
    )
    return sorted(
        (c.name for c in load_catalog().planar() if c.name not in face_up | barred),
        key=str.casefold,
    )


def choice_prompt(state: GameState) -> Message:
    """What the pending choice asks, for the screen and refusals."""
    choice = planechase(state).choice
    if choice is None:
        return Message("planechase.no_choice")
    if choice.kind is ChoiceKind.TUNNEL:
        planes = [c.name for c in choice.cards if c.kind is PlanarKind.PLANE]
        return Message("planechase.choose_tunnel", choices=joined(planes))
    if choice.kind is ChoiceKind.STAIRS:
        return Message("planechase.choose_stairs", card=names_of(choice.cards))
    if choice.kind is ChoiceKind.POOLS:
        names = [c.name for c in choice.cards]
        return Message("planechase.choose_pools", choices=joined(names), first=", ".join(names))

    return Message(
        "planechase.choose_direction",
        choices=joined([direction_word(d) for d in directions(state)]),
    )


def pick_face_up(cards: Sequence[FaceUpCard], text: str, face_up: str | Message) -> FaceUpCard:
    from device.catalog import name_key

    key = name_key(text)
    found = [c for c in cards if name_key(c.name) == key] or [
        c for c in cards if key and name_key(c.name).startswith(key)
    ]
    if len(found) != 1:
        raise IllegalCommand("planechase.not_plane", name=text, face_up=face_up)
    return found[0]
