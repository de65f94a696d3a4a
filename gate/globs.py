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
from collections.abc import Iterable, Sequence
from functools import lru_cache

_WILDCARD = re.compile(r"[*?\[]")


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
                if body[:1] in ("!", "^"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        elif c == "\\" and i + 1 < len(seg):
            i += 1
            out.append(re.escape(seg[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def translate(pattern: str) -> str:
    """The anchored regular expression for one glob pattern."""
    dir_only = pattern.endswith("/")
    body = pattern.rstrip("/")
    anchored = body.startswith("/") or "/" in body
    segments = [s for s in body.lstrip("/").split("/") if s != ""]
    if not segments:
        return r"(?!)"  # "/" alone matches nothing
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
    regex = "".join(parts)
    prefix = "" if anchored else "(?:[^/]+/)*"
    if dir_only:
        suffix = "/.*"
    elif _WILDCARD.search(segments[-1]) is None:
        suffix = "(?:/.*)?"
    else:
        suffix = ""
    return "^" + prefix + regex + suffix + r"\Z"


@lru_cache(maxsize=512)
def _compile(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{translate(p)})" for p in patterns), re.DOTALL)


def matches(path: str, patterns: Sequence[str]) -> bool:
    """True when `path` matches any of `patterns`."""
    if not patterns:
        return False
    return _compile(tuple(patterns)).match(path) is not None


def matching(paths: Iterable[str], patterns: Sequence[str]) -> list[str]:
    """The paths that match any pattern, in input order."""
    if not patterns:
        return []
    regex = _compile(tuple(patterns))
    return [p for p in paths if regex.match(p) is not None]


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
