"""Console commands for Planechase (SPEC section 1): the die, planeswalking, phenomena, choices,
counters, planar decks, odds and the log of visited planes."""

from __future__ import annotations

from device.catalog import load_catalog
from device.console.core import CommandTable, Console, command, number
from device.errors import IllegalCommand
from device.formats import options_for
from device.rules.planechase.events import planechase
from device.rules.planechase import (
    PIP_OF,
    awaiting_prompt,
    chance_to_planeswalk,
    choice_prompt,
    cost_of_rolls,
    deck_label,
    next_roll_cost,
    odds,
    pip_label,
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
from device.text import register as register_texts

register_texts(
    {
        "console.pc.odds_count": "Say how many rolls, from 1 to 20; {text!r} given.",
        "console.pc.blank_d6": "A plain d6 has no blank side: say the number it showed, 2 to 5 are blanks.",
    }
)


def _names(args: list[str]) -> tuple[str, ...]:
    """Card names separated by commas: ``Tazeem, Academy at Tolaria West``; a printed name with
    commas in it is one name (PC-4)."""
    return load_catalog().planar().split(" ".join(args))


FACES = {**{face.value: pip for face, pip in PIP_OF.items()}, "pw": 6, "pl": 6, "ch": 1}


def _rolled(console: Console, args: list[str], name: str, free: bool) -> RollPlanarDie:
    """``[PLAYER] [FACE]``: FACE is what a table's own die showed (PC-1), a word or a number."""
    pip: int | None = None
    if args and (args[-1].casefold() in FACES or args[-1].isdigit()):
        word = args.pop().casefold()
        pip = int(word) if word.isdigit() else FACES[word]
        state = console.controller.state
        if word == "blank" and state is not None and state.planechase is not None and state.planechase.plain_d6:
            raise IllegalCommand("console.pc.blank_d6")
    if len(args) > 1:
        raise console.usage(name)
    return RollPlanarDie(seat=console.seat(args[0]) if args else None, free=free, pip=pip)


@command("roll", "roll [PLAYER] [FACE]", "Roll the planar die as the special action: the active player "
         "(Two-Headed Giant: a member of the active team; Grand Melee: a marker holder) in the main "
         "phase; the k-th roll in a turn costs k-1 (PC-2). A table rolling its own die says what it "
         "showed: planeswalk, chaos or blank, or 1 to 6 on a plain d6 (PC-1).")
def _roll(console: Console, args: list[str]) -> None:
    console.execute(_rolled(console, args, "roll", free=False))


@command("freeroll", "freeroll [PLAYER] [FACE]", "Roll the planar die because an effect says so (Fractured "
         "Powerstone): free, and the next special-action roll costs no more (PC-2). FACE as for 'roll'.")
def _freeroll(console: Console, args: list[str]) -> None:
    console.execute(_rolled(console, args, "freeroll", free=True))


@command("planeswalk", "planeswalk [DIRECTION]", "An effect says to planeswalk: the planar "
         "controller does (PC-6). On the Eternities Map, name the direction (PC-14).", ("pw",))
def _planeswalk(console: Console, args: list[str]) -> None:
    if len(args) > 1:
        raise console.usage("planeswalk")
    console.execute(Planeswalk(direction=args[0] if args else None))


@command("ack", "ack", "The phenomenon being encountered has resolved: planeswalk on (PC-7). "
         "NEXT and SELECT do the same.")
def _ack(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("ack")
    console.execute(AcknowledgePhenomenon())


@command("choose", "choose ANSWER[, ANSWER…]", "Answer the pending choice: the plane Interplanar "
         "Tunnel puts on top, 'top' or 'bottom' for Stairs to Infinity, the bottom order for Pools "
         "of Becoming, or a direction on the Eternities Map (PC-11, PC-14).")
def _choose(console: Console, args: list[str]) -> None:
    if not args:
        state = console.state
        console.say(choice_prompt(state))
        return
    console.execute(ChoosePlanar(answer=_names(args)))


@command("counters", "counters [PLANE] +N|-N", "Put counters on a face-up plane or remove them; they go "
         "away when the plane leaves (PC-11).")
def _counters(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("counters")
    name = " ".join(args[:-1]) or None
    console.execute(ChangePlaneCounters(name=name, delta=number(args[-1])))


@command("deck", "deck PLAYER|communal NAME, NAME…|set=CODE|all", "Set a planar deck before the first "
         "roll: list its cards, or build a random legal one from a set or from all cards; the gadget "
         "checks the limits and says what is wrong (PC-4, PC-12).")
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


@command("return", "return NAME", "A physical planar card was tapped by mistake: it goes back into its "
         "deck and the gadget waits for the right one (PC-12).")
def _return(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("return")
    console.execute(ReturnPlanarCard(name=load_catalog().planar().find(" ".join(args)).name))


@command("odds", "odds [K]", "The planar die's odds now, and for K rolls this turn: the chance of at "
         "least one planeswalk and the mana they cost (PC-13).")
def _odds(console: Console, args: list[str]) -> None:
    state = console.state
    rolls = 3
    if args:
        rolls = number(args[0])
        if not 1 <= rolls <= 20 or len(args) > 1:
            raise IllegalCommand("console.pc.odds_count", text=" ".join(args))
    now = odds(state)
    console.say(
        f"Next roll: planeswalk {now.planeswalk}, chaos {now.chaos}, blank {now.blank}"
        + (" (blanks count as chaos)." if planechase(state).chaos_blanks else ".")
    )
    seat = state.active
    first = next_roll_cost(state, seat)
    console.say(f"{state.player(seat).name}'s next roll costs {first}.")
    for k in range(1, rolls + 1):
        chance = chance_to_planeswalk(k)
        console.say(f"{k} roll(s): {float(chance):.1%} to planeswalk at least once, costing {cost_of_rolls(k, first)}.")


@command("planes", "planes", "Face-up planes with counters, what waits, deck sizes, the next roll's cost, "
         "and every plane visited and roll made this game (PC-13).")
def _planes(console: Console, args: list[str]) -> None:
    state = console.state
    pc = planechase(state)
    for card in pc.face_up:
        marks = f", {card.counters} counter(s)" if card.counters else ""
        console.say(f"Face up: {card.name} ({card.kind.value}{marks})")
    # Grand Melee: every turn marker's holder controls its own planes (901.14).
    controllers = [state.player(seat).name for seat in planar_controllers(state)]
    console.say(("Planar controllers: " if len(controllers) > 1 else "Planar controller: ") + ", ".join(controllers))
    if pc.encounter:
        console.say(f"Encountering {pc.encounter}: press NEXT (or 'ack') when it has resolved.")
    if pc.choice:
        console.say(f"Waiting for {state.player(pc.choice.seat).name} to {choice_prompt(state)}.")
    if pc.awaiting:
        console.say(awaiting_prompt(state))
    if pc.chaos_blanks:
        console.say("Blanks count as chaos until someone planeswalks away from a plane.")
    for deck in pc.decks:
        if deck.listed:
            console.say(f"{deck_label(state, deck.owner)}: {len(deck.cards)} card(s)")
        else:
            console.say(f"{deck_label(state, deck.owner)}: physical cards, not listed to the gadget")
    costs = ", ".join(f"{p.name} {next_roll_cost(state, p.seat)}" for p in state.in_game())
    console.say(f"Next roll costs: {costs}")
    if pc.visited:
        console.say("Visited: " + ", ".join(v.name for v in pc.visited))
    if pc.rolls:
        console.say("Rolls: " + ", ".join(_roll_text(state, i) for i in range(len(pc.rolls))))


def _roll_text(state: GameState, index: int) -> str:
    roll = planechase(state).rolls[index]
    counted = f"→{roll.result.value}" if roll.result != roll.face else ""
    paid = f" ({roll.cost})" if roll.special and roll.cost else "" if roll.special else " (effect)"
    return f"{state.player(roll.seat).name} {pip_label(state, roll)}{counted}{paid}"


@command("options", "options", "The table options of the game's modules, with their values (PC-1, PC-4, "
         "PC-9, PC-10, PC-12, PC-14).")
def _options(console: Console, args: list[str]) -> None:
    state = console.state
    for name, option in sorted(options_for(state.formats).items()):
        value = state.options.get(name, option.default)
        console.say(f"{name}={value}: {option.help}")


COMMANDS = CommandTable(
    (_roll, _freeroll, _planeswalk, _ack, _choose, _counters, _deck, _return, _odds, _planes, _options)
)
