"""Planechase's planar decks (PC-4, PC-6, PC-12): dealing them and the starting planes at set-up,
choosing a deck before the first roll, and the physical cards the table turns over and taps.

A physical deck's card put on the bottom comes back only after the cards above it (701.22b);
tapping it before is refused, for a listed deck and an unlisted one alike (the gadget remembers
what it saw go under, and that a deck has ten cards or more, 901.3).
"""

from __future__ import annotations

from random import Random

from device.catalog import Card, CardKind, load_catalog
from device.commands import NewGame
from device.errors import IllegalCommand
from device.events import Event
from device.rules.planechase.commands import ReturnPlanarCard, RevealPlanarCard, SetPlanarDeck
from device.rules.planechase.eternities import deal_start
from device.rules.planechase.events import (
    PlanarCardAwaited,
    PlanarCardReturned,
    PlanarCardSkipped,
    PlanarDecksDealt,
    PlaneTurnedOver,
    joined,
    planechase,
)
from device.rules.planechase.piles import (
    COMMUNAL_MIN,
    MAX_PHENOMENA,
    MIN_DECK,
    face_up_card,
    owner_key,
    taken_from,
    to_bottom,
    updated,
)
from device.rules.planechase.queries import (
    deck_label,
    deck_owner,
    deck_problems,
    may_come_up,
    names_of,
    pick_face_up,
    planar_controller,
    planar_controllers,
)
from device.rules.planechase.state import (
    Awaiting,
    CardRef,
    EternitiesMap,
    PlanarDeck,
    PlanarKind,
    PlanechaseState,
    Visit,
)
from device.rules.planechase.turns import (
    PLAYERS_PER_MARKER,
    allowed_markers,
    chosen_markers,
    marker_seats,
)
from device.rules.registry import Rules, apply_events
from device.rules.table import check_seat
from device.rules.teams import teamed
from device.state import GameState
from device.text import Message

RULES = Rules("planechase.decks")

DECK_SOURCES = ("all", "ohop", "phop", "opc2", "opca", "moc", "who", "punk", "pssc", "physical")


def ref(card: Card) -> CardRef:
    return CardRef(name=card.name, kind=PlanarKind(card.kind.value))


def _source_cards(source: str) -> list[Card]:
    """The cards a deck is dealt from: every planar card but the playtest ones for ``all`` (they
    come only when their set is named), every one the reader may meet for ``physical``."""
    catalog = load_catalog().planar()
    if source == "all":
        return [card for card in catalog if not card.is_playtest]
    if source == "physical":
        return list(catalog)
    return list(catalog.in_set(source))


def build_virtual(
    source: str, players: int, communal: bool, size: int, rng: Random
) -> tuple[list[Card], list[Message]]:
    """A legal random planar deck from ``source`` (PC-12): for one player ``size`` cards with at
    most two phenomena; communal: every plane of the source and up to 2 × players phenomena."""
    pool = _source_cards(source)
    rng.shuffle(pool)
    planes = [c for c in pool if c.kind is CardKind.PLANE]
    phenomena = [c for c in pool if c.kind is CardKind.PHENOMENON]
    if communal:
        cards = planes + phenomena[: MAX_PHENOMENA * players]
    else:
        cards = []
        allowed = MAX_PHENOMENA
        for card in pool:
            if len(cards) == size:
                break
            if card.kind is CardKind.PHENOMENON:
                if allowed == 0:
                    continue
                allowed -= 1
            cards.append(card)
    problems = deck_problems(cards, players, communal)
    if problems and len(pool) < (COMMUNAL_MIN if communal else size):
        problems = [Message("planechase.deck_empty_source", source=source.upper(), count=len(pool))]
    elif (
        not communal and len(cards) < size
    ):  # asked for more than the source gives: say so, not a smaller deck
        problems = [
            Message(
                "planechase.deck_size_short", source=source.upper(), count=len(cards), size=size
            )
        ]
    rng.shuffle(cards)
    return cards, problems


def _illegal(problems: list[Message]) -> IllegalCommand:
    return IllegalCommand(
        "planechase.deck_illegal", problems=joined(problems, "planechase.problems")
    )


def _validate_options(state: GameState) -> None:
    o = state.options
    count = len(state.players)
    for option in ("grand_melee", "communal_deck"):
        if teamed(state) and o.get(option):
            raise IllegalCommand("planechase.two_headed_option", b=option)
    if o.get("eternities_map") and not o.get("communal_deck"):
        raise IllegalCommand("planechase.option_needs", a="eternities_map", b="communal_deck=on")
    if o.get("eternities_map") and (o.get("grand_melee") or o.get("planar_deck") == "physical"):
        other = "grand_melee" if o.get("grand_melee") else "planar_deck=physical"
        raise IllegalCommand("planechase.option_combo", a="eternities_map", b=other)
    if o.get("turn_markers") and not o.get("grand_melee"):
        raise IllegalCommand("planechase.option_needs", a="turn_markers", b="grand_melee=on")
    if o.get("grand_melee"):
        chosen = chosen_markers(state)
        if chosen and count < 2 * chosen:
            raise IllegalCommand(
                "planechase.grand_melee_players",
                markers=Message("planechase.markers", n=chosen),
                needed=2 * chosen,
                count=count,
            )
        if not chosen and count < PLAYERS_PER_MARKER:
            raise IllegalCommand(
                "planechase.grand_melee_few", count=count, needed=PLAYERS_PER_MARKER
            )


def _marker_count(state: GameState) -> int:
    return allowed_markers(state, len(state.players))


def _deal(
    state: GameState, rng: Random, keep: dict[int | None, PlanarDeck] | None = None
) -> PlanarDecksDealt:
    o = state.options
    source = str(o.get("planar_deck", "all"))
    communal = bool(o.get("communal_deck"))
    physical = source == "physical"
    count = len(state.players)
    size_option = o.get("planar_deck_size", MIN_DECK)
    size = size_option if isinstance(size_option, int) else MIN_DECK
    owners: list[int | None] = [None] if communal else [p.seat for p in state.players]
    decks: list[PlanarDeck] = []
    for owner in owners:
        if keep is not None and owner in keep:
            decks.append(keep[owner])
            continue
        if physical:
            decks.append(PlanarDeck(owner=owner, physical=True, listed=False))
            continue
        cards, problems = build_virtual(source, count, communal, size, rng)
        if problems:
            raise _illegal(problems)
        decks.append(PlanarDeck(owner=owner, cards=tuple(ref(c) for c in cards)))
    markers: tuple[int, ...] = ()
    if o.get("grand_melee"):
        markers = marker_seats(state.starting_player, count, _marker_count(state))
    return PlanarDecksDealt(
        plain_d6=bool(o.get("plain_d6")),
        communal=communal,
        two_headed_giant=teamed(state),
        grand_melee=bool(o.get("grand_melee")),
        eternities_map=bool(o.get("eternities_map")),
        source=source,
        decks=tuple(decks),
        markers=markers,
    )


@RULES.set_up
def _set_up(state: GameState, command: NewGame, rng: Random) -> list[Event]:
    if not state.has("planechase"):
        return []
    _validate_options(state)
    dealt = _deal(state, rng)
    return [dealt, *starting_planes(apply_events(state, [dealt]))]


@RULES.applies(PlanarDecksDealt)
def _apply_dealt(state: GameState, event: PlanarDecksDealt) -> GameState:
    pc = PlanechaseState(
        plain_d6=event.plain_d6,
        communal=event.communal,
        two_headed_giant=event.two_headed_giant,
        grand_melee=event.grand_melee,
        eternities_map=event.eternities_map,
        source=event.source,
        decks=event.decks,
        markers=event.markers,
        next_cost=tuple(0 for _ in state.players),
        map=EternitiesMap() if event.eternities_map else None,
    )
    return state.model_copy(update={"planechase": pc})


@RULES.describes(PlanarDecksDealt)
def _describe_dealt(state: GameState, event: PlanarDecksDealt) -> Message:
    # Physical decks nobody listed: the gadget knows whose they are, not how many cards they hold.
    unlisted = [deck.physical and not deck.listed for deck in event.decks]
    if event.decks and all(unlisted):
        communal = len(event.decks) == 1 and event.decks[0].owner is None
        key = "planechase.decks_physical_communal" if communal else "planechase.decks_physical"
        return _with_markers(state, event, Message(key))
    lines: list[str | Message] = []
    for deck, own in zip(event.decks, unlisted, strict=True):
        if own:
            lines.append(Message("planechase.deck_line_own", owner=_who(state, deck.owner)))
            continue
        key = "planechase.deck_line_physical" if deck.physical else "planechase.deck_line"
        lines.append(Message(key, owner=_who(state, deck.owner), count=len(deck.cards)))
    return _with_markers(state, event, Message("planechase.decks_dealt", decks=joined(lines)))


def _with_markers(state: GameState, event: PlanarDecksDealt, message: Message) -> Message:
    """Grand Melee: how many turn markers the table has and who holds them (807.4a, 807.4b)."""
    if not event.grand_melee or not event.markers:
        return message
    key = "planechase.markers_dealt_chosen" if chosen_markers(state) else "planechase.markers_dealt"
    holders = joined([state.player(seat).name for seat in event.markers], "planechase.and")
    return Message(
        "planechase.then",
        first=message,
        rest=Message(
            key, markers=Message("planechase.markers", n=len(event.markers)), holders=holders
        ),
    )


def _who(state: GameState, seat: int | None) -> str | Message:
    return Message("planechase.communal") if seat is None else state.player(seat).name


# --- the starting planes, and a card turned over ---


def starting_planes(state: GameState) -> list[Event]:
    """901.5 / 901.14a: the starting player (Grand Melee: each marker holder) turns over cards
    until a plane; phenomena go to the bottom and nothing triggers."""
    pc = planechase(state)
    events: list[Event] = []
    seats = pc.markers if pc.grand_melee else (state.starting_player,)
    for marker, seat in enumerate(seats):
        owner = deck_owner(pc, seat)
        deck = pc.deck(owner)
        if deck is None:
            continue
        if deck.physical:
            events.append(
                PlanarCardAwaited(
                    awaiting=Awaiting(seat=seat, deck=owner, starting=True, marker=marker)
                )
            )
            break  # physical: one card at a time; the next marker's start follows its tap
        for card in deck.cards:
            if card.kind is PlanarKind.PLANE:
                events.append(
                    PlaneTurnedOver(seat=seat, deck=owner, card=card, marker=marker, starting=True)
                )
                break
            events.append(PlanarCardSkipped(deck=owner, card=card))
    if pc.eternities_map and events:
        events += deal_start(apply_events(state, events))
    return events


@RULES.applies(PlanarCardSkipped)
def _apply_skipped(state: GameState, event: PlanarCardSkipped) -> GameState:
    pc = planechase(state)
    deck = pc.deck(event.deck)
    if deck is None or not (deck.tracked or deck.physical):
        return state
    pc = pc.model_copy(update={"decks": taken_from(pc, event.deck, event.card.name)})
    return updated(state, decks=to_bottom(pc, event.deck, [event.card]))


@RULES.describes(PlanarCardSkipped)
def _describe_skipped(state: GameState, event: PlanarCardSkipped) -> Message:
    key = "planechase.skipped_start" if event.starting else "planechase.card_skipped"
    return Message(key, name=event.card.name, deck=deck_label(state, event.deck))


@RULES.applies(PlaneTurnedOver)
def _apply_turned(state: GameState, event: PlaneTurnedOver) -> GameState:
    pc = planechase(state)
    decks = taken_from(pc, event.deck, event.card.name)
    visit = Visit(turn=state.turn, seat=event.seat, name=event.card.name, kind=event.card.kind)
    awaiting = pc.awaiting
    if awaiting is not None:
        left = awaiting.planes - (event.card.kind is PlanarKind.PLANE or awaiting.planes == 1)
        awaiting = awaiting.model_copy(update={"planes": left}) if left > 0 else None
    encounter = pc.encounter
    if event.card.kind is PlanarKind.PHENOMENON and not event.starting:
        encounter = event.card.name
    return updated(
        state,
        decks=decks,
        face_up=(*pc.face_up, face_up_card(pc, event.card, event.deck, event.marker)),
        visited=(*pc.visited, visit),
        awaiting=awaiting,
        encounter=encounter,
    )


@RULES.describes(PlaneTurnedOver)
def _describe_turned(state: GameState, event: PlaneTurnedOver) -> Message:
    if event.starting:
        return Message(
            "planechase.starting_plane", name=event.card.name, owner=_who(state, event.deck)
        )
    if event.card.kind is PlanarKind.PHENOMENON:
        return Message(
            "planechase.encounter", name=state.player(event.seat).name, phenomenon=event.card.name
        )
    return Message(
        "planechase.turned_over", seat=state.player(event.seat).name, name=event.card.name
    )


@RULES.applies(PlanarCardAwaited)
def _apply_awaited(state: GameState, event: PlanarCardAwaited) -> GameState:
    return updated(state, awaiting=event.awaiting)


@RULES.describes(PlanarCardAwaited)
def _describe_awaited(state: GameState, event: PlanarCardAwaited) -> Message:
    return Message("planechase.awaiting", deck=deck_label(state, event.awaiting.deck))


# --- choosing a deck ---


@RULES.decides(SetPlanarDeck)
def _set_deck(state: GameState, command: SetPlanarDeck, rng: Random) -> list[Event]:
    pc = planechase(state)
    starts = len(planar_controllers(state))
    if pc.rolls or len(pc.visited) > starts or pc.encounter is not None or pc.choice is not None:
        raise IllegalCommand("planechase.deck_locked")
    if pc.communal and command.owner is not None:
        raise IllegalCommand("planechase.communal_owner")
    if not pc.communal and command.owner is None:
        raise IllegalCommand("planechase.not_communal")
    if command.owner is not None:
        check_seat(state, command.owner)
    players = len(state.players)
    physical = pc.source == "physical"
    if command.names:
        catalog = load_catalog().planar()
        cards = [catalog.find(name) for name in command.names]
        problems = deck_problems(cards, players, pc.communal)
        if problems:
            raise _illegal(problems)
        if not physical:
            rng.shuffle(cards)
        refs = tuple(ref(c) for c in cards)
        new = PlanarDeck(
            owner=command.owner,
            cards=refs,
            physical=physical,
            listed=True,
            unseen=len(refs) if physical else 0,
        )
    else:
        source = (command.source or "all").casefold()
        cards, problems = build_virtual(source, players, pc.communal, MIN_DECK, rng)
        if problems:
            raise _illegal(problems)
        new = PlanarDeck(owner=command.owner, cards=tuple(ref(c) for c in cards))
    keep: dict[int | None, PlanarDeck] = {}
    for deck in pc.decks:
        if deck.owner == command.owner:
            continue
        back = [
            CardRef(name=c.name, kind=c.kind) for c in pc.face_up if owner_key(pc, c) == deck.owner
        ]
        # back on top, where the starting plane came from, so the other decks keep their order
        cards_back = tuple(back) + deck.cards if deck.tracked else deck.cards
        unseen = deck.unseen + len(back) if deck.physical and deck.listed else 0
        keep[deck.owner] = deck.model_copy(update={"cards": cards_back, "unseen": unseen})
    dealt = _deal(state, rng, keep=keep | {command.owner: new})
    dealt = dealt.model_copy(update={"markers": pc.markers})
    return [dealt, *starting_planes(apply_events(state, [dealt]))]


# --- physical decks ---


@RULES.decides(RevealPlanarCard)
def _reveal(state: GameState, command: RevealPlanarCard, rng: Random) -> list[Event]:
    pc = planechase(state)
    card = load_catalog().find(command.name)
    waiting = pc.awaiting
    if waiting is None:
        if not any(d.physical for d in pc.decks):
            raise IllegalCommand("planechase.virtual_deck", name=card.name)
        face_up = any(c.name == card.name for c in pc.face_up)
        why = "planechase.why_face_up" if face_up else "planechase.why_idle"
        raise IllegalCommand("planechase.not_waiting", name=card.name, why=Message(why))
    label = deck_label(state, waiting.deck)
    if any(c.name == card.name and owner_key(pc, c) == waiting.deck for c in pc.face_up):
        raise IllegalCommand("planechase.card_face_up", name=card.name, deck=label)
    deck = pc.deck(waiting.deck)
    if deck is not None and deck.listed and all(c.name != card.name for c in deck.cards):
        raise IllegalCommand("planechase.card_not_in_deck", name=card.name, deck=label)
    if not card.is_planar:
        raise IllegalCommand("planechase.card_not_in_deck", name=card.name, deck=label)
    if deck is not None and deck.physical:
        _check_comes_up(deck, card.name, label)
    if card.kind is CardKind.PHENOMENON and (
        waiting.starting or waiting.merging or waiting.planes > 1
    ):
        # 901.5 and Spatial Merging: a phenomenon revealed on the way goes to the bottom, unencountered
        return [PlanarCardSkipped(deck=waiting.deck, card=ref(card), starting=waiting.starting)]
    events: list[Event] = [
        PlaneTurnedOver(
            seat=waiting.seat,
            deck=waiting.deck,
            card=ref(card),
            marker=waiting.marker,
            starting=waiting.starting,
        )
    ]
    if waiting.starting and pc.grand_melee and waiting.marker + 1 < len(pc.markers):
        nxt = waiting.marker + 1
        seat = pc.markers[nxt]
        events.append(
            PlanarCardAwaited(
                awaiting=Awaiting(seat=seat, deck=deck_owner(pc, seat), starting=True, marker=nxt)
            )
        )
    return events


def _check_comes_up(deck: PlanarDeck, name: str, label: Message) -> None:
    if may_come_up(deck, name):
        return
    if deck.listed and deck.unseen == 0:
        raise IllegalCommand(
            "planechase.card_not_next", name=name, deck=label, card=deck.cards[0].name
        )
    raise IllegalCommand("planechase.card_on_bottom", name=name, deck=label)


@RULES.decides(ReturnPlanarCard)
def _return(state: GameState, command: ReturnPlanarCard, rng: Random) -> list[Event]:
    pc = planechase(state)
    face_up = names_of(c.name for c in pc.face_up)
    card = pick_face_up(pc.face_up, command.name, face_up)
    deck = pc.deck(owner_key(pc, card))
    if deck is None or not deck.physical:
        raise IllegalCommand("planechase.return_not_physical")
    seat = planar_controllers(state)[card.marker] if pc.grand_melee else planar_controller(state)
    starting = not pc.rolls and len(pc.visited) <= len(planar_controllers(state))
    waiting = pc.awaiting
    planes = 1 if waiting is None else waiting.planes + (card.kind is PlanarKind.PLANE)
    merged = [c for c in pc.face_up if c.kind is PlanarKind.PLANE and c.marker == card.marker]
    merging = planes > 1 or (waiting.merging if waiting is not None else len(merged) > 1)
    awaiting = Awaiting(
        seat=seat,
        deck=deck.owner,
        planes=planes,
        merging=merging,
        starting=starting,
        marker=card.marker,
    )
    return [PlanarCardReturned(name=card.name, awaiting=awaiting)]


@RULES.applies(PlanarCardReturned)
def _apply_returned(state: GameState, event: PlanarCardReturned) -> GameState:
    pc = planechase(state)
    back = [c for c in pc.face_up if c.name == event.name]
    decks = pc.decks
    for card in back[:1]:  # the card goes back on top of the deck it came from
        deck = pc.deck(owner_key(pc, card))
        if deck is not None and deck.tracked:
            top = deck.model_copy(
                update={
                    "cards": (CardRef(name=card.name, kind=card.kind), *deck.cards),
                    "unseen": deck.unseen + deck.physical,
                }
            )
            decks = tuple(top if d.owner == deck.owner else d for d in pc.decks)
        elif (
            deck is not None and deck.physical
        ):  # unlisted: one more card above those it saw go under
            top = deck.model_copy(update={"unseen": deck.unseen + 1})
            decks = tuple(top if d.owner == deck.owner else d for d in pc.decks)
    face_up = tuple(c for c in pc.face_up if c.name != event.name)
    visited = list(pc.visited)
    for i in range(len(visited) - 1, -1, -1):
        if visited[i].name == event.name:
            del visited[i]
            break
    encounter = None if pc.encounter == event.name else pc.encounter
    return updated(
        state,
        decks=decks,
        face_up=face_up,
        visited=tuple(visited),
        awaiting=event.awaiting,
        encounter=encounter,
    )


@RULES.describes(PlanarCardReturned)
def _describe_returned(state: GameState, event: PlanarCardReturned) -> Message:
    return Message(
        "planechase.card_returned", name=event.name, deck=deck_label(state, event.awaiting.deck)
    )
