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
import errno
import ipaddress
import os
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from msgspec import Struct
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from device import paths
from device.errors import IllegalCommand
from device.text import Message
from device.rules.registry import find_format

#: The English of what loading the configuration says (the owner's words for a typo): the log
#: and the console say it in English, the kiosk's status line in the table's language.
TEXTS = {
    "config.missing": "{where}: no such file; using defaults",
    "config.unreadable": "{where}: cannot read it ({reason}); using defaults",
    "config.not_regular": "{where} is not a regular file; using defaults",
    "config.too_large": "{where} is larger than {kb} kB; using defaults",
    "config.not_toml": "{where}: not valid TOML ({reason}); using defaults",
    "config.not_utf8": "{where}: not valid TOML: not UTF-8 text (byte {at}); save it as UTF-8; using defaults",
    "config.too_deep": "{where}: lists and tables nested more than {depth} deep; using defaults",
    "config.key_too_deep": "{where}: {setting} is nested more than {depth} deep; ignored",
    "config.using_defaults": "{where}: using defaults",
    "config.unknown_key": "{where}: unknown key {setting} ignored",
    "config.bad_value": "{where}: {setting}: {reason} (got {value}); using the default",
    "config.bad_value_said": "{where}: {setting}: {reason}; using the default",
    "config.problem": "{where}: {reason}",
    "config.reason.whole_number": "must be a whole number",
    "config.reason.number": "must be a number",
    "config.reason.finite": "must be a finite number",
    "config.reason.bool": "must be true or false",
    "config.reason.text": "must be text in quotes",
    "config.reason.path": "must be a path in quotes",
    "config.reason.nul": "must not contain a NUL character",
    "config.reason.more_than": "must be more than {limit}",
    "config.reason.at_least": "must be at least {limit}",
    "config.reason.less_than": "must be less than {limit}",
    "config.reason.at_most": "must be at most {limit}",
    "config.reason.one_of": "must be one of {expected}",
    "config.reason.not_empty": "must not be empty",
    "config.reason.section": "must be a section of keys",
    "config.reason.list": "must be a list in square brackets",
    "config.reason.size": 'must be a size such as "480x320"',
    "config.reason.table_name": "must be up to 32 letters, digits, - or _",
    "config.reason.form": "is not in the form this key takes",
    "config.reason.other": "is not a value this key takes ({said})",
    "config.pin.not_a_pin": "{value} is not a pin: use a BCM number such as 17, or a name such as 'GPIO17', 'BCM17' or 'BOARD11'",
    "config.pin.required": "a pin is required: use a BCM number such as 17, or a name such as 'GPIO17', 'BCM17' or 'BOARD11'",
    "config.pin.not_gpio": "{value} is not a GPIO on the 40-pin header: BCM numbers go from 0 to {highest}",
    "config.pin.not_gpio_name": "{value} is not a GPIO on the 40-pin header: use GPIO0 to GPIO{highest}",
    "config.pin.off_header": "{value} is not on the 40-pin header: positions go from 1 to 40",
    "config.pin.power": "{value} is a power or ground pin, not a GPIO: choose a GPIO position such as 'BOARD11' (GPIO17)",
    "config.pin.shared": "{first} ({first_pin}) and {second} ({second_pin}) are both GPIO{bcm}: give each its own pin",
    "config.pin.kept_first": "{first} and {second} are both GPIO{bcm}: {first} keeps it, {second} is left at its default ({default})",
    "config.pin.left_off": "{first} and {second} are both GPIO{bcm}: {first} keeps it, {second} is left off",
    "config.gpio.pull_and_state": (
        "active_state: leave it unset when pull_up is {pull}, because the pull decides which level is a press; "
        "remove pull_up to use external resistors"
    ),
    "config.gpio.state_needed": (
        "active_state: with external resistors (no pull_up) say which level is a press: true for high, false for low"
    ),
    "config.gpio.encoder_pair": "encoder_a and encoder_b go together: set both pins or neither",
    "config.gpio.after_debounce": "{name}: {limit} s must be longer than the debounce window ({debounce} s)",
    "config.life_range": "starting life for {name} must be from 1 to 9999, not {life}",
    "config.table_needed": 'a broker needs this gadget\'s table name (its login there): table = "table1"',
}

#: The largest configuration read: a hand-written one is a few kB, so anything this big (or a
#: device such as /dev/zero) is not one, and reading it all would only fill the memory.
LIMIT_KB = 64
#: The deepest lists and tables go in a configuration: sections, their keys, a list's items.
DEPTH = 8


class Refused(ValueError):
    """A setting's value refused, in words each language can say: ``message``; ``str()`` is its
    English, after ``setting: `` when one is named (the message itself does not name it: the
    line it goes in does)."""

    def __init__(self, key: str, setting: str | None = None, **params: Any) -> None:
        self.message = Message(key, **params)
        super().__init__(f"{setting}: {self.message}" if setting else str(self.message))


class NotRegular(OSError):
    """A configuration or tag map that is no regular file: a folder, a device, a FIFO (which
    would hang the reader until someone writes to it)."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EINVAL, "not a regular file", str(path))


class TooLarge(OSError):
    """A configuration or tag map larger than any such file is."""

    def __init__(self, path: Path, limit: int) -> None:
        self.kb = limit // 1024
        super().__init__(errno.EFBIG, f"larger than {self.kb} kB", str(path))


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.  Raises
    :class:`NotRegular` for anything else — looked at before it is opened, so a FIFO does not hang
    the reader and a device is not opened at all — :class:`TooLarge` past ``limit``, and the OS's
    own ``OSError`` (no such file, no permission).  ``/dev/null`` (how one says "none") is read
    as an empty file."""
    if os.path.realpath(path) == os.devnull:
        return b""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise NotRegular(path)
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY)
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped for something else since the look
            raise NotRegular(path)
        data = file.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(path, limit)
    return data


def _no_nul(path: Path) -> Path:
    if "\0" in str(path):
        raise Refused("config.reason.nul")
    return path


#: A path setting: a NUL in it would stop whatever first opened it.
SomePath = Annotated[Path, AfterValidator(_no_nul)]

Language = Literal["en", "ru", "ja", "pl"]
#: drivers.rfid.PROTOCOLS and its simulated reader; spelt out so the core needs no driver import.
ReaderProtocol = Literal["auto", "rdm6300", "id12", "pn532", "line", "fake"]


class ReaderConfig(BaseModel):
    """``[reader]``: the optional RFID reader (HW-2).  No port: the first known USB-serial chip."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    port: str | None = None
    protocol: ReaderProtocol = "auto"
    presence_timeout: float | None = Field(default=None, gt=0, le=5)


class DisplayConfig(BaseModel):
    """``[display]``: the kiosk screen (HW-4)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    size: str | None = Field(default=None, pattern=r"^[1-9][0-9]{2,3}x[1-9][0-9]{2,3}$")
    fullscreen: bool = False
    fb: SomePath | None = None
    #: The picture turned clockwise on the panel, in degrees: a portrait panel (the Touch
    #: Display 2) read in landscape, or a gadget read from its other side.  Touch turns with it.
    rotate: Literal[0, 90, 180, 270] = 0
    #: The panel's diagonal in inches, where its size in pixels does not say it (display.targets.PANELS):
    #: touch targets are then a fingertip (9 mm) wide on it.
    diagonal: float | None = Field(default=None, ge=1.5, le=100)
    fps: int = Field(default=20, ge=1, le=60)
    font: SomePath | None = None
    buttons: Literal["auto", "gpio", "fake"] = "auto"


#: Where a table keeps the event's certificate authority: the path it has on the organiser's Pi,
#: so the same copy step works on every table.
BROKER_CA = Path("/etc/aetherbox/broker-ca.crt")
#: The shipped broker's ports: TLS for the tables, plain on the organiser's Pi's loopback only.
TLS_PORT, PLAIN_PORT = 8883, 1883


def on_this_machine(host: str) -> bool:
    """Whether ``host`` is this machine's loopback: nothing sent there crosses a network."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.rstrip(".").lower() == "localhost"


class EventConfig(BaseModel):
    """``[event]``: the broker of a Conspiracy event played across tables, and this gadget's
    login there (its table's name).  No broker: the gadget plays on its own."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    broker: str | None = Field(default=None, min_length=1)
    #: By default the broker's TLS port, or its plain one on this Pi (see ``tls``).
    port: int = Field(default=TLS_PORT, ge=1, le=65535)
    table: str = Field(default="", pattern=r"^([A-Za-z0-9_-]{1,32})?$")
    password: str = ""
    join: str = ""
    #: The port of the players' page (standings, seatings, tables) this gadget serves to phones on
    #: the venue's network; none: not served.  Under 1024 would need root.
    page_port: int | None = Field(default=None, ge=1024, le=65535)
    #: The event's certificate authority (``install.sh --broker`` makes it on the organiser's
    #: Pi); a broker elsewhere is reached in TLS and trusted only if it signed its certificate.
    ca: SomePath | None = None

    @model_validator(mode="before")
    @classmethod
    def _port_follows_tls(cls, data: Any) -> Any:
        if isinstance(data, dict) and "port" not in data:
            plain = (
                data.get("ca") is None
                and isinstance(data.get("broker"), str)
                and on_this_machine(data["broker"])
            )
            return {**data, "port": PLAIN_PORT if plain else TLS_PORT}
        return data

    @property
    def tls(self) -> bool:
        """Whether the link speaks TLS: to any broker but one on this machine (whose plain port
        listens on the loopback interface alone), or whenever ``ca`` is set."""
        return self.broker is not None and (self.ca is not None or not on_this_machine(self.broker))

    def ca_file(self) -> Path | None:
        """The certificate authority the link trusts, when it speaks TLS."""
        return (self.ca or BROKER_CA) if self.tls else None

    @model_validator(mode="after")
    def _a_broker_needs_a_table(self) -> EventConfig:
        if self.broker is not None and not self.table:
            raise Refused("config.table_needed")
        return self

    def address(self) -> str:
        return f"{self.broker}:{self.port}" if self.broker else ""


class Config(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    language: Language = "en"
    data_dir: SomePath | None = None
    journal: SomePath | None = None
    tag_map: SomePath | None = None
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
                raise Refused("config.life_range", name=repr(name), life=shown(life, 24))
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
    #: What was left out and why, each in words every language can say.
    problems: tuple[Message, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        """The problems in English: the log's and the console's words."""
        return tuple(str(problem) for problem in self.problems)


def in_use(loaded: Loaded) -> str:
    """The values start-up uses, in one line for the log: a hand-edited file has no checksum, so
    a changed value (a flipped byte in ``data_dir`` or the reader's port) is at least on record."""
    config = loaded.config
    reader = config.reader.model_dump(mode="json")
    event = config.event
    page = (
        f", the players' page on port {event.page_port}" if event.broker and event.page_port else ""
    )
    return (
        f"{loaded.path}: language {config.language}, journal {config.journal_path()}, tag map "
        f"{config.tag_map_path()}, reader {reader}, display {config.display.model_dump(mode='json')}, "
        f"starting life {config.starting_life or 'by format'}, event broker "
        f"{config.event.address() or 'none'}{f' as table {config.event.table}' if config.event.broker else ''}"
        f"{page}"
    )


#: pydantic's kinds of error as the owner's words (``config.reason.*``), with the bound each names.
REASONS: dict[str, tuple[str, str | None]] = {
    "int_type": ("config.reason.whole_number", None),
    "int_parsing": ("config.reason.whole_number", None),
    "int_from_float": ("config.reason.whole_number", None),
    "float_type": ("config.reason.number", None),
    "float_parsing": ("config.reason.number", None),
    "finite_number": ("config.reason.finite", None),
    "bool_type": ("config.reason.bool", None),
    "bool_parsing": ("config.reason.bool", None),
    "string_type": ("config.reason.text", None),
    "path_type": ("config.reason.path", None),
    "greater_than": ("config.reason.more_than", "gt"),
    "greater_than_equal": ("config.reason.at_least", "ge"),
    "less_than": ("config.reason.less_than", "lt"),
    "less_than_equal": ("config.reason.at_most", "le"),
    "literal_error": ("config.reason.one_of", "expected"),
    "enum": ("config.reason.one_of", "expected"),
    "string_too_short": ("config.reason.not_empty", None),
    "dict_type": ("config.reason.section", None),
    "model_type": ("config.reason.section", None),
    "model_attributes_type": ("config.reason.section", None),
    "frozen_set_type": ("config.reason.list", None),
    "set_type": ("config.reason.list", None),
    "list_type": ("config.reason.list", None),
    "string_pattern_mismatch": ("config.reason.form", None),
}
#: Keys whose form is better said by example than by a pattern.
FORMS = {"display.size": "config.reason.size", "event.table": "config.reason.table_name"}


def shown(value: object, limit: int = 60) -> str:
    """``value`` as the file would spell it, cut short: a warning names a 1 MB string, not repeats it."""
    try:
        text = repr(value)
    except ValueError:  # an integer of more digits than Python prints
        text = f"<a number of about {value.bit_length() * 3 // 10 if isinstance(value, int) else '?'} digits>"
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def reason(error: Mapping[str, Any]) -> Message:
    """What is wrong with a key's value, in words every language can say."""
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, Refused):
        return cause.message
    if isinstance(cause, IllegalCommand):
        return Message(cause.key, **cause.params)
    key = ".".join(str(part) for part in error["loc"])
    if error["type"] == "string_pattern_mismatch" and key in FORMS:
        return Message(FORMS[key])
    known = REASONS.get(error["type"])
    if known is None:
        return Message("config.reason.other", said=str(error["msg"]).removeprefix("Value error, "))
    text, bound = known
    if bound is None:
        return Message(text)
    limit = (error.get("ctx") or {}).get(bound)
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)  # "more than 0", not "0.0"
    return Message(text, **{"expected" if bound == "expected" else "limit": limit})


def describe(error: Mapping[str, Any], where: str = "") -> Message:
    """One of pydantic's validation errors as a line for the owner: the key, what is wrong, what
    was given, and that the default is used."""
    key = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":
        return Message("config.unknown_key", where=where, setting=repr(key))
    if not key:
        return Message("config.problem", where=where, reason=reason(error))
    why = reason(error)
    if "value" in why.params:  # it names the value already
        return Message("config.bad_value_said", where=where, setting=repr(key), reason=why)
    return Message(
        "config.bad_value",
        where=where,
        setting=repr(key),
        reason=why,
        value=shown(error.get("input")),
    )


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


def _too_deep(data: dict[str, Any], where: str, depth: int = DEPTH) -> list[Message]:
    """Leave out every key of ``data`` (or of one of its sections) whose value nests lists and
    tables more than ``depth`` deep, said: no setting is that deep, and copying or checking it
    would run out of stack.  ``data``'s sections are copied before a key of theirs goes."""
    said: list[Message] = []
    for key, value in list(data.items()):
        if isinstance(value, dict) and _depth(value) > depth:
            data[key] = section = dict(value)
            for inner, item in value.items():
                if _depth(item) + 1 > depth:
                    said.append(
                        Message(
                            "config.key_too_deep",
                            where=where,
                            setting=repr(f"{key}.{inner}"),
                            depth=depth,
                        )
                    )
                    del section[inner]
        elif _depth(value) > depth:
            said.append(Message("config.key_too_deep", where=where, setting=repr(key), depth=depth))
            del data[key]
    return said


def _depth(value: Any) -> int:
    """How deep lists and tables nest in ``value`` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, level)
            stack += [
                (child, level + 1) for child in (node.values() if isinstance(node, dict) else node)
            ]
    return deepest


M = TypeVar("M", bound=BaseModel)


def lenient(
    model: type[M], data: Mapping[str, Any], where: str
) -> tuple[M | None, list[Message], dict[str, Any]]:
    """``data`` as a ``model``, each bad key left out (so its default is used) and said, one line
    per problem starting with ``where``; None when what is wrong is no one key's (two keys that
    cannot go together), with the lines saying why.  Also returns the data that was used."""
    warnings: list[Message] = []
    if _depth(data) > DEPTH:
        data = dict(data)
        warnings += _too_deep(data, where)
    used: dict[str, Any] = copy.deepcopy(dict(data))
    while True:
        try:
            return model.model_validate(used), warnings, used
        except ValidationError as error:
            problems = error.errors()
        warnings += [describe(problem, where) for problem in problems]
        dropped = [_drop(used, tuple(problem["loc"])) for problem in problems]
        if not all(dropped):
            return None, warnings, used


def load(path: Path | None = None) -> Loaded:
    """The configuration from ``path`` (or the default place); never raises for bad contents.

    Only a regular file of at most :data:`LIMIT_KB` kB is read: a FIFO, a device or a folder
    named as the configuration is said and the defaults used, like a file that is not TOML, one
    nested deeper than any setting goes, or a bad key (its default used)."""
    where = path or paths.config_file()
    at = str(where)
    try:
        raw = read_regular(where, LIMIT_KB * 1024)
    except FileNotFoundError:
        return Loaded(
            Config(), where, () if path is None else (Message("config.missing", where=at),)
        )
    except NotRegular:
        return Loaded(Config(), where, (Message("config.not_regular", where=at),))
    except TooLarge as error:
        return Loaded(Config(), where, (Message("config.too_large", where=at, kb=error.kb),))
    except OSError as error:
        return Loaded(
            Config(),
            where,
            (Message("config.unreadable", where=at, reason=error.strerror or str(error)),),
        )
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return Loaded(Config(), where, (Message("config.not_utf8", where=at, at=error.start + 1),))
    except RecursionError:
        return Loaded(Config(), where, (Message("config.too_deep", where=at, depth=DEPTH),))
    except (
        tomllib.TOMLDecodeError,
        ValueError,
    ) as error:  # ValueError: an integer of more digits than Python reads
        return Loaded(Config(), where, (Message("config.not_toml", where=at, reason=str(error)),))
    config, warnings, _ = lenient(Config, data, at)
    if config is None:
        return Loaded(Config(), where, (*warnings, Message("config.using_defaults", where=at)))
    return Loaded(config, where, tuple(warnings))
