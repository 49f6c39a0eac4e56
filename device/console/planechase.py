"""Console commands for Planechase (SPEC section 1): the die, planeswalking, phenomena, choices,
counters, planar decks, odds and the log of visited planes."""

from __future__ import annotations

from device.catalog import load_catalog
from device.console.core import CommandTable, Console, card_text, command, number
from device.errors import IllegalCommand
from device.rules.planechase.events import planechase
from device.rules.planechase.die import PIP_OF, pip_label
from device.rules.planechase.queries import (
    awaiting_prompt,
    chance_to_planeswalk,
    choice_prompt,
    cost_of_rolls,
    deck_label,
    next_roll_cost,
    odds,
    planar_controllers,
)
from device.rules.planechase.commands import (
    AcknowledgePhenomenon,
    ChangePlaneCounters,
    ChoosePlanar,
    Planeswalk,
    ReturnPlanarCard,
    RollPlanarDie,
    SetPlanarDeck,
)
from device.state import GameState
from device.rules.planechase.state import DieFace
from device.text import Message, Plural, Text, listing
from device.rules.registry import options_for

TEXTS: dict[str, Text] = {
    "console.pc.odds_count": "Say how many rolls, from 1 to 20; {text!r} given.",
    "console.pc.blank_d6": "A plain d6 has no blank side: say the number it showed, 2 to 5 are blanks.",
    # odds
    "console.pc.odds_now": "Next roll: planeswalk {planeswalk}, chaos {chaos}, blank {blank}.",
    "console.pc.odds_now_chaos": "Next roll: planeswalk {planeswalk}, chaos {chaos}, blank {blank} "
    "(blanks count as chaos).",
    "console.pc.roll_costs": "{name}'s next roll costs {cost}.",
    "console.pc.odds": Plural(
        "{k} roll(s): {chance} to planeswalk at least once, costing {cost}.",
        "{k} roll(s): {chance} to planeswalk at least once, costing {cost}.",
        "k",
    ),
    # planes
    "console.pc.face_up": "Face up: {name} ({kind})",
    "console.pc.face_up_counters": Plural(
        "Face up: {name} ({kind}, {n} counter(s))", "Face up: {name} ({kind}, {n} counter(s))"
    ),
    "console.pc.controller": "Planar controller: {names}",
    "console.pc.controllers": "Planar controllers: {names}",
    "console.pc.encountering": "Encountering {name}: press NEXT (or 'ack') when it has resolved.",
    "console.pc.waiting": "Waiting for {name} to {choice}.",
    "console.pc.blanks_chaos": "Blanks count as chaos until someone planeswalks away from a plane.",
    "console.pc.deck": Plural("{deck}: {n} card(s)", "{deck}: {n} card(s)"),
    "console.pc.physical": "{deck}: physical cards, not listed to the gadget",
    "console.pc.costs": "Next roll costs: {costs}",
    "console.pc.cost": "{name} {cost}",
    "console.pc.visited": "Visited: {names}",
    "console.pc.rolls": "Rolls: {rolls}",
    "console.pc.roll": "{name} {face}",
    "console.pc.roll_counted": "{name} {face}→{result}",
    "console.pc.roll_paid": "{roll} ({cost})",
    "console.pc.roll_effect": "{roll} (effect)",
    "console.pc.face.planeswalk": "planeswalk",
    "console.pc.face.chaos": "chaos",
    "console.pc.face.blank": "blank",
}


def _names(args: list[str]) -> tuple[str, ...]:
    """Card names separated by commas: ``Tazeem, Academy at Tolaria West``; a printed name with
    commas in it is one name (PC-4)."""
    return tuple(card_text(name) for name in load_catalog().planar().split(" ".join(args)))


FACES = {**{face.value: pip for face, pip in PIP_OF.items()}, "pw": 6, "pl": 6, "ch": 1}


def _rolled(console: Console, args: list[str], name: str, free: bool) -> RollPlanarDie:
    """``[PLAYER] [FACE]``: FACE is what a table's own die showed (PC-1), a word or a number."""
    pip: int | None = None
    if args and (args[-1].casefold() in FACES or args[-1].isdigit()):
        word = args.pop().casefold()
        pip = int(word) if word.isdigit() else FACES[word]
        state = console.controller.state
        if (
            word == "blank"
            and state is not None
            and state.planechase is not None
            and state.planechase.plain_d6
        ):
            raise IllegalCommand("console.pc.blank_d6")
    if len(args) > 1:
        raise console.usage(name)
    return RollPlanarDie(seat=console.seat(args[0]) if args else None, free=free, pip=pip)


@command(
    "roll",
    "roll [PLAYER] [FACE]",
    "Roll the planar die as the special action: the active player "
    "(Two-Headed Giant: a member of the active team; Grand Melee: a marker holder) in the main "
    "phase; the k-th roll in a turn costs k-1 (PC-2). A table rolling its own die says what it "
    "showed: planeswalk, chaos or blank, or 1 to 6 on a plain d6 (PC-1).",
)
def _roll(console: Console, args: list[str]) -> None:
    console.execute(_rolled(console, args, "roll", free=False))


@command(
    "freeroll",
    "freeroll [PLAYER] [FACE]",
    "Roll the planar die because an effect says so (Fractured "
    "Powerstone): free, and the next special-action roll costs no more (PC-2). FACE as for 'roll'.",
)
def _freeroll(console: Console, args: list[str]) -> None:
    console.execute(_rolled(console, args, "freeroll", free=True))


@command(
    "planeswalk",
    "planeswalk [DIRECTION]",
    "An effect says to planeswalk: the planar "
    "controller does (PC-6). On the Eternities Map, name the direction (PC-14).",
    ("pw",),
)
def _planeswalk(console: Console, args: list[str]) -> None:
    if len(args) > 1:
        raise console.usage("planeswalk")
    console.execute(Planeswalk(direction=args[0] if args else None))


@command(
    "ack",
    "ack",
    "The phenomenon being encountered has resolved: planeswalk on (PC-7). "
    "NEXT and SELECT do the same.",
)
def _ack(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("ack")
    console.execute(AcknowledgePhenomenon())


@command(
    "choose",
    "choose ANSWER[, ANSWER…]",
    "Answer the pending choice: the plane Interplanar "
    "Tunnel puts on top, 'top' or 'bottom' for Stairs to Infinity, the bottom order for Pools "
    "of Becoming, or a direction on the Eternities Map (PC-11, PC-14).",
)
def _choose(console: Console, args: list[str]) -> None:
    if not args:
        state = console.state
        console.say(choice_prompt(state))
        return
    console.execute(ChoosePlanar(answer=_names(args)))


@command(
    "counters",
    "counters [PLANE] +N|-N",
    "Put counters on a face-up plane or remove them; they go away when the plane leaves (PC-11).",
)
def _counters(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("counters")
    name = card_text(" ".join(args[:-1])) or None
    console.execute(ChangePlaneCounters(name=name, delta=number(args[-1])))


@command(
    "deck",
    "deck PLAYER|communal NAME, NAME…|set=CODE|all",
    "Set a planar deck before the first "
    "roll: list its cards, or build a random legal one from a set or from all cards; the gadget "
    "checks the limits and says what is wrong (PC-4, PC-12).",
)
def _deck(console: Console, args: list[str]) -> None:
    if len(args) < 2:
        raise console.usage("deck")
    owner = None if args[0].casefold() == "communal" else console.seat(args[0])
    rest = args[1:]
    if len(rest) == 1 and (rest[0].casefold() == "all" or rest[0].casefold().startswith("set=")):
        source = rest[0].partition("=")[2] if "=" in rest[0] else "all"
        console.execute(SetPlanarDeck(owner=owner, source=source))
        return
    console.execute(SetPlanarDeck(owner=owner, names=_names(rest)))


@command(
    "return",
    "return NAME",
    "A physical planar card was tapped by mistake: it goes back into its "
    "deck and the gadget waits for the right one (PC-12).",
)
def _return(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("return")
    console.execute(
        ReturnPlanarCard(name=load_catalog().planar().find(card_text(" ".join(args))).name)
    )


@command(
    "odds",
    "odds [K]",
    "The planar die's odds now, and for K rolls this turn: the chance of at "
    "least one planeswalk and the mana they cost (PC-13).",
)
def _odds(console: Console, args: list[str]) -> None:
    state = console.state
    rolls = 3
    if args:
        rolls = number(args[0])
        if not 1 <= rolls <= 20 or len(args) > 1:
            raise IllegalCommand("console.pc.odds_count", text=" ".join(args))
    now = odds(state)
    key = "console.pc.odds_now_chaos" if planechase(state).chaos_blanks else "console.pc.odds_now"
    console.say(Message(key, planeswalk=now.planeswalk, chaos=now.chaos, blank=now.blank))
    seat = state.active
    first = next_roll_cost(state, seat)
    console.say(Message("console.pc.roll_costs", name=state.player(seat).name, cost=first))
    for k in range(1, rolls + 1):
        chance = chance_to_planeswalk(k)
        console.say(
            Message(
                "console.pc.odds", k=k, chance=f"{float(chance):.1%}", cost=cost_of_rolls(k, first)
            )
        )


@command(
    "planes",
    "planes",
    "Face-up planes with counters, what waits, deck sizes, the next roll's cost, "
    "and every plane visited and roll made this game (PC-13).",
)
def _planes(console: Console, args: list[str]) -> None:
    state = console.state
    pc = planechase(state)
    for card in pc.face_up:
        kind = Message(f"catalog.kind.{card.kind.value}")
        if card.counters:
            console.say(
                Message("console.pc.face_up_counters", name=card.name, kind=kind, n=card.counters)
            )
        else:
            console.say(Message("console.pc.face_up", name=card.name, kind=kind))
    # Grand Melee: every turn marker's holder controls its own planes (901.14).
    controllers = [state.player(seat).name for seat in planar_controllers(state)]
    key = "console.pc.controllers" if len(controllers) > 1 else "console.pc.controller"
    console.say(Message(key, names=listing(controllers, "text.list")))
    if pc.encounter:
        console.say(Message("console.pc.encountering", name=pc.encounter))
    if pc.choice:
        console.say(
            Message(
                "console.pc.waiting",
                name=state.player(pc.choice.seat).name,
                choice=choice_prompt(state),
            )
        )
    if pc.awaiting:
        console.say(awaiting_prompt(state))
    if pc.chaos_blanks:
        console.say(Message("console.pc.blanks_chaos"))
    for deck in pc.decks:
        if deck.listed:
            console.say(
                Message("console.pc.deck", deck=deck_label(state, deck.owner), n=len(deck.cards))
            )
        else:
            console.say(Message("console.pc.physical", deck=deck_label(state, deck.owner)))
    costs = [
        Message("console.pc.cost", name=p.name, cost=next_roll_cost(state, p.seat))
        for p in state.in_game()
    ]
    console.say(Message("console.pc.costs", costs=listing(costs, "text.list")))
    if pc.visited:
        console.say(
            Message("console.pc.visited", names=listing([v.name for v in pc.visited], "text.list"))
        )
    if pc.rolls:
        console.say(
            Message(
                "console.pc.rolls",
                rolls=listing([_roll_text(state, i) for i in range(len(pc.rolls))], "text.list"),
            )
        )


def _roll_text(state: GameState, index: int) -> Message:
    roll = planechase(state).rolls[index]
    label = pip_label(state, roll)
    face: str | Message = (
        Message("console.pc.face.blank")
        if roll.face is DieFace.BLANK and label == "blank"
        else label
    )
    said = Message("console.pc.roll", name=state.player(roll.seat).name, face=face)
    if roll.result != roll.face:
        said = Message(
            "console.pc.roll_counted",
            name=state.player(roll.seat).name,
            face=face,
            result=Message(f"console.pc.face.{roll.result.value}"),
        )
    if not roll.special:
        return Message("console.pc.roll_effect", roll=said)
    return Message("console.pc.roll_paid", roll=said, cost=roll.cost) if roll.cost else said


@command(
    "options",
    "options",
    "The table options of the game's modules, with their values (PC-1, PC-4, "
    "PC-9, PC-10, PC-12, PC-14).",
)
def _options(console: Console, args: list[str]) -> None:
    state = console.state
    for name, option in sorted(options_for(state.formats).items()):
        value = state.options.get(name, option.default)
        console.say(f"{name}={value}: {option.help}")


COMMANDS = CommandTable(
    (
        _roll,
        _freeroll,
        _planeswalk,
        _ack,
        _choose,
        _counters,
        _deck,
        _return,
        _odds,
        _planes,
        _options,
    ),
    texts="console.pc",
    english=TEXTS,
)
TEXTS.update(COMMANDS.help_texts())
