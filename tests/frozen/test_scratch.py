"""Where a frozen run's worktree goes (`gate.git.worktree.scratch_folder`):
TMPDIR when the user set it, else a RAM-backed folder with room for the
tree, else the system's temporary folder."""

from __future__ import annotations

import os

import pytest

from gate.git import worktree
from gate.git.repo import Repo
from tests.gitrepo import GitRepo


@pytest.fixture
def small(repo: GitRepo) -> Repo:
    repo.write_many({"a.txt": "x" * 1000, "b/c.txt": "y" * 24})
    repo.commit("two files")
    return Repo(str(repo.root))


def test_the_tree_size_counts_every_blob(small: Repo) -> None:
    assert worktree.tree_size(small, "HEAD") == 1024


def test_tmpdir_set_by_the_user_wins(small: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", "/somewhere")
    assert worktree.scratch_folder(small, "HEAD") is None


def test_a_ram_folder_with_room_is_chosen_else_none(
    small: Repo, monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike[str]
) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setattr(worktree, "RAM_FOLDER", str(tmp_path))
    monkeypatch.setattr(worktree, "RAM_SPARE", 0)
    assert worktree.scratch_folder(small, "HEAD") == str(tmp_path)
    monkeypatch.setattr(worktree, "RAM_SPARE", 1 << 62)  # more room than any disk has
    assert worktree.scratch_folder(small, "HEAD") is None
    monkeypatch.setattr(worktree, "RAM_FOLDER", str(tmp_path) + "/missing")
    monkeypatch.setattr(worktree, "RAM_SPARE", 0)
    assert worktree.scratch_folder(small, "HEAD") is None
