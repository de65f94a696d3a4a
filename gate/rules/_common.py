"""Helpers shared by the rule kinds: typed parameters, message wording,
Python top-level symbol extraction and a line diff.  All pure.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gate.changes import DELETED, RENAMED, ChangeSet, FileChange, FileTexts
from gate.errors import GateError
from gate.model import Finding, Result, Rule
from gate.paths import quoted

# --- parameters (validated by the rubric loader; these only narrow types) ---


def param_str(rule: Rule, key: str, default: str = "") -> str:
    value = rule.params.get(key, default)
    return str(value)


def param_int(rule: Rule, key: str, default: int = 0) -> int:
    value = rule.params.get(key, default)
    return int(value)


def param_bool(rule: Rule, key: str, default: bool) -> bool:
    value = rule.params.get(key, default)
    return bool(value)


def param_list(rule: Rule, key: str, default: Sequence[str] = ()) -> list[str]:
    value = rule.params.get(key)
    if value is None:
        return list(default)
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


# --- results and wording ---


def result(
    rule: Rule,
    passed: bool,
    message: str,
    paths: Iterable[str] = (),
    findings: Iterable[Finding] = (),
) -> Result:
    """A `Result` for `rule`; `paths` are sorted and made unique."""
    return Result(
        id=rule.id,
        kind=rule.kind,
        passed=passed,
        message=message,
        paths=tuple(sorted(set(paths))),
        findings=tuple(findings),
    )


def quote(text: str) -> str:
    """A string quoted for a message: newlines, tabs and quotes escaped, a
    path byte that is not UTF-8 as `\\xNN` (`gate.paths.quoted`)."""
    return quoted(text)


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 path`, `2 paths` (or `many` for irregular plurals)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {many if many is not None else word + 's'}"


def names(items: Sequence[str], limit: int = 5) -> str:
    """`a, b, c` (quoted), shortened to `limit` entries with a count of the rest."""
    shown = ", ".join(quote(s) for s in items[:limit])
    if len(items) > limit:
        shown += f" and {len(items) - limit} more"
    return shown


def line_ranges(lines: Sequence[int], limit: int = 8) -> str:
    """`1-3, 7, 9-10` for sorted line numbers, shortened after `limit` runs."""
    runs = runs_of(lines)
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:limit]]
    text = ", ".join(parts)
    if len(runs) > limit:
        text += f" and {len(runs) - limit} more"
    return text


def runs_of(lines: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted, unique line numbers as (first, last)."""
    runs: list[tuple[int, int]] = []
    for n in sorted(set(lines)):
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


# --- one named file in a change set ---


@dataclass(frozen=True)
class FileState:
    """What a change did to one named file.

    `change` is the file change that touches it (None: untouched).
    `gone` says why the file no longer exists at its path ("deleted",
    "renamed to X") or is None.
    """

    change: FileChange | None
    gone: str | None


def file_state(changes: ChangeSet, path: str) -> FileState:
    """Find the change that touches `path`; a rename away or a deletion makes it `gone`."""
    found: FileChange | None = None
    for f in changes.files:
        if path not in f.written:
            continue
        if f.status == DELETED and f.path == path:
            return FileState(f, "deleted")
        if f.status == RENAMED and f.old_path == path and f.path != path:
            return FileState(f, f"renamed to {quote(f.path)}")
        if found is None:
            found = f
    return FileState(found, None)


def texts_for(changes: ChangeSet, path: str) -> FileTexts | None:
    return changes.texts.get(path)


def unavailable(rule: Rule, path: str, changes: ChangeSet) -> Result:
    """The result for a touched file whose text the source cannot give.

    Real sources (git, a patch, the API, a writer's result.json) fail: the
    rule cannot be judged.  A rubric example that describes a file only by
    its line counts says nothing about its content, so there the rule
    passes and says it did not look (give `before`/`after` to exercise it).
    """
    if changes.source == "example":
        return result(
            rule,
            True,
            f"the example gives no text for {quote(path)} (only counts); content not checked",
        )
    return result(
        rule,
        False,
        f"{quote(path)} is touched but its content is unavailable from this source "
        f"({changes.source}); judge it with `gate check` on a git repository",
        paths=[path],
    )


# --- Python symbols ---


Ranges = dict[str, list[tuple[int, int]]]


def _target_names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        out: list[str] = []
        for elt in node.elts:
            out.extend(_target_names(elt))
        return out
    if isinstance(node, ast.Starred):
        return _target_names(node.value)
    return []  # attributes and subscripts bind no module-level name


def parse_module(text: str, path: str, side: str) -> ast.Module:
    """`ast.parse(text)`, with Python's parser running out of stack or memory
    (deeply nested expressions: `((((...` or `a+a+...+a` by the hundred
    thousand) as "cannot judge" (GateError, exit 2) naming the file, never
    a crash and never a verdict.  Raises `SyntaxError` when `text` is not
    Python (that is a verdict: the rule fails).
    """
    try:
        return ast.parse(text)
    except (RecursionError, MemoryError) as exc:
        raise GateError(
            f"the {side} version of {quote(path)} nests too deeply for Python's parser "
            f"({type(exc).__name__}): the gate cannot judge it, and Python cannot import "
            "it either; split the expression"
        ) from None


def top_level_symbols(text: str, path: str, side: str) -> Ranges:
    """Top-level `def`, `async def`, `class` and assignment names of a Python
    module (`side` version of `path`), each with its 1-based inclusive line
    ranges (a name defined twice has two ranges).  A definition's range
    starts at its first decorator.

    Imports do not define symbols here.  Raises `SyntaxError` when `text` is
    not Python, GateError when Python's parser cannot cope (`parse_module`).
    """
    tree = parse_module(text, path, side)
    found: Ranges = {}

    def add(name: str, node: ast.stmt) -> None:
        start = node.lineno
        decorators = getattr(node, "decorator_list", None)
        if decorators:
            start = min(start, *(d.lineno for d in decorators))
        end = node.end_lineno if node.end_lineno is not None else node.lineno
        found.setdefault(name, []).append((start, end))

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(node.name, node)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in _target_names(target):
                    add(name, node)
        elif isinstance(node, ast.AnnAssign):
            for name in _target_names(node.target):
                add(name, node)
    return found


def syntax_problem(path: str, side: str, exc: SyntaxError) -> tuple[str, Finding]:
    """Message and finding for a version of `path` that is not Python."""
    line = exc.lineno
    where = f" at line {line}" if line is not None else ""
    detail = exc.msg or "invalid syntax"
    message = f"the {side} version of {quote(path)} does not parse as Python{where}: {detail}"
    return message, Finding(path=path, message=message, line=line if side == "head" else None)


# --- line diff ---


@dataclass(frozen=True)
class LineDiff:
    """Changed lines between two texts: `removed` are 1-based base line
    numbers, `added` are 1-based head line numbers.  `head_anchor[n]` is the
    head line nearest to where removed base line `n` used to be."""

    removed: tuple[int, ...]
    added: tuple[int, ...]
    head_anchor: dict[int, int]


def split_lines(text: str | None) -> list[str]:
    """Lines with their endings kept, so a changed line ending is a change."""
    return [] if text is None else text.splitlines(keepends=True)


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
    back: list[int] = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pos = _bisect_tails(pairs, tails, j)
        if pos > 0:
            back[k] = tails[pos - 1]
        if pos == len(tails):
            tails.append(k)
        else:
            tails[pos] = k
    out: list[tuple[int, int]] = []
    k = tails[-1]
    while k != -1:
        out.append(pairs[k])
        k = back[k]
    out.reverse()
    return out


def _bisect_tails(pairs: list[tuple[int, int]], tails: list[int], j: int) -> int:
    lo, hi = 0, len(tails)
    while lo < hi:
        mid = (lo + hi) // 2
        if pairs[tails[mid]][1] < j:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _matched(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int]]:
    """Pairs (i, j) of equal lines kept by the diff, increasing on both sides.

    Patience diff: common prefix and suffix first, then lines unique on both
    sides as anchors, then the gaps between anchors the same way; a gap with
    no unique line goes to `difflib.SequenceMatcher` (autojunk off).  This
    keeps large files with many repeated lines (blank lines, `return`)
    fast, where a plain SequenceMatcher is quadratic.
    """
    out: list[tuple[int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            out.append((alo, blo))
            alo += 1
            blo += 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi -= 1
            bhi -= 1
            out.append((ahi, bhi))
        if alo >= ahi or blo >= bhi:
            continue
        anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
        if anchors:
            prev_i, prev_j = alo, blo
            for i, j in anchors:
                out.append((i, j))
                stack.append((prev_i, i, prev_j, j))
                prev_i, prev_j = i + 1, j + 1
            stack.append((prev_i, ahi, prev_j, bhi))
            continue
        matcher = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
        for i, j, size in matcher.get_matching_blocks():
            out.extend((alo + i + k, blo + j + k) for k in range(size))
    out.sort()
    return out


def line_diff(base: str | None, head: str | None) -> LineDiff:
    a_lines = split_lines(base)
    b_lines = split_lines(head)
    ids: dict[str, int] = {}
    a = [ids.setdefault(line, len(ids)) for line in a_lines]
    b = [ids.setdefault(line, len(ids)) for line in b_lines]
    matched = _matched(a, b)
    removed: list[int] = []
    added: list[int] = []
    anchor: dict[int, int] = {}
    last = max(len(b), 1)
    i = j = 0
    for mi, mj in [*matched, (len(a), len(b))]:
        for k in range(i, mi):
            removed.append(k + 1)
            anchor[k + 1] = min(j + 1, last)
        added.extend(range(j + 1, mj + 1))
        i, j = mi + 1, mj + 1
    return LineDiff(tuple(removed), tuple(added), anchor)


def inside(line: int, ranges: Iterable[tuple[int, int]]) -> bool:
    return any(start <= line <= end for start, end in ranges)
