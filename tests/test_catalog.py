"""The card catalog (HW-3): shipped card facts, loose names, type-to-search, sets and factions."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from device.catalog import (
    Card,
    CardKind,
    Catalog,
    Faction,
    load_catalog,
    name_key,
    normalise_name,
    parse_contraptions,
    parse_planes,
)
from device.errors import IllegalCommand, UnknownName
from device.text import Message, english

CATALOG = load_catalog()


# --- HW-3: what the catalog knows ------------------------------------------------------------


def test_HW3_counts_match_the_card_data() -> None:
    assert len(CATALOG.planar()) == 207
    assert len(CATALOG.planes()) == 185
    assert len(CATALOG.phenomena()) == 22
    assert len(CATALOG.contraptions()) == 45
    assert len(CATALOG) == 207 + 45


def test_HW3_names_are_unique_even_loosely() -> None:
    # Otherwise some card could never be named on a keyboard without its exact spelling.
    assert len(set(CATALOG.names)) == len(CATALOG)
    assert len({name_key(name) for name in CATALOG.names}) == len(CATALOG)


def test_HW3_card_facts() -> None:
    tazeem = CATALOG.get("Tazeem")
    assert tazeem == Card(
        name="Tazeem",
        kind=CardKind.PLANE,
        planar_type="Zendikar",
        set_code="PHOP",
        collector_number="41",
        printings=("PHOP", "OPCA"),
    )
    assert tazeem.is_planar and tazeem.faction is None and tazeem.faction_number is None
    aether = CATALOG.get("Chaotic Aether")
    assert aether is not None
    assert aether.kind is CardKind.PHENOMENON
    assert aether.planar_type is None
    assert aether.printings == ("OPC2", "OPCA", "MOC")
    key = CATALOG.get("Auto-Key")
    assert key is not None
    assert (key.kind, key.set_code, key.collector_number) == (CardKind.CONTRAPTION, "UST", "170")
    assert key.printings == ("UST",) and not key.is_planar


def test_HW3_cards_are_immutable() -> None:
    tazeem = CATALOG.get("Tazeem")
    assert tazeem is not None
    with pytest.raises(ValidationError):
        tazeem.name = "Naya"  # type: ignore[misc]


def test_HW3_catalog_is_read_once() -> None:
    assert load_catalog() is load_catalog()


def test_HW3_every_card_has_a_set_and_number() -> None:
    for card in CATALOG:
        assert card.set_code and card.collector_number
        assert card.printings[0] == card.set_code
        assert (card.planar_type is not None) == (card.kind is CardKind.PLANE)


def test_HW3_containment_and_get_are_exact() -> None:
    assert "Tazeem" in CATALOG
    assert "tazeem" not in CATALOG
    assert CATALOG.get("tazeem") is None
    tazeem = CATALOG.get("Tazeem")
    assert tazeem in CATALOG
    assert tazeem not in CATALOG.contraptions()


# --- finding a card by what someone typed ----------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Tazeem", "Tazeem"),
        ("tazeem", "Tazeem"),
        ("TAZEEM", "Tazeem"),
        ("  tazeem  ", "Tazeem"),
        ("the eon fog", "The Eon Fog"),
        ("The   Eon Fog", "The Eon Fog"),
        ("theeonfog", "The Eon Fog"),
        ("eon fog", "The Eon Fog"),
        ("ravens run", "Raven's Run"),
        ("Raven\u2019s Run", "Raven's Run"),
        ("oteclan", "Oteclán"),
        ("OTECLÁN", "Oteclán"),
        ("sans mercy", "sAnS mERcY"),
        ("auto key", "Auto-Key"),
        ("autokey", "Auto-Key"),
        ("quickstick", "Quick-Stick Lick Trick"),
        ("trail of the mage rings", "Trail of the Mage-Rings"),
        ("magerings", "Trail of the Mage-Rings"),
        ("Imaginary Friends", "Imaginary Friends (Plane)"),
        ("fblthp", "Fblthp: Completely, Utterly, Totally Lost"),
        ("happy yargle day", "Happy Yargle Day!"),
        ("agy", "Agyrem"),
    ],
)
def test_HW3_find_is_loose(typed: str, name: str) -> None:
    assert CATALOG.find(typed).name == name


def test_HW3_loose_name_rules() -> None:
    assert normalise_name("  Li'l Giri  Saves-the Day! ") == "lil giri saves the day"
    assert normalise_name("Oteclán") == "oteclan"
    assert name_key("Il-Vec") == name_key("il vec") == name_key("ILVEC") == "ilvec"


def test_HW3_find_ambiguous_prefix_lists_the_cards() -> None:
    with pytest.raises(UnknownName) as caught:
        CATALOG.find("pin")
    assert str(caught.value) == (
        "'pin' could be any of 2 cards: Pin Collector's Booth, Pin Trading. Type more of the name."
    )
    assert caught.value.key == "catalog.ambiguous"
    assert caught.value.params == {
        "text": "pin",
        "count": 2,
        "names": Message("text.list", first="Pin Collector's Booth", rest="Pin Trading"),
    }


def test_HW3_find_ambiguous_lists_at_most_five() -> None:
    with pytest.raises(UnknownName) as caught:
        CATALOG.find("a")
    assert str(caught.value) == (
        "'a' could be any of 14 cards: Academy at Tolaria West, Accessories to Murder, Agyrem, "
        "Akoum, Amy's Home and 9 more. Type more of the name."
    )


def test_HW3_find_unknown_suggests_close_names() -> None:
    with pytest.raises(UnknownName) as caught:
        CATALOG.find("tazem")
    assert str(caught.value) == (
        "No plane, phenomenon or contraption is called 'tazem'. Did you mean Tazeem? "
        "Check the spelling or type the start of the name."
    )
    assert caught.value.key == "catalog.unknown_card_suggest"
    with pytest.raises(UnknownName) as caught:
        CATALOG.find("acadmy")
    assert "Did you mean Academy at Tolaria West?" in str(caught.value)


def test_HW3_find_unknown_without_suggestions() -> None:
    with pytest.raises(UnknownName) as caught:
        CATALOG.find("zzz")
    assert str(caught.value) == (
        "No plane, phenomenon or contraption is called 'zzz': check the spelling or type the start of the name."
    )
    # Callers that know nothing of aetherbox can still catch it.
    assert isinstance(caught.value, IllegalCommand)
    assert isinstance(caught.value, ValueError)


def test_HW3_find_nothing_typed() -> None:
    with pytest.raises(UnknownName) as caught:
        CATALOG.find(" -- ")
    assert str(caught.value) == "No card name given: type the start of the card's name."


def test_HW3_find_within_a_subset() -> None:
    assert CATALOG.contraptions().find("auto").name == "Auto-Key"
    with pytest.raises(UnknownName, match="No contraption is called 'tazeem'"):
        CATALOG.contraptions().find("tazeem")


@pytest.mark.parametrize(
    ("view", "text", "said"),
    [
        (
            "planar",
            "Lightning Bolt",
            "No plane or phenomenon is called 'Lightning Bolt': check the spelling or type the start of the name.",
        ),
        (
            "planar",
            "tazem",
            "No plane or phenomenon is called 'tazem'. Did you mean Tazeem? Check the spelling or type the start of "
            "the name.",
        ),
        (
            "contraptions",
            "Steamflogger Boss",
            "No contraption is called 'Steamflogger Boss': check the spelling or type the start of the name.",
        ),
        (
            "contraptions",
            "boomflinjer",
            "No contraption is called 'boomflinjer'. Did you mean Boomflinger? Check the spelling or type the start of "
            "the name.",
        ),
        (
            "all",
            "Lightning Bolt",
            "No plane, phenomenon or contraption is called 'Lightning Bolt': check the spelling or type the start of the "
            "name.",
        ),
    ],
)
def test_HW3_an_unknown_name_is_refused_as_what_the_catalog_holds(
    view: str, text: str, said: str
) -> None:
    """The gadget knows planar cards and contraptions only: a real card it does not know is not
    "no card", and a view says what kind of card it expected."""
    catalog = CATALOG if view == "all" else getattr(CATALOG, view)()
    with pytest.raises(UnknownName) as caught:
        catalog.find(text)
    assert str(caught.value) == said


def test_HW3_a_refused_name_is_quoted_trimmed() -> None:
    with pytest.raises(UnknownName) as caught:
        CATALOG.planar().find("  Lightning \t  Bolt ")
    assert caught.value.params["text"] == "Lightning Bolt"
    with pytest.raises(UnknownName) as caught:
        CATALOG.find(" pin ")
    assert (
        str(caught.value)
        == "'pin' could be any of 2 cards: Pin Collector's Booth, Pin Trading. Type more of the name."
    )


def test_HW3_views_are_kept_and_keep_the_catalogs_order() -> None:
    assert CATALOG.planar() is CATALOG.planar()
    assert CATALOG.contraptions() is CATALOG.contraptions()
    assert list(CATALOG.planar()) == [card for card in CATALOG if card.is_planar]


def test_HW3_message_texts_are_registered() -> None:
    for key in (
        "catalog.no_name",
        "catalog.unknown_card",
        "catalog.unknown_card_suggest",
        "catalog.unknown_planar",
        "catalog.unknown_planar_suggest",
        "catalog.unknown_contraption",
        "catalog.unknown_contraption_suggest",
        "catalog.ambiguous",
        "catalog.unknown_set",
        "catalog.unknown_faction",
    ):
        assert english(key) is not None


# --- type-to-search ----------------------------------------------------------------------------


def test_HW3_search_ranks_prefix_then_words_then_substring() -> None:
    names = [card.name for card in CATALOG.search("pin")]
    assert names == ["Pin Collector's Booth", "Pin Trading", "Reality Shaping"]
    assert [card.name for card in CATALOG.search("eon")] == ["The Eon Fog", "Bowie Base One"]
    assert [card.name for card in CATALOG.search("auto")] == [
        "Auto-Key",
        "Turbo-Thwacking Auto-Hammer",
    ]


def test_HW3_search_exact_name_first() -> None:
    assert CATALOG.search("the eon fog")[0].name == "The Eon Fog"
    assert CATALOG.search("TAZEEM")[0].name == "Tazeem"


def test_HW3_search_is_limited_and_empty_lists_alphabetically() -> None:
    first = CATALOG.search("", limit=3)
    assert [card.name for card in first] == [
        "Academy at Tolaria West",
        "Accessories to Murder",
        "Agyrem",
    ]
    assert len(CATALOG.search("", limit=1000)) == len(CATALOG)
    assert len(CATALOG.search("the", limit=4)) == 4
    assert CATALOG.search("qqqq") == ()


def test_HW3_search_within_planar_cards_only() -> None:
    assert [card.name for card in CATALOG.planar().search("auto")] == []


# --- PC-12: named sets for a virtual planar deck ------------------------------------------------


def test_PC12_sets_with_planar_cards() -> None:
    assert CATALOG.sets() == ("OHOP", "OPCA", "PHOP", "MOC", "OPC2", "WHO", "PUNK", "PSSC")


@pytest.mark.parametrize(
    ("code", "cards", "phenomena"),
    [
        ("OHOP", 40, 0),
        ("PHOP", 6, 0),
        ("OPC2", 40, 8),
        ("OPCA", 86, 8),
        ("MOC", 50, 5),
        ("WHO", 40, 4),
        ("PUNK", 46, 10),
        ("PSSC", 10, 0),
    ],
)
def test_PC12_set_counts(code: str, cards: int, phenomena: int) -> None:
    subset = CATALOG.in_set(code)
    assert len(subset) == cards
    assert len(subset.phenomena()) == phenomena
    assert all(code in card.printings and card.is_planar for card in subset)


def test_PC12_a_reprint_belongs_to_every_set_it_was_printed_in() -> None:
    aether = CATALOG.get("Chaotic Aether")
    for code in ("OPC2", "OPCA", "MOC"):
        assert aether in CATALOG.in_set(code)
    assert aether not in CATALOG.in_set("OHOP")


def test_PC12_set_code_is_case_blind() -> None:
    assert CATALOG.in_set("opc2").names == CATALOG.in_set("OPC2").names


def test_PC12_unknown_set() -> None:
    with pytest.raises(UnknownName) as caught:
        CATALOG.in_set("UST")
    assert str(caught.value) == (
        "No planar cards in set 'UST'. Sets with planar cards: "
        "OHOP, OPCA, PHOP, MOC, OPC2, WHO, PUNK, PSSC."
    )


# --- CT-A1: five factions of nine ----------------------------------------------------------------


def test_CT_A1_factions_are_numbered_in_rule_order() -> None:
    assert [(int(f), f.label) for f in Faction] == [
        (1, "Order of the Widget"),
        (2, "Agents of S.N.E.A.K."),
        (3, "League of Dastardly Doom"),
        (4, "Goblin Explosioneers"),
        (5, "Crossbreed Labs"),
    ]


@pytest.mark.parametrize("faction", list(Faction))
def test_CT_A1_nine_contraptions_per_faction(faction: Faction) -> None:
    library = CATALOG.by_faction(faction)
    assert len(library) == 9
    assert all(card.kind is CardKind.CONTRAPTION for card in library)
    assert {card.faction_number for card in library} == {int(faction)}


def test_CT_A1_faction_by_die_number_or_name() -> None:
    assert CATALOG.by_faction(2).names == CATALOG.by_faction(Faction.AGENTS_OF_SNEAK).names
    assert CATALOG.by_faction("agents of sneak").names == CATALOG.by_faction(2).names
    assert CATALOG.by_faction("Agents of S.N.E.A.K.").names == CATALOG.by_faction(2).names
    assert CATALOG.get("Accessories to Murder") in CATALOG.by_faction(2)
    assert Faction.parse("5") is Faction.CROSSBREED_LABS


def test_CT_A1_a_six_is_not_a_faction() -> None:
    with pytest.raises(UnknownName) as caught:
        CATALOG.by_faction(6)
    assert str(caught.value) == (
        "No contraption faction 6. Factions: 1 Order of the Widget, 2 Agents of S.N.E.A.K., "
        "3 League of Dastardly Doom, 4 Goblin Explosioneers, 5 Crossbreed Labs."
    )


def test_CT_A1_factions_partition_the_contraptions() -> None:
    together = [name for faction in Faction for name in CATALOG.by_faction(faction).names]
    assert sorted(together) == sorted(CATALOG.contraptions().names)


# --- parsing the shipped files ------------------------------------------------------------------


def test_HW3_parse_rejects_a_bad_file() -> None:
    header = "name\tcard_type\tplanar_type\tset_code\tcollector_number\tprintings\n"
    with pytest.raises(ValueError, match=r"planes.tsv:2: unknown card type 'Vanguard'"):
        parse_planes(header + "X\tVanguard\t\tOHOP\t1\tOHOP\n")
    with pytest.raises(ValueError, match=r"planes.tsv:2: expected 6 columns"):
        parse_planes(header + "X\tPlane\n")
    with pytest.raises(ValueError, match="expected columns"):
        parse_planes("name\ttype\n")
    with pytest.raises(ValueError, match=r"contraptions.tsv:2: unknown faction 'Spies'"):
        parse_contraptions("name\tfaction\tset_code\tcollector_number\nX\tSpies\tUST\t1\n")


def test_HW3_duplicate_names_are_refused() -> None:
    card = Card(name="X", kind=CardKind.PLANE, set_code="S", collector_number="1", printings=("S",))
    with pytest.raises(ValueError, match="'X' is in the catalog twice"):
        Catalog([card, card])


# --- invariants ------------------------------------------------------------------------------------


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@given(
    name=st.sampled_from(CATALOG.names),
    spelling=st.sampled_from(
        [
            str.lower,
            str.upper,
            str.casefold,
            _strip_accents,
            lambda s: _strip_accents(s).upper(),
            lambda s: s.replace(" ", "  "),
            lambda s: s.replace("'", ""),
            lambda s: s.replace("-", " "),
            lambda s: f"  {s.lower()}\t",
        ]
    ),
)
def test_HW3_any_spelling_of_a_name_finds_it(name: str, spelling: object) -> None:
    assert callable(spelling)
    assert CATALOG.find(spelling(name)).name == name


@given(name=st.sampled_from(CATALOG.names), data=st.data())
def test_HW3_a_start_of_a_name_finds_it_or_is_ambiguous(name: str, data: st.DataObject) -> None:
    key = name_key(name)
    start = key[: data.draw(st.integers(min_value=1, max_value=len(key)))]
    try:
        found = CATALOG.find(start)
    except UnknownName as error:
        assert error.key == "catalog.ambiguous"
    else:
        assert start in name_key(found.name)


@given(st.text())
def test_HW3_find_and_search_never_crash(text: str) -> None:
    try:
        card = CATALOG.find(text)
    except UnknownName:
        pass
    else:
        assert card in CATALOG
    assert len(CATALOG.search(text)) <= 10
