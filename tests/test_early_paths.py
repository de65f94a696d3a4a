"""`gate check`'s path-only source work starts on a quick `git diff --raw
--no-renames` (`DiffJob.touched`) while the main diff counts, and stands only
when its written paths are the diff's (`gate.changes.git.changes_of`).

Real repositories and the real git binary: for generated changes (renames,
copies, binary files, deletions, mode changes, odd paths) the quick diff
names the written paths the main diff names, and the change set built with
it (texts read by glob, the base tree) is the one built without it; where
an object is missing, the error is the one the change always raised.
"""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.changes import ChangeSet, TextWants
from gate.changes.git import _written, changes_of
from gate.errors import GateError
from gate.git.repo import Repo, start_change

CONTENT = st.sampled_from(
    [
        b"".join(b"line %d\n" % i for i in range(40)),
        b"".join(b"line %d\n" % i for i in range(38)) + b"edited\n",
        b"other\n" * 30,
        b"a\rb\rc\r",
        b"\0binary\0" * 20,
        b"",
    ]
)
NAMES = st.sampled_from(
    [
        *("a.py", "tests/test_b.py", "src/c.py", "new\nline.py", "sp ace", "d/e/f.txt"),
        *("pkg/__init__.py", "tests/pkg.py"),
    ]
)
MODE = st.sampled_from(["100644", "100755"])
SIDE = st.dictionaries(NAMES, st.tuples(MODE, CONTENT), max_size=6)


def commit_tree(repo: Any, files: dict[str, tuple[str, bytes]], parent: str | None = None) -> str:
    """A commit whose tree holds exactly `files` (mode, bytes as given)."""
    repo.git("read-tree", "--empty")
    for path, (mode, data) in files.items():
        blob = repo.git("hash-object", "-w", "--no-filters", "--stdin", input=data).strip()
        repo.git("update-index", "--add", "--cacheinfo", f"{mode},{blob},{path}")
    tree = repo.git("write-tree").strip()
    args = ["git", "commit-tree", tree, "-m", "side", *(["-p", parent] if parent else [])]
    done = subprocess.run(args, cwd=repo.root, capture_output=True, check=True, text=True)
    return done.stdout.strip()


WANTS = TextWants(files=("a.py",), touched=lambda p: p.endswith(".py"), tree=True)


def both_ways(git: Repo, base: str, head: str) -> tuple[ChangeSet, ChangeSet]:
    """The change set with the quick diff's paths (a reader thread) and
    without them (no thread: the paths come from the finished diff)."""
    with start_change(git, base, head, parent=True) as started:
        early = changes_of(started, WANTS)
    with start_change(git, base, head, parent=True, background=False) as started:
        assert started.job.touched() is None
        late = changes_of(started, WANTS)
    return early, late


@pytest.fixture
def paths_repo(make_repo: Any) -> Any:
    repo = make_repo("paths")
    repo.write("keep", "k\n")
    repo.commit("root")
    return repo


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(old=SIDE, new=SIDE)
def test_the_quick_diff_names_the_written_paths_of_the_diff(
    paths_repo: Any, old: Any, new: Any
) -> None:
    base = commit_tree(paths_repo, old)
    head = commit_tree(paths_repo, new, parent=base)
    git = Repo(paths_repo.root)
    with start_change(git, base, head, parent=True) as started:
        quick = started.job.touched()
        files = started.job.result()
    assert quick is not None, "the quick diff did not answer: this test compares nothing"
    assert quick == _written(files)
    early, late = both_ways(git, base, head)
    assert early == late


def test_a_missing_test_blob_fails_as_without_the_quick_diff(paths_repo: Any) -> None:
    """The extra texts' batch, read before the diff is done, fails on a
    missing blob; the diff fails on it too, and its sentence comes first."""
    base = commit_tree(paths_repo, {"tests/test_x.py": ("100644", b"def test_a(): pass\n")})
    head = commit_tree(
        paths_repo, {"tests/test_x.py": ("100644", b"def test_b(): pass\n")}, parent=base
    )
    blob = paths_repo.git("rev-parse", f"{head}:tests/test_x.py").strip()
    (paths_repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    git = Repo(paths_repo.root)
    errors = []
    for background in (True, False):
        with (
            pytest.raises(GateError) as caught,
            start_change(git, base, head, parent=True, background=background) as started,
        ):
            changes_of(started, WANTS)
        errors.append(caught.value.message)
    assert errors[0] == errors[1]
