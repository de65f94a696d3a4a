"""Changing the rubric once the check is required (docs/action.md: "Changing the rubric ...").

With `applies_to` selecting agent authors, a human's PR that edits only the
rubric is neutral (on the PR and in the merge queue); without `applies_to` it
fails `gate.rubric-edited`, which a ruleset bypass lands.  Either way the new
rubric then judges the next run.
"""

from __future__ import annotations

from conftest import REPO, Scenario

RUBRIC_PATH = ".github/blast-radius.yml"
AGENT = "copilot-swe-agent[bot]"


def rubric_text(scenario: Scenario) -> str:
    return (scenario.repo.root / RUBRIC_PATH).read_text(encoding="utf-8")


def on_main(scenario: Scenario, text: str) -> None:
    scenario.repo.git("checkout", "-q", "main")
    scenario.repo.write(RUBRIC_PATH, text)
    scenario.base = scenario.repo.commit("rubric on main")
    scenario.repo.git("checkout", "-q", "-B", "feature", scenario.base)


def merge_into_main(scenario: Scenario) -> None:
    """The PR lands: main fast-forwards to its head, and the next PR branches from there."""
    scenario.repo.git("checkout", "-q", "main")
    scenario.repo.git("merge", "-q", "--ff-only", scenario.head)
    scenario.base = scenario.repo.head()
    scenario.repo.git("checkout", "-q", "-B", "feature", scenario.base)
    scenario.number += 1
    scenario.event_name = "pull_request"


def test_human_rubric_pr_under_applies_to_is_neutral_then_judges(scenario: Scenario) -> None:
    on_main(scenario, f"applies_to:\n  authors: ['{AGENT}']\n" + rubric_text(scenario))
    tightened = rubric_text(scenario).replace("limit: 3", "limit: 1")
    scenario.push({RUBRIC_PATH: tightened}, user="maintainer", head_ref="tighten-rubric")
    out = scenario.run()
    assert out.code == 0
    run = scenario.github.check_runs[-1]
    assert run["conclusion"] == "neutral" and "applies_to" in run["output"]["title"]
    assert out.report()["skipped"] is True
    # The queue entry that adds only this PR is neutral too.
    scenario.enqueue()
    assert scenario.run().code == 0
    assert scenario.github.check_runs[-1]["conclusion"] == "neutral"
    # Merged: the next agent PR is judged by the tightened rubric.
    merge_into_main(scenario)
    scenario.push({"app.py": "def main():\n    return 2\n", "lib/util.py": "X = 2\n"}, user=AGENT)
    out = scenario.run()
    assert out.code == 1
    assert out.report()["failed"] == ["F1"]
    assert scenario.github.comments_on(REPO, scenario.number)


def test_agent_rubric_pr_under_applies_to_still_fails(scenario: Scenario) -> None:
    on_main(scenario, f"applies_to:\n  authors: ['{AGENT}']\n" + rubric_text(scenario))
    scenario.push({RUBRIC_PATH: rubric_text(scenario).replace("limit: 3", "limit: 99")}, user=AGENT)
    out = scenario.run()
    assert out.code == 1
    assert out.report()["failed"] == ["gate.rubric-edited"]


def test_rubric_pr_without_applies_to_fails_rubric_edited(scenario: Scenario) -> None:
    """What the docs' ruleset bypass is for: no PR approves its own judge."""
    tightened = rubric_text(scenario).replace("limit: 3", "limit: 1")
    scenario.push({RUBRIC_PATH: tightened}, user="maintainer", head_ref="tighten-rubric")
    out = scenario.run()
    assert out.code == 1
    report = out.report()
    assert report["failed"] == ["gate.rubric-edited"]
    edited = next(r for r in report["results"] if r["id"] == "gate.rubric-edited")
    assert "judged by the base version" in edited["message"]
    assert scenario.github.check_runs[-1]["output"]["title"] == "1 rule failed: gate.rubric-edited"
    # In the queue it fails the same way (a bypass actor merges it directly).
    scenario.enqueue()
    assert scenario.run().code == 1
