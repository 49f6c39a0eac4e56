"""The players' page: a read-only web page on the venue's network with an event's standings,
seatings and tables, updating live (``[event] page_port``; off unless set).

``PageServer`` serves the page (``drivers/web/``: HTML, CSS and a script) and the event as the
kiosk last knew it, with aiohttp (imported inside the class, like the other drivers' libraries):
``/snapshot`` once, ``/events`` as a stream of Server-Sent Events that carries every new one.
It runs on a thread of its own with its own event loop, asleep until a phone asks for something
or the kiosk hands over news (``show``, which only swaps a reference and wakes the loop: the
game's thread never waits for a phone).  The snapshot is a function of a language
(``display.phone.Snapshots``) worked out here, on the server's thread, once per language and
news, from values that never change once made; a phone gets the language it asks for
(``?lang=``, else its ``Accept-Language``), else the gadget's.

Each snapshot's round clocks are seconds left when it was made; every copy sent says how old the
snapshot is (``age``, by this machine's monotonic clock), so the page counts down from the right
second whatever the phone's clock says, and nothing is sent while only time passes.

``page_url`` finds the address phones reach this gadget at, without sending anything.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

WEB = Path(__file__).with_name("web")
FILES = {
    "/": ("index.html", "text/html"),
    "/page.css": ("page.css", "text/css"),
    "/page.js": ("page.js", "text/javascript"),
}
#: How long a phone's browser waits before it tries again after losing the stream, in ms.
RETRY_MS = 3000


class PageError(OSError):
    """The page cannot be served (its port taken, not allowed, no such address)."""


def chosen_language(
    asked: str | None, accept: str | None, languages: Sequence[str], default: str
) -> str:
    """The language a phone gets: the one it asked for by name, else the first of its
    ``Accept-Language`` (by weight) the page has, else ``default``."""
    if asked is not None and asked in languages:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        ranked.append((-weight, index, tag.split("-")[0].strip().lower()))
    return next((tag for _, _, tag in sorted(ranked) if tag in languages and tag), default)


def local_address(toward: str | None, port: int = 1883) -> str | None:
    """This machine's address on the network that leads to ``toward`` (the broker's address),
    else on its default route: a UDP socket's own address once connected, which sends no packet.
    A broker named rather than numbered is not looked up (a name lookup sends queries, and may
    keep start-up waiting): the default route is asked instead.  None when only the loopback is
    found."""
    for host in (toward, "192.0.2.1"):  # the second: any address off this machine (TEST-NET-1)
        if not host or not _numeric(host):
            continue
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect((host, port))
                address = str(probe.getsockname()[0])
        except OSError:
            continue
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    return None


def _numeric(host: str) -> bool:
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return False
    return True


def page_url(
    port: int, broker: str | None, find: Callable[[str | None], str | None] = local_address
) -> str:
    """Where phones open the page: this gadget's address toward the broker (the organiser's own
    broker is on the loopback, and a named one is not looked up: then its default route's), else
    its name on the local network."""
    host = find(broker) or f"{socket.gethostname()}.local"
    return f"http://{host}:{port}/"


class PageServer:
    """The page served on ``port`` (0: any free one, for tests) at ``host`` ("": every address);
    ``language`` is the gadget's, for phones that ask for none the page has."""

    def __init__(
        self,
        port: int,
        *,
        host: str = "",
        language: str = "en",
        languages: Sequence[str] = ("en",),
        url: str = "",
    ) -> None:
        self.port = port
        self.host = host
        self.language = language
        self.languages = tuple(languages)
        self.url = url
        #: The news: its number, when it came (monotonic) and the snapshot as a function of the
        #: language; one tuple, replaced whole, so the server's thread never sees half of it.
        self._news_now: tuple[int, float, Callable[[str], dict[str, Any]] | None] = (
            0,
            time.monotonic(),
            None,
        )
        self._cache: dict[str, tuple[int, dict[str, Any]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None
        self._news: asyncio.Future[None] | None = None
        self._closing = False

    # --- the kiosk's side (the game's thread) ----------------------------------------------

    def show(self, snapshots: Callable[[str], dict[str, Any]]) -> None:
        """News of the event: phones get it at once.  Returns at once."""
        self._news_now = (self._news_now[0] + 1, time.monotonic(), snapshots)
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(self._wake)
            except RuntimeError:  # the loop has closed: the server is stopping
                pass

    def start(self) -> None:
        """Bind the port (an error says which, at once) and serve on the server's thread."""
        try:
            sock = socket.create_server((self.host, self.port))
        except OSError as error:
            # create_server's own words name the address tuple; the owner needs the reason alone.
            raise PageError(
                error.errno, os.strerror(error.errno) if error.errno else str(error)
            ) from error
        self.port = sock.getsockname()[1]
        ready = threading.Event()
        failed: list[BaseException] = []
        self._thread = threading.Thread(
            target=self._run, args=(sock, ready, failed), name="page", daemon=True
        )
        self._thread.start()
        ready.wait()
        if failed:
            raise PageError(0, str(failed[0])) from failed[0]
        log.info("page: serving on port %d (%s)", self.port, self.url or "no address known")

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and self._stopping is not None:
            try:
                loop.call_soon_threadsafe(self._stopping.set)
            except RuntimeError:
                pass
        if thread is not None:
            thread.join(timeout=10)
        self._thread = None

    # --- the server's thread ---------------------------------------------------------------

    def _run(
        self, sock: socket.socket, ready: threading.Event, failed: list[BaseException]
    ) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._serve(loop, sock, ready))
        except BaseException as error:  # said to start() if it has not returned yet, else logged
            failed.append(error)
            log.exception("page: the server stopped")
        finally:
            ready.set()
            self._loop = None
            loop.close()
            sock.close()

    async def _serve(
        self, loop: asyncio.AbstractEventLoop, sock: socket.socket, ready: threading.Event
    ) -> None:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/", self._file)
        app.router.add_get("/page.css", self._file)
        app.router.add_get("/page.js", self._file)
        app.router.add_get("/snapshot", self._snapshot)
        app.router.add_get("/events", self._events)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        await web.SockSite(runner, sock).start()
        self._stopping = asyncio.Event()
        self._news = loop.create_future()
        self._loop = loop
        ready.set()
        await self._stopping.wait()
        self._closing = True
        self._wake()  # every stream ends
        await runner.cleanup()

    def _wake(self) -> None:
        news, self._news = self._news, asyncio.get_running_loop().create_future()
        if news is not None and not news.done():
            news.set_result(None)

    def _current(
        self,
        language: str,
        version: int,
        snapshots: Callable[[str], dict[str, Any]] | None,
    ) -> dict[str, Any] | None:
        """The snapshot of news ``version`` in ``language``, made once."""
        if snapshots is None:
            return None
        kept = self._cache.get(language)
        if kept is None or kept[0] != version:
            kept = self._cache[language] = (version, snapshots(language))
        return kept[1]

    def _payload(self, language: str) -> tuple[int, bytes]:
        """The latest news in ``language`` as sent, with its number."""
        version, made, snapshots = self._news_now
        snapshot = self._current(language, version, snapshots)
        if snapshot is None:
            snapshot = {"lang": language, "empty": True}
        body = json.dumps(
            {**snapshot, "age": max(0.0, time.monotonic() - made)}, ensure_ascii=False
        ).encode()
        return version, body

    def _language(self, request: Any) -> str:
        return chosen_language(
            request.query.get("lang"),
            request.headers.get("Accept-Language"),
            self.languages,
            self.language,
        )

    async def _file(self, request: Any) -> Any:
        from aiohttp import web

        name, kind = FILES[request.path]
        return web.Response(
            body=(WEB / name).read_bytes(),
            content_type=kind,
            charset="utf-8",
            headers={"Cache-Control": "no-cache"},
        )

    async def _snapshot(self, request: Any) -> Any:
        from aiohttp import web

        return web.Response(
            body=self._payload(self._language(request))[1],
            content_type="application/json",
            charset="utf-8",
            headers={"Cache-Control": "no-store"},
        )

    async def _events(self, request: Any) -> Any:
        from aiohttp import web

        language = self._language(request)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
            }
        )
        await response.prepare(request)
        sent = -1
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            while not self._closing:
                news = self._news
                if self._news_now[0] != sent:
                    sent, body = self._payload(language)
                    await response.write(b"data: " + body + b"\n\n")
                elif news is not None:
                    await asyncio.shield(news)  # asleep until news or the end: no polling
        except (ConnectionError, asyncio.CancelledError):
            pass  # the phone went away
        return response
