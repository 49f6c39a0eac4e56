"""Conspiracy events on the kiosk: the standings screen's English texts (``ui.consp.*``).  The
rules' messages (``consp.*``) are in ``device/rules/conspiracy/``; the translations in
``device/translations/locale/<language>/LC_MESSAGES/conspiracy.po`` (the touch-bar button, the help line
and the set-up's event rows in ``core.po`` with the others).
"""

from __future__ import annotations

from device.text import Plural, Text

TEXTS: dict[str, Text] = {
    "ui.btn.consp": "GROUPS",
    "ui.help.screen.conspiracy": "Conspiracy: groups and standings",
    "ui.consp.draft": "Group Game Draft",
    "ui.consp.pod": "Pod {pod}",
    "ui.consp.round": "Round {round}",
    "ui.consp.group_over": "{group} is over",
    "ui.consp.extra_turns": "extra turns",
    "ui.consp.clock_off": "clock not started ({minutes} min)",
    "ui.consp.options": "Options: {options}",
    "ui.consp.finished": "{group}: finished",
    "ui.consp.left_n": "out {n}",
    "ui.consp.standings": "Standings",
    "ui.consp.picks": "Rumble ×{n}",
    "ui.consp.group.winners.short": "Winners",
    "ui.consp.group.losers.short": "Losers",
}

# The round's controls and the event's pods (kiosk only; the rules' texts come from device.text).
TEXTS.update(
    {
        "ui.consp.pod_of": "Pod {pod} of {count}",
        "ui.consp.pod_title": Plural(
            "Pod {pod}: {count} player ({groups})", "Pod {pod}: {count} players ({groups})", "count"
        ),
        "ui.consp.show_pod": "Show pod {pod}",
        "ui.consp.do_pods": "All pods",
        "ui.consp.pods_hint": "Pick a pod to show its game: ↑/↓ and SELECT, or touch it.",
        "ui.consp.do_turn": "{name}'s turn",
        "ui.consp.do_out": "Out: {name}",
        "ui.consp.do_out_together": "Out together: {names}",
        "ui.consp.do_clock": "Start clock ({minutes} min)",
        "ui.consp.do_time": "Call time",
        "ui.consp.do_finish": "End extra turns: {group}",
        "ui.setup.event": "Event name",
        "ui.setup.event_default": "Conspiracy",
        "ui.setup.event_count": "{count} (pods: {pods})",
        "ui.setup.start_event": "Start the event",
    }
)
# Core messages that name a console command, as the screen words them.
TEXTS.update(
    {
        "consp.draft_turns": "A Group Game Draft is one table: pass the turn with NEXT.",
        "consp.table_turns": "This table plays one group of the event: pass the turn with NEXT.",
        "consp.net.no_online": "No table is connected to the broker: switch the tables' gadgets on first.",
        "consp.net.decide": "Event {event}, pod {pod}: round 1 was corrected after round 2 began; corrected, round 2 "
        "would be {groups}. Changed: {changed}. Redraw round 2 (only the changed groups start anew) or keep it, on the "
        "EVENT screen.",
        "consp.no_clock": "The clock is not running: start it on the GROUPS screen when the round begins.",
        "consp.not_pod": "This is not a Conspiracy pod: set up an event with NEW.",
    }
)
# An event played across tables: the EVENT screen (``display/screens/event.py``).
TEXTS.update(
    {
        "ui.btn.event": "EVENT",
        "ui.help.screen.event": "Event across tables: standings and tables",
        "ui.consp.event.tab.standings": "Standings",
        "ui.consp.event.tab.tables": "Tables",
        "ui.consp.event.tab.rulings": "Rulings",
        "ui.consp.event.pod": Plural(
            "Pod {pod}: {count} player", "Pod {pod}: {count} players", "count"
        ),
        "ui.consp.event.standing": "{place} {name} · {groups}",
        "ui.consp.event.left": "{text} · left in round {round}",
        "ui.consp.event.picks": "{text} · {picks}",
        "ui.consp.event.offline": "{table} (offline)",
        "ui.consp.event.table_playing": "{table}: pod {pod}, {group}, round {round}: {players}",
        "ui.consp.event.table_waiting": "{table}: waits for round 2",
        "ui.consp.event.table_done": "{table}: done",
        "ui.consp.event.not_joined": "This gadget is table {table} and is in no event yet",
        "ui.consp.event.waiting": "{event}: waiting for the organiser's draw",
        "ui.consp.event.this_table": "{table} plays pod {pod}, {group}, round {round}",
        "ui.consp.event.over": "final ranks",
        "ui.consp.event.no_broker": "the broker is out of reach",
        "ui.consp.event.none_offered": "No event at the broker gives this table a group yet: the organiser draws one "
        "on the set-up screen of the organiser's gadget.",
        "ui.consp.event.join": "Join {event}",
        "ui.consp.event.corrected": "Pod {pod}: round 1 was corrected after round 2 began; round 2 goes on as drawn "
        "until the organiser decides",
        "ui.consp.event.decide": "Pod {pod}: round 1 was corrected after round 2 began. Corrected, round 2 would be "
        "{groups}. Changed: {changed}.",
        "ui.consp.event.not_counted": "Pod {pod}, {group}: this gadget's account does not count; gadget {gadget}'s does",
        "ui.consp.event.move": "Pod {pod}, {group} → {table}",
        "ui.consp.event.count": "{table}: count {gadget}",
        "ui.consp.event.count_furthest": "{table}: the furthest counts",
        "ui.consp.event.gadgets": "{text} · gadgets {gadgets}, counted: {counts}",
        "ui.consp.event.furthest": "the furthest",
        "ui.consp.event.at_table": "{group} at {table}",
        "ui.consp.event.redraw": "Redraw round 2",
        "ui.consp.event.redraw_short": "Redraw",
        "ui.consp.event.keep": "Keep round 2",
        "ui.consp.event.keep_short": "Keep",
        "ui.consp.event.start_clock": "Start round {round}'s clock at every table",
        "ui.consp.event.start_clock_short": "Start round {round}'s clock",
        "ui.consp.event.tab.phones": "Phones",
        "ui.consp.page.scan": "Players can follow the event on their phones: standings, seatings and each table's "
        "clock. Scan the code with the phone's camera, on the venue's network.",
        "ui.consp.page.address": "Or open {url}",
        "ui.consp.page.off": "The players' page cannot be served on port {port}: {reason}.",
        "ui.consp.page.seatings": "Seatings",
        "ui.consp.page.round": "Round {round}",
        "ui.consp.page.group": "pod {pod}, {group}",
        "ui.consp.page.place": "Place",
        "ui.consp.page.player": "Player",
        "ui.consp.page.groups": "Groups",
        "ui.consp.page.live": "Live",
        "ui.consp.page.lost": "The gadget is out of reach: trying again…",
        "ui.consp.page.print": "Print the sheets",
        "ui.consp.page.over": "over",
        "ui.consp.page.nothing": "Nothing to show yet: the event has not been drawn.",
        "ui.consp.page.no_event": "No event yet",
        "ui.setup.where": "Played at",
        "ui.setup.where.tables": "the tables at the broker",
        "ui.setup.where.here": "this gadget",
    }
)
