"""HW-5: what an SD card does to the files the gadget writes — a flipped byte — and what start-up
makes of it: never a traceback, never a silent loss of an acknowledged change, never a silent
change to the game.

A reference game is played once (a Commander game of 60 changes with snapshots and a backup).
Each trial copies its files, flips one byte at a random place in one kind of file, and runs the
gadget's start-up on the copy: opening and checking the journal (``device.recovery``), resuming
the last game (``Controller``), the verdict of the check that runs after READY acted on
(``Controller.idle``), and what the screen and ``log`` show (every change's text).
Then the trial is judged:

- **said**: start-up recovered (moved the file aside, restored the backup or resumed without a
  damaged log's tail) and returned the line that says so;
- **intact**: nothing said, and the game, every change and every text are exactly the
  acknowledged ones (a byte in free space, or damage the journal repaired from its events);
- **silent**: nothing said, yet the game or a change differs — the failure the test exists for;
- **traceback**: anything but a clean ``JournalError`` escaped.

Kinds: the closed journal, the write-ahead log of a killed session, a snapshot's bytes, the
backup (then the journal itself damaged too, so the backup is what start-up falls back on).
``AETHERBOX_DAMAGE_TRIALS`` raises the count per kind (the suite runs 200) for a benchmark run;
a few trials per kind also go through the real ``aetherbox console`` process (6 in the suite,
``AETHERBOX_DAMAGE_PROCESS_TRIALS`` for more).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from device.commands import Advance, ChangeLife, ChangePoison, DealCommanderDamage, NewGame
from device.controller import Controller
from device.errors import JournalError
from device.journal import Journal, backup_path
from device.recovery import open_journal
from device.state import GameState

TRIALS = int(os.environ.get("AETHERBOX_DAMAGE_TRIALS", "200"))
PROCESS_TRIALS = int(os.environ.get("AETHERBOX_DAMAGE_PROCESS_TRIALS", "6"))
NOW = 1_750_000_000.0
KINDS = ("journal", "wal", "snapshot", "backup")


@dataclass(frozen=True)
class Reference:
    files: Path  # the pristine files
    state: GameState  # the acknowledged game
    texts: list[str]  # every acknowledged change's text
    tip: int


def _play(folder: Path, killed: bool) -> Reference:
    path = folder / "aetherbox.sqlite3"
    journal = Journal(path, backup_every=25, snapshot_every=16)
    controller = Controller(journal, rng=random.Random(7))
    controller.execute(
        NewGame(formats=("commander",), players=("Ann", "Bo", "Cy", "Di"), first="Ann")
    )
    rng = random.Random(11)
    for i in range(60):
        seat, source = rng.randrange(4), rng.randrange(4)
        command = (
            ChangeLife(seat=seat, delta=-rng.randint(1, 3), source=source)
            if i % 3 == 0
            else ChangePoison(seat=seat, delta=1, source=source)
            if i % 7 == 0
            else DealCommanderDamage(seat=seat, source=(seat + 1) % 4, amount=1)
            if i % 5 == 0
            else Advance()
        )
        controller.execute(command)
    assert controller.state is not None
    state = controller.state
    texts = [str(m) for t in journal.history(1) for m in t.messages()]
    tip = journal.game(1).tip
    pristine = folder / "pristine"
    pristine.mkdir()
    if not killed:
        journal.close()
    for item in folder.iterdir():  # as a kill leaves them: the open journal's files as they are
        if item.is_file() and not item.name.endswith(".lock"):
            shutil.copy(item, pristine / item.name)
    if killed:
        journal.backup_every = 0
        journal.close()
    return Reference(pristine, state, texts, tip)


@pytest.fixture(scope="module")
def references(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Reference]:
    return {
        killed: _play(tmp_path_factory.mktemp(f"game-{killed}"), killed) for killed in (False, True)
    }


def _target(kind: str, folder: Path, rng: random.Random) -> tuple[Path, int]:
    """The file a trial damages and the offset of the byte it flips."""
    path = folder / "aetherbox.sqlite3"
    if kind == "wal":
        path = path.with_name(path.name + "-wal")
    if kind == "backup":
        path = backup_path(folder / "aetherbox.sqlite3")
    data = path.read_bytes()
    if kind == "snapshot":
        bodies = [i for i in range(len(data)) if data.startswith(b'{"schema_version"', i)]
        start = rng.choice(bodies)
        return path, start + rng.randrange(min(2000, len(data) - start))
    return path, rng.randrange(len(data))


def _start(path: Path) -> tuple[str, str]:
    """The gadget's start-up on ``path``: (verdict-to-judge, detail)."""
    try:
        journal, recovery = open_journal(path, clock=lambda: NOW)
    except JournalError as error:
        return "refused", str(error)
    except Exception as error:  # noqa: BLE001 - what the test counts
        return "traceback", f"{type(error).__name__}: {error}"
    try:
        controller = Controller(journal)
        late = controller.idle(wait=True)  # after READY: the whole journal's check has its say
        with controller.journal as journal:
            game = journal.last_game()
            texts = (
                []
                if game is None
                else [str(m) for t in journal.history(game) for m in t.messages()]
            )
            if game is not None:
                journal.last_change(game)
            return ("said" if recovery is not None or late is not None else "open"), json.dumps(
                {
                    "state": None
                    if controller.state is None
                    else controller.state.model_dump(mode="json"),
                    "texts": texts,
                    "tip": None if game is None else journal.game(game).tip,
                }
            )
    except JournalError as error:
        return "refused", str(error)
    except Exception as error:  # noqa: BLE001
        return "traceback", f"{type(error).__name__}: {error}"


def _judge(ref: Reference, verdict: str, detail: str) -> str:
    if verdict != "open":
        return verdict
    seen = json.loads(detail)
    if (
        seen["tip"] == ref.tip
        and seen["state"] == ref.state.model_dump(mode="json")
        and seen["texts"] == ref.texts
    ):
        return "intact"
    return "silent"


def _damaged_copy(ref: Reference, kind: str, folder: Path, rng: random.Random) -> int:
    """The reference game's files copied to ``folder``, one random bit flipped in the ``kind`` of
    file; the offset of the flipped byte."""
    shutil.copytree(ref.files, folder)
    if kind == "backup":  # the journal is damaged as well, so start-up turns to the backup
        journal = folder / "aetherbox.sqlite3"
        journal.write_bytes(journal.read_bytes()[:4096])
    path, at = _target(kind, folder, rng)
    data = bytearray(path.read_bytes())
    data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))
    return at


def _trials(
    references: dict[bool, Reference], kind: str, count: int, tmp_path: Path, seed: int
) -> Counter[str]:
    ref = references[kind == "wal"]
    rng = random.Random(seed)
    verdicts: Counter[str] = Counter()
    failures: list[str] = []
    for trial in range(count):
        folder = tmp_path / f"{kind}-{trial}"
        at = _damaged_copy(ref, kind, folder, rng)
        verdict = _judge(ref, *_start(folder / "aetherbox.sqlite3"))
        verdicts[verdict] += 1
        if verdict in ("silent", "traceback", "refused"):
            failures.append(f"{kind} byte {at}: {verdict}")
        shutil.rmtree(folder)
    print(json.dumps({"kind": kind, "trials": count, **verdicts}))
    assert failures == [], failures[:10]
    return verdicts


@pytest.mark.parametrize("kind", KINDS)
def test_hw5_one_flipped_byte_is_said_or_harmless_never_silent(
    references: dict[bool, Reference], kind: str, tmp_path: Path
) -> None:
    """HW-5: a flipped byte in any file the gadget keeps is recovered from and said, or changes
    nothing the table can see; never a traceback, a refusal to start, or a silent change."""
    verdicts = _trials(references, kind, TRIALS, tmp_path, seed=KINDS.index(kind))
    assert sum(verdicts.values()) == TRIALS


@pytest.mark.parametrize("kind", KINDS)
def test_hw5_the_real_process_starts_on_a_damaged_file(
    references: dict[bool, Reference], kind: str, tmp_path: Path
) -> None:
    """HW-5: the same damage, through ``aetherbox console`` on the default journal: it starts,
    shows the table and exits cleanly every time, with at most a warning line."""
    ref = references[kind == "wal"]
    rng = random.Random(100 + KINDS.index(kind))
    for trial in range(PROCESS_TRIALS):
        data_dir = tmp_path / f"data-{trial}"
        at = _damaged_copy(ref, kind, data_dir / "games", rng)
        env = {
            **os.environ,
            "AETHERBOX_DATA_DIR": str(data_dir),
            "AETHERBOX_CONFIG": str(tmp_path / "none.toml"),
        }
        done = subprocess.run(
            [sys.executable, "-m", "display.cli", "console"],
            input="show\nlog 3\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert "Traceback" not in done.stderr, (kind, at, done.stderr)
        assert done.returncode == 0, (kind, at, done.stderr)
        said = done.stderr.splitlines()
        # What was done, each thing once, as a warning: no error, no detail, no line twice.
        assert all(line.startswith("aetherbox: warning: ") for line in said), (kind, at, said)
        assert len(set(said)) == len(said) <= 2, (kind, at, said)
        assert "life" in done.stdout or "No game" in done.stdout, (kind, at, done.stdout)
        shutil.rmtree(data_dir)


CONFIG = """\
language = "ru"
data_dir = "/var/lib/aetherbox"

[reader]
port = "/dev/ttyUSB0"
protocol = "rdm6300"

[display]
size = "800x480"
fps = 20

[starting_life]
commander = 30
"""


def test_hw5_a_flipped_byte_in_the_config_is_never_a_traceback_and_is_on_record(
    tmp_path: Path,
) -> None:
    """HW-5: a hand-edited file has no checksum, so a flipped byte may change a value; start-up
    never fails on it, falls back to defaults for what it cannot use (saying so), and puts the
    values it uses on record."""
    from device.config import in_use, load

    rng = random.Random(21)
    path = tmp_path / "config.toml"
    reference = load_reference(tmp_path)
    assert load(tmp_path / "reference.toml").warnings == ()
    verdicts: Counter[str] = Counter()
    for _ in range(TRIALS):
        data = bytearray(CONFIG.encode())
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
        loaded = load(path)
        line = in_use(loaded)
        assert line.startswith(f"{path}: language ") and "reader" in line
        verdicts[
            "warned" if loaded.warnings else "same" if loaded.config == reference else "changed"
        ] += 1
    print(json.dumps({"kind": "config", "trials": TRIALS, **verdicts}))


def load_reference(tmp_path: Path) -> object:
    from device.config import load

    reference = tmp_path / "reference.toml"
    reference.write_text(CONFIG, encoding="utf-8")
    return load(reference).config


def test_hw5_a_flipped_byte_in_the_tag_map_never_gives_a_false_card(tmp_path: Path) -> None:
    """HW-5, HW-3: a flipped byte in the tag map loses a tag at worst (an unknown tag asks to be
    enrolled again); no enrolled tag ever reads as another card."""
    from device.catalog import load_catalog
    from device.tagmap import TagMap

    names = [c.name for c in load_catalog().planar()][:40]
    enrolled = {f"04A1B2C3D4{index:04X}": name for index, name in enumerate(names)}
    text = "".join(
        f"{uid[:2]}:{uid[2:4]}:{uid[4:6]}:{uid[6:8]}:{uid[8:10]}:{uid[10:12]}:{uid[12:]}  {name}\n"
        for uid, name in enrolled.items()
    )
    rng = random.Random(22)
    path = tmp_path / "tags.txt"
    false_cards, lost = 0, 0
    for _ in range(TRIALS):
        data = bytearray(text.encode())
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
        tags = TagMap(path)
        for uid, name in enrolled.items():
            card = tags.lookup(uid)
            false_cards += card is not None and card.name != name
            lost += card is None
    print(
        json.dumps(
            {"kind": "tag map", "trials": TRIALS, "false cards": false_cards, "tags lost": lost}
        )
    )
    assert false_cards == 0


@pytest.mark.parametrize("kind", ("config", "tag map"))
def test_hw5_the_real_process_starts_on_a_damaged_config_or_tag_map(
    kind: str, tmp_path: Path
) -> None:
    """HW-5: the console as a real process, started on a config or a tag map with a flipped byte:
    it starts, answers, and exits cleanly every time; a config is put on record."""
    from device.catalog import load_catalog

    names = [c.name for c in load_catalog().planar()][:20]
    tag_text = "".join(f"04A1B2C3D4{index:04X}  {name}\n" for index, name in enumerate(names))
    rng = random.Random(300 + (kind == "config"))
    for trial in range(PROCESS_TRIALS):
        data_dir = tmp_path / f"data-{trial}"
        data_dir.mkdir()
        config = tmp_path / f"config-{trial}.toml"
        config.write_text(CONFIG.replace("/var/lib/aetherbox", str(data_dir)), encoding="utf-8")
        tags = data_dir / "tags.txt"
        tags.write_text(tag_text, encoding="utf-8")
        target = config if kind == "config" else tags
        data = bytearray(target.read_bytes())
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        target.write_bytes(bytes(data))
        env = {**os.environ, "AETHERBOX_DATA_DIR": str(data_dir), "AETHERBOX_CONFIG": str(config)}
        done = subprocess.run(
            [sys.executable, "-m", "display.cli", "console"],
            input="new duel A B first=A\ntag 04A1B2C3D40003\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert "Traceback" not in done.stderr, (kind, done.stderr)
        assert done.returncode == 0, (kind, done.stderr)
        assert "configuration in use:" in done.stderr
        # The console speaks the configured language (Russian), or English where the flip hit it.
        assert done.stdout.startswith(("New game", "Новая игра")), done.stdout
