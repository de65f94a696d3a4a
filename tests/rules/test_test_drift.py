"""test_drift: tests that exist at base stay as they are."""

from __future__ import annotations

from typing import Any

import pytest

from gate.changes import (
    ADDED,
    COPIED,
    DELETED,
    RENAMED,
    TYPE_CHANGED,
    ChangeSet,
    FileChange,
    from_paths,
)
from gate.rubric import DEFAULT_TESTS, Rule
from gate.rules import test_drift

TESTS = list(DEFAULT_TESTS)


def one(f: FileChange) -> ChangeSet:
    return ChangeSet(files=(f,))


CASES = [
    # (label, changes, params, passed, message, paths)
    ("no change", ChangeSet(), {}, True, "no test that exists at base was changed", []),
    (
        "source file only",
        one(FileChange("clamp_kit.py", added=1, deleted=1)),
        {},
        True,
        "no test",
        [],
    ),
    (
        "modified test",
        one(FileChange("test_clamp.py", added=0, deleted=2)),
        {},
        False,
        "1 test file that exists at base changed (1 modified)",
        ["test_clamp.py"],
    ),
    (
        "deleted test directory file",
        one(FileChange("tests/unit/x.txt", status=DELETED)),
        {},
        False,
        "(1 deleted)",
        ["tests/unit/x.txt"],
    ),
    (
        "renamed test, both sides listed",
        one(FileChange("tests/b.py", old_path="tests/a.py", status=RENAMED)),
        {},
        False,
        "(1 renamed)",
        ["tests/a.py", "tests/b.py"],
    ),
    (
        "renamed away from the test tree",
        one(FileChange("src/helper.py", old_path="tests/helper.py", status=RENAMED)),
        {},
        False,
        "(1 renamed)",
        ["src/helper.py", "tests/helper.py"],
    ),
    (
        "renamed onto a test path",
        one(FileChange("tests/helper.py", old_path="src/helper.py", status=RENAMED)),
        {},
        False,
        "(1 renamed)",
        ["src/helper.py", "tests/helper.py"],
    ),
    (
        "mode change only",
        one(FileChange("tests/run.sh", old_mode="100644", new_mode="100755")),
        {},
        False,
        "(1 mode-changed)",
        ["tests/run.sh"],
    ),
    (
        "type change",
        one(FileChange("tests/link", status=TYPE_CHANGED, old_mode="100644", new_mode="120000")),
        {},
        False,
        "(1 type-changed)",
        ["tests/link"],
    ),
    (
        "new test allowed by default",
        one(FileChange("tests/test_new.py", status=ADDED, added=5)),
        {},
        True,
        "no test",
        [],
    ),
    (
        "new test refused",
        one(FileChange("tests/test_new.py", status=ADDED, added=5)),
        {"allow_added": False},
        False,
        "1 new test file added and allow_added is false",
        ["tests/test_new.py"],
    ),
    (
        "copy into the tests is a new test",
        one(FileChange("tests/test_b.py", old_path="tests/test_a.py", status=COPIED)),
        {"allow_added": False},
        False,
        "1 new test file added",
        ["tests/test_b.py"],
    ),
    (
        "copy allowed by default",
        one(FileChange("tests/test_b.py", old_path="tests/test_a.py", status=COPIED)),
        {},
        True,
        "no test",
        [],
    ),
    (
        "unknown status from result.json",
        ChangeSet(files=from_paths(["tests/test_a.py", "src/a.py"]), source="writer"),
        {},
        False,
        "1 test path with unknown status (the source, writer, does not say",
        ["tests/test_a.py"],
    ),
    (
        "unknown status outside the tests passes",
        ChangeSet(files=from_paths(["src/a.py"]), source="writer"),
        {},
        True,
        "no test",
        [],
    ),
    (
        "custom paths replace the defaults",
        ChangeSet(files=(FileChange("tests/a.py"), FileChange("qa/check.py"))),
        {"paths": ["qa/"]},
        False,
        "(1 modified)",
        ["qa/check.py"],
    ),
    (
        "mixed breakdown in a fixed order",
        ChangeSet(
            files=(
                FileChange("tests/z.py", status=DELETED),
                FileChange("tests/a.py"),
                FileChange("tests/new.py", status=ADDED),
                FileChange("a_test.go"),
            )
        ),
        {"allow_added": False},
        False,
        "3 test files that exist at base changed (2 modified, 1 deleted)",
        ["a_test.go", "tests/a.py", "tests/new.py", "tests/z.py"],
    ),
    (
        "default globs: conftest at depth",
        one(FileChange("pkg/conftest.py")),
        {},
        False,
        "1 modified",
        ["pkg/conftest.py"],
    ),
    (
        "default globs: js spec",
        one(FileChange("web/app.spec.ts")),
        {},
        False,
        "1 modified",
        ["web/app.spec.ts"],
    ),
    (
        "default globs: __tests__ dir",
        one(FileChange("web/__tests__/x.js")),
        {},
        False,
        "1 modified",
        ["web/__tests__/x.js"],
    ),
    ("default globs: not a test", one(FileChange("src/contest.py")), {}, True, "no test", []),
    (
        "default globs: unittest discovers test*.py",
        one(FileChange("src/testing.py")),
        {},
        False,
        "1 modified",
        ["src/testing.py"],
    ),
    (
        "default globs: Django's app/tests.py",
        one(FileChange("shop/tests.py")),
        {},
        False,
        "1 modified",
        ["shop/tests.py"],
    ),
]


@pytest.mark.parametrize(
    ("changes", "params", "passed", "message", "paths"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_test_drift(
    changes: ChangeSet, params: dict[str, Any], passed: bool, message: str, paths: list[str]
) -> None:
    full = {"allow_added": True, "paths": TESTS, **params}
    result = test_drift.check(Rule(id="TESTS", kind="test_drift", params=full), changes)
    assert result.passed is passed
    assert message in result.message
    assert list(result.paths) == paths


def test_defaults_apply_when_params_are_absent() -> None:
    changes = one(FileChange("tests/test_a.py"))
    result = test_drift.check(Rule(id="T", kind="test_drift"), changes)
    assert not result.passed
    assert result.paths == ("tests/test_a.py",)
