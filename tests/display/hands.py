"""A player's hands on the kiosk in tests: keys, typed text, touches and tags go through SDL's
event queue and the reader's input queue, the way a person's do, and the frame is drawn after
each; and the GPIO buttons and encoder, pressed and turned on gpiozero's mock pins."""

from __future__ import annotations

import pygame
from gpiozero.pins.mock import MockFactory
from scenes import texts

from device.inputs import Button, TagRead
from display.kiosk import Kiosk
from drivers.gpio import GpioButtons, GpioConfig


def center(kiosk: Kiosk, action: object) -> tuple[int, int]:
    """The middle of the touch target that does ``action`` on the last frame."""
    x, y, w, h = next(t.rect for t in kiosk.canvas.targets if t.action == action)
    return x + w // 2, y + h // 2


class Hands:
    """Presses keys, types, touches the screen and taps cards; reads what the screen says."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        kiosk.redraw()

    def keys(self, *keys: int, text: str = "") -> None:
        for key in keys:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
            pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=""))
        if text:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
        self.kiosk.settle()

    def touch(self, action: object) -> None:
        pos = center(self.kiosk, action)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False)
        )
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
        self.kiosk.settle()

    def tap_card(self, uid: str) -> None:
        self.kiosk.inputs.put(TagRead(uid))
        self.kiosk.settle()

    def says(self, role: str) -> list[str]:
        return texts(self.kiosk, role)


CLOCKWISE = [("a", "low"), ("b", "low"), ("a", "high"), ("b", "high")]
COUNTER_CLOCKWISE = [("b", "low"), ("a", "low"), ("b", "high"), ("a", "high")]


class Wired:
    """The real GPIO driver on mock pins, its clock in the test's hands, feeding the kiosk."""

    def __init__(self, kiosk: Kiosk, factory: MockFactory) -> None:
        self.kiosk = kiosk
        self.factory = factory
        self.config = GpioConfig()
        self.now = 0.0
        self.buttons = GpioButtons(
            self.config, kiosk.inputs, clock=lambda: self.now, timer=False, pin_factory=factory
        )
        self.buttons.start()

    def press(self, button: Button, hold: float = 0.1) -> None:
        pin = self.factory.pin(self.config.button_pins()[button])
        pin.drive_low()
        self.buttons.poll()
        for _ in range(10):  # held: the driver's timer would poll meanwhile
            self.now += hold / 10
            self.buttons.poll()
        pin.drive_high()
        self.now += 0.05
        self.buttons.poll()
        self.now += 0.05
        self.buttons.poll()
        self.kiosk.settle()

    def turn(self, detents: int) -> None:
        pins = {
            "a": self.factory.pin(self.config.encoder_a),
            "b": self.factory.pin(self.config.encoder_b),
        }
        for _ in range(detents):
            for contact, level in CLOCKWISE:
                getattr(pins[contact], f"drive_{level}")()
        self.kiosk.settle()

    def back(self, detents: int) -> None:
        """The encoder turned counter-clockwise."""
        pins = {
            "a": self.factory.pin(self.config.encoder_a),
            "b": self.factory.pin(self.config.encoder_b),
        }
        for _ in range(detents):
            for contact, level in COUNTER_CLOCKWISE:
                getattr(pins[contact], f"drive_{level}")()
        self.kiosk.settle()
