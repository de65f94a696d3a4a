"""The command line alone needs no PyGithub (the `action` extra): every
command a CLI user runs works with PyGithub, requests, urllib3 and
cryptography made unimportable, in a fresh interpreter; only the Action's
API client needs them, and says which install has them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo

ROOT = Path(__file__).resolve().parents[2]

# The `action` extra's packages and what they pull in: PyGithub's `github`,
# requests, urllib3, PyJWT's `jwt`, PyNaCl's `nacl`, cryptography.
BLOCKED = ("github", "requests", "urllib3", "jwt", "nacl", "cryptography")

RUN = f"""
import sys

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Blocker())
for name in list(sys.modules):
    if name.split(".")[0] in {BLOCKED!r}:
        del sys.modules[name]
sys.path.insert(0, {str(ROOT)!r})
if sys.argv[1] == "--import":
    __import__(sys.argv[2])
    raise SystemExit(0)
from gate.commands.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def gate(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_the_blocker_blocks() -> None:
    """The twin that proves the rest: under the blocker PyGithub cannot load."""
    done = gate("--import", "github", cwd=ROOT)
    assert done.returncode != 0 and "blocked" in done.stderr


@pytest.fixture
def change(repo: GitRepo) -> GitRepo:
    """A repository whose rubric `gate init` wrote, and a branch with a change."""
    done = gate("init", cwd=repo.root)
    assert done.returncode == 0, done.stderr
    repo.write("app.py", "print('hi')\n")
    repo.commit("rubric and app")
    repo.git("checkout", "-q", "-b", "agent")
    repo.write("app.py", "print('hello')\n")
    repo.commit("change")
    return repo


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (("check", "--base", "main"), 0),
        (("check", "--base", "main", "--format", "github"), 0),
        (("check", "--base", "main", "--format", "sarif"), 0),
        (("check", "--base", "main", "--format", "json"), 0),
        (("validate", ".github/blast-radius.yml"), 0),
        (("selftest", "--base", "main"), 0),
        (("backtest", "--last", "1", "--rubric-file", ".github/blast-radius.yml"), 0),
        (("schema",), 0),
    ],
)
def test_cli_commands_run_without_pygithub(
    change: GitRepo, argv: tuple[str, ...], code: int
) -> None:
    done = gate(*argv, cwd=change.root)
    assert done.returncode == code, done.stdout + done.stderr
    assert "blocked" not in done.stderr


def test_demo_runs_without_pygithub(tmp_path: Path) -> None:
    done = gate("demo", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_action_names_the_extra_it_needs(tmp_path: Path) -> None:
    """The Action's API client, built without PyGithub, fails closed (exit 2)
    with the install that has it, not a traceback."""
    event = tmp_path / "event.json"
    event.write_text('{"pull_request": {"number": 1}}', encoding="utf-8")
    env = {
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_REPOSITORY": "o/r",
        "GITHUB_API_URL": "http://127.0.0.1:9",
        "GITHUB_WORKSPACE": str(tmp_path),
        "INPUT_GITHUB-TOKEN": "t",
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run(
        [sys.executable, "-c", RUN, "action"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2
    assert "blast-radius-gate[action]" in done.stdout + done.stderr


def test_pygithub_is_the_action_extra_only() -> None:
    """`pip install .` leaves PyGithub out; `.[action]` and the test extra
    (the Action's tests) bring it."""
    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lower = [d.lower() for d in project["dependencies"]]
    assert not any(d.startswith("pygithub") for d in lower)
    extras = project["optional-dependencies"]
    assert any(d.lower().startswith("pygithub") for d in extras["action"])
    assert "blast-radius-gate[action]" in extras["test"]
