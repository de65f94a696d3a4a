"""The judge proves itself: what `gate selftest` reports.

Each example is a synthetic change with the verdict it must get; each is
judged by `gate.judge.run_example`, the very same rule code that judges
real changes (and that `gate.judge.judge` runs before every verdict as
built-in `gate.rubric-selftest`).  A rule that no example makes fail is
*unproven*: nothing shows it can say "no".  `check_at_base` finds the
rules that name a file or path the base tree lacks.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gate.judge import ExampleOutcome, run_example
from gate.model.rubric import Rubric


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
    from gate.model.change import ChangeSet, FileChange
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
            if kind.judge(rule, everything).passed:
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
