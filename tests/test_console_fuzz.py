"""``aetherbox console`` never stops on what is typed: every line it cannot play is refused with
the reason, in the player's language, and the game goes on.

First the lines that stopped it (``contraptions`` without Contraptions, a game number beyond 64
bits, a command file that is not UTF-8, lines of a megabyte, control characters), each as a
user types it; then a seeded fuzz of lines made of the console's own words, huge and negative
numbers, control characters, bytes that are not UTF-8 and overlong lines, through the path a
typed line takes, in-process and through the real process.

``AETHERBOX_CONSOLE_FUZZ_LINES`` sets how many lines the in-process fuzz runs (the suite runs
2,000; ``AETHERBOX_CONSOLE_FUZZ_LINES=10000`` for the full trial).
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from device.catalog import load_catalog
from device.console import TABLES, Console, entries
from device.console.core import MAX_CARD_NAME, MAX_LINE
from device.console.session import read_lines, watched_fd
from device.console.table import state_json
from device.controller import Controller
from device.journal import Journal
from device.notify import Notifier, Watchdog
from display.cli import main

LINES = int(os.environ.get("AETHERBOX_CONSOLE_FUZZ_LINES", "2000"))
#: How long one line may take, in seconds: the slowest fuzzed line takes a few hundredths on a
#: laptop; this leaves room for a Pi and a busy machine, and is far below the half minute a line
#: of a megabyte took.
LINE_SECONDS = 2.0

NOT_UTF8 = (
    "refused: That line is not UTF-8 text: save the command file as UTF-8 (or set the terminal to UTF-8) "
    "and type the line again."
)
TOO_LONG = "refused: That line is too long: a command fits in 4096 characters."
CONTROL = "refused: That line holds a control character ({char}), which no command has: type it again without it."


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    db: Path,
    data: bytes,
    *extra: str,
) -> list[str]:
    """``aetherbox console`` with ``data`` on standard input, as bytes come from a pipe or a terminal."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["console", "--db", str(db), "--seed", "3", *extra]) == 0
    return capsys.readouterr().out.splitlines()


# --- the lines that stopped the console -------------------------------------------------------


def test_the_contraptions_view_without_contraptions_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        b"new commander Alice Bob first=Alice\ncontraptions\nct\nlife Bob -1\n",
    )
    refused = "refused: This game has no Contraptions; start one with e.g. 'new commander+contraptions A B C'."
    assert out == [
        "New game (Commander) for Alice, Bob, 40 life. Alice goes first.",
        refused,
        refused,
        "Bob: 40 → 39 life.",
    ]


@pytest.mark.parametrize(
    "line",
    [
        f"load {2**63}",
        f"load -{2**63 + 1}",
        f"delete {10**40}",
        f"delete {2**63} yes",
        "load 0",
        f"load {2**63 - 1}",
    ],
)
def test_a_game_number_no_game_can_have_is_no_saved_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        f"new duel Ola Ela first=Ola\n{line}\nshow\n".encode(),
    )
    assert out[1] == f"refused: There is no saved game {line.split()[1]}; 'games' lists them."
    assert out[2:] == ["Turn 1: Ola's upkeep.", "* Ola: 20 life", "  Ela: 20 life"]


def test_a_command_file_not_in_utf8_is_refused_as_on_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A command file saved as cp1250 (Polish Windows): its line is refused, the next ones played."""
    data = "new duel Paweł Ela first=Ela\nnew duel Ola Ela first=Ela\nshow\n".encode("cp1250")
    script = tmp_path / "commands.txt"
    script.write_bytes(data)
    expected = [
        NOT_UTF8,
        "New game (Two-player game) for Ola, Ela, 20 life. Ela goes first.",
        "Turn 1: Ela's upkeep.",
        "  Ola: 20 life",
        "* Ela: 20 life",
    ]
    assert main(["console", "--db", str(tmp_path / "file.sqlite3"), str(script)]) == 0
    assert capsys.readouterr().out.splitlines() == expected
    assert run(monkeypatch, capsys, tmp_path / "stdin.sqlite3", data) == expected


def test_a_command_file_saved_with_a_byte_order_mark_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "commands.txt"
    script.write_bytes("new duel Ola Ela first=Ola\n".encode("utf-8-sig"))
    assert main(["console", "--db", str(tmp_path / "j.sqlite3"), str(script)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "New game (Two-player game) for Ola, Ela, 20 life. Ola goes first."
    ]


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (b"life Ola -1\x1b[A", CONTROL.format(char="U+001B")),
        (b"life Ola\x00 -1", CONTROL.format(char="U+0000")),
        (b"life Ola -1\xff", NOT_UTF8),
        (b"life \xed\xa0\x80 -1", NOT_UTF8),  # an encoded surrogate is not UTF-8 either
        (
            b"life Ola\\",
            (
                "refused: Cannot read that line: it ends with a backslash, and a backslash keeps the "
                "character after it."
            ),
        ),
        (
            b"card " + b"x" * (MAX_CARD_NAME + 1),
            (
                "refused: No card has a name that long (151 characters): type "
                "the name as printed (a unique start is enough)."
            ),
        ),
        (b"life Ola " + b"-" * MAX_LINE, TOO_LONG),
    ],
)
def test_a_line_no_command_has_is_refused_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: bytes,
    reply: str,
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        b"new duel Ola Ela first=Ola\n" + line + b"\nlife Ola -2\n",
    )
    assert out[1:] == [reply, "Ola: 20 → 18 life."]


def test_a_tab_separates_words_and_a_windows_line_ending_is_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        b"new duel Ola Ela first=Ola\r\nlife\tOla\t-2\r\n",
    )
    assert out == [
        "New game (Two-player game) for Ola, Ela, 20 life. Ola goes first.",
        "Ola: 20 → 18 life.",
    ]


def test_the_longest_command_anyone_types_fits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A communal planar deck listed card by card, every plane by its full name."""
    planes = ", ".join(card.name for card in load_catalog().planes())
    line = f"deck communal {planes}"
    assert 3000 < len(line) <= MAX_LINE
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        f"new ffa+planechase Alice Bob communal_deck=yes first=Alice\n{line}\n".encode(),
    )
    assert f"Planar decks: communal deck {len(load_catalog().planes())} cards." in out


@pytest.mark.parametrize(
    "line", ["x" * 1_000_000, "card " + "Academy " * 125_000, "new duel " + "Ola " * 250_000]
)
def test_a_line_of_a_megabyte_is_refused_at_once(tmp_path: Path, line: str) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        out = io.StringIO()
        console = Console(Controller(journal, rng=random.Random(1)), out, TABLES)
        started = time.perf_counter()
        console.run(read_lines(io.BytesIO(line.encode() + b"\nnew duel Ola Ela first=Ola\n")))
        took = time.perf_counter() - started
    assert out.getvalue().splitlines() == [
        TOO_LONG,
        "New game (Two-player game) for Ola, Ela, 20 life. Ola goes first.",
    ]
    assert took < LINE_SECONDS


def test_lines_read_under_the_services_watchdog_are_refused_the_same_way(tmp_path: Path) -> None:
    """Under systemd the console reads standard input itself (``watched_fd``): a line of 200 KB,
    one that is not UTF-8 and a byte-order mark are met as they are from a pipe or a file."""
    read_end, write_end = os.pipe()
    data = (
        "\ufeffnew duel Ola Ela first=Ola\n".encode()
        + b"x" * 200_000
        + b"\nlife Ola -1\xff\nlife Ola -2"
    )

    def write() -> None:
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        with Journal(tmp_path / "j.sqlite3") as journal:
            out = io.StringIO()
            console = Console(Controller(journal, rng=random.Random(1)), out, TABLES)
            console.run(watched_fd(read_end, Watchdog(Notifier.from_environment({}), 1.0)))
    finally:
        writer.join()
        os.close(read_end)
    assert out.getvalue().splitlines() == [
        "New game (Two-player game) for Ola, Ela, 20 life. Ola goes first.",
        TOO_LONG,
        NOT_UTF8,
        "Ola: 20 → 18 life.",
    ]


@pytest.mark.parametrize(
    ("language", "replies"),
    [
        (
            "ru",
            [
                "отказано: Строка слишком длинная: в команде не больше 4096 символов.",
                (
                    "отказано: Эта строка — не текст в UTF-8: сохраните файл команд в UTF-8 (или переключите терминал на "
                    "UTF-8) и введите строку снова."
                ),
                (
                    "отказано: В строке есть управляющий символ (U+0007), которого не бывает ни в одной команде: введите её "
                    "снова без него."
                ),
                (
                    "отказано: Ни у одной карты нет такого длинного названия (152 символа): назовите карту как напечатано "
                    "(достаточно однозначного начала)."
                ),
                "отказано: Не удаётся разобрать строку: не закрыта двойная кавычка.",
            ],
        ),
        (
            "pl",
            [
                "odrzucono: Ta linia jest za długa: polecenie ma najwyżej 4096 znaków.",
                (
                    "odrzucono: Ta linia nie jest tekstem w UTF-8: zapisz plik poleceń w UTF-8 (albo ustaw terminal na "
                    "UTF-8) i wpisz linię jeszcze raz."
                ),
                (
                    "odrzucono: Ta linia zawiera znak sterujący (U+0007), którego nie ma w żadnym poleceniu: wpisz ją "
                    "jeszcze raz bez niego."
                ),
                (
                    "odrzucono: Żadna karta nie ma tak długiej nazwy (152 znaki): podaj nazwę jak na karcie (wystarczy "
                    "jednoznaczny początek)."
                ),
                "odrzucono: Nie da się odczytać tej linii: brak zamykającego cudzysłowu.",
            ],
        ),
        (
            "ja",
            [
                "受付不可：その行は長すぎます：コマンドは4096文字までです。",
                (
                    "受付不可：その行はUTF-8のテキストではありません：コマンドファイルをUTF-8で保存して（または端末をUTF-8にして）、"
                    "もう一度入力してください。"
                ),
                (
                    "受付不可：その行には制御文字（U+0007）が含まれています。どのコマンドにも使わない文字なので、除いてもう一度"
                    "入力してください。"
                ),
                (
                    "受付不可：そんなに長い名前のカードはありません（152文字）：カードに書かれたとおりの名前を書いてください"
                    "（最初の数文字で一つに決まればよい）。"
                ),
                "受付不可：その行を読めません：閉じる二重引用符がありません。",
            ],
        ),
    ],
)
def test_the_refusals_in_the_players_language(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    language: str,
    replies: list[str],
) -> None:
    lines = [b"x" * 5000, b"show \xb3", b"show \x07", b"card " + b"y" * 152, b'life "Ola']
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        b"\n".join(lines) + b"\n",
        "--language",
        language,
    )
    assert out == replies


# --- the fuzz ---------------------------------------------------------------------------------

COMMANDS = sorted({word for entry in entries() for word in (entry.name, *entry.aliases)})
FORMATS = [
    "ffa",
    "duel",
    "commander",
    "edh",
    "necromancer",
    "conspiracy",
    "ggd",
    "wizards_duel",
    "pojedynek",
    "ffa+planechase",
    "commander+contraptions",
    "duel+contraptions+planechase",
    "commander+2hg",
    "ffa+pc+ct",
    "comander",
    "planechase",
]
OPTIONS = [
    "life",
    "first",
    "colours",
    "sprocket",
    "library",
    "tables",
    "set",
    "turn_timer",
    "time_limit",
    "communal_deck",
    "eternities_map",
    "contraptions",
    "faction_dice",
    "spell_deck",
    "pod",
    "round",
    "plain_d6",
    "planar_deck_size",
    "seats_facing",
    "grand_melee",
]
PLAYERS = [
    "Alice",
    "Bob",
    "Carol",
    "Dan",
    "Вера",
    "健二",
    "Paweł",
    "D'Arcy",
    "communal",
    "none",
    "all",
    "from",
    "of",
    "top",
    "yes",
    "random",
    "Alice/1",
    "Bob+Carol",
]
NUMBERS = [
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "20",
    "+5",
    "-5",
    "=0",
    "=40",
    "100",
    "9999",
    str(2**31),
    str(2**63),
    str(2**63 - 1),
    str(-(2**63) - 1),
    str(10**40),
    "-" + "9" * 60,
    "9" * 1000,
    "1e9",
    "0x10",
    "1_000",
    "٣",
    "nan",
    "inf",
    "+",
    "-",
    "=",
]
CONTROLS = [chr(code) for code in (*range(32), 0x7F, 0x85, 0x9B)] + [
    "\u2028",
    "\ufeff",
    "\u202e",
    "\ufffd",
]
NOT_UTF8_BYTES = [
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xc0\xaf",
    b"\x80",
    "ł".encode("cp1250"),
    "ą".encode("cp1250"),
    "ё".encode("cp1251"),
    "日".encode("shift_jis"),
]
PUNCTUATION = ['"', '""', "#", "\\", ",", "'", "+", "=", "…", "/", ", ,", "--"]


def token(rng: random.Random, cards: list[str]) -> str:
    roll = rng.random()
    if roll < 0.2:
        return rng.choice(COMMANDS)
    if roll < 0.35:
        return rng.choice(PLAYERS)
    if roll < 0.5:
        return rng.choice(NUMBERS)
    if roll < 0.6:
        return rng.choice(cards)
    if roll < 0.66:
        return rng.choice(FORMATS)
    if roll < 0.76:
        return f"{rng.choice(OPTIONS)}={rng.choice(NUMBERS + PLAYERS + FORMATS)}"
    if roll < 0.82:
        return rng.choice(CONTROLS) + rng.choice(COMMANDS)
    if roll < 0.9:
        return rng.choice(PUNCTUATION)
    return "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(1, 8)))


def fuzz_line(rng: random.Random, cards: list[str]) -> bytes:
    """A line a user could type or a broken file could hold, as bytes."""
    roll = rng.random()
    if roll < 0.08:  # a game to play the other lines in
        seated = rng.sample(PLAYERS[:8] + ["Eve", "Fay", "Gus", "Hal"], rng.randrange(2, 11))
        line = f"new {rng.choice(FORMATS)} {' '.join(seated)}"
        if rng.random() < 0.3:
            line += f" {rng.choice(OPTIONS)}={rng.choice(NUMBERS)}"
        return line.encode()
    if roll < 0.1:
        return f"{rng.choice(['load', 'delete'])} {rng.choice(NUMBERS)}{rng.choice(['', ' yes'])}".encode()
    words = [rng.choice(COMMANDS), *(token(rng, cards) for _ in range(rng.randrange(0, 6)))]
    line = " ".join(words).encode("utf-8", errors="surrogatepass")
    if rng.random() < 0.05:
        at = rng.randrange(len(line) + 1)
        line = line[:at] + rng.choice(NOT_UTF8_BYTES) + line[at:]
    if rng.random() < 0.02:
        filler = rng.choice(["x", "Alice ", "9", "é", '"', "Academy, ", "\t"]).encode()
        line += b" " + filler * (
            rng.choice([150, MAX_LINE, 5000, 100_000, 1_000_000]) // len(filler)
        )
    return line.replace(b"\n", b" ")


def fuzz(seed: int, count: int, quitting: bool = True) -> list[bytes]:
    rng = random.Random(seed)
    cards = [card.name for card in load_catalog().contraptions()] + [
        card.name for card in load_catalog().planar()
    ]
    lines = [fuzz_line(rng, cards) for _ in range(count)]
    if quitting:
        return lines
    # Through the real process a quit would end the trial early: those lines say "show" instead.
    return [
        b"show" if line.split(b" ")[0].lower() in (b"quit", b"exit") else line for line in lines
    ]


def test_fuzzed_lines_are_each_played_or_refused_and_the_game_is_kept(tmp_path: Path) -> None:
    """Every line is read as a typed one is (bytes from standard input, through ``read_lines``)
    and run; none may raise, or take long, or print what is not UTF-8; afterwards the journal
    holds the game exactly as the console left it."""
    db = tmp_path / "j.sqlite3"
    data = b"\n".join(fuzz(32, LINES)) + b"\n"
    out = io.StringIO()
    slowest = 0.0
    with Journal(db) as journal:
        controller = Controller(journal, rng=random.Random(32))
        console = Console(controller, out, TABLES)
        for index, line in enumerate(read_lines(io.BytesIO(data))):
            started = time.perf_counter()
            try:
                console.run_line(line)
                controller.idle()
            except Exception as error:  # the trial's one finding: say which line did it
                raise AssertionError(f"line {index} {line[:200]!r} raised {error!r}") from error
            took = time.perf_counter() - started
            assert took < LINE_SECONDS, f"line {index} {line[:200]!r} took {took:.2f} s"
            slowest = max(slowest, took)
            console.done = False  # a fuzzed "quit" ends nothing here: the next line is read as the next one typed
        live = state_json(controller)
    assert index == LINES - 1
    out.getvalue().encode("utf-8")  # nothing printed that is not UTF-8
    with Journal(db) as journal:
        assert state_json(Controller(journal, rng=random.Random(1))) == live


@pytest.mark.parametrize("from_file", [False, True], ids=["stdin", "command file"])
def test_fuzzed_lines_through_the_real_process(tmp_path: Path, from_file: bool) -> None:
    """``aetherbox console`` in its own process, fed 300 fuzzed lines on standard input (or as
    its command file): it reads them all, prints no traceback and ends normally."""
    data = b"\n".join(fuzz(7 if from_file else 5, 300, quitting=False)) + b"\nhelp quit\nquit\n"
    command = [
        sys.executable,
        "-m",
        "display.cli",
        "console",
        "--db",
        str(tmp_path / "j.sqlite3"),
        "--seed",
        "5",
    ]
    if from_file:
        script = tmp_path / "commands.txt"
        script.write_bytes(data)
        command.append(str(script))
    # A terminal set to Latin-1 or a POSIX locale must not change what is read.
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LC_ALL": "C", "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        command,
        check=False,
        input=None if from_file else data,
        capture_output=True,
        env=env,
        timeout=240,
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")[-3000:]
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    assert done.stderr == b""
    out = done.stdout.decode("utf-8").splitlines()  # strictly UTF-8
    assert out[-2:] == [
        "quit",
        "    End the session (the game is saved after every command).",
    ]  # every line was read
    assert NOT_UTF8 in out and TOO_LONG in out
