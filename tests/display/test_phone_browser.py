"""The players' page in a real browser (Debian's chromium, headless): served by the same server
the gadget runs, it shows the standings, both rounds' seatings and every table with its round
clock counting down; a table's news reaches it while it stays open, without a reload; and
printed, it is a standings sheet and a seating sheet, black on white, without the live parts."""

from __future__ import annotations

import base64
import io
import re
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest

from browser import MISSING, chromium
from device.translations import LANGUAGES
from display.phone import snapshots
from drivers.page import PageServer
from phone_event import WALL, event, info_of, table2, table2_over

pytestmark = pytest.mark.skipif(bool(MISSING), reason=MISSING or "chromium is installed")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@pytest.fixture
def served() -> Iterator[PageServer]:
    server = PageServer(
        0, host="127.0.0.1", language="en", languages=LANGUAGES, url="http://127.0.0.1/"
    )
    server.start()
    _, view = event()
    server.show(snapshots(info_of(view), WALL))
    yield server
    server.stop()


def wait(driver: Any, script: str, timeout: float = 5.0) -> Any:
    """The first truthy value of ``script`` (JavaScript, returned) within ``timeout`` seconds."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(
        lambda d: d.execute_script(script)
    )


def texts(driver: Any, selector: str) -> list[str]:
    return list(
        driver.execute_script(
            f"return [...document.querySelectorAll({selector!r})].map(e => e.textContent.trim())"
        )
    )


def test_cj3_the_page_shows_the_event_and_follows_it_live(browser: Any, served: PageServer) -> None:
    browser.get(f"http://127.0.0.1:{served.port}/")
    wait(browser, "return document.querySelectorAll('#standings tbody tr').length == 17")
    plan, view = event()
    assert browser.title == "Spring"
    assert texts(browser, "#standings h3") == ["Pod 1: 9 players", "Pod 2: 8 players"]
    assert texts(browser, "#standings td.name") == [row.name for row in view.rows()]
    assert texts(browser, "#seatings h3") == ["Round 1", "Round 2"]
    groups = texts(browser, "#seatings .group h4")
    assert groups[:2] == ["table1pod 1, group 1", "table2pod 1, group 2"]
    assert groups[2:4] == ["table3pod 2, group 1over", "table4pod 2, group 2over"]
    assert texts(browser, "#seatings .group:nth-of-type(2) li") == list(table2(plan).players)
    tables = texts(browser, "#tables li")
    assert tables[0].startswith("table1 (offline): pod 1, group 1, round 1: ")
    # table2's round clock: started 15 minutes before the snapshot, in a 60-minute round.
    clock = texts(browser, "#tables li[data-table=table2] .clock")
    assert len(clock) == 1 and re.fullmatch(r"(45:00|44:5\d) left", clock[0]), clock
    # News: table2's group is over. The page shows it without being loaded again.
    browser.execute_script("window.stayed = true")
    _, later = event(table2_over)
    served.show(snapshots(info_of(later), WALL))
    wait(
        browser,
        "return document.querySelector('#tables li[data-table=table2]').textContent"
        " == 'table2: waits for round 2'",
    )
    assert texts(browser, "#seatings .group h4")[1] == "table2pod 1, group 2over"
    assert texts(browser, "#tables .clock") == []
    assert browser.execute_script("return window.stayed") is True
    assert texts(browser, "#status") == ["Live"]


def test_the_page_speaks_the_language_the_phone_asks_for(browser: Any, served: PageServer) -> None:
    browser.get(f"http://127.0.0.1:{served.port}/?lang=pl")
    wait(browser, "return document.documentElement.lang == 'pl'")
    assert texts(browser, "#standings h2")[0].startswith("Miejsca")
    assert texts(browser, "#seatings h3") == ["Runda 1", "Runda 2"]
    assert texts(browser, "#print") == ["Drukuj arkusze"]
    assert texts(browser, "#languages a.here") == ["Polski"]


def test_printed_the_page_is_a_standings_sheet_and_a_seating_sheet(
    browser: Any, served: PageServer
) -> None:
    from pypdf import PdfReader
    from selenium.webdriver.common.print_page_options import PrintOptions

    browser.get(f"http://127.0.0.1:{served.port}/")
    wait(browser, "return document.querySelectorAll('#seatings .group').length == 6")
    options = PrintOptions()
    options.page_width, options.page_height = 21.0, 29.7
    pdf = PdfReader(io.BytesIO(base64.b64decode(browser.print_page(options))))
    # NFKC: the PDF writes "fi" in "Zofia" as its ligature.
    pages = [unicodedata.normalize("NFKC", page.extract_text()) for page in pdf.pages]
    assert len(pages) >= 2
    standings = [n for n, text in enumerate(pages) if "Standings · Spring" in text]
    seatings = [n for n, text in enumerate(pages) if "Seatings · Spring" in text]
    assert standings == [0] and len(seatings) == 1 and seatings[0] > 0, pages
    sheet = "\n".join(pages[: seatings[0]])
    assert "Pod 1: 9 players" in sheet and "Pod 2: 8 players" in sheet and "Seatings" not in sheet
    _, view = event()
    assert [row.name for row in view.rows() if row.name not in sheet] == [], sheet
    seating = "\n".join(pages[seatings[0] :])
    assert "Round 1" in seating and "Round 2" in seating and "pod 2, winners' group" in seating
    # Nothing live on paper: no clocks, no tables' states, no buttons, no connection.
    everything = "\n".join(pages)
    for live in ("Tables", "waits for round 2", "Print the sheets", "Live", "English"):
        assert live not in everything, live
    assert not re.search(r"\d:\d\d left", everything)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        colours = browser.execute_script(
            "const b = getComputedStyle(document.body); const d = getComputedStyle(document.querySelector('td.detail'));"
            "return [b.color, b.backgroundColor, d.color]"
        )
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert colours == ["rgb(0, 0, 0)", "rgb(255, 255, 255)", "rgb(0, 0, 0)"]
