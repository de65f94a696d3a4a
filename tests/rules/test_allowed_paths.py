"""allowed_paths: every touched path must match some glob."""

from __future__ import annotations

from gate.model.change import ChangeSet, from_paths
from gate.model.rubric import Rule
from gate.rules import allowed_paths
from tests.rulecase import Change, Files, RuleCase, modified, renamed, table

CASE = RuleCase("allowed_paths", id="FILES")


CASES = [
    (
        "all allowed",
        modified("clamp_kit.py"),
        ["clamp_kit.py"],
        True,
        "every touched path matches the allowed globs (1)",
        [],
    ),
    ("empty change passes", Files(), ["clamp_kit.py"], True, "(0)", []),
    (
        "one outside",
        modified("clamp_kit.py", "test_clamp.py"),
        ["clamp_kit.py"],
        False,
        "1 touched path lies outside the allowed globs",
        ["test_clamp.py"],
    ),
    (
        "several outside, sorted",
        modified("z", "docs/a.md", "b"),
        ["docs/"],
        False,
        "2 touched paths lie outside",
        ["b", "z"],
    ),
    (
        "plain name matches at any depth",
        modified("pkg/clamp_kit.py"),
        ["clamp_kit.py"],
        True,
        "every touched path",
        [],
    ),
    (
        "anchored name does not",
        modified("pkg/clamp_kit.py"),
        ["/clamp_kit.py"],
        False,
        "1 touched",
        ["pkg/clamp_kit.py"],
    ),
    (
        "rename to outside fails on the new side",
        renamed("src/a.py", "other/a.py"),
        ["src/"],
        False,
        "1 touched",
        ["other/a.py"],
    ),
    (
        "rename from outside fails on the old side",
        renamed("other/a.py", "src/a.py"),
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
    (
        "a newline is part of a name",
        modified("src/a\nb"),
        ["src/*"],
        True,
        "every touched path",
        [],
    ),
    (
        "a newline does not end a segment",
        modified("src/a\n../x"),
        ["src/*"],
        False,
        "1 touched",
        ["src/a\n../x"],
    ),
    ("newline in a name outside", modified("x\nsrc/a"), ["src/"], False, "1 touched", ["x\nsrc/a"]),
]


@table(("changes", "patterns", "passed", "message", "paths"), CASES)
def test_allowed_paths(
    changes: Change, patterns: list[str], passed: bool, message: str, paths: list[str]
) -> None:
    CASE.judged(changes, passed, message, listed=paths, paths=patterns)


def test_no_globs_allow_nothing() -> None:
    """The loader refuses an empty list; the rule, given one anyway, allows nothing."""
    rule = Rule(id="FILES", kind="allowed_paths", params={"paths": []})
    result = allowed_paths.check(rule, CASE.change(modified("a"), paths=["a"]))
    assert not result.passed and "1 touched" in result.message and list(result.paths) == ["a"]
