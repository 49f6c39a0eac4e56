"""End to end: a four-player Commander + Planechase game set up and played with the documented
keys and touches only, each step's frame written as a PNG (``--screenshots``) and its facts
checked (HW-4, TB-3, LF-1..LF-4, PC-2, PC-13)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from device.inputs import Button
from device.state import Step
from device.rules.planechase.state import PlanechaseState
from display.kiosk import Kiosk
from display.screens.adjust import AddAmount, ApplyChange, PickCounter, PickPlayer, PickSource
from display.screens.life import PAUSE
from display.screens.table import LifeStep
from display.targets import ScreenshotTarget
from display.ui import Go, Press
from scenes import texts

MakeKiosk = Callable[..., Kiosk]


class Player:
    """Presses keys and touches the screen the way a person would, then lets the loop run."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        assert isinstance(kiosk.target, ScreenshotTarget)
        self.shots = kiosk.target
        self.kiosk.redraw()

    def keys(self, *keys: int, text: str = "") -> None:
        before = len(self.shots.files)
        for k in keys:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode=""))
        if text:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
        self.kiosk.settle()
        assert len(self.shots.files) > before, "the step changed nothing on screen"

    def touch(self, action: object) -> None:
        target = next(t for t in self.kiosk.canvas.targets if t.action == action)
        x, y, w, h = target.rect
        before = len(self.shots.files)
        pos = (x + w // 2, y + h // 2)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False)
        )
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
        self.kiosk.settle()
        assert len(self.shots.files) > before

    def says(self, role: str) -> list[str]:
        return texts(self.kiosk, role)


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_commander_planechase_game_with_keys_and_touches(
    make_kiosk: MakeKiosk, tmp_path: Path
) -> None:
    clock = Clock()
    k = make_kiosk((800, 480), "en", screenshots=tmp_path / "shots", clock=clock)
    p = Player(k)
    assert p.says("header.headline") == ["aetherbox"]
    assert p.says("nogame") == ["No game running"]

    # Set-up with keys: F2, Planechase on, four names, Enter starts.
    p.keys(pygame.K_F2)
    assert p.says("setup.title") == ["New game"]
    p.keys(pygame.K_RIGHT, pygame.K_UP)  # Planechase: on
    assert p.says("setup.value.module")[0] == "on"
    p.keys(
        pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_RIGHT
    )  # past Contraptions and Two-Headed Giant, to Players (4)
    p.keys(pygame.K_RIGHT, *[pygame.K_BACKSPACE] * 8, text="Alice")
    p.keys(pygame.K_RIGHT, text="Atraxa")  # her commander, on the row under her name
    assert p.says("setup.placeholder.commander") == ["none"]  # a partner's row has come: left empty
    for name in ("Bob", "Carol", "Dan"):
        p.keys(
            pygame.K_RIGHT, pygame.K_RIGHT, *[pygame.K_BACKSPACE] * 8, text=name
        )  # past a commander's row
    assert p.says("setup.value.name")[-1] == "Dan_"  # Alice's row has scrolled up
    assert p.says("setup.more.up") == ["↑"] and p.says("setup.more.down") == ["↓"]
    p.keys(pygame.K_RETURN, pygame.K_RETURN)  # leaves the last name, and Dan's commander unnamed
    p.keys(pygame.K_UP)  # first player: Alice
    p.keys(pygame.K_RETURN)  # start
    state = k.state
    assert state is not None and state.formats == ("commander", "planechase")
    assert [pl.name for pl in state.players] == ["Alice", "Bob", "Carol", "Dan"]
    assert [pl.commanders for pl in state.players] == [("Atraxa",), (), (), ()]
    assert p.says("banner.title") == ["Alice: upkeep"]

    # Alice: NEXT to the main phase, ROLL twice; the Planechase screen comes up with the cost.
    p.keys(pygame.K_RETURN)
    assert p.says("header.headline") == ["Alice's turn"]
    p.keys(pygame.K_SPACE)
    assert k.ui.screen == "planechase"
    assert p.says("pc.cost.label") == ["Next roll"]
    assert p.says("pc.cost") == ["1"]  # in a generic mana symbol
    p.keys(pygame.K_SPACE)
    assert p.says("pc.cost") == ["2"]
    assert len(k.state.part(PlanechaseState).rolls) == 2

    # Alice hits Bob for 6 with the keyboard: T, → to Bob, ↓ and PgDn: Bob's seat shows the
    # change at once, from Alice; the pause makes it.
    p.keys(pygame.K_t, pygame.K_RIGHT)
    p.keys(pygame.K_DOWN)
    p.keys(pygame.K_PAGEDOWN)
    assert p.says("seat1.life") == ["34"] and p.says("seat1.pending") == ["−6"]
    assert p.says("seat1.pending.from") == ["Alice"]
    assert k.state.player(1).life == 40  # shown, not made yet
    clock.now += PAUSE
    k.step(block=False)
    assert p.says("seat1.life") == ["34"] and p.says("seat1.pending") == []
    assert k.state.player(1).life == 34
    assert p.says("status.messages") == ["Bob: 40 → 34 life (from Alice)."]

    # A misclick: undo shows what it took back.
    p.keys(pygame.K_u)
    assert p.says("seat1.life") == ["40"]
    assert p.says("status.messages") == ["Undone: Bob: 40 → 34 life (from Alice)."]
    p.keys(pygame.K_y)
    assert p.says("seat1.life") == ["34"]

    # Touch: Carol takes 9 commander damage from Alice (the LIFE button, then Carol).
    p.touch(Go("adjust"))
    p.touch(PickPlayer(2))
    p.touch(PickCounter("commander"))
    p.touch(PickSource(1, 0))  # Bob's commander …
    p.touch(PickSource(0, 0))  # … no: Alice's
    p.touch(AddAmount(5))
    for _ in range(4):
        p.touch(AddAmount(1))
    p.touch(ApplyChange())
    assert p.says("seat2.cmd") == ["9"] and p.says("seat2.cmd.from") == [
        "Atraxa"
    ]  # her commander, by name
    assert p.says("seat2.life") == ["31"]

    # Dan gains 2 life from a touch on his seat's upper half, twice; NEXT makes it, then passes
    # the turn: Bob's upkeep banner, then his main phase and a roll by touch.
    p.touch(LifeStep(3, 1))
    p.touch(LifeStep(3, 1))
    assert p.says("seat3.life") == ["42"] and p.says("seat3.pending") == ["+2"]
    p.touch(Press(Button.NEXT))
    assert p.says("seat3.life") == ["42"] and p.says("seat3.pending") == []
    assert [t.command["type"] for t in k.history()[-2:]] == ["ChangeLife", "Advance"]
    assert p.says("banner.title") == ["Bob: upkeep"]
    assert p.says("header.turn") == ["Turn 2"]
    p.touch(Press(Button.NEXT))
    assert k.state.step is Step.MAIN
    p.touch(Press(Button.ROLL))
    assert k.ui.screen == "planechase"
    assert p.says("pc.cost") == ["1"]  # Bob's own count starts again

    # The help overlay lists the keys; Esc closes it.
    p.keys(pygame.K_F1)
    assert p.says("help.key")[0] == "Space, R" and p.says("help.line")[0] == "ROLL: roll the die"
    p.keys(pygame.K_ESCAPE)
    assert p.says("help.line") == []
    frames = sorted((tmp_path / "shots").iterdir())
    assert len(frames) >= 30
    assert all(f.suffix == ".png" for f in frames)
