"""Issue 32, item 8: an image built with ``install.sh --root DIR --broker N`` (or a table's
configuration naming a broker) never leaves the broker's password world-readable.

Under ``--root`` nothing of the running system may change, so the group is given by the number
the image's own ``/etc/group`` holds, and a tmpfiles.d line gives the file to the service's group
at every boot (an image whose group systemd-sysusers makes at its first boot has no number yet).
"""

from __future__ import annotations

import grp
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "systemd" / "install.sh"
CONFIG = "etc/aetherbox/config.toml"
TMPFILES = "etc/tmpfiles.d/aetherbox-config.conf"


def install(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_an_organisers_image_keeps_the_broker_password_from_other_users(tmp_path: Path) -> None:
    """The image's /etc/group has the service's group (here: the builder's own group, so chgrp
    works without root): the configuration holding the organiser's password is 0640 in that
    group, and the boot's tmpfiles line keeps it so."""
    gid = os.getgid()
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/group").write_text(f"root:x:0:\naetherbox:x:{gid}:\n", encoding="utf-8")
    done = install("--root", str(tmp_path), "--broker", "2", "--no-card-text")
    assert done.returncode == 0, done.stderr
    config = tmp_path / CONFIG
    assert 'password = "' in config.read_text(encoding="utf-8")
    info = config.stat()
    assert (oct(info.st_mode & 0o777), info.st_gid) == (oct(0o640), gid)
    assert (tmp_path / TMPFILES).read_text(encoding="utf-8").splitlines()[-1] == (
        "z /etc/aetherbox/config.toml 0640 root aetherbox -"
    )
    password = config.read_text(encoding="utf-8").split('password = "')[1].split('"')[0]
    assert len(password) >= 16 and password not in done.stdout


def test_an_image_whose_group_comes_at_first_boot_is_not_world_readable_meanwhile(
    tmp_path: Path,
) -> None:
    """No group in the image yet (systemd-sysusers makes it at the first boot): the file is 0640
    at once, the builder's alone, said, and the tmpfiles line hands it to the group at boot."""
    done = install("--root", str(tmp_path), "--broker", "1", "--no-card-text")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / CONFIG).stat().st_mode & 0o777 == 0o640
    assert "given to it at the first boot" in done.stdout
    assert (tmp_path / TMPFILES).exists()


def test_a_group_the_builder_may_not_give_is_said_and_the_file_still_closed(tmp_path: Path) -> None:
    if os.getuid() == 0:
        return  # root may give any group: nothing to refuse
    others = [g.gr_gid for g in grp.getgrall() if g.gr_gid not in os.getgroups()]
    assert others, "no group this user is not in"
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc/group").write_text(f"aetherbox:x:{others[0]}:\n", encoding="utf-8")
    done = install("--root", str(tmp_path), "--broker", "1", "--no-card-text")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / CONFIG).stat().st_mode & 0o777 == 0o640
    assert f"cannot give /etc/aetherbox/config.toml to group {others[0]} here" in done.stdout


def test_a_table_that_leaves_the_event_drops_the_boot_line(tmp_path: Path) -> None:
    config = tmp_path / CONFIG
    config.parent.mkdir(parents=True)
    config.write_text(
        '[event]\nbroker = "192.168.4.1"\ntable = "table2"\npassword = "x"\n', encoding="utf-8"
    )
    config.chmod(0o644)
    assert install("--root", str(tmp_path), "--no-card-text").returncode == 0
    assert config.stat().st_mode & 0o777 == 0o640 and (tmp_path / TMPFILES).exists()
    config.write_text('language = "pl"\n', encoding="utf-8")
    assert install("--root", str(tmp_path), "--no-card-text").returncode == 0
    assert not (tmp_path / TMPFILES).exists()
    assert install("--root", str(tmp_path), "--uninstall", "--purge").returncode == 0
