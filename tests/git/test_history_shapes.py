"""The shapes real histories take, judged as `gate check` judges them.

`bench/bench_histories.py` runs the gate over the histories of public
repositories; this test generates the shapes those histories hold, in a
real repository, and applies the same oracle
(`bench.bench_histories.disagreements`): every file's counts equal `git diff
--numstat -M`, except the counts docs/hostile-input.md documents (a file git
calls binary, a carriage return alone, a submodule side), which are checked
against the blobs.  And `gate check` on any pair exits 0 or 1, or 2 only
where git has no merge base either.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.bench_histories import disagreements
from gate.base.errors import GateError
from gate.changes.git import changes_from_git
from gate.commands.cli import main
from gate.git.repo import Repo
from tests.gitrepo import GitRepo

NAMES = ["a.txt", "b.py", "d/c.txt", "d/e/f.md", "x", "x/y.txt", "s p", "ü.txt"]
ENDINGS = [b"\n", b"\r\n", b"\r", b""]

line = st.builds(
    lambda text, end: text + end,
    st.sampled_from([b"one", b"two", b"three", b"", b"nul\0byte", b"  indented"]),
    st.sampled_from(ENDINGS),
)
content = st.lists(line, max_size=12).map(b"".join)

RUBRIC = """\
version: 1
rules:
  - {id: LINES, kind: max_lines, limit: 20}
  - {id: FILES, kind: max_files, limit: 3}
  - {id: TESTS, kind: test_drift}
"""

# One step of a history: what happens to the tree before a commit.
step = st.one_of(
    st.tuples(st.just("write"), st.sampled_from(NAMES), content),
    st.tuples(st.just("delete"), st.sampled_from(NAMES), st.just(b"")),
    st.tuples(st.just("rename"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("chmod"), st.sampled_from(NAMES), st.just(b"")),
    st.tuples(st.just("symlink"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("submodule"), st.sampled_from(NAMES), st.sampled_from("123456789abcdef")),
    st.tuples(st.just("empty"), st.just(""), st.just(b"")),
    st.tuples(st.just("branch"), st.just(""), st.just(b"")),
    st.tuples(st.just("merge"), st.just(""), st.just(b"")),
)


def clear(root: Path, name: str) -> None:
    """Make room for a file at `name`: whatever is there or on the way goes
    (a file where a folder must be, a folder where the file must be)."""
    parts = name.split("/")
    for i in range(1, len(parts) + 1):
        at = root.joinpath(*parts[:i])
        if at.is_symlink() or at.is_file():
            at.unlink()
            return
    target = root / name
    if target.is_dir():
        subprocess.run(["rm", "-rf", str(target)], check=True)


def unindex_parents(repo: GitRepo, name: str) -> None:
    """Drop from the index the entries on the way to `name` (a file `x`
    before a submodule at `x/y.txt`): `clear` empties the work tree's way,
    and `update-index --cacheinfo` would refuse a path that is both a file
    and a folder."""
    parts = name.split("/")
    for i in range(1, len(parts)):
        repo.git("update-index", "--force-remove", "--", "/".join(parts[:i]))


def apply(repo: GitRepo, op: str, name: str, arg: object) -> None:
    root = repo.root
    if op in ("write", "symlink", "submodule"):
        unindex_parents(repo, name)
    if op == "write":
        assert isinstance(arg, bytes)
        clear(root, name)
        repo.git("rm", "-q", "--cached", "-r", "--ignore-unmatch", "--", name)
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(arg)
    elif op == "delete":
        repo.git("rm", "-q", "-r", "--ignore-unmatch", "--cached", "--", name)
        clear(root, name)
    elif op == "rename":
        assert isinstance(arg, str)
        if (root / name).is_file() and not (root / name).is_symlink() and name != arg:
            data = (root / name).read_bytes()
            apply(repo, "delete", name, b"")
            apply(repo, "write", arg, data + b"moved\n" if len(data) % 2 else data)
    elif op == "chmod":
        if (root / name).is_file() and not (root / name).is_symlink():
            (root / name).chmod((root / name).stat().st_mode ^ 0o111)
    elif op == "symlink":
        clear(root, name)
        repo.git("rm", "-q", "--cached", "-r", "--ignore-unmatch", "--", name)
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).symlink_to(str(arg))
    elif op == "submodule":
        clear(root, name)
        repo.git("rm", "-q", "--cached", "-r", "--ignore-unmatch", "--", name)
        sha = str(arg) * 40
        repo.git("update-index", "--add", "--cacheinfo", f"160000,{sha},{name}")
        (root / name).mkdir(parents=True)  # an unpopulated submodule: `add -A` keeps it


def build(repo: GitRepo, steps: list[tuple[str, str, object]]) -> list[str]:
    """Commit each step on main; `branch` forks a side branch from here and
    `merge` merges it back (both ways, so merge bases cross).  Returns
    every commit made."""
    commits = [repo.commit("root")]
    side: str | None = None
    for op, name, arg in steps:
        if op == "branch":
            side = repo.head()
            continue
        if op == "merge":
            if side is None:
                continue
            main = repo.head()
            repo.git("checkout", "-q", "--detach", side)
            (repo.root / "side.txt").write_bytes(f"side {len(commits)}\n".encode())
            repo.git("add", "side.txt")
            repo.git("commit", "-q", "-m", "side")
            theirs = repo.head()
            repo.git("merge", "-q", "--no-edit", "-s", "ours", main)
            side = repo.head()
            commits.append(theirs)
            repo.git("checkout", "-q", "main")
            repo.git("merge", "-q", "--no-edit", "-s", "ours", theirs)
            commits.append(repo.head())
            continue
        apply(repo, op, name, arg)
        repo.git("add", "-A")
        repo.git("commit", "-q", "--allow-empty", "--no-verify", "-m", op)
        commits.append(repo.head())
    return commits


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=10), picks=st.data())
def test_every_shape_of_history_counts_as_git_does_or_as_documented(
    make_repo: type[GitRepo],
    capsys: pytest.CaptureFixture[str],
    steps: list[tuple[str, str, object]],
    picks: st.DataObject,
) -> None:
    repo = make_repo()  # type: ignore[call-arg]
    commits = build(repo, steps)
    pairs = list(itertools.pairwise(commits))
    pairs.append((commits[0], commits[-1]))
    pairs.append(picks.draw(st.tuples(st.sampled_from(commits), st.sampled_from(commits))))
    rubric = repo.root.parent / f"{repo.root.name}-rubric.yml"
    rubric.write_text(RUBRIC)
    for base, head in pairs:
        old = repo.git("merge-base", base, head).strip()
        try:
            change = changes_from_git(Repo(repo.root), base, head, ())
        except GateError as exc:
            # documented: several merge bases whose merge conflicts cannot be judged
            assert len(repo.git("merge-base", "--all", base, head).split()) > 1, exc.message
            assert "several merge bases" in exc.message and "conflicts" in exc.message
            argv = ["check", "--repo", str(repo.root), "--base", base, "--head", head]
            assert main([*argv, "--rubric-file", str(rubric)]) == 2
            assert "several merge bases" in capsys.readouterr().err
            continue
        problems, _ = disagreements(str(repo.root), old, head, change.files)
        assert problems == [], (base, head, problems)
        argv = ["check", "--repo", str(repo.root), "--base", base, "--head", head]
        code = main([*argv, "--rubric-file", str(rubric), "--format", "json"])
        out, err = capsys.readouterr()
        assert code in (0, 1), err
        stats = json.loads(out)["stats"]
        assert stats["added_lines"] == sum(f.added or 0 for f in change.files)
        assert stats["deleted_lines"] == sum(f.deleted or 0 for f in change.files)


def judge(repo: GitRepo, base: str, head: str, rubric: Path) -> tuple[int, str, str]:
    """`gate check` in a subprocess, as a user runs it: exit code, stdout and stderr."""
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "check", "--repo", str(repo.root), "--base", base,
         "--head", head, "--rubric-file", str(rubric), "--format", "json"],
        capture_output=True, check=False,
    )  # fmt: skip
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode(errors="replace")


@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    missing=st.sampled_from(["base only", "old side", "new side", "renamed"]),
    size=st.integers(min_value=1, max_value=3000),
)
def test_a_clone_missing_an_object_the_diff_reads_cannot_be_judged_and_says_which(
    make_repo: type[GitRepo], tmp_path: Path, missing: str, size: int
) -> None:
    """A snapshot or damaged clone lacks blobs (the public snapshots
    bench_histories reads lack their largest files).  Where the change's own
    diff needs one, `gate check` exits 2 naming the object and the fix: never
    a verdict on a change it could not read, never a traceback.  A base file
    the change never touches is read only by the near-copy search: the change
    is judged as git counts it, with a note naming the object (the search is
    limited as over its budget; exact copies are still found by name)."""
    repo = make_repo()  # type: ignore[call-arg]
    body = "".join(f"line {i}\n" for i in range(size)).encode()
    (repo.root / "big.txt").write_bytes(body)
    (repo.root / "keep.txt").write_bytes(b"keep\n")
    base = repo.commit("base")
    if missing == "base only":
        (repo.root / "new.txt").write_bytes(b"a new file\n")
        lost = body
    elif missing == "old side":
        (repo.root / "big.txt").write_bytes(body + b"more\n")
        lost = body
    elif missing == "new side":
        (repo.root / "big.txt").write_bytes(body + b"more\n")
        lost = body + b"more\n"
    else:
        (repo.root / "big.txt").rename(repo.root / "moved.txt")
        (repo.root / "moved.txt").write_bytes(body + b"more\n")
        lost = body
    head = repo.commit("head")
    oid = repo.git("hash-object", "--stdin", input=lost).strip()
    (repo.root / ".git" / "objects" / oid[:2] / oid[2:]).unlink()
    rubric = tmp_path / f"rubric-{missing.replace(' ', '-')}.yml"
    rubric.write_text("version: 1\nrules:\n  - {id: LINES, kind: max_lines, limit: 100000}\n")
    code, out, err = judge(repo, base, head, rubric)
    assert "Traceback" not in err and "internal error" not in err, err
    if missing == "base only":
        assert code == 0, err
        report = json.loads(out)
        assert report["stats"]["added_lines"] == 1
        assert any(f"lacks object {oid}" in note for note in report["notes"]), report["notes"]
        return
    assert code == 2, err
    assert f"lacks object {oid}" in err or f"cannot read blob {oid}" in err, err
