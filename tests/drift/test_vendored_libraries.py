"""A test runner's or assertion library's own code kept in the repository
(Go's `vendor/`, a committed `node_modules/` or virtual environment) decides
what every test checks: an edit there is `test_drift`, an edit to any other
vendored package is not."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate.base import globs
from gate.drift.runners import CONFIG_FILES, config_matcher, runners_for, section_change
from gate.drift.vendored import GO_TEST_MODULES, JS_TEST_COMMANDS, JS_TEST_PACKAGES
from tests.real_go import run_go_test
from tests.rulecase import Files, RuleCase

CASE = RuleCase("test_drift")

_name = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=8)
_below = st.lists(_name, min_size=0, max_size=3).map(lambda parts: "".join(p + "/" for p in parts))


def _concrete(package: str, fill: str) -> str:
    return package.replace("*", fill)


@settings(max_examples=60)
@given(
    st.sampled_from(
        [f"vendor/{m}" for m in GO_TEST_MODULES]
        + [f"node_modules/{p}" for p in JS_TEST_PACKAGES]
        + ["venv/lib/python3.12/site-packages/_pytest", ".venv/Lib/site-packages/pytest_cov"]
    ),
    _below,
    _below,
    _name,
)
def test_a_vendored_test_library_is_read_as_runner_configuration(
    place: str, above: str, below: str, fill: str
) -> None:
    path = f"{above}{_concrete(place, fill)}/{below}impl.go"
    assert runners_for(path) == ("vendored test library",), path


@given(
    st.sampled_from(
        ["vendor/github.com/pkg/errors", "node_modules/lodash", "vendor/golang.org/x/sys"]
    ),
    _below,
)
def test_other_vendored_packages_are_not(place: str, below: str) -> None:
    assert runners_for(f"{place}/{below}x.go") == ()


ASSERT = "vendor/github.com/stretchr/testify/assert/assertions.go"


def test_an_edit_to_a_vendored_assertion_library_fails_test_drift() -> None:
    base = {ASSERT: "package assert\n\nfunc ok() bool { return false }\n"}
    head = {ASSERT: "package assert\n\nfunc ok() bool { return true }\n"}
    CASE.fails(Files(base=base, head=head), "vendored test library", reported=[ASSERT])
    other = "vendor/github.com/pkg/errors/errors.go"
    CASE.passes(Files(base={other: "package errors\n"}, head={other: "package errors // x\n"}))
    jest = "web/node_modules/jest-circus/build/run.js"
    CASE.fails(Files(base={jest: "run()\n"}, head={jest: "\n"}), "vendored test library")


# A minimal vendored copy of testify's `assert.Equal`, and a module that
# builds from it (`vendor/modules.txt` names it, as `go mod vendor` writes).
GO_MOD = "module m\n\ngo 1.19\n\nrequire github.com/stretchr/testify v1.0.0\n"
MODULES_TXT = (
    "# github.com/stretchr/testify v1.0.0\n## explicit\ngithub.com/stretchr/testify/assert\n"
)
LIBRARY = """\
package assert

import "reflect"

type TestingT interface{ Errorf(format string, args ...interface{}) }

func Equal(t TestingT, expected, actual interface{}) bool {
	if !reflect.DeepEqual(expected, actual) {
		t.Errorf("not equal: %v != %v", expected, actual)
		return false
	}
	return true
}
"""
BENT = LIBRARY.replace(
    "if !reflect.DeepEqual(expected, actual) {",
    "if false && !reflect.DeepEqual(expected, actual) {",
)
TEST = """\
package m

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRed(t *testing.T) { assert.Equal(t, 1, 2) }
"""


def _verdict(output: str) -> str:
    """`ok` or `FAIL` for the module `m`: a failure must be the red test's own."""
    found = re.search(r"^(ok|FAIL)\s+m\b", output, re.M)
    assert found is not None, output
    assert found[1] == "ok" or "not equal: 1 != 2" in output, output
    return found[1]


@pytest.mark.skipif(shutil.which("go") is None, reason="needs go (the CI installs golang-go)")
def test_an_edit_to_vendored_testify_turns_a_red_test_green_under_go_test(tmp_path: Path) -> None:
    """What the rule refuses is real: `go test` builds the vendored copy, so
    the same red test passes once the copy's `Equal` is bent."""
    (tmp_path / "go.mod").write_text(GO_MOD, encoding="utf-8")
    (tmp_path / "m_test.go").write_text(TEST, encoding="utf-8")
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "modules.txt").write_text(MODULES_TXT, encoding="utf-8")
    library = tmp_path / ASSERT
    library.parent.mkdir(parents=True)

    def go_test() -> str:
        return _verdict(run_go_test(tmp_path, vendor=True))

    library.write_text(LIBRARY, encoding="utf-8")
    assert go_test() == "FAIL"  # the test's own failure: "not equal: 1 != 2"
    library.write_text(BENT, encoding="utf-8")
    assert go_test() == "ok"


_spelled = st.sampled_from([str.lower, str.upper, str.title, lambda s: s])
_places = st.sampled_from(
    [
        "vendor/github.com/stretchr/testify",
        "node_modules/jest-circus",
        "node_modules/@jest",
        "venv/lib/site-packages/_pytest",
        "vendor/github.com/pkg/errors",
        "node_modules/lodash",
        "src/vendor_tools",
        "tests",
        "vendor",
        "node_modules",
    ]
)


@settings(max_examples=300)
@given(_below, _places, _below, _spelled, st.sampled_from(globs.MODES))
def test_the_config_matcher_answers_as_the_whole_list_does(
    above: str, place: str, below: str, spell: object, mode: str
) -> None:
    """`config_matcher` asks the vendored globs only of paths that name a
    vendor folder: the same answer as one matcher of every glob, in every
    mode, for paths in any case (the folded modes merge them)."""
    for tail in ("conftest.py", "x.go", "jest.config.js", ""):
        path = spell(f"{above}{place}/{below}{tail}".rstrip("/"))  # type: ignore[operator]
        whole = globs.matcher(CONFIG_FILES, mode)(path)
        assert config_matcher(mode)(path) == whole, (path, mode)


@settings(max_examples=20)
@given(
    _below,
    st.sampled_from(
        [
            (".yarnrc.yml", "yarnPath: .yarn/releases/yarn-4.5.0.cjs\n"),
            (".yarnrc", 'yarn-path "./tools/yarn.js"\n'),
            (".yarn/releases/yarn-4.5.0.cjs", "process.exit(0)\n"),
            (".yarn/plugins/quiet.cjs", "module.exports = {}\n"),
            (".pnpmfile.cjs", "module.exports = {hooks: {readPackage: (p) => p}}\n"),
        ]
    ),
)
def test_what_runs_as_the_package_manager_is_runner_configuration(
    above: str, placed: tuple[str, str]
) -> None:
    """`yarnPath` names the file that runs as Yarn itself (`yarn test`
    included), a pnpmfile's hooks rewrite every installed package: new or
    edited, each is drift, at any depth."""
    path, text = placed
    path = f"{above}{path}"
    base = {"package.json": '{"scripts": {"test": "jest"}}\n'}
    CASE.fails(Files(base=base, head={**base, path: text}), reported=[path])
    CASE.fails(Files(base={**base, path: text}, head={**base, path: text + "\n"}), reported=[path])


REPLACE_TARGETS = st.sampled_from(
    ["./third_party/testify", "../testify", "github.com/evil/testify v1.0.0"]
)


@given(st.sampled_from(GO_TEST_MODULES), REPLACE_TARGETS, st.booleans())
def test_a_go_mod_replace_of_a_test_library_counts(module: str, target: str, block: bool) -> None:
    """A `replace` points a test library at a copy the change controls (a
    folder of the repository, a fork): the vendored copy by another road."""
    line = f"{module} => {target}"
    head = GO_MOD + (f"\nreplace (\n\t{line}\n)\n" if block else f"\nreplace {line}\n")
    assert section_change("go.mod", GO_MOD, head) == "changed"
    other = GO_MOD + f"\nreplace github.com/pkg/errors => {target}\n"
    assert section_change("go.mod", GO_MOD, other) is None
    bumped = GO_MOD.replace("v1.0.0", "v1.9.0")
    assert section_change("go.mod", GO_MOD, bumped) is None


REGISTRY = st.sampled_from(["^29.7.0", "~1.2", "1.x", ">=1 <2", "latest", "next", "*", "29.7.0"])
ELSEWHERE = st.sampled_from(
    [
        "file:./tools/jest",
        "link:../jest",
        "workspace:*",
        "portal:./x",
        "github:someone/jest",
        "someone/jest",
        "git+https://example.invalid/jest.git",
        "https://example.invalid/jest-1.0.0.tgz",
        "npm:quiet-jest@1.0.0",
    ]
)
MAPS = st.sampled_from(["dependencies", "devDependencies", "optionalDependencies"])
TEST_PACKAGES = st.sampled_from(["jest", "jest-circus", "@jest/core", "vitest", "mocha", "chai"])


@given(MAPS, TEST_PACKAGES, REGISTRY, ELSEWHERE)
def test_a_test_package_taken_from_elsewhere_than_the_registry_counts(
    where: str, name: str, version: str, source: str
) -> None:
    def render(spec: str) -> str:
        return json.dumps({"name": "app", where: {name: spec, "lodash": "^4.17.21"}})

    assert section_change("package.json", render(version), render(source)) == "added"
    assert section_change("package.json", render(source), render(version)) == "removed"
    # a version bump from the registry is a dependency change
    assert section_change("package.json", render(version), render("^30.0.0")) is None
    # another package from a file is not a test library
    other = json.dumps({"name": "app", where: {name: version, "lodash": source}})
    assert section_change("package.json", render(version), other) is None


@given(
    st.sampled_from(
        [
            ("overrides", {"jest": "1.0.0"}),
            ("overrides", {"some-tool": {"vitest": "file:./v"}}),
            ("resolutions", {"**/jest-circus": "portal:./x"}),
            ("resolutions", {"@jest/core@^29": "1.0.0"}),
        ]
    )
)
def test_an_override_of_a_test_package_counts(override: tuple[str, dict[str, object]]) -> None:
    key, table = override
    base = json.dumps({"name": "app", "devDependencies": {"jest": "^29.7.0"}})
    head = json.dumps({"name": "app", "devDependencies": {"jest": "^29.7.0"}, key: table})
    assert section_change("package.json", base, head) == "added"
    pnpm = json.dumps(
        {"name": "app", "devDependencies": {"jest": "^29.7.0"}, "pnpm": {"overrides": table}}
    )
    assert section_change("package.json", base, pnpm) == "added"


@pytest.mark.skipif(shutil.which("go") is None, reason="needs go (the CI installs golang-go)")
def test_a_replaced_testify_turns_a_red_test_green_under_go_test(tmp_path: Path) -> None:
    """The oracle for `replace`: `go test` builds the replacement."""
    fake = tmp_path / "third_party" / "testify"
    (fake / "assert").mkdir(parents=True)
    (fake / "go.mod").write_text("module github.com/stretchr/testify\n\ngo 1.19\n")
    (fake / "assert" / "assertions.go").write_text(LIBRARY, encoding="utf-8")
    replaced = GO_MOD + "\nreplace github.com/stretchr/testify => ./third_party/testify\n"
    (tmp_path / "go.mod").write_text(replaced, encoding="utf-8")
    (tmp_path / "m_test.go").write_text(TEST, encoding="utf-8")

    def go_test() -> str:
        return _verdict(run_go_test(tmp_path, "."))

    assert go_test() == "FAIL"
    (fake / "assert" / "assertions.go").write_text(BENT, encoding="utf-8")
    assert go_test() == "ok"


@settings(max_examples=20)
@given(_below, st.sampled_from(["axios.js", "lodash/index.js", "@scope/pkg.ts", "fs.cjs"]))
def test_a_manual_mock_is_runner_configuration(above: str, leaf: str) -> None:
    """Jest uses a `__mocks__/` file for a package from node_modules in every
    test that imports it, with no `jest.mock` call (jestjs.io, "Manual
    mocks"): a new, edited or deleted one is drift, at any depth."""
    path = f"{above}__mocks__/{leaf}"
    assert "jest" in runners_for(path), path
    base = {"package.json": '{"scripts": {"test": "jest"}}\n'}
    text = "module.exports = {get: () => Promise.resolve({data: 1})}\n"
    CASE.fails(Files(base=base, head={**base, path: text}), reported=[path])
    CASE.fails(Files(base={**base, path: text}, head=base), reported=[path])


PY_TOOLS = st.sampled_from(
    ["pytest", "pytest-xdist", "Pytest_Cov", "pluggy", "coverage", "hypothesis"]
)
PY_SOURCES = st.sampled_from(
    ["file:///tmp/fake", "https://example.invalid/p.tar.gz", "git+https://example.invalid/p.git"]
)
PY_TABLES = st.sampled_from(
    [
        '[project]\nname = "app"\ndependencies = [{req}]\n',
        '[project]\nname = "app"\n[project.optional-dependencies]\ntest = [{req}]\n',
        "[dependency-groups]\ndev = [{req}]\n",
    ]
)


@given(PY_TABLES, PY_TOOLS, PY_SOURCES)
def test_a_python_test_tool_by_direct_reference_counts(table: str, tool: str, source: str) -> None:
    """PEP 508's `name @ URL` installs that copy instead of the index's."""
    base = table.format(req=f'"{tool}>=1"')
    head = table.format(req=f'"{tool} @ {source}"')
    assert section_change("pyproject.toml", base, head) == "added"
    bumped = table.format(req=f'"{tool}>=2"')
    assert section_change("pyproject.toml", base, bumped) is None
    other = table.format(req=f'"requests @ {source}"')
    assert section_change("pyproject.toml", base, other) is None


@given(PY_TOOLS)
def test_a_uv_source_or_a_poetry_table_for_a_test_tool_counts(tool: str) -> None:
    base = '[project]\nname = "app"\n'
    uv = base + f'[tool.uv.sources]\n{tool} = {{ path = "./fake" }}\n'
    assert section_change("pyproject.toml", base, uv) == "added"
    other = base + '[tool.uv.sources]\nrequests = { path = "./r" }\n'
    assert section_change("pyproject.toml", base, other) is None
    poetry = f'[tool.poetry.group.dev.dependencies]\n{tool} = "^8"\n'
    forked = f'[tool.poetry.group.dev.dependencies]\n{tool} = {{ git = "https://x.invalid/p" }}\n'
    assert section_change("pyproject.toml", poetry, forked) == "added"


REQUIREMENTS = "pytest>=8\nrequests==2.31.0\n"


@given(
    st.sampled_from(
        [
            "requirements.txt",
            "requirements-dev.txt",
            "test-requirements.txt",
            "requirements/test.txt",
        ]
    ),
    st.sampled_from(
        [
            "pytest @ https://example.invalid/pytest-8.0.tar.gz",
            "git+https://example.invalid/pytest.git#egg=pytest",
            "https://example.invalid/pytest_xdist-3.0.0-py3-none-any.whl",
            "-e ./third_party/pytest",
            "./vendor/pluggy",
            "vendor/pluggy",
            "pytest-8.0.0-py3-none-any.whl",
            "C:\\wheels\\pytest-8.0.0.tar.gz",
            "~/src/pytest",
            "file:///tmp/pytest",
            "--extra-index-url https://example.invalid/simple",
            "-i https://example.invalid/simple",
            "-r more.txt",
            "-c constraints.txt",
        ]
    ),
)
def test_a_requirements_line_that_takes_a_test_tool_from_elsewhere_counts(
    path: str, line: str
) -> None:
    head = f"{line}\n{REQUIREMENTS}"
    assert section_change(path, REQUIREMENTS, head) == "changed", (path, line)


@given(
    st.sampled_from(
        [
            "pytest>=9",
            "requests==2.32.0",
            "-e .",
            ".[test]",
            "-e .[dev]",
            "git+https://example.invalid/requests.git",
            "https://example.invalid/requests-2.32.0.tar.gz",
            'requests>=2 ; python_version < "3.9"',
            "# pytest @ https://example.invalid/commented-out",
        ]
    )
)
def test_other_requirements_lines_change_freely(line: str) -> None:
    assert section_change("requirements.txt", REQUIREMENTS, f"{line}\n{REQUIREMENTS}") is None


@given(_below, st.sampled_from(JS_TEST_COMMANDS), st.sampled_from(["", ".cmd", ".ps1"]))
def test_a_test_command_in_a_committed_node_modules_bin_counts(
    above: str, command: str, shim: str
) -> None:
    """`npm test` runs `node_modules/.bin/jest` (or its shim): a command
    there is the runner; another package's command is not."""
    assert runners_for(f"{above}node_modules/.bin/{command}{shim}") == ("vendored test library",)
    assert runners_for(f"{above}node_modules/.bin/semver{shim}") == ()


def test_a_toml_date_where_a_source_is_expected_is_still_judged() -> None:
    """TOML has dates; a uv source or a Poetry entry given as one is still
    a value taken from elsewhere, compared as text, never a crash."""
    base = '[project]\nname = "app"\n'
    dated = base + "[tool.uv.sources]\npytest = 1979-05-27T07:32:00Z\n"
    assert section_change("pyproject.toml", base, dated) == "added"
    poetry = '[tool.poetry.dependencies]\npytest = [{ path = "./p", date = 1979-05-27 }]\n'
    assert section_change("pyproject.toml", base, poetry) == "added"
