"""Workflow commands: stop-commands fencing, command escaping, output delimiters."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from gate.base.files import write_new_file
from gate.base.workflow import (
    Log,
    append_summary,
    escape_data,
    escape_property,
    format_output,
    visible,
    write_outputs,
)

HOSTILE = [
    "::error::x",
    "##[error]x",
    "a\n::warning::b",
    "a\r\n##[set-output name=x]y",
    "::stop-commands::x",
    "ghadelimiter_",
    "%0A",
    "\u2028::error::z",
]


def fenced_lines(log: str) -> tuple[list[str], list[str]]:
    """(lines outside stop-commands, lines inside)."""
    outside: list[str] = []
    inside: list[str] = []
    token = None
    for line in log.split("\n"):
        if token is None and line.startswith("::stop-commands::"):
            token = line[len("::stop-commands::") :]
            continue
        if token is not None and line == f"::{token}::":
            token = None
            continue
        (inside if token is not None else outside).append(line)
    assert token is None, "stop-commands never resumed"
    return outside, inside


@pytest.mark.parametrize("text", HOSTILE)
def test_untrusted_text_is_fenced(text: str) -> None:
    buf = io.StringIO()
    Log(buf).untrusted(f"path: {text}")
    outside, inside = fenced_lines(buf.getvalue())
    assert outside == [""]  # every byte of the text is inside the fence
    assert inside[0].startswith("path: a") or inside[0].startswith("path: ")


def test_resume_token_is_fresh_and_absent_from_the_text() -> None:
    tokens = set()
    for _ in range(5):
        buf = io.StringIO()
        Log(buf).untrusted("x")
        tokens.add(buf.getvalue().split("\n")[0])
    assert len(tokens) == 5


def test_visible() -> None:
    assert visible("a\nb\rc\x1bd\u2028e\tf") == "a\\x0ab\\x0dc\\x1bd\\u2028e\tf"


def test_command_escaping() -> None:
    buf = io.StringIO()
    Log(buf).error("50% of\nlines ##[x]", title="a:b,c")
    line = buf.getvalue()
    assert line == "::error title=a%3Ab%2Cc::50%25 of%0Alines ##\u200b[x]\n"
    assert escape_data("\r") == "%0D"
    assert escape_property(":,") == "%3A%2C"


@pytest.mark.parametrize("value", ["", "true", "F1,F2", *HOSTILE, "line1\nline2\n"])
def test_output_delimiter_never_occurs_in_value(value: str) -> None:
    entry = format_output("failed-rules", value)
    header, rest = entry.split("\n", 1)
    name, delim = header.split("<<")
    assert name == "failed-rules"
    assert delim not in value
    assert rest == f"{value}\n{delim}\n"


def test_outputs_and_summary_append(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.write_text("earlier<<EOF\nx\nEOF\n")
    write_outputs(str(out), {"passed": "true", "report": "blast-radius-report.json"})
    text = out.read_text()
    assert text.startswith("earlier<<EOF\nx\nEOF\n")
    assert "passed<<ghadelimiter_" in text and "\nblast-radius-report.json\n" in text
    summary = tmp_path / "summary"
    append_summary(str(summary), "# one")
    append_summary(str(summary), "# two\n")
    assert summary.read_text() == "# one\n# two\n"
    write_outputs(None, {"passed": "true"})  # no GITHUB_OUTPUT: nothing to do
    append_summary(None, "x")


def test_report_file_replaces_a_planted_symlink(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("keep me")
    link = tmp_path / "blast-radius-report.json"
    os.symlink(secret, link)
    write_new_file(str(link), "{}\n")
    assert secret.read_text() == "keep me"
    assert not link.is_symlink() and link.read_text() == "{}\n"
