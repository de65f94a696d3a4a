"""`max_files`: a budget on how many paths a change touches.

A path is *touched* when the change adds, deletes, modifies, renames or
changes the mode of it.  A rename touches its old and its new path but
counts **once**; it is excluded only when both of its paths match
`exclude`.  A copy counts once, by its new path (its source is touched,
for the path rules, but stays as it was).  `exclude` matches exactly as
written (case-sensitive), so it never excludes more than it says, and a
name matches files only: an exclude reaches into a folder only when it
ends in `/` or `**` (`docs/`, `docs/**`), so `yarn.lock` never excludes
`yarn.lock/evil.py` and `LICENSE` never `LICENSE/main.go`.

When the change comes from a writer's `result.json`, the stated
`files_touched` is the count (unless `exclude` is given: then the listed
`paths` are counted, because only paths can be excluded), but never less
than half the distinct `paths` the result lists, rounded up (a rename lists
both of its paths and counts once): a result that says `files_touched: 0`
and lists four paths touched at least two.

Fails when the count is over `limit`; the message says the count and the
limit (`9 paths touched; limit 3`) and `paths` lists the counted paths.

```yaml
- id: F1
  kind: max_files
  limit: 3
  exclude: ["docs/", "*.md"]
```
"""

from __future__ import annotations

from gate.base import globs
from gate.model.change import ChangeSet
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules._common import param_int, param_list, plural, result
from gate.rules.kind import BUDGET, PATHS

KIND = "max_files"
PARAMETERS = {
    "limit": {
        "description": "The most paths the change may touch; a rename counts once.",
        "$ref": "#/$defs/limit",
    },
    "exclude": {
        "description": (
            "Touched paths that do not count, matched exactly as written; only a glob "
            "ending in `/` or `**` reaches into a folder."
        ),
        "$ref": "#/$defs/globs",
        "default": [],
    },
}
READS = {PATHS}
LAB = BUDGET
GLOBS = {"exclude": globs.NAMES}  # exact, and a name never opens a folder


def stated_count(files_touched: int, listed: int) -> int:
    """The count `max_files` judges for a source that states `files_touched`
    and lists `listed` distinct paths: the stated count, but never less than
    half the paths, rounded up (a rename lists both of its paths)."""
    return max(files_touched, (listed + 1) // 2)


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    limit = param_int(rule, "limit")
    exclude = param_list(rule, "exclude")
    counted_paths: list[str] = []
    if changes.files_touched is not None and not exclude:
        counted_paths = changes.touched_paths()
        count = stated_count(changes.files_touched, len(changes.files))
        if changes.files_touched < count:
            note = (
                f" (the source states {changes.files_touched} but lists "
                f"{plural(len(changes.files), 'path')}, at least {count} even if all were renames)"
            )
        else:
            note = " (as stated by the source)" if changes.source == "writer" else ""
    else:
        count = 0
        excluded = 0
        is_excluded = globs.matcher(exclude, GLOBS["exclude"])
        for f in changes.files:
            kept = [p for p in f.written if not is_excluded(p)]
            if kept:
                count += 1
                counted_paths.extend(kept)
            else:
                excluded += 1
        note = f" ({excluded} excluded)" if excluded else ""
    passed = count <= limit
    message = f"{plural(count, 'path')} touched{note}; limit {limit}"
    return result(rule, passed, message, paths=() if passed else counted_paths)
