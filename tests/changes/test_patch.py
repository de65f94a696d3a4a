"""`--patch` mode: purity scanner, apply into a temporary index, the CLI.

Real repositories (tests/conftest.py), the real git binary.  A patch is made
the way a user makes one: change files, `git diff`, revert.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from gate.base.errors import EXIT_ERROR, EXIT_FAIL, EXIT_PASS, EXIT_PATCH, GateError, PatchError
from gate.changes.patch import BaseIndex, apply_patch, read_patch
from gate.changes.purity import check_pure
from gate.commands.cli import main
from gate.git.repo import Repo
from gate.model.rubric import DEFAULT_RUBRIC_PATH
from gate.starter import demo_fixture
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]

# --- helpers ---------------------------------------------------------------


def fingerprint(repo: GitRepo) -> tuple[str, bytes, dict[str, bytes]]:
    """Everything a patch run must leave alone: status, the index bytes, every work-tree file."""
    files = {}
    for path in sorted(repo.root.rglob("*")):
        rel = path.relative_to(repo.root).as_posix()
        if rel == ".git" or rel.startswith(".git/") or path.is_dir():
            continue
        files[rel] = path.read_bytes()
    index = (repo.root / ".git" / "index").read_bytes()
    return repo.status(), index, files


def diff_of(repo: GitRepo, change: Callable[[], None], *args: str) -> bytes:
    """`git diff` of a real change to the work tree, then the change reverted."""
    change()
    repo.git("add", "-A")
    diff = repo.git_bytes("diff", "--cached", *args)
    repo.git("reset", "-q", "--hard", "HEAD")
    repo.git("clean", "-qfdx")
    return diff


def committed(repo: GitRepo, change: Callable[[], None], *args: str) -> tuple[str, str, bytes]:
    """Commit a change on top of HEAD: (base, expected tree, `git diff --binary base head`)."""
    base = repo.head()
    change()
    head = repo.commit("change")
    tree = repo.git("rev-parse", f"{head}^{{tree}}").strip()
    diff = repo.git_bytes("diff", "--binary", *args, base, head)
    repo.checkout(base)
    return base, tree, diff


def seed(repo: GitRepo) -> str:
    repo.write_many(demo_fixture.FILES)
    repo.write(DEFAULT_RUBRIC_PATH, demo_fixture.RUBRIC)
    return repo.commit("seed lab")


def honest_patch(repo: GitRepo) -> bytes:
    return diff_of(repo, lambda: repo.write("clamp_kit.py", demo_fixture.HONEST_FIX))


def cleanup_patch(repo: GitRepo) -> bytes:
    def change() -> None:
        repo.write("clamp_kit.py", demo_fixture.CLEANUP_KIT)
        repo.write("test_clamp.py", demo_fixture.CLEANUP_TEST)

    return diff_of(repo, change)


def check(
    repo: GitRepo, tmp_path: Path, data: bytes, *extra: str, name: str = "writer.patch"
) -> int:
    patch = tmp_path / name
    patch.write_bytes(data)
    return main(["check", "--patch", str(patch), "--repo", str(repo.root), *extra])


def fail_ids(capsys: pytest.CaptureFixture[str]) -> list[str]:
    out = capsys.readouterr().out
    report = json.loads(out)
    return list(report["failed"])


# --- check_pure: a table of tiny inputs -------------------------------------

GIT_MOD = b"diff --git a/f b/f\nindex 422c2b7..55dce13 100644\n--- a/f\n+++ b/f\n"
HUNK = b"@@ -1,2 +1,2 @@\n a\n-b\n+B\n"
BIN = (
    b"diff --git a/bin b/bin\nindex 88768ef..f68ed80 100644\nGIT binary patch\n"
    b"literal 6\nNcmZQzO3KVL0ssTy0d4>Q\n\nliteral 5\nMcmZQzOv=my00M6TI{*Lx\n\n"
)

PURE = {
    "git modification": GIT_MOD + HUNK,
    "plain diff -u with timestamps": (
        b"--- a/f\t2026-01-01 00:00:00.000000000 +0000\n"
        b"+++ b/f\t2026-01-01 00:00:01.000000000 +0000\n" + HUNK
    ),
    "diff -ruN command line": b"diff -ruN a/f b/f\n--- a/f\n+++ b/f\n" + HUNK,
    "no newline markers": (
        GIT_MOD + b"@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+B\n"
        b"\\ No newline at end of file\n"
    ),
    "blank line as empty context": GIT_MOD + b"@@ -1,3 +1,3 @@\n a\n\n-b\n+B\n",
    "counts omitted mean 1": GIT_MOD + b"@@ -2 +2 @@ def f():\n-b\n+B\n",
    "removed line that looks like a header": GIT_MOD + b"@@ -1,2 +1,1 @@\n a\n--- b\n",
    "added line that looks like a header": GIT_MOD + b"@@ -1,1 +1,2 @@\n a\n+++ b\n",
    "two hunks, two files": (
        GIT_MOD
        + HUNK
        + b"@@ -9,1 +9,1 @@\n-x\n+y\n"
        + b"diff --git a/g b/g\n--- a/g\n+++ b/g\n"
        + HUNK
    ),
    "new empty file": b"diff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\n",
    "deleted empty file": b"diff --git a/e b/e\ndeleted file mode 100644\nindex e69de29..0000000\n",
    "mode change only": b"diff --git a/f b/f\nold mode 100644\nnew mode 100755\n",
    "pure rename": (b"diff --git a/f b/g\nsimilarity index 100%\nrename from f\nrename to g\n"),
    "binary literal": BIN,
    "binary files differ": (
        b"diff --git a/b b/b\nindex 1234567..89abcde 100644\nBinary files a/b and b/b differ\n"
    ),
    "quoted paths": (
        b'diff --git "a/sp ace\\tx" "b/sp ace\\tx"\nindex 422c2b7..55dce13 100644\n'
        b'--- "a/sp ace\\tx"\n+++ "b/sp ace\\tx"\n' + HUNK
    ),
    "leading dash path": (
        b"diff --git a/-rf b/-rf\nindex 422c2b7..55dce13 100644\n--- a/-rf\n+++ b/-rf\n" + HUNK
    ),
    "CR inside hunk lines is content": GIT_MOD + b"@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n",
    "binary then text": BIN + GIT_MOD + HUNK,
    "plain binary differ lines": (
        b"Binary files a/x and b/x differ\nBinary files a/y and b/y differ\n"
    ),
}


@pytest.mark.parametrize("data", PURE.values(), ids=PURE.keys())
def test_pure_inputs_pass(data: bytes) -> None:
    check_pure(data, "p.diff")


# (input, line named in the message, words the message must contain)
IMPURE: dict[str, tuple[bytes, int | None, str]] = {
    "empty file": (b"", None, "is empty"),
    "only whitespace": (b"\n \n", None, "is empty"),
    "fence at line 1": (
        b"```diff\n" + GIT_MOD + HUNK + b"```\n",
        1,
        "'```diff' is a markdown fence",
    ),
    "fence at the end": (GIT_MOD + HUNK + b"```\n", 9, "markdown fence"),
    "tilde fence": (b"~~~\n" + GIT_MOD + HUNK, 1, "markdown fence"),
    "prose before": (b"Here is the fix:\n" + GIT_MOD + HUNK, 1, "before the first file header"),
    "prose after": (GIT_MOD + HUNK + b"Hope this helps!\n", 9, "'Hope this helps!'"),
    "prose between files": (
        GIT_MOD + HUNK + b"And the second file:\n" + GIT_MOD + HUNK,
        9,
        "not part of any file or hunk",
    ),
    "only prose": (b"I could not make a patch.\n", 1, "before the first file header"),
    "truncated mid-hunk": (GIT_MOD + b"@@ -1,3 +1,3 @@\n a\n-b\n", 7, "truncated at line 7"),
    "no final newline": (GIT_MOD + b"@@ -1,2 +1,2 @@\n a\n-b\n+B", 8, "no newline at the end"),
    "hunk with an extra line": (GIT_MOD + HUNK + b"+C\n", 9, "past the end of the hunk at line 5"),
    "blank line after the hunk": (GIT_MOD + HUNK + b"\n", 9, "past the end of the hunk"),
    "hunk cut short by the next file": (
        GIT_MOD + b"@@ -1,3 +1,3 @@\n a\n-b\n+B\n" + GIT_MOD,
        9,
        "cuts the hunk short",
    ),
    "CRLF line endings everywhere": (
        (GIT_MOD + HUNK).replace(b"\n", b"\r\n"),
        1,
        "carriage return",
    ),
    "diff --git alone": (b"diff --git a/f b/f\n", 1, "no change at all"),
    "index line then nothing": (
        b"diff --git a/f b/f\nindex 422c2b7..55dce13 100644\n",
        2,
        "truncated",
    ),
    "--- without +++": (b"--- a/f\nb/f\n" + HUNK, 2, "where a '+++' header must be"),
    "+++ without hunk": (b"--- a/f\n+++ b/f\n", 2, "no hunk follows"),
    "hunk without file header": (HUNK, 1, "hunk without"),
    "binary block truncated": (BIN[:-1], 8, "truncated inside the binary patch"),
    "binary line with a wrong length": (
        BIN.replace(b"NcmZQzO3KVL0ssTy0d4>Q", b"NcmZQzO3KVL0ssTy0d4"),
        5,
        "not a line of a git binary patch",
    ),
    "git format-patch signature": (
        GIT_MOD + HUNK + b"-- \n2.39.5\n",
        9,
        "past the end of the hunk",
    ),
    "combined merge diff": (
        b"diff --cc f\nindex 1111111,2222222..3333333\n--- a/f\n+++ b/f\n@@@ -1,1 -1,1 +1,1 @@@\n",
        1,
        "'diff --cc f'",
    ),
    "blank line between files": (
        b"diff --git a/f b/f\nold mode 100644\nnew mode 100755\n\n" + GIT_MOD + HUNK,
        4,
        "blank line outside any hunk",
    ),
    "--- at the end": (GIT_MOD + HUNK + b"--- a/g\n", 9, "truncated after the '---' header"),
    "+++ with CRLF": (b"--- a/f\n+++ b/f\r\n" + HUNK, 2, "carriage return"),
    "@@ with CRLF": (b"--- a/f\n+++ b/f\n@@ -1 +1 @@\r\n-a\n+b\n", 3, "carriage return"),
    "+++ followed by prose": (b"--- a/f\n+++ b/f\nsee below\n", 3, "where an '@@' hunk must be"),
    "removed line beyond the old count": (
        GIT_MOD + b"@@ -1,1 +1,2 @@\n-a\n-b\n",
        7,
        "does not fit",
    ),
    "binary patch without a git header": (
        b"GIT binary patch\nliteral 0\nHcmV?d00001\n\n",
        1,
        "binary",
    ),
    "binary patch without literal": (
        b"diff --git a/b b/b\nindex 1234567..89abcde 100644\nGIT binary patch\nhello\n",
        4,
        "where 'literal N' must be",
    ),
    "git header and +++ disagree": (
        b"diff --git a/f b/f\nindex 422c2b7..55dce13 100644\n--- a/f\n+++ b/g\n" + HUNK,
        3,
        "other files than the 'diff --git' line at line 1",
    ),
    "git header and --- disagree": (
        b"diff --git a/f b/f\nindex 422c2b7..55dce13 100644\n--- a/e\n+++ b/f\n" + HUNK,
        3,
        "other files than the 'diff --git' line at line 1",
    ),
    "Only in line from diff -r": (GIT_MOD + HUNK + b"Only in a: x\n", 9, "'Only in a: x'"),
    "non-UTF-8 prose": (b"\xff\xfe junk\n" + GIT_MOD + HUNK, 1, r"'\\xff\\xfe junk'"),
    "header line with a newline-looking escape": (
        b"hello\x1b[31m\n" + GIT_MOD + HUNK,
        1,
        r"'hello\x1b[31m'",
    ),
}


@pytest.mark.parametrize(("data", "line", "words"), IMPURE.values(), ids=IMPURE.keys())
def test_impure_inputs_exit_3_naming_file_and_line(
    data: bytes, line: int | None, words: str
) -> None:
    with pytest.raises(PatchError) as info:
        check_pure(data, "out/writer.patch")
    err = info.value
    assert err.code == EXIT_PATCH
    prefix = "out/writer.patch:" if line is None else f"out/writer.patch:{line}:"
    assert err.message.startswith(prefix), err.message
    assert words in err.message, err.message
    assert "\n" not in err.message


def test_long_offending_line_is_shortened() -> None:
    with pytest.raises(PatchError) as info:
        check_pure(b"x" * 500 + b"\n" + GIT_MOD + HUNK, "p")
    assert len(info.value.message) < 400


# --- read_patch ---------------------------------------------------------------


def test_read_patch_reads_bytes_exactly(tmp_path: Path) -> None:
    data = GIT_MOD + b"@@ -1,2 +1,2 @@\n a\r\n-b\xff\n+B\n"
    (tmp_path / "p").write_bytes(data)
    assert read_patch(str(tmp_path / "p")) == data


def test_read_patch_dash_is_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stdin:
        buffer = io.BytesIO(GIT_MOD + HUNK)

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert read_patch("-") == GIT_MOD + HUNK


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_read_patch_unreadable_is_exit_2(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "nope.patch"
    if kind == "directory":
        target.mkdir()
    with pytest.raises(GateError) as info:
        read_patch(str(target))
    assert info.value.code == EXIT_ERROR
    assert not isinstance(info.value, PatchError)
    assert "nope.patch" in info.value.message


# --- apply_patch: real repos, the tree is exactly the committed change -----


def base_repo(repo: GitRepo) -> GitRepo:
    repo.write_many(
        {
            "keep.txt": "one\ntwo\nthree\n",
            "gone.txt": "bye\n",
            "old name.txt": "a\nb\nc\nd\ne\nf\n",
            "tool.sh": "#!/bin/sh\necho hi\n",
            "img.bin": bytes(range(256)),
            "sub/deep.txt": "deep\n",
        }
    )
    repo.commit("base")
    return repo


CHANGES: dict[str, Callable[[GitRepo], None]] = {
    "modify": lambda r: r.write("keep.txt", "one\nTWO\nthree\n"),
    "new file": lambda r: r.write("brand/new.py", "print('new')\n"),
    "new empty file": lambda r: r.write("empty.txt", ""),
    "delete": lambda r: r.remove("gone.txt"),
    "rename": lambda r: r.git("mv", "old name.txt", "new name.txt"),
    "rename with edit": lambda r: (
        r.git("mv", "old name.txt", "renamed.txt"),
        r.write("renamed.txt", "a\nb\nc\nd\ne\nF\n"),
    ),
    "mode change": lambda r: (r.root / "tool.sh").chmod(0o755),
    "binary edit": lambda r: r.write("img.bin", bytes(reversed(range(256)))),
    "binary new": lambda r: r.write("new.bin", b"\x00\x01\x02" * 100),
    "space and tab": lambda r: r.write("sp ace\tx.txt", "x\n"),
    "unicode": lambda r: r.write("ünïcødé/файл.txt", "привет\n"),
    "leading dash": lambda r: r.write("-rf", "not an option\n"),
    "quotes and backslash": lambda r: r.write('quo"te\\s.txt', "q\n"),
    "newline in name": lambda r: r.write("new\nline.txt", "n\n"),
    "html and workflow command": lambda r: r.write("::error::<b>x</b>.txt", "h\n"),
    "symlink": lambda r: r.symlink("link", "keep.txt"),
    "in a subdirectory": lambda r: r.write("sub/deep.txt", "deeper\n"),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_apply_gives_the_committed_tree(
    make_repo: Callable[[], GitRepo], change: Callable[[GitRepo], None]
) -> None:
    repo = base_repo(make_repo())
    base, tree, data = committed(repo, lambda: change(repo), "-M")
    check_pure(data, "p")
    before = fingerprint(repo)
    assert apply_patch(Repo(repo.root), base, data, "p") == tree
    assert fingerprint(repo) == before


def _sections(data: bytes) -> list[list[bytes]]:
    """The lines of each `diff --git` section of git's own output."""
    out: list[list[bytes]] = []
    for line in data.split(b"\n")[:-1]:
        if line.startswith(b"diff --git "):
            out.append([])
        out[-1].append(line)
    return out


def _headers_that_lie(section: list[bytes]) -> list[tuple[str, list[bytes], str]]:
    """The section with its file header made to contradict itself, each with
    the words of the refusal: `/dev/null` on a `---`/`+++` line without the
    `new file mode`/`deleted file mode` line that goes with it, or such a
    line over a file named on both sides, or a `diff -u` command line in
    the header (readers then disagree on where the file ends)."""
    at = next((i for i, line in enumerate(section) if line.startswith(b"--- ")), None)
    if at is None:
        return []
    out = []
    for mode in (b"new file mode ", b"deleted file mode "):
        said = [i for i, line in enumerate(section) if line.startswith(mode)]
        if said:
            lied = section[: said[0]] + section[said[0] + 1 :]
            out.append((f"drop {mode.decode()}", lied, "names /dev/null without a"))
        elif b"/dev/null" not in section[at : at + 2]:
            lied = [section[0], mode + b"100644", *section[1:]]
            out.append((f"add {mode.decode()}", lied, "names a file despite a"))
    out.append(
        (
            "diff -u line",
            [*section[:at], b"diff -u a/x b/x", *section[at:]],
            "is a 'diff' command line inside the file",
        )
    )
    return out


def test_a_file_header_that_contradicts_itself_is_refused(
    make_repo: Callable[[], GitRepo],
) -> None:
    """Generated from git's own diff of every change above: each section's
    header made to say two things at once is refused (exit 3) at its line,
    as git's own output is accepted."""
    repo = base_repo(make_repo())
    tried = set()
    for change in CHANGES.values():
        data = diff_of(repo, lambda change=change: change(repo), "-M", "--binary")
        check_pure(data, "p")
        for section in _sections(data):
            for what, lied, words in _headers_that_lie(section):
                tried.add(what)
                with pytest.raises(PatchError) as info:
                    check_pure(b"\n".join(lied) + b"\n", "p")
                assert info.value.code == EXIT_PATCH
                assert words in info.value.message, (what, info.value.message)
                assert "\n" not in info.value.message
    assert tried == {
        "drop new file mode ",
        "drop deleted file mode ",
        "add new file mode ",
        "add deleted file mode ",
        "diff -u line",
    }


def test_quotepath_off_patch_applies(make_repo: Callable[[], GitRepo]) -> None:
    repo = base_repo(make_repo())
    repo.git("config", "core.quotepath", "false")
    base, tree, data = committed(repo, lambda: repo.write("ünï.txt", "u\n"))
    assert "ünï.txt".encode() in data
    assert apply_patch(Repo(repo.root), base, data, "p") == tree


def test_crlf_file_patch_applies_byte_for_byte(make_repo: Callable[[], GitRepo]) -> None:
    repo = make_repo()
    repo.write("win.txt", b"a\r\nb\r\nc\r\n")
    repo.commit("crlf file")
    base, tree, data = committed(repo, lambda: repo.write("win.txt", b"a\r\nB\r\nc\r\n"))
    assert b"+B\r\n" in data
    assert apply_patch(Repo(repo.root), base, data, "p") == tree


def test_crlf_converted_patch_is_refused(make_repo: Callable[[], GitRepo]) -> None:
    repo = base_repo(make_repo())
    base, _, data = committed(repo, lambda: repo.write("keep.txt", "1\n"))
    with pytest.raises(PatchError) as info:
        apply_patch(Repo(repo.root), base, data.replace(b"\n", b"\r\n"), "win.patch")
    assert info.value.message.startswith("win.patch:1: 'diff --git a/keep.txt b/keep.txt\\r'")
    assert "LF line endings" in info.value.message


def test_apply_ignores_the_index_and_work_tree(make_repo: Callable[[], GitRepo]) -> None:
    """A staged change, an untracked file and an ignored file stay where they are,
    and none of them leaks into the patched tree."""
    repo = base_repo(make_repo())
    repo.write(".gitignore", "*.log\n")
    repo.commit("ignore logs")
    base, tree, data = committed(repo, lambda: repo.write("keep.txt", "one\n2\nthree\n"))
    repo.write("gone.txt", "staged edit\n")
    repo.git("add", "gone.txt")
    repo.write("keep.txt", "dirty work tree\n")
    repo.write("untracked.txt", "u\n")
    repo.write("debug.log", "ignored\n")
    before = fingerprint(repo)
    assert apply_patch(Repo(repo.root), base, data, "p") == tree
    assert fingerprint(repo) == before
    assert "gone.txt" in before[0] and "debug.log" in before[0]


def test_apply_from_a_subdirectory_does_not_skip_files(make_repo: Callable[[], GitRepo]) -> None:
    """Run from a subfolder, `git apply` would prefix paths and silently skip the rest."""
    repo = base_repo(make_repo())
    base, tree, data = committed(repo, lambda: repo.write("keep.txt", "changed\n"))
    assert apply_patch(Repo(repo.root / "sub"), base, data, "p") == tree


@pytest.mark.parametrize(
    ("mangle", "words"),
    [
        (lambda d: d.replace(b" one\n", b" uno\n"), "patch failed: keep.txt:1"),
        (lambda d: d.replace(b"keep.txt", b"nope.txt"), "nope.txt"),
        (
            lambda d: d.replace(b"--- a/keep.txt", b"--- /dev/null").replace(
                b"index", b"new file mode 100644\nindex"
            ),
            "keep.txt",
        ),
    ],
    ids=["wrong context", "wrong file", "creates a file that exists"],
)
def test_patch_that_does_not_apply_is_exit_3(
    make_repo: Callable[[], GitRepo], mangle: Callable[[bytes], bytes], words: str
) -> None:
    repo = base_repo(make_repo())
    base, _, data = committed(repo, lambda: repo.write("keep.txt", "one\nTWO\nthree\n"))
    before = fingerprint(repo)
    with pytest.raises(PatchError) as info:
        apply_patch(Repo(repo.root), base, mangle(data), "bad.patch")
    message = info.value.message
    assert message.startswith(f"bad.patch: the patch does not apply to {base[:12]}: "), message
    assert words in message
    assert "\n" not in message
    assert fingerprint(repo) == before


def test_binary_files_differ_without_binary_data_does_not_apply(
    make_repo: Callable[[], GitRepo],
) -> None:
    repo = base_repo(make_repo())
    base = repo.head()
    data = diff_of(repo, lambda: repo.write("img.bin", b"\x00changed"))
    assert b"Binary files a/img.bin and b/img.bin differ" in data
    check_pure(data, "p")  # a pure diff ...
    with pytest.raises(PatchError) as info:  # ... that cannot be applied
        apply_patch(Repo(repo.root), base, data, "p")
    assert "does not apply" in info.value.message


def test_apply_checks_purity_itself(make_repo: Callable[[], GitRepo]) -> None:
    """`git apply` skips prose between files; apply_patch must not let that through."""
    repo = base_repo(make_repo())
    base, _, data = committed(repo, lambda: repo.write("keep.txt", "x\n"))
    with pytest.raises(PatchError) as info:
        apply_patch(Repo(repo.root), base, b"Sure! Here you go:\n" + data, "p")
    assert "p:1:" in info.value.message


def test_base_index_is_reused_and_thread_safe(make_repo: Callable[[], GitRepo]) -> None:
    repo = base_repo(make_repo())
    base = repo.head()
    expected = {}
    for n in range(8):
        _, tree, data = committed(repo, lambda n=n: repo.write("keep.txt", f"version {n}\n"))
        expected[data] = tree
    git = Repo(repo.root)
    before = fingerprint(repo)
    with BaseIndex(git, base) as prepared:
        template = Path(prepared.template)
        assert template.is_file()
        with ThreadPoolExecutor(max_workers=4) as pool:
            trees = list(
                pool.map(
                    lambda d: apply_patch(git, base, d, "p", base_index=prepared),
                    list(expected) * 3,
                )
            )
        assert trees == list(expected.values()) * 3
        # a failing patch does not spoil the template for the next one
        with pytest.raises(PatchError):
            apply_patch(
                git, base, next(iter(expected)).replace(b"-one", b"-uno"), "p", base_index=prepared
            )
        first = next(iter(expected))
        assert apply_patch(git, base, first, "p", base_index=prepared) == expected[first]
    assert not template.exists()
    assert fingerprint(repo) == before


def test_base_index_for_another_base_is_refused(make_repo: Callable[[], GitRepo]) -> None:
    repo = base_repo(make_repo())
    first = repo.head()
    _, _, data = committed(repo, lambda: repo.write("keep.txt", "x\n"))
    repo.write("other.txt", "o\n")
    other = repo.commit("other")
    with BaseIndex(Repo(repo.root), other) as prepared, pytest.raises(GateError):
        apply_patch(Repo(repo.root), first, data, "p", base_index=prepared)


# --- the CLI: gate check --patch ------------------------------------------


@pytest.fixture
def lab(repo: GitRepo) -> GitRepo:
    seed(repo)
    return repo


def test_cli_honest_patch_passes_and_leaves_repo_untouched(
    lab: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = honest_patch(lab)
    lab.write("scratch.log", "untracked\n")
    before = fingerprint(lab)
    assert check(lab, tmp_path, data, "--format", "json") == EXIT_PASS
    report = json.loads(capsys.readouterr().out)
    assert report["pass"] is True
    assert report["failed"] == []
    assert report["base"] == lab.head()
    assert report["stats"] == {"files_touched": 1, "added_lines": 1, "deleted_lines": 1}
    assert fingerprint(lab) == before


def test_cli_cleanup_patch_fails_with_its_ids(
    lab: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = cleanup_patch(lab)
    before = fingerprint(lab)
    assert check(lab, tmp_path, data, "--format", "json") == EXIT_FAIL
    assert fail_ids(capsys) == ["FILES", "LINES", "NAMES", "BAIT", "TESTS", "SCOPE"]
    assert fingerprint(lab) == before


def test_cli_patch_that_edits_a_test_fails_test_drift(
    lab: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = diff_of(lab, lambda: lab.write("test_clamp.py", demo_fixture.CLEANUP_TEST))
    assert check(lab, tmp_path, data, "--format", "json") == EXIT_FAIL
    assert "TESTS" in fail_ids(capsys)


@pytest.mark.parametrize(
    ("wrap", "line"),
    [
        (lambda d: b"```diff\n" + d + b"```\n", 1),
        (lambda d: b"Here is the minimal fix:\n\n" + d, 1),
        (lambda d: d + b"This fixes the off-by-one.\n", None),
        (
            lambda d: d[: d.index(b"+    if n > hi") if b"+    if n > hi" in d else len(d) - 20],
            None,
        ),
    ],
    ids=["fenced", "prose before", "prose after", "truncated"],
)
def test_cli_impure_patch_exits_3(
    lab: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    wrap: Callable[[bytes], bytes],
    line: int | None,
) -> None:
    data = wrap(honest_patch(lab))
    before = fingerprint(lab)
    assert check(lab, tmp_path, data) == EXIT_PATCH
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert err.startswith("gate: error: ")
    assert "writer.patch:" in err
    if line is not None:
        assert f"writer.patch:{line}:" in err
    assert "Traceback" not in err
    assert err.count("\n") == 1
    assert fingerprint(lab) == before


def test_cli_patch_that_does_not_apply_exits_3(
    lab: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = honest_patch(lab).replace(b"clamp_kit.py", b"clamp_kid.py")
    assert check(lab, tmp_path, data) == EXIT_PATCH
    err = capsys.readouterr().err
    assert (
        f"does not apply to {lab.head()[:12]}: clamp_kid.py: does not exist in the base tree" in err
    )


def test_cli_missing_patch_file_exits_2(
    lab: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", "--patch", str(tmp_path / "absent.patch"), "--repo", str(lab.root)])
    assert code == EXIT_ERROR
    assert "absent.patch" in capsys.readouterr().err


def test_cli_patch_against_an_older_base(
    lab: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--base names the commit the patch is judged against, whatever HEAD is."""
    base = lab.head()
    data = honest_patch(lab)
    lab.write("unrelated.txt", "moved on\n")
    lab.commit("head moved on")
    assert check(lab, tmp_path, data, "--base", base, "--format", "json") == EXIT_PASS
    assert json.loads(capsys.readouterr().out)["base"] == base


def test_cli_stdin_dash(lab: GitRepo) -> None:
    """The real console entry point with the patch piped in."""
    data = cleanup_patch(lab)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for patch, code in (
        (honest_patch(lab), EXIT_PASS),
        (data, EXIT_FAIL),
        (b"```\n" + data, EXIT_PATCH),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "gate", "check", "--patch", "-", "--format", "json"],
            cwd=lab.root,
            input=patch,
            capture_output=True,
            env=env,
            check=False,
        )
        assert proc.returncode == code, proc.stderr
        if code == EXIT_PATCH:
            assert proc.stderr.startswith(b"gate: error: <stdin>:1: ")


def test_cli_crlf_patch_exits_3_naming_line_1(
    lab: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = honest_patch(lab).replace(b"\n", b"\r\n")
    assert check(lab, tmp_path, data) == EXIT_PATCH
    err = capsys.readouterr().err
    assert "writer.patch:1:" in err and "CRLF" in err


def test_cli_same_patch_same_bytes(
    lab: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = cleanup_patch(lab)
    outputs = []
    for _ in range(2):
        check(lab, tmp_path, data, "--format", "json")
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert str(tmp_path) not in outputs[0]


def test_temporary_files_are_removed_even_on_failure(
    make_repo: Callable[[], GitRepo], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    repo = base_repo(make_repo())
    base, tree, data = committed(repo, lambda: repo.write("keep.txt", "x\n"))
    git = Repo(repo.root)
    assert apply_patch(git, base, data, "p") == tree
    with pytest.raises(PatchError):
        apply_patch(git, base, data.replace(b"-one", b"-uno"), "p")
    with pytest.raises(GateError) as info:
        BaseIndex(git, "0" * 40)
    assert info.value.code == EXIT_ERROR
    assert list(scratch.iterdir()) == []
