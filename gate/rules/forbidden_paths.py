"""`forbidden_paths`: no touched path may match any of the given globs.

The match is conservative (`gate.globs.REACH`): it catches what a checkout
on macOS or Windows would put in a forbidden place, not only the exact
spelling.

* **Letter case and Unicode normalization.**  A path hits when it, or its
  folded form (case folded, Unicode NFD, a name's trailing dots and spaces
  dropped as Windows does, the joiners and direction marks HFS+ ignores
  dropped), matches a glob folded the same way:
  `Secrets/key`, `KEY.PEM` and `secrets./key` hit `secrets/` and `*.pem`.
  Every glob form folds: a `?` or a class `[...]` stands for whatever one
  character folds to, so `s[é]crets/` and `s?crets/` catch `sécrets`
  written decomposed (`e` + U+0301), and `stra[ß]e/` catches `STRASSE`.
* **The directory itself and those above it.**  Each directory a glob
  names hits as a path of its own, matched exactly: a file, symlink or
  submodule at `secrets` (for `secrets/`), or at `.github` or
  `.github/workflows` (for `/.github/workflows/`), would put content into
  the forbidden place.  Directories below a `**` are not named (`a/**/b/`
  names `a` and `a/**/b`, not every directory under `a`).

Both sides of a rename are checked, and so is a copy's source: the rule
guards a place, and copying a file out of a forbidden place reaches it
(its content now sits where the rule does not look).  The built-ins
`gate.rubric-edited` and `gate.workflow-edited` guard a file's content
instead, so a copy *of* the rubric passes them; forbid the rubric's path
here to catch copies of it too.  Fails listing every touched path that
hits.

```yaml
- id: F3
  kind: forbidden_paths
  paths: ["secrets/", "*.pem", "/.github/workflows/"]
```
"""

from __future__ import annotations

from gate import globs
from gate.changes import ChangeSet
from gate.report import RuleResult
from gate.rubric import Rule
from gate.rules._common import param_list, plural, result
from gate.rules.kind import PATHS

KIND = "forbidden_paths"
PARAMETERS = {
    "paths": {
        "description": (
            "Globs of paths the change must not touch, in gitignore / CODEOWNERS syntax: "
            "`*` stays inside one path segment, `**` crosses segments, a pattern without "
            "`/` matches at any depth, a trailing `/` matches a directory and everything "
            "under it, a leading `/` anchors to the repository root."
        ),
        "$ref": "#/$defs/globs",
    },
}
READS = {PATHS}
FORBIDS = True
GLOBS = {"paths": globs.REACH}  # and what a checkout would put there


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    patterns = param_list(rule, "paths")
    hits = globs.matching(changes.touched_paths(), patterns, GLOBS["paths"])
    if hits:
        verb = "matches" if len(hits) == 1 else "match"
        message = f"{plural(len(hits), 'touched path')} {verb} a forbidden glob"
        return result(rule, False, message, paths=hits)
    return result(rule, True, "no touched path matches a forbidden glob")
