"""Several merge bases: the gate judges what merging the change would do.

A branch built from an older commit that merges another line of history
with `git merge -s ours` keeps its own tree: merged into the base, it undoes
what that line brought (the rubric, a workflow, a guarded file).  Diffed from
the wrong one of the several merge bases, the change showed nothing of it and
every rule passed, with only a note.  The histories here are generated and
built with real git; the oracle is a real `git merge` of the head into the
base in a second work tree.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gate.commands.cli import main
from tests.gitrepo import GitRepo

RUBRIC_PATH = ".github/blast-radius.yml"
RUBRIC = (
    'rules:\n  - {id: GUARD, kind: forbidden_paths, paths: ["guarded/", ".github/workflows/"]}\n'
)
EXTRA_RULE = "  - {id: EXTRA, kind: max_files, limit: 1000}\n"

# What one line of history brings: each a real change of the base's tree.
BRINGS = ["rubric", "guarded_add", "guarded_edit", "workflow", "plain"]


def bring(repo: Any, what: str, tag: str) -> None:
    if what == "rubric":
        repo.write(RUBRIC_PATH, (repo.root / RUBRIC_PATH).read_text() + EXTRA_RULE)
    elif what == "guarded_add":
        repo.write(f"guarded/{tag}.txt", f"{tag}\n")
    elif what == "guarded_edit":
        repo.write("guarded/old.txt", f"old, edited by {tag}\n")
    elif what == "workflow":
        repo.write(f".github/workflows/{tag}.yml", f"name: {tag}\n")
    else:
        repo.write(f"plain/{tag}.txt", f"{tag}\n")


def guarded(path: str) -> bool:
    return path.startswith(("guarded/", ".github/workflows/"))


def judge(capsys: pytest.CaptureFixture[str], repo: Any) -> tuple[int, dict[str, Any], str]:
    code = main(
        ["check", "--repo", str(repo.root), "--base", "main", "--head", "agent", "--format", "json"]
    )
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip().startswith("{") else {}), err


def real_merge(repo: Any, tmp: Any) -> list[str] | None:
    """The paths a real `git merge agent` on main changes (None: it conflicts)."""
    where = tmp / "merge-here"
    repo.git("worktree", "add", "-q", "--detach", str(where), "main")
    merged = GitRepo.at(where)
    if merged.run("merge", "-q", "--no-edit", "agent", check=False).returncode != 0:
        return None
    return sorted(merged.git("diff", "--name-only", "--no-renames", "main", "HEAD", "--").split())


def merge(repo: Any, commit: str, strategy: list[str], side: str) -> None:
    """Merge `commit` into the checked-out branch; a conflict between the two
    lines (both edited guarded/old.txt or the rubric) keeps `side`."""
    proc = repo.run("merge", "-q", "--no-edit", "--no-ff", *strategy, commit, check=False)
    if proc.returncode != 0:
        repo.git("checkout", side, "--", ".")
        repo.git("add", "-A")
        repo.git("commit", "-q", "--no-edit")


SIDE = st.lists(st.sampled_from(BRINGS), min_size=1, max_size=3, unique=True)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    first=SIDE,
    line=SIDE,
    ours=st.sampled_from([(True, False), (False, True), (True, True)]),
    line_first=st.booleans(),
    main_after=st.booleans(),
    agent_own=st.booleans(),
)
@example(  # the hole: undo a guarded file and the rubric edit that another base brought
    first=["plain"],
    line=["guarded_add", "rubric"],
    ours=(False, True),
    line_first=False,
    main_after=False,
    agent_own=True,
)
def test_an_ours_merge_never_undoes_another_base_unseen(
    make_repo: Any,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    first: list[str],
    line: list[str],
    ours: tuple[bool, bool],
    line_first: bool,
    main_after: bool,
    agent_own: bool,
) -> None:
    """main: O - M1 - merge(L) [- M2]; agent (from O) merges M1 and L's tip, at
    least one with `-s ours`: two merge bases (M1 and L).  Whatever merging
    agent into main would change is judged: a guarded path or the rubric it
    would undo fails its rule, a conflicting merge exits 2; never a pass
    with a note."""
    repo = make_repo()
    repo.write(RUBRIC_PATH, RUBRIC)
    repo.write("guarded/old.txt", "old\n")
    repo.write("readme.txt", "r\n")
    root = repo.commit("root")
    repo.git("checkout", "-q", "-b", "line", root)
    for what in line:
        bring(repo, what, "line")
    line_tip = repo.commit("the other line")
    repo.git("checkout", "-q", "main")
    for what in first:
        bring(repo, what, "m1")
    m1 = repo.commit("M1")
    merge(repo, line_tip, [], "--theirs")
    if main_after:
        repo.write("plain/m2.txt", "m2\n")
        repo.commit("M2")
    repo.git("checkout", "-q", "-b", "agent", root)
    if agent_own:
        repo.write("agent.txt", "a\n")
        repo.commit("agent's own work")
    merges = [(line_tip, ours[1]), (m1, ours[0])]
    if not line_first:
        merges.reverse()
    for commit, with_ours in merges:
        merge(repo, commit, ["-s", "ours"] if with_ours else [], "--ours")
    bases = repo.git("merge-base", "--all", "main", "agent").split()
    changed = real_merge(repo, tmp_path_factory.mktemp("merge"))
    code, report, err = judge(capsys, repo)
    if changed is None:
        assert code == 2, report
        assert "merge the base into the branch and push" in err
        return
    assert code in (0, 1), err
    failed = set(report["failed"])
    assert report["stats"]["files_touched"] == len(changed)
    assert ("GUARD" in failed) == any(guarded(p) for p in changed)
    assert ("gate.rubric-edited" in failed) == (RUBRIC_PATH in changed)
    assert code == (1 if failed else 0)
    if len(bases) > 1:
        assert any("merged tree" in n for n in report["notes"])


def test_the_hole_was_real(make_repo: Any) -> None:
    """The example above: git's three-dot diff, from one merge base, shows
    nothing of what the merge undoes."""
    repo = make_repo()
    repo.write(RUBRIC_PATH, RUBRIC)
    repo.write("readme.txt", "r\n")
    root = repo.commit("root")
    repo.git("checkout", "-q", "-b", "line", root)
    repo.write("guarded/key.txt", "k\n")
    line_tip = repo.commit("line")
    repo.git("checkout", "-q", "main")
    repo.write("plain/m1.txt", "m1\n")
    m1 = repo.commit("M1")
    repo.git("merge", "-q", "--no-edit", "--no-ff", line_tip)
    repo.git("checkout", "-q", "-b", "agent", root)
    repo.git("merge", "-q", "--no-edit", "--no-ff", m1)
    repo.git("merge", "-q", "--no-edit", "--no-ff", "-s", "ours", line_tip)
    bases = repo.git("merge-base", "--all", "main", "agent").split()
    assert sorted(bases) == sorted([m1, line_tip])
    from_m1 = repo.git("diff", "--name-only", m1, "agent", "--").split()
    merged = repo.git("merge-tree", "--write-tree", "main", "agent").split()[0]
    undone = repo.git("diff", "--name-only", "main", merged, "--").split()
    assert "guarded/key.txt" not in from_m1 and "guarded/key.txt" in undone
