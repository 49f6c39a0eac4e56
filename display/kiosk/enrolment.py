"""Tags on the reader: a card tapped acts at once, and a tag nobody has enrolled is offered for
enrolling on the spot (the enrol screen), written into the tag map as ``aetherbox enroll``
writes it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from msgspec.structs import replace

from device.catalog import Card
from device.controller import Result
from device.tagmap import format_uid
from device.text import Message
from display.kiosk.results import CARD_SECONDS, ERROR_SECONDS, MESSAGE_SECONDS
from display.screens.enrol import NAME as ENROL
from display.screens.enrol import EnrolForm
from display.ui import EnrolTag, Line

if TYPE_CHECKING:
    from display.kiosk import Kiosk

log = logging.getLogger(__name__)

ENROL_SECONDS = 20.0  # how long the status line offers to enrol an unknown tag


class Enrolment:
    """What a tag on the reader does, and enrolling one the tag map does not know."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk

    def read(self, uid: str) -> None:
        """A tag on the reader: the card it is acts at once, and the status line says what it
        did; a tag nobody has enrolled is offered for enrolling on the spot."""
        kiosk, ui = self.kiosk, self.kiosk.ui
        kiosk.dirty = True
        controller = kiosk.controller
        if controller.tags is None:
            kiosk.results.run(lambda: controller.tag(uid))  # says there is no tag map
            return
        card = controller.card_of(uid)
        if card is not None:
            self.tapped(card)
            return
        form = ui.kept(EnrolForm)
        if ui.screen == ENROL and form is not None:
            ui.put(replace(form, uid=uid))  # enrolling already: this is the tag meant now
            return
        ui.card = Line(
            Message("ui.reader.unknown", uid=format_uid(uid)),
            kiosk.now() + ENROL_SECONDS,
            "unknown",
            offer=EnrolTag(uid),
            offer_label=Message("ui.enrol.offer"),
        )

    def tapped(self, card: Card, before: Sequence[Message] = ()) -> None:
        """A card tapped on the reader (or just enrolled): what it means in the game now.  The
        command's own messages are the status; the card's name shows only when it did nothing
        else.  ``before``: messages to show ahead of the command's."""
        kiosk, ui = self.kiosk, self.kiosk.ui
        result: Result | None = None
        if (
            kiosk.state is not None or not before
        ):  # with no game, a card just enrolled is only enrolled
            result = kiosk.results.run(lambda: kiosk.controller.identify(card))
        if before:
            ui.said = [*before, *(ui.said if result is not None else [])]
            ui.messages_until = kiosk.now() + MESSAGE_SECONDS
        elif result is not None and not result.messages:
            ui.card = Line(
                Message("ui.reader.card", name=card.name), kiosk.now() + CARD_SECONDS, "card"
            )

    def open(self, uid: str) -> None:
        """The enrol screen for tag ``uid``, coming back to the screen shown now."""
        ui = self.kiosk.ui
        ui.card = None  # the offer is taken up
        form = ui.kept(EnrolForm)
        back = form.back if ui.screen == ENROL and form is not None else ui.screen
        ui.put(EnrolForm(uid=uid, back=back))
        self.kiosk.go(ENROL)

    def enrol(self, uid: str, card: Card) -> bool:
        """Write tag ``uid`` as ``card`` into the tag map (as ``aetherbox enroll`` does: at
        once, atomically), then act on the tap as if the card had been known."""
        kiosk = self.kiosk
        tags = kiosk.controller.tags
        if tags is None:
            return False
        try:
            card = tags.add(uid, card)
        except OSError as error:
            reason = error.strerror or str(error)
            kiosk.ui.error = Line(
                Message("ui.enrol.failed", path=str(tags.path), reason=reason),
                kiosk.now() + ERROR_SECONDS,
                "enrol.failed",
            )
            kiosk.dirty = True
            return False
        log.info("reader: tag %s enrolled as %s in %s", format_uid(uid), card.name, tags.path)
        self.tapped(card, before=[Message("ui.enrol.done", uid=format_uid(uid), name=card.name)])
        kiosk.dirty = True
        return True
