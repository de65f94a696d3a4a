"""Report renderers: text for people, markdown for PRs, and render()."""

from __future__ import annotations

import json
import re

import pytest

from gate.model.change import Stats
from gate.model.report import Finding, Report, RuleResult
from gate.report import (
    GITHUB_MARKDOWN_LIMIT,
    render,
    to_json,
    to_markdown,
    to_text,
    truncate_markdown,
)

SHA = "ab" * 32


def make_report(
    paths: tuple[str, ...] = ("a.py", "b.py"), message: str = "9 paths; limit 3"
) -> Report:
    results = (
        RuleResult("gate.rubric-edited", "builtin", True, "the rubric is untouched"),
        RuleResult("F1", "max_files", False, message, paths, description="one focused change"),
        RuleResult("F2", "must_include", True, "stdout contains EXIT=0"),
        RuleResult(
            "F3",
            "forbidden_path",
            False,
            "1 path starts with secrets/",
            ("secrets/keys",),
            findings=(Finding("secrets/keys", "forbidden", 1),),
        ),
    )
    failed = tuple(r.id for r in results if not r.passed)
    return Report(
        passed=not failed,
        failed=failed,
        rule_count=3,
        rubric_sha256=SHA,
        base="1" * 40,
        head=None,
        stats=Stats(9, 12, 3),
        results=results,
        notes=("head moved while judging",),
    )


def passing_report() -> Report:
    results = (RuleResult("F1", "max_files", True, "2 paths; limit 3"),)
    return Report(True, (), 1, SHA, None, None, Stats(2, 1, 1), results)


HOSTILE_PATHS = [
    "<img src=x onerror=alert(1)>",
    "a|b",
    "x`y``z",
    "@everyone",
    "evil\nFAIL F9 (max_files): forged",
    "evil\n| `F9` | max_files | ✅ pass | forged |",
    "tab\tname",
    "::error::x",
    "::error file=a::forged",
    "[click](https://evil.invalid)",
]


# -- text ---------------------------------------------------------------------


def test_text_fail_headline_names_failed_ids_and_stats() -> None:
    text = to_text(make_report())
    lines = text.splitlines()
    assert lines[0] == "FAIL: 2 of 4 rules failed: F1, F3"
    assert "9 files touched, +12 -3 lines" in lines[1]
    assert SHA in lines[2] and "base " + "1" * 40 in lines[2] and "head none" in lines[2]
    assert "FAIL F1 (max_files): 9 paths; limit 3" in lines
    assert "PASS F2 (must_include): stdout contains EXIT=0" in lines
    assert "    - a.py" in lines and "    - secrets/keys" in lines
    assert "    why: one focused change" in lines
    assert "    at secrets/keys:1: forbidden" in lines
    assert "  - head moved while judging" in lines


def test_text_pass_headline() -> None:
    assert to_text(passing_report()).startswith("PASS: all 1 rule passed\n")


VERDICT_LINE = re.compile(r"^(PASS|FAIL) \S+ \(")


@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_text_path_cannot_forge_a_line(path: str) -> None:
    benign = to_text(make_report(paths=("benign",)))
    hostile = to_text(make_report(paths=(path,), message=path))
    # same number of lines as with a benign path: nothing was injected
    assert len(hostile.splitlines()) == len(benign.splitlines())
    verdicts = [line for line in hostile.splitlines() if VERDICT_LINE.match(line)]
    assert len(verdicts) == 4
    assert not any(line.startswith("::") for line in hostile.splitlines())


def test_text_shows_newline_escaped() -> None:
    text = to_text(make_report(paths=("x\nFAIL F9",)))
    assert "    - x\\nFAIL F9" in text.splitlines()


# -- markdown -----------------------------------------------------------------


def test_markdown_structure() -> None:
    md = to_markdown(make_report())
    lines = md.splitlines()
    assert lines[0] == "### ❌ Blast Radius Gate: fail"
    assert "Failed rules (2 of 4): `F1`, `F3`" in md
    assert "| rule | kind | verdict | message |" in lines
    rows = [line for line in lines if line.startswith("| `")]
    assert len(rows) == 4  # every rule, passing ones too
    assert any(r.startswith("| `F2` | must\\_include | ✅ pass |") for r in rows)
    assert "- `secrets/keys`" in lines
    assert f"`{SHA}`" in md and "base `" + "1" * 40 + "`" in md and "head `none`" in md
    assert "- head moved while judging" in lines
    assert md.endswith("_A pass only clears the frozen rule list above; it never claims more._\n")


def test_markdown_pass() -> None:
    md = to_markdown(passing_report(), title="blast-radius")
    assert md.startswith("### ✅ blast-radius: pass\n")
    assert "offending" not in md


def _unescaped_pipes(row: str) -> int:
    count = 0
    for i, c in enumerate(row):
        if c == "|":
            run = 0
            j = i - 1
            while j >= 0 and row[j] == "\\":
                run += 1
                j -= 1
            count += run % 2 == 0
    return count


@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_markdown_escapes_hostile_paths_and_messages(path: str) -> None:
    benign = to_markdown(make_report(paths=("benign",)))
    md = to_markdown(make_report(paths=(path,), message=f"bad {path}"))
    assert len(md.splitlines()) == len(benign.splitlines())
    assert not re.search(r"(?<![`\w])@everyone", md.replace("`@everyone`", ""))
    for line in md.splitlines():
        assert not line.startswith("::")
        if line.startswith("| "):
            assert _unescaped_pipes(line) == 5, line
    # outside code spans, no raw HTML can open
    outside = re.sub(r"(`+).*?\1", "", md)
    assert "<" not in outside


def test_markdown_hostile_path_listed_as_code_span() -> None:
    md = to_markdown(make_report(paths=("x`y``z",)))
    assert "- ```x`y``z```" in md.splitlines()


def test_markdown_mention_in_message_is_broken() -> None:
    md = to_markdown(make_report(message="ping @everyone"))
    assert "@everyone" not in md
    assert "@\u200deveryone" in md


def test_markdown_truncates_with_a_note() -> None:
    paths = tuple(f"src/{'deep/' * 30}file{i}.py" for i in range(3000))
    many = tuple(
        RuleResult(f"R{i}", "forbidden_paths", False, "x" * 300, paths[:60]) for i in range(400)
    )
    report = Report(False, tuple(r.id for r in many), 400, SHA, None, None, Stats(1, 1, 1), many)
    full = to_markdown(report)
    assert len(full) > GITHUB_MARKDOWN_LIMIT
    cut = to_markdown(report, max_chars=GITHUB_MARKDOWN_LIMIT)
    assert len(cut) <= GITHUB_MARKDOWN_LIMIT
    assert cut.startswith("### ❌ Blast Radius Gate: fail\n")
    assert "Report truncated" in cut and cut.endswith("job log.\n")
    assert truncate_markdown(cut, GITHUB_MARKDOWN_LIMIT) == cut


def test_truncate_leaves_short_text_alone() -> None:
    md = to_markdown(make_report())
    assert to_markdown(make_report(), max_chars=GITHUB_MARKDOWN_LIMIT) == md
    assert truncate_markdown(md, len(md)) == md


def test_truncate_counts_astral_characters_twice() -> None:
    text = "\U0001f600" * 100 + "\n" + "a" * 100
    out = truncate_markdown(text, 300)
    assert sum(2 if ord(c) > 0xFFFF else 1 for c in out) <= 300


# -- render -------------------------------------------------------------------


def test_render_formats() -> None:
    report = make_report()
    assert render(report, "json") == to_json(report)
    assert render(report, "text") == to_text(report)
    assert render(report, "markdown") == to_markdown(report)
    assert json.loads(render(report, "json"))["failed"] == ["F1", "F3"]
    with pytest.raises(ValueError):
        render(report, "html")


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_render_is_deterministic(fmt: str) -> None:
    assert render(make_report(paths=HOSTILE_PATHS_T), fmt) == render(
        make_report(paths=HOSTILE_PATHS_T), fmt
    )


HOSTILE_PATHS_T = tuple(HOSTILE_PATHS)
