"""Contraptions: SPEC section 2 (CT-1..CT-7, CT-A1..A4, CT-B1..B3, CT-C1..C3) through the controller."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from device.catalog import load_catalog
from device.commands import Advance, Command, NewGame, PassTurn
from device.controller import Controller
from device.errors import IllegalCommand
from device.inputs import Button, ButtonPressed
from device.journal import Journal
from device.rules.contraptions.decks import deck_problems
from device.rules.contraptions.queries import controlled
from device.rules.contraptions.commands import (
    AssembleContraption,
    CopyEnters,
    CrankContraptions,
    DeclineAssembly,
    ExileContraption,
    KeepLooked,
    PlaceContraption,
    ReassembleContraption,
    RollContraptionDie,
    ScrapContraption,
    SetContraptionDeck,
    UnexileContraption,
)
from device.rules.contraptions.events import ContraptionsSetUp
from device.rules.contraptions.view import upkeep_view
from device.rules.contraptions.state import ContraptionsState, Stage
from helpers import refused, state

ALICE, BOB, CAROL = 0, 1, 2
CATALOG = load_catalog()
CONTRAPTIONS = CATALOG.contraptions().names


class Loaded(random.Random):
    """A seeded rng whose die rolls come from a list first (shuffles stay seeded)."""

    def __init__(self, faces: Sequence[int] = (), seed: int = 7) -> None:
        super().__init__(seed)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0) if self.faces else super().randint(a, b)


def game(journal: Journal, faces: Sequence[int] = (), **options: str) -> Controller:
    controller = Controller(journal, rng=Loaded(faces))
    controller.execute(
        NewGame(
            formats=("ffa", "contraptions"),
            players=("Alice", "Bob", "Carol"),
            first="Alice",
            options=options,
        )
    )
    return controller


def ct(controller: Controller) -> ContraptionsState:
    assert controller.state is not None and controller.state.contraptions is not None
    return controller.state.contraptions


def say(controller: Controller, command: Command) -> list[str]:
    return [str(m) for m in controller.execute(command).messages]


def to_turn_of(controller: Controller, seat: int) -> list[str]:
    """Pass turns until ``seat``'s upkeep; the messages of the last pass."""
    messages: list[str] = []
    while True:
        messages = say(controller, PassTurn())
        if state(controller).active == seat:
            return messages


def top(controller: Controller, library: int = 0) -> str:
    return ct(controller).libraries[library].cards[0]


# --- base rules ---------------------------------------------------------------------------------


def test_ct1_each_player_gets_a_legal_shuffled_deck_and_may_set_their_own(journal: Journal) -> None:
    """CT-1: ≥ 15 contraptions, no name twice, shuffled face down; problems are values."""
    controller = game(journal)
    for seat, library in enumerate(ct(controller).libraries):
        assert library.owner == seat and len(library.cards) == 15 and len(set(library.cards)) == 15
        assert deck_problems(library.cards) == ()
    short = CONTRAPTIONS[:13] + (CONTRAPTIONS[0], "Tazeem")
    assert [str(p) for p in deck_problems(short)] == [
        "Accessories to Murder is in it 2 times, but no two may share a name",
        "'Tazeem' is not a contraption",
    ]
    assert [str(p) for p in deck_problems(CONTRAPTIONS[:14])] == [
        "it has 14 cards, at least 15 are needed"
    ]
    assert refused(controller, SetContraptionDeck(seat=BOB, cards=short)) == (
        "Bob's contraption deck is not legal: Accessories to Murder is in it 2 times, but no two may share a "
        "name; 'Tazeem' is not a contraption."
    )
    mine = CONTRAPTIONS[10:26]
    assert say(controller, SetContraptionDeck(seat=BOB, cards=mine)) == [
        "Bob's contraption deck: 16 cards, shuffled."
    ]
    dealt = ct(controller).libraries[BOB].cards
    assert sorted(dealt) == sorted(mine) and dealt != mine
    say(controller, AssembleContraption(seat=BOB, sprocket=1))
    assert refused(controller, SetContraptionDeck(seat=BOB, cards=mine)) == (
        "Bob has assembled from their deck already; a deck is set before the first assembly."
    )


def test_ct2_three_sprockets_and_the_counter_starts_on_3(journal: Journal) -> None:
    """CT-2: sprockets 1–3 per player, CRANK! counter on 3."""
    controller = game(journal)
    assert ct(controller).counters == (3, 3, 3)
    assert (
        refused(controller, AssembleContraption(sprocket=4))
        == "There are sprockets 1, 2 and 3; 4 given."
    )


def test_ct3_assemble_reveals_the_top_card_onto_a_chosen_sprocket(journal: Journal) -> None:
    """CT-3: reveal the top card of your contraption deck, put it onto a sprocket of your choice."""
    controller = game(journal)
    card = top(controller, ALICE)
    assert say(controller, AssembleContraption()) == [
        "Alice assembles from Alice's contraption deck.",
        f"Alice reveals {card} from Alice's contraption deck: choose its sprocket.",
    ]
    assert say(controller, PlaceContraption(sprocket=2)) == [
        f"Alice assembles {card} onto Alice's sprocket 2."
    ]
    assert [(a.card, a.owner, a.board, a.sprocket) for a in ct(controller).assembled] == [
        (card, ALICE, ALICE, 2)
    ]
    assert (
        card not in ct(controller).libraries[ALICE].cards
        and len(ct(controller).libraries[ALICE].cards) == 14
    )


def test_ct3_assembling_from_an_empty_deck_does_nothing_and_is_not_a_loss(journal: Journal) -> None:
    """CT-3: an empty contraption deck: nothing happens, nobody loses."""
    controller = game(journal)
    for _ in range(15):
        say(controller, AssembleContraption(seat=CAROL, sprocket=3))
    assert ct(controller).libraries[CAROL].cards == ()
    assert say(controller, AssembleContraption(seat=CAROL)) == [
        "Carol assembles from Carol's contraption deck.",
        "Nothing to assemble: Carol's contraption deck is empty.",
    ]
    assert ct(controller).assembly is None and state(controller).player(CAROL).in_game


def test_ct4_first_move_is_3_to_1_then_cycles_and_the_player_picks_what_cranks(
    journal: Journal,
) -> None:
    """CT-4 (seed scenario): the first upkeep with an assembled contraption moves 3 → 1; then
    1 → 2 → 3 → 1; the player cranks any number on that sprocket in the order they choose."""
    controller = game(journal)
    first, second = top(controller, ALICE), ct(controller).libraries[ALICE].cards[1]
    say(controller, AssembleContraption(sprocket=1))
    say(controller, AssembleContraption(sprocket=1))
    assert to_turn_of(controller, ALICE) == [
        "Turn 4: Alice's upkeep.",
        f"Alice's CRANK! counter moves 3 → 1: Alice may crank any of {first}, {second} on sprocket 1.",
    ]
    assert refused(controller, CrankContraptions(cards=(first, first))) == (
        f"{first} is named twice; each contraption cranks once."
    )
    other = ct(controller).libraries[ALICE].cards[0]
    assert refused(controller, CrankContraptions(cards=(other,))) == (
        f"{other} is not a contraption Alice can crank on sprocket 1; there: {first}, {second}."
    )
    assert say(controller, CrankContraptions(cards=(second, first))) == [
        f"Alice cranks {second}, {first} (sprocket 1); their abilities trigger in that order."
    ]
    assert refused(controller, CrankContraptions(cards=())).startswith("Nothing to crank now")
    moves = []
    for _ in range(3):
        messages = to_turn_of(controller, ALICE)
        moves.append(messages[1].split(":")[0])
    assert moves == [
        "Alice's CRANK! counter moves 1 → 2",
        "Alice's CRANK! counter moves 2 → 3",
        "Alice's CRANK! counter moves 3 → 1",
    ]
    assert ct(controller).counters == (1, 3, 3)  # the others never had a contraption


def test_ct4_without_an_assembled_contraption_the_machine_stops(journal: Journal) -> None:
    """CT-4: no assembled contraption, no counter move."""
    controller = game(journal)
    card = top(controller, ALICE)
    say(controller, AssembleContraption(sprocket=2))
    to_turn_of(controller, ALICE)
    assert ct(controller).counters[ALICE] == 1
    say(controller, ScrapContraption(card=card))
    assert to_turn_of(controller, ALICE) == ["Turn 7: Alice's upkeep."]
    assert ct(controller).counters[ALICE] == 1
    view = upkeep_view(state(controller))
    assert view is not None and view.moved_to is None
    assert [str(m) for m in view.banner] == ["Machine stopped: no assembled contraption"]


def test_ct5_leaving_the_battlefield_goes_to_the_scrapyard_exile_is_the_exception(
    journal: Journal,
) -> None:
    """CT-5: scrapyard instead of any zone but exile; an unassembled arrival (from exile, a copy)
    goes to the scrapyard; reassembling moves a contraption to another sprocket."""
    controller = game(journal)
    a, b = top(controller, ALICE), ct(controller).libraries[ALICE].cards[1]
    say(controller, AssembleContraption(sprocket=1))
    say(controller, AssembleContraption(sprocket=2))
    assert refused(controller, ReassembleContraption(sprocket=1, card=a)) == (
        f"{a} is on sprocket 1 already; reassemble it onto another one."
    )
    assert say(controller, ReassembleContraption(sprocket=3, card=a)) == [
        f"{a} is reassembled: sprocket 1 → 3."
    ]
    assert say(controller, ScrapContraption(card=a)) == [f"{a} goes to Alice's scrapyard."]
    assert say(controller, ExileContraption(card=b)) == [f"{b} is exiled."]
    assert refused(controller, ScrapContraption(card=b)) == f"{b} is not assembled."
    assert say(controller, UnexileContraption(card=b)) == [
        f"{b} returns from exile without being assembled: it goes to Alice's scrapyard."
    ]
    assert say(controller, CopyEnters(card="Boomflinger", owner=BOB)) == [
        "A copy of Boomflinger enters without being assembled: it goes to Bob's scrapyard "
        "(a copy that is not a contraption goes to the graveyard)."
    ]
    assert [(g.card, g.owner, g.is_copy) for g in ct(controller).scrapyard] == [
        (a, ALICE, False),
        (b, ALICE, False),
        ("Boomflinger", BOB, True),
    ]
    assert ct(controller).assembled == () and ct(controller).exile == ()


def test_ct5_two_players_owning_the_same_contraption_are_told_apart(journal: Journal) -> None:
    controller = game(journal)
    deck = CONTRAPTIONS[:15]
    say(controller, SetContraptionDeck(seat=ALICE, cards=deck))
    say(controller, SetContraptionDeck(seat=BOB, cards=deck))
    card = top(controller, ALICE)
    say(controller, AssembleContraption(seat=ALICE, sprocket=1))
    while top(controller, BOB) != card:
        say(controller, AssembleContraption(seat=BOB, sprocket=2))
    say(controller, AssembleContraption(seat=BOB, sprocket=2))
    assert (
        refused(controller, ScrapContraption(card=card))
        == f"{card} is assembled for Alice and Bob: say whose."
    )
    assert say(controller, ScrapContraption(card=card, owner=BOB)) == [
        f"{card} goes to Bob's scrapyard."
    ]
    assert [(a.card, a.owner) for a in ct(controller).assembled if a.card == card] == [
        (card, ALICE)
    ]


# --- variant A: faction dice ------------------------------------------------------------------


def test_cta1_five_shared_faction_libraries_of_nine(journal: Journal) -> None:
    """CT-A1: the 45 split by watermark into five face-up libraries of 9; own sprockets each."""
    controller = game(journal, contraptions="a")
    libraries = ct(controller).libraries
    assert [lib.faction for lib in libraries] == [1, 2, 3, 4, 5]
    for library in libraries:
        assert len(library.cards) == 9
        assert {CATALOG.get(c).faction_number for c in library.cards} == {library.faction}  # type: ignore[union-attr]
    assert ct(controller).counters == (3, 3, 3)


def test_cta2_the_die_picks_the_library_and_a_six_any(journal: Journal) -> None:
    """CT-A2: d6 1–5 assembles from that library; 6 lets the player pick."""
    controller = game(journal, faces=[3, 6], contraptions="a")
    card = top(controller, 2)
    assert (
        refused(controller, AssembleContraption(library=1, sprocket=1))
        == "Roll the contraption die for Alice's upkeep first."
    )
    result = controller.handle(ButtonPressed(Button.ROLL))
    assert result is not None and [str(m) for m in result.messages] == [
        "Alice rolls the faction die: 3; assemble from library 3 (League of Dastardly Doom).",
        f"Alice reveals {card} from library 3 (League of Dastardly Doom): choose its sprocket.",
    ]
    assert refused(controller, RollContraptionDie()) == (
        "The contraption die is rolled at the start of an upkeep, once: Alice rolled it this upkeep already (3)."
    )
    assert say(controller, PlaceContraption(sprocket=2)) == [
        f"Alice assembles {card} onto Alice's sprocket 2.",
        "Alice's CRANK! counter moves 3 → 1: sprocket 1 is empty, nothing cranks.",
    ]
    say(controller, PassTurn())
    say(controller, RollContraptionDie())
    assert (
        refused(controller, AssembleContraption())
        == "Say which faction library to assemble from (1–5)."
    )
    card = top(controller, 4)
    assert say(controller, AssembleContraption(library=5, sprocket=3)) == [
        "Bob assembles from library 5 (Crossbreed Labs).",
        f"Bob assembles {card} onto Bob's sprocket 3.",
        "Bob's CRANK! counter moves 3 → 1: sprocket 1 is empty, nothing cranks.",
    ]


@pytest.mark.parametrize(
    ("declined", "where"),
    [
        ("bottom", "the bottom of library 2 (Agents of S.N.E.A.K.)"),
        ("scrapyard", "their scrapyard"),
    ],
)
def test_cta2_a_declined_card_goes_to_the_bottom_or_by_option_the_scrapyard(
    journal: Journal, declined: str, where: str
) -> None:
    """CT-A2: a card not assembled goes to the bottom of its library (table option: scrapyard)."""
    controller = game(journal, faces=[2], contraptions="a", declined=declined)
    card = top(controller, 1)
    say(controller, RollContraptionDie())
    assert say(controller, DeclineAssembly()) == [
        f"Alice does not assemble {card}: it goes to {where}.",
        "Alice controls no assembled contraption: the machine stops, the CRANK! counter stays on 3.",
    ]
    library = ct(controller).libraries[1].cards
    if declined == "bottom":
        assert library[-1] == card and len(library) == 9
    else:
        assert card not in library and [g.card for g in ct(controller).scrapyard] == [card]
    assert ct(controller).upkeep is not None and ct(controller).upkeep.stage is Stage.DONE  # type: ignore[union-attr]
    assert ct(controller).counters[ALICE] == 3  # nothing assembled: the machine does not run


def test_cta3_two_dice_pick_one_and_assembling_is_mandatory(journal: Journal) -> None:
    """CT-A3: roll 2 (or 3) dice, use one value; then the player must assemble."""
    controller = game(journal, faces=[1, 4], contraptions="a", faction_dice="2")
    assert say(controller, RollContraptionDie()) == [
        "Alice rolls 2 faction dice: 1, 4; assemble from library 1 (Order of the Widget) or "
        "library 4 (Goblin Explosioneers)."
    ]
    assert refused(controller, DeclineAssembly()) == (
        "With 2 faction dice assembling is mandatory (CT-A3): assemble from library 1 (Order of the Widget) or "
        "library 4 (Goblin Explosioneers)."
    )
    assert refused(controller, AssembleContraption(library=2)) == (
        "The die allows library 1 (Order of the Widget) or library 4 (Goblin Explosioneers); "
        "library 2 (Agents of S.N.E.A.K.) is not one of them."
    )
    card = top(controller, 3)
    say(controller, AssembleContraption(library=4))
    assert (
        say(controller, PlaceContraption(sprocket=1))[0]
        == f"Alice assembles {card} onto Alice's sprocket 1."
    )


def test_cta3_a_mandatory_assembly_cannot_lapse(journal: Journal) -> None:
    """CT-A3: with two faction dice NEXT (from the upkeep to the main phase, then to pass the
    turn) and 'pass' cannot let the assembly lapse: passing is refused with what is still
    required, in the main phase as in the upkeep; once assembled the turn passes."""
    controller = game(journal, faces=[1, 4], contraptions="a", faction_dice="2")
    say(controller, RollContraptionDie())
    required = (
        "With 2 faction dice assembling is mandatory (CT-A3): assemble from library 1 (Order of the Widget) "
        "or library 4 (Goblin Explosioneers)."
    )
    controller.execute(Advance())  # to the main phase: the assembly still waits
    assert refused(controller, Advance()) == required
    assert refused(controller, PassTurn()) == required
    with pytest.raises(IllegalCommand, match="assembling is mandatory"):
        controller.press(ButtonPressed(Button.NEXT))  # the big button, as at the table
    turn = controller.state.turn  # type: ignore[union-attr]
    card = top(controller, 3)
    say(controller, AssembleContraption(library=4))
    assert (
        refused(controller, PassTurn())
        == f"{card} is waiting for a sprocket: place it or decline it first."
    )
    say(controller, PlaceContraption(sprocket=1))
    controller.execute(PassTurn())
    assert controller.state.turn == turn + 1  # type: ignore[union-attr]


def test_cta4_a_just_assembled_contraption_cranks_the_same_upkeep(journal: Journal) -> None:
    """CT-A4 (seed scenario): the counter moves after the upkeep assembly, so the new contraption
    can crank in the same upkeep, even on the player's first turn."""
    controller = game(journal, faces=[5], contraptions="a")
    card = top(controller, 4)
    say(controller, RollContraptionDie())
    assert say(controller, PlaceContraption(sprocket=1)) == [
        f"Alice assembles {card} onto Alice's sprocket 1.",
        f"Alice's CRANK! counter moves 3 → 1: Alice may crank any of {card} on sprocket 1.",
    ]
    view = upkeep_view(state(controller))
    assert view is not None
    assert (view.moved_from, view.moved_to, view.sprocket, view.cranking, view.faces) == (
        3,
        1,
        1,
        (card,),
        (5,),
    )
    assert [str(m) for m in view.banner] == ["Crank sprocket 1"]
    assert say(controller, CrankContraptions(cards=(card,))) == [
        f"Alice cranks {card} (sprocket 1); their abilities trigger in that order."
    ]


# --- variant B: full random ---------------------------------------------------------------------


def test_ctb1_one_shared_deck_and_shared_sprockets(journal: Journal) -> None:
    """CT-B1: one face-down deck of the 45, sprockets shared by the table."""
    controller = game(journal, faces=[4], contraptions="b")
    assert len(ct(controller).libraries) == 1 and sorted(
        ct(controller).libraries[0].cards
    ) == sorted(CONTRAPTIONS)
    assert ct(controller).counters == ()
    card = top(controller)
    say(controller, RollContraptionDie())
    assert say(controller, PlaceContraption(sprocket=3)) == [
        f"Alice assembles {card} onto the shared sprocket 3."
    ]
    assert [(a.owner, a.board) for a in ct(controller).assembled] == [(ALICE, None)]


def test_ctb2_a_roll_of_5_assembles_two_onto_different_sprockets(journal: Journal) -> None:
    """CT-B2 (seed scenario): 4, 5, 6 assemble 1, 2, 3; each onto any sprocket; no counter move."""
    controller = game(journal, faces=[5], contraptions="b")
    first, second = ct(controller).libraries[0].cards[:2]
    assert say(controller, RollContraptionDie()) == [
        "Alice rolls 5: assemble 2.",
        f"Alice reveals {first} from the shared contraption deck: choose its sprocket.",
    ]
    assert say(controller, PlaceContraption(sprocket=1)) == [
        f"Alice assembles {first} onto the shared sprocket 1.",
        f"Alice reveals {second} from the shared contraption deck: choose its sprocket.",
    ]
    assert say(controller, PlaceContraption(sprocket=3)) == [
        f"Alice assembles {second} onto the shared sprocket 3."
    ]
    assert [(a.card, a.sprocket) for a in ct(controller).assembled] == [(first, 1), (second, 3)]
    assert ct(controller).assembly is None and ct(controller).upkeep.stage is Stage.DONE  # type: ignore[union-attr]


def test_ctb2_and_b3_a_low_roll_cranks_that_sprocket_and_gives_control_of_it_only(
    journal: Journal,
) -> None:
    """CT-B2: 1–3 crank that sprocket; CT-B3: control only of the cranked sprocket this turn."""
    controller = game(journal, faces=[6, 3], contraptions="b")
    cards = list(ct(controller).libraries[0].cards[:3])
    say(controller, RollContraptionDie())
    for sprocket in (3, 3, 1):
        say(controller, PlaceContraption(sprocket=sprocket))
    on_three = cards[:2]
    assert controlled(state(controller), ALICE) == ()
    say(controller, PassTurn())
    assert say(controller, RollContraptionDie()) == [
        f"Bob rolls 3: crank sprocket 3. Bob may crank any of {', '.join(on_three)} on sprocket 3."
    ]
    assert [a.card for a in controlled(state(controller), BOB)] == on_three
    assert controlled(state(controller), ALICE) == ()
    say(controller, CrankContraptions(cards=(on_three[1],)))
    say(controller, PassTurn())
    assert controlled(state(controller), BOB) == ()


# --- variant C: planar-style --------------------------------------------------------------------


def test_ctc1_the_shared_counter_moves_whoever_assembled(journal: Journal) -> None:
    """CT-C1: the counter moves if any sprocket holds a contraption; the active player cranks and
    controls the current sprocket; the assembler owns."""
    controller = game(journal, contraptions="c")
    card = top(controller)
    say(controller, AssembleContraption(sprocket=1))
    assert say(controller, PassTurn()) == [
        "Turn 2: Bob's upkeep.",
        f"The CRANK! counter moves 3 → 1: Bob may crank any of {card} on sprocket 1.",
    ]
    assert [a.card for a in controlled(state(controller), BOB)] == [card]
    assert controlled(state(controller), ALICE) == ()
    assert ct(controller).assembled[0].owner == ALICE
    say(controller, CrankContraptions(cards=(card,)))


def test_ctc2_paid_rolls_cost_2_then_one_more_and_only_in_the_main_phase(journal: Journal) -> None:
    """CT-C2 (seed scenario): the third roll in a turn costs {4}; look at the top N, assemble one,
    order the rest on top and bottom."""
    controller = game(journal, faces=[1, 1, 3], contraptions="c")
    assert refused(controller, RollContraptionDie()) == (
        "An assembly roll is paid for in the active player's main phase (CT-C2); press NEXT to reach Alice's main phase."
    )
    say(controller, Advance())
    deck = ct(controller).libraries[0].cards
    assert say(controller, RollContraptionDie()) == [
        f"Alice pays {{2}} for assembly roll 1 this turn and rolls 1: look at the top card: {deck[0]}."
    ]
    assert refused(controller, RollContraptionDie()).startswith(
        "Alice is assembling already: Assemble the top card"
    )
    say(controller, KeepLooked(card=deck[0], sprocket=2))
    assert say(controller, RollContraptionDie())[0].startswith(
        "Alice pays {3} for assembly roll 2 this turn and rolls 1"
    )
    say(controller, DeclineAssembly())
    deck = ct(controller).libraries[0].cards
    assert say(controller, RollContraptionDie()) == [
        f"Alice pays {{4}} for assembly roll 3 this turn and rolls 3: look at the top 3: {', '.join(deck[:3])}."
    ]
    assert refused(controller, KeepLooked(card=deck[1], sprocket=1, top=(deck[1],))) == (
        f"{deck[1]} cannot both be assembled and go back on top."
    )
    assert say(controller, KeepLooked(card=deck[1], sprocket=1, top=(deck[2],))) == [
        f"Alice assembles {deck[1]} onto the shared sprocket 1.",
        f"{deck[2]} back on top of the shared deck, {deck[0]} at the bottom.",
    ]
    after = ct(controller).libraries[0].cards
    assert after[0] == deck[2] and after[-1] == deck[0] and after[1:-1] == deck[3:]
    say(controller, PassTurn())
    say(controller, Advance())
    assert say(controller, RollContraptionDie())[0].startswith(
        "Bob pays {2} for assembly roll 1 this turn"
    )


def test_ctc3_a_card_that_says_assemble_uses_the_base_rule(journal: Journal) -> None:
    """CT-C3: top card of the shared deck, sprocket of choice, no die."""
    controller = game(journal, contraptions="c")
    card = top(controller)
    assert say(controller, AssembleContraption(seat=CAROL, sprocket=3)) == [
        "Carol assembles from the shared contraption deck.",
        f"Carol assembles {card} onto the shared sprocket 3.",
    ]
    assert ct(controller).rolls == 0


# --- physical and virtual cards -----------------------------------------------------------------


def test_ct6_a_tapped_card_waits_for_its_sprocket_and_select_places_it(journal: Journal) -> None:
    """CT-6: the revealed card is tapped, then the sprocket is picked with a button."""
    controller = game(journal, faces=[2], contraptions="a", contraption_cards="physical")
    assert [str(m) for m in controller.execute(RollContraptionDie()).messages] == [
        "Alice rolls the faction die: 2; assemble from library 2 (Agents of S.N.E.A.K.)."
    ]
    assert str(_identify_refused(controller, "Boomflinger")) == (
        "Boomflinger is in library 4 (Goblin Explosioneers), not in library 2 (Agents of S.N.E.A.K.)."
    )
    assert str(_identify_refused(controller, "Tazeem")) == "Tazeem is a plane, not a contraption."
    assert [str(m) for m in controller.identify(CATALOG.find("Faerie Aerie")).messages] == [
        "Faerie Aerie for Alice: choose its sprocket."
    ]
    view = upkeep_view(state(controller))
    assert view is not None and [str(m) for m in view.banner] == [
        "Choose a sprocket for Faerie Aerie"
    ]
    held = controller.handle(ButtonPressed(Button.SELECT, long=True))
    assert held is not None and [str(m) for m in held.messages] == [
        "Sprocket 2 is chosen for Faerie Aerie."
    ]
    placed = controller.handle(ButtonPressed(Button.SELECT))
    assert placed is not None and [str(m) for m in placed.messages] == [
        "Alice assembles Faerie Aerie onto Alice's sprocket 2.",
        "Alice's CRANK! counter moves 3 → 1: sprocket 1 is empty, nothing cranks.",
    ]
    assert "Faerie Aerie" not in ct(controller).libraries[1].cards
    assert [str(m) for m in controller.identify(CATALOG.find("Faerie Aerie")).messages] == [
        "Faerie Aerie (Alice's, sprocket 2): scrap it, or reassemble it onto another sprocket."
    ]
    assert say(controller, ReassembleContraption(sprocket=1)) == [
        "Faerie Aerie is reassembled: sprocket 2 → 1."
    ]
    assert say(controller, ScrapContraption()) == ["Faerie Aerie goes to Alice's scrapyard."]
    assert str(_identify_refused(controller, "Faerie Aerie")) == (
        "Faerie Aerie is in Alice's scrapyard: nothing brings a contraption back from there."
    )


def _identify_refused(controller: Controller, name: str) -> IllegalCommand:
    before = controller.state
    with pytest.raises(IllegalCommand) as error:
        controller.identify(CATALOG.find(name))
    assert controller.state == before
    return error.value


def test_ct6_a_tap_with_nothing_announced_is_a_card_saying_assemble(journal: Journal) -> None:
    """CT-6 base rules, physical deck: a tapped card of the active player's deck is assembled;
    one assembled already is offered for scrapping."""
    controller = game(journal, contraption_cards="physical")
    assert ct(controller).libraries[ALICE].open
    assert [str(m) for m in controller.identify(CATALOG.find("Tread Mill")).messages] == [
        "Alice assembles: tap or name the revealed card from Alice's contraption deck.",
        "Tread Mill for Alice: choose its sprocket.",
    ]
    assert str(_identify_refused(controller, "Arms Depot")) == (
        "Alice is assembling already: Choose a sprocket for Tread Mill"
    )
    say(controller, PlaceContraption(sprocket=3))
    assert [str(m) for m in controller.identify(CATALOG.find("Tread Mill")).messages] == [
        "Tread Mill (Alice's, sprocket 3): scrap it, or reassemble it onto another sprocket."
    ]


def test_ct6_virtual_decks_refuse_taps_of_unassembled_cards_and_keep_the_shuffle_in_events(
    journal: Journal,
) -> None:
    """CT-6: without real cards the gadget keeps the decks; the shuffle is inside the events."""
    controller = game(journal, contraptions="b")
    assert str(_identify_refused(controller, "Tread Mill")) == (
        "This game uses the gadget's virtual contraption decks: 'assemble' reveals the top card. Tap only an "
        "assembled contraption, to scrap or reassemble it."
    )
    setup = [e for _, e in journal.events(controller.game or 0) if isinstance(e, ContraptionsSetUp)]
    assert len(setup) == 1 and setup[0].libraries == ct(controller).libraries
    assert journal.replay(controller.game or 0) == controller.state


def test_ct7_the_upkeep_banner_says_what_to_do(journal: Journal) -> None:
    """CT-7: counter move and the cranking sprocket's contraptions, plus banner items."""
    controller = game(journal, faces=[6], contraptions="a")
    view = upkeep_view(state(controller))
    assert view is not None and [str(m) for m in view.banner] == ["Roll the contraption die"]
    say(controller, RollContraptionDie())
    view = upkeep_view(state(controller))
    assert view is not None and [str(m) for m in view.banner] == [
        "Assemble from library 1 (Order of the Widget) or library 2 (Agents of S.N.E.A.K.) or library 3 (League "
        "of Dastardly Doom) or library 4 (Goblin Explosioneers) or library 5 (Crossbreed Labs)",
    ]
    say(controller, DeclineAssembly())
    view = upkeep_view(state(controller))
    assert view is not None and [str(m) for m in view.banner] == [
        "Machine stopped: no assembled contraption"
    ]


def test_turn_passing_lapses_an_unfinished_assembly(journal: Journal) -> None:
    controller = game(journal, faces=[4], contraptions="a")
    card = top(controller, 3)
    say(controller, RollContraptionDie())
    assert say(controller, PassTurn()) == [
        "Turn 2: Bob's upkeep.",
        f"Alice does not assemble {card}: it goes to the bottom of library 4 (Goblin Explosioneers).",
        "Bob's upkeep: roll the contraption die (ROLL).",
    ]
    assert ct(controller).assembly is None


def test_contraption_commands_need_the_module(controller: Controller) -> None:
    controller.execute(NewGame(formats=("ffa",), players=("Alice", "Bob"), first="Alice"))
    with pytest.raises(IllegalCommand) as error:
        controller.execute(RollContraptionDie())
    assert str(error.value) == (
        "This game has no Contraptions; start one with e.g. 'new commander+contraptions A B C'."
    )
    assert controller.handle(ButtonPressed(Button.SELECT)) is None
