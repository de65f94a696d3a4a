"""`max_lines`: a budget on how many lines a change adds and deletes.

Counts are git's numstat (a modified line is one deleted and one added
line, so `changed` counts it twice).  Binary-ness never shrinks the budget:
a file git calls binary (one NUL byte in its first 8000 bytes is enough)
counts every line of its old version as deleted and every line of its new
version as added, because nobody reviews a binary diff line by line.  A
line ends at a newline, CRLF or a carriage return alone, as in every rule,
plus a last line without an ending.  git's numstat ends lines at newlines
only (500 lines each ended by a carriage return are one line to it), so a
text file with a carriage return alone in either version counts the same
way as a binary file: every line of both versions (the report's notes name
such files).
The file side of a file <-> submodule change counts the same way; a
submodule pointer itself counts no lines, and neither does a pure rename or
a mode change.  A copy never shrinks the budget either: a new file copied
from another counts every line it has, as any new file (git and GitHub
would count it against its source, 0 lines for an exact copy).  Use
`exclude` for files you do not want counted (images, lock files): it
matches exactly as written, and a name matches files only (an exclude
reaches into a folder only when it ends in `/` or `**`, so `yarn.lock`
never excludes `yarn.lock/evil.py`).

`images: one` (the rubric's choice; the default `lines` counts as above)
counts a file git calls binary whose every version is a well-formed image
one line per version instead: an added screenshot is 1 added line, a
deleted one 1 deleted line, a replaced one 1 + 1.  A maintainer reads an
image by looking at it, not line by line.  Well-formed means the bytes
parse, start to end, as the format the name's extension claims (PNG with
every chunk's CRC, GIF, JPEG, WebP; `.PNG` claims PNG as `.png` does; 64 MiB
at most), with nothing after the format's end.  Everything else still
counts whole: bytes appended after an image's end, a truncated or damaged
image, an image under another format's extension, a `.png` holding
anything but a PNG, other binary files, SVG (text, counted as text), and a
source without the bytes (a writer's `result.json`, a rubric example, the
files past the API mode's 100).  Bytes inside a well-formed image (a PNG
text chunk, a JPEG comment) are the image's, so a rubric that must see
them leaves `images` at `lines`.

Fails when the total is over `limit` (`paths` lists the files that
contributed lines), or when a counted file has no line counts: a writer's
`result.json` lists paths only, a binary file over 512 MiB is too large
to count, and the Action's API mode reads at most 100 binary files through
the contents API to count them.  The rule cannot be judged without counts, so it fails and
says why rather than guessing.

```yaml
- id: LINES
  kind: max_lines
  limit: 40
  count: changed
  exclude: ["*.lock", "docs/"]
  images: one
```
"""

from __future__ import annotations

from gate.base import globs
from gate.model.change import ChangeSet, FileChange, Source
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules._common import names, param_int, param_list, param_str, plural, result
from gate.rules.kind import BUDGET, LINES, PATHS

KIND = "max_lines"
PARAMETERS = {
    "limit": {
        "description": "The most lines allowed over all counted files.",
        "$ref": "#/$defs/limit",
    },
    "count": {
        "description": "What is counted: `changed` (added + deleted), `added` or `deleted`.",
        "type": "string",
        "enum": ["changed", "added", "deleted"],
        "default": "changed",
    },
    "exclude": {
        "description": (
            "Files that do not count, matched exactly as written; only a glob ending in "
            "`/` or `**` reaches into a folder.  A rename is excluded only when both of "
            "its paths match; a copy by its new path."
        ),
        "$ref": "#/$defs/globs",
        "default": [],
    },
    "images": {
        "description": (
            "How a binary file that is a well-formed image (PNG, GIF, JPEG, WebP, as its "
            "extension claims, nothing appended) counts: `lines` (every line of its bytes, "
            "as any binary file) or `one` (one line per version it has)."
        ),
        "type": "string",
        "enum": ["lines", "one"],
        "default": "lines",
    },
}
READS = {PATHS, LINES}
LAB = BUDGET
GLOBS = {"exclude": globs.NAMES}  # exact, and a name never opens a folder


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    limit = param_int(rule, "limit")
    mode = param_str(rule, "count")
    exclude = param_list(rule, "exclude")
    one = param_str(rule, "images") == "one"
    added = deleted = 0
    binaries = pictures = 0
    contributing: list[str] = []
    unknown: list[FileChange] = []
    is_excluded = globs.matcher(exclude, GLOBS["exclude"])
    for f in changes.files:
        if exclude and all(is_excluded(p) for p in f.written):
            continue
        if f.added is None or f.deleted is None:
            unknown.append(f)
            continue
        picture = one and f.image
        if picture:  # one line per version it has (each has one line at least)
            add, dele = min(f.added, 1), min(f.deleted, 1)
        else:
            add, dele = f.added, f.deleted
        add = add if mode in ("changed", "added") else 0
        dele = dele if mode in ("changed", "deleted") else 0
        added += add
        deleted += dele
        if add or dele:
            contributing.extend(f.written)
            if picture:
                pictures += 1
            elif f.binary:
                binaries += 1
    if unknown:
        return result(
            rule, False, _unknown_message(unknown, changes.source), paths=[f.path for f in unknown]
        )
    if mode == "added":
        total = added
        message = f"{plural(total, 'line')} added; limit {limit}"
    elif mode == "deleted":
        total = deleted
        message = f"{plural(total, 'line')} deleted; limit {limit}"
    else:
        total = added + deleted
        message = (
            f"{plural(total, 'line')} changed ({added} added, {deleted} deleted); limit {limit}"
        )
    if binaries:
        message += (
            f"; {plural(binaries, 'binary file')} counted whole, every old line deleted "
            "and every new line added (conservative)"
        )
    if pictures:
        message += f"; {plural(pictures, 'image')} counted one line per version"
    passed = total <= limit
    return result(rule, passed, message, paths=() if passed else contributing)


def _unknown_message(files: list[FileChange], source: Source) -> str:
    """Why the counted files in `files` have no line counts, one clause per reason."""
    reasons: dict[str, list[str]] = {}
    plain: list[str] = []
    for f in files:
        if f.uncounted is None:
            plain.append(f.path)
        else:
            reasons.setdefault(f.uncounted, []).append(f.path)
    clauses = []
    if plain:
        plain.sort()
        clauses.append(
            f"the source ({source}) carries no line counts for "
            f"{plural(len(plain), 'file')} ({names(plain)}); "
            "this rule needs a diff, for example `gate check`"
        )
    for reason in sorted(reasons):
        paths = sorted(reasons[reason])
        clauses.append(
            f"{plural(len(paths), 'file')} cannot be counted ({names(paths)}): {reason}; "
            "leave such files out of the change or out of this rule (`exclude`)"
        )
    return "; ".join(clauses)
