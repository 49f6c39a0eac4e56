"""The phases moving on by themselves (the next phase-1 turn, the last roll, the next caster)
and WD-2 phase 4, the clean-up: reserve dice to magic points, the market refreshed, the next round
or, on points (WD-4), the end of the duel."""

from __future__ import annotations

from random import Random

from device.events import Event
from device.rules.registry import Rules, outcome
from device.rules.table import round_from
from device.rules.wizards_duel.board import fresh, update_wizard
from device.rules.wizards_duel.events import (
    CastingTurn,
    DuelEnded,
    GatherTurnStarted,
    LastRollCalled,
    MagicChanged,
    MarketRefreshed,
    PhaseStarted,
    RoundCleanedUp,
    RoundStarted,
)
from device.rules.wizards_duel.magic import Batch
from device.rules.wizards_duel.queries import (
    HAND,
    duel_of,
    in_game,
    may_cast,
    option,
    players_in,
    seat_names,
    untargetable,
)
from device.state import GameState
from device.text import Message

RULES = Rules("wizards_duel.rounds")


LESSON_ROUNDS = 15  # WD-4 magic lesson


def _next_caster(state: GameState) -> int | None:
    """Phase 3 goes round the table from the starting player; the mover goes last in the lap."""
    duel = duel_of(state)
    if duel.to_move is None:
        order = round_from(state, duel.starting)
    else:
        after = round_from(state, duel.to_move)
        order = [*after[1:], after[0]]
    return next((seat for seat in order if may_cast(state, seat)), None)


@RULES.state_check
def _progress(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    duel = state.wizards_duel
    if duel is None or outcome(state) is not None:
        return []
    players = players_in(state)
    # A player at 0 drops out or starts falling in this same settling round; wait for that.
    if any(w.falling or w.magic <= 0 for w in players) or duel.attack is not None:
        return []
    if duel.phase == 1 and all(w.chosen for w in players):
        if duel.last_roll:
            return [PhaseStarted(phase=2)]
        if duel.last_turn:
            return [LastRollCalled()]
        return [GatherTurnStarted(turn=duel.gather_turn + 1)]
    if duel.phase == 2 and all(w.passed for w in players):
        return [PhaseStarted(phase=3)]
    if duel.phase == 3:
        mover = duel.to_move
        if mover is not None and may_cast(state, mover) and not duel.wizard(mover).turn_over:
            return []
        following = _next_caster(state)
        if following is None:
            return clean_up(state)
        return [CastingTurn(seat=following)]
    return []


@RULES.applies(GatherTurnStarted)
def _apply_gather_turn(state: GameState, event: GatherTurnStarted) -> GameState:
    duel = duel_of(state)
    wizards = tuple(w.model_copy(update={"chosen": False, "rolled": None}) for w in duel.wizards)
    return state.model_copy(
        update={
            "wizards_duel": duel.model_copy(update={"wizards": wizards, "gather_turn": event.turn})
        }
    )


@RULES.describes(GatherTurnStarted)
def _describe_gather_turn(state: GameState, event: GatherTurnStarted) -> Message:
    return Message("wd.gather_turn", turn=event.turn)


@RULES.applies(LastRollCalled)
def _apply_last_roll(state: GameState, event: LastRollCalled) -> GameState:
    duel = duel_of(state)
    # A player with no dice in hand has nothing to roll.
    wizards = tuple(
        w.model_copy(update={"chosen": w.hand == 0, "rolled": None}) for w in duel.wizards
    )
    return state.model_copy(
        update={"wizards_duel": duel.model_copy(update={"wizards": wizards, "last_roll": True})}
    )


@RULES.describes(LastRollCalled)
def _describe_last_roll(state: GameState, event: LastRollCalled) -> Message:
    return Message("wd.last_roll")


@RULES.applies(PhaseStarted)
def _apply_phase(state: GameState, event: PhaseStarted) -> GameState:
    duel = duel_of(state)
    wizards = tuple(
        w.model_copy(update={"passed": False, "turn_over": False}) for w in duel.wizards
    )
    duel = duel.model_copy(update={"phase": event.phase, "wizards": wizards, "to_move": None})
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(PhaseStarted)
def _describe_phase(state: GameState, event: PhaseStarted) -> Message:
    if event.phase == 3:
        return Message("wd.phase_3", name=state.player(duel_of(state).starting).name)
    return Message(f"wd.phase_{event.phase}")


@RULES.applies(CastingTurn)
def _apply_casting_turn(state: GameState, event: CastingTurn) -> GameState:
    duel = duel_of(state).model_copy(update={"to_move": event.seat})
    state = state.model_copy(update={"wizards_duel": duel, "active": event.seat})
    return update_wizard(state, event.seat, turn_over=False)


@RULES.describes(CastingTurn)
def _describe_casting_turn(state: GameState, event: CastingTurn) -> Message:
    return Message("wd.casting_turn", name=state.player(event.seat).name)


def clean_up(state: GameState) -> list[Event]:
    """Phase 4, all at once: reserve dice become magic points, everything goes back, the market
    is refreshed, the next round starts (or the game ends on points)."""
    batch = Batch(state)
    batch.add(PhaseStarted(phase=4))
    duel = batch.duel
    for wizard in players_in(state):
        if wizard.reserve and not untargetable(duel, wizard.seat):
            batch.add(MagicChanged(seat=wizard.seat, delta=wizard.reserve, cause="reserve"))
    batch.add(RoundCleanedUp())
    batch.add(_market_refreshed(batch.state))
    batch.add(_round_over(batch.state))
    return batch.events


@RULES.applies(RoundCleanedUp)
def _apply_cleaned_up(state: GameState, event: RoundCleanedUp) -> GameState:
    duel = duel_of(state)
    wizards = []
    for wizard in duel.wizards:
        dice = wizard.total_dice() - wizard.removed
        cards = tuple(c.model_copy(update={"spells": fresh(c.spells)}) for c in wizard.cards)
        wizards.append(
            wizard.model_copy(
                update={
                    "hand": min(HAND, dice),
                    "reserve": dice - min(HAND, dice),
                    "pool": (),
                    "rolled": None,
                    "chosen": False,
                    "shield": (),
                    "aside": 0,
                    "cards": cards,
                    "learned": False,
                    "passed": False,
                    "turn_over": False,
                    "chain": -1,
                }
            )
        )
    return state.model_copy(
        update={"wizards_duel": duel.model_copy(update={"wizards": tuple(wizards)})}
    )


@RULES.describes(RoundCleanedUp)
def _describe_cleaned_up(state: GameState, event: RoundCleanedUp) -> Message:
    return Message("wd.cleaned_up")


def _market_refreshed(state: GameState) -> MarketRefreshed:
    """The market's cards left go to the discard pile and one card more than there are players
    comes face up, from the discard pile shuffled into a new deck when the deck runs out."""
    duel = duel_of(state)
    slots = len(players_in(state)) + 1
    discarded = sum(duel.market)
    discard = duel.discard + discarded
    from_deck = min(slots, duel.deck)
    reshuffled = discard if from_deck < slots else 0
    drawn = from_deck + min(slots - from_deck, reshuffled)
    return MarketRefreshed(discarded=discarded, drawn=drawn, reshuffled=reshuffled)


@RULES.applies(MarketRefreshed)
def _apply_market(state: GameState, event: MarketRefreshed) -> GameState:
    duel = duel_of(state)
    deck, discard = duel.deck, duel.discard + event.discarded
    from_deck = min(event.drawn, deck)
    deck -= from_deck
    if event.reshuffled:
        deck, discard = deck + event.reshuffled, discard - event.reshuffled
    deck -= event.drawn - from_deck
    duel = duel.model_copy(
        update={"deck": deck, "discard": discard, "market": (True,) * event.drawn}
    )
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(MarketRefreshed)
def _describe_market(state: GameState, event: MarketRefreshed) -> Message:
    key = "wd.market_reshuffled" if event.reshuffled else "wd.market"
    return Message(
        key,
        discarded=event.discarded,
        drawn=Message("wd.market_drawn", n=event.drawn),
        reshuffled=Message("wd.market_reshuffled_cards", n=event.reshuffled),
    )


def starting_player(state: GameState) -> int:
    """WD-2 phase 4: the fewest magic points starts.  The article does not say who starts on a
    tie; the gadget keeps turn order from the current starting player, so they keep it if tied."""
    duel = duel_of(state)
    count = len(state.players)
    order = [(duel.starting + i) % count for i in range(count)]
    order = [seat for seat in order if in_game(state, seat)]
    fewest = min(duel.wizard(seat).magic for seat in order)
    return next(seat for seat in order if duel.wizard(seat).magic == fewest)


def _round_over(state: GameState) -> DuelEnded | RoundStarted:
    """The next round, or the end of the duel on points (WD-4: the magic lesson's last round,
    the round after the one in which someone dropped out)."""
    duel = duel_of(state)
    lesson = option(state, "magic_lesson") and duel.round >= LESSON_ROUNDS
    alternative = (
        option(state, "alt_ending")
        and duel.dropout_round is not None
        and duel.round > duel.dropout_round
    )
    if lesson or alternative:
        players = players_in(state)
        best = max(w.magic for w in players)
        winners = tuple(w.seat for w in players if w.magic == best)
        return DuelEnded(winners=winners, points=best, reason="lesson" if lesson else "alt")
    return RoundStarted(round=duel.round + 1, starting=starting_player(state))


@RULES.applies(DuelEnded)
def _apply_ended(state: GameState, event: DuelEnded) -> GameState:
    duel = duel_of(state)
    if len(event.winners) == 1:
        reason = f"most magic points ({event.points})"
    else:
        reason = f"tie on {event.points} magic points"
    reason += ", magic lesson over" if event.reason == "lesson" else ", alternative ending"
    duel = duel.model_copy(update={"winners": event.winners, "end_reason": reason})
    return state.model_copy(update={"wizards_duel": duel})


@RULES.describes(DuelEnded)
def _describe_ended(state: GameState, event: DuelEnded) -> Message:
    reason = Message(f"wd.reason.{event.reason}", rounds=LESSON_ROUNDS)
    if len(event.winners) == 1:
        return Message(
            "wd.ended_win",
            name=state.player(event.winners[0]).name,
            points=event.points,
            reason=reason,
        )
    return Message(
        "wd.ended_tie", names=seat_names(state, event.winners), points=event.points, reason=reason
    )


@RULES.applies(RoundStarted)
def _apply_round(state: GameState, event: RoundStarted) -> GameState:
    duel = duel_of(state).model_copy(
        update={
            "round": event.round,
            "phase": 1,
            "gather_turn": 1,
            "last_turn": False,
            "last_roll": False,
            "starting": event.starting,
            "to_move": None,
        }
    )
    return state.model_copy(
        update={"wizards_duel": duel, "active": event.starting, "turn": event.round}
    )


@RULES.describes(RoundStarted)
def _describe_round(state: GameState, event: RoundStarted) -> Message:
    return Message("wd.round", round=event.round, name=state.player(event.starting).name)
