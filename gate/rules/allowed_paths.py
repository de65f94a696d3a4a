"""`allowed_paths`: every touched path must match one of the given globs.

A path is allowed only when it matches a glob exactly as written
(`gate.base.globs.EXACT`: case-sensitive, code point by code point), so the
rule never allows more than it says: `SRC/x.py` is outside `src/` even
though a case-insensitive checkout would put it there.

Both sides of a rename are checked: renaming an allowed file to a place
outside the list fails, and so does moving a file from outside into it.
A copy's source is checked too (copying a file from outside the list
reaches it).  Fails listing every touched path that matches none of the
globs.  An empty change passes.

A failing GitHub Actions workflow or action metadata file is described as
[`forbidden_paths`](#forbidden_paths) describes it (what the change did to
its permissions, triggers, actions and secrets).

```yaml
- id: FILES
  kind: allowed_paths
  paths: ["src/clamp_kit.py", "docs/"]
```
"""

from __future__ import annotations

from gate.base import globs
from gate.model.change import ChangeSet
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules import workflow_changes
from gate.rules._common import param_list, plural, result
from gate.rules.kind import PATHS, TEXTS

KIND = "allowed_paths"
PARAMETERS = {
    "paths": {
        "description": (
            "Globs of the only paths the change may touch, in gitignore / CODEOWNERS syntax."
        ),
        "$ref": "#/$defs/globs",
    },
}
READS = {PATHS, TEXTS}
# a workflow's or an action's texts, to say what a change did to it
TEXT_MATCHING = workflow_changes.CI_GLOBS
GLOBS = {"paths": globs.EXACT}  # exact: never allows more than it says


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    patterns = param_list(rule, "paths")
    touched = changes.touched_paths()
    allowed = set(globs.matching(touched, patterns, GLOBS["paths"]))
    outside = [p for p in touched if p not in allowed]
    if outside:
        verb = "lies" if len(outside) == 1 else "lie"
        message = f"{plural(len(outside), 'touched path')} {verb} outside the allowed globs"
        return workflow_changes.failure(rule, changes, message, outside)
    return result(rule, True, f"every touched path matches the allowed globs ({len(touched)})")
