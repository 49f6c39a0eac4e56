"""A physical planar deck played on the kiosk as a table plays it: cards tapped on the reader,
the plane just left tapped again by mistake (refused, on the status line, in the table's
language), the deck gone round twice (CR 701.22b, 901.3: a card put on the bottom comes back only
after the cards above it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from device.catalog import CardKind, load_catalog
from device.commands import Advance, NewGame
from device.inputs import TagRead
from device.rules.planechase.commands import RollPlanarDie
from display.kiosk import Kiosk

from scenes import PLAYERS, texts

MakeKiosk = Callable[..., Kiosk]
PLANES = (
    "Tazeem",
    "Naya",
    "Bant",
    "Agyrem",
    "Sokenzan",
    "Lethe Lake",
    "Murasa",
    "Gavony",
    "Stensia",
    "The Wilds",
    "Otaria",
    "Goldmeadow",
)


def uid(index: int) -> str:
    return f"04B0{index:04X}"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_pc6_a_physical_deck_goes_round_twice_and_the_plane_just_left_is_refused(
    make_kiosk: MakeKiosk, tmp_path: Path, language: str
) -> None:
    with (tmp_path / "tags.txt").open("a", encoding="utf-8") as tags:
        for index, name in enumerate(PLANES):
            tags.write(f"{uid(index)}  {name}\n")
    kiosk = make_kiosk((480, 320), language)
    kiosk.execute(
        NewGame(
            formats=("commander", "planechase"),
            players=PLAYERS[:2],
            first=PLAYERS[0],
            options={"planar_deck": "physical", "communal_deck": "on"},
        )
    )
    kiosk.handle_input(TagRead(uid(0)))  # the starting plane
    kiosk.execute(Advance())
    kiosk.redraw()
    order = list(range(1, len(PLANES))) + list(range(len(PLANES)))  # round the deck, then again
    shown = [PLANES[0]]
    for step, index in enumerate(order[: 2 * len(PLANES) - 1]):
        left = shown[-1]
        kiosk.execute(RollPlanarDie(pip=6))  # the table's own die shows the planeswalker symbol
        kiosk.redraw()
        state = kiosk.state
        assert (
            state is not None
            and state.planechase is not None
            and state.planechase.awaiting is not None
        )
        kiosk.handle_input(
            TagRead(uid(PLANES.index(left)))
        )  # the card just put on the bottom, by mistake
        kiosk.redraw()
        assert kiosk.ui.error is not None and kiosk.ui.error.key == "planechase.card_on_bottom", (
            step
        )
        said = texts(kiosk, "status.error")
        assert (
            said
            and left in " ".join(said)
            and ("went to the bottom" in " ".join(said)) == (language == "en")
        )
        assert [c.name for c in kiosk.state.planechase.face_up] == []  # nothing taken
        kiosk.handle_input(TagRead(uid(index)))
        kiosk.redraw()
        assert [c.name for c in kiosk.state.planechase.face_up] == [PLANES[index]], step
        shown.append(PLANES[index])
    assert shown.count(PLANES[1]) == 2
    visited = [v.name for v in kiosk.state.planechase.visited]
    assert visited == shown


def test_pc9_901_12b_a_team_leaving_on_its_own_turn_on_the_kiosk(make_kiosk: MakeKiosk) -> None:
    """Two-Headed Giant Planechase on the kiosk: Bob rolls the planeswalker symbol and his own top
    card comes up (901.8); his team leaves on its own turn, and the next team's primary player
    turns over her top card, which the table's strip shows; ROLL is refused with the reason until
    NEXT passes the turn."""
    from device.commands import Concede
    from device.inputs import Button
    from device.rules.planechase.commands import SetPlanarDeck
    from display.ui import Press

    kiosk = make_kiosk((800, 480), "en")
    players = (
        "Alice",
        "Bob",
        "Carol",
        "Dan",
        "Eve",
        "Fay",
    )  # three teams: one leaving ends nothing
    kiosk.execute(NewGame(formats=("ffa", "2hg", "planechase"), players=players, first="Alice"))
    every = [card.name for card in load_catalog() if card.kind is CardKind.PLANE]
    decks = [every[10 * seat : 10 * seat + 10] for seat in range(6)]
    for seat in range(6):
        kiosk.execute(SetPlanarDeck(owner=seat, names=tuple(decks[seat])))
    kiosk.execute(Advance())

    def top(seat: int) -> str:
        found = kiosk.state.planechase.deck(seat)
        assert found is not None and found.cards
        return found.cards[0].name

    bobs = top(1)
    kiosk.execute(RollPlanarDie(seat=1, pip=6))
    assert [c.name for c in kiosk.state.planechase.face_up] == [
        bobs
    ]  # Bob's own top card, not Alice's
    carols = top(2)
    kiosk.execute(Concede(seat=0))
    kiosk.go("table")
    kiosk.redraw()
    assert [c.name for c in kiosk.state.planechase.face_up] == [carols]  # Carol's top card
    assert any(carols in line for line in texts(kiosk))
    kiosk.dispatch(Press(Button.ROLL))
    kiosk.redraw()
    assert kiosk.ui.error is not None and "NEXT" in " ".join(texts(kiosk, "status.error"))
    kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert kiosk.state.active == 2


@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
def test_pc10_807_4c_a_ten_player_grand_melee_on_the_kiosk(
    make_kiosk: MakeKiosk, size: tuple[int, int]
) -> None:
    """Ten players, two turn markers (807.4a, said when the game starts); E5 holds the second and
    concedes during the turn: the marker stays until NEXT ends the turn, then F6 holds it and
    plays (807.4c); the table shows both face-up planes throughout."""
    from device.commands import Concede
    from device.inputs import Button
    from display.ui import Press

    kiosk = make_kiosk(size, "en")
    players = ("A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "I9", "J10")
    kiosk.execute(
        NewGame(
            formats=("ffa", "planechase"),
            players=players,
            first="A1",
            options={"grand_melee": "on"},
        )
    )
    assert any(
        "2 turn markers" in message or "two turn markers" in message
        for message in kiosk.ui.messages
    ), kiosk.ui.messages
    kiosk.execute(Advance())
    kiosk.execute(Concede(seat=4))
    kiosk.go("table")
    kiosk.redraw()
    pc = kiosk.state.planechase
    assert pc.markers == (0, 4) and len(pc.face_up) == 2
    kiosk.dispatch(Press(Button.NEXT))  # to the end of A1's turn
    while kiosk.state.active == 0:
        kiosk.dispatch(Press(Button.NEXT))
    kiosk.redraw()
    assert kiosk.state.planechase.markers == (1, 5)
    assert kiosk.state.player(5).in_game and len(kiosk.state.planechase.face_up) == 2
    for _ in range(
        30
    ):  # a whole round: every marker moves on once a turn, nobody's turn is skipped
        before = kiosk.state.active
        kiosk.dispatch(Press(Button.NEXT))
        if kiosk.state.active != before:
            markers = kiosk.state.planechase.markers
            assert markers[0] == kiosk.state.active
    kiosk.redraw()
    assert not kiosk.ui.error
