"""Life, poison, commander damage, commander tax and losing (SPEC section 3, LF-1..LF-4)."""

from __future__ import annotations

import re
from random import Random

from device.commands import (
    CastCommander,
    ChangeLife,
    ChangePoison,
    Concede,
    DealCommanderDamage,
    Lose,
    NameCommanders,
    NewGame,
    SetLife,
)
from device.errors import IllegalCommand
from device.events import (
    CommanderCast,
    CommanderDamageDealt,
    CommandersNamed,
    Event,
    LifeChanged,
    PlayerLost,
    PoisonChanged,
)
from device.formats import title
from device.rules.registry import Rules, find_format, in_play
from device.rules.table import check_fits, check_seat
from device.rules.teams import TEAM_POISON_LIMIT, team_of, teamed, teammate
from device.state import (
    CommanderDamage,
    GameState,
    LedgerEntry,
    Loss,
    LossReason,
    Player,
)
from device.text import Message, Plural, Text, fold, listing

RULES = Rules("life")

POISON_LIMIT = 10  # LF-1
COMMANDER_LIMIT = 21  # LF-1: combat damage from one commander
MAX_CHANGE = 999
MAX_LIFE = 9999
MAX_COMMANDERS = 2  # a commander and a partner (or a background)
#: The longest commander's name kept: every printed front face fits ("Asmoranomardicadaistinaculdacar").
MAX_COMMANDER_NAME = 32
TAX = 2  # CR 903.8: {2} more for each earlier cast from the command zone
MAX_CASTS = 99

TEXTS: dict[str, Text] = {
    # LF-2, who did how much to whom (the console's "dealt", the kiosk's history)
    "life.dealt.line": "{source} → {target}: {parts}",
    "life.dealt.no_one": "no one",
    "life.dealt.lost": Plural("{n} life lost", "{n} life lost"),
    "life.dealt.gained": Plural("{n} life gained", "{n} life gained"),
    "life.dealt.poison": Plural("{n} poison", "{n} poison"),
    "life.zero": "Nothing to change: the amount is 0.",
    "life.not_tracked": "{base} does not count life; 'help' lists its own commands.",
    "life.range": "{amount} is out of range: change life by at most {limit} at a time.",
    "life.damage_range": "Commander damage is from 1 to {limit} at a time; {amount} given.",
    "life.set_range": "Life can be set from -{limit} to {limit}; {life} given.",
    "life.same": "{name} already has {life} life.",
    "life.out": "{name} has already lost ({reason}); undo that first if it was a mistake.",
    "life.source_left": "{name} has left the game ({reason}): nothing of theirs deals damage or changes life "
    "any more. Undo the loss first if it was a mistake.",
    "life.poison_below": Plural(
        "{name} has {poison} poison counter; {remove} cannot be removed.",
        "{name} has {poison} poison counters; {remove} cannot be removed.",
        "poison",
    ),
    "life.no_commander_damage": "Commander damage is tracked only in Commander games; "
    "this game is {base}.",
    "life.which_commander": "{name} has {count} commanders ({commanders}): say which one "
    "dealt the damage, e.g. 'from {name}/{first}'.",
    "life.no_such_commander": "{name} has no commander number {index}; their commanders: "
    "{commanders}.",
    "life.commander_count": "A player has one or two commanders (partners); {count} given.",
    "life.commander_in_use": "{name}'s commander {commander!r} has dealt damage already; "
    "undo that damage before removing it.",
    "life.commander_name": "Give each commander a name.",
    "life.commanders_seats": Plural(
        "Commanders are named for {count} seats, but the table has {players} player.",
        "Commanders are named for {count} seats, but the table has {players} players.",
        "players",
    ),
    "life.commander_cast_in_use": "{name}'s commander {commander!r} has been cast from the command zone "
    "already; take those casts back before removing it.",
    "life.changed": "{name}: {before} → {after} life.",
    "life.changed_from": "{name}: {before} → {after} life (from {source}).",
    "life.poison": "{name}: {before} → {after} poison.",
    "life.poison_from": "{name}: {before} → {after} poison (from {source}).",
    "life.commander_damage": Plural(
        "{name} took {amount} commander damage from {commander} ({total} of 21).",
        "{name} took {amount} commander damage from {commander} ({total} of 21).",
        "amount",
    ),
    "life.commander_damage_of": Plural(
        "{name} took {amount} commander damage from {owner}'s commander ({total} of 21).",
        "{name} took {amount} commander damage from {owner}'s commander ({total} of 21).",
        "amount",
    ),
    "life.commanders_named": Plural(
        "{name}'s commander: {commanders}.", "{name}'s commanders: {commanders}.", "n"
    ),
    "life.commander_twice": "{name}'s partners need two different names; {commander!r} is given twice.",
    # CR 903.8, commander tax
    "life.no_commander_tax": "Commander tax is counted only in Commander games; this game is {base}.",
    "life.which_cast": "{name} has {count} commanders ({commanders}): say which one was cast, "
    "e.g. 'tax {name} {first}'.",
    "life.casts_below": Plural(
        "{commander} has been cast from the command zone {casts} time; {remove} cannot be taken back.",
        "{commander} has been cast from the command zone {casts} times; {remove} cannot be taken back.",
        "casts",
    ),
    "life.casts_range": "A commander is counted as cast at most {limit} times; {casts} is too many.",
    "life.cast": Plural(
        "{commander} was cast from the command zone: commander tax {before} → {after}.",
        "{commander} was cast from the command zone {n} times: commander tax {before} → {after}.",
    ),
    "life.cast_taken_back": Plural(
        "{commander}: {n} cast from the command zone taken back, commander tax {before} → {after}.",
        "{commander}: {n} casts from the command zone taken back, commander tax {before} → {after}.",
    ),
    "life.lost.life": "{name} has lost: 0 or less life.",
    "life.lost.poison": "{name} has lost: 10 poison counters.",
    "life.lost.commander": "{name} has lost: 21 combat damage from one commander.",
    "life.lost.conceded": "{name} has conceded.",
    "life.lost.effect": "{name} has lost the game.",
    "life.lost.left": "{name} leaves the group.",
    "life.lost.team": "{name} has lost with their team.",
    "life.lost.poison_team": "{name} has lost: 15 poison counters on the team.",
    "life.commander_label": "{owner}'s commander",
    # why a player has lost, in "has already lost (…)"
    "life.why.life": "life",
    "life.why.poison": "poison",
    "life.why.commander": "commander",
    "life.why.conceded": "conceded",
    "life.why.effect": "effect",
    "life.why.left": "left the group",
    "life.why.team": "team",
}


def _check_damage(state: GameState, seat: int, source: int | None) -> None:
    in_play().check_damage(state, seat, source)


def _in_game(state: GameState, seat: int) -> Player:
    player = check_seat(state, seat)
    if player.lost is not None:
        raise IllegalCommand(
            "life.out", name=player.name, reason=Message(f"life.why.{player.lost.reason.value}")
        )
    return player


def check_tracked(state: GameState) -> None:
    """Refuse unless the game counts life (not, say, Wizard's Duel's magic points)."""
    base = find_format(state.formats[0])
    if not base.tracks_life:
        raise IllegalCommand("life.not_tracked", base=title(base))


def _check_commander_game(state: GameState, refusal: str) -> None:
    """Refuse with text ``refusal`` unless the game is a Commander game (one that counts
    commander damage): commanders are named, and their damage and tax counted, only there."""
    base = find_format(state.formats[0])
    if not base.commander_damage:
        raise IllegalCommand(refusal, base=title(base))


def alive(state: GameState, seat: int) -> Player:
    """A player still in a game that counts life: whose life, poison and counters may change."""
    check_tracked(state)
    return _in_game(state, seat)


def _check_source(state: GameState, source: int | None) -> Player | None:
    """The source of a change: a seat of this table still in the game (LF-2; CR 800.4a: when a
    player leaves, everything they own leaves with them)."""
    if source is None:
        return None
    player = check_seat(state, source)
    if player.lost is not None:
        raise IllegalCommand(
            "life.source_left",
            name=player.name,
            reason=Message(f"life.why.{player.lost.reason.value}"),
        )
    return player


def _check_amount(amount: int) -> None:
    if amount == 0:
        raise IllegalCommand("life.zero")
    if abs(amount) > MAX_CHANGE:
        raise IllegalCommand("life.range", amount=amount, limit=MAX_CHANGE)


@RULES.decides(ChangeLife)
def _change_life(state: GameState, command: ChangeLife, rng: Random) -> list[Event]:
    alive(state, command.seat)
    _check_source(state, command.source)
    _check_amount(command.delta)
    if command.delta < 0:
        _check_damage(state, command.seat, command.source)
    return [LifeChanged(seat=command.seat, delta=command.delta, source=command.source)]


@RULES.decides(SetLife)
def _set_life(state: GameState, command: SetLife, rng: Random) -> list[Event]:
    player = alive(state, command.seat)
    _check_source(state, command.source)
    if abs(command.life) > MAX_LIFE:
        raise IllegalCommand("life.set_range", life=command.life, limit=MAX_LIFE)
    if command.life == player.life:
        raise IllegalCommand("life.same", name=player.name, life=player.life)
    if command.life < player.life:
        _check_damage(state, command.seat, command.source)
    return [LifeChanged(seat=command.seat, delta=command.life - player.life, source=command.source)]


@RULES.decides(ChangePoison)
def _change_poison(state: GameState, command: ChangePoison, rng: Random) -> list[Event]:
    player = alive(state, command.seat)
    _check_source(state, command.source)
    _check_amount(command.delta)
    if player.poison + command.delta < 0:
        raise IllegalCommand(
            "life.poison_below", name=player.name, poison=player.poison, remove=-command.delta
        )
    if command.delta > 0:
        _check_damage(state, command.seat, command.source)
    return [PoisonChanged(seat=command.seat, delta=command.delta, source=command.source)]


def commander_names(player: Player) -> tuple[str, ...]:
    """The player's commanders as the console names them; one unnamed commander by default."""
    return player.commanders or (str(Message("life.commander_label", owner=player.name)),)


def commander_word(player: Player, index: int) -> str | Message:
    """A commander as a message names it: its name, or "Alice's commander" in the screen's words."""
    if player.commanders:
        return player.commanders[index]
    return Message("life.commander_label", owner=player.name)


def _short(names: tuple[str, ...]) -> str:
    """How to name the first commander in one word ("Kraum" for "Kraum, Ludevic's Opus"), or by
    its number when both start alike."""
    word = names[0].split()[0].rstrip(",;:")
    others = [name for name in names[1:] if name.casefold().startswith(word.casefold())]
    return "1" if others or not word else word


def tidy_commander(name: str) -> str:
    """A commander's name as kept: single spaces, no space before a comma, nothing stray at the
    ends ("Tymna," typed before a partner is "Tymna")."""
    return re.sub(r" ,", ",", " ".join(name.split())).strip(" ,;")


@RULES.decides(DealCommanderDamage)
def _commander_damage(state: GameState, command: DealCommanderDamage, rng: Random) -> list[Event]:
    _check_commander_game(state, "life.no_commander_damage")
    alive(state, command.seat)
    owner = _check_source(state, command.source)
    assert owner is not None
    index = which_commander(owner, command.commander, "life.which_commander")
    if not 1 <= command.amount <= MAX_CHANGE:
        raise IllegalCommand("life.damage_range", amount=command.amount, limit=MAX_CHANGE)
    _check_damage(state, command.seat, command.source)
    return [
        CommanderDamageDealt(
            seat=command.seat, source=command.source, commander=index, amount=command.amount
        ),
        LifeChanged(seat=command.seat, delta=-command.amount, source=command.source),
    ]


def check_commanders(state: GameState, seat: int, commanders: tuple[str, ...]) -> tuple[str, ...]:
    """The names ``commanders`` as the player's commanders would be kept (tidied), or a refusal:
    only in a Commander game, one or two, each named, not too long for the screen (as a player's
    name is refused), two different ones, and none removed that was already counted."""
    _check_commander_game(state, "life.no_commander_damage")
    player = check_seat(state, seat)
    names = tuple(tidy_commander(n) for n in commanders)
    if not 1 <= len(names) <= MAX_COMMANDERS:
        raise IllegalCommand("life.commander_count", count=len(names))
    if not all(names):
        raise IllegalCommand("life.commander_name")
    for name in names:
        check_fits(name, MAX_COMMANDER_NAME)
    if len({fold(n) for n in names}) < len(names):
        raise IllegalCommand("life.commander_twice", name=player.name, commander=names[0])
    for victim in state.players:
        for entry in victim.commander_damage:
            if entry.source == seat and entry.commander >= len(names):
                raise IllegalCommand(
                    "life.commander_in_use",
                    name=player.name,
                    commander=commander_word(player, entry.commander),
                )
    for index in range(len(names), len(player.commander_casts)):
        if player.casts(index):
            raise IllegalCommand(
                "life.commander_cast_in_use",
                name=player.name,
                commander=commander_word(player, index),
            )
    return names


@RULES.decides(NameCommanders)
def _name_commanders(state: GameState, command: NameCommanders, rng: Random) -> list[Event]:
    return [
        CommandersNamed(
            seat=command.seat, commanders=check_commanders(state, command.seat, command.commanders)
        )
    ]


@RULES.set_up
def _commanders_at_start(state: GameState, command: NewGame, rng: Random) -> list[Event]:
    """The commanders the set-up named (the kiosk's form), each seat's as ``commanders`` names
    them; in one step with the start, so one UNDO takes back both."""
    if len(command.commanders) > len(state.players):
        raise IllegalCommand(
            "life.commanders_seats", count=len(command.commanders), players=len(state.players)
        )
    return [
        CommandersNamed(seat=seat, commanders=check_commanders(state, seat, names))
        for seat, names in enumerate(command.commanders)
        if names
    ]


# --- commander tax (CR 903.8) -----------------------------------------------------------------


def commander_tax(player: Player, commander: int) -> int:
    """What casting ``commander`` from the command zone costs more now: {2} per earlier cast."""
    return TAX * player.casts(commander)


def which_commander(player: Player, commander: int | None, which: str) -> int:
    """The index of the player's commander a command means: ``commander``, or with None their one
    commander (a player with partners must say which: refused with text ``which``)."""
    names = commander_names(player)
    if commander is None:
        if len(names) > 1:
            raise IllegalCommand(
                which,
                name=player.name,
                count=len(names),
                commanders=listing(names, "text.and"),
                first=_short(names),
            )
        return 0
    if not 0 <= commander < len(names):
        words = [commander_word(player, i) for i in range(len(names))]
        raise IllegalCommand(
            "life.no_such_commander",
            name=player.name,
            index=commander,
            commanders=listing(words, "text.and"),
        )
    return commander


@RULES.decides(CastCommander)
def _cast_commander(state: GameState, command: CastCommander, rng: Random) -> list[Event]:
    _check_commander_game(state, "life.no_commander_tax")
    player = alive(state, command.seat)
    index = which_commander(player, command.commander, "life.which_cast")
    if command.amount == 0:
        raise IllegalCommand("life.zero")
    casts = player.casts(index)
    if casts + command.amount < 0:
        raise IllegalCommand(
            "life.casts_below",
            commander=commander_word(player, index),
            casts=casts,
            remove=-command.amount,
        )
    if casts + command.amount > MAX_CASTS:
        raise IllegalCommand("life.casts_range", limit=MAX_CASTS, casts=casts + command.amount)
    return [CommanderCast(seat=command.seat, commander=index, amount=command.amount)]


@RULES.applies(CommanderCast)
def _apply_cast(state: GameState, event: CommanderCast) -> GameState:
    player = state.player(event.seat)
    casts = list(player.commander_casts) + [0] * (event.commander + 1 - len(player.commander_casts))
    casts[event.commander] += event.amount
    return state.with_player(player.model_copy(update={"commander_casts": tuple(casts)}))


@RULES.describes(CommanderCast)
def _describe_cast(state: GameState, event: CommanderCast) -> Message:
    player = state.player(event.seat)
    before = commander_tax(player, event.commander)
    key = "life.cast" if event.amount > 0 else "life.cast_taken_back"
    return Message(
        key,
        commander=commander_word(player, event.commander),
        n=abs(event.amount),
        before=before,
        after=before + TAX * event.amount,
    )


@RULES.decides(Concede)
def _concede(state: GameState, command: Concede, rng: Random) -> list[Event]:
    _in_game(state, command.seat)  # any game, whatever it counts (LF-3)
    return [PlayerLost(seat=command.seat, reason=LossReason.CONCEDED)]


@RULES.decides(Lose)
def _lose(state: GameState, command: Lose, rng: Random) -> list[Event]:
    alive(state, command.seat)
    _check_source(state, command.source)
    return [PlayerLost(seat=command.seat, reason=LossReason.EFFECT, source=command.source)]


def _ledger(
    state: GameState, source: int | None, target: int, **deltas: int
) -> tuple[LedgerEntry, ...]:
    entries = list(state.ledger)
    for i, entry in enumerate(entries):
        if entry.source == source and entry.target == target:
            break
    else:
        entries.append(LedgerEntry(source=source, target=target))
        i = len(entries) - 1
    entry = entries[i]
    entries[i] = entry.model_copy(update={k: getattr(entry, k) + v for k, v in deltas.items()})
    return tuple(entries)


@RULES.applies(LifeChanged)
def _apply_life(state: GameState, event: LifeChanged) -> GameState:
    player = state.player(event.seat)
    if event.delta < 0:
        ledger = _ledger(state, event.source, event.seat, life_lost=-event.delta)
    else:
        ledger = _ledger(state, event.source, event.seat, life_gained=event.delta)
    changed = _shared(
        state.with_player(player.model_copy(update={"life": player.life + event.delta})),
        event.seat,
        "life",
    )
    return changed.model_copy(update={"ledger": ledger})


@RULES.describes(LifeChanged)
def _describe_life(state: GameState, event: LifeChanged) -> Message:
    player = state.player(event.seat)
    key = "life.changed_from" if event.source is not None else "life.changed"
    return Message(
        key,
        name=player.name,
        before=player.life,
        after=player.life + event.delta,
        source=_name(state, event.source),
    )


def _shared(state: GameState, seat: int, field: str) -> GameState:
    """TB-6 (810.9, 810.10): in Two-Headed Giant what happens to one player's life or poison is
    applied to the team's shared total, which each teammate shows."""
    if not teamed(state):
        return state
    mate = state.player(teammate(state, seat))
    return state.with_player(mate.model_copy(update={field: getattr(state.player(seat), field)}))


@RULES.applies(PoisonChanged)
def _apply_poison(state: GameState, event: PoisonChanged) -> GameState:
    player = state.player(event.seat)
    changed = _shared(
        state.with_player(player.model_copy(update={"poison": player.poison + event.delta})),
        event.seat,
        "poison",
    )
    return changed.model_copy(
        update={"ledger": _ledger(state, event.source, event.seat, poison=event.delta)}
    )


@RULES.describes(PoisonChanged)
def _describe_poison(state: GameState, event: PoisonChanged) -> Message:
    player = state.player(event.seat)
    key = "life.poison_from" if event.source is not None else "life.poison"
    return Message(
        key,
        name=player.name,
        before=player.poison,
        after=player.poison + event.delta,
        source=_name(state, event.source),
    )


@RULES.applies(CommanderDamageDealt)
def _apply_commander_damage(state: GameState, event: CommanderDamageDealt) -> GameState:
    player = state.player(event.seat)
    total = player.commander_damage_from(event.source, event.commander) + event.amount
    others = [
        e
        for e in player.commander_damage
        if (e.source, e.commander) != (event.source, event.commander)
    ]
    entries = sorted(
        [*others, CommanderDamage(source=event.source, commander=event.commander, amount=total)],
        key=lambda e: (e.source, e.commander),
    )
    return state.with_player(player.model_copy(update={"commander_damage": tuple(entries)}))


@RULES.describes(CommanderDamageDealt)
def _describe_commander_damage(state: GameState, event: CommanderDamageDealt) -> Message:
    player = state.player(event.seat)
    owner = state.player(event.source)
    hurt = team_of(state, event.seat) if teamed(state) else (event.seat,)  # TB-6: 21 to the team
    total = (
        sum(state.player(s).commander_damage_from(event.source, event.commander) for s in hurt)
        + event.amount
    )
    if not owner.commanders:
        return Message(
            "life.commander_damage_of",
            name=player.name,
            amount=event.amount,
            owner=owner.name,
            total=total,
        )
    return Message(
        "life.commander_damage",
        name=player.name,
        amount=event.amount,
        commander=owner.commanders[event.commander],
        total=total,
    )


@RULES.applies(CommandersNamed)
def _apply_commanders(state: GameState, event: CommandersNamed) -> GameState:
    return state.with_player(
        state.player(event.seat).model_copy(update={"commanders": event.commanders})
    )


@RULES.describes(CommandersNamed)
def _describe_commanders(state: GameState, event: CommandersNamed) -> Message:
    # "and", not a comma, between partners: a commander's name may have a comma in it.
    return Message(
        "life.commanders_named",
        name=state.player(event.seat).name,
        commanders=listing(event.commanders, "text.and"),
        n=len(event.commanders),
    )


@RULES.applies(PlayerLost)
def _apply_lost(state: GameState, event: PlayerLost) -> GameState:
    loss = Loss(reason=event.reason, source=event.source, turn=state.turn)
    return state.with_player(state.player(event.seat).model_copy(update={"lost": loss}))


@RULES.describes(PlayerLost)
def _describe_lost(state: GameState, event: PlayerLost) -> Message:
    team = "_team" if event.reason is LossReason.POISON and teamed(state) else ""
    return Message(f"life.lost.{event.reason.value}{team}", name=state.player(event.seat).name)


def loss_reason(player: Player, state: GameState | None = None) -> LossReason | None:
    """Why a player still in the game has lost by the numbers (LF-1), if they have; with
    ``state`` in Two-Headed Giant by the team's numbers (TB-6: 15 poison, 21 from one commander
    to the team)."""
    teams = state is not None and teamed(state)
    if player.life <= 0:
        return LossReason.LIFE
    if player.poison >= (TEAM_POISON_LIMIT if teams else POISON_LIMIT):
        return LossReason.POISON
    if state is not None and teams:
        team = [state.player(s) for s in team_of(state, player.seat)]
        sources = {(e.source, e.commander) for p in team for e in p.commander_damage}
        if any(
            sum(p.commander_damage_from(*source) for p in team) >= COMMANDER_LIMIT
            for source in sources
        ):
            return LossReason.COMMANDER
        return None
    if any(entry.amount >= COMMANDER_LIMIT for entry in player.commander_damage):
        return LossReason.COMMANDER
    return None


@RULES.state_check
def _losses(state: GameState, events: list[Event], rng: Random) -> list[Event]:
    """LF-1: a player at 0 life, 10 poison or 21 from one commander loses at once.

    The player responsible is the source of the last change that hurt them in this command.
    """
    lost: list[Event] = []
    for player in state.in_game():
        reason = loss_reason(player, state)
        if reason is None:
            continue
        source: int | None = None
        hurt = (
            team_of(state, player.seat) if teamed(state) else (player.seat,)
        )  # TB-6: what hurt the team
        for event in events:
            if (
                isinstance(event, CommanderDamageDealt | LifeChanged | PoisonChanged)
                and event.seat in hurt
            ):
                source = event.source
        lost.append(PlayerLost(seat=player.seat, reason=reason, source=source))
    return lost


def _name(state: GameState, seat: int | None) -> str:
    return state.player(seat).name if seat is not None else ""


def dealt(state: GameState) -> list[LedgerEntry]:
    """LF-2: who did how much to whom, over the whole game (sources first, then targets)."""
    return sorted(state.ledger, key=lambda e: (-1 if e.source is None else e.source, e.target))


def dealt_lines(state: GameState) -> list[Message]:
    """LF-2 in words, a line per source and target: "Bob → Alice: 7 life lost, 3 poison"."""
    lines = []
    for entry in dealt(state):
        parts: list[str | Message] = []
        if entry.life_lost:
            parts.append(Message("life.dealt.lost", n=entry.life_lost))
        if entry.life_gained:
            parts.append(Message("life.dealt.gained", n=entry.life_gained))
        if entry.poison:
            parts.append(Message("life.dealt.poison", n=entry.poison))
        if parts:
            source: str | Message = (
                Message("life.dealt.no_one")
                if entry.source is None
                else state.player(entry.source).name
            )
            lines.append(
                Message(
                    "life.dealt.line",
                    source=source,
                    target=state.player(entry.target).name,
                    parts=listing(parts, "text.list"),
                )
            )
    return lines


RULES.says(TEXTS)
