"""`gate grade`: seed 003's frozen-judge loop on a writer's result.json."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.changes.writer import changes_from_writer
from gate.commands.cli import main

# Seed 003's rubric, verbatim.
SEED_RUBRIC = """{
  "rules": [
    {"id": "F1", "kind": "max_files", "limit": 3},
    {"id": "F2", "kind": "must_include", "token": "EXIT=0"},
    {"id": "F3", "kind": "forbidden_path", "prefix": "secrets/"}
  ]
}
"""

KNOWN_PASS: dict[str, Any] = {
    "files_touched": 2,
    "stdout": "built fixture\nEXIT=0\n",
    "paths": ["src/app.py", "fixture/input.txt"],
}


@pytest.fixture
def lab(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """rubric.json, freeze.txt and out/result.json, as seed 003 lays them out."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rubric.json").write_text(SEED_RUBRIC, encoding="utf-8")
    digest = hashlib.sha256(SEED_RUBRIC.encode()).hexdigest()
    (tmp_path / "freeze.txt").write_text(f"rubric.json {digest}\n", encoding="utf-8")
    (tmp_path / "out").mkdir()
    write_result(KNOWN_PASS)
    return tmp_path


def write_result(payload: Any, raw: str | None = None) -> None:
    text = raw if raw is not None else json.dumps(payload)
    Path("out/result.json").write_text(text, encoding="utf-8")


def grade(*extra: str) -> int:
    return main(
        [
            "grade",
            "out/result.json",
            "--rubric-file",
            "rubric.json",
            "--freeze",
            "freeze.txt",
            *extra,
        ]
    )


def graded(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = grade("--format", "json")
    return code, json.loads(capsys.readouterr().out)


# -- known pass, then known fail ------------------------------------------------


def test_known_pass(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = graded(capsys)
    assert code == 0
    assert report["pass"] is True and report["failed"] == []
    assert report["rule_count"] == 3
    assert report["rubric_sha256"] == hashlib.sha256(SEED_RUBRIC.encode()).hexdigest()
    assert report["stats"]["files_touched"] == 2
    assert [r["id"] for r in report["results"]] == [
        "gate.rubric-edited",
        "gate.rubric-selftest",
        "F1",
        "F2",
        "F3",
    ]


@pytest.mark.parametrize("expect", ["pass", ["F1"], ["F2", "F3"]])
def test_a_rubric_that_disagrees_with_its_examples_fails_as_in_gate_check(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expect: str | list[str],
) -> None:
    """The examples run first in `gate grade` as in `gate check` and the
    Action: an example whose verdict is not its `expect` fails built-in
    gate.rubric-selftest, even when the writer's result itself passes."""
    monkeypatch.chdir(tmp_path)
    rubric = json.loads(SEED_RUBRIC)
    # Five new files with green output fail F1 only.
    five = [{"path": f"f{i}.py", "status": "added", "added": 1} for i in range(5)]
    rubric["examples"] = [{"name": "five", "expect": expect, "stdout": "EXIT=0", "change": five}]
    Path("rubric.json").write_text(json.dumps(rubric), encoding="utf-8")
    Path("out").mkdir()
    write_result(KNOWN_PASS)
    code = main(["grade", "out/result.json", "--rubric-file", "rubric.json", "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    agrees = expect == ["F1"]
    assert report["failed"] == ([] if agrees else ["gate.rubric-selftest"])
    assert code == (0 if agrees else 1)


@pytest.mark.parametrize(
    ("change", "failed"),
    [
        ({"files_touched": 9}, ["F1"]),
        ({"paths": ["src/app.py", "secrets/keys"]}, ["F3"]),
        ({"stdout": "built fixture\nEXIT=1\n"}, ["F2"]),
        ({"stdout": ""}, ["F2"]),
        (
            {"files_touched": 9, "stdout": "EXIT=1", "paths": ["secrets/keys"]},
            ["F1", "F2", "F3"],
        ),
        ({"paths": [".github/blast-radius.yml"]}, ["gate.rubric-edited"]),
    ],
)
def test_known_fail(
    lab: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], failed: list[str]
) -> None:
    write_result({**KNOWN_PASS, **change})
    code, report = graded(capsys)
    assert code == 1
    assert report["pass"] is False
    assert report["failed"] == failed


def test_extra_keys_are_ignored(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_result({**KNOWN_PASS, "model": "free-writer", "essay": "I only fixed one line."})
    assert graded(capsys)[0] == 0


def test_text_output_names_failed_rule(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_result({**KNOWN_PASS, "paths": ["secrets/keys"]})
    assert grade() == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL: 1 of 5 rules failed: F3\n")
    assert "    - secrets/keys" in out.splitlines()


def test_output_file_matches_json_and_is_deterministic(
    lab: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_result({**KNOWN_PASS, "files_touched": 9})
    assert grade("--format", "json", "--output", "a.json") == 1
    stdout = capsys.readouterr().out
    assert grade("--output", "b.json") == 1
    assert Path("a.json").read_bytes() == Path("b.json").read_bytes()
    assert Path("a.json").read_text(encoding="utf-8") == stdout
    assert str(lab) not in stdout  # no absolute paths


def test_grade_without_freeze(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["grade", "out/result.json", "--rubric-file", "rubric.json", "--format", "json"])
    assert code == 0


def test_markdown_escapes_writer_paths(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_result(
        {**KNOWN_PASS, "paths": ["secrets/<img src=x onerror=alert(1)>", "secrets/@everyone"]}
    )
    assert grade("--format", "markdown") == 1
    md = capsys.readouterr().out
    assert "- `secrets/<img src=x onerror=alert(1)>`" in md.splitlines()
    assert "- `secrets/@everyone`" in md.splitlines()


# -- the field contract ---------------------------------------------------------


@pytest.mark.parametrize(
    "drop",
    [
        ["files_touched"],
        ["stdout"],
        ["paths"],
        ["files_touched", "paths"],
        ["files_touched", "stdout", "paths"],
    ],
)
def test_missing_fields_print_missing_and_exit_2(
    lab: Path, capsys: pytest.CaptureFixture[str], drop: list[str]
) -> None:
    write_result({k: v for k, v in KNOWN_PASS.items() if k not in drop})
    assert grade() == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"missing": drop}
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert "out/result.json" in captured.err
    for name in drop:
        assert name in captured.err


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("files_touched", True),
        ("files_touched", "2"),
        ("files_touched", 2.0),
        ("files_touched", -1),
        ("files_touched", None),
        ("stdout", 0),
        ("stdout", ["EXIT=0"]),
        ("stdout", None),
        ("paths", "src/app.py"),
        ("paths", {"src/app.py": 1}),
        ("paths", ["src/app.py", 3]),
        ("paths", [""]),
        ("paths", ["/etc/passwd"]),
        ("paths", ["../secrets/keys"]),
        ("paths", ["./secrets/keys"]),
        ("paths", ["secrets//keys"]),
    ],
)
def test_mistyped_field_is_named_exit_2(
    lab: Path, capsys: pytest.CaptureFixture[str], field: str, value: Any
) -> None:
    write_result({**KNOWN_PASS, field: value})
    assert grade() == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"mistyped": [field]}
    assert captured.err.startswith("gate: error: out/result.json: ")
    assert field in captured.err and "Traceback" not in captured.err


def test_missing_and_mistyped_together(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_result({"files_touched": False, "paths": []})
    assert grade() == 2
    assert json.loads(capsys.readouterr().out) == {
        "missing": ["stdout"],
        "mistyped": ["files_touched"],
    }


@pytest.mark.parametrize(
    ("raw", "line"),
    [
        ('{"files_touched": 2, "stdout": "EXIT=0"', 1),
        ('{\n  "files_touched": 2,\n  "stdout": "EXIT=0",\n  "paths": ["a",\n', 5),
        ('{"files_touched": 2,,}', 1),
        ("", None),
        ("   \n", None),
        ('{"files_touched": NaN, "stdout": "", "paths": []}', None),
    ],
)
def test_partial_or_invalid_json_exit_2(
    lab: Path, capsys: pytest.CaptureFixture[str], raw: str, line: int | None
) -> None:
    write_result(None, raw=raw)
    assert grade() == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "out/result.json" in captured.err and "Traceback" not in captured.err
    if line is not None:
        assert f"line {line}" in captured.err


@pytest.mark.parametrize("raw", ["[]", '"result"', "2", "null"])
def test_result_must_be_an_object(lab: Path, capsys: pytest.CaptureFixture[str], raw: str) -> None:
    write_result(None, raw=raw)
    assert grade() == 2
    assert "JSON object" in capsys.readouterr().err


def test_duplicate_key_is_refused(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_result(
        None, raw='{"files_touched": 9, "files_touched": 1, "stdout": "EXIT=0", "paths": []}'
    )
    assert grade() == 2
    assert "duplicate key" in capsys.readouterr().err


def test_unreadable_result(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("out/result.json").unlink()
    assert grade() == 2
    assert "out/result.json does not exist" in capsys.readouterr().err
    Path("out/result.json").mkdir()
    assert grade() == 2
    assert "is a directory" in capsys.readouterr().err


def test_non_utf8_result(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("out/result.json").write_bytes(b'{"stdout": "\xff"}')
    assert grade() == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_load_result_builds_a_result_change_set(lab: Path) -> None:
    write_result({**KNOWN_PASS, "paths": ["b.py", "a.py", "a.py"]})
    changes = changes_from_writer("out/result.json")
    assert changes.source == "writer"
    assert changes.files_touched == 2
    assert changes.stdout == KNOWN_PASS["stdout"]
    assert [f.path for f in changes.files] == ["a.py", "b.py"]
    assert all(f.added is None and f.status == "unknown" for f in changes.files)


# -- the freeze ---------------------------------------------------------------


def test_rubric_changed_after_freeze_exit_2(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("rubric.json").write_text(
        SEED_RUBRIC.replace('"limit": 3', '"limit": 30'), encoding="utf-8"
    )
    write_result({**KNOWN_PASS, "files_touched": 9})
    assert grade() == 2
    captured = capsys.readouterr()
    assert "rubric changed after freeze; discard this run" in captured.err
    assert captured.out == ""


def test_freeze_is_checked_before_the_result_is_read(
    lab: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("rubric.json").write_text(SEED_RUBRIC + " ", encoding="utf-8")
    write_result({"stdout": "EXIT=0"})  # would print {"missing": [...]} if read first
    assert grade() == 2
    captured = capsys.readouterr()
    assert "rubric changed after freeze; discard this run" in captured.err
    assert captured.out == ""


def test_gate_freeze_output_is_accepted(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["freeze", "rubric.json"]) == 0
    Path("freeze.txt").write_text(capsys.readouterr().out, encoding="utf-8")
    assert graded(capsys)[0] == 0


def test_bad_rubric_exit_2(lab: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Path("rubric.json").write_text(
        '{"rules": [{"id": "F1", "kind": "max_files"}]}', encoding="utf-8"
    )
    code = main(["grade", "out/result.json", "--rubric-file", "rubric.json"])
    assert code == 2
    assert "Traceback" not in capsys.readouterr().err


_NAMES = st.sampled_from(["secrets", "src", "a b", "x.py", "Secrets", "k\u00e9y", "v1"])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(_NAMES, min_size=1, max_size=4),
    st.lists(st.sampled_from(["\\", "\\\\", "/\\", "\\/"]), min_size=1, max_size=3),
    st.data(),
)
def test_a_backslash_in_a_result_path_is_a_failed_contract(
    lab: Path,
    capsys: pytest.CaptureFixture[str],
    names: list[str],
    separators: list[str],
    data: st.DataObject,
) -> None:
    """`secrets\\keys` passed a `secrets/` prefix rule: git never writes a
    backslash between names, so a result path with one anywhere (as a
    separator, doubled, beside a `/`) is a mistyped `paths` (exit 2), never
    judged as one name."""
    path = names[0]
    for i, name in enumerate(names[1:]):
        path += separators[i % len(separators)] + name
    if "\\" not in path:
        path += data.draw(st.sampled_from(["\\", "\\x"]))
    write_result({**KNOWN_PASS, "paths": ["src/app.py", path]})
    assert grade() == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"mistyped": ["paths"]}
    assert "backslash" in captured.err and captured.err.count("\n") == 1


@pytest.mark.parametrize(("stated", "listed"), [(0, 1), (0, 4), (1, 4), (2, 4), (2, 5), (3, 5)])
def test_the_understated_count_note_names_what_max_files_judged(
    lab: Path, capsys: pytest.CaptureFixture[str], stated: int, listed: int
) -> None:
    """A result that states fewer files than it lists gets a note; the note
    and F1's message give the same count: the stated one, never below half
    the listed paths rounded up."""
    paths = [f"src/f{i}.py" for i in range(listed)]
    write_result({**KNOWN_PASS, "files_touched": stated, "paths": paths})
    _, report = graded(capsys)
    judged = max(stated, (listed + 1) // 2)
    (note,) = report["notes"]
    assert f"max_files judged {judged} " in note
    (f1,) = (r for r in report["results"] if r["id"] == "F1")
    assert f1["message"].startswith(f"{judged} path")
