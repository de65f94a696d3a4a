"""`forbidden_paths`: no touched path may match any of the given globs.

Parameters:

* `paths` (globs): gitignore / CODEOWNERS syntax (see "Globs"): `*` stays
  inside one path segment, `**` crosses segments, a pattern without `/`
  matches at any depth, a trailing `/` matches a directory and everything
  under it, a leading `/` anchors to the repository root.

Both sides of a rename are checked.  Fails listing every touched path that
matches.

```yaml
- id: F3
  kind: forbidden_paths
  paths: ["secrets/", "*.pem", "/.github/workflows/"]
```
"""

from __future__ import annotations

from gate import globs
from gate.changes import ChangeSet
from gate.model import Result, Rule
from gate.rules._common import param_list, plural, result

KIND = "forbidden_paths"


def check(rule: Rule, changes: ChangeSet) -> Result:
    patterns = param_list(rule, "paths")
    hits = globs.matching(changes.touched_paths(), patterns)
    if hits:
        verb = "matches" if len(hits) == 1 else "match"
        message = f"{plural(len(hits), 'touched path')} {verb} a forbidden glob"
        return result(rule, False, message, paths=hits)
    return result(rule, True, "no touched path matches a forbidden glob")
