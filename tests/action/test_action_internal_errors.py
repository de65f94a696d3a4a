"""Class 4 in the Action: an error the gate did not expect is "could not judge".

Exit 2, `passed=false`, the job summary and a failing check run, whether the
error comes from judging or from publishing.  Injected through real code: a
toy rule kind in the rule table (see tests/judge/test_internal_errors.py).
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from conftest import Scenario

from gate.model.change import ChangeSet
from gate.model.report import Finding, RuleResult
from gate.model.rubric import Rule
from gate.rules import REGISTRY


def _raises(rule: Rule, changes: ChangeSet) -> RuleResult:
    raise RecursionError("maximum recursion depth exceeded")


def _unserializable(rule: Rule, changes: ChangeSet) -> RuleResult:
    # A finding whose line renders as text and markdown but that json.dumps
    # refuses: the Action breaks while finishing, after the verdict was built.
    line: Any = Decimal(3)
    return RuleResult(
        id=rule.id,
        kind=rule.kind,
        passed=True,
        message="toy",
        findings=(Finding(path="app.py", line=line, message="toy"),),
    )


def _failing_runs(github: Any, head: str) -> list[dict[str, Any]]:
    return [r for r in github.check_runs if r["head_sha"] == head and r["conclusion"] == "failure"]


def test_unexpected_error_while_judging_fails_closed(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = scenario.push({"app.py": "def main():\n    return 2\n"})
    monkeypatch.setitem(REGISTRY, "keep_lines", replace(REGISTRY["keep_lines"], check=_raises))
    out = scenario.run()
    assert out.code == 2
    assert out.outputs["passed"] == "false"
    assert "could not judge" in out.summary
    assert "internal error (RecursionError" in out.summary
    assert "::error title=blast-radius::could not judge: internal error" in out.log
    assert "Traceback" not in out.log
    (run,) = _failing_runs(scenario.github, head)
    assert run["output"]["title"].startswith("could not judge: internal error (RecursionError")


def test_unexpected_error_while_finishing_still_leaves_outputs(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = scenario.push({"app.py": "def main():\n    return 2\n"})
    monkeypatch.setitem(
        REGISTRY, "keep_lines", replace(REGISTRY["keep_lines"], check=_unserializable)
    )
    out = scenario.run()
    assert out.code == 2
    assert out.outputs["passed"] == "false"
    assert "internal error (TypeError" in out.summary
    assert len(_failing_runs(scenario.github, head)) == 1
    assert all(r["conclusion"] != "success" for r in scenario.github.check_runs)


def test_debug_env_logs_the_traceback_fenced(
    scenario: Scenario, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario.push({"app.py": "def main():\n    return 2\n"})
    monkeypatch.setitem(REGISTRY, "keep_lines", replace(REGISTRY["keep_lines"], check=_raises))
    scenario.extra_env["GATE_DEBUG"] = "1"
    out = scenario.run()
    assert out.code == 2
    before, _, after = out.log.partition("Traceback (most recent call last):")
    assert after
    assert before.rstrip("\n").splitlines()[-1].startswith("::stop-commands::")
