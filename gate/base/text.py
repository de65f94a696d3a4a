"""Texts and lines: the one notion of a file's text, of its lines, of a kept
line's visible text, and the one line diff.  Every rule, the rubric's
example counts and every source of file text (git, the PR files API) call
these; nothing else splits, strips, decodes or diffs file text.

* **Bytes to text** (`decode`): UTF-8.  A byte that is not UTF-8 becomes a
  lone surrogate (Python's `surrogateescape`), so two different byte
  strings never decode to the same text, and `encode` gives the exact
  bytes back.  A UTF-8 byte-order mark stays in the text: git counts it
  as part of line 1 (adding one changes line 1), while `kept_lines` and
  the Python parser (`encode` then `ast.parse` of the bytes) skip it.
* **Lines** (`lines`): a line ends at `\\n`, `\\r\\n` or `\\r`, nowhere
  else, as for Python's tokenizer (so `ast` line numbers index `lines`).
  Form feed, vertical tab, `\\x1c`-`\\x1e`, `\\x85`, U+2028 and U+2029 are
  ordinary characters inside a line (`str.splitlines` would split there).
  Lines keep their endings, so a changed line ending is a changed line.
* **Python's lines** (`python_encoding_problem`): Python decodes a source
  file with the encoding its coding declaration names, and some encodings
  put line breaks where the bytes have none (UTF-7 spells a newline
  `+AAo-`) or take them away (HZ's `~` before a newline).  A file whose
  declared encoding does that is refused by the content rules: their line
  numbers are the lines of the bytes.
* **A kept line's text** (`kept_text`, `kept_lines`): the line without
  its ending and without surrounding spaces, tabs and form feeds (the
  blanks Python allows around code); nothing else is stripped, so a line
  that differs by any other character is a different line.
* **The line diff** (`line_diff`): which lines a change removed and added.
  It stays near-linear on any input: see `line_diff`.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_left
from collections.abc import Sequence
from typing import NamedTuple

BOM = "\ufeff"
# Characters `str.splitlines` treats as line breaks that git and Python's
# tokenizer do not.
_OTHER_BREAKS = ("\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_BLANKS = " \t\f\r\n"


def decode(data: bytes) -> str:
    """File bytes as text: UTF-8, other bytes kept reversibly (see the module doc)."""
    return data.decode("utf-8", errors="surrogateescape")


def encode(text: str) -> bytes:
    """The bytes `decode` read `text` from (raises `UnicodeEncodeError`, a
    `ValueError`, for a text no file could have decoded to)."""
    return text.encode("utf-8", errors="surrogateescape")


def lines(text: str | None) -> list[str]:
    """The lines of `text`, each with its ending (`\\n`, `\\r\\n`, `\\r`, or
    none for a last line without one).  `None` has no lines."""
    if not text:
        return []
    if not any(ch in text for ch in _OTHER_BREAKS):
        return text.splitlines(keepends=True)  # the same split, done in C
    return _LINE.findall(text)


_BYTE_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def python_encoding_problem(data: bytes) -> str | None:
    """None when Python's lines of source `data` are the lines `lines` finds
    in its bytes (`lines(decode(data))`), so `ast` line numbers index them;
    else the encoding its coding declaration names, under which they are not.

    UTF-8 (with or without a byte-order mark) always agrees.  Another
    declared encoding agrees when it decodes each line of the bytes on its
    own to exactly one line with the same ending, and the lines joined are
    the whole file decoded: no character decodes to a line break inside a
    line (UTF-7's `+AAo-`), no line break is swallowed (HZ's `~` before a
    newline, a multi-byte character over a newline byte), and no state
    carries from one line into the next.  Call it on bytes Python parsed."""
    import tokenize

    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return "an unreadable coding declaration"
    if encoding in ("utf-8", "utf-8-sig"):
        return None
    pieces = _BYTE_LINE.findall(data)
    try:
        decoded = [piece.decode(encoding) for piece in pieces]
        whole = data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return encoding
    if "".join(decoded) != whole or lines(whole) != decoded:
        return encoding
    return None


def kept_text(line: str) -> str:
    """The visible text of one line: its ending and surrounding blanks removed."""
    return line.strip(_BLANKS)


def kept_lines(text: str | None) -> list[str]:
    """`kept_text` of every line of `text`; a byte-order mark is not part of line 1."""
    if text is None:
        return []
    return [kept_text(line) for line in lines(text.removeprefix(BOM))]


# --- the line diff ---


class LineDiff(NamedTuple):
    """Changed lines between two texts.

    `removed` are 1-based base line numbers, `added` 1-based head line
    numbers.  `head_anchor[n]` is the head line nearest to where removed
    base line `n` used to be.  `unchanged` lists the runs of lines the diff
    kept, as `(base_first, head_first, length)`, 1-based, in order.
    """

    removed: tuple[int, ...]
    added: tuple[int, ...]
    head_anchor: dict[int, int]
    unchanged: tuple[tuple[int, int, int], ...]


# Work the diff may spend on anchors and exact matching, per line of input
# (plus a fixed allowance for small files).  Past it, only the linear
# fallback runs.
_WORK_PER_LINE = 16
_WORK_FIXED = 200_000
# Gaps up to this many cells (base lines x head lines) are matched exactly.
_EXACT_CELLS = 2_500
# The fallback looks this far ahead for the next common line.
_LOOKAHEAD = 64


def line_diff(
    base: str | None,
    head: str | None,
    *,
    base_tags: Sequence[int] | None = None,
    head_tags: Sequence[int] | None = None,
) -> LineDiff:
    """The lines `head` removed from and added to `base` (see `LineDiff`).

    Lines are equal when their text, ending included, is equal, and, when
    `base_tags`/`head_tags` are given (one small integer >= 0 per line, in
    order), their tags are equal: a caller can forbid matching a base line
    to a head line of another kind this way.

    The diff is near-linear on any input.  Common prefix and suffix first;
    then patience anchors (lines that occur exactly once on each side of a
    gap, in the longest run increasing on both sides), recursively in the
    gaps between anchors; a small gap with no anchor is matched exactly
    (longest common subsequence).  That work has a budget proportional to
    the input; a gap left over (no anchor and too large, or out of budget)
    goes to a linear fallback: walk both sides, and at a mismatch skip to
    the nearer next occurrence of the other side's line within a short
    lookahead, else count both lines as changed.  Every result is a valid
    alignment (a line counts as unchanged only when it is equal to its
    partner and in order), so when in doubt a line counts as changed, never
    as unchanged.
    """
    a_lines = lines(base)
    b_lines = lines(head)
    ids: dict[str, int] = {}
    a = [ids.setdefault(line, len(ids)) for line in a_lines]
    b = [ids.setdefault(line, len(ids)) for line in b_lines]
    if base_tags is not None or head_tags is not None:
        at = _tags(base_tags, len(a))
        bt = _tags(head_tags, len(b))
        kinds = max(max(at, default=0), max(bt, default=0)) + 1
        a = [i * kinds + t for i, t in zip(a, at, strict=True)]
        b = [i * kinds + t for i, t in zip(b, bt, strict=True)]
    blocks = _Aligner(a, b).run()
    removed: list[int] = []
    added: list[int] = []
    anchor: dict[int, int] = {}
    last = max(len(b), 1)
    i = j = 0
    for bi, bj, size in [*blocks, (len(a), len(b), 0)]:
        for k in range(i, bi):
            removed.append(k + 1)
            anchor[k + 1] = min(j + 1, last)
        added.extend(range(j + 1, bj + 1))
        i, j = bi + size, bj + size
    return LineDiff(
        tuple(removed),
        tuple(added),
        anchor,
        tuple((bi + 1, bj + 1, size) for bi, bj, size in blocks if size),
    )


def _tags(tags: Sequence[int] | None, count: int) -> Sequence[int]:
    if tags is None:
        return bytes(count)
    if len(tags) != count or min(tags, default=0) < 0:
        raise ValueError(f"line_diff needs one tag >= 0 per line ({count}), got {len(tags)}")
    return tags


class _Aligner:
    """Matched runs `(i, j, size)` (0-based) between id sequences `a` and `b`."""

    def __init__(self, a: Sequence[int], b: Sequence[int]) -> None:
        self.a = a
        self.b = b
        self.work = _WORK_PER_LINE * (len(a) + len(b)) + _WORK_FIXED
        self.pairs: list[tuple[int, int, int]] = []

    def run(self) -> list[tuple[int, int, int]]:
        a, b = self.a, self.b
        stack = [(0, len(a), 0, len(b))]
        while stack:
            alo, ahi, blo, bhi = stack.pop()
            start = alo
            while alo < ahi and blo < bhi and a[alo] == b[blo]:
                alo += 1
                blo += 1
            if alo > start:
                self.pairs.append((start, blo - (alo - start), alo - start))
            end = ahi
            while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
                ahi -= 1
                bhi -= 1
            if ahi < end:
                self.pairs.append((ahi, bhi, end - ahi))
            if alo >= ahi or blo >= bhi:
                continue
            span = (ahi - alo) + (bhi - blo)
            if self.work >= span:
                self.work -= span
                anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
                if anchors:
                    prev_i, prev_j = alo, blo
                    for i, j in anchors:
                        self.pairs.append((i, j, 1))
                        stack.append((prev_i, i, prev_j, j))
                        prev_i, prev_j = i + 1, j + 1
                    stack.append((prev_i, ahi, prev_j, bhi))
                    continue
            cells = (ahi - alo) * (bhi - blo)
            if cells <= _EXACT_CELLS and self.work >= cells:
                self.work -= cells
                self._exact(alo, ahi, blo, bhi)
            else:
                self._fallback(alo, ahi, blo, bhi)
        self.pairs.sort()
        merged: list[tuple[int, int, int]] = []
        for i, j, size in self.pairs:
            if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
                merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + size)
            else:
                merged.append((i, j, size))
        return merged

    def _exact(self, alo: int, ahi: int, blo: int, bhi: int) -> None:
        """Longest common subsequence by dynamic programming (a small gap)."""
        a = self.a[alo:ahi]
        b = self.b[blo:bhi]
        n, m = len(a), len(b)
        # best[i][j]: length of the LCS of a[i:] and b[j:]
        best = [[0] * (m + 1) for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            row, below = best[i], best[i + 1]
            ai = a[i]
            for j in range(m - 1, -1, -1):
                if ai == b[j]:
                    row[j] = below[j + 1] + 1
                else:
                    row[j] = max(below[j], row[j + 1])
        i = j = 0
        while i < n and j < m:
            if a[i] == b[j]:
                self.pairs.append((alo + i, blo + j, 1))
                i += 1
                j += 1
            elif best[i + 1][j] >= best[i][j + 1]:
                i += 1
            else:
                j += 1

    def _fallback(self, alo: int, ahi: int, blo: int, bhi: int) -> None:
        """A linear alignment for a gap the exact passes could not afford."""
        a, b = self.a, self.b
        in_a: dict[int, list[int]] = {}
        for i in range(alo, ahi):
            in_a.setdefault(a[i], []).append(i)
        in_b: dict[int, list[int]] = {}
        for j in range(blo, bhi):
            if b[j] in in_a:  # only lines common to both sides can match
                in_b.setdefault(b[j], []).append(j)
        i, j = alo, blo
        while i < ahi and j < bhi:
            if a[i] == b[j]:
                start = i
                while i < ahi and j < bhi and a[i] == b[j]:
                    i += 1
                    j += 1
                self.pairs.append((start, j - (i - start), i - start))
                continue
            next_a = _next_at(in_a.get(b[j]), i)  # where b[j] could match
            next_b = _next_at(in_b.get(a[i]), j)  # where a[i] could match
            if next_b is None:
                i += 1  # a[i] matches nothing ahead: removed
            elif next_a is None:
                j += 1  # b[j] matches nothing ahead: added
            elif min(next_a - i, next_b - j) > _LOOKAHEAD:
                i += 1  # no common line near: both count as changed
                j += 1
            elif next_a - i <= next_b - j:
                i = next_a  # a[i:next_a] removed
            else:
                j = next_b  # b[j:next_b] added


def _next_at(positions: list[int] | None, start: int) -> int | None:
    """The first position >= `start` in sorted `positions`, or None."""
    if not positions:
        return None
    k = bisect_left(positions, start)
    return positions[k] if k < len(positions) else None


def _unique_anchors(
    a: Sequence[int], b: Sequence[int], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int]]:
    """Patience anchors: lines that occur exactly once in both ranges, kept
    in the longest run that is increasing on both sides."""
    count_a: dict[int, int] = {}
    where_a: dict[int, int] = {}
    for i in range(alo, ahi):
        count_a[a[i]] = count_a.get(a[i], 0) + 1
        where_a[a[i]] = i
    count_b: dict[int, int] = {}
    where_b: dict[int, int] = {}
    for j in range(blo, bhi):
        if count_a.get(b[j]) == 1:
            count_b[b[j]] = count_b.get(b[j], 0) + 1
            where_b[b[j]] = j
    pairs = sorted((where_a[v], where_b[v]) for v, n in count_b.items() if n == 1)
    if not pairs:
        return []
    # longest increasing subsequence on the head positions (patience sorting)
    tails: list[int] = []  # index into pairs of the smallest tail per length
    tail_j: list[int] = []  # head position of each tail, for bisection
    back: list[int] = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pos = bisect_left(tail_j, j)
        if pos > 0:
            back[k] = tails[pos - 1]
        if pos == len(tails):
            tails.append(k)
            tail_j.append(j)
        else:
            tails[pos] = k
            tail_j[pos] = j
    out: list[tuple[int, int]] = []
    k = tails[-1]
    while k != -1:
        out.append(pairs[k])
        k = back[k]
    out.reverse()
    return out
