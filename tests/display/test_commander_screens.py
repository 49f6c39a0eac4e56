"""A Commander table's commanders on the kiosk, played the ways a table plays them: each seat's
commander and partner typed at the set-up (refused while typed when too long, as the console's
``commanders`` refuses it), commander tax counted per commander on the adjust screen with keys,
touches and the GPIO encoder (up, down and undone, CR 903.8), commanders renamed in play, the
tax as a badge on the seat, and every such screen read at every layout in every language (HW-4)."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hands import Hands, Wired
from scenes import LANGUAGES, SIZES, assert_readable, texts
from scenes_commander import COMMANDER_SCENES, COMMANDERS, PLAYERS
from test_setup import Keys

from device.commands import NameCommanders, NewGame
from device.console.core import reason
from device.errors import IllegalCommand
from device.inputs import Button
from device.text import Message
from display.i18n import Translator
from display.kiosk import Kiosk
from display.screens.adjust import (
    AddAmount,
    AdjustForm,
    ApplyChange,
    PickCommander,
    PickCounter,
    PickPlayer,
)
from display.screens.setup import rows
from display.targets import OffscreenTarget
from display.ui import Go

MakeKiosk = Callable[..., Kiosk]


def shapes(kiosk: Kiosk, role: str) -> list[str]:
    return [s.name for s in kiosk.canvas.shapes if s.role == role]


def game(kiosk: Kiosk, commanders: tuple[tuple[str, ...], ...] = COMMANDERS) -> None:
    kiosk.execute(
        NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0], commanders=commanders)
    )
    kiosk.ui.said = []
    kiosk.redraw()


def to_names(p: Hands) -> None:
    """From the adjust screen's amount: Tab, Tab to the counter row, ↓ round it to its last entry."""
    p.keys(pygame.K_TAB, pygame.K_TAB, pygame.K_DOWN)


def last_said(kiosk: Kiosk) -> str:
    return texts(kiosk, "status.messages")[0]


# --- the set-up -----------------------------------------------------------------------------------


def test_lf1_each_seats_commander_and_partner_are_typed_at_set_up(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((480, 320), "en")
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("name", "0")
    p.keys(text="Ann")
    p.keys(pygame.K_RETURN)  # Enter on a name: the next row, her commander's
    assert p.says("setup.label.commander")[0] == "Commander"
    assert (
        p.says("setup.caret.commander") == ["_"]
        and p.says("setup.placeholder.commander")[0] == "not named"
    )
    assert ("commander", "0.1") not in rows(p.form)  # no partner's row before a commander
    p.keys(text="Tymna the Weaver")
    assert p.says("setup.value.commander") == ["Tymna the Weaver_"]
    assert ("commander", "0.1") in rows(p.form)
    p.keys(pygame.K_RETURN)  # the partner's row
    assert p.says("setup.label.commander")[-1] == "Partner" and p.says(
        "setup.placeholder.commander"
    ) == ["none"]
    p.keys(text="Kraum, Ludevic's Opus")
    p.keys(pygame.K_RETURN, text="Bea")  # on to seat 2's name
    p.keys(pygame.K_RETURN, text="Atraxa, Praetors' Voice")
    p.to("name", "3")
    p.keys(text="Dee")
    p.to("start")
    p.keys(pygame.K_RETURN)
    state = k.state
    assert state is not None and [pl.name for pl in state.players] == [
        "Ann",
        "Bea",
        "Player 3",
        "Dee",
    ]
    assert [pl.commanders for pl in state.players] == [
        ("Tymna the Weaver", "Kraum, Ludevic's Opus"),
        ("Atraxa, Praetors' Voice",),
        (),
        (),
    ]
    said = [str(m) for m in k.controller.history()[-1].messages()]
    assert said[1:] == [
        "Ann's commanders: Tymna the Weaver and Kraum, Ludevic's Opus.",
        "Bea's commander: Atraxa, Praetors' Voice.",
    ]
    assert len(k.controller.history()) == 1  # named with the start: one step


def test_lf1_erasing_a_commander_leaves_the_seat_one_unnamed(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("commander", "1.0")
    p.keys(text="Kraum")
    p.keys(
        *[pygame.K_BACKSPACE] * 5
    )  # every character erased: the hint is back, the partner's row gone
    assert p.says("setup.placeholder.commander")[-1] == "not named"
    assert ("commander", "1.1") not in rows(p.form)
    p.to("start")
    p.keys(pygame.K_RETURN)
    assert k.state is not None and all(pl.commanders == () for pl in k.state.players)


@pytest.mark.parametrize("language", LANGUAGES)
def test_lf1_a_commander_too_long_is_refused_where_typed_as_the_console_refuses_it(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """A commander's name past 32 characters is refused on the set-up screen with the reason the
    rules give the console's ``commanders``, and the row keeps what it had."""
    k = make_kiosk((320, 240), language)
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("commander", "0.0")
    long = "Asmoranomardicadaistinaculdacar, the Long"
    p.keys(text=long)
    assert p.form.commander(0, 0) == "" and k.ui.screen == "setup"
    k.execute(NewGame(formats=("commander",), players=("A", "B")))
    with pytest.raises(IllegalCommand) as error:  # what the console's "commanders B …" is told
        k.controller.execute(NameCommanders(seat=1, commanders=(long,)))
    console = Translator(language).message(reason(error.value))
    assert console == Translator(language).message(Message("table.name_long", name=long, limit=32))
    k.dispatch(Go("setup"))
    p.to("commander", "0.0")
    p.keys(text=long)
    assert " ".join(p.says("status.error")) == console


def test_lf1_no_commander_rows_where_the_format_has_no_commanders(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("commander", "0.0")
    p.keys(text="Atraxa")
    p.to("base")
    p.keys(pygame.K_DOWN, pygame.K_DOWN)  # Commander → Two-player game → Free-for-all
    assert p.form.base == "ffa"
    assert not any(kind == "commander" for kind, _ in rows(p.form))
    p.to("start")
    p.keys(pygame.K_RETURN)  # what was typed for a Commander game does not go to this one
    assert k.state is not None and k.state.formats == ("ffa",)
    assert all(pl.commanders == () for pl in k.state.players)


def test_lf1_the_next_games_set_up_offers_the_commanders_again(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    game(k)
    p = Keys(k)
    p.keys(pygame.K_F2)
    assert [p.form.commander(0, i) for i in (0, 1)] == list(COMMANDERS[0])
    p.to("commander", "0.1")
    assert "Kraum, Ludevic's Opus_" in p.says("setup.value.commander")


# --- the adjust screen: commander tax ---------------------------------------------------------------


def test_cr903_8_keys_count_a_partners_cast_and_undo_takes_it_back(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    game(k)
    p = Keys(k)
    p.keys(pygame.K_RETURN)  # the main phase
    p.keys(pygame.K_a)  # the adjust screen, for the active player
    p.keys(pygame.K_TAB, pygame.K_TAB)  # the player row, then the counter row
    p.keys(pygame.K_UP, pygame.K_UP)  # life → commander damage → commander tax
    assert p.says("adjust.label.from") == ["Commander"]
    assert p.says("adjust.which") == [
        "Tymna the Weaver",
        "Kraum, Ludevic's Opus",
    ]  # partners: a tax each
    p.keys(pygame.K_TAB, pygame.K_UP)  # the commander row: Kraum
    p.keys(pygame.K_TAB, pygame.K_UP)  # the amount: one cast
    assert p.says("adjust.preview") == ["Kraum, Ludevic's Opus: tax 0 → 2"]
    p.keys(pygame.K_RETURN)
    assert k.ui.screen == "table"
    assert (
        last_said(k) == "Kraum, Ludevic's Opus was cast from the command zone: commander tax 0 → 2."
    )
    assert texts(k, "seat0.tax")[0] == "2" and shapes(k, "seat0.tax.icon") == ["tax"]
    assert k.state is not None and k.state.player(0).commander_casts == (0, 1)
    p.keys(pygame.K_BACKSPACE)  # UNDO
    assert (
        last_said(k)
        == "Undone: Kraum, Ludevic's Opus was cast from the command zone: commander tax 0 → 2."
    )
    assert texts(k, "seat0.tax") == [] and shapes(k, "seat0.tax.icon") == []


def test_cr903_8_touches_take_back_a_miscounted_cast(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((480, 320), "pl")
    game(k, ((), (), (), ()))
    p = Keys(k)
    p.touch(Go("adjust"))
    p.touch(PickPlayer(1))  # Юрий's
    p.touch(PickCounter("commander"))
    p.touch(PickCounter("tax"))
    assert p.says("adjust.which") == ["dowódca gracza Юрий"]  # one commander, not named
    p.touch(AddAmount(1))
    p.touch(AddAmount(1))
    p.touch(ApplyChange())
    assert last_said(k) == (
        "dowódca gracza Юрий zagrany ze strefy dowodzenia 2 razy: podatek dowódcy 0 → 4."
    )
    assert texts(k, "seat1.tax") == ["4"]
    p.touch(Go("adjust"))
    p.touch(PickPlayer(1))
    p.touch(PickCounter("commander"))
    p.touch(PickCounter("tax"))
    p.touch(AddAmount(-1))  # the tax down: one cast too many was counted
    assert p.says("adjust.preview") == ["dowódca gracza Юрий: podatek 4 → 2"]
    p.touch(ApplyChange())
    assert texts(k, "seat1.tax") == ["2"]
    p.touch(Go("adjust"))
    p.touch(PickPlayer(1))
    p.touch(PickCounter("commander"))
    p.touch(PickCounter("tax"))
    p.touch(AddAmount(-5))
    p.touch(ApplyChange())  # below none: refused, said, and the screen stays
    assert texts(k, "status.error") == [
        "dowódca gracza Юрий: 1 zagranie ze strefy dowodzenia; nie można cofnąć 5."
    ]
    assert k.ui.screen == "adjust" and texts(k, "seat1.tax") == []


def test_hw1_the_encoder_counts_a_cast(make_kiosk: MakeKiosk, mock_factory: MockFactory) -> None:
    k = make_kiosk((320, 240), "ja")
    game(k)
    k.dispatch(Go("table"))
    wired = Wired(k, mock_factory)
    try:
        wired.press(
            Button.NEXT, hold=1.0
        )  # NEXT held on the table: the adjust screen, the active player's
        assert k.ui.screen == "adjust"
        wired.press(Button.SELECT)  # the player row
        wired.press(Button.SELECT)  # the counter row
        wired.turn(2)  # life → commander damage → commander tax
        wired.press(Button.SELECT)  # the commander: Tymna, the first
        wired.press(Button.SELECT)  # the amount
        wired.turn(1)
        wired.press(Button.NEXT)
        k.redraw()
        assert last_said(k) == "Tymna the Weaverを統率領域から1回唱えた：統率者税 0 → 2。"
        assert texts(k, "seat0.tax")[0] == "2"
    finally:
        wired.buttons.close()


def test_cr903_8_tax_only_on_a_commander_tables_adjust_screen(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    k.execute(NewGame(formats=("ffa",), players=PLAYERS, first=PLAYERS[0]))
    p = Keys(k)
    p.keys(pygame.K_a)
    counters = [t.action.name for t in k.canvas.targets if isinstance(t.action, PickCounter)]
    assert "life" in counters and "tax" not in counters and "names" not in counters


# --- the adjust screen: renaming commanders in play ---------------------------------------------------


def test_lf1_commanders_are_renamed_in_play_and_a_partner_added(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    game(k, ((), (), (), ()))
    p = Keys(k)
    p.keys(pygame.K_a, pygame.K_TAB, pygame.K_TAB)  # the counter row
    p.keys(pygame.K_DOWN)  # life → (round the row) commander names, its last
    assert p.says("adjust.which") == ["Commander", "+ Partner"]
    assert p.says("adjust.name.hint") == ["not named"]
    p.keys(text="Tymna")
    p.keys(pygame.K_t)  # a letter typed is text here, never a screen's key
    assert k.ui.screen == "adjust"
    assert p.says("adjust.name") == ["Tymna_"] and p.says("adjust.which") == ["Tymna", "+ Partner"]
    p.touch(PickCommander(1))
    p.keys(text="Kraum")
    assert p.says("adjust.preview") == ["Alice's commanders: Tymna and Kraum."]
    p.keys(pygame.K_RETURN)
    assert k.ui.screen == "table" and last_said(k) == "Alice's commanders: Tymna and Kraum."
    assert k.state is not None and k.state.player(0).commanders == ("Tymna", "Kraum")
    # The partner dropped again: its name erased.
    p.keys(pygame.K_a)
    to_names(p)
    p.touch(PickCommander(1))
    p.keys(*[pygame.K_BACKSPACE] * 5)
    assert p.says("adjust.which") == ["Tymna", "+ Partner"]
    p.touch(ApplyChange())
    assert k.state.player(0).commanders == ("Tymna",)
    p.keys(pygame.K_BACKSPACE)  # UNDO: the partner is back
    assert k.state.player(0).commanders == ("Tymna", "Kraum")


def test_lf1_renaming_refuses_a_name_too_long_while_it_is_typed(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((480, 320), "ru")
    game(k)
    p = Keys(k)
    p.keys(pygame.K_a)
    to_names(p)
    before = k.ui.kept(AdjustForm)
    p.keys(text="x" * 20)  # Tymna the Weaver + 20: past 32
    name = "Tymna the Weaver" + "x" * 20
    assert texts(k, "status.error") == [
        Translator("ru").message(Message("table.name_long", name=name, limit=32))
    ]
    form = k.ui.kept(AdjustForm)
    assert before is not None and form is not None and form.names == before.names


def test_lf1_renaming_keeps_a_cast_partner(make_kiosk: MakeKiosk) -> None:
    """A partner whose casts are counted cannot be erased away: its tax would go with it."""
    k = make_kiosk((800, 480), "en")
    game(k)
    p = Keys(k)
    p.keys(pygame.K_a)
    p.touch(PickCounter("tax"))
    p.touch(PickCommander(1))
    p.touch(AddAmount(1))
    p.touch(ApplyChange())
    p.keys(pygame.K_a)
    to_names(p)
    p.touch(PickCommander(1))
    p.keys(*[pygame.K_BACKSPACE] * len(COMMANDERS[0][1]))
    p.touch(ApplyChange())
    assert texts(k, "status.error") == [
        (
            "Alice's commander \"Kraum, Ludevic's Opus\" has been cast from the command zone already; take those casts "
            "back before removing it."
        )
    ]
    assert k.state is not None and k.state.player(0).commanders == COMMANDERS[0]


# --- the seats ------------------------------------------------------------------------------------


def test_cr903_8_each_partners_tax_is_a_badge_on_the_seat(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    COMMANDER_SCENES["table-tax"](k)
    k.redraw()
    # Each partner named, in full where the tile has the room, else by the first word of the name.
    assert texts(k, "seat0.tax") in (
        ["4", "Tymna the Weaver", "2", "Kraum, Ludevic's Opus"],
        ["4", "Tymna", "2", "Kraum"],
    )
    assert shapes(k, "seat0.tax.icon") == ["tax", "tax"]
    assert texts(k, "seat1.tax") == ["2"]  # one commander: the number alone
    assert texts(k, "seat2.tax") == [] and texts(k, "seat3.tax") == []  # none cast: no badge


# --- readable everywhere (HW-4) ---------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", list(COMMANDER_SCENES))
def test_hw4_no_commander_text_is_cut_or_too_small(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    kiosk = make_kiosk(SIZES[0], language)
    COMMANDER_SCENES[scene](kiosk)
    for size in (*SIZES, (1920, 1080)):
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        assert_readable(kiosk, size)
        assert kiosk.fonts.missing == set()
