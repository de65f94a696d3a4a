"""The judge proves itself: run a rubric's own examples.

Each example is a synthetic change with the verdict it must get.  Examples
go through `judge.evaluate`, the very same rule code that judges real
changes; there is no second implementation to drift.  A rule that no
example makes fail is *unproven*: nothing shows it can say "no".
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gate.judge import evaluate
from gate.report import RuleResult
from gate.rubric import Example, Rubric
from gate.rules.builtin import rubric_selftest

if TYPE_CHECKING:
    from gate.changes import ChangeSet
    from gate.report import Report


@dataclass(frozen=True)
class ExampleOutcome:
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


@dataclass(frozen=True)
class SelftestReport:
    rubric_sha256: str
    outcomes: tuple[ExampleOutcome, ...]
    unproven: tuple[str, ...]  # rule ids no example makes fail, rubric order
    has_passing_example: bool

    @property
    def agrees(self) -> bool:
        return all(o.agrees for o in self.outcomes)

    def strict_problems(self) -> list[str]:
        """What `--strict` refuses beyond disagreements."""
        problems = []
        if self.unproven:
            problems.append(
                "unproven rules (no example makes them fail): " + ", ".join(self.unproven)
            )
        if not self.has_passing_example:
            problems.append("no example expects a pass, so nothing shows the rules can say yes")
        return problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "rubric_sha256": self.rubric_sha256,
            "agrees": self.agrees,
            "examples": [o.to_dict() for o in self.outcomes],
            "unproven": list(self.unproven),
            "has_passing_example": self.has_passing_example,
        }


def run_example(rubric: Rubric, example: Example) -> ExampleOutcome:
    report = evaluate(rubric, example.changes)
    return ExampleOutcome(name=example.name, expect=example.expect, failed=report.failed)


def run_selftest(rubric: Rubric) -> SelftestReport:
    outcomes = tuple(run_example(rubric, ex) for ex in rubric.examples)
    failed_somewhere = {rule_id for o in outcomes for rule_id in o.failed}
    unproven = tuple(r.id for r in rubric.rules if r.id not in failed_somewhere)
    return SelftestReport(
        rubric_sha256=rubric.sha256,
        outcomes=outcomes,
        unproven=unproven,
        has_passing_example=any(not ex.expect for ex in rubric.examples),
    )


def examples_verdict(rubric: Rubric) -> RuleResult:
    """Built-in `gate.rubric-selftest` for `rubric`: its examples, run."""
    return rubric_selftest(run_selftest(rubric))


def judge_change(
    rubric: Rubric,
    changes: ChangeSet,
    *,
    rubric_path: str | None,
    builtins: Sequence[RuleResult] = (),
    notes: Sequence[str] = (),
    selftest: RuleResult | None = None,
) -> Report:
    """The verdict of every command that judges a real change (`gate check`,
    `gate check --patch`, `gate lab`, `gate demo`, the Action, `gate
    backtest`): the rubric's examples run first (built-in
    `gate.rubric-selftest`), then `evaluate`.  One path, so a local verdict
    is the Action's verdict.  `selftest`: the examples' verdict when the
    caller already has it for this rubric (`examples_verdict`): `gate
    backtest` judges hundreds of changes with one rubric."""
    if selftest is None:
        selftest = examples_verdict(rubric)
    return evaluate(
        rubric, changes, rubric_path=rubric_path, builtins=[*builtins, selftest], notes=notes
    )


@dataclass(frozen=True)
class BaseFinding:
    """A rule that names a file or path the base tree does not have."""

    rule_id: str
    kind: str
    message: str
    strict: bool  # an error under `--strict` (else a warning only)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.rule_id,
            "kind": self.kind,
            "message": self.message,
            "strict": self.strict,
        }


def check_at_base(rubric: Rubric, base_files: Sequence[str], base_name: str) -> list[BaseFinding]:
    """Rules that name a file or path the base tree (`base_files`) lacks.

    A content rule's `file` missing at base is a strict finding: a
    `keep_symbols` or `keep_lines` rule on it can never fire, and a
    one-letter typo in `file` is the usual cause.  For path rules the rule
    itself is run on a change that touches every base file, with the very
    matching it uses on real changes; when even that does not make it fire,
    nothing at base matches its paths.
    """
    from gate.changes import ChangeSet, FileChange
    from gate.rules import REGISTRY

    present = frozenset(base_files)
    everything: ChangeSet | None = None
    found: list[BaseFinding] = []
    for rule in rubric.rules:
        kind = REGISTRY[rule.kind]
        named = [(key, str(rule.params[key])) for key in kind.texts_of if key in rule.params]
        for key, name in named:
            if name not in present:
                found.append(
                    BaseFinding(
                        rule.id,
                        rule.kind,
                        f"{key} {json.dumps(name, ensure_ascii=False)} does not exist at base "
                        f"{base_name}, so the rule guards nothing there; check the spelling",
                        strict=True,
                    )
                )
        if kind.forbids:
            # Paths that may legitimately name nothing yet (a forbidden place
            # the change must not create; a test tree still to come): a
            # warning, never an error.  Kinds that allow or exclude
            # (allowed_paths, max_* `exclude`) are left out: a misspelt
            # allowed glob fails changes, a misspelt exclude counts more.
            if everything is None:
                everything = ChangeSet(files=tuple(FileChange(path) for path in base_files))
            if kind.check(rule, everything).passed:
                found.append(
                    BaseFinding(
                        rule.id,
                        rule.kind,
                        f"its paths match nothing at base {base_name}; fine if it guards a "
                        "place that does not exist yet, else check the spelling",
                        strict=False,
                    )
                )
    return found
