"""Life at one touch on the table (LF-1, LF-2, LF-4, TB-3, TB-6, HW-1): the encoder (keys and the
GPIO one on gpiozero's mock pins) and touches on a seat's halves change the highlighted seat's
life at once on screen; the change is made as one change in the journal after a pause, or
before anything else happens; UNDO drops it; the adjust screen takes it over.  Everything goes
through the kiosk's loop, with its clock in the test's hands."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import pygame
import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, given, settings, strategies as st
from hands import Wired
from scenes import PLAYERS, POD, SCENES, drawn, texts

from device.commands import Concede, NewGame
from device.console import TABLES, Console
from device.inputs import Button, TagRead
from device.journal import Txn
from device.state import Step
from device.text import Message
from device.translations import ConsoleTranslator
from display.kiosk import Kiosk
from display.kiosk.touches import TOUCH_HOLD
from display.screens.adjust import AddAmount, AdjustForm, ApplyChange, PickCounter
from display.screens.life import HELD, PAUSE, PendingLife
from display.screens.table import LifeStep, PickSeat
from display.ui import Go, Press, Turn

MakeKiosk = Callable[..., Kiosk]
ALICE, YURIJ, SAKURA, LUKASZ = range(4)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def game(
    make_kiosk: MakeKiosk,
    clock: Clock,
    formats: tuple[str, ...] = ("commander",),
    players: tuple[str, ...] = PLAYERS,
    size: tuple[int, int] = (800, 480),
    language: str = "en",
) -> Kiosk:
    """A game on the table in Alice's main phase (her turn: the source of what the table does)."""
    kiosk = make_kiosk(size, language, clock=clock)
    kiosk.execute(NewGame(formats=formats, players=players, first=players[0]))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.ui.said, kiosk.ui.messages_until = (
        [],
        None,
    )  # nothing timed on screen but what a test does
    kiosk.redraw()
    return kiosk


def keys(kiosk: Kiosk, *pressed: int, mod: int = 0) -> None:
    """Keys pressed and let go, as a person types them."""
    for key in pressed:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=""))
    kiosk.settle()


def half(kiosk: Kiosk, seat: int, sign: int) -> tuple[int, int]:
    """The middle of seat ``seat``'s upper (+1) or lower (−1) half on the last frame."""
    x, y, w, h = next(t.rect for t in kiosk.canvas.targets if t.action == LifeStep(seat, sign))
    return x + w // 2, y + h // 2


def click(kiosk: Kiosk, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
    kiosk.settle()


def finger(kiosk: Kiosk, kind: int, pos: tuple[int, int], finger_id: int = 0) -> None:
    w, h = kiosk.canvas.width, kiosk.canvas.height
    pygame.event.post(
        pygame.event.Event(
            kind,
            x=pos[0] / w,
            y=pos[1] / h,
            touch_id=1,
            finger_id=finger_id,
            dx=0,
            dy=0,
            pressure=1,
        )
    )
    kiosk.settle()


def wait(kiosk: Kiosk, clock: Clock, seconds: float) -> None:
    """Time passes; the loop wakes at the deadlines it has (it never looks in between)."""
    clock.now += seconds
    kiosk.step(block=False)


def changes(kiosk: Kiosk) -> list[Txn]:
    """The game's changes after its start, undone ones included."""
    return kiosk.history()[1:]


def commands(kiosk: Kiosk) -> list[dict[str, object]]:
    return [dict(t.command) for t in changes(kiosk) if not t.undone]


def life(kiosk: Kiosk, seat: int) -> int:
    assert kiosk.state is not None
    return kiosk.state.player(seat).life


# --- the encoder, and the pause -----------------------------------------------------------------


def test_lf4_the_encoder_shows_a_change_on_the_highlighted_seat_and_the_pause_makes_it_one_change(
    make_kiosk: MakeKiosk,
) -> None:
    """↓ three times on Юрий's seat: the seat shows 37 and −3 from Alice at once; nothing is kept
    until the pause after the last step, then one ChangeLife, said on the status line."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_RIGHT)  # the cursor to Юрий
    made = len(changes(kiosk))
    keys(kiosk, pygame.K_DOWN, pygame.K_DOWN, pygame.K_DOWN)
    assert texts(kiosk, "seat1.life") == ["37"] and texts(kiosk, "seat1.pending") == ["−3"]
    assert texts(kiosk, "seat1.pending.from") == ["Alice"]
    assert life(kiosk, YURIJ) == 40 and len(changes(kiosk)) == made  # shown, not made
    assert kiosk.deadline() == pytest.approx(clock.now + PAUSE)  # the loop sleeps until then
    wait(kiosk, clock, PAUSE - 0.01)
    assert texts(kiosk, "seat1.pending") == ["−3"] and len(changes(kiosk)) == made
    wait(kiosk, clock, 0.01)
    assert texts(kiosk, "seat1.pending") == [] and texts(kiosk, "seat1.life") == ["37"]
    assert commands(kiosk)[made:] == [
        {"type": "ChangeLife", "seat": YURIJ, "delta": -3, "source": ALICE}
    ]
    assert texts(kiosk, "status.messages") == ["Юрий: 40 → 37 life (from Alice)."]
    keys(kiosk, pygame.K_BACKSPACE)  # UNDO takes back the change made, in one
    assert life(kiosk, YURIJ) == 40
    assert texts(kiosk, "status.messages") == ["Undone: Юрий: 40 → 37 life (from Alice)."]


def test_lf4_every_step_starts_the_pause_again_and_pgdn_counts_five(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_RIGHT, pygame.K_PAGEDOWN)
    wait(kiosk, clock, PAUSE - 0.5)
    keys(kiosk, pygame.K_MINUS)  # −6 now, and the pause starts again
    wait(kiosk, clock, PAUSE - 0.5)
    assert texts(kiosk, "seat1.pending") == ["−6"] and life(kiosk, YURIJ) == 40
    keys(kiosk, pygame.K_UP)
    wait(kiosk, clock, PAUSE)
    assert life(kiosk, YURIJ) == 35 and commands(kiosk)[-1]["delta"] == -5


def test_lf4_the_active_players_own_seat_is_highlighted_first_and_changes_from_nobody(
    make_kiosk: MakeKiosk,
) -> None:
    """No cursor yet: the encoder changes the active player's seat, highlights it, and a change
    to one's own life is nobody's (no source badge)."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    assert kiosk.ui.cursor is None
    keys(kiosk, pygame.K_UP, pygame.K_UP)
    assert kiosk.ui.cursor == ALICE
    assert texts(kiosk, "seat0.pending") == ["+2"] and texts(kiosk, "seat0.pending.from") == []
    wait(kiosk, clock, PAUSE)
    assert commands(kiosk)[-1] == {"type": "ChangeLife", "seat": ALICE, "delta": 2, "source": None}
    assert texts(kiosk, "status.messages") == ["Alice: 40 → 42 life."]


def test_lf4_back_to_nothing_is_no_change(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    made = len(changes(kiosk))
    keys(kiosk, pygame.K_DOWN, pygame.K_UP)
    assert kiosk.ui.kept(PendingLife) is None and texts(kiosk, "seat0.pending") == []
    due = kiosk.deadline()  # nothing of the change is timed: only the game clock's next minute
    assert due is None or due >= clock.now + 59
    wait(kiosk, clock, PAUSE * 2)
    assert len(changes(kiosk)) == made


# --- what happens before anything else -----------------------------------------------------------


def test_tb3_next_makes_the_change_then_passes_the_turn(make_kiosk: MakeKiosk) -> None:
    """NEXT pressed while a change shows does what it would once the pause had run out: the
    change is made, then the turn passes — two changes, undone one at a time."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_DOWN)
    keys(kiosk, pygame.K_RETURN)
    assert [c["type"] for c in commands(kiosk)[-2:]] == ["ChangeLife", "Advance"]
    assert life(kiosk, YURIJ) == 38 and kiosk.state is not None and kiosk.state.active == YURIJ
    assert texts(kiosk, "seat1.pending") == [] and kiosk.deadline() != pytest.approx(
        clock.now + PAUSE
    )
    keys(kiosk, pygame.K_BACKSPACE)
    assert kiosk.state.active == ALICE and life(kiosk, YURIJ) == 38
    keys(kiosk, pygame.K_BACKSPACE)
    assert life(kiosk, YURIJ) == 40


def test_lf4_undo_drops_the_change_shown_and_says_what_it_took_back(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock, language="pl")
    made = len(kiosk.history())
    keys(kiosk, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_DOWN)
    keys(kiosk, pygame.K_u)
    assert texts(kiosk, "seat1.pending") == [] and texts(kiosk, "seat1.life") == ["40"]
    assert texts(kiosk, "status.messages") == ["Cofnięto: Юрий: życie 40 → 38 (źródło: Alice)."]
    wait(kiosk, clock, PAUSE * 2)
    assert len(kiosk.history()) == made  # never in the journal, so not in the log either
    assert kiosk.history()[-1].undone is False


@pytest.mark.parametrize("move", ["right", "select", "touch"])
def test_lf4_moving_to_another_seat_makes_the_first_change(
    make_kiosk: MakeKiosk, move: str
) -> None:
    """→, SELECT or a touch on another seat: the first seat's change is made at once (one change),
    the second starts afresh."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_RIGHT, pygame.K_DOWN)
    if move == "right":
        keys(kiosk, pygame.K_RIGHT)
    elif move == "select":
        keys(kiosk, pygame.K_TAB)
    else:
        click(kiosk, half(kiosk, SAKURA, -1))
    assert life(kiosk, YURIJ) == 39 and commands(kiosk)[-1] == {
        "type": "ChangeLife",
        "seat": YURIJ,
        "delta": -1,
        "source": ALICE,
    }
    assert kiosk.ui.cursor == SAKURA
    assert texts(kiosk, "seat2.pending") == (["−1"] if move == "touch" else [])


@pytest.mark.parametrize("screen", ["history", "dice", "adjust"])
def test_lf4_another_screen_makes_the_change_first_but_the_adjust_screen_takes_it_over(
    make_kiosk: MakeKiosk, screen: str
) -> None:
    """Key L, ROLL held (the dice): the change is made before the screen comes up.  Key A: the
    adjust screen takes the change over, not made yet, with the counter field chosen."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_DOWN)
    if screen == "history":
        keys(kiosk, pygame.K_l)
    elif screen == "dice":
        keys(kiosk, pygame.K_SPACE, mod=pygame.KMOD_SHIFT)
    else:
        keys(kiosk, pygame.K_a)
    assert kiosk.ui.screen == screen
    if screen == "adjust":
        assert life(kiosk, YURIJ) == 40 and kiosk.ui.kept(PendingLife) is None
        form = kiosk.ui.state_of(AdjustForm)
        assert (form.seat, form.amount, form.source, form.field) == (YURIJ, -2, ALICE, 1)
        assert texts(kiosk, "adjust.preview") == ["Юрий: 40 → 38"]
        wait(kiosk, clock, PAUSE * 2)
        assert life(kiosk, YURIJ) == 40  # the adjust screen's own rule now: NEXT applies
    else:
        assert life(kiosk, YURIJ) == 38 and commands(kiosk)[-1]["type"] == "ChangeLife"


def test_lf4_a_card_on_the_reader_comes_after_the_change(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_DOWN)
    kiosk.inputs.put(TagRead("04A1B2C3"))  # Tazeem: no Planechase here, so it is refused
    kiosk.settle()
    assert life(kiosk, ALICE) == 39 and commands(kiosk)[-1]["type"] == "ChangeLife"
    assert texts(kiosk, "status.error") == ["Tazeem (plane) has no part in this game right now."]


def test_lf4_quitting_makes_the_change_shown(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_DOWN)
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_CTRL, unicode="")
    )
    assert kiosk.step(block=False) is False
    assert life(kiosk, ALICE) == 39


# --- the adjust screen for commander damage, poison, another source --------------------------------


def test_lf1_six_commander_damage_in_six_keys(make_kiosk: MakeKiosk) -> None:
    """→ to Юрий's seat, PgDn and ↓ (−6 from Alice), Shift+Enter (NEXT held: the adjust screen,
    the counter chosen), ↑ (commander damage: 6), Enter — one change (the README's count)."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    made = len(changes(kiosk))
    keys(kiosk, pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_DOWN)
    keys(kiosk, pygame.K_RETURN, mod=pygame.KMOD_SHIFT)
    assert kiosk.ui.screen == "adjust"
    keys(kiosk, pygame.K_UP)
    assert texts(kiosk, "adjust.preview") == ["Юрий: 0/21 → 6/21"]
    keys(kiosk, pygame.K_RETURN)
    assert kiosk.ui.screen == "table"
    assert commands(kiosk)[made:] == [
        {"type": "DealCommanderDamage", "seat": YURIJ, "source": ALICE, "commander": 0, "amount": 6}
    ]
    assert life(kiosk, YURIJ) == 34 and texts(kiosk, "seat1.cmd") == ["6"]


def test_lf4_three_damage_in_four_keys_or_three_touches(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    made = len(changes(kiosk))
    keys(kiosk, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_DOWN, pygame.K_DOWN)
    wait(kiosk, clock, PAUSE)
    for _ in range(3):
        click(kiosk, half(kiosk, SAKURA, -1))
    wait(kiosk, clock, PAUSE)
    assert commands(kiosk)[made:] == [
        {"type": "ChangeLife", "seat": YURIJ, "delta": -3, "source": ALICE},
        {"type": "ChangeLife", "seat": SAKURA, "delta": -3, "source": ALICE},
    ]


def test_lf1_six_commander_damage_in_five_touches(make_kiosk: MakeKiosk) -> None:
    """さくら's lower half (−1 shown), LIFE (the adjust screen takes it over), Commander damage (1),
    +5, Apply: one change of 6 commander damage from Alice."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    made = len(changes(kiosk))

    def touch(action: object) -> None:
        x, y, w, h = next(t.rect for t in kiosk.canvas.targets if t.action == action)
        click(kiosk, (x + w // 2, y + h // 2))

    touch(LifeStep(SAKURA, -1))
    touch(Go("adjust"))
    touch(PickCounter("commander"))
    touch(AddAmount(5))
    assert texts(kiosk, "adjust.preview") == ["さくら: 0/21 → 6/21"]
    touch(ApplyChange())
    assert commands(kiosk)[made:] == [
        {
            "type": "DealCommanderDamage",
            "seat": SAKURA,
            "source": ALICE,
            "commander": 0,
            "amount": 6,
        }
    ]


# --- touch --------------------------------------------------------------------------------------


def test_lf4_a_touch_on_a_seats_upper_half_gains_one_and_on_its_lower_half_loses_one(
    make_kiosk: MakeKiosk,
) -> None:
    """Taps on さくら's seat add up into one change, the cursor follows the touch; a tap is ±1 however
    it is let go (the mouse stands in for a finger)."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    for _ in range(3):
        click(kiosk, half(kiosk, SAKURA, -1))
    click(kiosk, half(kiosk, SAKURA, 1))
    assert kiosk.ui.cursor == SAKURA and texts(kiosk, "seat2.pending") == ["−2"]
    wait(kiosk, clock, TOUCH_HOLD)  # taps let go: no hold
    assert texts(kiosk, "seat2.pending") == ["−2"]
    wait(kiosk, clock, PAUSE)
    assert commands(kiosk)[-1] == {
        "type": "ChangeLife",
        "seat": SAKURA,
        "delta": -2,
        "source": ALICE,
    }


def test_lf4_a_held_touch_counts_ten(make_kiosk: MakeKiosk) -> None:
    """A finger held on Łukasz's lower half: −1 at once, −10 once held for ``TOUCH_HOLD`` (a
    deadline: the loop wakes for it), and lifting it after that adds nothing; a finger lifted
    sooner was a tap."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    lower = half(kiosk, LUKASZ, -1)
    finger(kiosk, pygame.FINGERDOWN, lower)
    assert texts(kiosk, "seat3.pending") == ["−1"]
    assert kiosk.deadline() == pytest.approx(clock.now + TOUCH_HOLD)
    wait(kiosk, clock, TOUCH_HOLD)
    assert texts(kiosk, "seat3.pending") == [f"−{HELD}"]
    finger(kiosk, pygame.FINGERUP, lower)
    upper = half(kiosk, LUKASZ, 1)
    finger(kiosk, pygame.FINGERDOWN, upper, finger_id=1)
    wait(kiosk, clock, TOUCH_HOLD / 2)
    finger(kiosk, pygame.FINGERUP, upper, finger_id=1)
    wait(kiosk, clock, TOUCH_HOLD)
    assert texts(kiosk, "seat3.pending") == [f"−{HELD - 1}"]
    wait(kiosk, clock, PAUSE)
    assert commands(kiosk)[-1] == {
        "type": "ChangeLife",
        "seat": LUKASZ,
        "delta": -(HELD - 1),
        "source": ALICE,
    }


def test_lf4_a_hold_counts_only_on_the_screen_it_touched(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    finger(kiosk, pygame.FINGERDOWN, half(kiosk, YURIJ, -1))
    keys(kiosk, pygame.K_l)  # the change is made, the history comes up under the finger
    wait(kiosk, clock, TOUCH_HOLD)
    assert kiosk.ui.screen == "history" and life(kiosk, YURIJ) == 39
    assert kiosk.ui.kept(PendingLife) is None


def test_hw4_on_a_panel_too_small_for_a_seats_halves_a_touch_highlights_it(
    make_kiosk: MakeKiosk,
) -> None:
    """320×240, eight players, the plane's strip under the seats and a two-line status: a half
    would be less than a finger tall, so the seat is one target that moves the cursor."""
    clock = Clock()
    players = (*PLAYERS, "Ben", "Ewa", "Marek", "Zofia")
    kiosk = game(
        make_kiosk, clock, formats=("commander", "planechase"), players=players, size=(320, 240)
    )
    kiosk.say(
        Message("controller.roll_needs_planechase")
    )  # a long status line: two lines on this panel
    kiosk.redraw()
    seats = [t for t in kiosk.canvas.targets if isinstance(t.action, PickSeat | LifeStep)]
    assert {type(t.action) for t in seats} == {PickSeat} and all(
        t.rect[3] >= kiosk.canvas.layout.touch for t in seats
    )
    x, y, w, h = next(t.rect for t in seats if t.action == PickSeat(SAKURA))
    click(kiosk, (x + w // 2, y + h // 2))
    assert kiosk.ui.cursor == SAKURA and kiosk.ui.kept(PendingLife) is None


# --- the GPIO buttons and encoder -------------------------------------------------------------------


@pytest.fixture
def gpio(make_kiosk: MakeKiosk, mock_factory: MockFactory) -> Iterator[tuple[Wired, Clock]]:
    clock = Clock()
    kiosk = game(make_kiosk, clock, language="ru")
    hands = Wired(kiosk, mock_factory)
    yield hands, clock
    hands.buttons.close()


def test_hw1_the_encoder_changes_the_highlighted_seat_select_moves_and_next_held_adjusts(
    gpio: tuple[Wired, Clock],
) -> None:
    """The real GPIO driver on mock pins: SELECT to Юрий, three detents back (−3, shown at
    once), the pause makes it; three more, NEXT held brings them to the adjust screen, one
    detent makes them commander damage, NEXT applies."""
    hands, clock = gpio
    kiosk = hands.kiosk
    hands.press(Button.SELECT)
    hands.back(3)
    assert texts(kiosk, "seat1.pending") == ["−3"] and texts(kiosk, "seat1.life") == ["37"]
    wait(kiosk, clock, PAUSE)
    assert life(kiosk, YURIJ) == 37
    assert texts(kiosk, "status.messages") == ["Юрий: жизнь 40 → 37 (источник: Alice)."]
    hands.back(3)
    hands.press(Button.NEXT, hold=1.0)  # past hold_time: a long press
    assert kiosk.ui.screen == "adjust" and life(kiosk, YURIJ) == 37
    hands.turn(1)
    hands.press(Button.NEXT)
    assert commands(kiosk)[-1] == {
        "type": "DealCommanderDamage",
        "seat": YURIJ,
        "source": ALICE,
        "commander": 0,
        "amount": 3,
    }
    assert kiosk.ui.screen == "table" and life(kiosk, YURIJ) == 34


def test_hw1_undo_drops_and_next_makes_then_passes(gpio: tuple[Wired, Clock]) -> None:
    hands, clock = gpio
    kiosk = hands.kiosk
    hands.turn(2)
    hands.press(Button.UNDO)
    assert texts(kiosk, "seat0.pending") == [] and life(kiosk, ALICE) == 40
    hands.turn(4)
    hands.press(Button.NEXT)
    assert life(kiosk, ALICE) == 44 and kiosk.state is not None and kiosk.state.active == YURIJ
    assert kiosk.state.step is Step.UPKEEP


# --- who can change, and Two-Headed Giant -----------------------------------------------------------


def test_lf1_a_seat_whose_player_has_left_refuses_at_once(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    kiosk.execute(Concede(seat=LUKASZ))
    click(kiosk, half(kiosk, LUKASZ, -1))
    assert texts(kiosk, "status.error") == [
        "Łukasz has already lost (conceded); undo that first if it was a mistake."
    ]
    assert kiosk.ui.kept(PendingLife) is None and texts(kiosk, "seat3.life") == ["40"]


def test_nc3_a_minion_apart_from_the_game_cannot_be_hurt_from_the_table(
    make_kiosk: MakeKiosk,
) -> None:
    """The rules' refusals come at the touch: Юрий plays his solo turns phased out."""
    kiosk = make_kiosk((800, 480), "en")
    SCENES["necro-table"](kiosk)
    kiosk.redraw()
    click(kiosk, half(kiosk, YURIJ, -1))
    assert texts(kiosk, "status.error") == [
        "Юрий is phased out for their solo turns: nothing in the game can hurt them until they phase in."
    ]
    assert kiosk.ui.kept(PendingLife) is None and texts(kiosk, "seat1.pending") == []


def test_lf4_a_change_the_rules_refuse_leaves_the_change_as_it_was(make_kiosk: MakeKiosk) -> None:
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_RIGHT)
    for _ in range(200):
        kiosk.dispatch(Turn(-5))
    kiosk.redraw()
    assert texts(kiosk, "seat1.pending") == ["−995"]
    assert texts(kiosk, "status.error") == [
        "-1000 is out of range: change life by at most 999 at a time."
    ]


def test_tb6_both_seats_of_a_team_show_the_change_to_their_shared_life(
    make_kiosk: MakeKiosk,
) -> None:
    """Two-Headed Giant: a change to Carla's seat shows on Dora's too (one life total); from the
    turn's team it is nobody's, from another team's seat the active player's."""
    clock = Clock()
    kiosk = game(make_kiosk, clock, formats=("ffa", "two_headed_giant"), players=POD[:4])
    keys(kiosk, pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_DOWN)
    assert texts(kiosk, "seat2.pending") == texts(kiosk, "seat3.pending") == ["−2"]
    assert texts(kiosk, "seat2.life") == texts(kiosk, "seat3.life") == ["28"]
    assert texts(kiosk, "seat2.pending.from") == [POD[0]]
    wait(kiosk, clock, PAUSE)
    assert commands(kiosk)[-1] == {"type": "ChangeLife", "seat": 2, "delta": -2, "source": 0}
    assert life(kiosk, 2) == life(kiosk, 3) == 28
    keys(kiosk, pygame.K_LEFT, pygame.K_LEFT, pygame.K_UP)  # the second seat of the turn's own team
    assert texts(kiosk, "seat0.pending") == texts(kiosk, "seat1.pending") == ["+1"]
    assert texts(kiosk, "seat1.pending.from") == []


# --- the console sees the same game ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            [
                "Юрий: 40 → 37 life (from Alice).",
                "Alice → Юрий: 3 life lost",
                "Undone: Юрий: 40 → 37 life (from Alice).",
            ],
        ),
        (
            "ru",
            [
                "Юрий: жизнь 40 → 37 (источник: Alice).",
                "Alice → Юрий: потеряно 3 жизни",
                "Отменено: Юрий: жизнь 40 → 37 (источник: Alice).",
            ],
        ),
        (
            "ja",
            [
                "Юрий：ライフ40 → 37（Aliceから）。",
                "Alice → Юрий：ライフを3点失った",
                "取り消し：Юрий：ライフ40 → 37（Aliceから）。",
            ],
        ),
        (
            "pl",
            [
                "Юрий: życie 40 → 37 (źródło: Alice).",
                "Alice → Юрий: stracone 3 punkty życia",
                "Cofnięto: Юрий: życie 40 → 37 (źródło: Alice).",
            ],
        ),
    ],
)
def test_lf2_lf4_a_change_made_on_the_table_is_one_change_at_the_console(
    make_kiosk: MakeKiosk, language: str, said: list[str]
) -> None:
    """Three turns on the table, then the console on the same controller and journal: its log has
    one change, ``dealt`` says who did it, one ``undo`` takes it back — in the table's language."""
    clock = Clock()
    kiosk = game(make_kiosk, clock, language=language)
    keys(kiosk, pygame.K_RIGHT, pygame.K_DOWN, pygame.K_DOWN, pygame.K_DOWN)
    wait(kiosk, clock, PAUSE)
    out = io.StringIO()
    Console(kiosk.controller, out, TABLES, ConsoleTranslator(language)).run(
        ["log 1", "dealt", "undo"]
    )
    lines = [line.strip() for line in out.getvalue().splitlines() if line.strip()]
    assert len(lines) == 3 and all(
        line.endswith(text) for line, text in zip(lines, said, strict=True)
    ), lines
    assert life(kiosk, YURIJ) == 40


# --- invariants -----------------------------------------------------------------------------------


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(
        st.sampled_from(
            [
                ("turn", 1),
                ("turn", -1),
                ("turn", 5),
                ("turn", -5),
                ("tap", 1),
                ("tap", -1),
                ("held", 1),
                ("held", -1),
            ]
        ),
        min_size=1,
        max_size=12,
    )
)
def test_lf4_any_steps_on_one_seat_are_one_change_and_undo_restores(
    make_kiosk: MakeKiosk, steps: list[tuple[str, int]]
) -> None:
    """However a seat's change is reached — turns, taps, held touches, in any order — the pause
    makes it one change of their sum (none when they cancel out), and UNDO restores the life."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    kiosk.ui.cursor = SAKURA
    made = len(kiosk.history())
    total = 0
    for kind, sign in steps:
        if kind == "turn":
            kiosk.dispatch(Turn(sign))
            total += sign
        else:
            kiosk.dispatch(LifeStep(SAKURA, sign, held=kind != "tap"))
            total += sign * (HELD - 1 if kind == "held" else 1)
    kiosk.redraw()
    assert texts(kiosk, "seat2.life") == [str(40 + total)]
    wait(kiosk, clock, PAUSE)
    added = kiosk.history()[made:]
    assert [dict(t.command) for t in added] == (
        [{"type": "ChangeLife", "seat": SAKURA, "delta": total, "source": ALICE}] if total else []
    )
    if total:
        kiosk.dispatch(Press(Button.UNDO))
    assert life(kiosk, SAKURA) == 40


def test_go_adjust_from_the_bar_carries_the_change(make_kiosk: MakeKiosk) -> None:
    """The LIFE button takes the change over as key A does."""
    clock = Clock()
    kiosk = game(make_kiosk, clock)
    keys(kiosk, pygame.K_DOWN)
    x, y, w, h = next(t.rect for t in kiosk.canvas.targets if t.action == Go("adjust"))
    click(kiosk, (x + w // 2, y + h // 2))
    assert kiosk.ui.screen == "adjust" and kiosk.ui.state_of(AdjustForm).amount == -1
    assert life(kiosk, ALICE) == 40


@pytest.mark.parametrize("size", [(320, 240), (480, 320), (800, 480)])
def test_a_change_to_the_active_players_own_seat_keeps_the_name_its_size(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    """A change from nobody (the active player's own seat) has a badge without a name: the
    tile still plans its name at the size it had, and the total as large as it can."""
    kiosk = game(make_kiosk, Clock(), size=size)
    [before] = drawn(kiosk, "seat0.name")
    kiosk.dispatch(Turn(2))
    kiosk.redraw()
    [after] = drawn(kiosk, "seat0.name")
    assert after.size == before.size
    assert texts(kiosk, "seat0.life") == ["42"] and texts(kiosk, "seat0.pending") == ["+2"]
