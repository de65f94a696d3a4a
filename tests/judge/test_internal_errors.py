"""Class 4: an error the gate did not expect exits 2 ("could not judge"), never 1 or 0.

The exception is injected through real code: a toy rule kind, registered in
the rule table under an existing kind's name, raises from inside
`judge.evaluate` exactly where a real rule would.  Every entry point that
judges (git mode, --patch, grade, selftest, lab, the Action) must turn it
into exit 2 with one sentence, and `gate lab` must keep the rest of its
scoreboard.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.base.errors import internal_error
from gate.commands.cli import main
from gate.model.change import ChangeSet
from gate.model.report import RuleResult
from gate.model.rubric import Rule
from gate.rules import REGISTRY

RUBRIC = """\
rules:
  - id: FILES
    kind: max_files
    limit: 5
  - id: TOY
    kind: must_include
    token: ok
"""

# What a bug or an exhausted machine raises; never GateError.
EXCEPTIONS = st.sampled_from(
    [RecursionError, MemoryError, KeyError, ValueError, TypeError, AssertionError, OSError]
)
# The exception's text may echo hostile input: it must stay on one line.
MESSAGES = st.lists(
    st.sampled_from(["a", " ", "\n", "\r", "\u2028", "::error::x", "##[error]", "%0A"]),
    max_size=12,
).map("".join)


class Boom:
    """A toy rule check that raises `exc` when the change touches `trigger`
    (or always, when `trigger` is None)."""

    def __init__(self, exc: BaseException, trigger: str | None = None) -> None:
        self.exc = exc
        self.trigger = trigger

    def __call__(self, rule: Rule, changes: ChangeSet) -> RuleResult:
        if self.trigger is None or self.trigger in changes.touched_paths():
            raise self.exc
        return RuleResult(id=rule.id, kind=rule.kind, passed=True, message="toy: fine")


def _make(exc_type: type[BaseException], message: str) -> BaseException:
    return exc_type() if exc_type is MemoryError and not message else exc_type(message)


def _repo_with_change(make_repo: Any, name: str) -> tuple[Any, str, Path]:
    repo = make_repo(name)
    repo.write(".github/blast-radius.yml", RUBRIC)
    repo.write("app.py", "x = 1\n")
    base = repo.commit("base")
    repo.write("app.py", "x = 2\n")
    repo.git("add", "-A")
    patch = repo.root.parent / f"{name}.patch"
    patch.write_bytes(repo.git("diff", "--cached").encode())
    repo.commit("change")
    return repo, base, patch


def _assert_one_sentence(err: str, exc: BaseException) -> None:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("gate: error: could not judge: ")
    assert type(exc).__name__ in lines[0]
    assert "Traceback" not in err


SLOW = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@SLOW
@given(exc_type=EXCEPTIONS, message=MESSAGES)
def test_every_judging_command_exits_2_on_an_unexpected_error(
    make_repo: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    exc_type: type[BaseException],
    message: str,
) -> None:
    exc = _make(exc_type, message)
    repo, base, patch = _repo_with_change(make_repo, f"r{id(exc)}")
    result = tmp_path / "result.json"
    result.write_text(json.dumps({"files_touched": 1, "stdout": "ok", "paths": ["app.py"]}))
    rubric = tmp_path / "rubric.yml"
    rubric.write_text(RUBRIC)
    root = str(repo.root)
    commands = [
        ["check", "--repo", root, "--base", base, "--format", "json"],
        ["check", "--repo", root, "--base", base, "--patch", str(patch)],
        ["grade", str(result), "--rubric-file", str(rubric), "--format", "markdown"],
    ]
    with monkeypatch.context() as m:
        m.setitem(REGISTRY, "must_include", replace(REGISTRY["must_include"], check=Boom(exc)))
        for argv in commands:
            capsys.readouterr()
            assert main(argv) == 2, argv
            captured = capsys.readouterr()
            _assert_one_sentence(captured.err, exc)
            assert captured.out == ""


def test_selftest_examples_exit_2_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rubric = tmp_path / "rubric.yml"
    rubric.write_text(
        RUBRIC + "examples:\n  - {name: one, expect: pass, change: [{path: a.py, added: 1}]}\n"
    )
    monkeypatch.setitem(
        REGISTRY,
        "must_include",
        replace(REGISTRY["must_include"], check=Boom(RecursionError("deep"))),
    )
    assert main(["selftest", str(rubric)]) == 2
    _assert_one_sentence(capsys.readouterr().err, RecursionError("deep"))


def test_debug_env_adds_the_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = tmp_path / "result.json"
    result.write_text(json.dumps({"files_touched": 1, "stdout": "ok", "paths": ["a.py"]}))
    rubric = tmp_path / "rubric.yml"
    rubric.write_text(RUBRIC)
    monkeypatch.setitem(
        REGISTRY, "must_include", replace(REGISTRY["must_include"], check=Boom(KeyError("k")))
    )
    monkeypatch.setenv("GATE_DEBUG", "1")
    assert main(["grade", str(result), "--rubric-file", str(rubric)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):")
    assert err.rstrip("\n").splitlines()[-1].startswith("gate: error: could not judge:")


def test_memory_error_says_out_of_memory() -> None:
    message = internal_error(MemoryError())
    assert message.startswith("out of memory (MemoryError); ")
    assert "\n" not in internal_error(ValueError("a\nb\u2028c" * 500))
    assert len(internal_error(ValueError("x" * 10_000))) < 500


def test_lab_keeps_the_scoreboard_when_one_patch_breaks_the_judge(
    make_repo: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo = make_repo("lab")
    repo.write(".github/blast-radius.yml", RUBRIC)
    repo.write("app.py", "x = 1\n")
    repo.commit("base")
    patches = []
    for name, path in (("good", "app.py"), ("bad", "boom.py"), ("good2", "other.py")):
        repo.write(path, f"x = '{name}'\n")
        repo.git("add", "-A")
        target = tmp_path / f"{name}.patch"
        target.write_bytes(repo.git("diff", "--cached").encode())
        (tmp_path / f"{name}.patch.stdout").write_text("ok\n")
        repo.git("reset", "-q", "--hard", "HEAD")
        patches.append(str(target))
    missing = str(tmp_path / "missing.patch")
    monkeypatch.setitem(
        REGISTRY,
        "must_include",
        replace(REGISTRY["must_include"], check=Boom(RecursionError("deep"), trigger="boom.py")),
    )
    code = main(["lab", "--repo", str(repo.root), "--format", "json", *patches, missing])
    data = json.loads(capsys.readouterr().out)
    assert code == 2
    rows = {Path(p["patch"]).name: p for p in data["patches"]}
    assert rows["good.patch"]["bucket"] == rows["good2.patch"]["bucket"] == "pass"
    for name in ("bad.patch", "missing.patch"):
        assert rows[name]["bucket"] == "infrastructure"
        assert rows[name]["judge_error"] is True
    assert rows["bad.patch"]["error"].startswith("internal error (RecursionError: deep); ")
    assert "does not exist" in rows["missing.patch"]["error"]
    assert data["judge_errors"] == [patches[1], missing]
