"""Wizard's Duel spell cards on the kiosk (SPEC section 6, WD-1, WD-2): each player's starting
cards described before the rolls, and a market card learned in phase 2 with the mana-pool dice
that pay it — with the gadget's keys or by touch alone, the texts drawn in Polish, and the rules'
refusals on the status line.  The form's screenshots are scene wd_card in test_screenshots.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from device.commands import NewGame
from device.inputs import Button
from device.rules.wizards_duel.commands import GatherMana
from device.rules.wizards_duel.state import Face, Spell, SpellKind
from device.rules.wizards_duel.state import WizardsDuelState
from display.kiosk import Kiosk
from display.screens.wizards_duel import DuelChip
from display.screens.wizards_duel_card import CardRow, CardStep
from display.ui import Press
from scenes import duel_cards
from test_e2e import Player

MakeKiosk = Callable[..., Kiosk]
DESCRIBE = "Opiszcie swoje początkowe karty zaklęć (po 3), zanim rzucicie"


def duel(k: Kiosk, players: tuple[str, ...] = ("Ala", "Ola"), **options: str) -> None:
    k.execute(
        NewGame(formats=("wizards_duel",), players=players, first=players[0], options=options)
    )
    k.ui.said = []  # the opening message read: the status line is one line again


def describe_by_keys(p: Player, moves: int = 0) -> None:
    """Phase 1, before the rolls: the player ``moves`` chips along describes Kula ognia (level 0,
    offensive 6, fire) and then Źródło życia (healing 3, water), with the keys."""
    p.keys(*[pygame.K_UP] * moves, pygame.K_TAB)
    p.keys(text="Kula ognia")
    p.keys(pygame.K_RETURN, pygame.K_UP)  # to the level: 0
    p.keys(
        pygame.K_TAB, pygame.K_TAB, pygame.K_UP, pygame.K_UP, pygame.K_UP
    )  # past the kind: strength 6
    p.keys(pygame.K_TAB, pygame.K_UP)  # school: fire
    p.keys(pygame.K_RETURN)
    p.keys(*[pygame.K_UP] * moves, pygame.K_TAB)
    p.keys(text="Źródło życia")
    p.keys(pygame.K_RETURN, pygame.K_TAB, pygame.K_UP, pygame.K_UP)  # past the level, kind: healing
    p.keys(pygame.K_TAB, pygame.K_TAB, pygame.K_UP, pygame.K_UP)  # strength 3 stays; school: water
    p.keys(pygame.K_RETURN)


def to_incantations(k: Kiosk) -> None:
    """Phase 1 the quick way: everything into the pool twice, then the last roll."""
    for _ in range(2):
        k.dispatch(Press(Button.NEXT))
        for seat in range(len(k.state.players)):  # type: ignore[union-attr]
            k.execute(GatherMana(seat=seat, aside=k.state.wizards_duel.wizard(seat).rolled))  # type: ignore[union-attr,arg-type]
    k.dispatch(Press(Button.NEXT))


def market_chip(k: Kiosk, seat: int) -> int:
    """Where the market chip is: after the player, the pool dice and the unpaid spells."""
    wizard = k.state.part(WizardsDuelState).wizard(seat)
    unpaid = sum(1 for card in wizard.cards for spell in card.spells if not spell.dice)
    return 1 + len(wizard.pool) + unpaid


def test_wd1_a_card_with_two_spells_and_a_level_described_with_the_keys(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """WD-1: before the first roll the table offers each player's starting cards; SELECT opens
    the form, the keyboard types the name, Enter moves off the name row, ↑/↓ change a row, Tab
    moves on, Enter saves the card (DefineSpellCard) and the table says so in Polish; UNDO takes
    the card back and Y describes it again."""
    k = make_kiosk((800, 480), "pl", screenshots=tmp_path / "shots")
    duel(k)
    p = Player(k)
    assert p.says("wd.ask") == [DESCRIBE]
    assert p.says("wd.chip") == ["Ala: nowa karta (0/3)", "Ola: nowa karta (0/3)"]
    assert p.says("wd.next") == ["DALEJ: rzut za: Ala, Ola"]

    p.keys(pygame.K_TAB)
    assert k.ui.screen == "wd_card"
    assert p.says("wd.card.title") == ["Ala: początkowa karta zaklęć 1/3"]
    assert p.says("wd.card.label") == [
        "Nazwa",
        "Poziom",
        "Zaklęcie 1: rodzaj",
        "Zaklęcie 1: siła",
        "Zaklęcie 1: szkoła",
        "Drugie zaklęcie",
    ]
    assert p.says("wd.card.value") == ["Karta 1_", "brak", "ofensywne", "3", "magia", "nie"]
    p.keys(text="Kula ognia")  # the first letter replaces the suggested name
    p.keys(pygame.K_RETURN, pygame.K_UP)  # Enter leaves the name; the level: 0
    p.keys(
        pygame.K_TAB, pygame.K_TAB, pygame.K_UP, pygame.K_UP, pygame.K_UP
    )  # offensive stays; strength 6
    p.keys(pygame.K_TAB, pygame.K_UP)  # school: fire
    p.keys(pygame.K_TAB, pygame.K_UP)  # a second spell
    p.keys(pygame.K_TAB, pygame.K_UP, pygame.K_UP)  # its kind: healing
    p.keys(pygame.K_TAB, pygame.K_DOWN)  # strength 2
    p.keys(pygame.K_TAB, pygame.K_UP, pygame.K_UP)  # school: water
    assert p.says("wd.card.value")[-3:] == [
        "leczące",
        "2",
        "woda",
    ]  # the rows scroll with the highlight
    assert p.says("wd.card.preview") == ["Kula ognia [0]: atak 6, ogień + leczenie 2, woda"]
    p.keys(pygame.K_RETURN)

    assert k.ui.screen == "table"
    card = k.state.part(WizardsDuelState).wizard(0).cards[0]
    assert (card.name, card.level, card.basic) == ("Kula ognia", 0, True)
    assert card.spells == (
        Spell(kind=SpellKind.OFFENSIVE, strength=6, school=Face.FIRE),
        Spell(kind=SpellKind.HEALING, strength=2, school=Face.WATER),
    )
    assert k.ui.messages == [
        "Karta zaklęcia gracza Ala — „Kula ognia”: atak 6, ogień + leczenie 2, woda."
    ]
    assert p.says("wd.chip") == ["Ala: nowa karta (1/3)", "Ola: nowa karta (0/3)"]
    assert p.says("wd.seat0.spell") == ["Kula ognia, zaklęcie 1 [0]", "Kula ognia, zaklęcie 2 [0]"]

    described = k.state
    p.keys(pygame.K_u)
    assert k.state.part(WizardsDuelState).wizard(0).cards == ()
    assert p.says("wd.chip") == ["Ala: nowa karta (0/3)", "Ola: nowa karta (0/3)"]
    p.keys(pygame.K_y)
    assert k.state == described


def test_wd1_a_card_described_by_touch_alone_keeps_its_suggested_name(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """WD-1 without a keyboard: taps open Ola's form, − and + and a second tap on a row change
    it, the save row saves; the name is the suggested "Karta 1", the next one "Karta 2"; cancel
    changes nothing."""
    k = make_kiosk((480, 320), "pl", screenshots=tmp_path / "shots")
    duel(k)
    p = Player(k)
    p.touch(DuelChip(1))
    assert p.says("wd.card.title") == ["Ola: początkowa karta zaklęć 1/3"]
    p.touch(CardStep(1, -1))  # level: from none back round to 2
    p.touch(CardStep(2, 1))  # kind: area, which adds its damage to the others
    p.touch(CardStep(3, 1))
    p.touch(CardStep(3, 1))  # strength 5
    assert (
        p.says("wd.card.label")[-1] == "Zaklęcie 1: szkoła"
    )  # the rows scrolled up; one more below
    p.touch(CardRow(4))  # the school row: the first tap picks it…
    p.touch(CardRow(4))  # …the second changes it: fire
    assert (
        p.says("wd.card.label")[-1] == "Zaklęcie 1: obrażenia dla innych"
    )  # the cursor took the rows along
    p.touch(CardStep(5, 1))  # 2 to everyone else
    assert p.says("wd.card.preview") == ["Karta 1 [2]: obszar 5/2, ogień"]
    assert p.says("wd.card.save") == ["Zapisz kartę"]
    p.touch(CardRow(7))
    card = k.state.part(WizardsDuelState).wizard(1).cards[0]
    assert (card.name, card.level) == ("Karta 1", 2)
    assert card.spells == (Spell(kind=SpellKind.AREA, strength=5, school=Face.FIRE, others=2),)
    assert k.ui.messages == ["Karta zaklęcia gracza Ola — „Karta 1”: obszar 5/2, ogień."]

    p.touch(DuelChip(1))
    assert p.says("wd.card.value")[0] == "Karta 2_"
    before = k.state
    p.touch(CardRow(7))  # one spell, no others row: cancel is the eighth row
    assert p.says("wd.card.cancel") == []
    assert (k.ui.screen, k.state) == ("table", before)


def test_wd2_a_market_card_learned_with_picked_pool_dice_and_one_per_round(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """WD-2 phase 2: pool dice picked on the table, then "market card 2" (←/→ change the card)
    opens the form with those dice as the cost; Enter learns it (LearnSpell) with exactly them.
    A second learning that round is refused with the rules' reason, in Polish, and changes
    nothing; a learned card named like one the player has is refused by the rules with the form
    still open; a learning with no dice is refused before it is sent."""
    k = make_kiosk((800, 480), "pl", screenshots=tmp_path / "shots")
    duel(k)
    duel_cards(k, 2)
    to_incantations(k)
    p = Player(k)
    pool = k.state.part(WizardsDuelState).wizard(0).pool
    assert p.says("wd.ask") == ["Ala: wybierz kości z puli many, potem zaklęcie"]
    p.keys(pygame.K_UP, pygame.K_TAB, pygame.K_UP, pygame.K_TAB)  # the first two pool dice
    p.keys(*[pygame.K_UP] * (len(pool) + 1))  # past the dice and both spells: the market
    assert "← Rynek: karta 1 →" in p.says("wd.chip")
    p.keys(pygame.K_RIGHT)
    assert "← Rynek: karta 2 →" in p.says("wd.chip")
    p.keys(pygame.K_TAB)
    assert k.ui.screen == "wd_card"
    assert p.says("wd.card.title") == ["Ala uczy się karty 2 z rynku"]
    picked = pool[:2]
    faces = {
        Face.MAGIC: "magia",
        Face.FIRE: "ogień",
        Face.WATER: "woda",
        Face.EARTH: "ziemia",
        Face.AIR: "powietrze",
    }
    p.keys(*[pygame.K_LEFT] * 3)  # round from the name, past cancel and save: the last school
    last_cost = [face for face in Face if face in pool][-1]
    assert p.says("wd.card.label")[-1] == f"Koszt: {faces[last_cost]}"
    assert p.says("wd.card.value")[-1] == f"{picked.count(last_cost)} z {pool.count(last_cost)}"
    p.keys(*[pygame.K_RIGHT] * 3)  # back to the name
    p.keys(text="Lodowy pocisk")
    p.keys(
        pygame.K_RETURN, pygame.K_TAB, pygame.K_TAB, pygame.K_UP
    )  # past level and kind: strength 4
    p.keys(pygame.K_TAB, pygame.K_UP, pygame.K_UP)  # school: water
    paid = tuple(face for face in Face for _ in range(picked.count(face)))
    paying = ", ".join(faces[f] for f in paid)
    assert p.says("wd.card.preview") == [f"Lodowy pocisk: atak 4, woda · koszt: {paying}"]
    p.keys(pygame.K_RETURN)

    assert k.ui.screen == "table"
    ala = k.state.part(WizardsDuelState).wizard(0)
    card = ala.cards[-1]
    assert (card.name, card.basic, card.spells[0].dice) == ("Lodowy pocisk", False, paid)
    assert sorted(ala.pool) == sorted(pool[2:])
    assert (ala.learned, k.state.part(WizardsDuelState).market) == (True, (True, False, True))
    assert k.ui.messages == [
        f"Ala uczy się karty 2 z rynku: „Lodowy pocisk” (atak 4, woda), płacąc: {paying}."
    ]

    # The same round again: the market chip says no at once, in the rules' words.
    learned = k.state
    p.keys(*[pygame.K_UP] * market_chip(k, 0))
    assert "← Rynek: karta 1 →" in p.says("wd.chip")  # card 2 is gone; 1 and 3 are left
    p.keys(pygame.K_TAB)
    assert k.ui.error is not None
    assert (
        k.ui.words(k.ui.error.text)
        == "W tej rundzie Ala ma już za sobą naukę zaklęcia z rynku (tylko jedno na rundę)."
    )
    assert p.says("status.error") == [k.ui.words(k.ui.error.text)]
    assert (k.ui.screen, k.state) == ("table", learned)

    # Ola: market card 1, no dice picked — refused before sending; then a name she has already.
    p.keys(*[pygame.K_DOWN] * market_chip(k, 0), pygame.K_TAB)  # back to the player chip: Ola
    assert p.says("wd.ask") == ["Ola: wybierz kości z puli many, potem zaklęcie"]
    p.keys(*[pygame.K_UP] * market_chip(k, 1), pygame.K_TAB)
    assert p.says("wd.card.title") == ["Ola uczy się karty 1 z rynku"]
    assert p.says("wd.card.preview") == ["Karta 3: atak 3, magia · koszt: nic"]
    p.keys(pygame.K_TAB, pygame.K_RETURN)
    assert p.says("status.error") == [
        "Wybierz kości z puli many, którymi płacisz koszt karty (wiersze „Koszt”)."
    ]
    assert k.ui.screen == "wd_card"
    p.keys(
        *[pygame.K_TAB] * 5, pygame.K_UP
    )  # the first school in Ola's pool, after the card's six rows
    ola_pool = k.state.part(WizardsDuelState).wizard(1).pool
    ola_first = next(face for face in Face if face in ola_pool)
    assert p.says("wd.card.preview") == [f"Karta 3: atak 3, magia · koszt: {faces[ola_first]}"]
    p.keys(*[pygame.K_LEFT] * 6, pygame.K_BACKSPACE, text="Kula ognia")
    p.keys(pygame.K_RETURN, pygame.K_RETURN)
    assert p.says("status.error") == ["Ola ma już kartę zaklęcia „Kula ognia”."]
    assert k.ui.screen == "wd_card"
    assert k.state.part(WizardsDuelState).wizard(1).learned is False
    p.keys(pygame.K_ESCAPE)
    assert k.ui.screen == "table"
