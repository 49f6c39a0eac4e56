"""Telling systemd how the gadget is doing: READY, STOPPING, STATUS and watchdog pings (HW-5).

The service is ``Type=notify`` with ``WatchdogSec=``: systemd waits for ``READY=1`` before it
counts the gadget as started, and restarts it when the pings stop.  The protocol is one datagram
per message to the ``AF_UNIX`` socket named in ``$NOTIFY_SOCKET`` (a path, or an abstract name
starting with ``@``), so no library is needed.  Outside systemd ``$NOTIFY_SOCKET`` is unset and
every call here does nothing.

Two calls make a loop watched:

    notifier = Notifier.from_environment()
    watchdog = Watchdog.from_environment(notifier)    # None when systemd watches nothing
    ... open and check the journal ...
    notifier.ready("Game 3 resumed")                   # only once the journal is known good
    while running:
        watchdog.tick(time.monotonic())                # every pass of the main loop

``tick`` pings at half the interval systemd asked for, and only when the loop calls it, so a
stuck loop stops pinging and systemd restarts the process.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger("aetherbox.notify")


def _address(value: str) -> str | bytes | None:
    if not value:
        return None
    if value.startswith("@"):
        # Abstract socket: the name starts with a NUL byte instead of the "@" systemd writes.
        return b"\0" + value[1:].encode()
    if value.startswith("/"):
        return value
    return None  # vsock and other addresses are for virtual machines, not a Pi's console


class Notifier:
    """Sends ``sd_notify`` messages to one socket; a ``Notifier(None)`` sends nothing."""

    def __init__(self, address: str | bytes | None) -> None:
        self.address = address
        self._sock: socket.socket | None = None

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None) -> Notifier:
        environ = os.environ if env is None else env
        raw = environ.get("NOTIFY_SOCKET", "")
        address = _address(raw)
        if raw and address is None:
            log.warning(
                "NOTIFY_SOCKET=%r is not a socket path this program can use; not notifying", raw
            )
        return cls(address)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, *fields: str) -> bool:
        """Send ``KEY=VALUE`` lines as one datagram; False (and a log line) if it could not."""
        if self.address is None:
            return False
        payload = "\n".join(fields).encode()
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(payload, self.address)
        except OSError as error:
            # systemd going away must not stop the game; the watchdog will notice if it matters.
            log.warning("cannot notify systemd at %r: %s", self.address, error.strerror or error)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, status: str) -> bool:
        return self.send(f"STATUS={status}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def ping(self) -> bool:
        return self.send("WATCHDOG=1")

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def watchdog_interval(env: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """The watchdog interval systemd set for this process, in seconds, or None.

    ``$WATCHDOG_USEC`` is the interval in microseconds; ``$WATCHDOG_PID``, when set, names the
    process meant (a child that inherited the environment must not ping for its parent).
    """
    environ = os.environ if env is None else env
    raw = environ.get("WATCHDOG_USEC", "")
    if not raw:
        return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("WATCHDOG_USEC=%r is not a number of microseconds; no watchdog pings", raw)
        return None
    if usec <= 0:
        return None
    owner = environ.get("WATCHDOG_PID", "")
    if owner:
        try:
            if int(owner) != (os.getpid() if pid is None else pid):
                return None
        except ValueError:
            log.warning("WATCHDOG_PID=%r is not a process id; no watchdog pings", owner)
            return None
    return usec / 1_000_000


class Watchdog:
    """Pings systemd's watchdog from the main loop: ``tick(now)`` on every pass.

    ``now`` is a monotonic clock in seconds (``time.monotonic()``), passed in so tests can drive
    time.  A ping goes out when half the interval has passed since the last one (systemd's own
    advice), so one late pass does not trip the watchdog but a stuck loop does.
    """

    def __init__(self, notifier: Notifier, interval: float) -> None:
        if interval <= 0:
            raise ValueError(f"watchdog interval must be positive, not {interval!r}")
        self.notifier = notifier
        self.interval = interval
        self.period = interval / 2
        self._last: float | None = None

    @classmethod
    def from_environment(
        cls, notifier: Notifier, env: Mapping[str, str] | None = None
    ) -> Watchdog | None:
        interval = watchdog_interval(env)
        if interval is None or not notifier.enabled:
            return None
        return cls(notifier, interval)

    def due(self, now: float) -> bool:
        return self._last is None or now - self._last >= self.period

    def tick(self, now: float) -> bool:
        """Ping if due; True if a ping was sent."""
        if not self.due(now):
            return False
        self._last = now
        return self.notifier.ping()

    def timeout(self, now: float) -> float:
        """Seconds a loop may sleep before its next tick is due (for ``select`` timeouts)."""
        if self._last is None:
            return 0.0
        return max(0.0, self.period - (now - self._last))
