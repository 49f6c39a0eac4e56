"""Planeswalking in Planechase (701.22, 901.7–901.8): the planeswalk itself, a phenomenon
encountered and acknowledged (PC-7), and the choices some cards leave to a player (PC-11).

Two-Headed Giant: a planeswalk rolled by either member of the active team is made by the
roller, from their own deck (901.8: the planeswalking ability is controlled by the player whose
roll caused it; PC-3), though the team's primary player stays the planar controller.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from random import Random

from device.errors import IllegalCommand
from device.events import Event, TurnOrderReversed
from device.rules.planechase.commands import AcknowledgePhenomenon, ChoosePlanar, Planeswalk
from device.rules.planechase.eternities import move, offer_direction
from device.rules.planechase.events import (
    ChaosBlanksBegan,
    PlanarCardsRevealed,
    PlanarChoiceMade,
    PlanarChoiceOffered,
    Planeswalked,
    joined,
    planechase,
    with_leaving_notes,
)
from device.rules.planechase.piles import (
    all_to_bottom,
    deck_cards,
    face_up_card,
    owner_key,
    removed,
    updated,
    with_deck,
)
from device.rules.planechase.queries import (
    choice_prompt,
    deck_label,
    deck_owner,
    marker_of,
    names_of,
    planar_controller,
    planar_controllers,
    ready,
)
from device.rules.planechase.state import (
    Awaiting,
    CardRef,
    ChoiceKind,
    PendingChoice,
    PlanarKind,
    Visit,
)
from device.rules.registry import Rules, apply_events
from device.rules.table import check_seat
from device.state import GameState
from device.text import Message

RULES = Rules("planechase.walk")


def planeswalk(state: GameState, seat: int, cause: str, planes_wanted: int = 0) -> Planeswalked:
    """701.22b: the face-up cards (of the seat's marker) go to the bottom of their owners' decks,
    then the seat turns over the top card of their deck; with ``planes_wanted`` (Spatial
    Merging) cards are revealed until that many planes, the rest go to the bottom."""
    pc = planechase(state)
    marker = marker_of(state, seat)
    away = [c for c in pc.face_up if not pc.grand_melee or c.marker == marker]
    owner = deck_owner(pc, seat)
    deck = pc.deck(owner)
    if deck is None:
        return Planeswalked(
            seat=seat, deck=owner, marker=marker, away=tuple(c.name for c in away), cause=cause
        )
    if deck.physical:
        return Planeswalked(
            seat=seat,
            deck=owner,
            marker=marker,
            away=tuple(c.name for c in away),
            wait=max(1, planes_wanted),
            cause=cause,
        )
    cards = list(deck.cards) + [
        CardRef(name=c.name, kind=c.kind) for c in away if owner_key(pc, c) == owner
    ]
    to: list[CardRef] = []
    bottom: list[CardRef] = []
    if planes_wanted:
        for card in cards:
            if len(to) == planes_wanted:
                break
            (to if card.kind is PlanarKind.PLANE else bottom).append(card)
    elif cards:
        to.append(cards[0])
    return Planeswalked(
        seat=seat,
        deck=owner,
        marker=marker,
        away=tuple(c.name for c in away),
        to=tuple(to),
        bottom=tuple(bottom),
        cause=cause,
    )


@RULES.applies(Planeswalked)
def _apply_planeswalked(state: GameState, event: Planeswalked) -> GameState:
    pc = planechase(state)
    away = [
        c
        for c in pc.face_up
        if c.name in event.away and (not pc.grand_melee or c.marker == event.marker)
    ]
    staying = tuple(c for c in pc.face_up if c not in away)
    pc = all_to_bottom(pc.model_copy(update={"face_up": staying}), away)  # 701.22b
    cards = removed(
        deck_cards(pc, event.deck), [c.name for c in (*event.to, *event.bottom)]
    ) + list(event.bottom)
    deck = pc.deck(event.deck)
    if deck is not None and not deck.physical:
        pc = pc.model_copy(update={"decks": with_deck(pc, event.deck, cards)})
    face_up = (*staying, *(face_up_card(pc, c, event.deck, event.marker) for c in event.to))
    visits = tuple(
        Visit(turn=state.turn, seat=event.seat, name=c.name, kind=c.kind) for c in event.to
    )
    encounter = next((c.name for c in event.to if c.kind is PlanarKind.PHENOMENON), None)
    chaos_blanks = pc.chaos_blanks and not any(c.kind is PlanarKind.PLANE for c in away)
    awaiting = (
        Awaiting(
            seat=event.seat,
            deck=event.deck,
            planes=event.wait,
            merging=event.wait > 1,
            marker=event.marker,
        )
        if event.wait
        else None
    )
    return state.model_copy(
        update={
            "planechase": pc.model_copy(
                update={
                    "face_up": face_up,
                    "visited": (*pc.visited, *visits),
                    "encounter": encounter,
                    "chaos_blanks": chaos_blanks,
                    "awaiting": awaiting,
                }
            )
        }
    )


@RULES.describes(Planeswalked)
def _describe_planeswalked(state: GameState, event: Planeswalked) -> Message:
    message = _planeswalk_message(state, event)
    pc = planechase(state)
    away = [
        c
        for c in pc.face_up
        if c.name in event.away and (not pc.grand_melee or c.marker == event.marker)
    ]
    return with_leaving_notes(message, away, threshold=event.cause == "threshold")


def _planeswalk_message(state: GameState, event: Planeswalked) -> Message:
    name = state.player(event.seat).name
    away = joined(list(event.away), "planechase.and")
    if event.wait:
        label = deck_label(state, event.deck)
        if event.wait > 1:
            return Message("planechase.planeswalked_physical_two", name=name, away=away, deck=label)
        deck = planechase(_apply_planeswalked(state, event)).deck(event.deck)
        card = deck.next_card if deck is not None else None
        if card is not None:
            return Message(
                "planechase.planeswalked_physical_next",
                name=name,
                away=away,
                deck=label,
                card=card.name,
            )
        return Message("planechase.planeswalked_physical", name=name, away=away, deck=label)
    if not event.to:
        return Message("planechase.deck_empty", deck=deck_label(state, event.deck))
    phenomenon = next((c.name for c in event.to if c.kind is PlanarKind.PHENOMENON), None)
    extras: list[str | Message] = []
    if event.bottom:
        extras.append(Message("planechase.extra_bottom", cards=names_of(event.bottom)))
    if phenomenon is not None:
        extras.append(Message("planechase.extra_encounter", name=name, phenomenon=phenomenon))
    extra = joined(extras, "planechase.then") if extras else ""
    key = "planechase.planeswalked" if event.away else "planechase.planeswalked_start"
    return Message(
        key,
        name=name,
        away=away,
        to=joined([c.name for c in event.to], "planechase.and"),
        extra=extra,
    )


def planeswalk_or_offer(state: GameState, seat: int, cause: str, rng: Random) -> list[Event]:
    pc = planechase(state)
    walker = planar_controllers(state)[marker_of(state, seat)]
    if cause == "die" and pc.two_headed_giant:
        walker = seat  # 901.8: the planeswalking ability is the roller's, so they planeswalk (PC-3)
    if pc.map is not None and pc.encounter is None:
        return [offer_direction(state, walker)]
    return [planeswalk(state, walker, cause)]


@RULES.applies(PlanarChoiceOffered)
def _apply_offered(state: GameState, event: PlanarChoiceOffered) -> GameState:
    return updated(state, choice=event.choice)


@RULES.describes(PlanarChoiceOffered)
def _describe_offered(state: GameState, event: PlanarChoiceOffered) -> Message:
    after = updated(state, choice=event.choice)
    prompt = choice_prompt(after)
    return Message(
        "planechase.direction_offered",
        name=state.player(event.choice.seat).name,
        choices=prompt.params.get("choices", ""),
    )


@RULES.decides(Planeswalk)
def _planeswalk(state: GameState, command: Planeswalk, rng: Random) -> list[Event]:
    waiting = planechase(state).choice
    if (
        command.direction is not None
        and waiting is not None
        and waiting.kind is ChoiceKind.DIRECTION
    ):
        # PC-14: a planeswalk that names a direction answers the map's question of where to go.
        return _choose(state, ChoosePlanar(answer=(command.direction,)), rng)
    pc = ready(state)
    seat = planar_controller(state) if command.seat is None else command.seat
    check_seat(state, seat)
    if pc.grand_melee and seat not in planar_controllers(state):
        seat = planar_controller(state)
    if command.direction is not None:
        if pc.map is None:
            raise IllegalCommand("planechase.direction_no_map")

        return move(state, seat, command.direction, rng)
    return planeswalk_or_offer(state, seat, "effect", rng)


# --- phenomena ---


CHAOTIC_AETHER = "Chaotic Aether"
INTERPLANAR_TUNNEL = "Interplanar Tunnel"
SPATIAL_MERGING = "Spatial Merging"
TIME_DISTORTION = "Time Distortion"
TUNNEL_PLANES = 5  # Interplanar Tunnel reveals until five planes


@RULES.decides(AcknowledgePhenomenon)
def _acknowledge(state: GameState, command: AcknowledgePhenomenon, rng: Random) -> list[Event]:
    pc = planechase(state)
    if pc.choice is not None:
        raise IllegalCommand(
            "planechase.choice_waiting",
            name=state.player(pc.choice.seat).name,
            what=choice_prompt(state),
        )
    if pc.encounter is None:
        raise IllegalCommand("planechase.no_encounter")
    card = next(c for c in pc.face_up if c.name == pc.encounter)
    seat = planar_controllers(state)[card.marker] if pc.grand_melee else planar_controller(state)
    deck = pc.deck(deck_owner(pc, seat))
    virtual = deck is not None and not deck.physical
    name = pc.encounter
    if name == CHAOTIC_AETHER:
        first: list[Event] = [ChaosBlanksBegan()]
        return first + [planeswalk(apply_events(state, first), seat, "phenomenon")]
    if name == TIME_DISTORTION:
        first = [TurnOrderReversed(direction=-state.direction)]
        return first + [planeswalk(apply_events(state, first), seat, "phenomenon")]
    if name == SPATIAL_MERGING:
        return [planeswalk(state, seat, "phenomenon", planes_wanted=2)]
    if name == INTERPLANAR_TUNNEL and virtual and deck is not None:
        revealed: list[CardRef] = []
        for c in deck.cards:
            if sum(1 for r in revealed if r.kind is PlanarKind.PLANE) == TUNNEL_PLANES:
                break
            revealed.append(c)
        if any(c.kind is PlanarKind.PLANE for c in revealed):
            return [
                PlanarCardsRevealed(
                    seat=seat,
                    deck=deck.owner,
                    kind=ChoiceKind.TUNNEL,
                    cards=tuple(revealed),
                    source=name,
                )
            ]
    return [planeswalk(state, seat, "phenomenon")]


@RULES.applies(ChaosBlanksBegan)
def _apply_chaos_blanks(state: GameState, event: ChaosBlanksBegan) -> GameState:
    return updated(state, chaos_blanks=True)


@RULES.describes(ChaosBlanksBegan)
def _describe_chaos_blanks(state: GameState, event: ChaosBlanksBegan) -> Message:
    return Message("planechase.chaos_blanks")


@RULES.applies(PlanarCardsRevealed)
def _apply_revealed(state: GameState, event: PlanarCardsRevealed) -> GameState:
    pc = planechase(state)
    cards = removed(deck_cards(pc, event.deck), [c.name for c in event.cards])
    choice = PendingChoice(
        kind=event.kind, seat=event.seat, deck=event.deck, cards=event.cards, source=event.source
    )
    return updated(state, decks=with_deck(pc, event.deck, cards), choice=choice)


@RULES.describes(PlanarCardsRevealed)
def _describe_revealed(state: GameState, event: PlanarCardsRevealed) -> Message:
    key = {
        ChoiceKind.TUNNEL: "planechase.revealed_tunnel",
        ChoiceKind.STAIRS: "planechase.revealed_stairs",
        ChoiceKind.POOLS: "planechase.revealed_pools",
        ChoiceKind.DIRECTION: "planechase.revealed_tunnel",
    }[event.kind]
    return Message(key, cards=names_of(event.cards), name=state.player(event.seat).name)


# --- choices ---


@RULES.decides(ChoosePlanar)
def _choose(state: GameState, command: ChoosePlanar, rng: Random) -> list[Event]:
    pc = planechase(state)
    choice = pc.choice
    if choice is None:
        if not command.answer:
            ready(state)
        raise IllegalCommand("planechase.no_choice")
    answer = [" ".join(a.split()) for a in command.answer if a.strip()]
    if not answer:
        ready(state)  # raises: says what is waiting
    if choice.kind is ChoiceKind.DIRECTION:
        if len(answer) != 1:
            raise IllegalCommand(
                "planechase.bad_choice", text=" ".join(answer), choices=choice_prompt(state)
            )
        return move(state, choice.seat, answer[0], rng)
    if choice.kind is ChoiceKind.STAIRS:
        word = answer[0].casefold() if len(answer) == 1 else ""
        if word not in ("top", "bottom", "keep"):
            raise IllegalCommand(
                "planechase.bad_choice", text=" ".join(answer), choices="top, bottom"
            )
        cards = choice.cards
        return [
            PlanarChoiceMade(
                seat=choice.seat,
                top=cards if word != "bottom" else (),
                bottom=cards if word == "bottom" else (),
            )
        ]
    picked = [_pick(choice.cards, text) for text in answer]
    if choice.kind is ChoiceKind.TUNNEL:
        planes = [c for c in choice.cards if c.kind is PlanarKind.PLANE]
        if len(picked) != 1 or picked[0].kind is not PlanarKind.PLANE:
            raise IllegalCommand(
                "planechase.bad_choice", text=", ".join(answer), choices=names_of(planes)
            )
        rest = _shuffled(
            [c for c in choice.cards if c != picked[0]], rng
        )  # random order (the card says so)
        made = PlanarChoiceMade(seat=choice.seat, top=(picked[0],), bottom=rest)
        return [made, planeswalk(apply_events(state, [made]), choice.seat, "phenomenon")]
    # Pools of Becoming: the order on the bottom
    if sorted(c.name for c in picked) != sorted(c.name for c in choice.cards):
        raise IllegalCommand(
            "planechase.bad_choice", text=", ".join(answer), choices=names_of(choice.cards)
        )
    return [PlanarChoiceMade(seat=choice.seat, bottom=tuple(picked))]


def _pick(cards: Sequence[CardRef], text: str) -> CardRef:
    from device.catalog import name_key

    key = name_key(text)
    exact = [c for c in cards if name_key(c.name) == key]
    starts = [c for c in cards if key and name_key(c.name).startswith(key)]
    found = exact or starts
    if len(found) != 1:
        raise IllegalCommand("planechase.bad_choice", text=text, choices=names_of(cards))
    return found[0]


def _shuffled(cards: Sequence[CardRef], rng: Random) -> tuple[CardRef, ...]:
    order = list(cards)
    rng.shuffle(order)
    return tuple(order)


@RULES.applies(PlanarChoiceMade)
def _apply_choice(state: GameState, event: PlanarChoiceMade) -> GameState:
    pc = planechase(state)
    if pc.choice is None:
        return state
    owner = pc.choice.deck
    cards = [*event.top, *deck_cards(pc, owner), *event.bottom]
    return updated(state, decks=with_deck(pc, owner, cards), choice=None)


@RULES.describes(PlanarChoiceMade)
def _describe_choice(state: GameState, event: PlanarChoiceMade) -> Message:
    name = state.player(event.seat).name
    if not event.bottom:
        return Message("planechase.choice_top", name=name, top=names_of(event.top))
    if not event.top:
        return Message(
            "planechase.choice_bottom",
            name=name,
            bottom=joined(list(_card_names(event.bottom)), "planechase.then_list"),
        )
    return Message(
        "planechase.choice_made", name=name, top=names_of(event.top), bottom=names_of(event.bottom)
    )


def _card_names(cards: Iterable[str | CardRef]) -> Iterable[str]:
    return (c if isinstance(c, str) else c.name for c in cards)
