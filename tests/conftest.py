"""Shared fixtures: real git repositories in tmp_path (`repo`, `make_repo`:
tests/gitrepo.py's `GitRepo`; `rubric_repo`: the same repository judged by
`gate check`, tests/gitrepo.py's `RubricRepo`), the real git binary, a fixed
git identity.  A rule judged on a change without a repository of its own is
tests/rulecase.py's `RuleCase`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.gitrepo import GIT_ENV, GitRepo, RubricRepo

# Property tests drive real git and real subprocesses: on a loaded two-core CI
# machine one example can take seconds, so no test has a deadline.  `.ci/run`
# selects the "ci" profile: the same examples on every run (derandomized), so
# CI's verdict is reproducible; locally every run explores new examples.
settings.register_profile(
    "dev", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("ci", settings.get_profile("dev"), derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


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


@pytest.fixture
def make_repo(tmp_path: Path) -> Iterator[type[GitRepo]]:
    counter = iter(range(1000))

    def factory(name: str | None = None) -> GitRepo:
        return GitRepo(tmp_path / (name or f"repo{next(counter)}"))

    yield factory  # type: ignore[misc]


@pytest.fixture
def repo(make_repo: type[GitRepo]) -> GitRepo:
    return make_repo("repo")  # type: ignore[call-arg]


@pytest.fixture
def rubric_repo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> RubricRepo:
    """A git repository with a rubric: `repo`'s repository (the same folder,
    tmp_path/repo, so take one or the other), whose `check(base, head,
    rubric=...)` runs `gate check` on it and returns code and JSON report."""
    return RubricRepo(tmp_path / "repo", capsys)
