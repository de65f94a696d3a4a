"""Paths as text: the one owner of how path bytes become text, how text is
shown, and which paths a file system would take for one another.

git paths are bytes.  Inside the gate a path is a `str` decoded by
`from_bytes`: UTF-8, with every byte that is not part of valid UTF-8 kept
as a lone surrogate (U+DC80 + the byte, Python's `surrogateescape`).  The
mapping is one to one and `to_bytes` reverses it, so two different paths
never become the same text, and a path read from git can be handed back to
git byte for byte.  Rules compare and match these strings as they are.

Such a string cannot be written as UTF-8 as it is, so everything that
shows a path goes through one of two reversible forms:

* `shown(path)` for JSON reports and the GitHub API: a UTF-8 path
  exactly as it is (a backslash is a backslash); each byte that is not
  UTF-8 is U+0000 followed by its two lower-case hex digits (JSON source
  `\\u0000ff`).  No path holds U+0000 (git and every file system refuse a
  NUL in a name), so no real name's text can read like an escape, and
  `from_shown` reads the form back to the same bytes.
* `gate.base.escape.printable(path)` for text and markdown: the same `\\xNN` for a
  byte that is not UTF-8, plus escapes for control and invisible characters
  (see its docstring); it is one to one as well.

`fold(path)` and `fold_names(path)` are the keys under which a
case-insensitive or normalizing file system (macOS's APFS and HFS+,
Windows' NTFS) stores a path: two paths with the same key may land in the
same place on such a checkout.  Rules that forbid match the folded forms
too (`gate.base.globs`, `forbidden_path`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache

__all__ = [
    "FOLDS",
    "RAW_MARK",
    "fold",
    "fold_names",
    "fold_units",
    "folds",
    "from_bytes",
    "from_shown",
    "is_raw_byte",
    "quoted",
    "raw_byte_escape",
    "shown",
    "to_bytes",
    "trim_names",
    "visible",
]

_RAW_FIRST = 0xDC80  # surrogateescape: byte 0x80 -> U+DC80 ... byte 0xFF -> U+DCFF
_RAW_LAST = 0xDCFF


def from_bytes(raw: bytes) -> str:
    """A path's bytes (from git) as the gate's text for it; reversible."""
    return raw.decode("utf-8", errors="surrogateescape")


def to_bytes(path: str) -> bytes:
    """The bytes of a path (the inverse of `from_bytes`)."""
    return path.encode("utf-8", errors="surrogateescape")


def is_raw_byte(ch: str) -> bool:
    """True for a character that stands for a byte that is not UTF-8."""
    return _RAW_FIRST <= ord(ch) <= _RAW_LAST


def raw_byte_escape(ch: str) -> str:
    """`\\xNN` for a character that stands for a byte that is not UTF-8."""
    return f"\\x{ord(ch) - 0xDC00:02x}"


# What `shown` escapes: U+0000, which no real path holds (only JSON input
# can carry one), and the lone surrogates (a byte that is not UTF-8).
_SHOWN_SPECIAL = re.compile("[\0\ud800-\udfff]")
RAW_MARK = "\0"
_SHOWN_ESCAPE = re.compile("\0(?:([0-9a-f]{2})|u([0-9a-f]{4}))")


def _shown_char(m: re.Match[str]) -> str:
    ch = m.group(0)
    if is_raw_byte(ch):
        return f"{RAW_MARK}{ord(ch) - 0xDC00:02x}"
    if ch == RAW_MARK:
        return f"{RAW_MARK}00"
    return f"{RAW_MARK}u{ord(ch):04x}"  # a lone surrogate from JSON input, not from bytes


def shown(path: str) -> str:
    """The path for JSON reports and API payloads: exactly its text when
    it is UTF-8; a byte that is not UTF-8 is U+0000 and two lower-case hex
    digits (`caf` U+0000 `e9` for the Latin-1 `café`; JSON source
    `"caf\\u0000e9"`), U+0000 itself (only JSON input carries one) is
    U+0000 `00`, and a lone surrogate that stands for no byte (JSON input
    too) is U+0000 `u` and four hex digits.  A real path never holds
    U+0000, so the form never equals a real UTF-8 name, different paths
    never give the same text, and `from_shown` reverses it.  Always valid
    Unicode, so every JSON reader takes it."""
    if _SHOWN_SPECIAL.search(path) is None:
        return path
    return _SHOWN_SPECIAL.sub(_shown_char, path)


def from_shown(text: str) -> str:
    """The gate's text for a path from its `shown` form (the inverse):
    `to_bytes(from_shown(shown(p)))` is the path's bytes."""
    if RAW_MARK not in text:
        return text

    def back(m: re.Match[str]) -> str:
        byte, code = m.group(1), m.group(2)
        if code is not None:
            return chr(int(code, 16))
        value = int(byte, 16)
        return chr(0xDC00 + value) if value >= 0x80 else chr(value)

    return _SHOWN_ESCAPE.sub(back, text)


_SURROGATE = re.compile(r"[\ud800-\udfff]")
# Code points HFS+ leaves out of a name (git's `core.protectHFS` list).
_HFS_IGNORED = re.compile("[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]")


def _surrogate_escape(ch: str) -> str:
    return raw_byte_escape(ch) if is_raw_byte(ch) else f"\\u{ord(ch):04x}"


def visible(text: str, *, json_source: bool = False) -> str:
    """Prose (a message, a JSON document) that may quote a path, made valid
    UTF-8: a byte that is not UTF-8 becomes `\\xNN`, any other lone surrogate
    `\\uNNNN`; nothing else changes.  For text in which backslashes are
    already escaped (a JSON string, `quoted`) this stays one to one.  With
    `json_source`, `text` is JSON source and the escape is written so that
    the string *value* reads `\\xNN`."""
    if _SURROGATE.search(text) is None:
        return text
    lead = "\\" if json_source else ""
    return _SURROGATE.sub(lambda m: lead + _surrogate_escape(m.group(0)), text)


def quoted(text: str) -> str:
    """`text` in double quotes for a message: JSON string syntax (`\\"`,
    `\\\\`, `\\n`, ...), and a byte that is not UTF-8 as `\\xNN` (which
    JSON syntax never writes, so the form stays one to one)."""
    return visible(json.dumps(text, ensure_ascii=False))


def fold(path: str) -> str:
    """The key under which a case-insensitive, normalizing file system files
    `path`: Unicode's canonical caseless form (NFD of the case fold of NFD),
    taken after upper-casing as NTFS does.  `É`, `é` written as one code
    point or as `e` + U+0301, and `E` + U+0301 all fold alike; `ß` folds to
    `ss`, the Kelvin sign to `k`, dotless `ı` to `i`.  Meant to merge at
    least what APFS and HFS+ (case and normalization) and NTFS (case)
    merge, so a rule that forbids by the folded form misses none of their
    collisions; it may merge a few names they keep apart.  The code points
    HFS+ ignores in a name (U+200C-U+200F, U+202A-U+202E, U+206A-U+206F,
    U+FEFF: joiners, direction marks; the list git's `core.protectHFS`
    uses) are dropped, so `sec` U+200C `rets` folds like `secrets`."""
    if path.isascii():
        return path.lower()
    if _HFS_IGNORED.search(path):
        path = _HFS_IGNORED.sub("", path)
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", path).upper().casefold())


def fold_names(path: str, *, partial: bool = False) -> str:
    """`fold`, and each name without its trailing dots and spaces, which
    Windows drops (`secrets.` and `secrets ` open `secrets`).  With
    `partial`, the text after the last `/` is the start of a name (a plain
    prefix), so its trailing dots and spaces are kept."""
    return _trim_names(fold(path), partial)


# Cached: every folded glob test and `forbidden_path` fold each touched path,
# several rules over the same change, so a path is folded once per change.
@lru_cache(maxsize=1 << 15)
def folds(path: str) -> tuple[str, str]:
    """(`fold(path)`, `fold_names(path)`), folding the path once."""
    key = fold(path)
    return key, _trim_names(key, False)


def _trim_names(key: str, partial: bool) -> str:
    """A folded path without each name's trailing dots and spaces (`fold_names`)."""
    if not key.endswith((".", " ")) and "./" not in key and " /" not in key:
        return key  # no name ends with a dot or a space (most paths)
    names = key.split("/")
    last = names.pop() if partial else None
    out = "/".join(name.rstrip(". ") or name for name in names)  # a name of dots stays
    return out if last is None else f"{out}/{last}" if names else last


def trim_names(path: str) -> str:
    """`path` with each name's trailing dots and spaces dropped, unfolded
    (the trimming half of `fold_names`, for a glob pattern that is folded
    piece by piece)."""
    return _trim_names(path, False)


def _is_mark(ch: str) -> bool:
    """A character that extends the one before it: a combining mark
    (category M) or one with a nonzero canonical combining class."""
    return unicodedata.category(ch)[0] == "M" or unicodedata.combining(ch) != 0


@lru_cache(maxsize=1)
def fold_units() -> tuple[str, tuple[str, ...]]:
    """What `fold` makes of one character, for a glob's `?` and `[...]`
    matched against a folded path: (the combining marks as a regex class
    body, the folds longer than one character plus marks).  One character
    folds to a character followed by marks (`é` -> `e` U+0301), except
    Hangul syllables (two or three jamo) and the characters whose upper
    case is several letters (`ß` -> `ss`, `ﬃ` -> `ffi`, Greek with iota
    subscript); all of those are in the Basic Multilingual Plane
    (`tests/base/test_globs.py` checks every code point).
    Computed once, on first use (about 0.1 s)."""
    marks: list[str] = []
    start = -1
    for code in range(0x110000 + 1):
        is_mark = code <= 0x10FFFF and _is_mark(chr(code))
        if is_mark and start < 0:
            start = code
        elif not is_mark and start >= 0:
            marks.append(f"\\U{start:08x}-\\U{code - 1:08x}")
            start = -1
    longer = set()
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF or 0xAC00 <= code <= 0xD7A3:
            continue  # surrogates; Hangul syllables (`HANGUL_UNIT` in gate.base.globs)
        key = fold(chr(code))
        if not all(_is_mark(ch) for ch in key[1:]):
            longer.add(key)
    return "".join(marks), tuple(sorted(longer, key=lambda k: (-len(k), k)))


# The two file-system views a forbidding rule matches besides the exact path.
FOLDS = (fold, fold_names)
