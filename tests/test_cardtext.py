"""HW-3: rules text and pictures come from a card-data file the user provides (Scryfall or MTGJSON).

The test files are small, written here in the same shapes as the real downloads.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import time
import tracemalloc
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from display import cli
from device.catalog import load_catalog
from device.cardtext import (
    CardDataError,
    CardText,
    clear_cache,
    import_file,
    read_cards,
    rules_text,
)
from device.text import render

#: The first bytes of real pictures (what the importer checks).
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
GIF = b"GIF89a\x01\x00\x01\x00"
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 "
TAZEEM = "Roll to visit your Attractions.\nWhenever you roll {CHAOS}, draw a card for each land you control."


def scryfall_card(name: str, type_line: str, text: str, **extra: Any) -> dict[str, Any]:
    return {
        "object": "card",
        "id": "00000000-0000-0000-0000-000000000000",
        "lang": "en",
        "name": name,
        "layout": "planar" if "Plane" in type_line or "Phenomenon" in type_line else "normal",
        "type_line": type_line,
        "oracle_text": text,
        "legalities": {"vintage": "not_legal"},
        "image_uris": {"small": f"https://example.invalid/{name}.jpg"},
        **extra,
    }


SCRYFALL = [
    scryfall_card("Lightning Bolt", "Instant", "Lightning Bolt deals 3 damage to any target."),
    scryfall_card("Tazeem", "Plane — Zendikar", TAZEEM),
    scryfall_card(
        "Chaotic Aether", "Phenomenon", "When you encounter Chaotic Aether, each blank roll …"
    ),
    scryfall_card("Tazeem", "Plane — Zendikar", "a later printing", lang="ja"),
    scryfall_card(
        "Accessories to Murder", "Artifact — Contraption", "Whenever this Contraption cranks, …"
    ),
]


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    clear_cache()
    yield tmp_path / "data"
    clear_cache()


def write(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def test_hw3_without_import_there_is_no_text_and_a_hint(data_dir: Path) -> None:
    """HW-3: before any import the kiosk shows name and type only, with this hint."""
    assert rules_text("Tazeem", data_dir) is None
    assert render("cardtext.missing_hint", {}) == (
        "No rules text on this gadget yet. To show it, run 'aetherbox catalog fetch' while online, or import a "
        "card-data file: aetherbox catalog import FILE"
    )


def test_hw3_scryfall_import_stores_planes_phenomena_contraptions(
    tmp_path: Path, data_dir: Path
) -> None:
    """HW-3: a Scryfall bulk file: the catalog's cards are kept (English only), others ignored."""
    report = import_file(write(tmp_path / "oracle-cards.json", SCRYFALL), data_dir)
    assert sorted(report.cards) == ["Accessories to Murder", "Chaotic Aether", "Tazeem"]
    assert rules_text("tazeem", data_dir) == CardText(
        name="Tazeem", type_line="Plane — Zendikar", text=TAZEEM
    )
    assert rules_text("Lightning Bolt", data_dir) is None
    contraption = rules_text("accessories to murder", data_dir)
    assert contraption is not None and contraption.type_line == "Artifact — Contraption"
    assert "Academy at Tolaria West" in report.missing


def test_hw3_mtgjson_allprintings_and_set_files(tmp_path: Path, data_dir: Path) -> None:
    """HW-3: MTGJSON: AllPrintings ({"data": {SET: {"cards": [...]}}}) and a set file
    ({"data": {"cards": [...]}}), skipping everything else in them."""
    card = {
        "name": "Bant",
        "type": "Plane — Alara",
        "text": "All creatures have exalted.",
        "types": ["Plane"],
    }
    everything = {
        "meta": {"date": "2025-01-01", "version": "5.2.2"},
        "data": {
            "LEA": {
                "name": "Limited Edition Alpha",
                "cards": [{"name": "Black Lotus", "type": "Artifact", "text": "…"}],
                "tokens": [],
                "booster": {"default": {"boosters": [{"weight": 1}]}},
            },
            "OHOP": {"baseSetSize": 40, "cards": [card], "totalSetSize": 40, "translations": {}},
        },
    }
    report = import_file(write(tmp_path / "AllPrintings.json", everything), data_dir)
    assert list(report.cards) == ["Bant"]
    assert rules_text("Bant", data_dir) == CardText(
        name="Bant", type_line="Plane — Alara", text="All creatures have exalted."
    )
    one_set = {
        "meta": {},
        "data": {
            "code": "UST",
            "cards": [
                {
                    "name": "Applied Aeronautics",
                    "type": "Artifact — Contraption",
                    "text": "Flying …",
                }
            ],
        },
    }
    import_file(write(tmp_path / "UST.json", one_set), data_dir)
    assert rules_text("Bant", data_dir) is None  # a re-import replaces, it does not merge
    assert rules_text("applied aeronautics", data_dir) is not None


def test_hw3_gzip_and_standard_input(tmp_path: Path, data_dir: Path) -> None:
    """HW-3: the file may be gzip-compressed, or come on standard input."""
    packed = tmp_path / "oracle-cards.json.gz"
    packed.write_bytes(gzip.compress(json.dumps(SCRYFALL).encode()))
    assert len(import_file(packed, data_dir).cards) == 3
    raw = io.BufferedReader(io.BytesIO(json.dumps(SCRYFALL[1:2]).encode()))  # type: ignore[arg-type]
    assert list(import_file(raw, data_dir).cards) == ["Tazeem"]


@pytest.mark.parametrize(
    ("contents", "message"),
    [
        (b"", "the file is empty."),
        (
            b"<html>rate limited</html>",
            "this is not JSON card data: expected a Scryfall bulk file (a JSON array) "
            "or an MTGJSON file (a JSON object).",
        ),
        (
            json.dumps(SCRYFALL).encode()[:-40],
            "the file ends in the middle of the card data: it was cut short "
            "(an interrupted download?). Download it again.",
        ),
        (
            json.dumps(SCRYFALL).encode()[:-1],
            "the file ends in the middle of the card data: it was cut short "
            "(an interrupted download?). Download it again.",
        ),
        (
            b'[{"name": "Tazeem", "type_line": "Plane"} {"name": "Bant"}]',
            "expected ',', found '{' (at character 42).",
        ),
        (b'{"meta": {}}', 'no "data" in this JSON object: not an MTGJSON file.'),
        (
            json.dumps(SCRYFALL[:1]).encode(),
            "no planes, phenomena or contraptions in this file. Use Scryfall's "
            '"Oracle Cards" bulk file or an MTGJSON AllPrintings or set file (OPCA, PCA, HOP, UST, UND…).',
        ),
        (b"\xff\xfe[\x00", "this is not a UTF-8 text file (invalid start byte)."),
    ],
)
def test_hw3_wrong_or_truncated_files_are_refused_and_keep_the_old_text(
    tmp_path: Path, data_dir: Path, contents: bytes, message: str
) -> None:
    """HW-3: a wrong or truncated file is refused with a clear message, and the text imported
    before stays exactly as it was."""
    import_file(write(tmp_path / "good.json", SCRYFALL), data_dir)
    before = (data_dir / "cardtext" / "cards.json").read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_bytes(contents)
    with pytest.raises(CardDataError) as error:
        import_file(bad, data_dir)
    assert str(error.value) == f"{bad}: {message}"
    assert (data_dir / "cardtext" / "cards.json").read_bytes() == before
    assert sorted(p.name for p in (data_dir / "cardtext").iterdir()) == ["cards.json"]


def test_hw3_images_from_a_folder_and_from_local_paths(tmp_path: Path, data_dir: Path) -> None:
    """HW-3: pictures come from a folder (named after the cards) or the export's local paths."""
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "Tazeem.JPG").write_bytes(JPEG + b"tazeem")
    (folder / "chaotic-aether.png").write_bytes(PNG + b"aether")
    report = import_file(write(tmp_path / "cards.json", SCRYFALL), data_dir, image_folder=folder)
    assert report.images == 2
    tazeem = rules_text("Tazeem", data_dir)
    assert tazeem is not None and tazeem.image is not None
    assert Path(tazeem.image).read_bytes() == JPEG + b"tazeem"
    local = [
        scryfall_card("Bant", "Plane — Alara", "exalted", image_uris={"small": "img/bant.jpg"})
    ]
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "bant.jpg").write_bytes(GIF + b"bant")
    import_file(write(tmp_path / "local.json", local), data_dir, images=True)
    bant = rules_text("Bant", data_dir)
    assert (
        bant is not None
        and bant.image is not None
        and Path(bant.image).read_bytes() == GIF + b"bant"
    )
    assert not Path(tazeem.image).exists()  # the old import's pictures went with it
    assert len(list((data_dir / "cardtext").glob("images-*"))) == 1


def test_hw3_images_without_local_pictures_need_a_folder(tmp_path: Path, data_dir: Path) -> None:
    """HW-3: an import does not download; asking for images from web addresses says what to do."""
    with pytest.raises(CardDataError) as error:
        import_file(write(tmp_path / "cards.json", SCRYFALL), data_dir, images=True)
    assert str(error.value).endswith(
        "This file has no pictures stored on this computer (only web addresses), and an import does not "
        "download. On a computer that is online, run: aetherbox catalog fetch; or put one picture per card in "
        "a folder, named after the card (Tazeem.jpg), and run: aetherbox catalog import FILE --images FOLDER"
    )


def test_hw3_lookup_is_cached_and_reloaded_after_an_import(tmp_path: Path, data_dir: Path) -> None:
    """HW-3: the stored file is read once; another import (even by another process, so only the
    file changes) is seen by the next lookup."""
    import_file(write(tmp_path / "a.json", SCRYFALL), data_dir)
    first = rules_text("Tazeem", data_dir)
    assert rules_text("Tazeem", data_dir) is first  # cached, not re-read
    store = data_dir / "cardtext" / "cards.json"
    document = json.loads(store.read_text(encoding="utf-8"))
    document["cards"]["Tazeem"]["text"] = "changed"
    replacement = store.with_name("other.json")
    replacement.write_text(json.dumps(document), encoding="utf-8")
    replacement.replace(store)  # what an import in another process does
    changed = rules_text("Tazeem", data_dir)
    assert changed is not None and changed.text == "changed"


def test_hw3_console_command_imports(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HW-3: `aetherbox catalog import FILE` reports what it stored; errors exit 1 with the reason."""
    source = write(tmp_path / "oracle-cards.json", SCRYFALL)
    assert cli.main(["catalog", "import", str(source)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert (
        out[0]
        == f"Imported the rules text of 3 cards (1 plane, 1 phenomenon, 1 contraption) from {source}."
    )
    missing = len(load_catalog()) - 3
    assert out[1] == (
        f"{missing} cards the gadget knows are not in this file: Academy at Tolaria West, Agyrem, Bant, "
        f"Celestine Reef, Cliffside Market and {missing - 5} more."
    )
    assert rules_text("Tazeem") is not None  # the data directory the CLI used
    assert cli.main(["catalog", "import", str(tmp_path / "missing.json")]) == 1
    assert (
        capsys.readouterr().err == f"aetherbox: error: {tmp_path / 'missing.json'}: no such file.\n"
    )


def test_hw3_streaming_uses_constant_memory(tmp_path: Path) -> None:
    """HW-3: reading a file many times bigger than a card keeps only about one card in memory."""
    filler = "x" * 2000
    path = tmp_path / "big.json"
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        for i in range(4000):  # about 8 MB
            out.write(
                ("," if i else "") + json.dumps(scryfall_card(f"Card {i}", "Instant", filler))
            )
        out.write("]")
    tracemalloc.start()
    count = sum(1 for _ in read_cards(path))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count == 4000
    assert peak < 2_000_000, peak


@settings(max_examples=60, deadline=None)
@given(
    # Numbers as card data has them: Infinity is not JSON, and numbers over 40 digits are refused.
    cards=st.lists(
        st.dictionaries(
            st.text(max_size=8),
            st.one_of(
                st.integers(min_value=-(10**30), max_value=10**30),
                st.text(max_size=30),
                st.floats(allow_nan=False, allow_infinity=False),
                st.none(),
            ),
            max_size=4,
        ),
        max_size=6,
    ),
    chunk=st.integers(min_value=1, max_value=64),
)
def test_hw3_stream_reader_matches_json_loads(
    cards: list[dict[str, Any]], chunk: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """HW-3: whatever the chunk boundaries, the streamed objects equal a whole-file parse."""
    import device.cardtext as cardtext

    path = tmp_path_factory.mktemp("stream") / "cards.json"
    path.write_text(json.dumps(cards, indent=chunk % 3 or None), encoding="utf-8")
    original = cardtext.CHUNK
    cardtext.CHUNK = chunk
    try:
        assert list(read_cards(path)) == cards
    finally:
        cardtext.CHUNK = original


# --- hostile files: refused within seconds, nothing written ---------------------------------------

NOT_A_CARD_FILE = 'This is not a card file: download Scryfall\'s "Oracle Cards" file or an MTGJSON file again and import that.'
#: Loose on purpose: each refusal takes well under a second, and a slow machine must still pass.
SECONDS = 10


def snapshot(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def refuse(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Import a good file, then run `aetherbox catalog import ARGV…`: it must exit 1 within
    SECONDS and leave the data directory exactly as it was.  Returns the error line."""
    data = Path(os.environ["AETHERBOX_DATA_DIR"])
    assert cli.main(["catalog", "import", str(write(tmp_path / "good.json", SCRYFALL))]) == 0
    before = snapshot(data)
    capsys.readouterr()
    started = time.monotonic()
    assert cli.main(["catalog", "import", *argv]) == 1
    assert time.monotonic() - started < SECONDS
    assert snapshot(data) == before
    error: str = capsys.readouterr().err
    assert error.startswith("aetherbox: error: ") and error.endswith("\n")
    return error.removeprefix("aetherbox: error: ").removesuffix("\n")


@pytest.mark.parametrize(
    ("document", "at"),
    [
        ("[" * 200_000 + "]" * 200_000, 65),
        ('{"meta": {}, "data": ' + '{"a": ' * 200_000 + "1" + "}" * 200_001, 417),
    ],
    ids=["scryfall-array", "mtgjson-object"],
)
def test_hw3_deeply_nested_file_is_refused(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str], document: str, at: int
) -> None:
    """HW-3: JSON nested 200,000 levels deep is refused clearly (no RecursionError), where it
    passes 64 levels."""
    hostile = tmp_path / "deep.json"
    hostile.write_text(document, encoding="utf-8")
    assert refuse(tmp_path, capsys, str(hostile)) == (
        f"{hostile}: the data is nested more than 64 levels deep, which no card data is (at character {at}). "
        f"{NOT_A_CARD_FILE}"
    )


def gzip_member(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize("content", [b" ", b"a"], ids=["spaces", "one-long-string"])
def test_hw3_gzip_bomb_is_refused(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    """HW-3: about 1 MB of gzip unpacking to 1 GiB (made of gzip members one after another, as
    gzip itself accepts, so the test builds it fast) is refused after the first megabytes."""
    sixty_four_mib = gzip_member(content * (64 << 20))
    hostile = tmp_path / "bomb.json.gz"
    hostile.write_bytes(
        gzip_member(b'["' if content == b"a" else b"[") + sixty_four_mib * 16 + gzip_member(b"]")
    )
    assert hostile.stat().st_size < 1_100_000
    assert refuse(tmp_path, capsys, str(hostile)) == (
        f"{hostile}: it unpacks to more than 100 times its compressed size, which card data never does "
        f"(a decompression bomb?). {NOT_A_CARD_FILE}"
    )


WORDS = "target creature gets +1/+1 until end of turn draw a card you control each opponent loses life".split()


def test_hw3_gzip_of_real_card_data_is_not_a_bomb(tmp_path: Path, data_dir: Path) -> None:
    """HW-3: pretty-printed card data packs far below the limit, in one gzip member or several."""
    rng = random.Random(3)
    cards = [
        scryfall_card(
            f"Card {i}",
            "Instant",
            " ".join(rng.choice(WORDS) for _ in range(30)),
            id=str(uuid.UUID(int=rng.getrandbits(128))),
        )
        for i in range(3000)
    ]
    document = json.dumps(SCRYFALL + cards, indent=4).encode()
    packed = tmp_path / "oracle-cards.json.gz"
    packed.write_bytes(gzip.compress(document[:1000]) + gzip.compress(document[1000:]))
    assert len(document) / packed.stat().st_size < 100
    assert len(import_file(packed, data_dir).cards) == 3


@pytest.mark.parametrize(
    ("contents", "message"),
    [
        (
            b"[" + b" " * (32 << 20) + b"]",
            f"more than 16,777,216 blank characters in a row (at character 1). {NOT_A_CARD_FILE}",
        ),
        (
            b'[{"name":' + b"\n" * (32 << 20) + b'"Tazeem"}]',
            f"more than 16,777,216 blank characters in a row (at character 9). {NOT_A_CARD_FILE}",
        ),
        (b"[" + b"x" * (32 << 20) + b"]", "not valid JSON: Expecting value (at character 1)."),
    ],
    ids=["blank-run", "blank-run-inside-a-card", "garbage"],
)
def test_hw3_whitespace_and_garbage_bombs_are_refused(
    tmp_path: Path,
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    contents: bytes,
    message: str,
) -> None:
    """HW-3: a plain file of blanks or garbage is refused after the limit, not read to its end."""
    hostile = tmp_path / "bomb.json"
    hostile.write_bytes(contents)
    assert refuse(tmp_path, capsys, str(hostile)) == f"{hostile}: {message}"


def bant_with_picture(path: str) -> list[dict[str, Any]]:
    return [scryfall_card("Bant", "Plane — Alara", "exalted", image_uris={"small": path})]


@pytest.mark.parametrize(
    "written",
    [
        "../secret.jpg",
        "img/../../secret.jpg",
        "{outside}/secret.jpg",
        "file://{outside}/secret.jpg",
        "/etc/passwd",
        "img/link.jpg",
    ],
    ids=[
        "dot-dot",
        "dot-dot-inside",
        "absolute",
        "file-address",
        "system-file",
        "symbolic-link-out",
    ],
)
def test_hw3_picture_paths_outside_the_card_files_folder_are_refused(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str], written: str
) -> None:
    """HW-3: an export may only point to pictures in its own folder: a real picture elsewhere
    (or any other file) is not copied into the data directory."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.jpg").write_bytes(JPEG + b"not yours")
    folder = tmp_path / "download"
    (folder / "img").mkdir(parents=True)
    (tmp_path / "secret.jpg").write_bytes(JPEG + b"not yours")
    (folder / "img" / "link.jpg").symlink_to(outside / "secret.jpg")
    written = written.format(outside=outside)
    hostile = write(folder / "cards.json", bant_with_picture(written))
    assert refuse(tmp_path, capsys, str(hostile), "--images") == (
        f"{hostile}: the picture of 'Bant', {written!r}, is outside {folder}. Pictures must be in the card "
        "file's folder or the --images folder: move them there and import again."
    )


def test_hw3_a_symbolic_link_out_of_the_images_folder_is_refused(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HW-3: `--images FOLDER`: a card's picture that is a link to a file elsewhere is refused."""
    (tmp_path / "secret.png").write_bytes(PNG + b"not yours")
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / "Tazeem.png").symlink_to(tmp_path / "secret.png")
    (tmp_path / "download").mkdir()
    source = write(tmp_path / "download" / "cards.json", SCRYFALL)
    assert refuse(tmp_path, capsys, str(source), "--images", str(pictures)) == (
        f"{source}: the picture of 'Tazeem', '{pictures / 'Tazeem.png'}', is outside {pictures}. Pictures must be "
        "in the card file's folder or the --images folder: move them there and import again."
    )


@pytest.mark.parametrize("in_folder", [False, True], ids=["export-path", "images-folder"])
def test_hw3_a_file_that_is_not_a_picture_is_refused(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str], in_folder: bool
) -> None:
    """HW-3: only real pictures are stored: a text file (here a copy of a password file) named
    like a picture is refused, from the export's paths and from an images folder alike."""
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    fake = pictures / "Bant.jpg"
    fake.write_bytes(b"root:x:0:0:root:/root:/bin/bash\n")
    (pictures / "Tazeem.webp").write_bytes(WEBP + b"fine")
    source = write(tmp_path / "cards.json", SCRYFALL + bant_with_picture("pictures/Bant.jpg"))
    extra = ["--images", str(pictures)] if in_folder else ["--images"]
    written = str(fake) if in_folder else "pictures/Bant.jpg"
    assert refuse(tmp_path, capsys, str(source), *extra) == (
        f"{source}: the picture of 'Bant', {written!r}, is not a PNG, JPEG, WebP, GIF or BMP image. Put the "
        "card's picture there, or remove the entry, and import again."
    )


def test_hw3_pictures_inside_the_folder_are_stored(tmp_path: Path, data_dir: Path) -> None:
    """HW-3: the limits let real exports through: relative paths, file: addresses and links that
    stay inside the folder, in every supported format."""
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "bant.webp").write_bytes(WEBP + b"bant")
    (tmp_path / "img" / "link.webp").symlink_to(tmp_path / "img" / "bant.webp")
    for written in (
        "img/bant.webp",
        (tmp_path / "img" / "bant.webp").as_uri(),
        "img/../img/link.webp",
    ):
        report = import_file(
            write(tmp_path / "cards.json", bant_with_picture(written)), data_dir, images=True
        )
        assert report.images == 1
        bant = rules_text("Bant", data_dir)
        assert (
            bant is not None
            and bant.image is not None
            and Path(bant.image).read_bytes() == WEBP + b"bant"
        )
