"""`must_include`: the captured stdout must contain a token.

Parameters:

* `token` (string): a plain substring (case-sensitive, no regex), for
  example the last line a test runner prints on success.

The stdout comes from `--stdout-file` (`gate check`), the `stdout` field of
a writer's `result.json` (`gate grade`), the Action's `stdout-file` input,
or an example's `stdout`.  Fails when the token is absent, and also when no
stdout was captured at all (the message says to pass `--stdout-file`): a
missing test log is never a pass.

```yaml
- id: GREEN
  kind: must_include
  token: "EXIT=0"
```
"""

from __future__ import annotations

from gate.changes import ChangeSet
from gate.model import Result, Rule
from gate.rules._common import param_str, quote, result

KIND = "must_include"


def check(rule: Rule, changes: ChangeSet) -> Result:
    token = param_str(rule, "token")
    if changes.stdout is None:
        return result(rule, False, "no stdout captured; pass --stdout-file")
    if token in changes.stdout:
        return result(rule, True, f"stdout contains {quote(token)}")
    return result(rule, False, f"stdout does not contain {quote(token)}")
