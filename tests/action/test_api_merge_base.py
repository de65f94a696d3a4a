"""API mode reads base-side texts at the merge base, as git mode does.

GitHub's PR files listing is the three-dot diff `base...head`.  When the base
branch moved on after the fork, content rules must compare the head with the
fork point, not with the base branch tip: otherwise whatever main added after
the fork looks removed by the PR.  Each scenario is judged twice, from a real
git workspace and from the API double alone, and must get the same verdict.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, Scenario

from gate.changes.api import changes_from_api, listing
from gate.github.client_types import PullFile

CONTENT_RUBRIC = """\
rules:
  - id: KEEP_SYMBOLS
    kind: keep_symbols
    file: app.py
    symbols: [main, helper, late]
  - id: CONFINED
    kind: confine_to_symbols
    file: app.py
    symbols: [main, helper]
  - id: KEEP_LINES
    kind: keep_lines
    file: app.py
    lines: ["def late():", "def helper():"]
"""

PATHS_RUBRIC = """\
rules:
  - id: F1
    kind: max_files
    limit: 3
  - id: SECRETS
    kind: forbidden_paths
    paths: ["secrets/"]
"""

FORK_APP = "def main():\n    return 1\n\n\ndef helper():\n    return 0\n"
LATE_APP = FORK_APP + "\n\ndef late():\n    return 2\n"  # main, after the fork


def fork_then_main_moves(scenario: Scenario, rubric: str) -> str:
    """Fork the PR branch at a commit with FORK_APP; then main adds `late()` and the
    rubric (so the rubric at the base tip names a symbol the fork never had).
    Returns the fork sha; `scenario.base` becomes main's tip."""
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    repo.write("app.py", FORK_APP)
    fork = repo.commit("fork point")
    repo.git("branch", "-q", "-f", "feature", fork)
    repo.write("app.py", LATE_APP)
    repo.write(".github/content.yml", rubric)
    scenario.base = repo.commit("main moves on")
    repo.git("checkout", "-q", "feature")
    scenario.inputs["rubric-path"] = ".github/content.yml"
    return fork


def judge_both_ways(scenario: Scenario, tmp_path: Path) -> tuple[Any, Any, list[Any]]:
    """Run from git, then from the API alone; return both outcomes and the API run's requests."""
    git_out = scenario.run()
    assert "from git" in git_out.log
    empty = tmp_path / "no-checkout"
    empty.mkdir()
    scenario.workspace = empty
    scenario.github.requests.clear()
    api_out = scenario.run()
    assert "from the GitHub API" in api_out.log
    return git_out, api_out, list(scenario.github.requests)


def same_results(git_report: dict[str, Any], api_report: dict[str, Any]) -> None:
    """Every result equal, except the message saying where the change set came from."""

    def comparable(report: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {**r, "message": ""} if r["id"] == "gate.diff-incomplete" else r
            for r in report["results"]
        ]

    assert comparable(api_report) == comparable(git_report)


def compares(requests: list[Any]) -> list[Any]:
    return [r for r in requests if "/compare/" in r.path]


@pytest.mark.parametrize(
    ("change", "failed"),
    [
        # Inside main only: nothing the rules keep is touched.
        ({"app.py": FORK_APP.replace("return 1", "return 10")}, []),
        # helper() and the blank lines before it removed: every rule fails, on the fork's
        # text (`late` is "not defined at base" and ignored, in both modes).
        ({"app.py": "def main():\n    return 1\n"}, ["KEEP_SYMBOLS", "CONFINED", "KEEP_LINES"]),
    ],
    ids=["untouched-symbols-pass", "removed-symbol-fails"],
)
def test_api_mode_reads_base_texts_at_the_merge_base(
    scenario: Scenario, tmp_path: Path, change: dict[str, str], failed: list[str]
) -> None:
    fork = fork_then_main_moves(scenario, CONTENT_RUBRIC)
    head = scenario.push(change)
    assert fork != scenario.base
    git_out, api_out, requests = judge_both_ways(scenario, tmp_path)

    git_report, api_report = git_out.report(), api_out.report()
    assert git_report["failed"] == failed, git_out.log
    assert api_out.code == git_out.code == (1 if failed else 0)
    for key in ("failed", "stats", "base", "head", "rubric_sha256"):
        assert api_report[key] == git_report[key], key
    same_results(git_report, api_report)
    # The report names the PR's base sha (main's tip), not the fork point.
    assert api_report["base"] == scenario.base and api_report["head"] == head

    # One compare request found the fork; app.py was read there, never at main's tip.
    assert [r.path for r in compares(requests)] == [
        f"/repos/{REPO}/compare/{scenario.base}...{head}"
    ]
    reads = {r.query.get("ref") for r in requests if r.path.endswith("/contents/app.py")}
    assert reads == {fork, head}


def test_base_tip_texts_would_judge_main_s_own_change(scenario: Scenario) -> None:
    """The false failure the merge base avoids, shown on the same listing."""
    fork = fork_then_main_moves(scenario, CONTENT_RUBRIC)
    head = scenario.push({"app.py": FORK_APP.replace("return 1", "return 10")})
    pull = scenario.github.pulls[(REPO, scenario.number)]
    found = listing(
        [
            PullFile(
                filename=f["filename"],
                status=f["status"],
                additions=f["additions"],
                deletions=f["deletions"],
                changes=f["changes"],
                previous_filename=f.get("previous_filename"),
                has_patch="patch" in f,
            )
            for f in pull.files
        ],
        len(pull.files),
    )

    def read(ref: str, path: str) -> bytes | None:
        data: bytes | None = scenario.github.contents.get((REPO, ref, path))
        return data

    at_fork = changes_from_api(
        found,
        base=scenario.base,
        head=head,
        content_files=["app.py"],
        read_file=read,
        merge_base=fork,
    )
    at_tip = changes_from_api(
        found, base=scenario.base, head=head, content_files=["app.py"], read_file=read
    )
    assert at_fork.base == at_tip.base == scenario.base
    assert at_fork.texts["app.py"].base == FORK_APP
    assert at_tip.texts["app.py"].base == LATE_APP  # what the bug compared with


def test_one_compare_request_lists_the_change(scenario: Scenario, tmp_path: Path) -> None:
    """The compare API lists the event's base...head: it replaces the PR files
    listing, so a change costs one compare whether or not content rules read."""
    fork_then_main_moves(scenario, PATHS_RUBRIC)
    scenario.push({"app.py": FORK_APP.replace("return 1", "return 10")})
    git_out, api_out, requests = judge_both_ways(scenario, tmp_path)
    assert git_out.code == api_out.code == 0
    same_results(git_out.report(), api_out.report())
    assert len(compares(requests)) == 1
    calls = [(r.method, re.sub(r"[0-9a-f]{40}|\d+", "N", r.path)) for r in requests]
    # Rubric, compare, re-read the PR, check run, comment lookup.
    assert len(calls) == 5, calls
    assert not any(path.endswith("/files") for _, path in calls)


def test_untouched_content_files_read_once(scenario: Scenario, tmp_path: Path) -> None:
    fork_then_main_moves(scenario, CONTENT_RUBRIC)
    scenario.push({"lib/util.py": "X = 2\n"})
    git_out, api_out, requests = judge_both_ways(scenario, tmp_path)
    assert git_out.code == api_out.code == 0
    same_results(git_out.report(), api_out.report())
    assert len(compares(requests)) == 1


def test_content_rules_cost_one_compare_request(scenario: Scenario, tmp_path: Path) -> None:
    fork_then_main_moves(scenario, CONTENT_RUBRIC)
    scenario.push({"app.py": FORK_APP.replace("return 1", "return 10")})
    _, api_out, requests = judge_both_ways(scenario, tmp_path)
    assert api_out.code == 0
    calls = [(r.method, re.sub(r"[0-9a-f]{40}|\d+", "N", r.path)) for r in requests]
    # As without content rules, plus two reads of app.py.
    assert len(calls) == 7, calls
    assert len(compares(requests)) == 1


def test_compare_refused_fails_closed(scenario: Scenario, tmp_path: Path) -> None:
    fork_then_main_moves(scenario, CONTENT_RUBRIC)
    scenario.push({"app.py": FORK_APP.replace("return 1", "return 10")})
    scenario.github.fail_always("GET", r"/compare/", 404)
    empty = tmp_path / "no-checkout"
    empty.mkdir()
    scenario.workspace = empty
    out = scenario.run()
    assert out.code == 2
    assert "GET compare" in out.log and "HTTP 404" in out.log
    assert scenario.github.check_runs[-1]["conclusion"] == "failure"
