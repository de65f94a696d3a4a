"""`gate check` says what it did not judge, and what git's limits did to the change.

Notes land in the report (`notes` in JSON) and, for what was not judged, on
stderr too: a PASS that judged nothing must never look like a real one.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gate.commands.cli import main
from gate.git.conventions import RENAME_LIMIT
from gate.starter import demo_fixture
from tests.gitrepo import run_check

RUBRIC_PATH = ".github/blast-radius.yml"
PERMISSIVE = "rules:\n  - {id: ANY, kind: max_files, limit: 100000}\n"


@pytest.fixture
def seed(repo: Any) -> Any:
    repo.write_many(demo_fixture.FILES)
    repo.write(RUBRIC_PATH, demo_fixture.RUBRIC)
    repo.commit("seed lab")
    return repo


def test_same_commit_says_nothing_judged(seed: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code, report, err = run_check(capsys, "--repo", str(seed.root), "--base", "main")
    assert code == 0
    assert report["stats"]["files_touched"] == 0
    (note,) = report["notes"]
    assert note.startswith("base and head are the same commit") and "nothing judged" in note
    assert f"gate: note: {note}\n" == err


def test_head_already_in_base_says_nothing_judged(
    seed: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    old = seed.head()
    seed.write("more.txt", "m\n")
    seed.commit("main moves on")
    code, report, err = run_check(capsys, "--repo", str(seed.root), "--base", "main", "--head", old)
    assert code == 0
    assert any("already contained in base" in n and "nothing judged" in n for n in report["notes"])
    assert "nothing judged" in err


def test_text_report_shows_the_note(seed: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--repo", str(seed.root), "--base", "main"]) == 0
    out, err = capsys.readouterr()
    assert "notes:" in out and "nothing judged" in out
    assert "nothing judged" in err


# What a working tree can hold that HEAD does not: each kind of uncommitted path.
EDITS = st.lists(
    st.tuples(
        st.sampled_from(["modify", "stage", "delete", "untracked", "untracked-dir"]),
        st.integers(0, 3),
    ),
    unique=True,
    max_size=6,
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits=EDITS)
def test_uncommitted_paths_are_counted_and_named(
    make_repo: Any, capsys: pytest.CaptureFixture[str], edits: list[tuple[str, int]]
) -> None:
    repo = make_repo()
    repo.write(RUBRIC_PATH, PERMISSIVE)
    repo.write_many({f"t{i}.txt": f"{i}\n" for i in range(4)})
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write("done.txt", "committed\n")
    repo.commit("the change")
    expected = set()
    for kind, i in edits:
        if kind == "modify":
            repo.write(f"t{i}.txt", "changed\n")
            expected.add(f"t{i}.txt")
        elif kind == "stage":
            repo.write(f"s{i}.txt", "staged\n")
            repo.git("add", f"s{i}.txt")
            expected.add(f"s{i}.txt")
        elif kind == "delete":
            (repo.root / f"t{i}.txt").unlink(missing_ok=True)
            expected.add(f"t{i}.txt")
        elif kind == "untracked":
            repo.write(f"u{i}.txt", "u\n")
            expected.add(f"u{i}.txt")
        else:
            repo.write(f"dir{i}/a.txt", "a\n")
            repo.write(f"dir{i}/b.txt", "b\n")
            expected.add(f"dir{i}/")  # one entry: git lists an untracked folder once
    code, report, err = run_check(capsys, "--repo", str(repo.root), "--base", "main")
    assert code == 0
    assert report["stats"]["files_touched"] == 1  # HEAD is judged, never the work tree
    notes = [n for n in report.get("notes", []) if "uncommitted" in n]
    if not expected:
        assert notes == [] and err == ""
        return
    n = len(expected)
    (note,) = notes
    assert note.startswith(f"{n} uncommitted path{'s' if n != 1 else ''} not judged")
    assert "use --patch or commit" in note
    assert f"gate: note: {note}\n" == err


def test_no_uncommitted_note_when_head_is_named(
    seed: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    seed.git("checkout", "-q", "-b", "agent")
    seed.write("clamp_kit.py", demo_fixture.HONEST_FIX)
    head = seed.commit("fix")
    seed.write("scratch.txt", "s\n")
    _, report, err = run_check(capsys, "--repo", str(seed.root), "--base", "main", "--head", head)
    assert "notes" not in report and err == ""
    _, report, err = run_check(capsys, "--repo", str(seed.root), "--base", "main")
    assert report["notes"] == [
        "1 uncommitted path not judged (HEAD is judged, not the working tree); "
        "use --patch or commit"
    ]


def criss_cross(repo: Any) -> tuple[str, str, list[str]]:
    """Two branches that each merged the other's tip: two merge bases."""
    repo.write(RUBRIC_PATH, PERMISSIVE)
    repo.write("f", "0\n")
    repo.commit("root")
    repo.git("checkout", "-q", "-b", "x")
    repo.write("x", "x\n")
    x = repo.commit("x")
    repo.git("checkout", "-q", "main")
    repo.write("y", "y\n")
    y = repo.commit("y")
    repo.git("checkout", "-q", "-b", "a", y)
    repo.git("merge", "-q", "--no-edit", x)
    repo.write("a", "a\n")
    a = repo.commit("a")
    repo.git("checkout", "-q", "-b", "b", x)
    repo.git("merge", "-q", "--no-edit", y)
    repo.write("b", "b\n")
    b = repo.commit("b")
    bases = repo.git("merge-base", "--all", a, b).split()
    assert len(bases) == 2
    return a, b, bases


def test_several_merge_bases_judge_the_merge_into_the_base(
    repo: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b, bases = criss_cross(repo)
    _, report, err = run_check(capsys, "--repo", str(repo.root), "--base", a, "--head", b)
    (note,) = report["notes"]
    tree = repo.git("merge-tree", "--write-tree", a, b).split()[0]
    assert "2 merge bases" in note and f"merged tree {tree}" in note
    assert all(base[:12] in note for base in bases)
    assert err == ""  # a note in the report; the change was judged
    # merging b into a adds only b's own file: x and y are on both sides
    assert report["stats"]["files_touched"] == 1
    # git's own three-dot diff would judge from one of them
    stderr = repo.run("diff", "--raw", f"{a}...{b}", check=False).stderr.decode()
    assert f"multiple merge bases, using {bases[0]}" in stderr


# One step of a history: a commit on either branch (editing, adding or
# deleting that branch's own files, so merges never conflict), or a merge of
# the other branch's tip or an earlier commit of it (both ways make
# criss-cross histories, with several merge bases).
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["main", "agent"]),
        st.sampled_from(["edit", "add", "delete", "merge"]),
        st.integers(0, 2),
        st.integers(1, 4),
    ),
    min_size=1,
    max_size=10,
)


def numstat(repo: Any, *spec: str) -> list[tuple[str, int, int]]:
    """git's own `diff --numstat` of `spec`, as (path, added, deleted)."""
    out = repo.git("diff", "--numstat", "--no-renames", *spec, "--")
    rows = [line.split("\t") for line in out.splitlines()]
    return sorted((path, int(added), int(deleted)) for added, deleted, path in rows)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS)
@example(  # criss-cross: each branch merges the other's commit before its merge
    steps=[
        ("main", "edit", 0, 1),
        ("agent", "edit", 0, 2),
        ("main", "merge", 0, 1),
        ("agent", "merge", 1, 1),
        ("agent", "edit", 1, 3),
    ]
)
def test_change_is_git_three_dot_diff_from_the_merge_base_named(
    make_repo: Any, capsys: pytest.CaptureFixture[str], steps: list[tuple[str, str, int, int]]
) -> None:
    """The gate computes the merge base once and diffs from it; whatever the
    history (the base moved on after the fork, merges either way), the change
    is the one `git diff base...head` shows.  With several merge bases it is
    what merging head into base does (base against git's merged tree, as
    `git merge` would make it: never a diff from one of the bases), and a
    note says so."""
    repo = make_repo()
    repo.write(RUBRIC_PATH, PERMISSIVE)
    repo.write("shared.txt", "shared\n")
    repo.commit("root")
    repo.git("branch", "agent")
    for n, (branch, action, i, lines) in enumerate(steps):
        repo.git("checkout", "-q", branch)
        other = "main" if branch == "agent" else "agent"
        if action == "merge":  # the other branch's tip or an earlier commit of it
            target = repo.git("rev-list", "--first-parent", "-n", "1", f"--skip={i}", other, "--")
            if target.strip():
                repo.git("merge", "-q", "--no-edit", "--no-ff", target.strip())
            continue
        path = f"{branch}/f{i}.txt"
        if action == "delete":
            if (repo.root / path).exists():
                repo.remove(path)
        else:  # each line names its file and step: no two files look alike
            repo.write(path, "".join(f"{path} {n} {k}\n" for k in range(lines)))
        repo.commit(f"{action} {path}")
    repo.git("checkout", "-q", "agent")
    bases = repo.git("merge-base", "--all", "main", "agent").split()
    if len(bases) > 1:  # merges never conflict here: each branch edits its own files
        merged = repo.git("merge-tree", "--write-tree", "main", "agent").split()[0]
        expected = numstat(repo, "main", merged)
    else:
        expected = numstat(repo, "main...agent")
    code, report, err = run_check(
        capsys, "--repo", str(repo.root), "--base", "main", "--head", "agent"
    )
    assert code == 0, err
    from gate.changes.git import changes_from_git
    from gate.git.repo import Repo

    changes = changes_from_git(Repo(repo.root), "main", "agent", [])
    got = sorted((f.path, f.added, f.deleted) for f in changes.files)
    assert got == expected
    assert report["stats"] == {
        "files_touched": len(expected),
        "added_lines": sum(row[1] for row in expected),
        "deleted_lines": sum(row[2] for row in expected),
    }
    several = [note for note in report.get("notes", []) if "merge bases" in note]
    if len(bases) > 1:
        (note,) = several
        assert f"{len(bases)} merge bases" in note and "merged tree" in note
    else:
        assert several == []


def test_rename_limit_is_noted(repo: Any, capsys: pytest.CaptureFixture[str]) -> None:
    n = RENAME_LIMIT + 1
    repo.write(RUBRIC_PATH, PERMISSIVE)
    repo.write_many({f"old/o{i}.txt": f"one {i}\ntwo\nthree\n" for i in range(n)})
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "agent")
    repo.git("rm", "-rq", "old")
    repo.write_many({f"new/n{i}.txt": f"one {i}\ntwo\nthree!\n" for i in range(n)})
    repo.commit("move and edit every file")
    _, report, _ = run_check(capsys, "--repo", str(repo.root), "--base", "main")
    notes = [x for x in report["notes"] if "rename detection" in x]
    assert len(notes) == 1
    assert f"rename limit of {RENAME_LIMIT}" in notes[0] and f"at least {n}" in notes[0]
    assert report["stats"]["files_touched"] == 2 * n  # deletion plus addition: both touched


def test_small_renames_have_no_rename_note(repo: Any, capsys: pytest.CaptureFixture[str]) -> None:
    repo.write(RUBRIC_PATH, PERMISSIVE)
    repo.write_many({f"old/o{i}.txt": f"one {i}\ntwo\nthree\n" for i in range(5)})
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "agent")
    repo.git("mv", "old", "new")
    repo.commit("move")
    _, report, _ = run_check(capsys, "--repo", str(repo.root), "--base", "main")
    assert "notes" not in report
    assert report["stats"]["files_touched"] == 5  # five renames, each counted once
