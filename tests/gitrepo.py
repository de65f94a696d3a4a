"""The one git-repository helper of the tests: a real repository in a folder,
driven by the real git binary (never a mock), and the same repository with a
rubric, judged by the real `gate check` (`RubricRepo`).

Every test, fixture and harness that runs git for itself goes through
`GitRepo`: pytest's `repo` and `make_repo` fixtures (tests/conftest.py), the
API double's scenarios (tests/action/conftest.py), the act harness
(tests/act_harness/, also run outside pytest by bench/bench_action.py), the
docs sandboxes (tests/test_docs.py) and the rule-test helper
(tests/rulecase.py).  The gate itself runs git only through `gate.git.Repo`;
this is the test side's twin, with no logic of the gate in it.  A test that
runs `gate check` on its commits takes the `rubric_repo` fixture instead of
`repo` (tests/conftest.py): a `RubricRepo`, which is a `GitRepo` whose
`check(base, head, rubric=...)` returns the exit code and the JSON report.

Import it as `from tests.gitrepo import GitRepo` (the repository's root is on
`sys.path` under `python -m pytest`, and bench/bench_action.py puts it there).
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from gate.commands.cli import main

# The identity and dates of every commit a test makes (tests/conftest.py puts
# them in the environment of every test): the same commits, the same shas.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
}

# A tree for `GitRepo.commit_tree`: path bytes -> (mode, content), where a
# submodule's (mode 160000) content is its commit's sha.
Tree = Mapping[bytes, tuple[str, bytes]]


class GitRepo:
    """A real git repository at `root`, driven by the real git binary.

    `GitRepo(root)` creates the folder and runs `git init` (branch `main`, no
    commit signing); `GitRepo.at(root)` drives a repository (or any folder)
    that is already there.  `env` is the whole environment of every git call
    (default: the process's environment at the time of the call, which
    tests/conftest.py fills with `GIT_ENV` and an empty HOME).  A git call
    that fails raises AssertionError with git's stderr, unless asked not to
    (`run(..., check=False)`).
    """

    def __init__(
        self, root: Path, *, env: Mapping[str, str] | None = None, init: bool = True
    ) -> None:
        self.root = root
        self.env = None if env is None else dict(env)
        self._blobs: dict[bytes, str] = {}  # `commit_tree`'s blobs written so far
        if init:
            root.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")
            self.git("config", "commit.gpgsign", "false")

    @classmethod
    def at(cls, root: Path, *, env: Mapping[str, str] | None = None) -> GitRepo:
        """The repository (or any folder) already at `root`: no `git init`."""
        return cls(root, env=env, init=False)

    # --- running git ---------------------------------------------------------

    def run(
        self,
        *args: str,
        input: bytes | None = None,
        env: Mapping[str, str] | None = None,
        check: bool = True,
    ) -> subprocess.CompletedProcess[bytes]:
        """`git ARGS` in the repository; `env` adds variables to this call only."""
        proc = subprocess.run(
            ["git", *args],
            cwd=self.root,
            input=input,
            capture_output=True,
            check=False,
            env={**(os.environ if self.env is None else self.env), **(env or {})},
        )
        if check and proc.returncode != 0:
            raise AssertionError(
                f"git {' '.join(args)} failed in {self.root}: "
                f"{proc.stderr.decode(errors='replace').strip()}"
            )
        return proc

    def git_bytes(
        self, *args: str, input: bytes | None = None, env: Mapping[str, str] | None = None
    ) -> bytes:
        """What `git ARGS` prints, as bytes."""
        return self.run(*args, input=input, env=env).stdout

    def git(
        self, *args: str, input: bytes | None = None, env: Mapping[str, str] | None = None
    ) -> str:
        """What `git ARGS` prints, as text (undecodable bytes kept as surrogates)."""
        return self.git_bytes(*args, input=input, env=env).decode("utf-8", errors="surrogateescape")

    # --- the work tree ---------------------------------------------------------

    def write(self, path: str, content: str | bytes, mode: int | None = None) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            content = content.encode()
        target.write_bytes(content)
        if mode is not None:
            target.chmod(mode)

    def write_many(self, files: Mapping[str, str | bytes]) -> None:
        for path, content in files.items():
            self.write(path, content)

    def remove(self, path: str) -> None:
        self.git("rm", "-q", "--", path)

    def apply(self, edits: Mapping[str, str | bytes | int | None]) -> None:
        """Edit the work tree path by path: text or bytes is written, None
        removes the file (`git rm`), a number is the file's new mode (chmod)."""
        for path, what in edits.items():
            if what is None:
                self.remove(path)
            elif isinstance(what, int):
                (self.root / path).chmod(what)
            else:
                self.write(path, what)

    def symlink(self, path: str, target: str) -> None:
        link = self.root / path
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)

    def commit(self, message: str = "commit") -> str:
        """Commit everything in the work tree (`git add -A`); the new sha."""
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def checkout(self, *args: str) -> None:
        self.git("checkout", "-q", *args)

    def status(self) -> str:
        """`git status --porcelain` including ignored files: the tree's fingerprint."""
        return self.git("status", "--porcelain", "--ignored", "-z")

    # --- objects -----------------------------------------------------------------

    def head(self) -> str:
        return self.rev_parse("HEAD")

    def rev_parse(self, rev: str) -> str:
        return self.git("rev-parse", "--verify", "-q", rev).strip()

    def show(self, rev: str, path: str) -> bytes | None:
        """The blob at `path` in `rev`, or None when `rev` has no such file."""
        found = self.run("cat-file", "blob", f"{rev}:{path}", check=False)
        return found.stdout if found.returncode == 0 else None

    def hash_object(self, data: bytes) -> str:
        """Write `data` as a blob; its sha."""
        return self.git("hash-object", "-w", "--stdin", input=data).strip()

    def commit_tree(self, tree: Tree, parent: str | None = None, message: str = "c") -> str:
        """A commit of exactly `tree`, made with git's plumbing (no work tree, no
        index of the work tree): any byte string can be a path, and paths one
        file system could not hold side by side can be committed together."""
        index = self.root / ".git" / "plumbing-index"
        index.unlink(missing_ok=True)
        records = b""
        for path, (mode, data) in tree.items():
            if mode == "160000":
                sha = data.decode()
            else:
                if data not in self._blobs:
                    self._blobs[data] = self.hash_object(data)
                sha = self._blobs[data]
            records += f"{mode} {sha}\t".encode() + path + b"\0"
        private = {"GIT_INDEX_FILE": str(index)}
        self.git("update-index", "-z", "--index-info", input=records, env=private)
        tree_sha = self.git("write-tree", env=private).strip()
        args = ["commit-tree", tree_sha, "-m", message] + (["-p", parent] if parent else [])
        return self.git(*args).strip()


# --- a git repository with a rubric --------------------------------------------

# The rubric of one rule, the test-drift check, under the id TESTS.
DRIFT_RUBRIC = "version: 1\nrules:\n  - id: TESTS\n    kind: test_drift\n"


class Checked(NamedTuple):
    """One `gate check --format json`: its exit code, the JSON report it
    printed ({} when it printed none, as when it could not judge), and what
    it wrote to stderr."""

    code: int
    report: dict[str, Any]
    err: str

    def result(self, rule_id: str = "TESTS") -> dict[str, Any]:
        """The report's result for the rule `rule_id`."""
        return next(r for r in self.report["results"] if r["id"] == rule_id)

    def verdict(self, rule_id: str = "TESTS") -> tuple[int, dict[str, Any]]:
        """The exit code and the result for the rule `rule_id`."""
        return self.code, self.result(rule_id)

    def code_and_message(self, rule_id: str = "TESTS") -> tuple[int, str]:
        """The exit code and the message of the rule `rule_id`."""
        return self.code, self.result(rule_id)["message"]


class RubricRepo(GitRepo):
    """A real git repository judged by the real `gate check` (in process,
    `gate.commands.cli.main`, its stdout captured by pytest's `capsys`).

    The rubric is either committed in the repository (at
    `gate.base.names.DEFAULT_RUBRIC_PATH`, as a project keeps it) or passed to
    `check` as `rubric=TEXT`,
    which writes it beside the repository (`rubric_file`) and names it with
    --rubric-file.
    """

    def __init__(self, root: Path, capsys: pytest.CaptureFixture[str]) -> None:
        super().__init__(root)
        self.capsys = capsys

    def rubric_file(self, text: str = DRIFT_RUBRIC) -> Path:
        """`text` written beside the repository as rubric.yml; its path."""
        path = self.root.parent / "rubric.yml"
        path.write_text(text, encoding="utf-8")
        return path

    def check(
        self,
        base: str,
        head: str | None = None,
        *,
        rubric: str | None = None,
        args: Sequence[str] = (),
    ) -> Checked:
        """`gate check --repo ROOT --base BASE [--head HEAD] [--rubric-file
        beside] [ARGS] --format json`: its exit code and JSON report.  Without
        `head` the change is base...HEAD (or what `args` names, such as
        --patch); without `rubric` the gate reads the committed one."""
        argv = ["--repo", str(self.root), "--base", base]
        if head is not None:
            argv += ["--head", head]
        if rubric is not None:
            argv += ["--rubric-file", str(self.rubric_file(rubric))]
        return run_check(self.capsys, *argv, *args)


def run_check(capsys: pytest.CaptureFixture[str], *argv: str) -> Checked:
    """`gate check ARGV --format json` in process (`gate.commands.cli.main`), its
    output read from `capsys`: for a repository made here, `RubricRepo.check`."""
    code = main(["check", *argv, "--format", "json"])
    out, err = capsys.readouterr()
    return Checked(code, json.loads(out) if out else {}, err)
