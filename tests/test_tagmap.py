"""The tag map (HW-3): tag UID → catalog card, in a file people edit by hand."""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from device import tagmap as tagmap_module
from device.catalog import Card, CardKind, Faction, load_catalog
from device.errors import UnknownName
from device.inputs import normalise_uid
from device.tagmap import HEADER, TagMap, TagMapProblem, format_uid

CATALOG = load_catalog()


def card(name: str) -> Card:
    found = CATALOG.get(name)
    assert found is not None
    return found


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "tags.txt"


# --- reading -------------------------------------------------------------------------------------


def test_HW3_missing_file_is_an_empty_map(path: Path) -> None:
    tags = TagMap(path)
    assert len(tags) == 0
    assert tags.problems == ()
    assert tags.lookup("04A1B2C3") is None
    assert not path.exists()  # reading never creates it


def test_HW3_every_accepted_line_form(path: Path) -> None:
    path.write_text(
        "# a comment\n"
        "\n"
        "04:A1:B2:C3  Tazeem\n"
        "04a1b2c4\tthe eon fog\n"
        "04-A1-B2-C5      ravens run\n"
        "04 A1 B2 C6\t\tOteclán\n"
        "04A1B2C7 Auto-Key\n"
        "   04:A1:B2:C8   Chaotic Aether   \n"
        "  # an indented comment 04:A1:B2:C9  Agyrem\n",
        encoding="utf-8",
    )
    tags = TagMap(path)
    assert tags.problems == ()
    assert dict(tags.entries) == {
        "04A1B2C3": card("Tazeem"),
        "04A1B2C4": card("The Eon Fog"),
        "04A1B2C5": card("Raven's Run"),
        "04A1B2C6": card("Oteclán"),
        "04A1B2C7": card("Auto-Key"),
        "04A1B2C8": card("Chaotic Aether"),
    }


def test_HW3_bad_lines_are_reported_with_file_and_line_and_skipped(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path.write_bytes(
        b"04:A1:B2:C3  Tazeem\n"
        b"zz:top  Agyrem\n"
        b"04:A1:B2:C4  Naya Plains\n"
        b"04A1B2C5\n"
        b"04:A1:B2:C6  pin\n"
        b"04:A1:B2:C7  Bant \xff\n"
        b"04:A1:B2:C8  Akoum\n"
    )
    with caplog.at_level(logging.WARNING, logger="device.tagmap"):
        tags = TagMap(path)
    assert dict(tags.entries) == {"04A1B2C3": card("Tazeem"), "04A1B2C8": card("Akoum")}
    assert [str(problem) for problem in tags.problems] == [
        f"{path}:2: 'zz:top' is not a tag UID: expected hex bytes such as 04:A1:B2:C3",
        f"{path}:3: No plane, phenomenon or contraption is called 'Naya Plains': check the spelling or type the start "
        "of the name.",
        f"{path}:4: '04A1B2C5' needs a tag UID, then a tab or two spaces, then a card name",
        f"{path}:5: 'pin' could be any of 2 cards: Pin Collector's Booth, Pin Trading. "
        "Type more of the name.",
        f"{path}:6: not UTF-8 text; save the file as UTF-8",
    ]
    assert tags.problems[0] == TagMapProblem(path, 2, tags.problems[0].message)
    assert [record.getMessage() for record in caplog.records] == [
        str(problem) for problem in tags.problems
    ]


def test_HW3_a_uid_enrolled_as_two_cards_counts_as_neither(path: Path) -> None:
    """HW-3, HW-5: two lines give one UID two cards (a hand edit, or a flipped digit that made one
    tag's UID another's): the tag counts as neither, and the problem names both lines."""
    path.write_text(
        "04:A1:B2:C3  Tazeem\n# x\n04a1b2c3  Agyrem\n04:A1:B2:C4  Bant\n04A1B2C4  bant\n",
        encoding="utf-8",
    )
    tags = TagMap(path)
    assert tags.lookup("04:A1:B2:C3") is None
    assert tags.lookup("04:A1:B2:C4") == card("Bant")
    assert [str(problem) for problem in tags.problems] == [
        f"{path}:1: tag 04:A1:B2:C3 is enrolled again on line 3 as another card, 'Agyrem': it counts as neither "
        "until one of the lines is fixed",
        f"{path}:5: tag 04:A1:B2:C4 is enrolled again, as the same card",
    ]


def test_HW3_windows_line_ends_and_byte_order_mark(path: Path) -> None:
    path.write_bytes(b"\xef\xbb\xbf04:A1:B2:C3  Tazeem\r\n# c\r\n04:A1:B2:C4  Bant\r\n")
    tags = TagMap(path)
    assert tags.problems == ()
    assert tags.lookup("04A1B2C3") == card("Tazeem")
    assert tags.lookup("04A1B2C4") == card("Bant")


def test_HW3_lookup_accepts_any_uid_spelling(path: Path) -> None:
    path.write_text("04:A1:B2:C3  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    for spelling in ("04A1B2C3", "04a1b2c3", "04:a1:b2:c3", "04-A1-B2-C3", " 04 A1 B2 C3 "):
        assert tags.lookup(spelling) == card("Tazeem")
        assert spelling in tags
    assert tags.lookup("04A1B2C4") is None
    assert "not hex" not in tags
    with pytest.raises(ValueError, match="'nope' is not a tag UID"):
        tags.lookup("nope")


def test_PC12_tapping_a_physical_plane_identifies_it(path: Path) -> None:
    path.write_text("04:11:22:33  Chaotic Aether\n04:11:22:34  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    assert tags.lookup("04112233").kind is CardKind.PHENOMENON  # type: ignore[union-attr]
    assert tags.lookup("04112234").kind is CardKind.PLANE  # type: ignore[union-attr]


def test_CT6_tapping_a_contraption_identifies_it_and_its_faction(path: Path) -> None:
    path.write_text("AA:BB:CC:DD  accessories to murder\n", encoding="utf-8")
    found = TagMap(path).lookup("aabbccdd")
    assert found is not None
    assert found.kind is CardKind.CONTRAPTION
    assert found.faction is Faction.AGENTS_OF_SNEAK and found.faction_number == 2


def test_HW3_uids_for_a_card(path: Path) -> None:
    path.write_text("01:02  Tazeem\n03:04  Bant\n05:06  tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    assert tags.uids_for("Tazeem") == ("0102", "0506")
    assert tags.uids_for(card("Bant")) == ("0304",)
    assert tags.uids_for("Agyrem") == ()


def test_HW3_entries_is_read_only(path: Path) -> None:
    path.write_text("01:02  Tazeem\n", encoding="utf-8")
    entries = TagMap(path).entries
    with pytest.raises(TypeError):
        entries["0304"] = card("Bant")  # type: ignore[index]


# --- adding and removing ---------------------------------------------------------------------------


def test_HW3_add_to_a_new_file_writes_a_self_explaining_file(tmp_path: Path) -> None:
    path = tmp_path / "new" / "tags.txt"
    tags = TagMap(path)
    assert tags.add("04a1b2c3", "the eon fog") == card("The Eon Fog")
    assert path.read_text(encoding="utf-8") == HEADER + "04:A1:B2:C3  The Eon Fog\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert TagMap(path).lookup("04A1B2C3") == card("The Eon Fog")
    assert tags.lookup("04A1B2C3") == card("The Eon Fog")


def test_HW3_add_keeps_comments_and_order(path: Path) -> None:
    original = (
        "# my planes\n"
        "01:01  Tazeem\n"
        "\n"
        "# contraptions, hand-aligned\n"
        "02:02        Auto-Key\n"
        "zz  a bad line stays\n"
    )
    path.write_text(original, encoding="utf-8")
    tags = TagMap(path)
    tags.add("03-03", card("Bant"))
    assert path.read_text(encoding="utf-8") == original + "03:03  Bant\n"
    tags.add("0101", "agyrem")
    assert (
        path.read_text(encoding="utf-8")
        == original.replace("01:01  Tazeem", "01:01  Agyrem") + "03:03  Bant\n"
    )
    assert tags.lookup("01:01") == card("Agyrem")
    assert len(tags) == 3


def test_HW3_add_replaces_every_duplicate_with_one_line(path: Path) -> None:
    path.write_text("01:01  Tazeem\n# c\n0101  Bant\n01-01  Naya Plains\n", encoding="utf-8")
    tags = TagMap(path)
    tags.add("01:01", "Akoum")
    assert path.read_text(encoding="utf-8") == "# c\n01:01  Akoum\n"
    assert tags.problems == ()


def test_HW3_add_to_a_file_without_a_final_newline(path: Path) -> None:
    path.write_bytes(b"01:01  Tazeem")
    TagMap(path).add("0202", "Bant")
    assert path.read_bytes() == b"01:01  Tazeem\n02:02  Bant\n"


def test_HW3_add_keeps_windows_line_ends(path: Path) -> None:
    path.write_bytes(b"# c\r\n01:01  Tazeem\r\n")
    TagMap(path).add("0202", "Bant")
    assert path.read_bytes() == b"# c\r\n01:01  Tazeem\r\n02:02  Bant\r\n"


def test_HW3_add_refuses_unknown_cards_and_bad_uids(path: Path) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    with pytest.raises(
        UnknownName, match="No plane, phenomenon or contraption is called 'Naya Plains'"
    ):
        tags.add("0202", "Naya Plains")
    with pytest.raises(ValueError, match="'xyz' is not a tag UID"):
        tags.add("xyz", "Bant")
    assert path.read_text(encoding="utf-8") == "01:01  Tazeem\n"


def test_HW3_add_does_not_undo_a_hand_edit(path: Path) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    with path.open("a", encoding="utf-8") as file:
        file.write("02:02  Bant\n")
    tags.add("0303", "Akoum")
    assert path.read_text(encoding="utf-8") == "01:01  Tazeem\n02:02  Bant\n03:03  Akoum\n"
    assert len(tags) == 3


def test_HW3_remove(path: Path) -> None:
    path.write_text("# c\n01:01  Tazeem\n02:02  Bant\n# end\n", encoding="utf-8")
    tags = TagMap(path)
    assert tags.remove("01-01") == card("Tazeem")
    assert path.read_text(encoding="utf-8") == "# c\n02:02  Bant\n# end\n"
    assert tags.lookup("0101") is None


def test_HW3_remove_unknown_tag_leaves_the_file_alone(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)

    def refuse(path: Path, data: bytes) -> None:
        raise AssertionError("the file was written")

    monkeypatch.setattr(tagmap_module, "_write_atomically", refuse)
    assert tags.remove("0202") is None
    missing = path.with_name("missing.txt")
    assert TagMap(missing).remove("0101") is None
    assert not missing.exists()


def test_HW3_remove_also_drops_unusable_lines_of_that_tag(path: Path) -> None:
    path.write_text("01:01  Tazeem\n0101  Naya Plains\n02:02  Bant\n", encoding="utf-8")
    tags = TagMap(path)
    assert tags.remove("0101") == card("Tazeem")
    assert path.read_text(encoding="utf-8") == "02:02  Bant\n"
    assert tags.problems == ()


# --- atomic writes ----------------------------------------------------------------------------------


def test_HW3_a_failed_write_leaves_the_old_file(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)

    def power_cut(source: str, target: str) -> None:
        raise OSError(5, "Input/output error", target)

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError, match="Input/output error"):
        tags.add("0202", "Bant")
    assert path.read_text(encoding="utf-8") == "01:01  Tazeem\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["tags.txt"]  # no temp file left
    assert tags.lookup("0202") is None


def test_HW3_write_is_synced_then_renamed(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    path.chmod(0o640)
    tags = TagMap(path)
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append("fsync")
        real_fsync(fd)

    def replace(source: str, target: str) -> None:
        calls.append("replace")
        assert Path(source).parent == path.parent
        assert Path(source).read_text(encoding="utf-8") == "01:01  Tazeem\n02:02  Bant\n"
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    tags.add("0202", "Bant")
    # The data reaches the disk before the rename, and the directory after it.
    assert calls == ["fsync", "replace", "fsync"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


# --- reloading --------------------------------------------------------------------------------------


def test_HW3_reloads_when_the_file_changes(path: Path) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    assert tags.refresh() is False
    path.write_text("01:01  Tazeem\n02:02  Bant\n", encoding="utf-8")
    assert tags.lookup("0202") == card("Bant")
    assert tags.refresh() is False


def test_HW3_reloads_a_replaced_file_of_the_same_size_and_time(path: Path) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    times = path.stat()
    other = path.with_name("other.txt")
    other.write_text("01:01  Akoum!\n", encoding="utf-8")
    os.utime(other, ns=(times.st_atime_ns, times.st_mtime_ns))
    os.replace(other, path)
    assert tags.refresh() is True
    assert tags.lookup("0101") == card("Akoum")


def test_HW3_a_deleted_file_empties_the_map(path: Path) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    path.unlink()
    assert tags.lookup("0101") is None
    assert len(tags) == 0


def test_HW3_an_unreadable_file_keeps_the_last_map(
    path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path.write_text("01:01  Tazeem\n", encoding="utf-8")
    tags = TagMap(path)
    path.write_text("01:01  Bant\n", encoding="utf-8")

    def denied(where: Path, limit: int) -> bytes:
        raise PermissionError(13, "Permission denied", str(where))

    monkeypatch.setattr("device.tagmap.read_regular", denied)
    with caplog.at_level(logging.WARNING, logger="device.tagmap"):
        assert tags.lookup("0101") == card("Tazeem")
        assert tags.lookup("0101") == card("Tazeem")
    assert [str(problem) for problem in tags.problems] == [
        f"{path}: cannot read the tag map (Permission denied); keeping the tags read before"
    ]
    assert len(caplog.records) == 1  # said once, not on every tap
    monkeypatch.undo()
    assert tags.lookup("0101") == card("Bant")
    assert tags.problems == ()


# --- invariants --------------------------------------------------------------------------------------

uid_bytes = st.binary(min_size=1, max_size=10)


def spell(raw: bytes, separator: str, upper: bool) -> str:
    text = separator.join(f"{byte:02x}" for byte in raw)
    return text.upper() if upper else text


@given(raw=uid_bytes, separator=st.sampled_from(["", ":", "-", " "]), upper=st.booleans())
def test_HW3_any_uid_spelling_round_trips(raw: bytes, separator: str, upper: bool) -> None:
    spelled = spell(raw, separator, upper)
    assert normalise_uid(spelled) == raw.hex().upper()
    assert format_uid(spelled) == ":".join(f"{byte:02X}" for byte in raw)
    assert normalise_uid(format_uid(spelled)) == raw.hex().upper()


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(
    raw=uid_bytes,
    written=st.tuples(st.sampled_from(["", ":", "-", " "]), st.booleans()),
    read=st.tuples(st.sampled_from(["", ":", "-"]), st.booleans()),
    name=st.sampled_from(CATALOG.names),
)
def test_HW3_enrolled_tag_is_found_in_any_spelling(
    raw: bytes, written: tuple[str, bool], read: tuple[str, bool], name: str
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "tags.txt"
        TagMap(path).add(spell(raw, *written), name)
        fresh = TagMap(path)
        assert fresh.problems == ()
        assert fresh.lookup(spell(raw, *read)) == card(name)


@settings(max_examples=60)
@given(st.binary(max_size=300))
def test_HW3_any_file_content_loads_without_crashing(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "tags.txt"
        path.write_bytes(content)
        tags = TagMap(path)
        lines = len(content.splitlines())
        assert len(tags) <= lines
        assert all(1 <= problem.line <= lines for problem in tags.problems)


# Letters that are not hex digits, so no generated line can be about the tag being added.
_NOT_HEX = "ghijklmnopqrstuvwxyzGHIJ #:-\t\r\n é"


@settings(max_examples=60)
@given(st.text(alphabet=_NOT_HEX, max_size=200))
def test_HW3_add_never_loses_other_lines(content: str) -> None:
    data = content.encode("utf-8")
    assume(data)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "tags.txt"
        path.write_bytes(data)
        TagMap(path).add("DEADBEEF", "Tazeem")
        written = path.read_bytes()
        assert written.startswith(data)
        assert written[len(data) :].strip(b"\r\n") == b"DE:AD:BE:EF  Tazeem"
