"""The table, upkeep, Planechase and adjust screens as a kitchen table reads them (HW-4, TB-3,
LF-1, PC-2, PC-3, PC-11, PC-13): no text cut or shrunk below the layout's ``tiny`` size at any
layout in any language, life totals large while the upkeep banner shows, the banner never over
a seat, touch targets a fingertip tall, long chip lists that scroll and say so."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pygame
import pytest
from scenes import LANGUAGES, POD, SAMPLE_TEXT, SCENES, SIZES, assert_readable, drawn, shown, texts

from device.commands import ChangePoison, Concede, DealCommanderDamage, NewGame
from device.inputs import Button
from device.rules.planechase.state import DieFace, Roll
from device.rules.planechase.state import PlanechaseState
from display import theme
from display.canvas import Rect
from display.i18n import Translator
from display.kiosk import Kiosk
from display.layout import choose
from display.screens import planechase as pc_screen
from display.screens.adjust import AdjustForm, PickPlayer
from display.screens.life import pending
from display.screens.planechase import PlanarOption, PlanarScroll
from display.screens.table import HideBanner, LifeStep, PickSeat
from display.targets import OffscreenTarget
from display.ui import Focus, Go, Press, Turn

MakeKiosk = Callable[..., Kiosk]

#: Every layout and the scaled full-HD one.
ALL_SIZES = (*SIZES, (1920, 1080))
#: The scenes of the table (with a life change shown), upkeep, Planechase and adjust screens.
OURS = (
    "table",
    "life",
    "upkeep",
    "upkeep-plane",
    "upkeep-six",
    "pc-table",
    "planechase",
    "pc-start",
    "pc-awaiting",
    "pc-own-die",
    "pc-encounter",
    "pc-choice",
    "pc-rolls",
    "adjust",
    "two-headed-giant",
    "pc-art",
    "pc-art-encounter",
    "upkeep-art",
    "pc-table-art",
)
#: Ten players, names in four scripts.
TEN = (*POD, "Marek", "Ewa")


def overlap(a: Rect, b: Rect) -> bool:
    return pygame.Rect(a).colliderect(pygame.Rect(b))


def sizes(
    kiosk: Kiosk, which: tuple[tuple[int, int], ...] = ALL_SIZES
) -> Iterator[tuple[int, int]]:
    """Draw the kiosk's scene at each size in turn."""
    for size in which:
        kiosk.retarget(OffscreenTarget(size))
        kiosk.redraw()
        yield size


def seat_targets(kiosk: Kiosk) -> dict[int, Rect]:
    """Where a touch reaches each seat: its two halves together (or the whole seat, on a panel
    too small for halves)."""
    found: dict[int, Rect] = {}
    for t in kiosk.canvas.targets:
        if isinstance(t.action, PickSeat | LifeStep):
            seat = t.action.seat
            x, y, w, h = t.rect
            if seat in found:
                fx, fy, fw, fh = found[seat]
                left, top = min(x, fx), min(y, fy)
                x, y, w, h = left, top, max(x + w, fx + fw) - left, max(y + h, fy + fh) - top
            found[seat] = (x, y, w, h)
    return found


def banner(kiosk: Kiosk) -> Rect | None:
    return next((t.rect for t in kiosk.canvas.targets if t.action == HideBanner()), None)


def touch(kiosk: Kiosk, action: object) -> None:
    target = next(t for t in kiosk.canvas.targets if t.action == action)
    x, y, w, h = target.rect
    kiosk.touch((x + w // 2, y + h // 2))
    kiosk.redraw()


def key(kiosk: Kiosk, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    kiosk.settle()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", OURS)
def test_hw4_no_text_is_cut_or_shrunk_below_tiny_and_targets_are_a_finger_tall(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    """HW-4: on every layout (and 1920×1080) in every language, no text of these screens lost its
    end or was shrunk below ``tiny``; every touch target is at least ``touch`` tall; the upkeep
    banner covers neither a seat nor its life total."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES[scene](kiosk)
    for size in sizes(kiosk):
        assert_readable(kiosk, size)
        shown_banner = banner(kiosk)
        if shown_banner is not None:
            lives = [d.rect for d in kiosk.canvas.drawn if d.role.endswith(".life")]
            assert lives
            for rect in [*seat_targets(kiosk).values(), *lives]:
                assert not overlap(shown_banner, rect), (size, rect, shown_banner)
        assert kiosk.fonts.missing == set()


def game_of(kiosk: Kiosk, players: int) -> None:
    """A Commander + Planechase game in its first upkeep, with poison and commander damage from
    two players on the tiles."""
    kiosk.execute(NewGame(formats=("commander", "planechase"), players=TEN[:players], first=TEN[0]))
    kiosk.execute(DealCommanderDamage(seat=1, source=0, amount=7))
    if players > 2:
        kiosk.execute(DealCommanderDamage(seat=1, source=2, amount=12))
    kiosk.execute(ChangePoison(seat=players - 1, delta=3, source=0))


@pytest.mark.parametrize("players", range(2, 11))
def test_tb3_life_totals_stay_large_beside_the_upkeep_banner(
    make_kiosk: MakeKiosk, players: int
) -> None:
    """TB-3, LF-1: in the upkeep every life total is at least 45 px at 800×480 and 30 px at
    480×320 with 2–6 players (the layout's ``medium`` with 7–10): beside the banner where that
    leaves them so, else the banner, which says no more than the turn's steps, gives way (the
    header says whose upkeep it is); poison and commander damage digits at least half as tall as
    the seat's total, each commander badge naming whose commander."""
    for language in LANGUAGES:
        kiosk = make_kiosk(SIZES[0], language)
        game_of(kiosk, players)
        ink = kiosk.canvas.fonts.ink
        for size in sizes(kiosk, ((480, 320), (800, 480))):
            layout = choose(*size)
            least = {(800, 480): 45, (480, 320): 30}[size] if players <= 6 else layout.medium
            upkeep = kiosk.tr("ui.upkeep_of", name=kiosk.state.player(kiosk.state.active).name)
            assert texts(kiosk, "banner.item") or upkeep in texts(kiosk, "header.headline"), (
                size,
                language,
            )
            lives = [drawn(kiosk, f"seat{seat}.life") for seat in range(players)]
            assert all(len(life) == 1 for life in lives)
            assert min(life[0].size for life in lives) >= least, (
                size,
                language,
                [life[0].size for life in lives],
            )
            for seat, role in ((1, "cmd"), (players - 1, "poison")):
                total = ink("0123456789", lives[seat][0].size, True)[1]
                for number in drawn(kiosk, f"seat{seat}.{role}"):
                    assert 2 * ink("0123456789", number.size, True)[1] >= total, (size, number)
            assert texts(kiosk, "seat1.cmd") == (["12", "7"] if players > 2 else ["7"])
            assert len(texts(kiosk, "seat1.cmd.from")) == len(texts(kiosk, "seat1.cmd"))
            assert texts(kiosk, f"seat{players - 1}.poison") == ["3"]


def test_tb3_seats_take_the_room_back_when_the_banner_is_tapped_away(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "upkeep")
    before = seat_targets(kiosk)
    rect = banner(kiosk)
    assert rect is not None
    kiosk.touch((rect[0] + 5, rect[1] + 5))
    kiosk.redraw()
    assert banner(kiosk) is None and texts(kiosk, "banner.*") == []
    after = seat_targets(kiosk)
    assert all(
        after[seat][2] * after[seat][3] > before[seat][2] * before[seat][3] for seat in range(4)
    )
    assert all(
        drawn(kiosk, f"seat{seat}.life")[0].size >= choose(800, 480).huge for seat in range(4)
    )
    assert texts(kiosk, "table.plane") == [kiosk.state.part(PlanechaseState).face_up[0].name]


@pytest.mark.parametrize("language", LANGUAGES)
def test_pc3_the_upkeep_banner_shows_the_planes_rules_text(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """The plane and what it does on the table screen: in the upkeep banner, with its rules text
    when card data has it (whole, as large as the banner's room allows)."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES["upkeep-plane"](kiosk)
    for size in sizes(kiosk, ALL_SIZES[1:]):
        assert texts(kiosk, "banner.plane") == ["Tazeem"], size
        assert texts(kiosk, "banner.plane.text") == [SAMPLE_TEXT], size
        items = texts(kiosk, "banner.item")
        assert "• " + Translator(language)("ui.pc.upkeep", plane="Tazeem") in items


@pytest.mark.parametrize("language", LANGUAGES)
def test_pc3_the_table_shows_what_the_planes_chaos_does(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """The plane's effect where players look: beside the plane's name under the seats, its
    chaos ability whole at every size (card text as printed, in English); none without text."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES["pc-table"](kiosk)
    for size in sizes(kiosk):
        assert texts(kiosk, "table.plane") == ["Tazeem"], size
        assert texts(kiosk, "table.plane.chaos") == [SAMPLE_TEXT], size
        assert not any(d.cut for d in drawn(kiosk, "table.plane.chaos")), size
    assert (
        pc_screen.chaos_ability(
            "Players may cast spells as though they had flash.\nWhenever chaos ensues, "
            "untap all creatures."
        )
        == "Whenever chaos ensues, untap all creatures."
    )
    assert (
        pc_screen.chaos_ability("Whenever you roll {CHAOS}, draw a card.")
        == "Whenever you roll {CHAOS}, draw a card."
    )
    assert pc_screen.chaos_ability("") == ""


def test_pc3_the_table_names_the_plane_and_opens_planechase_when_touched(
    make_kiosk: MakeKiosk,
) -> None:
    kiosk = shown(make_kiosk, "pc-table")
    assert texts(kiosk, "table.plane") == ["Tazeem"]
    touch(kiosk, Go("planechase"))
    assert kiosk.ui.screen == "planechase"


@pytest.mark.parametrize("language", LANGUAGES)
def test_pc2_the_next_roll_cost_is_whole_and_large(make_kiosk: MakeKiosk, language: str) -> None:
    """PC-2: the next roll's cost, the number the table acts on, is a whole number in a mana
    symbol at ``medium`` or more, its label whole, at every layout."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES["planechase"](kiosk)
    for size in sizes(kiosk):
        assert texts(kiosk, "pc.cost.label") == [Translator(language)("ui.pc.next_roll")], size
        (cost,) = drawn(kiosk, "pc.cost")
        assert cost.text == "2" and not cost.cut and cost.size >= choose(*size).medium, size


def test_pc3_before_any_roll_the_die_says_so(make_kiosk: MakeKiosk) -> None:
    kiosk = shown(make_kiosk, "pc-start")
    assert texts(kiosk, "pc.die.none") == ["Not rolled yet"]
    assert texts(kiosk, "pc.die.face") == []
    assert texts(kiosk, "pc.cost") == ["free"]


def die_colours(kiosk: Kiosk) -> dict[tuple[int, int, int], int]:
    """How many pixels of the planeswalk and chaos colours the die (left of its face's word) has."""
    face = drawn(kiosk, "pc.die.face")[0].rect
    label = drawn(kiosk, "pc.cost.label")[0].rect
    panel_x = kiosk.canvas.width * 11 // 20
    area = kiosk.target.surface.subsurface(
        pygame.Rect(panel_x, face[1] - face[3], face[0] - panel_x, label[1] - face[1] + face[3])
    )
    found = {}
    for colour in (theme.WALK, theme.CHAOS):
        mask = pygame.mask.from_threshold(area, colour, (1, 1, 1, 255))
        found[colour] = mask.count()
    return found


@pytest.mark.parametrize("face", list(DieFace))
def test_pc3_the_die_shows_its_face(make_kiosk: MakeKiosk, face: DieFace) -> None:
    """PC-3: the die is drawn showing what it rolled: the planeswalker symbol, the chaos symbol
    or a blank face, each in its colour."""
    kiosk = shown(make_kiosk, "planechase")
    state = kiosk.controller.state
    assert state is not None and state.planechase is not None
    roll = Roll(
        turn=1,
        seat=0,
        pip={DieFace.PLANESWALK: 6, DieFace.CHAOS: 1, DieFace.BLANK: 3}[face],
        face=face,
        result=face,
        cost=0,
        special=True,
    )
    kiosk.controller.state = state.model_copy(
        update={"planechase": state.planechase.model_copy(update={"rolls": (roll,)})}
    )
    kiosk.redraw()
    colours = die_colours(kiosk)
    assert colours[theme.WALK] > (200 if face is DieFace.PLANESWALK else -1)
    assert colours[theme.CHAOS] > (200 if face is DieFace.CHAOS else -1)
    if face is not DieFace.PLANESWALK:
        assert colours[theme.WALK] == 0
    if face is not DieFace.CHAOS:
        assert colours[theme.CHAOS] == 0


def test_pc13_the_roll_log_shows_as_many_rolls_as_fit_by_their_place_in_the_game(
    make_kiosk: MakeKiosk,
) -> None:
    """PC-13: after 21 rolls the log lists the newest first, each numbered by its place in the
    game's log, as many as the panel holds (more on a bigger screen)."""
    kiosk = make_kiosk(SIZES[0], "en")
    SCENES["pc-rolls"](kiosk)
    rolls = kiosk.state.part(PlanechaseState).rolls
    assert len(rolls) == 21
    counts = []
    for size in sizes(kiosk, ALL_SIZES[1:]):
        lines = texts(kiosk, "pc.log")
        numbers = [int(re.match(r"(\d+)\. ", line).group(1)) for line in lines]  # type: ignore[union-attr]
        assert numbers == list(range(21, 21 - len(numbers), -1)), size
        for number, line in zip(numbers, lines, strict=True):
            face = {"blank": "Blank", "chaos": "Chaos", "planeswalk": "Planeswalk"}[
                rolls[number - 1].result
            ]
            assert line.startswith(
                f"{number}. {kiosk.state.player(rolls[number - 1].seat).name}: {face}"
            )  # type: ignore[union-attr]
        counts.append(len(lines))
    assert counts[0] >= 1 and min(counts[1:]) >= 4  # four or more from the 7-inch panel up


def test_pc11_down_with_no_counters_on_the_plane_does_nothing(make_kiosk: MakeKiosk) -> None:
    """PC-11: with the encoder given to the plane's counters (SELECT), ↓ takes counters off only
    while there are some: at 0 it does nothing (no refusal), and a big step takes off what there
    is; the counters' line stays, ringed, until SELECT gives the encoder back to life."""
    kiosk = shown(make_kiosk, "planechase")
    journal = len(kiosk.history())
    key(kiosk, pygame.K_TAB)  # SELECT: the encoder to the plane's counters
    assert texts(kiosk, "pc.plane.counters") == ["0 counters"]
    key(kiosk, pygame.K_DOWN)
    assert kiosk.ui.error is None and texts(kiosk, "status.error") == []
    assert len(kiosk.history()) == journal
    key(kiosk, pygame.K_UP)
    key(kiosk, pygame.K_UP)
    assert kiosk.state.part(PlanechaseState).face_up[0].counters == 2
    assert texts(kiosk, "pc.plane.counters") == ["2 counters"]
    key(kiosk, pygame.K_PAGEDOWN)
    assert kiosk.state.part(PlanechaseState).face_up[0].counters == 0
    assert kiosk.ui.error is None and texts(kiosk, "pc.plane.counters") == ["0 counters"]
    key(kiosk, pygame.K_DOWN)
    assert kiosk.ui.error is None
    key(kiosk, pygame.K_TAB)  # SELECT again: the encoder is life
    assert texts(kiosk, "pc.plane.counters") == [] and kiosk.ui.screen == "planechase"


def test_pc11_the_encoder_changes_life_on_the_planechase_screen_as_on_the_table(
    make_kiosk: MakeKiosk,
) -> None:
    """The encoder on the Planechase screen is life, as on the table: the table comes back with
    the highlighted seat's change showing, made after the pause as one change; the plane's
    counters change only once SELECT (or a touch on the plane's name) gave the encoder to them,
    and leaving the screen gives it back."""
    kiosk = shown(make_kiosk, "planechase")
    state = kiosk.state
    assert state is not None
    active = state.active
    before = state.player(active).life
    key(kiosk, pygame.K_DOWN)
    key(kiosk, pygame.K_DOWN)
    assert kiosk.ui.screen == "table"
    change = pending(kiosk.ui)
    assert change is not None and change.seat == active and change.amount == -2
    assert kiosk.state.part(PlanechaseState).face_up[0].counters == 0
    kiosk.dispatch(Press(Button.NEXT))  # made first, then the main phase
    assert kiosk.state.player(active).life == before - 2  # type: ignore[union-attr]
    kiosk.dispatch(Go("planechase"))
    kiosk.redraw()
    name = next(t.rect for t in kiosk.canvas.targets if t.action == pc_screen.ShowCounters())
    kiosk.touch((name[0] + 2, name[1] + 2))
    key(kiosk, pygame.K_UP)
    assert (
        kiosk.ui.screen == "planechase"
        and kiosk.state.part(PlanechaseState).face_up[0].counters == 1
    )
    kiosk.dispatch(Go("table"))
    kiosk.dispatch(Go("planechase"))
    key(kiosk, pygame.K_UP)
    assert kiosk.ui.screen == "table" and kiosk.state.part(PlanechaseState).face_up[0].counters == 1


def test_pc11_a_long_choice_scrolls_with_the_cursor_and_says_how_many_are_hidden(
    make_kiosk: MakeKiosk,
) -> None:
    """PC-11 on a 320×240 panel: Interplanar Tunnel's five planes do not fit; the list shows a
    window round the cursor, markers say how many are above and below, touching one brings the
    next hidden plane into view, and SELECT chooses the one under the cursor."""
    kiosk = shown(make_kiosk, "pc-choice", (320, 240))
    options = pc_screen.choice_options(kiosk.state)  # type: ignore[arg-type]
    assert len(options) == 5
    listed = texts(kiosk, "pc.choice.option")
    hidden = [int(n) for n in texts(kiosk, "pc.choice.more")]
    assert len(listed) < 5 and len(listed) + sum(hidden) == 5
    assert options[3] in listed  # the cursor's chip is in view
    up = next(t for t in kiosk.canvas.targets if isinstance(t.action, PlanarScroll))
    kiosk.touch((up.rect[0] + 2, up.rect[1] + 2))
    kiosk.redraw()
    assert options[2] in texts(kiosk, "pc.choice.option")
    for _ in range(3):
        kiosk.dispatch(Turn(1))
    kiosk.redraw()
    assert options[0] in texts(kiosk, "pc.choice.option")  # round the end, and scrolled there
    kiosk.dispatch(Press(Button.SELECT))
    pc = kiosk.state.planechase  # type: ignore[union-attr]
    assert pc is not None and pc.choice is None


def test_lf2_a_long_player_row_scrolls_on_a_small_panel(make_kiosk: MakeKiosk) -> None:
    """LF-2 on a 320×240 panel with ten players: the player row shows a window round the chosen
    player with how many are hidden on each side; touching a marker chooses the next hidden one."""
    names = TEN
    kiosk = make_kiosk((320, 240), "pl")
    kiosk.execute(NewGame(formats=("commander",), players=names, first=names[0]))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.dispatch(Go("adjust"))  # key A
    kiosk.dispatch(Turn(-1))
    kiosk.redraw()
    players = texts(kiosk, "adjust.player")
    hidden = [int(n) for n in texts(kiosk, "adjust.player.more")]
    assert names[0] in players and len(players) < 10 and len(players) + sum(hidden) == 10
    right = [t for t in kiosk.canvas.targets if isinstance(t.action, PickPlayer)][-1]
    kiosk.touch((right.rect[0] + right.rect[2] - 2, right.rect[1] + 2))
    kiosk.redraw()
    form = kiosk.ui.state_of(AdjustForm)
    assert form.seat == len(players)  # the first one that was hidden
    assert names[form.seat] in texts(kiosk, "adjust.player")
    kiosk.dispatch(Focus(1))  # the counter row: "Obrażenia od dowódcy" whole, on two lines
    kiosk.redraw()
    assert "Obrażenia od dowódcy" in texts(kiosk, "adjust.counter")


def test_pc1_a_plain_d6_shows_its_pips(make_kiosk: MakeKiosk) -> None:
    """PC-1: a table rolling a plain d6 sees the pips it rolled (6: planeswalk, in its colour)."""
    kiosk = shown(make_kiosk, "planechase")
    state = kiosk.controller.state
    assert state is not None and state.planechase is not None
    roll = Roll(
        turn=1,
        seat=0,
        pip=6,
        face=DieFace.PLANESWALK,
        result=DieFace.PLANESWALK,
        cost=0,
        special=True,
    )
    pc = state.planechase.model_copy(update={"rolls": (roll,), "plain_d6": True})
    kiosk.controller.state = state.model_copy(update={"planechase": pc})
    kiosk.redraw()
    with_pips = die_colours(kiosk)[theme.WALK]
    kiosk.controller.state = state.model_copy(
        update={"planechase": pc.model_copy(update={"plain_d6": False})}
    )
    kiosk.redraw()
    assert 0 < with_pips != die_colours(kiosk)[theme.WALK]  # pips, not the planeswalker symbol


@pytest.mark.parametrize("language", LANGUAGES)
def test_pc11_stairs_to_infinity_asks_in_the_tables_language(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """PC-11: Stairs to Infinity's answers are chips in the table's words, not 'top'/'bottom'."""
    from device.rules.planechase.commands import ChoosePlanar
    from device.rules.planechase.state import CardRef, ChoiceKind, PendingChoice, PlanarKind

    kiosk = shown(make_kiosk, "planechase", language=language)
    state = kiosk.controller.state
    assert state is not None and state.planechase is not None
    choice = PendingChoice(
        kind=ChoiceKind.STAIRS,
        seat=0,
        deck=0,
        cards=(CardRef(name="Bant", kind=PlanarKind.PLANE),),
        source="Stairs to Infinity",
    )
    kiosk.controller.state = state.model_copy(
        update={"planechase": state.planechase.model_copy(update={"choice": choice})}
    )
    kiosk.redraw()
    tr = Translator(language)
    assert texts(kiosk, "pc.choice.option") == [tr("ui.pc.stairs.top"), tr("ui.pc.stairs.bottom")]
    assert texts(kiosk, "pc.choice.prompt") == [
        tr("ui.pc.ask.stairs_to_infinity", name="Alice", card="Bant")
    ]
    sent: list[object] = []
    kiosk.execute = lambda command: sent.append(command)  # type: ignore[method-assign, assignment, return-value]
    touch(kiosk, PlanarOption("bottom"))
    assert sent == [ChoosePlanar(answer=("bottom",))]


def test_one_letter_and_short_names_draw_their_badges(make_kiosk: MakeKiosk) -> None:
    """A name shorter than a badge's shortest start ("Jo", "漢") is shown whole, not a crash."""

    kiosk = make_kiosk((480, 320), "en")
    kiosk.execute(NewGame(formats=("commander",), players=("Jo", "漢", "Al", "Bo"), first="Jo"))
    kiosk.execute(DealCommanderDamage(seat=0, source=1, amount=5))
    kiosk.execute(DealCommanderDamage(seat=1, source=0, amount=4))
    kiosk.execute(ChangePoison(seat=2, delta=2, source=3))
    kiosk.redraw()
    assert "漢" in texts(kiosk, "seat0.cmd.from") and "Jo" in texts(kiosk, "seat1.cmd.from")


def test_pc2_a_decided_game_shows_no_next_roll(make_kiosk: MakeKiosk) -> None:
    """PC-2, PC-13: once a player has won nobody rolls again, so the Planechase screen drops the
    next roll's cost and the odds; the die's last face and the roll log stay."""
    kiosk = make_kiosk((800, 480), "en")
    kiosk.execute(NewGame(formats=("commander", "planechase"), players=("Ann", "Bob"), first="Ann"))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.dispatch(Go("planechase"))
    kiosk.redraw()
    assert texts(kiosk, "pc.cost") and texts(kiosk, "pc.odds")
    kiosk.execute(Concede(seat=1))
    kiosk.dispatch(Go("planechase"))
    kiosk.redraw()
    assert texts(kiosk, "header.headline") == ["Ann wins"]
    assert texts(kiosk, "pc.cost") == [] and texts(kiosk, "pc.odds") == []
    assert texts(kiosk, "pc.die.roller") == ["Ann"]


def test_tb4_a_player_out_of_the_game_keeps_a_readable_name(make_kiosk: MakeKiosk) -> None:
    """TB-4: さくら out to 21 commander damage in a Planechase game has a two-line reason under her
    life total; her name stays at the layout's name size rather than shrinking to make the old
    total larger."""
    kiosk = make_kiosk((800, 480), "ru")
    kiosk.execute(
        NewGame(
            formats=("commander", "planechase"),
            players=("Аня", "Борис", "さくら", "Łukasz"),
            first="Аня",
        )
    )
    kiosk.dispatch(Press(Button.NEXT))  # the main phase: the plane's strip under the seats
    kiosk.execute(DealCommanderDamage(seat=2, source=0, amount=21))
    kiosk.redraw()
    name = next(d for d in kiosk.canvas.drawn if d.text == "さくら" and d.role.endswith(".name"))
    assert name.size == kiosk.canvas.layout.medium
    assert not any(d.cut for d in kiosk.canvas.drawn)
