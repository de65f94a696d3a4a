"""`must_include`: the captured stdout must contain a token.

Parameters:

* `token` (string): a plain substring (case-sensitive, no regex), for
  example the last line a test runner prints on success.
* `where` (optional): `anywhere` (the default) or `last_line`.  With
  `last_line` the token must be on the last non-empty line of the stdout:
  the last line that holds more than spaces and tabs, where a line ends at
  `\\n`, `\\r\\n` or `\\r` only (as for git and Python's tokenizer; form
  feeds, U+2028 and the like do not end a line).

**Use `last_line`.**  A failing test run can print any token earlier in
its output (a test that prints `EXIT=0`, a log line that quotes it), so
`anywhere` passes whenever the token appears at all.  Make the harness
print the token last (`pytest; echo "EXIT=$?"`) and require it there.

The stdout comes from `--stdout-file` (`gate check`), the `stdout` field of
a writer's `result.json` (`gate grade`), the Action's `stdout-file` input,
or an example's `stdout`.  Fails when the token is absent (or, with
`last_line`, not on the last non-empty line), and also when no stdout was
captured at all (the message says to pass `--stdout-file`): a missing test
log is never a pass.

```yaml
- id: GREEN
  kind: must_include
  token: "EXIT=0"
  where: last_line
```
"""

from __future__ import annotations

from gate.changes import ChangeSet
from gate.report import RuleResult
from gate.rubric import Rule
from gate.rules._common import param_str, quote, result
from gate.text import lines

KIND = "must_include"
ANYWHERE = "anywhere"
LAST_LINE = "last_line"

_BLANK = " \t"


def last_line(text: str) -> str | None:
    """The last line of `text` (`gate.text.lines`: a line ends at `\\n`,
    `\\r\\n` or `\\r`) that holds more than spaces and tabs, without its
    ending; None when there is none."""
    for line in reversed(lines(text)):
        body = line.rstrip("\r\n")
        if body.strip(_BLANK):
            return body
    return None


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    token = param_str(rule, "token")
    where = param_str(rule, "where", ANYWHERE)
    if changes.stdout is None:
        return result(rule, False, "no stdout captured; pass --stdout-file")
    if where == LAST_LINE:
        line = last_line(changes.stdout)
        if line is None:
            return result(rule, False, f"stdout has no non-empty line to hold {quote(token)}")
        if token in line:
            return result(rule, True, f"the last line of stdout contains {quote(token)}")
        if token in changes.stdout:
            return result(
                rule,
                False,
                f"stdout contains {quote(token)} but not on its last non-empty line "
                f"(which is {quote(line[:200])})",
            )
        return result(rule, False, f"stdout does not contain {quote(token)}")
    if token in changes.stdout:
        return result(rule, True, f"stdout contains {quote(token)}")
    return result(rule, False, f"stdout does not contain {quote(token)}")
