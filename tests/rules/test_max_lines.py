"""max_lines: totals over text files, count modes, exclude, unknown counts."""

from __future__ import annotations

from typing import Any

import pytest

from gate.changes import RENAMED, ChangeSet, FileChange, from_paths
from gate.rubric import Rule
from gate.rules import max_lines


def run(changes: ChangeSet, **params: Any) -> Any:
    return max_lines.check(Rule(id="L", kind="max_lines", params=params), changes)


A = FileChange("a.py", added=3, deleted=2)
B = FileChange("docs/b.md", added=10, deleted=0)
BIN = FileChange("logo.png", added=7, deleted=4, binary=True)
SUB = FileChange("vendor/lib", added=0, deleted=0, old_mode="160000", new_mode="160000")
UNSUB = FileChange("vendor/lib", added=0, deleted=9, old_mode="100644", new_mode="160000")
HUGE = FileChange(
    "model.bin", added=None, deleted=None, binary=True, uncounted="it is too large to count"
)

CASES = [
    ("empty", ChangeSet(), {"limit": 0}, True, "0 lines changed (0 added, 0 deleted); limit 0", []),
    ("changed at limit", ChangeSet(files=(A,)), {"limit": 5}, True, "5 lines changed", []),
    (
        "changed over",
        ChangeSet(files=(A, B)),
        {"limit": 14},
        False,
        "15 lines changed (13 added, 2 deleted); limit 14",
        ["a.py", "docs/b.md"],
    ),
    (
        "added mode",
        ChangeSet(files=(A,)),
        {"limit": 3, "count": "added"},
        True,
        "3 lines added",
        [],
    ),
    (
        "added mode over",
        ChangeSet(files=(A,)),
        {"limit": 2, "count": "added"},
        False,
        "3 lines added; limit 2",
        ["a.py"],
    ),
    (
        "deleted mode ignores additions",
        ChangeSet(files=(A, B)),
        {"limit": 2, "count": "deleted"},
        True,
        "2 lines deleted; limit 2",
        [],
    ),
    (
        "deleted mode lists only contributing files",
        ChangeSet(files=(A, B)),
        {"limit": 1, "count": "deleted"},
        False,
        "2 lines deleted; limit 1",
        ["a.py"],
    ),
    (
        "exclude glob",
        ChangeSet(files=(A, B)),
        {"limit": 5, "exclude": ["*.md"]},
        True,
        "5 lines changed",
        [],
    ),
    (
        "binary files count their lines, and the message says so",
        ChangeSet(files=(A, BIN)),
        {"limit": 15},
        False,
        "16 lines changed (10 added, 6 deleted); limit 15; 1 binary file counted whole",
        ["a.py", "logo.png"],
    ),
    (
        "binary files can be excluded",
        ChangeSet(files=(A, BIN, HUGE)),
        {"limit": 5, "exclude": ["*.png", "*.bin"]},
        True,
        "5 lines changed (3 added, 2 deleted); limit 5",
        [],
    ),
    (
        "a submodule pointer carries no lines",
        ChangeSet(files=(SUB,)),
        {"limit": 0},
        True,
        "0 lines",
        [],
    ),
    (
        "a file replaced by a submodule counts its deleted lines",
        ChangeSet(files=(SUB, UNSUB)),
        {"limit": 8},
        False,
        "9 lines changed (0 added, 9 deleted)",
        ["vendor/lib"],
    ),
    (
        "a file too large to count fails with its reason",
        ChangeSet(files=(A, HUGE)),
        {"limit": 100},
        False,
        '1 file cannot be counted ("model.bin"): it is too large to count; leave such files '
        "out of the change or out of this rule (`exclude`)",
        ["model.bin"],
    ),
    (
        "unknown counts with and without a reason name both",
        ChangeSet(files=(HUGE, *from_paths(["z.py"])), source="api"),
        {"limit": 100},
        False,
        'the source (api) carries no line counts for 1 file ("z.py"); this rule needs a diff, '
        'for example `gate check`; 1 file cannot be counted ("model.bin")',
        ["model.bin", "z.py"],
    ),
    (
        "unknown counts fail",
        ChangeSet(files=from_paths(["z.py", "a.py"]), source="writer"),
        {"limit": 100},
        False,
        "the source (writer) carries no line counts for 2 files",
        ["a.py", "z.py"],
    ),
    (
        "one unknown count among known ones fails",
        ChangeSet(files=(A, FileChange("c.py", added=None, deleted=None))),
        {"limit": 100},
        False,
        "no line counts for 1 file",
        ["c.py"],
    ),
    (
        "unknown counts on an excluded file do not matter",
        ChangeSet(files=(A, *from_paths(["docs/c.md"]))),
        {"limit": 5, "exclude": ["docs/"]},
        True,
        "5 lines changed",
        [],
    ),
    (
        "rename half-excluded still counts",
        ChangeSet(files=(FileChange("src/a.py", old_path="docs/a.py", status=RENAMED, added=2),)),
        {"limit": 1, "exclude": ["docs/"]},
        False,
        "2 lines changed",
        ["docs/a.py", "src/a.py"],
    ),
    (
        "pure rename with 0 lines passes a 0 budget",
        ChangeSet(files=(FileChange("b.py", old_path="a.py", status=RENAMED),)),
        {"limit": 0},
        True,
        "0 lines changed",
        [],
    ),
]


@pytest.mark.parametrize(
    ("changes", "params", "passed", "message", "paths"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_max_lines(
    changes: ChangeSet, params: dict[str, Any], passed: bool, message: str, paths: list[str]
) -> None:
    result = run(changes, **params)
    assert result.passed is passed
    assert message in result.message
    assert list(result.paths) == paths
