"""The players' page's data and the EVENT screen's QR code (CJ-1..CJ-5 as the phones see them).

The snapshot is made from a real fold of a real draw and real table reports (each built from a
table's game as its gadget's journal holds it), and the QR code is read back from the pixels the
kiosk drew under SDL's dummy driver."""

from __future__ import annotations

import json
from collections.abc import Callable

import pygame
import pytest
import segno

from display import qr
from display.i18n import Translator
from display.kiosk import Kiosk
from display.phone import snapshot, snapshots
from display.screens.event import EventInfo
from display.targets import OffscreenTarget
from drivers.page import chosen_language, page_url
from phone_event import WALL, event, info_of
from scenes import LANGUAGES, SIZES
from scenes_event import PAGE_URL, scene_event_phones


def test_cj3_the_snapshot_has_each_pods_standings_both_rounds_seatings_and_every_table() -> None:
    plan, view = event()
    data = snapshot(info_of(view), Translator("en"), WALL)
    json.dumps(data)  # all of it goes to a phone as JSON
    assert (data["title"], data["lang"], data["connected"], data["heading"]) == (
        "Spring",
        "en",
        True,
        "Spring",
    )
    assert [pod["title"] for pod in data["pods"]] == ["Pod 1: 9 players", "Pod 2: 8 players"]
    assert [row["name"] for pod in data["pods"] for row in pod["rows"]] == [
        r.name for r in view.rows()
    ]
    gone = next(row for row in data["pods"][0]["rows"] if row["detail"].endswith("left in round 1"))
    assert gone["name"] == next(a for a in plan.groups if a.table == "table2").players[1]
    # Round 1 as drawn, each group at its table in seating order; round 2 only for pod 2 so far.
    first, second = data["seatings"]
    assert first["title"] == "Round 1"
    assert [(g["table"], g["title"], tuple(g["players"])) for g in first["groups"]] == [
        (a.table, f"pod {a.pod}, group {a.group}", a.players)
        for a in sorted(plan.groups, key=lambda a: a.table)
    ]
    assert [g["over"] for g in first["groups"]] == [False, False, True, True]
    round2 = [a for a in view.groups if a.round == 2]
    assert second["title"] == "Round 2"
    assert [(g["table"], g["title"], tuple(g["players"])) for g in second["groups"]] == [
        ("table3", "pod 2, winners' group", round2[0].players),
        ("table4", "pod 2, losers' group", round2[1].players),
    ]
    # Each table: what it plays, online or not, and its round's seconds left (table2's clock
    # started 15 minutes ago in a 60-minute round; the others' clocks are not running).
    tables = {t["table"]: t for t in data["tables"]}
    assert tables["table1"]["text"].startswith("table1 (offline): pod 1, group 1, round 1: ")
    assert not tables["table1"]["online"] and tables["table2"]["online"]
    assert tables["table2"]["left"] == pytest.approx(45 * 60)
    assert tables["table3"]["text"].startswith("table3: pod 2, winners' group, round 2: ")
    assert [tables[t]["left"] for t in ("table1", "table3", "table4")] == [None, None, None]
    assert data["labels"]["clock"] == "{time} left" and data["labels"]["time_up"] == "Time is up"


@pytest.mark.parametrize("language", ["ru", "ja", "pl"])
def test_the_snapshot_is_in_the_language_asked_for(language: str) -> None:
    """Every word the page shows comes translated in the snapshot; none is left in English."""
    _, view = event()
    english = snapshot(info_of(view), Translator("en"), WALL)
    data = snapshots(info_of(view), WALL)(language)
    assert data["lang"] == language
    assert all(
        data["labels"][key] != english["labels"][key] for key in english["labels"] if key != "clock"
    )
    assert data["pods"][0]["title"] != english["pods"][0]["title"]
    assert data["seatings"][1]["groups"][0]["title"] != english["seatings"][1]["groups"][0]["title"]
    assert "{time}" in data["labels"]["clock"]


def test_before_the_draw_the_snapshot_says_what_the_gadget_waits_for() -> None:
    info = EventInfo(table="table2", broker="b:1883", connected=False, joined="Spring")
    data = snapshot(info, Translator("en"), WALL)
    assert (
        data["heading"] == "Spring: waiting for the organiser's draw · the broker is out of reach"
    )
    assert (data["pods"], data["seatings"], data["tables"]) == ([], [], [])


def test_a_phone_gets_the_language_it_asks_for_else_its_browsers_else_the_gadgets() -> None:
    four = ("en", "ru", "ja", "pl")
    assert chosen_language("ja", "pl", four, "en") == "ja"
    assert chosen_language(None, "de-DE,de;q=0.9,pl;q=0.8,ru;q=0.7", four, "en") == "pl"
    assert chosen_language(None, "ru;q=0.5, ja", four, "en") == "ja"
    assert chosen_language("xx", "de, fr;q=bad", four, "ru") == "ru"
    assert chosen_language(None, None, four, "pl") == "pl"


def test_the_pages_address_is_this_gadgets_toward_the_broker_else_its_local_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import socket

    assert (
        page_url(8080, "organiser.local", lambda broker: "192.168.4.7")
        == "http://192.168.4.7:8080/"
    )
    monkeypatch.setattr(socket, "gethostname", lambda: "organiser")
    assert page_url(8080, "localhost", lambda broker: None) == "http://organiser.local:8080/"


def test_the_local_address_is_found_without_sending_anything() -> None:
    """A UDP socket connected toward the loopback says the loopback: not an address for phones,
    so the default route's is taken, or none."""
    from drivers.page import local_address

    found = local_address("127.0.0.1")
    assert found is None or not found.startswith("127.")


# --- the QR code on the EVENT screen ---------------------------------------------------------


def read_code(
    surface: pygame.Surface, rect: tuple[int, int, int, int], count: int
) -> list[list[bool]]:
    """The modules in ``rect`` (the code with its quiet zone) read back from the pixels, each at
    its centre; every module of the quiet zone must be light."""
    x, y, w, _ = rect
    pixel = w / (count + 2 * qr.QUIET)
    cells = [
        [
            sum(surface.get_at((int(x + (c + 0.5) * pixel), int(y + (r + 0.5) * pixel)))[:3]) < 384
            for c in range(count + 2 * qr.QUIET)
        ]
        for r in range(count + 2 * qr.QUIET)
    ]
    quiet = (
        [row[: qr.QUIET] + row[-qr.QUIET :] for row in cells]
        + cells[: qr.QUIET]
        + cells[-qr.QUIET :]
    )
    assert not any(any(row) for row in quiet), "the quiet zone is not all light"
    return [row[qr.QUIET : -qr.QUIET] for row in cells[qr.QUIET : -qr.QUIET]]


@pytest.mark.parametrize("size", SIZES)
def test_the_event_screens_qr_code_opens_the_page(
    size: tuple[int, int], make_kiosk: Callable[..., Kiosk]
) -> None:
    """The code drawn on the phones' tab is the page's address, module for module, at every
    size; on a 480×320 panel (6.5 px/mm) it is at least 25 mm a side, quiet zone included."""
    kiosk = make_kiosk(size, "en")
    scene_event_phones(kiosk)
    kiosk.redraw()
    placed = [s for s in kiosk.canvas.shapes if s.role == "event.page.qr"]
    assert [s.name for s in placed] == [f"qr:{PAGE_URL.upper()}"]
    expected = [
        [bool(cell) for cell in row] for row in segno.make_qr(PAGE_URL.upper(), error="m").matrix
    ]
    assert read_code(kiosk.target.surface, placed[0].rect, len(expected)) == expected
    if size == (480, 320):
        assert placed[0].rect[2] >= 25 * 6.5
    from scenes import texts

    assert texts(kiosk, "event.page.url") == [f"Or open {PAGE_URL}"]


def test_the_phones_tab_is_there_only_where_the_page_is_served(
    make_kiosk: Callable[..., Kiosk],
) -> None:
    from scenes_event import scene_event_tables

    kiosk = make_kiosk((480, 320), "en")
    scene_event_tables(kiosk)
    kiosk.redraw()
    from scenes import texts

    assert "Phones" not in texts(kiosk, "event.tab.*")
    kiosk = make_kiosk((480, 320), "en")
    scene_event_phones(kiosk)
    kiosk.redraw()
    assert [t for t in texts(kiosk, "event.tab.*")] == ["Standings", "Tables", "Phones"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phones_tab_is_worded_in_the_tables_language(
    language: str, make_kiosk: Callable[..., Kiosk]
) -> None:
    """Nothing on the tab is cut at any size."""
    kiosk = make_kiosk(SIZES[0], language)
    scene_event_phones(kiosk)
    for size in SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        cut = [d.text for d in kiosk.canvas.drawn if d.role.startswith("event.page") and d.cut]
        assert not cut, f"{size}: {cut}"


def test_a_broker_by_name_is_not_looked_up_for_the_pages_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only numbers are connected toward (a UDP socket sends nothing); a name would need a lookup
    that sends queries and may keep start-up waiting."""
    import socket

    from drivers.page import local_address

    toward: list[object] = []

    class Recorded(socket.socket):
        def connect(self, address: object) -> None:
            toward.append(address)
            super().connect(address)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "socket", Recorded)
    local_address("organiser.local")
    local_address("10.1.2.3")
    assert toward[0] == ("192.0.2.1", 1883) and ("10.1.2.3", 1883) in toward
    assert all(host != "organiser.local" for host, _ in toward)  # type: ignore[misc]
