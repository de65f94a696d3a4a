"""The Action's image, run the way the GitHub runner runs a Docker action.

Skipped unless GATE_CONTAINER_IMAGE names a built image (`bash .ci/run` builds
`blast-radius-gate:ci-<run>` and sets it).  Like the runner, the test mounts a real
git workspace owned by another uid at /github/workspace, the event payload at
/github/workflow/event.json and the file-command files under
/github/file_commands, passes GITHUB_* and INPUT_* (hyphens kept, defaults
from action.yml) and lets the image's ENTRYPOINT run.  The GitHub API is the
local double over real HTTP; `--network host` lets the container reach it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from github_api.double import GitHubDouble
from github_api.git_host import GitHost

from gate.starter import demo_fixture
from tests.gitrepo import GitRepo

IMAGE = os.environ.get("GATE_CONTAINER_IMAGE", "").strip()
ROOT = Path(__file__).resolve().parents[2]
REPOSITORY = "octo/clamp-lab"
NUMBER = 7
WORKSPACE_UID = 1234  # the runner's user, not the container's root

pytestmark = pytest.mark.skipif(
    not IMAGE,
    reason="container test skipped: GATE_CONTAINER_IMAGE is not set "
    "(bash .ci/run builds the image and sets it)",
)


def _action_defaults() -> dict[str, str]:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}


def _docker(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["docker", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def _read_file_command(path: Path) -> dict[str, str]:
    """Parse a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIM` blocks."""
    values: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, _, delimiter = line.partition("<<")
            body = []
            while lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            i += 1
            values[name] = "\n".join(body)
        elif "=" in line:
            name, _, value = line.partition("=")
            values[name] = value
    return values


class Run:
    def __init__(self, proc: subprocess.CompletedProcess[str], tmp: Path, head: str) -> None:
        self.proc = proc
        self.code = proc.returncode
        self.log = proc.stdout + proc.stderr
        self.outputs = _read_file_command(tmp / "file_commands" / "set_output_ci")
        self.summary = (tmp / "file_commands" / "step_summary_ci").read_text(encoding="utf-8")
        self.workspace = tmp / "workspace"
        self.head = head


def _pull_files(repo: Any, base: str, head: str) -> list[dict[str, Any]]:
    status = {"A": "added", "D": "removed", "M": "modified"}
    names = dict(
        reversed(line.split("\t", 1))
        for line in repo.git("diff", "--name-status", base, head).splitlines()
    )
    files = []
    for line in repo.git("diff", "--numstat", base, head).splitlines():
        added, deleted, path = line.split("\t")
        files.append(
            {
                "filename": path,
                "status": status[names[path][0]],
                "additions": int(added),
                "deletions": int(deleted),
                "changes": int(added) + int(deleted),
            }
        )
    return files


@pytest.fixture
def git_host(tmp_path: Path) -> Iterator[GitHost]:
    with GitHost(tmp_path / "served") as host:
        yield host


def _run_image(
    tmp: Path,
    make_repo: Any,
    github: GitHubDouble,
    kit: str,
    test: str,
    origin: GitHost | None = None,
) -> tuple[Run, str]:
    """Build the workspace, the event and the file commands, run the image once.

    With `origin`, the repository is published there (main, and the head as
    refs/pull/7/head as on GitHub) and the workspace is a clone of main only,
    as actions/checkout leaves it under pull_request_target for a fork's PR:
    the head commit must be fetched from that origin."""
    repo = make_repo("source")
    repo.write_many(demo_fixture.FILES)
    repo.write(".github/blast-radius.yml", demo_fixture.RUBRIC)
    base = repo.commit("clamp lab with its frozen rubric")
    repo.git("checkout", "-q", "-b", "agent/cleanup")
    repo.write("clamp_kit.py", kit)
    repo.write("test_clamp.py", test)
    head = repo.commit("fix clamp")
    repo.checkout("main")  # the runner's checkout under pull_request_target: the base

    workspace = tmp / "workspace"
    if origin is None:
        shutil.copytree(repo.root, workspace, symlinks=True)
    else:
        url = origin.publish(
            REPOSITORY, repo.root, {"refs/heads/main": base, f"refs/pull/{NUMBER}/head": head}
        )
        repo.git("clone", "-q", "--single-branch", "--branch", "main", url, str(workspace))
        absent = GitRepo.at(workspace).run("cat-file", "-e", head, check=False)
        assert absent.returncode != 0, "the head commit must not be in the workspace yet"
    if os.geteuid() == 0:
        # As on a runner: the workspace belongs to the runner's user, not to the
        # container's root, so git's ownership check comes into play.
        for path in [workspace, *workspace.rglob("*")]:
            os.lchown(path, WORKSPACE_UID, WORKSPACE_UID)

    github.add_repo(REPOSITORY)
    github.add_pull(
        REPOSITORY,
        NUMBER,
        base_sha=base,
        head_sha=head,
        head_ref="agent/cleanup",
        files=_pull_files(repo, base, head),
    )
    pull = _get_json(github, f"/repos/{REPOSITORY}/pulls/{NUMBER}")
    event = {
        "action": "synchronize",
        "number": NUMBER,
        "pull_request": pull,
        "repository": pull["base"]["repo"],
        "sender": pull["user"],
    }
    (tmp / "workflow").mkdir()
    (tmp / "workflow" / "event.json").write_text(json.dumps(event), encoding="utf-8")
    (tmp / "file_commands").mkdir()
    (tmp / "file_commands" / "set_output_ci").write_text("", encoding="utf-8")
    (tmp / "file_commands" / "step_summary_ci").write_text("", encoding="utf-8")
    (tmp / "home").mkdir()

    env = {
        "HOME": "/github/home",
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_EVENT_NAME": "pull_request_target",
        "GITHUB_EVENT_PATH": "/github/workflow/event.json",
        "GITHUB_REPOSITORY": REPOSITORY,
        "GITHUB_API_URL": github.url,
        "GITHUB_SERVER_URL": github.web_url,
        "GITHUB_WORKSPACE": "/github/workspace",
        "GITHUB_OUTPUT": "/github/file_commands/set_output_ci",
        "GITHUB_STEP_SUMMARY": "/github/file_commands/step_summary_ci",
        "GITHUB_SHA": base,
        "GITHUB_REF": "refs/heads/main",
        "GITHUB_WORKFLOW_REF": f"{REPOSITORY}/.github/workflows/blast-radius.yml@refs/heads/main",
        "RUNNER_TEMP": "/github/home",
        # The gate retries refused API calls; keep the waits short here.
        "GATE_RETRY_BASE_SECONDS": "0",
    }
    for name, default in _action_defaults().items():
        # The runner evaluates `${{ github.token }}` to the job's token.
        value = github.token if name == "github-token" else default
        env[f"INPUT_{name.upper()}"] = value

    args = ["run", "--rm", "--network", "host", "--workdir", "/github/workspace"]
    for folder, target in [
        ("workspace", "/github/workspace"),
        ("workflow", "/github/workflow"),
        ("file_commands", "/github/file_commands"),
        ("home", "/github/home"),
    ]:
        args += ["-v", f"{tmp / folder}:{target}"]
    for key in sorted(env):
        args += ["-e", f"{key}={env[key]}"]
    proc = _docker(*args, IMAGE)
    return Run(proc, tmp, head), head


def _get_json(github: GitHubDouble, path: str) -> Any:
    """GET from the double over HTTP, as the event payload would carry it."""
    request = urllib.request.Request(
        github.url + path,
        headers={
            "Authorization": f"Bearer {github.token}",
            "Accept": "application/vnd.github+json",
            "User-Agent": "blast-radius-gate-container-test",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def _report_file(run: Run) -> Path:
    """The `report` output names a file in the workspace (relative or under /github/workspace)."""
    name = run.outputs["report"]
    name = name.removeprefix("/github/workspace/")
    assert name and not name.startswith("/"), run.outputs["report"]
    return run.workspace / name


@pytest.fixture
def github() -> Any:
    with GitHubDouble() as double:
        yield double


@pytest.fixture(scope="module", autouse=True)
def _image_exists() -> None:
    if shutil.which("docker") is None:
        pytest.fail("GATE_CONTAINER_IMAGE is set but the docker command is missing")
    inspect = _docker("image", "inspect", IMAGE)
    assert inspect.returncode == 0, f"image {IMAGE} not found: {inspect.stderr.strip()}"


def _expected_failed(tmp: Path, make_repo: Any, kit: str, test: str) -> list[str]:
    """The in-process judge's verdict on the same change (`gate check --format json`)."""
    repo = make_repo("expected")
    repo.write_many(demo_fixture.FILES)
    repo.write(".github/blast-radius.yml", demo_fixture.RUBRIC)
    base = repo.commit("base")
    repo.write("clamp_kit.py", kit)
    repo.write("test_clamp.py", test)
    head = repo.commit("head")
    proc = subprocess.run(
        [
            "python",
            "-m",
            "gate",
            "check",
            "--repo",
            str(repo.root),
            "--base",
            base,
            "--head",
            head,
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode in (0, 1), proc.stderr
    failed: list[str] = json.loads(proc.stdout)["failed"]
    return failed


def test_failing_pr_in_the_container(tmp_path: Path, make_repo: Any, github: GitHubDouble) -> None:
    kit, test = demo_fixture.CLEANUP_KIT, demo_fixture.CLEANUP_TEST
    expected = _expected_failed(tmp_path, make_repo, kit, test)
    assert {"NAMES", "BAIT", "TESTS"} <= set(expected)

    run, head = _run_image(tmp_path, make_repo, github, kit, test)

    assert run.code == 1, run.log
    assert github.violations == []
    (check,) = github.check_runs
    assert check["head_sha"] == head
    assert check["conclusion"] == "failure"
    title = check["output"]["title"]
    assert all(rule_id in title for rule_id in expected), title
    (comment,) = github.comments_on(REPOSITORY, NUMBER)
    assert all(rule_id in comment["body"] for rule_id in expected)
    assert run.outputs["passed"] == "false"
    assert run.outputs["failed-rules"].split(",") == expected
    report = json.loads(_report_file(run).read_text(encoding="utf-8"))
    assert report["failed"] == expected and report["head"] == head
    assert all(rule_id in run.summary for rule_id in expected)


def test_passing_pr_in_the_container(tmp_path: Path, make_repo: Any, github: GitHubDouble) -> None:
    run, head = _run_image(
        tmp_path, make_repo, github, demo_fixture.HONEST_FIX, demo_fixture.TEST_CLAMP
    )

    assert run.code == 0, run.log
    assert github.violations == []
    (check,) = github.check_runs
    assert check["head_sha"] == head
    assert check["conclusion"] == "success"
    assert github.comments_on(REPOSITORY, NUMBER) == []  # comment: on-failure
    assert run.outputs["passed"] == "true"
    assert run.outputs["failed-rules"] == ""


def test_fetches_the_missing_head_from_origin(
    tmp_path: Path, make_repo: Any, github: GitHubDouble, git_host: GitHost
) -> None:
    """The image's git fetches over HTTP (curl helper, no Perl) and judges from git."""
    kit, test = demo_fixture.CLEANUP_KIT, demo_fixture.CLEANUP_TEST
    expected = _expected_failed(tmp_path, make_repo, kit, test)

    run, head = _run_image(tmp_path, make_repo, github, kit, test, origin=git_host)

    assert run.code == 1, run.log
    assert "fetched the base and head commits from origin" in run.log
    report = json.loads(_report_file(run).read_text(encoding="utf-8"))
    assert not any("API" in note for note in report.get("notes", ())), report
    assert report["failed"] == expected and report["head"] == head
    (check,) = github.check_runs
    assert check["head_sha"] == head and check["conclusion"] == "failure"


def test_git_is_debians_package_without_full_perl() -> None:
    """The real git binary from Debian's package; its dependency on the full perl
    package is left out (perl-base, part of every Debian image, stays)."""
    proc = _docker(
        "run",
        "--rm",
        "--entrypoint",
        "sh",
        IMAGE,
        "-c",
        "dpkg-query -W -f '${Package} ${Status}\\n' git; git --version; "
        "dpkg-query -W -f '${Status}\\n' perl 2>/dev/null || echo unknown",
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "git install ok installed", lines
    assert lines[1].startswith("git version 2."), lines
    assert not lines[2].endswith(" installed"), lines
