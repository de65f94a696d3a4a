"""max_files: touched-path budget, renames count once, exclude, stated counts."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gate.changes import ADDED, COPIED, DELETED, RENAMED, ChangeSet, FileChange, from_paths
from gate.rubric import Rule
from gate.rules import max_files


def run(changes: ChangeSet, **params: Any) -> Any:
    return max_files.check(Rule(id="F1", kind="max_files", params=params), changes)


def files(*paths: str) -> tuple[FileChange, ...]:
    return tuple(FileChange(path=p) for p in paths)


RENAME = FileChange(path="new/a.py", old_path="old/a.py", status=RENAMED)

CASES = [
    # (label, changes, params, passed, message, paths)
    ("empty change", ChangeSet(), {"limit": 0}, True, "0 paths touched; limit 0", []),
    ("under", ChangeSet(files=files("a", "b")), {"limit": 3}, True, "2 paths touched; limit 3", []),
    ("at limit", ChangeSet(files=files("a", "b", "c")), {"limit": 3}, True, "3 paths", []),
    (
        "over",
        ChangeSet(files=files("d", "a", "c", "b")),
        {"limit": 3},
        False,
        "4 paths touched; limit 3",
        ["a", "b", "c", "d"],
    ),
    (
        "one path",
        ChangeSet(files=files("a")),
        {"limit": 0},
        False,
        "1 path touched; limit 0",
        ["a"],
    ),
    (
        "rename counts once",
        ChangeSet(files=(RENAME, FileChange(path="x"))),
        {"limit": 2},
        True,
        "2 paths touched",
        [],
    ),
    (
        "rename lists both sides when over",
        ChangeSet(files=(RENAME,)),
        {"limit": 0},
        False,
        "1 path touched; limit 0",
        ["new/a.py", "old/a.py"],
    ),
    (
        "copy counts its new path only",
        ChangeSet(files=(FileChange(path="b.py", old_path="a.py", status=COPIED),)),
        {"limit": 0},
        False,
        "1 path touched",
        ["b.py"],
    ),
    (
        "exclude drops matches",
        ChangeSet(files=files("docs/a.md", "docs/x/b.md", "src/a.py")),
        {"limit": 1, "exclude": ["docs/"]},
        True,
        "1 path touched (2 excluded); limit 1",
        [],
    ),
    (
        "exclude: rename with one excluded side still counts",
        ChangeSet(files=(FileChange(path="src/a.py", old_path="docs/a.py", status=RENAMED),)),
        {"limit": 0, "exclude": ["docs/"]},
        False,
        "1 path touched; limit 0",
        ["src/a.py"],
    ),
    (
        "exclude: rename with both sides excluded does not count",
        ChangeSet(files=(FileChange(path="docs/b.md", old_path="docs/a.md", status=RENAMED),)),
        {"limit": 0, "exclude": ["*.md"]},
        True,
        "0 paths touched (1 excluded)",
        [],
    ),
    (
        "deleted and added files count",
        ChangeSet(files=(FileChange("a", status=DELETED), FileChange("b", status=ADDED))),
        {"limit": 1},
        False,
        "2 paths touched",
        ["a", "b"],
    ),
    (
        "stated count wins without exclude",
        ChangeSet(files=from_paths(["a.py", "b.py"]), files_touched=9, source="writer"),
        {"limit": 3},
        False,
        "9 paths touched (as stated by the source); limit 3",
        ["a.py", "b.py"],
    ),
    (
        "stated count under limit",
        ChangeSet(files=from_paths(["a.py"]), files_touched=2, source="writer"),
        {"limit": 3},
        True,
        "2 paths touched",
        [],
    ),
    (
        "with exclude the listed paths are counted, not the stated count",
        ChangeSet(files=from_paths(["a.py", "docs/x.md"]), files_touched=9, source="writer"),
        {"limit": 1, "exclude": ["docs/"]},
        True,
        "1 path touched (1 excluded); limit 1",
        [],
    ),
    (
        "hostile names are counted like any other",
        ChangeSet(files=files("a\nb", "-rf", "::error::x", "ü t.py")),
        {"limit": 3},
        False,
        "4 paths touched",
        ["-rf", "::error::x", "a\nb", "ü t.py"],
    ),
]


@pytest.mark.parametrize(
    ("changes", "params", "passed", "message", "paths"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_max_files(
    changes: ChangeSet, params: dict[str, Any], passed: bool, message: str, paths: list[str]
) -> None:
    result = run(changes, **params)
    assert result.passed is passed
    assert message in result.message
    assert list(result.paths) == paths
    assert result.id == "F1" and result.kind == "max_files"


@given(
    stated=st.integers(0, 12),
    paths=st.lists(st.from_regex(r"[a-z]{1,3}(/[a-z]{1,3}){0,2}", fullmatch=True), max_size=12),
    limit=st.integers(0, 12),
)
def test_a_stated_count_never_hides_the_paths_a_result_lists(
    stated: int, paths: list[str], limit: int
) -> None:
    """A writer's result.json states files_touched; a number smaller than the
    changes its distinct paths must be (half of them, rounded up, if every one
    were a rename, which lists two paths) cannot shrink the budget."""
    changes = ChangeSet(files=from_paths(paths), files_touched=stated, source="writer")
    verdict = run(changes, limit=limit)
    touched = max(stated, -(-len(set(paths)) // 2))
    assert verdict.passed == (touched <= limit)
    assert verdict.message.startswith(f"{touched} path")
