"""The Contraptions, Necromancer, Conspiracy (and its event across tables) and Wizard's Duel screens
as a kitchen table reads them and fingers work them (HW-4, CT-6, CT-7, NC-1, NC-3, CJ-2..CJ-8, WD-1,
WD-2): no text cut or shrunk below the layout's ``tiny`` size at any layout in any language, every
touch target at least ``Layout.touch`` tall, and lists longer than their room scrolling with the
cursor and saying how many are hidden above and below."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import pytest
from scenes import LANGUAGES, SCENES, SIZES, drawn, shown, texts
from test_readable import ALL_SIZES, sizes

from device.catalog import Faction
from display.i18n import Translator
from display.kiosk import Kiosk
from display.layout import choose
from display.screens.conspiracy import GroupScroll
from display.screens.contraptions import OptionScroll, PickOption
from display.screens.necromancer import AnswerScroll, RowScroll
from display.screens.wizards_duel import DuelChip, DuelScroll
from display.screens.wizards_duel_card import CardForm, CardRow
from display.ui import Turn

T = TypeVar("T")

MakeKiosk = Callable[..., Kiosk]

#: Every scene of these screens, each reached through the kiosk's own inputs.
CONTRAPTIONS = (
    "ct_crank",
    "ct_faction",
    "ct_shared",
    "ct_place",
    "ct_manage",
    "ct_library",
    "ct_factions",
    "ct_look",
    "ct_which",
    "ct_roll",
    "ct_tap",
    "ct_paid",
)
NECROMANCER = ("necro-ask", "necromancer", "necro-table", "necro-ask-ten", "necro-ten")
CONSPIRACY = (
    "conspiracy",
    "conspiracy-pods",
    "conspiracy-controls",
    "conspiracy-extra",
    "conspiracy-draft",
)
DUEL = (
    "wd_gather",
    "wd_attack",
    "wd_over",
    "wd_card",
    "wd_describe",
    "wd_incant",
    "wd_learn",
    "wd_cast",
    "wd_target",
    "wd_falling",
)
EVENT = ("event-join", "event", "event-tables")
OURS = CONTRAPTIONS + NECROMANCER + CONSPIRACY + EVENT + DUEL
#: The header, the status line and the touch bar are drawn above and below every screen alike.
SHARED = ("header.", "status.", "bar.")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", OURS)
def test_hw4_no_text_is_cut_or_shrunk_below_tiny_and_targets_are_a_finger_tall(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    """HW-4: on every layout (and 1920×1080) in every language, no text of these screens lost its
    end or was shrunk below ``tiny``, and every touch target is at least ``touch`` tall."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES[scene](kiosk)
    for size in sizes(kiosk):
        layout = choose(*size)
        problems = [
            d
            for d in kiosk.canvas.drawn
            if not d.role.startswith(SHARED) and (d.cut or d.size < layout.tiny)
        ]
        assert problems == [], size
        short = [t for t in kiosk.canvas.targets if t.rect[3] < layout.touch]
        assert short == [], size
        assert kiosk.fonts.missing == set()


def marker_counts(kiosk: Kiosk, role: str) -> list[int]:
    return [int(n) for n in texts(kiosk, f"{role}.more")]


def targets(kiosk: Kiosk, kind: type[T]) -> list[T]:
    return [t.action for t in kiosk.canvas.targets if isinstance(t.action, kind)]


def touch(kiosk: Kiosk, action: object) -> None:
    x, y, w, h = next(t.rect for t in kiosk.canvas.targets if t.action == action)
    kiosk.touch((x + w // 2, y + h // 2))
    kiosk.redraw()


@pytest.mark.parametrize("language", LANGUAGES)
def test_cta1_a_faction_library_chip_keeps_its_count_on_the_smallest_panel(
    make_kiosk: MakeKiosk, language: str
) -> None:
    """CT-A1 at 320×240: each faction library's chip says its number, name and cards left whole
    (on two lines where one is too narrow), and the list says how many chips are hidden."""
    kiosk = shown(make_kiosk, "ct_library", (320, 240), language)
    tr = Translator(language)
    chips = texts(kiosk, "ct.option")
    league = tr("ui.ct.faction_chip", number=3, faction=Faction(3).label, count=9)
    assert league in chips
    hidden = marker_counts(kiosk, "ct.option")
    assert len(chips) < 6 and len(chips) + sum(hidden) == 6


def test_ct_a_long_chip_list_scrolls_with_the_cursor_and_its_markers(make_kiosk: MakeKiosk) -> None:
    """The chips of a long choice on a small panel: a window round the cursor, markers with how
    many are above and below; touching a marker brings the next hidden chip into view."""
    kiosk = shown(make_kiosk, "ct_library", (320, 240), "pl")
    chips = targets(kiosk, PickOption)
    assert PickOption(2) in chips and PickOption(0) not in chips  # the cursor's chip, scrolled to
    kiosk.dispatch(Turn(3))  # the last chip: "Wróć"
    kiosk.redraw()
    chips = targets(kiosk, PickOption)
    assert chips[-1] == PickOption(5)
    assert marker_counts(kiosk, "ct.option") == [6 - len(chips)]  # all hidden ones are above
    (up,) = targets(kiosk, OptionScroll)
    touch(kiosk, up)
    assert PickOption(up.index) in targets(kiosk, PickOption)
    assert up.index == chips[0].index - 1


@pytest.mark.parametrize("scene", ("necro-ask-ten", "necro-ten"))
def test_nc1_nc3_a_table_of_ten_scrolls_and_says_how_many_are_hidden(
    make_kiosk: MakeKiosk, scene: str
) -> None:
    """NC-1, NC-3 at a table of ten on a 320×240 panel: the answers (or the players) show a window
    round the cursor, with how many are hidden above and below; touching a marker brings the
    next hidden one into view."""
    kiosk = shown(make_kiosk, scene, (320, 240), "ru")
    asking = scene == "necro-ask-ten"
    role = "necro.answer" if asking else "necro.name"
    marks = "necro.answer" if asking else "necro.list"
    listed = texts(kiosk, role)
    hidden = marker_counts(kiosk, marks)
    assert len(listed) < 10 and len(listed) + sum(hidden) == 10
    state = kiosk.state
    assert state is not None
    if asking:
        assert "Marek" in listed  # the cursor's answer
    else:
        assert state.player(6).name in listed  # the cursor's solo player
    up = targets(kiosk, AnswerScroll if asking else RowScroll)[0]
    touch(kiosk, up)
    shown_now = texts(kiosk, role)
    assert shown_now != listed
    if not asking:
        assert isinstance(up, RowScroll) and state.player(up.row).name in shown_now


def test_cj_a_pod_of_ten_on_the_smallest_panel_scrolls_its_groups(make_kiosk: MakeKiosk) -> None:
    """CJ-2 at 320×240: two groups of five; each shows a window of its players and how many of
    them are hidden; touching a marker brings the group's next hidden player into view, and the
    cursor's player is in view as the encoder walks the rows."""
    kiosk = shown(make_kiosk, "conspiracy-extra", (320, 240), "en")
    seats = [d for d in kiosk.canvas.drawn if d.role in ("consp.1.seat", "consp.2.seat")]
    hidden = marker_counts(kiosk, "consp.group")
    assert len(seats) < 10 and len(seats) + sum(hidden) == 10
    state = kiosk.state
    assert state is not None and state.conspiracy is not None
    one, two = state.conspiracy.groups
    down = next(t for t in targets(kiosk, GroupScroll) if t.group == one.label and t.row > 0)
    touch(kiosk, down)
    assert f"{down.row + 1}. {state.player(one.order[down.row]).name}" in texts(
        kiosk, "consp.1.seat"
    )
    kiosk.dispatch(Turn(-1))  # from the first chip back to the last row: group 2's last player
    kiosk.redraw()
    assert f"5. {state.player(two.order[4]).name}" in texts(kiosk, "consp.2.seat")


def test_wd_the_chip_row_scrolls_and_says_how_many_are_hidden(make_kiosk: MakeKiosk) -> None:
    """WD-2 phase 2 at 480×320: more chips than the row holds; the markers at its ends say how
    many are hidden on each side, the highlighted chip stays in view, and touching a marker
    brings the next hidden chip into view without picking it."""
    from display.screens.wizards_duel import choice, current_form

    kiosk = shown(make_kiosk, "wd_incant", (480, 320), "en")
    state = kiosk.state
    assert state is not None
    current = choice(state, kiosk.tr, current_form(kiosk.ui, state))
    assert current is not None
    total = len(current.chips)
    chips = targets(kiosk, DuelChip)
    assert len(chips) < total and len(chips) + sum(marker_counts(kiosk, "wd.chip")) == total
    pick = current_form(kiosk.ui, state).pick
    assert DuelChip(pick) in chips
    right = targets(kiosk, DuelScroll)[-1]
    before = kiosk.state
    touch(kiosk, right)
    assert DuelChip(right.index) in targets(kiosk, DuelChip)
    assert kiosk.state == before  # nothing picked


def test_wd_the_card_forms_rows_scroll_with_the_highlight(make_kiosk: MakeKiosk) -> None:
    """WD-1 on a 320×240 panel: the card form's rows do not all fit; they scroll with the
    highlight, say how many are above and below, and save and cancel stay in reach."""
    kiosk = shown(make_kiosk, "wd_card", (320, 240), "ru")
    labels = texts(kiosk, "wd.card.label")
    hidden = marker_counts(kiosk, "wd.card")
    form = kiosk.ui.state_of(CardForm)
    assert sum(hidden) > 0 and len(labels) + sum(hidden) == len(form_rows(kiosk)) - 2
    assert texts(kiosk, "wd.card.save") and texts(kiosk, "wd.card.cancel")
    assert form.row in [t.row for t in targets(kiosk, CardRow)]


def form_rows(kiosk: Kiosk) -> list[tuple[str, str]]:
    from display.screens.wizards_duel_card import rows

    state = kiosk.state
    assert state is not None and state.wizards_duel is not None
    form = kiosk.ui.state_of(CardForm)
    return rows(form, state.wizards_duel.wizard(form.seat).pool if form.slot is not None else ())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_size_shows_the_chosen_chip(make_kiosk: MakeKiosk, language: str) -> None:
    """Whatever the size, the chip under the cursor is drawn (the list scrolls to it)."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES["ct_which"](kiosk)
    for size in sizes(kiosk, ALL_SIZES):
        assert PickOption(3) in targets(kiosk, PickOption), size
        assert drawn(kiosk, "ct.task"), size


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scene", DUEL)
def test_wd2_the_wizards_tiles_never_overlap(
    make_kiosk: MakeKiosk, scene: str, language: str
) -> None:
    """WD-2 on every layout: each wizard's name, magic points and rows stay clear of every other
    wizard's, however little room the choice below leaves the tiles (three wizards at 320×240
    go side by side rather than into two rows too short for their numbers)."""
    kiosk = make_kiosk(SIZES[0], language)
    SCENES[scene](kiosk)
    for size in sizes(kiosk):
        boxes: dict[str, list[tuple[int, int, int, int]]] = {}
        for d in kiosk.canvas.drawn:
            if d.role.startswith("wd.seat"):
                boxes.setdefault(d.role.split(".")[1], []).append(d.rect)
        seats = sorted(boxes)
        for i, one in enumerate(seats):
            for other in seats[i + 1 :]:
                for a in boxes[one]:
                    for b in boxes[other]:
                        apart = (
                            a[0] + a[2] <= b[0]
                            or b[0] + b[2] <= a[0]
                            or a[1] + a[3] <= b[1]
                            or b[1] + b[3] <= a[1]
                        )
                        assert apart, (size, one, a, other, b)
