"""The counters Commander tables track, at the console as a user types them through ``main``:
``monarch``, ``initiative``, ``day``, ``night``, ``energy``, ``experience``, ``rad`` and
``blessing``, refused with reasons, listed by ``show``, undone and logged like any change, and
said in the console's language."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from display.cli import main

SCRIPT = """\
new commander Ann Bob Cid Dee first=Bob
monarch cid
initiative cid
initiative cid
night
energy ann +3
energy ann -1
rad dee 2
experience bob 1
blessing dee
show
concede cid
show
undo
monarch none
log 3
"""


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


def test_the_counters_are_changes_like_any_other_and_show_lists_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", SCRIPT) == [
        "New game (Commander) for Ann, Bob, Cid, Dee, 40 life. Bob goes first.",
        "Cid becomes the monarch.",
        "Cid takes the initiative: venture into Undercity.",
        "Cid takes the initiative: venture into Undercity.",
        "It becomes night.",
        "Ann: 0 → 3 energy.",
        "Ann: 3 → 2 energy.",
        "Dee: 0 → 2 rad.",
        "Bob: 0 → 1 experience.",
        "Dee gets the city's blessing.",
        "Turn 1: Bob's upkeep.",
        "It is night.",
        "  Ann: 40 life  (2 energy)",
        "* Bob: 40 life  (1 experience)",
        "  Cid: 40 life  (monarch; the initiative)",
        "  Dee: 40 life  (the city's blessing; 2 rad)",
        "Cid has conceded.",
        "Cid left the game, so Bob becomes the monarch.",
        "Cid left the game, so Bob takes the initiative: venture into Undercity.",
        "Turn 1: Bob's upkeep.",
        "It is night.",
        "  Ann: 40 life  (2 energy)",
        "* Bob: 40 life  (monarch; the initiative; 1 experience)",
        "  Cid: 40 life  (lost: conceded)",
        "  Dee: 40 life  (the city's blessing; 2 rad)",
        "Undone: Cid has conceded. Cid left the game, so Bob becomes the monarch. Cid left the game, so Bob takes the "
        "initiative: venture into Undercity.",
        "Nobody is the monarch now.",
        "   8 HH:MM:SS  Bob: 0 → 1 experience.",
        "   9 HH:MM:SS  Dee gets the city's blessing.",
        "  10 HH:MM:SS  Nobody is the monarch now.",
    ]


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("monarch", "refused: Usage: monarch PLAYER|none [PLAYER]"),
        ("monarch Ann Bob", "refused: Usage: monarch PLAYER|none [PLAYER]"),
        ("monarch Zed", "refused: No player called 'Zed'. Players: Ann, Bob, Cid, Dee."),
        ("monarch none", "refused: Nobody is the monarch."),
        ("initiative none", "refused: Nobody has the initiative."),
        (
            "monarch Cid",
            "refused: Cid has already lost (conceded); undo that first if it was a mistake.",
        ),
        (
            "energy Cid +1",
            "refused: Cid has already lost (conceded); undo that first if it was a mistake.",
        ),
        ("energy Ann -2", "refused: Ann has 0 energy counters; 2 cannot be removed."),
        ("rad Ann 0", "refused: Nothing to change: the amount is 0."),
        ("experience Ann lots", "refused: 'lots' is not a number."),
        ("energy Ann", "refused: Usage: energy PLAYER +N|-N"),
        ("day Ann Bob", "refused: Usage: day [PLAYER]"),
        ("blessing", "refused: Usage: blessing PLAYER"),
    ],
)
def test_a_change_that_cannot_be_is_refused_and_the_session_goes_on(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: str,
    reply: str,
) -> None:
    lines = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        f"new Ann Bob Cid Dee first=Ann\nconcede Cid\n{line}\n",
    )
    assert lines[2:] == [reply]


def test_without_a_game_they_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", "day\n") == [
        "refused: No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'."
    ]


def test_a_pod_names_the_group_for_day_and_night_and_for_taking_a_monarch_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = "new conspiracy A B C D E F G H first=A\nday\ngroups\n"
    lines = run(monkeypatch, capsys, tmp_path / "j.sqlite3", script)
    assert (
        lines[-4]
        == "refused: Each group of the pod plays its own game: name a player of the group meant."
    )
    first, second = lines[-2], lines[-1]  # "Group 1: *A, …" and "Group 2: …", in turn order
    one = re.findall(r"\b[A-H]\b", first.split(":", 1)[1])
    two = re.findall(r"\b[A-H]\b", second.split(":", 1)[1])
    script = f"day {one[0]}\nnight {two[1]}\nmonarch {one[0]}\nmonarch {two[0]}\nmonarch none\nmonarch none {two[2]}\nshow\n"
    lines = run(monkeypatch, capsys, tmp_path / "j.sqlite3", script)
    assert lines[1:6] == [
        "Group 1: it becomes day.",
        "Group 2: it becomes night.",
        f"{one[0]} becomes the monarch.",
        f"{two[0]} becomes the monarch.",
        f"refused: Each group has its own monarch ({one[0]} and {two[0]}): name a player of the group that no longer "
        "has one.",
    ]
    assert lines[6] == "Nobody is the monarch now."
    assert lines[8:10] == ["Group 1: it is day.", "Group 2: it is night."]


def test_help_explains_each_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "help rad\nhelp")
    assert lines[:2] == [
        "rad PLAYER +N|-N",
        "    PLAYER gets (+N) or loses (-N) rad counters; at their main phase they mill that many.",
    ]
    listed = [line.split()[0] for line in lines[2:]]
    for name in (
        "monarch",
        "initiative",
        "day",
        "night",
        "energy",
        "experience",
        "rad",
        "blessing",
    ):
        assert name in listed


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "ru",
            [
                "Игрок Bob становится монархом.",
                "Наступает день.",
                "Ann: энергия 0 → 3.",
                "отказано: У игрока Ann 3 жетона энергии; снять 5 нельзя.",
                "Ход 1: Bob — апкип.",
                "Сейчас день.",
                "  Ann: жизнь 20  (3 жетона энергии)",
                "* Bob: жизнь 20  (монарх)",
            ],
        ),
        (
            "pl",
            [
                "Bob zostaje monarchą.",
                "Nastaje dzień.",
                "Ann: energia 0 → 3.",
                "odrzucono: Ann ma 3 znaczniki energii; nie można zdjąć 5.",
                "Tura 1: Bob — upkeep.",
                "Jest dzień.",
                "  Ann: życie 20  (3 znaczniki energii)",
                "* Bob: życie 20  (monarcha)",
            ],
        ),
        (
            "ja",
            [
                "Bobがモナークになりました。",
                "ひるになりました。",
                "Ann：エネルギー0 → 3。",
                "受付不可：Annのエネルギー・カウンターは3個です。5個は取り除けません。",
                "ターン1：Bobのアップキープ。",
                "ひるです。",
                "  Ann：ライフ20（エネルギー3）",
                "* Bob：ライフ20（モナーク）",
            ],
        ),
    ],
)
def test_in_the_consoles_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
    expected: list[str],
) -> None:
    script = "new Ann Bob first=Bob\nmonarch bob\nday\nenergy ann +3\nenergy ann -5\nshow\n"
    assert (
        run(monkeypatch, capsys, tmp_path / "j.sqlite3", script, "--language", language)[1:]
        == expected
    )
