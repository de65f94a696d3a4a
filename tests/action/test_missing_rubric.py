"""`missing-rubric`: a base without a rubric fails closed by default, or gets a neutral run."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from conftest import REPO, Scenario

RUBRIC_PATH = ".github/blast-radius.yml"


def base_without_rubric(scenario: Scenario) -> None:
    """A release branch cut before the rubric existed: the base has no rubric."""
    scenario.repo.git("checkout", "-q", "main")
    scenario.repo.remove(RUBRIC_PATH)
    scenario.base = scenario.repo.commit("release branch without a rubric")
    scenario.repo.git("checkout", "-q", "-B", "feature")
    scenario.push({f"lib/m{i}.py": "x\n" for i in range(9)})


def test_default_fails_closed_and_names_the_input(scenario: Scenario) -> None:
    base_without_rubric(scenario)
    out = scenario.run()
    assert out.code == 2
    run = scenario.github.check_runs[-1]
    assert run["conclusion"] == "failure"
    assert run["output"]["title"].startswith("could not judge: no rubric at")
    assert "missing-rubric: skip" in out.summary
    assert out.outputs["passed"] == "false"


@pytest.mark.parametrize("workspace", ["git", "api"])
def test_skip_posts_a_neutral_run(scenario: Scenario, tmp_path: Path, workspace: str) -> None:
    base_without_rubric(scenario)
    scenario.inputs["missing-rubric"] = "skip"
    if workspace == "api":
        empty = tmp_path / "empty"
        empty.mkdir()
        scenario.workspace = empty
    out = scenario.run()
    assert out.code == 0, out.log
    run = scenario.github.check_runs[-1]
    assert run["head_sha"] == scenario.head
    assert run["conclusion"] == "neutral"
    assert run["output"]["title"] == f"skipped: no rubric at {RUBRIC_PATH} in the base commit"
    assert "missing-rubric: skip" in run["output"]["summary"]
    assert out.outputs == {
        "passed": "true",
        "failed-rules": "",
        "waived-rules": "",
        "warned-rules": "",
        "report": out.outputs["report"],
    }
    report = out.report()
    assert report["skipped"] is True and report["pass"] is True
    assert report["rubric_sha256"] is None and report["results"] == []
    assert report["base"] == scenario.base
    assert any(scenario.base in n and "no rubric" in n for n in report["notes"])
    assert scenario.github.comments_on(REPO, scenario.number) == []


def test_skip_never_skips_a_pinned_rubric(scenario: Scenario) -> None:
    base_without_rubric(scenario)
    scenario.inputs["missing-rubric"] = "skip"
    scenario.inputs["rubric-sha256"] = hashlib.sha256(b"rules: []\n").hexdigest()
    out = scenario.run()
    assert out.code == 2
    assert "pins one" in out.summary


def test_skip_still_judges_a_base_that_has_a_rubric(scenario: Scenario) -> None:
    scenario.inputs["missing-rubric"] = "skip"
    scenario.push({f"lib/m{i}.py": "x\n" for i in range(9)})
    assert scenario.run().code == 1
    assert scenario.github.check_runs[-1]["conclusion"] == "failure"


def test_skip_in_the_merge_queue(scenario: Scenario) -> None:
    base_without_rubric(scenario)
    scenario.inputs["missing-rubric"] = "skip"
    _base, head = scenario.enqueue()
    out = scenario.run()
    assert out.code == 0
    run = scenario.github.check_runs[-1]
    assert run["head_sha"] == head and run["conclusion"] == "neutral"


def test_unknown_policy_exits_2(scenario: Scenario) -> None:
    scenario.push({"app.py": "def main():\n    return 2\n"})
    scenario.inputs["missing-rubric"] = "ignore"
    out = scenario.run()
    assert out.code == 2
    assert 'input missing-rubric is "ignore"' in out.log
