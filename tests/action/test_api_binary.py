"""API mode never counts a binary file as 0 lines.

GitHub's PR files listing gives a binary file no patch and 0 additions and
deletions, and shows a pure rename or mode change the same way as a binary
file renamed and edited.  API mode reads both sides of such a file through
the contents API and counts it as git mode does (every old line deleted,
every new line added; nothing when the bytes are the same).  Past
`BLOB_READS` such files the counts stay unknown and `max_lines` fails
closed, naming the files and the way out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Scenario
from hypothesis import given
from hypothesis import strategies as st
from test_api_merge_base import judge_both_ways

from gate.base.text import lines
from gate.changes.api import (
    BLOB_READS,
    COPY_UNCOUNTED,
    LONE_CR,
    UNLISTED,
    count_unlisted,
    file_change,
)
from gate.github.client_types import PullFile
from gate.model.change import ADDED, DELETED, EMPTY_BLOBS, MODIFIED, RENAMED, FileChange


def entry(status: str, added: int = 0, deleted: int = 0, **kw: object) -> PullFile:
    return PullFile(
        filename="f",
        status=status,
        additions=added,
        deletions=deleted,
        changes=added + deleted,
        previous_filename=kw.get("previous_filename"),  # type: ignore[arg-type]
        has_patch=bool(kw.get("has_patch", False)),
        sha=kw.get("sha"),  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("listed", "counts"),
    [
        (entry("added"), (None, None)),
        (entry("added", sha="1" * 40), (None, None)),
        (entry("removed"), (None, None)),
        (entry("modified"), (None, None)),
        (entry("renamed", previous_filename="e"), (None, None)),
        (entry("copied", previous_filename="e"), (None, None)),
        # a copy's counts are against its source: counted as an added file's
        (entry("copied", 2, 1, has_patch=True, previous_filename="e"), (None, None)),
        (entry("changed"), (None, None)),
        # an empty file added: its blob is the empty blob, so it adds nothing
        (entry("added", sha=EMPTY_BLOBS[0]), (0, 0)),
        (entry("added", sha=EMPTY_BLOBS[1]), (0, 0)),
        # anything with a patch or counts is text, counted by GitHub
        (entry("modified", 3, 1, has_patch=True), (3, 1)),
        (entry("renamed", 2, 0, has_patch=True, previous_filename="e"), (2, 0)),
        (entry("modified", 5, 0), (5, 0)),  # a patch too large to show
    ],
)
def test_listing_entries_without_counts_are_unknown_never_zero(
    listed: PullFile, counts: tuple[int | None, int | None]
) -> None:
    change = file_change(listed)
    assert isinstance(change, FileChange)
    assert (change.added, change.deleted) == counts
    if listed.status == "copied":
        assert change.uncounted == COPY_UNCOUNTED
    else:
        assert change.uncounted == (UNLISTED if counts == (None, None) else None)


def unlisted(path: str, status: str = MODIFIED, old_path: str | None = None) -> FileChange:
    return FileChange(
        path, status=status, old_path=old_path, added=None, deleted=None, uncounted=UNLISTED
    )


def test_unlisted_files_are_counted_from_both_sides_like_git_mode() -> None:
    store = {
        ("F", "img.bin"): b"\0\n" * 3,
        ("H", "img.bin"): b"\0\n" * 5 + b"tail",
        ("H", "new.bin"): b"\0",
        ("F", "gone.bin"): b"\0\n\n",
        ("F", "old.bin"): b"\0same\n",
        ("H", "moved.bin"): b"\0same\n",
        ("F", "text.py"): b"a\nb\n",
        ("H", "text.py"): b"a\nb\n",  # a pure mode change
        ("F", "secret.txt"): b"k\ne\ny\n",
        ("H", "copy.txt"): b"k\ne\ny\n",  # an exact copy: GitHub says +0 -0
    }
    reads: list[tuple[str, str]] = []

    def read(ref: str, path: str) -> bytes | None:
        reads.append((ref, path))
        return store.get((ref, path))

    files = count_unlisted(
        [
            unlisted("gone.bin", DELETED),
            unlisted("img.bin"),
            unlisted("moved.bin", RENAMED, "old.bin"),
            unlisted("new.bin", ADDED),
            unlisted("text.py"),
            FileChange("plain.py", added=2, deleted=1),
            FileChange("copy.txt", "copied", "secret.txt", None, None, uncounted=COPY_UNCOUNTED),
        ],
        read,
        "F",
        "H",
    )
    got = {f.path: (f.added, f.deleted, f.binary, f.uncounted) for f in files}
    assert got == {
        "gone.bin": (0, 2, True, None),
        "img.bin": (6, 3, True, None),
        "moved.bin": (0, 0, True, None),
        "new.bin": (1, 0, True, None),
        "text.py": (0, 0, False, None),
        "plain.py": (2, 1, False, None),
        "copy.txt": (3, 0, False, None),  # every line, as an added file's
    }
    assert ("F", "secret.txt") not in reads  # a copy's source is not its base side
    assert ("F", "old.bin") in reads and ("H", "moved.bin") in reads
    assert ("F", "new.bin") not in reads and ("H", "gone.bin") not in reads
    assert ("F", "plain.py") not in reads


def test_past_the_read_budget_counts_stay_unknown_and_max_lines_says_why() -> None:
    from gate.model.change import ChangeSet
    from gate.model.rubric import Rule
    from gate.rules import REGISTRY

    names = [f"a{i:04d}.bin" for i in range(BLOB_READS + 2)]
    files = count_unlisted(
        [unlisted(n) for n in names], lambda ref, path: b"\0" + ref.encode(), "F", "H"
    )
    assert [f.added for f in files[:BLOB_READS]] == [1] * BLOB_READS
    late = files[BLOB_READS:]
    assert [(f.added, f.deleted, f.uncounted) for f in late] == [(None, None, UNLISTED)] * 2
    verdict = REGISTRY["max_lines"].judge(
        Rule(id="L", kind="max_lines", params={"limit": 10**6}),
        ChangeSet(files=files, source="api"),
    )
    assert not verdict.passed
    assert verdict.paths == tuple(names[BLOB_READS:])
    assert f"at most {BLOB_READS} such files" in verdict.message


LINES_RUBRIC = """\
rules:
  - id: LINES
    kind: max_lines
    limit: 2
  - id: LINES_NO_IMAGES
    kind: max_lines
    limit: 2
    exclude: ["*.bin"]
"""


def test_a_binary_file_gets_the_same_count_in_api_mode_as_in_git_mode(
    scenario: Scenario, tmp_path: Path
) -> None:
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    repo.write("old.bin", b"\0\n" * 2)
    repo.write(".github/lines.yml", LINES_RUBRIC)
    scenario.base = repo.commit("rubric")
    repo.git("checkout", "-q", "-B", "feature", "main")
    scenario.inputs["rubric-path"] = ".github/lines.yml"
    scenario.push({"img.bin": b"\0\n" * 3, "pkg/__init__.py": ""}, renames={"old.bin": "new.bin"})
    git_out, api_out, requests = judge_both_ways(scenario, tmp_path)
    git_report, api_report = git_out.report(), api_out.report()
    assert git_out.code == api_out.code == 1, api_out.log
    assert git_report["failed"] == api_report["failed"] == ["LINES"]
    for report in (git_report, api_report):
        lines = {r["id"]: r for r in report["results"]}["LINES"]
        assert lines["message"].startswith("3 lines changed (3 added, 0 deleted); limit 2")
        assert "1 binary file counted whole" in lines["message"]
    assert git_report["stats"] == api_report["stats"]
    # the rename was read on both sides and found unchanged; the empty file not at all
    read = {r.path.rsplit("/contents/", 1)[-1] for r in requests if "/contents/" in r.path}
    assert {"img.bin", "old.bin", "new.bin"} <= read
    assert "pkg/__init__.py" not in read


@given(st.text("ab\r\n+- @", max_size=40), st.text("ab\r\n", max_size=12))
def test_a_carriage_return_alone_in_the_patch_counts_the_file_whole(patch: str, new: str) -> None:
    """GitHub's counts end lines at \\n only, like git's numstat: a text file
    whose patch holds a carriage return alone is counted from its blobs,
    every line of both sides (ending at \\n, \\r\\n or \\r), as git mode does."""
    raw = {"filename": "f", "status": "modified", "additions": 1, "deletions": 0}
    listed = PullFile.from_json({**raw, "changes": 1, "patch": patch})
    alone = any(c == "\r" and patch[i + 1 : i + 2] != "\n" for i, c in enumerate(patch))
    assert listed.lone_cr == alone
    change = file_change(listed)
    assert change is not None
    if not alone:
        assert (change.added, change.deleted, change.uncounted) == (1, 0, None)
        return
    assert change.uncounted == LONE_CR
    sides = {"fork": b"a\rb\r", "head": new.encode()}
    (counted,) = count_unlisted([change], lambda rev, path: sides[rev], "fork", "head")
    expected = (0, 0) if sides["head"] == sides["fork"] else (len(lines(new)), 2)
    assert (counted.added, counted.deleted) == expected


KEEP_RUBRIC = """\
version: 1
rules:
  - id: KEEP
    kind: keep_lines
    file: app.py
    lines: ["import os"]
"""


@pytest.mark.parametrize("target", ["copy.py", "lib/../copy.py", "missing.py"])
def test_a_content_file_made_a_symlink_fails_in_api_mode_as_in_git_mode(
    scenario: Scenario, tmp_path: Path, target: str
) -> None:
    """The contents API reads a symlink to a file of the repository as that
    file: a link to a copy of the old text read as the old text, and
    `keep_lines` passed.  The listing says `changed` (a type change) and the
    reader never takes another file's text for the link's."""
    repo = scenario.repo
    repo.git("checkout", "-q", "main")
    old = "import os\n\n\ndef clamp(x):\n    return x\n"
    repo.write("app.py", old)
    repo.write(".github/keep.yml", KEEP_RUBRIC)
    scenario.base = repo.commit("rubric")
    repo.git("checkout", "-q", "-B", "feature", "main")
    scenario.inputs["rubric-path"] = ".github/keep.yml"
    repo.remove("app.py")
    repo.symlink("app.py", target)
    scenario.push({"copy.py": old})
    git_out, api_out, requests = judge_both_ways(scenario, tmp_path)
    for out in (git_out, api_out):
        report = out.report()
        assert out.code == 1, out.log
        assert report["failed"] == ["KEEP"]
        keep = {r["id"]: r for r in report["results"]}["KEEP"]
        assert "regular file" in keep["message"], keep["message"]
    read = {r.path.rsplit("/contents/", 1)[-1] for r in requests if "/contents/" in r.path}
    assert "app.py" in read


def test_the_contents_reader_never_returns_the_file_a_symlink_points_to(
    scenario: Scenario,
) -> None:
    """`get_file` on a symlink gives None (no regular file there), whatever
    the link points to; the file itself still reads."""
    from conftest import REPO

    from gate.github.client import GitHubClient
    from gate.github.settings import Settings

    scenario.push({"x.py": "x = 1\n"})  # a PR for the runner's environment
    scenario.github.add_content(REPO, "abc", "real.py", b"x = 1\n")
    scenario.github.add_symlink(REPO, "abc", "link.py", "real.py")
    scenario.github.add_symlink(REPO, "abc", "dangling.py", "nowhere.py")
    client = GitHubClient(Settings.from_env(scenario.env()))
    assert client.get_file("abc", "real.py") == b"x = 1\n"
    assert client.get_file("abc", "link.py") is None
    assert client.get_file("abc", "dangling.py") is None


def test_api_mode_marks_the_images_git_mode_marks(repo: Any) -> None:
    """Read through the contents API, a binary file whose every version is a
    well-formed image of the format its name claims is marked as git mode
    marks it (`FileChange.image`), with the same counts: added, deleted,
    modified, renamed, a payload appended, another format's name, a side
    that is a submodule (nothing read for it)."""
    from gate.changes.git import changes_from_git
    from gate.git.repo import Repo
    from tests.imagebytes import IMAGES, png, twins

    base = {"a.png": png(1), "gone.jpg": IMAGES["jpeg"](1), "old.png": png(5, extra=b"x" * 300)}
    base |= {"twin.webp": IMAGES["webp"](1), "named.jpg": b"\0text\n"}
    head = {"a.png": png(2), "new.webp": IMAGES["webp"](2), "moved.png": png(6, extra=b"x" * 300)}
    head |= {"twin.webp": twins("webp", IMAGES["webp"](1))["appended"], "named.jpg": png(3)}
    for path, data in base.items():
        repo.write(path, data)
    first = repo.commit("base")
    for path in set(base) - set(head):
        repo.remove(path)
    for path, data in head.items():
        repo.write(path, data)
    second = repo.commit("head")
    by_git = {f.path: f for f in changes_from_git(Repo(repo.root), first, second, ()).files}
    assert by_git["moved.png"].status == RENAMED
    store = {("F", p): d for p, d in base.items()} | {("H", p): d for p, d in head.items()}
    listed = [
        FileChange(f.path, f.status, f.old_path, None, None, uncounted=UNLISTED)
        for f in by_git.values()
    ]
    by_api = count_unlisted(listed, lambda ref, path: store.get((ref, path)), "F", "H")
    found = {f.path: (f.added, f.deleted, f.binary, f.image) for f in by_api}
    assert found == {p: (f.added, f.deleted, f.binary, f.image) for p, f in by_git.items()}
    assert {p for p, f in by_git.items() if f.image} == {
        "a.png",
        "gone.jpg",
        "moved.png",
        "new.webp",
    }
    # a side the listing says is there but that is no file (a submodule): no image
    (sub,) = count_unlisted(
        [FileChange("a.png", MODIFIED, None, None, None, uncounted=UNLISTED)],
        lambda ref, path: png(2) if ref == "H" else None,
        "F",
        "H",
    )
    assert (sub.binary, sub.image) == (True, False)
