"""`must_include`: the captured stdout must contain a token.

**Use `last_line`.**  A failing test run can print any token earlier in
its output (a test that prints `EXIT=0`, a log line that quotes it), so
`anywhere` passes whenever the token appears at all.  Make the harness
print the token last (`pytest; echo "EXIT=$?"`) and require it there.
With `last_line` the token must *end* that line (spaces and tabs after it
are ignored): a test that writes `EXIT=0` without a newline as the run
ends (an `atexit` hook) puts it at the start of the harness's own line,
`EXIT=0EXIT=1`, and the harness's text always comes last.

The stdout comes from `--stdout-file` (`gate check`), the `stdout` field of
a writer's `result.json` (`gate grade`), the Action's `stdout-file` input,
or an example's `stdout`.  Fails when the token is absent (or, with
`last_line`, not at the end of the last non-empty line), and also when no
stdout was captured at all (the message says to pass `--stdout-file`): a
missing test log is never a pass.

```yaml
- id: GREEN
  kind: must_include
  token: "EXIT=0"
  where: last_line
```
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gate.base.text import lines
from gate.model.change import ChangeSet
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules._common import param_str, quote, result
from gate.rules.kind import STDOUT, TESTS, Problem

KIND = "must_include"
ANYWHERE = "anywhere"
LAST_LINE = "last_line"
PARAMETERS = {
    "token": {
        "description": (
            "A plain substring the captured stdout must contain (case-sensitive, no regex), "
            "for example the last line a test runner prints on success."
        ),
        "type": "string",
        "minLength": 1,
    },
    "where": {
        "description": (
            "Where the token must be: `anywhere` in the stdout, or at the end of its "
            "`last_line` (spaces and tabs after it ignored): the "
            "last line that holds more than spaces and tabs, where a line ends at `\\n`, "
            "`\\r\\n` or `\\r` only (as for git and Python's tokenizer; form feeds, U+2028 "
            "and the like do not end a line).  Use `last_line` with a harness that prints "
            "the token last: a failing test run can print any token earlier, and a "
            "test that prints it without a newline puts it before the harness's text."
        ),
        "type": "string",
        "enum": [ANYWHERE, LAST_LINE],
        "default": ANYWHERE,
    },
}
READS = {STDOUT}
LAB = TESTS


def param_problem(params: Mapping[str, Any]) -> Problem | None:
    """A `last_line` token cannot hold a line break."""
    if params.get("where") == LAST_LINE and re.search(r"[\r\n]", params["token"]):
        return ("token",), (
            '"token" holds a line break, so it can never be on one line; '
            "drop the line break or use where: anywhere"
        )
    return None


_BLANK = " \t"


def last_line(text: str) -> str | None:
    """The last line of `text` (`gate.base.text.lines`: a line ends at `\\n`,
    `\\r\\n` or `\\r`) that holds more than spaces and tabs, without its
    ending; None when there is none."""
    for line in reversed(lines(text)):
        body = line.rstrip("\r\n")
        if body.strip(_BLANK):
            return body
    return None


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    token = param_str(rule, "token")
    where = param_str(rule, "where")
    if changes.stdout is None:
        return result(rule, False, "no stdout captured; pass --stdout-file")
    if where == LAST_LINE:
        line = last_line(changes.stdout)
        if line is None:
            return result(rule, False, f"stdout has no non-empty line to hold {quote(token)}")
        if line.rstrip(_BLANK).endswith(token):
            return result(rule, True, f"the last line of stdout ends with {quote(token)}")
        if token in line:
            return result(
                rule,
                False,
                f"the last line of stdout holds {quote(token)} but does not end with it "
                f"(it is {quote(line[-200:])}; output without a final newline runs into "
                "the next line, so the token must be the last thing printed)",
            )
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
