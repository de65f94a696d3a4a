"""Binary-ness never shrinks a line budget (docs/hostile-input.md, section 1).

Real repositories and the real git binary.  A file git calls binary counts
every line of its old blob as deleted and every line of its new blob as
added; the file side of a file <-> submodule change counts the same way;
and no attributes file anywhere (the change's `.gitattributes`,
`$GIT_DIR/info/attributes`, the user's or runner's `core.attributesFile`,
the system's gitattributes) changes a count or what counts as binary.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.git.repo import Repo
from gate.model.change import ChangeSet
from gate.model.rubric import Rule
from gate.rules import REGISTRY

ROOT = Path(__file__).resolve().parents[2]

# What each attribute would do to `git diff --numstat` if git read it.
ATTRIBUTES = (
    "* binary",  # every file binary: text files would count 0
    "* -diff",  # the same
    "* -text",  # no eol conversion (and, with -diff, binary)
    "* diff",  # every file text: a file with NUL bytes counted as text
    "* diff=drv",  # a driver with binary = true and a textconv that empties files
    "* text eol=crlf",  # conversions: none apply between two trees
    "* text=auto eol=lf",
)

LOCATIONS = ("change", "info", "core.attributesFile", "xdg")

# Global config that would change counts if attributes reached the diff.
GLOBAL_CONFIG = """\
[diff "drv"]
\tbinary = true
\ttextconv = sh -c 'true'
[core]
\tautocrlf = true
[diff]
\talgorithm = patience
"""


def lines_of(data: bytes) -> int:
    """The gate's notion of lines, written independently of its code: a line
    ends at \\n, \\r\\n or \\r, and a last line may have no ending."""
    count = 0
    pending = False
    i = 0
    while i < len(data):
        if data[i : i + 2] == b"\r\n":
            count, pending, i = count + 1, False, i + 2
        elif data[i : i + 1] in (b"\r", b"\n"):
            count, pending, i = count + 1, False, i + 1
        else:
            pending, i = True, i + 1
    return count + pending


def lone_cr(data: bytes) -> bool:
    """A carriage return not followed by a newline: a line end git does not count."""
    return any(data[i : i + 1] == b"\r" and data[i + 1 : i + 2] != b"\n" for i in range(len(data)))


def git_calls_binary(data: bytes) -> bool:
    """git's content test with no attributes: a NUL in the first 8000 bytes."""
    return b"\0" in data[:8000]


def place_attributes(repo: Any, home: Path, where: str, line: str) -> None:
    """Put `line` in one attributes location (and the driver config in the global config)."""
    config = GLOBAL_CONFIG
    if where == "change":
        repo.write(".gitattributes", line + "\n")
    elif where == "info":
        info = repo.root / ".git" / "info"
        info.mkdir(exist_ok=True)
        (info / "attributes").write_text(line + "\n")
    elif where == "core.attributesFile":
        (home / "my-attributes").write_text(line + "\n")
        config += f"[core]\n\tattributesFile = {home / 'my-attributes'}\n"
    elif where == "xdg":
        xdg = Path(os.environ["XDG_CONFIG_HOME"]) / "git"
        xdg.mkdir(parents=True, exist_ok=True)
        (xdg / "attributes").write_text(line + "\n")
    (home / ".gitconfig").write_text(config)


def clear_attributes(repo: Any, home: Path) -> None:
    for path in (
        repo.root / ".git" / "info" / "attributes",
        home / "my-attributes",
        Path(os.environ["XDG_CONFIG_HOME"]) / "git" / "attributes",
        home / ".gitconfig",
    ):
        path.unlink(missing_ok=True)
    if (repo.root / ".gitattributes").exists():
        repo.remove(".gitattributes")


def plain_numstat(repo: Any, base: str, head: str) -> dict[str, tuple[str, str]]:
    """`git diff --numstat` as a user would run it: attributes apply."""
    out = repo.git("diff", "--numstat", "-z", "--textconv", base, head)
    rows = {}
    for record in out.split("\0"):
        if record:
            added, deleted, path = record.split("\t", 2)
            rows[path] = (added, deleted)
    return rows


A_BASE, A_HEAD = "a\n", "a\n" + "b\n" * 50  # text: 50 added
C_BASE, C_HEAD = b"x\0\n" * 3, b"y\0\n" * 4  # binary: 3 deleted, 4 added (whole blobs)


@pytest.mark.parametrize("where", LOCATIONS)
@pytest.mark.parametrize("line", ATTRIBUTES)
def test_no_attributes_file_changes_a_count(repo: Any, where: str, line: str) -> None:
    home = Path(os.environ["HOME"])
    repo.write_many({"a.py": A_BASE, "c.bin": C_BASE})
    place_attributes(repo, home, where, line)
    base = repo.commit("base")
    repo.write_many({"a.py": A_HEAD, "c.bin": C_HEAD})
    head = repo.commit("head")
    files = {f.path: f for f in Repo(repo.root).diff(base, head)}
    assert (files["a.py"].added, files["a.py"].deleted, files["a.py"].binary) == (50, 0, False)
    assert (files["c.bin"].added, files["c.bin"].deleted, files["c.bin"].binary) == (4, 3, True)
    # The attribute is live where it was put: plain git obeys it (except in the
    # change itself, where git reads the work tree's checkout).
    plain = plain_numstat(repo, base, head)
    if line in ("* binary", "* -diff", "* diff=drv"):
        assert plain["a.py"] == ("-", "-")
    if line == "* diff":
        assert plain["c.bin"] != ("-", "-")


def overlay_available() -> bool:
    if sys.platform != "linux" or os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-m", "sh", "-c", "mount -t tmpfs none /mnt"],
        capture_output=True,
        check=False,
    )
    return probe.returncode == 0


@pytest.mark.skipif(
    not overlay_available(),
    reason="needs root and a private mount namespace (unshare -m) to plant /etc/gitattributes",
)
@pytest.mark.parametrize("line", ["* binary", "* diff"])
def test_system_gitattributes_change_no_count(repo: Any, tmp_path: Path, line: str) -> None:
    """The system file is planted in a private mount namespace (an overlay on
    /etc seen only by this test's processes)."""
    repo.write_many({"a.py": A_BASE, "c.bin": C_BASE})
    base = repo.commit("base")
    repo.write_many({"a.py": A_HEAD, "c.bin": C_HEAD})
    head = repo.commit("head")
    upper, work = tmp_path / "upper", tmp_path / "work"
    upper.mkdir()
    work.mkdir()
    probe = (
        "import json, subprocess, sys\n"
        "from gate.git.repo import Repo\n"
        "root, base, head = sys.argv[1:4]\n"
        "files = {f.path: [f.added, f.deleted, f.binary] for f in Repo(root).diff(base, head)}\n"
        "plain = subprocess.run(['git', '-C', root, 'diff', '--numstat', base, head],\n"
        "    capture_output=True, check=True).stdout.decode()\n"
        "print(json.dumps({'gate': files, 'plain': plain}))\n"
    )
    script = (
        f"mount -t overlay overlay -o lowerdir=/etc,upperdir={upper},workdir={work} /etc && "
        f"printf '%s\\n' '{line}' > /etc/gitattributes && "
        'exec "$@"'
    )
    env = {k: v for k, v in os.environ.items() if k != "GIT_CONFIG_NOSYSTEM"}
    env["PYTHONPATH"] = str(ROOT)
    argv = ["unshare", "-m", "sh", "-c", script, "sh", sys.executable, "-c", probe]
    proc = subprocess.run(
        [*argv, str(repo.root), base, head],
        capture_output=True,
        check=True,
        env=env,
    )
    seen = json.loads(proc.stdout)
    assert seen["gate"] == {"a.py": [50, 0, False], "c.bin": [4, 3, True]}
    # plain git in the same namespace does read the planted file
    plain = {row.split("\t")[2]: row for row in seen["plain"].splitlines()}
    if line == "* binary":
        assert plain["a.py"].startswith("-\t-\t")
    else:
        assert not plain["c.bin"].startswith("-\t-\t")
    assert not Path("/etc/gitattributes").exists()  # the namespace kept it private


# -- generated: NUL bytes anywhere, attributes anywhere, submodules ------------

LINE = st.binary(max_size=30).map(lambda b: b.replace(b"\n", b""))
TEXT = st.tuples(st.lists(LINE, max_size=40), st.booleans()).map(
    lambda t: b"\n".join(t[0]) + (b"\n" if t[1] and t[0] else b"")
)


@st.composite
def sprinkled(draw: st.DrawFn) -> bytes:
    """Text with NUL bytes at random positions (sometimes none, sometimes past
    byte 8000 where git no longer looks)."""
    data = bytearray(draw(TEXT))
    if draw(st.booleans()):
        data += b"p" * 8000 + b"\n"
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        data[at:at] = b"\0"
    return bytes(data)


SIDE = st.one_of(st.just(None), sprinkled())  # None: a submodule on that side


@pytest.fixture
def fuzz_repo(make_repo: Any) -> Iterator[Any]:
    repo = make_repo("fuzz")
    repo.write("keep", "k\n")
    repo.commit("root")
    yield repo


def commit_side(repo: Any, data: bytes | None, sub: str) -> str:
    """Make `f` a file holding exactly `data` (no eol conversion on the way in),
    or a submodule pointing at `sub`; commit."""
    if repo.git("ls-files", "-s", "--", "f"):
        repo.git("rm", "-q", "--cached", "--", "f")
    if data is None:
        repo.git("update-index", "--add", "--cacheinfo", f"160000,{sub},f")
    else:
        blob = repo.git("hash-object", "-w", "--no-filters", "--stdin", input=data).strip()
        repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},f")
    repo.git("commit", "-q", "--allow-empty", "-m", "side")
    return str(repo.head())


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    old=SIDE,
    new=SIDE,
    where=st.sampled_from((None, *LOCATIONS)),
    line=st.sampled_from(ATTRIBUTES),
)
def test_max_lines_never_sees_fewer_lines_than_the_blobs_hold(
    fuzz_repo: Any, old: bytes | None, new: bytes | None, where: str | None, line: str
) -> None:
    repo = fuzz_repo
    home = Path(os.environ["HOME"])
    clear_attributes(repo, home)
    if where is not None:
        place_attributes(repo, home, where, line)
        if where == "change":
            repo.git("add", ".gitattributes")
    sub = repo.git("rev-parse", "HEAD~0").strip()
    base = commit_side(repo, old, sub)
    head = commit_side(repo, new, sub)
    changes = ChangeSet(files=Repo(repo.root).diff(base, head))
    found = [f for f in changes.files if f.path == "f"]
    if old == new:
        assert found == []
        return
    (change,) = found
    old_lines = 0 if old is None else lines_of(old)
    new_lines = 0 if new is None else lines_of(new)
    if None in (old, new) or any(
        git_calls_binary(side or b"") or lone_cr(side or b"") for side in (old, new)
    ):
        # binary, a carriage return alone, or a file <-> submodule change:
        # the whole file side(s)
        expected = (new_lines, old_lines)
    else:
        expected = text_counts(repo, old or b"", new or b"")
    assert (change.added, change.deleted) == expected
    # and max_lines sees at least every line of a binary or replaced file
    verdict = REGISTRY["max_lines"].judge(
        Rule(id="L", kind="max_lines", params={"limit": 10**9}), ChangeSet(files=(change,))
    )
    assert verdict.passed
    assert verdict.message.startswith(f"{sum(expected)} line")


def text_counts(repo: Any, old: bytes, new: bytes) -> tuple[int, int]:
    """git's own text numstat of two blobs, in a scratch repository that has no
    attributes anywhere (the oracle for files git calls text): no system file,
    no global config, and `core.attributesFile` pinned so the default
    `$XDG_CONFIG_HOME/git/attributes` a test planted is not read either."""
    scratch = repo.root.parent / "scratch"
    if not scratch.exists():
        subprocess.run(["git", "init", "-q", "--bare", str(scratch)], check=True)
    env = {**os.environ, "GIT_ATTR_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    shas = []
    for data in (old, new):
        proc = subprocess.run(
            ["git", "--git-dir", str(scratch), "hash-object", "-w", "--stdin"],
            input=data,
            capture_output=True,
            check=True,
            env=env,
        )
        shas.append(proc.stdout.decode().strip())
    out = subprocess.run(
        [
            "git",
            "--git-dir",
            str(scratch),
            "-c",
            f"core.attributesFile={os.devnull}",
            "diff",
            "--numstat",
            "--diff-algorithm=myers",
            *shas,
        ],
        capture_output=True,
        check=True,
        env=env,
    ).stdout.decode()
    added, deleted, _ = out.split("\t", 2)
    return int(added), int(deleted)


def test_patch_mode_and_lab_count_a_binary_file_whole(repo: Any, tmp_path: Path) -> None:
    """`--patch` and `gate lab` diff the patched tree through the same git diff."""
    from gate.changes.patch import changes_from_patch
    from gate.research.lab import judge_patch
    from gate.rubric.load import load_rubric_bytes

    repo.write("c.bin", C_BASE)
    base = repo.commit("base")
    repo.write("c.bin", C_HEAD)
    repo.write("sub.txt", "one\ntwo\n")
    head = repo.commit("head")
    patch = subprocess.run(
        ["git", "diff", "--binary", base, head], cwd=repo.root, capture_output=True, check=True
    ).stdout
    repo.git("checkout", "-q", base)
    git = Repo(repo.root)
    changes = changes_from_patch(git, base, patch, "writer.patch", ())
    files = {f.path: f for f in changes.files}
    assert (files["c.bin"].added, files["c.bin"].deleted, files["c.bin"].binary) == (4, 3, True)
    rubric = load_rubric_bytes(b"rules:\n  - {id: L, kind: max_lines, limit: 8}\n", "r.yml")
    report = judge_patch(git, rubric, base, patch, "writer.patch", rubric_path=None)
    (result,) = [r for r in report.results if r.id == "L"]
    assert not result.passed
    assert result.message.startswith("9 lines changed (6 added, 3 deleted); limit 8")


# Texts whose lines end at \n, \r\n or \r, in any mix.
ENDED = st.lists(
    st.tuples(st.text("ab =#", max_size=5), st.sampled_from(["\n", "\r\n", "\r", ""])),
    max_size=25,
).map(lambda parts: "".join(text + end for text, end in parts).encode())


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(old=ENDED, new=ENDED)
def test_a_carriage_return_alone_never_hides_a_line(fuzz_repo: Any, old: bytes, new: bytes) -> None:
    """A line ends at \\n, \\r\\n or \\r in every rule, and git's numstat ends
    lines at \\n only: 500 lines ended by \\r were one added line to
    max_lines.  A file with a carriage return alone on either side counts
    whole (every line of both versions); any other text file counts as
    git's numstat, and no count is below what the line counts alone imply."""
    repo = fuzz_repo
    clear_attributes(repo, Path(os.environ["HOME"]))
    base = commit_side(repo, old, "")
    head = commit_side(repo, new, "")
    found = [f for f in Repo(repo.root).diff(base, head) if f.path == "f"]
    if old == new:
        assert found == []
        return
    (change,) = found
    if lone_cr(old) or lone_cr(new):
        assert (change.added, change.deleted) == (lines_of(new), lines_of(old))
    else:
        assert (change.added, change.deleted) == text_counts(repo, old, new)
    assert change.added is not None and change.deleted is not None
    assert change.added - change.deleted == lines_of(new) - lines_of(old)


# Bytes with any mix of \n, \r\n, \r and NUL (a NUL makes git call a file binary).
MIXED = st.lists(st.sampled_from([b"a", b"b ", b"\n", b"\r\n", b"\r", b"\0"]), max_size=30).map(
    b"".join
)


def commit_files(repo: Any, contents: dict[str, bytes]) -> str:
    """Make each path a file holding exactly its bytes (no eol conversion); commit."""
    for path, data in contents.items():
        blob = repo.git("hash-object", "-w", "--no-filters", "--stdin", input=data).strip()
        repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},{path}")
    repo.git("commit", "-q", "--allow-empty", "-m", "side")
    return str(repo.head())


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(sides=st.lists(st.tuples(MIXED, MIXED), min_size=1, max_size=4))
def test_counts_beside_the_diff_after_it_and_in_a_session_agree(
    fuzz_repo: Any, sides: list[tuple[bytes, bytes]]
) -> None:
    """Several files changed at once, blobs shared between files and sides:
    the counts taken beside git's diff (`gate check`: `Repo.diff`), after it
    (`changes_from_git`, as `gate backtest` reads them) and through a
    thread's blob session (as `gate lab` does) are each the reference: git's
    own numstat for a text file, and every line of both versions for a
    file git calls binary or one with a carriage return alone."""
    from gate.changes.git import changes_from_git

    repo = fuzz_repo
    clear_attributes(repo, Path(os.environ["HOME"]))
    base = commit_files(repo, {f"f{i}": old for i, (old, _) in enumerate(sides)})
    head = commit_files(repo, {f"f{i}": new for i, (_, new) in enumerate(sides)})
    expected = {}
    for i, (old, new) in enumerate(sides):
        if old == new:
            continue
        whole = any(git_calls_binary(d) or lone_cr(d) for d in (old, new))
        counts = (lines_of(new), lines_of(old)) if whole else text_counts(repo, old, new)
        expected[f"f{i}"] = counts
    git = Repo(repo.root)
    beside = git.diff(base, head)
    after = changes_from_git(git, base, head, (), parent=True).files
    with git.blob_session():
        session = changes_from_git(git, base, head, (), parent=True).files
    for files in (beside, after, session):
        found = {f.path: (f.added, f.deleted) for f in files if f.path.startswith("f")}
        assert found == expected


def test_a_blob_over_a_chunk_is_counted_as_it_streams(fuzz_repo: Any) -> None:
    """Blobs over the 1 MiB the counters read at once are counted chunk by
    chunk, a `\\r\\n` split over two chunks still one line end: beside the
    diff and after it alike."""
    from gate.changes.git import changes_from_git

    repo = fuzz_repo
    old = b"ab" + b"x\r\n" * 400_000  # a \r is the last byte of the first MiB
    assert old[(1 << 20) - 1 : (1 << 20) + 1] == b"\r\n"
    base = commit_files(repo, {"lone": old, "plain": old})
    head = commit_files(repo, {"lone": old + b"z\rq\n", "plain": old + b"z\n"})
    git = Repo(repo.root)
    expected = {"lone": (lines_of(old) + 2, lines_of(old)), "plain": (1, 0)}
    assert lines_of(old) == 400_000
    for files in (git.diff(base, head), changes_from_git(git, base, head, (), parent=True).files):
        assert {f.path: (f.added, f.deleted) for f in files} == expected


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    sizes=st.lists(
        st.sampled_from([0, 1, 2, 4095, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, 300_000]),
        min_size=3,
        max_size=7,
    ),
    ends=st.lists(st.sampled_from([b"\n", b"\r", b"\r\n", b"x"]), min_size=7, max_size=7),
)
def test_counts_beside_the_diff_hold_across_the_counter_s_reads(
    fuzz_repo: Any, sizes: list[int], ends: list[bytes]
) -> None:
    """`gate check`'s counter reads git's output in 1 MiB pieces and finds
    each blob in them by offset: blobs of any size around a piece's edge,
    one after another, with a `\\r` or `\\r\\n` at their end, are counted
    as the gate counts lines (every line of both sides for a lone `\\r`)."""
    repo = fuzz_repo
    old_sides, new_sides = {}, {}
    for i, size in enumerate(sizes):
        body = (b"ab\n" * (size // 3 + 1))[: max(size - len(ends[i]), 0)] + ends[i]
        old_sides[f"g{i}"] = b"base %d\nno end" % i if i % 2 else b"base %d\n" % i
        new_sides[f"g{i}"] = body[:size] if size else b""
    base = commit_files(repo, old_sides)
    head = commit_files(repo, new_sides)
    found = {f.path: (f.added, f.deleted) for f in Repo(repo.root).diff(base, head)}
    for path, new in new_sides.items():
        old = old_sides[path]
        if old == new:
            continue
        whole = lone_cr(old) or lone_cr(new)
        expected = (lines_of(new), lines_of(old)) if whole else text_counts(repo, old, new)
        assert found[path] == expected
