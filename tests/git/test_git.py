"""gate/git/ against real repositories and the real git binary."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base.errors import GateError
from gate.changes.git import changes_from_git
from gate.git.parse import nul_tokens, parse_diff
from gate.git.repo import Repo
from gate.model.change import ADDED, DELETED, MODIFIED, RENAMED, TYPE_CHANGED, FileChange, FileTexts

AWKWARD = (
    "with space.txt",
    "tab\there.txt",
    "new\nline.txt",
    'double"quote.txt',
    "single'quote.txt",
    "back\\slash.txt",
    "ünïcødé/файл 名.txt",
    "-leading-dash.txt",
    "--option-like",
    "::error::x",
    "##[warning]y",
    "<b>html</b>&amp;.txt",
    "dir with space/-dash/\tnested.py",
    "@everyone.md",
)


def by_path(files: tuple[FileChange, ...]) -> dict[str, FileChange]:
    return {f.path: f for f in files}


def sha(repo: Any, rev: str) -> str:
    return str(repo.git("rev-parse", rev).strip())


@pytest.fixture
def base_repo(repo: Any) -> Any:
    repo.write("README.md", "readme\n")
    repo.commit("base")
    return repo


# -- diff -----------------------------------------------------------------


@pytest.mark.parametrize("name", AWKWARD)
def test_awkward_name_added_is_reported_verbatim(base_repo: Any, name: str) -> None:
    base = base_repo.head()
    base_repo.write(name, "one\ntwo\n")
    head = base_repo.commit("add")
    files = Repo(base_repo.root).diff(base, head)
    assert files == (FileChange(path=name, status=ADDED, added=2, new_mode="100644"),)


def test_all_awkward_names_in_one_diff_keep_their_order_and_counts(base_repo: Any) -> None:
    base = base_repo.head()
    for i, name in enumerate(AWKWARD):
        base_repo.write(name, "x\n" * (i + 1))
    head = base_repo.commit("add all")
    files = Repo(base_repo.root).diff(base, head)
    assert [f.path for f in files] == sorted(AWKWARD)
    assert {f.path: f.added for f in files} == {n: i + 1 for i, n in enumerate(AWKWARD)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("-dash old.py", "new\nline.py"),
        ("secrets/keys.py", "public/keys.py"),
        ("::error::a", "ünï/b"),
    ],
)
def test_rename_is_one_change_touching_both_paths(repo: Any, old: str, new: str) -> None:
    body = "".join(f"line {i}\n" for i in range(20))
    repo.write(old, body)
    base = repo.commit("base")
    repo.git("--literal-pathspecs", "rm", "-q", "--", old)
    repo.write(new, body + "one more\n")
    head = repo.commit("rename")
    (change,) = Repo(repo.root).diff(base, head)
    assert change.status == RENAMED
    assert (change.old_path, change.path) == (old, new)
    assert (change.added, change.deleted) == (1, 0)
    assert change.touched == (old, new)


def test_binary_file_counts_every_line_of_both_blobs(repo: Any) -> None:
    repo.write("blob.bin", b"\0\1\2\n" * 100)
    repo.write("gone.bin", b"\0\n\n")
    base = repo.commit("base")
    repo.write("blob.bin", b"\0\3\4\n" * 50 + b"no newline at the end")
    repo.write("new.bin", b"\0" * 10)
    repo.remove("gone.bin")
    head = repo.commit("binary")
    files = by_path(Repo(repo.root).diff(base, head))
    assert files["blob.bin"] == FileChange(
        path="blob.bin",
        added=51,
        deleted=100,
        binary=True,
        old_mode="100644",
        new_mode="100644",
    )
    assert files["new.bin"] == FileChange(
        path="new.bin", status=ADDED, added=1, deleted=0, binary=True, new_mode="100644"
    )
    assert files["gone.bin"] == FileChange(
        path="gone.bin", status=DELETED, added=0, deleted=2, binary=True, old_mode="100644"
    )


def test_one_nul_byte_makes_a_text_file_count_whole(repo: Any) -> None:
    lines = [f"line {i}\n" for i in range(1000)]
    repo.write("big.py", "".join(lines))
    base = repo.commit("base")
    lines[500] = "line\0 500\n"
    repo.write("big.py", "".join(lines))
    head = repo.commit("nul")
    (change,) = Repo(repo.root).diff(base, head)
    assert change.binary
    assert (change.added, change.deleted) == (1000, 1000)


def test_binary_rename_and_mode_change_without_new_content_count_zero(repo: Any) -> None:
    repo.write("a.bin", b"\0a\nb\n")
    repo.write("run.bin", b"\0x\n")
    base = repo.commit("base")
    repo.git("mv", "a.bin", "moved.bin")
    (repo.root / "run.bin").chmod(0o755)
    head = repo.commit("move and chmod")
    files = by_path(Repo(repo.root).diff(base, head))
    assert (files["moved.bin"].status, files["moved.bin"].old_path) == (RENAMED, "a.bin")
    assert all(f.binary and (f.added, f.deleted) == (0, 0) for f in files.values())


def test_a_binary_blob_over_the_big_file_threshold_is_too_large_to_count(repo: Any) -> None:
    repo.write("small.bin", b"\0\n" * 10)
    repo.write("big.bin", b"\0\n" * 10)
    repo.write("big.txt", "x\n" * 10)
    base = repo.commit("base")
    repo.write("small.bin", b"\0\n" * 2000)  # 4000 bytes: counted
    repo.write("big.bin", b"\0\n" * 2049)  # 4098 bytes: over the threshold
    repo.write("big.txt", "x\n" * 2049)  # git calls a text file that big binary too
    head = repo.commit("grow")
    files = by_path(Repo(repo.root, big_file=4096).diff(base, head))
    assert (files["small.bin"].added, files["small.bin"].deleted) == (2000, 10)
    assert files["small.bin"].uncounted is None
    for name in ("big.bin", "big.txt"):
        assert files[name].binary
        assert (files[name].added, files[name].deleted) == (None, None)
        assert files[name].uncounted == (
            "git calls it binary and it is over 4096 bytes, too large to count"
        )
    # the same change under the default threshold is counted in full
    files = by_path(Repo(repo.root).diff(base, head))
    assert (files["big.txt"].added, files["big.txt"].deleted, files["big.txt"].binary) == (
        2039,
        0,
        False,
    )


def _sized(size: int) -> bytes:
    return (b"\0\n" * (size // 2 + 1))[:size]


@pytest.mark.parametrize("limit", [4096, 1 << 20])
def test_blobs_over_the_threshold_are_read_past_and_the_blobs_after_them_count(
    repo: Any, limit: int
) -> None:
    """`gate check` counts every changed blob as the raw records name them,
    in path order: one over the threshold, whole in the buffer or spread
    over many reads, is read past, and the blobs after it still count."""
    sizes = {"a.bin": limit - 1, "b.bin": limit + 1, "c.bin": 3 * (1 << 20) + 5}
    for name in sizes:
        repo.write(name, b"\0\n" * 3)
    repo.write("d.txt", "x\n")
    base = repo.commit("base")
    for name, size in sizes.items():
        repo.write(name, _sized(size))
    repo.write("d.txt", "x\n" * 100)
    head = repo.commit("grow")
    beside = by_path(Repo(repo.root, big_file=limit).diff(base, head))  # the counter
    after = by_path(changes_from_git(Repo(repo.root, big_file=limit), base, head, ()).files)
    assert beside == after
    lines = len(_sized(limit - 1).splitlines())
    assert (beside["a.bin"].added, beside["a.bin"].deleted) == (lines, 3)
    for name in ("b.bin", "c.bin"):
        assert (beside[name].added, beside[name].deleted) == (None, None)
        assert beside[name].uncounted is not None
    assert (beside["d.txt"].added, beside["d.txt"].deleted) == (99, 0)


def test_a_text_side_without_a_count_is_uncounted_never_judged_by_git_s_numbers(
    repo: Any,
) -> None:
    """Fail closed: a text file whose blob the counter could not count (None,
    as for a blob over the threshold) keeps no line counts, only the reason."""
    from gate.git.counts import count_lone_cr
    from gate.git.parse import Uncounted
    from gate.model.change import LineCount

    change = FileChange(path="a.txt", status="modified", added=1, deleted=1)
    files = [change]
    counted = {"1" * 40: None, "2" * 40: LineCount(3, False)}
    note = count_lone_cr(Repo(repo.root), files, [Uncounted(0, "1" * 40, "2" * 40)], counted)
    assert note is None
    assert (files[0].added, files[0].deleted) == (None, None)
    assert files[0].uncounted is not None and "too large to count" in files[0].uncounted


def test_gitattributes_in_the_change_cannot_hide_lines(repo: Any) -> None:
    repo.write("a.py", "a\n")
    base = repo.commit("base")
    repo.write(".gitattributes", "* -diff\n*.py binary\n")
    repo.write("a.py", "a\n" + "b\n" * 50)
    head = repo.commit("hide")
    files = by_path(Repo(repo.root).diff(base, head))
    assert files["a.py"].binary is False
    assert files["a.py"].added == 50


def test_symlink_added_retargeted_and_type_changed(repo: Any) -> None:
    repo.write("target", "t\n")
    repo.write("plain", "p\n")
    repo.symlink("link", "target")
    base = repo.commit("base")
    (repo.root / "link").unlink()
    repo.symlink("link", "elsewhere")
    (repo.root / "plain").unlink()
    repo.symlink("plain", "target")
    repo.symlink("new link", "::error::x")
    head = repo.commit("links")
    files = by_path(Repo(repo.root).diff(base, head))
    assert files["link"].status == MODIFIED
    assert (files["link"].old_mode, files["link"].new_mode) == ("120000", "120000")
    assert files["plain"].status == TYPE_CHANGED
    assert (files["plain"].old_mode, files["plain"].new_mode) == ("100644", "120000")
    assert files["new link"].status == ADDED and files["new link"].new_mode == "120000"
    texts = Repo(repo.root).read_texts(base, head, ["new link", "link"])
    assert texts["new link"] == FileTexts(base=None, head="::error::x")
    assert texts["link"] == FileTexts(base="target", head="elsewhere")


def test_mode_only_change_is_touched_with_zero_lines(repo: Any) -> None:
    repo.write("run.sh", "echo hi\n")
    base = repo.commit("base")
    (repo.root / "run.sh").chmod(0o755)
    head = repo.commit("chmod")
    assert Repo(repo.root).diff(base, head) == (
        FileChange(path="run.sh", status=MODIFIED, old_mode="100644", new_mode="100755"),
    )


def test_submodule_entry_added_and_moved_counts_zero_lines(repo: Any) -> None:
    repo.write("a.txt", "a\n")
    first = repo.commit("base")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{first},vendor/lib")
    repo.git("commit", "-q", "-m", "add submodule")
    added = repo.head()
    repo.write("a.txt", "b\n")
    repo.git("add", "a.txt")
    repo.git("commit", "-q", "-m", "another")
    second = repo.head()
    repo.git("update-index", "--cacheinfo", f"160000,{second},vendor/lib")
    repo.git("commit", "-q", "-m", "move submodule")
    moved = repo.head()
    git = Repo(repo.root)
    assert git.diff(first, added) == (
        FileChange(path="vendor/lib", status=ADDED, new_mode="160000"),
    )
    (change,) = [f for f in git.diff(second, moved) if f.path == "vendor/lib"]
    assert change.submodule and change.status == MODIFIED
    assert (change.added, change.deleted) == (0, 0)
    assert git.read_texts(second, moved, ["vendor/lib"]) == {
        "vendor/lib": FileTexts(base=None, head=None)
    }


def test_a_file_replaced_by_a_submodule_still_counts_its_lines(repo: Any) -> None:
    repo.write("vendored.py", "a\nb\nc\n")
    repo.write("blob", b"\0\n\0\n")
    first = repo.commit("base")
    repo.remove("vendored.py")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{first},vendored.py")
    repo.git("commit", "-q", "-m", "file -> submodule")
    to_sub = repo.head()
    repo.git("rm", "-q", "--cached", "vendored.py")
    repo.write("vendored.py", b"x\0\ny\n")
    repo.git("add", "vendored.py")
    repo.remove("blob")
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{first},blob")
    repo.git("commit", "-q", "-m", "submodule -> binary file, binary file -> submodule")
    back = repo.head()
    git = Repo(repo.root)
    (change,) = git.diff(first, to_sub)
    assert (change.old_mode, change.new_mode, change.status) == ("100644", "160000", TYPE_CHANGED)
    assert (change.added, change.deleted) == (0, 3)
    files = by_path(git.diff(to_sub, back))
    assert (files["vendored.py"].added, files["vendored.py"].deleted) == (2, 0)
    assert files["vendored.py"].new_mode == "100644"
    assert (files["blob"].added, files["blob"].deleted) == (0, 2)
    assert files["blob"].new_mode == "160000"


def test_deleted_file_counts_its_lines(repo: Any) -> None:
    repo.write("gone.py", "a\nb\nc\n")
    repo.write("-gone", "x\n")
    base = repo.commit("base")
    repo.remove("gone.py")
    repo.remove("-gone")
    head = repo.commit("delete")
    assert Repo(repo.root).diff(base, head) == (
        FileChange(path="-gone", status=DELETED, added=0, deleted=1, old_mode="100644"),
        FileChange(path="gone.py", status=DELETED, added=0, deleted=3, old_mode="100644"),
    )


def test_empty_change(base_repo: Any) -> None:
    base = base_repo.head()
    head = base_repo.commit("empty")
    assert base != head
    assert Repo(base_repo.root).diff(base, head) == ()


def test_merge_base_diff_ignores_what_base_did_after_the_fork(repo: Any) -> None:
    repo.write("shared.py", "s\n")
    fork = repo.commit("fork point")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("feature.py", "f\n")
    head = repo.commit("feature work")
    repo.checkout("main")
    repo.write("main_only.py", "m\n")
    repo.write("shared.py", "s\nchanged on main\n")
    base = repo.commit("main moved on")
    git = Repo(repo.root)
    assert git.merge_base(base, head) == fork
    assert [f.path for f in git.diff(base, head)] == ["feature.py"]
    # the two-dot form would also show main's own commits (reversed)
    assert [f.path for f in git.diff(base, head, merge_base=False)] == [
        "feature.py",
        "main_only.py",
        "shared.py",
    ]
    changes = changes_from_git(git, "main", "feature", ["shared.py"], stdout="EXIT=0")
    assert (changes.base, changes.head) == (base, head)
    assert changes.texts["shared.py"] == FileTexts(base="s\n", head="s\n")
    assert changes.stdout == "EXIT=0"


def test_grafts_and_replace_refs_never_move_the_merge_base(repo: Any) -> None:
    """Local history rewrites (`info/grafts`, `git replace --graft`) that
    make a commit of the change look like an ancestor of the base would
    shrink `base...head` to what follows it: the gate judges the commits'
    own parents, whatever grafts say (generated over every commit pair)."""
    repo.write("a.py", "a\n")
    commits = [repo.commit("fork")]
    repo.git("checkout", "-q", "-b", "feature")
    for i in range(3):
        repo.write(f"secrets/k{i}", f"{i}\n")
        commits.append(repo.commit(f"feature {i}"))
    repo.checkout("main")
    for i in range(2):
        repo.write(f"m{i}.py", f"{i}\n")
        commits.append(repo.commit(f"main {i}"))
    git = Repo(repo.root)
    expected = (git.merge_bases("main", "feature"), git.diff("main", "feature"))
    assert expected[0] == [commits[0]] and len(expected[1]) == 3
    grafts = repo.root / ".git" / "info" / "grafts"
    pick = st.sampled_from(commits)

    @settings(max_examples=25, deadline=None)
    @given(st.lists(st.tuples(pick, st.lists(pick, max_size=2)), min_size=1, max_size=3), pick)
    def judged(lines: list[tuple[str, list[str]]], replaced: str) -> None:
        parents = [p for c, ps in lines if c == replaced for p in ps if p != replaced]
        # refused when the graft changes nothing (then there is no ref to judge)
        subprocess.run(
            ["git", "replace", "-f", "--graft", replaced, *parents[:1]],
            cwd=repo.root,
            capture_output=True,
            check=False,
        )
        grafts.parent.mkdir(exist_ok=True)
        grafts.write_text("".join(" ".join([c, *ps]) + "\n" for c, ps in lines))
        try:
            fresh = Repo(repo.root)
            assert (fresh.merge_bases("main", "feature"), fresh.diff("main", "feature")) == expected
        finally:
            grafts.unlink()
            subprocess.run(["git", "replace", "-d", replaced], cwd=repo.root, capture_output=True)

    judged()


def test_diff_against_a_tree_from_write_tree(base_repo: Any, tmp_path: Path) -> None:
    base = base_repo.head()
    index = tmp_path / "alt-index"
    git = Repo(base_repo.root)
    env = {"GIT_INDEX_FILE": str(index)}
    git.run(["read-tree", base], env=env)
    blob = git.run(["hash-object", "-w", "--stdin"], input=b"new\nfile\n").decode().strip()
    git.run(["update-index", "--add", "--cacheinfo", f"100644,{blob},-dash new"], env=env)
    tree = git.run(["write-tree"], env=env).decode().strip()
    assert git.diff(base, tree, merge_base=False) == (
        FileChange(path="-dash new", status=ADDED, added=2, new_mode="100644"),
    )
    assert git.read_texts(base, tree, ["-dash new", "README.md"]) == {
        "-dash new": FileTexts(base=None, head="new\nfile\n"),
        "README.md": FileTexts(base="readme\n", head="readme\n"),
    }
    assert base_repo.status() == ""  # the work tree and real index are untouched


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("diff.renames", "false"),
        ("diff.relative", "true"),
        ("diff.noprefix", "true"),
        ("diff.external", "false"),
        ("core.quotepath", "true"),
        ("diff.ignoreSubmodules", "all"),
        ("color.diff", "always"),
    ],
)
def test_user_config_does_not_change_the_diff(repo: Any, key: str, value: str) -> None:
    repo.write("sub/old name.py", "".join(f"{i}\n" for i in range(30)))
    repo.write("ünï.txt", "u\n")
    base = repo.commit("base")
    repo.git("mv", "sub/old name.py", "sub/new name.py")
    repo.write("ünï.txt", "u\nv\n")
    head = repo.commit("change")
    expected = Repo(repo.root).diff(base, head)
    repo.git("config", key, value)
    (repo.root / "sub" / "deeper").mkdir()
    assert Repo(repo.root / "sub" / "deeper").diff(base, head) == expected
    assert [f.status for f in expected] == [RENAMED, MODIFIED]


def test_callers_git_dir_and_index_are_ignored(
    make_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = make_repo("other")
    other.write("other.txt", "o\n")
    other.commit("other")
    mine = make_repo("mine")
    mine.write("mine.txt", "m\n")
    base = mine.commit("mine")
    monkeypatch.setenv("GIT_DIR", str(other.root / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other.root / ".git" / "index"))
    git = Repo(mine.root)
    assert git.rev_parse("HEAD") == base
    assert git.read_blob("HEAD", "mine.txt") == b"m\n"


def test_parser_is_independent_of_chunk_boundaries(repo: Any) -> None:
    names = [*AWKWARD, "a.bin"]
    for name in AWKWARD:
        repo.write(name, "x\n")
    repo.write("old/moved.py", "".join(f"{i}\n" for i in range(20)))
    base = repo.commit("base")
    for i, name in enumerate(AWKWARD):
        repo.write(name, "x\n" + "y\n" * i)
    repo.write("a.bin", b"\0bin")
    repo.git("mv", "old/moved.py", "new\nmoved.py")
    head = repo.commit("change")
    out = subprocess.run(
        ["git", "diff", "--raw", "--numstat", "-z", "-M", base, head],
        cwd=repo.root,
        capture_output=True,
        check=True,
    ).stdout
    expected = sorted(parse_diff(nul_tokens(io.BytesIO(out))), key=lambda f: f.path)
    assert len(expected) == len(names)
    for size in (1, 2, 3, 7, 64):
        got = sorted(parse_diff(nul_tokens(io.BytesIO(out), size)), key=lambda f: f.path)
        assert got == expected
    # parse_diff alone leaves a binary file's counts unknown; the diff counts its blobs
    assert by_path(tuple(expected))["a.bin"].added is None
    counted = [f._replace(added=1, deleted=0) if f.path == "a.bin" else f for f in expected]
    assert list(Repo(repo.root).diff(base, head)) == counted


# -- revisions ------------------------------------------------------------


def test_rev_parse_resolves_branches_tags_and_trees(base_repo: Any) -> None:
    head = base_repo.head()
    base_repo.git("tag", "-a", "-m", "annotated", "v1")
    git = Repo(base_repo.root)
    assert git.rev_parse("main") == head
    assert git.rev_parse("v1") == head  # peeled to the commit
    assert git.rev_parse("HEAD", peel="tree") == sha(base_repo, "HEAD^{tree}")


@pytest.mark.parametrize("rev", ["no-such-branch", "--output=/tmp/x", "-n", "deadbeef" * 5])
def test_unknown_revision_names_it_and_the_fix(base_repo: Any, rev: str) -> None:
    with pytest.raises(GateError) as info:
        Repo(base_repo.root).rev_parse(rev)
    assert repr(rev) in info.value.message
    assert "fetch" in info.value.message
    assert info.value.code == 2


def test_unknown_revision_in_shallow_clone_says_fetch_depth(repo: Any, tmp_path: Path) -> None:
    repo.write("a.txt", "1\n")
    old = repo.commit("one")
    repo.write("a.txt", "2\n")
    repo.commit("two")
    clone = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo.root}", str(clone)],
        check=True,
        capture_output=True,
    )
    git = Repo(clone)
    assert git.is_shallow()
    with pytest.raises(GateError, match="fetch-depth: 0") as info:
        git.rev_parse(old)
    assert old in info.value.message


def test_unrelated_histories_have_no_merge_base(base_repo: Any) -> None:
    main = base_repo.head()
    base_repo.git("checkout", "-q", "--orphan", "island")
    base_repo.write("island.txt", "i\n")
    island = base_repo.commit("island")
    with pytest.raises(GateError, match="no merge base"):
        Repo(base_repo.root).merge_base(main, island)


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(GateError, match="not a git repository"):
        Repo(tmp_path).rev_parse("HEAD")


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(GateError, match="does not exist"):
        Repo(tmp_path / "nope").rev_parse("HEAD")


def test_git_failure_names_the_first_line_of_stderr(base_repo: Any) -> None:
    with pytest.raises(GateError, match=r"git cat-file failed: fatal: "):
        Repo(base_repo.root).run(["cat-file", "-p", "nope:nope"])


# -- blobs ----------------------------------------------------------------


@pytest.mark.parametrize("name", AWKWARD)
def test_read_blob_of_awkward_names(base_repo: Any, name: str) -> None:
    base_repo.write(name, f"content of {name}\n")
    head = base_repo.commit("add")
    git = Repo(base_repo.root)
    assert git.read_blob(head, name) == f"content of {name}\n".encode()
    assert git.read_blob("HEAD~1", name) is None


def test_read_blob_absent_directory_and_binary(repo: Any) -> None:
    repo.write("dir/file.txt", "f\n")
    repo.write("raw.bin", b"\0\xff\xfe")
    repo.commit("base")
    git = Repo(repo.root)
    assert git.read_blob("HEAD", "dir") is None
    assert git.read_blob("HEAD", "missing/file") is None
    assert git.read_blob("HEAD", "raw.bin") == b"\0\xff\xfe"


def test_read_texts_decodes_reversibly_and_reports_absence(repo: Any) -> None:
    repo.write("latin1.txt", b"caf\xe9\n")
    repo.write("same.txt", "s\n")
    base = repo.commit("base")
    repo.remove("latin1.txt")
    repo.write("new\nfile", "n\n")
    head = repo.commit("head")
    texts = Repo(repo.root).read_texts(base, head, ["latin1.txt", "new\nfile", "same.txt", "x"])
    assert texts == {
        "latin1.txt": FileTexts(base="caf\udce9\n", head=None),  # gate.base.text.decode
        "new\nfile": FileTexts(base=None, head="n\n"),
        "same.txt": FileTexts(base="s\n", head="s\n"),
        "x": FileTexts(base=None, head=None),
    }


def test_one_diff_and_one_cat_file_process_per_change(
    repo: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"f{i}.txt" for i in range(200)]
    repo.write("seed.txt", "s\n")
    base = repo.commit("base")
    for name in names:
        repo.write(name, f"{name}\n")
    head = repo.commit("many")
    real = shutil.which("git")
    assert real is not None
    log = tmp_path / "git.log"
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(
        f'#!/bin/sh\necho "$*" | head -c 2000 >> "{log}"\necho >> "{log}"\nexec "{real}" "$@"\n'
    )
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    changes = changes_from_git(Repo(repo.root), base, head, names)
    assert len(changes.files) == 200
    assert all(changes.texts[n] == FileTexts(base=None, head=f"{n}\n") for n in names)
    calls = log.read_text().splitlines()
    # one for the texts, one for the changed blobs' line ends (a carriage
    # return alone, which git's counts miss)
    assert sum(" cat-file " in c for c in calls) == 2
    # the counts, and the copies of base files (a small base: near copies too)
    assert sum(" diff " in c for c in calls) == 2
    assert sum(" ls-tree " in c for c in calls) == 1


def test_resolve_many_matches_rev_parse_and_keeps_its_messages(base_repo: Any) -> None:
    base_repo.git("checkout", "-q", "-b", "feature")
    head = base_repo.commit("feature")
    git = Repo(base_repo.root)
    assert git.resolve("main", "feature", "HEAD") == [
        git.rev_parse("main"),
        head,
        head,
    ]
    assert git.git_dir() == str((base_repo.root / ".git").resolve())
    assert git.is_shallow() is False
    for revs in (("main", "nope"), ("-n", "main"), ("main", "HEAD^{tree}")):
        with pytest.raises(GateError, match="revision"):
            Repo(base_repo.root).resolve(*revs)


def test_a_full_sha_that_does_not_exist_is_an_error_not_an_absent_file(base_repo: Any) -> None:
    git = Repo(base_repo.root)
    ghost = "0123456789abcdef" * 2 + "01234567"
    head = base_repo.head()
    with pytest.raises(GateError, match=ghost):
        git.read_texts(ghost, head, ["README.md"])
    with pytest.raises(GateError, match=ghost):
        git.read_texts(head, ghost, ["README.md"])
    with pytest.raises(GateError, match=ghost):
        git.read_blob(ghost, "README.md")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
def test_repository_owned_by_another_user_names_safe_directory(
    base_repo: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SUDO_UID", raising=False)
    for path in [base_repo.root, *base_repo.root.rglob("*")]:
        os.lchown(path, 65534, 65534)
    with pytest.raises(GateError, match=r"safe\.directory"):
        Repo(base_repo.root).rev_parse("HEAD")


def test_status_strings_agree_with_the_change_model() -> None:
    """gate.git names statuses without importing gate.model.change (start-up speed)."""
    from gate.git import parse
    from gate.model import change as changes

    assert set(parse._STATUS.values()) | {parse.UNKNOWN} <= set(changes.STATUSES)
    assert parse._STATUS == {
        "A": changes.ADDED,
        "D": changes.DELETED,
        "M": changes.MODIFIED,
        "R": changes.RENAMED,
        "C": changes.COPIED,
        "T": changes.TYPE_CHANGED,
    }
    assert parse.MODE_SUBMODULE == changes.MODE_SUBMODULE


def test_check_starts_git_before_loading_dataclasses_or_yaml() -> None:
    """The console path up to the diff imports neither the rubric stack nor dataclasses."""
    import subprocess
    import sys

    code = (
        "import sys, gate.commands.cli, gate.commands.check;"
        "mods = ('dataclasses', 'yaml', 'jsonschema', 'github');"
        "print(sorted(m for m in mods if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_raw_records_pair_with_the_numstat_block_after_them() -> None:
    """git prints every raw record before any numstat record; each file gets
    its counts, and a rename and a copy touch both of their paths."""
    z = b"\0"
    raw = (
        b":100644 100644 aaa bbb M"
        + z
        + b"a.py"
        + z
        + b":100644 100644 aaa bbb R090"
        + z
        + b"old/x.py"
        + z
        + b"new/x.py"
        + z
        + b":100644 100644 aaa bbb C075"
        + z
        + b"src.py"
        + z
        + b"copy.py"
        + z
    )
    numstat = b"1\t1\ta.py" + z + b"2\t0\t" + z + b"old/x.py" + z + b"new/x.py" + z
    numstat += b"3\t0\t" + z + b"src.py" + z + b"copy.py" + z
    files = parse_diff(nul_tokens(io.BytesIO(raw + numstat)))
    assert [p for f in files for p in f.touched] == [
        "a.py",
        "old/x.py",
        "new/x.py",
        "src.py",
        "copy.py",
    ]
    assert [(f.added, f.deleted) for f in files] == [(1, 1), (2, 0), (3, 0)]


def test_file_changes_are_immutable() -> None:
    from gate.model.change import FileChange

    change = FileChange(path="a.py")
    with pytest.raises(AttributeError):
        change.path = "b.py"  # type: ignore[misc]
