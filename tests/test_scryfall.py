"""HW-3: `aetherbox catalog fetch` downloads the rules text and pictures of the catalog's cards
from Scryfall's API, as Scryfall asks clients to, and resumes where it stopped.

Nothing here touches the internet: two local web servers stand in for api.scryfall.com and the
picture host cards.scryfall.io, answering in Scryfall's format what each test writes (search
pages that link to each other, error objects, 429 answers, answers cut off in the middle).
"""

from __future__ import annotations

import io
import json
import random
import socket
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pygame
import pytest

from device import __version__, scryfall
from device.cardtext import clear_cache, import_file, rules_text
from device.catalog import load_catalog
from device.scryfall import FetchError, Policy, Progress, ProgressBar, fetch
from display import cli

#: Short waits, so the tests are quick; one test checks Scryfall's own spacing.
FAST = Policy(spacing=0.01, rate_limit_wait=0.02, backoff=0.01, timeout=5.0)


# --- a local stand-in for Scryfall ----------------------------------------------------------------


@dataclass
class Hit:
    """One request the server received."""

    key: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    at: float


class Answer:
    def send(self, handler: BaseHTTPRequestHandler) -> None:
        raise NotImplementedError


@dataclass
class Raw(Answer):
    """Bytes as they are; ``cut`` sends the headers of the whole body but only its first half,
    then closes the connection (a connection dropped in the middle of an answer)."""

    body: bytes
    status: int = 200
    kind: str = "application/json; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    cut: bool = False

    def send(self, handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(self.status)
        handler.send_header("Content-Type", self.kind)
        handler.send_header("Content-Length", str(len(self.body)))
        for name, value in self.headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(self.body[: len(self.body) // 2] if self.cut else self.body)
        handler.wfile.flush()
        handler.close_connection = True


def answer(document: Any, status: int = 200, **extra: Any) -> Raw:
    return Raw(json.dumps(document, ensure_ascii=False).encode(), status, **extra)


def error_object(status: int, code: str, details: str) -> dict[str, Any]:
    return {"object": "error", "code": code, "status": status, "details": details}


@dataclass
class Picture(Answer):
    """A picture as a file host serves it, from the byte a ``Range`` header asks for; ``cut``
    sends half of what is asked for and closes the connection."""

    body: bytes
    cut: bool = False
    kind: str = "image/jpeg"

    def send(self, handler: BaseHTTPRequestHandler) -> None:
        asked = handler.headers.get("Range")
        start = int(asked.removeprefix("bytes=").rstrip("-")) if asked else 0
        if start >= len(self.body):
            Raw(b"", 416, kind="text/plain").send(handler)
            return
        part = self.body[start:]
        handler.send_response(206 if start else 200)
        handler.send_header("Content-Type", self.kind)
        handler.send_header("Content-Length", str(len(part)))
        if start:
            handler.send_header(
                "Content-Range", f"bytes {start}-{len(self.body) - 1}/{len(self.body)}"
            )
        handler.end_headers()
        handler.wfile.write(part[: len(part) // 2] if self.cut else part)
        handler.wfile.flush()
        handler.close_connection = True


class Site:
    """A web server on 127.0.0.1 answering from ``routes``: a request's path (with ``?page=N``
    for a search's later pages) to its answers in turn, the last one repeated."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.routes: dict[str, list[Answer]] = {}
        self.hits: list[Hit] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                parts = urllib.parse.urlsplit(self.path)
                query = urllib.parse.parse_qs(parts.query)
                key = urllib.parse.unquote(parts.path) + (
                    f"?page={query['page'][0]}" if "page" in query else ""
                )
                site.hits.append(Hit(key, query, dict(self.headers.items()), clock()))
                answers = site.routes.get(key)
                if not answers:
                    answer(error_object(404, "not_found", f"No such thing: {key}"), 404).send(self)
                    return
                (answers.pop(0) if len(answers) > 1 else answers[0]).send(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        self.url = f"http://{self.host}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def route(self, key: str, *answers: Answer) -> None:
        self.routes[key] = list(answers)

    def keys(self) -> list[str]:
        return [hit.key for hit in self.hits]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def picture(seed: int, suffix: str) -> bytes:
    """A small real picture: noise, so a JPEG is a few kilobytes and halves are real halves."""
    rng = random.Random(seed)
    surface = pygame.Surface((40, 56))
    for x in range(40):
        for y in range(56):
            surface.set_at((x, y), (rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    out = io.BytesIO()
    pygame.image.save(surface, out, f"card{suffix}")
    return out.getvalue()


#: (name, type line, text, picture format): real names from device/data/*.tsv, one the catalog does not know.
CARDS = [
    (
        "Academy at Tolaria West",
        "Plane — Dominaria",
        "At the beginning of your end step, if you have no cards in hand, draw seven cards.",
        ".jpg",
    ),
    (
        "Agyrem",
        "Plane — Ravnica",
        "Whenever a white creature dies, return it to the battlefield at the beginning of the next end step.",
        ".png",
    ),
    ("Jace Beleren", "Legendary Planeswalker — Jace", "+2: Each player draws a card.", ".jpg"),
    (
        "Chaotic Aether",
        "Phenomenon",
        "When you encounter Chaotic Aether, each blank roll of the planar die is a {CHAOS} roll until a player planeswalks away from a plane.",
        ".jpg",
    ),
    ("Bant", "Plane — Alara", "All creatures have exalted.", ".jpg"),
    (
        "Accessories to Murder",
        "Artifact — Contraption",
        "Whenever this Contraption cranks, target creature gets +1/+0.",
        ".jpg",
    ),
    (
        "Applied Aeronautics",
        "Artifact — Contraption",
        "Whenever this Contraption cranks, target creature gains flying until end of turn.",
        ".png",
    ),
]
KNOWN = sorted(name for name, *_ in CARDS if name != "Jace Beleren")
#: The same card in Japanese, which the search may list too (the fetch keeps English only).
BANT_JA = ("Bant", "次元 — アラーラ", "すべてのクリーチャーは賛美を持つ。")


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


@dataclass
class Scryfall:
    api: Site
    files: Site
    pictures: dict[str, bytes]

    def card(
        self, name: str, type_line: str, text: str, suffix: str, lang: str = "en"
    ) -> dict[str, Any]:
        base = f"{self.files.url}/{{size}}/front/{slug(name)}{{suffix}}?1562404626"
        return {
            "object": "card",
            "id": f"id-{slug(name)}-{lang}",
            "lang": lang,
            "name": name,
            "layout": "planar" if "Plane " in type_line or type_line == "Phenomenon" else "normal",
            "type_line": type_line,
            "oracle_text": text,
            "image_status": "highres_scan",
            "image_uris": {
                size: base.format(size=size, suffix=".png" if size == "png" else ".jpg")
                for size in ("small", "normal", "large", "png", "art_crop", "border_crop")
            },
        }

    def pages(self) -> list[dict[str, Any]]:
        """Three search pages of Scryfall's list objects, linked by ``next_page``."""
        cards = [self.card(*entry) for entry in CARDS]
        cards.insert(4, self.card(*BANT_JA, ".jpg", lang="ja"))
        chunks = [cards[:3], cards[3:5], cards[5:]]
        query = urllib.parse.urlencode(scryfall.SEARCH)
        return [
            {
                "object": "list",
                "total_cards": len(cards),
                "has_more": number < 3,
                "data": chunk,
                **(
                    {"next_page": f"{self.api.url}/cards/search?{query}&page={number + 1}"}
                    if number < 3
                    else {}
                ),
            }
            for number, chunk in enumerate(chunks, start=1)
        ]

    def serve(self) -> None:
        for number, page in enumerate(self.pages(), start=1):
            self.api.route(page_key(number), answer(page))
        for name, _, _, suffix in CARDS:
            self.files.route(
                picture_key(name),
                Picture(
                    self.pictures[name], kind="image/png" if suffix == ".png" else "image/jpeg"
                ),
            )

    def reset(self) -> None:
        self.api.hits.clear()
        self.files.hits.clear()


def page_key(number: int) -> str:
    return "/cards/search" if number == 1 else f"/cards/search?page={number}"


def picture_key(name: str) -> str:
    return f"/normal/front/{slug(name)}.jpg"


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy from the environment, and a fetch without --api would go to a closed local port:
    a test can never reach the real Scryfall."""
    for name in (
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(scryfall, "API", "http://127.0.0.1:9")
    monkeypatch.setattr(scryfall, "DEFAULT_POLICY", FAST)


@pytest.fixture
def site() -> Iterator[Scryfall]:
    import time

    api, files = Site(time.monotonic), Site(time.monotonic)
    pictures = {name: picture(number, suffix) for number, (name, _, _, suffix) in enumerate(CARDS)}
    served = Scryfall(api, files, pictures)
    served.serve()
    try:
        yield served
    finally:
        api.close()
        files.close()


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    clear_cache()
    yield tmp_path / "data"
    clear_cache()


def store_snapshot(data_dir: Path) -> dict[str, bytes]:
    """The store the kiosk reads (the text and the pictures it names), without the downloads."""
    store = data_dir / "cardtext"
    return {
        str(p.relative_to(store)): p.read_bytes()
        for p in sorted(store.rglob("*"))
        if p.is_file() and "downloads" not in p.relative_to(store).parts
    }


def imported_before(tmp_path: Path, data_dir: Path) -> dict[str, bytes]:
    """Card text stored by an import, as a fetch that fails must leave it."""
    source = tmp_path / "oracle-cards.json"
    source.write_text(
        json.dumps(
            [
                {
                    "object": "card",
                    "lang": "en",
                    "name": "Tazeem",
                    "type_line": "Plane — Zendikar",
                    "oracle_text": "Imported text.",
                }
            ]
        ),
        encoding="utf-8",
    )
    import_file(source, data_dir)
    return store_snapshot(data_dir)


# --- fetching -------------------------------------------------------------------------------------


def test_hw3_fetch_stores_the_text_and_pictures_of_the_catalogs_cards(
    site: Scryfall, data_dir: Path
) -> None:
    """HW-3: every page of the search is read; the catalog's English cards are kept, with one
    picture each, in the store the kiosk reads (rules_text finds them)."""
    report = fetch(data_dir, api=site.api.url)
    assert sorted(report.cards) == KNOWN
    assert {kind.value: n for kind, n in report.kinds.items()} == {
        "plane": 3,
        "phenomenon": 1,
        "contraption": 2,
    }
    assert (report.images, report.downloaded, report.kept) == (6, 6, 0)
    assert report.source == site.api.host
    assert len(report.missing) == len(load_catalog()) - 6
    bant = rules_text("bant", data_dir)
    assert bant is not None and (bant.type_line, bant.text) == (
        "Plane — Alara",
        "All creatures have exalted.",
    )
    assert rules_text("Jace Beleren", data_dir) is None
    for name in KNOWN:
        stored = rules_text(name, data_dir)
        assert stored is not None and stored.image is not None
        assert Path(stored.image).read_bytes() == site.pictures[name]
    agyrem = rules_text("Agyrem", data_dir)
    assert agyrem is not None and agyrem.image is not None and agyrem.image.endswith(".png")
    assert site.api.keys() == [page_key(1), page_key(2), page_key(3)]
    first = site.api.hits[0].query
    assert (first["q"], first["unique"]) == ([scryfall.QUERY], ["cards"])
    assert sorted(site.files.keys()) == sorted(
        picture_key(name) for name in KNOWN
    )  # the "normal" size
    downloads = data_dir / "cardtext" / "downloads"
    assert (
        len([p for p in downloads.iterdir() if p.is_file()]) == 6
        and not (downloads / "partial").exists()
    )


def test_hw3_every_request_names_aetherbox_and_says_what_it_accepts(
    site: Scryfall, data_dir: Path
) -> None:
    """Scryfall's required headers: a User-Agent naming the application and its version, and an
    Accept header, on the API and on the picture host."""
    fetch(data_dir, api=site.api.url)
    hits = site.api.hits + site.files.hits
    assert len(hits) == 9
    assert {hit.headers["User-Agent"] for hit in hits} == {f"aetherbox/{__version__}"}
    assert {hit.headers["Accept"] for hit in site.api.hits} == {"application/json;q=0.9,*/*;q=0.8"}
    assert {hit.headers["Accept"] for hit in site.files.hits} == {
        "image/jpeg,image/png;q=0.9,*/*;q=0.8"
    }


def test_hw3_search_requests_are_spaced_as_scryfall_asks(site: Scryfall, data_dir: Path) -> None:
    """Scryfall allows its search 2 requests a second (and asks for 50-100 ms between any two):
    the default spacing, measured where the requests arrive."""
    fetch(data_dir, api=site.api.url, images=False, policy=Policy())
    times = [hit.at for hit in site.api.hits]
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    assert len(gaps) == 2 and min(gaps) >= 0.5, gaps


def test_hw3_pictures_are_not_paced_like_the_api(site: Scryfall, data_dir: Path) -> None:
    """The picture host has no rate limit: only requests to the API's host wait."""
    waits: list[float] = []
    fetch(data_dir, api=site.api.url, policy=Policy(), sleep=waits.append)
    assert len(waits) == 2 and all(
        0.45 < wait <= 0.5 for wait in waits
    )  # before pages 2 and 3 only


@pytest.mark.parametrize(
    ("headers", "wait"),
    [({"Retry-After": "2"}, 2.0), ({}, 30.0)],
    ids=["retry-after", "no-retry-after"],
)
def test_hw3_a_rate_limit_answer_is_waited_out(
    site: Scryfall, data_dir: Path, headers: dict[str, str], wait: float
) -> None:
    """An HTTP 429 is not ignored: the fetch waits as Retry-After says (else Scryfall's 30 s)
    and asks again."""
    limited = answer(
        error_object(429, "too_many_requests", "You are sending requests too quickly."),
        429,
        headers=headers,
    )
    site.api.route(page_key(2), limited, answer(site.pages()[1]))
    waits: list[float] = []
    report = fetch(data_dir, api=site.api.url, policy=Policy(spacing=0.0), sleep=waits.append)
    assert sorted(report.cards) == KNOWN
    assert wait in waits
    assert site.api.keys() == [page_key(1), page_key(2), page_key(2), page_key(3)]


def test_hw3_a_rate_limit_that_goes_on_stops_the_fetch(
    site: Scryfall, tmp_path: Path, data_dir: Path
) -> None:
    """A 429 after every wait: the fetch stops after two more tries (it must not power through),
    says so, and the stored text stays."""
    before = imported_before(tmp_path, data_dir)
    site.api.route(
        page_key(1),
        answer(
            error_object(429, "too_many_requests", "Slow down."), 429, headers={"Retry-After": "0"}
        ),
    )
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url)
    assert str(error.value) == (
        f"{site.api.host} kept answering HTTP 429 (too many requests), also after waiting as it asked. Wait a few "
        "minutes, then run aetherbox catalog fetch again: the pictures already downloaded are kept."
    )
    assert site.api.keys() == [page_key(1)] * 3
    assert store_snapshot(data_dir) == before


def test_hw3_a_long_retry_after_stops_at_once(site: Scryfall, data_dir: Path) -> None:
    """A server asking to wait an hour is not waited for with a progress bar standing still."""
    site.api.route(
        page_key(1),
        answer(
            error_object(429, "too_many_requests", "Later."), 429, headers={"Retry-After": "3600"}
        ),
    )
    waits: list[float] = []
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url, sleep=waits.append)
    assert error.value.key == "cardtext.fetch.rate_limited"
    assert waits == [] and len(site.api.hits) == 1


@pytest.mark.parametrize(
    ("status", "code", "details", "key"),
    [
        (
            404,
            "not_found",
            "Your query didn’t match any cards. Adjust your search terms or refer to the syntax guide.",
            "answered HTTP 404",
        ),
        (500, "internal_server_error", "Something went wrong on our end.", "answered HTTP 500"),
        (400, "bad_request", "All of your terms were ignored.", "answered HTTP 400"),
    ],
)
def test_hw3_scryfall_error_objects_are_quoted(
    site: Scryfall, tmp_path: Path, data_dir: Path, status: int, code: str, details: str, key: str
) -> None:
    """An error object's details are what the message says; the stored text stays."""
    before = imported_before(tmp_path, data_dir)
    site.api.route(page_key(2), answer(error_object(status, code, details), status))
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url)
    expected = f"{site.api.host} {key} for {site.api.url}/cards/search: {details}"
    if status >= 500:
        expected += ". Try again later: the pictures already downloaded are kept."
    assert str(error.value) == expected
    assert site.api.keys() == [
        page_key(1),
        page_key(2),
    ]  # a client's mistake or a 500 is not retried
    assert store_snapshot(data_dir) == before


def test_hw3_a_gateway_error_is_tried_again(site: Scryfall, data_dir: Path) -> None:
    """A 503 (the service or its gateway busy for a moment) is retried after a pause."""
    site.api.route(
        page_key(1), answer(error_object(503, "unavailable", "Busy."), 503), answer(site.pages()[0])
    )
    assert sorted(fetch(data_dir, api=site.api.url).cards) == KNOWN
    assert site.api.keys()[:2] == [page_key(1), page_key(1)]


def test_hw3_a_page_cut_off_in_the_middle_is_asked_again(site: Scryfall, data_dir: Path) -> None:
    """The connection drops after half of a page: the page is asked for again, and the fetch
    completes."""
    whole = answer(site.pages()[1])
    site.api.route(page_key(2), Raw(whole.body, cut=True), whole)
    report = fetch(data_dir, api=site.api.url)
    assert sorted(report.cards) == KNOWN
    assert site.api.keys() == [page_key(1), page_key(2), page_key(2), page_key(3)]


def test_hw3_a_page_that_keeps_dropping_stops_the_fetch(
    site: Scryfall, tmp_path: Path, data_dir: Path
) -> None:
    before = imported_before(tmp_path, data_dir)
    site.api.route(page_key(1), Raw(answer(site.pages()[0]).body, cut=True))
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url)
    message = str(error.value)
    assert message.startswith(
        f"the connection to {site.api.host} dropped while reading {site.api.url}/cards/search, "
        "and again on every retry ("
    )
    assert message.endswith(
        "). Run aetherbox catalog fetch again once the network is steady: it goes on where it stopped."
    )
    assert len(site.api.hits) == 1 + FAST.retries
    assert store_snapshot(data_dir) == before


def test_hw3_a_dropped_picture_resumes_where_it_stopped(
    site: Scryfall, tmp_path: Path, data_dir: Path
) -> None:
    """The connection drops in the middle of a picture, on every try: the fetch stops and the
    stored text stays.  Run again, it does not download the pictures it has whole, and asks for
    the cut-off one from where it stopped."""
    before = imported_before(tmp_path, data_dir)
    bant = site.pictures["Bant"]
    site.files.route(picture_key("Bant"), Picture(bant, cut=True))
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url)
    assert error.value.key == "cardtext.fetch.dropped"
    assert store_snapshot(data_dir) == before
    done = [
        "Academy at Tolaria West",
        "Agyrem",
        "Chaotic Aether",
    ]  # before Bant in the search's order
    assert site.files.keys() == [picture_key(name) for name in done] + [picture_key("Bant")] * (
        1 + FAST.retries
    )
    # each try asked for the rest and got half of it
    asked = [hit.headers.get("Range") for hit in site.files.hits if hit.key == picture_key("Bant")]
    assert asked[0] is None and all(
        value is not None and value.startswith("bytes=") for value in asked[1:]
    )

    site.files.route(picture_key("Bant"), Picture(bant))
    site.reset()
    report = fetch(data_dir, api=site.api.url)
    assert site.files.keys() == [
        picture_key(name) for name in ("Bant", "Accessories to Murder", "Applied Aeronautics")
    ]
    resumed_from = int(site.files.hits[0].headers["Range"].removeprefix("bytes=").rstrip("-"))
    assert 0 < resumed_from < len(bant)
    assert (report.downloaded, report.kept) == (3, 3)
    stored = rules_text("Bant", data_dir)
    assert (
        stored is not None and stored.image is not None and Path(stored.image).read_bytes() == bant
    )
    assert (
        rules_text("Tazeem", data_dir) is None
    )  # the fetch replaced the import, as an import does


def test_hw3_a_whole_picture_left_as_a_part_is_downloaded_again(
    site: Scryfall, data_dir: Path
) -> None:
    """A power cut after a picture's last byte but before it was moved into place: asked for what
    follows, the server says there is nothing (HTTP 416), and the picture is downloaded whole."""
    bant = site.pictures["Bant"]
    site.files.route(picture_key("Bant"), Picture(bant, cut=True))
    with pytest.raises(FetchError):
        fetch(data_dir, api=site.api.url)
    [part] = (data_dir / "cardtext" / "downloads" / "partial").glob("*.part")
    part.write_bytes(bant)
    site.files.route(picture_key("Bant"), Picture(bant))
    site.reset()
    fetch(data_dir, api=site.api.url)
    asked = [hit.headers.get("Range") for hit in site.files.hits if hit.key == picture_key("Bant")]
    assert asked == [f"bytes={len(bant)}-", None]
    stored = rules_text("Bant", data_dir)
    assert (
        stored is not None and stored.image is not None and Path(stored.image).read_bytes() == bant
    )


def test_hw3_an_interrupted_fetch_keeps_its_pictures(
    site: Scryfall, tmp_path: Path, data_dir: Path
) -> None:
    """Ctrl-C after two pictures: nothing is stored; the next fetch downloads the other four."""
    before = imported_before(tmp_path, data_dir)

    def stop(progress: Progress) -> None:
        if progress.images == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        fetch(data_dir, api=site.api.url, progress=stop)
    assert store_snapshot(data_dir) == before
    site.reset()
    report = fetch(data_dir, api=site.api.url)
    assert (report.downloaded, report.kept) == (4, 2) and len(site.files.hits) == 4


def test_hw3_a_second_fetch_with_everything_here_asks_only_for_the_search(
    site: Scryfall, data_dir: Path
) -> None:
    fetch(data_dir, api=site.api.url)
    site.reset()
    report = fetch(data_dir, api=site.api.url)
    assert site.api.keys() == [page_key(1), page_key(2), page_key(3)]
    assert site.files.hits == []
    assert (report.downloaded, report.kept, report.images) == (0, 6, 6)
    for name in KNOWN:
        stored = rules_text(name, data_dir)
        assert stored is not None and stored.image is not None
        assert Path(stored.image).read_bytes() == site.pictures[name]
    assert (
        len(list((data_dir / "cardtext").glob("images-*"))) == 1
    )  # the first fetch's folder is gone


def test_hw3_text_only(site: Scryfall, data_dir: Path) -> None:
    """--no-images: the text, no picture requests, no downloads folder."""
    report = fetch(data_dir, api=site.api.url, images=False)
    assert sorted(report.cards) == KNOWN and report.images == 0
    assert site.files.hits == []
    stored = rules_text("Bant", data_dir)
    assert stored is not None and stored.image is None
    assert not (data_dir / "cardtext" / "downloads").exists()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_hw3_a_server_that_cannot_be_reached_is_said_clearly(
    tmp_path: Path, data_dir: Path
) -> None:
    before = imported_before(tmp_path, data_dir)
    port = closed_port()
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=f"http://127.0.0.1:{port}")
    assert str(error.value) == (
        f"cannot reach 127.0.0.1:{port} (Connection refused): check the Pi's network, or download a card file "
        "and run: aetherbox catalog import FILE"
    )
    assert store_snapshot(data_dir) == before


def test_hw3_no_name_service_is_said_clearly(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No network at all: the name api.scryfall.com does not resolve (the lookup is made to fail
    here, so nothing leaves the machine)."""

    def no_dns(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api="https://api.scryfall.com")
    assert str(error.value) == (
        "cannot reach api.scryfall.com (Name or service not known): check the Pi's network, or download a card "
        "file and run: aetherbox catalog import FILE"
    )


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (
            b"<html><body>Rate limited</body></html>",
            "not JSON: Expecting value: line 1 column 1 (char 0)",
        ),
        (
            b'{"object": "list", "has_more": false, "data": [',
            "not JSON: Expecting value: line 1 column 48 (char 47)",
        ),
        (b'{"object": "card", "name": "Bant"}', "not a list of cards"),
        (
            b'{"object": "list", "has_more": true, "data": []}',
            "has_more without a next_page on {host}",
        ),
    ],
    ids=["html", "cut-short-json", "not-a-list", "no-next-page"],
)
def test_hw3_an_answer_that_is_not_card_data_is_refused(
    site: Scryfall, tmp_path: Path, data_dir: Path, body: bytes, reason: str
) -> None:
    before = imported_before(tmp_path, data_dir)
    site.api.route(page_key(1), Raw(body))
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url)
    assert str(error.value) == (
        f"{site.api.host} sent something that is not Scryfall's card data for {site.api.url}/cards/search "
        f"({reason.format(host=site.api.host)}). Try again later, or download a card file and run: "
        "aetherbox catalog import FILE"
    )
    assert store_snapshot(data_dir) == before


def test_hw3_a_next_page_on_another_host_is_refused(site: Scryfall, data_dir: Path) -> None:
    """The search's pages come from the API's host only (where the pacing applies)."""
    first = site.pages()[0]
    first["next_page"] = f"{site.files.url}/cards/search?page=2"
    site.api.route(page_key(1), answer(first))
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url)
    assert error.value.key == "cardtext.fetch.bad_data" and site.files.hits == []


def test_hw3_a_picture_that_is_not_a_picture_is_refused(
    site: Scryfall, tmp_path: Path, data_dir: Path
) -> None:
    before = imported_before(tmp_path, data_dir)
    site.files.route(picture_key("Agyrem"), Raw(b"<html>Not here</html>", kind="text/html"))
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url)
    assert str(error.value) == (
        f"the picture of 'Agyrem' from {site.files.url}/normal/front/agyrem.jpg?1562404626 is not a PNG or JPEG "
        "image (it starts with b'<html>No')."
    )
    assert store_snapshot(data_dir) == before
    assert not list((data_dir / "cardtext" / "downloads" / "partial").iterdir())


def test_hw3_a_picture_address_that_is_not_on_the_web_is_refused(
    site: Scryfall, data_dir: Path
) -> None:
    """A server cannot make the fetch copy a file of this machine into the data directory."""
    first = site.pages()[0]
    first["data"][0]["image_uris"]["normal"] = "file:///etc/passwd"
    site.api.route(page_key(1), answer(first))
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=site.api.url)
    assert str(error.value) == (
        f"{site.api.host} sent something that is not Scryfall's card data for file:///etc/passwd (an address that "
        "is not http or https). Try again later, or download a card file and run: aetherbox catalog import FILE"
    )
    assert not (data_dir / "cardtext" / "cards.json").exists()


def test_hw3_api_must_be_a_web_address(data_dir: Path) -> None:
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api="ftp://api.scryfall.com")
    assert str(error.value) == (
        "'ftp://api.scryfall.com' is not an http:// or https:// address: give --api the address of Scryfall's "
        "API, such as https://api.scryfall.com"
    )


# --- the progress bar -----------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_hw3_progress_on_a_terminal_is_one_line_rewritten() -> None:
    out = Terminal()
    bar = ProgressBar(out)
    bar(Progress(page=1, pages=2, cards=175))
    bar(Progress(page=2, pages=2, cards=250, images=125, total=250))
    bar.close()
    text = out.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n") and text.count("\n") == 1
    assert "\rScryfall: page 1/2, cards 175, pictures 0/0 [############------------]" in text
    assert "\rScryfall: page 2/2, cards 250, pictures 125/250 [############------------]" in text


def test_hw3_progress_elsewhere_is_a_line_now_and_then() -> None:
    out = io.StringIO()
    bar = ProgressBar(out)
    bar(Progress(page=1, pages=2, cards=175))
    bar(Progress(page=2, pages=2, cards=250))
    for done in range(251):
        bar(Progress(page=2, pages=2, cards=250, images=done, total=250))
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines[:3] == [
        "Scryfall: page 1/2, cards 175, pictures 0/0",
        "Scryfall: page 2/2, cards 250, pictures 0/0",
        "Scryfall: page 2/2, cards 250, pictures 25/250",
    ]
    assert len(lines) == 12 and lines[-1] == "Scryfall: page 2/2, cards 250, pictures 250/250"


# --- the command ----------------------------------------------------------------------------------


def test_hw3_catalog_fetch_command(site: Scryfall, capsys: pytest.CaptureFixture[str]) -> None:
    """`aetherbox catalog fetch --api URL` stores into the configured data directory and prints
    what an import prints, with the progress on standard error."""
    assert cli.main(["catalog", "fetch", "--api", site.api.url]) == 0
    captured = capsys.readouterr()
    missing = [card.name for card in load_catalog() if card.name not in KNOWN]
    assert captured.out.splitlines() == [
        f"Imported the rules text of 6 cards (3 planes, 1 phenomenon, 2 contraptions) from {site.api.host}.",
        "Stored 6 card images.",
        f"{len(missing)} cards the gadget knows were not found on {site.api.host}: {', '.join(missing[:5])} and "
        f"{len(missing) - 5} more.",
        "Downloaded 6 pictures; already here: 0.",
    ]
    progress = captured.err.splitlines()
    assert progress[0] == "Scryfall: page 1/3, cards 2, pictures 0/0"
    assert progress[-1] == "Scryfall: page 3/3, cards 6, pictures 6/6"
    assert rules_text("Bant") is not None  # the data directory the command used

    assert cli.main(["catalog", "fetch", "--api", site.api.url, "--quiet", "--no-images"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "Stored" not in captured.out and "Downloaded" not in captured.out


def test_hw3_catalog_fetch_command_errors(capsys: pytest.CaptureFixture[str]) -> None:
    port = closed_port()
    assert cli.main(["catalog", "fetch", "--api", f"http://127.0.0.1:{port}", "--quiet"]) == 1
    assert capsys.readouterr().err == (
        f"aetherbox: error: cannot reach 127.0.0.1:{port} (Connection refused): check the Pi's network, or "
        "download a card file and run: aetherbox catalog import FILE\n"
    )


def test_hw3_catalog_fetch_command_stopped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(scryfall, "fetch", interrupted)
    assert cli.main(["catalog", "fetch"]) == 130
    assert capsys.readouterr().err == (
        "Stopped. Run aetherbox catalog fetch again to go on: the pictures already downloaded are kept, and the "
        "card text is replaced only by a fetch that completes.\n"
    )
