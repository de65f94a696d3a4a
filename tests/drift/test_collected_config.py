"""What counts as a test file beyond the default names: what the base's
own pytest configuration collects (`collected.pytest_collects`), and the
files at a test path that no test reads (`collected.unread_edit`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gate.changes.example import changes_from_example
from gate.drift import collected
from gate.model.rubric import DEFAULT_TESTS, Rule
from gate.rules import test_drift
from tests.gitrepo import RubricRepo

# --- the base's pytest configuration -----------------------------------

OPS = "*_tests.py check_*.py"
# (label, root files at base, path, collected)
CONFIGS: list[tuple[str, dict[str, str], str, bool]] = [
    (
        "pytest.ini",
        {"pytest.ini": f"[pytest]\npython_files = {OPS}\n"},
        "ops/e2e_ops_tests.py",
        True,
    ),
    (
        "pytest.ini, second pattern",
        {"pytest.ini": f"[pytest]\npython_files = {OPS}\n"},
        "check_x.py",
        True,
    ),
    (".pytest.ini", {".pytest.ini": f"[pytest]\npython_files = {OPS}\n"}, "a/b_tests.py", True),
    (
        "pyproject ini_options, a string",
        {"pyproject.toml": f'[tool.pytest.ini_options]\npython_files = "{OPS}"\n'},
        "e2e_ops_tests.py",
        True,
    ),
    (
        "pyproject ini_options, a list",
        {"pyproject.toml": '[tool.pytest.ini_options]\npython_files = ["*_tests.py"]\n'},
        "x/y_tests.py",
        True,
    ),
    (
        "pyproject [tool.pytest] (pytest 9)",
        {"pyproject.toml": '[tool.pytest]\npython_files = ["*_tests.py"]\n'},
        "y_tests.py",
        True,
    ),
    (
        "pytest.toml",
        {"pytest.toml": '[pytest]\npython_files = ["*_tests.py"]\n'},
        "y_tests.py",
        True,
    ),
    (
        "tox.ini [pytest]",
        {"tox.ini": "[tox]\n[pytest]\npython_files = *_tests.py\n"},
        "y_tests.py",
        True,
    ),
    (
        "setup.cfg [tool:pytest], multi-line",
        {"setup.cfg": "[tool:pytest]\npython_files =\n    test_*.py\n    *_tests.py\n"},
        "y_tests.py",
        True,
    ),
    (
        "letter case folded (a case-insensitive checkout)",
        {"pytest.ini": "[pytest]\npython_files = *_tests.py\n"},
        "Y_TESTS.PY",
        True,
    ),
    (
        "a pattern with a folder matches the path's end",
        {"pytest.ini": "[pytest]\npython_files = ops/*.py\n"},
        "src/ops/runbook.py",
        True,
    ),
    (
        "testpaths: inside",
        {"pytest.ini": "[pytest]\npython_files = *.py\ntestpaths = tests ./qa/\n"},
        "qa/deep/ops.py",
        True,
    ),
    # not collected
    (
        "testpaths: outside (src/ is not collected)",
        {"pytest.ini": "[pytest]\npython_files = *.py\ntestpaths = tests\n"},
        "src/pkg/views.py",
        False,
    ),
    (
        "testpaths: a folder named like its start",
        {"pytest.ini": "[pytest]\npython_files = *.py\ntestpaths = tests\n"},
        "tests_old/ops.py",
        False,
    ),
    (
        "not a .py file",
        {"pytest.ini": "[pytest]\npython_files = *_tests.*\n"},
        "y_tests.txt",
        False,
    ),
    ("no python_files", {"pytest.ini": "[pytest]\naddopts = -q\n"}, "y_tests.py", False),
    (
        "pytest.ini first, even when empty",
        {
            "pytest.ini": "",
            "pyproject.toml": '[tool.pytest.ini_options]\npython_files = "*_tests.py"\n',
        },
        "y_tests.py",
        False,
    ),
    (
        "pyproject without a pytest table: the next file decides",
        {
            "pyproject.toml": "[project]\nname = 'x'\n",
            "tox.ini": "[pytest]\npython_files = *_tests.py\n",
        },
        "y_tests.py",
        True,
    ),
    (
        "setup.cfg's [pytest] is no pytest section there",
        {"setup.cfg": "[pytest]\npython_files = *_tests.py\n"},
        "y_tests.py",
        False,
    ),
    (
        "an unreadable pyproject: the defaults decide",
        {
            "pyproject.toml": "[tool.pytest.ini_options\n",
            "tox.ini": "[pytest]\npython_files = *_tests.py\n",
        },
        "y_tests.py",
        False,
    ),
    (
        "a data folder stays data",
        {"pytest.ini": "[pytest]\npython_files = *_tests.py\n"},
        "pkg/testdata/y_tests.py",
        False,
    ),
]


@pytest.mark.parametrize(
    ("label", "files", "path", "expected"), CONFIGS, ids=[c[0] for c in CONFIGS]
)
def test_what_the_base_configuration_collects(
    label: str, files: dict[str, str], path: str, expected: bool
) -> None:
    collects = collected.pytest_collects(files)
    assert (collects is not None and collects(path)) is expected, label


OPS_BASE = (
    "import unittest\n\n\n"
    "class OpsTests(unittest.TestCase):\n"
    "    def test_restart(self):\n        self.assertEqual(restart(), 0)\n"
)
OPS_APPENDED = OPS_BASE + (
    "\n\nclass MoreOpsTests(unittest.TestCase):\n"
    "    def test_stop(self):\n        self.assertEqual(stop(), 0)\n"
)
OPS_BENT = OPS_APPENDED.replace("self.assertEqual(restart(), 0)", "self.assertTrue(True)")
CONFIG = "[pytest]\npython_files = test_*.py *_tests.py\n"


def _check(
    repo: RubricRepo, base_files: dict[str, str], head: dict[str, str]
) -> tuple[int, dict[str, Any]]:
    repo.write_many({".github/blast-radius.yml": "rules:\n  - {id: TESTS, kind: test_drift}\n"})
    repo.write_many(base_files)
    base = repo.commit("base")
    repo.write_many(head)
    head_sha = repo.commit("head")
    return repo.check(base, head_sha).verdict()


@pytest.mark.parametrize(
    ("folder", "config", "head", "code", "message"),
    [
        # outside every test glob: pytest collects it, so the rule sees it
        ("ops/", CONFIG, OPS_APPENDED, 0, "1 new test added to existing test files"),
        ("ops/", CONFIG, OPS_BENT, 1, "ops/e2e_ops_tests.py: OpsTests.test_restart changed"),
        # without the configuration it is not a test: missed, as pytest misses it
        ("ops/", "", OPS_BENT, 0, "no test that exists at base was changed"),
        # inside tests/: judged case by case instead of whole
        ("tests/", CONFIG, OPS_APPENDED, 0, "1 new test added to existing test files"),
        ("tests/", CONFIG, OPS_BENT, 1, "tests/e2e_ops_tests.py: OpsTests.test_restart changed"),
        # without it, a helper module: one that only gained a class passes
        ("tests/", "", OPS_APPENDED, 0, "no test that exists at base was changed"),
        ("tests/", "", OPS_BENT, 1, "tests/e2e_ops_tests.py (a helper module): OpsTests.test_re"),
    ],
)
def test_a_module_the_base_configuration_collects_is_judged_by_cases(
    rubric_repo: RubricRepo, folder: str, config: str, head: str, code: int, message: str
) -> None:
    path = f"{folder}e2e_ops_tests.py"
    base = {path: OPS_BASE, **({"pytest.ini": config} if config else {})}
    got, result = _check(rubric_repo, base, {path: head})
    assert got == code, result
    assert message in result["message"]


def test_the_head_configuration_never_decides(rubric_repo: RubricRepo) -> None:
    """Hostile twin: the pull request adds the python_files line itself and
    bends a test in a file only that line would collect; the base has no
    such configuration, so the file is no test, and the new configuration
    is runner drift."""
    got, result = _check(
        rubric_repo,
        {"pytest.ini": "[pytest]\naddopts = -q\n", "ops/e2e_ops_tests.py": OPS_BASE},
        {"pytest.ini": CONFIG, "ops/e2e_ops_tests.py": OPS_BENT},
    )
    assert got == 1
    assert "pytest.ini (pytest" in result["message"]


def test_dropping_the_pattern_at_head_still_judges_by_the_base(rubric_repo: RubricRepo) -> None:
    got, result = _check(
        rubric_repo,
        {"pytest.ini": CONFIG, "ops/e2e_ops_tests.py": OPS_BASE},
        {"pytest.ini": "[pytest]\n", "ops/e2e_ops_tests.py": OPS_BENT},
    )
    assert got == 1
    assert "ops/e2e_ops_tests.py: OpsTests.test_restart changed" in result["message"]


# --- files at a test path that no test reads ------------------------------

PKG = {
    "name": "@acme/e2e",
    "version": "2.0.0-alpha.1",
    "private": True,
    "scripts": {"test": "vitest run"},
    "devDependencies": {"vitest": "^3.0.0", "left-pad": "1.0.0"},
}


def _pkg(**changes: Any) -> str:
    return json.dumps({**PKG, **changes}, indent=2) + "\n"


# (path, before, after, passes)
UNREAD: list[tuple[str, str, str, bool]] = [
    ("test/e2e/package.json", _pkg(), _pkg(version="2.0.0-beta.0"), True),
    (
        "test/e2e/package.json",
        _pkg(),
        _pkg(version="2.0.0", description="e2e", keywords=["x"]),
        True,
    ),
    ("test/e2e/package.json", _pkg(), _pkg(name="@acme/e2e-tests", license="MIT"), True),
    # dependencies, scripts and runner keys still count
    (
        "test/e2e/package.json",
        _pkg(),
        _pkg(version="2", devDependencies={"vitest": "^3.1.0"}),
        False,
    ),
    ("test/e2e/package.json", _pkg(), _pkg(devDependencies={"vitest": "^3.0.0"}), False),
    ("test/e2e/package.json", _pkg(), _pkg(version="2", scripts={"test": "true"}), False),
    ("test/e2e/package.json", _pkg(), _pkg(vitest={"include": []}), False),
    # hostile twins: a key in another letter case is no metadata; not JSON
    ("test/e2e/package.json", _pkg(), _pkg(Version="2"), False),
    ("test/e2e/package.json", _pkg(), _pkg()[:-3] + ",}\n", False),
    ("test/e2e/packages.json", _pkg(), _pkg(version="2"), False),
    # prose
    ("test/e2e/CHANGELOG.md", "# e2e\n", "# e2e\n\n## 2.0.0\n- release\n", True),
    ("tests/README.md", "How to run\n", "How to run the suite\n", True),
    ("tests/integration/readme.rst", "a\n", "b\n", True),
    ("tests/LICENSE", "MIT\n", "Apache-2.0\n", True),
    # hostile twins: data folders, other Markdown, code named like prose
    ("tests/fixtures/README.md", "# a\n", "# b\n", False),
    ("tests/__snapshots__/README.md", "# a\n", "# b\n", False),
    ("tests/testdata/CHANGELOG.md", "# a\n", "# b\n", False),
    ("tests/docs/guide.md", "```python\n>>> 1\n1\n```\n", "```python\n>>> 1\n2\n```\n", False),
    ("tests/README.py", "X = 1\n", "X = 2\n", False),
    ("tests/README.md.snap", "a\n", "b\n", False),
    ("tests/README.md/data.json", "{}\n", '{"a": 1}\n', False),
]


@pytest.mark.parametrize(("path", "before", "after", "passes"), UNREAD)
def test_files_no_test_reads_are_not_judged_whole(
    path: str, before: str, after: str, passes: bool
) -> None:
    rule = Rule(
        id="TESTS", kind="test_drift", params={"allow_added": True, "paths": list(DEFAULT_TESTS)}
    )
    changes = changes_from_example([{"path": path, "before": before, "after": after}])
    result = test_drift.check(rule, changes)
    assert result.passed is passes, result.message


# --- snapshots and test helpers by name (DEFAULT_TESTS) ------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("pkg/github/__toolsnaps__/get_me.snap", True),
        ("src/snapshots/app__render.snap", True),
        ("PKG/__TOOLSNAPS__/X.SNAP", True),  # another letter case
        ("tests/__snapshots__/test_x.ambr", True),
        ("src/report.approved.txt", True),
        ("cmd/render/out.golden", True),
        ("src/agents/_test_utils.py", True),
        ("internal/testutil/server.go", True),
        ("pkg/testutils.go", True),
        ("pkg/testhelpers/db.go", True),
        ("lib/test_helpers/x.rb", True),
        # twins that are no tests
        ("src/snapshot.py", False),
        ("src/approved.py", False),
        ("src/agents/testing/model.py", False),  # a shipped public module
        ("docs/ref/testing/model.md", False),
        ("src/protest_utils.py", False),
        ("pkg/utils_testing.go", False),
    ],
)
def test_snapshots_and_helpers_by_name_are_test_paths(path: str, expected: bool) -> None:
    from gate.base import globs

    assert globs.matches(path, DEFAULT_TESTS, globs.FOLDED) is expected


def test_an_edited_snapshot_outside_snapshots_folders_fails() -> None:
    rule = Rule(
        id="TESTS", kind="test_drift", params={"allow_added": True, "paths": list(DEFAULT_TESTS)}
    )
    path = "pkg/github/__toolsnaps__/get_me.snap"
    changes = changes_from_example([{"path": path, "before": '{"a": 1}\n', "after": '{"a": 2}\n'}])
    result = test_drift.check(rule, changes)
    assert not result.passed
    assert f"{path} judged as a whole file" in result.message
