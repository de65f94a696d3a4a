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

Four modes, for the directions a rule can err in:

* `EXACT` matches a path as written (case-sensitive, code point by code
  point).  `allowed_paths` uses it, so it never lets through more than it
  says.
* `NAMES` is `EXACT` where a pattern names files: only a pattern ending in
  `/` or `**` reaches what is under a folder; every other pattern matches
  the paths it names and nothing under them (`yarn.lock` matches the file
  `a/yarn.lock`, never `yarn.lock/evil.py`).  The budgets' `exclude` uses
  it: a folder named like an excluded file would hide any code put in it.
* `FOLDED` also matches what a checkout on a case-insensitive or
  normalizing file system (macOS, Windows) would merge with a matched path:
  the path folded by `gate.base.paths.fold` (letter case, Unicode
  normalization) or `gate.base.paths.fold_names` (also a name's trailing dots
  and spaces) against the patterns folded the same way.  Every glob form
  folds: a `?` or a class stands for whatever `fold` makes of one
  character (`[é]` matches `e` U+0301, `[ß]` and `?` match `ss`).
  `test_drift` uses it: a test in another spelling is still a test.
* `REACH` is `FOLDED` plus, for every pattern, the directories above what
  it matches, each matched exactly (`a/b/` also matches `a` and `a/b`
  themselves: a file, symlink or submodule there would put content into
  the matched place).  Rules that *forbid* use it.

Matching takes time linear in the path's length (times the patterns'
size), whatever the path: each pattern is one regular expression whose
only backtracking points are bounded.  A `*` between two literal runs, and
a `**` between two fixed runs of segments, take the leftmost place where
the next run fits and never revisit it (an atomic group, written
`(?=(...))\\N` so that it works on every Python the gate supports); the
leftmost place is always a right one, because what follows a run can only
gain room by the run ending earlier.  A path of hundreds of thousands of
characters is matched in milliseconds (`bench/bench_hostile.py`).

Patterns are compiled once per distinct pattern list and cached.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import count

from gate.base.paths import fold, fold_names, fold_units, folds, trim_names

_WILDCARD = re.compile(r"[*?\[]")
_SINGLE = re.compile(r"[?\[]")

# The regex pieces every translation shares.
_SEGMENTS = "(?:[^/]+/)*"  # zero or more whole directories, greedily
_SEGMENTS_LAZY = "(?:[^/]+/)*?"  # the same, fewest first
_BOUNDARY = r"(?=/|\Z)"  # the end of a path segment


def _class_body(body: str) -> str:
    """A character class's members, literal except for `a-z` ranges: regex
    specials (`\\ [ ] ^ & ~ |` and a doubled `-`) are escaped."""
    out = "".join("\\" + c if c in "\\[]^&~|" else c for c in body)
    return out.replace("--", "-\\-")


# A Hangul syllable folds to two or three jamo (Unicode's canonical
# decomposition); `gate.base.paths.fold_units` leaves them out of its list.
_HANGUL_UNIT = "[\\u1100-\\u1112][\\u1161-\\u1175][\\u11a8-\\u11c2]?"
# A class range longer than this matches any one character when folded.
_RANGE_LIMIT = 4096


@lru_cache(maxsize=1)
def _unit() -> str:
    """Regex for what `gate.base.paths.fold` makes of any one character other
    than `/`: a folded path's `?`."""
    marks, longer = fold_units()
    alternatives = [re.escape(k) for k in longer]
    return "(?:" + "|".join([*alternatives, _HANGUL_UNIT, f"[^/][{marks}]{{0,3}}"]) + ")"


def _folded_class(body: str) -> str:
    """Regex, for a folded path, for the class `[body]` (not negated): the
    fold of each member, so `[é]` matches `e` U+0301 and `[ß]` `ss`.  A
    range of more than `_RANGE_LIMIT` characters matches any character."""
    members: set[str] = set()
    j = 0
    while j < len(body):
        if j + 2 < len(body) and body[j + 1] == "-":
            low, high = ord(body[j]), ord(body[j + 2])
            if high - low > _RANGE_LIMIT:
                return _unit()
            members.update(fold(chr(code)) for code in range(low, high + 1) if code != 0x2F)
            j += 3
        else:
            if body[j] != "/":
                members.add(fold(body[j]))
            j += 1
    if not members:
        return "(?!)"
    ordered = sorted(members, key=lambda m: (-len(m), m))
    return "(?:" + "|".join(re.escape(m) for m in ordered) + ")"


class _Builder:
    """Translates patterns to regex text; numbers the atomic groups so that
    several patterns can share one compiled expression.  A folding builder
    matches paths folded by `gate.base.paths.fold`: it folds the pattern's
    literal text, and turns `?` and each class into what folding makes of
    one character (`_unit`, `_folded_class`)."""

    def __init__(self, *, folded: bool = False) -> None:
        self._ids = count(1)
        self._fold = folded  # match paths folded by `gate.base.paths.fold`

    def atomic(self, body: str) -> str:
        """`body`, matched once at its first fit and never backtracked into."""
        name = f"a{next(self._ids)}"
        return f"(?=(?P<{name}>{body}))(?P={name})"

    def segment(self, seg: str) -> str:
        """Regex for one whole path segment (no `/`); the caller ends it."""
        runs: list[str] = [""]  # literal runs between stars, as regex text
        text = ""  # literal characters not yet written to the current run

        def flush() -> None:
            nonlocal text
            runs[-1] += re.escape(fold(text) if self._fold else text)
            text = ""

        i = 0
        while i < len(seg):
            c = seg[i]
            if c == "*":
                flush()
                runs.append("")
            elif c == "?":
                flush()
                runs[-1] += _unit() if self._fold else "[^/]"
            elif c == "[":
                end = seg.find("]", i + 2 if seg[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
                if end == -1:
                    text += c
                else:
                    flush()
                    body = seg[i + 1 : end]
                    negate = body[:1] in ("!", "^")
                    if self._fold:
                        runs[-1] += _unit() if negate else _folded_class(body)
                    else:
                        members = _class_body(body[negate:])
                        runs[-1] += f"[^/{members}]" if negate else f"[{members}]"
                    i = end
            elif c == "\\" and i + 1 < len(seg):
                i += 1
                text += seg[i]
            else:
                text += c
            i += 1
        flush()
        if len(runs) == 1:
            return runs[0]
        out = runs[0]
        for middle in runs[1:-1]:
            if middle:
                out += self.atomic("[^/]*?" + middle)
        return out + "[^/]*" + runs[-1]

    def body(self, pattern: str, *, exact: bool = False) -> tuple[bool, str]:
        """(anchored, regex) for `pattern`, without the leading `^` and, for a
        pattern that matches at any depth, without the directory prefix.
        `exact` matches the named path only, never what is under it."""
        dir_only = pattern.endswith("/") and not exact
        stripped = pattern.rstrip("/")
        anchored = stripped.startswith("/") or "/" in stripped
        segments = [s for s in stripped.lstrip("/").split("/") if s != ""]
        if not segments:
            return True, r"(?!)"  # "/" alone matches nothing
        # Runs of fixed segments between `**`s (a run may be empty).
        runs: list[list[str]] = [[]]
        for seg in segments:
            if seg == "**":
                if runs[-1] or len(runs) == 1:
                    runs.append([])
            else:
                runs[-1].append(self.segment(seg))
        # A plain last name also matches what is under it (CODEOWNERS).
        tail_free = not exact and _WILDCARD.search(segments[-1]) is None
        out = "/".join(runs[0])
        if len(runs) == 1:
            if exact:
                return anchored, out + r"\Z"
            if dir_only:
                return anchored, out + r"/.*\Z"
            return anchored, out + (r"(?:/.*)?\Z" if tail_free else r"\Z")
        if runs[0]:
            out += "/"
        for middle in runs[1:-1]:
            out += self.atomic(_SEGMENTS_LAZY + "/".join(middle) + "/")
        last = runs[-1]
        if not last:  # the pattern ends with `**`: everything under what came before
            return anchored, out + (r".*/.*\Z" if dir_only else r".*\Z")
        tail = "/".join(last)
        if dir_only:
            return anchored, out + self.atomic(_SEGMENTS_LAZY + tail + "/") + r".*\Z"
        if tail_free:
            return anchored, out + self.atomic(_SEGMENTS_LAZY + tail + _BOUNDARY) + r"(?:/.*)?\Z"
        return anchored, out + _SEGMENTS + tail + r"\Z"

    def combined(self, patterns: Iterable[str], exact: bool = False, names: bool = False) -> str:
        """One regex for "any of `patterns`".  Patterns that match at any depth
        share a single directory-prefix loop (three times faster than a loop
        each); each alternative costs time linear in the path.  `names`
        matches each pattern not ending in `/` exactly (`NAMES`)."""
        anchored: list[str] = []
        any_depth: list[str] = []
        for pattern in patterns:
            one = _one_name(pattern)
            is_anchored, body = self.body(one, exact=exact or (names and not one.endswith("/")))
            (anchored if is_anchored else any_depth).append(body)
        branches = []
        if anchored:
            branches.append("(?:" + "|".join(anchored) + ")")
        if any_depth:
            branches.append(_SEGMENTS + "(?:" + "|".join(any_depth) + ")")
        if not branches:
            return "(?!)"
        return "^(?:" + "|".join(branches) + ")"


def _one_name(pattern: str) -> str:
    """`**/NAME` (a trailing `/` kept) as `NAME`: the same paths, at any
    depth, and its expression then shares the one directory loop of every
    pattern that matches at any depth (test_drift's default test and
    runner globs are mostly `**/NAME`: a quarter off matching them over
    10,000 paths; docs/development.md, "Measured choices in the rubric
    loader and the rules")."""
    if pattern.startswith("**/"):
        rest = pattern[3:]
        name = rest.rstrip("/")
        if name and "/" not in name and name != "**":
            return rest
    return pattern


def has_wildcard(text: str) -> bool:
    """Whether `text` holds a glob wildcard (`*`, `?` or `[`)."""
    return _WILDCARD.search(text) is not None


def translate(pattern: str) -> str:
    """The anchored regular expression for one glob pattern."""
    return _Builder().combined([pattern])


def parents(pattern: str) -> list[str]:
    """Patterns for the directories above what `pattern` matches, each to be
    matched exactly: `a/b/` -> `a`, `a/b`; `a/*/c.txt` -> `a`, `a/*`;
    `secrets/` -> `secrets`.  A prefix that ends in `**` is skipped (it would
    name every directory below), and so is the whole of a pattern that does
    not end in `/` (it already matches its own path)."""
    anchor = "/" if pattern.startswith("/") else ""
    stripped = pattern.strip("/")
    segments = [s for s in stripped.split("/") if s != ""]
    if not pattern.endswith("/"):
        segments = segments[:-1]
    out = []
    for n in range(1, len(segments) + 1):
        if segments[n - 1] == "**":
            continue
        prefix = "/".join(segments[:n])
        # A one-segment prefix of an anchored pattern stays anchored.
        anchored = anchor or ("/" in stripped and "/" not in prefix)
        out.append(("/" if anchored else "") + prefix)
    return out


_VIEWS: dict[str, Callable[[str], str]] = {
    "exact": lambda path: path,
    "fold": fold,
    "fold_names": fold_names,
}
EXACT = "exact"  # as written
NAMES = "names"  # as written, and a pattern not ending in `/` or `**` names files only
FOLDED = "folded"  # also the variants a case-insensitive checkout merges
REACH = "reach"  # folded, and the directories above what a pattern matches
MODES = (EXACT, NAMES, FOLDED, REACH)


# Cached: `gate lab` builds every rule's matchers once per patch, and would
# otherwise compile them afresh each time, 15% of its throughput
# (docs/development.md, "Measured choices in the rubric loader and the rules").
@lru_cache(maxsize=512)
def _compile(
    patterns: tuple[str, ...], view: str = "exact", above: bool = False, names: bool = False
) -> re.Pattern[str]:
    """The regex for a pattern list seen through `view` (a key of `_VIEWS`);
    `above` adds the parents of each pattern, matched exactly; `names`
    matches as `NAMES` does."""
    builder = _Builder(folded=view != "exact")
    seen = tuple(trim_names(p) for p in patterns) if view == "fold_names" else patterns
    whole = builder.combined(seen, names=names)
    if not above:
        return re.compile(whole, re.DOTALL)
    parent = builder.combined([q for p in seen for q in parents(p)], exact=True)
    return re.compile(f"(?:{whole})|(?:{parent})", re.DOTALL)


# Cached: `matches` on one path at a time is how callers ask about a fixed
# pattern list in a loop (test_drift's runner sections, several lists per
# changed file), so the test is built once per pattern list and mode: built
# per call, it took 3 of the 4 s of `gate check` on 10,000 changed files
# (docs/development.md, "Measured choices in the rubric loader and the rules").
@lru_cache(maxsize=512)
def _test(patterns: tuple[str, ...], mode: str) -> Callable[[str], bool]:
    """The test for one mode: for FOLDED and REACH, the path and its folded
    forms (`gate.base.paths.folds`), each against the patterns seen the same
    way; a form tried already against the same expression is not tried
    again.  Each expression is compiled on its first use: a big pattern
    list's takes milliseconds, and the exact one is never needed for a
    change of ASCII paths."""
    if mode in (EXACT, NAMES):
        match = _compile(patterns, names=mode == NAMES).match
        return _remembered(lambda path: match(path) is not None)
    if mode not in MODES:
        raise ValueError(f"unknown glob mode {mode!r}")
    above = mode == REACH
    slot_of: dict[tuple[str, ...], int] = {}
    views: list[str] = []  # the view each distinct expression is compiled for
    slots = []  # per view of `_VIEWS`, its expression's slot (shared where patterns look alike)
    single = any(_SINGLE.search(p) for p in patterns)  # `?` and classes fold apart
    for name, view in _VIEWS.items():
        seen = tuple(view(p) for p in patterns)
        if single and name != "exact":
            seen = (name, *patterns)
        if seen not in slot_of:
            slot_of[seen] = len(views)
            views.append(name)
        slots.append(slot_of[seen])
    exact, by_fold, by_names = slots
    plain = not single
    compiled: list[Callable[[str], re.Match[str] | None] | None] = [None] * len(views)

    def compile_slot(slot: int) -> Callable[[str], re.Match[str] | None]:
        match = compiled[slot] = _compile(patterns, views[slot], above).match
        return match

    def test(path: str) -> bool:
        folded, named = folds(path)
        if plain and path.isascii():
            # An ASCII path matches the patterns only if its fold (lower
            # case) matches their folded forms too: each literal run it
            # matched folds as the pattern's does, and `*` and `**` read
            # alike.  So one expression, not two.
            if (compiled[by_fold] or compile_slot(by_fold))(folded) is not None:
                return True
        elif (compiled[exact] or compile_slot(exact))(path) is not None or (
            (folded != path or by_fold != exact)
            and (compiled[by_fold] or compile_slot(by_fold))(folded) is not None
        ):
            return True
        if (named == folded and by_names == by_fold) or (named == path and by_names == exact):
            return False
        return (compiled[by_names] or compile_slot(by_names))(named) is not None

    return _remembered(test)


# A test's answers kept per path: one change asks about the same path once
# per rule and pass (test_drift alone asks four times), and a long run
# (`gate lab`, `gate backtest`) about the same paths again.  Bounded: the
# memory is dropped whole when it is full.
_REMEMBERED = 1 << 15


def _remembered(test: Callable[[str], bool]) -> Callable[[str], bool]:
    """`test` with its answers remembered per path."""
    known: dict[str, bool] = {}

    def remembered(path: str) -> bool:
        answer = known.get(path)
        if answer is None:
            if len(known) >= _REMEMBERED:
                known.clear()
            answer = known[path] = test(path)
        return answer

    return remembered


def _never(path: str) -> bool:
    return False


def matcher(patterns: Sequence[str], mode: str = EXACT) -> Callable[[str], bool]:
    """A predicate for "matches any of `patterns`" in `mode` (EXACT, FOLDED
    or REACH; see the module docstring), its regular expressions compiled
    once: the form to use in a loop over thousands of paths."""
    if not patterns:
        return _never
    return _test(tuple(patterns), mode)


def any_of(*tests: Callable[[str], bool]) -> Callable[[str], bool]:
    """A predicate true where any of `tests` is, asked in order: the union
    of several matchers, each keeping its own remembered answers, where a
    `matcher` of the joined pattern lists would match every path again."""
    return lambda path: any(test(path) for test in tests)


def matches(path: str, patterns: Sequence[str], mode: str = EXACT) -> bool:
    """True when `path` matches any of `patterns` in `mode`."""
    if not patterns:
        return False
    return _test(tuple(patterns), mode)(path)


def matching(paths: Iterable[str], patterns: Sequence[str], mode: str = EXACT) -> list[str]:
    """The paths that match any pattern in `mode`, in input order."""
    if not patterns:
        return []
    predicate = matcher(patterns, mode)
    return [p for p in paths if predicate(p)]


def pattern_error(pattern: str) -> str | None:
    """Why `pattern` is not a usable glob, or None when it is."""
    if pattern == "" or pattern.strip("/") == "":
        return "an empty pattern matches nothing"
    if pattern.startswith("!"):
        return "negation with '!' is not supported; list only what to match"
    try:
        re.compile(translate(pattern), re.DOTALL)
        for view in _VIEWS:
            _compile((pattern,), view, True)
    except re.error as exc:
        return f"not a valid glob ({exc})"
    return None
