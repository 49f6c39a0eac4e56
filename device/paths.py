"""Where aetherbox keeps its files, per platform, with overrides.

Data (the journal, the tag map, imported card text): ``$AETHERBOX_DATA_DIR``, else the config
file's ``data_dir``, else systemd's ``$STATE_DIRECTORY``, else the platform's data directory:
``~/.local/share/aetherbox`` (``$XDG_DATA_HOME``) on Linux, ``~/Library/Application
Support/aetherbox`` on macOS, ``%LOCALAPPDATA%\\aetherbox`` on Windows.

Configuration: ``--config``, else ``$AETHERBOX_CONFIG``, else ``~/.config/aetherbox/config.toml``
(``$XDG_CONFIG_HOME``; the same folder as the data on macOS and Windows).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "aetherbox"


def _platform_dir(xdg_var: str, xdg_default: str) -> Path:
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / APP
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local")) / APP
    return Path(os.environ.get(xdg_var) or home / xdg_default) / APP


def data_dir(configured: Path | None = None) -> Path:
    if os.environ.get("AETHERBOX_DATA_DIR"):
        return Path(os.environ["AETHERBOX_DATA_DIR"]).expanduser()
    if configured is not None:
        return configured.expanduser()
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0])
    return _platform_dir("XDG_DATA_HOME", ".local/share")


def config_file() -> Path:
    if os.environ.get("AETHERBOX_CONFIG"):
        return Path(os.environ["AETHERBOX_CONFIG"]).expanduser()
    return _platform_dir("XDG_CONFIG_HOME", ".config") / "config.toml"
