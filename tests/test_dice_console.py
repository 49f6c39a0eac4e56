"""Dice and coin at the console, as a user types them through ``main``: ``d6``, ``d20``, ``throw
NdM``, ``coin`` and ``random`` in any game, refused clearly without one, undone and logged like
any change, and said in the console's language."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from device.console import entries
from display.cli import main

SCRIPT = """\
d20
new Ala Ola Ewa
d6
d20 Ala
d6 2 Ewa
throw 3d8
throw D100 ola
coin
coin Ewa
random
undo
concede Ola
random
random
log 4
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


def test_the_dice_coin_and_a_random_player_are_changes_like_any_other(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", SCRIPT) == [
        "refused: No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
        "New game (Free-for-all) for Ala, Ola, Ewa, 20 life. The gadget drew Ala to go first.",
        "d6: 5.",
        "Ala rolled a d20: 18.",
        "Ewa rolled 2d6: 2 + 3 = 5.",
        "3d8: 8 + 2 + 1 = 11.",
        "Ola rolled a d100: 61.",
        "Coin: heads.",
        "Ewa flipped a coin: tails.",
        "Random player: Ala.",
        "Undone: Random player: Ala.",
        "Ola has conceded.",
        "Random player: Ewa.",
        "Random player: Ewa.",
        "   7 HH:MM:SS  Ewa flipped a coin: tails.",
        "   8 HH:MM:SS  Ola has conceded.",
        "   9 HH:MM:SS  Random player: Ewa.",
        "  10 HH:MM:SS  Random player: Ewa.",
    ]


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (
            "throw 2x6",
            "refused: '2x6' is not dice: write how many and their sides, e.g. 2d6, d20 or 3d8.",
        ),
        ("throw 11d6", "refused: Roll 1 to 10 dice at a time; 11 asked for."),
        ("d6 0", "refused: Roll 1 to 10 dice at a time; 0 asked for."),
        ("d20 -2", "refused: Roll 1 to 10 dice at a time; -2 asked for."),
        (
            "throw d1",
            "refused: A die has 2 to 100 sides (d4, d6, d8, d10, d12, d20, d100); 1 asked for.",
        ),
        ("throw", "refused: Usage: throw NdM [PLAYER]"),
        ("d6 2 Ala Ola", "refused: Usage: d6 [N] [PLAYER]"),
        ("coin Ala Ola", "refused: Usage: coin [PLAYER]"),
        ("random Ala", "refused: Usage: random"),
        ("d6 Zed", "refused: No player called 'Zed'. Players: Ala, Ola, Ewa."),
    ],
)
def test_a_throw_that_cannot_be_is_refused_and_the_session_goes_on(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: str,
    reply: str,
) -> None:
    out = run(
        monkeypatch, capsys, tmp_path / "j.sqlite3", f"new Ala Ola Ewa first=Ala\n{line}\nlog\n"
    )
    assert out[1] == reply
    assert len(out) == 3  # the log holds the game's start only


@pytest.mark.parametrize(
    ("language", "replies"),
    [
        (
            "ru",
            [
                "Бросок к20 (Ala): 18.",
                "Бросок 2к6 (Ewa): 2 + 3 = 5.",
                "Монета: орёл.",
                "Монета (Ewa): решка.",
                "Случайный игрок: Ala.",
                "Отменено: Случайный игрок: Ala.",
                "отказано: За раз можно бросить от 1 до 10 кубиков; запрошено: 11.",
            ],
        ),
        (
            "ja",
            [
                "Alaがd20を振った：18。",
                "Ewaが2d6を振った：2 + 3 = 5。",
                "コイン：オモテ。",
                "Ewaのコイン：ウラ。",
                "抽選：Ala。",
                "取り消し：抽選：Ala。",
                "受付不可：一度に振れるダイスは1〜10個です（指定：11個）。",
            ],
        ),
        (
            "pl",
            [
                "Rzut k20 (Ala): 18.",
                "Rzut 2k6 (Ewa): 2 + 3 = 5.",
                "Moneta: orzeł.",
                "Moneta (Ewa): reszka.",
                "Losowy gracz: Ala.",
                "Cofnięto: Losowy gracz: Ala.",
                "odrzucono: Naraz można rzucić od 1 do 10 kości; podano: 11.",
            ],
        ),
    ],
)
def test_the_throws_in_the_consoles_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
    replies: list[str],
) -> None:
    script = "new Ala Ola Ewa\nd6\nd20 Ala\nd6 2 Ewa\nthrow 3d8\nthrow d100 Ola\ncoin\ncoin Ewa\nrandom\nundo\nthrow 11d6\n"
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", script, "--language", language)
    assert [out[i] for i in (2, 3, 6, 7, 8, 9, 10)] == replies


def test_the_commands_do_not_clash_and_help_lists_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Wizard's Duel keeps its ``dice``: the general roll is ``throw``."""
    names = [name for entry in entries() for name in (entry.name, *entry.aliases)]
    assert len(names) == len(set(names))
    assert {"d6", "d20", "throw", "coin", "random", "dice"} <= set(names)
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "help throw\nhelp\n")
    assert out[:2] == [
        "throw NdM [PLAYER]",
        "    Roll N dice of M sides (2d6, d8, 3d10, d100: 1 to 10 dice of 2 to 100 sides); PLAYER is who rolls.",
    ]
    listed = [line.split()[0] for line in out[2:]]
    assert listed.index("d6") == listed.index("quit") + 1  # right after the commands every game has
    assert listed[listed.index("d6") : listed.index("d6") + 5] == [
        "d6",
        "d20",
        "throw",
        "coin",
        "random",
    ]
