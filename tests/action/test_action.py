"""`gate action` end to end: the runner's environment, a real git workspace,
and the GitHub API double over real HTTP."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, WORKFLOW, Scenario

from gate.action import action
from gate.action.publish import marker
from gate.commands.cli import main

SPRAWL = {f"lib/mod{i}.py": f"V = {i}\n" for i in range(5)}


def only_run(github: Any) -> dict[str, Any]:
    assert len(github.check_runs) == 1
    run: dict[str, Any] = github.check_runs[0]
    return run


def test_failing_pr(scenario: Scenario) -> None:
    head = scenario.push({**SPRAWL, "secrets/key": "k\n"})
    out = scenario.run()
    assert out.code == 1
    run = only_run(scenario.github)
    assert run["head_sha"] == head
    assert run["name"] == "blast-radius"
    assert run["status"] == "completed" and run["conclusion"] == "failure"
    assert run["output"]["title"] == "2 rules failed: F1, SECRETS"
    assert "| `F1` |" in run["output"]["summary"]
    assert out.outputs["passed"] == "false"
    assert out.outputs["failed-rules"] == "F1,SECRETS"
    assert out.outputs["report"] == "blast-radius-report.json"
    report = out.report()
    assert report["failed"] == ["F1", "SECRETS"]
    assert report["head"] == head and report["base"] == scenario.base
    comments = scenario.github.comments_on(REPO, scenario.number)
    assert len(comments) == 1
    assert comments[0]["body"].startswith(marker("blast-radius"))
    assert "`SECRETS`" in comments[0]["body"]
    assert "`SECRETS`" in out.summary
    assert "::error title=blast-radius::2 rules failed: F1, SECRETS" in out.log


def test_passing_pr_makes_no_comment(scenario: Scenario) -> None:
    scenario.push({"app.py": "def main():\n    return 2\n"})
    out = scenario.run()
    assert out.code == 0, out.log
    run = only_run(scenario.github)
    assert run["conclusion"] == "success"
    assert run["output"]["title"] == "all 7 rules passed"
    assert out.outputs == {
        "passed": "true",
        "failed-rules": "",
        "waived-rules": "",
        "warned-rules": "",
        "report": "blast-radius-report.json",
    }
    assert scenario.github.comments_on(REPO, scenario.number) == []
    assert "✅" in out.summary


def test_rerun_three_times_keeps_one_comment(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    for _ in range(3):
        assert scenario.run().code == 1
    assert len(scenario.github.comments_on(REPO, scenario.number)) == 1
    assert len(scenario.github.check_runs) == 3


def test_fix_after_failure_edits_the_comment(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    assert scenario.run().code == 1
    first = scenario.github.comments_on(REPO, scenario.number)
    assert len(first) == 1 and "fail" in first[0]["body"]
    scenario.repo.git("reset", "-q", "--hard", scenario.base)
    scenario.push({"app.py": "def main():\n    return 2\n"})
    assert scenario.run().code == 0
    after = scenario.github.comments_on(REPO, scenario.number)
    assert len(after) == 1 and after[0]["id"] == first[0]["id"]
    assert "now passes" in after[0]["body"]
    assert "All 7 rules passed" in after[0]["body"]


def test_comment_always_and_never(scenario: Scenario) -> None:
    scenario.push({"app.py": "def main():\n    return 2\n"})
    scenario.inputs["comment"] = "never"
    assert scenario.run().code == 0
    assert scenario.github.comments_on(REPO, scenario.number) == []
    scenario.inputs["comment"] = "always"
    assert scenario.run().code == 0
    assert len(scenario.github.comments_on(REPO, scenario.number)) == 1


def test_refusals_are_logged_whatever_the_comment_policy(scenario: Scenario) -> None:
    scenario.push({**SPRAWL, "secrets/key": "k\n"})
    scenario.github.fail_always("POST", r"/check-runs$", 403)
    scenario.inputs["comment"] = "never"
    out = scenario.run()
    assert out.code == 1
    assert "::warning title=blast-radius%3A not published::could not post the check run" in out.log
    assert "Not published" in out.summary


def test_bad_comment_input_exits_2(scenario: Scenario) -> None:
    scenario.push({"app.py": "def main():\n    return 2\n"})
    scenario.inputs["comment"] = "sometimes"
    out = scenario.run()
    assert out.code == 2
    assert "input comment is" in out.log
    assert out.outputs["passed"] == "false"


def test_workflow_dispatch_by_number(scenario: Scenario) -> None:
    head = scenario.push(SPRAWL)
    scenario.event_name = "workflow_dispatch"
    scenario.inputs["pr-number"] = str(scenario.number)
    out = scenario.run()
    assert out.code == 1
    assert only_run(scenario.github)["head_sha"] == head
    assert out.report()["head"] == head


def test_workflow_dispatch_without_number_exits_2(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    scenario.event_name = "workflow_dispatch"
    out = scenario.run()
    assert out.code == 2
    assert "pr-number" in out.log


def test_applies_to_not_matching_is_neutral(scenario: Scenario) -> None:
    rubric = (
        "applies_to:\n  labels: [agent]\n  head_branches: ['codex/**']\n"
        + (scenario.repo.root / ".github/blast-radius.yml").read_text()
    )
    scenario.repo.git("checkout", "-q", "main")
    scenario.repo.write(".github/blast-radius.yml", rubric)
    scenario.base = scenario.repo.commit("rubric with applies_to")
    scenario.repo.git("checkout", "-q", "-B", "feature")
    scenario.push(SPRAWL, user="human", labels=("bug",), head_ref="fix/thing")
    out = scenario.run()
    assert out.code == 0
    run = only_run(scenario.github)
    assert run["conclusion"] == "neutral"
    assert "skipped" in run["output"]["title"]
    assert out.report()["skipped"] is True
    assert "skipped" in out.summary
    assert scenario.github.comments_on(REPO, scenario.number) == []
    # The same rubric judges a PR on a matching branch.
    scenario.push(SPRAWL, user="human", labels=("bug",), head_ref="codex/thing")
    assert scenario.run().code == 1


def test_read_only_token_keeps_the_verdict(scenario: Scenario) -> None:
    scenario.push({**SPRAWL, "secrets/key": "k\n"})
    scenario.github.fail_always("POST", r"/check-runs$", 403)
    scenario.github.fail_always("POST", r"/comments$", 403)
    out = scenario.run()
    assert out.code == 1
    assert scenario.github.check_runs == []
    assert "::warning" in out.log and "HTTP 403" in out.log
    assert "2 rules failed: F1, SECRETS" in out.log
    assert "`SECRETS`" in out.summary and "Not published" in out.summary
    assert out.outputs["failed-rules"] == "F1,SECRETS"


def test_transient_5xx_is_retried(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    scenario.github.fail_next("POST", r"/check-runs$", 502, times=2)
    scenario.github.fail_next("GET", r"/pulls/7$", 503)
    scenario.github.fail_next(
        "POST", r"/comments$", 403, body={"message": "You have exceeded a secondary rate limit."}
    )
    out = scenario.run()
    assert out.code == 1
    assert len(scenario.github.check_runs) == 1
    assert len(scenario.github.comments_on(REPO, scenario.number)) == 1
    statuses = [r.status for r in scenario.github.requests if r.method == "POST"]
    assert statuses.count(502) == 2 and statuses.count(403) == 1


def test_api_mode_matches_git_mode(scenario: Scenario, tmp_path: Path) -> None:
    scenario.push(
        {**SPRAWL, "app.py": "def run():\n    return 1\n", "img.bin": b"\0\1\2"},
        remove=("tests/test_app.py",),
        renames={"lib/util.py": "lib/helpers.py"},
    )
    git_out = scenario.run()
    empty = tmp_path / "empty-workspace"
    empty.mkdir()
    scenario.workspace = empty
    api_out = scenario.run()
    assert git_out.code == api_out.code == 1
    git_report, api_report = git_out.report(), api_out.report()
    assert "KEEP" in git_report["failed"]
    # img.bin is binary: API mode reads its blob to count it, as git mode does
    for key in ("failed", "stats", "base", "head", "rubric_sha256"):
        assert git_report[key] == api_report[key], key
    assert [r["pass"] for r in git_report["results"]] == [r["pass"] for r in api_report["results"]]
    assert "from the GitHub API" in api_out.log


def test_depth_one_checkout_fetches_from_origin(scenario: Scenario, make_repo: Any) -> None:
    head = scenario.push(SPRAWL)
    origin = scenario.repo.root
    clone = scenario.tmp / "shallow"
    scenario.repo.git(
        "clone", "-q", "--depth=1", "--branch", "feature", f"file://{origin}", str(clone)
    )
    scenario.repo.git("-C", str(clone), "rev-parse", "--is-shallow-repository")
    scenario.workspace = clone
    out = scenario.run()
    assert out.code == 1, out.log
    assert "fetched the base and head commits from origin" in out.log
    assert out.report()["head"] == head
    assert "from the GitHub API" not in out.log


def test_depth_one_checkout_without_remote_uses_the_api(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    clone = scenario.tmp / "shallow"
    scenario.repo.git("clone", "-q", "--depth=1", f"file://{scenario.repo.root}", str(clone))
    scenario.repo.git("-C", str(clone), "remote", "remove", "origin")
    scenario.workspace = clone
    out = scenario.run()
    assert out.code == 1
    assert "from the GitHub API" in out.log
    assert out.report()["failed"] == ["F1"]


def test_huge_pr_in_api_mode_fails_closed(scenario: Scenario, tmp_path: Path) -> None:
    scenario.push({"app.py": "def main():\n    return 2\n"})
    files = [
        {
            "filename": f"gen/f{i:04}.txt",
            "status": "added",
            "additions": 1,
            "deletions": 0,
            "changes": 1,
            "patch": "@@ -0,0 +1 @@\n+x",
        }
        for i in range(3100)
    ]
    scenario.github.add_pull(
        REPO, scenario.number, base_sha=scenario.base, head_sha=scenario.head, files=files
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    scenario.workspace = empty
    out = scenario.run()
    assert out.code == 1
    report = out.report()
    assert report["failed"][0] == "gate.diff-incomplete"
    result = next(r for r in report["results"] if r["id"] == "gate.diff-incomplete")
    assert "300 of 3100" in result["message"] and "at most 300 files" in result["message"]


def test_annotations_are_batched(scenario: Scenario) -> None:
    scenario.push({f"secrets/k{i:03}": "k\n" for i in range(120)})
    assert scenario.run().code == 1
    run = only_run(scenario.github)
    secrets = [a for a in run["output"]["annotations"] if a["title"].startswith("SECRETS")]
    assert len(secrets) == 120
    assert all(a["annotation_level"] == "failure" and a["start_line"] == 1 for a in secrets)
    # F1 adds one annotation per touched path too: 240 in all, 50 per request.
    assert run["annotation_batches"] == [50, 50, 50, 50, 40]


def test_annotations_batched_50_50_20(scenario: Scenario) -> None:
    use_rubric(
        scenario,
        ".github/only-secrets.yml",
        "rules:\n  - id: SECRETS\n    kind: forbidden_paths\n    paths: ['secrets/']\n",
    )
    scenario.push({f"secrets/k{i:03}": "k\n" for i in range(120)})
    assert scenario.run().code == 1
    run = only_run(scenario.github)
    assert run["annotation_batches"] == [50, 50, 20]
    # Created with the first 50, then two updates; every post keeps title and summary.
    assert [len(p["output"].get("annotations", [])) for p in run["posted"]] == [50, 50, 20]
    assert all(p["output"]["title"] == "1 rule failed: SECRETS" for p in run["posted"])


def test_pr_editing_the_gate_workflow_fails(scenario: Scenario) -> None:
    scenario.push({WORKFLOW: "on: pull_request\njobs: {hacked: {}}\n"})
    out = scenario.run()
    assert out.code == 1
    report = out.report()
    assert report["failed"] == ["gate.workflow-edited"]


def test_pr_editing_the_rubric_fails_and_is_judged_by_base(scenario: Scenario) -> None:
    scenario.push({".github/blast-radius.yml": "rules:\n  - {id: X, kind: max_files, limit: 99}\n"})
    out = scenario.run()
    assert out.code == 1
    assert out.report()["failed"] == ["gate.rubric-edited"]
    assert out.report()["rule_count"] == 3


def test_rubric_pin(scenario: Scenario) -> None:
    import hashlib

    scenario.push({"app.py": "def main():\n    return 2\n"})
    good = hashlib.sha256((scenario.repo.root / ".github/blast-radius.yml").read_bytes())
    scenario.inputs["rubric-sha256"] = "0" * 64
    out = scenario.run()
    assert out.code == 2
    run = scenario.github.check_runs[-1]
    assert run["conclusion"] == "failure"
    assert run["output"]["title"].startswith("could not judge: rubric")
    assert "pins" in out.summary and out.outputs["passed"] == "false"
    scenario.inputs["rubric-sha256"] = good.hexdigest()
    assert scenario.run().code == 0
    assert scenario.github.check_runs[-1]["conclusion"] == "success"


def test_head_moved_while_judging_is_reported(scenario: Scenario) -> None:
    head = scenario.push({"app.py": "def main():\n    return 2\n"})
    env_event = scenario.env()  # the event names `head`
    scenario.github.set_pull_head(REPO, scenario.number, "e" * 40)
    buf = io.StringIO()
    code = action.run(env_event, out=buf)
    assert code == 0
    run = only_run(scenario.github)
    assert run["head_sha"] == head
    assert "head moved" in run["output"]["summary"]
    report = json.loads((scenario.repo.root / "blast-radius-report.json").read_text())
    assert any("head moved" in n for n in report["notes"])


def test_selftest_disagreement_fails(scenario: Scenario) -> None:
    rubric = (scenario.repo.root / ".github/blast-radius.yml").read_text()
    rubric = rubric.replace("expect: [SECRETS]", "expect: [F1]")
    scenario.repo.git("checkout", "-q", "main")
    scenario.repo.write(".github/blast-radius.yml", rubric)
    scenario.base = scenario.repo.commit("wrong example")
    scenario.repo.git("checkout", "-q", "-B", "feature")
    scenario.push({"app.py": "def main():\n    return 2\n"})
    out = scenario.run()
    assert out.code == 1
    assert out.report()["failed"] == ["gate.rubric-selftest"]


CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
HOSTILE = [
    "::error::x",
    "##[error]x",
    "<img src=x onerror=alert(1)>.py",
    "back`tick``s.py",
    "@everyone.py",
    "new\nline::warning::y.py",
]


def test_hostile_file_names_are_fenced_and_escaped(scenario: Scenario) -> None:
    scenario.push({f"secrets/{name}": "k\n" for name in HOSTILE}, title="::error::title")
    out = scenario.run()
    assert out.code == 1
    # Outside stop-commands, no line carries PR text.
    outside = []
    fenced = False
    token = None
    for line in out.log.split("\n"):
        if not fenced and line.startswith("::stop-commands::"):
            fenced, token = True, line.split("::")[2]
            continue
        if fenced and line == f"::{token}::":
            fenced = False
            continue
        if not fenced:
            outside.append(line)
    assert not fenced
    for line in outside:
        assert "##[" not in line
        assert not line.startswith("::") or re.match(r"::(error|warning|notice) title=", line)
        assert "onerror" not in line and "everyone" not in line
    fenced_text = out.log
    assert "new\\nline::warning::y.py" in fenced_text  # the newline made visible
    comment = scenario.github.comments_on(REPO, scenario.number)[0]["body"]
    for surface in (comment, out.summary, only_run(scenario.github)["output"]["summary"]):
        assert "\nline" not in surface  # a newline in a name never reaches markdown raw
        assert "new\\nline" in surface
        # Hostile names sit inside code spans (inert); nothing outside them is.
        prose = CODE_SPAN.sub("", surface)
        assert "<img" not in prose and "onerror" not in prose
        assert "@everyone" not in prose and "everyone" not in prose
        assert "back" not in prose
    assert "```secrets/back`tick``s.py```" in comment


def test_cli_entry_point(scenario: Scenario, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario.push({"app.py": "def main():\n    return 2\n"})
    for key, value in scenario.env().items():
        monkeypatch.setenv(key, value)
    (scenario.tmp / "runner" / "output").write_text("")
    assert main(["action"]) == 0
    assert only_run(scenario.github)["conclusion"] == "success"


def test_typical_run_request_count(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    scenario.run()
    calls = [(r.method, re.sub(r"\d+", "N", r.path)) for r in scenario.github.requests]
    # Re-read the PR, post the check run, find the comment, write it, and
    # list the comments again (a racing run's second sticky comment goes).
    assert len(calls) == 5, calls


def use_rubric(scenario: Scenario, path: str, text: str) -> None:
    """Commit another rubric on the base branch and point the rubric-path input at it."""
    scenario.repo.git("checkout", "-q", "main")
    scenario.repo.write(path, text)
    scenario.base = scenario.repo.commit("another rubric")
    scenario.repo.git("checkout", "-q", "-B", "feature")
    scenario.inputs["rubric-path"] = path


def test_stdout_file_feeds_must_include(scenario: Scenario) -> None:
    use_rubric(
        scenario,
        ".github/green.yml",
        "rules:\n  - id: GREEN\n    kind: must_include\n    token: '5 passed'\n",
    )
    scenario.push({"app.py": "def main():\n    return 2\n"})
    scenario.inputs["stdout-file"] = "pytest-out.txt"
    out = scenario.run()
    assert out.code == 2 and "stdout-file pytest-out.txt does not exist" in out.log
    (scenario.repo.root / "pytest-out.txt").write_text("===== 5 passed in 0.1s =====\n")
    assert scenario.run().code == 0
    (scenario.repo.root / "pytest-out.txt").write_text("1 failed, 4 passed\n")
    out = scenario.run()
    assert out.code == 1 and out.outputs["failed-rules"] == "GREEN"


def test_missing_rubric_fails_closed(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    scenario.inputs["rubric-path"] = ".github/nope.yml"
    out = scenario.run()
    assert out.code == 2
    run = only_run(scenario.github)
    assert run["conclusion"] == "failure"
    assert run["output"]["title"].startswith("could not judge: no rubric at .github/nope.yml")
    assert "could not judge" in scenario.github.comments_on(REPO, scenario.number)[0]["body"]


def test_long_summaries_are_cut_with_a_note() -> None:
    from gate.action.publish import fit

    text = fit("| row |\n" * 20000)
    assert len(text) <= 65535 and "truncated" in text


def test_retries_are_bounded_and_do_not_change_the_verdict(scenario: Scenario) -> None:
    scenario.push(SPRAWL)
    scenario.github.fail_always("POST", r"/check-runs$", 502)
    scenario.github.fail_next("GET", r"/comments$", 429, headers={"Retry-After": "1"})
    out = scenario.run()
    assert out.code == 1
    runs = [r for r in scenario.github.requests if r.path.endswith("/check-runs")]
    posts = [r for r in runs if r.method == "POST"]
    assert len(posts) == 5  # the first try and 4 retries (GATE_RETRY_ATTEMPTS default)
    # each retry only after looking for what the failed create may have made
    assert [r.method for r in runs] == ["POST", "GET"] * 4 + ["POST"]
    assert "could not post the check run" in out.log
    # No check run names the token's app: the comment it creates names it.
    (comment,) = scenario.github.comments_on(REPO, scenario.number)
    assert comment["user"] == "github-actions[bot]"
