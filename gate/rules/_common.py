"""Helpers shared by the rule kinds: typed parameters, message wording,
Python top-level symbol extraction and a line diff.  All pure.
"""

from __future__ import annotations

import ast
import difflib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gate.changes import DELETED, RENAMED, ChangeSet, FileChange, FileTexts
from gate.model import Finding, Result, Rule

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
    """A string quoted for a message: newlines, tabs and quotes escaped."""
    return json.dumps(text, ensure_ascii=False)


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
        if path not in f.touched:
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
    """The failing result for a touched file whose text the source cannot give."""
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


def top_level_symbols(text: str) -> Ranges:
    """Top-level `def`, `async def`, `class` and assignment names of a Python
    module, each with its 1-based inclusive line ranges (a name defined twice
    has two ranges).  A definition's range starts at its first decorator.

    Imports do not define symbols here.  Raises `SyntaxError` when `text` is
    not Python.
    """
    tree = ast.parse(text)
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


def line_diff(base: str | None, head: str | None) -> LineDiff:
    a = split_lines(base)
    b = split_lines(head)
    removed: list[int] = []
    added: list[int] = []
    anchor: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    last = max(len(b), 1)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for i in range(i1, i2):
            removed.append(i + 1)
            anchor[i + 1] = min(j1 + 1, last)
        added.extend(range(j1 + 1, j2 + 1))
    return LineDiff(tuple(removed), tuple(added), anchor)


def inside(line: int, ranges: Iterable[tuple[int, int]]) -> bool:
    return any(start <= line <= end for start, end in ranges)
