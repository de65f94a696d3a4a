"""A blob session's long-running `git diff-tree --stdin` (`gate lab`, `gate
backtest`) answers exactly what a `git diff` per change answers.

Real repositories and the real git binary: the same change read with and
without a thread's `Repo.blob_session` gives the same files, statuses,
counts, copies and notes, for generated changes (renames, copies, binary
files, lone carriage returns, paths with newlines or the marker's words);
where the session cannot answer (a missing object, a search git may have
limited) the change's own `git diff` runs and says what it always said.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.changes.git import changes_from_git
from gate.git.conventions import COPIES_DIFF, RENAME_LIMIT
from gate.git.repo import Repo

# Contents that pair up as renames and copies (shared lines), differ, or are binary.
CONTENT = st.sampled_from(
    [
        b"".join(b"line %d\n" % i for i in range(40)),
        b"".join(b"line %d\n" % i for i in range(38)) + b"edited\n",
        b"other\n" * 30,
        b"a\rb\rc\r",
        b"\0binary\0" * 20,
        b"",
        b"x\r\ny\r\n",
    ]
)
NAMES = st.sampled_from(
    ["a.py", "b.py", "dir/c.py", "new\nline", "gate-end-0000\n", "sp ace", "d/e/f.txt"]
)
SIDE = st.dictionaries(NAMES, CONTENT, max_size=5)


def commit_tree(repo: Any, files: dict[str, bytes]) -> str:
    """A commit whose tree holds exactly `files` (bytes as given), through
    the one plumbing helper (`tests.gitrepo.GitRepo.commit_tree`)."""
    return repo.commit_tree({p.encode(): ("100644", d) for p, d in files.items()}, message="side")


def both_ways(repo: Any, base: str, head: str) -> tuple[Any, Any, Repo]:
    git = Repo(repo.root)
    plain = changes_from_git(git, base, head, (), parent=True)
    with git.blob_session():
        session = changes_from_git(git, base, head, (), parent=True)
        cat = git.session()
        used = cat is not None and cat._diffs is not None and bool(cat._diffs._procs)
    assert used, "the session's diff-tree never ran: this test compares nothing"
    return plain, session, git


@pytest.fixture
def session_repo(make_repo: Any) -> Any:
    repo = make_repo("session")
    repo.write("keep", "k\n")
    repo.commit("root")
    return repo


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(old=SIDE, new=SIDE)
def test_the_session_answers_what_git_diff_answers(session_repo: Any, old: Any, new: Any) -> None:
    base = commit_tree(session_repo, old)
    head = subprocess.run(
        ["git", "commit-tree", commit_tree(session_repo, new) + "^{tree}", "-p", base, "-m", "h"],
        cwd=session_repo.root,
        capture_output=True,
        check=True,
        text=True,
    ).stdout.strip()
    plain, session, _ = both_ways(session_repo, base, head)
    assert session.files == plain.files
    assert session.notes == plain.notes


def fails_alike(repo: Any, base: str, head: str) -> str:
    """The change fails with one message through a blob session and without
    one; returns it."""
    git = Repo(repo.root)
    with pytest.raises(GateError) as plain:
        changes_from_git(git, base, head, (), parent=True)
    with git.blob_session(), pytest.raises(GateError) as session:
        changes_from_git(git, base, head, (), parent=True)
    assert session.value.message == plain.value.message
    return plain.value.message


def test_a_missing_blob_fails_as_the_one_shot_diff_fails(session_repo: Any) -> None:
    """diff-tree stops on the missing object; the change's own git diff
    then runs and fails with git's reason, as without a session."""
    repo = session_repo
    base = commit_tree(repo, {"f": b"old\n" * 10})
    head = commit_tree(repo, {"f": b"new\n" * 10})
    blob = repo.git("rev-parse", f"{head}:f").strip()
    (repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    fails_alike(repo, base, head)


def test_over_the_rename_limit_the_note_is_kept(session_repo: Any) -> None:
    """More added times deleted files than the rename limit's square: git
    skips the search and says so on stderr, which diff-tree --stdin defers
    to its exit; the session then leaves it to a git diff, and the note is
    there."""
    count = RENAME_LIMIT + 1
    base = commit_tree(session_repo, {f"old/{i}": b"old %d\n" % i * 3 for i in range(count)})
    head = commit_tree(session_repo, {f"new/{i}": b"new %d\n" % i * 5 for i in range(count)})
    plain, session, _ = both_ways(session_repo, base, head)
    assert any("rename detection" in note for note in plain.notes)
    assert session.notes == plain.notes
    assert session.files == plain.files


def test_a_missing_tree_fails_as_the_one_shot_diff_fails(session_repo: Any) -> None:
    """A folder's tree object missing: diff-tree stops on it, and the
    session neither hangs waiting for its marker nor answers in part."""
    repo = session_repo
    base = commit_tree(repo, {"d/f": b"a\n", "g": b"b\n"})
    head = commit_tree(repo, {"d/f": b"c\n", "g": b"b\n"})
    folder = repo.git("rev-parse", f"{head}:d").strip()
    (repo.root / ".git" / "objects" / folder[:2] / folder[2:]).unlink()
    message = fails_alike(repo, base, head)
    assert "git diff" in message or "tree" in message


def test_a_copy_search_stopped_by_a_lacking_blob_is_not_run_again(session_repo: Any) -> None:
    """A base file the change never touches, lacking from the clone, stops
    git's search for near copies (it reads every file of the base): the
    session's diff-tree says which object, and that is the note, with no
    second search by `git diff` to learn it (`DiffTrees.unreadable`).  The
    files and notes are what a `git diff` per change gives; the session's
    next search, in a change whose base lacks nothing, still finds its
    copies."""
    repo = session_repo
    body = b"".join(b"shared line %d\n" % i for i in range(40))
    base = commit_tree(repo, {"lost.txt": b"lost\n" * 50, "src.py": body})
    head = commit_tree(repo, {"lost.txt": b"lost\n" * 50, "src.py": body, "new.py": body + b"x\n"})
    lost = repo.git("rev-parse", f"{base}:lost.txt").strip()
    (repo.root / ".git" / "objects" / lost[:2] / lost[2:]).unlink()
    whole = commit_tree(repo, {"src.py": body})
    copied = commit_tree(repo, {"src.py": body, "copy.py": body + b"y\n"})
    git = Repo(repo.root)
    plain = changes_from_git(git, base, head, (), parent=True)
    with git.blob_session():
        cat = git.session()
        assert cat is not None
        session = changes_from_git(git, base, head, (), parent=True)
        assert cat.diffs().unreadable(COPIES_DIFF) == lost
        later = changes_from_git(git, whole, copied, (), parent=True)
        assert cat.diffs().unreadable(COPIES_DIFF) is None
    assert any(f"lacks object {lost}" in note for note in plain.notes), plain.notes
    assert session.notes == plain.notes
    assert session.files == plain.files
    assert [(f.path, f.status, f.old_path) for f in later.files] == [
        ("copy.py", "copied", "src.py")
    ]


def test_a_stop_that_is_not_a_lacking_object_alone_is_left_to_git_diff(
    session_repo: Any,
) -> None:
    """Only git's one line saying it cannot read an object counts: a missing
    tree stops the main diff, whose own `git diff` then says why, and
    nothing is taken for a lacking blob."""
    repo = session_repo
    base = commit_tree(repo, {"d/f": b"a\n", "g": b"b\n"})
    head = commit_tree(repo, {"d/f": b"c\n", "g": b"b\n"})
    folder = repo.git("rev-parse", f"{head}:d").strip()
    (repo.root / ".git" / "objects" / folder[:2] / folder[2:]).unlink()
    git = Repo(repo.root)
    with git.blob_session():
        cat = git.session()
        assert cat is not None
        assert cat.diffs().tokens(COPIES_DIFF, base, head) is None
        assert cat.diffs().unreadable(COPIES_DIFF) is None
