"""The kiosk's loop: it sleeps on its inputs, wakes for driver threads and deadlines, redraws
only when something changed, and turns keys, touches, GPIO buttons and the reader into the
same actions (HW-1, HW-4; ARCHITECTURE: one thread owns the game)."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path
from collections.abc import Callable

import pygame
import pytest
from gpiozero.pins.mock import MockFactory

from device.commands import Advance, ChangeLife, NewGame
from device.controller import Controller
from device.journal import Journal
from device.recovery import open_journal
from device.inputs import Button, ButtonPressed, EncoderTurned
from device.state import Step
from device.rules.planechase.state import PlanechaseState
from display.kiosk import Kiosk
from display.kiosk.inputs import KEYS, REPEAT_DELAY, REPEAT_INTERVAL
from display.kiosk.waking import SDL_POLL, WakingQueue
from display.screens.setup import SetupForm
from display.ui import Go, Press
from display.targets import OffscreenTarget
from drivers.gpio import GpioButtons, GpioConfig, open_buttons
from conftest import CLOCK
from scenes import PLAYERS, SCENES, texts

MakeKiosk = Callable[..., Kiosk]


def key(k: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))


def started(make_kiosk: MakeKiosk, **kw: object) -> Kiosk:
    kiosk = make_kiosk(**kw)
    kiosk.execute(NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0]))
    kiosk.redraw()
    return kiosk


def paused(kiosk: Kiosk) -> Kiosk:
    """``kiosk`` with its game clock paused (UNDO held) and the status line's message kept, so
    nothing on screen is timed."""
    kiosk.dispatch(Press(Button.UNDO, long=True))
    kiosk.ui.messages_until = None
    kiosk.redraw()
    return kiosk


def test_idle_kiosk_has_no_deadline_and_draws_nothing(make_kiosk: MakeKiosk) -> None:
    """Nothing pending and nothing timed (the game clock paused): the loop would sleep without a
    timeout."""
    kiosk = paused(started(make_kiosk))
    assert kiosk.deadline() is None
    frames = kiosk.frames
    for _ in range(5):
        kiosk.step(block=False)
    assert kiosk.frames == frames


def test_an_idle_table_wakes_once_a_minute_for_the_time_played(make_kiosk: MakeKiosk) -> None:
    """With the game clock running, the table's header shows the time played to the minute: the
    loop sleeps until the next minute, and at it draws one frame."""
    kiosk = make_kiosk()
    # Commander alone: a Planechase start's messages may need pages, which turn on their own.
    kiosk.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[0]))
    kiosk.ui.messages_until = None  # the start message stays until replaced
    kiosk.redraw()
    assert kiosk.deadline() == CLOCK + 60.0
    frames = kiosk.frames
    kiosk.step(block=False)
    assert kiosk.frames == frames


def test_driver_thread_wakes_the_sleeping_loop(make_kiosk: MakeKiosk) -> None:
    """A driver thread's ``put`` wakes ``pygame.event.wait``; the loop handles it and redraws."""
    kiosk = started(make_kiosk)
    kiosk.ui.messages_until = None
    queue = kiosk.inputs
    assert isinstance(queue, WakingQueue)
    frames = kiosk.frames
    threading.Timer(0.05, lambda: queue.put(ButtonPressed(Button.NEXT))).start()
    began = time.perf_counter()
    assert kiosk.step()  # blocks until the press arrives
    assert time.perf_counter() - began < 5
    assert kiosk.state is not None and kiosk.state.step is Step.MAIN
    assert kiosk.frames == frames + 1


@pytest.mark.parametrize(("watched", "sleeps"), [(True, None), (False, SDL_POLL)])
def test_on_the_pis_console_the_loop_sleeps_until_input_when_the_input_devices_wake_it(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch, watched: bool, sleeps: float | None
) -> None:
    """With KMS/DRM SDL reads keys and touches only when asked: the loop sleeps on its queue with
    no time limit when the kernel's input devices wake it (drivers.input_devices), and looks at
    SDL every ``SDL_POLL`` seconds only when they cannot be watched."""
    kiosk = paused(started(make_kiosk))  # nothing timed on screen now
    kiosk.input_watched = watched
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "kmsdrm")
    waits: list[float | None] = []
    queue = kiosk.inputs
    assert isinstance(queue, WakingQueue)
    monkeypatch.setattr(queue, "wait", waits.append)
    kiosk.step()
    assert waits == [sleeps]


def test_hw1_gpio_buttons_and_encoder_drive_the_kiosk(
    make_kiosk: MakeKiosk, mock_factory: MockFactory
) -> None:
    """HW-1: the real GPIO driver (on gpiozero's mock pins) puts presses on the queue; the loop
    turns them into the same actions as the keys."""
    kiosk = started(make_kiosk)
    now = [0.0]
    buttons = GpioButtons(
        GpioConfig(), kiosk.inputs, clock=lambda: now[0], timer=False, pin_factory=mock_factory
    )
    buttons.start()
    try:
        pin = mock_factory.pin(27)  # NEXT
        pin.drive_low()
        now[0] = 0.2
        buttons.poll()
        pin.drive_high()
        now[0] = 0.4
        buttons.poll()
        kiosk.settle()
        assert kiosk.state is not None and kiosk.state.step is Step.MAIN
        kiosk.inputs.put(EncoderTurned(-2))  # what the encoder's callback puts
        kiosk.settle()
        assert kiosk.ui.screen == "table"  # the highlighted seat (Alice's, the active one) shows −2
        assert texts(kiosk, "seat0.pending") == ["−2"] and texts(kiosk, "seat0.life") == ["38"]
    finally:
        buttons.close()


def test_hw1_fake_buttons_stand_in_without_gpio(make_kiosk: MakeKiosk) -> None:
    kiosk = started(make_kiosk)
    source = open_buttons(GpioConfig(), kiosk.inputs, backend="fake")
    source.start()
    source.press(Button.NEXT)  # type: ignore[attr-defined]
    source.press(Button.ROLL)  # type: ignore[attr-defined]
    kiosk.settle()
    assert kiosk.ui.screen == "planechase"
    assert kiosk.state is not None and len(kiosk.state.part(PlanechaseState).rolls) == 1


def test_keys_stand_in_for_the_buttons(make_kiosk: MakeKiosk) -> None:
    kiosk = started(make_kiosk)
    key(pygame.K_RETURN)  # NEXT: main phase
    key(pygame.K_SPACE)  # ROLL
    kiosk.settle()
    assert kiosk.state is not None and len(kiosk.state.part(PlanechaseState).rolls) == 1
    key(pygame.K_BACKSPACE)  # UNDO the roll
    kiosk.settle()
    assert len(kiosk.state.part(PlanechaseState).rolls) == 0
    assert texts(kiosk, "status.messages")[0].startswith("Undone: Alice rolled")
    key(pygame.K_y)  # redo
    kiosk.settle()
    assert len(kiosk.state.part(PlanechaseState).rolls) == 1
    key(pygame.K_t)
    kiosk.settle()
    assert kiosk.ui.screen == "table"
    key(pygame.K_q, pygame.KMOD_CTRL)
    assert kiosk.step(block=False) is False  # quit


def test_keys_table_is_the_documented_one() -> None:
    assert KEYS[pygame.K_SPACE] == Press(Button.ROLL)
    assert KEYS[pygame.K_RETURN] == Press(Button.NEXT)
    assert KEYS[pygame.K_BACKSPACE] == Press(Button.UNDO)
    assert KEYS[pygame.K_TAB] == Press(Button.SELECT)


def test_touch_uses_finger_events_and_ignores_their_mouse_echo(make_kiosk: MakeKiosk) -> None:
    kiosk = started(make_kiosk)
    next_button = next(t for t in kiosk.canvas.targets if t.action == Press(Button.NEXT))
    x = next_button.rect[0] + 3
    y = next_button.rect[1] + 3
    w, h = kiosk.canvas.width, kiosk.canvas.height
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN, x=x / w, y=y / h, touch_id=1, finger_id=0, dx=0, dy=0, pressure=1
        )
    )
    # SDL also synthesises a mouse click for the same touch; it must not press NEXT twice.
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=True))
    kiosk.settle()
    assert kiosk.state is not None and kiosk.state.step is Step.MAIN and kiosk.state.turn == 1
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=False))
    kiosk.settle()
    assert kiosk.state.turn == 2  # a real mouse click is a touch too


def test_die_tumble_is_a_deadline_and_ends(make_kiosk: MakeKiosk) -> None:
    now = [1000.0]
    kiosk = started(make_kiosk)
    kiosk._clock = lambda: now[0]  # noqa: SLF001 - the clock is a parameter
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.redraw()
    face = texts(kiosk, "pc.die.face")
    frames = kiosk.frames
    deadline = kiosk.deadline()
    assert deadline is not None and deadline - now[0] == pytest.approx(1 / kiosk.fps)
    for _ in range(40):
        deadline = kiosk.deadline()
        if deadline is None or deadline > 1000.0 + 5:
            break
        now[0] = deadline
        kiosk.step(block=False)
    assert kiosk.frames > frames + 5  # it animated
    assert texts(kiosk, "pc.die.face") == face  # the result never changed meanwhile
    assert kiosk.ui.die is not None and kiosk.ui.die.until == kiosk.ui.die.started


def test_window_resize_picks_a_new_layout(make_kiosk: MakeKiosk) -> None:
    from display.targets import OffscreenTarget

    kiosk = started(make_kiosk, size=(800, 480))
    kiosk.retarget(OffscreenTarget((320, 240)))
    kiosk.redraw()
    assert kiosk.canvas.layout.name == "320x240"
    assert SCENES  # the scenes module is shared with the screenshot tests


def test_hw1_a_bouncing_roll_press_rolls_the_planar_die_exactly_once(
    make_kiosk: MakeKiosk, mock_factory: MockFactory
) -> None:
    """HW-1: contact bounce on the big ROLL button (press and release both chatter) is one press,
    so the planar die is rolled once — through the real GPIO driver, the queue and the loop."""
    kiosk = started(make_kiosk)
    key(pygame.K_RETURN)  # NEXT: main phase, where ROLL means the planar die
    kiosk.settle()
    now = [0.0]
    buttons = GpioButtons(
        GpioConfig(), kiosk.inputs, clock=lambda: now[0], timer=False, pin_factory=mock_factory
    )
    buttons.start()
    try:
        pin = mock_factory.pin(17)  # ROLL
        for step in range(12):  # 12 edges 1 ms apart as the contact closes
            now[0] = 1.0 + step * 0.001
            pin.drive_low() if step % 2 == 0 else pin.drive_high()
            buttons.poll()
        pin.drive_low()
        now[0] = 1.2  # held down
        buttons.poll()
        for step in range(9):  # and chatter as it opens
            now[0] = 1.3 + step * 0.002
            pin.drive_high() if step % 2 == 0 else pin.drive_low()
            buttons.poll()
        pin.drive_high()
        now[0] = 1.6
        buttons.poll()
        kiosk.settle()
        assert kiosk.state is not None and len(kiosk.state.part(PlanechaseState).rolls) == 1
    finally:
        buttons.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def up(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=""))


def test_a_held_arrow_repeats_and_stops_when_released(make_kiosk: MakeKiosk) -> None:
    """Repeat may move cursors: → held on set-up walks the rows, after a delay, until released."""
    clock = Clock()
    kiosk = make_kiosk(clock=clock)
    kiosk.dispatch(Go("setup"))
    kiosk.settle()
    key(pygame.K_RIGHT)
    kiosk.settle()
    assert kiosk.ui.state_of(SetupForm).row == 1
    clock.now += REPEAT_DELAY - 0.01
    kiosk.step(block=False)
    assert kiosk.ui.state_of(SetupForm).row == 1
    clock.now += 0.02
    kiosk.step(block=False)
    assert kiosk.ui.state_of(SetupForm).row == 2
    clock.now += REPEAT_INTERVAL
    kiosk.step(block=False)
    assert kiosk.ui.state_of(SetupForm).row == 3
    clock.now += 5  # a slow frame: one repeat, not eighty
    kiosk.step(block=False)
    assert kiosk.ui.state_of(SetupForm).row == 4
    up(pygame.K_RIGHT)
    kiosk.settle()
    clock.now += 5
    kiosk.step(block=False)
    assert kiosk.ui.state_of(SetupForm).row == 4
    assert kiosk.deadline() is None or kiosk.deadline() > clock.now


@pytest.mark.parametrize(
    "held", [pygame.K_RETURN, pygame.K_SPACE, pygame.K_BACKSPACE, pygame.K_TAB, pygame.K_y]
)
def test_a_held_action_key_acts_once(make_kiosk: MakeKiosk, held: int) -> None:
    """NEXT, ROLL, UNDO, SELECT and redo act once per press, however long the key is held."""
    clock = Clock()
    kiosk = make_kiosk(clock=clock)
    kiosk.execute(NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0]))
    kiosk.execute(Advance())  # main phase: ROLL can roll
    kiosk.settle()
    before = len(kiosk.history())
    key(held)
    kiosk.settle()
    after_press = len(kiosk.history())
    for _ in range(40):
        clock.now += 0.1
        kiosk.step(block=False)
    assert len(kiosk.history()) == after_press
    assert after_press - before in (0, 1)  # UNDO takes one back (history keeps it, marked undone)


def test_the_start_key_held_on_set_up_starts_one_game_and_passes_no_turn(
    make_kiosk: MakeKiosk,
) -> None:
    clock = Clock()
    kiosk = make_kiosk(clock=clock)
    kiosk.dispatch(Go("setup"))
    kiosk.settle()
    key(pygame.K_RETURN)
    kiosk.settle()
    for _ in range(30):
        clock.now += 0.1
        kiosk.step(block=False)
    state = kiosk.state
    assert state is not None and state.turn == 1 and state.step is Step.UPKEEP
    assert [t.command["type"] for t in kiosk.history()] == ["NewGame"]


def test_hw5_the_kiosk_backs_up_only_when_idle(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HW-5: the change that makes a backup due is shown first; the kiosk takes the backup just
    before it sleeps with nothing to do, never between a press and its frame."""
    from device.commands import ChangeLife, NewGame

    kiosk = make_kiosk()
    journal = kiosk.controller.journal
    journal.backup_every, journal.defer_backups = 2, True
    taken: list[int] = []
    monkeypatch.setattr(journal, "backup", lambda: taken.append(journal.game(1).tip))
    kiosk.execute(NewGame(players=("Ann", "Bo"), first="Ann"))
    kiosk.execute(ChangeLife(seat=1, delta=-1))
    kiosk.execute(ChangeLife(seat=1, delta=-1))
    assert taken == []  # due, not taken while the press is being answered
    monkeypatch.setattr(kiosk, "_sleep", lambda due: [])
    kiosk.step(block=True)  # draws the frame
    kiosk.step(block=True)  # idle now: the backup
    assert taken == [2]


def test_hw5_damage_the_check_after_start_up_finds_is_said_on_the_status_line_at_once(
    tmp_path: Path,
) -> None:
    """A damaged change deep in a long game is found after start-up; the game is restored from
    its backup and the status line says so without waiting for a press, whichever of the loop's
    reads (the screen's or the check's verdict) met the damage first."""
    path = tmp_path / "games" / "aetherbox.sqlite3"
    with Journal(path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=PLAYERS[:2], first=PLAYERS[0]))
        for _ in range(100):
            controller.execute(ChangeLife(seat=1, delta=-1, source=0))
            controller.execute(ChangeLife(seat=1, delta=1))
    with closing(sqlite3.connect(path)) as db:
        body = db.execute("SELECT body FROM events WHERE pos = 41").fetchone()[0]
        db.execute(
            "UPDATE events SET body = ? WHERE pos = 41", (body.replace('"delta":', '"delta":9', 1),)
        )
        db.commit()
    journal, at_start = open_journal(path, defer_backups=True)
    assert at_start is None  # not what start-up reads: the check after it finds it
    kiosk = Kiosk(Controller(journal), OffscreenTarget((800, 480)), inputs=WakingQueue())
    try:
        kiosk.redraw()
        threading.Timer(3, kiosk.stop).start()
        while kiosk.step() and not kiosk.ui.said:
            pass
        assert [m.key for m in kiosk.ui.said] == ["journal.recovered_backup"]
    finally:
        kiosk.controller.journal.close()
