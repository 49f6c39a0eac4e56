"""The kernel's input devices wake the kiosk on the Pi's console (HW-1).

FIFOs in a temporary folder stand in for ``/dev/input/event*``: to the watcher both are files
that become readable when something happens, and inotify sees nodes come and go in either.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.input_devices import InputDeviceWatcher, WatchError


class Wakes:
    def __init__(self) -> None:
        self.count = 0
        self._cond = threading.Condition()

    def __call__(self) -> None:
        with self._cond:
            self.count += 1
            self._cond.notify_all()

    def after(self, seen: int, timeout: float = 5.0) -> int:
        """Wait for a wake beyond ``seen``; the count then."""
        with self._cond:
            assert self._cond.wait_for(lambda: self.count > seen, timeout), "no wake"
            return self.count


def node(folder: Path, name: str) -> int:
    """A FIFO standing in for an event node, and the end a 'device' writes its events to."""
    path = folder / name
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # lets the writer open without blocking
    writer = os.open(path, os.O_WRONLY)
    os.close(reader)
    return writer


@pytest.fixture
def devices(tmp_path: Path) -> Iterator[tuple[Path, Wakes, InputDeviceWatcher]]:
    wakes = Wakes()
    watcher = InputDeviceWatcher(wakes, tmp_path)
    yield tmp_path, wakes, watcher
    watcher.close()


def test_input_on_a_device_wakes_the_loop_once_per_batch(
    devices: tuple[Path, Wakes, InputDeviceWatcher],
) -> None:
    folder, wakes, watcher = devices
    keyboard = node(folder, "event0")
    watcher.start()
    assert watcher.devices == ["event0"]
    os.write(keyboard, b"\0" * 72)  # a key press: scan code, key, sync
    assert wakes.after(0) == 1
    os.write(keyboard, b"\0" * 48)
    assert wakes.after(1) == 2
    os.close(keyboard)


def test_a_device_plugged_in_later_is_watched(
    devices: tuple[Path, Wakes, InputDeviceWatcher],
) -> None:
    folder, wakes, watcher = devices
    watcher.start()
    assert watcher.devices == []
    touch = node(folder, "event3")
    seen = wakes.after(0)  # the new node wakes the loop: SDL has a device to open too
    assert watcher.devices == ["event3"]
    (folder / "mice").touch()  # not an event node: not watched
    os.write(touch, b"\0" * 24)
    wakes.after(seen)
    assert watcher.devices == ["event3"]
    os.close(touch)


def test_an_unplugged_device_is_forgotten(devices: tuple[Path, Wakes, InputDeviceWatcher]) -> None:
    folder, wakes, watcher = devices
    keyboard = node(folder, "event1")
    watcher.start()
    (folder / "event1").unlink()
    os.close(keyboard)  # the device is gone: its file reads end-of-file
    wakes.after(0)
    give_up = time.monotonic() + 5
    while watcher.devices and time.monotonic() < give_up:
        time.sleep(0.01)
    assert watcher.devices == []


def test_a_device_it_may_not_read_is_said_once_with_the_fix(
    devices: tuple[Path, Wakes, InputDeviceWatcher], caplog: pytest.LogCaptureFixture
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    folder, _, watcher = devices
    os.close(node(folder, "event2"))
    (folder / "event2").chmod(0)
    with caplog.at_level(logging.WARNING):
        watcher.start()
    assert watcher.devices == []
    assert "add the user to the 'input' group" in caplog.text


def test_a_folder_that_is_not_there_cannot_be_watched(tmp_path: Path) -> None:
    watcher = InputDeviceWatcher(lambda: None, tmp_path / "input")
    with pytest.raises(WatchError, match="input"):
        watcher.start()
    watcher.close()


def test_if_watching_fails_the_loop_is_still_woken_to_look_for_keys(
    devices: tuple[Path, Wakes, InputDeviceWatcher], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, wakes, watcher = devices

    def broken() -> None:
        raise OSError("the selector broke")

    monkeypatch.setattr(watcher, "_watch", broken)
    watcher.start()
    seen = wakes.after(0)
    assert wakes.after(seen) > seen  # again and again, as the loop looked before
