"""`gate diff`: two fixtures, one judge; reports compared rule by rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.commands.cli import main

RUBRIC = """{
  "rules": [
    {"id": "F1", "kind": "max_files", "limit": 3},
    {"id": "F2", "kind": "must_include", "token": "EXIT=0"},
    {"id": "F3", "kind": "forbidden_path", "prefix": "secrets/"}
  ]
}
"""
PASS = {"files_touched": 2, "stdout": "EXIT=0\n", "paths": ["src/app.py", "fixture/input.txt"]}


@pytest.fixture
def reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    """Real reports from `gate grade --output`: a pass, an F1 fail, an F3 fail."""
    monkeypatch.chdir(tmp_path)
    Path("rubric.json").write_text(RUBRIC, encoding="utf-8")
    for name, result in {
        "pass": PASS,
        "pass2": {**PASS, "paths": ["src/other.py"]},
        "f1": {**PASS, "files_touched": 9},
        "f3": {**PASS, "paths": ["secrets/keys"]},
    }.items():
        Path(f"{name}.result.json").write_text(json.dumps(result), encoding="utf-8")
        main(
            [
                "grade",
                f"{name}.result.json",
                "--rubric-file",
                "rubric.json",
                "--output",
                f"{name}.json",
            ]
        )
    capsys.readouterr()
    return tmp_path


def test_agree(reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "pass.json", "pass2.json"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("AGREE: all 5 rules got the same verdict\n")


def test_same_report_agrees(reports: Path) -> None:
    assert main(["diff", "f1.json", "f1.json"]) == 0


def test_disagree_lists_the_rule(reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "pass.json", "f1.json"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("DIFFER: 1 rules disagree")
    assert "differs F1 (max_files): A pass, B fail" in lines
    assert not any("F3" in line for line in lines)


def test_disagree_json(reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "f1.json", "f3.json", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["agree"] is False and data["same_rubric"] is True
    assert [(d["id"], d["a"], d["b"]) for d in data["differ"]] == [
        ("F1", "fail", "pass"),
        ("F3", "pass", "fail"),
    ]
    assert data["only_a"] == [] and data["only_b"] == []
    assert data["agreeing_rules"] == 3  # F2 and the built-ins rubric-edited and rubric-selftest


def test_disagree_markdown(reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "pass.json", "f3.json", "--format", "markdown"]) == 1
    md = capsys.readouterr().out
    assert md.startswith("### ❌ Reports disagree")
    assert "| `F3` | forbidden\\_path | pass | fail |" in md


def edit(path: str, fn: Any) -> None:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    fn(data)
    Path(path).write_text(json.dumps(data), encoding="utf-8")


def test_rule_only_in_one_report_is_a_disagreement(
    reports: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit("pass2.json", lambda d: d["results"].pop())
    assert main(["diff", "pass.json", "pass2.json", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["differ"] == []
    assert data["only_a"] == [{"id": "F3", "kind": "forbidden_path", "a": "pass"}]
    assert main(["diff", "pass2.json", "pass.json"]) == 1
    assert "only in B: F3 (pass)" in capsys.readouterr().out.splitlines()


def test_different_rubric_is_noted(reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit("pass2.json", lambda d: d.update(rubric_sha256="0" * 64))
    assert main(["diff", "pass.json", "pass2.json"]) == 0
    assert "different rubrics" in capsys.readouterr().out


def test_hostile_messages_escaped(reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def hostile(d: dict[str, Any]) -> None:
        (f1,) = (r for r in d["results"] if r["id"] == "F1")
        f1["message"] = "x\n| forged | row |\n<img src=x onerror=alert(1)> @everyone"

    edit("f1.json", hostile)
    assert main(["diff", "pass.json", "f1.json", "--format", "markdown"]) == 1
    md = capsys.readouterr().out
    assert "<img" not in md and "@everyone" not in md
    assert "\\| forged" in md and not any(line.startswith("| forged") for line in md.splitlines())
    assert main(["diff", "pass.json", "f1.json"]) == 1
    text = capsys.readouterr().out
    assert "\n| forged" not in text


@pytest.mark.parametrize(
    "content",
    [
        '{"pass": true, "results": [',
        "[]",
        '{"pass": true}',
        '{"results": [{"id": "F1"}]}',
        '{"results": [{"pass": true}]}',
        '{"results": [{"id": "F1", "pass": "yes"}]}',
        '{"results": [{"id": "F1", "pass": true}, {"id": "F1", "pass": false}]}',
        '{"missing": ["paths"]}',
    ],
)
def test_invalid_report_exit_2(
    reports: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    Path("bad.json").write_text(content, encoding="utf-8")
    assert main(["diff", "pass.json", "bad.json"]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "Traceback" not in err


def test_missing_report_exit_2(reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "pass.json", "nope.json"]) == 2
    assert "nope.json does not exist" in capsys.readouterr().err


def test_diff_json_is_deterministic(reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["diff", "f1.json", "f3.json", "--format", "json"])
    first = capsys.readouterr().out
    main(["diff", "f1.json", "f3.json", "--format", "json"])
    assert capsys.readouterr().out == first
