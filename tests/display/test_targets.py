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
    assert [p.name for p in sorted((tmp_path / "shots").iterdir())] == [
        "frame-0001.png",
        "frame-0002.png",
    ]
    assert pygame.image.load(str(tmp_path / "shots" / "frame-0002.png")).get_at((5, 5))[:3] == (
        200,
        20,
        30,
    )


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
    status = cli.main(
        [
            "kiosk",
            "--screenshots",
            str(tmp_path / "shots"),
            "--size",
            "480x320",
            "--frames",
            "1",
            "--db",
            str(tmp_path / "j.sqlite3"),
            "--language",
            "pl",
        ]
    )
    assert status == 0
    frame = pygame.image.load(str(tmp_path / "shots" / "frame-0001.png"))
    assert frame.get_size() == (480, 320)


def test_cli_bad_size_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["kiosk", "--size", "big", "--screenshots", str(tmp_path)]) == 1
    assert (
        "'big' is not a screen size: write it as WIDTHxHEIGHT, e.g. 800x480"
        in capsys.readouterr().err
    )


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or Path("/dev/dri/card0").exists(),
    reason="needs a Linux machine with no desktop and no KMS/DRM screen",
)
def test_aetherbox_without_a_screen_points_to_screenshots_and_console(tmp_path: Path) -> None:
    """``aetherbox`` with no arguments is the kiosk; on a machine with no screen it says so."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")
    }
    env["AETHERBOX_DATA_DIR"] = str(tmp_path)
    env["XDG_RUNTIME_DIR"] = str(tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from display.cli import main; sys.exit(main(['--config', '/dev/null']))",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
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
    assert (
        loaded.config.display.size,
        loaded.config.display.fps,
        loaded.config.display.fullscreen,
    ) == ("480x320", 30, True)
    path.write_text('[display]\nsize = "huge"\n', encoding="utf-8")
    loaded = load(path)
    assert loaded.config.display.size is None
    assert any("'display.size'" in w and "using the default" in w for w in loaded.warnings)


def test_display_one_bad_key_keeps_the_rest_of_the_section(tmp_path: Path) -> None:
    """A typo in one key of [display] leaves that key at its default, not the whole section: an
    SPI panel's fb stays, so the panel is not dark for a wrong rotate."""
    from device.config import load

    path = tmp_path / "config.toml"
    path.write_text('[display]\nfb = "/dev/fb1"\nrotate = 45\nrotat = 90\n', encoding="utf-8")
    loaded = load(path)
    assert loaded.config.display.fb == Path("/dev/fb1") and loaded.config.display.rotate == 0
    assert any("'display.rotate'" in w and "using the default" in w for w in loaded.warnings)
    assert any("unknown key 'display.rotat' ignored" in w for w in loaded.warnings)


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or Path("/dev/dri/card0").exists(),
    reason="needs a Linux machine with no desktop and no KMS/DRM screen",
)
def test_hw4_on_a_console_without_a_desktop_the_kiosk_asks_for_kms_drm_by_name(
    tmp_path: Path,
) -> None:
    """Started by hand on a Pi's console (no $DISPLAY, no $WAYLAND_DISPLAY, no $XDG_RUNTIME_DIR):
    KMS/DRM's own failure is said, not SDL's line about XDG_RUNTIME_DIR from trying a desktop
    first, nor "no desktop" when a library KMS/DRM needs is what is missing."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR")
    }
    env["AETHERBOX_DATA_DIR"] = str(tmp_path)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from display.cli import main; sys.exit(main(['--config', '/dev/null']))",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "XDG_RUNTIME_DIR" not in done.stderr
    assert "no screen to draw on (kmsdrm not available)" in done.stderr


def test_hw4_sdl_is_told_how_to_put_a_window_on_each_screen(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """KMS/DRM has no window pixels of its own: SDL must draw through OpenGL ES there (it would
    fail at set_mode with the texture path turned off, or draw black frames with desktop OpenGL);
    X11 keeps its shared-memory pixels; what the environment sets stands where it can work."""
    from display.targets import _choose_framebuffer

    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION", raising=False)
    _choose_framebuffer("kmsdrm")
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "opengles2"
    monkeypatch.setenv("SDL_FRAMEBUFFER_ACCELERATION", "0")
    with caplog.at_level("WARNING"):
        _choose_framebuffer("kmsdrm")
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "opengles2"
    assert "cannot draw on KMS/DRM" in caplog.text
    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION")
    _choose_framebuffer("x11")
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "0"
    monkeypatch.setenv("SDL_FRAMEBUFFER_ACCELERATION", "1")
    _choose_framebuffer("x11")
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "1"


def test_hw4_the_frame_buffer_takes_sdls_input_only_video_whatever_the_service_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service sets SDL_VIDEODRIVER=kmsdrm; an SPI panel's frame buffer must not take it,
    or the kiosk waits for a screen that is the panel itself.  SDL's evdev driver draws nowhere
    and reads keys and touch from the kernel (the dummy one where it cannot start)."""
    fb = tmp_path / "fb1"
    fb.write_bytes(bytes(320 * 240 * 2))
    pygame.display.quit()
    monkeypatch.setenv("SDL_VIDEODRIVER", "kmsdrm")
    target = FramebufferTarget(fb, (320, 240))
    try:
        assert pygame.display.get_driver() in ("evdev", "dummy")
        assert os.environ["SDL_VIDEODRIVER"] == "kmsdrm"  # the environment is left as given
        assert target.panel.console
        target.surface.fill((255, 0, 0))
        assert target.present()
    finally:
        target.close()
        monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
        pygame.display.init()
    assert fb.read_bytes()[:2] == bytes([0x00, 0xF8])


def test_hw4_a_32_bit_frame_buffer_gets_its_own_pixel_format() -> None:
    """virtio-gpu's fbdev, an HDMI console's /dev/fb0: 32-bit XRGB8888, rows padded to the stride
    the kernel gives."""
    from display.targets import packed_rows

    surface = pygame.Surface((2, 1))
    surface.set_at((0, 0), (255, 0, 0))
    surface.set_at((1, 0), (0, 0, 255))
    packed = pygame.Surface((2, 1), 0, 32, (0xFF0000, 0x00FF00, 0x0000FF, 0))
    assert packed_rows(surface, packed) == bytes([0, 0, 255, 0, 255, 0, 0, 0])
    assert packed_rows(surface, packed, stride=12) == bytes(
        [0, 0, 255, 0, 255, 0, 0, 0, 0, 0, 0, 0]
    )
    bgr = pygame.Surface((2, 1), 0, 16, (0x001F, 0x07E0, 0xF800, 0))  # a panel wired BGR
    assert packed_rows(surface, bgr) == bytes([0x1F, 0x00, 0x00, 0xF8])


def test_hw4_the_frame_buffer_ioctls_read_the_kernels_structures() -> None:
    """``struct fb_var_screeninfo`` is 160 bytes and ``fb_fix_screeninfo`` 80 on a 64-bit
    kernel (68 on 32-bit): the fields the kiosk reads sit where linux/fb.h puts them."""
    import ctypes

    from display.targets import _FixScreenInfo, _VarScreenInfo

    assert ctypes.sizeof(_VarScreenInfo) == 160
    assert ctypes.sizeof(_FixScreenInfo) == (80 if ctypes.sizeof(ctypes.c_ulong) == 8 else 68)
    assert _VarScreenInfo.bits_per_pixel.offset == 24 and _VarScreenInfo.height.offset == 88
    assert _FixScreenInfo.line_length.offset == (48 if ctypes.sizeof(ctypes.c_ulong) == 8 else 44)


def test_hw4_a_file_that_is_no_frame_buffer_needs_a_size(tmp_path: Path) -> None:
    fb = tmp_path / "fb1"
    fb.write_bytes(bytes(16))
    with pytest.raises(DeviceNotFound, match="cannot read its geometry .*give --size WxH"):
        FramebufferTarget(fb)
    pygame.display.init()


def test_hw4_sdls_kms_drm_driver_is_known_whatever_case_it_names_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SDL's KMS/DRM driver calls itself "KMSDRM": the framebuffer hint and the console's touch
    must still be chosen for it (the virtual Pi drew black frames when they were not)."""
    from display.sdl import video_driver
    from display.targets import _choose_framebuffer

    monkeypatch.setattr(pygame.display, "get_driver", lambda: "KMSDRM")
    monkeypatch.delenv("SDL_FRAMEBUFFER_ACCELERATION", raising=False)
    assert video_driver() == "kmsdrm"
    _choose_framebuffer(video_driver())
    assert os.environ["SDL_FRAMEBUFFER_ACCELERATION"] == "opengles2"
