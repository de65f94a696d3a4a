"""Class 8: inside GitHub Actions, nothing any command prints can issue a workflow command.

Generated hostile names (`::`-prefixed, `##[`, `%0A`, newlines, carriage
returns, U+2028) go into file paths, rubric example names and descriptions,
patch file names and command arguments; every command runs with
GITHUB_ACTIONS=true in every output format, on its success and its error
paths, and `runner_model` reads stdout and stderr as the runner would.
stdout may open and close one fence; stderr must be inert line by line (the
runner reads the two streams as they come, so stderr must not depend on the
stdout fence, nor the other way round).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import runner_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runner_model import NAMES

from gate.base import jsontext
from gate.commands.cli import main

SOME = settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _rubric(name: str) -> str:
    quoted = json.dumps(name)
    return (
        "rules:\n"
        f"  - {{id: F1, kind: max_files, limit: 0, description: {quoted}}}\n"
        f"  - {{id: P1, kind: forbidden_paths, paths: [{json.dumps('d*')}]}}\n"
        "examples:\n"
        f"  - name: {quoted}\n"
        "    expect: pass\n"
        f"    change: [{{path: {quoted}, added: 1}}]\n"
    )


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: --help or a usage error
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _assert_safe(argv: list[str], out: str, err: str) -> None:
    assert runner_model.commands(out) == [], (argv, out)
    assert runner_model.inert(err), (argv, err)


@SOME
@given(names=st.lists(NAMES, min_size=1, max_size=3, unique=True))
def test_no_output_of_any_command_can_issue_a_workflow_command(
    make_repo: Any,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    names: list[str],
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    work = tmp_path_factory.mktemp("work")
    repo = make_repo(f"r{len(list(work.parent.iterdir()))}")
    repo.write(".github/blast-radius.yml", _rubric(names[0]))
    repo.write("app.py", "x = 1\n")
    base = repo.commit("base")
    repo.write_many({name: "k\n" for name in names})
    repo.git("add", "-A")
    patch = work / "p.patch"
    patch.write_bytes(repo.git("diff", "--cached", "--binary").encode("utf-8", "surrogateescape"))
    repo.commit("change")
    # A patch file whose own name is hostile, and its captured stdout.
    hostile_patch = work / names[0].replace("/", "_")
    hostile_patch.write_bytes(patch.read_bytes())
    rubric_file = work / "rubric.yml"
    rubric_file.write_text(_rubric(names[0]))
    result = work / "result.json"
    result.write_text(json.dumps({"files_touched": len(names), "stdout": names[0], "paths": names}))
    bad_result = work / "bad.json"
    bad_result.write_text(
        json.dumps({"files_touched": 1, "stdout": "", "paths": ["../" + names[0]]})
    )
    report = work / "report.json"
    missing = str(work / names[-1].replace("/", "_")) + ".missing"
    root = str(repo.root)
    runs: list[list[str]] = []
    for fmt in ("text", "markdown", "json"):
        runs += [
            ["check", "--repo", root, "--base", base, "--format", fmt, "--output", str(report)],
            ["check", "--repo", root, "--base", base, "--patch", str(patch), "--format", fmt],
            ["grade", str(result), "--rubric", str(rubric_file), "--format", fmt],
            ["grade", str(bad_result), "--rubric", str(rubric_file), "--format", fmt],
            ["diff", str(report), str(report), "--format", fmt],
            ["selftest", str(rubric_file), "--format", fmt],
            ["lab", "--repo", root, "--base", base, str(hostile_patch), missing, "--format", fmt],
        ]
    runs += [
        ["check", "--repo", root, "--base", base, "--patch", missing],
        ["check", "--repo", root, "--base", base, "--rubric", names[0]],
        ["validate", missing],
        ["validate", str(rubric_file)],
        ["freeze", str(rubric_file), missing],
        ["freeze", str(hostile_patch)],
        ["init", "--path", str(rubric_file)],
        ["diff", str(result), missing],
        ["schema"],
        ["check", "--format", names[0]],
    ]
    for argv in runs:
        code, out, err = _run(capsys, argv)
        assert code in (0, 1, 2, 3), argv
        _assert_safe(argv, out, err)
        if "--format" in argv and argv[argv.index("--format") + 1] == "json" and out:
            json.loads(out)  # still JSON, still the same values


def test_json_output_is_the_same_value_and_the_same_bytes_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    value = {"paths": ["##[error]x", "a\u2028b", "###[", "\x85", "::error::y"]}
    text = jsontext.dumps(value)
    assert json.loads(text) == value
    assert "##[" not in text and "\u2028" not in text and "\x85" not in text
    assert runner_model.commands(text) == []
    rubric = tmp_path / "r.yml"
    rubric.write_text("rules:\n  - {id: F1, kind: max_files, limit: 0}\n")
    result = tmp_path / "result.json"
    result.write_text(json.dumps({"files_touched": 1, "stdout": "", "paths": value["paths"]}))
    outputs = []
    for env in ("true", None):
        if env is None:
            monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
        else:
            monkeypatch.setenv("GITHUB_ACTIONS", env)
        main(["grade", str(result), "--rubric", str(rubric), "--format", "json"])
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]


def test_output_never_writes_through_a_planted_symlink(
    repo: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--output` in a checkout the change controls: a symlink at the report's
    name is replaced, a symlinked directory on the way is refused (exit 2)."""
    repo.write(".github/blast-radius.yml", "rules:\n  - {id: F1, kind: max_files, limit: 5}\n")
    base = repo.commit("base")
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "report.json").write_text("keep me")
    repo.symlink("report.json", str(secret / "report.json"))
    repo.symlink("out", str(secret))
    repo.commit("plant")
    monkeypatch.chdir(repo.root)
    args = ["check", "--base", base, "--format", "json"]
    assert main([*args, "--output", "report.json"]) == 0
    assert (secret / "report.json").read_text() == "keep me"
    link = repo.root / "report.json"
    assert not link.is_symlink() and json.loads(link.read_text())["pass"] is True
    capsys.readouterr()
    for target in ("out/report.json", str(repo.root / "out" / "report.json")):
        assert main([*args, "--output", target]) == 2
        err = capsys.readouterr().err
        assert "cannot write report to" in err and "symlink" in err
    assert (secret / "report.json").read_text() == "keep me"
    result = tmp_path / "result.json"
    result.write_text(json.dumps({"files_touched": 0, "stdout": "", "paths": []}))
    rubric = tmp_path / "r.yml"
    rubric.write_text("rules:\n  - {id: F1, kind: max_files, limit: 5}\n")
    assert main(["grade", str(result), "--rubric", str(rubric), "--output", "out/x.json"]) == 2
    assert not (secret / "x.json").exists()
    assert os.listdir(secret) == ["report.json"]


# Modules allowed to touch the process's streams: the one output path, and the
# Action's own log (gate.base.workflow.Log, handed sys.stdout by action.run).
STREAM_OWNERS = {"gate/base/output.py", "gate/base/workflow.py", "gate/action/action.py"}
# Writer programs `gate loop` runs (python -m gate.research.writers.NAME): not the gate
# speaking but a writer, whose stdout is the diff it hands the loop.
WRITER_PROGRAMS = {"gate/research/writers/replay.py"}


def test_every_print_goes_through_one_output_path() -> None:
    """No module writes to stdout or stderr except `gate.base.output` (and the
    Action's log); no module encodes a JSON document except `gate.base.jsontext`."""
    import ast

    root = Path(__file__).resolve().parents[2]
    offenders = []
    for path in sorted((root / "gate").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in WRITER_PROGRAMS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            is_call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            if is_call and node.func.id == "print":  # type: ignore[attr-defined]
                offenders.append(f"{rel}:{node.lineno}: print()")
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("write", "buffer", "writelines")
                and isinstance(node.value, ast.Attribute)
                and node.value.attr in ("stdout", "stderr")
                and rel not in STREAM_OWNERS
            ):
                offenders.append(f"{rel}:{node.lineno}: sys.{node.value.attr}.{node.attr}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("dump", "dumps")
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "json"
                and any(k.arg == "indent" for k in node.keywords)
                and rel != "gate/base/jsontext.py"
            ):
                offenders.append(f"{rel}:{node.lineno}: a JSON document outside gate.base.jsontext")
    assert offenders == []
