"""`gate validate`, `gate schema` and `gate freeze` through `gate.commands.cli.main`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from gate.commands.cli import main
from gate.rubric.freeze import read_freeze
from gate.rubric.schema import schema
from gate.starter.demo_fixture import RUBRIC

GOOD = """\
rules:
  - {id: A, kind: max_files, limit: 1}
examples:
  - {name: empty, expect: pass, change: []}
  - {name: two files, expect: [A], change: [{path: a}, {path: b}]}
"""


def test_validate_good_rubric(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rubric.yml"
    path.write_text(GOOD)
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{path}: valid rubric, 1 rule, 2 examples\n"
    assert err == ""


def test_validate_default_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["validate"]) == 2
    assert "rubric file .github/blast-radius.yml does not exist" in capsys.readouterr().err
    Path(".github").mkdir()
    Path(".github/blast-radius.yml").write_text(RUBRIC)
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert out == ".github/blast-radius.yml: valid rubric, 6 rules, 6 examples\n"


def test_validate_json_rubric(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rubric.json"
    path.write_text(json.dumps({"rules": [{"id": "A", "kind": "must_include", "token": "ok"}]}))
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.endswith("valid rubric, 1 rule, 0 examples\n")


def test_validate_bad_rubric_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "rubric.yml"
    path.write_text("rules:\n  - id: F3\n    kind: forbidden_paths\n    pathz: [a]\n")
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f'gate: error: invalid rubric: {path}:4: rule "F3" (forbidden_paths): '
        'unknown key "pathz"; allowed keys: id, kind, description, level, paths, exclude\n'
    )


def test_schema_prints_sorted_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == schema()
    assert out == json.dumps(schema(), sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    assert main(["schema"]) == 0
    assert capsys.readouterr().out == out


def test_freeze_prints_one_line_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.yml").write_text(GOOD)
    Path("b c.yml").write_text(RUBRIC)
    assert main(["freeze", "a.yml", "b c.yml"]) == 0
    out = capsys.readouterr().out
    sha_a = hashlib.sha256(GOOD.encode()).hexdigest()
    sha_b = hashlib.sha256(RUBRIC.encode()).hexdigest()
    assert out == f"a.yml {sha_a}\nb c.yml {sha_b}\n"
    Path("freeze.txt").write_text(out)
    assert read_freeze("freeze.txt") == {"a.yml": sha_a, "b c.yml": sha_b}


def test_freeze_missing_file_exits_2_without_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.yml").write_text(GOOD)
    assert main(["freeze", "a.yml", "missing.yml"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "gate: error: file missing.yml does not exist: check the path\n"
