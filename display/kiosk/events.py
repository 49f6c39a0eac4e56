"""The event session: this gadget at an event across tables, through its link to the broker
(``device.event_link``), and the players' page it serves.

The broker's news and the organiser's rulings come in here, on the loop's thread; what the event
made of them is said on the status line, and a game it started or resumed (this table's next
group) is shown on its screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from device.controller import Result
from device.errors import IllegalCommand
from device.inputs import BrokerMessage, BrokerStatus, BrokerTrouble
from device.text import Message
from display.screens.conspiracy import NAME as CONSPIRACY
from display.screens.event import NAME as EVENT
from display.screens.event import EventInfo
from display.ui import Line

if TYPE_CHECKING:  # an event across tables is loaded only when the configuration names one
    from device.event_link import EventSession
    from display.kiosk import Kiosk
    from display.phone import Page


class Events:
    """The kiosk's part in an event across tables, once a session is attached."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        #: This gadget at an event across tables (its link to the broker), once one is attached.
        self.session: EventSession | None = None
        #: The players' page this gadget serves (``[event] page_port``), once one is attached.
        self.page: Page | None = None

    def attach(self, session: EventSession) -> None:
        """Take part in events across tables through ``session`` (its link puts the broker's
        messages on the kiosk's queue): the EVENT screen is shown from now on."""
        self.session = session
        self.refresh()
        if not session.joined:
            # The way in for hands on the buttons alone: SELECT joins the event offered.
            self.kiosk.go(EVENT)
        elif self.kiosk.state is None:
            self.kiosk.go(
                EVENT
            )  # no game here (the organiser's gadget, restarted): the event it follows

    def attach_page(self, page: Page) -> None:
        """Serve the event on the players' page ``page`` too: it is handed every change the
        EVENT screen is, and the screen shows where phones open it."""
        self.page = page
        self.refresh()

    def join(self, name: str) -> None:
        session = self.session
        if session is not None:
            self.made(lambda: session.join(name))

    def host(self, name: str, players: Sequence[str], options: Mapping[str, str]) -> bool:
        session = self.session
        if session is None:
            self.kiosk.refuse(IllegalCommand("consp.net.no_broker"))
            return False
        try:
            self.made(lambda: session.host(name, players, (), options))
        except IllegalCommand as error:
            self.kiosk.refuse(error)
            return False
        return True

    def organise(self, ruling: Callable[[EventSession], Sequence[Result]]) -> None:
        """One of the organiser's rulings on the event (refused with the reason shown)."""
        session = self.session
        if session is None:
            return
        try:
            self.made(lambda: ruling(session))
        except IllegalCommand as error:
            self.kiosk.refuse(error)

    def step(self) -> None:
        """After a change to the game: reported to the event; a group over may start the next."""
        if self.session is not None:
            self.made(self.session.step)

    def news(self, event: BrokerMessage | BrokerStatus) -> None:
        """A message from the broker, or the link's state."""
        ui = self.kiosk.ui
        if (
            isinstance(event, BrokerStatus)
            and event.connected
            and ui.error is not None
            and ui.error.key.startswith("consp.net.ca_")
        ):
            ui.error = None  # the broker was trusted after all
            self.kiosk.dirty = True
        session = self.session
        if session is not None:
            self.made(lambda: session.handle(event))

    def trouble(self, event: BrokerTrouble) -> None:
        # Until something else is said: the link says it again at each try it makes.
        self.kiosk.ui.error = Line(
            Message(event.key, broker=event.broker, ca=event.ca, reason=event.reason),
            None,
            event.key,
        )
        self.kiosk.dirty = True

    def deadline(self, now: float) -> float | None:
        """When the organiser's next announcement is due, on the kiosk's clock (``now``)."""
        session = self.session
        announced = session.deadline() if session is not None else None
        if session is None or announced is None:
            return None
        # The session counts on its own monotonic clock: what is left of it, from now on ours.
        return now + max(0.0, announced - session.monotonic())

    def announce(self) -> None:
        """The organiser's announcements that are due."""
        session = self.session
        due = session.deadline() if session is not None else None
        if session is not None and due is not None and due <= session.monotonic():
            self.made(session.announce)

    def made(self, work: Callable[[], Sequence[Result]]) -> None:
        """What the event made of news from the broker or of a change (``work``): said on the
        status line together; a game it started or resumed (this table's next group) is shown on
        its screen."""
        kiosk = self.kiosk
        game = kiosk.controller.game
        results = work()
        if results:
            merged = Result(
                [m for r in results for m in r.messages],
                kiosk.controller.state,
                [e for r in results for e in r.events],
            )
            kiosk.show(merged)
            self.refresh()
            if kiosk.controller.game != game:
                kiosk.go(CONSPIRACY)
            elif any(m.key == "consp.net.finished" for m in merged.messages):
                kiosk.go(EVENT)  # the final ranks
            return
        self.refresh()

    def refresh(self) -> None:
        if self.session is None:
            return
        kiosk, page = self.kiosk, self.page
        info = EventInfo.of(self.session, page=page.url if page is not None else "")
        if page is not None and info != kiosk.ui.kept(
            EventInfo
        ):  # a life change is no news to phones
            from display.phone import snapshots

            page.show(snapshots(info, kiosk.wall()))
        kiosk.ui.put(info)
        kiosk.dirty = True
