"""``games``, ``load`` and ``delete`` at the console, as a user types them (through ``main``)."""

from __future__ import annotations

import io
import re
import sqlite3
from pathlib import Path

import pytest

from display.cli import main


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: Path, text: str
) -> list[str]:
    """The session's replies, with each game's time written WHEN (the machine's clock)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["console", "--db", str(db), "--seed", "3"]) == 0
    return [
        re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "WHEN", line)
        for line in capsys.readouterr().out.splitlines()
    ]


GAMES = "new commander Ann Bo Cy first=Ann\nnext\nnext\nnew duel Ola Ela first=Ola\ndamage Ela 20 from Ola\n"


def test_games_lists_number_time_formats_players_and_how_far(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "j.sqlite3"
    run(monkeypatch, capsys, db, GAMES + "new pojedynek Ala Ola first=Ala\nload 2\n")
    assert run(monkeypatch, capsys, db, "games\n") == [
        "Resumed game 2: Two-player game: Ola, Ela (turn 1).",
        "    3  WHEN  Wizard's Duel: Ala, Ola  (round 1)",
        "*   2  WHEN  Two-player game: Ola, Ela  (over: Ola won (last player standing))",
        "    1  WHEN  Commander: Ann, Bo, Cy  (turn 2)",
    ]


def test_delete_asks_first_then_deletes_with_yes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "j.sqlite3"
    out = run(monkeypatch, capsys, db, GAMES + "delete 1\ngames\ndelete 1 yes\ngames\nshow\n")
    assert out[-9:] == [
        "Game 1: Commander: Ann, Bo, Cy (turn 2). Deleting it cannot be undone; to delete it, type 'delete 1 yes'.",
        "*   2  WHEN  Two-player game: Ola, Ela  (over: Ola won (last player standing))",
        "    1  WHEN  Commander: Ann, Bo, Cy  (turn 2)",  # only asked: still there
        "Deleted game 1: Commander: Ann, Bo, Cy.",
        "*   2  WHEN  Two-player game: Ola, Ela  (over: Ola won (last player standing))",
        "Turn 1: Ola's upkeep.",  # the game being played goes on
        "* Ola: 20 life",
        "  Ela: 0 life  (lost: life)",
        "Game over: Ola won (last player standing).",
    ]


def test_deleting_the_current_game_leaves_none_and_undo_cannot_bring_it_back(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    db = tmp_path / "j.sqlite3"
    out = run(monkeypatch, capsys, db, GAMES + "delete 2 yes\nundo\nshow\ngames\n")
    assert out[-4:] == [
        "Deleted game 2: Two-player game: Ola, Ela. No game is running now.",
        "refused: No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
        "refused: No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
        "    1  WHEN  Commander: Ann, Bo, Cy  (turn 2)",
    ]
    # The next session resumes no game (the one shown was deleted), and a new one gets a new number.
    assert run(monkeypatch, capsys, db, "state\nnew Ann Bo first=Ann\ngames\n") == [
        '{"game": null, "outcome": null, "schema": 1, "state": null}',
        "New game (Free-for-all) for Ann, Bo, 20 life. Ann goes first.",
        "*   3  WHEN  Free-for-all: Ann, Bo  (turn 1)",
        "    1  WHEN  Commander: Ann, Bo, Cy  (turn 2)",
    ]


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("delete", "refused: Usage: delete GAME [yes]"),
        ("delete 1 no", "refused: Usage: delete GAME [yes]"),
        ("delete 1 yes please", "refused: Usage: delete GAME [yes]"),
        ("delete one", "refused: 'one' is not a number."),
        ("delete 7", "refused: There is no saved game 7; 'games' lists them."),
        ("delete 7 yes", "refused: There is no saved game 7; 'games' lists them."),
    ],
)
def test_delete_refuses_with_a_reason_and_deletes_nothing(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: str,
    reply: str,
) -> None:
    db = tmp_path / "j.sqlite3"
    out = run(monkeypatch, capsys, db, GAMES + f"{line}\ngames\n")
    assert out[-3:] == [
        reply,
        "*   2  WHEN  Two-player game: Ola, Ela  (over: Ola won (last player standing))",
        "    1  WHEN  Commander: Ann, Bo, Cy  (turn 2)",
    ]


def test_hw5_a_damaged_game_is_listed_and_deleted_at_the_console(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "j.sqlite3"
    run(monkeypatch, capsys, db, GAMES)
    connection = sqlite3.connect(db, isolation_level=None)
    connection.execute(
        "UPDATE events SET body = replace(body, '\"Ann\"', '\"Anne\"') WHERE game = 1 AND pos = 0"
    )
    connection.close()
    assert run(monkeypatch, capsys, db, "games\ndelete 1\ndelete 1 yes\ngames\n")[1:] == [
        "*   2  WHEN  Two-player game: Ola, Ela  (over: Ola won (last player standing))",
        "    1  WHEN  Commander: Ann, Bo, Cy  (damaged, cannot be played)",
        "Game 1: Commander: Ann, Bo, Cy (damaged, cannot be played). Deleting it cannot be undone; to delete it, "
        "type 'delete 1 yes'.",
        "Deleted game 1: Commander: Ann, Bo, Cy.",
        "*   2  WHEN  Two-player game: Ola, Ela  (over: Ola won (last player standing))",
    ]
