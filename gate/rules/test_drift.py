"""`test_drift`: tests that exist at base stay exactly as they are.

Parameters:

* `allow_added` (boolean, default `true`): whether new test files may be
  added.
* `paths` (globs, default: the rubric's `tests`): what counts as a test
  file.  The default `tests` globs are `tests/`, `test/`, `**/test_*.py`,
  `**/*_test.py`, `**/conftest.py`, `pytest.ini`, `tox.ini`,
  `**/*_test.go`, `**/__tests__/`, `**/*.test.*`, `**/*.spec.*`, `spec/`.

A path is a test path when it matches a glob as written, or in another
letter case or Unicode normalization (`gate.globs.FOLDED`): `Tests/x.py`
and `TEST_CLAMP.PY` are test paths, because a case-insensitive checkout
treats them as `tests/x.py` and `test_clamp.py`.  Counting more paths as
tests can only make the rule fail more often, never less.

Fails when a test file that exists at base is modified, deleted,
renamed (either side of the rename is a test path: moving a test away and
moving a file onto a test path both count) or has its mode changed.  With
`allow_added: false`, a new test file (added, or a copy's new path) also
fails; copying a test leaves its source as it was.  When
the source only knows a path but not what happened to it (a writer's
`result.json`), a test path fails and the message says its status is
unknown: the gate cannot tell a new test from an edited one.

```yaml
- id: TESTS
  kind: test_drift
  allow_added: true
  paths: ["tests/", "**/test_*.py"]
```
"""

from __future__ import annotations

from gate import globs
from gate.changes import (
    ADDED,
    COPIED,
    DELETED,
    MODIFIED,
    RENAMED,
    TYPE_CHANGED,
    UNKNOWN,
    ChangeSet,
)
from gate.model import DEFAULT_TESTS, Result, Rule
from gate.rules._common import param_bool, param_list, plural, result

KIND = "test_drift"
GLOBS = {"paths": globs.FOLDED}  # a test in another spelling is a test

_ORDER = ("modified", "mode-changed", "type-changed", "deleted", "renamed", "added", "unknown")


def check(rule: Rule, changes: ChangeSet) -> Result:
    patterns = param_list(rule, "paths", DEFAULT_TESTS)
    allow_added = param_bool(rule, "allow_added", True)
    counts: dict[str, int] = {}
    offending: list[str] = []
    is_test = globs.matcher(patterns, GLOBS["paths"])
    for f in changes.files:
        hits = [p for p in f.written if is_test(p)]
        if not hits:
            continue
        if f.status in (ADDED, COPIED):
            if allow_added:
                continue
            what = "added"
        elif f.status == UNKNOWN:
            what = "unknown"
        elif f.status == RENAMED:
            what = "renamed"
            hits = list(f.touched)
        elif f.status == DELETED:
            what = "deleted"
        elif f.status == TYPE_CHANGED:
            what = "type-changed"
        elif f.status == MODIFIED and f.mode_changed and f.added == 0 and f.deleted == 0:
            what = "mode-changed"
        else:
            what = "modified"
        counts[what] = counts.get(what, 0) + 1
        offending.extend(hits)
    if not counts:
        extra = "" if allow_added else "; no test file added"
        return result(rule, True, f"no test file that exists at base was changed{extra}")
    parts: list[str] = []
    existing = sum(n for k, n in counts.items() if k not in ("added", "unknown"))
    if existing:
        detail = ", ".join(
            f"{counts[k]} {k}" for k in _ORDER if k in counts and k not in ("added", "unknown")
        )
        verb = "exists" if existing == 1 else "exist"
        parts.append(f"{plural(existing, 'test file')} that {verb} at base changed ({detail})")
    if "added" in counts:
        parts.append(f"{plural(counts['added'], 'new test file')} added and allow_added is false")
    if "unknown" in counts:
        parts.append(
            f"{plural(counts['unknown'], 'test path')} with unknown status "
            f"(the source, {changes.source}, does not say whether it existed at base)"
        )
    return result(rule, False, "; ".join(parts), paths=offending)
