"""``aetherbox console --language``: the game's messages in Russian, Japanese and Polish, with the
translations the kiosk shows (the catalogues in ``device/translations/locale/``), through ``main``
as a user types the lines; counts take each language's plural form, names stay as typed."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from device.text import Message
from device.translations import ConsoleTranslator, catalogs
from device.translations.catalogs import Translations
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


def test_english_is_the_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", GAME) == [
        "refused: No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
        "New game (Commander) for Вера, Ola, Kenji, 40 life. Вера goes first.",
        "Вера will skip their next turn.",
        "Ola will skip their next 2 turns.",
        "Kenji will skip their next 5 turns.",
        "Kenji: 0 → 4 poison (from Ola).",
        "refused: Kenji has 4 poison counters; 5 cannot be removed.",
        "refused: Usage: life PLAYER +N|-N|=N [from SOURCE]",
        "Ola: 40 → 0 life.",
        "Ola has lost: 0 or less life.",
        "Kenji: 40 → 0 life.",
        "Kenji has lost: 0 or less life.",
        "Game over: Вера won (last player standing).",
    ]


def test_russian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
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
        "отказано: Использование: life PLAYER +N|-N|=N [from SOURCE]",
        "Ola: жизнь 40 → 0.",
        "Выбывает: Ola — жизнь 0 или меньше.",
        "Kenji: жизнь 40 → 0.",
        "Выбывает: Kenji — жизнь 0 или меньше.",
        "Игра окончена: победитель — Вера (последний оставшийся игрок).",
    ]


def test_polish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Three plural forms (1 turę, 2 tury, 5 tur; 4 znaczniki)."""
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", GAME, "--language", "pl") == [
        "odrzucono: Żadna gra nie trwa: zacznij ją poleceniem 'new', np. 'new commander Alice Bob Carol'.",
        "Nowa gra (Commander): Вера, Ola, Kenji; życie: 40. Zaczyna Вера.",
        "Вера pominie 1 turę.",
        "Ola pominie 2 tury.",
        "Kenji pominie 5 tur.",
        "Kenji: trucizna 0 → 4 (źródło: Ola).",
        "odrzucono: Kenji ma 4 znaczniki trucizny; nie można zdjąć 5.",
        "odrzucono: Użycie: life PLAYER +N|-N|=N [from SOURCE]",
        "Ola: życie 40 → 0.",
        "Ola odpada: 0 lub mniej życia.",
        "Kenji: życie 40 → 0.",
        "Kenji odpada: 0 lub mniej życia.",
        "Koniec gry: wygrywa Вера (ostatni gracz w grze).",
    ]


def test_japanese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", GAME, "--language", "ja")
    assert out[:4] == [
        "受付不可：ゲームがありません：'new' で始めてください（例：'new commander Alice Bob Carol'）。",
        "統率者戦の新しいゲーム：Вера、Ola、Kenji、ライフ40。先手はВера。",
        "Вераは次の1ターンをスキップします。",
        "Olaは次の2ターンをスキップします。",
    ]
    assert out[-1] == "ゲーム終了：Вераの勝利（最後まで残ったプレイヤー）。"


def test_the_log_and_undo_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new Ala Ola first=Ala\nlife Ola -3\nundo\nlog\n",
        "--language",
        "pl",
    )
    assert out[2] == "Cofnięto: Ola: życie 20 → 17."
    assert [line[15:] for line in out[3:]] == [
        "Nowa gra (Każdy na każdego): Ala, Ola; życie: 20. Zaczyna Ala.",
        "Ola: życie 20 → 17.  (cofnięte)",
    ]


def test_a_formats_console_view_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new wizards_duel Aiko Ben first=Aiko\nwizards\nlife Aiko -1\n",
        "--language",
        "ja",
    )
    assert "ラウンド1、フェイズ1（マナ集め）。スタートプレイヤー：Aiko。" in out
    assert "* Aiko：魔力35、手5、予備7、マナプールなし" in out
    assert (
        out[-1]
        == "受付不可：魔術師の決闘はライフを数えません。独自のコマンドは 'help' で確認できます。"
    )


def test_the_configured_language_is_the_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "c.toml"
    config.write_text('language = "ru"\n', encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("new A B first=A\n"))
    assert main(["--config", str(config), "console", "--db", str(tmp_path / "j.sqlite3")]) == 0
    assert (
        capsys.readouterr().out == "Новая игра (Все против всех): A, B; жизнь: 20. Первый ход: A.\n"
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("show\n"))
    assert (
        main(
            [
                "--config",
                str(config),
                "console",
                "--db",
                str(tmp_path / "k.sqlite3"),
                "--language",
                "en",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("refused: No game is running")


def test_an_unknown_language_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["console", "--language", "de"])
    assert "argument --language: invalid choice: 'de'" in capsys.readouterr().err


def test_a_translation_of_other_english_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """The console takes a translation only if it was made from the English it prints: the
    screen's wording's translation (naming a button) is not the console's, and a translation
    waiting for a changed English shows the English."""
    texts = {
        "rules.no_game": "Игра не идёт: начните её кнопкой НОВАЯ.",
        "controller.undid": "Отменено: {what}",
    }
    made_from = {
        "rules.no_game": "No game is running: set one up with NEW.",
        "controller.undid": "Undone: {what}",
    }
    monkeypatch.setattr(
        catalogs, "load", lambda language: Translations(language, texts, english=made_from)
    )
    tr = ConsoleTranslator("ru")
    assert tr.message(Message("rules.no_game")) == (
        "No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'."
    )
    assert tr.message(Message("controller.undid", what="x")) == "Отменено: x"


TABLE = """\
new commander Вера Ola Kenji first=Вера
reverse
poison Kenji +4 from Ola
commander Ola 5 from Вера
skip Ola 2
concede Kenji
show
dealt
help skip
"""


def test_show_dealt_and_help_in_english_as_before(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", TABLE)[-8:] == [
        "Turn 1: Вера's upkeep, turn order reversed.",
        "* Вера: 40 life",
        "  Ola: 35 life  (5 from Вера's commander; skips 2 turns)",
        "  Kenji: 40 life  (4 poison; lost: conceded)",
        "Вера → Ola: 5 life lost",
        "Ola → Kenji: 4 poison",
        "skip PLAYER [N]",
        "    PLAYER skips their next N turns (default 1) (TB-3).",
    ]


def test_show_dealt_and_help_in_russian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Plural forms: 4 жетона яда, 5 жизней, 2 хода; the usage stays as typed."""
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", TABLE, "--language", "ru")[-8:] == [
        "Ход 1: Вера — апкип, порядок ходов обратный.",
        "* Вера: жизнь 40",
        "  Ola: жизнь 35  (командир игрока Вера: урон 5; пропустит 2 хода)",
        "  Kenji: жизнь 40  (4 жетона яда; вне игры: сдача)",
        "Вера → Ola: потеряно 5 жизней",
        "Ola → Kenji: 4 жетона яда",
        "skip PLAYER [N]",
        "    Игрок PLAYER пропустит следующие N ходов (по умолчанию 1) (TB-3).",
    ]


def test_show_dealt_and_help_in_japanese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", TABLE, "--language", "ja")[-8:] == [
        "ターン1：Вераのアップキープ、ターン順は逆。",
        "* Вера：ライフ40",
        "  Ola：ライフ35（Вераの統率者からのダメージ5、2ターンをスキップ）",
        "  Kenji：ライフ40（毒4、敗北：投了）",
        "Вера → Ola：ライフを5点失った",
        "Ola → Kenji：毒4",
        "skip PLAYER [N]",
        "    PLAYERは次のNターン（デフォルト1）をスキップ（TB-3）。",
    ]


def test_show_dealt_and_help_in_polish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        TABLE + "poison Вера +1\nshow\n",
        "--language",
        "pl",
    )
    assert out[-13:-5] == [
        "Tura 1: Вера — upkeep, kolejność tur odwrócona.",
        "* Вера: życie 40",
        "  Ola: życie 35  (dowódca gracza Вера: obrażenia 5; pominie 2 tury)",
        "  Kenji: życie 40  (4 znaczniki trucizny; odpada: rezygnacja)",
        "Вера → Ola: straconych 5 punktów życia",
        "Ola → Kenji: 4 znaczniki trucizny",
        "skip PLAYER [N]",
        "    PLAYER pominie następne N tur (domyślnie 1) (TB-3).",
    ]
    assert out[-3] == "* Вера: życie 40  (1 znacznik trucizny)"


def test_two_headed_giant_teams_in_russian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new ffa+2hg A B C D first=A\npoison A +5\nshow\n",
        "--language",
        "ru",
    )
    assert "Команда A & B: жизнь 30, 5 жетонов яда" in out
    assert "Команда C & D: жизнь 30" in out


def test_the_games_list_resuming_and_deleting_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The saved games are worded as the kiosk words them: formats and players, the turn, the
    result; the question before a deletion and the deletion too."""
    db = tmp_path / "j.sqlite3"
    run(
        monkeypatch,
        capsys,
        db,
        "new duel Ewa Iga first=Ewa\ndamage Iga 20 from Ewa\nnew Ala Ola first=Ala\nnext\nnext\n",
    )

    def said(language: str, text: str) -> list[str]:
        return [
            re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d", "WHEN", line)
            for line in run(monkeypatch, capsys, db, text, "--language", language)
        ]

    assert said("ru", "games\ndelete 1\n") == [
        "Продолжается игра 2: Все против всех: Ala, Ola (ход 2).",
        "*   2  WHEN  Все против всех: Ala, Ola  (ход 2)",
        "    1  WHEN  Игра вдвоём: Ewa, Iga  (окончена: победитель — Ewa (последний оставшийся игрок))",
        "Игра 1: Игра вдвоём: Ewa, Iga (окончена: победитель — Ewa (последний оставшийся игрок)). Удаление нельзя "
        "отменить; чтобы удалить её, введите 'delete 1 yes'.",
    ]
    assert said("ja", "games\n") == [
        "ゲーム2を再開：多人数戦（フリー・フォー・オール）：Ala、Ola（ターン2）。",
        "*   2  WHEN  多人数戦（フリー・フォー・オール）：Ala、Ola（ターン2）",
        "    1  WHEN  二人対戦：Ewa、Iga（終了：Ewaの勝利（最後まで残ったプレイヤー））",
    ]
    assert said("pl", "delete 1 yes\ndelete 2 yes\ngames\n") == [
        "Wznowiono grę 2: Każdy na każdego: Ala, Ola (tura 2).",
        "Usunięto grę 1: Gra dwuosobowa: Ewa, Iga.",
        "Usunięto grę 2: Każdy na każdego: Ala, Ola. Teraz żadna gra się nie toczy.",
    ]
    assert said("en", "games\n") == []


def test_the_command_list_in_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "help\n", "--language", "ja")
    assert (
        f"{'undo [N]':<46} 最後の変更（または最後のN個）を取り消す。やり直しできます（LF-4）。"
        in out
    )
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "help\n")
    assert (
        f"{'undo [N]':<46} Take back the last change (or the last N); it can be redone (LF-4)."
        in out
    )


PLANECHASE = """\
new ffa+planechase Ala Ola first=Ala
deck Ala all
deck Ola all
next
roll
roll
freeroll
planes
odds 2
help odds
"""


#: A seed whose random decks (dealt without the playtest cards) give a chaos, a blank and an
#: effect's planeswalk: every kind of roll in the list.
SEED = ("--seed", "6")


def test_planechase_views_in_english_as_before(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", PLANECHASE, *SEED)[-13:] == [
        "Face up: Ghirapur (plane)",
        "Planar controller: Ala",
        "Ala's planar deck: 9 card(s)",
        "Ola's planar deck: 10 card(s)",
        "Next roll costs: Ala 2, Ola 0",
        "Visited: The Hippodrome, Ghirapur",
        "Rolls: Ala CH, Ala blank (1), Ala PL (effect)",
        "Next roll: planeswalk 1/6, chaos 1/6, blank 2/3.",
        "Ala's next roll costs 2.",
        "1 roll(s): 16.7% to planeswalk at least once, costing 2.",
        "2 roll(s): 30.6% to planeswalk at least once, costing 5.",
        "odds [K]",
        "    The planar die's odds now, and for K rolls this turn: the chance of at least one planeswalk and the mana "
        "they cost (PC-13).",
    ]


def test_planechase_views_in_russian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Plural forms: 1 бросок, 2 броска, 9 карт; card and player names as typed."""
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", PLANECHASE, *SEED, "--language", "ru")[
        -13:-2
    ] == [
        "Открыто: Ghirapur (измерение)",
        "Контроллер измерения: Ala",
        "9 карт — колода измерений игрока Ala",
        "10 карт — колода измерений игрока Ola",
        "Стоимость следующего броска: Ala 2, Ola 0",
        "Посещены: The Hippodrome, Ghirapur",
        "Броски: Ala CH, Ala пусто (1), Ala PL (эффект)",
        "Следующий бросок: переход 1/6, хаос 1/6, пустая грань 2/3.",
        "Следующий бросок игрока Ala стоит 2.",
        "1 бросок: 16.7% — хотя бы один переход, стоимость 2.",
        "2 броска: 30.6% — хотя бы один переход, стоимость 5.",
    ]


def test_planechase_views_in_japanese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", PLANECHASE, *SEED, "--language", "ja")
    assert out[-13:-9] == [
        "表向き：Ghirapur（次元）",
        "次元のコントローラー：Ala",
        "Alaの次元デッキ：9枚",
        "Olaの次元デッキ：10枚",
    ]
    assert out[-7] == "ロール：Ala CH、Ala 空白（1）、Ala PL（効果）"
    assert out[-3] == "2回のロール：1回以上プレインズウォークする確率30.6%、コスト5。"
    assert (
        out[-1]
        == "    今の次元ダイスの確率と、このターンにK回振るとき：1回以上プレインズウォークする確率とそのマナ・コスト（PC-13）。"
    )


def test_planechase_views_in_polish(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        PLANECHASE + "odds 5\n",
        *SEED,
        "--language",
        "pl",
    )
    assert out[-20:-16] == [
        "Odkryta: Ghirapur (plan)",
        "Kontroler planu: Ala",
        "9 kart — talia planarna gracza Ala",
        "10 kart — talia planarna gracza Ola",
    ]
    assert out[-5:] == [
        "1 rzut: 16.7% na co najmniej jeden planeswalk, koszt 2.",
        "2 rzuty: 30.6% na co najmniej jeden planeswalk, koszt 5.",
        "3 rzuty: 42.1% na co najmniej jeden planeswalk, koszt 9.",
        "4 rzuty: 51.8% na co najmniej jeden planeswalk, koszt 14.",
        "5 rzutów: 59.8% na co najmniej jeden planeswalk, koszt 20.",
    ]


CONTRAPTIONS = """\
new commander+contraptions Alice Bob Carol first=Alice contraption_cards=physical
card Tread Mill
sprocket 1
card arms depot
sprocket 1
next
next
card Boomflinger
sprocket 2
pass
pass
crank Arms Depot, Tread Mill
card Tread Mill
scrap
exile Arms Depot
copy Bob Boomflinger
contraptions
help crank
"""

CONTRAPTIONS_VIEW = {
    "en": [
        "Alice's upkeep: CRANK! 3 → 1.",
        "Cranked: Arms Depot, Tread Mill.",
        "Bob  (CRANK! on 3)",
        "  2: Boomflinger",
        "Alice's scrapyard: Tread Mill",
        "Alice's exiled contraptions: Arms Depot",
        "Bob's scrapyard: Boomflinger (copy)",
        "    Crank these contraptions on the sprocket the CRANK! counter is on, in this order; their abilities "
        "trigger in that order (CT-4).",
    ],
    "ru": [
        "Шаг поддержки игрока Alice: CRANK! 3 → 1.",
        "Заведены: Arms Depot, Tread Mill.",
        "Bob  (CRANK! на 3)",
        "  2: Boomflinger",
        "Помойка игрока Alice: Tread Mill",
        "Изгнанные штуковины игрока Alice: Arms Depot",
        "Помойка игрока Bob: Boomflinger (копия)",
        "    Завести эти штуковины на шестерёнке с жетоном CRANK! в этом порядке; их способности срабатывают в том "
        "же порядке (CT-4).",
    ],
    "ja": [
        "Aliceのアップキープ：CRANK! 3 → 1。",
        "クランク済み：Arms Depot、Tread Mill。",
        "Bob（CRANK!：3）",
        "  2：Boomflinger",
        "Aliceのスクラップ置き場：Tread Mill",
        "Aliceの追放されたからくり：Arms Depot",
        "Bobのスクラップ置き場：Boomflinger（コピー）",
        "    CRANK!カウンターのあるスプロケットのからくりをこの順でクランクする。能力もこの順に誘発します（CT-4）。",
    ],
    "pl": [
        "Utrzymanie gracza Alice: CRANK! 3 → 1.",
        "Zakręcone: Arms Depot, Tread Mill.",
        "Bob  (CRANK! na 3)",
        "  2: Boomflinger",
        "Złomowisko gracza Alice: Tread Mill",
        "Wygnane ustrojstwa gracza Alice: Arms Depot",
        "Złomowisko gracza Bob: Boomflinger (kopia)",
        "    Zakręć tymi ustrojstwami na zębatce ze znacznikiem CRANK!, w tej kolejności; ich zdolności wyzwalają się "
        "w tej samej kolejności (CT-4).",
    ],
}


def in_order(out: list[str], expected: list[str]) -> None:
    """``expected`` are lines of ``out``, in this order."""
    at = 0
    for line in expected:
        assert line in out[at:], line
        at = out.index(line, at) + 1


@pytest.mark.parametrize("language", ["en", "ru", "ja", "pl"])
def test_the_contraptions_view_in_the_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
) -> None:
    """The view's banner, boards, libraries and zones and the commands' help; card and player
    names as typed."""
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", CONTRAPTIONS, "--language", language)
    in_order(out, CONTRAPTIONS_VIEW[language])
    physical = {
        "en": "Alice's contraption deck: physical cards",
        "ru": "Колода штуковин игрока Alice: физические карты",
        "ja": "Aliceのからくりデッキ：実物のカード",
        "pl": "Talia ustrojstw gracza Alice: karty fizyczne",
    }
    assert physical[language] in out


WIZARDS = """\
new pojedynek Ala Ola Ewa first=Ala power_drain=on
spell Ala "Kula ognia" attack 4 fire level=0
spell Ala Leczenie heal 3 earth level=1
spell Ala Burza attack 2 air + area 3/1 water level=2
spell Ola "Lodowy pocisk" attack 5 water
spell Ola Regeneracja heal 4 earth
spell Ola Trzesienie area 3/2 earth
dice
aside Ala
aside Ola
aside Ewa
dice Ala f f f f f
aside Ala f f f f f
dice Ola f f f f f
aside Ola f f f f f
dice Ewa
aside Ewa
dice Ala f f f f f
aside Ala f f f f f
dice Ola f f f f f
aside Ola f f f f f
dice Ewa
aside Ewa
dice
wizards
play Ola lod f f
play Ola trz f
learn Ola 2 Zwoj attack 6 air with f f
ready
cast Ola lod at Ewa
defend Ewa drain
wizards
help hold
"""

WIZARDS_VIEW = {
    "en": [
        "  Ala: 30 magic points; hand 0, reserve 0, mana pool fire fire fire fire fire fire fire fire fire fire earth magic",
        "    Kula ognia (level 0): offensive 4 fire",
        "    Lodowy pocisk (turned sideways): offensive 5 water [fire fire, used]",
        "    Zwoj (learned): offensive 6 air [fire fire]",
        "  Ewa: 32 magic points; hand 0, reserve 6, mana pool air magic water magic water; used power drain",
        "    Phase 3: PLAYER casts nothing this turn and is done casting this round; their spells can still defend "
        "(WD-2). NEXT does the same for whoever is to cast.",
    ],
    "ru": [
        "    Kula ognia (уровень 0): атака 4, огонь",
        "    Lodowy pocisk (повёрнута боком): атака 5, вода [огонь, огонь, использовано]",
        "    Zwoj (выучена): атака 6, воздух [огонь, огонь]",
        "  Ewa: очки магии 32; рука 0, резерв 6, пул маны воздух, магия, вода, магия, вода; использовано: "
        "высасывание силы",
        "    Фаза 3: PLAYER ничего не сотворяет в этот ход и заканчивает сотворение в этом раунде; его заклинания "
        "всё ещё могут защищать (WD-2). ДАЛЕЕ делает то же для того, кто сотворяет.",
    ],
    "ja": [
        "    Kula ognia（レベル0）：攻撃4・火",
        "    Lodowy pocisk（向きを変えた）：攻撃5・水 [火・火、使用済み]",
        "    Zwoj（習得）：攻撃6・風 [火・火]",
        "  Ewa：魔力32、手0、予備6、マナプール風・魔法・水・魔法・水; 使用済み魔力吸収",
        "    フェイズ3：PLAYERはこの番に何も発動せず、このラウンドの発動を終える。その呪文で防御はまだできます（WD-2）。"
        "「次へ」も発動する番の人に同じことをします。",
    ],
    "pl": [
        "    Kula ognia (poziom 0): atak 4, ogień",
        "    Lodowy pocisk (obrócona bokiem): atak 5, woda [ogień, ogień, zużyte]",
        "    Zwoj (wyuczona): atak 6, powietrze [ogień, ogień]",
        "  Ewa: punkty magii 32; ręka 0, rezerwa 6, pula many powietrze, magia, woda, magia, woda; użyto: "
        "wyssanie mocy",
        "    Faza 3: PLAYER nic nie rzuca w tej turze i kończy rzucanie w tej rundzie; jego zaklęcia wciąż mogą "
        "bronić (WD-2). DALEJ robi to samo za tego, kto ma rzucać.",
    ],
}


@pytest.mark.parametrize("language", ["en", "ru", "ja", "pl"])
def test_the_wizards_view_in_the_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
) -> None:
    """Levels, learned and turned cards, used spells, the power drain and the commands' help;
    card and player names as typed."""
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", WIZARDS, "--language", language)
    in_order(out, WIZARDS_VIEW[language])


CONSPIRACY = """\
event Spring Ala Ola Ewa Ida Jan Kuba
turn Ewa
out Ala
groups
clock
time
out Jan
groups
standings
export {path}
help finish
"""

CONSPIRACY_VIEW = {
    "en": [
        "Pod 1:",
        "Round 1:",
        "  Group 1: *Ewa, Ala (left), Ida — finished",
        "  Group 2: Kuba, Ola, Jan",
        "75 minute(s) left in round 1.",
        "Round 2:",
        "  Winners' group: Kuba, Ewa, Ida, Ola",
        " -  Ala  (Group 1 → Losers' group; playing)",
        "Wrote 6 result(s) to {path}.",
        "    GROUP's extra turns are over: rank its players still in by life (CJ-5).",
    ],
    "ru": [
        "Под №1:",
        "Раунд 1:",
        "  Группа 1: *Ewa, Ala (вне игры), Ida — игра окончена",
        "  Группа 2: Kuba, Ola, Jan",
        "До конца раунда 1 осталось 75 минут.",
        "Раунд 2:",
        "  Группа победителей: Kuba, Ewa, Ida, Ola",
        " -  Ala  (Группа 1 → Группа проигравших; играет)",
        "Записано 6 результатов в {path}.",
        "    Дополнительные ходы группы GROUP окончены: оставшиеся в игре игроки распределяются по жизни (CJ-5).",
    ],
    "ja": [
        "ポッド1：",
        "1回戦：",
        "  グループ1：*Ewa、Ala（離脱）、Ida（終了）",
        "  グループ2：Kuba、Ola、Jan",
        "1回戦の残り時間：75分。",
        "2回戦：",
        "  勝ちグループ：Kuba、Ewa、Ida、Ola",
        " -  Ala（グループ1 → 負けグループ、プレイ中）",
        "6人分の順位を{path}に書き出しました。",
        "    GROUPの追加ターンが終わった：残っているプレイヤーをライフで順位付けします（CJ-5）。",
    ],
    "pl": [
        "Pod nr 1:",
        "Runda 1:",
        "  Grupa 1: *Ewa, Ala (poza grą), Ida — zakończona",
        "  Grupa 2: Kuba, Ola, Jan",
        "Do końca rundy 1 zostało 75 minut.",
        "Runda 2:",
        "  Grupa zwycięzców: Kuba, Ewa, Ida, Ola",
        " -  Ala  (Grupa 1 → Grupa przegranych; w grze)",
        "Zapisano 6 wyników do {path}.",
        "    Dodatkowe tury grupy GROUP się skończyły: jej gracze wciąż w grze dostają miejsca według życia (CJ-5).",
    ],
}


@pytest.mark.parametrize("language", ["en", "ru", "ja", "pl"])
def test_the_conspiracy_groups_and_standings_in_the_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
) -> None:
    """Pods, rounds, groups with who left and which finished, time left and the export in the
    language's plural forms (75 минут, 6 wyników); player names as typed."""
    path = tmp_path / "results.csv"
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        CONSPIRACY.format(path=path),
        "--language",
        language,
    )
    in_order(out, [line.format(path=path) for line in CONSPIRACY_VIEW[language]])


@pytest.mark.parametrize(
    ("language", "one", "few"),
    [
        ("ru", "До конца раунда 3 осталась 1 минута.", "Записано 2 результата в r.csv."),
        ("pl", "Do końca rundy 3 została 1 minuta.", "Zapisano 2 wyniki do r.csv."),
    ],
)
def test_conspiracy_counts_take_the_languages_plural_forms(
    language: str, one: str, few: str
) -> None:
    translator = ConsoleTranslator(language)
    assert translator.message(Message("console.consp.minutes_left", n=1, round=3)) == one
    assert translator.message(Message("console.consp.wrote", n=2, path="r.csv")) == few


NECROMANCER_HELP = {
    "en": [
        "blame PLAYER KILLER|nobody",
        "    Put PLAYER's latest loss down to KILLER, or to nobody (self-inflicted or unknown); the minion outcome is "
        "settled again (NC-1).",
        "solo PLAYER",
        "    A minion finished one of their three solo turns apart from the game (NC-3).",
    ],
    "ru": [
        "blame PLAYER KILLER|nobody",
        "    Считать виновником последнего поражения игрока PLAYER игрока KILLER или никого (nobody: сам себе или "
        "неизвестно кто); исход для миньонов решается заново (NC-1).",
        "solo PLAYER",
        "    Миньон закончил один из трёх своих ходов отдельно от общей игры (NC-3).",
    ],
    "ja": [
        "blame PLAYER KILLER|nobody",
        "    PLAYERの直前の敗北をKILLERによるもの、または誰によるものでもないもの（自滅か不明）にする。ミニオンの扱いを"
        "決め直します（NC-1）。",
        "solo PLAYER",
        "    ミニオンがゲームの外での3回の単独ターンのうち1回を終えた（NC-3）。",
    ],
    "pl": [
        "blame PLAYER KILLER|nobody",
        "    Przypisz ostatnią przegraną gracza PLAYER graczowi KILLER albo nikomu (własna wina lub nie wiadomo "
        "czyja); wynik dla sług ustala się na nowo (NC-1).",
        "solo PLAYER",
        "    Sługa skończył jedną ze swoich trzech tur osobno od wspólnej gry (NC-3).",
    ],
}


@pytest.mark.parametrize("language", ["en", "ru", "ja", "pl"])
def test_the_necromancer_commands_help_in_the_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
) -> None:
    """The usage stays as typed; what the command does is in the language."""
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new necromancer Ala Ola first=Ala\nhelp blame\nhelp solo\n",
        "--language",
        language,
    )
    assert out[-4:] == NECROMANCER_HELP[language]
    listed = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "help\n", "--language", language)
    assert any(
        line.startswith("minions ") and line.endswith(("NC-4, NC-6).", "NC-4、NC-6）。"))
        for line in listed
    )


LIBRARIES = """\
new ffa+contraptions Ala Ola Ewa first=Ala contraption_cards=physical
contraptions
new ffa+contraptions Ala Ola Ewa first=Ala
contraptions
"""

LIBRARY_LINES = {
    "en": ["Ala's contraption deck: physical cards", "Ala's contraption deck: 15 card(s)"],
    "ru": ["Колода штуковин игрока Ala: физические карты", "Колода штуковин игрока Ala: 15 карт"],
    "ja": ["Alaのからくりデッキ：実物のカード", "Alaのからくりデッキ：15枚"],
    "pl": ["Talia ustrojstw gracza Ala: karty fizyczne", "Talia ustrojstw gracza Ala: 15 kart"],
}


@pytest.mark.parametrize("language", ["en", "ru", "ja", "pl"])
def test_the_contraption_libraries_in_the_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
) -> None:
    """A library's line (physical cards, or how many are left) in the console's language."""
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", LIBRARIES, "--language", language)
    for line in LIBRARY_LINES[language]:
        assert line in out, (line, out)


@pytest.mark.parametrize(
    ("language", "one", "few", "many", "top"),
    [
        (
            "ru",
            "Склад: 1 карта",
            "Склад: 3 карты",
            "Склад: 5 карт",
            "Склад: 5 карт, сверху: Widget",
        ),
        (
            "pl",
            "Skład: 1 karta",
            "Skład: 3 karty",
            "Skład: 5 kart",
            "Skład: 5 kart, na wierzchu: Widget",
        ),
        ("ja", "Склад：1枚", "Склад：3枚", "Склад：5枚", "Склад：5枚、一番上：Widget"),
    ],
)
def test_a_library_counts_its_cards_with_the_plural_form(
    language: str, one: str, few: str, many: str, top: str
) -> None:
    translator = ConsoleTranslator(language)
    name = "Склад" if language != "pl" else "Skład"

    def line(n: int, card: str = "") -> str:
        shown: str | Message = Message("ct.view.top", card=card) if card else ""
        return translator.message(Message("ct.view.library_cards", library=name, n=n, top=shown))

    assert (line(1), line(3), line(5), line(5, "Widget")) == (one, few, many, top)


@pytest.mark.parametrize(
    ("language", "comma", "space"),
    [("en", ", ", " "), ("ru", ", ", " "), ("ja", "、", ""), ("pl", ", ", " ")],
)
def test_a_long_games_lists_are_worded_whole(language: str, comma: str, space: str) -> None:
    """A game of hundreds of turns lists hundreds of rolls in 'planes' and says hundreds of
    sentences at once: worded whole, in every language, never too deep for Python to word."""
    from device.text import listing, sentences

    translator = ConsoleTranslator(language)
    items = [f"r{i}" for i in range(3000)]
    assert translator.message(listing(items, "text.list")) == comma.join(items)  # type: ignore[arg-type]
    assert translator.message(sentences(items)) == space.join(items)  # type: ignore[arg-type]
    worded = translator.message(listing(items))  # type: ignore[arg-type]
    assert worded.startswith(comma.join(items[:-1])) and worded.endswith(items[-1])


def test_planes_after_hundreds_of_rolls(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """PC-2 in a long game: 'planes' lists every roll of the game (here some 300), with undo and redo."""
    turns = "".join(
        "next\nroll\nroll\nroll\nnext\n" + ("undo 2\nredo 1\n" if t % 17 == 5 else "")
        for t in range(200)
    )
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new ffa+planechase Ann Ben Cid Dee first=Ann\n" + turns + "planes\n",
        "--seed",
        "5",
    )
    rolls = [line for line in out if line.startswith("Rolls: ")]
    assert len(rolls) == 1 and rolls[0].count(",") >= 290
