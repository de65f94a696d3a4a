"""Shared fixtures: real git repositories in tmp_path, the real git binary."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests drive real git and real subprocesses: on a loaded two-core CI
# machine one example can take seconds, so no test has a deadline.  `.ci/run`
# selects the "ci" profile: the same examples on every run (derandomized), so
# CI's verdict is reproducible; locally every run explores new examples.
settings.register_profile(
    "dev", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("ci", settings.get_profile("dev"), derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@pytest.fixture(autouse=True)
def _git_identity(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Deterministic git identity and an empty global config for every test."""
    home = tmp_path_factory.mktemp("home")
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("GIT_DIR", raising=False)
    monkeypatch.delenv("GIT_INDEX_FILE", raising=False)
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    # The project's own CI on GitHub sets this; the CLI then fences its output.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


class GitRepo:
    """A real git repository in a temp folder, driven by the real git binary."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str, input: bytes | None = None) -> str:
        proc = subprocess.run(
            ["git", *args],
            cwd=self.root,
            input=input,
            capture_output=True,
            check=False,
            env={**os.environ},
        )
        if proc.returncode != 0:
            raise AssertionError(
                f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}"
            )
        return proc.stdout.decode("utf-8", errors="surrogateescape")

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

    def symlink(self, path: str, target: str) -> None:
        link = self.root / path
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)

    def commit(self, message: str = "commit") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    def checkout(self, *args: str) -> None:
        self.git("checkout", "-q", *args)

    def status(self) -> str:
        """`git status --porcelain` including ignored files: the tree's fingerprint."""
        return self.git("status", "--porcelain", "--ignored", "-z")


@pytest.fixture
def make_repo(tmp_path: Path) -> Iterator[type[GitRepo]]:
    counter = iter(range(1000))

    def factory(name: str | None = None) -> GitRepo:
        return GitRepo(tmp_path / (name or f"repo{next(counter)}"))

    yield factory  # type: ignore[misc]


@pytest.fixture
def repo(make_repo: type[GitRepo]) -> GitRepo:
    return make_repo("repo")  # type: ignore[call-arg]
