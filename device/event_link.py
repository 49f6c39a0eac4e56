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
"""

from __future__ import annotations

import hashlib
import logging
import re
import uuid
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from msgspec import Struct, field
from pydantic import ValidationError

from device.controller import Controller, Result
from device.errors import IllegalCommand
from device.events import GameStarted
from device.inputs import BrokerMessage, BrokerStatus, InputEvent
from device.rules.conspiracy import event_message, group_title, joined
from device.rules.conspiracy.tables import (
    Assignment,
    EventPlan,
    EventView,
    PodFold,
    TableReport,
    fold,
    game_key,
    plan_event,
    furthest,
    same_account,
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
JOINED, HOSTED, SESSION, JOURNAL_ID = "event.joined", "event.hosted", "event.session", "event.journal"
DRAW = "event.draw"
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
    "consp.net.twin": "Another gadget ({gadget}) plays as table {table} too. For each group the account that "
    "went furthest counts; switch one of them off, or give it a table of its own.",
    "consp.net.twins": "Table {table} reports from more than one gadget ({gadgets}): for each group the account "
    "that went furthest counts.",
    "consp.net.outrun": "Table {table}, pod {pod}, {group}: another gadget's account of it went further and "
    "counts; this gadget's game of it does not.",
}


class Link(Protocol):
    """What a session needs of its link to the broker, real or in-process: between ``start`` and
    ``stop`` it puts ``BrokerMessage`` and ``BrokerStatus`` values on the queue it was opened
    with, and sends what it is given (QoS 1, retained), kept while the broker is away."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def publish(self, topic: str, payload: bytes) -> None: ...


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


def presence_topic(table: str) -> str:
    return f"{ROOT}/tables/{table}/status"


def report_topic(event: str, report: TableReport) -> str:
    topic = f"{ROOT}/tables/{report.table}/events/{event_key(event)}/{report.pod}/{report.round}/{report.group}"
    return f"{topic}/{report.gadget}" if report.gadget else topic


class Topic(Struct, frozen=True):
    """What a topic is about: ``kind`` "plan", "status" or "report", with its event and table;
    a report's also with its group's key (pod, round, group) and the gadget that sent it."""

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
    if len(parts) == 4 and parts[:2] == [ROOT, "events"] and parts[3] == "plan":
        return Topic("plan", event=parts[2])
    if len(parts) == 4 and parts[:2] == [ROOT, "tables"] and parts[3] == "status":
        return Topic("status", table=parts[2])
    if len(parts) in (8, 9) and parts[:2] == [ROOT, "tables"] and parts[3] == "events":
        pod, round_ = parts[5], parts[6]
        if not (_NUMBER.fullmatch(pod) and _NUMBER.fullmatch(round_)):
            return None
        return Topic("report", event=parts[4], table=parts[2], key=(int(pod), int(round_), parts[7]),
                     gadget=parts[8] if len(parts) == 9 else "")
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
    table's group and the one that counts (``reports``), presence; and the reports of events not
    drawn yet, unread (``waiting``: by table, topic → event and payload)."""

    plans: dict[str, EventPlan] = field(default_factory=dict)
    reports: dict[tuple[str, str, tuple[int, int, str]], TableReport] = field(default_factory=dict)
    online: dict[str, bool] = field(default_factory=dict)
    accounts: dict[tuple[str, str, tuple[int, int, str]], dict[str, TableReport]] = field(default_factory=dict)
    waiting: dict[str, dict[str, tuple[str, bytes]]] = field(default_factory=dict)
    #: A gadget's account that may have counted was let go for a lower id: a fold made before
    #: may count it, so the standings are folded anew from ``reports``.
    dropped: bool = False
    _gadgets: dict[str, dict[str, int]] = field(default_factory=dict)  # by table: its accounts kept, by gadget
    _groups: dict[str, frozenset[tuple[str, tuple[int, int, str]]]] = field(default_factory=dict)  # by plan id

    def keep(self, report: TableReport) -> TableReport | None:
        """Keep ``report`` unless a newer one of the same table's group from the same gadget is
        kept (or its gadget's id is above ``GADGETS_PER_GROUP`` lower ones); the report that
        counts for the group if that changed, else None."""
        key = (report.table, report.plan, report.key)
        accounts = self.accounts.setdefault(key, {})
        if not supersedes(report, accounts.get(report.gadget)):
            return None
        if report.gadget not in accounts and len(accounts) >= GADGETS_PER_GROUP:
            highest = max(accounts)
            if report.gadget > highest:
                return None
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
        counts = furthest(accounts.values())
        if counts is None or counts is self.reports.get(key):
            return None
        self.reports[key] = counts
        return counts

    def expects(self, plan: EventPlan, topic: Topic) -> bool:
        """Whether ``plan`` gives the group in a report's ``topic`` to the table it is from (its
        round-1 groups as drawn, round 2 at the pod's tables), and a report from that gadget
        could be kept: what a table cannot have played is let go before it is read."""
        groups = self._groups.get(plan.id)
        if groups is None:
            groups = self._groups[plan.id] = frozenset(
                [(a.table, a.key) for a in plan.groups]
                + [(table, (pod, 2, label)) for pod, tables in enumerate(plan.round2_tables, start=1)
                   for table, label in zip(tables, ("winners", "losers"))])
        if (topic.table, topic.key) not in groups:
            return False
        accounts = self.accounts.get((topic.table, plan.id, topic.key))
        return (accounts is None or len(accounts) < GADGETS_PER_GROUP or topic.gadget in accounts
                or topic.gadget < max(accounts))

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

    def __init__(self, controller: Controller, link: Link, table: str, *, broker: str = "", join: str = "",
                 gadget: str | None = None) -> None:
        self.controller = controller
        self.link = link
        self.table = table
        self.broker = broker
        self.heard = Heard()
        self.connected = False
        #: The broker has sent everything it held when this gadget connected: its own presence,
        #: published after it subscribed, has come back live (a broker sends a subscription's
        #: retained messages before anything published after it).
        self.synced = False
        self.joined = join or self._meta(JOINED) or ""
        self._draw_kept: EventPlan | None = None  # the draw last written to the journal
        self._keep_draw_heard()
        self._published: dict[tuple[str, tuple[int, int, str]], TableReport] = {}
        self._basis: dict[tuple[str, tuple[int, int, str]], object] = {}  # the game state each was made from
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
            log.warning("event: the draw kept in the journal cannot be read; it comes from the broker again")
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
        return [Message("consp.net.connected", broker=self.broker)]

    def _synced(self) -> None:
        """The broker has said all it held: number this session above every report of this table
        it holds, then send this gadget's draw and reports again."""
        held = [r.revision[0] for (table, _, _), accounts in self.heard.accounts.items() if table == self.table
                for r in accounts.values()]
        if held and max(held) >= self.session:
            self.session = max(held) + 1
            self._count = 0
            self.controller.journal.set_meta(SESSION, str(self.session))
        self._republish()

    def _message(self, message: BrokerMessage) -> list[Message]:
        topic = read_topic(message.topic)
        if topic is None:
            return []
        try:
            if topic.kind == "status":
                self.heard.online[topic.table] = message.payload == ONLINE
                mine = topic.table == self.table and message.payload == ONLINE and not message.retained
                if mine and not self.synced:
                    self.synced = True
                    self._synced()
            elif topic.kind == "plan" and not message.payload:
                # A retained message emptied: the organiser took the event off the broker.
                if self.heard.plans.pop(topic.event, None) is not None:
                    self._view = None
            elif topic.kind == "plan":
                plan = EventPlan.model_validate_json(message.payload)
                if event_key(plan.event) == topic.event and self.heard.plans.get(topic.event) != plan:
                    self.heard.plans[topic.event] = plan
                    self._view = None
                    return [said for where, payload in self.heard.drawn(topic.event)
                            for said in self._message(BrokerMessage(where, payload, retained=True))]
            elif topic.kind == "report":
                return self._report_heard(message, topic)
        except (ValidationError, ValueError) as error:
            log.warning("event: a message on %s cannot be read (%s); it is left out", message.topic, error)
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
        counts = self.heard.keep(report)
        if self.heard.dropped:
            self.heard.dropped = False
            self._view = None  # a gadget's account let go: the standings folded anew without it
        elif counts is not None:
            self._fold_later(counts)
        if topic.table == self.table and report.gadget == self.gadget:
            self._restore(where, report)
        return self._twins(report, counts)

    def _twins(self, report: TableReport, counts: TableReport | None) -> list[Message]:
        """Two gadgets report as one table: this table's own gadget and the organiser say so
        (once each), and a gadget whose account no longer counts says which group."""
        said: list[Message] = []
        if report.table == self.table and report.gadget != self.gadget and ("twin", report.gadget) not in self._said:
            self._said.add(("twin", report.gadget))
            said.append(Message("consp.net.twin", gadget=report.gadget or "?", table=self.table))
        elif self.organiser and len(gadgets := self.heard.gadgets(report.table)) > 1 and (
                "twins", report.table, len(gadgets)) not in self._said:
            self._said.add(("twins", report.table, len(gadgets)))
            said.append(Message("consp.net.twins", table=report.table, gadgets=", ".join(gadgets)))
        if counts is not None and report.table == self.table and counts.gadget != self.gadget:
            mine = self.heard.accounts.get((report.table, report.plan, report.key), {}).get(self.gadget)
            if mine is not None and ("outrun", report.plan, report.key) not in self._said:
                self._said.add(("outrun", report.plan, report.key))
                said.append(Message("consp.net.outrun", table=self.table, pod=report.pod,
                                    group=Message(f"consp.in_group.{report.group}")))
        return said

    def _restore(self, topic: str, kept: TableReport) -> None:
        """The broker holds an older account of one of this table's groups than the one sent
        last (a stale copy was published again): send the newest again, so it is what a gadget
        that connects later is given."""
        mine = self._published.get((kept.plan, kept.key))
        if mine is not None and (kept.revision < mine.revision or kept.revision == mine.revision and kept != mine):
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
            self._view = fold(plan, (r for r in self.heard.reports.values() if r.plan == plan.id))
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
        return sorted((p for p in self.heard.plans.values() if self.table in p.tables), key=lambda p: fold_text(p.event))

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
        said = [Message("consp.net.following" if self.table == ORGANISER else "consp.net.joined", event=name,
                        table=self.table)]
        if self.plan is None:
            said.append(Message("consp.net.waiting_plan", event=name))
        return self._results(said) + self._follow()

    def host(self, name: str, players: Sequence[str], tables: Sequence[str], options: Mapping[str, str]) -> list[Result]:
        """The organiser's part (CJ-1, CJ-2): draw the event for ``tables`` (none named: every table
        connected now), publish the draw, and join it."""
        if self.table != ORGANISER:
            raise IllegalCommand("consp.net.not_organiser", table=self.table, organiser=ORGANISER)
        name = " ".join(name.split())
        chosen = list(tables) or self.tables_online()
        if not chosen:
            raise IllegalCommand("consp.net.no_online")
        rng = self.controller.rng
        plan = plan_event(name, players, chosen, options, rng, uuid.UUID(int=rng.getrandbits(128)).hex)
        payload = plan.model_dump_json().encode()
        self.controller.journal.set_meta(HOSTED, plan.model_dump_json())
        self.link.publish(plan_topic(name), payload)
        self.heard.plans[event_key(name)] = plan
        self._view = None
        said = [event_message(name, [len(pod) for pod in plan.pods]),
                Message("consp.net.hosted", event=name, tables=", ".join(plan.tables))]
        said += [Message("consp.net.host_group", pod=a.pod, group=group_title(a.group), table=a.table,
                         players=", ".join(a.players)) for a in plan.groups]
        return self._results(said) + self.join(name)

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
        if view is None or key is None or state is None or state.options.get("event") != view.plan.event:
            return None
        names = tuple(p.name for p in state.players)
        return next((a for a in view.assignments(self.table) if a.key == key and a.players == names), None)

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
        report = table_report(plan, self.table, state, events, times, (0, 0), game, head)
        slot = (plan.id, report.key)
        if not force and same_account(self._published.get(slot), report):
            return
        report = report.model_copy(update={"revision": self._revision(), "gadget": self.gadget})
        self._published[slot] = report
        self.link.publish(report_topic(plan.event, report), report.model_dump_json().encode())
        counts = self.heard.keep(report)  # this table's own news counts at once, broker or not
        if counts is not None:
            self._fold_later(counts)

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
            started = next((e for _, e in journal.events(info.id, upto=0) if isinstance(e, GameStarted)), None)
            if started is None or started.options.get("event") != plan.event or not started.options.get("group"):
                continue
            key = (int(started.options.get("pod", 1)), int(started.options.get("round", 1)), str(started.options["group"]))
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
                said.append(Message("consp.net.waits" if waits else "consp.net.all_played", event=view.plan.event,
                                    table=self.table))
        elif ("not a table", view.plan.id) not in self._said and self.table != ORGANISER:
            self._said.add(("not a table", view.plan.id))
            said.append(Message("consp.net.not_a_table", event=view.plan.event, table=self.table,
                                tables=", ".join(view.plan.tables)))
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
            if ("round 2", groups) in self._said:
                continue
            self._said.add(("round 2", groups))
            seated = joined([Message("consp.seated", group=Message(f"consp.in_group.{a.group}"), names=", ".join(a.players))
                             for a in groups], "consp.semicolon")
            said.append(Message("consp.net.round2", event=view.plan.event, pod=pod.pod, groups=seated))
        if view.finished and ("finished", view.plan.id) not in self._said:
            self._said.add(("finished", view.plan.id))
            said.append(Message("consp.net.finished", event=view.plan.event))
        return said

    def _assigned(self, plan: EventPlan, assignment: Assignment) -> Message:
        return Message("consp.net.assigned", event=plan.event, table=self.table, pod=assignment.pod,
                       group=Message(f"consp.in_group.{assignment.group}"), round=assignment.round,
                       players=", ".join(assignment.players))

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

