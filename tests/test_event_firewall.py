"""The firewall of a gadget at an event (``systemd/aetherbox-event-firewall.sh``, run by the
service's drop-in at each start): the broker's name looked up then, the service's addresses
narrowed to it for this boot (``systemctl set-property --runtime``), and nftables rules that let
the service's user open connections to the broker's port alone.  systemctl, the resolver and
``id`` are stand-ins on PATH that write down what they were asked; the rules go to the real
``nft -c`` (checked, not loaded) when nftables is installed."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "systemd" / "aetherbox-event-firewall.sh"


def _nft() -> str | None:
    """nft, when it is installed and may check rules here (it asks the kernel: root, or a
    namespace of one's own)."""
    found = shutil.which("nft") or (
        "/usr/sbin/nft" if os.access("/usr/sbin/nft", os.X_OK) else None
    )
    if found is None:
        return None
    probe = subprocess.run(
        [found, "-c", "-f", "-"],
        input="table inet probe\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=10,
    )
    return found if probe.returncode == 0 else None


NFT = _nft()
LAN = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "fc00::/7", "fe80::/10"]


def run(
    tmp_path: Path, *args: str, nft: bool = True
) -> tuple[subprocess.CompletedProcess[str], list[str], str]:
    """The script with stand-ins: what it said, systemctl's arguments, and the rules it gave nft."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    stand_ins = {
        "getent": '[ "$2" = organiser.local ] && printf "192.168.4.1     STREAM organiser.local\\n192.168.4.1 DGRAM\\n'
        'fd00::4 STREAM\\n"\n[ "$2" = organiser ] && printf "10.1.2.3 STREAM organiser\\n"\nexit 0',
        "systemctl": f'printf "%s\\n" "$@" > {tmp_path}/systemctl',
        "id": "echo 998",
        "nft": f"cat > {tmp_path}/ruleset" + (f" && {NFT} -c -f {tmp_path}/ruleset" if NFT else ""),
    }
    for name, body in stand_ins.items():
        if name == "nft" and not nft:
            continue
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    resolv = tmp_path / "resolv.conf"
    resolv.write_text("nameserver 192.168.4.254\n", encoding="utf-8")
    path = f"{bin_dir}:/usr/bin:/bin" if not nft else f"{bin_dir}:{os.environ['PATH']}"
    env = {
        **os.environ,
        "PATH": path,
        "AETHERBOX_RESOLV_CONF": str(resolv),
        "AETHERBOX_RESOLVE_TRIES": "1",
    }
    done = subprocess.run(
        ["bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=False,
    )
    calls = tmp_path / "systemctl"
    ruleset = tmp_path / "ruleset"
    return (
        done,
        calls.read_text(encoding="utf-8").splitlines() if calls.exists() else [],
        ruleset.read_text(encoding="utf-8") if ruleset.exists() else "",
    )


def test_cj1_a_brokers_name_is_looked_up_at_start_and_only_its_port_is_reached(
    tmp_path: Path,
) -> None:
    done, calls, rules = run(tmp_path, "organiser.local", "8883")
    assert done.returncode == 0, done.stderr
    assert calls == [
        "set-property",
        "--runtime",
        "aetherbox.service",
        "IPAddressAllow=",
        "IPAddressAllow=localhost",
        "IPAddressAllow=192.168.4.1",
        "IPAddressAllow=fd00::4",
    ]
    assert [
        line.strip()
        for line in rules.splitlines()
        if "daddr" in line or line.strip() in ("reject", "ct state established,related accept")
    ] == [
        "ct state established,related accept",
        "ip daddr { 192.168.4.1 } tcp dport 8883 accept",
        "ip6 daddr { fd00::4 } tcp dport 8883 accept",
        "reject",
    ]
    assert (
        "meta skuid != 998 accept" in rules
    )  # the service's user alone: the Pi's other programs are left be
    assert done.stdout.splitlines()[-1] == (
        "aetherbox event firewall: the service may open connections to 192.168.4.1, fd00::4 at port 8883 only"
    )


def test_cj1_a_name_outside_mdns_lets_the_name_servers_answer_and_a_page_lets_the_phones_in(
    tmp_path: Path,
) -> None:
    done, calls, rules = run(tmp_path, "organiser", "8883", "8080")
    assert done.returncode == 0, done.stderr
    assert calls[3:] == [
        "IPAddressAllow=",
        "IPAddressAllow=localhost",
        "IPAddressAllow=10.1.2.3",
        "IPAddressAllow=192.168.4.254",
        *[f"IPAddressAllow={net}" for net in LAN],
    ]
    assert "ip daddr { 192.168.4.254 } meta l4proto { tcp, udp } th dport 53 accept" in rules
    assert "ip daddr { 10.1.2.3 } tcp dport 8883 accept" in rules


def test_cj1_an_address_is_kept_as_the_drop_in_has_it_and_only_the_port_is_added(
    tmp_path: Path,
) -> None:
    done, calls, rules = run(tmp_path, "192.168.4.1", "8883")
    assert done.returncode == 0, done.stderr
    assert calls == []
    assert "ip daddr { 192.168.4.1 } tcp dport 8883 accept" in rules and "ip6" not in rules


def test_cj1_a_name_not_found_yet_falls_back_to_the_local_network_and_says_so(
    tmp_path: Path,
) -> None:
    done, calls, rules = run(tmp_path, "nowhere.local", "8883")
    assert done.returncode == 0, done.stderr
    assert calls[5:] == [f"IPAddressAllow={net}" for net in LAN]
    assert (
        "aetherbox event firewall: broker nowhere.local cannot be looked up yet: the local network is allowed "
        "instead (restart the service once it resolves)"
    ) in done.stdout.splitlines()
    assert (
        "ip daddr { 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16 } tcp dport 8883 accept"
        in rules
    )


def test_cj1_without_nftables_the_address_still_holds_and_the_port_is_said_not_to(
    tmp_path: Path,
) -> None:
    done, calls, _ = run(tmp_path, "organiser.local", "8883", nft=False)
    assert done.returncode == 0, done.stderr
    assert "IPAddressAllow=192.168.4.1" in calls
    assert done.stdout.splitlines()[-1] == (
        "aetherbox event firewall: nft is not installed (package nftables): the "
        "broker's port is not enforced, only its address"
    )


@pytest.mark.skipif(
    NFT is None,
    reason="nft is not installed (Debian package 'nftables'; .ci/run installs it under CI=true), "
    "or may not ask the kernel here (not root)",
)
def test_cj1_nft_takes_the_rules(tmp_path: Path) -> None:
    """The rules pass ``nft -c`` (the stand-in fails when it does not)."""
    done, _, rules = run(tmp_path, "organiser", "8883", "8080")
    assert done.returncode == 0, done.stderr
    assert rules.startswith("table inet aetherbox\ndelete table inet aetherbox\n")
