"""A real browser for the tests and the README's screenshot: Debian's chromium, headless, driven
through its chromedriver by selenium, with a fresh profile and nothing that reaches the network
by itself.

chromium and chromedriver come from the Debian packages ``chromium`` and ``chromium-driver``
(``.ci/run`` installs them under CI=true); without them the tests that need them are skipped,
saying so.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
MISSING = (
    "chromium or its driver is not installed (Debian packages 'chromium' and 'chromium-driver'; "
    ".ci/run installs them under CI=true)"
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK))
    else ""
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


@contextmanager
def chromium(width: int = 412, height: int = 915, scale: float = 1.0) -> Iterator[Any]:
    """A headless chromium with a window the size of a phone's (CSS pixels), ``scale`` device
    pixels to each, quit on leaving."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="aetherbox-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            f"--force-device-scale-factor={scale}",
        ):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
        try:
            yield driver
        finally:
            driver.quit()
