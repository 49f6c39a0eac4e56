"""HW-5: when SDL's KMS/DRM driver cannot start because a library it loads is missing (the
pygame-ce wheel carries the driver, not libdrm, libgbm, libEGL or libGLESv2), the kiosk's line
names the missing files and the apt command instead of the HDMI cable.
"""

from __future__ import annotations

import ctypes
import logging
import os
from collections.abc import Iterator

import pygame
import pytest

from display.targets import (
    FB_CHECKS,
    KMS_CHECKS,
    KMS_LIBRARIES,
    NoScreen,
    OffscreenTarget,
    ScreenKeeper,
    Target,
    missing_kms_libraries,
    screen_checks,
)

GBM_MISSING = (("libgbm.so.1", "libgbm1"),)
GBM_HINT = (
    "SDL's KMS/DRM driver cannot load libgbm.so.1: install them with "
    "'sudo apt-get install libgbm1 libgl1-mesa-dri' (systemd/install.sh does)"
)


def test_hw5_the_libraries_are_the_ones_sdl_loads_with_their_debian_packages() -> None:
    assert KMS_LIBRARIES == (
        ("libdrm.so.2", "libdrm2"),
        ("libgbm.so.1", "libgbm1"),
        ("libEGL.so.1", "libegl1"),
        ("libGLESv2.so.2", "libgles2"),
    )


def test_hw5_missing_libraries_are_those_that_do_not_load() -> None:
    tried: list[str] = []

    def load(name: str) -> object:
        tried.append(name)
        if name in ("libgbm.so.1", "libEGL.so.1"):
            raise OSError(f"{name}: cannot open shared object file: No such file or directory")
        return object()

    assert missing_kms_libraries(load) == (("libgbm.so.1", "libgbm1"), ("libEGL.so.1", "libegl1"))
    assert tried == ["libdrm.so.2", "libgbm.so.1", "libEGL.so.1", "libGLESv2.so.2"]
    assert missing_kms_libraries(lambda name: object()) == ()


def test_hw5_a_driver_that_does_not_start_for_want_of_a_library_names_it() -> None:
    two = (("libgbm.so.1", "libgbm1"), ("libGLESv2.so.2", "libgles2"))
    assert (
        screen_checks("kmsdrm not available", KMS_CHECKS, missing=lambda: GBM_MISSING) == GBM_HINT
    )
    assert screen_checks("Could not load EGL library", KMS_CHECKS, missing=lambda: two) == (
        "SDL's KMS/DRM driver cannot load libgbm.so.1, libGLESv2.so.2: install them with "
        "'sudo apt-get install libgbm1 libgles2 libgl1-mesa-dri' (systemd/install.sh does)"
    )


def test_hw5_with_the_libraries_there_the_hint_is_the_screen_checks() -> None:
    assert screen_checks("kmsdrm not available", KMS_CHECKS, missing=lambda: ()) == KMS_CHECKS


def test_hw5_other_errors_and_the_frame_buffer_keep_their_hint() -> None:
    def never() -> tuple[tuple[str, str], ...]:
        raise AssertionError("the libraries are only looked for when SDL's driver did not start")

    assert screen_checks("kmsdrm: page flip failed", KMS_CHECKS, missing=never) == KMS_CHECKS
    assert screen_checks("kmsdrm not available", FB_CHECKS, missing=never) == FB_CHECKS


@pytest.fixture
def _video_restored() -> Iterator[None]:
    yield
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()


@pytest.mark.usefixtures("_video_restored")
def test_hw5_the_waiting_kiosk_says_which_library_is_missing(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service's log line, as on a Pi where install.sh did not run: SDL's error, then the
    missing library and the command, not the HDMI cable."""
    caplog.set_level(logging.WARNING)
    monkeypatch.setattr("display.targets.missing_kms_libraries", lambda: GBM_MISSING)
    calls = []

    def opener() -> Target:
        calls.append(1)
        if len(calls) == 1:
            raise NoScreen("kmsdrm not available")
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        return OffscreenTarget((480, 320))

    pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    keeper = ScreenKeeper(opener, sleep=lambda seconds: None)
    keeper.open()
    assert [r.getMessage() for r in caplog.records if r.name == "display.targets"][0] == (
        "display: no screen (SDL video driver 'kmsdrm': kmsdrm not available); trying again every 1 to 30 s: "
        + GBM_HINT
    )


def test_hw5_the_probe_says_what_really_loads_here() -> None:
    """With the real loader: a library is reported missing exactly when ctypes cannot load it."""
    missing = missing_kms_libraries()
    for file, package in KMS_LIBRARIES:
        try:
            ctypes.CDLL(file)
        except OSError:
            assert (file, package) in missing
        else:
            assert (file, package) not in missing
