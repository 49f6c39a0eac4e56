"""``aetherbox`` is ``aetherbox kiosk``: every kiosk option the README lists works without the
word ``kiosk`` as with it, and the README's other command lines parse as written."""

from __future__ import annotations

import logging
import shlex
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from display import cli
from device.inputs import Button, ButtonPressed
from display.app import KioskOptions
from display.kiosk import Kiosk


def test_aetherbox_with_the_kiosk_options_and_no_command_runs_the_kiosk(tmp_path: Path) -> None:
    """``aetherbox --size 480x320 --language ru``, as the README says it may be written."""
    status = cli.main(
        [
            "--size",
            "480x320",
            "--language",
            "ru",
            "--screenshots",
            str(tmp_path / "shots"),
            "--frames",
            "1",
            "--db",
            str(tmp_path / "j.sqlite3"),
            "--seed",
            "3",
            "--buttons",
            "fake",
        ]
    )
    assert status == 0
    frame = pygame.image.load(str(tmp_path / "shots" / "frame-0001.png"))
    assert frame.get_size() == (480, 320)


#: The kiosk's options as the README lists them (``--fb`` and ``--fullscreen`` only parsed: they
#: need a panel or a screen).
KIOSK_LINES = (
    "--size 480x320 --language ru",
    "--size 800x480 --language ja --db game.sqlite3 --seed 7",
    "--reader --buttons auto",
    "--reader fake --buttons fake --language pl",
    "--reader /dev/ttyUSB0 --buttons gpio",
    "--fullscreen",
    "--fb /dev/fb1 --size 480x320",
    "--screenshots shots --language en",
)


@pytest.mark.parametrize("line", KIOSK_LINES)
def test_every_kiosk_option_means_the_same_with_and_without_the_word_kiosk(
    line: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[KioskOptions] = []

    def run(config: object, options: KioskOptions) -> int:
        seen.append(options)
        return 0

    monkeypatch.setattr("display.app.run_kiosk", run)
    for argv in (shlex.split(line), ["kiosk", *shlex.split(line)]):
        assert cli.main(["--config", "/dev/null", *argv]) == 0
    assert len(seen) == 2 and seen[0] == seen[1]
    assert seen[0] != KioskOptions()


def test_the_kiosk_options_arrive_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[KioskOptions] = []
    monkeypatch.setattr("display.app.run_kiosk", lambda config, options: seen.append(options) or 0)
    assert (
        cli.main(
            [
                "--size",
                "480x320",
                "--language",
                "ru",
                "--reader",
                "--buttons",
                "fake",
                "--seed",
                "7",
                "--fullscreen",
                "--db",
                "g.sqlite3",
                "--fb",
                "/dev/fb1",
                "--screenshots",
                "shots",
            ]
        )
        == 0
    )
    assert seen == [
        KioskOptions(
            db=Path("g.sqlite3"),
            seed=7,
            size=(480, 320),
            fullscreen=True,
            fb=Path("/dev/fb1"),
            screenshots=Path("shots"),
            language="ru",
            reader="auto",
            buttons="fake",
        )
    ]


def test_a_kiosk_option_before_another_command_is_refused_with_what_to_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["--db", "game.sqlite3", "console"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "aetherbox: error: --db before 'console' is a kiosk option: put the options of 'console' after it "
        "('aetherbox console --help' lists them)"
    )


def test_config_and_debug_are_taken_after_any_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--config PATH`` (the README's "Where data lives") after the command as well as before it."""
    config = tmp_path / "config.toml"
    config.write_text('language = "xx"\n', encoding="utf-8")
    script = tmp_path / "commands.txt"
    script.write_text("new Ann Bob first=Ann\n", encoding="utf-8")
    db = tmp_path / "j.sqlite3"
    assert (
        cli.main(["console", str(script), "--db", str(db), "--config", str(config), "--debug"]) == 0
    )
    warning = capsys.readouterr().err.splitlines()[0]
    assert warning.startswith("aetherbox: warning: ") and "language" in warning
    assert (
        cli.main(
            ["--config", str(config), "console", str(script), "--db", str(tmp_path / "k.sqlite3")]
        )
        == 0
    )
    assert capsys.readouterr().err.splitlines()[0] == warning


#: Every other command line the README shows, as written (FILE, DIR, PORT filled in).
README_LINES = (
    "console",
    "console game.txt --db game.sqlite3 --seed 3 --reader fake",
    "console --reader",
    "console --reader /dev/ttyUSB0",
    "catalog import oracle-cards-20250601.json",
    "catalog import oracle-cards-20250601.json --images pictures",
    "catalog import oracle-cards-20250601.json --images",
    "catalog import -",
    "catalog fetch",
    "catalog fetch --no-images --quiet --api URL",
    "enroll --port /dev/ttyUSB0 --protocol rdm6300 --fake --tags tags.txt",
    "enroll --deck deck.txt",
    "enroll --all-planes",
    "enroll --set OPC2",
    "enroll --contraptions",
    "reader monitor --port /dev/ttyUSB0 --seconds 5 --raw --baud 9600",
    "firmware upload --port /dev/ttyACM0 --dry-run",
    "kiosk",
    "event host Spring Ann Ben Cid Dan tables=table1,table2 time_limit=60",
    "event host Spring Ann Ben Cid --db organiser.sqlite3 --seed 7",
)


@pytest.mark.parametrize("line", README_LINES)
def test_the_readme_command_lines_parse(line: str) -> None:
    parser = cli.build_parser()
    args = cli.kiosk_arguments(parser, parser.parse_args(shlex.split(line)))
    assert args.command == line.split()[0]


@pytest.fixture
def no_gpio(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """gpiozero finds no pin library (as on a laptop, or a Pi without lgpio); yields the file
    that stands in for the device tree's model (absent: not a Pi)."""
    from gpiozero import Device

    from drivers import gpio

    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuchfactory")
    model = tmp_path / "model"
    monkeypatch.setattr(gpio, "MODEL_FILES", (model,))
    try:
        yield model
    finally:
        Device.pin_factory = saved


def _start(tmp_path: Path) -> int:
    """``aetherbox`` started as on a desktop (a window, buttons ``auto``), for one frame."""
    return cli.main(
        [
            "--config",
            "/dev/null",
            "--size",
            "480x320",
            "--frames",
            "1",
            "--db",
            str(tmp_path / "j.sqlite3"),
        ]
    )


def test_a_laptop_start_says_nothing_about_gpio(
    no_gpio: Path,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Buttons ``auto`` off a Raspberry Pi means the keys: nothing to warn about."""
    with caplog.at_level(logging.DEBUG):
        assert _start(tmp_path) == 0
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert "not a Raspberry Pi: keys stand in for the buttons" in caplog.text
    assert capsys.readouterr().err == ""


def test_a_pi_start_without_the_pin_library_warns_in_one_line(
    no_gpio: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    no_gpio.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    with caplog.at_level(logging.WARNING):
        assert _start(tmp_path) == 0
    assert [r.getMessage() for r in caplog.records] == [
        "GPIO buttons unavailable on this Raspberry Pi 5 Model B Rev 1.0, using the keyboard: no GPIO pins "
        "(BadPinFactory: Unable to find pin factory 'nosuchfactory'); on a Raspberry Pi install lgpio from the OS: sudo apt install python3-lgpio, "
        "and run aetherbox from the system's Python or a venv made with "
        "'python3 -m venv --system-site-packages' (systemd/install.sh does both)"
    ]


def test_buttons_gpio_without_gpio_is_one_warning_and_the_keys_play(
    no_gpio: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Asked for GPIO buttons where none can open (HW-5): said in one line, and the kiosk runs
    with the keys rather than stopping, as it would at every start under the service."""
    with caplog.at_level(logging.WARNING):
        assert (
            cli.main(
                [
                    "--config",
                    "/dev/null",
                    "--buttons",
                    "gpio",
                    "--size",
                    "480x320",
                    "--frames",
                    "1",
                    "--db",
                    str(tmp_path / "j.sqlite3"),
                ]
            )
            == 0
        )
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "buttons: no GPIO pins (BadPinFactory: Unable to find pin factory 'nosuchfactory'); "
        "on a Raspberry Pi install lgpio from the OS: sudo apt install python3-lgpio, "
        "and run aetherbox from the system's Python or a venv made with "
        "'python3 -m venv --system-site-packages' (systemd/install.sh does both); the keys and touch still play"
    ]


def test_the_kiosk_starts_without_the_reader_tools_and_help_still_lists_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The tools' modules (and the reader drivers they bring) load only for their commands."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from display import cli\n"
        "assert not cli.wants_tools(['kiosk', '--size', '480x320'])\n"
        "cli.build_parser(tools=False).parse_args(['kiosk', '--size', '480x320'])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('firmware_tools', 'drivers.rfid'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    assert cli.wants_tools(["enroll"]) and cli.wants_tools(["--help"])
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    listed = capsys.readouterr().out
    assert all(tool in listed for tool in cli.TOOLS)
    with pytest.raises(SystemExit):
        cli.main(["enroll", "--help"])
    assert "--fake" in capsys.readouterr().out  # the tool's own options


def test_the_console_plays_without_the_screen_or_the_reader(tmp_path: Path) -> None:
    """``aetherbox console`` loads neither pygame nor the screen's modules, and without
    ``--reader`` neither the reader's drivers nor the reader tools."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from display import cli\n"
        f"assert cli.main(['console', '--db', {str(tmp_path / 'j.sqlite3')!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith(('pygame', 'display.', 'drivers', 'firmware_tools'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input="new A B first=A\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.splitlines() == [
        "New game (Free-for-all) for A, B, 20 life. A goes first.",
        "['display.cli']",
    ]


def test_a_signal_taken_by_another_thread_still_stops_the_sleeping_loop(
    make_kiosk: Callable[..., Kiosk],
) -> None:
    """The kernel may hand SIGTERM to any thread (the journal's check, a driver's); the loop,
    asleep with nothing timed, must still end at once — not at the next press."""
    import signal
    import threading
    import time

    from display.app import Stopping, stopping_on_signals

    kiosk = make_kiosk()
    stopping = Stopping()
    stopping.kiosk, stopping.running = kiosk, True
    kiosk.ui.messages_until = None
    kiosk.redraw()
    assert kiosk.deadline() is None
    bystander = threading.Thread(target=time.sleep, args=(3,))
    bystander.start()
    rescue = threading.Timer(
        5, kiosk.inputs.put, (ButtonPressed(Button.UNDO),)
    )  # ends a stuck test
    rescue.start()
    try:
        with stopping_on_signals(stopping):
            threading.Timer(0.2, signal.pthread_kill, (bystander.ident, signal.SIGTERM)).start()
            began = time.monotonic()
            while kiosk.step():
                pass
            took = time.monotonic() - began
    finally:
        rescue.cancel()
        bystander.join()
    assert took < 2


def test_event_host_without_a_broker_says_what_to_configure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``aetherbox event host`` needs the organiser's login at a broker: without one it stops at
    once, saying where to set it."""
    status = cli.main(
        [
            "event",
            "host",
            "Spring",
            "Ann",
            "Ben",
            "Cid",
            "--db",
            str(tmp_path / "j.sqlite3"),
            "--config",
            "/dev/null",
        ]
    )
    assert status == 1
    assert capsys.readouterr().err == (
        "aetherbox: error: no broker is set up: name it and this gadget's login under [event] in the configuration "
        '(broker = "…", table = "organiser", password = "…"); see the README, "Events across tables"\n'
    )
