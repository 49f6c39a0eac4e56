"""What the screens, the console and the duel's own rules ask of a Wizard's Duel, as pure
functions of the ``GameState``: the duel and a wizard in it, who is still playing, the checks a
command makes before anything else (the phase, a falling player or an attack waiting), dice as a
multiset, a wizard's spell cards and how their spells are worded, and who may still cast."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from device.errors import IllegalCommand
from device.rules.table import check_seat
from device.rules.wizards_duel.state import Face, Spell, SpellCard, Wizard, WizardsDuelState
from device.state import GameState
from device.text import Message, fold

NAME = "wizards_duel"
HAND = 5  # WD-1: element dice in hand
BASIC_CARDS = 3  # each character's starting spell cards (the article)
MAX_STRENGTH = 99
MAX_CARD_NAME = 32


def duel_of(state: GameState) -> WizardsDuelState:
    if state.wizards_duel is None:
        raise IllegalCommand("wd.not_duel")
    return state.wizards_duel


def faces_text(faces: Iterable[Face]) -> Message:
    """Dice by face, as a message each language words its own way (a chain of face names)."""
    listed = list(faces)
    if not listed:
        return Message("wd.dice.none")
    text = Message(f"wd.face.{listed[-1].value}")
    for face in reversed(listed[:-1]):
        text = Message("wd.dice", first=Message(f"wd.face.{face.value}"), rest=text)
    return text


def option(state: GameState, name: str) -> bool:
    return bool(state.options.get(name, False))


def need_option(state: GameState, name: str) -> None:
    if not option(state, name):
        raise IllegalCommand("wd.option_off", option=name, label=Message(f"option.{name}"))


def in_game(state: GameState, seat: int) -> bool:
    return state.player(seat).in_game


def seat_names(state: GameState, seats: Iterable[int]) -> str:
    return ", ".join(state.player(seat).name for seat in seats)


def players_in(state: GameState) -> list[Wizard]:
    duel = duel_of(state)
    return [w for w in duel.wizards if in_game(state, w.seat)]


def playing_wizard(state: GameState, seat: int) -> Wizard:
    player = check_seat(state, seat)
    if not player.in_game:
        raise IllegalCommand("wd.out", name=player.name)
    return duel_of(state).wizard(seat)


def not_waiting(state: GameState) -> None:
    """Refuse while a falling player must decide or an attack waits for its defence."""
    falling = [w.seat for w in players_in(state) if w.falling]
    if falling:
        raise IllegalCommand("wd.falling_wait", names=seat_names(state, falling))
    attack = duel_of(state).attack
    if attack is not None:
        raise IllegalCommand(
            "wd.attack_wait",
            target=state.player(attack.target).name,
            caster=state.player(attack.caster).name,
            spell=duel_of(state).wizard(attack.caster).card(attack.card).name,
        )


def in_phase(state: GameState, phase: int, action: str) -> WizardsDuelState:
    duel = duel_of(state)
    not_waiting(state)
    if duel.phase != phase:
        raise IllegalCommand(
            "wd.wrong_phase",
            action=Message(f"wd.action.{action}"),
            needed=Message(f"wd.phase.{phase}"),
            phase=Message(f"wd.phase.{duel.phase}"),
        )
    return duel


def waiting_to_choose(state: GameState) -> list[int]:
    return [w.seat for w in players_in(state) if not w.chosen]


def take(have: Iterable[Face], want: Iterable[Face]) -> tuple[Face, ...] | None:
    """``have`` without ``want`` (as multisets), or None if ``want`` is not all there."""
    left = Counter(have)
    for face in want:
        if left[face] <= 0:
            return None
        left[face] -= 1
    return tuple(face for face in Face for _ in range(left[face]))


def sorted_faces(faces: Iterable[Face]) -> tuple[Face, ...]:
    order = list(Face)
    return tuple(sorted(faces, key=order.index))


def find_card(wizard: Wizard, name: str, owner: str) -> SpellCard:
    wanted = fold(name)
    exact = [c for c in wizard.cards if fold(c.name) == wanted]
    if exact:
        return exact[0]
    starts = [c for c in wizard.cards if wanted and fold(c.name).startswith(wanted)]
    if len(starts) == 1:
        return starts[0]
    if starts:
        raise IllegalCommand(
            "wd.ambiguous_card", card=name, matches=", ".join(c.name for c in starts)
        )
    raise IllegalCommand(
        "wd.no_card",
        name=owner,
        card=name,
        cards=", ".join(c.name for c in wizard.cards) or Message("wd.no_cards_yet"),
    )


def spell_index(card: SpellCard, number: int | None, usable: list[int]) -> int:
    """The spell a command means: the one given, or the only usable one."""
    if number is not None:
        if not 0 <= number < len(card.spells):
            raise IllegalCommand("wd.no_spell", card=card.name, number=number + 1)
        return number
    if len(card.spells) == 1:
        return 0
    if len(usable) == 1:
        return usable[0]
    raise IllegalCommand("wd.which_spell", card=card.name)


def check_pool(state: GameState, wizard: Wizard, dice: tuple[Face, ...]) -> None:
    if not dice:
        raise IllegalCommand("wd.no_dice")
    if take(wizard.pool, dice) is None:
        raise IllegalCommand(
            "wd.not_in_pool",
            name=state.player(wizard.seat).name,
            faces=faces_text(dice),
            pool=faces_text(sorted_faces(wizard.pool)),
        )


def spell_name(card: SpellCard, index: int) -> str | Message:
    """A spell by its card: the card's name, and which of its two spells when it has two."""
    return (
        card.name if len(card.spells) == 1 else Message("wd.spell_of", card=card.name, n=index + 1)
    )


def spell_text(spell: Spell) -> Message:
    return Message(
        f"wd.spell.{spell.kind.value}",
        strength=spell.strength,
        others=spell.others,
        school=Message(f"wd.face.{spell.school.value}"),
    )


def spells_text(spells: Iterable[Spell]) -> Message:
    parts = [spell_text(spell) for spell in spells]
    if len(parts) == 1:
        return parts[0]
    return Message(
        "wd.spells",
        first=parts[0],
        second=Message("wd.spells", first=parts[1], second=parts[2])
        if len(parts) > 2
        else parts[1],
    )


def basic_cards(wizard: Wizard) -> int:
    """Starting cards described (a sacrificed one still counts: it was one of the three)."""
    return sum(1 for card in wizard.cards if card.basic) + (1 if wizard.sacrifice_used else 0)


def untargetable(duel: WizardsDuelState, seat: int) -> bool:
    return duel.wizard(seat).sacrificed_round == duel.round


def may_cast(state: GameState, seat: int) -> bool:
    """Whether a player still takes casting turns this phase."""
    duel = duel_of(state)
    wizard = duel.wizard(seat)
    return (
        in_game(state, seat)
        and not wizard.passed
        and not untargetable(duel, seat)
        and any(spell.ready for card in wizard.cards for spell in card.spells)
    )
