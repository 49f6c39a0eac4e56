"""The English of every text is written in the module that says it (its ``TEXTS``) and found
through the lists the gadget is built from (``device.english``): no module adds texts by being
imported, and none is imported by its name as a string."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from collections.abc import Mapping

import pytest

import device
from device.english import ENGLISH, SOURCES
from device.text import English, Source, Text


def _device_modules() -> list[str]:
    names = [device.__name__]
    for found in pkgutil.walk_packages(device.__path__, prefix="device."):
        if ".bridge" not in found.name:
            names.append(found.name)
    return names


def _read(source: Source) -> list[Mapping[str, Text]]:
    return list(source.read())


def test_every_module_that_writes_texts_is_read() -> None:
    writing = {
        name: module.TEXTS
        for name in _device_modules()
        if (module := importlib.import_module(name)) is not None and hasattr(module, "TEXTS")
    }
    read = [id(texts) for source in SOURCES for texts in _read(source)]
    unread = [name for name, texts in writing.items() if id(texts) not in read]
    game = _read(SOURCES[0])[0]  # the rules' parts, merged: each part's keys are in it
    unread = [name for name in unread if not writing[name].keys() <= game.keys()]
    assert unread == []


@pytest.mark.parametrize("source", [s for s in SOURCES if s.keys != ("",)], ids=lambda s: s.keys[0])
def test_a_source_read_on_demand_holds_only_keys_that_lead_to_it(source: Source) -> None:
    """A console or card-data text is read when a key starting as theirs do is looked up: one
    starting otherwise would show its key until every text happened to be read."""
    stray = [key for texts in _read(source) for key in texts if not key.startswith(source.keys)]
    assert stray == []


def test_every_key_is_written_once() -> None:
    seen: dict[str, Text] = {}
    twice = []
    for source in SOURCES:
        for texts in _read(source):
            for key, text in texts.items():
                if key in seen and seen[key] != text:
                    twice.append(key)
                seen[key] = text
    assert twice == []
    assert set(ENGLISH.every()) == set(seen)


def test_a_key_written_twice_is_refused() -> None:
    english = English(
        (
            Source(("",), lambda: [{"text.and": "{first} and {last}"}]),
            Source(("",), lambda: [{"text.and": "{first} & {last}"}]),
        )
    )
    with pytest.raises(ValueError, match=r"text key 'text.and' is written twice, differently"):
        english.every()


def test_the_kiosk_wording_the_game_never_imports_the_console() -> None:
    """The console's texts are read only for a console key: the kiosk pays nothing for them,
    even when a message names a key no module writes."""
    code = (
        "import sys\n"
        "from device import text\n"
        "from device.english import ENGLISH\n"
        "text.speak(ENGLISH)\n"
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


def test_a_message_before_the_program_speaks_shows_its_key() -> None:
    code = "from device.text import Message\nprint(str(Message('text.and', first='a', last='b')))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "text.and {'first': 'a', 'last': 'b'}"
