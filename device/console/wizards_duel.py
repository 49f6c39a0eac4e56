"""Console commands for Wizard's Duel ("Pojedynek czarnoksiężnika", SPEC section 6).

Die faces and spell kinds may be typed in English or Polish, in full or by a unique start
(``f`` or ``o`` for fire / ogień, ``m`` for magic / magia); case and accents do not matter.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal, TypeVar

from device.console.core import CommandTable, Console, Usage, command, number
from device.errors import IllegalCommand
from device.text import Message, Text, fold, listing
from device.rules.wizards_duel.queries import duel_of, faces_text, spells_text
from device.rules.wizards_duel.commands import (
    CastSpell,
    DefenceKind,
    Defend,
    DefineSpellCard,
    DropOut,
    GatherMana,
    LearnSpell,
    PassCasting,
    PassIncantations,
    PaySpell,
    RollElementDice,
    SacrificePower,
    SetShieldDie,
)
from device.state import GameState
from device.rules.wizards_duel.state import (
    Face,
    Spell,
    SpellCard,
    SpellKind,
    Wizard,
    WizardsDuelState,
)

#: How the console words a message (``Console.text``), for the lines built here.
Words = Callable[[str | Message], str]

TEXTS: dict[str, Text] = {
    "wdc.bad_face": "{text!r} is not a die face: magic, fire, water, earth, air (or magia, ogień, woda, "
    "ziemia, powietrze).",
    "wdc.bad_kind": "{text!r} is not a kind of spell: offensive, area or healing (or atak, obszar, leczenie).",
    "wdc.bad_strength": "{text!r} is not a strength: a number, or for an area spell TARGET/OTHERS like 3/1.",
    "wdc.bad_slot": "{text!r} is not a market card number.",
    "wdc.show.round": "Round {round}, {phase}. Starting player: {starting}.",
    "wdc.show.phase1": "Turn {turn}{last}: waiting for {names}.",
    "wdc.show.last": " (the last roll)",
    "wdc.show.phase2": "Still incanting: {names}.",
    "wdc.show.phase3": "{name} to cast.",
    "wdc.show.attack": "{target} must answer {caster}'s {spell} ({kind} {strength}, {school}).",
    "wdc.show.market": "Market: cards {slots} face up; {deck} in the deck, {discard} discarded.",
    "wdc.show.player": "{mark} {name}: {magic} magic points; hand {hand}{rolled}, reserve {reserve}, "
    "mana pool {pool}{extra}",
    "wdc.show.rolled": " (rolled {faces})",
    "wdc.show.shield": "shield {faces}",
    "wdc.show.aside": "set aside {count}",
    "wdc.show.fatigue": "fatigue {count}",
    "wdc.show.used": "used {abilities}",
    "wdc.show.out": "out",
    "wdc.show.falling": "at 0: sacrifice or drop out",
    "wdc.show.untargetable": "untargetable this round",
    "wdc.show.card": "    {name}{level}{basic}: {spells}",
    "wdc.show.spell_state": "{spell} [{dice}{cast}]",
    "wdc.show.over": "Game over: {result}.",
}
TEXTS.update(
    {
        # the wizards view's own words
        "console.wd.phase4": "phase 4 (clean-up)",
        "console.wd.no_slots": "none",
        "console.wd.power_drain": "power drain",
        "console.wd.power_sacrifice": "power sacrifice",
        "console.wd.used": ", used",
        "console.wd.level": " (level {level})",
        "console.wd.learned": " (learned)",
        "console.wd.sideways": " (turned sideways)",
    }
)

_FACES = {
    "magic": Face.MAGIC,
    "magia": Face.MAGIC,
    "fire": Face.FIRE,
    "ogien": Face.FIRE,
    "water": Face.WATER,
    "woda": Face.WATER,
    "earth": Face.EARTH,
    "ziemia": Face.EARTH,
    "air": Face.AIR,
    "powietrze": Face.AIR,
}
_KINDS = {
    "offensive": SpellKind.OFFENSIVE,
    "attack": SpellKind.OFFENSIVE,
    "atak": SpellKind.OFFENSIVE,
    "ofensywny": SpellKind.OFFENSIVE,
    "area": SpellKind.AREA,
    "obszar": SpellKind.AREA,
    "obszarowy": SpellKind.AREA,
    "healing": SpellKind.HEALING,
    "heal": SpellKind.HEALING,
    "leczenie": SpellKind.HEALING,
    "leczacy": SpellKind.HEALING,
}


T = TypeVar("T")


def _lookup(table: dict[str, T], text: str) -> T | None:
    """The value a word or a unique start of one names, across the English and Polish words."""
    wanted = fold(text)
    if wanted in table:
        return table[wanted]
    found = {value for key, value in table.items() if wanted and key.startswith(wanted)}
    return found.pop() if len(found) == 1 else None


def parse_face(text: str) -> Face:
    face = _lookup(_FACES, text)
    if face is None:
        raise IllegalCommand("wdc.bad_face", text=text)
    return face


def parse_faces(words: list[str]) -> tuple[Face, ...]:
    return tuple(parse_face(word) for word in words)


def parse_spells(words: list[str], usage: str) -> tuple[Spell, ...]:
    """``KIND STRENGTH SCHOOL [+ KIND STRENGTH SCHOOL]``; an area spell's strength may be N/M."""
    groups: list[list[str]] = [[]]
    for word in words:
        if word == "+":
            groups.append([])
        else:
            groups[-1].append(word)
    spells = []
    for group in groups:
        if len(group) != 3:
            raise Usage("console.usage", usage=usage)
        kind = _lookup(_KINDS, group[0])
        if kind is None:
            raise IllegalCommand("wdc.bad_kind", text=group[0])
        match = re.fullmatch(r"(\d+)(?:/(\d+))?", group[1])
        if match is None:
            raise IllegalCommand("wdc.bad_strength", text=group[1])
        strength = int(match.group(1))
        others = (
            int(match.group(2))
            if match.group(2) is not None
            else (strength if kind is SpellKind.AREA else 0)
        )
        spells.append(
            Spell(kind=kind, strength=strength, school=parse_face(group[2]), others=others)
        )
    return tuple(spells)


def card_ref(text: str) -> tuple[str, int | None]:
    """``Name`` or ``Name/2``: a card and, on a two-spell card, which spell (0-based)."""
    match = re.fullmatch(r"(.+)/([12])", text)
    if match is None:
        return text, None
    return match.group(1), int(match.group(2)) - 1


def _level(args: list[str]) -> tuple[list[str], int | None]:
    rest, level = [], None
    for arg in args:
        if fold(arg).startswith("level="):
            level = number(arg.partition("=")[2])
        else:
            rest.append(arg)
    return rest, level


@command(
    "wizards",
    "wizards",
    "Wizard's Duel at a glance: round, phase, whose move, everyone's magic points, "
    "dice, shields and spell cards, the market (WD-1..WD-4).",
    ("wd",),
)
def _wizards(console: Console, args: list[str]) -> None:
    from device import game as rules

    state = console.state
    duel = duel_of(state)
    say = console.say
    text = console.text
    phase = (
        text(Message(f"wd.phase.{duel.phase}"))
        if duel.phase in (1, 2, 3)
        else text(Message("console.wd.phase4"))
    )
    say(
        text(
            Message(
                "wdc.show.round",
                round=duel.round,
                phase=phase,
                starting=state.player(duel.starting).name,
            )
        )
    )
    waiting = _waiting_line(state, duel, text)
    if waiting is not None:
        say(waiting)
    slots = " ".join(str(i + 1) for i, up in enumerate(duel.market) if up) or text(
        Message("console.wd.no_slots")
    )
    say(text(Message("wdc.show.market", slots=slots, deck=duel.deck, discard=duel.discard)))
    for wizard in duel.wizards:
        say(_wizard_line(state, duel, wizard, text))
        for card in wizard.cards:
            say(_card_line(card, text))
    ended = rules.describe_outcome(state)
    if ended is not None:
        say(Message("wdc.show.over", result=ended))


def _waiting_line(state: GameState, duel: WizardsDuelState, text: Words) -> str | None:
    """Whose move it is: the attack to answer, or who the phase waits for."""
    players = [w for w in duel.wizards if state.player(w.seat).in_game]
    if duel.attack is not None:
        attack = duel.attack
        attacking = duel.wizard(attack.caster).card(attack.card)
        return text(
            Message(
                "wdc.show.attack",
                target=state.player(attack.target).name,
                caster=state.player(attack.caster).name,
                spell=attacking.name,
                kind=attack.kind.value,
                strength=attack.strength,
                school=attack.school.value,
            )
        )
    if duel.phase == 1:
        names = listing([state.player(w.seat).name for w in players if not w.chosen], "text.list")
        last = text(Message("wdc.show.last")) if duel.last_roll else ""
        return text(Message("wdc.show.phase1", turn=duel.gather_turn, last=last, names=names))
    if duel.phase == 2:
        return text(
            Message(
                "wdc.show.phase2",
                names=listing(
                    [state.player(w.seat).name for w in players if not w.passed], "text.list"
                ),
            )
        )
    if duel.phase == 3 and duel.to_move is not None:
        return text(Message("wdc.show.phase3", name=state.player(duel.to_move).name))
    return None


def _wizard_line(state: GameState, duel: WizardsDuelState, wizard: Wizard, text: Words) -> str:
    """A wizard's magic points, dice and what else holds for them."""
    player = state.player(wizard.seat)
    extra = _wizard_marks(wizard, text)
    if not player.in_game:
        extra.append(text(Message("wdc.show.out")))
    elif wizard.falling:
        extra.append(text(Message("wdc.show.falling")))
    elif wizard.sacrificed_round == duel.round:
        extra.append(text(Message("wdc.show.untargetable")))
    mark = "*" if wizard.seat == (duel.to_move if duel.phase == 3 else duel.starting) else " "
    rolled = (
        text(Message("wdc.show.rolled", faces=faces_text(wizard.rolled))) if wizard.rolled else ""
    )
    return text(
        Message(
            "wdc.show.player",
            mark=mark,
            name=player.name,
            magic=wizard.magic,
            hand=wizard.hand,
            rolled=rolled,
            reserve=wizard.reserve,
            pool=faces_text(wizard.pool),
            extra="; " + "; ".join(extra) if extra else "",
        )
    )


def _wizard_marks(wizard: Wizard, text: Words) -> list[str]:
    """The shield, dice set aside, fatigue and powers used."""
    extra = []
    if wizard.shield:
        extra.append(text(Message("wdc.show.shield", faces=faces_text(wizard.shield))))
    if wizard.aside:
        extra.append(text(Message("wdc.show.aside", count=wizard.aside)))
    if wizard.fatigue:
        extra.append(text(Message("wdc.show.fatigue", count=wizard.fatigue)))
    used: list[str | Message] = [
        Message(key)
        for key, flag in (
            ("console.wd.power_drain", wizard.drain_used),
            ("console.wd.power_sacrifice", wizard.sacrifice_used),
        )
        if flag
    ]
    if used:
        extra.append(text(Message("wdc.show.used", abilities=listing(used, "text.list"))))
    return extra


def _card_line(card: SpellCard, text: Words) -> str:
    parts = []
    for spell in card.spells:
        said = text(spells_text([spell]))
        if spell.dice:
            said = text(
                Message(
                    "wdc.show.spell_state",
                    spell=said,
                    dice=faces_text(spell.dice),
                    cast=text(Message("console.wd.used")) if spell.cast else "",
                )
            )
        parts.append(said)
    level = text(Message("console.wd.level", level=card.level)) if card.level is not None else ""
    basic = ("" if card.basic else text(Message("console.wd.learned"))) + (
        text(Message("console.wd.sideways")) if card.turned else ""
    )
    return text(
        Message("wdc.show.card", name=card.name, level=level, basic=basic, spells=" + ".join(parts))
    )


@command(
    "dice",
    "dice [PLAYER [FACE…]]",
    "Phase 1: the gadget rolls the element dice of everyone who has not "
    "rolled yet (or of PLAYER); with FACEs, PLAYER rolled real dice and these are the faces (WD-2). "
    "The ROLL button does the same as 'dice'.",
)
def _dice(console: Console, args: list[str]) -> None:
    if not args:
        console.execute(RollElementDice())
        return
    seat = console.seat(args[0])
    faces = parse_faces(args[1:]) if len(args) > 1 else None
    console.execute(RollElementDice(seat=seat, faces=faces))


@command(
    "aside",
    "aside PLAYER [FACE…]",
    "Phase 1: PLAYER puts these rolled dice in the mana pool, takes the "
    "rest back and refills the hand to 5 from the reserve; with no FACE, takes all the dice back (WD-2).",
)
def _aside(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("aside")
    console.execute(GatherMana(seat=console.seat(args[0]), aside=parse_faces(args[1:])))


@command(
    "shield",
    "shield PLAYER FACE",
    "Phase 1, antimagic shield: PLAYER sets one rolled die on the board "
    "as a shield instead and takes the others back without refilling (WD-4).",
)
def _shield(console: Console, args: list[str]) -> None:
    if len(args) != 2:
        raise console.usage("shield")
    console.execute(SetShieldDie(seat=console.seat(args[0]), face=parse_face(args[1])))


@command(
    "spell",
    "spell PLAYER NAME KIND STRENGTH SCHOOL [+ KIND STRENGTH SCHOOL] [level=N]",
    "Describe one of PLAYER's 3 starting spell cards as printed: KIND offensive, area or healing; an area "
    "spell's STRENGTH may be TARGET/OTHERS; '+' adds the card's second spell.",
)
def _spell(console: Console, args: list[str]) -> None:
    usage = "spell PLAYER NAME KIND STRENGTH SCHOOL [+ KIND STRENGTH SCHOOL] [level=N]"
    rest, level = _level(args)
    if len(rest) < 5:
        raise console.usage("spell")
    console.execute(
        DefineSpellCard(
            seat=console.seat(rest[0]),
            name=rest[1],
            level=level,
            spells=parse_spells(rest[2:], usage),
        )
    )


@command(
    "play",
    "play PLAYER CARD[/N] FACE…",
    "Phase 2: PLAYER lays these mana-pool dice on a spell of CARD "
    "(/1 or /2 on a card with two spells); later, the card's other spell the same way (WD-2).",
)
def _play(console: Console, args: list[str]) -> None:
    if len(args) < 3:
        raise console.usage("play")
    name, spell = card_ref(args[1])
    console.execute(
        PaySpell(seat=console.seat(args[0]), card=name, spell=spell, dice=parse_faces(args[2:]))
    )


@command(
    "learn",
    "learn PLAYER SLOT NAME KIND STRENGTH SCHOOL [+ KIND STRENGTH SCHOOL] [level=N] with FACE…",
    "Phase 2: PLAYER learns market card SLOT, laying its full cost from the mana pool at once; name and "
    "describe the card as with 'spell'. One per round; first come, first served (WD-2).",
)
def _learn(console: Console, args: list[str]) -> None:
    usage = (
        "learn PLAYER SLOT NAME KIND STRENGTH SCHOOL [+ KIND STRENGTH SCHOOL] [level=N] with FACE…"
    )
    rest, level = _level(args)
    lowered = [fold(a) for a in rest]
    if "with" not in lowered:
        raise console.usage("learn")
    at = lowered.index("with")
    head, dice = rest[:at], rest[at + 1 :]
    if len(head) < 6:
        raise console.usage("learn")
    try:
        slot = int(head[1])
    except ValueError:
        raise IllegalCommand("wdc.bad_slot", text=head[1]) from None
    console.execute(
        LearnSpell(
            seat=console.seat(head[0]),
            slot=slot,
            name=head[2],
            level=level,
            spells=parse_spells(head[3:], usage),
            dice=parse_faces(dice),
        )
    )


@command(
    "ready",
    "ready [PLAYER]",
    "Phase 2: PLAYER has laid all the dice they want and passes; without "
    "PLAYER, everyone still incanting passes. When all have passed, casting begins (WD-2).",
)
def _ready(console: Console, args: list[str]) -> None:
    if len(args) > 1:
        raise console.usage("ready")
    console.execute(PassIncantations(seat=console.seat(args[0]) if args else None))


@command(
    "cast",
    "cast PLAYER CARD[/N] [at TARGET] [to pool|reserve]",
    "Phase 3, on PLAYER's turn: cast an activated spell; offensive and area spells name their TARGET, "
    "healing goes on the caster. With the chain reaction, 'to' says where returned dice go (default "
    "reserve) (WD-2, WD-4).",
)
def _cast(console: Console, args: list[str]) -> None:
    if len(args) < 2:
        raise console.usage("cast")
    seat = console.seat(args[0])
    name, spell = card_ref(args[1])
    rest = args[2:]
    target: int | None = None
    chain_to: Literal["reserve", "pool"] = "reserve"
    while rest:
        word = fold(rest[0])
        if word == "at" and len(rest) >= 2:
            target = console.seat(rest[1])
        elif word == "to" and len(rest) >= 2 and fold(rest[1]) in ("pool", "reserve"):
            chain_to = "reserve" if fold(rest[1]) == "reserve" else "pool"
        else:
            raise console.usage("cast")
        rest = rest[2:]
    console.execute(CastSpell(seat=seat, card=name, spell=spell, target=target, chain_to=chain_to))


@command(
    "defend",
    "defend PLAYER none|heal CARD[/N]|reserve N|counter FACE…|drain",
    "PLAYER answers the attack on them with one option: none; an unused healing spell weakens it; N "
    "reserve dice weaken it (set aside, 1 fatigue damage); counter with mana-pool dice as direct damage to "
    "the attacker; or the power drain (WD-2, WD-4). NEXT means none.",
)
def _defend(console: Console, args: list[str]) -> None:
    if len(args) < 2:
        raise console.usage("defend")
    seat = console.seat(args[0])
    how = fold(args[1])
    rest = args[2:]
    options: dict[str, DefenceKind] = {
        "none": "none",
        "heal": "heal",
        "reserve": "reserve",
        "counter": "counter",
        "drain": "drain",
    }
    kind = options.get(how)
    if kind is None:
        raise console.usage("defend")
    if kind in ("none", "drain"):
        if rest:
            raise console.usage("defend")
        console.execute(Defend(seat=seat, how=kind))
    elif kind == "heal":
        if len(rest) != 1:
            raise console.usage("defend")
        name, spell = card_ref(rest[0])
        console.execute(Defend(seat=seat, how="heal", card=name, spell=spell))
    elif kind == "reserve":
        if len(rest) != 1:
            raise console.usage("defend")
        console.execute(Defend(seat=seat, how="reserve", count=number(rest[0])))
    else:
        console.execute(Defend(seat=seat, how="counter", dice=parse_faces(rest)))


@command(
    "hold",
    "hold PLAYER",
    "Phase 3: PLAYER casts nothing this turn and is done casting this round; "
    "their spells can still defend (WD-2). NEXT does the same for whoever is to cast.",
)
def _hold(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("hold")
    console.execute(PassCasting(seat=console.seat(args[0])))


@command(
    "sacrifice",
    "sacrifice PLAYER CARD",
    "Power sacrifice, instead of dropping out: PLAYER discards a basic "
    "spell card not played this round and comes back with 10 magic points (once per game, WD-4).",
)
def _sacrifice(console: Console, args: list[str]) -> None:
    if len(args) != 2:
        raise console.usage("sacrifice")
    console.execute(SacrificePower(seat=console.seat(args[0]), card=args[1]))


@command(
    "dropout",
    "dropout PLAYER",
    "PLAYER, at 0 magic points, does not use the power sacrifice and drops out (WD-3, WD-4).",
)
def _dropout(console: Console, args: list[str]) -> None:
    if len(args) != 1:
        raise console.usage("dropout")
    console.execute(DropOut(seat=console.seat(args[0])))


COMMANDS = CommandTable(
    (
        _wizards,
        _dice,
        _aside,
        _shield,
        _spell,
        _play,
        _learn,
        _ready,
        _cast,
        _defend,
        _hold,
        _sacrifice,
        _dropout,
    ),
    texts="console.wd",
    english=TEXTS,
)
TEXTS.update(COMMANDS.help_texts())
