"""Contraptions scenes (CT-6, CT-7), each reached through the kiosk's own inputs: commands a
console would send, the buttons and the encoder, and physical cards tapped on the reader."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import NewGame
from device.inputs import Button, TagRead
from device.rules.contraptions.commands import (
    AssembleContraption,
    DeclineAssembly,
    RollContraptionDie,
)
from display.kiosk import Kiosk
from display.ui import Go, Press, Turn

#: Three players in three scripts.
CT_PLAYERS = ("Alice", "Юрий", "さくら")
#: A physical contraption enrolled on the kiosk's tag map by the scenes that tap cards.
CT_TAG = "04C0FFEE"
CT_CARD = "Boomflinger"


def _game(k: Kiosk, variant: str, **options: str) -> None:
    k.execute(
        NewGame(
            formats=("commander", "contraptions"),
            players=CT_PLAYERS,
            first=CT_PLAYERS[0],
            options={"contraptions": variant, **options},
        )
    )


def _next(k: Kiosk, times: int = 1) -> None:
    for _ in range(times):
        k.dispatch(Press(Button.NEXT))


def scene_ct_crank(k: Kiosk) -> None:
    """Base rules: Alice assembled three contraptions in her first turn; in her next upkeep the
    counter moves 3 → 1 and she is putting her crank order together."""
    _game(k, "base")
    _next(k)  # Alice's main phase
    for sprocket in (1, 1, 2):
        k.execute(AssembleContraption(sprocket=sprocket))  # a card said "assemble"
    _next(
        k, 5
    )  # Юрий's and さくら's turns (their machines are stopped), then Alice's: CRANK! 3 → 1
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))  # the second contraption cranks first


def scene_ct_faction(k: Kiosk) -> None:
    """Variant A with two faction dice: the die result and the libraries to choose from."""
    _game(k, "a", faction_dice="2")
    k.dispatch(Press(Button.ROLL))


def scene_ct_shared(k: Kiosk) -> None:
    """Variant B: shared sprockets filled over a few upkeeps, then a die that cranks one."""
    _game(k, "b")
    for turn in range(12):
        state = k.state
        assert state is not None and state.contraptions is not None
        up = state.contraptions.upkeep
        if up is not None and up.stage.value == "crank" and up.turn == state.turn:
            return
        k.dispatch(Press(Button.ROLL))
        while (
            k.state is not None
            and k.state.contraptions is not None
            and k.state.contraptions.assembly is not None
        ):
            if turn % 3:
                k.dispatch(Turn(turn % 3))  # the encoder spreads them over the sprockets
            k.dispatch(Press(Button.SELECT))
        state = k.state
        assert state is not None and state.contraptions is not None
        up = state.contraptions.upkeep
        if up is not None and up.stage.value == "crank":
            return
        _next(k, 2)
    raise AssertionError("no crank came up")


def scene_ct_place(k: Kiosk) -> None:
    """Variant C with real cards: Alice pays for an assembly roll, taps the card she keeps and
    turns the encoder to sprocket 2 (it waits for SELECT)."""
    _game(k, "c", contraption_cards="physical")
    tags = k.controller.tags
    assert tags is not None
    tags.add(CT_TAG, CT_CARD)
    _next(k)  # Alice's main phase
    k.dispatch(Press(Button.ROLL))
    k.handle_input(TagRead(CT_TAG))
    k.dispatch(Turn(1))


def scene_ct_manage(k: Kiosk) -> None:
    """Base rules, virtual decks: Alice assembled two contraptions (a card said so, through the
    screen's chip); on Юрий's turn one of hers is picked to leave or move."""
    _game(k, "base")
    _next(k)  # Alice's main phase
    k.dispatch(Go("contraptions"))
    for sprocket in (1, 2):
        k.dispatch(Press(Button.SELECT))  # "A card says: assemble"
        k.dispatch(Press(Button.SELECT))  # Alice assembles
        if sprocket == 2:
            k.dispatch(Turn(1))
        k.dispatch(Press(Button.SELECT))  # onto the highlighted sprocket
    _next(k, 2)  # Юрий's main phase
    k.dispatch(Go("contraptions"))
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))  # "A contraption leaves or moves"
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))  # the second one


def _past_the_faction_die(k: Kiosk) -> None:
    """Variant A: Alice's upkeep die rolled and every library it offered declined; her main phase."""
    k.execute(RollContraptionDie())
    while (
        k.state is not None
        and k.state.contraptions is not None
        and k.state.contraptions.assembly is not None
    ):
        k.execute(DeclineAssembly())
    _next(k)


def scene_ct_library(k: Kiosk) -> None:
    """CT-A1, CT-3: in variant A a card tells Юрий to assemble: the five faction libraries as
    chips, the cursor on the third (League of Dastardly Doom)."""
    _game(k, "a")
    _past_the_faction_die(k)
    k.dispatch(Go("contraptions"))
    k.dispatch(Press(Button.SELECT))  # "A card says: assemble"
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))  # Юрий assembles
    k.dispatch(Turn(2))


def scene_ct_factions(k: Kiosk) -> None:
    """CT-A1: variant A with nothing to decide: the faction libraries' top cards, face up."""
    _game(k, "a")
    _past_the_faction_die(k)
    k.dispatch(Go("contraptions"))


def scene_ct_look(k: Kiosk) -> None:
    """CT-C2: Alice's paid assembly roll; of the cards she looks at, the first is kept and the
    second goes back on top: then the sprockets to put it on."""
    _game(k, "c")
    _next(k)  # Alice's main phase
    k.dispatch(Go("contraptions"))
    k.dispatch(Press(Button.ROLL))
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))


def scene_ct_which(k: Kiosk) -> None:
    """CT-5: "A contraption leaves or moves" with four assembled: which one?"""
    _game(k, "base")
    _next(k)  # Alice's main phase
    for sprocket in (1, 1, 2, 3):
        k.execute(AssembleContraption(sprocket=sprocket))
    k.dispatch(Go("contraptions"))
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Turn(3))


def scene_ct_roll(k: Kiosk) -> None:
    """CT-B2: Alice's upkeep in variant B: the die is due."""
    _game(k, "b")
    k.dispatch(Go("contraptions"))


def scene_ct_tap(k: Kiosk) -> None:
    """CT-C2, CT-6: with real cards, the paid roll is made and the gadget waits for the card."""
    _game(k, "c", contraption_cards="physical")
    _next(k)
    k.dispatch(Press(Button.ROLL))


def scene_ct_paid(k: Kiosk) -> None:
    """CT-C2, CT-C3: variant C's main phase with two assembled: a paid roll, "assemble", "leaves
    or moves"."""
    _game(k, "c")
    _next(k)
    for sprocket in (1, 3):
        k.execute(AssembleContraption(sprocket=sprocket))
    k.dispatch(Go("contraptions"))


CONTRAPTION_SCENES: dict[str, Callable[[Kiosk], None]] = {
    "ct_crank": scene_ct_crank,
    "ct_faction": scene_ct_faction,
    "ct_shared": scene_ct_shared,
    "ct_place": scene_ct_place,
    "ct_manage": scene_ct_manage,
    "ct_library": scene_ct_library,
    "ct_factions": scene_ct_factions,
    "ct_look": scene_ct_look,
    "ct_which": scene_ct_which,
    "ct_roll": scene_ct_roll,
    "ct_tap": scene_ct_tap,
    "ct_paid": scene_ct_paid,
}
