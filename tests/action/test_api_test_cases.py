"""The Action judges modified test files case by case from the API too.

The contents API gives both sides of each modified test file (up to
`gate.changes.api.GLOB_READS`), so a PR that appends a test passes and one
that edits an existing test fails, from git and from the API double alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Scenario
from test_api_merge_base import judge_both_ways, same_results

RUBRIC = "rules:\n  - {id: TESTS, kind: test_drift}\n"
TEST_APP = "def test_main():\n    assert True\n"


def with_test_drift(scenario: Scenario) -> None:
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    repo.write(".github/cases.yml", RUBRIC)
    scenario.base = repo.commit("a test_drift rubric")
    repo.git("checkout", "-q", "-B", "feature")
    scenario.inputs["rubric-path"] = ".github/cases.yml"


@pytest.mark.parametrize(
    ("test_app", "code", "message"),
    [
        (TEST_APP + "\n\ndef test_more():\n    assert 1\n", 0, "1 new test added"),
        (TEST_APP.replace("True", "False"), 1, "tests/test_app.py: test_main changed"),
        (TEST_APP + "\nimport app\napp.main = print\n", 1, "runs at collection"),
    ],
)
def test_api_mode_judges_test_cases_as_git_mode_does(
    scenario: Scenario, tmp_path: Path, test_app: str, code: int, message: str
) -> None:
    with_test_drift(scenario)
    scenario.push({"tests/test_app.py": test_app})
    git_out, api_out, requests = judge_both_ways(scenario, tmp_path)
    assert git_out.code == api_out.code == code
    same_results(git_out.report(), api_out.report())
    result = next(r for r in api_out.report()["results"] if r["id"] == "TESTS")
    assert message in result["message"]
    read = [r.path for r in requests if "/contents/tests/test_app.py" in r.path]
    assert len(read) == 2  # the merge base's side and the head's
