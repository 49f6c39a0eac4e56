"""Rules text (and optionally pictures) of the planar cards and contraptions, from a card-data file
the user downloaded (HW-3).

The catalog ships names and types only.  ``aetherbox catalog import FILE`` reads one of

- a Scryfall bulk export ("Oracle Cards", "Default Cards", "All Cards": one JSON array of card
  objects, hundreds of megabytes), or
- an MTGJSON file (``AllPrintings.json`` or one set's file: ``{"meta": …, "data": …}``),

keeps the text of the cards the catalog knows, and stores it in ``cardtext/cards.json`` in the
data directory, where the kiosk finds it through ``rules_text(name)``.

The files are read as a stream, one card object at a time (``json.JSONDecoder.raw_decode`` over
chunks), so memory stays small however big the download: the standard library is enough, and a
streaming JSON package would be one more thing to install on the Pi for a command run once.
A gzip-compressed file is read as it is.  Re-importing replaces the stored text in one rename, so
the kiosk sees the old text or the new, never a mixture.

The file may be hostile: nesting deeper than ``MAX_DEPTH`` levels, a number longer than
``MAX_NUMBER`` characters (or ``NaN`` and ``Infinity``, which are not JSON), a gzip file unpacking
to more than ``MAX_RATIO`` times its size, ``MAX_BLANK`` blanks in a row, garbage, and a path that
is not a regular file (a FIFO would wait for a writer for ever, a device never ends) are refused
at once, before anything is written (docs/decisions/0008-card-data-import.md).  ``loads`` gives
``device.scryfall`` the same guards for the search pages it downloads.

Pictures: an import does not use the network (``aetherbox catalog fetch``, ``device.scryfall``,
downloads text and pictures into the same store), so its images come only from files on this
machine — the export's image entries when they are local paths (``file://`` or plain paths), or a
folder passed with ``--images FOLDER`` holding one picture per card, named after the card
(``Tazeem.jpg``).  A picture must be a real image inside the card file's folder or that folder;
anything else refuses the import, so no other file on the machine is copied into the data
directory.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import re
import shutil
import stat
import tempfile
import time
import urllib.parse
import urllib.request
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any, cast

from msgspec import Struct, field

from device import paths
from device.catalog import Card, CardKind, Catalog, load_catalog, name_key
from device.errors import AetherboxError
from device.models import Model
from device.text import Plural, Text

TEXTS: dict[str, Text] = {
    "cardtext.missing_hint": (
        "No rules text on this gadget yet. To show it, run 'aetherbox catalog fetch' while online, "
        "or import a card-data file: aetherbox catalog import FILE"
    ),
    "cardtext.imported": Plural(
        "Imported the rules text of {cards} card ({planes}, {phenomena}, {contraptions}) from {source}.",
        "Imported the rules text of {cards} cards ({planes}, {phenomena}, {contraptions}) from {source}.",
        "cards",
    ),
    "cardtext.planes": Plural("{n} plane", "{n} planes"),
    "cardtext.phenomena": Plural("{n} phenomenon", "{n} phenomena"),
    "cardtext.contraptions": Plural("{n} contraption", "{n} contraptions"),
    "cardtext.images": Plural(
        "Stored {images} card image.", "Stored {images} card images.", "images"
    ),
    "cardtext.not_in_file": Plural(
        "{count} card the gadget knows is not in this file: {names}.",
        "{count} cards the gadget knows are not in this file: {names}.",
        "count",
    ),
    "cardtext.images_need_folder": (
        "This file has no pictures stored on this computer (only web addresses), and an import "
        "does not download. On a computer that is online, run: aetherbox catalog fetch; or put one "
        "picture per card in a folder, named after the card (Tazeem.jpg), and run: aetherbox "
        "catalog import FILE --images FOLDER"
    ),
}

STORE = "cardtext"
STORE_FILE = "cards.json"
STORE_SCHEMA = 1
CHUNK = 1 << 16
#: One card record (or one skipped MTGJSON value) larger than this means the file is not a card
#: file; refusing keeps a damaged file from being read into memory whole.
MAX_VALUE = 64 << 20
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp")
#: Blank characters in a row.  Real exports indent by a few dozen at most; a run this long is a
#: file made of spaces (a "whitespace bomb"), refused before it is read to the end.
MAX_BLANK = 16 << 20
#: A compressed file may unpack to at most this many times the compressed bytes read so far
#: (plus ``INFLATE_SLACK`` for small files).  JSON card data packs 5–15 times; a gzip bomb (a
#: megabyte of gzip holding a gigabyte of spaces) packs about 1000 times and is refused after the
#: first few megabytes.  See docs/decisions/0008-card-data-import.md.
MAX_RATIO = 100
INFLATE_SLACK = 1 << 20
#: A card picture is a few hundred kilobytes; a larger "picture" is not copied.
MAX_IMAGE = 32 << 20
_BLANK = re.compile(r"[ \t\r\n]*")
#: Levels of arrays and objects.  A Scryfall search page nests 5 deep, an MTGJSON file 8.  The
#: standard decoder follows nesting by recursion: a whole document (``loads``) is scanned before
#: it runs; a streamed card record is checked after it is decoded, the decoder's own recursion
#: guard (about a thousand levels) refusing anything deeper first.
MAX_DEPTH = 64
#: Characters in one number.  Card data's numbers are counts, prices and ids of a dozen digits;
#: a longer one is refused (Python would refuse past 4,300 digits, or overflow on arithmetic).
MAX_NUMBER = 40
#: What the nesting scan looks at: a string (skipped whole), an opening or a closing bracket.
_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{]|[\]}]')
_NOT_A_CARD_FILE = 'This is not a card file: download Scryfall\'s "Oracle Cards" file or an MTGJSON file again and import that.'


class CardDataError(AetherboxError, ValueError):
    """The card-data file cannot be read as Scryfall or MTGJSON card data."""

    def __init__(self, source: object, message: str) -> None:
        self.source = source
        super().__init__(f"{source}: {message}")


class CardText(Model):
    """What the kiosk shows about a card beyond its name."""

    name: str
    type_line: str
    text: str
    #: A picture on this machine (absolute path), or None.
    image: str | None = None


# --- guarded JSON -------------------------------------------------------------------------------


class JSONRefused(ValueError):
    """JSON that is well formed but is not data anyone sends: nested too deep, a number of
    absurd size.  ``at`` is the character where it was seen (relative to the text scanned)."""

    def __init__(self, reason: str, at: int | None = None) -> None:
        self.reason = reason
        self.at = at
        super().__init__(reason)


def _parse_int(text: str) -> int:
    if len(text) > MAX_NUMBER:
        raise JSONRefused(f"a number of more than {MAX_NUMBER} digits, which no card data has")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text) if len(text) <= MAX_NUMBER else math.inf
    if not math.isfinite(value):
        raise JSONRefused(
            f"a number too large for card data ({text[:20]}…)"
            if len(text) > 20
            else f"a number too large for card data ({text})"
        )
    return value


def _parse_constant(name: str) -> Any:
    raise JSONRefused(f"{name}, which is not a JSON number")


def decoder() -> json.JSONDecoder:
    """The standard decoder, refusing numbers of absurd size and ``NaN``/``Infinity``."""
    return json.JSONDecoder(
        parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
    )


def nesting(text: str, start: int = 0, limit: int = MAX_DEPTH) -> int | None:
    """Where the value starting at ``start`` ends (the index after it) if it closes within
    ``text``, else None; raises ``JSONRefused`` where it goes deeper than ``limit`` levels.
    Strings are skipped whole, so brackets inside them do not count.  Iterative: any depth is
    scanned in constant stack."""
    depth = 0
    for match in _NESTING.finditer(text, start):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                raise JSONRefused(
                    f"the data is nested more than {limit} levels deep, which no card data is",
                    match.start(),
                )
        elif token in "]}":
            depth -= 1
            if depth <= 0:
                return match.end()
        elif depth == 0:
            return match.end()  # the value is a string
    return None


def loads(data: bytes) -> Any:
    """A whole JSON document (UTF-8), with the guards of the import: nesting deeper than
    ``MAX_DEPTH`` and numbers of absurd size raise ``JSONRefused``; text that is not JSON raises
    ``ValueError`` (``UnicodeDecodeError``, ``json.JSONDecodeError``)."""
    text = data.decode("utf-8")
    if text.count("[") + text.count("{") > MAX_DEPTH:
        nesting(text, 0)
    return decoder().decode(text)


# --- streaming JSON -----------------------------------------------------------------------------


class _Stream:
    """Incremental reading of one JSON document: containers are walked by hand, leaf values (a card
    object, a skipped entry) are decoded whole with ``raw_decode``."""

    def __init__(self, reader: IO[str], source: str) -> None:
        self._reader = reader
        self._source = source
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._decoder = decoder()
        self._consumed = 0  # characters dropped from the front of the buffer

    def _more(self, size: int | None = None) -> bool:
        if self._eof:
            return False
        chunk = self._reader.read(size or CHUNK)
        if not chunk:
            self._eof = True
            return False
        if self._pos > CHUNK:
            self._consumed += self._pos
            self._buf = self._buf[self._pos :]
            self._pos = 0
        self._buf += chunk
        return True

    def _error(self, what: str, advice: str = "", at: int | None = None) -> CardDataError:
        where = self._consumed + self._pos if at is None else at
        return CardDataError(
            self._source, f"{what} (at character {where}).{' ' + advice if advice else ''}"
        )

    def _truncated(self) -> CardDataError:
        return CardDataError(
            self._source,
            "the file ends in the middle of the card data: it was cut short (an "
            "interrupted download?). Download it again.",
        )

    def _too_blank(self, start: int) -> CardDataError:
        return self._error(
            f"more than {MAX_BLANK:,} blank characters in a row", _NOT_A_CARD_FILE, start
        )

    def peek(self) -> str:
        """The next non-blank character ('' at the end)."""
        run, start = 0, self._consumed + self._pos
        while True:
            buf, pos = self._buf, self._pos
            match = _BLANK.match(buf, pos)
            assert match is not None  # the pattern matches the empty string
            end = match.end()
            run += end - pos
            self._pos = end
            if run > MAX_BLANK:
                raise self._too_blank(start)
            if end < len(buf):
                return buf[end]
            if not self._more():
                return ""

    def expect(self, char: str) -> None:
        found = self.peek()
        if found != char:
            if not found:
                raise self._truncated()
            raise self._error(f"expected {char!r}, found {found!r}")
        self._pos += 1

    def value(self) -> Any:
        """The next complete JSON value."""
        if not self.peek():
            raise self._truncated()
        want = CHUNK
        while True:
            try:
                value, end = self._decode()
            except json.JSONDecodeError as error:
                # An error well before the end of what was read is not a value cut at a chunk's
                # end: more data would not mend it, so garbage is refused without reading on.
                if self._eof:
                    if error.pos >= len(self._buf) - 1 or "Unterminated" in error.msg:
                        raise self._truncated() from None
                    raise self._error(f"not valid JSON: {error.msg}") from None
                if error.pos < len(self._buf) - 16 and not error.msg.startswith("Unterminated"):
                    raise self._error(f"not valid JSON: {error.msg}") from None
                blank = len(self._buf) - len(self._buf.rstrip(" \t\r\n"))
                if blank > MAX_BLANK:
                    raise self._too_blank(self._consumed + len(self._buf) - blank)
                if len(self._buf) - self._pos > MAX_VALUE:
                    raise self._error(
                        "one entry is larger than any card record", _NOT_A_CARD_FILE
                    ) from None
                self._more(want)
                want *= 2  # big values: fewer retries
                continue
            # A number at the very end of the buffer might go on in the next chunk.
            if end == len(self._buf) and self._more():
                continue
            self._pos = end
            return value

    def _decode(self) -> tuple[Any, int]:
        """The value at ``_pos`` and where it ends, as the decoder reads it, with the guards
        against nesting and numbers of absurd size."""
        try:
            value, end = self._decoder.raw_decode(self._buf, self._pos)
            self._check_nesting(end)
        except JSONRefused as error:
            raise self._refused(error) from None
        except RecursionError:
            # The decoder follows nesting by recursion and stops at the interpreter's guard
            # (about a thousand levels): say where the data passed MAX_DEPTH.
            try:
                nesting(self._buf, self._pos)
            except JSONRefused as error:
                raise self._refused(error) from None
            raise self._error(
                f"the data is nested more than {MAX_DEPTH} levels deep, which no card data is",
                _NOT_A_CARD_FILE,
            ) from None
        return value, end

    def _check_nesting(self, end: int) -> None:
        """Refuse the value decoded from ``_pos`` to ``end`` if it nests deeper than
        ``MAX_DEPTH``.  A value with fewer brackets than that cannot, and a card record has a
        dozen, so the scan (slower than the decoder) runs only for the rare value with more:
        the import of a bulk file stays as fast as the decoder."""
        buf, pos = self._buf, self._pos
        if buf.count("[", pos, end) + buf.count("{", pos, end) > MAX_DEPTH:
            nesting(buf, pos)

    def _refused(self, error: JSONRefused) -> CardDataError:
        return self._error(
            error.reason, _NOT_A_CARD_FILE, None if error.at is None else self._consumed + error.at
        )

    def items(self) -> Iterator[str]:
        """The keys of the object starting here; the caller reads or skips each value."""
        self.expect("{")
        if self.peek() == "}":
            self._pos += 1
            return
        while True:
            key = self.value()
            if not isinstance(key, str):
                raise self._error("expected a key")
            self.expect(":")
            yield key
            separator = self.peek()
            if separator == "}":
                self._pos += 1
                return
            self.expect(",")

    def elements(self) -> Iterator[Any]:
        """The values of the array starting here, one at a time."""
        self.expect("[")
        if self.peek() == "]":
            self._pos += 1
            return
        while True:
            yield self.value()
            separator = self.peek()
            if separator == "]":
                self._pos += 1
                return
            self.expect(",")

    def end(self) -> None:
        if self.peek():
            raise self._error("unexpected data after the end of the card data")


class _Inflate(io.RawIOBase):
    """gzip decompression (members one after another, like ``gzip.GzipFile``) that counts the
    compressed bytes zlib has used, so a decompression bomb is refused after a few megabytes
    rather than unpacked to the end."""

    def __init__(self, raw: IO[bytes], source: str) -> None:
        self._raw = raw
        self._source = source
        self._zlib = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer
        self._input = b""  # read from the file, not yet used by zlib
        self._raw_eof = False
        self._used = 0
        self._unpacked = 0

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self._raw.close()  # as the plain file's reader does
        super().close()

    def readinto(self, buffer: Any) -> int:
        while True:
            if not self._input and not self._raw_eof:
                self._input = self._raw.read(CHUNK)
                self._raw_eof = not self._input
            if self._zlib.eof:
                if not self._input.strip(b"\0"):  # the end, or padding after it
                    self._input = b""
                    if self._raw_eof:
                        return 0
                    continue
                self._zlib = zlib.decompressobj(wbits=31)  # another gzip member follows
            elif not self._input:
                raise EOFError("Compressed file ended before the end-of-stream marker was reached")
            given = self._input
            try:
                data = self._zlib.decompress(given, len(buffer))
            except zlib.error as error:
                raise gzip.BadGzipFile(str(error)) from None
            self._input = self._zlib.unused_data if self._zlib.eof else self._zlib.unconsumed_tail
            self._used += len(given) - len(self._input)
            self._unpacked += len(data)
            if self._unpacked > MAX_RATIO * self._used + INFLATE_SLACK:
                raise CardDataError(
                    self._source,
                    f"it unpacks to more than {MAX_RATIO} times its compressed size, which "
                    f"card data never does (a decompression bomb?). {_NOT_A_CARD_FILE}",
                )
            if data:
                buffer[: len(data)] = data
                return len(data)


def _open_regular(path: Path, label: str) -> IO[bytes]:
    """``path`` opened for reading if it is a regular file.  It is opened without waiting (a
    FIFO would wait for a writer) and checked on the open file, so what is read is what was
    checked."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = (
                "a folder"
                if stat.S_ISDIR(mode)
                else "a FIFO (named pipe)"
                if stat.S_ISFIFO(mode)
                else "a device"
                if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket"
                if stat.S_ISSOCK(mode)
                else "not a regular file"
            )
            raise CardDataError(
                label,
                f"this is {what}, not a card-data file. Give the path of the file you downloaded "
                "(to import from a pipe, use: aetherbox catalog import - < FILE).",
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _open_text(source: Path | IO[bytes], label: str) -> IO[str]:
    raw: IO[bytes] = _open_regular(source, label) if isinstance(source, Path) else source
    peek = getattr(raw, "peek", None)
    start = peek(2)[:2] if peek is not None else b""
    if start == b"\x1f\x8b":
        stream: IO[bytes] = cast(IO[bytes], io.BufferedReader(_Inflate(raw, label), CHUNK))
    else:
        stream = raw
    return io.TextIOWrapper(stream, encoding="utf-8-sig", errors="strict")


def _scryfall(stream: _Stream) -> Iterator[dict[str, Any]]:
    for card in stream.elements():
        if isinstance(card, dict):
            yield card


def _mtgjson(stream: _Stream) -> Iterator[dict[str, Any]]:
    found = False
    for key in stream.items():
        if key != "data":
            stream.value()
            continue
        found = True
        if stream.peek() != "{":
            raise stream._error('"data" is not an object: this is not an MTGJSON file')
        for entry in stream.items():
            if entry == "cards" and stream.peek() == "[":  # one set's file
                yield from (c for c in stream.elements() if isinstance(c, dict))
            elif stream.peek() == "{":  # AllPrintings: a set per key
                for part in stream.items():
                    if part == "cards" and stream.peek() == "[":
                        yield from (c for c in stream.elements() if isinstance(c, dict))
                    else:
                        stream.value()
            else:
                stream.value()
    if not found:
        raise CardDataError(stream._source, 'no "data" in this JSON object: not an MTGJSON file.')


def read_cards(source: Path | IO[bytes], name: str | None = None) -> Iterator[dict[str, Any]]:
    """Every card object in a Scryfall or MTGJSON file, as a stream."""
    label = name or (str(source) if isinstance(source, Path) else "standard input")
    try:
        with _open_text(source, label) as reader:
            stream = _Stream(reader, label)
            first = stream.peek()
            if first == "[":
                yield from _scryfall(stream)
            elif first == "{":
                yield from _mtgjson(stream)
            elif not first:
                raise CardDataError(label, "the file is empty.")
            else:
                raise CardDataError(
                    label,
                    "this is not JSON card data: expected a Scryfall bulk file (a JSON array) "
                    "or an MTGJSON file (a JSON object).",
                )
            stream.end()
    except UnicodeDecodeError as error:
        raise CardDataError(label, f"this is not a UTF-8 text file ({error.reason}).") from None
    except (EOFError, gzip.BadGzipFile) as error:
        raise CardDataError(
            label, f"the compressed file is damaged or cut short ({error})."
        ) from None
    except FileNotFoundError:
        raise CardDataError(label, "no such file.") from None
    except OSError as error:
        raise CardDataError(label, f"cannot read it ({error.strerror or error}).") from None


# --- import -----------------------------------------------------------------------------------------


class KnownCards:
    """Which of the catalog's cards an entry of card data is: English entries only, by exact name
    or else loosely (case, accents and punctuation aside).  The import of a file and the download
    from Scryfall (``device.scryfall``) both match cards with it."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._by_key: dict[str, Card] = {name_key(card.name): card for card in catalog}

    def card(self, raw: Mapping[str, Any]) -> Card | None:
        """The catalog's card ``raw`` is, or None (another language, another card)."""
        if raw.get("lang", "en") != "en":
            return None
        name = raw.get("name")
        if not isinstance(name, str):
            return None
        return self.catalog.get(name) or self._by_key.get(name_key(name))


class ImportReport(Struct):
    """What an import or a fetch stored: the text by card name, how many of each kind, how many
    pictures, and the catalog's cards it did not find."""

    source: str
    cards: dict[str, CardText] = field(default_factory=dict)
    kinds: dict[CardKind, int] = field(default_factory=dict)
    images: int = 0
    missing: list[str] = field(default_factory=list)

    def take(self, raw: Mapping[str, Any], known: KnownCards) -> Card | None:
        """Keep the text of ``raw`` if it is one of the catalog's cards and the first entry for
        it; returns that card, else None."""
        card = known.card(raw)
        if card is None or card.name in self.cards:
            return None
        type_line, text = text_of(raw)
        self.cards[card.name] = CardText(name=card.name, type_line=type_line, text=text)
        self.kinds[card.kind] = self.kinds.get(card.kind, 0) + 1
        return card

    def finish(self, catalog: Catalog) -> None:
        """Note the catalog's cards that were not found."""
        self.missing = [card.name for card in catalog if card.name not in self.cards]


def text_of(card: Mapping[str, Any]) -> tuple[str, str]:
    """(type line, rules text), from Scryfall's or MTGJSON's field names."""
    type_line = card.get("type_line") or card.get("type") or ""
    text = card.get("oracle_text")
    if text is None:
        text = card.get("text")
    if text is None and isinstance(card.get("card_faces"), list):
        text = "\n//\n".join(
            str(face.get("oracle_text", ""))
            for face in card["card_faces"]
            if isinstance(face, dict)
        )
    return str(type_line), str(text or "")


def _local_images(card: dict[str, Any], base: Path) -> list[tuple[Path | None, str]]:
    """The pictures the export names on this machine (``file:`` addresses or plain paths), each
    with the entry as written (None for the path of one that cannot be a path); ``_picture``
    checks them before use."""
    uris = card.get("image_uris")
    if not isinstance(uris, dict):
        return []
    found = []
    for size in ("small", "normal", "large", "png"):
        value = uris.get(size)
        if not isinstance(value, str):
            continue
        path: Path | None
        if value.startswith("file:"):
            try:
                path = Path(urllib.request.url2pathname(urllib.parse.urlparse(value).path))
            except ValueError:  # "file://[…": not an address
                path = None
        elif "://" in value:
            continue
        else:
            path = Path(value)
            if not path.is_absolute():
                path = base / path
        found.append((None if path is not None and "\0" in str(path) else path, value))
    return found


def _inside(path: Path, roots: tuple[Path, ...]) -> bool:
    """Whether ``path``, with ``..`` and symbolic links followed, is in one of the folders."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of symbolic links, a NUL
        return False
    return any(real.is_relative_to(root.resolve()) for root in roots)


#: How a PNG and a JPEG file start.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SIGNATURE = b"\xff\xd8\xff"


def is_picture(head: bytes) -> bool:
    """Whether a file starting with ``head`` (16 bytes) is a PNG, JPEG, GIF, BMP or WebP picture."""
    return head.startswith((PNG_SIGNATURE, JPEG_SIGNATURE, b"GIF87a", b"GIF89a", b"BM")) or (
        head[:4] == b"RIFF" and head[8:12] == b"WEBP"
    )


def _cut(written: str) -> str:
    """A picture entry as a message quotes it: at most 200 characters."""
    return written if len(written) <= 200 else written[:200] + "…"


def _shown(written: str) -> str:
    return repr(_cut(written))


def _picture(
    path: Path | None, written: str, card: str, roots: tuple[Path, ...], label: str
) -> Path | None:
    """The picture's real path, if it is a picture inside the allowed folders; None if there is
    no such file.  A path leading elsewhere (``..``, another absolute path, a symbolic link), an
    entry that is no path at all, or a file that is not a picture or cannot be read refuses the
    whole import, so nothing else on the machine is copied into the data directory."""
    if path is None:
        raise CardDataError(
            label,
            f"the picture of {card!r}, {_shown(written)}, is not a file path or address. Correct or remove "
            "the entry and import again.",
        )
    try:
        return _checked_picture(path, written, card, roots, label)
    except OSError as error:  # a name too long, a folder that may not be read…
        raise CardDataError(
            label,
            f"cannot read the picture of {card!r}, {_shown(written)} ({error.strerror or error}). Correct or "
            "remove the entry and import again.",
        ) from None


def _checked_picture(
    path: Path, written: str, card: str, roots: tuple[Path, ...], label: str
) -> Path | None:
    written = _cut(written)
    folders = " or ".join(str(root) for root in roots)
    if not _inside(path, roots):
        raise CardDataError(
            label,
            f"the picture of {card!r}, {written!r}, is outside {folders}. Pictures must be in the "
            "card file's folder or the --images folder: move them there and import again.",
        )
    real = path.resolve()
    if not real.is_file():
        return None
    with real.open("rb") as picture:
        head = picture.read(16)
        size = os.fstat(picture.fileno()).st_size
    if not is_picture(head):
        raise CardDataError(
            label,
            f"the picture of {card!r}, {written!r}, is not a PNG, JPEG, WebP, GIF or BMP image. "
            "Put the card's picture there, or remove the entry, and import again.",
        )
    if size > MAX_IMAGE:
        raise CardDataError(
            label,
            f"the picture of {card!r}, {written!r}, is larger than {MAX_IMAGE >> 20} MB, more than any "
            "card picture needs. Use a smaller picture and import again.",
        )
    return real


def _has_web_images(card: dict[str, Any]) -> bool:
    uris = card.get("image_uris")
    return isinstance(uris, dict) and any(
        isinstance(v, str) and "://" in v and not v.startswith("file:") for v in uris.values()
    )


def _folder_images(folder: Path) -> dict[str, Path] | None:
    found: dict[str, Path] = {}
    try:
        listed = sorted(folder.iterdir())
    except OSError:
        return None
    for path in listed:
        if path.suffix.lower() in IMAGE_SUFFIXES and path.is_file():
            found.setdefault(name_key(path.stem), path)
    return found


def store_dir(data_dir: Path) -> Path:
    return data_dir / STORE


def import_file(
    source: Path | IO[bytes],
    data_dir: Path,
    *,
    images: bool = False,
    image_folder: Path | None = None,
    source_name: str | None = None,
) -> ImportReport:
    """Read a card-data file and replace the stored card text with what it holds for the
    catalog's planes, phenomena and contraptions.  Raises ``CardDataError`` and keeps the stored
    text as it was if the file cannot be used."""
    label = source_name or (str(source) if isinstance(source, Path) else "standard input")
    catalog = load_catalog()
    known = KnownCards(catalog)
    folder = _folder_images(image_folder) if image_folder is not None else None
    if image_folder is not None and folder is None:
        raise CardDataError(image_folder, "no such folder")
    base = source.parent if isinstance(source, Path) else Path.cwd()
    roots = (base,) if image_folder is None else (base, image_folder)
    report = ImportReport(label)
    found_images: dict[str, Path] = {}
    web_only = False
    for raw in read_cards(source, label):
        card = report.take(raw, known)
        if card is None:
            continue
        if images or folder is not None:
            picture = None
            in_folder = folder.get(name_key(card.name)) if folder is not None else None
            if in_folder is not None and image_folder is not None:
                picture = _picture(in_folder, str(in_folder), card.name, (image_folder,), label)
            if picture is None:
                for path, written in _local_images(raw, base):
                    picture = picture or _picture(path, written, card.name, roots, label)
                web_only = web_only or (picture is None and _has_web_images(raw))
            if picture is not None:
                found_images[card.name] = picture
    if not report.cards:
        raise CardDataError(
            label,
            "no planes, phenomena or contraptions in this file. Use Scryfall's \"Oracle "
            'Cards" bulk file or an MTGJSON AllPrintings or set file (OPCA, PCA, HOP, UST, UND…).',
        )
    if images and folder is None and not found_images and web_only:
        raise CardDataError(label, str(_hint("cardtext.images_need_folder")))
    report.finish(catalog)
    store(report, found_images, data_dir)
    return report


def _hint(key: str) -> str:
    from device.text import render

    return render(key, {})


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def store(
    report: ImportReport, pictures: Mapping[str, Path], data_dir: Path, *, link: bool = False
) -> None:
    """Replace the stored card text with ``report``'s and the stored pictures with ``pictures``
    (by card name): the pictures go to a new folder, then ``cards.json`` is replaced in one
    rename, then the old pictures are removed, so a reader sees the old store or the new, never
    a mixture.  ``link``: hard-link the pictures (files the data directory keeps anyway, such as
    downloads) instead of copying them, where the file system allows."""
    target = store_dir(data_dir)
    target.mkdir(parents=True, exist_ok=True)
    image_dir = None
    if pictures:
        image_dir = Path(
            tempfile.mkdtemp(prefix=f"images-{time.strftime('%Y%m%d%H%M%S')}-", dir=target)
        )
        for name, picture in pictures.items():
            copy = image_dir / f"{name_key(name) or 'card'}{picture.suffix.lower()}"
            _place(picture, copy, link)
            report.cards[name] = report.cards[name].model_copy(
                update={"image": f"{image_dir.name}/{copy.name}"}
            )
            report.images += 1
    document = {
        "schema": STORE_SCHEMA,
        "source": report.source,
        "imported": time.time(),
        "cards": {name: card.model_dump() for name, card in sorted(report.cards.items())},
    }
    fd, partial = tempfile.mkstemp(prefix=".cards-", suffix=".json", dir=target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(document, out, ensure_ascii=False, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, target / STORE_FILE)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        if image_dir is not None:
            shutil.rmtree(image_dir, ignore_errors=True)
        raise
    if os.name == "posix":
        fd = os.open(target, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    # Older pictures are no longer referenced once the new file is in place.
    for old in target.glob("images-*"):
        if old != image_dir and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    _CACHE.pop(target / STORE_FILE, None)


def _place(picture: Path, copy: Path, link: bool) -> None:
    if link:
        try:
            os.link(picture, copy)
            return
        except OSError:  # another file system, or one without hard links: copy
            pass
    shutil.copyfile(picture, copy)


# --- lookup -------------------------------------------------------------------------------------------

_CACHE: dict[Path, tuple[tuple[int, int], dict[str, CardText]]] = {}


def _load(path: Path) -> dict[str, CardText]:
    try:
        stat = path.stat()
    except OSError:
        _CACHE.pop(path, None)
        return {}
    stamp = (stat.st_mtime_ns, stat.st_ino)
    cached = _CACHE.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        cards = {}
        for name, entry in document["cards"].items():
            card = CardText.model_validate(entry)
            if card.image is not None:
                card = card.model_copy(update={"image": str(path.parent / card.image)})
            cards[name_key(name)] = card
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        cards = {}  # an unreadable store shows names only, like no store; importing again fixes it
    _CACHE[path] = (stamp, cards)
    return cards


def rules_text(name: str, data_dir: Path | None = None) -> CardText | None:
    """The imported rules text of the card called ``name`` (case and punctuation do not matter), or
    None when nothing was imported for it — show the name and type, and ``cardtext.missing_hint``.

    The stored file is read once and kept; it is read again only after it changed (an import, even
    from another process).  ``data_dir`` defaults to the data directory without a config file:
    pass ``config.resolved_data_dir()``.
    """
    directory = paths.data_dir() if data_dir is None else data_dir
    return _load(store_dir(directory) / STORE_FILE).get(name_key(name))


def clear_cache() -> None:
    _CACHE.clear()
