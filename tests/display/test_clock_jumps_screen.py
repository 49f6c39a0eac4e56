"""The kiosk on a Pi whose wall clock is set mid-game — from 1970 to now when it gets the time
from the network, or back again — shows the same time played and the same turn timer, says no
"Time is up" and sounds nothing; across a restart the durations go on from the journal
(docs/decisions/0027-durations-on-the-monotonic-clock.md).

The kiosk runs as the gadget runs it: its controller's clock is the game's time (``GameTime``),
and the kiosk counts the durations at that time, the controller's (no ``wall`` of its own).  The
monotonic clock and the wall clock are the test's; the loop sleeps to each deadline as it would."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
from hands import Hands
from scenes import PLAYERS, texts

from device.commands import NewGame
from device.controller import Controller
from device.journal import Journal
from device.state_clock import GameTime
from display.kiosk import Kiosk
from display.targets import OffscreenTarget
from drivers.feedback import Cue, FakeFeedback

MakeKiosk = Callable[..., Kiosk]
NOW = 1_760_000_000.0  # October 2025: the time from the network
BOOT = 41.0  # 1970: a Pi without a real-time clock, 41 seconds after it booted
YEARS = 55 * 365 * 24 * 3600.0


class Clocks:
    def __init__(self, wall: float, mono: float = 900.0) -> None:
        self.wall = wall
        self.mono = mono

    def monotonic(self) -> float:
        return self.mono

    def pass_(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += seconds

    def game_time(self) -> GameTime:
        return GameTime(wall=lambda: self.wall, monotonic=self.monotonic)


def wake_until(kiosk: Kiosk, clocks: Clocks, until: float) -> int:
    """The idle loop as it runs: sleep to each deadline (time passes), wake, act, redraw."""
    end = clocks.mono + until
    woke = 0
    while True:
        due = kiosk.deadline()
        if due is None or due > end:
            clocks.pass_(end - clocks.mono)
            kiosk.step(block=False)
            return woke
        clocks.pass_(max(0.0, due - clocks.mono))
        kiosk.step(block=False)
        woke += 1


def header(kiosk: Kiosk) -> tuple[list[str], list[str]]:
    kiosk.redraw()
    return texts(kiosk, "header.played"), texts(kiosk, "header.clock")


def played(kiosk: Kiosk) -> list[Cue]:
    assert isinstance(kiosk.feedback, FakeFeedback)
    return kiosk.feedback.played


def test_the_clock_set_from_1970_to_now_and_back_mid_turn_moves_nothing_and_sounds_nothing(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    clocks = Clocks(BOOT)
    kiosk = make_kiosk((800, 480), "en", clock=clocks.monotonic, wall=clocks.game_time())
    kiosk.feedback = FakeFeedback()
    kiosk.execute(
        NewGame(
            formats=("commander",), players=PLAYERS, first=PLAYERS[0], options={"turn_timer": "90"}
        )
    )
    kiosk.settle()
    hands = Hands(kiosk)
    kiosk.ui.messages_until = None  # keep the status line's words for the test to read
    wake_until(kiosk, clocks, 30)
    assert header(kiosk) == (["0:00"], ["1:00 left"])

    clocks.wall = NOW  # the network's time: 55 years on, mid-turn
    assert wake_until(kiosk, clocks, 5) == 5  # a wake-up a second, as before
    assert header(kiosk) == (["0:00"], ["0:55 left"])
    assert "Time is up" not in " ".join(hands.says("status.messages")) and played(kiosk) == []

    hands.keys(pygame.K_RETURN)  # Alice's main phase
    wake_until(kiosk, clocks, 20)
    clocks.wall = BOOT  # and back to 1970
    wake_until(kiosk, clocks, 5)
    assert header(kiosk) == (["0:01"], ["0:30 left"]) and played(kiosk) == []

    clocks.wall = NOW + YEARS
    wake_until(kiosk, clocks, 29.5)
    assert header(kiosk) == (["0:01"], ["0:01 left"]) and played(kiosk) == []
    wake_until(kiosk, clocks, 0.5)  # the turn's 90 seconds, as counted by the monotonic clock
    assert header(kiosk) == (["0:01"], ["Time is up"]) and played(kiosk) == [Cue.TIME_UP]
    assert hands.says("status.messages") == ["Time is up for Alice's turn (1:30)."]

    hands.keys(pygame.K_RETURN)  # Юрий's turn, with the whole 1:30
    clocks.wall = BOOT
    wake_until(kiosk, clocks, 3600)
    assert header(kiosk) == (["1:01"], ["Time is up"]) and played(kiosk) == [
        Cue.TIME_UP,
        Cue.TIME_UP,
    ]


def test_after_a_restart_the_kiosk_goes_on_from_the_journal_and_a_run_out_timer_is_not_sounded_again(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    clocks = Clocks(NOW)
    kiosk = make_kiosk((480, 320), "en", clock=clocks.monotonic, wall=clocks.game_time())
    kiosk.feedback = FakeFeedback()
    kiosk.execute(
        NewGame(
            formats=("commander",), players=PLAYERS, first=PLAYERS[0], options={"turn_timer": "120"}
        )
    )
    kiosk.settle()
    hands = Hands(kiosk)
    wake_until(kiosk, clocks, 50)
    hands.keys(pygame.K_RETURN)  # the journal's last change: Alice's main phase, 50 seconds in
    clocks.wall = BOOT
    wake_until(kiosk, clocks, 40)
    assert header(kiosk) == (["0:01"], ["0:30 left"])
    path = kiosk.controller.journal.path
    kiosk.controller.journal.close()

    for wall in (
        BOOT,
        NOW + YEARS,
    ):  # rebooted at 1970; or the clock set far ahead while it was off
        clocks = Clocks(wall, mono=7.0)
        with Journal(path) as journal:
            again = Kiosk(
                Controller(journal, clock=clocks.game_time()),
                OffscreenTarget((480, 320)),
                fonts=kiosk.fonts,
                clock=clocks.monotonic,
                feedback=FakeFeedback(),
            )
            assert header(again) == (["0:00"], ["1:10 left"]), wall  # as at the last change
            wake_until(again, clocks, 69)
            assert header(again) == (["0:01"], ["0:01 left"]) and played(again) == []
            wake_until(again, clocks, 1)
            assert header(again) == (["0:02"], ["Time is up"]) and played(again) == [Cue.TIME_UP]

    # The timer runs out, a life change is made after it, and the Pi reboots at 1970: the time
    # is up as the journal left it, and the restart does not sound it again.
    clocks = Clocks(NOW + YEARS, mono=3.0)
    with Journal(path) as journal:
        again = Kiosk(
            Controller(journal, clock=clocks.game_time()),
            OffscreenTarget((480, 320)),
            fonts=kiosk.fonts,
            clock=clocks.monotonic,
            feedback=FakeFeedback(),
        )
        hands = Hands(again)
        wake_until(again, clocks, 75)
        hands.keys(pygame.K_DOWN)  # Alice's life, one less: made after a moment
        wake_until(again, clocks, 5)
        assert again.state is not None and again.state.players[0].life == 39
        assert header(again) == (["0:02"], ["Time is up"]) and played(again) == [Cue.TIME_UP]
    clocks = Clocks(BOOT, mono=2.0)
    with Journal(path) as journal:
        again = Kiosk(
            Controller(journal, clock=clocks.game_time()),
            OffscreenTarget((480, 320)),
            fonts=kiosk.fonts,
            clock=clocks.monotonic,
            feedback=FakeFeedback(),
        )
        wake_until(again, clocks, 30)
        assert header(again) == (["0:02"], ["Time is up"]) and played(again) == []
