"""The set-up screen as a playgroup meets it (TB-1, TB-2, TB-5): seats whose default name is a
hint rather than text, the last game's players offered again, every table option in the
screen's language grouped under its module, rows a finger can hit, and nothing cut or shrunk
below the smallest type at any layout.  Driven by keys, typed text and touches only."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest
from gpiozero.pins.mock import MockFactory

from device.game import GAME
from device.commands import Concede, NewGame
from device.inputs import Button
from device.rules.colours import colour_of
from device.text import Message
from display import theme
from display.i18n import Translator
from display.kiosk import Kiosk
from display.screens.setup import SeatColour, SetupForm, SetupRow, rows
from display.targets import OffscreenTarget
from display.ui import Go
from hands import Hands, Wired
from scenes import LANGUAGES, SIZES, drawn, texts
from scenes_conspiracy import ELEVEN, start_event

MakeKiosk = Callable[..., Kiosk]


class Keys(Hands):
    """Keys, typed text and touches on the set-up screen, as a person gives them."""

    @property
    def form(self) -> SetupForm:
        form = self.kiosk.ui.kept(SetupForm)
        assert form is not None
        return form

    def to(self, kind: str, key: str = "") -> None:
        """→ or ← until the row has the focus."""
        wanted = rows(self.form).index((kind, key))
        while self.form.row != wanted:
            self.keys(pygame.K_RIGHT if self.form.row < wanted else pygame.K_LEFT)


def test_tb1_a_seats_default_name_is_a_hint_that_typing_replaces(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("name", "0")
    assert p.says("setup.caret.name") == ["_"]
    assert p.says("setup.placeholder.name")[:2] == ["Player 1", "Player 2"]
    assert p.says("setup.value.name") == []
    p.keys(text="A")  # the first character replaces the hint
    assert p.says("setup.value.name") == ["A_"]
    assert p.says("setup.placeholder.name")[0] == "Player 2"
    p.keys(text="lice")
    assert p.says("setup.value.name") == ["Alice_"]
    p.keys(*[pygame.K_BACKSPACE] * 5)  # everything erased: the hint is back
    assert p.says("setup.value.name") == []
    assert p.says("setup.placeholder.name")[:2] == ["Player 1", "Player 2"]
    assert p.says("setup.caret.name") == ["_"]
    p.keys(pygame.K_BACKSPACE)  # nothing left to erase
    assert p.says("setup.placeholder.name")[0] == "Player 1"
    p.keys(text="Alice")
    p.to("name", "2")
    p.keys(text="Cyd")  # seat 2 left alone, and every commander
    p.to("name", "3")
    p.keys(
        pygame.K_RETURN, pygame.K_RETURN
    )  # on past the last seat and its commander, left alone too
    p.keys(pygame.K_RETURN)  # Enter off the name rows starts
    assert k.state is not None
    assert [pl.name for pl in k.state.players] == ["Alice", "Player 2", "Cyd", "Player 4"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_tb1_a_name_longer_than_a_game_takes_is_refused_where_it_is_typed(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """TB-1: a 40-character name typed (or pasted) on a seat is refused with the reason the
    console gives, on the set-up screen, and the seat keeps what it had; up to 24 characters are
    taken, and the 25th is refused in turn."""
    k = make_kiosk((320, 240), language)
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("name", "0")
    p.keys(text="x" * 40)
    assert p.form.names[0] == "" and k.ui.screen == "setup"
    said = Translator(language).message(Message("table.name_long", name="x" * 40, limit=24))
    assert " ".join(p.says("status.error")) == said
    p.keys(text="y" * 24)
    assert p.form.names[0] == "y" * 24
    p.keys(text="z")
    assert p.form.names[0] == "y" * 24
    assert " ".join(p.says("status.error")) == Translator(language).message(
        Message("table.name_long", name="y" * 24 + "z", limit=24)
    )


def test_tb1_an_untyped_seat_starts_with_the_hint_in_the_screens_language(
    make_kiosk: MakeKiosk,
) -> None:
    k = make_kiosk((800, 480), "en")
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("language")
    p.keys(pygame.K_UP)  # English → Russian: the hints follow
    p.to("name", "1")
    assert p.says("setup.placeholder.name")[:2] == ["Игрок 1", "Игрок 2"]
    p.keys(text="Вера")
    p.to("start")
    p.keys(pygame.K_RETURN)
    assert k.state is not None
    assert [pl.name for pl in k.state.players] == ["Игрок 1", "Вера", "Игрок 3", "Игрок 4"]


def test_cj1_an_events_name_is_a_hint_too(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "pl")
    p = Keys(k)
    p.keys(pygame.K_F2)
    while p.form.base != "conspiracy":
        p.keys(pygame.K_UP)
    p.to("event")
    assert p.says("setup.placeholder.event") == ["Turniej"]
    p.keys(text="Kraków")
    assert p.says("setup.value.event") == ["Kraków_"]
    assert p.says("setup.placeholder.event") == []


def test_tb2_set_up_offers_the_last_games_players_again(make_kiosk: MakeKiosk) -> None:
    """Set-up, start, set-up again: formats, table options and names are there; NEXT starts
    the same table's next game (who goes first is drawn again)."""
    k = make_kiosk((800, 480), "en")
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("module", "planechase")
    p.keys(pygame.K_UP)
    p.to("count")
    p.keys(pygame.K_DOWN)  # three players
    p.to("name", "0")
    p.keys(text="Ann")
    p.keys(
        pygame.K_RIGHT, pygame.K_RIGHT, text="Bea"
    )  # past Ann's commander; seat 3 keeps its hint
    p.to("first")
    p.keys(pygame.K_UP)  # Ann first
    p.to("option", "planar_deck_size")
    p.keys(pygame.K_UP, pygame.K_UP)  # 12 cards
    p.to("start")
    p.keys(pygame.K_RETURN)
    first = k.game
    assert k.state is not None and [pl.name for pl in k.state.players] == ["Ann", "Bea", "Player 3"]
    assert k.state.options["planar_deck_size"] == 12

    p.keys(pygame.K_F2)
    assert p.says("setup.value.base") == ["Commander"]
    assert p.says("setup.value.module") == [
        "on",
        "off",
        "off",
    ]  # Planechase, Contraptions, Two-Headed Giant
    p.to("count")
    assert p.says("setup.value.count") == ["3"]
    for seat, shown in enumerate(("Ann_", "Bea_")):  # commander rows between the names: one by one
        p.to("name", str(seat))
        assert shown in p.says("setup.value.name")
    p.to("name", "2")
    assert "Player 3" in p.says("setup.placeholder.name")
    p.to("first")
    assert p.says("setup.value.first") == ["random"]
    p.to("option", "planar_deck_size")
    assert p.says("setup.value.option")[p.says("setup.label.option").index("Deck size")] == "12"
    p.keys(pygame.K_RETURN)
    assert k.game != first
    state = k.state
    assert state is not None and state.formats == ("commander", "planechase")
    assert [pl.name for pl in state.players] == ["Ann", "Bea", "Player 3"]
    assert state.options["planar_deck_size"] == 12


def test_tb2_a_finished_game_started_elsewhere_is_offered_too(make_kiosk: MakeKiosk) -> None:
    """A game from the console (or resumed at start) that has just ended: its table, in the
    Wizard's Duel with a table option, fills the form the first time set-up opens."""
    k = make_kiosk((480, 320), "pl")
    k.execute(
        NewGame(
            formats=("wizards_duel",),
            players=("Ala", "Ola", "Ewa"),
            first="Ala",
            options={"magic_lesson": "on"},
        )
    )
    k.execute(Concede(seat=1))
    k.execute(Concede(seat=2))
    p = Keys(k)
    p.touch(Go("setup"))  # the bar's NEW button
    assert k.ui.screen == "setup"
    form = p.form
    assert (form.base, form.chosen(), form.count, list(form.names[:3])) == (
        "wizards_duel",
        ["wizards_duel"],
        3,
        ["Ala", "Ola", "Ewa"],
    )
    assert form.options == {"magic_lesson": True}
    p.to("name", "0")
    p.keys(*[pygame.K_BACKSPACE] * 3, text="Iza")  # changed, then back to the table and here again
    p.keys(pygame.K_ESCAPE, pygame.K_F2)
    assert list(p.form.names[:3]) == ["Iza", "Ola", "Ewa"]


def test_cj1_set_up_after_an_event_offers_every_pods_players(make_kiosk: MakeKiosk) -> None:
    k = make_kiosk((800, 480), "en")
    start_event(k, "Kyoto", ELEVEN)
    k.ui.said = []  # the event's opening message read: the status line is one line again
    p = Keys(k)
    p.keys(pygame.K_F2)
    form = p.form
    assert (form.base, form.count, form.event, tuple(form.names[:11])) == (
        "conspiracy",
        11,
        "Kyoto",
        ELEVEN,
    )
    p.to("count")
    assert p.says("setup.value.count") == ["11 (pods: 6 + 5)"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_screen_says_no_game_once_and_how_to_start(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """With no game the body says so and names the keys and buttons that start one; the header
    names the gadget instead of saying it again.  NEXT opens the set-up."""
    tr = Translator(language)
    k = make_kiosk((800, 480), language)
    for size in SIZES:
        k.retarget(OffscreenTarget(size))
        k.redraw()
        said = texts(k)
        assert said.count(tr("ui.no_game")) == 1, size
        assert texts(k, "header.headline") == ["aetherbox"]
        assert texts(k, "nogame.hint") == [tr("ui.no_game_hint")], size
        assert [
            d
            for d in k.canvas.drawn
            if d.role.startswith("nogame") and (d.cut or d.size < k.canvas.layout.tiny)
        ] == []
    hint = tr("ui.no_game_hint")
    assert (
        "Enter" in hint
        and "F2" in hint
        and tr("ui.btn.next") in hint
        and tr("ui.btn.setup") in hint
    )
    p = Keys(k)
    p.keys(pygame.K_RETURN)
    assert k.ui.screen == "setup" and k.state is None
    assert k.ui.error is None  # not refused: there was nothing to advance


# --- every row, every layout, every language: nothing cut, nothing too small -------------------


def _ct_pc(k: Kiosk) -> None:
    """Planechase and Contraptions on, options away from their defaults (the longest values)."""
    p = Keys(k)
    p.keys(pygame.K_F2)
    for module in ("planechase", "contraptions"):
        p.to("module", module)
        p.keys(pygame.K_UP)
    for option, turns in (
        ("contraptions", 2),
        ("declined", 1),
        ("contraption_cards", 1),
        ("planar_deck", -1),
        ("turn_markers", 0),
        ("communal_deck", 1),
    ):
        p.to("option", option)
        p.keys(*[pygame.K_UP if turns > 0 else pygame.K_DOWN] * abs(turns))


def _plain(k: Kiosk) -> None:
    Keys(k).keys(pygame.K_F2)


def _event(k: Kiosk) -> None:
    start_event(k, "Kyoto", ELEVEN)
    Keys(k).keys(pygame.K_F2)  # the event's players offered again


FORMS = {"plain": _plain, "planechase+contraptions": _ct_pc, "event": _event}
ALL_SIZES = (*SIZES, (1920, 1080))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("form", list(FORMS))
def test_hw4_no_setup_text_is_cut_or_too_small_and_every_row_is_a_touch_target(
    make_kiosk: MakeKiosk, language: str, form: str
) -> None:
    """Every row focused in turn (so every help shows and the list scrolls end to end), every
    choice of every option turned through (on the small panels), at each layout: no text on the
    frame is cut or shrunk below ``Layout.tiny`` (but the status line, below), the help takes
    two lines at most, every glyph is in the bundled fonts, every row is at least
    ``Layout.touch`` high, and the arrows show exactly when rows are hidden above or below."""
    k = make_kiosk((800, 480), language)
    FORMS[form](k)
    assert k.ui.screen == "setup"
    problems: list[str] = []
    table = rows(Keys(k).form)
    for size in ALL_SIZES:
        k.retarget(OffscreenTarget(size))
        p = Keys(k)
        p.to(*table[0])
        for index, (kind, key) in enumerate(table):
            p.to(kind, key)
            choices = 1
            if kind == "option" and size[0] <= 480:  # the longest values matter where room is least
                option = GAME.formats.options_for(p.form.chosen())[key]
                choices = len(option.choices) if option.choices else 1
            for _ in range(choices):
                k.redraw()
                lay = k.canvas.layout
                for d in k.canvas.drawn:
                    # The status line is every screen's one line of news (here: what the event's
                    # start said), cut to fit wherever it is shown; it is not the form's.
                    if (d.cut or d.size < lay.tiny) and not d.role.startswith("status."):
                        problems.append(
                            f"{size} {kind}:{key}: {d.role} {d.text!r} cut={d.cut} size={d.size}"
                        )
                if len(texts(k, "setup.hint")) > 2:
                    problems.append(
                        f"{size} {kind}:{key}: help on {len(texts(k, 'setup.hint'))} lines"
                    )
                shown = [t.action.row for t in k.canvas.targets if isinstance(t.action, SetupRow)]
                heights = [t.rect[3] for t in k.canvas.targets if isinstance(t.action, SetupRow)]
                assert index in shown and min(heights) >= lay.touch, (size, kind, key, heights)
                assert (texts(k, "setup.more.up") == ["↑"]) == (min(shown) > 0), (size, index)
                assert (texts(k, "setup.more.down") == ["↓"]) == (max(shown) < len(table) - 1), (
                    size,
                    index,
                )
                if choices > 1:
                    p.keys(pygame.K_UP)
    assert problems == []
    assert k.fonts.missing == set()


def test_tb6_two_headed_giant_is_set_up_and_played_with_keys(make_kiosk: MakeKiosk) -> None:
    """TB-6 on the kiosk: Two-Headed Giant is a row of the set-up; with Commander and four players
    it starts with 60 shared life; NEXT passes the turn from team to team, the headline and the
    upkeep name the team and both its seats are highlighted; a hit on one player is the team's."""
    k = make_kiosk((800, 480), "en")
    p = Keys(k)
    p.keys(pygame.K_F2)
    p.to("module", "two_headed_giant")
    p.keys(pygame.K_UP)  # on
    p.to("count")
    while p.form.count < 4:
        p.keys(pygame.K_UP)
    p.to("first")
    p.keys(pygame.K_RETURN)
    state = k.state
    assert state is not None and state.formats == ("commander", "two_headed_giant")
    assert [pl.life for pl in state.players] == [60, 60, 60, 60]
    first = state.active
    assert first % 2 == 0  # the team's primary player leads
    k.redraw()
    team = f"{state.player(first).name} & {state.player(first + 1).name}"
    assert k.ui.screen == "dice" and p.says("dice.player") == [
        team
    ]  # the gadget drew the first team (TB-5)
    p.keys(pygame.K_ESCAPE)  # seen: the table
    assert p.says("header.headline") == [f"{team}'s upkeep"]
    assert p.says("banner.title") == [f"{team}: upkeep"]
    p.keys(pygame.K_RETURN, pygame.K_RETURN)  # main phase, then the next team's upkeep
    assert k.state is not None and k.state.active == (first + 2) % 4
    assert k.state.turn == 2
    p.keys(
        pygame.K_t, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_PAGEDOWN, pygame.K_RETURN
    )  # −6 to a seat
    lives = [pl.life for pl in k.state.players]
    hit = next(seat for seat, life in enumerate(lives) if life < 60)
    assert lives[hit] == lives[hit ^ 1] == 54 and sorted(lives) == [54, 54, 60, 60]


# --- players' colours -------------------------------------------------------------------------------


def shown_colour(kiosk: Kiosk, action: object) -> tuple[int, int, int]:
    """The colour drawn in the middle of the touch target that does ``action``."""
    x, y, w, h = next(t.rect for t in kiosk.canvas.targets if t.action == action)
    r, g, b, _ = kiosk.canvas.surface.get_at((x + w // 2, y + h // 2))
    return r, g, b


def test_each_players_row_shows_their_colour_the_encoder_and_a_tap_change_it(
    make_kiosk: MakeKiosk, mock_factory: MockFactory
) -> None:
    k = make_kiosk((480, 320), "en")
    p = Keys(k)
    p.keys(pygame.K_F2)
    assert p.form.seat_colours() == ("red", "blue", "green", "yellow")
    for seat, colour in enumerate(("red", "blue", "green", "yellow")):
        p.to("name", str(seat))  # the rows scroll to the focused one
        assert shown_colour(k, SeatColour(seat)) == theme.PLAYER[colour]
    p.to("name", "0")
    p.keys(pygame.K_UP)  # red → blue: Player 2, who had blue, takes red
    assert p.form.seat_colours() == ("blue", "red", "green", "yellow")
    p.keys(pygame.K_DOWN, pygame.K_DOWN)  # back past red to the last colour
    assert p.form.seat_colours() == ("brown", "blue", "green", "yellow")
    p.to("name", "2")
    p.touch(SeatColour(2))  # a tap on the square: the next colour
    assert p.form.seat_colours() == ("brown", "blue", "yellow", "green")
    assert shown_colour(k, SeatColour(2)) == theme.PLAYER["yellow"]
    p.to("name", "0")
    wired = Wired(k, mock_factory)
    try:
        wired.press(Button.SELECT)  # the next rows: seat 1's commander, then seat 2
        wired.press(Button.SELECT)
        wired.turn(1)  # the encoder: blue → green, which seat 3 had
        assert p.form.seat_colours() == ("brown", "green", "yellow", "blue")
    finally:
        wired.buttons.close()
    p.to("start")
    p.keys(pygame.K_RETURN)
    state = k.state
    assert state is not None and [colour_of(pl) for pl in state.players] == [
        "brown",
        "green",
        "yellow",
        "blue",
    ]
    # The table shows each seat's name on its colour; set-up offers the same colours again.
    p.keys(pygame.K_ESCAPE)
    [name] = drawn(
        k, "seat0.name"
    )  # on the plate of the seat's colour, just above the name's letters
    r, g, b, _ = k.canvas.surface.get_at((name.rect[0] - 2, name.rect[1] + 1))
    assert (r, g, b) == theme.PLAYER["brown"]
    p.keys(pygame.K_F2)
    assert p.form.seat_colours() == ("brown", "green", "yellow", "blue")
