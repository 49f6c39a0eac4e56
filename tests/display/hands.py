"""A player's hands on the kiosk in tests: keys, typed text, touches and tags go through SDL's
event queue and the reader's input queue, the way a person's do, and the frame is drawn after
each."""

from __future__ import annotations

import pygame
from scenes import texts

from device.inputs import TagRead
from display.kiosk import Kiosk


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
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
        self.kiosk.settle()

    def tap_card(self, uid: str) -> None:
        self.kiosk.inputs.put(TagRead(uid))
        self.kiosk.settle()

    def says(self, role: str) -> list[str]:
        return texts(self.kiosk, role)
