"""HW-5: the systemd unit, the udev rules and the install script for the Pi.

``systemd-analyze`` checks the unit as systemd would read it, and scores its hardening; the
install script runs against a temporary root, so everything it would put on a Pi is checked here
without touching this machine.
"""

from __future__ import annotations

import os
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
    text = UNIT.read_text(encoding="utf-8").replace(
        "/opt/aetherbox/venv/bin/aetherbox", sys.executable
    )
    copy = tmp_path / "aetherbox.service"
    copy.write_text(text, encoding="utf-8")
    return copy


@needs_analyze
def test_hw5_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    """HW-5: systemd reads the unit without a single complaint."""
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(_unit_for_this_machine(tmp_path))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")


@needs_analyze
def test_hw5_unit_exposure_is_at_most_1_5(tmp_path: Path) -> None:
    """HW-5: `systemd-analyze security --offline=true` rates the unit's exposure 1.5 or better."""
    result = subprocess.run(
        [
            "systemd-analyze",
            "security",
            "--offline=true",
            f"--threshold={int(EXPOSURE_LIMIT * 10)}",
            "--no-pager",
            str(_unit_for_this_machine(tmp_path)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    level = re.search(r"Overall exposure level for aetherbox\.service: (\d+\.\d)", result.stdout)
    assert level is not None, result.stdout + result.stderr
    assert float(level.group(1)) <= EXPOSURE_LIMIT
    assert result.returncode == 0


def test_hw5_unit_starts_the_kiosk_as_an_unprivileged_watched_service() -> None:
    """HW-5: boot to the kiosk, full-screen on tty1 (whatever the configuration says), as user aetherbox with only the groups it needs; notify
    with a watchdog; restart always; state in StateDirectory; logs to the journal."""
    unit = _settings()
    assert unit["ExecStart"] == ["/opt/aetherbox/venv/bin/aetherbox kiosk --fullscreen"]
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
    assert {
        "char-drm",
        "char-input",
        "char-gpiochip",
        "char-ttyUSB",
        "char-ttyACM",
        "char-ttyAMA",
    } <= allowed
    assert not any(re.match(r"^/dev/.*\d+:\d+|^\d", rule) for rule in allowed)  # no node numbers
    assert "char-fb" not in allowed  # only with a configured frame buffer (install.sh's drop-in)
    assert "ProcSubset" not in unit and "PrivateDevices" not in unit
    assert "Environment" in unit and "LG_WD=/run/aetherbox" in unit["Environment"]
    assert unit["WorkingDirectory"] == ["/run/aetherbox"]
    assert "RuntimeWatchdogSec=15s" in (SYSTEMD / "watchdog.conf").read_text(encoding="utf-8")


def test_hw2_udev_rules_name_every_known_reader_chip() -> None:
    """HW-2/HW-5: the udev rules give each USB-serial chip the reader driver knows a stable name
    (/dev/aetherbox-reader) and the dialout group; their labels and jumps match up."""
    text = RULES.read_text(encoding="utf-8")
    pairs = {
        (int(v, 16), int(p, 16))
        for v, p in re.findall(r'ATTRS\{idVendor\}=="(\w{4})", ATTRS\{idProduct\}=="(\w{4})"', text)
    }
    assert pairs == set(KNOWN_USB_IDS)
    assert set(re.findall(r'GOTO="(\w+)"', text)) == set(re.findall(r'LABEL="(\w+)"', text))
    assert 'SYMLINK+="aetherbox-reader", GROUP="dialout", MODE="0660"' in text
    assert "aetherbox.service" not in text  # the service never waits for a reader


def _install(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_hw5_install_script_is_valid_bash() -> None:
    """HW-5: `bash -n`, and shellcheck when it is installed."""
    assert (
        subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, check=False).returncode
        == 0
    )
    if shutil.which("shellcheck") is None:
        pytest.skip(
            "shellcheck is not installed (Debian package 'shellcheck'; .ci/run installs it under CI=true)"
        )
    result = subprocess.run(
        [
            "shellcheck",
            str(INSTALL),
            str(SYSTEMD / "aetherbox-wrapper.sh"),
            str(SYSTEMD / "aetherbox-event-firewall.sh"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout


INSTALLED = {
    "etc/aetherbox/config.toml",
    "etc/systemd/system/aetherbox.service",
    "etc/sysusers.d/aetherbox.conf",
    "etc/udev/rules.d/70-aetherbox-reader.rules",
    "etc/udev/rules.d/71-aetherbox-gpio.rules",
    "etc/systemd/system.conf.d/aetherbox-watchdog.conf",
    "opt/aetherbox/README.md",
    "usr/local/bin/aetherbox",
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
    assert 'data_dir = "/var/lib/aetherbox"' in (tmp_path / "etc/aetherbox/config.toml").read_text(
        encoding="utf-8"
    )
    said = first.stdout.splitlines()
    for step in (
        "would run: apt-get update",
        "would run: apt-get install -y --no-install-recommends python3-venv python3-pip "
        "libdrm2 libgbm1 libegl1 libgles2 libgl1-mesa-dri python3-lgpio",
        "would run: install -d -o aetherbox -g aetherbox -m 0750 /var/lib/aetherbox",
        "would run: python3 -m venv --system-site-packages /opt/aetherbox/venv",
        f"would run: /opt/aetherbox/venv/bin/pip install --upgrade {SYSTEMD.parent}",
        "would run: systemctl enable aetherbox.service",
    ):
        assert step in said
    # apt's lists are fresh before anything is installed, once.
    assert said.index("would run: apt-get update") < min(
        i for i, line in enumerate(said) if "apt-get install" in line
    )
    assert said.count("would run: apt-get update") == 1
    config = tmp_path / "etc/aetherbox/config.toml"
    config.write_text('language = "pl"\n', encoding="utf-8")
    second = _install("--root", str(tmp_path))
    assert second.returncode == 0
    assert "install:" not in second.stdout
    assert "kept: /etc/aetherbox/config.toml (yours to edit)" in second.stdout
    assert config.read_text(encoding="utf-8") == 'language = "pl"\n'


def test_hw5_install_fetches_the_card_text_once_through_the_wrapper(tmp_path: Path) -> None:
    """HW-5: the install, online anyway, fetches the card text and pictures as the service's
    user (the wrapper), after the wrapper and the configuration are in place; card text already
    there is kept; --no-card-text skips it and says the command for later."""
    said = _install("--root", str(tmp_path)).stdout.splitlines()
    fetch = "would run: /usr/local/bin/aetherbox catalog fetch"
    assert said.count(fetch) == 1
    assert said.index(fetch) > said.index("install: /usr/local/bin/aetherbox")
    assert said.index(fetch) < said.index("would run: systemctl enable aetherbox.service")
    cards = tmp_path / "var/lib/aetherbox/cardtext/cards.json"
    cards.parent.mkdir(parents=True)
    cards.write_text("{}", encoding="utf-8")
    again = _install("--root", str(tmp_path)).stdout.splitlines()
    assert fetch not in again
    assert (
        "kept: the card text in /var/lib/aetherbox/cardtext (to fetch it again: sudo aetherbox catalog fetch)"
        in again
    )
    cards.unlink()
    skipped = _install("--root", str(tmp_path), "--no-card-text").stdout.splitlines()
    assert fetch not in skipped
    assert (
        "skipped: the card text (--no-card-text); to fetch it later: sudo aetherbox catalog fetch"
        in skipped
    )


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
    # No running systemd under --root (nor in a chroot): disabled, not stopped.
    assert "would run: systemctl disable aetherbox.service" in result.stdout.splitlines()
    assert _files(tmp_path) == {
        "var/lib/aetherbox/games/aetherbox.sqlite3",
        "etc/aetherbox/config.toml",
        "etc/sysusers.d/aetherbox.conf",
    }
    purged = _install("--root", str(tmp_path), "--uninstall", "--purge")
    assert purged.returncode == 0
    assert _files(tmp_path) == set()
    assert "would run: userdel aetherbox" in purged.stdout


def test_hw5_install_refuses_bad_options(tmp_path: Path) -> None:
    """HW-5: mistakes are refused with the reason, before anything is done."""
    assert (
        _install("--purge", "--root", str(tmp_path)).stderr
        == "install.sh: error: --purge goes with --uninstall\n"
    )
    missing = _install("--root", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "no such directory" in missing.stderr


def test_hw5_install_brings_the_libraries_sdls_kms_driver_loads(tmp_path: Path) -> None:
    """HW-5: every library the kiosk's hint names (display.targets.KMS_LIBRARIES and Mesa's GPU
    driver) is in install.sh's apt-get install."""
    from display.targets import KMS_LIBRARIES, KMS_LIBRARY_CHECKS

    result = _install("--root", str(tmp_path))
    apt = next(line for line in result.stdout.splitlines() if "apt-get install" in line).split()
    assert {package for _, package in KMS_LIBRARIES} | {"libgl1-mesa-dri"} <= set(apt)
    assert "libgl1-mesa-dri" in KMS_LIBRARY_CHECKS


def test_hw5_missing_groups_are_created_and_said(tmp_path: Path) -> None:
    """HW-5: the unit's SupplementaryGroups must exist; those the image lacks (plain Debian has no
    'gpio') are created, each with a line saying so; present ones are left alone."""
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/group").write_text(
        "root:x:0:\ndialout:x:20:\nvideo:x:44:\ninput:x:101:\nrender:x:102:\n", encoding="utf-8"
    )
    result = _install("--root", str(tmp_path))
    assert result.returncode == 0, result.stderr
    said = result.stdout.splitlines()
    assert [line for line in said if "group" in line] == [
        "group 'gpio' is missing here (the service runs with it): creating it",
        "would run: groupadd --system gpio",
    ]
    groups = set(_settings()["SupplementaryGroups"][0].split())
    assert groups == {"video", "render", "input", "gpio", "dialout"}
    rule = (SYSTEMD / "71-aetherbox-gpio.rules").read_text(encoding="utf-8")
    assert 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rule


FB_DROPIN = "etc/systemd/system/aetherbox.service.d/framebuffer.conf"


def test_hw5_a_configured_frame_buffer_is_allowed_by_a_drop_in(tmp_path: Path) -> None:
    """HW-5: [display] fb in the configuration: install.sh lets the service open frame buffers
    (char-fb, whatever number the panel gets); without it, or once it is taken out, no drop-in."""
    assert _install("--root", str(tmp_path)).returncode == 0
    assert not (tmp_path / FB_DROPIN).exists()
    config = tmp_path / "etc/aetherbox/config.toml"
    assert '# fb = "/dev/fb1"' in config.read_text(encoding="utf-8")
    config.write_text(
        'data_dir = "/var/lib/aetherbox"\n[display]\nfb = "/dev/fb1"\n', encoding="utf-8"
    )
    with_fb = _install("--root", str(tmp_path))
    assert (
        "install: /etc/systemd/system/aetherbox.service.d/framebuffer.conf (frame buffer /dev/fb1)"
        in with_fb.stdout
    )
    assert (tmp_path / FB_DROPIN).read_text(encoding="utf-8") == (
        '# Written by install.sh: /etc/aetherbox/config.toml sets [display] fb = "/dev/fb1".\n'
        "[Service]\nDeviceAllow=char-fb rw\n"
    )
    again = _install("--root", str(tmp_path))
    assert "unchanged: /etc/systemd/system/aetherbox.service.d/framebuffer.conf" in again.stdout
    assert "install:" not in again.stdout
    config.write_text('language = "pl"\n', encoding="utf-8")
    without = _install("--root", str(tmp_path))
    assert "remove: /etc/systemd/system/aetherbox.service.d/framebuffer.conf" in without.stdout
    assert not (tmp_path / FB_DROPIN).parent.exists()
    assert _install("--root", str(tmp_path), "--uninstall", "--purge").returncode == 0


def test_hw5_an_unreadable_config_allows_no_frame_buffer_and_says_why(tmp_path: Path) -> None:
    config = tmp_path / "etc/aetherbox/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[display\nfb = "/dev/fb1"\n', encoding="utf-8")
    result = _install("--root", str(tmp_path))
    assert result.returncode == 0
    assert (
        "warning: /etc/aetherbox/config.toml cannot be read (tomllib.TOMLDecodeError: Expected ']' at the end of "
        "a table declaration (at line 1, column 9)): no frame buffer allowed"
    ) in result.stdout.splitlines()
    assert not (tmp_path / FB_DROPIN).exists()


@needs_analyze
def test_hw5_unit_with_the_frame_buffer_drop_in_passes_verify(tmp_path: Path) -> None:
    """HW-5: systemd reads the unit together with install.sh's drop-in without a complaint."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "etc/aetherbox").mkdir(parents=True)
    (root / "etc/aetherbox/config.toml").write_text(
        '[display]\nfb = "/dev/fb1"\n', encoding="utf-8"
    )
    assert _install("--root", str(root)).returncode == 0
    unit = _unit_for_this_machine(tmp_path)
    dropins = tmp_path / "aetherbox.service.d"
    dropins.mkdir()
    shutil.copy(root / FB_DROPIN, dropins / "framebuffer.conf")
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")


def test_hw5_outside_a_booted_system_the_service_is_enabled_not_started(tmp_path: Path) -> None:
    """HW-5: under --root (an image) or in a chroot, systemd is not running: the unit is enabled
    for the next boot, and nothing asks a running systemd or udev (they would fail there)."""
    result = _install("--root", str(tmp_path))
    said = result.stdout.splitlines()
    assert "would run: systemctl enable aetherbox.service" in said
    assert not [
        line for line in said if "restart" in line or "daemon-reload" in line or "udevadm" in line
    ]
    assert said[-3:] == [
        "note: systemd is not running here (a chroot or an image): the service is enabled and",
        "      starts at the next boot",
        "aetherbox is installed. Logs, once booted: journalctl -u aetherbox",
    ]


def _fake_dpkg(tmp_path: Path, arch: str) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    dpkg = bin_dir / "dpkg"
    dpkg.write_text(
        f'#!/bin/sh\n[ "$1" = --print-architecture ] && echo {arch}\n', encoding="utf-8"
    )
    dpkg.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}


def test_hw5_a_32_bit_os_is_refused_saying_a_64_bit_one_is_needed(tmp_path: Path) -> None:
    """HW-5: pygame-ce has no wheel for 32-bit ARM: on armhf install.sh stops before it installs
    anything, and says what to put on the card."""
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=_fake_dpkg(tmp_path, "armhf"),
    )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "install.sh: error: this is a 32-bit OS (armhf); aetherbox needs a 64-bit one (arm64):",
        "  pygame-ce, which draws the screen, has no wheel for 32-bit ARM. Put Raspberry Pi OS",
        "  Lite (64-bit) on the card (a Pi 3, 4, 5 or Zero 2 W runs it) and run this again.",
    ]


def test_hw5_a_64_bit_os_goes_ahead(tmp_path: Path) -> None:
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=_fake_dpkg(tmp_path, "arm64"),
    )
    assert result.returncode == 0, result.stderr
    assert "would run: apt-get update" in result.stdout.splitlines()


EVENT_DROPIN = "etc/systemd/system/aetherbox.service.d/event.conf"


def test_cj1_the_organisers_pi_gets_the_event_broker_and_a_login_for_each_table(
    tmp_path: Path,
) -> None:
    """--broker N: mosquitto with the shipped configuration and ACL, a login for the organiser and
    table1..tableN with their passwords in a file only root reads (never printed), this Pi's
    configuration joined to its own broker as the organiser, and the service let reach it; run
    again with more tables, the logins made before are kept and only the new ones added."""
    first = _install("--root", str(tmp_path), "--broker", "3")
    assert first.returncode == 0, first.stderr
    said = first.stdout.splitlines()
    assert any(
        line.startswith("would run: apt-get install")
        and line.split()[-4:] == ["mosquitto", "openssl", "nftables", "python3-lgpio"]
        for line in said
    )
    assert (tmp_path / "etc/mosquitto/conf.d/aetherbox.conf").read_bytes() == (
        SYSTEMD / "mosquitto-aetherbox.conf"
    ).read_bytes()
    assert (tmp_path / "etc/mosquitto/aetherbox.acl").read_bytes() == (
        SYSTEMD / "mosquitto-aetherbox.acl"
    ).read_bytes()
    logins_file = tmp_path / "etc/aetherbox/broker-logins.txt"
    assert logins_file.stat().st_mode & 0o777 == 0o600
    logins = dict(line.split() for line in logins_file.read_text(encoding="utf-8").splitlines()[1:])
    assert list(logins) == ["organiser", "table1", "table2", "table3"]
    assert all(len(password) == 16 and password not in first.stdout for password in logins.values())
    assert [line for line in said if line.startswith("login: ")] == [
        f"login: {name} (its password in /etc/aetherbox/broker-logins.txt)" for name in logins
    ]
    assert (
        "would run: mosquitto_passwd -b /etc/mosquitto/aetherbox.passwd LOGIN PASSWORD, for each login in "
        "/etc/aetherbox/broker-logins.txt" in said
    )
    assert "would run: systemctl enable mosquitto.service" in said
    config = (tmp_path / "etc/aetherbox/config.toml").read_text(encoding="utf-8")
    assert config.endswith(
        f'broker = "localhost"\ntable = "organiser"\npassword = "{logins["organiser"]}"\n'
    )
    assert (tmp_path / EVENT_DROPIN).read_text(encoding="utf-8").splitlines()[
        -1
    ] == "IPAddressAllow=localhost"
    again = _install("--root", str(tmp_path), "--broker", "4")
    assert [
        line for line in again.stdout.splitlines() if line.startswith(("login: ", "add: "))
    ] == ["login: table4 (its password in /etc/aetherbox/broker-logins.txt)"]
    kept = dict(line.split() for line in logins_file.read_text(encoding="utf-8").splitlines()[1:])
    assert {k: v for k, v in kept.items() if k != "table4"} == logins
    uninstalled = _install("--root", str(tmp_path), "--uninstall", "--purge")
    assert uninstalled.returncode == 0
    assert (
        not (tmp_path / "etc/mosquitto/conf.d/aetherbox.conf").exists() and not logins_file.exists()
    )


FIREWALL = "/usr/local/lib/aetherbox/event-firewall"
HEAD = "[Service]\nPrivateNetwork=no\nRestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6\n"
START = f"# The broker's address (a name looked up at each start) and port: see {FIREWALL}.\nExecStartPre=-+{FIREWALL}"
LAN = "10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 169.254.0.0/16 fc00::/7 fe80::/10"
PAGE = "# The players' page: the only port the service may listen on.\nSocketBindAllow=tcp:8080\nSocketBindDeny=any\n"


@pytest.mark.parametrize(
    ("event", "what", "rules"),
    [
        (
            'broker = "192.168.4.1"',
            "192.168.4.1, port 8883",
            f"{START} 192.168.4.1 8883\nIPAddressAllow=192.168.4.1\n",
        ),
        ('broker = "127.0.0.1"', "127.0.0.1, port 1883", "IPAddressAllow=localhost\n"),
        (
            'broker = "organiser.local"\nport = 18883',
            "organiser.local, port 18883",
            f"{START} organiser.local 18883\nIPAddressAllow=localhost\n",
        ),
        (
            'broker = "organiser.local"\npage_port = 8080',
            "organiser.local, port 8883, and the players' page at port 8080",
            f"{START} organiser.local 8883 8080\nIPAddressAllow=localhost {LAN}\n{PAGE}",
        ),
        (
            'broker = "localhost"\npage_port = 8080',
            "localhost, port 1883, and the players' page at port 8080",
            f"{START} localhost 1883 8080\nIPAddressAllow=localhost {LAN}\n{PAGE}",
        ),
    ],
)
def test_cj1_a_table_configured_for_an_event_may_reach_its_broker_and_nothing_more(
    tmp_path: Path, event: str, what: str, rules: str
) -> None:
    """[event] broker in the configuration: a drop-in lets the service (which has no network
    otherwise) reach the broker's address and port only — an address as given; a name looked up
    by event-firewall at each start, which narrows the service's addresses and holds the port;
    the loopback alone for a broker on this Pi.  page_port: the local network may also connect
    to that port, the only one the service may listen on.  Taken out, the drop-in goes."""
    config = tmp_path / "etc/aetherbox/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[event]\n{event}\ntable = "table2"\npassword = "x"\n', encoding="utf-8")
    result = _install("--root", str(tmp_path))
    assert (
        f"install: /etc/systemd/system/aetherbox.service.d/event.conf (the event's broker at {what})"
        in result.stdout
    )
    # It holds a password now: the service's group reads it, nobody else (tests/test_config_install.py).
    assert config.stat().st_mode & 0o777 == 0o640
    broker = event.split('"')[1]
    page = " and page_port = 8080" if "page_port" in event else ""
    assert (tmp_path / EVENT_DROPIN).read_text(encoding="utf-8") == (
        f'# Written by install.sh: /etc/aetherbox/config.toml sets [event] broker = "{broker}"{page}.\n{HEAD}{rules}'
    )
    assert ((tmp_path / FIREWALL.lstrip("/")).exists()) == ("ExecStartPre" in rules)
    if broker not in ("127.0.0.1", "localhost"):
        assert (
            "note: /etc/aetherbox/broker-ca.crt is missing: copy /etc/aetherbox/broker-ca.crt from the organiser's "
            'Pi there (README, "Events across tables")' in result.stdout
        )
    config.write_text('language = "pl"\n', encoding="utf-8")
    without = _install("--root", str(tmp_path))
    assert "remove: /etc/systemd/system/aetherbox.service.d/event.conf" in without.stdout
    assert (
        not (tmp_path / EVENT_DROPIN).parent.exists()
        and not (tmp_path / FIREWALL.lstrip("/")).exists()
    )


def test_cj1_a_page_port_that_is_no_port_is_said_and_not_let_in(tmp_path: Path) -> None:
    config = tmp_path / "etc/aetherbox/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(
        '[event]\nbroker = "localhost"\ntable = "organiser"\npage_port = 80800\n', encoding="utf-8"
    )
    result = _install("--root", str(tmp_path))
    assert (
        "warning: [event] page_port = 80800 is not a port (1 to 65535): the players' page is not let in"
        in result.stdout
    )
    assert (
        (tmp_path / EVENT_DROPIN)
        .read_text(encoding="utf-8")
        .endswith(f"{HEAD}IPAddressAllow=localhost\n")
    )


def test_cj1_a_tables_install_says_the_fingerprint_of_the_events_authority_it_has(
    tmp_path: Path,
) -> None:
    """The owner compares it with the one the organiser's install.sh --broker said."""
    if shutil.which("openssl") is None:
        pytest.skip(
            "openssl is not installed (Debian package 'openssl'; .ci/run installs it under CI=true)"
        )
    organiser = tmp_path / "organiser"
    organiser.mkdir()
    said = _install("--root", str(organiser), "--broker", "1", "--no-card-text").stdout
    fingerprint = next(
        line
        for line in said.splitlines()
        if line.startswith("the event's certificate authority, for")
    )
    fingerprint = fingerprint.rsplit("(", 1)[1]
    table = tmp_path / "table"
    (table / "etc/aetherbox").mkdir(parents=True)
    shutil.copy(organiser / "etc/aetherbox/broker-ca.crt", table / "etc/aetherbox/broker-ca.crt")
    (table / "etc/aetherbox/config.toml").write_text(
        '[event]\nbroker = "organiser.local"\ntable = "table1"\n', encoding="utf-8"
    )
    assert (
        f"the event's certificate authority: /etc/aetherbox/broker-ca.crt ({fingerprint}"
        in _install("--root", str(table), "--no-card-text").stdout.splitlines()
    )


def test_hw5_broker_takes_a_number_of_tables(tmp_path: Path) -> None:
    bad = _install("--root", str(tmp_path), "--broker=many")
    assert (bad.returncode, bad.stderr) == (
        1,
        "install.sh: error: --broker takes the number of tables, 1 to 64 (got 'many')\n",
    )


@needs_analyze
def test_hw5_unit_with_the_event_drop_in_passes_verify(tmp_path: Path) -> None:
    """HW-5: systemd reads the unit together with install.sh's network drop-in without a complaint."""
    root = tmp_path / "root"
    (root / "etc/aetherbox").mkdir(parents=True)
    (root / "etc/aetherbox/config.toml").write_text(
        '[event]\nbroker = "organiser.local"\ntable = "t1"\npage_port = 8080\n', encoding="utf-8"
    )
    assert _install("--root", str(root)).returncode == 0
    unit = _unit_for_this_machine(tmp_path)
    dropins = tmp_path / "aetherbox.service.d"
    dropins.mkdir()
    text = (root / EVENT_DROPIN).read_text(encoding="utf-8")
    assert f"ExecStartPre=-+{FIREWALL} " in text and "SocketBindAllow=tcp:8080" in text
    # verify checks that the program is there: the one install.sh put in the temporary root.
    (dropins / "event.conf").write_text(
        text.replace(FIREWALL, str(root / FIREWALL.lstrip("/"))), encoding="utf-8"
    )
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stderr) == (0, "")
