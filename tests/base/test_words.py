"""No renderer ever says "1 files": counts from 0 to a few, through every report form,
the check-run title, the selftest message and the lab scoreboard."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from gate.action.publish import title_for
from gate.base.words import plural
from gate.model.change import Stats
from gate.model.report import Report, RuleResult
from gate.report import to_markdown, to_text
from gate.research.lab import LabEntry, Scoreboard
from gate.rules.builtin import rubric_selftest

# "1" followed by a plural noun, as a word: the bug this file guards against.
ONE_PLURAL = re.compile(
    r"(?<![\d.+-])1 (files|rules|paths|patches|examples|rubric examples|lines changed|"
    r"uncommitted paths)\b"
)


def report_with(n_results: int, n_failed: int, stats: Stats) -> Report:
    results = tuple(
        RuleResult(id=f"R{i}", kind="max_files", passed=i >= n_failed, message="m")
        for i in range(n_results)
    )
    return Report(
        passed=n_failed == 0,
        failed=tuple(r.id for r in results if not r.passed),
        rule_count=n_results,
        rubric_sha256="0" * 64,
        base=None,
        head=None,
        stats=stats,
        results=results,
    )


STATS = st.builds(
    Stats,
    files_touched=st.integers(0, 3),
    added_lines=st.integers(0, 3),
    deleted_lines=st.integers(0, 3),
    lines_known=st.booleans(),
)


@given(n=st.integers(1, 3), data=st.data(), stats=STATS)
def test_reports_count_in_words(n: int, data: st.DataObject, stats: Stats) -> None:
    failed = data.draw(st.integers(0, n))
    report = report_with(n, failed, stats)
    for text in (to_text(report), to_markdown(report), title_for(report)):
        assert not ONE_PLURAL.search(text), text
    summary = stats.summary()
    assert summary.startswith(plural(stats.files_touched, "file") + " touched")
    assert ("line counts unknown" in summary) is not stats.lines_known
    assert ("+0 -0" in summary) is (
        stats.lines_known and stats.added_lines == 0 and stats.deleted_lines == 0
    )


@given(n=st.integers(0, 3))
def test_selftest_and_lab_count_in_words(n: int) -> None:
    message = rubric_selftest(()).message
    assert not ONE_PLURAL.search(message)
    from gate.research.lab_report import to_text as lab_text

    entries = tuple(
        LabEntry(patch=f"p{i}", applies=False, bucket="infrastructure") for i in range(n)
    )
    result = Scoreboard(base="0" * 40, rubric_sha256="0" * 64, repeat=1, entries=entries)
    assert not ONE_PLURAL.search(lab_text(result))


def test_plural() -> None:
    assert [plural(k, "file") for k in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert (
        plural(1, "patch", "patches") == "1 patch" and plural(3, "patch", "patches") == "3 patches"
    )
