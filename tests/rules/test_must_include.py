"""must_include: token substring of the captured stdout; no stdout fails."""

from __future__ import annotations

from tests.rulecase import Files, RuleCase, modified, table

CASE = RuleCase("must_include", id="GREEN")

CASES = [
    ("present", "tests ok\nEXIT=0\n", "EXIT=0", True, 'stdout contains "EXIT=0"'),
    ("absent", "EXIT=1\n", "EXIT=0", False, 'stdout does not contain "EXIT=0"'),
    ("case-sensitive", "exit=0", "EXIT=0", False, "does not contain"),
    ("no regex", "EXIT=00", "EXIT=.0", False, "does not contain"),
    ("empty stdout", "", "EXIT=0", False, "does not contain"),
    ("no stdout captured", None, "EXIT=0", False, "no stdout captured; pass --stdout-file"),
    ("unicode token", "résumé ✓", "✓", True, "contains"),
    ("multi-line token", "a\nb\nc", "b\nc", True, "contains"),
]


@table(("stdout", "token", "passed", "message"), CASES)
def test_must_include(stdout: str | None, token: str, passed: bool, message: str) -> None:
    change = modified("app.py") | Files(stdout=stdout)
    result = CASE.judged(change, passed, message, token=token)
    assert result.paths == ()
