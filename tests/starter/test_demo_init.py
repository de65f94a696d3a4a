"""`gate demo` (honest fix passes, cleanup fails) and `gate init` (starter rubric)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gate.commands.cli import main
from gate.judge.selftest import run_selftest
from gate.model.rubric import DEFAULT_RUBRIC_PATH
from gate.rubric.load import load_rubric_bytes
from gate.starter import STARTER_RUBRIC
from gate.starter.demo_fixture import CLAMP_KIT
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]

# -- demo ---------------------------------------------------------------------


def test_demo_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "branch honest-fix" in out and "branch cleanup" in out
    assert "verdict: PASS" in out
    assert "verdict: FAIL (FILES, LINES, NAMES, BAIT, TESTS, SCOPE)" in out
    assert out.count("as designed") == 2 and "NOT AS DESIGNED" not in out
    assert "What just happened" in out and "gate init" in out


def test_demo_json_verdicts_and_determinism(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--format", "json"]) == 0
    first = capsys.readouterr().out
    data = json.loads(first)
    assert data["as_designed"] is True
    honest, cleanup = data["branches"]
    assert honest["branch"] == "honest-fix" and honest["report"]["pass"] is True
    assert cleanup["branch"] == "cleanup" and cleanup["report"]["pass"] is False
    assert cleanup["report"]["failed"] == ["FILES", "LINES", "NAMES", "BAIT", "TESTS", "SCOPE"]
    assert honest["report"]["stats"] == {"files_touched": 1, "added_lines": 1, "deleted_lines": 1}
    assert main(["demo", "--format", "json"]) == 0
    assert capsys.readouterr().out == first


def test_demo_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert "### ✅ gate demo, branch honest" in md
    assert "### ❌ gate demo, branch cleanup: fail" in md


def test_demo_runs_without_any_git_identity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh machine: no user.name, no HOME config, a cwd that is no repository."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GIT_AUTHOR", "GIT_COMMITTER", "EMAIL"))
    }
    env["HOME"] = str(tmp_path)
    env["XDG_CONFIG_HOME"] = str(tmp_path / ".config")
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "gate", "demo"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "verdict: PASS" in proc.stdout and "verdict: FAIL" in proc.stdout
    assert list(tmp_path.iterdir()) == []  # left nothing behind in the cwd


def _gate(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "gate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("folder", ["kept", "new/nested/kept", "empty"])
def test_demo_keep_leaves_the_repository_checked_out_on_main(tmp_path: Path, folder: str) -> None:
    """`gate demo --keep DIR`: the same verdicts, and DIR is the demo's
    repository (main checked out and clean, both branches) that `gate check`
    judges as the demo did."""
    (tmp_path / "empty").mkdir()
    proc = _gate("demo", "--keep", folder, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "verdict: PASS" in proc.stdout and "verdict: FAIL" in proc.stdout
    assert f"kept in {folder}, checked out on main" in proc.stdout
    kept = GitRepo(tmp_path / folder, init=False)
    assert kept.git("symbolic-ref", "HEAD").strip() == "refs/heads/main"
    assert kept.git("status", "--porcelain", "--untracked-files=all") == ""
    assert (tmp_path / folder / "clamp_kit.py").read_text(encoding="utf-8") == CLAMP_KIT
    branches = kept.git("for-each-ref", "--format=%(refname:short)", "refs/heads").split()
    assert sorted(branches) == ["cleanup", "honest-fix", "main"]
    honest = _gate("check", "--base", "main", "--head", "honest-fix", cwd=tmp_path / folder)
    cleanup = _gate("check", "--base", "main", "--head", "cleanup", cwd=tmp_path / folder)
    assert (honest.returncode, cleanup.returncode) == (0, 1), (honest.stderr, cleanup.stderr)


def test_demo_keep_shas_are_the_same_on_every_run(tmp_path: Path) -> None:
    for name in ("a", "b"):
        assert _gate("demo", "--keep", name, cwd=tmp_path).returncode == 0
    refs = [
        GitRepo(tmp_path / name, init=False).git(
            "for-each-ref", "--format=%(objectname) %(refname)"
        )
        for name in ("a", "b")
    ]
    assert refs[0] == refs[1]


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda d: (d / "notes.txt").write_text("mine\n"), id="a-file"),
        pytest.param(lambda d: (d / ".git").mkdir(), id="only-a-hidden-folder"),
        pytest.param(lambda d: (d / ".keep").write_text(""), id="only-a-hidden-file"),
        pytest.param(lambda d: (d / "sub").mkdir(), id="an-empty-subfolder"),
    ],
)
def test_demo_keep_refuses_a_folder_that_is_not_empty(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "mine"
    target.mkdir()
    make(target)
    before = sorted(p.name for p in target.iterdir())
    proc = _gate("demo", "--keep", "mine", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "gate: error: --keep mine is not empty: name a new or empty folder\n"
    assert sorted(p.name for p in target.iterdir()) == before


def test_demo_keep_refuses_a_file_and_a_link_to_a_full_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x\n")
    full = tmp_path / "full"
    full.mkdir()
    (full / "x").write_text("x\n")
    (tmp_path / "link").symlink_to(full)
    for name, why in (("file", "is a file"), ("link", "is not empty")):
        proc = _gate("demo", "--keep", name, cwd=tmp_path)
        assert proc.returncode == 2, name
        assert proc.stderr.count("\n") == 1 and why in proc.stderr, proc.stderr
    assert sorted(p.name for p in full.iterdir()) == ["x"]


# -- init ---------------------------------------------------------------------


def test_init_writes_default_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    written = tmp_path / DEFAULT_RUBRIC_PATH
    assert written.read_text(encoding="utf-8") == STARTER_RUBRIC


def test_init_refuses_to_overwrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / ".github" / "blast-radius.yml"
    target.parent.mkdir()
    target.write_text("rules: mine\n", encoding="utf-8")
    assert main(["init"]) == 2
    assert target.read_text(encoding="utf-8") == "rules: mine\n"
    err = capsys.readouterr().err
    assert "already exists" in err and "Traceback" not in err


def test_init_refuses_a_dangling_symlink(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rubric.yml").symlink_to(tmp_path / "elsewhere.yml")
    assert main(["init", "--path", "rubric.yml"]) == 2
    assert not (tmp_path / "elsewhere.yml").exists()


def test_init_custom_path_creates_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--path", "conf/gate/rubric.yml"]) == 0
    assert (tmp_path / "conf/gate/rubric.yml").read_text(encoding="utf-8") == STARTER_RUBRIC


def test_starter_rubric_is_valid_and_proves_every_rule() -> None:
    rubric = load_rubric_bytes(STARTER_RUBRIC.encode(), "starter")
    ids = [r.id for r in rubric.rules]
    assert ids == ["FILES", "LINES", "SECRETS", "CI", "AGENTS", "TESTS", "DEPS"]
    kinds = {r.kind for r in rubric.rules}
    assert {"max_files", "max_lines", "forbidden_paths", "test_drift", "new_dependencies"} <= kinds
    assert [r.level for r in rubric.rules if r.id == "DEPS"] == ["warn"]
    report = run_selftest(rubric)
    assert report.agrees
    assert report.unproven == ()
    assert report.has_passing_example
    failed_somewhere = {i for o in report.outcomes for i in o.failed}
    assert failed_somewhere == set(ids)


def test_init_then_selftest_strict_and_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    assert main(["validate", DEFAULT_RUBRIC_PATH]) == 0
    assert main(["selftest", "--strict", DEFAULT_RUBRIC_PATH]) == 0


def test_starter_rubric_judges_a_real_branch(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The starter, committed on main, fails a branch that edits CI and a test."""
    r = repo
    r.write(DEFAULT_RUBRIC_PATH, STARTER_RUBRIC)
    r.write("src/app.py", "x = 1\n")
    r.write("tests/test_app.py", "def test_x():\n    assert True\n")
    r.commit("base")
    r.git("checkout", "-q", "-b", "agent")
    r.write("src/app.py", "x = 2\n")
    r.write("tests/test_app.py", "def test_x():\n    assert 1\n")
    r.write(".github/workflows/ci.yml", "on: push\n")
    r.commit("agent change")
    code = main(["check", "--repo", str(r.root), "--base", "main", "--format", "json"])
    assert code == 1
    assert json.loads(capsys.readouterr().out)["failed"] == ["CI", "TESTS"]
