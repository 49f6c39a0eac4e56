"""Console commands for Contraptions (SPEC section 2, CT-…).

Card names are matched loosely against the contraptions in the catalog (a unique start is
enough); lists of cards are separated by commas.  Whose contraption is meant, when two players
own one of the same name, is said with a trailing ``of PLAYER``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from device.catalog import load_catalog
from device.console.core import CommandTable, Console, card_text, command, number
from device.errors import IllegalCommand
from device.rules.contraptions.queries import contraptions, next_roll_cost
from device.rules.contraptions.commands import (
    AssembleContraption,
    CopyEnters,
    CrankContraptions,
    DeclineAssembly,
    ExileContraption,
    KeepLooked,
    PlaceContraption,
    ReassembleContraption,
    RollContraptionDie,
    ScrapContraption,
    SetContraptionDeck,
    UnexileContraption,
)
from device.rules.contraptions.view import UpkeepView, boards, library_lines, upkeep_view
from device.state import GameState
from device.rules.contraptions.state import ContraptionsState
from device.text import Message, Text, listing

TEXTS: dict[str, Text] = {
    # the contraptions view: the upkeep banner, the boards, the assembly and the zones
    "console.ct.upkeep": "{name}'s upkeep: CRANK! {moved_from} → {moved_to}.",
    "console.ct.die": "Contraption die: {faces}.",
    "console.ct.cranks": "Sprocket {sprocket} cranks: {cards}.",
    "console.ct.cranks_nothing": "Sprocket {sprocket} cranks: nothing.",
    "console.ct.cranked": "Cranked: {cards}.",
    "console.ct.shared": "Shared sprockets",
    "console.ct.counter": "{title}  (CRANK! on {sprocket})",
    "console.ct.sprocket": "  {sprocket}: {cards}",
    "console.ct.looking": "Looking at: {cards}.",
    "console.ct.waiting": "Waiting for a sprocket: {card} (highlighted: {highlight}).",
    "console.ct.copy": "{card} (copy)",
    "console.ct.scrapyard": "{name}'s scrapyard: {cards}",
    "console.ct.exiled": "{name}'s exiled contraptions: {cards}",
    "console.ct.next_roll": "Next assembly roll: {{{cost}}}.",
}


def card_name(text: str) -> str:
    """The contraption ``text`` names (planes are not considered, so "tazeem" is refused)."""
    return load_catalog().contraptions().find(card_text(text)).name


def card_names(words: list[str]) -> tuple[str, ...]:
    """Contraptions separated by commas; a printed name with commas in it is one name (CT-1)."""
    return tuple(card_name(part) for part in load_catalog().contraptions().split(" ".join(words)))


def _owner(console: Console, args: list[str]) -> tuple[list[str], int | None]:
    """Split a trailing ``of PLAYER`` off the arguments."""
    lowered = [a.casefold() for a in args]
    if len(args) >= 2 and lowered[-2] == "of":
        return args[:-2], console.seat(args[-1])
    return args, None


def _keywords(
    console: Console, args: list[str], allowed: set[str], name: str
) -> tuple[list[str], dict[str, int]]:
    rest: list[str] = []
    values: dict[str, int] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep:
            if key.casefold() not in allowed:
                raise console.usage(name)
            values[key.casefold()] = number(value)
        else:
            rest.append(arg)
    return rest, values


@command(
    "cdeck",
    "cdeck PLAYER CARD, CARD, …",
    "Set PLAYER's own contraption deck (base rules): at least 15 contraptions, no name twice (CT-1). "
    "Virtual decks are shuffled by the gadget.",
)
def _cdeck(console: Console, args: list[str]) -> None:
    if len(args) < 2:
        raise console.usage("cdeck")
    console.execute(SetContraptionDeck(seat=console.seat(args[0]), cards=card_names(args[1:])))


@command(
    "cdie",
    "cdie",
    "Roll the contraption die: the upkeep die in variants A and B (also ROLL), a paid assembly roll "
    "in variant C's main phase (CT-A2, CT-B2, CT-C2).",
)
def _cdie(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("cdie")
    console.execute(RollContraptionDie())


@command(
    "assemble",
    "assemble [PLAYER] [sprocket=N] [library=N]",
    "Assemble a contraption (CT-3): finishes what the die asked for, or a card said 'assemble'. "
    "library= is the faction library 1–5 in variant A; sprocket= places the card at once.",
)
def _assemble(console: Console, args: list[str]) -> None:
    rest, values = _keywords(console, args, {"sprocket", "library"}, "assemble")
    if len(rest) > 1:
        raise console.usage("assemble")
    seat = console.seat(rest[0]) if rest else None
    console.execute(
        AssembleContraption(
            seat=seat, sprocket=values.get("sprocket"), library=values.get("library")
        )
    )


@command(
    "sprocket",
    "sprocket [N]",
    "Put the revealed or tapped contraption onto sprocket N (without N: the highlighted one, as SELECT does).",
)
def _sprocket(console: Console, args: list[str]) -> None:
    if len(args) > 1:
        raise console.usage("sprocket")
    console.execute(PlaceContraption(sprocket=number(args[0]) if args else None))


@command(
    "decline",
    "decline [CARD]",
    "Do not assemble: in variant A the card goes to the bottom of its library (or the scrapyard, by "
    "table option); name the card when it is a physical one (CT-A2).",
)
def _decline(console: Console, args: list[str]) -> None:
    console.execute(DeclineAssembly(card=card_name(" ".join(args)) if args else None))


@command(
    "keep",
    "keep SPROCKET CARD [top CARD, CARD, …]",
    "Variant C: of the cards looked at, assemble CARD onto SPROCKET; those after 'top' go back on top "
    "in that order (top first), the rest to the bottom (CT-C2).",
)
def _keep(console: Console, args: list[str]) -> None:
    if len(args) < 2:
        raise console.usage("keep")
    sprocket = number(args[0])
    words = args[1:]
    lowered = [w.casefold() for w in words]
    top: tuple[str, ...] = ()
    if "top" in lowered:
        at = lowered.index("top")
        top = card_names(words[at + 1 :])
        words = words[:at]
    if not words:
        raise console.usage("keep")
    console.execute(KeepLooked(card=card_name(" ".join(words)), sprocket=sprocket, top=top))


@command(
    "crank",
    "crank CARD, CARD, …|none",
    "Crank these contraptions on the sprocket the CRANK! counter is on, in this order; their "
    "abilities trigger in that order (CT-4).",
)
def _crank(console: Console, args: list[str]) -> None:
    if not args:
        raise console.usage("crank")
    if len(args) == 1 and args[0].casefold() == "none":
        console.execute(CrankContraptions(cards=()))
        return
    console.execute(CrankContraptions(cards=card_names(args)))


@command(
    "scrap",
    "scrap [CARD] [of PLAYER]",
    "An assembled contraption leaves the battlefield (destroyed, sacrificed, bounced…): it goes to its "
    "owner's scrapyard (CT-5). Without CARD: the one last tapped.",
)
def _scrap(console: Console, args: list[str]) -> None:
    rest, owner = _owner(console, args)
    console.execute(ScrapContraption(card=card_name(" ".join(rest)) if rest else None, owner=owner))


@command(
    "exile",
    "exile [CARD] [of PLAYER]",
    "An assembled contraption is exiled (the one zone other than the scrapyard, CT-5).",
)
def _exile(console: Console, args: list[str]) -> None:
    rest, owner = _owner(console, args)
    console.execute(ExileContraption(card=card_name(" ".join(rest)) if rest else None, owner=owner))


@command(
    "reassemble",
    "reassemble SPROCKET [CARD] [of PLAYER]",
    "Move an assembled contraption onto another sprocket. Without CARD: the one last tapped.",
)
def _reassemble(console: Console, args: list[str]) -> None:
    rest, owner = _owner(console, args)
    if not rest:
        raise console.usage("reassemble")
    card = card_name(" ".join(rest[1:])) if rest[1:] else None
    console.execute(ReassembleContraption(sprocket=number(rest[0]), card=card, owner=owner))


@command(
    "unexile",
    "unexile CARD [of PLAYER]",
    "An exiled contraption returns to the battlefield without being assembled: it goes to the scrapyard (CT-5).",
)
def _unexile(console: Console, args: list[str]) -> None:
    rest, owner = _owner(console, args)
    if not rest:
        raise console.usage("unexile")
    console.execute(UnexileContraption(card=card_name(" ".join(rest)), owner=owner))


@command(
    "copy",
    "copy PLAYER CARD",
    "A copy of a contraption enters under PLAYER's control without being assembled: it goes to their scrapyard (CT-5).",
)
def _copy(console: Console, args: list[str]) -> None:
    if len(args) < 2:
        raise console.usage("copy")
    console.execute(CopyEnters(owner=console.seat(args[0]), card=card_name(" ".join(args[1:]))))


@command(
    "contraptions",
    "contraptions",
    "The contraptions at a glance: the upkeep banner, every sprocket and CRANK! counter, the libraries, "
    "scrapyards and exile (CT-7).",
    ("ct",),
)
def _contraptions(console: Console, args: list[str]) -> None:
    if args:
        raise console.usage("contraptions")
    state = console.state
    view = upkeep_view(state)
    if view is None:  # the game has no Contraptions
        raise IllegalCommand("ct.not_in_game")
    lines: list[str | Message] = [*_upkeep_lines(view, console.text), *_board_lines(state)]
    # A library's line may start with its name's article ("the shared contraption deck").
    lines += [_capitalised(console.text(line)) for line in library_lines(state)]
    lines += _zone_lines(state, contraptions(state))
    cost = next_roll_cost(state)
    if cost is not None:
        lines.append(Message("console.ct.next_roll", cost=cost))
    for line in lines:
        console.say(line)


def _cards(cards: Sequence[str | Message]) -> str | Message:
    """Card names separated by commas (in Japanese by 、)."""
    return listing(cards, "text.list")


def _upkeep_lines(view: UpkeepView, text: Callable[[Message], str]) -> list[str | Message]:
    """The upkeep banner: where CRANK! moved, the die, what cranks, and what needs doing."""
    lines: list[str | Message] = []
    if view.moved_to is not None:
        lines.append(
            Message(
                "console.ct.upkeep",
                name=view.name,
                moved_from=view.moved_from,
                moved_to=view.moved_to,
            )
        )
    if view.faces:
        lines.append(Message("console.ct.die", faces=_cards([str(f) for f in view.faces])))
    if view.sprocket is not None:
        if view.cranking:
            lines.append(
                Message("console.ct.cranks", sprocket=view.sprocket, cards=_cards(view.cranking))
            )
        else:
            lines.append(Message("console.ct.cranks_nothing", sprocket=view.sprocket))
    if view.cranked:
        lines.append(Message("console.ct.cranked", cards=_cards(view.cranked)))
    return lines + [f"! {text(item)}" for item in view.banner]


def _board_lines(state: GameState) -> list[str | Message]:
    """Each player's sprockets and CRANK! counter."""
    lines: list[str | Message] = []
    for board in boards(state):
        title: str | Message = Message("console.ct.shared") if board.seat is None else board.title
        lines.append(
            title
            if board.counter is None
            else Message("console.ct.counter", title=title, sprocket=board.counter)
        )
        lines += [
            Message("console.ct.sprocket", sprocket=sprocket, cards=_cards(cards) if cards else "—")
            for sprocket, cards in enumerate(board.sprockets, start=1)
        ]
    return lines


def _zone_lines(state: GameState, ct: ContraptionsState) -> list[str | Message]:
    """The assembly under way, then each player's scrapyard and exiled contraptions."""
    lines: list[str | Message] = []
    job = ct.assembly
    if job is not None and job.looking:
        lines.append(Message("console.ct.looking", cards=_cards(job.looking)))
    if job is not None and job.card is not None:
        lines.append(Message("console.ct.waiting", card=job.card, highlight=job.highlight))
    for player in state.players:
        scrapped = [
            Message("console.ct.copy", card=g.card) if g.is_copy else g.card
            for g in ct.scrapyard
            if g.owner == player.seat
        ]
        exiled = [g.card for g in ct.exile if g.owner == player.seat]
        if scrapped:
            lines.append(Message("console.ct.scrapyard", name=player.name, cards=_cards(scrapped)))
        if exiled:
            lines.append(Message("console.ct.exiled", name=player.name, cards=_cards(exiled)))
    return lines


COMMANDS = CommandTable(
    (
        _cdeck,
        _cdie,
        _assemble,
        _sprocket,
        _decline,
        _keep,
        _crank,
        _scrap,
        _exile,
        _reassemble,
        _unexile,
        _copy,
        _contraptions,
    ),
    texts="console.ct",
    english=TEXTS,
)
TEXTS.update(COMMANDS.help_texts())


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
