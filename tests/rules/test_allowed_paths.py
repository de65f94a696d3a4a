"""allowed_paths: every touched path must match some glob."""

from __future__ import annotations

import pytest

from gate.changes import RENAMED, ChangeSet, FileChange, from_paths
from gate.rubric import Rule
from gate.rules import allowed_paths


def files(*paths: str) -> ChangeSet:
    return ChangeSet(files=tuple(FileChange(path=p) for p in paths))


CASES = [
    (
        "all allowed",
        files("clamp_kit.py"),
        ["clamp_kit.py"],
        True,
        "every touched path matches the allowed globs (1)",
        [],
    ),
    ("empty change passes", ChangeSet(), ["clamp_kit.py"], True, "(0)", []),
    (
        "one outside",
        files("clamp_kit.py", "test_clamp.py"),
        ["clamp_kit.py"],
        False,
        "1 touched path lies outside the allowed globs",
        ["test_clamp.py"],
    ),
    (
        "several outside, sorted",
        files("z", "docs/a.md", "b"),
        ["docs/"],
        False,
        "2 touched paths lie outside",
        ["b", "z"],
    ),
    (
        "plain name matches at any depth",
        files("pkg/clamp_kit.py"),
        ["clamp_kit.py"],
        True,
        "every touched path",
        [],
    ),
    (
        "anchored name does not",
        files("pkg/clamp_kit.py"),
        ["/clamp_kit.py"],
        False,
        "1 touched",
        ["pkg/clamp_kit.py"],
    ),
    ("no globs allow nothing", files("a"), [], False, "1 touched", ["a"]),
    (
        "rename to outside fails on the new side",
        ChangeSet(files=(FileChange("other/a.py", old_path="src/a.py", status=RENAMED),)),
        ["src/"],
        False,
        "1 touched",
        ["other/a.py"],
    ),
    (
        "rename from outside fails on the old side",
        ChangeSet(files=(FileChange("src/a.py", old_path="other/a.py", status=RENAMED),)),
        ["src/"],
        False,
        "1 touched",
        ["other/a.py"],
    ),
    (
        "result.json paths",
        ChangeSet(files=from_paths(["src/a", "x"])),
        ["src/"],
        False,
        "1 touched",
        ["x"],
    ),
    ("a newline is part of a name", files("src/a\nb"), ["src/*"], True, "every touched path", []),
    (
        "a newline does not end a segment",
        files("src/a\n../x"),
        ["src/*"],
        False,
        "1 touched",
        ["src/a\n../x"],
    ),
    ("newline in a name outside", files("x\nsrc/a"), ["src/"], False, "1 touched", ["x\nsrc/a"]),
]


@pytest.mark.parametrize(
    ("changes", "patterns", "passed", "message", "paths"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_allowed_paths(
    changes: ChangeSet, patterns: list[str], passed: bool, message: str, paths: list[str]
) -> None:
    rule = Rule(id="FILES", kind="allowed_paths", params={"paths": patterns})
    result = allowed_paths.check(rule, changes)
    assert result.passed is passed
    assert message in result.message
    assert list(result.paths) == paths
