"""Evaluate a rubric against a change set: the pure core of the gate.

`evaluate` takes values and returns a `Report`; it never touches git, the
network, the clock or the environment.  Built-in rules that need the outside
world (the Action's workflow-edited and diff-incomplete) or the examples
(rubric-selftest, see `gate.selftest.judge_change`) are computed by the
caller and passed in as ready `RuleResult`s.
"""

from __future__ import annotations

from collections.abc import Sequence

from gate.changes import ChangeSet
from gate.report import Report, RuleResult
from gate.rubric import Rubric
from gate.rules import REGISTRY, builtin
from gate.waivers import waivable


def run_rules(rubric: Rubric, changes: ChangeSet) -> list[RuleResult]:
    """The rubric's own rules, in rubric order."""
    results = []
    for rule in rubric.rules:
        result = REGISTRY[rule.kind].check(rule, changes)
        if rule.description is not None and result.description is None:
            result = RuleResult(
                id=result.id,
                kind=result.kind,
                passed=result.passed,
                message=result.message,
                paths=result.paths,
                findings=result.findings,
                description=rule.description,
            )
        results.append(result)
    return results


def evaluate(
    rubric: Rubric,
    changes: ChangeSet,
    *,
    rubric_path: str | None = None,
    builtins: Sequence[RuleResult] = (),
    notes: Sequence[str] = (),
) -> Report:
    """Judge `changes` by `rubric`.

    `rubric_path` is the repository path of the rubric, in any spelling
    `gate.rubric.source.repo_path` accepts (`./x.yml` is `x.yml`); when given,
    built-in `gate.rubric-edited` is evaluated.  `builtins` are extra built-in results
    computed by the caller.  Built-ins are reported first, in `gate.rules.builtin`'s
    order, then the rubric's rules in rubric order.
    """
    found = list(builtins)
    if rubric_path is not None:
        from gate.rubric.source import repo_path  # the one owner of the spelling

        found.append(builtin.rubric_edited(changes, repo_path(rubric_path)))
    results = builtin.order(found) + run_rules(rubric, changes)
    failed = tuple(r.id for r in results if not r.passed)
    return Report(
        passed=not failed,
        failed=failed,
        rule_count=len(rubric.rules),
        rubric_sha256=rubric.sha256,
        base=changes.base,
        head=changes.head,
        stats=changes.stats(),
        results=tuple(results),
        notes=(*changes.notes, *notes),
        waivable=waivable(rubric.waivers, failed),
    )
