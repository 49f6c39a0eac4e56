"""Configuration: a TOML file validated by pydantic, with defaults that work with no file.

A bad value never stops the gadget where a default is safe: the loader reports the key, what it
allows and what it used instead, and carries on.  Example file (every key optional)::

    language = "pl"                  # en, ru, ja, pl
    data_dir = "/var/lib/aetherbox"  # journal, tag map, card text
    journal = "/var/lib/aetherbox/games/aetherbox.sqlite3"
    tag_map = "/var/lib/aetherbox/tags.txt"

    [starting_life]                  # overrides the formats' starting life (TB-2)
    commander = 30

    [reader]                         # the RFID reader (HW-2)
    port = "/dev/ttyUSB0"            # default: the first known USB-serial chip
    protocol = "rdm6300"             # auto, rdm6300, id12, pn532, line, fake
    presence_timeout = 0.3           # seconds unseen before a tag counts as lifted

    [display]                        # the kiosk screen (HW-4)
    size = "480x320"                 # default: the whole screen, or an 800x480 window
    fullscreen = true                # on a Pi without a desktop SDL uses KMS/DRM
    fb = "/dev/fb1"                  # an SPI panel's frame buffer (RGB565) instead
    rotate = 90                      # the picture turned clockwise on the panel: 0, 90, 180, 270
    diagonal = 5.0                   # the panel's size in inches, when its pixels do not say it
    fps = 20                         # animation frames per second (the die's tumble)
    font = "/usr/share/fonts/MyFont.ttf"  # tried before the bundled fonts
    buttons = "auto"                 # auto (GPIO when there is one), gpio, fake

    [gpio]                           # pins and timing, see drivers/gpio.py (GpioConfig)
    roll = 17
    buzzer = 18                      # the planeswalk chime and chaos beep; absent: no buzzer
    led = 23                         # the chaos flash; absent: no LED

    [event]                          # a Conspiracy event across tables, through an MQTT broker
    broker = "organiser.local"       # the broker's host name or address; absent: no event link
    port = 1883
    table = "table2"                 # this gadget's table: its login at the broker
    password = "…"                   # that login's password
    join = "Spring"                  # join this event at start (else the one joined last)
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from msgspec import Struct
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from device import paths
from device.formats import find_format

Language = Literal["en", "ru", "ja", "pl"]
#: drivers.rfid.PROTOCOLS and its simulated reader; spelt out so the core needs no driver import.
ReaderProtocol = Literal["auto", "rdm6300", "id12", "pn532", "line", "fake"]


class ReaderConfig(BaseModel):
    """``[reader]``: the optional RFID reader (HW-2).  No port: the first known USB-serial chip."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    port: str | None = None
    protocol: ReaderProtocol = "auto"
    presence_timeout: float | None = Field(default=None, gt=0, le=5)


class DisplayConfig(BaseModel):
    """``[display]``: the kiosk screen (HW-4)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    size: str | None = Field(default=None, pattern=r"^[1-9][0-9]{2,3}x[1-9][0-9]{2,3}$")
    fullscreen: bool = False
    fb: Path | None = None
    #: The picture turned clockwise on the panel, in degrees: a portrait panel (the Touch
    #: Display 2) read in landscape, or a gadget read from its other side.  Touch turns with it.
    rotate: Literal[0, 90, 180, 270] = 0
    #: The panel's diagonal in inches, where its size in pixels does not say it (display.targets.PANELS):
    #: touch targets are then a fingertip (9 mm) wide on it.
    diagonal: float | None = Field(default=None, ge=1.5, le=100)
    fps: int = Field(default=20, ge=1, le=60)
    font: Path | None = None
    buttons: Literal["auto", "gpio", "fake"] = "auto"


class EventConfig(BaseModel):
    """``[event]``: the broker of a Conspiracy event played across tables, and this gadget's
    login there (its table's name).  No broker: the gadget plays on its own."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    broker: str | None = Field(default=None, min_length=1)
    port: int = Field(default=1883, ge=1, le=65535)
    table: str = Field(default="", pattern=r"^([A-Za-z0-9_-]{1,32})?$")
    password: str = ""
    join: str = ""

    @model_validator(mode="after")
    def _a_broker_needs_a_table(self) -> EventConfig:
        if self.broker is not None and not self.table:
            raise ValueError("a broker needs this gadget's table name (its login there): table = \"table1\"")
        return self

    def address(self) -> str:
        return f"{self.broker}:{self.port}" if self.broker else ""


class Config(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    language: Language = "en"
    data_dir: Path | None = None
    journal: Path | None = None
    tag_map: Path | None = None
    starting_life: dict[str, int] = Field(default_factory=dict)
    reader: ReaderConfig = Field(default_factory=ReaderConfig)
    display: DisplayConfig = Field(default_factory=DisplayConfig)
    event: EventConfig = Field(default_factory=EventConfig)
    #: ``[gpio]``: checked by ``drivers.gpio.GpioConfig`` when the kiosk opens the buttons, so
    #: the core needs no driver import.
    gpio: dict[str, Any] = Field(default_factory=dict)

    @field_validator("starting_life")
    @classmethod
    def _known_formats(cls, value: dict[str, int]) -> dict[str, int]:
        checked = {}
        for name, life in value.items():
            fmt = find_format(name)  # raises with the known names
            if not 1 <= life <= 9999:
                raise ValueError(f"starting life for {name!r} must be from 1 to 9999, not {life}")
            checked[fmt.name] = life
        return checked

    def resolved_data_dir(self) -> Path:
        return paths.data_dir(self.data_dir)

    def tag_map_path(self) -> Path:
        """The tag map (HW-3): which card each RFID tag is."""
        return self.tag_map.expanduser() if self.tag_map else self.resolved_data_dir() / "tags.txt"

    def journal_path(self) -> Path:
        from device.journal import default_path

        return self.journal.expanduser() if self.journal else default_path(self.resolved_data_dir())


class Loaded(Struct, frozen=True):
    config: Config
    path: Path
    warnings: tuple[str, ...]


def in_use(loaded: Loaded) -> str:
    """The values start-up uses, in one line for the log: a hand-edited file has no checksum, so
    a changed value (a flipped byte in ``data_dir`` or the reader's port) is at least on record."""
    config = loaded.config
    reader = config.reader.model_dump(mode="json")
    return (
        f"{loaded.path}: language {config.language}, journal {config.journal_path()}, tag map "
        f"{config.tag_map_path()}, reader {reader}, display {config.display.model_dump(mode='json')}, "
        f"starting life {config.starting_life or 'by format'}, event broker "
        f"{config.event.address() or 'none'}{f' as table {config.event.table}' if config.event.broker else ''}"
    )


def describe(error: Mapping[str, Any]) -> str:
    """One of pydantic's validation errors as a line for the owner: the key, what is wrong, what
    was given, and that the default is used."""
    key = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":
        return f"unknown key {key!r} ignored"
    message = str(error["msg"]).removeprefix("Value error, ")
    if not key:
        return message
    message = message.removeprefix(f"{error['loc'][-1]}: ")  # a validator that names its key already
    return f"{key!r}: {message} (got {error.get('input')!r}); using the default"


def _drop(data: dict[str, Any], loc: tuple[int | str, ...]) -> bool:
    """Leave out the innermost key of ``data`` that ``loc`` names (a key of a section, else the
    section); False when there is nothing to leave out."""
    if not loc:
        return False
    node, key = data, str(loc[0])
    for part in loc[1:]:
        child = node.get(key)
        if not isinstance(child, dict) or str(part) not in child:
            break
        node, key = child, str(part)
    return node.pop(key, None) is not None


M = TypeVar("M", bound=BaseModel)


def lenient(model: type[M], data: Mapping[str, Any], where: str) -> tuple[M | None, list[str], dict[str, Any]]:
    """``data`` as a ``model``, each bad key left out (so its default is used) and said, one line
    per problem starting with ``where``; None when what is wrong is no one key's (two keys that
    cannot go together), with the lines saying why.  Also returns the data that was used."""
    used: dict[str, Any] = copy.deepcopy(dict(data))
    warnings: list[str] = []
    while True:
        try:
            return model.model_validate(used), warnings, used
        except ValidationError as error:
            problems = error.errors()
        warnings += [f"{where}: {describe(problem)}" for problem in problems]
        dropped = [_drop(used, tuple(problem["loc"])) for problem in problems]
        if not all(dropped):
            return None, warnings, used


def load(path: Path | None = None) -> Loaded:
    """The configuration from ``path`` (or the default place); never raises for bad contents."""
    where = path or paths.config_file()
    try:
        raw = where.read_bytes()
    except FileNotFoundError:
        return Loaded(Config(), where, () if path is None else (f"{where}: no such file; using defaults",))
    except OSError as error:
        return Loaded(Config(), where, (f"{where}: cannot read it ({error.strerror}); using defaults",))
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        return Loaded(Config(), where, (f"{where}: not valid TOML ({error}); using defaults",))
    config, warnings, _ = lenient(Config, data, str(where))
    if config is None:
        return Loaded(Config(), where, (*warnings, f"{where}: using defaults"))
    return Loaded(config, where, tuple(warnings))
