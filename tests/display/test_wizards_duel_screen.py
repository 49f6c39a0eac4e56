"""Wizard's Duel on the kiosk (SPEC section 6, WD-1..WD-4): the duel's table stands in for the
life table, the phase banner says whose move it is and what NEXT does, the choices go through
the controller as the rules' commands, and every text reads in Polish, Russian and Japanese.
The screenshots are in test_screenshots.py (scenes wd_gather, wd_attack, wd_over)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from device.commands import NewGame
from device.inputs import Button
from device.rules.wizards_duel.commands import DefineSpellCard, GatherMana, PassIncantations
from device.rules.wizards_duel.state import Face, Spell, SpellKind
from device.text import Plural, every_text
from device.rules.wizards_duel.state import WizardsDuelState
from display.i18n import LANGUAGES, Translator, table, wizards_duel as duel_texts
from display.kiosk import Kiosk
from display.screens.wizards_duel import DuelChip
from display.ui import Focus, Press, Turn
from scenes import (
    PLAYERS,
    assert_readable,
    duel_cards,
    duel_to_casting,
    scene_wd_attack,
    scene_wd_gather,
    scene_wd_over,
    texts,
)
from test_e2e import Player
from test_wizards_duel_cards import describe_by_keys

MakeKiosk = Callable[..., Kiosk]


def duel(k: Kiosk, players: tuple[str, ...] = ("Ala", "Ola"), **options: str) -> None:
    k.execute(
        NewGame(formats=("wizards_duel",), players=players, first=players[0], options=options)
    )


def magic(k: Kiosk) -> list[int]:
    assert k.state is not None and k.state.wizards_duel is not None
    return [w.magic for w in k.state.wizards_duel.wizards]


# --- the table of a duel ------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_wd1_the_table_shows_magic_points_not_life(make_kiosk: MakeKiosk, language: str) -> None:
    """WD-1: the table screen of a duel draws each player's magic points (35), hand and reserve."""
    k = make_kiosk((800, 480), language)
    duel(k, ("Ala", "Ola", "Ewa", "Iza"))
    k.redraw()
    assert k.ui.screen == "table"
    assert [texts(k, f"wd.seat{seat}.magic") for seat in range(4)] == [["35"]] * 4
    assert texts(k, "seat0.life") == []
    tr = Translator(language)
    assert texts(k, "wd.seat3.counts") == [
        tr("ui.wd.counts", hand=5, reserve=6)
    ]  # WD-1: 6 with four players
    assert texts(k, "wd.market") == [tr("ui.wd.market", cards=5, deck=25)]


def test_wd1_the_start_message_counts_magic_points(make_kiosk: MakeKiosk) -> None:
    """WD-1: the game's start says magic points, in the table's language too."""
    k = make_kiosk((800, 480), "pl")
    duel(k)
    first = k.ui.messages[0]
    assert (
        first == "Nowy Pojedynek czarnoksiężnika: Ala, Ola; każdy ma 35 punktów magii. Zaczyna Ala."
    )
    english = make_kiosk((800, 480), "en")
    duel(english)
    assert (
        english.ui.messages[0]
        == "New Wizard's Duel for Ala, Ola, 35 magic points each. Ala goes first."
    )


def test_wd2_the_banner_names_the_phase_the_mover_and_what_next_does(make_kiosk: MakeKiosk) -> None:
    """WD-2: round and phase, whose move it is in the header, and NEXT's meaning, as play moves on."""
    k = make_kiosk((800, 480), "pl")
    duel(k)
    duel_cards(k, 2)
    k.redraw()
    assert texts(k, "wd.phase") == ["Runda 1 · faza 1: zbieranie many"]
    assert texts(k, "header.headline") == ["Faza 1: wszyscy zbierają manę"]
    assert texts(k, "wd.next") == ["DALEJ: rzut za: Ala, Ola"]
    k.dispatch(Press(Button.NEXT))
    k.redraw()
    assert texts(k, "wd.next") == ["Czekamy, aż kości odłożą: Ala, Ola"]
    assert texts(k, "wd.ask") == ["Ala: wybierz kości do puli many i zatwierdź"]
    rolled = k.state.part(WizardsDuelState).wizard(0).rolled
    assert rolled is not None
    labels = [Translator("pl")(f"ui.wd.face.{face.value}") for face in rolled]
    assert texts(k, "wd.seat0.roll.die") == labels
    k.execute(GatherMana(seat=0, aside=()))
    k.redraw()
    assert texts(k, "header.headline") == ["Faza 1: wybiera Ola"]


def test_wd2_casting_and_a_pending_attack_in_the_banner(make_kiosk: MakeKiosk) -> None:
    """WD-2 phase 3: the caster in the header; an attack names the defender and NEXT takes it."""
    k = make_kiosk((800, 480), "pl")
    k.execute(NewGame(formats=("wizards_duel",), players=PLAYERS[:3], first=PLAYERS[0]))
    duel_cards(k, 3)
    duel_to_casting(k, 3, keep=2)
    k.redraw()
    assert texts(k, "header.headline") == ["Faza 3: rzuca Alice"]
    assert texts(k, "wd.next") == ["DALEJ: Alice pasuje"]
    assert texts(k, "wd.chip") == [
        "Kula ognia: atak 6, ogień",
        "Źródło życia: leczenie 3, woda",
        "Pasuję",
    ]
    k.dispatch(Press(Button.SELECT))
    k.redraw()
    assert texts(k, "wd.ask") == ["Alice rzuca „Kula ognia”: w kogo?"]
    assert texts(k, "wd.chip") == ["W: Юрий", "W: さくら", "Wróć"]
    k.dispatch(DuelChip(1))
    k.redraw()
    assert texts(k, "header.headline") == ["Broni się さくら"]
    assert texts(k, "wd.next") == ["DALEJ: さくら przyjmuje atak bez obrony"]
    assert texts(k, "wd.ask") == [
        "Alice atakuje: „Kula ognia” (atak 6, ogień). さくら, jak się bronisz?"
    ]
    assert texts(k, "wd.chip") == [
        "Bez obrony",
        "Źródło życia: leczenie 3, woda",
        "Kości rezerwy: 5",
    ]
    assert texts(k, "wd.chip.more") == [
        "1"
    ]  # the counterattack is one chip further: the marker counts it
    k.dispatch(Turn(3))
    k.redraw()
    assert texts(k, "wd.chip")[-1] == "← Kontratak: 2 →"


# --- the choices, through the controller ---------------------------------------------------------


def test_wd2_phase_1_dice_picked_on_screen_go_to_the_mana_pool(make_kiosk: MakeKiosk) -> None:
    """WD-2 phase 1: SELECT picks dice, the encoder moves, the last chip sets them aside and refills."""
    k = make_kiosk((800, 480), "en")
    scene_wd_gather(k)
    rolled = k.state.part(WizardsDuelState).wizard(0).rolled
    assert rolled is not None
    k.redraw()
    assert texts(k, "wd.chip") == ["Put 2 in the pool, refill"]
    k.dispatch(Turn(-2))  # from the second die back past the first, round to the last chip
    k.dispatch(Press(Button.SELECT))
    wizard = k.state.part(WizardsDuelState).wizard(0)
    assert wizard.pool == rolled[:2]
    assert (wizard.hand, wizard.reserve, wizard.chosen) == (5, 5, True)
    k.redraw()
    assert texts(k, "wd.ask") == ["Юрий: pick dice for the mana pool, then confirm"]
    assert texts(k, "wd.chip") == ["Take all back"]
    k.dispatch(DuelChip(5))
    assert k.state.part(WizardsDuelState).wizard(1).pool == ()
    assert k.state.part(WizardsDuelState).wizard(1).chosen


def test_wd2_antimagic_shield_is_offered_for_one_picked_die(make_kiosk: MakeKiosk) -> None:
    """WD-4 antimagic shield: with one non-air die picked, a chip puts it in the shield."""
    k = make_kiosk((800, 480), "en")
    duel(k, antimagic_shield="on")
    k.dispatch(Press(Button.ROLL))
    rolled = k.state.part(WizardsDuelState).wizard(0).rolled
    assert rolled is not None
    index = next(i for i, face in enumerate(rolled) if face is not Face.AIR)
    k.dispatch(DuelChip(index))
    k.redraw()
    face = Translator("en")(f"wd.face.{rolled[index].value}")
    assert texts(k, "wd.chip")[-1] == f"Shield: {face}"
    k.dispatch(DuelChip(6))
    wizard = k.state.part(WizardsDuelState).wizard(0)
    assert (wizard.shield, wizard.hand) == ((rolled[index],), 4)


def test_wd2_incantations_pay_a_spell_with_picked_pool_dice(make_kiosk: MakeKiosk) -> None:
    """WD-2 phase 2: pool dice picked, then the spell chip lays exactly those dice on it."""
    k = make_kiosk((800, 480), "en")
    duel(k)
    duel_cards(k, 2)
    for _ in range(2):
        k.dispatch(Press(Button.NEXT))
        for seat in range(2):
            k.execute(GatherMana(seat=seat, aside=k.state.wizards_duel.wizard(seat).rolled))  # type: ignore[union-attr,arg-type]
    k.dispatch(Press(Button.NEXT))
    pool = k.state.part(WizardsDuelState).wizard(0).pool
    k.dispatch(DuelChip(1))
    k.dispatch(DuelChip(3))
    k.dispatch(Turn(len(pool) - 2))  # from the die tapped last to the first spell after the dice
    k.redraw()
    assert "On Kula ognia: offensive 6 fire" in texts(k, "wd.chip")
    k.dispatch(Press(Button.SELECT))
    card = k.state.part(WizardsDuelState).wizard(0).cards[0]
    assert card.spells[0].dice == (pool[0], pool[2])
    # ←/→ on the player chip switches to Ola, who is incanting at the same time.
    k.dispatch(Press(Button.SELECT))  # the highlight is back on the first chip: the player
    k.redraw()
    assert texts(k, "wd.ask") == ["Ola: pick mana-pool dice, then the spell they go on"]
    k.dispatch(Turn(-1))
    k.dispatch(Press(Button.SELECT))  # Ready
    assert k.state.part(WizardsDuelState).wizard(1).passed


def two_spell_cards(k: Kiosk, seats: int) -> None:
    """Each player's one card "Burza" has two spells: an attack and a healing (WD-2)."""
    for seat in range(seats):
        k.execute(
            DefineSpellCard(
                seat=seat,
                name="Burza",
                level=1,
                spells=(
                    Spell(kind=SpellKind.OFFENSIVE, strength=4, school=Face.FIRE),
                    Spell(kind=SpellKind.HEALING, strength=2, school=Face.WATER),
                ),
            )
        )
    for _ in range(2):
        k.dispatch(Press(Button.NEXT))
        for seat in range(seats):
            k.execute(GatherMana(seat=seat, aside=k.state.wizards_duel.wizard(seat).rolled))  # type: ignore[union-attr,arg-type]
    k.dispatch(Press(Button.NEXT))  # the last roll: phase 2


def chip_labels(k: Kiosk) -> list[str]:
    """Every chip of the row, shown or scrolled away, as the screen words it."""
    from display.screens.wizards_duel import choice, current_form

    assert k.state is not None
    current = choice(k.state, k.tr, current_form(k.ui, k.state))
    return [chip.label for chip in current.chips] if current is not None else []


def test_wd2_which_of_a_cards_two_spells_is_chosen_on_the_chips(make_kiosk: MakeKiosk) -> None:
    """WD-2: a card with two spells offers one chip per spell, in words ("Burza, spell 2"), never
    the console's "Burza/2"; a tap pays the spell on its chip and the encoder and SELECT cast one."""
    k = make_kiosk((800, 480), "en")
    duel(k)
    two_spell_cards(k, 2)
    labels = chip_labels(k)
    assert [label for label in labels if "Burza" in label] == [
        "On Burza, spell 1: offensive 4 fire",
        "On Burza, spell 2: healing 2 water",
    ]
    for spell in (1, 0):  # the second spell first, by touch, then the first
        pool = k.state.part(WizardsDuelState).wizard(0).pool
        k.dispatch(DuelChip(1))
        k.dispatch(DuelChip(2))
        k.dispatch(
            DuelChip(
                chip_labels(k).index(
                    f"On Burza, spell {spell + 1}: "
                    f"{'healing 2 water' if spell else 'offensive 4 fire'}"
                )
            )
        )
        assert k.state.part(WizardsDuelState).wizard(0).cards[0].spells[spell].dice == pool[:2]
    k.execute(PassIncantations())
    k.redraw()
    assert texts(k, "wd.seat0.spell") == ["Burza, spell 1 [1]", "Burza, spell 2 [1]"]
    assert chip_labels(k) == [
        "Burza, spell 1: offensive 4 fire",
        "Burza, spell 2: healing 2 water",
        "Pass",
    ]
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))  # the healing: it needs no target
    burza = k.state.part(WizardsDuelState).wizard(0).cards[0]
    assert (burza.spells[0].cast, burza.spells[1].cast) == (False, True)
    assert k.ui.error is None
    assert not [text for text in texts(k) if "Burza/" in text]


@pytest.mark.parametrize("language", ["pl", "ru", "ja"])
def test_wd2_a_spell_of_two_reads_in_the_language(make_kiosk: MakeKiosk, language: str) -> None:
    k = make_kiosk((800, 480), language)
    duel(k)
    two_spell_cards(k, 2)
    name = {"pl": "Burza, zaklęcie 2", "ru": "Burza, заклинание 2", "ja": "Burzaの呪文2"}[language]
    labels = chip_labels(k)
    assert [label for label in labels if name in label] != []
    assert [label for label in labels if "Burza/" in label] == []


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_hw4_a_table_of_four_with_two_spell_cards_stays_readable(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    k = make_kiosk(size, "en")
    duel(k, ("Ala", "Ola", "Ewa", "Iza"))
    two_spell_cards(k, 4)
    k.redraw()
    assert_readable(k, size)


def test_wd2_defence_with_reserve_dice_counted_on_the_chip(make_kiosk: MakeKiosk) -> None:
    """WD-2 defence (b): ←/→ set how many reserve dice; 1 fatigue damage; the rest of the attack hurts."""
    k = make_kiosk((800, 480), "en")
    scene_wd_attack(k)
    k.dispatch(Turn(2))  # Reserve dice: 5
    k.dispatch(Focus(-1))
    k.dispatch(Focus(-1))
    k.redraw()
    assert "← Reserve dice: 3 →" in texts(k, "wd.chip")
    k.dispatch(Press(Button.SELECT))
    sakura = k.state.part(WizardsDuelState).wizard(2)
    assert (sakura.magic, sakura.reserve, sakura.aside, sakura.fatigue) == (35 - 3 - 1, 2, 3, 1)


def test_wd2_counterattack_spends_pool_dice_on_the_attacker(make_kiosk: MakeKiosk) -> None:
    """WD-2 defence (c): the counterattack chip's number of mana-pool dice hurts the caster."""
    k = make_kiosk((800, 480), "en")
    scene_wd_attack(k)
    before = magic(k)
    k.dispatch(DuelChip(3))  # Counterattack: 2
    assert magic(k) == [before[0] - 2, before[1], before[2] - 6]


def test_wd3_a_finished_duel_names_the_winner(make_kiosk: MakeKiosk) -> None:
    """WD-3: the last player with magic points wins; the loser's tile says they are out."""
    k = make_kiosk((800, 480), "pl")
    scene_wd_over(k)
    k.redraw()
    assert texts(k, "wd.winner") == ["Wygrywa Alice: 2 punkty magii"]
    assert texts(k, "header.headline") == ["Wygrywa Alice"]
    assert texts(k, "wd.seat1.magic") == ["0"]
    assert texts(k, "wd.seat1.out") != []
    assert texts(k, "wd.chip") == []


def test_wd4_power_sacrifice_is_offered_at_zero(make_kiosk: MakeKiosk) -> None:
    """WD-4 power sacrifice: at 0, the basic cards not played this round, or drop out."""
    k = make_kiosk((800, 480), "en")
    k.execute(
        NewGame(
            formats=("wizards_duel",),
            players=("Ala", "Ola"),
            first="Ala",
            starting_life=5,
            options={"power_sacrifice": "on"},
        )
    )
    duel_cards(k, 2)
    k.execute(
        DefineSpellCard(
            seat=1,
            name="Tarcza",
            spells=(Spell(kind=SpellKind.HEALING, strength=1, school=Face.EARTH),),
        )
    )
    duel_to_casting(k, 2)
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Press(Button.NEXT))
    k.redraw()
    assert texts(k, "wd.ask") == ["Ola is at 0 magic points"]
    assert texts(k, "wd.chip") == ["Sacrifice Tarcza", "Drop out"]
    k.dispatch(Press(Button.SELECT))
    assert magic(k)[1] == 10


def test_refusals_in_the_tables_language(make_kiosk: MakeKiosk) -> None:
    """A refused NEXT (everyone rolled, nobody chose yet) reads in Polish on the status line."""
    k = make_kiosk((800, 480), "pl")
    duel(k)
    k.dispatch(Press(Button.ROLL))
    k.dispatch(Press(Button.ROLL))
    assert k.ui.error is not None
    assert k.ui.words(k.ui.error.text) == "Wszyscy już rzucili; czekamy, aż kości odłożą: Ala, Ola."


# --- texts ----------------------------------------------------------------------------------------


def _fields(text: str | tuple[str, ...] | Plural) -> set[str]:
    """The parameters a text places; a text with a count, in any of its forms."""
    forms = (
        (text.one, text.other)
        if isinstance(text, Plural)
        else text
        if isinstance(text, tuple)
        else (text,)
    )
    return {name for form in forms for name in re.findall(r"{(\w+)", form)}


@pytest.mark.parametrize("language", ["pl", "ru", "ja"])
def test_every_duel_text_is_translated_with_the_same_fields(language: str) -> None:
    """Every rules message (wd.*) and every screen text (ui.wd.*) has a translation that places
    exactly the English text's parameters."""
    english = {
        k: v for k, v in every_text().items() if k.startswith("wd.") or k.endswith(".wizards_duel")
    }
    english |= duel_texts.TEXTS
    texts_ = table(language)
    missing = sorted(key for key in english if key not in texts_)
    assert missing == []
    wrong = sorted(key for key, text in english.items() if _fields(texts_[key]) != _fields(text))
    assert wrong == []


def test_die_faces_and_spells_read_in_each_language() -> None:
    """Messages carry the faces as words each language places itself."""
    from device.rules.wizards_duel.queries import faces_text, spells_text

    faces = faces_text((Face.FIRE, Face.WATER, Face.AIR))
    spells = spells_text((Spell(kind=SpellKind.AREA, strength=3, others=1, school=Face.WATER),))
    assert str(faces) == "fire water air"
    assert Translator("pl").message(faces) == "ogień, woda, powietrze"
    assert Translator("ru").message(faces) == "огонь, вода, воздух"
    assert Translator("ja").message(faces) == "火・水・風"
    assert str(spells) == "area 3/1 water"
    assert Translator("pl").message(spells) == "obszar 3/1, woda"


# --- end to end, with the keys --------------------------------------------------------------------


def test_wd2_a_full_round_in_polish_with_the_keys(make_kiosk: MakeKiosk, tmp_path: Path) -> None:
    """WD-2: a whole round (gathering mana, incantations, casting, clean-up) played with the
    documented keys only, on a Polish kiosk, from describing the spell cards on."""
    k = make_kiosk((800, 480), "pl", screenshots=tmp_path / "shots")
    duel(k)
    p = Player(k)
    describe_by_keys(p)
    describe_by_keys(p, moves=1)  # Ola's chip, after Ala's (she still has a third card to describe)
    assert p.says("wd.next") == ["DALEJ: rzut za: Ala, Ola"]

    # Phase 1: two turns of everything into the pool; the second runs the reserve short.
    for turn in (1, 2):
        p.keys(pygame.K_SPACE)
        for name in ("Ala", "Ola"):
            assert p.says("wd.ask") == [f"{name}: wybierz kości do puli many i zatwierdź"]
            for _ in range(5):
                p.keys(pygame.K_TAB, pygame.K_UP)  # pick a die, move on
            assert p.says("wd.chip") == ["Odłóż 5 do puli, dobierz"]
            p.keys(pygame.K_TAB)
    assert magic(k) == [32, 32]  # 3 dice short of a full hand each
    assert p.says("wd.next") == ["DALEJ: ostatni rzut do puli many za: Ala, Ola"]
    p.keys(pygame.K_RETURN)

    # Phase 2: Ala lays two pool dice on Kula ognia and is ready; Ola is ready at once.
    assert p.says("wd.phase") == ["Runda 1 · faza 2: inkantacje"]
    assert p.says("wd.ask") == ["Ala: wybierz kości z puli many, potem zaklęcie"]
    pool = k.state.part(WizardsDuelState).wizard(0).pool
    p.keys(pygame.K_UP, pygame.K_TAB, pygame.K_UP, pygame.K_TAB)  # two dice
    p.keys(*[pygame.K_UP] * (len(pool) - 1))  # to "Na Kula ognia…"
    assert "Na Kula ognia: atak 6, ogień" in p.says("wd.chip")
    p.keys(pygame.K_TAB)
    assert k.state.part(WizardsDuelState).wizard(0).cards[0].spells[0].dice == pool[:2]
    p.keys(pygame.K_DOWN, pygame.K_TAB)  # Pasuję
    assert p.says("wd.ask") == ["Ola: wybierz kości z puli many, potem zaklęcie"]
    p.keys(pygame.K_RETURN)  # NEXT ends the incantations for whoever is left

    # Phase 3: Ala casts at Ola (the only opponent); Ola takes it with NEXT; the round ends.
    assert p.says("header.headline") == ["Faza 3: rzuca Ala"]
    p.keys(pygame.K_TAB)
    assert p.says("header.headline") == ["Broni się Ola"]
    assert p.says("wd.next") == ["DALEJ: Ola przyjmuje atak bez obrony"]
    p.keys(pygame.K_RETURN)
    state = k.state
    assert state is not None and state.wizards_duel is not None
    assert (state.wizards_duel.round, state.wizards_duel.phase, state.wizards_duel.starting) == (
        2,
        1,
        1,
    )
    assert magic(k) == [32, 26]
    assert p.says("wd.phase") == ["Runda 2 · faza 1: zbieranie many"]
    assert p.says("wd.seat1.magic") == ["26"]
    assert p.says("wd.next") == ["DALEJ: rzut za: Ola, Ala"]  # Ola, with fewer points, starts
    assert k.ui.messages[-1] == "Runda 2, faza 1: zbieranie many. Rozpoczyna Ola. Wszyscy rzucają."


def test_wd2_wd3_a_whole_duel_in_polish_with_the_keys(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    """WD-2, WD-3: a whole two-player duel played with the keys on a Polish kiosk, from the first
    roll until Ola's magic points reach 0, she drops out and Ala is shown as the winner; the
    spell cards are described on the kiosk first (WD-1); UNDO takes back a choice and a spell
    exactly, and Y plays them again."""
    k = make_kiosk((800, 480), "pl", screenshots=tmp_path / "shots")
    k.execute(
        NewGame(formats=("wizards_duel",), players=("Ala", "Ola"), first="Ala", starting_life=14)
    )
    p = Player(k)
    describe_by_keys(p)
    describe_by_keys(p, moves=1)
    assert [card.name for w in k.state.part(WizardsDuelState).wizards for card in w.cards] == [
        "Kula ognia",
        "Źródło życia",
    ] * 2

    def gather(order: tuple[str, str]) -> None:
        """Phase 1: two turns of all five dice into the pool, then the last roll (NEXT)."""
        for _ in (1, 2):
            p.keys(pygame.K_SPACE)
            for name in order:
                assert p.says("wd.ask") == [f"{name}: wybierz kości do puli many i zatwierdź"]
                for _ in range(5):
                    p.keys(pygame.K_TAB, pygame.K_UP)
                assert p.says("wd.chip") == ["Odłóż 5 do puli, dobierz"]
                p.keys(pygame.K_TAB)
        p.keys(pygame.K_RETURN)

    def incant(caster: str, other: str, caster_first: bool) -> None:
        """Phase 2: the caster lays two pool dice on Kula ognia and passes; the other is ready."""
        if not caster_first:
            assert p.says("wd.ask") == [f"{other}: wybierz kości z puli many, potem zaklęcie"]
            p.keys(pygame.K_DOWN, pygame.K_TAB)  # Pasuję
        assert p.says("wd.ask") == [f"{caster}: wybierz kości z puli many, potem zaklęcie"]
        pool = k.state.part(WizardsDuelState).wizard(("Ala", "Ola").index(caster)).pool
        p.keys(pygame.K_UP, pygame.K_TAB, pygame.K_UP, pygame.K_TAB)  # two dice
        p.keys(*[pygame.K_UP] * (len(pool) - 1))  # to "Na Kula ognia…"
        assert "Na Kula ognia: atak 6, ogień" in p.says("wd.chip")
        p.keys(pygame.K_TAB)
        if caster_first:
            p.keys(pygame.K_DOWN, pygame.K_TAB)  # Pasuję
            assert p.says("wd.ask") == [f"{other}: wybierz kości z puli many, potem zaklęcie"]
        p.keys(pygame.K_RETURN)  # NEXT ends the incantations for whoever is left

    # Round 1: Ala casts Kula ognia at Ola, who takes it undefended.
    gather(("Ala", "Ola"))
    assert magic(k) == [11, 11]  # three dice short of a full hand each
    incant("Ala", "Ola", caster_first=True)
    assert p.says("header.headline") == ["Faza 3: rzuca Ala"]
    assert p.says("wd.chip") == ["Kula ognia: atak 6, ogień", "Pasuję"]
    p.keys(pygame.K_TAB)  # at the only opponent
    assert p.says("wd.next") == ["DALEJ: Ola przyjmuje atak bez obrony"]
    p.keys(pygame.K_RETURN)
    assert magic(k) == [11, 5]
    assert k.ui.messages[-1] == "Runda 2, faza 1: zbieranie many. Rozpoczyna Ola. Wszyscy rzucają."

    # Round 2, phase 1 with a misclick: Ola's confirmed choice is undone and done again.
    p.keys(pygame.K_SPACE)
    assert p.says("wd.ask") == ["Ola: wybierz kości do puli many i zatwierdź"]
    before_choice = k.state
    for _ in range(5):
        p.keys(pygame.K_TAB, pygame.K_UP)
    p.keys(pygame.K_TAB)
    after_choice = k.state
    assert after_choice != before_choice
    p.keys(pygame.K_u)
    assert k.state == before_choice
    assert p.says("wd.ask") == ["Ola: wybierz kości do puli many i zatwierdź"]
    p.keys(pygame.K_y)
    assert k.state == after_choice
    assert p.says("wd.ask") == ["Ala: wybierz kości do puli many i zatwierdź"]
    for _ in range(5):
        p.keys(pygame.K_TAB, pygame.K_UP)
    p.keys(pygame.K_TAB)
    p.keys(pygame.K_SPACE)
    for name in ("Ola", "Ala"):
        assert p.says("wd.ask") == [f"{name}: wybierz kości do puli many i zatwierdź"]
        for _ in range(5):
            p.keys(pygame.K_TAB, pygame.K_UP)
        p.keys(pygame.K_TAB)
    p.keys(pygame.K_RETURN)
    assert magic(k) == [8, 2]

    # Phase 2: Ola, starting, passes; Ala lays her dice. Phase 3: Ola has nothing to cast.
    incant("Ala", "Ola", caster_first=False)
    assert p.says("wd.phase") == ["Runda 2 · faza 3: rzucanie zaklęć"]
    assert k.ui.messages[-2:] == ["Faza 3: rzucanie zaklęć, zaczyna Ola.", "Zaklęcie rzuca Ala."]
    assert p.says("header.headline") == ["Faza 3: rzuca Ala"]
    p.keys(pygame.K_TAB)
    assert p.says("wd.next") == ["DALEJ: Ola przyjmuje atak bez obrony"]
    before_end = k.state
    p.keys(pygame.K_RETURN)  # 6 at 2 points: Ola drops out (WD-3)
    after_end = k.state
    assert magic(k) == [8, 0]
    assert k.ui.messages[-4:] == [
        "Ola się nie broni.",
        "Ola: 2 → 0 punktów magii (zaklęcie gracza Ala).",
        "Ola przegrywa grę.",
        "Ola odpada w rundzie 2.",
    ]
    assert p.says("wd.winner") == ["Wygrywa Ala: 8 punktów magii"]
    assert p.says("header.headline") == ["Wygrywa Ala"]
    assert p.says("wd.seat1.out") == ["odpada (przez: Ala)"]
    assert p.says("wd.chip") == []

    # UNDO takes the deciding spell back (the attack waits again); Y ends the duel once more.
    p.keys(pygame.K_u)
    assert k.state == before_end
    assert magic(k) == [8, 2]
    assert p.says("wd.winner") == []
    assert p.says("wd.next") == ["DALEJ: Ola przyjmuje atak bez obrony"]
    p.keys(pygame.K_y)
    assert k.state == after_end
    assert p.says("wd.winner") == ["Wygrywa Ala: 8 punktów magii"]
