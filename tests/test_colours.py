"""Players' colours (device.rules.colours): each seat's own unless chosen, never two alike, a
choice that swaps with the player who had the colour, refusals that say what to do, and a choice
during a game that is journaled, undone and replayed like any change — typed at the console."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.commands import ChooseColour, NewGame
from device.errors import IllegalCommand
from device.controller import Controller
from device.events import GameStarted, PlayerSpec
from device.rules import table
from device.rules.colours import COLOURS, colour_of, filled, starting_colours, turned
from device.text import english
from display.cli import main

NAMES = ("Ala", "Ola", "Ela")


def refusal(names: tuple[str, ...], chosen: tuple[str, ...]) -> str:
    with pytest.raises(IllegalCommand) as caught:
        starting_colours(names, chosen)
    return str(caught.value)


def test_each_seat_has_its_own_colour_unless_chosen() -> None:
    assert starting_colours(NAMES, ()) == ("red", "blue", "green")
    assert starting_colours(NAMES, ("", "", "white")) == ("red", "blue", "white")
    # Ala keeps hers though Ela's own went to Ola; Ela takes the first colour nobody has.
    assert starting_colours(NAMES, ("", "green")) == ("red", "green", "blue")
    assert starting_colours(NAMES, ("PU", "Red")) == ("purple", "red", "green")  # a start, any case
    assert starting_colours(tuple(f"P{n}" for n in range(10)), ()) == COLOURS


def test_a_choice_that_cannot_be_kept_is_refused_with_what_to_do() -> None:
    assert (
        refusal(NAMES, ("red", "red"))
        == "Ala and Ola both chose red: give each player a different colour."
    )
    assert refusal(NAMES, ("red", "", "", "blue")) == (
        "4 colours for 3 players: give one colour per player, in seat order."
    )
    assert refusal(NAMES, ("mauve",)) == (
        "'mauve' is not a colour here: choose one of red, blue, green, yellow, purple, orange, teal, pink, "
        "white or brown."
    )
    assert refusal(NAMES, ("p",)) == refusal(NAMES, ("mauve",)).replace(
        "'mauve'", "'p'"
    )  # purple or pink


@given(st.lists(st.sampled_from(("", *COLOURS)), min_size=2, max_size=10))
def test_no_two_seats_ever_share_a_colour(picked: list[str]) -> None:
    chosen = [c if c and c not in picked[:i] else "" for i, c in enumerate(picked)]
    colours = filled(chosen)
    assert len(set(colours)) == len(colours)
    assert all(colour == want for colour, want in zip(colours, chosen, strict=True) if want)


@given(st.integers(2, 10), st.data())
def test_turning_a_seats_colour_swaps_with_its_holder(count: int, data: st.DataObject) -> None:
    colours = filled([""] * count)
    seat = data.draw(st.integers(0, count - 1))
    steps = data.draw(st.integers(-12, 12))
    after = turned(colours, seat, steps)
    assert sorted(after) == sorted(set(after)) and len(after) == count
    assert after[seat] == COLOURS[(COLOURS.index(colours[seat]) + steps) % len(COLOURS)]
    assert sum(a != b for a, b in zip(colours, after, strict=True)) in (0, 1, 2)


def test_a_game_saved_before_colours_shows_each_seats_own() -> None:
    started = GameStarted(
        formats=("ffa",),
        starting_life=20,
        players=tuple(PlayerSpec(name=n) for n in NAMES),
        starting_player=0,
        starting_player_random=False,
    )
    state = table.initial_state(started)
    assert [p.colour for p in state.players] == ["", "", ""]
    assert [colour_of(p) for p in state.players] == ["red", "blue", "green"]


def test_choosing_a_colour_is_a_change_that_undo_and_replay_keep(controller: Controller) -> None:
    controller.execute(NewGame(players=NAMES, first="Ala", colours=("", "teal")))
    state = controller.state
    assert state is not None and [colour_of(p) for p in state.players] == ["red", "teal", "green"]
    result = controller.execute(ChooseColour(seat=0, colour="teal"))
    assert [str(m) for m in result.messages] == ["Ala's colour is now teal; Ola takes red."]
    after = controller.state
    assert after is not None and [colour_of(p) for p in after.players] == ["teal", "red", "green"]
    with pytest.raises(IllegalCommand) as caught:
        controller.execute(ChooseColour(seat=0, colour="te"))
    assert str(caught.value) == "Ala's colour is teal already."
    assert controller.game is not None and controller.journal.replay(controller.game) == after
    assert [str(m) for m in controller.undo().messages] == [
        "Undone: Ala's colour is now teal; Ola takes red."
    ]
    assert controller.state == state


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


def test_the_console_names_chooses_and_lists_colours(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = run(
        monkeypatch,
        capsys,
        tmp_path / "j.sqlite3",
        "\n".join(
            [
                "new ffa Ala Ola Ela first=Ala colours=,yellow",
                "colour",
                "colour ela yel",
                "colour ala yellow",
                "color ola pink",
                "undo",
                "colour ola",
                "colour ola mauve",
                "state",
            ]
        )
        + "\n",
    )
    assert out[:-1] == [
        "New game (Free-for-all) for Ala, Ola, Ela, 20 life. Ala goes first.",
        "Ala: red",
        "Ola: yellow",
        "Ela: green",
        "Ela's colour is now yellow; Ola takes green.",
        "Ala's colour is now yellow; Ela takes red.",
        "Ola's colour is now pink.",
        "Undone: Ola's colour is now pink.",
        "refused: Usage: colour [PLAYER COLOUR]",
        "refused: 'mauve' is not a colour here: choose one of red, blue, green, yellow, purple, orange, teal, "
        "pink, white or brown.",
    ]
    assert [p["colour"] for p in json.loads(out[-1])["state"]["players"]] == [
        "yellow",
        "green",
        "red",
    ]


def test_the_console_says_colours_in_its_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = "new ffa Ala Ola first=Ala\ncolour\ncolour ala blue\n"
    assert run(monkeypatch, capsys, tmp_path / "ru.sqlite3", script, "--language", "ru")[1:] == [
        "Ala: красный",
        "Ola: синий",
        "Цвет игрока Ala теперь синий; Ola получает красный.",
    ]
    assert run(monkeypatch, capsys, tmp_path / "pl.sqlite3", script, "--language", "pl")[1:] == [
        "Ala: czerwony",
        "Ola: niebieski",
        "Kolor gracza Ala to teraz niebieski; Ola dostaje czerwony.",
    ]
    assert run(monkeypatch, capsys, tmp_path / "ja.sqlite3", script, "--language", "ja")[1:] == [
        "Ala：レッド",
        "Ola：ブルー",
        "Alaのカラーはブルーに、Olaはレッドになりました。",
    ]


def test_every_colour_has_a_name() -> None:
    assert [english(f"colour.{c}") for c in COLOURS] == list(COLOURS)
