"""Life changes on the kiosk: who a change comes from, and the table's change in the making
(LF-1, LF-2, LF-4).

On the table the encoder (↑/↓, +/−, PgUp/PgDn), or a touch on the upper or lower half of a seat,
changes the highlighted seat's life at once on screen: the change is *pending* — the seat shows
the total it will have and the change, in the cursor's colour — and every further step for the
same seat adds to it.  It is made as one ``ChangeLife`` (one change in the journal, one UNDO)
``PAUSE`` seconds after the last step, or at once before anything else happens: another seat
highlighted, another screen, a command from any button, key, touch or card.  So NEXT pressed
while a change shows makes it and then passes the turn, exactly as if the pause had run out.
UNDO drops it instead, saying what it took back, as it would had the change been made; the
adjust screen takes it over (NEXT held on the table, key A, the LIFE button), for poison,
commander damage or another source.  See docs/decisions/0016-life-at-one-touch.md.

A change the rules would refuse (a seat whose player has left, a minion's damage to their
master, more than 999 at once) is refused at the step that asked for it: each step is previewed
(``Host.preview``), never kept until it is made.

The source of a change is the active player's unless the seat is their own (``default_source``,
the adjust screen's default too).  In Two-Headed Giant a team's two seats share one life total,
so both show the change.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from device.commands import ChangeLife
from device.rules.life import commander_names
from device.rules.teams import team_of, teamed
from device.state import GameState
from device.text import Message, sentences
from display.screens import Host
from display.ui import UiState

#: Seconds after the last step that a pending change is made.
PAUSE = 1.5
#: What a held touch on a seat's half counts (its first step included).
HELD = 10


# --- who a change comes from ------------------------------------------------------------------


def sources(state: GameState, seat: int, counter: str) -> list[tuple[int | None, int]]:
    """Who a change to ``seat`` can come from: nobody or a player still in the game (LF-2: what
    a player owned left with them); for commander damage, each commander of the others."""
    if counter == "commander":
        return [
            (p.seat, index)
            for p in state.players
            if p.seat != seat and p.in_game
            for index in range(len(commander_names(p)))
        ]
    return [(None, 0), *((p.seat, 0) for p in state.in_game())]


def default_source(state: GameState, seat: int, counter: str) -> tuple[int | None, int]:
    """Who a change comes from unless the table says otherwise: most damage comes from the
    player whose turn it is (their first commander); a change to their own seat — in
    Two-Headed Giant, to either seat of the turn's team — is nobody's."""
    options = sources(state, seat, counter)
    own = team_of(state, state.active) if teamed(state) else (state.active,)
    wanted = None if seat in own else state.active
    return next((o for o in options if o[0] == wanted), options[0] if options else (None, 0))


# --- the table's pending change ---------------------------------------------------------------


class PendingLife(Struct, frozen=True):
    """A life change shown on the table but not made yet: whose, by how much, from whom, and
    when it last changed (monotonic seconds; it is made ``PAUSE`` after that)."""

    seat: int
    amount: int
    source: int | None
    since: float

    @property
    def command(self) -> ChangeLife:
        return ChangeLife(seat=self.seat, delta=self.amount, source=self.source)

    @property
    def due(self) -> float:
        return self.since + PAUSE


def pending(ui: UiState) -> PendingLife | None:
    return ui.kept(PendingLife)


def shown_on(ui: UiState, state: GameState, seat: int) -> PendingLife | None:
    """The pending change seat ``seat`` shows: its own, or in Two-Headed Giant its team's (the
    two seats share one life total)."""
    change = pending(ui)
    if change is None:
        return None
    seats = team_of(state, change.seat) if teamed(state) else (change.seat,)
    return change if seat in seats else None


def step(host: Host, seat: int, steps: int) -> None:
    """``steps`` more (or fewer) life for ``seat``, shown at once and made after the pause; a
    change pending for another seat is made first.  A step the rules would refuse is said and
    leaves the change as it was; back to nothing, there is no change any more."""
    current = pending(host.ui)
    if current is not None and current.seat != seat:
        if not commit(host):
            return  # making it brought up a screen of its own (a loss that asks who did it)
        current = None
    state = host.state
    if state is None:
        return
    host.ui.cursor = seat
    if current is None:
        current = PendingLife(seat, 0, default_source(state, seat, "life")[0], host.now())
    moved = replace(current, amount=current.amount + steps, since=host.now())
    if moved.amount == 0:
        host.ui.drop(PendingLife)
    elif host.preview(moved.command) is not None:
        host.ui.put(moved)


def commit(host: Host) -> bool:
    """Make the pending change, if there is one; False when making it brought up another screen
    (a Necromancer loss asks who did it), so what was about to happen waits."""
    current = pending(host.ui)
    if current is None:
        return True
    host.ui.drop(PendingLife)
    shown = host.ui.screen
    host.execute(current.command)
    return host.ui.screen == shown


def drop(host: Host) -> None:
    """UNDO while a change is pending: it is not made, and the status line says what was taken
    back in the words UNDO uses for a change that was made."""
    current = pending(host.ui)
    if current is None:
        return
    host.ui.drop(PendingLife)
    would = host.preview(current.command)
    if would is not None:
        host.say(Message("controller.undid", what=sentences(would.messages)))


def take(ui: UiState) -> PendingLife | None:
    """The pending change, handed over to the adjust screen (and no longer pending)."""
    current = pending(ui)
    ui.drop(PendingLife)
    return current
