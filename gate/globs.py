"""Glob matching with CODEOWNERS semantics (gitignore syntax).

* `*` and `?` stay inside one path segment; `[...]` is a character class.
* `**` crosses segments: `**/x` is `x` at any depth, `a/**` is everything
  under `a`, `a/**/b` is `b` anywhere below `a`.
* A pattern without a `/` (other than a trailing one) matches at any depth;
  a pattern with a leading or inner `/` is anchored to the repository root.
* A trailing `/` matches a directory and everything under it.
* A pattern whose last segment is a plain name (no wildcard) also matches a
  directory of that name and everything under it (`docs` matches
  `docs/a.md`), while `docs/*` matches `docs/a.md` but not `docs/x/a.md`.
  This is where CODEOWNERS and gitignore differ (gitignore would let
  `docs/*` ignore the directory `docs/x` and so `docs/x/a.md`); the gate
  follows CODEOWNERS, because a `*` that silently crosses directories is a
  budget a writer can slip through.
* Negation (`!`) is not supported; the rubric schema refuses it.

Patterns are compiled once per distinct pattern list and cached.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

_WILDCARD = re.compile(r"[*?\[]")


def _class_body(body: str) -> str:
    """A character class's members, literal except for `a-z` ranges: regex
    specials (`\\ [ ] ^ & ~ |` and a doubled `-`) are escaped."""
    out = "".join("\\" + c if c in "\\[]^&~|" else c for c in body)
    return out.replace("--", "-\\-")


def _segment(seg: str) -> str:
    """Regex for one path segment (no `/`)."""
    out: list[str] = []
    i = 0
    while i < len(seg):
        c = seg[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = seg.find("]", i + 2 if seg[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = seg[i + 1 : end]
                negate = body[:1] in ("!", "^")
                out.append("[" + ("^" if negate else "") + _class_body(body[negate:]) + "]")
                i = end
        elif c == "\\" and i + 1 < len(seg):
            i += 1
            out.append(re.escape(seg[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def _parts(pattern: str) -> tuple[bool, str]:
    """(anchored, body): the regex for `pattern` without the leading `^`
    and, for a pattern that matches at any depth, without the directory prefix."""
    dir_only = pattern.endswith("/")
    body = pattern.rstrip("/")
    anchored = body.startswith("/") or "/" in body
    segments = [s for s in body.lstrip("/").split("/") if s != ""]
    if not segments:
        return True, r"(?!)"  # "/" alone matches nothing
    parts: list[str] = []
    for index, seg in enumerate(segments):
        last = index == len(segments) - 1
        if seg == "**":
            if last:
                parts.append(".*")  # a/** : everything under a
            else:
                parts.append("(?:[^/]+/)*")  # zero or more whole directories
        else:
            parts.append(_segment(seg) + ("" if last else "/"))
    if dir_only:
        suffix = "/.*"
    elif _WILDCARD.search(segments[-1]) is None:
        suffix = "(?:/.*)?"
    else:
        suffix = ""
    return anchored, "".join(parts) + suffix + r"\Z"


_ANY_DEPTH = "(?:[^/]+/)*"


def translate(pattern: str) -> str:
    """The anchored regular expression for one glob pattern."""
    anchored, body = _parts(pattern)
    return "^" + ("" if anchored else _ANY_DEPTH) + body


@lru_cache(maxsize=512)
def _compile(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for a pattern list.  Patterns that match at any depth share a
    single directory-prefix loop (three times faster than a loop each)."""
    anchored: list[str] = []
    any_depth: list[str] = []
    for pattern in patterns:
        is_anchored, body = _parts(pattern)
        (anchored if is_anchored else any_depth).append(body)
    branches = []
    if anchored:
        branches.append("(?:" + "|".join(anchored) + ")")
    if any_depth:
        branches.append(_ANY_DEPTH + "(?:" + "|".join(any_depth) + ")")
    return re.compile("^(?:" + "|".join(branches) + ")", re.DOTALL)


def _never(path: str) -> bool:
    return False


# Verdicts already computed, per pattern list: a transparent memo, so paths
# matched early (`prime`, while git is still counting lines) are not matched
# again when the rules run.  Bounded: cleared past _MEMO_LIMIT entries.
_MEMO: dict[tuple[str, ...], dict[str, bool]] = {}
_MEMO_LIMIT = 200_000
_memo_entries = [0]


def matcher(patterns: Sequence[str]) -> Callable[[str], bool]:
    """A predicate for "matches any of `patterns`", compiled once and
    memoized: the form to use in a loop over thousands of paths."""
    if not patterns:
        return _never
    key = tuple(patterns)
    match = _compile(key).match
    if _memo_entries[0] > _MEMO_LIMIT:
        _MEMO.clear()
        _memo_entries[0] = 0
    memo = _MEMO.setdefault(key, {})

    def predicate(path: str) -> bool:
        hit = memo.get(path)
        if hit is None:
            hit = memo[path] = match(path) is not None
            _memo_entries[0] += 1
        return hit

    return predicate


def prime(pattern_lists: Iterable[Sequence[str]], paths: Iterable[str]) -> None:
    """Match `paths` against every list now, so later calls find the verdicts."""
    predicates = [matcher(patterns) for patterns in pattern_lists]
    for path in paths:
        for predicate in predicates:
            predicate(path)


def matches(path: str, patterns: Sequence[str]) -> bool:
    """True when `path` matches any of `patterns`."""
    if not patterns:
        return False
    return _compile(tuple(patterns)).match(path) is not None


def matching(paths: Iterable[str], patterns: Sequence[str]) -> list[str]:
    """The paths that match any pattern, in input order."""
    if not patterns:
        return []
    predicate = matcher(patterns)
    return [p for p in paths if predicate(p)]


def pattern_error(pattern: str) -> str | None:
    """Why `pattern` is not a usable glob, or None when it is."""
    if pattern == "" or pattern.strip("/") == "":
        return "an empty pattern matches nothing"
    if pattern.startswith("!"):
        return "negation with '!' is not supported; list only what to match"
    try:
        re.compile(translate(pattern))
    except re.error as exc:
        return f"not a valid glob ({exc})"
    return None
