"""Where frames go: PNG files per changed frame, an SPI panel's RGB565 frame buffer, a window —
and a clear message when there is no screen at all (HW-4)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from display import cli
from device.errors import DeviceNotFound
from display.targets import FramebufferTarget, ScreenshotTarget, WindowTarget, rgb565


def test_screenshots_write_a_png_per_changed_frame(tmp_path: Path) -> None:
    target = ScreenshotTarget((320, 240), tmp_path / "shots")
    target.surface.fill((10, 20, 30))
    assert target.present()
    assert not target.present()  # unchanged: no file
    target.surface.fill((200, 20, 30))
    assert target.present()
    assert [p.name for p in sorted((tmp_path / "shots").iterdir())] == ["frame-0001.png", "frame-0002.png"]
    assert pygame.image.load(str(tmp_path / "shots" / "frame-0002.png")).get_at((5, 5))[:3] == (200, 20, 30)


def test_rgb565_packs_colours_little_endian() -> None:
    surface = pygame.Surface((2, 1))
    surface.set_at((0, 0), (255, 0, 0))
    surface.set_at((1, 0), (0, 0, 255))
    assert rgb565(surface) == bytes([0x00, 0xF8, 0x1F, 0x00])
    assert rgb565(surface, stride=8) == bytes([0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0])


def test_framebuffer_target_writes_each_frame_as_rgb565(tmp_path: Path) -> None:
    """An SPI panel's /dev/fb1, stood in for by a file of the panel's size."""
    fb = tmp_path / "fb1"
    fb.write_bytes(bytes(320 * 240 * 2))
    target = FramebufferTarget(fb, (320, 240))
    try:
        target.surface.fill((0, 255, 0))
        assert target.present()
    finally:
        target.close()
    data = fb.read_bytes()
    assert len(data) == 320 * 240 * 2
    assert data[:2] == bytes([0xE0, 0x07]) and data[-2:] == bytes([0xE0, 0x07])


def test_framebuffer_missing_says_what_to_check(tmp_path: Path) -> None:
    with pytest.raises(DeviceNotFound, match="no such frame buffer"):
        FramebufferTarget(tmp_path / "fb9", (320, 240))


def test_no_screen_is_said_with_what_to_do_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    """SDL falls back to drawing nowhere when there is no screen; the kiosk says so."""
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    try:
        with pytest.raises(DeviceNotFound) as caught:
            WindowTarget((800, 480))
        assert "--screenshots DIR" in str(caught.value) and "aetherbox console" in str(caught.value)
    finally:
        monkeypatch.undo()
        pygame.display.init()


def test_cli_kiosk_writes_screenshots(tmp_path: Path) -> None:
    """``aetherbox kiosk --screenshots DIR`` draws without a screen."""
    status = cli.main(["kiosk", "--screenshots", str(tmp_path / "shots"), "--size", "480x320", "--frames", "1",
                       "--db", str(tmp_path / "j.sqlite3"), "--language", "pl"])
    assert status == 0
    frame = pygame.image.load(str(tmp_path / "shots" / "frame-0001.png"))
    assert frame.get_size() == (480, 320)


def test_cli_bad_size_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["kiosk", "--size", "big", "--screenshots", str(tmp_path)]) == 1
    assert "'big' is not a screen size: write it as WIDTHxHEIGHT, e.g. 800x480" in capsys.readouterr().err


@pytest.mark.skipif(not sys.platform.startswith("linux") or Path("/dev/dri/card0").exists(),
                    reason="needs a Linux machine with no desktop and no KMS/DRM screen")
def test_aetherbox_without_a_screen_points_to_screenshots_and_console(tmp_path: Path) -> None:
    """``aetherbox`` with no arguments is the kiosk; on a machine with no screen it says so."""
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")}
    env["AETHERBOX_DATA_DIR"] = str(tmp_path)
    env["XDG_RUNTIME_DIR"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from display.cli import main; sys.exit(main(['--config', '/dev/null']))"],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "aetherbox: error: no screen to draw on" in done.stderr
    assert "--screenshots DIR" in done.stderr and "aetherbox console" in done.stderr
    assert "Traceback" not in done.stderr


def test_display_configuration_is_checked_with_the_key_named(tmp_path: Path) -> None:
    from device.config import load

    path = tmp_path / "config.toml"
    path.write_text('[display]\nsize = "480x320"\nfps = 30\nfullscreen = true\n', encoding="utf-8")
    loaded = load(path)
    assert (loaded.config.display.size, loaded.config.display.fps, loaded.config.display.fullscreen) == ("480x320", 30, True)
    path.write_text('[display]\nsize = "huge"\n', encoding="utf-8")
    loaded = load(path)
    assert loaded.config.display.size is None
    assert any("'display.size'" in w and "using the default" in w for w in loaded.warnings)
