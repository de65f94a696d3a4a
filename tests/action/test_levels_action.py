"""Rule levels and `mode: report-only` in the Action, end to end: the runner's
environment, a real git workspace, and the GitHub API double (which checks
every request against GitHub's OpenAPI description).

A failed `level: warn` rule is reported in the check run (title and
warning-level annotations), the sticky comment, the job summary, the outputs
and the JSON report, and fails nothing.  `mode: report-only` concludes every
judged run `neutral` and exits 0 while saying what would fail; a run that
cannot judge still fails closed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import conftest
import pytest
from conftest import REPO, Scenario

from gate.action.publish import marker

WARN_RUBRIC = """\
rules:
  - {id: FILES, kind: max_files, limit: 3, level: warn, description: one focused change}
  - {id: SECRETS, kind: forbidden_paths, paths: ["secrets/"]}
  - {id: DOCS, kind: forbidden_paths, paths: ["docs/"], level: warn}
"""

SPRAWL = {f"lib/mod{i}.py": f"V = {i}\n" for i in range(5)}
SMALL = {"app.py": "def main():\n    return 2\n"}


@pytest.fixture
def levels(
    github: Any, tmp_path: Path, make_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> Scenario:
    monkeypatch.setitem(conftest.BASE_FILES, ".github/blast-radius.yml", WARN_RUBRIC)
    return Scenario(github=github, tmp=tmp_path, make_repo=make_repo)


def only_run(github: Any) -> dict[str, Any]:
    assert len(github.check_runs) == 1
    run: dict[str, Any] = github.check_runs[0]
    return run


def levels_of(run: dict[str, Any]) -> dict[str, str]:
    """Each annotated path -> its annotation level."""
    return {a["path"]: a["annotation_level"] for a in run["output"]["annotations"]}


def comments(scenario: Scenario) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = scenario.github.comments_on(REPO, scenario.number)
    return found


# --- level: warn under mode: enforce -----------------------------------------------


def test_warn_only_concludes_success_and_every_output_names_the_warning(
    levels: Scenario,
) -> None:
    head = levels.push(SPRAWL)
    out = levels.run()
    assert out.code == 0, out.log
    run = only_run(levels.github)
    assert run["head_sha"] == head
    assert run["conclusion"] == "success"
    assert run["output"]["title"] == "passed with warnings: FILES"
    assert levels_of(run) == {p: "warning" for p in SPRAWL}
    assert "| `FILES` | max\\_files | ⚠️ warn |" in run["output"]["summary"]
    # the comment is written for a warning, as for a failure (comment: on-failure)
    (comment,) = comments(levels)
    assert comment["body"].startswith(marker("blast-radius"))
    assert "pass with warnings" in comment["body"] and "⚠️ warn" in comment["body"]
    assert "pass with warnings" in out.summary and "`FILES`" in out.summary
    assert out.outputs == {
        "passed": "true",
        "failed-rules": "",
        "waived-rules": "",
        "warned-rules": "FILES",
        "report": "blast-radius-report.json",
    }
    report = out.report()
    assert report["pass"] is True and report["failed"] == [] and report["warned"] == ["FILES"]
    files = next(r for r in report["results"] if r["id"] == "FILES")
    assert files["pass"] is False and files["level"] == "warn"
    assert "::warning title=blast-radius::passed with warnings: FILES" in out.log
    assert "::error" not in out.log


def test_a_failure_beside_a_warning_fails_and_the_title_names_both(levels: Scenario) -> None:
    levels.push({**SPRAWL, "secrets/key": "k\n", "docs/x.md": "x\n"})
    out = levels.run()
    assert out.code == 1
    run = only_run(levels.github)
    assert run["conclusion"] == "failure"
    assert run["output"]["title"] == "1 rule failed: SECRETS; warned: FILES, DOCS"
    annotated = levels_of(run)
    assert annotated["secrets/key"] == "failure"
    assert annotated["docs/x.md"] == "warning"
    assert {annotated[p] for p in SPRAWL} == {"warning"}
    assert out.outputs["failed-rules"] == "SECRETS"
    assert out.outputs["warned-rules"] == "FILES,DOCS"
    assert out.outputs["passed"] == "false"
    report = out.report()
    assert report["failed"] == ["SECRETS"] and report["warned"] == ["FILES", "DOCS"]
    (comment,) = comments(levels)
    assert "Warned: " in comment["body"] and "❌ **fail**" in comment["body"]
    assert "::error title=blast-radius::1 rule failed: SECRETS; warned: FILES, DOCS" in out.log


def test_a_clean_push_after_a_warning_edits_the_one_comment(levels: Scenario) -> None:
    levels.push(SPRAWL)
    assert levels.run().code == 0
    (first,) = comments(levels)
    levels.repo.git("reset", "-q", "--hard", levels.base)
    levels.push(SMALL)
    out = levels.run()
    assert out.code == 0
    (after,) = comments(levels)
    assert after["id"] == first["id"]
    assert "All 7 rules passed." in after["body"] and "warn" not in after["body"].split("|")[0]
    assert out.outputs["warned-rules"] == ""
    assert levels.github.check_runs[-1]["output"]["title"] == "all 7 rules passed"


def test_comment_never_still_reports_the_warning_in_the_check_run(levels: Scenario) -> None:
    levels.push(SPRAWL)
    levels.inputs["comment"] = "never"
    out = levels.run()
    assert out.code == 0
    assert comments(levels) == []
    assert only_run(levels.github)["output"]["title"] == "passed with warnings: FILES"


# --- mode: report-only ------------------------------------------------------------


def test_report_only_concludes_neutral_and_says_what_would_fail(levels: Scenario) -> None:
    levels.push({**SPRAWL, "secrets/key": "k\n"})
    levels.inputs["mode"] = "report-only"
    out = levels.run()
    assert out.code == 0, out.log
    run = only_run(levels.github)
    assert run["conclusion"] == "neutral"
    assert run["output"]["title"] == "report-only trial: 1 rule failed: SECRETS; warned: FILES"
    assert levels_of(run)["secrets/key"] == "failure"  # what enforcing would flag
    summary = run["output"]["summary"]
    assert summary.startswith("> **Report-only trial** (`mode: report-only`)")
    assert "would **fail**" in summary and "| `SECRETS` |" in summary
    (comment,) = comments(levels)  # on-failure: a rule would fail
    assert "Report-only trial" in comment["body"] and "`SECRETS`" in comment["body"]
    assert "Report-only trial" in out.summary and "would **fail**" in out.summary
    assert out.outputs["passed"] == "false"
    assert out.outputs["failed-rules"] == "SECRETS"
    assert out.outputs["warned-rules"] == "FILES"
    assert out.report()["failed"] == ["SECRETS"]
    assert "::warning title=blast-radius::report-only trial: 1 rule failed" in out.log
    assert "::error" not in out.log


def test_report_only_on_a_pass_is_neutral_and_comments_nothing(levels: Scenario) -> None:
    levels.push(SMALL)
    levels.inputs["mode"] = "report-only"
    out = levels.run()
    assert out.code == 0
    run = only_run(levels.github)
    assert run["conclusion"] == "neutral"
    assert run["output"]["title"] == "report-only trial: all 7 rules passed"
    assert comments(levels) == []
    assert "would **pass**" in out.summary
    assert out.outputs["passed"] == "true"


def test_report_only_then_enforce_same_change(levels: Scenario) -> None:
    """The twin: only the mode differs, and so do the conclusion and the exit."""
    levels.push({"secrets/key": "k\n"})
    levels.inputs["mode"] = "report-only"
    assert levels.run().code == 0
    levels.inputs["mode"] = "enforce"
    out = levels.run()
    assert out.code == 1
    assert [r["conclusion"] for r in levels.github.check_runs] == ["neutral", "failure"]
    (comment,) = comments(levels)
    assert "Report-only trial" not in comment["body"]
    assert "### ❌ blast-radius: fail" in comment["body"]


def test_report_only_that_cannot_judge_still_fails_closed(levels: Scenario) -> None:
    levels.push(SMALL)
    levels.inputs["mode"] = "report-only"
    levels.inputs["rubric-sha256"] = "0" * 64
    out = levels.run()
    assert out.code == 2
    run = only_run(levels.github)
    assert run["conclusion"] == "failure"
    assert run["output"]["title"].startswith("could not judge: ")
    assert "This is a report-only trial, and still a failing check" in out.summary
    assert "This is a report-only trial, and still a failing check" in run["output"]["summary"]
    assert out.outputs["passed"] == "false"


@pytest.mark.parametrize(
    "given", ["Report-Only", "REPORT-ONLY", "report_only", "reportonly", "report-only,", "warn"]
)
def test_a_mode_that_is_not_exactly_enforce_or_report_only_exits_2(
    levels: Scenario, given: str
) -> None:
    levels.push({"secrets/key": "k\n"})
    levels.inputs["mode"] = given
    out = levels.run()
    assert out.code == 2
    assert "input mode is" in out.log and "report-only" in out.log
    assert out.outputs["passed"] == "false"
    assert levels.github.check_runs == []  # nothing was judged, nothing passes
