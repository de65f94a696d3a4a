"""must_include: token substring of the captured stdout; no stdout fails."""

from __future__ import annotations

import pytest

from tests.rulecase import Files, RuleCase, modified

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


@pytest.mark.parametrize(
    ("stdout", "token", "passed", "message"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_must_include(stdout: str | None, token: str, passed: bool, message: str) -> None:
    change = modified("app.py") | Files(stdout=stdout)
    result = CASE.check(change, token=token)
    assert result.passed is passed
    assert message in result.message
    assert result.paths == ()
