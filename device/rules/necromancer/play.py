"""Necromancer / Minion EDH (SPEC section 4, NC-1..NC-7).

A Commander game in which a player who loses comes back as the minion of whoever was
responsible.  The core marks a loser ``lost`` (with the source of the change that did it); a state
check then settles the loss in one ``LossSettled`` event: the loser respawns at 30 life as a
minion (of that player, or of nobody), or is out for good (killed by their own master, or
conceded).  A respawned minion is in the game again (``lost`` cleared) but phased out for three
solo turns, which the table reports with ``SoloTurn``; until then their seat is held out of the
turn order with one armed skipped turn, re-armed each time the table passes over it.

Masters and minions stay a forest: a minion that makes their master lose regains full status, and
so does one that makes any master further up their chain lose (the article covers the first
case; the second would otherwise make a circle of players each the minion of the next).

Full status frees a player from a minion's limits, but only a player who never died can win:
the game ends when one of them is left (NC-6), so ``NecroSeat.can_win``, the console's ``minions``
and ``outcome()`` name the same players (docs/decisions/0004-necromancer-winning.md).
"""

from __future__ import annotations

from random import Random

from device.commands import Command
from device.errors import IllegalCommand
from device.events import Event, PlayerLost, TurnPassed, TurnSkipped
from device.formats import Format
from device.rules.necromancer.commands import (
    Blame,
    SoloTurn,
)
from device.rules.necromancer.events import (
    LossReattributed,
    LossSettled,
    MinionPhasedIn,
    NecromancerBegan,
    SeatHeld,
    SoloTurnPlayed,
)
from device.rules.registry import Rules, outcome
from device.rules.table import check_seat
from device.state import CommanderDamage, GameState, Loss, LossReason, Outcome
from device.rules.necromancer.state import (
    RESPAWN_LIFE,
    SOLO_TURNS,
    DeathRecord,
    Fate,
    NecromancerState,
    NecroSeat,
    Phase,
)
from device.text import Message, Plural, Text, listing

RULES = Rules("necromancer")

FORMAT = RULES.format(
    Format(
        "necromancer",
        "Necromancer",
        "base",
        starting_life=40,
        commander_damage=True,
        aliases=("minion-edh", "minion"),
    )
)

TEXTS: dict[str, Text] = {
    "necro.began": "Necromancer: whoever loses comes back at 30 life as the minion of the player "
    "responsible; the last player who never died wins.",
    "necro.minion": "{name} comes back as {master}'s minion at 30 life, after three solo turns "
    "apart from the game.",
    "necro.masterless": "{name} comes back as a masterless minion at 30 life, after three solo "
    "turns apart from the game.",
    "necro.regained": "{master} made their master {name} lose and regains full status; {name} "
    "comes back as {master}'s minion at 30 life, after three solo turns apart from the game.",
    "necro.out": "{name} was killed by their master {master} and is out of the game for good.",
    "necro.conceded": "{name} conceded and is out of the game for good.",
    "necro.reattributed": "{name}'s loss is now put down to {responsible}.",
    "necro.reattributed_nobody": "{name}'s loss is now put down to nobody.",
    "necro.solo": "{name} finished solo turn {number} of 3.",
    "necro.solo_done": "{name} finished their three solo turns and phases in when their seat's "
    "turn comes up.",
    "necro.held": "{name} is playing their solo turns ({done} of 3 done); their seat is passed over.",
    "necro.phased_in": "{name} phases in and plays their 4th turn as a member of the game.",
    "necro.minion_vs_master": "{source} is {target}'s minion and can't deal damage to their master.",
    "necro.fellow_minions": "{source} and {target} are both minions of {master} and can't damage "
    "each other.",
    "necro.target_phased_out": "{target} is phased out for their solo turns: nothing in the game "
    "can hurt them until they phase in.",
    "necro.source_phased_out": "{source} is phased out for their solo turns and can't hurt the "
    "other players until they phase in.",
    "necro.not_necromancer": "This is not a Necromancer game; start one with 'new necromancer …'.",
    "necro.not_solo": "{name} is not playing solo turns.",
    "necro.no_loss": "Nobody has lost yet, so there is no loss to put down to anyone.",
    "necro.not_latest": "Only the latest loss can be put down to someone else, and that was "
    "{latest}'s; undo back to {name}'s loss to change it.",
    "necro.too_late": "{name} has played a solo turn since; undo back to the loss to change who "
    "was responsible.",
    "necro.same": "{name}'s loss is already put down to {responsible}.",
    "necro.nobody": "nobody",
    "necro.won_reason": "the last player who never died",
    "necro.nobody_left": "no player who never died is left",
}


# --- commands and events --------------------------------------------------------------------


# --- helpers --------------------------------------------------------------------------------


def _necro(state: GameState) -> NecromancerState:
    if state.necromancer is None:
        raise IllegalCommand("necro.not_necromancer")
    return state.necromancer


def _name(state: GameState, seat: int | None) -> str | Message:
    return state.player(seat).name if seat is not None else Message("necro.nobody")


def settle(
    necro: NecromancerState, seat: int, responsible: int | None, reason: LossReason
) -> LossSettled:
    """The outcome of ``seat``'s loss, put down to ``responsible`` (NC-1, NC-5, NC-6)."""
    record = necro.seat(seat)
    if responsible == seat or (responsible is not None and necro.seat(responsible).out):
        responsible = None  # self-inflicted, or nobody left in the game to be a master
    minions = tuple(r.seat for r in necro.seats if r.master == seat and r.seat != seat)
    if reason is LossReason.CONCEDED:
        return LossSettled(seat=seat, responsible=responsible, fate=Fate.CONCEDED, orphans=minions)
    if responsible is not None and responsible == record.master:
        return LossSettled(seat=seat, responsible=responsible, fate=Fate.OUT, orphans=minions)
    if responsible is None:
        return LossSettled(seat=seat, responsible=None, fate=Fate.MASTERLESS)
    freed = responsible if seat in necro.masters_of(responsible) else None
    return LossSettled(seat=seat, responsible=responsible, fate=Fate.MINION, freed=freed)


# --- set-up and decisions -------------------------------------------------------------------


@RULES.set_up
def _begin(state: GameState, command: Command, rng: Random) -> list[Event]:
    if state.formats[0] != FORMAT.name:
        return []
    return [NecromancerBegan(players=len(state.players))]


@RULES.decides(Blame)
def _blame(state: GameState, command: Blame, rng: Random) -> list[Event]:
    necro = _necro(state)
    player = check_seat(state, command.seat)
    responsible = command.responsible
    if responsible is not None:
        check_seat(state, responsible)
        if responsible == command.seat:
            responsible = None
    latest = necro.last_death
    if latest is None:
        raise IllegalCommand("necro.no_loss")
    if latest.seat != command.seat:
        raise IllegalCommand(
            "necro.not_latest", latest=state.player(latest.seat).name, name=player.name
        )
    if necro.seat(command.seat).solo_done > 0:
        raise IllegalCommand("necro.too_late", name=player.name)
    if latest.responsible == responsible:
        raise IllegalCommand("necro.same", name=player.name, responsible=_name(state, responsible))
    return [LossReattributed(seat=command.seat, responsible=responsible)]


@RULES.decides(SoloTurn)
def _solo(state: GameState, command: SoloTurn, rng: Random) -> list[Event]:
    necro = _necro(state)
    player = check_seat(state, command.seat)
    record = necro.seat(command.seat)
    if record.phase is not Phase.SOLO:
        raise IllegalCommand("necro.not_solo", name=player.name)
    return [SoloTurnPlayed(seat=command.seat, number=record.solo_done + 1)]


def _damage_check(state: GameState, seat: int, source: int | None) -> None:
    """NC-4, NC-7: refuse damage a minion may not deal (and any across the phasing line)."""
    necro = state.necromancer
    if necro is None or source is None or source == seat:
        return
    target, dealer = necro.seat(seat), necro.seat(source)
    names = {"target": state.player(seat).name, "source": state.player(source).name}
    if target.phase is not Phase.IN:
        raise IllegalCommand("necro.target_phased_out", **names)
    if dealer.phase is not Phase.IN:
        raise IllegalCommand("necro.source_phased_out", **names)
    if dealer.minion and dealer.master == seat:
        raise IllegalCommand("necro.minion_vs_master", **names)
    if (
        dealer.minion
        and target.minion
        and dealer.master is not None
        and dealer.master == target.master
    ):
        raise IllegalCommand(
            "necro.fellow_minions", master=state.player(dealer.master).name, **names
        )


RULES.damage_check(_damage_check)


# --- state checks ---------------------------------------------------------------------------


@RULES.state_check
def _settle_losses(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """NC-1: every loss (or re-attributed loss) in this batch is settled, one after another."""
    if state.necromancer is None:
        return []
    out: list[Event] = []
    current = state
    for event in events:
        if isinstance(event, PlayerLost):
            seat = event.seat
            responsible = event.source
        elif isinstance(event, LossReattributed):
            seat, responsible = event.seat, event.responsible
        else:
            continue
        loss = current.player(seat).lost
        necro = current.necromancer
        if loss is None or necro is None or necro.seat(seat).out:
            continue
        settled = settle(necro, seat, responsible, loss.reason)
        out.append(settled)
        current = _apply_settled(current, settled)
    return out


@RULES.state_check
def _turns(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """NC-3: hold a soloing minion's seat again once passed over; phase in a waiting one."""
    necro = state.necromancer
    if necro is None:
        return []
    out: list[Event] = []
    for event in events:
        if isinstance(event, TurnSkipped) and necro.seat(event.seat).phase is Phase.SOLO:
            out.append(SeatHeld(seat=event.seat))
        elif isinstance(event, TurnPassed) and necro.seat(event.to).phase is Phase.WAITING:
            out.append(MinionPhasedIn(seat=event.to))
    return out


def contenders(state: GameState) -> list[int]:
    """The seats that can still win: in the game and never died (NC-4, NC-6)."""
    necro = _necro(state)
    return [p.seat for p in state.players if p.in_game and necro.seat(p.seat).can_win]


def _outcome(state: GameState) -> Outcome | None:
    """NC-6: the game ends when only one player who never died remains; they win."""
    necro = state.necromancer
    if necro is None:
        return None
    never = contenders(state)
    if len(never) == 1:
        return Outcome(
            winner=never[0],
            reason=str(Message("necro.won_reason")),
            said=Message("necro.won_reason"),
        )
    if not never:
        return Outcome(
            winner=None, reason=str(Message("necro.nobody_left")), said=Message("necro.nobody_left")
        )
    return None


RULES.outcome(FORMAT.name, _outcome)


@RULES.apart
def _phased_out(state: GameState, seat: int) -> bool:
    """A minion phased out for their solo turns, or waiting to phase in, is apart from the game
    (NC-3): they take nothing of it, such as the monarchy, meanwhile."""
    necro = state.necromancer
    return necro is not None and necro.seat(seat).phase is not Phase.IN


@RULES.comes_back
def _came_back(event: Event) -> int | None:
    """A player who comes back as a minion (or nobody's) comes back anew (NC-1, NC-5): without
    what they held, as with no poison."""
    if isinstance(event, LossSettled) and event.fate in (Fate.MINION, Fate.MASTERLESS):
        return event.seat
    return None


# --- each event: what it does to the state (apply), and what it says (describe) ---------------


@RULES.applies(NecromancerBegan)
def _apply_began(state: GameState, event: NecromancerBegan) -> GameState:
    seats = tuple(NecroSeat(seat=seat) for seat in range(event.players))
    return state.model_copy(update={"necromancer": NecromancerState(seats=seats)})


@RULES.describes(NecromancerBegan)
def _describe_began(state: GameState, event: NecromancerBegan) -> Message:
    return Message("necro.began")


def _apply_settled(state: GameState, event: LossSettled) -> GameState:
    necro = state.necromancer
    assert necro is not None
    player = state.player(event.seat)
    loss = player.lost
    record = necro.seat(event.seat)
    death = DeathRecord(
        seat=event.seat,
        reason=(loss.reason if loss is not None else LossReason.EFFECT).value,
        turn=loss.turn if loss is not None else state.turn,
        responsible=event.responsible,
        before=necro.seats,
        life=player.life,
        poison=player.poison,
        commander_damage=tuple((e.source, e.commander, e.amount) for e in player.commander_damage),
        skip_turns=player.skip_turns,
        freed=event.freed,
        orphans=event.orphans,
    )
    common = {
        "deaths": record.deaths + 1,
        "killed_by": event.responsible,
        "fate": event.fate,
        "solo_done": 0,
    }
    # A minion on solo turns has their seat held by one armed skip.  Dying again during them
    # (their own doing: nobody else can reach them) keeps that one skip, never arms a second;
    # leaving for good gives it back.
    held = int(record.held)
    if event.fate in (Fate.OUT, Fate.CONCEDED):
        record = record.model_copy(
            update={
                **common,
                "out": True,
                "minion": False,
                "master": None,
                "phase": Phase.IN,
                "held": False,
            }
        )
        player = player.model_copy(update={"skip_turns": max(0, player.skip_turns - held)})
    else:
        master = event.responsible if event.fate is Fate.MINION else None
        record = record.model_copy(
            update={**common, "minion": True, "master": master, "phase": Phase.SOLO, "held": True}
        )
        player = player.model_copy(
            update={
                "life": RESPAWN_LIFE,
                "poison": 0,
                "commander_damage": (),
                "lost": None,
                "skip_turns": player.skip_turns + 1 - held,
            }
        )
    necro = necro.with_seat(record)
    if event.freed is not None:
        necro = necro.with_seat(
            necro.seat(event.freed).model_copy(update={"minion": False, "master": None})
        )
    for seat in event.orphans:
        necro = necro.with_seat(necro.seat(seat).model_copy(update={"master": None}))
    necro = necro.model_copy(update={"last_death": death})
    return state.with_player(player).model_copy(update={"necromancer": necro})


RULES.applies(LossSettled)(_apply_settled)


@RULES.applies(LossReattributed)
def _apply_reattributed(state: GameState, event: LossReattributed) -> GameState:
    necro = state.necromancer
    assert necro is not None and necro.last_death is not None
    death = necro.last_death
    before = {r.seat: r for r in death.before}
    # Put back only what settling the loss changed, so later changes to other seats stay.
    necro = necro.with_seat(before[event.seat])
    if death.freed is not None:
        old = before[death.freed]
        necro = necro.with_seat(
            necro.seat(death.freed).model_copy(update={"minion": old.minion, "master": old.master})
        )
    for seat in death.orphans:
        necro = necro.with_seat(necro.seat(seat).model_copy(update={"master": before[seat].master}))
    player = state.player(event.seat).model_copy(
        update={
            "life": death.life,
            "poison": death.poison,
            "commander_damage": tuple(
                CommanderDamage(source=s, commander=c, amount=a)
                for s, c, a in death.commander_damage
            ),
            "lost": Loss(
                reason=LossReason(death.reason), source=event.responsible, turn=death.turn
            ),
            "skip_turns": death.skip_turns,
        }
    )
    necro = necro.model_copy(update={"last_death": None})
    return state.with_player(player).model_copy(update={"necromancer": necro})


@RULES.describes(LossReattributed)
def _describe_reattributed(state: GameState, event: LossReattributed) -> Message:
    name = state.player(event.seat).name
    if event.responsible is None:
        return Message("necro.reattributed_nobody", name=name)
    return Message(
        "necro.reattributed", name=name, responsible=state.player(event.responsible).name
    )


@RULES.applies(SoloTurnPlayed)
def _apply_solo(state: GameState, event: SoloTurnPlayed) -> GameState:
    necro = state.necromancer
    assert necro is not None
    record = necro.seat(event.seat)
    player = state.player(event.seat)
    if event.number < SOLO_TURNS:
        record = record.model_copy(update={"solo_done": event.number})
    else:
        record = record.model_copy(
            update={"solo_done": event.number, "phase": Phase.WAITING, "held": False}
        )
        if necro.seat(event.seat).held:
            player = player.model_copy(update={"skip_turns": max(0, player.skip_turns - 1)})
    return state.with_player(player).model_copy(update={"necromancer": necro.with_seat(record)})


@RULES.describes(SoloTurnPlayed)
def _describe_solo(state: GameState, event: SoloTurnPlayed) -> Message:
    name = state.player(event.seat).name
    if event.number >= SOLO_TURNS:
        return Message("necro.solo_done", name=name)
    return Message("necro.solo", name=name, number=event.number)


@RULES.applies(SeatHeld)
def _apply_held(state: GameState, event: SeatHeld) -> GameState:
    player = state.player(event.seat)
    return state.with_player(player.model_copy(update={"skip_turns": player.skip_turns + 1}))


@RULES.describes(SeatHeld)
def _describe_held(state: GameState, event: SeatHeld) -> Message:
    necro = state.necromancer
    done = necro.seat(event.seat).solo_done if necro is not None else 0
    return Message("necro.held", name=state.player(event.seat).name, done=done)


@RULES.applies(MinionPhasedIn)
def _apply_phased_in(state: GameState, event: MinionPhasedIn) -> GameState:
    necro = state.necromancer
    assert necro is not None
    record = necro.seat(event.seat).model_copy(update={"phase": Phase.IN})
    return state.model_copy(update={"necromancer": necro.with_seat(record)})


@RULES.describes(MinionPhasedIn)
def _describe_phased_in(state: GameState, event: MinionPhasedIn) -> Message:
    return Message("necro.phased_in", name=state.player(event.seat).name)


@RULES.describes(LossSettled)
def _describe_settled(state: GameState, event: LossSettled) -> Message:
    name = state.player(event.seat).name
    master = _name(state, event.responsible)
    if event.fate in (Fate.OUT, Fate.CONCEDED) and event.orphans:
        names = listing([state.player(s).name for s in event.orphans])  # "Bob and Carol … have"
        key = "necro.out" if event.fate is Fate.OUT else "necro.conceded"
        return Message(
            key + "_orphans", name=name, master=master, names=names, n=len(event.orphans)
        )
    if event.fate is Fate.OUT:
        return Message("necro.out", name=name, master=master)
    if event.fate is Fate.CONCEDED:
        return Message("necro.conceded", name=name)
    if event.fate is Fate.MASTERLESS:
        return Message("necro.masterless", name=name)
    if event.freed is not None:
        return Message("necro.regained", name=name, master=master)
    return Message("necro.minion", name=name, master=master)


TEXTS.update(
    {
        "necro.out_orphans": Plural(
            "{name} was killed by their master {master} and is out of the game for good; {names} no longer has a "
            "master.",
            "{name} was killed by their master {master} and is out of the game for good; {names} no longer have a "
            "master.",
            "n",
        ),
        "necro.conceded_orphans": Plural(
            "{name} conceded and is out of the game for good; {names} no longer has a master.",
            "{name} conceded and is out of the game for good; {names} no longer have a master.",
            "n",
        ),
    }
)


# --- queries for the console ------------------------------------------------------------------

TEXTS.update(
    {
        "necro.status": "{name}: {standing}",
        "necro.standing.never_died": "never died",
        "necro.standing.minion_of": "minion of {master}",
        "necro.standing.masterless": "masterless minion",
        "necro.standing.full": "full status",
        "necro.standing.out": "out for good",
        "necro.standing.solo_left": Plural("{n} solo turn left", "{n} solo turns left", "n"),
        "necro.standing.waiting": "phases in at their seat's turn",
        "necro.standing.can_win": "can win",
        "necro.standing.cannot_win": "can't win",
        "necro.standing.won": "won",
    }
)


def standing(state: GameState, seat: int) -> list[Message]:
    """A player's standing in short phrases (``show`` and ``minions``): out for good, whose
    minion or masterless, full status again, and the solo turns still to play (NC-1, NC-3, NC-5)."""
    record = _necro(state).seat(seat)
    if record.out:
        return [Message("necro.standing.out")]
    parts: list[Message] = []
    if record.minion:
        if record.master is not None:
            parts.append(
                Message("necro.standing.minion_of", master=state.player(record.master).name)
            )
        else:
            parts.append(Message("necro.standing.masterless"))
    elif record.deaths:
        parts.append(Message("necro.standing.full"))
    if record.phase is Phase.SOLO:
        parts.append(Message("necro.standing.solo_left", n=SOLO_TURNS - record.solo_done))
    elif record.phase is Phase.WAITING:
        parts.append(Message("necro.standing.waiting"))
    return parts


def status(state: GameState, seat: int) -> Message:
    """One line for a player's standing in a Necromancer game (the console's ``minions``)."""
    record = _necro(state).seat(seat)
    parts: list[str | Message] = []
    if record.deaths == 0:
        parts.append(Message("necro.standing.never_died"))
    parts += standing(state, seat)
    if not record.out:
        ended = outcome(state)
        if ended is not None and ended.winner == seat:
            parts.append(Message("necro.standing.won"))
        elif ended is None and seat in contenders(state):
            parts.append(Message("necro.standing.can_win"))
        else:
            parts.append(Message("necro.standing.cannot_win"))
    return Message(
        "necro.status", name=state.player(seat).name, standing=listing(parts, "text.list")
    )


RULES.says(TEXTS)
