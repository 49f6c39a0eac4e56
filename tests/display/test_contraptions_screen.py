"""The Contraptions screen (CT-6, CT-7): what it shows, checked from the drawing layer's record
of texts, and games played through the kiosk with keys, touches and cards tapped on the reader.
The screenshots of its scenes are in test_screenshots.py (scenes ``ct_*``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pygame
import pytest

from device.commands import NewGame
from device.inputs import Button
from device.rules.contraptions.queries import controlled, on_sprocket
from device.state import GameState, Step
from device.rules.contraptions.state import Stage
from device.rules.contraptions.state import ContraptionsState
from display.fonts import Fonts
from display.i18n import Translator, table
from display.kiosk import Kiosk
from display.screens.contraptions import OptionScroll, PickOption, SprocketTap
from display.screens.setup import SetupForm, rows
from display.targets import OffscreenTarget, ScreenshotTarget
from display.ui import Go, Press, Turn
from hands import Hands, center
from scenes import LANGUAGES, SCENES, SIZES, drawn, shown, texts
from scenes_contraptions import CT_CARD, CT_PLAYERS, CT_TAG

MakeKiosk = Callable[..., Kiosk]


def game(kiosk: Kiosk) -> GameState:
    state = kiosk.state
    assert state is not None and state.contraptions is not None
    return state


def on(state: GameState, board: int | None, sprocket: int) -> list[str]:
    assert state.contraptions is not None
    return [a.card for a in on_sprocket(state.contraptions, board, sprocket)]


def inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def sprocket_rect(kiosk: Kiosk, sprocket: int) -> tuple[int, int, int, int]:
    return next(t.rect for t in kiosk.canvas.targets if t.action == SprocketTap(sprocket))


# --- what it shows -----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_ct7_the_upkeep_shows_the_crank_move_and_what_cranks(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """CT-7: at Alice's upkeep the screen comes up by itself with the counter's move 3 → 1, the
    counter drawn on sprocket 1, and the contraptions on sprocket 1 to crank (in every layout)."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES["ct_crank"](kiosk)
    tr = Translator(language)
    state = game(kiosk)
    assert kiosk.ui.screen == "contraptions"
    first, second = on(state, 0, 1)
    for size in SIZES:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        assert texts(kiosk, "ct.move") == [tr("ui.ct.move", start=3, end=1)]
        move = drawn(kiosk, "ct.move")[0]
        assert move.size >= kiosk.canvas.layout.small  # readable across the table
        assert texts(kiosk, "ct.title") == [tr("ui.ct.board_of", name="Alice")]
        assert texts(kiosk, "ct.sprocket1.card") == [first, f"1. {second}"]
        assert texts(kiosk, "ct.sprocket2.card") == on(state, 0, 2)
        assert texts(kiosk, "ct.sprocket3.empty") == [tr("ui.ct.empty")]
        counter = drawn(kiosk, "ct.counter_at")
        assert len(counter) == 1 and inside(counter[0].rect, sprocket_rect(kiosk, 1))
        assert texts(kiosk, "ct.option") == [first, f"1. {second}", tr("ui.ct.crank_go", count=1)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_ct7_the_upkeep_banner_lists_the_move_and_the_crank(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """CT-7 on the table's upkeep banner: the counter's move and the sprocket to crank with the
    names on it."""
    kiosk = shown(make_kiosk, "ct_crank", language=language)
    kiosk.dispatch(Go("table"))
    kiosk.redraw()
    tr = Translator(language)
    cards = ", ".join(on(game(kiosk), 0, 1))
    items = texts(kiosk, "banner.item")
    assert "• " + tr("ui.ct.item.moved", start=3, end=1) in items
    assert "• " + tr("ui.ct.item.crank", sprocket=1, cards=cards) in items


def test_ct7_a_stopped_machine_says_so_on_the_banner(make_kiosk: MakeKiosk) -> None:
    """CT-4: with no assembled contraption the counter stays, and the banner says why."""
    kiosk = make_kiosk((800, 480), "pl")
    kiosk.execute(NewGame(formats=("commander", "contraptions"), players=CT_PLAYERS, first="Alice"))
    kiosk.redraw()
    assert kiosk.ui.screen == "table"
    assert "• Maszyna stoi: brak zmontowanych ustrojstw" in texts(kiosk, "banner.item")


def test_cta_the_die_and_the_faction_libraries(make_kiosk: MakeKiosk) -> None:
    """CT-A2: the faction dice (5 and 6: any library) and the five libraries to choose from, with
    how many cards each still has; the rules' message is in the table's language."""
    kiosk = shown(make_kiosk, "ct_faction", language="ru")
    assert kiosk.ui.screen == "contraptions"
    assert texts(kiosk, "ct.die") == ["Кубик: 5 · 6"]
    chips = texts(kiosk, "ct.option")
    assert chips[:2] == ["1. Order of the Widget (9)", "2. Agents of S.N.E.A.K. (9)"]
    assert kiosk.ui.messages[0].startswith(
        "Alice бросает 2 кубика фракций: 5, 6; источник сборки — "
    )
    kiosk.ui.said = []  # read: the status line gives back the row its second line took
    kiosk.redraw()
    assert texts(kiosk, "ct.die.meaning") == ["собрать из библиотеки 1, 2, 3, 4, 5"]
    kiosk.retarget(OffscreenTarget((1280, 720)))
    kiosk.redraw()
    assert texts(kiosk, "ct.option") == [
        "1. Order of the Widget (9)",
        "2. Agents of S.N.E.A.K. (9)",
        "3. League of Dastardly Doom (9)",
        "4. Goblin Explosioneers (9)",
        "5. Crossbreed Labs (9)",
        "Не собирать",
    ]


def test_cta_choosing_a_library_then_a_sprocket_by_touch(make_kiosk: MakeKiosk) -> None:
    """CT-A2, CT-A4: a touch on library 3 reveals its top card, a touch on sprocket 1 assembles
    it there, and the counter then moves 3 → 1 so it cranks in the same upkeep."""
    kiosk = shown(make_kiosk, "ct_faction")
    top = game(kiosk).part(ContraptionsState).libraries[2].cards[0]
    kiosk.touch(center(kiosk, PickOption(2)))
    kiosk.redraw()
    assert texts(kiosk, "ct.card") == [top]
    assert texts(kiosk, "ct.highlight") == [f"→ {top}"]
    kiosk.touch(center(kiosk, SprocketTap(1)))
    kiosk.redraw()
    state = game(kiosk)
    assert on(state, 0, 1) == [top]
    assert texts(kiosk, "ct.move") == ["CRANK! 3 → 1"]
    assert texts(kiosk, "ct.option") == [top, "Crank nothing"]
    assert kiosk.ui.messages == [
        f"Alice assembles {top} onto Alice's sprocket 1.",
        f"Alice's CRANK! counter moves 3 → 1: Alice may crank any of {top} on sprocket 1.",
    ]


def test_ctb_shared_sprockets_and_the_die_that_cranks(make_kiosk: MakeKiosk) -> None:
    """CT-B1, CT-B2: one set of sprockets for the table; the die's face names the sprocket."""
    kiosk = shown(make_kiosk, "ct_shared")
    state = game(kiosk)
    up = state.part(ContraptionsState).upkeep
    assert up is not None and up.stage is Stage.CRANK and up.sprocket is not None
    assert texts(kiosk, "ct.title") == ["Shared sprockets"]
    assert texts(kiosk, "ct.counter") == ["No counter: the die cranks"]
    assert texts(kiosk, "ct.die") == [f"Die: {up.sprocket}"]
    assert texts(kiosk, "ct.die.meaning") == [f"crank sprocket {up.sprocket}"]
    for sprocket in (1, 2, 3):
        names = on(state, None, sprocket)
        # One name a line; what does not fit shares the last line (cut short with "…").
        shown_names = " · ".join(texts(kiosk, f"ct.sprocket{sprocket}.card"))
        assert " · ".join(names).startswith(shown_names.removesuffix("…"))
        assert shown_names.split(" · ")[0] == (names[0] if names else "")
    assert texts(kiosk, "ct.task") == [
        f"{state.player(up.seat).name}: crank sprocket {up.sprocket}"
    ]


def test_ct6_a_tapped_card_waits_on_the_highlighted_sprocket(make_kiosk: MakeKiosk) -> None:
    """CT-6, CT-C2: after a paid roll the tapped card waits; the encoder moved the highlight to
    sprocket 2, which is drawn, and SELECT puts it there."""
    kiosk = shown(make_kiosk, "ct_place")
    assert texts(kiosk, "ct.card") == [CT_CARD]
    highlight = drawn(kiosk, "ct.highlight")
    assert [d.text for d in highlight] == [f"→ {CT_CARD}"]
    assert inside(highlight[0].rect, sprocket_rect(kiosk, 2))
    kiosk.dispatch(Press(Button.SELECT, long=True))  # held: on to sprocket 3, not the set-up screen
    assert kiosk.ui.screen == "contraptions"
    kiosk.dispatch(Turn(-1))
    kiosk.dispatch(Press(Button.SELECT))
    kiosk.redraw()
    assert on(game(kiosk), None, 2) == [CT_CARD]
    assert kiosk.ui.messages == [f"Alice assembles {CT_CARD} onto the shared sprocket 2."]
    assert texts(kiosk, "ct.sprocket2.card") == [CT_CARD]


def test_ct6_a_waiting_card_can_be_declined_by_touch(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "ct_place", language="ja")
    kiosk.touch(center(kiosk, PickOption(0)))
    kiosk.redraw()
    assert game(kiosk).part(ContraptionsState).assembly is None
    assert kiosk.ui.messages == ["Aliceは何も組み立てません。"]


def test_ct4_the_crank_order_is_put_together_with_the_encoder(make_kiosk: MakeKiosk) -> None:
    """CT-4: any number of contraptions, in the order chosen: SELECT adds (again: removes), the
    last chip cranks them; the rules record that order."""
    kiosk = shown(make_kiosk, "ct_crank")
    first, second = on(game(kiosk), 0, 1)
    kiosk.dispatch(Turn(-1))
    kiosk.dispatch(Press(Button.SELECT))  # first: now 2nd in the order
    kiosk.dispatch(Press(Button.SELECT))  # … taken out again
    kiosk.dispatch(Press(Button.SELECT))  # … and back in
    kiosk.redraw()
    assert texts(kiosk, "ct.option") == [f"2. {first}", f"1. {second}", "Crank them (2)"]
    kiosk.dispatch(Turn(2))
    kiosk.dispatch(Press(Button.SELECT))
    kiosk.redraw()
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and up.cranked == (second, first)
    assert texts(kiosk, "status.messages") == [
        f"Alice cranks {second}, {first} (sprocket 1); their abilities trigger in that order."
    ]
    assert texts(kiosk, "ct.cranked") == [f"Cranked: {second}, {first}"]
    assert texts(kiosk, "ct.sprocket1.card") == [f"✓ {first}", f"✓ {second}"]


def test_ct4_cranking_nothing_by_touch(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "ct_crank")
    kiosk.touch(center(kiosk, PickOption(1)))  # the second contraption out of the order
    kiosk.redraw()
    assert texts(kiosk, "ct.option")[-1] == "Crank nothing"
    kiosk.touch(center(kiosk, PickOption(2)))
    kiosk.redraw()
    assert texts(kiosk, "status.messages") == ["Alice cranks nothing on sprocket 1."]


def test_the_screen_is_offered_only_in_games_with_contraptions(make_kiosk: MakeKiosk) -> None:
    without = shown(make_kiosk, "table")
    assert "GEARS" not in texts(without, "bar.contraptions")
    without.dispatch(Go("contraptions"))
    assert without.ui.screen == "table"
    kiosk = shown(make_kiosk, "ct_crank")
    kiosk.dispatch(Go("table"))
    kiosk.redraw()
    assert texts(kiosk, "bar.contraptions") == ["GEARS"]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=0, unicode="c"))
    kiosk.settle()
    assert kiosk.ui.screen == "contraptions"


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_contraptions_text_is_translated(language: str) -> None:
    """The rules' messages and the screen's texts exist in every language (the fields are
    checked for every key in test_text.py)."""
    from device.text import every_text

    keys = [k for k in every_text() if k.startswith("ct.")] + [
        k for k in table("en") if k.startswith("ui.ct.")
    ]
    assert [k for k in keys if k not in table(language)] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_bundled_fonts_draw_the_contraptions_texts(language: str, fonts: Fonts) -> None:
    bundled = Fonts(system=False)
    for key, text in table(language).items():
        if key.startswith(("ct.", "ui.ct.", "ui.btn.contraptions")):
            bundled.runs(text)
    assert bundled.missing == set()


# --- games played through the kiosk ------------------------------------------------------------


class Table(Hands):
    """Presses keys, touches the screen and taps cards the way the players would."""

    def set_up(self, options: dict[str, str]) -> None:
        """F2, Contraptions on, three named players, Alice first, the table options: keys only."""
        self.keys(pygame.K_F2)
        self.goto(("module", "contraptions"))
        self.keys(pygame.K_UP)
        self.goto(("count", ""))
        while self.form.count > 3:
            self.keys(pygame.K_DOWN)
        for seat, name in enumerate(CT_PLAYERS):
            self.goto(("name", str(seat)))
            self.keys(*[pygame.K_BACKSPACE] * 10, text=name)
        self.goto(("first", ""))
        self.keys(pygame.K_UP)
        for option, value in options.items():
            self.goto(("option", option))
            for _ in range(4):
                if str(self.form.options.get(option, "")) == value:
                    break
                self.keys(pygame.K_UP)
            assert str(self.form.options.get(option)) == value
        self.goto(("start", ""))
        self.keys(pygame.K_RETURN)

    @property
    def form(self) -> SetupForm:
        """The set-up form as it is now."""
        return self.kiosk.ui.state_of(SetupForm)

    def goto(self, row: tuple[str, str]) -> None:
        wanted = rows(self.form).index(row)
        while self.form.row != wanted:
            self.keys(pygame.K_RIGHT if self.form.row < wanted else pygame.K_LEFT)


def test_a_base_game_with_physical_contraptions(make_kiosk: MakeKiosk, tmp_path: Path) -> None:
    """Three players, base rules, real cards tapped on the reader (CT-3, CT-4, CT-5, CT-6, CT-7),
    set up and played with the documented keys, touches and taps only."""
    kiosk = make_kiosk((800, 480), "en", screenshots=tmp_path / "shots")
    tags = kiosk.controller.tags
    assert tags is not None
    tags.add(CT_TAG, CT_CARD)
    tags.add("04D15BA7", "Dispatch Dispensary")
    t = Table(kiosk)
    t.set_up({"contraption_cards": "physical"})
    state = game(kiosk)
    assert [p.name for p in state.players] == list(CT_PLAYERS) and state.active == 0
    assert state.contraptions is not None and state.contraptions.physical
    assert "• Machine stopped: no assembled contraption" in t.says("banner.item")

    # Alice's main phase: a card tells her to assemble; she taps the card she revealed.
    t.keys(pygame.K_RETURN)
    t.tap_card(CT_TAG)
    assert kiosk.ui.screen == "contraptions"
    assert t.says("ct.card") == [CT_CARD]
    # The tap's result is the status at once, not the card's name.
    assert t.says("status.messages") == [
        f"Alice assembles: tap the revealed card from Alice's contraption deck. {CT_CARD} for Alice: "
        "choose its sprocket."
    ]
    assert t.says("status.card") == []
    t.keys(pygame.K_UP)  # the encoder: sprocket 2
    assert t.says("ct.highlight") == [f"→ {CT_CARD}"]
    assert game(kiosk).part(ContraptionsState).assembly.highlight == 2
    t.keys(pygame.K_TAB)  # SELECT puts it there
    assert on(game(kiosk), 0, 2) == [CT_CARD]
    assert kiosk.ui.messages == [f"Alice assembles {CT_CARD} onto Alice's sprocket 2."]

    # Another one, placed with a touch on sprocket 2.
    t.tap_card("04D15BA7")
    t.touch(SprocketTap(2))
    assert on(game(kiosk), 0, 2) == [CT_CARD, "Dispatch Dispensary"]

    # Tapped again, an assembled contraption offers to be scrapped or reassembled (CT-5, CT-6).
    t.tap_card(CT_TAG)
    assert t.says("ct.card") == [CT_CARD] and t.says("ct.task") == ["Alice's, on sprocket 2"]
    assert t.says("ct.option") == [
        "Scrap it",
        "Exile it",
        "Reassemble onto 1",
        "Reassemble onto 3",
        "Back",
    ]
    t.touch(PickOption(2))
    assert on(game(kiosk), 0, 1) == [CT_CARD]
    assert kiosk.ui.messages == [f"{CT_CARD} is reassembled: sprocket 2 → 1."]

    # Юрий's and さくら's turns: their machines are stopped.
    t.touch(Press(Button.NEXT))
    assert kiosk.ui.screen == "table"
    assert t.says("banner.title") == ["Юрий: upkeep"]
    t.keys(pygame.K_RETURN, pygame.K_RETURN, pygame.K_RETURN, pygame.K_RETURN)

    # Alice's upkeep: CRANK! 3 → 1 and the screen comes up with her crank choice (CT-4, CT-7).
    state = game(kiosk)
    assert state.active == 0 and state.step is Step.UPKEEP and state.turn == 4
    assert kiosk.ui.screen == "contraptions"
    assert t.says("ct.move") == ["CRANK! 3 → 1"]
    assert t.says("ct.sprocket1.card") == [CT_CARD]
    t.keys(pygame.K_TAB)  # into the order
    t.keys(pygame.K_DOWN)  # back one chip, round to the last: the one that cranks
    assert t.says("ct.option") == [f"1. {CT_CARD}", "Crank them (1)"]
    t.keys(pygame.K_TAB)
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and up.cranked == (CT_CARD,)
    assert kiosk.ui.messages == [
        f"Alice cranks {CT_CARD} (sprocket 1); their abilities trigger in that order."
    ]

    # UNDO takes the crank back; the choice is open again.
    t.keys(pygame.K_u)
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and up.stage is Stage.CRANK and up.cranked == ()
    assert t.says("ct.option") == [CT_CARD, "Crank nothing"]
    assert isinstance(kiosk.target, ScreenshotTarget) and len(kiosk.target.files) >= 20


def test_a_faction_dice_game_with_touches(make_kiosk: MakeKiosk, tmp_path: Path) -> None:
    """Three players, variant A with virtual libraries (CT-A1..CT-A4): the die by touch, a
    library and a sprocket by touch, the counter moving after the assembly, in Russian."""
    kiosk = make_kiosk((480, 320), "ru", screenshots=tmp_path / "shots")
    t = Table(kiosk)
    t.set_up({"contraptions": "a"})
    state = game(kiosk)
    assert state.contraptions is not None and state.contraptions.variant.value == "a"
    assert "• Бросьте кубик штуковин" in t.says("banner.item")

    # The game starts on the table; the bar's button opens the screen, with a ROLL chip (CT-A2).
    assert kiosk.ui.screen == "table"
    t.touch(Go("contraptions"))
    assert kiosk.ui.screen == "contraptions"
    assert t.says("ct.option") == ["КУБИК штуковин"]
    t.touch(PickOption(0))
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and len(up.faces) == 1
    face = up.faces[0]
    assert t.says("ct.die") == [f"Кубик: {face}"]
    job = game(kiosk).part(ContraptionsState).assembly
    assert job is not None
    if face == 6:  # any library: touch the third
        t.touch(PickOption(2))
    job = game(kiosk).part(ContraptionsState).assembly
    assert job is not None and job.card is not None
    card = job.card
    assert t.says("ct.card") == [card]
    t.touch(SprocketTap(1))
    state = game(kiosk)
    assert on(state, 0, 1) == [card]
    # CT-A4: the counter moved after the assembly, so the new contraption cranks at once.
    assert t.says("ct.move") == ["CRANK! 3 → 1"]
    t.touch(PickOption(0))
    t.touch(PickOption(1))
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and up.cranked == (card,)
    assert kiosk.ui.messages == [
        f"Alice заводит {card} (шестерёнка 1); способности срабатывают в этом порядке."
    ]

    # Юрий's upkeep: the turn passes by touch and his die is due at once.
    t.touch(Press(Button.NEXT))
    t.touch(Press(Button.NEXT))
    state = game(kiosk)
    assert state.active == 1 and state.step is Step.UPKEEP
    assert kiosk.ui.screen == "contraptions"
    assert t.says("ct.title") == ["Шестерёнки: Юрий"]
    t.keys(pygame.K_SPACE)  # the ROLL key does the same as the chip
    assert game(kiosk).part(ContraptionsState).upkeep.faces


def test_ctc_a_paid_roll_and_the_looked_at_cards(make_kiosk: MakeKiosk) -> None:
    """CT-C2: ROLL in the main phase pays for an assembly roll; the screen shows the cards looked
    at; SELECT picks the one to assemble, then one to put back on top, then its sprocket."""
    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(
        NewGame(
            formats=("commander", "contraptions"),
            players=CT_PLAYERS,
            first="Alice",
            options={"contraptions": "c"},
        )
    )
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert kiosk.ui.screen == "table"  # nothing assembled yet: the counter did not move
    kiosk.dispatch(Go("contraptions"))
    kiosk.redraw()
    assert texts(kiosk, "ct.task") == ["Assembly roll: {2}"]
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.redraw()
    job = game(kiosk).part(ContraptionsState).assembly
    assert job is not None and job.looking
    looking = list(job.looking)
    assert texts(kiosk, "ct.task") == [f"Alice: Assemble one of the top {len(looking)}"]
    assert texts(kiosk, "ct.option") == looking
    assert len(looking) >= 2  # the seeded die
    kiosk.dispatch(Press(Button.SELECT))  # the first: to assemble
    kiosk.dispatch(Turn(1))
    kiosk.dispatch(Press(Button.SELECT))  # the second: back on top
    kiosk.redraw()
    assert texts(kiosk, "ct.option")[:2] == [f"▶ {looking[0]}", f"top 1: {looking[1]}"]
    assert texts(kiosk, "ct.option")[-3:] == [
        "Onto sprocket 1",
        "Onto sprocket 2",
        "Onto sprocket 3",
    ]
    kiosk.touch(center(kiosk, PickOption(len(looking) + 2)))
    kiosk.redraw()
    state = game(kiosk)
    assert on(state, None, 3) == [looking[0]]
    assert state.contraptions is not None and state.contraptions.libraries[0].cards[0] == looking[1]
    rest = tuple(looking[2:])
    assert (
        state.contraptions.libraries[0].cards[
            len(state.contraptions.libraries[0].cards) - len(rest) :
        ]
        == rest
    )
    assert texts(kiosk, "ct.task") == ["Assembly roll: {3}"]


class Loaded(random.Random):
    """The kiosk's rng with the die faces the test wants first (shuffles stay seeded)."""

    def __init__(self, faces: Sequence[int], seed: int = 7) -> None:
        super().__init__(seed)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else super().randint(a, b)


def loaded(
    make_kiosk: MakeKiosk, faces: Sequence[int], size: tuple[int, int] = (800, 480)
) -> Kiosk:
    kiosk = make_kiosk(size, "en")
    kiosk.controller.rng = Loaded(faces)
    return kiosk


def test_ctb_a_three_player_shared_deck_game(make_kiosk: MakeKiosk) -> None:
    """CT-B1..CT-B3 through the kiosk's keys and touches: the upkeep die of every player (5:
    assemble two onto the shared sprockets, 2 and 1: crank that sprocket, 3: an empty sprocket),
    control only of the cranked sprocket, and UNDO of a placement and of a crank."""
    kiosk = loaded(make_kiosk, [5, 2, 3, 1])
    t = Table(kiosk)
    t.set_up({"contraptions": "b"})
    state = game(kiosk)
    ct = state.contraptions
    assert ct is not None and ct.variant.value == "b" and ct.counters == ()
    assert len(ct.libraries) == 1 and len(ct.libraries[0].cards) == 45  # CT-B1: one shared deck
    deck = ct.libraries[0].cards
    assert ct.upkeep is not None and ct.upkeep.stage is Stage.ROLL and ct.upkeep.seat == 0
    assert "• Roll the contraption die" in t.says("banner.item")

    # Alice's upkeep: ROLL shows 5, assemble two (CT-B2); the top card waits for its sprocket.
    t.touch(Go("contraptions"))
    assert t.says("ct.title") == ["Shared sprockets"]
    assert t.says("ct.counter") == ["No counter: the die cranks"]
    assert t.says("ct.option") == ["ROLL the contraption die"]
    t.keys(pygame.K_SPACE)
    assert kiosk.ui.messages[0] == "Alice rolls 5: assemble 2."
    assert t.says("ct.die") == ["Die: 5"] and t.says("ct.die.meaning") == ["assemble 2"]
    job = game(kiosk).part(ContraptionsState).assembly
    assert job is not None and job.remaining == 2 and job.board is None and job.card == deck[0]
    assert t.says("ct.card") == [deck[0]]
    waiting = game(kiosk)
    t.keys(pygame.K_TAB)  # onto the highlighted sprocket 1; the next card is revealed at once
    assert on(game(kiosk), None, 1) == [deck[0]]
    assert game(kiosk).part(ContraptionsState).assembly.card == deck[1]
    assert kiosk.ui.messages == [
        f"Alice assembles {deck[0]} onto the shared sprocket 1.",
        f"Alice reveals {deck[1]} from the shared contraption deck: choose its sprocket.",
    ]
    t.keys(pygame.K_u)  # UNDO: the first card waits again, nothing is assembled
    assert game(kiosk) == waiting
    assert t.says("ct.card") == [deck[0]] and t.says("ct.highlight") == [f"→ {deck[0]}"]
    assert t.says("ct.sprocket1.card") == []
    t.touch(SprocketTap(1))
    t.keys(pygame.K_UP)  # the encoder: sprocket 2 for the second card
    assert t.says("ct.highlight") == [f"→ {deck[1]}"]
    t.keys(pygame.K_TAB)
    state = game(kiosk)
    assert on(state, None, 1) == [deck[0]] and on(state, None, 2) == [deck[1]]
    assert state.contraptions is not None and state.contraptions.assembly is None
    assert state.contraptions.libraries[0].cards == deck[2:]
    assert state.contraptions.upkeep is not None and state.contraptions.upkeep.stage is Stage.DONE
    assert [a.owner for a in state.contraptions.assembled] == [0, 0]  # whoever assembles owns them
    assert controlled(state, 0) == ()  # CT-B3: no crank this turn, no control
    assert t.says("ct.sprocket1.card") == [deck[0]] and t.says("ct.sprocket2.card") == [deck[1]]

    # Юрий's upkeep: 2 cranks the shared sprocket 2, and only he controls what is on it.
    t.keys(pygame.K_RETURN, pygame.K_RETURN)
    state = game(kiosk)
    assert state.active == 1 and state.step is Step.UPKEEP and state.turn == 2
    assert kiosk.ui.screen == "contraptions"
    assert t.says("ct.option") == ["ROLL the contraption die"]
    t.keys(pygame.K_SPACE)
    assert kiosk.ui.messages == [
        f"Юрий rolls 2: crank sprocket 2. Юрий may crank any of {deck[1]} on sprocket 2."
    ]
    state = game(kiosk)
    assert [a.card for a in controlled(state, 1)] == [deck[1]]
    assert controlled(state, 0) == () and controlled(state, 2) == ()
    assert t.says("ct.die") == ["Die: 2"] and t.says("ct.die.meaning") == ["crank sprocket 2"]
    assert t.says("ct.task") == ["Юрий: crank sprocket 2"]
    assert t.says("ct.option") == [deck[1], "Crank nothing"]
    before = game(kiosk)
    t.keys(pygame.K_TAB, pygame.K_UP, pygame.K_TAB)
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and up.cranked == (deck[1],) and up.stage is Stage.DONE
    assert kiosk.ui.messages == [
        f"Юрий cranks {deck[1]} (sprocket 2); their abilities trigger in that order."
    ]
    assert t.says("ct.cranked") == [f"Cranked: {deck[1]}"]
    t.keys(pygame.K_u)  # UNDO: the crank choice is open again, exactly as it was
    assert game(kiosk) == before
    assert t.says("ct.option") == [deck[1], "Crank nothing"]
    t.keys(pygame.K_y)  # REDO
    assert game(kiosk).part(ContraptionsState).upkeep.cranked == (deck[1],)

    # さくら's upkeep: 3 names an empty sprocket; she controls nothing.
    t.keys(pygame.K_RETURN, pygame.K_RETURN)
    state = game(kiosk)
    assert state.active == 2 and state.turn == 3
    assert kiosk.ui.screen == "contraptions"  # the die is due: the screen came up by itself
    t.touch(PickOption(0))  # the ROLL chip
    state = game(kiosk)
    assert kiosk.ui.messages == [
        "さくら rolls 3: crank sprocket 3. Sprocket 3 is empty, nothing cranks."
    ]
    assert state.contraptions is not None and state.contraptions.upkeep is not None
    assert state.contraptions.upkeep.stage is Stage.DONE and state.contraptions.upkeep.sprocket == 3
    assert (
        controlled(state, 2) == () and controlled(state, 1) == ()
    )  # Юрий's control ended with his turn
    assert t.says("ct.cranked") == ["Nothing cranked this upkeep"]

    # Alice's second upkeep: 1 cranks sprocket 1; she cranks nothing, by touch.
    t.keys(pygame.K_RETURN, pygame.K_RETURN)
    state = game(kiosk)
    assert state.active == 0 and state.turn == 4 and state.step is Step.UPKEEP
    t.keys(pygame.K_r)
    assert [a.card for a in controlled(game(kiosk), 0)] == [deck[0]]
    assert t.says("ct.option") == [deck[0], "Crank nothing"]
    t.touch(PickOption(1))
    assert kiosk.ui.messages == ["Alice cranks nothing on sprocket 1."]
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and up.stage is Stage.DONE and up.cranked == ()


def test_ctc_a_three_player_planar_style_game(make_kiosk: MakeKiosk) -> None:
    """CT-C1, CT-C2 through the kiosk's keys and touches: Alice pays {2} then {3} for assembly
    rolls (3: look at three, keep one, one back on top, one to the bottom; 1: look at one), the
    shared counter then moves in every player's upkeep (3 → 1 → 2 → 3) because a sprocket holds
    a contraption, the active player controls and cranks the current sprocket, and UNDO / REDO
    of an assembly restore the state exactly."""
    kiosk = loaded(make_kiosk, [3, 1])
    t = Table(kiosk)
    t.set_up({"contraptions": "c"})
    state = game(kiosk)
    ct = state.contraptions
    assert ct is not None and ct.variant.value == "c" and ct.counters == (3,)
    deck = ct.libraries[0].cards
    assert len(ct.libraries) == 1 and len(deck) == 45
    assert ct.upkeep is None  # nothing assembled anywhere: the counter did not move

    # Alice's main phase: the paid roll costs {2}; ROLL shows 3, the top three are looked at.
    t.keys(pygame.K_RETURN)
    assert game(kiosk).step is Step.MAIN
    t.touch(Go("contraptions"))
    assert t.says("ct.counter") == ["CRANK! on 3"]
    assert t.says("ct.task") == ["Assembly roll: {2}"]
    assert t.says("ct.option") == ["ROLL: assembly roll ({2})", "A card says: assemble"]
    t.keys(pygame.K_SPACE)
    looked = list(deck[:3])
    assert kiosk.ui.messages == [
        f"Alice pays {{2}} for assembly roll 1 this turn and rolls 3: look at the top 3: {', '.join(looked)}."
    ]
    assert t.says("ct.task") == ["Alice: Assemble one of the top 3"]
    assert t.says("ct.option") == looked
    t.keys(
        pygame.K_TAB, pygame.K_UP, pygame.K_UP, pygame.K_TAB
    )  # keep the first, the third back on top
    assert t.says("ct.option") == [
        f"▶ {looked[0]}",
        looked[1],
        f"top 1: {looked[2]}",
        "Onto sprocket 1",
        "Onto sprocket 2",
        "Onto sprocket 3",
    ]
    t.touch(PickOption(3))
    state = game(kiosk)
    assert state.contraptions is not None
    assert on(state, None, 1) == [looked[0]] and state.contraptions.assembled[0].owner == 0
    assert state.contraptions.libraries[0].cards == (looked[2], *deck[3:], looked[1])
    assert kiosk.ui.messages == [
        f"Alice assembles {looked[0]} onto the shared sprocket 1.",
        f"{looked[2]} back on top of the shared deck, {looked[1]} at the bottom.",
    ]
    assert t.says("ct.sprocket1.card") == [looked[0]]
    assert t.says("ct.task") == ["Assembly roll: {3}"]  # each further roll in the turn: {1} more

    # The second roll shows 1: only the new top card, onto sprocket 2 by touch.
    t.touch(PickOption(0))
    assert kiosk.ui.messages == [
        f"Alice pays {{3}} for assembly roll 2 this turn and rolls 1: look at the top card: {looked[2]}."
    ]
    assert t.says("ct.option") == [looked[2]]
    t.keys(pygame.K_TAB)
    before = game(kiosk)
    t.touch(PickOption(2))
    after = game(kiosk)
    assert on(after, None, 2) == [looked[2]]
    assert after.contraptions is not None and after.contraptions.libraries[0].cards == (
        *deck[3:],
        looked[1],
    )
    assert kiosk.ui.messages == [f"Alice assembles {looked[2]} onto the shared sprocket 2."]
    assert t.says("ct.task") == ["Assembly roll: {4}"]
    t.keys(pygame.K_u)  # UNDO: the looked-at card is offered again, nothing else changed
    assert game(kiosk) == before
    assert on(game(kiosk), None, 2) == [] and t.says("ct.sprocket2.empty") == ["empty"]
    t.keys(pygame.K_y)  # REDO
    assert game(kiosk) == after
    assert controlled(after, 0) == ()  # the counter is on the empty sprocket 3

    # Юрий's upkeep: the shared counter moves 3 → 1 (a sprocket holds one, whoever assembled it).
    t.keys(pygame.K_RETURN)
    state = game(kiosk)
    assert state.active == 1 and state.step is Step.UPKEEP and state.turn == 2
    assert state.contraptions is not None and state.contraptions.counters == (1,)
    assert kiosk.ui.messages == [
        "Turn 2: Юрий's upkeep.",
        f"The CRANK! counter moves 3 → 1: Юрий may crank any of {looked[0]} on sprocket 1.",
    ]
    assert kiosk.ui.screen == "contraptions"
    assert t.says("ct.move") == ["CRANK! 3 → 1"]
    assert t.says("ct.task") == ["Юрий: crank sprocket 1"]
    assert [a.card for a in controlled(state, 1)] == [looked[0]]  # he controls it, Alice owns it
    assert controlled(state, 0) == () and state.contraptions.assembled[0].owner == 0
    t.keys(pygame.K_TAB, pygame.K_UP, pygame.K_TAB)
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and up.cranked == (looked[0],) and up.seat == 1
    assert kiosk.ui.messages == [
        f"Юрий cranks {looked[0]} (sprocket 1); their abilities trigger in that order."
    ]
    t.keys(pygame.K_RETURN)  # his main phase: the first roll of his turn costs {2} again
    assert game(kiosk).step is Step.MAIN
    assert t.says("ct.task") == ["Assembly roll: {2}"]

    # さくら's upkeep: 1 → 2, and she cranks nothing, by touch.
    t.keys(pygame.K_RETURN)
    state = game(kiosk)
    assert (
        state.active == 2 and state.contraptions is not None and state.contraptions.counters == (2,)
    )
    assert t.says("ct.move") == ["CRANK! 1 → 2"]
    assert t.says("ct.option") == [looked[2], "Crank nothing"]
    assert [a.card for a in controlled(state, 2)] == [looked[2]] and controlled(state, 1) == ()
    t.touch(PickOption(1))
    assert kiosk.ui.messages == ["さくら cranks nothing on sprocket 2."]

    # Alice's upkeep: 2 → 3, an empty sprocket: nothing to crank.
    t.keys(pygame.K_RETURN, pygame.K_RETURN)
    state = game(kiosk)
    assert state.active == 0 and state.turn == 4 and state.step is Step.UPKEEP
    assert state.contraptions is not None and state.contraptions.counters == (3,)
    assert state.contraptions.upkeep is not None and state.contraptions.upkeep.stage is Stage.DONE
    assert kiosk.ui.messages == [
        "Turn 4: Alice's upkeep.",
        "The CRANK! counter moves 2 → 3: sprocket 3 is empty, nothing cranks.",
    ]
    assert t.says("ct.move") == ["CRANK! 2 → 3"]
    assert t.says("ct.sprocket3.empty") == ["empty"]
    assert controlled(state, 0) == ()

    # CT-C3: in her main phase a card tells Alice to assemble: the base rule, no die, no cost —
    # the shared deck's top card onto the sprocket she picks (3, under the counter), by keys.
    t.keys(pygame.K_RETURN)
    assert t.says("ct.option") == [
        "ROLL: assembly roll ({2})",
        "A card says: assemble",
        "A contraption leaves or moves",
    ]
    top = game(kiosk).part(ContraptionsState).libraries[0].cards[0]
    t.keys(pygame.K_UP, pygame.K_TAB)
    assert t.says("ct.task") == ["Who assembles?"]
    assert t.says("ct.option") == ["Alice assembles", "Юрий assembles", "さくら assembles", "Back"]
    t.keys(pygame.K_TAB)
    assert t.says("ct.card") == [top]
    t.keys(pygame.K_UP, pygame.K_UP, pygame.K_TAB)
    state = game(kiosk)
    assert on(state, None, 3) == [top] and state.contraptions is not None
    assert kiosk.ui.messages == [f"Alice assembles {top} onto the shared sprocket 3."]
    assert [a.card for a in controlled(state, 0)] == [top]
    assert t.says("ct.task") == [
        "Assembly roll: {2}"
    ]  # no roll was paid for: the next still costs {2}


def deck_of(state: GameState, seat: int) -> tuple[str, ...]:
    assert state.contraptions is not None
    return next(lib.cards for lib in state.contraptions.libraries if lib.owner == seat)


def test_a_base_game_with_virtual_decks(make_kiosk: MakeKiosk, tmp_path: Path) -> None:
    """Three players, base rules, the gadget's virtual decks, keys and touches only (CT-1..CT-5,
    CT-7): a card says "assemble" (the chip: who, then the sprocket for the revealed top card);
    another player's card assembles on someone else's turn; contraptions reassembled, scrapped
    and exiled from the screen; the counter 3 → 1 over an empty sprocket, a stopped machine, and
    a crank of two in the chosen order; UNDO of a placement and of an exile."""
    kiosk = make_kiosk((800, 480), "en", screenshots=tmp_path / "shots")
    t = Table(kiosk)
    t.set_up({})
    state = game(kiosk)
    ct = state.contraptions
    assert ct is not None and ct.variant.value == "base" and not ct.physical
    decks = {seat: deck_of(state, seat) for seat in range(3)}
    assert all(len(deck) >= 15 and len(set(deck)) == len(deck) for deck in decks.values())  # CT-1
    assert ct.counters == (3, 3, 3)  # CT-2

    # Alice's main phase: a card says "assemble"; SELECT opens the question, SELECT picks her.
    t.keys(pygame.K_RETURN)
    t.touch(Go("contraptions"))
    assert t.says("ct.option") == ["A card says: assemble"]
    assert t.says("ct.counter") == ["CRANK! on 3"]
    t.keys(pygame.K_TAB)
    assert t.says("ct.task") == ["Who assembles?"]
    assert t.says("ct.option") == ["Alice assembles", "Юрий assembles", "さくら assembles", "Back"]
    t.keys(pygame.K_TAB)
    first = decks[0][0]
    assert t.says("ct.card") == [first]  # CT-3: the top card of her deck, revealed
    waiting = game(kiosk)
    t.touch(SprocketTap(1))
    assert on(game(kiosk), 0, 1) == [first]
    assert kiosk.ui.messages == [f"Alice assembles {first} onto Alice's sprocket 1."]
    placed = game(kiosk)
    t.keys(pygame.K_u)  # UNDO: the card waits for its sprocket again
    assert game(kiosk) == waiting and t.says("ct.card") == [first]
    t.keys(pygame.K_y)
    assert game(kiosk) == placed

    # A second one by touch only, onto sprocket 2 with the encoder; "Back" changes nothing.
    t.touch(PickOption(0))
    t.touch(PickOption(3))
    assert game(kiosk) == placed
    assert t.says("ct.option") == ["A card says: assemble", "A contraption leaves or moves"]
    t.touch(PickOption(0))
    t.touch(PickOption(0))
    second = decks[0][1]
    t.keys(pygame.K_UP, pygame.K_TAB)
    assert on(game(kiosk), 0, 2) == [second]

    # Юрий's turn: his machine is stopped; さくら's instant makes her assemble, on his turn.
    t.keys(pygame.K_RETURN, pygame.K_RETURN)
    state = game(kiosk)
    assert state.active == 1 and state.step is Step.MAIN
    t.keys(pygame.K_c)
    assert t.says("ct.title") == ["Юрий's sprockets"]
    t.keys(pygame.K_TAB)
    assert t.says("ct.option") == ["Юрий assembles", "さくら assembles", "Alice assembles", "Back"]
    t.keys(pygame.K_UP, pygame.K_TAB)
    hers = decks[2][0]
    assert t.says("ct.title") == ["さくら's sprockets"]  # her sprockets while she places it
    assert t.says("ct.card") == [hers]
    t.touch(SprocketTap(3))
    assert on(game(kiosk), 2, 3) == [hers]
    assert t.says("ct.title") == ["Юрий's sprockets"]

    # A card tells Alice to reassemble her second contraption onto sprocket 1 (CT-5's neighbour).
    t.touch(PickOption(1))
    assert t.says("ct.task") == ["Which contraption?"]
    assert t.says("ct.option") == [
        f"{hers} (さくら, sprocket 3)",
        f"{first} (Alice, sprocket 1)",
        f"{second} (Alice, sprocket 2)",
        "Back",
    ]
    t.touch(PickOption(2))
    assert t.says("ct.title") == ["Alice's sprockets"]
    assert t.says("ct.card") == [second] and t.says("ct.task") == ["Alice's, on sprocket 2"]
    assert t.says("ct.option") == [
        "Scrap it",
        "Exile it",
        "Reassemble onto 1",
        "Reassemble onto 3",
        "Back",
    ]
    t.touch(PickOption(2))
    assert on(game(kiosk), 0, 1) == [first, second] and on(game(kiosk), 0, 2) == []
    assert kiosk.ui.messages == [f"{second} is reassembled: sprocket 2 → 1."]

    # さくら's upkeep: 3 → 1 onto her empty sprocket; in her main phase her contraption is
    # destroyed: a touch on its sprocket, then "Scrap it" (CT-5: her scrapyard).
    t.keys(pygame.K_RETURN)
    state = game(kiosk)
    assert state.active == 2 and state.step is Step.UPKEEP
    assert state.contraptions is not None and state.contraptions.counters == (3, 3, 1)
    assert kiosk.ui.messages == [
        "Turn 3: さくら's upkeep.",
        "さくら's CRANK! counter moves 3 → 1: sprocket 1 is empty, nothing cranks.",
    ]
    t.keys(pygame.K_RETURN)
    t.keys(pygame.K_c)
    t.touch(SprocketTap(3))
    assert t.says("ct.option") == [f"{hers} (さくら, sprocket 3)", "Back"]
    t.touch(PickOption(0))
    t.touch(PickOption(0))
    state = game(kiosk)
    assert state.contraptions is not None and on(state, 2, 3) == []
    assert [(g.card, g.owner) for g in state.contraptions.scrapyard] == [(hers, 2)]
    assert t.says("ct.scrapyard") == ["Scrapyard: 1"]

    # Alice's upkeep: 3 → 1, and she cranks her two, the second first (CT-4, CT-7).
    t.keys(pygame.K_RETURN)
    state = game(kiosk)
    assert state.active == 0 and state.turn == 4 and state.step is Step.UPKEEP
    assert kiosk.ui.screen == "contraptions"
    assert t.says("ct.move") == ["CRANK! 3 → 1"]
    assert t.says("ct.option") == [first, second, "Crank nothing"]
    t.keys(pygame.K_UP, pygame.K_TAB, pygame.K_DOWN, pygame.K_TAB, pygame.K_DOWN, pygame.K_TAB)
    up = game(kiosk).part(ContraptionsState).upkeep
    assert up is not None and up.cranked == (second, first)

    # Her main phase: the first is exiled (not the scrapyard, CT-5); UNDO brings it back.
    t.keys(pygame.K_RETURN)
    t.touch(SprocketTap(1))
    assert t.says("ct.option") == [
        f"{first} (Alice, sprocket 1)",
        f"{second} (Alice, sprocket 1)",
        "Back",
    ]
    t.touch(PickOption(0))
    before = game(kiosk)
    t.touch(PickOption(1))
    state = game(kiosk)
    assert state.contraptions is not None and on(state, 0, 1) == [second]
    assert [(g.card, g.owner) for g in state.contraptions.exile] == [(first, 0)]
    assert kiosk.ui.messages == [f"{first} is exiled."]
    t.keys(pygame.K_u)
    assert game(kiosk) == before
    assert isinstance(kiosk.target, ScreenshotTarget) and len(kiosk.target.files) >= 20


def test_cta_a_card_says_assemble_from_a_chosen_faction_library(make_kiosk: MakeKiosk) -> None:
    """CT-A1, CT-3: in variant A a card's "assemble" needs no die but a library: on a small Polish
    screen, by touch only, Юрий (not the active player) assembles the top of library 3 onto his
    sprocket 2; his faction library loses its top card and the card is his (CT-A1)."""
    kiosk = make_kiosk((320, 240), "pl")
    t = Table(kiosk)
    t.set_up({"contraptions": "a"})
    t.touch(Go("contraptions"))
    t.touch(PickOption(0))  # Alice's upkeep die
    while game(kiosk).part(ContraptionsState).assembly is not None:
        t.touch(PickOption(len(t.says("ct.option")) - 1))  # "Nie montuj", whatever it showed
    t.touch(Press(Button.NEXT))  # her main phase
    state = game(kiosk)
    assert state.step is Step.MAIN and state.contraptions is not None
    library = state.contraptions.libraries[2]
    top = library.cards[0]
    assert t.says("ct.option") == ["Karta każe: zmontuj"] + (
        ["Ustrojstwo odchodzi lub się przenosi"] if state.contraptions.assembled else []
    )
    t.touch(PickOption(0))
    assert t.says("ct.task") == ["Kto montuje?"]
    assert t.says("ct.option") == ["Montuje: Alice", "Montuje: Юрий", "Montuje: さくら", "Wróć"]
    t.touch(PickOption(1))
    assert t.says("ct.task") == ["Юрий: zmontuj z:"]
    # Six chips (five libraries, "Wróć") do not fit 320 pixels: the list shows a window round the
    # cursor and says how many are hidden; the down marker brings the next hidden chip into view.
    shown = t.says("ct.option")
    assert shown[0] == "1. Order of the Widget (9)" and len(shown) < 6
    assert [int(n) for n in t.says("ct.option.more")] == [6 - len(shown)]
    while PickOption(2) not in [target.action for target in kiosk.canvas.targets]:
        t.touch(OptionScroll(len(t.says("ct.option"))))
    assert "3. League of Dastardly Doom (9)" in t.says("ct.option")  # whole, on two lines
    t.touch(PickOption(2))
    assert t.says("ct.card") == [top]
    assert t.says("ct.title") == ["Zębatki: Юрий"]
    t.touch(SprocketTap(2))
    state = game(kiosk)
    assert state.contraptions is not None and on(state, 1, 2) == [top]
    assert state.contraptions.libraries[2].cards == library.cards[1:]
    assert [a.owner for a in state.contraptions.assembled if a.card == top] == [1]
    assert (
        state.active == 0 and state.contraptions.counters[1] == 3
    )  # his counter waits for his upkeep


@pytest.mark.parametrize("language", LANGUAGES)
def test_ct5_a_contraption_picked_on_screen_offers_scrap_exile_and_reassembly(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """CT-5 with virtual decks: the contraption picked on Юрий's turn is Alice's, so her sprockets
    are shown, and its chips are the ones a tap of the real card would offer, plus exile."""
    tr = Translator(language)
    kiosk = shown(make_kiosk, "ct_manage", language=language)
    state = game(kiosk)
    first, second = on(state, 0, 1)[0], on(state, 0, 2)[0]
    assert state.active == 1
    assert texts(kiosk, "ct.title") == [tr("ui.ct.board_of", name="Alice")]
    assert texts(kiosk, "ct.sprocket2.card") == [second]
    assert texts(kiosk, "ct.card") == [second]
    assert texts(kiosk, "ct.task") == [tr("ui.ct.selected", name="Alice", sprocket=2)]
    assert texts(kiosk, "ct.option") == [
        tr("ui.ct.scrap"),
        tr("ui.ct.exile"),
        tr("ui.ct.move_to", sprocket=1),
        tr("ui.ct.move_to", sprocket=3),
        tr("ui.ct.back"),
    ]
    assert first != second
