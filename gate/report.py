"""The report value and its renderings (json / text / markdown), all pure."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gate.changes import Stats
from gate.model import Result


@dataclass(frozen=True)
class Report:
    passed: bool
    failed: tuple[str, ...]
    rule_count: int
    rubric_sha256: str
    base: str | None
    head: str | None
    stats: Stats
    results: tuple[Result, ...]
    notes: tuple[str, ...] = ()

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
        }
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def to_json(report: Report) -> str:
    """Deterministic JSON: sorted keys, no timestamps, no absolute paths."""
    return json.dumps(report.to_dict(), sort_keys=True, indent=2, ensure_ascii=False) + "\n"
