"""`keep_lines`: named lines of a file survive the change.

A line ends at a newline, CRLF or CR, nowhere else: a form feed,
vertical tab, `\\x1c`-`\\x1e`, `\\x85`, U+2028 or U+2029 is a character
inside a line, as for git and Python.  Lines are compared after stripping
surrounding spaces, tabs and form feeds on both sides (nothing else), so
re-indenting a kept line keeps it; the line may also move within the file.
A UTF-8 byte-order mark is not part of line 1.  Only whole lines count (a
kept line folded into a longer line, or into a comment behind one of those
characters, is gone).

Passes when `file` is untouched.  Fails when a listed line that exists at
base no longer exists at head, including when `file` is deleted or renamed
away.  An annotation points at the head line where the kept line used to
be.  A listed line that is not in the base version is ignored (there is
nothing to keep) and named in the message.  A touched file whose content
the source cannot provide (a writer's `result.json`), or with a version
over 1 MiB (the message names the limit), fails; in a rubric
example, an entry given only by counts is not checked (give
`before`/`after`).

```yaml
- id: BAIT
  kind: keep_lines
  file: clamp_kit.py
  lines: ["import math  # bait: unused on purpose"]
```
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gate.base.text import kept_lines, kept_text, line_diff
from gate.model.change import DELETED, RENAMED, ChangeSet
from gate.model.report import Finding, RuleResult
from gate.model.rubric import Rule
from gate.rules._common import names, param_list, plural, quote, result
from gate.rules._opening import versions
from gate.rules.kind import PATHS, TEXTS, Problem

KIND = "keep_lines"
PARAMETERS = {
    "file": {
        "description": "The file whose lines must survive (any text file), repo-relative.",
        "$ref": "#/$defs/file",
    },
    "lines": {
        "description": (
            "Lines that must still be in the file at head (compared after stripping "
            "surrounding whitespace)."
        ),
        "type": "array",
        "minItems": 1,
        "items": {
            "description": "One line of text, without a line break; not blank.",
            "type": "string",
            "minLength": 1,
        },
    },
}
READS = {PATHS, TEXTS}
TEXTS_OF = ("file",)


def param_problem(params: Mapping[str, Any]) -> Problem | None:
    """Each kept line is one line with visible text."""
    for i, line in enumerate(params["lines"]):
        if "\n" in line or "\r" in line:
            return (
                "lines",
                i,
            ), f'item {i + 1} of "lines" holds a line break; list one line per item'
        if not kept_text(line):
            return ("lines", i), f'item {i + 1} of "lines" is blank; list lines with visible text'
    return None


def check(rule: Rule, changes: ChangeSet) -> RuleResult:
    wanted = param_list(rule, "lines")
    found = versions(
        rule, changes, promise="its kept lines are gone with it", judge_gone=(DELETED, RENAMED)
    )
    if isinstance(found, RuleResult):
        return found
    path, gone, base_text, head_text = found.path, found.gone, found.base, found.head
    base_index: dict[str, int] = {}
    for number, text in enumerate(kept_lines(base_text), start=1):
        base_index.setdefault(text, number)
    head_set = set(kept_lines(head_text))
    present = [w for w in wanted if kept_text(w) in base_index]
    absent = [w for w in wanted if kept_text(w) not in base_index]
    missing = [w for w in present if kept_text(w) not in head_set]
    note = f"; not in the base version, so ignored: {names(absent)}" if absent else ""
    if not missing:
        return result(
            rule, True, f"{plural(len(present), 'listed line')} of {quote(path)} kept{note}"
        )
    was = f" ({quote(path)} was {gone})" if gone is not None else ""
    findings: list[Finding] = []
    if head_text is not None:
        anchors = line_diff(base_text, head_text).head_anchor
        for w in missing:
            base_line = base_index[kept_text(w)]
            findings.append(
                Finding(
                    path=path,
                    message=f"kept line {quote(kept_text(w))} (base line {base_line}) was removed",
                    line=anchors.get(base_line),
                )
            )
    verb = "is" if len(missing) == 1 else "are"
    return result(
        rule,
        False,
        f"{plural(len(missing), 'kept line')} of {quote(path)} {verb} gone at head{was}: "
        f"{names([kept_text(w) for w in missing])}{note}",
        paths=found.change.touched if gone is not None else [path],
        findings=findings,
    )
