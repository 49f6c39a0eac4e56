"""HW-5, HW-1: no configuration or GPIO library error keeps the table dark.

A typo under ``[gpio]`` leaves that key at its default and says so; settings that cannot go
together, a pin library that cannot open the chip (plain Debian on a Pi: RPi.GPIO's "No access to
/dev/mem") leave the GPIO buttons off, said on the screen and in the log, with the keys and the
touch screen still playing — never a kiosk that exits at every start under ``Restart=always``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygame
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from device.config import Config
from device.inputs import Button, ButtonPressed
from device.text import Message
from display.app import KioskOptions, open_hands, open_kiosk
from display.i18n import Translator
from display.kiosk.waking import WakingQueue
from helpers import run_kiosk
from drivers.gpio import FakeButtons, GpioButtons, lgpio_hint


class DevMemFactory(MockFactory):
    """A pin library that loads but cannot open a pin: RPi.GPIO on a Pi without /dev/gpiomem."""

    def pin(self, spec: object, **kwargs: object) -> object:
        raise RuntimeError("No access to /dev/mem.  Try running as root!")


def said(messages: list[Message]) -> list[str]:
    return [Translator("en").message(m) for m in messages]


def test_hw5_a_typo_under_gpio_is_said_and_its_default_used(mock_factory: MockFactory) -> None:
    inputs = WakingQueue()
    buttons, feedback, notices = open_hands(
        {"rol": 17, "roll": "x", "hold_time": -1, "next": 27}, inputs, "gpio"
    )
    try:
        assert isinstance(buttons, GpioButtons)
        text = " ".join(said(notices))
        assert (
            text.startswith("Check the configuration: [gpio]:")
            and "[gpio]: unknown key 'rol' ignored" in text
        )
        assert "[gpio]: 'roll': 'x' is not a pin" in text and "'hold_time'" in text
        mock_factory.pin(17).drive_low()  # the default ROLL pin, since 'x' is none
        time.sleep(0.15)  # held past the debounce window
        mock_factory.pin(17).drive_high()
        assert inputs.get(timeout=2) == ButtonPressed(Button.ROLL)
    finally:
        buttons.close()
        feedback.close()


def test_hw5_a_bad_buzzer_pin_drives_no_other_pin(mock_factory: MockFactory) -> None:
    """``buzzer = 40`` is a ground pin: the buzzer is off, not moved to the default GPIO18 that
    may be wired to something else."""
    inputs = WakingQueue()
    buttons, feedback, notices = open_hands({"buzzer": 40}, inputs, "gpio")
    try:
        assert "'buzzer'" in " ".join(said(notices))
        assert mock_factory.pin(18).function == "input"  # never made an output
    finally:
        buttons.close()
        feedback.close()


def test_hw5_two_keys_on_one_pin_keep_the_first_and_move_the_second_to_its_default(
    mock_factory: MockFactory,
) -> None:
    """Issue 32: ``next = 17`` beside ROLL's 17 costs one button, not all of them: ROLL keeps
    GPIO17, NEXT goes back to its own GPIO27, and the screen says so."""
    inputs = WakingQueue()
    buttons, feedback, notices = open_hands({"roll": 17, "next": 17}, inputs, "gpio")
    try:
        assert isinstance(buttons, GpioButtons)
        assert said(notices) == [
            (
                "Check the configuration: [gpio]: roll and next are both GPIO17: roll keeps it, "
                "next is left at its default (GPIO27)"
            )
        ]
        for pin, button in ((17, Button.ROLL), (27, Button.NEXT)):
            mock_factory.pin(pin).drive_low()
            time.sleep(0.15)
            mock_factory.pin(pin).drive_high()
            assert inputs.get(timeout=2) == ButtonPressed(button)
    finally:
        buttons.close()
        feedback.close()


def test_hw5_settings_that_cannot_go_together_leave_the_buttons_off_and_the_keys_on(
    mock_factory: MockFactory,
) -> None:
    """ROLL and NEXT both on GPIO27, NEXT's own pin: no pin is left for NEXT, so the buttons are
    off and the keys play."""
    inputs = WakingQueue()
    buttons, feedback, notices = open_hands({"roll": 27, "next": 27}, inputs, "gpio")
    try:
        assert isinstance(buttons, FakeButtons) and buttons.running
        assert said(notices) == [
            "The GPIO buttons are off ([gpio]: roll (27) and next (27) are both GPIO27: give each its own pin). "
            "The keys and the touch screen still play."
        ]
    finally:
        buttons.close()
        feedback.close()


def test_hw5_a_pin_library_that_cannot_open_the_chip_leaves_the_buttons_off() -> None:
    """RPi.GPIO's RuntimeError (no /dev/mem) is no gpiozero error: it too is said, and the table
    plays with the keys."""
    saved = Device.pin_factory
    Device.pin_factory = DevMemFactory()
    try:
        inputs = WakingQueue()
        buttons, feedback, notices = open_hands({}, inputs, "gpio")
        assert isinstance(buttons, FakeButtons)
        text = " ".join(said(notices))
        assert "The GPIO buttons are off" in text and "No access to /dev/mem" in text
        buttons.close()
        feedback.close()
    finally:
        Device.pin_factory = saved


def test_hw5_lgpio_installed_but_failing_is_not_told_to_install_lgpio(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: object() if name == "lgpio" else real(name, *a),
    )
    assert "apt install" not in lgpio_hint() and "'gpio' group" in lgpio_hint()
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "lgpio" else real(name, *a)
    )
    assert "sudo apt install python3-lgpio" in lgpio_hint()


def test_hw5_the_kiosk_says_what_start_up_left_out_on_its_status_line(
    tmp_path: Path, mock_factory: MockFactory
) -> None:
    config = Config(gpio={"rol": 17})
    options = KioskOptions(
        db=tmp_path / "j.sqlite3", screenshots=tmp_path / "shots", buttons="gpio", size=(480, 320)
    )
    with open_kiosk(config, options) as kiosk:
        kiosk.redraw()
        assert any("unknown key 'rol' ignored" in m for m in kiosk.ui.messages)
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()


@pytest.mark.parametrize(
    "table",
    [
        'rol = 17\nroll = "x"\nhold_time = -1\n',
        'roll = "GPIO99"\n',
        "roll = 17\nnext = 17\n",
        "buzzer = 40\n",
    ],
)
def test_hw5_the_real_process_starts_with_a_gpio_typo_and_says_it(
    tmp_path: Path, table: str
) -> None:
    """What the service runs, with a typo under [gpio]: it draws its frames, exits 0 when told,
    and says what it left out — with no GPIO on this machine as well as with one."""
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{tmp_path / "data"}"\n[gpio]\n{table}', encoding="utf-8")
    done = run_kiosk(tmp_path, config, buttons="gpio")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (
        "aetherbox: warning:" in done.stderr
        and "[gpio]" in done.stderr
        or "buttons:" in done.stderr
    )
    assert (tmp_path / "shots" / "frame-0001.png").exists()


@pytest.mark.parametrize(
    "fault", ["journal a folder", "data folder a file", "journal from a newer aetherbox"]
)
def test_hw5_saved_games_that_cannot_be_kept_leave_the_table_playing_and_say_so(
    tmp_path: Path, fault: str
) -> None:
    """HW-5: an SD card turned read-only or full, a journal that is a folder, one a newer aetherbox
    wrote: the kiosk comes up, plays (on a journal in memory) and says on the screen that the
    games are not saved, with the configuration's typos, instead of leaving at every start; the
    data folder is left as it was."""
    import sqlite3

    from device.commands import ChangeLife, NewGame

    data = tmp_path / "data"
    journal = data / "games" / "aetherbox.sqlite3"
    if fault == "journal a folder":
        journal.mkdir(parents=True)
    elif fault == "data folder a file":
        data.write_text("not a folder", encoding="utf-8")
    else:
        journal.parent.mkdir(parents=True)
        db = sqlite3.connect(journal)
        db.execute("PRAGMA application_id=1095062600")  # an aetherbox journal…
        db.execute("PRAGMA user_version=99")  # …of a version this one does not know
        db.execute("CREATE TABLE games (id INTEGER)")
        db.close()
    before = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*"))
    options = KioskOptions(
        screenshots=tmp_path / "shots",
        size=(480, 320),
        config_warnings=("config.toml: unknown key 'langauge' ignored",),
    )
    with open_kiosk(Config(data_dir=str(data)), options) as kiosk:
        kiosk.redraw()
        words = " ".join(kiosk.ui.messages)
        # What to do depends on what is wrong: a restart alone meets the same thing again.
        expected = {
            "journal a folder": f"Games are not being saved: {journal} is a folder where the saved games belong. "
            "Move it aside, then restart",
            "data folder a file": f"Games are not being saved: {data} is a file where the saved games belong.",
            "journal from a newer aetherbox": "Games are not being saved: they were written by a newer aetherbox. "
            "Update aetherbox, then restart",
        }[fault]
        assert expected in words
        assert "Check the configuration: config.toml: unknown key 'langauge' ignored" in words
        kiosk.execute(NewGame(players=("Ann", "Bob"), first="Ann"))
        kiosk.execute(ChangeLife(seat=1, delta=-3))
        assert kiosk.state is not None and kiosk.state.players[1].life == 17
    after = sorted(
        str(p.relative_to(tmp_path))
        for p in tmp_path.rglob("*")
        if "shots" not in p.parts and p.suffix != ".lock"
    )  # the journal's lock file aside
    assert after == before
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
