"""forbidden_paths: any touched path matching any glob fails."""

from __future__ import annotations

import pytest

from gate.changes import RENAMED, ChangeSet, FileChange
from gate.rubric import Rule
from gate.rules import forbidden_paths


def files(*paths: str) -> ChangeSet:
    return ChangeSet(files=tuple(FileChange(path=p) for p in paths))


CASES = [
    ("no match", files("src/a.py"), ["secrets/", "*.pem"], True, "no touched path matches", []),
    ("empty change", ChangeSet(), ["**"], True, "no touched path matches", []),
    (
        "directory glob",
        files("secrets/a/b", "src/a"),
        ["secrets/"],
        False,
        "1 touched path matches",
        ["secrets/a/b"],
    ),
    (
        "unanchored name at any depth",
        files("a/b/key.pem", "key.pem", "key.pem.txt"),
        ["*.pem"],
        False,
        "2 touched paths match",
        ["a/b/key.pem", "key.pem"],
    ),
    (
        "anchored pattern",
        files("x/.github/workflows/ci.yml"),
        ["/.github/workflows/"],
        True,
        "no touched",
        [],
    ),
    (
        "anchored pattern hit",
        files(".github/workflows/ci.yml"),
        ["/.github/workflows/"],
        False,
        "1 touched",
        [".github/workflows/ci.yml"],
    ),
    ("star stays in one segment", files("src/x/a.py"), ["src/*.py"], True, "no touched", []),
    (
        "double star crosses",
        files("src/x/a.py"),
        ["src/**/*.py"],
        False,
        "1 touched",
        ["src/x/a.py"],
    ),
    (
        "rename into a forbidden place",
        ChangeSet(files=(FileChange("vendor/a.py", old_path="a.py", status=RENAMED),)),
        ["vendor/"],
        False,
        "1 touched",
        ["vendor/a.py"],
    ),
    (
        "rename out of a forbidden place",
        ChangeSet(files=(FileChange("a.py", old_path="vendor/a.py", status=RENAMED),)),
        ["vendor/"],
        False,
        "1 touched",
        ["vendor/a.py"],
    ),
    ("hostile names", files("dir with space/a\tb", "é/x"), ["é/"], False, "1 touched", ["é/x"]),
]


@pytest.mark.parametrize(
    ("changes", "patterns", "passed", "message", "paths"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_forbidden_paths(
    changes: ChangeSet, patterns: list[str], passed: bool, message: str, paths: list[str]
) -> None:
    rule = Rule(id="F3", kind="forbidden_paths", params={"paths": patterns})
    result = forbidden_paths.check(rule, changes)
    assert result.passed is passed
    assert message in result.message
    assert list(result.paths) == paths
