"""Helpers shared by every rule kind: typed parameters, the `RuleResult`
builder, and message wording (quoted names, shortened lists, line
ranges).  All pure.  A content rule's opening is `gate.rules._opening`'s,
a Python file's statements `gate.drift.python.tree`'s (and the verdict
for a version that is not Python `gate.rules._opening.both_statements`),
what Python imports instead of a module `gate.drift.python.finder`'s; file
text, its lines and the line diff come from `gate.base.text`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gate.base.paths import quoted
from gate.base.words import names as names  # re-exported: the rules import them from here
from gate.base.words import plural as plural
from gate.model.report import Finding, RuleResult
from gate.model.rubric import Rule

# --- parameters (validated by the rubric loader; these only narrow types) ---


def _param(rule: Rule, key: str) -> Any:
    """`rule`'s value for `key`.  A rule reaches its kind's `check` with
    every parameter: the loader fills in the defaults, and `Kind.judge`
    fills them into a rule built by hand."""
    return rule.params[key]


def param_str(rule: Rule, key: str) -> str:
    value = _param(rule, key)
    return "" if value is None else str(value)


def param_int(rule: Rule, key: str) -> int:
    value = _param(rule, key)
    return 0 if value is None else int(value)


def param_bool(rule: Rule, key: str) -> bool:
    return bool(_param(rule, key))


def param_list(rule: Rule, key: str) -> list[str]:
    value = _param(rule, key)
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


# --- results and wording ---


def result(
    rule: Rule,
    passed: bool,
    message: str,
    paths: Iterable[str] = (),
    findings: Iterable[Finding] = (),
) -> RuleResult:
    """A `RuleResult` for `rule`; `paths` are sorted and made unique."""
    return RuleResult(
        id=rule.id,
        kind=rule.kind,
        passed=passed,
        message=message,
        paths=tuple(sorted(set(paths))),
        findings=tuple(findings),
    )


def quote(text: str) -> str:
    """A string quoted for a message: newlines, tabs and quotes escaped, a
    path byte that is not UTF-8 as `\\xNN` (`gate.base.paths.quoted`)."""
    return quoted(text)


def line_ranges(lines: Sequence[int], limit: int = 8) -> str:
    """`1-3, 7, 9-10` for sorted line numbers, shortened after `limit` runs."""
    runs = runs_of(lines)
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:limit]]
    text = ", ".join(parts)
    if len(runs) > limit:
        text += f" and {len(runs) - limit} more"
    return text


def runs_of(lines: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted, unique line numbers as (first, last)."""
    runs: list[tuple[int, int]] = []
    for n in sorted(set(lines)):
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs
