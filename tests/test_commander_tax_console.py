"""Commander tax at the console (CR 903.8), as a user types it through ``main``: ``tax`` counts a
cast from the command zone, partners by number or name, ``-1`` takes one back, ``undo`` too,
``show`` lists the tax, and every line is said in the console's language."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from display.cli import main


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    db: Path,
    text: str,
    *extra: str,
) -> list[str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["console", "--db", str(db), "--seed", "3", *extra]) == 0
    return [
        re.sub(r"\d\d:\d\d:\d\d", "HH:MM:SS", line) for line in capsys.readouterr().out.splitlines()
    ]


SCRIPT = """\
new edh Alice Bob first=Bob
commanders Bob Kraum, Ludevic's Opus + Tymna the Weaver
tax Bob
tax Bob tymna
tax Bob 1 +2
tax Alice
tax Bob kraum -1
tax Alice -2
tax Bob thrasios
show
undo
tax Alice +0
state
"""


def test_cr903_8_tax_counts_casts_per_commander_and_show_lists_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", SCRIPT)
    assert out[:-1] == [
        "New game (Commander) for Alice, Bob, 40 life. Bob goes first.",
        "Bob's commanders: Kraum, Ludevic's Opus and Tymna the Weaver.",
        (
            "refused: Bob has 2 commanders (Kraum, Ludevic's Opus and Tymna the Weaver): say which one was cast, "
            "e.g. 'tax Bob Kraum'."
        ),
        "Tymna the Weaver was cast from the command zone: commander tax 0 → 2.",
        "Kraum, Ludevic's Opus was cast from the command zone 2 times: commander tax 0 → 4.",
        "Alice's commander was cast from the command zone: commander tax 0 → 2.",
        "Kraum, Ludevic's Opus: 1 cast from the command zone taken back, commander tax 4 → 2.",
        "refused: Alice's commander has been cast from the command zone 1 time; 2 cannot be taken back.",
        "refused: Bob has no commander 'thrasios'; their commanders: Kraum, Ludevic's Opus, Tymna the Weaver.",
        "Turn 1: Bob's upkeep.",
        "  Alice: 40 life  (commander tax 2)",
        "* Bob: 40 life  (commander tax 2 for Kraum, Ludevic's Opus; commander tax 2 for Tymna the Weaver)",
        "Undone: Kraum, Ludevic's Opus: 1 cast from the command zone taken back, commander tax 4 → 2.",
        "refused: Nothing to change: the amount is 0.",
    ]
    players = json.loads(out[-1])["state"]["players"]
    assert [p["commander_casts"] for p in players] == [[1], [2, 1]]


def test_cr903_8_tax_is_refused_outside_commander_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new ffa Alice Bob first=Alice\ntax Alice\ntax\n",
    )
    assert out[1:] == [
        "refused: Commander tax is counted only in Commander games; this game is Free-for-all.",
        "refused: Usage: tax PLAYER [COMMANDER] [+N|-N]",
    ]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "ru",
            [
                "Tymna the Weaver: 1 розыгрыш из командной зоны, налог командира 0 → 2.",
                "* Bob: жизнь 40  (налог командира Tymna the Weaver: 2)",
            ],
        ),
        (
            "ja",
            [
                "Tymna the Weaverを統率領域から1回唱えた：統率者税 0 → 2。",
                "* Bob：ライフ40（Tymna the Weaverの統率者税 2）",
            ],
        ),
        (
            "pl",
            [
                "Tymna the Weaver zagrany ze strefy dowodzenia: podatek dowódcy 0 → 2.",
                "* Bob: życie 40  (podatek dowódcy Tymna the Weaver: 2)",
            ],
        ),
    ],
)
def test_cr903_8_tax_in_the_consoles_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
    expected: list[str],
) -> None:
    script = "new edh Alice Bob first=Bob\ncommanders Bob Tymna the Weaver\ntax Bob\nshow\n"
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", script, "--language", language)
    assert [out[2], out[-1]] == expected
