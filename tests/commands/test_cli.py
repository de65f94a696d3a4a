"""The command line shell: one error handler, and workflow-command safety."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gate.commands.cli import main

HOSTILE = "::error::pwned\n##[error]x"


def _hostile_result(tmp_path: Path) -> tuple[str, str]:
    rubric = tmp_path / "rubric.yml"
    rubric.write_text("rules:\n  - {id: F1, kind: max_files, limit: 0}\n")
    result = tmp_path / "result.json"
    result.write_text(json.dumps({"files_touched": 1, "stdout": "", "paths": [HOSTILE]}))
    return str(result), str(rubric)


def test_no_fence_outside_github_actions(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    result, rubric = _hostile_result(tmp_path)
    assert main(["grade", result, "--rubric-file", rubric]) == 1
    out = capsys.readouterr().out
    assert "stop-commands" not in out
    assert out.startswith("FAIL")


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_people_formats_are_fenced_inside_github_actions(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys, monkeypatch, fmt: str
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result, rubric = _hostile_result(tmp_path)
    assert main(["grade", result, "--rubric-file", rubric, "--format", fmt]) == 1
    lines = capsys.readouterr().out.splitlines()
    start = re.fullmatch(r"::stop-commands::(gate-[0-9a-f]{32})", lines[0])
    assert start is not None
    assert lines[-1] == f"::{start.group(1)}::"
    # Between the fences the hostile path is present, but nothing else ends the fence.
    body = "\n".join(lines[1:-1])
    assert "pwned" in body
    assert f"::{start.group(1)}::" not in body


def test_json_is_never_fenced_and_never_a_command(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result, rubric = _hostile_result(tmp_path)
    assert main(["grade", result, "--rubric-file", rubric, "--format", "json"]) == 1
    out = capsys.readouterr().out
    assert "##[" not in out and "\\u0023#[error]" in out
    assert not any(line.lstrip().startswith("::") for line in out.splitlines())
    data = json.loads(out)
    assert data["results"][-1]["paths"] == [HOSTILE]


def test_errors_are_inert_on_stderr_inside_github_actions(
    tmp_path: Path, capsys, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    patch = tmp_path / "x.patch"
    patch.write_text("::error::from a writer\n##[error]x\n")
    rubric = tmp_path / "r.yml"
    rubric.write_text("rules:\n  - {id: F1, kind: max_files, limit: 3}\n")
    code = main(
        ["check", "--patch", str(patch), "--rubric-file", str(rubric), "--repo", str(tmp_path)]
    )
    err = capsys.readouterr().err
    assert code == 2
    (line,) = err.splitlines()
    assert line.startswith("gate: error: ")
    assert "##[" not in line


def test_fence_tokens_are_fresh(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result, rubric = _hostile_result(tmp_path)
    tokens = set()
    for _ in range(2):
        main(["grade", result, "--rubric-file", rubric])
        tokens.add(capsys.readouterr().out.splitlines()[0])
    assert len(tokens) == 2
