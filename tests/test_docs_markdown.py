"""The docs tests' reader (tests/docs_markdown.py): what a console block
expects, what a heading's anchor is, and which markup is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from docs_markdown import (
    Block,
    anchors,
    broken_link,
    commands,
    github_anchor,
    output_matches,
    parse,
)
from hypothesis import given
from hypothesis import strategies as st

LINE = st.text(alphabet="abc .:[]()$-_\\*", max_size=12).map(str.rstrip)
# Output as compared: blank lines at the end are not part of it.
LINES = st.lists(LINE.filter(lambda line: "..." not in line), max_size=8).filter(
    lambda lines: not lines or lines[-1] != ""
)


@given(LINES)
def test_output_matches_itself(lines: list[str]) -> None:
    assert output_matches(lines, "".join(f"{line}\n" for line in lines))


@given(LINES, st.data())
def test_a_dots_line_stands_for_any_run_of_lines(lines: list[str], data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(lines)))
    end = data.draw(st.integers(start, len(lines)))
    expected = [*lines[:start], "...", *lines[end:]]
    assert output_matches(expected, "".join(f"{line}\n" for line in lines))


@given(LINES.filter(bool), st.data())
def test_a_changed_or_missing_line_does_not_match(lines: list[str], data: st.DataObject) -> None:
    actual = "".join(f"{line}\n" for line in lines)
    i = data.draw(st.integers(0, len(lines) - 1))
    changed = [*lines[:i], lines[i] + "x", *lines[i + 1 :]]
    assert not output_matches(changed, actual)
    assert not output_matches([*lines, "one more"], actual)
    assert not output_matches(lines[:i] + lines[i + 1 :], actual) or lines[i] == ""


def test_dots_inside_a_line_stay_inside_it() -> None:
    assert output_matches(["base ...; head ..."], "base 12ab; head 34cd\n")
    assert not output_matches(["base ...; head x"], "base 1\nmore; head x\n")
    assert output_matches([], "")
    assert not output_matches([], "something\n")


def test_console_commands_statuses_and_continuations() -> None:
    text = "$ gate a \\\n  --x\nout\n[1]\n$ gate b\n"
    found = commands(Block(Path("x.md"), 3, "console", text))
    assert [(c.command, c.expected, c.status, c.line) for c in found] == [
        ("gate a \n  --x", ["out"], 1, 4),
        ("gate b", [], 0, 8),
    ]
    with pytest.raises(ValueError, match="before any"):
        commands(Block(Path("x.md"), 1, "console", "output first\n"))


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("`gate check --patch`", "gate-check---patch"),
        ("Workflows under nektos/act", "workflows-under-nektosact"),
        ("`gate grade`: judge a writer's result", "gate-grade-judge-a-writers-result"),
        (
            "Time to verdict: the Dockerfile or a prebuilt image",
            "time-to-verdict-the-dockerfile-or-a-prebuilt-image",
        ),
        ("1. Freeze the rubric", "1-freeze-the-rubric"),
        ("`max_files`", "max_files"),
    ],
)
def test_github_anchors(heading: str, anchor: str) -> None:
    assert github_anchor(heading) == anchor


def test_repeated_headings_get_numbered_anchors_and_links_are_checked(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# A\n\n## Notes\n\n## Notes\n\n```sh\n# not a heading\n```\n\n"
        "[ok](#notes-1) [bad](#notes-2) [gone](missing.md) [web](https://example.com)\n",
        encoding="utf-8",
    )
    doc = parse(page)
    assert anchors(doc) == {"a", "notes", "notes-1"}
    assert broken_link(doc, "#notes-1") is None
    assert broken_link(doc, "https://example.com") is None
    assert "no heading" in (broken_link(doc, "#notes-2") or "")
    assert "no such file" in (broken_link(doc, "missing.md") or "")


@pytest.mark.parametrize(
    ("markup", "problem"),
    [
        ("<!-- docs-test: skip: -->\n```sh\ntrue\n```\n", "needs a reason"),
        ("<!-- docs-test: skip: later -->\n```yaml\na: 1\n```\n", "only to sh and console"),
        ("<!-- docs-test: run fast -->\n", "unknown docs-test directive"),
        ("```bash\ntrue\n```\n", "not ```bash"),
        ("```text\n$ gate demo\n```\n", "outside a console block"),
        ("```sh\ntrue\n", "never closed"),
        ("<!-- docs-test: file a.txt -->\n", "no block after it"),
    ],
)
def test_markup_that_would_hide_an_example_is_refused(
    tmp_path: Path, markup: str, problem: str
) -> None:
    page = tmp_path / "page.md"
    page.write_text(markup, encoding="utf-8")
    problems = parse(page).problems
    assert len(problems) == 1 and problem in problems[0], problems
