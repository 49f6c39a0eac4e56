"""The dice screen, played the ways a table plays it: the keys, touches on the bar and the chips,
and the GPIO buttons and encoder on gpiozero's mock pins, through the kiosk's loop; the tumble is
a deadline that never delays the result; a drawn starting player (TB-5) is shown before the
table; and the screen reads at every layout in every language (HW-4)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hands import Hands, Wired
from scenes import LANGUAGES, SIZES, drawn, texts
from scenes_dice import DICE_PLAYERS, DICE_SCENES, chip

from device.commands import NewGame
from device.inputs import Button
from device.rules.dice import RollDice
from device.state_dice import DiceState
from device.rules.planechase.state import PlanechaseState
from display.kiosk import Kiosk
from display.screens.dice import REVEAL, DiceChip, DiceForm, DiceReveal
from display.targets import OffscreenTarget
from display.ui import Go, MenuButton, MoreButtons, Press

MakeKiosk = Callable[..., Kiosk]
ALL_SIZES = (*SIZES, (1920, 1080))


def game(
    kiosk: Kiosk,
    *formats: str,
    first: str | None = DICE_PLAYERS[0],
    players: tuple[str, ...] = DICE_PLAYERS,
) -> None:
    kiosk.execute(NewGame(formats=formats or ("commander",), players=players, first=first))
    kiosk.redraw()


def throws(kiosk: Kiosk) -> int:
    state = kiosk.state
    assert state is not None
    return 0 if state.dice is None else state.dice.count


def last_said(kiosk: Kiosk) -> str:
    return texts(kiosk, "status.messages")[0]


# --- keys -----------------------------------------------------------------------------------------


def test_keys_open_the_dice_move_between_chips_throw_undo_and_go_back(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = make_kiosk((800, 480))
    game(kiosk)
    hands = Hands(kiosk)
    hands.keys(pygame.K_d)
    assert kiosk.ui.screen == "dice"
    assert texts(kiosk, "dice.none") == [
        "Nothing thrown yet: pick a die, the coin or a random player."
    ]
    hands.keys(pygame.K_UP, pygame.K_UP)  # the encoder's clockwise turns: d6 → 2d6 → d20
    hands.keys(pygame.K_TAB)  # SELECT throws the chip under the cursor
    assert texts(kiosk, "dice.caption") == ["d20"]
    [face] = texts(kiosk, "dice.face")
    assert 1 <= int(face) <= 20 and last_said(kiosk) == f"d20: {face}."
    hands.keys(pygame.K_UP)  # the coin
    hands.keys(pygame.K_SPACE)  # ROLL throws too (not the planar die: this screen's chip)
    assert texts(kiosk, "dice.caption") == ["Coin"] and texts(kiosk, "dice.coin")[0] in (
        "Heads",
        "Tails",
    )
    assert texts(kiosk, "dice.history") == [f"1. d20: {face}."]
    hands.keys(pygame.K_BACKSPACE)  # UNDO takes the coin back and says so
    assert last_said(kiosk).startswith("Undone: Coin: ")
    assert texts(kiosk, "dice.caption") == ["d20"] and texts(kiosk, "dice.face") == [face]
    hands.keys(pygame.K_y)  # redo
    assert texts(kiosk, "dice.caption") == ["Coin"]
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=pygame.KMOD_SHIFT, unicode="")
    )
    kiosk.settle()
    assert kiosk.ui.screen == "table"  # ROLL held (Shift+Space) on the dice goes back
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=pygame.KMOD_SHIFT, unicode="")
    )
    kiosk.settle()
    assert kiosk.ui.screen == "dice"  # and from the table comes back
    assert throws(kiosk) == 2


def test_on_the_dice_roll_throws_the_chip_and_elsewhere_rolls_the_planar_die(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = make_kiosk((800, 480))
    game(kiosk, "commander", "planechase")
    hands = Hands(kiosk)
    hands.keys(pygame.K_RETURN)  # the main phase
    hands.keys(pygame.K_d, pygame.K_SPACE)
    state = kiosk.state
    assert state is not None and state.planechase is not None
    assert throws(kiosk) == 1 and state.planechase.rolls == ()
    hands.keys(pygame.K_ESCAPE, pygame.K_SPACE)
    assert kiosk.ui.screen == "planechase" and len(kiosk.state.part(PlanechaseState).rolls) == 1


# --- touch ----------------------------------------------------------------------------------------


def test_touches_on_the_bar_and_the_chips(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((800, 480))
    game(kiosk)
    hands = Hands(kiosk)
    hands.touch(Go("dice"))  # the bar's DICE button
    assert kiosk.ui.screen == "dice"
    hands.touch(chip(4))  # Random player
    assert texts(kiosk, "dice.caption") == ["Random player"]
    [name] = texts(kiosk, "dice.player")
    assert name in DICE_PLAYERS and last_said(kiosk) == f"Random player: {name}."
    hands.touch(chip(1))  # 2d6
    state = kiosk.state
    assert state is not None and state.dice is not None and state.dice.last is not None
    total = state.dice.last.total
    assert texts(kiosk, "dice.total") == [f"= {total}"] and 2 <= total <= 12
    hands.touch(Press(Button.UNDO))
    assert texts(kiosk, "dice.caption") == ["Random player"]


def test_on_a_small_panel_the_dice_are_in_the_bars_menu(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((320, 240), "ru")
    game(kiosk, "commander", "planechase")
    hands = Hands(kiosk)
    assert Go("dice") not in [t.action for t in kiosk.canvas.targets]
    hands.touch(MoreButtons())
    hands.touch(MenuButton(Go("dice")))
    assert kiosk.ui.screen == "dice"
    assert texts(kiosk, "dice.chip") == ["к6", "2к6", "к20", "Монета", "Случайный игрок"]
    hands.touch(chip(3))
    assert texts(kiosk, "dice.coin")[0] in ("Орёл", "Решка")


# --- the GPIO buttons and the encoder ---------------------------------------------------------------


@pytest.fixture
def wired(make_kiosk: MakeKiosk, mock_factory: MockFactory) -> Iterator[Wired]:
    kiosk = make_kiosk((480, 320), "pl")
    game(kiosk)
    hands = Wired(kiosk, mock_factory)
    yield hands
    hands.buttons.close()


def test_hw1_roll_held_opens_the_dice_the_encoder_picks_select_throws(wired: Wired) -> None:
    kiosk = wired.kiosk
    wired.press(Button.ROLL, hold=1.0)  # past hold_time: a long press
    assert kiosk.ui.screen == "dice"
    wired.turn(2)  # k6 → 2k6 → k20
    wired.press(Button.SELECT)
    kiosk.redraw()
    assert texts(kiosk, "dice.caption") == ["k20"]
    [face] = texts(kiosk, "dice.face")
    assert last_said(kiosk) == f"k20: {face}."
    wired.turn(2)  # the random player
    wired.press(Button.ROLL)  # a short ROLL throws the chip
    kiosk.redraw()
    assert texts(kiosk, "dice.caption") == ["Losowy gracz"]
    wired.press(Button.UNDO)
    kiosk.redraw()
    assert texts(kiosk, "dice.caption") == ["k20"] and last_said(kiosk).startswith(
        "Cofnięto: Losowy gracz: "
    )
    wired.press(Button.ROLL, hold=1.0)
    assert kiosk.ui.screen == "table"
    assert throws(kiosk) == 1


def test_hw1_a_bouncing_select_throws_once(wired: Wired) -> None:
    kiosk = wired.kiosk
    wired.press(Button.ROLL, hold=1.0)
    pin = wired.factory.pin(wired.config.select)
    for step in range(10):  # chatter as the contact closes, then held, then chatter as it opens
        pin.drive_low() if step % 2 == 0 else pin.drive_high()
        wired.now += 0.001
        wired.buttons.poll()
    pin.drive_low()
    wired.now += 0.2
    wired.buttons.poll()
    for step in range(9):
        pin.drive_high() if step % 2 == 0 else pin.drive_low()
        wired.now += 0.002
        wired.buttons.poll()
    wired.now += 0.1
    wired.buttons.poll()
    kiosk.settle()
    assert throws(kiosk) == 1


# --- the tumble -------------------------------------------------------------------------------------


def test_the_tumble_is_a_deadline_that_never_changes_the_result(make_kiosk: MakeKiosk) -> None:
    now = [1000.0]
    kiosk = make_kiosk((800, 480), clock=lambda: now[0])
    game(kiosk)
    kiosk.dispatch(Go("dice"))
    kiosk.dispatch(chip(0))
    kiosk.redraw()
    state = kiosk.state
    assert state is not None and state.dice is not None and state.dice.last is not None
    face = state.dice.last.faces
    frames = kiosk.frames
    first = kiosk.deadline()
    assert first is not None and first - now[0] == pytest.approx(1 / kiosk.fps)
    for _ in range(60):
        deadline = kiosk.deadline()
        if deadline is None or deadline > 1000.0 + 5:
            break
        now[0] = deadline
        kiosk.step(block=False)
        assert kiosk.state.part(DiceState).last.faces == face
    assert kiosk.frames > frames + 5  # it animated
    form = kiosk.ui.kept(DiceForm)
    assert form is not None and form.tumbling(now[0]) is None
    kiosk.ui.messages_until = None
    assert kiosk.deadline() is None  # and then sleeps


# --- TB-5: the draw of the starting player, shown -----------------------------------------------------


def test_tb5_a_game_started_at_set_up_with_a_drawn_first_player_shows_the_draw_then_the_table(
    make_kiosk: MakeKiosk,
) -> None:
    now = [1000.0]
    kiosk = make_kiosk((800, 480), "ja", clock=lambda: now[0])
    hands = Hands(kiosk)
    hands.keys(pygame.K_F2)
    form_rows = 0
    while kiosk.ui.screen == "setup" and form_rows < 40:  # Tab through the rows to "Start the game"
        hands.keys(pygame.K_RETURN)
        form_rows += 1
    state = kiosk.state
    assert state is not None and kiosk.ui.screen == "dice"
    drawn_name = state.player(state.starting_player).name
    assert texts(kiosk, "dice.caption") == ["先手"] and texts(kiosk, "dice.player") == [drawn_name]
    deadline = kiosk.deadline()
    assert deadline is not None and deadline <= 1000.0 + REVEAL
    now[0] = 1000.0 + REVEAL
    kiosk.step(block=False)
    assert kiosk.ui.screen == "table"


def test_tb5_a_button_during_the_draw_goes_on_to_the_table_and_acts_there(
    make_kiosk: MakeKiosk,
) -> None:
    """A Wizard's Duel's first ROLL rolls the element dice, not a d6 on the draw's screen."""
    kiosk = make_kiosk((800, 480))
    game(kiosk, "wizards_duel", first=None, players=DICE_PLAYERS[:3])
    assert kiosk.ui.screen == "dice"
    Hands(kiosk).keys(pygame.K_SPACE)
    state = kiosk.state
    assert state is not None and state.wizards_duel is not None
    assert kiosk.ui.screen == "table" and throws(kiosk) == 1  # only the draw
    assert all(w.rolled for w in state.wizards_duel.wizards)


def test_tb5_a_touch_on_the_draw_goes_on_to_the_table(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((480, 320))
    game(kiosk, first=None)
    assert kiosk.ui.screen == "dice"
    Hands(kiosk).touch(DiceReveal())
    assert kiosk.ui.screen == "table" and throws(kiosk) == 1


def test_tb5_a_screen_asked_for_during_the_draw_comes_up(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((800, 480))
    game(kiosk, first=None)
    Hands(kiosk).keys(pygame.K_F2)
    assert kiosk.ui.screen == "setup"
    form = kiosk.ui.kept(DiceForm)
    assert form is not None and form.reveal is None


def test_tb5_a_draw_left_another_way_is_not_shown_again(make_kiosk: MakeKiosk) -> None:
    now = [1000.0]
    kiosk = make_kiosk((800, 480), clock=lambda: now[0])
    game(kiosk, first=None)
    kiosk.go(
        "table"
    )  # as another screen's ``after`` may (a card tapped on the reader brings up its screen)
    now[0] += 60
    Hands(kiosk).keys(pygame.K_d)
    assert kiosk.ui.screen == "dice"
    form = kiosk.ui.kept(DiceForm)
    assert form is not None and form.reveal is None
    kiosk.step(block=False)
    assert kiosk.ui.screen == "dice"  # not sent on to the table by the old draw's deadline


def test_tb5_a_chosen_first_player_or_a_conspiracy_pod_opens_on_the_table(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = make_kiosk((800, 480))
    game(kiosk)
    assert kiosk.ui.screen == "table"
    pod = make_kiosk((800, 480))
    game(pod, "conspiracy", first=None, players=(*DICE_PLAYERS, "Ben", "Ola", "Ewa", "Iza"))
    assert pod.ui.screen == "table"  # a pod's draw is its groups, on its own screen


# --- HW-4: every layout, every language ------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", list(DICE_SCENES))
def test_hw4_the_dice_read_at_every_layout(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    """No text cut or below ``tiny``, every touch target a fingertip tall, every chip in view or
    behind a marker, no character without a font, and the result itself always drawn."""
    kiosk = make_kiosk(SIZES[0], language)
    DICE_SCENES[scene](kiosk)
    assert kiosk.ui.screen == "dice"
    for size in ALL_SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        layout = kiosk.canvas.layout
        for d in kiosk.canvas.drawn:
            assert not d.cut, (size, d)
            assert d.size >= layout.tiny, (size, d)
        for target in kiosk.canvas.targets:
            assert target.rect[3] >= layout.touch, (size, target)
        chips = {t.action.index for t in kiosk.canvas.targets if isinstance(t.action, DiceChip)}
        markers = drawn(kiosk, "dice.chip.more")
        assert chips == set(range(5)) or markers, size
        result = [
            *texts(kiosk, "dice.coin"),
            *texts(kiosk, "dice.player"),
            *texts(kiosk, "dice.total"),
            *texts(kiosk, "dice.face"),
        ]
        state = kiosk.state
        assert state is not None and state.dice is not None and state.dice.last is not None
        assert result or state.dice.last.sides == 6, size  # a single d6 shows its pips
        panel = next(d for d in kiosk.canvas.drawn if d.role == "dice.caption").rect
        chip_rects = [t.rect for t in kiosk.canvas.targets if isinstance(t.action, DiceChip)]
        assert all(r[0] > panel[0] + panel[2] for r in chip_rects), (
            size
        )  # the chips beside the result
    assert kiosk.fonts.missing == set()


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_no_english_is_left_on_the_translated_screen(make_kiosk: MakeKiosk, language: str) -> None:
    kiosk = make_kiosk((800, 480), language)
    DICE_SCENES["dice"](kiosk)
    kiosk.redraw()
    english = make_kiosk((800, 480), "en")
    DICE_SCENES["dice"](english)
    english.redraw()
    for role in ("dice.chip", "dice.history.title", "dice.hint", "dice.history"):
        words = texts(english, role)
        translated = texts(kiosk, role)
        assert len(words) == len(translated)
        changed = [a for a, b in zip(words, translated, strict=True) if a != b]
        if role == "dice.chip" and language == "ja":
            assert changed == [
                "Coin",
                "Random player",
            ]  # d6, 2d6 and d20 are written so in Japanese too
        else:
            assert changed == words, (role, translated)


def test_the_dice_face_numbers_are_the_throws(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((800, 480))
    game(kiosk)
    kiosk.dispatch(Go("dice"))
    kiosk.execute(RollDice(count=4, sides=20, seat=2))
    kiosk.redraw()
    state = kiosk.state
    assert state is not None and state.dice is not None and state.dice.last is not None
    assert texts(kiosk, "dice.face") == [str(f) for f in state.dice.last.faces]
    assert texts(kiosk, "dice.caption") == ["さくら rolled 4d20"]
    assert texts(kiosk, "dice.total") == [f"= {sum(state.dice.last.faces)}"]
