"""Conspiracy scenes on the kiosk's own inputs (CJ-1..CJ-5): an event started on the set-up
screen with the encoder, SELECT, NEXT and typed names, and the round run from the Conspiracy
screen's rows and chips."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from device.inputs import Button
from display.kiosk import Kiosk
from display.screens.conspiracy import PickItem
from display.screens.setup import SetupForm, rows
from display.ui import Erase, Focus, Go, Press, Tap, Turn, Type

#: Eleven players in four scripts: pods of 6 and 5 (CJ-1).
ELEVEN = (
    "Alice",
    "Юрий",
    "さくら",
    "Łukasz",
    "Ben",
    "Ольга",
    "はると",
    "Zofia",
    "Marek",
    "Аня",
    "ゆい",
)
#: The round's clock in the scenes: ten minutes before the kiosk's wall clock (tests/display/conftest.py).
EVENT_CLOCK = 1.7e9 - 10 * 60


def _field(k: Kiosk, text: str) -> None:
    """Replace the focused text field's contents, as someone at a keyboard does."""
    form = setup_form(k)
    kind, key = rows(form)[form.row]
    current = form.event if kind == "event" else form.names[int(key)]
    for _ in current or "":
        k.dispatch(Erase())
    k.dispatch(Type(text))


def setup_form(k: Kiosk) -> SetupForm:
    form = k.ui.kept(SetupForm)
    assert form is not None
    return form


def focus(k: Kiosk, kind: str) -> None:
    """→ (the encoder's neighbour key) until the row of ``kind`` has the focus."""
    for _ in range(len(rows(setup_form(k)))):
        if rows(setup_form(k))[setup_form(k).row][0] == kind:
            return
        k.dispatch(Focus(1))
    raise AssertionError(f"no {kind} row")


def start_event(k: Kiosk, name: str | None, players: Sequence[str] | int) -> None:
    """F2, the base format turned to Conspiracy, the event's name typed (None: the default), the
    player count turned, the names typed (a number: the default names), NEXT starts."""
    k.dispatch(Go("setup"))
    for _ in range(20):
        if setup_form(k).base == "conspiracy":
            break
        k.dispatch(Turn(1))
    focus(k, "event")
    if name is not None:
        _field(k, name)
    k.dispatch(Press(Button.NEXT))  # NEXT on a text row goes on to the next row: the count
    count = players if isinstance(players, int) else len(players)
    k.dispatch(Turn(count - setup_form(k).count))
    if not isinstance(players, int):
        for player in players:
            k.dispatch(Focus(1))
            _field(k, player)
    focus(k, "start")
    k.dispatch(Press(Button.NEXT))


def item(kind: str, value: object = None) -> Tap:
    """A touch on a player's row (``seat``) or a chip of the Conspiracy screen."""
    return PickItem(kind, value)


def scene_conspiracy_pods(k: Kiosk) -> None:
    """CJ-1, CJ-2: an event of 11 started on the set-up screen: pods of 6 and 5, with their players."""
    start_event(k, "Kyoto", ELEVEN)


def scene_conspiracy_controls(k: Kiosk) -> None:
    """CJ-4, CJ-5: pod 1 of 2 in round 1, the clock running, a turn said, two players marked."""
    start_event(k, "Kyoto", ELEVEN)
    k.dispatch(Press(Button.SELECT))  # pod 1, already shown: the overview closes
    k.controller.clock = lambda: EVENT_CLOCK
    k.dispatch(item("clock"))
    assert k.state is not None and k.state.conspiracy is not None
    one, two = k.state.conspiracy.groups
    k.dispatch(item("seat", one.order[1]))
    k.dispatch(item("turn", one.order[1]))
    k.dispatch(item("seat", two.order[0]))
    k.dispatch(item("seat", two.order[2]))


#: Ten players: one pod, two groups of five (CJ-1).
TEN = ELEVEN[:10]


def scene_conspiracy_extra(k: Kiosk) -> None:
    """CJ-5: a pod of ten, time called on round 1 (both groups in their extra turns), two
    players of the second group marked to leave together, the cursor on the first chip."""
    start_event(k, "Kyoto", TEN)
    k.controller.clock = lambda: EVENT_CLOCK - 80 * 60
    k.dispatch(item("clock"))
    k.controller.clock = lambda: EVENT_CLOCK
    k.dispatch(item("time"))
    assert k.state is not None and k.state.conspiracy is not None
    two = k.state.conspiracy.groups[1]
    k.dispatch(item("seat", two.order[3]))
    k.dispatch(item("seat", two.order[4]))
    k.dispatch(Turn(1))


def scene_conspiracy_draft(k: Kiosk) -> None:
    """CJ-7: a Group Game Draft of six at one table, one player gone, one marked."""
    from device.commands import NewGame
    from device.rules.conspiracy.commands import LeaveGroup

    k.execute(NewGame(formats=("ggd",), players=TEN[:6], first=TEN[0]))
    k.dispatch(Go("conspiracy"))
    assert k.state is not None and k.state.conspiracy is not None
    group = k.state.conspiracy.groups[0]
    k.execute(LeaveGroup(seats=(group.order[2],)))
    k.dispatch(item("seat", group.order[4]))


CONSPIRACY_SCENES: dict[str, Callable[[Kiosk], None]] = {
    "conspiracy-pods": scene_conspiracy_pods,
    "conspiracy-controls": scene_conspiracy_controls,
    "conspiracy-extra": scene_conspiracy_extra,
    "conspiracy-draft": scene_conspiracy_draft,
}
