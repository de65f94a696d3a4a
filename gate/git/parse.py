"""Parsing `git diff --raw --numstat -z` output as it streams: NUL-ended
records read in chunks (`nul_records`, `nul_tokens`), raw records paired with the
numstat records after them (`parse_diff`) into `FileChange`s, and what the
counts and the copy search need collected on the way (`Uncounted`,
`CopyTarget`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, NamedTuple

from gate.base.paths import from_bytes
from gate.git.conventions import CHUNK

if TYPE_CHECKING:
    from gate.model.change import FileChange

# gate.model.change (and with it dataclasses) is imported where it is used, not
# here: `gate check` starts git before paying for those imports.  The status
# strings are gate.model.change' constants (a test checks they agree).
MODE_SUBMODULE = "160000"
UNKNOWN = "unknown"
_STATUS = {
    "A": "added",
    "D": "deleted",
    "M": "modified",
    "R": "renamed",
    "C": "copied",
    "T": "type_changed",
}

# A path's bytes as text: gate.base.paths owns the mapping (reversible; a byte
# that is not UTF-8 is kept, never replaced by U+FFFD).
_decode_path = from_bytes


def nul_records(stream: IO[bytes], size: int = CHUNK) -> Iterator[bytes]:
    """NUL-ended records of a stream in chunks of whole records, each chunk
    starting with a NUL and ending without one (about `size` bytes each)."""
    read = getattr(stream, "read1", stream.read)
    tail = b""
    while True:
        chunk: bytes = read(size)
        if not chunk:
            break
        data = tail + chunk
        cut = data.rfind(b"\0")
        if cut < 0:
            tail = data
            continue
        yield b"\0" + data[:cut]
        tail = data[cut + 1 :]
    if tail:
        raise ValueError("output does not end with NUL")


def nul_tokens(stream: IO[bytes], size: int = CHUNK) -> Iterator[bytes]:
    """NUL-separated tokens of a stream, read in chunks of at most `size` bytes
    as they arrive (so parsing overlaps with git's work)."""
    for chunk in nul_records(stream, size):
        yield from chunk[1:].split(b"\0")


def raw_status(
    header: bytes, modes: dict[bytes, str | None] | None = None
) -> tuple[bytes, str | None, str | None, bytes, bytes]:
    """(status letter, old mode, new mode, old oid, new oid) from
    ':100644 100644 sha sha M'; a mode is None for an absent side.  `modes`
    keeps each mode's text, so a caller reading many records decodes each
    distinct mode once."""
    fields = header[1:].split(b" ")
    if len(fields) != 5:
        raise ValueError(f"unexpected raw record {header[:80]!r}")
    if modes is None:
        modes = {}
    return fields[4][:1], _mode(modes, fields[0]), _mode(modes, fields[1]), fields[2], fields[3]


def _mode(modes: dict[bytes, str | None], field: bytes) -> str | None:
    """A raw record's mode as text (None for "000000", an absent side), kept in `modes`."""
    if field not in modes:
        modes[field] = None if field == b"000000" else field.decode("ascii")
    return modes[field]


class Uncounted(NamedTuple):
    """A file whose counts come from its blobs: `files[at]`, with the blob
    names of its file sides (None for a side that is absent or a submodule)."""

    at: int
    old: str | None
    new: str | None


def _blob(mode: str | None, oid: bytes) -> str | None:
    if mode is None or mode == MODE_SUBMODULE:
        return None
    return oid.decode("ascii")


def parse_diff(
    tokens: Iterator[bytes],
    files: list[FileChange] | None = None,
    blobs: list[Uncounted] | None = None,
    targets: list[CopyTarget] | None = None,
    texts: list[Uncounted] | None = None,
    named: Callable[[str], None] | None = None,
) -> list[FileChange]:
    """Pair `--raw` records with the `--numstat` records that follow, in order.

    Appends to `files` (when given) as records are paired.

    A file git calls binary, and a file <-> submodule change, get unknown
    counts (None) here, never 0: `blobs` (when given) collects what
    `count_binary` needs to count them from the blobs.  A submodule side
    counts no lines, and a file whose blob did not change (a pure rename or
    a mode change) counts 0.

    `targets` (when given) collects the added and modified files with
    content (not empty, not a submodule): what `find_copies` asks whether
    it is a copy of a file of the base.

    `texts` (when given) collects the text files whose content changed,
    with the blob names of both sides: `count_lone_cr` reads them for a
    carriage return alone, a line end git's counts miss.

    `named` (when given) is called with each blob whose content a file's
    change may need counted (both sides of every raw record whose blobs
    differ, submodules left out) as soon as its raw record is read, before
    git has counted anything: `gate check` counts them beside the diff."""
    from gate.model.change import EMPTY_BLOBS, FileChange

    empty = {name.encode("ascii") for name in EMPTY_BLOBS}
    modes: dict[bytes, str | None] = {}  # each mode's text, decoded once
    raw: list[tuple[bytes, str | None, str | None, str, str | None, bytes, bytes]] = []
    if files is None:
        files = []
    append = files.append
    index = 0
    for token in tokens:
        if token[:1] == b":":
            letter, old_mode, new_mode, old_oid, new_oid = raw_status(token, modes)
            if named is not None and old_oid != new_oid:
                for blob in (_blob(old_mode, old_oid), _blob(new_mode, new_oid)):
                    if blob is not None:
                        named(blob)
            if letter == b"R" or letter == b"C":
                old = _decode_path(next(tokens))
                new = _decode_path(next(tokens))
                raw.append((letter, old_mode, new_mode, new, old, old_oid, new_oid))
            else:
                path = _decode_path(next(tokens))
                raw.append((letter, old_mode, new_mode, path, None, old_oid, new_oid))
            continue
        # A numstat record: "ADDED\tDELETED\tPATH" or "ADDED\tDELETED\t" + old + new.
        parts = token.split(b"\t", 2)
        if len(parts) != 3:
            raise ValueError(f"unexpected numstat record {token[:80]!r}")
        if parts[2] == b"":
            next(tokens)
            next(tokens)
        if index >= len(raw):
            raise ValueError("more numstat records than raw records")
        letter, old_mode, new_mode, path, old_path, old_oid, new_oid = raw[index]
        raw[index] = _RELEASED  # release what was paired
        index += 1
        binary = parts[0] == b"-"
        added: int | None
        deleted: int | None
        if binary or old_mode == MODE_SUBMODULE or new_mode == MODE_SUBMODULE:
            old_blob, new_blob = _blob(old_mode, old_oid), _blob(new_mode, new_oid)
            if old_blob == new_blob:  # the same content, or no file side at all
                added = deleted = 0
            else:
                added = deleted = None
                if blobs is not None:
                    blobs.append(Uncounted(len(files), old_blob, new_blob))
        else:
            added = int(parts[0])
            deleted = int(parts[1])
            if texts is not None and old_oid != new_oid:
                texts.append(
                    Uncounted(len(files), _blob(old_mode, old_oid), _blob(new_mode, new_oid))
                )
        if (
            targets is not None
            and (letter == b"A" or letter == b"M")
            and new_mode is not None
            and new_mode != MODE_SUBMODULE
            and new_oid not in empty
            and new_oid != old_oid  # a mode change copies nothing
        ):
            targets.append(CopyTarget(len(files), new_oid))
        append(
            FileChange(path, _status(letter), old_path, added, deleted, binary, old_mode, new_mode)
        )
    # A raw record without numstat (git prints none for some unmerged or odd
    # entries): still a touched path, with unknown counts.
    for letter, old_mode, new_mode, path, old_path, _, _ in raw[index:]:
        append(FileChange(path, _status(letter), old_path, None, None, False, old_mode, new_mode))
    return files


def _status(letter: bytes) -> str:
    """The change model's status for a raw record's status letter."""
    return _STATUS.get(letter.decode("ascii"), UNKNOWN)


_RELEASED = (b"", None, None, "", None, b"", b"")


class CopyTarget(NamedTuple):
    """An added or modified file `files[at]` whose new blob is `oid`: a copy
    of a file of the base when that blob, or one like it, is there."""

    at: int
    oid: bytes
