"""The report's values: each rule's verdict (`RuleResult`, with its
file-level `Finding`s), the task scope it was judged with (`ScopeNote`),
and the `Report` of one judged change; pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from gate.base.names import FAIL, WARN
from gate.base.paths import shown
from gate.model.change import Stats

if TYPE_CHECKING:
    from gate.model.waivers import Waivable, Waived


@dataclass(frozen=True)
class Finding:
    """A file-level finding (becomes a check-run annotation)."""

    path: str
    message: str
    line: int | None = None


@dataclass(frozen=True)
class RuleResult:
    """One rule's verdict on one change (`pass` in the JSON report)."""

    id: str
    kind: str
    passed: bool
    message: str
    paths: tuple[str, ...] = ()
    findings: tuple[Finding, ...] = ()
    description: str | None = None
    level: str = FAIL  # the rule's level (`gate.base.names.LEVELS`); a built-in's is FAIL

    @property
    def warned(self) -> bool:
        """The rule failed at level `warn`: reported, failing nothing."""
        return not self.passed and self.level == WARN

    def located(self) -> tuple[Finding, ...]:
        """Where the rule points, each (path, line) once: its findings when it
        has them, else each offending path (no line, the rule's message).
        The Action's check-run annotations, `--format github` and `--format
        sarif` all read it."""
        items = self.findings or tuple(Finding(p, self.message) for p in self.paths)
        first = {(f.path, f.line): i for i, f in reversed(list(enumerate(items)))}
        return tuple(f for i, f in enumerate(items) if first[(f.path, f.line)] == i)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "pass": self.passed,
            "level": self.level,
            "message": self.message,
            "paths": [shown(p) for p in self.paths],
        }
        if self.description is not None:
            out["description"] = self.description
        if self.findings:
            out["findings"] = [
                {"path": shown(f.path), "line": f.line, "message": f.message} for f in self.findings
            ]
        return out


@dataclass(frozen=True)
class ScopeNote:
    """What a scope did to a rubric, for the report: the scope, the rubric's
    mode, each change made (`rule id: what`), and what it asked that the
    mode does not allow."""

    scope: Mapping[str, Any]  # `gate.model.rubric.Scope.to_dict`
    sources: tuple[str, ...]
    mode: str
    changes: tuple[str, ...]
    refused: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.scope,
            "mode": self.mode,
            "applied": list(self.changes),
            "not_applied": list(self.refused),
        }

    def describe(self) -> str:
        """One line: `scope of issue #12 (tighten): FILES limit from 10 to 3; ...`."""
        done = "; ".join(self.changes) if self.changes else "nothing to change"
        line = f"scope of {' and '.join(self.sources)} ({self.mode}): {done}"
        if self.refused:
            line += "; not applied: " + "; ".join(self.refused)
        return line


@dataclass(frozen=True)
class Report:
    passed: bool
    failed: tuple[str, ...]
    rule_count: int
    rubric_sha256: str | None  # None only when no rubric exists (a skipped run)
    base: str | None
    head: str | None
    stats: Stats
    results: tuple[RuleResult, ...]
    notes: tuple[str, ...] = ()
    # Failed rules a waiver lists (`gate.model.waivers.waivable`), and those an
    # approval waived: `failed` then holds only the rules left failing.
    waivable: tuple[Waivable, ...] = ()
    waived: tuple[Waived, ...] = ()
    # Rules that failed at level `warn`, in result order: never in `failed`.
    warned: tuple[str, ...] = ()
    # The task's scope the rubric was judged with (`gate.judge.apply_scope`).
    scope: ScopeNote | None = None

    def waive(self, waived: tuple[Waived, ...], notes: tuple[str, ...] = ()) -> Report:
        """This report with `waived` rules cleared: they leave `failed`
        (their results still say they failed), and it passes when nothing
        else failed."""
        cleared = {w.rule for w in waived}
        failed = tuple(i for i in self.failed if i not in cleared)
        return replace(
            self,
            passed=not failed,
            failed=failed,
            waived=self.waived + waived,
            notes=self.notes + notes,
        )

    def noted(self, *notes: str) -> Report:
        """This report with `notes` added (once each)."""
        return replace(self, notes=tuple(dict.fromkeys((*self.notes, *notes))))

    @property
    def judged_nothing(self) -> bool:
        """The change touched no file (base and head one commit, head already
        in base, or commits that cancel out): its pass clears nothing, and
        every rendering says so (JSON: `"nothing_judged": true`)."""
        return self.stats.files_touched == 0

    def waived_by(self, rule_id: str) -> Waived | None:
        return next((w for w in self.waived if w.rule == rule_id), None)

    def waivable_by(self, rule_id: str) -> Waivable | None:
        return next((w for w in self.waivable if w.rule == rule_id), None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "pass": self.passed,
            "failed": list(self.failed),
            "rule_count": self.rule_count,
            "rubric_sha256": self.rubric_sha256,
            "base": self.base,
            "head": self.head,
            "stats": self.stats.to_dict(),
            "results": [r.to_dict() for r in self.results],
            "warned": list(self.warned),
        }
        if self.judged_nothing:
            out["nothing_judged"] = True
        if self.notes:
            out["notes"] = list(self.notes)
        if self.waivable:
            out["waivable"] = [w.to_dict() for w in self.waivable]
        if self.waived:
            out["waived"] = [w.to_dict() for w in self.waived]
        if self.scope is not None:
            out["scope"] = self.scope.to_dict()
        return out
