"""The counters Commander tables track on the kiosk, played the ways a table plays them: the keys,
touches on the seats and the adjust screen's chips, and the GPIO buttons and encoder on
gpiozero's mock pins, through the kiosk's loop; badges on the seats, day or night in the header
(on each group's seats in a Conspiracy pod), the upkeep banner's reminders; and every such screen
read at every layout in every language, ten players on the smallest panel included (HW-4)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hands import Hands, Wired
from scenes import LANGUAGES, SIZES, assert_readable, drawn, texts
from scenes_counters import COUNTER_SCENES, PLAYERS

from device.commands import NewGame
from device.inputs import Button
from device.rules.counters import BecomeMonarch, ChangeCounter, MakeDayNight, TakeInitiative
from device.state_counters import Counter, DayNight
from device.rules.conspiracy.state import ConspiracyState
from display.canvas import Rect
from display.kiosk import Kiosk
from display.layout import choose
from display.screens.adjust import ApplyChange, PickCounter, PickPlayer, SetDayNight
from display.screens.table import LifeStep, PickSeat
from display.targets import OffscreenTarget
from display.ui import Go, Press

MakeKiosk = Callable[..., Kiosk]
ALL_SIZES = (*SIZES, (1920, 1080))


def game(kiosk: Kiosk, *formats: str, players: tuple[str, ...] = PLAYERS) -> None:
    kiosk.execute(NewGame(formats=formats or ("commander",), players=players, first=players[0]))
    kiosk.redraw()


def shapes(kiosk: Kiosk, role: str) -> list[str]:
    """What the symbols drawn in ``role`` mean (``seat0.monarch``: ["monarch"])."""
    return [s.name for s in kiosk.canvas.shapes if s.role == role]


def last_said(kiosk: Kiosk) -> str:
    return texts(kiosk, "status.messages")[0]


def open_adjust(hands: Hands, seat: int) -> None:
    """The bar's LIFE button (a touch on a seat changes its life there), then the seat's chip."""
    hands.touch(Go("adjust"))
    hands.touch(PickPlayer(seat))


def choose_counter(hands: Hands, kind: str) -> None:
    """Touch the counter row's chips (or the marker beside them) one by one up to ``kind``, as a
    finger walks a row that scrolls."""
    kinds = [
        "life",
        "commander",
        "tax",
        "poison",
        "energy",
        "experience",
        "rad",
        "monarch",
        "initiative",
        "blessing",
        "day_night",
    ]
    for step in kinds[1 : kinds.index(kind) + 1]:
        hands.touch(PickCounter(step))


# --- keys -----------------------------------------------------------------------------------------


def test_keys_give_energy_and_the_crown_and_undo_takes_the_crown_back(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = make_kiosk((800, 480))
    game(kiosk)
    hands = Hands(kiosk)
    hands.keys(pygame.K_RETURN)  # the main phase
    hands.keys(pygame.K_a)  # the adjust screen, for the active player
    hands.keys(pygame.K_TAB, pygame.K_TAB)  # the player row, then the counter row
    hands.keys(*[pygame.K_UP] * 4)  # life → commander damage → commander tax → poison → energy
    assert texts(kiosk, "adjust.label.from") == []  # energy comes from nobody: the row is empty
    hands.keys(pygame.K_TAB)  # past it, to the amount
    hands.keys(pygame.K_UP, pygame.K_UP)
    assert texts(kiosk, "adjust.preview") == ["Alice: 0 → 2"]
    hands.keys(pygame.K_RETURN)
    assert kiosk.ui.screen == "table" and last_said(kiosk) == "Alice: 0 → 2 energy."
    assert texts(kiosk, "seat0.energy") == ["2"] and shapes(kiosk, "seat0.energy.icon") == [
        "energy"
    ]
    hands.keys(pygame.K_a, pygame.K_TAB, pygame.K_TAB)
    hands.keys(*[pygame.K_UP] * 7)  # … rad → monarch
    assert texts(kiosk, "adjust.preview") == ["Alice becomes the monarch"]
    hands.keys(pygame.K_RETURN)
    assert last_said(kiosk) == "Alice becomes the monarch." and shapes(kiosk, "seat0.monarch") == [
        "monarch"
    ]
    hands.keys(pygame.K_BACKSPACE)  # UNDO
    assert (
        last_said(kiosk) == "Undone: Alice becomes the monarch."
        and shapes(kiosk, "seat0.monarch") == []
    )
    assert texts(kiosk, "seat0.energy") == ["2"]


def test_applying_what_is_so_already_is_refused_on_the_status_line(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((480, 320), "pl")
    game(kiosk)
    kiosk.execute(BecomeMonarch(seat=0))
    hands = Hands(kiosk)
    hands.keys(pygame.K_a, pygame.K_TAB, pygame.K_TAB, *[pygame.K_UP] * 7)
    assert texts(kiosk, "adjust.preview") == ["Alice jest monarchą"]
    hands.keys(pygame.K_RETURN)
    assert (
        texts(kiosk, "status.error") == ["Alice już jest monarchą."] and kiosk.ui.screen == "adjust"
    )


# --- touch ----------------------------------------------------------------------------------------


def test_touches_give_a_seat_the_blessing_and_make_it_night(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((480, 320), "ru")
    game(kiosk)
    hands = Hands(kiosk)
    open_adjust(hands, 2)  # さくら's
    choose_counter(hands, "blessing")
    assert texts(kiosk, "adjust.preview") == ["さくら получает благословение города"]
    hands.touch(ApplyChange())
    assert last_said(kiosk) == "Игрок さくら получает благословение города."
    assert shapes(kiosk, "seat2.blessing") == ["blessing"]
    open_adjust(hands, 2)
    choose_counter(hands, "day_night")
    assert texts(kiosk, "adjust.day_night") == ["День", "Ночь"]
    hands.touch(SetDayNight("night"))
    assert texts(kiosk, "adjust.preview") == ["Наступает ночь"]
    hands.touch(ApplyChange())
    assert last_said(kiosk) == "Наступает ночь." and shapes(kiosk, "header.day_night") == ["night"]
    open_adjust(hands, 0)
    choose_counter(hands, "day_night")
    assert texts(kiosk, "adjust.preview") == ["Наступает день"]  # it offers the other one


# --- the GPIO buttons and the encoder ---------------------------------------------------------------


@pytest.fixture
def wired(make_kiosk: MakeKiosk, mock_factory: MockFactory) -> Iterator[Wired]:
    kiosk = make_kiosk((320, 240), "ja")
    game(kiosk)
    kiosk.dispatch(Press(Button.NEXT))
    hands = Wired(kiosk, mock_factory)
    yield hands
    hands.buttons.close()


def test_hw1_the_encoder_and_select_give_the_initiative_and_rad_counters(wired: Wired) -> None:
    kiosk = wired.kiosk
    wired.press(
        Button.NEXT, hold=1.0
    )  # NEXT held on the table: the adjust screen, the active player's
    assert kiosk.ui.screen == "adjust"
    wired.press(Button.SELECT)  # the player row
    wired.press(Button.SELECT)  # the counter row
    wired.turn(8)  # life → commander damage → commander tax → … → initiative
    wired.press(Button.NEXT)
    kiosk.redraw()
    assert last_said(kiosk) == "Aliceがイニシアチブを得ました：アンダーシティに進みます。"
    assert shapes(kiosk, "seat0.initiative") == ["initiative"]
    wired.press(Button.NEXT, hold=1.0)
    wired.press(Button.SELECT)
    wired.press(Button.SELECT)
    wired.turn(6)  # life → … → rad
    wired.press(Button.SELECT)  # past the source to the amount
    wired.turn(3)
    wired.press(Button.NEXT)
    kiosk.redraw()
    assert last_said(kiosk) == "Alice：ラド0 → 3。" and texts(kiosk, "seat0.rad") == ["3"]
    wired.press(Button.UNDO)
    kiosk.redraw()
    assert texts(kiosk, "seat0.rad") == [] and shapes(kiosk, "seat0.initiative") == ["initiative"]


# --- the table: badges, day or night, the upkeep banner ---------------------------------------------


def test_the_seats_show_each_designation_and_counter_and_the_header_the_night(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = make_kiosk((800, 480))
    COUNTER_SCENES["counters"](kiosk)
    kiosk.redraw()
    assert shapes(kiosk, "header.day_night") == ["night"]
    assert shapes(kiosk, "seat2.monarch") == ["monarch"] and shapes(kiosk, "seat0.initiative") == [
        "initiative"
    ]
    assert shapes(kiosk, "seat3.blessing") == ["blessing"]
    assert texts(kiosk, "seat0.energy") == ["3"] and texts(kiosk, "seat1.experience") == ["2"]
    assert texts(kiosk, "seat3.rad") == ["4"] and texts(kiosk, "seat0.poison") == ["3"]
    assert texts(kiosk, "seat2.cmd") == ["7"]


def test_the_upkeep_banner_reminds_the_active_player_in_the_turns_order(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = make_kiosk((800, 480))
    COUNTER_SCENES["counters-upkeep"](kiosk)
    kiosk.redraw()
    assert texts(kiosk, "banner.item") == [
        "• Untap, upkeep triggers, draw a card",
        "• Day: night comes if the last turn's player cast no spells",
        "• The initiative: venture into Undercity",
        "• Rad: mill 2 cards at the main phase; each nonland card costs 1 life and a rad counter",
        "• Monarch: draw a card at the end step",
    ]


def test_tb6_each_player_of_the_active_team_with_rad_counters_is_reminded(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = make_kiosk((800, 480), "pl")
    game(kiosk, "commander", "two_headed_giant")
    kiosk.execute(ChangeCounter(seat=1, counter=Counter.RAD, delta=1))
    kiosk.execute(TakeInitiative(seat=1))  # Юрий's, the team's: their upkeep too
    kiosk.execute(BecomeMonarch(seat=2))  # the other team's: not now
    kiosk.redraw()
    assert texts(kiosk, "banner.item")[1:] == [
        "• Inicjatywa: zapuść się w Podmiasto",
        "• Promieniowanie, Юрий: w fazie głównej odłóż na cmentarz 1 wierzchnią kartę biblioteki; każda karta "
        "niebędąca lądem kosztuje 1 życie i znacznik promieniowania",
    ]


def test_cj_in_a_pod_each_groups_day_or_night_is_on_its_seats(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((800, 480))
    kiosk.execute(
        NewGame(
            formats=("conspiracy",),
            players=("A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"),
            first="A1",
        )
    )
    one, two = kiosk.state.part(ConspiracyState).groups
    kiosk.execute(MakeDayNight(day_night=DayNight.NIGHT, group_of=two.order[0]))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert shapes(kiosk, "header.day_night") == []
    for seat in two.order:
        assert shapes(kiosk, f"seat{seat}.night") == ["night"]
    for seat in one.order:
        assert shapes(kiosk, f"seat{seat}.night") == []


# --- readable at every layout in every language (HW-4) ----------------------------------------------


def _overlap(a: Rect, b: Rect) -> bool:
    return pygame.Rect(a).colliderect(pygame.Rect(b))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", list(COUNTER_SCENES))
def test_hw4_no_text_is_cut_and_no_badge_covers_a_life_total(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    """HW-4: every layout and 1920×1080, every language: nothing cut or below ``tiny``, touch
    targets a finger tall, and every badge (icon or number) clear of every life total."""
    kiosk = make_kiosk(SIZES[0], language)
    COUNTER_SCENES[scene](kiosk)
    for size in ALL_SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        assert_readable(kiosk, size)
        assert kiosk.fonts.missing == set()
        lives = [
            d.rect for d in kiosk.canvas.drawn if d.role.endswith(".life")
        ]  # recorded by their ink
        badges = [s.rect for s in kiosk.canvas.shapes if s.role.startswith("seat")]
        badges += [
            d.rect
            for d in kiosk.canvas.drawn
            if d.role.startswith("seat")
            and not d.role.endswith((".life", ".name", ".lost", ".badges"))
        ]
        for life in lives:
            assert not any(_overlap(life, badge) for badge in badges), (size, life)


def test_hw4_ten_players_on_the_smallest_panel_keep_every_life_total_readable(
    make_kiosk: MakeKiosk,
) -> None:
    """Ten players with badges on a 320×240 panel: every life total is drawn whole, at the layout's
    ``small`` size at least, and every badge is on its own seat."""
    for language in LANGUAGES:
        kiosk = make_kiosk((320, 240), language)
        COUNTER_SCENES["counters-ten"](kiosk)
        kiosk.redraw()
        layout = choose(320, 240)
        for seat in range(10):
            [life] = drawn(kiosk, f"seat{seat}.life")
            assert life.size >= layout.small and not life.cut, (language, seat, life)
        seats: dict[int, pygame.Rect] = {}
        for target in kiosk.canvas.targets:  # a seat, or its halves where a finger can hit them
            if isinstance(target.action, PickSeat | LifeStep):
                seat = target.action.seat
                seats[seat] = pygame.Rect(target.rect).union(seats.get(seat, target.rect))
        for shape in kiosk.canvas.shapes:
            if shape.role.startswith("seat"):
                seat = int(shape.role.split(".")[0].removeprefix("seat"))
                assert pygame.Rect(seats[seat]).contains(pygame.Rect(shape.rect)), (language, shape)
        assert shapes(kiosk, "seat1.monarch") == ["monarch"] and shapes(
            kiosk, "seat6.initiative"
        ) == ["initiative"]
        assert texts(kiosk, "seat9.rad") == ["6"] and texts(kiosk, "seat2.energy") == ["12"]
