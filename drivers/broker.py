"""The link to an event's MQTT broker (mosquitto; see ``systemd/mosquitto-aetherbox.conf``), and
an in-process broker that stands in for it.

``MqttLink`` is the real thing: a paho-mqtt client (imported inside the class, like the other
drivers' libraries) whose network loop runs on paho's own thread (``loop_start``).  That thread
only puts ``BrokerMessage`` and ``BrokerStatus`` values on the input queue; the game's thread
reads them (``device.event_link.EventSession``).  It connects with MQTT 5, a persistent session
(``clean_start`` off, a week's session expiry) and QoS 1, so nothing published while the table
or the broker is away is lost; it keeps trying to reconnect (every ``reconnect`` seconds at
first, backing off to ``reconnect_max``), and its will marks the table offline when it vanishes.
Given the event's certificate authority (``ca``), it speaks TLS and takes only a broker whose
certificate that authority signed for the name it dialled; a missing authority, or a broker it
does not vouch for, is a ``BrokerTrouble`` on the queue that says what to do, not a silent retry.

``MemoryBroker`` and its ``MemoryLink`` behave the same way in one process — retained messages
(and messages that are not: the organiser's announcements), the shipped ACL's rule (a table
writes only under ``aetherbox/tables/<its login>/``), persistent sessions that queue what a
disconnected link misses, wills — so the session's logic is tested without a network and the
gadget runs on a laptop without a broker.
"""

from __future__ import annotations

import logging
import ssl
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from msgspec import Struct, field

from device.event_link import (
    EVERYTHING,
    OFFLINE,
    ONLINE,
    ORGANISER,
    ROOT,
    InputSink,
    presence_topic,
)
from device.inputs import BrokerMessage, BrokerStatus, BrokerTrouble

log = logging.getLogger(__name__)

#: OpenSSL's X509_V_FLAG_NO_CHECK_TIME: a certificate's dates are not checked (Python's ssl
#: passes the verification flags it is given to OpenSSL; it names no constant for this one).
NO_CHECK_TIME = ssl.VerifyFlags(0x200000)
SESSION_EXPIRY = 7 * 24 * 3600  # seconds a table's session (its queued messages) outlives it
KEEPALIVE = 30


def may_write(login: str, topic: str) -> bool:
    """The shipped ACL's rule (``systemd/mosquitto-aetherbox.acl``): every login writes its
    presence and its reports under ``aetherbox/tables/<its login>/``, and the organiser the
    events' draws too."""
    if login == ORGANISER and topic.startswith(f"{ROOT}/events/"):
        return True
    mine = f"{ROOT}/tables/{login}"
    return any(
        matches(f"{mine}/{shape}", topic)
        for shape in ("status", "events/+/+/+/+/+", "events/+/+/+/+")
    )


def matches(pattern: str, topic: str) -> bool:
    """MQTT's topic filter: ``+`` one level, ``#`` the rest."""
    want, have = pattern.split("/"), topic.split("/")
    for index, part in enumerate(want):
        if part == "#":
            return True
        if index >= len(have) or part not in ("+", have[index]):
            return False
    return len(want) == len(have)


class MqttLink:
    """This gadget's connection to the broker (paho-mqtt), putting what arrives on ``inputs``."""

    def __init__(
        self,
        inputs: InputSink,
        host: str,
        port: int,
        login: str,
        password: str,
        *,
        ca: str | None = None,
        reconnect: float = 0.5,
        reconnect_max: float = 4.0,
    ) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        self.inputs = inputs
        self.host, self.port, self.login = host, port, login
        self.reconnect, self.reconnect_max = reconnect, reconnect_max
        self.ca = ca
        self._trouble = (
            ""  # what was last said of a broker not trusted, said again only when it changes
        )
        self._sent: dict[int, str] = {}  # message id → topic, until the broker answers it
        self._early: dict[
            int, str
        ] = {}  # message id → why it was refused, answered before it was noted
        self._lock = threading.Lock()
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"aetherbox-{login}", protocol=mqtt.MQTTv5
        )
        client.username_pw_set(login, password)
        client.reconnect_delay_set(min_delay=reconnect, max_delay=reconnect_max)  # type: ignore[arg-type]
        client.will_set(presence_topic(login), OFFLINE, qos=1, retain=True)
        client.max_queued_messages_set(0)  # while the broker is away, keep everything for later
        client.on_connect = self._connected
        client.on_disconnect = self._disconnected
        client.on_message = self._received
        client.on_publish = self._answered
        client.on_connect_fail = self._not_connected
        self._properties = Properties(PacketTypes.CONNECT)
        self._properties.SessionExpiryInterval = SESSION_EXPIRY
        self.client = client

    def start(self) -> None:
        """Connect in the background: a broker not there yet is tried again and again.  Without
        the certificate authority it was given nothing can be trusted: it says so and waits."""
        if self.ca is not None and not self._trust(self.ca):
            return
        self.client.connect_async(
            self.host,
            self.port,
            keepalive=KEEPALIVE,
            clean_start=False,
            properties=self._properties,
        )
        self.client.loop_start()

    def _trust(self, ca: str) -> bool:
        try:
            # Checks the broker's certificate and that it is for ``host``, as a browser does, but
            # for the dates: a Pi has no real-time clock, and one at a venue without internet
            # keeps the time it was switched off at (days or months behind), so "not yet valid"
            # would lock a table out of its event. The trust is the event's own authority, made
            # for it and copied to each table by hand, not the calendar.
            context = ssl.create_default_context(cafile=ca)
            context.verify_flags |= NO_CHECK_TIME
        except (
            OSError,
            ValueError,
        ) as error:  # ssl.SSLError is an OSError: a file that holds no certificate
            reason = (
                getattr(error, "strerror", None) or getattr(error, "reason", None) or str(error)
            )
            log.warning(
                "event: the broker's certificate authority %s cannot be read (%s)", ca, reason
            )
            self.inputs.put(
                BrokerTrouble("consp.net.ca_missing", f"{self.host}:{self.port}", ca, str(reason))
            )
            return False
        self.client.tls_set_context(context)
        return True

    def stop(self, settle: float = 2.0) -> None:
        """Say offline and leave, once the broker has taken what was sent (``settle`` seconds at
        most): an organiser who hosts and quits at once leaves the draw at the broker, not in
        paho's queue."""
        # Said offline before leaving: a clean disconnect does not send the will.
        offline = self.client.publish(presence_topic(self.login), OFFLINE, qos=1, retain=True)
        deadline = time.monotonic() + settle
        while self.client.is_connected() and time.monotonic() < deadline:
            with self._lock:
                waiting = bool(self._sent)
            if not waiting and offline.is_published():
                break
            time.sleep(0.02)
        self.client.disconnect()
        self.client.loop_stop()

    def back_off(self, seconds: float) -> None:
        """Wait ``seconds`` before connecting again once this connection ends (another gadget
        uses this login and takes it over: each takes its turn, not twice a second); 0: as usual."""
        low = seconds if seconds > 0 else self.reconnect
        self.client.reconnect_delay_set(min_delay=low, max_delay=max(low, self.reconnect_max))  # type: ignore[arg-type]

    def publish(self, topic: str, payload: bytes, retain: bool = True) -> None:
        # Not under our lock: paho calls ``_answered`` holding its own, which would be taken in
        # the other order here.  An answer quicker than this line is kept for it in ``_early``.
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        with self._lock:
            early = self._early.pop(info.mid, None)
            if early is None:
                self._sent[info.mid] = topic
                return
        self.inputs.put(BrokerStatus(True, detail=early, refused=topic))

    # --- paho's thread: only inputs on the queue ---------------------------------------------

    def _connected(
        self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        if getattr(reason, "is_failure", False):
            self.inputs.put(BrokerStatus(False, detail=str(reason)))
            return
        self._trouble = ""
        client.subscribe(EVERYTHING, qos=1)
        client.publish(presence_topic(self.login), ONLINE, qos=1, retain=True)
        self.inputs.put(BrokerStatus(True))

    def _not_connected(self, client: Any, userdata: Any) -> None:
        # paho calls this from the ``except`` that caught the connection's error, so that error
        # is the one being handled: a TLS one says why this broker is not trusted.
        error = sys.exc_info()[1]
        if isinstance(error, ssl.SSLCertVerificationError):
            reason = str(error.verify_message)
        elif isinstance(error, ssl.SSLError):
            reason = str(error.reason or error)  # e.g. WRONG_VERSION_NUMBER: a port without TLS
        else:
            return  # out of reach: the session says so from the link's status
        if reason != self._trouble:
            log.warning(
                "event: the broker at %s:%s is not trusted (%s)", self.host, self.port, reason
            )
        self._trouble = reason
        self.inputs.put(
            BrokerTrouble("consp.net.ca_wrong", f"{self.host}:{self.port}", self.ca or "", reason)
        )

    def _disconnected(
        self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any
    ) -> None:
        self.inputs.put(BrokerStatus(False, detail=str(reason)))

    def _received(self, client: Any, userdata: Any, message: Any) -> None:
        self.inputs.put(BrokerMessage(message.topic, bytes(message.payload), bool(message.retain)))

    def _answered(self, client: Any, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        refused = bool(getattr(reason, "is_failure", False))
        with self._lock:
            topic = self._sent.pop(mid, None)
            if topic is None:
                if refused:
                    self._early[mid] = str(reason)
                return
        if refused:
            self.inputs.put(BrokerStatus(True, detail=str(reason), refused=topic))


# --- the in-process stand-in -----------------------------------------------------------------------


class _Client(Struct):
    link: MemoryLink
    online: bool = False
    missed: list[tuple[str, bytes]] = field(default_factory=list)  # its persistent session's queue


class MemoryBroker:
    """A broker in this process with the shipped configuration's behaviour (see the module)."""

    def __init__(self, may: Callable[[str, str], bool] = may_write) -> None:
        self.retained: dict[str, bytes] = {}
        self.may = may
        self.clients: dict[str, _Client] = {}
        self.refusals: list[tuple[str, str]] = []  # (login, topic) of every message refused
        self._lock = threading.RLock()

    def link(self, inputs: InputSink, login: str) -> MemoryLink:
        return MemoryLink(self, inputs, login)

    def connect(self, link: MemoryLink) -> None:
        with self._lock:
            held = self.clients.get(link.login)
            if held is not None and held.online and held.link is not link:
                # One connection per login (the shipped configuration's use_username_as_clientid):
                # another gadget logging in as this table takes its place; mosquitto closes the
                # other's connection without a word, and its link tries again.
                held.link.inputs.put(BrokerStatus(False, detail="connection lost"))
            client = self.clients.setdefault(link.login, _Client(link))
            client.link, client.online = link, True
            missed, client.missed = client.missed, []
            link.inputs.put(BrokerStatus(True))
            for topic, payload in self.retained.items():
                link.inputs.put(BrokerMessage(topic, payload, retained=True))
            for topic, payload in missed:
                link.inputs.put(BrokerMessage(topic, payload))
            self.publish(link.login, presence_topic(link.login), ONLINE)

    def disconnect(self, link: MemoryLink, will: bool = True) -> None:
        with self._lock:
            client = self.clients.get(link.login)
            if client is None or not client.online:
                return
            client.online = False
            link.inputs.put(BrokerStatus(False, detail="disconnected"))
            if will:
                self.publish(link.login, presence_topic(link.login), OFFLINE)

    def publish(self, login: str, topic: str, payload: bytes, retain: bool = True) -> bool:
        with self._lock:
            if not self.may(login, topic):
                self.refusals.append((login, topic))
                return False
            if retain:
                self.retained[topic] = payload
            for client in self.clients.values():
                if not matches(EVERYTHING, topic):
                    continue
                if client.online:
                    client.link.inputs.put(BrokerMessage(topic, payload))
                else:
                    client.missed.append((topic, payload))
            return True


class MemoryLink:
    """A link to a ``MemoryBroker``: messages arrive on ``inputs`` as from ``MqttLink``.  While
    ``offline`` (``cut``), what it publishes waits, as paho keeps it, and goes out on ``mend``."""

    def __init__(self, broker: MemoryBroker, inputs: InputSink, login: str) -> None:
        self.broker = broker
        self.inputs = inputs
        self.login = login
        self.cut_off = False
        self.started = False
        self.backed_off = 0.0
        self._waiting: list[tuple[str, bytes, bool]] = []

    def start(self) -> None:
        self.started = True
        if not self.cut_off:
            self.broker.connect(self)

    def stop(self) -> None:
        if self.started and not self.cut_off:
            self.broker.publish(self.login, presence_topic(self.login), OFFLINE)
            self.broker.disconnect(self, will=False)
        self.started = False

    def publish(self, topic: str, payload: bytes, retain: bool = True) -> None:
        if self.cut_off or not self.started:
            self._waiting.append((topic, payload, retain))
        elif not self.broker.publish(self.login, topic, payload, retain):
            self.inputs.put(BrokerStatus(True, detail="Not authorized", refused=topic))

    def back_off(self, seconds: float) -> None:
        self.backed_off = seconds  # the in-process broker connects a link again only on ``mend``

    def cut(self) -> None:
        """The network is gone: the broker sends the will, this gadget plays on."""
        self.cut_off = True
        self.broker.disconnect(self)

    def mend(self) -> None:
        """The network is back: connect again, then send what waited."""
        self.cut_off = False
        if self.started:
            self.broker.connect(self)
            waiting, self._waiting = self._waiting, []
            for topic, payload, retain in waiting:
                self.publish(topic, payload, retain)


def open_link(
    inputs: InputSink, host: str, port: int, login: str, password: str, ca: str | None = None
) -> MqttLink:
    """The link the configuration names (``[event] broker``), opened on ``inputs``; in TLS when
    given the event's certificate authority ``ca``."""
    return MqttLink(inputs, host, port, login, password, ca=ca)
