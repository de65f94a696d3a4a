"""forbidden_paths: any touched path matching any glob fails."""

from __future__ import annotations

from tests.rulecase import Change, Files, RuleCase, modified, renamed, table

CASE = RuleCase("forbidden_paths", id="F3")


CASES = [
    ("no match", modified("src/a.py"), ["secrets/", "*.pem"], True, "no touched path matches", []),
    ("empty change", Files(), ["**"], True, "no touched path matches", []),
    (
        "directory glob",
        modified("secrets/a/b", "src/a"),
        ["secrets/"],
        False,
        "1 touched path matches",
        ["secrets/a/b"],
    ),
    (
        "unanchored name at any depth",
        modified("a/b/key.pem", "key.pem", "key.pem.txt"),
        ["*.pem"],
        False,
        "2 touched paths match",
        ["a/b/key.pem", "key.pem"],
    ),
    (
        "anchored pattern",
        modified("x/.github/workflows/ci.yml"),
        ["/.github/workflows/"],
        True,
        "no touched",
        [],
    ),
    (
        "anchored pattern hit",
        modified(".github/workflows/ci.yml"),
        ["/.github/workflows/"],
        False,
        "1 touched",
        [".github/workflows/ci.yml"],
    ),
    ("star stays in one segment", modified("src/x/a.py"), ["src/*.py"], True, "no touched", []),
    (
        "double star crosses",
        modified("src/x/a.py"),
        ["src/**/*.py"],
        False,
        "1 touched",
        ["src/x/a.py"],
    ),
    (
        "rename into a forbidden place",
        renamed("a.py", "vendor/a.py"),
        ["vendor/"],
        False,
        "1 touched",
        ["vendor/a.py"],
    ),
    (
        "rename out of a forbidden place",
        renamed("vendor/a.py", "a.py"),
        ["vendor/"],
        False,
        "1 touched",
        ["vendor/a.py"],
    ),
    ("hostile names", modified("dir with space/a\tb", "é/x"), ["é/"], False, "1 touched", ["é/x"]),
]


@table(("changes", "patterns", "passed", "message", "paths"), CASES)
def test_forbidden_paths(
    changes: Change, patterns: list[str], passed: bool, message: str, paths: list[str]
) -> None:
    CASE.judged(changes, passed, message, listed=paths, paths=patterns)
