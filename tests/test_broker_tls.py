"""The tables reach the event's broker in TLS: the certificates ``install.sh --broker`` makes
(run here into a temporary root), the shipped configuration in a real mosquitto and
``drivers.broker.MqttLink`` with paho's TLS.  A table that trusts the event's authority logs in
without its password on the wire; one given another authority, or none, is refused and says
what to do; the TLS port takes no plain MQTT, and the plain port is the loopback's alone."""

from __future__ import annotations

import copy
import queue
import socket
import subprocess
import time
from pathlib import Path

import pytest

from device.inputs import BrokerMessage, BrokerStatus, BrokerTrouble, InputEvent
from device.text import render
from drivers.broker import MqttLink
from mosquitto import MISSING, OPENSSL, SYSTEMD, Cable, Certificates, Mosquitto

pytestmark = pytest.mark.skipif(
    bool(MISSING) or OPENSSL is None,
    reason=MISSING or "openssl is not installed (Debian package 'openssl')",
)

LOGINS = {"organiser": "org-secret-4b1d", "table1": "table-secret-77c3"}
REPORT = "aetherbox/tables/table1/events/spring/1/1/1/g1"


def wait_for(
    inputs: queue.Queue[InputEvent], kind: type, timeout: float = 10.0
) -> list[InputEvent]:
    """What arrives until an input of ``kind`` has (or ``timeout`` seconds pass)."""
    found: list[InputEvent] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = inputs.get(timeout=0.1)
        except queue.Empty:
            continue
        found.append(item)
        if isinstance(item, kind) and (not isinstance(item, BrokerStatus) or item.connected):
            break
    return found


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return Certificates(tmp_path_factory.mktemp("organisers-pi"))


def test_install_makes_an_authority_and_a_certificate_for_the_pis_names(tmp_path: Path) -> None:
    """--broker: the event's authority (its key root's alone) and the broker's certificate for
    localhost, the Pi's name and NAME.local; run again, both are kept; with a new name only the
    broker's certificate is made again, so the tables keep the authority they were given."""
    made = Certificates(tmp_path, hostname="cupboard")
    ca_key = tmp_path / "etc/aetherbox/broker-ca.key"
    assert (
        ca_key.stat().st_mode & 0o777,
        made.key.stat().st_mode & 0o777,
        made.ca.stat().st_mode & 0o777,
    ) == (0o600, 0o640, 0o644)
    names = subprocess.run(
        ["openssl", "x509", "-in", str(made.certificate), "-noout", "-ext", "subjectAltName"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert names.split("\n", 1)[1].strip() == (
        "DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:cupboard, DNS:cupboard.local"
    )
    assert (
        subprocess.run(
            ["openssl", "verify", "-x509_strict", "-CAfile", str(made.ca), str(made.certificate)],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    assert (
        "make: the event's certificate authority /etc/aetherbox/broker-ca.crt (each table needs a copy)"
        in made.said
    )
    assert (tmp_path / "etc/tmpfiles.d/aetherbox-broker.conf").read_text(
        encoding="utf-8"
    ).splitlines()[-1] == ("z /etc/mosquitto/certs/aetherbox.key 0640 root mosquitto -")
    ca, certificate = made.ca.read_bytes(), made.certificate.read_bytes()
    again = Certificates(tmp_path, hostname="cupboard")
    assert "kept: the broker's certificate /etc/mosquitto/certs/aetherbox.crt" in again.said
    assert (made.ca.read_bytes(), made.certificate.read_bytes()) == (ca, certificate)
    renamed = Certificates(tmp_path, hostname="organiser")
    assert (
        "make: the broker's certificate /etc/mosquitto/certs/aetherbox.crt for DNS:localhost IP:127.0.0.1 "
        "IP:::1 DNS:organiser DNS:organiser.local" in renamed.said
    )
    assert made.ca.read_bytes() == ca and made.certificate.read_bytes() != certificate


def test_a_table_trusting_the_events_authority_logs_in_and_no_password_crosses_the_network(
    tmp_path: Path, certificates: Certificates
) -> None:
    """A table through the venue's network (a cable that records what it carries) to the TLS
    port: it connects, its report reaches the organiser (on the loopback's plain port), and
    neither its password nor its topics were on the wire.  The same table on the plain port
    would have shown both — which is why no other machine can reach that one."""
    broker = Mosquitto(tmp_path / "broker", LOGINS, tls=certificates)
    broker.start()
    tls_cable, plain_cable = Cable(broker.tls_port), Cable(broker.port)
    table_in: queue.Queue[InputEvent] = queue.Queue()
    organiser_in: queue.Queue[InputEvent] = queue.Queue()
    table = MqttLink(
        table_in, "127.0.0.1", tls_cable.port, "table1", LOGINS["table1"], ca=str(certificates.ca)
    )
    organiser = MqttLink(organiser_in, "localhost", broker.port, "organiser", LOGINS["organiser"])
    plain_in: queue.Queue[InputEvent] = queue.Queue()
    plain = MqttLink(plain_in, "127.0.0.1", plain_cable.port, "table1", LOGINS["table1"])
    try:
        organiser.start()
        assert isinstance(wait_for(organiser_in, BrokerStatus)[-1], BrokerStatus)
        table.start()
        said = wait_for(table_in, BrokerStatus)
        assert [s.connected for s in said if isinstance(s, BrokerStatus)] == [True], said
        table.publish(REPORT, b'{"table": "table1"}')
        heard = [m for m in wait_for(organiser_in, BrokerMessage) if isinstance(m, BrokerMessage)]
        deadline = time.monotonic() + 5
        while not any(m.topic == REPORT for m in heard) and time.monotonic() < deadline:
            heard += [
                m
                for m in wait_for(organiser_in, BrokerMessage, 1.0)
                if isinstance(m, BrokerMessage)
            ]
        assert any(m.topic == REPORT for m in heard)
        carried = bytes(tls_cable.carried)
        assert len(carried) > 1000  # the handshake and the session went through it
        assert LOGINS["table1"].encode() not in carried and b"aetherbox/tables" not in carried
        table.stop()
        plain.start()
        assert [
            s.connected for s in wait_for(plain_in, BrokerStatus) if isinstance(s, BrokerStatus)
        ] == [True]
        assert LOGINS["table1"].encode() in bytes(plain_cable.carried)
    finally:
        for each in (table, organiser, plain):
            each.stop()
        for cable in (tls_cable, plain_cable):
            cable.close()
        broker.stop()


def test_a_broker_another_authority_signed_is_refused_and_the_table_says_what_to_do(
    tmp_path: Path, certificates: Certificates
) -> None:
    """A table given another event's authority (or the broker a certificate from another Pi):
    the handshake fails, the table never sends its login, and says why and what to copy — at
    each try, not a silent loop."""
    other = Certificates(tmp_path / "another-pi")
    broker = Mosquitto(tmp_path / "broker", LOGINS, tls=certificates)
    broker.start()
    inputs: queue.Queue[InputEvent] = queue.Queue()
    table = MqttLink(
        inputs,
        "127.0.0.1",
        broker.tls_port,
        "table1",
        LOGINS["table1"],
        ca=str(other.ca),
        reconnect=0.2,
        reconnect_max=0.2,
    )
    try:
        table.start()
        said = wait_for(inputs, BrokerTrouble)
        troubles = [s for s in said if isinstance(s, BrokerTrouble)]
        assert troubles and not [s for s in said if isinstance(s, BrokerStatus) and s.connected]
        trouble = troubles[0]
        assert (trouble.key, trouble.broker, trouble.ca) == (
            "consp.net.ca_wrong",
            f"127.0.0.1:{broker.tls_port}",
            str(other.ca),
        )
        assert render(
            trouble.key, {"broker": trouble.broker, "ca": trouble.ca, "reason": trouble.reason}
        ) == (
            f"The broker at 127.0.0.1:{broker.tls_port} is not the event's, as {other.ca} knows it (unable to get "
            f"local issuer certificate): this table does not log in there. Copy /etc/aetherbox/broker-ca.crt from "
            f"the organiser's Pi to {other.ca} again (or, if that Pi's name or address changed, run its install.sh "
            "--broker again)."
        )
        again = wait_for(inputs, BrokerTrouble, timeout=5.0)
        assert [s for s in again if isinstance(s, BrokerTrouble)] == [
            trouble
        ]  # said again at the next try
    finally:
        table.stop()
        broker.stop()
    assert "table1" not in broker.log()  # it never logged in


def test_a_table_without_the_authority_says_where_to_copy_it_from_and_does_not_dial(
    tmp_path: Path,
) -> None:
    inputs: queue.Queue[InputEvent] = queue.Queue()
    missing = tmp_path / "broker-ca.crt"
    table = MqttLink(inputs, "organiser.local", 8883, "table1", "x", ca=str(missing))
    table.start()
    try:
        trouble = inputs.get(timeout=2)
        assert trouble == BrokerTrouble(
            "consp.net.ca_missing",
            "organiser.local:8883",
            str(missing),
            "No such file or directory",
        )
        assert render(
            trouble.key, {"broker": trouble.broker, "ca": trouble.ca, "reason": trouble.reason}
        ) == (
            f"This gadget cannot check the event's broker at organiser.local:8883: its certificate authority "
            f"{missing} cannot be read (No such file or directory). Copy /etc/aetherbox/broker-ca.crt from the "
            f"organiser's Pi to {missing} here, then restart this gadget."
        )
        missing.write_text("not a certificate\n", encoding="utf-8")
        MqttLink(inputs, "organiser.local", 8883, "table1", "x", ca=str(missing)).start()
        assert inputs.get(timeout=2).key == "consp.net.ca_missing"  # type: ignore[union-attr]
        assert inputs.empty()
    finally:
        table.stop()


def test_the_tls_port_takes_no_plain_mqtt_and_the_plain_port_is_the_loopbacks(
    tmp_path: Path, certificates: Certificates
) -> None:
    broker = Mosquitto(tmp_path / "broker", LOGINS, tls=certificates)
    broker.start()
    inputs: queue.Queue[InputEvent] = queue.Queue()
    table = MqttLink(inputs, "127.0.0.1", broker.tls_port, "table1", LOGINS["table1"])
    try:
        table.start()
        said = wait_for(inputs, BrokerStatus, timeout=2.0)
        assert not [s for s in said if isinstance(s, BrokerStatus) and s.connected]
    finally:
        table.stop()
        broker.stop()
    shipped = (SYSTEMD / "mosquitto-aetherbox.conf").read_text(encoding="utf-8")
    listeners = [line for line in shipped.splitlines() if line.startswith("listener ")]
    assert listeners == ["listener 8883", "listener 1883 127.0.0.1"]
    address = this_machines_address()
    if address is None:
        return  # no network here but the loopback: nothing else to reach the port from
    broker.start()
    try:
        with pytest.raises(OSError):
            socket.create_connection((address, broker.port), timeout=1).close()
    finally:
        broker.stop()


def this_machines_address() -> str | None:
    """An address of this machine other than the loopback's, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: the kernel only picks a route
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


def test_a_table_whose_clock_is_far_behind_still_trusts_the_events_broker(
    tmp_path: Path, certificates: Certificates
) -> None:
    """A Pi has no real-time clock; at a venue without internet it keeps the time it was
    switched off at. To such a table the broker's certificate, made today, is "not yet valid":
    it must still log in, the event's own authority being the trust, not the dates. (Here the
    broker's certificate starts in 2099: every table's clock is behind it.)"""
    key, request, future = tmp_path / "broker.key", tmp_path / "broker.csr", tmp_path / "broker.crt"
    (tmp_path / "index.txt").write_text("", encoding="utf-8")
    (tmp_path / "serial").write_text("01\n", encoding="utf-8")
    config = tmp_path / "ca.cnf"
    config.write_text(
        f"[ca]\ndefault_ca = event\n[event]\ndatabase = {tmp_path}/index.txt\nnew_certs_dir = {tmp_path}\n"
        f"serial = {tmp_path}/serial\ndefault_md = sha256\npolicy = any\ncopy_extensions = copy\n"
        "[any]\ncommonName = supplied\n",
        encoding="utf-8",
    )
    ca_key = certificates.ca.parent / "broker-ca.key"
    for args in (
        [
            "req",
            "-new",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-out",
            str(request),
        ],
        [
            "ca",
            "-batch",
            "-config",
            str(config),
            "-cert",
            str(certificates.ca),
            "-keyfile",
            str(ca_key),
            "-in",
            str(request),
            "-out",
            str(future),
            "-startdate",
            "20990101000000Z",
            "-enddate",
            "20991231000000Z",
        ],
    ):
        subprocess.run(["openssl", *args], capture_output=True, check=True)
    later = copy.copy(certificates)
    later.certificate, later.key = future, key
    broker = Mosquitto(tmp_path / "broker", LOGINS, tls=later)
    broker.start()
    inputs: queue.Queue[InputEvent] = queue.Queue()
    table = MqttLink(
        inputs, "127.0.0.1", broker.tls_port, "table1", LOGINS["table1"], ca=str(certificates.ca)
    )
    try:
        table.start()
        said = wait_for(inputs, BrokerStatus)
        assert [s.connected for s in said if isinstance(s, BrokerStatus)] == [True], said
    finally:
        table.stop()
        broker.stop()


def test_on_the_tls_port_too_a_client_id_is_its_login(
    tmp_path: Path, certificates: Certificates
) -> None:
    """use_username_as_clientid is a listener's own setting in mosquitto: said only after the
    plain listener, the tables' TLS connections kept the client ids they named, so another login
    naming a table's could take its session. Over TLS, table2 naming table1's client id leaves
    table1 connected, and a second gadget with table1's login takes its place."""
    logins = {**LOGINS, "table2": "table-secret-2"}
    broker = Mosquitto(tmp_path / "broker", logins, tls=certificates)
    broker.start()
    links: list[MqttLink] = []
    try:
        table1_in: queue.Queue[InputEvent] = queue.Queue()
        table1 = MqttLink(
            table1_in,
            "127.0.0.1",
            broker.tls_port,
            "table1",
            logins["table1"],
            ca=str(certificates.ca),
        )
        links.append(table1)
        table1.start()
        assert [
            s.connected for s in wait_for(table1_in, BrokerStatus) if isinstance(s, BrokerStatus)
        ] == [True]
        other_in: queue.Queue[InputEvent] = queue.Queue()
        other = MqttLink(
            other_in,
            "127.0.0.1",
            broker.tls_port,
            "table2",
            logins["table2"],
            ca=str(certificates.ca),
        )
        other.client._client_id = b"aetherbox-table1"  # noqa: SLF001 - a gadget naming table1's client id
        links.append(other)
        other.start()
        assert [
            s.connected for s in wait_for(other_in, BrokerStatus) if isinstance(s, BrokerStatus)
        ] == [True]
        assert not [
            s for s in wait_for(table1_in, BrokerStatus, 1.5) if isinstance(s, BrokerStatus)
        ]
        spare_in: queue.Queue[InputEvent] = queue.Queue()
        spare = MqttLink(
            spare_in,
            "127.0.0.1",
            broker.tls_port,
            "table1",
            logins["table1"],
            ca=str(certificates.ca),
        )
        spare.client._client_id = b"a-spare"  # noqa: SLF001 - whatever it names, its login decides
        links.append(spare)
        spare.start()
        assert [
            s.connected for s in wait_for(spare_in, BrokerStatus) if isinstance(s, BrokerStatus)
        ][:1] == [True]
        put_off = [s for s in wait_for(table1_in, BrokerStatus, 3.0) if isinstance(s, BrokerStatus)]
        assert put_off and not put_off[0].connected
    finally:
        for each in links:
            each.stop()
        broker.stop()
