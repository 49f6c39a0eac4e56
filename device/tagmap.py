"""The tag map: which catalog card each RFID tag is (HW-3).

The map is a plain UTF-8 text file that people may read and edit by hand; the enrolment tool
writes the same file.  The format, one tag per line::

    # comments start with "#" and are kept when aetherbox rewrites the file
    04:A1:B2:C3:D4:E5:F6  Tazeem
    04a1b2c3d4e5f7        the eon fog
    04-A1-B2-C3-D4-E5-F8	Auto-Key

- the tag's UID: hex bytes in any case, with or without ``:`` or ``-`` between them (spaces
  between bytes are fine too when a tab or two spaces follow the UID);
- then a tab or at least two spaces (one space also works when the UID has no spaces in it);
- then the card's English name, matched loosely against the catalog ("the eon fog" is
  The Eon Fog); the map holds the catalog's spelling.
- Blank lines and lines starting with ``#`` are ignored.  Comments cannot follow a name on the
  same line, since ``#`` may one day be part of a card name.

Only a regular file of at most 1 MB is read: a FIFO, a device or a folder named as the tag map
is said (``problems``, line 0) and no tag is known from it, rather than hanging or filling the
memory, and ``add`` refuses to replace it.  A line that cannot be used (not a UID, no card of that name, not UTF-8) is skipped and reported
as a ``TagMapProblem`` naming the file and line, both in ``problems`` and in the log; every
other line still counts.  A UID enrolled on two lines as two different cards counts as neither
(a flipped digit can make one tag's UID another's: a wrong card would be worse than an unknown
tag) and both lines are reported; the same card twice counts once.  A missing file is an empty map.

``add`` and ``remove`` rewrite the file atomically (a temporary file in the same directory,
fsync, ``os.replace``, then fsync of the directory), changing only the lines of that tag, so
comments, order and anyone's hand edits survive — and a power cut leaves either the old file or
the new one (HW-5).  ``lookup`` notices when the file changed on disk (its size, time and inode)
and reads it again; checking is one ``stat`` call, cheap next to a tag tap.
"""

from __future__ import annotations

import logging
import os
import re
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from msgspec import Struct

from device.catalog import Card, Catalog, load_catalog
from device.config import read_regular
from device.errors import UnknownName
from device.inputs import normalise_uid

log = logging.getLogger(__name__)

#: Written at the top of a tag map that aetherbox creates, so the file explains itself.
HEADER = """\
# aetherbox tag map: which card each RFID tag is.  Edit freely; comments are kept.
# One tag per line: the tag's UID, then a tab or at least two spaces, then the card's name.
# UIDs are hex bytes in any case, with or without colons or dashes.  Names are matched
# loosely against the card catalog ("the eon fog" is The Eon Fog).
# Example:
#   04:A1:B2:C3:D4:E5:F6  Tazeem
"""

#: The largest tag map read: a line is some 40 bytes, so this is tens of thousands of tags; a
#: larger file (or a device such as /dev/zero) is not one, and is said instead of filling the memory.
LIMIT_KB = 1024

#: Longer than any card's name (the longest printed is 141 characters).
LONGEST_NAME = 150

_BOM = b"\xef\xbb\xbf"
_SEPARATOR = re.compile(r"\t|\s{2,}")


def format_uid(uid: str) -> str:
    """``"04a1b2c3"`` (in any accepted spelling) → ``"04:A1:B2:C3"``, the way the file writes it."""
    hex_digits = normalise_uid(uid)
    return ":".join(hex_digits[i : i + 2] for i in range(0, len(hex_digits), 2))


class TagMapProblem(Struct, frozen=True):
    """A line of the tag map that was skipped or overridden.  ``line`` 0 is the whole file."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        return f"{where}: {self.message}"


class _Line(Struct, frozen=True):
    number: int
    raw: bytes
    #: The UID this line is about, even if its card name is bad, so ``add`` and ``remove`` can
    #: replace a line that a person got half right.
    uid: str | None = None
    card: Card | None = None
    problem: str | None = None


def _parse_line(number: int, raw: bytes, catalog: Catalog) -> _Line:
    # Some editors start a UTF-8 file with a byte-order mark; it is not part of the first UID.
    body = raw[len(_BOM) :] if number == 1 and raw.startswith(_BOM) else raw
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return _Line(number, raw, problem="not UTF-8 text; save the file as UTF-8")
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return _Line(number, raw)
    parts = _SEPARATOR.split(stripped, maxsplit=1)
    if len(parts) == 1:
        parts = stripped.split(None, 1)
    if len(parts) == 1:
        return _Line(
            number,
            raw,
            problem=f"{stripped!r} needs a tag UID, then a tab or two spaces, then a card name",
        )
    uid_text, name = parts[0].strip(), parts[1].strip()
    try:
        uid = normalise_uid(uid_text)
    except ValueError as error:
        return _Line(number, raw, problem=str(error))
    if len(name) > LONGEST_NAME:  # matching it loosely against every card would take seconds
        return _Line(number, raw, uid=uid, problem=f"{name[:40]!r}… is longer than any card's name")
    try:
        card = catalog.find(name)
    except UnknownName as error:
        return _Line(number, raw, uid=uid, problem=str(error))
    return _Line(number, raw, uid=uid, card=card)


def _parse(data: bytes, catalog: Catalog) -> list[_Line]:
    return [_parse_line(n, raw, catalog) for n, raw in enumerate(data.splitlines(keepends=True), 1)]


_Signature = tuple[int, int, int, int]


def _signature(path: Path) -> _Signature | None:
    """What changes when the file does; ``None`` when there is no file.  Other OS errors rise."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    # The inode catches a replaced file whose size and time happen to match.
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev)


def _write_atomically(path: Path, data: bytes) -> None:
    target = Path(os.path.realpath(path))  # replace a symlink's target, not the link
    directory = target.parent
    directory.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o644  # readable by whoever edits it; mkstemp's own 0600 would hide it
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    # Without this the rename itself may not survive a power cut.
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass  # some filesystems refuse fsync on a directory; the data itself is synced
    finally:
        os.close(dir_fd)


class TagMap:
    """Tag UID → card, backed by the hand-editable file at ``path``.

    Not thread-safe: like the rest of the game, it belongs to the game's one thread.
    """

    def __init__(self, path: str | os.PathLike[str], catalog: Catalog | None = None) -> None:
        self._path = Path(path)
        self._catalog = catalog if catalog is not None else load_catalog()
        self._entries: dict[str, Card] = {}
        self._problems: tuple[TagMapProblem, ...] = ()
        self._signature: _Signature | None = None
        self._read_error: str | None = None
        self._unreadable: OSError | None = None
        self._load()

    @property
    def path(self) -> Path:
        return self._path

    @property
    def catalog(self) -> Catalog:
        return self._catalog

    @property
    def problems(self) -> tuple[TagMapProblem, ...]:
        """What was wrong with the file the last time it was read."""
        return self._problems

    @property
    def unreadable(self) -> OSError | None:
        """Why the file could not be read the last time it was tried (not a regular file, too
        large, no permission), or None when it was read (or there is none)."""
        return self._unreadable

    @property
    def entries(self) -> Mapping[str, Card]:
        """UID (upper-case hex, no separators) → card, as of the last read; a read-only view."""
        return MappingProxyType(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, uid: object) -> bool:
        if not isinstance(uid, str):
            return False
        try:
            return normalise_uid(uid) in self._entries
        except ValueError:
            return False

    def __repr__(self) -> str:
        return f"<TagMap {str(self._path)!r}: {len(self._entries)} tags>"

    def lookup(self, uid: str) -> Card | None:
        """The card tag ``uid`` is, or ``None`` for a tag nobody has enrolled yet.

        Reads the file again first if it changed on disk.  Raises ``ValueError`` if ``uid`` is
        not hex bytes.
        """
        key = normalise_uid(uid)
        self.refresh()
        return self._entries.get(key)

    def uids_for(self, card: Card | str) -> tuple[str, ...]:
        """Every tag enrolled as ``card`` (a player may own several copies), in file order."""
        name = card.name if isinstance(card, Card) else self._catalog.find(card).name
        return tuple(uid for uid, known in self._entries.items() if known.name == name)

    def refresh(self) -> bool:
        """Read the file again if it changed on disk since it was last read.  True if it did.

        Never raises: if the file cannot be read, the map read last stays and the reason is
        logged and kept in ``problems``.
        """
        try:
            signature = _signature(self._path)
        except OSError as error:
            self._cannot_read(error)
            return False
        if signature == self._signature and self._read_error is None:
            return False
        return self._load()

    def add(self, uid: str, card: Card | str) -> Card:
        """Enrol tag ``uid`` as ``card`` (a catalog card or a name, matched loosely).

        A tag already in the file is changed where it stands; a new one is added at the end.
        Returns the card.  Raises ``ValueError`` for a bad UID, ``UnknownName`` for a name the
        catalog does not know, and ``OSError`` (naming the file) if it cannot be written — in
        which case the file is unchanged.
        """
        key = normalise_uid(uid)
        if isinstance(card, str) or card not in self._catalog:
            card = self._catalog.find(card if isinstance(card, str) else card.name)
        lines, newline = self._read_for_update()
        entry = f"{format_uid(key)}  {card.name}".encode()
        mine = [i for i, line in enumerate(lines) if line.uid == key]
        raws = [line.raw for line in lines]
        if mine:
            last = mine[-1]
            ending = raws[last][len(raws[last].rstrip(b"\r\n")) :] or newline
            raws[last] = entry + ending
            raws = [raw for i, raw in enumerate(raws) if i not in mine[:-1]]
        else:
            if raws and not raws[-1].endswith((b"\n", b"\r")):
                raws[-1] += newline
            raws.append(entry + newline)
        self._write(b"".join(raws))
        return card

    def remove(self, uid: str) -> Card | None:
        """Forget tag ``uid``: every line about it goes, even one whose name was unusable.

        Returns the card the tag was, or ``None`` if it was not enrolled.  The file is only
        written if it had a line about this tag.
        """
        key = normalise_uid(uid)
        lines, _ = self._read_for_update()
        previous = None
        for line in lines:
            if line.uid == key and line.card is not None:
                previous = line.card
        if any(line.uid == key for line in lines):
            self._write(b"".join(line.raw for line in lines if line.uid != key))
        return previous

    # reading and writing

    def _read(self) -> tuple[_Signature | None, bytes]:
        signature = _signature(self._path)  # before reading: a change during the read is seen
        if signature is None:
            return None, b""
        try:
            data = read_regular(self._path, LIMIT_KB * 1024)
        except FileNotFoundError:
            return None, b""
        return signature, data

    def _load(self) -> bool:
        try:
            signature, data = self._read()
        except OSError as error:
            self._cannot_read(error)
            return False
        self._install(signature, _parse(data, self._catalog))
        return True

    def _install(self, signature: _Signature | None, lines: list[_Line]) -> None:
        entries: dict[str, Card] = {}
        where: dict[str, int] = {}
        clashing: set[str] = set()
        problems: list[TagMapProblem] = []
        for line in lines:
            if line.problem is not None:
                problems.append(TagMapProblem(self._path, line.number, line.problem))
            if line.uid is None or line.card is None:
                continue
            if line.uid in where:
                first = entries.get(line.uid)
                if first is not None and first != line.card or line.uid in clashing:
                    problems.append(
                        TagMapProblem(
                            self._path,
                            where[line.uid],
                            f"tag {format_uid(line.uid)} is enrolled again on line {line.number} as another card, "
                            f"{line.card.name!r}: it counts as neither until one of the lines is fixed",
                        )
                    )
                    clashing.add(line.uid)
                    entries.pop(line.uid, None)
                else:
                    problems.append(
                        TagMapProblem(
                            self._path,
                            line.number,
                            f"tag {format_uid(line.uid)} is enrolled again, as the same card",
                        )
                    )
                continue
            entries[line.uid] = line.card
            where[line.uid] = line.number
        problems.sort(key=lambda problem: problem.line)
        for problem in problems:
            # Our own rewrites re-read the file; say each problem once, not after every save.
            if problem not in self._problems:
                log.warning("%s", problem)
        self._entries = entries
        self._problems = tuple(problems)
        self._signature = signature
        self._read_error = None
        self._unreadable = None

    def _cannot_read(self, error: OSError) -> None:
        reason = error.strerror or str(error)
        message = f"cannot read the tag map ({reason}); keeping the tags read before"
        if message != self._read_error:  # say it once, not on every tap
            problem = TagMapProblem(self._path, 0, message)
            log.warning("%s", problem)
            self._problems = (problem,)
        self._read_error = message
        self._unreadable = error

    def _read_for_update(self) -> tuple[list[_Line], bytes]:
        """The file as it is now on disk, so a rewrite never undoes someone's hand edit."""
        _, data = self._read()
        if not data:
            data = HEADER.encode()
        lines = _parse(data, self._catalog)
        first = lines[0].raw if lines else b""
        return lines, b"\r\n" if first.endswith(b"\r\n") else b"\n"

    def _write(self, data: bytes) -> None:
        _write_atomically(self._path, data)
        signature = _signature(self._path)
        self._install(signature, _parse(data, self._catalog))
