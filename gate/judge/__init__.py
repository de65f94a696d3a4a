"""The judge: one verdict path for every entry point, the pure core of the gate.

`judge` is the verdict of every command that judges a real change: the
rubric's own examples first (`examples_verdict`, built-in
`gate.rubric-selftest`), then `evaluate`.  `evaluate` takes values and
returns a `Report`; it never touches git, the network, the clock or the
environment.  Built-in rules that need the outside world (the Action's
workflow-edited and diff-incomplete) are computed by the caller and passed
in as ready `RuleResult`s.  Examples go through `evaluate` too
(`run_example`): the very rule code that judges real changes, no second
implementation to drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from gate.base.errors import GateError
from gate.base.names import BUILTIN_PREFIX, SCOPE_LOOSEN, SCOPE_TIGHTEN, WARN
from gate.model.change import ChangeSet
from gate.model.report import Report, RuleResult, ScopeNote
from gate.model.rubric import Example, Rubric, Rule, Scope, repo_path
from gate.rules import REGISTRY, builtin

if TYPE_CHECKING:
    from gate.model.waivers import Waivable


def run_rules(rubric: Rubric, changes: ChangeSet) -> list[RuleResult]:
    """The rubric's own rules, in rubric order."""
    results = []
    for rule in rubric.rules:
        result = REGISTRY[rule.kind].judge(rule, changes)
        description = result.description if result.description is not None else rule.description
        results.append(replace(result, description=description, level=rule.level))
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
    `gate.model.rubric.repo_path` accepts (`./x.yml` is `x.yml`); when given,
    built-in `gate.rubric-edited` is evaluated.  `builtins` are extra built-in results
    computed by the caller.  Built-ins are reported first, in `gate.rules.builtin`'s
    order, then the rubric's rules in rubric order.
    """
    found = list(builtins)
    if rubric_path is not None:
        found.append(builtin.rubric_edited(changes, repo_path(rubric_path)))
    results = builtin.order(found) + run_rules(rubric, changes)
    failed = tuple(r.id for r in results if not r.passed and not r.warned)
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
        waivable=_waivable(rubric, failed),
        warned=tuple(r.id for r in results if r.warned),
    )


def _waivable(rubric: Rubric, failed: tuple[str, ...]) -> tuple[Waivable, ...]:
    """`gate.model.waivers.waivable`, loaded only for a rubric that has waivers:
    without one nothing is waivable, and a check without waivers saves the
    import's 2-3 ms (docs/development.md, "The git layer's figures")."""
    if not rubric.waivers:
        return ()
    from gate.model.waivers import waivable

    return waivable(rubric.waivers, failed)


@dataclass(frozen=True)
class ExampleOutcome:
    """What one of the rubric's examples got: the rule ids that failed."""

    name: str
    expect: tuple[str, ...]  # ids that must fail; () means "must pass"
    failed: tuple[str, ...]  # ids that did fail, in rubric order

    @property
    def agrees(self) -> bool:
        return set(self.expect) == set(self.failed)

    @property
    def missing(self) -> tuple[str, ...]:
        """Expected to fail, but passed."""
        return tuple(i for i in self.expect if i not in self.failed)

    @property
    def unexpected(self) -> tuple[str, ...]:
        """Failed, but not expected to."""
        return tuple(i for i in self.failed if i not in self.expect)

    def describe(self) -> str:
        """One sentence on why the example disagrees (or that it agrees)."""
        want = ", ".join(self.expect) if self.expect else "pass"
        got = ", ".join(self.failed) if self.failed else "pass"
        if self.agrees:
            return f"expected {want}; got {got}"
        parts = [f"expected {want}; got {got}"]
        if self.missing:
            parts.append("did not fail: " + ", ".join(self.missing))
        if self.unexpected:
            parts.append("failed unexpectedly: " + ", ".join(self.unexpected))
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "expect": list(self.expect) or "pass",
            "failed": list(self.failed),
            "agrees": self.agrees,
        }


def run_example(rubric: Rubric, example: Example) -> ExampleOutcome:
    """What `example` gets: the rules whose check fails, at either level (an
    example proves what a rule judges; a `warn` rule's failure counts)."""
    report = evaluate(rubric, example.changes)
    failed = tuple(r.id for r in report.results if not r.passed)
    return ExampleOutcome(name=example.name, expect=example.expect, failed=failed)


def examples_verdict(rubric: Rubric) -> RuleResult:
    """Built-in `gate.rubric-selftest` for `rubric`: its examples, run."""
    return builtin.rubric_selftest(tuple(run_example(rubric, ex) for ex in rubric.examples))


def judge(
    rubric: Rubric,
    changes: ChangeSet,
    *,
    rubric_path: str | None,
    builtins: Sequence[RuleResult] = (),
    notes: Sequence[str] = (),
    selftest: RuleResult | None = None,
    scope: Scope | None = None,
) -> Report:
    """The verdict of every command that judges a real change (`gate check`,
    `gate check --patch`, `gate lab`, `gate loop`, `gate grade`, `gate demo`,
    the Action, `gate backtest`): the rubric's examples run first (built-in
    `gate.rubric-selftest`), then `evaluate`.  One path, so a local verdict
    is the Action's verdict.  `selftest`: the examples' verdict when the
    caller already has it for this rubric (`examples_verdict`): `gate
    backtest` judges hundreds of changes with one rubric.  `scope`: the
    task's own scope (`apply_scope`), applied after the examples ran."""
    if selftest is None:
        selftest = examples_verdict(rubric)
    note = None
    if scope is not None:  # the examples prove the rubric as written; the change meets the scope
        rubric, note = apply_scope(rubric, scope)
    report = evaluate(
        rubric, changes, rubric_path=rubric_path, builtins=[*builtins, selftest], notes=notes
    )
    return report if note is None else replace(report, scope=note)


# The rules a scope adds: its paths, and the budgets a rubric has no rule for.
PATHS_RULE = f"{BUILTIN_PREFIX}scope.paths"
ADDED_BUDGETS = {
    "max_files": f"{BUILTIN_PREFIX}scope.max_files",
    "max_lines": f"{BUILTIN_PREFIX}scope.max_lines",
}


def _check_ids(scope: Scope, rubric: Rubric) -> None:
    """Refuse a scope whose `levels` name a built-in rule or an id the
    rubric does not have (one sentence naming where the scope came from)."""
    known = {rule.id for rule in rubric.rules}
    where = f"invalid scope block: {' and '.join(scope.sources)}: levels"
    for rule_id in sorted(scope.levels):
        if rule_id.startswith(BUILTIN_PREFIX):
            raise GateError(
                f"{where}: {rule_id} is a built-in rule and always fails; name a rule of the rubric"
            )
        if rule_id not in known:
            shown = ", ".join(sorted(known)) or "none"
            raise GateError(f"{where}: the rubric has no rule {rule_id!r}; its rules: {shown}")


def apply_scope(rubric: Rubric, scope: Scope) -> tuple[Rubric, ScopeNote]:
    """`rubric` as `scope` amends it under the rubric's `scope:` mode
    (`gate.rubric.task_scope` says what each key does), and what changed.
    A mode of `none` takes no scope (the caller says why); levels naming a
    built-in or an unknown rule are a `GateError` naming the scope."""
    mode = rubric.scope
    if mode not in (SCOPE_TIGHTEN, SCOPE_LOOSEN):
        raise GateError(
            f"{' and '.join(scope.sources)} holds a scope block, but the rubric {rubric.source} "
            f"says scope: {mode}; add `scope: tighten` (or loosen) to the rubric to judge by it"
        )
    _check_ids(scope, rubric)
    changes: list[str] = []
    refused: list[str] = []
    rules: list[Rule] = []
    budgets = {"max_files": scope.max_files, "max_lines": scope.max_lines}
    for rule in rubric.rules:
        wanted = budgets.get(rule.kind)
        if wanted is not None:
            limit = int(rule.params["limit"])
            new = min(limit, wanted) if mode == SCOPE_TIGHTEN else wanted
            if new != limit:
                rule = replace(rule, params={**rule.params, "limit": new})
                changes.append(f"{rule.id} limit from {limit} to {new}")
        level = scope.levels.get(rule.id)
        if level is not None and level != rule.level:
            if level == WARN and mode != SCOPE_LOOSEN:
                refused.append(f"{rule.id} to warn (the rubric's scope: {mode} only tightens)")
            else:
                rule = replace(rule, level=level)
                changes.append(f"{rule.id} level {level}")
        rules.append(rule)
    present = {rule.kind for rule in rubric.rules}
    for kind, rule_id in ADDED_BUDGETS.items():
        wanted = budgets[kind]
        if wanted is not None and kind not in present:
            params = REGISTRY[kind].defaults({"tests": rubric.tests})
            params["limit"] = wanted
            rules.append(
                Rule(id=rule_id, kind=kind, params=params, description="the task's budget")
            )
            changes.append(f"{rule_id} limit {wanted}")
    if scope.paths is not None:
        rules.append(
            Rule(
                id=PATHS_RULE,
                kind="allowed_paths",
                params={"paths": scope.paths},
                description="the task's paths",
            )
        )
        changes.append(f"{PATHS_RULE} paths {', '.join(scope.paths)}")
    note = ScopeNote(scope.to_dict(), scope.sources, mode, tuple(changes), tuple(refused))
    return replace(rubric, rules=tuple(rules)), note
