"""A table that cannot trust the event's broker (its certificate authority missing, or the broker's
certificate not signed by it) says so on its screen, in the table's language, and what to copy
where; it stays up until the link connects and something else is said."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path

from scenes import texts
from scenes_event import linked

from device.console import TABLES, Console
from device.console.reader import ReaderConsole
from device.controller import Controller
from device.inputs import BrokerStatus, BrokerTrouble
from device.journal import Journal
from display.kiosk import Kiosk

CA = "/etc/aetherbox/broker-ca.crt"


def test_a_broker_the_table_cannot_trust_is_said_on_its_status_line(
    make_kiosk: Callable[..., Kiosk],
) -> None:
    k = make_kiosk((800, 480), "en")
    linked(k)
    k.inputs.put(BrokerStatus(False, detail="connection lost"))
    k.inputs.put(
        BrokerTrouble(
            "consp.net.ca_wrong",
            "organiser.local:8883",
            CA,
            "unable to get local issuer certificate",
        )
    )
    k.settle()
    k.redraw()
    shown = " ".join(texts(k, "status.error"))
    assert shown.startswith(
        "The broker at organiser.local:8883 is not the event's, as /etc/aetherbox/broker-ca.crt"
    )
    k.inputs.put(BrokerStatus(True))  # connected after all (the authority copied again)
    k.settle()
    k.redraw()
    assert texts(k, "status.error") == []


def test_the_missing_authority_is_said_in_the_tables_language(
    make_kiosk: Callable[..., Kiosk],
) -> None:
    k = make_kiosk((800, 480), "pl")
    linked(k)
    k.inputs.put(
        BrokerTrouble(
            "consp.net.ca_missing", "organiser.local:8883", CA, "No such file or directory"
        )
    )
    k.settle()
    k.redraw()
    shown = " ".join(texts(k, "status.error"))
    assert CA in shown and "This gadget" not in shown


def test_the_console_says_a_broker_it_cannot_trust_once_until_it_connects(tmp_path: Path) -> None:
    """The link says it at each try; the console says it once, and again after a connection."""
    with Journal(tmp_path / "j.sqlite3") as journal:
        out = io.StringIO()
        console = ReaderConsole(Console(Controller(journal, rng=random.Random(1)), out, TABLES))
        trouble = BrokerTrouble(
            "consp.net.ca_wrong", "organiser.local:8883", CA, "certificate verify failed"
        )
        for event in (trouble, trouble, BrokerStatus(True), trouble):
            console.handle(event)
    said = out.getvalue().splitlines()
    assert len(said) == 2 and said[0] == said[1]
    assert said[0].startswith(
        "The broker at organiser.local:8883 is not the event's, as /etc/aetherbox/broker-ca.crt "
        "knows it (certificate verify failed)"
    )
