"""A gadget in a Conspiracy event played across tables: its link to the event's MQTT broker, on
the game's thread (docs/decisions/0021).

The link itself (``drivers.broker``: paho-mqtt, or an in-process broker standing in for it) runs
on a thread of its own and only puts ``BrokerMessage`` and ``BrokerStatus`` values on the input
queue, as the reader puts taps.  ``EventSession`` reads them on the game's thread, where it

- keeps what the broker says: each event's plan (the organiser's draw), every table's reports and
  which tables are connected, and folds them into the event's standings
  (``device.rules.conspiracy.tables.fold``, a pure function of them);
- plays this gadget's part as a table: once it has joined an event it starts (or resumes) the
  game of the group the event gives its table, and after every change reports that game from the
  journal (``step``), only when what it says changed, numbered so the newest report wins;
- can host an event: draw it and publish the draw (``host``), the organiser's part.

Topics (``aetherbox/…``, readable by every login; the shipped ACL lets a table write only under
its own name, the organiser everywhere):

    aetherbox/events/<event>/plan                          the draw, retained (organiser)
    aetherbox/events/<event>/news                          announcements, not retained (organiser)
    aetherbox/tables/<table>/status                        online / offline, retained (its will)
    aetherbox/tables/<table>/events/<event>/<pod>/<round>/<group>/<gadget>
                                                           the table's report, retained

Every message is retained and sent with QoS 1 on a persistent session, so a table (or the
broker) that was away finds everything on its return; and once the broker has said all it held
(``synced``), a table publishes its reports again, numbered above every report the broker holds
for its table (not by its clock, which a Pi without a real-time clock may have wrong), so even
a broker that lost its store is filled up again.

Two gadgets may log in as one table (a spare started with a copy of the table's card, the
original back from repair): each report names the gadget that keeps the game (``gadget_id``),
each gadget's account is kept apart, and for each group the account that went furthest counts
(``device.rules.conspiracy.tables.furthest``), so neither an empty game nor an older one hides
what was played. Both gadgets and the organiser say so.

One round clock (docs/decisions/0032): the organiser starts a round's clock for every table, as
a ruling in its draw (``start_clock``); a table that hears it starts its game's clock by its own
clock then (``_round_clock``), and a group that starts later in that round starts its clock with
its game.  The organiser's gadget counts the round from its own start and announces ten minutes
left, time up and round 2's start (``deadline``, ``announce``) on the event's news topic, not
retained, so a table's persistent session gets what it missed when it is back.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
import uuid
from datetime import datetime
from pathlib import Path
from random import Random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Literal, Protocol

from msgspec import Struct, field
from pydantic import ValidationError

from device.controller import Controller, Result
from device.errors import IllegalCommand
from device.events import GameStarted
from device.inputs import BrokerMessage, BrokerStatus, InputEvent
from device.models import Model
from device.rules.conspiracy.play import event_message, group_title, joined
from device.rules.conspiracy.commands import StartClock
from device.rules.conspiracy.tables import (
    Assignment,
    EventPlan,
    EventView,
    Moved,
    PodFold,
    Redraw,
    RoundClock,
    TableReport,
    announcements,
    fold,
    game_key,
    plan_event,
    same_account,
    seated,
    supersedes,
    table_game,
    table_report,
)
from device.state import GameState
from device.text import Message, Text, fold as fold_text

log = logging.getLogger("aetherbox.event")

#: The broker login of the organiser: it may publish an event's draw, and plays no table.
ORGANISER = "organiser"
ROOT = "aetherbox"
EVERYTHING = f"{ROOT}/#"
ONLINE, OFFLINE = b"online", b"offline"

#: What the journal keeps beside the games: the event this gadget joined, the draw it hosted,
#: the number of its last session with the broker (the first half of a report's revision), the
#: journal's own id (half of the gadget's), and the joined event's draw as last heard (a table
#: restarted while the broker is away still knows its event).
JOINED, HOSTED, SESSION, JOURNAL_ID = (
    "event.joined",
    "event.hosted",
    "event.session",
    "event.journal",
)
DRAW = "event.draw"
#: Seconds a gadget waits before taking its table's login back from another gadget (a range:
#: each gadget its own wait, so the two do not meet at once).
TAKEOVER = (30.0, 60.0)
#: The games whose round clock this gadget started when the organiser's ran ("game/round …"): an
#: undo of that start is the table's to make, and the clock is not started again.
CLOCKED = "event.clocked"
#: Where a board says its serial number (a Pi's), else the machine's id: a copy of a card in
#: another Pi is another gadget.
BOARD_IDS = (Path("/sys/firmware/devicetree/base/serial-number"), Path("/etc/machine-id"))

TEXTS: dict[str, Text] = {
    "consp.net.no_broker": "No broker is set up: name it and this gadget's table under [event] in the "
    "configuration (broker = …, table = …).",
    "consp.net.no_event": "This gadget has joined no event: 'join NAME' joins one.",
    "consp.net.no_plan": "The draw of event {event} has not come from the broker yet.",
    "consp.net.not_organiser": "Only the organiser's login ({organiser}) may host an event; this gadget logs in "
    "as table {table}.",
    "consp.net.no_online": "No table is connected to the broker: start the tables' gadgets, or name the "
    "tables with tables=….",
    "consp.net.joined": "Joined event {event} as table {table}.",
    "consp.net.following": "Following event {event}.",
    "consp.net.waiting_plan": "Event {event}: waiting for the organiser's draw from the broker.",
    "consp.net.not_a_table": "Event {event} has no table {table}; its tables: {tables}.",
    "consp.net.assigned": "Event {event}: table {table} plays pod {pod}, {group} (round {round}): {players}.",
    "consp.net.waits": "Event {event}: table {table} waits for round 2 of its pod.",
    "consp.net.all_played": "Event {event}: table {table} has played every group it had.",
    "consp.net.round2": "Event {event}, pod {pod}: round 1 is over; round 2: {groups}.",
    "consp.net.finished": "Event {event} is over: the final ranks are in.",
    "consp.net.hosted": "Event {event} is at the broker, drawn for the tables {tables}.",
    "consp.net.host_group": "Pod {pod}, {group}: {players} at table {table}.",
    "consp.net.connected": "Connected to the event's broker at {broker}.",
    "consp.net.disconnected": "The event's broker at {broker} is out of reach: this table plays on and "
    "catches up when it is back.",
    "consp.net.ca_missing": "This gadget cannot check the event's broker at {broker}: its certificate authority "
    "{ca} cannot be read ({reason}). Copy /etc/aetherbox/broker-ca.crt from the organiser's Pi to {ca} here, then "
    "restart this gadget.",
    "consp.net.ca_wrong": "The broker at {broker} is not the event's, as {ca} knows it ({reason}): this table "
    "does not log in there. Copy /etc/aetherbox/broker-ca.crt from the organiser's Pi to {ca} again (or, if that "
    "Pi's name or address changed, run its install.sh --broker again).",
    "consp.net.refused": "The broker refused a message on {topic}: this gadget's login may not write there.",
    "consp.net.taken": "Another gadget ({gadget}) was connected as table {table}: the broker takes one connection "
    "per login, so the two take turns, this one coming back {seconds} s after it is put off. Switch one of them "
    "off, or give it a table of its own.",
    "consp.net.twin": "Another gadget ({gadget}) plays as table {table} too. For each group the account that "
    "went furthest counts; switch one of them off, or give it a table of its own.",
    "consp.net.twins": "Table {table} reports from more than one gadget ({gadgets}): for each group the account "
    "that went furthest counts.",
    "consp.net.correcting": "Event {event}, pod {pod}: round 1 is being corrected after round 2 began; round 2 "
    "goes on as drawn until the organiser decides.",
    "consp.net.corrected": "Event {event}, pod {pod}: round 1 was corrected after round 2 began; corrected, round 2 "
    "would be {groups}. Round 2 goes on as drawn until the organiser decides.",
    "consp.net.decide": "Event {event}, pod {pod}: round 1 was corrected after round 2 began; corrected, round 2 "
    "would be {groups}. Changed: {changed}. 'round2 {pod} redraw' restarts only the changed groups' games; "
    "'round2 {pod} keep' keeps round 2 as drawn.",
    "consp.net.redrawn": "Event {event}, pod {pod}: the organiser redrew round 2 after a correction of round 1: "
    "{groups}.",
    "consp.net.kept": "Event {event}, pod {pod}: the organiser keeps round 2 as drawn; the correction of round 1 "
    "stays in the standings of round 1 only.",
    "consp.net.not_hosted": "Only the gadget that drew event {event} may rule on its rounds.",
    "consp.net.no_correction": "Pod {pod} of event {event} has no correction of round 1 waiting.",
    "consp.net.still_correcting": "Round 1 of pod {pod} is still being corrected: rule once its groups are over "
    "again.",
    "consp.net.at_table": "{group} at table {table}",
    "consp.net.no_group": "Pod {pod} of event {event} has no group {group!r} yet.",
    "consp.net.begun": "Pod {pod}, {group} has begun at table {table}: only a group not begun moves.",
    "consp.net.busy": "Table {table} still plays a group: move pod {pod}'s group to a table that plays nothing now.",
    "consp.net.moved": "Event {event}, pod {pod}: the organiser moved {group} to table {table}.",
    "consp.net.no_gadget": "No gadget {gadget!r} reports as table {table}; those that do: {gadgets}.",
    "consp.net.counts": "At table {table}, the organiser counts the accounts of gadget {gadget}.",
    "consp.net.counts_furthest": "At table {table}, the account that went furthest counts again.",
    "consp.net.not_counted": "Table {table}: this gadget's account of pod {pod}, {group} does not count; gadget "
    "{gadget}'s does.",
    "consp.net.outrun": "Table {table}, pod {pod}, {group}: another gadget's account of it went further and "
    "counts; this gadget's game of it does not.",
    # one round clock, started by the organiser for every table
    "consp.net.clock_ruled": "Event {event}: round {round}'s clock started for every table at {at} by this "
    "gadget's clock: {minutes}.",
    "consp.net.clock_started": "Event {event}: the organiser started round {round}'s clock; this table's clock "
    "runs from now.",
    "consp.net.clock_late": "Event {event}: the organiser started round {round}'s clock while this table was "
    "away; this table's clock runs from now.",
    "consp.net.clock_group": "Event {event}: the organiser's clock of round {round} runs; this group's clock "
    "starts with its game.",
    "consp.net.clock_round": "A round's clock is round 1's or round 2's, not {round!r}.",
    "consp.net.clock_again": "Round {round}'s clock of event {event} is running already.",
    "consp.net.clock_early": "No pod of event {event} has drawn its round 2 yet: start round 2's clock once one "
    "has.",
    "consp.news.start": "Event {event}: round {round} starts: {minutes} on the clock.",
    "consp.news.ten": "Event {event}, round {round}: 10 minutes left.",
    "consp.news.up": "Event {event}, round {round}: time is up. Extra turns: one more lap from the active "
    "player, then rank by life (CJ-5).",
}


class Link(Protocol):
    """What a session needs of its link to the broker, real or in-process: between ``start`` and
    ``stop`` it puts ``BrokerMessage`` and ``BrokerStatus`` values on the queue it was opened
    with, and sends what it is given (QoS 1, retained unless told), kept while the broker is
    away; ``back_off`` sets how long it waits before connecting again once put off (0: as usual)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def publish(self, topic: str, payload: bytes, retain: bool = True) -> None: ...

    def back_off(self, seconds: float) -> None: ...


class InputSink(Protocol):
    def put(self, item: InputEvent, block: bool = True, timeout: float | None = None) -> None: ...


#: Opens the link to the configured broker, putting its messages on the queue it is given.
OpenLink = Callable[[InputSink], Link]


# --- topics --------------------------------------------------------------------------------------


def event_key(name: str) -> str:
    """An event's name as a topic level: "Spring Cup" → "spring-cup" (case and accents folded;
    MQTT's wildcards and separator, like every other mark, become "-")."""
    return re.sub(r"[\W_]+", "-", fold_text(name)).strip("-") or "event"


def plan_topic(event: str) -> str:
    return f"{ROOT}/events/{event_key(event)}/plan"


def news_topic(event: str) -> str:
    return f"{ROOT}/events/{event_key(event)}/news"


def presence_topic(table: str) -> str:
    return f"{ROOT}/tables/{table}/status"


def is_online(payload: bytes) -> bool:
    """A presence says online: the link's plain ``online`` at connecting, or the session's
    ``online <gadget>`` once it has caught up (which names the gadget holding the login)."""
    return payload == ONLINE or payload.startswith(ONLINE + b" ")


def present_gadget(payload: bytes) -> str:
    """The gadget a presence names, if it names one."""
    return (
        payload[len(ONLINE) + 1 :].decode("ascii", "replace")
        if payload.startswith(ONLINE + b" ")
        else ""
    )


def report_topic(event: str, report: TableReport) -> str:
    topic = f"{ROOT}/tables/{report.table}/events/{event_key(event)}/{report.pod}/{report.round}/{report.group}"
    return f"{topic}/{report.gadget}" if report.gadget else topic


class Topic(Struct, frozen=True):
    """What a topic is about: ``kind`` "plan", "news", "status" or "report", with its event and
    table; a report's also with its group's key (pod, round, group) and the gadget that sent it."""

    kind: str
    event: str = ""
    table: str = ""
    key: tuple[int, int, str] = (0, 0, "")
    gadget: str = ""


#: A pod's or a round's number in a topic: what a draw can have, in a few digits.
_NUMBER = re.compile(r"[1-9][0-9]{0,2}")


def read_topic(topic: str) -> Topic | None:
    """What ``topic`` is about, or None when no gadget writes such a topic (read before the
    message is: a flood of odd topics costs a split each)."""
    parts = topic.split("/")
    if len(parts) == 4 and parts[:2] == [ROOT, "events"] and parts[3] in ("plan", "news"):
        return Topic(parts[3], event=parts[2])
    if len(parts) == 4 and parts[:2] == [ROOT, "tables"] and parts[3] == "status":
        return Topic("status", table=parts[2])
    if len(parts) in (8, 9) and parts[:2] == [ROOT, "tables"] and parts[3] == "events":
        pod, round_ = parts[5], parts[6]
        if not (_NUMBER.fullmatch(pod) and _NUMBER.fullmatch(round_)):
            return None
        return Topic(
            "report",
            event=parts[4],
            table=parts[2],
            key=(int(pod), int(round_), parts[7]),
            gadget=parts[8] if len(parts) == 9 else "",
        )
    return None


# --- the session ---------------------------------------------------------------------------------


#: The most gadgets whose accounts of one table's group are kept: the table's own, a spare and
#: the original back from repair, and one more.  Past it the lowest ids are kept, a choice that
#: depends on the ids alone, so every gadget keeps the same ones in any order of arrival; only
#: the table's own login can write there, so a flood of ids hides that table's group alone.
GADGETS_PER_GROUP = 4
#: The largest report a gadget reads (a group of six's, with every player out at its own change
#: and Rumble picks, is under 3 kB): a larger one is no report.
REPORT_BYTES = 16_384
#: Reports of an event whose draw has not come yet (the broker sends what it holds in its own
#: order) wait, unread, until it comes; this many topics of each table (its lowest), so a
#: table writing under many events' names holds a bounded share of this gadget's memory.
WAITING_PER_TABLE = 64


class Heard(Struct):
    """What the broker has said so far: plans by event, each gadget's newest report of each
    table's group (``accounts``; the fold chooses the one that counts), presence; and the reports
    of events not drawn yet, unread (``waiting``: by table, topic → event and payload)."""

    plans: dict[str, EventPlan] = field(default_factory=dict)
    online: dict[str, bool] = field(default_factory=dict)
    accounts: dict[tuple[str, str, tuple[int, int, str]], dict[str, TableReport]] = field(
        default_factory=dict
    )
    waiting: dict[str, dict[str, tuple[str, bytes]]] = field(default_factory=dict)
    #: A gadget's account that may have counted was let go for a lower id: a fold made before
    #: may count it, so the standings are folded anew from ``accounts``.
    dropped: bool = False
    _gadgets: dict[str, dict[str, int]] = field(
        default_factory=dict
    )  # by table: its accounts kept, by gadget
    #: By draw and the organiser's moves: the (table, group) its reports may be about.
    _groups: dict[tuple[str, tuple[Moved, ...]], frozenset[tuple[str, tuple[int, int, str]]]] = (
        field(default_factory=dict)
    )

    def keep(self, report: TableReport) -> bool:
        """Keep ``report`` unless a newer one of the same table's group from the same gadget is
        kept (or its gadget's id is above ``GADGETS_PER_GROUP`` lower ones); whether it was (the
        fold chooses between gadgets: the furthest, or the one the organiser names)."""
        key = (report.table, report.plan, report.key)
        accounts = self.accounts.setdefault(key, {})
        if not supersedes(report, accounts.get(report.gadget)):
            return False
        if report.gadget not in accounts and len(accounts) >= GADGETS_PER_GROUP:
            highest = max(accounts)
            if report.gadget > highest:
                return False
            del accounts[highest]
            self.dropped = True
            held = self._gadgets[report.table]
            held[highest] -= 1
            if not held[highest]:
                del held[highest]
        if report.gadget not in accounts:
            held = self._gadgets.setdefault(report.table, {})
            held[report.gadget] = held.get(report.gadget, 0) + 1
        accounts[report.gadget] = report
        return True

    def everything(self, plan: str) -> Iterator[TableReport]:
        """Every gadget's newest account of every group of the draw ``plan``."""
        return (
            r
            for (_, of, _), accounts in self.accounts.items()
            if of == plan
            for r in accounts.values()
        )

    def expects(self, plan: EventPlan, topic: Topic) -> bool:
        """Whether ``plan`` gives the group in a report's ``topic`` to the table it is from (its
        round-1 groups as drawn, round 2 at the pod's tables), and a report from that gadget
        could be kept: what a table cannot have played is let go before it is read."""
        groups = self._groups.get((plan.id, plan.moves))
        if groups is None:
            # A group the organiser moved is played at the table it was moved to (a group not
            # begun, so the table it was drawn at reports none of it; both are expected).
            groups = self._groups[(plan.id, plan.moves)] = frozenset(
                [(a.table, a.key) for a in plan.groups]
                + [(m.table, m.key) for m in plan.moves]
                + [
                    (plan.round2_table(pod, label), (pod, 2, label))
                    for pod in range(1, len(plan.pods) + 1)
                    for label in ("winners", "losers")
                ]
            )
        if (topic.table, topic.key) not in groups:
            return False
        accounts = self.accounts.get((topic.table, plan.id, topic.key))
        return (
            accounts is None
            or len(accounts) < GADGETS_PER_GROUP
            or topic.gadget in accounts
            or topic.gadget < max(accounts)
        )

    def wait(self, topic: str, event: str, table: str, payload: bytes) -> None:
        """Keep a report of an event not drawn yet, unread, for when its draw comes (an empty
        payload: the table took it off the broker)."""
        waiting = self.waiting.setdefault(table, {})
        if not payload:
            waiting.pop(topic, None)
        elif topic in waiting or len(waiting) < WAITING_PER_TABLE:
            waiting[topic] = (event, payload)
        else:
            highest = max(waiting)
            if topic < highest:
                del waiting[highest]
                waiting[topic] = (event, payload)

    def drawn(self, event: str) -> list[tuple[str, bytes]]:
        """The reports that waited for ``event``'s draw, taken out of the waiting."""
        found: list[tuple[str, bytes]] = []
        for waiting in self.waiting.values():
            for topic in [t for t, (e, _) in waiting.items() if e == event]:
                found.append((topic, waiting.pop(topic)[1]))
        return found

    def gadgets(self, table: str) -> list[str]:
        """The gadgets that reported as ``table``, by id."""
        return sorted(self._gadgets.get(table, ()))


class News(Model):
    """One of the organiser's announcements: its kind ("start", "ten", "up"; see
    ``device.rules.conspiracy.tables.announcements``) and what it says, for each gadget to say in
    its own language."""

    plan: str
    event: str
    round: int
    kind: Literal["start", "ten", "up"]  # another is a message this gadget cannot say: left out
    minutes: int = 0

    def message(self) -> Message:
        return Message(
            f"consp.news.{self.kind}",
            event=self.event,
            round=self.round,
            minutes=Message("consp.minutes", n=self.minutes),
        )


def gadget_id(journal_id: str, boards: Sequence[Path] = BOARD_IDS) -> str:
    """This gadget's id in its reports: its board's (or machine's) id with its journal's, so a
    copy of a table's card in another Pi, or another card in the same Pi, is another gadget."""
    board = ""
    for path in boards:
        try:
            board = path.read_bytes().strip(b"\0\n ").decode("ascii", "replace")
        except OSError:
            continue
        if board:
            break
    return hashlib.sha256(f"{board}/{journal_id}".encode()).hexdigest()[:8]


class EventSession:
    """This gadget at events across tables, on the game's thread (see the module's docstring).

    ``handle`` takes the link's inputs, ``step`` is called after anything changed the game; both
    return what the screen or the console should show (a game started, news of the event)."""

    def __init__(
        self,
        controller: Controller,
        link: Link,
        table: str,
        *,
        broker: str = "",
        join: str = "",
        gadget: str | None = None,
        takeover: tuple[float, float] = TAKEOVER,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.controller = controller
        #: What the organiser counts its round clocks on (a wall clock set during a round moves
        #: none of its announcements: docs/decisions/0027).
        self.monotonic = monotonic
        self._began: dict[
            tuple[str, int], float
        ] = {}  # (draw, round) → its clock's start, on ``monotonic``
        self._announced: set[tuple[str, int, str]] = set()
        #: The last draw heard came before the broker had said all it held for this gadget: it was
        #: published while this gadget was away.
        self._late = False
        self.link = link
        self.table = table
        self.broker = broker
        self.heard = Heard()
        self.connected = False
        #: The broker has sent everything it held when this gadget connected: its own presence,
        #: published after it subscribed, has come back live (a broker sends a subscription's
        #: retained messages before anything published after it).
        self.synced = False
        #: Another gadget held this table's login until this connection took it (its presence,
        #: retained, named it): both take turns, each waiting ``takeover`` seconds (a range)
        #: before taking it again, not twice a second.
        self.before = ""
        self.takeover = takeover
        self.joined = join or self._meta(JOINED) or ""
        self._draw_kept: EventPlan | None = None  # the draw last written to the journal
        self._keep_draw_heard()
        #: The id of the draw this gadget hosted (kept in the journal): asked at every loop's
        #: deadline on the organiser's gadget, so not read from the journal each time.
        self._hosted_id = _plan_id(self._meta(HOSTED))
        self._published: dict[tuple[str, tuple[int, int, str]], TableReport] = {}
        self._basis: dict[
            tuple[str, tuple[int, int, str]], object
        ] = {}  # the game state each was made from
        self._view: EventView | None = None  # the fold of what was heard, None after a new draw
        self._unfolded: list[TableReport] = []  # reports kept since the view was folded
        self._following: Assignment | None = None
        self._reported_plan = ""  # the draw whose games were last all reported again
        self._said: set[object] = set()
        self._looked: dict[int, PodFold] = {}  # each pod's fold when its news was last looked for
        self._count = 0
        journal = self.controller.journal
        if not self._meta(JOURNAL_ID):
            journal.set_meta(JOURNAL_ID, uuid.uuid4().hex)
        #: This gadget's id in its reports (see the module's docstring).
        self.gadget = gadget if gadget is not None else gadget_id(self._meta(JOURNAL_ID) or "")
        self._turns = Random(self.gadget)  # two gadgets on one login wait different times
        # The first half of every revision: above the last session's; once the broker has said
        # what it holds, above every report of this table there too (``_synced``), so a journal
        # restored from a backup still numbers its reports after those already sent.
        self.session = int(self._meta(SESSION) or 0) + 1
        journal.set_meta(SESSION, str(self.session))

    def _keep_draw_heard(self) -> None:
        """The joined event's draw as the journal kept it, as if the broker had said it (it says
        it again, or a newer one, when it is back)."""
        kept = self._meta(DRAW)
        if not kept or not self.joined:
            return
        try:
            plan = EventPlan.model_validate_json(kept)
        except ValidationError:
            log.warning(
                "event: the draw kept in the journal cannot be read; it comes from the broker again"
            )
            return
        if event_key(plan.event) == event_key(self.joined):
            self._draw_kept = self.heard.plans.setdefault(event_key(plan.event), plan)

    def _keep_draw(self) -> None:
        """The joined event's draw into the journal, when it is a new one."""
        plan = self.plan
        if plan is not None and plan is not self._draw_kept:
            self._draw_kept = plan
            self.controller.journal.set_meta(DRAW, plan.model_dump_json())

    @property
    def organiser(self) -> bool:
        """Whether this gadget is the event's organiser (its login), which draws the events."""
        return self.table == ORGANISER

    def _meta(self, key: str) -> str | None:
        return self.controller.journal.meta(key)

    # --- lifetime -------------------------------------------------------------------------

    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()

    # --- what the broker says -------------------------------------------------------------

    def handle(self, event: InputEvent) -> list[Result]:
        """An input from the link: what it means to the event, and what follows from it."""
        said: list[Message] = []
        if isinstance(event, BrokerStatus):
            said += self._status(event)
        elif isinstance(event, BrokerMessage):
            said += self._message(event)
        return self._results(said) + self._follow()

    def _status(self, status: BrokerStatus) -> list[Message]:
        if status.refused:
            return [Message("consp.net.refused", topic=status.refused)]
        if status.connected == self.connected:
            return []
        self.connected = status.connected
        if not status.connected:
            self.heard.online[self.table] = False
            self.synced = False
            return [Message("consp.net.disconnected", broker=self.broker)]
        self.before = ""
        return [Message("consp.net.connected", broker=self.broker)]

    def _synced(self) -> list[Message]:
        """The broker has said all it held: number this session above every report of this table
        it holds, then send this gadget's draw and reports again, and say which gadget holds the
        login now. Another one held it until now: take turns with it (``before``)."""
        held = [
            r.revision[0]
            for (table, _, _), accounts in self.heard.accounts.items()
            if table == self.table
            for r in accounts.values()
        ]
        if held and max(held) >= self.session:
            self.session = max(held) + 1
            self._count = 0
            self.controller.journal.set_meta(SESSION, str(self.session))
        self._republish()
        self.link.publish(presence_topic(self.table), ONLINE + b" " + self.gadget.encode())
        if not self.before:
            self.link.back_off(0)
            return []
        seconds = round(self._turns.uniform(*self.takeover))
        self.link.back_off(seconds)
        return [Message("consp.net.taken", gadget=self.before, table=self.table, seconds=seconds)]

    def _message(self, message: BrokerMessage) -> list[Message]:
        topic = read_topic(message.topic)
        if topic is None:
            return []
        try:
            if topic.kind == "status":
                online = is_online(message.payload)
                self.heard.online[topic.table] = online
                if topic.table == self.table and message.retained and not self.synced:
                    other = present_gadget(message.payload)
                    self.before = other if online and other != self.gadget else ""
                mine = (
                    topic.table == self.table and message.payload == ONLINE and not message.retained
                )
                if mine and not self.synced:
                    self.synced = True
                    return self._synced()
            elif topic.kind == "plan" and not message.payload:
                # A retained message emptied: the organiser took the event off the broker.
                if self.heard.plans.pop(topic.event, None) is not None:
                    self._view = None
            elif topic.kind == "news":
                return self._heard_news(News.model_validate_json(message.payload))
            elif topic.kind == "plan":
                self._late = not self.synced
                plan = EventPlan.model_validate_json(message.payload)
                if (
                    event_key(plan.event) == topic.event
                    and self.heard.plans.get(topic.event) != plan
                ):
                    self.heard.plans[topic.event] = plan
                    self._view = None
                    return [
                        said
                        for where, payload in self.heard.drawn(topic.event)
                        for said in self._message(BrokerMessage(where, payload, retained=True))
                    ]
            elif topic.kind == "report":
                return self._report_heard(message, topic)
        except (ValidationError, ValueError) as error:
            log.warning(
                "event: a message on %s cannot be read (%s); it is left out", message.topic, error
            )
        return []

    def _report_heard(self, message: BrokerMessage, topic: Topic) -> list[Message]:
        """A report, let go unread when it cannot count (so a flood costs a look at its topic
        each): larger than any report, of a group its table does not play, from a gadget past
        those kept; kept unread until its event's draw comes."""
        if len(message.payload) > REPORT_BYTES:
            return []
        plan = self.heard.plans.get(topic.event)
        if plan is None:
            self.heard.wait(message.topic, topic.event, topic.table, message.payload)
            return []
        if not message.payload or not self.heard.expects(plan, topic):
            return []
        report = TableReport.model_validate_json(message.payload)
        if report.plan != plan.id or report.key != topic.key or report.gadget != topic.gadget:
            return []  # its topic says otherwise: not a report its table's gadget made
        return self._heard_report(message.topic, report, topic)

    def _heard_report(self, where: str, report: TableReport, topic: Topic) -> list[Message]:
        # The broker lets a table write only under its own name; a report inside must say so too.
        if report.table != topic.table:
            return []
        kept = self.heard.keep(report)
        if self.heard.dropped:
            self.heard.dropped = False
            self._view = None  # a gadget's account let go: the standings folded anew without it
        elif kept:
            self._fold_later(report)
        if topic.table == self.table and report.gadget == self.gadget:
            self._restore(where, report)
        return self._twins(report)

    def _twins(self, report: TableReport) -> list[Message]:
        """Two gadgets report as one table: this table's own gadget and the organiser say so
        (once each; a gadget whose account does not count says which group: ``_ignored``)."""
        said: list[Message] = []
        if (
            report.table == self.table
            and report.gadget != self.gadget
            and ("twin", report.gadget) not in self._said
        ):
            self._said.add(("twin", report.gadget))
            said.append(Message("consp.net.twin", gadget=report.gadget or "?", table=self.table))
        elif (
            self.organiser
            and len(gadgets := self.heard.gadgets(report.table)) > 1
            and ("twins", report.table, len(gadgets)) not in self._said
        ):
            self._said.add(("twins", report.table, len(gadgets)))
            said.append(Message("consp.net.twins", table=report.table, gadgets=", ".join(gadgets)))
        return said

    def not_counted(self) -> list[tuple[Assignment, str]]:
        """This table's groups where this gadget kept a game but another gadget's account counts
        (it went further, or the organiser said so), with that gadget."""
        view = self.view
        if view is None:
            return []
        found: list[tuple[Assignment, str]] = []
        for assignment in view.assignments(self.table):
            counted = view.report(assignment)
            mine = self.heard.accounts.get((self.table, view.plan.id, assignment.key), {})
            if counted is not None and self.gadget in mine and counted.gadget != self.gadget:
                found.append((assignment, counted.gadget))
        return found

    def _ignored(self, view: EventView) -> list[Message]:
        """This table's groups where this gadget's account does not count, another gadget's
        does (it went further, or the organiser said so): said once for each, with why."""
        said: list[Message] = []
        for assignment, gadget in self.not_counted():
            ruled = view.plan.counts(self.table) == gadget
            if ("ignored", assignment.key, gadget, ruled) in self._said:
                continue
            self._said.add(("ignored", assignment.key, gadget, ruled))
            group = Message(f"consp.in_group.{assignment.group}")
            said.append(
                Message(
                    "consp.net.not_counted",
                    table=self.table,
                    pod=assignment.pod,
                    group=group,
                    gadget=gadget,
                )
                if ruled
                else Message("consp.net.outrun", table=self.table, pod=assignment.pod, group=group)
            )
        return said

    def _restore(self, topic: str, kept: TableReport) -> None:
        """The broker holds an older account of one of this table's groups than the one sent
        last (a stale copy was published again): send the newest again, so it is what a gadget
        that connects later is given."""
        mine = self._published.get((kept.plan, kept.key))
        if mine is not None and (
            kept.revision < mine.revision or kept.revision == mine.revision and kept != mine
        ):
            self.link.publish(topic, mine.model_dump_json().encode())

    # --- the joined event -----------------------------------------------------------------

    @property
    def plan(self) -> EventPlan | None:
        """The draw of the event this gadget joined, once the broker has it."""
        return self.heard.plans.get(event_key(self.joined)) if self.joined else None

    @property
    def view(self) -> EventView | None:
        """The joined event as every report received tells it (folded again only after news)."""
        plan = self.plan
        if plan is None:
            return None
        if self._view is None or self._view.plan is not plan:
            # A new draw, or another event joined: everything heard of it.
            self._view = fold(plan, self.heard.everything(plan.id))
        elif self._unfolded:
            # Only the news, onto the last fold: only the pods it is about are folded again, so a
            # message costs the same at 4 tables as at 32.
            self._view = fold(plan, self._unfolded, self._view)
        self._unfolded.clear()
        return self._view

    def _fold_later(self, report: TableReport) -> None:
        """A report kept: the view folds it in when it is next looked at (a fold anew, after a new
        draw, takes it from what was heard)."""
        if self._view is not None and report.plan == self._view.plan.id:
            self._unfolded.append(report)

    def offered(self) -> list[EventPlan]:
        """The events at the broker that give this gadget's table a group, by name."""
        return sorted(
            (p for p in self.heard.plans.values() if self.table in p.tables),
            key=lambda p: fold_text(p.event),
        )

    def tables_online(self) -> list[str]:
        """The tables connected to the broker now (the organiser's login plays none)."""
        return sorted(t for t, on in self.heard.online.items() if on and t != ORGANISER)

    def join(self, name: str) -> list[Result]:
        """Join event ``name`` as this gadget's table: kept in the journal, so a restart rejoins."""
        name = " ".join(name.split())
        self.controller.journal.set_meta(JOINED, name)
        self.joined = name
        self._following = None
        self._said = set()
        self._looked = {}
        said = [
            Message(
                "consp.net.following" if self.table == ORGANISER else "consp.net.joined",
                event=name,
                table=self.table,
            )
        ]
        if self.plan is None:
            said.append(Message("consp.net.waiting_plan", event=name))
        return self._results(said) + self._follow()

    def host(
        self, name: str, players: Sequence[str], tables: Sequence[str], options: Mapping[str, str]
    ) -> list[Result]:
        """The organiser's part (CJ-1, CJ-2): draw the event for ``tables`` (none named: every table
        connected now), publish the draw, and join it."""
        if self.table != ORGANISER:
            raise IllegalCommand("consp.net.not_organiser", table=self.table, organiser=ORGANISER)
        name = " ".join(name.split())
        chosen = list(tables) or self.tables_online()
        if not chosen:
            raise IllegalCommand("consp.net.no_online")
        rng = self.controller.rng
        plan = plan_event(
            name, players, chosen, options, rng, uuid.UUID(int=rng.getrandbits(128)).hex
        )
        self._publish_plan(plan)
        said = [
            event_message(name, [len(pod) for pod in plan.pods]),
            Message("consp.net.hosted", event=name, tables=", ".join(plan.tables)),
        ]
        said += [
            Message(
                "consp.net.host_group",
                pod=a.pod,
                group=group_title(a.group),
                table=a.table,
                players=", ".join(a.players),
            )
            for a in plan.groups
        ]
        return self._results(said) + self.join(name)

    def _publish_plan(self, plan: EventPlan) -> None:
        """The organiser's draw (or a ruling on it) to the broker, and kept to send again."""
        payload = plan.model_dump_json()
        self.controller.journal.set_meta(HOSTED, payload)
        self._hosted_id = plan.id
        self.link.publish(plan_topic(plan.event), payload.encode())
        self.heard.plans[event_key(plan.event)] = plan
        self._view = None

    def _hosted(self) -> EventView:
        """The joined event, when this gadget drew it: only its organiser rules on it."""
        view = self.view
        if view is None:
            raise IllegalCommand("consp.net.no_event")
        if not self._hosts(view.plan):
            raise IllegalCommand("consp.net.not_hosted", event=view.plan.event)
        return view

    def move(self, pod: int, group: str, table: str) -> list[Result]:
        """The organiser's ruling: pod ``pod``'s group ``group`` (not begun yet) is played at
        ``table``, which plays nothing now (a pod of 5 queues both its round-2 groups on one
        table while another is done)."""
        view = self._hosted()
        found = next((a for a in view.groups if (a.pod, a.group) == (pod, group)), None)
        if found is None:
            raise IllegalCommand("consp.net.no_group", pod=pod, group=group, event=view.plan.event)
        if table not in view.plan.tables:
            raise IllegalCommand(
                "consp.net.not_a_table",
                event=view.plan.event,
                table=table,
                tables=", ".join(view.plan.tables),
            )
        if view.report(found) is not None:  # its table started its game: the game stays where it is
            raise IllegalCommand(
                "consp.net.begun",
                pod=pod,
                group=Message(f"consp.in_group.{group}"),
                table=found.table,
            )
        if view.current(table) is not None:
            raise IllegalCommand("consp.net.busy", table=table, pod=pod)
        self._publish_plan(
            view.plan.with_move(Moved(pod=pod, round=found.round, group=group, table=table))
        )
        return (
            self._results(
                [
                    Message(
                        "consp.net.moved",
                        event=view.plan.event,
                        pod=pod,
                        group=Message(f"consp.in_group.{group}"),
                        table=table,
                    )
                ]
            )
            + self._follow()
        )

    def count(self, table: str, gadget: str) -> list[Result]:
        """The organiser's ruling: at ``table``, reported by more than one gadget, ``gadget``'s
        accounts count ("": the furthest, as before any ruling)."""
        view = self._hosted()
        if gadget and gadget not in self.heard.gadgets(table):
            raise IllegalCommand(
                "consp.net.no_gadget",
                table=table,
                gadget=gadget,
                gadgets=", ".join(self.heard.gadgets(table)) or "–",
            )
        self._publish_plan(view.plan.with_count(table, gadget))
        said = (
            Message("consp.net.counts", table=table, gadget=gadget)
            if gadget
            else Message("consp.net.counts_furthest", table=table)
        )
        return self._results([said]) + self._follow()

    def rule(self, pod: int, redraw: bool) -> list[Result]:
        """The organiser's ruling on a correction of pod ``pod``'s round 1 made after its round 2
        began: round 2 drawn again from round 1 as corrected (only the groups whose players or
        seating change start anew), or kept as it was begun."""
        view = self._hosted()
        pending = view.folds[pod - 1].pending if 1 <= pod <= len(view.folds) else None
        if pending is None:
            raise IllegalCommand("consp.net.no_correction", pod=pod, event=view.plan.event)
        if not pending:
            raise IllegalCommand("consp.net.still_correcting", pod=pod)
        self._publish_plan(
            view.plan.ruled(
                Redraw(pod=pod, groups=pending if redraw else view.round_two(pod), basis=pending)
            )
        )
        return self._follow()

    # --- one round clock (docs/decisions/0032) -------------------------------------------

    def start_clock(self, round: int) -> list[Result]:
        """The organiser starts round ``round``'s clock for every table: a ruling in its draw, so
        a table that connects later, or restarts, knows it too."""
        view = self._hosted()
        plan = view.plan
        if round not in (1, 2):
            raise IllegalCommand("consp.net.clock_round", round=round)
        if plan.clock(round) is not None:
            raise IllegalCommand("consp.net.clock_again", event=plan.event, round=round)
        if round == 2 and not any(f.drawn for f in view.folds):
            raise IllegalCommand("consp.net.clock_early", event=plan.event)
        at = self.controller.clock()
        self._began[(plan.id, round)] = self.monotonic()
        self._publish_plan(plan.clocked(RoundClock(round=round, at=at)))
        minutes = Message("consp.minutes", n=int(plan.options.get("time_limit", 75)))
        said = [
            Message(
                "consp.net.clock_ruled",
                event=plan.event,
                round=round,
                minutes=minutes,
                at=datetime.fromtimestamp(at).strftime("%H:%M"),
            )
        ]
        return self._results(said) + self.announce() + self._follow()

    def clock_to_start(self) -> int | None:
        """The round whose clock the organiser may start now, on the gadget that hosts the event:
        round 1's until it is started, then round 2's once a pod has drawn its round 2."""
        plan = self.plan
        if plan is None or not self._hosts(plan):
            return None
        view = self.view
        if plan.clock(1) is None:
            return 1
        if plan.clock(2) is None and view is not None and any(f.drawn for f in view.folds):
            return 2
        return None

    def deadline(self) -> float | None:
        """When (on ``monotonic``) the organiser's next announcement is due; None on a gadget
        with none to make.  A loop sleeps until then, then calls ``announce``."""
        due = [at for at, _ in self._schedule()]
        return min(due) if due else None

    def announce(self) -> list[Result]:
        """The organiser's announcements that are due: to every table, and said here."""
        now = self.monotonic()
        said: list[Message] = []
        for at, news in sorted(self._schedule(), key=lambda pair: pair[0]):
            if at > now:
                continue
            self._announced.add((news.plan, news.round, news.kind))
            self._said.add(
                ("news", news.plan, news.round, news.kind)
            )  # its copy from the broker is not news
            self.link.publish(news_topic(news.event), news.model_dump_json().encode(), retain=False)
            said.append(news.message())
        return self._results(said)

    def _hosts(self, plan: EventPlan) -> bool:
        """Whether this gadget drew ``plan`` (only it rules on it and counts its rounds)."""
        return self.organiser and plan.id == self._hosted_id

    def _schedule(self) -> list[tuple[float, News]]:
        """The announcements not made yet of the rounds whose clock this gadget started, each with
        when it is due."""
        plan = self.plan
        if plan is None or not plan.clocks or not self._hosts(plan):
            return []
        found: list[tuple[float, News]] = []
        length = int(plan.options.get("time_limit", 75))
        for clock in plan.clocks:
            began = self._began_at(plan, clock)
            for kind, after in announcements(plan, clock.round):
                if (plan.id, clock.round, kind) not in self._announced:
                    found.append(
                        (
                            began + after,
                            News(
                                plan=plan.id,
                                event=plan.event,
                                round=clock.round,
                                kind=kind,
                                minutes=length if kind == "start" else 0,
                            ),
                        )
                    )
        return found

    def _began_at(self, plan: EventPlan, clock: RoundClock) -> float:
        """When a round's clock started, on ``monotonic``.  After a restart only the clock the
        start was read on spans the gap: the round goes on from it, and what fell due while the
        gadget was off is not announced late."""
        key = (plan.id, clock.round)
        if key not in self._began:
            elapsed = max(0.0, self.controller.clock() - clock.at)
            self._began[key] = self.monotonic() - elapsed
            self._announced |= {
                (plan.id, clock.round, kind)
                for kind, after in announcements(plan, clock.round)
                if after <= elapsed
            }
        return self._began[key]

    def _heard_news(self, news: News) -> list[Message]:
        """An announcement of the joined event: said once, in this gadget's language."""
        plan = self.plan
        key = ("news", news.plan, news.round, news.kind)
        if plan is None or news.plan != plan.id or key in self._said:
            return []
        self._said.add(key)
        return [news.message()]

    def _round_clock(self, view: EventView, new_game: bool) -> list[Result]:
        """The organiser's clock of the round this table plays runs and its game's does not yet:
        start it now, by this gadget's own clock, through the controller (journalled and undone
        like a start at the table; once undone, it is not started again)."""
        controller = self.controller
        state, game = controller.state, controller.game
        consp = state.conspiracy if state is not None else None
        if game is None or consp is None or consp.clock_started is not None or not view.plan.clocks:
            return []
        mine = self._mine(state)
        if mine is None or mine != view.current(self.table) or view.plan.clock(mine.round) is None:
            return []
        mark = f"{game}/{mine.round}"
        clocked = (self._meta(CLOCKED) or "").split()
        if mark in clocked:
            return []
        try:
            result = controller.execute(StartClock(now=controller.clock()))
        except IllegalCommand as error:
            log.warning("event: the round's clock cannot start here (%s)", error.key)
            return []
        controller.journal.set_meta(CLOCKED, " ".join([*clocked, mark]))
        self._report_current()
        key = (
            "consp.net.clock_group"
            if new_game
            else "consp.net.clock_late"
            if self._late
            else "consp.net.clock_started"
        )
        return self._results([Message(key, event=view.plan.event, round=mine.round)]) + [result]

    # --- this table's games ---------------------------------------------------------------

    def step(self) -> list[Result]:
        """After a change to the game: report it if what it says changed, then follow the event
        (a group over may start this table's next one)."""
        self._report_current()
        return self._follow()

    def _revision(self) -> tuple[int, int]:
        self._count += 1
        return (self.session, self._count)

    def _mine(self, state: GameState | None) -> Assignment | None:
        """The group of the joined event that ``state`` is this table's game of, if it is one."""
        view = self.view
        key = game_key(state) if state is not None else None
        if (
            view is None
            or key is None
            or state is None
            or state.options.get("event") != view.plan.event
        ):
            return None
        names = tuple(p.name for p in state.players)
        return next(
            (a for a in view.assignments(self.table) if a.key == key and a.players == names), None
        )

    def _report_current(self) -> None:
        controller = self.controller
        if controller.game is not None and self._mine(controller.state) is not None:
            self._report(controller.game, controller.state)

    def _report(self, game: int, state: GameState | None, force: bool = False) -> None:
        plan = self.plan
        key = game_key(state) if state is not None else None
        if plan is None or state is None or key is None:
            return
        # What a report says comes from the game's Conspiracy part alone (and where its changes
        # are in the journal): a life change or a turn passed needs no look at the journal.
        if not force and self._basis.get((plan.id, key)) == state.conspiracy:
            return
        self._basis[(plan.id, key)] = state.conspiracy
        journal = self.controller.journal
        events = journal.events(game)
        times = {txn.pos: txn.at for txn in journal.history(game)}
        head = journal.game(game).head
        view = self.view
        draw = view.round_two(key[0]) if view is not None and key[1] == 2 else ()
        report = table_report(plan, self.table, state, events, times, (0, 0), game, head, draw)
        slot = (plan.id, report.key)
        if not force and same_account(self._published.get(slot), report):
            return
        report = report.model_copy(update={"revision": self._revision(), "gadget": self.gadget})
        self._published[slot] = report
        self.link.publish(report_topic(plan.event, report), report.model_dump_json().encode())
        if self.heard.keep(report):  # this table's own news counts at once, broker or not
            self._fold_later(report)

    def _republish(self) -> None:
        """On every connection: this gadget's presence is the link's; the draw it hosted and every
        report of its games go out again, so a broker that lost them has them back."""
        hosted = self._meta(HOSTED)
        if hosted:
            try:
                plan = EventPlan.model_validate_json(hosted)
            except ValidationError:
                plan = None
            if plan is not None:
                self.link.publish(plan_topic(plan.event), hosted.encode())
        view = self.view
        if view is None:
            return
        games = self._games()
        for assignment in view.assignments(self.table):
            game = games.get((assignment.key, assignment.players))
            if game is not None:
                self._report(game, self.controller.journal.state(game), force=True)

    def _games(self) -> dict[tuple[tuple[int, int, str], tuple[str, ...]], int]:
        """This gadget's saved games of the joined event by group and players (the newest of each)."""
        plan = self.plan
        journal = self.controller.journal
        found: dict[tuple[tuple[int, int, str], tuple[str, ...]], int] = {}
        if plan is None:
            return found
        for info in sorted(self.controller.games(), key=lambda g: g.id):
            started = next(
                (e for _, e in journal.events(info.id, upto=0) if isinstance(e, GameStarted)), None
            )
            if (
                started is None
                or started.options.get("event") != plan.event
                or not started.options.get("group")
            ):
                continue
            key = (
                int(started.options.get("pod", 1)),
                int(started.options.get("round", 1)),
                str(started.options["group"]),
            )
            found[(key, tuple(p.name for p in started.players))] = info.id
        return found

    # --- following the event --------------------------------------------------------------

    def _follow(self) -> list[Result]:
        """What the event asks of this gadget now: news of it, and this table's next group."""
        view = self.view
        if view is None:
            return []
        self._keep_draw()
        if view.plan.id != self._reported_plan and self.synced:
            # The draw has come (after a start, or anew): what this table played meanwhile goes out.
            self._reported_plan = view.plan.id
            self._republish()
        said = self._news(view)
        started: list[Result] = []
        if self.table in view.plan.tables:
            current = view.current(self.table)
            if current is not None and current != self._following:
                self._following = current
                said.append(self._assigned(view.plan, current))
                started = self._play(view.plan, current)
            elif current is None and self._following is not None:
                self._following = None
                waits = view.table_state(self.table).waiting
                said.append(
                    Message(
                        "consp.net.waits" if waits else "consp.net.all_played",
                        event=view.plan.event,
                        table=self.table,
                    )
                )
            started += self._round_clock(view, bool(started))
        elif ("not a table", view.plan.id) not in self._said and self.table != ORGANISER:
            self._said.add(("not a table", view.plan.id))
            said.append(
                Message(
                    "consp.net.not_a_table",
                    event=view.plan.event,
                    table=self.table,
                    tables=", ".join(view.plan.tables),
                )
            )
        return self._results(said) + started

    def _news(self, view: EventView) -> list[Message]:
        """Round 2 drawn in a pod, and the event over: said once each."""
        said: list[Message] = []
        for pod in view.folds:
            # A pod folded as it was when last looked at has no news (most pods, after a message).
            if not pod.drawn or self._looked.get(pod.pod) is pod:
                continue
            self._looked[pod.pod] = pod
            groups = tuple(a for a in pod.groups if a.round == 2)
            news = tuple(
                (a.group, a.players) for a in groups
            )  # a group moved to another table is no news
            if ("round 2", pod.pod, news) in self._said:
                continue
            self._said.add(("round 2", pod.pod, news))
            ruling = view.plan.redraw(pod.pod)
            if ruling is not None and ruling.groups == groups:
                continue  # drawn again by the organiser: the ruling says so (``_corrections``)
            said.append(
                Message(
                    "consp.net.round2", event=view.plan.event, pod=pod.pod, groups=seated(groups)
                )
            )
        said += self._corrections(view)
        said += self._ignored(view)
        if view.finished and ("finished", view.plan.id) not in self._said:
            self._said.add(("finished", view.plan.id))
            said.append(Message("consp.net.finished", event=view.plan.event))
        return said

    def _corrections(self, view: EventView) -> list[Message]:
        """Round 1 of a pod corrected after its round 2 began, at the organiser's and at the pod's
        tables, and the organiser's ruling on it: said once each."""
        said: list[Message] = []
        plan = view.plan
        for pod in view.folds:
            ruling = plan.redraw(pod.pod)
            if ruling is not None and ("ruled", ruling) not in self._said:
                self._said.add(("ruled", ruling))
                said.append(
                    Message("consp.net.kept", event=plan.event, pod=pod.pod)
                    if ruling.groups != ruling.basis
                    else Message(
                        "consp.net.redrawn",
                        event=plan.event,
                        pod=pod.pod,
                        groups=seated(ruling.groups),
                    )
                )
            if pod.pending is None or ("pending", pod.pod, pod.pending) in self._said:
                continue
            tables = {a.table for a in pod.groups} | set(plan.round2_tables[pod.pod - 1])
            if not self.organiser and self.table not in tables:
                continue
            self._said.add(("pending", pod.pod, pod.pending))
            if not pod.pending:
                said.append(Message("consp.net.correcting", event=plan.event, pod=pod.pod))
                continue
            changed = [a for a in pod.pending if a not in view.round_two(pod.pod)]
            said.append(
                Message(
                    "consp.net.decide" if self.organiser else "consp.net.corrected",
                    event=plan.event,
                    pod=pod.pod,
                    groups=seated(pod.pending),
                    changed=joined(
                        [
                            Message(
                                "consp.net.at_table",
                                group=Message(f"consp.in_group.{a.group}"),
                                table=a.table,
                            )
                            for a in changed
                        ],
                        "consp.comma",
                    ),
                )
            )
        return said

    def _assigned(self, plan: EventPlan, assignment: Assignment) -> Message:
        return Message(
            "consp.net.assigned",
            event=plan.event,
            table=self.table,
            pod=assignment.pod,
            group=Message(f"consp.in_group.{assignment.group}"),
            round=assignment.round,
            players=", ".join(assignment.players),
        )

    def _play(self, plan: EventPlan, assignment: Assignment) -> list[Result]:
        """Show ``assignment``'s game: resumed when the journal has it, else started."""
        game = self._games().get((assignment.key, assignment.players))
        controller = self.controller
        if game is not None:
            if game == controller.game:
                return []
            return [controller.load(game)]
        result = controller.execute(table_game(plan, assignment))
        self._report_current()  # the table is playing it: its report says so
        return [result]

    def _results(self, said: Iterable[Message]) -> list[Result]:
        messages = list(said)
        return [Result(messages, self.controller.state)] if messages else []


def _plan_id(kept: str | None) -> str:
    """The id of a draw as the journal keeps it ("" when none, or none that can be read)."""
    if not kept:
        return ""
    try:
        return EventPlan.model_validate_json(kept).id
    except ValidationError:
        return ""
