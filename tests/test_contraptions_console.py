"""Contraptions at the console: three-player games in every variant, with physical cards named
by their catalog names (``card NAME``) and with the gadget's virtual decks (CT-1..CT-7, CT-A, CT-B, CT-C)."""

from __future__ import annotations

import io
import random
from pathlib import Path

from device.console import TABLES, Console
from device.controller import Controller
from device.journal import Journal


def play(tmp_path: Path, script: str, seed: int = 5) -> list[str]:
    out = io.StringIO()
    with Journal(tmp_path / "j.sqlite3") as journal:
        Console(Controller(journal, rng=random.Random(seed)), out, TABLES).run(script.splitlines())
    return out.getvalue().splitlines()


def in_order(lines: list[str], expected: list[str]) -> None:
    """Every expected line appears, in this order (other lines may come between)."""
    at = 0
    for line in expected:
        assert line in lines[at:], f"missing {line!r} after line {at}:\n" + "\n".join(lines)
        at = lines.index(line, at) + 1


BASE_PHYSICAL = """\
new commander+contraptions Alice Bob Carol first=Alice contraption_cards=physical
card Tread Mill
sprocket 1
card arms depot
sprocket 1
next
next
card Boomflinger
sprocket 2
pass
pass
crank Arms Depot, Tread Mill
card Tread Mill
scrap
exile Arms Depot
unexile Arms Depot
card Tazeem
contraptions
"""


def test_base_rules_with_physical_cards(tmp_path: Path) -> None:
    """CT-1..CT-6 with real decks: taps name the revealed card; the first move is 3 → 1."""
    out = play(tmp_path, BASE_PHYSICAL)
    assert out[:21] == [
        "New game (Commander + Contraptions) for Alice, Bob, Carol, 40 life. Alice goes first.",
        "Contraptions (base rules, physical cards): Alice's contraption deck (?), Bob's contraption deck (?), "
        "Carol's contraption deck (?).",
        "Alice assembles: tap or name the revealed card from Alice's contraption deck.",
        "Tread Mill for Alice: choose its sprocket.",
        "Alice assembles Tread Mill onto Alice's sprocket 1.",
        "Alice assembles: tap or name the revealed card from Alice's contraption deck.",
        "Arms Depot for Alice: choose its sprocket.",
        "Alice assembles Arms Depot onto Alice's sprocket 1.",
        "Alice: main phase.",
        "Turn 2: Bob's upkeep.",
        "Bob assembles: tap or name the revealed card from Bob's contraption deck.",
        "Boomflinger for Bob: choose its sprocket.",
        "Bob assembles Boomflinger onto Bob's sprocket 2.",
        "Turn 3: Carol's upkeep.",
        "Turn 4: Alice's upkeep.",
        "Alice's CRANK! counter moves 3 → 1: Alice may crank any of Tread Mill, Arms Depot on sprocket 1.",
        "Alice cranks Arms Depot, Tread Mill (sprocket 1); their abilities trigger in that order.",
        "Tread Mill (Alice's, sprocket 1): scrap it, or reassemble it onto another sprocket.",
        "Tread Mill goes to Alice's scrapyard.",
        "Arms Depot is exiled.",
        "Arms Depot returns from exile without being assembled: it goes to Alice's scrapyard.",
    ]
    assert out[21] == "refused: Tazeem (plane) has no part in this game right now."
    in_order(
        out[22:],
        [
            "Alice's upkeep: CRANK! 3 → 1.",
            "Cranked: Arms Depot, Tread Mill.",
            "! Machine stopped: no assembled contraption",
            "Alice  (CRANK! on 1)",
            "Bob  (CRANK! on 3)",
            "  2: Boomflinger",
            "Alice's contraption deck: physical cards",
            "Alice's scrapyard: Tread Mill, Arms Depot",
        ],
    )


def test_base_rules_with_virtual_decks(tmp_path: Path) -> None:
    """CT-1, CT-3, CT-4: a player's own list, shuffled by the gadget; assemble reveals the top."""
    deck = ", ".join(
        [
            "Accessories to Murder",
            "Applied Aeronautics",
            "Arms Depot",
            "Auto-Key",
            "Bee-Bee Gun",
            "Boomflinger",
            "Buzz Buggy",
            "Deadly Poison Sampler",
            "Dictation Quillograph",
            "Dispatch Dispensary",
            "Division Table",
            "Dogsnail Engine",
            "Dual Doomsuits",
            "Duplication Device",
        ]
    )
    script = f"cdeck Bob {deck}\ncdeck Bob {deck}, faerie\nassemble Bob sprocket=2\nassemble Bob\nsprocket 2\npass\n"
    script += "crank none\nshow\nct\n"
    out = play(tmp_path, "new ffa+ct Alice Bob Carol first=Alice\n" + script)
    assert (
        out[2]
        == "refused: Bob's contraption deck is not legal: it has 14 cards, at least 15 are needed."
    )
    assert out[3] == "Bob's contraption deck: 15 cards, shuffled."
    assert out[4] == "Bob assembles from Bob's contraption deck."
    first = out[5].removeprefix("Bob assembles ").removesuffix(" onto Bob's sprocket 2.")
    second = (
        out[7]
        .removeprefix("Bob reveals ")
        .removesuffix(" from Bob's contraption deck: choose its sprocket.")
    )
    assert out[8] == f"Bob assembles {second} onto Bob's sprocket 2."
    assert out[9:11] == [
        "Turn 2: Bob's upkeep.",
        "Bob's CRANK! counter moves 3 → 1: sprocket 1 is empty, nothing cranks.",
    ]
    assert (
        out[11]
        == "refused: Nothing to crank now: contraptions crank at the beginning of an upkeep, on the sprocket the CRANK! counter moves to."
    )
    in_order(
        out, ["Bob  (CRANK! on 1)", f"  2: {first}, {second}", "Bob's contraption deck: 13 card(s)"]
    )


A_VIRTUAL = """\
new ffa+contraptions Alice Bob Carol first=Alice contraptions=a
cdie
sprocket 1
crank none
pass
cdie
decline
pass
cdie
assemble library=2 sprocket=3
undo
contraptions
"""


def test_variant_a_with_virtual_libraries(tmp_path: Path) -> None:
    """CT-A1..A4 with the gadget's face-up libraries."""
    out = play(tmp_path, A_VIRTUAL)
    assert out[:23] == [
        "New game (Free-for-all + Contraptions) for Alice, Bob, Carol, 20 life. Alice goes first.",
        "Contraptions (variant A, faction dice, virtual cards): library 1 (Order of the Widget) (9), library 2 "
        "(Agents of S.N.E.A.K.) (9), library 3 (League of Dastardly Doom) (9), library 4 (Goblin Explosioneers) "
        "(9), library 5 (Crossbreed Labs) (9).",
        "Alice's upkeep: roll the contraption die (ROLL).",
        "Alice rolls the faction die: 2; assemble from library 2 (Agents of S.N.E.A.K.).",
        "Alice reveals Hypnotic Swirly Disc from library 2 (Agents of S.N.E.A.K.): choose its sprocket.",
        "Alice assembles Hypnotic Swirly Disc onto Alice's sprocket 1.",
        "Alice's CRANK! counter moves 3 → 1: Alice may crank any of Hypnotic Swirly Disc on sprocket 1.",
        "Alice cranks nothing on sprocket 1.",
        "Turn 2: Bob's upkeep.",
        "Bob's upkeep: roll the contraption die (ROLL).",
        "Bob rolls the faction die: 5; assemble from library 5 (Crossbreed Labs).",
        "Bob reveals Refibrillator from library 5 (Crossbreed Labs): choose its sprocket.",
        "Bob does not assemble Refibrillator: it goes to the bottom of library 5 (Crossbreed Labs).",
        "Bob controls no assembled contraption: the machine stops, the CRANK! counter stays on 3.",
        "Turn 3: Carol's upkeep.",
        "Carol's upkeep: roll the contraption die (ROLL).",
        "Carol rolls the faction die: 6; assemble from library 1 (Order of the Widget) or library 2 (Agents of "
        "S.N.E.A.K.) or library 3 (League of Dastardly Doom) or library 4 (Goblin Explosioneers) or library 5 "
        "(Crossbreed Labs).",
        "Carol assembles from library 2 (Agents of S.N.E.A.K.).",
        "Carol assembles Insufferable Syphon onto Carol's sprocket 3.",
        "Carol's CRANK! counter moves 3 → 1: sprocket 1 is empty, nothing cranks.",
        "Undone: Carol assembles from library 2 (Agents of S.N.E.A.K.). Carol assembles Insufferable Syphon onto "
        "Carol's sprocket 3. Carol's CRANK! counter moves 3 → 1: sprocket 1 is empty, nothing cranks.",
        "Contraption die: 6.",
        "! Assemble from library 1 (Order of the Widget) or library 2 (Agents of S.N.E.A.K.) or library 3 (League "
        "of Dastardly Doom) or library 4 (Goblin Explosioneers) or library 5 (Crossbreed Labs)",
    ]
    in_order(
        out[23:],
        [
            "Alice  (CRANK! on 1)",
            "  1: Hypnotic Swirly Disc",
            "Library 2 (Agents of S.N.E.A.K.): 8 card(s), top: Insufferable Syphon",
            "Library 5 (Crossbreed Labs): 9 card(s), top: Dogsnail Engine",
        ],
    )


def test_variant_a_with_physical_cards_and_two_dice(tmp_path: Path) -> None:
    """CT-A2, CT-A3, CT-6: taps must come from a library the dice allow; with two dice a decline is refused."""
    script = """\
new ffa+contraptions Alice Bob Carol first=Carol contraptions=a contraption_cards=physical faction_dice=2 declined=scrapyard
cdie
card Widget Contraption
card Boomflinger
decline
sprocket 2
pass
cdie
decline Tread Mill
"""
    out = play(tmp_path, script, seed=11)
    assert out[2:] == [
        "Carol's upkeep: roll the contraption die (ROLL).",
        "Carol rolls 2 faction dice: 4, 5; assemble from library 4 (Goblin Explosioneers) or library 5 "
        "(Crossbreed Labs).",
        "refused: Widget Contraption is in library 1 (Order of the Widget), not in library 4 (Goblin Explosioneers) "
        "or library 5 (Crossbreed Labs).",
        "Boomflinger for Carol: choose its sprocket.",
        "refused: With 2 faction dice assembling is mandatory (CT-A3): assemble from library 4 (Goblin "
        "Explosioneers) or library 5 (Crossbreed Labs).",
        "Carol assembles Boomflinger onto Carol's sprocket 2.",
        "Carol's CRANK! counter moves 3 → 1: sprocket 1 is empty, nothing cranks.",
        "Turn 2: Alice's upkeep.",
        "Alice's upkeep: roll the contraption die (ROLL).",
        "Alice rolls 2 faction dice: 4, 4; assemble from library 4 (Goblin Explosioneers).",
        "refused: With 2 faction dice assembling is mandatory (CT-A3): assemble from library 4 (Goblin Explosioneers).",
    ]


B_PHYSICAL = """\
new ffa+contraptions Alice Bob Carol first=Alice contraptions=b contraption_cards=physical
cdie
card Boomflinger
sprocket 2
pass
cdie
card Boomflinger
pass
cdie
contraptions
"""


def test_variant_b_with_physical_cards(tmp_path: Path) -> None:
    """CT-B1..B3 and CT-6: shared deck and sprockets; a half-done assembly lapses at the next turn."""
    out = play(tmp_path, B_PHYSICAL)
    assert out == [
        "New game (Free-for-all + Contraptions) for Alice, Bob, Carol, 20 life. Alice goes first.",
        "Contraptions (variant B, full random, physical cards): the shared contraption deck (45).",
        "Alice's upkeep: roll the contraption die (ROLL).",
        "Alice rolls 5: assemble 2.",
        "Boomflinger for Alice: choose its sprocket.",
        "Alice assembles Boomflinger onto the shared sprocket 2.",
        "Turn 2: Bob's upkeep.",
        "The turn passed: Alice's unfinished assembly lapses.",
        "Bob's upkeep: roll the contraption die (ROLL).",
        "Bob rolls 3: crank sprocket 3. Sprocket 3 is empty, nothing cranks.",
        "Boomflinger (Alice's, sprocket 2): scrap it, or reassemble it onto another sprocket.",
        "Turn 3: Carol's upkeep.",
        "Carol's upkeep: roll the contraption die (ROLL).",
        "Carol rolls 6: assemble 3.",
        "Contraption die: 6.",
        "! Tap the contraption to assemble",
        "Shared sprockets",
        "  1: —",
        "  2: Boomflinger",
        "  3: —",
        "The shared contraption deck: 44 card(s)",
    ]


def test_variant_b_with_the_virtual_deck(tmp_path: Path) -> None:
    """CT-B2: 4 assembles one; the die is rolled once per upkeep; 3 cranks sprocket 3."""
    script = (
        "new ffa+contraptions Alice Bob Carol first=Alice contraptions=b\ncdie\n"
        + "sprocket 1\n" * 2
    )
    out = play(tmp_path, script + "cdie\npass\ncdie\nct\n")
    assert out == [
        "New game (Free-for-all + Contraptions) for Alice, Bob, Carol, 20 life. Alice goes first.",
        "Contraptions (variant B, full random, virtual cards): the shared contraption deck (45).",
        "Alice's upkeep: roll the contraption die (ROLL).",
        "Alice rolls 4: assemble 1.",
        "Alice reveals Dispatch Dispensary from the shared contraption deck: choose its sprocket.",
        "Alice assembles Dispatch Dispensary onto the shared sprocket 1.",
        "refused: No assembly is in progress.",
        "refused: The contraption die is rolled at the start of an upkeep, once: Alice rolled it this upkeep already (4).",
        "Turn 2: Bob's upkeep.",
        "Bob's upkeep: roll the contraption die (ROLL).",
        "Bob rolls 3: crank sprocket 3. Sprocket 3 is empty, nothing cranks.",
        "Contraption die: 3.",
        "Sprocket 3 cranks: nothing.",
        "Shared sprockets",
        "  1: Dispatch Dispensary",
        "  2: —",
        "  3: —",
        "The shared contraption deck: 44 card(s)",
    ]


C_VIRTUAL = """\
new ffa+contraptions Alice Bob Carol first=Bob contraptions=c
cdie
next
cdie
keep 2 Dogsnail top Twiddlestick, Dispatch
cdie
decline
cdie
contraptions
"""


def test_variant_c_with_the_virtual_deck(tmp_path: Path) -> None:
    """CT-C1..C3: paid rolls {2}, {3}, {4}; look, keep one, order the rest."""
    out = play(tmp_path, C_VIRTUAL)
    assert out[:6] == [
        "New game (Free-for-all + Contraptions) for Alice, Bob, Carol, 20 life. Bob goes first.",
        "Contraptions (variant C, planar-style, virtual cards): the shared contraption deck (45).",
        "refused: An assembly roll is paid for in the active player's main phase (CT-C2); press NEXT to reach Bob's main phase.",
        "Bob: main phase.",
        "Bob pays {2} for assembly roll 1 this turn and rolls 4: look at the top 4: Dispatch Dispensary, Mandatory "
        "Friendship Shackles, Dogsnail Engine, Twiddlestick Charger.",
        "Bob assembles Dogsnail Engine onto the shared sprocket 2.",
    ]
    assert (
        out[6]
        == "Twiddlestick Charger, Dispatch Dispensary back on top of the shared deck, Mandatory Friendship Shackles at the bottom."
    )
    assert out[7].startswith("Bob pays {3} for assembly roll 2 this turn and rolls ")
    assert out[8] == "Bob assembles nothing."
    assert out[9].startswith("Bob pays {4} for assembly roll 3 this turn and rolls ")
    in_order(
        out, ["Shared sprockets  (CRANK! on 3)", "  2: Dogsnail Engine", "Next assembly roll: {5}."]
    )


def test_variant_c_with_physical_cards(tmp_path: Path) -> None:
    """CT-C1, CT-C3, CT-6: a tapped card with no roll is a card saying "assemble"; the shared
    counter moves for the next player."""
    script = """\
new ffa+contraptions Alice Bob Carol first=Alice contraptions=c contraption_cards=physical
card Auto-Key
sprocket 3
card Auto-Key
next
cdie
card Auto-Key
card Gift Horse
sprocket 1
pass
crank Auto-Key
pass
crank Auto-Key
"""
    out = play(tmp_path, script)
    assert out[2:6] == [
        "Alice assembles: tap or name the revealed card from the shared contraption deck.",
        "Auto-Key for Alice: choose its sprocket.",
        "Alice assembles Auto-Key onto the shared sprocket 3.",
        "Auto-Key (Alice's, sprocket 3): scrap it, or reassemble it onto another sprocket.",
    ]
    assert out[7].startswith("Alice pays {2} for assembly roll 1 this turn and rolls ")
    assert out[7].endswith("of the shared deck and tap the one to assemble.")
    assert out[8] == (
        "refused: Auto-Key is assembled already (Alice's, sprocket 3), so it is not the revealed card: tap the card "
        "you revealed."
    )
    assert out[9:11] == [
        "Gift Horse for Alice: choose its sprocket.",
        "Alice assembles Gift Horse onto the shared sprocket 1.",
    ]
    assert out[11:14] == [
        "Turn 2: Bob's upkeep.",
        "The CRANK! counter moves 3 → 1: Bob may crank any of Gift Horse on sprocket 1.",
        "refused: Auto-Key is not a contraption Bob can crank on sprocket 1; there: Gift Horse.",
    ]
    assert out[14:17] == [
        "Turn 3: Carol's upkeep.",
        "The CRANK! counter moves 1 → 2: sprocket 2 is empty, nothing cranks.",
        "refused: Nothing to crank now: contraptions crank at the beginning of an upkeep, on the sprocket the CRANK! counter moves to.",
    ]


def test_ct1_a_card_that_is_not_a_contraption_is_refused_as_no_contraption(tmp_path: Path) -> None:
    """CT-1, CT-6: Steamflogger Boss is a real Unstable creature, not a contraption; the deck list,
    the crank list and a tapped card all say so, and the name is quoted trimmed."""
    out = play(
        tmp_path,
        """\
new ffa+contraptions Alice Bob first=Alice contraption_cards=physical
cdeck Alice Steamflogger Boss , Auto-Key
crank Steamflogger   Boss
card Steamflogger Boss
""",
    )
    refusal = "refused: No contraption is called 'Steamflogger Boss': check the spelling or type the start of the name."
    assert out[-3:] == [refusal] * 3


def test_ct_a2_ct_b2_what_another_variant_does_names_the_variant_once(tmp_path: Path) -> None:
    """CT-A2 (a faction library) and the upkeep die (CT-A2, CT-B2, CT-C2) in a base-rules game:
    the refusal names the variants it needs, each once ("variant A", not "variant variant A")."""
    out = play(
        tmp_path,
        """\
new ffa+contraptions Alice Bob first=Alice
assemble library=2
cdie
new ffa+contraptions Alice Bob first=Alice contraptions=b
assemble library=2
""",
    )
    assert [line for line in out if line.startswith("refused")] == [
        "refused: That is only for Contraptions variant A; this game plays base rules.",
        "refused: That is only for Contraptions variant A, variant B or variant C; this game plays base rules.",
        "refused: That is only for Contraptions variant A; this game plays variant B, full random.",
    ]
