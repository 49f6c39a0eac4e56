"""The English of every text is written in the module that says it (its ``TEXTS``) and found
through one explicit list, ``device.text.SOURCES``: no module adds texts by being imported."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

import device
from device import text
from device.text import SOURCES, Source, every_text


def _device_modules() -> list[str]:
    names = [device.__name__]
    for found in pkgutil.walk_packages(device.__path__, prefix="device."):
        if ".bridge" not in found.name:
            names.append(found.name)
    return names


def test_every_module_that_writes_texts_is_listed() -> None:
    writing = {
        name for name in _device_modules() if hasattr(importlib.import_module(name), "TEXTS")
    }
    listed = [name for source in SOURCES for name in source.modules]
    assert len(listed) == len(set(listed)), "a module is listed twice"
    assert writing == set(listed)


@pytest.mark.parametrize("source", [s for s in SOURCES if s.keys != ("",)], ids=lambda s: s.keys[0])
def test_a_source_read_on_demand_holds_only_keys_that_lead_to_it(source: Source) -> None:
    """A console or card-data text is read when a key starting as theirs do is looked up: one
    starting otherwise would show its key until every text happened to be read."""
    for name in source.modules:
        stray = [
            key for key in importlib.import_module(name).TEXTS if not key.startswith(source.keys)
        ]
        assert stray == [], name


def test_every_key_is_written_once() -> None:
    seen: dict[str, str] = {}
    twice = []
    for source in SOURCES:
        for name in source.modules:
            for key in importlib.import_module(name).TEXTS:
                if key in seen:
                    twice.append((key, seen[key], name))
                seen[key] = name
    assert twice == []
    assert set(every_text()) == set(seen)


def test_a_key_written_twice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        text,
        "SOURCES",
        (
            Source(("",), ("device.text", "device.rules.table")),
            Source(("",), ("device.rules.life",)),
        ),
    )
    monkeypatch.setattr(text, "_english", {})
    monkeypatch.setattr(text, "_read", [False, False])
    monkeypatch.setattr(
        importlib.import_module("device.rules.life"), "TEXTS", {"text.and": "{first} & {last}"}
    )
    with pytest.raises(
        ValueError, match=r"text key 'text.and' is written twice \(again in device.rules.life\)"
    ):
        every_text()


def test_the_kiosk_wording_the_game_never_imports_the_console() -> None:
    """The console's texts are read only for a console key: the kiosk pays nothing for them,
    even when a message names a key no module writes."""
    code = (
        "import sys\n"
        "from device.text import Message\n"
        "from display.i18n import Translator\n"
        "tr = Translator('ru')\n"
        "said = [tr('ui.btn.next'), tr.message(Message('controller.undid', what='x')), str(Message('table.nothing')),\n"
        "        str(Message('table.started.commander')), str(Message('text.and', first='a', last='b'))]\n"
        "print(sorted(m for m in sys.modules if m.startswith(('device.console', 'device.cardtext'))))\n"
        "print(str(Message('console.usage', usage='x')) != 'console.usage')\n"
        "print('device.console.core' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:3] == ["[]", "True", "True"]
