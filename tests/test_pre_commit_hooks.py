"""The top-level `.pre-commit-hooks.yaml`: pre-commit's own validator takes
it, and it runs `gate check` as a pre-push hook on the whole change."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from gate.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
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
    assert 'gate = "gate.cli:main"' in text
