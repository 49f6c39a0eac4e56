"""The kiosk speaks the table's language: Planechase's messages carry plain values (numbers,
names, word keys) that each language places itself, and the set-up screen shows format titles and
table options translated (test_catalogs.py checks every text of every catalogue)."""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable

from msgspec.structs import replace
import pytest

import device.cardtext  # noqa: F401 - every module that registers texts
import device.catalog  # noqa: F401
import device.console  # noqa: F401
import device.controller  # noqa: F401
import device.game
import device.scryfall  # noqa: F401
import device.tagmap  # noqa: F401
from device.game import GAME
from device.commands import Advance, ChangeLife, NewGame
from device.console import TABLES
from device.rules.planechase.commands import RollPlanarDie, SetPlanarDeck
from device.errors import IllegalCommand
from device.text import Message
from display import i18n
from display.i18n import Translator
from display.kiosk import Kiosk
from display.screens.setup import SetupForm, rows
from display.ui import Go, Turn
from scenes import texts

MakeKiosk = Callable[..., Kiosk]
TRANSLATED = ("ru", "ja", "pl")

# Keys other modules translate in their own display/i18n/<module>.py files.
OTHER_MODULES = (
    "ct.",
    "consp.",
    "necro.",
    "wd.",
    "wdc.",
    "table.started.wizards_duel",
    "table.started_random.wizards_duel",
)


def _fields(template: str) -> set[str]:
    found = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            found.add(field.split(".")[0].split("[")[0].split("!")[0])
    return found


def _ours(key: str) -> bool:
    return not key.startswith(OTHER_MODULES)


@pytest.mark.parametrize("language", ("en", *TRANSLATED))
def test_every_format_title_and_table_option_is_translated(language: str) -> None:
    """Every option has a label, a help and a name for each of its choices in every language
    (English ones written for the screen, not the option's name with spaces)."""
    from display.i18n.formats import EN

    table = EN if language == "en" else i18n.table(language)
    keys = [] if language == "en" else [f"format.title.{f.name}" for f in GAME.formats.all()]
    for option in GAME.formats.options_for(f.name for f in GAME.formats.all()).values():
        keys += [f"option.{option.name}", f"option.{option.name}.help"]
        keys += [f"option.{option.name}.value.{choice}" for choice in option.choices]
    assert [k for k in keys if k not in table] == []
    if language == "en":
        return
    assert {k: i18n.table("en")[k] for k in keys if k.startswith("format.title.")} == {
        f"format.title.{f.name}": f.title for f in GAME.formats.all()
    }


def _wrapped(k: Kiosk, full: str) -> bool:
    """The set-up's help is ``full``, wrapped onto lines whole (no line cut)."""
    lines = [d for d in k.canvas.drawn if d.role == "setup.hint"]
    return not any(d.cut for d in lines) and "".join(d.text for d in lines).replace(
        " ", ""
    ) == full.replace(" ", "")


def _messages(k: Kiosk) -> list[Message]:
    return [m for txn in k.controller.history() for m in txn.messages()]


def test_pc2_roll_message_places_its_cost_in_each_language(make_kiosk: MakeKiosk) -> None:
    """PC-2: the die roll's description carries the cost as a number inside a word key, and
    survives the journal (read back from SQLite) as a message each language words itself."""
    kiosk = make_kiosk((800, 480), "ru")
    kiosk.execute(NewGame(formats=("ffa", "planechase"), players=("Аня", "Боря"), first="Аня"))
    kiosk.execute(Advance())
    kiosk.execute(RollPlanarDie())
    kiosk.execute(RollPlanarDie())
    rolled = [m for m in _messages(kiosk) if m.key.startswith("planechase.rolled_")]
    assert [m.params["cost"] for m in rolled] == [
        Message("planechase.cost_free"),
        Message("planechase.cost_paid", cost=1),
    ][: len(rolled)]
    second = rolled[1]
    ru, ja, pl = (
        Translator("ru").message(second),
        Translator("ja").message(second),
        Translator("pl").message(second),
    )
    assert "(цена 1)" in ru and "（コスト1）" in ja and "(koszt 1)" in pl
    assert str(second).startswith("Аня rolled") and "(cost 1)" in str(second)


def test_pc12_deck_refusal_lists_its_problems_in_the_language(make_kiosk: MakeKiosk) -> None:
    """PC-12: an illegal planar deck is refused with every problem worded in the table's language."""
    kiosk = make_kiosk((800, 480), "pl")
    kiosk.execute(
        NewGame(
            formats=("ffa", "planechase"),
            players=("Ann", "Bob"),
            first="Ann",
            options={"planar_deck": "physical"},
        )
    )
    with pytest.raises(IllegalCommand) as refused:
        kiosk.controller.execute(SetPlanarDeck(owner=0, names=("Tazeem", "Tazeem")))
    error = refused.value
    assert str(error) == (
        "That planar deck is not legal: it has 2 cards, it needs at least 10; Tazeem is in it 2 times "
        "(each card needs a different English name)."
    )
    assert Translator("pl").error(error.key, error.params) == (
        "Ta talia planarna jest nielegalna: ma 2 karty, a potrzeba co najmniej 10; Tazeem jest w niej "
        "2 razy (każda karta musi mieć inną angielską nazwę)."
    )


def test_eternities_directions_are_words_of_the_language() -> None:
    message = Message(
        "eternities.moved",
        name="Ann",
        direction=Message("eternities.dir.north-east"),
        to="Tazeem",
        extra="",
    )
    assert str(message) == "Ann planeswalks north-east to Tazeem."
    assert Translator("ru").message(message) == "Ann переходит (северо-восток) в измерение Tazeem."
    assert Translator("ja").message(message) == "Annが北東のTazeemへプレインズウォークします。"


@pytest.mark.parametrize("language", ("en", *TRANSLATED))
def test_setup_shows_formats_and_options_in_the_language(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """TB-1: the set-up screen names formats, modules and table options in the screen's language,
    and on an option row says what the option does."""
    kiosk = make_kiosk((800, 480), language)
    tr = Translator(language)
    kiosk.dispatch(Go("setup"))
    form = kiosk.ui.state_of(SetupForm)
    form = kiosk.ui.put(replace(form, modules={**form.modules, "planechase": True}))
    kiosk.redraw()
    assert texts(kiosk, "setup.value.base") == [tr("format.title.commander")]
    labels = texts(kiosk, "setup.label.module")
    assert tr("format.title.planechase") in labels and tr("format.title.contraptions") in labels
    assert _wrapped(kiosk, tr("ui.setup.hint"))
    form = kiosk.ui.put(replace(form, row=[kind for kind, _ in rows(form)].index("option")))
    kiosk.redraw()
    first_option = rows(form)[form.row][1]
    assert first_option == next(
        iter(GAME.formats.options_for(["planechase"]))
    )  # the module's own order
    assert texts(kiosk, "setup.heading") == [tr("format.title.planechase")]
    assert texts(kiosk, "setup.label.option")[0] == tr(f"option.{first_option}")
    assert _wrapped(kiosk, tr(f"option.{first_option}.help"))
    kiosk.dispatch(Turn(1))
    kiosk.redraw()
    assert kiosk.ui.state_of(SetupForm).options  # the option row still changes the option


def test_tb2_the_options_read_in_russian_grouped_under_their_modules(make_kiosk: MakeKiosk) -> None:
    """The form's options for Planechase and Contraptions in Russian: the Planechase heading and
    its options first, then Contraptions', then every game's (seats facing their players, the
    clock's turn timer), every label and value in Russian."""
    kiosk = make_kiosk((1280, 720), "ru")
    kiosk.dispatch(Go("setup"))
    for module in ("planechase", "contraptions"):
        form = kiosk.ui.state_of(SetupForm)
        kiosk.ui.put(replace(form, row=rows(form).index(("module", module))))
        kiosk.dispatch(Turn(1))
    form = kiosk.ui.state_of(SetupForm)
    seen: dict[str, str] = {}
    headings: list[str] = []
    for index, (kind, key) in enumerate(rows(form)):
        kiosk.ui.put(replace(kiosk.ui.state_of(SetupForm), row=index))
        kiosk.redraw()
        headings += [h for h in texts(kiosk, "setup.heading") if h not in headings]
        seen.update(
            zip(texts(kiosk, "setup.label.option"), texts(kiosk, "setup.value.option"), strict=True)
        )
    assert headings == ["Плейнчейз", "Штуковины", "Стол", "Часы"]
    assert list(seen) == [
        "Обычный к6",
        "Свой кубик",
        "Общая колода",
        "Grand Melee",
        "Маркеры хода",
        "Карта Вечностей",
        "Колоды измерений",
        "Размер колоды",
        "Вариант",
        "Отказ от сборки",
        "Кубики фракций",
        "Карты штуковин",
        "Лицом к игрокам",
        "Таймер хода, с",
    ]
    assert seen["Таймер хода, с"] == "выкл"
    assert (
        seen["Вариант"] == "Unstable (свои колоды)" and seen["Отказ от сборки"] == "вниз библиотеки"
    )
    assert (
        seen["Колоды измерений"] == "все карты" and seen["Маркеры хода"] == "авто (1 на 4 игроков)"
    )
    assert seen["Карты штуковин"] == "виртуальные" and seen["Общая колода"] == "выкл"


def test_lf4_undo_says_what_the_change_said_in_the_tables_language(make_kiosk: MakeKiosk) -> None:
    """LF-4: UNDO's line is the undone change's own messages, each worded in the screen's
    language (the console keeps its English)."""
    kiosk = make_kiosk((800, 480), "ru")
    kiosk.execute(NewGame(formats=("ffa", "planechase"), players=("Алиса", "Вера"), first="Алиса"))
    kiosk.execute(Advance())
    kiosk.execute(RollPlanarDie())
    rolled = kiosk.ui.messages[0]
    undone = kiosk.controller.undo()
    assert [str(m) for m in undone.messages][0].startswith("Undone: Алиса rolled ")
    kiosk.show(undone)
    assert kiosk.ui.messages == [f"Отменено: {rolled}"]
    assert "rolled" not in kiosk.ui.messages[0]


def test_lf1_commander_damage_from_an_unnamed_commander_names_its_owner_in_the_language() -> None:
    message = Message("life.commander_damage_of", name="Вера", amount=11, owner="Алиса", total=11)
    assert str(message) == "Вера took 11 commander damage from Алиса's commander (11 of 21)."
    assert (
        Translator("ru").message(message)
        == "Игрок Вера: 11 урона от командира игрока Алиса (11 из 21)."
    )
    assert (
        Translator("pl").message(message)
        == "Вера otrzymuje 11 obrażeń od dowódcy gracza Алиса (11 z 21)."
    )
    assert (
        Translator("ja").message(message)
        == "ВераはАлисаの統率者から11点の統率者ダメージ（合計11/21）。"
    )


def test_pc12_a_card_that_has_no_part_names_its_kind_in_the_language(make_kiosk: MakeKiosk) -> None:
    """A plane tapped in a game without Planechase is refused with its kind in the table's words."""
    kiosk = make_kiosk((800, 480), "ru")
    kiosk.execute(NewGame(formats=("commander",), players=("Алиса", "Вера"), first="Алиса"))
    with pytest.raises(IllegalCommand) as refused:
        kiosk.controller.identify(device.catalog.load_catalog().find("Tazeem"))
    error = refused.value
    assert str(error) == "Tazeem (plane) has no part in this game right now."
    assert (
        Translator("ru").error(error.key, error.params)
        == "Tazeem (измерение) сейчас не участвует в игре."
    )
    assert (
        Translator("ja").error(error.key, error.params)
        == "Tazeem（次元）は今このゲームで使えません。"
    )


def test_a_finished_game_refuses_with_its_result_in_the_language(make_kiosk: MakeKiosk) -> None:
    """The game's result (who won and why) is a message, not English inside a refusal."""
    kiosk = make_kiosk((800, 480), "ru")
    kiosk.execute(NewGame(formats=("duel",), players=("Алиса", "Вера"), first="Алиса"))
    kiosk.execute(ChangeLife(seat=1, delta=-20, source=0))
    with pytest.raises(IllegalCommand) as refused:
        kiosk.controller.execute(Advance())
    error = refused.value
    assert str(error).startswith("The game is over: Алиса won (last player standing).")
    assert Translator("ru").error(error.key, error.params) == (
        "Игра окончена: победитель — Алиса (последний оставшийся игрок). Изменить это — ОТМЕНИТЬ, новая игра — НОВАЯ."
    )


def test_format_titles_in_messages_are_the_languages_titles() -> None:
    """A start message and a refusal name formats by their titles in the table's language."""
    with pytest.raises(IllegalCommand) as refused:
        device.game.decide(
            None, NewGame(formats=("duel", "commander"), players=("A", "B")), random.Random(1)
        )
    error = refused.value
    assert (
        str(error)
        == "Choose at most one base format: Two-player game and Commander are all base formats."
    )
    assert Translator("pl").error(error.key, error.params) == (
        "Wybierz najwyżej jeden format bazowy: Gra dwuosobowa i Commander to formaty bazowe."
    )


def test_tb2_an_unknown_format_says_which_one_was_meant_in_the_language() -> None:
    """The "did you mean" of an unknown format is a text of its own, not English glued on."""
    with pytest.raises(IllegalCommand) as refused:
        device.game.decide(
            None, NewGame(formats=("comander",), players=("A", "B")), random.Random(1)
        )
    error = refused.value
    assert str(error).endswith(". Did you mean 'commander'?")
    assert Translator("ru").error(error.key, error.params).endswith(". Может быть, 'commander'?")
    assert Translator("ja").error(error.key, error.params).endswith("。'commander'のことですか？")


def _usage_words() -> dict[str, set[str]]:
    """A console command's help key and the words of its usage: typed syntax, English in every
    language (``join [EVENT]``: "without EVENT" names the argument, not the EVENT button)."""
    return {
        table.help_key(entry): set(re.findall(r"[A-Z]+", entry.usage))
        for table in TABLES
        for entry in table.entries
    }


@pytest.mark.parametrize("language", TRANSLATED)
def test_texts_name_each_button_as_the_language_names_it(language: str) -> None:
    """A hint, a message or a console help names a button (the bar's, and SELECT, the encoder's
    push) by the word the language gives that button, never by its English name beside texts
    that say "ДАЛЕЕ", 「次へ」 or "DALEJ"."""
    table = i18n.table(language)
    keys = {text: key for key, text in i18n.table("en").items() if key.startswith("ui.btn.")}
    named = re.compile(rf"(?<![A-Za-z])({'|'.join(map(re.escape, keys))})(?![A-Za-z])")
    usage = _usage_words()
    english: dict[str, list[str]] = {}
    for key, text in table.items():
        for form in text if isinstance(text, tuple) else (text,):
            for word in named.findall(form):
                if table.get(keys[word], word) != word and word not in usage.get(key, set()):
                    english.setdefault(key, []).append(word)
    assert english == {}


def test_russian_buttons_say_what_the_texts_say() -> None:
    """Russian: PLANES is named with the texts' word for a plane (измерение, not «миры»), UNDO
    and REDO read as a pair, every text names them as the bar does, and a six-sided die is «к6»
    on the set-up as on the dice chips."""
    tr = Translator("ru")
    assert tr("ui.btn.planes") == "ИЗМЕРЕНИЯ" and tr("catalog.kind.plane") == "измерение"
    assert (tr("ui.btn.undo"), tr("ui.btn.redo")) == ("ОТМЕНИТЬ", "ПОВТОРИТЬ")
    assert tr("ui.dice.die", sides=6) == "к6" and tr("option.plain_d6") == "Обычный к6"
    forms = [
        (key, form)
        for key, text in i18n.table("ru").items()
        for form in (text if isinstance(text, tuple) else (text,))
    ]
    assert [
        key for key, form in forms if re.search(r"(?<!\w)(?:ОТМЕНА|ВЕРНУТЬ|МИРЫ)(?!\w)", form)
    ] == []
    assert [
        key for key, form in forms if re.search(r"(?<!\w)d6(?!\w)", form)
    ] == []  # 2d6 is typed syntax


def test_tb1_a_name_too_long_says_its_limit_as_the_language_counts() -> None:
    """The refusal of a 40-character name counts the 24 characters allowed with the language's
    plural form: Polish "24 znaki" (25 would be "znaków"), Russian "24 символов"."""
    with pytest.raises(IllegalCommand) as refused:
        device.game.decide(
            None, NewGame(formats=("ffa",), players=("A" * 40, "B")), random.Random(1)
        )
    error = refused.value
    assert str(error) == f"{'A' * 40!r} is too long for the screen: at most 24 characters."
    assert (
        Translator("pl").error(error.key, error.params)
        == f"{'A' * 40!r} jest za długie: najwyżej 24 znaki."
    )
    assert (
        Translator("ru").error(error.key, error.params)
        == f"{'A' * 40!r} слишком длинное: не больше 24 символов."
    )


def test_japanese_counts_damage_and_life_in_ten() -> None:
    """Japanese counts damage and life lost or gained in 点: "5点の統率者ダメージ", never a bare
    "5の統率者ダメージ", "21ダメージ" or "ライフ3を失った" (a label naming a total, 「ライフ40」,
    stays as it is)."""
    bare = re.compile(
        r"(?:\d|\}|N)の?(?:統率者|戦闘)?ダメージ|ライフを?(?:\d+|\{\w+\}|N)を?(?:失|得)"
    )
    found = [
        key
        for key, text in i18n.table("ja").items()
        for form in (text if isinstance(text, tuple) else (text,))
        if bare.search(form)
    ]
    assert found == []
    message = Message("life.commander_damage", name="Вера", amount=5, commander="Kraum", total=5)
    assert Translator("ja").message(message) == "ВераはKraumから5点の統率者ダメージ（合計5/21）。"
