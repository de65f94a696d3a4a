"""max_files: touched-path budget, renames count once, exclude, stated counts."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gate.model.change import ChangeSet, from_paths
from tests.rulecase import BODY, Change, Files, RuleCase, copied, modified, renamed, table

CASE = RuleCase("max_files", id="F1")


def run(changes: Change, **params: Any) -> Any:
    return CASE.check(changes, **params)


RENAME = renamed("old/a.py", "new/a.py")

CASES = [
    # (label, changes, params, passed, message, paths)
    ("empty change", Files(), {"limit": 0}, True, "0 paths touched; limit 0", []),
    ("under", modified("a", "b"), {"limit": 3}, True, "2 paths touched; limit 3", []),
    ("at limit", modified("a", "b", "c"), {"limit": 3}, True, "3 paths", []),
    (
        "over",
        modified("d", "a", "c", "b"),
        {"limit": 3},
        False,
        "4 paths touched; limit 3",
        ["a", "b", "c", "d"],
    ),
    (
        "one path",
        modified("a"),
        {"limit": 0},
        False,
        "1 path touched; limit 0",
        ["a"],
    ),
    (
        "rename counts once",
        Files(base={**RENAME.base, "x": "old\n"}, head={**RENAME.head, "x": "new\n"}),
        {"limit": 2},
        True,
        "2 paths touched",
        [],
    ),
    (
        "rename lists both sides when over",
        RENAME,
        {"limit": 0},
        False,
        "1 path touched; limit 0",
        ["new/a.py", "old/a.py"],
    ),
    (
        "copy counts its new path only",
        copied("a.py", "b.py"),
        {"limit": 0},
        False,
        "1 path touched",
        ["b.py"],
    ),
    (
        "exclude drops matches",
        modified("docs/a.md", "docs/x/b.md", "src/a.py"),
        {"limit": 1, "exclude": ["docs/"]},
        True,
        "1 path touched (2 excluded); limit 1",
        [],
    ),
    (
        "exclude: rename with one excluded side still counts",
        renamed("docs/a.py", "src/a.py"),
        {"limit": 0, "exclude": ["docs/"]},
        False,
        "1 path touched; limit 0",
        ["src/a.py"],
    ),
    (
        "exclude: rename with both sides excluded does not count",
        renamed("docs/a.md", "docs/b.md"),
        {"limit": 0, "exclude": ["*.md"]},
        True,
        "0 paths touched (1 excluded)",
        [],
    ),
    (
        "deleted and added files count",
        Files(base={"a": BODY}, head={"b": "another text\n"}),
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
        modified("a\nb", "-rf", "::error::x", "ü t.py"),
        {"limit": 3},
        False,
        "4 paths touched",
        ["-rf", "::error::x", "a\nb", "ü t.py"],
    ),
]


@table(("changes", "params", "passed", "message", "paths"), CASES)
def test_max_files(
    changes: Change, params: dict[str, Any], passed: bool, message: str, paths: list[str]
) -> None:
    result = CASE.judged(changes, passed, message, listed=paths, **params)
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
