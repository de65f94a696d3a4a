"""`gate frozen-tests` under the real runners: each scenario a red-to-green
oracle.  A bend that turns the normal run green stays red frozen; an honest
fix with new tests is green frozen; a behaviour change whose edited test
fails at base is excused, while an untouched test failing is red; the
checkout is byte-identical after every run, also after Ctrl-C; a project's
installed node_modules is used."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.gitrepo import GitRepo

RUBRIC = "rules:\n  - id: TESTS\n    kind: test_drift\n"
CLAMP = "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n"
BROKEN = "def clamp(x, lo, hi):\n    return max(lo, min(x, hi - 1))\n"
TESTS = (
    "from clamp import clamp\n\n\n"
    "def test_high():\n    assert clamp(5, 0, 3) == 3\n\n\n"
    "def test_low():\n    assert clamp(-1, 0, 3) == 0\n"
)
PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:randomly")


def gate_argv(*argv: str, fmt: str) -> list[str]:
    """`python -m gate frozen-tests --base main --format FMT -- ARGV`."""
    return [
        sys.executable,
        "-m",
        "gate",
        "frozen-tests",
        "--base",
        "main",
        "--format",
        fmt,
        "--",
        *argv,
    ]


def gate(repo: GitRepo, *argv: str, fmt: str = "json") -> tuple[int, dict[str, object], str]:
    """`gate frozen-tests --base main --format FMT -- ARGV` in the repository,
    as a user runs it: (exit code, the JSON report or {}, everything printed)."""
    done = subprocess.run(
        gate_argv(*argv, fmt=fmt),
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    data = json.loads(done.stdout) if fmt == "json" and done.stdout.startswith("{") else {}
    return done.returncode, data, done.stdout + done.stderr


def snapshot(repo: GitRepo) -> tuple[str, str]:
    """The checkout as `git status --ignored` shows it, and a digest of every
    byte and mode of its files (the .git folder's worktree records aside)."""
    status = repo.git("status", "--porcelain=v1", "--ignored", "--untracked-files=all")
    digest = hashlib.sha256()
    for path in sorted(repo.root.rglob("*")):
        rel = path.relative_to(repo.root).as_posix()
        if rel.startswith(".git/"):
            continue
        digest.update(rel.encode() + b"\0")
        if path.is_symlink():
            digest.update(b"link:" + os.readlink(path).encode())
        elif path.is_file():
            digest.update(oct(path.stat().st_mode).encode() + path.read_bytes())
    return status, digest.hexdigest()


@pytest.fixture
def project(repo: GitRepo) -> GitRepo:
    """A repository with clamp.py, its pytest tests and a test_drift rubric on main."""
    repo.write_many(
        {"clamp.py": CLAMP, "tests/test_clamp.py": TESTS, ".github/blast-radius.yml": RUBRIC}
    )
    repo.write(".gitignore", ".pytest_cache/\n__pycache__/\n")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    return repo


def statuses(data: dict[str, object]) -> dict[str, str]:
    failures = data["failures"]
    assert isinstance(failures, list)
    return {str(f["test"]).rsplit("::", 1)[-1]: str(f["status"]) for f in failures}


def normal_run(repo: GitRepo) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*PYTEST], cwd=repo.root, capture_output=True, text=True, check=False, timeout=300
    )


# -- bends that turn the normal run green stay red frozen ------------------------


BENDS = {
    "a new conftest skips every test": {
        "tests/conftest.py": (
            "import pytest\n\n\ndef pytest_collection_modifyitems(items):\n"
            "    for item in items:\n        item.add_marker(pytest.mark.skip)\n"
        )
    },
    "pyproject's pytest table deselects the tests": {
        "pyproject.toml": (
            '[project]\nname = "clamp"\n\n[tool.pytest.ini_options]\naddopts = "-k nothing"\n'
        )
    },
    "a root module shadows the test's import": {"tests/clamp.py": CLAMP},
    "the test file opts out by __test__": {"tests/test_clamp.py": TESTS + "\n__test__ = False\n"},
}


@pytest.mark.parametrize("bend", sorted(BENDS))
def test_a_bend_that_greens_the_normal_run_stays_red_frozen(project: GitRepo, bend: str) -> None:
    project.write_many({"clamp.py": BROKEN, **BENDS[bend]})
    project.commit(bend)
    normal = normal_run(project)
    assert normal.returncode in (0, 5), normal.stdout  # green, or no tests ran
    before = snapshot(project)
    code, data, text = gate(project, *PYTEST)
    assert code == 1, text
    assert statuses(data).get("test_high") == "red", data
    assert snapshot(project) == before


def test_a_new_conftest_is_removed_and_named(project: GitRepo) -> None:
    project.write_many({"clamp.py": BROKEN, **BENDS["a new conftest skips every test"]})
    project.commit("bent")
    code, _, text = gate(project, *PYTEST, fmt="text")
    assert code == 1
    assert "removed (the base has none there): tests/conftest.py" in text
    assert "red: 1" in text and "verdict: FAIL" in text


def test_a_pyproject_with_a_new_pytest_table_is_spliced_to_the_bases(project: GitRepo) -> None:
    project.git("checkout", "-q", "main")
    project.write("pyproject.toml", '[project]\nname = "clamp"\nversion = "1"\n')
    project.commit("pyproject")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write_many(
        {"clamp.py": BROKEN, **BENDS["pyproject's pytest table deselects the tests"]}
    )
    project.commit("bent")
    code, data, _ = gate(project, *PYTEST)
    assert code == 1
    frozen = data["frozen"]
    assert isinstance(frozen, dict) and frozen["spliced"] == ["pyproject.toml"]


def test_an_honest_fix_with_a_new_test_is_green(project: GitRepo) -> None:
    project.git("checkout", "-q", "main")
    project.write("clamp.py", BROKEN)
    project.write(
        "tests/test_clamp.py",
        "from clamp import clamp\n\n\ndef test_low():\n    assert clamp(-1, 0, 3) == 0\n",
    )
    project.commit("buggy base")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write_many(
        {
            "clamp.py": CLAMP,
            "tests/test_high.py": (
                "from clamp import clamp\n\n\ndef test_high():\n    assert clamp(5, 0, 3) == 3\n"
            ),
        }
    )
    project.commit("fix")
    code, data, text = gate(project, *PYTEST)
    assert code == 0, text
    assert data["failures"] == [] and data["pass"] is True
    frozen = data["frozen"]
    assert isinstance(frozen, dict) and frozen["removed"] == ["tests/test_high.py"]


def test_an_edited_test_excuses_its_failure(project: GitRepo) -> None:
    """A behaviour change on purpose: clamp's upper bound becomes exclusive,
    test_high is edited to say so (the static rule flags it), test_low is
    untouched.  Frozen, the base's test_high fails and is excused; then a
    second change breaks test_low too, which fails at the plain head as
    well (the normal job shows it: set apart, not counted twice)."""
    project.write("clamp.py", BROKEN)
    project.write("tests/test_clamp.py", TESTS.replace("== 3\n", "== 2\n"))
    project.commit("exclusive upper bound")
    code, data, text = gate(project, *PYTEST)
    assert code == 0, text
    assert statuses(data) == {"test_high": "excused"}
    failures = data["failures"]
    assert isinstance(failures, list)
    assert "edits the test test_high" in str(failures[0]["why"])
    project.write("clamp.py", BROKEN.replace("max(lo,", "max(lo + 1,"))
    project.commit("and the lower bound")
    code, data, text = gate(project, *PYTEST)
    assert code == 0, text  # test_low fails at the head too: the normal job shows it
    assert statuses(data) == {"test_high": "excused", "test_low": "failing at head"}


def test_a_helper_the_test_uses_excuses_it(project: GitRepo) -> None:
    project.git("checkout", "-q", "main")
    helper = "from clamp import clamp\n\nTOP = 3\n\n\ndef test_high():\n"
    helper += "    assert clamp(5, 0, 3) == TOP\n"
    project.write("tests/test_clamp.py", helper)
    project.commit("a constant")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write("clamp.py", BROKEN)
    project.write("tests/test_clamp.py", helper.replace("TOP = 3", "TOP = 2"))
    project.commit("TOP moves")
    code, data, text = gate(project, *PYTEST)
    assert code == 0, text
    failures = data["failures"]
    assert isinstance(failures, list) and "TOP" in str(failures[0]["why"])


def test_without_a_test_drift_rule_nothing_is_excused(project: GitRepo) -> None:
    project.git("checkout", "-q", "main")
    project.write(".github/blast-radius.yml", "rules:\n  - {id: F, kind: max_files, limit: 9}\n")
    project.commit("no test_drift")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write("clamp.py", BROKEN)
    project.write("tests/test_clamp.py", TESTS.replace("== 3\n", "== 2\n"))
    project.commit("edited")
    code, data, _ = gate(project, *PYTEST)
    assert code == 1 and statuses(data) == {"test_high": "red"}


def test_a_failure_at_the_plain_head_too_is_set_apart(project: GitRepo) -> None:
    """Broken code, tests untouched: the normal run is red too, so the frozen
    run says so (the normal test job shows it) and does not fail twice."""
    project.write("clamp.py", BROKEN)
    project.commit("broken")
    code, data, _ = gate(project, *PYTEST)
    assert code == 0
    assert statuses(data) == {"test_high": "failing at head"}
    assert data["head_run"] == 1


def test_a_command_that_fails_without_a_report_is_red(project: GitRepo) -> None:
    code, data, _ = gate(project, sys.executable, "-c", "raise SystemExit(3)")
    assert code == 1
    assert "cannot be read" in str(data["red_exit"])


def test_a_command_that_cannot_start_is_exit_2(project: GitRepo) -> None:
    before = snapshot(project)
    code, _, text = gate(project, "no-such-program-here")
    assert code == 2 and "cannot be started" in text
    assert snapshot(project) == before
    assert project.git("worktree", "list").count("\n") == 1


def test_a_shared_file_that_cannot_be_separated_is_exit_2(project: GitRepo) -> None:
    project.git("checkout", "-q", "main")
    project.write("requirements-dev.txt", "pytest==8.0.0\n")
    project.commit("requirements")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write("requirements-dev.txt", "pytest @ git+https://example.invalid/pytest\n")
    project.commit("pytest from a fork")
    code, _, text = gate(project, *PYTEST)
    assert code == 2
    assert "requirements-dev.txt" in text and "cannot separate" in text


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_leaves_the_checkout_as_it_was(project: GitRepo) -> None:
    (project.root / "scratch.txt").write_text("untracked\n")
    (project.root / ".pytest_cache").mkdir()
    before = snapshot(project)
    proc = subprocess.Popen(
        gate_argv(
            sys.executable,
            "-c",
            "import pathlib, time; pathlib.Path('started').write_text('1'); time.sleep(60)",
            fmt="text",
        ),
        cwd=project.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as in a terminal: a job started with `&` by a shell without
        # job control (a CI script) inherits SIGINT ignored, which the gate,
        # like any program, keeps
        preexec_fn=_interruptible,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        listed = project.git("worktree", "list", "--porcelain")
        trees = [
            line.split(" ", 1)[1] for line in listed.splitlines() if line.startswith("worktree ")
        ]
        if any(Path(t, "started").exists() for t in trees[1:]):
            break
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("COMMAND never started")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert "interrupted" in err and "checkout is as it was" in err
    assert snapshot(project) == before
    assert project.git("worktree", "list").count("\n") == 1


def test_a_killed_command_is_red_and_the_checkout_is_as_it_was(project: GitRepo) -> None:
    before = snapshot(project)
    code, data, _ = gate(
        project, sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
    )
    assert code == 1 and "killed by signal 9" in str(data["red_exit"])
    assert snapshot(project) == before


# -- unittest ------------------------------------------------------------------------


def test_unittest_summary_is_read(project: GitRepo) -> None:
    unit = (
        "import unittest\n\nfrom clamp import clamp\n\n\n"
        "class TestClamp(unittest.TestCase):\n"
        "    def test_high(self):\n        self.assertEqual(clamp(5, 0, 3), 3)\n\n"
        "    def test_low(self):\n        self.assertEqual(clamp(-1, 0, 3), 0)\n"
    )
    project.git("checkout", "-q", "main")
    project.write_many({"tests/test_clamp.py": unit, "tests/__init__.py": ""})
    project.commit("unittest")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write("clamp.py", BROKEN)
    project.write("tests/test_clamp.py", unit.replace("(5, 0, 3), 3)", "(5, 0, 3), 2)"))
    project.commit("edited")
    command = (sys.executable, "-m", "unittest", "discover", "-s", "tests", "-t", ".")
    code, data, text = gate(project, *command)
    assert code == 0, text
    assert data["reports"] == ["unittest"]
    failures = data["failures"]
    assert isinstance(failures, list) and [f["status"] for f in failures] == ["excused"]
    assert failures[0]["file"] == "tests/test_clamp.py"


# -- node's test runner, and the checkout's node_modules ---------------------------------


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_node_tests_see_the_checkouts_node_modules(repo: GitRepo) -> None:
    test = (
        "const test = require('node:test');\nconst assert = require('node:assert');\n"
        "const { clamp } = require('../clamp');\n\n"
        "test('high', () => { assert.equal(clamp(5, 0, 3), 3); });\n"
        "test('low', () => { assert.equal(clamp(-1, 0, 3), 0); });\n"
    )
    code = "const top = require('top');\n"
    code += "exports.clamp = (x, lo, hi) => Math.max(lo, Math.min(x, top(hi)));\n"
    repo.write_many(
        {
            "clamp.js": code,
            "test/clamp.test.js": test,
            ".github/blast-radius.yml": RUBRIC,
            ".gitignore": "node_modules/\n",
        }
    )
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    # installed, never committed: the frozen run must see it where the checkout has it
    repo.write("node_modules/top/index.js", "module.exports = (hi) => hi - 1;\n")
    repo.write("test/clamp.test.js", test.replace("0, 3), 3)", "0, 3), 2)"))
    repo.commit("top is exclusive")
    before = snapshot(repo)
    code_, data, text = gate(repo, "node", "--test")
    assert code_ == 0, text
    assert data["reports"] == ["node"]
    assert "node_modules" in data["linked"]
    assert {f["test"]: f["status"] for f in data["failures"]} == {"high": "excused"}  # type: ignore[union-attr]
    assert snapshot(repo) == before
    repo.write("clamp.js", code.replace("Math.max(lo,", "Math.max(lo + 1,"))
    repo.commit("and the lower bound")
    code_, data, text = gate(repo, "node", "--test")
    assert code_ == 0, text
    found = {f["test"]: f["status"] for f in data["failures"]}  # type: ignore[union-attr]
    assert found == {"high": "excused", "low": "failing at head"}


# -- go test -------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_go_test_events_are_read(repo: GitRepo, tmp_path: Path) -> None:
    os.environ.setdefault("GOCACHE", str(tmp_path / "go-cache"))
    os.environ.setdefault("GOPATH", str(tmp_path / "go-path"))
    os.environ["GOFLAGS"] = "-mod=mod"
    os.environ["GOPROXY"] = "off"
    go_test = (
        'package clamp\n\nimport "testing"\n\n'
        'func TestHigh(t *testing.T) {\n\tif Clamp(5, 0, 3) != 3 {\n\t\tt.Fatal("high")\n\t}\n}\n\n'
        'func TestLow(t *testing.T) {\n\tif Clamp(-1, 0, 3) != 0 {\n\t\tt.Fatal("low")\n\t}\n}\n'
    )
    source = (
        "package clamp\n\nfunc Clamp(x, lo, hi int) int {\n\tif x > hi {\n\t\treturn hi\n\t}\n"
        "\tif x < lo {\n\t\treturn lo\n\t}\n\treturn x\n}\n"
    )
    repo.write_many(
        {
            "go.mod": "module example.com/clamp\n\ngo 1.19\n",
            "clamp.go": source,
            "clamp_test.go": go_test,
            ".github/blast-radius.yml": RUBRIC,
        }
    )
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("clamp.go", source.replace("return hi\n", "return hi - 1\n"))
    repo.write("clamp_test.go", go_test.replace("!= 3", "!= 2"))
    repo.commit("exclusive")
    code, data, text = gate(repo, "go", "test", "-count=1", "./...")
    assert code == 0, text
    assert data["reports"] == ["go"]
    failures = data["failures"]
    assert isinstance(failures, list)
    assert [(f["file"], f["status"]) for f in failures] == [("clamp_test.go", "excused")]
    assert "--- FAIL: TestHigh" in text  # go's own output, passed through
    # The PR removes the function the tests call and rewrites them: the
    # base's tests fail to build, a package-level failure the edits explain.
    repo.write("clamp.go", "package clamp\n")
    repo.write(
        "clamp_test.go", 'package clamp\n\nimport "testing"\n\nfunc TestHigh(t *testing.T) {}\n'
    )
    repo.commit("gone, and the tests with it")
    code, data, text = gate(repo, "go", "test", "-count=1", "./...")
    assert code == 0, text
    failures = data["failures"]
    assert isinstance(failures, list)
    assert [(f["scope"], f["status"]) for f in failures] == [("package", "excused")]
    assert "attributed to the package" in str(failures[0]["why"])


def test_a_data_file_the_test_reads_excuses_it(project: GitRepo) -> None:
    """The expected values live in a data file the test names; the PR changes
    behaviour and the data file (flagged: a test path), not the test."""
    project.git("checkout", "-q", "main")
    project.write_many(
        {
            "tests/data/expected.json": '{"high": 3}\n',
            "tests/test_clamp.py": (
                "import json\nfrom pathlib import Path\n\nfrom clamp import clamp\n\n"
                "DATA = Path(__file__).parent / 'data'\n\n\n"
                "def test_high():\n"
                "    expected = json.loads((DATA / 'expected.json').read_text())\n"
                "    assert clamp(5, 0, 3) == expected['high']\n"
            ),
        }
    )
    project.commit("data")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write_many({"clamp.py": BROKEN, "tests/data/expected.json": '{"high": 2}\n'})
    project.commit("new expectation")
    code, data, text = gate(project, *PYTEST)
    assert code == 0, text
    failures = data["failures"]
    assert isinstance(failures, list) and [f["status"] for f in failures] == ["excused"]
    assert "reads tests/data/expected.json" in str(failures[0]["why"])


def test_frozen_tests_paths_freeze_support_outside_the_test_globs(project: GitRepo) -> None:
    """A helper the tests import, outside the test globs, is the PR's unless
    the rubric's frozen_tests.paths names it; named, it runs as at the base."""
    project.git("checkout", "-q", "main")
    helper = "def expected_high():\n    return 3\n"
    project.write_many(
        {
            "support/expect.py": helper,
            "support/__init__.py": "",
            "tests/test_clamp.py": (
                "from clamp import clamp\nfrom support.expect import expected_high\n\n\n"
                "def test_high():\n    assert clamp(5, 0, 3) == expected_high()\n"
            ),
        }
    )
    project.commit("a support module")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write_many({"clamp.py": BROKEN, "support/expect.py": helper.replace("3", "2")})
    project.commit("bend the helper")
    code, _, text = gate(project, *PYTEST)
    assert code == 0, text  # the bent helper is the PR's code: the frozen run passes
    project.git("checkout", "-q", "main")
    project.write(".github/blast-radius.yml", RUBRIC + "frozen_tests:\n  paths: [support/]\n")
    project.commit("freeze the support folder")
    project.git("checkout", "-q", "pr")
    project.git("rebase", "-q", "main")
    code, data, text = gate(project, *PYTEST)
    assert code == 1, text
    assert statuses(data) == {"test_high": "red"}


# -- Jest, Vitest and Mocha, when COMMAND runs them itself ---------------------------

JS_SUM = "exports.sum = (a, b) => a + b;\n"
JS_TESTS = {
    "jest": (
        "const { sum } = require('../sum');\n\n"
        "describe('sum', () => {\n"
        "  test('adds', () => { expect(sum(1, 2)).toBe(3); });\n"
        "  test('zero', () => { expect(sum(0, 0)).toBe(0); });\n"
        "});\n"
    ),
    "mocha": (
        "const assert = require('assert');\nconst { sum } = require('../sum');\n\n"
        "describe('sum', () => {\n"
        "  it('adds', () => { assert.equal(sum(1, 2), 3); });\n"
        "  it('zero', () => { assert.equal(sum(0, 0), 0); });\n"
        "});\n"
    ),
}
JS_TESTS["vitest"] = JS_TESTS["jest"]
JS_COMMANDS = {
    "jest": ("jest", "--ci"),
    "vitest": ("vitest", "run", "--globals"),
    "mocha": ("mocha", "test/sum.test.js"),
}


@pytest.mark.parametrize("runner", sorted(JS_COMMANDS))
def test_javascript_runners_json_reports_are_read(repo: GitRepo, runner: str) -> None:
    """A behaviour change on purpose: sum adds one, the test `adds` is edited
    (excused), `zero` is untouched and fails at the head too (set apart)."""
    if shutil.which(runner) is None:
        pytest.skip(f"{runner} is not installed (.ci/run installs it)")
    test = JS_TESTS[runner]
    repo.write_many(
        {"sum.js": JS_SUM, "test/sum.test.js": test, ".github/blast-radius.yml": RUBRIC}
    )
    repo.write("package.json", '{"name": "sum", "version": "1.0.0"}\n')
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "pr")
    repo.write("sum.js", JS_SUM.replace("a + b", "a + b + 1"))
    repo.write(
        "test/sum.test.js",
        test.replace("(1, 2)).toBe(3)", "(1, 2)).toBe(4)").replace(
            "sum(1, 2), 3)", "sum(1, 2), 4)"
        ),
    )
    repo.commit("sum adds one")
    code, data, text = gate(repo, *JS_COMMANDS[runner])
    assert code == 0, text
    assert data["reports"] == [runner], text
    found = {str(f["test"]): str(f["status"]) for f in data["failures"]}  # type: ignore[union-attr]
    named = {"jest": "sum > adds", "vitest": "sum > adds", "mocha": "sum adds"}[runner]
    zero = named.replace("adds", "zero")
    assert found == {named: "excused", zero: "failing at head"}, text


def test_data_built_from_changed_data_and_parametrized_cases_are_followed(
    project: GitRepo,
) -> None:
    """Seen on pallets/click (b67832c2): a test's expectation is module-level
    data built from other data the PR changes (HELLO from HELP), and a
    parametrized case whose marks call the project's code.  Both base
    tests fail on the new behaviour and are excused, each naming the data."""
    base = (
        "import pytest\n\nfrom clamp import clamp\n\n"
        "TOP = {'high': 3}\nCASE = (5, TOP)\n\n\n"
        "@pytest.mark.parametrize(('x', 'want'), [pytest.param(clamp(5, 0, 9), 3, id='p')])\n"
        "def test_param(x, want):\n    assert clamp(x, 0, 3) == want\n\n\n"
        "def test_high():\n    assert clamp(CASE[0], 0, 3) == CASE[1]['high']\n"
    )
    project.git("checkout", "-q", "main")
    project.write("tests/test_clamp.py", base)
    project.commit("data")
    project.git("checkout", "-q", "-B", "pr", "main")
    project.write("clamp.py", BROKEN)
    project.write(
        "tests/test_clamp.py",
        base.replace("TOP = {'high': 3}", "TOP = {'high': 2}").replace(", 3, id=", ", 2, id="),
    )
    project.commit("exclusive upper bound")
    code, data, text = gate(project, *PYTEST)
    assert code == 0, text
    why = {str(f["test"]).rsplit("::", 1)[-1]: str(f["why"]) for f in data["failures"]}  # type: ignore[union-attr]
    assert "built from TOP" in why["test_high"], why
    assert "edits the test test_param" in why["test_param[p]"], why  # not the file fallback
