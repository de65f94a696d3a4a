"""The README's first screen works as written, from a fresh copy of this repository.

First screen: everything before the first `## ` heading.  It must show how to
try the gate (two commands), how to run the tests (the command `.ci/run`
runs), how to add it to a repository (`gate init --workflow`, a commit, the
required check) and where the docs are.  The try-it and add-it blocks are run
line by line, exactly as printed: the first in a fresh copy of this
repository's tracked files with a fresh virtualenv (a real `pip install .`),
the last in a fresh git repository standing for the user's.  The test block
is not run here (it is this suite); `.ci/run` must run its command verbatim.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from docs_markdown import broken_link, parse

from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIRST_SCREEN = README.split("\n## ", 1)[0]
# pip's cache as it was before the fixtures moved HOME: `pip install .` then
# reuses downloaded wheels (the install itself is what is tested).
PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or os.path.expanduser("~/.cache/pip")


def shell_blocks(text: str) -> list[list[str]]:
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)
    return [
        [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
        for block in blocks
    ]


def test_first_screen_has_the_four_parts() -> None:
    try_it, run_tests, add_it = shell_blocks(FIRST_SCREEN)
    assert try_it == ["pip install .", "gate demo"]
    assert run_tests == ["pip install -e '.[test,act]'", "python -m pytest"]
    assert len(add_it) == 2
    assert add_it[0].startswith("gate init --workflow --action ")
    assert add_it[1].startswith("git add .github && git commit")
    assert "required" in FIRST_SCREEN and "`blast-radius`" in FIRST_SCREEN
    assert "**Docs:**" in FIRST_SCREEN
    assert len(FIRST_SCREEN.splitlines()) <= 45  # one screen


def test_ci_runs_the_first_screens_test_command() -> None:
    """`.ci/run` installs the extras and runs the README's test command as
    printed (coverage comes in through PYTEST_ADDOPTS, not extra arguments)."""
    _, run_tests, _ = shell_blocks(FIRST_SCREEN)
    install, test = run_tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in ci.splitlines()]
    extras = install.removeprefix("pip install ")
    assert any("pip install" in line and line.endswith(extras) for line in commands), install
    env_then = r'(?:[A-Z_]+=(?:"[^"]*"|\S+) )*'
    shape = env_then + re.escape(test) + r"(?: \|\|.*)?"
    assert any(re.fullmatch(shape, line) for line in commands), f"{test!r} is not run by .ci/run"


def test_first_screen_links_resolve() -> None:
    """The first screen links to the docs pages, and every link lands on a
    file and a heading that exist."""
    readme = parse(ROOT / "README.md")
    links = re.findall(r"\]\(([^)]+)\)", FIRST_SCREEN)
    assert len(links) >= 5
    assert {link.partition("#")[0] for link in links} >= {
        "docs/rubric.md",
        "docs/rules.md",
        "docs/commands.md",
        "docs/action.md",
    }
    for link in links:
        assert broken_link(readme, link) is None, link


def run_line(line: str, cwd: Path, env: dict[str, str]) -> None:
    proc = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", line], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, f"{line!r} failed in {cwd}:\n{proc.stdout}\n{proc.stderr}"


def fresh_copy(target: Path) -> None:
    """This repository's tracked files as they are now, in a new git repository."""
    listed = GitRepo.at(ROOT).git("ls-files", "-z")
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the work tree, not yet committed
        dest = target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, dest, follow_symlinks=False)
    GitRepo(target).commit("fresh clone")


@pytest.mark.skipif(shutil.which("bash") is None, reason="the README's commands are bash")
def test_first_screen_commands_work_from_a_fresh_clone(tmp_path: Path) -> None:
    try_it, _, add_it = shell_blocks(FIRST_SCREEN)
    clone = tmp_path / "blast-radius-gate"
    fresh_copy(clone)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {
        **os.environ,
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "VIRTUAL_ENV": str(venv),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_CACHE_DIR": PIP_CACHE,
    }
    env.pop("PYTHONPATH", None)
    for line in try_it:
        run_line(line, clone, env)

    app = GitRepo(tmp_path / "your-repository")
    app.write("README.md", "an app\n")
    app.commit("app")
    for line in add_it:
        run_line(line, app.root, env)
    committed = app.git("ls-tree", "-r", "--name-only", "HEAD").split()
    assert ".github/blast-radius.yml" in committed
    assert ".github/workflows/blast-radius.yml" in committed
    # The installed command is the one from the fresh copy, not this checkout.
    where = subprocess.run(
        ["gate", "--version"], cwd=app.root, env=env, capture_output=True, text=True, check=True
    )
    assert where.stdout.startswith("gate ")
