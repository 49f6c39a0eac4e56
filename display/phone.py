"""The players' page: an event across tables as the phones at the venue see it.

``snapshot`` turns what the kiosk knows of the event (``EventInfo``, as the EVENT screen draws
it) into plain JSON-able data in one language: the standings, the seatings of both rounds, each
table's state and the seconds its round has left.  Every text in it is already translated here,
with the screen's own keys, so the page (``drivers/web``) holds no words of its own and shows
the language the phone asked for.  The page counts the round clocks down itself from ``left``,
so nothing needs to be sent while only time passes.

``Page`` is what the kiosk hands its news to (``drivers.page.PageServer``): ``snapshots``, the
snapshot as a function of a language, which the server works out on its own thread when a phone
asks, so the kiosk's thread only hands over a reference.  Everything it reads (``EventInfo``, the
fold in it) is never changed once made, so another thread may read it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from device.rules.conspiracy.play import group_title, nth
from device.translations import LANGUAGE_NAMES, LANGUAGES
from display.i18n import Translator
from display.screens.event import EventInfo, heading, in_group

if TYPE_CHECKING:
    from device.rules.conspiracy.tables import Assignment, EventView, Row as Standing, TableState

Snapshot = dict[str, Any]
#: A snapshot in the language it is given ("en", "ru", "ja", "pl").
Snapshots = Callable[[str], Snapshot]


class Page(Protocol):
    """Where the kiosk's news of the event goes: ``show`` returns at once, on the game's thread."""

    url: str

    def show(self, snapshots: Snapshots) -> None: ...


def snapshots(info: EventInfo, wall: float) -> Snapshots:
    """The snapshot of ``info`` at ``wall`` in whichever language it is asked for."""

    def made(language: str) -> Snapshot:
        return snapshot(info, Translator(language), wall)

    return made


def snapshot(info: EventInfo, tr: Translator, wall: float) -> Snapshot:
    """The event as the page shows it, in ``tr``'s language, its clocks as at ``wall``."""
    view = info.view
    data: Snapshot = {
        "lang": tr.language,
        "language_names": {code: LANGUAGE_NAMES[code] for code in LANGUAGES},
        "title": view.plan.event
        if view is not None
        else info.joined or tr("ui.consp.page.no_event"),
        "heading": heading(info, tr),
        "connected": info.connected,
        "labels": labels(tr),
        "pods": [],
        "seatings": [],
        "tables": [],
    }
    if view is None:
        return data
    data["pods"] = pods(view, tr)
    data["seatings"] = seatings(view, tr)
    data["tables"] = [_table(info, view, table, tr, wall) for table in view.tables()]
    return data


#: The page's own words, by the name the page's script looks them up with.
LABELS = {
    "standings": "ui.consp.event.tab.standings",
    "seatings": "ui.consp.page.seatings",
    "tables": "ui.consp.event.tab.tables",
    "place": "ui.consp.page.place",
    "player": "ui.consp.page.player",
    "groups": "ui.consp.page.groups",
    "live": "ui.consp.page.live",
    "lost": "ui.consp.page.lost",
    "print": "ui.consp.page.print",
    "over": "ui.consp.page.over",
    "time_up": "ui.clock_up",
    "nothing": "ui.consp.page.nothing",
}


def labels(tr: Translator) -> dict[str, str]:
    words = {name: tr(key) for name, key in LABELS.items()}
    # The clock's wording with a hole the page fills with the time as it counts ("{time} left").
    words["clock"] = tr("ui.clock", time="{time}")
    return words


def pods(view: EventView, tr: Translator) -> list[dict[str, Any]]:
    """Each pod's standings, places first (CJ-3), as the EVENT screen lists them."""
    by_pod: dict[int, list[Standing]] = {}
    for row in view.rows():
        by_pod.setdefault(row.pod, []).append(row)
    return [
        {
            "title": tr("ui.consp.event.pod", pod=pod, count=len(rows)),
            "rows": [_standing(r, tr) for r in rows],
        }
        for pod, rows in by_pod.items()
    ]


def _standing(row: Standing, tr: Translator) -> dict[str, Any]:
    detail = " → ".join(tr.message(group_title(g)) for g in row.groups)
    if row.left_round is not None:
        detail = tr("ui.consp.event.left", text=detail, round=row.left_round)
    if row.picks:
        detail = tr("ui.consp.event.picks", text=detail, picks=tr("ui.consp.picks", n=row.picks))
    place = tr.message(nth(row.place)) if row.place is not None else "–"
    return {"place": place, "placed": row.place is not None, "name": row.name, "detail": detail}


def seatings(view: EventView, tr: Translator) -> list[dict[str, Any]]:
    """Round 1's groups, then round 2's as each pod's are drawn: each with its table and its
    players in seating order (the first named goes first)."""
    rounds: list[dict[str, Any]] = []
    for number in (1, 2):
        groups = sorted(
            (a for a in view.groups if a.round == number), key=lambda a: (a.table, a.pod, a.group)
        )
        if groups:
            rounds.append(
                {
                    "title": tr("ui.consp.page.round", round=number),
                    "groups": [_seated(view, a, tr) for a in groups],
                }
            )
    return rounds


def _seated(view: EventView, group: Assignment, tr: Translator) -> dict[str, Any]:
    return {
        "table": group.table,
        "title": tr("ui.consp.page.group", pod=group.pod, group=tr.message(in_group(group.group))),
        "players": list(group.players),
        "over": view.done(group),
    }


def _table(
    info: EventInfo, view: EventView, table: TableState, tr: Translator, wall: float
) -> dict[str, Any]:
    online = info.is_online(table.table)
    name = table.table if online else tr("ui.consp.event.offline", table=table.table)
    playing = table.playing
    left = None
    if playing is not None:
        text = tr(
            "ui.consp.event.table_playing",
            table=name,
            pod=playing.pod,
            round=playing.round,
            group=tr.message(in_group(playing.group)),
            players=", ".join(playing.players),
        )
        left = view.time_left(playing, wall)
    else:
        text = tr(
            "ui.consp.event.table_waiting" if table.waiting else "ui.consp.event.table_done",
            table=name,
        )
    return {
        "table": table.table,
        "text": text,
        "online": online,
        "playing": playing is not None,
        "left": left,
    }
