"""The game clock and the turn timer at the console, line by line as a table types them, on a
clock the test moves: ``time``, ``pause``, ``resume``, ``timer`` and ``clock`` in any game, with
their refusals, undo (which leaves a break be), the journal across a power cut, a game saved before the clock, a Conspiracy
pod (whose ``clock`` and ``time`` are its round's), and the console's languages."""

from __future__ import annotations

import io
import random
from pathlib import Path

from device import game as rules
from device.commands import NewGame
from device.console import TABLES, Console
from device.controller import Controller
from device.journal import Journal
from device.state_clock import GameTime
from device.translations import ConsoleTranslator
from helpers import T0


class Session:
    """A console on a journal, its controller's wall clock in the test's hands."""

    def __init__(
        self, path: Path, now: float = T0, language: str = "en", game_time: bool = False
    ) -> None:
        self.now = now
        self.journal = Journal(path)
        # With ``game_time`` the clock is the game's, as the gadget runs it (the session's own
        # monotonic clock moving with ``now``, started again at each session: a restart).
        clock = (
            GameTime(wall=lambda: self.now, monotonic=lambda: self.now)
            if game_time
            else lambda: self.now
        )
        self.controller = Controller(self.journal, rng=random.Random(3), clock=clock)
        self.out = io.StringIO()
        self.console = Console(self.controller, self.out, TABLES, ConsoleTranslator(language))

    def run(self, *lines: str, wait: float = 0.0) -> list[str]:
        """``wait`` seconds pass, then the lines are typed; what the console printed."""
        self.now += wait
        start = self.out.tell()
        for line in lines:
            self.console.run_line(line)
        self.out.seek(start)
        said = self.out.read().splitlines()
        self.out.seek(0, io.SEEK_END)
        return said

    def close(self) -> None:
        self.journal.close()


def test_the_time_played_a_break_and_the_turn_timer(tmp_path: Path) -> None:
    table = Session(tmp_path / "j.sqlite3")
    assert table.run("new commander Ala Ola Ewa first=Ala turn_timer=90") == [
        "New game (Commander) for Ala, Ola, Ewa, 40 life. Ala goes first."
    ]
    assert table.run("time", wait=65) == ["Played: 0:01:05.", "Ala's turn: 0:25 left of 1:30."]
    assert table.run("time", wait=40) == ["Played: 0:01:45.", "Ala's turn: the time is up (1:30)."]
    assert table.run("pause", "pause") == [
        "Game clock paused: 0:01:45 played.",
        "refused: The game clock is paused already: 0:01:45 played.",
    ]
    assert table.run("time", wait=600) == [
        "Played: 0:01:45; the clock is paused.",
        "Ala's turn: the time is up (1:30).",
    ]
    assert table.run("resume", "resume", "next", "next") == [
        "Game clock running again: 0:01:45 played.",
        "refused: The game clock is not paused: 0:01:45 played.",
        "Ala: main phase.",
        "Turn 2: Ola's upkeep.",
    ]
    assert table.run("clock", wait=30) == ["Played: 0:02:15.", "Ola's turn: 1:00 left of 1:30."]
    table.close()


def test_the_turn_timer_set_during_the_game_and_undone(tmp_path: Path) -> None:
    table = Session(tmp_path / "j.sqlite3")
    table.run("new Ala Ola first=Ala")
    assert table.run("time", wait=5) == ["Played: 0:00:05."]
    assert table.run("timer 2:00", "timer 120", "timer 1:7", "timer 90 60", "timer 4000") == [
        "Turn timer: 2:00 a turn, from now.",
        "refused: The turn timer is 2:00 a turn already.",
        "refused: '1:7' is not a turn timer: give seconds (90), minutes and seconds (1:30), or off.",
        "refused: Usage: timer SECONDS|M:SS|off",
        "refused: A turn timer is 1 to 3600 seconds a turn, or 0 for none; 4000 asked for.",
    ]
    assert table.run("time", wait=20) == ["Played: 0:00:25.", "Ala's turn: 1:40 left of 2:00."]
    assert table.run("timer off", "timer OFF", "undo", "time") == [
        "Turn timer off.",
        "refused: This game has no turn timer already.",
        "Undone: Turn timer off.",
        "Played: 0:00:25.",
        "Ala's turn: 1:40 left of 2:00.",
    ]
    # A break is no change: UNDO takes back the timer set, and the clock stays paused.
    assert table.run("pause", "undo", "time", wait=10)[1:] == [
        "Undone: Turn timer: 2:00 a turn, from now.",
        "Played: 0:00:35; the clock is paused.",
    ]
    table.close()


def test_a_pause_survives_a_power_cut_and_time_off_is_not_played(tmp_path: Path) -> None:
    """The game goes on from the journal's last record (decision 0027): a pause stays paused, and
    a clock left running counts nothing for the hours the gadget was off."""
    table = Session(tmp_path / "j.sqlite3", game_time=True)
    table.run("new Ala Ola first=Ala")
    table.run("pause", wait=45)
    table.close()
    table = Session(
        tmp_path / "j.sqlite3", now=T0 + 3 * 3600, game_time=True
    )  # the plug was pulled for three hours
    assert table.run("time") == ["Played: 0:00:45; the clock is paused."]
    assert table.run("resume", wait=60) == ["Game clock running again: 0:00:45 played."]
    assert table.run("time", wait=15) == ["Played: 0:01:00."]
    table.close()
    table = Session(
        tmp_path / "j.sqlite3", now=T0 + 5 * 3600 + 60, game_time=True
    )  # off again, the clock running
    assert table.run("time") == ["Played: 0:00:45."]  # from the resume, the journal's last record
    table.close()


def test_a_game_saved_before_the_clock_starts_one_with_clock(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        command = NewGame(
            players=("Ala", "Ola"), first="Ala"
        )  # no time: as games were saved before
        events = rules.decide(None, command, random.Random(1))
        journal.create_game(
            events, {"type": "NewGame"}, rules.play(None, events)[0], "Free-for-all: Ala, Ola", T0
        )
    table = Session(tmp_path / "j.sqlite3", now=T0 + 500)
    assert table.run("time", "pause", "timer 60") == [
        "This game has no game clock: 'clock' starts one.",
        "refused: This game's clock has not started: start it with 'clock'.",
        "refused: This game's clock has not started: start it with 'clock'.",
    ]
    assert table.run("clock", "clock", "time", wait=0) == [
        "Game clock started.",
        "Played: 0:00:00.",
        "Played: 0:00:00.",
    ]
    table.close()


def test_a_finished_games_time_is_to_its_last_change(tmp_path: Path) -> None:
    table = Session(tmp_path / "j.sqlite3")
    table.run("new duel Ala Ola first=Ala")
    table.run("damage Ola 20 from Ala", wait=1800)
    assert table.run("time", "pause", wait=600) == [
        "Played: 0:30:00; the game is over.",
        "refused: The game is over: Ala won (last player standing). Undo to change that, or start a new game with "
        "'new'.",
    ]
    table.close()


def test_in_a_conspiracy_pod_clock_and_time_are_the_rounds_and_the_game_clock_pauses_alone(
    tmp_path: Path,
) -> None:
    """CJ-5: ``clock`` starts the round's clock, ``time`` says the round's minutes, then the
    pod's time played; a pause stops the game clock, not the round's (the event's)."""
    table = Session(tmp_path / "j.sqlite3")
    table.run("new conspiracy Ala Ola Ewa Ida time_limit=60")
    assert table.run("clock", "pause", wait=120) == [
        "Round 1's clock is running: 60 minutes.",
        "Game clock paused: 0:02:00 played.",
    ]
    assert table.run("time", wait=600) == [
        "50 minute(s) left in round 1.",
        "Played: 0:02:00; the clock is paused.",
    ]
    assert table.run("timer 60") == [
        "refused: Conspiracy pod has no turn timer: its players do not pass the turn one at a time at one table."
    ]
    assert table.run("new conspiracy Ala Ola Ewa Ida turn_timer=60")[0].startswith(
        "refused: There is no table option 'turn_timer' for Conspiracy pod."
    )
    table.close()


def test_the_clock_in_the_consoles_languages(tmp_path: Path) -> None:
    said = {}
    for language in ("ru", "ja", "pl"):
        table = Session(tmp_path / language / "j.sqlite3", language=language)
        table.run("new Ala Ola first=Ala turn_timer=60")
        said[language] = table.run(
            "time", "pause", "pause", "time", "timer 1:30", "timer abc", wait=75
        )
        table.close()
    assert said == {
        "ru": [
            "Сыграно: 0:01:15.",
            "Ход игрока Ala: время вышло (1:00).",
            "Часы игры на паузе: сыграно 0:01:15.",
            "отказано: Часы игры уже на паузе: сыграно 0:01:15.",
            "Сыграно: 0:01:15; часы на паузе.",
            "Ход игрока Ala: время вышло (1:00).",
            "Таймер хода: 1:30 на ход, с этого момента.",
            "отказано: 'abc' — не таймер хода: укажите секунды (90), минуты и секунды (1:30) или off.",
        ],
        "ja": [
            "プレイ時間：0:01:15。",
            "Alaのターン：時間切れ（持ち時間1:00）。",
            "ゲームの時計を一時停止しました：プレイ時間0:01:15。",
            "受付不可：ゲームの時計はすでに一時停止中です：プレイ時間0:01:15。",
            "プレイ時間：0:01:15（時計は一時停止中）。",
            "Alaのターン：時間切れ（持ち時間1:00）。",
            "ターンの持ち時間：1ターン1:30（今から）。",
            "受付不可：'abc' はターンの持ち時間ではありません：秒（90）、分と秒（1:30）、または off で指定してください。",
        ],
        "pl": [
            "Grano: 0:01:15.",
            "Tura gracza Ala: koniec czasu (1:00).",
            "Zegar gry zatrzymany: grano 0:01:15.",
            "odrzucono: Zegar gry już stoi: grano 0:01:15.",
            "Grano: 0:01:15; zegar stoi.",
            "Tura gracza Ala: koniec czasu (1:00).",
            "Zegar tury: 1:30 na turę, od teraz.",
            "odrzucono: 'abc' to nie zegar tury: podaj sekundy (90), minuty i sekundy (1:30) albo off.",
        ],
    }


def test_help_explains_the_clocks_commands(tmp_path: Path) -> None:
    table = Session(tmp_path / "j.sqlite3")
    assert table.run("help pause") == [
        "pause",
        "    Pause the game clock and the turn timer: a break at the table (UNDO held does the same).",
    ]
    table.close()
