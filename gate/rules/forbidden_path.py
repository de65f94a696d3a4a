"""`forbidden_path`: no touched path may start with a given prefix.

The comparison is conservative: it catches what a checkout on macOS or
Windows would put in the forbidden place, not only the exact spelling.

* **Letter case and Unicode normalization.**  A path hits when it starts
  with `prefix` as written, or when its folded form (`gate.base.paths.fold`:
  case folded, Unicode NFD) starts with the folded prefix: `Secrets/key`,
  `SECRETS/key` and `sécrets/` written with a combining accent all hit a
  rule on `secrets/` or `sécrets/`.  Windows' dropping of a name's trailing
  dots and spaces is folded too (`secrets./key` opens `secrets/key`), and
  so are the joiners and direction marks HFS+ leaves out of a name.
* **The directory itself and those above it.**  When `prefix` contains a
  `/`, each directory it names hits as a path of its own: a file, symlink
  or submodule at `secrets` (for `secrets/`), or at `config` or
  `config/prod` (for `config/prod/`), would put content into the
  forbidden place.

Both sides of a rename are checked, so moving a file out of (or into) the
prefix fails, and so is a copy's source: copying a file out of the prefix
reaches it.  Fails listing every touched path that hits.

A failing GitHub Actions workflow or action metadata file is described as
[`forbidden_paths`](#forbidden_paths) describes it (what the change did to
its permissions, triggers, actions and secrets).

```yaml
- id: F2
  kind: forbidden_path
  prefix: "secrets/"
```
"""

from __future__ import annotations

from gate.base.paths import fold, fold_names, folds
from gate.model.change import ChangeSet
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules import workflow_changes
from gate.rules._common import param_str, plural, quote, result
from gate.rules.kind import PATHS, TEXTS

KIND = "forbidden_path"
PARAMETERS = {
    "prefix": {
        "description": (
            "A plain string prefix (no glob): a touched path starting with it fails the "
            "rule.  `secrets/` forbids everything under `secrets/`; `secrets` also forbids "
            "`secrets.txt` and `secretsauce/`."
        ),
        "type": "string",
        "minLength": 1,
    },
}
READS = {PATHS, TEXTS}
# a workflow's or an action's texts, to say what a change did to it
TEXT_MATCHING = workflow_changes.CI_GLOBS
FORBIDS = True


def reaches(prefix: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """(prefixes, directories): a path hits when it or one of its folded forms
    starts with one of `prefixes` (the prefix as written and folded), or is
    one of `directories` (each directory the prefix names, in each form)."""
    forms = {prefix, fold(prefix), fold_names(prefix, partial=True)}
    directories = set()
    for form in forms:
        for i, ch in enumerate(form):
            if ch == "/" and i > 0:
                directories.add(form[:i])
    directories |= {fold_names(d) for d in directories}
    return tuple(sorted(forms)), frozenset(directories)


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    prefix = param_str(rule, "prefix")
    starts, directories = reaches(prefix)
    hits = []
    variants = 0
    for path in changes.touched_paths():
        if path.startswith(prefix):
            hits.append(path)
            continue
        for form in (path, *folds(path)):
            if form.startswith(starts) or form in directories:
                hits.append(path)
                variants += 1
                break
    if not hits:
        return result(rule, True, f"no touched path starts with {quote(prefix)}")
    if len(hits) == 1:
        message = f"1 touched path starts with {quote(prefix)}"
    else:
        message = f"{plural(len(hits), 'touched path')} start with {quote(prefix)}"
    if variants:
        message += (
            f" ({variants} of them in another letter case or Unicode form, "
            "or as a directory the prefix names, which a checkout would put there)"
        )
    return workflow_changes.failure(rule, changes, message, hits)
