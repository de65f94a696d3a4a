"""`forbidden_path`: no touched path may start with a given prefix.

Parameters:

* `prefix` (string): a plain string prefix, compared character by
  character (no glob, case-sensitive).  `secrets/` forbids everything under
  `secrets/`; `secrets` also forbids `secrets.txt` and `secretsauce/`.

Both sides of a rename are checked, so moving a file out of (or into) the
prefix fails.  Fails listing every touched path that starts with `prefix`.

```yaml
- id: F2
  kind: forbidden_path
  prefix: "secrets/"
```
"""

from __future__ import annotations

from gate.changes import ChangeSet
from gate.model import Result, Rule
from gate.rules._common import param_str, plural, quote, result

KIND = "forbidden_path"


def check(rule: Rule, changes: ChangeSet) -> Result:
    prefix = param_str(rule, "prefix")
    hits = [p for p in changes.touched_paths() if p.startswith(prefix)]
    if hits:
        message = f"{plural(len(hits), 'touched path')} start with {quote(prefix)}"
        if len(hits) == 1:
            message = f"1 touched path starts with {quote(prefix)}"
        return result(rule, False, message, paths=hits)
    return result(rule, True, f"no touched path starts with {quote(prefix)}")
