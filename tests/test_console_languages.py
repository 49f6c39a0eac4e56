"""``aetherbox console --language``: the game's messages in Russian, Japanese and Polish, with the
translations the kiosk shows (the catalogues in ``device/translations/locale/``), through ``main``
as a user types the lines; counts take each language's plural form, names stay as typed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from device.text import Message
from device.translations import ConsoleTranslator, catalogs
from device.translations.catalogs import Translations
from display.cli import main


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: Path, text: str, *extra: str) -> list[str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["console", "--db", str(db), "--seed", "3", *extra]) == 0
    return capsys.readouterr().out.splitlines()


GAME = """\
show
new commander Вера Ola Kenji first=Вера
skip Вера
skip Ola 2
skip Kenji 5
poison Kenji +4 from Ola
poison Kenji -5
life Вера
life Ola =0
life Kenji =0
"""


def test_english_is_the_default(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", GAME) == [
        "refused: No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
        "New game (Commander) for Вера, Ola, Kenji, 40 life. Вера goes first.",
        "Вера will skip their next turn.",
        "Ola will skip their next 2 turns.",
        "Kenji will skip their next 5 turns.",
        "Kenji: 0 → 4 poison (from Ola).",
        "refused: Kenji has 4 poison counters; 5 cannot be removed.",
        "refused: Usage: life PLAYER +N|-N|=N [from SOURCE] (life PLAYER +N|-N|=N [from SOURCE])",
        "Ola: 40 → 0 life.",
        "Ola has lost: 0 or less life.",
        "Kenji: 40 → 0 life.",
        "Kenji has lost: 0 or less life.",
        "Game over: Вера won (last player standing).",
    ]


def test_russian(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Three plural forms (1 ход, 2 хода, 5 ходов; 4 жетона), and a refusal worded for the console
    (it names the command to type, where the screen names its button)."""
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", GAME, "--language", "ru") == [
        "отказано: Игра не идёт: начните её командой 'new', например 'new commander Alice Bob Carol'.",
        "Новая игра (Командир): Вера, Ola, Kenji; жизнь: 40. Первый ход: Вера.",
        "Игрок Вера пропустит 1 ход.",
        "Игрок Ola пропустит 2 хода.",
        "Игрок Kenji пропустит 5 ходов.",
        "Kenji: яд 0 → 4 (источник: Ola).",
        "отказано: У игрока Kenji 4 жетона яда; снять 5 нельзя.",
        "отказано: Использование: life PLAYER +N|-N|=N [from SOURCE] (life PLAYER +N|-N|=N [from SOURCE])",
        "Ola: жизнь 40 → 0.",
        "Выбывает: Ola — жизнь 0 или меньше.",
        "Kenji: жизнь 40 → 0.",
        "Выбывает: Kenji — жизнь 0 или меньше.",
        "Игра окончена: победитель — Вера (последний оставшийся игрок).",
    ]


def test_polish(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Three plural forms (1 turę, 2 tury, 5 tur; 4 znaczniki)."""
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", GAME, "--language", "pl") == [
        "odrzucono: Żadna gra nie trwa: zacznij ją poleceniem 'new', np. 'new commander Alice Bob Carol'.",
        "Nowa gra (Commander): Вера, Ola, Kenji; życie: 40. Zaczyna Вера.",
        "Вера pominie 1 turę.",
        "Ola pominie 2 tury.",
        "Kenji pominie 5 tur.",
        "Kenji: trucizna 0 → 4 (źródło: Ola).",
        "odrzucono: Kenji ma 4 znaczniki trucizny; nie można zdjąć 5.",
        "odrzucono: Użycie: life PLAYER +N|-N|=N [from SOURCE] (life PLAYER +N|-N|=N [from SOURCE])",
        "Ola: życie 40 → 0.",
        "Ola odpada: 0 lub mniej życia.",
        "Kenji: życie 40 → 0.",
        "Kenji odpada: 0 lub mniej życia.",
        "Koniec gry: wygrywa Вера (ostatni gracz w grze).",
    ]


def test_japanese(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", GAME, "--language", "ja")
    assert out[:4] == [
        "受付不可：ゲームがありません：'new' で始めてください（例：'new commander Alice Bob Carol'）。",
        "統率者戦の新しいゲーム：Вера、Ola、Kenji、ライフ40。先手はВера。",
        "Вераは次の1ターンをスキップします。",
        "Olaは次の2ターンをスキップします。",
    ]
    assert out[-1] == "ゲーム終了：Вераの勝利（最後まで残ったプレイヤー）。"


def test_the_log_and_undo_in_the_language(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "new Ala Ola first=Ala\nlife Ola -3\nundo\nlog\n",
              "--language", "pl")
    assert out[2] == "Cofnięto: Ola: życie 20 → 17."
    assert [line[15:] for line in out[3:]] == [
        "Nowa gra (Każdy na każdego): Ala, Ola; życie: 20. Zaczyna Ala.",
        "Ola: życie 20 → 17.  (undone)",
    ]


def test_a_formats_console_view_in_the_language(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "new wizards_duel Aiko Ben first=Aiko\nwizards\n"
              "life Aiko -1\n", "--language", "ja")
    assert "ラウンド1、フェイズ1（マナ集め）。スタートプレイヤー：Aiko。" in out
    assert "* Aiko：魔力35、手5、予備7、マナプールなし" in out
    assert out[-1] == "受付不可：魔術師の決闘はライフを数えません。独自のコマンドは 'help' で確認できます。"


def test_the_configured_language_is_the_default(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('language = "ru"\n', encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("new A B first=A\n"))
    assert main(["--config", str(config), "console", "--db", str(tmp_path / "j.sqlite3")]) == 0
    assert capsys.readouterr().out == "Новая игра (Все против всех): A, B; жизнь: 20. Первый ход: A.\n"
    monkeypatch.setattr("sys.stdin", io.StringIO("show\n"))
    assert main(["--config", str(config), "console", "--db", str(tmp_path / "k.sqlite3"), "--language", "en"]) == 0
    assert capsys.readouterr().out.startswith("refused: No game is running")


def test_an_unknown_language_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["console", "--language", "de"])
    assert "argument --language: invalid choice: 'de'" in capsys.readouterr().err


def test_a_translation_of_other_english_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """The console takes a translation only if it was made from the English it prints: the
    screen's wording's translation (naming a button) is not the console's, and a translation
    waiting for a changed English shows the English."""
    texts = {"rules.no_game": "Игра не идёт: начните её кнопкой НОВАЯ.", "controller.undid": "Отменено: {what}"}
    made_from = {"rules.no_game": "No game is running: set one up with NEW.", "controller.undid": "Undone: {what}"}
    monkeypatch.setattr(catalogs, "load", lambda language: Translations(language, texts, english=made_from))
    tr = ConsoleTranslator("ru")
    assert tr.message(Message("rules.no_game")) == (
        "No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.")
    assert tr.message(Message("controller.undid", what="x")) == "Отменено: x"
