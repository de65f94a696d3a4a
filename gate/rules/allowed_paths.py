"""`allowed_paths`: every touched path must match one of the given globs.

Parameters:

* `paths` (globs): the only places the change may touch, in gitignore /
  CODEOWNERS syntax (see "Globs").

Both sides of a rename are checked: renaming an allowed file to a place
outside the list fails, and so does moving a file from outside into it.
Fails listing every touched path that matches none of the globs.  An empty
change passes.

```yaml
- id: FILES
  kind: allowed_paths
  paths: ["src/clamp_kit.py", "docs/"]
```
"""

from __future__ import annotations

from gate import globs
from gate.changes import ChangeSet
from gate.model import Result, Rule
from gate.rules._common import param_list, plural, result

KIND = "allowed_paths"


def check(rule: Rule, changes: ChangeSet) -> Result:
    patterns = param_list(rule, "paths")
    touched = changes.touched_paths()
    allowed = set(globs.matching(touched, patterns))
    outside = [p for p in touched if p not in allowed]
    if outside:
        verb = "lies" if len(outside) == 1 else "lie"
        message = f"{plural(len(outside), 'touched path')} {verb} outside the allowed globs"
        return result(rule, False, message, paths=outside)
    return result(rule, True, f"every touched path matches the allowed globs ({len(touched)})")
