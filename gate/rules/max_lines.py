"""`max_lines`: a budget on how many lines a change adds and deletes.

Parameters:

* `limit` (integer, 0 or more): the most lines allowed.
* `count` (optional): `changed` (added + deleted, the default), `added`
  or `deleted`.
* `exclude` (globs, optional): files that do not count, matched exactly
  as written.  A rename is excluded only when both of its paths match; a
  copy by its new path.

Only text files count: binary files and submodules are touched but carry
0 lines.  Counts are git's numstat (a modified line is one deleted and one
added line, so `changed` counts it twice).

Fails when the total is over `limit` (`paths` lists the files that
contributed lines), or when a counted file has no line counts (a writer's
`result.json` lists paths only): the rule cannot be judged without counts,
so it fails and says so rather than guessing.

```yaml
- id: LINES
  kind: max_lines
  limit: 40
  count: changed
  exclude: ["*.lock", "docs/"]
```
"""

from __future__ import annotations

from gate import globs
from gate.changes import ChangeSet
from gate.model import Result, Rule
from gate.rules._common import names, param_int, param_list, param_str, plural, result

KIND = "max_lines"
GLOBS = {"exclude": globs.EXACT}  # exact: never excludes more than it says


def check(rule: Rule, changes: ChangeSet) -> Result:
    limit = param_int(rule, "limit")
    mode = param_str(rule, "count", "changed")
    exclude = param_list(rule, "exclude")
    added = deleted = 0
    contributing: list[str] = []
    unknown: list[str] = []
    is_excluded = globs.matcher(exclude, GLOBS["exclude"])
    for f in changes.files:
        if f.binary or f.submodule:
            continue
        if exclude and all(is_excluded(p) for p in f.written):
            continue
        if f.added is None or f.deleted is None:
            unknown.append(f.path)
            continue
        add = f.added if mode in ("changed", "added") else 0
        dele = f.deleted if mode in ("changed", "deleted") else 0
        added += add
        deleted += dele
        if add or dele:
            contributing.extend(f.written)
    if unknown:
        unknown.sort()
        message = (
            f"the source ({changes.source}) carries no line counts for "
            f"{plural(len(unknown), 'file')} ({names(unknown)}); "
            "this rule needs a diff, for example `gate check`"
        )
        return result(rule, False, message, paths=unknown)
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
    passed = total <= limit
    return result(rule, passed, message, paths=() if passed else contributing)
