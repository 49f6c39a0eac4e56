"""``aetherbox console``: every command through ``main``, as a user types it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from display.cli import main
from device.console import entries


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


SCRIPT = """\
new commander Alice Bob Carol first=Alice
next
damage Bob 5 from Alice
poison Carol +4 from Bob
commander Alice 7 from Carol
life Bob +2 from Bob
life Carol =33
concede Bob
undo
redo
next
show
"""


def test_console_plays_a_commander_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", SCRIPT)
    assert out == [
        "New game (Commander) for Alice, Bob, Carol, 40 life. Alice goes first.",
        "Alice: main phase.",
        "Bob: 40 → 35 life (from Alice).",
        "Carol: 0 → 4 poison (from Bob).",
        "Alice took 7 commander damage from Carol's commander (7 of 21).",
        "Alice: 40 → 33 life (from Carol).",
        "Bob: 35 → 37 life (from Bob).",
        "Carol: 40 → 33 life.",
        "Bob has conceded.",
        "Undone: Bob has conceded.",
        "Redone: Bob has conceded.",
        "Turn 2: Carol's upkeep.",
        "Turn 2: Carol's upkeep.",
        "  Alice: 33 life  (7 from Carol's commander)",
        "  Bob: 37 life  (lost: conceded)",
        "* Carol: 33 life  (4 poison)",
    ]


def test_console_resumes_the_last_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "j.sqlite3"
    run(monkeypatch, capsys, db, "new Ola Ela Ula first=Ela\nnext\nnext\n")
    out = run(monkeypatch, capsys, db, "show\n")
    assert out == [
        "Resumed game 1: Free-for-all: Ola, Ela, Ula (turn 2).",
        "Turn 2: Ula's upkeep.",
        "  Ola: 20 life",
        "  Ela: 20 life",
        "* Ula: 20 life",
    ]


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("fly away", "refused: Unknown command 'fly'; 'help' lists the commands."),
        ("life Zed -3", "refused: No player called 'Zed'. Players: Alice, Bob, Carol."),
        ("life Alice lots", "refused: 'lots' is not a number."),
        ("life Alice", "refused: Usage: life PLAYER +N|-N|=N [from SOURCE]"),
        ('life "Alice -3', "refused: Cannot read that line: no closing quotation."),
        (
            "commander Alice 3 from Bob/Tymna",
            "refused: Bob has no commander 'Tymna'; their commanders: Bob's commander.",
        ),
        ("undo 0", "refused: Say how many times, from 1 to 100; '0' given."),
        ("poison Alice -1", "refused: Alice has 0 poison counters; 1 cannot be removed."),
        ("load 9", "refused: There is no saved game 9; 'games' lists them."),
        ("life Bob 3", "refused: Say +3 (gain), -3 (lose) or =3 (set Bob's life to 3)."),
        (
            "damage Bob -5",
            "refused: 'damage' takes an amount above 0; '-5' given. For the other way use 'gain'.",
        ),
        (
            "gain Bob 0",
            "refused: 'gain' takes an amount above 0; '0' given. For the other way use 'damage'.",
        ),
    ],
)
def test_console_refuses_with_a_reason_and_goes_on(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: str,
    reply: str,
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        f"new commander Alice Bob Carol first=Alice\n{line}\nstate\n",
    )
    assert out[1] == reply
    state = json.loads(out[2])
    assert state["state"]["turn"] == 1
    assert [p["life"] for p in state["state"]["players"]] == [40, 40, 40]


def test_console_before_any_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "next\nstate\nundo\n")
    assert out == [
        "refused: No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
        '{"game": null, "outcome": null, "schema": 1, "state": null}',
        "refused: No game is running: start one with 'new', e.g. 'new commander Alice Bob Carol'.",
    ]


def test_state_json_has_the_documented_shape(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new duel Ola Ela first=Ola\ndamage Ela 20 from Ola\nstate\n",
    )
    doc = json.loads(out[-1])
    assert set(doc) == {"schema", "game", "state", "outcome"}
    assert doc["outcome"] == {"winner": 0, "reason": "last player standing"}
    core = {
        "schema_version",
        "formats",
        "options",
        "starting_life",
        "players",
        "starting_player",
        "active",
        "turn",
        "step",
        "direction",
        "ledger",
    }
    modules = set(doc["state"]) - core - {"clock"}
    assert core <= set(doc["state"])
    assert modules and all(
        doc["state"][name] is None for name in modules
    )  # modules not in this game
    assert set(doc["state"]["clock"]) == {
        "counted",
        "since",
        "turn_mark",
        "turn_at",
        "timer",
        "breaks",
    }  # every game has its clock
    assert doc["state"]["players"][1] == {
        "seat": 1,
        "name": "Ela",
        "life": 0,
        "poison": 0,
        "commanders": [],
        "commander_damage": [],
        "commander_casts": [],
        "lost": {"reason": "life", "source": 0, "turn": 1},
        "skip_turns": 0,
        "colour": "blue",
    }


def test_log_dealt_games_and_commanders(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (
        "new edh Alice Bob first=Bob\ncommanders Bob Tymna + Thrasios\ncommander Alice 5 from Bob/thr\n"
        "commander Alice 2 from Bob/1\ngain Alice 3\nundo\ndealt\nlog\ngames\n"
    )
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", text)
    assert out[1:6] == [
        "Bob's commanders: Tymna and Thrasios.",
        "Alice took 5 commander damage from Thrasios (5 of 21).",
        "Alice: 40 → 35 life (from Bob).",
        "Alice took 2 commander damage from Tymna (2 of 21).",
        "Alice: 35 → 33 life (from Bob).",
    ]
    assert out[8] == "Bob → Alice: 7 life lost"
    log = [line[15:] for line in out[9:14]]
    assert log[-1] == "Alice: 33 → 36 life.  (undone)"
    assert log[0] == "New game (Commander) for Alice, Bob, 40 life. Bob goes first."
    assert out[14].startswith("*   1 ") and out[14].endswith("Commander: Alice, Bob  (turn 1)")


def test_help_lists_every_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "help\nhelp poison\n")
    names = [e.name for e in entries()]
    assert len(out) == len(names) + 2
    assert [line.split()[0] for line in out[: len(names)]] == names
    assert out[-2:] == [
        "poison PLAYER +N|-N [from SOURCE]",
        "    Add or remove poison counters; 10 loses (LF-1).",
    ]


def test_commands_from_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    script = tmp_path / "game.txt"
    script.write_text(
        "# a comment\nnew Алиса Борис first=Борис\n\nnext\nquit\nnext\n", encoding="utf-8"
    )
    assert main(["console", str(script), "--db", str(tmp_path / "j.sqlite3")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "New game (Free-for-all) for Алиса, Борис, 20 life. Борис goes first.",
        "Борис: main phase.",
    ]


def test_missing_script_file_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["console", str(tmp_path / "nope.txt"), "--db", str(tmp_path / "j.sqlite3")]) == 1
    assert (
        capsys.readouterr().err
        == f"aetherbox: error: cannot read {tmp_path / 'nope.txt'}: No such file or directory\n"
    )


def test_corrupt_journal_is_an_error_not_a_crash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "j.sqlite3"
    db.write_bytes(b"\x00garbage" * 1000)
    assert main(["console", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"aetherbox: error: {db}: the journal is damaged or is not an aetherbox journal"
    )
    assert db.read_bytes() == b"\x00garbage" * 1000


def test_bad_config_warns_and_still_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "c.toml"
    config.write_text("language = 5\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("new A B first=A\n"))
    assert main(["--config", str(config), "console", "--db", str(tmp_path / "j.sqlite3")]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        f"aetherbox: warning: {config}: 'language': must be one of 'en', 'ru', 'ja' or 'pl' (got 5); using the default\n"
    )
    assert captured.out == "New game (Free-for-all) for A, B, 20 life. A goes first.\n"


def test_configured_starting_life(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[starting_life]\ncommander = 30\nffa = 25\n", encoding="utf-8")
    monkeypatch.setattr(
        "sys.stdin",
        io.StringIO("new edh A B first=A\nnew C D first=C\nnew edh E F first=E life=50\n"),
    )
    assert main(["--config", str(config), "console", "--db", str(tmp_path / "j.sqlite3")]) == 0
    assert [line.split(", ")[-1] for line in capsys.readouterr().out.splitlines()] == [
        "30 life. A goes first.",
        "25 life. C goes first.",
        "50 life. E goes first.",
    ]


def test_card_and_tag_go_through_the_tag_map_and_the_bindings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tags = tmp_path / "data" / "tags.txt"
    tags.parent.mkdir(parents=True)
    tags.write_text("04:A1:B2:C3  tazeem\n", encoding="utf-8")
    text = "new A B first=A\ntag 04a1b2c3\ntag 04:A1:B2:C4\ntag xyz\ncard the eon\ncard nothing like it\n"
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", text)
    assert out[1:] == [
        "refused: Tazeem (plane) has no part in this game right now.",
        "Unknown card (tag 04:A1:B2:C4): enrol it to use it.",
        "refused: 'xyz' is not a tag UID: expected hex bytes such as 04:A1:B2:C3.",
        "refused: The Eon Fog (plane) has no part in this game right now.",
        "refused: No plane, phenomenon or contraption is called 'nothing like it': check the spelling or type the start of the name.",
    ]


def test_show_names_the_step(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", "new A B first=B\nnext\nreverse\nshow\n")
    assert out[3] == "Turn 1: B's main phase, turn order reversed."


def test_apostrophes_belong_to_names_and_double_quotes_group_words(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new \"D'Arcy Ann\" Bob first=d'arcy  # comment\n",
    )
    assert out == ["New game (Free-for-all) for D'Arcy Ann, Bob, 20 life. D'Arcy Ann goes first."]


@pytest.mark.parametrize(
    ("game", "reply"),
    [
        (
            "new A B first=A",
            "refused: No plane, phenomenon or contraption is called 'Lightning Bolt': check the "
            "spelling or type the start of the name.",
        ),
        (
            "new ffa+planechase A B first=A",
            "refused: No plane or phenomenon is called 'Lightning Bolt': check the "
            "spelling or type the start of the name.",
        ),
        (
            "new ffa+contraptions A B first=A",
            "refused: No contraption is called 'Lightning Bolt': check the spelling "
            "or type the start of the name.",
        ),
        (
            "new ffa+planechase+contraptions A B first=A",
            "refused: No plane, phenomenon or contraption is called "
            "'Lightning Bolt': check the spelling or type the start of the name.",
        ),
        # the table waits for a physical card: it is that kind of card that was not found
        (
            "new ffa+planechase+contraptions A B first=A planar_deck=physical",
            "refused: No plane or phenomenon is "
            "called 'Lightning Bolt': check the spelling or type the start of the name.",
        ),
    ],
)
def test_pc12_ct6_card_refuses_a_name_as_what_the_game_expects(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    game: str,
    reply: str,
) -> None:
    """A real card the gadget does not know ("Lightning Bolt") is no plane or phenomenon in
    Planechase and no contraption in Contraptions; the name is quoted trimmed."""
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", f"{game}\ncard  Lightning   Bolt \n")
    assert out[-1] == reply


def test_pc12_ct6_card_still_names_a_known_card_of_the_other_kind(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A contraption named in a Planechase game is found, and the bindings say it has no part."""
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "new ffa+planechase A B first=A\ncard auto-key\ncard tazem\n",
    )
    assert out[-2:] == [
        "refused: Auto-Key (contraption) has no part in this game right now.",
        "refused: No plane or phenomenon is called 'tazem'. Did you mean Tazeem? Check the spelling or type the start "
        "of the name.",
    ]


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (
            "new comander Alice Bob",
            "refused: 'comander' is not a format; did you mean 'commander'? To seat a player "
            "called comander, start with a format: new ffa comander Alice Bob.",
        ),
        (
            'new Dule Ala "Ola Nowak" life=30',
            "refused: 'Dule' is not a format; did you mean 'duel'? To seat a player "
            'called Dule, start with a format: new ffa Dule Ala "Ola Nowak" life=30.',
        ),
        (
            "new multiplayr A B",
            "refused: 'multiplayr' is not a format; did you mean 'multiplayer'? To seat a player "
            "called multiplayr, start with a format: new ffa multiplayr A B.",
        ),
        (
            "new commander+planchase A B",
            "refused: There is no format 'planchase'. Known formats: commander, "
            "conspiracy, contraptions, duel, ffa, ggd, necromancer, planechase, two_headed_giant, wizards_duel. Did you mean 'planechase'?",
        ),
    ],
)
def test_tb2_new_questions_a_first_word_close_to_a_format(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: str,
    reply: str,
) -> None:
    """A slip in the format's name is not a player called "comander" in a free-for-all."""
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", f"{line}\nstate\n")
    assert out == [reply, '{"game": null, "outcome": null, "schema": 1, "state": null}']


@pytest.mark.parametrize(
    ("line", "started"),
    [
        # no format word: a free-for-all, whatever the first player is called
        (
            "new Alice Bob first=Alice",
            "New game (Free-for-all) for Alice, Bob, 20 life. Alice goes first.",
        ),
        (
            "new Ed Duke Del Ruel first=Ed",
            "New game (Free-for-all) for Ed, Duke, Del, Ruel, 20 life. Ed goes first.",
        ),
        (
            "new Tom+Jerry Alice first=Alice",
            "New game (Free-for-all) for Tom+Jerry, Alice, 20 life. Alice goes first.",
        ),
        # the way the refusal says to seat a player whose name is close to a format
        (
            "new ffa comander Alice first=Alice",
            "New game (Free-for-all) for comander, Alice, 20 life. Alice goes first.",
        ),
    ],
)
def test_tb2_new_seats_a_first_word_unlike_any_format(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: str,
    started: str,
) -> None:
    assert run(monkeypatch, capsys, tmp_path / "j.sqlite3", f"{line}\n") == [started]


def test_lf1_partners_are_separated_by_plus_and_keep_their_commas(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """LF-1: partners are separate sources; a printed name has commas in it, so "+" separates them."""
    text = (
        "new edh Alice Bob first=Bob\ncommanders Bob Kraum, Ludevic's Opus + Tymna the Weaver\n"
        "commander Alice 3 from Bob\ncommander Alice 3 from Bob/kraum\ncommander Alice 2 from Bob/tymna\nshow\nstate\n"
    )
    out = run(monkeypatch, capsys, tmp_path / "j.sqlite3", text)
    assert out[1:10] == [
        "Bob's commanders: Kraum, Ludevic's Opus and Tymna the Weaver.",
        "refused: Bob has 2 commanders (Kraum, Ludevic's Opus and Tymna the Weaver): say which one dealt the damage, "
        "e.g. 'from Bob/Kraum'.",
        "Alice took 3 commander damage from Kraum, Ludevic's Opus (3 of 21).",
        "Alice: 40 → 37 life (from Bob).",
        "Alice took 2 commander damage from Tymna the Weaver (2 of 21).",
        "Alice: 37 → 35 life (from Bob).",
        "Turn 1: Bob's upkeep.",
        "  Alice: 35 life  (3 from Kraum, Ludevic's Opus; 2 from Tymna the Weaver)",
        "* Bob: 40 life",
    ]
    assert json.loads(out[10])["state"]["players"][1]["commanders"] == [
        "Kraum, Ludevic's Opus",
        "Tymna the Weaver",
    ]


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("commanders Bob   Tymna,  +  Thrasios , Triton Hero ", ["Tymna", "Thrasios, Triton Hero"]),
        ("commanders Bob Thrasios, Triton Hero", ["Thrasios, Triton Hero"]),
        ("commanders Bob Minsc & Boo, Timeless Heroes", ["Minsc & Boo, Timeless Heroes"]),
        ('commanders Bob "Tymna the Weaver"+Kraum', ["Tymna the Weaver", "Kraum"]),
    ],
)
def test_lf1_commander_names_are_kept_trimmed(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: str,
    kept: list[str],
) -> None:
    out = run(
        monkeypatch, capsys, tmp_path / "j.sqlite3", f"new edh Alice Bob first=Bob\n{line}\nstate\n"
    )
    assert json.loads(out[-1])["state"]["players"][1]["commanders"] == kept


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        ("commanders Bob Tymna +", "refused: Give each commander a name."),
        ("commanders Bob , + Kraum", "refused: Give each commander a name."),
        (
            "commanders Bob A + B + C",
            "refused: A player has one or two commanders (partners); 3 given.",
        ),
        ("commanders Bob", "refused: Usage: commanders PLAYER NAME [+ NAME]"),
    ],
)
def test_lf1_commanders_refuses_an_empty_name_or_a_third(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    line: str,
    reply: str,
) -> None:
    assert run(
        monkeypatch, capsys, tmp_path / "j.sqlite3", f"new edh Alice Bob first=Bob\n{line}\n"
    )[1:] == [reply]
