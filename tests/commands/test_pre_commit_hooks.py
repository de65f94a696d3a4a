"""The top-level `.pre-commit-hooks.yaml`: pre-commit's own validator takes
it, and it runs `gate check` as a pre-push hook on the whole change."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from gate.commands.cli import build_parser
from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"


def hooks() -> list[dict[str, Any]]:
    data = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return data


def validate(path: Path) -> subprocess.CompletedProcess[str]:
    """`pre-commit validate-manifest PATH`, pre-commit's own schema check."""
    pytest.importorskip("pre_commit", reason="pre-commit is a test extra (pyproject.toml)")
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_pre_commit_validates_the_manifest() -> None:
    done = validate(MANIFEST)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_validator_refuses_a_broken_manifest(tmp_path: Path) -> None:
    """The check above can fail: a hook without its entry, or with a
    language pre-commit does not know, is refused."""
    for broken in ("entry: gate check\n", "language: python\n"):
        bad = tmp_path / "hooks.yaml"
        bad.write_text(MANIFEST.read_text(encoding="utf-8").replace(broken, ""), encoding="utf-8")
        assert validate(bad).returncode != 0, broken
    bad = tmp_path / "hooks.yaml"
    text = MANIFEST.read_text(encoding="utf-8").replace("language: python", "language: pythn")
    bad.write_text(text, encoding="utf-8")
    assert validate(bad).returncode != 0


def test_the_hook_judges_the_whole_change_before_a_push() -> None:
    (hook,) = hooks()
    assert hook["language"] == "python"
    assert hook["stages"] == ["pre-push"]
    assert hook["pass_filenames"] is False  # it judges commits, never a file list
    assert hook["always_run"] is True
    argv = shlex.split(hook["entry"]) + list(hook.get("args", []))
    assert argv[:2] == ["gate", "check"]
    args = build_parser().parse_args(argv[1:])
    # No --base: the branch it merges into (origin/HEAD, main, master), as
    # `gate check` defaults; never the branch's own upstream.
    assert args.base is None and args.head is None and args.patch is None


def test_the_entry_is_the_installed_console_script() -> None:
    """`language: python` installs this package; `gate` is its script."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'gate = "gate.commands.cli:main"' in text


# pip's cache as it was before the fixtures moved HOME (as in
# tests/test_readme_first_screen.py): the hook's install reuses wheels.
PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or os.path.expanduser("~/.cache/pip")


def try_repo(repo: GitRepo, home: Path) -> subprocess.CompletedProcess[str]:
    """`pre-commit try-repo` of this checkout at the pre-push stage: pre-commit
    installs the package into its own environment, as a user's would."""
    pytest.importorskip("pre_commit", reason="pre-commit is a test extra (pyproject.toml)")
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PIP_CACHE_DIR": PIP_CACHE}
    env.pop("PYTHONPATH", None)
    return subprocess.run(
        [
            *(sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "blast-radius-gate"),
            *("--hook-stage", "pre-push", "--all-files", "--verbose"),
        ],
        cwd=repo.root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def test_the_hook_runs_the_gate_before_a_push(repo: GitRepo, tmp_path: Path) -> None:
    """End to end: pre-commit installs the package for the hook, which
    judges the branch against main's rubric and stops a push that touches a
    secret; the same branch without it passes."""
    done = subprocess.run(
        [sys.executable, "-m", "gate", "init"], cwd=repo.root, capture_output=True, check=False
    )
    assert done.returncode == 0
    repo.write("app.py", "a = 1\n")
    repo.commit("rubric")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write("app.py", "a = 2\n")
    repo.commit("honest")
    home = tmp_path / "pre-commit-home"
    passed = try_repo(repo, home)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "PASS: all" in passed.stdout
    repo.write(".env", "TOKEN=x\n")
    repo.commit("oops")
    failed = try_repo(repo, home)
    assert failed.returncode != 0
    assert "FAIL SECRETS" in failed.stdout and "- .env" in failed.stdout
