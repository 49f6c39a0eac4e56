"""``aetherbox firmware upload``: mpremote copies the bridge firmware to a Pico found by USB id."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from display import cli
from drivers.rfid.ports import PortInfo
from firmware_tools import upload
from firmware_tools.bridge import FILES

FIRMWARE = Path(upload.__file__).parent / "bridge"


def fake_mpremote(folder: Path, status: int = 0) -> Path:
    """An ``mpremote`` that records its arguments, one JSON list per line, and exits ``status``."""
    folder.mkdir(exist_ok=True)
    log = folder / "calls.jsonl"
    script = folder / "mpremote"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"with open({str(log)!r}, 'a') as f: f.write(json.dumps(sys.argv[1:]) + '\\n')\n"
        f"sys.exit({status})\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return log


def calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def pico_on(monkeypatch: pytest.MonkeyPatch, device: str | None) -> None:
    ports = [PortInfo("/dev/ttyUSB0", 0x1A86, 0x7523)]
    if device is not None:
        ports.append(PortInfo(device, 0x2E8A, 0x0005))
    monkeypatch.setattr(upload, "system_ports", lambda: ports)


def test_upload_copies_the_firmware_main_last_then_resets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = fake_mpremote(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    pico_on(monkeypatch, "/dev/ttyACM0")
    assert cli.main(["firmware", "upload"]) == 0
    files = [str(FIRMWARE / name) for name in FILES]
    assert calls(log) == [
        ["connect", "/dev/ttyACM0", "fs", "cp", *files, ":"],
        ["connect", "/dev/ttyACM0", "reset"],
    ]
    assert files[-1].endswith("main.py")
    assert capsys.readouterr().out.splitlines()[-1] == (
        "Bridge firmware installed on /dev/ttyACM0. The Pico restarts and says hello; check it with: "
        "aetherbox reader monitor --port /dev/ttyACM0"
    )


def test_upload_dry_run_prints_the_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = fake_mpremote(tmp_path / "bin")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert upload.main(["--port", "/dev/ttyACM3", "--dry-run"]) == 0
    files = " ".join(str(FIRMWARE / name) for name in FILES)
    mpremote = tmp_path / "bin" / "mpremote"
    assert capsys.readouterr().out.splitlines() == [
        f"{mpremote} connect /dev/ttyACM3 fs cp {files} :",
        f"{mpremote} connect /dev/ttyACM3 reset",
    ]
    assert not log.exists()


def test_dry_run_without_mpremote_or_pico_still_shows_the_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    pico_on(monkeypatch, None)
    assert upload.main(["--dry-run"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == [
        "(mpremote is not installed: pip install mpremote (or pip install 'aetherbox[firmware]'))",
        "(no Pico found; 'auto' lets mpremote pick the first board it finds)",
        f"mpremote connect auto fs cp {' '.join(str(FIRMWARE / n) for n in FILES)} :",
    ]


def test_missing_mpremote_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    pico_on(monkeypatch, "/dev/ttyACM0")
    assert upload.main([]) == 1
    assert capsys.readouterr().err == (
        "aetherbox: error: mpremote is not installed; it copies the firmware to the Pico: "
        "pip install mpremote (or pip install 'aetherbox[firmware]')\n"
    )


def test_no_pico_found_says_how_to_get_one_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_mpremote(tmp_path / "bin")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    pico_on(monkeypatch, None)
    assert upload.main([]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "aetherbox: error: no Raspberry Pi Pico running MicroPython found (USB id 2E8A:0005)."
    )
    assert err.endswith("Then run this again, or give --port\n")


def test_a_failing_mpremote_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = fake_mpremote(tmp_path / "bin", status=1)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert upload.main(["--port", "/dev/ttyACM0"]) == 1
    assert len(calls(log)) == 1  # no reset after a failed copy
    assert capsys.readouterr().err == (
        "aetherbox: error: mpremote failed (exit status 1) while copying the firmware on /dev/ttyACM0; "
        "close any program using the port (a serial monitor, aetherbox itself) and try again\n"
    )
