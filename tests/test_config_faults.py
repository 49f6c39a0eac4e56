"""Issue 32: no configuration or tag-map file stops the gadget.

Whatever the file is — nested thousands deep, a FIFO, ``/dev/zero``, bad UTF-8, numbers longer
than Python reads, NULs in paths, every key of the wrong type — start-up reads it through the
same path the service takes (``device.config.load``, then ``display.app.open_hands`` for
``[gpio]`` and ``device.tagmap.TagMap`` for the tag map), comes up with the defaults where it
must, and says what is wrong in every language: never a traceback, never a hang.

The fuzz trial makes ``AETHERBOX_CONFIG_FUZZ`` files (the suite: 1,000) from a seeded generator;
a few cases also go through the real process (``aetherbox kiosk --screenshots``).
"""

from __future__ import annotations

import io

import json
import logging
import math
import os
import random
import threading
from pathlib import Path
from typing import Any

import pygame
import pytest

from device.config import LIMIT_KB, Config, in_use, load
from device.tagmap import TagMap
from display.app import KioskOptions, open_hands, open_kiosk
from display.i18n import Translator
from display.kiosk.waking import WakingQueue
from helpers import run_kiosk

TRIALS = int(os.environ.get("AETHERBOX_CONFIG_FUZZ", "1000"))
LANGUAGES = ("en", "ru", "ja", "pl")


# --------------------------------------------------------------------------------------------
# The cases of the issue, one by one


def said(loaded_problems: Any, language: str = "en") -> list[str]:
    tr = Translator(language)
    return [tr.message(problem) for problem in loaded_problems]


@pytest.mark.parametrize("depth", [20, 900, 2000, 16_000])
def test_a_configuration_nested_deep_is_said_and_the_rest_kept(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        f'language = "pl"\na = {"[" * depth}{"]" * depth}\n[gpio]\nroll = {"[" * depth}{"]" * depth}\n',
        encoding="utf-8",
    )
    loaded = load(path)
    text = " ".join(loaded.warnings)
    assert "nested more than 8 deep" in text
    if "using defaults" not in text:  # parsed (not too deep for the parser): only the deep keys go
        assert (
            loaded.config.language == "pl"
            and "'a' is nested" in text
            and "'gpio.roll' is nested" in text
        )
        assert loaded.config.gpio == {}
    assert all("8" in line for line in said(loaded.problems, "ru"))


def test_dev_zero_as_the_configuration_is_not_read_at_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AETHERBOX_CONFIG", "/dev/zero")
    loaded = load()
    assert loaded.config == Config()
    assert loaded.warnings == ("/dev/zero is not a regular file; using defaults",)
    assert said(loaded.problems, "pl") == [
        "/dev/zero nie jest zwykłym plikiem; użyto wartości domyślnych"
    ]


def test_a_fifo_as_the_configuration_or_tag_map_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    results: list[object] = []
    reader = threading.Thread(
        target=lambda: results.extend([load(fifo), TagMap(fifo)]), daemon=True
    )
    reader.start()
    reader.join(timeout=10)
    assert not reader.is_alive(), "reading a FIFO hung"
    loaded, tags = results
    assert isinstance(loaded, type(load(None))) and loaded.warnings == (
        f"{fifo} is not a regular file; using defaults",
    )
    assert isinstance(tags, TagMap) and len(tags) == 0
    assert [str(p) for p in tags.problems] == [
        f"{fifo}: cannot read the tag map (not a regular file); keeping the tags read before"
    ]
    with pytest.raises(OSError, match="not a regular file"):
        tags.add("0101", "Tazeem")  # the FIFO is not replaced by a file behind the owner's back
    assert fifo.is_fifo()


def test_a_file_larger_than_any_configuration_or_tag_map_is_said(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# padding\n" * (LIMIT_KB * 110), encoding="utf-8")
    assert load(path).warnings == (f"{path} is larger than {LIMIT_KB} kB; using defaults",)
    tags = tmp_path / "tags.txt"
    with tags.open("w", encoding="utf-8") as file:
        file.write("01:01  Tazeem\n" * 80_000)  # 1.1 MB
    assert "larger than 1024 kB" in str(TagMap(tags).problems[0])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('data_dir = "/srv/a\\u0000b"\n', "'data_dir': must not contain a NUL character"),
        (f"[starting_life]\ncommander = {'9' * 5000}\n", "not valid TOML"),
        (
            f"[starting_life]\ncommander = {'9' * 400}\n",
            "starting life for 'commander' must be from 1 to 9999, not 99999",
        ),
        ("[display]\nfps = inf\n", "'display.fps': must be a finite number (got inf)"),
        ("[display]\ndiagonal = nan\n", "'display.diagonal': must be a finite number (got nan)"),
        ("[display]\nsize = 480\n", "'display.size': must be text in quotes (got 480)"),
        (
            '[display]\nsize = "big"\n',
            "'display.size': must be a size such as \"480x320\" (got 'big')",
        ),
        ("gpio = 3\n", "'gpio': must be a section of keys (got 3)"),
        (f'language = "{"x" * 50_000}"\n', "(got 'xxxxxxxxxxxx"),
        (b"language = '\xff\xfe'\n", "not UTF-8 text (byte 13)"),
    ],
)
def test_values_no_setting_takes_are_said_and_left_out(
    tmp_path: Path, text: str | bytes, words: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    loaded = load(path)
    assert words in " ".join(loaded.warnings)
    assert all(len(line) < 400 for line in loaded.warnings)  # a 100 kB value is named, not repeated
    for language in LANGUAGES:
        assert all(line.startswith(str(path)) for line in said(loaded.problems, language))


@pytest.mark.parametrize(
    ("table", "english", "russian"),
    [
        (
            {"rol": 17},
            "[gpio]: unknown key 'rol' ignored",
            "[gpio]: неизвестный ключ 'rol' пропущен",
        ),
        (
            {"roll": "GPIO99"},
            "[gpio]: 'roll': 'GPIO99' is not a GPIO on the 40-pin header: use GPIO0 to GPIO27; using the default",
            "[gpio]: 'roll': 'GPIO99' — не GPIO на 40-контактном разъёме: используйте от GPIO0 до GPIO27; взято значение по умолчанию",
        ),
        (
            {"hold_time": -1},
            "[gpio]: 'hold_time': must be more than 0 (got -1); using the default",
            "[gpio]: 'hold_time': должно быть больше 0 (указано -1); взято значение по умолчанию",
        ),
        (
            {"hold_time": float("inf")},
            "[gpio]: 'hold_time': must be a finite number (got inf); using the default",
            "[gpio]: 'hold_time': должно быть конечным числом (указано inf); взято значение по умолчанию",
        ),
        (
            {"repeat_delay": 1e300},
            "[gpio]: 'repeat_delay': must be at most 10 (got 1e+300); using the default",
            "[gpio]: 'repeat_delay': должно быть не больше 10 (указано 1e+300); взято значение по умолчанию",
        ),
        (
            {"buzzer": 40},
            "[gpio]: 'buzzer': 40 is not a GPIO on the 40-pin header: BCM numbers go from 0 to 27; using the default",
            "[gpio]: 'buzzer': 40 — не GPIO на 40-контактном разъёме: номера BCM идут от 0 до 27; взято значение по умолчанию",
        ),
        (
            {"undo": 22, "select": 22},
            "[gpio]: undo and select are both GPIO22: undo keeps it, select is left at its default (GPIO13)",
            "[gpio]: undo и select — оба GPIO22: он остаётся за undo, select получает вывод по умолчанию (GPIO13)",
        ),
    ],
)
def test_a_gpio_typo_is_said_in_the_tables_language(
    table: dict[str, Any], english: str, russian: str
) -> None:
    buttons, feedback, notices = open_hands(table, WakingQueue(), "fake")
    buttons.close()
    feedback.close()
    assert said(notices) == [f"Check the configuration: {english}"]
    assert said(notices, "ru") == [f"Проверьте настройки: {russian}"]


def test_next_on_rolls_default_pin_leaves_roll_there_and_next_on_its_own() -> None:
    """``rol = 17`` (a typo) and ``next = 17``: ROLL is at its default GPIO17, so NEXT goes back to
    GPIO27 and every button still works."""
    buttons, feedback, notices = open_hands({"rol": 17, "next": 17}, WakingQueue(), "fake")
    buttons.close()
    feedback.close()
    assert said(notices) == [
        "Check the configuration: [gpio]: unknown key 'rol' ignored",
        "Check the configuration: [gpio]: roll and next are both GPIO17: roll keeps it, next is left at its default (GPIO27)",
    ]


def test_a_button_on_the_buzzers_default_pin_needs_no_buzzer_setting() -> None:
    """``roll = 18`` with no buzzer in the file: there is no buzzer, so GPIO18 is ROLL's."""
    buttons, feedback, notices = open_hands({"roll": 18}, WakingQueue(), "fake")
    buttons.close()
    feedback.close()
    assert notices == []


def test_the_screen_says_a_broken_configuration_and_tag_map_in_the_tables_language(
    tmp_path: Path,
) -> None:
    """A FIFO as tag map and a typo-ridden file: the kiosk comes up in Russian, says the first
    three problems, how many more, and that the tag map cannot be read."""
    fifo = tmp_path / "tags.fifo"
    os.mkfifo(fifo)
    path = tmp_path / "config.toml"
    path.write_text(
        f'language = "ru"\ntag_map = "{fifo}"\ndata_dir = "{tmp_path / "data"}"\n'
        + "".join(f"typo{n} = {n}\n" for n in range(5)),
        encoding="utf-8",
    )
    loaded = load(path)
    options = KioskOptions(
        db=tmp_path / "j.sqlite3",
        screenshots=tmp_path / "shots",
        size=(480, 320),
        config_warnings=loaded.problems,
    )
    with open_kiosk(loaded.config, options) as kiosk:
        kiosk.redraw()
        words = kiosk.ui.messages
    assert (
        words[0]
        == f"Карта меток {fifo} — не обычный файл: ни одна метка из неё не известна, пока её не исправят."
    )
    assert words[1:4] == [
        f"Проверьте настройки: {path}: неизвестный ключ 'typo{n}' пропущен" for n in range(3)
    ]
    assert words[4:] == ["…и ещё 2 ошибки в настройках: см. журнал."]
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()


# --------------------------------------------------------------------------------------------
# The fuzz trial

SECTIONS = {
    "": ["language", "data_dir", "journal", "tag_map"],
    "starting_life": ["commander", "standard", "brawl", "two_headed_giant"],
    "reader": ["port", "protocol", "presence_timeout"],
    "display": ["size", "fullscreen", "fb", "rotate", "diagonal", "fps", "font", "buttons"],
    "gpio": [
        "roll",
        "next",
        "undo",
        "select",
        "encoder_a",
        "encoder_b",
        "encoder_reverse",
        "buzzer",
        "led",
        "pull_up",
        "active_state",
        "debounce",
        "hold_time",
        "repeat",
        "repeat_delay",
        "repeat_interval",
    ],
    "event": ["broker", "port", "table", "password", "join"],
}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(12 if depth < 12 else 8)
    if kind == 0:
        return rng.choice(
            [0, 1, -1, 17, 27, 40, 99, 2**63, -(2**63) - 1, 10 ** rng.randrange(1, 4000)]
        )
    if kind == 1:
        return rng.choice(
            [0.0, -0.5, 0.01, 0.8, 1e300, -1e-300, float("inf"), float("-inf"), float("nan")]
        )
    if kind == 2:
        return rng.random() < 0.5
    if kind == 3:
        return rng.choice(
            [
                "",
                "x",
                "GPIO17",
                "gpio99",
                "BOARD11",
                "BOARD6",
                "J8:41",
                "480x320",
                "99999x1",
                "ru",
                "fake",
                "/dev/fb1",
                "~nobody/x",
                "a\0b",
                "\u202e\u0000",
                "١٧",
                "²",
                "BCM" + "9" * 5000,
            ]
        )
    if kind == 4:
        return "".join(
            chr(
                rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0xD7FF), 0x1F600, 9, 10, 0])
            )
            for _ in range(rng.choice([1, 10, 200, 2_000]))
        )
    if kind in (5, 6, 7):
        return rng.choice(["roll", "next", "undo", "select", 17, "GPIO5", 3.5, True])
    if kind in (8, 9):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        rng.choice(["a", "roll", "x y", "", "ü"]): random_value(rng, depth + 1)
        for _ in range(rng.randrange(3))
    }


def random_toml(rng: random.Random) -> bytes:
    lines: list[str] = []
    for section, keys in SECTIONS.items():
        if section and rng.random() < 0.4:
            continue
        if section:
            lines.append(f"[{section}]")
        for key in rng.sample(keys, rng.randrange(len(keys) + 1)):
            lines.append(f"{key} = {toml_value(random_value(rng))}")
        if rng.random() < 0.2:
            lines.append(
                f"{rng.choice(['rol', 'langauge', 'x'])} = {toml_value(random_value(rng))}"
            )
    data = ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")
    mutation = rng.randrange(10)
    if mutation == 0:  # bytes flipped, cut short, or bad UTF-8 put in
        spot = rng.randrange(len(data) or 1)
        data = data[:spot] + bytes([rng.randrange(256)]) + data[spot + 1 :]
    elif mutation == 1:
        data = data[: rng.randrange(len(data) + 1)]
    elif mutation == 2:
        data += rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\x00"])
    elif mutation == 3:
        n = rng.choice([9, 50, 500, 3000])
        data += f"deep = {'[' * n}{']' * n}\n[gpio]\nnest = {'{a=' * n}1{'}' * n}\n".encode()
    elif mutation == 4:
        data += b"# " + b"x" * rng.choice([10, LIMIT_KB * 1024]) + b"\n"
    return data


def random_tag_map(rng: random.Random, names: list[str]) -> bytes:
    """A tag map as hands and slips make them: UIDs in every spelling, names close to a card's,
    junk, bad UTF-8, lines cut short."""
    lines = []
    for _ in range(rng.randrange(12)):
        uid = "".join(f"{rng.randrange(256):02x}" for _ in range(rng.choice([4, 7, 10, 1, 40])))
        uid = rng.choice(
            [uid, ":".join(uid[i : i + 2] for i in range(0, len(uid), 2)), uid.upper(), "zz", ""]
        )
        name = rng.choice(names)
        name = rng.choice(
            [name, name.lower(), name[: rng.randrange(len(name) + 1)], "", "#", "x" * 5000]
        )
        gap = rng.choice(["  ", "\t", " ", ""])
        lines.append(f"{uid}{gap}{name}".encode())
    data = b"\n".join(lines)
    if rng.random() < 0.2:
        spot = rng.randrange(len(data) + 1)
        data = data[:spot] + rng.choice([b"\xff", b"\xef\xbb\xbf", b"\r", b"\x00"]) + data[spot:]
    return data


def special(tmp_path: Path, index: int) -> Path:
    """A path that is no regular file: a FIFO, a folder, a device, a link to one."""
    kind = index % 5
    path = tmp_path / f"special{index}"
    if kind == 0:
        os.mkfifo(path)
    elif kind == 1:
        path.mkdir()
    elif kind == 2:
        path.symlink_to("/dev/zero")
    elif kind == 3:
        path.symlink_to("/dev/null")
    else:
        path.symlink_to(path)  # a loop
    return path


def test_fuzzed_configurations_and_tag_maps_start_the_gadget(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """AETHERBOX_CONFIG_FUZZ configurations (1,000 in the suite) through start-up's own path:
    loaded, said in every language, [gpio] opened (fake buttons: the pins' checks all run), the
    paths start-up takes from it worked out; and as many tag maps, read and looked up.  Every
    50th of each is no regular file.  0 exceptions."""
    from device.catalog import load_catalog

    catalog = load_catalog()
    names = [card.name for card in catalog]
    rng = random.Random(32)
    failures: list[str] = []
    said_something = 0
    caplog.set_level(logging.CRITICAL)  # thousands of lines said on purpose
    for index in range(TRIALS):
        if index % 50 == 49:
            path = tags = special(tmp_path, index)
        else:
            path, tags = tmp_path / f"config{index}.toml", tmp_path / f"tags{index}.txt"
            path.write_bytes(random_toml(rng))
            tags.write_bytes(random_tag_map(rng, names))
        try:
            loaded = load(path)
            for language in LANGUAGES:
                said(loaded.problems, language)
            config = loaded.config
            in_use(loaded), config.journal_path(), config.tag_map_path(), config.resolved_data_dir()
            buttons, feedback, notices = open_hands(config.gpio, WakingQueue(), "fake")
            buttons.close()
            feedback.close()
            said(notices, rng.choice(LANGUAGES))
            said_something += bool(loaded.problems or notices)
            tag_map = TagMap(tags, catalog=catalog)
            tag_map.lookup("0101")
            [str(problem) for problem in tag_map.problems]
        except Exception as error:  # noqa: BLE001 - every exception is the failure counted here
            failures.append(f"{path.name}: {type(error).__name__}: {str(error)[:200]}")
    assert failures == [], f"{len(failures)} of {TRIALS}: {failures[:5]}"
    assert said_something > TRIALS // 2  # the generator reaches the checks


# --------------------------------------------------------------------------------------------
# Through the real process


@pytest.mark.parametrize(
    "case", ["nested 2,000 deep", "/dev/zero", "a FIFO", "a FIFO as tag map", "gpio typos"]
)
def test_the_real_kiosk_comes_up_and_says_what_is_wrong(tmp_path: Path, case: str) -> None:
    config = tmp_path / "config.toml"
    data = f'data_dir = "{tmp_path / "data"}"\n'
    expected = ""
    if case == "nested 2,000 deep":
        config.write_text(data + f"[gpio]\nroll = {'[' * 2000}{']' * 2000}\n", encoding="utf-8")
        expected = "nested more than 8 deep"
    elif case == "/dev/zero":
        config = Path("/dev/zero")
        expected = "/dev/zero is not a regular file; using defaults"
    elif case == "a FIFO":
        os.mkfifo(config)
        expected = "is not a regular file; using defaults"
    elif case == "a FIFO as tag map":
        os.mkfifo(tmp_path / "tags.txt")
        config.write_text(data + f'tag_map = "{tmp_path / "tags.txt"}"\n', encoding="utf-8")
        expected = "cannot read the tag map (not a regular file)"
    else:
        config.write_text(
            data + '[gpio]\nrol = 17\nroll = "x"\nhold_time = -1\nnext = 17\nbuzzer = 40\n',
            encoding="utf-8",
        )
        expected = "unknown key 'rol' ignored"
    done = run_kiosk(tmp_path, config)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and expected in done.stderr, done.stderr
    assert done.stderr.count(expected) == 1  # said once
    assert (tmp_path / "shots" / "frame-0001.png").exists()


def test_a_tag_map_of_names_longer_than_any_card_reads_at_once(tmp_path: Path) -> None:
    """Matching a 5,000-letter name loosely against every card took most of a second; a tag map
    of them would have held the start for minutes."""
    import time

    tags = tmp_path / "tags.txt"
    tags.write_text("".join(f"01:{n:02X}  {'x' * 5000}\n" for n in range(200)), encoding="utf-8")
    started = time.monotonic()
    read = TagMap(tags)
    assert time.monotonic() - started < 5
    assert len(read) == 0 and len(read.problems) == 200
    assert "is longer than any card's name" in str(read.problems[0])


def test_dev_null_is_how_one_says_no_configuration_or_tag_map() -> None:
    assert load(Path("/dev/null")).problems == ()
    assert TagMap(Path("/dev/null")).problems == ()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ru", "неизвестный ключ 'langauge'"),
        ("ja", "不明なキー 'langauge'"),
        ("en", "unknown key 'langauge'"),
    ],
)
def test_the_console_says_a_configurations_problems_in_its_language(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    language: str,
    words: str,
) -> None:
    """At the console the problems are the player's to read: in the language it plays in."""
    from display import cli

    config = tmp_path / "config.toml"
    config.write_text(f'language = "{language}"\nlangauge = "pl"\n', encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    status, _ = cli._main(["--config", str(config), "console", "--db", str(tmp_path / "j.sqlite3")])
    assert status == 0
    assert words in capsys.readouterr().err
