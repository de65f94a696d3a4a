"""forbidden_path: plain string prefix on every touched path."""

from __future__ import annotations

from gate.model.change import ChangeSet, from_paths
from tests.rulecase import Change, Files, RuleCase, copied, modified, renamed, table

CASE = RuleCase("forbidden_path", id="F2")


CASES = [
    (
        "no hit",
        modified("src/a.py"),
        "secrets/",
        True,
        'no touched path starts with "secrets/"',
        [],
    ),
    ("empty change", Files(), "secrets/", True, "no touched path", []),
    (
        "hit",
        modified("secrets/k", "a"),
        "secrets/",
        False,
        '1 touched path starts with "secrets/"',
        ["secrets/k"],
    ),
    (
        "several hits, sorted",
        modified("secrets/z", "secrets/a/b", "x"),
        "secrets/",
        False,
        "2 touched paths start with",
        ["secrets/a/b", "secrets/z"],
    ),
    (
        "plain prefix, not a directory",
        modified("secretsauce.txt"),
        "secrets",
        False,
        "1 touched",
        ["secretsauce.txt"],
    ),
    ("no glob meaning", modified("secrets/a"), "secret*", True, "no touched path", []),
    (
        "literal star matches only a star",
        modified("secret*/a"),
        "secret*",
        False,
        "1 touched",
        ["secret*/a"],
    ),
    (
        "another letter case reaches the same place",
        modified("Secrets/a", "SECRETS/b"),
        "secrets/",
        False,
        "2 of them in another letter case",
        ["SECRETS/b", "Secrets/a"],
    ),
    (
        "the directory itself as a file, symlink or submodule",
        # a file `config` becomes a folder holding a file `config/prod`
        Files(
            base={"secrets": "a\n", "config": "a\n", "configs": "a\n"},
            head={"secrets": "b\n", "config/prod": "b\n", "configs": "b\n"},
        ),
        "config/prod/",
        False,
        "2 touched paths",
        ["config", "config/prod"],
    ),
    (
        "prefix only at the start",
        modified("src/secrets/a"),
        "secrets/",
        True,
        "no touched path",
        [],
    ),
    (
        "rename out of the prefix",
        renamed("secrets/k", "public/k"),
        "secrets/",
        False,
        "1 touched",
        ["secrets/k"],
    ),
    (
        "a copy out of the prefix reaches its source",
        copied("secrets/k", "public/k"),
        "secrets/",
        False,
        "1 touched",
        ["secrets/k"],
    ),
    (
        "result.json paths",
        ChangeSet(files=from_paths(["secrets/x"])),
        "secrets/",
        False,
        "1 touched",
        ["secrets/x"],
    ),
    (
        "newline in a path",
        modified("ok\nsecrets/x", "secrets/\n"),
        "secrets/",
        False,
        "1 touched",
        ["secrets/\n"],
    ),
    ("quoted prefix in message", modified("a"), 'we"ird\n', True, r'"we\"ird\n"', []),
]


@table(("changes", "prefix", "passed", "message", "paths"), CASES)
def test_forbidden_path(
    changes: Change, prefix: str, passed: bool, message: str, paths: list[str]
) -> None:
    CASE.judged(changes, passed, message, listed=paths, prefix=prefix)
