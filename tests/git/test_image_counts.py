"""Which changed binary files are well-formed images (`FileChange.image`),
read by every way the git layer counts blobs: beside the diff (`gate check`:
`LineCounter`), after it (`gate backtest`: one pipelined `cat-file`) and in a
thread's blob session (`gate lab`), for blobs under and over the 1 MiB the
counters read at once.  Real repositories, real images (tests/imagebytes.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gate.changes.git import changes_from_git
from gate.git.repo import Repo
from gate.model.change import FileChange
from tests.imagebytes import EXT, IMAGES, png, twins


def commit_files(repo: Any, contents: dict[str, bytes | None]) -> str:
    """Each path holding exactly its bytes (None: removed); commit."""
    for path, data in contents.items():
        if data is None:
            repo.git("rm", "-q", "--cached", "--ignore-unmatch", path)
            continue
        blob = repo.git("hash-object", "-w", "--no-filters", "--stdin", input=data).strip()
        repo.git("update-index", "--add", "--cacheinfo", f"100644,{blob},{path}")
    repo.git("commit", "-q", "--allow-empty", "-m", "side")
    return str(repo.head())


def every_way(root: Any, base: str, head: str) -> Iterator[tuple[FileChange, ...]]:
    git = Repo(root)
    yield tuple(git.diff(base, head))
    yield changes_from_git(git, base, head, (), parent=True).files
    with git.blob_session():
        yield changes_from_git(git, base, head, (), parent=True).files


BIG = png(7, extra=b"\n" * (3 << 20))  # over a chunk: counted as it streams


@pytest.fixture
def sides() -> tuple[dict[str, bytes | None], dict[str, bytes | None], dict[str, bool]]:
    """(base, head, expected `image`) over every format and its twins."""
    base: dict[str, bytes | None] = {"big.png": png(1), "gone.gif": IMAGES["gif"](1)}
    head: dict[str, bytes | None] = {"big.png": BIG, "gone.gif": None}
    expected = {"big.png": True, "gone.gif": True}
    for fmt, make in IMAGES.items():
        name = f"{fmt}/shot{EXT[fmt]}"
        base[name], head[name], expected[name] = make(1), make(2), True
        for i, data in enumerate(twins(fmt, make(1)).values()):
            twin = f"{fmt}/twin{i}{EXT[fmt]}"
            base[twin], head[twin], expected[twin] = make(1), data, False
    base["wrong.jpg"], head["wrong.jpg"], expected["wrong.jpg"] = None, png(3), False
    base["Upper.PNG"], head["Upper.PNG"], expected["Upper.PNG"] = None, png(4), True
    big_twin = BIG + b"payload\n"
    base["big-twin.png"], head["big-twin.png"], expected["big-twin.png"] = None, big_twin, False
    return base, head, expected


def test_every_counting_path_marks_the_same_images(repo: Any, sides: Any) -> None:
    base_files, head_files, expected = sides
    base = commit_files(repo, {p: d for p, d in base_files.items() if d is not None})
    head = commit_files(repo, head_files)
    for files in every_way(repo.root, base, head):
        assert {f.path: f.image for f in files} == expected
        for f in files:
            assert f.binary  # every one of them git calls binary


def test_one_version_not_an_image_is_enough_to_count_whole(repo: Any) -> None:
    """A text file replaced by an image under the same name (or back), and an
    image whose name changed to claim another format: no image."""
    base = commit_files(repo, {"a.png": b"print(1)\n", "b.png": png(1), "c.gif": png(1)})
    head = commit_files(repo, {"a.png": png(2), "b.png": b"text\n", "c.gif": png(2)})
    for files in every_way(repo.root, base, head):
        assert {f.path: (f.binary, f.image) for f in files} == {
            "a.png": (True, False),
            "b.png": (True, False),
            "c.gif": (True, False),
        }
