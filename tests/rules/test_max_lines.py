"""max_lines: totals over text files, count modes, exclude, unknown counts."""

from __future__ import annotations

from typing import Any

from gate.model.change import ChangeSet, FileChange, from_paths
from tests.rulecase import BODY, Change, Files, RuleCase, edit, renamed, table

CASE = RuleCase("max_lines", id="L")


# Committed, and counted by git: a.py +3 -2, docs/b.md +10 (new), logo.png
# binary (a NUL byte), so every line of both versions counts: +7 -4.
A = edit("a.py", "one\ntwo\nkept\n", "kept\nthree\nfour\nfive\n")
B = edit("docs/b.md", None, "".join(f"line {n}\n" for n in range(10)))
BIN = edit("logo.png", b"\0png\n" * 4, b"\0png2\n" * 7)
# What no commit gives (a source's unknown counts), or needs a submodule:
# the change sets those sources build.
A_COUNTED = FileChange("a.py", added=3, deleted=2)
SUB = FileChange("vendor/lib", added=0, deleted=0, old_mode="160000", new_mode="160000")
UNSUB = FileChange("vendor/lib", added=0, deleted=9, old_mode="100644", new_mode="160000")
BIN_COUNTED = FileChange("logo.png", added=7, deleted=4, binary=True)
HUGE = FileChange(
    "model.bin", added=None, deleted=None, binary=True, uncounted="it is too large to count"
)

CASES = [
    ("empty", Files(), {"limit": 0}, True, "0 lines changed (0 added, 0 deleted); limit 0", []),
    ("changed at limit", A, {"limit": 5}, True, "5 lines changed", []),
    (
        "changed over",
        A | B,
        {"limit": 14},
        False,
        "15 lines changed (13 added, 2 deleted); limit 14",
        ["a.py", "docs/b.md"],
    ),
    (
        "added mode",
        A,
        {"limit": 3, "count": "added"},
        True,
        "3 lines added",
        [],
    ),
    (
        "added mode over",
        A,
        {"limit": 2, "count": "added"},
        False,
        "3 lines added; limit 2",
        ["a.py"],
    ),
    (
        "deleted mode ignores additions",
        A | B,
        {"limit": 2, "count": "deleted"},
        True,
        "2 lines deleted; limit 2",
        [],
    ),
    (
        "deleted mode lists only contributing files",
        A | B,
        {"limit": 1, "count": "deleted"},
        False,
        "2 lines deleted; limit 1",
        ["a.py"],
    ),
    (
        "exclude glob",
        A | B,
        {"limit": 5, "exclude": ["*.md"]},
        True,
        "5 lines changed",
        [],
    ),
    (
        "binary files count their lines, and the message says so",
        A | BIN,
        {"limit": 15},
        False,
        "16 lines changed (10 added, 6 deleted); limit 15; 1 binary file counted whole",
        ["a.py", "logo.png"],
    ),
    (
        "binary files can be excluded",
        ChangeSet(files=(A_COUNTED, BIN_COUNTED, HUGE)),
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
        ChangeSet(files=(A_COUNTED, HUGE)),
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
        ChangeSet(files=(A_COUNTED, FileChange("c.py", added=None, deleted=None))),
        {"limit": 100},
        False,
        "no line counts for 1 file",
        ["c.py"],
    ),
    (
        "unknown counts on an excluded file do not matter",
        ChangeSet(files=(A_COUNTED, *from_paths(["docs/c.md"]))),
        {"limit": 5, "exclude": ["docs/"]},
        True,
        "5 lines changed",
        [],
    ),
    (
        "rename half-excluded still counts",
        Files(base={"docs/a.py": BODY}, head={"src/a.py": BODY + "two\nmore\n"}),
        {"limit": 1, "exclude": ["docs/"]},
        False,
        "2 lines changed",
        ["docs/a.py", "src/a.py"],
    ),
    (
        "pure rename with 0 lines passes a 0 budget",
        renamed("a.py", "b.py"),
        {"limit": 0},
        True,
        "0 lines changed",
        [],
    ),
]


@table(("changes", "params", "passed", "message", "paths"), CASES)
def test_max_lines(
    changes: Change, params: dict[str, Any], passed: bool, message: str, paths: list[str]
) -> None:
    CASE.judged(changes, passed, message, listed=paths, **params)
