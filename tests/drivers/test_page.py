"""The players' page's server (``drivers.page.PageServer``, aiohttp on a thread of its own):
phones get the language they ask for, each snapshot says how old it is, a stream carries every
piece of news and nothing else, the server sleeps between them, and stopping it ends every
stream."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from drivers.page import PageServer

LANGUAGES = ("en", "ru", "ja", "pl")


@pytest.fixture
def server() -> Iterator[PageServer]:
    served = PageServer(0, host="127.0.0.1", language="pl", languages=LANGUAGES)
    served.start()
    yield served
    served.stop()


def get(server: PageServer, path: str, **headers: str) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers=headers)
    return json.load(urllib.request.urlopen(request, timeout=5))


def news(count: list[int]) -> Any:
    """A snapshot per language, counting how many were made."""

    def made(language: str) -> dict[str, Any]:
        count[0] += 1
        return {"lang": language, "made": count[0]}

    return made


def test_a_phone_gets_its_language_and_each_snapshot_is_made_once_per_news(
    server: PageServer,
) -> None:
    made = [0]
    server.show(news(made))
    assert get(server, "/snapshot")["lang"] == "pl"  # none asked for: the gadget's
    assert (
        get(server, "/snapshot", **{"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"})["lang"] == "ja"
    )
    assert get(server, "/snapshot?lang=ru", **{"Accept-Language": "ja"})["lang"] == "ru"
    assert (
        get(server, "/snapshot?lang=ru")["made"] == 3
    )  # Russian was made once, for the first phone
    server.show(news(made))
    assert get(server, "/snapshot?lang=ru")["made"] == 4


def test_a_snapshot_says_how_old_it_is(server: PageServer) -> None:
    server.show(news([0]))
    time.sleep(0.3)
    assert 0.3 <= get(server, "/snapshot")["age"] < 5


def test_before_any_news_the_page_is_told_there_is_nothing_yet(server: PageServer) -> None:
    assert get(server, "/snapshot?lang=en")["empty"] is True


def test_a_stream_carries_each_news_and_the_server_sleeps_between(server: PageServer) -> None:
    made = [0]
    server.show(news(made))
    streams = [
        urllib.request.urlopen(f"http://127.0.0.1:{server.port}/events?lang={lang}", timeout=5)
        for lang in LANGUAGES
    ]

    def next_data(stream: Any) -> Any:
        while not (line := stream.readline()).startswith(b"data: "):
            assert line, "the stream ended"
        return json.loads(line[6:])

    assert [next_data(s)["lang"] for s in streams] == list(LANGUAGES)
    # Four phones connected and no news: the process sleeps (a loop polling for news would not).
    cpu, wall = time.process_time(), time.monotonic()
    time.sleep(1.0)
    assert (time.process_time() - cpu) / (time.monotonic() - wall) < 0.05
    server.show(news(made))
    assert [next_data(s)["made"] for s in streams] == [5, 6, 7, 8]
    server.stop()
    assert [s.read().strip() for s in streams] == [b""] * 4  # every stream ends with the server
