"""Rules text and pictures of the catalog's cards, downloaded from Scryfall's API
(``aetherbox catalog fetch``; HW-3).

One search, ``/cards/search`` with ``QUERY`` (every plane, phenomenon and contraption, one entry
per card), is read page by page (``has_more`` and ``next_page``).  The entries the catalog knows
are kept, matched as a file import matches them (``device.cardtext.KnownCards``), and one picture
per card is downloaded from its ``image_uris``.  Text and pictures go to the store
``device.cardtext`` writes (``cardtext/cards.json`` and a folder of pictures, replaced in one
rename), so ``rules_text(name)`` and the kiosk read them as they read an import.

Scryfall's published rules, and how they are kept:

- Every request carries a ``User-Agent`` naming the application and its version
  (``aetherbox/0.1.0``) and an ``Accept`` header ("Required Headers",
  https://scryfall.com/docs/api).
- Requests to the API's host are spaced, from the end of one to the start of the next.
  Scryfall asks for 50–100 ms between requests (about 10 a second) in general, and allows
  ``/cards/search`` 2 a second (https://scryfall.com/docs/api/rate-limits); the search is the
  only API method used here, so ``Policy.spacing`` is 500 ms.  Its file hosts
  (``*.scryfall.io``, where ``image_uris`` point) have no rate limit, so pictures are not
  spaced, but they are fetched one at a time.
- An HTTP 429 ("Too Many Requests") limits access for 30 seconds and must not be ignored nor
  retried until it goes through: the fetch waits as ``Retry-After`` says (30 s without it),
  tries again at most twice, then stops and says so.
- Failures come as error objects, ``{"object": "error", "status": …, "code": …, "details": …}``
  (https://scryfall.com/docs/api/errors): the message quotes their ``details``.

Why the search and not Scryfall's bulk file: docs/decisions/0014-fetching-card-data.md.

A hostile or broken server is refused in bounded time, with the stored text kept:

- Each request has a total deadline (``Policy.request_deadline``) besides the per-read timeout,
  and the whole fetch one (``Policy.fetch_deadline``), so a server sending a byte every few
  seconds is cut off; a watch thread shuts the connection's socket when the time is up.
- Search pages are parsed with the import's guards (``device.cardtext.loads``): nesting deeper
  than ``MAX_DEPTH`` and numbers of absurd size are refused before the recursive decoder runs.
- Addresses are followed only where they belong: a redirect only to the same host or the
  configured API's, a picture only from the API's own host or the hosts that API is known to
  serve pictures from (``PICTURE_HOSTS``: Scryfall's ``*.scryfall.io``), and a connection to a
  private, loopback or link-local address (checked on the connected socket, so a name that
  resolves there is caught too) only for the configured API's own host or a configured proxy.
  A hostile API thus cannot make the Pi fetch addresses on its local network; an API on this
  machine or the local network (a mirror, the tests) works, because it is the one configured.

Resuming: a picture is written to ``cardtext/downloads/partial/`` and moved into
``cardtext/downloads/`` only once it is complete (all the bytes the server announced, or an image
that reaches its end marker) and starts like a PNG or JPEG.  A fetch stopped by Ctrl-C, a dropped
connection or a power cut keeps what it downloaded; run again, it asks only for what is missing,
a cut-off picture from where it stopped (an HTTP ``Range`` request).  The card text is replaced
only when everything is in, so a failed fetch leaves the stored text as it was.  The downloads are
kept after a fetch (the store's pictures are hard links to them), so a fetch when everything is
present makes only the search requests.
"""

from __future__ import annotations

import email.message
import email.utils
import hashlib
import http.client
import ipaddress
import os
import re
import shutil
import socket
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any, TypeVar, cast

from msgspec import Struct

from device import __version__
from device.cardtext import (
    JPEG_SIGNATURE,
    MAX_IMAGE,
    PNG_SIGNATURE,
    ImportReport,
    JSONRefused,
    KnownCards,
    loads,
    store,
    store_dir,
)
from device.catalog import load_catalog, name_key
from device.errors import AetherboxError
from device.text import Plural, Text, render

TEXTS: dict[str, Text] = {
    "cardtext.fetch.progress": "Scryfall: page {page}/{pages}, cards {cards}, pictures {images}/{total}",
    "cardtext.fetch.progress_text": "Scryfall: page {page}/{pages}, cards {cards}",
    "cardtext.fetch.downloaded": Plural(
        "Downloaded {downloaded} picture; already here: {kept}.",
        "Downloaded {downloaded} pictures; already here: {kept}.",
        "downloaded",
    ),
    "cardtext.fetch.not_found": Plural(
        "{count} card the gadget knows was not found on {source}: {names}.",
        "{count} cards the gadget knows were not found on {source}: {names}.",
        "count",
    ),
    "cardtext.fetch.unreachable": (
        "cannot reach {host} ({reason}): check the Pi's network, or download a card file and run: "
        "aetherbox catalog import FILE"
    ),
    "cardtext.fetch.http_error": "{host} answered HTTP {status} for {url}: {details}",
    "cardtext.fetch.server_error": (
        "{host} answered HTTP {status} for {url}: {details}. Try again later: the pictures already "
        "downloaded are kept."
    ),
    "cardtext.fetch.rate_limited": (
        "{host} kept answering HTTP 429 (too many requests), also after waiting as it asked. Wait a few "
        "minutes, then run aetherbox catalog fetch again: the pictures already downloaded are kept."
    ),
    "cardtext.fetch.dropped": (
        "the connection to {host} dropped while reading {url}, and again on every retry ({reason}). Run "
        "aetherbox catalog fetch again once the network is steady: it goes on where it stopped."
    ),
    "cardtext.fetch.bad_data": (
        "{host} sent something that is not Scryfall's card data for {url} ({reason}). Try again later, "
        "or download a card file and run: aetherbox catalog import FILE"
    ),
    "cardtext.fetch.not_a_picture": "the picture of {card!r} from {url} is not a PNG or JPEG image ({reason}).",
    "cardtext.fetch.bad_address": (
        "{url!r} is not an http:// or https:// address: give --api the address of Scryfall's API, "
        "such as https://api.scryfall.com"
    ),
    "cardtext.fetch.nothing": "{host} found no plane, phenomenon or contraption the gadget knows.",
    "cardtext.fetch.too_slow": Plural(
        "{host} was too slow: {url} had not arrived after {seconds} second. Try again later or on a "
        "faster network: the pictures already downloaded are kept, and the next fetch goes on where this "
        "one stopped.",
        "{host} was too slow: {url} had not arrived after {seconds} seconds. Try again later or on a "
        "faster network: the pictures already downloaded are kept, and the next fetch goes on where this "
        "one stopped.",
        "seconds",
    ),
    "cardtext.fetch.too_long": Plural(
        "the fetch was stopped after {minutes} minute, longer than any fetch should take. Run aetherbox "
        "catalog fetch again to go on: the pictures already downloaded are kept.",
        "the fetch was stopped after {minutes} minutes, longer than any fetch should take. Run aetherbox "
        "catalog fetch again to go on: the pictures already downloaded are kept.",
        "minutes",
    ),
    "cardtext.fetch.redirected": (
        "{host} sent {url} on to {target}, another host. The fetch follows a redirect only within the "
        "same host or to {api}: check the address given to --api."
    ),
    "cardtext.fetch.private_address": (
        "{host} is at {address}, an address on this machine or its local network, and only the API's "
        "own host ({api}) may be: the fetch does not go there. Check the address given to --api."
    ),
    "cardtext.fetch.foreign_picture": (
        "{host} gave {url} as the picture of {card!r}, but pictures are downloaded only from {allowed}. "
        "Check the address given to --api, or run: aetherbox catalog fetch --no-images"
    ),
    "cardtext.fetch.interrupted": (
        "Stopped. Run aetherbox catalog fetch again to go on: the pictures already downloaded are kept, "
        "and the card text is replaced only by a fetch that completes."
    ),
}

API = "https://api.scryfall.com"
#: Every plane, phenomenon and contraption.  ``type:plane`` would also match planeswalkers.
QUERY = "(type:plane or type:phenomenon or type:contraption) -type:planeswalker"
#: One entry per card (not per printing), planes included (Scryfall counts them as "extras").
SEARCH = {"q": QUERY, "unique": "cards", "order": "name", "include_extras": "true"}
USER_AGENT = f"aetherbox/{__version__}"
JSON_ACCEPT = "application/json;q=0.9,*/*;q=0.8"
IMAGE_ACCEPT = "image/jpeg,image/png;q=0.9,*/*;q=0.8"
#: Which of Scryfall's picture sizes to keep, best first.  "normal" is 488 × 680 (a JPEG of about
#: 100 KB): on an 800 × 480 screen a plane, turned to lie sideways, is 680 × 488, the screen's
#: height at about full scale, and an upright contraption shown 480 high is already scaled
#: down.  "large" (672 × 936) and "png" (745 × 1040, about 1 MB) would only be scaled down
#: further, for two to ten times the bytes on the Pi's SD card.
IMAGE_SIZES = ("normal", "large", "png", "border_crop", "small")
DOWNLOADS = "downloads"
PARTIAL = "partial"
#: A search page of 175 cards is about a megabyte; a page this large is not a page.
MAX_PAGE = 32 << 20
#: The search finds about 260 cards, two pages; a server that sends more pages than this is
#: going round in circles.
MAX_PAGES = 100
CHUNK = 1 << 16
_RANGE = re.compile(r"bytes ([0-9]{1,15})-")
_SECONDS = re.compile(r"[0-9]{1,15}")
#: Where an API serves its pictures, besides its own host: a host named here, or under it.
PICTURE_HOSTS: dict[str, tuple[str, ...]] = {"api.scryfall.com": ("scryfall.io",)}
#: The longest server text (an error's ``details``) quoted in a message.
MAX_DETAILS = 300
T = TypeVar("T")


class Policy(Struct, frozen=True):
    """How a fetch paces and retries its requests (Scryfall's rules; tests shorten the waits)."""

    #: Seconds between the starts of two requests to the API's host.
    spacing: float = 0.5
    #: Seconds to wait after an HTTP 429 that has no ``Retry-After``: Scryfall's 30-second limit.
    rate_limit_wait: float = 30.0
    #: Tries after an HTTP 429 before giving up.
    rate_limit_retries: int = 2
    #: A ``Retry-After`` longer than this stops the fetch instead of waiting.
    longest_wait: float = 300.0
    #: Tries after a dropped connection or a gateway's 502, 503 or 504.
    retries: int = 3
    #: Seconds before the first such retry, doubled for each next one.
    backoff: float = 1.0
    #: Seconds a connection may stay silent.
    timeout: float = 30.0
    #: Seconds one request may take in all, however steadily bytes arrive.  A search page of a
    #: megabyte or a 100 KB picture needs a few; this allows about 9 KB/s.
    request_deadline: float = 120.0
    #: Seconds the whole fetch may take (about 260 pictures and two pages, waits included); a
    #: stopped fetch goes on where it stopped when run again.
    fetch_deadline: float = 3600.0


DEFAULT_POLICY = Policy()


class FetchError(AetherboxError):
    """Scryfall cannot be reached or its answer cannot be used.  ``key`` and ``params`` name the
    message; the stored card text is as it was."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(render(key, params))


class _Dropped(Exception):
    """An answer ended before all of it arrived."""


class _TooBig(Exception):
    """An answer larger than anything it should be."""


class _Status(Exception):
    """An HTTP error answer, its body read while the request was watched."""

    def __init__(self, code: int, headers: email.message.Message, details: str) -> None:
        super().__init__(code)
        self.code, self.headers, self.details = code, headers, details


#: What a connection that breaks in the middle of an answer raises.
_BROKEN = (ConnectionError, TimeoutError, ssl.SSLError, http.client.HTTPException, _Dropped)


class FetchReport(ImportReport):
    """An import's report, and how many pictures were downloaded or were already here."""

    downloaded: int = 0
    kept: int = 0


class Progress(Struct):
    """How far a fetch is, as the progress bar shows it."""

    page: int = 0
    pages: int | None = None
    cards: int = 0
    images: int = 0
    total: int = 0
    with_images: bool = True

    def text(self) -> str:
        pages = "?" if self.pages is None else self.pages
        if not self.with_images:
            return render(
                "cardtext.fetch.progress_text",
                {"page": self.page, "pages": pages, "cards": self.cards},
            )
        return render(
            "cardtext.fetch.progress",
            {
                "page": self.page,
                "pages": pages,
                "cards": self.cards,
                "images": self.images,
                "total": self.total,
            },
        )

    def done(self) -> float:
        """The part done, 0 to 1: the pages, then the pictures."""
        if self.total:
            return self.images / self.total
        return self.page / self.pages if self.pages else 0.0


class ProgressBar:
    """A fetch's progress on ``stream``: on a terminal one line rewritten in place (``\\r``), else a
    plain line for each page and each tenth of the pictures."""

    WIDTH = 24

    def __init__(self, stream: IO[str], *, terminal: bool | None = None) -> None:
        self._stream = stream
        self._terminal = stream.isatty() if terminal is None else terminal
        self._said: tuple[int, int] | None = None
        self._width = 0  # of the line being rewritten, 0 when there is none

    def __call__(self, progress: Progress) -> None:
        if self._terminal:
            filled = round(progress.done() * self.WIDTH)
            line = f"{progress.text()} [{'#' * filled}{'-' * (self.WIDTH - filled)}]"
            self._stream.write("\r" + line.ljust(self._width))
            self._width = len(line)
        else:
            step = (progress.page, progress.images * 10 // progress.total if progress.total else 0)
            if step == self._said:
                return
            self._said = step
            self._stream.write(progress.text() + "\n")
        self._stream.flush()

    def close(self) -> None:
        """End the rewritten line, so what is printed next starts on a line of its own."""
        if self._width:
            self._stream.write("\n")
            self._stream.flush()
            self._width = 0


# --- requests -----------------------------------------------------------------------------------


class _Watch:
    """The deadline of one request: when it passes, the sockets the request opened are shut, so
    a read blocked on a server that sends a byte now and then returns at once."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._timer = threading.Timer(max(0.0, seconds), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock: socket.socket) -> None:
        # A duplicate of the descriptor: shutting it down ends the connection even after TLS
        # has taken the original socket object over.
        copy = sock.dup()
        with self._lock:
            self._sockets.append(copy)
            if self.expired:
                _shut(copy)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for copy in self._sockets:
                _shut(copy)

    def close(self) -> None:
        self._timer.cancel()
        with self._lock:
            for copy in self._sockets:
                copy.close()
            self._sockets.clear()


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def _split(url: str) -> urllib.parse.SplitResult | None:
    """The parts of an address, or None if it cannot be one (``http://[bad``)."""
    try:
        return urllib.parse.urlsplit(url)
    except ValueError:
        return None


def _hostname(url: str) -> str:
    parts = _split(url)
    return ((parts.hostname if parts is not None else None) or "").lower()


def _under(host: str, domains: tuple[str, ...]) -> bool:
    return any(host == domain or host.endswith("." + domain) for domain in domains)


def _local(address: str) -> bool:
    """Whether an IP address is this machine's, its local network's or otherwise not public."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Redirects followed only within the same host or to the configured API's host."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        target = urllib.parse.urljoin(req.full_url, newurl)
        if _hostname(target) not in (_hostname(req.full_url), self._client.hostname):
            fp.close()
            raise FetchError(
                "cardtext.fetch.redirected",
                host=_host(req.full_url),
                url=_short(req.full_url),
                target=_short(target),
                api=self._client.host,
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class _Connections:
    """http and https connections whose socket is checked (no private address but the API's
    own host's) and watched (the request's deadline)."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def __call__(
        self, base: type[http.client.HTTPConnection]
    ) -> Callable[..., http.client.HTTPConnection]:
        def make(host: str, **options: Any) -> http.client.HTTPConnection:
            connection = base(host, **options)
            # http.client's own hook for opening the socket (typeshed does not list it).
            setattr(connection, "_create_connection", self._connect)  # noqa: B010
            return connection

        return make

    def _connect(
        self, address: tuple[str, int], timeout: float, source: tuple[str, int] | None = None
    ) -> socket.socket:
        sock = socket.create_connection(address, timeout, source)
        try:
            self._client.connected(address[0], sock)
        except BaseException:
            sock.close()
            raise
        return sock


class _HTTP(urllib.request.HTTPHandler):
    def __init__(self, connections: _Connections) -> None:
        super().__init__()
        self._connections = connections

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connections(http.client.HTTPConnection), req)


class _HTTPS(urllib.request.HTTPSHandler):
    def __init__(self, connections: _Connections) -> None:
        super().__init__()
        self._connections = connections

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connections(http.client.HTTPSConnection), req)


def _opener(client: Client) -> urllib.request.OpenerDirector:
    """http and https only: an address a server sends (``next_page``, a picture, a redirect) can
    never make the fetch read a local file (``file:``) or another protocol; and the connections
    and redirects ``client`` allows (see the module's notes)."""
    opener = urllib.request.OpenerDirector()
    connections = _Connections(client)
    for handler in (
        urllib.request.ProxyHandler(),
        urllib.request.UnknownHandler(),
        _HTTP(connections),
        _HTTPS(connections),
        urllib.request.HTTPDefaultErrorHandler(),
        _Redirects(client),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener


def _host(url: str) -> str:
    parts = _split(url)
    return parts.netloc if parts is not None else ""


def _short(url: str) -> str:
    """An address without its query, for messages (a search's query is long and says nothing)."""
    parts = _split(url)
    if parts is None:
        return url[:200]
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))[:200]


def _reason(error: object) -> str:
    reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or error
    return str(reason) or type(error).__name__


def _retry_after(value: str | None, default: float) -> float:
    """Seconds to wait, from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return default
    value = value.strip()
    if _SECONDS.fullmatch(value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, OverflowError, IndexError):
        return default


def _quote(text: object) -> str:
    """Server text for a message: one line, at most ``MAX_DETAILS`` characters."""
    line = " ".join(str(text).split())
    return line if len(line) <= MAX_DETAILS else line[:MAX_DETAILS] + "…"


def _details(error: urllib.error.HTTPError) -> str:
    """The ``details`` of Scryfall's error object, else the status's reason phrase."""
    try:
        body = error.read(1 << 20)
        found = loads(body)
    except (*_BROKEN, OSError, ValueError):
        found = None
    finally:
        error.close()
    if isinstance(found, dict) and isinstance(found.get("details"), str):
        return _quote(found["details"])
    return _quote(error.reason)


class _Tries:
    """The retries of one request: after an HTTP 429, and after a broken connection or a
    gateway's error, with their waits."""

    def __init__(self, policy: Policy, sleep: Callable[[float], None]) -> None:
        self._policy = policy
        self._sleep = sleep
        self._limited = 0
        self._broken = 0

    def rate_limited(self, error: _Status, host: str) -> None:
        self._limited += 1
        wait = _retry_after(error.headers.get("Retry-After"), self._policy.rate_limit_wait)
        if self._limited > self._policy.rate_limit_retries or wait > self._policy.longest_wait:
            raise FetchError("cardtext.fetch.rate_limited", host=host)
        self._sleep(wait)

    def again(self, failure: FetchError) -> None:
        """Wait before the next try, or raise ``failure`` if there were tries enough."""
        self._broken += 1
        if self._broken > self._policy.retries:
            raise failure
        self._sleep(self._policy.backoff * 2 ** (self._broken - 1))


class Client:
    """GET requests as Scryfall asks for them: its headers on each, the API's host paced, 429
    answers waited out, broken connections retried; each request and the whole fetch within
    their deadlines, and connections and redirects only where they belong."""

    def __init__(
        self,
        api: str,
        policy: Policy = DEFAULT_POLICY,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api = api
        self.host = _host(api)
        self.hostname = _hostname(api)
        self.requests = 0
        self._policy = policy
        self._sleep = sleep
        self._clock = clock
        self._ends = clock() + policy.fetch_deadline
        self._watch: _Watch | None = None
        self._last: float | None = None
        # A proxy the Pi is set up with may be on its local network.
        self._local_ok = {self.hostname} | {
            _hostname(proxy if "://" in proxy else f"http://{proxy}")
            for proxy in urllib.request.getproxies().values()
            if isinstance(proxy, str)
        }
        self._opener = _opener(self)

    def picture_allowed(self, url: str) -> bool:
        """Whether a picture may be downloaded from ``url``: the API's own host, or one the API
        is known to serve its pictures from (an address that is not http or https is refused
        when it is asked for)."""
        parts = _split(url)
        if parts is not None and parts.scheme not in ("http", "https"):
            return True
        host = _hostname(url)
        if not host:
            return False
        return host == self.hostname or _under(host, PICTURE_HOSTS.get(self.hostname, ()))

    def picture_hosts(self) -> str:
        return ", ".join(
            [self.hostname, *(f"*.{domain}" for domain in PICTURE_HOSTS.get(self.hostname, ()))]
        )

    def connected(self, host: str, sock: socket.socket) -> None:
        """A new connection to ``host``: refused if it reached a private address ``host`` may
        not have, else watched by the request's deadline."""
        address = str(sock.getpeername()[0])
        if _local(address) and host.lower().strip("[]") not in self._local_ok:
            raise FetchError(
                "cardtext.fetch.private_address", host=host, address=address, api=self.host
            )
        if self._watch is not None:
            self._watch.watch(sock)

    def _left(self) -> float:
        """Seconds the fetch has left; stops it when there are none."""
        left = self._ends - self._clock()
        if left <= 0:
            raise FetchError("cardtext.fetch.too_long", minutes=self._minutes())
        return left

    def _minutes(self) -> int:
        return max(1, round(self._policy.fetch_deadline / 60))

    def _wait(self, seconds: float) -> None:
        if seconds >= self._left():
            raise FetchError("cardtext.fetch.too_long", minutes=self._minutes())
        self._sleep(seconds)

    def _open(
        self, url: str, accept: str, extra: Mapping[str, str], seconds: float
    ) -> http.client.HTTPResponse:
        parts = _split(url)
        if parts is None or parts.scheme not in ("http", "https"):
            raise FetchError(
                "cardtext.fetch.bad_data",
                host=self.host,
                url=_short(url),
                reason="an address that is not http or https",
            )
        # An address with letters outside ASCII (a server may send one) is sent percent-encoded,
        # as a browser would; one already encoded stays as it is.
        sent = urllib.parse.quote(url, safe=":/?#[]@!$&'()*+,;=%~")
        request = urllib.request.Request(
            sent, headers={"User-Agent": USER_AGENT, "Accept": accept, **extra}
        )
        self.requests += 1
        return cast(
            http.client.HTTPResponse,
            self._opener.open(request, timeout=min(self._policy.timeout, seconds)),
        )

    def _attempt(
        self,
        url: str,
        accept: str,
        read: Callable[[http.client.HTTPResponse], T],
        headers: Mapping[str, str],
    ) -> T:
        """One request, within its deadline.  The API's spacing counts from the end of the
        previous request, so the server sees its requests at least ``spacing`` apart however
        long each one took."""
        if _host(url) == self.host and self._last is not None:
            wait = self._last + self._policy.spacing - self._clock()
            if wait > 0:
                self._wait(wait)
        seconds = min(self._policy.request_deadline, self._left())
        watch = self._watch = _Watch(seconds)
        try:
            try:
                with self._open(url, accept, headers, seconds) as response:
                    return read(response)
            except urllib.error.HTTPError as error:
                raise _Status(error.code, error.headers, _details(error)) from None
        except (_Status, KeyboardInterrupt):
            raise
        except Exception:
            if watch.expired:
                raise self._late(url, seconds) from None
            raise
        finally:
            watch.close()
            self._watch = None
            if _host(url) == self.host:
                self._last = self._clock()

    def _late(self, url: str, seconds: float) -> FetchError:
        if seconds < self._policy.request_deadline:
            return FetchError("cardtext.fetch.too_long", minutes=self._minutes())
        return FetchError(
            "cardtext.fetch.too_slow",
            host=_host(url),
            url=_short(url),
            seconds=max(1, round(seconds)),
        )

    def get(
        self,
        url: str,
        accept: str,
        read: Callable[[http.client.HTTPResponse], T],
        *,
        headers: Callable[[], dict[str, str]] = dict,
        restart: Callable[[], None] | None = None,
    ) -> T:
        """``read(response)`` of a GET of ``url``, tried again as Scryfall's rules allow.
        ``headers`` are computed for each try; ``restart`` is called when the server refuses a
        ``Range`` (HTTP 416), before trying again from the start."""
        tries = _Tries(self._policy, self._wait)
        host = _host(url)
        while True:
            try:
                return self._attempt(url, accept, read, headers())
            except _Status as error:
                self._answered(error, url, tries, restart)
            except urllib.error.URLError as error:
                raise FetchError(
                    "cardtext.fetch.unreachable", host=host, reason=_reason(error.reason)
                ) from None
            except _BROKEN as error:
                tries.again(
                    FetchError(
                        "cardtext.fetch.dropped", host=host, url=_short(url), reason=_reason(error)
                    )
                )

    def _answered(
        self, error: _Status, url: str, tries: _Tries, restart: Callable[[], None] | None
    ) -> None:
        host = _host(url)
        if error.code == 429:
            tries.rate_limited(error, host)
            return
        if error.code == 416 and restart is not None:
            restart()
            tries.again(
                FetchError(
                    "cardtext.fetch.http_error",
                    host=host,
                    status=416,
                    url=_short(url),
                    details=error.details,
                )
            )
            return
        failure = FetchError(
            "cardtext.fetch.server_error" if error.code >= 500 else "cardtext.fetch.http_error",
            host=host,
            status=error.code,
            url=_short(url),
            details=error.details,
        )
        if error.code in (502, 503, 504):
            tries.again(failure)
            return
        raise failure


def _length(response: http.client.HTTPResponse) -> int | None:
    value = (response.headers.get("Content-Length") or "").strip()
    return int(value) if _SECONDS.fullmatch(value) else None


def _copy(
    response: http.client.HTTPResponse, out: IO[bytes] | None, size: int, limit: int
) -> tuple[int, list[bytes]]:
    """Read the body to its end into ``out`` (or a list); ``size`` bytes are there already."""
    kept: list[bytes] = []
    while chunk := response.read(CHUNK):
        size += len(chunk)
        if size > limit:
            raise _TooBig
        if out is None:
            kept.append(chunk)
        else:
            out.write(chunk)
    return size, kept


def _read_json(response: http.client.HTTPResponse, url: str) -> Any:
    length = _length(response)
    try:
        size, chunks = _copy(response, None, 0, MAX_PAGE)
    except _TooBig:
        raise FetchError(
            "cardtext.fetch.bad_data",
            host=_host(url),
            url=_short(url),
            reason=f"more than {MAX_PAGE >> 20} MB",
        ) from None
    if length is not None and size < length:
        raise _Dropped(f"only {size} of {length} bytes arrived")
    try:
        return loads(b"".join(chunks))
    except JSONRefused as error:
        raise FetchError(
            "cardtext.fetch.bad_data", host=_host(url), url=_short(url), reason=error.reason
        ) from None
    except ValueError as error:  # not UTF-8, not JSON
        raise FetchError(
            "cardtext.fetch.bad_data",
            host=_host(url),
            url=_short(url),
            reason=f"not JSON: {_quote(error)}",
        ) from None


# --- the search ---------------------------------------------------------------------------------


def api_base(api: str) -> str:
    """``api`` without a trailing slash, if it is an http or https address."""
    parts = _split(api.strip())
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError("cardtext.fetch.bad_address", url=api)
    return api.strip().rstrip("/")


def search_url(api: str) -> str:
    return f"{api}/cards/search?{urllib.parse.urlencode(SEARCH)}"


def _check_page(page: Any, url: str) -> list[Any]:
    """The cards of a search page, or a clear error about what came instead."""
    host = _host(url)
    if isinstance(page, dict) and page.get("object") == "error":
        raise FetchError(
            "cardtext.fetch.http_error",
            host=host,
            status=_quote(page.get("status", "?"))[:20],
            url=_short(url),
            details=_quote(page.get("details", "")),
        )
    if (
        not isinstance(page, dict)
        or page.get("object") != "list"
        or not isinstance(page.get("data"), list)
    ):
        raise FetchError(
            "cardtext.fetch.bad_data", host=host, url=_short(url), reason="not a list of cards"
        )
    return cast(list[Any], page["data"])


def _next_page(page: Mapping[str, Any], url: str, api: str, count: int) -> str | None:
    if not page.get("has_more"):
        return None
    following = page.get("next_page")
    api_parts, parts = urllib.parse.urlsplit(api), _split(str(following))
    if (
        not isinstance(following, str)
        or parts is None
        or (parts.scheme, parts.netloc) != (api_parts.scheme, api_parts.netloc)
    ):
        raise FetchError(
            "cardtext.fetch.bad_data",
            host=_host(url),
            url=_short(url),
            reason=f"has_more without a next_page on {api_parts.netloc}",
        )
    if count >= MAX_PAGES:
        raise FetchError(
            "cardtext.fetch.bad_data",
            host=_host(url),
            url=_short(url),
            reason=f"more than {MAX_PAGES} pages",
        )
    return following


def pages(client: Client) -> Iterator[tuple[list[Any], int | None]]:
    """Each page of the search's cards, with the number of pages it says there are."""
    url: str | None = search_url(client.api)
    count = 0
    estimate: int | None = None
    while url is not None:
        page = client.get(url, JSON_ACCEPT, lambda response: _read_json(response, str(url)))
        cards = _check_page(page, url)
        count += 1
        total = page.get("total_cards")
        if (
            count == 1 and isinstance(total, int) and total > 0 and cards
        ):  # every page but the last is as long
            estimate = min(
                -(-total // len(cards)), MAX_PAGES
            )  # as the first; more pages are refused anyway
        yield cards, None if estimate is None else max(count, estimate)
        url = _next_page(page, url, client.api, count)


def image_url(raw: Mapping[str, Any]) -> str | None:
    """The address of the card's picture (its front face's for a card with two faces)."""
    uris = raw.get("image_uris")
    faces = raw.get("card_faces")
    if (
        not isinstance(uris, dict)
        and isinstance(faces, list)
        and faces
        and isinstance(faces[0], dict)
    ):
        uris = faces[0].get("image_uris")
    if not isinstance(uris, dict):
        return None
    for size in IMAGE_SIZES:
        found = uris.get(size)
        if isinstance(found, str) and found:
            return found
    return None


# --- pictures -----------------------------------------------------------------------------------


def _stem(card: str, url: str) -> str:
    """A download's file name without its suffix: the card, and the address (Scryfall's addresses
    change when a picture does, so a new picture is a new file)."""
    return f"{name_key(card) or 'card'}-{hashlib.sha256(url.encode()).hexdigest()[:16]}"


def _kind(head: bytes) -> str | None:
    if head.startswith(PNG_SIGNATURE):
        return ".png"
    if head.startswith(JPEG_SIGNATURE):
        return ".jpg"
    return None


def _ends_whole(path: Path, suffix: str) -> bool:
    """Whether the picture reaches its end marker (PNG's IEND chunk, JPEG's EOI)."""
    with path.open("rb") as picture:
        picture.seek(max(0, path.stat().st_size - 16))
        tail = picture.read().rstrip(b"\x00\r\n")
    return tail.endswith(b"IEND\xaeB`\x82") if suffix == ".png" else tail.endswith(b"\xff\xd9")


def _complete(folder: Path, stem: str) -> Path | None:
    """The picture downloaded before, if it is there whole."""
    for suffix in (".jpg", ".png"):
        path = folder / f"{stem}{suffix}"
        if path.is_file():
            with path.open("rb") as picture:
                if _kind(picture.read(16)) == suffix:
                    return path
            path.unlink()  # not what was stored (a power cut's empty file): download it again
    return None


class _Download:
    """One picture: written to a partial file, resumed where a dropped connection left it."""

    def __init__(self, client: Client, url: str, card: str, folder: Path, stem: str) -> None:
        self.client, self.url, self.card, self.folder = client, url, card, folder
        self.part = folder / PARTIAL / f"{stem}.part"
        self.stem = stem

    def _have(self) -> int:
        return self.part.stat().st_size if self.part.exists() else 0

    def _headers(self) -> dict[str, str]:
        have = self._have()
        return {"Range": f"bytes={have}-"} if have else {}

    def _not_a_picture(self, reason: str) -> FetchError:
        self.part.unlink(missing_ok=True)
        return FetchError(
            "cardtext.fetch.not_a_picture", card=self.card, url=self.url, reason=reason
        )

    def _save(self, response: http.client.HTTPResponse) -> str:
        have = self._have()
        if response.status == 206:
            started = _RANGE.match(response.headers.get("Content-Range", ""))
            if not have or started is None or int(started.group(1)) != have:
                self.part.unlink(missing_ok=True)
                raise _Dropped("the server sent another part of the picture than the one asked for")
        else:
            have = 0
        length = _length(response)
        try:
            with self.part.open("ab" if have else "wb") as out:
                size, _ = _copy(response, out, have, MAX_IMAGE)
                out.flush()
                os.fsync(out.fileno())
        except _TooBig:
            raise self._not_a_picture(f"larger than {MAX_IMAGE >> 20} MB") from None
        return self._check(size, None if length is None else have + length)

    def _check(self, size: int, expected: int | None) -> str:
        if expected is not None and size < expected:
            raise _Dropped(f"only {size} of {expected} bytes arrived")
        with self.part.open("rb") as picture:
            head = picture.read(16)
        suffix = _kind(head)
        if suffix is None:
            raise self._not_a_picture(f"it starts with {head[:8]!r}")
        if expected is None and not _ends_whole(self.part, suffix):
            raise _Dropped("the picture stops before its end")
        return suffix

    def run(self) -> Path:
        self.part.parent.mkdir(parents=True, exist_ok=True)
        suffix = self.client.get(
            self.url,
            IMAGE_ACCEPT,
            self._save,
            headers=self._headers,
            restart=lambda: self.part.unlink(missing_ok=True),
        )
        done = self.folder / f"{self.stem}{suffix}"
        os.replace(self.part, done)
        return done


def _pictures(
    client: Client,
    wanted: Mapping[str, str],
    folder: Path,
    report: FetchReport,
    shown: Progress,
    tell: Callable[[Progress], None],
) -> dict[str, Path]:
    """Each card's picture in ``folder``: the one downloaded before, else downloaded now."""
    shown.total = len(wanted)
    tell(shown)
    found: dict[str, Path] = {}
    for card, url in wanted.items():
        stem = _stem(card, url)
        path = _complete(folder, stem)
        if path is None:
            path = _Download(client, url, card, folder, stem).run()
            report.downloaded += 1
        else:
            report.kept += 1
        found[card] = path
        shown.images += 1
        tell(shown)
    return found


def _prune(folder: Path, keep: set[Path]) -> None:
    """Remove downloads the store no longer uses (a card's older picture) and left-over parts."""
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if path.is_file() and path not in keep:
            path.unlink()
    shutil.rmtree(folder / PARTIAL, ignore_errors=True)


def fetch(
    data_dir: Path,
    *,
    api: str = API,
    images: bool = True,
    progress: Callable[[Progress], None] | None = None,
    policy: Policy | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> FetchReport:
    """Download the text (and with ``images`` one picture) of every card of the catalog Scryfall
    has, and replace the stored card text with it.  Raises ``FetchError`` and keeps the stored
    text as it was if the fetch cannot complete; what was downloaded stays for the next try."""
    client = Client(api_base(api), policy or DEFAULT_POLICY, sleep=sleep, clock=clock)
    catalog = load_catalog()
    known = KnownCards(catalog)
    report = FetchReport(client.host)
    shown = Progress(with_images=images)
    tell = progress or (lambda _: None)
    wanted: dict[str, str] = {}
    for cards, count in pages(client):
        for raw in cards:
            card = report.take(raw, known) if isinstance(raw, dict) else None
            address = image_url(raw) if card is not None and images else None
            if card is not None and address is not None:
                if not client.picture_allowed(address):
                    raise FetchError(
                        "cardtext.fetch.foreign_picture",
                        host=client.host,
                        url=_short(address)[:200],
                        card=card.name,
                        allowed=client.picture_hosts(),
                    )
                wanted[card.name] = address
        shown.page, shown.pages, shown.cards = shown.page + 1, count, len(report.cards)
        tell(shown)
    if not report.cards:
        raise FetchError("cardtext.fetch.nothing", host=client.host)
    folder = store_dir(data_dir) / DOWNLOADS
    pictures = _pictures(client, wanted, folder, report, shown, tell) if images else {}
    report.finish(catalog)
    store(report, pictures, data_dir, link=True)
    if images:
        _prune(folder, set(pictures.values()))
    return report
