"""A real mosquitto for the tests and the benchmark: the shipped configuration and ACL
(``systemd/mosquitto-aetherbox.*``) on 127.0.0.1 at free ports, with a password file of its
own and a store in a temporary folder; and a cable between a gadget and it that can be cut.

Its plain listener is the shipped one on the loopback interface; its TLS listener is there
when it is given the certificates ``install.sh --broker`` makes (``certificates``, which runs
install.sh into a temporary root), else left out.

mosquitto comes from the Debian package ``mosquitto`` (``.ci/run`` installs it under CI=true);
without it the tests that need it are skipped, saying so.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

SYSTEMD = Path(__file__).resolve().parent.parent / "systemd"
OPENSSL = shutil.which("openssl")


def _program(name: str) -> str | None:
    return shutil.which(name) or next(
        (f"{d}/{name}" for d in ("/usr/sbin", "/usr/bin") if os.access(f"{d}/{name}", os.X_OK)),
        None,
    )


MOSQUITTO = _program("mosquitto")
PASSWD = _program("mosquitto_passwd")
MISSING = (
    "mosquitto is not installed (Debian package 'mosquitto'; .ci/run installs it under CI=true)"
    if MOSQUITTO is None or PASSWD is None
    else ""
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class Certificates:
    """What ``install.sh --broker`` makes for TLS, made by it into ``root`` (a Pi named
    ``hostname``): the event's authority (``ca``, which tables are given) and the broker's
    certificate and key."""

    def __init__(self, root: Path, hostname: str = "organiser") -> None:
        assert OPENSSL is not None, "openssl is not installed (Debian package 'openssl')"
        (root / "etc").mkdir(parents=True, exist_ok=True)
        (root / "etc/hostname").write_text(f"{hostname}\n", encoding="utf-8")
        done = subprocess.run(
            [
                "bash",
                str(SYSTEMD / "install.sh"),
                "--root",
                str(root),
                "--broker",
                "1",
                "--no-card-text",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        self.said = done.stdout
        self.ca = root / "etc/aetherbox/broker-ca.crt"
        self.certificate = root / "etc/mosquitto/certs/aetherbox.crt"
        self.key = root / "etc/mosquitto/certs/aetherbox.key"


class Mosquitto:
    """The broker as the organiser's Pi runs it, here: ``start``, ``stop`` (SIGTERM, as systemd
    stops it: the store is written) and ``restart`` keep one port and one store."""

    def __init__(
        self, folder: Path, logins: dict[str, str], tls: Certificates | None = None
    ) -> None:
        assert MOSQUITTO is not None and PASSWD is not None, MISSING
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.tls_port = free_port() if tls is not None else 0
        passwords = folder / "aetherbox.passwd"
        for index, (login, password) in enumerate(logins.items()):
            subprocess.run(
                [PASSWD, *(["-c"] if index == 0 else []), "-b", str(passwords), login, password],
                check=True,
                capture_output=True,
            )
        passwords.chmod(0o600)
        acl = folder / "aetherbox.acl"
        shutil.copy(SYSTEMD / "mosquitto-aetherbox.acl", acl)
        acl.chmod(0o600)
        text = (SYSTEMD / "mosquitto-aetherbox.conf").read_text(encoding="utf-8")
        assert "\nlistener 1883 127.0.0.1\n" in text and "\nlistener 8883\n" in text
        text = text.replace("listener 1883 127.0.0.1", f"listener {self.port} 127.0.0.1")
        if tls is None:
            text = re.sub(r"\nlistener 8883\ncertfile .*\nkeyfile .*\n", "\n", text)
        else:
            text = text.replace("listener 8883", f"listener {self.tls_port} 127.0.0.1")
            text = text.replace("/etc/mosquitto/certs/aetherbox.crt", str(tls.certificate))
            text = text.replace("/etc/mosquitto/certs/aetherbox.key", str(tls.key))
        text = text.replace("/etc/mosquitto/aetherbox.passwd", str(passwords)).replace(
            "/etc/mosquitto/aetherbox.acl", str(acl)
        )
        text += f"persistence_location {folder}/\nlog_dest file {folder}/mosquitto.log\n"
        if os.geteuid() == 0:
            text += "user root\n"  # as root it would switch to the user 'mosquitto', who cannot read the files here
        self.config = folder / "mosquitto.conf"
        self.config.write_text(text, encoding="utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert MOSQUITTO is not None
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)
        if self.tls_port:
            wait_for_port(self.tls_port)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=10)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


class Cable:
    """A TCP cable between one gadget and the broker: ``cut`` drops it (the gadget's network is
    gone: its connection breaks and new ones are refused), ``mend`` plugs it back in.
    ``carried`` is every byte it carried, either way: what someone on the network would see."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = int(self.server.getsockname()[1])
        self.open = True
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self.carried = bytearray()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, name="cable", daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                with self._lock:
                    self.carried += data
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        self.open = False
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for end in pair:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()

    def mend(self) -> None:
        self.open = True

    def close(self) -> None:
        self._closed = True
        self.cut()
        self.server.close()
