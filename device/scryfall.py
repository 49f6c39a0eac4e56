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

import email.utils
import hashlib
import http.client
import json
import math
import os
import re
import shutil
import ssl
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
    JPEG_SIGNATURE, MAX_IMAGE, PNG_SIGNATURE, ImportReport, KnownCards, store, store_dir,
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
_RANGE = re.compile(r"bytes (\d+)-")
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
            return render("cardtext.fetch.progress_text", {"page": self.page, "pages": pages, "cards": self.cards})
        return render("cardtext.fetch.progress", {
            "page": self.page, "pages": pages, "cards": self.cards, "images": self.images, "total": self.total})

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


def _opener() -> urllib.request.OpenerDirector:
    """http and https only: an address a server sends (``next_page``, a picture, a redirect) can
    never make the fetch read a local file (``file:``) or another protocol."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(), urllib.request.UnknownHandler(), urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(), urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPRedirectHandler(), urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc


def _short(url: str) -> str:
    """An address without its query, for messages (a search's query is long and says nothing)."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def _reason(error: object) -> str:
    reason = getattr(error, "reason", None) or getattr(error, "strerror", None) or error
    return str(reason) or type(error).__name__


def _retry_after(value: str | None, default: float) -> float:
    """Seconds to wait, from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return default
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return default
    return max(0.0, when.timestamp() - time.time())


def _details(error: urllib.error.HTTPError) -> str:
    """The ``details`` of Scryfall's error object, else the status's reason phrase."""
    try:
        body = error.read(1 << 20)
        found = json.loads(body.decode("utf-8"))
    except (*_BROKEN, OSError, ValueError):
        found = None
    finally:
        error.close()
    if isinstance(found, dict) and isinstance(found.get("details"), str):
        return str(found["details"])
    return str(error.reason)


class _Tries:
    """The retries of one request: after an HTTP 429, and after a broken connection or a
    gateway's error, with their waits."""

    def __init__(self, policy: Policy, sleep: Callable[[float], None]) -> None:
        self._policy = policy
        self._sleep = sleep
        self._limited = 0
        self._broken = 0

    def rate_limited(self, error: urllib.error.HTTPError, host: str) -> None:
        self._limited += 1
        wait = _retry_after(error.headers.get("Retry-After"), self._policy.rate_limit_wait)
        _details(error)
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
    answers waited out, broken connections retried."""

    def __init__(
        self, api: str, policy: Policy = DEFAULT_POLICY, *, sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic, opener: urllib.request.OpenerDirector | None = None,
    ) -> None:
        self.api = api
        self.host = _host(api)
        self.requests = 0
        self._policy = policy
        self._sleep = sleep
        self._clock = clock
        self._opener = opener or _opener()
        self._last: float | None = None

    def _open(self, url: str, accept: str, extra: Mapping[str, str]) -> http.client.HTTPResponse:
        if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
            raise FetchError("cardtext.fetch.bad_data", host=self.host, url=url,
                             reason="an address that is not http or https")
        if _host(url) == self.host and self._last is not None:
            wait = self._last + self._policy.spacing - self._clock()
            if wait > 0:
                self._sleep(wait)
        # An address with letters outside ASCII (a server may send one) is sent percent-encoded,
        # as a browser would; one already encoded stays as it is.
        sent = urllib.parse.quote(url, safe=":/?#[]@!$&'()*+,;=%~")
        request = urllib.request.Request(sent, headers={"User-Agent": USER_AGENT, "Accept": accept, **extra})
        self.requests += 1
        return cast(http.client.HTTPResponse, self._opener.open(request, timeout=self._policy.timeout))

    def _attempt(self, url: str, accept: str, read: Callable[[http.client.HTTPResponse], T],
                 headers: Mapping[str, str]) -> T:
        """One request.  The API's spacing counts from the end of the previous request, so the
        server sees its requests at least ``spacing`` apart however long each one took."""
        try:
            with self._open(url, accept, headers) as response:
                return read(response)
        finally:
            if _host(url) == self.host:
                self._last = self._clock()

    def get(
        self, url: str, accept: str, read: Callable[[http.client.HTTPResponse], T], *,
        headers: Callable[[], dict[str, str]] = dict, restart: Callable[[], None] | None = None,
    ) -> T:
        """``read(response)`` of a GET of ``url``, tried again as Scryfall's rules allow.
        ``headers`` are computed for each try; ``restart`` is called when the server refuses a
        ``Range`` (HTTP 416), before trying again from the start."""
        tries = _Tries(self._policy, self._sleep)
        host = _host(url)
        while True:
            try:
                return self._attempt(url, accept, read, headers())
            except urllib.error.HTTPError as error:
                self._answered(error, url, tries, restart)
            except urllib.error.URLError as error:
                raise FetchError("cardtext.fetch.unreachable", host=host, reason=_reason(error.reason)) from None
            except _BROKEN as error:
                tries.again(FetchError("cardtext.fetch.dropped", host=host, url=_short(url), reason=_reason(error)))

    def _answered(
        self, error: urllib.error.HTTPError, url: str, tries: _Tries, restart: Callable[[], None] | None
    ) -> None:
        host = _host(url)
        if error.code == 429:
            tries.rate_limited(error, host)
            return
        details = _details(error)
        if error.code == 416 and restart is not None:
            restart()
            tries.again(FetchError("cardtext.fetch.http_error", host=host, status=416, url=_short(url), details=details))
            return
        failure = FetchError("cardtext.fetch.server_error" if error.code >= 500 else "cardtext.fetch.http_error",
                             host=host, status=error.code, url=_short(url), details=details)
        if error.code in (502, 503, 504):
            tries.again(failure)
            return
        raise failure


def _length(response: http.client.HTTPResponse) -> int | None:
    value = response.headers.get("Content-Length")
    return int(value) if value is not None and value.strip().isdigit() else None


def _copy(response: http.client.HTTPResponse, out: IO[bytes] | None, size: int, limit: int) -> tuple[int, list[bytes]]:
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
        raise FetchError("cardtext.fetch.bad_data", host=_host(url), url=_short(url),
                         reason=f"more than {MAX_PAGE >> 20} MB") from None
    if length is not None and size < length:
        raise _Dropped(f"only {size} of {length} bytes arrived")
    try:
        return json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise FetchError("cardtext.fetch.bad_data", host=_host(url), url=_short(url),
                         reason=f"not JSON: {error}") from None


# --- the search ---------------------------------------------------------------------------------


def api_base(api: str) -> str:
    """``api`` without a trailing slash, if it is an http or https address."""
    parts = urllib.parse.urlsplit(api.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise FetchError("cardtext.fetch.bad_address", url=api)
    return api.strip().rstrip("/")


def search_url(api: str) -> str:
    return f"{api}/cards/search?{urllib.parse.urlencode(SEARCH)}"


def _check_page(page: Any, url: str) -> list[Any]:
    """The cards of a search page, or a clear error about what came instead."""
    host = _host(url)
    if isinstance(page, dict) and page.get("object") == "error":
        raise FetchError("cardtext.fetch.http_error", host=host, status=page.get("status", "?"), url=_short(url),
                         details=page.get("details", ""))
    if not isinstance(page, dict) or page.get("object") != "list" or not isinstance(page.get("data"), list):
        raise FetchError("cardtext.fetch.bad_data", host=host, url=_short(url), reason="not a list of cards")
    return cast(list[Any], page["data"])


def _next_page(page: Mapping[str, Any], url: str, api: str, count: int) -> str | None:
    if not page.get("has_more"):
        return None
    following = page.get("next_page")
    api_parts, parts = urllib.parse.urlsplit(api), urllib.parse.urlsplit(str(following))
    if not isinstance(following, str) or (parts.scheme, parts.netloc) != (api_parts.scheme, api_parts.netloc):
        raise FetchError("cardtext.fetch.bad_data", host=_host(url), url=_short(url),
                         reason=f"has_more without a next_page on {api_parts.netloc}")
    if count >= MAX_PAGES:
        raise FetchError("cardtext.fetch.bad_data", host=_host(url), url=_short(url),
                         reason=f"more than {MAX_PAGES} pages")
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
        if count == 1 and isinstance(total, int) and cards:  # every page but the last is as long as the first
            estimate = math.ceil(total / len(cards))
        yield cards, None if estimate is None else max(count, estimate)
        url = _next_page(page, url, client.api, count)


def image_url(raw: Mapping[str, Any]) -> str | None:
    """The address of the card's picture (its front face's for a card with two faces)."""
    uris = raw.get("image_uris")
    faces = raw.get("card_faces")
    if not isinstance(uris, dict) and isinstance(faces, list) and faces and isinstance(faces[0], dict):
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
        return FetchError("cardtext.fetch.not_a_picture", card=self.card, url=self.url, reason=reason)

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
        suffix = self.client.get(self.url, IMAGE_ACCEPT, self._save, headers=self._headers,
                                 restart=lambda: self.part.unlink(missing_ok=True))
        done = self.folder / f"{self.stem}{suffix}"
        os.replace(self.part, done)
        return done


def _pictures(
    client: Client, wanted: Mapping[str, str], folder: Path, report: FetchReport, shown: Progress,
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
    data_dir: Path, *, api: str = API, images: bool = True, progress: Callable[[Progress], None] | None = None,
    policy: Policy | None = None, sleep: Callable[[float], None] = time.sleep,
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
            address = image_url(raw) if card is not None else None
            if card is not None and address is not None:
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
