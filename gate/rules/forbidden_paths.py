"""`forbidden_paths`: no touched path may match any of the given globs.

The match is conservative (`gate.base.globs.REACH`): it catches what a checkout
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

`exclude` lets files through by name, matched exactly as written (case-
and code point-sensitive, like every glob that allows): a touched path
that an `exclude` glob matches passes, whatever `paths` glob it hits,
unless a folder above it matches an `exclude` glob too (an exclude names
files and never opens a folder: with `.env.example` excluded,
`.env.example/prod.key` still hits `*.key`).  An exclude ending in `/` or
`/**` names a folder and is refused.  Only another spelling would slip
through an exact exclude, and every other spelling still hits: the
starter's SECRETS lets `.env.example` through, not `.ENV.EXAMPLE` or
`.env.example.local`.

**What a CI edit changed.**  When a path that hits is a GitHub Actions
workflow (`.github/workflows/**/*.yml` or `.yaml`) or an action's
metadata (`action.yml`, `action.yaml`), in any letter case, the message
and a finding on that file also say what the change did to it, so a
reviewer sees the risk without opening the file
(`gate.rules.workflow_changes`): permissions widened (at the top level or
for a job: `write-all`, a `permissions` block removed, so the
repository's default applies, a scope raised such as `contents: read ->
write`), a new trigger, named (`pull_request_target`, `workflow_run` and
`issue_comment` called out: they run with the repository's secrets on
others' code or text), an action `uses:` added or changed that is not
pinned by a full 40-hex commit SHA (a local `./` path and a
`docker://...@sha256:` digest are pinned; a tag, a branch, a short or
upper-case SHA are not), a new secret read (`secrets.NAME`,
`secrets['NAME']`, `toJSON(secrets)`: every secret, `secrets: inherit`);
for a new file, everything in it.  The YAML is read with GitHub's key
spellings (`on:` is the key `on`, quoted or not), anchors and aliases
followed within a budget, merge keys applied; a file that cannot be read
is named as such.  The verdict never depends on it: only the words do.

```yaml
- id: F3
  kind: forbidden_paths
  paths: ["secrets/", "*.pem", "/.github/workflows/", ".env", ".env.*"]
  exclude: [".env.example"]   # a checked-in sample, not a secret
```
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gate.base import globs
from gate.model.change import ChangeSet
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules import workflow_changes
from gate.rules._common import param_list, plural, result
from gate.rules.kind import PATHS, TEXTS, Problem

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
    "exclude": {
        "description": (
            "Files the rule lets through, matched exactly as written; an exclude never "
            "opens a folder (none may end in `/` or `/**`)."
        ),
        "$ref": "#/$defs/globs",
        "default": [],
    },
}
READS = {PATHS, TEXTS}
# a workflow's or an action's texts, to say what a change did to it
TEXT_MATCHING = workflow_changes.CI_GLOBS
FORBIDS = True
# forbidden: also what a checkout would put there; let through: exactly as written
GLOBS = {"paths": globs.REACH, "exclude": globs.EXACT}


def param_problem(params: Mapping[str, Any]) -> Problem | None:
    """An exclude names files: a folder glob would let through all under it."""
    for i, pattern in enumerate(params.get("exclude", ())):
        if pattern.endswith(("/", "/**")) or pattern == "**":
            return ("exclude", i), (
                f'item {i + 1} of "exclude" ({pattern!r}) names a folder; an exclude lets '
                "files through by name: list them (e.g. `docs/.env.example`)"
            )
    return None


def lets_through(exclude: Sequence[str]) -> Callable[[str], bool]:
    """Whether a path is excluded: an exclude glob matches it and none
    matches a folder above it."""
    test = globs.matcher(exclude, GLOBS["exclude"])

    def through(path: str) -> bool:
        if not test(path):
            return False
        return not any(test(path[:i]) for i, ch in enumerate(path) if ch == "/" and i > 0)

    return through


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    patterns = param_list(rule, "paths")
    through = lets_through(param_list(rule, "exclude"))
    touched = [p for p in changes.touched_paths() if not through(p)]
    hits = globs.matching(touched, patterns, GLOBS["paths"])
    if hits:
        verb = "matches" if len(hits) == 1 else "match"
        message = f"{plural(len(hits), 'touched path')} {verb} a forbidden glob"
        return workflow_changes.failure(rule, changes, message, hits)
    return result(rule, True, "no touched path matches a forbidden glob")
