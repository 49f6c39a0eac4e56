"""HW-5, HW-4: the gadget survives a missing or lost screen and a missing reader.

Under systemd the kiosk waits for a screen that is not there, with a growing pause (1, 2, 5, 10,
20, then every 30 s), one log line per change, systemd's watchdog fed and READY sent once the
journal is checked; a screen lost while running is closed and reopened with the game untouched.
Time is a fake clock: no test here sleeps for real beyond a few milliseconds.
"""

from __future__ import annotations

import logging
import os
import random
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from device.commands import NewGame
from device.config import Config, ReaderConfig
from device.controller import Controller
from device.inputs import Button, ButtonPressed, ReaderStatus
from device.journal import Journal
from device.notify import Notifier, Watchdog
from display.app import KioskOptions, open_kiosk
from display.kiosk import Kiosk
from display.targets import KMS_CHECKS, NoScreen, OffscreenTarget, ScreenKeeper, Target, open_target
from scenes import PLAYERS, texts

MakeKiosk = Callable[..., Kiosk]
LOGGER = "display.targets"


class FakeTime:
    """A monotonic clock that only moves when ``sleep`` is called; records every sleep."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []
        self.on_sleep: Callable[[int], None] | None = None

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if len(self.sleeps) > 10_000:
            raise AssertionError("still waiting after 10,000 pauses")  # fail, never hang
        self.sleeps.append(seconds)
        self.now += seconds
        if self.on_sleep is not None:
            self.on_sleep(len(self.sleeps))


class Recorder(Notifier):
    """A notifier that keeps what it would have sent."""

    def __init__(self) -> None:
        super().__init__("/nowhere")
        self.sent: list[str] = []

    def send(self, *fields: str) -> bool:
        self.sent.append("\n".join(fields))
        return True


class Flaky:
    """An opener that fails ``failures`` times (with ``reasons`` in turn), then opens offscreen
    (SDL's dummy driver standing in for the screen that came back)."""

    def __init__(self, failures: int, reasons: tuple[str, ...] = ("kmsdrm not available",)) -> None:
        self.failures = failures
        self.reasons = reasons
        self.calls = 0

    def __call__(self) -> Target:
        self.calls += 1
        if self.calls <= self.failures:
            raise NoScreen(self.reasons[min(self.calls, len(self.reasons)) - 1])
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        return OffscreenTarget((480, 320))


def lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LOGGER]


def kmsdrm() -> None:
    """SDL's video down and the service's driver asked for, as on a Pi whose screen is missing."""
    pygame.display.quit()
    os.environ["SDL_VIDEODRIVER"] = "kmsdrm"


@pytest.fixture(autouse=True)
def _video_restored() -> Iterator[None]:
    yield
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()


def test_hw5_a_missing_screen_is_retried_with_growing_pauses_and_said_once(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seven failed attempts: pauses 1, 2, 5, 10, 20, 30, 30 s; two log lines, not eight; the
    watchdog pinged at least every half interval of the wait; STATUS= says what it waits for."""
    caplog.set_level(logging.WARNING)
    # SDL's libraries are there, whatever this machine has: the screen is what is missing.
    monkeypatch.setattr("display.targets.missing_kms_libraries", lambda: ())
    fake, notifier = FakeTime(), Recorder()
    watchdog = Watchdog(notifier, interval=4.0)
    keeper = ScreenKeeper(
        Flaky(7), sleep=fake.sleep, clock=fake.clock, watchdog=watchdog, notifier=notifier
    )
    kmsdrm()
    target = keeper.open()
    assert target.name == "offscreen (480, 320)"
    assert keeper.waited and keeper.problem is None and keeper.attempts == 0
    assert sum(fake.sleeps) == pytest.approx(1 + 2 + 5 + 10 + 20 + 30 + 30)
    assert max(fake.sleeps) <= 2.0  # slices of the watchdog's half interval
    assert lines(caplog) == [
        "display: no screen (SDL video driver 'kmsdrm': kmsdrm not available); trying again every 1 to 30 s: "
        + KMS_CHECKS,
        "display: screen open after 7 failed attempts: offscreen (480, 320)",
    ]
    assert (
        "HDMI cable" in KMS_CHECKS
        and "dtoverlay=vc4-kms-v3d" in KMS_CHECKS
        and "'video' and 'render'" in KMS_CHECKS
    )
    pings = notifier.sent.count("WATCHDOG=1")
    assert pings >= 98 / 2
    assert [m for m in notifier.sent if m != "WATCHDOG=1"] == [
        "STATUS=waiting for the screen: kmsdrm not available",
        "STATUS=kiosk running",
    ]


def test_hw5_a_new_reason_is_a_new_line(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    fake = FakeTime()
    flaky = Flaky(
        3,
        (
            "kmsdrm not available",
            "Could not open DRM device: permission denied",
            "Could not open DRM device: permission denied",
        ),
    )
    kmsdrm()
    ScreenKeeper(flaky, sleep=fake.sleep, clock=fake.clock).open()
    said = lines(caplog)
    assert len(said) == 3
    assert said[1].startswith(
        "display: still no screen, now (SDL video driver 'kmsdrm': Could not open DRM "
        "device: permission denied)"
    )
    assert fake.sleeps == [1.0, 2.0, 5.0]


@pytest.mark.skipif(
    Path("/dev/dri").exists(), reason="needs a machine without KMS/DRM, where SDL's kmsdrm fails"
)
def test_hw4_the_real_window_target_is_retried_until_sdl_can_open_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """SDL's own failure: ``SDL_VIDEODRIVER=kmsdrm`` on a machine without DRM, until (after the
    second pause) the driver is one that works."""
    caplog.set_level(logging.WARNING)
    kmsdrm()
    fake = FakeTime()

    def plug_in(count: int) -> None:
        if count == 2:
            os.environ["SDL_VIDEODRIVER"] = "dummy"

    fake.on_sleep = plug_in
    keeper = ScreenKeeper(
        lambda: open_target(size=(320, 240), fullscreen=False, fb=None, screenshots=None),
        sleep=fake.sleep,
        clock=fake.clock,
    )
    target = keeper.open()
    try:
        assert target.name == "dummy window (320, 240)"
        assert fake.sleeps == [1.0, 2.0]
        assert lines(caplog)[0].startswith(
            "display: no screen (SDL video driver 'kmsdrm': kmsdrm not available)"
        )
        assert (
            lines(caplog)[1]
            == "display: screen open after 2 failed attempts: dummy window (320, 240)"
        )
    finally:
        target.close()


def _game_in(path: Path) -> str:
    with Journal(path) as journal:
        controller = Controller(journal, rng=random.Random(3))
        controller.execute(
            NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0])
        )
        assert controller.state is not None
        return controller.state.model_dump_json()


@pytest.fixture
def systemd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify"))
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    yield sock
    sock.close()


def received(sock: socket.socket) -> list[str]:
    got = []
    while True:
        try:
            got.append(sock.recv(4096).decode())
        except BlockingIOError:
            return got


def test_hw5_the_service_is_ready_before_the_screen_and_resumes_the_game_when_it_comes(
    tmp_path: Path, systemd: socket.socket, caplog: pytest.LogCaptureFixture
) -> None:
    """Under systemd: READY once the journal is checked (with the reason it waits), watchdog
    pings while it waits, STATUS once the screen is there, and the game exactly as it was."""
    caplog.set_level(logging.WARNING)
    db = tmp_path / "games" / "aetherbox.sqlite3"
    before = _game_in(db)
    fake = FakeTime()
    flaky = Flaky(4)
    options = KioskOptions(db=db, buttons="fake", language="en")
    kmsdrm()
    with open_kiosk(Config(), options, opener=flaky, sleep=fake.sleep, clock=fake.clock) as kiosk:
        assert flaky.calls == 5 and sum(fake.sleeps) == pytest.approx(1 + 2 + 5 + 10)
        assert kiosk.reopen is not None  # a screen lost later is waited for too
        kiosk.redraw()
        assert kiosk.state is not None and kiosk.state.model_dump_json() == before
        assert texts(kiosk, "header.headline") != ["No game running"]
    messages = received(systemd)
    assert messages[0] == "READY=1\nSTATUS=waiting for the screen: kmsdrm not available"
    assert messages.count("WATCHDOG=1") >= 18 / 5
    assert [m for m in messages[1:] if m != "WATCHDOG=1"] == ["STATUS=kiosk running", "STOPPING=1"]
    assert len(lines(caplog)) == 2


def test_hw4_at_a_keyboard_no_screen_is_an_error_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without systemd nobody reads a log: no screen says what to do instead, straight away."""
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    fake = FakeTime()
    options = KioskOptions(db=tmp_path / "j.sqlite3", buttons="fake")
    with pytest.raises(NoScreen, match="aetherbox console"):
        with open_kiosk(Config(), options, opener=Flaky(1), sleep=fake.sleep, clock=fake.clock):
            pass
    assert fake.sleeps == []


def started(make_kiosk: MakeKiosk) -> Kiosk:
    kiosk = make_kiosk()
    kiosk.execute(NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0]))
    kiosk.redraw()
    return kiosk


class BrokenFlip(OffscreenTarget):
    """A screen whose next flip fails the way SDL reports a lost KMS/DRM output."""

    def present(self) -> bool:
        raise pygame.error("kmsdrm: page flip failed")


def test_hw4_a_screen_lost_while_drawing_is_closed_and_reopened_with_the_game_kept(
    make_kiosk: MakeKiosk, caplog: pytest.LogCaptureFixture
) -> None:
    """The flip fails mid-game: the kiosk closes the target, waits for a new one (two failed
    attempts here), drops the press made while the screen was dark, and plays on."""
    caplog.set_level(logging.WARNING)
    kiosk = started(make_kiosk)
    before = kiosk.state
    fake = FakeTime()
    flaky = Flaky(2)

    def dark_press(count: int) -> None:
        kiosk.inputs.put(ButtonPressed(Button.NEXT))  # someone presses NEXT at a black screen
        if count == 1:
            kiosk.inputs.put(ReaderStatus(False, "/dev/ttyUSB0", "rdm6300", "unplugged"))

    fake.on_sleep = dark_press
    keeper = ScreenKeeper(flaky, sleep=fake.sleep, clock=fake.clock)
    kiosk.reopen = keeper.reopen
    kiosk.retarget(BrokenFlip((800, 480)))
    kiosk.step(block=False)
    assert kiosk.screen_losses == 1
    assert kiosk.target.name == "offscreen (480, 320)" and fake.sleeps == [1.0, 2.0]
    kiosk.settle()
    assert kiosk.state == before  # the journal's game, untouched; NEXT pressed in the dark dropped
    assert texts(kiosk, "status.reader") == [
        "reader disconnected"
    ]  # the reader's status still counts
    said = lines(caplog)
    assert said[0] == (
        "display: screen lost while running (SDL video driver 'dummy': kmsdrm: page flip failed); the game is "
        "kept and the screen reopened when it can be: " + KMS_CHECKS
    )
    assert said[1].startswith("display: still no screen, now (SDL video driver")
    assert said[2] == "display: screen open after 2 failed attempts: offscreen (480, 320)"
    assert [r.getMessage() for r in caplog.records if r.name == "display.kiosk"] == [
        "display: 2 presses made while there was no screen dropped"
    ]
    kiosk.inputs.put(ButtonPressed(Button.NEXT))
    kiosk.settle()
    assert kiosk.state is not None and kiosk.state.step.value == "main"  # and the game goes on


def test_hw4_sdl_video_gone_from_the_event_queue_is_reopened(make_kiosk: MakeKiosk) -> None:
    """SDL's video shut down under the loop ("video system not initialized" from its event
    queue): reopened at once when the screen is there."""
    kiosk = started(make_kiosk)
    before = kiosk.state
    keeper = ScreenKeeper(lambda: OffscreenTarget((800, 480)), sleep=FakeTime().sleep)
    kiosk.reopen = keeper.reopen
    pygame.display.quit()
    assert kiosk.step(block=False)
    assert kiosk.screen_losses == 1 and pygame.display.get_init()
    assert kiosk.state == before and kiosk.frames >= 2


def test_hw4_without_a_keeper_a_lost_screen_ends_the_loop_with_sdls_error(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = started(make_kiosk)
    kiosk.retarget(BrokenFlip((800, 480)))
    with pytest.raises(pygame.error, match="page flip failed"):
        kiosk.step(block=False)


def test_hw2_a_configured_reader_that_is_missing_leaves_the_kiosk_running_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HW-2: the reader is optional; configured but unplugged, the kiosk runs and its status
    line says the reader is disconnected."""
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    config = Config(reader=ReaderConfig(port=str(tmp_path / "ttyUSB9"), protocol="rdm6300"))
    options = KioskOptions(db=tmp_path / "j.sqlite3", screenshots=tmp_path / "shots", language="en")
    with open_kiosk(config, options) as kiosk:
        kiosk.redraw()
        give_up = time.monotonic() + 10
        while (
            texts(kiosk, "status.reader") != ["reader disconnected"] and time.monotonic() < give_up
        ):
            time.sleep(0.01)
            kiosk.step(block=False)
        assert texts(kiosk, "status.reader") == ["reader disconnected"]
        assert kiosk.step(block=False)  # still running


def test_a_configured_broker_out_of_reach_leaves_the_kiosk_running_on_the_event_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """[event] names a broker nobody answers at: the kiosk starts all the same, on the EVENT
    screen (it has joined no event), and its link keeps trying in the background."""
    from device.config import EventConfig
    from mosquitto import free_port

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    config = Config(
        event=EventConfig(broker="127.0.0.1", port=free_port(), table="table1", password="x")
    )
    options = KioskOptions(db=tmp_path / "j.sqlite3", screenshots=tmp_path / "shots", language="en")
    with open_kiosk(config, options) as kiosk:
        kiosk.redraw()
        assert kiosk.ui.screen == "event"
        assert texts(kiosk, "event.heading") == [
            "This gadget is table table1 and is in no event yet · the broker is out of reach"
        ]
        assert kiosk.step(block=False)


def test_hw2_no_reader_configured_runs_without_one_and_says_nothing_of_it(tmp_path: Path) -> None:
    options = KioskOptions(db=tmp_path / "j.sqlite3", screenshots=tmp_path / "shots", language="en")
    with open_kiosk(Config(), options) as kiosk:
        kiosk.redraw()
        assert texts(kiosk, "status.reader") == []


def test_hw5_a_recovered_journal_is_said_on_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """HW-5: the kiosk that found its journal damaged and resumed from the backup says so on the
    status line, in the table's language, until the next change — not only in the log."""
    import random

    from device.commands import ChangeLife
    from device.controller import Controller
    from device.journal import Journal

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    data_dir = tmp_path / "data"
    path = data_dir / "games" / "aetherbox.sqlite3"
    with Journal(path) as journal:
        controller = Controller(journal, rng=random.Random(1))
        controller.execute(NewGame(players=("Ann", "Bo"), first="Ann"))
        controller.execute(ChangeLife(seat=1, delta=-1))
    data = bytearray(path.read_bytes())
    at = data.find(b'"delta":-1')
    data[at + 9] = ord("7")
    path.write_bytes(bytes(data))
    options = KioskOptions(screenshots=tmp_path / "shots", language="ru", buttons="fake")
    with open_kiosk(Config(data_dir=data_dir), options) as kiosk:
        kiosk.redraw()
        said = " ".join(texts(kiosk, "status.messages"))
        assert said.startswith("Сохранённые игры повреждены"), said
        assert (
            kiosk.state is not None and kiosk.state.player(1).life == 19
        )  # the backup at the clean exit


def test_hw5_a_screen_the_services_device_list_bars_asks_for_a_new_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A boot where the service starts before the GPU's driver: systemd drew up the device list
    (DeviceAllow=char-drm) without the driver's number, and /dev/dri/card0, there now, answers
    EPERM.  Waiting cannot help; the kiosk says why and exits for the service to start again."""
    import errno

    from display.app import RESTART, run_kiosk
    from display.targets import ScreenBarred, barred_screen

    dri = tmp_path / "dri"
    dri.mkdir()
    (dri / "card0").write_bytes(b"")
    (dri / "renderD128").write_bytes(b"")
    real_open = os.open

    def device_list(path: object, flags: int, *rest: object) -> int:
        if str(path).endswith("card0"):
            raise PermissionError(errno.EPERM, "Operation not permitted", str(path))
        return real_open(path, flags, *rest)  # type: ignore[arg-type]

    assert barred_screen(dri) is None  # a file it may open is no barred screen
    monkeypatch.setattr(os, "open", device_list)
    assert barred_screen(dri) == dri / "card0"
    monkeypatch.setattr(
        os, "open", lambda p, *a: (_ for _ in ()).throw(PermissionError(errno.EACCES, "denied"))
    )
    assert barred_screen(dri) is None  # the 'video' group missing is a hint, not a restart
    monkeypatch.setattr(os, "open", device_list)

    keeper = ScreenKeeper(Flaky(5), sleep=FakeTime().sleep, barred=lambda: barred_screen(dri))
    with pytest.raises(ScreenBarred, match="appeared after the service started"):
        keeper.first()

    import display.targets as targets

    monkeypatch.setattr(targets, "barred_screen", lambda: dri / "card0")
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    kmsdrm()
    caplog.set_level(logging.WARNING)
    status = run_kiosk(Config(), KioskOptions(db=tmp_path / "j.sqlite3", buttons="fake"))
    assert status == RESTART
    assert any("the service starts again to reach it" in r.getMessage() for r in caplog.records)
