"""What each screen shows, checked from the drawing layer's record of texts (not pixels):
TB-3 (whose upkeep and turn), LF-1..LF-4 (life, poison, commander damage, losses, undo),
PC-2/PC-13 (roll cost, odds, logs), the reader's status line and refusals."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from msgspec.structs import replace
import pytest
from scenes import LANGUAGES, SAMPLE_TEXT, SCENES, SIZES, drawn, shown, texts
from conftest import CLOCK

from device.commands import ChangeLife, Concede, DealCommanderDamage, NewGame
from device.inputs import Button, ReaderStatus, TagRead
from device.rules.planechase.state import PlanechaseState
from display.i18n import Translator
from display.kiosk import Kiosk
from display.layout import choose
from display.targets import OffscreenTarget
from display.screens.adjust import (
    AddAmount,
    AdjustForm,
    ApplyChange,
    PickCounter,
    PickPlayer,
    PickSource,
)
from display.screens.setup import SetupForm, rows
from display.screens.table import HideBanner
from display.ui import Focus, Go, Press, Tap, Turn, Type

MakeKiosk = Callable[..., Kiosk]


@pytest.mark.parametrize("language", LANGUAGES)
def test_tb3_upkeep_banner_names_the_active_player(make_kiosk: MakeKiosk, language: str) -> None:
    """TB-3: at the start of a turn the banner says, in big letters, whose upkeep it is, and
    lists what they must do (Planechase adds the plane)."""
    kiosk = shown(make_kiosk, "upkeep", language=language)
    tr = Translator(language)
    assert texts(kiosk, "banner.title") == [tr("ui.upkeep.title", name="Alice")]
    assert texts(kiosk, "header.headline") == [tr("ui.upkeep_of", name="Alice")]
    items = texts(kiosk, "banner.item")
    assert items[0] == "• " + tr("ui.upkeep.untap")
    plane = kiosk.state.part(PlanechaseState).face_up[0].name
    assert items[1] == "• " + tr("ui.pc.upkeep", plane=plane)
    assert texts(kiosk, "banner.next") == [tr("ui.upkeep.next")]
    headline = drawn(kiosk, "header.headline")[0]
    assert headline.size >= kiosk.canvas.layout.big * 3 // 4  # readable across the table


def test_tb3_next_leaves_the_upkeep_and_the_banner_goes(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "upkeep")
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert texts(kiosk, "banner.*") == []
    assert texts(kiosk, "header.headline") == ["Alice's turn"]
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert texts(kiosk, "banner.title") == ["Юрий: upkeep"]
    assert texts(kiosk, "header.turn") == ["Turn 2"]


def test_tb3_tapping_the_banner_hides_it_for_this_turn(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "upkeep")
    banner = next(t for t in kiosk.canvas.targets if t.action == HideBanner())
    kiosk.touch((banner.rect[0] + 5, banner.rect[1] + 5))
    kiosk.redraw()
    assert texts(kiosk, "banner.*") == []
    assert texts(kiosk, "header.headline") == ["Alice's upkeep"]  # still the upkeep


def test_lf1_table_shows_life_poison_commander_damage_and_losses(make_kiosk: MakeKiosk) -> None:
    """LF-1: every seat with its life; poison and commander damage only when not zero; a player
    who left is shown with the reason."""
    kiosk = shown(make_kiosk, "table")
    assert texts(kiosk, "seat0.name") == ["Alice"]
    assert [texts(kiosk, f"seat{i}.life")[0] for i in range(4)] == ["40", "40", "33", "40"]
    assert texts(kiosk, "seat0.poison") == ["3"]
    assert (
        texts(kiosk, "seat0.cmd") == texts(kiosk, "seat1.poison") == texts(kiosk, "seat1.cmd") == []
    )
    assert texts(kiosk, "seat2.cmd") == ["7"] and texts(kiosk, "seat2.cmd.from") == ["Юрий"]
    layout = kiosk.canvas.layout
    assert all(
        d.size >= layout.medium for d in drawn(kiosk, "seat0.poison") + drawn(kiosk, "seat2.cmd")
    )
    assert texts(kiosk, "seat3.lost") == ["conceded"]
    assert texts(kiosk, "header.headline") == ["Юрий's turn"]


def test_lf1_a_loss_names_its_cause_and_who(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((800, 480), "ru")
    kiosk.execute(NewGame(formats=("ffa",), players=("Ann", "Bob", "Cid"), first="Ann"))
    kiosk.execute(ChangeLife(seat=2, delta=-20, source=1))
    kiosk.redraw()
    assert texts(kiosk, "seat2.lost") == ["вне игры: 0 жизни (источник: Bob)"]
    assert texts(kiosk, "seat2.life") == ["0"]


def test_table_places_seats_clockwise_around_the_table(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "table")
    centres = [drawn(kiosk, f"seat{i}.name")[0].rect for i in range(4)]
    (x0, y0, *_), (x1, y1, *_), (x2, y2, *_), (x3, y3, *_) = centres
    assert y0 == y1 < y2 == y3  # two at the top, two at the bottom
    assert x0 < x1 and x2 > x3  # left to right on top, right to left below: clockwise


def test_lf2_adjust_records_from_whom_and_applies_as_one_change(make_kiosk: MakeKiosk) -> None:
    """LF-2, LF-4: the encoder collects an amount on the table, the source defaults to the
    active player, key A takes it to the adjust screen as it was (not made yet), NEXT applies it
    as one change that UNDO takes back (and says so)."""
    kiosk = shown(make_kiosk, "upkeep")
    kiosk.dispatch(Press(Button.NEXT))  # Alice's main phase
    kiosk.dispatch(Focus(1))  # the table's cursor to Юрий
    kiosk.dispatch(Turn(-4))  # the encoder: Юрий's life, pending
    kiosk.dispatch(Turn(-1))
    kiosk.dispatch(Go("adjust"))  # key A
    kiosk.redraw()
    assert kiosk.ui.screen == "adjust"
    assert kiosk.state is not None and kiosk.state.player(1).life == 40  # not made yet
    assert texts(kiosk, "adjust.amount") == ["−5"]
    assert texts(kiosk, "adjust.preview") == ["Юрий: 40 → 35"]
    selected_from = [d.text for d in drawn(kiosk, "adjust.from")]
    assert selected_from[0] == "nobody" and "Alice" in selected_from
    assert kiosk.ui.state_of(AdjustForm).source == 0  # Alice, the active player
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert kiosk.ui.screen == "table"
    assert kiosk.state is not None and kiosk.state.player(1).life == 35
    assert texts(kiosk, "status.messages") == ["Юрий: 40 → 35 life (from Alice)."]
    kiosk.dispatch(Go("adjust"))
    kiosk.redraw()
    assert texts(kiosk, "adjust.undo") == ["UNDO takes back: Юрий: 40 → 35 life (from Alice)."]
    kiosk.dispatch(Press(Button.UNDO))
    kiosk.redraw()
    assert kiosk.state.player(1).life == 40
    assert texts(kiosk, "status.messages") == ["Undone: Юрий: 40 → 35 life (from Alice)."]


def test_lf1_adjust_by_touch_deals_commander_damage(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "upkeep")
    kiosk.dispatch(Press(Button.NEXT))

    def tap(action: Tap) -> None:
        target = next(t for t in kiosk.canvas.targets if t.action == action)
        kiosk.touch((target.rect[0] + target.rect[2] // 2, target.rect[1] + target.rect[3] // 2))
        kiosk.redraw()

    kiosk.redraw()
    tap(Go("adjust"))  # the bar's LIFE button
    assert kiosk.ui.screen == "adjust"
    tap(PickPlayer(2))  # さくら
    tap(PickCounter("commander"))
    tap(PickSource(3, 0))
    for _ in range(2):
        tap(AddAmount(5))
    assert texts(kiosk, "adjust.preview") == ["さくら: 0/21 → 10/21"]
    tap(ApplyChange())
    assert kiosk.state is not None and kiosk.state.player(2).commander_damage_from(3, 0) == 10
    assert texts(kiosk, "seat2.cmd") == ["10"] and texts(kiosk, "seat2.cmd.from") == ["Łukasz"]


def test_adjust_left_unconfirmed_is_dropped_and_said(make_kiosk: MakeKiosk) -> None:
    now = [1000.0]
    kiosk = make_kiosk((800, 480), "en")
    kiosk._clock = lambda: now[0]  # noqa: SLF001 - the kiosk's clock is a parameter
    SCENES["adjust"](kiosk)
    assert kiosk.ui.screen == "adjust"
    for _ in range(5):  # the status message expires first, then the adjustment
        deadline = kiosk.deadline()
        assert deadline is not None
        now[0] = deadline + 0.01
        kiosk.step(block=False)
        if kiosk.ui.screen != "adjust":
            break
    assert kiosk.ui.screen == "table"
    assert now[0] >= 1000.0 + 30
    assert texts(kiosk, "status.card") == ["Not applied: the change was left unconfirmed."]
    assert kiosk.state is not None and kiosk.state.player(0).life == 40


@pytest.mark.parametrize("language", LANGUAGES)
def test_refusal_is_one_line_in_the_tables_language(make_kiosk: MakeKiosk, language: str) -> None:
    """A refused command changes nothing and its reason shows on the status line."""
    kiosk = shown(make_kiosk, "table", language=language)
    expected = Translator(language)("controller.roll_needs_planechase")
    assert texts(kiosk, "status.error") == [expected]
    error = drawn(kiosk, "status.error")[0]
    assert error.rect[1] + error.rect[3] <= kiosk.canvas.height - kiosk.canvas.layout.bar + 2


def test_reader_status_line(make_kiosk: MakeKiosk) -> None:
    """Reader feedback on the status line: an unknown card offers to enrol it, a lost reader is
    said beside it, and a refused tap's reason shows whole, not squeezed into an ellipsis."""
    kiosk = shown(make_kiosk, "reader")
    assert texts(kiosk, "status.card") == ["unknown card — enrol? (tag DE:AD:BE:EF)"]
    assert texts(kiosk, "status.offer") == ["SELECT: enrol"]
    assert texts(kiosk, "status.reader") == ["reader disconnected"]
    kiosk.handle_input(ReaderStatus(True, "/dev/ttyUSB0", "rdm6300"))
    kiosk.handle_input(TagRead("04A1B2C3"))
    kiosk.redraw()
    assert texts(kiosk, "status.reader") == ["reader on /dev/ttyUSB0"]
    # A virtual-deck game has no use for a tapped plane: the reason shows rather than the card.
    assert texts(kiosk, "status.error") == [
        "This game's planar decks are virtual: the gadget turns the cards over itself, so Tazeem needs "
        "no tapping. For real cards, set up the game with “Planar decks: real cards”."
    ]
    assert not any(d.cut for d in kiosk.canvas.drawn if d.role.startswith("status."))
    assert texts(kiosk, "status.card") == []


def test_pc2_pc13_planechase_shows_plane_die_cost_odds_and_logs(make_kiosk: MakeKiosk) -> None:
    """PC-2, PC-3, PC-13: the face-up plane with its type and text, the die's last result, the
    next roll's cost, the odds, the roll log and the planes visited."""
    kiosk = shown(make_kiosk, "planechase")
    pc = kiosk.state.planechase  # type: ignore[union-attr]
    assert pc is not None and [r.cost for r in pc.rolls] == [0, 1]
    assert texts(kiosk, "pc.plane.name") == ["Tazeem"]
    assert texts(kiosk, "pc.plane.type") == ["Plane — Zendikar"]
    assert " ".join(texts(kiosk, "pc.plane.text")) == SAMPLE_TEXT
    last = pc.rolls[-1]
    assert texts(kiosk, "pc.die.face") == [
        {"blank": "Blank", "chaos": "Chaos", "planeswalk": "Planeswalk"}[last.result]
    ]
    assert texts(kiosk, "pc.cost.label") == ["Next roll"]
    assert texts(kiosk, "pc.cost") == ["2"]  # in a generic mana symbol
    assert texts(kiosk, "pc.odds") == ["Each roll: planeswalk 1/6 · chaos 1/6"]
    assert texts(kiosk, "pc.odds_k") == ["3 rolls: 42% to planeswalk, 9 mana"]
    log = texts(kiosk, "pc.log")  # newest first, numbered by their place in the game's log
    assert log[0].startswith("2. Alice: ") and log[1].startswith("1. Alice: ")
    assert texts(kiosk, "pc.visited")[0] == pc.visited[-1].name


def test_planechase_without_card_data_says_how_to_add_it(
    make_kiosk: MakeKiosk, monkeypatch: pytest.MonkeyPatch
) -> None:
    from display import cardtext

    kiosk = make_kiosk((800, 480), "en")
    monkeypatch.setattr(cardtext, "PROVIDERS", [])
    kiosk.execute(NewGame(formats=("ffa", "planechase"), players=("Ann", "Bob"), first="Ann"))
    kiosk.dispatch(Go("planechase"))
    kiosk.redraw()
    assert texts(kiosk, "pc.plane.text") == []
    assert texts(kiosk, "pc.plane.hint") == [
        "No rules text yet: run 'aetherbox catalog fetch' while online"
    ]


def test_pc3_roll_shows_the_result_in_the_first_frame(make_kiosk: MakeKiosk) -> None:
    """The die's result is on screen in the frame right after ROLL; the tumble is extra."""
    kiosk = shown(make_kiosk, "upkeep")
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.redraw()
    assert kiosk.ui.screen == "planechase"
    face = kiosk.state.part(PlanechaseState).rolls[-1].result
    assert texts(kiosk, "pc.die.face") == [face.value.capitalize()]
    assert kiosk.ui.die is not None and kiosk.ui.die.until > kiosk.now()  # animating, result shown


def test_setup_starts_a_game_from_typed_names(make_kiosk: MakeKiosk) -> None:
    """Set-up: players, seats, formats, options and language, then NEXT starts the game."""
    import pygame

    kiosk = make_kiosk((800, 480), "en")
    kiosk.dispatch(Go("setup"))
    kiosk.redraw()
    assert texts(kiosk, "setup.value.base") == ["Commander"]
    labels = texts(kiosk, "setup.label.*")
    assert labels[:2] == ["Format", "Planechase"]
    kiosk.dispatch(Focus(1))  # Planechase
    kiosk.dispatch(Turn(1))  # on
    kiosk.dispatch(Focus(3))  # skip Contraptions and Two-Headed Giant: players
    kiosk.dispatch(Turn(-1))  # 3 players
    for name in ("Ann", "Bea", "Cyd"):
        kiosk.dispatch(Focus(1 if name == "Ann" else 2))  # past the commander row under each name
        for _ in range(8):
            pygame.event.post(
                pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="")
            )
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=name))
        kiosk.settle()
    kiosk.redraw()
    assert texts(kiosk, "setup.value.name")[-2:] == ["Bea", "Cyd_"]
    kiosk.dispatch(Press(Button.NEXT))  # from a name row: the next row (Cyd's commander)
    kiosk.dispatch(Press(Button.NEXT))  # and on (who goes first)
    kiosk.dispatch(Press(Button.NEXT))  # starts
    assert kiosk.state is not None
    assert [p.name for p in kiosk.state.players] == ["Ann", "Bea", "Cyd"]
    assert kiosk.state.formats == ("commander", "planechase")
    assert (
        kiosk.ui.screen == "dice"
    )  # the first player was drawn: the draw shows before the table (TB-5)


def test_setup_refusal_is_shown_and_nothing_starts(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((800, 480), "pl")
    kiosk.dispatch(Go("setup"))

    def form() -> SetupForm:
        return kiosk.ui.state_of(SetupForm)

    while rows(form())[form().row] != ("name", "1"):
        kiosk.dispatch(Focus(1))
    kiosk.dispatch(Type("Gracz 1"))  # seat 2 typed as seat 1's default name
    while rows(form())[form().row][0] in ("name", "commander"):
        kiosk.dispatch(Focus(1))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert kiosk.state is None
    assert texts(kiosk, "status.error") == [
        "Dwóch graczy nazywa się 'Gracz 1': nadaj różne imiona."
    ]


def test_language_changes_at_setup(make_kiosk: MakeKiosk) -> None:
    kiosk = make_kiosk((800, 480), "en")
    kiosk.dispatch(Go("setup"))
    language = [kind for kind, _ in rows(kiosk.ui.state_of(SetupForm))].index("language")
    kiosk.dispatch(Focus(language))  # ←/→ to the language row
    kiosk.dispatch(Turn(2))  # en → ru → ja
    kiosk.redraw()
    assert kiosk.ui.language == "ja"
    assert texts(kiosk, "setup.title") == ["新しいゲーム"]


def test_a_language_switch_rewords_what_was_said_at_once(make_kiosk: MakeKiosk) -> None:
    """What the last command said and what UNDO would take back are kept as messages: a language
    chosen at set-up words the status line and the adjust screen's undo line again, at once."""
    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(NewGame(formats=("commander",), players=("Ann", "Bob"), first="Ann"))
    kiosk.execute(ChangeLife(seat=1, delta=-6, source=0))
    kiosk.dispatch(Go("setup"))
    kiosk.redraw()
    assert texts(kiosk, "status.messages") == ["Bob: 40 → 34 life (from Ann)."]
    language = [kind for kind, _ in rows(kiosk.ui.state_of(SetupForm))].index("language")
    kiosk.dispatch(Focus(language - kiosk.ui.state_of(SetupForm).row))  # ←/→ to the language row
    kiosk.dispatch(Turn(1))  # en → ru
    kiosk.redraw()
    assert kiosk.ui.language == "ru"
    assert texts(kiosk, "status.messages") == ["Bob: жизнь 40 → 34 (источник: Ann)."]
    kiosk.dispatch(Go("adjust"))
    kiosk.redraw()
    assert texts(kiosk, "adjust.undo") == ["ОТМЕНИТЬ отменит: Bob: жизнь 40 → 34 (источник: Ann)."]
    kiosk.dispatch(Press(Button.UNDO))
    kiosk.redraw()
    assert texts(kiosk, "status.messages") == ["Отменено: Bob: жизнь 40 → 34 (источник: Ann)."]


def test_header_has_no_turn_counter_where_turns_are_not_counted(make_kiosk: MakeKiosk) -> None:
    """A Conspiracy pod's groups take their own turns and a Wizard's Duel counts rounds and phases:
    the header's corner says nothing rather than a table turn that means nothing."""
    for formats, players in (
        (("conspiracy",), ("Ann", "Bob", "Cid", "Dan")),
        (("wizards_duel",), ("Ala", "Ola")),
    ):
        kiosk = make_kiosk((800, 480), "en")
        kiosk.execute(NewGame(formats=formats, players=players, first=players[0]))
        kiosk.redraw()
        assert texts(kiosk, "header.turn") == [], formats
    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(NewGame(formats=("commander",), players=("Ann", "Bob"), first="Ann"))
    kiosk.redraw()
    assert texts(kiosk, "header.turn") == ["Turn 1"]


def test_the_header_counts_down_a_turn_timer(make_kiosk: MakeKiosk) -> None:
    """The header shows what is left of the active player's turn when the game has a turn
    timer (``turn_timer``, seconds), and the loop wakes for its next second."""
    kiosk = shown(make_kiosk, "clock")
    assert texts(kiosk, "header.clock") == ["0:42 left"]
    assert kiosk.deadline() == CLOCK + 1.0


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", list(SCENES))
def test_hw4_every_text_fits_on_every_layout(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    """HW-4: at every size every text is inside the screen, every character has a glyph, and
    the key facts stay large."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES[scene](kiosk)
    for size in SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        layout = choose(*size)
        for d in kiosk.canvas.drawn:
            x, y, w, h = d.rect
            assert x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1] + 1, (size, d)
        assert kiosk.fonts.missing == set()
        for d in kiosk.canvas.drawn:
            if d.role.endswith(".life") or d.role == "header.headline":
                assert d.size >= layout.medium, (size, d)


def test_pc7_a_phenomenon_takes_the_planes_place_until_next(make_kiosk: MakeKiosk) -> None:
    """PC-7: a phenomenon being encountered is shown large with what to do; NEXT resolves it."""
    from device.rules.planechase.state import FaceUpCard, PlanarKind

    kiosk = shown(make_kiosk, "upkeep")
    kiosk.dispatch(Press(Button.NEXT))
    state = kiosk.controller.state
    assert state is not None and state.planechase is not None
    phenomenon = FaceUpCard(name="Chaotic Aether", kind=PlanarKind.PHENOMENON, owner=0)
    pc = state.planechase.model_copy(
        update={"encounter": "Chaotic Aether", "face_up": (phenomenon,)}
    )
    kiosk.controller.state = state.model_copy(update={"planechase": pc})
    kiosk.dispatch(Go("planechase"))
    kiosk.redraw()
    assert texts(kiosk, "pc.plane.name") == ["Chaotic Aether"]
    assert texts(kiosk, "pc.plane.type") == ["Phenomenon"]
    assert texts(kiosk, "pc.resolve") == ["Resolve it, then press NEXT"]


def test_pc11_a_pending_choice_is_picked_with_the_encoder_and_select(make_kiosk: MakeKiosk) -> None:
    """PC-11: Interplanar Tunnel's choice: the revealed planes as a list; ↑/↓ and SELECT choose."""
    from device.rules.planechase.commands import ChoosePlanar
    from device.rules.planechase.state import CardRef, ChoiceKind, PendingChoice, PlanarKind

    kiosk = shown(make_kiosk, "upkeep")
    kiosk.dispatch(Press(Button.NEXT))
    state = kiosk.controller.state
    assert state is not None and state.planechase is not None
    cards = (
        CardRef(name="Agyrem", kind=PlanarKind.PLANE),
        CardRef(name="Bant", kind=PlanarKind.PLANE),
    )
    choice = PendingChoice(
        kind=ChoiceKind.TUNNEL, seat=0, deck=0, cards=cards, source="Interplanar Tunnel"
    )
    kiosk.controller.state = state.model_copy(
        update={"planechase": state.planechase.model_copy(update={"choice": choice})}
    )
    kiosk.dispatch(Go("planechase"))
    kiosk.redraw()
    assert texts(kiosk, "pc.choice.option") == ["Agyrem", "Bant"]
    assert texts(kiosk, "pc.choice.prompt")[0].startswith("Alice: choose the plane to put on top")
    sent: list[object] = []
    kiosk.execute = lambda command: sent.append(command)  # type: ignore[method-assign, assignment, return-value]
    kiosk.dispatch(Turn(1))
    kiosk.dispatch(Press(Button.SELECT))
    assert sent == [ChoosePlanar(answer=("Bant",))]


def test_hw3_the_current_plane_shows_its_text_after_a_catalog_import(
    make_kiosk: MakeKiosk,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """HW-3, HW-5: `aetherbox catalog import FILE` (a Scryfall-style file) and then the Planechase
    screen shows the face-up plane's rules text instead of the hint."""
    from device import cardtext as stored
    from display.cli import main
    from display import cardtext

    kiosk = make_kiosk((800, 480), "en")
    monkeypatch.setattr(cardtext, "PROVIDERS", [])
    kiosk.execute(NewGame(formats=("ffa", "planechase"), players=("Ann", "Bob"), first="Ann"))
    plane = kiosk.state.part(PlanechaseState).face_up[0].name
    export = tmp_path / "oracle-cards.json"
    export.write_text(
        json.dumps(
            [
                {
                    "object": "card",
                    "name": plane,
                    "layout": "planar",
                    "type_line": "Plane — Somewhere",
                    "oracle_text": "Whenever you roll {CHAOS}, draw a card.",
                },
                {
                    "object": "card",
                    "name": "Grizzly Bears",
                    "layout": "normal",
                    "type_line": "Creature — Bear",
                    "oracle_text": "",
                },
            ]
        ),
        encoding="utf-8",
    )
    data = tmp_path / "data"  # tests/conftest.py points AETHERBOX_DATA_DIR here
    assert main(["catalog", "import", str(export)]) == 0
    capsys.readouterr()
    stored.clear_cache()
    cardtext.configure(data)
    try:
        kiosk.dispatch(Go("planechase"))
        kiosk.redraw()
        assert " ".join(texts(kiosk, "pc.plane.text")) == "Whenever you roll {CHAOS}, draw a card."
        # {CHAOS} is drawn as the chaos symbol, not as its notation.
        assert [s.name for s in kiosk.canvas.shapes if s.role == "pc.plane.text"] == ["chaos"]
        assert texts(kiosk, "pc.plane.hint") == []
    finally:
        cardtext.configure(None)
        stored.clear_cache()


@pytest.mark.parametrize("language", ["en", "ru", "ja", "pl"])
def test_lf4_the_undo_line_of_a_long_change_is_never_cut(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """LF-4 at 800×480: a commander's 21st damage says three things (the damage, the life, the
    loss) and the status line takes two lines; the adjust screen's undo line then says what the
    change did first, whole, rather than the whole change cut off."""
    kiosk = make_kiosk((800, 480), language)
    kiosk.execute(
        NewGame(formats=("commander",), players=("Аня", "Борис", "さくら", "Łukasz"), first="Аня")
    )
    kiosk.execute(DealCommanderDamage(seat=2, source=0, amount=21))
    kiosk.dispatch(Go("adjust"))
    kiosk.redraw()
    undo = [d for d in kiosk.canvas.drawn if d.role == "adjust.undo"]
    assert undo and not any(d.cut for d in undo)
    shown = "".join("".join(d.text for d in undo).split())
    first = Translator(language).message(kiosk.controller.last_change().messages()[0])  # type: ignore[union-attr]
    assert "".join(first.split()) in shown


def test_lf2_the_adjust_screen_offers_no_source_who_has_left(make_kiosk: MakeKiosk) -> None:
    """LF-2: Carol conceded; the adjust screen's "From" row offers nobody, Alice and Bob, and
    for commander damage only the commanders of players still in the game."""
    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(NewGame(formats=("commander",), players=("Alice", "Bob", "Carol"), first="Alice"))
    kiosk.execute(Concede(seat=2))
    kiosk.dispatch(Go("adjust"))
    kiosk.redraw()
    froms = [
        (t.action.source, t.action.commander)
        for t in kiosk.canvas.targets
        if isinstance(t.action, PickSource)
    ]
    assert froms == [(None, 0), (0, 0), (1, 0)]


def test_pc12_an_awaited_physical_card_is_picked_on_screen(make_kiosk: MakeKiosk) -> None:
    """PC-12, PC-6: with a listed physical deck and no reader, the awaited card is picked on the
    Planechase screen from the deck's cards with the encoder and SELECT; NEXT still says what is
    awaited; once the deck has gone round, the card expected next is offered first and named."""
    from device.rules.planechase.commands import Planeswalk, SetPlanarDeck
    from device.catalog import load_catalog

    planes = [c.name for c in load_catalog().planes()][:10]
    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(
        NewGame(
            formats=("ffa", "planechase"),
            players=("Ann", "Bob"),
            first="Ann",
            options={"planar_deck": "physical"},
        )
    )
    kiosk.execute(SetPlanarDeck(owner=0, names=tuple(planes)))
    kiosk.dispatch(Go("planechase"))
    kiosk.redraw()
    assert texts(kiosk, "pc.choice.option")[:2] == planes[:2]
    kiosk.dispatch(Turn(1))
    kiosk.dispatch(Press(Button.SELECT))
    kiosk.redraw()
    assert [c.name for c in kiosk.state.part(PlanechaseState).face_up] == [planes[1]]
    for name in [planes[0], *planes[2:]]:
        kiosk.execute(Planeswalk())
        kiosk.dispatch(Go("planechase"))
        kiosk.redraw()
        options = texts(kiosk, "pc.choice.option")
        kiosk.dispatch(Turn(options.index(name)))
        kiosk.dispatch(Press(Button.SELECT))
    kiosk.execute(Planeswalk())
    kiosk.dispatch(Go("planechase"))
    kiosk.redraw()
    assert texts(kiosk, "pc.choice.option")[0] == planes[1]
    assert f"({planes[1]} comes up next)" in " ".join(texts(kiosk, "pc.choice.prompt"))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert texts(kiosk, "status.error")[0].startswith(
        "Waiting for Ann to turn over the top card of Ann's planar deck"
    )
    kiosk.dispatch(Press(Button.SELECT))
    assert [c.name for c in kiosk.state.part(PlanechaseState).face_up] == [planes[1]]


@pytest.mark.parametrize("plain", [False, True])
def test_pc1_the_tables_own_die_is_entered_with_the_buttons(
    make_kiosk: MakeKiosk, plain: bool
) -> None:
    """PC-1: with the table's own die, ROLL asks for the face on the Planechase screen; the
    encoder picks it and ROLL (or SELECT) enters it, with the cost and the log as for a roll of
    the gadget's; a plain d6 offers its six numbers."""
    kiosk = make_kiosk((800, 480), "en")
    options = {"own_die": "on", "plain_d6": "on" if plain else "off"}
    kiosk.execute(
        NewGame(formats=("ffa", "planechase"), players=("Ann", "Bob"), first="Ann", options=options)
    )
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.redraw()
    assert kiosk.ui.screen == "planechase"
    expected = (
        ["1 · Chaos", "2", "3", "4", "5", "6 · Planeswalk"]
        if plain
        else ["Planeswalk", "Chaos", "Blank"]
    )
    shown = texts(kiosk, "pc.choice.option")
    assert (
        shown == expected[: len(shown)] and len(shown) >= 3
    )  # a longer list scrolls with the cursor
    assert texts(kiosk, "pc.choice.prompt")[0].startswith("Ann rolls the table's")
    kiosk.dispatch(Turn(1 if not plain else 0))
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.redraw()
    roll = kiosk.state.part(PlanechaseState).rolls[-1]
    assert (roll.result.value, roll.cost) == ("chaos", 0)
    assert texts(kiosk, "pc.die.face") == ["Chaos"]
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.dispatch(Press(Button.SELECT))
    roll = kiosk.state.part(PlanechaseState).rolls[-1]
    assert (roll.pip, roll.cost) == ((6, 1) if not plain else (1, 1))


def test_lf1_a_partners_damage_is_chosen_by_name_not_console_syntax(make_kiosk: MakeKiosk) -> None:
    """LF-1 on the kiosk: with partners, the adjust screen's sources name each commander with its
    owner ("Tymna (Bob)"), not the console's "Bob/Tymna"."""
    from device.commands import NameCommanders

    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(NewGame(formats=("commander",), players=("Ann", "Bob"), first="Ann"))
    kiosk.execute(NameCommanders(seat=1, commanders=("Tymna the Weaver", "Kraum, Ludevic's Opus")))
    kiosk.dispatch(Go("adjust"))
    kiosk.dispatch(Turn(-3))
    kiosk.ui.put(replace(kiosk.ui.state_of(AdjustForm), counter="commander"))
    kiosk.redraw()
    labels = [d.text for d in drawn(kiosk, "adjust.from")]
    assert "Tymna the Weaver (Bob)" in labels and "Kraum, Ludevic's Opus (Bob)" in labels
    assert not any("/" in label for label in labels)
