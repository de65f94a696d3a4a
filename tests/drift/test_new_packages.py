"""test_drift on a brand-new package (`gate.drift.growth.apart`): its own
package.json declaring Jest, its own pnpm-lock.yaml locking it and its
jest.config.js (a regular expression's `$` anchor in it) in a folder absent
at base, under folders that hold no workspace root, lock file or JS
runner configuration of its ecosystem, reach its own new tests only.
Hostile twins, generated over each file above that can read the package
(at the root or a folder between) and over a folder present at base,
still fail.  And pip requirements files (`gate.drift.runners.
installed_for_tests`): an example project's `requirements.txt` that names
no test tool's source, added or removed, is no runner configuration; one
at the root, one named for tests, dev or CI, or one naming a test tool or
an index, still is.  Real git repositories (`tests.rulecase`)."""

from __future__ import annotations

import pytest

from gate.drift.growth import stays_inside
from gate.drift.runners import installed_for_tests, section_change
from gate.model.rubric import DEFAULT_TESTS
from tests.rulecase import Files, RuleCase

DRIFT = RuleCase("test_drift", id="T", paths=list(DEFAULT_TESTS))

# A Python repository with JavaScript packages of their own beside the new one.
BASE = {
    "pyproject.toml": '[project]\nname = "app"\nversion = "1"\n',
    "poetry.lock": "# poetry\n",
    "tests/test_app.py": "def test_app():\n    assert True\n",
    "integrations/old/package.json": '{"name": "old", "devDependencies": {"jest": "^29.0.0"}}\n',
    "integrations/old/jest.config.js": "module.exports = { testEnvironment: 'node' };\n",
    "integrations/old/test/old.test.js": "test('old', () => { expect(1).toBe(1); });\n",
}
NEW = "integrations/fresh"
PACKAGE = (
    '{"name": "fresh", "scripts": {"test": "jest", "build": "tsc"},\n'
    ' "devDependencies": {"jest": "^29.7.0", "ts-jest": "^29.2.5"}}\n'
)
LOCK = (
    "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    devDependencies:\n      jest:\n"
    "        specifier: ^29.7.0\n        version: 29.7.0\n\npackages:\n\n"
    "  jest@29.7.0:\n    resolution: {integrity: sha512-abc}\n"
)
CONFIG = (
    "module.exports = {\n  testEnvironment: 'node',\n"
    "  testMatch: ['**/test/**/*.test.ts'],\n"
    "  transform: { '^.+\\\\.tsx?$': ['ts-jest', {}] },\n};\n"
)
TEST = "test('fresh', () => { expect(1).toBe(1); });\n"
PACKAGE_FILES = {
    f"{NEW}/package.json": PACKAGE,
    f"{NEW}/pnpm-lock.yaml": LOCK,
    f"{NEW}/jest.config.js": CONFIG,
    f"{NEW}/test/fresh.test.ts": TEST,
}


@pytest.mark.parametrize("source", ["git", "patch"])
def test_a_new_package_with_its_own_test_tools_passes(source: str) -> None:
    DRIFT.passes(Files(base=BASE, head=BASE | PACKAGE_FILES), source=source)  # type: ignore[arg-type]


# Files that can read the new package from a folder above it.
READERS = [
    ("package.json", '{"name": "root", "workspaces": ["integrations/*"]}\n'),
    ("pnpm-workspace.yaml", "packages:\n  - 'integrations/*'\n"),
    ("lerna.json", '{"packages": ["integrations/*"]}\n'),
    ("yarn.lock", "# yarn lockfile v1\n"),
    ("package-lock.json", '{"lockfileVersion": 3}\n'),
    ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n"),
    ("jest.config.js", "module.exports = { projects: ['<rootDir>/integrations/*'] };\n"),
    ("vitest.workspace.ts", "export default ['integrations/*'];\n"),
]


@pytest.mark.parametrize("above", ["", "integrations/"])
@pytest.mark.parametrize(("name", "text"), READERS)
def test_a_file_above_that_can_read_the_package_keeps_its_tools_judged(
    above: str, name: str, text: str
) -> None:
    base = BASE | {f"{above}{name}": text}
    result = DRIFT.check(Files(base=base, head=base | PACKAGE_FILES))
    assert not result.passed, (above, name)
    assert f"{NEW}/package.json" in result.paths


def test_a_folder_present_at_base_keeps_its_tools_judged() -> None:
    """The package's folder exists at base (sources only): what it declares
    may be installed by whatever reads that folder."""
    base = BASE | {f"{NEW}/src/index.ts": "export const x = 1;\n"}
    result = DRIFT.check(Files(base=base, head=base | PACKAGE_FILES))
    assert not result.passed
    assert f"{NEW}/package.json" in result.paths


def test_a_python_package_below_a_root_pyproject_keeps_its_tools_judged() -> None:
    """uv's workspace at the root may take the new package as a member."""
    files = {
        f"{NEW}/pyproject.toml": '[project]\nname = "fresh"\ndependencies = ["pytest>=8"]\n',
        f"{NEW}/tests/test_fresh.py": "def test_fresh():\n    assert True\n",
    }
    result = DRIFT.check(Files(base=BASE, head=BASE | files))
    assert not result.passed


@pytest.mark.parametrize(
    "text",
    ["'^.+\\\\.tsx?$'", '"\\\\.ts$"', "new RegExp('\\\\.ts$')", "`x$`"],
)
def test_a_regular_expression_anchor_stays_inside(text: str) -> None:
    assert stays_inside("a/jest.config.js", f"module.exports = {{ testRegex: {text} }};\n")


@pytest.mark.parametrize("text", ["`${process.env.ROOT}/x`", "'$HOME/x'", "'$ROOT'"])
def test_an_expansion_in_a_js_configuration_still_climbs(text: str) -> None:
    assert not stays_inside("a/jest.config.js", f"module.exports = {{ roots2: [{text}] }};\n")


# --- pip requirements files ----------------------------------------------

EXAMPLES = ["examples/hello/requirements.txt", "src/app/data/examples/x/requirements.txt"]
FOR_TESTS = [
    "requirements.txt",
    "requirements-dev.txt",
    "test-requirements.txt",
    "requirements/test.txt",
    "requirements/ci.txt",
    "tests/requirements.txt",
    "tools/e2e/requirements.txt",
    "ci/requirements.txt",
]
PLAIN = ["mcp-agent\n", "mcp-agent[openai]\nrequests==2.31\n", "# examples\n", ""]
COUNTED = ["pytest>=8\n", "-i https://example.invalid/simple\nmcp-agent\n", "-r ../base.txt\n"]


@pytest.mark.parametrize("text", PLAIN)
@pytest.mark.parametrize("path", EXAMPLES)
def test_an_example_requirements_file_added_or_removed_is_no_runner_configuration(
    path: str, text: str
) -> None:
    assert not installed_for_tests(path)
    assert section_change(path, None, text) is None
    assert section_change(path, text, None) is None


@pytest.mark.parametrize("text", PLAIN)
@pytest.mark.parametrize("path", FOR_TESTS)
def test_a_requirements_file_tests_may_install_from_stays_runner_configuration(
    path: str, text: str
) -> None:
    assert installed_for_tests(path)
    assert section_change(path, None, text) == "added"
    assert section_change(path, text, None) == "removed"


@pytest.mark.parametrize("text", COUNTED)
@pytest.mark.parametrize("path", EXAMPLES)
def test_an_example_requirements_file_naming_a_test_tool_or_a_source_fails(
    path: str, text: str
) -> None:
    base = {"app.py": "X = 1\n", path: text}
    assert not DRIFT.check(Files(base=base, head={"app.py": "X = 1\n"})).passed
    assert not DRIFT.check(Files(base={"app.py": "X = 1\n"}, head=base)).passed


def test_removed_example_requirements_files_pass() -> None:
    base = {"tests/test_app.py": "def test_app():\n    assert True\n"}
    base |= {p: "mcp-agent[openai]\n" for p in EXAMPLES}
    head = {"tests/test_app.py": base["tests/test_app.py"]}
    DRIFT.passes(Files(base=base, head=head))
