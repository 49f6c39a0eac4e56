"""Issue 32, hostile card data and servers: `aetherbox catalog fetch` and `aetherbox catalog import`
refuse what a hostile or broken server or file sends, with a clear message, in bounded time, and
keep the stored card text as it was.

The fetch talks to local web servers (the stand-ins of tests/test_scryfall.py, plus a few that
misbehave on purpose): nesting bombs, numbers of absurd size, a server that sends a byte now and
then, redirects and picture addresses to other hosts.  The import reads fuzzed files.  The fuzz
counts default to what the suite can afford; ``AETHERBOX_HOSTILE_TRIALS`` raises them for a longer
run, ``AETHERBOX_HOSTILE_SEED`` draws other cases.
"""
# ruff: noqa: F811  (the fixtures of tests/test_scryfall.py are imported by name, and tests take them so)

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from device import scryfall
from device.cardtext import CardDataError, import_file, rules_text
from device.scryfall import FetchError, Policy, fetch
from display import cli
from tests.test_scryfall import (  # noqa: F401  (fixtures: pytest finds them by name here)
    CARDS,
    FAST,
    KNOWN,
    Answer,
    Raw,
    Scryfall,
    Site,
    _offline,
    answer,
    data_dir,
    imported_before,
    page_key,
    picture_key,
    site,
    store_snapshot,
)

TRIALS = int(os.environ.get("AETHERBOX_HOSTILE_TRIALS", "200"))
SEED = int(os.environ.get("AETHERBOX_HOSTILE_SEED", "32"))
#: Loose on purpose: every refusal here takes well under a second on a desktop.
SECONDS = 10
#: Deadlines short enough for the suite; the defaults are 120 s a request and an hour a fetch.
QUICK = Policy(spacing=0.0, rate_limit_wait=0.02, backoff=0.01, timeout=5.0, request_deadline=1.0)


def fails(
    data_dir: Path, api: str, policy: Policy = FAST, images: bool = True
) -> tuple[str, float]:
    """Fetch from ``api``: it must fail with a FetchError (not another exception).  Returns the
    message and the seconds it took."""
    started = time.monotonic()
    with pytest.raises(FetchError) as error:
        fetch(data_dir, api=api, policy=policy, images=images)
    return str(error.value), time.monotonic() - started


# --- servers that misbehave -------------------------------------------------------------------


@dataclass
class Dribble(Answer):
    """An answer sent one byte every ``every`` seconds, headers included when ``headers`` is set
    (a server, or a link, that keeps the connection alive without ever finishing)."""

    every: float = 0.1
    headers: bool = False
    longest: float = 20.0

    def send(self, handler: BaseHTTPRequestHandler) -> None:
        head = (
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n"
        )
        body = b'{"object": "list", "data": [' + b" " * 999_000
        stream = (head + body) if self.headers else body
        if not self.headers:
            handler.wfile.write(head)
        ends = time.monotonic() + self.longest
        try:
            for byte in stream:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                if time.monotonic() > ends:
                    break
                time.sleep(self.every)
        except OSError:  # the client hung up: what it should do
            pass
        handler.close_connection = True


@dataclass
class Late(Answer):
    """``then`` after ``delay`` seconds (a slow but working server)."""

    then: Answer
    delay: float

    def send(self, handler: BaseHTTPRequestHandler) -> None:
        time.sleep(self.delay)
        self.then.send(handler)


def redirect(location: str, status: int = 302) -> Raw:
    return Raw(b"", status, kind="text/plain", headers={"Location": location})


# --- nesting and numbers ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"[" * 100_000, "the data is nested more than 64 levels deep, which no card data is"),
        (b'{"a":' * 50_000, "the data is nested more than 64 levels deep, which no card data is"),
        (
            b'{"object": "list", "total_cards": 1' + b"0" * 400 + b', "data": []}',
            "a number of more than 40 digits, which no card data has",
        ),
        (
            b'{"object": "list", "data": [{"name": "Bant", "x": 1' + b"0" * 100_000 + b"}]}",
            "a number of more than 40 digits, which no card data has",
        ),
        (
            b'{"object": "list", "total_cards": 1e400, "data": []}',
            "a number too large for card data (1e400)",
        ),
        (b'{"object": "list", "total_cards": NaN, "data": []}', "NaN, which is not a JSON number"),
    ],
    ids=["array-bomb", "object-bomb", "total-10^400", "100000-digits", "1e400", "nan"],
)
def test_a_search_page_nested_too_deep_or_with_absurd_numbers_is_refused(
    site: Scryfall, data_dir: Path, tmp_path: Path, body: bytes, reason: str
) -> None:
    """`catalog fetch` answered with `[`×100,000, `{"a":`×50,000 or a number of hundreds of
    digits: a clear refusal naming what is wrong (not a RecursionError, OverflowError or
    ValueError), and the card text stored before is kept."""
    before = imported_before(tmp_path, data_dir)
    site.api.route(page_key(1), Raw(body))
    message, _ = fails(data_dir, site.api.url)
    assert message == (
        f"{site.api.host} sent something that is not Scryfall's card data for {site.api.url}/cards/search "
        f"({reason}). Try again later, or download a card file and run: aetherbox catalog import FILE"
    )
    assert store_snapshot(data_dir) == before
    assert site.files.hits == []


def test_an_absurd_total_that_is_still_a_short_number_does_not_stop_the_fetch(
    site: Scryfall, data_dir: Path
) -> None:
    """A `total_cards` of 10^39 only feeds the progress estimate: it is capped, the fetch goes on."""
    pages = site.pages()
    pages[0]["total_cards"] = 10**39
    site.api.route(page_key(1), answer(pages[0]))
    shown: list[scryfall.Progress] = []
    report = fetch(data_dir, api=site.api.url, policy=FAST, progress=shown.append)
    assert sorted(report.cards) == KNOWN
    assert max(p.pages or 0 for p in shown) == scryfall.MAX_PAGES


# --- slow servers -------------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [False, True], ids=["slow-body", "slow-headers"])
def test_a_server_sending_a_byte_now_and_then_is_cut_off_at_the_deadline(
    site: Scryfall, data_dir: Path, tmp_path: Path, headers: bool
) -> None:
    """A byte every 0.1 s never trips the per-read timeout (5 s here, 30 s by default): the
    request's own deadline (1 s here, 120 s by default) stops it, not retried, old text kept."""
    before = imported_before(tmp_path, data_dir)
    site.api.route(page_key(1), Dribble(headers=headers))
    message, took = fails(data_dir, site.api.url, QUICK)
    assert message == (
        f"{site.api.host} was too slow: {site.api.url}/cards/search had not arrived after 1 second. Try again "
        "later or on a faster network: the pictures already downloaded are kept, and the next fetch goes on "
        "where this one stopped."
    )
    assert 1.0 <= took < 1.0 + SECONDS / 2
    assert len(site.api.hits) == 1  # a deadline is not a dropped connection: no retry
    assert store_snapshot(data_dir) == before


def test_a_slow_picture_host_is_cut_off_too(site: Scryfall, data_dir: Path, tmp_path: Path) -> None:
    before = imported_before(tmp_path, data_dir)
    site.files.route(picture_key("Agyrem"), Dribble(every=0.05))
    message, took = fails(data_dir, site.api.url, QUICK)
    assert message.startswith(
        f"{site.files.host} was too slow: {site.files.url}{picture_key('Agyrem')} had not"
    )
    assert took < SECONDS
    assert store_snapshot(data_dir) == before


def test_the_whole_fetch_has_a_deadline_and_the_next_one_goes_on(
    site: Scryfall, data_dir: Path, tmp_path: Path
) -> None:
    """Each picture takes 0.3 s, within its request's deadline, but the fetch may take 1 s in
    all: it stops with a message, keeps what it downloaded, and the next fetch completes it."""
    before = imported_before(tmp_path, data_dir)
    for name, *_ in CARDS:
        site.files.routes[picture_key(name)] = [
            Late(answer, 0.3) for answer in site.files.routes[picture_key(name)]
        ]
    slow = Policy(spacing=0.0, timeout=5.0, request_deadline=5.0, fetch_deadline=1.0)
    message, took = fails(data_dir, site.api.url, slow)
    assert message == (
        "the fetch was stopped after 1 minute, longer than any fetch should take. Run aetherbox catalog fetch "
        "again to go on: the pictures already downloaded are kept."
    )
    assert took < 1.0 + SECONDS / 2
    assert store_snapshot(data_dir) == before
    downloads = data_dir / "cardtext" / "downloads"
    got = len([p for p in downloads.iterdir() if p.is_file()])
    assert 1 <= got < len(KNOWN)
    report = fetch(data_dir, api=site.api.url, policy=FAST)
    assert (report.kept, report.downloaded) == (got, len(KNOWN) - got)


# --- where the fetch goes ---------------------------------------------------------------------


def test_a_redirect_to_another_host_is_not_followed(
    site: Scryfall, data_dir: Path, tmp_path: Path
) -> None:
    """The API sends the search on to `localhost` (another name, so another host, here a server
    on this machine standing for one on the local network): refused, nothing asked of it."""
    before = imported_before(tmp_path, data_dir)
    elsewhere = Site(time.monotonic)
    try:
        target = f"http://localhost:{elsewhere.server.server_address[1]}/cards/search"
        site.api.route(page_key(1), redirect(target))
        message, _ = fails(data_dir, site.api.url)
        assert elsewhere.hits == []
    finally:
        elsewhere.close()
    assert message == (
        f"{site.api.host} sent {site.api.url}/cards/search on to {target}, another host. The fetch follows a "
        f"redirect only within the same host or to {site.api.host}: check the address given to --api."
    )
    assert store_snapshot(data_dir) == before


def test_a_picture_host_cannot_redirect_elsewhere(
    site: Scryfall, data_dir: Path, tmp_path: Path
) -> None:
    before = imported_before(tmp_path, data_dir)
    site.files.route(picture_key("Bant"), redirect("http://169.254.169.254/latest/meta-data/"))
    message, _ = fails(data_dir, site.api.url)
    assert message.startswith(
        f"{site.files.host} sent {site.files.url}{picture_key('Bant')} on to "
        "http://169.254.169.254/latest/meta-data/, another host."
    )
    assert store_snapshot(data_dir) == before


def test_a_redirect_within_the_same_host_is_followed(site: Scryfall, data_dir: Path) -> None:
    first = site.pages()[0]
    site.api.route("/v2/search", answer(first))
    site.api.route(page_key(1), redirect("/v2/search", 301))
    report = fetch(data_dir, api=site.api.url, policy=FAST)
    assert sorted(report.cards) == KNOWN
    assert site.api.keys()[:2] == [page_key(1), "/v2/search"]


@pytest.mark.parametrize(
    "address",
    [
        "http://localhost:{port}/normal/front/bant.jpg",
        "http://10.0.0.1/bant.jpg",
        "http://169.254.169.254/latest/meta-data/",
        "https://example.com/bant.jpg",
    ],
)
def test_a_picture_address_on_another_host_is_refused_before_anything_is_downloaded(
    site: Scryfall, data_dir: Path, tmp_path: Path, address: str
) -> None:
    """A picture is downloaded only from the API's own host or the hosts it is known to serve
    pictures from; a search page that names another is refused before any picture is asked for."""
    before = imported_before(tmp_path, data_dir)
    url = address.format(port=site.files.server.server_address[1])
    pages = site.pages()
    pages[2]["data"][0]["image_uris"]["normal"] = url  # Bant, on the last page
    site.api.route(page_key(3), answer(pages[2]))
    message, _ = fails(data_dir, site.api.url)
    assert message == (
        f"{site.api.host} gave {url} as the picture of 'Bant', but pictures are downloaded only from 127.0.0.1. "
        "Check the address given to --api, or run: aetherbox catalog fetch --no-images"
    )
    assert site.files.hits == []
    assert store_snapshot(data_dir) == before
    # The text alone does not need the pictures: it is fetched.
    assert sorted(fetch(data_dir, api=site.api.url, policy=FAST, images=False).cards) == KNOWN


def test_scryfalls_pictures_are_expected_on_its_file_hosts() -> None:
    client = scryfall.Client(scryfall.api_base("https://api.scryfall.com"))
    assert client.picture_allowed(
        "https://cards.scryfall.io/normal/front/6/d/6da045f8.jpg?1562404626"
    )
    assert client.picture_allowed("https://api.scryfall.com/cards/x.jpg")
    for elsewhere in (
        "https://scryfall.io.example.com/x.jpg",
        "https://evilscryfall.io/x.jpg",
        "http://192.168.1.1/x.jpg",
    ):
        assert not client.picture_allowed(elsewhere), elsewhere
    assert client.picture_hosts() == "api.scryfall.com, *.scryfall.io"


def test_a_name_that_leads_to_a_local_address_is_refused_unless_it_is_the_apis(
    site: Scryfall, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The configured API may be on this machine (it is here: `localhost`), but a picture host
    whose address turns out to be a loopback, private or link-local one is refused on the
    connected socket, whatever its name says: here the API is known to serve pictures from
    127.0.0.1, which is this machine and not the API's own host name."""
    before = imported_before(tmp_path, data_dir)
    api = f"http://localhost:{site.api.server.server_address[1]}"
    pages = site.pages()
    for page in pages:
        if "next_page" in page:
            page["next_page"] = page["next_page"].replace("127.0.0.1", "localhost")
    for number, page in enumerate(pages, start=1):
        site.api.route(page_key(number), answer(page))
    monkeypatch.setattr(scryfall, "PICTURE_HOSTS", {"localhost": ("127.0.0.1",)})
    message, _ = fails(data_dir, api)
    assert message == (
        "127.0.0.1 is at 127.0.0.1, an address on this machine or its local network, and only the API's own host "
        f"(localhost:{site.api.server.server_address[1]}) may be: the fetch does not go there. Check the address "
        "given to --api."
    )
    assert site.files.hits == [] and len(site.api.hits) == 3
    assert store_snapshot(data_dir) == before


def test_header_values_of_absurd_size_do_not_break_the_fetch(
    site: Scryfall, data_dir: Path
) -> None:
    """`Retry-After: ²` (a digit to str.isdigit, not to float) waits the default; a
    Content-Length of 5,000 digits is ignored; a Content-Range of 5,000 digits is a bad range."""
    waits: list[float] = []
    site.api.route(
        page_key(1), Raw(b"{}", 429, headers={"Retry-After": "\u00b2"}), answer(site.pages()[0])
    )
    site.files.route(picture_key("Bant"), Raw(site.pictures["Bant"], kind="image/jpeg"))
    original = Raw.send

    def huge_length(self: Raw, handler: BaseHTTPRequestHandler) -> None:
        if self.status == 200 and self.kind == "image/jpeg":
            handler.send_response(200)
            handler.send_header("Content-Length", "9" * 5000)
            handler.end_headers()
            handler.wfile.write(self.body)
            handler.close_connection = True
            return
        original(self, handler)

    Raw.send = huge_length  # type: ignore[method-assign]
    try:
        report = fetch(data_dir, api=site.api.url, policy=FAST, sleep=waits.append)
    finally:
        Raw.send = original  # type: ignore[method-assign]
    assert waits[0] == FAST.rate_limit_wait
    assert sorted(report.cards) == KNOWN


# --- fuzzed search pages ----------------------------------------------------------------------


def _mutate_json(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """``value`` with one part replaced by something of another type or absurd size."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        return {**value, key: _mutate_json(rng, value[key], depth + 1)}
    if isinstance(value, list) and value and rng.random() < 0.8:
        index = rng.randrange(len(value))
        return [*value[:index], _mutate_json(rng, value[index], depth + 1), *value[index + 1 :]]
    return rng.choice(
        [
            None,
            True,
            0,
            -1,
            10**30,
            1.5e300,
            "",
            "x" * 5000,
            "\u0000\ud7ff",
            [],
            {},
            [None],
            {"": {}},
            "http://10.0.0.1/",
            "file:///etc/passwd",
            "//localhost/x",
            "http://[::1]/x",
            "http://[bad/x",
            {"object": "error", "status": 10**20, "details": "d" * 10_000},
            list(range(50)),
        ]
    )


def _fuzzed_page(rng: random.Random, site: Scryfall) -> bytes:
    pages = site.pages()
    page = pages[rng.randrange(3)]
    kind = rng.randrange(6)
    if kind <= 2:
        text = json.dumps(_mutate_json(rng, page), ensure_ascii=rng.random() < 0.5)
    else:
        text = json.dumps(page)
    data = text.encode("utf-8", "surrogatepass")
    if kind == 3:  # bytes flipped
        raw = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        data = bytes(raw)
    elif kind == 4:  # cut short
        data = data[: rng.randrange(len(data))]
    elif kind == 5:  # something hostile spliced in
        at = rng.randrange(len(data))
        bomb = rng.choice(
            [
                b"[" * 5000,
                b'{"a":' * 2000,
                b"9" * 50_000,
                b"-1e99999",
                b"NaN",
                b"\xff\xfe",
                b'"\\ud800"',
            ]
        )
        data = data[:at] + bomb + data[at:]
    return data


def test_fuzzed_search_pages_give_a_clear_answer_and_no_traceback(
    site: Scryfall, data_dir: Path, tmp_path: Path
) -> None:
    """TRIALS search pages mutated at random (types, sizes, bytes, cuts, bombs), served as the
    first page: each fetch completes or fails with a FetchError, never another exception, and a
    failure leaves the stored text as it was."""
    rng = random.Random(SEED)
    before = imported_before(tmp_path, data_dir)
    tracebacks: list[str] = []
    outcomes = {"stored": 0, "refused": 0}
    for trial in range(TRIALS):
        site.api.route(page_key(1), Raw(_fuzzed_page(rng, site)))
        snapshot = store_snapshot(data_dir)
        try:
            fetch(data_dir, api=site.api.url, policy=FAST, images=trial % 8 == 0)
            outcomes["stored"] += 1
        except FetchError:
            outcomes["refused"] += 1
            assert store_snapshot(data_dir) == snapshot
        except Exception as error:  # noqa: BLE001  (what the test counts)
            tracebacks.append(f"trial {trial}: {type(error).__name__}: {str(error)[:200]}")
    assert tracebacks == []
    assert outcomes["refused"] > TRIALS // 4 and outcomes["stored"] > 0, outcomes
    assert before  # the import before the trials stored something to keep


# --- the import -----------------------------------------------------------------------------------


def _scryfall_file(rng: random.Random, folder: Path) -> list[dict[str, Any]]:
    cards = []
    for name, type_line, text, suffix in rng.sample(CARDS, rng.randint(1, len(CARDS))):
        picture = folder / f"{name}{suffix}"
        if not picture.exists():
            picture.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(200))
        cards.append(
            {
                "object": "card",
                "lang": rng.choice(["en", "en", "ja"]),
                "name": name,
                "type_line": type_line,
                "oracle_text": text,
                "image_uris": {"normal": picture.name},
            }
        )
    return cards


def _mtgjson_file(cards: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "meta": {"version": "5.2.2"},
        "data": {
            "OPCA": {
                "name": "Planechase Anthology",
                "cards": [
                    {
                        "name": c["name"],
                        "type": c["type_line"],
                        "text": c["oracle_text"],
                        "number": "1",
                    }
                    for c in cards
                ],
            }
        },
    }


def _hostile_value(rng: random.Random, folder: Path) -> Any:
    return rng.choice(
        [
            None,
            10**35,
            -0.0,
            "x" * 100_000,
            [[[[[]]]]],
            {"": None},
            "\u202e",
            "file://[::1",
            "file:///dev/zero",
            "a\u0000b",
            "../" * 30 + "etc/passwd",
            "/" + "d" * 5000,
            str(folder),
            "file://" + str(folder / "fifo"),
            "x/" * 3000 + "y.jpg",
            {"normal": "\u0000"},
            ["normal"],
        ]
    )


def _fuzzed_import(rng: random.Random, folder: Path) -> bytes:
    cards = _scryfall_file(rng, folder)
    document: Any = cards if rng.random() < 0.6 else _mtgjson_file(cards)
    if rng.random() < 0.5:
        document = _mutate_json(rng, document)
    if rng.random() < 0.3 and cards:  # a card's fields hostile
        card = rng.choice(cards)
        card[
            rng.choice(["name", "type_line", "oracle_text", "image_uris", "lang", "card_faces"])
        ] = _hostile_value(rng, folder)
        if rng.random() < 0.5:
            card["image_uris"] = {"normal": _hostile_value(rng, folder)}
    data = json.dumps(
        document, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1])
    ).encode("utf-8", "surrogatepass")
    kind = rng.randrange(8)
    if kind == 0:
        raw = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        data = bytes(raw)
    elif kind == 1:
        data = data[: rng.randrange(len(data) + 1)]
    elif kind == 2:
        at = rng.randrange(len(data))
        bomb = rng.choice(
            [
                b"[" * 100_000,
                b'{"a":' * 20_000,
                b"1" * 100_000,
                b"1e400",
                b"Infinity",
                b"\xc3\x28",
                b" " * 1000,
                b"\x00",
                b"]]]]",
                b'"\\ud800"',
            ]
        )
        data = data[:at] + bomb + data[at:]
    elif kind == 3:
        data = gzip.compress(data)
        if rng.random() < 0.5:
            data = data[: rng.randrange(len(data))]
    elif kind == 4:
        data = b"\xef\xbb\xbf" + data
    return data


def test_fuzzed_import_files_are_imported_or_refused_clearly(
    tmp_path: Path, data_dir: Path
) -> None:
    """TRIALS card files (Scryfall and MTGJSON shapes) mutated at random — types, sizes, flipped
    bytes, cuts, nesting and number bombs, invalid UTF-8, gzip cut short, picture paths that lead
    nowhere, out of the folder, to a FIFO or through a NUL — imported with and without pictures:
    each is stored or refused with a CardDataError, never another exception; a refusal keeps the
    stored text."""
    rng = random.Random(SEED + 1)
    folder = tmp_path / "files"
    folder.mkdir()
    os.mkfifo(folder / "fifo")
    tracebacks: list[str] = []
    outcomes = {"stored": 0, "refused": 0}
    for trial in range(TRIALS):
        source = folder / f"cards-{trial % 4}.json"
        source.write_bytes(_fuzzed_import(rng, folder))
        snapshot = store_snapshot(data_dir) if (data_dir / "cardtext").exists() else {}
        try:
            import_file(source, data_dir, images=trial % 2 == 0)
            outcomes["stored"] += 1
        except CardDataError:
            outcomes["refused"] += 1
            assert (store_snapshot(data_dir) if snapshot else {}) == snapshot
        except Exception as error:  # noqa: BLE001  (what the test counts)
            tracebacks.append(f"trial {trial}: {type(error).__name__}: {str(error)[:200]}")
    assert tracebacks == []
    assert outcomes["refused"] > TRIALS // 4 and outcomes["stored"] > TRIALS // 10, outcomes


def _good_file(tmp_path: Path) -> Path:
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps(
            [
                {
                    "object": "card",
                    "lang": "en",
                    "name": "Tazeem",
                    "type_line": "Plane — Zendikar",
                    "oracle_text": "Kept.",
                }
            ]
        ),
        encoding="utf-8",
    )
    return good


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str) -> str:
    """`aetherbox catalog import SOURCE` after a good import: exit 1 within SECONDS (checked from
    another thread, so a hang fails the test instead of stopping the suite), the text kept."""
    assert cli.main(["catalog", "import", str(_good_file(tmp_path))]) == 0
    capsys.readouterr()
    result: list[int] = []
    worker = threading.Thread(
        target=lambda: result.append(cli.main(["catalog", "import", source])), daemon=True
    )
    worker.start()
    worker.join(SECONDS)
    if worker.is_alive() and Path(source).is_fifo():
        os.close(os.open(source, os.O_WRONLY | os.O_NONBLOCK))  # let the hung reader go
        worker.join(SECONDS)
    assert result == [1]
    kept = rules_text("Tazeem")
    assert kept is not None and kept.text == "Kept."
    error = capsys.readouterr().err
    assert error.startswith("aetherbox: error: ") and error.count("\n") == 1
    return error.removeprefix("aetherbox: error: ").strip()


ADVICE = "Give the path of the file you downloaded (to import from a pipe, use: aetherbox catalog import - < FILE)."


def test_a_fifo_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "cards.json"
    os.mkfifo(fifo)
    assert (
        refused(tmp_path, capsys, str(fifo))
        == f"{fifo}: this is a FIFO (named pipe), not a card-data file. {ADVICE}"
    )


@pytest.mark.parametrize(("device", "what"), [("/dev/zero", "a device"), ("/dev/null", "a device")])
def test_a_device_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], device: str, what: str
) -> None:
    assert (
        refused(tmp_path, capsys, device)
        == f"{device}: this is {what}, not a card-data file. {ADVICE}"
    )


def test_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        refused(tmp_path, capsys, str(tmp_path))
        == f"{tmp_path}: this is a folder, not a card-data file. {ADVICE}"
    )


def test_a_card_file_with_a_100000_digit_number_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = tmp_path / "digits.json"
    hostile.write_bytes(
        b'[{"object": "card", "lang": "en", "name": "Tazeem", "multiverse_id": 1'
        + b"0" * 100_000
        + b"}]"
    )
    assert refused(tmp_path, capsys, str(hostile)) == (
        f"{hostile}: a number of more than 40 digits, which no card data has (at character 1). This is not a card "
        'file: download Scryfall\'s "Oracle Cards" file or an MTGJSON file again and import that.'
    )


def test_a_card_nested_past_the_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """65 levels inside a card: fewer than the interpreter's recursion guard, more than card data."""
    hostile = tmp_path / "deep.json"
    hostile.write_text('[{"name": "Tazeem", "x": ' + "[" * 64 + "]" * 64 + "}]", encoding="utf-8")
    assert refused(tmp_path, capsys, str(hostile)).startswith(
        f"{hostile}: the data is nested more than 64 levels deep, which no card data is (at character 88)."
    )


def test_a_pipe_on_standard_input_still_works(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a *named* file must be regular: `catalog import - < FILE` (or from a pipe) reads on."""
    read, write = os.pipe()
    os.write(write, _good_file(tmp_path).read_bytes())
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": pipe})())
        assert cli.main(["catalog", "import", "-"]) == 0
    kept = rules_text("Tazeem")
    assert kept is not None and kept.text == "Kept."


# --- through the real process ---------------------------------------------------------------------


def _aetherbox(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "AETHERBOX_DATA_DIR": str(tmp_path / "data"),
        "AETHERBOX_CONFIG": str(tmp_path / "none.toml"),
    }
    for name in (
        "http_proxy",
        "https_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "all_proxy",
        "ALL_PROXY",
    ):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "display.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_the_real_command_refuses_a_nesting_bomb_and_a_fifo_without_a_traceback(
    site: Scryfall, tmp_path: Path
) -> None:
    site.api.route(page_key(1), Raw(b"[" * 100_000))
    fetched = _aetherbox(tmp_path, "catalog", "fetch", "--quiet", "--api", site.api.url)
    assert fetched.returncode == 1
    assert fetched.stderr.startswith(
        f"aetherbox: error: {site.api.host} sent something that is not Scryfall's"
    )
    assert "Traceback" not in fetched.stderr and "nested more than 64 levels" in fetched.stderr
    fifo = tmp_path / "cards.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    imported = _aetherbox(tmp_path, "catalog", "import", str(fifo))
    assert time.monotonic() - started < SECONDS
    assert imported.returncode == 1 and "Traceback" not in imported.stderr
    assert (
        imported.stderr
        == f"aetherbox: error: {fifo}: this is a FIFO (named pipe), not a card-data file. {ADVICE}\n"
    )
    assert (
        urllib.parse.urlsplit(site.api.url).hostname == "127.0.0.1"
    )  # the configured API, on loopback, is allowed
