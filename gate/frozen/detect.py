"""The test command a repository runs, and what installs its dependencies,
as `gate init --workflow` writes them into the frozen-tests workflow
(`detect`).  A guess from the files at the repository's root, said as one:
the install step is marked for the user to make it what their test job does.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

from gate.base.errors import GateError
from gate.base.files import read_input

# npm's placeholder test script: no tests.
_NO_TESTS = 'echo "Error: no test specified" && exit 1'


@dataclass(frozen=True)
class Detected:
    """The install step's lines (shell), the test command (an argv), and
    which files said so, in words."""

    install: tuple[str, ...]
    test: tuple[str, ...]
    why: str

    @property
    def command(self) -> str:
        return shlex.join(self.test)


def _text(path: Path) -> str | None:
    """A file of the repository as text (`gate.base.files.read_input`), or None
    when it is absent or cannot be read: a guess goes on without it."""
    try:
        data = read_input(path, "file", fix="")
    except GateError:
        return None
    return data.decode("utf-8", errors="replace")


def _package_scripts(root: Path) -> dict[str, object]:
    text = _text(root / "package.json")
    try:
        data = json.loads(text) if text is not None else None
    except ValueError:
        return {}
    scripts = data.get("scripts") if isinstance(data, dict) else None
    return scripts if isinstance(scripts, dict) else {}


def _mentions_pytest(root: Path) -> bool:
    for name in ("pyproject.toml", "setup.cfg", "tox.ini", "requirements-dev.txt"):
        if "pytest" in (_text(root / name) or ""):
            return True
    return (root / "pytest.ini").exists() or any(root.glob("**/conftest.py"))


def detect(root: Path) -> Detected:
    """What `root` (a repository's root) most likely runs its tests with."""
    test = _package_scripts(root).get("test")
    if isinstance(test, str) and test.strip() and test.strip() != _NO_TESTS:
        for lock, tool in (("pnpm-lock.yaml", "pnpm"), ("yarn.lock", "yarn")):
            if (root / lock).exists():
                step = "pnpm install --frozen-lockfile" if tool == "pnpm" else "yarn install"
                return Detected((step,), (tool, "test"), f"package.json's test script, {lock}")
        step = "npm ci" if (root / "package-lock.json").exists() else "npm install"
        return Detected((step,), ("npm", "test"), "package.json's test script")
    if (root / "go.mod").exists():
        return Detected(("go mod download",), ("go", "test", "./..."), "go.mod")
    venv = ("python3 -m venv .venv",)
    if (root / "pyproject.toml").exists() or (root / "setup.py").exists():
        project = ".venv/bin/pip install --quiet -e ."
    elif (root / "requirements.txt").exists():
        project = ".venv/bin/pip install --quiet -r requirements.txt"
    else:
        project = ""
    if _mentions_pytest(root) or not any(root.glob("**/test*.py")):
        pip = f"{project} pytest" if project else ".venv/bin/pip install --quiet pytest"
        return Detected((*venv, pip), (".venv/bin/python", "-m", "pytest"), "pytest")
    steps = (*venv, project) if project else venv
    return Detected(steps, (".venv/bin/python", "-m", "unittest", "discover"), "unittest")
