"""Evaluate a rubric against a change set: the pure core of the gate.

`evaluate` takes values and returns a `Report`; it never touches git, the
network, the clock or the environment.  Built-in rules that need the outside
world (the Action's workflow-edited and diff-incomplete) or the examples
(rubric-selftest, see `gate.selftest.judge_change`) are computed by the
caller and passed in as ready `Result`s.
"""

from __future__ import annotations

from collections.abc import Sequence

from gate.changes import ChangeSet
from gate.model import BUILTIN_IDS, RUBRIC_EDITED, Result, Rubric
from gate.report import Report
from gate.rules import REGISTRY


def rubric_edited(changes: ChangeSet, rubric_path: str) -> Result:
    """Built-in `gate.rubric-edited`: the change touches the rubric's own path."""
    hits = tuple(p for p in changes.touched_paths() if p == rubric_path)
    if hits:
        message = (
            f"the change touches the rubric {rubric_path}; "
            "it was judged by the base version, and a rubric change needs its own reviewed PR"
        )
    else:
        message = f"the rubric {rubric_path} is untouched"
    return Result(id=RUBRIC_EDITED, kind="builtin", passed=not hits, message=message, paths=hits)


def run_rules(rubric: Rubric, changes: ChangeSet) -> list[Result]:
    """The rubric's own rules, in rubric order."""
    results = []
    for rule in rubric.rules:
        result = REGISTRY[rule.kind](rule, changes)
        if rule.description is not None and result.description is None:
            result = Result(
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
    builtins: Sequence[Result] = (),
    notes: Sequence[str] = (),
) -> Report:
    """Judge `changes` by `rubric`.

    `rubric_path` is the repository path of the rubric, in any spelling
    `gate.frozen.repo_path` accepts (`./x.yml` is `x.yml`); when given,
    built-in `gate.rubric-edited` is evaluated.  `builtins` are extra built-in results
    computed by the caller.  Built-ins are reported first, in `BUILTIN_IDS`
    order, then the rubric's rules in rubric order.
    """
    found = list(builtins)
    if rubric_path is not None:
        from gate.frozen import repo_path  # the one owner of the spelling

        found.append(rubric_edited(changes, repo_path(rubric_path)))
    order = {rule_id: i for i, rule_id in enumerate(BUILTIN_IDS)}
    found.sort(key=lambda r: (order.get(r.id, len(order)), r.id))
    results = found + run_rules(rubric, changes)
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
    )
