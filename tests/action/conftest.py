"""Helpers for running `gate action` as the runner runs it, against the API double.

The environment is built exactly as the runner builds it for a Docker action:
every input declared in action.yml arrives as INPUT_<NAME> (upper-cased,
hyphens kept) with its default, GITHUB_* point at real files, and the event
payload is a JSON file holding the pull request object the API serves.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from github_api.fixtures import github  # noqa: F401  (the fixture)

from gate.action import action
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]
REPO = "octo/widgets"
WORKFLOW = ".github/workflows/gate.yml"

RUBRIC = """\
version: 1
rules:
  - id: F1
    kind: max_files
    limit: 3
    description: one focused change
  - id: SECRETS
    kind: forbidden_paths
    paths: ["secrets/"]
  - id: KEEP
    kind: keep_lines
    file: app.py
    lines: ["def main():"]
examples:
  - name: small fix
    expect: pass
    change:
      - path: app.py
        before: "def main():\\n    return 1\\n"
        after: "def main():\\n    return 2\\n"
  - name: secrets touched
    expect: [SECRETS]
    change:
      - {path: secrets/key, status: added, added: 1}
  - name: sprawl
    expect: [F1]
    change:
      - {path: a.py, added: 1}
      - {path: b.py, added: 1}
      - {path: c.py, added: 1}
      - {path: d.py, added: 1}
  - name: main removed
    expect: [KEEP]
    change:
      - path: app.py
        before: "def main():\\n    return 1\\n"
        after: "def run():\\n    return 1\\n"
"""

BASE_FILES = {
    ".github/blast-radius.yml": RUBRIC,
    WORKFLOW: "on: pull_request\njobs: {}\n",
    "app.py": "def main():\n    return 1\n",
    "lib/util.py": "X = 1\n",
    "tests/test_app.py": "def test_main():\n    assert True\n",
}


def action_defaults() -> dict[str, str]:
    """Input defaults as declared in action.yml (what the runner passes)."""
    meta = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return {name: str(spec.get("default", "")) for name, spec in meta["inputs"].items()}


def api_files(repo: GitRepo, base: str, head: str) -> list[dict[str, Any]]:
    """The PR files listing GitHub would serve for base...head, read with plain git."""
    status_tokens = repo.git("diff", "--name-status", "-z", "-M", f"{base}...{head}").split("\0")
    statuses: list[tuple[str, str, str | None]] = []
    i = 0
    while i < len(status_tokens) - 1:
        letter = status_tokens[i][0]
        if letter in "RC":
            statuses.append((letter, status_tokens[i + 2], status_tokens[i + 1]))
            i += 3
        else:
            statuses.append((letter, status_tokens[i + 1], None))
            i += 2
    counts: dict[str, tuple[int, int, bool]] = {}
    num_tokens = repo.git("diff", "--numstat", "-z", "-M", f"{base}...{head}").split("\0")
    i = 0
    while i < len(num_tokens) - 1:
        added, deleted, path = num_tokens[i].split("\t", 2)
        if path == "":
            path = num_tokens[i + 2]
            i += 3
        else:
            i += 1
        binary = added == "-"
        counts[path] = (0 if binary else int(added), 0 if binary else int(deleted), binary)
    names = {"A": "added", "D": "removed", "M": "modified", "R": "renamed", "C": "copied"}
    out = []
    for letter, path, old in statuses:
        added, deleted, binary = counts[path]
        entry: dict[str, Any] = {
            "filename": path,
            "status": names.get(letter, "changed"),
            "additions": added,
            "deletions": deleted,
            "changes": added + deleted,
        }
        if old is not None:
            entry["previous_filename"] = old
        if not binary and added + deleted:
            entry["patch"] = "@@ -1 +1 @@\n-x\n+y"
        out.append(entry)
    return out


@dataclass
class Outcome:
    code: int
    log: str
    outputs: dict[str, str]
    summary: str
    workspace: Path

    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(
            (self.workspace / self.outputs["report"]).read_text(encoding="utf-8")
        )
        return data


def parse_outputs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if "<<" in lines[i]:
            name, delim = lines[i].split("<<", 1)
            j = lines.index(delim, i + 1)
            out[name] = "\n".join(lines[i + 1 : j])
            i = j + 1
        else:
            i += 1
    return out


@dataclass
class Scenario:
    """A repository on GitHub (the double), its workspace checkout, one PR."""

    github: Any
    tmp: Path
    make_repo: Any
    number: int = 7
    inputs: dict[str, str] = field(default_factory=dict)
    extra_env: dict[str, str] = field(default_factory=dict)
    event_name: str = "pull_request"
    workspace: Path | None = None
    queue: tuple[str, str] | None = None  # merge_group (base_sha, head_sha)

    def __post_init__(self) -> None:
        self.repo = self.make_repo("workspace")
        self.repo.write_many(BASE_FILES)
        self.base = self.repo.commit("base")
        self.repo.git("checkout", "-q", "-b", "feature")
        self.github.add_repo(REPO)
        self.workspace = self.repo.root

    def push(
        self,
        files: Mapping[str, str | bytes],
        *,
        remove: tuple[str, ...] = (),
        renames: Mapping[str, str] | None = None,
        user: str = "copilot-swe-agent[bot]",
        labels: tuple[str, ...] = (),
        head_ref: str = "feature",
        title: str = "Agent change",
    ) -> str:
        """Commit a change on the PR branch and (re)publish the PR on the double."""
        for old, new in (renames or {}).items():
            self.repo.git("mv", "--", old, new)
        for path in remove:
            self.repo.remove(path)
        self.repo.write_many(files)
        head = self.repo.commit("change")
        listing = api_files(self.repo, self.base, head)
        fork = self.repo.git("merge-base", self.base, head).strip()
        self.github.add_pull(
            REPO,
            self.number,
            base_sha=self.base,
            head_sha=head,
            merge_base_sha=fork,
            head_ref=head_ref,
            user=user,
            labels=labels,
            title=title,
            files=listing,
        )
        for sha in dict.fromkeys((self.base, fork, head)):
            for record in self.repo.git("ls-tree", "-r", "-z", sha).split("\0"):
                if not record:
                    continue
                mode, path = record.split(" ", 1)[0], record.split("\t", 1)[1]
                if mode == "160000":
                    continue  # a submodule: no file for the contents API to serve
                data = self.repo.git_bytes("cat-file", "blob", f"{sha}:{path}")
                if mode == "120000":
                    self.github.add_symlink(REPO, sha, path, data.decode())
                else:
                    self.github.add_content(REPO, sha, path, data)
        self.head = head
        return head

    def enqueue(
        self, *, onto: str | None = None, also: Mapping[str, str] | None = None
    ) -> tuple[str, str]:
        """Build the merge queue's commit for the PR, as GitHub does: the PR's change
        squashed onto `onto` (default: the PR's base), plus `also` (files of other PRs
        grouped into the same entry).  The next run is a merge_group event for it.
        Returns (base_sha, head_sha) of the entry."""
        parent = onto or self.base
        self.repo.git("checkout", "-q", "--detach", parent)
        self.repo.git("merge", "-q", "--squash", self.head)
        self.repo.write_many(also or {})
        self.repo.git("add", "--", *(also or {}))  # only what the queue merges
        self.repo.git("commit", "-q", "-m", f"Queue entry for #{self.number}")
        head = self.repo.head()
        self.repo.git("checkout", "-q", "feature")
        self.queue = (parent, head)
        self.event_name = "merge_group"
        return self.queue

    def env(self) -> dict[str, str]:
        run_dir = self.tmp / "runner"
        run_dir.mkdir(exist_ok=True)
        event_path = run_dir / "event.json"
        pull = self.github.pulls[(REPO, self.number)]
        workflow_ref = f"{REPO}/{WORKFLOW}@refs/pull/{self.number}/merge"
        if self.event_name == "merge_group":
            assert self.queue is not None, "call enqueue() first"
            base_sha, head_sha = self.queue
            event = self.github.merge_group_payload(
                REPO, self.number, base_sha=base_sha, head_sha=head_sha
            )
            workflow_ref = f"{REPO}/{WORKFLOW}@{event['merge_group']['head_ref']}"
        elif self.event_name == "workflow_dispatch":
            event: dict[str, Any] = {"inputs": {"pr-number": str(self.number)}, "ref": "main"}
        else:
            event = {
                "action": "synchronize",
                "number": self.number,
                "pull_request": self.github._pull_json(pull),
                "repository": self.github._repo_json(REPO),
            }
        event_path.write_text(json.dumps(event), encoding="utf-8")
        for name in ("output", "summary"):
            (run_dir / name).touch()
        env = {
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "GITHUB_EVENT_NAME": self.event_name,
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_REPOSITORY": REPO,
            "GITHUB_API_URL": self.github.url,
            "GITHUB_SERVER_URL": self.github.web_url,
            "GITHUB_WORKSPACE": str(self.workspace) if self.workspace else "",
            "GITHUB_OUTPUT": str(run_dir / "output"),
            "GITHUB_STEP_SUMMARY": str(run_dir / "summary"),
            "GITHUB_WORKFLOW_REF": workflow_ref,
            "GITHUB_SHA": "f" * 40,  # a merge commit under pull_request: never the head
            "GATE_RETRY_BASE_SECONDS": "0.01",
            "GATE_RETRY_MAX_SECONDS": "0.05",
        }
        for name, default in {**action_defaults(), **self.inputs}.items():
            value = default.replace("${{ github.token }}", self.github.token)
            env["INPUT_" + name.upper()] = value
        env.update(self.extra_env)
        return env

    def run(self) -> Outcome:
        env = self.env()
        run_dir = self.tmp / "runner"
        (run_dir / "output").write_text("", encoding="utf-8")
        (run_dir / "summary").write_text("", encoding="utf-8")
        buf = io.StringIO()
        code = action.run(env, out=buf)
        return Outcome(
            code=code,
            log=buf.getvalue(),
            outputs=parse_outputs((run_dir / "output").read_text(encoding="utf-8")),
            summary=(run_dir / "summary").read_text(encoding="utf-8"),
            workspace=Path(self.workspace or self.tmp),
        )


@pytest.fixture
def scenario(github: Any, tmp_path: Path, make_repo: Any) -> Scenario:  # noqa: F811
    return Scenario(github=github, tmp=tmp_path, make_repo=make_repo)
