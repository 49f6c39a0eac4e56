"""HW-5: the systemd unit, the udev rules and the install script for the Pi.

``systemd-analyze`` checks the unit as systemd would read it, and scores its hardening; the
install script runs against a temporary root, so everything it would put on a Pi is checked here
without touching this machine.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from drivers.rfid.ports import KNOWN_USB_IDS

SYSTEMD = Path(__file__).resolve().parent.parent / "systemd"
UNIT = SYSTEMD / "aetherbox.service"
RULES = SYSTEMD / "70-aetherbox-reader.rules"
INSTALL = SYSTEMD / "install.sh"
EXPOSURE_LIMIT = 1.5

needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (Debian package 'systemd'; .ci/run installs it under CI=true)",
)


def _settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def _unit_for_this_machine(tmp_path: Path) -> Path:
    """The unit as shipped, except that ExecStart names a program that exists here (verify
    checks that it does; /opt/aetherbox exists only on an installed Pi)."""
    text = UNIT.read_text(encoding="utf-8").replace("/opt/aetherbox/venv/bin/aetherbox", sys.executable)
    copy = tmp_path / "aetherbox.service"
    copy.write_text(text, encoding="utf-8")
    return copy


@needs_analyze
def test_hw5_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    """HW-5: systemd reads the unit without a single complaint."""
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(_unit_for_this_machine(tmp_path))],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")


@needs_analyze
def test_hw5_unit_exposure_is_at_most_1_5(tmp_path: Path) -> None:
    """HW-5: `systemd-analyze security --offline=true` rates the unit's exposure 1.5 or better."""
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", f"--threshold={int(EXPOSURE_LIMIT * 10)}",
         "--no-pager", str(_unit_for_this_machine(tmp_path))],
        capture_output=True, text=True, timeout=60, check=False,
    )
    level = re.search(r"Overall exposure level for aetherbox\.service: (\d+\.\d)", result.stdout)
    assert level is not None, result.stdout + result.stderr
    assert float(level.group(1)) <= EXPOSURE_LIMIT
    assert result.returncode == 0


def test_hw5_unit_starts_the_kiosk_as_an_unprivileged_watched_service() -> None:
    """HW-5: boot to the kiosk on tty1 as user aetherbox with only the groups it needs; notify
    with a watchdog; restart always; state in StateDirectory; logs to the journal."""
    unit = _settings()
    assert unit["ExecStart"] == ["/opt/aetherbox/venv/bin/aetherbox kiosk"]
    assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"]
    assert unit["WatchdogSec"] == ["30"] and unit["Restart"] == ["always"]
    assert unit["User"] == ["aetherbox"]
    assert unit["SupplementaryGroups"] == ["video render input gpio dialout"]
    assert unit["StateDirectory"] == ["aetherbox"] and unit["RuntimeDirectory"] == ["aetherbox"]
    assert unit["TTYPath"] == ["/dev/tty1"] and unit["Conflicts"] == ["getty@tty1.service"]
    assert unit["StandardOutput"] == ["journal"] and unit["StandardError"] == ["journal"]
    assert unit["WantedBy"] == ["multi-user.target"]


def test_hw5_unit_hardening_leaves_what_the_hardware_needs() -> None:
    """HW-5: a closed device policy that still lets in DRM, input, the gpiochip and the serial
    ports, by device class; no network; /proc not hidden (lgpio reads the device tree there);
    lgpio's working directory writable under ProtectSystem=strict."""
    unit = _settings()
    assert unit["ProtectSystem"] == ["strict"] and unit["NoNewPrivileges"] == ["yes"]
    assert unit["PrivateNetwork"] == ["yes"] and unit["IPAddressDeny"] == ["any"]
    assert unit["DevicePolicy"] == ["closed"]
    allowed = {rule.split()[0] for rule in unit["DeviceAllow"]}
    assert {"char-drm", "char-input", "char-gpiochip", "char-ttyUSB", "char-ttyACM", "char-ttyAMA"} <= allowed
    assert not any(re.match(r"^/dev/.*\d+:\d+|^\d", rule) for rule in allowed)  # no node numbers
    assert "ProcSubset" not in unit and "PrivateDevices" not in unit
    assert "Environment" in unit and "LG_WD=/run/aetherbox" in unit["Environment"]
    assert unit["WorkingDirectory"] == ["/run/aetherbox"]
    assert "RuntimeWatchdogSec=15s" in (SYSTEMD / "watchdog.conf").read_text(encoding="utf-8")


def test_hw2_udev_rules_name_every_known_reader_chip() -> None:
    """HW-2/HW-5: the udev rules give each USB-serial chip the reader driver knows a stable name
    (/dev/aetherbox-reader) and the dialout group; their labels and jumps match up."""
    text = RULES.read_text(encoding="utf-8")
    pairs = {(int(v, 16), int(p, 16)) for v, p in re.findall(r'ATTRS\{idVendor\}=="(\w{4})", ATTRS\{idProduct\}=="(\w{4})"', text)}
    assert pairs == set(KNOWN_USB_IDS)
    assert set(re.findall(r'GOTO="(\w+)"', text)) == set(re.findall(r'LABEL="(\w+)"', text))
    assert 'SYMLINK+="aetherbox-reader", GROUP="dialout", MODE="0660"' in text
    assert "aetherbox.service" not in text  # the service never waits for a reader


def _install(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60, check=False)


def test_hw5_install_script_is_valid_bash() -> None:
    """HW-5: `bash -n`, and shellcheck when it is installed."""
    assert subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, check=False).returncode == 0
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (Debian package 'shellcheck'; .ci/run installs it under CI=true)")
    result = subprocess.run(
        ["shellcheck", str(INSTALL), str(SYSTEMD / "aetherbox-wrapper.sh")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout


INSTALLED = {
    "etc/aetherbox/config.toml", "etc/systemd/system/aetherbox.service", "etc/sysusers.d/aetherbox.conf",
    "etc/udev/rules.d/70-aetherbox-reader.rules", "etc/systemd/system.conf.d/aetherbox-watchdog.conf",
    "opt/aetherbox/README.md", "usr/local/bin/aetherbox",
}


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_hw5_install_into_a_root_is_complete_and_idempotent(tmp_path: Path) -> None:
    """HW-5: one run puts the unit, rules, config, watchdog drop-in and wrapper in place and says
    which system steps it would run; a second run changes nothing and keeps the user's config."""
    first = _install("--root", str(tmp_path))
    assert first.returncode == 0, first.stderr
    assert _files(tmp_path) == INSTALLED
    assert (tmp_path / "etc/systemd/system/aetherbox.service").read_bytes() == UNIT.read_bytes()
    assert (tmp_path / "usr/local/bin/aetherbox").stat().st_mode & 0o777 == 0o755
    assert 'data_dir = "/var/lib/aetherbox"' in (tmp_path / "etc/aetherbox/config.toml").read_text(encoding="utf-8")
    for step in (
        "would run: apt-get install -y --no-install-recommends python3-venv python3-lgpio python3-pip",
        "would run: python3 -m venv --system-site-packages /opt/aetherbox/venv",
        "would run: systemctl enable aetherbox.service",
    ):
        assert step in first.stdout.splitlines()
    config = tmp_path / "etc/aetherbox/config.toml"
    config.write_text('language = "pl"\n', encoding="utf-8")
    second = _install("--root", str(tmp_path))
    assert second.returncode == 0
    assert "install:" not in second.stdout
    assert "kept: /etc/aetherbox/config.toml (yours to edit)" in second.stdout
    assert config.read_text(encoding="utf-8") == 'language = "pl"\n'


def test_hw5_dry_run_touches_nothing(tmp_path: Path) -> None:
    """HW-5: --dry-run prints the plan and writes no file."""
    result = _install("--dry-run", "--root", str(tmp_path))
    assert result.returncode == 0
    assert _files(tmp_path) == set()
    assert "would run: install -D -m 0644" in result.stdout


def test_hw5_uninstall_keeps_saved_games_unless_purged(tmp_path: Path) -> None:
    """HW-5: --uninstall removes what install added but keeps the saved games and config;
    --purge removes those too."""
    assert _install("--root", str(tmp_path)).returncode == 0
    games = tmp_path / "var/lib/aetherbox/games/aetherbox.sqlite3"
    games.parent.mkdir(parents=True)
    games.write_bytes(b"saved")
    result = _install("--root", str(tmp_path), "--uninstall")
    assert result.returncode == 0
    assert _files(tmp_path) == {"var/lib/aetherbox/games/aetherbox.sqlite3", "etc/aetherbox/config.toml",
                                "etc/sysusers.d/aetherbox.conf"}
    purged = _install("--root", str(tmp_path), "--uninstall", "--purge")
    assert purged.returncode == 0
    assert _files(tmp_path) == set()
    assert "would run: userdel aetherbox" in purged.stdout


def test_hw5_install_refuses_bad_options(tmp_path: Path) -> None:
    """HW-5: mistakes are refused with the reason, before anything is done."""
    assert _install("--purge", "--root", str(tmp_path)).stderr == "install.sh: error: --purge goes with --uninstall\n"
    missing = _install("--root", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "no such directory" in missing.stderr
